//! E077: A multiple-hit table's result is not what its policy answers.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E077",
    title: "A multiple-hit table's result is not what its policy answers",
    when: "Under `collect`, `rule_order`, `output_order` and `collect sum|min|max|count` every row that holds \
            counts, and the table decides one result from them: a list for the first three, a number for a sum, a \
            number or a date for a least or greatest, an `int` for a count. The table decides more than one result, \
            its result has another type, a row answers `none`, or a `default` is written on a value no \
            `collect sum|min|max` table decides.",
    fix: "Decide one result per multiple-hit table; declare it as the policy answers (`list[T]`, a number, an \
            `int`); give every row a value; write `default` only on the result of a sum, a least or a greatest, \
            where it is the answer when no row holds.",
    example: "\
rule points v1

input age: int 18..100

output score: string

table score_of collect sum -> score
| age  | score |
|------|-------|
| >=25 | \"a\"   |
",
    related: &["E078", "E101"],
    budget: None,
};
