//! The value analysis: bounds (E107), int64 fit (E108), zero divisors (E132), misplaced
//! quotients (E133), negative roots (E134), over the corpus and over small rules; the int64
//! model of `analysis::scale`; and a property test that every value the reference evaluator
//! computes lies inside the interval the analysis proved for it.

use proptest::prelude::*;
use rulec::analysis::scale::{self, Op, Scaled};
use rulec::analysis::values::{Site, ValueProof};
use rulec::analysis::Options;
use rulec::diag::Diagnostic;
use rulec::eval::{self, wire, EvalError};
use rulec::num::{int, Rat};
use rulec::sema::*;
use rulec::{Checked, Sources};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod common;

const CODES: &[&str] = &["E107", "E108", "E132", "E133", "E134"];

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name)
}

fn check_file(path: &Path) -> (Checked, String) {
    let mut sources = Sources::new();
    let text = std::fs::read_to_string(path).unwrap();
    let c = rulec::check_path(&mut sources, path, &Options::default()).unwrap();
    (c, text)
}

/// Check text as if it were a file in the corpus folder (so `use` paths resolve).
fn check_text(text: &str) -> Checked {
    let mut sources = Sources::new();
    let path = corpus("scratch.rule");
    rulec::check_text(&mut sources, path.to_str().unwrap(), text, &Options::default())
}

fn codes(c: &Checked) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

fn value_codes(c: &Checked) -> Vec<&'static str> {
    codes(c).into_iter().filter(|c| CODES.contains(c)).collect()
}

/// The text with the diagnostic's fix applied at its place.
fn apply_fix(text: &str, d: &Diagnostic) -> String {
    let fix = d.fix.as_ref().expect("a fix");
    let (_, span) = fix.at.expect("the fix says where it goes");
    format!("{}{}{}", &text[..span.start as usize], fix.text, &text[span.end as usize..])
}

fn program(c: &Checked) -> &Program {
    c.program.as_ref().expect("the rule resolves")
}

fn proof(c: &Checked) -> &ValueProof {
    &c.analysis.as_ref().expect("the rule was analysed").values
}

fn witness_inputs(d: &Diagnostic) -> &serde_json::Map<String, Json> {
    d.witness.as_ref().and_then(|w| w["inputs"].as_object()).expect("a witness with inputs")
}

// ---- the corpus

#[test]
fn clean_corpus_is_clean() {
    for entry in std::fs::read_dir(corpus("")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rule") {
            continue;
        }
        let (c, _) = check_file(&path);
        assert!(c.diagnostics.is_empty(), "{}: {:?}", path.display(), codes(&c));
        let vp = proof(&c);
        assert!(!vp.values.is_empty() || path.ends_with("shipping_zone.rule") || !vp.intervals.is_empty());
    }
}

#[test]
fn overflow_gives_e108_with_a_confirmed_witness() {
    let (c, _) = check_file(&corpus("broken/overflow.rule"));
    // The value also leaves its declared range: both are reported (issue 17).
    assert_eq!(codes(&c), ["E107", "E108"]);
    let d = &c.diagnostics[1];
    assert!(d.message.contains("overflows int64"), "{}", d.message);
    assert!(d.notes.iter().any(|n| n.contains("1000000000000000000000")), "{:?}", d.notes);
    let w = witness_inputs(d);
    assert_eq!(w["price"], json!(1000000000000u64));
    assert_eq!(w["qty"], json!(1000000000u64));
    // The reference evaluator confirms: price * qty leaves int64 at the witness.
    let p = program(&c);
    let inputs = wire::read_inputs(p, &json!(w)).unwrap();
    let out = eval::evaluate(p, &inputs).unwrap();
    let (price, qty) = (p.var_by_name("price").unwrap(), p.var_by_name("qty").unwrap());
    let (Value::Num(a), Value::Num(b)) = (&out.values[price], &out.values[qty]) else { panic!() };
    assert!(a * b > Rat::from_integer(i64::MAX.into()));
}

