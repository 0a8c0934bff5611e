//! E074: A constraint reads a value that is not an input.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E074",
    title: "A constraint reads a value that is not an input",
    when: "A `constraint` reads a define, a value or an output. Constraints are what every call guarantees: the \
            door checks them before the rule computes anything, so they can read only inputs.",
    fix: "State the guarantee over the inputs the value is computed from: for `define m = n * 2`, write \
            `constraint n * 2 <= 5` rather than `constraint m <= 5`.",
    example: "\
rule t v1

input n: int 0..10

constraint m <= 5

output y: int 0..20

define m = n * 2
define y = m
",
    related: &["E050"],
    budget: None,
};
