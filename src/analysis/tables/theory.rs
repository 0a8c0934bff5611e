//! What a table's boxes are judged by beyond linear facts (issue 17): the columns that
//! depend, through defines, on something that is not linear — `mod`, `isqrt`, `round`, a
//! product of two variables, a boolean define comparing such a thing.
//!
//! A box the linear model does not refute is searched by cases. In each case:
//! - the interval the value analysis proved for every derived variable is a fact
//!   ([`Derivation::Proven`], in the table's linear system);
//! - a define that is linear once the case's fixed values are read is an equality
//!   ([`Derivation::DefineAt`]; a product with one factor fixed, a rounding of a constant);
//!   a boolean define heading a column asserts its comparisons the same way
//!   ([`Derivation::BoolAt`]);
//! - a define that is a monotone function of one linear form (`round(x / 2, floor, 1)`,
//!   `isqrt(x)`) turns each bound on it into a bound on that form, exactly on the form's
//!   grid ([`Derivation::Monotone`]);
//! - a define that is neither is bounded by interval arithmetic from the bounds of what it
//!   reads ([`Derivation::Interval`]).
//!
//! When that does not refute the case, one variable a nonlinear define reads is split on:
//! a value decided by a table whose results are constants, one case per row (its cells
//! hold, and the value is that row's); or a number with few grid values inside its bounds,
//! one case per value. Splitting goes on while it can (at most [`SPLIT_VALUES`] values a
//! split, [`CASES`] cases a box): a box is refuted when every case is, and a case that
//! survives every split is where the witness search starts ([`Hint`]).

use super::axes::var_step;
use super::case::{Case, Hint};
use super::facts::{self, bool_define_facts_with, Derivation, FactRef};
use super::{Refutation, TableAnalysis};
use crate::analysis::linear::{Fact, Lin};
use crate::analysis::model::{self, fold, linear_with, monotone_in};
use crate::analysis::scale::{rat_gcd, Iv};
use crate::eval::cell_holds;
use crate::num::{self, Rat};
use crate::sema::*;
use crate::syntax::ast::BinOp;
use num_traits::{One, Signed, Zero};

/// Most values one split takes.
pub const SPLIT_VALUES: usize = 64;
/// Most cases the search of one box visits.
pub const CASES: usize = 512;

/// The defines a table's columns depend on that are not linear.
#[derive(Clone, Debug, Default)]
pub struct Theory {
    /// In evaluation order: numeric defines that are not linear, and boolean defines with a
    /// comparison that is not.
    pub defines: Vec<usize>,
    /// Every variable the columns depend on through defines and through the tables that
    /// decide them (the axes' own variables included).
    pub vars: Vec<VarId>,
}

impl Theory {
    /// The theory of table `t`, when some column depends on a define that is not linear.
    pub fn build(p: &Program, t: usize) -> Option<Theory> {
        let mut seen = vec![false; p.vars.len()];
        let mut stack: Vec<VarId> = p.tables[t].conds.clone();
        let mut defines = Vec::new();
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            match p.vars[v].decided_by {
                Some(Decider::Define(d)) => {
                    let e = &p.defines[d].expr;
                    let linear =
                        if p.vars[v].ty == Ty::Bool { bool_linear(p, e) } else { model::linear_of(e).is_some() };
                    if !linear {
                        defines.push(d);
                    }
                    crate::sema::collect_vars(e, &mut stack);
                }
                Some(Decider::Table(d)) if constant_results(p, v) => stack.extend(&p.tables[d].conds),
                _ => {}
            }
        }
        if defines.is_empty() {
            return None;
        }
        let order: Vec<usize> = p
            .order
            .iter()
            .filter_map(|s| match *s {
                Step::Define(d) if defines.contains(&d) => Some(d),
                _ => None,
            })
            .collect();
        let vars = (0..p.vars.len()).filter(|&v| seen[v]).collect();
        Some(Theory { defines: order, vars })
    }
}

