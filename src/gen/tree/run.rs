//! The tree, run: every statement exactly as generated code runs it, over the values of
//! the plan's interpreter (`tree::interp`, which runs a rule's steps through here). Every
//! form of a table runs alike — the W114 guards, then the first row whose condition holds —
//! since a form is only how a language writes that.

use super::value::{eval, holds, Refused, V};
use super::{table, Accumulate, Fold, Loop, Stmt};
use crate::gen::plan::{Plan, Step, TablePlan};

/// What a run of statements leaves besides the values: the rows that fired, in order.
#[derive(Debug, Default)]
pub struct Trace {
    /// `(table, row)`: the table's name and the row's number as written.
    pub fired: Vec<(String, usize)>,
}

/// Where a run reports each row that fires. A [`Trace`] keeps them by name, in order; a
/// caller that runs a rule on many calls keeps them its own way, with no name copied per
/// call (`production::fast`).
pub trait Fires {
    /// Row `row` (1-based, as written) of `table` fired.
    fn fired(&mut self, table: &TablePlan, row: usize);
}

impl Fires for Trace {
    fn fired(&mut self, table: &TablePlan, row: usize) {
        self.fired.push((table.name.clone(), row));
    }
}

/// The values before a run: every variable absent, a list empty.
pub fn fresh(plan: &Plan) -> Vec<V> {
    plan.vars.iter().map(|v| if v.list { V::List(Vec::new()) } else { V::Absent }).collect()
}

/// Runs `stmts` over `vals` (one value per variable of the plan). The guard's statements
/// are the door's business (`interp::run` reads the call through the door first) and run
/// here as the checks they are.
pub fn stmts(plan: &Plan, stmts: &[Stmt], vals: &mut [V], trace: &mut impl Fires) -> Result<(), Refused> {
    for s in stmts {
        stmt(plan, s, vals, trace)?;
    }
    Ok(())
}

fn contradiction(what: &str) -> Refused {
    Refused { kind: "contradiction", what: what.to_string() }
}

fn stmt(plan: &Plan, s: &Stmt, vals: &mut [V], trace: &mut impl Fires) -> Result<(), Refused> {
    match s {
        Stmt::GuardComment => {}
        Stmt::CheckInput { input, .. } => {
            let d = &plan.door.inputs[*input];
            if let Some(r) = &d.range {
                if eval(&r.outside, vals) == V::Bool(true) {
                    return Err(Refused { kind: "input", what: r.sentence.clone() });
                }
            }
        }
        Stmt::Constraint(i) => {
            let c = &plan.door.constraints[*i];
            let absent = c.optionals.iter().any(|&v| vals[v] == V::Absent);
            if !absent && eval(&c.test, vals) == V::Bool(false) {
                return Err(Refused { kind: "input", what: c.sentence.clone() });
            }
        }
        Stmt::Define { step } => {
            let Step::Define { var, value } = &plan.steps[*step] else { unreachable!("step {step} is a table") };
            vals[*var] = eval(value, vals);
        }
        Stmt::Table { step, .. } => {
            let t = table(plan, *step);
            let row = first_row(t, vals)?;
            for (v, value) in &row.assigns {
                vals[*v] = eval(value, vals);
            }
            trace.fired(t, row.n);
        }
        Stmt::Assign { var, value } => vals[*var] = eval(value, vals),
        Stmt::Refuse { when, sentence, input } => {
            if eval(when, vals) == V::Bool(true) {
                let kind = if *input { "input" } else { "contradiction" };
                return Err(Refused { kind, what: sentence.clone() });
            }
        }
        Stmt::CheckSequence { seq, checks } => check_sequence(plan, *seq, checks, vals)?,
        Stmt::List { var } => vals[*var] = V::List(Vec::new()),
        Stmt::Push { list, value } => {
            let x = eval(value, vals);
            match &mut vals[*list] {
                V::List(items) => items.push(x),
                other => unreachable!("a push onto a list, not {other:?}"),
            }
        }
        Stmt::Loop(l) => walk(plan, l, vals, trace)?,
        Stmt::Accumulate(a) => accumulate(plan, a, vals, trace)?,
        Stmt::Call(c) => {
            for (v, arg) in &c.args {
                vals[*v] = eval(arg, vals);
            }
            stmts(plan, &c.body, vals, trace)?;
            for (v, out) in &c.results {
                vals[*v] = eval(out, vals);
            }
        }
    }
    Ok(())
}

