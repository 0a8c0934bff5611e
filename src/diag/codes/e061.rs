//! E061: Type does not fit.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E061",
    title: "Type does not fit",
    when: "A value has the wrong kind of type where it is used (a wrong unit is E060 instead): a number or a \
            word where a boolean is expected (`member=yes`, `1` in a `bool` column), a constraint that is not true \
            or false, `<`, `>` or a bound on a type with no order (bool, string, an unordered enum), `none` for a \
            name that is not optional, an optional read in an expression, an optional `define`, \
            `min`/`max`/`mod`/`isqrt` with the wrong number or kind of arguments, or `round` of something that is \
            not a number.",
    fix: "Write a value of the expected type: `true` or `false` for a bool, one of the enum's values for an \
            enum, a number with its unit for a quantity. Declare an enum ordered (`basic < silver < gold`) to \
            compare its values. Declare a name with `?` to let it be none, and decide an optional in a table (a cell \
            can test `none`) before computing with it.",
    example: "\
rule member_discount v1

input member: bool

output discount: rate[1%] 0%..10%

table discount_of -> discount
| member | discount |
|--------|----------|
| true   | 10%      |
| false  | 0%       |

expect member=yes -> discount=10%
",
    related: &["E060", "E062"],
    budget: None,
};
