//! E078: A list where a rule cannot hold one.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E078",
    title: "A list where a rule cannot hold one",
    when: "A `list[T]` is the answer of a `collect`, `rule_order` or `output_order` table for the caller: only an \
            output is a list, its element is not optional, only such a table decides it, and nothing in the rule \
            reads it (a column, an expression).",
    fix: "Declare `output NAME: list[T]` and decide it by a list policy; to count or add up the rows that hold \
            for a later table, decide a value with `collect count` or `collect sum` instead.",
    example: "\
rule offers v1

enum offer: gold, silver

input age: int 18..100

output offers: list[offer]

table offers_of first -> offers
| age  | offers |
|------|--------|
| >=25 | gold   |
| -    | silver |
",
    related: &["E077"],
    budget: None,
};
