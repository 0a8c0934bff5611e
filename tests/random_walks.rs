//! Random rules that walk sequences, held to the reference evaluator: the plan run as it
//! stands on every vector, and every language that writes walks through `rulec test`. Each
//! rule has one or two sequences of a few elements, a value of the element, every summary
//! (`sum`, `count`, `max`, `min`, with and without `where`), a verdict table and a fold of
//! each kind in turn (`take_unique`, `take_first`, `keep_max`, with a `stop` or none), and a
//! second walk where a value of the element reads what the first found. Names are drawn from
//! words the generated code uses itself. `RULEC_RANDOM_SEED` and `RULEC_RANDOM_WALKS` (the
//! number of rules, 12 by default) repeat or widen a run.

mod common;

use common::rulec;
use std::fmt::Write as _;

/// The languages that write walks (tests/walks.rs holds the same list).
const WALKING: &str = "python,typescript,javascript,ruby,php";

/// Names a rule may use that the generated code of a walk uses too, or that some target
/// reserves; and the words of a walk, which are no keywords.
const NAMES: &[&str] = &[
    "elem",
    "_i",
    "_e",
    "_o",
    "_at",
    "_item",
    "_key",
    "_sequence",
    "_place",
    "_held",
    "Element",
    "items",
    "record",
    "type",
    "class",
    "len",
    "list",
    "self",
    "end",
    "def",
    "key",
    "value",
    "elements",
    "fold",
    "over",
    "where",
    "empty",
    "take",
    "keep",
    "stop",
    "up",
    "to",
    "sum",
    "count",
    "r",
];

const FOLDS: [&str; 3] = ["take_unique", "take_first", "keep_max"];

struct Rng(u64);

