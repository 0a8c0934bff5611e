//! The expressions of generated code: every node knows its kind, so no backend has to work
//! out what a value is before it can spell an operation on it.

use crate::num::RoundMode;
use crate::sema::{EnumId, VarId};
use crate::syntax::ast::CmpOp;

/// What a value of generated code is. Every number is an i64: a wire integer (an amount in
/// its declared unit, a count, a rate in steps, a date as its day number) or, for a define
/// that declares no type, the integer it is held as at its scale (docs/int64.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Num,
    Bool,
    Str,
    Enum(EnumId),
}

/// One expression node with its kind. `optional` is set on a node that may hold no value
/// (an optional variable read as it is, or `none` stored into an optional result).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: Kind,
    pub optional: bool,
    pub node: Node,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arith {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Int(i64),
    Bool(bool),
    Str(String),
    /// A value of the node's enum, by its position.
    Member(u32),
    /// The absent value of an optional.
    Absent,
    Var(VarId),
    Neg(Box<Expr>),
    Arith(Arith, Box<Expr>, Box<Expr>),
    /// An exact division by a positive constant (a store into a coarser unit that E106
    /// proved lands on it): any integer division spells it.
    DivExact(Box<Expr>, i64),
    /// `n / d` rounded by the mode (d ≠ 0, either sign): the helper `Helper::DivRound`.
    DivRound(Box<Expr>, Box<Expr>, RoundMode),
    /// Over numbers, or over the places of an ordered enum.
    Min(Vec<Expr>),
    Max(Vec<Expr>),
    /// The remainder from zero up: 0 ≤ r < |b|.
    Mod(Box<Expr>, Box<Expr>),
    /// The whole square root of a non-negative integer.
    Isqrt(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Numbers compare as integers, an ordered enum by its places; booleans, strings and
    /// unordered enums only for (in)equality. The operands' kind says which.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// The value is one of these (values of one enum, or strings).
    OneOf(Box<Expr>, Vec<Expr>),
    /// An optional variable holds no value.
    IsNone(VarId),
    /// An optional variable holds a value and the test holds of it; inside the test,
    /// `Var(var)` (not optional) is the value held.
    Present(VarId, Box<Expr>),
    /// A field of the element a walk is on: the loop's variable, the field (a variable of
    /// role `Field`, whose name the element's record gives it) and its place in the record.
    Field(VarId, VarId, usize),
}

impl Expr {
    pub fn new(kind: Kind, node: Node) -> Expr {
        Expr { kind, optional: false, node }
    }
    pub fn num(node: Node) -> Expr {
        Expr::new(Kind::Num, node)
    }
    pub fn bool(node: Node) -> Expr {
        Expr::new(Kind::Bool, node)
    }
    pub fn int(n: i64) -> Expr {
        Expr::num(Node::Int(n))
    }
    pub fn truth(b: bool) -> Expr {
        Expr::bool(Node::Bool(b))
    }

    /// `a and b`, or the one that is not a literal `true`.
    pub fn and(a: Expr, b: Expr) -> Expr {
        match (&a.node, &b.node) {
            (Node::Bool(true), _) => b,
            (_, Node::Bool(true)) => a,
            _ => Expr::bool(Node::And(Box::new(a), Box::new(b))),
        }
    }
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::bool(Node::Or(Box::new(a), Box::new(b)))
    }
    pub fn negate(a: Expr) -> Expr {
        Expr::bool(Node::Not(Box::new(a)))
    }
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        Expr::bool(Node::Cmp(op, Box::new(a), Box::new(b)))
    }

    /// Every node of this expression, itself first, into `out`.
    pub fn nodes<'e>(&'e self, out: &mut Vec<&'e Expr>) {
        out.push(self);
        for k in self.children() {
            k.nodes(out);
        }
    }

    /// The nodes directly below this one, in the order they are written.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.node {
            Node::Int(_)
            | Node::Bool(_)
            | Node::Str(_)
            | Node::Member(_)
            | Node::Absent
            | Node::Var(_)
            | Node::Field(..)
            | Node::IsNone(_) => Vec::new(),
            Node::Neg(x) | Node::Not(x) | Node::Isqrt(x) | Node::DivExact(x, _) | Node::Present(_, x) => vec![x],
            Node::Arith(_, a, b)
            | Node::DivRound(a, b, _)
            | Node::Mod(a, b)
            | Node::Cmp(_, a, b)
            | Node::And(a, b)
            | Node::Or(a, b) => vec![a, b],
            Node::If(a, b, c) => vec![a, b, c],
            Node::Min(xs) | Node::Max(xs) => xs.iter().collect(),
            Node::OneOf(x, vs) => std::iter::once(&**x).chain(vs).collect(),
        }
    }

    /// The variables this expression reads, once each, in the order it reads them.
    pub fn vars(&self) -> Vec<VarId> {
        fn walk(e: &Expr, out: &mut Vec<VarId>) {
            if let Node::Var(v) | Node::IsNone(v) | Node::Present(v, _) = &e.node {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            for k in e.children() {
                walk(k, out);
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Whether the expression is a literal (it reads nothing).
    pub fn is_literal(&self) -> bool {
        matches!(self.node, Node::Int(_) | Node::Bool(_) | Node::Str(_) | Node::Member(_) | Node::Absent)
    }
}
