//! The door of generated code as data: the ordered checks a call goes through before the
//! rule runs, each with its sentence. src/eval/wire.rs owns the order and the sentences; this
//! is derived from it, and `tests/door.rs` holds the two to each other on every corpus rule.
//!
//! The order (language.md §7): each input in declaration order — missing, its kind, enum
//! membership, its range — then every constraint in order (one that reads an absent optional
//! holds), then any key that is not an input. The first failure is the refusal.

use super::code::{Expr, Node};
use super::{Builder, Kind, VarPlan};
use crate::eval::wire::{sentence, WireKind};
use crate::sema::{Program, VarId};
use crate::syntax::ast::CmpOp;

#[derive(Clone, Debug)]
pub struct Door {
    pub inputs: Vec<InputDoor>,
    pub constraints: Vec<Constraint>,
    /// The refusal of a line or a value that is not a JSON object.
    pub not_an_object: String,
    /// What follows a key that is not an input (`coupon is not an input`).
    pub not_an_input: String,
}

#[derive(Clone, Debug)]
pub struct InputDoor {
    pub var: VarId,
    /// The key on the wire: the declared name.
    pub name: String,
    /// An absent or null optional input passes the door as no value.
    pub optional: bool,
    pub kind: WireKind,
    pub missing: String,
    pub not_of_kind: String,
    pub range: Option<RangeCheck>,
}

/// `lo <= x <= hi` in wire integers (day numbers for a date), or, for an ordered enum, over
/// the places of its values.
#[derive(Clone, Debug)]
pub struct RangeCheck {
    pub lo: i64,
    pub hi: i64,
    pub sentence: String,
    /// The test that refuses: the value below `lo` or above `hi` (an enum's by its places;
    /// an optional's only when it holds one), for the printer to spell.
    pub outside: Expr,
}

#[derive(Clone, Debug)]
pub struct Constraint {
    pub test: Expr,
    /// The optional inputs it reads: when one holds no value the constraint holds.
    pub optionals: Vec<VarId>,
    pub sentence: String,
}

pub(super) fn build(p: &Program, vars: &[VarPlan], b: &mut Builder) -> Door {
    let inputs = p
        .inputs
        .iter()
        .map(|&v| {
            let var = &p.vars[v];
            let kind = WireKind::of(&var.ty);
            let range = vars[v].range.map(|(lo, hi)| {
                if let (WireKind::Enum(e), Kind::Enum(_)) = (kind, vars[v].kind) {
                    b.ranked.insert(e);
                }
                let outside = outside(v, vars[v].kind, var.optional, lo, hi);
                RangeCheck { lo, hi, sentence: sentence::out_of_range(&var.name), outside }
            });
            InputDoor {
                var: v,
                name: var.name.clone(),
                optional: var.optional,
                kind,
                missing: sentence::missing(&var.name),
                not_of_kind: sentence::not_of_kind(p, &var.name, kind),
                range,
            }
        })
        .collect();
    let ann_constraints = b.ann.constraints.clone();
    let constraints = p
        .constraints
        .iter()
        .zip(&ann_constraints)
        .map(|(c, s)| {
            let test = b.expr(&c.expr, s);
            let optionals = test.vars().into_iter().filter(|&v| p.vars[v].optional).collect();
            Constraint { test, optionals, sentence: sentence::constraint(&c.text) }
        })
        .collect();
    Door {
        inputs,
        constraints,
        not_an_object: sentence::NOT_AN_OBJECT.to_string(),
        not_an_input: sentence::NOT_AN_INPUT.to_string(),
    }
}

/// `x < lo || x > hi` over the input `v` of kind `kind`, held to a present value when it is optional.
fn outside(v: VarId, kind: Kind, optional: bool, lo: i64, hi: i64) -> Expr {
    let bound = |b: i64| match kind {
        Kind::Enum(_) => Expr::new(kind, Node::Member(b as u32)),
        _ => Expr::int(b),
    };
    let x = || Expr::new(kind, Node::Var(v));
    let test = Expr::or(Expr::cmp(CmpOp::Lt, x(), bound(lo)), Expr::cmp(CmpOp::Gt, x(), bound(hi)));
    if optional {
        Expr::bool(Node::Present(v, Box::new(test)))
    } else {
        test
    }
}
