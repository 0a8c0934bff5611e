//! E079: A value of an element read where there is no element.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E079",
    title: "A value of an element read where there is no element",
    when: "A field of a sequence's element, or a value computed from one, has a value for each element and \
            exists only on a walk over that sequence. It is read by an output, a constraint or a value of the call \
            without a summary (`sum`, `count`, `max`, `min`) or a fold; or one value reads elements of two \
            sequences; or a summary's empty answer reads an element; or a sequence declares no sensible count.",
    fix: "Summarise the elements first — `define total = sum amount over lines` — and read the summary; walk one \
            sequence at a time, reading a summary of the other.",
    example: "\
rule per_element v1

elements lines up to 10: amount: money[JPY] 0JPY..1000JPY

output fee: money[JPY] 0JPY..1000JPY

define fee = amount
",
    related: &["E080", "E110"],
    budget: None,
};
