//! The module include_rule! expanded to, called with the rule's `expect` lines.

use macro_user::late_fee::{self, Date, LateBand, RuleError, JPY};
use macro_user::{date, late_charge, InvoiceError, LateCharge};

#[test]
fn dates_are_days_since_1970() {
    assert_eq!(date("1970-01-01"), Some(Date(0)));
    assert_eq!(date("2026-01-01"), Some(Date(20454)));
    assert_eq!(date("2000-03-01"), Some(Date(11017)));
    assert_eq!(date("2026-13-01"), None);
}

#[test]
fn late_fee_answers_its_expect_lines() {
    let d = |s| date(s).unwrap();
    for (due, paid, amount, fee, band, offset) in [
        ("2026-03-31", "2026-03-31", 100000, 0, LateBand::OnTime, 0),
        ("2026-03-31", "2026-03-28", 100000, 0, LateBand::OnTime, 4),
        ("2026-03-31", "2026-04-01", 123456, 1235, LateBand::Short, 1),
        ("2026-01-31", "2026-03-31", 100000, 1930, LateBand::Long, 3),
        ("2026-12-31", "2027-12-31", 10000000, 49810, LateBand::Long, 1),
    ] {
        let out = late_fee::late_fee(d(due), d(paid), JPY(amount)).unwrap();
        assert_eq!((out.fee, out.band, out.weekday_offset), (JPY(fee), band, offset), "{due} {paid}");
    }
    assert_eq!(late_fee::late_fee(d("2026-01-01"), d("2026-02-01"), JPY(1)).unwrap().fee, JPY(0));
}

#[test]
fn a_broken_constraint_is_refused() {
    // constraint paid >= due - 60
    let refused = late_fee::late_fee(date("2026-03-31").unwrap(), date("2026-01-01").unwrap(), JPY(100000));
    assert_eq!(refused, Err(RuleError::Input { what: "the constraint does not hold: paid >= due - 60", value: None }));
    assert!(matches!(late_charge("2026-01-01", "2028-01-01", 100), Err(InvoiceError::Refused(_))));
    assert_eq!(late_charge("2026-01-31", "someday", 100), Err(InvoiceError::NotADate("someday".into())));
}

#[test]
fn the_record_line_is_the_one_rulec_eval_prints() {
    let (due, paid) = (date("2026-01-31").unwrap(), date("2026-03-31").unwrap());
    let (out, trace) = late_fee::late_fee_traced(due, paid, JPY(100000)).unwrap();
    let record = late_fee::late_fee_record(due, paid, JPY(100000), &out, &trace, "");
    // rulec eval rules/late_fee.rule --in '{"due":"2026-01-31","paid":"2026-03-31","amount":100000}'
    assert_eq!(
        record,
        r#"{"in":{"due":"2026-01-31","paid":"2026-03-31","amount":100000},"observed":{"fee":1930,"band":"long","weekday_offset":3},"trace":[{"table":"band_of","row":3},{"table":"fee_of","row":3}]}"#
    );
    assert_eq!(late_charge("2026-01-31", "2026-03-31", 100000), Ok(LateCharge { fee_jpy: 1930, band: LateBand::Long }));
}
