//! Robustness of the front end under garbled input: the corpus is mutated (characters deleted,
//! syntax-significant text inserted, lines duplicated, dropped and swapped, files truncated
//! and spliced together) and every result is fed to the parser and to the whole check.
//!
//! For every case: nothing panics or hangs (each case runs on a worker thread and must
//! finish within `CASE_LIMIT`); every diagnostic's spans (primary, secondary, fix) lie inside
//! the text they point into and on char boundaries, and rendering them (text, JSON, key)
//! does not panic. For every case that parses cleanly: `fmt` does not panic, its output
//! parses cleanly, is a fixed point, keeps every comment, and checks with the same
//! diagnostic codes (and, when both sides have a program, the same expect records).
//!
//! 10,000 cases in all (5,000 mutated + 2,000 spliced + 2,000 re-laid + 1,000 garbled). The RNG seed is fixed so that a CI run is
//! reproducible; `PROPTEST_RNG_SEED=<u64>` picks another, `PROPTEST_CASES=<n>` scales each
//! property to n cases.

mod common;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use rulec::analysis::Options;
use rulec::diag::{render, Diagnostic, FileId};
use rulec::eval::{self, wire};
use rulec::sema::Program;
use rulec::source::{SourceFile, Span};
use rulec::syntax::{self, fmt::format_file, lexer};
use rulec::{check_text, Sources};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, OnceLock};
use std::time::{Duration, Instant};

/// A case that takes longer than this is a hang (a guard, not a performance test).
const CASE_LIMIT: Duration = Duration::from_secs(2);

/// Where the fuzzed text pretends to live: next to the corpus, so `use "shared/tiers.rule"` resolves.
const FUZZ_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/fuzz_case.rule");

