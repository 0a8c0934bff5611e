//! The Rust backend (generated-code.md, Rust): it spells the plan. A newtype per unit, an
//! enum per enum (with its names and the way back from one), `Result<_, RuleError>`; the
//! function, its traced twin and the wire door over one function holding the branches
//! (which pushes the rows that fire only when traced, so the plain function builds no
//! trace); the record
//! function; and only the helpers the rule calls. The module needs std alone and is written
//! to be `include!`d inside `pub mod <alias> { … }` (rulec-build, `include_rule!`). A date is
//! its day number (`Date`), made from the wire's `"YYYY-MM-DD"` by `Date::from_wire`. The
//! fixed text is `runtime/module.rs`; the runner's is `runtime/runner.rs`.

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling};
use super::naming::Names;
use super::plan::{BoundaryTy, Expr, Node, Plan};
use super::printer::{grouped, Cond, Extremes, Idioms, Ops, Order, Prec, Syntax};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body, Match, Refusals};
use super::text::{braced_unicode as rs_str, comment, fill_names, section, Code};
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Pass, Runner, Spec, Unit};
use crate::lang::{is_acronym, is_snake};
use crate::sema::VarId;
use serde_json::json;

mod enums;
pub(crate) use enums::enums_mods;

const MODULE: &str = include_str!("runtime/module.rs");
const RUNNER: &str = include_str!("runtime/runner.rs");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.rs");
const WASI_HOST: &str = include_str!("runtime/wasi.mjs");
const TEMPLATES: &str = include_str!("runtime/templates.txt");
const MARK: &str = "// rulec:";

/// Rust's types: i64 inside the functions, a unit or a date its newtype, a parameter's text
/// borrowed and an output's owned.
const TYPES: Types = Types {
    owned_str: Some("String"),
    units: true,
    date: Some("Date"),
    ..Types::plain("bool", "&str", "i64", "Option<@>", "Vec<@>")
};

pub struct Rust;

impl Language for Rust {
    const SPEC: Spec = Spec::new(Lang::Rust, "rs", OPS, TYPES).file_is_module();

    fn code(r: &Rs) -> [String; 3] {
        [r.module(), r.runner(), helpers_runner()]
    }

    fn more_files(_: &Rs) -> Vec<File> {
        vec![File { path: "_wasi_runner.mjs".into(), text: wasi_host() }]
    }

    /// The module of each enums file the rule reads (`tiers.rs`).
    fn shared_files(r: &Rs) -> Vec<File> {
        r.shared_modules()
    }

    /// The runner, and the same runner built for wasm32-wasip1 under node's WASI
    /// (generated-code.md, "The Rust runner as a WASI module").
    fn passes(base: &str) -> Vec<Pass> {
        let api = wasi(base);
        let words = |v: &serde_json::Value| v.as_str().map_or(vec![], |c| c.split(' ').map(String::from).collect());
        let wasi = Runner { needs: vec!["rustc", "node"], build: vec![words(&api["build"])], run: words(&api["run"]) };
        vec![
            Pass::through(Self::runner(base)),
            Pass { via: "wasi", runner: wasi, probe: Some(target_probe(WASI_TARGET)), server: None },
        ]
    }

    fn runner(base: &str) -> Runner {
        let args = vec!["--edition".into(), "2021".into(), "-O".into(), format!("{base}_runner.rs")];
        Runner::binary("rustc", args, base)
    }

