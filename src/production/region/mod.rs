//! `rulec diff OLD NEW` without records (formats.md "diff with no records: the region"):
//! which inputs get a different answer, as boxes over the rule's columns, and is there
//! anything outside them.
//!
//! # How it is decided
//!
//! The two versions become one program ([`joint`]). Every condition column of either is a
//! column of the region, except a value a table decides from constant cells (`size` in
//! parcel_rate): that is a function of the columns its table reads, so it needs no column of
//! its own. Each column is an axis of the table analysis (`axes::build_axis` over every cell
//! either version writes on it), and every row of every table of both versions is a box over
//! those axes. One cover tree (`cover::build`) cuts the domain until each row takes a leaf
//! whole or misses it, so in a leaf every table of both versions fires one row — read off
//! the leaf, in evaluation order, a produced value taking the value its row gives.
//!
//! A leaf is then one of:
//! - **infeasible**: the joint linear model (both versions' ranges, constraints and linear
//!   defines, the leaf's bounds) refutes it (`LinearSystem::refute`), or a table of a
//!   version that checked clean has no row there (its completeness proof says no input of
//!   that version lands there);
//! - **same**: every output is the same in both versions everywhere in it — its value is fixed
//!   by the leaf and equal, or the two expressions that compute it (through the rows that
//!   fire and the defines) are the same, or every input the leaf admits was tried;
//! - **differing**: an input was found in it, read by both versions' doors and evaluated by
//!   the reference evaluator of each, whose answers differ. Where every output that moves
//!   is fixed by the leaf the move is `uniform`; otherwise the numbers are the witness's;
//! - **unsettled** (the expressions differ and no input found tells them apart) or
//!   **unrealized** (no input at all was found in a leaf the model cannot refute).
//!
//! The witness finder is the table analysis's (`witness::Finder`); where an output is an
//! expression it is helped by the boundary suites of both versions, points drawn at random
//! in the leaf, and scans of each free input from its ends — and where the leaf admits few
//! enough inputs, by trying every one, which settles it exactly.
//!
//! `cells` counts the cells of the refinement: per column, its coordinates, multiplied; a
//! leaf holds the cells of its box, and is counted whole in the totals.
//!
//! # Boxes
//!
//! Differing leaves are grouped by the rows that fire in each version and the move (when
//! uniform). Maximal subtrees of the cover tree whose leaves are all of one group (or
//! infeasible) are boxes; boxes of a group that touch along one column are merged, and a box
//! is widened to a column's whole range wherever that adds only cells of its group or cells
//! no input reaches — which keeps a column that decides nothing out of the description.
//! A box is reported only with a witness inside it that both evaluators confirm.

mod joint;
mod text;

use super::values::Plain;
use crate::analysis::model::{self, Model};
use crate::analysis::tables::axes::{build_axis, var_step, Axis, AxisKind, Coord};
use crate::analysis::tables::cover::{self, Cover, Leaf, Node};
use crate::analysis::tables::facts::LinearSystem;
use crate::analysis::tables::witness::{Finder, Search, SplitMix};
use crate::analysis::tables::Budget;
use crate::eval::{self, wire, Outcome};
use crate::num::{self, Rat};
use crate::sema::*;
use crate::source::Span;
use crate::syntax::ast::Policy;
use joint::Joint;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use serde_json::{json, Map, Value as Json};
use std::cell::{Cell, OnceCell};
use std::collections::HashMap;
use std::sync::Arc;

/// Knobs of the region analysis (`rulec diff --budget N`).
#[derive(Clone, Debug)]
pub struct Options {
    /// The cover tree's splits and the linear reasoning, as `check --budget` counts them.
    pub budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { budget: crate::analysis::Options::default().budget }
    }
}

/// Evaluations the witness search may spend over the whole diff.
const PROBES: usize = 200_000;
/// Attempts of the witness finder at one leaf.
const ATTEMPTS: usize = 32;
/// A leaf admitting at most this many inputs (over the inputs its outputs read) is tried whole.
const EXHAUSTIVE: u64 = 4096;
/// Random points, and consecutive values scanned from each end of each free input.
const RANDOM: usize = 64;
const SCAN: u64 = 1024;

/// What one leaf of the cover tree is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Infeasible,
    Same,
    Differs(usize),
    Unsettled,
    Unrealized,
}

/// One transition: the rows that fire in each version, and whether the move is the same
/// everywhere (then the move is part of what groups leaves together).
#[derive(Clone, Debug)]
struct Group {
    old_rows: Vec<(String, usize)>,
    new_rows: Vec<(String, usize)>,
    uniform: bool,
}

/// An input both versions answer differently, and how.
#[derive(Clone, Debug)]
struct Witness {
    /// Joint inputs.
    inputs: Vec<Value>,
    /// The outputs that move: (name, old wire text, new wire text).
    outputs: Vec<(String, String, String)>,
    /// The same in the rule's notation, for the text.
    shown: Vec<(String, String, String)>,
}

/// A box: per column, the run of coordinates it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Boxed {
    group: usize,
    ranges: Vec<(u32, u32)>,
}

/// A box of differing inputs.
#[derive(Clone, Debug)]
pub struct Change {
    ranges: Vec<(u32, u32)>,
    group: usize,
    witness: Witness,
    /// Differing cells inside the box.
    pub cells: BigUint,
}

/// A box where nothing could be said.
#[derive(Clone, Debug)]
pub struct Unknown {
    ranges: Vec<(u32, u32)>,
    unrealized: bool,
    pub cells: BigUint,
}

/// The region answer.
pub struct Region {
    pub rule: String,
    pub old: String,
    pub new: String,
    pub old_version: u64,
    pub new_version: u64,
    pub over_budget: bool,
    pub cells: BigUint,
    pub feasible: BigUint,
    pub same: BigUint,
    pub differing: BigUint,
    pub unsettled: BigUint,
    pub unrealized: BigUint,
    pub domain: Vec<Json>,
    pub changes: Vec<Change>,
    pub unknown: Vec<Unknown>,
    joint: Joint,
    axes: Vec<Axis>,
    /// The joint table whose columns are the axes.
    region_table: usize,
    groups: Vec<Group>,
}

/// A value decided by a table with constant cells (what `axes::produced_values` lists the
/// values of): a function of that table's columns.
fn determined(p: &Program, v: VarId) -> bool {
    let Some(Decider::Table(t)) = p.vars[v].decided_by else { return false };
    let table = &p.tables[t];
    let Some(col) = table.results.iter().position(|&r| r == v) else { return false };
    table.rows.iter().all(|r| matches!(&r.results[col], None | Some(TExpr { kind: TExprKind::Const(_), .. })))
}

fn cells_of(ranges: &[(u32, u32)]) -> BigUint {
    ranges.iter().fold(BigUint::one(), |acc, &(a, b)| acc * BigUint::from(b - a + 1))
}

fn intersect(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for &(s, e) in a {
        for &(t, f) in b {
            let (lo, hi) = (s.max(t), e.min(f));
            if lo <= hi {
                out.push((lo, hi));
            }
        }
    }
    out.sort_unstable();
    out
}

