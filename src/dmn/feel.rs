//! FEEL unary tests (DMN 1.3 §7.3.2 and §10.3.2.9.1), the part of FEEL a decision table's
//! input entries are written in, and the literals of output entries. Anything else is
//! refused with the reason, for the importer to name the element.

use crate::num::{parse_decimal, Rat};

#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    /// Kept exact: a FEEL number is a decimal.
    Num(Rat),
    Str(String),
    Bool(bool),
    /// `date("YYYY-MM-DD")`, the text between the quotes.
    Date(String),
    Null,
}

/// One side of a test: a literal, or the name of another input or decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Lit(Lit),
    Name(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn as_str(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    Eq(Operand),
    Cmp(Cmp, Operand),
    /// `[a..b]`, `(a..b]`, `]a..b[`, …: each end closed or open.
    Range {
        lo: Operand,
        lo_closed: bool,
        hi: Operand,
        hi_closed: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Any,
    Tests { negated: bool, tests: Vec<Test> },
}

/// Reads an input entry (or `inputValues`).
pub fn unary_tests(text: &str) -> Result<Cell, String> {
    let t = text.trim();
    if t == "-" || t.is_empty() {
        return Ok(Cell::Any);
    }
    let (negated, inner) = match t.strip_prefix("not") {
        Some(rest) if rest.trim_start().starts_with('(') && rest.trim_end().ends_with(')') => {
            let rest = rest.trim();
            (true, &rest[1..rest.len() - 1])
        }
        _ => (false, t),
    };
    let mut tests = Vec::new();
    for part in split_top(inner)? {
        tests.push(test(part.trim())?);
    }
    Ok(Cell::Tests { negated, tests })
}

/// Reads an output entry: one literal or one name.
pub fn output_entry(text: &str) -> Result<Operand, String> {
    operand(text.trim())
}

/// Splits at the commas outside strings, brackets and parentheses.
fn split_top(s: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut in_str, mut escaped, mut start) = (0i32, false, false, 0);
    for (i, c) in s.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if in_str {
        return Err("a string is not closed".into());
    }
    parts.push(&s[start..]);
    if parts.iter().any(|p| p.trim().is_empty()) {
        return Err("an empty test in a list".into());
    }
    Ok(parts)
}

fn test(t: &str) -> Result<Test, String> {
    if t.contains('?') && !t.starts_with('"') {
        return Err("`?` (the input value inside an expression) is FEEL beyond unary tests".into());
    }
    for (op, cmp) in [("<=", Cmp::Le), (">=", Cmp::Ge), ("<", Cmp::Lt), (">", Cmp::Gt)] {
        if let Some(rest) = t.strip_prefix(op) {
            return Ok(Test::Cmp(cmp, operand(rest.trim())?));
        }
    }
    let first = t.chars().next().unwrap_or(' ');
    if matches!(first, '[' | '(' | ']') && t.contains("..") {
        let last = t.chars().last().unwrap_or(' ');
        let lo_closed = first == '[';
        let hi_closed = match last {
            ']' => true,
            ')' | '[' => false,
            _ => return Err(format!("`{t}` is not a range: it must end with `]`, `)` or `[`")),
        };
        let body = &t[1..t.len() - 1];
        let (lo, hi) = body.split_once("..").ok_or_else(|| format!("`{t}` is not a range"))?;
        return Ok(Test::Range { lo: operand(lo.trim())?, lo_closed, hi: operand(hi.trim())?, hi_closed });
    }
    Ok(Test::Eq(operand(t)?))
}

fn operand(t: &str) -> Result<Operand, String> {
    if t.is_empty() {
        return Err("a test without a value".into());
    }
    if let Some(body) = t.strip_prefix('"') {
        return string(body).map(|s| Operand::Lit(Lit::Str(s)));
    }
    match t {
        "true" => return Ok(Operand::Lit(Lit::Bool(true))),
        "false" => return Ok(Operand::Lit(Lit::Bool(false))),
        "null" => return Ok(Operand::Lit(Lit::Null)),
        _ => {}
    }
    if let Some(arg) = t.strip_prefix("date(").and_then(|r| r.strip_suffix(')')) {
        let arg = arg.trim();
        return match arg.strip_prefix('"').map(string) {
            Some(Ok(d)) if crate::num::date::parse(&d).is_some() => Ok(Operand::Lit(Lit::Date(d))),
            _ => Err(format!("`{t}` is not a date literal `date(\"YYYY-MM-DD\")`")),
        };
    }
    let c = t.chars().next().unwrap_or(' ');
    if c.is_ascii_digit() || c == '-' || c == '.' {
        let digits = t.strip_prefix('-').unwrap_or(t).trim_start();
        let ok = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.');
        let text = if t.starts_with('-') { format!("-{digits}") } else { digits.to_string() };
        return match parse_decimal(&text) {
            Some(v) if ok => Ok(Operand::Lit(Lit::Num(v))),
            _ => Err(format!("`{t}` is FEEL beyond unary tests (an expression, not a literal)")),
        };
    }
    // A FEEL name may hold spaces and dots (a path); the importer resolves it.
    // FEEL lets `-`, `/`, `+`, `*` and `'` stand inside a name (`Pre-bureauRiskCategory`).
    if t.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '.' | '\'' | '-' | '/' | '+' | '*'))
        && c.is_alphabetic()
    {
        return Ok(Operand::Name(t.to_string()));
    }
    Err(format!("`{t}` is FEEL beyond unary tests (an expression, not a literal or a name)"))
}

/// The rest of a string literal after its opening quote; nothing may follow the closing one.
fn string(body: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                return if chars.as_str().trim().is_empty() {
                    Ok(out)
                } else {
                    Err("text after a string: FEEL beyond unary tests".into())
                }
            }
            '\\' => match chars.next() {
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('n') => out.push('\n'),
                _ => return Err("an escape in a string other than `\\\"`, `\\\\`, `\\n`".into()),
            },
            c => out.push(c),
        }
    }
    Err("a string is not closed".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::int;

    fn num(n: i64) -> Operand {
        Operand::Lit(Lit::Num(int(n)))
    }

    #[test]
    fn every_form_reads() {
        assert_eq!(unary_tests(" - ").unwrap(), Cell::Any);
        assert_eq!(
            unary_tests("[1..5)").unwrap(),
            Cell::Tests {
                negated: false,
                tests: vec![Test::Range { lo: num(1), lo_closed: true, hi: num(5), hi_closed: false }]
            }
        );
        assert_eq!(
            unary_tests("not(\"a\", <= -2)").unwrap(),
            Cell::Tests {
                negated: true,
                tests: vec![Test::Eq(Operand::Lit(Lit::Str("a".into()))), Test::Cmp(Cmp::Le, num(-2))]
            }
        );
        assert_eq!(
            unary_tests("> Other Input").unwrap(),
            Cell::Tests { negated: false, tests: vec![Test::Cmp(Cmp::Gt, Operand::Name("Other Input".into()))] }
        );
        assert!(unary_tests("? > 5").unwrap_err().contains('?'));
        assert!(unary_tests("a + 1)").is_err());
        assert!(unary_tests("date(\"2026-02-30\")").is_err());
    }
}
