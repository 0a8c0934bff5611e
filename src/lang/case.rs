//! How each kind of identifier is spelled: the cases, and the two spellings generated code
//! derives from a rule's names.

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
