//! The int64 evaluation model (docs/int64.md): how generated code holds every numeric
//! subexpression as a 64-bit integer, and which integers it computes on the way.
//!
//! A numeric subexpression `e` is held as an integer `N(e)` with `value(e) = N(e)·S(e)`,
//! `S(e)` a static positive rational in base units (yen, cents, mg, …; day numbers for dates).
//! [`annotate`] fixes `S` and the operation for every node of every expression the generated
//! code evaluates (constraints at the door, defines, table results) and for every store into
//! a variable; [`node_ints`] and [`store_ints`] list the integers such a node computes, as
//! bounds, given bounds of the values involved. The value analysis proves those bounds fit
//! int64 (E108); the code generators emit exactly these operations.

use crate::num::{Rat, RoundMode};
use crate::sema::*;
use crate::source::Span;
use crate::syntax::ast::BinOp;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// A closed interval of exact values.
pub type Iv = (Rat, Rat);

/// The largest int64.
pub fn i64_max() -> BigInt {
    BigInt::from(i64::MAX)
}

/// The smallest int64.
pub fn i64_min() -> BigInt {
    BigInt::from(i64::MIN)
}

/// gcd(p/q, r/s) = gcd(p·s, r·q) / (q·s): the largest rational both are whole multiples of.
pub fn rat_gcd(a: &Rat, b: &Rat) -> Rat {
    let n = (a.numer() * b.denom()).gcd(&(b.numer() * a.denom()));
    Rat::new(n, a.denom() * b.denom())
}

/// `a / b` in lowest terms as (p, q), q > 0 (a, b > 0).
fn ratio(a: &Rat, b: &Rat) -> (BigInt, BigInt) {
    let r = a / b;
    (r.numer().clone(), r.denom().clone())
}

/// What one node computes. `N` is the node's integer, `k[i]` the multiplier its i-th child
/// is rescaled by first (1 when there is none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Not a number (a boolean, an enum, a string): children may still be numeric.
    Other,
    /// A literal: `N` is this integer.
    Const(BigInt),
    /// A variable: `N` is what the variable is stored as.
    Var(VarId),
    /// `N = -N(x)`.
    Neg,
    /// `N = N(a)·k0 + N(b)·k1`.
    Add,
    /// `N = N(a)·k0 - N(b)·k1`.
    Sub,
    /// `N = N(a)·N(b)`; `S = S(a)·S(b)`.
    Mul,
    /// `a / c`, c a nonzero constant: exact, `N = ±N(a)`, `S = S(a)/|c|`.
    DivConst { negate: bool },
    /// `a / b`, b not a constant: never one integer. The pair `(N(a)·p, N(b)·q)` is handed to
    /// the rounding that consumes it, which divides and rounds in one step; `p/q` is set by
    /// that consumer. `S` is nominal (`S(a)/S(b)`).
    Quotient { p: BigInt, q: BigInt },
    /// `N = min(N(xᵢ)·kᵢ)`.
    Min,
    /// `N = max(N(xᵢ)·kᵢ)`.
    Max,
    /// `N = N(then)·k1` or `N(else)·k2`; only the branch taken is computed.
    If,
    /// `N = rem_euclid(N(a)·k0, |N(b)·k1|)`.
    Mod,
    /// `N = isqrt(floor(N(x)·p / q))`, `S = 1`.
    Isqrt { p: BigInt, q: BigInt },
    /// `N = div_round(N(x)·p, q, mode)` where `S(x)/grid = p/q`, `S = grid`. When the child is
    /// a `Quotient`, `N = div_round(N(a)·p, N(b)·q, mode)` with the quotient's `p/q`.
    Round { mode: RoundMode, p: BigInt, q: BigInt },
    /// A comparison of numbers: `N(a)·k0` against `N(b)·k1` (the node's `scale` is the common one).
    Cmp,
}

/// The annotation of one expression node; `kids` mirror the node's children ([`children`]).
#[derive(Clone, Debug)]
pub struct Scaled {
    /// `S(e)`, for a numeric node (and, for `Cmp`, the scale both sides meet at).
    pub scale: Option<Rat>,
    pub op: Op,
    pub k: Vec<BigInt>,
    pub kids: Vec<Scaled>,
}

