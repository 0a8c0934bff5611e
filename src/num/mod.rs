//! Exact numbers: rationals, the seven rounding modes, Euclidean remainder, whole square
//! root, and calendar days. No floating point anywhere.

pub mod date;
pub mod int64;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

pub type Rat = BigRational;

pub fn int(n: i64) -> Rat {
    Rat::from_integer(BigInt::from(n))
}

pub fn big(n: BigInt) -> Rat {
    Rat::from_integer(n)
}

/// The rounding modes of language.md §4, all of them signed: `up` is away from zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundMode {
    Up,
    Down,
    Ceiling,
    Floor,
    HalfUp,
    HalfDown,
    HalfEven,
}

impl RoundMode {
    pub const ALL: [RoundMode; 7] = [
        RoundMode::Up,
        RoundMode::Down,
        RoundMode::Ceiling,
        RoundMode::Floor,
        RoundMode::HalfUp,
        RoundMode::HalfDown,
        RoundMode::HalfEven,
    ];
    pub fn parse(s: &str) -> Option<RoundMode> {
        RoundMode::ALL.into_iter().find(|m| m.as_str() == s)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            RoundMode::Up => "up",
            RoundMode::Down => "down",
            RoundMode::Ceiling => "ceiling",
            RoundMode::Floor => "floor",
            RoundMode::HalfUp => "half_up",
            RoundMode::HalfDown => "half_down",
            RoundMode::HalfEven => "half_even",
        }
    }
}

/// `a / b` (b ≠ 0), without the gcd a rational division pays when both are whole and b
/// divides a, or b is one: the common case of a base unit or a grid of 1.
pub fn quot(a: &Rat, b: &Rat) -> Rat {
    if b.is_one() {
        return a.clone();
    }
    if a.is_integer() && b.is_integer() {
        let (q, r) = a.numer().div_rem(b.numer());
        if r.is_zero() {
            return Rat::from_integer(q);
        }
    }
    a / b
}

/// `a · b`, without the gcd when both are whole.
pub fn prod(a: &Rat, b: &Rat) -> Rat {
    if a.is_integer() && b.is_integer() {
        return Rat::from_integer(a.numer() * b.numer());
    }
    a * b
}

/// Whether `x` is a whole multiple of `step` (> 0).
pub fn on_grid(x: &Rat, step: &Rat) -> bool {
    if step.is_one() {
        return x.is_integer();
    }
    if x.is_integer() && step.is_integer() {
        return (x.numer() % step.numer()).is_zero();
    }
    (x / step).is_integer()
}

/// ⌈x⌉ and ⌊x⌋, free for a whole number.
pub fn ceil(x: &Rat) -> Rat {
    if x.is_integer() {
        x.clone()
    } else {
        x.ceil()
    }
}

pub fn floor(x: &Rat) -> Rat {
    if x.is_integer() {
        x.clone()
    } else {
        x.floor()
    }
}

/// Round `x` to a whole number by `mode`.
pub fn round_to_integer(x: &Rat, mode: RoundMode) -> BigInt {
    let floor = x.floor().to_integer();
    if x.is_integer() {
        return floor;
    }
    let frac = x - Rat::from_integer(floor.clone());
    let half = Rat::new(BigInt::one(), BigInt::from(2));
    if rounds_up(mode, x.is_negative(), frac.cmp(&half), floor.is_even()) {
        floor + BigInt::one()
    } else {
        floor
    }
}

/// Whether a value that is not whole rounds by `mode` to the whole number above it rather
/// than the one below: from its sign, how its fraction compares with one half, and whether
/// the whole number below it is even. The seven modes' table, once for every integer width
/// (`round_to_integer` over rationals, `int64::div_round` over i128).
pub fn rounds_up(mode: RoundMode, negative: bool, fraction_to_half: std::cmp::Ordering, floor_even: bool) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match (mode, fraction_to_half) {
        (RoundMode::Up, _) => !negative,
        (RoundMode::Down, _) => negative,
        (RoundMode::Ceiling, _) => true,
        (RoundMode::Floor, _) => false,
        (_, Less) => false,
        (_, Greater) => true,
        (RoundMode::HalfUp, Equal) => !negative,
        (RoundMode::HalfDown, Equal) => negative,
        (RoundMode::HalfEven, Equal) => !floor_even,
    }
}

/// Round `x` to a multiple of `grid` (> 0) by `mode`; ties are judged on the grid.
pub fn round_to_grid(x: &Rat, mode: RoundMode, grid: &Rat) -> Rat {
    debug_assert!(grid.is_positive());
    if on_grid(x, grid) {
        return x.clone();
    }
    let k = round_to_integer(&(x / grid), mode);
    prod(&Rat::from_integer(k), grid)
}

/// Remainder from zero up: 0 <= r < |b| (Euclidean), for rationals.
pub fn mod_euclid(a: &Rat, b: &Rat) -> Rat {
    let b_abs = b.abs();
    let q = (a / &b_abs).floor();
    a - q * b_abs
}

