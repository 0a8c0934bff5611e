//! The Java backend (generated-code.md, Java): it spells the plan. One public class per rule
//! with everything nested in it — the enums (`value()`, `from(String)`), the two errors,
//! `Fired`, `Output` and `Traced` records, the static methods (an enums file's enums are
//! nested in that file's own class, `Tiers.java`, which the rule names) — `long` for every number and
//! day, `Locale.ROOT` wherever text is formatted, and only java.util.List/ArrayList imported.
//! The fixed text is `runtime/Module.java`; the runner (`runtime/Runner.java`) carries a
//! strict JSON reader and hands the object to the class's wire door.

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling, ERRORS};
use super::plan::{BoundaryTy, Expr, Kind, Node, TablePlan};
use super::printer::{cmp_op, text, Extremes, Form, Ops, Order, Part, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body, Switch};
use super::text::{comment, quoted, section, Code, Escapes};
use super::tree;
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::sema::VarId;
use crate::syntax::ast::CmpOp;
use serde_json::json;

const MODULE: &str = include_str!("runtime/Module.java");
const RUNNER: &str = include_str!("runtime/Runner.java");
const HELPERS_RUNNER: &str = include_str!("runtime/HelpersRunner.java");
/// The class's templates (the api's signatures, its opening, the functions, the record).
const TEMPLATES: &str = include_str!("runtime/templates.txt");
const TEMPLATE_MARK: &str = "// rulec:";
const MARK: &str = "    // rulec:";
/// The mark of the sections inside the runtime's sample enum (what every enum holds).
const ENUM_MARK: &str = "        // rulec:";

/// Java's types: `long` for every number and day, boxed when optional.
const TYPES: Types = Types {
    boxed: &[("boolean", "Boolean"), ("long", "Long")],
    ..Types::plain("boolean", "String", "long", "@", "List<@>")
};

pub struct Java;

/// How the class is built, with the files of one rule; what `rulec api` prints under `build`.
const BUILD: &str = "javac --release 17 -encoding UTF-8 -d classes *.java";

/// The JVM flags that only make a short run start faster (C1 alone, one GC thread).
const FAST: [&str; 2] = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/// `javac` over `files` into `classes/`, its own JVM started fast.
fn javac(files: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut cmd = vec!["javac".to_string()];
    cmd.extend(FAST.map(|f| format!("-J{f}")));
    cmd.extend(["--release", "17", "-encoding", "UTF-8", "-d", "classes"].map(String::from));
    cmd.extend(files);
    cmd
}

impl Language for Java {
    const SPEC: Spec = Spec::new(Lang::Java, "java", OPS, TYPES).file_is_module();

    fn code(j: &Jv) -> [String; 3] {
        [j.module(), j.runner(), helpers_runner()]
    }

    fn shared_files(j: &Jv) -> Vec<File> {
        j.shared_modules()
    }

    /// A class's file is named after it.
    fn runner_stem(j: &Jv) -> String {
        format!("{}Runner", j.n.module)
    }

    fn build_all(files: &[String]) -> Option<Vec<Vec<String>>> {
        Some(vec![javac(files.iter().filter(|f| f.ends_with(".java")).cloned())])
    }

    fn runner(base: &str) -> Runner {
        let (files, main) = match base {
            "_helpers" => (vec!["_helpers_runner.java".to_string()], "_helpers_runner".to_string()),
            _ => {
                let class = crate::gen::naming::module_name(Lang::Java, base);
                (vec![format!("{class}.java"), format!("{class}Runner.java")], format!("{class}Runner"))
            }
        };
        let mut run: Vec<String> = ["java", FAST[0], FAST[1], "-cp", "classes"].map(String::from).to_vec();
        run.push(main);
        Runner { needs: vec!["javac", "java"], build: vec![javac(files)], run }
    }

    fn api(j: &Jv, _: &Unit) -> serde_json::Value {
        let (ret, params) = (j.returns(), j.params());
        let fills = [("ret", ret.clone()), ("record_params", sig::then(&params, &j.record_tail())), ("params", params)];
        let functions = Functions {
            place: vec![("module", json!(format!("{}.java", j.n.module))), ("class", json!(j.n.module))],
            signatures: sig::signatures(j.n, section(TEMPLATES, TEMPLATE_MARK, "signatures"), &fills),
            more: vec![("build", json!(BUILD))],
            dates: Dates { ty: "long", from_wire: "dateFromWire", from_native: Some("dateOf") },
            errors: ERRORS,
            // The fields are read through accessors.
            error_types: ErrorTypes {
                input: ErrorType { name: "RuleInputError", fields: &["what()", "value()"] },
                contradiction: ErrorType { name: "RuleContradictionError", fields: &["what()"] },
            },
        };
        let spell = Spelling { names: j.n, ty: &|v| j.ty(v), member: Member::Qualified(".") };
        let mut entry = spell.functions(j.plan, &ret, functions);
        // An enum of an enums file is nested in that file's own class, which the rule names.
        super::api::shared_enums(&mut entry, &j.shared(), |s| {
            vec![("module", format!("{}.java", s.module)), ("class", s.module.clone())]
        });
        entry
    }
}