impl Scaled {
    fn leaf(scale: Option<Rat>, op: Op) -> Scaled {
        Scaled { scale, op, k: Vec::new(), kids: Vec::new() }
    }
    fn other(kids: Vec<Scaled>) -> Scaled {
        let k = vec![BigInt::one(); kids.len()];
        Scaled { scale: None, op: Op::Other, k, kids }
    }
    /// Whether the node is held as one integer `N` (a number that is not a quotient pair).
    pub fn holds_n(&self) -> bool {
        self.scale.is_some() && !matches!(self.op, Op::Other | Op::Cmp | Op::Quotient { .. })
    }
}

/// Storing a computed value into a declared variable (an output, a value, a declared define):
/// the variable holds its wire integer, `value / factor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub var: VarId,
    /// Without rounding: `N_var = N(e)·p / q`, a division that is exact (E106 proved the
    /// value lies on the variable's unit). With the output's rounding (grid `r`):
    /// `N_r = div_round(N(e)·p, q, mode)` where `S(e)/r = p/q` — or, when the expression is a
    /// quotient, `div_round(N(a)·p', N(b)·q', mode)` with the quotient's own `p'/q'` — then
    /// `N_var = N_r·m`, `m = r / factor`.
    pub p: BigInt,
    pub q: BigInt,
    pub round: Option<RoundMode>,
    pub m: BigInt,
    /// The expression is a quotient consumed by the rounding.
    pub quotient: bool,
}

/// An expression as it is stored into a variable: its scales, and the conversion, where one is needed.
pub type Stored = (Scaled, Option<Store>);

/// The model for a whole program.
#[derive(Clone, Debug, Default)]
pub struct Annotation {
    /// The scale each variable is held at: its type's factor for inputs and declared
    /// variables (its wire integer), its expression's `S` for an undeclared define.
    pub var_scale: Vec<Option<Rat>>,
    pub constraints: Vec<Scaled>,
    /// By define index.
    pub defines: Vec<Scaled>,
    /// `None` for an undeclared define (held at its expression's scale, nothing converted).
    pub define_stores: Vec<Option<Store>>,
    /// `[table][row][result]`; `None` where the cell is `none`.
    pub rows: Vec<Vec<Vec<Option<Scaled>>>>,
    pub row_stores: Vec<Vec<Vec<Option<Store>>>>,
    /// Quotients by a value used where no rounding consumes them (E133).
    pub misplaced: Vec<Span>,
    /// By summary index: its `where`, and its empty answer as stored into the summary.
    pub summaries: Vec<(Option<Scaled>, Option<Stored>)>,
    /// By fold index: its empty answer as stored into the value the fold decides.
    pub folds: Vec<(Scaled, Option<Store>)>,
}

/// The children of an expression node, in the order [`Scaled::kids`] mirrors.
pub fn children(e: &TExpr) -> Vec<&TExpr> {
    match &e.kind {
        TExprKind::Const(_) | TExprKind::Var(_) | TExprKind::In { .. } => Vec::new(),
        TExprKind::Neg(x) | TExprKind::Not(x) | TExprKind::Isqrt(x) => vec![x],
        TExprKind::Round { value, .. } => vec![value],
        TExprKind::Arith(_, a, b)
        | TExprKind::Cmp(_, a, b)
        | TExprKind::And(a, b)
        | TExprKind::Or(a, b)
        | TExprKind::Mod(a, b) => vec![a, b],
        TExprKind::Min(xs) | TExprKind::Max(xs) => xs.iter().collect(),
        TExprKind::If { cond, then, els } => vec![cond, then, els],
    }
}

/// Whether values of this type are numbers the code computes with (dates are day numbers).
pub fn is_number(ty: &Ty) -> bool {
    ty.is_numeric() || *ty == Ty::Date
}

/// The scale a variable of this type is stored at: its factor (dates: 1 day).
pub fn stored_scale(ty: &Ty) -> Option<Rat> {
    is_number(ty).then(|| ty.factor())
}

