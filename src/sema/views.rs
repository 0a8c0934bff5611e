//! A rule that walks sequences, seen as the plain programs the analysis reads (reference
//! §6.3): the call with each summary and fold answer taken as an input over the values it
//! can have (`outer`), and one element of a walk with its fields and the call's values it
//! reads taken as inputs (`element`). Variables keep their indices in both, so a finding on
//! a view is a finding on the rule; tables and defines are renumbered.

use super::ir::*;

/// What stands in for the walks: a value's range in the view, in base units.
pub type Ranges = Vec<(VarId, (Value, Value))>;

/// A view, and for each of its tables the rule's table it is.
pub struct View {
    pub program: Program,
    pub tables: Vec<usize>,
}

fn kept(keep: &[bool]) -> Vec<usize> {
    (0..keep.len()).filter(|&i| keep[i]).collect()
}

/// The call without its walks: every summary and fold answer an input over `ranges` (a
/// value not given there keeps its declared range), and no value of an element.
pub fn outer(p: &Program, ranges: &Ranges) -> View {
    let mut v = p.clone();
    let keep_table: Vec<bool> = p.tables.iter().map(|t| t.results.iter().all(|&r| p.vars[r].frame.is_none())).collect();
    let keep_define: Vec<bool> = p.defines.iter().map(|d| p.vars[d.var].frame.is_none()).collect();
    renumber(&mut v, &keep_table, &keep_define);
    v.order.retain(|s| !matches!(s, Step::Walk(_)));
    for (i, var) in v.vars.iter_mut().enumerate() {
        match var.decided_by {
            Some(Decider::Summary(_) | Decider::Fold(_)) => {
                var.kind = VarKind::Input;
                var.decided_by = None;
                var.rounding = None;
                if let Some((_, r)) = ranges.iter().find(|(x, _)| *x == i) {
                    var.range = Some(r.clone());
                }
            }
            _ if var.frame.is_some() => set_aside(var),
            _ => {}
        }
    }
    View { program: finish(v), tables: kept(&keep_table) }
}

/// One element of walk `w`: the sequence's fields, and each value of the call the walk's
/// steps read (over `ranges`, else its declared range), as inputs; the walk's per-element
/// steps in its order; no output.
pub fn element(p: &Program, w: usize, ranges: &Ranges) -> View {
    let walk = &p.walks[w];
    let mut v = p.clone();
    let in_body = |s: Step| walk.body.contains(&s);
    let keep_table: Vec<bool> = (0..p.tables.len()).map(|t| in_body(Step::Table(t))).collect();
    let keep_define: Vec<bool> = (0..p.defines.len()).map(|d| in_body(Step::Define(d))).collect();
    let mut reads: Vec<VarId> = Vec::new();
    for s in &walk.body {
        match *s {
            Step::Table(t) => {
                reads.extend(&p.tables[t].conds);
                p.tables[t]
                    .rows
                    .iter()
                    .flat_map(|r| r.results.iter().flatten())
                    .for_each(|e| collect_vars(e, &mut reads));
            }
            Step::Define(d) => collect_vars(&p.defines[d].expr, &mut reads),
            Step::Walk(_) => {}
        }
    }
    for &s in &walk.summaries {
        if let Some(f) = &p.summaries[s].filter {
            collect_vars(f, &mut reads);
        }
    }
    let written: Vec<VarId> = walk
        .body
        .iter()
        .flat_map(|s| match *s {
            Step::Table(t) => p.tables[t].results.clone(),
            Step::Define(d) => vec![p.defines[d].var],
            Step::Walk(_) => Vec::new(),
        })
        .collect();
    renumber(&mut v, &keep_table, &keep_define);
    v.order = body_order(p, w, &keep_table, &keep_define);
    for (i, var) in v.vars.iter_mut().enumerate() {
        let field = p.sequences[walk.seq].fields.contains(&i);
        if field || (reads.contains(&i) && !written.contains(&i)) {
            var.kind = VarKind::Input;
            var.decided_by = None;
            var.rounding = None;
            if let Some((_, r)) = ranges.iter().find(|(x, _)| *x == i) {
                var.range = Some(r.clone());
            }
        } else if !written.contains(&i) {
            set_aside(var);
        }
    }
    let mut v = finish(v);
    v.outputs.clear();
    View { program: v, tables: kept(&keep_table) }
}

/// A variable no step of the view reads or writes.
fn set_aside(var: &mut Var) {
    var.kind = VarKind::Value;
    var.decided_by = None;
}

/// The walk's body as the view's order (its tables and defines renumbered).
fn body_order(p: &Program, w: usize, keep_table: &[bool], keep_define: &[bool]) -> Vec<Step> {
    let new_index = |keep: &[bool], i: usize| keep[..i].iter().filter(|&&k| k).count();
    p.walks[w]
        .body
        .iter()
        .map(|s| match *s {
            Step::Table(t) => Step::Table(new_index(keep_table, t)),
            Step::Define(d) => Step::Define(new_index(keep_define, d)),
            Step::Walk(_) => unreachable!("a walk's body holds no walk"),
        })
        .collect()
}

/// Keep the tables and defines marked, renumbered in the order and in every decider.
fn renumber(v: &mut Program, keep_table: &[bool], keep_define: &[bool]) {
    let index = |keep: &[bool]| {
        let mut next = 0;
        keep.iter()
            .map(|&k| {
                let at = k.then_some(next);
                next += k as usize;
                at
            })
            .collect::<Vec<Option<usize>>>()
    };
    let (tables, defines) = (index(keep_table), index(keep_define));
    let mut k = keep_table.iter();
    v.tables.retain(|_| *k.next().unwrap());
    let mut k = keep_define.iter();
    v.defines.retain(|_| *k.next().unwrap());
    v.order = v
        .order
        .iter()
        .filter_map(|s| match *s {
            Step::Table(t) => tables[t].map(Step::Table),
            Step::Define(d) => defines[d].map(Step::Define),
            Step::Walk(w) => Some(Step::Walk(w)),
        })
        .collect();
    for var in &mut v.vars {
        var.decided_by = match var.decided_by {
            Some(Decider::Table(t)) => tables[t].map(Decider::Table),
            Some(Decider::Define(d)) => defines[d].map(Decider::Define),
            other => other,
        };
    }
}

/// The view's inputs and outputs from its variables' kinds, and nothing of the walks left.
fn finish(mut v: Program) -> Program {
    v.inputs = (0..v.vars.len()).filter(|&i| v.vars[i].kind == VarKind::Input).collect();
    v.outputs = (0..v.vars.len()).filter(|&i| v.vars[i].kind == VarKind::Output).collect();
    v.expects.clear();
    v.sequences.clear();
    v.summaries.clear();
    v.folds.clear();
    v.walks.clear();
    for var in &mut v.vars {
        var.frame = None;
        if var.kind == VarKind::Element {
            set_aside(var);
        }
    }
    v
}
