//! E072: Rounding cannot be applied.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E072",
    title: "Rounding cannot be applied",
    when: "A rounding is declared where it cannot work: the mode is not one of `up`, `down`, `ceiling`, `floor`, \
            `half_up`, `half_down`, `half_even`; the grid is zero, negative, or not a whole multiple of the output's \
            unit; the rounded value is not a number; or `round MODE(GRID)` is written on an input or a value instead \
            of an output.",
    fix: "Use one of the seven modes (`half_up` is the usual \"nearest, ties away from zero\") and a grid that \
            is a whole positive multiple of the unit (`1JPY`, `10JPY`, `0.1%` on a `rate[0.1%]`). Declare `round` \
            only on an output; round an intermediate inside its expression: `round(EXPR, half_up, 1JPY)`.",
    example: "\
rule order v1

input price: money[JPY] 0JPY..10000JPY
input qty: int 1..10

output total: money[JPY] 0JPY..100000JPY round nearest(10JPY)

define total = price * qty
",
    related: &["E106", "E056"],
    budget: None,
};
