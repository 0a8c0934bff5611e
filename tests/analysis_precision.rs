//! What an independent solver decided that rulec did not (issue 17): each class as a rule
//! with its exact verdict — the code, the rows, and a witness the reference evaluator
//! confirms where there is one.

use rulec::analysis::Options;
use rulec::diag::Diagnostic;
use rulec::eval::{self, row_matches, wire};
use rulec::num::{int, RoundMode};
use rulec::sema::{Program, Value};
use rulec::{check_text, Checked, Sources};
use std::path::Path;

mod common;

fn check(text: &str) -> Checked {
    let mut sources = Sources::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/scratch.rule");
    check_text(&mut sources, path.to_str().unwrap(), text, &Options::default())
}

fn codes(c: &Checked) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

fn describe(c: &Checked) -> String {
    c.diagnostics.iter().map(|d| format!("{} {} {:?}\n", d.code, d.message, d.notes)).collect()
}

fn rows(d: &Diagnostic) -> Vec<usize> {
    d.rows.iter().map(|r| r.row).collect()
}

fn program(c: &Checked) -> &Program {
    c.program.as_ref().expect("the rule resolves")
}

/// The witness's inputs read at the door, and every value the named table reads there.
fn replay(c: &Checked, d: &Diagnostic) -> (Vec<Value>, Vec<Value>, usize) {
    let p = program(c);
    let w = d.witness.as_ref().unwrap_or_else(|| panic!("{} has a witness: {}", d.code, d.message));
    let inputs = wire::read_inputs(p, &w["inputs"]).expect("the witness passes the door");
    let t = p.tables.iter().position(|t| Some(&t.name) == d.table.as_ref()).expect("its table");
    let values = eval::values_before(p, &inputs, t).expect("the table's inputs evaluate");
    (inputs, values, t)
}

fn clean(text: &str) {
    let c = check(text);
    assert!(c.diagnostics.is_empty(), "{text}\n{}", describe(&c));
}

// ---- 1. ranges through mod, isqrt, round, min, max, if

const PARITY: &str = "rule parity v1
input x: int 0..100
define m = mod(x, 2)
output k: int 0..1
table t -> k
| m | k |
|---|---|
| 0 | 0 |
| 1 | 1 |
";

#[test]
fn a_range_through_mod_makes_the_table_complete() {
    clean(PARITY);
    // Without the odd row the gap is real, and the witness is an odd x.
    let c = check(&PARITY.replace("| 1 | 1 |\n", ""));
    assert_eq!(codes(&c), ["E101"], "{}", describe(&c));
    let (_, values, _) = replay(&c, &c.diagnostics[0]);
    let x = program(&c).var_by_name("x").unwrap();
    let Value::Num(x) = &values[x] else { panic!() };
    assert!(!(x / int(2)).is_integer(), "x = {x} is odd");
}

#[test]
fn ranges_through_isqrt_round_min_max_and_if() {
    // Each define's values are exactly the rows' cells: no gap, no dead row.
    for (define, cells) in [
        ("isqrt(x)", vec!["<=4", ">=5 <=9", "10"]),
        ("round(x / 7, half_even, 1)", vec!["<=7", ">7"]),
        ("min(x, 30) + max(x - 90, 0)", vec!["<=29", "30", ">30"]),
        ("if x > 50 then x - 50 else 50 - x", vec!["0", ">0 <=49", "50"]),
        ("mod(x + 3, 5) * 2", vec!["0", "2", "4", "6", "8"]),
    ] {
        let mut text = format!("rule r v1\ninput x: int 0..100\ndefine d = {define}\noutput k: int 0..9\ntable t -> k\n| d | k |\n|---|---|\n");
        for (i, cell) in cells.iter().enumerate() {
            text.push_str(&format!("| {cell} | {i} |\n"));
        }
        clean(&text);
        // A row past what the define can be is dead, with no witness to give.
        let dead = format!("{text}| <0 | 9 |\n");
        let c = check(&dead);
        assert_eq!(codes(&c), ["E105"], "{dead}\n{}", describe(&c));
        assert_eq!(rows(&c.diagnostics[0]), [cells.len() + 1]);
    }
}

