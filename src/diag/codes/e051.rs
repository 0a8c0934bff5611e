//! E051: Unknown type.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E051",
    title: "Unknown type",
    when: "A declaration names a type the language does not have: a misspelling (`integer`, `boolean`), a unit \
            type without its unit (`mass` instead of `mass[lb]`), a `rate` without its step as a percent \
            (`rate[1%]`), a tax tag other than `incl_tax` and `excl_tax`, too many arguments in the brackets, or an \
            enum that is not declared (also in `ENUM.VALUE`).",
    fix: "Use one of `bool`, `int`, `date`, `string`, `money[CUR]` (optionally `money[CUR, incl_tax]` or \
            `money[CUR, excl_tax]`), `mass[U]`, `length[U]`, `duration[U]`, `rate[STEP%]`, or an enum declared in \
            the file or in an enums file it `use`s.",
    example: "\
rule order v1

input qty: integer 1..99
input express: bool

output priority: bool

define priority = express
",
    related: &["E055", "E050"],
    budget: None,
};
