//! The Go backend (generated-code.md, Go): it spells the plan. A package per rule
//! (`go/<package>/`, its own go.mod naming only itself): a defined type per unit, `Date`,
//! enums as integer types whose values start at 1 (the zero value is no value, and a call
//! that leaves one out is refused as missing) with `Valid()`, `String()` and `ParseXxx`,
//! `*RuleInputError` / `*RuleContradictionError`, `Fired`, the `Input` struct and `Output`;
//! the function, its traced twin and the wire door over one function holding the branches;
//! the record function; only the helpers the rule calls; and a runner (`cmd/runner`) that
//! `go build` alone compiles with GOPROXY=off. The fixed text is in `runtime/`.
//!
//! The package imports `fmt` and nothing else. rulec formats its own output: every
//! expression is printed the way gofmt prints it ([`gofmt`] ports go/printer's spacing of
//! binary expressions), so `gofmt -l` finds nothing without gofmt ever running.

use super::api::{ErrorType, ErrorTypes, Member, Spelling};
use super::naming;
use super::plan::{BoundaryTy, Expr, InputDoor, Kind, Node, TablePlan};
use super::printer::{camel_div_round, Cond, Extremes, Form, Ops, Order, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{self, Blocks, Refusal, Refusals, Switch};
use super::text::{comment, quoted, section, Code, Escapes};
use super::walk::{self, Check, Hooks, Source};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
use crate::num::RoundMode;
use crate::sema::VarId;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

const MODULE: &str = include_str!("runtime/module.go");
const RUNNER: &str = include_str!("runtime/runner.go");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.go");
/// What starts a section of a runtime file.
const MARK: &str = "// rulec:";

/// Go's types: int64 inside the functions, a unit its defined type, a pointer when optional.
const TYPES: Types = Types { units: true, date: Some("Date"), ..Types::plain("bool", "string", "int64", "*@") };

/// An enum: its type, its values from 1, `Valid`, `String` and the parser back from a name.
const ENUM: &str = "// {name} is the enum {what}{ordered}: one of the constants below, which start at 1, so
// the zero value is no value (a call that leaves it is refused as missing).
type {name} int

// The values of {name}, in the order the rule declares them.
const (
\t{members}
)

// Valid reports whether x is one of the values of {name}.
func (x {name}) Valid() bool {
\treturn x >= {first} && x <= {last}
}

// String returns the value's name, the way the wire and the records write it.
func (x {name}) String() string {
\tswitch x {
\t{to_name}
\t}
\treturn fmt.Sprintf({unnamed}, int(x))
}

// {parse} reads a value's name back; false when it names no value of {name}.
func {parse}(s string) ({name}, bool) {
\tswitch s {
\t{from_name}
\t}
\treturn 0, false
}";

pub struct Go;

/// The module path of a rule's package (its go.mod names nothing else).
fn module_path(package: &str) -> String {
    format!("rulec/{package}")
}

impl Language for Go {
    const SPEC: Spec = Spec::new(Lang::Go, "go", OPS, TYPES);

    /// A package per rule: its folder holds its go.mod, the module and the runner's own
    /// package.
    fn files(g: &Spell, _: &Unit) -> Vec<File> {
        let pkg = &g.n.module;
        let [module, runner, helpers_runner] = Self::code(g);
        vec![
            File { path: format!("{pkg}/go.mod"), text: format!("module {}\n\ngo 1.18\n", module_path(pkg)) },
            File { path: format!("{pkg}/{pkg}.go"), text: module },
            File { path: format!("{pkg}/cmd/runner/main.go"), text: runner },
            File { path: format!("_helpers_runner.{}", Self::SPEC.ext), text: helpers_runner },
        ]
    }

    fn code(g: &Spell) -> [String; 3] {
        [g.module(), g.runner(), helpers_runner()]
    }

    /// Built with `go build` alone, with GOPROXY=off: a package that needed anything outside
    /// the standard library would not build. Each runner lands in its own package's folder,
    /// so the rules of one folder build side by side. The `_helpers` runner is one file
    /// outside any module (the go command skips a file whose name starts with `_`, so it is
    /// copied first).
    fn runner(base: &str) -> Runner {
        let env = "GO111MODULE=on GOWORK=off GOPROXY=off";
        let (build, run) = if base == "_helpers" {
            (
                format!("cp _helpers_runner.go helpers_runner_main.go && {env} go build -o helpers_runner helpers_runner_main.go"),
                "./helpers_runner".to_string(),
            )
        } else {
            // A package name is letters and digits: nothing to quote.
            let pkg = naming::module_name(Lang::Go, base);
            (format!("cd {pkg} && {env} go build -o runner ./cmd/runner"), format!("./{pkg}/runner"))
        };
        Runner { needs: vec!["go", "sh"], build: vec![vec!["sh".into(), "-c".into(), build]], run: vec![run] }
    }

    fn api(g: &Spell, _: &Unit) -> Json {
        let (plan, names) = (g.plan, g.n);
        let spell = Spelling { names, ty: &|v| g.field_type(v), member: Member::Bare };
        let ret = g.returns();
        let mut m = spell.entry(plan, &ret);
        let with_field = |mut x: Json, v: VarId| {
            x["field"] = json!(names.fields[v]);
            x
        };
        let params: Vec<Json> =
            plan.inputs.iter().map(|&v| with_field(spell.param(plan, v, &names.vars[v]), v)).collect();
        let mut outputs: Vec<Json> = spell.outputs(plan).as_array().cloned().unwrap_or_default();
        if plan.outputs.len() > 1 {
            outputs = outputs.into_iter().zip(&plan.outputs).map(|(x, &v)| with_field(x, v)).collect();
        }
        let enums = spell.enums(plan);
        let pkg = &names.module;
        let (f, traced, record, wire) = (&names.function, &names.traced, &names.record, &names.wire);
        m.insert("package".into(), json!(pkg));
        m.insert("module".into(), json!(format!("{pkg}/{pkg}.go")));
        m.insert("module_path".into(), json!(module_path(pkg)));
        m.insert("runner".into(), json!(format!("{pkg}/cmd/runner/main.go")));
        m.insert("build".into(), json!("GOPROXY=off go build -o runner ./cmd/runner"));
        m.insert("func".into(), json!(f));
        m.insert("signature".into(), json!(format!("func {f}(in Input) ({ret}, error)")));
        m.insert("traced_signature".into(), json!(format!("func {traced}(in Input) ({ret}, []Fired, error)")));
        m.insert(
            "record_signature".into(),
            json!(format!("func {record}(in Input, out {ret}, trace []Fired, tag string) string")),
        );
        m.insert("wire_signature".into(), json!(format!("func {wire}({}) (string, error)", g.wire_params())));
        m.insert("input_type".into(), json!("Input"));
        m.insert("input_fields".into(), json!(params));
        m.insert("params".into(), json!(params));
        m.insert("output_type".into(), json!(ret));
        m.insert("output_fields".into(), json!(outputs));
        m.insert("outputs".into(), json!(outputs));
        m.insert("enums".into(), enums);
        if plan.dates {
            // Go's own date type is time.Time, which would take an import: the day number
            // and the wire string are the two ways in.
            m.insert("dates".into(), json!({"type": "Date", "from_wire": "ParseDate"}));
        }
        m.insert("errors".into(), json!(["*RuleInputError", "*RuleContradictionError"]));
        let error_types = ErrorTypes {
            input: ErrorType { name: "*RuleInputError", fields: &["What", "Value", "HasValue"] },
            contradiction: ErrorType { name: "*RuleContradictionError", fields: &["What"] },
        };
        m.insert("error_types".into(), error_types.to_json());
        Json::Object(m)
    }
}

/// A Go string literal: raw (between backquotes) where the text allows and saves escapes,
/// else interpreted.
fn go_str(s: &str) -> String {
    /// What an interpreted literal writes by its code point (and a raw one cannot hold).
    fn unprintable(c: char) -> bool {
        c == '\u{feff}' || (c as u32) < 0x20 || c == '\u{7f}'
    }
    if !s.contains(|c| c == '`' || unprintable(c)) && s.contains(['"', '\\']) {
        return format!("`{s}`");
    }
    const GO: Escapes = Escapes {
        escaped: unprintable,
        ..Escapes::c_family(|c| if c == 0xfeff { "\\ufeff".into() } else { format!("\\x{c:02x}") })
    };
    quoted(s, &GO)
}

/// Go's spellings, with the precedences as the spec numbers them (Go has no conditional
/// expression).
const OPS: Ops = Ops {
    prec: Prec { cond: TOP, or: 1, and: 2, eq: 3, rel: 3, add: 4, mul: 5, not: 6, neg: 6 },
    absent: "nil",
    member: None,
    div_round: camel_div_round,
    modulo: "modFloor",
    isqrt: "isqrtInt",
    extremes: Extremes::Pairs { num: ["minInt", "maxInt"], enums: ["minEnum", "maxEnum"], ranked: false },
    cond: Cond::Own,
    order: Order::Native,
    ..Ops::c_family(go_str)
};

/// Text after its first line indented `depth` more: a function literal put inside a line.
fn indent_rest(s: &str, depth: usize) -> String {
    s.replace('\n', &format!("\n{}", "\t".repeat(depth)))
}

/// Lines of text, each at the writer's depth.
fn emit(o: &mut Code, s: &str) {
    for line in s.split('\n') {
        o.line(line);
    }
}

/// What the backend spells with: the plan and the names.
type Spell<'a> = Gen<'a, Go>;

/// The record function (`stmt::record_function`) around its pieces: the runtime's `recordOpen` and `recordClose`.
/// The comment, which starts with the function's name, comes with the signature; the
/// parameters keep their names (the record reads the rule's values through `in` and `out`).
const RECORD: &str = "{signature}
\tb := recordOpen(tag)
\t{pieces}
\treturn recordClose(b, trace)
}";

