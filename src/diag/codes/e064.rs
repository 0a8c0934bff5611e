//! E064: Group is not part of one enum.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E064",
    title: "Group is not part of one enum",
    when: "A `group` lists values that no single enum has all of (a value is misspelled, missing from the enum, \
            or belongs to another enum), or values that more than one enum has.",
    fix: "List values of exactly one enum, spelled as the enum declares them; add a value to the enum first if \
            the business needs it.",
    example: "\
rule shipping v1

enum zone: domestic, canada, overseas
group north_america = domestic, canada, mexico

input dest: zone

output near: bool

define near = dest != overseas
",
    related: &["E050", "E052"],
    budget: None,
};
