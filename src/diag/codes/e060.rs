//! E060: Units, currencies or tax tags do not match.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E060",
    title: "Units, currencies or tax tags do not match",
    when: "Two values of different units meet where one is needed: in `+`, `-`, a comparison, `min`/`max`, the \
            two branches of an `if`, or a value stored where another unit is declared. Money of two currencies, \
            money and mass, imperial and metric units (which never convert), and `money[JPY, incl_tax]` with \
            `money[JPY, excl_tax]` (the tax tag never converts) all count. Also reported for a literal with a unit \
            of another kind or currency, a number with no unit where one is required, and a unit written on a plain \
            count.",
    fix: "Give both sides one type. Convert a tax tag explicitly (multiply by a declared rate and round), \
            declare an input in the unit the business uses, and write each literal in the unit of the place it is \
            read (`20lb` in a `mass[lb]` column, `0JPY` for no money). An `int` is a plain count and carries no \
            unit.",
    example: "\
rule invoice v1

input subtotal: money[JPY, incl_tax] 0JPY..100000JPY
input coupon: money[JPY, excl_tax] 0JPY..10000JPY

constraint coupon <= subtotal

output pay: money[JPY, incl_tax] 0JPY..100000JPY

define pay = subtotal
",
    related: &["E061", "E055", "E056"],
    budget: None,
};
