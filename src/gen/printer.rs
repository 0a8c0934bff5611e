//! The one expression printer: it decides every parenthesis, for every language, from the
//! precedence each language gives the forms of its expressions, and it writes once every
//! form that languages spell alike.
//!
//! A language gives a table ([`Ops`]: its operators, literals, helper names and their
//! precedences) and, through [`Syntax::own`], only the nodes it writes its own way; every
//! other node takes the common form ([`Syntax::common`]) read off the table. A form is a
//! leaf, a prefix or infix operator with its precedence, a call, text around the node's
//! children each needing at least some precedence, or another expression standing for the
//! node. The printer writes the children and puts parentheses exactly where a child binds
//! more loosely than its place asks. Higher binds tighter; [`ATOM`] never needs parentheses
//! and [`TOP`] is a whole expression standing alone.

use super::naming::Names;
use super::plan::{Arith, Expr, Kind, Node};
use crate::num::RoundMode;
use crate::sema::VarId;
use crate::syntax::ast::CmpOp;

pub const TOP: u8 = 0;
pub const ATOM: u8 = u8::MAX;

/// How one node is written.
pub enum Form {
    /// Text that is complete in itself, binding as tightly as `prec` (a literal below zero
    /// binds as a unary minus does).
    Leaf(String, u8),
    /// `op x`; the operand must bind more tightly than the operator.
    Prefix(String, u8),
    /// `a op b`, left-associative: the node's two children.
    Infix(String, u8),
    /// `f(a, b, …)` over the node's children.
    Call(String),
    /// Text around the node's children.
    Parts(Vec<Part>, u8),
    /// Another expression that means the same, written in the node's place (`x in {a, b}`
    /// as `x == a || x == b`).
    Alias(Expr),
}

pub enum Part {
    Text(String),
    /// The node's `i`th child, printed so that it binds at least as tightly as `prec`.
    Kid(usize, u8),
    /// Another expression (one the language builds from the node), likewise.
    Expr(Expr, u8),
}

/// Fixed text among a form's parts.
pub fn text(s: &str) -> Part {
    Part::Text(s.to_string())
}

/// How tightly each form of a language binds (higher binds tighter).
pub struct Prec {
    /// The conditional expression.
    pub cond: u8,
    pub or: u8,
    pub and: u8,
    pub not: u8,
    /// `==`, `!=`.
    pub eq: u8,
    /// `<`, `<=`, `>`, `>=`.
    pub rel: u8,
    pub add: u8,
    pub mul: u8,
    /// A unary minus.
    pub neg: u8,
}

