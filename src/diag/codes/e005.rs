//! E005: Missing or malformed header.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E005",
    title: "Missing or malformed header",
    when: "The first line that is not blank or a comment is not a header: a rule file starts with `rule NAME vN` \
            and an enums file with `enums NAME`. Also reported when the version is not `v` followed by a positive \
            whole number (`v0`, `v01`, `version2`), and when a second `rule` or `enums` line appears further down.",
    fix: "Start the file with its header, such as `rule parcel_rate v1`, and raise the number when the rule \
            changes. A file holds one rule or one set of shared enums: move a second one into a file of its own.",
    example: "\
input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
    related: &["E002", "E069"],
    budget: None,
};
