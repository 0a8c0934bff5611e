//! The code plan: what a rule's generated code does, as data, decided once per rule. Every
//! backend reads this and nothing else of the rule — not the `Program`, not the source text.
//!
//! - the declarations: enums, the unit types, every variable with its kind, its type at the
//!   boundary, its range and its rounding;
//! - the door ([`door`]): the ordered checks of a call, each with the sentence the reference
//!   evaluator says (src/eval/wire.rs owns them);
//! - the steps in evaluation order: defines, and tables as ordered decisions (each row's
//!   condition, what it stores, its cells as written), the W114 pair guards, the no-row refusal;
//! - the record layout, and the helpers the code calls.
//!
//! Every integer operation the int64 proof (`analysis::scale`, E108) vouched for is explicit.

pub mod code;
pub mod decision;
pub mod door;
mod sign;
mod walks;
pub use walks::{FieldDoor, SequencePlan};

pub use code::{Arith, Expr, Kind, Node};
pub use decision::Decision;
pub use door::{Constraint, Door, InputDoor, RangeCheck};

use crate::analysis::scale::{self, Annotation, Op, Scaled, Store};
use crate::analysis::{Analysis, Guard};
use crate::num::{Rat, RoundMode};
use crate::sema::{self, CondIr, EnumId, Program, TExpr, TExprKind, TableIr, TestIr, Ty, Value, VarId, VarKind};
use crate::syntax::ast::{CmpOp, Policy};
use num_bigint::BigInt;
use num_traits::One;
use std::collections::BTreeSet;

/// The rule a plan was made from, as headers and `rulec api` name it.
#[derive(Clone, Debug)]
pub struct RuleInfo {
    /// The declared name (the one traces and messages use).
    pub name: String,
    /// The ASCII identifier: the alias, or the name.
    pub base: String,
    pub version: u64,
    pub about: Option<String>,
    /// The rule file's name (`parcel_rate.rule`).
    pub source_name: String,
    /// The SHA-256 of the rule file's bytes, in hex.
    pub sha256: String,
}

#[derive(Clone, Debug)]
pub struct EnumPlan {
    pub name: String,
    /// The ASCII identifier base: the alias or the name.
    pub base: String,
    pub ordered: bool,
    pub values: Vec<MemberPlan>,
    /// Whether the code compares or takes min/max of its values by place.
    pub ranked: bool,
    /// The enums file that declares it (its place in `Plan::uses`), whose own module holds
    /// its type in a language that writes one; `None` for the rule's own.
    pub home: Option<usize>,
}

/// An enums file the rule reads: the module its enums are written in, once per folder
/// however many rules read them.
#[derive(Clone, Debug)]
pub struct UsePlan {
    /// The name its header declares (`tiers`).
    pub name: String,
    /// The ASCII identifier base of its module: the alias or the name.
    pub base: String,
    /// The file's name (`tiers.rule`) and the SHA-256 of its bytes, in hex.
    pub source_name: String,
    pub sha256: String,
}

#[derive(Clone, Debug)]
pub struct MemberPlan {
    /// The declared name: what the wire and the records carry.
    pub name: String,
    pub base: String,
    pub display: Option<String>,
}

/// A named integer type of the boundary (`JPYInclTax`, `Grams`, `Rate`): languages with a
/// brand or a newtype declare one; the others document it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitType {
    pub name: String,
    /// The type as the rule writes it: `money[JPY, incl_tax]`.
    pub what: String,
    /// The unit's symbol (`JPY`, `g`; `%` for a rate).
    pub symbol: String,
}

/// What a variable is at the boundary (parameters, outputs, locals of a declared type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundaryTy {
    Bool,
    Str,
    /// A count or plain number with no unit.
    Int,
    /// A calendar day, held as its day number.
    Date,
    Enum(EnumId),
    /// One of `Plan::units`.
    Unit(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Input,
    Output,
    /// Decided by a table, read by others.
    Value,
    Define,
    /// A field of a sequence's element, bound from the element inside its walk.
    Field,
    /// A sequence the function takes (a list of elements).
    Sequence,
    /// The element a walk is on.
    Item,
}

#[derive(Clone, Debug)]
pub struct VarPlan {
    /// The declared name: the wire, the records and the vectors use it.
    pub name: String,
    /// The ASCII identifier base (the alias, or the name); naming renames it per language.
    pub base: String,
    pub role: Role,
    pub kind: Kind,
    pub ty: BoundaryTy,
    pub optional: bool,
    /// The type as the rule writes it (`money[USD]`, `zone`, `date`).
    pub what: String,
    /// The declared range, in wire integers (day numbers for a date, places for an ordered enum).
    pub range: Option<(i64, i64)>,
    pub rounding: Option<(RoundMode, i64)>,
    /// A define with no declared type is held at its expression's scale rather than as a
    /// value of a boundary type.
    pub scaled: bool,
    /// The variable holds a list of values of its kind and type, built element by element
    /// (`Step::Push`, a collect table's `Fold::List`) and walked (`Step::Walk`).
    pub list: bool,
}

#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based, as written.
    pub n: usize,
    pub cond: Expr,
    /// One per result: the value stored (`Node::Absent` for none).
    pub assigns: Vec<(VarId, Expr)>,
    /// The row's cells as written, `|`-separated, for the comment beside the branch.
    pub cells: String,
}

