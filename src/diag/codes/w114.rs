//! W114: Rows not proven apart.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "W114",
    title: "Rows not proven apart",
    when: "The checker can neither prove that two rows of a table never meet nor find an input that matches \
            both. This happens when whether they meet depends on non-linear arithmetic between columns — products of \
            inputs, `mod`, `isqrt`, rounding. The rule is accepted, and the generated code carries a guard that \
            refuses, at run time, an input that matches both rows.",
    fix: "Prefer conditions the checker can reason about: write them on the inputs themselves, or on values that \
            are sums, differences or constant multiples of them. If the rows are meant to be ordered, declare the \
            table `first`.",
    example: "\
rule packing v1

input boxes: int 0..1000000
input per_box: int 0..1000000

output band: int 1..3

define items = boxes * per_box
define handled = boxes + per_box

table band_of -> band
| items        | handled  | band |
|--------------|----------|------|
| >2500000000  | -        | 1    |
| -            | <=100000 | 2    |
| <=2500000000 | >100000  | 3    |
",
    related: &["E102", "E104", "E109"],
    budget: None,
};