/// A literal's `(S, N)`: `S` is the unit it is read in (1% for a rate, the unit for money and
/// quantities, 1 otherwise) divided by the power of ten that makes `N` whole (`0.5%` → 5 at
/// 1/1000); a value with no finite decimal takes its own denominator.
pub fn const_scale(v: &Rat, ty: &Ty) -> (Rat, BigInt) {
    let base = match ty {
        Ty::Rate { .. } => Rat::new(BigInt::one(), BigInt::from(100)),
        Ty::Money { .. } | Ty::Qty { .. } => ty.factor(),
        _ => Rat::one(),
    };
    if v.is_zero() {
        return (base, BigInt::zero());
    }
    // A whole number of a unit of one base unit (yen, an int): its own integer.
    if base.is_one() && v.is_integer() {
        return (base, v.numer().clone());
    }
    let r = v / &base;
    let mut q = r.denom().clone();
    let (mut twos, mut fives) = (0u32, 0u32);
    while q.is_even() {
        q /= 2;
        twos += 1;
    }
    while (&q % 5u32).is_zero() {
        q /= 5;
        fives += 1;
    }
    let s = if q.is_one() {
        base / Rat::from_integer(num_traits::pow(BigInt::from(10), twos.max(fives) as usize))
    } else {
        base / Rat::from_integer(r.denom().clone())
    };
    let n = (v / &s).to_integer();
    (s, n)
}

/// Fix the scale of every node of the program.
pub fn annotate(p: &Program) -> Annotation {
    let mut a = Annotator { p, var_scale: p.vars.iter().map(|v| stored_scale(&v.ty)).collect(), misplaced: Vec::new() };
    let constraints = p.constraints.iter().map(|c| a.node(&c.expr, None)).collect();
    let mut defines: Vec<Option<Scaled>> = vec![None; p.defines.len()];
    let mut define_stores = vec![None; p.defines.len()];
    let mut rows: Vec<Vec<Vec<Option<Scaled>>>> = p.tables.iter().map(|t| Vec::with_capacity(t.rows.len())).collect();
    let mut row_stores: Vec<Vec<Vec<Option<Store>>>> =
        p.tables.iter().map(|t| Vec::with_capacity(t.rows.len())).collect();
    let mut summaries = vec![None; p.summaries.len()];
    let mut folds = vec![None; p.folds.len()];
    for step in p.steps_flat() {
        match step {
            Step::Define(d) => {
                let def = &p.defines[d];
                let var = &p.vars[def.var];
                if var.declared || var.kind != VarKind::Define {
                    let (s, st) = a.store(def.var, &def.expr);
                    defines[d] = Some(s);
                    define_stores[d] = st;
                } else {
                    let s = a.node(&def.expr, None);
                    a.var_scale[def.var] = s.scale.clone();
                    defines[d] = Some(s);
                }
            }
            // A summary's total is held at the scale of what it adds up (a count, as an
            // integer); a declared one at its type's (sema holds the two to agree).
            Step::Walk(w) => {
                for &si in &p.walks[w].summaries {
                    let s = &p.summaries[si];
                    if let (Some(of), false) = (s.of, p.vars[s.var].declared || p.vars[s.var].kind != VarKind::Define) {
                        a.var_scale[s.var] = a.var_scale[of].clone();
                    }
                    let filter = s.filter.as_ref().map(|f| a.node(f, None));
                    let empty = s.empty.as_ref().map(|e| a.store(s.var, e));
                    summaries[si] = Some((filter, empty));
                }
                for &fi in &p.walks[w].folds {
                    let f = &p.folds[fi];
                    folds[fi] = Some(a.store(f.into, &f.empty));
                }
            }
            Step::Table(t) => {
                let table = &p.tables[t];
                for row in &table.rows {
                    let mut rs = Vec::with_capacity(row.results.len());
                    let mut ss = Vec::with_capacity(row.results.len());
                    for (i, r) in row.results.iter().enumerate() {
                        match r {
                            Some(e) => {
                                let (s, st) = a.store(table.results[i], e);
                                rs.push(Some(s));
                                ss.push(st);
                            }
                            None => {
                                rs.push(None);
                                ss.push(None);
                            }
                        }
                    }
                    rows[t].push(rs);
                    row_stores[t].push(ss);
                }
            }
        }
    }
    Annotation {
        var_scale: a.var_scale,
        constraints,
        defines: defines.into_iter().map(|d| d.unwrap_or_else(|| Scaled::other(Vec::new()))).collect(),
        define_stores,
        rows,
        row_stores,
        misplaced: a.misplaced,
        summaries: summaries.into_iter().map(|s| s.expect("every summary is on a walk")).collect(),
        folds: folds.into_iter().map(|f| f.expect("every fold is on a walk")).collect(),
    }
}

