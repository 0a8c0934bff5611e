//! The analysis of a rule that walks sequences (reference §6.3), over its views
//! (`sema::views`): each walk's element analysed as a program of its own — its verdict and
//! per-element tables complete and apart for every element, every per-element value bounded
//! — and then the call, each summary and fold answer an input over exactly the values it
//! can take for every list of every length up to the sequence's maximum.
//!
//! What is proved of a summary, for lists of every length 0..=N where each element's value
//! lies in [lo, hi] (the element view's proven interval, attained by some element):
//! a sum lies in [N·min(lo, 0), N·max(hi, 0)] and so does every running total on the way,
//! since each partial sum is a sum over fewer elements; a count in [0, N]; a max or a min in
//! the hull of [lo, hi] and its empty answer. A `where` only removes elements, which the
//! bounds already allow (a sum over fewer elements, the empty answer).

use super::{run, Analysis, Options};
use crate::diag::Diagnostic;
use crate::num::{self, Rat};
use crate::sema::views::{self, Ranges};
use crate::sema::{Decider, Program, Value, VarKind};
use crate::syntax::ast::SummaryOp;
use num_traits::Zero;

pub fn analyse(p: &Program, text: &str, opts: &Options) -> Analysis {
    let mut found: Ranges = Vec::new();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut proofs: Vec<Option<super::tables::TableProof>> = vec![None; p.tables.len()];
    let mut guards: Vec<super::Guard> = Vec::new();
    let mut element_intervals: Vec<Option<(Rat, Rat)>> = vec![None; p.vars.len()];
    for w in 0..p.walks.len() {
        // The call's values this walk reads, bounded with what the walks before it found.
        let (_, before) = run(&views::outer(p, &unknown_beside(p, &found)).program, text, opts);
        let mut reads = found.clone();
        for (v, var) in p.vars.iter().enumerate() {
            let of_call =
                var.frame.is_none() && !matches!(var.decided_by, Some(Decider::Summary(_) | Decider::Fold(_)));
            if let (true, Some((lo, hi))) = (of_call && var.kind != VarKind::Input, &before.proof.intervals[v]) {
                reads.push((v, (Value::Num(lo.clone()), Value::Num(hi.clone()))));
            }
        }
        let element = views::element(p, w, &reads);
        let (tables, values) = run(&element.program, text, opts);
        // A per-element table on two walks is analysed on each: what is found is said once.
        for d in tables.diagnostics.into_iter().chain(values.diagnostics) {
            let same = |e: &Diagnostic| e.code == d.code && e.primary.span == d.primary.span && e.message == d.message;
            if !diagnostics.iter().any(same) {
                diagnostics.push(d);
            }
        }
        for (k, proof) in tables.proofs.into_iter().enumerate() {
            proofs[element.tables[k]].get_or_insert(proof);
        }
        for g in tables.guards {
            let g = super::Guard { table: element.tables[g.table], ..g };
            if !guards.contains(&g) {
                guards.push(g);
            }
        }
        for (v, var) in p.vars.iter().enumerate() {
            if var.frame == Some(p.walks[w].seq) && element_intervals[v].is_none() {
                element_intervals[v] = values.proof.intervals[v].clone();
            }
        }
        let walk = &p.walks[w];
        for &s in &walk.summaries {
            let summary = &p.summaries[s];
            let n = Rat::from_integer(p.sequences[summary.seq].max.into());
            let each = summary.of.and_then(|v| values.proof.intervals[v].clone());
            let iv = match (summary.op, each) {
                (SummaryOp::Count, _) => Some((Rat::zero(), n.clone())),
                (SummaryOp::Sum, Some((lo, hi))) => {
                    let iv = (&n * lo.clone().min(Rat::zero()), &n * hi.clone().max(Rat::zero()));
                    diagnostics.extend(past_int64(p, s, &iv));
                    Some(iv)
                }
                (SummaryOp::Max | SummaryOp::Min, Some((lo, hi))) => {
                    let empty = summary.empty.as_ref().and_then(|e| interval_of(p, e, &before.proof.intervals));
                    Some(match empty {
                        Some((a, b)) => (lo.min(a), hi.max(b)),
                        None => (lo, hi),
                    })
                }
                _ => None,
            };
            let Some(iv) = iv else { continue };
            diagnostics.extend(caller_keeps(p, s, &iv));
            // What the call sees: the declared range where the door holds it, else all of it.
            let var = &p.vars[summary.var];
            let seen = match &var.range {
                Some((Value::Num(a), Value::Num(b))) => (iv.0.clone().max(a.clone()), iv.1.clone().min(b.clone())),
                _ => iv,
            };
            found.push((summary.var, (Value::Num(seen.0), Value::Num(seen.1))));
        }
        for &f in &walk.folds {
            let fold = &p.folds[f];
            let each = values.proof.intervals[fold.value].clone();
            let empty = interval_of(p, &fold.empty, &before.proof.intervals);
            if let (Some((lo, hi)), Some((a, b))) = (each, empty) {
                found.push((fold.into, (Value::Num(lo.min(a)), Value::Num(hi.max(b)))));
            }
        }
    }
    let outer = views::outer(p, &found);
    let (tables, values) = run(&outer.program, text, opts);
    diagnostics.extend(tables.diagnostics.into_iter().chain(values.diagnostics));
    for (k, proof) in tables.proofs.into_iter().enumerate() {
        proofs[outer.tables[k]] = Some(proof);
    }
    guards.extend(tables.guards.into_iter().map(|g| super::Guard { table: outer.tables[g.table], ..g }));
    let mut proof = values.proof;
    for (v, iv) in element_intervals.into_iter().enumerate() {
        if iv.is_some() {
            proof.intervals[v] = iv;
        }
    }
    // The int64 model of every node, the walks' bodies in their places: what the plan writes.
    proof.scales = super::scale::annotate(p);
    let tables = proofs.into_iter().map(|t| t.expect("every table is in a view")).collect();
    Analysis { diagnostics, tables, guards, values: proof }
}