/// Whether a coordinate holds exactly one value.
fn single(c: &Coord) -> bool {
    match c {
        Coord::Value(_) | Coord::None => true,
        Coord::Interval { lo: Some(l), hi: Some(h) } => l.at == h.at && !l.open && !h.open,
        _ => false,
    }
}

/// Compare two versions of a rule over every input.
pub fn region(
    old: &Program,
    new: &Program,
    old_shown: &str,
    new_shown: &str,
    opts: &Options,
) -> Result<Region, String> {
    if old.name != new.name {
        return Err(format!(
            "{old_shown} is rule `{}` and {new_shown} is rule `{}`: diff compares one rule",
            old.name, new.name
        ));
    }
    // The region is read off the one row each table fires; a multiple-hit table fires every
    // row that holds, which this reading does not follow yet: said, not answered wrongly.
    for (shown, p) in [(old_shown, old), (new_shown, new)] {
        // Nor does it follow a walk: its inputs are lists of any length, not a box of values.
        if let Some(s) = p.sequences.first() {
            return Err(format!(
                "{shown}: diff over every input does not read a rule that walks a sequence yet (`{}`); compare the versions over records with --fixtures",
                s.name
            ));
        }
        if let Some(t) = p.tables.iter().find(|t| t.policy.multi_hit()) {
            return Err(format!(
                "{shown}: diff over every input does not read a `{}` table yet (table `{}`); compare the versions over records with --fixtures",
                t.policy.as_str(),
                t.name
            ));
        }
    }
    let mut joint = Joint::build(old, new)?;
    let mut axis_vars: Vec<VarId> = Vec::new();
    for t in &joint.p.tables {
        for &c in &t.conds {
            if !axis_vars.contains(&c) && !determined(&joint.p, c) {
                axis_vars.push(c);
            }
        }
    }
    let mut axes: Vec<Axis> = axis_vars.iter().map(|&v| joint_axis(&joint.p, v)).collect();
    for axis in &mut axes {
        keep_both_domains(&joint.p, old, new, axis);
    }
    let region_table = joint.p.tables.len();
    joint.p.tables.push(TableIr {
        name: "(region)".into(),
        policy: Policy::Unique,
        conds: axis_vars.clone(),
        results: Vec::new(),
        rows: Vec::new(),
        span: Span::default(),
        name_span: Span::default(),
        policy_span: Span::default(),
    });
    let mut region = Region {
        rule: new.name.clone(),
        old: old_shown.to_string(),
        new: new_shown.to_string(),
        old_version: old.version,
        new_version: new.version,
        over_budget: false,
        cells: cells_of(&axes.iter().map(|a| (0, (a.len() as u32).max(1) - 1)).collect::<Vec<_>>()),
        feasible: BigUint::zero(),
        same: BigUint::zero(),
        differing: BigUint::zero(),
        unsettled: BigUint::zero(),
        unrealized: BigUint::zero(),
        domain: joint.domain.clone(),
        changes: Vec::new(),
        unknown: Vec::new(),
        joint,
        axes,
        region_table,
        groups: Vec::new(),
    };
    if region.axes.iter().any(Axis::is_empty) {
        // A column with no value both versions take: no input is asked about.
        region.cells = BigUint::zero();
        return Ok(region);
    }
    let decided = Analysis::new(&region, old, new, opts).run();
    match decided {
        None => {
            region.over_budget = true;
            region.unsettled = region.cells.clone();
            region.feasible = region.cells.clone();
        }
        Some(d) => d.into_region(&mut region),
    }
    Ok(region)
}

/// The axis of one column of the region: every cell either version writes on the variable.
fn joint_axis(p: &Program, v: VarId) -> Axis {
    let mut rows = Vec::new();
    for t in &p.tables {
        for (c, &cv) in t.conds.iter().enumerate() {
            if cv == v {
                for r in &t.rows {
                    rows.push(RowIr {
                        conds: vec![r.conds[c].clone()],
                        results: Vec::new(),
                        span: r.span,
                        line: r.line,
                        cell_spans: Vec::new(),
                        cells: Vec::new(),
                    });
                }
            }
        }
    }
    let synth = TableIr {
        name: String::new(),
        policy: Policy::First,
        conds: vec![v],
        results: Vec::new(),
        rows,
        span: Span::default(),
        name_span: Span::default(),
        policy_span: Span::default(),
    };
    build_axis(p, &synth, 0)
}

/// Drop the values of an input column one version's door refuses (an enum value only one
/// version has); a number's range is already both versions' at once.
fn keep_both_domains(jp: &Program, old: &Program, new: &Program, axis: &mut Axis) {
    let jvar = &jp.vars[axis.var];
    if jvar.kind != VarKind::Input {
        return;
    }
    let taken = |p: &Program, x: &Value| match p.var_by_name(&jvar.name) {
        Some(v) if p.vars[v].kind == VarKind::Input => {
            let raw = Plain::of(jp, jvar, x).wire(&p.vars[v]);
            wire::read_input(p, &p.vars[v], Some(&raw)).is_ok()
        }
        _ => true,
    };
    let keep: Vec<bool> =
        (0..axis.len()).map(|i| i < axis.numeric || (taken(old, &axis.reps[i]) && taken(new, &axis.reps[i]))).collect();
    let mut k = keep.iter();
    axis.coords.retain(|_| *k.next().expect("one flag per coordinate"));
    let mut k = keep.iter();
    axis.reps.retain(|_| *k.next().expect("one flag per coordinate"));
}

/// The work of one region diff.
struct Analysis<'a> {
    jp: &'a Program,
    joint: &'a Joint,
    old: &'a Program,
    new: &'a Program,
    axes: &'a [Axis],
    region_table: usize,
    /// Per joint variable, its axis.
    axis_of: Vec<Option<usize>>,
    /// Per joint variable, whether a table decides it from constant cells.
    determined: Vec<bool>,
    /// Per joint table, where its rows start among the boxes.
    row_start: Vec<usize>,
    cover: Cover,
    model: Model,
    lin: LinearSystem,
    all_axes: Vec<Arc<Vec<Axis>>>,
    budget: std::cell::RefCell<Budget>,
    probes: Cell<usize>,
    /// Outputs both versions have: (old var, new var).
    outputs: Vec<(VarId, VarId)>,
    /// The joint inputs the outputs read.
    read: Vec<bool>,
    suites: OnceCell<Vec<Vec<Value>>>,
    exhausted: Cell<bool>,
}

/// What the analysis found, leaf by leaf.
struct Decided {
    cover: Cover,
    status: Vec<Status>,
    witness: Vec<Option<Witness>>,
    groups: Vec<Group>,
    exhausted: bool,
}

