//! E006: A second file-level `about`.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E006",
    title: "A second file-level `about`",
    when: "The file has two `about` lines that both describe the file. An `about` directly under a declaration \
            (with no blank line between them) documents that declaration; every other `about` documents the file, \
            and a file has one.",
    fix: "Join the two texts into one `about`, or move the second one directly under the declaration it \
            describes.",
    example: "\
rule parcel v1
about \"Whether a parcel counts as heavy.\"
about \"Heavy parcels need two people to lift.\"

input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
    related: &[],
    budget: None,
};
