//! The registry of diagnostic codes: what `rulec explain` prints, one file per code (as
//! rustc_error_codes keeps them). Codes are stable; a code is never reused or renumbered. Every example is a rule that really produces its code
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
    /// The `--budget` the example needs to reproduce the code (only E109 has one).
    pub budget: Option<u64>,
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

mod e001;
mod e002;
mod e003;
mod e004;
mod e005;
mod e006;
mod e007;
mod e008;
mod e010;
mod e049;
mod e050;
mod e051;
mod e052;
mod e053;
mod e054;
mod e055;
mod e056;
mod e060;
mod e061;
mod e062;
mod e063;
mod e064;
mod e065;
mod e066;
mod e067;
mod e068;
mod e069;
mod e071;
mod e072;
mod e073;
mod e074;
mod e075;
mod e076;
mod e077;
mod e078;
mod e079;
mod e080;
mod e101;
mod e102;
mod e103;
mod e104;
mod e105;
mod e106;
mod e107;
mod e108;
mod e109;
mod e110;
mod e111;
mod e132;
mod e133;
mod e134;
mod w114;
mod w121;
mod w122;

/// Sorted by code.
pub static CODES: &[CodeInfo] = &[
    e001::INFO,
    e002::INFO,
    e003::INFO,
    e004::INFO,
    e005::INFO,
    e006::INFO,
    e007::INFO,
    e008::INFO,
    e010::INFO,
    e049::INFO,
    e050::INFO,
    e051::INFO,
    e052::INFO,
    e053::INFO,
    e054::INFO,
    e055::INFO,
    e056::INFO,
    e060::INFO,
    e061::INFO,
    e062::INFO,
    e063::INFO,
    e064::INFO,
    e065::INFO,
    e066::INFO,
    e067::INFO,
    e068::INFO,
    e069::INFO,
    e071::INFO,
    e072::INFO,
    e073::INFO,
    e074::INFO,
    e075::INFO,
    e076::INFO,
    e077::INFO,
    e078::INFO,
    e079::INFO,
    e080::INFO,
    e101::INFO,
    e102::INFO,
    e103::INFO,
    e104::INFO,
    e105::INFO,
    e106::INFO,
    e107::INFO,
    e108::INFO,
    e109::INFO,
    e110::INFO,
    e111::INFO,
    e132::INFO,
    e133::INFO,
    e134::INFO,
    w114::INFO,
    w121::INFO,
    w122::INFO,
];
