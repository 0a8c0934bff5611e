//! The SQL backend (generated-code.md, SQL): it spells the plan as a relation. Two doors on
//! one query, and the query again for DuckDB:
//!
//! - `<alias>.sql`, one query over the relation `<alias>_input` (`_id` and a column per
//!   input): a chain of CTEs, the first casting the inputs to BIGINT and computing
//!   `_input_error` (the door's checks the relation's types leave open, in the door's
//!   order, then the constraints), each next one adding the columns that read only what
//!   the ones before hold ([`walk::layers`]): a define, the row each table matched (one
//!   CASE, one WHEN per row with its cells quoted beside it), each result by that row; for a
//!   multiple-hit table, a column per row saying it holds, the rows that hold as a JSON
//!   array's text, and the result folded from them (a sum, a count, LEAST or GREATEST, a
//!   list as its JSON array's text). The
//!   final SELECT gives `_id`, the inputs, the outputs, `<table>_row` per table,
//!   `_input_error` and, where W114 applies, `_contradiction`. Rounding, division and
//!   remainder are arithmetic (`/` between integers truncates in PostgreSQL and in
//!   SQLite alike); the whole square root is the one function it calls, `rulec_isqrt`.
//! - `<alias>_function.sql`, the same query behind one CTE that binds the arguments, as a
//!   PL/pgSQL function raising SQLSTATE 22023 for an input outside the declaration and
//!   P0001 for a contradiction; `rulec_isqrt` is defined at its top when the rule needs it.
//! - `<alias>_duckdb.sql`, the query with its divisions between integers spelled `//`:
//!   DuckDB's `/` divides exactly (see `Dialect`).
//!
//! The runner (`runtime/runner.py`) and the helpers' query hold both to the reference.

use super::plan::{
    Arith, BoundaryTy, Collect, Constraint, Expr, Fold, Helper, InputDoor, Kind, Node, Piece, Plan, Row, TablePlan,
};
use super::printer::{cmp_op, Cond, Extremes, Form, Ops, Order, Part, Prec, Syntax, ATOM, TOP};
use super::sig::Types;
use super::text::{self, comment, quoted, section, Escapes};
use super::walk::{self, Check, Column};
use super::{File, Gen, Lang, Language, Pass, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
use crate::num::RoundMode;
use crate::sema::VarId;
use crate::syntax::ast::CmpOp;
use serde_json::json;

const RUNNER: &str = include_str!("runtime/runner.py");
const FUNCTIONS: &str = include_str!("runtime/functions.sql");

pub struct Sql;

impl Language for Sql {
    const SPEC: Spec = Spec::new(Lang::Sql, "sql", OPS, TYPES).file_is_module().runners_in("py");

    /// The query; its runner and the helpers' runner, Python scripts over sqlite3, psql and
    /// DuckDB's module.
    fn code(q: &Q) -> [String; 3] {
        [q.query_file(&q.query()), q.runner(), helpers_runner()]
    }

    /// Beside the query: its DuckDB text, the same as a PL/pgSQL function, and the helpers'
    /// query (and its DuckDB text) and function.
    fn more_files(q: &Q) -> Vec<File> {
        vec![
            File { path: format!("{}_function.sql", q.n.module), text: q.function_file(&q.query()) },
            File {
                path: format!("{}_duckdb.sql", q.n.module),
                text: in_dialect(Dialect::Duckdb, || q.query_file(&q.query())),
            },
            File { path: "_helpers.sql".into(), text: helpers_query() },
            File { path: "_helpers_duckdb.sql".into(), text: in_dialect(Dialect::Duckdb, helpers_query) },
            File { path: "_helpers_function.sql".into(), text: helpers_function() },
        ]
    }

    /// The query on SQLite: the runner alone, a Python script (over its sqlite3) run as
    /// Python's runners are.
    fn runner(base: &str) -> Runner {
        <super::python::Python as Language>::runner(base)
    }

    /// The query on SQLite, the function (for the helpers, the query) on the PostgreSQL
    /// libpq's environment names (PGHOST, PGPORT, PGDATABASE, PGUSER), through psql, and the
    /// DuckDB query on an in-memory DuckDB.
    fn passes(base: &str) -> Vec<Pass> {
        let mut postgresql = Self::runner(base);
        postgresql.needs.push("psql");
        postgresql.run.push("--postgresql".into());
        let probe = ["psql", "-X", "-q", "-A", "-t", "-c", "SELECT 1"].map(String::from).to_vec();
        // DuckDB's query through its Python module (PyPI's duckdb), when python3 can import it.
        let mut duckdb = Self::runner(base);
        duckdb.run.push("--duckdb".into());
        let importable = ["python3", "-c", "import duckdb"].map(String::from).to_vec();
        vec![
            Pass { via: "sqlite", runner: Self::runner(base), probe: None, server: None },
            Pass { via: "postgresql", runner: postgresql, probe: Some(probe), server: None },
            Pass { via: "duckdb", runner: duckdb, probe: Some(importable), server: None },
        ]
    }

    /// A list output is the text of its JSON array, each element's text written into the
    /// query; a string computed per call would need each engine's own JSON escaping.
    fn refuses(plan: &Plan) -> Option<String> {
        let t = plan.tables().find(|t| {
            t.collect.as_ref().is_some_and(|c| c.fold == Fold::List)
                && t.rows
                    .iter()
                    .flat_map(|r| &r.assigns)
                    .any(|(_, e)| e.kind == Kind::Str && !matches!(e.node, Node::Str(_)))
        })?;
        Some(format!(
            "{}: SQL cannot return the list output {}: an element of it is a string computed per call, which the query would have to escape as JSON in each engine's own way",
            plan.rule.name,
            plan.var(t.results[0]).name
        ))
    }

    fn api(q: &Q, _: &Unit) -> serde_json::Value {
        let (plan, n) = (q.plan, q.n);
        let spell = super::api::Spelling { names: n, ty: &|v| q.ty(v), member: super::api::Member::Declared };
        // A column of an enum names it: its values are under `enums`.
        let column = |v: VarId| {
            let mut c = spell.param(plan, v, &n.vars[v]);
            if let BoundaryTy::Enum(e) = plan.var(v).ty {
                c["enum"] = json!(plan.enums[e].name);
            }
            c
        };
        let columns: Vec<serde_json::Value> = plan.inputs.iter().map(|&v| column(v)).collect();
        let outputs: Vec<serde_json::Value> = plan
            .outputs
            .iter()
            .map(|&v| {
                let mut o = column(v);
                if let Some((mode, grid)) = plan.var(v).rounding {
                    o["rounding"] = json!({"mode": mode.as_str(), "grid": grid});
                }
                // A list travels as the text of its JSON array, the wire's own bytes.
                if plan.var(v).list {
                    o["list"] = json!("the text of a JSON array of the elements' wire values");
                }
                o
            })
            .collect();
        // A multiple-hit table's column holds every row that held, as a JSON array's text.
        let rows: Vec<serde_json::Value> = plan
            .tables()
            .map(|t| match t.collect {
                Some(_) => json!({"table": t.name, "column": n.slots[t.slot], "rows": "the text of a JSON array of the rows that held, in the order they count"}),
                None => json!({"table": t.name, "column": n.slots[t.slot]}),
            })
            .collect();
        let mut m = serde_json::Map::new();
        m.insert("file".into(), json!(format!("{}.sql", n.module)));
        m.insert("view".into(), json!(n.function));
        m.insert("input".into(), json!(n.wire));
        m.insert("id".into(), json!("_id"));
        m.insert("guard".into(), json!("_input_error"));
        if q.contradictions() {
            m.insert("contradiction".into(), json!("_contradiction"));
        }
        m.insert("dialect".into(), json!("postgresql"));
        m.insert("runs_on".into(), json!(["postgresql", "sqlite"]));
        m.insert("duckdb".into(), json!({"file": format!("{}_duckdb.sql", n.module), "runs_on": ["duckdb"]}));
        m.insert("columns".into(), json!(columns));
        m.insert("outputs".into(), json!(outputs));
        m.insert("rows".into(), json!(rows));
        m.insert("enums".into(), spell.enums(plan));
        if plan.helpers.contains(&Helper::Isqrt) {
            m.insert("calls".into(), json!(["rulec_isqrt"]));
        }
        m.insert(
            "function".into(),
            json!({
                "file": format!("{}_function.sql", n.module),
                "name": n.function,
                "signature": q.signature(),
                "language": "plpgsql",
                "runs_on": ["postgresql"],
                "raises": "22023",
                "contradiction": "P0001",
            }),
        );
        serde_json::Value::Object(m)
    }
}

/// A quoted identifier.
fn id(name: &str) -> String {
    quoted(name, &Escapes::plain('"', true))
}

/// A string literal (standard SQL: a quote is doubled, nothing else is escaped).
fn lit(s: &str) -> String {
    quoted(s, &Escapes::plain('\'', true))
}

/// The type a value has in the relation and in the function's signature: every number (a
/// date too: its day number) is a bigint, an enum its name as text, a list the text of its
/// JSON array (the wire's), which the one query writes alike on PostgreSQL, SQLite and DuckDB.
const TYPES: Types =
    Types { enum_type: Some(|_| "text".into()), ..Types::plain("boolean", "text", "bigint", "@", "text") };

/// Precedences (higher binds tighter), where PostgreSQL and SQLite agree; comparisons, IN
/// and IS share one level and never chain.
const OR: u8 = 1;
const AND: u8 = 2;
const NOT: u8 = 3;
const CMP: u8 = 4;
const ADD: u8 = 5;
const MUL: u8 = 6;
const UNARY: u8 = 7;

/// What a quotient's divisor is: a whole number above zero (a grid, a scale), written as it
/// is, whose sign the spelling need not ask; or anything else, which it asks, wrapped in
/// NULLIF(…, 0) unless it is a literal, so that a row the door refused with a zero in it
/// is worked out to NULL rather than stopping the query.
#[derive(Clone, Copy, PartialEq, Eq)]
enum By {
    Positive,
    Other,
}

/// Which engine a text is written for: PostgreSQL's, which SQLite runs unchanged, or
/// DuckDB's, whose `/` between integers divides exactly (its truncating one is `//`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Postgresql,
    Duckdb,
}

