//! Value analysis: bounds of every value (E107), int64 fit of the scaled evaluation (E108),
//! divisors that may be zero (E132), quotients no rounding consumes (E133), roots of values
//! that may be negative (E134).
//!
//! Every variable and every subexpression gets an exact interval, in evaluation order:
//! inputs from their declared ranges (narrowed by the constraints), derived values from what
//! computes them. Interval arithmetic is sharpened by exact linear reasoning (`linear`) over
//! the facts of `model` — the constraints and the linear defines — and over the facts a table
//! row's own cells or an `if`'s condition add where they hold. A declared range of a derived
//! value is a claim checked against its interval (E107); the interval, not the claim, is what
//! later readers use. The integers of `scale`'s int64 model are then bounded by the same
//! intervals (E108). Each finding carries a witness found by search and confirmed by the
//! reference evaluator where one is found.
//!
//! The parts, each an `impl Values` of its own: `reasoning` (the linear facts a question
//! needs), `intervals` (every node bounded), `roots` (each define, table result and
//! constraint over its cases), `report` (the findings and their witnesses), `points` (the
//! evaluation at a candidate input, the witness search), `certificate` (the entries the
//! certificate states).

mod certificate;
mod intervals;
mod points;
mod reasoning;
mod report;
mod roots;

use super::linear::{self, Fact, Lin, Outcome};
use super::model::{self, Origin};
use super::scale::{self, Annotation, Inter, Iv, Op, Scaled, Store};
use super::tables::{cover::Asked, facts, TableProof};
use super::Options;
use crate::diag::Diagnostic;
use crate::eval::{self, wire, EvalError, Fired};
use crate::num::{self, date, Rat};
use crate::sema::collect_vars;
use crate::sema::*;
use crate::source::Span;
use crate::syntax::ast::{BinOp, CmpOp};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeSet;

/// One value the certificate states: a variable, or an intermediate of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueEntry {
    /// The variable's name, or the intermediate's source text.
    pub name: String,
    /// For an intermediate: what it is computed for (`fee`, `table fee_of row 3`, `constraint 1`).
    pub of: Option<String>,
    /// The type as the rule writes it (`money[JPY]`; `number` for a plain number).
    pub ty: String,
    /// The expression that computes it (`{"op":"-","l":{"name":…},"r":…}`); `{"table":…}` for
    /// a value decided by a table; none for an input.
    pub expr: Option<Json>,
    /// The proven interval in the type's canonical unit (a date as `YYYY-MM-DD`).
    pub interval: (String, String),
    /// One step of the integer the code holds, in the canonical unit (1 for a stored variable).
    pub scale: Rat,
    /// The largest magnitude that integer reaches.
    pub stored_max: BigInt,
    /// Other integers computed on the way (a rescaled operand, a numerator) and their largest magnitude.
    pub intermediates: Vec<(String, BigInt)>,
}

impl ValueEntry {
    /// The certificate's `values` entry (formats.md).
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        if let Some(of) = &self.of {
            m.insert("of".into(), json!(of));
        }
        m.insert("type".into(), json!(self.ty));
        m.insert("expr".into(), self.expr.clone().unwrap_or(Json::Null));
        m.insert("interval".into(), json!([self.interval.0, self.interval.1]));
        m.insert("scale".into(), rat_json(&self.scale));
        m.insert("stored_max".into(), json!(self.stored_max.to_string()));
        if !self.intermediates.is_empty() {
            let xs: Vec<Json> =
                self.intermediates.iter().map(|(w, m)| json!({"what": w, "max": m.to_string()})).collect();
            m.insert("intermediates".into(), Json::Array(xs));
        }
        Json::Object(m)
    }
}

/// A scale as JSON: an integer is a number, anything else its exact text (`"1/100"`).
fn rat_json(r: &Rat) -> Json {
    if r.is_integer() {
        serde_json::from_str(&r.to_integer().to_string()).unwrap_or(Json::Null)
    } else {
        json!(format!("{}/{}", r.numer(), r.denom()))
    }
}

/// Where the generated code evaluates an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// The n-th constraint, at the door.
    Constraint(usize),
    /// The define of this index.
    Define(usize),
    /// A result cell of a table row (0-based row and result column).
    Row { table: usize, row: usize, result: usize },
}

