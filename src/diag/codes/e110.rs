//! E110: Cycle: values computed from each other.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E110",
    title: "Cycle: values computed from each other",
    when: "Tables and defines read each other in a circle — `a` is computed from `b` and `b` from `a`, directly \
            or through other names — so there is no order to evaluate them in.",
    fix: "Break the cycle: decide one of the names without the others, usually from the inputs alone.",
    example: "\
rule cycle v1

input x: int 0..10

output a: int 0..100

define a = b + 1
define b: int 0..100 = a + x
",
    related: &["E065"],
    budget: None,
};
