//! E075: Two declarations have one identifier in generated code.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E075",
    title: "Two declarations have one identifier in generated code",
    when: "Generated code names a declaration by its alias, or by its name when the name is ASCII. Two inputs, \
            outputs, values or defines whose aliases (or alias and name) are the same, two enums whose identifiers \
            are the same, or two values of one enum whose identifiers are the same would be one name in every \
            language: `input 重さ(w)` beside `input w`.",
    fix: "Give one of them another alias. The wire, the records and the vectors keep the declared names either way.",
    example: "\
rule t v1

input 重さ(w): int 0..10
input w: int 0..10

output y: int 0..20

define y = 重さ + w
",
    related: &["W121"],
    budget: None,
};
