//! The exact reference evaluator. It owns the semantics: every generated language is held
//! to what it computes, byte for byte. Rationals throughout; no floating point.

pub mod wire;

use crate::num::{self, Rat};
use crate::sema::*;
use crate::syntax::ast::{BinOp, CmpOp, FoldAction, FoldKind, Policy, SummaryOp};
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// One table's answer in a call: the table's index and the 1-based row that fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fired {
    pub table: usize,
    pub row: usize,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every variable's value after the call (inputs included), in base units.
    pub values: Vec<Value>,
    /// The rows that fired, in evaluation order.
    pub trace: Vec<Fired>,
}

impl Outcome {
    pub fn output_values<'a>(&'a self, p: &'a Program) -> impl Iterator<Item = (VarId, &'a Value)> + 'a {
        p.outputs.iter().map(move |&o| (o, &self.values[o]))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Two rows of a `unique` table matched (what the W114 guard raises).
    Contradiction {
        table: String,
        a: usize,
        b: usize,
    },
    /// No row matched (impossible once check has proved completeness).
    NoRow {
        table: String,
    },
    DivisionByZero,
    NegativeRoot,
    /// Two elements both take under `take_unique`.
    TwoTakes {
        sequence: String,
        into: String,
    },
    /// A summary landed outside its declared range: a range only the caller keeps (the
    /// door's sentence, as an input's range is refused).
    OutOfRange {
        name: String,
    },
}

impl EvalError {
    /// Whether this is a refusal of the call's inputs (an input error), not a contradiction.
    pub fn is_input(&self) -> bool {
        matches!(self, EvalError::OutOfRange { .. })
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Contradiction { table, a, b } => f.write_str(&wire::sentence::rows_met(table, *a, *b)),
            EvalError::NoRow { table } => f.write_str(&wire::sentence::no_row(table)),
            EvalError::DivisionByZero => write!(f, "division by zero"),
            EvalError::NegativeRoot => write!(f, "isqrt of a negative number"),
            EvalError::TwoTakes { sequence, into } => f.write_str(&wire::sentence::two_takes(sequence, into)),
            EvalError::OutOfRange { name } => f.write_str(&wire::sentence::out_of_range(name)),
        }
    }
}

/// What the reference says of one line of a vectors file or of `rulec eval`'s standard input:
/// the fixtures record, or the refusal line in its place. Every runner prints the same.
pub fn answer(p: &Program, line: &str, tag: &str) -> String {
    match wire::read_line(p, line) {
        Err(r) => wire::refusal_line(&r),
        Ok(inputs) => match evaluate(p, &inputs) {
            Ok(o) => wire::record(p, &inputs, &o, tag),
            Err(EvalError::OutOfRange { name }) => {
                wire::refusal_line(&wire::Refusal::new(wire::sentence::out_of_range(&name)))
            }
            Err(e) => wire::contradiction_line(&e),
        },
    }
}

/// Evaluate the rule for one call. `inputs` holds one value per input, in `p.inputs` order,
/// then one list per sequence (each element the list of its fields' values), already read
/// and checked at the door (see `wire::read_inputs`).
pub fn evaluate(p: &Program, inputs: &[Value]) -> Result<Outcome, EvalError> {
    let mut values = vec![Value::None; p.vars.len()];
    for (&v, x) in p.inputs.iter().zip(inputs) {
        values[v] = x.clone();
    }
    let sequences = &inputs[p.inputs.len().min(inputs.len())..];
    let mut trace = Vec::new();
    for step in &p.order {
        run_step(p, *step, sequences, &mut values, &mut trace)?;
    }
    Ok(Outcome { values, trace })
}

fn run_step(
    p: &Program,
    step: Step,
    sequences: &[Value],
    values: &mut [Value],
    trace: &mut Vec<Fired>,
) -> Result<(), EvalError> {
    match step {
        Step::Define(d) => {
            let def = &p.defines[d];
            let x = eval_expr(&def.expr, values)?;
            values[def.var] = store(p, def.var, x);
        }
        Step::Table(t) => {
            for row in run_table(p, t, values)? {
                trace.push(Fired { table: t, row });
            }
        }
        Step::Walk(w) => walk(p, &p.walks[w], sequences, values, trace)?,
    }
    Ok(())
}

/// A fold's state on its walk: what it has taken or kept, and whether a `stop` ended its
/// reading.
struct Folding {
    held: Option<Value>,
    stopped: bool,
}