impl Dialect {
    /// The division between integers that truncates toward zero.
    fn truncating_division(self) -> &'static str {
        match self {
            Dialect::Postgresql => "/",
            Dialect::Duckdb => "//",
        }
    }
}

thread_local! {
    /// The dialect the query being printed is written in (the printer asks [`Syntax::own`]
    /// with nothing but the rule, so the one choice it makes is kept here).
    static DIALECT: std::cell::Cell<Dialect> = const { std::cell::Cell::new(Dialect::Postgresql) };
}

/// `f` with every quotient printed in `dialect`.
fn in_dialect<T>(dialect: Dialect, f: impl FnOnce() -> T) -> T {
    let before = DIALECT.with(|d| d.replace(dialect));
    let out = f();
    DIALECT.with(|d| d.set(before));
    out
}

/// `n / d` rounded by the mode, over a division and `%` that truncate: the quotient toward
/// zero, then one step away from it or back where the mode and the remainder say. `{n}` and
/// `{d}` stand for the operands (each binding at least as tightly as `*`), `{/}` for the
/// dialect's truncating division; nothing overflows where the quotient fits.
fn quotient(mode: RoundMode, by: By) -> &'static str {
    use RoundMode::*;
    match (mode, by) {
        (Down, _) => "{n} {/} {d}",
        (Floor, By::Positive) => "{n} {/} {d} - CASE WHEN {n} % {d} < 0 THEN 1 ELSE 0 END",
        (Floor, By::Other) => "{n} {/} {d} - CASE WHEN {n} % {d} <> 0 AND ({n} < 0) <> ({d} < 0) THEN 1 ELSE 0 END",
        (Ceiling, By::Positive) => "{n} {/} {d} + CASE WHEN {n} % {d} > 0 THEN 1 ELSE 0 END",
        (Ceiling, By::Other) => "{n} {/} {d} + CASE WHEN {n} % {d} <> 0 AND ({n} < 0) = ({d} < 0) THEN 1 ELSE 0 END",
        (Up, By::Positive) => "{n} {/} {d} + CASE WHEN {n} % {d} > 0 THEN 1 WHEN {n} % {d} < 0 THEN -1 ELSE 0 END",
        (Up, By::Other) => "{n} {/} {d} + CASE WHEN {n} % {d} = 0 THEN 0 WHEN ({n} < 0) = ({d} < 0) THEN 1 ELSE -1 END",
        (HalfUp, By::Positive) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) < {d} - ABS({n} % {d}) THEN 0 WHEN {n} > 0 THEN 1 ELSE -1 END"
        }
        (HalfUp, By::Other) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) < ABS({d}) - ABS({n} % {d}) THEN 0 \
             WHEN ({n} < 0) = ({d} < 0) THEN 1 ELSE -1 END"
        }
        (HalfDown, By::Positive) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) <= {d} - ABS({n} % {d}) THEN 0 WHEN {n} > 0 THEN 1 ELSE -1 END"
        }
        (HalfDown, By::Other) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) <= ABS({d}) - ABS({n} % {d}) THEN 0 \
             WHEN ({n} < 0) = ({d} < 0) THEN 1 ELSE -1 END"
        }
        (HalfEven, By::Positive) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) < {d} - ABS({n} % {d}) THEN 0 \
             WHEN ABS({n} % {d}) = {d} - ABS({n} % {d}) AND {n} {/} {d} % 2 = 0 THEN 0 WHEN {n} > 0 THEN 1 ELSE -1 END"
        }
        (HalfEven, By::Other) => {
            "{n} {/} {d} + CASE WHEN ABS({n} % {d}) < ABS({d}) - ABS({n} % {d}) THEN 0 \
             WHEN ABS({n} % {d}) = ABS({d}) - ABS({n} % {d}) AND {n} {/} {d} % 2 = 0 THEN 0 \
             WHEN ({n} < 0) = ({d} < 0) THEN 1 ELSE -1 END"
        }
    }
}

/// The remainder from zero up, 0 <= r < |d|, over `%` that takes the dividend's sign.
fn remainder(by: By) -> &'static str {
    match by {
        By::Positive => "CASE WHEN {n} % {d} < 0 THEN {n} % {d} + {d} ELSE {n} % {d} END",
        By::Other => "CASE WHEN {n} % {d} < 0 THEN {n} % {d} + ABS({d}) ELSE {n} % {d} END",
    }
}

/// How tightly a quotient's spelling binds as a whole.
fn quotient_prec(mode: RoundMode) -> u8 {
    if mode == RoundMode::Down {
        MUL
    } else {
        ADD
    }
}

/// A template with its operands filled in as text (the helpers' query).
fn fill(template: &str, n: &str, d: &str) -> String {
    let divide = DIALECT.with(|d| d.get()).truncating_division();
    template.replace("{n}", n).replace("{d}", d).replace("{/}", divide)
}

/// A template as printer parts: `n` and `d` give the parts of each operand, every time it
/// is written.
fn parts(template: &str, n: &dyn Fn() -> Vec<Part>, d: &dyn Fn() -> Vec<Part>) -> Vec<Part> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push(Part::Text(rest[..i].to_string()));
        let (hole, after) = rest[i..].split_at(3);
        match hole {
            "{n}" => out.extend(n()),
            "{/}" => out.push(Part::Text(DIALECT.with(|d| d.get()).truncating_division().into())),
            _ => out.extend(d()),
        }
        rest = after;
    }
    out.push(Part::Text(rest.to_string()));
    out
}

