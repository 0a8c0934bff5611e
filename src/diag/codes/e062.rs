//! E062: Rate written without `%`.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E062",
    title: "Rate written without `%`",
    when: "A bare number stands where a rate is expected: in the range, a cell, an `expect` line or the rounding \
            grid of a `rate[…]`. A rate literal always carries `%`, so that `18` can never be read as 18% or as \
            1800%.",
    fix: "Write the rate as a percent: `0%..20%`, `18.3%`. On the wire the rate still travels in whole steps of \
            its type (18.3% in a `rate[0.1%]` is 183).",
    example: "\
rule tax v1

input rate: rate[0.1%] 0..20
input price: money[JPY] 0JPY..100000JPY

output tax: money[JPY] 0JPY..20000JPY round down(1JPY)

define tax = price * rate
",
    related: &["E056", "E061"],
    budget: None,
};
