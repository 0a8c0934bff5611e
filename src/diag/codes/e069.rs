//! E069: Problem with an enums file.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E069",
    title: "Problem with an enums file",
    when: "An enums file (a file that starts with `enums NAME`) holds something other than `enum`, `group` and \
            `about`; or a `use \"…\"` line names a file that cannot be read, has no header, or is a rule rather than \
            an enums file.",
    fix: "Keep only `enum`, `group` and `about` in an enums file, and move every other declaration into a rule \
            that `use`s it. The path after `use` is relative to the folder of the file that holds the `use` line.",
    example: "\
enums shared

enum zone: domestic, overseas

input dest: zone
",
    related: &["E005"],
    budget: None,
};
