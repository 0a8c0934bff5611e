//! Table analysis: completeness (E101), overlap (E102), shadowed rows (E103), `any` rows
//! that disagree (E104), unreachable rows (E105), pairs not proven apart (W114), the budget (E109).
//!
//! # How a table is proved
//!
//! 1. **Axes** ([`axes`]): one per condition column, cut into coordinates on which every
//!    cell of the column is constant; each row is a **box**: per axis, the runs of
//!    coordinates its cell accepts.
//! 2. **Cover tree** ([`cover`]): the domain — every coordinate of every axis — is split
//!    until each row takes a leaf whole or misses it. A leaf lists the rows that take it.
//! 3. **Asked** ([`facts`]): whether any input the rule is asked about lies in a leaf is
//!    decided by the linear model — declared ranges, constraints, linear defines, boolean
//!    defines that compare numbers, the leaf's coordinate bounds — with exact Fourier–Motzkin
//!    (`linear::refute`); a refuted leaf keeps its Farkas multipliers. Two more reasons a
//!    leaf is not asked: two columns on one variable whose coordinates in the leaf share no
//!    value; and a column decided by another table when no row of that table producing the
//!    leaf's values can fire inside it — its cell misses the leaf on a column both tables
//!    read, or (when the rule has relations) its own cells, taken as facts with the leaf's
//!    and the model's, contradict. When nothing relates the columns (the usual case), every
//!    leaf is asked and no refutation is tried.
//! 4. **Verdicts**, read off the leaves that are asked: a leaf with no row is a gap; under
//!    `unique`, a leaf with two rows is an overlap; under `any`, two rows of a leaf whose
//!    results differ disagree; under `first`, the first row of a leaf answers there, so a row
//!    that answers in no asked leaf but lies in one is shadowed, and a row that lies in no
//!    asked leaf at all is reached by nothing.
//! 5. **Witnesses** ([`witness`]): every diagnostic about inputs carries inputs found from
//!    its box and confirmed through the door and the reference evaluator. Two rows the
//!    model cannot part but no input makes meet are W114 (a runtime guard), never E102.
//!
//! # The proof ([`TableProof`]), as the certificate reads it
//!
//! - `axes[k]`: the column (`column`, its variable `var`), `kind` input/derived, `step`
//!   (the grid of a numeric axis, base units), `coords` (see [`axes::Coord`]; numeric ones
//!   are intervals of true values in base units, closed on a grid) and one value inside each.
//! - `rows[r]`: the 1-based row number, its spans, and `accepts[k]`: the coordinates its cell
//!   on axis k accepts, as sorted runs `(first, last)` inclusive ([`RowProof::accepts_indices`]
//!   lists them one by one).
//! - `cover`: the split tree, a flat list of nodes with the root at 0. `Split { axis, at,
//!   lo, hi }`: node `lo` keeps coordinates `< at` of `axis`, node `hi` those `>= at`. A
//!   `Leaf(i)` is `leaves[i]`: its box (`ranges`, per axis `(first, last)`), every row whose
//!   box contains it (0-based, ascending; every other row misses it on some axis), and
//!   `asked`: `Yes`, `Unknown`, `Unchecked` (nothing depends on it), or `No(refutation)`
//!   ([`Refutation`]: `Farkas` multipliers over facts; `SameColumn` for two axes on one
//!   variable; `Produced`, per producing row of the deciding table the axis that parts it
//!   from the leaf or the Farkas multipliers that refute it with its cells as facts).
//! - **Disjointness is stated by the tree**, not by a list of pairs: two rows that no leaf
//!   lists together are disjoint (for boxes, some axis parts them — [`TableProof::parting_axis`]
//!   finds it). Checking the tree's invariant at each leaf re-checks every such pair at once,
//!   in O(rows · depth) rather than O(rows²).
//! - `refuted`: the pairs that some leaf lists together (their boxes meet on every axis)
//!   but that no asked input makes meet: every leaf they share is refuted, and each part
//!   is given with its refutation. `undecided`: pairs whose shared leaves could not all be
//!   refuted and that no input was found to make meet (W114). `meeting`: pairs an input
//!   really makes meet (E102 under `unique`, E104 under `any`). Under `any`, two rows whose
//!   results are the same (constants, expressions, or linear forms) are never listed: they
//!   may meet. Under `first`, no pair is listed: meeting is what `first` is for.
//! - `reach[r]`: for a row that answers somewhere asked, the leaf it answers in, the
//!   coordinate of each axis at the witness, and the witness inputs (absent when the
//!   evaluator could not be made to reach it: "a point handed over with no values behind it").
//! - `linear`: the model facts used (indices into `model::build(p).facts`), the variables
//!   they speak of, and the boolean-define facts per axis. A refutation is a list of
//!   [`facts::FactRef`] with positive multipliers: model facts, coordinate bounds of the
//!   leaf (`Coord { axis, hi, at, open }`), boolean-define facts (tightened to the grid of
//!   the one variable they compare, e.g. `visits < 12` read as `visits <= 11`), and the cells
//!   of a producing row (`Cell { table, row, column, hi, at, open }`, for a cell that is one
//!   interval). A producing-row refutation may use every model fact, not only `linear`'s.

pub mod axes;
pub mod case;
pub mod cover;
pub mod facts;
pub mod theory;
pub mod witness;

use super::model::{self, Model, Origin};
use super::scale::Iv;
use super::{Guard, Options};
use crate::diag::{Diagnostic, FileId};
use crate::eval::{self, row_matches, wire};
use crate::num::Rat;
use crate::sema::*;
use crate::source::Span;
use crate::syntax::ast::Policy;
use axes::{build_axis, Axis, Coord};
use case::{Case, Hint};
use cover::{Asked, Cover};
use facts::{FactRef, Farkas, LinearSystem};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use std::sync::Arc;
use theory::{Theory, Verdict};
use witness::{Finder, Found};

/// A work allowance (`--budget`): one unit per box split (and per 32 rows it sorts), one
/// per fact Fourier–Motzkin derives.
#[derive(Clone, Debug)]
pub struct Budget {
    pub left: u64,
}

impl Budget {
    pub fn new(n: u64) -> Budget {
        Budget { left: n }
    }
    /// Spend `n` of the table's allowance, and of the rule's (`work`).
    pub fn spend(&mut self, n: u64) -> bool {
        if n > self.left || !super::work::take(n) {
            self.left = 0;
            false
        } else {
            self.left -= n;
            true
        }
    }
}

/// Why no point of a box is asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// Multipliers over linear facts that add up to a contradiction.
    Farkas(Farkas),
    /// Axis `axis` is a value decided by table `by`, and no row of `by` that can produce a
    /// value in the box (`rows`, 0-based, with a constant result) fires inside it: for each,
    /// why (see [`Producer`]).
    Produced { axis: usize, by: usize, rows: Vec<(usize, Producer)> },
    /// Axes `a` and `b` are two columns on one variable, and the box's coordinates on them
    /// share no value.
    SameColumn { a: usize, b: usize },
    /// The table reads a value decided by table `by`, which leaves inputs out, and every row
    /// of `by` misses the box on a column both tables read (`rows`: each row, 0-based, and
    /// the axis that parts it): each input of the box is refused by `by` first.
    Gate { by: usize, rows: Vec<(usize, usize)> },
    /// A case split on `var` (see [`theory`]): every value it can take in the box is a
    /// case, each refuted.
    Split { var: VarId, basis: Box<Basis>, cases: Vec<(Rat, Refutation)> },
    /// The rows the case takes leave `var` no value: a value none of whose cells and no
    /// coordinate of the box accept it (a boolean, an enum, or the number the case fixes).
    Cells { var: VarId },
}

/// What a split takes as its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Basis {
    /// One case per row of the table that decides the variable (its results are constants):
    /// the row's cells hold and the variable is that row's value.
    Rows { table: usize, rows: Vec<usize> },
    /// One case per grid point `k·step` between two bounds the facts put on the variable.
    Grid { step: Rat, lo: Box<FactRef>, hi: Box<FactRef> },
}

/// Why a row of another table that produces a value does not fire inside a box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Producer {
    /// Its cell on a column both tables read takes nothing of the box on this axis (of the
    /// table being proved).
    Parts(usize),
    /// The box's facts, the model's, and the row's own cells (`FactRef::Cell`) contradict.
    Farkas(Farkas),
    /// With the row's cells, the box searched by cases ([`theory`]) is refuted.
    Cases(Box<Refutation>),
}

/// One row of the table as a box.
#[derive(Clone, Debug)]
pub struct RowProof {
    /// 1-based, as written.
    pub row: usize,
    pub span: Span,
    /// Per axis, the runs `(first, last)` of coordinates the cell accepts.
    pub accepts: Vec<Vec<(u32, u32)>>,
}

impl RowProof {
    /// Per axis, every accepted coordinate index.
    pub fn accepts_indices(&self) -> Vec<Vec<u32>> {
        self.accepts.iter().map(|runs| runs.iter().flat_map(|&(a, b)| a..=b).collect()).collect()
    }
}

