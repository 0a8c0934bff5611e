//! The boundary suite (`rulec vectors`, `rulec coverage`). Obligations are read off the
//! rule — a case inside every row, a pair across every boundary, the shadowed rows of a
//! `first` table losing and winning, computed values moving, rounding ties — and met by a
//! deterministic search through the reference evaluator. The suite also carries the cases
//! the door must refuse, so every language is held to the same sentences.

mod search;
mod walks;

pub(crate) use search::{interesting, wire_value, Rng};

use crate::eval::{self, wire, EvalError, Outcome};
use crate::num::{self, Rat};
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use serde_json::{json, Map, Value as Json};

/// One case of the suite.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The call as it goes over the wire.
    pub input: Json,
    pub why: String,
    pub answer: Answer,
}

#[derive(Clone, Debug)]
pub enum Answer {
    Record { inputs: Vec<Value>, outcome: Outcome },
    Refused(wire::Refusal),
    Contradiction(EvalError),
}

impl Vector {
    /// The vectors line: `{"in":…,"out":…,"trace":[…],"why":…}`.
    pub fn line(&self, p: &Program) -> String {
        let mut m = Map::new();
        m.insert("in".into(), self.input.clone());
        match &self.answer {
            Answer::Record { outcome, .. } => {
                m.insert("out".into(), wire::outputs_json(p, outcome));
                let trace: Vec<Json> = outcome
                    .trace
                    .iter()
                    .map(|f| Json::String(format!("table {} row {}", p.tables[f.table].name, f.row)))
                    .collect();
                m.insert("trace".into(), Json::Array(trace));
            }
            Answer::Refused(_) => {
                m.insert("refused".into(), json!("input"));
            }
            Answer::Contradiction(_) => {
                m.insert("refused".into(), json!("contradiction"));
            }
        }
        m.insert("why".into(), Json::String(self.why.clone()));
        Json::Object(m).to_string()
    }

    /// The expected line: the fixtures record the reference evaluator writes, or the refusal.
    pub fn expected(&self, p: &Program) -> String {
        match &self.answer {
            Answer::Record { inputs, outcome } => wire::record(p, inputs, outcome, ""),
            Answer::Refused(r) => wire::refusal_line(r),
            Answer::Contradiction(e) => wire::contradiction_line(e),
        }
    }
}

/// One coverage criterion (formats.md `coverage`).
#[derive(Clone, Debug)]
pub struct Criterion {
    pub name: &'static str,
    pub satisfied: usize,
    pub total: usize,
    pub missing: Vec<(String, String)>,
}

/// A boundary pair (the `boundary_pair` criterion): two calls one input apart, `column` at
/// `below` in the first and at `above` in the second (in the column's declared unit), the
/// row firing in exactly one of them. Both calls are among the suite's vectors.
#[derive(Clone, Debug)]
pub struct Pair {
    pub table: usize,
    /// 1-based.
    pub row: usize,
    pub column: VarId,
    pub below: Rat,
    pub above: Rat,
    /// Each side: the call on the wire, the inputs as read, the reference's answer.
    pub sides: [(Json, Vec<Value>, Outcome); 2],
}

pub struct Suite {
    pub vectors: Vec<Vector>,
    pub criteria: Vec<Criterion>,
    /// The boundary pairs, in the order the criterion lists them.
    pub pairs: Vec<Pair>,
}

impl Suite {
    pub fn coverage_json(&self, file: &str) -> Json {
        // Every case the reference answers with a refusal (the door's or a contradiction): what
        // `rulec test` counts as refused on the same suite.
        let refused = self.vectors.iter().filter(|v| !matches!(v.answer, Answer::Record { .. })).count();
        let criteria: Vec<Json> = self
            .criteria
            .iter()
            .map(|c| {
                let missing: Vec<Json> = c.missing.iter().map(|(w, h)| json!({"what": w, "hint": h})).collect();
                json!({"name": c.name, "satisfied": c.satisfied, "total": c.total, "missing": missing})
            })
            .collect();
        json!({"file": file, "vectors": self.vectors.len(), "refused": refused, "criteria": criteria})
    }
}

/// Call the rule through the door, as a generated runner would.
pub fn run(p: &Program, input: &Json) -> Answer {
    match wire::read_inputs(p, input) {
        Err(r) => Answer::Refused(r),
        Ok(inputs) => match eval::evaluate(p, &inputs) {
            Ok(outcome) => Answer::Record { inputs, outcome },
            // A summary outside the range the caller keeps is refused as an input is.
            Err(e) if e.is_input() => Answer::Refused(wire::Refusal::new(e.to_string())),
            Err(e) => Answer::Contradiction(e),
        },
    }
}

