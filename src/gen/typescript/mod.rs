//! The TypeScript and JavaScript backends (generated-code.md, TypeScript and JavaScript):
//! they spell the plan once, in TypeScript, and the JavaScript is that text with its types
//! taken off ([`strip_types`]), so every line is written once.
//!
//! Every number is a `bigint` (a JavaScript number is exact only to 2^53; the proof, E108,
//! is about int64), each unit a branded bigint, a date its day number (`Day`, a branded
//! bigint, with `dayFromWire` and `dayOf`), an enum a frozen object plus a union type. The
//! TypeScript is erasable syntax only. A caller from JavaScript can pass anything, so the
//! entry guard asks about the kind of every input too. The fixed text is `runtime/*.ts`, the
//! functions' templates `runtime/templates.txt`.

mod strip;
mod walks;

pub use strip::{strip_types, tokens, Tok, Token};

use super::api::{Dates, Functions, Member, Spelling, ERRORS, ERROR_TYPES};
use super::naming::SharedNames;
use super::plan::{BoundaryTy, Expr, Kind, Node};
use super::printer::{Extremes, Form, Ops, Part, Syntax};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body};
use super::text::{self, comment, quoted, section, Code, Escapes};
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::syntax::ast::CmpOp;
use serde_json::json;

const MODULE: &str = include_str!("runtime/module.ts");
const RUNNER: &str = include_str!("runtime/runner.ts");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.ts");
/// The templates: the runners' openings, a unit's and the outputs' types, an enums file's module, an
/// enum, its rank function, the record, the api's signatures, the four functions.
const TEMPLATES: &str = include_str!("runtime/templates.txt");
const MARK: &str = "// rulec:";

/// TypeScript's types: every number a bigint, a unit its brand, a date `Day`.
const TS_TYPES: Types =
    Types { units: true, date: Some("Day"), ..Types::plain("boolean", "string", "bigint", "@ | null", "readonly @[]") };

/// The JavaScript values the TypeScript types are: a unit or a date is a bigint there.
const JS_TYPES: Types = Types { units: false, date: None, ..TS_TYPES };

/// The flags every `tsc` run over generated TypeScript takes (the build and the lint):
/// strict, erasable syntax only (TypeScript 5.8 and later), ES2022 without the DOM.
pub const TSC_FLAGS: &[&str] = &[
    "--strict",
    "--erasableSyntaxOnly",
    "--target",
    "es2022",
    "--lib",
    "es2022",
    "--module",
    "es2022",
    "--moduleResolution",
    "bundler",
];

/// The `tsc` to run: `$RULEC_TSC` when set (a `node_modules/.bin/tsc`), else `tsc` on PATH.
pub fn tsc() -> Option<String> {
    std::env::var("RULEC_TSC").ok().filter(|s| !s.is_empty())
}

/// The commands that build `runners` into `.tsbuild/`, beside a package.json that says the
/// emitted `.js` files are ES modules.
fn tsc_build(runners: Vec<String>) -> Vec<Vec<String>> {
    let mut build: Vec<String> = vec![tsc().unwrap_or_else(|| "tsc".into())];
    build.extend(TSC_FLAGS.iter().map(|s| s.to_string()));
    build.extend(["--rewriteRelativeImportExtensions", "--outDir", ".tsbuild"].map(String::from));
    build.extend(runners);
    let package = ["node", "-e", "require('fs').writeFileSync('.tsbuild/package.json', '{\"type\":\"module\"}\\n')"];
    vec![build, package.map(String::from).to_vec()]
}

/// The TypeScript backend (`Lang::TypeScript`: `<alias>.ts`, built with `tsc --strict` and
/// run with node) and the JavaScript one (`Lang::JavaScript`: `<alias>.mjs`, an ES module
/// node runs as it stands) are one writer: `TYPED` says which flavour of the texts that
/// differ it writes (the words, never the code), and whether the types are taken off.
pub struct Script<const TYPED: bool>;

pub type TypeScript = Script<true>;
pub type JavaScript = Script<false>;

impl<const TYPED: bool> Language for Script<TYPED> {
    /// The API's types: TypeScript's, or the JavaScript values they are.
    const SPEC: Spec = if TYPED {
        Spec::new(Lang::TypeScript, "ts", OPS, TS_TYPES).file_is_module()
    } else {
        Spec::new(Lang::JavaScript, "mjs", OPS, JS_TYPES).file_is_module()
    };
    const WALKS: bool = true;

