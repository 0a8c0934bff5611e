//! The linear model of a program: what is known, as linear facts over the program's
//! variables (a variable's index in the model is its `VarId`), before any table is read.
//! Declared input ranges, the constraints that are linear comparisons, the defines that are
//! linear in what they read, and the declared ranges of derived values (which E107 proves).

use super::linear::{Fact, Lin};
use crate::num::Rat;
use crate::sema::*;
use crate::syntax::ast::{BinOp, CmpOp};
use num_traits::{One, Zero};

/// Why a fact is in the model (what the certificate names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The low (`hi == false`) or high end of a declared range.
    Range { var: VarId, hi: bool },
    /// The n-th constraint of the rule (a conjunct of it).
    Constraint(usize),
    /// `var ≤ expr` (`le`) or `var ≥ expr` of a linear define.
    Define { var: VarId, le: bool },
}

#[derive(Clone, Debug, Default)]
pub struct Model {
    pub facts: Vec<Fact>,
    pub origins: Vec<Origin>,
}

impl Model {
    fn push(&mut self, f: Fact, o: Origin) {
        self.facts.push(f);
        self.origins.push(o);
    }
}

/// The linear form of an expression over the program's variables, when it has one.
pub fn linear_of(e: &TExpr) -> Option<Lin> {
    linear_with(e, &|_| None)
}