/// The divisor's shape, and its parts: a positive literal as it is, another literal as it
/// is, anything else behind NULLIF(…, 0).
fn divisor(d: &Expr, kid: usize) -> (By, Box<dyn Fn() -> Vec<Part>>) {
    match d.node {
        Node::Int(k) if k > 0 => (By::Positive, Box::new(move || vec![Part::Text(k.to_string())])),
        Node::Int(_) => (By::Other, Box::new(move || vec![Part::Kid(kid, MUL + 1)])),
        _ => (
            By::Other,
            Box::new(move || vec![Part::Text("NULLIF(".into()), Part::Kid(kid, TOP), Part::Text(", 0)".into())]),
        ),
    }
}

/// Whether PostgreSQL types the expression as a bigint. Every numeric column is one; an
/// integer literal that fits in 32 bits is an integer, and arithmetic over two integers
/// would overflow at 2^31, where the proof (E108) allowed 2^63.
fn wide(e: &Expr) -> bool {
    match &e.node {
        Node::Int(n) => i32::try_from(*n).is_err(),
        Node::Var(_) | Node::Isqrt(_) | Node::Arith(..) => true,
        Node::Neg(x) | Node::DivExact(x, _) => wide(x),
        Node::DivRound(a, b, _) | Node::Mod(a, b) => wide(a) || wide(b),
        Node::Min(xs) | Node::Max(xs) => xs.iter().any(wide),
        Node::If(_, a, b) => wide(a) || wide(b),
        _ => false,
    }
}

/// SQL's spellings, where PostgreSQL and SQLite agree. A negative operand of a minus is
/// parenthesized (as every operand binding no tighter): `--` would start a comment.
const OPS: Ops = Ops {
    prec: Prec { cond: ATOM, or: OR, and: AND, not: NOT, eq: CMP, rel: CMP, add: ADD, mul: MUL, neg: UNARY },
    truth: ["FALSE", "TRUE"],
    absent: "NULL",
    // PostgreSQL reads 9223372036854775808 as a numeric before it negates it.
    int: |n| if n == i64::MIN { "(-9223372036854775807 - 1)".into() } else { n.to_string() },
    member: None,
    and: "AND",
    or: "OR",
    not: "NOT ",
    eq: ["=", "<>"],
    is: ["IS", "IS NOT"],
    // The rounded quotient and the remainder are written inline, over the divisor's sign.
    div_round: |_| unreachable!("SQL writes a rounded quotient itself"),
    modulo: "",
    isqrt: "rulec_isqrt",
    extremes: Extremes::Variadic { min: "LEAST", max: "GREATEST" },
    cond: Cond::Words(["CASE WHEN ", " THEN ", " ELSE ", " END"]),
    order: Order::Own,
    ..Ops::c_family(lit)
};

type Q<'a> = Gen<'a, Sql>;

impl Syntax for Q<'_> {
    fn var(&self, v: VarId) -> String {
        id(&self.n.vars[v])
    }

    /// An enum's value: its name as text.
    fn member(&self, kind: Kind, i: u32) -> String {
        let Kind::Enum(e) = kind else { unreachable!("a member of an enum") };
        lit(&self.plan.enums[e].values[i as usize].name)
    }

    fn own(&self, e: &Expr) -> Option<Form> {
        let text = |s: &str| Part::Text(s.to_string());
        Some(match &e.node {
            // Over two integers PostgreSQL would overflow at 2^31: one side is made a bigint.
            Node::Arith(op, a, b) if !(wide(a) || wide(b)) => {
                let (sym, p) = match op {
                    Arith::Add => ("+", ADD),
                    Arith::Sub => ("-", ADD),
                    Arith::Mul => ("*", MUL),
                };
                Form::Parts(
                    vec![text("CAST("), Part::Kid(0, TOP), text(&format!(" AS BIGINT) {sym} ")), Part::Kid(1, p + 1)],
                    p,
                )
            }
            // Exact (E106), but DuckDB's `/` would make it a double, exact only to 2^53.
            Node::DivExact(_, k) => Form::Parts(
                parts("{n} {/} {d}", &|| vec![Part::Kid(0, MUL)], &|| vec![Part::Expr(Expr::int(*k), MUL + 1)]),
                MUL,
            ),
            Node::DivRound(_, d, mode) => {
                let (by, d) = divisor(d, 1);
                Form::Parts(parts(quotient(*mode, by), &|| vec![Part::Kid(0, MUL)], &*d), quotient_prec(*mode))
            }
            Node::Mod(_, d) => {
                let (by, d) = divisor(d, 1);
                Form::Parts(parts(remainder(by), &|| vec![Part::Kid(0, MUL)], &*d), ATOM)
            }
            Node::Min(xs) | Node::Max(xs) => {
                let Kind::Enum(en) = e.kind else { return None };
                // Over the places of an ordered enum, then back to the value.
                let f = if matches!(e.node, Node::Min(_)) { "LEAST(" } else { "GREATEST(" };
                let mut ps = vec![text(&format!("CASE {f}"))];
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        ps.push(text(", "));
                    }
                    ps.extend(self.place(x, i));
                }
                ps.push(text(")"));
                ps.push(text(&self.back_from_place(en)));
                Form::Parts(ps, ATOM)
            }
            Node::Cmp(op, a, b) => {
                let ordered = matches!(a.kind, Kind::Enum(_)) && !matches!(op, CmpOp::Eq | CmpOp::Ne);
                let sym = match op {
                    // An optional value compares as a value: none equals none.
                    CmpOp::Eq if a.optional || b.optional => "IS NOT DISTINCT FROM",
                    CmpOp::Ne if a.optional || b.optional => "IS DISTINCT FROM",
                    CmpOp::Eq => OPS.eq[0],
                    CmpOp::Ne => OPS.eq[1],
                    other => cmp_op(*other),
                };
                let mut ps = if ordered { self.place(a, 0) } else { vec![Part::Kid(0, ADD)] };
                ps.push(text(&format!(" {sym} ")));
                ps.extend(if ordered { self.place(b, 1) } else { vec![Part::Kid(1, ADD)] });
                Form::Parts(ps, CMP)
            }
            Node::OneOf(x, vals) => {
                let mut ps = Vec::new();
                if x.optional {
                    // An absent value is in no set (NULL IN … would be NULL, not false).
                    ps.extend([Part::Kid(0, ADD), text(" IS NOT NULL AND ")]);
                }
                ps.extend([Part::Kid(0, ADD), text(" IN (")]);
                for i in 0..vals.len() {
                    if i > 0 {
                        ps.push(text(", "));
                    }
                    ps.push(Part::Kid(i + 1, TOP));
                }
                ps.push(text(")"));
                Form::Parts(ps, if x.optional { AND } else { CMP })
            }
            _ => return None,
        })
    }
}

