//! Table analysis (issue 3): completeness, overlap, shadowing, reach.

use super::Options;
use crate::diag::Diagnostic;
use crate::sema::Program;

pub fn check(_p: &Program, _text: &str, _opts: &Options) -> Vec<Diagnostic> {
    Vec::new()
}
