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
use super::plan::{BoundaryTy, Expr, Kind, Node, Step};
use super::printer::{camel_div_round, Cond, Extremes, Form, Ops, Order, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{self, Blocks, Refusals, Stores, Switch};
use super::text::{comment, quoted, section, Code, Escapes};
use super::tree;
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::num::RoundMode;
use crate::sema::VarId;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

const MODULE: &str = include_str!("runtime/module.go");
const RUNNER: &str = include_str!("runtime/runner.go");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.go");
const TEMPLATES: &str = include_str!("runtime/templates.txt");
/// What starts a section of a runtime file.
const MARK: &str = "// rulec:";

/// Go's types: int64 inside the functions, a unit its defined type, a pointer when optional.
const TYPES: Types = Types { units: true, date: Some("Date"), ..Types::plain("bool", "string", "int64", "*@") };

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
        let f = &names.function;
        m.insert("package".into(), json!(pkg));
        m.insert("module".into(), json!(format!("{pkg}/{pkg}.go")));
        m.insert("module_path".into(), json!(module_path(pkg)));
        m.insert("runner".into(), json!(format!("{pkg}/cmd/runner/main.go")));
        m.insert("build".into(), json!("GOPROXY=off go build -o runner ./cmd/runner"));
        m.insert("func".into(), json!(f));
        let [signature, traced_signature, record_signature, wire_signature] = g.signatures();
        m.insert("signature".into(), json!(signature));
        m.insert("traced_signature".into(), json!(traced_signature));
        m.insert("record_signature".into(), json!(record_signature));
        m.insert("wire_signature".into(), json!(wire_signature));
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

/// What the backend spells with: the plan and the names.
type Spell<'a> = Gen<'a, Go>;

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

    /// The spelling of the generated code's own local `base` (src/lang/naming.rs `locals`): the wire
    /// door's and the core's, which share their scope with the rule's values. The other
    /// functions hold none of them and keep the plain names.
    fn l(&self, base: &str) -> &str {
        self.n.local(base)
    }

    /// The four functions' signatures as `rulec api` gives them (see [`sig::signatures`]).
    fn signatures(&self) -> [String; 4] {
        let fills = [("ret", self.returns()), ("wire_params", self.wire_params())];
        sig::signatures(self.n, section(TEMPLATES, MARK, "signatures"), &fills)
    }

    fn wire_params(&self) -> String {
        format!("{} map[string]any, {} string, {} ...string", self.l("call"), self.l("tag"), self.l("keys"))
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
            "// {} writes one call as a fixtures record (formats.md), the line rulec replay reads; an\n// empty tag is left out.\n{} {{",
            n.record,
            self.signatures()[2]
        );
        let mut body = Body::<false> { g: self, o: &mut o };
        stmt::record_function(plan, &mut body, section(TEMPLATES, MARK, "record"), &signature);
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
            o.filled(section(TEMPLATES, MARK, "enum"), &fills);
            o.blank();
        }
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let names = |vs: &[VarId]| -> String {
            let all: Vec<String> = vs.iter().map(|&v| comment(&plan.var(v).name)).collect();
            if all.is_empty() {
                "nothing".into()
            } else {
                all.join(", ")
            }
        };
        let input = self.l("in");
        let locals: Vec<String> = plan
            .inputs
            .iter()
            .map(|&v| format!("{} := {}", n.vars[v], self.to_local(v, &format!("{input}.{}", n.fields[v]))))
            .collect();
        let fields: Vec<String> =
            plan.inputs.iter().map(|&v| format!("{}: {}", n.fields[v], self.to_field(v, &n.vars[v]))).collect();
        let value = |v: VarId| self.to_field(v, &n.vars[v]);
        let answer = match plan.outputs.as_slice() {
            [one] => value(*one),
            outs => format!(
                "Output{{{}}}",
                outs.iter().map(|&v| format!("{}: {}", n.fields[v], value(v))).collect::<Vec<_>>().join(", ")
            ),
        };
        let fills = [
            ("ret", self.returns()),
            ("decides", names(&plan.outputs)),
            ("from", names(&plan.inputs)),
            ("wire_params", self.wire_params()),
            ("fields", fields.join(", ")),
            ("locals", locals.join("\n")),
            ("unread", self.unread().join("\n")),
            ("answer", answer),
        ];
        sig::functions(o, n, section(TEMPLATES, MARK, "functions"), &fills, |part, o| match part {
            walk::Part::Door => walk::part(plan, Lang::Go, part, &mut Body::<true> { g: self, o }),
            _ => walk::part(plan, Lang::Go, part, &mut Body::<false> { g: self, o }),
        });
        o.blank();
    }

    /// `_ = x` for each value the code declares and never reads (Go refuses an unused local).
    fn unread(&self) -> Vec<String> {
        let plan = self.plan;
        let mut read: BTreeSet<VarId> = BTreeSet::new();
        // The entry guard reads the inputs it checks.
        for s in tree::guard(plan, Lang::Go) {
            if let tree::Stmt::CheckInput { input, .. } = s {
                read.insert(plan.door.inputs[input].var);
            }
        }
        for e in plan.exprs() {
            read.extend(e.vars());
        }
        read.extend(plan.outputs.iter().copied());
        let declared = plan.inputs.iter().copied().chain(plan.steps.iter().flat_map(|s| match s {
            Step::Define { var, .. } => vec![*var],
            Step::Table(t) => t.results.clone(),
            _ => Vec::new(),
        }));
        declared.filter(|v| !read.contains(v)).map(|v| format!("_ = {}", self.n.vars[v])).collect()
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

/// The walker's hooks: the statements of the function bodies, the wire door's (`DOOR`) or
/// the core's and the record's, which return their refusals beside what each answers.
struct Body<'a, 'b, const DOOR: bool> {
    g: &'a Spell<'a>,
    o: &'b mut Code,
}

impl<const DOOR: bool> Hooks for Body<'_, '_, DOOR> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        switch: Some(Switch { open: "switch @ {", case: "case @:", default: "default:", close: "", indent: false }),
        // The core's results are named: its output is still the zero value where it refuses.
        refuse: if DOOR {
            Refusals {
                input: "return \"\", &RuleInputError{What: @, Value: $, HasValue: true}",
                input_alone: "return \"\", &RuleInputError{What: @}",
                contradiction: "return \"\", &RuleContradictionError{What: @}",
            }
        } else {
            Refusals {
                input: "return {out}, &RuleInputError{What: @, Value: $, HasValue: true}",
                input_alone: "return {out}, &RuleInputError{What: @}",
                contradiction: "return {out}, &RuleContradictionError{What: @}",
            }
        },
        // A refused day is held as the wire writes it (one past the years 0000 to 9999 by its
        // number), which the error shows as a JSON string, as it shows a member's name.
        shown: ["@", "shownDay(@)", "@"],
        // A pointer to a value the store makes; a define by `:=`, a number constant typed.
        stores: Some(Stores {
            held: "{x} = new({ty})\n*{x} = {value}",
            define: "{name} := {value}",
            constant: "var {name} {ty} = {value}",
        }),
        ..Blocks::BARE
    };

    /// The wire door: the runtime's readers over the values of the call's map, an optional
    /// read into a value it then points to.
    const WIRE: &'static str = "raw: {call}[{name}]
