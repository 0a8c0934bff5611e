//! `rulec graph` over the corpus and the rules of tests/walks: every edge is a read the
//! reference evaluator makes. The
//! reads are derived here a second time, straight from the typed IR (a walk of its own, not
//! the library's), and held to the edges both ways; and for every table, the values the
//! edges lead back from it are exactly what the evaluator computes before that table
//! (`eval::needed_vars`). An edge is a `walk` exactly when it crosses the element frame, and
//! a summary's range only the caller keeps (W122) is a precondition. A rule with a gap, or an overlap, still gets its graph; one whose
//! names and types do not resolve gets none.

mod common;
use common::at_root as rulec;

use rulec::sema::{Decider, Program, TExpr, TExprKind, VarId, VarKind};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::Path;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut rules: Vec<String> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .map(|p| format!("tests/corpus/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    rules.sort();
    assert!(rules.len() >= 9, "the corpus is there");
    let walks = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walks");
    let mut walk_rules: Vec<String> = std::fs::read_dir(&walks)
        .expect("the walk rules")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .map(|p| format!("tests/walks/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    walk_rules.sort();
    assert!(walk_rules.len() >= 5, "the walk rules are there");
    rules.extend(walk_rules);
    rules
}

fn checked(rule: &str) -> rulec::Checked {
    let mut sources = rulec::Sources::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rule);
    rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default()).unwrap()
}

fn program(rule: &str) -> Program {
    checked(rule).program.unwrap()
}

fn graph(rule: &str) -> Json {
    let o = rulec(&["graph", rule]);
    assert!(o.status.success(), "rulec graph {rule}: {}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 1, "one object, one line");
    serde_json::from_str(&out).unwrap()
}

/// The variables an expression reads, by a walk of the IR of this test's own.
fn names_in(e: &TExpr, out: &mut BTreeSet<VarId>) {
    match &e.kind {
        TExprKind::Const(_) => {}
        TExprKind::Var(v) => {
            out.insert(*v);
        }
        TExprKind::In { var, .. } => {
            out.insert(*var);
        }
        TExprKind::Neg(x) | TExprKind::Not(x) | TExprKind::Isqrt(x) | TExprKind::Round { value: x, .. } => {
            names_in(x, out)
        }
        TExprKind::Arith(_, a, b)
        | TExprKind::Cmp(_, a, b)
        | TExprKind::And(a, b)
        | TExprKind::Or(a, b)
        | TExprKind::Mod(a, b) => {
            names_in(a, out);
            names_in(b, out);
        }
        TExprKind::Min(xs) | TExprKind::Max(xs) => xs.iter().for_each(|x| names_in(x, out)),
        TExprKind::If { cond, then, els } => {
            names_in(cond, out);
            names_in(then, out);
            names_in(els, out);
        }
    }
}

/// (from, to, via) of every read: a table reads its condition columns and the names in a
/// result's cells while it decides that result; a define reads the names of its expression;
/// a summary its per-element value, its `where` and its empty answer, a fold its value, its
/// verdict and its empty answer (neither names a `via`).
fn reads_from_ir(p: &Program) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    let name = |v: VarId| p.vars[v].name.clone();
    for t in &p.tables {
        for (i, &r) in t.results.iter().enumerate() {
            let mut read: BTreeSet<VarId> = t.conds.iter().copied().collect();
            for row in &t.rows {
                if let Some(e) = &row.results[i] {
                    names_in(e, &mut read);
                }
            }
            for v in read {
                out.insert((name(v), name(r), t.name.clone()));
            }
        }
    }
    for d in &p.defines {
        let mut read = BTreeSet::new();
        names_in(&d.expr, &mut read);
        for v in read {
            out.insert((name(v), name(d.var), name(d.var)));
        }
    }
    for s in &p.summaries {
        let mut read: BTreeSet<VarId> = s.of.into_iter().collect();
        s.filter.iter().chain(&s.empty).for_each(|e| names_in(e, &mut read));
        for v in read {
            out.insert((name(v), name(s.var), String::new()));
        }
    }
    for f in &p.folds {
        let mut read: BTreeSet<VarId> = [f.value, f.verdict].into();
        names_in(&f.empty, &mut read);
        for v in read {
            out.insert((name(v), name(f.into), String::new()));
        }
    }
    out
}

#[test]
fn every_edge_is_a_read_the_evaluator_makes() {
    for rule in corpus() {
        let p = program(&rule);
        let g = graph(&rule);
        let edges: BTreeSet<(String, String, String)> = g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let from = p.var_by_name(e["from"].as_str().unwrap()).unwrap();
                let to = p.var_by_name(e["to"].as_str().unwrap()).unwrap();
                let crosses = p.vars[from].frame.is_some() && p.vars[to].frame.is_none();
                assert_eq!(e["kind"], if crosses { "walk" } else { "reads" }, "{rule}: {e}");
                (
                    e["from"].as_str().unwrap().into(),
                    e["to"].as_str().unwrap().into(),
                    e["via"].as_str().unwrap_or_default().into(),
                )
            })
            .collect();
        assert_eq!(g["edges"].as_array().unwrap().len(), edges.len(), "{rule}: no edge twice");
        assert_eq!(edges, reads_from_ir(&p), "{rule}: the edges are the reads of the IR");
        // Leading back from a table along the edges reaches exactly what the evaluator
        // computes before it.
        for (t, table) in p.tables.iter().enumerate() {
            let mut reached: BTreeSet<String> = BTreeSet::new();
            let mut todo: Vec<String> = table.results.iter().map(|&r| p.vars[r].name.clone()).collect();
            while let Some(v) = todo.pop() {
                // The evaluator has a summary's or a fold's answer from its walk, before the table.
                let walked = matches!(
                    p.vars[p.var_by_name(&v).unwrap()].decided_by,
                    Some(Decider::Summary(_) | Decider::Fold(_))
                );
                for (from, to, _) in &edges {
                    if to == &v && !walked && reached.insert(from.clone()) {
                        todo.push(from.clone());
                    }
                }
            }
            let needed: BTreeSet<String> = rulec::eval::needed_vars(&p, t)
                .iter()
                .enumerate()
                .filter(|(_, n)| **n)
                .map(|(v, _)| p.vars[v].name.clone())
                .collect();
            assert_eq!(reached, needed, "{rule}: table {} reads what the evaluator computes for it", table.name);
        }
    }
}

