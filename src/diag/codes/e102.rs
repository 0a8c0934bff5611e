//! E102: Overlap: two rows match one input.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E102",
    title: "Overlap: two rows match one input",
    when: "In a `unique` table (the default policy), two rows match the same input, so the result would depend \
            on which one is read. The diagnostic names both rows and a witness input that matches both. A common \
            cause is a boundary written into both rows (`<=10lb` and `>=10lb`).",
    fix: "Make the rows exclusive, for example `>10lb` instead of `>=10lb` — where the rows meet at that one \
            cut alone, the fix `flip_bound` writes it so. If the earlier row is meant to win, declare the table \
            `first` — the fix `change_policy` does exactly that where no bound can be flipped, a form that removes \
            the overlap rather than a decision about which row is right; if the rows give the same result wherever \
            they meet, declare it `any`.",
    example: "\
rule overlap v1

input weight: mass[lb] 1lb..70lb

output band: int 1..3

table band_of -> band
| weight        | band |
|---------------|------|
| <=10lb        | 1    |
| >=10lb <=30lb | 2    |
| >30lb         | 3    |
",
    related: &["E101", "E103", "E104", "W114"],
    budget: None,
};