/// The answers not found yet, at the widest: they are read by no value a walk before
/// theirs reads, so what they are does not move what is found.
fn unknown_beside(p: &Program, found: &Ranges) -> Ranges {
    let wide = Value::Num(Rat::from_integer(i64::MAX.into()));
    let mut out = found.clone();
    for (v, var) in p.vars.iter().enumerate() {
        let answer = matches!(var.decided_by, Some(Decider::Summary(_) | Decider::Fold(_)));
        if answer && !found.iter().any(|(x, _)| *x == v) && var.range.is_none() {
            out.push((v, (Value::Num(-Rat::from_integer(i64::MAX.into())), wide.clone())));
        }
    }
    out
}

/// The interval of an expression that reads the call's values only (an empty answer): a
/// literal, or a variable's proven interval.
fn interval_of(p: &Program, e: &crate::sema::TExpr, intervals: &[Option<(Rat, Rat)>]) -> Option<(Rat, Rat)> {
    match &e.kind {
        crate::sema::TExprKind::Const(Value::Num(n)) => Some((n.clone(), n.clone())),
        crate::sema::TExprKind::Var(v) => intervals[*v].clone().or_else(|| match &p.vars[*v].range {
            Some((Value::Num(a), Value::Num(b))) => Some((a.clone(), b.clone())),
            _ => None,
        }),
        _ => None,
    }
}

/// E108: a sum whose running total can pass int64. The witness is the shortest list of one
/// element repeated that does: the element, of the corners of its fields' ranges, whose value
/// the reference evaluator finds farthest out. Where no corner gets there, the bound alone
/// is said: the sum is not proved to fit.
fn past_int64(p: &Program, s: usize, iv: &(Rat, Rat)) -> Option<Diagnostic> {
    let summary = &p.summaries[s];
    let var = &p.vars[summary.var];
    let factor = var.ty.factor();
    let (max, min) = (Rat::from_integer(i64::MAX.into()), Rat::from_integer(i64::MIN.into()));
    let up = &iv.1 / &factor > max;
    if !up && &iv.0 / &factor >= min {
        return None;
    }
    let seq = &p.sequences[summary.seq];
    let of = summary.of.map(|v| p.vars[v].name.clone()).unwrap_or_default();
    let shown = |x: &Rat| crate::eval::wire::display(p, &var.ty, &Value::Num(x.clone()));
    let limit = if up { &max * &factor } else { &min * &factor };
    let d = match farthest(p, s, up) {
        // n copies add up to n times its value: the fewest past the limit.
        Some((element, each)) if !each.is_zero() && (&limit / &each).floor().to_integer() < seq.max.into() => {
            let n = (&limit / &each).floor() + Rat::from_integer(1.into());
            let reach = &n * &each;
            Diagnostic::new("E108", p.file, summary.span, format!("`{}` can pass int64", var.name))
                .label(format!(
                    "{} elements of `{}` like {element}, each with `{of}` = {}, add up to {}",
                    n,
                    seq.name,
                    shown(&each),
                    shown(&reach)
                ))
                .note(format!(
                    "int64 holds {}..{}; the reference evaluator gives each such element `{of}` = {}",
                    num::to_decimal_string(&min),
                    num::to_decimal_string(&max),
                    shown(&each)
                ))
        }
        _ => Diagnostic::new("E108", p.file, summary.span, format!("`{}` is not proved to fit int64", var.name))
            .label(format!(
                "up to {} elements of `{}` could add up to {}",
                seq.max,
                seq.name,
                shown(if up { &iv.1 } else { &iv.0 })
            ))
            .note(format!(
                "a sum over up to {} elements is bounded by {} times the value of one; int64 holds {}..{}",
                seq.max,
                seq.max,
                num::to_decimal_string(&min),
                num::to_decimal_string(&max)
            )),
    };
    Some(
        d.help(format!(
            "declare fewer elements (`up to N`), or narrow the range of the fields `{of}` is computed from"
        )),
    )
}