/// One walk (reference §6.3): for each element in order, its fields bound, the body's steps
/// run (their rows traced), each summary and fold of the walk fed; the loop ends early only
/// when every fold on it has stopped and no summary shares it. Then each answer is stored,
/// a summary held to its declared range.
fn walk(
    p: &Program,
    w: &WalkIr,
    sequences: &[Value],
    values: &mut [Value],
    trace: &mut Vec<Fired>,
) -> Result<(), EvalError> {
    let seq = &p.sequences[w.seq];
    let elements: &[Value] = match sequences.get(w.seq) {
        Some(Value::List(xs)) => xs,
        _ => &[],
    };
    let mut sums: Vec<(Rat, usize, Option<Value>)> = w.summaries.iter().map(|_| (Rat::zero(), 0, None)).collect();
    let mut folds: Vec<Folding> = w.folds.iter().map(|_| Folding { held: None, stopped: false }).collect();
    for element in elements {
        let Value::List(fields) = element else { unreachable!("an element is the list of its fields") };
        for (&f, x) in seq.fields.iter().zip(fields) {
            values[f] = x.clone();
        }
        for &step in &w.body {
            run_step(p, step, sequences, values, trace)?;
        }
        for (k, &si) in w.summaries.iter().enumerate() {
            let s = &p.summaries[si];
            if let Some(f) = &s.filter {
                if eval_expr(f, values)? != Value::Bool(true) {
                    continue;
                }
            }
            let (total, count, best) = &mut sums[k];
            *count += 1;
            let Some(of) = s.of else { continue };
            let x = values[of].clone();
            match s.op {
                SummaryOp::Sum => *total += num(&x),
                SummaryOp::Max if best.as_ref().is_none_or(|b| x > *b) => *best = Some(x),
                SummaryOp::Min if best.as_ref().is_none_or(|b| x < *b) => *best = Some(x),
                _ => {}
            }
        }
        for (k, &fi) in w.folds.iter().enumerate() {
            let f = &p.folds[fi];
            let state = &mut folds[k];
            if state.stopped {
                continue;
            }
            let Value::Enum(verdict) = values[f.verdict] else { unreachable!("a verdict is a value of its enum") };
            let x = values[f.value].clone();
            match f.actions[verdict as usize] {
                None => {}
                Some(FoldAction::Stop) => state.stopped = true,
                Some(FoldAction::Take) => match (&state.held, f.kind) {
                    (None, _) => state.held = Some(x),
                    (Some(_), FoldKind::TakeUnique) => {
                        return Err(EvalError::TwoTakes {
                            sequence: seq.name.clone(),
                            into: p.vars[f.into].name.clone(),
                        })
                    }
                    (Some(_), _) => {}
                },
                Some(FoldAction::Keep) if state.held.as_ref().is_none_or(|kept| x > *kept) => state.held = Some(x),
                Some(FoldAction::Keep) => {}
            }
        }
        if w.summaries.is_empty() && folds.iter().all(|f| f.stopped) {
            break;
        }
    }
    for (k, &si) in w.summaries.iter().enumerate() {
        let s = &p.summaries[si];
        let (total, count, best) = std::mem::take(&mut sums[k]);
        let x = match s.op {
            SummaryOp::Sum => Value::Num(total),
            SummaryOp::Count => Value::Num(num::int(count as i64)),
            SummaryOp::Max | SummaryOp::Min => match best {
                Some(b) => b,
                None => eval_expr(s.empty.as_ref().expect("a max or a min has an empty answer"), values)?,
            },
        };
        if let Some((lo, hi)) = &p.vars[s.var].range {
            if x < *lo || x > *hi {
                return Err(EvalError::OutOfRange { name: p.vars[s.var].name.clone() });
            }
        }
        values[s.var] = store(p, s.var, x);
    }
    for (k, &fi) in w.folds.iter().enumerate() {
        let f = &p.folds[fi];
        let x = match folds[k].held.take() {
            Some(x) => x,
            None => eval_expr(&f.empty, values)?,
        };
        values[f.into] = store(p, f.into, x);
    }
    Ok(())
}

/// The values table `t` reads: every table and define it depends on (transitively, through
/// its condition columns and its result cells), evaluated in the order of language.md §7
/// exactly as [`evaluate`] computes them; every other variable is left none. The analysis
/// confirms its witnesses through this (a gap, two rows that meet, a row reached): a table
/// that `t` does not read cannot refuse the witness.
pub fn values_before(p: &Program, inputs: &[Value], t: usize) -> Result<Vec<Value>, EvalError> {
    values_needed(p, inputs, t, &needed_vars(p, t))
}