/// Whether a variable decided by a table takes only the constants its rows name.
fn constant_results(p: &Program, v: VarId) -> bool {
    let Some(d) = p.cell_table(v) else { return false };
    let t = &p.tables[d];
    let Some(col) = t.results.iter().position(|&r| r == v) else { return false };
    t.rows.iter().all(|r| matches!(&r.results[col], Some(TExpr { kind: TExprKind::Const(Value::Num(_)), .. })))
}

/// Whether every comparison a boolean expression makes is linear (what `bool_define_facts`
/// reads in full).
fn bool_linear(p: &Program, e: &TExpr) -> bool {
    match &e.kind {
        TExprKind::Cmp(_, a, b) => model::linear_of(a).is_some() && model::linear_of(b).is_some(),
        TExprKind::Not(x) => bool_linear(p, x),
        TExprKind::And(a, b) | TExprKind::Or(a, b) => bool_linear(p, a) && bool_linear(p, b),
        TExprKind::Var(w) => match p.vars[*w].decided_by {
            Some(Decider::Define(d)) if p.vars[*w].ty == Ty::Bool => bool_linear(p, &p.defines[d].expr),
            _ => true,
        },
        _ => true,
    }
}

/// The interval of an expression when each variable lies in `bound` (none when some
/// variable is unbounded or a divisor may be zero): plain interval arithmetic, the same
/// rules `proofs/recheck.py` applies.
pub fn interval_of(e: &TExpr, bound: &dyn Fn(VarId) -> Option<Iv>) -> Option<Iv> {
    let corners = |a: &Iv, b: &Iv, f: &dyn Fn(&Rat, &Rat) -> Rat| {
        let cs = [f(&a.0, &b.0), f(&a.0, &b.1), f(&a.1, &b.0), f(&a.1, &b.1)];
        (cs.iter().min().unwrap().clone(), cs.iter().max().unwrap().clone())
    };
    let kid = |x: &TExpr| interval_of(x, bound);
    Some(match &e.kind {
        TExprKind::Const(Value::Num(n)) => (n.clone(), n.clone()),
        TExprKind::Var(v) => bound(*v)?,
        TExprKind::Neg(x) => {
            let a = kid(x)?;
            (-a.1, -a.0)
        }
        TExprKind::Arith(op, a, b) => {
            let (x, y) = (kid(a)?, kid(b)?);
            match op {
                BinOp::Add => (&x.0 + &y.0, &x.1 + &y.1),
                BinOp::Sub => (&x.0 - &y.1, &x.1 - &y.0),
                BinOp::Mul => corners(&x, &y, &|a, b| a * b),
                BinOp::Div if y.0.is_positive() || y.1.is_negative() => corners(&x, &y, &|a, b| a / b),
                BinOp::Div => return None,
            }
        }
        TExprKind::Min(xs) | TExprKind::Max(xs) => {
            let is_min = matches!(e.kind, TExprKind::Min(_));
            let mut acc: Option<Iv> = None;
            for x in xs {
                let x = kid(x)?;
                acc = Some(match acc {
                    None => x,
                    Some(a) if is_min => (a.0.min(x.0), a.1.min(x.1)),
                    Some(a) => (a.0.max(x.0), a.1.max(x.1)),
                });
            }
            acc?
        }
        TExprKind::Mod(a, b) => {
            let (x, y) = (kid(a)?, kid(b)?);
            if !(y.0.is_positive() || y.1.is_negative()) {
                return None;
            }
            let top = y.0.abs().max(y.1.abs());
            let least = y.0.abs().min(y.1.abs());
            if y.0 == y.1 {
                // One divisor k: inside one block of k the remainder is x shifted.
                let k = y.0.abs();
                let (qa, qb) = ((&x.0 / &k).floor(), (&x.1 / &k).floor());
                if qa == qb {
                    return Some((&x.0 - &qa * &k, &x.1 - &qa * &k));
                }
            }
            if !x.0.is_negative() && x.1 < least {
                x
            } else {
                (Rat::zero(), top)
            }
        }
        TExprKind::Isqrt(x) => {
            let a = kid(x)?;
            if a.1.is_negative() {
                return None;
            }
            let r = |v: &Rat| Rat::from_integer(num::isqrt(&v.clone().max(Rat::zero())));
            (r(&a.0), r(&a.1))
        }
        TExprKind::Round { value, mode, grid } => {
            let a = kid(value)?;
            (num::round_to_grid(&a.0, *mode, grid), num::round_to_grid(&a.1, *mode, grid))
        }
        TExprKind::If { then, els, .. } => {
            let (a, b) = (kid(then)?, kid(els)?);
            (a.0.min(b.0), a.1.max(b.1))
        }
        _ => return None,
    })
}