/// Two rows of a `unique` table the checker could not prove apart (W114): both matching
/// stops the call.
#[derive(Clone, Debug)]
pub struct PairGuard {
    pub a: usize,
    pub b: usize,
    pub sentence: String,
}

/// A table whose condition cells all test enum or boolean values (or take anything): it can
/// be written as one `match` whose arms, in the rows' order, are patterns of values.
#[derive(Clone, Debug)]
pub struct MatchShape {
    pub columns: Vec<VarId>,
    /// Per row, per column: `None` for a cell that takes anything, else the values it takes.
    pub patterns: Vec<Vec<Option<Vec<Expr>>>>,
}

#[derive(Clone, Debug)]
pub struct TablePlan {
    pub name: String,
    pub policy: &'static str,
    /// Its place among the tables in evaluation order: the slot of its row in a trace.
    pub slot: usize,
    pub results: Vec<VarId>,
    pub rows: Vec<Row>,
    pub guards: Vec<PairGuard>,
    /// The sentence after the last row (completeness proved it unreachable).
    pub no_row: String,
    pub shape: Option<MatchShape>,
    /// The shape as a decision over its columns (a `switch` per enum column, an `if` per
    /// boolean), for the languages whose idiom that is; none when it would repeat the rows
    /// too often.
    pub decision: Option<Decision>,
    /// Every row that holds counts, its value folded into the table's one result, or under
    /// `Fold::List` added to each of its lists (DMN's multiple-hit policies); `None` for a
    /// table whose first row that holds fires.
    pub collect: Option<Collect>,
}

/// How a collect table folds the values of the rows that hold into its result (its lists).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collect {
    pub fold: Fold,
    /// The result when no row holds (a sum, a minimum, a maximum); a count starts from 0 and
    /// a list from no element.
    pub empty: Expr,
    /// For a sum, a minimum and a maximum: the boolean variable saying a row has held, so the
    /// first value held replaces `empty` rather than folding into it.
    pub seen: Option<VarId>,
}

/// How an accumulation combines the values of the rows that hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Sum,
    Min,
    Max,
    Count,
    /// Every value, in the rows' order (the result is a list).
    List,
}

/// A walk over a list: the steps of `body` run for each element in order, the element bound
/// to `element`; the accumulators are set before the first element, and the walk ends after
/// an element where `stop` holds.
#[derive(Clone, Debug)]
pub struct WalkPlan {
    pub list: VarId,
    pub element: VarId,
    pub accumulators: Vec<(VarId, Expr)>,
    /// Steps of `Plan::steps`, after the walk's own, in evaluation order; a step belongs to
    /// one walk at most and is run only there.
    pub body: Vec<usize>,
    pub stop: Option<Expr>,
}

/// Another rule applied (`apply`, issue 29), written into this rule's function: each of
/// the callee's inputs bound to a value of this rule, the callee's steps run over its own
/// variables (named with the apply's prefix, as its tables are: `elig:m_elig`), and the
/// variables of this rule that read its outputs set after them. The callee's steps are this
/// plan's steps, so every stage that runs or prints a plan runs or prints them unchanged.
#[derive(Clone, Debug)]
pub struct CallPlan {
    /// The callee's rule name, as the comment over the call names it.
    pub rule: String,
    /// Each input of the callee, in its declared order, with the value it is bound to.
    pub args: Vec<(VarId, Expr)>,
    /// Steps of `Plan::steps`, after the call's own, run for the callee in order; a step
    /// belongs to one call (or walk) at most and is run only there.
    pub body: Vec<usize>,
    /// Each variable of this rule set from the callee's outputs once its steps have run.
    pub results: Vec<(VarId, Expr)>,
}

impl TablePlan {
    /// The variables the table reads (its rows' conditions and the values they store),
    /// once each, in the order the rows read them.
    pub fn reads(&self) -> Vec<VarId> {
        let mut out: Vec<VarId> = Vec::new();
        for row in &self.rows {
            let exprs = std::iter::once(&row.cond).chain(row.assigns.iter().map(|(_, x)| x));
            for v in exprs.flat_map(Expr::vars) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }
}

#[derive(Clone, Debug)]
pub enum Step {
    Define {
        var: VarId,
        value: Expr,
    },
    Table(TablePlan),
    /// A variable set again (a walk's accumulator).
    Assign {
        var: VarId,
        value: Expr,
    },
    /// `value` appended to the list held by `list`.
    Push {
        list: VarId,
        value: Expr,
    },
    Walk(WalkPlan),
    Call(CallPlan),
    /// Stop the call when `when` holds: an input refused (a summary outside the range the
    /// caller keeps) or a contradiction (two elements taking under `take_unique`).
    Refuse {
        when: Expr,
        sentence: String,
        input: bool,
    },
}

impl Step {
    /// The expressions of the step itself, in the order it evaluates them (a walk's body
    /// steps are steps of their own).
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Step::Define { value, .. } | Step::Assign { value, .. } | Step::Push { value, .. } => vec![value],
            Step::Refuse { when, .. } => vec![when],
            Step::Table(t) => {
                let mut out = Vec::new();
                for r in &t.rows {
                    out.push(&r.cond);
                    out.extend(r.assigns.iter().map(|(_, v)| v));
                }
                out.extend(t.collect.iter().map(|c| &c.empty));
                out
            }
            Step::Walk(w) => w.accumulators.iter().map(|(_, x)| x).chain(&w.stop).collect(),
            Step::Call(c) => c.args.iter().chain(&c.results).map(|(_, x)| x).collect(),
        }
    }
}