impl Syntax for Spell<'_> {
    /// gofmt's layout: the parentheses from the precedences, the blanks from go/printer.
    fn print(&self, e: &Expr, min: u8) -> String {
        gofmt::expr(&self.ast(e, min))
    }

    fn own(&self, e: &Expr) -> Option<Form> {
        match &e.node {
            // An optional is a pointer: an expression reads the value it holds (a row or a
            // define that stores one optional in another copies the pointer, see `store`).
            Node::Var(v) if self.plan.var(*v).optional => {
                Some(Form::Leaf(format!("*{}", self.n.vars[*v]), OPS.prec.neg))
            }
            Node::If(..) => Some(Form::Leaf(self.func_lit(e), ATOM)),
            _ => None,
        }
    }
}

impl Spell<'_> {
    /// `e` as go/printer sees it, parenthesized when it binds more loosely than `min`, and
    /// where a reader wants it: `&&` under `||`, a comparison under a comparison.
    fn ast(&self, e: &Expr, min: u8) -> gofmt::Ast {
        use gofmt::Ast;
        let kids = e.children();
        let (ast, prec) = match self.form(e) {
            Form::Leaf(t, p) => (Ast::leaf(t), p),
            Form::Prefix(op, p) => (Ast::Unary(op, Box::new(self.ast(kids[0], p + 1))), p),
            Form::Infix(op, p) => (self.bin(op, self.ast(kids[0], p), self.ast(kids[1], p + 1)), p),
            Form::Call(f) => (Ast::Call(f, kids.iter().map(|k| self.ast(k, 0)).collect()), ATOM),
            Form::Alias(x) => return self.ast(&x, min),
            Form::Parts(parts, p) => match parts.as_slice() {
                [l, Part::Text(op), r] => {
                    let side = |part: &Part| match part {
                        Part::Kid(i, q) => self.ast(kids[*i], *q),
                        Part::Expr(x, q) => self.ast(x, *q),
                        Part::Text(t) => Ast::leaf(t.clone()),
                    };
                    (self.bin(op.trim().to_string(), side(l), side(r)), p)
                }
                _ => unreachable!("a Go form is a leaf, an operator, a call or another expression"),
            },
        };
        if prec < min {
            Ast::Paren(Box::new(ast))
        } else {
            ast
        }
    }

    fn bin(&self, op: String, l: gofmt::Ast, r: gofmt::Ast) -> gofmt::Ast {
        use gofmt::Ast;
        let cmp = |o: &str| matches!(o, "==" | "!=" | "<" | "<=" | ">" | ">=");
        let wrap = |x: Ast| match &x {
            Ast::Bin(o, ..) if (op == "||" && o == "&&") || (cmp(&op) && cmp(o)) => Ast::Paren(Box::new(x)),
            _ => x,
        };
        Ast::Bin(op.clone(), Box::new(wrap(l)), Box::new(wrap(r)))
    }

    /// An `if … then … else` inside an expression: a function literal called on the spot,
    /// so only the branch taken is evaluated (Go has no conditional expression).
    fn func_lit(&self, e: &Expr) -> String {
        let mut o = format!("func() {} {{\n", self.kind_type(e.kind));
        let mut cur = e;
        while let Node::If(c, a, b) = &cur.node {
            o.push_str(&format!("\tif {} {{\n", indent_rest(&self.top(c), 1)));
            o.push_str(&format!("\t\treturn {}\n\t}}\n", indent_rest(&self.top(a), 2)));
            cur = b;
        }
        o.push_str(&format!("\treturn {}\n}}()", indent_rest(&self.top(cur), 1)));
        o
    }

    fn base_type(&self, ty: BoundaryTy) -> String {
        match ty {
            BoundaryTy::Bool => "bool".into(),
            BoundaryTy::Str => "string".into(),
            BoundaryTy::Int => "int64".into(),
            BoundaryTy::Date => "Date".into(),
            BoundaryTy::Enum(e) => self.n.enums[e].clone(),
            BoundaryTy::Unit(u) => self.n.units[u].clone(),
        }
    }

    /// The type of a field of `Input` or `Output` (a pointer when optional).
    fn field_type(&self, v: VarId) -> String {
        TYPES.boundary(self.plan, self.n, v)
    }

    fn kind_type(&self, k: Kind) -> String {
        match k {
            Kind::Num => "int64".into(),
            Kind::Bool => "bool".into(),
            Kind::Str => "string".into(),
            Kind::Enum(e) => self.n.enums[e].clone(),
        }
    }

    /// Whether the field's type is a defined type over the local's int64.
    fn converted(&self, v: VarId) -> bool {
        matches!(self.plan.var(v).ty, BoundaryTy::Unit(_) | BoundaryTy::Date)
    }

    /// A field's value as the functions hold it (a pointer converts without a copy).
    fn to_local(&self, v: VarId, x: &str) -> String {
        match (self.converted(v), self.plan.var(v).optional) {
            (true, true) => format!("(*int64)({x})"),
            (true, false) => format!("int64({x})"),
            (false, _) => x.to_string(),
        }
    }

    /// A local's value as the field of its type.
    fn to_field(&self, v: VarId, x: &str) -> String {
        let ty = self.base_type(self.plan.var(v).ty);
        match (self.converted(v), self.plan.var(v).optional) {
            (true, true) => format!("(*{ty})({x})"),
            (true, false) => format!("{ty}({x})"),
            (false, _) => x.to_string(),
        }
    }

    /// The value returned beside an error.
    fn zero(&self) -> String {
        match self.plan.outputs.as_slice() {
            [one] => {
                let var = self.plan.var(*one);
                match var.ty {
                    _ if var.optional => "nil".into(),
                    BoundaryTy::Bool => "false".into(),
                    BoundaryTy::Str => "\"\"".into(),
                    _ => "0".into(),
                }
            }
            _ => "Output{}".into(),
        }
    }

    fn rows_type(&self) -> String {
        format!("[{}]int", self.n.slots.len())
    }

    /// The spelling of the generated code's own local `base` (src/lang/naming.rs `locals`): the wire
    /// door's and the core's, which share their scope with the rule's values. The other
    /// functions hold none of them and keep the plain names.
    fn l(&self, base: &str) -> &str {
        self.n.local(base)
    }

    fn wire_params(&self) -> String {
        format!("{} map[string]any, {} string, {} ...string", self.l("call"), self.l("tag"), self.l("keys"))
    }

    /// The `Fired` list of a call whose rows are `rows`.
    fn fired(&self, rows: &str) -> String {
        sig::fired(self.plan, rows, "[]Fired{@}", |table, row| format!("{{Table: {}, Row: {row}}}", go_str(table)))
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("\t");
        o.raw(&sig::head(plan, "//"));
        o.blank();
        o.line(format!(
            "// Package {} is the rule {} (version {}): call {}, or {} for the rows that matched too.",
            n.module,
            comment(&plan.rule.name),
            plan.rule.version,
            n.function,
            n.traced
        ));
        o.line(format!("package {}", n.module));
        o.blank();
        o.line("import \"fmt\"");
        o.blank();
        for (u, name) in plan.units.iter().zip(&n.units) {
            o.line(format!("// {name} is {}: a whole number of its unit.", comment(&u.what)));
            o.line(format!("type {name} int64"));
            o.blank();
        }
        if plan.dates {
            sig::sections(&mut o, MODULE, MARK, &["date"], "\n\n");
        }
        self.enums(&mut o);
        sig::sections(&mut o, MODULE, MARK, &["errors"], "\n\n");
        o.line("// Input holds the rule's inputs, in the order it declares them.");
        self.strukt(&mut o, "Input", &plan.inputs);
        if plan.outputs.len() > 1 {
            o.line("// Output holds the rule's outputs, in the order it declares them.");
            self.strukt(&mut o, "Output", &plan.outputs);
        }
        self.functions(&mut o);
        let signature = format!(
            "// {r} writes one call as a fixtures record (formats.md), the line rulec replay reads; an\n// empty tag is left out.\nfunc {r}(in Input, out {}, trace []Fired, tag string) string {{",
            self.returns(),
            r = n.record
        );
        let mut body = Body { g: self, o: &mut o, at: At::Core, read: BTreeSet::new() };
        stmt::record_function(plan, &mut body, RECORD, &signature);
        sig::sections(&mut o, MODULE, MARK, &sig::taken(plan, &OPS, MODULE, MARK), "\n\n");
        o.finish()
    }

    /// A struct of fields `Name Type`, aligned as gofmt aligns them.
    fn strukt(&self, o: &mut Code, name: &str, vars: &[VarId]) {
        let fields: Vec<(&str, String)> =
            vars.iter().map(|&v| (self.n.fields[v].as_str(), self.field_type(v))).collect();
        let width = fields.iter().map(|(f, _)| f.chars().count()).max().unwrap_or(0);
        o.line(format!("type {name} struct {{"));
        o.indent();
        for (f, ty) in &fields {
            o.line(format!("{f}{} {ty}", " ".repeat(width - f.chars().count())));
        }
        o.close("}");
        o.blank();
    }

    fn enums(&self, o: &mut Code) {
        for (e, en) in self.plan.enums.iter().enumerate() {
            let (name, members) = (&self.n.enums[e], &self.n.members[e]);
            let parse = self.n.parsers[e].as_deref().expect("Go names a parser per enum");
            let each = |line: &dyn Fn(&str, &str) -> String| -> String {
                members.iter().zip(&en.values).map(|(m, v)| line(m, &go_str(&v.name))).collect::<Vec<_>>().join("\n")
            };
            let fills = [
                ("name", name.clone()),
                ("what", comment(&en.name)),
                ("ordered", if en.ordered { " (ordered: a value compares by its place)" } else { "" }.to_string()),
                (
                    "members",
                    format!("{} {name} = iota + 1\n{}", members[0], members[1..].join("\n")).trim_end().to_string(),
                ),
                ("first", members[0].clone()),
                ("last", members[members.len() - 1].clone()),
                ("to_name", each(&|m, wire| format!("case {m}:\n\treturn {wire}"))),
                ("unnamed", go_str(&format!("{name}(%d)"))),
                ("parse", parse.to_string()),
                ("from_name", each(&|m, wire| format!("case {wire}:\n\treturn {m}, true"))),
            ];
            o.filled(ENUM, &fills);
            o.blank();
        }
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let ret = self.returns();
        let names = |vs: &[VarId]| -> String {
            let all: Vec<String> = vs.iter().map(|&v| comment(&plan.var(v).name)).collect();
            if all.is_empty() {
                "nothing".into()
            } else {
                all.join(", ")
            }
        };
        let (f, core) = (&n.function, &n.core);
        let tables = !n.slots.is_empty();
        o.line(format!("// {f} decides {} from {}.", names(&plan.outputs), names(&plan.inputs)));
        o.line(format!("func {f}(in Input) ({ret}, error) {{"));
        o.line(format!("\tout, _, err := {core}(in)"));
        o.line("\treturn out, err");
        o.line("}");
        o.blank();
        o.line(format!(
            "// {} is the same call, with the rows that matched: one per table, in evaluation order.",
            n.traced
        ));
        o.line(format!("func {}(in Input) ({ret}, []Fired, error) {{", n.traced));
        o.line(format!("\tout, {}, err := {core}(in)", if tables { "rows" } else { "_" }));
        o.line("\tif err != nil {");
        o.line("\t\treturn out, nil, err");
        o.line("\t}");
        o.line(format!("\treturn out, {}, nil", self.fired("rows")));
        o.line("}");
        o.blank();
        self.wire(o);
        o.line(format!(
            "// {core} holds the rule's branches, written once: the outputs, and the row each table matched."
        ));
        let input = self.l("in");
        o.line(format!("func {core}({input} Input) ({ret}, {}, error) {{", self.rows_type()));
        o.indent();
        for &v in &plan.inputs {
            o.line(format!("{} := {}", n.vars[v], self.to_local(v, &format!("{input}.{}", n.fields[v]))));
        }
        let mut body = Body { g: self, o, at: At::Core, read: BTreeSet::new() };
        walk::core(plan, Lang::Go, &mut body);
        let mut read = body.read;
        for e in plan.exprs() {
            read.extend(e.vars());
        }
        read.extend(plan.outputs.iter().copied());
        let declared = plan.inputs.iter().copied().chain(plan.steps.iter().flat_map(|s| match s {
            super::plan::Step::Define { var, .. } => vec![*var],
            super::plan::Step::Table(t) => t.results.clone(),
            _ => Vec::new(),
        }));
        for v in declared {
            if !read.contains(&v) {
                o.line(format!("_ = {}", n.vars[v]));
            }
        }
        let value = |v: VarId| self.to_field(v, &n.vars[v]);
        let out = match plan.outputs.as_slice() {
            [one] => value(*one),
            outs => format!(
                "Output{{{}}}",
                outs.iter().map(|&v| format!("{}: {}", n.fields[v], value(v))).collect::<Vec<_>>().join(", ")
            ),
        };
        o.line(format!("return {out}, {}{{{}}}, nil", self.rows_type(), n.slots.join(", ")));
        o.close("}");
        o.blank();
    }

    fn wire(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let w = &n.wire;
        o.line(format!("// {w} answers one call in the wire form (formats.md): an object of the inputs under their"));
        o.line("// declared names, as encoding/json decodes it with UseNumber. The door's checks run in the");
        o.line("// reference's order, then the rule; the answer is the record line. keys are the call's keys");
        o.line("// in the order it writes them, when the caller knows it: a key that is not an input is");
        o.line("// named as the first of them (else as the least).");
        o.line(format!("func {w}({}) (string, error) {{", self.wire_params()));
        o.indent();
        let mut body = Body { g: self, o, at: At::Wire, read: BTreeSet::new() };
        walk::wire(plan, &mut body);
        let o = body.o;
        let fields: Vec<String> =
            plan.inputs.iter().map(|&v| format!("{}: {}", n.fields[v], self.to_field(v, &n.vars[v]))).collect();
        let (input, out, rows, err) = (self.l("in"), self.l("out"), self.l("rows"), self.l("err"));
        o.line(format!("{input} := Input{{{}}}", fields.join(", ")));
        let tables = !n.slots.is_empty();
        o.line(format!("{out}, {}, {err} := {}({input})", if tables { rows } else { "_" }, n.core));
        o.line(format!("if {err} != nil {{"));
        o.line(format!("\treturn \"\", {err}"));
        o.line("}");
        o.line(format!("return {}({input}, {out}, {}, {}), nil", n.record, self.fired(rows), self.l("tag")));
        o.close("}");
        o.blank();
    }

    fn runner(&self) -> String {
        let template = format!(
            "// Build (in the package's folder): GOPROXY=off go build -o runner ./cmd/runner\n\n{}\n\n{}\n",
            section(RUNNER, MARK, "main"),
            section(MODULE, MARK, "append_json_string")
        );
        let not_an_object = go_str(&self.plan.door.not_an_object);
        let fills = [
            ("rulec/rulec_rule", module_path(&self.n.module)),
            ("rulec_wire", self.n.wire.clone()),
            ("\"rulec_not_an_object\"", not_an_object),
        ];
        let fills: Vec<(&str, &str)> = fills.iter().map(|(p, v)| (*p, v.as_str())).collect();
        sig::runner(self.plan, "//", "", &template, &fills)
    }
}