/// The value of `e` with the node at `path` replaced by `inner` (the rest folded under `fixed`).
pub fn eval_at(e: &TExpr, path: &[usize], inner: &Rat, fixed: &dyn Fn(VarId) -> Option<Rat>) -> Option<Rat> {
    let Some((&i, rest)) = path.split_first() else { return Some(inner.clone()) };
    let kids = crate::analysis::scale::children(e);
    let at = |j: usize| -> Option<Rat> {
        if j == i {
            eval_at(kids[j], rest, inner, fixed)
        } else {
            match fold(kids[j], fixed)? {
                Value::Num(n) => Some(n),
                _ => None,
            }
        }
    };
    Some(match &e.kind {
        TExprKind::Neg(_) => -at(0)?,
        TExprKind::Arith(op, ..) => {
            let (a, b) = (at(0)?, at(1)?);
            match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div if b.is_zero() => return None,
                BinOp::Div => a / b,
            }
        }
        TExprKind::Min(xs) => (0..xs.len()).map(at).collect::<Option<Vec<_>>>()?.into_iter().min()?,
        TExprKind::Max(xs) => (0..xs.len()).map(at).collect::<Option<Vec<_>>>()?.into_iter().max()?,
        TExprKind::Round { mode, grid, .. } => num::round_to_grid(&at(0)?, *mode, grid),
        TExprKind::Isqrt(_) => {
            let x = at(0)?;
            if x.is_negative() {
                return None;
            }
            Rat::from_integer(num::isqrt(&x))
        }
        TExprKind::If { .. } => at(i)?,
        _ => return None,
    })
}

/// The grid a linear form's values lie on: every value is `offset + k·step` for a whole k
/// (each variable on its own grid). None when a variable has no known grid.
pub fn lattice(p: &Program, lin: &Lin) -> Option<(Rat, Rat)> {
    let mut step: Option<Rat> = None;
    for (&v, a) in &lin.coeffs {
        if p.vars[v].optional {
            return None;
        }
        let g = var_step(p, v)? * a.abs();
        step = Some(match step {
            None => g,
            Some(s) => rat_gcd(&s, &g),
        });
    }
    let step = step?;
    let offset = &lin.konst - (&lin.konst / &step).floor() * &step;
    Some((step, offset))
}

/// A derived bound: a fact on one variable (`x ≤ at` when `hi`, else `x ≥ at`), strict or not.
#[derive(Clone, Debug)]
struct Bound {
    at: Rat,
    strict: bool,
    why: FactRef,
}

/// The tightest bounds the facts put directly on `v` (facts that speak of `v` alone).
fn direct_bounds(v: VarId, facts: &[Fact], refs: &[FactRef]) -> (Option<Bound>, Option<Bound>) {
    let (mut lo, mut hi): (Option<Bound>, Option<Bound>) = (None, None);
    for (f, r) in facts.iter().zip(refs) {
        if f.lin.coeffs.len() != 1 {
            continue;
        }
        let Some(a) = f.lin.coeffs.get(&v) else { continue };
        // a·v + c ≤ 0
        let at = -&f.lin.konst / a;
        let b = Bound { at, strict: f.strict, why: r.clone() };
        if a.is_positive() {
            if hi.as_ref().is_none_or(|h| b.at < h.at || (b.at == h.at && b.strict && !h.strict)) {
                hi = Some(b);
            }
        } else if lo.as_ref().is_none_or(|l| b.at > l.at || (b.at == l.at && b.strict && !l.strict)) {
            lo = Some(b);
        }
    }
    (lo, hi)
}

/// What the search of one box found.
pub enum Verdict {
    Refuted(Refutation),
    Reachable(Hint),
    Unknown,
}