    fn api(r: &Rs, _: &Unit) -> serde_json::Value {
        let (plan, n) = (r.plan, r.n);
        let spell = Spelling { names: n, ty: &|v| r.ty(v), member: Member::Qualified("::") };
        let ret = r.returns();
        let signatures = sig::signatures(n, section(TEMPLATES, MARK, "signatures"), &r.fills());
        let place = vec![("module", json!(format!("{}.rs", n.module)))];
        let dates = Dates { ty: "Date", from_wire: "Date::from_wire", from_native: None };
        let errors = &["RuleError::Input", "RuleError::NotAnInput", "RuleError::Contradiction"];
        // NotAnInput is the wire function's (a key the rule does not read), not a guard's.
        let error_types = ErrorTypes {
            input: ErrorType { name: "RuleError::Input", fields: &["what", "value"] },
            contradiction: ErrorType { name: "RuleError::Contradiction", fields: &["what"] },
        };
        let more = vec![("wasi", wasi(&plan.rule.base))];
        let mut entry = spell.functions(plan, &ret, Functions { place, signatures, more, dates, errors, error_types });
        // An enum of an enums file is declared in that file's module, beside the rule's; the
        // rule's module names it (`pub use super::tiers::Tier;`).
        super::api::shared_enums(&mut entry, &r.shared(), |s| {
            vec![("module", format!("{}.rs", s.module)), ("mod", s.module.clone())]
        });
        entry
    }
}

/// Rust's spellings. An `if` binds loosest of all: written inside an operator, it is
/// always parenthesized.
const OPS: Ops = Ops {
    prec: Prec { cond: 1, or: 2, and: 3, eq: 4, rel: 4, add: 5, mul: 6, not: 7, neg: 7 },
    absent: "None",
    // `10_000_000`, as clippy's unreadable_literal asks.
    int: grouped,
    member: Some("::"),
    div_round: |m| format!("quot_{}", m.as_str()),
    modulo: "mod_floor",
    isqrt: "isqrt_i64",
    extremes: Extremes::Methods { min: ".min(", max: ".max(", literal: "_i64" },
    cond: Cond::Words(["if ", " { ", " } else { ", " }"]),
    order: Order::Native,
    // What clippy asks: no identity operation, a boolean not compared with a literal, a
    // range as a range, a set test as `matches!`.
    idioms: Idioms {
        lean: true,
        one_of: Some(["matches!(", ", ", " | ", ")"]),
        is_none: Some(["@.is_none()", "@.is_some()"]),
        present: Some(["@.is_some_and(|@| ", ")"]),
        range: Some(["(", "..=", "..", ").contains(&", ")"]),
    },
    ..Ops::c_family(rs_str)
};

type Rs<'a> = Gen<'a, Rust>;

impl Syntax for Rs<'_> {}

