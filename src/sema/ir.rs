//! The typed program every later stage reads: names resolved, literals converted to base
//! units, every expression typed, the evaluation order fixed.

use super::types::{EnumId, Grid, Tag, Ty};
use crate::diag::FileId;
use crate::num::{Rat, RoundMode};
use crate::source::Span;
use crate::syntax::ast::{BinOp, CmpOp, FoldAction, FoldKind, Policy, SummaryOp};

/// A value as the evaluator holds it: numbers in base units, dates as day numbers,
/// enum values by their position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    None,
    Bool(bool),
    Num(Rat),
    Enum(u32),
    Str(String),
    /// A list output's value (`list[T]`): the values of the rows that held, in order. A
    /// sequence's elements are a list too, each element the list of its fields' values.
    List(Vec<Value>),
}

pub type VarId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Input,
    Output,
    Value,
    Define,
    /// A field of a sequence's element (`Var::frame` names the sequence).
    Element,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    Table(usize),
    Define(usize),
    /// A summary over a sequence (`Program::summaries`).
    Summary(usize),
    /// A fold's answer (`Program::folds`).
    Fold(usize),
}

#[derive(Clone, Debug)]
pub struct Var {
    /// The declared name: the wire, the records and the vectors use it.
    pub name: String,
    pub alias: Option<String>,
    pub kind: VarKind,
    pub ty: Ty,
    pub optional: bool,
    /// The declared range, inclusive, in base units (enum positions for an ordered enum).
    pub range: Option<(Value, Value)>,
    /// The range as written, for messages and docs.
    pub range_text: Option<String>,
    /// Where the range is written (`LO..HI`): E107's `widen_range` fix replaces it.
    pub range_span: Option<Span>,
    pub rounding: Option<Rounding>,
    pub decided_by: Option<Decider>,
    pub span: Span,
    /// The whole declaration line (without its comment).
    pub decl_span: Span,
    /// A define that declares its type (a "declared define") is stored like a value.
    pub declared: bool,
    /// Declared `list[T]`: `ty` is the element's type, the value a `Value::List`.
    pub list: bool,
    /// `default LIT`: what a `collect sum|min|max` table answers when no row holds.
    pub default: Option<Value>,
    /// The sequence whose element this value belongs to: a field, or a value computed from
    /// one (it has a value for each element, inside a walk). None for a value of the call.
    pub frame: Option<usize>,
}

impl Var {
    /// The ASCII identifier generated code uses.
    pub fn ident(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug)]
pub struct Rounding {
    pub mode: RoundMode,
    /// The grid in base units.
    pub grid: Rat,
    /// The grid in the output's declared unit (what `api` and generated code say).
    pub grid_units: Rat,
}

#[derive(Clone, Debug)]
pub struct EnumIr {
    pub name: String,
    pub alias: Option<String>,
    pub ordered: bool,
    pub values: Vec<EnumValueIr>,
    pub file: FileId,
    pub span: Span,
}

