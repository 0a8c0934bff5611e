//! A small shipping service whose prices are `.rule` files. `build.rs` checks the rules in
//! `rules/` and writes their Rust into OUT_DIR; each module below includes one. Nothing here
//! depends on rulec at run time — the generated code needs only std.

pub mod parcel_rate {
    include!(concat!(env!("OUT_DIR"), "/parcel_rate.rs"));
}

/// The enums of rules/shared/tiers.rule, which member_discount reads: their own module, beside
/// the rules' (member_discount's names `super::tiers::Tier`), one type for every rule reading it.
pub mod tiers {
    include!(concat!(env!("OUT_DIR"), "/tiers.rs"));
}

pub mod member_discount {
    include!(concat!(env!("OUT_DIR"), "/member_discount.rs"));
}

pub mod single_coupon {
    include!(concat!(env!("OUT_DIR"), "/single_coupon.rs"));
}

/// A parcel as the API receives it: plain numbers and the destination's name.
#[derive(Clone, Debug)]
pub struct ParcelRequest<'a> {
    pub weight_lb: i64,
    pub girth_in: i64,
    pub dest: &'a str,
    pub signature: bool,
}

/// The price of one parcel, and the audit line that says how the rule reached it (the
/// `_record` line: inputs, outputs and the row that fired in every table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    pub fee: parcel_rate::USD,
    pub audit: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuoteError {
    /// A destination the rule does not know: the caller's mistake, caught before the rule.
    UnknownDestination(String),
    /// The rule refused the call (a weight outside 1lb..70lb, say), or contradicted itself.
    Refused(parcel_rate::RuleError),
}

/// Quote one parcel.
pub fn quote(req: &ParcelRequest) -> Result<Quote, QuoteError> {
    use parcel_rate::{parcel_rate_record, parcel_rate_traced, Inches, Pounds, Zone};
    let dest = Zone::parse(req.dest).ok_or_else(|| QuoteError::UnknownDestination(req.dest.to_string()))?;
    let (weight, girth) = (Pounds(req.weight_lb), Inches(req.girth_in));
    let (fee, trace) = parcel_rate_traced(weight, girth, dest, req.signature).map_err(QuoteError::Refused)?;
    let audit = parcel_rate_record(weight, girth, dest, req.signature, &fee, &trace, "");
    Ok(Quote { fee, audit })
}

/// A coupon presented at checkout.
#[derive(Clone, Copy, Debug)]
pub struct Coupon {
    pub kind: single_coupon::CouponKind,
    /// For a percent coupon, in whole percent.
    pub rate_pct: i64,
    /// For a fixed coupon, in yen.
    pub face_jpy: i64,
}

/// What a member pays, in yen tax included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bill {
    pub subtotal: i64,
    pub member_discount: i64,
    pub coupon_discount: i64,
    pub total: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckoutError {
    Discount(member_discount::RuleError),
    Coupon(single_coupon::RuleError),
}

/// Checkout: the member discount first, then at most one coupon on what is left. Each rule
/// has its own unit types (`member_discount::JPYInclTax` is not `single_coupon::JPYInclTax`),
/// so an amount crosses from one rule to the other through its `.0`, here and nowhere else.
pub fn checkout(
    tier: member_discount::Tier,
    channel: member_discount::Channel,
    subtotal_jpy: i64,
    coupon: Option<Coupon>,
) -> Result<Bill, CheckoutError> {
    use member_discount::{member_discount, JPYInclTax};
    let member = member_discount(tier, channel, JPYInclTax(subtotal_jpy), None).map_err(CheckoutError::Discount)?;
    let member_off = member.discount.0;
    let coupon_off = match coupon {
        None => 0,
        Some(c) => {
            use single_coupon::{single_coupon, JPYInclTax, Rate};
            let out = single_coupon(
                JPYInclTax(subtotal_jpy),
                JPYInclTax(member_off),
                c.kind,
                Rate(c.rate_pct),
                JPYInclTax(c.face_jpy),
                false,
            )
            .map_err(CheckoutError::Coupon)?;
            out.raw.0
        }
    };
    Ok(Bill {
        subtotal: subtotal_jpy,
        member_discount: member_off,
        coupon_discount: coupon_off,
        total: subtotal_jpy - member_off - coupon_off,
    })
}