struct Annotator<'a> {
    p: &'a Program,
    var_scale: Vec<Option<Rat>>,
    misplaced: Vec<Span>,
}

impl Annotator<'_> {
    /// The expression stored into a declared variable, and how it is converted.
    fn store(&mut self, var: VarId, e: &TExpr) -> (Scaled, Option<Store>) {
        let v = &self.p.vars[var];
        let Some(factor) = stored_scale(&v.ty) else {
            return (self.node(e, None), None);
        };
        if !is_number(&e.ty) {
            return (self.node(e, None), None);
        }
        match &v.rounding {
            Some(r) => {
                let s = self.node(e, Some(&r.grid));
                let m = (&r.grid / &factor).to_integer();
                if matches!(s.op, Op::Quotient { .. }) {
                    let st = Store { var, p: BigInt::one(), q: BigInt::one(), round: Some(r.mode), m, quotient: true };
                    return (s, Some(st));
                }
                let se = s.scale.clone().unwrap_or_else(Rat::one);
                let (p, q) = ratio(&se, &r.grid);
                (s, Some(Store { var, p, q, round: Some(r.mode), m, quotient: false }))
            }
            None => {
                let s = self.node(e, None);
                let se = s.scale.clone().unwrap_or_else(Rat::one);
                let (p, q) = ratio(&se, &factor);
                (s, Some(Store { var, p, q, round: None, m: BigInt::one(), quotient: false }))
            }
        }
    }

    /// Annotate a node. `qgrid` is the grid of a rounding that consumes this node directly
    /// (a quotient is allowed only there).
    fn node(&mut self, e: &TExpr, qgrid: Option<&Rat>) -> Scaled {
        let numeric = is_number(&e.ty);
        match &e.kind {
            TExprKind::Const(Value::Num(v)) => {
                let (s, n) = const_scale(v, &e.ty);
                Scaled::leaf(Some(s), Op::Const(n))
            }
            TExprKind::Const(_) | TExprKind::In { .. } => Scaled::leaf(None, Op::Other),
            TExprKind::Var(v) => {
                let s = if numeric {
                    self.var_scale[*v].clone().or_else(|| stored_scale(&self.p.vars[*v].ty))
                } else {
                    None
                };
                Scaled::leaf(s, if numeric { Op::Var(*v) } else { Op::Other })
            }
            TExprKind::Neg(x) => {
                let k = self.operand(x);
                Scaled { scale: k.scale.clone(), op: Op::Neg, k: vec![BigInt::one()], kids: vec![k] }
            }
            TExprKind::Not(x) => Scaled::other(vec![self.node(x, None)]),
            TExprKind::And(a, b) | TExprKind::Or(a, b) => Scaled::other(vec![self.node(a, None), self.node(b, None)]),
            TExprKind::Arith(op, a, b) => match op {
                BinOp::Add | BinOp::Sub => {
                    let mut kids = vec![self.operand(a), self.operand(b)];
                    let (s, k) = join(&mut kids, &[0, 1]);
                    Scaled { scale: Some(s), op: if *op == BinOp::Add { Op::Add } else { Op::Sub }, k, kids }
                }
                BinOp::Mul => {
                    let kids = vec![self.operand(a), self.operand(b)];
                    let s =
                        kids[0].scale.clone().unwrap_or_else(Rat::one) * kids[1].scale.clone().unwrap_or_else(Rat::one);
                    Scaled { scale: Some(s), op: Op::Mul, k: vec![BigInt::one(); 2], kids }
                }
                BinOp::Div => {
                    let ka = self.operand(a);
                    let sa = ka.scale.clone().unwrap_or_else(Rat::one);
                    if let TExprKind::Const(Value::Num(c)) = &b.kind {
                        if !c.is_zero() {
                            let kb = self.node(b, None);
                            let s = &sa / c.abs();
                            return Scaled {
                                scale: Some(s),
                                op: Op::DivConst { negate: c.is_negative() },
                                k: vec![BigInt::one(); 2],
                                kids: vec![ka, kb],
                            };
                        }
                    }
                    let kb = self.operand(b);
                    let sb = kb.scale.clone().unwrap_or_else(Rat::one);
                    let (p, q) = match qgrid {
                        Some(g) => ratio(&sa, &(&sb * g)),
                        None => {
                            self.misplaced.push(e.span);
                            (BigInt::one(), BigInt::one())
                        }
                    };
                    Scaled {
                        scale: Some(&sa / &sb),
                        op: Op::Quotient { p, q },
                        k: vec![BigInt::one(); 2],
                        kids: vec![ka, kb],
                    }
                }
            },
            TExprKind::Cmp(_, a, b) => {
                let mut kids = vec![self.operand(a), self.operand(b)];
                if is_number(&a.ty) && is_number(&b.ty) {
                    let (s, k) = join(&mut kids, &[0, 1]);
                    Scaled { scale: Some(s), op: Op::Cmp, k, kids }
                } else {
                    Scaled::other(kids)
                }
            }
            TExprKind::Min(xs) | TExprKind::Max(xs) => {
                let mut kids: Vec<Scaled> = xs.iter().map(|x| self.operand(x)).collect();
                if !numeric {
                    return Scaled::other(kids);
                }
                let which: Vec<usize> = (0..kids.len()).collect();
                let (s, k) = join(&mut kids, &which);
                let op = if matches!(e.kind, TExprKind::Min(_)) { Op::Min } else { Op::Max };
                Scaled { scale: Some(s), op, k, kids }
            }
            TExprKind::Mod(a, b) => {
                let mut kids = vec![self.operand(a), self.operand(b)];
                let (s, k) = join(&mut kids, &[0, 1]);
                Scaled { scale: Some(s), op: Op::Mod, k, kids }
            }
            TExprKind::Isqrt(x) => {
                let kx = self.operand(x);
                let (p, q) = ratio(&kx.scale.clone().unwrap_or_else(Rat::one), &Rat::one());
                Scaled { scale: Some(Rat::one()), op: Op::Isqrt { p, q }, k: vec![BigInt::one()], kids: vec![kx] }
            }
            TExprKind::Round { value, mode, grid } => {
                let kx = self.node(value, Some(grid));
                let (p, q) = if matches!(kx.op, Op::Quotient { .. }) {
                    (BigInt::one(), BigInt::one())
                } else {
                    ratio(&kx.scale.clone().unwrap_or_else(Rat::one), grid)
                };
                Scaled {
                    scale: Some(grid.clone()),
                    op: Op::Round { mode: *mode, p, q },
                    k: vec![BigInt::one()],
                    kids: vec![kx],
                }
            }
            TExprKind::If { cond, then, els } => {
                let mut kids = vec![self.node(cond, None), self.operand(then), self.operand(els)];
                if !numeric {
                    return Scaled::other(kids);
                }
                let (s, k) = join(&mut kids, &[1, 2]);
                Scaled { scale: Some(s), op: Op::If, k, kids }
            }
        }
    }

    /// A child that is computed as one integer (a quotient here is misplaced).
    fn operand(&mut self, e: &TExpr) -> Scaled {
        self.node(e, None)
    }
}