#[test]
fn range_unproven_gives_e107_and_its_fix_removes_it() {
    let path = corpus("broken/range_unproven.rule");
    let (c, text) = check_file(&path);
    assert_eq!(codes(&c), ["E107"]);
    let d = &c.diagnostics[0];
    let fix = d.fix.as_ref().unwrap();
    assert_eq!(fix.kind, "widen_range");
    assert_eq!(fix.text, "0JPY..1200JPY");
    let (_, at) = fix.at.unwrap();
    assert_eq!(&text[at.range()], "0JPY..1000JPY", "the fix replaces the declared range");
    assert_eq!(witness_inputs(d)["weight"], json!(12));
    let fixed = apply_fix(&text, d);
    let again = check_text(&fixed);
    assert!(again.diagnostics.is_empty(), "{:?}", codes(&again));
}

#[test]
fn divide_by_zero_gives_e132_with_people_zero() {
    let (c, _) = check_file(&corpus("broken/divide_by_zero.rule"));
    assert_eq!(codes(&c), ["E132"]);
    let d = &c.diagnostics[0];
    let w = witness_inputs(d);
    assert_eq!(w["people"], json!(0));
    let p = program(&c);
    let inputs = wire::read_inputs(p, &json!(w)).unwrap();
    assert_eq!(eval::evaluate(p, &inputs).unwrap_err(), EvalError::DivisionByZero);
}

#[test]
fn other_broken_files_give_nothing_from_the_value_analysis() {
    for entry in std::fs::read_dir(corpus("broken")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if ["overflow.rule", "range_unproven.rule", "divide_by_zero.rule"].contains(&name) {
            continue;
        }
        let (c, text) = check_file(&path);
        assert!(value_codes(&c).is_empty(), "{name}: {:?}", codes(&c));
        if let Some(p) = &c.program {
            let r = rulec::analysis::values::analyse(p, &text, &Options::default());
            assert!(r.diagnostics.is_empty(), "{name}");
        }
    }
}

#[test]
fn e106_fix_applies_and_removes_the_code() {
    let path = corpus("broken/missing_rounding.rule");
    let (c, text) = check_file(&path);
    assert_eq!(codes(&c), ["E106"]);
    let fixed = apply_fix(&text, &c.diagnostics[0]);
    let again = check_text(&fixed);
    assert!(again.diagnostics.is_empty(), "{fixed}\n{:?}", codes(&again));
    // A declared define, a table's value and an output with a comment after it.
    let cases = [
        "rule t v1\ninput price: money[JPY] 0JPY..1000000JPY\ndefine tax: money[JPY] 0JPY..100000JPY = price * 10%\noutput total: money[JPY] 0JPY..1100000JPY\ndefine total = price + tax\n",
        "rule t v1\ninput price: money[JPY] 0JPY..1000000JPY\ninput food: bool\nvalue tax: money[JPY] 0JPY..100000JPY\noutput total: money[JPY] 0JPY..1100000JPY\ndefine total = price + tax\ntable tax_of -> tax\n| food  | tax         |\n|-------|-------------|\n| true  | price * 8%  |\n| false | price * 10% |\n",
        "rule t v1\ninput price: money[JPY] 0JPY..1000000JPY\noutput tax: money[JPY] 0JPY..100000JPY  # the tax\ndefine tax = price * 10%\n",
    ];
    for case in cases {
        let mut text = case.to_string();
        for _ in 0..3 {
            let c = check_text(&text);
            let Some(d) = c.diagnostics.iter().find(|d| d.code == "E106") else { break };
            text = apply_fix(&text, d);
        }
        let c = check_text(&text);
        assert!(c.diagnostics.is_empty(), "{text}\n{:?}", c.diagnostics);
    }
}

#[test]
fn e107_fix_on_a_define_a_value_and_negative_ranges() {
    let cases = [
        ("rule t v1\ninput a: int 0..10\ninput b: int 0..10\ndefine d: int 0..5 = a - b\noutput r: int -100..100\ndefine r = d\n", "-10..10"),
        ("rule t v1\ninput k: bool\nvalue v: money[USD] 0USD..5USD\noutput r: money[USD] 0USD..100USD\ndefine r = v\ntable v_of -> v\n| k     | v     |\n|-------|-------|\n| true  | 7USD  |\n| false | 1USD  |\n", "0USD..7USD"),
        ("rule t v1\ninput a: money[JPY] -500JPY..500JPY\noutput t: money[JPY] -100JPY..100JPY\ndefine t = -a * 2\n", "-1000JPY..1000JPY"),
        ("rule t v1\ninput r: rate[0.5%] 0%..10%\noutput t: rate[0.5%] 0%..5%\ndefine t = r + 2.5%\n", "0%..12.5%"),
    ];
    for (case, widened) in cases {
        let c = check_text(case);
        assert_eq!(value_codes(&c), ["E107"], "{case}");
        let d = c.diagnostics.iter().find(|d| d.code == "E107").unwrap();
        assert_eq!(d.fix.as_ref().unwrap().text, widened);
        let fixed = apply_fix(case, d);
        let again = check_text(&fixed);
        assert!(again.diagnostics.is_empty(), "{fixed}\n{:?}", codes(&again));
    }
}

