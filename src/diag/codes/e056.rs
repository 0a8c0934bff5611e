//! E056: Value off its unit's grid.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E056",
    title: "Value off its unit's grid",
    when: "A literal does not come out as a whole number of the unit it is read in: `0.5kg` for a `mass[kg]`, \
            `100g` for a `mass[kg]`, `1USDc` where `money[USD]` is expected, `0.5%` for a `rate[1%]`. Values are \
            whole numbers of their declared unit, on the wire and in generated code.",
    fix: "Write a value that is a whole number of the declared unit (`1kg`), or, when the business really counts \
            finer, declare a finer unit (`mass[g]`, `money[USDc]`, `rate[0.1%]`).",
    example: "\
rule parcel v1

input weight: mass[kg] 0.5kg..30kg

output heavy: bool

define heavy = weight > 20kg
",
    related: &["E055", "E060", "E062"],
    budget: None,
};