/// The common scale of the numeric operands `which` (the rational gcd of their scales), and
/// each child's multiplier. A literal adopts the common scale when it is a whole multiple of
/// it, so it never makes the others finer than they need to be.
fn join(kids: &mut [Scaled], which: &[usize]) -> (Rat, Vec<BigInt>) {
    let mut g: Option<Rat> = None;
    for &i in which {
        if !matches!(kids[i].op, Op::Const(_)) {
            let s = kids[i].scale.clone().unwrap_or_else(Rat::one);
            g = Some(match g {
                None => s,
                Some(g) => rat_gcd(&g, &s),
            });
        }
    }
    // Literals: a multiple of the common scale adopts it; any other makes it finer.
    for &i in which {
        if let Op::Const(n) = &kids[i].op {
            let s = kids[i].scale.clone().unwrap_or_else(Rat::one);
            let v = Rat::from_integer(n.clone()) * &s;
            g = Some(match g {
                None => s,
                Some(g) if (&v / &g).is_integer() => g,
                Some(g) => rat_gcd(&g, &s),
            });
        }
    }
    let g = g.unwrap_or_else(Rat::one);
    let mut k = vec![BigInt::one(); kids.len()];
    for &i in which {
        if let Op::Const(n) = &kids[i].op {
            let v = Rat::from_integer(n.clone()) * kids[i].scale.clone().unwrap_or_else(Rat::one);
            kids[i].op = Op::Const((&v / &g).to_integer());
            kids[i].scale = Some(g.clone());
        } else {
            let s = kids[i].scale.clone().unwrap_or_else(Rat::one);
            k[i] = (&s / &g).to_integer();
        }
    }
    (g, k)
}