required: {var}, {err} := {read}\\nif {err} != nil {\\n\treturn \"\", {err}\\n}
optional: {decl}\\nif {x} := {raw}; {x} != nil {\\n\t{v}, {err} := {read}\\n\tif {err} != nil {\\n\t\treturn \"\", {err}\\n\t}\\n\t{var} = &{v}\\n}
held: {x}
integer: wireInt({raw}, {m}, {k}, {out})
boolean: wireBool({raw}, {m}, {k})
text: wireText({raw}, {m}, {k})
date: wireDay({raw}, {m}, {k})
member: wireMember({raw}, {parse}, {m}, {k})
unknown_keys:
if key, unknown := unknownKey({call}, {keys}, []string{{inputs}}); unknown {
\treturn \"\", &RuleInputError{What: key + {sentence}}
}";

    /// The record's values: each type's wire text, appended to the line; the record function
    /// reads them out of its parameters `in` and `out`.
    const RECORD_VALUES: &'static str = "bool: b = appendBool(b, {x})
str: b = appendJSONString(b, {x})
enum: b = appendJSONString(b, {x}.String())
date: b = append(b, '\"')\\nb = appendDate(b, int64({x}))\\nb = append(b, '\"')
int: b = appendInt(b, {x})
unit: b = appendInt(b, int64({x}))
required: {one}
optional: if {x} != nil {\\n\t{one}\\n} else {\\n\tb = append(b, \"null\"...)\\n}
held: *{x}
held_enum: {x}
input: in.{field}
output: out";

    /// The trace, lists and loops: a row that fires goes into the trace where the caller asked
    /// for one (the runtime's `fire`).
    const LISTS: &'static str = "fired: fire({trace}, {table}, {row})
list: var {name} []{ty}
push: {list} = append({list}, {value})
carry: var {name} {ty} = {value}
for: for _, {element} := range {list} {
break: break";

    /// A value pushed onto a list is an argument of `append`, which gofmt lays out as such.
    fn value(&self, var: VarId, e: &Expr) -> String {
        match self.g.plan.var(var).list {
            true => gofmt::argument(&self.g.ast(e, 0)),
            false => self.g.top(e),
        }
    }

    fn binding(&self, var: VarId) -> String {
        format!("var {} {}", self.g.n.vars[var], self.g.local_ty(var))
    }

    /// The entry guard's checks the types leave open: an enum's zero value is no value, and
    /// an integer of its type may be no value of it.
    const GUARD: &'static str = "missing: if {x} == 0 {\\n\t{refuse_m}\\n}
enum: if {present}!{x}.Valid() {\\n\t{refuse_k}\\n}\\n{range}
present: {x} != nil && ";

    fn declare(&mut self, var: VarId) {
        self.o.line(format!("var {} {}", self.g.n.vars[var], self.g.local_ty(var)));
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("b = append(b, {}...)", go_str(json)));
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

    /// An expression as one of two arguments or more of a call (depth 2).
    pub fn argument(x: &Ast) -> String {
        expr1(x, 0, 2)
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
