//! E108: Possible int64 overflow.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E108",
    title: "Possible int64 overflow",
    when: "An intermediate value of the evaluation the generated code performs (in its int64, scaled form) can \
            leave the int64 range for some input inside the declared ranges. Products of several large inputs are \
            the usual cause.",
    fix: "Narrow the input ranges to what the business really sends, reorder the computation so that it divides \
            or caps (`min`) before it multiplies, or compute in a coarser unit.",
    example: "\
rule overflow v1

input price: money[JPY] 0JPY..1000000000000JPY
input qty: int 0..1000000000

output total: money[JPY] 0JPY..1000000000000000000JPY

define total = price * qty * qty
",
    related: &["E107", "E132"],
    budget: None,
};
