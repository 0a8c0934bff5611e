//! E008: Number with too many digits.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E008",
    title: "Number with too many digits",
    when: "A number is written with more than 100 digits, counting those before and after the point. Every \
            value a rule computes with is a whole int64 in its unit, at most 19 digits, so such a number is almost \
            always text pasted by mistake; rulec refuses it before converting it, since reading a number of a \
            million digits would take minutes.",
    fix: "Write the number in a unit that makes it short (`5kg` rather than `5000000000mg`), or remove the \
            digits that do not belong.",
    example: "\
rule wide v1

input x: int 0..10

output y: int 0..10

define y = x + 0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001
",
    related: &["E049"],
    budget: None,
};