/// Seeds beyond the corpus: every construct the grammar has, in one place each.
const EXTRA_SEEDS: &[&str] = &[
    "\
# a comment before the header
rule 送料(shipping) v2 # on the header

# above output
output y: int -10..10 # on output
about \"the answer\" # on the about
input x: int -5..10
about \"the question\"
input s: string
input e1: e?
input d: date 2026-01-01..2026-12-31
input r: rate[0.1%] 0.5%..12.5%
input w: mass[kg] 0.5kg..2kg
enum e: a \"A#x\", b(bee) \"B\"
enum o: low < mid < high
group ab = a, b
constraint x >= -5 and not x = 3 or s in {\"a\", \"b\"}
define z = - 5 + -x - - 3 - (-(x)) * 2 / 1
define q: int 0..9 = if x > 0 then mod(x, 7) else isqrt(max(x, 0, 1))
define t: int 0..9 = round(x / 3, half_even, 1)
table t1 first -> y # on the table
| x | s | e1 | d | y | # on the header row
|---|---|----|---|---| # on the separator
# above a row
| not: <=0, >=3 <=4 | \"a|b\" | none, a | >=2026-02-01 | -1 |
| - | - | ab | - | z | # on a row
| - | - | - | - | o.mid |
expect x=1, s=\"q\\\"\\\\\", e1=none, d=2026-03-31, r=1.5%, w=1kg -> y=1
expect -> y=1

# at the end
",
    "\
enums shared_tiers
about \"Tiers every rule shares.\"
enum tier: basic < silver < gold < platinum
about \"Ordered.\"
group premium = gold, platinum
",
    "\
rule order v1
input x: int 0..10
output a: int 0..10
output b: int 0..10
table ta unique -> a
| d | a |
|---|---|
| - | 1 |

table tb any -> b
| x | b |
|---|---|
| <5 | 2 |
| >=5 | 2 |
define d: int 0..10 = x
expect x=1 -> a=1, b=2
",
];

/// Text worth inserting: what the lexer and the parser branch on, and what breaks them.
const PIECES: &[&str] = &[
    "|",
    "-",
    "#",
    "\"",
    ",",
    "..",
    ".",
    "(",
    ")",
    "%",
    "0",
    "1",
    "5",
    "9",
    "00",
    "1,000",
    ",000",
    "1.5",
    "0.",
    "99999999999999999999999999",
    "-9223372036854775809",
    "2026-02-30",
    "2026-12-31",
    "会",
    "員",
    "é",
    "送料(fee)",
    "𝔘",
    "\u{301}",
    "\u{feff}",
    "\u{0}",
    "\r\n",
    "\n",
    "\r",
    " ",
    "\t",
    "->",
    "<=",
    ">=",
    "<",
    ">",
    "=",
    "!=",
    ":",
    "not:",
    "none",
    "?",
    "[",
    "]",
    "{",
    "}",
    "*",
    "/",
    "+",
    "\\",
    "'",
    "in",
    "and",
    "x",
    "JPY",
    "kg",
    "USDc",
    "table t -> x\n",
    "| - |\n",
    "|---|\n",
    "|---|---|\n",
    "about \"a\"\n",
    "\n# c\n",
    "input n: int 0..9\n",
    "output m: int 0..9\n",
    "define m = n\n",
    "expect n=1 -> m=1\n",
    "use \"shared/tiers.rule\"\n",
    "rule r v1\n",
    "enums x\n",
];

fn seeds() -> &'static Vec<String> {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = Path::new(common::ROOT).join("tests/corpus");
        let mut files: Vec<_> = walkdir::WalkDir::new(&root)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rule"))
            .map(|e| e.into_path())
            .collect();
        files.sort();
        assert!(files.len() >= 25, "the corpus is missing under {}", root.display());
        let mut out: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
        out.extend(EXTRA_SEEDS.iter().map(|s| s.to_string()));
        out
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index, usize),
    Insert(Index, &'static str),
    Replace(Index, &'static str),
    DuplicateLine(Index),
    DeleteLine(Index),
    SwapLines(Index, Index),
    MoveLine(Index, Index),
    Truncate(Index),
    /// This text up to a point, then another seed from a point on.
    Splice(Index, Index, Index),
    /// A line of another seed inserted before a line of this one.
    ForeignLine(Index, Index, Index),
    /// Text appended to a line (before its newline).
    EndOfLine(Index, &'static str),
    /// A line inserted before a line.
    LineBefore(Index, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let piece = prop::sample::select(PIECES);
    prop_oneof![
        4 => (any::<Index>(), 1usize..4).prop_map(|(i, n)| Mutation::Delete(i, n)),
        6 => (any::<Index>(), piece.clone()).prop_map(|(i, p)| Mutation::Insert(i, p)),
        3 => (any::<Index>(), piece).prop_map(|(i, p)| Mutation::Replace(i, p)),
        2 => any::<Index>().prop_map(Mutation::DuplicateLine),
        2 => any::<Index>().prop_map(Mutation::DeleteLine),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::MoveLine(a, b)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        1 => (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(a, b, c)| Mutation::Splice(a, b, c)),
        1 => (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(a, b, c)| Mutation::ForeignLine(a, b, c)),
    ]
}

/// The char boundary at or before a position picked anywhere in `0..=len`.
fn at(s: &str, i: &Index) -> usize {
    let mut p = i.index(s.len() + 1);
    while !s.is_char_boundary(p) {
        p -= 1;
    }
    p
}

fn lines(s: &str) -> Vec<String> {
    s.split_inclusive('\n').map(str::to_string).collect()
}

fn apply(text: &mut String, m: &Mutation) {
    let seeds = seeds();
    match m {
        Mutation::Delete(i, n) => {
            let start = at(text, i);
            let end = text[start..].char_indices().nth(*n).map(|(k, _)| start + k).unwrap_or(text.len());
            text.replace_range(start..end, "");
        }
        Mutation::Insert(i, p) => {
            let k = at(text, i);
            text.insert_str(k, p);
        }
        Mutation::Replace(i, p) => {
            let start = at(text, i);
            let end = text[start..].chars().next().map(|c| start + c.len_utf8()).unwrap_or(start);
            text.replace_range(start..end, p);
        }
        Mutation::DuplicateLine(i) => {
            let mut ls = lines(text);
            if !ls.is_empty() {
                let k = i.index(ls.len());
                let l = ls[k].clone();
                ls.insert(k, l);
                *text = ls.concat();
            }
        }
        Mutation::DeleteLine(i) => {
            let mut ls = lines(text);
            if !ls.is_empty() {
                ls.remove(i.index(ls.len()));
                *text = ls.concat();
            }
        }
        Mutation::SwapLines(a, b) => {
            let mut ls = lines(text);
            if !ls.is_empty() {
                let (a, b) = (a.index(ls.len()), b.index(ls.len()));
                ls.swap(a, b);
                *text = ls.concat();
            }
        }
        Mutation::MoveLine(a, b) => {
            let mut ls = lines(text);
            if !ls.is_empty() {
                let l = ls.remove(a.index(ls.len()));
                ls.insert(b.index(ls.len() + 1), l);
                *text = ls.concat();
            }
        }
        Mutation::Truncate(i) => {
            let k = at(text, i);
            text.truncate(k);
        }
        Mutation::Splice(cut, other, from) => {
            let o = &seeds[other.index(seeds.len())];
            let k = at(text, cut);
            text.truncate(k);
            text.push_str(&o[at(o, from)..]);
        }
        Mutation::EndOfLine(i, p) => {
            let mut ls = lines(text);
            if !ls.is_empty() {
                let k = i.index(ls.len());
                let l = &mut ls[k];
                let at = l.trim_end_matches('\n').len();
                l.insert_str(at, p);
                *text = ls.concat();
            }
        }
        Mutation::LineBefore(i, p) => {
            let mut ls = lines(text);
            ls.insert(i.index(ls.len() + 1), p.to_string());
            *text = ls.concat();
        }
        Mutation::ForeignLine(other, which, before) => {
            let o = lines(&seeds[other.index(seeds.len())]);
            let mut ls = lines(text);
            if !o.is_empty() {
                let mut l = o[which.index(o.len())].clone();
                if !l.ends_with('\n') {
                    l.push('\n');
                }
                ls.insert(before.index(ls.len() + 1), l);
                *text = ls.concat();
            }
        }
    }
}

// ---- what every case must satisfy

fn check_span(sources: &Sources, file: FileId, span: Span, what: &str, d: &Diagnostic) -> Result<(), String> {
    let text = &sources.get(file).text;
    let ok = span.start <= span.end
        && (span.end as usize) <= text.len()
        && text.is_char_boundary(span.start as usize)
        && text.is_char_boundary(span.end as usize);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} {what} span {span:?} is outside the text ({} bytes) or splits a char: {}",
            d.code,
            text.len(),
            d.message
        ))
    }
}

