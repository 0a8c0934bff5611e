// A Rust caller of ticket_price and member_discount (tests/corpus), beside their generated
// modules: each refusal of a date or a member out of its range, by the function and by the
// wire door, printed as `message | value`. tests/gen_rust.rs builds it natively and
// tests/gen_wasm.rs for wasm32-wasip1 beside the module its Wasm crate is built from.

#[path = "ticket_price.rs"]
mod tp;
#[path = "member_discount.rs"]
mod md;
// member_discount's tier is its enums file's, which it names beside it (super::tiers::Tier).
#[path = "tiers.rs"]
mod tiers;

fn main() {
    let shown = |e: &dyn std::fmt::Display, value: &dyn std::fmt::Debug| println!("{e} | {value:?}");
    for day in [tp::Date(20819), tp::Date(i64::MAX)] {
        let e = tp::ticket_price(30, day, true).unwrap_err();
        if let tp::RuleError::Input { value, .. } = &e {
            shown(&e, value);
        }
    }
    let call = [("age", tp::Wire::Num("30")), ("visit", tp::Wire::Str("2027-01-01")), ("member", tp::Wire::Bool(true))];
    let e = tp::ticket_price_wire(&call, "").unwrap_err();
    if let tp::RuleError::Input { value, .. } = &e {
        shown(&e, value);
    }
    let e = md::member_discount(md::Tier::Basic, md::Channel::Web, md::JPYInclTax(1000), None).unwrap_err();
    if let md::RuleError::Input { value, .. } = &e {
        shown(&e, value);
    }
    let call = [("tier", md::Wire::Str("basic")), ("channel", md::Wire::Str("web")), ("subtotal", md::Wire::Num("1000"))];
    let e = md::member_discount_wire(&call, "").unwrap_err();
    if let md::RuleError::Input { value, .. } = &e {
        shown(&e, value);
    }
}