/// Largest whole r with r*r <= x, for x >= 0 (x may be a fraction: isqrt(⌊x⌋)).
pub fn isqrt(x: &Rat) -> BigInt {
    let n = x.floor().to_integer();
    if n <= BigInt::zero() {
        return BigInt::zero();
    }
    n.sqrt()
}

/// Whether a rational is a whole number that fits in i64.
pub fn to_i64(x: &Rat) -> Option<i64> {
    if !x.is_integer() {
        return None;
    }
    i64::try_from(x.to_integer()).ok()
}

/// How far from its last non-zero digit a decimal text may put its point and still be read.
const MAX_DECIMAL_SCALE: u128 = 4000;

/// A decimal text taken apart: its sign, its significant digits (no trailing zero; empty
/// for zero) and the power of ten they are multiplied by.
struct DecimalParts {
    negative: bool,
    significant: String,
    scale: i128,
}

/// Read a decimal text as JSON writes a number: an optional `-`, digits with no leading zero,
/// an optional `.` and at least one digit, an optional exponent (`e`/`E`, a sign, digits).
fn decimal_parts(text: &str) -> Option<DecimalParts> {
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let exp: i128 = match exp {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !all_digits(digits) {
                return None;
            }
            // An exponent too wide for i64 is too wide for any value but zero.
            e.parse::<i64>().unwrap_or(if e.starts_with('-') { i64::MIN } else { i64::MAX }) as i128
        }
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let (ip, fp) = match mantissa.split_once('.') {
        Some((_, "")) => return None,
        Some(parts) => parts,
        None => (mantissa, ""),
    };
    if ip.is_empty() || !all_digits(ip) || !all_digits(fp) || (ip.len() > 1 && ip.starts_with('0')) {
        return None;
    }
    let all = format!("{ip}{fp}");
    let significant = all.trim_end_matches('0').trim_start_matches('0').to_string();
    let trailing_zeros = all.len() - all.trim_end_matches('0').len();
    let scale = exp + trailing_zeros as i128 - fp.len() as i128;
    Some(DecimalParts { negative, significant, scale })
}

/// Parse a decimal text exactly (`-12.5`, `1e3`, `1.5E-2`), as JSON writes a number (see
/// `decimal_parts`). Zero is zero whatever its exponent, and trailing zeros move the point
/// before the exponent is bounded, so `0e5000` is 0 and `1` followed by 5000 zeros `e-5000`
/// is 1. A value whose point lies more than 4000 places from its last non-zero digit is not
/// read (None); `decimal_is_whole` still tells whether it is a whole number.
pub fn parse_decimal(text: &str) -> Option<Rat> {
    let d = decimal_parts(text)?;
    if d.significant.is_empty() {
        return Some(Rat::zero());
    }
    if d.scale.unsigned_abs() > MAX_DECIMAL_SCALE {
        return None;
    }
    let digits: BigInt = d.significant.parse().ok()?;
    let ten = BigInt::from(10);
    let mut v = if d.scale >= 0 {
        Rat::from_integer(digits * num_traits::pow(ten, d.scale as usize))
    } else {
        Rat::new(digits, num_traits::pow(ten, (-d.scale) as usize))
    };
    if d.negative {
        v = -v;
    }
    Some(v)
}

/// Whether a decimal text (as `parse_decimal` reads it) is a whole number, even one too large
/// for `parse_decimal` to read (`1e5000` is whole, `1e-5000` is not); None when it is no
/// decimal text at all.
pub fn decimal_is_whole(text: &str) -> Option<bool> {
    let d = decimal_parts(text)?;
    Some(d.significant.is_empty() || d.scale >= 0)
}

/// Whether a decimal text is a whole number, and how many digits its integer part has
/// (`0` for zero), read from the text alone: never converted, however long it is.
pub fn decimal_digits(text: &str) -> Option<(bool, u64)> {
    let d = decimal_parts(text)?;
    if d.significant.is_empty() {
        return Some((true, 0));
    }
    let digits = d.significant.len() as i128 + d.scale;
    Some((d.scale >= 0, digits.max(0) as u64))
}

/// A rational as the shortest exact decimal, or `n/d` when it has none.
pub fn to_decimal_string(x: &Rat) -> String {
    if x.is_integer() {
        return x.to_integer().to_string();
    }
    let mut d = x.denom().clone();
    let (mut twos, mut fives) = (0usize, 0usize);
    while (&d % 2u32).is_zero() {
        d /= 2u32;
        twos += 1;
    }
    while (&d % 5u32).is_zero() {
        d /= 5u32;
        fives += 1;
    }
    if !d.is_one() {
        return format!("{}/{}", x.numer(), x.denom());
    }
    let places = twos.max(fives);
    let scaled = (x * Rat::from_integer(num_traits::pow(BigInt::from(10), places))).to_integer();
    let neg = scaled.is_negative();
    let digits = scaled.abs().to_string();
    let digits = format!("{:0>width$}", digits, width = places + 1);
    let (ip, fp) = digits.split_at(digits.len() - places);
    format!("{}{ip}.{fp}", if neg { "-" } else { "" })
}

#[cfg(test)]
mod tests;