fn check_diagnostics(sources: &Sources, diags: &[Diagnostic]) -> Result<(), String> {
    for d in diags {
        check_span(sources, d.primary.file, d.primary.span, "primary", d)?;
        for l in &d.secondary {
            check_span(sources, l.file, l.span, "secondary", d)?;
        }
        if let Some((f, s)) = d.fix.as_ref().and_then(|f| f.at) {
            check_span(sources, f, s, "fix", d)?;
        }
        // The one-file renderers.
        let _ = render::json(sources, d);
        let _ = render::key(sources, d);
    }
    let _ = render::text(sources, diags, false);
    let _ = render::text(sources, diags, true);
    Ok(())
}

fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut base = 0;
    for line in text.split('\n') {
        if let Some((c, _)) = lexer::lex_line(line, base, FileId(0), &mut Vec::new()).comment {
            out.push(c.trim_end().to_string());
        }
        base += line.len() + 1;
    }
    out.sort();
    out
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = diags.iter().map(|d| d.code).collect();
    v.sort_unstable();
    v
}

fn records(p: &Program) -> Vec<String> {
    let mut out = vec![format!("{} tables, {} expects", p.tables.len(), p.expects.len())];
    for t in &p.tables {
        out.push(format!("{} {:?} {}", t.name, t.policy, t.rows.len()));
    }
    for e in &p.expects {
        let mut obj = serde_json::Map::new();
        for (v, x) in &e.inputs {
            obj.insert(p.vars[*v].name.clone(), wire::to_wire(p, &p.vars[*v], x));
        }
        out.push(match wire::read_inputs(p, &serde_json::Value::Object(obj)) {
            Err(r) => wire::refusal_line(&r),
            Ok(inputs) => match eval::evaluate(p, &inputs) {
                Ok(o) => wire::record(p, &inputs, &o, ""),
                Err(e) => wire::contradiction_line(&e),
            },
        });
    }
    out
}

/// What one property's cases came to (shrinking included).
#[derive(Default)]
struct Stats {
    cases: AtomicUsize,
    parsed_clean: AtomicUsize,
    checked_clean: AtomicUsize,
    /// The slowest case, in microseconds.
    slowest: AtomicU64,
}