#[test]
fn explain_examples_of_the_value_codes_produce_them() {
    for code in CODES {
        let info = rulec::diag::codes::lookup(code).unwrap_or_else(|| panic!("{code} has an explain entry"));
        let c = check_text(info.example);
        assert!(codes(&c).contains(code), "{code}: {:?}", codes(&c));
    }
}

/// No E107, E108, E132 or E134 claims a value without a witness the reference evaluator
/// confirmed: over the corpus, the broken corpus, every code's explain example and the small
/// rules of this file, each at the default budget and at budgets small enough to run out.
#[test]
fn no_value_claim_without_a_witness() {
    let mut texts: Vec<(String, String)> = Vec::new();
    for dir in ["", "broken"] {
        for entry in std::fs::read_dir(corpus(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rule") {
                texts.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    for info in rulec::diag::codes::CODES {
        texts.push((format!("explain {}", info.code), info.example.to_string()));
    }
    for (i, text) in EXTRA.iter().enumerate() {
        texts.push((format!("small rule {i}"), text.to_string()));
    }
    let mut unproven = 0;
    for (name, text) in &texts {
        for budget in [Options::default().budget, 50, 10, 1] {
            let mut sources = Sources::new();
            let c = rulec::check_text(&mut sources, "t.rule", text, &Options { budget });
            unproven += c.diagnostics.iter().filter(|d| CODES.contains(&d.code) && d.witness.is_none()).count();
            common::assert_no_unproven_claim(&c, &format!("{name} --budget {budget}"));
        }
    }
    // The small budgets leave some ranges unproven: the scan saw what it is about.
    assert!(unproven > 0, "no value diagnostic without a witness was made");
}

// ---- small rules

#[test]
fn guarded_divisions_are_proven_nonzero() {
    let cases = [
        "rule t v1\ninput bill: money[JPY] 0JPY..100000JPY\ninput people: int 0..20\noutput share: money[JPY] 0JPY..100000JPY\ndefine share = if people > 0 then round(bill / people, up, 1JPY) else 0JPY\n",
        "rule t v1\ninput bill: money[JPY] 0JPY..100000JPY\ninput people: int 0..20\noutput share: money[JPY] 0JPY..100000JPY round up(1JPY)\ntable share_of -> share\n| people | share         |\n|--------|---------------|\n| 0      | 0JPY          |\n| >0     | bill / people |\n",
        "rule t v1\ninput x: int 0..100\noutput r: int 0..1\ndefine r = round(x / (x + 1), down, 1)\n",
        "rule t v1\ninput a: int 0..100\ninput b: int 0..100\nconstraint b >= a + 1\noutput r: int 0..100\ndefine r = round(a / (b - a), floor, 1)\n",
        "rule t v1\ninput a: int 0..100\ninput b: int 1..3\noutput r: int 0..2\ndefine r = mod(a, b)\n",
        "rule t v1\ninput a: int -50..50\ninput b: int -7..7\noutput m: int 0..6\ndefine m = if b != 0 then mod(a, b) else 0\n",
        "rule t v1\ninput a: int -50..50\ninput b: int -7..7\noutput q: int -50..50\ndefine q = if b = 0 then 0 else round(a / b, half_up, 1)\n",
    ];
    for case in cases {
        let c = check_text(case);
        assert!(c.diagnostics.is_empty(), "{case}\n{:?}", c.diagnostics);
    }
}

#[test]
fn divisors_that_may_be_zero() {
    let cases = [
        ("rule t v1\ninput a: int 0..100\ninput b: int -3..3\noutput r: int 0..10\ndefine r = mod(a, b)\n", "b", 0),
        ("rule t v1\ninput x: int 0..100\ninput y: int 0..100\noutput r: int -100..100\ndefine r = round(y / (x - y), down, 1)\n", "y", 0),
    ];
    for (case, name, want) in cases {
        let c = check_text(case);
        let d = c.diagnostics.iter().find(|d| d.code == "E132").unwrap_or_else(|| panic!("{case}"));
        let w = witness_inputs(d);
        assert_eq!(w[name], json!(want), "{case}");
        let p = program(&c);
        let inputs = wire::read_inputs(p, &json!(w)).unwrap();
        assert_eq!(eval::evaluate(p, &inputs).unwrap_err(), EvalError::DivisionByZero);
    }
}

#[test]
fn misplaced_quotients_and_negative_roots() {
    let c = check_text("rule t v1\ninput a: int 0..100\ninput b: int 1..20\noutput r: int 0..1000\ndefine r = round(a / b * 2, half_up, 1)\n");
    assert_eq!(codes(&c), ["E133"]);
    let c = check_text("rule t v1\ninput a: int 0..100\ninput b: int 1..20\noutput r: int 0..1000\ndefine r = round(a * 2 / b, half_up, 1)\n");
    assert!(c.diagnostics.is_empty(), "{:?}", codes(&c));
    let c = check_text("rule t v1\ninput a: money[JPY] 0JPY..1000JPY\ninput b: int 1..10\ndefine q = a / b\noutput t: money[JPY] 0JPY..1000JPY round down(1JPY)\ndefine t = q\n");
    assert_eq!(codes(&c), ["E133"]);
    let c = check_text("rule t v1\ninput a: int -10..100\noutput r: int 0..10\ndefine r = isqrt(a)\n");
    assert_eq!(codes(&c), ["E134"]);
    let d = &c.diagnostics[0];
    let p = program(&c);
    let inputs = wire::read_inputs(p, &json!(witness_inputs(d))).unwrap();
    assert_eq!(eval::evaluate(p, &inputs).unwrap_err(), EvalError::NegativeRoot);
    let c =
        check_text("rule t v1\ninput a: int -10..100\nconstraint a >= 0\noutput r: int 0..10\ndefine r = isqrt(a)\n");
    assert!(c.diagnostics.is_empty(), "{:?}", codes(&c));
}

#[test]
fn overflows_of_rescaling_storing_and_the_door() {
    // USD meets USDc at cents: the dollars are multiplied by 100.
    let c = check_text("rule t v1\ninput a: money[USD] 0USD..100000000000000000USD\ninput b: money[USDc] 0USDc..100USDc\noutput t: money[USDc] 0USDc..5USDc\ndefine t = min(a + b, 5USDc)\n");
    assert_eq!(value_codes(&c), ["E108"]);
    // Stored in cents, a dollar amount is 100 times larger: it overflows, and it leaves the
    // declared range too (both are reported).
    let c = check_text("rule t v1\ninput a: money[USD] 0USD..100000000000000000USD\noutput t: money[USDc] 0USDc..9000000000000000000USDc\ndefine t = a\n");
    assert_eq!(value_codes(&c), ["E107", "E108"]);
    // A constraint's own arithmetic runs before the constraint holds.
    let text = "rule t v1\ninput a: int 0..9000000000000000000\ninput b: int 0..9000000000000000000\nconstraint a + b <= 9000000000000000000\noutput t: int 0..9000000000000000000\ndefine t = a + b\n";
    let c = check_text(text);
    assert_eq!(value_codes(&c), ["E108"]);
    let start = text.find("constraint a + b").unwrap() + "constraint ".len();
    assert_eq!(c.diagnostics[0].primary.span, rulec::source::Span::new(start, start + "a + b".len()));
    // An input range beyond int64.
    let c = check_text("rule t v1\ninput a: int 0..10000000000000000000\noutput t: int 0..1\ndefine t = min(a, 1)\n");
    assert!(value_codes(&c).contains(&"E108"), "{:?}", codes(&c));
    // The rate at 0.01% makes a product 10000 times larger than its yen.
    let c = check_text("rule t v1\ninput a: money[JPY] 0JPY..9000000000000000000JPY\ninput r: rate[0.01%] 0%..100%\noutput t: money[JPY] 0JPY..9000000000000000000JPY round down(1JPY)\ndefine t = a * r\n");
    assert_eq!(value_codes(&c), ["E108"]);
}

// ---- the int64 model on the corpus

fn find<'a>(e: &'a TExpr, s: &'a Scaled, text: &str, src: &str) -> Option<(&'a TExpr, &'a Scaled)> {
    if &src[e.span.range()] == text {
        return Some((e, s));
    }
    scale::children(e).into_iter().zip(&s.kids).find_map(|(k, ks)| find(k, ks, text, src))
}

#[test]
fn parcel_rate_surcharge_scales() {
    let (c, text) = check_file(&corpus("parcel_rate.rule"));
    let p = program(&c);
    let ann = &proof(&c).scales;
    let d = p.defines.iter().position(|d| p.vars[d.var].name == "surcharge").unwrap();
    let (_, round) = find(&p.defines[d].expr, &ann.defines[d], "round(base * fuel_pct, up, 1USD)", &text).unwrap();
    assert_eq!(round.scale, Some(int(100)));
    assert!(matches!(&round.op, Op::Round { p, q, .. } if *p == 1.into() && *q == 100.into()), "{:?}", round.op);
    let (_, prod) = find(&p.defines[d].expr, &ann.defines[d], "base * fuel_pct", &text).unwrap();
    assert_eq!(prod.op, Op::Mul);
    assert_eq!(prod.scale, Some(int(1)));
    assert_eq!(prod.kids[0].scale, Some(int(100)));
    assert_eq!(prod.kids[1].scale, Some(Rat::new(1.into(), 100.into())));
    // Stored into `surcharge: money[USD]`: N at 100 is already dollars.
    let st = ann.define_stores[d].as_ref().unwrap();
    assert_eq!((st.p.clone(), st.q.clone()), (1.into(), 1.into()));
    // The certificate's entry for the product: one cent is 1/100 USD, at most 45 × 20.
    let entry = proof(&c).values.iter().find(|e| e.name == "base * fuel_pct").unwrap();
    assert_eq!(entry.scale, Rat::new(1.into(), 100.into()));
    assert_eq!(entry.stored_max, 900.into());
    assert_eq!(entry.to_json()["scale"], json!("1/100"));
}

#[test]
fn late_fee_fee_scales() {
    let (c, text) = check_file(&corpus("late_fee.rule"));
    let p = program(&c);
    let vp = proof(&c);
    let t = p.tables.iter().position(|t| t.name == "fee_of").unwrap();
    let e = p.tables[t].rows[2].results[0].as_ref().unwrap();
    let s = vp.scales.rows[t][2][0].as_ref().unwrap();
    let (_, q) = find(e, s, "amount * 1% * weeks_late / 4", &text).unwrap();
    assert_eq!(q.op, Op::DivConst { negate: false });
    assert_eq!(q.scale, Some(Rat::new(1.into(), 400.into())));
    let (_, m) = find(e, s, "amount * 1% * weeks_late", &text).unwrap();
    assert_eq!(m.scale, Some(Rat::new(1.into(), 100.into())));
    let (_, pct) = find(e, s, "1%", &text).unwrap();
    assert_eq!((pct.scale.clone(), pct.op.clone()), (Some(Rat::new(1.into(), 100.into())), Op::Const(1.into())));
    // min(…, 50000JPY): the literal adopts 1/400 and the sum's operands meet there.
    let (_, min) = find(e, s, "min(amount * 1% * weeks_late / 4, 50000JPY)", &text).unwrap();
    assert_eq!(min.kids[1].op, Op::Const(20000000.into()));
    let entry = vp.values.iter().find(|x| x.name == "amount * 1% * weeks_late / 4").unwrap();
    assert_eq!(entry.stored_max, 1040000000.into());
    // days_late needs the constraint to stay inside -60..730.
    let days = p.var_by_name("days_late").unwrap();
    assert_eq!(vp.intervals[days], Some((int(-60), int(729))));
}

#[test]
fn proven_intervals_of_the_corpus() {
    let want: &[(&str, &str, i64, i64)] = &[
        ("single_coupon.rule", "rest", 0, 1000000),
        ("member_discount.rule", "discount", 0, 375500),
        ("parcel_rate.rule", "fee", 900, 5900),
        ("consumption_tax.rule", "tax", 0, 1000000),
        ("loyalty_points.rule", "points", 0, 300000),
        ("late_fee.rule", "fee", 0, 50000),
        ("late_fee.rule", "grace", 0, 27),
        ("late_fee.rule", "weekday_offset", 0, 6),
    ];
    for (file, var, lo, hi) in want {
        let (c, _) = check_file(&corpus(file));
        let p = program(&c);
        let v = p.var_by_name(var).unwrap();
        assert_eq!(proof(&c).intervals[v], Some((int(*lo), int(*hi))), "{file} {var}");
    }
}

// ---- every computed value lies inside its proven interval

struct Rule {
    program: Program,
    proof: ValueProof,
}

/// Rules beyond the corpus that reach what the corpus does not: guarded quotients, `mod` of
/// negative numbers, negation, dates, dollars meeting cents, rows restricted by their cells.
const EXTRA: &[&str] = &[
    "rule p1 v1\ninput bill: money[JPY] 0JPY..100000JPY\ninput people: int 0..20\ninput tip: rate[0.5%] 0%..20%\noutput share: money[JPY] 0JPY..120000JPY\ndefine share = if people > 0 then round(bill * (100% + tip) / people, half_even, 1JPY) else 0JPY\n",
    "rule p2 v1\ninput a: int -50..50\ninput b: int -7..7\noutput m: int 0..6\ndefine m = if b != 0 then mod(a, b) else 0\noutput q: int -50..50\ndefine q = if b = 0 then 0 else round(a / b, half_up, 1)\n",
    "rule p3 v1\ninput d1: date 2026-01-01..2026-12-31\ninput d2: date 2026-01-01..2027-12-31\ninput price: money[USD] 0USD..1000USD\ninput extra: money[USDc] 0USDc..99USDc\nconstraint d2 >= d1\noutput days: int 0..730\ndefine days = d2 - d1\noutput total: money[USDc] 0USDc..200000USDc\ndefine total = price + extra + max(days - 30, 0) * 50USDc\noutput neg: money[USDc] -100099USDc..0USDc\ndefine neg = -(price + extra)\n",
    "rule p4 v1\ninput n: int 0..100\ninput k: bool\nvalue v: money[JPY] 0JPY..10000JPY\noutput out: money[JPY] 0JPY..10000JPY round floor(10JPY)\ndefine out = v * 3 / 4\ntable v_of first -> v\n| n    | k    | v                         |\n|------|------|---------------------------|\n| 0    | -    | 0JPY                      |\n| <=10 | true | n * 100JPY                |\n| -    | -    | 1000JPY + isqrt(n) * 1JPY |\n",
    "rule p5 v1\ninput bill: money[JPY] 0JPY..100000JPY\ninput people: int 0..20\noutput share: money[JPY] 0JPY..100000JPY round up(1JPY)\ntable share_of -> share\n| people | share         |\n|--------|---------------|\n| 0      | 0JPY          |\n| not: 0 | bill / people |\n",
];

fn rules() -> &'static Vec<Rule> {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut out = Vec::new();
        for text in EXTRA {
            let c = check_text(text);
            assert!(c.diagnostics.is_empty(), "{text}\n{:?}", c.diagnostics);
            let proof = c.analysis.as_ref().unwrap().values.clone();
            out.push(Rule { program: c.program.unwrap(), proof });
        }
        let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus(""))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rule"))
            .collect();
        paths.sort();
        for path in paths {
            let (c, _) = check_file(&path);
            let proof = c.analysis.as_ref().unwrap().values.clone();
            out.push(Rule { program: c.program.unwrap(), proof });
        }
        out
    })
}

