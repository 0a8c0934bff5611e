//! Types of values and the static grid every numeric value lies on.

use crate::num::{int, Rat};
use crate::units::{Dim, Unit};
use num_integer::Integer;
use num_traits::{Signed, Zero};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    Untagged,
    Incl,
    Excl,
    /// An untagged literal: it takes the tag its context expects.
    Any,
}

impl Tag {
    pub fn unify(self, other: Tag) -> Option<Tag> {
        match (self, other) {
            (Tag::Any, t) | (t, Tag::Any) => Some(t),
            (a, b) if a == b => Some(a),
            _ => None,
        }
    }
}

pub type EnumId = usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    /// A whole count with no unit.
    Int,
    /// A dimensionless exact number (`T / T`, `int / int`, `int * rate`); stored only through `round`.
    Number,
    Date,
    Str,
    Enum(EnumId),
    Money {
        unit: &'static Unit,
        tag: Tag,
    },
    Qty {
        unit: &'static Unit,
    },
    /// A rate counted in steps of `step` (a fraction of one: 1% is 1/100).
    Rate {
        step: Rat,
    },
}

impl Ty {
    /// Base units per declared unit: what a wire integer is multiplied by.
    pub fn factor(&self) -> Rat {
        match self {
            Ty::Money { unit, .. } | Ty::Qty { unit } => unit.factor(),
            Ty::Rate { step } => step.clone(),
            _ => int(1),
        }
    }
    pub fn is_numeric(&self) -> bool {
        matches!(self, Ty::Int | Ty::Number | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }
    /// Values counted in whole units on the wire (everything but bool, string, enum).
    pub fn is_integer_on_wire(&self) -> bool {
        matches!(self, Ty::Int | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }
    pub fn dim(&self) -> Option<Dim> {
        match self {
            Ty::Money { unit, .. } | Ty::Qty { unit } => Some(unit.dim),
            _ => None,
        }
    }
    pub fn unit(&self) -> Option<&'static Unit> {
        match self {
            Ty::Money { unit, .. } | Ty::Qty { unit } => Some(unit),
            _ => None,
        }
    }
}

/// What a numeric value is always a whole multiple of, in base units. Arithmetic carries
/// it so the checker knows, without running anything, whether a value may hold a fraction
/// of its destination's unit (E106).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grid {
    /// Always zero.
    Zero,
    /// Always a whole multiple of this (positive) step.
    Step(Rat),
    /// Any rational (a quotient by a value).
    Unknown,
}

fn rat_gcd(a: &Rat, b: &Rat) -> Rat {
    // gcd(p/q, r/s) = gcd(p*s, r*q) / (q*s)
    let n = (a.numer() * b.denom()).gcd(&(b.numer() * a.denom()));
    Rat::new(n, a.denom() * b.denom())
}

impl Grid {
    pub fn of_constant(v: &Rat) -> Grid {
        if v.is_zero() {
            Grid::Zero
        } else {
            Grid::Step(v.abs())
        }
    }
    /// The grid of a sum, a min/max or the branches of an `if`.
    pub fn join(&self, other: &Grid) -> Grid {
        match (self, other) {
            (Grid::Zero, g) | (g, Grid::Zero) => g.clone(),
            (Grid::Step(a), Grid::Step(b)) => Grid::Step(rat_gcd(a, b)),
            _ => Grid::Unknown,
        }
    }
    pub fn mul(&self, other: &Grid) -> Grid {
        match (self, other) {
            (Grid::Zero, _) | (_, Grid::Zero) => Grid::Zero,
            (Grid::Step(a), Grid::Step(b)) => Grid::Step(a * b),
            _ => Grid::Unknown,
        }
    }
    pub fn div_const(&self, c: &Rat) -> Grid {
        match self {
            Grid::Zero => Grid::Zero,
            Grid::Step(a) => Grid::Step(a / c.abs()),
            Grid::Unknown => Grid::Unknown,
        }
    }
    /// Whether every value on this grid is a whole multiple of `unit` (base units).
    pub fn fits(&self, unit: &Rat) -> bool {
        match self {
            Grid::Zero => true,
            Grid::Step(s) => crate::num::on_grid(s, unit),
            Grid::Unknown => false,
        }
    }
}

/// The one type two operands share, if they share one. Units of one dimension meet at the finer.
pub fn unify(a: &Ty, b: &Ty) -> Option<Ty> {
    match (a, b) {
        (Ty::Int, Ty::Int) => Some(Ty::Int),
        (Ty::Int | Ty::Number, Ty::Int | Ty::Number) => Some(Ty::Number),
        (Ty::Money { unit: ua, tag: ta }, Ty::Money { unit: ub, tag: tb }) if ua.dim == ub.dim => {
            let tag = ta.unify(*tb)?;
            Some(Ty::Money { unit: if ua.factor <= ub.factor { ua } else { ub }, tag })
        }
        (Ty::Qty { unit: ua }, Ty::Qty { unit: ub }) if ua.dim == ub.dim => {
            Some(Ty::Qty { unit: if ua.factor <= ub.factor { ua } else { ub } })
        }
        (Ty::Rate { step: sa }, Ty::Rate { step: sb }) => Some(Ty::Rate { step: sa.min(sb).clone() }),
        (Ty::Date, Ty::Date) | (Ty::Bool, Ty::Bool) | (Ty::Str, Ty::Str) => Some(a.clone()),
        (Ty::Enum(x), Ty::Enum(y)) if x == y => Some(a.clone()),
        _ => None,
    }
}