/// How a language writes the smaller or larger of several values.
pub enum Extremes {
    /// `min(a, b, c)` over numbers; over an ordered enum, two values at a time by their
    /// places: `(rank(a) <= rank(b) ? a : b)`.
    Variadic { min: &'static str, max: &'static str },
    /// `min(min(a, b), c)`: the functions over numbers and over an ordered enum (`[min,
    /// max]` each); `ranked` passes the enum's place function first, `minBy(rank, a, b)`.
    Pairs { num: [&'static str; 2], enums: [&'static str; 2], ranked: bool },
    /// `a.min(b).min(c)`: methods of the first value (`.min(`, `.max(`), a literal first value
    /// typed by a suffix (`_i64`: an untyped integer has no `min`).
    Methods { min: &'static str, max: &'static str, literal: &'static str },
    /// The language writes them itself.
    Own,
}

/// Tests a language writes as one form of its own where the common form spells them out
/// (Rust's, as clippy asks them); `None` (or `false`) each for the common form. `@` stands
/// for an optional's variable.
pub struct Idioms {
    /// `x * 1` and `x + 0` written `x`; a boolean compared with a literal written as itself
    /// or its negation.
    pub lean: bool,
    /// `x in {a, b}`: before `x`, after it, between two values, after the last (`matches!(`,
    /// `, `, ` | `, `)`).
    pub one_of: Option<[&'static str; 4]>,
    /// An optional holding no value, and one (`@.is_none()`, `@.is_some()`).
    pub is_none: Option<[&'static str; 2]>,
    /// An optional holding a value that meets a test, inside which the variable is that
    /// value: before the test and after it (`@.is_some_and(|@| `, `)`).
    pub present: Option<[&'static str; 2]>,
    /// `lo <= x && x <= hi` (and `x < hi`) as a range's test, `x < lo || x > hi` as its
    /// negation (behind `not`): before `lo`, between `lo` and an inclusive `hi`, an exclusive
    /// one, between `hi` and `x`, after `x` (`(`, `..=`, `..`, `).contains(&`, `)`).
    pub range: Option<[&'static str; 5]>,
}

impl Idioms {
    pub const NONE: Idioms = Idioms { lean: false, one_of: None, is_none: None, present: None, range: None };
}

/// How a language writes `if c then a else b` inside an expression.
pub enum Cond {
    /// `c ? a : b`, nesting in its `else` branch without parentheses.
    Ternary,
    /// `c ? a : b`, parenthesized inside another conditional (PHP 8).
    TernaryUnnested,
    /// Words around the condition and the two values, each a whole expression between
    /// them, the whole binding as `Prec::cond`: `if c { a } else { b }`, `CASE WHEN c THEN
    /// a ELSE b END`.
    Words([&'static str; 4]),
    /// The language writes it itself.
    Own,
}

/// How a language compares two values of an ordered enum.
pub enum Order {
    /// By the places the enum's rank function gives: `rank(a) < rank(b)`.
    Rank,
    /// As the values themselves (an enum that is its place, or orders by it).
    Native,
    /// The language writes it itself.
    Own,
}

/// A language's spellings of the forms every language shares.
pub struct Ops {
    pub prec: Prec,
    /// `false`, `true`.
    pub truth: [&'static str; 2],
    /// The value of an optional that holds none.
    pub absent: &'static str,
    pub int: fn(i64) -> String,
    pub str: fn(&str) -> String,
    /// Between an enum's type and a member (`Kind::Gold`, `Kind.Gold`); none where the
    /// member's identifier stands alone.
    pub member: Option<&'static str>,
    pub and: &'static str,
    pub or: &'static str,
    /// The negation, as it is put before its operand (`!`, `not `).
    pub not: &'static str,
    /// Equality and inequality.
    pub eq: [&'static str; 2],
    /// The test of an optional against the absent value (`x === null`, `x is not None`).
    pub is: [&'static str; 2],
    /// The integer division written for an exact quotient.
    pub div: &'static str,
    /// Whether `div` rounds toward negative infinity (so a quotient by a positive constant
    /// rounded by floor or ceiling needs no helper).
    pub div_floors: bool,
    /// The helpers (runtime functions) for the rounded quotient, the remainder and the root.
    pub div_round: fn(RoundMode) -> String,
    pub modulo: &'static str,
    pub isqrt: &'static str,
    pub extremes: Extremes,
    pub cond: Cond,
    pub order: Order,
    pub idioms: Idioms,
}

impl Ops {
    /// Whether a rounded quotient by `d` is written with the language's own division, no
    /// helper called: by a positive constant, floor and ceiling are a flooring division's own.
    pub fn quotient_in_place(&self, d: &Expr, mode: RoundMode) -> bool {
        self.div_floors
            && matches!(mode, RoundMode::Floor | RoundMode::Ceiling)
            && matches!(d.node, Node::Int(k) if k > 0)
    }

    /// The spellings the C family shares, which every table starts from (SQL's keeps only its division), giving
    /// only its own string literal (the escapes differ in every language) and what else it
    /// spells otherwise: `&&`, `||`, `!`, `==` and `!=` (for an absent optional too), `/`
    /// truncating, `false`/`true`, `null`, a decimal integer, `Type.Member`, `c ? a : b`,
    /// `min(…)`/`max(…)`, an ordered enum compared by its rank function, and C's
    /// precedences (Java, PHP and TypeScript keep them; Rust and Swift put the comparisons
    /// on one level, Go has no conditional, Ruby's `!` binds tighter than its unary minus,
    /// Python's `not` looser than a comparison). The helpers are named as the scripting
    /// languages name them (`_div_round_half_even`, `_mod`, `_isqrt`: PHP, Python, Ruby;
    /// TypeScript keeps the last two); Go, Java and Swift name theirs in camel case.
    pub const fn c_family(str: fn(&str) -> String) -> Ops {
        Ops {
            prec: Prec { cond: 1, or: 2, and: 3, eq: 4, rel: 5, add: 6, mul: 7, not: 8, neg: 8 },
            truth: ["false", "true"],
            absent: "null",
            int: decimal,
            str,
            member: Some("."),
            and: "&&",
            or: "||",
            not: "!",
            eq: ["==", "!="],
            is: ["==", "!="],
            div: "/",
            div_floors: false,
            div_round: snake_div_round,
            modulo: "_mod",
            isqrt: "_isqrt",
            extremes: Extremes::Variadic { min: "min", max: "max" },
            cond: Cond::Ternary,
            order: Order::Rank,
            idioms: Idioms::NONE,
        }
    }

    /// The C family as the languages that name their helpers in camel case spell it (Go,
    /// Java, Swift): `divRound…`, `modFloor`, and `isqrt` the integer square root's name.
    pub const fn camel_family(str: fn(&str) -> String, isqrt: &'static str) -> Ops {
        Ops { div_round: camel_div_round, modulo: "modFloor", isqrt, ..Ops::c_family(str) }
    }
}

fn decimal(n: i64) -> String {
    n.to_string()
}

/// An integer as a person writes a long one, its digits grouped by thousands from six
/// digits on: `10_000_000` (Rust's clippy asks it of a literal; Python, Java, Swift and Go read it).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    if digits.len() < 6 {
        return n.to_string();
    }
    let mut out = String::from(if n < 0 { "-" } else { "" });
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

fn snake_div_round(m: RoundMode) -> String {
    format!("_div_round_{}", m.as_str())
}

/// The helper of a rounded quotient as Go, Java and Swift name it (`divRoundHalfEven`).
pub fn camel_div_round(m: RoundMode) -> String {
    format!("divRound{}", crate::lang::pascal(m.as_str()))
}

/// What a language's syntax reads: its table and its names ([`super::Gen`] has them for
/// every [`super::Language`]).
pub trait Spelled {
    fn ops(&self) -> &Ops;
    fn names(&self) -> &Names;
    fn types(&self) -> &super::sig::Types;
}

/// How a language writes expressions: the nodes it writes its own way, over [`Spelled`].
pub trait Syntax: Spelled {
    /// The node as this language alone writes it, or none for the common form.
    fn own(&self, _e: &Expr) -> Option<Form> {
        None
    }

    fn form(&self, e: &Expr) -> Form {
        self.own(e).or_else(|| self.idiom(e)).unwrap_or_else(|| self.common(e))
    }

    /// The node as the language's [`Idioms`] write it, where one does.
    fn idiom(&self, e: &Expr) -> Option<Form> {
        let ops = self.ops();
        let (i, p) = (&ops.idioms, &ops.prec);
        let var = |template: &str, v: VarId| template.replace('@', &self.var(v));
        Some(match &e.node {
            Node::Arith(op, a, b) if i.lean => Form::Alias(identity(*op, a, b)?.clone()),
            Node::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) if i.lean && a.kind == Kind::Bool => {
                let literal = |e: &Expr| if let Node::Bool(v) = e.node { Some(v) } else { None };
                let (k, x, v) = match (literal(a), literal(b)) {
                    (_, Some(v)) => (0, a, v),
                    (Some(v), None) => (1, b, v),
                    (None, None) => return None,
                };
                match (*op == CmpOp::Eq) == v {
                    true => Form::Alias((**x).clone()),
                    false => Form::Parts(vec![text(ops.not), Part::Kid(k, p.not + 1)], p.not),
                }
            }
            Node::And(a, b) => self.range(i.range?, a, b, false)?,
            Node::Or(a, b) => self.range(i.range?, a, b, true)?,
            Node::IsNone(v) => Form::Leaf(var(i.is_none?[0], *v), ATOM),
            Node::Not(x) => match &x.node {
                Node::IsNone(v) => Form::Leaf(var(i.is_none?[1], *v), ATOM),
                _ => return None,
            },
            Node::OneOf(_, vals) => {
                let [open, after, between, close] = i.one_of?;
                let mut parts = vec![text(open), Part::Kid(0, TOP), text(after)];
                for k in 0..vals.len() {
                    if k > 0 {
                        parts.push(text(between));
                    }
                    parts.push(Part::Kid(k + 1, TOP));
                }
                parts.push(text(close));
                Form::Parts(parts, ATOM)
            }
            Node::Present(v, _) => {
                let [open, close] = i.present?;
                Form::Parts(vec![Part::Text(var(open, *v)), Part::Kid(0, TOP), text(close)], ATOM)
            }
            _ => return None,
        })
    }

    /// `lo <= x && x <= hi` as the language's range test `[open, inclusive, exclusive, then,
    /// close]` (and `x < lo || x > hi`, `outside`, as its negation), when `a` and `b` bound
    /// one variable from both sides.
    fn range(
        &self,
        [open, inclusive, exclusive, then, close]: [&str; 5],
        a: &Expr,
        b: &Expr,
        outside: bool,
    ) -> Option<Form> {
        let ((xa, oa, ka), (xb, ob, kb)) = (bound(a)?, bound(b)?);
        if xa != xb {
            return None;
        }
        let lower = if outside { CmpOp::Lt } else { CmpOp::Ge };
        let (lo, op, hi) = match (oa, ob) {
            (l, h) if l == lower => (ka, h, kb),
            (h, l) if l == lower => (kb, h, ka),
            _ => return None,
        };
        let dots = match (outside, op) {
            (false, CmpOp::Le) | (true, CmpOp::Gt) => inclusive,
            (false, CmpOp::Lt) | (true, CmpOp::Ge) => exclusive,
            _ => return None,
        };
        let (ops, part) = (self.ops(), |e: &Expr, q: u8| Part::Expr(e.clone(), q));
        let not = if outside { ops.not } else { "" };
        let parts = vec![
            Part::Text(format!("{not}{open}")),
            part(lo, ops.prec.add),
            text(dots),
            part(hi, ops.prec.add),
            text(then),
            part(xa, ops.prec.not),
            text(close),
        ];
        Some(Form::Parts(parts, if outside { ops.prec.not } else { ATOM }))
    }

    /// The identifier that holds a variable.
    fn var(&self, v: VarId) -> String {
        self.names().vars[v].clone()
    }

    /// A field of the element a walk is on, as its record names it.
    fn field(&self, element: VarId, field: VarId) -> String {
        format!("{}.{}", self.var(element), self.names().fields[field])
    }

    /// An enum's `i`th value, as an expression.
    fn member(&self, kind: Kind, i: u32) -> String {
        let Kind::Enum(e) = kind else { unreachable!("a member of an enum") };
        let n = self.names();
        let name = &n.members[e][i as usize];
        match (&n.member_consts[e][i as usize], self.ops().member) {
            (Some(c), _) => c.clone(),
            (None, Some(sep)) => format!("{}{sep}{name}", n.enums[e]),
            (None, None) => name.clone(),
        }
    }

    /// The function giving the place of a value of enum `e`.
    fn rank(&self, e: usize) -> &str {
        self.names().ranks[e].as_deref().expect("the plan marks an enum compared by place as ranked")
    }

    /// The form every language that does not write the node itself shares.
    fn common(&self, e: &Expr) -> Form {
        let ops = self.ops();
        let p = &ops.prec;
        let leaf = |s: String| Form::Leaf(s, ATOM);
        // `x == null`, as three parts so that a language laying out an operator sees one.
        let is_none = |v: VarId, is: &str| {
            Form::Parts(vec![Part::Text(self.var(v)), Part::Text(format!(" {is} ")), text(ops.absent)], p.eq)
        };
        match &e.node {
            Node::Int(n) => {
                let t = (ops.int)(*n);
                let prec = if t.starts_with('-') { p.neg } else { ATOM };
                Form::Leaf(t, prec)
            }
            Node::Bool(b) => leaf(ops.truth[*b as usize].into()),
            Node::Str(s) => leaf((ops.str)(s)),
            Node::Member(i) => leaf(self.member(e.kind, *i)),
            Node::Absent => leaf(ops.absent.into()),
            Node::Var(v) => leaf(self.var(*v)),
            Node::Field(element, field, _) => leaf(self.field(*element, *field)),
            Node::Neg(_) => Form::Prefix("-".into(), p.neg),
            Node::Arith(op, ..) => match op {
                Arith::Add => Form::Infix("+".into(), p.add),
                Arith::Sub => Form::Infix("-".into(), p.add),
                Arith::Mul => Form::Infix("*".into(), p.mul),
            },
            // Exact: E106 proved the division lands on a whole number, so however the
            // language's division rounds changes nothing.
            Node::DivExact(_, q) => Form::Parts(
                vec![Part::Kid(0, p.mul), Part::Text(format!(" {} ", ops.div)), Part::Expr(Expr::int(*q), p.mul + 1)],
                p.mul,
            ),
            // By a positive constant, floor and ceiling are a flooring division's own.
            Node::DivRound(_, d, mode) if ops.quotient_in_place(d, *mode) => {
                let by = Part::Text(format!(" {} ", ops.div));
                let d = Part::Kid(1, p.mul + 1);
                if *mode == RoundMode::Floor {
                    Form::Parts(vec![Part::Kid(0, p.mul), by, d], p.mul)
                } else {
                    Form::Parts(vec![text("-(-"), Part::Kid(0, p.neg + 1), by, d, text(")")], p.neg)
                }
            }
            Node::DivRound(.., m) => Form::Call((ops.div_round)(*m)),
            Node::Mod(..) => Form::Call(ops.modulo.into()),
            Node::Isqrt(_) => Form::Call(ops.isqrt.into()),
            Node::Min(xs) | Node::Max(xs) if xs.len() == 1 => Form::Alias(xs[0].clone()),
            Node::Min(xs) | Node::Max(xs) => self.extreme(e, xs),
            Node::If(..) => {
                // The words before, between and after the condition and the two values, and
                // how tightly each of the three must bind.
                let ([open, then, otherwise, close], kids) = match ops.cond {
                    Cond::Ternary => (["", " ? ", " : ", ""], [p.cond + 1, p.cond + 1, p.cond]),
                    Cond::TernaryUnnested => (["", " ? ", " : ", ""], [p.cond + 1; 3]),
                    Cond::Words(words) => (words, [TOP; 3]),
                    Cond::Own => unreachable!("the language writes its conditional itself"),
                };
                let parts = vec![
                    text(open),
                    Part::Kid(0, kids[0]),
                    text(then),
                    Part::Kid(1, kids[1]),
                    text(otherwise),
                    Part::Kid(2, kids[2]),
                    text(close),
                ];
                Form::Parts(parts, p.cond)
            }
            Node::Cmp(op, a, _) => {
                let sym = match op {
                    CmpOp::Eq => ops.eq[0],
                    CmpOp::Ne => ops.eq[1],
                    other => cmp_op(*other),
                };
                match (a.kind, &ops.order) {
                    (Kind::Enum(en), Order::Rank) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                        let r = self.rank(en);
                        let parts = vec![
                            Part::Text(format!("{r}(")),
                            Part::Kid(0, TOP),
                            Part::Text(format!(") {sym} {r}(")),
                            Part::Kid(1, TOP),
                            text(")"),
                        ];
                        Form::Parts(parts, p.rel)
                    }
                    (Kind::Enum(_), Order::Own) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                        unreachable!("the language compares the places of an enum itself")
                    }
                    // Comparisons do not chain: each side binds more tightly than one.
                    _ => {
                        let prec = if matches!(op, CmpOp::Eq | CmpOp::Ne) { p.eq } else { p.rel };
                        let parts =
                            vec![Part::Kid(0, prec + 1), Part::Text(format!(" {sym} ")), Part::Kid(1, prec + 1)];
                        Form::Parts(parts, prec)
                    }
                }
            }
            Node::And(..) => Form::Infix(ops.and.into(), p.and),
            Node::Or(..) => Form::Infix(ops.or.into(), p.or),
            // A negation is written as the test it is: `a != b`, `x >= 3`, `v != null`.
            Node::Not(x) => match &x.node {
                Node::Cmp(op, a, b) => Form::Alias(Expr::cmp(negated(*op), (**a).clone(), (**b).clone())),
                Node::IsNone(v) => is_none(*v, ops.is[1]),
                Node::OneOf(y, vals) => {
                    let ne = |v: &Expr| Expr::cmp(CmpOp::Ne, (**y).clone(), v.clone());
                    Form::Alias(vals.iter().map(ne).reduce(Expr::and).expect("a set of one value or more"))
                }
                Node::Not(y) => Form::Alias((**y).clone()),
                _ => Form::Prefix(ops.not.into(), p.not),
            },
            Node::OneOf(x, vals) => {
                let eq = |v: &Expr| Expr::cmp(CmpOp::Eq, (**x).clone(), v.clone());
                Form::Alias(vals.iter().map(eq).reduce(Expr::or).expect("a set of one value or more"))
            }
            Node::IsNone(v) => is_none(*v, ops.is[0]),
            Node::Present(v, test) => {
                let held = Expr::negate(Expr::bool(Node::IsNone(*v)));
                Form::Alias(conjoin(held, (**test).clone()))
            }
        }
    }

    /// The smaller or larger of two values or more, as the language's table says.
    fn extreme(&self, e: &Expr, xs: &[Expr]) -> Form {
        let max = matches!(e.node, Node::Max(_));
        let ordered = match e.kind {
            Kind::Enum(en) => Some(en),
            _ => None,
        };
        match (&self.ops().extremes, ordered) {
            (Extremes::Variadic { min, max: f }, None) => Form::Call(if max { f } else { min }.to_string()),
            (Extremes::Variadic { .. }, Some(en)) => {
                let r = self.rank(en);
                let op = if max { ">=" } else { "<=" };
                let q = self.ops().prec.cond + 1;
                let mut acc = self.print(&xs[0], q);
                for x in &xs[1..] {
                    let y = self.print(x, q);
                    acc = format!("({r}({acc}) {op} {r}({y}) ? {acc} : {y})");
                }
                Form::Leaf(acc, ATOM)
            }
            (Extremes::Pairs { .. }, _) if xs.len() > 2 => {
                // Two at a time, from the left.
                let pair = |a: Expr, b: Expr| {
                    Expr::new(e.kind, if max { Node::Max(vec![a, b]) } else { Node::Min(vec![a, b]) })
                };
                Form::Alias(xs[1..].iter().cloned().fold(xs[0].clone(), pair))
            }
            (Extremes::Pairs { num, .. }, None) => Form::Call(num[max as usize].into()),
            (Extremes::Pairs { enums, ranked: false, .. }, Some(_)) => Form::Call(enums[max as usize].into()),
            (Extremes::Pairs { enums, ranked: true, .. }, Some(en)) => {
                let f = format!("{}({}, ", enums[max as usize], self.rank(en));
                Form::Parts(
                    vec![
                        Part::Text(f),
                        Part::Kid(0, TOP),
                        Part::Text(", ".into()),
                        Part::Kid(1, TOP),
                        Part::Text(")".into()),
                    ],
                    ATOM,
                )
            }
            (Extremes::Methods { min, max: f, literal }, _) => {
                let f = if max { f } else { min };
                let mut parts = vec![match xs[0].node {
                    Node::Int(n) if n < 0 => Part::Text(format!("({}{literal})", (self.ops().int)(n))),
                    Node::Int(n) => Part::Text(format!("{}{literal}", (self.ops().int)(n))),
                    _ => Part::Kid(0, ATOM),
                }];
                for i in 1..xs.len() {
                    parts.extend([text(f), Part::Kid(i, TOP), text(")")]);
                }
                Form::Parts(parts, ATOM)
            }
            (Extremes::Own, _) => unreachable!("the language writes min and max itself"),
        }
    }

    /// `a op b` as the language lays it out (gofmt, for one, drops the spaces in places).
    fn infix(&self, left: String, op: &str, right: String) -> String {
        format!("{left} {op} {right}")
    }

    /// `e`, parenthesized when it binds more loosely than `min`.
    fn print(&self, e: &Expr, min: u8) -> String {
        let kids = e.children();
        let (text, prec) = match self.form(e) {
            Form::Leaf(t, p) => (t, p),
            Form::Prefix(op, p) => (format!("{op}{}", self.print(kids[0], p.saturating_add(1))), p),
            Form::Infix(op, p) => {
                let (l, r) = (self.print(kids[0], p), self.print(kids[1], p.saturating_add(1)));
                (self.infix(l, &op, r), p)
            }
            Form::Call(f) => {
                let args: Vec<String> = kids.iter().map(|k| self.print(k, TOP)).collect();
                (format!("{f}({})", args.join(", ")), ATOM)
            }
            Form::Parts(parts, p) => {
                let mut t = String::new();
                for part in parts {
                    match part {
                        Part::Text(s) => t.push_str(&s),
                        Part::Kid(i, q) => t.push_str(&self.print(kids[i], q)),
                        Part::Expr(x, q) => t.push_str(&self.print(&x, q)),
                    }
                }
                (t, p)
            }
            Form::Alias(x) => return self.print(&x, min),
        };
        if prec < min {
            format!("({text})")
        } else {
            text
        }
    }

    /// A whole expression standing alone (a condition, a value assigned).
    fn top(&self, e: &Expr) -> String {
        self.print(e, TOP)
    }

    /// How tightly the form of `e` binds.
    fn prec(&self, e: &Expr) -> u8 {
        match self.form(e) {
            Form::Leaf(_, p) | Form::Prefix(_, p) | Form::Infix(_, p) | Form::Parts(_, p) => p,
            Form::Call(_) => ATOM,
            Form::Alias(x) => self.prec(&x),
        }
    }
}

/// The operand `a op b` equals, when the other one is the operation's identity.
fn identity<'e>(op: Arith, a: &'e Expr, b: &'e Expr) -> Option<&'e Expr> {
    let unit = if op == Arith::Mul { 1 } else { 0 };
    match (&a.node, &b.node) {
        (_, Node::Int(k)) if *k == unit => Some(a),
        (Node::Int(k), _) if *k == unit && op != Arith::Sub => Some(b),
        _ => None,
    }
}

/// The bound `x op k` a comparison of a number or enum variable sets, whichever side the
/// variable is on.
fn bound(e: &Expr) -> Option<(&Expr, CmpOp, &Expr)> {
    let Node::Cmp(op, l, r) = &e.node else { return None };
    let ordered = |k: Kind| matches!(k, Kind::Num | Kind::Enum(_));
    match (&l.node, &r.node) {
        (Node::Var(_), _) if ordered(l.kind) => Some((l, *op, r)),
        (_, Node::Var(_)) if ordered(r.kind) => Some((r, flipped(*op), l)),
        _ => None,
    }
}

/// `a op b` read the other way round: `b flipped(op) a`.
fn flipped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// `a && b`, left-nested through `b`'s own conjunctions so that none is parenthesized.
fn conjoin(a: Expr, b: Expr) -> Expr {
    match b.node {
        Node::And(l, r) => Expr::bool(Node::And(Box::new(conjoin(a, *l)), r)),
        _ => Expr::bool(Node::And(Box::new(a), Box::new(b))),
    }
}

/// The comparison that holds exactly when `op` does not (numbers and enums are totally ordered).
pub fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// A comparison as most languages write it (`==`, `!=`, `<`, `<=`, `>`, `>=`).
pub fn cmp_op(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn long_integers_are_grouped_by_thousands() {
        assert_eq!(grouped(99_999), "99999");
        assert_eq!(grouped(100_000), "100_000");
        assert_eq!(grouped(-10_000_000), "-10_000_000");
        assert_eq!(grouped(i64::MIN), "-9_223_372_036_854_775_808");
    }
}