/// A Java string literal. A control character is an octal escape: a `\u` escape would be
/// read before the lexer and end the literal.
fn lit(s: &str) -> String {
    quoted(
        s,
        &Escapes::c_family(|c| {
            if c < 0x100 {
                format!("\\{c:03o}")
            } else {
                char::from_u32(c).map(String::from).unwrap_or_default()
            }
        }),
    )
}

fn long(n: i64) -> String {
    if n == i64::MIN {
        "Long.MIN_VALUE".into()
    } else {
        format!("{n}L")
    }
}

/// Java's spellings.
const OPS: Ops = Ops {
    int: long,
    extremes: Extremes::Pairs { num: ["Math.min", "Math.max"], enums: ["least", "greatest"], ranked: false },
    order: Order::Own,
    ..Ops::camel_family(lit, "isqrtLong")
};

type Jv<'a> = Gen<'a, Java>;

impl Syntax for Jv<'_> {
    /// Strings by their characters, an ordered enum by its place; an optional's value,
    /// where the code reads it as a value, unboxed.
    fn own(&self, e: &Expr) -> Option<Form> {
        let equals = |not: &str| vec![text(not), Part::Kid(0, ATOM), text(".equals("), Part::Kid(1, TOP), text(")")];
        Some(match &e.node {
            Node::Var(v) => {
                let name = self.n.vars[*v].clone();
                match (self.plan.var(*v).optional, e.optional, e.kind) {
                    (true, false, Kind::Num) => Form::Leaf(format!("{name}.longValue()"), ATOM),
                    (true, false, Kind::Bool) => Form::Leaf(format!("{name}.booleanValue()"), ATOM),
                    _ => return None,
                }
            }
            Node::Cmp(op, a, _) => match (a.kind, op) {
                (Kind::Str, CmpOp::Eq) => Form::Parts(equals(""), ATOM),
                (Kind::Str, _) => Form::Parts(equals("!"), OPS.prec.not),
                (Kind::Enum(_), CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge) => Form::Parts(
                    vec![
                        Part::Kid(0, ATOM),
                        text(".compareTo("),
                        Part::Kid(1, TOP),
                        Part::Text(format!(") {} 0", cmp_op(*op))),
                    ],
                    OPS.prec.rel,
                ),
                _ => return None,
            },
            _ => return None,
        })
    }
}

