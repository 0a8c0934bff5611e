//! The statements no syntax reaches yet — a list built element by element, a walk over it
//! with accumulators and an early stop, a first-match table inside the walk (its trace
//! pushed once per element), collect tables folding every row that holds (sum, count,
//! minimum, maximum, list), and calls of another rule (its inputs bound, its table and
//! define run under its prefix, its outputs read, its contradiction the caller's) — written into small plans through the plan's own constructors,
//! generated in every function-shaped language, and each module's runner held to the plan
//! interpreter (`tree::interp`) on every call, byte for byte, through `rulec test`'s harness.

mod common;

use rulec::gen::plan::{Arith, CallPlan, Collect, Expr, Fold, Kind, Node, Plan, Role, Row, Step, TablePlan, WalkPlan};
use rulec::gen::tree::interp;
use rulec::harness::{self, Options};
use rulec::lang::Lang;
use rulec::syntax::ast::CmpOp;
use serde_json::json;
use std::path::Path;

/// The rule whose plan each test replaces the steps of: three inputs, five outputs.
const BASE: &str = "rule basket v1
about \"The rule whose plan the statement tests rewrite.\"

input a: int 0..100
input b: int 0..100
input c: int 0..100
output total: int 0..1000
output count: int 0..10
output low: int 0..100
output high: int 0..100
output listed: int 0..1000

table outputs_of -> total, count, low, high, listed
| a     | total | count | low | high | listed |
|-------|-------|-------|-----|------|--------|
| <=100 | 0     | 0     | 0   | 0    | 0      |

expect a=1, b=2, c=3 -> total=0
";

const LANGS: [Lang; 9] = [
    Lang::Go,
    Lang::Java,
    Lang::JavaScript,
    Lang::Php,
    Lang::Python,
    Lang::Ruby,
    Lang::Rust,
    Lang::Swift,
    Lang::TypeScript,
];

struct Built {
    plan: Plan,
}

impl Built {
    fn var(&self, name: &str) -> usize {
        self.plan.vars.iter().position(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"))
    }

    /// A variable of the walk or the folds, beside the rule's own: a number unless `kind`
    /// says otherwise, a list when `list`.
    fn add(&mut self, name: &str, kind: Kind, list: bool) -> usize {
        let mut v = self.plan.var(self.plan.outputs[0]).clone();
        v.name = name.to_string();
        v.base = name.to_string();
        v.role = Role::Value;
        v.what = "int".into();
        v.range = None;
        v.kind = kind;
        if kind == Kind::Bool {
            v.ty = rulec::gen::plan::BoundaryTy::Bool;
            v.what = "bool".into();
        }
        v.list = list;
        self.plan.vars.push(v);
        self.plan.vars.len() - 1
    }
}

fn read(v: usize) -> Expr {
    Expr::num(Node::Var(v))
}

fn arith(op: Arith, a: Expr, b: Expr) -> Expr {
    Expr::num(Node::Arith(op, Box::new(a), Box::new(b)))
}

fn cmp(op: CmpOp, a: Expr, b: i64) -> Expr {
    Expr::cmp(op, a, Expr::int(b))
}

/// A table of one result whose rows each store `value` when `cond` holds.
fn table(name: &str, policy: &'static str, into: usize, rows: Vec<(Expr, Expr)>, collect: Option<Collect>) -> Step {
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, (cond, value))| Row {
            n: i + 1,
            cond,
            assigns: vec![(into, value)],
            cells: format!("cell {}", i + 1),
        })
        .collect();
    Step::Table(TablePlan {
        name: name.into(),
        policy,
        slot: 0,
        results: vec![into],
        rows,
        guards: vec![],
        no_row: format!("no row of table {name} matched (its completeness was proven)"),
        shape: None,
        decision: None,
        collect,
    })
}

fn base() -> Built {
    base_of(BASE)
}

fn base_of(rule: &str) -> Built {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, "basket.rule", rule, &Default::default());
    let plan = rulec::gen::Unit::of(&checked, &sources).expect("the base rule checks clean").plan;
    Built { plan }
}

