//! The Go backend (generated-code.md, Go): a package per rule (`go/<package>/`, its own
//! go.mod naming only itself), an `Input` struct, a defined type per unit, enums as integer
//! types with `Valid()`, `String()` and `ParseXxx`, `*RuleInputError` / `*RuleContradictionError`,
//! the entry guard, one branch per row, the `Traced` twin, the `Record` function, and a
//! runner (`cmd/runner`) that `go build` alone compiles with GOPROXY=off.
//!
//! The module imports `fmt` and nothing else. rulec formats its own output: every expression
//! is printed the way gofmt prints it (`printer` below ports go/printer's spacing of binary
//! expressions), so `gofmt -l` finds nothing without gofmt ever running.

use super::legacy_plan::{self as plan, Check, Code, Helper, Plan, Step};
use super::names::{ident, pascal, unit_type};
use super::{Backend, File, Lang, Runner, Unit};
use crate::num::RoundMode;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use std::collections::BTreeSet;
use std::fmt::Write;

pub struct Go;

/// The Go package name of a rule: its identifier without underscores, lower case (a name
/// Go cannot take as a package — a keyword, `main`, one starting with a digit — gets `rule`).
pub fn package_name(alias: &str) -> String {
    let s: String = alias.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("rule{s}")
    } else if GO_KEYWORDS.contains(&s.as_str()) || s == "main" {
        format!("{s}rule")
    } else {
        s
    }
}

/// The module path of a rule's package (its go.mod names nothing else).
pub fn module_path(alias: &str) -> String {
    format!("rulec/{}", package_name(alias))
}

const GO_KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Names a local of the rule may not take inside the generated functions: Go's predeclared
/// identifiers, the import, and the function's own parameters and locals. A rule's name that
/// is one of them is written with `_` after it inside the body.
const GO_RESERVED: &[&str] = &[
    "any",
    "append",
    "bool",
    "byte",
    "cap",
    "close",
    "comparable",
    "complex",
    "complex128",
    "complex64",
    "copy",
    "delete",
    "error",
    "false",
    "float32",
    "float64",
    "imag",
    "int",
    "int16",
    "int32",
    "int64",
    "int8",
    "iota",
    "len",
    "make",
    "new",
    "nil",
    "panic",
    "print",
    "println",
    "real",
    "recover",
    "rune",
    "string",
    "true",
    "uint",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "uintptr",
    "fmt",
    "in",
    "out",
    "trace",
    "v",
    "Input",
    "Output",
    "Fired",
    "Date",
];

impl Backend for Go {
    fn lang(&self) -> Lang {
        Lang::Go
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let pkg = package_name(u.program.ident());
        vec![
            File {
                path: format!("{pkg}/go.mod"),
                text: format!("module {}\n\ngo 1.18\n", module_path(u.program.ident())),
            },
            File { path: format!("{pkg}/{pkg}.go"), text: g.module() },
            File { path: format!("{pkg}/cmd/runner/main.go"), text: g.runner() },
            File { path: "_helpers_runner.go".into(), text: helpers_runner() },
        ]
    }

    /// Built with `go build` alone, with GOPROXY=off: a package that needed anything outside
    /// the standard library would not build. The `_helpers` runner is one file outside any
    /// module (the go command skips a file whose name starts with `_`, so it is copied first).
    fn runner(&self, alias: &str) -> Runner {
        let build = if alias == "_helpers" {
            "cp _helpers_runner.go helpers_runner_main.go && GO111MODULE=on GOWORK=off GOPROXY=off go build -o runner helpers_runner_main.go"
                .to_string()
        } else {
            format!(
                "cd '{}' && GO111MODULE=on GOWORK=off GOPROXY=off go build -o ../runner ./cmd/runner",
                package_name(alias)
            )
        };
        Runner {
            needs: vec!["go", "sh"],
            build: vec![vec!["sh".into(), "-c".into(), build]],
            run: vec!["./runner".into()],
        }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let p = u.program;
        let f = g.fn_name();
        let ret = g.returns();
        let pkg = package_name(p.ident());
        let params: Vec<serde_json::Value> = p
            .inputs
            .iter()
            .map(|&v| {
                let mut x = super::api_param(u, v, &g.api_type(v));
                x["field"] = serde_json::json!(g.field(v));
                x
            })
            .collect();
        let outputs: Vec<serde_json::Value> = p
            .outputs
            .iter()
            .map(|&v| {
                let mut x = super::api_output(u, v, &g.api_type(v));
                if p.outputs.len() > 1 {
                    x["field"] = serde_json::json!(g.field(v));
                }
                x
            })
            .collect();
        serde_json::json!({
            "package": pkg,
            "module": format!("{pkg}/{pkg}.go"),
            "module_path": module_path(p.ident()),
            "runner": format!("{pkg}/cmd/runner/main.go"),
            "build": "GOPROXY=off go build -o runner ./cmd/runner",
            "func": f,
            "function": f,
            "signature": format!("func {f}(in Input) ({ret}, error)"),
            "traced": format!("{f}Traced"),
            "traced_signature": format!("func {f}Traced(in Input) ({ret}, []Fired, error)"),
            "record": format!("{f}Record"),
            "record_signature": format!("func {f}Record(in Input, out {ret}, trace []Fired, tag string) string"),
            "input_type": "Input",
            "input_fields": params.clone(),
            "params": params,
            "output_type": ret,
            "returns": ret,
            "output_fields": outputs.clone(),
            "outputs": outputs,
            "enums": super::api_enums(u, &|e| g.enum_name(e), &|e, i| g.member(e, i)),
            "errors": ["*RuleInputError", "*RuleContradictionError"],
        })
    }
}

// ---------------------------------------------------------------------------------------
// Go expressions, printed as gofmt prints them.

