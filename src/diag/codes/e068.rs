//! E068: `expect` line cannot be run.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E068",
    title: "`expect` line cannot be run",
    when: "An `expect` line names something that is not an input before `->` or not an output after it, gives an \
            input twice, leaves out an input that is not optional, gives `none` to an input that is not optional, or \
            gives inputs the rule refuses at the door (outside a declared range, or against a `constraint`).",
    fix: "Before `->`, give every input once, with a value the rule accepts (an optional input may be left out, \
            meaning none); after `->`, name outputs only.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb
input express: bool

output heavy: bool

define heavy = weight > 50lb

expect weight=60lb -> heavy=true
",
    related: &["E111", "E050"],
    budget: None,
};
