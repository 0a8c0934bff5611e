//! E007: Expression nested too deeply.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
        code: "E007",
        title: "Expression nested too deeply",
        when: "An expression nests more than 128 levels deep. Each parenthesis, call (`min`, `max`, `mod`, `isqrt`, \
            `round`), `if`, `not` and unary `-` is a level, and so is each operator of a chain: `a + b + c` is read \
            as `(a + b) + c`, two levels. rulec refuses such an expression where it reads it, before any other \
            stage walks it; no rule a person maintains needs that depth, so it is almost always generated text \
            gone wrong.",
        fix: "Name parts of the expression with `define` and use the names: each `define` starts again at level \
            one. A long sum of many terms can be split the same way, in groups.",
        example: "\
rule deep v1

input x: int 0..10

output y: int 0..10

define y = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
",
        related: &["E002"],
        budget: None,
};
