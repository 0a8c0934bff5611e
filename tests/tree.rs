//! The statement tree (src/gen/tree): every corpus rule's tree as text, held by snapshots;
//! the forms a table takes in each kind of language; and the statements no syntax reaches
//! yet — a list built element by element, a loop with accumulators and an early stop, an
//! accumulation over every matching row, a call of another rule — built through the tree's
//! own constructors and run. (The tree run as a rule's steps is held to the reference
//! evaluator on every vector by tests/door.rs, since the plan's interpreter runs it.)

mod common;

use rulec::gen::plan::{Arith, Expr, Node, Plan, Row, Step, TablePlan, VarPlan};
use rulec::gen::tree::value::V;
use rulec::gen::tree::{self, run, show, Accumulate, Call, Facts, Fold, Loop, Shape, Stmt};
use rulec::lang::Lang;
use rulec::syntax::ast::CmpOp;
use std::path::Path;

fn plan_of(path: &Path) -> Plan {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, path, &Default::default()).unwrap();
    rulec::gen::Unit::of(&checked, &sources).expect("a clean rule").plan
}

const SMALL: &str = "rule basket v1
about \"The rule whose plan the tree tests extend.\"

input weight: int 0..100
output points: int 0..1000

table points_of -> points
| weight | points |
|--------|--------|
| <=50   | 1      |
| >50    | 2      |

expect weight=1 -> points=1
";

fn small_plan() -> Plan {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, "basket.rule", SMALL, &Default::default());
    rulec::gen::Unit::of(&checked, &sources).expect("the small rule checks clean").plan
}

/// A variable added to `plan` beside its own (a number, like its output).
fn var(plan: &mut Plan, name: &str) -> usize {
    let mut v: VarPlan = plan.var(plan.outputs[0]).clone();
    v.name = name.to_string();
    v.base = name.to_string();
    plan.vars.push(v);
    plan.vars.len() - 1
}

fn read(v: usize) -> Expr {
    Expr::num(Node::Var(v))
}

fn arith(op: Arith, a: Expr, b: Expr) -> Expr {
    Expr::num(Node::Arith(op, Box::new(a), Box::new(b)))
}

#[test]
fn every_corpus_rule_lowers_to_the_tree_of_its_snapshot() {
    for path in common::rules() {
        let plan = plan_of(&path);
        // Python's guard checks every class; the plain facts write every table as a chain.
        let text = show::show(&plan, &tree::lower(&plan, Lang::Python, &Facts::PLAIN));
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("tree_{name}"), text);
    }
}

#[test]
fn a_table_takes_the_form_its_language_writes() {
    let match_lang = Facts { native_match: true, ..Facts::PLAIN };
    let switch_lang = Facts { switch: true, ..Facts::PLAIN };
    let functions = Facts { table_functions: true, ..Facts::PLAIN };
    let settles = Facts { else_when_true: true, ..Facts::PLAIN };
    let (mut matches, mut decisions, mut settled, mut own) = (0, 0, 0, 0);
    for path in common::rules() {
        let plan = plan_of(&path);
        for t in plan.tables() {
            let m = tree::form(t, &match_lang).shape;
            let s = tree::form(t, &switch_lang).shape;
            // A match needs a match shape whose every cell takes some value; a decision needs one.
            let matchable = t
                .shape
                .as_ref()
                .is_some_and(|s| !s.patterns.iter().flatten().any(|c| c.as_ref().is_some_and(Vec::is_empty)));
            assert_eq!(m == Shape::Match, matchable, "{}: {}", path.display(), t.name);
            assert_eq!(s == Shape::Decision, t.decision.is_some(), "{}: {}", path.display(), t.name);
            matches += usize::from(m == Shape::Match);
            decisions += usize::from(s == Shape::Decision);
            // A chain is settled by a last row that takes every call, where the language writes `else`.
            let last_true = t.rows.len() > 1 && t.rows.last().unwrap().cond.node == Node::Bool(true);
            let chain = tree::form(t, &settles).shape;
            if t.decision.is_none() || !matchable {
                assert_eq!(chain, Shape::Chain { settled: last_true }, "{}: {}", path.display(), t.name);
            }
            assert_eq!(tree::form(t, &Facts::PLAIN).shape, Shape::Chain { settled: false });
            settled += usize::from(chain == Shape::Chain { settled: true });
            let f = tree::form(t, &functions);
            assert_eq!(f.own_function, t.results.len() == 1);
            own += usize::from(f.own_function);
        }
    }
    // The corpus reaches every form.
    assert!(matches > 0 && decisions > 0 && settled > 0 && own > 0, "{matches} {decisions} {settled} {own}");
}

