//! E067: Result columns are not the rightmost.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E067",
    title: "Result columns are not the rightmost",
    when: "The columns a table decides — the names after `->` in its heading — are not the last columns of its \
            header row, in the same order. Often the heading and the column are spelled differently (`-> fee` over a \
            column `price`), or a condition column was added to the right of the results.",
    fix: "Make the last columns of the header row exactly the names after `->`, in that order: correct the \
            heading or the column, and move condition columns to the left of the results.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| weight | price |
|--------|-------|
| <=50lb | 10USD |
| >50lb  | 25USD |
",
    related: &["E004", "E065"],
    budget: None,
};
