//! The linear facts a table's boxes are judged by: the program's model (declared ranges,
//! constraints, linear defines — `model::build`), restricted to what is connected to the
//! table's columns; the bounds of a box's coordinates on numeric columns; and, for a column
//! headed by a boolean define that compares numbers (`define regular = visits >= 12`), the
//! comparison its coordinate asserts (true ⇒ visits ≥ 12; false ⇒ visits ≤ 11 over the
//! integers of visits' grid).

use super::axes::{var_step, Axis};
use crate::analysis::linear::{self, Fact, Lin, Outcome};
use crate::analysis::model::{comparison_facts, linear_with, Model, Origin};
use crate::analysis::scale::Iv;
use crate::num::Rat;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use num_traits::{One, Signed, Zero};

/// Where a fact of a refutation comes from: what the certificate names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FactRef {
    /// The fact at this index of the program's model (`model::build(p).facts`).
    Model(usize),
    /// The end of a box on a numeric axis: `x ≥ at` (`hi == false`) or `x ≤ at`, strict when `open`.
    Coord { axis: usize, hi: bool, at: Rat, open: bool },
    /// The `index`-th fact that the boolean define heading `axis` asserts when it is `value`.
    BoolDefine { axis: usize, value: bool, index: usize },
    /// A cell of another table's row that must hold for the row to fire: its column's
    /// variable `≥ at` (`hi == false`) or `≤ at`, strict when `open` (the cell is one interval).
    Cell { table: usize, row: usize, column: usize, hi: bool, at: Rat, open: bool },
    /// A fact found on the way, written out, and how it follows ([`Derivation`]).
    Derived { fact: Fact, how: Box<Derivation> },
}

/// How a derived fact follows from the rule and the facts before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Derivation {
    /// A bound of the interval the value analysis proved for a derived variable (over every
    /// input the rule is asked about).
    Proven { var: VarId },
    /// The value a case of a split gives a variable.
    Fixed { var: VarId, at: Rat },
    /// A define that is linear once the case's fixed values are read: `var` against its
    /// expression (the fact says which side).
    DefineAt { var: VarId },
    /// The `index`-th fact the boolean define heading `axis` asserts when it is `value`, the
    /// case's fixed values read.
    BoolAt { axis: usize, value: bool, index: usize },
    /// `var`'s define is a monotone function of a linear form (`model::monotone_in`); the
    /// bound `from` on `var` bounds that form: the next grid point of the form past the
    /// fact's bound takes `var` past `from`'s.
    Monotone { var: VarId, from: FactRef, step: Rat },
    /// The interval of `var`'s define with each variable it reads inside the bounds `given`
    /// (facts on one variable each, or fixed values).
    Interval { var: VarId, given: Vec<FactRef> },
}

/// The linear reasoning ran out of its allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// Non-negative multipliers over facts whose weighted sum is a contradiction (`linear::verify`).
pub type Farkas = Vec<(FactRef, Rat)>;

/// The linear reasoning available to one table.
#[derive(Clone, Debug, Default)]
pub struct LinearSystem {
    /// Indices into the model's facts used for this table (connected to its columns).
    pub model_facts: Vec<usize>,
    /// The variables those facts and the columns speak of (columns first).
    pub vars: Vec<VarId>,
    /// Whether anything relates the columns beyond their own ranges: when not, every box
    /// whose coordinates lie in the declared domains is asked about, with no refutation to try.
    pub linked: bool,
    /// Per axis: the facts a boolean define column asserts for `false` and for `true`.
    pub bool_facts: Vec<Option<[Vec<Fact>; 2]>>,
    /// The bounds the value analysis proved for derived variables these facts speak of,
    /// where they are narrower than what the rule declares.
    pub proven: Vec<(Fact, FactRef)>,
}

/// Whether an axis takes part in linear facts (a numeric column that is never none).
pub fn numeric_axis(p: &Program, axis: &Axis) -> bool {
    let var = &p.vars[axis.var];
    !var.optional && axis.numeric > 0 && axis.numeric == axis.len()
}

