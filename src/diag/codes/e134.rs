//! E134: A whole square root of a value that may be negative.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
        code: "E134",
        title: "A whole square root of a value that may be negative",
        when: "The argument of `isqrt` can be below zero for an input the rule is asked about; the root of a negative number has no answer.",
        fix: "Take the root of a value that cannot be negative, such as `isqrt(max(x, 0))`, or narrow what the inputs may be. The witness gives inputs that make it negative.",
        example: "rule t v1\ninput a: int -10..100\noutput r: int 0..10\ndefine r = isqrt(a)\n",
        related: &["E132"],
        budget: None,
};
