//! The rule in plain words: types, amounts, cells and roundings as a reader who does not
//! write `.rule` files says them. Exact: every amount is the rule's own rational, written as
//! a decimal (the language's literals are decimal, so every value here has a finite one).

use crate::num::{self, date, Rat, RoundMode};
use crate::sema::*;
use crate::syntax::ast::CmpOp;

/// Who a document is for: the approver sees names as declared, aliases, ranges and the
/// evidence; the customer reads the help-centre article.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Approver,
    Customer,
}

/// Digits grouped by thousands: `1234567` → `1,234,567` (a sign and a fraction kept).
pub fn grouped(text: &str) -> String {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", text),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// The unit's name in words, plural.
pub fn unit_words(symbol: &str) -> &'static str {
    match symbol {
        "JPY" | "円" => "yen",
        "USD" => "US dollars",
        "USDc" => "US cents",
        "EUR" => "euros",
        "EURc" => "euro cents",
        "GBP" => "pounds sterling",
        "GBPp" => "pence",
        "mg" => "milligrams",
        "g" => "grams",
        "kg" => "kilograms",
        "t" => "tonnes",
        "oz" => "ounces",
        "lb" => "pounds",
        "mm" => "millimetres",
        "cm" => "centimetres",
        "m" => "metres",
        "km" => "kilometres",
        "in" => "inches",
        "ft" => "feet",
        "s" => "seconds",
        "min" => "minutes",
        "h" => "hours",
        "d" => "days",
        _ => "units",
    }
}

/// A rate step as a percentage text: `1`, `0.5`.
pub fn percent_text(step: &Rat) -> String {
    num::to_decimal_string(&(step * num::int(100)))
}

/// An enum value as this audience reads it: the customer gets the display name where the
/// rule gives one.
pub fn enum_value(p: &Program, e: EnumId, i: u32, audience: Audience) -> String {
    let v = &p.enums[e].values[i as usize];
    match (&v.display, audience) {
        (Some(d), Audience::Customer) => d.clone(),
        _ => v.name.clone(),
    }
}

