//! E071: Range is empty or has no order.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E071",
    title: "Range is empty or has no order",
    when: "A declared range has its low end above its high end (`70lb..1lb`), or it is declared on a type \
            without an order: `bool`, `string` or an unordered enum.",
    fix: "Write the smaller end first (`1lb..70lb`). Remove a range from a bool, a string or an unordered enum; \
            an ordered enum input may declare a range of its values (`silver..gold`).",
    example: "\
rule parcel v1

input weight: mass[lb] 70lb..1lb

output heavy: bool

define heavy = weight > 50lb
",
    related: &["E054"],
    budget: None,
};
