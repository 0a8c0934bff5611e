//! E055: Unknown unit.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E055",
    title: "Unknown unit",
    when: "A unit is not in the unit table, or is not a unit of the kind the type names: `mass[lbs]`, `60lbs`, \
            `length[kg]`. The units are JPY, 円, USD, USDc, EUR, EURc, GBP and GBPp for money; mg, g, kg, t, oz and \
            lb for mass; mm, cm, m, km, in and ft for length; s, min, h and d for durations; and `%` for rates.",
    fix: "Write a unit from the table (`lb`, not `lbs`), of the same kind as the type it is read in.",
    example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb

expect weight=60lbs -> heavy=true
",
    related: &["E051", "E060"],
    budget: None,
};
