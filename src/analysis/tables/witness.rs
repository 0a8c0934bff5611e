//! Finding concrete inputs for a box of a table, and confirming them through the door and
//! the reference evaluator. A witness the analysis reports is always one of these: an
//! input the rule accepts (`wire::read_inputs`) on which the evaluator really does what the
//! diagnostic says.
//!
//! The search works backwards from the box: a derived column decided by a table becomes
//! the cells of a row of that table that produces the wanted value; a column decided by a
//! linear define, or a boolean define that compares numbers, becomes linear facts. Inputs
//! that take part in linear facts (constraints, defines) are fixed one at a time inside the
//! bounds Fourier–Motzkin gives for them; every other input takes the first candidate
//! value its cells accept. Later attempts vary the choices with a fixed-seed generator.

use super::axes::{grid_point_in, other_string, var_step, Axis};
use super::case::Hint;
use super::facts::bool_define_facts;
use crate::analysis::linear::{self, Fact, Lin};
use crate::analysis::model::{Model, Origin};
use crate::eval::{self, cell_holds, wire};
use crate::num::Rat;
use crate::sema::*;
use num_traits::{Signed, Zero};
use serde_json::{Map, Value as Json};
use std::sync::Arc;

/// A small deterministic generator (splitmix64).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// One end of an interval: the value and whether it is excluded; none when unbounded.
type Bound = Option<(Rat, bool)>;