/// A Go expression as go/printer sees it: the parentheses are nodes of their own.
#[derive(Clone, Debug)]
enum G {
    /// An identifier, a literal, a selector, a composite or function literal: printed as is.
    Atom(String),
    Paren(Box<G>),
    Unary(&'static str, Box<G>),
    Star(Box<G>),
    Bin(&'static str, Box<G>, Box<G>),
    Call(String, Vec<G>),
}

fn prec(op: &str) -> usize {
    match op {
        "||" => 1,
        "&&" => 2,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 3,
        "+" | "-" | "|" | "^" => 4,
        _ => 5,
    }
}

fn atom(s: impl Into<String>) -> G {
    G::Atom(s.into())
}

/// `l op r`, with the parentheses Go needs, and around `&&` under `||` and a comparison
/// under a comparison, which it does not need but a reader does.
fn bin(op: &'static str, l: G, r: G) -> G {
    let p = prec(op);
    let wrap = |x: G, right: bool| -> G {
        match &x {
            G::Bin(o, ..) => {
                let q = prec(o);
                if q < p || (right && q == p) || (p == 1 && q == 2) || (p == 3 && q == 3) {
                    G::Paren(Box::new(x))
                } else {
                    x
                }
            }
            _ => x,
        }
    };
    G::Bin(op, Box::new(wrap(l, false)), Box::new(wrap(r, true)))
}

fn unary(op: &'static str, x: G) -> G {
    match x {
        G::Bin(..) | G::Unary(..) | G::Star(..) => G::Unary(op, Box::new(G::Paren(Box::new(x)))),
        x => G::Unary(op, Box::new(x)),
    }
}

fn not(x: G) -> G {
    unary("!", x)
}

/// A whole condition of an `if`: gofmt takes the parentheses off one, so it never has any.
fn cond(x: G) -> String {
    match x {
        G::Paren(inner) => cond(*inner),
        x => printer::expr(&x),
    }
}

/// A port of go/printer's layout of expressions (nodes.go: binaryExpr, walkBinary, cutoff,
/// diffPrec, reduceDepth): which binary operators get blanks depends on the precedences
/// mixed in the expression and on how deep it sits (call arguments, operands, parentheses).
mod printer {
    use super::{prec, G};

    const UNARY_PREC: usize = 6;

    /// An expression at the top of a statement (depth 1).
    pub fn expr(x: &G) -> String {
        expr1(x, 0, 1)
    }

    fn expr1(x: &G, prec1: usize, depth: usize) -> String {
        match x {
            G::Atom(s) => s.clone(),
            G::Bin(..) => binary(x, prec1, cutoff(x, depth), depth),
            G::Star(inner) => {
                if UNARY_PREC < prec1 {
                    format!("(*{})", expr(inner))
                } else {
                    format!("*{}", expr(inner))
                }
            }
            G::Unary(op, inner) => {
                if UNARY_PREC < prec1 {
                    format!("({})", expr(x))
                } else {
                    format!("{op}{}", expr1(inner, UNARY_PREC, depth))
                }
            }
            G::Paren(inner) => {
                if matches!(**inner, G::Paren(_)) {
                    expr1(inner, 0, depth)
                } else {
                    format!("({})", expr1(inner, 0, reduce_depth(depth)))
                }
            }
            G::Call(f, args) => {
                let depth = if args.len() > 1 { depth + 1 } else { depth };
                let args: Vec<String> = args.iter().map(|a| expr1(a, 0, depth)).collect();
                format!("{f}({})", args.join(", "))
            }
        }
    }

    fn reduce_depth(depth: usize) -> usize {
        if depth > 1 {
            depth - 1
        } else {
            1
        }
    }

    fn diff_prec(x: &G, p: usize) -> usize {
        match x {
            G::Bin(op, ..) if prec(op) == p => 0,
            _ => 1,
        }
    }

    fn binary(x: &G, prec1: usize, cutoff: usize, depth: usize) -> String {
        let G::Bin(op, l, r) = x else { unreachable!("a binary expression") };
        let p = prec(op);
        if p < prec1 {
            return format!("({})", expr1(x, 0, reduce_depth(depth)));
        }
        let blank = p < cutoff;
        let l = expr1(l, p, depth + diff_prec(l, p));
        let r = expr1(r, p + 1, depth + 1);
        if blank {
            format!("{l} {op} {r}")
        } else if (*op == "-" && r.starts_with('-')) || (*op == "/" && r.starts_with('*')) {
            // printer.go's mayCombine: a blank keeps `- -x` from reading as `--x`.
            format!("{l}{op} {r}")
        } else {
            format!("{l}{op}{r}")
        }
    }

    fn walk(x: &G) -> (bool, bool, usize) {
        let G::Bin(op, l, r) = x else { return (false, false, 0) };
        let p = prec(op);
        let (mut has4, mut has5, mut problem) = (p == 4, p == 5, 0);
        if let G::Bin(lo, ..) = &**l {
            if prec(lo) >= p {
                let (h4, h5, mp) = walk(l);
                has4 |= h4;
                has5 |= h5;
                problem = problem.max(mp);
            }
        }
        match &**r {
            G::Bin(ro, ..) if prec(ro) > p => {
                let (h4, h5, mp) = walk(r);
                has4 |= h4;
                has5 |= h5;
                problem = problem.max(mp);
            }
            G::Star(_) if *op == "/" => problem = 5,
            G::Unary(uo, _) => match format!("{op}{uo}").as_str() {
                "/*" | "&&" | "&^" => problem = 5,
                "++" | "--" => problem = problem.max(4),
                _ => {}
            },
            _ => {}
        }
        (has4, has5, problem)
    }

    fn cutoff(x: &G, depth: usize) -> usize {
        let (has4, has5, problem) = walk(x);
        if problem > 0 {
            return problem + 1;
        }
        if has4 && has5 {
            return if depth == 1 { 5 } else { 4 };
        }
        if depth == 1 {
            6
        } else {
            4
        }
    }
}

/// A Go string literal: raw (between backquotes) where the text allows, else interpreted.
fn go_str(s: &str) -> String {
    let raw_ok = !s.chars().any(|c| c == '`' || c == '\u{feff}' || (c as u32) < 0x20 || c == '\u{7f}');
    if raw_ok && s.contains(['"', '\\']) {
        return format!("`{s}`");
    }
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{feff}' => o.push_str("\\ufeff"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(o, "\\x{:02x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn tabs(n: usize) -> String {
    "\t".repeat(n)
}

fn mode_fn(m: RoundMode) -> String {
    format!("divRound{}", pascal(m.as_str()))
}

/// What a value is, as Go types it inside the function body.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    Str,
    Enum(EnumId),
}

struct Gen<'a> {
    u: &'a Unit<'a>,
    p: &'a Program,
    plan: &'a Plan,
}

/// What an expression is printed inside: the optionals read through their pointer (`*x`),
/// and the indentation a function literal's body starts from.
#[derive(Clone)]
struct Ctx {
    deref: Vec<VarId>,
    indent: usize,
}