/// One piece of the record line: JSON text as it is, or the wire form of a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// An input, as the call passed it.
    Input(VarId),
    /// An output, as the call returned it.
    Output(VarId),
}

/// The helpers generated code calls; a module carries only those its rule uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Helper {
    DivRound(RoundMode),
    Mod,
    Isqrt,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub rule: RuleInfo,
    pub uses: Vec<UsePlan>,
    pub enums: Vec<EnumPlan>,
    pub units: Vec<UnitType>,
    /// Whether a date crosses the boundary (the module then has a date type and its converters).
    pub dates: bool,
    pub vars: Vec<VarPlan>,
    pub inputs: Vec<VarId>,
    pub outputs: Vec<VarId>,
    pub door: Door,
    pub steps: Vec<Step>,
    /// The record line after its optional `"tag":…,`: `"in":{…},"observed":{…},"trace":[` then
    /// the trace, then `]}`.
    pub record: Vec<Piece>,
    pub helpers: BTreeSet<Helper>,
    /// The constraints as the rule writes them (`rulec api`'s preconditions).
    pub preconditions: Vec<String>,
    /// The sequences the function takes after the inputs, in the order declared.
    pub sequences: Vec<SequencePlan>,
}

impl Plan {
    /// Every expression the code computes, each node once: the constraints' tests, the
    /// defines, and every table's conditions and results, in evaluation order.
    pub fn each_expr(&self, f: &mut impl FnMut(&Expr)) {
        fn walk(e: &Expr, f: &mut impl FnMut(&Expr)) {
            f(e);
            for k in e.children() {
                walk(k, f);
            }
        }
        for c in &self.door.constraints {
            walk(&c.test, f);
        }
        for e in self.steps.iter().flat_map(Step::exprs) {
            walk(e, f);
        }
    }

    /// Every expression the rule evaluates: the constraints' tests, then each step's (a
    /// define's value; a table's rows, each condition then its assignments).
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut out: Vec<&Expr> = self.door.constraints.iter().map(|c| &c.test).collect();
        out.extend(self.steps.iter().flat_map(Step::exprs));
        out
    }

    /// Every node of every expression the rule evaluates, each expression's root first.
    pub fn nodes(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        for e in self.exprs() {
            e.nodes(&mut out);
        }
        out
    }

    pub fn tables(&self) -> impl Iterator<Item = &TablePlan> {
        self.steps.iter().filter_map(|s| match s {
            Step::Table(t) => Some(t),
            _ => None,
        })
    }

    pub fn var(&self, v: VarId) -> &VarPlan {
        &self.vars[v]
    }

    /// The first table that folds every row that holds (DMN's multiple-hit policies).
    pub fn collect_table(&self) -> Option<&TablePlan> {
        self.tables().find(|t| t.collect.is_some())
    }

    /// The place in `sequences` of the sequence whose parameter is `list`.
    pub fn sequence_of(&self, list: VarId) -> usize {
        self.sequences.iter().position(|s| s.list == list).expect("a sequence of the plan")
    }

    /// The first output that is a list, where one is.
    pub fn list_output(&self) -> Option<&VarPlan> {
        self.outputs.iter().map(|&v| self.var(v)).find(|v| v.list)
    }

    /// The variables a value of a boundary type holds: inputs, outputs, values and declared
    /// defines — what a language's unit types and date type are declared for.
    pub fn typed_vars(&self) -> impl Iterator<Item = &VarPlan> {
        self.vars.iter().filter(|v| !v.scaled)
    }
}

/// Build the plan of a rule that checked clean.
pub fn build(p: &Program, analysis: &Analysis, source_name: &str, sha256: &str) -> Plan {
    lower(p, &analysis.values.scales, &analysis.guards, source_name, sha256)
}

/// The plan from what [`build`] reads of the analysis: the int64 model the proof vouched for
/// (`ann`, the scale and operation of every node, E108) and the W114 pairs to guard. For a
/// caller that holds the program alone (`production::fast`).
pub fn lower(p: &Program, ann: &Annotation, guards: &[Guard], source_name: &str, sha256: &str) -> Plan {
    let enums = enums(p);
    let units = unit_types(p);
    let mut vars: Vec<VarPlan> = p.vars.iter().map(|v| var_plan(p, &units, v)).collect();
    let mut b = Builder { p, ann, helpers: BTreeSet::new(), ranked: BTreeSet::new() };
    let door = door::build(p, &vars, &mut b);
    let sequences = b.sequences(&mut vars);
    let mut steps = Vec::new();
    let mut slot = 0;
    let mut lower_step = |b: &mut Builder, step: sema::Step, vars: &mut Vec<VarPlan>, steps: &mut Vec<Step>| match step
    {
        sema::Step::Define(d) => {
            let def = &p.defines[d];
            let s = &ann.defines[d];
            let mut value = match &ann.define_stores[d] {
                Some(st) => b.store(&def.expr, s, st),
                None => b.expr(&def.expr, s),
            };
            value.optional = p.vars[def.var].optional;
            steps.push(Step::Define { var: def.var, value });
        }
        sema::Step::Table(t) => {
            let mut table = b.table(t, slot, guards);
            let answer = b.collect(t, &mut table, vars);
            steps.push(Step::Table(table));
            steps.extend(answer);
            slot += 1;
        }
        sema::Step::Walk(_) => unreachable!("a walk is lowered by Builder::walk"),
    };
    for step in &p.order {
        match *step {
            sema::Step::Walk(w) => b.walk(w, &sequences, &mut vars, &mut steps, &mut lower_step),
            other => lower_step(&mut b, other, &mut vars, &mut steps),
        }
    }
    let mut enums = enums;
    for e in &b.ranked {
        enums[*e].ranked = true;
    }
    let dates = vars.iter().any(|v| !v.scaled && v.ty == BoundaryTy::Date && v.role != Role::Define);
    let mut plan = Plan {
        rule: RuleInfo {
            name: p.name.clone(),
            base: p.ident().to_string(),
            version: p.version,
            about: p.about.clone(),
            source_name: source_name.to_string(),
            sha256: sha256.to_string(),
        },
        uses: p
            .uses
            .iter()
            .map(|u| UsePlan {
                name: u.name.clone(),
                base: u.ident().to_string(),
                source_name: u.source_name.clone(),
                sha256: u.sha256.clone(),
            })
            .collect(),
        enums,
        units,
        dates,
        record: record(p, &sequences),
        vars,
        inputs: p.inputs.clone(),
        outputs: p.outputs.clone(),
        door,
        steps,
        helpers: b.helpers,
        preconditions: p.constraints.iter().map(|c| c.text.clone()).collect(),
        sequences,
    };
    sign::settle_roundings(&mut plan);
    plan
}