    /// The TypeScript, or the JavaScript it is with its types taken out.
    fn code(t: &Ts<TYPED>) -> [String; 3] {
        [t.module(), t.runner(), helpers_runner()].map(|ts| if TYPED { ts } else { strip_types(&ts) })
    }

    /// The module of each enums file the rule reads (`tiers.ts`, `tiers.mjs`).
    fn shared_files(t: &Ts<TYPED>) -> Vec<File> {
        t.shared_modules()
    }

    /// One `tsc` over every runner of the folder (each brings its module along); the
    /// JavaScript builds nothing.
    fn build_all(files: &[String]) -> Option<Vec<Vec<String>>> {
        let runners: Vec<String> = files.iter().filter(|f| f.ends_with("_runner.ts")).cloned().collect();
        TYPED.then(|| tsc_build(runners))
    }

    fn runner(base: &str) -> Runner {
        if !TYPED {
            return Runner::script("node", &[], format!("{base}_runner.mjs"));
        }
        let needs = if tsc().is_some() { vec!["node"] } else { vec!["node", "tsc"] };
        let run = vec!["node".into(), format!(".tsbuild/{base}_runner.js")];
        Runner { needs, build: tsc_build(vec![format!("{base}_runner.ts")]), run }
    }

    fn api(t: &Ts<TYPED>, _: &Unit) -> serde_json::Value {
        let (plan, n) = (t.plan, t.n);
        let spell = Spelling { names: n, ty: &|v| t.ty(v), member: Member::Bare };
        let ret = t.returns();
        let fills = [("ret", ret.clone()), ("params", t.params()), ("record_params", t.record_params())];
        // The JavaScript's are the TypeScript's with their types taken off, as its module is.
        let untyped = |s: String| strip_types(&format!("{s} {{}}")).trim_end_matches(" {}").to_string();
        let signatures =
            sig::signatures(n, section(TEMPLATES, MARK, "signatures"), &fills)
                .map(|s| if TYPED { s } else { untyped(s) });
        let place = vec![("module", json!(format!("{}.{}", n.module, <Script<TYPED> as Language>::SPEC.ext)))];
        let more = if plan.enums.is_empty() { vec![] } else { vec![("enum_from_wire", json!("parseMember"))] };
        let day = <Script<TYPED> as Language>::SPEC.types.date.unwrap_or("bigint");
        let dates = Dates { ty: day, from_wire: "dayFromWire", from_native: Some("dayOf") };
        let functions = Functions { place, signatures, more, dates, errors: ERRORS, error_types: ERROR_TYPES };
        let mut entry = spell.functions(plan, &ret, functions);
        // An enum of an enums file is declared in that file's module; the rule's imports it
        // and exports it again.
        super::api::shared_enums(&mut entry, &t.shared(), |s| vec![("module", t.shared_file(s))]);
        entry
    }
}

/// A JavaScript string literal for any text.
fn js_str(s: &str) -> String {
    quoted(s, &Escapes::c_family(|c| format!("\\u{c:04x}")))
}

/// Text inside a `/** … */` comment: one line, and no `*/` to end it early.
fn doc(s: &str) -> String {
    comment(s).replace("*/", "*\\/")
}

/// JavaScript's spellings.
const OPS: Ops = Ops {
    int: |n| format!("{n}n"),
    eq: ["===", "!=="],
    is: ["===", "!=="],
    div_round: |m| format!("_divRound{}", crate::lang::pascal(m.as_str())),
    extremes: Extremes::Pairs { num: ["_min", "_max"], enums: ["_minBy", "_maxBy"], ranked: true },
    ..Ops::c_family(js_str)
};

type Ts<'a, const TYPED: bool> = Gen<'a, Script<TYPED>>;

impl<const TYPED: bool> Syntax for Ts<'_, TYPED> {
    fn own(&self, e: &Expr) -> Option<Form> {
        let Node::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) = &e.node else { return None };
        let t = self.widened(a, b)?;
        let p = OPS.prec.eq;
        let sym = OPS.eq[(*op == CmpOp::Ne) as usize];
        Some(Form::Parts(
            vec![
                Part::Kid(0, p + 1),
                Part::Text(format!(" {sym} ")),
                Part::Kid(1, p + 1),
                Part::Text(format!(" as {t}")),
            ],
            p,
        ))
    }
}