/// The proven interval of one node of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeBound {
    pub site: Site,
    /// Child positions from the site's expression down to the node (`scale::children` order).
    pub path: Vec<usize>,
    /// In base units; `None` for a node that is not a number.
    pub interval: Option<(Rat, Rat)>,
}

/// The evidence for the values, as the certificate states it.
#[derive(Clone, Debug, Default)]
pub struct ValueProof {
    /// Variables (inputs first, then in evaluation order) and the intermediates of each.
    pub values: Vec<ValueEntry>,
    /// Per variable, in base units: the proven interval of a number or a date (`None`
    /// otherwise, or for a value no row gives a number).
    pub intervals: Vec<Option<(Rat, Rat)>>,
    /// Every node of every expression the code evaluates. A node under an `if` is bounded
    /// where its branch is taken, a row's result where the row fires.
    pub nodes: Vec<NodeBound>,
    /// The int64 evaluation model every code generator emits.
    pub scales: Annotation,
    /// How each derived variable's interval was found, case by case (the certificate's
    /// `bounds`), in evaluation order.
    pub bounds: Vec<BoundProof>,
}

/// The evidence for one derived variable's interval: each expression that computes it (its
/// define, or each row's result cell), split into cases over the rows of the tables it reads.
#[derive(Clone, Debug)]
pub struct BoundProof {
    pub var: VarId,
    /// The stored interval (base units), the hull over every root and case.
    pub interval: Option<Iv>,
    pub roots: Vec<RootProof>,
}

/// One expression computing a variable: a define (`row` none) or a row's result cell.
#[derive(Clone, Debug)]
pub struct RootProof {
    /// For a result cell: the table and the row (0-based).
    pub row: Option<(usize, usize)>,
    /// The tables the expression's bound is split over (by their rows).
    pub split: Vec<usize>,
    pub cases: Vec<CaseProof>,
}

/// One case: a row of each split table, and the stored interval of the value there.
#[derive(Clone, Debug)]
pub struct CaseProof {
    /// `(table, row)`, 0-based, one per split table.
    pub rows: Vec<(usize, usize)>,
    pub interval: Option<Iv>,
    /// Some bound in it came from linear reasoning over the case's facts (the constraints,
    /// the rows' cells): re-checking by interval arithmetic alone may find it looser.
    pub linear: bool,
}

impl ValueProof {
    pub fn to_json(&self) -> Json {
        Json::Array(self.values.iter().map(ValueEntry::to_json).collect())
    }
}

#[derive(Default)]
pub struct ValuesResult {
    pub diagnostics: Vec<Diagnostic>,
    pub proof: ValueProof,
}

/// The value analysis of a program (with the table analysis it runs alongside).
pub fn analyse(p: &Program, text: &str, opts: &Options) -> ValuesResult {
    super::run(p, text, opts).1
}

type Root = Site;

/// Most cases one root's bound is split into (the product of the rows of the tables it reads).
const MAX_CASES: usize = 4096;

/// How good a point is for a witness: a tier (higher is better: the root is evaluated, the
/// failure is confirmed), then a magnitude to push.
type Score<'s> = dyn Fn(&[Value]) -> Option<(u8, Rat)> + 's;

/// What holds where an expression is evaluated, beyond the program's facts: a row's cells,
/// an `if`'s condition.
#[derive(Clone, Debug, Default)]
struct Env {
    facts: Vec<Fact>,
    /// Linear forms known to be nonzero (`b != 0`, a cell `not: 0`).
    nonzero: Vec<Lin>,
    /// Variables whose interval is narrower here than over every input: the results of the
    /// rows a case takes, and the defines computed from them.
    over: Vec<(VarId, Iv)>,
}