/// A list of the inputs and their sum walked: each element counted, summed, its minimum and
/// maximum kept, and sized by a first-match table inside the walk; the walk stops once the
/// total passes 150.
fn walk_plan() -> Plan {
    let mut p = base();
    let [a, b, c] = ["a", "b", "c"].map(|n| p.var(n));
    let [total, count, low, high, listed] = ["total", "count", "low", "high", "listed"].map(|n| p.var(n));
    let xs = p.add("xs", Kind::Num, true);
    let x = p.add("x", Kind::Num, false);
    let size = p.add("size", Kind::Num, false);
    let mut steps = vec![
        Step::Push { list: xs, value: read(a) },
        Step::Push { list: xs, value: read(b) },
        Step::Push { list: xs, value: read(c) },
        Step::Push { list: xs, value: arith(Arith::Add, read(a), read(b)) },
    ];
    let walk_at = steps.len();
    let body = vec![
        table(
            "size_of",
            "unique",
            size,
            vec![(cmp(CmpOp::Lt, read(x), 30), Expr::int(1)), (cmp(CmpOp::Ge, read(x), 30), Expr::int(2))],
            None,
        ),
        Step::Assign { var: total, value: arith(Arith::Add, read(total), read(x)) },
        Step::Assign { var: count, value: arith(Arith::Add, read(count), Expr::int(1)) },
        Step::Assign { var: low, value: Expr::num(Node::Min(vec![read(low), read(x)])) },
        Step::Assign { var: high, value: Expr::num(Node::Max(vec![read(high), read(x)])) },
        Step::Assign { var: listed, value: arith(Arith::Add, read(listed), read(size)) },
    ];
    let body_at: Vec<usize> = (walk_at + 1..walk_at + 1 + body.len()).collect();
    steps.push(Step::Walk(WalkPlan {
        list: xs,
        element: x,
        accumulators: vec![
            (total, Expr::int(0)),
            (count, Expr::int(0)),
            (low, Expr::int(100)),
            (high, Expr::int(0)),
            (listed, Expr::int(0)),
        ],
        body: body_at,
        stop: Some(cmp(CmpOp::Gt, read(total), 150)),
    }));
    steps.extend(body);
    p.plan.steps = steps;
    p.plan
}

/// Every output a collect table's fold: the sum, the count, the minimum and the maximum of
/// the rows that hold, and the values of a list fold walked and summed.
fn collect_plan() -> Plan {
    let mut p = base();
    let [a, b, c] = ["a", "b", "c"].map(|n| p.var(n));
    let [total, count, low, high, listed] = ["total", "count", "low", "high", "listed"].map(|n| p.var(n));
    let seen: Vec<usize> =
        ["total_seen", "low_seen", "high_seen"].iter().map(|n| p.add(n, Kind::Bool, false)).collect();
    let values = p.add("values", Kind::Num, true);
    let v = p.add("v", Kind::Num, false);
    let big = |x: usize| (cmp(CmpOp::Ge, read(x), 50), read(x));
    let fold = |fold: Fold, empty: i64, seen: Option<usize>| Some(Collect { fold, empty: Expr::int(empty), seen });
    let gt = |x: usize, y: usize| Expr::cmp(CmpOp::Gt, read(x), read(y));
    let steps = vec![
        table(
            "points",
            "collect sum",
            total,
            vec![
                (cmp(CmpOp::Ge, read(a), 10), Expr::int(5)),
                (cmp(CmpOp::Ge, read(b), 20), Expr::int(7)),
                (cmp(CmpOp::Lt, read(c), 15), Expr::int(1)),
            ],
            fold(Fold::Sum, 0, Some(seen[0])),
        ),
        table(
            "orders",
            "collect count",
            count,
            vec![(gt(a, b), Expr::int(1)), (gt(b, c), Expr::int(1)), (gt(a, c), Expr::int(1))],
            fold(Fold::Count, 0, None),
        ),
        table("lowest_big", "collect min", low, vec![big(a), big(b), big(c)], fold(Fold::Min, 100, Some(seen[1]))),
        table("highest_big", "collect max", high, vec![big(a), big(b), big(c)], fold(Fold::Max, 0, Some(seen[2]))),
        table(
            "listed_of",
            "collect",
            values,
            vec![
                (cmp(CmpOp::Ge, read(a), 10), read(a)),
                (cmp(CmpOp::Ge, read(b), 10), read(b)),
                (cmp(CmpOp::Ge, read(c), 10), read(c)),
            ],
            fold(Fold::List, 0, None),
        ),
        Step::Walk(WalkPlan {
            list: values,
            element: v,
            accumulators: vec![(listed, Expr::int(0))],
            body: vec![6],
            stop: None,
        }),
        Step::Assign { var: listed, value: arith(Arith::Add, read(listed), read(v)) },
    ];
    p.plan.steps = steps;
    p.plan
}

