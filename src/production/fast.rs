//! The rule compiled once to a fast exact form, for replaying many records: the int64
//! evaluation model of `analysis::scale` (docs/int64.md) — every numeric value held as an
//! integer `N` with a static scale, the same operations the generated code performs — run
//! in i64 with every step checked. A step that would leave i64, a refusal at the door, a
//! contradiction, a record this form does not read (a decimal, an escaped string, a missing
//! input): each is handed back, and the reference evaluator takes the record instead. The
//! form decides nothing the reference would decide otherwise: on every record it answers,
//! it gives the reference's outputs and rows (`tests/replay.rs` holds it to that).
//!
//! Records are read by a scanner that borrows from the line and allocates nothing. It takes
//! only what it can read exactly — plain integers, strings without escapes, the six fields
//! of a record, each once — and hands every other line back.

use crate::analysis::scale::{self, Op, Scaled, Store};
use crate::eval::Fired;
use crate::num::int64::{self, isqrt};
use crate::num::{date, Rat, RoundMode};
use crate::sema::*;
use crate::syntax::ast::{CmpOp, Policy};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The form could not take this call: the reference evaluator does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail;

type R<T> = Result<T, Bail>;

/// How a value travels on the wire, and so how the scanner reads it.
#[derive(Clone, Debug)]
enum Wire {
    /// A whole number in the declared unit (its `N`).
    Int,
    Bool,
    /// An enum value by name (its position).
    Enum(Vec<String>),
    /// `YYYY-MM-DD` (its day number).
    Date,
}

#[derive(Clone, Debug)]
struct Slot {
    name: String,
    var: VarId,
    wire: Wire,
    optional: bool,
    /// The declared range, in `N`.
    range: Option<(i64, i64)>,
}

#[derive(Clone, Debug)]
enum Expr {
    Const(i64),
    Var(VarId),
    Neg(Box<Expr>),
    Add(Box<Expr>, i64, Box<Expr>, i64),
    Sub(Box<Expr>, i64, Box<Expr>, i64),
    Mul(Box<Expr>, Box<Expr>),
    DivConst(Box<Expr>, bool),
    /// A quotient by a value, only where a rounding consumes it: `(N(a)·p, N(b)·q)`.
    Quot(Box<Expr>, Box<Expr>, i64, i64),
    Min(Vec<(Expr, i64)>),
    Max(Vec<(Expr, i64)>),
    If(Box<Expr>, Box<Expr>, i64, Box<Expr>, i64),
    Mod(Box<Expr>, i64, Box<Expr>, i64),
    Isqrt(Box<Expr>, i64, i64),
    Round(Box<Expr>, RoundMode, i64, i64),
    /// A rounding of a quotient: `div_round(N(a)·p, N(b)·q)`.
    RoundQuot(Box<Expr>, Box<Expr>, RoundMode, i64, i64),
    Cmp(CmpOp, Box<Expr>, i64, Box<Expr>, i64),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    In(VarId, Vec<i64>),
}

/// Storing a computed value into a variable.
#[derive(Clone, Debug)]
enum Put {
    /// Held as computed (an undeclared define, a value that is not a number).
    AsIs,
    /// `N(e)·p / q`, a division that is exact.
    Exact(i64, i64),
    /// `div_round(N(e)·p, q, mode) · m`.
    Round(i64, i64, RoundMode, i64),
    /// `div_round(N(a)·p', N(b)·q', mode) · m` for a quotient.
    RoundQuot(RoundMode, i64),
}

#[derive(Clone, Debug)]
enum Test {
    IsNone,
    OneOf(Vec<i64>),
    /// `N·den op num`, both sides as i128.
    Bounds(Vec<(CmpOp, i128, i128)>),
}

#[derive(Clone, Debug)]
enum Cell {
    Any,
    Tests { negated: bool, tests: Vec<Test> },
}

#[derive(Clone, Debug)]
struct Row {
    cells: Vec<Cell>,
    results: Vec<Option<(Expr, Put)>>,
}

#[derive(Clone, Debug)]
struct Table {
    name: String,
    unique: bool,
    conds: Vec<VarId>,
    results: Vec<VarId>,
    rows: Vec<Row>,
}

#[derive(Clone, Debug)]
enum Step {
    Define(VarId, Expr, Put),
    Table(usize),
}

