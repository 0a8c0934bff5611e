//! E107: Declared range not proven.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E107",
    title: "Declared range not proven",
    when: "An output, value or define declares a range, and the checker cannot prove that the computed value \
            stays inside it for every input the rule accepts. The diagnostic shows a witness input and the value it \
            gives.",
    fix: "Widen the declared range to what the rule can compute (the fix `widen_range`), or change the \
            computation or the input ranges so the value stays inside (for example cap it with `min(weight * 100JPY, \
            1000JPY)`). The declared range is what `rulec api` and `rulec schema` publish, so it has to be true.",
    example: "\
rule range_unproven v1

input weight: int 1..12

output fee: money[JPY] 0JPY..1000JPY

define fee = weight * 100JPY
",
    related: &["E054", "E108"],
    budget: None,
};