impl Gen<'_> {
    // --- names --------------------------------------------------------------------------

    /// A local variable of the body: the rule's identifier.
    fn name(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let n = ident(&var.name, var.alias.as_deref());
        if GO_RESERVED.contains(&n.as_str()) {
            format!("{n}_")
        } else {
            n
        }
    }

    /// A field of `Input` or `Output`: the identifier in PascalCase (exported).
    fn field(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        pascal(&ident(&var.name, var.alias.as_deref()))
    }

    fn enum_name(&self, e: EnumId) -> String {
        pascal(&ident(&self.p.enums[e].name, self.p.enums[e].alias.as_deref()))
    }

    fn member(&self, e: EnumId, i: u32) -> String {
        let v = &self.p.enums[e].values[i as usize];
        format!("{}{}", self.enum_name(e), pascal(v.alias.as_deref().unwrap_or(&v.name)))
    }

    fn fn_name(&self) -> String {
        pascal(&ident(&self.p.name, self.p.alias.as_deref()))
    }

    /// Whether the API gives this variable a defined type over int64.
    fn wrapped(&self, v: VarId) -> bool {
        matches!(self.p.vars[v].ty, Ty::Date | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }

    fn wrapper(&self, v: VarId) -> String {
        match &self.p.vars[v].ty {
            Ty::Date => "Date".into(),
            ty => unit_type(self.p, ty).expect("a unit type"),
        }
    }

    /// The type of a field of `Input` or `Output` (a pointer when optional).
    fn api_type(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let base = match &var.ty {
            Ty::Bool => "bool".to_string(),
            Ty::Int | Ty::Number => "int64".to_string(),
            Ty::Str => "string".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ => self.wrapper(v),
        };
        if var.optional {
            format!("*{base}")
        } else {
            base
        }
    }

    fn kind(&self, v: VarId) -> Kind {
        match &self.p.vars[v].ty {
            Ty::Bool => Kind::Bool,
            Ty::Str => Kind::Str,
            Ty::Enum(e) => Kind::Enum(*e),
            _ => Kind::Int,
        }
    }

    fn kind_type(&self, k: Kind) -> String {
        match k {
            Kind::Int => "int64".into(),
            Kind::Bool => "bool".into(),
            Kind::Str => "string".into(),
            Kind::Enum(e) => self.enum_name(e),
        }
    }

    /// The type a variable has inside the body.
    fn local_type(&self, v: VarId) -> String {
        let base = self.kind_type(self.kind(v));
        if self.p.vars[v].optional {
            format!("*{base}")
        } else {
            base
        }
    }

    fn code_kind(&self, c: &Code) -> Kind {
        match c {
            Code::Bool(_)
            | Code::Cmp(..)
            | Code::And(..)
            | Code::Or(..)
            | Code::Not(_)
            | Code::OneOf(..)
            | Code::IsNone(_)
            | Code::Present(..) => Kind::Bool,
            Code::Str(_) => Kind::Str,
            Code::Enum(e, _) => Kind::Enum(*e),
            Code::Var(v) => self.kind(*v),
            Code::Min(xs) | Code::Max(xs) => {
                xs.iter().map(|x| self.code_kind(x)).find(|k| matches!(k, Kind::Enum(_))).unwrap_or(Kind::Int)
            }
            Code::If(_, a, b) => match **a {
                Code::Absent => self.code_kind(b),
                _ => self.code_kind(a),
            },
            _ => Kind::Int,
        }
    }

    /// The helper that takes the smaller or larger of two values of a kind.
    fn min_max_fn(&self, max: bool, k: Kind) -> String {
        let what = match k {
            Kind::Enum(e) => self.enum_name(e),
            _ => "Int".into(),
        };
        format!("{}{what}", if max { "max" } else { "min" })
    }

    fn returns(&self) -> String {
        match self.p.outputs.as_slice() {
            [one] => self.api_type(*one),
            _ => "Output".into(),
        }
    }

    /// The value returned beside an error.
    fn zero(&self) -> String {
        match self.p.outputs.as_slice() {
            [one] => {
                let var = &self.p.vars[*one];
                match &var.ty {
                    _ if var.optional => "nil".into(),
                    Ty::Bool => "false".into(),
                    Ty::Str => "\"\"".into(),
                    _ => "0".into(),
                }
            }
            _ => "Output{}".into(),
        }
    }

    // --- expressions ----------------------------------------------------------------------

    fn int(n: i64) -> G {
        if n < 0 {
            G::Unary("-", Box::new(atom((n as i128).abs().to_string())))
        } else {
            atom(n.to_string())
        }
    }

    fn g(&self, c: &Code, ctx: &Ctx) -> G {
        match c {
            Code::Int(n) => Self::int(*n),
            Code::Bool(b) => atom(b.to_string()),
            Code::Str(s) => atom(go_str(s)),
            Code::Enum(e, i) => atom(self.member(*e, *i)),
            Code::Absent => atom("nil"),
            Code::Var(v) => {
                if ctx.deref.contains(v) {
                    G::Star(Box::new(atom(self.name(*v))))
                } else {
                    atom(self.name(*v))
                }
            }
            Code::Neg(x) => unary("-", self.g(x, ctx)),
            Code::Add(a, b) => bin("+", self.g(a, ctx), self.g(b, ctx)),
            Code::Sub(a, b) => bin("-", self.g(a, ctx), self.g(b, ctx)),
            Code::Mul(a, b) => bin("*", self.g(a, ctx), self.g(b, ctx)),
            Code::DivExact(a, q) => bin("/", self.g(a, ctx), Self::int(*q)),
            Code::DivRound(n, d, m) => G::Call(mode_fn(*m), vec![self.g(n, ctx), self.g(d, ctx)]),
            Code::Min(xs) | Code::Max(xs) => {
                let f = self.min_max_fn(matches!(c, Code::Max(_)), self.code_kind(c));
                let mut acc = self.g(&xs[0], ctx);
                for x in &xs[1..] {
                    acc = G::Call(f.clone(), vec![acc, self.g(x, ctx)]);
                }
                acc
            }
            Code::Mod(a, b) => G::Call("modFloor".into(), vec![self.g(a, ctx), self.g(b, ctx)]),
            Code::Isqrt(x) => G::Call("isqrtInt".into(), vec![self.g(x, ctx)]),
            Code::If(..) => self.func_lit(c, ctx),
            Code::Cmp(op, a, b) => {
                let o = match op {
                    CmpOp::Eq => "==",
                    CmpOp::Ne => "!=",
                    CmpOp::Lt => "<",
                    CmpOp::Le => "<=",
                    CmpOp::Gt => ">",
                    CmpOp::Ge => ">=",
                };
                bin(o, self.g(a, ctx), self.g(b, ctx))
            }
            Code::And(a, b) => bin("&&", self.g(a, ctx), self.g(b, ctx)),
            Code::Or(a, b) => bin("||", self.g(a, ctx), self.g(b, ctx)),
            Code::Not(x) => not(self.g(x, ctx)),
            Code::OneOf(x, vals) => {
                let x = self.g(x, ctx);
                vals.iter()
                    .map(|v| bin("==", x.clone(), self.g(v, ctx)))
                    .reduce(|a, b| bin("||", a, b))
                    .unwrap_or_else(|| atom("false"))
            }
            Code::IsNone(v) => bin("==", atom(self.name(*v)), atom("nil")),
            Code::Present(v, t) => {
                let mut inner = ctx.clone();
                inner.deref.push(*v);
                bin("&&", bin("!=", atom(self.name(*v)), atom("nil")), self.g(t, &inner))
            }
        }
    }

    /// An `if … then … else` inside an expression: a function literal called on the spot,
    /// so only the branch taken is evaluated.
    fn func_lit(&self, c: &Code, ctx: &Ctx) -> G {
        let ty = self.kind_type(self.code_kind(c));
        let mut o = format!("func() {ty} {{\n");
        let mut cur = c;
        let inner = Ctx { deref: ctx.deref.clone(), indent: ctx.indent + 2 };
        let body = Ctx { deref: ctx.deref.clone(), indent: ctx.indent + 1 };
        while let Code::If(k, a, b) = cur {
            let _ = writeln!(o, "{}if {} {{", tabs(ctx.indent + 1), cond(self.g(k, &body)));
            let _ = writeln!(o, "{}return {}", tabs(ctx.indent + 2), printer::expr(&self.g(a, &inner)));
            let _ = writeln!(o, "{}}}", tabs(ctx.indent + 1));
            cur = b;
        }
        let _ = writeln!(o, "{}return {}", tabs(ctx.indent + 1), printer::expr(&self.g(cur, &body)));
        let _ = write!(o, "{}}}()", tabs(ctx.indent));
        atom(o)
    }

    fn e(&self, c: &Code, indent: usize) -> String {
        printer::expr(&self.g(c, &Ctx { deref: Vec::new(), indent }))
    }

    fn c(&self, c: &Code, indent: usize) -> String {
        cond(self.g(c, &Ctx { deref: Vec::new(), indent }))
    }

    // --- the module ---------------------------------------------------------------------

    fn module(&self) -> String {
        let mut o = self.u.header("//");
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, "//\n// {}", about.trim_end());
        }
        let pkg = package_name(self.p.ident());
        let _ = writeln!(
            o,
            "\n// Package {pkg} is the rule {} (version {}): call {}, or {}Traced for the rows that matched too.\npackage {pkg}\n\nimport \"fmt\"\n",
            self.p.name,
            self.p.version,
            self.fn_name(),
            self.fn_name()
        );
        self.types(&mut o);
        self.functions(&mut o);
        self.record(&mut o);
        self.helpers(&mut o);
        while o.ends_with("\n\n") {
            o.pop();
        }
        o
    }

    fn types(&self, o: &mut String) {
        for (name, ty) in super::names::unit_types(self.p) {
            let what = crate::sema::ty_name(&ty, &self.p.enums);
            let _ = writeln!(o, "// {name} is {what}: a whole number of its unit.\ntype {name} int64\n");
        }
        if self.uses_date_type() {
            o.push_str("// Date is a calendar day: the number of days since 1970-01-01.\ntype Date int64\n\n");
            o.push_str("// String returns the day as YYYY-MM-DD, the way the wire and the records write it.\nfunc (d Date) String() string {\n\treturn string(appendDate(nil, int64(d)))\n}\n\n");
        }
        for (e, en) in self.p.enums.iter().enumerate() {
            let name = self.enum_name(e);
            let members: Vec<String> = (0..en.values.len() as u32).map(|i| self.member(e, i)).collect();
            let _ = writeln!(
                o,
                "// {name} is the enum {}{}.\ntype {name} int\n",
                en.name,
                if en.ordered { " (ordered: a value compares by its place)" } else { "" }
            );
            let _ = writeln!(o, "// The values of {name}, in the order the rule declares them.\nconst (");
            for (i, m) in members.iter().enumerate() {
                if i == 0 {
                    let _ = writeln!(o, "\t{m} {name} = iota");
                } else {
                    let _ = writeln!(o, "\t{m}");
                }
            }
            o.push_str(")\n\n");
            let _ = writeln!(
                o,
                "// Valid reports whether x is one of the values of {name}.\nfunc (x {name}) Valid() bool {{\n\treturn x >= {} && x <= {}\n}}\n",
                members[0],
                members[members.len() - 1]
            );
            let _ = writeln!(o, "// String returns the value's name, the way the wire and the records write it.\nfunc (x {name}) String() string {{\n\tswitch x {{");
            for (m, v) in members.iter().zip(&en.values) {
                let _ = writeln!(o, "\tcase {m}:\n\t\treturn {}", go_str(&v.name));
            }
            let _ = writeln!(o, "\t}}\n\treturn fmt.Sprintf(\"{name}(%d)\", int(x))\n}}\n");
            let _ = writeln!(o, "// Parse{name} reads a value's name back; false when it names no value of {name}.\nfunc Parse{name}(s string) ({name}, bool) {{\n\tswitch s {{");
            for (m, v) in members.iter().zip(&en.values) {
                let _ = writeln!(o, "\tcase {}:\n\t\treturn {m}, true", go_str(&v.name));
            }
            let _ = writeln!(o, "\t}}\n\treturn 0, false\n}}\n");
        }
        o.push_str(ERRORS);
        o.push_str("// Input holds the rule's inputs, in the order it declares them.\ntype Input struct {\n");
        o.push_str(&aligned(self.p.inputs.iter().map(|&v| (self.field(v), self.api_type(v))).collect()));
        o.push_str("}\n\n");
        if self.p.outputs.len() > 1 {
            o.push_str("// Output holds the rule's outputs, in the order it declares them.\ntype Output struct {\n");
            o.push_str(&aligned(self.p.outputs.iter().map(|&v| (self.field(v), self.api_type(v))).collect()));
            o.push_str("}\n\n");
        }
    }

    fn uses_date_type(&self) -> bool {
        self.p.vars.iter().any(|v| v.ty == Ty::Date && (v.kind != VarKind::Define || v.declared))
    }

    fn functions(&self, o: &mut String) {
        let f = self.fn_name();
        let ret = self.returns();
        let outs: Vec<&str> = self.p.outputs.iter().map(|&v| self.p.vars[v].name.as_str()).collect();
        let ins: Vec<&str> = self.p.inputs.iter().map(|&v| self.p.vars[v].name.as_str()).collect();
        let _ = writeln!(
            o,
            "// {f} decides {} from {}.\nfunc {f}(in Input) ({ret}, error) {{\n\tout, _, err := {f}Traced(in)\n\treturn out, err\n}}\n",
            outs.join(", "),
            if ins.is_empty() { "nothing".to_string() } else { ins.join(", ") }
        );
        let _ = writeln!(
            o,
            "// {f}Traced is the same call, with the rows that matched: one per table, in evaluation order.\nfunc {f}Traced(in Input) ({ret}, []Fired, error) {{"
        );
        let read = self.read_vars();
        self.entry_guard(o, &read);
        let tables = self.plan.steps.iter().filter(|s| matches!(s, Step::Table { .. })).count();
        let _ = writeln!(o, "\ttrace := make([]Fired, 0, {tables})");
        for step in &self.plan.steps {
            match step {
                Step::Define { var, value } => {
                    let _ = writeln!(o, "\t// define {}", self.p.vars[*var].name);
                    self.define(o, *var, value);
                    if !read.contains(var) {
                        let _ = writeln!(o, "\t_ = {}", self.name(*var));
                    }
                }
                Step::Table { table, rows, guards } => {
                    self.table(o, *table, rows, guards);
                    for &r in &self.p.tables[*table].results {
                        if !read.contains(&r) {
                            let _ = writeln!(o, "\t_ = {}", self.name(r));
                        }
                    }
                }
            }
        }
        let mut values = Vec::new();
        for &v in &self.p.outputs {
            let n = self.name(v);
            let var = &self.p.vars[v];
            let value = if self.wrapped(v) && var.optional {
                let w = self.wrapper(v);
                let _ =
                    writeln!(o, "\tvar {n}_out *{w}\n\tif {n} != nil {{\n\t\tv := {w}(*{n})\n\t\t{n}_out = &v\n\t}}");
                format!("{n}_out")
            } else if self.wrapped(v) {
                format!("{}({n})", self.wrapper(v))
            } else {
                n
            };
            values.push((self.field(v), value));
        }
        let out = match values.as_slice() {
            [(_, one)] => one.clone(),
            vs => format!("Output{{{}}}", vs.iter().map(|(f, v)| format!("{f}: {v}")).collect::<Vec<_>>().join(", ")),
        };
        let _ = writeln!(o, "\treturn {out}, trace, nil\n}}\n");
    }

    /// Every variable the body reads (an input, a define or a table's result that nothing
    /// reads is still written, and then marked used for the compiler with `_ =`).
    fn read_vars(&self) -> BTreeSet<VarId> {
        let mut out: BTreeSet<VarId> = self.p.outputs.iter().copied().collect();
        for (c, _) in &self.plan.constraints {
            collect_vars(c, &mut out);
        }
        for step in &self.plan.steps {
            match step {
                Step::Define { value, .. } => collect_vars(value, &mut out),
                Step::Table { rows, .. } => {
                    for r in rows {
                        collect_vars(&r.cond, &mut out);
                        for (_, v) in &r.assigns {
                            collect_vars(v, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn refuse_input(&self, what: &str, value: Option<String>) -> String {
        let err = match value {
            Some(v) => format!("&RuleInputError{{What: {}, Value: {v}, HasValue: true}}", go_str(what)),
            None => format!("&RuleInputError{{What: {}}}", go_str(what)),
        };
        format!("return {}, nil, {err}", self.zero())
    }

    fn entry_guard(&self, o: &mut String, read: &BTreeSet<VarId>) {
        o.push_str("\t// The entry guard: what the proofs assumed of every call.\n");
        for &v in &self.p.inputs {
            let var = &self.p.vars[v];
            let field = format!("in.{}", self.field(v));
            let (val, nonnil) = if var.optional {
                (format!("*{field}"), format!("{field} != nil && "))
            } else {
                (field.clone(), String::new())
            };
            if let Ty::Enum(e) = var.ty {
                let what = format!("{} is not a value of enum {}", var.name, self.p.enums[e].name);
                let _ = writeln!(
                    o,
                    "\tif {nonnil}!{field}.Valid() {{\n\t\t{}\n\t}}",
                    self.refuse_input(&what, Some(format!("int64({val})")))
                );
            }
            let Some(g) = self.plan.guards.iter().find(|g| g.var == v) else { continue };
            let test = match &g.check {
                Check::Range { lo, hi } => {
                    format!("{val} < {} || {val} > {}", printer::expr(&Self::int(*lo)), printer::expr(&Self::int(*hi)))
                }
                Check::EnumRange { lo, hi } => {
                    let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                    format!("{val} < {} || {val} > {}", self.member(e, *lo), self.member(e, *hi))
                }
            };
            let test = if var.optional { format!("{nonnil}({test})") } else { test };
            let _ = writeln!(
                o,
                "\tif {test} {{\n\t\t{}\n\t}}",
                self.refuse_input(&g.sentence, Some(format!("int64({val})")))
            );
        }
        // From here on every number is the integer it carries.
        for &v in &self.p.inputs {
            let n = self.name(v);
            let field = format!("in.{}", self.field(v));
            let var = &self.p.vars[v];
            if self.wrapped(v) && var.optional {
                let _ = writeln!(
                    o,
                    "\tvar {n} *int64\n\tif {field} != nil {{\n\t\tv := int64(*{field})\n\t\t{n} = &v\n\t}}"
                );
            } else if self.wrapped(v) {
                let _ = writeln!(o, "\t{n} := int64({field})");
            } else {
                let _ = writeln!(o, "\t{n} := {field}");
            }
            if !read.contains(&v) {
                let _ = writeln!(o, "\t_ = {n}");
            }
        }
        for (c, sentence) in &self.plan.constraints {
            // A constraint that reads an absent optional holds.
            let optionals = c.optionals_read(self.p);
            let ctx = Ctx { deref: optionals.clone(), indent: 1 };
            let mut test = not(self.g(c, &ctx));
            for &v in optionals.iter().rev() {
                test = bin("&&", bin("!=", atom(self.name(v)), atom("nil")), test);
            }
            let _ = writeln!(o, "\tif {} {{\n\t\t{}\n\t}}", cond(test), self.refuse_input(sentence, None));
        }
    }

    /// A define: `x := …`, or a declaration and an `if` when the value is an `if … then … else`.
    fn define(&self, o: &mut String, v: VarId, value: &Code) {
        let n = self.name(v);
        if self.p.vars[v].optional || matches!(value, Code::If(..)) {
            let _ = writeln!(o, "\tvar {n} {}", self.local_type(v));
            self.store(o, v, value, 1);
        } else if is_untyped(value) && self.kind(v) == Kind::Int {
            let _ = writeln!(o, "\tvar {n} int64 = {}", self.e(value, 1));
        } else {
            let _ = writeln!(o, "\t{n} := {}", self.e(value, 1));
        }
    }

    /// Store a value into a declared local: through `new` for an optional (Go takes no address
    /// of a constant), as an `if` chain for an `if … then … else`.
    fn store(&self, o: &mut String, v: VarId, value: &Code, indent: usize) {
        let n = self.name(v);
        let t = tabs(indent);
        if let Code::If(k, a, b) = value {
            let _ = writeln!(o, "{t}if {} {{", self.c(k, indent));
            self.store(o, v, a, indent + 1);
            let mut rest: &Code = b;
            while let Code::If(k, a, b) = rest {
                let _ = writeln!(o, "{t}}} else if {} {{", self.c(k, indent));
                self.store(o, v, a, indent + 1);
                rest = b;
            }
            let _ = writeln!(o, "{t}}} else {{");
            self.store(o, v, rest, indent + 1);
            let _ = writeln!(o, "{t}}}");
            return;
        }
        if !self.p.vars[v].optional {
            let _ = writeln!(o, "{t}{n} = {}", self.e(value, indent));
            return;
        }
        match value {
            Code::Absent => {
                let _ = writeln!(o, "{t}{n} = nil");
            }
            Code::Var(x) if self.p.vars[*x].optional => {
                let _ = writeln!(o, "{t}{n} = {}", self.name(*x));
            }
            other => {
                let _ =
                    writeln!(o, "{t}{n} = new({})\n{t}*{n} = {}", self.kind_type(self.kind(v)), self.e(other, indent));
            }
        }
    }

    fn table(&self, o: &mut String, t: usize, rows: &[plan::Row], guards: &[(usize, usize, String)]) {
        let table = &self.p.tables[t];
        let _ = writeln!(o, "\t// table {} (policy {})", table.name, table.policy.as_str());
        for (a, b, sentence) in guards {
            let _ = writeln!(o, "\t// guard: W114 (table {}, row {a} × row {b}): a pair of rows whose exclusivity could not be proven statically", table.name);
            let ctx = Ctx { deref: Vec::new(), indent: 1 };
            let test = bin("&&", self.g(&rows[a - 1].cond, &ctx), self.g(&rows[b - 1].cond, &ctx));
            let _ = writeln!(
                o,
                "\tif {} {{\n\t\treturn {}, nil, &RuleContradictionError{{What: {}}}\n\t}}",
                cond(test),
                self.zero(),
                go_str(sentence)
            );
        }
        for &r in &table.results {
            let _ = writeln!(o, "\tvar {} {}", self.name(r), self.local_type(r));
        }
        for (i, row) in rows.iter().enumerate() {
            let kw = if i == 0 { "\tif" } else { " else if" };
            let _ = writeln!(o, "{kw} {} {{", self.c(&row.cond, 1));
            let _ = writeln!(o, "{}", format!("\t\t// row {}: {}", row.n, row.cells).trim_end());
            for (v, value) in &row.assigns {
                self.store(o, *v, value, 2);
            }
            let _ =
                write!(o, "\t\ttrace = append(trace, Fired{{Table: {}, Row: {}}})\n\t}}", go_str(&table.name), row.n);
        }
        let _ = writeln!(
            o,
            " else {{\n\t\treturn {}, nil, &RuleContradictionError{{What: {}}}\n\t}}",
            self.zero(),
            go_str(&format!("table {}: no row matched", table.name))
        );
    }

    // --- the record ---------------------------------------------------------------------

    fn record(&self, o: &mut String) {
        let f = self.fn_name();
        let ret = self.returns();
        let _ = writeln!(o, "// {f}Record writes one call as a fixtures record (formats.md), the line rulec replay reads.\nfunc {f}Record(in Input, out {ret}, trace []Fired, tag string) string {{");
        o.push_str("\tb := make([]byte, 0, 256)\n\tb = append(b, '{')\n\tif tag != \"\" {\n\t\tb = append(b, `\"tag\":`...)\n\t\tb = appendJSONString(b, tag)\n\t\tb = append(b, ',')\n\t}\n");
        let key = |name: &str, first: bool, open: &str| -> String {
            let k = serde_json::to_string(name).expect("a name serializes");
            format!("{open}{}{k}:", if first { "" } else { "," })
        };
        let mut open = String::from("\"in\":{");
        for (i, &v) in self.p.inputs.iter().enumerate() {
            let _ = writeln!(o, "\tb = append(b, {}...)", go_str(&key(&self.p.vars[v].name, i == 0, &open)));
            open.clear();
            self.push_value(o, v, &format!("in.{}", self.field(v)));
        }
        open.push_str("},\"observed\":{");
        for (i, &v) in self.p.outputs.iter().enumerate() {
            let _ = writeln!(o, "\tb = append(b, {}...)", go_str(&key(&self.p.vars[v].name, i == 0, &open)));
            open.clear();
            let field = if self.p.outputs.len() == 1 { "out".to_string() } else { format!("out.{}", self.field(v)) };
            self.push_value(o, v, &field);
        }
        open.push_str("},\"trace\":[");
        let _ = writeln!(o, "\tb = append(b, {}...)", go_str(&open));
        o.push_str(
            "\tfor i, f := range trace {\n\t\tif i > 0 {\n\t\t\tb = append(b, ',')\n\t\t}\n\t\tb = append(b, `{\"table\":`...)\n\t\tb = appendJSONString(b, f.Table)\n\t\tb = append(b, `,\"row\":`...)\n\t\tb = appendInt(b, int64(f.Row))\n\t\tb = append(b, '}')\n\t}\n\tb = append(b, \"]}\"...)\n\treturn string(b)\n}\n\n",
        );
    }

    /// Append a field's wire form.
    fn push_value(&self, o: &mut String, v: VarId, x: &str) {
        let var = &self.p.vars[v];
        let one = |x: &str, t: &str| -> String {
            match &var.ty {
                Ty::Bool => format!("{t}b = appendBool(b, {x})"),
                Ty::Str => format!("{t}b = appendJSONString(b, {x})"),
                Ty::Enum(_) => format!("{t}b = appendJSONString(b, {x}.String())"),
                Ty::Date => format!("{t}b = append(b, '\"')\n{t}b = appendDate(b, int64({x}))\n{t}b = append(b, '\"')"),
                Ty::Int | Ty::Number => format!("{t}b = appendInt(b, {x})"),
                _ => format!("{t}b = appendInt(b, int64({x}))"),
            }
        };
        if var.optional {
            let _ = writeln!(
                o,
                "\tif {x} != nil {{\n{}\n\t}} else {{\n\t\tb = append(b, \"null\"...)\n\t}}",
                one(&if matches!(var.ty, Ty::Enum(_)) { x.to_string() } else { format!("*{x}") }, "\t\t")
            );
        } else {
            let _ = writeln!(o, "{}", one(x, "\t"));
        }
    }

    fn uses_bool(&self) -> bool {
        self.p.inputs.iter().chain(&self.p.outputs).any(|&v| self.p.vars[v].ty == Ty::Bool)
    }

    fn helpers(&self, o: &mut String) {
        o.push_str(APPEND_INT);
        o.push_str(APPEND_JSON_STRING);
        if self.uses_bool() {
            o.push_str(APPEND_BOOL);
        }
        if self.plan.uses_dates || self.uses_date_type() {
            o.push_str(APPEND_DATE);
        }
        let mut minmax: BTreeSet<(bool, String, String)> = BTreeSet::new();
        let mut visit = |c: &Code| self.collect_min_max(c, &mut minmax);
        for (c, _) in &self.plan.constraints {
            visit(c);
        }
        for step in &self.plan.steps {
            match step {
                Step::Define { value, .. } => visit(value),
                Step::Table { rows, .. } => {
                    for r in rows {
                        visit(&r.cond);
                        for (_, v) in &r.assigns {
                            visit(v);
                        }
                    }
                }
            }
        }
        for (max, f, ty) in &minmax {
            let (word, op) = if *max { ("larger", ">") } else { ("smaller", "<") };
            let _ = writeln!(
                o,
                "// {f} returns the {word} of a and b.\nfunc {f}(a, b {ty}) {ty} {{\n\tif a {op} b {{\n\t\treturn a\n\t}}\n\treturn b\n}}\n"
            );
        }
        for h in &self.plan.helpers {
            match h {
                Helper::DivRound(m) => o.push_str(&div_round(*m)),
                Helper::Mod => o.push_str(MOD_FLOOR),
                Helper::Isqrt => o.push_str(ISQRT),
            }
        }
    }

    fn collect_min_max(&self, c: &Code, out: &mut BTreeSet<(bool, String, String)>) {
        if let Code::Min(_) | Code::Max(_) = c {
            let k = self.code_kind(c);
            let max = matches!(c, Code::Max(_));
            out.insert((max, self.min_max_fn(max, k), self.kind_type(k)));
        }
        for kid in c.children() {
            self.collect_min_max(kid, out);
        }
    }

    // --- the runner ---------------------------------------------------------------------

    fn runner(&self) -> String {
        let f = self.fn_name();
        let pkg = package_name(self.p.ident());
        let mut o = self.u.header("//");
        let _ = writeln!(
            o,
            "//\n// The runner rulec test drives: one vectors line in, one record (or refusal) out.\n// Build (in {pkg}/): GOPROXY=off go build -o runner ./cmd/runner\n"
        );
        let _ = writeln!(o, "{}\n\trule \"{}\"\n)\n", RUNNER_IMPORTS, module_path(self.p.ident()));
        o.push_str(RUNNER_MAIN);
        o.push_str("// call answers one line: the record, or the refusal in its place.\nfunc call(line string) string {\n\tobj, ok := parseCall(line)\n\tif !ok {\n\t\treturn refusal(\"input\", \"the input is not an object\")\n\t}\n\tvar in rule.Input\n");
        for &v in &self.p.inputs {
            self.read_input(&mut o, v);
        }
        let _ = writeln!(
            o,
            "\tout, trace, err := rule.{f}Traced(in)\n\tif e, ok := err.(*rule.RuleInputError); ok {{\n\t\treturn refusal(\"input\", e.What)\n\t}}"
        );
        let known: Vec<String> = self.p.inputs.iter().map(|&v| go_str(&self.p.vars[v].name)).collect();
        if known.is_empty() {
            o.push_str("\tfor _, k := range obj.keys {\n\t\treturn refusal(\"input\", k+\" is not an input\")\n\t}\n");
        } else {
            let _ = writeln!(
                o,
                "\tfor _, k := range obj.keys {{\n\t\tswitch k {{\n\t\tcase {}:\n\t\tdefault:\n\t\t\treturn refusal(\"input\", k+\" is not an input\")\n\t\t}}\n\t}}",
                known.join(", ")
            );
        }
        let _ = writeln!(
            o,
            "\tif e, ok := err.(*rule.RuleContradictionError); ok {{\n\t\treturn refusal(\"contradiction\", e.What)\n\t}}\n\treturn rule.{f}Record(in, out, trace, \"\")\n}}\n"
        );
        o.push_str(RUNNER_JSON);
        if self.p.inputs.iter().any(|&v| self.p.vars[v].ty == Ty::Date) {
            o.push_str(RUNNER_DATE);
        }
        while o.ends_with("\n\n") {
            o.pop();
        }
        o
    }

    /// Read one input the way the door holds it: missing, kind, enum membership, range.
    fn read_input(&self, o: &mut String, v: VarId) {
        let var = &self.p.vars[v];
        let name = go_str(&var.name);
        let field = format!("in.{}", self.field(v));
        let optional = var.optional;
        let refuse = |what: &str| format!("return refusal(\"input\", {})", go_str(&format!("{} {what}", var.name)));
        let (reader, extra) = match &var.ty {
            Ty::Bool => ("readBool".to_string(), String::new()),
            Ty::Str => ("readString".to_string(), String::new()),
            Ty::Date => ("readDate".to_string(), String::new()),
            Ty::Enum(e) => ("readEnum".to_string(), format!(", {}", go_str(&self.p.enums[*e].name))),
            _ => ("readNumber".to_string(), String::new()),
        };
        let _ = writeln!(
            o,
            "\tif x, has, why := {reader}(obj, {name}, {optional}{extra}); why != \"\" {{\n\t\treturn refusal(\"input\", why)\n\t}} else if has {{"
        );
        let mut value = "x".to_string();
        if let Ty::Enum(e) = var.ty {
            let _ = writeln!(
                o,
                "\t\tx, ok := rule.Parse{}(x)\n\t\tif !ok {{\n\t\t\t{}\n\t\t}}",
                self.enum_name(e),
                refuse(&format!("is not a value of enum {}", self.p.enums[e].name))
            );
        }
        if let Some(g) = self.plan.guards.iter().find(|g| g.var == v) {
            let test = match &g.check {
                Check::Range { lo, hi } => {
                    format!("x < {} || x > {}", printer::expr(&Self::int(*lo)), printer::expr(&Self::int(*hi)))
                }
                Check::EnumRange { lo, hi } => {
                    let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                    format!("x < rule.{} || x > rule.{}", self.member(e, *lo), self.member(e, *hi))
                }
            };
            let _ = writeln!(o, "\t\tif {test} {{\n\t\t\t{}\n\t\t}}", refuse("is out of range"));
        }
        if self.wrapped(v) {
            value = format!("rule.{}(x)", self.wrapper(v));
        }
        if optional {
            if value != "x" {
                let _ = writeln!(o, "\t\ty := {value}\n\t\t{field} = &y");
            } else {
                let _ = writeln!(o, "\t\t{field} = &x");
            }
        } else {
            let _ = writeln!(o, "\t\t{field} = {value}");
        }
        o.push_str("\t}\n");
    }
}

/// Lines `Name Type` of a struct, aligned as gofmt aligns them.
fn aligned(fields: Vec<(String, String)>) -> String {
    let width = fields.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
    fields.iter().map(|(n, t)| format!("\t{n}{} {t}\n", " ".repeat(width - n.chars().count()))).collect()
}

/// Whether an expression is an untyped constant in Go (it takes its type from where it goes).
fn is_untyped(c: &Code) -> bool {
    match c {
        Code::Int(_) | Code::Bool(_) | Code::Str(_) => true,
        Code::Neg(x) | Code::DivExact(x, _) => is_untyped(x),
        Code::Add(a, b) | Code::Sub(a, b) | Code::Mul(a, b) => is_untyped(a) && is_untyped(b),
        _ => false,
    }
}

fn collect_vars(c: &Code, out: &mut BTreeSet<VarId>) {
    match c {
        Code::Var(v) | Code::IsNone(v) => {
            out.insert(*v);
        }
        Code::Present(v, _) => {
            out.insert(*v);
        }
        _ => {}
    }
    for kid in c.children() {
        collect_vars(kid, out);
    }
}

// ---------------------------------------------------------------------------------------
// The helpers, written as gofmt writes them. The module carries the ones it calls; the
// helpers' runner carries all of them, held to the reference by vectors/_helpers.jsonl.

/// `n / d` rounded by one mode, exact for every int64 pair whose answer is an int64: Go's
/// `/` truncates toward zero, and the remainder it leaves says which way to move.
fn div_round(m: RoundMode) -> String {
    let (what, body) = match m {
        RoundMode::Down => ("toward zero, which is how Go's / rounds", "\treturn n / d\n"),
        RoundMode::Up => (
            "away from zero",
            "\tq, r := n/d, n%d\n\tif r == 0 {\n\t\treturn q\n\t}\n\tif (r < 0) != (d < 0) {\n\t\treturn q - 1\n\t}\n\treturn q + 1\n",
        ),
        RoundMode::Floor => (
            "toward -infinity",
            "\tq, r := n/d, n%d\n\tif r != 0 && (r < 0) != (d < 0) {\n\t\treturn q - 1\n\t}\n\treturn q\n",
        ),
        RoundMode::Ceiling => (
            "toward +infinity",
            "\tq, r := n/d, n%d\n\tif r != 0 && (r < 0) == (d < 0) {\n\t\treturn q + 1\n\t}\n\treturn q\n",
        ),
        RoundMode::HalfUp => ("to the nearest, ties away from zero", ""),
        RoundMode::HalfDown => ("to the nearest, ties toward zero", ""),
        RoundMode::HalfEven => ("to the nearest, ties to even", ""),
    };
    let body = if body.is_empty() {
        let away = match m {
            RoundMode::HalfUp => "a >= rest",
            RoundMode::HalfDown => "a > rest",
            _ => "a > rest || (a == rest && q%2 != 0)",
        };
        format!(
            "\tq, r := n/d, n%d\n\tif r == 0 {{\n\t\treturn q\n\t}}\n\t// The quotient lies between q and q+s, a/|d| of the way to q+s.\n\ts := int64(1)\n\tif (r < 0) != (d < 0) {{\n\t\ts = -1\n\t}}\n\ta := r\n\tif a < 0 {{\n\t\ta = -a\n\t}}\n\tvar rest int64\n\tif d > 0 {{\n\t\trest = d - a\n\t}} else {{\n\t\trest = -(d + a)\n\t}}\n\tif {away} {{\n\t\treturn q + s\n\t}}\n\treturn q\n"
        )
    } else {
        body.to_string()
    };
    format!(
        "// {} returns n / d rounded {what} (d != 0; the proof, E132, rules out a zero divisor).\nfunc {}(n, d int64) int64 {{\n{body}}}\n\n",
        mode_fn(m),
        mode_fn(m)
    )
}

const MOD_FLOOR: &str = "// modFloor returns the remainder of a by b from zero up: 0 <= r < |b|.\nfunc modFloor(a, b int64) int64 {\n\tr := a % b\n\tif r < 0 {\n\t\tif b < 0 {\n\t\t\treturn r - b\n\t\t}\n\t\treturn r + b\n\t}\n\treturn r\n}\n\n";

const ISQRT: &str = "// isqrtInt returns the largest r with r*r <= x (x >= 0), by a binary search over whole numbers.\nfunc isqrtInt(x int64) int64 {\n\tlo, hi := int64(0), int64(3037000499)\n\tif x < hi {\n\t\thi = x\n\t}\n\tfor lo < hi {\n\t\tmid := lo + (hi-lo+1)/2\n\t\tif mid*mid <= x {\n\t\t\tlo = mid\n\t\t} else {\n\t\t\thi = mid - 1\n\t\t}\n\t}\n\treturn lo\n}\n\n";

const ERRORS: &str = r#"// RuleInputError says the caller broke the contract: a value outside its declared range,
// or not a value of its enum, or a constraint that does not hold. Fix the call site.
type RuleInputError struct {
	What     string
	Value    int64
	HasValue bool
}

func (e *RuleInputError) Error() string {
	if e.HasValue {
		return fmt.Sprintf("%s: %d", e.What, e.Value)
	}
	return e.What
}

// RuleContradictionError says two rows the checker could not prove apart both matched.
// It is never the caller's fault: fix the rule.
type RuleContradictionError struct {
	What string
}

func (e *RuleContradictionError) Error() string {
	return e.What
}

// Fired is a row that matched: the table's name and the row's number as written (from 1).
type Fired struct {
	Table string
	Row   int
}

"#;

const APPEND_INT: &str = r#"// appendInt appends n in decimal.
func appendInt(b []byte, n int64) []byte {
	u := uint64(n)
	if n < 0 {
		b = append(b, '-')
		u = -u
	}
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return append(b, digits[i:]...)
}

"#;

const APPEND_JSON_STRING: &str = r#"// appendJSONString appends s as a JSON string: " and \ escaped, control characters as
// escapes, everything else as its UTF-8.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

"#;

const APPEND_BOOL: &str = r#"// appendBool appends true or false.
func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

"#;

const APPEND_DATE: &str = r#"// appendDate appends a day number (days since 1970-01-01) as YYYY-MM-DD, proleptic Gregorian.
func appendDate(b []byte, days int64) []byte {
	z := days + 719468
	era := z / 146097
	if z%146097 < 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	return append(b, fmt.Sprintf("%04d-%02d-%02d", y, m, d)...)
}

"#;

const RUNNER_IMPORTS: &str = "package main\n\nimport (\n\t\"bufio\"\n\t\"bytes\"\n\t\"encoding/json\"\n\t\"io\"\n\t\"os\"\n\t\"strconv\"\n\t\"strings\"\n";

const RUNNER_MAIN: &str = r#"func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := in.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		out.WriteString(call(line))
		out.WriteByte('\n')
	}
}

// refusal is the line printed in the place of a record.
func refusal(kind, what string) string {
	return `{"refused":"` + kind + `","error":` + jsonString(what) + "}"
}

"#;

const RUNNER_JSON: &str = r#"// fields is one JSON object: its keys in the order they first appear, the last value of each.
type fields struct {
	keys []string
	vals map[string]json.RawMessage
}

// object reads exactly one JSON object, keeping every value as its text.
func object(data []byte) (fields, bool) {
	f := fields{vals: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return f, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return f, false
		}
		k, ok := t.(string)
		if !ok {
			return f, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return f, false
		}
		if _, seen := f.vals[k]; !seen {
			f.keys = append(f.keys, k)
		}
		f.vals[k] = raw
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return f, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return f, false
	}
	return f, true
}

// parseCall reads a vectors line's in object (or, for a line without one, the line itself).
func parseCall(line string) (fields, bool) {
	top, ok := object([]byte(line))
	if !ok {
		return top, false
	}
	if raw, has := top.vals["in"]; has {
		return object(raw)
	}
	return top, true
}

// value is the raw text of a key, and what kind of JSON value it is: 0 when the key is not
// there, else the value's first byte ('n' null, 't'/'f' a boolean, '"' a string, '{' or '['
// a container, anything else a number).
func value(obj fields, key string) (json.RawMessage, byte) {
	raw, has := obj.vals[key]
	if !has {
		return nil, 0
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw, 'n'
	}
	return raw, raw[0]
}

// absent says whether a key holds no value, and the refusal when that is not allowed.
func absent(kind byte, key string, optional bool) (bool, string) {
	if kind == 0 || kind == 'n' {
		if optional {
			return true, ""
		}
		return true, key + " is missing"
	}
	return false, ""
}

func readBool(obj fields, key string, optional bool) (bool, bool, string) {
	raw, kind := value(obj, key)
	if none, why := absent(kind, key, optional); none {
		return false, false, why
	}
	switch string(raw) {
	case "true":
		return true, true, ""
	case "false":
		return false, true, ""
	}
	return false, false, key + " is not a boolean"
}

func readText(obj fields, key string, optional bool, wrong string) (string, bool, string) {
	raw, kind := value(obj, key)
	if none, why := absent(kind, key, optional); none {
		return "", false, why
	}
	var s string
	if kind != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false, key + wrong
	}
	return s, true, ""
}

func readString(obj fields, key string, optional bool) (string, bool, string) {
	return readText(obj, key, optional, " is not a string")
}

func readEnum(obj fields, key string, optional bool, enum string) (string, bool, string) {
	return readText(obj, key, optional, " is not a value of enum "+enum)
}

// readNumber reads a whole number exactly, from the digits and the exponent: 1e3 and
// 1000.0 are 1000, 1000.5 is not an integer, and a whole number past int64 is out of range.
func readNumber(obj fields, key string, optional bool) (int64, bool, string) {
	raw, kind := value(obj, key)
	if none, why := absent(kind, key, optional); none {
		return 0, false, why
	}
	if kind == 't' || kind == 'f' || kind == '"' || kind == '{' || kind == '[' {
		return 0, false, key + " is not an integer"
	}
	n, whole, fits := wholeNumber(string(raw))
	switch {
	case !whole:
		return 0, false, key + " is not an integer"
	case !fits:
		return 0, false, key + " is out of range"
	}
	return n, true, ""
}

// wholeNumber works a JSON number's text out exactly: whether it is a whole number, and
// whether that number fits in an int64.
func wholeNumber(text string) (n int64, whole, fits bool) {
	neg := strings.HasPrefix(text, "-")
	body := strings.TrimPrefix(text, "-")
	mantissa, exp := body, int64(0)
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		mantissa = body[:i]
		e := body[i+1:]
		parsed, err := strconv.ParseInt(strings.TrimPrefix(e, "+"), 10, 64)
		if err != nil {
			// An exponent too wide for int64 is too wide for any value but zero.
			parsed = 1 << 40
			if strings.HasPrefix(e, "-") {
				parsed = -parsed
			}
		}
		exp = parsed
	}
	if exp > 1<<40 {
		exp = 1 << 40
	} else if exp < -(1 << 40) {
		exp = -(1 << 40)
	}
	ip, fp := mantissa, ""
	if i := strings.IndexByte(mantissa, '.'); i >= 0 {
		ip, fp = mantissa[:i], mantissa[i+1:]
	}
	all := ip + fp
	significant := strings.TrimRight(all, "0")
	scale := exp + int64(len(all)-len(significant)) - int64(len(fp))
	significant = strings.TrimLeft(significant, "0")
	if significant == "" {
		return 0, true, true
	}
	if scale < 0 {
		return 0, false, false
	}
	if int64(len(significant))+scale > 19 {
		return 0, true, false
	}
	u, err := strconv.ParseUint(significant, 10, 64)
	if err != nil {
		return 0, true, false
	}
	for ; scale > 0; scale-- {
		u *= 10
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true, true
	case !neg && u < 1<<63:
		return int64(u), true, true
	}
	return 0, true, false
}

// jsonString writes s as a JSON string, escaped the way the reference escapes it.
func jsonString(s string) string {
	const hex = "0123456789abcdef"
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}

"#;

const RUNNER_DATE: &str = r#"// readDate reads "YYYY-MM-DD" as a day number (days since 1970-01-01), when the calendar
// has that day.
func readDate(obj fields, key string, optional bool) (int64, bool, string) {
	s, has, why := readText(obj, key, optional, " is not a date")
	if !has {
		return 0, false, why
	}
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false, key + " is not a date"
	}
	num := func(part string) int64 {
		n := int64(0)
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return -1
			}
			n = n*10 + int64(part[i]-'0')
		}
		return n
	}
	y, m, d := num(s[0:4]), num(s[5:7]), num(s[8:10])
	if y < 0 || m < 1 || m > 12 || d < 1 {
		return 0, false, key + " is not a date"
	}
	leap := (y%4 == 0 && y%100 != 0) || y%400 == 0
	days := [12]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if leap {
		days[1] = 29
	}
	if d > days[m-1] {
		return 0, false, key + " is not a date"
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := m + 9
	if m > 2 {
		mp = m - 3
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true, ""
}
"#;

/// The runner of the helpers' unit vectors: every helper a module may carry, each case
/// `{"op":…,"a":"…","b":"…"}` answered `{"result":"…"}`.
fn helpers_runner() -> String {
    let mut o = String::from("// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Go, held to the reference (vectors/_helpers.jsonl).\n// The go command skips a file whose name starts with _: build a copy of it.\n\npackage main\n\nimport (\n\t\"bufio\"\n\t\"encoding/json\"\n\t\"os\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n");
    o.push_str("func main() {\n\tin := bufio.NewScanner(os.Stdin)\n\tout := bufio.NewWriter(os.Stdout)\n\tdefer out.Flush()\n\tfor in.Scan() {\n\t\tline := in.Text()\n\t\tif strings.TrimSpace(line) == \"\" {\n\t\t\tcontinue\n\t\t}\n\t\tvar c struct {\n\t\t\tOp string `json:\"op\"`\n\t\t\tA  string `json:\"a\"`\n\t\t\tB  string `json:\"b\"`\n\t\t}\n\t\tif err := json.Unmarshal([]byte(line), &c); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\ta, err := strconv.ParseInt(c.A, 10, 64)\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tb, err := strconv.ParseInt(c.B, 10, 64)\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tvar r int64\n\t\tswitch c.Op {\n");
    for m in RoundMode::ALL {
        let _ = writeln!(o, "\t\tcase \"quot_{}\":\n\t\t\tr = {}(a, b)", m.as_str(), mode_fn(m));
    }
    o.push_str("\t\tcase \"mod\":\n\t\t\tr = modFloor(a, b)\n\t\tcase \"isqrt\":\n\t\t\tr = isqrtInt(a)\n\t\tdefault:\n\t\t\tpanic(\"unknown helper \" + c.Op)\n\t\t}\n\t\tout.WriteString(`{\"result\":\"` + strconv.FormatInt(r, 10) + \"\\\"}\\n\")\n\t}\n}\n\n");
    for m in RoundMode::ALL {
        o.push_str(&div_round(m));
    }
    o.push_str(MOD_FLOOR);
    o.push_str(ISQRT);
    while o.ends_with("\n\n") {
        o.pop();
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of small numbers (no dependency for randomness).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random(r: &mut Lcg, depth: usize) -> G {
        if depth == 0 {
            return match r.next(5) {
                0 => Gen::int(-(r.next(20) as i64)),
                1 => G::Star(Box::new(atom("p"))),
                2 => atom(r.next(100).to_string()),
                _ => atom(["a", "b", "in.X", "CouponKindFixed"][r.next(4) as usize]),
            };
        }
        const OPS: [&str; 12] = ["||", "&&", "==", "!=", "<", ">=", "+", "-", "*", "/", "+", "*"];
        match r.next(10) {
            0 => unary("-", random(r, depth - 1)),
            1 => not(random(r, depth - 1)),
            2 => {
                let n = 1 + r.next(3) as usize;
                G::Call("f".into(), (0..n).map(|_| random(r, depth - 1)).collect())
            }
            _ => bin(OPS[r.next(OPS.len() as u64) as usize], random(r, depth - 1), random(r, depth - 1)),
        }
    }

    /// The port of go/printer agrees with gofmt: random expressions, printed where the
    /// generated code prints them (an assignment, an `if`, a call's arguments, a composite
    /// literal), come back from `gofmt -d` unchanged. Skipped without gofmt. GOFMT_FUZZ and
    /// GOFMT_SEED run more of them, or others.
    #[test]
    fn expressions_print_as_gofmt_prints_them() {
        if std::process::Command::new("gofmt").arg("-h").output().is_err() {
            eprintln!("note: gofmt is not on PATH; the printer is not compared with it");
            return;
        }
        let mut r = Lcg(std::env::var("GOFMT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7));
        let mut src = String::from("package p\n\nfunc g() {\n");
        let n: usize = std::env::var("GOFMT_FUZZ").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
        for i in 0..n {
            let e = random(&mut r, 1 + i % 5);
            match i % 4 {
                0 => src.push_str(&format!("\tx = {}\n", printer::expr(&e))),
                1 => src.push_str(&format!("\tif {} {{\n\t\tx = 1\n\t}}\n", cond(e))),
                2 => src
                    .push_str(&format!("\tx = {}\n", printer::expr(&G::Call("h".into(), vec![e, random(&mut r, 2)])))),
                _ => src.push_str(&format!("\tx = T{{A: {}, B: 1}}\n", printer::expr(&e))),
            }
        }
        src.push_str("}\n");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.go");
        std::fs::write(&file, &src).unwrap();
        let out = std::process::Command::new("gofmt").arg("-d").arg(&file).output().unwrap();
        assert!(out.status.success(), "gofmt: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "gofmt would change:\n{}", String::from_utf8_lossy(&out.stdout));
    }

    #[test]
    fn package_names() {
        assert_eq!(package_name("single_coupon"), "singlecoupon");
        assert_eq!(package_name("default_"), "defaultrule");
        assert_eq!(package_name("main"), "mainrule");
        assert_eq!(package_name("_2024"), "rule2024");
        assert_eq!(module_path("parcel_rate"), "rulec/parcelrate");
    }
}
