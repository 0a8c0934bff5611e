//! E054: Input declares no range.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E054",
    title: "Input declares no range",
    when: "An `int`, `money`, `mass`, `length`, `duration` or `rate` input declares no `LO..HI`. Completeness, \
            overlap and int64 safety are proven over the declared domain, so every counted input must say which \
            values it accepts.",
    fix: "Add the range after the type, such as `input qty: int 1..99`. The fix `add_range` inserts a \
            placeholder range in the input's unit; replace it with the smallest and largest value a caller may \
            really send. Calls outside the range are refused.",
    example: "\
rule missing_range v1

input qty: int

output total: int 0..100

define total = min(qty, 100)
",
    related: &["E071", "E107", "E108"],
    budget: None,
};