impl EnumIr {
    pub fn ident(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
    pub fn position(&self, name: &str) -> Option<u32> {
        self.values.iter().position(|v| v.name == name).map(|p| p as u32)
    }
}

#[derive(Clone, Debug)]
pub struct EnumValueIr {
    pub name: String,
    pub alias: Option<String>,
    pub display: Option<String>,
}

#[derive(Clone, Debug)]
pub struct GroupIr {
    pub name: String,
    pub enum_id: EnumId,
    pub values: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct TExpr {
    pub kind: TExprKind,
    pub ty: Ty,
    pub grid: Grid,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TExprKind {
    Const(Value),
    Var(VarId),
    Neg(Box<TExpr>),
    Arith(BinOp, Box<TExpr>, Box<TExpr>),
    Cmp(CmpOp, Box<TExpr>, Box<TExpr>),
    Not(Box<TExpr>),
    And(Box<TExpr>, Box<TExpr>),
    Or(Box<TExpr>, Box<TExpr>),
    Min(Vec<TExpr>),
    Max(Vec<TExpr>),
    Mod(Box<TExpr>, Box<TExpr>),
    Isqrt(Box<TExpr>),
    /// Round to a multiple of `grid` (base units).
    Round {
        value: Box<TExpr>,
        mode: RoundMode,
        grid: Rat,
    },
    If {
        cond: Box<TExpr>,
        then: Box<TExpr>,
        els: Box<TExpr>,
    },
    In {
        var: VarId,
        values: Vec<Value>,
    },
}

#[derive(Clone, Debug)]
pub enum TestIr {
    /// Every bound holds (a conjunction); values in base units.
    Bounds(Vec<(CmpOp, Value)>),
    /// Equal to one of these (a literal, an enum value, a group's values).
    OneOf(Vec<Value>),
    /// The absent value of an optional.
    IsNone,
}

#[derive(Clone, Debug)]
pub enum CondIr {
    Any,
    Tests { negated: bool, tests: Vec<TestIr> },
}

#[derive(Clone, Debug)]
pub struct RowIr {
    pub conds: Vec<CondIr>,
    /// One per result column; `None` is the absent value of an optional result.
    pub results: Vec<Option<TExpr>>,
    pub span: Span,
    /// The row's whole line, its newline left out.
    pub line: Span,
    /// The span of every cell, conditions then results.
    pub cell_spans: Vec<Span>,
    /// The text of every cell as written, conditions then results (the comment beside a
    /// generated branch, the certificate and doc quote it).
    pub cells: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct TableIr {
    pub name: String,
    pub policy: Policy,
    pub conds: Vec<VarId>,
    pub results: Vec<VarId>,
    pub rows: Vec<RowIr>,
    pub span: Span,
    pub name_span: Span,
    /// Where the policy is written (`unique`); the empty span after the name when it is not.
    pub policy_span: Span,
}

impl TableIr {
    /// The rows in the order they take precedence, 0-based: as written, or under `priority`
    /// by their results' places in their enums' declared order, the first result first (a
    /// tie stays in the order written).
    pub fn precedence(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        if self.policy.ranks() {
            order.sort_by_key(|&r| self.rows[r].results.iter().map(priority_place).collect::<Vec<_>>());
        }
        order
    }
}

/// The place of a `priority` table's result cell in its enum (sema holds every one to be a member).
fn priority_place(cell: &Option<TExpr>) -> u32 {
    match cell.as_ref().map(|e| &e.kind) {
        Some(TExprKind::Const(Value::Enum(i))) => *i,
        _ => u32::MAX,
    }
}

#[derive(Clone, Debug)]
pub struct DefineIr {
    pub var: VarId,
    pub expr: TExpr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ConstraintIr {
    pub expr: TExpr,
    /// The constraint as `fmt` prints it: the refusal sentence quotes it.
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ExpectIr {
    pub inputs: Vec<(VarId, Value)>,
    /// Each sequence given, by its index, with its elements (each the list of its fields'
    /// values); a sequence not given is empty.
    pub sequences: Vec<(usize, Vec<Value>)>,
    pub outputs: Vec<(VarId, Value, Span)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Table(usize),
    Define(usize),
    /// A walk over a sequence (`Program::walks`): its body once for each element.
    Walk(usize),
}

/// A sequence the rule walks (`elements NAME up to N: FIELD: TYPE RANGE, …`).
#[derive(Clone, Debug)]
pub struct SequenceIr {
    pub name: String,
    pub alias: Option<String>,
    /// The most elements a call may pass.
    pub max: u32,
    /// The element's fields (`VarKind::Element`), in the order declared.
    pub fields: Vec<VarId>,
    pub span: Span,
    pub decl_span: Span,
}

impl SequenceIr {
    pub fn ident(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

/// `define NAME = sum VALUE over SEQ where COND` (or `count`, `max`, `min`).
#[derive(Clone, Debug)]
pub struct SummaryIr {
    pub var: VarId,
    pub seq: usize,
    pub op: SummaryOp,
    /// The per-element value summed or compared (none for a count).
    pub of: Option<VarId>,
    /// Only the elements for which this holds count.
    pub filter: Option<TExpr>,
    /// A max's or min's answer when no element counts (it reads no element).
    pub empty: Option<TExpr>,
    pub span: Span,
}

/// `fold KIND VALUE over SEQ by VERDICT: ACTION V, …, empty EXPR -> INTO`.
#[derive(Clone, Debug)]
pub struct FoldIr {
    pub into: VarId,
    pub seq: usize,
    pub kind: FoldKind,
    /// The per-element value taken or kept.
    pub value: VarId,
    /// The per-element value (of an enum) whose member names the action.
    pub verdict: VarId,
    /// What each member of the verdict's enum does, by position; none passes the element by.
    pub actions: Vec<Option<FoldAction>>,
    /// The answer when nothing is taken or kept (reads no element).
    pub empty: TExpr,
    pub span: Span,
}

/// One loop over a sequence: the per-element steps (`body`, in evaluation order), and the
/// summaries and folds it finds, all on the same pass.
#[derive(Clone, Debug)]
pub struct WalkIr {
    pub seq: usize,
    pub body: Vec<Step>,
    pub summaries: Vec<usize>,
    pub folds: Vec<usize>,
}

/// An enums file a rule `use`s: generated code gives its enums a module of their own, which
/// every rule that reads them shares.
#[derive(Clone, Debug)]
pub struct UseIr {
    pub file: FileId,
    /// The name its header declares (`enums tiers`), and the alias it gives.
    pub name: String,
    pub alias: Option<String>,
    /// The file's name (`tiers.rule`) and the SHA-256 of its bytes, in hex: what the header
    /// of its module names.
    pub source_name: String,
    pub sha256: String,
}

impl UseIr {
    pub fn ident(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub alias: Option<String>,
    pub version: u64,
    pub about: Option<String>,
    pub file: FileId,
    /// The enums files the rule reads, in the order of its `use`s.
    pub uses: Vec<UseIr>,
    pub enums: Vec<EnumIr>,
    pub groups: Vec<GroupIr>,
    pub vars: Vec<Var>,
    pub inputs: Vec<VarId>,
    pub outputs: Vec<VarId>,
    pub constraints: Vec<ConstraintIr>,
    pub tables: Vec<TableIr>,
    pub defines: Vec<DefineIr>,
    /// Tables, defines and walks in evaluation order (language.md §7); a per-element step
    /// is in its walk's body, not here.
    pub order: Vec<Step>,
    pub expects: Vec<ExpectIr>,
    /// The sequences the rule walks, in the order declared: a call passes one list for each,
    /// after the inputs.
    pub sequences: Vec<SequenceIr>,
    pub summaries: Vec<SummaryIr>,
    pub folds: Vec<FoldIr>,
    pub walks: Vec<WalkIr>,
}

impl Program {
    pub fn ident(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
    /// The table that decides `v` by one row's cell: not a multiple-hit table, whose answer
    /// folds the cells of every row that holds (a sum is none of its rows' values).
    pub fn cell_table(&self, v: VarId) -> Option<usize> {
        match self.vars[v].decided_by {
            Some(Decider::Table(t)) if !self.tables[t].policy.multi_hit() => Some(t),
            _ => None,
        }
    }

    /// Whether the rule walks a sequence.
    pub fn walks_sequences(&self) -> bool {
        !self.sequences.is_empty()
    }

    /// The steps in evaluation order, each walk's body in its place, then the walk's own
    /// entry (which stands for what the walk finds).
    pub fn steps_flat(&self) -> Vec<Step> {
        let mut out = Vec::new();
        for &s in &self.order {
            if let Step::Walk(w) = s {
                out.extend(self.walks[w].body.iter().copied());
            }
            out.push(s);
        }
        out
    }

    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name)
    }
}

/// A type as the rule writes it (`money[JPY, incl_tax]`, `rate[0.1%]`, an enum's name).
/// A variable's type as the rule declares it: `list[T]` for a list.
pub fn var_ty_name(var: &Var, enums: &[EnumIr]) -> String {
    let element = ty_name(&var.ty, enums);
    if var.list {
        format!("list[{element}]")
    } else {
        element
    }
}

pub fn ty_name(ty: &Ty, enums: &[EnumIr]) -> String {
    match ty {
        Ty::Bool => "bool".into(),
        Ty::Int => "int".into(),
        Ty::Number => "a plain number".into(),
        Ty::Date => "date".into(),
        Ty::Str => "string".into(),
        Ty::Enum(e) => enums.get(*e).map(|e| e.name.clone()).unwrap_or_default(),
        Ty::Money { unit, tag } => match tag {
            Tag::Incl => format!("money[{}, incl_tax]", unit.symbol),
            Tag::Excl => format!("money[{}, excl_tax]", unit.symbol),
            _ => format!("money[{}]", unit.symbol),
        },
        Ty::Qty { unit } => format!("{}[{}]", unit.dim.kind(), unit.symbol),
        Ty::Rate { step } => format!("rate[{}%]", crate::num::to_decimal_string(&(step * crate::num::int(100)))),
    }
}

/// Every variable `e` reads, in the order it reads them (a variable read twice is listed twice).
pub fn collect_vars(e: &TExpr, out: &mut Vec<VarId>) {
    match &e.kind {
        TExprKind::Const(_) => {}
        TExprKind::Var(v) | TExprKind::In { var: v, .. } => out.push(*v),
        TExprKind::Neg(a) | TExprKind::Not(a) | TExprKind::Isqrt(a) => collect_vars(a, out),
        TExprKind::Round { value, .. } => collect_vars(value, out),
        TExprKind::Arith(_, a, b)
        | TExprKind::Cmp(_, a, b)
        | TExprKind::And(a, b)
        | TExprKind::Or(a, b)
        | TExprKind::Mod(a, b) => {
            collect_vars(a, out);
            collect_vars(b, out);
        }
        TExprKind::Min(xs) | TExprKind::Max(xs) => xs.iter().for_each(|x| collect_vars(x, out)),
        TExprKind::If { cond, then, els } => {
            collect_vars(cond, out);
            collect_vars(then, out);
            collect_vars(els, out);
        }
    }
}
