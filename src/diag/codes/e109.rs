//! E109: Analysis budget exceeded.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E109",
    title: "Analysis budget exceeded",
    when: "The analysis of a table needed more work than its budget allows and stopped before it proved the \
            table complete and its rows apart. Large tables over many columns can reach the default budget; the \
            example reaches it with `rulec check --budget 1`. The same code, on the rule's name, says the whole \
            command ran out of its allowance of steps for the rule (`--steps`, 5,000,000 by default): every step of \
            the linear reasoning and every box a table splits counts, over every table, define and constraint, so \
            a rule whose constraints tie forty inputs together stops instead of running for minutes.",
    fix: "Raise the budget with `rulec check --budget N`, or split the table: decide an intermediate `value` in \
            a smaller table first. For the rule's allowance, raise it with `--steps N` (on check, gen, graph, doc \
            and diff), or split the rule. Nothing is proven about the table (or the rule) until its analysis \
            finishes.",
    example: "\
rule parcel v1

enum zone: domestic, canada, overseas

input weight: mass[lb] 1lb..70lb
input dest: zone

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| dest     | weight | fee   |
|----------|--------|-------|
| domestic | <=10lb | 8USD  |
| domestic | >10lb  | 15USD |
| canada   | -      | 20USD |
| overseas | -      | 45USD |
",
    related: &["E101", "E102", "W114"],
    budget: Some(1),
};