impl<const TYPED: bool> Ts<'_, TYPED> {
    /// `x === 5n` narrows `x` to `5n` where it holds, and TypeScript then refuses a test of
    /// `x === 6n` there (TS2367): a literal compared with a variable of a type without a brand
    /// is cast to the type it belongs to, which narrows nothing.
    fn widened(&self, a: &Expr, b: &Expr) -> Option<&'static str> {
        let Node::Var(v) = a.node else { return None };
        if TS_TYPES.own_type(self.plan, self.n, v).is_some()
            || !matches!(b.node, Node::Int(_) | Node::Bool(_) | Node::Str(_))
        {
            return None;
        }
        Some(match b.kind {
            Kind::Num => "bigint",
            Kind::Bool => "boolean",
            _ => "string",
        })
    }

    /// The parameters with their TypeScript types.
    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{}: {}", self.n.vars[v], self.ty(v)))
    }

    /// The spelling of the generated code's own local `base` (src/lang/naming.rs `locals`).
    fn l(&self, base: &str) -> &str {
        self.n.local(base)
    }

    /// The record function's parameters (the JavaScript's are these with their types taken off).
    fn record_params(&self) -> String {
        let (out, trace, tag) = (self.l("out"), self.l("trace"), self.l("tag"));
        let rest = format!("{out}: {}, {trace}: readonly Fired[], {tag}: string = \"\"", self.returns());
        sig::then(&self.params(), &rest)
    }

    /// The module `rulec gen` writes: an enums file's enums imported from that file's module.
    fn module(&self) -> String {
        self.module_with(false)
    }

    /// The module, with every enum it reads declared in it (`inline`: the page's script,
    /// which has no folder to import from) or an enums file's imported from its module.
    fn module_with(&self, inline: bool) -> String {
        let plan = self.plan;
        let shared = if inline { Vec::new() } else { self.shared() };
        let mut o = Code::new("  ");
        o.raw(&sig::head(plan, "//"));
        o.line("//");
        let about = section(MODULE, MARK, if TYPED { "about_typescript" } else { "about_javascript" });
        if shared.is_empty() {
            o.raw(about);
        } else {
            o.raw(&about.replace("imports nothing", "imports nothing but\n// the modules of the enums files it reads"));
        }
        o.raw("\n\n");
        for s in &shared {
            self.import(&mut o, s);
        }
        for (u, name) in plan.units.iter().zip(&self.n.units) {
            let fills = [("what", doc(&u.what)), ("name", name.clone()), ("quoted", js_str(name))];
            o.filled(section(TEMPLATES, MARK, "unit"), &fills);
            o.blank();
        }
        if plan.dates {
            o.raw(section(MODULE, MARK, "day"));
            o.raw("\n\n");
        }
        self.enums(&mut o, inline);
        self.elements(&mut o);
        let signature = format!("export function {}({}): string {{", self.n.record, self.record_params());
        let record = (section(TEMPLATES, MARK, "record"), signature.as_str());
        sig::rest(&mut o, plan, self, (MODULE, MARK), record, |o, _| self.output(o), |o| self.functions(o));
        o.finish()
    }

    /// The outputs' type: an object of readonly fields.
    fn output(&self, o: &mut Code) {
        let fields = self.plan.outputs.iter().map(|&v| format!("readonly {}: {};", self.n.fields[v], self.ty(v)));
        o.filled(section(TEMPLATES, MARK, "output"), &[("fields", fields.collect::<Vec<_>>().join("\n"))]);
    }

    /// The rule's enums (an enums file's, unless `inline`, are its module's: only their
    /// rank functions are the rule's).
    fn enums(&self, o: &mut Code, inline: bool) {
        for (e, en) in self.plan.enums.iter().enumerate() {
            let name = &self.n.enums[e];
            if inline || en.home.is_none() {
                enum_declaration(o, en, name, &self.n.members[e], parser(&self.n.parsers[e]));
            }
            // The guard let in only the enum's values: the last is the one left.
            let last = self.n.members[e].len() - 1;
            sig::rank_function(o, self.n, e, section(TEMPLATES, MARK, "rank"), doc(&en.name), |member, i| {
                let case = if i == last { "default".into() } else { format!("case {name}.{member}") };
                format!("{case}:\n  return {i};")
            });
        }
    }

    /// The file of an enums file's module.
    fn shared_file(&self, s: &SharedNames) -> String {
        format!("{}.{}", s.file, <Script<TYPED> as Language>::SPEC.ext)
    }

    /// An enums file's enums and their parsers, imported under the rule's names and exported
    /// again, so a caller's import from the rule's module still finds them.
    fn import(&self, o: &mut Code, s: &SharedNames) {
        let mut names = Vec::new();
        for (k, &e) in s.enums.iter().enumerate() {
            let pairs = [(&s.types[k], &self.n.enums[e]), (parser(&s.parsers[k]), parser(&self.n.parsers[e]))];
            for (there, here) in pairs {
                names.push(if there == here { here.clone() } else { format!("{there} as {here}") });
            }
        }
        let here: Vec<String> =
            s.enums.iter().flat_map(|&e| [self.n.enums[e].clone(), parser(&self.n.parsers[e]).clone()]).collect();
        o.line(format!("import {{ {} }} from {};", names.join(", "), js_str(&format!("./{}", self.shared_file(s)))));
        o.line(format!("export {{ {} }};", here.join(", ")));
        o.blank();
    }

    /// The module of each enums file the rule reads: its enums and their parsers, the same
    /// bytes from every rule that reads the file, so a folder holds it once.
    fn shared_modules(&self) -> Vec<File> {
        sig::enums_modules(self.plan, self.shared(), ("  ", "//"), |mut o, s, u| {
            let fills =
                [("source", comment(&u.source_name)), ("first", s.types[0].clone()), ("file", self.shared_file(s))];
            o.filled(section(TEMPLATES, MARK, "shared_module"), &fills);
            o.blank();
            for (k, &e) in s.enums.iter().enumerate() {
                enum_declaration(&mut o, &self.plan.enums[e], &s.types[k], &s.members[k], parser(&s.parsers[k]));
            }
            o.raw(section(MODULE, MARK, "parse_member"));
            let ts = o.finish();
            let text = if TYPED { ts } else { strip_types(&ts) };
            File { path: self.shared_file(s), text: format!("{}\n", text.trim_end()) }
        })
    }

    /// The doc comment of the function: what each parameter is.
    fn function_doc(&self, o: &mut Code) {
        let plan = self.plan;
        let about = plan.rule.about.as_deref().map(|a| format!(": {}", doc(a))).unwrap_or_default();
        o.line(format!("/**\n * Rule {} v{}{about}\n *", doc(&plan.rule.name), plan.rule.version));
        for input in &plan.door.inputs {
            let var = plan.var(input.var);
            let mut what = doc(&var.what);
            if var.optional {
                what.push_str(", or null");
            }
            if let Some((lo, hi)) = sig::range_ends(plan, input.var) {
                what.push_str(&format!(", {}..{}", doc(&lo), doc(&hi)));
            }
            if var.ty == BoundaryTy::Date {
                what.push_str(" (a day number)");
            }
            let ident = &self.n.vars[input.var];
            if *ident != var.name {
                what.push_str(&format!(" (`{}` on the wire)", doc(&var.name)));
            }
            o.line(format!(" * @param {ident} {what}"));
        }
        o.line(" * @throws {RuleInputError} the caller broke the contract\n * @throws {RuleContradictionError} the rule contradicted itself\n */");
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let (args, trace) = (self.args(), self.l("trace"));
        let made = |b: &str, x: &str, optional: bool| format!("{x} as {b}{}", if optional { " | null" } else { "" });
        let answer = sig::answer(plan, n, &TS_TYPES, made, ["{ ", ": ", " }"]);
        let fills = [
            ("params", self.params()),
            ("core_params", sig::then(&self.params(), &format!("{trace}: Fired[] | null"))),
            ("untraced_args", sig::then(&args, "null")),
            ("traced_args", sig::then(&args, trace)),
            ("ret", self.returns()),
            ("not_an_object", js_str(&plan.door.not_an_object)),
            ("record_args", sig::then(&args, &format!("{}, {trace}, {}", self.l("out"), self.l("tag")))),
            ("answer", answer),
        ];
        self.function_doc(o);
        sig::functions(o, n, section(TEMPLATES, MARK, "functions"), &fills, |part, o| {
            walk::part(plan, Lang::TypeScript, part, &mut Body { g: self, o })
        });
        o.blank();
    }

    fn runner(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let head = section(TEMPLATES, MARK, if TYPED { "runner_typescript" } else { "runner_javascript" });
        let fills = [
            ("flags", TSC_FLAGS.join(" ")),
            ("base", plan.rule.base.clone()),
            ("module", n.module.clone()),
            ("wire", n.wire.clone()),
        ];
        let head = text::fill_names(head, |k| text::fill_of(&fills, k).map(str::to_string));
        let body = ["node", "reader", "main"].map(|name| section(RUNNER, MARK, name).replace("rulec_wire", &n.wire));
        let json_str = section(MODULE, MARK, "json_str");
        format!("{}{head}\n\n{}\n\n{json_str}\n", text::header(plan, "//"), body.join("\n\n"))
    }
}