#[test]
fn a_loop_carries_its_accumulators_over_each_element_and_stops_early() {
    let mut plan = small_plan();
    let [prices, price, total, count] = ["prices", "price", "total", "count"].map(|n| var(&mut plan, n));
    let walk = Stmt::Loop(Loop {
        list: prices,
        element: price,
        accumulators: vec![(total, Expr::int(0)), (count, Expr::int(0))],
        body: vec![
            Stmt::Assign { var: total, value: arith(Arith::Add, read(total), read(price)) },
            Stmt::Assign { var: count, value: arith(Arith::Add, read(count), Expr::int(1)) },
        ],
        stop: Some(Expr::cmp(CmpOp::Gt, read(total), Expr::int(100))),
    });
    let text = show::show(&plan, std::slice::from_ref(&walk));
    assert_eq!(
        text,
        "for price in prices:\n  carry total from 0\n  carry count from 0\n  total = (+ total price)\n  count = (+ count 1)\n  stop when (> total 100)\n"
    );
    // The elements, then the total and the count the loop ends with.
    type Case = (&'static [i64], i64, i64);
    let cases: [Case; 5] =
        [(&[], 0, 0), (&[10], 10, 1), (&[10, 93, 1], 103, 2), (&[10, 90, 1, 4], 101, 3), (&[1, 4, 9], 14, 3)];
    for (elements, want_total, want_count) in cases {
        let mut vals = vec![V::Absent; plan.vars.len()];
        vals[prices] = V::List(elements.iter().map(|&p| V::Int(p)).collect());
        run::stmts(&plan, std::slice::from_ref(&walk), &mut vals, &mut run::Trace::default()).unwrap();
        assert_eq!(
            (vals[total].clone(), vals[count].clone()),
            (V::Int(want_total), V::Int(want_count)),
            "{elements:?}"
        );
    }
}

#[test]
fn a_list_is_built_element_by_element() {
    let mut plan = small_plan();
    let [xs, doubled, x] = ["xs", "doubled", "x"].map(|n| var(&mut plan, n));
    let stmts = vec![
        Stmt::List { var: doubled },
        Stmt::Loop(Loop {
            list: xs,
            element: x,
            accumulators: vec![],
            body: vec![Stmt::Push { list: doubled, value: arith(Arith::Mul, read(x), Expr::int(2)) }],
            stop: None,
        }),
    ];
    let mut vals = vec![V::Absent; plan.vars.len()];
    vals[xs] = V::List([3, -1, 7].map(V::Int).to_vec());
    run::stmts(&plan, &stmts, &mut vals, &mut run::Trace::default()).unwrap();
    assert_eq!(vals[doubled], V::List([6, -2, 14].map(V::Int).to_vec()));
    let text = show::show(&plan, &stmts);
    assert!(text.starts_with("list doubled\n") && text.contains("  push (* x 2) onto doubled\n"), "{text}");
}

/// A table whose rows may match together (DMN's collect policies): a point per rule met.
fn collect_table(plan: &mut Plan, into: usize) -> usize {
    let weight = plan.inputs[0];
    let row = |n: usize, op: CmpOp, at: i64, points: i64| Row {
        n,
        cond: Expr::cmp(op, read(weight), Expr::int(at)),
        assigns: vec![(into, Expr::int(points))],
        cells: format!("{} {at} | {points}", op.as_str()),
    };
    let table = TablePlan {
        name: "points_by_rule".into(),
        policy: "collect",
        slot: 1,
        results: vec![into],
        rows: vec![row(1, CmpOp::Ge, 10, 5), row(2, CmpOp::Ge, 20, 7), row(3, CmpOp::Lt, 15, 1)],
        guards: vec![],
        no_row: String::new(),
        shape: None,
        decision: None,
        collect: None,
    };
    plan.steps.push(Step::Table(table));
    plan.steps.len() - 1
}

#[test]
fn an_accumulation_folds_every_matching_row() {
    let mut plan = small_plan();
    let weight = plan.inputs[0];
    let [into, seen] = ["score", "seen"].map(|n| var(&mut plan, n));
    let step = collect_table(&mut plan, into);
    // weight → the values of rows 1 (>=10: 5), 2 (>=20: 7), 3 (<15: 1) that match, in order.
    let matching = |w: i64| -> Vec<i64> {
        [(w >= 10, 5), (w >= 20, 7), (w < 15, 1)].iter().filter(|(m, _)| *m).map(|&(_, p)| p).collect()
    };
    for fold in [Fold::Sum, Fold::Min, Fold::Max, Fold::Count, Fold::List] {
        let seen = matches!(fold, Fold::Sum | Fold::Min | Fold::Max).then_some(seen);
        let acc = Stmt::Accumulate(Accumulate { step, into, fold, empty: Expr::int(-1), seen });
        for w in [0, 10, 14, 15, 19, 20, 100] {
            let mut vals = vec![V::Absent; plan.vars.len()];
            vals[weight] = V::Int(w);
            let mut trace = run::Trace::default();
            run::stmts(&plan, std::slice::from_ref(&acc), &mut vals, &mut trace).unwrap();
            let got = matching(w);
            let want = match fold {
                _ if got.is_empty() && matches!(fold, Fold::Sum | Fold::Min | Fold::Max) => V::Int(-1),
                Fold::Sum => V::Int(got.iter().sum()),
                Fold::Min => V::Int(*got.iter().min().unwrap()),
                Fold::Max => V::Int(*got.iter().max().unwrap()),
                Fold::Count => V::Int(got.len() as i64),
                Fold::List => V::List(got.iter().map(|&p| V::Int(p)).collect()),
            };
            assert_eq!(vals[into], want, "{fold:?} at weight {w}");
            // Every row that matched is in the trace, in the rows' order.
            assert_eq!(trace.fired.len(), got.len(), "{fold:?} at weight {w}");
        }
    }
    let sum = Stmt::Accumulate(Accumulate { step, into, fold: Fold::Sum, empty: Expr::int(0), seen: Some(seen) });
    assert_eq!(show::show(&plan, &[sum]), "score = sum over the matching rows of points_by_rule, else 0\n");
}

#[test]
fn a_call_binds_the_callees_inputs_runs_its_steps_reads_its_outputs_and_passes_on_its_refusal() {
    let mut plan = small_plan();
    let weight = plan.inputs[0];
    let [w, band, fee, total] = ["ship_w", "ship_band", "ship_fee", "total"].map(|n| var(&mut plan, n));
    let rows = vec![(50, 1), (80, 2)]
        .into_iter()
        .enumerate()
        .map(|(i, (below, stored))| Row {
            n: i + 1,
            cond: Expr::cmp(CmpOp::Le, read(w), Expr::int(below)),
            assigns: vec![(band, Expr::int(stored))],
            cells: String::new(),
        })
        .collect();
    let no_row = "no row of table ship:band matched".to_string();
    let band_of = TablePlan {
        name: "ship:band".into(),
        policy: "first",
        slot: 1,
        results: vec![band],
        rows,
        guards: vec![],
        no_row: no_row.clone(),
        shape: None,
        decision: None,
        collect: None,
    };
    let n = plan.steps.len();
    plan.steps.push(Step::Table(band_of));
    plan.steps.push(Step::Define { var: fee, value: arith(Arith::Mul, read(band), read(w)) });
    let call = Stmt::Call(Call {
        rule: "shipping_fee".into(),
        args: vec![(w, arith(Arith::Add, read(weight), Expr::int(1)))],
        body: vec![
            Stmt::Table { step: n, form: tree::form(tree::table(&plan, n), &Facts::PLAIN) },
            Stmt::Define { step: n + 1 },
        ],
        results: vec![(total, arith(Arith::Add, read(fee), Expr::int(10)))],
    });
    let mut vals = vec![V::Absent; plan.vars.len()];
    vals[weight] = V::Int(60);
    let mut trace = run::Trace::default();
    run::stmts(&plan, std::slice::from_ref(&call), &mut vals, &mut trace).unwrap();
    assert_eq!((vals[w].clone(), vals[band].clone(), vals[total].clone()), (V::Int(61), V::Int(2), V::Int(132)));
    assert_eq!(trace.fired, vec![("ship:band".to_string(), 2)]);
    // A weight no row of the callee's table takes is its contradiction, and so the caller's.
    vals[weight] = V::Int(90);
    let err = run::stmts(&plan, std::slice::from_ref(&call), &mut vals, &mut run::Trace::default()).unwrap_err();
    assert_eq!((err.kind, err.what.as_str()), ("contradiction", no_row.as_str()));
    assert_eq!(
        show::show(&plan, &[call]),
        "call shipping_fee:\n  bind ship_w = (+ weight 1)\n  table ship:band (policy first) as chain\n    row 1 when (<= ship_w 50): ship_band = 1\n    row 2 when (<= ship_w 80): ship_band = 2\n    no row: refuse \"no row of table ship:band matched\"\n  define ship_fee = (* ship_band ship_w)\n  read total = (+ ship_fee 10)\n"
    );
    // Lowered from the plan, the callee's steps sit inside the call and nowhere else.
    plan.steps.insert(
        n,
        Step::Call(rulec::gen::plan::CallPlan {
            rule: "shipping_fee".into(),
            args: vec![(w, read(weight))],
            body: vec![n + 1, n + 2],
            results: vec![(total, read(fee))],
        }),
    );
    let body = tree::body(&plan, &Facts::PLAIN);
    let calls: Vec<&Call> = body.iter().filter_map(|s| if let Stmt::Call(c) = s { Some(c) } else { None }).collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].body.len(), 2);
    assert!(!body.iter().any(|s| matches!(s, Stmt::Define { step } if *step == n + 2)));
}

#[test]
fn a_rules_own_steps_run_through_the_tree_as_the_reference_runs_them() {
    let plan = small_plan();
    let body = tree::body(&plan, &Facts::PLAIN);
    for (w, points) in [(0, 1), (50, 1), (51, 2), (100, 2)] {
        let mut vals = vec![V::Absent; plan.vars.len()];
        vals[plan.inputs[0]] = V::Int(w);
        let mut trace = run::Trace::default();
        run::stmts(&plan, &body, &mut vals, &mut trace).unwrap();
        assert_eq!(vals[plan.outputs[0]], V::Int(points));
        assert_eq!(trace.fired, vec![("points_of".to_string(), points as usize)]);
    }
}