/// Where a refusal is returned from: the function holding the branches, or the wire door.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Core,
    Wire,
}

/// The walker's hooks: the statements of the function bodies.
struct Body<'a, 'b> {
    g: &'a Spell<'a>,
    o: &'b mut Code,
    at: At,
    /// The inputs the entry guard read.
    read: BTreeSet<VarId>,
}

impl Body<'_, '_> {
    /// `return …, err` from the function being written.
    fn fail(&self, err: String) -> String {
        match self.at {
            At::Core => format!("return {}, {}{{}}, {err}", self.g.zero(), self.g.rows_type()),
            At::Wire => format!("return \"\", {err}"),
        }
    }

    /// `x < lo || x > hi` of an input's range (over the values of an ordered enum).
    fn out_of_range(&self, input: &InputDoor, x: &str) -> Option<String> {
        let r = input.range.as_ref()?;
        let (lo, hi) = match input.kind {
            WireKind::Enum(e) => (self.g.member(Kind::Enum(e), r.lo as u32), self.g.member(Kind::Enum(e), r.hi as u32)),
            _ => (r.lo.to_string(), r.hi.to_string()),
        };
        Some(format!("{x} < {lo} || {x} > {hi}"))
    }

    /// A value stored into a declared local: through `new` for an optional (Go takes no
    /// address of a constant), as an `if` chain for an `if … then … else`.
    fn store(&mut self, v: VarId, value: &Expr) {
        let x = self.g.n.vars[v].clone();
        if let Node::If(c, a, b) = &value.node {
            emit(self.o, &format!("if {} {{", self.g.top(c)));
            self.o.indent();
            self.store(v, a);
            self.o.dedent();
            let mut rest: &Expr = b;
            while let Node::If(c, a, b) = &rest.node {
                emit(self.o, &format!("}} else if {} {{", self.g.top(c)));
                self.o.indent();
                self.store(v, a);
                self.o.dedent();
                rest = b;
            }
            self.o.line("} else {");
            self.o.indent();
            self.store(v, rest);
            self.o.close("}");
            return;
        }
        if !self.g.plan.var(v).optional {
            emit(self.o, &format!("{x} = {}", self.g.top(value)));
            return;
        }
        match &value.node {
            Node::Absent => self.o.line(format!("{x} = nil")),
            Node::Var(y) if self.g.plan.var(*y).optional => self.o.line(format!("{x} = {}", self.g.n.vars[*y])),
            _ => {
                self.o.line(format!("{x} = new({})", self.g.kind_type(self.g.plan.var(v).kind)));
                emit(self.o, &format!("*{x} = {}", self.g.top(value)));
            }
        }
    }
}