impl Env {
    fn with(&self, more: Vec<Fact>) -> Env {
        let mut facts = self.facts.clone();
        facts.extend(more);
        Env { facts, nonzero: self.nonzero.clone(), over: self.over.clone() }
    }
    /// Everything both environments hold.
    fn join(&self, other: &Env) -> Env {
        let mut env = self.with(other.facts.clone());
        env.nonzero.extend(other.nonzero.iter().cloned());
        env.over.extend(other.over.iter().cloned());
        env
    }
    /// The interval the facts on `v` alone allow, within `iv` (a strict bound read as closed).
    fn direct(&self, v: VarId, iv: Iv) -> Iv {
        let (mut lo, mut hi) = iv.clone();
        for f in &self.facts {
            if f.lin.coeffs.len() != 1 {
                continue;
            }
            let Some(a) = f.lin.coeffs.get(&v) else { continue };
            let at = -&f.lin.konst / a;
            if a.is_positive() {
                hi = hi.min(at);
            } else {
                lo = lo.max(at);
            }
        }
        // Facts that contradict leave nothing to bound: the linear reasoning says so.
        if lo <= hi {
            (lo, hi)
        } else {
            iv
        }
    }
    fn over_of(&self, v: VarId) -> Option<&Iv> {
        self.over.iter().rev().find(|(w, _)| *w == v).map(|(_, iv)| iv)
    }
    fn with_cond(&self, (more, nonzero): (Vec<Fact>, Vec<Lin>)) -> Env {
        let mut env = self.with(more);
        env.nonzero.extend(nonzero);
        env
    }
    fn mentions(&self, v: usize) -> bool {
        self.facts.iter().any(|f| f.lin.coeffs.contains_key(&v))
    }
}

/// A node evaluated under the current root, with the intervals it was bounded by.
struct Rec<'a> {
    e: &'a TExpr,
    s: &'a Scaled,
    /// Child positions from the root down to the node.
    path: Vec<usize>,
    kids: Vec<Option<Iv>>,
    own: Option<Iv>,
}

/// What may go wrong at a node, found while walking and reported with a witness afterwards.
enum Pending<'a> {
    ZeroDivisor { node: &'a TExpr, divisor: &'a TExpr, env: Env, root: Root },
    NegativeRoot { node: &'a TExpr, arg: &'a TExpr, env: Env, root: Root },
}

/// The value analysis, run step by step in the program's evaluation order ([`super::run`]).
pub struct Values<'a> {
    p: &'a Program,
    text: &'a str,
    ann: &'a Annotation,
    /// Input ranges, the constraints (none that reads an optional), the linear defines.
    base: Vec<Fact>,
    /// The proven intervals of derived values, as facts.
    derived: Vec<Fact>,
    /// Whether the base facts have a rational solution at all.
    feasible: bool,
    linear_on: bool,
    budget: u64,
    /// Proven interval per variable (base units).
    iv: Vec<Option<Iv>>,
    /// The declared range (or a date's whole domain) of each input, as the door checks it.
    raw: Vec<Option<Iv>>,
    recs: Vec<Rec<'a>>,
    pending: Vec<Pending<'a>>,
    root: Root,
    path: Vec<usize>,
    nodes: Vec<NodeBound>,
    diags: Vec<Diagnostic>,
    entries: Vec<ValueEntry>,
    /// Per table and row: what holds where the row answers (its cells, and the box of the
    /// cover's leaves where it is the row that answers); none for a row that answers nowhere.
    regions: Vec<Vec<Option<Env>>>,
    /// Per table, row and result: the stored interval of the result where the row answers.
    row_ivs: Vec<Vec<Vec<Option<Iv>>>>,
    /// Per define: the tables whose results its expression reads, directly or through defines.
    define_tables: Vec<BTreeSet<usize>>,
    /// Per define: every variable its expression reads, directly or through defines.
    define_reads: Vec<BTreeSet<VarId>>,
    /// Per define: its place in the evaluation order.
    define_at: Vec<usize>,
    /// The tables some root reads the results of: their rows' regions are kept for its cases.
    split_tables: BTreeSet<usize>,
    /// Walking a define inside a case only to bound it: nothing is recorded.
    quiet: u32,
    /// The linear reasoning ran out of its allowance somewhere: a bound may be looser for it.
    short: std::cell::Cell<bool>,
    /// Per variable, the case that takes its stored value lowest and the one that takes it
    /// highest: where a witness for E107 is looked for first.
    extremes: Vec<[Option<Extreme>; 2]>,
    /// Per variable a multiple-hit table decides, inputs inside the set of rows that hold
    /// together whose answer is the lowest, and the highest: where E107's witness is looked for.
    fold_starts: Vec<Vec<Vec<Value>>>,
    /// The evidence of every derived variable's interval, and of the root being bounded.
    bounds: Vec<BoundProof>,
    root_proof: Vec<(VarId, RootProof)>,
    /// Some bound of the case being walked came from linear reasoning.
    refined: std::cell::Cell<bool>,
}