/// One integer the generated code computes, with its bounds (it is whole: the checks round
/// the bounds inward).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inter {
    /// What it is, in words that name the node's parts by position ("operand 2 × 100").
    pub what: String,
    pub lo: Rat,
    pub hi: Rat,
}

impl Inter {
    fn new(what: impl Into<String>, lo: Rat, hi: Rat) -> Inter {
        Inter { what: what.into(), lo, hi }
    }
    /// Whether every whole number inside the bounds is an int64.
    pub fn fits(&self) -> bool {
        let (lo, hi) = (crate::num::ceil(&self.lo), crate::num::floor(&self.hi));
        hi.numer() <= &i64_max() && lo.numer() >= &i64_min()
    }
    /// The largest magnitude a whole number inside the bounds has.
    pub fn max_abs(&self) -> BigInt {
        let hi = self.hi.floor().to_integer().abs();
        let lo = self.lo.ceil().to_integer().abs();
        hi.max(lo)
    }
}

fn div_iv(iv: &Iv, s: &Rat) -> (Rat, Rat) {
    let lo = crate::num::quot(&iv.0, s);
    let hi = if iv.1 == iv.0 { lo.clone() } else { crate::num::quot(&iv.1, s) };
    (lo, hi)
}

fn symmetric(lo: Rat, hi: Rat) -> (Rat, Rat) {
    let m = lo.abs().max(hi.abs());
    (-m.clone(), m)
}

fn constant(out: &mut Vec<Inter>, what: &str, c: &BigInt) {
    if c.abs() > i64_max() {
        out.push(Inter::new(
            format!("the constant {what}"),
            Rat::from_integer(c.clone()),
            Rat::from_integer(c.clone()),
        ));
    }
}

/// The integers a node computes, given the intervals of its children's values (`None` for a
/// child that is not a number or is never evaluated) and of its own value. The node's own
/// `N` comes first (`what` = "value").
pub fn node_ints(s: &Scaled, kids: &[Option<Iv>], own: Option<&Iv>) -> Vec<Inter> {
    let mut out = Vec::new();
    if let (true, Some(sc), Some(own)) = (s.holds_n(), &s.scale, own) {
        let (lo, hi) = div_iv(own, sc);
        out.push(Inter::new("value", lo, hi));
    }
    let common = s.scale.clone().unwrap_or_else(Rat::one);
    match &s.op {
        Op::Add | Op::Sub | Op::Min | Op::Max | Op::If | Op::Mod | Op::Cmp => {
            for (i, k) in s.k.iter().enumerate() {
                constant(&mut out, &format!("multiplier of operand {}", i + 1), k);
                if k.is_one() {
                    continue;
                }
                if let Some(Some(iv)) = kids.get(i) {
                    let (lo, hi) = div_iv(iv, &common);
                    out.push(Inter::new(format!("operand {} × {k}", i + 1), lo, hi));
                }
            }
            if s.op == Op::Mod {
                if let Some(Some(iv)) = kids.get(1) {
                    let (lo, hi) = div_iv(iv, &common);
                    let (lo, hi) = symmetric(lo, hi);
                    out.push(Inter::new("the divisor's magnitude", lo, hi));
                }
            }
        }
        Op::Quotient { p, q } => {
            constant(&mut out, "numerator multiplier", p);
            constant(&mut out, "denominator multiplier", q);
            if let (Some(Some(a)), Some(sa)) = (kids.first(), s.kids.first().and_then(|k| k.scale.as_ref())) {
                let (lo, hi) = div_iv(a, sa);
                let (lo, hi) = symmetric(lo * Rat::from_integer(p.clone()), hi * Rat::from_integer(p.clone()));
                out.push(Inter::new(
                    if p.is_one() { "numerator".to_string() } else { format!("numerator × {p}") },
                    lo,
                    hi,
                ));
            }
            if let (Some(Some(b)), Some(sb)) = (kids.get(1), s.kids.get(1).and_then(|k| k.scale.as_ref())) {
                let (lo, hi) = div_iv(b, sb);
                let (lo, hi) = symmetric(lo * Rat::from_integer(q.clone()), hi * Rat::from_integer(q.clone()));
                out.push(Inter::new(
                    if q.is_one() { "denominator".to_string() } else { format!("denominator × {q}") },
                    lo,
                    hi,
                ));
            }
        }
        Op::Round { p, q, .. } | Op::Isqrt { p, q } => {
            constant(&mut out, "multiplier", p);
            constant(&mut out, "divisor", q);
            let quotient = matches!(s.kids.first().map(|k| &k.op), Some(Op::Quotient { .. }));
            if !p.is_one() && !quotient {
                if let (Some(Some(iv)), Some(sx)) = (kids.first(), s.kids.first().and_then(|k| k.scale.as_ref())) {
                    let (lo, hi) = div_iv(iv, sx);
                    let pr = Rat::from_integer(p.clone());
                    out.push(Inter::new(format!("operand × {p}"), lo * &pr, hi * &pr));
                }
            }
        }
        Op::Other | Op::Const(_) | Op::Var(_) | Op::Neg | Op::Mul | Op::DivConst { .. } => {}
    }
    out
}

