//! E001: Unexpected character.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E001",
    title: "Unexpected character",
    when: "A character that is not part of the language stands outside a string and a comment: typically a \
            symbol pasted from a document or a spreadsheet, such as `≤`, `≥`, `×`, `$`, a single quote, or a `%` \
            that is not directly after its number.",
    fix: "Write the language's own spelling: `<=` for `≤`, `>=` for `≥`, `*` for `×`, `10%` with the percent \
            sign right after the number, strings in double quotes. Text meant only for people goes after `#` or into \
            an `about \"…\"` line.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output light: bool

table light_of -> light
| weight | light |
|--------|-------|
| ≤10lb  | true  |
| >10lb  | false |
",
    related: &["E002", "E003"],
    budget: None,
};