/// What a variable must satisfy.
#[derive(Clone, Debug)]
enum Pred<'a> {
    /// Its value lies in coordinates `[first, last]` of an axis.
    Coords(&'a Axis, u32, u32),
    /// A cell holds on it.
    Cell(&'a CondIr),
    /// It is this value (the case a search by cases left open fixes it).
    Is(Value),
}

impl Pred<'_> {
    fn holds(&self, v: &Value) -> bool {
        match self {
            Pred::Coords(axis, a, b) => axis.coord_of(v).is_some_and(|i| (*a as usize..=*b as usize).contains(&i)),
            Pred::Cell(c) => cell_holds(c, v),
            Pred::Is(x) => v == x,
        }
    }
    /// The interval of numbers the predicate keeps, when it is one interval of a non-optional number.
    fn interval(&self) -> Option<(Bound, Bound)> {
        match self {
            Pred::Coords(axis, a, b) => {
                let (a, b) = (*a as usize, *b as usize);
                if b >= axis.numeric {
                    return None;
                }
                let (lo, _) = axis.coords[a].numeric_bounds()?;
                let (_, hi) = axis.coords[b].numeric_bounds()?;
                Some((lo.map(|e| (e.at, e.open)), hi.map(|e| (e.at, e.open))))
            }
            Pred::Is(Value::Num(x)) => Some((Some((x.clone(), false)), Some((x.clone(), false)))),
            Pred::Cell(CondIr::Tests { negated: false, tests }) if tests.len() == 1 => match &tests[0] {
                TestIr::Bounds(bs) => {
                    let (mut lo, mut hi) = (None, None);
                    for (op, x) in bs {
                        let Value::Num(x) = x else { return None };
                        use crate::syntax::ast::CmpOp::*;
                        match op {
                            Ge => lo = Some((x.clone(), false)),
                            Gt => lo = Some((x.clone(), true)),
                            Le => hi = Some((x.clone(), false)),
                            Lt => hi = Some((x.clone(), true)),
                            _ => return None,
                        }
                    }
                    Some((lo, hi))
                }
                TestIr::OneOf(vs) if vs.len() == 1 => match &vs[0] {
                    Value::Num(x) => Some((Some((x.clone(), false)), Some((x.clone(), false)))),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
    /// The single boolean the predicate keeps, if it keeps exactly one.
    fn single_bool(&self) -> Option<bool> {
        let keeps: Vec<bool> = [false, true].into_iter().filter(|b| self.holds(&Value::Bool(*b))).collect();
        (keeps.len() == 1).then(|| keeps[0])
    }
}

/// How hard to look for a witness, and how to confirm it.
#[derive(Clone, Copy)]
pub struct Search<'c> {
    /// Attempts at most; each is also taken from `allowance` (the table's).
    pub attempts: usize,
    /// Seeds the choices of attempts after the first.
    pub seed: u64,
    /// Read the inputs as JSON through `wire::read_inputs`; else check them with
    /// [`Finder::confirm_typed`].
    pub door: bool,
    pub allowance: &'c std::cell::Cell<usize>,
    /// The case a search by cases found the box may be reached in: its fixed values, the
    /// rows it takes and its linear facts guide the choices.
    pub hint: Option<&'c Hint>,
}

/// A confirmed witness: the inputs (in `p.inputs` order) and every value the table read.
#[derive(Clone, Debug)]
pub struct Found {
    pub inputs: Vec<Value>,
    pub values: Vec<Value>,
}

pub struct Finder<'a> {
    p: &'a Program,
    /// Per table, its axes.
    axes: &'a [Arc<Vec<Axis>>],
    model: &'a Model,
    /// Per variable, the values worth trying for an input (empty for the others).
    /// (Found when first asked for: a table of many rows cuts its inputs many times.)
    cands: Vec<std::cell::OnceCell<Vec<Value>>>,
    /// Model facts that mention no optional variable (the others hold only when it is present).
    usable: Vec<bool>,
    /// Per table, the variables it reads (`eval::needed_vars`).
    needed: Vec<Vec<bool>>,
    /// The variables some table or define decides, the latest decided first.
    derived: Vec<VarId>,
    /// The variables the constraints relate, and every model fact connected to them.
    base_linked: Vec<bool>,
    base_facts: Vec<Fact>,
}

fn fact_vars(f: &Fact) -> impl Iterator<Item = usize> + '_ {
    f.lin.coeffs.keys().copied()
}

impl<'a> Finder<'a> {
    pub fn new(p: &'a Program, axes: &'a [Arc<Vec<Axis>>], model: &'a Model) -> Finder<'a> {
        let usable: Vec<bool> = model.facts.iter().map(|f| fact_vars(f).all(|v| !p.vars[v].optional)).collect();
        let cands = (0..p.vars.len()).map(|_| std::cell::OnceCell::new()).collect();
        let needed = (0..p.tables.len()).map(|t| eval::needed_vars(p, t)).collect();
        let mut derived: Vec<VarId> = Vec::new();
        for step in p.order.iter().rev() {
            match *step {
                Step::Table(t) => derived.extend(p.tables[t].results.iter().copied()),
                Step::Define(d) => derived.push(p.defines[d].var),
                Step::Walk(_) => {}
            }
        }
        let mut f =
            Finder { p, axes, model, cands, usable, needed, derived, base_linked: Vec::new(), base_facts: Vec::new() };
        let (linked, facts) = f.connected(&[]);
        f.base_linked = linked;
        f.base_facts = facts;
        f
    }

    /// The variables linked to `facts` and to the constraints, and the model facts
    /// connected to them.
    fn connected(&self, facts: &[Fact]) -> (Vec<bool>, Vec<Fact>) {
        let mut linked = vec![false; self.p.vars.len()];
        for f in facts {
            for v in fact_vars(f) {
                linked[v] = true;
            }
        }
        for (i, f) in self.model.facts.iter().enumerate() {
            if self.usable[i] && matches!(self.model.origins[i], Origin::Constraint(_)) {
                for v in fact_vars(f) {
                    linked[v] = true;
                }
            }
        }
        let mut model_facts: Vec<Fact> = Vec::new();
        let mut taken = vec![false; self.model.facts.len()];
        loop {
            let mut grew = false;
            for (i, f) in self.model.facts.iter().enumerate() {
                if taken[i] || !self.usable[i] || !fact_vars(f).any(|v| linked[v]) {
                    continue;
                }
                taken[i] = true;
                model_facts.push(f.clone());
                for v in fact_vars(f) {
                    if !linked[v] {
                        linked[v] = true;
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        (linked, model_facts)
    }

    /// Look for inputs whose values put table `t`'s columns in `ranges` and satisfy `goal`
    /// (given every value table `t` reads), as [`Search`] says.
    pub fn find(
        &self,
        t: usize,
        ranges: &[(u32, u32)],
        goal: &dyn Fn(&[Value]) -> bool,
        how: Search<'_>,
    ) -> Option<Found> {
        let Search { attempts, seed, door, allowance, hint } = how;
        let mut rng = SplitMix(seed ^ (t as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        for attempt in 0..attempts {
            if allowance.get() == 0 {
                return None;
            }
            allowance.set(allowance.get() - 1);
            let Some(inputs) = self.attempt(t, ranges, attempt, &mut rng, hint) else { continue };
            let values = if door { self.confirm(t, &inputs) } else { self.confirm_typed(t, &inputs) };
            if let Some(values) = values {
                if goal(&values) {
                    return Some(Found { inputs, values });
                }
            }
        }
        None
    }

    /// The values worth trying for input `v`: every end of its range and of every coordinate
    /// any table cuts it into (so one value of each stretch the cells tell apart), none for
    /// an optional.
    pub fn candidates_of(&self, v: VarId) -> &[Value] {
        if !self.p.inputs.contains(&v) {
            return &[];
        }
        self.cands[v].get_or_init(|| candidates(self.p, self.axes, self.model, v))
    }

    /// Read the inputs through the door and evaluate what table `t` reads.
    pub fn confirm(&self, t: usize, inputs: &[Value]) -> Option<Vec<Value>> {
        let obj = self.wire_inputs(inputs);
        let read = wire::read_inputs(self.p, &obj).ok()?;
        eval::values_needed(self.p, &read, t, &self.needed[t]).ok()
    }

    /// [`Finder::confirm`] without the JSON: the door's checks on values already typed
    /// (each in its declared range, every constraint holding), then the evaluator. Used for
    /// the reach point of every row, where the JSON round trip would dominate.
    pub fn confirm_typed(&self, t: usize, inputs: &[Value]) -> Option<Vec<Value>> {
        let p = self.p;
        let mut values = vec![Value::None; p.vars.len()];
        for (&v, x) in p.inputs.iter().zip(inputs) {
            let var = &p.vars[v];
            if *x == Value::None {
                if !var.optional {
                    return None;
                }
            } else if let Some((lo, hi)) = &var.range {
                if x < lo || x > hi {
                    return None;
                }
            }
            values[v] = x.clone();
        }
        for c in &p.constraints {
            if eval::eval_expr(&c.expr, &values) == Ok(Value::Bool(false)) {
                return None;
            }
        }
        eval::values_needed(p, inputs, t, &self.needed[t]).ok()
    }

    /// The inputs as the wire writes them (declaration order, null for none).
    pub fn wire_inputs(&self, inputs: &[Value]) -> Json {
        let mut m = Map::new();
        for (&v, x) in self.p.inputs.iter().zip(inputs) {
            m.insert(self.p.vars[v].name.clone(), wire::to_wire(self.p, &self.p.vars[v], x));
        }
        Json::Object(m)
    }

    fn attempt(
        &self,
        t: usize,
        ranges: &[(u32, u32)],
        attempt: usize,
        rng: &mut SplitMix,
        hint: Option<&Hint>,
    ) -> Option<Vec<Value>> {
        let p = self.p;
        let mut preds: Vec<Vec<Pred<'a>>> = vec![Vec::new(); p.vars.len()];
        let mut facts: Vec<Fact> = Vec::new();
        // What the case fixes is required; the rows it takes are the producers chosen.
        if let Some(h) = hint {
            for (v, x) in &h.case.fixed {
                preds[*v].push(Pred::Is(Value::Num(x.clone())));
            }
            facts.extend(h.facts.iter().cloned());
        }
        let hinted = |v: VarId| hint.is_some_and(|h| h.facts.iter().any(|f| f.lin.coeffs.contains_key(&v)));
        let chosen_row = |v: VarId| hint.and_then(|h| h.case.rows.iter().find(|(w, _)| *w == v).map(|(_, r)| *r));
        for (k, axis) in self.axes[t].iter().enumerate() {
            let (a, b) = ranges[k];
            if a == 0 && b as usize + 1 == axis.len() && !axis.produced {
                continue;
            }
            preds[axis.var].push(Pred::Coords(axis, a, b));
        }
        // Derived values, latest decided first: by the time one is expanded, every
        // requirement on it is known (expanding one only adds requirements on what it reads).
        for &v in &self.derived {
            if preds[v].is_empty() {
                continue;
            }
            let var = &p.vars[v];
            let holds = |x: &Value| preds[v].iter().all(|pr| pr.holds(x));
            match var.decided_by {
                Some(Decider::Table(d)) if !p.tables[d].policy.multi_hit() => {
                    let table = &p.tables[d];
                    let col = table.results.iter().position(|&r| r == v)?;
                    // Rows that produce a wanted value and whose cells on inputs leave some
                    // candidate the requirements on those inputs accept.
                    let fits = |r: usize| {
                        table.rows[r].conds.iter().zip(&table.conds).all(|(cell, &w)| {
                            let pinned = preds[w].iter().filter_map(|pr| match pr {
                                Pred::Is(x) => Some(x),
                                _ => None,
                            });
                            matches!(cell, CondIr::Any)
                                || p.vars[w].kind != VarKind::Input
                                || self
                                    .candidates_of(w)
                                    .iter()
                                    .chain(pinned)
                                    .any(|x| cell_holds(cell, x) && preds[w].iter().all(|pr| pr.holds(x)))
                        })
                    };
                    let producers: Vec<usize> = (0..table.rows.len())
                        .filter(|&r| match &table.rows[r].results[col] {
                            None => holds(&Value::None),
                            Some(TExpr { kind: TExprKind::Const(c), .. }) => holds(&eval::stored(p, v, c.clone())),
                            Some(_) => true,
                        })
                        .filter(|&r| fits(r))
                        .collect();
                    if producers.is_empty() {
                        return None;
                    }
                    let r = match chosen_row(v) {
                        Some(r) if producers.contains(&r) => r,
                        _ if attempt == 0 => producers[0],
                        _ => producers[rng.below(producers.len())],
                    };
                    for (c, cell) in table.rows[r].conds.iter().enumerate() {
                        if !matches!(cell, CondIr::Any) {
                            preds[table.conds[c]].push(Pred::Cell(cell));
                        }
                    }
                }
                Some(Decider::Define(d)) => {
                    let expr = &p.defines[d].expr;
                    for pred in preds[v].clone() {
                        if var.ty == Ty::Bool {
                            if let Some(b) = pred.single_bool() {
                                facts.extend(bool_define_facts(p, expr, b, 0));
                            }
                        } else if !var.optional && (self.has_define_facts(v) || hinted(v)) {
                            if let Some((lo, hi)) = pred.interval() {
                                if let Some((x, open)) = lo {
                                    facts.push(Fact { lin: Lin::constant(x).sub(&Lin::var(v)), strict: open });
                                }
                                if let Some((x, open)) = hi {
                                    facts.push(Fact { lin: Lin::var(v).sub(&Lin::constant(x)), strict: open });
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // Which model facts bear on the choice: those connected to the facts gathered, and the
        // constraints between inputs.
        let (linked, mut system) =
            if facts.is_empty() { (self.base_linked.clone(), self.base_facts.clone()) } else { self.connected(&facts) };
        system.extend(facts);
        // Cells on a linked numeric input that are one interval are facts too.
        for &v in &p.inputs {
            if linked[v] && !p.vars[v].optional {
                for pr in &preds[v] {
                    if let Some((lo, hi)) = pr.interval() {
                        if let Some((x, open)) = lo {
                            system.push(Fact { lin: Lin::constant(x).sub(&Lin::var(v)), strict: open });
                        }
                        if let Some((x, open)) = hi {
                            system.push(Fact { lin: Lin::var(v).sub(&Lin::constant(x)), strict: open });
                        }
                    }
                }
            }
        }
        let mut inputs = Vec::with_capacity(p.inputs.len());
        for &v in &p.inputs {
            let var = &p.vars[v];
            let ok = |x: &Value| preds[v].iter().all(|pr| pr.holds(x));
            let numeric_linked = linked[v] && !var.optional && (var.ty.is_numeric() || var.ty == Ty::Date);
            let (lo, hi) = if numeric_linked {
                // The first attempts bound the input by interval propagation (cheap, may be
                // loose); later ones by Fourier–Motzkin projection (exact over the rationals).
                let (lo, hi) = if attempt < PROPAGATED {
                    propagate(&system, v)?
                } else {
                    let mut budget = 20_000;
                    linear::bounds(&system, &Lin::var(v), &mut budget)
                };
                if let (Some(l), Some(h)) = (&lo, &hi) {
                    if l > h {
                        return None;
                    }
                }
                (lo, hi)
            } else {
                (None, None)
            };
            let within = |x: &Value| match x {
                Value::Num(n) => lo.as_ref().is_none_or(|l| n >= l) && hi.as_ref().is_none_or(|h| n <= h),
                _ => true,
            };
            // Hints first: the ends of the coordinates the box asks for.
            let mut hints: Vec<Value> = Vec::new();
            for pr in &preds[v] {
                if let Pred::Is(x) = pr {
                    hints.insert(0, x.clone());
                }
                if let Pred::Coords(axis, a, b) = pr {
                    hints.push(axis.reps[*a as usize].clone());
                    if let Some((_, Some(e))) = axis.coords[*b as usize].numeric_bounds() {
                        hints.push(Value::Num(e.at));
                    }
                }
            }
            if attempt == 0 {
                if let Some(x) = hints.iter().find(|x| ok(x) && within(x)) {
                    let x = x.clone();
                    if numeric_linked && !pin(&mut system, v, &x) {
                        return None;
                    }
                    inputs.push(x);
                    continue;
                }
            }
            let mut list: Vec<Value> = hints;
            list.extend(self.candidates_of(v).iter().cloned());
            if numeric_linked {
                // The bounds themselves, on the grid.
                if let Some(s) = var_step(p, v) {
                    list.extend(grid_point_in(lo.as_ref(), hi.as_ref(), &s).map(Value::Num));
                    let top = hi.as_ref().map(|h| (h / &s).floor() * &s);
                    list.extend(top.filter(|x| lo.as_ref().is_none_or(|l| x >= l)).map(Value::Num));
                }
            }
            let good: Vec<Value> = list.into_iter().filter(|x| ok(x) && within(x)).collect();
            if good.is_empty() {
                return None;
            }
            let chosen = if attempt == 0 { good[0].clone() } else { good[rng.below(good.len())].clone() };
            if numeric_linked && !pin(&mut system, v, &chosen) {
                return None;
            }
            inputs.push(chosen);
        }
        Some(inputs)
    }

    fn has_define_facts(&self, v: VarId) -> bool {
        self.model.origins.iter().any(|o| matches!(o, Origin::Define { var, .. } if *var == v))
    }
}

/// Attempts that bound linked inputs by interval propagation before Fourier–Motzkin.
const PROPAGATED: usize = 2;

/// Fix `v = x` in the facts: substitute it; false when a fact no longer holds.
fn pin(system: &mut Vec<Fact>, v: VarId, x: &Value) -> bool {
    let Value::Num(n) = x else { return true };
    let mut ok = true;
    system.retain_mut(|f| {
        if let Some(a) = f.lin.coeffs.remove(&v) {
            f.lin.konst += a * n;
        }
        if f.lin.is_constant() {
            let c = &f.lin.konst;
            if c.is_positive() || (c.is_zero() && f.strict) {
                ok = false;
            }
            return false;
        }
        true
    });
    ok
}

/// Bounds of `v` under the facts by interval propagation (each fact bounds each of its
/// variables by the others' bounds, a few rounds): sound, not always tight. `None` when
/// the facts are found contradictory. Facts are scaled to integer coefficients and the
/// arithmetic is done in i128, rounding every bound outward (a relaxation, so still sound);
/// a fact that does not fit leaves its variables unbounded by it.
fn propagate(facts: &[Fact], v: VarId) -> Option<(Option<Rat>, Option<Rat>)> {
    use std::collections::BTreeMap;
    let ints: Vec<(Vec<(usize, i128)>, i128)> = facts.iter().filter_map(int_form).collect();
    let mut iv: BTreeMap<usize, (Option<i128>, Option<i128>)> = BTreeMap::new();
    for (coeffs, _) in &ints {
        for &(x, _) in coeffs {
            iv.entry(x).or_insert((None, None));
        }
    }
    for _ in 0..16 {
        let mut changed = false;
        for (coeffs, konst) in &ints {
            // Σ aᵢ·xᵢ + c ≤ 0: the least each term can be.
            let mut unbounded = 0;
            let mut total: Option<i128> = Some(*konst);
            let mins: Vec<Option<i128>> = coeffs
                .iter()
                .map(|&(x, a)| {
                    let (lo, hi) = iv[&x];
                    let m = if a > 0 { lo.and_then(|l| a.checked_mul(l)) } else { hi.and_then(|h| a.checked_mul(h)) };
                    match m {
                        Some(m) => total = total.and_then(|t| t.checked_add(m)),
                        None => unbounded += 1,
                    }
                    m
                })
                .collect();
            let Some(total) = total else { continue };
            for (&(x, a), m) in coeffs.iter().zip(&mins) {
                // a·x ≤ -(total - m)
                let rest = match (m, unbounded) {
                    (Some(m), 0) => total - m,
                    (None, 1) => total,
                    _ => continue,
                };
                let e = iv.get_mut(&x).unwrap();
                if a > 0 {
                    // x ≤ -rest / a, rounded outward (up).
                    let bound = (-rest).div_euclid(a) + i128::from((-rest).rem_euclid(a) != 0);
                    if e.1.is_none_or(|h| bound < h) {
                        e.1 = Some(bound);
                        changed = true;
                    }
                } else {
                    // a < 0: x ≥ rest / (-a), rounded outward (down).
                    let bound = rest.div_euclid(-a);
                    if e.0.is_none_or(|l| bound > l) {
                        e.0 = Some(bound);
                        changed = true;
                    }
                }
                if let (Some(l), Some(h)) = iv[&x] {
                    if l > h {
                        return None;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let (lo, hi) = iv.remove(&v).unwrap_or((None, None));
    let r = |x: i128| Rat::from_integer(x.into());
    Some((lo.map(r), hi.map(r)))
}

/// A fact with integer coefficients (scaled by the common denominator), when it fits i128.
fn int_form(f: &Fact) -> Option<(Vec<(usize, i128)>, i128)> {
    use num_integer::Integer;
    let mut den = f.lin.konst.denom().clone();
    for a in f.lin.coeffs.values() {
        den = den.lcm(a.denom());
    }
    let d = Rat::from_integer(den);
    let conv = |x: &Rat| -> Option<i128> { i128::try_from((x * &d).to_integer()).ok() };
    let coeffs: Option<Vec<(usize, i128)>> = f.lin.coeffs.iter().map(|(&x, a)| Some((x, conv(a)?))).collect();
    Some((coeffs?, conv(&f.lin.konst)?))
}

/// The values worth trying for one input: the ends of its declared range, every cut any
/// table makes on it (both sides), the numbers its constraints and boolean defines name.
fn candidates(p: &Program, axes: &[Arc<Vec<Axis>>], model: &Model, v: VarId) -> Vec<Value> {
    let var = &p.vars[v];
    let mut out: Vec<Value> = Vec::new();
    match &var.ty {
        Ty::Bool => out.extend([Value::Bool(false), Value::Bool(true)]),
        Ty::Enum(e) => {
            let n = p.enums[*e].values.len() as u32;
            let (lo, hi) = match &var.range {
                Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                _ => (0, n.saturating_sub(1)),
            };
            out.extend((lo..=hi.min(n.saturating_sub(1))).filter(|_| n > 0).map(Value::Enum));
        }
        Ty::Str => {
            let mut named: Vec<String> = Vec::new();
            for table in axes {
                for axis in table.iter().filter(|a| a.var == v) {
                    for r in &axis.reps {
                        if let Value::Str(s) = r {
                            if !named.contains(s) {
                                named.push(s.clone());
                            }
                        }
                    }
                }
            }
            let other = other_string(&named);
            out.extend(named.into_iter().map(Value::Str));
            out.push(Value::Str(other));
        }
        _ => {
            let step = var_step(p, v).unwrap_or_else(|| var.ty.factor());
            let (lo, hi) = match &var.range {
                Some((Value::Num(lo), Value::Num(hi))) => (Some(lo.clone()), Some(hi.clone())),
                _ => (None, None),
            };
            let mut nums: Vec<Rat> = Vec::new();
            nums.extend(lo.iter().cloned());
            nums.extend(hi.iter().cloned());
            for table in axes {
                for axis in table.iter().filter(|a| a.var == v) {
                    for c in &axis.coords {
                        if let Some((a, b)) = c.numeric_bounds() {
                            nums.extend(a.map(|e| e.at));
                            nums.extend(b.map(|e| e.at));
                        }
                    }
                }
            }
            for f in &model.facts {
                if f.lin.coeffs.len() == 1 {
                    if let Some(a) = f.lin.coeffs.get(&v) {
                        let x = -&f.lin.konst / a;
                        nums.push(x.clone() - &step);
                        nums.push(x.clone());
                        nums.push(x + &step);
                    }
                }
            }
            for d in &p.defines {
                if p.vars[d.var].ty == Ty::Bool {
                    let mut found = Vec::new();
                    compared_constants(&d.expr, v, &mut found);
                    for x in found {
                        nums.push(x.clone() - &step);
                        nums.push(x.clone());
                        nums.push(x + &step);
                    }
                }
            }
            nums.push(Rat::zero());
            let mut snapped: Vec<Rat> = Vec::new();
            for x in nums {
                let k = &x / &step;
                snapped.push(k.floor() * &step);
                snapped.push(k.ceil() * &step);
            }
            snapped.retain(|x| lo.as_ref().is_none_or(|l| x >= l) && hi.as_ref().is_none_or(|h| x <= h));
            snapped.sort();
            snapped.dedup();
            out.extend(snapped.into_iter().map(Value::Num));
        }
    }
    if var.optional {
        out.push(Value::None);
    }
    out
}

/// Constants a boolean expression compares variable `v` with (`v >= 12` gives 12).
fn compared_constants(e: &TExpr, v: VarId, out: &mut Vec<Rat>) {
    match &e.kind {
        TExprKind::Cmp(_, a, b) => {
            for (x, y) in [(a, b), (b, a)] {
                if let (TExprKind::Var(w), TExprKind::Const(Value::Num(c))) = (&x.kind, &y.kind) {
                    if *w == v {
                        out.push(c.clone());
                    }
                }
            }
        }
        TExprKind::And(a, b) | TExprKind::Or(a, b) => {
            compared_constants(a, v, out);
            compared_constants(b, v, out);
        }
        TExprKind::Not(a) => compared_constants(a, v, out),
        _ => {}
    }
}
