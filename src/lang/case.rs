//! How each kind of identifier is spelled: the cases, the two spellings generated code
//! derives from a rule's names, and the cases rustc's and clippy's lints hold a Rust
//! identifier to (the Rust backend allows a lint where a name the naming pass kept breaks it).

/// How an identifier is spelled from its base (the alias, or the declared ASCII name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// As it is: `unit_price`.
    Keep,
    /// `unit_price` → `UnitPrice`.
    Pascal,
    /// `unit_price` → `unitPrice`.
    Camel,
    /// `_unit_price` → `_unitPrice`: camel case keeping the leading underscores, so that `_s`
    /// and `s` stay two names (a Swift value).
    CamelUnderscored,
    /// `unit_price` → `UNIT_PRICE`.
    Upper,
    /// `unit_price` → `unitprice` (a Go package).
    Flat,
    /// The first letter lowered: `MaritalStatus` → `maritalStatus` (a Ruby local or method).
    Lower,
    /// `unit_price` → `UNIT_PRICE`, starting with a letter (a Ruby constant).
    Constant,
}

impl Case {
    pub fn apply(self, base: &str) -> String {
        match self {
            Case::Keep => base.to_string(),
            Case::Pascal => pascal(base),
            Case::Camel => camel(base),
            Case::CamelUnderscored => {
                let rest = base.trim_start_matches('_');
                if rest.is_empty() {
                    camel(base)
                } else {
                    format!("{}{}", &base[..base.len() - rest.len()], camel(rest))
                }
            }
            Case::Upper => base.to_ascii_uppercase(),
            Case::Lower => {
                let mut c = base.chars();
                match c.next() {
                    Some(f) => f.to_ascii_lowercase().to_string() + c.as_str(),
                    None => String::new(),
                }
            }
            Case::Constant => {
                let up = base.to_ascii_uppercase();
                if up.starts_with(|c: char| c.is_ascii_uppercase()) {
                    up
                } else {
                    format!("V{up}")
                }
            }
            Case::Flat => {
                let flat: String = base.chars().filter(|c| *c != '_').map(|c| c.to_ascii_lowercase()).collect();
                if flat.is_empty() || flat.starts_with(|c: char| c.is_ascii_digit()) {
                    format!("x{flat}")
                } else {
                    flat
                }
            }
        }
    }

    /// The `n`th spelling of a name that is taken (n ≥ 2), in this case's own manner.
    pub fn numbered(self, ident: &str, n: usize) -> String {
        match self {
            Case::Pascal | Case::Camel | Case::CamelUnderscored | Case::Flat => format!("{ident}{n}"),
            Case::Keep | Case::Upper | Case::Lower | Case::Constant => format!("{ident}_{n}"),
        }
    }

    /// The spelling of a name the language reserves: `class_`; a Go package, which is
    /// letters and digits only, `mainrule`.
    pub fn escaped(self, ident: &str) -> String {
        match self {
            Case::Flat => format!("{ident}rule"),
            _ => format!("{ident}_"),
        }
    }
}

/// `coupon_kind` → `CouponKind`; `MaritalStatus` stays `MaritalStatus`.
pub fn pascal(s: &str) -> String {
    let out: String = s
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    if out.is_empty() {
        // A name of underscores only: still an identifier.
        "X".repeat(s.len().max(1))
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("X{out}")
    } else {
        out
    }
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

/// rustc's `non_snake_case`: lower case, one `_` at a time (leading and trailing ones aside).
pub fn is_snake(ident: &str) -> bool {
    let core = ident.trim_matches('_');
    !core.contains("__") && !core.chars().any(char::is_uppercase)
}

/// rustc's `non_camel_case_types`: no leading lower case, no `_` beside a letter.
pub fn is_camel(ident: &str) -> bool {
    let core: Vec<char> = ident.trim_matches('_').chars().collect();
    let cased = |c: char| c.is_uppercase() || c.is_lowercase();
    !core.first().is_some_and(|c| c.is_lowercase())
        && !core.windows(2).any(|w| (w[0] == '_' && (w[1] == '_' || cased(w[1]))) || (w[1] == '_' && cased(w[0])))
}

/// clippy's `upper_case_acronyms`: a name in capitals only.
pub fn is_acronym(ident: &str) -> bool {
    ident.len() > 1 && ident.chars().any(char::is_uppercase) && !ident.chars().any(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::{is_acronym, is_camel, is_snake};

    #[test]
    fn the_case_checks_are_rustcs() {
        assert!(is_snake("unit_price") && is_snake("_row0") && is_snake("trace_") && is_snake("x2"));
        assert!(!is_snake("fooBar") && !is_snake("a__b") && !is_snake("MaritalStatus"));
        assert!(is_camel("CouponKind") && is_camel("None_") && is_camel("Rate0_5") && is_camel("RED"));
        assert!(!is_camel("coupon") && !is_camel("Coupon_Kind") && !is_camel("A__B"));
        assert!(is_acronym("USD") && is_acronym("JPY") && !is_acronym("X") && !is_acronym("JPYInclTax"));
    }
}
