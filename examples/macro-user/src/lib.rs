//! A crate that includes a rule with `include_rule!` instead of a build script: the macro
//! checks `rules/late_fee.rule` when this crate compiles and expands to `pub mod late_fee { … }`.
//! A rule that does not check clean is a compile error at the call, naming its file:line:col.

rulec_macros::include_rule!("rules/late_fee.rule");

use late_fee::{Date, LateBand, RuleError, JPY};

/// The days from 1970-01-01 to a `YYYY-MM-DD` date, which is what a `Date` holds.
pub fn date(text: &str) -> Option<Date> {
    let mut parts = text.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(Date(era * 146097 + doe - 719468))
}

/// What an invoice paid late owes on top, with the band the rule put it in.
#[derive(Debug, PartialEq, Eq)]
pub struct LateCharge {
    pub fee_jpy: i64,
    pub band: LateBand,
}

#[derive(Debug, PartialEq, Eq)]
pub enum InvoiceError {
    NotADate(String),
    Refused(RuleError),
}

pub fn late_charge(due: &str, paid: &str, amount_jpy: i64) -> Result<LateCharge, InvoiceError> {
    let parse = |s: &str| date(s).ok_or_else(|| InvoiceError::NotADate(s.to_string()));
    let out = late_fee::late_fee(parse(due)?, parse(paid)?, JPY(amount_jpy)).map_err(InvoiceError::Refused)?;
    Ok(LateCharge { fee_jpy: out.fee.0, band: out.band })
}
