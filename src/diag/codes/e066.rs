//! E066: Computed, but no output depends on it.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E066",
    title: "Computed, but no output depends on it",
    when: "A `value` or `define` is computed, but nothing that leads to an output reads it: no table's column or \
            result cell, and no define of an output, uses it (a `constraint` does not count). It is also reported \
            when what reads it has an error of its own.",
    fix: "Read it where it matters (a condition column, a result cell, or the define of an output), or delete \
            it.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

define heavy = weight > 50lb
define fee = 10USD
",
    related: &["E065"],
    budget: None,
};