/// A rule in the fast form.
#[derive(Clone, Debug)]
pub struct Compiled {
    inputs: Vec<Slot>,
    outputs: Vec<Slot>,
    /// Each constraint, with the optional variables it reads (it holds when one is absent).
    constraints: Vec<(Expr, Vec<VarId>)>,
    steps: Vec<Step>,
    tables: Vec<Table>,
    vars: usize,
}

/// The values of one call: `N` per variable, and whether it has one.
pub struct Scratch {
    n: Vec<i64>,
    present: Vec<bool>,
    fired: Vec<u32>,
    /// The rows the record's trace names, per table (0: not named).
    recorded: Vec<u32>,
    observed: Vec<Option<i64>>,
}

fn small(b: &BigInt) -> R<i64> {
    b.to_i64().ok_or(Bail)
}

fn narrow(x: i128) -> R<i64> {
    i64::try_from(x).map_err(|_| Bail)
}

/// `n / d` rounded by `mode`, or handed back where `d` is 0 or the quotient leaves i128.
fn div_round(n: i128, d: i128, mode: RoundMode) -> R<i128> {
    int64::div_round(n, d, mode).ok_or(Bail)
}

struct Compiler<'a> {
    p: &'a Program,
    scale: Vec<Option<Rat>>,
}

impl Compiler<'_> {
    fn k(s: &Scaled, i: usize) -> R<i64> {
        small(s.k.get(i).ok_or(Bail)?)
    }

    fn expr(&self, e: &TExpr, s: &Scaled) -> R<Expr> {
        let kid = |i: usize| -> R<&Scaled> { s.kids.get(i).ok_or(Bail) };
        let b = |x: Expr| Box::new(x);
        Ok(match &e.kind {
            TExprKind::Const(v) => match (v, &s.op) {
                (Value::Num(_), Op::Const(n)) => Expr::Const(small(n)?),
                (Value::Bool(x), _) => Expr::Const(*x as i64),
                (Value::Enum(i), _) => Expr::Const(*i as i64),
                _ => return Err(Bail),
            },
            TExprKind::Var(v) => Expr::Var(*v),
            TExprKind::Neg(x) => Expr::Neg(b(self.expr(x, kid(0)?)?)),
            TExprKind::Not(x) => Expr::Not(b(self.expr(x, kid(0)?)?)),
            TExprKind::And(x, y) => Expr::And(b(self.expr(x, kid(0)?)?), b(self.expr(y, kid(1)?)?)),
            TExprKind::Or(x, y) => Expr::Or(b(self.expr(x, kid(0)?)?), b(self.expr(y, kid(1)?)?)),
            TExprKind::Arith(_, x, y) => {
                let (a, c) = (self.expr(x, kid(0)?), kid(1)?);
                match &s.op {
                    Op::Add => Expr::Add(b(a?), Self::k(s, 0)?, b(self.expr(y, c)?), Self::k(s, 1)?),
                    Op::Sub => Expr::Sub(b(a?), Self::k(s, 0)?, b(self.expr(y, c)?), Self::k(s, 1)?),
                    Op::Mul => Expr::Mul(b(a?), b(self.expr(y, c)?)),
                    Op::DivConst { negate } => Expr::DivConst(b(a?), *negate),
                    Op::Quotient { p, q } => Expr::Quot(b(a?), b(self.expr(y, c)?), small(p)?, small(q)?),
                    _ => return Err(Bail),
                }
            }
            TExprKind::Cmp(op, x, y) => {
                let (a, c) = (self.expr(x, kid(0)?)?, self.expr(y, kid(1)?)?);
                match &s.op {
                    Op::Cmp => Expr::Cmp(*op, b(a), Self::k(s, 0)?, b(c), Self::k(s, 1)?),
                    _ => Expr::Cmp(*op, b(a), 1, b(c), 1),
                }
            }
            TExprKind::Min(xs) | TExprKind::Max(xs) => {
                let mut parts = Vec::new();
                for (i, x) in xs.iter().enumerate() {
                    let k = if matches!(s.op, Op::Min | Op::Max) { Self::k(s, i)? } else { 1 };
                    parts.push((self.expr(x, kid(i)?)?, k));
                }
                if matches!(e.kind, TExprKind::Min(_)) {
                    Expr::Min(parts)
                } else {
                    Expr::Max(parts)
                }
            }
            TExprKind::Mod(x, y) => {
                Expr::Mod(b(self.expr(x, kid(0)?)?), Self::k(s, 0)?, b(self.expr(y, kid(1)?)?), Self::k(s, 1)?)
            }
            TExprKind::Isqrt(x) => match &s.op {
                Op::Isqrt { p, q } => Expr::Isqrt(b(self.expr(x, kid(0)?)?), small(p)?, small(q)?),
                _ => return Err(Bail),
            },
            TExprKind::Round { value, .. } => {
                let Op::Round { mode, p, q } = &s.op else { return Err(Bail) };
                let inner = kid(0)?;
                match (&inner.op, &value.kind) {
                    (Op::Quotient { p, q }, TExprKind::Arith(_, x, y)) => Expr::RoundQuot(
                        b(self.expr(x, inner.kids.first().ok_or(Bail)?)?),
                        b(self.expr(y, inner.kids.get(1).ok_or(Bail)?)?),
                        *mode,
                        small(p)?,
                        small(q)?,
                    ),
                    (Op::Quotient { .. }, _) => return Err(Bail),
                    _ => Expr::Round(b(self.expr(value, inner)?), *mode, small(p)?, small(q)?),
                }
            }
            TExprKind::If { cond, then, els } => {
                let (c, t, f) = (self.expr(cond, kid(0)?)?, self.expr(then, kid(1)?)?, self.expr(els, kid(2)?)?);
                match &s.op {
                    Op::If => Expr::If(b(c), b(t), Self::k(s, 1)?, b(f), Self::k(s, 2)?),
                    _ => Expr::If(b(c), b(t), 1, b(f), 1),
                }
            }
            TExprKind::In { var, values } => {
                let mut ns = Vec::new();
                for v in values {
                    if let Some(n) = self.value_n(*var, v)? {
                        ns.push(n);
                    }
                }
                Expr::In(*var, ns)
            }
        })
    }

    /// A value of `var` as its `N`; none when no `N` of the variable is that value.
    fn value_n(&self, var: VarId, v: &Value) -> R<Option<i64>> {
        Ok(match v {
            Value::Bool(b) => Some(*b as i64),
            Value::Enum(i) => Some(*i as i64),
            Value::Num(x) => {
                let q = x / self.scale[var].as_ref().ok_or(Bail)?;
                if q.is_integer() {
                    Some(small(&q.to_integer())?)
                } else {
                    None
                }
            }
            Value::None | Value::Str(_) => return Err(Bail),
        })
    }

    fn put(&self, st: &Option<Store>) -> R<Put> {
        Ok(match st {
            None => Put::AsIs,
            Some(st) => match (st.round, st.quotient) {
                (None, _) => Put::Exact(small(&st.p)?, small(&st.q)?),
                (Some(mode), false) => Put::Round(small(&st.p)?, small(&st.q)?, mode, small(&st.m)?),
                (Some(mode), true) => Put::RoundQuot(mode, small(&st.m)?),
            },
        })
    }

    fn cell(&self, var: VarId, c: &CondIr) -> R<Cell> {
        Ok(match c {
            CondIr::Any => Cell::Any,
            CondIr::Tests { negated, tests } => {
                let mut out = Vec::new();
                for t in tests {
                    out.push(match t {
                        TestIr::IsNone => Test::IsNone,
                        TestIr::OneOf(vs) => {
                            let mut ns = Vec::new();
                            for v in vs {
                                if let Some(n) = self.value_n(var, v)? {
                                    ns.push(n);
                                }
                            }
                            Test::OneOf(ns)
                        }
                        TestIr::Bounds(bs) => {
                            let mut out = Vec::new();
                            for (op, v) in bs {
                                // An ordered enum is compared by position, a number at its scale.
                                out.push(match v {
                                    Value::Enum(i) => (*op, *i as i128, 1),
                                    Value::Bool(b) => (*op, *b as i128, 1),
                                    Value::Num(x) => {
                                        let q = x / self.scale[var].as_ref().ok_or(Bail)?;
                                        (*op, q.numer().to_i128().ok_or(Bail)?, q.denom().to_i128().ok_or(Bail)?)
                                    }
                                    _ => return Err(Bail),
                                });
                            }
                            Test::Bounds(out)
                        }
                    });
                }
                Cell::Tests { negated: *negated, tests: out }
            }
        })
    }

    fn slot(&self, v: VarId) -> R<Slot> {
        let var = &self.p.vars[v];
        let wire = match &var.ty {
            Ty::Bool => Wire::Bool,
            Ty::Enum(e) => Wire::Enum(self.p.enums[*e].values.iter().map(|x| x.name.clone()).collect()),
            Ty::Date => Wire::Date,
            t if t.is_integer_on_wire() => Wire::Int,
            _ => return Err(Bail),
        };
        if matches!(wire, Wire::Int | Wire::Date) && self.scale[v].as_ref() != Some(&var.ty.factor()) {
            return Err(Bail);
        }
        let range = match &var.range {
            None => None,
            Some((lo, hi)) => {
                let (lo, hi) = (self.value_n(v, lo)?.ok_or(Bail)?, self.value_n(v, hi)?.ok_or(Bail)?);
                Some((lo, hi))
            }
        };
        Ok(Slot { name: var.name.clone(), var: v, wire, optional: var.optional, range })
    }
}