/// Where a row of a table answers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answers {
    /// For no input.
    Nowhere,
    /// Where its cells take (the cover did not finish).
    Cells,
    /// Inside this box of coordinates.
    In(Vec<(u32, u32)>),
}

/// A case of a root's bound: the root, the row each split table takes, the value's bound there.
#[derive(Clone, Debug)]
struct Extreme {
    at: Rat,
    root: Root,
    picks: Vec<(usize, usize)>,
    /// For a row's result: the facts of the row's region.
    env: Option<Env>,
}

/// The days a date on the wire can name (`0000-01-01` to `9999-12-31`).
fn date_domain() -> Iv {
    (num::int(date::days_from_civil(0, 1, 1)), num::int(date::days_from_civil(9999, 12, 31)))
}

fn value_num(v: &Value) -> Option<&Rat> {
    match v {
        Value::Num(n) => Some(n),
        _ => None,
    }
}

fn hull(a: Option<Iv>, b: Option<Iv>) -> Option<Iv> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The interval narrowed to whole multiples of `step` (when that leaves any).
fn tighten(iv: Iv, step: &Rat) -> Iv {
    if !step.is_positive() || (num::on_grid(&iv.0, step) && num::on_grid(&iv.1, step)) {
        return iv;
    }
    let lo = num::prod(&num::ceil(&num::quot(&iv.0, step)), step);
    let hi = num::prod(&num::floor(&num::quot(&iv.1, step)), step);
    if lo <= hi {
        (lo, hi)
    } else {
        iv
    }
}

fn corners(a: &Iv, b: &Iv, f: impl Fn(&Rat, &Rat) -> Rat) -> Iv {
    let cs = [f(&a.0, &b.0), f(&a.0, &b.1), f(&a.1, &b.0), f(&a.1, &b.1)];
    let lo = cs.iter().min().unwrap().clone();
    let hi = cs.iter().max().unwrap().clone();
    (lo, hi)
}

