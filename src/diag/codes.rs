//! The registry of diagnostic codes: what `rulec explain` prints. Codes are stable; a code
//! is never reused or renumbered. Every example is a rule that really produces its code
//! (tests/explain.rs runs each one).

use super::Severity;

pub struct CodeInfo {
    pub code: &'static str,
    pub title: &'static str,
    /// When the code is reported.
    pub when: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// A rule that produces the code.
    pub example: &'static str,
    pub related: &'static [&'static str],
    /// The `--budget` the example needs to reproduce the code (only E109 has one).
    pub budget: Option<u64>,
}

pub fn severity_of(code: &str) -> Severity {
    match code.as_bytes().first() {
        Some(b'W') => Severity::Warning,
        Some(b'N') => Severity::Note,
        _ => Severity::Error,
    }
}

pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

/// Sorted by code.
pub static CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "E001",
        title: "Unexpected character",
        when: "A character that is not part of the language stands outside a string and a comment: typically a \
            symbol pasted from a document or a spreadsheet, such as `≤`, `≥`, `×`, `$`, a single quote, or a `%` \
            that is not directly after its number.",
        fix: "Write the language's own spelling: `<=` for `≤`, `>=` for `≥`, `*` for `×`, `10%` with the percent \
            sign right after the number, strings in double quotes. Text meant only for people goes after `#` or into \
            an `about \"…\"` line.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output light: bool