impl Compiled {
    /// Compile a rule that checked clean; none when it has a value this form does not hold
    /// (a string) or a constant too large for it.
    pub fn new(p: &Program) -> Option<Compiled> {
        Compiled::build(p).ok()
    }

    fn build(p: &Program) -> R<Compiled> {
        if p.vars.iter().any(|v| v.ty == Ty::Str) {
            return Err(Bail);
        }
        let ann = scale::annotate(p);
        let c = Compiler { p, scale: ann.var_scale.clone() };
        let inputs = p.inputs.iter().map(|&v| c.slot(v)).collect::<R<Vec<_>>>()?;
        let outputs = p.outputs.iter().map(|&v| c.slot(v)).collect::<R<Vec<_>>>()?;
        let mut constraints = Vec::new();
        for (i, k) in p.constraints.iter().enumerate() {
            let mut read = Vec::new();
            crate::sema::collect_vars(&k.expr, &mut read);
            read.retain(|&v| p.vars[v].optional);
            constraints.push((c.expr(&k.expr, &ann.constraints[i])?, read));
        }
        let mut tables = Vec::new();
        for (t, table) in p.tables.iter().enumerate() {
            let mut rows = Vec::new();
            for (r, row) in table.rows.iter().enumerate() {
                let cells = row.conds.iter().zip(&table.conds).map(|(x, &v)| c.cell(v, x)).collect::<R<Vec<_>>>()?;
                let mut results = Vec::new();
                for (i, e) in row.results.iter().enumerate() {
                    results.push(match (e, &ann.rows[t][r][i]) {
                        (Some(e), Some(s)) => Some((c.expr(e, s)?, c.put(&ann.row_stores[t][r][i])?)),
                        (None, _) => None,
                        _ => return Err(Bail),
                    });
                }
                rows.push(Row { cells, results });
            }
            tables.push(Table {
                name: table.name.clone(),
                unique: table.policy == Policy::Unique,
                conds: table.conds.clone(),
                results: table.results.clone(),
                rows,
            });
        }
        let mut steps = Vec::new();
        for s in &p.order {
            steps.push(match *s {
                crate::sema::Step::Define(d) => {
                    let def = &p.defines[d];
                    Step::Define(def.var, c.expr(&def.expr, &ann.defines[d])?, c.put(&ann.define_stores[d])?)
                }
                crate::sema::Step::Table(t) => Step::Table(t),
            });
        }
        Ok(Compiled { inputs, outputs, constraints, steps, tables, vars: p.vars.len() })
    }

