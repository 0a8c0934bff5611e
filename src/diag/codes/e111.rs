//! E111: `expect` disagrees with the rule.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E111",
    title: "`expect` disagrees with the rule",
    when: "Running an `expect` line's inputs through the reference evaluator gives an output other than the one \
            the line states, or no answer at all (for example when no row matches). The diagnostic shows both values \
            and the rows that fired.",
    fix: "Decide which one is right. If the rule is right, correct the `expect` (the fix `add_expected` writes the \
            value the rule computes in its place); if the `expect` is right, the rule has a bug, and the rows that \
            fired show where to look.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| weight | fee   |
|--------|-------|
| <=50lb | 10USD |
| >50lb  | 25USD |

expect weight=50lb -> fee=25USD
",
    related: &["E068", "E101"],
    budget: None,
};