/// [`values_before`] with `needed_vars(p, t)` computed once by the caller.
pub fn values_needed(p: &Program, inputs: &[Value], t: usize, needed: &[bool]) -> Result<Vec<Value>, EvalError> {
    let mut values = vec![Value::None; p.vars.len()];
    for (&v, x) in p.inputs.iter().zip(inputs) {
        values[v] = x.clone();
    }
    for step in &p.order {
        match *step {
            Step::Define(d) => {
                let def = &p.defines[d];
                if needed[def.var] {
                    let x = eval_expr(&def.expr, &values)?;
                    values[def.var] = store(p, def.var, x);
                }
            }
            Step::Table(s) => {
                let table = &p.tables[s];
                if s == t || !table.results.iter().any(|&r| needed[r]) {
                    continue;
                }
                run_table(p, s, &mut values)?;
            }
            // The analysis reads a rule with walks through its views (`sema::views`), which have none.
            Step::Walk(_) => {}
        }
    }
    Ok(values)
}

/// The variables table `t` reads, directly or through what decides them.
pub fn needed_vars(p: &Program, t: usize) -> Vec<bool> {
    let mut needed = vec![false; p.vars.len()];
    let mut stack: Vec<VarId> = p.tables[t].conds.clone();
    let table_reads = |table: &TableIr, out: &mut Vec<VarId>| {
        out.extend(&table.conds);
        for row in &table.rows {
            for e in row.results.iter().flatten() {
                crate::sema::collect_vars(e, out);
            }
        }
    };
    table_reads(&p.tables[t], &mut stack);
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut needed[v], true) {
            continue;
        }
        match p.vars[v].decided_by {
            Some(Decider::Define(d)) => crate::sema::collect_vars(&p.defines[d].expr, &mut stack),
            Some(Decider::Table(s)) => table_reads(&p.tables[s], &mut stack),
            Some(Decider::Summary(_) | Decider::Fold(_)) | None => {}
        }
    }
    needed
}

/// The value a variable holds once `x` is stored in it (an output's rounding applies).
pub fn stored(p: &Program, var: VarId, x: Value) -> Value {
    store(p, var, x)
}

/// What a variable holds once stored: an output's rounding applies here.
fn store(p: &Program, var: VarId, x: Value) -> Value {
    match (&p.vars[var].rounding, x) {
        (Some(r), Value::Num(n)) => Value::Num(num::round_to_grid(&n, r.mode, &r.grid)),
        (_, x) => x,
    }
}

/// Store table `t`'s answer into `values`; the 1-based rows that fired, in the order they
/// count: the one row that answers, or under a multiple-hit policy every row that holds.
pub fn run_table(p: &Program, t: usize, values: &mut [Value]) -> Result<Vec<usize>, EvalError> {
    let table = &p.tables[t];
    if !table.policy.multi_hit() {
        let row = pick_row(table, values)?;
        for (i, &r) in table.results.iter().enumerate() {
            let x = match &table.rows[row].results[i] {
                Some(e) => eval_expr(e, values)?,
                None => Value::None,
            };
            values[r] = store(p, r, x);
        }
        return Ok(vec![row + 1]);
    }
    let held: Vec<usize> = table.precedence().into_iter().filter(|&r| row_matches(table, r, values)).collect();
    if table.policy.lists() {
        // Each result a list, each row that holds adding its value to each.
        for (k, &result) in table.results.iter().enumerate() {
            let mut xs = Vec::with_capacity(held.len());
            for &row in &held {
                let cell = table.rows[row].results[k].as_ref().expect("sema refuses `none` in a multiple-hit row");
                xs.push(eval_expr(cell, values)?);
            }
            values[result] = Value::List(xs);
        }
        return Ok(held.into_iter().map(|r| r + 1).collect());
    }
    let result = table.results[0];
    let x = match table.policy {
        Policy::CollectCount => Value::Num(num::int(held.len() as i64)),
        _ => {
            let mut xs = Vec::with_capacity(held.len());
            for &row in &held {
                let cell = table.rows[row].results[0].as_ref().expect("sema refuses `none` in a multiple-hit row");
                xs.push(eval_expr(cell, values)?);
            }
            aggregate(p, table, result, xs)?
        }
    };
    values[result] = store(p, result, x);
    Ok(held.into_iter().map(|r| r + 1).collect())
}

/// An aggregate's answer from the values of the rows that held, in order.
fn aggregate(p: &Program, table: &TableIr, result: VarId, xs: Vec<Value>) -> Result<Value, EvalError> {
    let folded = match table.policy {
        Policy::CollectSum => xs.into_iter().map(|x| num(&x).clone()).reduce(|a, b| a + b).map(Value::Num),
        Policy::CollectMin => xs.into_iter().min(),
        Policy::CollectMax => xs.into_iter().max(),
        other => unreachable!("`{}` is not an aggregation", other.as_str()),
    };
    let var = &p.vars[result];
    match (folded, &var.default) {
        (Some(x), _) => Ok(x),
        (None, Some(d)) => Ok(d.clone()),
        (None, None) if var.optional => Ok(Value::None),
        (None, None) => Err(EvalError::NoRow { table: table.name.clone() }),
    }
}

