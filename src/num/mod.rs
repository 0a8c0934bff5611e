//! Exact numbers: rationals, the seven rounding modes, Euclidean remainder, whole square
//! root, and calendar days. No floating point anywhere.

pub mod date;

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

/// Round `x` to a whole number by `mode`.
pub fn round_to_integer(x: &Rat, mode: RoundMode) -> BigInt {
    let floor = x.floor().to_integer();
    if x.is_integer() {
        return floor;
    }
    let ceil: BigInt = &floor + BigInt::one();
    let negative = x.is_negative();
    let frac = x - Rat::from_integer(floor.clone());
    let half = Rat::new(BigInt::one(), BigInt::from(2));
    let away = if negative { floor.clone() } else { ceil.clone() };
    let toward = if negative { ceil.clone() } else { floor.clone() };
    match mode {
        RoundMode::Up => away,
        RoundMode::Down => toward,
        RoundMode::Ceiling => ceil,
        RoundMode::Floor => floor,
        RoundMode::HalfUp | RoundMode::HalfDown | RoundMode::HalfEven => match frac.cmp(&half) {
            std::cmp::Ordering::Less => floor,
            std::cmp::Ordering::Greater => ceil,
            std::cmp::Ordering::Equal => match mode {
                RoundMode::HalfUp => away,
                RoundMode::HalfDown => toward,
                _ => {
                    if floor.is_even() {
                        floor
                    } else {
                        ceil
                    }
                }
            },
        },
    }
}

/// Round `x` to a multiple of `grid` (> 0) by `mode`; ties are judged on the grid.
pub fn round_to_grid(x: &Rat, mode: RoundMode, grid: &Rat) -> Rat {
    debug_assert!(grid.is_positive());
    let k = round_to_integer(&(x / grid), mode);
    Rat::from_integer(k) * grid
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

/// Parse a decimal text exactly (`-12.5`, `1e3`, `1.5E-2`), as JSON writes a number.
pub fn parse_decimal(text: &str) -> Option<Rat> {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let (ip, fp) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if ip.is_empty() || !ip.bytes().all(|b| b.is_ascii_digit()) || !fp.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if exp.unsigned_abs() > 4000 {
        return None;
    }
    let digits: BigInt = format!("{ip}{fp}").parse().ok()?;
    let scale = exp - fp.len() as i64;
    let ten = BigInt::from(10);
    let mut v = if scale >= 0 {
        Rat::from_integer(digits * num_traits::pow(ten, scale as usize))
    } else {
        Rat::new(digits, num_traits::pow(ten, (-scale) as usize))
    };
    if neg {
        v = -v;
    }
    Some(v)
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
