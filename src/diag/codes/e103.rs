//! E103: Row can never fire: rows above cover it.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E103",
    title: "Row can never fire: rows above cover it",
    when: "In a `first` table, every input that matches a row is already matched by rows above it, so the row \
            never wins.",
    fix: "Remove the row (the fix `remove_row`), or move it above the rows that cover it when it was meant to \
            take precedence — for example `>=65` before `>=18`.",
    example: "\
rule shadowed v1

input age: int 0..120

output price: money[JPY] 0JPY..3000JPY

table price_of first -> price
| age  | price   |
|------|---------|
| <=17 | 800JPY  |
| >=18 | 1500JPY |
| >=65 | 1000JPY |
",
    related: &["E102", "E105"],
    budget: None,
};