/// The 0-based row that answers under the table's policy.
pub fn pick_row(t: &TableIr, values: &[Value]) -> Result<usize, EvalError> {
    let order = t.precedence();
    let mut matching = order.into_iter().filter(|&r| row_matches(t, r, values));
    let first = matching.next().ok_or_else(|| EvalError::NoRow { table: t.name.clone() })?;
    if t.policy == Policy::Unique {
        if let Some(second) = matching.next() {
            return Err(EvalError::Contradiction { table: t.name.clone(), a: first + 1, b: second + 1 });
        }
    }
    Ok(first)
}

pub fn row_matches(t: &TableIr, row: usize, values: &[Value]) -> bool {
    t.rows[row].conds.iter().zip(&t.conds).all(|(c, &v)| cell_holds(c, &values[v]))
}

pub fn cell_holds(c: &CondIr, v: &Value) -> bool {
    match c {
        CondIr::Any => true,
        CondIr::Tests { negated, tests } => tests.iter().any(|t| test_holds(t, v)) != *negated,
    }
}

fn test_holds(t: &TestIr, v: &Value) -> bool {
    match (t, v) {
        (TestIr::IsNone, v) => *v == Value::None,
        (_, Value::None) => false,
        (TestIr::OneOf(xs), v) => xs.contains(v),
        (TestIr::Bounds(bs), v) => bs.iter().all(|(op, b)| op.holds(v.cmp(b))),
    }
}

fn num(v: &Value) -> &Rat {
    match v {
        Value::Num(n) => n,
        other => unreachable!("the checker typed this as a number, found {other:?}"),
    }
}

fn boolean(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        other => unreachable!("the checker typed this as a boolean, found {other:?}"),
    }
}

/// Evaluate an expression. `Value::None` (an absent optional, read only by constraints)
/// makes the whole expression none.
pub fn eval_expr(e: &TExpr, values: &[Value]) -> Result<Value, EvalError> {
    macro_rules! sub {
        ($x:expr) => {
            match eval_expr($x, values)? {
                Value::None => return Ok(Value::None),
                v => v,
            }
        };
    }
    Ok(match &e.kind {
        TExprKind::Const(v) => v.clone(),
        TExprKind::Var(v) => values[*v].clone(),
        TExprKind::Neg(x) => Value::Num(-num(&sub!(x))),
        TExprKind::Arith(op, a, b) => {
            let (a, b) = (sub!(a), sub!(b));
            let (a, b) = (num(&a), num(&b));
            Value::Num(match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => {
                    if b.is_zero() {
                        return Err(EvalError::DivisionByZero);
                    }
                    a / b
                }
            })
        }
        TExprKind::Cmp(op, a, b) => {
            let (a, b) = (sub!(a), sub!(b));
            Value::Bool(compare(*op, &a, &b))
        }
        TExprKind::Not(x) => Value::Bool(!boolean(&sub!(x))),
        TExprKind::And(a, b) => {
            let a = sub!(a);
            if !boolean(&a) {
                Value::Bool(false)
            } else {
                Value::Bool(boolean(&sub!(b)))
            }
        }
        TExprKind::Or(a, b) => {
            let a = sub!(a);
            if boolean(&a) {
                Value::Bool(true)
            } else {
                Value::Bool(boolean(&sub!(b)))
            }
        }
        TExprKind::Min(xs) | TExprKind::Max(xs) => {
            let want = if matches!(e.kind, TExprKind::Min(_)) { Ordering::Less } else { Ordering::Greater };
            let mut best = sub!(&xs[0]);
            for x in &xs[1..] {
                let v = sub!(x);
                if v.cmp(&best) == want {
                    best = v;
                }
            }
            best
        }
        TExprKind::Mod(a, b) => {
            let (a, b) = (sub!(a), sub!(b));
            if num(&b).is_zero() {
                return Err(EvalError::DivisionByZero);
            }
            Value::Num(num::mod_euclid(num(&a), num(&b)))
        }
        TExprKind::Isqrt(x) => {
            let x = sub!(x);
            if num(&x).is_negative() {
                return Err(EvalError::NegativeRoot);
            }
            Value::Num(Rat::from_integer(num::isqrt(num(&x))))
        }
        TExprKind::Round { value, mode, grid } => Value::Num(num::round_to_grid(num(&sub!(value)), *mode, grid)),
        TExprKind::If { cond, then, els } => {
            if boolean(&sub!(cond)) {
                sub!(then)
            } else {
                sub!(els)
            }
        }
        TExprKind::In { var, values: set } => match &values[*var] {
            Value::None => Value::None,
            v => Value::Bool(set.contains(v)),
        },
    })
}

fn compare(op: CmpOp, a: &Value, b: &Value) -> bool {
    op.holds(a.cmp(b))
}
