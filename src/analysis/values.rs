//! Value analysis (issue 3): bounds, int64, zero divisors.

use crate::diag::Diagnostic;
use crate::sema::Program;

pub fn check(_p: &Program, _text: &str) -> Vec<Diagnostic> {
    Vec::new()
}
