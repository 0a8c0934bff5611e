//! The registry of diagnostic codes: what `rulec explain` prints. Codes are stable; a code
//! is never reused or renumbered. Every example is a rule that really produces its code
//! (tests/explain.rs runs each one).

use super::Severity;

pub struct CodeInfo {
    pub code: &'static str,
    pub title: &'static str,
    /// When the code is reported.
    pub when: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// A rule that produces the code.
    pub example: &'static str,
    pub related: &'static [&'static str],
}

pub fn severity_of(code: &str) -> Severity {
    match code.as_bytes().first() {
        Some(b'W') => Severity::Warning,
        Some(b'N') => Severity::Note,
        _ => Severity::Error,
    }
}

pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

pub static CODES: &[CodeInfo] = &[CodeInfo {
    code: "E049",
    title: "A literal is not written the one way it is written",
    when: "A number is written with thousands separators (`1,000JPY`). A comma always separates list items, so a number has one spelling: its digits.",
    fix: "Write the number without separators (`1000JPY`). The fix `rewrite_literal` carries the literal as it has to be written.",
    example: "rule t v1\ninput price: money[JPY] 0JPY..100000JPY\noutput cheap: bool\ntable cheap_of -> cheap\n| price     | cheap |\n|-----------|-------|\n| <1,000JPY | true  |\n| >=1000JPY | false |\n",
    related: &[],
}];