impl Jv<'_> {
    /// What a parameter or an output is, for its javadoc.
    fn about(&self, v: VarId) -> String {
        let var = self.plan.var(v);
        let what = match var.ty {
            BoundaryTy::Bool => "a truth value".to_string(),
            BoundaryTy::Str => "a string".to_string(),
            BoundaryTy::Enum(_) => format!("a value of enum {}", var.what),
            BoundaryTy::Date => "a date, as its day number (days since 1970-01-01)".to_string(),
            _ => format!("{}, as a whole number of its unit", var.what),
        };
        let range = sig::range_ends(self.plan, v).map(|(lo, hi)| format!("; {lo}..{hi}")).unwrap_or_default();
        let optional = if var.optional { "; null when absent" } else { "" };
        comment(&format!("{what}{range}{optional}")).replace("*/", "* /")
    }

    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{} {}", self.local_ty(v), self.n.vars[v]))
    }

    /// The record function's parameters after the inputs.
    fn record_tail(&self) -> String {
        let l = |b| self.n.local(b);
        format!("{} {}, List<Fired> {}, String {}", self.returns(), l("out"), l("trace"), l("tag"))
    }

    /// The inputs passed on, then `rest`.
    fn with_args(&self, rest: &str) -> String {
        sig::then(&sig::args(self.plan, self.n), rest)
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("    ");
        o.raw(&sig::head(plan, "//"));
        o.line("//");
        o.line(format!("// Build: {BUILD}"));
        o.blank();
        let fills = [
            ("rule", comment(&plan.rule.name).replace("*/", "* /")),
            ("version", plan.rule.version.to_string()),
            ("function", n.function.clone()),
            ("traced", n.traced.clone()),
            ("record", n.record.clone()),
            ("wire", n.wire.clone()),
            ("class", n.module.clone()),
        ];
        o.filled(section(TEMPLATES, TEMPLATE_MARK, "class"), &fills);
        o.indent();
        o.blank();
        self.enums(&mut o);
        let signature =
            format!("public static String {}({}) {{", n.record, sig::then(&self.params(), &self.record_tail()));
        let record = (section(TEMPLATES, TEMPLATE_MARK, "record"), signature.as_str());
        sig::rest(&mut o, plan, self, (MODULE, MARK), record, |o, _| self.output(o), |o| self.functions(o));
        format!("{}\n}}\n", o.finish().trim_end())
    }

    fn enums(&self, o: &mut Code) {
        for (e, en) in self.plan.enums.iter().enumerate() {
            // An enums file's enum is nested in that file's own class.
            if en.home.is_none() {
                enum_declaration(o, en, &self.n.enums[e], &self.n.members[e], "RuleInputError");
            }
        }
    }

    /// The class of each enums file the rule reads: its enums, nested, the same bytes from
    /// every rule that reads the file, so a folder holds it once.
    fn shared_modules(&self) -> Vec<File> {
        sig::enums_modules(self.plan, self.shared(), ("    ", "//"), |mut o, s, u| {
            o.line("//");
            o.line(format!("// Build: {BUILD}"));
            o.blank();
            let fills = [
                ("source", comment(&u.source_name).replace("*/", "* /")),
                ("class", s.module.clone()),
                ("first", s.types[0].clone()),
            ];
            o.filled(section(TEMPLATES, TEMPLATE_MARK, "shared_class"), &fills);
            o.indent();
            for ((&e, ty), members) in s.enums.iter().zip(&s.types).zip(&s.members) {
                o.blank();
                enum_declaration(&mut o, &self.plan.enums[e], ty, members, "IllegalArgumentException");
            }
            File { path: format!("{}.java", s.module), text: format!("{}\n}}\n", o.finish().trim_end()) }
        })
    }

    /// The outputs' type: a record.
    fn output(&self, o: &mut Code) {
        let fields: Vec<String> =
            self.plan.outputs.iter().map(|&v| format!("{} {}", self.ty(v), self.n.fields[v])).collect();
        o.line("/** What the rule decides, in the order the outputs are declared. */");
        o.line(format!("public record Output({}) {{", fields.join(", ")));
        o.line("}");
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let tables: Vec<&TablePlan> = plan.tables().collect();
        let names = |vars: &[VarId]| {
            let names: Vec<String> = vars.iter().map(|&v| plan.var(v).name.clone()).collect();
            comment(&names.join(", ")).replace("*/", "* /")
        };
        let params_doc: Vec<String> =
            plan.inputs.iter().map(|&v| format!("* @param {} {}", n.vars[v], self.about(v))).collect();
        let (out, trace, tag) = (n.local("out"), n.local("trace"), n.local("tag"));
        let outputs: Vec<&str> = plan.outputs.iter().map(|&v| n.vars[v].as_str()).collect();
        let (returns_doc, answer) = match plan.outputs.as_slice() {
            [one] => (self.about(*one), outputs[0].to_string()),
            _ => ("the outputs, as an {@link Output}".into(), format!("new Output({})", outputs.join(", "))),
        };
        let fills = [
            ("ret", self.returns()),
            ("params", self.params()),
            ("decides", names(&plan.outputs)),
            ("reads", names(&plan.inputs)),
            ("params_doc", params_doc.join("\n")),
            ("returns_doc", returns_doc),
            ("untraced_args", self.with_args("null")),
            ("traced_args", self.with_args(trace)),
            ("not_an_object", lit(&plan.door.not_an_object)),
            ("record_args", self.with_args(&format!("{out}, {trace}, {tag}"))),
            ("core_params", sig::then(&self.params(), &format!("List<Fired> {trace}"))),
            ("answer", answer),
        ];
        sig::functions(o, n, section(TEMPLATES, TEMPLATE_MARK, "functions"), &fills, |part, o| {
            walk::part(plan, Lang::Java, part, &mut Body { g: self, o })
        });
        o.blank();
        let facts = walk::facts::<Body<Jv>>();
        for t in tables {
            let form = tree::form(t, &facts);
            if form.own_function {
                self.table_function(o, t, form.shape);
            }
        }
    }

    /// A table that decides one value, in a method of its own: small methods are what the
    /// JIT inlines.
    fn table_function(&self, o: &mut Code, t: &TablePlan, shape: tree::Shape) {
        let (n, trace) = (self.n, self.n.local("trace"));
        let result = t.results[0];
        let mut params: Vec<String> =
            t.reads().iter().map(|&v| format!("{} {}", self.local_ty(v), n.vars[v])).collect();
        params.push(format!("List<Fired> {trace}"));
        o.line(format!(
            "/** Decides {} by the rows below, and adds the one that matched to {{@code {trace}}}. */",
            comment(&self.plan.var(result).name).replace("*/", "* /")
        ));
        o.line(format!("private static {} {}({}) {{", self.local_ty(result), n.tables[t.slot], params.join(", ")));
        o.indent();
        walk::table(t, shape, &mut Body { g: self, o: &mut *o });
        o.line(format!("return {};", n.vars[result]));
        o.close("}");
        o.blank();
    }

    fn runner(&self) -> String {
        let (m, wire) = (&self.n.module, &self.n.wire);
        let template = format!(
            "// Build: javac --release 17 -encoding UTF-8 -d classes {m}.java {m}Runner.java\n// Run:   java -cp classes {m}Runner < vectors.jsonl\n//\n{RUNNER}"
        );
        let runner = format!("{m}Runner");
        sig::runner(self.plan, "//", "", &template, &[("RulecRunner", &runner), ("RulecRule", m), ("rulecWire", wire)])
    }
}