/// `a, b or c` (`or` may be `and`).
pub fn listed(items: &[String], last: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {last} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// What a variable holds, in words: its type's, or for a list `a list of …`.
pub fn var_words(p: &Program, var: &crate::sema::Var, audience: Audience) -> String {
    let element = type_words(p, &var.ty, audience);
    if var.list {
        format!("a list, each element {element}")
    } else {
        element
    }
}

/// What a value of this type is, in words: `a weight in pounds (lb)`.
pub fn type_words(p: &Program, ty: &Ty, audience: Audience) -> String {
    match ty {
        Ty::Bool => "yes or no".into(),
        Ty::Int => "a whole number".into(),
        Ty::Number => "a number".into(),
        Ty::Date => "a date".into(),
        Ty::Str => "text".into(),
        Ty::Enum(e) => {
            let en = &p.enums[*e];
            let values: Vec<String> = (0..en.values.len() as u32).map(|i| enum_value(p, *e, i, audience)).collect();
            match audience {
                Audience::Customer => listed(&values, "or"),
                Audience::Approver if en.ordered => format!("one of {}, in this order", values.join(", ")),
                Audience::Approver => format!("one of {}", values.join(", ")),
            }
        }
        Ty::Money { unit, tag } => {
            let tax = match tag {
                Tag::Incl => ", tax included",
                Tag::Excl => ", tax excluded",
                _ => "",
            };
            format!("an amount in {} ({}){tax}", unit_words(unit.symbol), unit.symbol)
        }
        Ty::Qty { unit } => {
            let what = match unit.dim.kind() {
                "mass" => "a weight",
                "length" => "a length",
                "duration" => "a duration",
                _ => "a quantity",
            };
            format!("{what} in {} ({})", unit_words(unit.symbol), unit.symbol)
        }
        Ty::Rate { step } => {
            let pct = percent_text(step);
            if pct == "1" {
                "a rate, in whole percent".into()
            } else {
                format!("a rate, in steps of {pct}%")
            }
        }
    }
}

/// The unit a value is written in, for a table's unit column: `lb`, `JPY`, `%`.
pub fn unit_column(ty: &Ty) -> String {
    match ty {
        Ty::Money { unit, .. } | Ty::Qty { unit } => unit.symbol.into(),
        Ty::Rate { .. } => "%".into(),
        _ => String::new(),
    }
}

/// A number held in base units, in the type's own unit: `60 in`, `1,000 JPY`, `7.5%`, a date.
pub fn amount(ty: &Ty, base: &Rat) -> String {
    match ty {
        Ty::Date => num::to_i64(base).map(date::format_days).unwrap_or_else(|| num::to_decimal_string(base)),
        Ty::Money { unit, .. } | Ty::Qty { unit } => {
            format!("{} {}", grouped(&num::to_decimal_string(&(base / unit.factor()))), unit.symbol)
        }
        Ty::Rate { .. } => format!("{}%", grouped(&num::to_decimal_string(&(base * num::int(100))))),
        _ => grouped(&num::to_decimal_string(base)),
    }
}

/// A value in words.
pub fn value_words(p: &Program, ty: &Ty, v: &Value, audience: Audience) -> String {
    match v {
        Value::None => match audience {
            Audience::Approver => "none".into(),
            Audience::Customer => "not given".into(),
        },
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Str(s) if s.is_empty() => "empty text".into(),
        Value::Str(s) => format!("\u{201c}{s}\u{201d}"),
        Value::Enum(i) => match ty {
            Ty::Enum(e) => enum_value(p, *e, *i, audience),
            _ => i.to_string(),
        },
        Value::Num(n) => amount(ty, n),
        Value::List(xs) if xs.is_empty() => match audience {
            Audience::Approver => "none".into(),
            Audience::Customer => "nothing".into(),
        },
        Value::List(xs) => xs.iter().map(|x| value_words(p, ty, x, audience)).collect::<Vec<_>>().join(", "),
    }
}

/// A declared range in words: `1 lb to 70 lb`.
pub fn range_words(p: &Program, var: &Var) -> Option<String> {
    let (lo, hi) = var.range.as_ref()?;
    Some(format!(
        "{} to {}",
        value_words(p, &var.ty, lo, Audience::Approver),
        value_words(p, &var.ty, hi, Audience::Approver)
    ))
}

/// A condition cell in words: `-` is "any", `not:` is "other than", bounds are "60 in or less".
pub fn cell_words(p: &Program, var: &Var, c: &CondIr, audience: Audience) -> String {
    match c {
        CondIr::Any => "any".into(),
        CondIr::Tests { negated, tests } => {
            let parts: Vec<String> = tests.iter().map(|t| test_words(p, var, t, audience)).collect();
            let text = listed(&parts, "or");
            if *negated {
                format!("other than {text}")
            } else {
                text
            }
        }
    }
}

fn test_words(p: &Program, var: &Var, t: &TestIr, audience: Audience) -> String {
    let show = |v: &Value| value_words(p, &var.ty, v, audience);
    match t {
        TestIr::IsNone => "not given".into(),
        TestIr::OneOf(vs) => listed(&vs.iter().map(show).collect::<Vec<_>>(), "or"),
        TestIr::Bounds(bs) => {
            let lower = bs.iter().find(|(op, _)| matches!(op, CmpOp::Ge | CmpOp::Gt));
            let upper = bs.iter().find(|(op, _)| matches!(op, CmpOp::Le | CmpOp::Lt));
            match (lower, upper, bs.len()) {
                (Some((CmpOp::Ge, a)), Some((CmpOp::Le, b)), 2) => format!("{} to {}", show(a), show(b)),
                _ => {
                    let words: Vec<String> = bs.iter().map(|(op, v)| bound_words(*op, &show(v), &var.ty)).collect();
                    listed(&words, "and")
                }
            }
        }
    }
}

/// One bound in words; dates and ordered enums read as before/after, numbers as less/more.
fn bound_words(op: CmpOp, v: &str, ty: &Ty) -> String {
    let ordinal = matches!(ty, Ty::Date | Ty::Enum(_));
    match (op, ordinal) {
        (CmpOp::Le, false) => format!("{v} or less"),
        (CmpOp::Lt, false) => format!("under {v}"),
        (CmpOp::Ge, false) => format!("{v} or more"),
        (CmpOp::Gt, false) => format!("over {v}"),
        (CmpOp::Le, true) => format!("{v} or before"),
        (CmpOp::Lt, true) => format!("before {v}"),
        (CmpOp::Ge, true) => format!("{v} or after"),
        (CmpOp::Gt, true) => format!("after {v}"),
        (CmpOp::Eq, _) => format!("exactly {v}"),
        (CmpOp::Ne, _) => format!("other than {v}"),
    }
}

/// How a value is rounded to `grid` (its text), as the end of a sentence: "is …".
pub fn round_words(mode: RoundMode, grid: &str) -> String {
    let to = if grid == "1" { "a whole number".to_string() } else { format!("a multiple of {grid}") };
    match mode {
        RoundMode::Up => format!("rounded up, away from zero, to {to}"),
        RoundMode::Down => format!("rounded down, toward zero, to {to}"),
        RoundMode::Ceiling => format!("rounded up to {to} (ceiling: toward plus infinity)"),
        RoundMode::Floor => format!("rounded down to {to} (floor: toward minus infinity)"),
        RoundMode::HalfUp => format!("rounded to the nearest {}, a half away from zero", nearest(&to)),
        RoundMode::HalfDown => format!("rounded to the nearest {}, a half toward zero", nearest(&to)),
        RoundMode::HalfEven => {
            format!("rounded to the nearest {}, a half to the even one (banker's rounding)", nearest(&to))
        }
    }
}

fn nearest(to: &str) -> &str {
    to.strip_prefix("a ").unwrap_or(to)
}

/// What a policy means, as a sentence.
pub fn policy_words(policy: &crate::syntax::ast::Policy, audience: Audience) -> &'static str {
    use crate::syntax::ast::Policy;
    match (policy, audience) {
        (Policy::Unique, Audience::Approver) => "Exactly one row matches any call.",
        (Policy::First, Audience::Approver) => "The rows are tried in order; the first that matches decides.",
        (Policy::Any, Audience::Approver) => "Rows that match the same call give the same answer; any of them decides.",
        (Policy::Unique, Audience::Customer) => "Exactly one row applies to each case.",
        (Policy::First, Audience::Customer) => "The first row that applies, from the top, decides.",
        (Policy::Any, Audience::Customer) => "Where more than one row applies, they give the same answer.",
        (Policy::Priority, Audience::Approver) => {
            "Of the rows that match, the one whose result comes first in its list of values decides."
        }
        (Policy::Priority, Audience::Customer) => {
            "Where more than one row applies, the one whose answer is listed first decides."
        }
        (Policy::Collect | Policy::RuleOrder, Audience::Approver) => {
            "Every row that matches adds its result to a list, in the order the rows are written."
        }
        (Policy::Collect | Policy::RuleOrder, Audience::Customer) => {
            "Every row that applies counts, in the order the rows are listed."
        }
        (Policy::OutputOrder, Audience::Approver) => {
            "Every row that matches adds its result to a list, ordered by the result's place in its list of values."
        }
        (Policy::OutputOrder, Audience::Customer) => "Every row that applies counts, the most important first.",
        (Policy::CollectSum, Audience::Approver) => "Every row that matches adds its result; the answer is the sum.",
        (Policy::CollectSum, Audience::Customer) => "The amounts of every row that applies are added up.",
        (Policy::CollectMin, Audience::Approver) => "Of the rows that match, the least result is the answer.",
        (Policy::CollectMin, Audience::Customer) => "Of the rows that apply, the lowest amount counts.",
        (Policy::CollectMax, Audience::Approver) => "Of the rows that match, the greatest result is the answer.",
        (Policy::CollectMax, Audience::Customer) => "Of the rows that apply, the highest amount counts.",
        (Policy::CollectCount, Audience::Approver) => "The answer is how many rows match.",
        (Policy::CollectCount, Audience::Customer) => "The answer is how many rows apply.",
    }
}