    pub fn scratch(&self) -> Scratch {
        Scratch {
            n: vec![0; self.vars],
            present: vec![false; self.vars],
            fired: vec![0; self.tables.len()],
            recorded: vec![0; self.tables.len()],
            observed: vec![None; self.outputs.len()],
        }
    }

    fn eval(&self, e: &Expr, s: &Scratch) -> R<Option<i64>> {
        macro_rules! sub {
            ($x:expr) => {
                match self.eval($x, s)? {
                    None => return Ok(None),
                    Some(v) => v as i128,
                }
            };
        }
        let v: i128 = match e {
            Expr::Const(n) => *n as i128,
            Expr::Var(v) => {
                if !s.present[*v] {
                    return Ok(None);
                }
                s.n[*v] as i128
            }
            Expr::Neg(x) => -sub!(x),
            Expr::Add(a, ka, b, kb) => {
                let (a, b) = (sub!(a), sub!(b));
                a * (*ka as i128) + b * (*kb as i128)
            }
            Expr::Sub(a, ka, b, kb) => {
                let (a, b) = (sub!(a), sub!(b));
                a * (*ka as i128) - b * (*kb as i128)
            }
            Expr::Mul(a, b) => {
                let (a, b) = (sub!(a), sub!(b));
                a * b
            }
            Expr::DivConst(a, negate) => {
                let a = sub!(a);
                if *negate {
                    -a
                } else {
                    a
                }
            }
            // A quotient is computed only by the rounding that consumes it.
            Expr::Quot(..) => return Err(Bail),
            Expr::Min(xs) | Expr::Max(xs) => {
                let min = matches!(e, Expr::Min(_));
                let mut best: Option<i128> = None;
                for (x, k) in xs {
                    let v = sub!(x) * (*k as i128);
                    best = Some(match best {
                        None => v,
                        Some(b) if (min && v < b) || (!min && v > b) => v,
                        Some(b) => b,
                    });
                }
                best.ok_or(Bail)?
            }
            Expr::If(c, t, kt, f, kf) => {
                if sub!(c) != 0 {
                    sub!(t) * (*kt as i128)
                } else {
                    sub!(f) * (*kf as i128)
                }
            }
            Expr::Mod(a, ka, b, kb) => {
                let (a, b) = (sub!(a) * (*ka as i128), sub!(b) * (*kb as i128));
                if b == 0 {
                    return Err(Bail);
                }
                a.rem_euclid(b.abs())
            }
            Expr::Isqrt(x, p, q) => {
                let x = sub!(x) * (*p as i128);
                if x < 0 || *q <= 0 {
                    return Err(Bail);
                }
                isqrt(x.div_euclid(*q as i128))
            }
            Expr::Round(x, mode, p, q) => div_round(sub!(x) * (*p as i128), *q as i128, *mode)?,
            Expr::RoundQuot(a, b, mode, p, q) => {
                let (a, b) = (sub!(a), sub!(b));
                div_round(a * (*p as i128), b * (*q as i128), *mode)?
            }
            Expr::Cmp(op, a, ka, b, kb) => {
                let (a, b) = (sub!(a) * (*ka as i128), sub!(b) * (*kb as i128));
                op.holds(a.cmp(&b)) as i128
            }
            Expr::Not(x) => (sub!(x) == 0) as i128,
            Expr::And(a, b) => {
                if sub!(a) == 0 {
                    0
                } else {
                    (sub!(b) != 0) as i128
                }
            }
            Expr::Or(a, b) => {
                if sub!(a) != 0 {
                    1
                } else {
                    (sub!(b) != 0) as i128
                }
            }
            Expr::In(v, ns) => {
                if !s.present[*v] {
                    return Ok(None);
                }
                ns.contains(&s.n[*v]) as i128
            }
        };
        Ok(Some(narrow(v)?))
    }

