//! The values of generated code and the expressions over them, exactly as generated code
//! computes them (every number an i64, every operation the int64 proof vouched for): what the
//! tree's run (`run.rs`) and the plan's interpreter (`interp.rs`) both compute with.

use crate::gen::plan::{Arith, Expr, Node};
use crate::num::{int64, RoundMode};
use crate::syntax::ast::CmpOp;

/// A value of generated code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum V {
    Absent,
    Int(i64),
    Bool(bool),
    Str(String),
    Member(u32),
    /// A list: of values, or of elements (each the list of its fields).
    List(Vec<V>),
}

/// Why a call has no answer: the refusal line's kind (`input` or `contradiction`) and sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub kind: &'static str,
    pub what: String,
}

fn int(v: V) -> i64 {
    match v {
        V::Int(i) => i,
        other => unreachable!("a number, not {other:?}"),
    }
}

fn truth(v: V) -> bool {
    match v {
        V::Bool(b) => b,
        other => unreachable!("a truth value, not {other:?}"),
    }
}

/// `n / d` rounded by the mode (the plan's operands are proven to fit i64, and E108 its quotient).
pub fn div_round(n: i64, d: i64, mode: RoundMode) -> i64 {
    let q = int64::div_round(n as i128, d as i128, mode).expect("the plan divides by no zero (E132)");
    i64::try_from(q).expect("E108 proved the quotient fits int64")
}

/// The whole square root, the reference's own (0 below zero, as the helpers answer).
fn isqrt(x: i64) -> i64 {
    i64::try_from(int64::isqrt(x as i128)).expect("a root of an i64 fits one")
}

fn place(v: &V) -> i64 {
    match v {
        V::Member(m) => *m as i64,
        V::Int(i) => *i,
        other => unreachable!("an ordered value, not {other:?}"),
    }
}

/// The value of `e` over `vals`, one per variable of the plan.
pub fn eval(e: &Expr, vals: &[V]) -> V {
    let ev = |x: &Expr| eval(x, vals);
    let overflow = "E108 proved every operation of the plan fits int64";
    match &e.node {
        Node::Int(n) => V::Int(*n),
        Node::Bool(b) => V::Bool(*b),
        Node::Str(s) => V::Str(s.clone()),
        Node::Member(m) => V::Member(*m),
        Node::Absent => V::Absent,
        Node::Field(element, _, k) => match &vals[*element] {
            V::List(fields) => fields[*k].clone(),
            other => unreachable!("a field of an element, not of {other:?}"),
        },
        Node::Var(v) => vals[*v].clone(),
        Node::Neg(x) => V::Int(int(ev(x)).checked_neg().expect(overflow)),
        Node::Arith(op, a, b) => {
            let (a, b) = (int(ev(a)), int(ev(b)));
            V::Int(
                match op {
                    Arith::Add => a.checked_add(b),
                    Arith::Sub => a.checked_sub(b),
                    Arith::Mul => a.checked_mul(b),
                }
                .expect(overflow),
            )
        }
        Node::DivExact(x, q) => V::Int(int(ev(x)) / q),
        Node::DivRound(n, d, m) => V::Int(div_round(int(ev(n)), int(ev(d)), *m)),
        Node::Min(xs) => xs.iter().map(ev).min_by_key(place).expect("min of one value or more"),
        Node::Max(xs) => xs.iter().map(ev).rev().max_by_key(place).expect("max of one value or more"),
        Node::Mod(a, b) => V::Int(int(ev(a)).rem_euclid(int(ev(b)).abs())),
        Node::Isqrt(x) => V::Int(isqrt(int(ev(x)))),
        Node::If(c, a, b) => {
            if truth(ev(c)) {
                ev(a)
            } else {
                ev(b)
            }
        }
        Node::Cmp(..)
        | Node::And(..)
        | Node::Or(..)
        | Node::Not(_)
        | Node::OneOf(..)
        | Node::IsNone(_)
        | Node::Present(..) => V::Bool(holds(e, vals)),
    }
}

/// Whether the truth value `e` holds over `vals`: [`eval`]'s answer, computed without
/// building the values it compares where they are variables and literals (every row's
/// condition is tested on every call).
pub fn holds(e: &Expr, vals: &[V]) -> bool {
    match &e.node {
        Node::Bool(b) => *b,
        Node::Var(v) => match &vals[*v] {
            V::Bool(b) => *b,
            other => unreachable!("a truth value, not {other:?}"),
        },
        // Numbers compare as integers and ordered values by their places; anything else
        // (truth values, strings, an absent value) only for (in)equality.
        Node::Cmp(op, a, b) => match (place_of(a, vals), place_of(b, vals)) {
            (Some(x), Some(y)) => op.holds(x.cmp(&y)),
            _ => (eval(a, vals) == eval(b, vals)) == (*op == CmpOp::Eq),
        },
        Node::And(a, b) => holds(a, vals) && holds(b, vals),
        Node::Or(a, b) => holds(a, vals) || holds(b, vals),
        Node::Not(x) => !holds(x, vals),
        Node::OneOf(x, vs) => {
            let computed;
            let x = match &x.node {
                Node::Var(v) => &vals[*v],
                _ => {
                    computed = eval(x, vals);
                    &computed
                }
            };
            vs.iter().any(|v| match (&v.node, x) {
                (Node::Member(m), V::Member(held)) => m == held,
                (Node::Member(_), _) => false,
                _ => eval(v, vals) == *x,
            })
        }
        Node::IsNone(v) => matches!(vals[*v], V::Absent),
        Node::Present(v, t) => !matches!(vals[*v], V::Absent) && holds(t, vals),
        _ => truth(eval(e, vals)),
    }
}

/// The place of a number or an ordered value (what [`Node::Cmp`] compares), read in place
/// where `e` is a variable or a literal; none for any other value.
fn place_of(e: &Expr, vals: &[V]) -> Option<i64> {
    let of = |v: &V| match v {
        V::Int(i) => Some(*i),
        V::Member(m) => Some(*m as i64),
        _ => None,
    };
    match &e.node {
        Node::Int(n) => Some(*n),
        Node::Member(m) => Some(*m as i64),
        Node::Var(v) => of(&vals[*v]),
        _ => of(&eval(e, vals)),
    }
}
