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

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling};
use super::naming;
use super::plan::{Expr, Node, Role};
use super::printer::{Cond, Extremes, Form, Ops, Order, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body, Refusals, Stores, Switch};
use super::text::{comment, fill_names, quoted, section, splice, Code, Escapes};
use super::tree;
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::sema::VarId;
use serde_json::{json, Value as Json};

const MODULE: &str = include_str!("runtime/module.go");
const RUNNER: &str = include_str!("runtime/runner.go");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.go");
const TEMPLATES: &str = include_str!("runtime/templates.txt");
/// What starts a section of a runtime file.
const MARK: &str = "// rulec:";

/// Go's types: int64 inside the functions, a unit its defined type, a pointer when optional.
const TYPES: Types =
    Types { units: true, date: Some("Date"), input_type: true, ..Types::plain("bool", "string", "int64", "*@", "[]@") };

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
            File { path: format!("{pkg}/go.mod"), text: g.go_mod() },
            File { path: format!("{pkg}/{pkg}.go"), text: module },
            File { path: format!("{pkg}/cmd/runner/main.go"), text: runner },
            File { path: format!("_helpers_runner.{}", Self::SPEC.ext), text: helpers_runner },
        ]
        .into_iter()
        .chain(Self::shared_files(g))
        .collect()
    }

    /// The package of each enums file the rule reads (`tiers/go.mod`, `tiers/tiers.go`).
    fn shared_files(g: &Spell) -> Vec<File> {
        g.shared_packages()
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
        let spell = Spelling { names, ty: &|v| g.ty(v), member: Member::Bare };
        let ret = g.returns();
        // Each input's field of `Input` beside it, and each output's of `Output` where there is one.
        let fielded = |mut xs: Json, vs: &[VarId]| {
            for (x, &v) in xs.as_array_mut().into_iter().flatten().zip(vs) {
                x["field"] = json!(names.fields[v]);
            }
            xs
        };
        let params = fielded(spell.params(plan), &plan.inputs);
        let outputs =
            if plan.outputs.len() > 1 { fielded(spell.outputs(plan), &plan.outputs) } else { spell.outputs(plan) };
        let pkg = &names.module;
        let place = vec![
            ("package", json!(pkg)),
            ("module", json!(format!("{pkg}/{pkg}.go"))),
            ("module_path", json!(module_path(pkg))),
            ("runner", json!(format!("{pkg}/cmd/runner/main.go"))),
            ("build", json!("GOPROXY=off go build -o runner ./cmd/runner")),
            ("func", json!(names.function)),
        ];
        let more = vec![
            ("input_type", json!("Input")),
            ("input_fields", json!(params)),
            ("params", json!(params)),
            ("output_type", json!(ret)),
            ("output_fields", json!(outputs)),
            ("outputs", json!(outputs)),
        ];
        // Go's own date type is time.Time, which would take an import: the day number and the
        // wire string are the two ways in.
        let dates = Dates { ty: "Date", from_wire: "ParseDate", from_native: None };
        let errors = &["*RuleInputError", "*RuleContradictionError"];
        let error_types = ErrorTypes {
            input: ErrorType { name: "*RuleInputError", fields: &["What", "Value", "HasValue"] },
            contradiction: ErrorType { name: "*RuleContradictionError", fields: &["What"] },
        };
        g.api_shared(spell.functions(
            plan,
            &ret,
            Functions { place, signatures: g.signatures(), more, dates, errors, error_types },
        ))
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
    extremes: Extremes::Pairs { num: ["minInt", "maxInt"], enums: ["minEnum", "maxEnum"], ranked: false },
    cond: Cond::Own,
    order: Order::Native,
    ..Ops::camel_family(go_str, "isqrtInt")
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
        let mut o = format!("func() {} {{\n", TYPES.of_kind(self.n, e.kind));
        let mut cur = e;
        while let Node::If(c, a, b) = &cur.node {
            o.push_str(&format!("\tif {} {{\n", indent_rest(&self.top(c), 1)));
            o.push_str(&format!("\t\treturn {}\n\t}}\n", indent_rest(&self.top(a), 2)));
            cur = b;
        }
        o.push_str(&format!("\treturn {}\n}}()", indent_rest(&self.top(cur), 1)));
        o
    }

    /// A field's value as the functions hold it, or else (`local` false) a local's as the field
    /// of its type: a defined type over int64 converts, a pointer without a copy.
    fn converted(&self, v: VarId, x: &str, local: bool) -> String {
        match self.own_type(v) {
            Some(ty) => convert(if local { "int64" } else { &ty }, x, self.plan.var(v).optional),
            None => x.to_string(),
        }
    }

    /// The four functions' signatures as `rulec api` gives them (see [`sig::signatures`]).
    fn signatures(&self) -> [String; 4] {
        sig::signatures(self.n, section(TEMPLATES, MARK, "signatures"), &[("ret", self.returns())])
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("\t");
        o.raw(&sig::head(plan, "//"));
        o.blank();
        let fills = [
            ("module", n.module.clone()),
            ("imports", self.imports()),
            ("rule", comment(&plan.rule.name)),
            ("version", plan.rule.version.to_string()),
            ("function", n.function.clone()),
            ("traced", n.traced.clone()),
        ];
        o.filled(section(TEMPLATES, MARK, "package"), &fills);
        o.blank();
        for (u, name) in plan.units.iter().zip(&n.units) {
            o.filled(section(TEMPLATES, MARK, "unit"), &[("name", name.clone()), ("what", comment(&u.what))]);
            o.blank();
        }
        if plan.dates {
            sig::sections(&mut o, MODULE, MARK, &["date"], "\n\n");
        }
        self.enums(&mut o);
        // The record function's comment names it, as the template's locals cannot.
        let template = fill_names(section(TEMPLATES, MARK, "record"), |f| (f == "record").then(|| n.record.clone()));
        let [_, _, signature, _] = self.signatures();
        let record = (template.as_str(), signature.as_str());
        sig::rest(&mut o, plan, self, (MODULE, MARK), record, |o, role| self.strukt(o, role), |o| self.functions(o));
        o.finish()
    }

    /// The inputs' or the outputs' struct, its fields `Name Type` aligned as gofmt aligns them.
    fn strukt(&self, o: &mut Code, role: Role) {
        let (name, vars) = match role {
            Role::Input => ("Input", &self.plan.inputs),
            _ => ("Output", &self.plan.outputs),
        };
        o.line(format!("// {name} holds the rule's {}s, in the order it declares them.", name.to_lowercase()));
        let width = vars.iter().map(|&v| self.n.fields[v].chars().count()).max().unwrap_or(0);
        o.line(format!("type {name} struct {{"));
        o.indent();
        for &v in vars {
            let f = &self.n.fields[v];
            o.line(format!("{f}{} {}", " ".repeat(width - f.chars().count()), self.ty(v)));
        }
        o.close("}");
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let names = |vs: &[VarId]| match vs {
            [] => "nothing".to_string(),
            _ => vs.iter().map(|&v| comment(&plan.var(v).name)).collect::<Vec<_>>().join(", "),
        };
        let input = n.local("in");
        let locals: Vec<String> = plan
            .inputs
            .iter()
            .map(|&v| format!("{} := {}", n.vars[v], self.converted(v, &format!("{input}.{}", n.fields[v]), true)))
            .collect();
        let fields = sig::inputs(plan, |v| format!("{}: {}", n.fields[v], self.converted(v, &n.vars[v], false)));
        let answer = sig::answer(plan, n, &TYPES, convert, ["Output{", ": ", "}"]);
        // Go refuses a local the code never reads.
        let unread: Vec<String> =
            tree::unread(plan, Lang::Go).into_iter().map(|v| format!("_ = {}", n.vars[v])).collect();
        let fills = [
            ("ret", self.returns()),
            ("decides", names(&plan.outputs)),
            ("from", names(&plan.inputs)),
            ("fields", fields),
            ("locals", locals.join("\n")),
            ("unread", unread.join("\n")),
            ("answer", answer),
        ];
        sig::functions(o, n, section(TEMPLATES, MARK, "functions"), &fills, |part, o| match part {
            walk::Part::Door => walk::part(plan, Lang::Go, part, &mut Body::<_, true> { g: self, o }),
            _ => walk::part(plan, Lang::Go, part, &mut Body::<_, false> { g: self, o }),
        });
        o.blank();
    }

    fn runner(&self) -> String {
        let template = splice(section(RUNNER, MARK, "main"), "// rulec-copy:", &[("module.go", MODULE)], MARK);
        let (path, not_an_object) = (module_path(&self.n.module), go_str(&self.plan.door.not_an_object));
        let fills =
            [("rulec/rulec_rule", &*path), ("rulec_wire", &self.n.wire), ("\"rulec_not_an_object\"", &not_an_object)];
        sig::runner(self.plan, "//", "", &template, &fills)
    }
}