impl Q<'_> {
    /// The place of the `kid`th operand among its ordered enum's values: a literal's place
    /// as a number, any other value's by a CASE over the names (NULL for a name outside).
    fn place(&self, x: &Expr, kid: usize) -> Vec<Part> {
        let Kind::Enum(e) = x.kind else { unreachable!("a place of an enum value") };
        if let Node::Member(i) = x.node {
            return vec![Part::Text(i.to_string())];
        }
        let whens = self.whens(e, |place, value| format!(" WHEN {value} THEN {place}"));
        vec![Part::Text("CASE ".into()), Part::Kid(kid, TOP), Part::Text(format!("{whens} END"))]
    }

    /// ` WHEN 0 THEN 'first' … END`: a place back to its value.
    fn back_from_place(&self, e: usize) -> String {
        format!("{} END", self.whens(e, |place, value| format!(" WHEN {place} THEN {value}")))
    }

    /// One arm for each value of enum `e`, written by `arm` from its place and its literal.
    fn whens(&self, e: usize, arm: impl Fn(usize, String) -> String) -> String {
        self.plan.enums[e].values.iter().enumerate().map(|(i, v)| arm(i, lit(&v.name))).collect()
    }

    fn col(&self, v: VarId) -> String {
        id(&self.n.vars[v])
    }

    fn contradictions(&self) -> bool {
        self.plan.tables().any(|t| !t.guards.is_empty())
    }

    /// `CAST(x AS type)` where the value would not otherwise have the column's type: a
    /// number narrower than a bigint, or only NULLs.
    fn typed(&self, v: VarId, x: String, values: &[&Expr]) -> String {
        let var = self.plan.var(v);
        let all_null = values.iter().all(|e| e.node == Node::Absent);
        match var.kind {
            Kind::Num if !values.iter().any(|e| wide(e)) => format!("CAST({x} AS BIGINT)"),
            Kind::Bool if all_null => format!("CAST({x} AS BOOLEAN)"),
            Kind::Str | Kind::Enum(_) if all_null => format!("CAST({x} AS TEXT)"),
            _ => x,
        }
    }

    /// The query without its header: `WITH "_c0" AS (…), … SELECT … ORDER BY "_id"`.
    fn query(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut door = QueryDoor { q: self, checks: Vec::new(), constraints: Vec::new() };
        for (input, checks) in walk::checks(plan, Lang::Sql) {
            door.input(input, &checks);
        }
        for c in &plan.door.constraints {
            door.constraint(c);
        }
        let (checks, constraints) = (door.checks, door.constraints);
        let error = if constraints.is_empty() { "_input_error" } else { "_door" };

        // The door: each input as the rule reads it (a number cast to BIGINT, NULL where it
        // is outside its range, so that nothing past the door computes with a value the
        // proof does not cover), and the checks the relation's types leave open.
        let mut first: Vec<Col> = vec![(None, vec!["\"_id\"".into()])];
        for input in &plan.door.inputs {
            let x = self.col(input.var);
            let cast = match (input.kind, &input.range) {
                (WireKind::Integer | WireKind::Date, Some(r)) => {
                    format!("CASE WHEN {x} >= {} AND {x} <= {} THEN CAST({x} AS BIGINT) END AS {x}", r.lo, r.hi)
                }
                (WireKind::Integer | WireKind::Date, None) => format!(
                    "CASE WHEN {x} BETWEEN -9223372036854775808 AND 9223372036854775807 THEN CAST({x} AS BIGINT) END AS {x}"
                ),
                _ => x,
            };
            first.push((Some(n.vars[input.var].clone()), vec![cast]));
        }
        first.push((Some(error.into()), case_column(&checks, error)));
        let mut layers = vec![first];
        for (i, layer) in walk::layers(plan).iter().enumerate() {
            let mut cols: Vec<Col> = vec![(None, vec!["*".into()])];
            if i == 0 && !constraints.is_empty() {
                let mut c = vec!["-- the constraints, once every input has passed".to_string()];
                c.push("COALESCE(\"_door\", CASE".into());
                c.extend(constraints.iter().map(|w| format!("  {w}")));
                c.push("END) AS \"_input_error\"".into());
                cols.push((Some("_input_error".into()), c));
            }
            for c in layer {
                cols.extend(self.columns(c));
            }
            layers.push(cols);
        }

        let mut out: Vec<String> = vec!["\"_id\"".into()];
        out.extend(plan.inputs.iter().map(|&v| self.col(v)));
        let mut last: Vec<Vec<String>> = out.into_iter().map(|c| vec![c]).collect();
        // What the final SELECT reads, for the fences: a column's name, not its alias.
        let mut reads = last.clone();
        // A refused call has no answer: its outputs and rows are NULL beside the sentence.
        let answers = plan.outputs.iter().map(|&v| self.col(v)).chain(plan.tables().map(|t| id(&n.slots[t.slot])));
        for c in answers {
            let answered = format!("CASE WHEN \"_input_error\" IS NULL THEN {c} END");
            last.push(vec![format!("{answered} AS {c}")]);
            reads.push(vec![answered]);
        }
        last.push(vec!["\"_input_error\"".into()]);
        reads.push(vec!["\"_input_error\"".into()]);
        if self.contradictions() {
            let mut c = vec!["CASE".to_string()];
            c.push("  WHEN \"_input_error\" IS NOT NULL THEN NULL -- a call refused at the door has no answer".into());
            for t in plan.tables() {
                for g in &t.guards {
                    c.push(format!(
                        "  WHEN {} AND {} THEN {} -- W114: table {}, row {} and row {}, not proven apart",
                        self.print(&t.rows[g.a - 1].cond, AND + 1),
                        self.print(&t.rows[g.b - 1].cond, AND + 1),
                        lit(&g.sentence),
                        comment(&t.name),
                        g.a,
                        g.b
                    ));
                }
            }
            c.push("END AS \"_contradiction\"".into());
            reads.push(c.clone());
            last.push(c);
        }
        let fenced = fences(&layers, &reads);
        let ctes: Vec<String> = layers
            .iter()
            .enumerate()
            .map(|(i, cols)| {
                let from = if i == 0 { id(&n.wire) } else { id(&format!("_c{}", i - 1)) };
                let lines: Vec<Vec<String>> = cols.iter().map(|(_, l)| l.clone()).collect();
                cte(&format!("_c{i}"), &lines, &from, fenced[i])
            })
            .collect();
        let mut o = String::from("WITH ");
        o.push_str(&ctes.join(",\n"));
        o.push_str("\nSELECT\n");
        o.push_str(&list(&last, "  "));
        o.push_str(&format!("FROM {}\nORDER BY \"_id\"", id(&format!("_c{}", ctes.len() - 1))));
        o
    }

    /// The columns of a layer one step of the plan adds: each its name and its lines (comments
    /// first).
    fn columns(&self, c: &Column) -> Vec<Col> {
        let n = self.n;
        match *c {
            Column::Define(var, value) => vec![(
                Some(n.vars[var].clone()),
                vec![
                    format!("-- define {}", comment(&self.plan.var(var).name)),
                    format!("{} AS {}", self.typed(var, self.top(value), &[value]), self.col(var)),
                ],
            )],
            Column::Row(t) if t.collect.is_some() => {
                // Every row that holds, in the order it counts: a JSON array of their numbers.
                let mut lines = vec![
                    format!(
                        "-- table {} (policy {}): the rows that hold, in the order they count",
                        comment(&t.name),
                        t.policy
                    ),
                    "'[' || SUBSTR(".into(),
                ];
                for (i, row) in t.rows.iter().enumerate() {
                    let plus = if i + 1 < t.rows.len() { " ||" } else { "" };
                    lines.push(format!("  CASE WHEN {} THEN ',{}' ELSE '' END{plus}", self.held(t, row.n), row.n));
                }
                lines.push(format!("  , 2) || ']' AS {}", id(&n.slots[t.slot])));
                vec![(Some(n.slots[t.slot].clone()), lines)]
            }
            Column::Row(t) => {
                let mut lines = vec![format!("-- table {} (policy {})", comment(&t.name), t.policy), "CASE".into()];
                for row in &t.rows {
                    lines.push(format!(
                        "  WHEN {} THEN {} -- row {}: {}",
                        self.top(&row.cond),
                        row.n,
                        row.n,
                        comment(&row.cells)
                    ));
                }
                lines.push(format!("END AS {}", id(&n.slots[t.slot])));
                vec![(Some(n.slots[t.slot].clone()), lines)]
            }
            Column::Held(t) => t
                .rows
                .iter()
                .map(|row| {
                    let name = self.held_name(t, row.n);
                    let mut lines =
                        vec![format!("-- table {}, row {}: {}", comment(&t.name), row.n, comment(&row.cells))];
                    lines.push(format!("{} AS {}", self.top(&row.cond), id(&name)));
                    (Some(name), lines)
                })
                .collect(),
            Column::Result(t, var) => {
                let values: Vec<(&Row, &Expr)> = t
                    .rows
                    .iter()
                    .filter_map(|r| r.assigns.iter().find(|(v, _)| *v == var).map(|(_, e)| (r, e)))
                    .collect();
                let whole = match &t.collect {
                    Some(c) => self.fold(t, var, c, &values),
                    None => {
                        let mut lines = vec![format!("CASE {}", id(&n.slots[t.slot]))];
                        lines.extend(values.iter().map(|(r, e)| format!("  WHEN {} THEN {}", r.n, self.top(e))));
                        lines.push("END".into());
                        let exprs: Vec<&Expr> = values.iter().map(|(_, e)| *e).collect();
                        self.typed(var, lines.join("\n"), &exprs)
                    }
                };
                let mut lines: Vec<String> = whole.lines().map(str::to_string).collect();
                let last = lines.pop().expect("a CASE ends");
                lines.push(format!("{last} AS {}", self.col(var)));
                vec![(Some(n.vars[var].clone()), lines)]
            }
        }
    }

    /// The column saying whether row `row` of the collect table `t` holds: the table's row
    /// column and the row's number, apart by a `#` no name of the rule holds.
    fn held_name(&self, t: &TablePlan, row: usize) -> String {
        format!("{}#{row}", self.n.slots[t.slot])
    }

    fn held(&self, t: &TablePlan, row: usize) -> String {
        id(&self.held_name(t, row))
    }

    /// What the rows of a collect table that hold fold to, by their `Held` columns: a sum of
    /// each row's value where it holds (each a bigint, so that PostgreSQL and DuckDB add in
    /// int64, where E108 proved the running total stays), a count of them, or the least or
    /// greatest of their values (LEAST and GREATEST pass over a NULL); `empty` (the declared
    /// default) where none holds.
    fn fold(&self, t: &TablePlan, var: VarId, c: &Collect, values: &[(&Row, &Expr)]) -> String {
        let empty = self.top(&c.empty);
        let mut exprs: Vec<&Expr> = values.iter().map(|(_, e)| *e).collect();
        exprs.push(&c.empty);
        match c.fold {
            Fold::Sum | Fold::Count => {
                let terms: Vec<String> = values
                    .iter()
                    .map(|(r, e)| {
                        let value = match c.fold {
                            Fold::Count => "1".to_string(),
                            _ if wide(e) => self.top(e),
                            _ => format!("CAST({} AS BIGINT)", self.top(e)),
                        };
                        format!("CASE WHEN {} THEN {value} ELSE 0 END", self.held(t, r.n))
                    })
                    .collect();
                let sum = terms.join("\n  + ");
                if c.fold == Fold::Count {
                    return format!("CAST(\n  {sum}\nAS BIGINT)");
                }
                // A sum from zero needs no test: with no row held it is zero.
                if c.empty.node == Node::Int(0) {
                    return format!("(\n  {sum}\n)");
                }
                let any: Vec<String> = values.iter().map(|(r, _)| self.held(t, r.n)).collect();
                format!("CASE WHEN {} THEN\n  {sum}\nELSE {empty} END", any.join(" OR "))
            }
            Fold::Min | Fold::Max => {
                let each: Vec<String> = values
                    .iter()
                    .map(|(r, e)| format!("  CASE WHEN {} THEN {} END", self.held(t, r.n), self.top(e)))
                    .collect();
                let f = if c.fold == Fold::Min { "LEAST" } else { "GREATEST" };
                let folded = format!("COALESCE({f}(\n{}\n), {empty})", each.join(",\n"));
                self.typed(var, folded, &exprs)
            }
            Fold::List => {
                // The JSON array of the values of the rows that hold, in the order they count.
                let mut lines = vec!["'[' || SUBSTR(".to_string()];
                for (i, (r, e)) in values.iter().enumerate() {
                    let plus = if i + 1 < values.len() { " ||" } else { "" };
                    let element = match self.json_text(e) {
                        Ok(json) => lit(&format!(",{json}")),
                        Err(text) => format!("',' || {text}"),
                    };
                    lines.push(format!("  CASE WHEN {} THEN {element} ELSE '' END{plus}", self.held(t, r.n)));
                }
                lines.push("  , 2) || ']'".into());
                lines.join("\n")
            }
        }
    }

    /// The text of a value's JSON (the wire's): the JSON itself where the value is a literal
    /// (`Ok`), else the SQL that writes it (`Err`): a CASE over an enum's names or a truth
    /// value, or a number as text.
    fn json_text(&self, e: &Expr) -> Result<String, String> {
        match (&e.node, e.kind) {
            (Node::Int(k), _) => Ok(k.to_string()),
            (Node::Bool(b), _) => Ok(json!(b).to_string()),
            (Node::Str(s), _) => Ok(json!(s).to_string()),
            (Node::Member(i), Kind::Enum(en)) => Ok(json!(self.plan.enums[en].values[*i as usize].name).to_string()),
            (_, Kind::Enum(en)) => Err(format!(
                "CASE {}{} END",
                self.print(e, ATOM),
                self.whens(en, |place, value| {
                    format!(" WHEN {value} THEN {}", lit(&json!(self.plan.enums[en].values[place].name).to_string()))
                })
            )),
            (_, Kind::Bool) => Err(format!("CASE WHEN {} THEN 'true' ELSE 'false' END", self.top(e))),
            (_, Kind::Num) => Err(format!("CAST({} AS TEXT)", self.top(e))),
            (_, Kind::Str) => unreachable!("SQL refuses a list of strings computed per call"),
        }
    }

    /// The header lines every file of the rule starts with, then the rule's about.
    fn head(&self) -> String {
        let mut o = text::header(self.plan, "--");
        if let Some(about) = &self.plan.rule.about {
            o.push_str(&format!("--\n-- {}\n", comment(about)));
        }
        o
    }

    /// What one column holds, for the header: its type, the rule's type, its range.
    fn describe(&self, v: VarId) -> String {
        let var = self.plan.var(v);
        let mut s = match var.ty {
            _ if var.list => format!("{}, a JSON array of {}", self.ty(v), comment(&var.what)),
            BoundaryTy::Bool | BoundaryTy::Str => self.ty(v),
            _ => format!("{}, {}", self.ty(v), comment(&var.what)),
        };
        match (var.ty, var.range) {
            (BoundaryTy::Enum(e), range) => {
                let values = &self.plan.enums[e].values;
                let (lo, hi) = range.map(|(lo, hi)| (lo as usize, hi as usize)).unwrap_or((0, values.len() - 1));
                let names: Vec<String> = values[lo..=hi].iter().map(|m| comment(&m.name)).collect();
                s.push_str(&format!(": {}", names.join(", ")));
            }
            (BoundaryTy::Date, Some((lo, hi))) => s.push_str(&format!(", day {lo} to day {hi} after 1970-01-01")),
            (BoundaryTy::Date, None) => s.push_str(", the day's number after 1970-01-01"),
            (BoundaryTy::Unit(u), Some((lo, hi))) => {
                s.push_str(&format!(", {lo} to {hi} {}", comment(&self.plan.units[u].symbol)));
            }
            (_, Some((lo, hi))) => s.push_str(&format!(", {lo} to {hi}")),
            _ => {}
        }
        if let Some((mode, grid)) = var.rounding {
            s.push_str(&format!(", rounded {} to {grid}", mode.as_str()));
        }
        if var.optional {
            s.push_str(", NULL for none");
        }
        s
    }

    fn query_file(&self, query: &str) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = self.head();
        o.push_str(&format!(
            "--\n-- The view {}: one query over the relation {}, one row per call:\n\
             -- \"_id\" (anything that identifies the row; it comes back unchanged) and a column per input:\n",
            id(&n.function),
            id(&n.wire)
        ));
        let mut ins: Vec<(String, String)> =
            plan.inputs.iter().map(|&v| (n.vars[v].clone(), self.describe(v))).collect();
        let mut outs: Vec<(String, String)> =
            plan.outputs.iter().map(|&v| (n.vars[v].clone(), self.describe(v))).collect();
        outs.extend(plan.tables().map(|t| {
            let what = match t.collect {
                Some(_) => format!(
                    "text, the rows of table {} that hold, in the order they count, as a JSON array of their numbers",
                    comment(&t.name)
                ),
                None => format!("int, the row of table {} that matched", comment(&t.name)),
            };
            (n.slots[t.slot].clone(), what)
        }));
        let guard = "text, NULL inside the declared domain, else the sentence every language refuses the call with";
        outs.push(("_input_error".into(), guard.into()));
        if self.contradictions() {
            let what = "text, NULL unless two rows the checker could not prove apart (W114) both matched";
            outs.push(("_contradiction".into(), what.into()));
        }
        let width = ins.iter().chain(&outs).map(|(name, _)| id(name).chars().count()).max().unwrap_or(0);
        let rows = |list: &mut Vec<(String, String)>| -> String {
            list.drain(..).map(|(name, what)| format!("--   {:<width$}  {what}\n", id(&name))).collect()
        };
        o.push_str(&rows(&mut ins));
        o.push_str(if plan.tables().next().is_some() {
            "-- It returns \"_id\", the inputs (NULL where one is refused), the outputs and the row each\n\
             -- table matched (all NULL where the call is refused), and the entry guard:\n"
        } else {
            "-- It returns \"_id\", the inputs (NULL where one is refused), the outputs (NULL where the\n\
             -- call is refused; the rule has no table, so no row) and the entry guard:\n"
        });
        o.push_str(&rows(&mut outs));
        o.push_str(
            "-- Values are the wire's: an integer in its declared unit, a rate in its steps, an enum its\n\
             -- name, a date its day number (some_date - DATE '1970-01-01' in PostgreSQL).\n",
        );
        o.push_str(match DIALECT.with(|d| d.get()) {
            Dialect::Postgresql => {
                "-- Written for PostgreSQL; it runs unchanged on SQLite given LEAST and GREATEST as\n\
                 -- PostgreSQL has them (NULL only when every argument is).\n"
            }
            Dialect::Duckdb => {
                "-- Written for DuckDB: the query of the same name without _duckdb, its divisions between\n\
                 -- integers spelled `//`, which truncates toward zero as PostgreSQL's `/` does.\n"
            }
        });
        if plan.helpers.contains(&Helper::Isqrt) && DIALECT.with(|d| d.get()) == Dialect::Duckdb {
            o.push_str("-- It calls rulec_isqrt: on DuckDB, register it first (the runner does, from Python).\n");
        } else if plan.helpers.contains(&Helper::Isqrt) {
            o.push_str(&format!(
                "-- It calls rulec_isqrt: on PostgreSQL, create it first ({}_function.sql defines it at its top).\n",
                n.module
            ));
        }
        o.push_str(&format!(
            "-- Create the relation first, then the view; read it: SELECT * FROM {};\n",
            id(&n.function)
        ));
        o.push_str(&format!("CREATE VIEW {} AS\n{query};\n", id(&n.function)));
        o
    }

    /// `"name"("in" bigint, …) RETURNS TABLE ("out" bigint, …, "t_row" int)`.
    fn signature(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let args: Vec<String> = plan.inputs.iter().map(|&v| format!("{} {}", self.col(v), self.ty(v))).collect();
        let mut cols: Vec<String> = plan.outputs.iter().map(|&v| format!("{} {}", self.col(v), self.ty(v))).collect();
        cols.extend(
            plan.tables()
                .map(|t| format!("{} {}", id(&n.slots[t.slot]), if t.collect.is_some() { "text" } else { "int" })),
        );
        format!("{}({}) RETURNS TABLE ({})", id(&n.function), args.join(", "), cols.join(", "))
    }

    fn function_file(&self, query: &str) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = self.head();
        let example: Vec<String> = plan.inputs.iter().map(|&v| format!("{} => …", self.col(v))).collect();
        o.push_str(&format!(
            "--\n-- The rule as one PostgreSQL function, asked for one case at a time: the query of\n\
             -- {}.sql behind one CTE that binds the arguments into a one-row {}.\n\
             -- Call it by argument name: SELECT * FROM {}({});\n\
             -- It returns the outputs{}; it raises SQLSTATE 22023 with\n\
             -- the sentence for an input outside the declaration, P0001 for a contradiction.\n\n",
            n.module,
            id(&n.wire),
            id(&n.function),
            example.join(", "),
            if plan.tables().next().is_some() { ", then the row each table matched" } else { "" }
        ));
        if plan.helpers.contains(&Helper::Isqrt) {
            o.push_str(section(FUNCTIONS, "-- rulec:", "isqrt"));
            o.push_str("\n\n");
        }
        // The body's dollar quote: one the query does not hold.
        let mut tag = "$rulec$".to_string();
        let mut k = 2;
        while query.contains(&tag) {
            tag = format!("$rulec{k}$");
            k += 1;
        }
        o.push_str(&format!("CREATE FUNCTION {}\n", self.signature().replacen(" RETURNS", "\nRETURNS", 1)));
        o.push_str(&format!("LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE\nAS {tag}\n"));
        // Inside the query a name is a column; the arguments are read by the function's name.
        o.push_str("#variable_conflict use_column\nDECLARE\n  _r record;\nBEGIN\n  FOR _r IN\n");
        let bind: Vec<Vec<String>> = std::iter::once(vec!["1 AS \"_id\"".to_string()])
            .chain(plan.inputs.iter().map(|&v| vec![format!("{}.{} AS {}", id(&n.function), self.col(v), self.col(v))]))
            .collect();
        o.push_str(&format!("WITH {} AS (\n  SELECT\n{}),\n", id(&n.wire), list(&bind, "    ")));
        o.push_str(query.strip_prefix("WITH ").expect("the query starts with its CTEs"));
        o.push_str("\n  LOOP\n");
        o.push_str("    IF _r.\"_input_error\" IS NOT NULL THEN\n");
        o.push_str("      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = _r.\"_input_error\";\n    END IF;\n");
        if self.contradictions() {
            o.push_str("    IF _r.\"_contradiction\" IS NOT NULL THEN\n");
            o.push_str(
                "      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = _r.\"_contradiction\";\n    END IF;\n",
            );
        }
        for &v in &plan.outputs {
            o.push_str(&format!("    {} := _r.{};\n", self.col(v), self.col(v)));
        }
        for t in plan.tables() {
            let s = id(&n.slots[t.slot]);
            o.push_str(&format!("    {s} := _r.{s};\n"));
        }
        o.push_str(&format!("    RETURN NEXT;\n  END LOOP;\nEND\n{tag};\n"));
        o
    }

    /// The runner: the rule's door and record as data, then the fixed text.
    fn runner(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut data = RunnerData { q: self, door: Vec::new(), constraints: Vec::new(), record: Vec::new() };
        plan.door.inputs.iter().for_each(|i| data.input(i));
        // The engine checks the constraints; the runner needs their sentences to know where it stands.
        data.constraints = plan.door.constraints.iter().map(|c| py(&c.sentence)).collect();
        plan.record.iter().for_each(|p| data.piece(p));
        let mut o = text::header(plan, "#");
        o.push_str(
            "#\n# The runner `rulec test` drives for this rule's SQL: see the comments of the sections below.\n\n",
        );
        o.push_str(section(RUNNER, "# rulec:", "head"));
        o.push_str("\n\n\n");
        o.push_str(&format!("QUERY = {}\n", py(&format!("{}.sql", n.module))));
        o.push_str(&format!("FUNCTION = {}\n", py(&format!("{}_function.sql", n.module))));
        o.push_str(&format!("DUCKDB_QUERY = {}\n", py(&format!("{}_duckdb.sql", n.module))));
        o.push_str(&format!("NAME = {}\n", py(&n.function)));
        o.push_str(&format!("RELATION = {}\n", py(&n.wire)));
        o.push_str(&py_list("DOOR: list[Input]", &data.door));
        o.push_str(&py_list("CONSTRAINTS: list[str]", &data.constraints));
        o.push_str(&format!("NOT_AN_INPUT = {}\n", py(&plan.door.not_an_input)));
        o.push_str(&format!("NOT_AN_OBJECT = {}\n", py(&plan.door.not_an_object)));
        o.push_str(&py_list("RECORD: list[tuple[str, str, str]]", &data.record));
        let tables: Vec<String> = plan
            .tables()
            .map(|t| {
                let every = if t.collect.is_some() { "True" } else { "False" };
                format!("({}, {}, {every})", py(&t.name), py(&n.slots[t.slot]))
            })
            .collect();
        o.push_str(&py_list("TABLES: list[tuple[str, str, bool]]", &tables));
        o.push('\n');
        o.push_str(&super::python::shared::copy(section(RUNNER, "# rulec:", "common")));
        o.push_str("\n\n\n");
        o.push_str(section(RUNNER, "# rulec:", "rule"));
        o.push('\n');
        o
    }

    /// The class of a value of `v` as the runner writes it in a record.
    fn wire_kind(&self, v: VarId) -> &'static str {
        if self.plan.var(v).list {
            return "LIST";
        }
        match self.plan.var(v).ty {
            BoundaryTy::Bool => "BOOLEAN",
            BoundaryTy::Date => "DATE",
            BoundaryTy::Str => "TEXT",
            BoundaryTy::Enum(_) => "ENUM",
            BoundaryTy::Int | BoundaryTy::Unit(_) => "INTEGER",
        }
    }
}