impl Rs<'_> {
    /// Whether every function's names are snake case (else it needs `#[allow(non_snake_case)]`).
    fn snake(&self) -> bool {
        let n = self.n;
        let fns = [&n.function, &n.traced, &n.record, &n.wire, &n.core];
        n.vars.iter().chain(fns).all(|i| is_snake(i))
    }

    /// Whether two inputs are spelled `x` and `_x` (clippy's duplicate_underscore_argument).
    fn underscored(&self) -> bool {
        let params: Vec<&str> = self.plan.inputs.iter().map(|&v| self.n.vars[v].as_str()).collect();
        params.iter().any(|p| p.strip_prefix('_').is_some_and(|bare| params.contains(&bare)))
    }

    /// The newtype a variable's integer crosses the boundary in, if any.
    fn wrapper(&self, v: VarId) -> Option<&str> {
        match self.plan.var(v).ty {
            BoundaryTy::Unit(u) => Some(&self.n.units[u]),
            BoundaryTy::Date => Some("Date"),
            _ => None,
        }
    }

    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{}: {}", self.n.vars[v], self.ty(v)))
    }

    /// What every template of the module is filled with (runtime/templates.txt).
    fn fills(&self) -> Vec<(&'static str, String)> {
        let plan = self.plan;
        // A lone text output is lent as `&str` (clippy's ptr_arg).
        let lent = if self.returns() == "String" { "&str".to_string() } else { format!("&{}", self.returns()) };
        let (out, trace, tag) = (self.n.local("out"), self.n.local("trace"), self.n.local("tag"));
        let record_params = sig::then(&self.params(), &format!("{out}: {lent}, {trace}: &[Fired], {tag}: &str"));
        let wrapped = self.wrapped_args();
        let record_args = sig::then(&wrapped, &format!("&{out}, &{trace}, {tag}"));
        // A rule without a table pushes nothing onto its trace.
        let trace_param = if plan.tables().next().is_none() { "_" } else { trace };
        vec![
            ("params", self.params()),
            ("ret", self.returns()),
            ("traced_ret", format!("({}, Vec<Fired>)", self.returns())),
            ("params_then", sig::then(&self.params(), "")),
            ("args_then", sig::then(&self.args(), "")),
            ("trace_param", trace_param.to_string()),
            ("record_params", record_params),
            ("about", comment(&sig::about(plan))),
            ("allow", self.lints(true, plan.inputs.len()).unwrap_or_default()),
            ("allow_wire", self.lints(false, 2).unwrap_or_default()),
            ("args", self.args()),
            ("wrapped", wrapped),
            ("record_args", record_args),
        ]
    }

    /// The `#[allow(…)]` line of a function, where it needs one (see [`Self::allow`]).
    fn lints(&self, inputs: bool, params: usize) -> Option<String> {
        let mut lints = Vec::new();
        if !self.snake() {
            lints.push("non_snake_case");
        }
        if params > 7 {
            lints.push("clippy::too_many_arguments");
        }
        if self.underscored() && inputs {
            lints.push("clippy::duplicate_underscore_argument");
        }
        (!lints.is_empty()).then(|| format!("#[allow({})]", lints.join(", ")))
    }

    fn module(&self) -> String {
        let plan = self.plan;
        let mut o = Code::new("    ");
        o.raw(&sig::head(plan, "//"));
        o.blank();
        for (u, name) in plan.units.iter().zip(&self.n.units) {
            let lints = if is_acronym(name) { "#[allow(clippy::upper_case_acronyms)]" } else { "" };
            let fills = [("what", comment(&u.what)), ("lints", lints.into()), ("name", name.clone())];
            o.filled(section(TEMPLATES, MARK, "unit"), &fills);
            o.blank();
        }
        let (fills, sentence) = (self.fills(), rs_str(&plan.door.not_an_input));
        let write = |part, o: &mut Code| walk::part(plan, Lang::Rust, part, &mut Body { g: self, o });
        // The wire door and the core follow the record function.
        let door = |o: &mut Code| {
            let more = [("unwrapped", self.unwrapped()), ("answer", self.answer())];
            sig::functions(o, self.n, section(TEMPLATES, MARK, "door"), &[&fills[..], &more].concat(), write);
            o.blank();
        };
        let tail = sig::Tail {
            errors: &["errors", "fired"],
            // The errors name the plan's sentence of a key that is not an input.
            fills: &[("RULEC_NOT_AN_INPUT", &sentence)],
            after_record: Some(&door),
            ..sig::Tail::new(MODULE, MARK)
        };
        if plan.dates {
            tail.sections(&mut o, &["date"]);
        }
        self.enums(&mut o);
        let output = |o: &mut Code, _| {
            let snake = plan.outputs.iter().all(|&v| is_snake(&self.n.fields[v]));
            let fields = plan.outputs.iter().map(|&v| format!("pub {}: {},", self.n.fields[v], self.ty(v)));
            let fills = [
                ("lints", if snake { "" } else { "#[allow(non_snake_case)]" }.into()),
                ("fields", fields.collect::<Vec<_>>().join("\n")),
            ];
            o.filled(section(TEMPLATES, MARK, "output"), &fills);
        };
        // The wire's value type goes before the functions that read it.
        let functions = |o: &mut Code| {
            tail.sections(o, &["wire_type"]);
            sig::functions(o, self.n, section(TEMPLATES, MARK, "functions"), &fills, write);
            o.blank();
        };
        let lints = self.lints(true, plan.inputs.len() + 3).map(|l| l + "\n").unwrap_or_default();
        let record = sig::signatures(self.n, section(TEMPLATES, MARK, "signatures"), &fills)[2].clone();
        let signature = format!("{lints}#[must_use]\n{record} {{");
        sig::rest(&mut o, plan, self, tail, (section(TEMPLATES, MARK, "record"), &signature), output, functions);
        o.finish()
    }

    /// The inputs as the function takes them, from the locals of the wire door.
    fn wrapped_args(&self) -> String {
        sig::inputs(self.plan, |v| match (self.wrapper(v), self.plan.var(v).optional, &self.n.vars[v]) {
            (Some(w), false, x) => format!("{w}({x})"),
            (Some(w), true, x) => format!("{x}.map({w})"),
            (None, _, x) => x.clone(),
        })
    }

    /// The core's locals, every number the integer it carries.
    fn unwrapped(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let wrapped = plan.inputs.iter().filter(|&&v| self.wrapper(v).is_some());
        let unwrap = |&v: &VarId| match (&n.vars[v], plan.var(v).optional) {
            (x, true) => format!("let {x}: Option<i64> = {x}.map(|x| x.0);"),
            (x, false) => format!("let {x}: i64 = {x}.0;"),
        };
        wrapped.map(unwrap).collect::<Vec<_>>().join("\n")
    }

    /// What the core answers: the outputs, each made its boundary type.
    fn answer(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let value = |v: VarId| -> String {
            let x = n.vars[v].clone();
            match (plan.var(v).ty, self.wrapper(v), plan.var(v).optional) {
                (BoundaryTy::Str, _, _) if plan.var(v).list => format!("{x}.into_iter().map(str::to_string).collect()"),
                _ if plan.var(v).list => x,
                (BoundaryTy::Str, _, false) => format!("{x}.to_string()"),
                (BoundaryTy::Str, _, true) => format!("{x}.map(str::to_string)"),
                (_, Some(w), false) => format!("{w}({x})"),
                (_, Some(w), true) => format!("{x}.map({w})"),
                (_, None, _) => x,
            }
        };
        match plan.outputs.as_slice() {
            [one] => value(*one),
            outs => {
                let fields = outs.iter().map(|&v| match (value(v), &n.fields[v]) {
                    (x, f) if x == *f => x,
                    (x, f) => format!("{f}: {x}"),
                });
                format!("Output {{ {} }}", fields.collect::<Vec<_>>().join(", "))
            }
        }
    }

    fn runner(&self) -> String {
        let head = super::text::header(self.plan, "//");
        let about = "//\n// The runner `rulec test` drives: one vectors line in, one record (or refusal) out.";
        let runner = section(RUNNER, MARK, "runner");
        // The module of each enums file the rule reads, where the rule's names it: beside it.
        let mods = enums_mods(self.plan, self.n);
        let runner = if mods.is_empty() { runner.to_string() } else { format!("{mods}{runner}") };
        let body = [runner.as_str(), &answer(self.plan, self.n)].join("\n\n");
        let build = format!("// Build: rustc --edition 2021 -O {}_runner.rs", self.plan.rule.base);
        format!("{head}{about}\n{build}\n\n{}\n", body.replace("rulec_rule", &self.n.module))
    }
}