    fn put(&self, e: &Expr, put: &Put, s: &Scratch) -> R<Option<i64>> {
        if let (Put::RoundQuot(mode, m), Expr::Quot(a, b, p, q)) = (put, e) {
            let (Some(a), Some(b)) = (self.eval(a, s)?, self.eval(b, s)?) else { return Ok(None) };
            let r = div_round(a as i128 * *p as i128, b as i128 * *q as i128, *mode)?;
            return Ok(Some(narrow(r * *m as i128)?));
        }
        let Some(n) = self.eval(e, s)? else { return Ok(None) };
        let n = n as i128;
        Ok(Some(match put {
            Put::AsIs => narrow(n)?,
            Put::Exact(p, 1) => narrow(n * *p as i128)?,
            Put::Exact(p, q) => {
                let x = n * *p as i128;
                if *q == 0 || x % *q as i128 != 0 {
                    return Err(Bail);
                }
                narrow(x / *q as i128)?
            }
            Put::Round(p, q, mode, m) => narrow(div_round(n * *p as i128, *q as i128, *mode)? * *m as i128)?,
            Put::RoundQuot(..) => return Err(Bail),
        }))
    }

    fn holds(cell: &Cell, n: i64, present: bool) -> bool {
        match cell {
            Cell::Any => true,
            Cell::Tests { negated, tests } => {
                let any = tests.iter().any(|t| match t {
                    Test::IsNone => !present,
                    _ if !present => false,
                    Test::OneOf(ns) => ns.contains(&n),
                    Test::Bounds(bs) => bs.iter().all(|&(op, num, den)| {
                        if den == 1 {
                            op.holds((n as i128).cmp(&num))
                        } else {
                            op.holds((n as i128 * den).cmp(&num))
                        }
                    }),
                });
                any != *negated
            }
        }
    }

