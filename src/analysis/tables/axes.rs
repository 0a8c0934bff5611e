//! Axes and boxes (language.md §6): one axis per condition column, cut into coordinates
//! so that every cell of the column is true on a whole coordinate or false on all of it,
//! and each row read as a box — per axis, the coordinates its cell accepts.
//!
//! Coordinates of an axis, by the column's type:
//! - a number on a known grid (every input that is an integer in its unit — int, money,
//!   quantities, rates — dates, and derived values on a grid): closed intervals of grid
//!   points, cut at every literal any cell compares with, reasoning over the integers of
//!   the grid (`<=9` / `>=10` leave nothing between them);
//! - a number with no known grid (a quotient): points at every literal and the open
//!   intervals between them;
//! - an enum: its positions (an ordered enum input: those inside its declared range);
//!   a boolean: `false`, `true`; a string: every literal a cell names, then one class for
//!   every other string;
//! - a value decided by a table whose result cells are all constants: the values those
//!   rows produce (points), whatever its type;
//! - an optional column (or a table that can produce none): `none`, always last.
//!
//! Numeric coordinates come first, in ascending order, so a bound or an interval of values
//! is a run of consecutive coordinate indices.

use crate::eval::{self, cell_holds};
use crate::num::{int, Rat};
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// Whether a column is read from the caller or computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisKind {
    Input,
    Derived,
}

impl AxisKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AxisKind::Input => "input",
            AxisKind::Derived => "derived",
        }
    }
}

/// One end of an interval of true values: the value, and whether it is excluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub at: Rat,
    pub open: bool,
}

/// One end of a numeric coordinate, borrowed: the value and whether it is excluded; none when unbounded.
pub type EndRef<'a> = Option<(&'a Rat, bool)>;

/// A coordinate: a set of values of the column on which every cell of the column is constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coord {
    /// The absent value of an optional.
    None,
    /// One value: an enum position, a boolean, a string a cell names, a number a table produces.
    Value(Value),
    /// Every string no cell of the column names.
    OtherString,
    /// The numbers between two ends (base units; a missing end is unbounded). On an axis with
    /// a grid, both ends are grid points and closed.
    Interval { lo: Option<End>, hi: Option<End> },
}

impl Coord {
    /// The ends of a numeric coordinate, borrowed: `(value, open)`, none when unbounded.
    pub fn ends(&self) -> Option<(EndRef<'_>, EndRef<'_>)> {
        match self {
            Coord::Interval { lo, hi } => {
                Some((lo.as_ref().map(|e| (&e.at, e.open)), hi.as_ref().map(|e| (&e.at, e.open))))
            }
            Coord::Value(Value::Num(n)) => Some((Some((n, false)), Some((n, false)))),
            _ => None,
        }
    }