impl<'a> Analysis<'a> {
    fn new(r: &'a Region, old: &'a Program, new: &'a Program, opts: &Options) -> Analysis<'a> {
        let jp = &r.joint.p;
        let mut axis_of = vec![None; jp.vars.len()];
        for (k, a) in r.axes.iter().enumerate() {
            axis_of[a.var] = Some(k);
        }
        let mut row_start = Vec::with_capacity(jp.tables.len() + 1);
        let mut n = 0;
        for t in &jp.tables {
            row_start.push(n);
            n += t.rows.len();
        }
        row_start.push(n);
        let model = model::build(jp);
        let lin = LinearSystem::build(jp, &model, &r.axes, &[], &vec![None; jp.vars.len()]);
        let mut all_axes: Vec<Arc<Vec<Axis>>> = (0..jp.tables.len()).map(|_| Arc::new(Vec::new())).collect();
        all_axes[r.region_table] = Arc::new(r.axes.clone());
        let outputs: Vec<(VarId, VarId)> = new
            .outputs
            .iter()
            .filter_map(|&n| old.outputs.iter().find(|&&o| old.vars[o].name == new.vars[n].name).map(|&o| (o, n)))
            .collect();
        let mut read = vec![false; jp.vars.len()];
        for &(o, n) in &outputs {
            reads(jp, r.joint.old_var[o], &mut read);
            reads(jp, n, &mut read);
        }
        Analysis {
            determined: (0..jp.vars.len()).map(|v| determined(jp, v)).collect(),
            jp,
            joint: &r.joint,
            old,
            new,
            axes: &r.axes,
            region_table: r.region_table,
            axis_of,
            row_start,
            cover: Cover::default(),
            model,
            lin,
            all_axes,
            budget: std::cell::RefCell::new(Budget::new(opts.budget)),
            probes: Cell::new(PROBES),
            outputs,
            read,
            suites: OnceCell::new(),
            exhausted: Cell::new(false),
        }
    }

    fn run(mut self) -> Option<Decided> {
        let mut boxes: Vec<Vec<Vec<(u32, u32)>>> = Vec::new();
        for (t, table) in self.jp.tables.iter().enumerate() {
            if t == self.region_table {
                continue;
            }
            for row in &table.rows {
                let mut b: Vec<Vec<(u32, u32)>> = self.axes.iter().map(|a| vec![(0, a.len() as u32 - 1)]).collect();
                for (c, &v) in table.conds.iter().enumerate() {
                    if let Some(k) = self.axis_of[v] {
                        b[k] = intersect(&b[k], &self.axes[k].accepts(&row.conds[c]));
                    }
                }
                boxes.push(b);
            }
        }
        let live: Vec<u32> =
            (0..boxes.len()).filter(|&i| boxes[i].iter().all(|r| !r.is_empty())).map(|i| i as u32).collect();
        let root: Vec<(u32, u32)> = self.axes.iter().map(|a| (0, a.len() as u32 - 1)).collect();
        self.cover = cover::build(&boxes, root, live, &mut self.budget.borrow_mut())?;
        let finder = Finder::new(self.jp, &self.all_axes, &self.model);
        let n = self.cover.leaves.len();
        let mut status = Vec::with_capacity(n);
        let mut witness = Vec::with_capacity(n);
        let mut groups: Vec<Group> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for i in 0..n {
            let (s, w, g) = self.decide(i, &finder)?;
            let s = match (s, g, &w) {
                (Status::Differs(_), Some(g), Some(w)) => {
                    let moved = if g.uniform { format!("{:?}", w.outputs) } else { String::new() };
                    let key = format!("{:?}|{:?}|{}|{moved}", g.old_rows, g.new_rows, g.uniform);
                    let k = *index.entry(key).or_insert_with(|| {
                        groups.push(g);
                        groups.len() - 1
                    });
                    Status::Differs(k)
                }
                (s, _, _) => s,
            };
            status.push(s);
            witness.push(w);
        }
        Some(Decided { cover: self.cover, status, witness, groups, exhausted: self.exhausted.get() })
    }

    /// Decide one leaf: its status, a witness, and (when it differs) its transition.
    #[allow(clippy::type_complexity)]
    fn decide(&self, i: usize, finder: &Finder) -> Option<(Status, Option<Witness>, Option<Group>)> {
        let ranges = self.cover.leaves[i].ranges.clone();
        if self.lin.linked {
            const PER_BOX: u64 = 200_000;
            let mut budget = self.budget.borrow_mut();
            let mut allowance = budget.left.min(PER_BOX);
            let before = allowance;
            let out = self.lin.refute(self.jp, &self.model, self.axes, &ranges, &mut allowance);
            budget.spend(before - allowance);
            match out {
                Ok(Some(_)) => return Some((Status::Infeasible, None, None)),
                Ok(None) => {}
                Err(_) if budget.left == 0 => return None,
                Err(_) => return Some((Status::Unsettled, None, None)),
            }
        }
        let rows = match self.fired(&self.cover.leaves[i]) {
            Ok(rows) => rows,
            Err(Stop::Gap) => return Some((Status::Infeasible, None, None)),
            Err(Stop::Ambiguous) => return Some((Status::Unsettled, None, None)),
        };
        let old_rows: Vec<usize> = self.joint.old_table.iter().map(|&t| rows[t]).collect();
        let new_rows: Vec<usize> = rows[..self.new.tables.len()].to_vec();
        let known_old = self.known(self.old, &|v| self.joint.old_var[v], &old_rows, &ranges);
        let known_new = self.known(self.new, &|v| v, &new_rows, &ranges);
        let mut sym = Sym {
            old: self.old,
            new: self.new,
            old_rows: &old_rows,
            new_rows: &new_rows,
            ko: &known_old,
            kn: &known_new,
            memo: HashMap::new(),
        };
        // Outputs that may differ, and whether each of those is fixed by the leaf.
        let mut moving = Vec::new();
        let mut uniform = true;
        for &(o, n) in &self.outputs {
            match (&known_old[o], &known_new[n]) {
                (Some(a), Some(b)) => {
                    if Plain::of(self.old, &self.old.vars[o], a) != Plain::of(self.new, &self.new.vars[n], b) {
                        moving.push((o, n));
                    }
                }
                _ => {
                    if !sym.same_var(o, n) {
                        moving.push((o, n));
                        uniform = false;
                    }
                }
            }
        }
        if moving.is_empty() {
            return Some((Status::Same, None, None));
        }
        let seed = i as u64;
        let found = if uniform { self.any_point(i, finder, seed) } else { self.differing_point(i, finder, seed) };
        let (inputs, oo, on) = match found {
            Found::Point(inputs, oo, on) => (inputs, oo, on),
            Found::NoneDiffer => return Some((Status::Same, None, None)),
            Found::Nothing if self.probes.get() == 0 => {
                self.exhausted.set(true);
                return Some((Status::Unsettled, None, None));
            }
            Found::Nothing if uniform => return Some((Status::Unrealized, None, None)),
            Found::Nothing => return Some((Status::Unsettled, None, None)),
        };
        let mut outputs = Vec::new();
        let mut shown = Vec::new();
        for &(o, n) in &self.outputs {
            let (ov, nv) = (&self.old.vars[o], &self.new.vars[n]);
            let (a, b) = (Plain::of(self.old, ov, &oo.values[o]), Plain::of(self.new, nv, &on.values[n]));
            if a != b {
                outputs.push((nv.name.clone(), a.wire_text(ov), b.wire_text(nv)));
                shown.push((nv.name.clone(), a.display(ov), b.display(nv)));
            }
        }
        if outputs.is_empty() {
            // The leaf's values said they differ; the evaluators say not here. Say nothing.
            return Some((Status::Unsettled, None, None));
        }
        let names = |p: &Program, rows: &[usize]| -> Vec<(String, usize)> {
            p.order
                .iter()
                .filter_map(|s| match *s {
                    Step::Table(t) => Some((p.tables[t].name.clone(), rows[t] + 1)),
                    Step::Define(_) | Step::Walk(_) => None,
                })
                .collect()
        };
        let g = Group { old_rows: names(self.old, &old_rows), new_rows: names(self.new, &new_rows), uniform };
        Some((Status::Differs(0), Some(Witness { inputs, outputs, shown }), Some(g)))
    }

    /// The row each joint table fires in a leaf, read off the leaf (0-based).
    fn fired(&self, leaf: &Leaf) -> Result<Vec<usize>, Stop> {
        let jp = self.jp;
        let mut values: Vec<Option<Value>> = vec![None; jp.vars.len()];
        let mut rows = vec![usize::MAX; jp.tables.len()];
        for step in &jp.order {
            let Step::Table(t) = *step else { continue };
            let table = &jp.tables[t];
            let (start, end) = (self.row_start[t], self.row_start[t + 1]);
            let from = leaf.rows.partition_point(|&r| (r as usize) < start);
            let mut cands: Vec<usize> =
                leaf.rows[from..].iter().take_while(|&&r| (r as usize) < end).map(|&r| r as usize - start).collect();
            if table.policy == Policy::Priority {
                let order = table.precedence();
                cands.sort_by_key(|&r| order.iter().position(|&q| q == r));
            }
            let mut cands = cands.into_iter();
            let holds = |r: usize| {
                table.conds.iter().enumerate().all(|(c, &v)| {
                    self.axis_of[v].is_some()
                        || values[v].as_ref().is_some_and(|x| eval::cell_holds(&table.rows[r].conds[c], x))
                })
            };
            let Some(first) = cands.by_ref().find(|&r| holds(r)) else { return Err(Stop::Gap) };
            if table.policy == Policy::Unique && cands.any(holds) {
                return Err(Stop::Ambiguous);
            }
            rows[t] = first;
            for (i, &v) in table.results.iter().enumerate() {
                if self.determined[v] {
                    values[v] = Some(match &table.rows[first].results[i] {
                        None => Value::None,
                        Some(TExpr { kind: TExprKind::Const(c), .. }) => eval::stored(jp, v, c.clone()),
                        Some(_) => unreachable!("a determined value has constant cells"),
                    });
                }
            }
        }
        Ok(rows)
    }

    /// The values of version `p` the leaf fixes: inputs and derived columns held to one
    /// value by it, and everything computed from those alone.
    fn known(
        &self,
        p: &Program,
        to_joint: &dyn Fn(VarId) -> VarId,
        rows: &[usize],
        ranges: &[(u32, u32)],
    ) -> Vec<Option<Value>> {
        let mut k: Vec<Option<Value>> = vec![None; p.vars.len()];
        for (v, var) in p.vars.iter().enumerate() {
            let jv = to_joint(v);
            if let Some(a) = self.axis_of[jv] {
                let (lo, hi) = ranges[a];
                if lo == hi && single(&self.axes[a].coords[lo as usize]) {
                    k[v] = Plain::of(self.jp, &self.jp.vars[jv], &self.axes[a].reps[lo as usize]).value_in(p, var);
                }
            }
        }
        let eval_known = |e: &TExpr, k: &[Option<Value>], var: VarId| -> Option<Value> {
            let mut read = Vec::new();
            crate::sema::collect_vars(e, &mut read);
            if read.iter().any(|&r| k[r].is_none()) {
                return None;
            }
            let values: Vec<Value> = k.iter().map(|x| x.clone().unwrap_or(Value::None)).collect();
            eval::eval_expr(e, &values).ok().map(|x| eval::stored(p, var, x))
        };
        for step in &p.order {
            match *step {
                // A rule with walks is refused before a region is looked for.
                Step::Walk(_) => {}
                Step::Define(d) => {
                    let def = &p.defines[d];
                    if k[def.var].is_none() {
                        k[def.var] = eval_known(&def.expr, &k, def.var);
                    }
                }
                Step::Table(t) => {
                    let table = &p.tables[t];
                    for (i, &v) in table.results.iter().enumerate() {
                        if k[v].is_some() {
                            continue;
                        }
                        k[v] = match &table.rows[rows[t]].results[i] {
                            None => Some(Value::None),
                            Some(e) => eval_known(e, &k, v),
                        };
                    }
                }
            }
        }
        k
    }

    /// Whether joint values lie in a leaf.
    fn in_leaf(&self, values: &[Value], ranges: &[(u32, u32)]) -> bool {
        self.axes
            .iter()
            .zip(ranges)
            .all(|(a, &(lo, hi))| a.coord_of(&values[a.var]).is_some_and(|c| c >= lo as usize && c <= hi as usize))
    }

    /// Both versions' answers at joint inputs in the leaf, each read by its own door.
    fn answers(&self, inputs: &[Value], ranges: &[(u32, u32)], finder: &Finder) -> Option<(Outcome, Outcome)> {
        let left = self.probes.get();
        if left == 0 {
            return None;
        }
        self.probes.set(left - 1);
        let values = finder.confirm(self.region_table, inputs)?;
        if !self.in_leaf(&values, ranges) {
            return None;
        }
        let o = self.version_answer(self.old, &|v| self.joint.old_var[v], inputs)?;
        let n = self.version_answer(self.new, &|v| v, inputs)?;
        Some((o, n))
    }

    fn version_answer(&self, p: &Program, to_joint: &dyn Fn(VarId) -> VarId, inputs: &[Value]) -> Option<Outcome> {
        let mut obj = Map::new();
        for &v in &p.inputs {
            let jv = to_joint(v);
            let at = self.jp.inputs.iter().position(|&x| x == jv)?;
            let x = Plain::of(self.jp, &self.jp.vars[jv], &inputs[at]);
            if x != Plain::None {
                obj.insert(p.vars[v].name.clone(), x.wire(&p.vars[v]));
            }
        }
        let read = wire::read_inputs(p, &Json::Object(obj)).ok()?;
        eval::evaluate(p, &read).ok()
    }

    fn differ(&self, o: &Outcome, n: &Outcome) -> bool {
        self.outputs.iter().any(|&(ov, nv)| {
            Plain::of(self.old, &self.old.vars[ov], &o.values[ov])
                != Plain::of(self.new, &self.new.vars[nv], &n.values[nv])
        })
    }

    fn search(&self, seed: u64) -> Search<'_> {
        Search { attempts: ATTEMPTS, seed, door: true, allowance: &self.probes, hint: None }
    }

