//! E004: Table not laid out as a table.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E004",
    title: "Table not laid out as a table",
    when: "A table does not have the Markdown shape the language requires: the `table` line has no header row \
            right below it, the `|---|` line under the header is missing or has another number of columns than the \
            header, a row has more or fewer cells than the header, a cell is empty, a line does not start and end \
            with `|`, or a `|` line stands outside any table.",
    fix: "Write `table NAME -> RESULT`, then the header row naming every column, then the `|---|` line with one \
            `---` per column, then one row per line with one cell per column. Write `-` in a condition cell that \
            takes any value. A blank line ends a table, and no comment may stand between the `table` line and its \
            header row.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output heavy: bool

table heavy_of -> heavy
| weight | heavy |
| <=50lb | false |
| >50lb  | true  |
",
    related: &["E002", "E067"],
    budget: None,
};
