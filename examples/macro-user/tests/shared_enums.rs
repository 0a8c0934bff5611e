//! Two rules that read one enums file, named in one `include_rule!`: the expansion holds the
//! enums file's module once (`pub mod tiers`) beside the rules', which name it, so one rule's
//! tier is the other's.

rulec_macros::include_rule!("rules/member_discount.rule", "rules/tier_points.rule");

#[test]
fn one_rules_tier_is_the_others() {
    let gold: member_discount::Tier = tier_points::Tier::Gold;
    assert_eq!(tier_points::tier_points(gold), Ok(5));
    let tier: tier_points::Tier = tiers::Tier::Platinum;
    let out =
        member_discount::member_discount(tier, member_discount::Channel::Web, member_discount::JPYInclTax(10000), None)
            .expect("answered");
    assert_eq!((out.pct.0, out.discount.0), (15, 750));
}