/// Which values a split takes.
enum Domain {
    Rows { table: usize, rows: Vec<(usize, Rat)> },
    Grid { step: Rat, lo: Box<FactRef>, hi: Box<FactRef>, values: Vec<Rat> },
}

impl TableAnalysis<'_> {
    /// Search box `ranges` by cases (see the module documentation).
    /// Search box `ranges` by cases, from `start` (a producing row's cells, or nothing).
    pub(super) fn theory_search(&mut self, ranges: &[(u32, u32)], start: Case) -> Verdict {
        let active = self.active_defines(ranges);
        if active.is_empty() && start.rows.is_empty() {
            return Verdict::Unknown;
        }
        let mut left = CASES;
        self.search_case(ranges, &active, &start, &mut left)
    }

    /// The nonlinear defines a box bears on: those some column the box limits depends on
    /// (a boolean column at one value, a numeric column short of its whole domain), through
    /// any defines between.
    fn active_defines(&self, ranges: &[(u32, u32)]) -> Vec<usize> {
        let p = self.p;
        let Some(theory) = &self.theory else { return Vec::new() };
        let mut seen = vec![false; p.vars.len()];
        let mut stack: Vec<VarId> = self
            .axes
            .iter()
            .zip(ranges)
            .filter(|(a, &(lo, hi))| lo > 0 || hi as usize + 1 < a.len())
            .map(|(a, _)| a.var)
            .collect();
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            if let Some(Decider::Define(d)) = p.vars[v].decided_by {
                crate::sema::collect_vars(&p.defines[d].expr, &mut stack);
            }
        }
        theory.defines.iter().copied().filter(|&d| seen[p.defines[d].var]).collect()
    }

    fn search_case(&mut self, ranges: &[(u32, u32)], active: &[usize], case: &Case, left: &mut usize) -> Verdict {
        if let Some(var) = self.cells_exclude(ranges, case) {
            return Verdict::Refuted(Refutation::Cells { var });
        }
        let Some((facts, refs)) = self.case_facts(ranges, active, case) else { return Verdict::Unknown };
        let (f2, r2) = (facts.clone(), refs.clone());
        match self.linear(move |_, _, _, _, budget| facts::refute_refs(f2, r2, budget)) {
            Some(Ok(Some(f))) => return Verdict::Refuted(Refutation::Farkas(f)),
            Some(Ok(None)) => {}
            Some(Err(_)) | None => return Verdict::Unknown,
        }
        let split = self.choose_split(active, case, &facts, &refs);
        let hint_facts =
            facts.iter().zip(&refs).filter(|(_, r)| !matches!(r, FactRef::Model(_))).map(|(f, _)| f.clone());
        let hint = Hint { case: case.clone(), facts: hint_facts.collect() };
        // Once every define reads linearly, a point of the box the evaluator confirms settles
        // it; splitting further only makes the rational answer an integer one.
        let linearizing = matches!(split, Some((_, _, true)));
        if !linearizing && (split.is_none() || self.confirmed_in_box(ranges, &hint)) {
            return Verdict::Reachable(hint);
        }
        let Some((var, domain, _)) = split else { unreachable!("no split is handled above") };
        let mut cases = Vec::new();
        let mut unknown = false;
        let values: Vec<(Option<usize>, Rat)> = match &domain {
            Domain::Rows { rows, .. } => rows.iter().map(|(r, x)| (Some(*r), x.clone())).collect(),
            Domain::Grid { values, .. } => values.iter().map(|x| (None, x.clone())).collect(),
        };
        for (row, x) in values {
            if *left == 0 {
                return Verdict::Unknown;
            }
            *left -= 1;
            let mut sub = case.clone();
            sub.fixed.push((var, x.clone()));
            let x_lin = Lin::var(var);
            for hi in [false, true] {
                let lin = if hi { x_lin.sub(&Lin::constant(x.clone())) } else { Lin::constant(x.clone()).sub(&x_lin) };
                let fact = Fact { lin, strict: false };
                let how = Box::new(Derivation::Fixed { var, at: x.clone() });
                sub.facts.push((fact.clone(), FactRef::Derived { fact, how }));
            }
            if let (Some(r), Domain::Rows { table, .. }) = (row, &domain) {
                sub.rows.push((var, r));
                sub.facts.extend(facts::row_cell_facts(self.p, *table, r));
            }
            match self.search_case(ranges, active, &sub, left) {
                Verdict::Refuted(r) => cases.push((x, r)),
                Verdict::Reachable(h) => return Verdict::Reachable(h),
                Verdict::Unknown => unknown = true,
            }
            if self.exhausted {
                return Verdict::Unknown;
            }
        }
        if unknown {
            return Verdict::Unknown;
        }
        let basis = match domain {
            Domain::Rows { table, rows } => {
                super::Basis::Rows { table, rows: rows.into_iter().map(|(r, _)| r).collect() }
            }
            Domain::Grid { step, lo, hi, .. } => super::Basis::Grid { step, lo, hi },
        };
        Verdict::Refuted(Refutation::Split { var, basis: Box::new(basis), cases })
    }

    /// A variable the chosen rows and the box leave no value: a non-numeric input no value
    /// of which every chosen row's cell and the box accept, or a fixed number one of them refuses.
    fn cells_exclude(&self, ranges: &[(u32, u32)], case: &Case) -> Option<VarId> {
        let p = self.p;
        let chosen: Vec<(usize, usize)> = case
            .rows
            .iter()
            .filter_map(|&(v, r)| match p.vars[v].decided_by {
                Some(Decider::Table(d)) => Some((d, r)),
                _ => None,
            })
            .collect();
        let mut vars: Vec<VarId> = case.fixed.iter().map(|(v, _)| *v).collect();
        for &(d, _) in &chosen {
            vars.extend(p.tables[d].conds.iter().copied().filter(|&w| p.vars[w].kind == VarKind::Input));
        }
        vars.sort();
        vars.dedup();
        for w in vars {
            // A fixed number, or every value the cells can tell apart: the finder's
            // candidates hold a value of every stretch between the cuts any table makes.
            let values: Vec<Value> = match case.value(w) {
                Some(x) => vec![Value::Num(x)],
                None => self.finder.candidates_of(w).to_vec(),
            };
            let kept = values.iter().any(|x| {
                let in_box = self.axes.iter().zip(ranges).all(|(a, &(lo, hi))| {
                    a.var != w || a.coord_of(x).is_some_and(|i| i >= lo as usize && i <= hi as usize)
                });
                let in_rows = chosen.iter().all(|&(d, r)| {
                    let t = &p.tables[d];
                    t.conds.iter().zip(&t.rows[r].conds).all(|(&c, cell)| c != w || cell_holds(cell, x))
                });
                in_box && in_rows
            });
            if !kept {
                return Some(w);
            }
        }
        None
    }

    /// Every fact of a case: the box's, the split's, and what the defines say there.
    fn case_facts(&self, ranges: &[(u32, u32)], active: &[usize], case: &Case) -> Option<(Vec<Fact>, Vec<FactRef>)> {
        let p = self.p;
        let (mut facts, mut refs) = self.proof.linear.box_facts(p, self.model, self.axes, ranges);
        for (f, r) in &case.facts {
            facts.push(f.clone());
            refs.push(r.clone());
        }
        let fixed = |v: VarId| case.value(v);
        let push = |facts: &mut Vec<Fact>, refs: &mut Vec<FactRef>, fact: Fact, how: Derivation| {
            facts.push(fact.clone());
            refs.push(FactRef::Derived { fact, how: Box::new(how) });
        };
        // Boolean defines heading a column, read with the case's values.
        for (k, axis) in self.axes.iter().enumerate() {
            let (a, b) = ranges[k];
            let Some(Decider::Define(d)) = p.vars[axis.var].decided_by else { continue };
            if a != b || p.vars[axis.var].ty != Ty::Bool || !active.contains(&d) {
                continue;
            }
            let value = matches!(axis.reps[a as usize], Value::Bool(true));
            for (index, f) in bool_define_facts_with(p, &p.defines[d].expr, value, &fixed).into_iter().enumerate() {
                push(&mut facts, &mut refs, f, Derivation::BoolAt { axis: k, value, index });
            }
        }
        for &d in active {
            let def = &p.defines[d];
            let v = def.var;
            if p.vars[v].ty == Ty::Bool || p.vars[v].optional {
                continue;
            }
            if let Some(l) = linear_with(&def.expr, &fixed) {
                let x = Lin::var(v);
                push(&mut facts, &mut refs, Fact::le(&x, &l, false), Derivation::DefineAt { var: v });
                push(&mut facts, &mut refs, Fact::le(&l, &x, false), Derivation::DefineAt { var: v });
                continue;
            }
            // A monotone function of one linear form: each bound on it bounds the form.
            if let Some(m) = monotone_in(&def.expr, &fixed) {
                if let Some((step, offset)) = lattice(p, &m.inner) {
                    let (lo, hi) = direct_bounds(v, &facts, &refs);
                    for (b, upper) in [(lo, false), (hi, true)] {
                        let Some(b) = b else { continue };
                        let form = self.form_bounds(&m.inner, &facts, &refs, &case.fixed);
                        if let Some(f) = translate(&def.expr, &m, &b, upper, &step, &offset, form, &fixed) {
                            push(
                                &mut facts,
                                &mut refs,
                                f,
                                Derivation::Monotone { var: v, from: b.why.clone(), step: step.clone() },
                            );
                        }
                    }
                }
            }
            // Bounded by interval arithmetic from what it reads.
            let mut reads = Vec::new();
            crate::sema::collect_vars(&def.expr, &mut reads);
            reads.sort();
            reads.dedup();
            let mut given = Vec::new();
            let mut bounds: Vec<(VarId, Iv)> = Vec::new();
            let mut ok = true;
            for &w in &reads {
                if let Some(x) = case.value(w) {
                    bounds.push((w, (x.clone(), x)));
                    continue;
                }
                let (lo, hi) = direct_bounds(w, &facts, &refs);
                match (lo, hi) {
                    (Some(l), Some(h)) => {
                        bounds.push((w, (l.at, h.at)));
                        given.push(l.why);
                        given.push(h.why);
                    }
                    _ => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let bound = |w: VarId| bounds.iter().find(|(x, _)| *x == w).map(|(_, iv)| iv.clone());
            if let Some((lo, hi)) = interval_of(&def.expr, &bound) {
                let x = Lin::var(v);
                let how = Derivation::Interval { var: v, given: given.clone() };
                push(&mut facts, &mut refs, Fact::le(&Lin::constant(lo), &x, false), how.clone());
                push(&mut facts, &mut refs, Fact::le(&x, &Lin::constant(hi), false), how);
            }
        }
        Some((facts, refs))
    }

    /// The bounds of a linear form from the direct bounds of its variables (for the ends
    /// of the search a monotone translation makes).
    fn form_bounds(&self, lin: &Lin, facts: &[Fact], refs: &[FactRef], fixed: &[(VarId, Rat)]) -> Option<Iv> {
        let mut lo = lin.konst.clone();
        let mut hi = lin.konst.clone();
        for (&v, a) in &lin.coeffs {
            let (l, h) = match fixed.iter().find(|(w, _)| *w == v) {
                Some((_, x)) => (x.clone(), x.clone()),
                None => {
                    let (l, h) = direct_bounds(v, facts, refs);
                    (l?.at, h?.at)
                }
            };
            if a.is_positive() {
                lo += a * &l;
                hi += a * &h;
            } else {
                lo += a * &h;
                hi += a * &l;
            }
        }
        Some((lo, hi))
    }

    /// The variable to split a case on, and its values: one a nonlinear define still reads
    /// free, fewest values first (a row of a deciding table, or the grid inside its bounds);
    /// then a value the cells of a row the case takes compare, decided by a table in turn.
    fn choose_split(
        &self,
        active: &[usize],
        case: &Case,
        facts: &[Fact],
        refs: &[FactRef],
    ) -> Option<(VarId, Domain, bool)> {
        let p = self.p;
        let fixed = |v: VarId| case.value(v);
        let mut best: Option<(usize, bool, VarId, Domain)> = None;
        let mut groups: Vec<(bool, Vec<VarId>)> = Vec::new();
        for &d in active {
            let def = &p.defines[d];
            let still_nonlinear = if p.vars[def.var].ty == Ty::Bool {
                !bool_linear_with(p, &def.expr, &fixed)
            } else {
                linear_with(&def.expr, &fixed).is_none()
            };
            let mut reads = Vec::new();
            crate::sema::collect_vars(&def.expr, &mut reads);
            groups.push((still_nonlinear, reads));
        }
        for &(v, _) in &case.rows {
            if let Some(Decider::Table(d)) = p.vars[v].decided_by {
                let upstream = p.tables[d].conds.iter().copied().filter(|&w| constant_results(p, w)).collect();
                groups.push((false, upstream));
            }
        }
        for (still_nonlinear, reads) in groups {
            for w in reads {
                if case.value(w).is_some()
                    || p.vars[w].optional
                    || !(p.vars[w].ty.is_numeric() || p.vars[w].ty == Ty::Date)
                {
                    continue;
                }
                let Some(domain) = self.domain(w, facts, refs) else { continue };
                let n = match &domain {
                    Domain::Rows { rows, .. } => rows.len(),
                    Domain::Grid { values, .. } => values.len(),
                };
                // Splits that make a define linear first, then the fewest values.
                let key = (n, !still_nonlinear);
                if best.as_ref().is_none_or(|b| (key.1, key.0) < (b.1, b.0)) {
                    best = Some((n, !still_nonlinear, w, domain));
                }
            }
        }
        best.map(|(_, settled, w, d)| (w, d, !settled))
    }

    /// Whether the evaluator confirms an input the rule accepts whose values lie in the box,
    /// found from the case.
    fn confirmed_in_box(&self, ranges: &[(u32, u32)], hint: &Hint) -> bool {
        let axes = self.axes;
        let goal = |values: &[Value]| {
            axes.iter()
                .zip(ranges)
                .all(|(a, &(lo, hi))| a.coord_of(&values[a.var]).is_some_and(|i| i >= lo as usize && i <= hi as usize))
        };
        let how = super::witness::Search {
            attempts: 4,
            seed: 0xca5e,
            door: false,
            allowance: &self.search,
            hint: Some(hint),
        };
        self.finder.find(self.t, ranges, &goal, how).is_some()
    }

    /// The values a variable can take in a case, when they are few.
    fn domain(&self, w: VarId, facts: &[Fact], refs: &[FactRef]) -> Option<Domain> {
        let p = self.p;
        if let Some(Decider::Table(d)) = p.vars[w].decided_by {
            if !constant_results(p, w) {
                return None;
            }
            let t = &p.tables[d];
            let col = t.results.iter().position(|&r| r == w)?;
            let rows: Vec<(usize, Rat)> = (0..t.rows.len())
                .filter_map(|r| match &t.rows[r].results[col] {
                    Some(TExpr { kind: TExprKind::Const(c), .. }) => match crate::eval::stored(p, w, c.clone()) {
                        Value::Num(n) => Some((r, n)),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            return (rows.len() <= SPLIT_VALUES).then_some(Domain::Rows { table: d, rows });
        }
        let step = var_step(p, w)?;
        let (lo, hi) = direct_bounds(w, facts, refs);
        let (lo, hi) = (lo?, hi?);
        let first = if lo.strict { (&lo.at / &step).floor() + Rat::one() } else { (&lo.at / &step).ceil() };
        let last = if hi.strict { (&hi.at / &step).ceil() - Rat::one() } else { (&hi.at / &step).floor() };
        if last < first || &last - &first >= Rat::from_integer((SPLIT_VALUES as i64).into()) {
            return None;
        }
        let mut values = Vec::new();
        let mut k = first;
        while k <= last {
            values.push(&k * &step);
            k += Rat::one();
        }
        Some(Domain::Grid { step, lo: Box::new(lo.why), hi: Box::new(hi.why), values })
    }
}

/// Whether a boolean expression compares only linear forms once `fixed` is read.
fn bool_linear_with(p: &Program, e: &TExpr, fixed: &dyn Fn(VarId) -> Option<Rat>) -> bool {
    match &e.kind {
        TExprKind::Cmp(_, a, b) => linear_with(a, fixed).is_some() && linear_with(b, fixed).is_some(),
        TExprKind::Not(x) => bool_linear_with(p, x, fixed),
        TExprKind::And(a, b) | TExprKind::Or(a, b) => bool_linear_with(p, a, fixed) && bool_linear_with(p, b, fixed),
        TExprKind::Var(w) => match p.vars[*w].decided_by {
            Some(Decider::Define(d)) if p.vars[*w].ty == Ty::Bool => bool_linear_with(p, &p.defines[d].expr, fixed),
            _ => true,
        },
        _ => true,
    }
}

/// A bound `b` on `g(L)` (upper when `upper`) as a bound on `L`, found by bisection over
/// L's grid inside `form` (L's own bounds): the last grid point where g still keeps the
/// bound, so the next one past it breaks it. None when every point keeps it (no news).
#[allow(clippy::too_many_arguments)]
fn translate(
    e: &TExpr,
    m: &model::Monotone,
    b: &Bound,
    upper: bool,
    step: &Rat,
    offset: &Rat,
    form: Option<Iv>,
    fixed: &dyn Fn(VarId) -> Option<Rat>,
) -> Option<Fact> {
    let (flo, fhi) = form?;
    let keeps = |l: &Rat| -> Option<bool> {
        let g = eval_at(e, &m.path, l, fixed)?;
        Some(match (upper, b.strict) {
            (true, false) => g <= b.at,
            (true, true) => g < b.at,
            (false, false) => g >= b.at,
            (false, true) => g > b.at,
        })
    };
    // Grid indices of the form's ends: L = offset + k·step.
    let k_lo = ((&flo - offset) / step).ceil();
    let k_hi = ((&fhi - offset) / step).floor();
    if k_lo > k_hi {
        return None;
    }
    let at = |k: &Rat| offset + k * step;
    // Which side of L keeps the bound: g grows with L and the bound is an upper one, or
    // both the other way, means the low side keeps it.
    let low_side = upper == m.increasing;
    let (mut good, mut bad) = if low_side { (k_lo.clone(), k_hi.clone()) } else { (k_hi.clone(), k_lo.clone()) };
    if keeps(&at(&bad))? {
        return None;
    }
    if !keeps(&at(&good))? {
        // No point of the form keeps the bound: L lies past the far end of its own bounds.
        let past = if low_side { &k_lo - Rat::one() } else { &k_hi + Rat::one() };
        return Some(form_fact(&m.inner, &at(&past), low_side));
    }
    // Invariant: good keeps it, bad does not.
    while (&bad - &good).abs() > Rat::one() {
        let mid = ((&good + &bad) / Rat::from_integer(2.into())).floor();
        let mid = if mid == good { &good + if low_side { Rat::one() } else { -Rat::one() } } else { mid };
        if keeps(&at(&mid))? {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Some(form_fact(&m.inner, &at(&good), low_side))
}

/// `L ≤ at` (when `upper`) or `L ≥ at`.
fn form_fact(lin: &Lin, at: &Rat, upper: bool) -> Fact {
    let c = Lin::constant(at.clone());
    if upper {
        Fact::le(lin, &c, false)
    } else {
        Fact::le(&c, lin, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_of_one_block_is_shifted() {
        let iv = |a: i64, b: i64| (num::int(a), num::int(b));
        let x = TExpr { kind: TExprKind::Var(0), ty: Ty::Int, grid: Grid::Step(num::int(1)), span: Default::default() };
        let k = TExpr { kind: TExprKind::Const(Value::Num(num::int(3))), ..x.clone() };
        let m = TExpr {
            kind: TExprKind::Mod(Box::new(x), Box::new(k)),
            ty: Ty::Int,
            grid: Grid::Step(num::int(1)),
            span: Default::default(),
        };
        assert_eq!(interval_of(&m, &|_| Some(iv(3, 5))), Some(iv(0, 2)));
        assert_eq!(interval_of(&m, &|_| Some(iv(4, 5))), Some(iv(1, 2)));
        assert_eq!(interval_of(&m, &|_| Some(iv(2, 4))), Some(iv(0, 3)));
    }
}