    /// Any input of the leaf both versions answer (the leaf's move is fixed).
    fn any_point(&self, i: usize, finder: &Finder, seed: u64) -> Found {
        let ranges = &self.cover.leaves[i].ranges;
        let goal = |values: &[Value]| self.in_leaf(values, ranges);
        if let Some(f) = finder.find(self.region_table, ranges, &goal, self.search(seed)) {
            if let Some((o, n)) = self.answers(&f.inputs, ranges, finder) {
                return Found::Point(f.inputs, o, n);
            }
        }
        for s in self.suites() {
            if let Some((o, n)) = self.answers(s, ranges, finder) {
                return Found::Point(s.clone(), o, n);
            }
        }
        Found::Nothing
    }

    /// An input of the leaf where the versions' answers differ; `NoneDiffer` when every input
    /// the leaf admits was tried.
    fn differing_point(&self, i: usize, finder: &Finder, seed: u64) -> Found {
        let ranges = &self.cover.leaves[i].ranges;
        let check = |inputs: &[Value]| -> Option<Found> {
            let (o, n) = self.answers(inputs, ranges, finder)?;
            self.differ(&o, &n).then(|| Found::Point(inputs.to_vec(), o, n))
        };
        let goal = |values: &[Value]| {
            let inputs: Vec<Value> = self.jp.inputs.iter().map(|&v| values[v].clone()).collect();
            self.in_leaf(values, ranges)
                && matches!(
                    (self.version_answer(self.old, &|v| self.joint.old_var[v], &inputs), self.version_answer(self.new, &|v| v, &inputs)),
                    (Some(o), Some(n)) if self.differ(&o, &n)
                )
        };
        if let Some(f) = finder.find(self.region_table, ranges, &goal, self.search(seed)) {
            if let Some(found) = check(&f.inputs) {
                return found;
            }
        }
        for s in self.suites() {
            if let Some(found) = check(s) {
                return found;
            }
        }
        // A point of the leaf to vary from.
        let in_leaf = |values: &[Value]| self.in_leaf(values, ranges);
        let Some(base) = finder.find(self.region_table, ranges, &in_leaf, self.search(seed ^ 0x5eed)) else {
            return Found::Nothing;
        };
        // The inputs the outputs read, each with the values it can take here; one that cannot
        // be listed (a string) keeps the leaf from being tried whole.
        let mut free: Vec<(usize, Dom)> = Vec::new();
        let mut listed = true;
        for (at, &v) in self.jp.inputs.iter().enumerate() {
            if !self.read[v] {
                continue;
            }
            match self.dom(v, ranges) {
                Some(d) if d.count() == Some(1) => {}
                Some(d) => free.push((at, d)),
                None => listed = false,
            }
        }
        let total =
            free.iter().try_fold(1u64, |acc, (_, d)| d.count().and_then(|c| acc.checked_mul(c))).filter(|_| listed);
        if let Some(total) = total.filter(|&t| t <= EXHAUSTIVE) {
            // Every input the leaf admits, over what the outputs read: settled either way.
            let mut point = base.inputs.clone();
            for mut idx in 0..total {
                for (at, d) in &free {
                    let c = d.count().expect("finite");
                    point[*at] = d.nth(idx % c);
                    idx /= c;
                }
                if let Some(found) = check(&point) {
                    return found;
                }
                if self.probes.get() == 0 {
                    return Found::Nothing;
                }
            }
            return Found::NoneDiffer;
        }
        let mut rng = SplitMix(seed.wrapping_mul(0x9e37_79b9) ^ 0x7265_6769_6f6e);
        for _ in 0..RANDOM {
            let mut point = base.inputs.clone();
            for (at, d) in &free {
                point[*at] = d.random(&mut rng);
            }
            if let Some(found) = check(&point) {
                return found;
            }
        }
        for (at, d) in &free {
            for j in 0..SCAN {
                for from_top in [false, true] {
                    let mut point = base.inputs.clone();
                    match d.scan(j, from_top) {
                        Some(x) => point[*at] = x,
                        None => continue,
                    }
                    if let Some(found) = check(&point) {
                        return found;
                    }
                }
            }
        }
        Found::Nothing
    }