impl<const TYPED: bool> Hooks for Body<'_, '_, Ts<'_, TYPED>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks { binding: "const @: $", declare: "let @: $;", ..Blocks::PARENS };
    /// The record's values: each type's wire text, appended to the line with the text before it.
    const RECORD_VALUES: &'static str = include_str!("runtime/record_values.txt");
    /// The trace (absent from the plain function's call), lists and loops.
    const LISTS: &'static str = include_str!("runtime/lists.txt");
    /// The wire door: the runtime's readers over the call's own keys; the integer and date
    /// readers check the range themselves.
    const WIRE: &'static str = include_str!("runtime/wire.txt");
    /// The entry guard: a caller from JavaScript can pass anything, so the kind of every
    /// input is asked about (absent is null, whichever of null and undefined was passed); a
    /// number's range with its kind, a day out of its range refused as the wire writes it.
    const GUARD: &'static str = include_str!("runtime/guard.txt");

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} += {};", self.g.l("s"), js_str(json)));
    }

    fn guard_sequence(&mut self, seq: &super::plan::SequencePlan, _checks: &[(usize, Vec<walk::Check>)]) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let list = &self.g.n.vars[seq.list];
        let line = format!("{list} = {};", self.g.elements_read(k, list, &self.g.n.element_checks[k]));
        self.o.line(line);
    }

    fn wire_sequence(&mut self, seq: &super::plan::SequencePlan) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let (list, call) = (&self.g.n.vars[seq.list], self.g.l("_call"));
        let read = self.g.elements_read(k, &format!("_get({call}, {})", js_str(&seq.name)), &self.g.n.element_reads[k]);
        let line = format!("const {list}: {} = {read};", self.g.ty(seq.list));
        self.o.line(line);
    }
}

