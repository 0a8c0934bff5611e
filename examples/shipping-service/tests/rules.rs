//! The generated functions, called as a service calls them: the values are the rules'
//! `expect` lines, the refusals and records what `rulec eval` prints for the same inputs.

use shipping_service::member_discount::{self as md, Channel, Tier};
use shipping_service::parcel_rate::{self as pr, Inches, Pounds, Zone, USD};
use shipping_service::single_coupon::{self as sc, CouponKind};
use shipping_service::{checkout, quote, Bill, CheckoutError, Coupon, ParcelRequest, QuoteError};

#[test]
fn parcel_rate_answers_its_expect_lines() {
    // expect weight=5lb, girth=40in, dest=canada, signature=false -> fee=11USD, and the other three
    for (w, g, dest, sig, fee) in [
        (5, 40, Zone::Canada, false, 11),
        (11, 61, Zone::Domestic, true, 24),
        (70, 130, Zone::Overseas, true, 59),
        (11, 60, Zone::Canada, false, 17),
    ] {
        assert_eq!(pr::parcel_rate(Pounds(w), Inches(g), dest, sig), Ok(USD(fee)), "{w}lb {g}in {dest:?}");
    }
}

#[test]
fn parcel_rate_refuses_a_weight_outside_its_range() {
    let refused = pr::parcel_rate(Pounds(0), Inches(40), Zone::Canada, false);
    assert_eq!(
        refused,
        Err(pr::RuleError::Input { what: "weight is out of range", value: Some(pr::Refused::Number(0)) })
    );
    assert_eq!(refused.unwrap_err().to_string(), "weight is out of range: 0");
    assert!(pr::parcel_rate(Pounds(71), Inches(40), Zone::Canada, false).is_err());
}

#[test]
fn the_record_line_is_the_one_rulec_eval_prints() {
    // rulec eval rules/parcel_rate.rule --in '{"weight":5,"girth":40,"dest":"canada","signature":false}'
    let (fee, trace) = pr::parcel_rate_traced(Pounds(5), Inches(40), Zone::Canada, false).unwrap();
    assert_eq!(
        pr::parcel_rate_record(Pounds(5), Inches(40), Zone::Canada, false, &fee, &trace, ""),
        r#"{"in":{"weight":5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#
    );
}

#[test]
fn member_discount_answers_its_expect_lines_with_the_shared_tiers() {
    use md::{CouponKind::*, JPYInclTax as Yen, Rate};
    let call = |t, c, s, k| md::member_discount(t, c, Yen(s), k).unwrap();
    // rate[0.5%]: 2.5% is 5 steps.
    let o = call(Tier::Silver, Channel::Store, 10000, None);
    assert_eq!((o.pct, o.discount, o.note), (Rate(5), Yen(250), None));
    let o = call(Tier::Gold, Channel::Web, 10100, Some(TenOff));
    assert_eq!((o.pct, o.discount, o.note.as_deref()), (Rate(15), Yen(1260), Some("web bonus")));
    let o = call(Tier::Platinum, Channel::Phone, 1300, Some(Gift));
    assert_eq!((o.pct, o.discount), (Rate(10), Yen(60)));
    assert_eq!(call(Tier::Gold, Channel::Store, 1500, None).discount, Yen(80));
    assert_eq!(call(Tier::Gold, Channel::Store, 1700, None).discount, Yen(80));
    // The input is declared silver..platinum: basic is refused at the door.
    assert_eq!(
        md::member_discount(Tier::Basic, Channel::Web, Yen(100), None),
        Err(md::RuleError::Input { what: "tier is out of range", value: Some(md::Refused::Member("basic")) })
    );
    assert_eq!(Tier::parse("platinum"), Some(Tier::Platinum));
    assert_eq!(Tier::Gold.as_str(), "gold");
}

#[test]
fn single_coupon_answers_its_expect_lines_and_refuses_a_broken_constraint() {
    use sc::{JPYInclTax as Yen, Rate};
    for (subtotal, applied, kind, rate, face, dup, ok, raw) in [
        (10000, 0, CouponKind::Percent, 10, 0, false, true, 1000),
        (999, 0, CouponKind::Percent, 10, 0, false, false, 0),
        (1999, 0, CouponKind::Percent, 15, 0, false, true, 299),
        (5000, 4500, CouponKind::Fixed, 0, 1000, false, true, 500),
        (5000, 0, CouponKind::Fixed, 0, 1000, true, false, 0),
    ] {
        let out = sc::single_coupon(Yen(subtotal), Yen(applied), kind, Rate(rate), Yen(face), dup).unwrap();
        assert_eq!((out.ok, out.raw), (ok, Yen(raw)), "subtotal {subtotal}");
    }
    assert_eq!(
        sc::single_coupon(Yen(100), Yen(200), CouponKind::Fixed, Rate(0), Yen(0), false),
        Err(sc::RuleError::Input { what: "the constraint does not hold: applied <= subtotal", value: None })
    );
}

#[test]
fn the_service_quotes_and_checks_out() {
    let req = ParcelRequest { weight_lb: 11, girth_in: 61, dest: "domestic", signature: true };
    let q = quote(&req).unwrap();
    assert_eq!(q.fee, USD(24));
    assert!(q
        .audit
        .starts_with(r#"{"in":{"weight":11,"girth":61,"dest":"domestic","signature":true},"observed":{"fee":24}"#));
    assert_eq!(
        quote(&ParcelRequest { dest: "mars", ..req.clone() }),
        Err(QuoteError::UnknownDestination("mars".into()))
    );
    assert!(matches!(
        quote(&ParcelRequest { weight_lb: 100, ..req }),
        Err(QuoteError::Refused(pr::RuleError::Input {
            what: "weight is out of range",
            value: Some(pr::Refused::Number(100))
        }))
    ));

    let coupon = Coupon { kind: CouponKind::Percent, rate_pct: 10, face_jpy: 0 };
    // 10100 yen at gold on the web: 760 off as a member (7.5%, to 10 yen), then 10% of the 9340 left.
    assert_eq!(
        checkout(Tier::Gold, Channel::Web, 10100, Some(coupon)),
        Ok(Bill { subtotal: 10100, member_discount: 760, coupon_discount: 934, total: 8406 })
    );
    assert!(matches!(checkout(Tier::Basic, Channel::Web, 100, None), Err(CheckoutError::Discount(_))));
}