/// A column of a CTE: the name it defines (none for `"_id"` or `*`), and its lines.
type Col = (Option<String>, Vec<String>);

/// The fence that has a CTE computed once a row: without it, PostgreSQL and SQLite both
/// pull a CTE read once up into the query that reads it, and copy each of its columns into
/// every place that names it (a value nine rows read is worked out nine times).
const FENCE: &str = "LIMIT 9223372036854775807 OFFSET 0";

/// A CTE: `"name" AS (SELECT …columns FROM from [FENCE])`.
fn cte(name: &str, columns: &[Vec<String>], from: &str, fenced: bool) -> String {
    let fence =
        if fenced { format!("  {FENCE} -- computed once a row: read more than once below\n") } else { String::new() };
    format!("{} AS (\n  SELECT\n{}  FROM {from}\n{fence})", id(name), list(columns, "    "))
}

/// Which layers need the fence: those with a column that would be worked out more than
/// once a row, counting each place that names it — through a layer without the fence, as
/// often as that layer's column is itself named. From the last layer back to the first.
fn fences(layers: &[Vec<Col>], last: &[Vec<String>]) -> Vec<bool> {
    let code = |lines: &[String]| -> String {
        lines.iter().filter(|l| !l.trim_start().starts_with("--")).cloned().collect::<Vec<_>>().join("\n")
    };
    let last: String = last.iter().map(|c| code(c)).collect::<Vec<_>>().join("\n");
    let texts: Vec<Vec<String>> = layers.iter().map(|l| l.iter().map(|(_, lines)| code(lines)).collect()).collect();
    let mut refs: Vec<Vec<usize>> = layers.iter().map(|l| vec![0; l.len()]).collect();
    let mut fenced = vec![false; layers.len()];
    for k in (0..layers.len()).rev() {
        for (j, (name, _)) in layers[k].iter().enumerate() {
            let Some(name) = name else { continue };
            let quoted = id(name);
            let mut r = last.matches(&quoted).count();
            for m in k + 1..layers.len() {
                for (jj, text) in texts[m].iter().enumerate() {
                    let named = text.matches(&quoted).count();
                    r += named * if fenced[m] { 1 } else { refs[m][jj] };
                }
            }
            refs[k][j] = r;
        }
        fenced[k] = refs[k].iter().any(|&r| r > 1);
    }
    fenced
}