/// Of the elements whose fields sit at the corners of their ranges, the one whose summed
/// value the reference evaluator finds largest (or smallest), written as the wire writes it,
/// with that value; the call's inputs each at the low end of their range.
fn farthest(p: &Program, s: usize, up: bool) -> Option<(String, Rat)> {
    let summary = &p.summaries[s];
    let of = summary.of?;
    let seq = &p.sequences[summary.seq];
    let ends = |v: usize| -> Vec<Value> {
        let var = &p.vars[v];
        match (&var.ty, &var.range) {
            (crate::sema::Ty::Bool, _) => vec![Value::Bool(false), Value::Bool(true)],
            (crate::sema::Ty::Enum(e), _) => (0..p.enums[*e].values.len() as u32).map(Value::Enum).collect(),
            (_, Some((lo, hi))) => vec![lo.clone(), hi.clone()],
            _ => vec![Value::Num(Rat::zero())],
        }
    };
    let mut corners: Vec<Vec<Value>> = vec![Vec::new()];
    for &f in &seq.fields {
        corners =
            corners.into_iter().flat_map(|c| ends(f).into_iter().map(move |x| [c.clone(), vec![x]].concat())).collect();
        if corners.len() > 4096 {
            return None;
        }
    }
    let mut call: Vec<Value> = p.inputs.iter().map(|&v| ends(v).into_iter().next().unwrap_or(Value::None)).collect();
    let at = call.len();
    call.extend(p.sequences.iter().map(|_| Value::List(Vec::new())));
    let mut best: Option<(Vec<Value>, Rat)> = None;
    for c in corners {
        call[at + summary.seq] = Value::List(vec![Value::List(c.clone())]);
        let Some(Value::Num(x)) = value_on_walk(p, &call, of) else { continue };
        if best.as_ref().is_none_or(|(_, b)| if up { x > *b } else { x < *b }) {
            best = Some((c, x));
        }
    }
    let (element, x) = best?;
    let shown: Vec<String> = seq
        .fields
        .iter()
        .zip(&element)
        .map(|(&f, v)| format!("{}={}", p.vars[f].name, crate::eval::wire::display(p, &p.vars[f].ty, v)))
        .collect();
    Some((format!("{{{}}}", shown.join(", ")), x))
}

/// The value `v` of the one element of a call, as the reference evaluator computes it (a
/// call it refuses gives none).
fn value_on_walk(p: &Program, call: &[Value], v: usize) -> Option<Value> {
    crate::eval::evaluate(p, call).ok().map(|o| o.values[v].clone())
}

/// W122: a summary's declared range that lists of the declared lengths can leave — the door
/// refuses such a call after the walk, and the caller is the one who keeps it.
fn caller_keeps(p: &Program, s: usize, iv: &(Rat, Rat)) -> Option<Diagnostic> {
    let summary = &p.summaries[s];
    let var = &p.vars[summary.var];
    let (Value::Num(lo), Value::Num(hi)) = var.range.clone()? else { return None };
    if iv.0 >= lo && iv.1 <= hi {
        return None;
    }
    let seq = &p.sequences[summary.seq];
    let shown = |x: &Rat| crate::eval::wire::display(p, &var.ty, &Value::Num(x.clone()));
    let (reach, past) = match iv.1 > hi {
        true => (shown(&iv.1), shown(&hi)),
        false => (shown(&iv.0), shown(&lo)),
    };
    Some(
        Diagnostic::new("W122", p.file, var.range_span.unwrap_or(summary.span), format!("the caller keeps `{}` within its range", var.name))
            .label(format!("up to {} elements of `{}` can make it {reach}, past {past}", seq.max, seq.name))
            .note("the generated code refuses such a call after the walk, with the sentence of an input out of range; `rulec graph` lists it under preconditions")
            .help(format!("widen the range to what the elements can make, or declare fewer elements of `{}`", seq.name)),
    )
}
