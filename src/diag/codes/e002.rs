//! E002: Something else was expected here.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E002",
    title: "Something else was expected here",
    when: "A line does not have the shape its first word announces: the parser expected a name, a `:`, a type, a \
            value, an expression or the end of the line, and found something else. Common causes: a keyword used as \
            a name (`value`, `first`, `any`, `min`, `max`, `in`, `round` and the other keywords of the language are \
            reserved), a missing `:` or `=`, extra words at the end of a line, `=` or `!=` written as a bound in a \
            table cell, and a line that does not start with a declaration (`input`, `output`, `value`, `define`, \
            `constraint`, `enum`, `group`, `table`, `expect`, `use`, `about`).",
    fix: "The message names what was expected and what was found. Rename a name that is a keyword (`order_value` \
            instead of `value`), add the missing punctuation, or move stray text after `#`. In a cell, write a value \
            alone for equality and `not: VALUE` for its opposite.",
    example: "\
rule order v1

input value: money[JPY] 0JPY..100000JPY

output free_shipping: bool

define free_shipping = value >= 5000JPY
",
    related: &["E001", "E004", "E005", "E073"],
    budget: None,
};