/// The walker's hooks: the statements of the function bodies.
impl Body<'_, '_, Rs<'_>> {
    fn optional(&self, e: &Expr) -> String {
        match &e.node {
            Node::Absent => "None".into(),
            _ if e.optional => self.g.top(e),
            Node::If(c, a, b) => {
                format!("if {} {{ {} }} else {{ {} }}", self.g.top(c), self.optional(a), self.optional(b))
            }
            _ => format!("Some({})", self.g.top(e)),
        }
    }
}

impl Hooks for Body<'_, '_, Rs<'_>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        semi: ";",
        refuse: Refusals {
            input: "return Err(RuleError::Input { what: @, value: $ });",
            input_alone: "return Err(RuleError::Input { what: @, value: None });",
            contradiction: "return Err(RuleError::Contradiction { what: @ });",
        },
        else_when_true: true,
        native_match: Some(Match {
            open: "match @ {",
            arm: "@ => {",
            close: "}",
            any: "_",
            or: " | ",
            tuple: ["(", ", ", ")"],
            rest: "#[allow(unreachable_patterns)]\n_ => $,",
        }),
        shown: ["Some(Refused::Member(@.as_str()))", "Some(Refused::Day(@))", "Some(Refused::Number(@))"],
        shown_held: Some(["@.map(|x| Refused::Member(x.as_str()))", "@.map(Refused::Day)", "@.map(Refused::Number)"]),
        binds_optionals: true,
        ..Blocks::BARE
    };
    /// The wire door: the runtime's readers; an integer's range sentence (E054: every counted
    /// input has one) is its reader's past i64 too, and an unknown key's is `NotAnInput`'s.
    const WIRE: &'static str = include_str!("runtime/wire.txt");
    /// The record's values appended to its buffer, an output's field lent where read whole.
    const RECORD_VALUES: &'static str = include_str!("runtime/record_values.txt");
    /// The trace, lists and loops: a row pushed only in the traced core (`TRACED`, a constant
    /// the compiler folds, so the plain function's code is what it is with no trace at all).
    const LISTS: &'static str = include_str!("runtime/lists.txt");

    /// The value stored into a variable: an optional one takes `Some` around a value.
    fn value(&self, var: VarId, e: &Expr) -> String {
        if self.g.plan.var(var).optional {
            self.optional(e)
        } else {
            self.g.top(e)
        }
    }

    fn binding(&self, var: VarId) -> String {
        format!("let {}: {}", self.name(var), self.g.local_ty(var))
    }

    fn declare(&mut self, var: VarId) {
        self.o.line(format!("{};", self.binding(var)));
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{}.push_str({});", self.g.n.local("json"), rs_str(json)));
    }
}

