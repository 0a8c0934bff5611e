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
},
CodeInfo {
    code: "E107",
    title: "A declared range is not proven",
    when: "An output, a value or a define declares a range, and the checker cannot prove that what computes it stays inside: some input the rule is asked about may take it outside. The range is a claim that `rulec api` and `schema` publish, so it has to hold.",
    fix: "Widen the range to what the rule computes, or change the computation. The fix `widen_range` replaces the range with the proven interval joined with the declared one, in the variable's unit; which of the two is wrong is a business decision.",
    example: "rule t v1\ninput weight: int 1..12\noutput fee: money[JPY] 0JPY..1000JPY\ndefine fee = weight * 100JPY\n",
    related: &["E108"],
},
CodeInfo {
    code: "E108",
    title: "An integer of the evaluation may not fit in int64",
    when: "Generated code holds every number as a whole int64 at a fixed scale (docs/int64.md), and some integer it computes — a value, a product, an operand rescaled to meet another, a numerator handed to a rounding, a stored result — can leave int64 for an input the rule is asked about.",
    fix: "Narrow the input ranges, add a constraint, or reorder the arithmetic so each step stays small: divide or round before multiplying. The witness names the inputs that push the integer furthest.",
    example: "rule t v1\ninput price: money[JPY] 0JPY..1000000000000JPY\ninput qty: int 0..1000000000\noutput total: money[JPY] 0JPY..1000000000000000000JPY\ndefine total = price * qty * qty\n",
    related: &["E107"],
},
CodeInfo {
    code: "E132",
    title: "A divisor may be zero",
    when: "The divisor of `/` or `mod` can be zero for an input the rule is asked about: its interval contains zero and the constraints, the row's cells or the `if` around it do not rule zero out.",
    fix: "Guard the division (`if people > 0 then … else …`, or a table row that takes the zero case), or exclude zero from the input's range. The witness gives inputs that make the divisor zero.",
    example: "rule t v1\ninput bill: money[JPY] 0JPY..100000JPY\ninput people: int 0..20\noutput share: money[JPY] 0JPY..100000JPY round up(1JPY)\ndefine share = bill / people\n",
    related: &["E133"],
},
CodeInfo {
    code: "E133",
    title: "A quotient by a value is not rounded where it is computed",
    when: "A division by a value that is not a literal appears anywhere but as the whole argument of `round(…)` or as the whole expression of an output that declares a rounding. Generated code holds every number as a whole int64; such a quotient is exact only as a pair, which a rounding divides and rounds in one step.",
    fix: "Make the division the last step inside `round(…, MODE, GRID)` — `round(a * 2 / b, half_up, 1)` rather than `round(a / b * 2, half_up, 1)` — or store it into an output that declares `round MODE(GRID)`.",
    example: "rule t v1\ninput a: int 0..100\ninput b: int 1..20\noutput r: int 0..1000\ndefine r = round(a / b * 2, half_up, 1)\n",
    related: &["E132", "E106"],
},
CodeInfo {
    code: "E134",
    title: "A whole square root of a value that may be negative",
    when: "The argument of `isqrt` can be below zero for an input the rule is asked about; the root of a negative number has no answer.",
    fix: "Take the root of a value that cannot be negative, such as `isqrt(max(x, 0))`, or narrow what the inputs may be. The witness gives inputs that make it negative.",
    example: "rule t v1\ninput a: int -10..100\noutput r: int 0..10\ndefine r = isqrt(a)\n",
    related: &["E132"],
}];
