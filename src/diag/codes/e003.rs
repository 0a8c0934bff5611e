//! E003: Unterminated string or unknown escape.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E003",
    title: "Unterminated string or unknown escape",
    when: "A string has no closing `\"` on its line (a string cannot continue on the next line), or it holds a \
            backslash escape other than `\\\"` (a double quote) and `\\\\` (a backslash).",
    fix: "Close the string on the line where it starts. Inside a string, write `\\\"` for a double quote and \
            `\\\\` for a backslash.",
    example: "\
rule parcel v1
about \"What one parcel costs to ship

input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
    related: &["E001"],
    budget: None,
};