table light_of -> light
| weight | light |
|--------|-------|
| ≤10lb  | true  |
| >10lb  | false |
",
        related: &["E002", "E003"],
        budget: None,
    },
    CodeInfo {
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
    },
    CodeInfo {
        code: "E003",
        title: "Unterminated string or unknown escape",
        when: "A string has no closing `\"` on its line (a string cannot continue on the next line), or it holds a \
            backslash escape other than `\\\"` (a double quote) and `\\\\` (a backslash).",
        fix: "Close the string on the line where it starts. Inside a string, write `\\\"` for a double quote and \
            `\\\\` for a backslash.",
        example: "\
rule parcel v1
about \"What one parcel costs to ship

input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
        related: &["E001"],
        budget: None,
    },
    CodeInfo {
        code: "E004",
        title: "Table not laid out as a table",
        when: "A table does not have the Markdown shape the language requires: the `table` line has no header row \
            right below it, the `|---|` line under the header is missing or has another number of columns than the \
            header, a row has more or fewer cells than the header, a cell is empty, a line does not start and end \
            with `|`, or a `|` line stands outside any table.",
        fix: "Write `table NAME -> RESULT`, then the header row naming every column, then the `|---|` line with one \
            `---` per column, then one row per line with one cell per column. Write `-` in a condition cell that \
            takes any value. A blank line ends a table, and no comment may stand between the `table` line and its \
            header row.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output heavy: bool

table heavy_of -> heavy
| weight | heavy |
| <=50lb | false |
| >50lb  | true  |
",
        related: &["E002", "E067"],
        budget: None,
    },
    CodeInfo {
        code: "E005",
        title: "Missing or malformed header",
        when: "The first line that is not blank or a comment is not a header: a rule file starts with `rule NAME vN` \
            and an enums file with `enums NAME`. Also reported when the version is not `v` followed by a positive \
            whole number (`v0`, `v01`, `version2`), and when a second `rule` or `enums` line appears further down.",
        fix: "Start the file with its header, such as `rule parcel_rate v1`, and raise the number when the rule \
            changes. A file holds one rule or one set of shared enums: move a second one into a file of its own.",
        example: "\
input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
        related: &["E002", "E069"],
        budget: None,
    },
    CodeInfo {
        code: "E006",
        title: "A second file-level `about`",
        when: "The file has two `about` lines that both describe the file. An `about` directly under a declaration \
            (with no blank line between them) documents that declaration; every other `about` documents the file, \
            and a file has one.",
        fix: "Join the two texts into one `about`, or move the second one directly under the declaration it \
            describes.",
        example: "\
rule parcel v1
about \"Whether a parcel counts as heavy.\"
about \"Heavy parcels need two people to lift.\"

input weight: mass[lb] 1lb..70lb

output heavy: bool

define heavy = weight > 50lb
",
        related: &[],
        budget: None,
    },
    CodeInfo {
        code: "E007",
        title: "Expression nested too deeply",
        when: "An expression nests more than 128 levels deep. Each parenthesis, call (`min`, `max`, `mod`, `isqrt`, \
            `round`), `if`, `not` and unary `-` is a level, and so is each operator of a chain: `a + b + c` is read \
            as `(a + b) + c`, two levels. rulec refuses such an expression where it reads it, before any other \
            stage walks it; no rule a person maintains needs that depth, so it is almost always generated text \
            gone wrong.",
        fix: "Name parts of the expression with `define` and use the names: each `define` starts again at level \
            one. A long sum of many terms can be split the same way, in groups.",
        example: "\
rule deep v1

input x: int 0..10

output y: int 0..10

define y = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
",
        related: &["E002"],
        budget: None,
    },
    CodeInfo {
        code: "E008",
        title: "Number with too many digits",
        when: "A number is written with more than 100 digits, counting those before and after the point. Every \
            value a rule computes with is a whole int64 in its unit, at most 19 digits, so such a number is almost \
            always text pasted by mistake; rulec refuses it before converting it, since reading a number of a \
            million digits would take minutes.",
        fix: "Write the number in a unit that makes it short (`5kg` rather than `5000000000mg`), or remove the \
            digits that do not belong.",
        example: "\
rule wide v1

input x: int 0..10

output y: int 0..10

define y = x + 0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001
",
        related: &["E049"],
        budget: None,
    },
    CodeInfo {
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
    },
    CodeInfo {
        code: "E049",
        title: "Number written with thousands separators",
        when: "A number is written with thousands separators (`1,000JPY`, `1,000`). The language has one spelling \
            per number: its digits. The separated form (a number, a comma and exactly three digits, no space \
            between) is recognised in cells, ranges and `expect` lines only to answer it with this error.",
        fix: "Write the number without separators (`1000JPY`). The fix `rewrite_literal` carries the literal as it \
            has to be written. In argument lists put a space after each comma (`max(1, 100)`), which is how `rulec \
            fmt` prints every list.",
        example: "\
rule literal v1

input price: money[JPY] 0JPY..100000JPY

output cheap: bool

table cheap_of -> cheap
| price     | cheap |
|-----------|-------|
| <1,000JPY | true  |
| >=1000JPY | false |
",
        related: &["E002"],
        budget: None,
    },
    CodeInfo {
        code: "E050",
        title: "Unknown name",
        when: "A name is read that nothing declares: in an expression or a constraint, as a table's column or \
            result, or as a value of an enum in a cell or an `expect` line. No input, output, value, define or enum \
            value has that name — most often it is misspelled.",
        fix: "Correct the spelling, or declare the name: `input …`, `value …`, `define NAME = …`, or add the value \
            to its `enum`. A table's result (after `->`) must be declared as an `output` or a `value`.",
        example: "\
rule order v1

input total: money[JPY] 0JPY..100000JPY
input discount: money[JPY] 0JPY..100000JPY

constraint discount <= totl

output due: money[JPY] 0JPY..100000JPY

define due = total - discount
",
        related: &["E051", "E063", "E068"],
        budget: None,
    },
    CodeInfo {
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
    },
    CodeInfo {
        code: "E052",
        title: "Declared twice",
        when: "Two declarations use the same name: two inputs, an input and a define, two enums, a value listed \
            twice in one enum, or a group named like a value or group of its enum. Also reported when the `define` \
            that computes an output repeats the output's type or alias.",
        fix: "Give each declaration its own name, or delete the duplicate. An output computed by an expression is \
            declared once with its type (`output fee: money[USD] 0USD..500USD`) and computed by a bare `define fee = \
            …`.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb
input express: bool
input weight: mass[lb] 1lb..150lb

output heavy: bool

define heavy = weight > 50lb
",
        related: &["E065"],
        budget: None,
    },
    CodeInfo {
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
    },
    CodeInfo {
        code: "E054",
        title: "Input declares no range",
        when: "An `int`, `money`, `mass`, `length`, `duration` or `rate` input declares no `LO..HI`. Completeness, \
            overlap and int64 safety are proven over the declared domain, so every counted input must say which \
            values it accepts.",
        fix: "Add the range after the type, such as `input qty: int 1..99`. The fix `add_range` inserts a \
            placeholder range in the input's unit; replace it with the smallest and largest value a caller may \
            really send. Calls outside the range are refused.",
        example: "\
rule missing_range v1

input qty: int

output total: int 0..100

define total = min(qty, 100)
",
        related: &["E071", "E107", "E108"],
        budget: None,
    },
    CodeInfo {
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
    },
    CodeInfo {
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
    },
    CodeInfo {
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
    },
    CodeInfo {
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
    },
    CodeInfo {
        code: "E062",
        title: "Rate written without `%`",
        when: "A bare number stands where a rate is expected: in the range, a cell, an `expect` line or the rounding \
            grid of a `rate[…]`. A rate literal always carries `%`, so that `18` can never be read as 18% or as \
            1800%.",
        fix: "Write the rate as a percent: `0%..20%`, `18.3%`. On the wire the rate still travels in whole steps of \
            its type (18.3% in a `rate[0.1%]` is 183).",
        example: "\
rule tax v1

input rate: rate[0.1%] 0..20
input price: money[JPY] 0JPY..100000JPY

output tax: money[JPY] 0JPY..20000JPY round down(1JPY)

define tax = price * rate
",
        related: &["E056", "E061"],
        budget: None,
    },
    CodeInfo {
        code: "E063",
        title: "Enum value belongs to more than one enum",
        when: "A bare enum value is read where nothing says which enum it belongs to, and more than one enum of the \
            rule (declared in it or brought in by `use`) has a value of that name. In a cell or an `expect` line the \
            column's type decides; in an expression the type the place expects decides (a typed define, an output, a \
            comparison with a value of the enum); an untyped `define` says nothing.",
        fix: "Qualify the value with its enum's name (`zone.domestic`), or give the define its type (`define home: \
            zone = domestic`).",
        example: "\
rule shipping v1

enum zone: domestic, overseas
enum carrier: domestic, courier

input dest: zone

output local: bool

define home = domestic
define local = dest = home
",
        related: &["E050"],
        budget: None,
    },
    CodeInfo {
        code: "E064",
        title: "Group is not part of one enum",
        when: "A `group` lists values that no single enum has all of (a value is misspelled, missing from the enum, \
            or belongs to another enum), or values that more than one enum has.",
        fix: "List values of exactly one enum, spelled as the enum declares them; add a value to the enum first if \
            the business needs it.",
        example: "\
rule shipping v1

enum zone: domestic, canada, overseas
group north_america = domestic, canada, mexico

input dest: zone

output near: bool

define near = dest != overseas
",
        related: &["E050", "E052"],
        budget: None,
    },
    CodeInfo {
        code: "E065",
        title: "Output or value not decided exactly once",
        when: "An `output` or `value` is decided by nothing (no table has it after `->` and no `define` computes \
            it), or by two deciders (two tables, a table and a define, two defines), or a table decides an input, \
            which only the caller gives. It is also reported when the table or define that decides the name has an \
            error of its own; fix that one first.",
        fix: "Decide each output and value exactly once: a table with `-> NAME`, or (for an output) `define NAME = \
            EXPR`. Remove the second decider. To compute something from an input, declare a new `value` or `output` \
            for it.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output heavy: bool
output fee: money[USD] 0USD..100USD

define heavy = weight > 50lb
",
        related: &["E052", "E066", "E067"],
        budget: None,
    },
    CodeInfo {
        code: "E066",
        title: "Computed, but no output depends on it",
        when: "A `value` or `define` is computed, but nothing that leads to an output reads it: no table's column or \
            result cell, and no define of an output, uses it (a `constraint` does not count). It is also reported \
            when what reads it has an error of its own.",
        fix: "Read it where it matters (a condition column, a result cell, or the define of an output), or delete \
            it.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

define heavy = weight > 50lb
define fee = 10USD
",
        related: &["E065"],
        budget: None,
    },
    CodeInfo {
        code: "E067",
        title: "Result columns are not the rightmost",
        when: "The columns a table decides — the names after `->` in its heading — are not the last columns of its \
            header row, in the same order. Often the heading and the column are spelled differently (`-> fee` over a \
            column `price`), or a condition column was added to the right of the results.",
        fix: "Make the last columns of the header row exactly the names after `->`, in that order: correct the \
            heading or the column, and move condition columns to the left of the results.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| weight | price |
|--------|-------|
| <=50lb | 10USD |
| >50lb  | 25USD |
",
        related: &["E004", "E065"],
        budget: None,
    },
    CodeInfo {
        code: "E068",
        title: "`expect` line cannot be run",
        when: "An `expect` line names something that is not an input before `->` or not an output after it, gives an \
            input twice, leaves out an input that is not optional, gives `none` to an input that is not optional, or \
            gives inputs the rule refuses at the door (outside a declared range, or against a `constraint`).",
        fix: "Before `->`, give every input once, with a value the rule accepts (an optional input may be left out, \
            meaning none); after `->`, name outputs only.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb
input express: bool

output heavy: bool

define heavy = weight > 50lb

expect weight=60lb -> heavy=true
",
        related: &["E111", "E050"],
        budget: None,
    },
    CodeInfo {
        code: "E069",
        title: "Problem with an enums file",
        when: "An enums file (a file that starts with `enums NAME`) holds something other than `enum`, `group` and \
            `about`; or a `use \"…\"` line names a file that cannot be read, has no header, or is a rule rather than \
            an enums file.",
        fix: "Keep only `enum`, `group` and `about` in an enums file, and move every other declaration into a rule \
            that `use`s it. The path after `use` is relative to the folder of the file that holds the `use` line.",
        example: "\
enums shared

enum zone: domestic, overseas

input dest: zone
",
        related: &["E005"],
        budget: None,
    },
    CodeInfo {
        code: "E071",
        title: "Range is empty or has no order",
        when: "A declared range has its low end above its high end (`70lb..1lb`), or it is declared on a type \
            without an order: `bool`, `string` or an unordered enum.",
        fix: "Write the smaller end first (`1lb..70lb`). Remove a range from a bool, a string or an unordered enum; \
            an ordered enum input may declare a range of its values (`silver..gold`).",
        example: "\
rule parcel v1

input weight: mass[lb] 70lb..1lb

output heavy: bool

define heavy = weight > 50lb
",
        related: &["E054"],
        budget: None,
    },
    CodeInfo {
        code: "E072",
        title: "Rounding cannot be applied",
        when: "A rounding is declared where it cannot work: the mode is not one of `up`, `down`, `ceiling`, `floor`, \
            `half_up`, `half_down`, `half_even`; the grid is zero, negative, or not a whole multiple of the output's \
            unit; the rounded value is not a number; or `round MODE(GRID)` is written on an input or a value instead \
            of an output.",
        fix: "Use one of the seven modes (`half_up` is the usual \"nearest, ties away from zero\") and a grid that \
            is a whole positive multiple of the unit (`1JPY`, `10JPY`, `0.1%` on a `rate[0.1%]`). Declare `round` \
            only on an output; round an intermediate inside its expression: `round(EXPR, half_up, 1JPY)`.",
        example: "\
rule order v1

input price: money[JPY] 0JPY..10000JPY
input qty: int 1..10

output total: money[JPY] 0JPY..100000JPY round nearest(10JPY)

define total = price * qty
",
        related: &["E106", "E056"],
        budget: None,
    },
    CodeInfo {
        code: "E073",
        title: "Comparisons do not chain",
        when: "Two comparisons are written one after the other, as in `10lb < weight <= 30lb`. A comparison gives \
            true or false, so a second comparison would compare a boolean with a number.",
        fix: "Join the two comparisons with `and`: `weight > 10lb and weight <= 30lb`. In a table cell the same band \
            is two bounds: `>10lb <=30lb`.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output medium: bool

define medium = 10lb < weight <= 30lb
",
        related: &["E002"],
        budget: None,
    },
    CodeInfo {
        code: "E074",
        title: "A constraint reads a value that is not an input",
        when: "A `constraint` reads a define, a value or an output. Constraints are what every call guarantees: the \
            door checks them before the rule computes anything, so they can read only inputs.",
        fix: "State the guarantee over the inputs the value is computed from: for `define m = n * 2`, write \
            `constraint n * 2 <= 5` rather than `constraint m <= 5`.",
        example: "\
rule t v1

input n: int 0..10

constraint m <= 5

output y: int 0..20

define m = n * 2
define y = m
",
        related: &["E050"],
        budget: None,
    },
    CodeInfo {
        code: "E075",
        title: "Two declarations have one identifier in generated code",
        when: "Generated code names a declaration by its alias, or by its name when the name is ASCII. Two inputs, \
            outputs, values or defines whose aliases (or alias and name) are the same, two enums whose identifiers \
            are the same, or two values of one enum whose identifiers are the same would be one name in every \
            language: `input 重さ(w)` beside `input w`.",
        fix: "Give one of them another alias. The wire, the records and the vectors keep the declared names either way.",
        example: "\
rule t v1

input 重さ(w): int 0..10
input w: int 0..10

output y: int 0..20

define y = 重さ + w
",
        related: &["W121"],
        budget: None,
    },
    CodeInfo {
        code: "E101",
        title: "Gap: some input matches no row",
        when: "Some input the rule accepts — inside the declared ranges and the constraints — matches no row of a \
            table, whatever its policy. The diagnostic shows a witness: one such input.",
        fix: "Add a row for the missing case; the fix `add_row` proposes one that covers the witness's region, with \
            its result left for you to decide. If the case can really never happen, say so in the rule: narrow the \
            input's range or add a `constraint`.",
        example: "\
rule gap v1

enum zone: domestic, overseas
enum size_class: small, large

input dest: zone
input size: size_class

output fee: money[USD] 0USD..100USD

table base_rate -> fee
| dest     | size  | fee   |
|----------|-------|-------|
| domestic | small | 8USD  |
| domestic | large | 20USD |
| overseas | large | 45USD |
",
        related: &["E102", "E105", "E111"],
        budget: None,
    },
    CodeInfo {
        code: "E102",
        title: "Overlap: two rows match one input",
        when: "In a `unique` table (the default policy), two rows match the same input, so the result would depend \
            on which one is read. The diagnostic names both rows and a witness input that matches both. A common \
            cause is a boundary written into both rows (`<=10lb` and `>=10lb`).",
        fix: "Make the rows exclusive, for example `>10lb` instead of `>=10lb` — where the rows meet at that one \
            cut alone, the fix `flip_bound` writes it so. If the earlier row is meant to win, declare the table \
            `first` — the fix `change_policy` does exactly that where no bound can be flipped, a form that removes \
            the overlap rather than a decision about which row is right; if the rows give the same result wherever \
            they meet, declare it `any`.",
        example: "\
rule overlap v1

input weight: mass[lb] 1lb..70lb

output band: int 1..3

table band_of -> band
| weight        | band |
|---------------|------|
| <=10lb        | 1    |
| >=10lb <=30lb | 2    |
| >30lb         | 3    |
",
        related: &["E101", "E103", "E104", "W114"],
        budget: None,
    },
    CodeInfo {
        code: "E103",
        title: "Row can never fire: rows above cover it",
        when: "In a `first` table, every input that matches a row is already matched by rows above it, so the row \
            never wins.",
        fix: "Remove the row (the fix `remove_row`), or move it above the rows that cover it when it was meant to \
            take precedence — for example `>=65` before `>=18`.",
        example: "\
rule shadowed v1

input age: int 0..120

output price: money[JPY] 0JPY..3000JPY

table price_of first -> price
| age  | price   |
|------|---------|
| <=17 | 800JPY  |
| >=18 | 1500JPY |
| >=65 | 1000JPY |
",
        related: &["E102", "E105"],
        budget: None,
    },
    CodeInfo {
        code: "E104",
        title: "`any` rows disagree where they meet",
        when: "In an `any` table, two rows match a common input but give different results. `any` lets rows meet \
            only where they agree. The diagnostic names both rows and a witness input.",
        fix: "Give the two rows the same result where they meet, or make them exclusive by tightening their \
            conditions. If the earlier row is meant to win, declare the table `first`.",
        example: "\
rule any_disagree v1

input age: int 0..120

output price: money[JPY] 0JPY..2000JPY

table price_of any -> price
| age  | price   |
|------|---------|
| >=65 | 1000JPY |
| >=18 | 1500JPY |
| <18  | 800JPY  |
",
        related: &["E102", "E103"],
        budget: None,
    },
    CodeInfo {
        code: "E105",
        title: "Row no accepted input reaches",
        when: "No input the rule accepts can match the row: its cells contradict each other, a declared range, a \
            constraint, or what a derived column can be. Unlike E103, this is not about the rows above: the row is \
            empty by itself.",
        fix: "Remove the row, or correct the cell that rules it out. If the row describes a case that really \
            happens, the range or the constraint that excludes it is wrong.",
        example: "\
rule dead_row v1

input low: int 0..100
input high: int 0..100

constraint low <= high

output spread: int 0..2

table spread_of -> spread
| low  | high | spread |
|------|------|--------|
| <=50 | <=50 | 0      |
| -    | >50  | 1      |
| >50  | <=50 | 2      |
",
        related: &["E103", "E101"],
        budget: None,
    },
    CodeInfo {
        code: "E106",
        title: "Missing rounding",
        when: "A computed value can be finer than the unit of the output, value or declared define that stores it — \
            `price * 10%` can be a fraction of a yen, `bill / people` a fraction of a cent — and nothing rounds it. \
            The language never rounds implicitly.",
        fix: "Declare the rounding on the output (`output tax: money[JPY] 0JPY..100000JPY round down(1JPY)`), or \
            round in the expression (`round(price * 10%, half_up, 1JPY)`). The fix `add_rounding` proposes \
            `half_even` to one unit; the direction and the grid are business decisions, so check them.",
        example: "\
rule missing_rounding v1

input price: money[JPY] 0JPY..1000000JPY

output tax: money[JPY] 0JPY..100000JPY

define tax = price * 10%
",
        related: &["E072", "E107"],
        budget: None,
    },
    CodeInfo {
        code: "E107",
        title: "Declared range not proven",
        when: "An output, value or define declares a range, and the checker cannot prove that the computed value \
            stays inside it for every input the rule accepts. The diagnostic shows a witness input and the value it \
            gives.",
        fix: "Widen the declared range to what the rule can compute (the fix `widen_range`), or change the \
            computation or the input ranges so the value stays inside (for example cap it with `min(weight * 100JPY, \
            1000JPY)`). The declared range is what `rulec api` and `rulec schema` publish, so it has to be true.",
        example: "\
rule range_unproven v1

input weight: int 1..12

output fee: money[JPY] 0JPY..1000JPY

define fee = weight * 100JPY
",
        related: &["E054", "E108"],
        budget: None,
    },
    CodeInfo {
        code: "E108",
        title: "Possible int64 overflow",
        when: "An intermediate value of the evaluation the generated code performs (in its int64, scaled form) can \
            leave the int64 range for some input inside the declared ranges. Products of several large inputs are \
            the usual cause.",
        fix: "Narrow the input ranges to what the business really sends, reorder the computation so that it divides \
            or caps (`min`) before it multiplies, or compute in a coarser unit.",
        example: "\
rule overflow v1

input price: money[JPY] 0JPY..1000000000000JPY
input qty: int 0..1000000000

output total: money[JPY] 0JPY..1000000000000000000JPY

define total = price * qty * qty
",
        related: &["E107", "E132"],
        budget: None,
    },
    CodeInfo {
        code: "E109",
        title: "Analysis budget exceeded",
        when: "The analysis of a table needed more work than its budget allows and stopped before it proved the \
            table complete and its rows apart. Large tables over many columns can reach the default budget; the \
            example reaches it with `rulec check --budget 1`. The same code, on the rule's name, says the whole \
            command ran out of its allowance of steps for the rule (`--steps`, 5,000,000 by default): every step of \
            the linear reasoning and every box a table splits counts, over every table, define and constraint, so \
            a rule whose constraints tie forty inputs together stops instead of running for minutes.",
        fix: "Raise the budget with `rulec check --budget N`, or split the table: decide an intermediate `value` in \
            a smaller table first. For the rule's allowance, raise it with `--steps N` (on check, gen, graph, doc \
            and diff), or split the rule. Nothing is proven about the table (or the rule) until its analysis \
            finishes.",
        example: "\
rule parcel v1

enum zone: domestic, canada, overseas

input weight: mass[lb] 1lb..70lb
input dest: zone

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| dest     | weight | fee   |
|----------|--------|-------|
| domestic | <=10lb | 8USD  |
| domestic | >10lb  | 15USD |
| canada   | -      | 20USD |
| overseas | -      | 45USD |
",
        related: &["E101", "E102", "W114"],
        budget: Some(1),
    },
    CodeInfo {
        code: "E110",
        title: "Cycle: values computed from each other",
        when: "Tables and defines read each other in a circle — `a` is computed from `b` and `b` from `a`, directly \
            or through other names — so there is no order to evaluate them in.",
        fix: "Break the cycle: decide one of the names without the others, usually from the inputs alone.",
        example: "\
rule cycle v1

input x: int 0..10

output a: int 0..100

define a = b + 1
define b: int 0..100 = a + x
",
        related: &["E065"],
        budget: None,
    },
    CodeInfo {
        code: "E111",
        title: "`expect` disagrees with the rule",
        when: "Running an `expect` line's inputs through the reference evaluator gives an output other than the one \
            the line states, or no answer at all (for example when no row matches). The diagnostic shows both values \
            and the rows that fired.",
        fix: "Decide which one is right. If the rule is right, correct the `expect` (the fix `add_expected` writes the \
            value the rule computes in its place); if the `expect` is right, the rule has a bug, and the rows that \
            fired show where to look.",
        example: "\
rule parcel v1

input weight: mass[lb] 1lb..70lb

output fee: money[USD] 0USD..100USD

table fee_of -> fee
| weight | fee   |
|--------|-------|
| <=50lb | 10USD |
| >50lb  | 25USD |

expect weight=50lb -> fee=25USD
",
        related: &["E068", "E101"],
        budget: None,
    },
    CodeInfo {
        code: "E132",
        title: "Divisor may be zero",
        when: "A `/` divides by a value that can be zero for some input the rule accepts.",
        fix: "Keep zero out of the divisor: start its range above zero (`input people: int 1..20`), add a \
            `constraint` that excludes it, or divide by a value that cannot be zero (`max(people, 1)`).",
        example: "\
rule divide_by_zero v1

input bill: money[JPY] 0JPY..100000JPY
input people: int 0..20

output share: money[JPY] 0JPY..100000JPY round up(1JPY)

define share = bill / people
",
        related: &["E108", "E106"],
        budget: None,
    },
    CodeInfo {
        code: "E133",
        title: "A quotient by a value is not rounded where it is computed",
        when: "A division by a value that is not a literal appears anywhere but as the whole argument of `round(…)` or as the whole expression of an output that declares a rounding. Generated code holds every number as a whole int64; such a quotient is exact only as a pair, which a rounding divides and rounds in one step.",
        fix: "Make the division the last step inside `round(…, MODE, GRID)` — `round(a * 2 / b, half_up, 1)` rather than `round(a / b * 2, half_up, 1)` — or store it into an output that declares `round MODE(GRID)`.",
        example: "rule t v1\ninput a: int 0..100\ninput b: int 1..20\noutput r: int 0..1000\ndefine r = round(a / b * 2, half_up, 1)\n",
        related: &["E132", "E106"],
        budget: None,
    },
    CodeInfo {
        code: "E134",
        title: "A whole square root of a value that may be negative",
        when: "The argument of `isqrt` can be below zero for an input the rule is asked about; the root of a negative number has no answer.",
        fix: "Take the root of a value that cannot be negative, such as `isqrt(max(x, 0))`, or narrow what the inputs may be. The witness gives inputs that make it negative.",
        example: "rule t v1\ninput a: int -10..100\noutput r: int 0..10\ndefine r = isqrt(a)\n",
        related: &["E132"],
        budget: None,
    },
    CodeInfo {
        code: "W114",
        title: "Rows not proven apart",
        when: "The checker can neither prove that two rows of a table never meet nor find an input that matches \
            both. This happens when whether they meet depends on non-linear arithmetic between columns — products of \
            inputs, `mod`, `isqrt`, rounding. The rule is accepted, and the generated code carries a guard that \
            refuses, at run time, an input that matches both rows.",
        fix: "Prefer conditions the checker can reason about: write them on the inputs themselves, or on values that \
            are sums, differences or constant multiples of them. If the rows are meant to be ordered, declare the \
            table `first`.",
        example: "\
rule packing v1

input boxes: int 0..1000000
input per_box: int 0..1000000

output band: int 1..3

define items = boxes * per_box
define handled = boxes + per_box

table band_of -> band
| items        | handled  | band |
|--------------|----------|------|
| >2500000000  | -        | 1    |
| -            | <=100000 | 2    |
| <=2500000000 | >100000  | 3    |
",
        related: &["E102", "E104", "E109"],
        budget: None,
    },
    CodeInfo {
        code: "W121",
        title: "A name is a keyword in a target language",
        when: "An input, output, value or define is called by a word that one of the languages rulec generates \
            reserves (`class`, `type`, `def`, `func`, `final`, …) or by an identifier that language's generated \
            code uses itself (`trace`, `out`, `Output`). That language writes it with `_` after it (`class_`, or \
            `class_2` where `class_` is taken); the languages that do not reserve it keep it as it is. `rulec api` \
            gives the spelling of every language; the wire, the records and the vectors keep the declared name.",
        fix: "Nothing is wrong, but the generated name is not the one you wrote. To choose it yourself, give the \
            name an alias: `class(student_class)`. The fix `add_alias` proposes one.",
        example: "\
rule t v1

input class: int 0..10

output fee: int 0..10

define fee = class
",
        related: &["E053"],
        budget: None,
    },
];