/// One call of the rule `fee` under `prefix`: its inputs `w` (a number) and `fast` (a
/// boolean) bound to `w` and `fast`, and one it never reads; its table `band` (no row for a weight of 100 or more,
/// so such a call is the table's contradiction) and its define `fee`; the step of the call
/// at `at`, then its body. Answers the steps, and the callee's `fee` and `band`.
fn fee_call(p: &mut Built, prefix: &str, at: usize, w: Expr, fast: Expr) -> (Vec<Step>, usize, usize) {
    let [cw, cband, cfee] = ["w", "band", "fee"].map(|n| p.add(&format!("{prefix}_{n}"), Kind::Num, false));
    let cfast = p.add(&format!("{prefix}_fast"), Kind::Bool, false);
    // An input the callee's steps never read: a language that refuses an unused local still builds.
    let unread = p.add(&format!("{prefix}_unread"), Kind::Num, false);
    let under = |lo: i64, hi: i64| Expr::and(cmp(CmpOp::Ge, read(cw), lo), cmp(CmpOp::Lt, read(cw), hi));
    let band = table(
        &format!("{prefix}:band"),
        "unique",
        cband,
        vec![(cmp(CmpOp::Lt, read(cw), 30), Expr::int(1)), (under(30, 100), Expr::int(2))],
        None,
    );
    let bonus =
        Expr::num(Node::If(Box::new(Expr::bool(Node::Var(cfast))), Box::new(Expr::int(5)), Box::new(Expr::int(0))));
    let fee = Step::Define { var: cfee, value: arith(Arith::Add, arith(Arith::Mul, read(cband), read(cw)), bonus) };
    let call = CallPlan {
        rule: "fee".into(),
        args: vec![(cw, w.clone()), (cfast, fast), (unread, w)],
        body: vec![at + 1, at + 2],
        // Filled in by the caller: what reads the callee's outputs.
        results: vec![],
    };
    (vec![Step::Call(call), band, fee], cfee, cband)
}

/// Two calls of one rule under two prefixes, each binding expressions of the caller's
/// inputs, the outputs read from both (one through an expression of two callees' outputs).
fn call_plan() -> Plan {
    let mut p = base();
    let [a, b, c] = ["a", "b", "c"].map(|n| p.var(n));
    let [total, count, low, high, listed] = ["total", "count", "low", "high", "listed"].map(|n| p.var(n));
    let gt = |x: usize, y: usize| Expr::cmp(CmpOp::Gt, read(x), read(y));
    let (mut steps, small_fee, small_band) = fee_call(&mut p, "small", 0, read(a), gt(a, b));
    let (big, big_fee, big_band) =
        fee_call(&mut p, "big", 3, arith(Arith::Add, read(b), read(c)), cmp(CmpOp::Gt, read(c), 50));
    steps.extend(big);
    let Step::Call(small) = &mut steps[0] else { unreachable!("the first call") };
    small.results = vec![(total, read(small_fee)), (count, read(small_band))];
    let Step::Call(big) = &mut steps[3] else { unreachable!("the second call") };
    big.results = vec![(high, read(big_band)), (listed, arith(Arith::Add, read(small_fee), read(big_fee)))];
    steps.push(Step::Define { var: low, value: Expr::num(Node::Min(vec![read(small_band), read(big_band)])) });
    // Each table its place among the tables (a table in a function of its own is named by it).
    for (slot, t) in steps.iter_mut().filter_map(|s| if let Step::Table(t) = s { Some(t) } else { None }).enumerate() {
        t.slot = slot;
    }
    p.plan.steps = steps;
    p.plan
}

/// The rule whose outputs the list test makes lists: an enum, a number, and a count beside.
const LISTS: &str = "rule basket v1
about \"The rule whose plan the list output tests rewrite.\"

enum offer: gold, silver, bronze

input a: int 0..100
input b: int 0..100
input c: int 0..100
output offers: offer
output fees: int 0..1000
output count: int 0..10

table outputs_of -> offers, fees, count
| a     | offers | fees | count |
|-------|--------|------|-------|
| <=100 | gold   | 0    | 0     |

expect a=1, b=2, c=3 -> count=0
";