/// Columns of a SELECT, one or more lines each, a comma after each but the last (after its
/// last line: a column's comment lines come first).
fn list(columns: &[Vec<String>], indent: &str) -> String {
    let mut o = String::new();
    for (i, c) in columns.iter().enumerate() {
        for (j, line) in c.iter().enumerate() {
            o.push_str(indent);
            o.push_str(line);
            if j + 1 == c.len() && i + 1 < columns.len() {
                o.push(',');
            }
            o.push('\n');
        }
    }
    o
}

/// The first sentence of the inputs' CASEs, in order (COALESCE stops at the first that is
/// not NULL), as the column `name`; NULL when no input is checked.
fn case_column(cases: &[Vec<String>], name: &str) -> Vec<String> {
    match cases {
        [] => vec![format!("CAST(NULL AS TEXT) AS {}", id(name))],
        [one] => {
            let mut c = one.clone();
            let last = c.pop().expect("a CASE ends");
            c.push(format!("{last} AS {}", id(name)));
            c
        }
        many => {
            let mut c = vec!["COALESCE(".to_string()];
            for (i, case) in many.iter().enumerate() {
                for (j, line) in case.iter().enumerate() {
                    let comma = if j + 1 == case.len() && i + 1 < many.len() { "," } else { "" };
                    c.push(format!("  {line}{comma}"));
                }
            }
            c.push(format!(") AS {}", id(name)));
            c
        }
    }
}

