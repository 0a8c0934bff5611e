//! The NumPy target (generated-code.md, NumPy): not generated code but the rule as data. The
//! plan is written as `<alias>.plan.json` — every column with its kind, unit and scale, the
//! door's checks with their sentences, the steps as ordered conditions and the values they
//! store, the W114 pairs by row — and one fixed evaluator, `runtime/rulec_np.py`, decides
//! whole int64 columns at once from it. This backend only spells the plan as JSON.

use super::naming::Names;
use super::plan::{Arith, BoundaryTy, Expr, Fold, Kind, Node, Plan, Step};
use super::{Backend, File, Lang, Runner, Unit};
use crate::eval::wire::WireKind;
use crate::syntax::ast::CmpOp;
use serde_json::{json, Value as Json};

const EVALUATOR: &str = include_str!("runtime/rulec_np.py");
const RUNNER: &str = include_str!("runtime/runner.py");
const BATCH: &str = include_str!("runtime/rulec_batch.py");

pub struct Numpy;

impl Backend for Numpy {
    fn lang(&self) -> Lang {
        Lang::Numpy
    }

    /// The evaluator decides whole columns, one value per call and output.
    fn refuses(&self, plan: &Plan) -> Option<String> {
        if !plan.sequences.is_empty() {
            return Some(super::walks_not_written(plan, Lang::Numpy));
        }
        let v = plan.list_output()?;
        Some(format!("{}: NumPy cannot decide the output {}: a list output is not a column", plan.rule.name, v.name))
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let plan = &u.plan;
        let mut text = serde_json::to_string_pretty(&plan_json(plan)).expect("a plan serializes");
        text.push('\n');
        vec![
            File { path: format!("{}.plan.json", plan.rule.base), text },
            File { path: "rulec_np.py".into(), text: super::python::shared::copy(EVALUATOR) },
            File { path: "rulec_np_runner.py".into(), text: super::python::shared::copy(RUNNER) },
            File { path: "rulec_batch.py".into(), text: BATCH.into() },
        ]
    }

    fn runner(&self, base: &str) -> Runner {
        let run = if base == "_helpers" {
            vec!["python3".into(), "-B".into(), "rulec_np_runner.py".into(), "--helpers".into()]
        } else {
            vec!["python3".into(), "-B".into(), "rulec_np_runner.py".into(), format!("{base}.plan.json")]
        };
        Runner { needs: vec!["python3"], build: vec![vec!["python3".into(), "-c".into(), "import numpy".into()]], run }
    }

    fn api(&self, u: &Unit) -> Json {
        let (plan, names): (&Plan, Names) = (&u.plan, u.names(Lang::Numpy));
        let spell = super::api::Spelling {
            names: &names,
            ty: &|v| kind_name(plan, v).to_string(),
            member: super::api::Member::Declared,
        };
        json!({
            "plan": format!("{}.plan.json", plan.rule.base),
            "runtime": "rulec_np.py",
            "load": "rulec_np.load",
            "call": "Plan.call",
            "traced": "Plan.traced",
            "columns": spell.params(plan),
            "outputs": spell.outputs(plan),
            "enums": spell.enums(plan),
            "errors": [
                {"name": "RuleInputError", "fields": ["what", "value", "row"]},
                {"name": "RuleContradictionError", "fields": ["what", "row"]},
            ],
            "error_types": {
                "input": {"name": "RuleInputError", "fields": ["what", "value", "row"]},
                "contradiction": {"name": "RuleContradictionError", "fields": ["what", "row"]},
            },
            "needs": ["numpy"],
        })
    }
}

fn kind_name(plan: &Plan, v: usize) -> &'static str {
    match plan.var(v).ty {
        BoundaryTy::Bool => "bool",
        BoundaryTy::Str => "str",
        BoundaryTy::Date => "date",
        BoundaryTy::Enum(_) => "enum",
        BoundaryTy::Int | BoundaryTy::Unit(_) => "int64",
    }
}

fn kind(k: Kind, plan: &Plan) -> Json {
    match k {
        Kind::Num => json!("int"),
        Kind::Bool => json!("bool"),
        Kind::Str => json!("str"),
        Kind::Enum(e) => json!({"enum": plan.enums[e].name}),
    }
}

