//! The code plan: the rule as every backend spells it. Guards with their sentences, each
//! table's rows as branches with their conditions, every int64 operation the proof
//! (`analysis::scale`, E108) vouched for made explicit. A backend decides nothing here: it
//! only writes each `Code` node in its language.

use crate::analysis::scale::{self, Annotation, Op, Scaled, Store};
use crate::analysis::Analysis;
use crate::num::{Rat, RoundMode};
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use num_bigint::BigInt;
use num_traits::One;
use std::collections::BTreeSet;

/// One expression of generated code. Numbers are i64 (what a variable holds: its wire
/// integer, or for an undeclared define its integer at its scale); enums, booleans and
/// strings are themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Code {
    Int(i64),
    Bool(bool),
    Str(String),
    /// An enum value: the enum and the value's position.
    Enum(EnumId, u32),
    /// The absent value of an optional result.
    Absent,
    Var(VarId),
    Neg(Box<Code>),
    Add(Box<Code>, Box<Code>),
    Sub(Box<Code>, Box<Code>),
    Mul(Box<Code>, Box<Code>),
    /// An exact division (a store into a coarser unit that E106 proved lands on it).
    DivExact(Box<Code>, i64),
    /// `n / d` rounded by the mode (d ≠ 0, either sign).
    DivRound(Box<Code>, Box<Code>, RoundMode),
    Min(Vec<Code>),
    Max(Vec<Code>),
    /// The remainder from zero up: 0 ≤ r < |b|.
    Mod(Box<Code>, Box<Code>),
    /// The whole square root of a non-negative integer.
    Isqrt(Box<Code>),
    If(Box<Code>, Box<Code>, Box<Code>),
    /// Numbers compare as i64, enums by position, booleans and strings for (in)equality.
    Cmp(CmpOp, Box<Code>, Box<Code>),
    And(Box<Code>, Box<Code>),
    Or(Box<Code>, Box<Code>),
    Not(Box<Code>),
    /// The value is one of these.
    OneOf(Box<Code>, Vec<Code>),
    /// An optional variable holds no value.
    IsNone(VarId),
    /// An optional variable holds a value and the test holds of it; inside the test,
    /// `Var(var)` is the value held.
    Present(VarId, Box<Code>),
}

impl Code {
    /// The nodes directly below this one, in the order they are written.
    pub fn children(&self) -> Vec<&Code> {
        match self {
            Code::Int(_)
            | Code::Bool(_)
            | Code::Str(_)
            | Code::Enum(..)
            | Code::Absent
            | Code::Var(_)
            | Code::IsNone(_) => Vec::new(),
            Code::Neg(x) | Code::Not(x) | Code::Isqrt(x) | Code::DivExact(x, _) | Code::Present(_, x) => vec![x],
            Code::Add(a, b)
            | Code::Sub(a, b)
            | Code::Mul(a, b)
            | Code::DivRound(a, b, _)
            | Code::Mod(a, b)
            | Code::Cmp(_, a, b)
            | Code::And(a, b)
            | Code::Or(a, b) => vec![a, b],
            Code::If(a, b, c) => vec![a, b, c],
            Code::Min(xs) | Code::Max(xs) => xs.iter().collect(),
            Code::OneOf(x, vs) => std::iter::once(&**x).chain(vs).collect(),
        }
    }

    /// The optional variables this code reads, once each, in the order it reads them. A
    /// constraint that reads an absent optional holds, so every backend guards these.
    pub fn optionals_read(&self, p: &Program) -> Vec<VarId> {
        fn walk(c: &Code, p: &Program, out: &mut Vec<VarId>) {
            if let Code::Var(v) | Code::IsNone(v) | Code::Present(v, _) = c {
                if p.vars[*v].optional && !out.contains(v) {
                    out.push(*v);
                }
            }
            for k in c.children() {
                walk(k, p, out);
            }
        }
        let mut out = Vec::new();
        walk(self, p, &mut out);
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    DivRound(RoundMode),
    Mod,
    Isqrt,
}

#[derive(Clone, Debug)]
pub enum Check {
    /// lo ≤ value ≤ hi, in wire units (day numbers for a date).
    Range { lo: i64, hi: i64 },
    /// An ordered enum input with a range: positions lo..=hi.
    EnumRange { lo: u32, hi: u32 },
}

#[derive(Clone, Debug)]
pub struct InputGuard {
    pub var: VarId,
    pub check: Check,
    pub sentence: String,
}

#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based, as written.
    pub n: usize,
    pub cond: Code,
    /// One per result: the value stored (`Code::Absent` for none).
    pub assigns: Vec<(VarId, Code)>,
    /// The row's cells as written, for the comment beside the branch.
    pub cells: String,
}