/// The target the runner is built for as a WASI command.
const WASI_TARGET: &str = "wasm32-wasip1";

/// The runner built as a WASI command, as `rulec api` gives it (runtime/templates.txt,
/// `wasi`): a crate name of its own keeps rustc's object files (written beside the output,
/// named after the crate) apart from the native build's in the same folder.
fn wasi(base: &str) -> serde_json::Value {
    let fill = |name: &str| Some(if name == "target" { WASI_TARGET } else { base }.to_string());
    serde_json::from_str(&fill_names(section(TEMPLATES, MARK, "wasi"), fill)).expect("the wasi template is JSON")
}

/// The WASI host the runner's module runs under: node's `node:wasi` (runtime/wasi.mjs).
fn wasi_host() -> String {
    format!("// Code generated by rulec. DO NOT EDIT.\n{WASI_HOST}")
}

/// A command that fails, saying what to install, when rustc has no standard library for
/// `target` (a pass that builds for it is then not run).
pub(crate) fn target_probe(target: &str) -> Vec<String> {
    let script = format!(
        "test -d \"$(rustc --print target-libdir --target {target})\" || {{ echo \"the {target} standard library is not installed (rustup target add {target})\" >&2; exit 1; }}"
    );
    vec!["sh".into(), "-c".into(), script]
}

/// What a runner answers for one line of the wire (the `answer` and `json` sections of
/// runtime/runner.rs), over the module `rule`: the Rust runner's `main` prints it, the Wasm
/// entry hands it to its host.
pub(crate) fn answer(plan: &Plan, n: &Names) -> String {
    [section(RUNNER, MARK, "answer"), section(RUNNER, MARK, "json")]
        .join("\n\n")
        .replace("rulec_wire", &n.wire)
        .replace("RULEC_NOT_AN_OBJECT", &rs_str(&plan.door.not_an_object))
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    let head = "// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Rust, held to the reference (vectors/_helpers.jsonl).\n// Build: rustc --edition 2021 -O _helpers_runner.rs";
    format!("{head}\n\n{}\n\n{}", section(HELPERS_RUNNER, MARK, "main"), helpers_case())
}

/// One case of the helpers' unit vectors answered, and every helper a module may carry.
pub(crate) fn helpers_case() -> String {
    let helpers = sig::every_helper().into_iter().map(|name| format!("\n{}\n", section(MODULE, MARK, &name)));
    format!("{}\n{}", section(HELPERS_RUNNER, MARK, "case"), helpers.collect::<String>())
}