fn negate_op(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// The linear facts that hold when `e` (a boolean) is `truth`, and the linear forms that are
/// then nonzero.
fn facts_of(e: &TExpr, truth: bool) -> (Vec<Fact>, Vec<Lin>) {
    let (mut out, mut nonzero) = (Vec::new(), Vec::new());
    facts_into(e, truth, &mut out, &mut nonzero);
    (out, nonzero)
}

fn facts_into(e: &TExpr, truth: bool, out: &mut Vec<Fact>, nonzero: &mut Vec<Lin>) {
    match &e.kind {
        TExprKind::And(a, b) if truth => {
            facts_into(a, true, out, nonzero);
            facts_into(b, true, out, nonzero);
        }
        TExprKind::Or(a, b) if !truth => {
            facts_into(a, false, out, nonzero);
            facts_into(b, false, out, nonzero);
        }
        TExprKind::Not(x) => facts_into(x, !truth, out, nonzero),
        TExprKind::Cmp(op, a, b) if scale::is_number(&a.ty) && scale::is_number(&b.ty) => {
            if let (Some(la), Some(lb)) = (model::linear_of(a), model::linear_of(b)) {
                let op = if truth { *op } else { negate_op(*op) };
                match model::comparison_facts(op, &la, &lb) {
                    Some(fs) => out.extend(fs),
                    None => nonzero.push(la.sub(&lb)),
                }
            }
        }
        _ => {}
    }
}

fn eq_facts(l: &Lin, value: &Rat) -> Vec<Fact> {
    let c = Lin::constant(value.clone());
    vec![Fact::le(l, &c, false), Fact::le(&c, l, false)]
}

fn range_facts(v: VarId, iv: &Iv) -> Vec<Fact> {
    let x = Lin::var(v);
    vec![Fact::le(&Lin::constant(iv.0.clone()), &x, false), Fact::le(&x, &Lin::constant(iv.1.clone()), false)]
}

fn int64_text() -> String {
    format!("{}..{}", scale::i64_min(), scale::i64_max())
}

impl<'a> Values<'a> {
    /// The analysis up to the first table or define: the inputs and the constraints.
    pub fn new(p: &'a Program, text: &'a str, ann: &'a Annotation, m: &model::Model, opts: &Options) -> Values<'a> {
        let mut base = Vec::new();
        let reads_optional: Vec<bool> = p
            .constraints
            .iter()
            .map(|c| {
                let mut vs = Vec::new();
                collect_vars(&c.expr, &mut vs);
                vs.iter().any(|&v| p.vars[v].optional)
            })
            .collect();
        for (f, o) in m.facts.iter().zip(&m.origins) {
            let keep = match o {
                // A derived value's declared range is the claim E107 checks, not a fact.
                Origin::Range { var, .. } => p.vars[*var].kind == VarKind::Input,
                // A constraint that reads an absent optional holds whatever else it says.
                Origin::Constraint(c) => !reads_optional[*c],
                Origin::Define { .. } => true,
            };
            if keep {
                base.push(f.clone());
            }
        }
        let mut raw = vec![None; p.vars.len()];
        for &v in &p.inputs {
            let var = &p.vars[v];
            if !scale::is_number(&var.ty) {
                continue;
            }
            raw[v] = match &var.range {
                Some((Value::Num(lo), Value::Num(hi))) => Some((lo.clone(), hi.clone())),
                _ if var.ty == Ty::Date => {
                    let d = date_domain();
                    if !var.optional {
                        base.extend(range_facts(v, &d));
                    }
                    Some(d)
                }
                _ => None,
            };
        }
        let budget = opts.budget.max(1);
        let mut b = budget;
        let feasible = base.is_empty() || linear::refute(&base, &mut b) == Outcome::Feasible;
        let mut define_tables: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); p.defines.len()];
        let mut define_reads: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); p.defines.len()];
        let mut define_at = vec![usize::MAX; p.defines.len()];
        for (at, step) in p.order.iter().enumerate() {
            if let Step::Define(d) = *step {
                define_tables[d] = reads_tables(p, &p.defines[d].expr, &define_tables);
                define_reads[d] = reads_vars(p, &p.defines[d].expr, &define_reads);
                define_at[d] = at;
            }
        }
        let mut split_tables: BTreeSet<usize> = define_tables.iter().flatten().copied().collect();
        for t in &p.tables {
            for row in &t.rows {
                for e in row.results.iter().flatten() {
                    split_tables.extend(reads_tables(p, e, &define_tables));
                }
            }
        }
        let mut an = Values {
            p,
            text,
            ann,
            base,
            derived: Vec::new(),
            feasible,
            linear_on: false,
            budget,
            iv: vec![None; p.vars.len()],
            raw,
            recs: Vec::new(),
            pending: Vec::new(),
            root: Root::Define(0),
            path: Vec::new(),
            nodes: Vec::new(),
            diags: Vec::new(),
            entries: Vec::new(),
            // Kept only for the tables some root is split over (filled as each is bounded).
            regions: vec![Vec::new(); p.tables.len()],
            row_ivs: vec![Vec::new(); p.tables.len()],
            define_tables,
            define_reads,
            define_at,
            split_tables,
            quiet: 0,
            short: std::cell::Cell::new(false),
            extremes: vec![[None, None]; p.vars.len()],
            fold_starts: vec![Vec::new(); p.vars.len()],
            bounds: Vec::new(),
            root_proof: Vec::new(),
            refined: std::cell::Cell::new(false),
        };
        an.start();
        an
    }

    fn src(&self, span: Span) -> &'a str {
        self.text.get(span.range()).unwrap_or("")
    }

    fn show(&self, ty: &Ty, v: &Rat) -> String {
        wire::display(self.p, ty, &Value::Num(v.clone()))
    }

    fn show_iv(&self, ty: &Ty, iv: &Iv) -> String {
        format!("{}..{}", self.show(ty, &iv.0), self.show(ty, &iv.1))
    }

    fn start(&mut self) {
        let p = self.p;
        // Inputs as the door reads them: their N is the wire integer.
        for &v in &p.inputs {
            self.iv[v] = self.raw[v].clone();
            self.check_input(v);
            self.var_entry(v);
        }
        // Constraints run at the door, before any of them is known to hold: ranges only.
        let ann = self.ann;
        for (c, con) in p.constraints.iter().enumerate() {
            self.root = Root::Constraint(c);
            self.recs.clear();
            self.walk(&con.expr, &ann.constraints[c], &Env::default());
            self.finish_root(None, &|| format!("constraint {}", c + 1));
        }
        // From here on every call has passed the door: the constraints hold.
        self.linear_on = self.feasible;
        for &v in &p.inputs {
            let Some(iv) = self.iv[v].clone() else { continue };
            let mut iv = iv;
            if !p.vars[v].optional {
                if let Some((lo, hi)) = self.lin_bounds(&Lin::var(v), &Env::default()) {
                    iv = (
                        lo.map_or(iv.0.clone(), |l| l.max(iv.0.clone())),
                        hi.map_or(iv.1.clone(), |h| h.min(iv.1.clone())),
                    );
                }
            }
            self.iv[v] = Some(tighten(iv, &p.vars[v].ty.factor()));
        }
    }

    /// What every proven interval is so far (base units), by variable.
    pub fn intervals(&self) -> &[Option<Iv>] {
        &self.iv
    }

    /// The last findings, once every step has run (the caller puts the annotation in).
    pub fn finish(mut self) -> ValuesResult {
        let p = self.p;
        for &m in &self.ann.misplaced {
            self.diags.push(
                Diagnostic::new("E133", p.file, m, "a quotient by a value must be rounded where it is computed")
                    .label("divided by a value here")
                    .note("generated code holds every number as a whole int64; a quotient by a value is exact only as a pair, which a rounding divides and rounds in one step")
                    .help("make the division the whole argument of `round(…, MODE, GRID)`, or the whole expression of an output that declares `round MODE(GRID)`"),
            );
        }
        self.diags.sort_by_key(|d| (d.primary.span.start, d.code));
        let proof = ValueProof {
            values: self.entries,
            intervals: self.iv,
            nodes: self.nodes,
            scales: Annotation::default(),
            bounds: self.bounds,
        };
        ValuesResult { diagnostics: self.diags, proof }
    }
}

