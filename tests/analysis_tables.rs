//! The table analysis (E101–E105, W114, E109): the corpus, the fixes applied and re-checked,
//! witnesses replayed through the door and the reference evaluator, and a randomized
//! differential test against brute-force enumeration.

use rulec::analysis::Options;
use rulec::diag::Diagnostic;
use rulec::eval::{self, row_matches, wire};
use rulec::sema::{Program, Value};
use rulec::syntax::ast::Policy;
use rulec::{check_path, check_text, Checked, Sources};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod common;

const MINE: &[&str] = &["E101", "E102", "E103", "E104", "E105", "E109", "W114"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn rule_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    v.sort();
    v
}

fn check_file(path: &Path) -> Checked {
    let mut sources = Sources::new();
    check_path(&mut sources, path, &Options::default()).unwrap()
}

fn check_str(text: &str) -> Checked {
    check_with(text, &Options::default())
}

fn check_with(text: &str, opts: &Options) -> Checked {
    let mut sources = Sources::new();
    let path = corpus().join("broken/in_memory.rule");
    check_text(&mut sources, path.to_str().unwrap(), text, opts)
}

fn codes(c: &Checked) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

fn describe(c: &Checked) -> String {
    c.diagnostics.iter().map(|d| format!("{} {} {:?}\n", d.code, d.message, d.notes)).collect()
}

/// Every witness a diagnostic carries reads at the door and does what the diagnostic says.
fn assert_witnesses_reproduce(c: &Checked) {
    let p = c.program.as_ref().expect("a program");
    for d in &c.diagnostics {
        if let Some(w) = &d.witness {
            replay(p, d, w);
        }
    }
}

fn replay(p: &Program, d: &Diagnostic, w: &serde_json::Value) {
    let inputs =
        wire::read_inputs(p, &w["inputs"]).unwrap_or_else(|r| panic!("{}: witness refused: {}", d.code, r.what));
    let t = p.tables.iter().position(|t| Some(&t.name) == d.table.as_ref()).expect("the table");
    let table = &p.tables[t];
    let values = eval::values_before(p, &inputs, t).expect("what the table reads evaluates");
    let rows: Vec<usize> = d.rows.iter().map(|r| r.row - 1).collect();
    match d.code {
        "E101" => assert!((0..table.rows.len()).all(|r| !row_matches(table, r, &values)), "E101 witness matches a row"),
        "E102" => {
            assert!(row_matches(table, rows[0], &values) && row_matches(table, rows[1], &values));
            assert!(matches!(eval::evaluate(p, &inputs), Err(eval::EvalError::Contradiction { .. })));
        }
        "E103" => {
            // The row matches and another answers: one written before it (or ranked above it).
            assert!(row_matches(table, rows[0], &values));
            let answers = eval::pick_row(table, &values).unwrap();
            assert!(answers != rows[0] && rows[1..].contains(&answers), "{answers} answers, not one of {rows:?}");
        }
        "E104" => {
            assert!(row_matches(table, rows[0], &values) && row_matches(table, rows[1], &values));
            let res = |r: usize| -> Vec<Value> {
                table.rows[r].results.iter().map(|e| eval::eval_expr(e.as_ref().unwrap(), &values).unwrap()).collect()
            };
            assert_ne!(res(rows[0]), res(rows[1]), "E104 rows agree at the witness");
        }
        other => panic!("{other} carries a witness"),
    }
}

fn first_line_code(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next()?;
    let rest = first.strip_prefix("# expect-diagnostic: ")?;
    Some(rest.split_whitespace().next()?.trim_end_matches(',').to_string())
}

#[test]
fn clean_corpus_has_nothing_from_the_table_analysis() {
    for f in rule_files(&corpus()) {
        let c = check_file(&f);
        let mine: Vec<&str> = codes(&c).into_iter().filter(|c| MINE.contains(c)).collect();
        assert!(mine.is_empty(), "{}: {}", f.display(), describe(&c));
        let a = c.analysis.as_ref().expect("analysed");
        let p = c.program.as_ref().unwrap();
        assert_eq!(a.tables.len(), p.tables.len());
        for proof in &a.tables {
            assert!(proof.complete, "{}: table {} not complete", f.display(), proof.table);
            // Every row is reached, with a witness the evaluator confirms.
            for (r, reach) in proof.reach.iter().enumerate() {
                assert!(reach.is_some(), "{}: row {} unreached", f.display(), r + 1);
                let inputs =
                    proof.reach_inputs(p, r).unwrap_or_else(|| panic!("{}: row {} no witness", f.display(), r + 1));
                let values = eval::values_before(p, &inputs, proof.table).unwrap();
                let table = &p.tables[proof.table];
                if table.policy == Policy::First {
                    assert_eq!(eval::pick_row(table, &values).unwrap(), r);
                } else {
                    assert!(row_matches(table, r, &values));
                }
            }
        }
    }
}

#[test]
fn broken_corpus_gives_exactly_its_code() {
    let dir = corpus().join("broken");
    let mut seen = 0;
    for f in rule_files(&dir) {
        let code = first_line_code(&f).unwrap_or_default();
        let c = check_file(&f);
        let got = codes(&c);
        if MINE.contains(&code.as_str()) {
            assert_eq!(got, vec![code.as_str()], "{}: {}", f.display(), describe(&c));
            assert_witnesses_reproduce(&c);
            seen += 1;
        } else if code == "none" {
            assert!(got.is_empty(), "{}: {}", f.display(), describe(&c));
            seen += 1;
        } else {
            let mine: Vec<&str> = got.into_iter().filter(|c| MINE.contains(c)).collect();
            assert!(mine.is_empty(), "{}: {}", f.display(), describe(&c));
        }
    }
    assert_eq!(seen, 7, "gap, overlap, shadowed, any_disagree, dead_row, derived_overlap, integer_cut");
}

