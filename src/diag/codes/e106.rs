//! E106: Missing rounding.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E106",
    title: "Missing rounding",
    when: "A computed value can be finer than the unit of the output, value or declared define that stores it — \
            `price * 10%` can be a fraction of a yen, `bill / people` a fraction of a cent — and nothing rounds it. \
            The language never rounds implicitly.",
    fix: "Declare the rounding on the output (`output tax: money[JPY] 0JPY..100000JPY round down(1JPY)`), or \
            round in the expression (`round(price * 10%, half_up, 1JPY)`). The fix `add_rounding` proposes \
            `half_even` to one unit; the direction and the grid are business decisions, so check them.",
    example: "\
rule missing_rounding v1

input price: money[JPY] 0JPY..1000000JPY

output tax: money[JPY] 0JPY..100000JPY

define tax = price * 10%
",
    related: &["E072", "E107"],
    budget: None,
};