/// Two rows (0-based, a < b) whose boxes meet on every axis.
#[derive(Clone, Debug)]
pub struct PairProof {
    pub a: usize,
    pub b: usize,
    /// The leaves both rows take, each with its refutation (for `refuted`) or none.
    pub parts: Vec<(usize, Option<Refutation>)>,
}

/// Where a row answers.
#[derive(Clone, Debug)]
pub struct Reach {
    /// The leaf it answers in.
    pub leaf: usize,
    /// The coordinate of each axis at the witness (or the leaf's first coordinates).
    pub at: Vec<u32>,
    /// The witness, when one was found ([`TableProof::reach_inputs`] reads it).
    pub witness: Option<Witness>,
}

/// A reach point's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// In `p.inputs` order.
    Inputs(Vec<Value>),
    /// Each input is read by exactly one axis of the table and is the representative of the
    /// coordinate `at` names there (a table over its inputs: nothing to store per row).
    AtCoords,
}

/// The evidence for one table, as the certificate states it (see the module documentation).
#[derive(Clone, Debug)]
pub struct TableProof {
    pub table: usize,
    pub policy: Policy,
    /// Shared with the analysis that built them (a table of many rows has long axes).
    pub axes: Arc<Vec<Axis>>,
    pub rows: Vec<RowProof>,
    pub linear: LinearSystem,
    pub cover: Cover,
    pub refuted: Vec<PairProof>,
    pub undecided: Vec<PairProof>,
    pub meeting: Vec<PairProof>,
    pub reach: Vec<Option<Reach>>,
    /// False when the analysis stopped (E109): nothing above is then a proof.
    pub complete: bool,
}

impl TableProof {
    /// Whether some input may match no row: a gap not refuted, or a cover not finished.
    pub fn leaves_inputs_out(&self) -> bool {
        !self.complete || self.cover.leaves.iter().any(|l| l.rows.is_empty() && !matches!(l.asked, Asked::No(_)))
    }

    /// An axis on which two rows' boxes share no coordinate.
    pub fn parting_axis(&self, a: usize, b: usize) -> Option<usize> {
        (0..self.axes.len()).find(|&k| {
            let (ra, rb) = (&self.rows[a].accepts[k], &self.rows[b].accepts[k]);
            !ra.iter().any(|&(s, e)| cover::meets(rb, s, e))
        })
    }
    /// The inputs of row `r`'s reach point (`p.inputs` order), when it has a witness.
    pub fn reach_inputs(&self, p: &Program, r: usize) -> Option<Vec<Value>> {
        let reach = self.reach[r].as_ref()?;
        match reach.witness.as_ref()? {
            Witness::Inputs(xs) => Some(xs.clone()),
            Witness::AtCoords => p
                .inputs
                .iter()
                .map(|&v| {
                    let k = self.axes.iter().position(|a| a.var == v)?;
                    Some(self.axes[k].reps[reach.at[k] as usize].clone())
                })
                .collect(),
        }
    }
    /// The leaves of the cover tree, with the box of each.
    pub fn leaves(&self) -> &[cover::Leaf] {
        &self.cover.leaves
    }
}

#[derive(Default)]
pub struct TablesResult {
    pub diagnostics: Vec<Diagnostic>,
    pub proofs: Vec<TableProof>,
    pub guards: Vec<Guard>,
}

/// Most diagnostics of one kind reported for one table.
const MAX_PER_KIND: usize = 50;
/// Attempts at a witness for a diagnostic, and for a row's reach point.
const ATTEMPTS: usize = 32;
const REACH_ATTEMPTS: usize = 8;
/// Attempts one table may spend looking for witnesses in all: a base and some per row.
/// Past it, a pair is W114 and a row's reach point has no inputs; the search never hangs.
const SEARCH_BASE: usize = 20_000;
const SEARCH_PER_ROW: usize = 4;
/// A box is split over at most this many producing rows of another table.
const MAX_PRODUCERS: usize = 64;
/// Under `first`, reach points of tables up to this many rows are confirmed by `pick_row`.
const FIRST_CONFIRMED: usize = 2_000;
/// At most this many leaves are tried for one diagnostic's witness.
const LEAVES_TRIED: usize = 16;

/// What every table's analysis of one program shares: the linear model, each table's
/// axes, and the witness finder over them.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    pub p: &'a Program,
    pub text: &'a str,
    pub model: &'a Model,
    pub axes: &'a [Arc<Vec<Axis>>],
    pub finder: &'a Finder<'a>,
    /// Per table analysed so far: whether it may leave some input out (a gap, or not proven
    /// complete). A table reading its values is not asked about the inputs it refuses.
    pub gapped: &'a [std::cell::Cell<bool>],
}

/// Every table's axes, in the program's order.
pub fn build_axes(p: &Program) -> Vec<Arc<Vec<Axis>>> {
    p.tables.iter().map(|t| Arc::new((0..t.conds.len()).map(|c| build_axis(p, t, c)).collect())).collect()
}

/// What the analysis of one table found.
pub struct TableOutcome {
    pub diagnostics: Vec<Diagnostic>,
    pub guards: Vec<Guard>,
    pub proof: TableProof,
}

/// Analyse table `t`; `known` is every interval the value analysis has proved so far.
pub fn analyse_table(sh: &Shared, t: usize, known: &[Option<Iv>], opts: &Options) -> TableOutcome {
    let mut a = TableAnalysis::new(sh, t, known, opts);
    a.run();
    TableOutcome { diagnostics: a.diags, guards: a.guards, proof: a.proof }
}

/// The table analysis of every table, as the whole analysis runs it.
pub fn analyse(p: &Program, text: &str, opts: &Options) -> TablesResult {
    super::run(p, text, opts).0
}

struct TableAnalysis<'a> {
    p: &'a Program,
    text: &'a str,
    t: usize,
    table: &'a TableIr,
    all_axes: &'a [Arc<Vec<Axis>>],
    axes: &'a [Axis],
    model: &'a Model,
    finder: &'a Finder<'a>,
    budget: Budget,
    proof: TableProof,
    diags: Vec<Diagnostic>,
    guards: Vec<Guard>,
    /// The budget ran out.
    exhausted: bool,
    /// Witness attempts left for this table (each runs the evaluator once).
    search: std::cell::Cell<usize>,
    /// Per axis decided by another table (with constant results): that table, and per
    /// coordinate the rows (0-based) that produce it.
    producers: Vec<Option<(usize, Vec<Vec<usize>>)>>,
    /// The tables this one reads a value of that may leave inputs out, and share a column
    /// with it (see [`Refutation::Gate`]).
    gates: Vec<usize>,
    /// The model holds a relation (a constraint or a linear define): a producing row's
    /// cells can then contradict a box even where no column parts them.
    relational: bool,
    /// The defines that are not linear the columns depend on, when there are any.
    theory: Option<Theory>,
    /// Per leaf: the case the search by cases found it may be reached in.
    hints: Vec<Option<Hint>>,
}

/// The rows of another table that may produce the values of a box on one axis.
struct ProducerSplit {
    axis: usize,
    by: usize,
    /// Those already known not to fire in the box.
    parted: Vec<(usize, Producer)>,
    /// Those that might.
    open: Vec<usize>,
}

enum RowFate {
    Reached,
    /// Answers nowhere, but lies in an asked leaf where these rows answer.
    Shadowed(Vec<usize>),
    /// Lies in no asked leaf: the refutation of each leaf it lies in.
    Dead(Vec<Refutation>),
    /// Could not be decided.
    Unknown,
}

impl<'a> TableAnalysis<'a> {
    fn new(sh: &Shared<'a>, t: usize, known: &[Option<Iv>], opts: &Options) -> TableAnalysis<'a> {
        let Shared { p, text, model, axes: all_axes, finder, gapped } = *sh;
        let table = &p.tables[t];
        let axes = &all_axes[t];
        let rows: Vec<RowProof> = table
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| RowProof {
                row: i + 1,
                span: r.span,
                accepts: axes.iter().zip(&r.conds).map(|(ax, c)| ax.accepts(c)).collect(),
            })
            .collect();
        let theory = Theory::build(p, t);
        let linear = LinearSystem::build(p, model, axes, theory.as_ref().map_or(&[][..], |th| &th.vars), known);
        let proof = TableProof {
            table: t,
            policy: table.policy,
            axes: all_axes[t].clone(),
            rows,
            linear,
            cover: Cover::default(),
            refuted: Vec::new(),
            undecided: Vec::new(),
            meeting: Vec::new(),
            reach: vec![None; table.rows.len()],
            complete: false,
        };
        TableAnalysis {
            p,
            text,
            t,
            table,
            all_axes,
            axes,
            model,
            finder,
            budget: Budget::new(opts.budget),
            proof,
            diags: Vec::new(),
            guards: Vec::new(),
            exhausted: false,
            search: std::cell::Cell::new(SEARCH_BASE + SEARCH_PER_ROW * table.rows.len()),
            producers: axes.iter().map(|a| producers(p, t, a)).collect(),
            gates: gates(p, t, axes, gapped),
            relational: model.origins.iter().any(|o| !matches!(o, Origin::Range { .. })),
            theory,
            hints: Vec::new(),
        }
    }

