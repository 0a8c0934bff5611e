//! Static analysis over the typed program: what `rulec check` proves before any code is
//! written. `tables` proves each table complete, its rows apart (or agreeing) and each row
//! reachable; `values` bounds every value and every intermediate of the int64 evaluation.
//! Both reason with `linear` (exact Fourier–Motzkin with Farkas certificates) over the
//! facts of `model`.

pub mod linear;
pub mod model;
pub mod scale;
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

/// Two rows of a `unique` table the analysis could neither prove apart nor show meeting
/// (W114): every backend emits the runtime contradiction guard for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub table: usize,
    /// 1-based rows, a < b.
    pub a: usize,
    pub b: usize,
}

/// Everything the analysis found and proved: the diagnostics, and the evidence the
/// certificate is made of.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub diagnostics: Vec<Diagnostic>,
    /// One per table, in the program's order.
    pub tables: Vec<tables::TableProof>,
    pub guards: Vec<Guard>,
    pub values: values::ValueProof,
}

/// Run every analysis. `text` is the rule file's text (fixes quote it).
pub fn analyse(p: &Program, text: &str, opts: &Options) -> Analysis {
    let t = tables::analyse(p, text, opts);
    let v = values::analyse(p, text, opts);
    let mut diagnostics = t.diagnostics;
    diagnostics.extend(v.diagnostics);
    Analysis { diagnostics, tables: t.proofs, guards: t.guards, values: v.proof }
}
