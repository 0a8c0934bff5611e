// The fixed text of every generated Rust module, as one Rust file that compiles as it
// stands. The Rust backend copies the sections a rule needs: each starts at a `// rulec: NAME`
// line and runs to the next one. What comes before the first section is for this file alone:
// the placeholder the backend replaces with the plan's sentence.

const RULEC_NOT_AN_INPUT: &str = " is not an input";

// rulec: errors
/// Why a call has no answer. `Input`: the caller broke the contract (fix the call site); the
/// value refused, when the refusal is about one value. `NotAnInput`: the wire form carried
/// a key the rule does not read. `Contradiction`: two rows the checker could not prove apart
/// both matched (fix the rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    Input { what: &'static str, value: Option<Refused> },
    NotAnInput { key: String },
    Contradiction { what: &'static str },
}

/// A value refused, as the caller gave it: a number in its declared unit, a day by its
/// number, a member of an enum by its declared name. It prints as the wire writes it (`101`,
/// `"2025-12-31"`, `"basic"`); a day no `YYYY-MM-DD` writes prints as its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    Number(i64),
    Day(i64),
    Member(&'static str),
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleError::Input { what, value: Some(v) } => write!(f, "{what}: {v}"),
            RuleError::Input { what, value: None } | RuleError::Contradiction { what } => f.write_str(what),
            RuleError::NotAnInput { key } => {
                f.write_str(key)?;
                f.write_str(RULEC_NOT_AN_INPUT)
            }
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            // The days of the years 0000 to 9999, the ones a `YYYY-MM-DD` writes.
            Refused::Day(days) if (-719_528..=2_932_896).contains(&days) => {
                let (y, m, d) = date_parts(days);
                write!(f, "\"{y:04}-{m:02}-{d:02}\"")
            }
            Refused::Number(n) | Refused::Day(n) => write!(f, "{n}"),
            Refused::Member(name) => write!(f, "\"{name}\""),
        }
    }
}

/// The year, month and day of a day number (proleptic Gregorian).
fn date_parts(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

impl std::error::Error for RuleError {}

// rulec: fired
/// A row that matched: the table's name and the row's number as written (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fired {
    pub table: &'static str,
    pub row: u32,
}

// rulec: wire_type
/// One value of a call in the wire form (formats.md), as a JSON reader hands it over: a
/// number as its JSON text (the module works its value out exactly), a string unescaped, an
/// array or an object as `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire<'a> {
    Null,
    Bool(bool),
    Num(&'a str),
    Str(&'a str),
    Other,
}

// rulec: wire_get
/// The value under `key` (the last one, when a key is given twice); `None` when there is
/// none or it is null.
fn wire_get<'a>(call: &[(&str, Wire<'a>)], key: &str) -> Option<Wire<'a>> {
    match call.iter().rev().find(|(k, _)| *k == key) {
        None | Some((_, Wire::Null)) => None,
        Some((_, x)) => Some(*x),
    }
}