    /// Run the rule on the inputs already in `s` (read and checked at the door).
    fn run(&self, s: &mut Scratch) -> R<()> {
        for (c, optional_read) in &self.constraints {
            if optional_read.iter().any(|&v| !s.present[v]) {
                continue;
            }
            if self.eval(c, s)? == Some(0) {
                return Err(Bail);
            }
        }
        for step in &self.steps {
            match step {
                Step::Define(v, e, put) => {
                    let x = self.put(e, put, s)?;
                    s.present[*v] = x.is_some();
                    s.n[*v] = x.unwrap_or(0);
                }
                Step::Table(t) => {
                    let table = &self.tables[*t];
                    let matches =
                        |r: &Row| r.cells.iter().zip(&table.conds).all(|(c, &v)| Self::holds(c, s.n[v], s.present[v]));
                    let Some(r) = table.rows.iter().position(matches) else { return Err(Bail) };
                    if table.unique && table.rows[r + 1..].iter().any(matches) {
                        return Err(Bail);
                    }
                    for (i, &v) in table.results.iter().enumerate() {
                        let x = match &table.rows[r].results[i] {
                            None => None,
                            Some((e, put)) => self.put(e, put, s)?,
                        };
                        s.present[v] = x.is_some();
                        s.n[v] = x.unwrap_or(0);
                    }
                    s.fired[*t] = r as u32 + 1;
                }
            }
        }
        Ok(())
    }

    /// Evaluate a call given as the reference holds it (inputs in `p.inputs` order, already
    /// read at the door): the outputs and the rows that fired, or `None` where this form
    /// hands the call to the reference. What the agreement test holds to `eval::evaluate`.
    pub fn evaluate(&self, p: &Program, inputs: &[Value]) -> Option<(Vec<Value>, Vec<Fired>)> {
        let mut s = self.scratch();
        for (slot, x) in self.inputs.iter().zip(inputs) {
            let n = match x {
                Value::None => None,
                Value::Bool(b) => Some(*b as i64),
                Value::Enum(i) => Some(*i as i64),
                Value::Num(r) => Some((r / p.vars[slot.var].ty.factor()).to_integer().to_i64()?),
                Value::Str(_) => return None,
            };
            s.present[slot.var] = n.is_some();
            s.n[slot.var] = n.unwrap_or(0);
        }
        self.run(&mut s).ok()?;
        let outputs = self
            .outputs
            .iter()
            .map(|o| {
                if !s.present[o.var] {
                    return Value::None;
                }
                let n = s.n[o.var];
                match &p.vars[o.var].ty {
                    Ty::Bool => Value::Bool(n != 0),
                    Ty::Enum(_) => Value::Enum(n as u32),
                    t => Value::Num(Rat::from_integer(n.into()) * t.factor()),
                }
            })
            .collect();
        let trace = (0..self.tables.len()).map(|t| Fired { table: t, row: s.fired[t] as usize }).collect();
        Some((outputs, trace))
    }

    /// Replay one fixtures line: `Some(true)` when it is a record this form read, whose call
    /// it answered exactly as observed, with the rows its trace names (when it has one);
    /// `None` for every other line — the reference reads it.
    pub fn matches(&self, line: &[u8], s: &mut Scratch) -> Option<bool> {
        let text = std::str::from_utf8(line).ok()?;
        let traced = self.scan(text.as_bytes(), s).ok()?;
        self.run(s).ok()?;
        for (o, want) in self.outputs.iter().zip(&s.observed) {
            let got = s.present[o.var].then_some(s.n[o.var]);
            if got != *want {
                return None;
            }
        }
        if traced && s.recorded != s.fired {
            return None;
        }
        Some(true)
    }

