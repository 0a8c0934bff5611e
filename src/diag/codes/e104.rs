//! E104: `any` rows disagree where they meet.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E104",
    title: "`any` rows disagree where they meet",
    when: "In an `any` table, two rows match a common input but give different results. `any` lets rows meet \
            only where they agree. The diagnostic names both rows and a witness input.",
    fix: "Give the two rows the same result where they meet, or make them exclusive by tightening their \
            conditions. If the earlier row is meant to win, declare the table `first`.",
    example: "\
rule any_disagree v1

input age: int 0..120

output price: money[JPY] 0JPY..2000JPY

table price_of any -> price
| age  | price   |
|------|---------|
| >=65 | 1000JPY |
| >=18 | 1500JPY |
| <18  | 800JPY  |
",
    related: &["E102", "E103"],
    budget: None,
};