/// Two outputs that are lists, each a collect table's list fold (an enum's members and
/// numbers, either one empty when no row holds), and the count of the offers beside them.
fn list_output_plan() -> Plan {
    let mut p = base_of(LISTS);
    let [a, b, c] = ["a", "b", "c"].map(|n| p.var(n));
    let [offers, fees, count] = ["offers", "fees", "count"].map(|n| p.var(n));
    for (v, what) in [(offers, "list[offer]"), (fees, "list[int]")] {
        p.plan.vars[v].list = true;
        p.plan.vars[v].what = what.into();
    }
    let offer = |m: u32| Expr::new(Kind::Enum(0), Node::Member(m));
    let list = Some(Collect { fold: Fold::List, empty: Expr::int(0), seen: None });
    let offered = vec![
        (cmp(CmpOp::Ge, read(a), 10), offer(0)),
        (cmp(CmpOp::Ge, read(b), 20), offer(1)),
        (cmp(CmpOp::Ge, read(c), 30), offer(2)),
        (cmp(CmpOp::Ge, read(a), 50), offer(0)),
    ];
    let counted = offered.iter().map(|(cond, _)| (cond.clone(), Expr::int(1))).collect();
    let mut steps = vec![
        table("offers_of", "collect", offers, offered, list.clone()),
        table(
            "fees_of",
            "rule_order",
            fees,
            vec![
                (cmp(CmpOp::Ge, read(a), 30), read(a)),
                (cmp(CmpOp::Ge, read(b), 30), arith(Arith::Mul, read(b), Expr::int(2))),
                (cmp(CmpOp::Lt, read(c), 10), Expr::int(5)),
            ],
            list,
        ),
        table(
            "count_of",
            "collect count",
            count,
            counted,
            Some(Collect { fold: Fold::Count, empty: Expr::int(0), seen: None }),
        ),
    ];
    for (slot, s) in steps.iter_mut().enumerate() {
        let Step::Table(t) = s else { unreachable!("three tables") };
        t.slot = slot;
    }
    p.plan.steps = steps;
    p.plan
}

/// The calls: a grid over the three inputs where the rows change, and calls the door refuses.
fn calls() -> Vec<String> {
    let at = [0, 9, 10, 14, 15, 19, 20, 29, 30, 49, 50, 51, 100];
    let mut out = Vec::new();
    for a in at {
        for b in at {
            for c in at {
                out.push(json!({"in": {"a": a, "b": b, "c": c}}).to_string());
            }
        }
    }
    out.push(json!({"in": {"a": 101, "b": 0, "c": 0}}).to_string());
    out.push(json!({"in": {"a": 0, "b": "1", "c": 0}}).to_string());
    out.push(json!({"in": {"a": 0, "b": 1}}).to_string());
    out.push(json!({"in": {"a": 0, "b": 1, "c": 2, "d": 3}}).to_string());
    out
}

/// `plan` generated in every function-shaped language into `dir` beside its vectors and the
/// plan interpreter's answer to each, then run through `rulec test`'s harness.
fn holds_in_every_language(plan: Plan, dir: &Path) {
    holds_in_every_language_of(BASE, plan, dir, "\"total\":0,", &LANGS);
}

