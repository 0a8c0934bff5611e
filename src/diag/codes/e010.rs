//! E010: Not a day of the calendar.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E010",
    title: "Not a day of the calendar",
    when: "A date is written in the `YYYY-MM-DD` shape but names a day that does not exist, such as `2026-02-30` \
            or `2026-13-01`.",
    fix: "Write a day that exists. The last day of February is `2026-02-28` (`2028-02-29` in a leap year).",
    example: "\
rule late_fee v1

input paid_on: date 2026-01-01..2026-02-30

output late: bool

define late = paid_on > 2026-01-31
",
    related: &[],
    budget: None,
};