#[derive(Clone, Debug)]
pub enum Step {
    Define { var: VarId, value: Code },
    Table { table: usize, rows: Vec<Row>, guards: Vec<(usize, usize, String)> },
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub guards: Vec<InputGuard>,
    pub constraints: Vec<(Code, String)>,
    pub steps: Vec<Step>,
    pub helpers: BTreeSet<Helper>,
    /// Whether any input or output is a date (the record writes YYYY-MM-DD).
    pub uses_dates: bool,
}

pub fn build(p: &Program, analysis: &Analysis, text: &str) -> Plan {
    let ann = scale::annotate(p);
    let mut b = Builder { p, ann: &ann, helpers: BTreeSet::new() };
    let guards = p.inputs.iter().filter_map(|&v| input_guard(p, v)).collect();
    let constraints = p
        .constraints
        .iter()
        .zip(&ann.constraints)
        .map(|(c, s)| (b.expr(&c.expr, s), format!("the constraint does not hold: {}", c.text)))
        .collect();
    let mut steps = Vec::new();
    for step in &p.order {
        match *step {
            crate::sema::Step::Define(d) => {
                let def = &p.defines[d];
                let s = &ann.defines[d];
                let value = match &ann.define_stores[d] {
                    Some(st) => b.store(&def.expr, s, st),
                    None => b.expr(&def.expr, s),
                };
                steps.push(Step::Define { var: def.var, value });
            }
            crate::sema::Step::Table(t) => {
                let table = &p.tables[t];
                let rows = table
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(r, row)| {
                        let cond = b.row_condition(table, r);
                        let assigns = table
                            .results
                            .iter()
                            .enumerate()
                            .map(|(k, &var)| {
                                let value = match (&row.results[k], &ann.rows[t][r][k], &ann.row_stores[t][r][k]) {
                                    (Some(e), Some(s), Some(st)) => b.store(e, s, st),
                                    (Some(e), Some(s), None) => b.expr(e, s),
                                    _ => Code::Absent,
                                };
                                (var, value)
                            })
                            .collect();
                        let cells =
                            row.cell_spans.iter().map(|s| text[s.range()].to_string()).collect::<Vec<_>>().join(" | ");
                        Row { n: r + 1, cond, assigns, cells }
                    })
                    .collect();
                let guards = analysis
                    .guards
                    .iter()
                    .filter(|g| g.table == t)
                    .map(|g| {
                        (
                            g.a,
                            g.b,
                            format!("table {}: row {} and row {} matched at the same time", table.name, g.a, g.b),
                        )
                    })
                    .collect();
                steps.push(Step::Table { table: t, rows, guards });
            }
        }
    }
    let uses_dates = p.inputs.iter().chain(&p.outputs).any(|&v| p.vars[v].ty == Ty::Date);
    Plan { guards, constraints, steps, helpers: b.helpers, uses_dates }
}

fn input_guard(p: &Program, v: VarId) -> Option<InputGuard> {
    let var = &p.vars[v];
    let sentence = format!("{} is out of range", var.name);
    let check = match var.range.as_ref()? {
        (Value::Num(lo), Value::Num(hi)) => {
            let f = var.ty.factor();
            Check::Range { lo: to_i64(&(lo / &f).to_integer()), hi: to_i64(&(hi / &f).to_integer()) }
        }
        (Value::Enum(lo), Value::Enum(hi)) => Check::EnumRange { lo: *lo, hi: *hi },
        _ => return None,
    };
    Some(InputGuard { var: v, check, sentence })
}

/// Every integer the plan writes was proven to fit int64 (E108) before code is generated.
fn to_i64(n: &BigInt) -> i64 {
    i64::try_from(n).expect("E108 proved every integer of the generated code fits in int64")
}

struct Builder<'a> {
    p: &'a Program,
    ann: &'a Annotation,
    helpers: BTreeSet<Helper>,
}

fn times(x: Code, k: &BigInt) -> Code {
    if k.is_one() {
        x
    } else {
        Code::Mul(Box::new(x), Box::new(Code::Int(to_i64(k))))
    }
}