/// A sequence held to its count and each element's fields to their ranges, in order (a
/// field's kind is the door's business, which read the call before this runs).
fn check_sequence(plan: &Plan, seq: usize, checks: &[(usize, Vec<super::Check>)], vals: &[V]) -> Result<(), Refused> {
    let s = &plan.sequences[seq];
    let V::List(elements) = &vals[s.list] else { unreachable!("a sequence is a list") };
    if elements.len() > s.max as usize {
        return Err(Refused { kind: "input", what: s.too_many.clone() });
    }
    for (at, element) in elements.iter().enumerate() {
        let V::List(fields) = element else { unreachable!("an element is the list of its fields") };
        for (k, checks) in checks {
            if let (true, Some((lo, hi, said)), V::Int(x)) =
                (checks.contains(&super::Check::Range), &s.fields[*k].range, &fields[*k])
            {
                if x < lo || x > hi {
                    return Err(Refused { kind: "input", what: format!("{}[{at}]{said}", s.name) });
                }
            }
        }
    }
    Ok(())
}

/// The row that fires: after the pair guards, the first whose condition holds.
fn first_row<'t>(t: &'t TablePlan, vals: &[V]) -> Result<&'t crate::gen::plan::Row, Refused> {
    let meets = |r: &crate::gen::plan::Row| holds(&r.cond, vals);
    for g in &t.guards {
        if meets(&t.rows[g.a - 1]) && meets(&t.rows[g.b - 1]) {
            return Err(contradiction(&g.sentence));
        }
    }
    t.rows.iter().find(|r| meets(r)).ok_or_else(|| contradiction(&t.no_row))
}

fn walk(plan: &Plan, l: &Loop, vals: &mut [V], trace: &mut impl Fires) -> Result<(), Refused> {
    for (v, init) in &l.accumulators {
        vals[*v] = eval(init, vals);
    }
    let V::List(elements) = vals[l.list].clone() else { unreachable!("a loop walks a list") };
    for element in elements {
        vals[l.element] = element;
        stmts(plan, &l.body, vals, trace)?;
        if l.stop.as_ref().is_some_and(|s| eval(s, vals) == V::Bool(true)) {
            break;
        }
    }
    Ok(())
}

/// Every matching row's value folded, in the rows' order, as generated code folds it: the
/// running value and its flag set first, then each row that holds, traced.
fn accumulate(plan: &Plan, a: &Accumulate, vals: &mut [V], trace: &mut impl Fires) -> Result<(), Refused> {
    let t = table(plan, a.step);
    match a.fold {
        Fold::Count => vals[a.into] = V::Int(0),
        Fold::List => t.results.iter().for_each(|&list| vals[list] = V::List(Vec::new())),
        Fold::Sum | Fold::Min | Fold::Max => vals[a.into] = eval(&a.empty, vals),
    }
    if let Some(seen) = a.seen {
        vals[seen] = V::Bool(false);
    }
    let int = |v: &V| match v {
        V::Int(i) => *i,
        other => unreachable!("a number, not {other:?}"),
    };
    let overflow = "E108 proved every accumulation fits int64";
    for row in &t.rows {
        if !holds(&row.cond, vals) {
            continue;
        }
        if a.fold == Fold::List {
            for (list, value) in &row.assigns {
                let x = eval(value, vals);
                let V::List(items) = &mut vals[*list] else { unreachable!("a list folds into a list") };
                items.push(x);
            }
            trace.fired(t, row.n);
            continue;
        }
        let (_, value) = row.assigns.first().expect("an aggregate stores one value");
        let x = eval(value, vals);
        let first = a.seen.is_some_and(|seen| vals[seen] == V::Bool(false));
        let now = &vals[a.into];
        vals[a.into] = match a.fold {
            Fold::Count => V::Int(int(now).checked_add(1).expect(overflow)),
            Fold::List => unreachable!("a list is pushed onto above"),
            _ if first => x,
            Fold::Sum => V::Int(int(now).checked_add(int(&x)).expect(overflow)),
            Fold::Min => V::Int(int(now).min(int(&x))),
            Fold::Max => V::Int(int(now).max(int(&x))),
        };
        if let Some(seen) = a.seen {
            vals[seen] = V::Bool(true);
        }
        trace.fired(t, row.n);
    }
    Ok(())
}