/// The records of a root bounded in several cases: one per node, its intervals the hulls.
fn merge_recs(recs: Vec<Rec<'_>>) -> Vec<Rec<'_>> {
    let mut out: Vec<Rec> = Vec::new();
    for r in recs {
        match out.iter_mut().find(|m| m.path == r.path) {
            Some(m) => {
                for (a, b) in m.kids.iter_mut().zip(r.kids) {
                    *a = hull(a.take(), b);
                }
                m.own = hull(m.own.take(), r.own);
            }
            None => out.push(r),
        }
    }
    out
}

/// The tables whose results an expression reads, directly or through the defines it reads
/// (`define_tables`, per define, those of defines earlier in the evaluation order).
fn reads_tables(p: &Program, e: &TExpr, define_tables: &[BTreeSet<usize>]) -> BTreeSet<usize> {
    let mut vs = Vec::new();
    collect_vars(e, &mut vs);
    let mut out = BTreeSet::new();
    for w in vs {
        match p.vars[w].decided_by {
            Some(Decider::Table(t)) => {
                out.insert(t);
            }
            Some(Decider::Define(d)) => out.extend(define_tables[d].iter().copied()),
            Some(Decider::Summary(_) | Decider::Fold(_)) | None => {}
        }
    }
    out
}

/// Every variable an expression reads, directly or through the defines it reads
/// (`define_reads`, per define, those of defines earlier in the evaluation order).
fn reads_vars(p: &Program, e: &TExpr, define_reads: &[BTreeSet<VarId>]) -> BTreeSet<VarId> {
    let mut vs = Vec::new();
    collect_vars(e, &mut vs);
    let mut out = BTreeSet::new();
    for w in vs {
        if let Some(Decider::Define(d)) = p.vars[w].decided_by {
            out.extend(define_reads[d].iter().copied());
        }
        out.insert(w);
    }
    out
}

/// Where an integer overflows: a node of the expression, or the store into a variable.
enum Failure<'a, 'r> {
    Node(&'r Rec<'a>),
    Store { st: &'a Store, e: &'a TExpr, s: &'a Scaled },
}

/// Whether a constraint root divides by zero at this point (the door evaluates it).
fn root_divides(root: Root, p: &Program, values: &[Value]) -> bool {
    match root {
        Root::Constraint(c) => eval::eval_expr(&p.constraints[c].expr, values) == Err(EvalError::DivisionByZero),
        _ => false,
    }
}
