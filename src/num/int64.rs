//! Rounding and roots in machine integers: the one int64 form of the reference's exact
//! arithmetic (`round_to_integer`, `isqrt` over big integers), which the values of the plan
//! compute with (`gen::tree::value`: the plan's interpreter, and replay's fast form, which
//! runs the plan) and the generated code's helpers (`div_round`, `isqrt` in every runtime)
//! are held to. Operands are i128 so that a
//! product of two i64 values is exact before it is divided.

use super::RoundMode;

/// `n / d` rounded to a whole number by `mode`, exactly as [`super::round_to_integer`]; `None`
/// where `d` is 0 or the quotient leaves i128.
pub fn div_round(n: i128, d: i128, mode: RoundMode) -> Option<i128> {
    if d == 1 {
        return Some(n);
    }
    if d == 0 {
        return None;
    }
    // In i64 where both fit: the same arithmetic, without 128-bit division.
    if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d)) {
        if d > 0 && n != i64::MIN {
            let (floor, rem) = (n.div_euclid(d), n.rem_euclid(d));
            if rem == 0 {
                return Some(floor as i128);
            }
            return Some(round_rest(floor as i128, rem as i128, d as i128, n < 0, mode));
        }
    }
    let (n, d) = if d < 0 { (n.checked_neg()?, -d) } else { (n, d) };
    let floor = n.div_euclid(d);
    let rem = n.rem_euclid(d);
    if rem == 0 {
        return Some(floor);
    }
    Some(round_rest(floor, rem, d, n < 0, mode))
}

/// The rounding of `n / d` (d > 0) that is not whole: `floor` and the remainder `rem` > 0.
fn round_rest(floor: i128, rem: i128, d: i128, negative: bool, mode: RoundMode) -> i128 {
    if super::rounds_up(mode, negative, (2 * rem).cmp(&d), floor % 2 == 0) {
        floor + 1
    } else {
        floor
    }
}

/// The largest r with r·r ≤ x (Newton's method on integers, from above).
pub fn isqrt(x: i128) -> i128 {
    if x <= 0 {
        return 0;
    }
    let bits = 128 - x.leading_zeros();
    let mut r: i128 = 1 << bits.div_ceil(2);
    loop {
        let next = (r + x / r) / 2;
        if next >= r {
            return r;
        }
        r = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{round_to_integer, Rat};
    use num_bigint::BigInt;

    #[test]
    fn division_rounds_as_the_reference() {
        // Small operands (the i64 path) and ones past i64 (the i128 path).
        let big = i64::MAX as i128 * 4;
        let ns: Vec<i128> = (-40i128..=40).chain((-40i128..=40).map(|n| big + n)).chain([-big - 3, -big]).collect();
        for n in ns {
            for d in [-7i128, -4, -2, -1, 1, 2, 3, 4, 10, big / 3] {
                for mode in RoundMode::ALL {
                    let want = round_to_integer(&Rat::new(n.into(), d.into()), mode);
                    assert_eq!(BigInt::from(div_round(n, d, mode).unwrap()), want, "{n}/{d} {mode:?}");
                }
            }
        }
    }

    #[test]
    fn whole_roots() {
        for x in 0..2000i128 {
            let r = isqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x);
        }
        let big = i64::MAX as i128;
        let r = isqrt(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
    }
}
