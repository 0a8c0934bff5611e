//! Names in generated code: identifiers from aliases, type names from units and enums.

use crate::sema::*;

/// The union of the target languages' keywords the backends before the naming pass used.
/// (legacy) The keywords and reserved words of the target languages. A rule's name that is one of
/// them is written with `_` after it in every language, so one rule reads the same everywhere.
pub const TARGET_KEYWORDS: &[&str] = &[
    // Rust
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    // Python
    "and",
    "assert",
    "class",
    "def",
    "del",
    "elif",
    "except",
    "finally",
    "from",
    "global",
    "import",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "with",
    "None",
    "True",
    "False",
    // TypeScript / JavaScript
    "case",
    "catch",
    "debugger",
    "default",
    "delete",
    "export",
    "extends",
    "function",
    "instanceof",
    "new",
    "null",
    "switch",
    "this",
    "throw",
    "var",
    "void",
    "let",
    "enum",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "arguments",
    "eval",
    "undefined",
    "NaN",
    "Infinity",
    // Go
    "chan",
    "defer",
    "fallthrough",
    "func",
    "go",
    "goto",
    "map",
    "range",
    "select",
    // Java
    "boolean",
    "byte",
    "char",
    "double",
    "float",
    "int",
    "long",
    "short",
    "native",
    "strictfp",
    "synchronized",
    "throws",
    "transient",
    "volatile",
    "goto",
    "record",
    "sealed",
    "permits",
    "var",
    // Ruby
    "begin",
    "end",
    "ensure",
    "module",
    "next",
    "redo",
    "rescue",
    "retry",
    "undef",
    "unless",
    "until",
    "then",
    // PHP
    "array",
    "echo",
    "empty",
    "isset",
    "list",
    "print",
    "unset",
    "require",
    "include",
    "namespace",
    "trait",
    // Swift
    "associatedtype",
    "deinit",
    "extension",
    "fileprivate",
    "init",
    "inout",
    "internal",
    "operator",
    "precedencegroup",
    "protocol",
    "subscript",
    "typealias",
    "guard",
    "repeat",
    "rethrows",
    "Any",
];

pub fn is_target_keyword(s: &str) -> bool {
    TARGET_KEYWORDS.contains(&s)
}

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
