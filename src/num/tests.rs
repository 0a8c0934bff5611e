//! Tests of the exact numbers. Every expected value below was worked out by hand from the
//! definitions in language.md §4 (rounding) and §5 (mod, isqrt); none is computed by the code
//! under test.

use super::date;
use super::*;
use proptest::prelude::*;

/// A rational as (numerator, denominator).
type Frac = (i64, i64);

/// The rational n/d.
fn q(n: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(n), BigInt::from(d))
}

fn b(n: i64) -> BigInt {
    BigInt::from(n)
}

/// The modes in the column order of the tables below (deliberately not `RoundMode::ALL`).
const MODES: [RoundMode; 7] = [
    RoundMode::Up,
    RoundMode::Down,
    RoundMode::Ceiling,
    RoundMode::Floor,
    RoundMode::HalfUp,
    RoundMode::HalfDown,
    RoundMode::HalfEven,
];

// ---------------------------------------------------------------------------------------
// Rounding to a whole number
// ---------------------------------------------------------------------------------------

/// (numerator, denominator) of x, then the result for
/// up, down, ceiling, floor, half_up, half_down, half_even.
#[rustfmt::skip]
const TO_INTEGER: &[((i64, i64), [i64; 7])] = &[
    //                   up  down ceil floor h_up h_dn h_ev
    // zero and whole numbers: every mode leaves them alone
    ((0, 1),           [  0,   0,   0,   0,   0,   0,   0]),
    ((1, 1),           [  1,   1,   1,   1,   1,   1,   1]),
    ((-1, 1),          [ -1,  -1,  -1,  -1,  -1,  -1,  -1]),
    ((7, 1),           [  7,   7,   7,   7,   7,   7,   7]),
    ((-7, 1),          [ -7,  -7,  -7,  -7,  -7,  -7,  -7]),
    ((1000, 1),        [1000, 1000, 1000, 1000, 1000, 1000, 1000]),
    ((-1000, 1),       [-1000, -1000, -1000, -1000, -1000, -1000, -1000]),
    // a whole number written as a fraction
    ((6, 3),           [  2,   2,   2,   2,   2,   2,   2]),
    ((-6, 3),          [ -2,  -2,  -2,  -2,  -2,  -2,  -2]),
    // exact ties
    ((1, 2),           [  1,   0,   1,   0,   1,   0,   0]),
    ((-1, 2),          [ -1,   0,   0,  -1,  -1,   0,   0]),
    ((3, 2),           [  2,   1,   2,   1,   2,   1,   2]),
    ((-3, 2),          [ -2,  -1,  -1,  -2,  -2,  -1,  -2]),
    ((5, 2),           [  3,   2,   3,   2,   3,   2,   2]),
    ((-5, 2),          [ -3,  -2,  -2,  -3,  -3,  -2,  -2]),
    ((7, 2),           [  4,   3,   4,   3,   4,   3,   4]),
    ((-7, 2),          [ -4,  -3,  -3,  -4,  -4,  -3,  -4]),
    ((-9, 2),          [ -5,  -4,  -4,  -5,  -5,  -4,  -4]),
    // just below and just above a tie
    ((49, 100),        [  1,   0,   1,   0,   0,   0,   0]),
    ((-49, 100),       [ -1,   0,   0,  -1,   0,   0,   0]),
    ((51, 100),        [  1,   0,   1,   0,   1,   1,   1]),
    ((-51, 100),       [ -1,   0,   0,  -1,  -1,  -1,  -1]),
    ((14999, 10000),   [  2,   1,   2,   1,   1,   1,   1]),
    ((-14999, 10000),  [ -2,  -1,  -1,  -2,  -1,  -1,  -1]),
    ((15001, 10000),   [  2,   1,   2,   1,   2,   2,   2]),
    ((-15001, 10000),  [ -2,  -1,  -1,  -2,  -2,  -2,  -2]),
    ((24999, 10000),   [  3,   2,   3,   2,   2,   2,   2]),
    ((-24999, 10000),  [ -3,  -2,  -2,  -3,  -2,  -2,  -2]),
    ((25001, 10000),   [  3,   2,   3,   2,   3,   3,   3]),
    ((-25001, 10000),  [ -3,  -2,  -2,  -3,  -3,  -3,  -3]),
    // far from a tie
    ((1, 10),          [  1,   0,   1,   0,   0,   0,   0]),
    ((-1, 10),         [ -1,   0,   0,  -1,   0,   0,   0]),
    ((9, 10),          [  1,   0,   1,   0,   1,   1,   1]),
    ((-9, 10),         [ -1,   0,   0,  -1,  -1,  -1,  -1]),
    ((1, 3),           [  1,   0,   1,   0,   0,   0,   0]),
    ((-2, 3),          [ -1,   0,   0,  -1,  -1,  -1,  -1]),
    ((1234, 10),       [124, 123, 124, 123, 123, 123, 123]),
    ((-1234, 10),      [-124, -123, -123, -124, -123, -123, -123]),
    // the smallest fractions either side of zero and of a whole number
    ((1, 1_000_000_007),  [1, 0, 1, 0, 0, 0, 0]),
    ((-1, 1_000_000_007), [-1, 0, 0, -1, 0, 0, 0]),
    ((1_000_000_008, 1_000_000_007), [2, 1, 2, 1, 1, 1, 1]),
];

