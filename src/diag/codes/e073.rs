//! E073: Comparisons do not chain.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E073",
    title: "Comparisons do not chain",
    when: "Two comparisons are written one after the other, as in `10lb < weight <= 30lb`. A comparison gives \
            true or false, so a second comparison would compare a boolean with a number.",
    fix: "Join the two comparisons with `and`: `weight > 10lb and weight <= 30lb`. In a table cell the same band \
            is two bounds: `>10lb <=30lb`.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output medium: bool

define medium = 10lb < weight <= 30lb
",
    related: &["E002"],
    budget: None,
};