fn enums(p: &Program) -> Vec<EnumPlan> {
    p.enums
        .iter()
        .map(|e| EnumPlan {
            name: e.name.clone(),
            base: e.ident().to_string(),
            ordered: e.ordered,
            values: e
                .values
                .iter()
                .map(|v| MemberPlan {
                    name: v.name.clone(),
                    base: v.alias.clone().unwrap_or_else(|| v.name.clone()),
                    display: v.display.clone(),
                })
                .collect(),
            ranked: false,
            home: p.uses.iter().position(|u| u.file == e.file),
        })
        .collect()
}

/// The generated name of a unit type (language.md §3): `JPY`, `JPYInclTax`, `YenInclTax`,
/// `Grams`, `Inches`, `Rate` (or one per step when a rule declares several).
fn unit_type_name(steps: &[Rat], ty: &Ty) -> Option<String> {
    match ty {
        Ty::Money { unit, tag } => Some(format!(
            "{}{}",
            unit.type_name,
            match tag {
                sema::Tag::Incl => "InclTax",
                sema::Tag::Excl => "ExclTax",
                _ => "",
            }
        )),
        Ty::Qty { unit } => Some(unit.type_name.to_string()),
        Ty::Rate { step } => {
            if steps.len() <= 1 {
                return Some("Rate".into());
            }
            let pct = step * crate::num::int(100);
            Some(match crate::num::to_decimal_string(&pct).as_str() {
                "1" => "RatePct".into(),
                "0.1" => "RatePermille".into(),
                "0.01" => "RateBp".into(),
                other => format!("Rate{}", other.replace('.', "_")),
            })
        }
        _ => None,
    }
}

fn rate_steps(p: &Program) -> Vec<Rat> {
    let mut out: Vec<Rat> = Vec::new();
    for v in &p.vars {
        if let Ty::Rate { step } = &v.ty {
            if !out.contains(step) {
                out.push(step.clone());
            }
        }
    }
    out
}

/// Every unit type a declared variable uses, once each, in order of first appearance.
fn unit_types(p: &Program) -> Vec<UnitType> {
    let steps = rate_steps(p);
    let mut out: Vec<UnitType> = Vec::new();
    for v in &p.vars {
        if v.kind == VarKind::Define && !v.declared {
            continue;
        }
        if let Some(name) = unit_type_name(&steps, &v.ty) {
            if !out.iter().any(|u| u.name == name) {
                let symbol = match &v.ty {
                    Ty::Rate { .. } => "%".to_string(),
                    ty => ty.unit().map(|u| u.symbol.to_string()).unwrap_or_default(),
                };
                out.push(UnitType { name, what: sema::ty_name(&v.ty, &p.enums), symbol });
            }
        }
    }
    out
}

fn kind_of(ty: &Ty) -> Kind {
    match ty {
        Ty::Bool => Kind::Bool,
        Ty::Str => Kind::Str,
        Ty::Enum(e) => Kind::Enum(*e),
        _ => Kind::Num,
    }
}

fn var_plan(p: &Program, units: &[UnitType], v: &sema::Var) -> VarPlan {
    let scaled = v.kind == VarKind::Define && !v.declared;
    let steps = rate_steps(p);
    let ty = match &v.ty {
        Ty::Bool => BoundaryTy::Bool,
        Ty::Str => BoundaryTy::Str,
        Ty::Date => BoundaryTy::Date,
        Ty::Enum(e) => BoundaryTy::Enum(*e),
        Ty::Int | Ty::Number => BoundaryTy::Int,
        ty => match unit_type_name(&steps, ty).and_then(|n| units.iter().position(|u| u.name == n)) {
            Some(u) => BoundaryTy::Unit(u),
            None => BoundaryTy::Int,
        },
    };
    let range = v.range.as_ref().and_then(|r| match r {
        (Value::Num(lo), Value::Num(hi)) => {
            let f = v.ty.factor();
            Some((to_i64(&(lo / &f).to_integer()), to_i64(&(hi / &f).to_integer())))
        }
        (Value::Enum(lo), Value::Enum(hi)) => Some((*lo as i64, *hi as i64)),
        _ => None,
    });
    VarPlan {
        name: v.name.clone(),
        base: v.ident().to_string(),
        role: match v.kind {
            VarKind::Input => Role::Input,
            VarKind::Output => Role::Output,
            VarKind::Value => Role::Value,
            VarKind::Define => Role::Define,
            VarKind::Element => Role::Field,
        },
        kind: kind_of(&v.ty),
        ty,
        optional: v.optional,
        what: sema::var_ty_name(v, &p.enums),
        range,
        rounding: v.rounding.as_ref().map(|r| (r.mode, to_i64(&r.grid_units.to_integer()))),
        scaled,
        list: v.list,
    }
}