#[test]
fn round_to_integer_table() {
    let mut failures = Vec::new();
    for &((n, d), want) in TO_INTEGER {
        let x = q(n, d);
        for (mode, &w) in MODES.iter().zip(&want) {
            let got = round_to_integer(&x, *mode);
            if got != b(w) {
                failures.push(format!("round({n}/{d}, {}) = {got}, want {w}", mode.as_str()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn round_to_integer_beyond_i64() {
    // 10^30 + 1/2: 10^30 is even, so half_even goes down; half_up goes away from zero.
    let ten30: BigInt = num_traits::pow(b(10), 30);
    let x = Rat::from_integer(ten30.clone()) + q(1, 2);
    let one = BigInt::one();
    let want =
        [&ten30 + &one, ten30.clone(), &ten30 + &one, ten30.clone(), &ten30 + &one, ten30.clone(), ten30.clone()];
    for (mode, w) in MODES.iter().zip(&want) {
        assert_eq!(&round_to_integer(&x, *mode), w, "{}", mode.as_str());
    }
    // The negative: -(10^30) - 1/2.
    let x = -x;
    let want =
        [-(&ten30 + &one), -ten30.clone(), -ten30.clone(), -(&ten30 + &one), -(&ten30 + &one), -ten30.clone(), -ten30];
    for (mode, w) in MODES.iter().zip(&want) {
        assert_eq!(&round_to_integer(&x, *mode), w, "{}", mode.as_str());
    }
}

// ---------------------------------------------------------------------------------------
// Rounding to a grid
// ---------------------------------------------------------------------------------------

/// x, grid, then the result for up, down, ceiling, floor, half_up, half_down, half_even;
/// every number a (numerator, denominator) pair.
type GridCase = ((i64, i64), (i64, i64), [(i64, i64); 7]);

#[rustfmt::skip]
const TO_GRID: &[GridCase] = &[
    // 1234 to 10: 123.4 tens
    ((1234, 1), (10, 1), [(1240, 1), (1230, 1), (1240, 1), (1230, 1), (1230, 1), (1230, 1), (1230, 1)]),
    ((-1234, 1), (10, 1), [(-1240, 1), (-1230, 1), (-1230, 1), (-1240, 1), (-1230, 1), (-1230, 1), (-1230, 1)]),
    // 1236 to 10: 123.6 tens
    ((1236, 1), (10, 1), [(1240, 1), (1230, 1), (1240, 1), (1230, 1), (1240, 1), (1240, 1), (1240, 1)]),
    ((-1236, 1), (10, 1), [(-1240, 1), (-1230, 1), (-1230, 1), (-1240, 1), (-1240, 1), (-1240, 1), (-1240, 1)]),
    // ties on the grid of 10: 123.5 tens (124 is even) and 124.5 tens (124 is even)
    ((1235, 1), (10, 1), [(1240, 1), (1230, 1), (1240, 1), (1230, 1), (1240, 1), (1230, 1), (1240, 1)]),
    ((-1235, 1), (10, 1), [(-1240, 1), (-1230, 1), (-1230, 1), (-1240, 1), (-1240, 1), (-1230, 1), (-1240, 1)]),
    ((1245, 1), (10, 1), [(1250, 1), (1240, 1), (1250, 1), (1240, 1), (1250, 1), (1240, 1), (1240, 1)]),
    ((-1245, 1), (10, 1), [(-1250, 1), (-1240, 1), (-1240, 1), (-1250, 1), (-1250, 1), (-1240, 1), (-1240, 1)]),
    // -5 to 10: half a ten below zero
    ((-5, 1), (10, 1), [(-10, 1), (0, 1), (0, 1), (-10, 1), (-10, 1), (0, 1), (0, 1)]),
    ((0, 1), (10, 1), [(0, 1); 7]),
    ((1230, 1), (10, 1), [(1230, 1); 7]),
    ((-1230, 1), (10, 1), [(-1230, 1); 7]),
    // 1234 to 25: 49.36 quarters of a hundred (1225 and 1250 either side)
    ((1234, 1), (25, 1), [(1250, 1), (1225, 1), (1250, 1), (1225, 1), (1225, 1), (1225, 1), (1225, 1)]),
    ((-1234, 1), (25, 1), [(-1250, 1), (-1225, 1), (-1225, 1), (-1250, 1), (-1225, 1), (-1225, 1), (-1225, 1)]),
    // 1240 to 25: 49.6
    ((1240, 1), (25, 1), [(1250, 1), (1225, 1), (1250, 1), (1225, 1), (1250, 1), (1250, 1), (1250, 1)]),
    // ties on the grid of 25: 1237.5 is 49.5 (50 even), 1262.5 is 50.5 (50 even)
    ((2475, 2), (25, 1), [(1250, 1), (1225, 1), (1250, 1), (1225, 1), (1250, 1), (1225, 1), (1250, 1)]),
    ((-2475, 2), (25, 1), [(-1250, 1), (-1225, 1), (-1225, 1), (-1250, 1), (-1250, 1), (-1225, 1), (-1250, 1)]),
    ((2525, 2), (25, 1), [(1275, 1), (1250, 1), (1275, 1), (1250, 1), (1275, 1), (1250, 1), (1250, 1)]),
    ((-2525, 2), (25, 1), [(-1275, 1), (-1250, 1), (-1250, 1), (-1275, 1), (-1275, 1), (-1250, 1), (-1250, 1)]),
    ((1250, 1), (25, 1), [(1250, 1); 7]),
    // a fractional grid, 1/2: 1.3 is 2.6 halves
    ((13, 10), (1, 2), [(3, 2), (1, 1), (3, 2), (1, 1), (3, 2), (3, 2), (3, 2)]),
    ((-13, 10), (1, 2), [(-3, 2), (-1, 1), (-1, 1), (-3, 2), (-3, 2), (-3, 2), (-3, 2)]),
    // 1.25 is 2.5 halves (2 even), 0.75 is 1.5 halves (2 even)
    ((5, 4), (1, 2), [(3, 2), (1, 1), (3, 2), (1, 1), (3, 2), (1, 1), (1, 1)]),
    ((-5, 4), (1, 2), [(-3, 2), (-1, 1), (-1, 1), (-3, 2), (-3, 2), (-1, 1), (-1, 1)]),
    ((3, 4), (1, 2), [(1, 1), (1, 2), (1, 1), (1, 2), (1, 1), (1, 2), (1, 1)]),
    ((-3, 4), (1, 2), [(-1, 1), (-1, 2), (-1, 2), (-1, 1), (-1, 1), (-1, 2), (-1, 1)]),
    ((7, 2), (1, 2), [(7, 2); 7]),
    // a rate on a step of 0.5% (grid 1/200): 1.25% is 2.5 steps (2 even)
    ((1, 80), (1, 200), [(3, 200), (1, 100), (3, 200), (1, 100), (3, 200), (1, 100), (1, 100)]),
    // a grid that is a fraction of a non-unit: 1/3, x = 1/2 is 1.5 thirds (2 even)
    ((1, 2), (1, 3), [(2, 3), (1, 3), (2, 3), (1, 3), (2, 3), (1, 3), (2, 3)]),
    ((-1, 2), (1, 3), [(-2, 3), (-1, 3), (-1, 3), (-2, 3), (-2, 3), (-1, 3), (-2, 3)]),
];

#[test]
fn round_to_grid_table() {
    let mut failures = Vec::new();
    for &((xn, xd), (gn, gd), want) in TO_GRID {
        let (x, grid) = (q(xn, xd), q(gn, gd));
        for (mode, &(wn, wd)) in MODES.iter().zip(&want) {
            let got = round_to_grid(&x, *mode, &grid);
            if got != q(wn, wd) {
                failures.push(format!("round({xn}/{xd}, {}, {gn}/{gd}) = {got}, want {wn}/{wd}", mode.as_str()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn round_mode_names() {
    let names = ["up", "down", "ceiling", "floor", "half_up", "half_down", "half_even"];
    for (mode, name) in MODES.iter().zip(names) {
        assert_eq!(mode.as_str(), name);
        assert_eq!(RoundMode::parse(name), Some(*mode));
    }
    assert_eq!(RoundMode::ALL.len(), 7);
    for m in MODES {
        assert!(RoundMode::ALL.contains(&m));
    }
    for bad in ["", "UP", "Half_up", "half-up", "halfup", "half_odd", "nearest", "truncate", "round_half_even"] {
        assert_eq!(RoundMode::parse(bad), None, "{bad:?}");
    }
}

// ---------------------------------------------------------------------------------------
// mod, isqrt, to_i64
// ---------------------------------------------------------------------------------------

#[test]
fn mod_euclid_table() {
    #[rustfmt::skip]
    let cases: &[(Frac, Frac, Frac)] = &[
        // a, b, a mod b: 0 <= r < |b| whatever the signs
        ((7, 1), (3, 1), (1, 1)),
        ((-7, 1), (3, 1), (2, 1)),
        ((7, 1), (-3, 1), (1, 1)),
        ((-7, 1), (-3, 1), (2, 1)),
        ((6, 1), (3, 1), (0, 1)),
        ((-6, 1), (3, 1), (0, 1)),
        ((6, 1), (-3, 1), (0, 1)),
        ((0, 1), (5, 1), (0, 1)),
        ((0, 1), (-5, 1), (0, 1)),
        ((-1, 1), (5, 1), (4, 1)),
        ((-1, 1), (-5, 1), (4, 1)),
        ((4, 1), (5, 1), (4, 1)),
        ((5, 1), (5, 1), (0, 1)),
        ((-60, 1), (7, 1), (3, 1)),   // late_fee: paid 60 days early falls on weekday offset 3
        ((730, 1), (7, 1), (2, 1)),
        ((-3, 1), (7, 1), (4, 1)),    // late_fee's second expect: 3 days early is offset 4
        ((1, 1), (1, 1), (0, 1)),
        // rationals
        ((7, 2), (1, 1), (1, 2)),
        ((-7, 2), (1, 1), (1, 2)),
        ((-1, 3), (1, 2), (1, 6)),    // -1/3 = -1 * 1/2 + 1/6
        ((5, 2), (-3, 4), (1, 4)),    // 5/2 = 3 * 3/4 + 1/4
        ((-5, 2), (3, 4), (1, 2)),    // -5/2 = -4 * 3/4 + 1/2
        ((9, 10), (3, 10), (0, 1)),
        // large: 2^62 = 4 * (2^3)^20 and 8 = 1 (mod 7), so 2^62 = 4 (mod 7)
        ((1 << 62, 1), (7, 1), (4, 1)),
        ((-(1 << 62), 1), (7, 1), (3, 1)),
        ((i64::MIN, 1), (-1, 1), (0, 1)),
        ((i64::MIN, 1), (i64::MAX, 1), (i64::MAX - 1, 1)), // -2^63 = -2 * (2^63 - 1) + (2^63 - 2)
    ];
    for &((an, ad), (bn, bd), (rn, rd)) in cases {
        let got = mod_euclid(&q(an, ad), &q(bn, bd));
        assert_eq!(got, q(rn, rd), "mod({an}/{ad}, {bn}/{bd})");
    }
}

#[test]
fn isqrt_table() {
    #[rustfmt::skip]
    let cases: &[(i64, i64)] = &[
        (0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (8, 2), (9, 3), (10, 3), (15, 3), (16, 4),
        (17, 4), (24, 4), (25, 5), (26, 5), (99, 9), (100, 10), (101, 10), (729, 27), (730, 27),
        (999_999, 999), (1_000_000, 1000), (1_000_001, 1000),
        // near 2^62 = (2^31)^2
        ((1 << 62) - 1, (1 << 31) - 1),
        (1 << 62, 1 << 31),
        ((1 << 62) + 1, 1 << 31),
        ((1 << 62) + (1 << 32), 1 << 31),          // (2^31 + 1)^2 - 1
        ((1 << 62) + (1 << 32) + 1, (1 << 31) + 1), // (2^31 + 1)^2
        // the largest i64: 3037000499^2 = 9223372030926249001 <= 2^63 - 1 < 3037000500^2
        (i64::MAX, 3_037_000_499),
        (9_223_372_030_926_249_001, 3_037_000_499),
        (9_223_372_030_926_249_000, 3_037_000_498),
    ];
    for &(x, r) in cases {
        assert_eq!(isqrt(&int(x)), b(r), "isqrt({x})");
    }
    // A fraction: the root of its whole part.
    for &((n, d), r) in &[((1, 2), 0), ((17, 4), 2), ((99, 4), 4), ((35, 4), 2), ((399, 100), 1), ((401, 100), 2)] {
        assert_eq!(isqrt(&q(n, d)), b(r), "isqrt({n}/{d})");
    }
    // Beyond i64: (10^20)^2 and its neighbours.
    let r: BigInt = num_traits::pow(b(10), 20);
    let sq = &r * &r;
    assert_eq!(isqrt(&big(sq.clone())), r);
    assert_eq!(isqrt(&big(&sq - 1)), &r - 1);
    assert_eq!(isqrt(&big(&sq + 1)), r);
}

#[test]
fn to_i64_table() {
    assert_eq!(to_i64(&int(0)), Some(0));
    assert_eq!(to_i64(&int(-5)), Some(-5));
    assert_eq!(to_i64(&q(10, 2)), Some(5));
    assert_eq!(to_i64(&int(i64::MAX)), Some(i64::MAX));
    assert_eq!(to_i64(&int(i64::MIN)), Some(i64::MIN));
    assert_eq!(to_i64(&(int(i64::MAX) + int(1))), None);
    assert_eq!(to_i64(&(int(i64::MIN) - int(1))), None);
    assert_eq!(to_i64(&q(1, 2)), None);
    assert_eq!(to_i64(&q(-7, 2)), None);
}

// ---------------------------------------------------------------------------------------
// Decimal text
// ---------------------------------------------------------------------------------------

#[test]
fn parse_decimal_accepts_json_numbers() {
    #[rustfmt::skip]
    let cases: &[(&str, (i64, i64))] = &[
        ("0", (0, 1)),
        ("-0", (0, 1)),
        ("-0.0", (0, 1)),
        ("0.000", (0, 1)),
        ("5", (5, 1)),
        ("-5", (-5, 1)),
        ("1000", (1000, 1)),
        ("1000.0", (1000, 1)),
        ("5.0", (5, 1)),
        ("1e3", (1000, 1)),
        ("1E3", (1000, 1)),
        ("1e+3", (1000, 1)),
        ("1e1", (10, 1)),
        ("1e0", (1, 1)),
        ("1.5e3", (1500, 1)),
        ("-1.5e3", (-1500, 1)),
        ("1E-2", (1, 100)),
        ("1.5E-2", (3, 200)),
        ("12345e-2", (12345, 100)),
        ("-12.5", (-25, 2)),
        ("1000.5", (2001, 2)),
        ("0.1", (1, 10)),
        ("-0.125", (-1, 8)),
        ("0e0", (0, 1)),
        ("0.0e5", (0, 1)),
        ("9223372036854775807", (i64::MAX, 1)),
        ("-9223372036854775808", (i64::MIN, 1)),
        ("9.223372036854775807e18", (i64::MAX, 1)),
    ];
    for &(text, (n, d)) in cases {
        assert_eq!(parse_decimal(text), Some(q(n, d)), "{text:?}");
    }
    // Beyond i64, exactly.
    let want: BigInt = num_traits::pow(b(10), 30);
    assert_eq!(parse_decimal("1e30"), Some(big(want.clone())));
    assert_eq!(parse_decimal("1000000000000000000000000000000"), Some(big(want.clone())));
    assert_eq!(parse_decimal("-1e30"), Some(big(-want)));
}

#[test]
fn parse_decimal_refuses_what_json_does_not_write() {
    for text in [
        "", "-", "+", "1.", "-1.", "1.e3", ".5", "-.5", "1e", "1E", "1e+", "1e-", "e3", "--1", "+1", "0x10", "1_000",
        "1,000", " 1", "1 ", "1.5.5", "1e3e3", "1e3.5", "NaN", "inf", "-inf", "１", "01", "-01", "00.5", "007e1",
    ] {
        assert_eq!(parse_decimal(text), None, "{text:?}");
    }
}

#[test]
fn parse_decimal_whole_values_with_wide_exponents() {
    // Zero is zero whatever its exponent; digits that end in zeros shift the exponent.
    assert_eq!(parse_decimal("0e5000"), Some(int(0)));
    assert_eq!(parse_decimal("-0.0e-5000"), Some(int(0)));
    let text = format!("1{}e-5000", "0".repeat(5000));
    assert_eq!(parse_decimal(&text), Some(int(1)));
    let text = format!("2.5{}e1", "0".repeat(100));
    assert_eq!(parse_decimal(&text), Some(int(25)));
    // An exponent wider than i64 still leaves zero zero.
    assert_eq!(parse_decimal("0e99999999999999999999"), Some(int(0)));
    assert_eq!(parse_decimal("-0.0e-99999999999999999999"), Some(int(0)));
    // The point may sit up to 4000 places from the last non-zero digit, and no further.
    let want: BigInt = num_traits::pow(b(10), 4000);
    assert_eq!(parse_decimal("1e4000"), Some(big(want.clone())));
    assert_eq!(parse_decimal("1e-4000"), Some(Rat::new(b(1), want)));
    assert_eq!(parse_decimal("1e4001"), None);
    assert_eq!(parse_decimal("1e-4001"), None);
    assert_eq!(parse_decimal("1e99999999999999999999"), None);
}

#[test]
fn decimal_is_whole_table() {
    #[rustfmt::skip]
    let cases: &[(&str, Option<bool>)] = &[
        ("0", Some(true)), ("-0.0", Some(true)), ("1000", Some(true)), ("1000.0", Some(true)),
        ("1e3", Some(true)), ("1.5e3", Some(true)), ("1.5e0", Some(false)), ("1000.5", Some(false)),
        ("1E-2", Some(false)), ("100e-2", Some(true)), ("1e5000", Some(true)), ("-1e5000", Some(true)),
        ("1e-5000", Some(false)), ("0e-5000", Some(true)), ("1e99999999999999999999", Some(true)),
        ("1.", None), (".5", None), ("1e", None), ("--1", None), ("0x10", None), ("", None), ("01", None),
    ];
    for &(text, want) in cases {
        assert_eq!(decimal_is_whole(text), want, "{text:?}");
        // it agrees with parse_decimal wherever that reads the text
        if let Some(x) = parse_decimal(text) {
            assert_eq!(Some(x.is_integer()), want, "{text:?}");
        }
    }
}

#[test]
fn to_decimal_string_table() {
    #[rustfmt::skip]
    let cases: &[((i64, i64), &str)] = &[
        ((0, 1), "0"),
        ((5, 1), "5"),
        ((-17, 1), "-17"),
        ((1000, 1), "1000"),
        ((i64::MAX, 1), "9223372036854775807"),
        ((i64::MIN, 1), "-9223372036854775808"),
        ((1, 2), "0.5"),
        ((-1, 2), "-0.5"),
        ((5, 2), "2.5"),
        ((-1, 8), "-0.125"),
        ((1, 100), "0.01"),
        ((-1, 100), "-0.01"),
        ((1, 20), "0.05"),
        ((7, 40), "0.175"),
        ((123456, 1000), "123.456"),
        ((-123456, 1000), "-123.456"),
        ((183, 10), "18.3"),
        ((1, 1024), "0.0009765625"),
        ((10, 4), "2.5"),
        ((1, 3), "1/3"),
        ((-1, 3), "-1/3"),
        ((1, 6), "1/6"),
        ((7, 30), "7/30"),
        ((22, 7), "22/7"),
    ];
    for &((n, d), want) in cases {
        assert_eq!(to_decimal_string(&q(n, d)), want, "{n}/{d}");
    }
}

// ---------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------

#[test]
fn date_fixed_points() {
    #[rustfmt::skip]
    let cases: &[(&str, (i32, u32, u32), i64)] = &[
        ("1970-01-01", (1970, 1, 1), 0),
        ("1970-01-02", (1970, 1, 2), 1),
        ("1969-12-31", (1969, 12, 31), -1),
        ("1970-03-01", (1970, 3, 1), 59),
        // 30 years with 7 leap days (1972 .. 1996)
        ("2000-01-01", (2000, 1, 1), 10957),
        ("2000-02-29", (2000, 2, 29), 11016),
        ("2000-03-01", (2000, 3, 1), 11017),
        // 2^31 seconds after the epoch falls on day 24855
        ("2038-01-19", (2038, 1, 19), 24855),
        // 56 years with 14 leap days (1972 .. 2024): the generated-code seed's 20454..20818
        ("2026-01-01", (2026, 1, 1), 20454),
        ("2026-03-31", (2026, 3, 31), 20543),
        ("2026-12-31", (2026, 12, 31), 20818),
        ("2027-12-31", (2027, 12, 31), 21183),
        // 70 years with 17 leap days (1904 .. 1968)
        ("1900-01-01", (1900, 1, 1), -25567),
        ("1900-03-01", (1900, 3, 1), -25508),
        // the start of Hinnant's era 0
        ("0000-03-01", (0, 3, 1), -719468),
        ("9999-12-31", (9999, 12, 31), 2932896),
    ];
    for &(text, (y, m, d), z) in cases {
        assert_eq!(date::days_from_civil(y, m, d), z, "{text}");
        assert_eq!(date::civil_from_days(z), (y as i64, m, d), "{text}");
        assert_eq!(date::parse(text), Some(z), "{text}");
        assert_eq!(date::format_days(z), text, "{text}");
    }
}

#[test]
fn date_validity() {
    #[rustfmt::skip]
    let cases: &[((i32, u32, u32), bool)] = &[
        ((2000, 2, 29), true),   // divisible by 400
        ((1900, 2, 29), false),  // divisible by 100, not 400
        ((2100, 2, 29), false),
        ((2400, 2, 29), true),
        ((2024, 2, 29), true),
        ((2026, 2, 29), false),
        ((2026, 2, 28), true),
        ((2026, 2, 30), false),
        ((2026, 4, 30), true),
        ((2026, 4, 31), false),
        ((2026, 6, 31), false),
        ((2026, 9, 31), false),
        ((2026, 11, 31), false),
        ((2026, 12, 31), true),
        ((2026, 1, 31), true),
        ((2026, 1, 32), false),
        ((2026, 1, 0), false),
        ((2026, 0, 1), false),
        ((2026, 13, 1), false),
        ((0, 2, 29), true),      // year 0 is divisible by 400
    ];
    for &((y, m, d), valid) in cases {
        assert_eq!(date::is_valid(y, m, d), valid, "{y:04}-{m:02}-{d:02}");
    }
    assert!(date::is_leap(2000) && date::is_leap(2024) && date::is_leap(0) && date::is_leap(-4));
    assert!(!date::is_leap(1900) && !date::is_leap(2026) && !date::is_leap(-1) && !date::is_leap(-100));
}

/// The next calendar day, by counting — the definition, not the day-number formula.
fn next_day((y, m, d): (i64, u32, u32)) -> (i64, u32, u32) {
    let month_len = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    };
    if d < month_len {
        (y, m, d + 1)
    } else if m < 12 {
        (y, m + 1, 1)
    } else {
        (y + 1, 1, 1)
    }
}

#[test]
fn date_round_trip_every_day_two_hundred_years_either_side() {
    // Walk every day from 1770-01-01 to 2170-12-31 by counting, and check that the
    // day number goes up by one each day and that both directions agree.
    let start = date::days_from_civil(1770, 1, 1);
    // 200 years of which 48 are leap (1772 .. 1968 by fours is 50, less 1800 and 1900)
    assert_eq!(start, -(200 * 365 + 48));
    let mut civil = (1770i64, 1u32, 1u32);
    let mut z = start;
    while civil != (2171, 1, 1) {
        let (y, m, d) = civil;
        assert!(date::is_valid(y as i32, m, d), "{civil:?}");
        assert_eq!(date::days_from_civil(y as i32, m, d), z, "{civil:?}");
        assert_eq!(date::civil_from_days(z), civil, "day {z}");
        civil = next_day(civil);
        z += 1;
    }
    assert_eq!(z, date::days_from_civil(2171, 1, 1));
}

#[test]
fn date_round_trip_sampled_far() {
    // Every 97th day over ±4000 years, and each era boundary (every 400 years).
    let mut z = date::days_from_civil(-2000, 1, 1);
    let end = date::days_from_civil(6000, 1, 1);
    while z < end {
        let (y, m, d) = date::civil_from_days(z);
        assert!(date::is_valid(y as i32, m, d), "day {z}");
        assert_eq!(date::days_from_civil(y as i32, m, d), z);
        // the day before is the one whose next day this is
        assert_eq!(next_day(date::civil_from_days(z - 1)), (y, m, d), "day {z}");
        z += 97;
    }
    for y in (-2000..=6000).step_by(400) {
        for &(m, d) in &[(1, 1), (2, 29), (3, 1), (12, 31)] {
            let z = date::days_from_civil(y, m, d);
            assert_eq!(date::civil_from_days(z), (y as i64, m, d));
        }
    }
}

#[test]
fn date_parse_refuses() {
    for text in [
        "",
        "2026-1-01",
        "2026-01-1",
        "2026-01-01x",
        " 2026-01-01",
        "2026-01-01 ",
        "20260101",
        "2026/01/01",
        "2026-01/01",
        "2026-02-30",
        "2026-02-29",
        "1900-02-29",
        "2026-13-01",
        "2026-00-01",
        "2026-01-00",
        "2026-04-31",
        "+026-01-01",
        "-026-01-01",
        "2026-+1-01",
        "2026-01-+1",
        "éé-01-01",
        "２０２６-01-01",
        "26-01-01",
        "02026-01-01",
        "2026-01-01T00:00:00",
    ] {
        assert_eq!(date::parse(text), None, "{text:?}");
    }
    assert_eq!(date::parse("2000-02-29"), Some(11016));
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn rational() -> impl Strategy<Value = Rat> {
    prop_oneof![
        // small numerators over small denominators: ties and near-ties are common
        (-1000i64..=1000, 1i64..=20).prop_map(|(n, d)| q(n, d)),
        // anything that fits in an i64 numerator and denominator
        (any::<i64>(), 1i64..=i64::MAX).prop_map(|(n, d)| q(n, d)),
        // exact ties k + 1/2
        (-1_000_000i64..=1_000_000).prop_map(|k| q(2 * k + 1, 2)),
    ]
}

proptest! {
    #[test]
    fn rounding_obeys_its_mode(x in rational()) {
        let half = q(1, 2);
        let fl = x.floor();
        let ce = x.ceil();
        for mode in MODES {
            let r = big(round_to_integer(&x, mode));
            let dist = (&x - &r).abs();
            prop_assert!(dist < int(1), "{} {}: {}", x, mode.as_str(), r);
            prop_assert!(r == fl || r == ce, "{} {}: {} is neither floor nor ceiling", x, mode.as_str(), r);
            if x.is_integer() {
                prop_assert_eq!(&r, &x);
            }
            match mode {
                RoundMode::Floor => prop_assert!(r <= x),
                RoundMode::Ceiling => prop_assert!(r >= x),
                // toward zero: never larger in size, never across zero
                RoundMode::Down => prop_assert!(r.abs() <= x.abs() && !(r.is_positive() && x.is_negative()) && !(r.is_negative() && x.is_positive())),
                // away from zero: never smaller in size, the same sign
                RoundMode::Up => prop_assert!(r.abs() >= x.abs() && (r.is_zero() || r.is_positive() == x.is_positive())),
                RoundMode::HalfUp | RoundMode::HalfDown | RoundMode::HalfEven => {
                    // a nearest whole number
                    prop_assert!(dist <= half, "{} {}: {} is not nearest", x, mode.as_str(), r);
                    let other = if r == fl { &ce } else { &fl };
                    prop_assert!(dist <= (&x - other).abs());
                    if dist == half {
                        match mode {
                            RoundMode::HalfUp => prop_assert!(r.abs() > x.abs()),
                            RoundMode::HalfDown => prop_assert!(r.abs() < x.abs()),
                            _ => prop_assert!(r.to_integer().is_even()),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rounding_is_odd_symmetric_except_ceiling_and_floor(x in rational()) {
        // Every signed mode commutes with negation; ceiling and floor swap.
        let neg = -x.clone();
        for mode in [RoundMode::Up, RoundMode::Down, RoundMode::HalfUp, RoundMode::HalfDown, RoundMode::HalfEven] {
            prop_assert_eq!(round_to_integer(&neg, mode), -round_to_integer(&x, mode));
        }
        prop_assert_eq!(round_to_integer(&neg, RoundMode::Floor), -round_to_integer(&x, RoundMode::Ceiling));
    }

    #[test]
    fn rounding_to_a_grid_lands_on_it(x in rational(), gn in 1i64..=1000, gd in 1i64..=100) {
        let grid = q(gn, gd);
        for mode in MODES {
            let r = round_to_grid(&x, mode, &grid);
            prop_assert!((&r / &grid).is_integer(), "{} {} {}: {}", x, mode.as_str(), grid, r);
            prop_assert!((&x - &r).abs() < grid, "{} {} {}: {}", x, mode.as_str(), grid, r);
            match mode {
                RoundMode::Floor => prop_assert!(r <= x),
                RoundMode::Ceiling => prop_assert!(r >= x),
                RoundMode::Down => prop_assert!(r.abs() <= x.abs()),
                RoundMode::Up => prop_assert!(r.abs() >= x.abs()),
                _ => prop_assert!((&x - &r).abs() * int(2) <= grid),
            }
        }
    }

    #[test]
    fn mod_euclid_matches_rem_euclid(a in any::<i64>(), bv in any::<i64>().prop_filter("non-zero", |v| *v != 0)) {
        // i64::rem_euclid is the definition §5 names; it overflows only for MIN % -1.
        prop_assume!(!(a == i64::MIN && bv == -1));
        prop_assert_eq!(mod_euclid(&int(a), &int(bv)), int(a.rem_euclid(bv)));
    }

    #[test]
    fn mod_euclid_of_rationals(a in rational(), bn in -1000i64..=1000, bd in 1i64..=50) {
        prop_assume!(bn != 0);
        let bq = q(bn, bd);
        let r = mod_euclid(&a, &bq);
        prop_assert!(!r.is_negative() && r < bq.abs(), "mod({}, {}) = {}", a, bq, r);
        prop_assert!(((&a - &r) / &bq).is_integer(), "mod({}, {}) = {}", a, bq, r);
    }

    #[test]
    fn isqrt_is_the_largest_root(x in 0i64..=i64::MAX) {
        let r = isqrt(&int(x));
        let x = b(x);
        prop_assert!(&r * &r <= x);
        let r1 = &r + 1;
        prop_assert!(&r1 * &r1 > x);
    }

    #[test]
    fn decimal_text_round_trips(n in any::<i64>(), twos in 0u32..=12, fives in 0u32..=12) {
        // A fraction whose denominator has only 2s and 5s has a finite decimal; its text
        // reads back as the same number.
        let d = BigInt::from(2).pow(twos) * BigInt::from(5).pow(fives);
        let x = Rat::new(b(n), d);
        let text = to_decimal_string(&x);
        prop_assert_eq!(parse_decimal(&text), Some(x.clone()), "{}", text);
        // ... and it is the shortest: no trailing zero after a point
        prop_assert!(!text.contains('.') || !text.ends_with('0'), "{}", text);
    }

    #[test]
    fn decimal_exponent_moves_the_point(m in -1_000_000i64..=1_000_000, e in -30i64..=30) {
        let ten = b(10);
        let want = if e >= 0 {
            big(b(m) * num_traits::pow(ten, e as usize))
        } else {
            Rat::new(b(m), num_traits::pow(ten, (-e) as usize))
        };
        prop_assert_eq!(parse_decimal(&format!("{m}e{e}")), Some(want.clone()));
        prop_assert_eq!(parse_decimal(&format!("{m}.000E{e}")), Some(want));
    }

    #[test]
    fn days_round_trip(z in -3_000_000i64..=3_000_000) {
        let (y, m, d) = date::civil_from_days(z);
        prop_assert!(date::is_valid(y as i32, m, d));
        prop_assert_eq!(date::days_from_civil(y as i32, m, d), z);
        prop_assert_eq!(next_day((y, m, d)), date::civil_from_days(z + 1));
        if (0..=9999).contains(&y) {
            let text = date::format_days(z);
            prop_assert_eq!(date::parse(&text), Some(z), "{}", text);
        }
    }
}