    /// The boundary suites of both versions, as joint inputs (built the first time a leaf
    /// needs them).
    fn suites(&self) -> &[Vec<Value>] {
        self.suites.get_or_init(|| {
            let mut out = Vec::new();
            for p in [self.new, self.old] {
                for v in crate::vectors::build(p).vectors {
                    if !matches!(v.answer, crate::vectors::Answer::Record { .. }) {
                        continue;
                    }
                    let Json::Object(m) = &v.input else { continue };
                    let mut obj = Map::new();
                    for &jv in &self.jp.inputs {
                        let jvar = &self.jp.vars[jv];
                        let (Some(raw), Some(pv)) = (m.get(&jvar.name), p.var_by_name(&jvar.name)) else { continue };
                        if let Ok(x) = super::records::convert(p, &p.vars[pv], jvar, raw) {
                            obj.insert(jvar.name.clone(), x);
                        }
                    }
                    if let Ok(inputs) = wire::read_inputs(self.jp, &Json::Object(obj)) {
                        out.push(inputs);
                    }
                }
            }
            out
        })
    }

    /// The values a joint input can take in a leaf.
    fn dom(&self, v: VarId, ranges: &[(u32, u32)]) -> Option<Dom> {
        let var = &self.jp.vars[v];
        let mut d = Dom { lo: None, hi: None, step: None, extra: Vec::new() };
        match self.axis_of[v] {
            Some(k) => {
                let axis = &self.axes[k];
                let (a, b) = ranges[k];
                let last_numeric = (b as usize).min(axis.numeric.saturating_sub(1));
                if (a as usize) < axis.numeric {
                    match &axis.step {
                        Some(s) => {
                            let lo = axis.coords[a as usize].numeric_bounds()?.0?.at;
                            let hi = axis.coords[last_numeric].numeric_bounds()?.1?.at;
                            d.lo = Some(lo);
                            d.hi = Some(hi);
                            d.step = Some(s.clone());
                        }
                        None => d.extra.extend((a as usize..=last_numeric).map(|i| axis.reps[i].clone())),
                    }
                }
                for i in (a as usize).max(axis.numeric)..=b as usize {
                    d.extra.push(axis.reps[i].clone());
                }
            }
            None => match (&var.ty, &var.range) {
                (Ty::Bool, _) => d.extra.extend([Value::Bool(false), Value::Bool(true)]),
                (Ty::Enum(e), r) => {
                    let (lo, hi) = match r {
                        Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                        _ => (0, self.jp.enums[*e].values.len() as u32 - 1),
                    };
                    d.extra.extend((lo..=hi).map(Value::Enum));
                }
                (_, Some((Value::Num(lo), Value::Num(hi)))) => {
                    d.lo = Some(lo.clone());
                    d.hi = Some(hi.clone());
                    d.step = Some(var_step(self.jp, v)?);
                }
                _ => return None,
            },
        }
        if var.optional && !d.extra.contains(&Value::None) && self.axis_of[v].is_none() {
            d.extra.push(Value::None);
        }
        Some(d)
    }
}