impl Hooks for Body<'_, '_, Jv<'_>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        field: "@.@()",
        // The error holds a refused number as a Long, a day and a member as the wire's text.
        shown: ["@.value()", "shownDay(@)", "@"],
        // A table that decides one value goes in a method of its own (the method's answer):
        // small methods are what the JIT inlines.
        table_functions: true,
        binding: "$ @",
        declare: "$ @;",
        switch: Some(Switch {
            open: "switch (@.ordinal()) {",
            case: "case @ -> {",
            or: ", ",
            default: "default -> {",
            close: "}",
            leave: "",
            indent: true,
        }),
        ..Blocks::PARENS
    };
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = include_str!("runtime/record_values.txt");
    /// The trace (absent from the plain function's call), lists and loops.
    const LISTS: &'static str = include_str!("runtime/lists.txt");
    /// The entry guard: an enum and a string are references, which may be null.
    const GUARD: &'static str = "missing: if ({x} == null) {\\n    {refuse_m}\\n}";
    /// The wire door: the runtime's readers over a map of the inputs under their declared names.
    const WIRE: &'static str = include_str!("runtime/wire.txt");

    /// Java's `case` names an enum's constant unqualified.
    /// A value by its place: the switch is on `ordinal()` (the enum declares its values in the
    /// rule's order), not on the enum, which reads javac's `$SwitchMap` array at every switch.
    fn case_label(&self, _kind: Kind, i: u32) -> String {
        i.to_string()
    }

    fn table_call(&mut self, t: &TablePlan) {
        let n = self.g.n;
        let mut args: Vec<&str> = t.reads().iter().map(|&v| n.vars[v].as_str()).collect();
        args.push(n.local("trace"));
        let result = t.results[0];
        let call = format!("{} = {}({});", self.binding(result), n.tables[t.slot], args.join(", "));
        self.commented(&call, &format!("table {} (policy {})", t.name, t.policy));
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{}.append({});", self.g.n.local("s"), lit(json)));
    }
}

/// A nested enum: its members, each with its wire name, then the runtime's body; `from`
/// refuses an unknown name with `refusal` (the rule's RuleInputError, or in an enums file's
/// class, which has none, the IllegalArgumentException every rule's extends).
fn enum_declaration(o: &mut Code, en: &super::plan::EnumPlan, name: &str, members: &[String], refusal: &str) {
    o.line(format!(
        "/** enum {}{}. */",
        comment(&en.name).replace("*/", "* /"),
        if en.ordered { " (ordered)" } else { "" }
    ));
    o.line(format!("public enum {name} {{"));
    o.indent();
    let count = en.values.len();
    for (i, v) in en.values.iter().enumerate() {
        let end = if i + 1 == count { ";" } else { "," };
        o.line(format!("{}({}){end}", members[i], lit(&v.name)));
    }
    o.blank();
    let body = section(MODULE, ENUM_MARK, "enum_body").replace("RulecEnum", name);
    let body = if refusal == "RuleInputError" {
        body
    } else {
        body.replace("new RuleInputError(", &format!("new {refusal}(")).replace(", null);", ");")
    };
    o.raw(&format!("{body}\n"));
    o.close("}");
    o.blank();
}

/// The runner of the helpers' unit vectors: every helper a class may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("//", "", HELPERS_RUNNER, "    // rulec: helpers", MODULE, MARK)
}