    /// The coordinate as a closed or half-open interval of numbers, when it is numeric.
    pub fn numeric_bounds(&self) -> Option<(Option<End>, Option<End>)> {
        match self {
            Coord::Interval { lo, hi } => Some((lo.clone(), hi.clone())),
            Coord::Value(Value::Num(n)) => {
                Some((Some(End { at: n.clone(), open: false }), Some(End { at: n.clone(), open: false })))
            }
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Axis {
    /// The position of the column among the table's condition columns.
    pub column: usize,
    pub var: VarId,
    pub kind: AxisKind,
    /// For a numeric axis with a grid: the grid step in base units.
    pub step: Option<Rat>,
    pub coords: Vec<Coord>,
    /// One value inside each coordinate (what cells are evaluated on; where witnesses start).
    pub reps: Vec<Value>,
    /// How many leading coordinates are numeric (intervals or numeric points), ascending.
    pub numeric: usize,
    /// The axis takes every value of its column's domain only through these coordinates:
    /// a value decided by a table is limited to what its rows produce.
    pub produced: bool,
    /// When every numeric coordinate is a closed interval of whole numbers (ends unbounded
    /// allowed) and every representative is whole: per numeric coordinate its ends and its
    /// representative as machine integers, so a table of many rows is read with integer
    /// comparisons.
    pub keys: Option<Vec<Key>>,
}

/// A numeric coordinate in machine integers: its ends (`i128::MIN`/`MAX` when unbounded)
/// and its representative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub lo: i128,
    pub hi: i128,
    pub rep: i128,
}

/// A whole number that fits a machine integer.
fn small(x: &Rat) -> Option<i128> {
    if x.is_integer() {
        i128::try_from(x.numer()).ok()
    } else {
        None
    }
}

impl Axis {
    pub fn len(&self) -> usize {
        self.coords.len()
    }
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The coordinate a value of the column lies in (none when the value is outside the axis's domain).
    pub fn coord_of(&self, v: &Value) -> Option<usize> {
        match v {
            Value::Num(n) if self.numeric > 0 => {
                if let (Some(keys), Some(x)) = (&self.keys, small(n)) {
                    let i = keys.partition_point(|k| k.rep <= x);
                    return [i.checked_sub(1), Some(i)]
                        .into_iter()
                        .flatten()
                        .find(|&i| i < keys.len() && keys[i].lo <= x && x <= keys[i].hi);
                }
                // The last numeric coordinate whose representative is <= n, or the first.
                let i = self.reps[..self.numeric].partition_point(|r| match r {
                    Value::Num(r) => r <= n,
                    _ => false,
                });
                let candidates = [i.checked_sub(1), Some(i)];
                candidates.into_iter().flatten().filter(|&i| i < self.numeric).find(|&i| self.contains(i, n))
            }
            Value::None => self.coords.iter().position(|c| *c == Coord::None),
            Value::Str(_) => self
                .coords
                .iter()
                .position(|c| *c == Coord::Value(v.clone()))
                .or_else(|| self.coords.iter().position(|c| *c == Coord::OtherString)),
            _ => self.coords.iter().position(|c| *c == Coord::Value(v.clone())),
        }
    }

    /// Whether coordinate `i` holds the number `n` (a value of the column: on its grid).
    fn contains(&self, i: usize, n: &Rat) -> bool {
        let Some((lo, hi)) = self.coords[i].ends() else { return false };
        let above = lo.is_none_or(|(at, open)| if open { n > at } else { n >= at });
        let below = hi.is_none_or(|(at, open)| if open { n < at } else { n <= at });
        above && below
    }

    /// The coordinates a cell accepts, as sorted runs of indices `(first, last)` inclusive.
    pub fn accepts(&self, cell: &CondIr) -> Vec<(u32, u32)> {
        let n = self.len() as u32;
        match cell {
            CondIr::Any if n > 0 => vec![(0, n - 1)],
            CondIr::Any => Vec::new(),
            CondIr::Tests { .. } if (self.len() <= 64 && self.keys.is_none()) || !self.fast_path_applies(cell) => {
                self.accepts_by_eval(cell)
            }
            CondIr::Tests { negated, tests } => {
                let mut parts: Vec<(u32, u32)> = Vec::new();
                for t in tests {
                    match t {
                        TestIr::IsNone => {
                            if let Some(i) = self.coords.iter().position(|c| *c == Coord::None) {
                                parts.push((i as u32, i as u32));
                            }
                        }
                        TestIr::OneOf(vs) => {
                            for v in vs {
                                if let Some(i) = self.coord_of(v) {
                                    if self.reps[i] == *v {
                                        parts.push((i as u32, i as u32));
                                    }
                                }
                            }
                        }
                        TestIr::Bounds(bs)
                            if self.keys.is_some()
                                && bs.iter().all(|(_, b)| matches!(b, Value::Num(x) if small(x).is_some())) =>
                        {
                            let keys = self.keys.as_ref().unwrap();
                            let bounds: Vec<(CmpOp, i128)> = bs
                                .iter()
                                .filter_map(|(op, b)| match b {
                                    Value::Num(x) => Some((*op, small(x)?)),
                                    _ => None,
                                })
                                .collect();
                            let holds = |op: CmpOp, r: i128, b: i128| op.holds(r.cmp(&b));
                            let lower = |k: &Key| {
                                bounds
                                    .iter()
                                    .filter(|(op, _)| matches!(op, CmpOp::Gt | CmpOp::Ge))
                                    .all(|&(op, b)| holds(op, k.rep, b))
                            };
                            let upper = |k: &Key| {
                                bounds
                                    .iter()
                                    .filter(|(op, _)| matches!(op, CmpOp::Lt | CmpOp::Le))
                                    .all(|&(op, b)| holds(op, k.rep, b))
                            };
                            let lo = keys.partition_point(|k| !lower(k));
                            let hi = keys.partition_point(upper);
                            if lo < hi {
                                parts.push((lo as u32, hi as u32 - 1));
                            }
                        }
                        TestIr::Bounds(bs) => {
                            let nums = &self.reps[..self.numeric];
                            let lower = |r: &Value| {
                                bs.iter()
                                    .filter(|(op, _)| matches!(op, CmpOp::Gt | CmpOp::Ge))
                                    .all(|(op, b)| op.holds(r.cmp(b)))
                            };
                            let upper = |r: &Value| {
                                bs.iter()
                                    .filter(|(op, _)| matches!(op, CmpOp::Lt | CmpOp::Le))
                                    .all(|(op, b)| op.holds(r.cmp(b)))
                            };
                            let lo = nums.partition_point(|r| !lower(r));
                            let hi = nums.partition_point(upper);
                            if lo < hi {
                                parts.push((lo as u32, hi as u32 - 1));
                            }
                        }
                    }
                }
                parts.sort_unstable();
                let mut merged: Vec<(u32, u32)> = Vec::new();
                for (a, b) in parts {
                    match merged.last_mut() {
                        Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                        _ => merged.push((a, b)),
                    }
                }
                if !*negated {
                    return merged;
                }
                let mut out = Vec::new();
                let mut next = 0u32;
                for (a, b) in merged {
                    if a > next {
                        out.push((next, a - 1));
                    }
                    next = b + 1;
                }
                if next < n {
                    out.push((next, n - 1));
                }
                out
            }
        }
    }

    /// The coordinates a cell accepts, read by evaluating it on each coordinate's value.
    pub fn accepts_by_eval(&self, cell: &CondIr) -> Vec<(u32, u32)> {
        runs((0..self.len()).filter(|&i| cell_holds(cell, &self.reps[i])).map(|i| i as u32))
    }

    /// The binary-search reading of a cell is exact for bounds that are `<`, `<=`, `>`, `>=`
    /// on the numeric coordinates (which are sorted, each constant under every cell).
    fn fast_path_applies(&self, cell: &CondIr) -> bool {
        let CondIr::Tests { tests, .. } = cell else { return true };
        tests.iter().all(|t| match t {
            TestIr::Bounds(bs) => {
                bs.iter().all(|(op, v)| !matches!(op, CmpOp::Eq | CmpOp::Ne) && matches!(v, Value::Num(_)))
            }
            TestIr::OneOf(vs) => vs.iter().all(|v| matches!(v, Value::Num(_) | Value::None)),
            TestIr::IsNone => true,
        })
    }
}

/// Sorted indices as runs of consecutive ones.
pub fn runs(indices: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for i in indices {
        match out.last_mut() {
            Some(last) if last.1 + 1 == i => last.1 = i,
            _ => out.push((i, i)),
        }
    }
    out
}

/// The grid a variable's values lie on, as the typing reads it: an undeclared define's
/// expression grid, a rounded output's rounding grid, else one unit of its type.
pub fn var_step(p: &Program, v: VarId) -> Option<Rat> {
    let var = &p.vars[v];
    if !(var.ty.is_numeric() || var.ty == Ty::Date) {
        return None;
    }
    let grid = match (var.kind, var.decided_by, &var.rounding) {
        (_, _, Some(r)) => Grid::Step(r.grid.clone()),
        (VarKind::Define, Some(Decider::Define(d)), None) if !var.declared => p.defines[d].expr.grid.clone(),
        _ => Grid::Step(var.ty.factor()),
    };
    match grid {
        Grid::Step(s) => Some(s),
        Grid::Zero => Some(var.ty.factor()),
        Grid::Unknown => None,
    }
}

/// The constant results a table gives a variable, once stored (none when some row computes it).
pub fn produced_values(p: &Program, v: VarId) -> Option<Vec<Value>> {
    let d = p.cell_table(v)?;
    let t = &p.tables[d];
    let col = t.results.iter().position(|&r| r == v)?;
    let mut out: Vec<Value> = Vec::new();
    for row in &t.rows {
        let x = match &row.results[col] {
            None => Value::None,
            Some(TExpr { kind: TExprKind::Const(c), .. }) => eval::stored(p, v, c.clone()),
            Some(_) => return None,
        };
        if !out.contains(&x) {
            out.push(x);
        }
    }
    // Numbers ascending, then the rest in a stable order, none last.
    out.sort_by(|a, b| match (a, b) {
        (Value::None, Value::None) => Ordering::Equal,
        (Value::None, _) => Ordering::Greater,
        (_, Value::None) => Ordering::Less,
        _ => a.cmp(b),
    });
    Some(out)
}

fn num(v: &Value) -> Option<&Rat> {
    match v {
        Value::Num(n) => Some(n),
        _ => None,
    }
}

/// Build the axis of one condition column of a table.
pub fn build_axis(p: &Program, table: &TableIr, column: usize) -> Axis {
    let v = table.conds[column];
    let var = &p.vars[v];
    let kind = if var.kind == VarKind::Input { AxisKind::Input } else { AxisKind::Derived };
    let cells: Vec<&CondIr> = table.rows.iter().map(|r| &r.conds[column]).collect();
    let mut axis = Axis {
        column,
        var: v,
        kind,
        step: None,
        coords: Vec::new(),
        reps: Vec::new(),
        numeric: 0,
        produced: false,
        keys: None,
    };
    build_coords(p, v, var, kind, &cells, &mut axis);
    axis.keys = integer_keys(&axis);
    axis
}

/// Every coordinate of an axis, by the column's kind (see the module documentation).
fn build_coords(p: &Program, v: VarId, var: &Var, kind: AxisKind, cells: &[&CondIr], axis: &mut Axis) {
    if kind == AxisKind::Derived {
        if let Some(values) = produced_values(p, v) {
            axis.produced = true;
            for x in values {
                axis.coords.push(match &x {
                    Value::None => Coord::None,
                    _ => Coord::Value(x.clone()),
                });
                if matches!(x, Value::Num(_)) {
                    axis.numeric += 1;
                }
                axis.reps.push(x);
            }
            return;
        }
    }
    match &var.ty {
        Ty::Bool => {
            for b in [false, true] {
                axis.coords.push(Coord::Value(Value::Bool(b)));
                axis.reps.push(Value::Bool(b));
            }
        }
        Ty::Enum(e) => {
            let n = p.enums[*e].values.len() as u32;
            let (lo, hi) = match &var.range {
                Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                _ => (0, n.saturating_sub(1)),
            };
            for i in lo..=hi.min(n.saturating_sub(1)) {
                if n > 0 {
                    axis.coords.push(Coord::Value(Value::Enum(i)));
                    axis.reps.push(Value::Enum(i));
                }
            }
        }
        Ty::Str => {
            let mut named: Vec<String> = Vec::new();
            for c in cells {
                if let CondIr::Tests { tests, .. } = c {
                    for t in tests {
                        if let TestIr::OneOf(vs) = t {
                            for x in vs {
                                if let Value::Str(s) = x {
                                    if !named.contains(s) {
                                        named.push(s.clone());
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for s in &named {
                axis.coords.push(Coord::Value(Value::Str(s.clone())));
                axis.reps.push(Value::Str(s.clone()));
            }
            axis.coords.push(Coord::OtherString);
            axis.reps.push(Value::Str(other_string(&named)));
        }
        _ => numeric_coords(p, v, cells, axis),
    }
    if var.optional {
        axis.coords.push(Coord::None);
        axis.reps.push(Value::None);
    }
}

/// The machine-integer reading of an axis' numeric coordinates, when it has one.
fn integer_keys(axis: &Axis) -> Option<Vec<Key>> {
    let mut keys = Vec::with_capacity(axis.numeric);
    for (c, r) in axis.coords[..axis.numeric].iter().zip(&axis.reps) {
        let (lo, hi) = c.ends()?;
        let end = |e: EndRef, unbounded: i128| match e {
            None => Some(unbounded),
            Some((_, true)) => None,
            Some((x, false)) => small(x),
        };
        let Value::Num(r) = r else { return None };
        keys.push(Key { lo: end(lo, i128::MIN)?, hi: end(hi, i128::MAX)?, rep: small(r)? });
    }
    Some(keys)
}

/// A string no cell names: the shortest of "", "other", "other1", … not in the list.
pub fn other_string(named: &[String]) -> String {
    let mut candidate = String::new();
    let mut k = 0;
    while named.contains(&candidate) {
        candidate = if k == 0 { "other".into() } else { format!("other{k}") };
        k += 1;
    }
    candidate
}

/// Every number a cell of the column names (base units).
fn literals(cells: &[&CondIr]) -> Vec<Rat> {
    let mut out = Vec::new();
    for c in cells {
        if let CondIr::Tests { tests, .. } = c {
            for t in tests {
                match t {
                    TestIr::Bounds(bs) => out.extend(bs.iter().filter_map(|(_, x)| num(x).cloned())),
                    TestIr::OneOf(vs) => out.extend(vs.iter().filter_map(|x| num(x).cloned())),
                    TestIr::IsNone => {}
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The domain of a numeric column: its declared range (inputs must declare one; for a
/// derived value the range is a claim the value analysis proves, E107).
fn domain(p: &Program, v: VarId) -> (Option<Rat>, Option<Rat>) {
    match &p.vars[v].range {
        Some((lo, hi)) => (num(lo).cloned(), num(hi).cloned()),
        None => (None, None),
    }
}

fn ceil_div(a: &Rat, s: &Rat) -> Rat {
    crate::num::ceil(&crate::num::quot(a, s))
}

fn floor_div(a: &Rat, s: &Rat) -> Rat {
    crate::num::floor(&crate::num::quot(a, s))
}

/// `k + 1` and `k - 1` of a whole number, without a rational's reduction.
fn succ(k: &Rat) -> Rat {
    Rat::from_integer(k.numer() + 1)
}

fn pred(k: &Rat) -> Rat {
    Rat::from_integer(k.numer() - 1)
}

fn numeric_coords(p: &Program, v: VarId, cells: &[&CondIr], axis: &mut Axis) {
    let (lo, hi) = domain(p, v);
    axis.step = var_step(p, v);
    if let Some(s) = axis.step.clone() {
        if integer_grid(cells, &lo, &hi, &s, axis).is_some() {
            axis.numeric = axis.coords.len();
            return;
        }
    }
    let lits = literals(cells);
    match axis.step.clone() {
        Some(s) => {
            // Grid indices: the value k·s. A literal x cuts before ⌈x/s⌉, and, when it is a
            // grid point, after it too (so `= x` is a coordinate of its own).
            let l = lo.as_ref().map(|x| ceil_div(x, &s));
            let h = hi.as_ref().map(|x| floor_div(x, &s));
            if let (Some(l), Some(h)) = (&l, &h) {
                if l > h {
                    return;
                }
            }
            let mut cuts: Vec<Rat> = Vec::new();
            for x in &lits {
                let q = crate::num::quot(x, &s);
                if q.is_integer() {
                    cuts.push(succ(&q));
                    cuts.push(q);
                } else {
                    cuts.push(q.ceil());
                }
            }
            cuts.retain(|c| l.as_ref().is_none_or(|l| c > l) && h.as_ref().is_none_or(|h| c <= h));
            cuts.sort();
            cuts.dedup();
            let mut starts: Vec<Option<Rat>> = vec![l.clone()];
            starts.extend(cuts.into_iter().map(Some));
            for (i, start) in starts.iter().enumerate() {
                let end = match starts.get(i + 1) {
                    Some(Some(next)) => Some(pred(next)),
                    _ => h.clone(),
                };
                let lo_end = start.as_ref().map(|k| End { at: crate::num::prod(k, &s), open: false });
                let hi_end = end.as_ref().map(|k| End { at: crate::num::prod(k, &s), open: false });
                let rep = match (&lo_end, &hi_end) {
                    (Some(a), _) => a.at.clone(),
                    (None, Some(b)) => b.at.clone(),
                    (None, None) => Rat::zero(),
                };
                axis.coords.push(Coord::Interval { lo: lo_end, hi: hi_end });
                axis.reps.push(Value::Num(rep));
            }
        }
        None => {
            // Over the rationals: every literal (and each end of the domain) is a point, with
            // the open intervals between them.
            if let (Some(l), Some(h)) = (&lo, &hi) {
                if l > h {
                    return;
                }
            }
            let mut points: Vec<Rat> = lits
                .into_iter()
                .filter(|x| lo.as_ref().is_none_or(|l| x >= l) && hi.as_ref().is_none_or(|h| x <= h))
                .collect();
            points.extend(lo.iter().cloned());
            points.extend(hi.iter().cloned());
            points.sort();
            points.dedup();
            let open = |lo: Option<Rat>, hi: Option<Rat>| {
                let rep = match (&lo, &hi) {
                    (Some(a), Some(b)) => (a + b) / int(2),
                    (Some(a), None) => a + Rat::one(),
                    (None, Some(b)) => b - Rat::one(),
                    (None, None) => Rat::zero(),
                };
                (
                    Coord::Interval {
                        lo: lo.map(|at| End { at, open: true }),
                        hi: hi.map(|at| End { at, open: true }),
                    },
                    Value::Num(rep),
                )
            };
            let mut push = |(c, r): (Coord, Value)| {
                axis.coords.push(c);
                axis.reps.push(r);
            };
            if points.is_empty() {
                push(open(None, None));
            } else {
                if lo.is_none() {
                    push(open(None, Some(points[0].clone())));
                }
                for (i, x) in points.iter().enumerate() {
                    let pt = End { at: x.clone(), open: false };
                    push((Coord::Interval { lo: Some(pt.clone()), hi: Some(pt) }, Value::Num(x.clone())));
                    match points.get(i + 1) {
                        Some(next) => push(open(Some(x.clone()), Some(next.clone()))),
                        None if hi.is_none() => push(open(Some(x.clone()), None)),
                        None => {}
                    }
                }
            }
        }
    }
    axis.numeric = axis.coords.len();
}

/// [`numeric_coords`] on a grid of a whole step where every literal and both ends of the
/// domain are whole numbers in machine integers: the same coordinates, cut with integer
/// arithmetic (a table of many rows names many literals). None (and nothing pushed) when
/// some number is not such.
fn integer_grid(cells: &[&CondIr], lo: &Option<Rat>, hi: &Option<Rat>, s: &Rat, axis: &mut Axis) -> Option<()> {
    let s = small(s).filter(|&s| s > 0)?;
    let ceil_div = |x: i128| -((-x).div_euclid(s));
    let l = match lo {
        Some(x) => Some(ceil_div(small(x)?)),
        None => None,
    };
    let h = match hi {
        Some(x) => Some(small(x)?.div_euclid(s)),
        None => None,
    };
    if let (Some(l), Some(h)) = (l, h) {
        if l > h {
            return Some(());
        }
    }
    let mut cuts: Vec<i128> = Vec::new();
    for c in cells {
        let CondIr::Tests { tests, .. } = c else { continue };
        for t in tests {
            let xs: Box<dyn Iterator<Item = &Value>> = match t {
                TestIr::Bounds(bs) => Box::new(bs.iter().map(|(_, b)| b)),
                TestIr::OneOf(vs) => Box::new(vs.iter()),
                TestIr::IsNone => Box::new(std::iter::empty()),
            };
            for x in xs {
                let Value::Num(x) = x else { continue };
                let x = small(x)?;
                if x.rem_euclid(s) == 0 {
                    cuts.push(x / s);
                    cuts.push(x / s + 1);
                } else {
                    cuts.push(ceil_div(x));
                }
            }
        }
    }
    cuts.retain(|&c| l.is_none_or(|l| c > l) && h.is_none_or(|h| c <= h));
    cuts.sort_unstable();
    cuts.dedup();
    let at =
        |k: i128| Rat::from_integer(k.checked_mul(s).map_or_else(|| BigInt::from(k) * BigInt::from(s), BigInt::from));
    let mut starts: Vec<Option<i128>> = vec![l];
    starts.extend(cuts.into_iter().map(Some));
    for (i, start) in starts.iter().enumerate() {
        let end = match starts.get(i + 1) {
            Some(Some(next)) => Some(next - 1),
            _ => h,
        };
        let lo_end = start.map(|k| End { at: at(k), open: false });
        let hi_end = end.map(|k| End { at: at(k), open: false });
        let rep = match (&lo_end, &hi_end) {
            (Some(a), _) => a.at.clone(),
            (None, Some(b)) => b.at.clone(),
            (None, None) => Rat::zero(),
        };
        axis.coords.push(Coord::Interval { lo: lo_end, hi: hi_end });
        axis.reps.push(Value::Num(rep));
    }
    Some(())
}

/// A grid point inside `[lo, hi]` (values, either end may be missing), nearest `lo`.
pub fn grid_point_in(lo: Option<&Rat>, hi: Option<&Rat>, step: &Rat) -> Option<Rat> {
    let k = match (lo, hi) {
        (Some(l), _) => ceil_div(l, step),
        (None, Some(h)) => floor_div(h, step),
        (None, None) => Rat::zero(),
    };
    let x = k * step;
    if hi.is_some_and(|h| &x > h) || lo.is_some_and(|l| &x < l) {
        return None;
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use crate::analysis::Options;

    /// The binary-search reading of cells agrees with evaluating them, on axes long enough to use it.
    #[test]
    fn fast_path_agrees_with_evaluation() {
        let mut seed: u64 = 0x5eed;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut text = String::from("rule f v1\ninput x: int 0..500\ninput y: int? 0..300\noutput k: int 0..1000\ntable t first -> k\n| x | y | k |\n|---|---|---|\n");
        for r in 0..80 {
            let cell = |opt: bool, next: &mut dyn FnMut(u64) -> u64| -> String {
                let k = |next: &mut dyn FnMut(u64) -> u64| next(520) as i64 - 10;
                let base = match next(8) {
                    0 => format!("<={}", k(next)),
                    1 => format!(">{}", k(next)),
                    2 => format!(">={} <{}", k(next), k(next)),
                    3 => format!("{}, {}", k(next), k(next)),
                    4 => format!("not: {}, >={}", k(next), k(next)),
                    5 => format!("<{}, >{}", k(next), k(next)),
                    6 => format!("not: <={}", k(next)),
                    _ => "-".to_string(),
                };
                match (opt, next(4)) {
                    (true, 0) if !base.starts_with("not:") => format!("none, {base}").replace("none, -", "none"),
                    (true, 1) if !base.starts_with("not:") && base != "-" => format!("not: {base}"),
                    _ => base,
                }
            };
            let (a, b) = (cell(false, &mut next), cell(true, &mut next));
            text.push_str(&format!("| {a} | {b} | {r} |\n"));
        }
        let mut sources = crate::Sources::new();
        let checked = crate::check_text(&mut sources, "f.rule", &text, &Options::default());
        let p = checked.program.unwrap_or_else(|| panic!("{text}\n{:?}", checked.diagnostics));
        let t = &p.tables[0];
        for c in 0..2 {
            let axis = super::build_axis(&p, t, c);
            assert!(axis.len() > 64, "column {c} has {} coordinates", axis.len());
            for row in &t.rows {
                let cell = &row.conds[c];
                assert_eq!(axis.accepts(cell), axis.accepts_by_eval(cell), "{cell:?}");
            }
        }
    }
}