enum Stop {
    /// A table has no row in the leaf.
    Gap,
    /// Two rows of a `unique` table take the leaf (a pair the check could not part).
    Ambiguous,
}

enum Found {
    Point(Vec<Value>, Outcome, Outcome),
    /// Every input the leaf admits was tried: the answers never differ.
    NoneDiffer,
    Nothing,
}

/// The values of one input in a leaf: grid points from `lo` to `hi`, then `extra`.
struct Dom {
    lo: Option<Rat>,
    hi: Option<Rat>,
    step: Option<Rat>,
    extra: Vec<Value>,
}

impl Dom {
    fn points(&self) -> Option<BigUint> {
        match (&self.lo, &self.hi, &self.step) {
            (Some(lo), Some(hi), Some(s)) => {
                let first = (lo / s).ceil();
                let last = (hi / s).floor();
                if first > last {
                    return Some(BigUint::zero());
                }
                (last - first + Rat::one()).to_integer().to_biguint()
            }
            (None, None, _) => Some(BigUint::zero()),
            _ => None,
        }
    }
    fn count(&self) -> Option<u64> {
        (self.points()? + BigUint::from(self.extra.len())).to_u64()
    }
    fn nth(&self, i: u64) -> Value {
        let n = self.points().and_then(|p| p.to_u64()).unwrap_or(u64::MAX);
        if i < n {
            let s = self.step.as_ref().expect("a numeric domain has a step");
            let first = (self.lo.as_ref().expect("bounded") / s).ceil();
            Value::Num((first + num::int(i as i64)) * s)
        } else {
            self.extra[(i - n) as usize].clone()
        }
    }
    /// A value drawn at random (past u64 of them, among the first 2^64).
    fn random(&self, rng: &mut SplitMix) -> Value {
        let n = self.count().unwrap_or(u64::MAX).max(1);
        self.nth(rng.next_u64() % n)
    }
    /// The j-th value from the bottom (or the top) of the numeric part.
    fn scan(&self, j: u64, from_top: bool) -> Option<Value> {
        let (lo, hi, s) = (self.lo.as_ref()?, self.hi.as_ref()?, self.step.as_ref()?);
        let (first, last) = ((lo / s).ceil(), (hi / s).floor());
        let k = if from_top { &last - num::int(j as i64) } else { &first + num::int(j as i64) };
        (k >= first && k <= last).then(|| Value::Num(k * s))
    }
}

/// Mark the joint inputs variable `v` reads, through everything that decides it.
fn reads(p: &Program, v: VarId, out: &mut [bool]) {
    let mut seen = vec![false; p.vars.len()];
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        match p.vars[x].decided_by {
            None if p.vars[x].kind == VarKind::Input => out[x] = true,
            None | Some(Decider::Summary(_) | Decider::Fold(_)) => {}
            Some(Decider::Define(d)) => crate::sema::collect_vars(&p.defines[d].expr, &mut stack),
            Some(Decider::Table(t)) => {
                let table = &p.tables[t];
                stack.extend(&table.conds);
                for r in &table.rows {
                    for e in r.results.iter().flatten() {
                        crate::sema::collect_vars(e, &mut stack);
                    }
                }
            }
        }
    }
}

/// Whether an output is computed the same way in both versions on a leaf: through the rows
/// that fire there, the same expression over the same inputs (or the same value, where the
/// leaf fixes it).
struct Sym<'a> {
    old: &'a Program,
    new: &'a Program,
    old_rows: &'a [usize],
    new_rows: &'a [usize],
    ko: &'a [Option<Value>],
    kn: &'a [Option<Value>],
    memo: HashMap<(VarId, VarId), bool>,
}

impl Sym<'_> {
    fn same_var(&mut self, o: VarId, n: VarId) -> bool {
        if let Some(&x) = self.memo.get(&(o, n)) {
            return x;
        }
        self.memo.insert((o, n), false);
        let (ov, nv) = (&self.old.vars[o], &self.new.vars[n]);
        let x = match (&self.ko[o], &self.kn[n]) {
            (Some(a), Some(b)) => Plain::of(self.old, ov, a) == Plain::of(self.new, nv, b),
            _ => match (ov.decided_by, nv.decided_by) {
                (None, None) => ov.name == nv.name && ov.kind == VarKind::Input && nv.kind == VarKind::Input,
                (Some(Decider::Define(a)), Some(Decider::Define(b))) => {
                    let (ea, eb) = (&self.old.defines[a].expr, &self.new.defines[b].expr);
                    same_rounding(ov, ea, nv, eb) && self.same_expr(ea, eb)
                }
                (Some(Decider::Table(a)), Some(Decider::Table(b))) => {
                    let (ta, tb) = (&self.old.tables[a], &self.new.tables[b]);
                    let (Some(ca), Some(cb)) =
                        (ta.results.iter().position(|&r| r == o), tb.results.iter().position(|&r| r == n))
                    else {
                        return false;
                    };
                    match (&ta.rows[self.old_rows[a]].results[ca], &tb.rows[self.new_rows[b]].results[cb]) {
                        (None, None) => true,
                        (Some(ea), Some(eb)) => same_rounding(ov, ea, nv, eb) && self.same_expr(ea, eb),
                        _ => false,
                    }
                }
                _ => false,
            },
        };
        self.memo.insert((o, n), x);
        x
    }

    fn fixed(&self, e: &TExpr, known: &[Option<Value>], p: &Program) -> Option<Plain> {
        let mut read = Vec::new();
        crate::sema::collect_vars(e, &mut read);
        if read.iter().any(|&r| known[r].is_none()) {
            return None;
        }
        let values: Vec<Value> = known.iter().map(|x| x.clone().unwrap_or(Value::None)).collect();
        let v = eval::eval_expr(e, &values).ok()?;
        Some(Plain::of_ty(p, &e.ty, &v))
    }

    fn same_expr(&mut self, a: &TExpr, b: &TExpr) -> bool {
        if let (Some(x), Some(y)) = (self.fixed(a, self.ko, self.old), self.fixed(b, self.kn, self.new)) {
            return x == y;
        }
        use TExprKind::*;
        match (&a.kind, &b.kind) {
            (Const(x), Const(y)) => Plain::of_ty(self.old, &a.ty, x) == Plain::of_ty(self.new, &b.ty, y),
            (Var(x), Var(y)) => self.same_var(*x, *y),
            (Neg(x), Neg(y)) | (Not(x), Not(y)) | (Isqrt(x), Isqrt(y)) => self.same_expr(x, y),
            (Arith(o, x1, x2), Arith(p, y1, y2)) => o == p && self.same_expr(x1, y1) && self.same_expr(x2, y2),
            (Cmp(o, x1, x2), Cmp(p, y1, y2)) => o == p && self.same_expr(x1, y1) && self.same_expr(x2, y2),
            (And(x1, x2), And(y1, y2)) | (Or(x1, x2), Or(y1, y2)) | (Mod(x1, x2), Mod(y1, y2)) => {
                self.same_expr(x1, y1) && self.same_expr(x2, y2)
            }
            (Min(xs), Min(ys)) | (Max(xs), Max(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.same_expr(x, y))
            }
            (Round { value: x, mode: m, grid: g }, Round { value: y, mode: n, grid: h }) => {
                // A rounding of a value already on its grid is no rounding at all.
                let idle = |e: &TExpr, g: &Rat| e.grid.fits(g);
                g == h && (m == n || (idle(x, g) && idle(y, h))) && self.same_expr(x, y)
            }
            (Round { value: x, grid: g, .. }, _) if x.grid.fits(g) => self.same_expr(x, b),
            (_, Round { value: y, grid: h, .. }) if y.grid.fits(h) => self.same_expr(a, y),
            (If { cond: c1, then: t1, els: e1 }, If { cond: c2, then: t2, els: e2 }) => {
                self.same_expr(c1, c2) && self.same_expr(t1, t2) && self.same_expr(e1, e2)
            }
            (In { var: v, values: xs }, In { var: w, values: ys }) => {
                let ty_o = &self.old.vars[*v].ty;
                let ty_n = &self.new.vars[*w].ty;
                let mut px: Vec<Plain> = xs.iter().map(|x| Plain::of_ty(self.old, ty_o, x)).collect();
                let mut py: Vec<Plain> = ys.iter().map(|y| Plain::of_ty(self.new, ty_n, y)).collect();
                px.sort();
                py.sort();
                px == py && self.same_var(*v, *w)
            }
            _ => false,
        }
    }
}

