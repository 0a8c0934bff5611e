//! E101: Gap: some input matches no row.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E101",
    title: "Gap: some input matches no row",
    when: "Some input the rule accepts — inside the declared ranges and the constraints — matches no row of a \
            table, whatever its policy. The diagnostic shows a witness: one such input.",
    fix: "Add a row for the missing case; the fix `add_row` proposes one that covers the witness's region, with \
            its result left for you to decide. In a `first` table the fix is `mark_default` instead: one last row \
            with `-` in every condition cell, DMN's default, which takes every input no earlier row takes — it \
            closes every gap of the table at once and can never mask an earlier row; its result too is a \
            placeholder for you to decide. (In a `unique` or `any` table such a row would meet every other row, \
            and in a `priority` table its rank would decide what it masks, so there the fix stays `add_row`.) If \
            the case can really never happen, say so in the rule: narrow the input's range or add a `constraint`.",
    example: "\
rule gap v1

enum zone: domestic, overseas
enum size_class: small, large

input dest: zone
input size: size_class

output fee: money[USD] 0USD..100USD

table base_rate -> fee
| dest     | size  | fee   |
|----------|-------|-------|
| domestic | small | 8USD  |
| domestic | large | 20USD |
| overseas | large | 45USD |
",
    related: &["E102", "E105", "E111"],
    budget: None,
};
