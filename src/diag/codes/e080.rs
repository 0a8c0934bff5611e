//! E080: A fold that cannot work as written.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E080",
    title: "A fold that cannot work as written",
    when: "A `fold` hands each element to `take_unique`, `take_first` or `keep_max` by the member of a verdict \
            (an enum decided per element): the verdict is not such a value, a member named is not the verdict's, \
            one is named twice, an action is not the fold's (`take` for the two takes, `keep` for keep_max; \
            `stop` for any), keep_max compares what is not a number, an amount or a date, or the answer goes \
            into what is not an output or a value.",
    fix: "Decide a verdict per element in a table, and name what each of its members does: `fold keep_max offer \
            over bids by verdict: keep counted, stop closing, empty opening -> best`.",
    example: "\
rule pick_one v1

enum pick: yes, no

elements offers up to 10: price: money[JPY] 0JPY..1000JPY, wanted: bool

output chosen: money[JPY] 0JPY..1000JPY

value verdict: pick

table verdict_of -> verdict
| wanted | verdict |
|--------|---------|
| true   | yes     |
| false  | no      |

fold take_first price over offers by verdict: keep yes, empty 0JPY
",
    related: &["E079"],
    budget: None,
};
