//! Static analysis over the typed program: what `rulec check` proves before any code is
//! written. `tables` proves each table complete, its rows apart (or agreeing) and each row
//! reachable; `values` bounds every value and every intermediate of the int64 evaluation.
//! Both reason with `linear` (exact Fourier–Motzkin with Farkas certificates) over the
//! facts of `model`.
//!
//! They run together, in the program's evaluation order: a table is analysed when it is
//! reached, and the value analysis then bounds its results row by row, each row where the
//! table's cover says it answers.

pub mod linear;
pub mod model;
pub mod scale;
pub mod tables;
pub mod values;
pub mod walks;
pub mod work;

use crate::diag::Diagnostic;
use crate::sema::{Program, Step};

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
    match p.walks_sequences() {
        true => walks::analyse(p, text, opts),
        false => analyse_plain(p, text, opts),
    }
}

/// The analysis of a rule with no walk (or of one of the views of a rule with walks).
pub fn analyse_plain(p: &Program, text: &str, opts: &Options) -> Analysis {
    let (t, v) = run(p, text, opts);
    let mut diagnostics = t.diagnostics;
    diagnostics.extend(v.diagnostics);
    Analysis { diagnostics, tables: t.proofs, guards: t.guards, values: v.proof }
}

/// The table analysis and the value analysis, each with its own diagnostics.
pub fn run(p: &Program, text: &str, opts: &Options) -> (tables::TablesResult, values::ValuesResult) {
    let model = model::build(p);
    let axes = tables::build_axes(p);
    let finder = tables::witness::Finder::new(p, &axes, &model);
    let gapped: Vec<std::cell::Cell<bool>> = (0..p.tables.len()).map(|_| std::cell::Cell::new(false)).collect();
    let shared = tables::Shared { p, text, model: &model, axes: &axes, finder: &finder, gapped: &gapped };
    let ann = scale::annotate(p);
    let mut values = values::Values::new(p, text, &ann, &model, opts);
    let mut outcomes: Vec<Option<tables::TableOutcome>> = (0..p.tables.len()).map(|_| None).collect();
    for step in &p.order {
        match *step {
            Step::Define(d) => values.define(d),
            Step::Table(t) => {
                let out = tables::analyse_table(&shared, t, values.intervals(), opts);
                gapped[t].set(out.proof.leaves_inputs_out());
                values.table(t, &out.proof);
                outcomes[t] = Some(out);
            }
            // A view has no walk (`sema::views`); `walks::analyse` reads the rule through them.
            Step::Walk(_) => {}
        }
    }
    let mut vr = values.finish();
    // Every table is in the evaluation order; one the order left out is analysed all the same.
    let mut tr = tables::TablesResult::default();
    for (t, out) in outcomes.into_iter().enumerate() {
        let out = out.unwrap_or_else(|| tables::analyse_table(&shared, t, &vr.proof.intervals, opts));
        tr.diagnostics.extend(out.diagnostics);
        tr.guards.extend(out.guards);
        tr.proofs.push(out.proof);
    }
    vr.proof.scales = ann;
    (tr, vr)
}
