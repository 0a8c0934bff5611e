//! The per-row value analysis (issue 15): a value computed from a table's results is bounded
//! row by row, where each row answers, and the bound is the union over rows — for the
//! declared ranges (E107), the int64 proof (E108) and the divisor proof (E132). A claim that a
//! value "can reach" something is made only with a witness the reference evaluator confirms;
//! otherwise the diagnostic says what is not proven and the bound found.

use rulec::analysis::Options;
use rulec::diag::Diagnostic;
use rulec::eval::{self, wire};
use rulec::num::{int, Rat};
use rulec::sema::{Program, Value};
use rulec::{check_text, Checked, Sources};
use serde_json::json;
use std::path::Path;

mod common;
use common::assert_no_unproven_claim;

fn check_with(text: &str, opts: &Options) -> Checked {
    let mut sources = Sources::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/scratch.rule");
    check_text(&mut sources, path.to_str().unwrap(), text, opts)
}

fn check(text: &str) -> Checked {
    check_with(text, &Options::default())
}

fn codes(c: &Checked) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

fn describe(c: &Checked) -> String {
    c.diagnostics.iter().map(|d| format!("{} {} {:?} {:?}\n", d.code, d.message, d.primary.text, d.notes)).collect()
}

fn program(c: &Checked) -> &Program {
    c.program.as_ref().expect("the rule resolves")
}

fn interval(c: &Checked, name: &str) -> Option<(Rat, Rat)> {
    let v = program(c).var_by_name(name).unwrap();
    c.analysis.as_ref().unwrap().values.intervals[v].clone()
}

/// Inputs from a diagnostic's witness, read at the door.
fn witness(c: &Checked, d: &Diagnostic) -> Vec<Value> {
    let w = d.witness.as_ref().expect("a witness");
    wire::read_inputs(program(c), &w["inputs"]).expect("the witness passes the door")
}

const TAX: &str = "rule income_tax v1
about \"Progressive income tax: each bracket's rate, its lower bound and the tax below it.\"

input income: money[JPY] 0JPY..100000000JPY

value rate: rate[1%]
value lower: money[JPY]
value base: money[JPY]
output tax: money[JPY] 0JPY..50000000JPY round down(1JPY)

define tax = base + (income - lower) * rate

table bracket_of -> rate, lower, base
| income                     | rate | lower       | base        |
|----------------------------|------|-------------|-------------|
| <=1950000JPY               | 5%   | 0JPY        | 0JPY        |
| >1950000JPY <=3300000JPY   | 10%  | 1950000JPY  | 97500JPY    |
| >3300000JPY <=6950000JPY   | 20%  | 3300000JPY  | 232500JPY   |
| >6950000JPY <=9000000JPY   | 23%  | 6950000JPY  | 962500JPY   |
| >9000000JPY <=18000000JPY  | 33%  | 9000000JPY  | 1434000JPY  |
| >18000000JPY <=40000000JPY | 40%  | 18000000JPY | 4404000JPY  |
| >40000000JPY               | 45%  | 40000000JPY | 13204000JPY |

expect income=1000000JPY -> tax=50000JPY
expect income=5000000JPY -> tax=572500JPY
expect income=100000000JPY -> tax=40204000JPY
";

#[test]
fn the_progressive_tax_table_checks_clean() {
    let c = check(TAX);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    // Row by row: 0 at the bottom, 13204000 + 60000000 × 45% at the top.
    assert_eq!(interval(&c, "tax"), Some((int(0), int(40_204_000))));
    // Taken apart from the rows, the same results would bound it by -18000000..58204000.
    assert_eq!(interval(&c, "lower"), Some((int(0), int(40_000_000))));
}