impl Rng {
    /// splitmix64
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
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Hands out names, each once: a word of `NAMES` where one is free, else `base` numbered.
struct Names {
    rng: Rng,
    used: Vec<String>,
}

impl Names {
    fn name(&mut self, base: &str) -> String {
        let pick = NAMES[self.rng.below(NAMES.len() as u64) as usize];
        let name = if self.used.iter().any(|u| u == pick) || self.rng.chance(40) {
            format!("{base}{}", self.used.len())
        } else {
            pick.to_string()
        };
        self.used.push(name.clone());
        name
    }
}

fn random_walk(seed: u64, index: usize) -> String {
    let mut n = Names { rng: Rng(seed), used: Vec::new() };
    let mut t = String::new();
    let _ = writeln!(t, "rule walk_r{index} v1");
    let verdicts = [n.name("va"), n.name("vb"), n.name("vc")];
    let venum = n.name("verdicts");
    let _ = writeln!(t, "enum {venum}: {}", verdicts.join(", "));
    let bonus = n.name("bonus");
    let _ = writeln!(t, "input {bonus}: int 0..{}", 1 + n.rng.below(50));
    let seq = n.name("lines");
    let (f_amount, f_flag) = (n.name("amount"), n.name("flag"));
    let max = 1 + n.rng.below(6);
    let hi = 10 + n.rng.below(990);
    let _ = writeln!(t, "elements {seq} up to {max}: {f_amount}: int 0..{hi}, {f_flag}: bool");
    // A second sequence, walked on its own, in every other rule.
    let second = (index % 2 == 1).then(|| (n.name("pays"), n.name("paid"), 1 + n.rng.below(4)));
    if let Some((s2, f2, m2)) = &second {
        let _ = writeln!(t, "elements {s2} up to {m2}: {f2}: int -50..{}", 10 + n.rng.below(90));
    }
    let (total, fold_out) = (n.name("total"), n.name("picked"));
    let _ = writeln!(t, "output {total}: int -1000000000..1000000000");
    let _ = writeln!(t, "output {fold_out}: int -1000000000..1000000000");
    let verdict = n.name("verdict");
    let _ = writeln!(t, "value {verdict}: {venum}");
    // A value of the element, and the summaries of the first walk.
    let per = n.name("per");
    let _ = writeln!(t, "define {per} = {f_amount} * {} + {bonus}", 1 + n.rng.below(5));
    let (s, c, mx, mn) = (n.name("s"), n.name("c"), n.name("mx"), n.name("mn"));
    let filter = |n: &mut Names| match n.rng.below(3) {
        0 => String::new(),
        1 => format!(" where {f_flag}"),
        _ => format!(" where {f_amount} > {}", n.rng.below(hi)),
    };
    let _ = writeln!(t, "define {s} = sum {per} over {seq}{}", filter(&mut n));
    let _ = writeln!(t, "define {c} = count {seq}{}", filter(&mut n));
    let _ = writeln!(t, "define {mx} = max {f_amount} over {seq}{} empty {}", filter(&mut n), n.rng.below(5));
    let _ = writeln!(t, "define {mn} = min {per} over {seq}{} empty 0", filter(&mut n));
    // A value of the element that reads the first walk's answer: a second walk.
    let gap = n.name("gap");
    let _ = writeln!(t, "define {gap} = {mx} - {f_amount}");
    let paid_sum = second.as_ref().map(|(s2, f2, _)| {
        let p = n.name("ps");
        let _ = writeln!(t, "define {p} = sum {f2} over {s2}");
        p
    });
    let extra = paid_sum.map(|p| format!(" - {p}")).unwrap_or_default();
    let _ = writeln!(t, "define {total} = {s} + {c} - {mn} + {mx}{extra}");
    // The verdict of each element, by the gap to the greatest (so the fold is on a second walk).
    let cut = n.rng.below(hi / 2 + 1);
    let _ = writeln!(t, "\ntable {}  -> {verdict}", n.name("judge"));
    let _ = writeln!(t, "| {f_flag} | {gap} | {verdict} |");
    let _ = writeln!(t, "|---|---|---|");
    let _ = writeln!(t, "| true | <={cut} | {} |", verdicts[0]);
    let _ = writeln!(t, "| true | >{cut} | {} |", verdicts[1]);
    let _ = writeln!(t, "| false | - | {} |", verdicts[2]);
    let kind = FOLDS[index % FOLDS.len()];
    let action = if kind == "keep_max" { "keep" } else { "take" };
    let stop = if n.rng.chance(50) { format!(" stop {},", verdicts[2]) } else { String::new() };
    let _ = writeln!(
        t,
        "\nfold {kind} {per} over {seq} by {verdict}: {action} {},{stop} empty {} -> {fold_out}",
        verdicts[0],
        n.rng.below(9)
    );
    t
}

#[test]
fn random_walks_agree_with_the_reference_in_every_language_that_walks() {
    let (count, base) = common::random_run("random walks", "RULEC_RANDOM_WALKS", 12);
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let (mut kept, mut tried) = (0, 0);
    let mut texts = Vec::new();
    while kept < count {
        let seed = base.wrapping_add((tried as u64).wrapping_mul(0x9e37_79b9));
        tried += 1;
        assert!(tried < count * 20, "too few random walks check clean: {kept} of {tried}");
        let text = random_walk(seed, kept);
        let mut sources = rulec::Sources::new();
        let checked = rulec::check_text(&mut sources, "random.rule", &text, &Default::default());
        if checked.has_errors() {
            continue;
        }
        // The plan, run as it stands, says what the reference says on every vector.
        let unit = rulec::gen::Unit::of(&checked, &sources).unwrap_or_else(|| panic!("seed {seed}: no unit\n{text}"));
        let p = checked.program.as_ref().unwrap();
        assert!(!p.walks.is_empty(), "seed {seed}: a rule of this test walks\n{text}");
        for v in &rulec::vectors::build(p).vectors {
            let line = v.line(p);
            let want = rulec::eval::answer(p, &line, "");
            assert_eq!(rulec::gen::tree::interp::line(&unit.plan, &line), want, "seed {seed}: {line}\n{text}");
        }
        std::fs::write(rules.join(format!("r{kept:04}.rule")), &text).unwrap();
        texts.push((seed, text));
        kept += 1;
    }
    println!("random walks: {kept} clean of {tried} generated");
    // Every fold kind, and a second walk over a sequence, among the kept rules.
    for kind in FOLDS {
        assert!(texts.iter().any(|(_, t)| t.contains(&format!("fold {kind} "))), "no kept rule folds {kind}");
    }
    if !common::toolchain("random walks in every language that walks", &["python3", "node", "ruby", "php"]) {
        return;
    }
    let out_dir = dir.path().join("generated");
    let lock = dir.path().join("rulec.lock");
    let args =
        ["gen", "rules", "--out", out_dir.to_str().unwrap(), "--lock", lock.to_str().unwrap(), "--lang", WALKING];
    let gen = rulec(&args, dir.path());
    assert!(gen.status.success(), "gen: {}", String::from_utf8_lossy(&gen.stderr));
    let report = common::test_json(&out_dir, WALKING);
    let disagreements: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ok"] != true)
        .map(|r| {
            let index: usize =
                r["rule"].as_str().and_then(|n| n.strip_prefix("walk_r")).and_then(|k| k.parse().ok()).unwrap_or(0);
            let (seed, text) = &texts[index.min(texts.len() - 1)];
            format!("{} disagrees in {}: {r}\nseed {seed}\n{text}", r["rule"], r["lang"])
        })
        .collect();
    assert!(disagreements.is_empty(), "{} disagreements:\n\n{}", disagreements.len(), disagreements.join("\n"));
    common::assert_green(&report);
}