/// Build the suite for a checked program.
pub fn build(p: &Program) -> Suite {
    if p.walks_sequences() {
        return walks::build(p);
    }
    let mut s = search::Search::new(p);
    let mut criteria = vec![
        s.rows(),
        s.boundary_pairs(),
        s.shadow_pairs(),
        s.value_pairs(),
        s.rounding_ties(),
        Criterion { name: "fold_transition", satisfied: 0, total: 0, missing: Vec::new() },
        Criterion { name: "machine_transition", satisfied: 0, total: 0, missing: Vec::new() },
    ];
    criteria.iter_mut().for_each(|c| c.satisfied = c.total - c.missing.len());
    let refused = refusals(p, &s);
    let (mut vectors, pairs) = s.into_vectors();
    vectors.extend(refused);
    Suite { vectors, criteria, pairs }
}

/// The cases the door refuses, one per way an input can be wrong (language.md §7).
fn refusals(p: &Program, s: &search::Search) -> Vec<Vector> {
    let Some(base) = s.first_valid() else { return Vec::new() };
    let mut out = refusals_from(p, base.clone());
    for c in &p.constraints {
        if let Some(input) = s.breaking(c) {
            let answer = run(p, &input);
            if matches!(answer, Answer::Refused(_)) {
                out.push(Vector { input, why: format!("refused: the constraint {} broken", c.text), answer });
            }
        }
    }
    let mut extra = base.as_object().unwrap().clone();
    extra.insert("not_an_input".into(), json!(1));
    let input = Json::Object(extra);
    let answer = run(p, &input);
    if matches!(answer, Answer::Refused(_)) {
        out.push(Vector { input, why: "refused: a key that is not an input".into(), answer });
    }
    out
}

/// Values of another kind than an input of type `ty` takes, each refused at the door.
fn wrong_kinds(ty: &Ty) -> Vec<Json> {
    match ty {
        Ty::Bool => vec![json!("false"), json!(0)],
        Ty::Str => vec![json!(5)],
        Ty::Date => vec![json!(20260101), json!("2026-02-30")],
        Ty::Enum(_) => vec![json!("no such value"), json!(1)],
        _ => vec![json!("1000"), json!(true), serde_json::from_str("1000.5").unwrap()],
    }
}

/// From a valid call `base`, each input missing, null, of another kind, past its range.
fn refusals_from(p: &Program, base: Json) -> Vec<Vector> {
    let mut out = Vec::new();
    let mut add = |why: String, input: Json| {
        let answer = run(p, &input);
        if matches!(answer, Answer::Refused(_)) {
            out.push(Vector { input, why, answer });
        }
    };
    let with = |name: &str, v: Option<Json>| -> Json {
        let mut m = base.as_object().unwrap().clone();
        match v {
            Some(v) => {
                m.insert(name.to_string(), v);
            }
            None => {
                m.remove(name);
            }
        }
        Json::Object(m)
    };
    for &v in &p.inputs {
        let var = &p.vars[v];
        let n = var.name.as_str();
        if !var.optional {
            add(format!("refused: {n} missing"), with(n, None));
            add(format!("refused: {n} null"), with(n, Some(Json::Null)));
        }
        for w in wrong_kinds(&var.ty) {
            add(format!("refused: {n} = {w}"), with(n, Some(w)));
        }
        if let Some((lo, hi)) = &var.range {
            for (end, beyond) in [("below", step(p, var, lo, -1)), ("above", step(p, var, hi, 1))] {
                if let Some(b) = beyond {
                    add(format!("refused: {n} {end} its range"), with(n, Some(b)));
                }
            }
        }
    }
    out
}

/// The wire value one step past `end` (a number or a date), or the enum value past an ordered range.
fn step(p: &Program, var: &Var, end: &Value, dir: i64) -> Option<Json> {
    match end {
        Value::Num(n) => {
            let units = n / var.ty.factor() + num::int(dir);
            Some(wire::to_wire(p, var, &Value::Num(units * var.ty.factor())))
        }
        Value::Enum(i) => {
            let j = *i as i64 + dir;
            let Ty::Enum(e) = &var.ty else { return None };
            (0..p.enums[*e].values.len() as i64).contains(&j).then(|| json!(p.enums[*e].values[j as usize].name))
        }
        _ => None,
    }
}

/// The edges a bound draws on an integer axis: the pair (last value on one side, first on the other), in units.
pub(crate) fn edges(op: CmpOp, v: &Rat) -> Vec<(Rat, Rat)> {
    let one = num::int(1);
    let f = v.floor();
    let c = v.ceil();
    match op {
        CmpOp::Le => vec![(f.clone(), f + one)],
        CmpOp::Gt => vec![(f.clone(), f + one)],
        CmpOp::Lt | CmpOp::Ge => vec![(&c - &one, c)],
        CmpOp::Eq | CmpOp::Ne => vec![(v - &one, v.clone()), (v.clone(), v + one)],
    }
}