/// The walker's hooks: the statements of the function bodies, the wire door's (`DOOR`) or
/// the core's and the record's, which return their refusals beside what each answers.
impl<const DOOR: bool> Hooks for Body<'_, '_, Spell<'_>, DOOR> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        switch: Some(Switch {
            open: "switch @ {",
            case: "case @:",
            or: ", ",
            default: "default:",
            close: "",
            leave: "",
            indent: false,
        }),
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
        // A variable declared by `var`; a pointer to a value the store makes; a define by `:=`,
        // a number constant typed.
        binding: "var @ $",
        declare: "var @ $",
        stores: Some(Stores {
            held: "{x} = new({ty})\n*{x} = {value}",
            define: "{name} := {value}",
            constant: "var {name} {ty} = {value}",
        }),
        ..Blocks::BARE
    };
    /// The wire door: the runtime's readers over the values of the call's map, an optional
    /// read into a value it then points to.
    const WIRE: &'static str = include_str!("runtime/wire.txt");
    /// The record's values: each type's wire text, appended to the line; the record function
    /// reads them out of its parameters `in` and `out`.
    const RECORD_VALUES: &'static str = include_str!("runtime/record_values.txt");
    /// The trace, lists and loops: a row that fires goes into the trace where the caller asked
    /// for one (the runtime's `fire`).
    const LISTS: &'static str = include_str!("runtime/lists.txt");
    /// The entry guard's checks the types leave open: an enum's zero value is no value, and
    /// an integer of its type may be no value of it.
    const GUARD: &'static str = include_str!("runtime/guard.txt");

    /// A value pushed onto a list is an argument of `append`, which gofmt lays out as such.
    fn value(&self, var: VarId, e: &Expr) -> String {
        match self.g.plan.var(var).list {
            true => gofmt::argument(&self.g.ast(e, 0)),
            false => self.g.top(e),
        }
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("b = append(b, {}...)", go_str(json)));
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("//", "", HELPERS_RUNNER, "// rulec: helpers", MODULE, MARK)
}

/// `x` as the defined type `ty`: a pointer converts without a copy.
fn convert(ty: &str, x: &str, optional: bool) -> String {
    let (open, close) = if optional { ("(*", ")") } else { ("", "") };
    format!("{open}{ty}{close}({x})")
}

mod enums;
mod gofmt;

#[cfg(test)]
mod tests;