/// Everything one case asks; an `Err` names what went wrong.
fn exercise(text: &str, stats: &Stats) -> Result<(), String> {
    stats.cases.fetch_add(1, Ordering::Relaxed);

    // The parser alone, on the raw text (CRLF and all).
    let mut raw_sources = Sources::new();
    let raw_id = raw_sources.add(SourceFile::from_text("raw.rule", text));
    let raw = syntax::parse(text, raw_id);
    if raw_sources.get(raw_id).text == text {
        check_diagnostics(&raw_sources, &raw.diags)?;
    } else {
        // The source folded CRLF or dropped a BOM: check the spans against the raw text itself.
        for d in &raw.diags {
            let s = d.primary.span;
            if s.end as usize > text.len()
                || !text.is_char_boundary(s.start as usize)
                || !text.is_char_boundary(s.end as usize)
            {
                return Err(format!("{} span {s:?} outside the raw text", d.code));
            }
        }
    }

    // The whole check, through the door every caller takes.
    let mut sources = Sources::new();
    let checked = check_text(&mut sources, FUZZ_PATH, text, &Options::default());
    check_diagnostics(&sources, &checked.diagnostics)?;
    if !checked.has_errors() {
        stats.checked_clean.fetch_add(1, Ordering::Relaxed);
    }

    // fmt reads the text as a source file does (CRLF as LF, no BOM).
    let folded = &sources.get(checked.file).text;
    let parsed = syntax::parse(folded, FileId(0));
    let Some(file) = parsed.file.filter(|_| !parsed.diags.iter().any(Diagnostic::is_error)) else {
        return Ok(());
    };
    stats.parsed_clean.fetch_add(1, Ordering::Relaxed);
    let once = format_file(&file);
    let again = syntax::parse(&once, FileId(0));
    let errors: Vec<&str> = again.diags.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
    let Some(file2) = again.file.filter(|_| errors.is_empty()) else {
        return Err(format!("the formatted text does not parse ({errors:?}):\n{once}"));
    };
    let twice = format_file(&file2);
    if once != twice {
        return Err(format!("fmt is not idempotent:\n--- once\n{once}\n--- twice\n{twice}"));
    }
    if comments(folded) != comments(&once) {
        return Err(format!(
            "fmt lost or added a comment:\n{:?}\n{:?}\n--- formatted\n{once}",
            comments(folded),
            comments(&once)
        ));
    }
    let mut sources2 = Sources::new();
    let checked2 = check_text(&mut sources2, FUZZ_PATH, &once, &Options::default());
    check_diagnostics(&sources2, &checked2.diagnostics)?;
    // A name declared twice (E052) is an error either way, but which of the two counts as the
    // declaration follows the order of the lines, and the errors that cascade from it do too.
    let twice_declared = checked.diagnostics.iter().any(|d| d.code == "E052");
    if twice_declared {
        if !checked2.has_errors() {
            return Err(format!("fmt made a rule with E052 check clean:\n{once}"));
        }
    } else if codes(&checked.diagnostics) != codes(&checked2.diagnostics) {
        return Err(format!(
            "fmt changed the diagnostics: {:?} became {:?}\n--- formatted\n{once}",
            codes(&checked.diagnostics),
            codes(&checked2.diagnostics)
        ));
    }
    if let (Some(a), Some(b)) = (&checked.program, &checked2.program) {
        if records(a) != records(b) {
            return Err(format!("fmt changed the meaning:\n{:?}\n{:?}\n--- formatted\n{once}", records(a), records(b)));
        }
    }
    Ok(())
}

/// Run one case on a worker thread: a panic or a case slower than `CASE_LIMIT` fails it.
fn guarded(text: String, stats: &'static Stats) -> Result<(), TestCaseError> {
    let (tx, rx) = mpsc::channel();
    let input = text.clone();
    let started = Instant::now();
    let worker = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let r = exercise(&input, stats);
            let _ = tx.send(r);
        })
        .expect("spawn a worker");
    match rx.recv_timeout(CASE_LIMIT) {
        Ok(r) => {
            let _ = worker.join();
            stats.slowest.fetch_max(started.elapsed().as_micros() as u64, Ordering::Relaxed);
            r.map_err(|e| TestCaseError::fail(format!("{e}\n--- input\n{text:?}")))
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(TestCaseError::fail(format!("a case ran longer than {CASE_LIMIT:?} (a hang?) on:\n{text:?}")))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let payload = worker.join().expect_err("the worker ended without an answer");
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(TestCaseError::fail(format!("panicked after {:?}: {msg}\n--- input\n{text:?}", started.elapsed())))
        }
    }
}

