//! E076: A `priority` table's result is not a member of an enum.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E076",
    title: "A `priority` table's result is not a member of an enum",
    when: "Under `priority` the row that answers is, of the rows that match, the one whose result comes first \
            in its enum's declared order (the first result first, then the next). That order needs every result of \
            the table to be an enum, and every row to give each result one member: not `none`, not an expression.",
    fix: "Give the result an enum type whose values are listed in the order they win, and write a member in every \
            row; or make the table `first` and order its rows yourself.",
    example: "\
rule shipping v1

input weight: int 0..50

output days: int 1..10

table days_of priority -> days
| weight | days |
|--------|------|
| <=10   | 2    |
| -      | 5    |
",
    related: &["E103"],
    budget: None,
};