/// One input value from raw randomness: the ends of the range often, anything inside otherwise.
fn pick(p: &Program, v: VarId, r: u64) -> Value {
    let var = &p.vars[v];
    if var.optional && r.is_multiple_of(5) {
        return Value::None;
    }
    let r = r / 5;
    match &var.ty {
        Ty::Bool => Value::Bool(r.is_multiple_of(2)),
        Ty::Enum(e) => {
            let (lo, hi) = match &var.range {
                Some((Value::Enum(a), Value::Enum(b))) => (*a, *b),
                _ => (0, p.enums[*e].values.len() as u32 - 1),
            };
            Value::Enum(lo + (r % u64::from(hi - lo + 1)) as u32)
        }
        Ty::Str => Value::Str(["JP", "KR", "TW", "CN", "FR", ""][(r % 6) as usize].to_string()),
        ty => {
            let (lo, hi) = match &var.range {
                Some((Value::Num(a), Value::Num(b))) => (a.clone(), b.clone()),
                _ => (int(20000), int(21000)),
            };
            let f = ty.factor();
            let (lo, hi) = ((&lo / &f).to_integer(), (&hi / &f).to_integer());
            let k = match r % 8 {
                0 => lo,
                1 => hi,
                _ => {
                    let width = &hi - &lo + 1;
                    &lo + num_bigint::BigInt::from(r / 8) % width
                }
            };
            Value::Num(Rat::from_integer(k) * f)
        }
    }
}