// rulec: wire_int
/// The door of a whole number: a JSON number whose value is whole (`1e3`, `1000.0` and `-0.0`
/// are; `1000.5` is not), read exactly from its digits. A whole number past i64 is out of
/// every range.
fn wire_int(x: Wire<'_>, not_int: &'static str, out_of_range: &'static str) -> Result<i64, RuleError> {
    /// The integer the text of a JSON number stands for: `Some(Some(n))` when it is whole and
    /// fits in i64, `Some(None)` when it is whole and does not, `None` when it is not whole or
    /// not a JSON number.
    fn whole(text: &str) -> Option<Option<i64>> {
        fn digits(b: &[u8]) -> usize {
            b.iter().take_while(|c| c.is_ascii_digit()).count()
        }
        let b = text.as_bytes();
        let (negative, b) = match b.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, b),
        };
        let int_len = digits(b);
        if int_len == 0 || (int_len > 1 && b[0] == b'0') {
            return None;
        }
        let (int, b) = b.split_at(int_len);
        let (frac, b) = match b.split_first() {
            Some((b'.', rest)) => {
                let n = digits(rest);
                if n == 0 {
                    return None;
                }
                rest.split_at(n)
            }
            _ => (&b[..0], b),
        };
        let exponent: i64 = match b.split_first() {
            None => 0,
            Some((b'e' | b'E', rest)) => {
                let (sign, rest) = match rest.split_first() {
                    Some((b'-', r)) => (-1, r),
                    Some((b'+', r)) => (1, r),
                    _ => (1, rest),
                };
                if rest.is_empty() || digits(rest) != rest.len() {
                    return None;
                }
                sign * rest.iter().fold(0i64, |e, c| e.saturating_mul(10).saturating_add(i64::from(c - b'0')))
            }
            Some(_) => return None,
        };
        // The value is digits × 10^(exponent - frac.len()), digits being int then frac.
        let all = || int.iter().chain(frac.iter());
        let Some(first) = all().position(|&c| c != b'0') else { return Some(Some(0)) };
        let trailing = all().rev().position(|&c| c != b'0').unwrap_or(0);
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let scale = exponent.saturating_sub(count(frac.len())).saturating_add(count(trailing));
        let significant = int.len() + frac.len() - first - trailing;
        if scale < 0 {
            return None;
        }
        if count(significant).saturating_add(scale) > 19 {
            return Some(None);
        }
        let mut n: i128 = 0;
        for &c in all().skip(first).take(significant) {
            n = n * 10 + i128::from(c - b'0');
        }
        for _ in 0..scale {
            n *= 10;
        }
        Some(i64::try_from(if negative { -n } else { n }).ok())
    }

    let value = match x {
        Wire::Num(text) => whole(text),
        _ => None,
    };
    match value {
        Some(Some(n)) => Ok(n),
        Some(None) => Err(RuleError::Input { what: out_of_range, value: None }),
        None => Err(RuleError::Input { what: not_int, value: None }),
    }
}

// rulec: wire_bool
/// The door of a boolean: JSON's true or false.
fn wire_bool(x: Wire<'_>, not_bool: &'static str) -> Result<bool, RuleError> {
    match x {
        Wire::Bool(b) => Ok(b),
        _ => Err(RuleError::Input { what: not_bool, value: None }),
    }
}

// rulec: wire_str
/// The door of a string.
fn wire_str<'a>(x: Wire<'a>, not_str: &'static str) -> Result<&'a str, RuleError> {
    match x {
        Wire::Str(s) => Ok(s),
        _ => Err(RuleError::Input { what: not_str, value: None }),
    }
}

// rulec: wire_member
/// The door of an enum: the name of one of its values.
fn wire_member<T>(x: Wire<'_>, parse: fn(&str) -> Option<T>, not_member: &'static str) -> Result<T, RuleError> {
    match x {
        Wire::Str(s) => parse(s).ok_or(RuleError::Input { what: not_member, value: None }),
        _ => Err(RuleError::Input { what: not_member, value: None }),
    }
}

// rulec: wire_day
/// The door of a date: a "YYYY-MM-DD" the calendar has, as its day number.
fn wire_day(x: Wire<'_>, not_date: &'static str) -> Result<i64, RuleError> {
    match x {
        Wire::Str(s) => Date::from_wire(s).map(|d| d.0).ok_or(RuleError::Input { what: not_date, value: None }),
        _ => Err(RuleError::Input { what: not_date, value: None }),
    }
}

// rulec: date
/// A calendar day: the number of days since 1970-01-01 (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub i64);

impl Date {
    /// The day exactly "YYYY-MM-DD" names, when the calendar has that day.
    #[must_use]
    pub fn from_wire(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let number = |r: std::ops::Range<usize>| -> Option<i64> {
            b[r].iter().try_fold(0i64, |n, c| c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0')))
        };
        let (y, m, d) = (number(0..4)?, number(5..7)?, number(8..10)?);
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days_in = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        if !(1..=12).contains(&m) || d < 1 || d > days_in[(m - 1) as usize] {
            return None;
        }
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Date(era * 146_097 + doe - 719_468))
    }
}