#[test]
fn the_tax_table_written_first_checks_clean() {
    // Each row bounds income from above only: where row 2 answers, row 1 did not, so
    // income > 1950000 there — the cover of the table says so.
    let text = TAX
        .replace("table bracket_of ->", "table bracket_of first ->")
        .replace("| >1950000JPY <=3300000JPY   |", "| <=3300000JPY               |")
        .replace("| >3300000JPY <=6950000JPY   |", "| <=6950000JPY               |")
        .replace("| >6950000JPY <=9000000JPY   |", "| <=9000000JPY               |")
        .replace("| >9000000JPY <=18000000JPY  |", "| <=18000000JPY              |")
        .replace("| >18000000JPY <=40000000JPY |", "| <=40000000JPY              |")
        .replace("| >40000000JPY               |", "| -                          |");
    let c = check(&text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    assert_eq!(interval(&c, "tax"), Some((int(0), int(40_204_000))));
}

#[test]
fn a_tax_range_too_narrow_is_e107_with_the_top_income_as_witness() {
    let text = TAX.replace("0JPY..50000000JPY round", "0JPY..40000000JPY round");
    let c = check(&text);
    assert_eq!(codes(&c), ["E107"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert!(d.message.contains("`tax` can reach 40204000JPY"), "{}", d.message);
    let inputs = witness(&c, d);
    let out = eval::evaluate(program(&c), &inputs).unwrap();
    let tax = program(&c).var_by_name("tax").unwrap();
    assert_eq!(out.values[tax], Value::Num(int(40_204_000)));
    assert_eq!(d.fix.as_ref().unwrap().text, "0JPY..40204000JPY");
}

const SHIPPING: &str = "rule shipping_fee v1
enum zone: domestic, overseas

input weight: mass[g] 1g..30000g
input zone: zone

value base: money[JPY]
value per_kg: money[JPY]
value start: mass[g]
output fee: money[JPY] 0JPY..14000JPY round up(1JPY)

define fee = base + (weight - start) / 1kg * per_kg

table band_of -> base, per_kg, start
| zone     | weight      | base    | per_kg | start |
|----------|-------------|---------|--------|-------|
| domestic | <=2kg       | 500JPY  | 0JPY   | 0g    |
| domestic | >2kg <=10kg | 500JPY  | 100JPY | 2kg   |
| domestic | >10kg       | 1300JPY | 50JPY  | 10kg  |
| overseas | <=1kg       | 2000JPY | 0JPY   | 0g    |
| overseas | >1kg        | 2000JPY | 400JPY | 1kg   |

expect weight=5000g, zone=domestic -> fee=800JPY
expect weight=30000g, zone=overseas -> fee=13600JPY
";

#[test]
fn a_shipping_fee_table_of_the_same_shape_checks_clean() {
    let c = check(SHIPPING);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    // The least fee is the domestic floor, the most overseas at 30 kg: 2000 + 29 × 400.
    assert_eq!(interval(&c, "fee"), Some((int(500), int(13_600))));
}

#[test]
fn the_int64_proof_is_made_row_by_row() {
    // A large factor only for small amounts: each row's product fits, the hull's would not.
    let text = "rule scaled v1
input amount: int 0..1000000000000000
value factor: int 1..1000000
output total: int 0..1000000000000000 
define total = amount * factor
table factor_of -> factor
| amount          | factor  |
|-----------------|---------|
| <=100           | 1000000 |
| >100            | 1       |
expect amount=5 -> total=5000000
";
    let c = check(text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    assert_eq!(interval(&c, "total"), Some((int(0), int(1_000_000_000_000_000))));
}

#[test]
fn the_divisor_proof_is_made_row_by_row() {
    // Each row divides by how far x is above its own lower bound, which is never zero there.
    let text = "rule spread v1
input x: int 0..100
input amount: int 0..1000
value lower: int 0..100
output share: int 0..1000
define share = round(amount / (x - lower), floor, 1)
table lower_of -> lower
| x          | lower |
|------------|-------|
| <=50       | -1    |
| >50        | 50    |
expect x=10, amount=110 -> share=10
";
    let text = text.replace("value lower: int 0..100", "value lower: int -1..100");
    let c = check(&text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    // The same divisor with the row's bound one lower can be zero: x = 50 in row 2's place.
    let text = text
        .replace("| >50        | 50    |", "| >=50       | 50    |")
        .replace("| <=50       | -1    |", "| <50        | -1    |");
    let c = check(&text);
    assert_eq!(codes(&c), ["E132"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert!(d.message.contains("can be zero"), "{}", d.message);
    assert_eq!(eval::evaluate(program(&c), &witness(&c, d)).unwrap_err(), eval::EvalError::DivisionByZero);
}

#[test]
fn a_small_budget_says_not_proven_and_never_a_value_no_input_reaches() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/late_fee.rule")).unwrap();
    let c = check_with(&text, &Options { budget: 10 });
    let d = c.diagnostics.iter().find(|d| d.code == "E107").expect("days_late is not proven inside its range");
    assert!(
        d.message.contains("`days_late` is not proven to stay inside its declared range -60..730"),
        "{}",
        d.message
    );
    assert!(d.witness.is_none());
    let all = format!("{} {} {}", d.message, d.primary.text, d.notes.join(" "));
    assert!(!all.contains("can reach"), "{all}");
    assert!(all.contains("-364..729"), "the bound it found: {all}");
    assert!(all.contains("--budget"), "{all}");
    assert_no_unproven_claim(&c, "late_fee --budget 10");
    // With the default budget the constraint bounds it, and the file is clean.
    assert!(check(&text).diagnostics.is_empty());
}

// ---- randomized: bracket tables

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
}

struct Bracket {
    text: String,
    /// Every input at the ends of the band a row answers in (and each value of `kind`).
    ends: Vec<serde_json::Value>,
    has_kind: bool,
    top: i64,
}

/// A bracket table over `income` (and sometimes a boolean `kind` with bands of its own), each
/// row a rate, a lower bound and a base, and a value computed from them in one of several
/// shapes, sometimes through defines of its own.
fn random_bracket(rng: &mut Rng) -> Bracket {
    let top = [1_000i64, 50_000, 10_000_000][rng.below(3) as usize];
    let has_kind = rng.below(3) == 0;
    let first = rng.below(2) == 0;
    let mut text = format!("rule b v1\ninput income: money[JPY] 0JPY..{top}JPY\n");
    if has_kind {
        text.push_str("input kind: bool\n");
    }
    text.push_str("value rate: rate[1%]\nvalue lower: money[JPY]\nvalue base: money[JPY]\n");
    let mode = ["down", "up", "floor", "ceiling", "half_up", "half_down", "half_even"][rng.below(7) as usize];
    let body = "(income - lower) * rate";
    let (defines, out) = match rng.below(6) {
        0 => (String::new(), format!("base + {body}")),
        1 => (String::new(), format!("base - {body}")),
        2 => (String::new(), format!("min(base + {body}, {}JPY)", rng.range(0, top))),
        3 => (String::new(), format!("max({body}, 0JPY) + base")),
        4 => ("define taxable = income - lower\n".to_string(), "base + taxable * rate".to_string()),
        _ => (format!("define marginal = {body}\n"), "base + marginal".to_string()),
    };
    text.push_str(&format!("output tax: money[JPY] -1000000000000JPY..1000000000000JPY round {mode}(1JPY)\n"));
    text.push_str(&defines);
    text.push_str(&format!("define tax = {out}\n"));
    let head = if has_kind {
        "| kind | income | rate | lower | base |\n|---|---|---|---|---|\n"
    } else {
        "| income | rate | lower | base |\n|---|---|---|---|\n"
    };
    text.push_str(&format!("table bracket_of{} -> rate, lower, base\n{head}", if first { " first" } else { "" }));
    let mut ends = Vec::new();
    for kind in if has_kind { vec![Some(false), Some(true)] } else { vec![None] } {
        let n = rng.range(1, 6) as usize;
        let mut cuts: Vec<i64> = (0..n - 1).map(|_| rng.range(1, top - 1)).collect();
        cuts.sort();
        cuts.dedup();
        let mut lo = 0;
        for (i, hi) in cuts.iter().copied().chain([top]).enumerate() {
            let last = hi == top;
            let cell = match (first, i == 0, last) {
                (true, _, true) => "-".to_string(),
                (true, _, false) => format!("<={hi}JPY"),
                (false, true, true) => "-".to_string(),
                (false, true, false) => format!("<={hi}JPY"),
                (false, false, true) => format!(">{}JPY", lo - 1),
                (false, false, false) => format!(">={lo}JPY <={hi}JPY"),
            };
            let rate = rng.range(0, 60);
            let lower = if rng.below(3) == 0 { rng.range(0, top) } else { lo };
            let base = rng.range(-1000, top);
            let k = kind.map(|k| format!(" {k} |")).unwrap_or_default();
            text.push_str(&format!("|{k} {cell} | {rate}% | {lower}JPY | {base}JPY |\n"));
            for x in [lo, hi] {
                let mut m = serde_json::Map::new();
                m.insert("income".into(), json!(x));
                if let Some(k) = kind {
                    m.insert("kind".into(), json!(k));
                }
                ends.push(serde_json::Value::Object(m));
            }
            lo = hi + 1;
        }
    }
    Bracket { text, ends, has_kind, top }
}

#[test]
fn randomized_bounds_contain_every_value_and_are_the_exact_per_row_bound() {
    let base: u64 = std::env::var("RULEC_ROWS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xb0a7d5);
    let rules: u64 = std::env::var("RULEC_ROWS_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let inputs_per_rule: usize = std::env::var("RULEC_ROWS_INPUTS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    for i in 0..rules {
        let seed = base.wrapping_add(i.wrapping_mul(0x9e37_79b9));
        let mut rng = Rng(seed);
        let b = random_bracket(&mut rng);
        let c = check(&b.text);
        assert!(c.diagnostics.is_empty(), "rule {i} (seed {seed}):\n{}\n{}", b.text, describe(&c));
        let p = program(&c);
        let proof = &c.analysis.as_ref().unwrap().values;
        let derived: Vec<usize> = (0..p.vars.len())
            .filter(|&v| p.vars[v].kind != rulec::sema::VarKind::Input && proof.intervals[v].is_some())
            .collect();
        // The exact bound: each row's value is monotone in income inside its band, so the
        // extremes over the rows lie at the ends of the bands.
        let mut exact: Vec<Option<(Rat, Rat)>> = vec![None; p.vars.len()];
        let widen = |exact: &mut Vec<Option<(Rat, Rat)>>, values: &[Value]| {
            for &v in &derived {
                let Value::Num(x) = &values[v] else { continue };
                exact[v] = Some(match exact[v].take() {
                    None => (x.clone(), x.clone()),
                    Some((lo, hi)) => (lo.min(x.clone()), hi.max(x.clone())),
                });
            }
        };
        for e in &b.ends {
            let inputs = wire::read_inputs(p, e).unwrap();
            widen(&mut exact, &eval::evaluate(p, &inputs).unwrap().values);
        }
        for &v in &derived {
            assert_eq!(
                proof.intervals[v], exact[v],
                "rule {i} (seed {seed}): `{}` is bounded by {:?}, the exact per-row bound is {:?}\n{}",
                p.vars[v].name, proof.intervals[v], exact[v], b.text
            );
        }
        for _ in 0..inputs_per_rule {
            let mut m = serde_json::Map::new();
            m.insert("income".into(), json!(rng.range(0, b.top)));
            if b.has_kind {
                m.insert("kind".into(), json!(rng.below(2) == 0));
            }
            let inputs = wire::read_inputs(p, &serde_json::Value::Object(m)).unwrap();
            let out = eval::evaluate(p, &inputs).unwrap();
            for &v in &derived {
                let (Some((lo, hi)), Value::Num(x)) = (&proof.intervals[v], &out.values[v]) else { continue };
                assert!(
                    lo <= x && x <= hi,
                    "rule {i} (seed {seed}): `{}` = {x} outside {lo}..{hi}\n{}",
                    p.vars[v].name,
                    b.text
                );
            }
        }
        // Declared too narrow by one yen at the top, the range is E107 with a confirmed witness.
        let (_, hi) = proof.intervals[p.var_by_name("tax").unwrap()].clone().unwrap();
        let narrow = b
            .text
            .replace("-1000000000000JPY..1000000000000JPY", &format!("-1000000000000JPY..{}JPY", hi.to_integer() - 1));
        let c = check(&narrow);
        assert_eq!(codes(&c), ["E107"], "rule {i} (seed {seed}):\n{narrow}\n{}", describe(&c));
        let d = &c.diagnostics[0];
        assert!(d.message.contains("can reach"), "rule {i} (seed {seed}): {}\n{narrow}", d.message);
        let out = eval::evaluate(program(&c), &witness(&c, d)).unwrap();
        assert_eq!(out.values[p.var_by_name("tax").unwrap()], Value::Num(hi), "rule {i} (seed {seed})");
        assert_no_unproven_claim(&c, &format!("rule {i}"));
    }
}