/// The linear form of an expression in which the variables `fixed` names hold one value
/// each (a case of a split): those are constants, and every part of the expression whose
/// operands are all constants is folded to its value.
pub fn linear_with(e: &TExpr, fixed: &dyn Fn(VarId) -> Option<Rat>) -> Option<Lin> {
    if let Some(c) = fold(e, fixed) {
        return match c {
            Value::Num(n) => Some(Lin::constant(n)),
            _ => None,
        };
    }
    match &e.kind {
        TExprKind::Var(v) => Some(Lin::var(*v)),
        TExprKind::Neg(x) => Some(linear_with(x, fixed)?.scale(&-Rat::one())),
        TExprKind::Arith(op, a, b) => {
            let (la, lb) = (linear_with(a, fixed)?, linear_with(b, fixed)?);
            match op {
                BinOp::Add => Some(la.add(&lb)),
                BinOp::Sub => Some(la.sub(&lb)),
                BinOp::Mul if la.is_constant() => Some(lb.scale(&la.konst)),
                BinOp::Mul if lb.is_constant() => Some(la.scale(&lb.konst)),
                BinOp::Div if lb.is_constant() && !lb.konst.is_zero() => Some(la.scale(&(Rat::one() / &lb.konst))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An expression that is a monotone function of one linear form `L` it contains: every
/// node from the root down to `L` reads `L` through one child, every other child is a
/// constant (under `fixed`), and the node is monotone in that child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monotone {
    /// Child positions (`scale::children` order) from the root down to `L`.
    pub path: Vec<usize>,
    pub inner: Lin,
    /// Whether the expression grows with `L` (else it shrinks).
    pub increasing: bool,
}

/// The monotone form of an expression, when it has one (see [`Monotone`]).
pub fn monotone_in(e: &TExpr, fixed: &dyn Fn(VarId) -> Option<Rat>) -> Option<Monotone> {
    if let Some(l) = linear_with(e, fixed) {
        return (!l.is_constant()).then_some(Monotone { path: Vec::new(), inner: l, increasing: true });
    }
    let is_const = |x: &TExpr| fold(x, fixed).is_some();
    let num = |x: &TExpr| match fold(x, fixed) {
        Some(Value::Num(n)) => Some(n),
        _ => None,
    };
    let down = |i: usize, x: &TExpr, flip: bool| {
        let mut m = monotone_in(x, fixed)?;
        m.path.insert(0, i);
        m.increasing ^= flip;
        Some(m)
    };
    match &e.kind {
        TExprKind::Neg(x) => down(0, x, true),
        TExprKind::Arith(op, a, b) => match (op, num(a), num(b)) {
            (BinOp::Add, Some(_), None) => down(1, b, false),
            (BinOp::Add | BinOp::Sub, None, Some(_)) => down(0, a, false),
            (BinOp::Sub, Some(_), None) => down(1, b, true),
            (BinOp::Mul, Some(c), None) if !c.is_zero() => down(1, b, c < Rat::zero()),
            (BinOp::Mul | BinOp::Div, None, Some(c)) if !c.is_zero() => down(0, a, c < Rat::zero()),
            _ => None,
        },
        TExprKind::Min(xs) | TExprKind::Max(xs) => {
            let free: Vec<usize> = (0..xs.len()).filter(|&i| !is_const(&xs[i])).collect();
            match free.as_slice() {
                [i] => down(*i, &xs[*i], false),
                _ => None,
            }
        }
        // Every rounding mode keeps the order; the whole root of what the evaluator takes it of.
        TExprKind::Round { value, .. } => down(0, value, false),
        TExprKind::Isqrt(x) => down(0, x, false),
        TExprKind::If { cond, then, els } => match fold(cond, fixed) {
            Some(Value::Bool(true)) => down(1, then, false),
            Some(Value::Bool(false)) => down(2, els, false),
            _ => None,
        },
        _ => None,
    }
}

/// The value of an expression whose every variable is fixed (or that reads none), exactly
/// as the reference evaluator computes it; none when some variable is free, or when the
/// evaluation fails (a zero divisor).
pub fn fold(e: &TExpr, fixed: &dyn Fn(VarId) -> Option<Rat>) -> Option<Value> {
    let num = |x: &TExpr| match fold(x, fixed)? {
        Value::Num(n) => Some(n),
        _ => None,
    };
    let boolean = |x: &TExpr| match fold(x, fixed)? {
        Value::Bool(b) => Some(b),
        _ => None,
    };
    Some(match &e.kind {
        TExprKind::Const(v) => v.clone(),
        TExprKind::Var(v) => Value::Num(fixed(*v)?),
        TExprKind::Neg(x) => Value::Num(-num(x)?),
        TExprKind::Arith(op, a, b) => {
            let (a, b) = (num(a)?, num(b)?);
            Value::Num(match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div if b.is_zero() => return None,
                BinOp::Div => a / b,
            })
        }
        TExprKind::Cmp(op, a, b) => Value::Bool(op.holds(num(a)?.cmp(&num(b)?))),
        TExprKind::Not(x) => Value::Bool(!boolean(x)?),
        TExprKind::And(a, b) => Value::Bool(boolean(a)? && boolean(b)?),
        TExprKind::Or(a, b) => Value::Bool(boolean(a)? || boolean(b)?),
        TExprKind::Min(xs) => Value::Num(xs.iter().map(num).collect::<Option<Vec<_>>>()?.into_iter().min()?),
        TExprKind::Max(xs) => Value::Num(xs.iter().map(num).collect::<Option<Vec<_>>>()?.into_iter().max()?),
        TExprKind::Mod(a, b) => {
            let (a, b) = (num(a)?, num(b)?);
            if b.is_zero() {
                return None;
            }
            Value::Num(crate::num::mod_euclid(&a, &b))
        }
        TExprKind::Isqrt(x) => {
            let x = num(x)?;
            if x < Rat::zero() {
                return None;
            }
            Value::Num(Rat::from_integer(crate::num::isqrt(&x)))
        }
        TExprKind::Round { value, mode, grid } => Value::Num(crate::num::round_to_grid(&num(value)?, *mode, grid)),
        TExprKind::If { cond, then, els } => {
            if boolean(cond)? {
                fold(then, fixed)?
            } else {
                fold(els, fixed)?
            }
        }
        TExprKind::In { .. } => return None,
    })
}

/// `a op b` as facts (`=` is two facts; `!=` has no linear form).
pub fn comparison_facts(op: CmpOp, a: &Lin, b: &Lin) -> Option<Vec<Fact>> {
    Some(match op {
        CmpOp::Le => vec![Fact::le(a, b, false)],
        CmpOp::Lt => vec![Fact::le(a, b, true)],
        CmpOp::Ge => vec![Fact::le(b, a, false)],
        CmpOp::Gt => vec![Fact::le(b, a, true)],
        CmpOp::Eq => vec![Fact::le(a, b, false), Fact::le(b, a, false)],
        CmpOp::Ne => return None,
    })
}

/// The facts of a boolean expression that must hold (conjunctions split; what is not linear is left out).
pub fn bool_facts(e: &TExpr, out: &mut Vec<Fact>) {
    match &e.kind {
        TExprKind::And(a, b) => {
            bool_facts(a, out);
            bool_facts(b, out);
        }
        TExprKind::Cmp(op, a, b) if a.ty.is_numeric() || a.ty == Ty::Date => {
            if let (Some(la), Some(lb)) = (linear_of(a), linear_of(b)) {
                if let Some(fs) = comparison_facts(*op, &la, &lb) {
                    out.extend(fs);
                }
            }
        }
        _ => {}
    }
}

fn num(v: &Value) -> Option<&Rat> {
    match v {
        Value::Num(n) => Some(n),
        _ => None,
    }
}

/// Build the model. Optional inputs contribute their range only when they have a value, so
/// their ranges are left out (a fact about a variable that may be none would be unsound).
pub fn build(p: &Program) -> Model {
    let mut m = Model::default();
    for (v, var) in p.vars.iter().enumerate() {
        if var.optional || !(var.ty.is_numeric() || var.ty == Ty::Date) {
            continue;
        }
        if let Some((lo, hi)) = &var.range {
            if let (Some(lo), Some(hi)) = (num(lo), num(hi)) {
                m.push(Fact::le(&Lin::constant(lo.clone()), &Lin::var(v), false), Origin::Range { var: v, hi: false });
                m.push(Fact::le(&Lin::var(v), &Lin::constant(hi.clone()), false), Origin::Range { var: v, hi: true });
            }
        }
    }
    for (i, c) in p.constraints.iter().enumerate() {
        let mut fs = Vec::new();
        bool_facts(&c.expr, &mut fs);
        for f in fs {
            m.push(f, Origin::Constraint(i));
        }
    }
    for d in &p.defines {
        // An output's rounding moves its value off the expression: only unrounded defines are equalities.
        if p.vars[d.var].rounding.is_some() {
            continue;
        }
        if let Some(l) = linear_of(&d.expr) {
            let x = Lin::var(d.var);
            m.push(Fact::le(&x, &l, false), Origin::Define { var: d.var, le: true });
            m.push(Fact::le(&l, &x, false), Origin::Define { var: d.var, le: false });
        }
    }
    m
}
