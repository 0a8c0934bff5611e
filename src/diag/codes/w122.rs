//! W122: A summary's range that only the caller keeps.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "W122",
    title: "A summary's range that only the caller keeps",
    when: "A summary over a sequence declares a range that lists of the declared count can leave: the elements' \
            ranges times the count reach past it. The generated code refuses such a call after the walk with the \
            sentence of an input out of range, and `rulec graph` lists the range under preconditions: keeping \
            the list within it is the caller's part.",
    fix: "Widen the range to what the elements can make, or declare fewer elements (`up to N`) or narrower \
            fields, if the range is what every call must meet.",
    example: "\
rule cart_total v1

elements lines up to 50: amount: money[JPY] 0JPY..100000JPY

output fee: money[JPY] 0JPY..500JPY

define total: money[JPY] 0JPY..1000000JPY = sum amount over lines

table fee_of -> fee
| total     | fee    |
|-----------|--------|
| <5000JPY  | 500JPY |
| >=5000JPY | 0JPY   |
",
    related: &["E107", "E108"],
    budget: None,
};