fn run<S: Strategy<Value = String>>(name: &str, cases: u32, strategy: S) {
    let mut config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        max_shrink_time: 60_000,
        rng_seed: RngSeed::Fixed(0x5eed_f00d),
        ..Config::default()
    };
    if let Ok(seed) = std::env::var("PROPTEST_RNG_SEED") {
        config.rng_seed = RngSeed::Fixed(seed.parse().expect("PROPTEST_RNG_SEED is a u64"));
    }
    if let Ok(n) = std::env::var("PROPTEST_CASES") {
        config.cases = n.parse().expect("PROPTEST_CASES is a number");
    }
    let started = Instant::now();
    let stats: &'static Stats = Box::leak(Box::default());
    let mut runner = TestRunner::new(config);
    match runner.run(&strategy, |text| guarded(text, stats)) {
        Ok(()) => {}
        Err(TestError::Fail(why, input)) => panic!("{name}: {why}\nminimal input: {input:?}"),
        Err(e) => panic!("{name}: {e}"),
    }
    eprintln!(
        "{name}: {} cases in {:.1?}, the slowest {:.1?} ({} parsed cleanly and were formatted, {} checked clean)",
        stats.cases.load(Ordering::Relaxed),
        started.elapsed(),
        Duration::from_micros(stats.slowest.load(Ordering::Relaxed)),
        stats.parsed_clean.load(Ordering::Relaxed),
        stats.checked_clean.load(Ordering::Relaxed),
    );
}

fn seed_index() -> impl Strategy<Value = usize> {
    0..seeds().len()
}

/// A seed with one to six mutations of every kind.
#[test]
fn mutated_corpus_never_panics() {
    let strategy = (seed_index(), prop::collection::vec(mutation(), 1..7)).prop_map(|(s, ms)| {
        let mut text = seeds()[s].clone();
        for m in &ms {
            apply(&mut text, m);
        }
        text
    });
    run("mutated", 5_000, strategy);
}

/// Two seeds spliced (at any char, or line-wise), then line shuffles: whole declarations
/// and table rows in places the grammar does not expect them.
#[test]
fn spliced_corpus_never_panics() {
    let line_op = prop_oneof![
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::DeleteLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::MoveLine(a, b)),
        (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(a, b, c)| Mutation::ForeignLine(a, b, c)),
    ];
    let strategy =
        (seed_index(), (any::<Index>(), any::<Index>(), any::<Index>()), prop::collection::vec(line_op, 0..5))
            .prop_map(|(s, (cut, other, from), ms)| {
                let mut text = seeds()[s].clone();
                apply(&mut text, &Mutation::Splice(cut, other, from));
                for m in &ms {
                    apply(&mut text, m);
                }
                text
            });
    run("spliced", 2_000, strategy);
}

/// Edits that mostly keep a file parsing, so that the formatter gets to work on many of them:
/// blanks and tabs, blank lines, comments at the end of lines and on lines of their own,
/// `about` lines, and declarations moved, swapped and duplicated.
#[test]
fn relaid_corpus_formats_idempotently() {
    let layout = prop_oneof![
        3 => (any::<Index>(), prop::sample::select(&[" ", "  ", "\t", "\n", "\n\n"][..]))
            .prop_map(|(i, p)| Mutation::Insert(i, p)),
        2 => (any::<Index>(), prop::sample::select(&[" # note", "# note", " #", "#| a | b |", " # 会員 \"x\""][..]))
            .prop_map(|(i, p)| Mutation::EndOfLine(i, p)),
        2 => (any::<Index>(), prop::sample::select(&["# note\n", "#\n", "\n# after a blank\n", "about \"doc\"\n"][..]))
            .prop_map(|(i, p)| Mutation::LineBefore(i, p)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::MoveLine(a, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => any::<Index>().prop_map(Mutation::DeleteLine),
    ];
    let strategy = (seed_index(), prop::collection::vec(layout, 1..8)).prop_map(|(s, ms)| {
        let mut text = seeds()[s].clone();
        for m in &ms {
            apply(&mut text, m);
        }
        text
    });
    run("relaid", 2_000, strategy);
}

/// Lines made of the pieces alone, after a valid header most of the time: the lexer and the
/// line parsers with nothing familiar to hold on to.
#[test]
fn garbled_lines_never_panic() {
    let line = prop::collection::vec(prop::sample::select(PIECES), 0..12).prop_map(|ps| ps.concat());
    let strategy = (prop::bool::weighted(0.8), prop::collection::vec(line, 0..10)).prop_map(|(header, ls)| {
        let mut text = if header { "rule garbled v1\n".to_string() } else { String::new() };
        for l in ls {
            text.push_str(&l);
            text.push('\n');
        }
        text
    });
    run("garbled", 1_000, strategy);
}