fn root_expr(p: &Program, site: Site) -> &TExpr {
    match site {
        Site::Constraint(c) => &p.constraints[c].expr,
        Site::Define(d) => &p.defines[d].expr,
        Site::Row { table, row, result } => p.tables[table].rows[row].results[result].as_ref().unwrap(),
    }
}

/// The node at `path`, if the evaluation reaches it (every `if` on the way takes that branch).
fn reached<'a>(mut e: &'a TExpr, path: &[usize], values: &[Value]) -> Option<&'a TExpr> {
    for &i in path {
        if let TExprKind::If { cond, .. } = &e.kind {
            let c = eval::eval_expr(cond, values).ok()?;
            if (i == 1 && c != Value::Bool(true)) || (i == 2 && c != Value::Bool(false)) {
                return None;
            }
        }
        e = scale::children(e)[i];
    }
    Some(e)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn values_lie_inside_their_intervals(rule in 0usize..14, seeds in prop::collection::vec(any::<u64>(), 8)) {
        let rules = rules();
        let Rule { program: p, proof } = &rules[rule % rules.len()];
        let inputs: Vec<Value> = p.inputs.iter().enumerate().map(|(i, &v)| pick(p, v, seeds[i % seeds.len()].rotate_left(i as u32 * 7))).collect();
        let mut obj = serde_json::Map::new();
        for (&v, x) in p.inputs.iter().zip(&inputs) {
            obj.insert(p.vars[v].name.clone(), wire::to_wire(p, &p.vars[v], x));
        }
        // Only what the door lets through is asked about.
        let Ok(inputs) = wire::read_inputs(p, &Json::Object(obj)) else { return Ok(()) };
        let out = eval::evaluate(p, &inputs).expect("a clean rule answers every input");
        for (v, iv) in proof.intervals.iter().enumerate() {
            if let (Some((lo, hi)), Value::Num(x)) = (iv, &out.values[v]) {
                prop_assert!(lo <= x && x <= hi, "{}: {} outside {}..{}", p.vars[v].name, x, lo, hi);
            }
        }
        for nb in &proof.nodes {
            let Some((lo, hi)) = &nb.interval else { continue };
            if let Site::Row { table, row, .. } = nb.site {
                if !out.trace.iter().any(|f| f.table == table && f.row == row + 1) {
                    continue;
                }
            }
            let Some(e) = reached(root_expr(p, nb.site), &nb.path, &out.values) else { continue };
            let Ok(Value::Num(x)) = eval::eval_expr(e, &out.values) else { continue };
            prop_assert!(lo <= &x && &x <= hi, "{:?} {:?}: {} outside {}..{}", nb.site, nb.path, x, lo, hi);
            // Its integer at the node's scale is whole.
            let Some(s) = node_scale(&proof.scales, p, nb.site, &nb.path) else { continue };
            prop_assert!((&x / &s).is_integer(), "{:?} {:?}: {} is not a whole number of {}", nb.site, nb.path, x, s);
        }
    }
}

/// The scale of a node that holds one integer.
fn node_scale(ann: &scale::Annotation, _p: &Program, site: Site, path: &[usize]) -> Option<Rat> {
    let mut s: &Scaled = match site {
        Site::Constraint(c) => &ann.constraints[c],
        Site::Define(d) => &ann.defines[d],
        Site::Row { table, row, result } => ann.rows[table][row][result].as_ref()?,
    };
    for &i in path {
        s = &s.kids[i];
    }
    if s.holds_n() {
        s.scale.clone()
    } else {
        None
    }
}