/// Whether two stores round the same way (a rounding of a value already on the grid counts
/// as none).
fn same_rounding(a: &Var, ea: &TExpr, b: &Var, eb: &TExpr) -> bool {
    let eff =
        |v: &Var, e: &TExpr| v.rounding.as_ref().filter(|r| !e.grid.fits(&r.grid)).map(|r| (r.mode, r.grid.clone()));
    eff(a, ea) == eff(b, eb)
}

impl Decided {
    fn into_region(self, r: &mut Region) {
        let Decided { cover, status, witness, groups, exhausted } = self;
        r.over_budget = exhausted;
        let nleaves = cover.leaves.len();
        for (leaf, s) in cover.leaves.iter().zip(&status) {
            let c = cells_of(&leaf.ranges);
            match s {
                Status::Infeasible => {}
                Status::Same => {
                    r.same += &c;
                    r.feasible += &c;
                }
                Status::Differs(_) => {
                    r.differing += &c;
                    r.feasible += &c;
                }
                Status::Unsettled => {
                    r.unsettled += &c;
                    r.feasible += &c;
                }
                Status::Unrealized => {
                    r.unrealized += &c;
                    r.feasible += &c;
                }
            }
        }
        // Groups for boxes: the differing groups, then the two kinds of unknown.
        let unsettled_group = groups.len();
        let unrealized_group = groups.len() + 1;
        let class: Vec<Class> = status
            .iter()
            .map(|s| match s {
                Status::Infeasible => Class::Empty,
                Status::Same => Class::Blocked,
                Status::Differs(g) => Class::Pure(*g),
                Status::Unsettled => Class::Pure(unsettled_group),
                Status::Unrealized => Class::Pure(unrealized_group),
            })
            .collect();
        let full: Vec<(u32, u32)> = r.axes.iter().map(|a| (0, a.len() as u32 - 1)).collect();
        let derived_first: Vec<usize> = {
            let mut ks: Vec<usize> = (0..r.axes.len()).collect();
            ks.sort_by_key(|&k| (r.axes[k].kind == AxisKind::Input, k));
            ks
        };
        let boxes = boxes(&cover, &class, &full, &derived_first);
        for b in boxes {
            let inside: Vec<usize> = (0..nleaves)
                .filter(|&i| class[i] == Class::Pure(b.group) && meets(&cover.leaves[i].ranges, &b.ranges))
                .collect();
            let cells = inside
                .iter()
                .fold(BigUint::zero(), |acc, &i| acc + cells_of(&overlap(&cover.leaves[i].ranges, &b.ranges)));
            if b.group < groups.len() {
                let Some(w) = inside.iter().find_map(|&i| witness[i].clone()) else { continue };
                r.changes.push(Change { ranges: b.ranges, group: b.group, witness: w, cells });
            } else {
                r.unknown.push(Unknown { ranges: b.ranges, unrealized: b.group == unrealized_group, cells });
            }
        }
        r.groups = groups;
    }
}

fn meets(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter().zip(b).all(|(&(s, e), &(t, f))| s <= f && t <= e)
}

fn overlap(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    a.iter().zip(b).map(|(&(s, e), &(t, f))| (s.max(t), e.min(f))).collect()
}

/// How a leaf takes part in boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// No input lands here: any box may cover it.
    Empty,
    /// Nothing moves here: no box may cover it.
    Blocked,
    Pure(usize),
}