/// [`holds_in_every_language`] over the rule `rule` whose plan `plan` rewrites; `settled` is
/// text of a record line the rule's own table writes and the statements change; `langs` the
/// languages generated and run.
fn holds_in_every_language_of(rule: &str, plan: Plan, dir: &Path, settled: &str, langs: &[Lang]) {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, "basket.rule", rule, &Default::default());
    let mut unit = rulec::gen::Unit::of(&checked, &sources).expect("the base rule checks clean");
    unit.plan = plan;
    let calls = calls();
    let expected: Vec<String> = calls.iter().map(|c| interp::line(&unit.plan, c)).collect();
    // The statements change what the rule answers: the interpreter runs them, not the base rule's table.
    assert!(expected.iter().any(|l| !l.contains(settled)), "{}", expected[100]);
    std::fs::create_dir_all(dir.join("vectors")).unwrap();
    std::fs::write(dir.join("vectors/basket.jsonl"), calls.join("\n") + "\n").unwrap();
    std::fs::write(dir.join("vectors/basket.expected.jsonl"), expected.join("\n") + "\n").unwrap();
    for &lang in langs {
        let folder = dir.join(lang.name());
        std::fs::create_dir_all(&folder).unwrap();
        for f in rulec::gen::backend(lang).generate(&unit) {
            let path = folder.join(&f.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, f.text).unwrap();
        }
    }
    let opts = Options { langs: langs.to_vec(), require_all: false, jobs: 0 };
    let report = harness::run(dir, &opts).expect("the harness runs");
    for r in &report.results {
        assert!(r.ok, "{} ({}): {:?} {:?}", r.lang.name(), r.via, r.error, r.first_diff);
        assert_eq!(r.vectors, calls.len(), "{}", r.lang.name());
    }
    let ran: Vec<Lang> = report.results.iter().map(|r| r.lang).collect();
    for s in &report.skipped {
        // A toolchain this machine lacks is said, and under CI only Swift may lack one.
        eprintln!("{} not run: {}", s.lang.name(), s.reason);
        assert!(std::env::var("CI").is_err() || s.lang == Lang::Swift, "{} not run: {}", s.lang.name(), s.reason);
    }
    assert!(!ran.is_empty(), "no language ran");
    // Go's printer lays the new statements out as gofmt does (a value pushed is an argument).
    if ran.contains(&Lang::Go) {
        let o = std::process::Command::new("gofmt").arg("-l").arg(dir.join("go")).output().expect("gofmt runs");
        assert!(o.status.success() && o.stdout.is_empty(), "gofmt would change {}", String::from_utf8_lossy(&o.stdout));
    }
    // Where swiftc is absent, the Swift is still held to Swift's grammar.
    if !ran.contains(&Lang::Swift) && common::have_swift_grammar() {
        let files = ["basket.swift", "basket_runner.swift"].map(|f| dir.join("swift").join(f).display().to_string());
        common::swift_parses(&files).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_walk_over_a_list_built_element_by_element_agrees_in_every_language() {
    let dir = tempfile::tempdir().unwrap();
    holds_in_every_language(walk_plan(), dir.path());
}

#[test]
fn collect_tables_fold_every_row_that_holds_alike_in_every_language() {
    let dir = tempfile::tempdir().unwrap();
    holds_in_every_language(collect_plan(), dir.path());
}

#[test]
fn calls_of_another_rule_agree_in_every_language() {
    let plan = call_plan();
    // Both callees' contradictions reach the caller under their prefixed names.
    let refused = |call: serde_json::Value| interp::line(&plan, &call.to_string());
    assert!(
        refused(json!({"a": 100, "b": 0, "c": 0})).contains("small:band"),
        "{}",
        refused(json!({"a": 100, "b": 0, "c": 0}))
    );
    assert!(refused(json!({"a": 0, "b": 50, "c": 50})).contains("big:band"));
    let dir = tempfile::tempdir().unwrap();
    holds_in_every_language(plan, dir.path());
}

#[test]
fn list_outputs_cross_the_boundary_alike_in_every_language() {
    let plan = list_output_plan();
    let line = |a: i64, b: i64, c: i64| interp::line(&plan, &json!({"a": a, "b": b, "c": c}).to_string());
    // The record writes a list as a JSON array of its elements' wire values, `[]` when empty.
    assert!(line(50, 20, 0).contains(r#""observed":{"offers":["gold","silver","gold"],"fees":[50,5],"count":3}"#));
    assert!(line(0, 0, 10).contains(r#""observed":{"offers":[],"fees":[],"count":0}"#), "{}", line(0, 0, 10));
    let dir = tempfile::tempdir().unwrap();
    // Wasm too: the Rust module built as one, answering through the same wire door.
    let langs = [&LANGS[..], &[Lang::Wasm]].concat();
    holds_in_every_language_of(LISTS, plan, dir.path(), "\"offers\":[\"gold\"]", &langs);
}

#[test]
fn numpy_refuses_a_list_output_by_name() {
    let plan = list_output_plan();
    let numpy = rulec::gen::backend(Lang::Numpy).refuses(&plan).expect("NumPy refuses a list output");
    assert_eq!(numpy, "basket: NumPy cannot decide the output offers: a list output is not a column");
    // A rule whose outputs are values is refused by neither; a list of members and numbers is
    // SQL's JSON text (tests/multi_hit.rs holds it to the reference), and every function's.
    assert!([Lang::Sql, Lang::Numpy].iter().all(|&l| rulec::gen::backend(l).refuses(&base().plan).is_none()));
    assert!(LANGS.iter().chain(&[Lang::Sql]).all(|&l| rulec::gen::backend(l).refuses(&plan).is_none()));
}
