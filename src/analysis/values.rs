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
    /// The tables some root reads the results of: their rows' regions are kept for its cases.
    split_tables: BTreeSet<usize>,
    /// Walking a define inside a case only to bound it: nothing is recorded.
    quiet: u32,
    /// The linear reasoning ran out of its allowance somewhere: a bound may be looser for it.
    short: std::cell::Cell<bool>,
    /// Per variable, the case that takes its stored value lowest and the one that takes it
    /// highest: where a witness for E107 is looked for first.
    extremes: Vec<[Option<Extreme>; 2]>,
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
        for step in &p.order {
            if let Step::Define(d) = *step {
                define_tables[d] = reads_tables(p, &p.defines[d].expr, &define_tables);
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
            split_tables,
            quiet: 0,
            short: std::cell::Cell::new(false),
            extremes: vec![[None, None]; p.vars.len()],
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

    // ---- linear reasoning

    /// The facts that share a variable, transitively, with `vars`.
    fn relevant(&self, vars: &BTreeSet<usize>, extra: &[Fact]) -> Vec<Fact> {
        let all: Vec<&Fact> = self.base.iter().chain(&self.derived).chain(extra).collect();
        let mut seen = vars.clone();
        let mut taken = vec![false; all.len()];
        loop {
            let mut grew = false;
            for (i, f) in all.iter().enumerate() {
                if !taken[i] && f.lin.coeffs.keys().any(|v| seen.contains(v)) {
                    taken[i] = true;
                    grew = true;
                    seen.extend(f.lin.coeffs.keys().copied());
                }
            }
            if !grew {
                break;
            }
        }
        all.into_iter().zip(taken).filter(|(_, t)| *t).map(|(f, _)| f.clone()).collect()
    }

    /// Exact bounds of `lin` over the facts (None when the analysis cannot say).
    fn lin_bounds(&self, lin: &Lin, env: &Env) -> Option<(Option<Rat>, Option<Rat>)> {
        if !self.linear_on {
            return None;
        }
        let vars: BTreeSet<usize> = lin.coeffs.keys().copied().collect();
        let facts = self.relevant(&vars, &env.facts);
        if facts.is_empty() {
            return None;
        }
        let mut b = self.budget;
        match linear::refute(&facts, &mut b) {
            Outcome::Feasible => {}
            Outcome::Unknown => {
                self.short.set(true);
                return None;
            }
            Outcome::Infeasible(_) => return None,
        }
        let mut b = self.budget;
        // The objective carries its constant: these are its own bounds.
        match linear::try_bounds(&facts, lin, &mut b) {
            Ok(bs) => Some(bs),
            Err(linear::Short) => {
                self.short.set(true);
                None
            }
        }
    }

    /// Whether some rational point satisfies the facts and `extra` (true when it cannot say).
    fn satisfiable(&self, extra: &[Fact]) -> bool {
        if !self.linear_on || extra.is_empty() {
            return true;
        }
        let vars: BTreeSet<usize> = extra.iter().flat_map(|f| f.lin.coeffs.keys().copied()).collect();
        let facts = self.relevant(&vars, extra);
        let mut b = self.budget;
        !matches!(linear::refute(&facts, &mut b), Outcome::Infeasible(_))
    }

    /// Whether `lin = 0` is consistent with the facts and with every nonzero form of the
    /// environment (each split into its two strict sides).
    fn may_be_zero(&self, lin: &Lin, env: &Env) -> bool {
        let zero = env.with(eq_facts(lin, &Rat::zero())).facts;
        let nonzero: Vec<&Lin> = env.nonzero.iter().take(4).collect();
        (0..1u32 << nonzero.len()).any(|mask| {
            let mut fs = zero.clone();
            for (i, l) in nonzero.iter().enumerate() {
                let side = if mask & (1 << i) == 0 { l.scale(&-Rat::one()) } else { (*l).clone() };
                fs.push(Fact { lin: side, strict: true });
            }
            self.satisfiable(&fs)
        })
    }

    // ---- intervals

    fn walk(&mut self, e: &'a TExpr, s: &'a Scaled, env: &Env) -> Option<Iv> {
        let mut kids: Vec<Option<Iv>> = Vec::new();
        if let TExprKind::If { cond, then, els } = &e.kind {
            kids.push(self.walk_kid(0, cond, &s.kids[0], env));
            let (tenv, fenv) = (env.with_cond(facts_of(cond, true)), env.with_cond(facts_of(cond, false)));
            let t = if self.satisfiable(&tenv.facts) { self.walk_kid(1, then, &s.kids[1], &tenv) } else { None };
            let f = if self.satisfiable(&fenv.facts) { self.walk_kid(2, els, &s.kids[2], &fenv) } else { None };
            kids.push(t);
            kids.push(f);
        } else {
            for (i, (k, ks)) in scale::children(e).into_iter().zip(&s.kids).enumerate() {
                kids.push(self.walk_kid(i, k, ks, env));
            }
        }
        let own = self.own_interval(e, s, &kids, env);
        if self.quiet == 0 {
            self.check_node(e, s, &kids, env);
            self.nodes.push(NodeBound { site: self.root, path: self.path.clone(), interval: own.clone() });
            self.recs.push(Rec { e, s, path: self.path.clone(), kids, own: own.clone() });
        }
        own
    }

    fn walk_kid(&mut self, i: usize, e: &'a TExpr, s: &'a Scaled, env: &Env) -> Option<Iv> {
        self.path.push(i);
        let iv = self.walk(e, s, env);
        self.path.pop();
        iv
    }

    fn own_interval(&self, e: &TExpr, s: &Scaled, kids: &[Option<Iv>], env: &Env) -> Option<Iv> {
        if !scale::is_number(&e.ty) {
            return None;
        }
        let k = |i: usize| kids.get(i).cloned().flatten();
        let iv: Iv = match &e.kind {
            TExprKind::Const(Value::Num(v)) => (v.clone(), v.clone()),
            TExprKind::Const(_) | TExprKind::In { .. } | TExprKind::Cmp(..) => return None,
            TExprKind::Not(_) | TExprKind::And(..) | TExprKind::Or(..) => return None,
            TExprKind::Var(v) => {
                let iv = env.over_of(*v).or(self.iv[*v].as_ref()).cloned()?;
                if env.mentions(*v) {
                    // The facts on it alone first: what interval arithmetic reads too.
                    let iv = env.direct(*v, iv);
                    return Some(self.refine(&Lin::var(*v), iv, env));
                }
                return Some(iv);
            }
            TExprKind::Neg(_) => {
                let a = k(0)?;
                (-a.1, -a.0)
            }
            TExprKind::Arith(op, num_e, b) => {
                let (x, y) = (k(0)?, k(1)?);
                match op {
                    BinOp::Add => (&x.0 + &y.0, &x.1 + &y.1),
                    BinOp::Sub => (&x.0 - &y.1, &x.1 - &y.0),
                    BinOp::Mul => corners(&x, &y, |a, b| a * b),
                    BinOp::Div => match (&s.op, &b.kind) {
                        (Op::DivConst { .. }, TExprKind::Const(Value::Num(c))) => {
                            corners(&x, &(c.clone(), c.clone()), |a, b| a / b)
                        }
                        _ => {
                            let sb = s.kids[1].scale.clone().unwrap_or_else(Rat::one);
                            let eps = match &b.grid {
                                Grid::Step(g) => g.clone().max(sb),
                                _ => sb,
                            };
                            let mut out: Option<Iv> = None;
                            if y.1 >= eps {
                                let piece = (y.0.clone().max(eps.clone()), y.1.clone());
                                out = hull(out, Some(corners(&x, &piece, |a, b| a / b)));
                            }
                            if y.0 <= -eps.clone() {
                                let piece = (y.0.clone(), y.1.clone().min(-eps.clone()));
                                out = hull(out, Some(corners(&x, &piece, |a, b| a / b)));
                            }
                            let out = out?;
                            // Both sides linear, the divisor of one sign: exact bounds.
                            match (model::linear_of(num_e), model::linear_of(b)) {
                                (Some(la), Some(lb)) if y.0.is_positive() || y.1.is_negative() => {
                                    self.ratio_bounds(&la, &lb, y.1.is_negative(), out, env)
                                }
                                _ => out,
                            }
                        }
                    },
                }
            }
            TExprKind::Min(_) | TExprKind::Max(_) => {
                let is_min = matches!(e.kind, TExprKind::Min(_));
                let mut acc: Option<Iv> = None;
                for i in 0..kids.len() {
                    let x = k(i)?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) if is_min => (a.0.min(x.0), a.1.min(x.1)),
                        Some(a) => (a.0.max(x.0), a.1.max(x.1)),
                    });
                }
                acc?
            }
            TExprKind::Mod(..) => {
                let (x, y) = (k(0)?, k(1)?);
                let common = s.scale.clone().unwrap_or_else(Rat::one);
                let m = y.0.abs().max(y.1.abs());
                let min_abs = if y.0.is_positive() {
                    y.0.clone()
                } else if y.1.is_negative() {
                    -y.1.clone()
                } else {
                    Rat::zero()
                };
                if !x.0.is_negative() && x.1 < min_abs {
                    x
                } else {
                    (Rat::zero(), (m - common).max(Rat::zero()))
                }
            }
            TExprKind::Isqrt(_) => {
                let x = k(0)?;
                let r = |v: &Rat| Rat::from_integer(num::isqrt(&v.clone().max(Rat::zero())));
                (r(&x.0), r(&x.1))
            }
            TExprKind::Round { mode, grid, .. } => {
                let x = k(0)?;
                (num::round_to_grid(&x.0, *mode, grid), num::round_to_grid(&x.1, *mode, grid))
            }
            TExprKind::If { .. } => hull(k(1), k(2))?,
        };
        let mut iv = iv;
        if let Some(lin) = model::linear_of(e) {
            if lin.coeffs.len() >= 2 || lin.coeffs.keys().any(|v| env.mentions(*v)) {
                iv = self.refine(&lin, iv, env);
            }
        }
        if s.holds_n() {
            if let Some(sc) = &s.scale {
                iv = tighten(iv, sc);
            }
        }
        match &e.grid {
            Grid::Step(g) => iv = tighten(iv, g),
            Grid::Zero if iv.0 <= Rat::zero() && Rat::zero() <= iv.1 => iv = (Rat::zero(), Rat::zero()),
            _ => {}
        }
        Some(iv)
    }

    /// Bounds of `a / b` for linear `a`, `b` where `b` keeps one sign, by the Charnes–Cooper
    /// transformation: with `t = 1/b` and `y = x·t`, every fact `Σ aᵢxᵢ + c ≤ 0` becomes
    /// `Σ aᵢyᵢ + c·t ≤ 0`, `b` becomes `b(y, t) = 1`, and `a / b` the linear `a(y, t)`.
    fn ratio_bounds(&self, a: &Lin, b: &Lin, negative: bool, iv: Iv, env: &Env) -> Iv {
        if !self.linear_on {
            return iv;
        }
        let (a, b) = if negative { (a.scale(&-Rat::one()), b.scale(&-Rat::one())) } else { (a.clone(), b.clone()) };
        let vars: BTreeSet<usize> = a.coeffs.keys().chain(b.coeffs.keys()).copied().collect();
        let facts = self.relevant(&vars, &env.facts);
        let t = facts.iter().flat_map(|f| f.lin.coeffs.keys()).chain(&vars).max().map_or(0, |m| m + 1);
        let homogenize = |l: &Lin| {
            let mut h = Lin { coeffs: l.coeffs.clone(), konst: Rat::zero() };
            if !l.konst.is_zero() {
                h.coeffs.insert(t, l.konst.clone());
            }
            h
        };
        let mut system: Vec<Fact> = facts.iter().map(|f| Fact { lin: homogenize(&f.lin), strict: f.strict }).collect();
        let one = Lin::constant(Rat::one());
        system.push(Fact::le(&homogenize(&b), &one, false));
        system.push(Fact::le(&one, &homogenize(&b), false));
        system.push(Fact::le(&Lin::constant(Rat::zero()), &Lin::var(t), false));
        let mut budget = self.budget;
        if linear::refute(&system, &mut budget) != Outcome::Feasible {
            return iv;
        }
        let mut budget = self.budget;
        let (lo, hi) = linear::bounds(&system, &homogenize(&a), &mut budget);
        let lo = lo.map_or(iv.0.clone(), |l| l.max(iv.0.clone()));
        let hi = hi.map_or(iv.1.clone(), |h| h.min(iv.1.clone()));
        if lo <= hi {
            if (&lo, &hi) != (&iv.0, &iv.1) {
                self.refined.set(true);
            }
            (lo, hi)
        } else {
            iv
        }
    }

    fn refine(&self, lin: &Lin, iv: Iv, env: &Env) -> Iv {
        match self.lin_bounds(lin, env) {
            Some((lo, hi)) => {
                let lo = lo.map_or(iv.0.clone(), |l| l.max(iv.0.clone()));
                let hi = hi.map_or(iv.1.clone(), |h| h.min(iv.1.clone()));
                if lo <= hi {
                    if (&lo, &hi) != (&iv.0, &iv.1) {
                        self.refined.set(true);
                    }
                    (lo, hi)
                } else {
                    iv
                }
            }
            None => iv,
        }
    }

    /// E132 and E134 at this node.
    fn check_node(&mut self, e: &'a TExpr, s: &Scaled, kids: &[Option<Iv>], env: &Env) {
        let root = self.root;
        match &e.kind {
            TExprKind::Arith(BinOp::Div, _, b) | TExprKind::Mod(_, b) => {
                if matches!(s.op, Op::DivConst { .. }) {
                    return;
                }
                let Some(Some(y)) = kids.get(1) else { return };
                if y.0.is_positive() || y.1.is_negative() {
                    return;
                }
                if let Some(lin) = model::linear_of(b) {
                    if !lin.is_constant() && !self.may_be_zero(&lin, env) {
                        return;
                    }
                }
                self.pending.push(Pending::ZeroDivisor { node: e, divisor: b, env: env.clone(), root });
            }
            TExprKind::Isqrt(x) => {
                let Some(Some(y)) = kids.first() else { return };
                if !y.0.is_negative() {
                    return;
                }
                if let Some(lin) = model::linear_of(x) {
                    let neg = Fact::le(&lin, &Lin::constant(Rat::zero()), true);
                    if !lin.is_constant() && !self.satisfiable(&env.with(vec![neg]).facts) {
                        return;
                    }
                }
                self.pending.push(Pending::NegativeRoot { node: e, arg: x, env: env.clone(), root });
            }
            _ => {}
        }
    }

    // ---- roots

    /// Bound a define (the step of the evaluation order that computes it).
    pub fn define(&mut self, d: usize) {
        let p = self.p;
        let def = &p.defines[d];
        let v = def.var;
        let ann = self.ann;
        self.begin_root(Root::Define(d));
        let s = &ann.defines[d];
        let e_iv = self.root_walk(&def.expr, s, &Env::default(), None, v);
        let stored = e_iv.as_ref().map(|iv| self.stored_iv(v, iv));
        let store = ann.define_stores[d].as_ref().zip(e_iv.as_ref()).zip(stored.as_ref());
        let store = store.map(|((st, e), sv)| (st, &def.expr, s, e.clone(), sv.clone()));
        let failed = self.finish_root(store, &|| p.vars[v].name.clone());
        self.settle(v, stored, failed);
    }

    /// Bound a table's results, row by row, each where the row answers (`proof` is the
    /// table analysis' cover).
    pub fn table(&mut self, t: usize, proof: &TableProof) {
        let p = self.p;
        let ann = self.ann;
        let table = &p.tables[t];
        let boxes = self.firing_boxes(t, proof);
        // The facts of a row's region are built only where something reads them: a result
        // that is computed, or a root elsewhere that is split over this table's rows.
        let split_over = self.split_tables.contains(&t);
        let mut hulls: Vec<Option<Iv>> = vec![None; table.results.len()];
        let mut failed = vec![false; table.results.len()];
        if split_over {
            self.regions[t] = vec![None; table.rows.len()];
            self.row_ivs[t] = vec![vec![None; table.results.len()]; table.rows.len()];
        }
        for (r, row) in table.rows.iter().enumerate() {
            self.check_cells(table, row);
            if boxes[r] == Answers::Nowhere {
                continue;
            }
            let constant = row.results.iter().all(|e| e.as_ref().is_none_or(|e| matches!(e.kind, TExprKind::Const(_))));
            let env = if constant && !split_over {
                None
            } else {
                let mut env = self.row_env(table, row);
                if let Answers::In(b) = &boxes[r] {
                    env = env.with(facts::coord_facts(p, &proof.axes, b));
                }
                if !self.satisfiable(&env.facts) {
                    continue;
                }
                Some(env)
            };
            if split_over {
                self.regions[t][r] = env.clone();
            }
            for (i, res) in row.results.iter().enumerate() {
                let (Some(e), Some(s)) = (res, ann.rows[t][r][i].as_ref()) else { continue };
                let v = table.results[i];
                self.begin_root(Root::Row { table: t, row: r, result: i });
                let e_iv = match (&e.kind, &env) {
                    (TExprKind::Const(c), _) => self.constant_root(e, s, c, v),
                    (_, Some(env)) => self.root_walk(e, s, env, Some(t), v),
                    (_, None) => unreachable!("a row that computes a result has its region"),
                };
                let stored = e_iv.as_ref().map(|iv| self.stored_iv(v, iv));
                let st = ann.row_stores[t][r][i].as_ref();
                let store =
                    st.zip(e_iv.as_ref()).zip(stored.as_ref()).map(|((st, ei), sv)| (st, e, s, ei.clone(), sv.clone()));
                failed[i] |= self.finish_root(store, &|| format!("table {} row {}", table.name, r + 1));
                if let Some(env) = &env {
                    let root = self.root;
                    for x in self.extremes[v].iter_mut().flatten() {
                        if x.root == root && x.env.is_none() {
                            x.env = Some(env.clone());
                        }
                    }
                }
                if split_over {
                    self.row_ivs[t][r][i] = stored.clone();
                }
                hulls[i] = hull(hulls[i].take(), stored);
            }
        }
        for (i, &v) in table.results.iter().enumerate() {
            self.settle(v, hulls[i].take(), failed[i]);
        }
    }

    /// A result cell that is a literal: its value, its integer checked for int64. Its bound
    /// is its value: no node bound, and no case in the certificate (the row states it).
    fn constant_root(&mut self, e: &'a TExpr, s: &'a Scaled, c: &Value, v: VarId) -> Option<Iv> {
        let iv = value_num(c).map(|n| (n.clone(), n.clone()));
        self.recs.push(Rec { e, s, path: Vec::new(), kids: Vec::new(), own: iv.clone() });
        if let Some(x) = &iv {
            let stored = self.stored_iv(v, x);
            self.note_stored_extremes(v, &stored, Vec::new());
        }
        iv
    }

    /// Per row, where it answers: the box around the leaves of the cover where it is the
    /// first row listed and some asked input may lie, nowhere when it has no such leaf, or
    /// where its cells take for every row when the cover did not finish.
    fn firing_boxes(&self, t: usize, proof: &TableProof) -> Vec<Answers> {
        let n = self.p.tables[t].rows.len();
        if !proof.complete || proof.cover.nodes.is_empty() {
            return vec![Answers::Cells; n];
        }
        let mut boxes = vec![Answers::Nowhere; n];
        for leaf in &proof.cover.leaves {
            if matches!(leaf.asked, Asked::No(_)) {
                continue;
            }
            let Some(&r) = leaf.rows.first() else { continue };
            let b = &mut boxes[r as usize];
            *b = Answers::In(match std::mem::replace(b, Answers::Nowhere) {
                Answers::In(h) => h.iter().zip(&leaf.ranges).map(|(&(a, b), &(c, d))| (a.min(c), b.max(d))).collect(),
                _ => leaf.ranges.clone(),
            });
        }
        boxes
    }

    /// Start bounding the expression of a new root.
    fn begin_root(&mut self, root: Root) {
        self.root = root;
        self.recs.clear();
    }

    /// Bound a root's expression: split over the rows of the tables whose results it reads
    /// (each case the cells of the rows it takes and their results), the hull over cases.
    /// `own` is the table the root is a result cell of.
    fn root_walk(&mut self, e: &'a TExpr, s: &'a Scaled, env: &Env, own: Option<usize>, v: VarId) -> Option<Iv> {
        let first_node = self.nodes.len();
        let (split, between) = self.split_plan(e, own);
        let mut out: Option<Iv> = None;
        let row = match self.root {
            Root::Row { table, row, .. } => Some((table, row)),
            _ => None,
        };
        let mut proof = RootProof { row, split: split.clone(), cases: Vec::new() };
        if split.is_empty() {
            self.refined.set(false);
            out = self.walk(e, s, env);
            if let Some(iv) = &out {
                self.note_extremes(v, iv, Vec::new());
            }
            let interval = out.as_ref().map(|iv| self.stored_iv(v, iv));
            proof.cases.push(CaseProof { rows: Vec::new(), interval, linear: self.refined.get() });
        } else {
            let rows: Vec<Vec<usize>> = split
                .iter()
                .map(|&t| (0..self.p.tables[t].rows.len()).filter(|&r| self.regions[t][r].is_some()).collect())
                .collect();
            let mut pick = vec![0usize; split.len()];
            'cases: loop {
                let mut case = env.clone();
                for (k, &t) in split.iter().enumerate() {
                    let r = rows[k][pick[k]];
                    case = case.join(&self.row_case(t, r));
                }
                let picks: Vec<(usize, usize)> =
                    split.iter().enumerate().map(|(k, &t)| (t, rows[k][pick[k]])).collect();
                self.refined.set(false);
                if self.satisfiable(&case.facts) {
                    for &d in &between {
                        self.inline_define(d, &mut case);
                    }
                    let iv = self.walk(e, s, &case);
                    if let Some(iv) = &iv {
                        self.note_extremes(v, iv, picks.clone());
                    }
                    let interval = iv.as_ref().map(|iv| self.stored_iv(v, iv));
                    proof.cases.push(CaseProof { rows: picks, interval, linear: self.refined.get() });
                    out = hull(out, iv);
                } else {
                    // The rows' cells contradict: no input takes these rows together.
                    proof.cases.push(CaseProof { rows: picks, interval: None, linear: true });
                }
                for k in 0..split.len() {
                    pick[k] += 1;
                    if pick[k] < rows[k].len() {
                        continue 'cases;
                    }
                    pick[k] = 0;
                }
                break;
            }
            self.merge_nodes(first_node);
        }
        self.root_proof.push((v, proof));
        out
    }

    /// Remember the case if it takes `v`'s stored value further than any before.
    fn note_extremes(&mut self, v: VarId, expr_iv: &Iv, picks: Vec<(usize, usize)>) {
        if self.p.vars[v].range.is_none() {
            return;
        }
        let stored = self.stored_iv(v, expr_iv);
        self.note_stored_extremes(v, &stored, picks);
    }

    /// [`Self::note_extremes`] of a value already stored.
    fn note_stored_extremes(&mut self, v: VarId, stored: &Iv, picks: Vec<(usize, usize)>) {
        if self.p.vars[v].range.is_none() {
            return;
        }
        let stored = stored.clone();
        let root = self.root;
        for (side, at) in [(0, stored.0), (1, stored.1)] {
            let better = match &self.extremes[v][side] {
                None => true,
                Some(x) => (side == 1 && at > x.at) || (side == 0 && at < x.at),
            };
            if better {
                self.extremes[v][side] = Some(Extreme { at, root, picks: picks.clone(), env: None });
            }
        }
    }

    /// Inputs where the case that takes `v` furthest reaches its bound: a start for E107's
    /// witness search. In the case the rows' results are constants, so the expression is
    /// linear more often than over every input.
    fn extreme_point(&mut self, v: VarId, high: bool) -> Option<Vec<Value>> {
        let x = self.extremes[v][usize::from(high)].clone()?;
        let p = self.p;
        let (e, mut env) = match x.root {
            Root::Define(d) => (&p.defines[d].expr, Env::default()),
            Root::Row { table, row, result } => (p.tables[table].rows[row].results[result].as_ref()?, x.env.clone()?),
            Root::Constraint(_) => return None,
        };
        for &(t, r) in &x.picks {
            env = env.join(&self.row_case(t, r));
        }
        let (_, between) = self.split_plan(e, None);
        for &d in &between {
            self.inline_define(d, &mut env);
        }
        let point = |w: VarId| env.over_of(w).filter(|iv| iv.0 == iv.1).map(|iv| iv.0.clone());
        // The expression grows or shrinks with one linear form: where that is at its extreme.
        let m = model::monotone_in(e, &point)?;
        let up = high == m.increasing;
        let mut lin = m.inner;
        // A define between the rows and the root that is linear in the case reads through.
        for &d in between.iter().rev() {
            let def = &p.defines[d];
            let Some(a) = lin.coeffs.get(&def.var).cloned() else { continue };
            if p.vars[def.var].rounding.is_some() {
                continue;
            }
            if let Some(inner) = model::linear_with(&def.expr, &point) {
                lin.coeffs.remove(&def.var);
                lin = lin.add(&inner.scale(&a));
            }
        }
        let sign = if up { Rat::one() } else { -Rat::one() };
        let (lo, hi) = self.lin_bounds(&lin, &env)?;
        let target = if up { hi? } else { lo? };
        let mut facts = env.facts.clone();
        facts.push(Fact::le(&Lin::constant(&target * &sign), &lin.scale(&sign), false));
        // The rows' cells on the inputs hold too (a boolean column the facts do not speak of).
        let mut rows: Vec<(usize, usize)> = x.picks.clone();
        if let Root::Row { table, row, .. } = x.root {
            rows.push((table, row));
        }
        let cells: Vec<(VarId, &CondIr)> = rows
            .iter()
            .flat_map(|&(t, r)| p.tables[t].conds.iter().copied().zip(&p.tables[t].rows[r].conds))
            .filter(|(w, _)| p.vars[*w].kind == VarKind::Input)
            .collect();
        self.linear_point_in(&facts, &cells).or_else(|| self.linear_point_in(&env.facts, &cells))
    }

    /// What holds where row `r` of table `t` answers, with its results: their intervals
    /// there, and, for a linear result stored as it is computed, its equality.
    fn row_case(&self, t: usize, r: usize) -> Env {
        let p = self.p;
        let table = &p.tables[t];
        let mut env = self.regions[t][r].clone().unwrap_or_default();
        for (i, &v) in table.results.iter().enumerate() {
            let Some(iv) = &self.row_ivs[t][r][i] else { continue };
            env.facts.extend(range_facts(v, iv));
            env.over.push((v, iv.clone()));
            if p.vars[v].rounding.is_none() {
                if let Some(lin) = table.rows[r].results[i].as_ref().and_then(model::linear_of) {
                    env.facts.extend(eq_facts(&Lin::var(v).sub(&lin), &Rat::zero()));
                }
            }
        }
        env
    }

    /// Bound a define inside a case, for the root that reads it: its interval there.
    fn inline_define(&mut self, d: usize, case: &mut Env) {
        let def = &self.p.defines[d];
        let v = def.var;
        let s = &self.ann.defines[d];
        self.quiet += 1;
        let iv = self.walk(&def.expr, s, case);
        self.quiet -= 1;
        let Some(iv) = iv else { return };
        let mut iv = self.stored_iv(v, &iv);
        if let Some(all) = &self.iv[v] {
            iv = (iv.0.max(all.0.clone()), iv.1.min(all.1.clone()));
        }
        if iv.0 <= iv.1 {
            case.facts.extend(range_facts(v, &iv));
            case.over.push((v, iv));
        }
    }

    /// The tables a root's bound is split over, and the defines between them and the root
    /// (in evaluation order), re-bounded in each case. At most MAX_CASES cases: the tables
    /// with the most rows are left out first.
    fn split_plan(&self, e: &TExpr, own: Option<usize>) -> (Vec<usize>, Vec<usize>) {
        let p = self.p;
        let mut tables: BTreeSet<usize> = reads_tables(p, e, &self.define_tables);
        if let Some(t) = own {
            tables.remove(&t);
        }
        let answering = |t: usize| self.regions[t].iter().filter(|r| r.is_some()).count().max(1);
        let limit = MAX_CASES.min((self.budget / 64).max(1) as usize);
        let mut split: Vec<usize> = tables.into_iter().collect();
        while split.iter().map(|&t| answering(t)).product::<usize>() > limit {
            let (i, _) = split.iter().enumerate().max_by_key(|(_, &t)| (answering(t), t)).unwrap();
            split.remove(i);
        }
        if split.is_empty() {
            return (split, Vec::new());
        }
        // The defines the root reads, through defines, that read a split table.
        let mut between: BTreeSet<usize> = BTreeSet::new();
        let mut stack = Vec::new();
        collect_vars(e, &mut stack);
        let mut seen = BTreeSet::new();
        while let Some(w) = stack.pop() {
            if !seen.insert(w) {
                continue;
            }
            if let Some(Decider::Define(d)) = p.vars[w].decided_by {
                if self.define_tables[d].iter().any(|t| split.contains(t)) {
                    between.insert(d);
                    collect_vars(&p.defines[d].expr, &mut stack);
                }
            }
        }
        let order: Vec<usize> = p
            .order
            .iter()
            .filter_map(|s| match *s {
                Step::Define(d) if between.contains(&d) => Some(d),
                _ => None,
            })
            .collect();
        (split, order)
    }

    /// Several cases bounded the nodes of one root: one bound per node, the hull.
    fn merge_nodes(&mut self, from: usize) {
        let mut merged: Vec<NodeBound> = Vec::new();
        for nb in self.nodes.drain(from..) {
            match merged.iter_mut().find(|m| m.path == nb.path) {
                Some(m) => m.interval = hull(m.interval.take(), nb.interval),
                None => merged.push(nb),
            }
        }
        self.nodes.extend(merged);
    }

    /// A cell compares the column's integer with the literal at the column's scale: the
    /// literal must be one the code can write.
    fn check_cells(&mut self, table: &TableIr, row: &RowIr) {
        let p = self.p;
        for (j, (c, &v)) in row.conds.iter().zip(&table.conds).enumerate() {
            let CondIr::Tests { tests, .. } = c else { continue };
            let Some(sc) = self.ann.var_scale[v].clone() else { continue };
            for test in tests {
                let vals: Vec<&Value> = match test {
                    TestIr::Bounds(bs) => bs.iter().map(|(_, b)| b).collect(),
                    TestIr::OneOf(xs) => xs.iter().collect(),
                    TestIr::IsNone => Vec::new(),
                };
                for x in vals.into_iter().filter_map(value_num) {
                    let n = num::quot(x, &sc);
                    let int = Inter { what: "literal".into(), lo: n.clone(), hi: n };
                    if int.fits() {
                        continue;
                    }
                    let span = row.cell_spans.get(j).copied().unwrap_or(row.span);
                    self.diags.push(
                        Diagnostic::new(
                            "E108",
                            p.file,
                            span,
                            format!(
                                "a literal in this cell does not fit in int64 at the scale of `{}`",
                                p.vars[v].name
                            ),
                        )
                        .label(format!("{} steps of the column", num::to_decimal_string(&(x / &sc))))
                        .note(format!(
                            "the cell compares `{}` as a whole number of its steps; int64 holds {}",
                            p.vars[v].name,
                            int64_text()
                        ))
                        .help("write a bound inside the column's range"),
                    );
                }
            }
        }
    }

    /// The facts a row's own cells state about numeric columns.
    fn row_env(&self, table: &TableIr, row: &RowIr) -> Env {
        let (mut facts, mut nonzero) = (Vec::new(), Vec::new());
        for (c, &v) in row.conds.iter().zip(&table.conds) {
            let var = &self.p.vars[v];
            if var.optional || !scale::is_number(&var.ty) {
                continue;
            }
            let CondIr::Tests { negated, tests } = c else { continue };
            let [test] = tests.as_slice() else { continue };
            let x = Lin::var(v);
            match (test, negated) {
                (TestIr::Bounds(bs), false) => {
                    for (op, b) in bs {
                        if let Some(b) = value_num(b) {
                            facts.extend(
                                model::comparison_facts(*op, &x, &Lin::constant(b.clone())).unwrap_or_default(),
                            );
                        }
                    }
                }
                (TestIr::Bounds(bs), true) if bs.len() == 1 => {
                    if let Some(b) = value_num(&bs[0].1) {
                        let op = negate_op(bs[0].0);
                        facts.extend(model::comparison_facts(op, &x, &Lin::constant(b.clone())).unwrap_or_default());
                    }
                }
                (TestIr::OneOf(vals), false) if vals.len() == 1 => {
                    if let Some(b) = value_num(&vals[0]) {
                        facts.extend(eq_facts(&x, b));
                    }
                }
                (TestIr::OneOf(vals), true) => {
                    for b in vals.iter().filter_map(value_num) {
                        nonzero.push(x.sub(&Lin::constant(b.clone())));
                    }
                }
                _ => {}
            }
        }
        Env { facts, nonzero, over: Vec::new() }
    }

    /// The interval a variable holds after a store: its rounding, its unit.
    fn stored_iv(&self, v: VarId, iv: &Iv) -> Iv {
        let var = &self.p.vars[v];
        match &var.rounding {
            Some(r) => {
                let lo = num::round_to_grid(&iv.0, r.mode, &r.grid);
                let hi = num::round_to_grid(&iv.1, r.mode, &r.grid);
                (lo, hi)
            }
            None if var.declared || var.kind != VarKind::Define => tighten(iv.clone(), &var.ty.factor()),
            None => iv.clone(),
        }
    }

    /// A derived variable's interval is settled: E107, the facts later readers reason with, the entry.
    fn settle(&mut self, v: VarId, iv: Option<Iv>, failed: bool) {
        let var = &self.p.vars[v];
        let declared = match &var.range {
            Some((Value::Num(lo), Value::Num(hi))) => Some((lo.clone(), hi.clone())),
            _ => None,
        };
        // Outside its range whether or not it also overflows: fixing one leaves the other.
        if let (Some(d), Some(iv)) = (&declared, &iv) {
            if iv.0 < d.0 || iv.1 > d.1 {
                self.report_range(v, d, iv);
            }
        }
        let iv = match (failed, &declared) {
            // An overflow was reported: later readers take the claim rather than a cascade.
            (true, Some(d)) => Some(d.clone()),
            _ => iv,
        };
        if let Some(iv) = &iv {
            self.derived.extend(range_facts(v, iv));
        }
        let (mine, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.root_proof).into_iter().partition(|(w, _)| *w == v);
        self.root_proof = rest;
        let roots = mine.into_iter().map(|(_, r)| r).collect();
        self.bounds.push(BoundProof { var: v, interval: iv.clone(), roots });
        self.iv[v] = iv;
        self.var_entry(v);
    }

    /// Check a root's records and its store for int64; returns whether it overflows.
    /// `of` names what the root computes (only the certificate's entries of intermediates say it).
    fn finish_root(
        &mut self,
        store: Option<(&'a Store, &'a TExpr, &'a Scaled, Iv, Iv)>,
        of: &dyn Fn() -> String,
    ) -> bool {
        let recs = merge_recs(std::mem::take(&mut self.recs));
        let mut pending = std::mem::take(&mut self.pending);
        // One finding per node, whatever the cases that met it.
        let mut seen: Vec<*const TExpr> = Vec::new();
        pending.retain(|pd| {
            let node = match pd {
                Pending::ZeroDivisor { node, .. } | Pending::NegativeRoot { node, .. } => *node as *const TExpr,
            };
            let fresh = !seen.contains(&node);
            seen.push(node);
            fresh
        });
        let root = self.root;
        let mut failed = false;
        for r in &recs {
            let ints = scale::node_ints(r.s, &r.kids, r.own.as_ref());
            if let Some(i) = ints.iter().position(|x| !x.fits()) {
                self.report_overflow(root, Failure::Node(r), &ints[i]);
                failed = true;
                break;
            }
        }
        if let (false, Some((st, e, s, e_iv, stored))) = (failed, store) {
            let var = &self.p.vars[st.var];
            let es = s.scale.clone().unwrap_or_else(Rat::one);
            let ints = scale::store_ints(st, &es, &e_iv, &stored, &var.ty.factor());
            if let Some(i) = ints.iter().position(|x| !x.fits()) {
                self.report_overflow(root, Failure::Store { st, e, s }, &ints[i]);
                failed = true;
            }
        }
        for pd in pending {
            self.report_pending(pd);
        }
        // Entries for the intermediates.
        for r in &recs {
            if !r.s.holds_n() || matches!(r.s.op, Op::Var(_) | Op::Const(_)) {
                continue;
            }
            let Some(own) = &r.own else { continue };
            let ints = scale::node_ints(r.s, &r.kids, Some(own));
            let sc = r.s.scale.clone().unwrap_or_else(Rat::one);
            let entry = self.entry(
                (self.src(r.e.span).to_string(), Some(of())),
                &r.e.ty,
                Some(self.expr_json(r.e)),
                own,
                &sc,
                &ints,
            );
            self.entries.push(entry);
        }
        failed
    }

    // ---- diagnostics

    fn report_range(&mut self, v: VarId, declared: &Iv, proven: &Iv) {
        let p = self.p;
        let var = &p.vars[v];
        let ty = &var.ty;
        let union = (declared.0.clone().min(proven.0.clone()), declared.1.clone().max(proven.1.clone()));
        let text = self.show_iv(ty, &union);
        let span = var.range_span.unwrap_or(var.span);
        let declared_text = var.range_text.clone().unwrap_or_else(|| self.show_iv(ty, declared));
        let high = proven.1 > declared.1;
        // A witness: inputs that take the value out of its range, confirmed by the evaluator.
        let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
            let out = eval::evaluate(p, inputs).ok()?;
            let x = value_num(&out.values[v])?.clone();
            Some((1, if high { x } else { -x }))
        };
        let root = self.root;
        // First where the case that takes it furthest reaches its bound.
        let mut starts: Vec<Vec<Value>> = self.extreme_point(v, high).into_iter().collect();
        starts.extend(self.linear_point(&[]));
        let found = self.search(root, &score, starts).and_then(|(w, (_, s))| {
            let x = if high { s } else { -s };
            (x > declared.1 || x < declared.0).then_some((w, x))
        });
        let proven_text = self.show_iv(ty, proven);
        let mut d = match &found {
            Some((_, x)) => Diagnostic::new(
                "E107",
                p.file,
                span,
                format!("`{}` can reach {}, outside its declared range {declared_text}", var.name, self.show(ty, x)),
            )
            .label(format!("the checker proves {proven_text}")),
            None => Diagnostic::new(
                "E107",
                p.file,
                span,
                format!("`{}` is not proven to stay inside its declared range {declared_text}", var.name),
            )
            .label(format!("the checker bounds it by {proven_text}")),
        };
        d = d.secondary(p.file, var.span, format!("`{}` is computed from its inputs", var.name));
        d = match &found {
            Some((w, x)) => d
                .note(format!("the value lies in {proven_text} over every input the rule is asked about"))
                .note(format!("with the witness's inputs `{}` is {}", var.name, self.show(ty, x)))
                .witness(json!({"inputs": wire::inputs_json(p, w)})),
            None => {
                d = d.note(format!(
                    "not proven: the checker bounds `{}` by {proven_text} over every input the rule is asked about, and found no input that takes it outside {declared_text}",
                    var.name
                ));
                if self.short.get() {
                    d = d.note("the linear reasoning ran out of its budget on the way, so the bound may be looser than the rule's (`rulec check --budget N` raises it)");
                }
                d
            }
        };
        d = d
            .note("the fix widens the range to what the checker can prove; whether the computation or the range is wrong is a business decision")
            .help(format!("widen the range to `{text}`, or change what computes `{}`", var.name))
            .fix("widen_range", text, Some((p.file, span)));
        self.diags.push(d);
    }

    fn report_overflow(&mut self, root: Root, at: Failure<'a, '_>, int: &Inter) {
        let p = self.p;
        let high = int.hi.floor().to_integer() > scale::i64_max();
        let bound = if high { int.hi.floor().to_integer() } else { int.lo.ceil().to_integer() };
        let span = match &at {
            Failure::Node(r) => r.e.span,
            Failure::Store { e, .. } => e.span,
        };
        let text = self.src(span);
        let what = self.describe(&at, int);
        // A witness: the inputs that push this integer furthest.
        let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
            let (values, fires) = self.values_at(root, inputs).ok()?;
            let x = self.inter_at(&at, int, &values, high)?;
            Some((u8::from(fires), if high { x } else { -x }))
        };
        let found = self.search(root, &score, self.linear_point(&[]).into_iter().collect());
        let confirmed = found.as_ref().and_then(|(w, (fires, s))| {
            let x = if high { s.clone() } else { -s.clone() };
            let beyond = x > Rat::from_integer(scale::i64_max()) || x < Rat::from_integer(scale::i64_min());
            (*fires == 1 && beyond).then(|| (w.clone(), x))
        });
        let help = "narrow the input ranges, or reorder the arithmetic so every step stays small (divide or round before multiplying)";
        let d = match (&confirmed, &found) {
            (Some((w, x)), _) => {
                let x = num::to_decimal_string(x);
                Diagnostic::new("E108", p.file, span, format!("`{text}` overflows int64"))
                    .label(format!("reaches {x}"))
                    .note(format!("{what} reaches {x} with the witness's inputs; int64 holds {}", int64_text()))
                    .witness(json!({"inputs": wire::inputs_json(p, w)}))
            }
            (None, found) => {
                let mut d = Diagnostic::new("E108", p.file, span, format!("`{text}` is not proven to fit in int64"))
                    .label(format!("bounded by {bound}"))
                    .note(format!(
                        "not proven: {what} is bounded by {bound}, beyond int64 ({}), and no input was found that takes it there",
                        int64_text()
                    ));
                if let Some((_, (_, s))) = found {
                    let x = if high { s.clone() } else { -s.clone() };
                    d = d.note(format!("the furthest the inputs tried take it is {}", num::to_decimal_string(&x)));
                }
                if self.short.get() {
                    d = d.note(
                        "the linear reasoning ran out of its budget on the way (`rulec check --budget N` raises it)",
                    );
                }
                d
            }
        };
        self.diags.push(d.help(help));
    }

    /// A sentence naming the integer that overflows.
    fn describe(&self, at: &Failure, int: &Inter) -> String {
        match at {
            Failure::Node(r) => {
                let text = self.src(r.e.span);
                let kid_text = |i: usize| scale::children(r.e).get(i).map(|k| self.src(k.span)).unwrap_or("");
                let step = r.s.scale.as_ref().map(|s| self.step_text(&r.e.ty, s)).unwrap_or_default();
                let w = int.what.as_str();
                if w == "value" {
                    format!("`{text}` is held as a whole number of steps of {step}; it")
                } else if let Some(rest) = w.strip_prefix("operand ") {
                    let (i, k) = rest.split_once(" × ").unwrap_or((rest, "1"));
                    let i: usize = i.parse().unwrap_or(1);
                    if matches!(r.s.op, Op::Round { .. } | Op::Isqrt { .. }) || i == 0 {
                        format!("`{}` is multiplied by {k} before it is divided; the product", kid_text(0))
                    } else {
                        format!(
                            "to meet the other operands at steps of {step}, `{}` is multiplied by {k}; the product",
                            kid_text(i - 1)
                        )
                    }
                } else if w.starts_with("numerator") {
                    format!("the numerator of `{text}` ({w})")
                } else if w.starts_with("denominator") {
                    format!("the denominator of `{text}` ({w})")
                } else if w == "the divisor's magnitude" {
                    format!("the magnitude of the divisor `{}`", kid_text(1))
                } else {
                    format!("{w} of `{text}`")
                }
            }
            Failure::Store { st, e, .. } => {
                let var = &self.p.vars[st.var];
                if int.what == "stored" {
                    format!(
                        "`{}` is stored as a whole number of {}; it",
                        var.name,
                        self.step_text(&var.ty, &var.ty.factor())
                    )
                } else {
                    format!("storing `{}` into `{}` computes its {}; that", self.src(e.span), var.name, int.what)
                }
            }
        }
    }

    fn step_text(&self, ty: &Ty, s: &Rat) -> String {
        match ty {
            Ty::Int | Ty::Number | Ty::Date => num::to_decimal_string(s),
            _ => self.show(ty, s),
        }
    }

    fn report_pending(&mut self, pd: Pending<'a>) {
        let p = self.p;
        match pd {
            Pending::ZeroDivisor { node, divisor, env, root } => {
                let dtext = self.src(divisor.span);
                let ntext = self.src(node.span);
                let help = format!(
                    "guard the division (`if {dtext} != 0 then … else …`), or exclude 0 from what the inputs may be"
                );
                let mut extra = env.facts.clone();
                if let Some(lin) = model::linear_of(divisor) {
                    extra.extend(eq_facts(&lin, &Rat::zero()));
                }
                let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
                    match self.values_at(root, inputs) {
                        Err(EvalError::DivisionByZero) => Some((3, Rat::zero())),
                        Err(_) => None,
                        Ok((values, fires)) => {
                            if root_divides(root, p, &values) {
                                return Some((3, Rat::zero()));
                            }
                            let x = eval::eval_expr(divisor, &values).ok()?;
                            Some((if fires { 2 } else { 1 }, -value_num(&x)?.abs()))
                        }
                    }
                };
                let starts: Vec<Vec<Value>> =
                    self.linear_point(&extra).into_iter().chain(self.linear_point(&env.facts)).collect();
                let d = match self.search(root, &score, starts) {
                    Some((w, (3, _))) => {
                        Diagnostic::new("E132", p.file, divisor.span, format!("`{dtext}` can be zero where `{ntext}` divides by it"))
                            .label("zero with the witness's inputs")
                            .note("with the witness's inputs the reference evaluator divides by zero")
                            .witness(json!({"inputs": wire::inputs_json(p, &w)}))
                    }
                    _ => Diagnostic::new(
                        "E132",
                        p.file,
                        divisor.span,
                        format!("`{dtext}` is not proven nonzero where `{ntext}` divides by it"),
                    )
                    .label("not proven nonzero")
                    .note("not proven: the checker cannot show the divisor is never zero over the inputs the rule is asked about, and found no input that makes it zero"),
                };
                self.diags.push(d.help(help));
            }
            Pending::NegativeRoot { node, arg, env, root } => {
                let atext = self.src(arg.span);
                let ntext = self.src(node.span);
                let help =
                    format!("take the root of a value that cannot be negative, such as `isqrt(max({atext}, 0))`");
                let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
                    match self.values_at(root, inputs) {
                        Err(EvalError::NegativeRoot) => Some((3, Rat::zero())),
                        Err(_) => None,
                        Ok((values, fires)) => {
                            let x = eval::eval_expr(arg, &values).ok()?;
                            Some((if fires { 2 } else { 1 }, -value_num(&x)?.clone()))
                        }
                    }
                };
                let mut extra = env.facts.clone();
                if let Some(lin) = model::linear_of(arg) {
                    extra.push(Fact::le(&lin, &Lin::constant(Rat::zero()), true));
                }
                let starts: Vec<Vec<Value>> = self.linear_point(&extra).into_iter().collect();
                let d = match self.search(root, &score, starts) {
                    Some((w, (3, _))) => Diagnostic::new(
                        "E134",
                        p.file,
                        arg.span,
                        format!("`{atext}` can be negative where `{ntext}` takes its root"),
                    )
                    .label("below zero with the witness's inputs")
                    .note("with the witness's inputs the reference evaluator takes the root of a negative number")
                    .witness(json!({"inputs": wire::inputs_json(p, &w)})),
                    _ => Diagnostic::new(
                        "E134",
                        p.file,
                        arg.span,
                        format!("`{atext}` is not proven non-negative where `{ntext}` takes its root"),
                    )
                    .label("not proven non-negative")
                    .note("not proven: the checker cannot show the value is never negative over the inputs the rule is asked about, and found no input that makes it negative"),
                };
                self.diags.push(d.help(help));
            }
        }
    }

    fn check_input(&mut self, v: VarId) {
        let p = self.p;
        let var = &p.vars[v];
        let Some(iv) = &self.raw[v] else { return };
        let f = var.ty.factor();
        let int = Inter { what: "stored".into(), lo: &iv.0 / &f, hi: &iv.1 / &f };
        if int.fits() {
            return;
        }
        let span = var.range_span.unwrap_or(var.span);
        self.diags.push(
            Diagnostic::new("E108", p.file, span, format!("input `{}` may not fit in int64", var.name))
                .label(format!("reaches {}", int.max_abs()))
                .note(format!("an input is passed as a whole number of its unit; int64 holds {}", int64_text()))
                .help("declare a range whose ends fit in int64"),
        );
    }

    // ---- evaluation at a point

    /// Every variable's value for these inputs, and whether the root is evaluated at all.
    fn values_at(&self, root: Root, inputs: &[Value]) -> Result<(Vec<Value>, bool), EvalError> {
        let p = self.p;
        match root {
            Root::Constraint(_) => {
                let mut values = vec![Value::None; p.vars.len()];
                for (&v, x) in p.inputs.iter().zip(inputs) {
                    values[v] = x.clone();
                }
                Ok((values, true))
            }
            Root::Define(_) => Ok((eval::evaluate(p, inputs)?.values, true)),
            Root::Row { table, row, .. } => {
                let out = eval::evaluate(p, inputs)?;
                let fires = out.trace.contains(&Fired { table, row: row + 1 });
                Ok((out.values, fires))
            }
        }
    }

    /// The exact integer `int` names, at a point (a magnitude checked with either sign is
    /// taken on the side that overflows).
    fn inter_at(&self, at: &Failure, int: &Inter, values: &[Value], high: bool) -> Option<Rat> {
        let point = |e: &TExpr| -> Option<Iv> {
            let x = eval::eval_expr(e, values).ok()?;
            let x = value_num(&x)?.clone();
            Some((x.clone(), x))
        };
        let ints = match at {
            Failure::Node(r) => {
                let kids: Vec<Option<Iv>> = scale::children(r.e).into_iter().map(point).collect();
                let own = point(r.e);
                scale::node_ints(r.s, &kids, own.as_ref())
            }
            Failure::Store { st, e, s } => {
                let var = &self.p.vars[st.var];
                let ev = point(e)?;
                let sv = self.stored_iv(st.var, &ev);
                let es = s.scale.clone().unwrap_or_else(Rat::one);
                scale::store_ints(st, &es, &ev, &sv, &var.ty.factor())
            }
        };
        ints.into_iter().find(|x| x.what == int.what).map(|x| if high { x.hi } else { x.lo })
    }

    /// Whether these inputs reach `root`: they pass the door's constraints — for a
    /// constraint, the ones before it (ranges hold by construction).
    fn admissible(&self, root: Root, inputs: &[Value]) -> bool {
        let p = self.p;
        let mut values = vec![Value::None; p.vars.len()];
        for (&v, x) in p.inputs.iter().zip(inputs) {
            values[v] = x.clone();
        }
        let upto = match root {
            Root::Constraint(c) => c,
            _ => p.constraints.len(),
        };
        p.constraints[..upto].iter().all(|c| eval::eval_expr(&c.expr, &values) != Ok(Value::Bool(false)))
    }

    /// The values an input is tried at: the ends of its range, zero, next to the ends; every
    /// value of a boolean or an enum; the strings the tables name.
    fn candidates(&self, v: VarId) -> Vec<Value> {
        let p = self.p;
        let var = &p.vars[v];
        let mut out: Vec<Value> = match &var.ty {
            Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Ty::Enum(e) => {
                let n = p.enums[*e].values.len() as u32;
                let (lo, hi) = match &var.range {
                    Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                    _ => (0, n.saturating_sub(1)),
                };
                (lo..=hi).map(Value::Enum).collect()
            }
            Ty::Str => {
                let mut xs = vec![Value::Str(String::new())];
                for t in &p.tables {
                    for row in &t.rows {
                        for (c, &cv) in row.conds.iter().zip(&t.conds) {
                            if cv != v {
                                continue;
                            }
                            if let CondIr::Tests { tests, .. } = c {
                                for test in tests {
                                    if let TestIr::OneOf(vals) = test {
                                        xs.extend(vals.iter().cloned());
                                    }
                                }
                            }
                        }
                    }
                }
                xs
            }
            _ => match &self.raw[v] {
                Some((lo, hi)) => {
                    let f = var.ty.factor();
                    let mut xs = vec![lo.clone(), hi.clone()];
                    if !lo.is_positive() && !hi.is_negative() {
                        xs.push(Rat::zero());
                    }
                    xs.push(lo + &f);
                    xs.push(hi - &f);
                    xs.into_iter().filter(|x| x >= lo && x <= hi).map(Value::Num).collect()
                }
                None => Vec::new(),
            },
        };
        if var.optional {
            out.push(Value::None);
        }
        let mut seen = Vec::new();
        out.retain(|x| {
            let fresh = !seen.contains(x);
            seen.push(x.clone());
            fresh
        });
        out
    }

    /// Coordinate ascent over the inputs from the best admissible start (the given ones, the
    /// low corner, the high corner): the point whose score is highest.
    fn search(&self, root: Root, score: &Score, mut starts: Vec<Vec<Value>>) -> Option<(Vec<Value>, (u8, Rat))> {
        let cands: Vec<Vec<Value>> = self.p.inputs.iter().map(|&v| self.candidates(v)).collect();
        if cands.iter().any(Vec::is_empty) {
            return None;
        }
        starts.push(cands.iter().map(|c| c[0].clone()).collect());
        starts.push(
            cands
                .iter()
                .map(|c| if c.len() > 1 && matches!(c[1], Value::Num(_)) { c[1].clone() } else { c[0].clone() })
                .collect(),
        );
        let mut best: Option<(Vec<Value>, (u8, Rat))> = None;
        for st in starts {
            if !self.admissible(root, &st) {
                continue;
            }
            if let Some(sc) = score(&st) {
                if best.as_ref().is_none_or(|b| sc > b.1) {
                    best = Some((st, sc));
                }
            }
        }
        let (mut cur, mut cs) = best?;
        for _ in 0..3 {
            let mut improved = false;
            for i in 0..cur.len() {
                for c in &cands[i] {
                    if *c == cur[i] {
                        continue;
                    }
                    let mut t = cur.clone();
                    t[i] = c.clone();
                    if !self.admissible(root, &t) {
                        continue;
                    }
                    if let Some(sc) = score(&t) {
                        if sc > cs {
                            cur = t;
                            cs = sc;
                            improved = true;
                        }
                    }
                }
            }
            if !improved || cs.0 >= 3 {
                break;
            }
        }
        Some((cur, cs))
    }

    /// Inputs satisfying the program's facts and `extra`, found by fixing one input at a
    /// time to a whole number of its unit inside what the facts still allow (nearest 0).
    fn linear_point(&self, extra: &[Fact]) -> Option<Vec<Value>> {
        self.linear_point_in(extra, &[])
    }

    /// [`Self::linear_point`] with each input also taking a value its `cells` accept.
    fn linear_point_in(&self, extra: &[Fact], cells: &[(VarId, &CondIr)]) -> Option<Vec<Value>> {
        let p = self.p;
        if !self.feasible {
            return None;
        }
        let mut facts: Vec<Fact> = self.base.iter().chain(extra).cloned().collect();
        let feasible = |fs: &[Fact]| {
            let mut b = self.budget;
            fs.is_empty() || linear::refute(fs, &mut b) == Outcome::Feasible
        };
        if !feasible(&facts) {
            return None;
        }
        let mut out = Vec::new();
        for &v in &p.inputs {
            let var = &p.vars[v];
            let accepted = |x: &Value| cells.iter().all(|(w, c)| *w != v || eval::cell_holds(c, x));
            if var.optional {
                out.push(if accepted(&Value::None) {
                    Value::None
                } else {
                    self.candidates(v).into_iter().find(|x| accepted(x)).unwrap_or(Value::None)
                });
                continue;
            }
            let Some(raw) = self.raw[v].clone() else {
                let cands = self.candidates(v);
                out.push(cands.iter().find(|x| accepted(x)).or(cands.first()).cloned()?);
                continue;
            };
            let mut b = self.budget;
            let (lo, hi) = linear::bounds(&facts, &Lin::var(v), &mut b);
            let lo = lo.map_or(raw.0.clone(), |l| l.max(raw.0.clone()));
            let hi = hi.map_or(raw.1.clone(), |h| h.min(raw.1.clone()));
            let f = var.ty.factor();
            let (lk, hk) = ((&lo / &f).ceil(), (&hi / &f).floor());
            if lk > hk {
                return None;
            }
            let zero = Rat::zero().max(lk.clone()).min(hk.clone());
            let tries = [zero, lk.clone(), hk.clone(), lk + Rat::one(), hk - Rat::one()];
            let mut fixed = None;
            for k in tries {
                let x = k * &f;
                if x < lo || x > hi || !accepted(&Value::Num(x.clone())) {
                    continue;
                }
                let mut next = facts.clone();
                next.extend(eq_facts(&Lin::var(v), &x));
                if feasible(&next) {
                    fixed = Some((x, next));
                    break;
                }
            }
            let (x, next) = fixed?;
            facts = next;
            out.push(Value::Num(x));
        }
        Some(out)
    }

    // ---- the certificate

    fn var_entry(&mut self, v: VarId) {
        let p = self.p;
        let var = &p.vars[v];
        let Some(iv) = self.iv[v].clone() else { return };
        let expr = match var.decided_by {
            Some(Decider::Define(d)) => Some(self.expr_json(&p.defines[d].expr)),
            Some(Decider::Table(t)) => Some(json!({"table": p.tables[t].name})),
            None => None,
        };
        let sc = self.ann.var_scale[v].clone().unwrap_or_else(|| var.ty.factor());
        let int = Inter { what: "stored".into(), lo: &iv.0 / &sc, hi: &iv.1 / &sc };
        let entry = self.entry((var.name.clone(), None), &var.ty, expr, &iv, &sc, &[int]);
        self.entries.push(entry);
    }

    fn entry(
        &self,
        (name, of): (String, Option<String>),
        ty: &Ty,
        expr: Option<Json>,
        iv: &Iv,
        sc: &Rat,
        ints: &[Inter],
    ) -> ValueEntry {
        let f = ty.factor();
        let end = |x: &Rat| {
            if *ty == Ty::Date {
                num::to_i64(x).map(date::format_days).unwrap_or_else(|| num::to_decimal_string(x))
            } else {
                num::to_decimal_string(&(x / &f))
            }
        };
        let stored_max = ints.first().map(Inter::max_abs).unwrap_or_default();
        let intermediates = ints.iter().skip(1).map(|i| (i.what.clone(), i.max_abs())).collect();
        let ty_text = match ty {
            Ty::Number => "number".to_string(),
            t => ty_name(t, &self.p.enums),
        };
        ValueEntry {
            name,
            of,
            ty: ty_text,
            expr,
            interval: (end(&iv.0), end(&iv.1)),
            scale: sc / &f,
            stored_max,
            intermediates,
        }
    }

    fn expr_json(&self, e: &TExpr) -> Json {
        let p = self.p;
        let j = |x: &TExpr| self.expr_json(x);
        match &e.kind {
            TExprKind::Const(v) => json!({"lit": wire::display(p, &e.ty, v)}),
            TExprKind::Var(v) => json!({"name": p.vars[*v].name}),
            TExprKind::Neg(x) => json!({"op": "neg", "x": j(x)}),
            TExprKind::Arith(op, a, b) => json!({"op": op.as_str(), "l": j(a), "r": j(b)}),
            TExprKind::Cmp(op, a, b) => json!({"op": op.as_str(), "l": j(a), "r": j(b)}),
            TExprKind::Not(x) => json!({"op": "not", "x": j(x)}),
            TExprKind::And(a, b) => json!({"op": "and", "l": j(a), "r": j(b)}),
            TExprKind::Or(a, b) => json!({"op": "or", "l": j(a), "r": j(b)}),
            TExprKind::Min(xs) => json!({"op": "min", "args": xs.iter().map(j).collect::<Vec<_>>()}),
            TExprKind::Max(xs) => json!({"op": "max", "args": xs.iter().map(j).collect::<Vec<_>>()}),
            TExprKind::Mod(a, b) => json!({"op": "mod", "l": j(a), "r": j(b)}),
            TExprKind::Isqrt(x) => json!({"op": "isqrt", "x": j(x)}),
            TExprKind::Round { value, mode, grid } => {
                json!({"op": "round", "x": j(value), "mode": mode.as_str(), "grid": self.show(&e.ty, grid)})
            }
            TExprKind::If { cond, then, els } => json!({"op": "if", "cond": j(cond), "then": j(then), "else": j(els)}),
            TExprKind::In { var, values } => {
                let ty = &p.vars[*var].ty;
                let vals: Vec<String> = values.iter().map(|v| wire::display(p, ty, v)).collect();
                json!({"op": "in", "name": p.vars[*var].name, "values": vals})
            }
        }
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
            None => {}
        }
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
