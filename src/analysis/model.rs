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
    match &e.kind {
        TExprKind::Const(Value::Num(n)) => Some(Lin::constant(n.clone())),
        TExprKind::Var(v) => Some(Lin::var(*v)),
        TExprKind::Neg(x) => Some(linear_of(x)?.scale(&-Rat::one())),
        TExprKind::Arith(op, a, b) => {
            let (la, lb) = (linear_of(a)?, linear_of(b)?);
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