/// The record layout: the inputs, then each sequence (a variable of role `Sequence`, written
/// as an array of objects), then the outputs.
fn record(p: &Program, sequences: &[SequencePlan]) -> Vec<Piece> {
    let key = |name: &str| serde_json::to_string(name).expect("a name serializes");
    let mut pieces = Vec::new();
    let mut text = String::from("\"in\":{");
    let passed = p.inputs.iter().map(|&v| (&p.vars[v].name, v)).chain(sequences.iter().map(|s| (&s.name, s.list)));
    for (i, (name, v)) in passed.enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&key(name));
        text.push(':');
        pieces.push(Piece::Text(std::mem::take(&mut text)));
        pieces.push(Piece::Input(v));
    }
    text.push_str("},\"observed\":{");
    for (i, &v) in p.outputs.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&key(&p.vars[v].name));
        text.push(':');
        pieces.push(Piece::Text(std::mem::take(&mut text)));
        pieces.push(Piece::Output(v));
    }
    text.push_str("},\"trace\":[");
    pieces.push(Piece::Text(text));
    pieces
}

/// Every integer the plan writes was proven to fit int64 (E108) before code is generated.
fn to_i64(n: &BigInt) -> i64 {
    i64::try_from(n).expect("E108 proved every integer of the generated code fits in int64")
}

pub(crate) struct Builder<'a> {
    p: &'a Program,
    ann: &'a Annotation,
    helpers: BTreeSet<Helper>,
    /// Enums whose values the code compares by place.
    ranked: BTreeSet<EnumId>,
}

fn times(x: Expr, k: &BigInt) -> Expr {
    if k.is_one() {
        x
    } else {
        Expr::num(Node::Arith(Arith::Mul, Box::new(x), Box::new(Expr::int(to_i64(k)))))
    }
}

