//! E105: Row no accepted input reaches.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E105",
    title: "Row no accepted input reaches",
    when: "No input the rule accepts can match the row: its cells contradict each other, a declared range, a \
            constraint, or what a derived column can be. Unlike E103, this is not about the rows above: the row is \
            empty by itself.",
    fix: "Remove the row, or correct the cell that rules it out. If the row describes a case that really \
            happens, the range or the constraint that excludes it is wrong.",
    example: "\
rule dead_row v1

input low: int 0..100
input high: int 0..100

constraint low <= high

output spread: int 0..2

table spread_of -> spread
| low  | high | spread |
|------|------|--------|
| <=50 | <=50 | 0      |
| -    | >50  | 1      |
| >50  | <=50 | 2      |
",
    related: &["E103", "E101"],
    budget: None,
};