/// The boxes of every group: maximal subtrees of one group, merged where they touch,
/// widened over whole columns where that adds nothing of another class.
fn boxes(cover: &Cover, class: &[Class], full: &[(u32, u32)], widen_order: &[usize]) -> Vec<Boxed> {
    // Per node, the class of everything under it.
    let n = cover.nodes.len();
    let mut summary = vec![None::<Option<Class>>; n];
    fn sum(cover: &Cover, class: &[Class], i: usize, summary: &mut Vec<Option<Option<Class>>>) -> Option<Class> {
        // Some(Empty) all empty; Some(Pure(g)) one group; None mixed or blocked.
        let s = match &cover.nodes[i] {
            Node::Leaf(l) => match class[*l as usize] {
                Class::Blocked => None,
                c => Some(c),
            },
            Node::Split { lo, hi, .. } => {
                let a = sum(cover, class, *lo as usize, summary);
                let b = sum(cover, class, *hi as usize, summary);
                match (a, b) {
                    (Some(Class::Empty), x) | (x, Some(Class::Empty)) => x,
                    (Some(x), Some(y)) if x == y => Some(x),
                    _ => None,
                }
            }
        };
        summary[i] = Some(s);
        s
    }
    if n == 0 {
        return Vec::new();
    }
    sum(cover, class, 0, &mut summary);
    let mut out: Vec<Boxed> = Vec::new();
    let mut stack: Vec<(usize, Vec<(u32, u32)>)> = vec![(0, full.to_vec())];
    while let Some((i, ranges)) = stack.pop() {
        match summary[i].expect("every node summed") {
            Some(Class::Pure(g)) => out.push(Boxed { group: g, ranges }),
            Some(_) => {}
            None => {
                if let Node::Split { axis, at, lo, hi } = cover.nodes[i] {
                    let (a, b) = ranges[axis as usize];
                    let mut l = ranges.clone();
                    l[axis as usize] = (a, at - 1);
                    let mut h = ranges;
                    h[axis as usize] = (at, b);
                    stack.push((hi as usize, h));
                    stack.push((lo as usize, l));
                }
            }
        }
    }
    merge(&mut out);
    // Widen each box over whole columns where nothing of another class lies.
    let allowed = |g: usize, query: &[(u32, u32)]| -> bool {
        let mut stack: Vec<(usize, Vec<(u32, u32)>)> = vec![(0, full.to_vec())];
        while let Some((i, ranges)) = stack.pop() {
            if !meets(&ranges, query) {
                continue;
            }
            match summary[i].expect("every node summed") {
                Some(Class::Empty) => continue,
                Some(Class::Pure(h)) if h == g => continue,
                Some(_) if matches!(cover.nodes[i], Node::Leaf(_)) => return false,
                _ => {}
            }
            match cover.nodes[i] {
                Node::Leaf(_) => return false,
                Node::Split { axis, at, lo, hi } => {
                    let (a, b) = ranges[axis as usize];
                    let mut l = ranges.clone();
                    l[axis as usize] = (a, at - 1);
                    let mut h = ranges;
                    h[axis as usize] = (at, b);
                    stack.push((lo as usize, l));
                    stack.push((hi as usize, h));
                }
            }
        }
        true
    };
    for b in out.iter_mut() {
        for &k in widen_order {
            if b.ranges[k] == full[k] {
                continue;
            }
            let mut wide = b.ranges.clone();
            wide[k] = full[k];
            if allowed(b.group, &wide) {
                b.ranges = wide;
            }
        }
    }
    // A box inside another of its group says nothing more.
    let mut kept: Vec<Boxed> = Vec::new();
    for b in &out {
        let inside = |c: &Boxed| {
            c.group == b.group && c != b && c.ranges.iter().zip(&b.ranges).all(|(&(s, e), &(t, f))| s <= t && f <= e)
        };
        if !out.iter().any(inside) && !kept.contains(b) {
            kept.push(b.clone());
        }
    }
    merge(&mut kept);
    kept.sort_by(|a, b| a.group.cmp(&b.group).then(a.ranges.cmp(&b.ranges)));
    kept
}

/// Merge boxes of one group that differ on one column only and touch along it.
fn merge(bs: &mut Vec<Boxed>) {
    let axes = bs.first().map_or(0, |b| b.ranges.len());
    loop {
        let mut changed = false;
        for k in 0..axes {
            bs.sort_by(|a, b| {
                let key = |x: &Boxed| {
                    (
                        x.group,
                        x.ranges.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, r)| *r).collect::<Vec<_>>(),
                        x.ranges[k],
                    )
                };
                key(a).cmp(&key(b))
            });
            let mut out: Vec<Boxed> = Vec::with_capacity(bs.len());
            for b in bs.drain(..) {
                if let Some(last) = out.last_mut() {
                    let same_rest = last.group == b.group
                        && last.ranges.iter().zip(&b.ranges).enumerate().all(|(j, (x, y))| j == k || x == y);
                    if same_rest && last.ranges[k].1 + 1 >= b.ranges[k].0 {
                        last.ranges[k].1 = last.ranges[k].1.max(b.ranges[k].1);
                        changed = true;
                        continue;
                    }
                }
                out.push(b);
            }
            *bs = out;
        }
        if !changed {
            break;
        }
    }
}

impl Region {
    /// Whether the answer is complete: nothing unsettled or unrealized, within budget.
    pub fn total(&self) -> bool {
        !self.over_budget && self.unsettled.is_zero() && self.unrealized.is_zero()
    }

    /// The change whose box holds this call (in the new version's wire form, with any input
    /// only the old version has), if any: what `tests/vdiff.rs` holds records to.
    pub fn locate(&self, input: &Json) -> Option<usize> {
        let jp = &self.joint.p;
        let inputs = wire::read_inputs(jp, input).ok()?;
        let values = eval::values_before(jp, &inputs, self.region_table).ok()?;
        let at: Vec<usize> = self.axes.iter().map(|a| a.coord_of(&values[a.var])).collect::<Option<_>>()?;
        self.changes
            .iter()
            .position(|c| c.ranges.iter().zip(&at).all(|(&(lo, hi), &i)| i >= lo as usize && i <= hi as usize))
    }

    /// The witness of a change, in the wire form of the joint inputs.
    pub fn witness_json(&self, change: usize) -> Json {
        let jp = &self.joint.p;
        let mut m = Map::new();
        for (&v, x) in jp.inputs.iter().zip(&self.changes[change].witness.inputs) {
            m.insert(jp.vars[v].name.clone(), Plain::of(jp, &jp.vars[v], x).wire(&jp.vars[v]));
        }
        Json::Object(m)
    }

    pub fn to_json(&self) -> Json {
        let n = |x: &BigUint| serde_json::from_str::<Json>(&x.to_string()).expect("an integer");
        let rows = |rs: &[(String, usize)]| -> Json {
            Json::Array(rs.iter().map(|(t, r)| json!({"table": t, "row": r})).collect())
        };
        let changes: Vec<Json> = self
            .changes
            .iter()
            .map(|c| {
                let g = &self.groups[c.group];
                let jp = &self.joint.p;
                let mut witness: Vec<(String, String)> = jp
                    .inputs
                    .iter()
                    .zip(&c.witness.inputs)
                    .map(|(&v, x)| (jp.vars[v].name.clone(), Plain::of(jp, &jp.vars[v], x).wire_text(&jp.vars[v])))
                    .collect();
                witness.sort();
                json!({"region": self.columns_json(&c.ranges), "text": self.box_text(&c.ranges),
                       "outputs": c.witness.outputs.iter().map(|(o, a, b)| json!({"output": o, "old": a, "new": b})).collect::<Vec<_>>(),
                       "uniform": g.uniform, "old_rows": rows(&g.old_rows), "new_rows": rows(&g.new_rows),
                       "witness": witness.iter().map(|(k, v)| json!({"input": k, "value": v})).collect::<Vec<_>>(),
                       "cells": n(&c.cells)})
            })
            .collect();
        let unknown: Vec<Json> = self
            .unknown
            .iter()
            .map(|u| {
                json!({"region": self.columns_json(&u.ranges), "text": self.box_text(&u.ranges),
                       "why": if u.unrealized { "unrealized" } else { "unsettled" }, "cells": n(&u.cells)})
            })
            .collect();
        json!({"rule": self.rule, "old": self.old, "new": self.new,
               "old_version": self.old_version.to_string(), "new_version": self.new_version.to_string(),
               "over_budget": self.over_budget, "total": self.total(),
               "cells": n(&self.cells), "feasible": n(&self.feasible), "same": n(&self.same),
               "differing": n(&self.differing), "unsettled": n(&self.unsettled), "unrealized": n(&self.unrealized),
               "domain": self.domain, "changes": changes, "unknown": unknown, "machine": null})
    }
}
