//! E053: Name needs an ASCII alias.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E053",
    title: "Name needs an ASCII alias",
    when: "A declared name is not ASCII (`送料`) and has no alias, or an alias is not made of lower-case ASCII \
            letters, digits and `_` (starting with a letter or `_`). Generated code uses the alias; the wire, \
            records and vectors keep the declared name.",
    fix: "Add an alias in parentheses right after the name: `input 送料(shipping_fee): …`. The fix `add_alias` \
            inserts the parentheses with a placeholder to replace by a meaningful ASCII name.",
    example: "\
rule shipping v1

input 送料: money[JPY] 0JPY..10000JPY

output free: bool

define free = 送料 = 0JPY
",
    related: &["E052"],
    budget: None,
};
