//! Names in generated code: identifiers from aliases, type names from units and enums.

use crate::lang::is_target_keyword;
use crate::sema::*;

/// The identifier of a declared name in generated code: its alias (or the name), with `_`
/// after it when it is a keyword somewhere.
pub fn ident(name: &str, alias: Option<&str>) -> String {
    let base = alias.unwrap_or(name);
    if is_target_keyword(base) {
        format!("{base}_")
    } else {
        base.to_string()
    }
}

/// `coupon_kind` → `CouponKind`; `member_shipping_fee` → `MemberShippingFee`.
pub fn pascal(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// `single_coupon` → `singleCoupon`.
pub fn camel(s: &str) -> String {
    let p = pascal(s);
    let mut c = p.chars();
    match c.next() {
        Some(f) => f.to_ascii_lowercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// The generated name of a unit type (language.md §3): `JPY`, `JPYInclTax`, `YenInclTax`,
/// `Grams`, `Inches`, `Rate` (or one per step when a rule has several).
pub fn unit_type(p: &Program, ty: &Ty) -> Option<String> {
    match ty {
        Ty::Money { unit, tag } => Some(format!(
            "{}{}",
            unit.type_name,
            match tag {
                Tag::Incl => "InclTax",
                Tag::Excl => "ExclTax",
                _ => "",
            }
        )),
        Ty::Qty { unit } => Some(unit.type_name.to_string()),
        Ty::Rate { step } => {
            let steps = rate_steps(p);
            if steps.len() <= 1 {
                return Some("Rate".into());
            }
            let pct = step * crate::num::int(100);
            Some(match crate::num::to_decimal_string(&pct).as_str() {
                "1" => "RatePct".into(),
                "0.1" => "RatePermille".into(),
                "0.01" => "RateBp".into(),
                other => format!("Rate{}", other.replace('.', "_")),
            })
        }
        _ => None,
    }
}

/// Every distinct rate step the rule declares, in order of first appearance.
fn rate_steps(p: &Program) -> Vec<crate::num::Rat> {
    let mut out: Vec<crate::num::Rat> = Vec::new();
    for v in &p.vars {
        if let Ty::Rate { step } = &v.ty {
            if !out.contains(step) {
                out.push(step.clone());
            }
        }
    }
    out
}

/// Every unit type the rule's declarations use, once each, in order of first appearance.
pub fn unit_types(p: &Program) -> Vec<(String, Ty)> {
    let mut out: Vec<(String, Ty)> = Vec::new();
    for v in &p.vars {
        if v.kind == VarKind::Define && !v.declared {
            continue;
        }
        if let Some(n) = unit_type(p, &v.ty) {
            if !out.iter().any(|(m, _)| *m == n) {
                out.push((n, v.ty.clone()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_conversions() {
        assert_eq!(pascal("coupon_kind"), "CouponKind");
        assert_eq!(pascal("member_shipping_fee"), "MemberShippingFee");
        assert_eq!(camel("single_coupon"), "singleCoupon");
        assert_eq!(ident("class", None), "class_");
        assert_eq!(ident("会員", Some("member")), "member");
    }
}
