//! Static analysis over the typed program: what `rulec check` proves before any code is
//! written. `tables` proves each table complete, its rows apart (or agreeing) and each row
//! reachable; `values` bounds every value and every intermediate of the int64 evaluation.

pub mod tables;
pub mod values;

use crate::diag::Diagnostic;
use crate::sema::Program;

/// Knobs of the analysis (`rulec check --budget N`).
#[derive(Clone, Debug)]
pub struct Options {
    /// How much work one table's analysis may do before it stops with E109.
    pub budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { budget: 1_000_000 }
    }
}

/// Run every analysis. `text` is the rule file's text (fixes quote it).
pub fn analyse(p: &Program, text: &str, opts: &Options) -> Vec<Diagnostic> {
    let mut out = tables::check(p, text, opts);
    out.extend(values::check(p, text));
    out
}