/// A TypeScript enum's parser (one per enum).
fn parser(p: &Option<String>) -> &String {
    p.as_ref().expect("TypeScript names a parser per enum")
}

/// An enum: its frozen object, its union type and its parser.
fn enum_declaration(o: &mut Code, en: &super::plan::EnumPlan, name: &str, members: &[String], parse: &str) {
    let values: Vec<String> = en.values.iter().map(|v| js_str(&v.name)).collect();
    let members = members.iter().zip(&en.values);
    let fills = [
        ("name", doc(&en.name)),
        ("order", if en.ordered { " (ordered: its values compare by their places)" } else { "" }.into()),
        ("type", name.to_string()),
        (
            "members",
            members.map(|(m, v)| format!("{m}: {} as {name},", js_str(&v.name))).collect::<Vec<_>>().join("\n"),
        ),
        ("values", values.join(" | ")),
        ("parse", parse.to_string()),
    ];
    o.filled(section(TEMPLATES, MARK, "enum"), &fills);
    o.blank();
}

/// The JavaScript module of a rule with every enum it reads declared in it, as the page's
/// script holds it: a page has no folder to import an enums file's module from.
pub fn self_contained(u: &Unit) -> String {
    let n = u.names(Lang::JavaScript);
    strip_types(&Ts::<false>::new(&u.plan, &n).module_with(true))
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    let helpers = sig::helpers_text(MODULE, MARK, "\n\n");
    let parts = [
        section(HELPERS_RUNNER, MARK, "about"),
        section(RUNNER, MARK, "node"),
        &helpers,
        section(HELPERS_RUNNER, MARK, "main"),
    ];
    format!("// Code generated by rulec. DO NOT EDIT.\n{}\n", parts.join("\n\n"))
}