fn wire_kind(k: WireKind, plan: &Plan) -> Json {
    match k {
        WireKind::Integer => json!("integer"),
        WireKind::Boolean => json!("boolean"),
        WireKind::Text => json!("text"),
        WireKind::Date => json!("date"),
        WireKind::Enum(e) => json!({"enum": plan.enums[e].name}),
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    }
}

/// How a collect table folds the values of the rows that hold.
fn fold(f: Fold) -> &'static str {
    match f {
        Fold::Sum => "sum",
        Fold::Min => "min",
        Fold::Max => "max",
        Fold::Count => "count",
        Fold::List => unreachable!("NumPy refuses a list output"),
    }
}

/// One expression as the evaluator reads it: `{"op": …, "args": […]}`, leaves as values.
fn expr(plan: &Plan, e: &Expr) -> Json {
    let args = |xs: Vec<&Expr>| -> Json { Json::Array(xs.into_iter().map(|x| expr(plan, x)).collect()) };
    let name = |v: usize| plan.var(v).name.clone();
    match &e.node {
        Node::Int(n) => json!({"int": n}),
        Node::Bool(b) => json!({"bool": b}),
        Node::Str(s) => json!({"str": s}),
        Node::Member(i) => json!({"member": i}),
        Node::Field(..) => unreachable!("a rule that walks a sequence is refused for NumPy at gen"),
        Node::Absent => json!({"absent": true}),
        Node::Var(v) => json!({"var": name(*v)}),
        Node::Neg(x) => json!({"op": "neg", "args": args(vec![x])}),
        Node::Arith(op, a, b) => {
            let op = match op {
                Arith::Add => "add",
                Arith::Sub => "sub",
                Arith::Mul => "mul",
            };
            json!({"op": op, "args": args(vec![a, b])})
        }
        Node::DivExact(x, q) => json!({"op": "div_exact", "args": args(vec![x]), "by": q}),
        Node::DivRound(n, d, m) => json!({"op": "div_round", "mode": m.as_str(), "args": args(vec![n, d])}),
        Node::Min(xs) => json!({"op": "min", "args": args(xs.iter().collect())}),
        Node::Max(xs) => json!({"op": "max", "args": args(xs.iter().collect())}),
        Node::Mod(a, b) => json!({"op": "mod", "args": args(vec![a, b])}),
        Node::Isqrt(x) => json!({"op": "isqrt", "args": args(vec![x])}),
        Node::If(c, a, b) => json!({"op": "if", "args": args(vec![c, a, b])}),
        Node::Cmp(op, a, b) => json!({"op": cmp(*op), "args": args(vec![a, b])}),
        Node::And(a, b) => json!({"op": "and", "args": args(vec![a, b])}),
        Node::Or(a, b) => json!({"op": "or", "args": args(vec![a, b])}),
        Node::Not(x) => json!({"op": "not", "args": args(vec![x])}),
        Node::OneOf(x, vs) => json!({"op": "one_of", "args": args(std::iter::once(&**x).chain(vs).collect())}),
        Node::IsNone(v) => json!({"op": "is_none", "var": name(*v)}),
        Node::Present(v, t) => json!({"op": "present", "var": name(*v), "args": args(vec![t])}),
    }
}

/// A table of enum and boolean cells as patterns over the columns' places (false 0, true 1):
/// the evaluator looks each combination's first row up instead of testing every row.
fn match_json(plan: &Plan, m: &super::plan::MatchShape) -> Json {
    let place = |x: &Expr| match x.node {
        Node::Member(i) => i as i64,
        Node::Bool(b) => b as i64,
        _ => unreachable!("a match pattern holds values of an enum or truth values"),
    };
    let sizes: Vec<usize> = m
        .columns
        .iter()
        .map(|&v| match plan.var(v).kind {
            Kind::Enum(e) => plan.enums[e].values.len(),
            _ => 2,
        })
        .collect();
    json!({
        "columns": m.columns.iter().map(|&v| plan.var(v).name.clone()).collect::<Vec<_>>(),
        "sizes": sizes,
        "rows": m.patterns.iter().map(|row| row.iter().map(|cell| cell.as_ref().map(|vs| vs.iter().map(place).collect::<Vec<_>>())).collect::<Vec<_>>()).collect::<Vec<_>>(),
    })
}

