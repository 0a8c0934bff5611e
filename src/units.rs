//! The currency and unit tables (language.md §3). Every quantity is computed in the base
//! unit of its dimension (yen, cents, milligrams, ounces, seconds…), so units of one
//! dimension mix exactly and no conversion happens at run time.

use crate::num::{int, Rat};

/// What can be added to what. Metric and imperial are different dimensions: they never convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Money(&'static str),
    MassMetric,
    MassImperial,
    LengthMetric,
    LengthImperial,
    Duration,
}

impl Dim {
    pub fn kind(self) -> &'static str {
        match self {
            Dim::Money(_) => "money",
            Dim::MassMetric | Dim::MassImperial => "mass",
            Dim::LengthMetric | Dim::LengthImperial => "length",
            Dim::Duration => "duration",
        }
    }
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub symbol: &'static str,
    pub dim: Dim,
    /// How many base units one of this unit is.
    pub factor: u64,
    /// The generated type's name (`Grams`, `USDc`, `Yen`).
    pub type_name: &'static str,
}

impl Unit {
    pub fn factor(&self) -> Rat {
        int(self.factor as i64)
    }
}

macro_rules! units {
    ($($sym:literal, $dim:expr, $factor:expr, $tn:literal;)*) => {
        pub static UNITS: &[Unit] = &[$(Unit { symbol: $sym, dim: $dim, factor: $factor, type_name: $tn }),*];
    };
}

units! {
    "JPY", Dim::Money("JPY"), 1, "JPY";
    "円", Dim::Money("JPY"), 1, "Yen";
    "USD", Dim::Money("USD"), 100, "USD";
    "USDc", Dim::Money("USD"), 1, "USDc";
    "EUR", Dim::Money("EUR"), 100, "EUR";
    "EURc", Dim::Money("EUR"), 1, "EURc";
    "GBP", Dim::Money("GBP"), 100, "GBP";
    "GBPp", Dim::Money("GBP"), 1, "GBPp";
    "mg", Dim::MassMetric, 1, "Milligrams";
    "g", Dim::MassMetric, 1_000, "Grams";
    "kg", Dim::MassMetric, 1_000_000, "Kilograms";
    "t", Dim::MassMetric, 1_000_000_000, "Tonnes";
    "oz", Dim::MassImperial, 1, "Ounces";
    "lb", Dim::MassImperial, 16, "Pounds";
    "mm", Dim::LengthMetric, 1, "Millimeters";
    "cm", Dim::LengthMetric, 10, "Centimeters";
    "m", Dim::LengthMetric, 1_000, "Meters";
    "km", Dim::LengthMetric, 1_000_000, "Kilometers";
    "in", Dim::LengthImperial, 1, "Inches";
    "ft", Dim::LengthImperial, 12, "Feet";
    "s", Dim::Duration, 1, "Seconds";
    "min", Dim::Duration, 60, "Minutes";
    "h", Dim::Duration, 3_600, "Hours";
    "d", Dim::Duration, 86_400, "Days";
}

pub fn lookup(symbol: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.symbol == symbol)
}

/// The type head a unit is declared under: `money`, `mass`, `length`, `duration`.
pub fn units_of_kind(kind: &str) -> Vec<&'static str> {
    UNITS.iter().filter(|u| u.dim.kind() == kind).map(|u| u.symbol).collect()
}
