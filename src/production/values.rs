//! A value as two programs can agree on it: a number in base units (yen, cents, grams; day
//! numbers for dates; a rate as its fraction), an enum value by its name. Two versions of a
//! rule may number an enum's values differently or count a rate in other steps; a record
//! read by one and an answer computed by the other still compare.

use crate::num::{self, date, Rat};
use crate::sema::*;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Plain {
    None,
    Bool(bool),
    /// Base units (what `Value::Num` holds).
    Num(Rat),
    /// An enum value's name.
    Word(String),
    Str(String),
    /// A list output's values.
    List(Vec<Plain>),
}

impl Plain {
    /// A value of `var` in program `p`.
    pub fn of(p: &Program, var: &Var, v: &Value) -> Plain {
        Plain::of_ty(p, &var.ty, v)
    }

    /// A value of type `ty` in program `p`.
    pub fn of_ty(p: &Program, ty: &Ty, v: &Value) -> Plain {
        match v {
            Value::None => Plain::None,
            Value::Bool(b) => Plain::Bool(*b),
            Value::Num(n) => Plain::Num(n.clone()),
            Value::Str(s) => Plain::Str(s.clone()),
            Value::Enum(i) => match ty {
                Ty::Enum(e) => Plain::Word(p.enums[*e].values[*i as usize].name.clone()),
                _ => Plain::Word(i.to_string()),
            },
            Value::List(xs) => Plain::List(xs.iter().map(|x| Plain::of_ty(p, ty, x)).collect()),
        }
    }

    /// The value in `p`'s own form, when `var` can hold it (an enum value it has).
    pub fn value_in(&self, p: &Program, var: &Var) -> Option<Value> {
        Some(match self {
            Plain::None => Value::None,
            Plain::Bool(b) => Value::Bool(*b),
            Plain::Num(n) => Value::Num(n.clone()),
            Plain::Str(s) => Value::Str(s.clone()),
            Plain::Word(w) => match &var.ty {
                Ty::Enum(e) => Value::Enum(p.enums[*e].position(w)?),
                _ => return None,
            },
            Plain::List(xs) => Value::List(xs.iter().map(|x| x.value_in(p, var)).collect::<Option<_>>()?),
        })
    }

    /// The wire form, in the units of `var` (a number that is not a whole count of them is
    /// written as its exact decimal, so that it shows).
    pub fn wire(&self, var: &Var) -> Json {
        match self {
            Plain::None => Json::Null,
            Plain::Bool(b) => Json::Bool(*b),
            Plain::Word(w) | Plain::Str(w) => Json::String(w.clone()),
            Plain::Num(n) => {
                if var.ty == Ty::Date {
                    if let Some(d) = num::to_i64(n) {
                        return Json::String(date::format_days(d));
                    }
                }
                number_json(&(n / var.ty.factor()))
            }
            Plain::List(xs) => Json::Array(xs.iter().map(|x| x.wire(var)).collect()),
        }
    }

    /// The wire form as a string (`"11"`, `"domestic"`, `"2026-03-31"`, `"false"`), as the
    /// region's coordinates write values.
    pub fn wire_text(&self, var: &Var) -> String {
        match self.wire(var) {
            Json::String(s) => s,
            other => other.to_string(),
        }
    }

    /// The value as the rule writes it (`12USD`, `7.5%`, `domestic`).
    pub fn display(&self, var: &Var) -> String {
        match self {
            Plain::None => "none".into(),
            Plain::Bool(b) => b.to_string(),
            Plain::Word(w) => w.clone(),
            Plain::Str(s) => crate::syntax::fmt::string_lit(s),
            Plain::Num(n) => match &var.ty {
                Ty::Date => num::to_i64(n).map(date::format_days).unwrap_or_else(|| num::to_decimal_string(n)),
                Ty::Money { unit, .. } | Ty::Qty { unit } => {
                    format!("{}{}", num::to_decimal_string(&(n / unit.factor())), unit.symbol)
                }
                Ty::Rate { .. } => format!("{}%", num::to_decimal_string(&(n * num::int(100)))),
                _ => num::to_decimal_string(n),
            },
            Plain::List(xs) => format!("[{}]", xs.iter().map(|x| x.display(var)).collect::<Vec<_>>().join(", ")),
        }
    }

    pub fn number(&self) -> Option<&Rat> {
        match self {
            Plain::Num(n) => Some(n),
            _ => None,
        }
    }
}

/// An exact number as JSON: an integer as a number, anything else as its exact decimal text.
pub fn number_json(n: &Rat) -> Json {
    let text = num::to_decimal_string(n);
    serde_json::from_str(&text).unwrap_or(Json::String(text))
}