impl Builder<'_> {
    fn div_round(&mut self, n: Code, d: Code, mode: RoundMode) -> Code {
        if d == Code::Int(1) {
            return n;
        }
        self.helpers.insert(Helper::DivRound(mode));
        Code::DivRound(Box::new(n), Box::new(d), mode)
    }

    /// A value stored into a declared variable: converted to its wire integer, rounded when
    /// the variable is an output that declares a rounding.
    fn store(&mut self, e: &TExpr, s: &Scaled, st: &Store) -> Code {
        let code = match st.round {
            None => {
                let n = times(self.expr(e, s), &st.p);
                if st.q.is_one() {
                    n
                } else {
                    Code::DivExact(Box::new(n), to_i64(&st.q))
                }
            }
            Some(mode) if st.quotient => self.quotient(e, s, mode),
            Some(mode) => {
                let n = times(self.expr(e, s), &st.p);
                self.div_round(n, Code::Int(to_i64(&st.q)), mode)
            }
        };
        times(code, &st.m)
    }

    /// A quotient by a value, divided and rounded in one step.
    fn quotient(&mut self, e: &TExpr, s: &Scaled, mode: RoundMode) -> Code {
        let (Op::Quotient { p, q }, TExprKind::Arith(_, a, b)) = (&s.op, &e.kind) else {
            unreachable!("a store marked as a quotient stores a quotient")
        };
        let n = times(self.expr(a, &s.kids[0]), p);
        let d = times(self.expr(b, &s.kids[1]), q);
        self.div_round(n, d, mode)
    }

    fn kid(&mut self, e: &TExpr, s: &Scaled, i: usize) -> Code {
        let children = scale::children(e);
        let k = s.k.get(i).cloned().unwrap_or_else(BigInt::one);
        let c = self.expr(children[i], &s.kids[i]);
        times(c, &k)
    }

    fn expr(&mut self, e: &TExpr, s: &Scaled) -> Code {
        let n = scale::children(e).len();
        let bx = Box::new;
        match &s.op {
            Op::Const(n) => Code::Int(to_i64(n)),
            Op::Var(v) => Code::Var(*v),
            Op::Neg => Code::Neg(bx(self.kid(e, s, 0))),
            Op::Add => Code::Add(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            Op::Sub => Code::Sub(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            Op::Mul => Code::Mul(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            Op::DivConst { negate } => {
                let x = self.kid(e, s, 0);
                if *negate {
                    Code::Neg(bx(x))
                } else {
                    x
                }
            }
            Op::Quotient { .. } => unreachable!("a quotient is consumed by the rounding above it (E133 otherwise)"),
            Op::Min => Code::Min((0..n).map(|i| self.kid(e, s, i)).collect()),
            Op::Max => Code::Max((0..n).map(|i| self.kid(e, s, i)).collect()),
            Op::If => {
                let cond = self.kid(e, s, 0);
                Code::If(bx(cond), bx(self.kid(e, s, 1)), bx(self.kid(e, s, 2)))
            }
            Op::Mod => {
                self.helpers.insert(Helper::Mod);
                Code::Mod(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))
            }
            Op::Isqrt { p, q } => {
                self.helpers.insert(Helper::Isqrt);
                let x = times(self.kid(e, s, 0), p);
                let x = self.div_round(x, Code::Int(to_i64(q)), RoundMode::Floor);
                Code::Isqrt(bx(x))
            }
            Op::Round { mode, p, q } => {
                let children = scale::children(e);
                if matches!(s.kids[0].op, Op::Quotient { .. }) {
                    return self.quotient(children[0], &s.kids[0], *mode);
                }
                let x = times(self.expr(children[0], &s.kids[0]), p);
                self.div_round(x, Code::Int(to_i64(q)), *mode)
            }
            Op::Cmp => {
                let TExprKind::Cmp(op, ..) = &e.kind else { unreachable!("a numeric comparison") };
                Code::Cmp(*op, bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)))
            }
            Op::Other => self.other(e, s),
        }
    }

    /// Nodes that are not numbers: booleans, enums, strings, and the logic over them.
    fn other(&mut self, e: &TExpr, s: &Scaled) -> Code {
        let bx = Box::new;
        match &e.kind {
            TExprKind::Const(v) => self.value(&e.ty, v),
            TExprKind::Var(v) => Code::Var(*v),
            TExprKind::Cmp(op, ..) => Code::Cmp(*op, bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            TExprKind::Not(_) => Code::Not(bx(self.kid(e, s, 0))),
            TExprKind::And(..) => Code::And(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            TExprKind::Or(..) => Code::Or(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1))),
            TExprKind::If { .. } => Code::If(bx(self.kid(e, s, 0)), bx(self.kid(e, s, 1)), bx(self.kid(e, s, 2))),
            TExprKind::Min(_) | TExprKind::Max(_) => {
                let kids: Vec<Code> = (0..scale::children(e).len()).map(|i| self.kid(e, s, i)).collect();
                if matches!(e.kind, TExprKind::Min(_)) {
                    Code::Min(kids)
                } else {
                    Code::Max(kids)
                }
            }
            TExprKind::In { var, values } => {
                let ty = self.p.vars[*var].ty.clone();
                Code::OneOf(bx(Code::Var(*var)), values.iter().map(|v| self.value(&ty, v)).collect())
            }
            other => unreachable!("a non-numeric node of kind {other:?}"),
        }
    }

    fn value(&self, ty: &Ty, v: &Value) -> Code {
        match (v, ty) {
            (Value::Bool(b), _) => Code::Bool(*b),
            (Value::Str(s), _) => Code::Str(s.clone()),
            (Value::Enum(i), Ty::Enum(e)) => Code::Enum(*e, *i),
            (Value::None, _) => Code::Absent,
            (Value::Num(n), ty) => Code::Int(to_i64(&(n / ty.factor()).to_integer())),
            (Value::Enum(_), _) => unreachable!("an enum value of an enum type"),
        }
    }

    fn row_condition(&mut self, t: &TableIr, r: usize) -> Code {
        let mut parts: Vec<Code> = Vec::new();
        for (ci, &col) in t.conds.iter().enumerate() {
            let c = self.cell(col, &t.rows[r].conds[ci]);
            if c != Code::Bool(true) {
                parts.push(c);
            }
        }
        parts.into_iter().reduce(|a, b| Code::And(Box::new(a), Box::new(b))).unwrap_or(Code::Bool(true))
    }

    fn cell(&mut self, col: VarId, c: &CondIr) -> Code {
        let CondIr::Tests { negated, tests } = c else { return Code::Bool(true) };
        let optional = self.p.vars[col].optional;
        let mut alts: Vec<Code> = Vec::new();
        for t in tests {
            let code = match t {
                TestIr::IsNone => Code::IsNone(col),
                _ if optional => Code::Present(col, Box::new(self.test(col, t))),
                _ => self.test(col, t),
            };
            alts.push(code);
        }
        let any = alts.into_iter().reduce(|a, b| Code::Or(Box::new(a), Box::new(b))).unwrap_or(Code::Bool(false));
        if *negated {
            Code::Not(Box::new(any))
        } else {
            any
        }
    }

    /// One test of a cell on the value of `col` (present, when optional).
    fn test(&mut self, col: VarId, t: &TestIr) -> Code {
        let var = &self.p.vars[col];
        let x = || Box::new(Code::Var(col));
        match t {
            TestIr::IsNone => Code::IsNone(col),
            TestIr::OneOf(vs) if var.ty == Ty::Bool => {
                match (vs.contains(&Value::Bool(true)), vs.contains(&Value::Bool(false))) {
                    (true, true) => Code::Bool(true),
                    (true, false) => Code::Var(col),
                    (false, true) => Code::Not(x()),
                    (false, false) => Code::Bool(false),
                }
            }
            TestIr::OneOf(vs) if scale::is_number(&var.ty) => {
                let alts: Vec<Code> = vs.iter().map(|v| self.bound(col, CmpOp::Eq, v)).collect();
                alts.into_iter().reduce(|a, b| Code::Or(Box::new(a), Box::new(b))).unwrap_or(Code::Bool(false))
            }
            TestIr::OneOf(vs) => {
                let ty = var.ty.clone();
                let vals: Vec<Code> = vs.iter().map(|v| self.value(&ty, v)).collect();
                if vals.len() == 1 {
                    Code::Cmp(CmpOp::Eq, x(), Box::new(vals.into_iter().next().unwrap()))
                } else {
                    Code::OneOf(x(), vals)
                }
            }
            TestIr::Bounds(bs) => {
                let parts: Vec<Code> = bs.iter().map(|(op, v)| self.bound(col, *op, v)).collect();
                parts.into_iter().reduce(|a, b| Code::And(Box::new(a), Box::new(b))).unwrap_or(Code::Bool(true))
            }
        }
    }

    /// `col op v`, with v in base units, as a comparison of the integer `col` is held as.
    fn bound(&self, col: VarId, op: CmpOp, v: &Value) -> Code {
        let var = &self.p.vars[col];
        let x = Box::new(Code::Var(col));
        let Value::Num(v) = v else {
            return Code::Cmp(op, x, Box::new(self.value(&var.ty, v)));
        };
        let s: Rat = self.ann.var_scale[col].clone().unwrap_or_else(|| var.ty.factor());
        let t = v / &s;
        let int = |r: Rat| Box::new(Code::Int(to_i64(&r.to_integer())));
        if t.is_integer() {
            return Code::Cmp(op, x, int(t));
        }
        // N·S op v where v/S is not whole: compare N with the whole numbers either side.
        let (fl, ce) = (t.floor(), t.ceil());
        match op {
            CmpOp::Le | CmpOp::Lt => Code::Cmp(CmpOp::Le, x, int(fl)),
            CmpOp::Ge | CmpOp::Gt => Code::Cmp(CmpOp::Ge, x, int(ce)),
            CmpOp::Eq => Code::Bool(false),
            CmpOp::Ne => Code::Bool(true),
        }
    }
}

/// Whether a code node is a whole-number constant below zero (backends parenthesize those).
pub fn is_negative_int(c: &Code) -> bool {
    matches!(c, Code::Int(n) if *n < 0)
}