/// A Python string literal.
fn py(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// `NAME = [` one item a line `]`.
fn py_list(decl: &str, items: &[String]) -> String {
    if items.is_empty() {
        return format!("{decl} = []\n");
    }
    let mut o = format!("{decl} = [\n");
    for i in items {
        o.push_str(&format!("    {i},\n"));
    }
    o.push_str("]\n");
    o
}

/// The query's door: the WHENs of `_input_error`, for the checks the relation's types leave
/// open (`walk::checks` with SQL's `Guard`), in the door's order; then the constraints.
struct QueryDoor<'a, 'b> {
    q: &'a Q<'b>,
    /// Per input it checks, the lines of its CASE.
    checks: Vec<Vec<String>>,
    constraints: Vec<String>,
}

impl QueryDoor<'_, '_> {
    /// One CASE per input, NULL when the input passes: the common case first (a value in its
    /// range, of its enum), then the checks in the door's order. A NULL passes every check
    /// but the first, so an optional input that holds none is let through.
    fn input(&mut self, input: &InputDoor, checks: &[Check]) {
        let x = self.q.col(input.var);
        let values = |lo: usize, hi: usize| -> String {
            let WireKind::Enum(e) = input.kind else { unreachable!("the values of an enum") };
            let names: Vec<String> = self.q.plan.enums[e].values[lo..=hi].iter().map(|m| lit(&m.name)).collect();
            names.join(", ")
        };
        let (kind, missing) = (checks.contains(&Check::Kind), checks.contains(&Check::Missing));
        let range = input.range.as_ref().filter(|_| checks.contains(&Check::Range));
        let mut whens = Vec::new();
        let absent = if missing { lit(&input.missing) } else { "NULL".into() };
        match input.kind {
            WireKind::Integer | WireKind::Date => {
                let not_whole = lit(&input.not_of_kind);
                if let Some(r) = range {
                    // In its range, a number is a bigint but for a fraction CAST would round.
                    let fraction = if kind {
                        format!("CASE WHEN CAST({x} AS BIGINT) <> {x} THEN {not_whole} END")
                    } else {
                        "NULL".into()
                    };
                    whens.push(format!("WHEN {x} >= {} AND {x} <= {} THEN {fraction}", r.lo, r.hi));
                }
                whens.push(format!("WHEN {x} IS NULL THEN {absent}"));
                if kind {
                    // Past int64 only ROUND can say (a double is whole past 2^53).
                    whens.push(format!(
                        "WHEN CASE WHEN {x} BETWEEN -9223372036854775808 AND 9223372036854775807 \
                         THEN CAST({x} AS BIGINT) <> {x} ELSE ROUND({x}) <> {x} END THEN {not_whole}"
                    ));
                }
                if let Some(r) = range {
                    whens.push(format!("ELSE {}", lit(&r.sentence)));
                }
            }
            WireKind::Enum(e) => {
                let all = values(0, self.q.plan.enums[e].values.len() - 1);
                let taken = range.map(|r| values(r.lo as usize, r.hi as usize)).unwrap_or_else(|| all.clone());
                whens.push(format!("WHEN {x} IN ({taken}) THEN NULL"));
                whens.push(format!("WHEN {x} IS NULL THEN {absent}"));
                match (kind, range) {
                    (true, Some(r)) => {
                        whens.push(format!("WHEN {x} NOT IN ({all}) THEN {}", lit(&input.not_of_kind)));
                        whens.push(format!("ELSE {}", lit(&r.sentence)));
                    }
                    (true, None) => whens.push(format!("ELSE {}", lit(&input.not_of_kind))),
                    (false, Some(r)) => whens.push(format!("ELSE {}", lit(&r.sentence))),
                    (false, None) => {}
                }
            }
            WireKind::Boolean | WireKind::Text => whens.push(format!("WHEN {x} IS NULL THEN {absent}")),
        }
        if missing || kind || range.is_some() {
            let mut case = vec!["CASE".to_string()];
            case.extend(whens.into_iter().map(|w| format!("  {w}")));
            case.push("END".into());
            self.checks.push(case);
        }
    }

    fn constraint(&mut self, c: &Constraint) {
        // A constraint that reads an absent optional holds.
        let mut test = self.q.top(&c.test);
        if !c.optionals.is_empty() {
            let absent: Vec<String> = c.optionals.iter().map(|&v| format!("{} IS NULL", self.q.col(v))).collect();
            test = format!("{} OR {}", absent.join(" OR "), self.q.print(&c.test, OR + 1));
        }
        self.constraints.push(format!("WHEN NOT ({test}) THEN {}", lit(&c.sentence)));
    }
}

/// The runner's data: the wire door's inputs and constraints, and the pieces of the record.
struct RunnerData<'a, 'b> {
    q: &'a Q<'b>,
    door: Vec<String>,
    constraints: Vec<String>,
    record: Vec<String>,
}

impl RunnerData<'_, '_> {
    fn input(&mut self, input: &InputDoor) {
        let kind = match input.kind {
            WireKind::Integer => "INTEGER",
            WireKind::Date => "DATE",
            WireKind::Boolean => "BOOLEAN",
            WireKind::Text => "TEXT",
            WireKind::Enum(_) => "ENUM",
        };
        let range = input.range.as_ref().map(|r| py(&r.sentence)).unwrap_or_else(|| "None".into());
        self.door.push(format!(
            "Input({}, {}, {kind}, {}, {}, {range})",
            py(&input.name),
            py(&self.q.n.vars[input.var]),
            py(&input.missing),
            py(&input.not_of_kind)
        ));
    }

    fn piece(&mut self, piece: &Piece) {
        self.record.push(match *piece {
            Piece::Text(ref json) => format!("(\"text\", {}, \"\")", py(json)),
            Piece::Input(v) => format!("(\"input\", {}, {})", py(&self.q.plan.var(v).name), self.q.wire_kind(v)),
            Piece::Output(v) => format!("(\"output\", {}, {})", py(&self.q.n.vars[v]), self.q.wire_kind(v)),
        });
    }
}

/// The helpers' query over `_helpers_input` ("_id", "op", "a", "b"): for each case, the
/// arithmetic the rules' queries write — `result` with the divisor a column (the spelling
/// of a divisor that is a value), `by_constant` with it written in (the spelling of a
/// positive literal), for each positive divisor of the unit vectors.
fn helpers_query() -> String {
    let (a, b) = ("\"a\"", "\"b\"");
    let nonzero = "NULLIF(\"b\", 0)";
    let mut result = vec!["CASE \"op\"".to_string()];
    let mut constant = vec!["CASE \"op\"".to_string()];
    for mode in RoundMode::ALL {
        let op = lit(&format!("quot_{}", mode.as_str()));
        result.push(format!("  WHEN {op} THEN {}", fill(quotient(mode, By::Other), a, nonzero)));
        constant.push(format!("  WHEN {op} THEN CASE {b}"));
        for k in super::HELPER_DIVISORS.iter().filter(|&&k| k > 0) {
            constant.push(format!("    WHEN {k} THEN {}", fill(quotient(mode, By::Positive), a, &k.to_string())));
        }
        constant.push("  END".into());
    }
    result.push(format!("  WHEN 'mod' THEN {}", fill(remainder(By::Other), a, nonzero)));
    constant.push(format!("  WHEN 'mod' THEN CASE {b}"));
    for k in super::HELPER_MODULI.iter().filter(|&&k| k > 0) {
        constant.push(format!("    WHEN {k} THEN {}", fill(remainder(By::Positive), a, &k.to_string())));
    }
    constant.push("  END".into());
    result.push(format!("  WHEN 'isqrt' THEN rulec_isqrt({a})"));
    result.push("END AS \"result\"".into());
    constant.push("END AS \"by_constant\"".into());
    let columns = vec![
        vec!["\"_id\"".to_string()],
        vec!["CAST(\"op\" AS TEXT) AS \"op\"".into()],
        vec!["CAST(\"a\" AS BIGINT) AS \"a\"".into()],
        vec!["CAST(\"b\" AS BIGINT) AS \"b\"".into()],
    ];
    let mut o = String::from(
        "-- Code generated by rulec. DO NOT EDIT.\n\
         -- The arithmetic of the generated SQL, held to the reference (vectors/_helpers.jsonl):\n\
         -- every rounding of a quotient, the remainder from zero up and the whole square root,\n\
         -- spelled as the rules' queries spell them: the view \"_helpers\" over \"_helpers_input\"\n\
         -- (\"_id\", \"op\", \"a\", \"b\").\n",
    );
    if DIALECT.with(|d| d.get()) == Dialect::Duckdb {
        o.push_str("-- For DuckDB: its divisions between integers spelled `//`.\n");
    }
    o.push_str("CREATE VIEW \"_helpers\" AS\nWITH ");
    o.push_str(&cte("_c0", &columns, "\"_helpers_input\"", false));
    o.push_str("\nSELECT\n");
    o.push_str(&list(&[vec!["\"_id\"".to_string()], result, constant], "  "));
    o.push_str("FROM \"_c0\"\nORDER BY \"_id\";\n");
    o
}

/// rulec_isqrt, for the helpers' query on PostgreSQL: the text every rule's function file
/// that needs it starts with.
fn helpers_function() -> String {
    format!(
        "-- Code generated by rulec. DO NOT EDIT.\n-- rulec_isqrt, which _helpers.sql calls: create it first on PostgreSQL.\n\n{}\n",
        section(FUNCTIONS, "-- rulec:", "isqrt")
    )
}

fn helpers_runner() -> String {
    let mut o = String::from(
        "# Code generated by rulec. DO NOT EDIT.\n# The arithmetic of the generated SQL, held to the reference (vectors/_helpers.jsonl).\n\n",
    );
    o.push_str(section(RUNNER, "# rulec:", "head"));
    o.push_str("\n\n\n");
    o.push_str(&super::python::shared::copy(section(RUNNER, "# rulec:", "common")));
    o.push_str("\n\n\n");
    o.push_str(section(RUNNER, "# rulec:", "helpers"));
    o.push('\n');
    o
}