    /// Read a record into `s`: inputs, observed, and the trace as a row per table (whether
    /// the record has one is the answer).
    fn scan(&self, b: &[u8], s: &mut Scratch) -> R<bool> {
        let mut sc = Scan { b, i: 0 };
        let mut seen_in = 0u64;
        let mut seen_out = 0u64;
        let mut seen_top = 0u8;
        let mut traced = false;
        if self.inputs.len() > 64 || self.outputs.len() > 64 {
            return Err(Bail);
        }
        sc.ws();
        sc.eat(b'{')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b'}') {
                sc.i += 1;
                break;
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            let key = sc.string()?;
            sc.ws();
            sc.eat(b':')?;
            sc.ws();
            let bit = match key {
                b"ts" => 1,
                b"tag" => 2,
                b"in" => 4,
                b"observed" => 8,
                b"trace" => 16,
                b"by" => 32,
                _ => return Err(Bail),
            };
            if seen_top & bit != 0 {
                return Err(Bail);
            }
            seen_top |= bit;
            match key {
                b"in" => seen_in = self.object(&mut sc, &self.inputs, s, false)?,
                b"observed" => seen_out = self.object(&mut sc, &self.outputs, s, true)?,
                b"trace" => {
                    self.trace(&mut sc, &mut s.recorded)?;
                    traced = true;
                }
                b"tag" => {
                    sc.string()?;
                }
                _ => sc.skip(0)?,
            }
        }
        sc.ws();
        if sc.i != b.len() || seen_top & 12 != 12 {
            return Err(Bail);
        }
        // Every input the rule needs and every output must be there.
        for (i, slot) in self.inputs.iter().enumerate() {
            if seen_in & (1 << i) == 0 {
                if !slot.optional {
                    return Err(Bail);
                }
                s.present[slot.var] = false;
            }
        }
        if seen_out.count_ones() as usize != self.outputs.len() {
            return Err(Bail);
        }
        Ok(traced)
    }

    /// An object of wire values for `slots`; each key once, each value as the door reads it.
    fn object(&self, sc: &mut Scan, slots: &[Slot], s: &mut Scratch, observed: bool) -> R<u64> {
        let mut seen = 0u64;
        sc.eat(b'{')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b'}') {
                sc.i += 1;
                return Ok(seen);
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            let key = sc.string()?;
            sc.ws();
            sc.eat(b':')?;
            sc.ws();
            let k = slots.iter().position(|x| x.name.as_bytes() == key).ok_or(Bail)?;
            if seen & (1 << k) != 0 {
                return Err(Bail);
            }
            seen |= 1 << k;
            let slot = &slots[k];
            let n = if sc.peek() == Some(b'n') {
                sc.word(b"null")?;
                if !slot.optional {
                    return Err(Bail);
                }
                None
            } else {
                Some(match &slot.wire {
                    Wire::Int => parse_int(sc.number()?)?,
                    Wire::Bool => match sc.peek() {
                        Some(b't') => sc.word(b"true").map(|_| 1)?,
                        _ => sc.word(b"false").map(|_| 0)?,
                    },
                    Wire::Enum(names) => {
                        let w = sc.string()?;
                        names.iter().position(|n| n.as_bytes() == w).ok_or(Bail)? as i64
                    }
                    Wire::Date => {
                        let w = sc.string()?;
                        date::parse(std::str::from_utf8(w).map_err(|_| Bail)?).ok_or(Bail)?
                    }
                })
            };
            if let (Some(n), Some((lo, hi))) = (n, slot.range) {
                if n < lo || n > hi {
                    return Err(Bail);
                }
            }
            if observed {
                s.observed[k] = n;
            } else {
                s.present[slot.var] = n.is_some();
                s.n[slot.var] = n.unwrap_or(0);
            }
        }
    }

    /// `[{"table":…,"row":…},…]`, every table of the rule once: the row of each.
    fn trace(&self, sc: &mut Scan, rows: &mut [u32]) -> R<()> {
        rows.fill(0);
        sc.eat(b'[')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b']') {
                sc.i += 1;
                break;
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            sc.eat(b'{')?;
            let (mut table, mut row) = (None, None);
            for i in 0..2 {
                sc.ws();
                if i == 1 {
                    sc.eat(b',')?;
                    sc.ws();
                }
                let key = sc.string()?;
                sc.ws();
                sc.eat(b':')?;
                sc.ws();
                match key {
                    b"table" if table.is_none() => {
                        let name = sc.string()?;
                        table = Some(self.tables.iter().position(|t| t.name.as_bytes() == name).ok_or(Bail)?);
                    }
                    b"row" if row.is_none() => row = Some(parse_int(sc.number()?)?),
                    _ => return Err(Bail),
                }
            }
            sc.ws();
            sc.eat(b'}')?;
            let (t, r) = (table.ok_or(Bail)?, row.ok_or(Bail)?);
            if rows[t] != 0 || r < 1 || r as usize > self.tables[t].rows.len() {
                return Err(Bail);
            }
            rows[t] = r as u32;
        }
        if rows.contains(&0) {
            return Err(Bail);
        }
        Ok(())
    }
}