/// Apply a diagnostic's fix to the text.
fn apply_fix(text: &str, d: &Diagnostic) -> String {
    let fix = d.fix.as_ref().expect("a fix");
    let (_, at) = fix.at.expect("the fix says where");
    let mut out = text.to_string();
    out.replace_range(at.range(), &fix.text);
    out
}

fn fix_removes_code(name: &str, code: &str, kind: &str) -> String {
    let path = corpus().join("broken").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let c = check_str(&text);
    assert_eq!(codes(&c), vec![code], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert_eq!(d.fix.as_ref().unwrap().kind, kind);
    let fixed = apply_fix(&text, d);
    let again = check_str(&fixed);
    assert!(again.diagnostics.is_empty(), "after the fix:\n{fixed}\n{}", describe(&again));
    fixed
}

#[test]
fn gap_fix_adds_a_row_that_parses_and_closes_the_gap() {
    let fixed = fix_removes_code("gap.rule", "E101", "add_row");
    assert!(fixed.contains("| overseas | large | 45USD |\n| overseas | small | 0USD |\n"), "{fixed}");
    // The fix is the row as one line (formats.md: `"text":"| overseas | small | … |"`),
    // inserted where the next line starts: no blank line before it.
    let text = std::fs::read_to_string(corpus().join("broken/gap.rule")).unwrap();
    let c = check_str(&text);
    let fix = c.diagnostics[0].fix.as_ref().unwrap();
    assert_eq!(fix.text, "| overseas | small | 0USD |\n");
    let (_, at) = fix.at.unwrap();
    assert!(at.start as usize == 0 || text.as_bytes()[at.start as usize - 1] == b'\n', "at the start of a line");
}

#[test]
fn shadowed_fix_removes_the_row() {
    let fixed = fix_removes_code("shadowed.rule", "E103", "remove_row");
    assert!(!fixed.contains(">=65"));
}

#[test]
fn dead_row_fix_removes_the_row() {
    fix_removes_code("dead_row.rule", "E105", "remove_row");
}

#[test]
fn overlap_at_one_cut_flips_the_bound_and_says_why() {
    let path = corpus().join("broken/overlap.rule");
    let c = check_file(&path);
    let d = &c.diagnostics[0];
    assert_eq!(d.code, "E102");
    let fix = d.fix.as_ref().expect("E102 offers a fix");
    // `<=10lb` against `>=10lb`: the rows meet at 10lb alone, and `>10lb` parts them.
    assert_eq!((fix.kind, fix.text.as_str()), ("flip_bound", ">10lb <=30lb"));
    assert!(d.notes.iter().any(|n| n.contains("not a decision about which row the cut belongs to")));
    let fixed = apply_fix(&std::fs::read_to_string(&path).unwrap(), d);
    assert!(fixed.contains("| >10lb <=30lb | 2    |"), "{fixed}");
    assert!(check_str(&fixed).diagnostics.is_empty(), "{}", describe(&check_str(&fixed)));
    assert_eq!(d.rows.iter().map(|r| r.row).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(d.secondary.len(), 1);
    assert_eq!(d.witness.as_ref().unwrap()["inputs"]["weight"], serde_json::json!(10));
    // Where the row keeping the cut does not take all the other one does (another column
    // parts them), flipping would leave inputs without a row: no flip_bound.
    let text = "rule o v1\nenum z: a, b\ninput w: int 0..20\ninput d: z\noutput k: int 1..3\ntable t -> k\n| w | d | k |\n|---|---|---|\n| <=10 | a | 1 |\n| >=10 | - | 2 |\n| <10 | b | 3 |\n";
    let c = check_str(text);
    assert_eq!(codes(&c), vec!["E102"], "{}", describe(&c));
    assert_eq!(c.diagnostics[0].fix.as_ref().unwrap().kind, "change_policy");
}

#[test]
fn overlap_fix_makes_the_table_first_and_says_why() {
    // The rows share a stretch of weights, not one cut: the fix is the policy.
    let path = corpus().join("broken/overlap.rule");
    let text = std::fs::read_to_string(&path).unwrap().replace("| >=10lb <=30lb |", "| >=5lb <=30lb  |");
    let c = check_str(&text);
    let d = &c.diagnostics[0];
    assert_eq!(d.code, "E102");
    let fix = d.fix.as_ref().expect("E102 offers a fix");
    assert_eq!((fix.kind, fix.text.as_str()), ("change_policy", " first"));
    assert!(d.notes.iter().any(|n| n.contains("not a decision about which row is right")));
    // Applied, the overlap is gone and nothing else appears.
    let fixed = apply_fix(&text, d);
    assert!(fixed.contains("table band_of first -> band"), "{fixed}");
    assert!(check_str(&fixed).diagnostics.is_empty(), "{}", describe(&check_str(&fixed)));
    // A policy written as `unique` is replaced, not doubled.
    let written = text.replace("table band_of -> band", "table band_of unique -> band");
    let c2 = check_str(&written);
    let fixed2 = apply_fix(&written, &c2.diagnostics[0]);
    assert!(fixed2.contains("table band_of first -> band"), "{fixed2}");
}

#[test]
fn gap_fix_applies_at_the_end_of_a_file_without_a_final_newline() {
    let text = "rule g v1\ninput n: int 0..10\noutput k: int 0..3\ntable t -> k\n| n | k |\n|---|---|\n| <=3 | 1 |\n| >=5 | 2 |";
    let c = check_str(text);
    assert_eq!(codes(&c), vec!["E101"], "{}", describe(&c));
    let fixed = apply_fix(text, &c.diagnostics[0]);
    assert!(fixed.ends_with("| >=5 | 2 |\n| 4 | 0 |"), "{fixed}");
    assert!(check_str(&fixed).diagnostics.is_empty());
}

#[test]
fn gap_fix_row_widens_to_the_whole_uncovered_box() {
    let text = "rule g v1\nenum z: a, b, c\ninput n: int 0..100\ninput z: z\ninput f: bool\noutput k: int 0..3\n\
table t -> k\n| n | z | f | k |\n|---|---|---|---|\n| <=10 | - | - | 1 |\n| >=51 | - | - | 2 |\n| >10 <=50 | a | - | 3 |\n";
    let c = check_str(text);
    assert_eq!(codes(&c), vec!["E101"], "{}", describe(&c));
    let fix = c.diagnostics[0].fix.as_ref().unwrap();
    assert_eq!(fix.text, "| >=11 <=50 | b, c | - | 0 |\n");
    assert!(check_str(&apply_fix(text, &c.diagnostics[0])).diagnostics.is_empty());
}

#[test]
fn gap_fix_for_strings_optionals_and_dates() {
    let text = "rule g v1\ninput s: string\ninput o: bool?\ninput d: date 2026-01-01..2026-12-31\noutput k: int 0..3\n\
table t -> k\n| s | o | d | k |\n|---|---|---|---|\n| \"JP\" | - | - | 1 |\n| not: \"JP\" | true | - | 2 |\n| not: \"JP\" | false | <=2026-06-30 | 3 |\n";
    let c = check_str(text);
    assert_eq!(codes(&c), vec!["E101"], "{}", describe(&c));
    assert_witnesses_reproduce(&c);
    let fixed = apply_fix(text, &c.diagnostics[0]);
    let again = check_str(&fixed);
    assert_eq!(codes(&again), vec!["E101"], "one of two gaps is fixed: {}", describe(&again));
    let fixed = apply_fix(&fixed, &again.diagnostics[0]);
    assert!(check_str(&fixed).diagnostics.is_empty(), "{fixed}");
}

#[test]
fn units_convert_to_the_column_unit() {
    // `<=2kg` on grams is 2000g; `<10lb` on pounds is `<=9lb`.
    let text = "rule u v1\ninput w: mass[g] 1g..40000g\ninput p: mass[lb] 1lb..70lb\noutput k: int 0..3\n\
table a -> k\n| w | p | k |\n|---|---|---|\n| <=2kg | <10lb | 1 |\n| >2000g | <=9lb | 2 |\n| - | >=10lb | 3 |\n";
    let c = check_str(text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    let text2 = text.replace("| >2000g | <=9lb | 2 |", "| >2001g | <=9lb | 2 |");
    let c = check_str(&text2);
    assert_eq!(codes(&c), vec!["E101"], "{}", describe(&c));
    assert_eq!(c.diagnostics[0].witness.as_ref().unwrap()["inputs"]["w"], serde_json::json!(2001));
}

#[test]
fn a_diamond_through_a_derived_value_is_not_a_gap() {
    // size is decided from weight; the second table reads both: (small, >10lb) is never asked.
    let text = "rule d v1\nenum size_class: small, large\ninput weight: int 1..70\nvalue size: size_class\noutput fee: int 0..100\n\
table size_of -> size\n| weight | size |\n|---|---|\n| <=10 | small |\n| >10 | large |\n\
table fee_of -> fee\n| size | weight | fee |\n|---|---|---|\n| small | <=10 | 1 |\n| large | >10 <=50 | 2 |\n| large | >50 | 3 |\n";
    let c = check_str(text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    // A row asking for an impossible combination is dead, and says why.
    let text2 = text.replace("| large | >50 | 3 |", "| large | >50 | 3 |\n| small | >60 | 4 |");
    let c = check_str(&text2);
    assert_eq!(codes(&c), vec!["E105"], "{}", describe(&c));
    assert!(c.diagnostics[0].notes.iter().any(|n| n.contains("size_of")), "{}", describe(&c));
}

#[test]
fn two_columns_on_one_input_are_read_together() {
    let text = "rule d v1\ninput x: int 0..10\noutput k: int 0..3\ntable t -> k\n| x | x | k |\n|---|---|---|\n\
| <=5 | - | 1 |\n| >5 | >=6 | 2 |\n";
    assert!(check_str(text).diagnostics.is_empty());
    let c = check_str(&format!("{text}| <=5 | >7 | 3 |\n"));
    assert_eq!(codes(&c), vec!["E105"], "{}", describe(&c));
}

#[test]
fn a_boolean_define_is_a_linear_fact() {
    let text = "rule b v1\ninput visits: int 0..100\ndefine regular = visits >= 12\noutput k: int 0..3\n\
table t -> k\n| regular | visits | k |\n|---|---|---|\n| true | - | 1 |\n| false | <=11 | 2 |\n";
    let c = check_str(text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    let text2 = text.replace("| false | <=11 | 2 |", "| false | <=10 | 2 |");
    let c = check_str(&text2);
    assert_eq!(codes(&c), vec!["E101"], "{}", describe(&c));
    assert_eq!(c.diagnostics[0].witness.as_ref().unwrap()["inputs"]["visits"], serde_json::json!(11));
    let text3 = text.replace("| false | <=11 | 2 |", "| false | <=11 | 2 |\n| true | <=11 | 3 |");
    let c = check_str(&text3);
    assert_eq!(codes(&c), vec!["E105"], "{}", describe(&c));
}

#[test]
fn derived_overlap_is_refuted_with_farkas_multipliers() {
    let c = check_file(&corpus().join("broken/derived_overlap.rule"));
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    let proof = &c.analysis.as_ref().unwrap().tables[0];
    assert!(proof.linear.linked);
    let refuted: Vec<_> = proof
        .leaves()
        .iter()
        .filter_map(|l| match &l.asked {
            rulec::analysis::tables::cover::Asked::No(r) => Some((l, r)),
            _ => None,
        })
        .collect();
    assert_eq!(refuted.len(), 1, "the one box no row takes");
    assert!(refuted[0].0.rows.is_empty());
    assert!(matches!(refuted[0].1, rulec::analysis::tables::Refutation::Farkas(f) if !f.is_empty()));
}

#[test]
fn pairs_not_parted_nor_meeting_are_w114_with_a_guard() {
    // 2x = 2y + 1 has rational points and no integer one: rows 1 and 2 cannot be parted by
    // the linear model, and no input makes them meet.
    let text = "rule w v1\ninput x: int 0..10\ninput y: int 0..10\nconstraint x + x = y + y + 1\noutput k: int 0..3\n\
table t -> k\n| x | y | k |\n|---|---|---|\n| >=3 | - | 1 |\n| <3 | - | 2 |\n| - | <=3 | 2 |\n";
    let c = check_str(text);
    assert_eq!(codes(&c), vec!["W114", "W114"], "{}", describe(&c));
    let guards: Vec<(usize, usize)> = c.analysis.as_ref().unwrap().guards.iter().map(|g| (g.a, g.b)).collect();
    assert_eq!(guards, vec![(1, 3), (2, 3)]);
    let proof = &c.analysis.as_ref().unwrap().tables[0];
    assert_eq!(proof.undecided.len(), 2);
}

#[test]
fn budget_exhaustion_is_e109_and_nothing_else() {
    let text = std::fs::read_to_string(corpus().join("broken/overlap.rule")).unwrap();
    let c = check_with(&text, &Options { budget: 1 });
    assert_eq!(codes(&c), vec!["E109"], "{}", describe(&c));
    assert!(!c.analysis.as_ref().unwrap().tables[0].complete);
}

#[test]
fn any_rows_that_agree_are_fine_and_expressions_are_compared_at_the_witness() {
    let text = "rule a v1\ninput x: int 0..10\ninput y: int 0..10\noutput k: int 0..30\n\
table t any -> k\n| x | y | k |\n|---|---|---|\n| >=5 | - | x + y |\n| - | >=5 | x + y |\n| <5 | <5 | 0 |\n";
    assert!(check_str(text).diagnostics.is_empty());
    // y + x is x + y: the same linear form.
    let text2 = text.replace("| - | >=5 | x + y |", "| - | >=5 | y + x |");
    assert!(check_str(&text2).diagnostics.is_empty());
    // max(x, y) and x agree wherever the constraint lets both rows match, but the checker
    // can neither prove that nor find an input where they differ: W114.
    let text4 = text
        .replace("output k", "constraint y <= x\noutput k")
        .replace("| >=5 | - | x + y |", "| >=5 | - | max(x, y) |")
        .replace("| - | >=5 | x + y |", "| - | >=5 | x |");
    let c = check_str(&text4);
    assert_eq!(codes(&c), vec!["W114"], "{}", describe(&c));
    let text3 = text.replace("| - | >=5 | x + y |", "| - | >=5 | x |");
    let c = check_str(&text3);
    assert_eq!(codes(&c), vec!["E104"], "{}", describe(&c));
    assert_witnesses_reproduce(&c);
}

#[test]
fn proof_states_disjointness_by_the_tree() {
    let c = check_file(&corpus().join("parcel_rate.rule"));
    let a = c.analysis.as_ref().unwrap();
    for proof in &a.tables {
        // Every leaf lists exactly the rows containing it; others miss it on some axis.
        for leaf in proof.leaves() {
            for (r, row) in proof.rows.iter().enumerate() {
                let contains = row
                    .accepts
                    .iter()
                    .zip(&leaf.ranges)
                    .all(|(runs, &(a, b))| runs.iter().any(|&(s, e)| s <= a && b <= e));
                let misses = row
                    .accepts
                    .iter()
                    .zip(&leaf.ranges)
                    .any(|(runs, &(a, b))| !runs.iter().any(|&(s, e)| s <= b && a <= e));
                assert_eq!(contains, leaf.rows.contains(&(r as u32)));
                assert!(contains || misses, "row {} partly in a leaf", r + 1);
            }
        }
        // No two rows share a leaf in a unique table, and each pair has a parting axis.
        if proof.policy == Policy::Unique {
            assert!(proof.leaves().iter().all(|l| l.rows.len() <= 1));
            for x in 0..proof.rows.len() {
                for y in x + 1..proof.rows.len() {
                    assert!(proof.parting_axis(x, y).is_some());
                }
            }
        }
    }
}

// ---- the randomized differential test

/// splitmix64
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
}

#[derive(Clone, Debug)]
enum Col {
    Int {
        hi: i64,
        optional: bool,
    },
    /// Values are named `a{id}`, `b{id}`, … (each enum its own names).
    Enum {
        values: usize,
        ordered: bool,
        id: usize,
    },
    Bool {
        optional: bool,
    },
}

fn int_cell(rng: &mut Rng, hi: i64, optional: bool) -> String {
    let k = |rng: &mut Rng| rng.range(-1, hi + 1);
    let base = match rng.below(11) {
        0 => "-".to_string(),
        1 => format!("<={}", k(rng)),
        2 => format!("<{}", k(rng)),
        3 => format!(">={}", k(rng)),
        4 => format!(">{}", k(rng)),
        5 => format!("{}", k(rng)),
        6 => {
            let a = k(rng);
            let b = k(rng);
            format!(">={} <={}", a.min(b), a.max(b))
        }
        7 => format!("{}, {}", k(rng), k(rng)),
        8 => format!("not: {}", k(rng)),
        9 => format!("not: <={}", k(rng)),
        _ => format!("<={}, >={}", k(rng), k(rng)),
    };
    if optional && rng.chance(25) {
        match rng.below(3) {
            0 => "none".into(),
            1 if base != "-" && !base.starts_with("not:") => format!("none, {base}"),
            _ => "not: none".into(),
        }
    } else {
        base
    }
}

const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn enum_cell(rng: &mut Rng, col: usize, n: usize, ordered: bool) -> String {
    // `col` is the enum's id: its values are `a{col}`, `b{col}`, … and its group `g{col}`.
    let v = |rng: &mut Rng| format!("{}{col}", NAMES[rng.below(n as u64) as usize]);
    match rng.below(if ordered { 7 } else { 5 }) {
        0 => "-".into(),
        1 => v(rng),
        2 => format!("{}, {}", v(rng), v(rng)),
        3 => format!("not: {}", v(rng)),
        4 => format!("g{col}"),
        5 => format!(">={}", v(rng)),
        _ => format!("<{}", v(rng)),
    }
}

fn bool_cell(rng: &mut Rng, optional: bool) -> String {
    let all: &[&str] = if optional {
        &["-", "true", "false", "not: true", "none", "false, none", "not: none", "true, none", "not: false"]
    } else {
        &["-", "true", "false", "not: true", "true, false"]
    };
    all[rng.below(all.len() as u64) as usize].into()
}

struct Case {
    text: String,
    policy: Policy,
}

/// Cells that split one column's values into parts, each exactly once (a complete and
/// disjoint table keyed by it).
fn partition(rng: &mut Rng, col: &Col) -> Vec<String> {
    match col {
        Col::Int { hi, optional } => {
            let mut cuts = vec![rng.range(0, hi - 1), rng.range(0, hi - 1)];
            cuts.sort();
            cuts.dedup();
            let mut p = vec![format!("<={}", cuts[0])];
            if cuts.len() == 2 {
                p.push(format!(">{} <={}", cuts[0], cuts[1]));
            }
            p.push(format!(">{}", cuts[cuts.len() - 1]));
            if *optional {
                p.push("none".into());
            }
            p
        }
        Col::Enum { values, id, .. } => NAMES[..*values].iter().map(|n| format!("{n}{id}")).collect(),
        Col::Bool { optional } => {
            let mut p = vec!["true".to_string(), "false".to_string()];
            if *optional {
                p.push("none".into());
            }
            p
        }
    }
}

/// Which policy a case takes: by its place, so that the cases before multiple-hit tables
/// existed stay the cases they were.
#[derive(Clone, Copy)]
enum Pick {
    Single {
        priority: bool,
    },
    /// One of DMN's multiple-hit policies, drawn after the rule's cells.
    Multi,
}

fn random_rule(rng: &mut Rng, pick: Pick) -> Case {
    let priority = matches!(pick, Pick::Single { priority: true });
    let ncols = rng.range(1, 3) as usize;
    let mut cols = Vec::new();
    for _ in 0..ncols {
        cols.push(match rng.below(6) {
            0 | 1 => Col::Int { hi: rng.range(2, 12), optional: rng.chance(15) },
            2 => Col::Enum { values: rng.range(2, 4) as usize, ordered: rng.chance(50), id: cols.len() },
            3 => Col::Bool { optional: false },
            4 => Col::Bool { optional: true },
            _ => Col::Int { hi: rng.range(2, 6), optional: false },
        });
    }
    // Every fourth case is `priority`, picked by its place so that the others stay the cases
    // they were before it existed.
    let policy = match rng.below(3) {
        _ if priority => Policy::Priority,
        0 => Policy::Unique,
        1 => Policy::First,
        _ => Policy::Any,
    };
    let mut text = String::from("rule r v1\n");
    let mut heads: Vec<String> = Vec::new();
    let mut ints: Vec<(String, i64)> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        match c {
            Col::Int { hi, optional } => {
                let q = if *optional { "?" } else { "" };
                text.push_str(&format!("input x{i}: int{q} 0..{hi}\n"));
                if !optional {
                    ints.push((format!("x{i}"), *hi));
                }
            }
            Col::Enum { values, ordered, .. } => {
                let sep = if *ordered { " < " } else { ", " };
                let names: Vec<String> = NAMES[..*values].iter().map(|n| format!("{n}{i}")).collect();
                text.push_str(&format!("enum e{i}: {}\n", names.join(sep)));
                text.push_str(&format!("group g{i} = {}\n", names[..2].join(", ")));
                text.push_str(&format!("input x{i}: e{i}\n"));
            }
            Col::Bool { optional } => {
                text.push_str(&format!("input x{i}: bool{}\n", if *optional { "?" } else { "" }));
            }
        }
        heads.push(format!("x{i}"));
    }
    // Sometimes a relation: one linear constraint, a sum define or a boolean define as a column.
    let mut extra: Option<(String, Col)> = None;
    if ints.len() >= 2 && rng.chance(30) {
        let (a, ha) = ints[0].clone();
        let (b, hb) = ints[1].clone();
        match rng.below(3) {
            0 => text.push_str(&format!("constraint {a} <= {b} + {}\n", rng.range(-2, 2))),
            1 => text.push_str(&format!("constraint {a} + {b} <= {}\n", rng.range(1, ha + hb))),
            _ => {
                text.push_str(&format!("define s: int 0..{} = {a} + {b}\n", ha + hb));
                extra = Some(("s".into(), Col::Int { hi: ha + hb, optional: false }));
            }
        }
    } else if !ints.is_empty() && rng.chance(15) {
        let (a, ha) = ints[0].clone();
        text.push_str(&format!("define big = {a} >= {}\n", rng.range(0, ha)));
        extra = Some(("big".into(), Col::Bool { optional: false }));
    }
    if let Some((name, c)) = &extra {
        heads.push(name.clone());
        cols.push(c.clone());
    }
    // Sometimes a value decided by another table (complete and disjoint, over x0) read as a
    // column too: a diamond through a derived value.
    let mut sub = String::new();
    if rng.chance(20) {
        let ordered = rng.chance(50);
        text.push_str(&format!(
            "enum e9: {}\ngroup g9 = a9, b9\nvalue v: e9\n",
            if ordered { "a9 < b9 < c9" } else { "a9, b9, c9" }
        ));
        let parts = partition(rng, &cols[0]);
        sub.push_str("table u -> v\n| x0 | v |\n|---|---|\n");
        for part in parts {
            sub.push_str(&format!("| {part} | {}9 |\n", NAMES[rng.below(3) as usize]));
        }
        heads.push("v".into());
        cols.push(Col::Enum { values: 3, ordered, id: 9 });
    }
    // Sometimes a column computed by something that is not linear (issue 17): `mod`, `isqrt`,
    // a rounding in any mode, a product of two inputs, a product with a factor a table gives
    // (that factor sometimes at the end of a chain of two or three tables), or a boolean
    // define comparing such a product.
    let nonlinear: u64 = std::env::var("RULEC_DIFF_NONLINEAR").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    if !ints.is_empty() && rng.chance(nonlinear) {
        let (a, ha) = ints[rng.below(ints.len() as u64) as usize].clone();
        // A factor 0..3 decided by a chain of `n` tables, the first keyed by one of the columns.
        let factor = |rng: &mut Rng, text: &mut String, sub: &mut String, n: usize| -> String {
            let j = rng.below(ncols as u64) as usize;
            for k in 1..=n {
                text.push_str(&format!("value f{k}: int 0..3\n"));
                let (key, parts) = if k == 1 {
                    (format!("x{j}"), partition(rng, &cols[j]))
                } else {
                    let c = rng.range(0, 2);
                    (format!("f{}", k - 1), vec![format!("<={c}"), format!(">{c}")])
                };
                sub.push_str(&format!("table f{k}_of -> f{k}\n| {key} | f{k} |\n|---|---|\n"));
                for part in parts {
                    sub.push_str(&format!("| {part} | {} |\n", rng.range(0, 3)));
                }
            }
            format!("f{n}")
        };
        let (name, col) = match rng.below(8) {
            0 => {
                let k = rng.range(2, 4);
                text.push_str(&format!("define m = mod({a}, {k})\n"));
                ("m".to_string(), Col::Int { hi: k - 1, optional: false })
            }
            1 => {
                text.push_str(&format!("define r = isqrt({a})\n"));
                ("r".to_string(), Col::Int { hi: (ha as f64).sqrt() as i64, optional: false })
            }
            2 => {
                let k = rng.range(2, 4);
                let mode =
                    ["up", "down", "ceiling", "floor", "half_up", "half_down", "half_even"][rng.below(7) as usize];
                text.push_str(&format!("define h = round({a} / {k}, {mode}, 1)\n"));
                ("h".to_string(), Col::Int { hi: ha / k + 1, optional: false })
            }
            3 if ints.len() >= 2 => {
                let (b, hb) = ints.iter().find(|(n, _)| *n != a).cloned().unwrap();
                text.push_str(&format!("define p = {a} * {b}\n"));
                ("p".to_string(), Col::Int { hi: ha * hb, optional: false })
            }
            4..=6 => {
                let n = match rng.below(3) {
                    0 => 1,
                    1 => 2,
                    _ => 3,
                };
                let f = factor(rng, &mut text, &mut sub, n);
                text.push_str(&format!("define q = {a} * {f}\n"));
                ("q".to_string(), Col::Int { hi: ha * 3, optional: false })
            }
            _ => {
                let n = rng.range(1, 2) as usize;
                let f = factor(rng, &mut text, &mut sub, n);
                let other = ints.iter().find(|(n, _)| *n != a).map(|(n, _)| n.clone()).unwrap_or_else(|| "0".into());
                text.push_str(&format!("define ok = {a} * {f} >= {other} + {}\n", rng.range(-1, 3)));
                ("ok".to_string(), Col::Bool { optional: false })
            }
        };
        heads.push(name);
        cols.push(col);
    }
    // Sometimes one column twice.
    if rng.chance(10) {
        let j = rng.below(heads.len() as u64) as usize;
        heads.push(heads[j].clone());
        cols.push(cols[j].clone());
    }
    let policy = match pick {
        Pick::Multi => match rng.below(4) {
            0 => Policy::CollectSum,
            1 => Policy::CollectMax,
            2 => Policy::CollectCount,
            _ => Policy::Collect,
        },
        Pick::Single { .. } => policy,
    };
    let pol = match policy {
        Policy::Unique => String::new(),
        p => format!(" {}", p.as_str()),
    };
    // A priority table's result is a member of an enum, its rank the member's place. A sum
    // or a greatest sometimes has a default, its answer when no row holds: then no gap.
    match policy {
        Policy::Priority => text.push_str("enum grade: g0, g1, g2, g3\noutput out: grade\n"),
        Policy::Collect => text.push_str("output out: list[int]\n"),
        Policy::CollectSum | Policy::CollectMax if rng.chance(50) => text.push_str("output out: int 0..50 default 0\n"),
        _ => text.push_str("output out: int 0..50\n"),
    }
    text.push_str(&format!("table t{pol} -> out\n"));
    text.push_str(&format!("| {} | out |\n", heads.join(" | ")));
    text.push_str(&format!("|{}---|\n", "---|".repeat(heads.len())));
    let nrows = rng.range(1, 6);
    for _ in 0..nrows {
        let cells: Vec<String> = cols
            .iter()
            .map(|c| match c {
                Col::Int { hi, optional } => int_cell(rng, *hi, *optional),
                Col::Enum { values, ordered, id } => enum_cell(rng, *id, *values, *ordered),
                Col::Bool { optional } => bool_cell(rng, *optional),
            })
            .collect();
        let out = match policy {
            Policy::Any => rng.range(0, 2).to_string(),
            Policy::Priority => format!("grade.g{}", rng.range(0, 3)),
            _ => rng.range(0, 9).to_string(),
        };
        text.push_str(&format!("| {} | {out} |\n", cells.join(" | ")));
    }
    text.push_str(&sub);
    Case { text, policy }
}

#[derive(Debug, PartialEq, Eq, Default)]
struct Verdicts {
    gap: bool,
    overlaps: BTreeSet<(usize, usize)>,
    disagree: BTreeSet<(usize, usize)>,
    shadowed: BTreeSet<usize>,
    dead: BTreeSet<usize>,
}

/// Every input of the domain, through the door's constraints and the evaluator.
fn brute_force(p: &Program) -> Verdicts {
    let mut domains: Vec<Vec<Value>> = Vec::new();
    for &v in &p.inputs {
        let var = &p.vars[v];
        let mut d: Vec<Value> = match &var.ty {
            rulec::sema::Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
            rulec::sema::Ty::Enum(e) => (0..p.enums[*e].values.len() as u32).map(Value::Enum).collect(),
            _ => {
                let Some((Value::Num(lo), Value::Num(hi))) = var.range.clone() else { panic!("range") };
                let (lo, hi) = (lo.to_integer().try_into().unwrap(), hi.to_integer().try_into().unwrap());
                (lo..=hi).map(|n: i64| Value::Num(rulec::num::int(n))).collect()
            }
        };
        if var.optional {
            d.push(Value::None);
        }
        domains.push(d);
    }
    let ti = p.tables.iter().position(|t| t.name == "t").unwrap();
    let t = &p.tables[ti];
    let n = t.rows.len();
    let mut v = Verdicts::default();
    let mut matched = vec![false; n];
    let mut won = vec![false; n];
    let mut idx = vec![0usize; domains.len()];
    loop {
        let inputs: Vec<Value> = idx.iter().zip(&domains).map(|(&i, d)| d[i].clone()).collect();
        let mut values = vec![Value::None; p.vars.len()];
        for (&var, x) in p.inputs.iter().zip(&inputs) {
            values[var] = x.clone();
        }
        let accepted = p.constraints.iter().all(|c| eval::eval_expr(&c.expr, &values) != Ok(Value::Bool(false)));
        let values = if accepted { eval::values_before(p, &inputs, ti).ok() } else { None };
        if let Some(values) = values {
            let rows: Vec<usize> = (0..n).filter(|&r| row_matches(t, r, &values)).collect();
            let defaulted = p.vars[t.results[0]].default.is_some();
            let no_answer = match t.policy {
                Policy::CollectSum | Policy::CollectMax => !defaulted,
                policy => !policy.multi_hit(),
            };
            if rows.is_empty() && no_answer {
                v.gap = true;
            }
            for &r in &rows {
                matched[r] = true;
            }
            // The row that answers: the first, or under priority the first of the lowest place.
            let place = |r: usize| match eval::eval_expr(t.rows[r].results[0].as_ref().unwrap(), &values) {
                Ok(Value::Enum(i)) => i,
                other => panic!("a priority result is a member: {other:?}"),
            };
            let answers = match t.policy {
                Policy::Priority => rows.iter().copied().min_by_key(|&r| (place(r), r)),
                _ => rows.first().copied(),
            };
            if let Some(f) = answers {
                won[f] = true;
            }
            for x in 0..rows.len() {
                for y in x + 1..rows.len() {
                    let (a, b) = (rows[x], rows[y]);
                    match t.policy {
                        Policy::Unique => {
                            v.overlaps.insert((a + 1, b + 1));
                        }
                        Policy::Any => {
                            let res =
                                |r: usize| eval::eval_expr(t.rows[r].results[0].as_ref().unwrap(), &values).unwrap();
                            if res(a) != res(b) {
                                v.disagree.insert((a + 1, b + 1));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        // next point
        let mut k = 0;
        loop {
            if k == idx.len() {
                for r in 0..n {
                    if !matched[r] {
                        v.dead.insert(r + 1);
                    } else if t.policy.takes_first() && !won[r] {
                        v.shadowed.insert(r + 1);
                    }
                }
                return v;
            }
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

fn analysed(c: &Checked) -> Verdicts {
    let mut v = Verdicts::default();
    for d in c.diagnostics.iter().filter(|d| d.table.as_deref() == Some("t")) {
        let rows: Vec<usize> = d.rows.iter().map(|r| r.row).collect();
        match d.code {
            "E101" => v.gap = true,
            "E102" => {
                v.overlaps.insert((rows[0], rows[1]));
            }
            "E104" => {
                v.disagree.insert((rows[0], rows[1]));
            }
            "E103" => {
                v.shadowed.insert(rows[0]);
            }
            "E105" => {
                v.dead.insert(rows[0]);
            }
            _ => {}
        }
    }
    v
}

#[test]
fn randomized_differential_against_brute_force() {
    let base: u64 = std::env::var("RULEC_DIFF_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x7ab1e5);
    let cases: u64 = std::env::var("RULEC_DIFF_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000);
    println!("differential: base seed {base}, {cases} cases (RULEC_DIFF_SEED, RULEC_DIFF_CASES)");
    let started = std::time::Instant::now();
    let mut by_policy = [0usize; 5];
    let mut findings = 0usize;
    for i in 0..cases {
        let seed = base.wrapping_add(i.wrapping_mul(0x9e37_79b9));
        let mut rng = Rng(seed);
        let pick = if i % 5 == 4 { Pick::Multi } else { Pick::Single { priority: i % 4 == 3 } };
        let case = random_rule(&mut rng, pick);
        let c = check_str(&case.text);
        let unexpected: Vec<&Diagnostic> =
            c.diagnostics.iter().filter(|d| !["E101", "E102", "E103", "E104", "E105"].contains(&d.code)).collect();
        assert!(
            unexpected.is_empty(),
            "case {i} (seed {seed}): unexpected diagnostics\n{}\n{}",
            case.text,
            describe(&c)
        );
        let p = c.program.as_ref().unwrap_or_else(|| panic!("case {i} (seed {seed}) does not lower:\n{}", case.text));
        let want = brute_force(p);
        let got = analysed(&c);
        assert_eq!(got, want, "case {i} (seed {seed}) disagrees with brute force:\n{}\n{}", case.text, describe(&c));
        for d in c.diagnostics.iter().filter(|d| d.table.as_deref() == Some("t")) {
            if d.code == "E101" {
                assert!(d.witness.is_some(), "case {i} (seed {seed}): E101 without a witness\n{}", case.text);
            }
        }
        assert_witnesses_reproduce(&c);
        common::assert_no_unproven_claim(&c, &format!("case {i} (seed {seed})\n{}", case.text));
        by_policy[match case.policy {
            Policy::Unique => 0,
            Policy::First => 1,
            Policy::Any => 2,
            Policy::Priority => 3,
            _ => 4,
        }] += 1;
        findings += c.diagnostics.len();
    }
    println!(
        "differential: {cases} rules (unique {}, first {}, any {}, priority {}, multiple-hit {}), {findings} findings, {:.1?}",
        by_policy[0],
        by_policy[1],
        by_policy[2],
        by_policy[3],
        by_policy[4],
        started.elapsed()
    );
}

/// DMN's priority: of the rows that match, the one whose result comes first in its enum.
const PRIORITY: &str = "rule pick v1

enum class: express, standard, economy

input weight: int 0..50
input member: bool

output ship: class

table class_of priority -> ship
| weight | member | ship     |
|--------|--------|----------|
| -      | -      | economy  |
| <=10   | -      | standard |
| <=5    | true   | express  |
";

#[test]
fn a_priority_table_whose_rows_overlap_checks_clean_and_answers_by_rank() {
    let c = check_str(PRIORITY);
    assert!(codes(&c).is_empty(), "{}", describe(&c));
    let p = c.program.as_ref().unwrap();
    // The row that answers (1-based) and the member it gives.
    let answer = |weight: i64, member: bool| {
        let inputs = wire::read_inputs(p, &serde_json::json!({"weight": weight, "member": member})).unwrap();
        let out = eval::evaluate(p, &inputs).unwrap();
        (out.trace[0].row, out.values[p.outputs[0]].clone())
    };
    // All three rows match at weight 3 for a member: express is ranked first, the third row.
    assert_eq!(answer(3, true), (3, Value::Enum(0)));
    assert_eq!(answer(3, false), (2, Value::Enum(1)));
    assert_eq!(answer(30, true), (1, Value::Enum(2)));
}

#[test]
fn a_priority_row_masked_by_rows_ranked_above_it_is_e103_with_a_witness() {
    // Row 1 (economy, the last in the enum) lies inside row 3 (express): it never answers,
    // though it is written first.
    let text = PRIORITY
        .replace("| -      | -      | economy  |", "| <=3    | true   | economy  |\n| -      | -      | economy  |");
    let c = check_str(&text);
    assert_eq!(codes(&c), vec!["E103"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert!(d.message.contains("row 1 can never fire; row 4 ranked above it"), "{}", d.message);
    assert_witnesses_reproduce(&c);
}

#[test]
fn a_priority_table_needs_a_member_in_every_result_cell() {
    let not_enum = "rule pick v1\n\ninput weight: int 0..50\n\noutput days: int 1..9\n\ntable d priority -> days\n| weight | days |\n|---|---|\n| - | 2 |\n";
    let c = check_str(not_enum);
    assert_eq!(codes(&c), vec!["E076"], "{}", describe(&c));
    let expr = PRIORITY.replace(
        "| <=5    | true   | express  |",
        "| <=5    | true   | if member then class.express else class.economy |",
    );
    let c = check_str(&expr);
    assert_eq!(codes(&c), vec!["E076"], "{}", describe(&c));
    assert!(c.diagnostics[0].message.contains("row 3 does not give `ship` a member"), "{}", c.diagnostics[0].message);
}
