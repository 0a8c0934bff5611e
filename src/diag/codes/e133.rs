//! E133: A quotient by a value is not rounded where it is computed.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
        code: "E133",
        title: "A quotient by a value is not rounded where it is computed",
        when: "A division by a value that is not a literal appears anywhere but as the whole argument of `round(…)` or as the whole expression of an output that declares a rounding. Generated code holds every number as a whole int64; such a quotient is exact only as a pair, which a rounding divides and rounds in one step.",
        fix: "Make the division the last step inside `round(…, MODE, GRID)` — `round(a * 2 / b, half_up, 1)` rather than `round(a / b * 2, half_up, 1)` — or store it into an output that declares `round MODE(GRID)`.",
        example: "rule t v1\ninput a: int 0..100\ninput b: int 1..20\noutput r: int 0..1000\ndefine r = round(a / b * 2, half_up, 1)\n",
        related: &["E132", "E106"],
        budget: None,
};