impl LinearSystem {
    /// `theory` names more variables the columns depend on (through defines that are not
    /// linear); `known` is every interval the value analysis proved so far.
    pub fn build(p: &Program, model: &Model, axes: &[Axis], theory: &[VarId], known: &[Option<Iv>]) -> LinearSystem {
        let mut sys = LinearSystem::default();
        let mut inset = vec![false; p.vars.len()];
        for &v in theory {
            if !p.vars[v].optional && (p.vars[v].ty.is_numeric() || p.vars[v].ty == Ty::Date) {
                inset[v] = true;
            }
        }
        for axis in axes {
            let mut bf = None;
            if p.vars[axis.var].ty == Ty::Bool {
                if let Some(Decider::Define(d)) = p.vars[axis.var].decided_by {
                    let e = &p.defines[d].expr;
                    let f = [bool_define_facts(p, e, false, 0), bool_define_facts(p, e, true, 0)];
                    if f.iter().any(|x| !x.is_empty()) {
                        for x in f.iter().flatten() {
                            for &v in x.lin.coeffs.keys() {
                                inset[v] = true;
                            }
                        }
                        sys.linked = true;
                        bf = Some(f);
                    }
                }
            }
            sys.bool_facts.push(bf);
            if numeric_axis(p, axis) {
                inset[axis.var] = true;
            }
        }
        let usable: Vec<bool> = model.facts.iter().map(|f| f.lin.coeffs.keys().all(|&v| !p.vars[v].optional)).collect();
        let mut taken = vec![false; model.facts.len()];
        loop {
            let mut grew = false;
            for (i, f) in model.facts.iter().enumerate() {
                if taken[i] || !usable[i] || !f.lin.coeffs.keys().any(|&v| inset[v]) {
                    continue;
                }
                taken[i] = true;
                for &v in f.lin.coeffs.keys() {
                    if !inset[v] {
                        inset[v] = true;
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        sys.model_facts = (0..model.facts.len()).filter(|&i| taken[i]).collect();
        if sys.model_facts.iter().any(|&i| !matches!(model.origins[i], Origin::Range { .. })) {
            sys.linked = true;
        }
        for (v, var) in p.vars.iter().enumerate() {
            if !inset[v] || var.kind == VarKind::Input {
                continue;
            }
            let Some(Some((lo, hi))) = known.get(v) else { continue };
            let declared = match &var.range {
                Some((Value::Num(a), Value::Num(b))) => Some((a, b)),
                _ => None,
            };
            let x = Lin::var(v);
            let mut add = |lin: Lin| {
                let fact = Fact { lin, strict: false };
                sys.proven
                    .push((fact.clone(), FactRef::Derived { fact, how: Box::new(Derivation::Proven { var: v }) }));
            };
            if declared.is_none_or(|(a, _)| lo > a) {
                add(Lin::constant(lo.clone()).sub(&x));
            }
            if declared.is_none_or(|(_, b)| hi < b) {
                add(x.sub(&Lin::constant(hi.clone())));
            }
        }
        if !sys.proven.is_empty() {
            sys.linked = true;
        }
        for axis in axes {
            if inset[axis.var] && !sys.vars.contains(&axis.var) {
                sys.vars.push(axis.var);
            }
        }
        for (v, &i) in inset.iter().enumerate() {
            if i && !sys.vars.contains(&v) {
                sys.vars.push(v);
            }
        }
        sys
    }

    /// The facts of a box (per axis a run of coordinates), with where each comes from.
    pub fn box_facts(
        &self,
        p: &Program,
        model: &Model,
        axes: &[Axis],
        ranges: &[(u32, u32)],
    ) -> (Vec<Fact>, Vec<FactRef>) {
        let mut facts = Vec::new();
        let mut refs = Vec::new();
        for &i in &self.model_facts {
            facts.push(model.facts[i].clone());
            refs.push(FactRef::Model(i));
        }
        for (f, r) in &self.proven {
            facts.push(f.clone());
            refs.push(r.clone());
        }
        for (k, axis) in axes.iter().enumerate() {
            let (a, b) = ranges[k];
            if numeric_axis(p, axis) && self.vars.contains(&axis.var) {
                let x = Lin::var(axis.var);
                if let Some((Some(lo), _)) = axis.coords[a as usize].numeric_bounds() {
                    facts.push(Fact { lin: Lin::constant(lo.at.clone()).sub(&x), strict: lo.open });
                    refs.push(FactRef::Coord { axis: k, hi: false, at: lo.at, open: lo.open });
                }
                if let Some((_, Some(hi))) = axis.coords[b as usize].numeric_bounds() {
                    facts.push(Fact { lin: x.sub(&Lin::constant(hi.at.clone())), strict: hi.open });
                    refs.push(FactRef::Coord { axis: k, hi: true, at: hi.at, open: hi.open });
                }
            }
            if let Some(bf) = &self.bool_facts[k] {
                if a == b {
                    let value = matches!(axis.reps[a as usize], Value::Bool(true));
                    for (index, f) in bf[value as usize].iter().enumerate() {
                        facts.push(f.clone());
                        refs.push(FactRef::BoolDefine { axis: k, value, index });
                    }
                }
            }
        }
        (facts, refs)
    }

    /// Decide whether some rational point of a box satisfies every fact. `Ok(None)`: it
    /// may; `Ok(Some(farkas))`: it cannot, and why; `Err(OutOfBudget)`: the allowance ran out.
    pub fn refute(
        &self,
        p: &Program,
        model: &Model,
        axes: &[Axis],
        ranges: &[(u32, u32)],
        budget: &mut u64,
    ) -> Result<Option<Farkas>, OutOfBudget> {
        let (facts, refs) = self.box_facts(p, model, axes, ranges);
        refute_refs(facts, refs, budget)
    }

    /// [`LinearSystem::refute`] with more facts: every model fact that mentions no optional
    /// variable (not only those connected to the columns), and `extra`.
    pub fn refute_with(
        &self,
        p: &Program,
        model: &Model,
        axes: &[Axis],
        ranges: &[(u32, u32)],
        extra: Vec<(Fact, FactRef)>,
        budget: &mut u64,
    ) -> Result<Option<Farkas>, OutOfBudget> {
        let (mut facts, mut refs) = self.box_facts(p, model, axes, ranges);
        for (i, f) in model.facts.iter().enumerate() {
            if !self.model_facts.contains(&i) && f.lin.coeffs.keys().all(|&v| !p.vars[v].optional) {
                facts.push(f.clone());
                refs.push(FactRef::Model(i));
            }
        }
        for (f, r) in extra {
            facts.push(f);
            refs.push(r);
        }
        refute_refs(facts, refs, budget)
    }
}

/// The bounds a box (per axis a run of coordinates) puts on its numeric columns.
pub fn coord_facts(p: &Program, axes: &[Axis], ranges: &[(u32, u32)]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for (axis, &(a, b)) in axes.iter().zip(ranges) {
        if !numeric_axis(p, axis) {
            continue;
        }
        let x = Lin::var(axis.var);
        if let Some((Some(lo), _)) = axis.coords[a as usize].numeric_bounds() {
            facts.push(Fact { lin: Lin::constant(lo.at).sub(&x), strict: lo.open });
        }
        if let Some((_, Some(hi))) = axis.coords[b as usize].numeric_bounds() {
            facts.push(Fact { lin: x.sub(&Lin::constant(hi.at)), strict: hi.open });
        }
    }
    facts
}

pub fn refute_refs(facts: Vec<Fact>, refs: Vec<FactRef>, budget: &mut u64) -> Result<Option<Farkas>, OutOfBudget> {
    {
        match linear::refute(&facts, budget) {
            Outcome::Infeasible(y) => {
                debug_assert!(linear::verify(&facts, &y));
                Ok(Some(y.into_iter().map(|(i, y)| (refs[i].clone(), y)).collect()))
            }
            Outcome::Feasible => Ok(None),
            Outcome::Unknown => Err(OutOfBudget),
        }
    }
}

/// The facts a row's cells assert on numeric columns that are never none, where the cell is
/// one interval (`>=3 <=9`, `<10`, `5`): what must hold for the row to fire.
pub fn row_cell_facts(p: &Program, table: usize, row: usize) -> Vec<(Fact, FactRef)> {
    let t = &p.tables[table];
    let mut out = Vec::new();
    for (c, cell) in t.rows[row].conds.iter().enumerate() {
        let v = t.conds[c];
        let var = &p.vars[v];
        if var.optional || !(var.ty.is_numeric() || var.ty == Ty::Date) {
            continue;
        }
        let CondIr::Tests { negated: false, tests } = cell else { continue };
        let [test] = tests.as_slice() else { continue };
        let mut ends: Vec<(bool, Rat, bool)> = Vec::new(); // (hi, at, open)
        match test {
            TestIr::Bounds(bs) => {
                for (op, x) in bs {
                    let Value::Num(x) = x else { continue };
                    match op {
                        CmpOp::Ge => ends.push((false, x.clone(), false)),
                        CmpOp::Gt => ends.push((false, x.clone(), true)),
                        CmpOp::Le => ends.push((true, x.clone(), false)),
                        CmpOp::Lt => ends.push((true, x.clone(), true)),
                        CmpOp::Eq => {
                            ends.push((false, x.clone(), false));
                            ends.push((true, x.clone(), false));
                        }
                        CmpOp::Ne => {}
                    }
                }
            }
            TestIr::OneOf(vs) => {
                if let [Value::Num(x)] = vs.as_slice() {
                    ends.push((false, x.clone(), false));
                    ends.push((true, x.clone(), false));
                }
            }
            TestIr::IsNone => {}
        }
        for (hi, at, open) in ends {
            let x = Lin::var(v);
            let lin = if hi { x.sub(&Lin::constant(at.clone())) } else { Lin::constant(at.clone()).sub(&x) };
            out.push((Fact { lin, strict: open }, FactRef::Cell { table, row, column: c, hi, at, open }));
        }
    }
    out
}

fn negate(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
    })
}

/// The facts a boolean expression asserts when it has the value `value` (what is not linear,
/// or is a disjunction, asserts nothing). A comparison of one variable on a grid with a
/// constant is tightened to the grid: `visits < 12` is `visits ≤ 11`.
pub fn bool_define_facts(p: &Program, e: &TExpr, value: bool, depth: usize) -> Vec<Fact> {
    bool_facts_under(p, e, value, depth, &|_| None)
}

/// [`bool_define_facts`] in a case where the variables `fixed` names hold one value each:
/// a comparison that is linear once they are read asserts its fact.
pub fn bool_define_facts_with(p: &Program, e: &TExpr, value: bool, fixed: &dyn Fn(VarId) -> Option<Rat>) -> Vec<Fact> {
    bool_facts_under(p, e, value, 0, fixed)
}

fn bool_facts_under(
    p: &Program,
    e: &TExpr,
    value: bool,
    depth: usize,
    fixed: &dyn Fn(VarId) -> Option<Rat>,
) -> Vec<Fact> {
    if depth > 16 {
        return Vec::new();
    }
    match &e.kind {
        TExprKind::Const(Value::Bool(b)) => {
            if *b == value {
                Vec::new()
            } else {
                vec![Fact { lin: Lin::constant(Rat::one()), strict: false }]
            }
        }
        TExprKind::Cmp(op, a, b) if a.ty.is_numeric() || a.ty == Ty::Date => {
            let op = if value { Some(*op) } else { negate(*op) };
            let (Some(op), Some(la), Some(lb)) = (op, linear_with(a, fixed), linear_with(b, fixed)) else {
                return Vec::new();
            };
            comparison_facts(op, &la, &lb).unwrap_or_default().into_iter().map(|f| tighten(p, f)).collect()
        }
        TExprKind::Not(x) => bool_facts_under(p, x, !value, depth + 1, fixed),
        TExprKind::And(x, y) if value => {
            let mut f = bool_facts_under(p, x, true, depth + 1, fixed);
            f.extend(bool_facts_under(p, y, true, depth + 1, fixed));
            f
        }
        TExprKind::Or(x, y) if !value => {
            let mut f = bool_facts_under(p, x, false, depth + 1, fixed);
            f.extend(bool_facts_under(p, y, false, depth + 1, fixed));
            f
        }
        TExprKind::Var(w) => match p.vars[*w].decided_by {
            Some(Decider::Define(d)) if p.vars[*w].ty == Ty::Bool => {
                bool_facts_under(p, &p.defines[d].expr, value, depth + 1, fixed)
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// `c·x + k ≤ 0` (or `< 0`) with x on a grid of step s: the tightest non-strict form.
fn tighten(p: &Program, f: Fact) -> Fact {
    if f.lin.coeffs.len() != 1 {
        return f;
    }
    let (&v, c) = f.lin.coeffs.iter().next().unwrap();
    let Some(s) = var_step(p, v) else { return f };
    if p.vars[v].optional {
        return f;
    }
    let bound = -&f.lin.konst / c; // x ≤ bound (c > 0) or x ≥ bound (c < 0)
    let q = &bound / &s;
    if c.is_positive() {
        let k = if f.strict { q.ceil() - Rat::one() } else { q.floor() };
        Fact { lin: Lin::var(v).sub(&Lin::constant(k * &s)), strict: false }
    } else if c.is_negative() {
        let k = if f.strict { q.floor() + Rat::one() } else { q.ceil() };
        Fact { lin: Lin::constant(k * &s).sub(&Lin::var(v)), strict: false }
    } else {
        debug_assert!(c.is_zero());
        f
    }
}