/// The plan as data: what `rulec_np.py` reads. Version 1 of its shape; version 2 where a
/// table folds every row that holds (its step's `collect`), which an evaluator of version 1
/// would read as a table of one row, so refuses.
pub fn plan_json(plan: &Plan) -> Json {
    let columns: Vec<Json> = plan
        .door
        .inputs
        .iter()
        .map(|d| {
            let var = plan.var(d.var);
            let unit = match var.ty {
                BoundaryTy::Unit(u) => json!(plan.units[u].symbol),
                BoundaryTy::Date => json!("day"),
                _ => Json::Null,
            };
            json!({
                "name": d.name,
                "kind": wire_kind(d.kind, plan),
                "type": var.what,
                "unit": unit,
                "optional": d.optional,
                "range": d.range.as_ref().map(|r| json!([r.lo, r.hi])),
                "missing": d.missing,
                "not_of_kind": d.not_of_kind,
                "out_of_range": d.range.as_ref().map(|r| r.sentence.clone()),
            })
        })
        .collect();
    let vars: serde_json::Map<String, Json> = plan
        .vars
        .iter()
        .map(|v| {
            (
                v.name.clone(),
                json!({"kind": kind(v.kind, plan), "optional": v.optional, "date": v.ty == BoundaryTy::Date}),
            )
        })
        .collect();
    let steps: Vec<Json> = plan
        .steps
        .iter()
        .map(|s| match s {
            Step::Define { var, value } => json!({"define": plan.var(*var).name, "value": expr(plan, value)}),
            Step::Table(t) => json!({
                "table": t.name,
                "policy": t.policy,
                "results": t.results.iter().map(|&r| plan.var(r).name.clone()).collect::<Vec<_>>(),
                "rows": t.rows.iter().map(|r| json!({
                    "n": r.n,
                    "cells": r.cells,
                    "when": expr(plan, &r.cond),
                    "set": r.assigns.iter().map(|(v, x)| json!([plan.var(*v).name, expr(plan, x)])).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "guards": t.guards.iter().map(|g| json!({"a": g.a, "b": g.b, "sentence": g.sentence})).collect::<Vec<_>>(),
                "match": t.shape.as_ref().map(|m| match_json(plan, m)),
                "collect": t.collect.as_ref().map(|c| {
                    let mut m = json!({"fold": fold(c.fold), "empty": expr(plan, &c.empty)});
                    // The flag saying a row has held, which an optional aggregate's define reads.
                    if let Some(seen) = c.seen {
                        m["held"] = json!(plan.var(seen).name);
                    }
                    m
                }),
                "no_row": t.no_row,
            }),
            Step::Assign { .. } | Step::Push { .. } | Step::Walk(_) | Step::Call(_) | Step::Refuse { .. } => {
                unreachable!("a rule that walks a sequence or calls another is refused for NumPy at gen")
            }
        })
        .collect();
    json!({
        "rulec_plan": if plan.collect_table().is_some() { 2 } else { 1 },
        "rule": plan.rule.name,
        "alias": plan.rule.base,
        "version": plan.rule.version,
        "source_sha256": plan.rule.sha256,
        "enums": plan.enums.iter().map(|e| json!({"name": e.name, "values": e.values.iter().map(|v| v.name.clone()).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "columns": columns,
        "constraints": plan.door.constraints.iter().map(|c| json!({
            "test": expr(plan, &c.test),
            "optionals": c.optionals.iter().map(|&v| plan.var(v).name.clone()).collect::<Vec<_>>(),
            "sentence": c.sentence,
        })).collect::<Vec<_>>(),
        "not_an_object": plan.door.not_an_object,
        "not_an_input": plan.door.not_an_input,
        "vars": vars,
        "steps": steps,
        "outputs": plan.outputs.iter().map(|&v| plan.var(v).name.clone()).collect::<Vec<_>>(),
    })
}