/// The integers a store computes: the expression's `N·p` (when `p` ≠ 1) and the variable's
/// own integer (`what` = "stored"). `expr` is the expression's value interval, `stored` the
/// variable's (after its rounding).
pub fn store_ints(st: &Store, expr_scale: &Rat, expr: &Iv, stored: &Iv, factor: &Rat) -> Vec<Inter> {
    let mut out = Vec::new();
    constant(&mut out, "multiplier", &st.p);
    constant(&mut out, "divisor", &st.q);
    constant(&mut out, "grid", &st.m);
    if !st.quotient && !st.p.is_one() {
        let pr = Rat::from_integer(st.p.clone());
        let (lo, hi) = div_iv(expr, expr_scale);
        out.push(Inter::new(format!("value × {}", st.p), lo * &pr, hi * &pr));
    }
    let (lo, hi) = div_iv(stored, factor);
    out.push(Inter::new("stored", lo, hi));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::int;

    fn r(a: i64, b: i64) -> Rat {
        Rat::new(a.into(), b.into())
    }

    #[test]
    fn literal_scales() {
        let rate = Ty::Rate { step: r(1, 100) };
        assert_eq!(const_scale(&r(1, 10), &rate), (r(1, 100), 10.into()));
        assert_eq!(const_scale(&r(1, 200), &rate), (r(1, 1000), 5.into()));
        let usd = Ty::Money { unit: crate::units::lookup("USD").unwrap(), tag: crate::sema::types::Tag::Any };
        assert_eq!(const_scale(&int(100), &usd), (int(100), 1.into()));
        assert_eq!(const_scale(&int(250), &usd), (int(10), 25.into()));
        assert_eq!(const_scale(&r(1, 3), &Ty::Number), (r(1, 3), 1.into()));
        assert_eq!(const_scale(&int(0), &Ty::Int), (int(1), 0.into()));
        assert_eq!(const_scale(&int(-7), &Ty::Int), (int(1), (-7).into()));
    }

    #[test]
    fn gcd_of_rationals() {
        assert_eq!(rat_gcd(&r(1, 100), &int(1)), r(1, 100));
        assert_eq!(rat_gcd(&int(100), &int(16)), int(4));
        assert_eq!(rat_gcd(&r(1, 4), &r(1, 6)), r(1, 12));
    }

    #[test]
    fn intermediates_fit() {
        let i = Inter::new("x", int(0), Rat::from_integer(i64_max()));
        assert!(i.fits());
        let i = Inter::new("x", int(0), Rat::from_integer(i64_max()) + r(1, 2));
        assert!(i.fits(), "a bound between two integers is rounded in");
        let i = Inter::new("x", Rat::from_integer(i64_min()) - int(1), int(0));
        assert!(!i.fits());
    }
}