    /// How hard to look for a witness in leaf `leaf`, from the case its search left open.
    fn how(&self, attempts: usize, seed: u64, door: bool, leaf: usize) -> witness::Search<'_> {
        let hint = self.hints.get(leaf).and_then(Option::as_ref);
        witness::Search { attempts, seed, door, allowance: &self.search, hint }
    }

    fn file(&self) -> FileId {
        self.p.file
    }

    fn run(&mut self) {
        if self.axes.iter().any(|a| a.is_empty()) {
            // A column with no value at all: no input is asked about, nothing to prove.
            self.proof.complete = true;
            return;
        }
        let n = self.table.rows.len();
        let live: Vec<u32> = (0..n)
            .filter(|&r| self.proof.rows[r].accepts.iter().all(|runs| !runs.is_empty()))
            .map(|r| r as u32)
            .collect();
        let root: Vec<(u32, u32)> = self.axes.iter().map(|a| (0, a.len() as u32 - 1)).collect();
        let boxes: Vec<Vec<Vec<(u32, u32)>>> = self.proof.rows.iter().map(|r| r.accepts.clone()).collect();
        let Some(cover) = cover::build(&boxes, root, live, &mut self.budget) else {
            self.over_budget();
            return;
        };
        self.proof.cover = cover;
        // A leaf lists its rows in the order they take precedence: the first listed answers there.
        if self.table.policy.ranks() {
            let mut rank = vec![0usize; n];
            for (place, r) in self.table.precedence().into_iter().enumerate() {
                rank[r] = place;
            }
            for leaf in &mut self.proof.cover.leaves {
                leaf.rows.sort_by_key(|&r| rank[r as usize]);
            }
        }
        self.hints = vec![None; self.proof.cover.leaves.len()];
        // Per row, the leaves that list it.
        let mut row_leaves: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, leaf) in self.proof.cover.leaves.iter().enumerate() {
            for &r in &leaf.rows {
                row_leaves[r as usize].push(i);
            }
        }
        // Gaps and meeting pairs need their leaves decided.
        let policy = self.table.policy;
        let gaps_matter = self.gaps_matter();
        // Where rows meet matters to `unique` and `any` (E102, E104), and to a sum: what the
        // rows that meet add up to.
        let meetings_matter = matches!(policy, Policy::Unique | Policy::Any | Policy::CollectSum);
        for i in 0..self.proof.cover.leaves.len() {
            let k = self.proof.cover.leaves[i].rows.len();
            if (k == 0 && gaps_matter) || (k >= 2 && meetings_matter) {
                self.decide(i);
                if self.exhausted {
                    return self.over_budget();
                }
            }
        }
        // Each row: where it answers.
        let mut fates = Vec::with_capacity(n);
        for (r, leaves) in row_leaves.iter().enumerate() {
            let fate = self.fate(r, leaves);
            if self.exhausted {
                return self.over_budget();
            }
            fates.push(fate);
        }
        self.proof.complete = true;
        if gaps_matter {
            self.report_gap();
        }
        if matches!(policy, Policy::Unique | Policy::Any) {
            self.report_pairs();
        }
        self.report_rows(&fates);
    }

    /// Whether an input no row takes is a gap (E101): under every single-hit policy, and for
    /// an aggregate with no answer of its own for no row (a count, a list, a default, none).
    fn gaps_matter(&self) -> bool {
        let result = &self.p.vars[self.table.results[0]];
        match self.table.policy {
            Policy::CollectSum | Policy::CollectMin | Policy::CollectMax => {
                !result.optional && result.default.is_none()
            }
            p => !p.multi_hit(),
        }
    }

    fn over_budget(&mut self) {
        self.exhausted = true;
        self.proof.complete = false;
        // The rule's allowance, not the table's, ran out: check says so once, for the rule.
        if super::work::ran_out() {
            return;
        }
        let name = &self.table.name;
        let d = Diagnostic::new(
            "E109",
            self.file(),
            self.table.name_span,
            format!("table `{name}`: the analysis needs more work than its budget allows"),
        )
        .label("not proved: the analysis stopped here")
        .in_table(name)
        .note(format!(
            "{} rows over {} columns; nothing about this table is proved until the analysis can finish",
            self.table.rows.len(),
            self.axes.len()
        ))
        .help("raise the allowance with `rulec check --budget N` (a larger N), or split the table");
        self.diags.push(d);
    }

    /// Decide whether a leaf is asked about (once).
    fn decide(&mut self, i: usize) {
        if self.proof.cover.leaves[i].asked != Asked::Unchecked {
            return;
        }
        let ranges = self.proof.cover.leaves[i].ranges.clone();
        let asked = self.asked(&ranges, i);
        self.proof.cover.leaves[i].asked = asked;
    }

    fn asked(&mut self, ranges: &[(u32, u32)], leaf: usize) -> Asked {
        let splits = match self.produced_refutation(ranges) {
            Err(r) => return Asked::No(r),
            Ok(splits) => splits,
        };
        if self.proof.linear.linked {
            match self.linear(|lin, p, m, axes, budget| lin.refute(p, m, axes, ranges, budget)) {
                Some(Ok(None)) => {}
                Some(Ok(Some(f))) => return Asked::No(Refutation::Farkas(f)),
                Some(Err(_)) | None => return Asked::Unknown,
            }
        }
        // Columns that depend on defines that are not linear: search the box by cases. A
        // search that cannot finish leaves the box asked, as it was before it ran.
        if self.theory.is_some() {
            match self.theory_search(ranges, Case::default()) {
                Verdict::Refuted(r) => return Asked::No(r),
                Verdict::Reachable(h) => self.hints[leaf] = Some(h),
                Verdict::Unknown if self.exhausted => return Asked::Unknown,
                Verdict::Unknown => {}
            }
        }
        // A value decided by another table, where the rule has relations: the box is asked
        // only if some row producing its values can fire inside it, the row's own cells
        // taken as facts too (and searched by cases, under a theory).
        if !(self.relational || self.proof.linear.linked) {
            return Asked::Yes;
        }
        'splits: for split in splits {
            if split.open.len() > MAX_PRODUCERS {
                continue;
            }
            let ProducerSplit { axis, by, mut parted, open } = split;
            for r in open {
                let extra = facts::row_cell_facts(self.p, by, r);
                if self.theory.is_some() {
                    let case = Case { facts: extra, rows: vec![(self.axes[axis].var, r)], ..Default::default() };
                    match self.theory_search(ranges, case) {
                        Verdict::Refuted(why) => parted.push((r, Producer::Cases(Box::new(why)))),
                        Verdict::Reachable(h) => {
                            self.hints[leaf] = Some(h);
                            continue 'splits;
                        }
                        Verdict::Unknown if self.exhausted => return Asked::Unknown,
                        Verdict::Unknown => continue 'splits,
                    }
                    continue;
                }
                match self.linear(|lin, p, m, axes, budget| lin.refute_with(p, m, axes, ranges, extra, budget)) {
                    Some(Ok(Some(f))) => parted.push((r, Producer::Farkas(f))),
                    Some(Ok(None)) => continue 'splits,
                    Some(Err(_)) | None => return Asked::Unknown,
                }
            }
            parted.sort_by_key(|x| x.0);
            return Asked::No(Refutation::Produced { axis, by, rows: parted });
        }
        Asked::Yes
    }

    /// Run one linear refutation within the table's budget. One box may take at most
    /// PER_BOX of it: running out of that leaves the box undecided (`Some(Err)`), running
    /// out of the table's is E109 (`None`).
    fn linear<F>(&mut self, f: F) -> Option<Result<Option<Farkas>, facts::OutOfBudget>>
    where
        F: FnOnce(&LinearSystem, &Program, &Model, &[Axis], &mut u64) -> Result<Option<Farkas>, facts::OutOfBudget>,
    {
        const PER_BOX: u64 = 200_000;
        let limited_by_table = self.budget.left < PER_BOX;
        let mut allowance = self.budget.left.min(PER_BOX);
        let before = allowance;
        let outcome = f(&self.proof.linear, self.p, self.model, self.axes, &mut allowance);
        self.budget.spend(before - allowance);
        if outcome.is_err() && limited_by_table {
            self.exhausted = true;
            return None;
        }
        Some(outcome)
    }

    /// A box no value can be in because of what its columns are: two columns that read one
    /// variable at coordinates that share no value, or a column decided by another table
    /// whose producing rows all miss the box on a column both tables read.
    fn produced_refutation(&self, ranges: &[(u32, u32)]) -> Result<Vec<ProducerSplit>, Refutation> {
        for j in 0..self.axes.len() {
            for k in j + 1..self.axes.len() {
                if self.axes[j].var == self.axes[k].var {
                    let (a, b) = ranges[k];
                    if !self.runs_meet(&self.axes[j], &[ranges[j]], &self.axes[k], a, b) {
                        return Err(Refutation::SameColumn { a: j, b: k });
                    }
                }
            }
        }
        let mut splits = Vec::new();
        for (k, axis) in self.axes.iter().enumerate() {
            let Some((d, by_coord)) = &self.producers[k] else { continue };
            // One split per variable, at its first axis; every axis on it limits the values.
            if self.axes[..k].iter().any(|a| a.var == axis.var) {
                continue;
            }
            let same: Vec<usize> = (0..self.axes.len()).filter(|&j| self.axes[j].var == axis.var).collect();
            let (a, b) = ranges[k];
            let wanted: Vec<u32> = (a..=b)
                .filter(|&c| {
                    same.iter().all(|&j| {
                        let (ja, jb) = ranges[j];
                        self.axes[j]
                            .coord_of(&axis.reps[c as usize])
                            .is_some_and(|i| i >= ja as usize && i <= jb as usize)
                    })
                })
                .collect();
            let dt = &self.p.tables[*d];
            // Every value wanted: the box is still not asked where each producing row misses
            // it on a column both tables read (it needs the inputs the other table leaves out).
            let whole = wanted.len() == axis.len();
            if whole && !dt.conds.iter().any(|&v| self.axes.iter().any(|a| a.var == v)) {
                continue;
            }
            let mut parted = Vec::new();
            let mut open = Vec::new();
            'scan: for &c in &wanted {
                for &r in &by_coord[c as usize] {
                    match self.parting(*d, r, ranges) {
                        Some(j) => parted.push((r, Producer::Parts(j))),
                        None if whole => {
                            open.push(r);
                            break 'scan;
                        }
                        None => open.push(r),
                    }
                }
            }
            if open.is_empty() {
                parted.sort_by_key(|x| x.0);
                return Err(Refutation::Produced { axis: k, by: *d, rows: parted });
            }
            if whole {
                continue;
            }
            splits.push(ProducerSplit { axis: k, by: *d, parted, open });
        }
        for &d in &self.gates {
            let mut rows = Vec::new();
            for r in 0..self.p.tables[d].rows.len() {
                match self.parting(d, r, ranges) {
                    Some(j) => rows.push((r, j)),
                    None => break,
                }
            }
            if rows.len() == self.p.tables[d].rows.len() {
                return Err(Refutation::Gate { by: d, rows });
            }
        }
        Ok(splits)
    }

    /// An axis of this table whose variable is a column of table `d` too, on which row `r`
    /// of `d` takes nothing of the box.
    fn parting(&self, d: usize, r: usize, ranges: &[(u32, u32)]) -> Option<usize> {
        let dt = &self.p.tables[d];
        (0..self.axes.len()).find(|&j| {
            let Some(dc) = dt.conds.iter().position(|&v| v == self.axes[j].var) else { return false };
            let dax = &self.all_axes[d][dc];
            let (ja, jb) = ranges[j];
            !self.runs_meet(dax, &dax.accepts(&dt.rows[r].conds[dc]), &self.axes[j], ja, jb)
        })
    }

    /// Whether the coordinates `runs` of one axis share a value with coordinates `[a, b]`
    /// of another axis on the same variable.
    fn runs_meet(&self, dax: &Axis, runs: &[(u32, u32)], ax: &Axis, a: u32, b: u32) -> bool {
        for &(s, e) in runs {
            for j in s..=e {
                let dc = &dax.coords[j as usize];
                // Does coordinate j of the other axis share a value with [a, b] of ours?
                let shares = match (dc.numeric_bounds(), (a as usize) < ax.numeric) {
                    (Some((dlo, dhi)), true) => {
                        let last = (b as usize).min(ax.numeric - 1);
                        let lo = ax.coords[a as usize].numeric_bounds().and_then(|x| x.0);
                        let hi = ax.coords[last].numeric_bounds().and_then(|x| x.1);
                        intervals_meet(&dlo, &dhi, &lo, &hi, ax.step.as_ref().or(dax.step.as_ref()))
                    }
                    (Some(_), false) => false,
                    (None, _) => match dc {
                        Coord::OtherString => (a..=b)
                            .any(|i| matches!(ax.coords[i as usize], Coord::OtherString | Coord::Value(Value::Str(_)))),
                        _ => {
                            let rep = &dax.reps[j as usize];
                            ax.coord_of(rep).is_some_and(|i| i >= a as usize && i <= b as usize)
                        }
                    },
                };
                if shares {
                    return true;
                }
            }
        }
        false
    }

    /// Where row `r` answers, deciding leaves as needed.
    fn fate(&mut self, r: usize, leaves: &[usize]) -> RowFate {
        if leaves.is_empty() {
            return RowFate::Dead(Vec::new());
        }
        let first = self.table.policy.takes_first();
        let mut unknown = false;
        for pass in 0..2 {
            for &i in leaves {
                let wins = self.proof.cover.leaves[i].rows[0] as usize == r;
                if (pass == 0) != (wins || !first) {
                    continue;
                }
                self.decide(i);
                if self.exhausted {
                    return RowFate::Unknown;
                }
                match &self.proof.cover.leaves[i].asked {
                    Asked::Yes if pass == 0 => {
                        self.reach_point(r, i);
                        return RowFate::Reached;
                    }
                    Asked::Yes => {
                        let mut winners: Vec<usize> = leaves
                            .iter()
                            .filter(|&&l| self.proof.cover.leaves[l].asked == Asked::Yes)
                            .map(|&l| self.proof.cover.leaves[l].rows[0] as usize)
                            .collect();
                        winners.sort();
                        winners.dedup();
                        return RowFate::Shadowed(winners);
                    }
                    Asked::Unknown => unknown = true,
                    _ => {}
                }
            }
            if !first {
                break;
            }
        }
        if unknown {
            return RowFate::Unknown;
        }
        // Every leaf it lies in is refuted.
        let reasons: Vec<Refutation> = leaves
            .iter()
            .filter_map(|&i| match &self.proof.cover.leaves[i].asked {
                Asked::No(r) => Some(r.clone()),
                _ => None,
            })
            .collect();
        RowFate::Dead(reasons)
    }

    fn reach_point(&mut self, r: usize, leaf: usize) {
        let ranges = self.proof.cover.leaves[leaf].ranges.clone();
        let (t, table, axes) = (self.t, self.table, self.axes);
        // Under `first`, the evaluator confirms the row answers (it is the first that
        // matches); past FIRST_CONFIRMED rows that costs O(rows) per row, and the point is
        // confirmed to match the row and to lie in a leaf where it is the first listed.
        let whole = table.policy.takes_first() && table.rows.len() <= FIRST_CONFIRMED;
        let goal = |values: &[Value]| {
            if whole {
                eval::pick_row(table, values).ok() == Some(r)
            } else {
                row_matches(table, r, values)
                    && axes.iter().zip(&ranges).all(|(a, &(lo, hi))| {
                        a.coord_of(&values[a.var]).is_some_and(|i| i >= lo as usize && i <= hi as usize)
                    })
            }
        };
        // A table over inputs alone: the leaf's own coordinates are the point, confirmed the
        // same way; the search is for what that does not settle.
        let direct = self.leaf_point(&ranges).and_then(|inputs| {
            let values = self.finder.confirm_typed(t, &inputs)?;
            goal(&values).then_some(Found { inputs, values })
        });
        let every_input_an_axis = self.p.inputs.iter().all(|&v| self.axes.iter().filter(|a| a.var == v).count() == 1);
        let at_coords = direct.is_some() && every_input_an_axis;
        let found =
            direct.or_else(|| self.finder.find(t, &ranges, &goal, self.how(REACH_ATTEMPTS, r as u64, false, leaf)));
        let at = match &found {
            Some(f) => self.coords_at(&f.values).unwrap_or_else(|| ranges.iter().map(|x| x.0).collect()),
            None => ranges.iter().map(|x| x.0).collect(),
        };
        let witness = found.map(|f| if at_coords { Witness::AtCoords } else { Witness::Inputs(f.inputs) });
        self.proof.reach[r] = Some(Reach { leaf, at, witness });
    }

    /// Inputs at the first coordinate of each axis of a box, when every column reads a
    /// different input (another input takes the first value it may).
    fn leaf_point(&self, ranges: &[(u32, u32)]) -> Option<Vec<Value>> {
        let p = self.p;
        let mut at: Vec<Option<&Value>> = vec![None; p.vars.len()];
        for (a, &(lo, _)) in self.axes.iter().zip(ranges) {
            if a.kind != axes::AxisKind::Input || at[a.var].is_some() {
                return None;
            }
            at[a.var] = Some(&a.reps[lo as usize]);
        }
        p.inputs
            .iter()
            .map(|&v| match at[v] {
                Some(x) => Some(x.clone()),
                None => self.finder.candidates_of(v).first().cloned(),
            })
            .collect()
    }

    fn coords_at(&self, values: &[Value]) -> Option<Vec<u32>> {
        self.axes.iter().map(|a| a.coord_of(&values[a.var]).map(|i| i as u32)).collect()
    }

    // ---- diagnostics

    fn report_gap(&mut self) {
        let gaps: Vec<usize> = (0..self.proof.cover.leaves.len())
            .filter(|&i| {
                let l = &self.proof.cover.leaves[i];
                l.rows.is_empty() && matches!(l.asked, Asked::Yes | Asked::Unknown)
            })
            .collect();
        if gaps.is_empty() {
            return;
        }
        let table = self.table;
        let goal = |values: &[Value]| (0..table.rows.len()).all(|r| !row_matches(table, r, values));
        let mut found: Option<(usize, Found)> = None;
        for &i in gaps.iter().take(LEAVES_TRIED) {
            let ranges = self.proof.cover.leaves[i].ranges.clone();
            if let Some(f) = self.finder.find(self.t, &ranges, &goal, self.how(ATTEMPTS, 0x6a70 + i as u64, true, i)) {
                found = Some((i, f));
                break;
            }
        }
        let leaf = found.as_ref().map_or(gaps[0], |(i, _)| *i);
        let gap_box = self.widen_gap(&self.proof.cover.leaves[leaf].ranges.clone());
        let all_in = gaps.iter().all(|&i| {
            let r = &self.proof.cover.leaves[i].ranges;
            r.iter().zip(&gap_box).all(|(&(a, b), &(c, d))| c <= a && b <= d)
        });
        let name = &table.name;
        // Under `first` the fix is a default (formats.md `mark_default`): a last row of `-`
        // cells takes every input no earlier row takes, so it closes every gap at once and
        // masks no row. Under `unique` and `any` it would meet every row, and under
        // `priority` its rank would decide what it masks: there the fix is the gap's box.
        let default = table.policy == Policy::First;
        let row_text = if default {
            self.row_text(&self.axes.iter().map(|a| (0, a.len() as u32 - 1)).collect::<Vec<_>>())
        } else {
            self.row_text(&gap_box)
        };
        let mut d = match &found {
            Some(_) => Diagnostic::new(
                "E101",
                self.file(),
                table.name_span,
                format!("table `{name}` is not complete: some input matches no row"),
            )
            .label("the input space is not fully covered"),
            None => {
                Diagnostic::new("E101", self.file(), table.name_span, format!("table `{name}` is not proven complete"))
                    .label("the checker cannot show that every input matches a row")
            }
        }
        .in_table(name);
        match &found {
            Some((_, f)) => {
                d = d.note(format!("An input that matches no row: {}", self.columns_text(&f.values)));
                let only_inputs = self.axes.iter().all(|a| a.kind == axes::AxisKind::Input);
                if !only_inputs || self.axes.len() < self.p.inputs.len() {
                    d = d.note(format!("for example, the call {}", self.inputs_text(&f.inputs)));
                }
                d = d.witness(self.witness_json(f));
            }
            None => {
                d = d.note(format!(
                    "not proven: no row takes {}; no input was found that lands there, and nothing the checker knows rules it out",
                    self.box_text(&gap_box)
                ));
            }
        }
        if !all_in {
            let more = gaps.iter().filter(|&&i| {
                let r = &self.proof.cover.leaves[i].ranges;
                !r.iter().zip(&gap_box).all(|(&(a, b), &(c, d))| c <= a && b <= d)
            });
            let k = more.count();
            let (parts, them) = if k == 1 {
                ("1 more part of the input space matches".to_string(), "it")
            } else {
                (format!("{k} more parts of the input space match"), "them")
            };
            let tail = if default { format!("the default row takes {them} too") } else { "the fix covers one".into() };
            d = d.note(format!("{parts} no row either; {tail}"));
        }
        d = d.note("The result in the added row is a placeholder: what it should be is a business decision.");
        d = if default {
            d.help(format!(
                "end the table with a default row, which takes every input no earlier row takes: `{row_text}`"
            ))
        } else {
            d.help(format!("add a row that takes these inputs: `{row_text}`"))
        };
        // A whole line after the last row, its newline included; a file that ends on the last
        // row without a newline gets the newline first.
        let end = self.table.rows.last().map_or(self.table.span.end, |r| r.line.end) as usize;
        let (at, line) =
            if end < self.text.len() { (end + 1, format!("{row_text}\n")) } else { (end, format!("\n{row_text}")) };
        let kind = if default { "mark_default" } else { "add_row" };
        d = d.fix(kind, line, Some((self.file(), Span::new(at, at))));
        self.diags.push(d);
    }

    /// Grow a gap box, axis by axis, as far as no row meets it.
    fn widen_gap(&self, start: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let mut g = start.to_vec();
        let live: Vec<usize> =
            (0..self.table.rows.len()).filter(|&r| self.proof.rows[r].accepts.iter().all(|x| !x.is_empty())).collect();
        let clear = |g: &[(u32, u32)]| live.iter().all(|&r| !cover::meets_box(&self.proof.rows[r].accepts, g));
        for k in 0..g.len() {
            let n = self.axes[k].len() as u32;
            let mut full = g.clone();
            full[k] = (0, n - 1);
            if clear(&full) {
                g = full;
                continue;
            }
            while g[k].0 > 0 {
                let mut h = g.clone();
                h[k].0 -= 1;
                if !clear(&h) {
                    break;
                }
                g = h;
            }
            while g[k].1 + 1 < n {
                let mut h = g.clone();
                h[k].1 += 1;
                if !clear(&h) {
                    break;
                }
                g = h;
            }
        }
        g
    }

    fn report_pairs(&mut self) {
        let unique = self.table.policy == Policy::Unique;
        // Under `any`, rows in one class of results (the same constants, expressions or
        // linear forms) agree wherever they meet: only pairs across classes are looked at.
        let n = self.table.rows.len();
        let mut class = vec![0usize; n];
        if !unique {
            let mut reps: Vec<usize> = Vec::new();
            for (r, c) in class.iter_mut().enumerate() {
                *c = match reps.iter().position(|&q| self.results_agree(q, r)) {
                    Some(i) => i,
                    None => {
                        reps.push(r);
                        reps.len() - 1
                    }
                };
            }
        }
        // Every pair some leaf lists, with the leaves it shares; one unit of the budget each.
        // Listing stops at OPEN_PAIRS pairs that meet in an asked leaf: past that many the
        // table fails or is not proved anyway.
        const OPEN_PAIRS: usize = 4 * MAX_PER_KIND;
        let mut pairs: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        let mut open_pairs = 0;
        let mut truncated = false;
        'leaves: for (i, leaf) in self.proof.cover.leaves.iter().enumerate() {
            if leaf.rows.len() < 2 {
                continue;
            }
            let open = !matches!(leaf.asked, Asked::No(_));
            for x in 0..leaf.rows.len() {
                for y in x + 1..leaf.rows.len() {
                    let (a, b) = (leaf.rows[x] as usize, leaf.rows[y] as usize);
                    if !unique && class[a] == class[b] {
                        continue;
                    }
                    if !self.budget.spend(1) || open_pairs >= OPEN_PAIRS {
                        truncated = true;
                        break 'leaves;
                    }
                    let shared = pairs.entry((a, b)).or_default();
                    if open && !shared.iter().any(|&j| !matches!(self.proof.cover.leaves[j].asked, Asked::No(_))) {
                        open_pairs += 1;
                    }
                    shared.push(i);
                }
            }
        }
        let (mut e102, mut e104, mut w114) = (0, 0, 0);
        for ((a, b), shared) in pairs {
            if e102 + e104 >= MAX_PER_KIND {
                truncated = true;
                break;
            }
            let parts: Vec<(usize, Option<Refutation>)> = shared
                .iter()
                .map(|&i| match &self.proof.cover.leaves[i].asked {
                    Asked::No(r) => (i, Some(r.clone())),
                    _ => (i, None),
                })
                .collect();
            let open: Vec<usize> = parts.iter().filter(|(_, r)| r.is_none()).map(|(i, _)| *i).collect();
            let pair = PairProof { a, b, parts };
            if open.is_empty() {
                self.proof.refuted.push(pair);
                continue;
            }
            let table = self.table;
            let t = self.t;
            let differ = |values: &[Value]| {
                unique || {
                    let ra = self.results_at(a, values);
                    let rb = self.results_at(b, values);
                    ra.is_some() && rb.is_some() && ra != rb
                }
            };
            let goal =
                |values: &[Value]| row_matches(table, a, values) && row_matches(table, b, values) && differ(values);
            let mut found = None;
            for &i in open.iter().take(LEAVES_TRIED) {
                let ranges = self.proof.cover.leaves[i].ranges.clone();
                if let Some(f) =
                    self.finder.find(t, &ranges, &goal, self.how(ATTEMPTS, ((a as u64) << 32) ^ b as u64, true, i))
                {
                    found = Some(f);
                    break;
                }
            }
            match found {
                Some(f) if unique => {
                    self.proof.meeting.push(pair);
                    e102 += 1;
                    if e102 <= MAX_PER_KIND {
                        let d = self.overlap_diag(a, b, &f);
                        self.diags.push(d);
                    }
                }
                Some(f) => {
                    self.proof.meeting.push(pair);
                    e104 += 1;
                    if e104 <= MAX_PER_KIND {
                        let d = self.disagree_diag(a, b, &f);
                        self.diags.push(d);
                    }
                }
                None => {
                    self.proof.undecided.push(pair);
                    self.guards.push(Guard { table: self.t, a: a + 1, b: b + 1 });
                    w114 += 1;
                    if w114 <= MAX_PER_KIND {
                        let d = self.undecided_diag(a, b);
                        self.diags.push(d);
                    }
                }
            }
        }
        if truncated {
            if e102 + e104 > 0 {
                // The check fails anyway: say the list is not all there is.
                self.proof.complete = false;
                if let Some(d) = self.diags.iter_mut().rev().find(|d| d.code == "E102" || d.code == "E104") {
                    d.notes.push(
                        "The table has more pairs of rows that meet than the analysis's budget let it list.".into(),
                    );
                }
            } else {
                self.over_budget();
            }
        }
    }

    /// Whether two rows of an `any` table give the same results wherever both match: the
    /// same constants, the same expressions, or the same linear form (`x + y`, `y + x`).
    fn results_agree(&self, a: usize, b: usize) -> bool {
        let (ra, rb) = (&self.table.rows[a].results, &self.table.rows[b].results);
        ra.iter().zip(rb).all(|(x, y)| match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => {
                same_expr(x, y) || matches!((model::linear_of(x), model::linear_of(y)), (Some(a), Some(b)) if a == b)
            }
            _ => false,
        })
    }

    fn results_at(&self, r: usize, values: &[Value]) -> Option<Vec<Value>> {
        self.table.rows[r]
            .results
            .iter()
            .zip(&self.table.results)
            .map(|(e, &v)| match e {
                None => Some(Value::None),
                Some(e) => eval::eval_expr(e, values).ok().map(|x| eval::stored(self.p, v, x)),
            })
            .collect()
    }

    fn overlap_diag(&self, a: usize, b: usize, f: &Found) -> Diagnostic {
        let name = &self.table.name;
        let at = self.columns_text(&f.values);
        let d = Diagnostic::new(
            "E102",
            self.file(),
            self.table.rows[a].span,
            format!("table `{name}`: rows {} and {} both match some inputs", a + 1, b + 1),
        )
        .label(format!("row {} matches {at}", a + 1))
        .secondary(self.file(), self.table.rows[b].span, format!("row {} matches it too", b + 1))
        .in_table(name)
        .note(format!("Both rows match: {at}"))
        .help("make the rows exclusive (change a bound so the shared inputs belong to one row), or use `first` if the order should decide")
        .witness(self.witness_json(f))
        .row(name, a + 1)
        .row(name, b + 1);
        match self.flip_bound(a, b) {
            Some((row, c, text, at)) => d
                .note(format!(
                    "The fix writes `{text}` in row {}: the rows meet only where one's bound on {} is the other's, and the cut stays with the row that keeps `<=` — a form, not a decision about which row the cut belongs to.",
                    row + 1,
                    self.p.vars[self.table.conds[c]].name
                ))
                .fix("flip_bound", text, Some((self.file(), at))),
            None => d
                .note(format!(
                    "The fix makes the table `first`, so row {} takes these inputs because it is written first: a form that removes the overlap, not a decision about which row is right; making the rows exclusive may be the better edit.",
                    a + 1
                ))
                .fix("change_policy", self.first_policy_text(), Some((self.file(), self.policy_span()))),
        }
    }

    /// The bounds of a row's cell on a condition column: none for `-`, those of its one test
    /// when that test is a conjunction of bounds; `None` for any other cell.
    fn cell_bounds(&self, row: usize, c: usize) -> Option<&[(crate::syntax::ast::CmpOp, Value)]> {
        match &self.table.rows[row].conds[c] {
            CondIr::Any => Some(&[]),
            CondIr::Tests { negated: false, tests } => match tests.as_slice() {
                [TestIr::Bounds(bs)] => Some(bs),
                _ => None,
            },
            CondIr::Tests { .. } => None,
        }
    }

    /// `flip_bound` (formats.md): two rows that meet on one column at one cut alone — one
    /// row's `<=X` against the other's `>=X` — while on every other column the row with
    /// `<=X` takes all the other one does. Then `>=X` written as `>X` parts them and leaves
    /// no input without a row. The row and the column, the cell's new text and its span.
    fn flip_bound(&self, a: usize, b: usize) -> Option<(usize, usize, String, Span)> {
        use crate::syntax::ast::CmpOp;
        let rows = &self.table.rows;
        for c in 0..self.table.conds.len() {
            let (Some(ba), Some(bb)) = (self.cell_bounds(a, c), self.cell_bounds(b, c)) else { continue };
            let meets_at = |upper: &[(CmpOp, Value)], lower: &[(CmpOp, Value)]| {
                upper.iter().any(|(o, x)| *o == CmpOp::Le && lower.iter().any(|(p, y)| *p == CmpOp::Ge && x == y))
            };
            let (keep, flip) = if meets_at(ba, bb) {
                (a, b)
            } else if meets_at(bb, ba) {
                (b, a)
            } else {
                continue;
            };
            let covers = (0..self.table.conds.len()).filter(|&o| o != c).all(|o| {
                matches!(rows[keep].conds[o], CondIr::Any) || rows[keep].cells[o].trim() == rows[flip].cells[o].trim()
            });
            let cell = &rows[flip].cells[c];
            if !covers || cell.matches(">=").count() != 1 {
                continue;
            }
            return Some((flip, c, cell.replacen(">=", ">", 1), rows[flip].cell_spans[c]));
        }
        None
    }

    /// Where the table's policy is written (`unique`), or the empty span after its name.
    fn policy_span(&self) -> Span {
        self.table.policy_span
    }

    fn first_policy_text(&self) -> String {
        if self.policy_span().is_empty() {
            " first".to_string()
        } else {
            "first".to_string()
        }
    }

    fn disagree_diag(&self, a: usize, b: usize, f: &Found) -> Diagnostic {
        let name = &self.table.name;
        let at = self.columns_text(&f.values);
        let show = |r: usize| {
            let vals = self.results_at(r, &f.values).unwrap_or_default();
            self.table
                .results
                .iter()
                .zip(&vals)
                .map(|(&v, x)| format!("{} = {}", self.p.vars[v].name, wire::display(self.p, &self.p.vars[v].ty, x)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        Diagnostic::new(
            "E104",
            self.file(),
            self.table.rows[a].span,
            format!("table `{name}` (any): rows {} and {} both match some inputs and give different results", a + 1, b + 1),
        )
        .label(format!("row {} gives {}", a + 1, show(a)))
        .secondary(self.file(), self.table.rows[b].span, format!("row {} gives {}", b + 1, show(b)))
        .in_table(name)
        .note(format!("At {at}, row {} gives {} and row {} gives {}", a + 1, show(a), b + 1, show(b)))
        .note("No single edit is right here: which result these inputs should get is a business decision, so the fix is none.")
        .help("make the two rows give the same result, make them exclusive, or use `first` if the order should decide")
        .witness(self.witness_json(f))
        .row(name, a + 1)
        .row(name, b + 1)
    }

    fn undecided_diag(&self, a: usize, b: usize) -> Diagnostic {
        let name = &self.table.name;
        Diagnostic::new(
            "W114",
            self.file(),
            self.table.rows[a].span,
            format!("table `{name}`: rows {} and {} are not proven apart", a + 1, b + 1),
        )
        .label(format!("row {}", a + 1))
        .secondary(self.file(), self.table.rows[b].span, format!("row {} may match the same inputs", b + 1))
        .in_table(name)
        .note("The checker can neither show an input both rows match nor prove there is none; the generated code checks at run time that they never both match.")
        .help("make the rows' conditions exclusive on a column, or state the relation that parts them as a constraint")
        .row(name, a + 1)
        .row(name, b + 1)
    }

    fn report_rows(&mut self, fates: &[RowFate]) {
        let (mut e103, mut e105) = (0, 0);
        for (r, fate) in fates.iter().enumerate() {
            match fate {
                RowFate::Shadowed(winners) => {
                    e103 += 1;
                    if e103 <= MAX_PER_KIND {
                        let d = self.shadow_diag(r, winners);
                        self.diags.push(d);
                    }
                }
                RowFate::Dead(reason) => {
                    e105 += 1;
                    if e105 <= MAX_PER_KIND {
                        let d = self.dead_diag(r, reason);
                        self.diags.push(d);
                    }
                }
                RowFate::Reached | RowFate::Unknown => {}
            }
        }
    }

    fn shadow_diag(&self, r: usize, winners: &[usize]) -> Diagnostic {
        let name = &self.table.name;
        let table = self.table;
        let priority = table.policy == Policy::Priority;
        // Another row answers where it matches (before it in order, or ranked above it).
        let goal =
            |values: &[Value]| row_matches(table, r, values) && eval::pick_row(table, values).is_ok_and(|w| w != r);
        let leaves: Vec<usize> = (0..self.proof.cover.leaves.len())
            .filter(|&i| {
                let l = &self.proof.cover.leaves[i];
                l.asked == Asked::Yes && l.rows.contains(&(r as u32))
            })
            .collect();
        let found = leaves.iter().take(LEAVES_TRIED).find_map(|&i| {
            self.finder.find(
                self.t,
                &self.proof.cover.leaves[i].ranges,
                &goal,
                self.how(ATTEMPTS, 0x5ad0 + r as u64, true, i),
            )
        });
        let by = rows_text(winners);
        let mut d = Diagnostic::new(
            "E103",
            self.file(),
            table.rows[r].span,
            format!(
                "table `{name}`: row {} can never fire; {by} {} {} every input it matches",
                r + 1,
                if priority { "ranked above it" } else { "before it" },
                if winners.len() == 1 { "takes" } else { "take" }
            ),
        )
        .label(if priority { "masked by rows whose results come first" } else { "shadowed by earlier rows" })
        .in_table(name)
        .row(name, r + 1);
        for &w in winners {
            let why = if priority { "is ranked above it" } else { "fires first" };
            d = d.secondary(self.file(), table.rows[w].span, format!("row {} {why}", w + 1)).row(name, w + 1);
        }
        if let Some(f) = &found {
            let fired = eval::pick_row(table, &f.values).map(|w| w + 1).unwrap_or(0);
            d = d
                .note(format!(
                    "For example, {} matches row {}, but row {fired} fires",
                    self.columns_text(&f.values),
                    r + 1
                ))
                .witness(self.witness_json(f));
        } else {
            d = d.note("not proven: that any input matches it at all — the checker found none and could not rule them out (if none does, the row is dead)");
        }
        let (file, line) = (self.file(), self.row_line(r));
        let help = match priority {
            true => "remove the row, or give it a result listed before theirs in its enum if it should win",
            false => "remove the row, or move it above the rows that cover it if it should win",
        };
        d.help(help).fix("remove_row", "", Some((file, line)))
    }

    fn dead_diag(&self, r: usize, reasons: &[Refutation]) -> Diagnostic {
        let name = &self.table.name;
        let table = self.table;
        let mut d = Diagnostic::new(
            "E105",
            self.file(),
            table.rows[r].span,
            format!("table `{name}`: row {} is reached by no input the rule accepts", r + 1),
        )
        .label("no input reaches this row")
        .in_table(name)
        .row(name, r + 1);
        // A cell that takes nothing at all.
        let empty = self.proof.rows[r].accepts.iter().position(|x| x.is_empty());
        if let Some(k) = empty {
            let var = &self.p.vars[self.axes[k].var];
            let range = var.range_text.as_ref().map(|t| format!(" (its range is {t})")).unwrap_or_default();
            d = d.note(format!("Its cell on `{}` takes no value `{}` can have{range}", var.name, var.name));
            if let Some(span) = table.rows[r].cell_spans.get(self.axes[k].column) {
                d = d.secondary(self.file(), *span, "takes nothing");
            }
        } else {
            let mut why: Vec<String> = Vec::new();
            for reason in reasons {
                self.reason_texts(reason, &mut why);
            }
            if why.is_empty() {
                d = d.note("Every input its cells take is ruled out by what the rule declares");
            } else {
                d = d.note(format!("Every input its cells take is ruled out by {}", why.join(", ")));
            }
        }
        let (file, line) = (self.file(), self.row_line(r));
        d.help("remove the row, or fix the cell or the constraint that rules it out").fix(
            "remove_row",
            "",
            Some((file, line)),
        )
    }

    /// What a refutation rests on, in words (each once).
    fn reason_texts(&self, reason: &Refutation, why_list: &mut Vec<String>) {
        let p = self.p;
        let mut texts: Vec<String> = Vec::new();
        let mut add = |text: String| texts.push(text);
        let name = |v: VarId| p.vars[v].name.clone();
        let fact_text = |fr: &FactRef| -> Option<String> {
            match fr {
                FactRef::Model(i) => Some(match &self.model.origins[*i] {
                    Origin::Constraint(c) => format!("the constraint `{}`", p.constraints[*c].text),
                    Origin::Define { var, .. } => format!("the definition of `{}`", name(*var)),
                    Origin::Range { var, .. } => format!(
                        "the range of `{}`{}",
                        name(*var),
                        p.vars[*var].range_text.as_ref().map(|t| format!(" ({t})")).unwrap_or_default()
                    ),
                }),
                FactRef::BoolDefine { axis, .. } => Some(format!("the definition of `{}`", name(self.axes[*axis].var))),
                FactRef::Derived { how, .. } => match how.as_ref() {
                    facts::Derivation::Proven { var } => Some(format!("the values `{}` can take", name(*var))),
                    facts::Derivation::DefineAt { var }
                    | facts::Derivation::Monotone { var, .. }
                    | facts::Derivation::Interval { var, .. } => Some(format!("the definition of `{}`", name(*var))),
                    facts::Derivation::BoolAt { axis, .. } => {
                        Some(format!("the definition of `{}`", name(self.axes[*axis].var)))
                    }
                    facts::Derivation::Fixed { .. } => None,
                },
                FactRef::Coord { .. } | FactRef::Cell { .. } => None,
            }
        };
        match reason {
            Refutation::Farkas(f) => f.iter().filter_map(|(fr, _)| fact_text(fr)).for_each(add),
            Refutation::SameColumn { a, .. } => add(format!("its own cells on `{}`", name(self.axes[*a].var))),
            Refutation::Gate { by, .. } => add(format!("the inputs table `{}` leaves out", p.tables[*by].name)),
            Refutation::Produced { axis, by, rows } => {
                add(format!("what table `{}` can give `{}`", p.tables[*by].name, name(self.axes[*axis].var)));
                for (_, why) in rows {
                    match why {
                        Producer::Farkas(f) => f.iter().filter_map(|(fr, _)| fact_text(fr)).for_each(&mut add),
                        Producer::Cases(r) => self.reason_texts(r, why_list),
                        Producer::Parts(_) => {}
                    }
                }
            }
            Refutation::Split { var, basis, cases } => {
                match basis.as_ref() {
                    Basis::Rows { table, .. } => {
                        add(format!("what table `{}` can give `{}`", p.tables[*table].name, name(*var)))
                    }
                    Basis::Grid { .. } => add(format!("each value `{}` can take", name(*var))),
                }
                for (_, r) in cases {
                    self.reason_texts(r, why_list);
                }
            }
            Refutation::Cells { var } => add(format!("the cells that decide `{}`", name(*var))),
        }
        for text in texts {
            if !why_list.contains(&text) {
                why_list.push(text);
            }
        }
    }

    // ---- text

    /// A row's whole line, its newline included where the file has one.
    fn row_line(&self, r: usize) -> Span {
        let line = self.table.rows[r].line;
        Span::new(line.start as usize, (line.end as usize + 1).min(self.text.len()))
    }

    fn witness_json(&self, f: &Found) -> Json {
        let mut m = Map::new();
        m.insert("inputs".into(), self.finder.wire_inputs(&f.inputs));
        let derived: Vec<&Axis> = self.axes.iter().filter(|a| a.kind == axes::AxisKind::Derived).collect();
        if !derived.is_empty() {
            let mut c = Map::new();
            for a in derived {
                let var = &self.p.vars[a.var];
                c.insert(var.name.clone(), wire::to_wire(self.p, var, &f.values[a.var]));
            }
            m.insert("columns".into(), Json::Object(c));
        }
        Json::Object(m)
    }

    fn columns_text(&self, values: &[Value]) -> String {
        if self.axes.is_empty() {
            return "every input".into();
        }
        let mut seen = Vec::new();
        self.axes
            .iter()
            .filter(|a| {
                let fresh = !seen.contains(&a.var);
                seen.push(a.var);
                fresh
            })
            .map(|a| {
                let var = &self.p.vars[a.var];
                format!("{} = {}", var.name, wire::display(self.p, &var.ty, &values[a.var]))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn inputs_text(&self, inputs: &[Value]) -> String {
        self.p
            .inputs
            .iter()
            .zip(inputs)
            .map(|(&v, x)| format!("{} = {}", self.p.vars[v].name, wire::display(self.p, &self.p.vars[v].ty, x)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn box_text(&self, ranges: &[(u32, u32)]) -> String {
        self.axes
            .iter()
            .zip(ranges)
            .filter(|(a, r)| !(r.0 == 0 && r.1 as usize + 1 == a.len()))
            .map(|(a, r)| format!("{} {}", self.p.vars[a.var].name, self.cell_text(a, *r)))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// A row that takes exactly the box `ranges`, with placeholder results.
    fn row_text(&self, ranges: &[(u32, u32)]) -> String {
        let mut cells: Vec<String> = self.axes.iter().zip(ranges).map(|(a, r)| self.cell_text(a, *r)).collect();
        for &v in &self.table.results {
            cells.push(placeholder(self.p, v));
        }
        format!("| {} |", cells.join(" | "))
    }

    /// A condition cell that takes exactly coordinates `[a, b]` of an axis.
    fn cell_text(&self, axis: &Axis, (a, b): (u32, u32)) -> String {
        let n = axis.len();
        let (a, b) = (a as usize, b as usize);
        if a == 0 && b + 1 == n {
            return "-".into();
        }
        let var = &self.p.vars[axis.var];
        let show = |v: &Value| wire::display(self.p, &var.ty, v);
        let inside: Vec<usize> = (a..=b).collect();
        if inside.iter().any(|&i| axis.coords[i] == Coord::OtherString) {
            // Every string but some: say which are left out.
            let out: Vec<String> = (0..n).filter(|i| !inside.contains(i)).map(|i| show(&axis.reps[i])).collect();
            return format!("not: {}", out.join(", "));
        }
        let mut tests: Vec<String> = Vec::new();
        let nums: Vec<usize> = inside.iter().copied().filter(|&i| i < axis.numeric).collect();
        if let (Some(&first), Some(&last)) = (nums.first(), nums.last()) {
            if first == 0 && last + 1 == axis.numeric {
                if !inside.iter().any(|&i| axis.coords[i] == Coord::None) {
                    return "not: none".into();
                }
            } else if axis.produced {
                tests.extend(nums.iter().map(|&i| show(&axis.reps[i])));
            } else {
                let lo = axis.coords[first].numeric_bounds().and_then(|x| x.0);
                let hi = axis.coords[last].numeric_bounds().and_then(|x| x.1);
                let mut bounds: Vec<String> = Vec::new();
                match (&lo, &hi) {
                    (Some(l), Some(h)) if l.at == h.at && !l.open && !h.open => {
                        bounds.push(show(&Value::Num(l.at.clone())));
                    }
                    _ => {
                        if first > 0 {
                            if let Some(l) = &lo {
                                bounds.push(format!(
                                    "{}{}",
                                    if l.open { ">" } else { ">=" },
                                    show(&Value::Num(l.at.clone()))
                                ));
                            }
                        }
                        if last + 1 < axis.numeric {
                            if let Some(h) = &hi {
                                bounds.push(format!(
                                    "{}{}",
                                    if h.open { "<" } else { "<=" },
                                    show(&Value::Num(h.at.clone()))
                                ));
                            }
                        }
                    }
                }
                tests.push(bounds.join(" "));
            }
        }
        for &i in &inside {
            match &axis.coords[i] {
                Coord::Value(Value::Num(_)) | Coord::Interval { .. } => {}
                Coord::None => {}
                _ => tests.push(show(&axis.reps[i])),
            }
        }
        if inside.iter().any(|&i| axis.coords[i] == Coord::None) {
            tests.push("none".into());
        }
        tests.join(", ")
    }
}

/// The tables `t` reads a value of (through its columns and its result cells, as the
/// evaluator does) that may leave inputs out and that cut a column `t` cuts too.
fn gates(p: &Program, t: usize, axes: &[Axis], gapped: &[std::cell::Cell<bool>]) -> Vec<usize> {
    if !gapped.iter().any(std::cell::Cell::get) {
        return Vec::new();
    }
    let needed = eval::needed_vars(p, t);
    (0..p.tables.len())
        .filter(|&d| d != t && gapped.get(d).is_some_and(std::cell::Cell::get))
        .filter(|&d| p.tables[d].results.iter().any(|&v| needed[v]))
        .filter(|&d| p.tables[d].conds.iter().any(|&v| axes.iter().any(|a| a.var == v)))
        .collect()
}

/// For an axis decided by another table with constant results: that table, and per
/// coordinate the rows that produce it.
fn producers(p: &Program, t: usize, axis: &Axis) -> Option<(usize, Vec<Vec<usize>>)> {
    let d = p.cell_table(axis.var)?;
    if !axis.produced || d == t {
        return None;
    }
    let dt = &p.tables[d];
    let col = dt.results.iter().position(|&r| r == axis.var)?;
    let mut by = vec![Vec::new(); axis.len()];
    for (r, row) in dt.rows.iter().enumerate() {
        let produced = match &row.results[col] {
            None => Value::None,
            Some(TExpr { kind: TExprKind::Const(c), .. }) => eval::stored(p, axis.var, c.clone()),
            Some(_) => return None,
        };
        by[axis.coord_of(&produced)?].push(r);
    }
    Some((d, by))
}

fn rows_text(rows: &[usize]) -> String {
    match rows {
        [r] => format!("row {}", r + 1),
        _ => {
            let list: Vec<String> = rows.iter().map(|r| (r + 1).to_string()).collect();
            format!("rows {}", list.join(", "))
        }
    }
}

/// A result cell of the right type that means nothing in particular: `none` for an
/// optional, `false`, the first enum value, `""`, or zero of the unit (the low end of the
/// declared range when zero is outside it).
pub fn placeholder(p: &Program, v: VarId) -> String {
    let var = &p.vars[v];
    if var.optional {
        return "none".into();
    }
    let value = match (&var.ty, &var.range) {
        (Ty::Bool, _) => Value::Bool(false),
        (Ty::Str, _) => Value::Str(String::new()),
        (Ty::Enum(_), Some((lo, _))) => lo.clone(),
        (Ty::Enum(_), None) => Value::Enum(0),
        (_, Some((Value::Num(lo), Value::Num(hi)))) => {
            let zero = Rat::from_integer(0.into());
            Value::Num(if lo <= &zero && &zero <= hi { zero } else { lo.clone() })
        }
        (Ty::Date, _) => Value::Num(Rat::from_integer(0.into())),
        _ => Value::Num(Rat::from_integer(0.into())),
    };
    wire::display(p, &var.ty, &value)
}

/// Two expressions of the same shape (and so the same value everywhere).
pub fn same_expr(a: &TExpr, b: &TExpr) -> bool {
    use TExprKind::*;
    let all = |xs: &[TExpr], ys: &[TExpr]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_expr(x, y));
    match (&a.kind, &b.kind) {
        (Const(x), Const(y)) => x == y,
        (Var(x), Var(y)) => x == y,
        (Neg(x), Neg(y)) | (Not(x), Not(y)) | (Isqrt(x), Isqrt(y)) => same_expr(x, y),
        (Arith(o, x1, x2), Arith(p, y1, y2)) => o == p && same_expr(x1, y1) && same_expr(x2, y2),
        (Cmp(o, x1, x2), Cmp(p, y1, y2)) => o == p && same_expr(x1, y1) && same_expr(x2, y2),
        (And(x1, x2), And(y1, y2)) | (Or(x1, x2), Or(y1, y2)) | (Mod(x1, x2), Mod(y1, y2)) => {
            same_expr(x1, y1) && same_expr(x2, y2)
        }
        (Min(xs), Min(ys)) | (Max(xs), Max(ys)) => all(xs, ys),
        (Round { value: x, mode: m, grid: g }, Round { value: y, mode: n, grid: h }) => {
            m == n && g == h && same_expr(x, y)
        }
        (If { cond: c1, then: t1, els: e1 }, If { cond: c2, then: t2, els: e2 }) => {
            same_expr(c1, c2) && same_expr(t1, t2) && same_expr(e1, e2)
        }
        (In { var: v, values: xs }, In { var: w, values: ys }) => v == w && xs == ys,
        _ => false,
    }
}

/// Whether two intervals (ends optional, open or closed) share a point (a grid point when
/// `step` is given).
fn intervals_meet(
    alo: &Option<axes::End>,
    ahi: &Option<axes::End>,
    blo: &Option<axes::End>,
    bhi: &Option<axes::End>,
    step: Option<&Rat>,
) -> bool {
    // The intersection's ends.
    let lo = match (alo, blo) {
        (Some(a), Some(b)) => Some(if a.at > b.at || (a.at == b.at && a.open) { a.clone() } else { b.clone() }),
        (a, b) => a.clone().or(b.clone()),
    };
    let hi = match (ahi, bhi) {
        (Some(a), Some(b)) => Some(if a.at < b.at || (a.at == b.at && a.open) { a.clone() } else { b.clone() }),
        (a, b) => a.clone().or(b.clone()),
    };
    match (lo, hi) {
        (Some(l), Some(h)) => {
            if let Some(s) = step {
                // The grid points inside.
                let first = if l.open { (&l.at / s).floor() + Rat::from_integer(1.into()) } else { (&l.at / s).ceil() };
                let last = if h.open { (&h.at / s).ceil() - Rat::from_integer(1.into()) } else { (&h.at / s).floor() };
                first <= last
            } else {
                l.at < h.at || (l.at == h.at && !l.open && !h.open)
            }
        }
        _ => true,
    }
}