impl Hooks for Body<'_, '_> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        switch: Some(Switch { open: "switch @ {", case: "case @:", default: "default:", close: "", indent: false }),
        refuse: Refusals {
            input: "&RuleInputError{What: @, Value: $, HasValue: true}",
            input_alone: "&RuleInputError{What: @}",
            contradiction: "&RuleContradictionError{What: @}",
        },
        // A refused date is shown as a date: Go's `Date` prints `2025-12-31`.
        shown: ["@", "Date(@)", "@"],
        ..Blocks::BARE
    };

    fn refusal(&self, r: Refusal) -> String {
        self.fail(Self::BLOCKS.refuse.spell(r, &go_str))
    }

    fn guard_input(&mut self, input: &InputDoor, checks: &[Check]) {
        let x = self.g.n.vars[input.var].clone();
        self.read.insert(input.var);
        let (value, present) =
            if input.optional { (format!("*{x}"), format!("{x} != nil && ")) } else { (x.clone(), String::new()) };
        for check in checks {
            match check {
                // An enum's zero value is no value.
                Check::Missing => self.refuse_when(&format!("{x} == 0"), Refusal::Input(&input.missing, None)),
                Check::Kind => self
                    .refuse_when(&format!("{present}!{x}.Valid()"), Refusal::Input(&input.not_of_kind, Some(&value))),
                Check::Range => self.range_check(input),
            }
        }
    }

    fn assign(&mut self, var: VarId, value: &Expr) {
        self.store(var, value);
    }

    fn define(&mut self, var: VarId, value: &Expr) {
        let (g, x) = (self.g, self.g.n.vars[var].clone());
        self.o.line(format!("// define {}", comment(&g.plan.var(var).name)));
        if g.plan.var(var).optional || matches!(value.node, Node::If(..)) {
            self.o.line(format!("var {x} {}", g.local_ty(var)));
            self.store(var, value);
        } else if untyped(value) && value.kind == Kind::Num {
            emit(self.o, &format!("var {x} int64 = {}", self.g.top(value)));
        } else {
            emit(self.o, &format!("{x} := {}", self.g.top(value)));
        }
    }

    fn declare_slot(&mut self, t: &TablePlan) {
        self.o.line(format!("var {} int", self.g.n.slots[t.slot]));
    }

    fn declare(&mut self, var: VarId) {
        self.o.line(format!("var {} {}", self.g.n.vars[var], self.g.local_ty(var)));
    }

    fn wire_input(&mut self, input: &InputDoor) {
        let (g, x) = (self.g, self.g.n.vars[input.var].clone());
        let (m, k) = (go_str(&input.missing), go_str(&input.not_of_kind));
        let read = |from: &str| match input.kind {
            WireKind::Integer => {
                let past = &input.range.as_ref().expect("an integer input declares its range (E054)").sentence;
                format!("wireInt({from}, {m}, {k}, {})", go_str(past))
            }
            WireKind::Boolean => format!("wireBool({from}, {m}, {k})"),
            WireKind::Text => format!("wireText({from}, {m}, {k})"),
            WireKind::Date => format!("wireDay({from}, {m}, {k})"),
            WireKind::Enum(e) => {
                let parse = g.n.parsers[e].as_deref().expect("Go names a parser per enum");
                format!("wireMember({from}, {parse}, {m}, {k})")
            }
        };
        let key = go_str(&input.name);
        let (call, err, got, read_x) = (g.l("call"), g.l("err"), g.l("x"), g.l("v"));
        let check = |body: &mut Self, v: &str| {
            body.o.line(format!("if {err} != nil {{"));
            body.o.line(format!("\treturn \"\", {err}"));
            body.o.line("}");
            if let Some(test) = body.out_of_range(input, v) {
                let sentence = &input.range.as_ref().expect("a range").sentence;
                body.refuse_when(&test, Refusal::Input(sentence, Some(&shown(input, v))));
            }
        };
        if input.optional {
            self.o.line(format!("var {x} {}", g.local_ty(input.var)));
            self.o.line(format!("if {got} := {call}[{key}]; {got} != nil {{"));
            self.o.indent();
            self.o.line(format!("{read_x}, {err} := {}", read(got)));
            check(self, read_x);
            self.o.line(format!("{x} = &{read_x}"));
            self.o.close("}");
        } else {
            self.o.line(format!("{x}, {err} := {}", read(&format!("{call}[{key}]"))));
            check(self, &x);
        }
    }

    fn wire_unknown_keys(&mut self, names: &[&str], sentence: &str) {
        let inputs: Vec<String> = names.iter().map(|k| go_str(k)).collect();
        let (call, keys) = (self.g.l("call"), self.g.l("keys"));
        // `key` and `unknown` are the `if`'s own: its body reads nothing of the rule's.
        self.o.line(format!(
            "if key, unknown := unknownKey({call}, {keys}, []string{{{}}}); unknown {{",
            inputs.join(", ")
        ));
        self.o.line(format!("\treturn \"\", &RuleInputError{{What: key + {}}}", go_str(sentence)));
        self.o.line("}");
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("b = append(b, {}...)", go_str(json)));
    }

    fn record_value(&mut self, var: VarId, from: Source) {
        let (g, n) = (self.g, self.g.n);
        let x = match from {
            Source::Input => format!("in.{}", n.fields[var]),
            Source::Output if g.plan.outputs.len() == 1 => "out".to_string(),
            Source::Output => format!("out.{}", n.fields[var]),
        };
        let v = g.plan.var(var);
        let append = |x: &str| -> Vec<String> {
            match v.ty {
                BoundaryTy::Bool => vec![format!("b = appendBool(b, {x})")],
                BoundaryTy::Str => vec![format!("b = appendJSONString(b, {x})")],
                BoundaryTy::Enum(_) => vec![format!("b = appendJSONString(b, {x}.String())")],
                BoundaryTy::Date => vec![
                    "b = append(b, '\"')".into(),
                    format!("b = appendDate(b, int64({x}))"),
                    "b = append(b, '\"')".into(),
                ],
                BoundaryTy::Int => vec![format!("b = appendInt(b, {x})")],
                BoundaryTy::Unit(_) => vec![format!("b = appendInt(b, int64({x}))")],
            }
        };
        if v.optional {
            self.o.line(format!("if {x} != nil {{"));
            let held = if matches!(v.ty, BoundaryTy::Enum(_)) { x.clone() } else { format!("*{x}") };
            for l in append(&held) {
                self.o.line(format!("\t{l}"));
            }
            self.o.line("} else {");
            self.o.line("\tb = append(b, \"null\"...)");
            self.o.line("}");
        } else {
            for l in append(&x) {
                self.o.line(l);
            }
        }
    }
}

