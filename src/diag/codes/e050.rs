//! E050: Unknown name.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E050",
    title: "Unknown name",
    when: "A name is read that nothing declares: in an expression or a constraint, as a table's column or \
            result, or as a value of an enum in a cell or an `expect` line. No input, output, value, define or enum \
            value has that name — most often it is misspelled.",
    fix: "Correct the spelling, or declare the name: `input …`, `value …`, `define NAME = …`, or add the value \
            to its `enum`. A table's result (after `->`) must be declared as an `output` or a `value`.",
    example: "\
rule order v1

input total: money[JPY] 0JPY..100000JPY
input discount: money[JPY] 0JPY..100000JPY

constraint discount <= totl

output due: money[JPY] 0JPY..100000JPY

define due = total - discount
",
    related: &["E051", "E063", "E068"],
    budget: None,
};
