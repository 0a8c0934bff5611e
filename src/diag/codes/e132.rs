//! E132: Divisor may be zero.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E132",
    title: "Divisor may be zero",
    when: "A `/` divides by a value that can be zero for some input the rule accepts.",
    fix: "Keep zero out of the divisor: start its range above zero (`input people: int 1..20`), add a \
            `constraint` that excludes it, or divide by a value that cannot be zero (`max(people, 1)`).",
    example: "\
rule divide_by_zero v1

input bill: money[JPY] 0JPY..100000JPY
input people: int 0..20

output share: money[JPY] 0JPY..100000JPY round up(1JPY)

define share = bill / people
",
    related: &["E108", "E106"],
    budget: None,
};