impl Builder<'_> {
    fn div_round(&mut self, n: Expr, d: Expr, mode: RoundMode) -> Expr {
        if d.node == Node::Int(1) {
            return n;
        }
        self.helpers.insert(Helper::DivRound(mode));
        Expr::num(Node::DivRound(Box::new(n), Box::new(d), mode))
    }

    /// A value stored into a declared variable: converted to its wire integer, rounded when
    /// the variable is an output that declares a rounding.
    fn store(&mut self, e: &TExpr, s: &Scaled, st: &Store) -> Expr {
        let code = match st.round {
            None => {
                let n = times(self.expr(e, s), &st.p);
                if st.q.is_one() {
                    n
                } else {
                    Expr::num(Node::DivExact(Box::new(n), to_i64(&st.q)))
                }
            }
            Some(mode) if st.quotient => self.quotient(e, s, mode),
            Some(mode) => {
                let n = times(self.expr(e, s), &st.p);
                self.div_round(n, Expr::int(to_i64(&st.q)), mode)
            }
        };
        times(code, &st.m)
    }

    /// A quotient by a value, divided and rounded in one step.
    fn quotient(&mut self, e: &TExpr, s: &Scaled, mode: RoundMode) -> Expr {
        let (Op::Quotient { p, q }, TExprKind::Arith(_, a, b)) = (&s.op, &e.kind) else {
            unreachable!("a store marked as a quotient stores a quotient")
        };
        let n = times(self.expr(a, &s.kids[0]), p);
        let d = times(self.expr(b, &s.kids[1]), q);
        self.div_round(n, d, mode)
    }

    fn kid(&mut self, e: &TExpr, s: &Scaled, i: usize) -> Expr {
        let children = scale::children(e);
        let k = s.k.get(i).cloned().unwrap_or_else(BigInt::one);
        let c = self.expr(children[i], &s.kids[i]);
        times(c, &k)
    }

    fn var(&self, v: VarId) -> Expr {
        let var = &self.p.vars[v];
        Expr { kind: kind_of(&var.ty), optional: var.optional, node: Node::Var(v) }
    }

    pub(crate) fn expr(&mut self, e: &TExpr, s: &Scaled) -> Expr {
        let n = scale::children(e).len();
        let bx = Box::new;
        let num = Expr::num;
        match &s.op {
            Op::Const(n) => Expr::int(to_i64(n)),
            Op::Var(v) => self.var(*v),
            Op::Neg => num(Node::Neg(bx(self.kid(e, s, 0)))),
            Op::Add => num(Node::Arith(Arith::Add, bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))),
            Op::Sub => num(Node::Arith(Arith::Sub, bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))),
            Op::Mul => num(Node::Arith(Arith::Mul, bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))),
            Op::DivConst { negate } => {
                let x = self.kid(e, s, 0);
                if *negate {
                    num(Node::Neg(bx(x)))
                } else {
                    x
                }
            }
            Op::Quotient { .. } => unreachable!("a quotient is consumed by the rounding above it (E133 otherwise)"),
            Op::Min => num(Node::Min((0..n).map(|i| self.kid(e, s, i)).collect())),
            Op::Max => num(Node::Max((0..n).map(|i| self.kid(e, s, i)).collect())),
            Op::If => {
                let cond = self.kid(e, s, 0);
                num(Node::If(bx(cond), bx(self.kid(e, s, 1)), bx(self.kid(e, s, 2))))
            }
            Op::Mod => {
                self.helpers.insert(Helper::Mod);
                num(Node::Mod(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))))
            }
            Op::Isqrt { p, q } => {
                self.helpers.insert(Helper::Isqrt);
                let x = times(self.kid(e, s, 0), p);
                let x = self.div_round(x, Expr::int(to_i64(q)), RoundMode::Floor);
                num(Node::Isqrt(bx(x)))
            }
            Op::Round { mode, p, q } => {
                let children = scale::children(e);
                if matches!(s.kids[0].op, Op::Quotient { .. }) {
                    return self.quotient(children[0], &s.kids[0], *mode);
                }
                let x = times(self.expr(children[0], &s.kids[0]), p);
                self.div_round(x, Expr::int(to_i64(q)), *mode)
            }
            Op::Cmp => {
                let TExprKind::Cmp(op, ..) = &e.kind else { unreachable!("a numeric comparison") };
                Expr::cmp(*op, self.kid(e, s, 0), self.kid(e, s, 1))
            }
            Op::Other => self.other(e, s),
        }
    }

    /// Nodes that are not numbers: booleans, enums, strings, and the logic over them.
    fn other(&mut self, e: &TExpr, s: &Scaled) -> Expr {
        let bx = Box::new;
        match &e.kind {
            TExprKind::Const(v) => self.value(&e.ty, v),
            TExprKind::Var(v) => self.var(*v),
            TExprKind::Cmp(op, ..) => {
                let (a, b) = (self.kid(e, s, 0), self.kid(e, s, 1));
                self.rank_if_ordered(*op, &a);
                Expr::cmp(*op, a, b)
            }
            TExprKind::Not(_) => Expr::negate(self.kid(e, s, 0)),
            TExprKind::And(..) => Expr::bool(Node::And(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))),
            TExprKind::Or(..) => Expr::or(self.kid(e, s, 0), self.kid(e, s, 1)),
            TExprKind::If { .. } => {
                let (c, a, b) = (self.kid(e, s, 0), self.kid(e, s, 1), self.kid(e, s, 2));
                Expr::new(kind_of(&e.ty), Node::If(bx(c), bx(a), bx(b)))
            }
            TExprKind::Min(_) | TExprKind::Max(_) => {
                let kids: Vec<Expr> = (0..scale::children(e).len()).map(|i| self.kid(e, s, i)).collect();
                let kind = kind_of(&e.ty);
                if let Kind::Enum(en) = kind {
                    self.ranked.insert(en);
                }
                let node = if matches!(e.kind, TExprKind::Min(_)) { Node::Min(kids) } else { Node::Max(kids) };
                Expr::new(kind, node)
            }
            TExprKind::In { var, values } => {
                let ty = self.p.vars[*var].ty.clone();
                let vals = values.iter().map(|v| self.value(&ty, v)).collect();
                Expr::bool(Node::OneOf(bx(self.var(*var)), vals))
            }
            other => unreachable!("a non-numeric node of kind {other:?}"),
        }
    }

    /// An order comparison of enum values compares places: the enum needs its rank.
    fn rank_if_ordered(&mut self, op: CmpOp, a: &Expr) {
        if let (Kind::Enum(e), false) = (a.kind, matches!(op, CmpOp::Eq | CmpOp::Ne)) {
            self.ranked.insert(e);
        }
    }

    fn value(&self, ty: &Ty, v: &Value) -> Expr {
        match (v, ty) {
            (Value::Bool(b), _) => Expr::truth(*b),
            (Value::Str(s), _) => Expr::new(Kind::Str, Node::Str(s.clone())),
            (Value::Enum(i), Ty::Enum(e)) => Expr::new(Kind::Enum(*e), Node::Member(*i)),
            (Value::None, ty) => Expr { kind: kind_of(ty), optional: true, node: Node::Absent },
            (Value::Num(n), ty) => Expr::int(to_i64(&(n / ty.factor()).to_integer())),
            (Value::Enum(_), _) => unreachable!("an enum value of an enum type"),
            (Value::List(_), _) => unreachable!("no literal of the plan is a list"),
        }
    }

    fn table(&mut self, t: usize, slot: usize, guards: &[Guard]) -> TablePlan {
        let table = &self.p.tables[t];
        // In the order the rows take precedence, so that the first that holds answers.
        let rows = (table.precedence().into_iter())
            .map(|r| {
                let row = &table.rows[r];
                let cond = self.row_condition(table, r);
                let assigns = table
                    .results
                    .iter()
                    .enumerate()
                    .map(|(k, &var)| {
                        let mut value = match (&row.results[k], &self.ann.rows[t][r][k], &self.ann.row_stores[t][r][k])
                        {
                            (Some(e), Some(s), Some(st)) => self.store(e, s, st),
                            (Some(e), Some(s), None) => self.expr(e, s),
                            _ => self.value(&self.p.vars[var].ty, &Value::None),
                        };
                        value.optional |= self.p.vars[var].optional && value.node == Node::Absent;
                        (var, value)
                    })
                    .collect();
                Row { n: r + 1, cond, assigns, cells: row.cells.join(" | ") }
            })
            .collect();
        let guards = guards
            .iter()
            .filter(|g| g.table == t)
            .map(|g| PairGuard {
                a: g.a,
                b: g.b,
                sentence: crate::eval::wire::sentence::rows_met(&table.name, g.a, g.b),
            })
            .collect();
        let shape = self.match_shape(table);
        TablePlan {
            name: table.name.clone(),
            policy: table.policy.as_str(),
            slot,
            results: table.results.clone(),
            rows,
            guards,
            no_row: crate::eval::wire::sentence::no_row(&table.name),
            decision: shape.as_ref().and_then(|s| Decision::of(s, &self.domains(table))),
            shape,
            collect: None,
        }
    }

    /// How a multiple-hit table folds the rows that hold into its result (`plan.collect`); a
    /// sum, a minimum and a maximum get a boolean variable of their own saying a row has held.
    /// An optional one folds into a variable of its own that is not, and the step after the
    /// table, returned, answers that or the result's `empty` (its default, or none).
    fn collect(&self, t: usize, plan: &mut TablePlan, vars: &mut Vec<VarPlan>) -> Option<Step> {
        let table = &self.p.tables[t];
        let fold = match table.policy {
            Policy::Collect | Policy::RuleOrder | Policy::OutputOrder => Fold::List,
            Policy::CollectSum => Fold::Sum,
            Policy::CollectMin => Fold::Min,
            Policy::CollectMax => Fold::Max,
            Policy::CollectCount => Fold::Count,
            Policy::Unique | Policy::First | Policy::Any | Policy::Priority => return None,
        };
        let result = &self.p.vars[plan.results[0]];
        // With no row held: the default, none, or (completeness proved it never happens, or
        // the fold starts from nothing) zero.
        let empty = match (&result.default, result.optional) {
            (Some(d), _) => self.value(&result.ty, d),
            (None, true) => self.value(&result.ty, &Value::None),
            (None, false) => Expr::int(0),
        };
        // Named with a `#` no name of the rule holds, so that no evaluator keyed by name (the
        // NumPy plan's) meets a variable of the rule; `base` is naming's to make unique.
        let inner = |suffix: &str, of: &VarPlan| VarPlan {
            name: format!("{}#{suffix}", result.name),
            base: format!("{}_{suffix}", result.ident()),
            role: Role::Define,
            optional: false,
            range: None,
            rounding: None,
            ..of.clone()
        };
        let bool = VarPlan {
            kind: Kind::Bool,
            ty: BoundaryTy::Bool,
            what: "bool".to_string(),
            scaled: false,
            list: false,
            ..vars[plan.results[0]].clone()
        };
        if !matches!(fold, Fold::Sum | Fold::Min | Fold::Max) {
            plan.collect = Some(Collect { fold, empty, seen: None });
            return None;
        }
        vars.push(inner("held", &bool));
        let seen = vars.len() - 1;
        if !result.optional {
            plan.collect = Some(Collect { fold, empty, seen: Some(seen) });
            return None;
        }
        let var = plan.results[0];
        vars.push(inner("fold", &vars[var]));
        let fold_var = vars.len() - 1;
        plan.results[0] = fold_var;
        for row in &mut plan.rows {
            row.assigns[0].0 = fold_var;
        }
        plan.collect = Some(Collect { fold, empty: Expr::int(0), seen: Some(seen) });
        let kind = kind_of(&result.ty);
        let (held, folded) = (Expr::bool(Node::Var(seen)), Expr::new(kind, Node::Var(fold_var)));
        Some(Step::Define { var, value: Expr::new(kind, Node::If(Box::new(held), Box::new(folded), Box::new(empty))) })
    }

    /// The values each condition column of a table can take, in order.
    fn domains(&self, t: &TableIr) -> Vec<Vec<Expr>> {
        t.conds
            .iter()
            .map(|&col| {
                let ty = &self.p.vars[col].ty;
                let all = match ty {
                    Ty::Bool => vec![Value::Bool(true), Value::Bool(false)],
                    Ty::Enum(e) => (0..self.p.enums[*e].values.len() as u32).map(Value::Enum).collect(),
                    _ => Vec::new(),
                };
                all.iter().map(|v| self.value(ty, v)).collect()
            })
            .collect()
    }

    /// The table as a `match`, when every condition column is an enum or a boolean that is
    /// not optional and every cell is `-` or a set of values.
    fn match_shape(&self, t: &TableIr) -> Option<MatchShape> {
        let matchable = |v: VarId| {
            let var = &self.p.vars[v];
            !var.optional && matches!(var.ty, Ty::Enum(_) | Ty::Bool)
        };
        if t.conds.is_empty() || !t.conds.iter().all(|&v| matchable(v)) {
            return None;
        }
        let mut patterns = Vec::new();
        for row in t.precedence().into_iter().map(|r| &t.rows[r]) {
            let mut cells = Vec::new();
            for (ci, &col) in t.conds.iter().enumerate() {
                let ty = &self.p.vars[col].ty;
                cells.push(match &row.conds[ci] {
                    CondIr::Any => None,
                    CondIr::Tests { negated, tests } => {
                        let mut taken: Vec<Value> = Vec::new();
                        for test in tests {
                            match test {
                                TestIr::OneOf(vs) => taken.extend(vs.iter().cloned()),
                                _ => return None,
                            }
                        }
                        let all = match ty {
                            Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
                            Ty::Enum(e) => (0..self.p.enums[*e].values.len() as u32).map(Value::Enum).collect(),
                            _ => return None,
                        };
                        let values: Vec<Value> = all.into_iter().filter(|v| taken.contains(v) != *negated).collect();
                        Some(values.iter().map(|v| self.value(ty, v)).collect())
                    }
                });
            }
            patterns.push(cells);
        }
        Some(MatchShape { columns: t.conds.clone(), patterns })
    }

    fn row_condition(&mut self, t: &TableIr, r: usize) -> Expr {
        let mut cond = Expr::truth(true);
        for (ci, &col) in t.conds.iter().enumerate() {
            let c = self.cell(col, &t.rows[r].conds[ci]);
            cond = Expr::and(cond, c);
        }
        cond
    }

    fn cell(&mut self, col: VarId, c: &CondIr) -> Expr {
        let CondIr::Tests { negated, tests } = c else { return Expr::truth(true) };
        let optional = self.p.vars[col].optional;
        // Values listed one by one (`def, func`) are one test of membership.
        let merged;
        let tests = if !scale::is_number(&self.p.vars[col].ty)
            && self.p.vars[col].ty != Ty::Bool
            && tests.len() > 1
            && tests.iter().all(|t| matches!(t, TestIr::OneOf(_)))
        {
            let values = tests.iter().flat_map(|t| match t {
                TestIr::OneOf(vs) => vs.clone(),
                _ => Vec::new(),
            });
            merged = vec![TestIr::OneOf(values.collect())];
            &merged
        } else {
            tests
        };
        let mut alts: Vec<Expr> = Vec::new();
        for t in tests {
            alts.push(match t {
                TestIr::IsNone => Expr::bool(Node::IsNone(col)),
                _ if optional => Expr::bool(Node::Present(col, Box::new(self.test(col, t)))),
                _ => self.test(col, t),
            });
        }
        let any = alts.into_iter().reduce(Expr::or).unwrap_or(Expr::truth(false));
        if *negated {
            Expr::negate(any)
        } else {
            any
        }
    }

    /// The value of `col` as a test reads it: the value held, when the column is optional.
    fn held(&self, col: VarId) -> Expr {
        Expr { optional: false, ..self.var(col) }
    }

    /// One test of a cell on the value of `col` (present, when optional).
    fn test(&mut self, col: VarId, t: &TestIr) -> Expr {
        let var = &self.p.vars[col];
        match t {
            TestIr::IsNone => Expr::bool(Node::IsNone(col)),
            TestIr::OneOf(vs) if var.ty == Ty::Bool => {
                match (vs.contains(&Value::Bool(true)), vs.contains(&Value::Bool(false))) {
                    (true, true) => Expr::truth(true),
                    (true, false) => self.held(col),
                    (false, true) => Expr::negate(self.held(col)),
                    (false, false) => Expr::truth(false),
                }
            }
            TestIr::OneOf(vs) if scale::is_number(&var.ty) => {
                let alts: Vec<Expr> = vs.iter().map(|v| self.bound(col, CmpOp::Eq, v)).collect();
                alts.into_iter().reduce(Expr::or).unwrap_or(Expr::truth(false))
            }
            TestIr::OneOf(vs) => {
                let ty = var.ty.clone();
                let mut vals: Vec<Expr> = vs.iter().map(|v| self.value(&ty, v)).collect();
                if vals.len() == 1 {
                    Expr::cmp(CmpOp::Eq, self.held(col), vals.pop().expect("one value"))
                } else {
                    Expr::bool(Node::OneOf(Box::new(self.held(col)), vals))
                }
            }
            TestIr::Bounds(bs) => {
                let mut all = Expr::truth(true);
                for (op, v) in bs {
                    let b = self.bound(col, *op, v);
                    all = Expr::and(all, b);
                }
                all
            }
        }
    }

    /// `col op v`, with v in base units, as a comparison of the integer `col` is held as.
    fn bound(&mut self, col: VarId, op: CmpOp, v: &Value) -> Expr {
        let var = &self.p.vars[col];
        let x = self.held(col);
        let Value::Num(v) = v else {
            let lit = self.value(&var.ty.clone(), v);
            self.rank_if_ordered(op, &x);
            return Expr::cmp(op, x, lit);
        };
        let s: Rat = self.ann.var_scale[col].clone().unwrap_or_else(|| var.ty.factor());
        let t = v / &s;
        let int = |r: Rat| Expr::int(to_i64(&r.to_integer()));
        if t.is_integer() {
            return Expr::cmp(op, x, int(t));
        }
        // N·S op v where v/S is not whole: compare N with the whole numbers either side.
        let (fl, ce) = (t.floor(), t.ceil());
        match op {
            CmpOp::Le | CmpOp::Lt => Expr::cmp(CmpOp::Le, x, int(fl)),
            CmpOp::Ge | CmpOp::Gt => Expr::cmp(CmpOp::Ge, x, int(ce)),
            CmpOp::Eq => Expr::truth(false),
            CmpOp::Ne => Expr::truth(true),
        }
    }
}