// rulec: json_str
/// Append a JSON string: `"` and `\` escaped, control characters as escapes, the rest as UTF-8.
fn push_json_str(s: &mut String, text: &str) {
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            '\u{8}' => s.push_str("\\b"),
            '\u{c}' => s.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                s.push_str("\\u00");
                s.push(char::from(HEX[(c as usize) >> 4]));
                s.push(char::from(HEX[(c as usize) & 15]));
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

// rulec: record
/// A fixtures record begun: its brace, and the tag when there is one (an empty tag is none).
fn record_open(tag: &str) -> String {
    let mut json = String::with_capacity(256);
    json.push('{');
    if !tag.is_empty() {
        json.push_str("\"tag\":");
        push_json_str(&mut json, tag);
        json.push(',');
    }
    json
}

/// A fixtures record ended: the rows that matched as the records write them, then its brackets.
fn record_close(mut json: String, trace: &[Fired]) -> String {
    for (i, f) in trace.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        json.push_str("{\"table\":");
        push_json_str(&mut json, f.table);
        json.push_str(",\"row\":");
        json.push_str(&f.row.to_string());
        json.push('}');
    }
    json.push_str("]}");
    json
}

// rulec: date_str
/// Append a day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON.
fn push_date(s: &mut String, days: i64) {
    let (y, m, d) = date_parts(days);
    s.push_str(&format!("\"{y:04}-{m:02}-{d:02}\""));
}

// rulec: div_round_up
/// n / d rounded away from zero (d != 0), the magnitudes divided in u64, the sign put back.
#[allow(clippy::manual_div_ceil)]
fn quot_up(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = (x + (e - 1)) / e;
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_down
/// n / d rounded toward zero (d != 0), the magnitudes divided in u64, the sign put back.
fn quot_down(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = x / e;
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_ceiling
/// n / d rounded toward +infinity (d != 0), the magnitudes divided in u64, the sign put back.
#[allow(clippy::manual_div_ceil)]
fn quot_ceiling(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = if negative { x / e } else { (x + (e - 1)) / e };
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_floor
/// n / d rounded toward -infinity (d != 0; the proof, E132, rules out a zero divisor). Each
/// rounding divides the magnitudes in u64, where nothing overflows (|n| + |d| - 1 < 2^64),
/// and puts the sign back after: exact for every pair of i64 whose quotient is one. A
/// magnitude rounded up is `(x + (e - 1)) / e`: one addition, where `div_ceil` takes a
/// remainder (and measured a quarter slower on a whole table).
#[allow(clippy::manual_div_ceil)]
fn quot_floor(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = if negative { (x + (e - 1)) / e } else { x / e };
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_half_up
/// n / d rounded to the nearest, ties away from zero (d != 0): the magnitude plus half the
/// divisor, truncated.
fn quot_half_up(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = (x + e / 2) / e;
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_half_down
/// n / d rounded to the nearest, ties toward zero (d != 0): the magnitude plus just under
/// half the divisor, truncated.
fn quot_half_down(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let m = (x + (e - 1) / 2) / e;
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: div_round_half_even
/// n / d rounded to the nearest, ties to the even neighbour (d != 0). r < e <= 2^63, so 2r
/// fits in u64.
fn quot_half_even(n: i64, d: i64) -> i64 {
    let (x, e, negative) = (n.unsigned_abs(), d.unsigned_abs(), (n < 0) != (d < 0));
    let (q, r) = (x / e, x % e);
    let m = q + u64::from(2 * r > e || (2 * r == e && q % 2 == 1));
    if negative {
        (m as i64).wrapping_neg()
    } else {
        m as i64
    }
}

// rulec: mod
/// The remainder from zero up: 0 <= r < |b| (b != 0).
fn mod_floor(a: i64, b: i64) -> i64 {
    a.rem_euclid(b)
}

// rulec: isqrt
/// The largest r with r * r <= x (x >= 0), by a binary search over whole numbers.
fn isqrt_i64(x: i64) -> i64 {
    let (mut lo, mut hi) = (0i64, 3_037_000_499i64.min(x.max(0)));
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if mid * mid <= x {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
