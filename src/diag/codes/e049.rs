//! E049: Number written with thousands separators.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E049",
    title: "Number written with thousands separators",
    when: "A number is written with thousands separators (`1,000JPY`, `1,000`). The language has one spelling \
            per number: its digits. The separated form (a number, a comma and exactly three digits, no space \
            between) is recognised in cells, ranges and `expect` lines only to answer it with this error.",
    fix: "Write the number without separators (`1000JPY`). The fix `rewrite_literal` carries the literal as it \
            has to be written. In argument lists put a space after each comma (`max(1, 100)`), which is how `rulec \
            fmt` prints every list.",
    example: "\
rule literal v1

input price: money[JPY] 0JPY..100000JPY

output cheap: bool

table cheap_of -> cheap
| price     | cheap |
|-----------|-------|
| <1,000JPY | true  |
| >=1000JPY | false |
",
    related: &["E002"],
    budget: None,
};
