//! E065: Output or value not decided exactly once.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E065",
    title: "Output or value not decided exactly once",
    when: "An `output` or `value` is decided by nothing (no table has it after `->` and no `define` computes \
            it), or by two deciders (two tables, a table and a define, two defines), or a table decides an input, \
            which only the caller gives. It is also reported when the table or define that decides the name has an \
            error of its own; fix that one first.",
    fix: "Decide each output and value exactly once: a table with `-> NAME`, or (for an output) `define NAME = \
            EXPR`. Remove the second decider. To compute something from an input, declare a new `value` or `output` \
            for it.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output heavy: bool
output fee: money[USD] 0USD..100USD

define heavy = weight > 50lb
",
    related: &["E052", "E066", "E067"],
    budget: None,
};