#[test]
fn the_nodes_are_the_values_with_their_deciders() {
    for rule in corpus() {
        let c = checked(&rule);
        let p = c.program.as_ref().unwrap();
        let g = graph(&rule);
        let nodes = g["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), p.vars.len() + p.sequences.len(), "{rule}: one node per value and per sequence");
        for n in nodes {
            let name = n["name"].as_str().unwrap();
            if n["kind"] == "sequence" {
                assert!(p.sequences.iter().any(|s| s.name == name), "{rule}: {n}");
                continue;
            }
            let v = p.var_by_name(name).expect("a value of the rule");
            let var = &p.vars[v];
            let kind = match var.kind {
                VarKind::Input => "input",
                VarKind::Element => "element",
                _ => "value",
            };
            assert_eq!(n["kind"], kind, "{rule}: {n}");
            if let Some(s) = var.frame.filter(|_| var.kind == VarKind::Element) {
                assert_eq!(n["of"], p.sequences[s].name.as_str(), "{rule}: {n}");
            }
            assert_eq!(n.get("output").is_some(), var.kind == VarKind::Output, "{rule}: {n}");
            assert_eq!(n["type"], rulec::sema::ty_name(&var.ty, &p.enums), "{rule}: {n}");
            assert_eq!(n.get("range").is_some(), var.range.is_some(), "{rule}: {n}");
            let by = &n["by"];
            match var.decided_by {
                None => assert!(by.is_null(), "{rule}: an input has no decider: {n}"),
                Some(Decider::Table(t)) => {
                    assert_eq!(by[0]["kind"], "table");
                    assert_eq!(by[0]["name"], p.tables[t].name.as_str());
                    assert_eq!(by[0]["rows"], p.tables[t].rows.len());
                    assert!(n.get("expr").is_none(), "the table is the expression");
                }
                Some(Decider::Summary(s)) => {
                    let s = &p.summaries[s];
                    assert_eq!(by[0]["kind"], s.op.as_str(), "{rule}: {n}");
                    assert_eq!(by[0]["over"], p.sequences[s.seq].name.as_str(), "{rule}: {n}");
                    assert_eq!(by[0]["of"].as_str(), s.of.map(|v| p.vars[v].name.as_str()), "{rule}: {n}");
                }
                Some(Decider::Fold(f)) => {
                    let f = &p.folds[f];
                    assert_eq!(by[0]["kind"], f.kind.as_str(), "{rule}: {n}");
                    assert_eq!(by[0]["over"], p.sequences[f.seq].name.as_str(), "{rule}: {n}");
                    assert_eq!(by[0]["of"], p.vars[f.value].name.as_str(), "{rule}: {n}");
                    assert_eq!(by[0]["by"], p.vars[f.verdict].name.as_str(), "{rule}: {n}");
                }
                Some(Decider::Define(_)) => {
                    assert_eq!(by[0]["kind"], "define");
                    assert!(n["expr"].as_str().is_some_and(|e| !e.is_empty()), "{rule}: {n}");
                }
            }
        }
        assert_eq!(g["carry"], Json::Null);
        // A constraint each, and a summary each whose declared range only the caller keeps.
        let w122 = c.diagnostics.iter().filter(|d| d.code == "W122").count();
        assert_eq!(g["preconditions"].as_array().unwrap().len(), p.constraints.len() + w122, "{rule}");
        assert_eq!(g["rule"], p.name.as_str());
    }
}

#[test]
fn a_summary_only_the_caller_keeps_within_its_range_is_a_precondition() {
    let g = graph("tests/walks/caller_keeps.rule");
    assert_eq!(
        g["preconditions"],
        serde_json::json!([{"kind": "sum", "name": "total", "over": "lines", "of": "amount", "max": 1000000}])
    );
    // One the analysis proves is none.
    assert_eq!(graph("tests/walks/cart_shipping_fee.rule")["preconditions"], serde_json::json!([]));
}

#[test]
fn cart_shipping_fee_graph() {
    insta::assert_snapshot!(text(&rulec(&["graph", "tests/walks/cart_shipping_fee.rule"]).stdout));
}

#[test]
fn parcel_rate_graph() {
    insta::assert_snapshot!(text(&rulec(&["graph", "tests/corpus/parcel_rate.rule"]).stdout));
}

#[test]
fn a_rule_with_a_gap_still_gets_its_graph() {
    for (rule, code) in [("tests/corpus/broken/gap.rule", "E101"), ("tests/corpus/broken/overlap.rule", "E102")] {
        let check = rulec(&["check", rule]);
        assert_eq!(check.status.code(), Some(1), "{rule} does not check clean");
        assert!(text(&check.stderr).contains(code));
        let o = rulec(&["graph", rule]);
        assert!(o.status.success(), "{rule}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains(code), "it says why the rule is not clean");
        let g: Json = serde_json::from_slice(&o.stdout).unwrap();
        assert!(!g["edges"].as_array().unwrap().is_empty(), "{rule}: its edges");
        let p = program(rule);
        let edges: BTreeSet<(String, String, String)> = g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["from"].as_str().unwrap().into(),
                    e["to"].as_str().unwrap().into(),
                    e["via"].as_str().unwrap().into(),
                )
            })
            .collect();
        assert_eq!(edges, reads_from_ir(&p), "{rule}: the same edges a clean table would have");
    }
}

#[test]
fn a_rule_whose_names_do_not_resolve_gets_none() {
    let o = rulec(&["graph", "tests/corpus/broken/cycle.rule"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "no graph");
    assert!(text(&o.stderr).contains("E110"), "the diagnostics say why: {}", text(&o.stderr));
}
