//! E052: Declared twice.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E052",
    title: "Declared twice",
    when: "Two declarations use the same name: two inputs, an input and a define, two enums, a value listed \
            twice in one enum, or a group named like a value or group of its enum. Also reported when the `define` \
            that computes an output repeats the output's type or alias.",
    fix: "Give each declaration its own name, or delete the duplicate. An output computed by an expression is \
            declared once with its type (`output fee: money[USD] 0USD..500USD`) and computed by a bare `define fee = \
            …`.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb
input express: bool
input weight: mass[lb] 1lb..150lb

output heavy: bool

define heavy = weight > 50lb
",
    related: &["E065"],
    budget: None,
};