/// A whole number written plainly (`-12`, `0`): no fraction, no exponent, no leading zero.
fn parse_int(t: &[u8]) -> R<i64> {
    let digits = t.strip_prefix(b"-").unwrap_or(t);
    if digits.is_empty() || digits.len() > 18 || (digits.len() > 1 && digits[0] == b'0') {
        return Err(Bail);
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return Err(Bail);
    }
    let mut n: i64 = 0;
    for d in digits {
        n = n * 10 + (d - b'0') as i64;
    }
    Ok(if t[0] == b'-' { -n } else { n })
}

/// A JSON scanner over one line that borrows from it.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> R<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(Bail)
        }
    }
    fn word(&mut self, w: &[u8]) -> R<()> {
        if self.b[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(())
        } else {
            Err(Bail)
        }
    }
    /// A string without escapes: its bytes.
    fn string(&mut self) -> R<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(&self.b[start..self.i - 1]);
                }
                Some(b'\\') | None => return Err(Bail),
                Some(c) if c < 0x20 => return Err(Bail),
                Some(_) => self.i += 1,
            }
        }
    }
    /// A JSON number's text (the whole grammar), for the caller to read.
    fn number(&mut self) -> R<&'a [u8]> {
        let start = self.i;
        let digits = |s: &mut Scan| {
            let from = s.i;
            while matches!(s.peek(), Some(b'0'..=b'9')) {
                s.i += 1;
            }
            s.i > from
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        if !digits(self) {
            return Err(Bail);
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !digits(self) {
                return Err(Bail);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(Bail);
            }
        }
        Ok(&self.b[start..self.i])
    }
    /// Any JSON value, passed over (what `ts` and `by` hold).
    fn skip(&mut self, depth: usize) -> R<()> {
        if depth > 64 {
            return Err(Bail);
        }
        self.ws();
        match self.peek().ok_or(Bail)? {
            b'"' => {
                self.i += 1;
                loop {
                    match self.peek().ok_or(Bail)? {
                        b'"' => {
                            self.i += 1;
                            return Ok(());
                        }
                        b'\\' => self.i += 2,
                        c if c < 0x20 => return Err(Bail),
                        _ => self.i += 1,
                    }
                }
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                self.ws();
                if self.peek() == Some(close) {
                    self.i += 1;
                    return Ok(());
                }
                loop {
                    if open == b'{' {
                        self.ws();
                        self.skip(depth + 1)?;
                        self.ws();
                        self.eat(b':')?;
                    }
                    self.skip(depth + 1)?;
                    self.ws();
                    match self.peek().ok_or(Bail)? {
                        b',' => self.i += 1,
                        c if c == close => {
                            self.i += 1;
                            return Ok(());
                        }
                        _ => return Err(Bail),
                    }
                }
            }
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => self.number().map(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_integers_only() {
        assert_eq!(parse_int(b"-12"), Ok(-12));
        assert_eq!(parse_int(b"0"), Ok(0));
        for t in [&b"012"[..], b"1.0", b"1e3", b"", b"-", b"1234567890123456789"] {
            assert_eq!(parse_int(t), Err(Bail), "{}", String::from_utf8_lossy(t));
        }
    }

    #[test]
    fn skips_any_value() {
        let mut s = Scan { b: br#"{"a":[1,{"b":"x\"y"},null,true,-1.5e3]} "#, i: 0 };
        s.skip(0).unwrap();
        assert_eq!(s.i, s.b.len() - 1);
    }
}