/// Whether an expression is an untyped constant in Go (it takes its type from where it goes).
fn untyped(e: &Expr) -> bool {
    match &e.node {
        Node::Int(_) | Node::Bool(_) | Node::Str(_) => true,
        Node::Neg(x) | Node::DivExact(x, _) => untyped(x),
        Node::Arith(_, a, b) => untyped(a) && untyped(b),
        _ => false,
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    let mut o = String::from(
        "// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Go, held to the reference (vectors/_helpers.jsonl).\n// The go command skips a file whose name starts with _: build a copy of it.\n\n",
    );
    o.push_str(section(HELPERS_RUNNER, MARK, "main"));
    o.push_str("\n\n");
    let mut names = sig::every_helper();
    names.insert(RoundMode::ALL.len(), "halfway".into());
    let parts: Vec<&str> = names.iter().map(|n| section(MODULE, MARK, n)).collect();
    o.push_str(&parts.join("\n\n"));
    o.push('\n');
    o
}

/// A port of go/printer's layout of expressions (nodes.go: binaryExpr, walkBinary, cutoff,
/// diffPrec, reduceDepth): which binary operators get blanks depends on the precedences
/// mixed in the expression and on how deep it sits (call arguments, operands, parentheses).
mod gofmt {
    /// A Go expression as go/printer sees it: the parentheses are nodes of their own.
    #[derive(Clone, Debug)]
    pub enum Ast {
        /// An identifier, a literal, a selector, a function literal: printed as is.
        Atom(String),
        Paren(Box<Ast>),
        Unary(String, Box<Ast>),
        Star(Box<Ast>),
        Bin(String, Box<Ast>, Box<Ast>),
        Call(String, Vec<Ast>),
    }

    impl Ast {
        /// A leaf's text: a negative literal is a unary minus, `*x` a dereference.
        pub fn leaf(t: String) -> Ast {
            if let Some(rest) = t.strip_prefix('-') {
                Ast::Unary("-".into(), Box::new(Ast::Atom(rest.into())))
            } else if let Some(rest) = t.strip_prefix('*') {
                Ast::Star(Box::new(Ast::Atom(rest.into())))
            } else {
                Ast::Atom(t)
            }
        }
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

    const UNARY_PREC: usize = 6;

    /// An expression at the top of a statement (depth 1).
    pub fn expr(x: &Ast) -> String {
        expr1(x, 0, 1)
    }

    fn expr1(x: &Ast, prec1: usize, depth: usize) -> String {
        match x {
            Ast::Atom(s) => s.clone(),
            Ast::Bin(..) => binary(x, prec1, cutoff(x, depth), depth),
            Ast::Star(inner) => {
                if UNARY_PREC < prec1 {
                    format!("(*{})", expr(inner))
                } else {
                    format!("*{}", expr(inner))
                }
            }
            Ast::Unary(op, inner) => {
                if UNARY_PREC < prec1 {
                    format!("({})", expr(x))
                } else {
                    format!("{op}{}", expr1(inner, UNARY_PREC, depth))
                }
            }
            Ast::Paren(inner) => {
                if matches!(**inner, Ast::Paren(_)) {
                    expr1(inner, 0, depth)
                } else {
                    format!("({})", expr1(inner, 0, reduce_depth(depth)))
                }
            }
            Ast::Call(f, args) => {
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

    fn diff_prec(x: &Ast, p: usize) -> usize {
        match x {
            Ast::Bin(op, ..) if prec(op) == p => 0,
            _ => 1,
        }
    }

    fn binary(x: &Ast, prec1: usize, cutoff: usize, depth: usize) -> String {
        let Ast::Bin(op, l, r) = x else { unreachable!("a binary expression") };
        let p = prec(op);
        if p < prec1 {
            return format!("({})", expr1(x, 0, reduce_depth(depth)));
        }
        let blank = p < cutoff;
        let l = expr1(l, p, depth + diff_prec(l, p));
        let r = expr1(r, p + 1, depth + 1);
        if blank {
            format!("{l} {op} {r}")
        } else if (op == "-" && r.starts_with('-')) || (op == "/" && r.starts_with('*')) {
            // printer.go's mayCombine: a blank keeps `- -x` from reading as `--x`.
            format!("{l}{op} {r}")
        } else {
            format!("{l}{op}{r}")
        }
    }

    fn walk(x: &Ast) -> (bool, bool, usize) {
        let Ast::Bin(op, l, r) = x else { return (false, false, 0) };
        let p = prec(op);
        let (mut has4, mut has5, mut problem) = (p == 4, p == 5, 0);
        if let Ast::Bin(lo, ..) = &**l {
            if prec(lo) >= p {
                let (h4, h5, mp) = walk(l);
                has4 |= h4;
                has5 |= h5;
                problem = problem.max(mp);
            }
        }
        match &**r {
            Ast::Bin(ro, ..) if prec(ro) > p => {
                let (h4, h5, mp) = walk(r);
                has4 |= h4;
                has5 |= h5;
                problem = problem.max(mp);
            }
            Ast::Star(_) if op == "/" => problem = 5,
            Ast::Unary(uo, _) => match format!("{op}{uo}").as_str() {
                "/*" | "&&" | "&^" => problem = 5,
                "++" | "--" => problem = problem.max(4),
                _ => {}
            },
            _ => {}
        }
        (has4, has5, problem)
    }

    fn cutoff(x: &Ast, depth: usize) -> usize {
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

/// A refused value as the error carries it: a day as a `Date`, which prints as the wire
/// writes it (`2025-12-31`), not as its day number.
fn shown(input: &InputDoor, value: &str) -> String {
    match input.kind {
        WireKind::Date => format!("Date({value})"),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::plan::{Arith, Plan};
    use crate::syntax::ast::CmpOp;

    const RULE: &str = "rule t v1\n\nenum level: low < mid < high\n\ninput a: int -100..100\ninput b: int -100..100\ninput p: int? 0..10\ninput lvl: level\n\noutput o: int -300..300\ndefine o = a + b\n";

    /// A deterministic stream of small numbers (no dependency for randomness).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// A random expression over the rule's inputs `a`, `b`, `p` (optional) and `lvl`: the
    /// printer lays out whatever nodes it is given, whether or not they would type-check.
    fn random(r: &mut Lcg, plan: &Plan, depth: usize) -> Expr {
        let var = |name: &str, optional: bool| {
            let v = plan.vars.iter().position(|x| x.name == name).unwrap();
            Expr { kind: plan.var(v).kind, optional, node: Node::Var(v) }
        };
        let p = plan.vars.iter().position(|x| x.name == "p").unwrap();
        if depth == 0 {
            return match r.next(6) {
                0 => Expr::int(-(r.next(20) as i64)),
                1 => var("p", false),
                2 => Expr::int(r.next(100) as i64),
                3 => Expr::new(var("lvl", false).kind, Node::Member(r.next(3) as u32)),
                _ => var(["a", "b", "lvl"][r.next(3) as usize], false),
            };
        }
        let kid = |r: &mut Lcg| Box::new(random(r, plan, depth - 1));
        let cmps = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Ge];
        let arith = [Arith::Add, Arith::Sub, Arith::Mul];
        match r.next(16) {
            0 => Expr::num(Node::Neg(kid(r))),
            1 => Expr::negate(*kid(r)),
            2 => Expr::num(Node::DivRound(kid(r), kid(r), RoundMode::HalfEven)),
            3 => Expr::num(Node::Mod(kid(r), kid(r))),
            4 => Expr::num(Node::Min((0..2 + r.next(2)).map(|_| *kid(r)).collect())),
            5 => Expr::num(Node::DivExact(kid(r), 1 + r.next(9) as i64)),
            6 => Expr::num(Node::If(kid(r), kid(r), kid(r))),
            7 => Expr::bool(Node::OneOf(kid(r), (0..1 + r.next(3)).map(|_| *kid(r)).collect())),
            8 => Expr::bool(Node::Present(p, kid(r))),
            9 => Expr::bool(Node::IsNone(p)),
            10 | 11 => Expr::cmp(cmps[r.next(4) as usize], *kid(r), *kid(r)),
            12 => Expr::bool(Node::And(kid(r), kid(r))),
            13 => Expr::or(*kid(r), *kid(r)),
            _ => Expr::num(Node::Arith(arith[r.next(3) as usize], kid(r), kid(r))),
        }
    }

    /// The printer agrees with gofmt: random expressions, printed where the generated code
    /// prints them (an assignment, an `if`, a call's arguments, a composite literal), come
    /// back from `gofmt -d` unchanged. Skipped without gofmt (a failure under CI).
    /// GOFMT_FUZZ and GOFMT_SEED run more of them, or others.
    #[test]
    fn expressions_print_as_gofmt_prints_them() {
        if std::process::Command::new("gofmt").arg("-h").output().is_err() {
            assert!(std::env::var_os("CI").is_none(), "gofmt is not on PATH, and CI is set");
            eprintln!("note: gofmt is not on PATH; the printer is not compared with it");
            return;
        }
        let mut sources = crate::Sources::new();
        let checked = crate::check_text(&mut sources, "t.rule", RULE, &Default::default());
        let unit = crate::gen::Unit::of(&checked, &sources).expect("the rule checks clean");
        let names = unit.names(Lang::Go);
        let g = Spell::new(&unit.plan, &names);
        let mut r = Lcg(std::env::var("GOFMT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7));
        let n: usize = std::env::var("GOFMT_FUZZ").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
        let mut src = String::from("package p\n\nfunc g() {\n");
        for i in 0..n {
            let e = random(&mut r, &unit.plan, 1 + i % 5);
            let line = match i % 4 {
                0 => format!("x = {}", g.top(&e)),
                1 => format!("if {} {{\n\tx = 1\n}}", g.top(&e)),
                2 => {
                    let call =
                        Expr::num(Node::DivRound(Box::new(e), Box::new(random(&mut r, &unit.plan, 2)), RoundMode::Up));
                    format!("x = {}", g.top(&call))
                }
                _ => format!("x = T{{A: {}, B: 1}}", g.top(&e)),
            };
            src.push_str(&format!("\t{}\n", indent_rest(&line, 1)));
        }
        src.push_str("}\n");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.go");
        std::fs::write(&file, &src).unwrap();
        let out = std::process::Command::new("gofmt").arg("-d").arg(&file).output().unwrap();
        assert!(out.status.success(), "gofmt: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "gofmt would change:\n{}", String::from_utf8_lossy(&out.stdout));
    }
}