// ---- 2. monotone functions of one input, translated back to cuts on it

#[test]
fn a_rounding_cut_is_a_cut_on_its_input() {
    let text = "rule halves v1
input x: int 0..100
define h: int 0..50 = round(x / 2, floor, 1)
output k: int 0..2
table t first -> k
| h   | x   | k |
|-----|-----|---|
| <=4 | -   | 0 |
| -   | <=9 | 1 |
| -   | -   | 2 |
";
    let c = check(text);
    assert_eq!(codes(&c), ["E103"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert_eq!(rows(d), [2, 1], "row 2, shadowed by row 1");
    let (_, values, t) = replay(&c, d);
    let table = &program(&c).tables[t];
    assert!(row_matches(table, 1, &values));
    assert_eq!(eval::pick_row(table, &values).unwrap(), 0);
    // One more x and row 2 fires at x = 10? No: h = 5 there, but x = 10 is not <= 9. With
    // `<=10` it does.
    clean(&text.replace("| -   | <=9 | 1 |", "| -   | <=10 | 1 |"));
}

#[test]
fn every_rounding_mode_is_translated_exactly() {
    for mode in RoundMode::ALL {
        // The largest x with round(x / 3, mode, 1) <= 4, by the reference semantics.
        let last = (0..=100i64)
            .filter(|&x| rulec::num::round_to_grid(&(int(x) / int(3)), mode, &int(1)) <= int(4))
            .max()
            .unwrap();
        let text = format!(
            "rule r v1\ninput x: int 0..100\ndefine h = round(x / 3, {}, 1)\noutput k: int 0..2\ntable t first -> k\n| h | x | k |\n|---|---|---|\n| <=4 | - | 0 |\n| - | <=XX | 1 |\n| - | - | 2 |\n",
            mode.as_str()
        );
        // Up to `last` row 2 is covered by row 1; one past it, it fires.
        let c = check(&text.replace("XX", &last.to_string()));
        assert_eq!(codes(&c), ["E103"], "{} at {last}\n{}", mode.as_str(), describe(&c));
        clean(&text.replace("XX", &(last + 1).to_string()));
    }
}

#[test]
fn a_root_cut_parts_rows_exactly() {
    let text = "rule roots v1
input x: int 0..1000
define r = isqrt(x)
output k: int 0..2
table t -> k
| r    | x     | k |
|------|-------|---|
| <=10 | -     | 0 |
| -    | >=122 | 1 |
| >10  | <122  | 2 |
";
    // r <= 10 is x <= 120: the first two rows are apart, and nothing is guarded.
    let c = check(text);
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    assert!(c.analysis.as_ref().unwrap().guards.is_empty());
    // From x >= 120 on they meet: at x = 120, isqrt(120) = 10. And a root above 10 needs
    // x >= 121, so the third row, now below 120, is dead.
    let c = check(&text.replace(">=122", ">=120").replace("<122", "<120"));
    assert_eq!(codes(&c), ["E102", "E105"], "{}", describe(&c));
    assert_eq!(rows(&c.diagnostics[1]), [3]);
    let d = &c.diagnostics[0];
    assert_eq!(rows(d), [1, 2]);
    let (_, values, _) = replay(&c, d);
    assert_eq!(values[program(&c).var_by_name("x").unwrap()], Value::Num(int(120)));
}

// ---- 3. products

const PRODUCT: &str = "rule product v1
input a: int 0..100
input b: int 0..100
define p = a * b
output k: int 0..3
table t -> k
| p      | a    | k |
|--------|------|---|
| >=9000 | <=80 | 1 |
| >=5000 | >80  | 2 |
| <5000  | -    | 3 |
| >=5000 | <=80 | 3 |
";

#[test]
fn a_product_of_two_wide_inputs_is_bounded_and_the_row_it_needs_is_dead() {
    // a <= 80 and b <= 100 keep a * b at most 8000: row 1 needs b > 100.
    let c = check(PRODUCT);
    assert_eq!(codes(&c), ["E105"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert_eq!(rows(d), [1]);
    assert!(d.notes.iter().any(|n| n.contains("the definition of `p`")), "{:?}", d.notes);
    assert!(c.analysis.as_ref().unwrap().guards.is_empty(), "no pair is left to a guard");
    // With a <= 90 the row is reached: 90 × 100.
    let c = check(&PRODUCT.replace("| >=9000 | <=80 | 1 |", "| >=9000 | <=90 | 1 |"));
    assert_eq!(codes(&c), ["E102"], "{}", describe(&c));
    let (_, values, _) = replay(&c, &c.diagnostics[0]);
    let p = program(&c);
    let (a, b) = (&values[p.var_by_name("a").unwrap()], &values[p.var_by_name("b").unwrap()]);
    let (Value::Num(a), Value::Num(b)) = (a, b) else { panic!() };
    assert!(a * b >= int(9000) && *a > int(80) && *a <= int(90));
}

#[test]
fn a_product_with_a_factor_a_table_gives_is_split_on_its_rows() {
    // The rate is 0% for one tier: there the fee is 0 whatever the amount.
    let text = "rule fee v1
enum tier: basic, plus, pro
input amount: int 0..1000
input tier: tier
value rate: rate[1%] 0%..20%
table rate_of -> rate
| tier  | rate |
|-------|------|
| basic | 0%   |
| plus  | 10%  |
| pro   | 20%  |
define fee = amount * rate
output band: int 0..3
table band_of -> band
| fee   | tier        | band |
|-------|-------------|------|
| 0     | -           | 0    |
| >0    | -           | 1    |
| >0    | basic       | 2    |
";
    let c = check(text);
    assert_eq!(codes(&c), ["E105"], "{}", describe(&c));
    assert_eq!(rows(&c.diagnostics[0]), [3]);
    // Without the dead row: complete and disjoint.
    clean(&text.replace("| >0    | basic       | 2    |\n", ""));
}

// ---- 4. a chain of tables through a product

const LOAN: &str = "rule loan v1
enum decision: approve, refer, decline
input income: money[JPY] 0JPY..10000000JPY
input installment: money[JPY] 1JPY..1000000JPY
input bureau: bool
value factor: rate[1%]
table factor_of -> factor
| bureau | factor |
|--------|--------|
| true   | 40%    |
| false  | 0%     |
define affordable = income * factor > installment
output result: decision
table decide -> result
| affordable | bureau | result  |
|------------|--------|---------|
| true       | true   | approve |
| true       | false  | refer   |
| false      | -      | decline |
";

#[test]
fn an_affordability_test_through_an_upstream_table_is_decided_by_its_rows() {
    // No bureau call: factor 0%, so income × 0% > installment never holds.
    let c = check(LOAN);
    assert_eq!(codes(&c), ["E105"], "{}", describe(&c));
    let d = &c.diagnostics[0];
    assert_eq!(rows(d), [2]);
    assert!(d.notes.iter().any(|n| n.contains("factor_of")), "{:?}", d.notes);
    // Removing the dead row leaves a table that is complete: no E101.
    clean(&LOAN.replace("| true       | false  | refer   |\n", ""));
    // A factor of 5% makes the row reachable, with a witness through both tables.
    let c = check(&LOAN.replace("| false  | 0%     |", "| false  | 5%     |"));
    assert!(c.diagnostics.is_empty(), "{}", describe(&c));
    let inputs = c.analysis.as_ref().unwrap().tables[1].reach_inputs(program(&c), 1);
    let inputs = inputs.expect("row 2's reach point has inputs");
    let out = eval::evaluate(program(&c), &inputs).unwrap();
    assert!(out.trace.iter().any(|f| f.table == 1 && f.row == 2));
}

#[test]
fn a_chain_of_three_tables_reaches_through_each() {
    // band from weight, surcharge from band, factor from surcharge: the last row needs the
    // heaviest band, whose factor is 0.
    let text = "rule chain v1
input weight: int 0..30
input extra: int 0..10
value band: int 0..2
value surcharge: int 0..5
value factor: int 0..3
table band_of -> band
| weight | band |
|--------|------|
| <=10   | 0    |
| >10 <=20 | 1  |
| >20    | 2    |
table surcharge_of -> surcharge
| band | surcharge |
|------|-----------|
| <=1  | 1         |
| 2    | 5         |
table factor_of -> factor
| surcharge | factor |
|-----------|--------|
| <=2       | 3      |
| >2        | 0      |
define cost = extra * factor
output k: int 0..2
table t -> k
| cost | weight | k |
|------|--------|---|
| >0   | >20    | 1 |
| >0   | <=20   | 2 |
| 0    | -      | 0 |
";
    let c = check(text);
    assert_eq!(codes(&c), ["E105"], "{}", describe(&c));
    assert_eq!(rows(&c.diagnostics[0]), [1]);
    clean(&text.replace("| >0   | >20    | 1 |\n", ""));
}

// ---- 5. a finding hidden by another

#[test]
fn an_overflow_and_a_range_are_both_reported() {
    let text = "rule big v1
input price: money[JPY] 0JPY..1000000000000JPY
input qty: int 0..1000000000
output total: money[JPY] 0JPY..1000000000000000000JPY
define total = price * qty * qty
";
    let c = check(text);
    assert_eq!(codes(&c), ["E107", "E108"], "{}", describe(&c));
    let p = program(&c);
    let total = p.var_by_name("total").unwrap();
    for d in &c.diagnostics {
        let w = d.witness.as_ref().expect("both are confirmed");
        let inputs = wire::read_inputs(p, &w["inputs"]).unwrap();
        let out = eval::evaluate(p, &inputs).unwrap();
        let Value::Num(t) = &out.values[total] else { panic!() };
        // 10^30: past the declared 10^18, and past int64 on the way.
        assert!(*t > int(1_000_000_000_000_000_000), "{}: total = {t}", d.code);
    }
    assert!(c.diagnostics[0].message.contains("can reach"));
    assert!(c.diagnostics[1].message.contains("overflows int64"));
    common::assert_no_unproven_claim(&c, "big");
}

// ---- 6. a define read where a row or a branch narrows what it is computed from (issue 32)

const ZONES: &str = "rule zones v1
input income: money[USD] 0USD..1000000USD
output tax: money[USD] 0USD..1000000USD
define y = (income - 20000USD) / 5000USD
table t -> tax
| income                | tax                                              |
|-----------------------|--------------------------------------------------|
| <=20000USD            | 0USD                                             |
| >=20001USD <=30000USD | round((y * 1250USDc + 9000USDc) * y, down, 1USD) |
| >30000USD             | round(income * 10%, down, 1USD)                  |
";

/// The rule with `y` written out where the row reads it.
fn zones_inline(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("define y"))
        .map(
            |l| {
                if l.starts_with("| >=20001USD") {
                    l.replace('y', "((income - 20000USD) / 5000USD)")
                } else {
                    l.into()
                }
            },
        )
        .map(|l| l + "\n")
        .collect()
}

#[test]
fn a_polynomial_of_a_define_is_bounded_on_the_row_as_written_inline() {
    // Over every income y runs to 196 and its square past the range; on the row, 0 < y <= 2.
    clean(&zones_inline(ZONES));
    clean(ZONES);
    // The square a define of its own, not linear: bounded on the row through both defines.
    clean(
        &ZONES
            .replace(
                "define y = (income - 20000USD) / 5000USD",
                "define y = (income - 20000USD) / 5000USD\ndefine y2 = y * y",
            )
            .replace(
                "round((y * 1250USDc + 9000USDc) * y, down, 1USD)",
                "round(y2 * 1250USDc + y * 9000USDc, down, 1USD)",
            ),
    );
}

#[test]
fn a_define_in_a_branch_is_bounded_where_the_branch_is_taken() {
    let text = "rule branch v1
input income: money[USD] 0USD..1000000USD
define y = (income - 20000USD) / 5000USD
output extra: money[USD] 0USD..1000USD
define extra = if income > 20000USD and income <= 30000USD then round(y * y * 100USD, down, 1USD) else 0USD
";
    clean(text);
    // Without the upper cut, y reaches 196 in the branch: the finding is real, and confirmed.
    let c = check(&text.replace(" and income <= 30000USD", ""));
    assert_eq!(codes(&c), ["E107"], "{}", describe(&c));
    common::assert_no_unproven_claim(&c, "branch");
    assert!(c.diagnostics[0].witness.is_some(), "{}", describe(&c));
}

#[test]
fn a_define_on_a_row_that_does_leave_the_range_is_found_with_a_witness() {
    // At income 30000 (y = 2) the row computes 230USD: past a range of 0..200USD, in both forms.
    let tight = ZONES.replace("0USD..1000000USD\ndefine", "0USD..200USD\ndefine").replace(
        "| >30000USD             | round(income * 10%, down, 1USD)                  |",
        "| >30000USD             | 0USD                                             |",
    );
    for text in [tight.clone(), zones_inline(&tight)] {
        let c = check(&text);
        assert_eq!(codes(&c), ["E107"], "{text}\n{}", describe(&c));
        let p = program(&c);
        let w = c.diagnostics[0].witness.as_ref().expect("a witness");
        let inputs = wire::read_inputs(p, &w["inputs"]).unwrap();
        let out = eval::evaluate(p, &inputs).unwrap();
        let Value::Num(tax) = &out.values[p.var_by_name("tax").unwrap()] else { panic!() };
        assert!(*tax > int(200), "tax = {tax} at the witness");
    }
}

// ---- 7. a row that needs what an upstream table leaves out (issue 32)

const UPSTREAM_GAP: &str = "rule upstream v1
input x: int 0..30
value v: int 1..2
table a -> v
| x    | v |
|------|---|
| <=10 | 1 |
| >=20 | 2 |
output k: int 0..3
table b -> k
| v   | x         | k |
|-----|-----------|---|
| >=1 | <=10      | 1 |
| >=1 | >=20      | 2 |
| >=1 | >=11 <=19 | 3 |
";

#[test]
fn a_row_that_needs_the_inputs_an_upstream_table_leaves_out_is_dead() {
    // Every value of `v` is wanted, but no row of `a` produces one for 11 <= x <= 19.
    let c = check(UPSTREAM_GAP);
    assert_eq!(codes(&c), ["E101", "E105"], "{}", describe(&c));
    assert_eq!(c.diagnostics[0].table.as_deref(), Some("a"));
    assert_eq!((c.diagnostics[1].table.as_deref(), rows(&c.diagnostics[1])), (Some("b"), vec![3]));
    // Without the dead row, `b` has no gap of its own: the calls it misses are refused by `a`.
    let c = check(&UPSTREAM_GAP.replace("| >=1 | >=11 <=19 | 3 |\n", ""));
    assert_eq!(codes(&c), ["E101"], "{}", describe(&c));
    assert_eq!(c.diagnostics[0].table.as_deref(), Some("a"));
}

#[test]
fn a_row_whose_results_read_a_value_no_upstream_row_gives_there_is_dead() {
    // `b` reads `v` only in its results: the evaluator still computes `a` first, and refuses
    // 11 <= x <= 19 there.
    let text = "rule upstream v1
input x: int 0..30
value v: int 1..2
table a -> v
| x    | v |
|------|---|
| <=10 | 1 |
| >=20 | 2 |
output k: int 0..40
table b -> k
| x         | k     |
|-----------|-------|
| <=10      | v     |
| >=20      | v + 1 |
| >=11 <=19 | v + 2 |
";
    let c = check(text);
    assert_eq!(codes(&c), ["E101", "E105"], "{}", describe(&c));
    assert_eq!((c.diagnostics[1].table.as_deref(), rows(&c.diagnostics[1])), (Some("b"), vec![3]));
    assert!(c.diagnostics[1].notes.iter().any(|n| n.contains("the inputs table `a` leaves out")), "{}", describe(&c));
    let c = check(&text.replace("| >=11 <=19 | v + 2 |\n", ""));
    assert_eq!(codes(&c), ["E101"], "{}", describe(&c));
    // Once `a` covers every input, the row is reached again.
    clean(&text.replace("| >=20 | 2 |", "| >=11 | 2 |"));
}
