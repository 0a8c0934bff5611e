//! The TypeScript and JavaScript backends (generated-code.md, TypeScript and JavaScript).
//!
//! One emitter writes both: the JavaScript is the TypeScript with its types taken off, so
//! every line is written once and spelled with or without its types (`typed`). What the
//! types add is marked in the fixed texts below with `«…»`, kept for TypeScript and
//! dropped for JavaScript ([`strip`]); the generated parts ask [`Gen::typed`].
//!
//! Every number is a `bigint` (a JavaScript number is exact only to 2^53, the proof, E108,
//! is about int64), each unit a branded bigint, an enum a frozen object plus a union type,
//! a date the `YYYY-MM-DD` the wire writes. The TypeScript uses erasable syntax only — no
//! `enum`, no namespace, no parameter property — so a runtime that strips types runs it.
//! A caller from JavaScript can pass anything, so the entry guard asks about the kind of
//! every input too: a number whose value is whole is taken as that integer.

use super::legacy_plan::{self as plan, Check, Code, Helper, Plan, Step};
use super::names::{ident, pascal, unit_type};
use super::{Backend, File, Lang, Runner, Unit};
use crate::num::RoundMode;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use std::collections::BTreeSet;
use std::fmt::Write;

/// `Lang::TypeScript`: `<alias>.ts`, built with `tsc --strict` and run with node.
pub struct TypeScript;

/// `Lang::JavaScript`: `<alias>.mjs`, an ES module node runs as it stands.
pub struct JavaScript;

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

impl Backend for TypeScript {
    fn lang(&self) -> Lang {
        Lang::TypeScript
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        generate(u, true)
    }

    fn runner(&self, alias: &str) -> Runner {
        let explicit = tsc();
        let mut build: Vec<String> = vec![explicit.clone().unwrap_or_else(|| "tsc".into())];
        build.extend(TSC_FLAGS.iter().map(|s| s.to_string()));
        build.extend(
            ["--rewriteRelativeImportExtensions", "--outDir", ".tsbuild", &format!("{alias}_runner.ts")]
                .iter()
                .map(|s| s.to_string()),
        );
        // The emitted .js files are ES modules: say so beside them.
        let package = vec![
            "node".to_string(),
            "-e".to_string(),
            "require('fs').writeFileSync('.tsbuild/package.json', '{\"type\":\"module\"}\\n')".to_string(),
        ];
        Runner {
            needs: if explicit.is_some() { vec!["node"] } else { vec!["node", "tsc"] },
            build: vec![build, package],
            run: vec!["node".into(), format!(".tsbuild/{alias}_runner.js")],
        }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        api(u, true)
    }
}

impl Backend for JavaScript {
    fn lang(&self) -> Lang {
        Lang::JavaScript
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        generate(u, false)
    }

    fn runner(&self, alias: &str) -> Runner {
        Runner { needs: vec!["node"], build: Vec::new(), run: vec!["node".into(), format!("{alias}_runner.mjs")] }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        api(u, false)
    }
}

fn ext(typed: bool) -> &'static str {
    if typed {
        "ts"
    } else {
        "mjs"
    }
}

fn generate(u: &Unit, typed: bool) -> Vec<File> {
    let plan = plan::build(u.program, u.analysis, &u.text);
    let g = Gen { u, p: u.program, plan: &plan, typed };
    let alias = u.program.ident().to_string();
    let ext = ext(typed);
    vec![
        File { path: format!("{alias}.{ext}"), text: g.module() },
        File { path: format!("{alias}_runner.{ext}"), text: g.runner() },
        File { path: format!("_helpers_runner.{ext}"), text: helpers_runner(typed) },
    ]
}

fn api(u: &Unit, typed: bool) -> serde_json::Value {
    let plan = plan::build(u.program, u.analysis, &u.text);
    let g = Gen { u, p: u.program, plan: &plan, typed };
    let p = u.program;
    let f = g.fn_name();
    let ret = g.returns();
    let (out, trace, tag) = g.record_names();
    let (signature, traced_signature, record_signature) = if typed {
        let params = g.params();
        (
            format!("export function {f}({params}): {ret}"),
            format!("export function {f}_traced({params}): [{ret}, Fired[]]"),
            format!(
                "export function {f}_record({params}, {out}: {ret}, {trace}: readonly Fired[], {tag}: string = \"\"): string"
            ),
        )
    } else {
        let args = g.args();
        (
            format!("export function {f}({args})"),
            format!("export function {f}_traced({args})"),
            format!("export function {f}_record({args}, {out}, {trace}, {tag} = \"\")"),
        )
    };
    serde_json::json!({
        "module": format!("{}.{}", p.ident(), ext(typed)),
        "function": f,
        "signature": signature,
        "traced": format!("{f}_traced"),
        "traced_signature": traced_signature,
        "record": format!("{f}_record"),
        "record_signature": record_signature,
        "params": p.inputs.iter().map(|&v| super::api_param(u, v, &g.api_type(v))).collect::<Vec<_>>(),
        "returns": ret,
        "outputs": p.outputs.iter().map(|&v| super::api_output(u, v, &g.api_type(v))).collect::<Vec<_>>(),
        "enums": super::api_enums(u, &|e| g.enum_name(e), &|e, i| g.member_key(e, i)),
        "errors": ["RuleInputError", "RuleContradictionError"],
    })
}

/// Keep what `«…»` marks when `typed`, drop it otherwise; everything else is kept as it is.
pub fn strip(text: &str, typed: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        match c {
            '«' => inside = true,
            '»' => inside = false,
            _ if inside && !typed => {}
            c => out.push(c),
        }
    }
    out
}

/// A JavaScript string literal (JSON's spelling is one).
fn lit(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn mode_fn(m: RoundMode) -> String {
    format!("_divRound{}", pascal(m.as_str()))
}

/// What a code node holds, for the spellings that differ by kind (comparisons, min and max).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Num,
    Bool,
    Str,
    Enum(EnumId),
    Unknown,
}

struct Gen<'a> {
    u: &'a Unit<'a>,
    p: &'a Program,
    plan: &'a Plan,
    typed: bool,
}

impl Gen<'_> {
    // ---- names --------------------------------------------------------------------------

    fn name(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        ident(&var.name, var.alias.as_deref())
    }

    fn fn_name(&self) -> String {
        ident(&self.p.name, self.p.alias.as_deref())
    }

    fn enum_name(&self, e: EnumId) -> String {
        pascal(&ident(&self.p.enums[e].name, self.p.enums[e].alias.as_deref()))
    }

    /// The key of a member in the enum's object: the alias (or the name) in upper case.
    fn member_key(&self, e: EnumId, i: u32) -> String {
        let v = &self.p.enums[e].values[i as usize];
        v.alias.as_deref().unwrap_or(&v.name).to_ascii_uppercase()
    }

    fn member(&self, e: EnumId, i: u32) -> String {
        format!("{}.{}", self.enum_name(e), self.member_key(e, i))
    }

    /// `Tier` → `_tierOrder` / `_tierRank`: the places of an ordered enum's values.
    fn order_name(&self, e: EnumId, what: &str) -> String {
        let n = self.enum_name(e);
        let mut c = n.chars();
        let first = c.next().map(|f| f.to_ascii_lowercase().to_string()).unwrap_or_default();
        format!("_{first}{}{what}", c.as_str())
    }

    /// The local that holds a date input's day number (the parameter holds its text).
    fn is_date_input(&self, v: VarId) -> bool {
        self.p.vars[v].ty == Ty::Date && self.p.inputs.contains(&v)
    }

    /// How the body reads a variable: its name, or a date input's day number.
    fn var_ref(&self, v: VarId) -> String {
        if self.is_date_input(v) {
            format!("_day_{}", self.name(v))
        } else {
            self.name(v)
        }
    }

    /// The record function's last three parameters, clear of the inputs' names.
    fn record_names(&self) -> (String, String, String) {
        let taken: Vec<String> = self.p.inputs.iter().map(|&v| self.name(v)).collect();
        let free = |base: &str| {
            let mut n = base.to_string();
            while taken.contains(&n) {
                n.insert(0, '_');
            }
            n
        };
        (free("out"), free("trace"), free("tag"))
    }

    // ---- types --------------------------------------------------------------------------

    /// The type a parameter or an output has in the API (TypeScript's spelling; JavaScript's
    /// `rulec api` entry names the same runtime kinds without the brands).
    fn api_type(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let base = match &var.ty {
            Ty::Bool => "boolean".to_string(),
            Ty::Int | Ty::Number => "bigint".to_string(),
            Ty::Date | Ty::Str => "string".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ if !self.typed => "bigint".to_string(),
            ty => unit_type(self.p, ty).expect("a unit type"),
        };
        if var.optional {
            format!("{base} | null")
        } else {
            base
        }
    }

    /// The type a value has inside the function body.
    fn local_type(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let base = match &var.ty {
            Ty::Bool => "boolean".to_string(),
            Ty::Str => "string".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ => "bigint".to_string(),
        };
        if var.optional {
            format!("{base} | null")
        } else {
            base
        }
    }

    /// The brand a number carries in the API, when it has one.
    fn brand(&self, v: VarId) -> Option<String> {
        match &self.p.vars[v].ty {
            ty @ (Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. }) => unit_type(self.p, ty),
            _ => None,
        }
    }

    fn is_number(&self, v: VarId) -> bool {
        matches!(self.p.vars[v].ty, Ty::Int | Ty::Number | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }

    /// `: T` in TypeScript, nothing in JavaScript.
    fn ann(&self, ty: &str) -> String {
        if self.typed {
            format!(": {ty}")
        } else {
            String::new()
        }
    }

    /// `e as T` in TypeScript, `e` in JavaScript.
    fn cast(&self, e: &str, ty: &str) -> String {
        if self.typed {
            format!("{e} as {ty}")
        } else {
            e.to_string()
        }
    }

    fn params(&self) -> String {
        self.p
            .inputs
            .iter()
            .map(|&v| format!("{}{}", self.name(v), self.ann(&self.api_type(v))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn args(&self) -> String {
        self.p.inputs.iter().map(|&v| self.name(v)).collect::<Vec<_>>().join(", ")
    }

    fn returns(&self) -> String {
        match self.p.outputs.as_slice() {
            [one] => self.api_type(*one),
            _ => "Output".into(),
        }
    }

    // ---- the module ---------------------------------------------------------------------

    fn module(&self) -> String {
        let mut o = self.u.header("//");
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, "//\n// {about}");
        }
        o.push_str(if self.typed {
            "//\n// Every number is a bigint in its declared unit, each unit a branded bigint; an enum is a\n// frozen object and a union type; a date is \"YYYY-MM-DD\". Erasable syntax only: it runs\n// with its types stripped as well as built with tsc. It imports nothing.\n"
        } else {
            "//\n// Every number is a bigint in its declared unit (the unit is in the comments, JavaScript\n// has nowhere else to put it); an enum is a frozen object; a date is \"YYYY-MM-DD\".\n// An ES module that imports nothing.\n"
        });
        o.push('\n');
        self.types(&mut o);
        self.functions(&mut o);
        self.record(&mut o);
        self.helpers(&mut o);
        o
    }

    fn types(&self, o: &mut String) {
        if self.typed {
            for (name, ty) in super::names::unit_types(self.p) {
                let what = crate::sema::ty_name(&ty, &self.p.enums);
                let _ = writeln!(
                    o,
                    "/** {what}: a whole number of its unit. Construct one with `as`: `1000n as {name}`. */\nexport type {name} = bigint & {{ readonly __rulec: {} }};\n",
                    lit(&name)
                );
            }
        }
        for (e, en) in self.p.enums.iter().enumerate() {
            let name = self.enum_name(e);
            let _ = writeln!(
                o,
                "/** enum {}{}: each member's value is its name, as the wire and the records write it. */",
                en.name,
                if en.ordered { " (ordered: a value compares by its place)" } else { "" }
            );
            let _ = writeln!(o, "export const {name} = Object.freeze({{");
            for (i, v) in en.values.iter().enumerate() {
                let _ = writeln!(o, "  {}: {},", self.member_key(e, i as u32), lit(&v.name));
            }
            let _ = writeln!(o, "}}{});", if self.typed { " as const" } else { "" });
            if self.typed {
                let _ = writeln!(o, "export type {name} = (typeof {name})[keyof typeof {name}];");
            } else {
                let _ = writeln!(
                    o,
                    "/** @typedef {{{}}} {name} */",
                    en.values.iter().map(|v| lit(&v.name)).collect::<Vec<_>>().join(" | ")
                );
            }
            let _ = writeln!(
                o,
                "\n/** The value of enum {} named `s`, or undefined when `s` names none. */\nexport function parse{name}(s{}){} {{\n  switch (s) {{",
                en.name,
                self.ann("unknown"),
                self.ann(&format!("{name} | undefined"))
            );
            for (i, v) in en.values.iter().enumerate() {
                let _ = writeln!(o, "    case {}:\n      return {};", lit(&v.name), self.member(e, i as u32));
            }
            o.push_str("  }\n  return undefined;\n}\n\n");
            if en.ordered {
                let order = self.order_name(e, "Order");
                let rank = self.order_name(e, "Rank");
                let _ = writeln!(
                    o,
                    "/** The values of enum {} in their order. */\nconst {order}{} = Object.freeze([{}]);\n\n/** The place of a value of enum {} in its order (from 0). */\nfunction {rank}(v{}){} {{\n  return {order}.indexOf(v);\n}}\n",
                    en.name,
                    self.ann(&format!("readonly {name}[]")),
                    (0..en.values.len()).map(|i| self.member(e, i as u32)).collect::<Vec<_>>().join(", "),
                    en.name,
                    self.ann(&name),
                    self.ann("number"),
                );
            }
        }
        o.push_str(&strip(ERRORS, self.typed));
        if !self.typed {
            o.push_str("/**\n * A row that fired: the table's name and the row's number as written (from 1).\n * @typedef {{ table: string, row: number }} Fired\n */\n\n");
            if self.p.outputs.len() > 1 {
                let fields: Vec<String> =
                    self.p.outputs.iter().map(|&v| format!("{}: {}", self.name(v), self.api_type(v))).collect();
                let _ = writeln!(
                    o,
                    "/**\n * What the rule answers: its outputs, in declaration order.\n * @typedef {{{{ {} }}}} Output\n */\n",
                    fields.join(", ")
                );
            }
        }
        if self.typed {
            o.push_str("/** A row that fired: the table's name and the row's number as written (from 1). */\nexport type Fired = { readonly table: string; readonly row: number };\n\n");
            if self.p.outputs.len() > 1 {
                o.push_str(
                    "/** What the rule answers: its outputs, in declaration order. */\nexport type Output = {\n",
                );
                for &v in &self.p.outputs {
                    let _ = writeln!(o, "  readonly {}: {};", self.name(v), self.api_type(v));
                }
                o.push_str("};\n\n");
            }
        }
    }

    /// The doc comment above the function: what each parameter is.
    fn doc(&self, o: &mut String) {
        o.push_str("/**\n");
        let _ = writeln!(o, " * Rule {} v{}.", self.p.name, self.p.version);
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, " * {about}");
        }
        o.push_str(" *\n");
        for &v in &self.p.inputs {
            let var = &self.p.vars[v];
            let mut what = crate::sema::ty_name(&var.ty, &self.p.enums);
            if var.optional {
                what.push_str(", or null");
            }
            if let Some(r) = &var.range_text {
                let _ = write!(what, ", {r}");
            }
            let ty = if self.typed { String::new() } else { format!("{{{}}} ", self.api_type(v)) };
            let wire = if var.name != self.name(v) { format!(" (`{}` on the wire)", var.name) } else { String::new() };
            let _ = writeln!(o, " * @param {ty}{} {what}{wire}", self.name(v));
        }
        if !self.typed {
            let _ = writeln!(o, " * @returns {{{}}}", self.returns());
        }
        let _ = writeln!(
            o,
            " * @throws {{RuleInputError}} the caller broke the contract\n * @throws {{RuleContradictionError}} the rule contradicted itself\n */"
        );
    }

    fn functions(&self, o: &mut String) {
        let f = self.fn_name();
        let (params, args, ret) = (self.params(), self.args(), self.returns());
        self.doc(o);
        let _ =
            writeln!(o, "export function {f}({params}){} {{\n  return {f}_traced({args})[0];\n}}\n", self.ann(&ret));
        let _ = writeln!(o, "/** The same call, with the rows that matched: one per table, in evaluation order. */");
        let _ = writeln!(o, "export function {f}_traced({params}){} {{", self.ann(&format!("[{ret}, Fired[]]")));
        self.entry_guard(o);
        let _ = writeln!(o, "  const _trace{} = [];", self.ann("Fired[]"));
        let mut declared: BTreeSet<VarId> = BTreeSet::new();
        for step in &self.plan.steps {
            match step {
                Step::Define { var, value } => {
                    let _ = writeln!(o, "  // define {}", self.p.vars[*var].name);
                    if declared.insert(*var) {
                        let _ = writeln!(
                            o,
                            "  const {}{} = {};",
                            self.name(*var),
                            self.ann(&self.local_type(*var)),
                            self.expr(value)
                        );
                    } else {
                        let _ = writeln!(o, "  {} = {};", self.name(*var), self.expr(value));
                    }
                }
                Step::Table { table, rows, guards } => self.table(o, *table, rows, guards, &mut declared),
            }
        }
        let out = match self.p.outputs.as_slice() {
            [one] => self.out_value(*one),
            outs => format!(
                "{{ {} }}",
                outs.iter().map(|&v| format!("{}: {}", self.name(v), self.out_value(v))).collect::<Vec<_>>().join(", ")
            ),
        };
        let _ = writeln!(o, "  return [{out}, _trace];\n}}\n");
    }

    /// An output as the API hands it over: a number with its brand, a date as its text.
    fn out_value(&self, v: VarId) -> String {
        let n = self.var_ref(v);
        let var = &self.p.vars[v];
        if var.ty == Ty::Date {
            return if var.optional {
                format!("{n} === null ? null : _dateStr({n})")
            } else {
                format!("_dateStr({n})")
            };
        }
        match self.brand(v) {
            Some(b) if var.optional => self.cast(&n, &format!("{b} | null")),
            Some(b) => self.cast(&n, &b),
            None => n,
        }
    }

    fn refuse_input(&self, sentence: &str, value: &str) -> String {
        format!("throw new RuleInputError({}, {value});", lit(sentence))
    }

    /// The entry guard, input by input in declaration order — missing, kind, membership,
    /// range — then every constraint: the order the reference's door refuses in.
    fn entry_guard(&self, o: &mut String) {
        o.push_str("  // The entry guard: what the proofs assumed of every call. A caller from JavaScript\n  // can pass anything, so the kind of every input is asked about too.\n");
        for &v in &self.p.inputs {
            let var = &self.p.vars[v];
            let n = self.name(v);
            if self.is_date_input(v) && var.optional {
                let _ = writeln!(o, "  let _day_{n}{} = null;", self.ann("bigint | null"));
            }
            let mut body = String::new();
            self.input_checks(&mut body, v);
            if var.optional {
                let _ = write!(o, "  if (_isAbsent({n})) {{\n    {n} = null;\n  }} else {{\n");
                for line in body.lines() {
                    let _ = writeln!(o, "  {line}");
                }
                o.push_str("  }\n");
            } else {
                let _ = writeln!(
                    o,
                    "  if (_isAbsent({n})) {{\n    {}\n  }}",
                    self.refuse_input(&format!("{} is missing", var.name), "null")
                );
                o.push_str(&body);
            }
        }
        for (c, sentence) in &self.plan.constraints {
            let _ = writeln!(
                o,
                "  if (!{}) {{\n    {}\n  }}",
                paren(self.constraint(c)),
                self.refuse_input(sentence, "null")
            );
        }
    }

    /// The kind of one input, then its range; `name` holds a value (present, when optional).
    fn input_checks(&self, o: &mut String, v: VarId) {
        let var = &self.p.vars[v];
        let n = self.name(v);
        let say = |what: &str| format!("{} {what}", var.name);
        let range = self.plan.guards.iter().find(|g| g.var == v);
        match &var.ty {
            Ty::Bool => {
                let _ = writeln!(
                    o,
                    "  if (typeof {n} !== \"boolean\") {{\n    {}\n  }}",
                    self.refuse_input(&say("is not a boolean"), &n)
                );
            }
            Ty::Str => {
                let _ = writeln!(
                    o,
                    "  if (typeof {n} !== \"string\") {{\n    {}\n  }}",
                    self.refuse_input(&say("is not a string"), &n)
                );
            }
            Ty::Enum(e) => {
                let _ = writeln!(
                    o,
                    "  if (parse{}({n}) === undefined) {{\n    {}\n  }}",
                    self.enum_name(*e),
                    self.refuse_input(&say(&format!("is not a value of enum {}", self.p.enums[*e].name)), &n)
                );
                if let Some(plan::InputGuard { check: Check::EnumRange { lo, hi }, sentence, .. }) = range {
                    let rank = self.order_name(*e, "Rank");
                    let _ = writeln!(
                        o,
                        "  if ({rank}({n}) < {rank}({}) || {rank}({n}) > {rank}({})) {{\n    {}\n  }}",
                        self.member(*e, *lo),
                        self.member(*e, *hi),
                        self.refuse_input(sentence, &n)
                    );
                }
            }
            Ty::Date => {
                let d = self.var_ref(v);
                let _ = writeln!(
                    o,
                    "  {}{d} = _dayOf({n});\n  if ({d} === null) {{\n    {}\n  }}",
                    if var.optional { "" } else { "const " },
                    self.refuse_input(&say("is not a date"), &n)
                );
                if let Some(plan::InputGuard { check: Check::Range { lo, hi }, sentence, .. }) = range {
                    let _ = writeln!(
                        o,
                        "  if (!({lo}n <= {d} && {d} <= {hi}n)) {{\n    {}\n  }}",
                        self.refuse_input(sentence, &n)
                    );
                }
            }
            _ => {
                let conv = match self.brand(v) {
                    Some(b) => self.cast(&format!("BigInt({n})"), &b),
                    None => format!("BigInt({n})"),
                };
                let _ = writeln!(
                    o,
                    "  if (_isWhole({n})) {{\n    {n} = {conv};\n  }}\n  if (typeof {n} !== \"bigint\") {{\n    {}\n  }}",
                    self.refuse_input(&say("is not an integer"), &n)
                );
                let (lo, hi, sentence) = match range {
                    Some(plan::InputGuard { check: Check::Range { lo, hi }, sentence, .. }) => {
                        (lo.to_string(), hi.to_string(), sentence.clone())
                    }
                    // No declared range: still no more than int64 holds, as every door reads it.
                    _ => (i64::MIN.to_string(), i64::MAX.to_string(), say("is out of range")),
                };
                let _ = writeln!(
                    o,
                    "  if (!({lo}n <= {n} && {n} <= {hi}n)) {{\n    {}\n  }}",
                    self.refuse_input(&sentence, &n)
                );
            }
        }
    }

    /// A constraint holds when an optional it reads is absent.
    fn constraint(&self, c: &Code) -> String {
        let optionals = c.optionals_read(self.p);
        let mut parts: Vec<String> = optionals.iter().map(|&v| format!("{} === null", self.var_ref(v))).collect();
        parts.push(self.expr(c));
        if parts.len() == 1 {
            parts.pop().expect("one part")
        } else {
            format!("({})", parts.join(" || "))
        }
    }

    fn table(
        &self,
        o: &mut String,
        t: usize,
        rows: &[plan::Row],
        guards: &[(usize, usize, String)],
        declared: &mut BTreeSet<VarId>,
    ) {
        let table = &self.p.tables[t];
        let _ = writeln!(o, "  // table {} (policy {})", table.name, table.policy.as_str());
        for (a, b, sentence) in guards {
            let _ = writeln!(o, "  // guard: W114 (table {}, row {a} × row {b}): a pair of rows whose exclusivity could not be proven statically", table.name);
            let _ = writeln!(
                o,
                "  if ({} && {}) {{\n    throw new RuleContradictionError({});\n  }}",
                paren(self.expr(&rows[a - 1].cond)),
                paren(self.expr(&rows[b - 1].cond)),
                lit(sentence)
            );
        }
        for &r in &table.results {
            if declared.insert(r) {
                let _ = writeln!(o, "  let {}{};", self.name(r), self.ann(&self.local_type(r)));
            }
        }
        for (i, row) in rows.iter().enumerate() {
            let kw = if i == 0 { "  if" } else { " else if" };
            let _ = writeln!(o, "{kw} {} {{", cond(self.expr(&row.cond)));
            let _ = writeln!(o, "    // row {}: {}", row.n, row.cells);
            for (v, value) in &row.assigns {
                let _ = writeln!(o, "    {} = {};", self.name(*v), self.expr(value));
            }
            let _ = write!(o, "    _trace.push({{ table: {}, row: {} }});\n  }}", lit(&table.name), row.n);
        }
        let _ = writeln!(
            o,
            " else {{\n    throw new RuleContradictionError({});\n  }}",
            lit(&format!("table {}: no row matched", table.name))
        );
    }

    // ---- expressions --------------------------------------------------------------------

    fn kind(&self, c: &Code) -> Kind {
        match c {
            Code::Int(_)
            | Code::Neg(_)
            | Code::Add(..)
            | Code::Sub(..)
            | Code::Mul(..)
            | Code::DivExact(..)
            | Code::DivRound(..)
            | Code::Mod(..)
            | Code::Isqrt(_) => Kind::Num,
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
            Code::Absent => Kind::Unknown,
            Code::Var(v) => match &self.p.vars[*v].ty {
                Ty::Bool => Kind::Bool,
                Ty::Str => Kind::Str,
                Ty::Enum(e) => Kind::Enum(*e),
                _ => Kind::Num,
            },
            Code::Min(xs) | Code::Max(xs) => {
                xs.iter().map(|x| self.kind(x)).find(|k| *k != Kind::Unknown).unwrap_or(Kind::Unknown)
            }
            Code::If(_, a, b) => match self.kind(a) {
                Kind::Unknown => self.kind(b),
                k => k,
            },
        }
    }

    fn expr(&self, c: &Code) -> String {
        let bin = |op: &str, a: &Code, b: &Code| format!("({} {op} {})", self.expr(a), self.expr(b));
        match c {
            Code::Int(n) => format!("{n}n"),
            Code::Bool(b) => b.to_string(),
            Code::Str(s) => lit(s),
            Code::Enum(e, i) => self.member(*e, *i),
            Code::Absent => "null".into(),
            Code::Var(v) => self.var_ref(*v),
            Code::Neg(x) => format!("-{}", paren(self.expr(x))),
            Code::Add(a, b) => bin("+", a, b),
            Code::Sub(a, b) => bin("-", a, b),
            Code::Mul(a, b) => bin("*", a, b),
            // Exact (E106 proved it lands on the unit), so truncation never shows.
            Code::DivExact(a, q) => format!("({} / {q}n)", self.expr(a)),
            Code::DivRound(n, d, m) => format!("{}({}, {})", mode_fn(*m), self.expr(n), self.expr(d)),
            Code::Min(xs) | Code::Max(xs) => {
                let min = matches!(c, Code::Min(_));
                match self.kind(c) {
                    Kind::Enum(e) => {
                        let rank = self.order_name(e, "Rank");
                        format!(
                            "{}[Math.{}({})]",
                            self.order_name(e, "Order"),
                            if min { "min" } else { "max" },
                            xs.iter().map(|x| format!("{rank}({})", self.expr(x))).collect::<Vec<_>>().join(", ")
                        )
                    }
                    _ => {
                        let f = if min { "_min" } else { "_max" };
                        let mut s = self.expr(&xs[0]);
                        for x in &xs[1..] {
                            s = format!("{f}({s}, {})", self.expr(x));
                        }
                        s
                    }
                }
            }
            Code::Mod(a, b) => format!("_mod({}, {})", self.expr(a), self.expr(b)),
            Code::Isqrt(x) => format!("_isqrt({})", self.expr(x)),
            Code::If(c, a, b) => format!("({} ? {} : {})", self.expr(c), self.expr(a), self.expr(b)),
            Code::Cmp(op, a, b) => {
                let kind = match self.kind(a) {
                    Kind::Unknown => self.kind(b),
                    k => k,
                };
                let o = match op {
                    CmpOp::Eq => "===",
                    CmpOp::Ne => "!==",
                    other => other.as_str(),
                };
                match (kind, op) {
                    (Kind::Enum(e), CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge) => {
                        let rank = self.order_name(e, "Rank");
                        format!("({rank}({}) {o} {rank}({}))", self.expr(a), self.expr(b))
                    }
                    _ => bin(o, a, b),
                }
            }
            Code::And(a, b) => bin("&&", a, b),
            Code::Or(a, b) => bin("||", a, b),
            Code::Not(x) => format!("!{}", paren(self.expr(x))),
            Code::OneOf(x, vals) => {
                let x = self.expr(x);
                format!(
                    "({})",
                    vals.iter().map(|v| format!("{x} === {}", self.expr(v))).collect::<Vec<_>>().join(" || ")
                )
            }
            Code::IsNone(v) => format!("({} === null)", self.var_ref(*v)),
            Code::Present(v, t) => format!("({} !== null && {})", self.var_ref(*v), self.expr(t)),
        }
    }

    // ---- the record ---------------------------------------------------------------------

    fn record(&self, o: &mut String) {
        let f = self.fn_name();
        let ret = self.returns();
        let (out, trace, tag) = self.record_names();
        let _ = writeln!(
            o,
            "/** One call as a fixtures record (formats.md), the line `rulec replay` reads. An empty tag is left out. */"
        );
        let _ = writeln!(
            o,
            "export function {f}_record({}, {out}{}, {trace}{}, {tag}{} = \"\"){} {{",
            if self.typed { self.params() } else { self.args() },
            self.ann(&ret),
            self.ann("readonly Fired[]"),
            self.ann("string"),
            self.ann("string")
        );
        let _ = writeln!(
            o,
            "  let s = \"{{\";\n  if ({tag} !== \"\") {{\n    s += \"\\\"tag\\\":\" + _jsonStr({tag}) + \",\";\n  }}"
        );
        let key =
            |sep: &str, name: &str| lit(&format!("{sep}{}:", serde_json::to_string(name).expect("a name serializes")));
        for (i, &v) in self.p.inputs.iter().enumerate() {
            let sep = if i == 0 { "\"in\":{" } else { "," };
            let _ = writeln!(o, "  s += {} + {};", key(sep, &self.p.vars[v].name), self.wire(v, &self.name(v)));
        }
        if self.p.inputs.is_empty() {
            o.push_str("  s += \"\\\"in\\\":{\";\n");
        }
        for (i, &v) in self.p.outputs.iter().enumerate() {
            let sep = if i == 0 { "},\"observed\":{" } else { "," };
            let field = if self.p.outputs.len() == 1 { out.clone() } else { format!("{out}.{}", self.name(v)) };
            let _ = writeln!(o, "  s += {} + {};", key(sep, &self.p.vars[v].name), self.wire(v, &field));
        }
        let _ = writeln!(
            o,
            "  s += \"}},\\\"trace\\\":[\" + {trace}.map((t) => \"{{\\\"table\\\":\" + _jsonStr(t.table) + \",\\\"row\\\":\" + t.row.toString() + \"}}\").join(\",\");\n  return s + \"]}}\";\n}}\n"
        );
    }

    /// A value in its wire form, as text: `x` is the parameter or the field that holds it.
    fn wire(&self, v: VarId, x: &str) -> String {
        let var = &self.p.vars[v];
        let one = match &var.ty {
            Ty::Bool => format!("({x} ? \"true\" : \"false\")"),
            Ty::Str | Ty::Enum(_) | Ty::Date => format!("_jsonStr({x})"),
            _ => format!("{x}.toString()"),
        };
        if var.optional {
            format!("({x} == null ? \"null\" : {one})")
        } else {
            one
        }
    }

    // ---- helpers ------------------------------------------------------------------------

    fn helpers(&self, o: &mut String) {
        let mut used = Used::default();
        for (c, _) in &self.plan.constraints {
            self.scan(c, &mut used);
        }
        for step in &self.plan.steps {
            match step {
                Step::Define { value, .. } => self.scan(value, &mut used),
                Step::Table { rows, .. } => {
                    for r in rows {
                        self.scan(&r.cond, &mut used);
                        for (_, a) in &r.assigns {
                            self.scan(a, &mut used);
                        }
                    }
                }
            }
        }
        let inputs = |f: &dyn Fn(VarId) -> bool| self.p.inputs.iter().any(|&v| f(v));
        o.push_str(&strip(ABSENT, self.typed));
        if inputs(&|v| self.is_number(v)) {
            o.push_str(&strip(WHOLE, self.typed));
        }
        o.push_str(&strip(SHOW, self.typed));
        o.push_str(&strip(JSON_STR, self.typed));
        if inputs(&|v| self.p.vars[v].ty == Ty::Date) {
            o.push_str(&strip(DAY_OF, self.typed));
        }
        if self.p.outputs.iter().any(|&v| self.p.vars[v].ty == Ty::Date) {
            o.push_str(&strip(DATE_STR, self.typed));
        }
        if used.min {
            o.push_str(&strip(&min_max("_min", "<"), self.typed));
        }
        if used.max {
            o.push_str(&strip(&min_max("_max", ">"), self.typed));
        }
        for h in &self.plan.helpers {
            match h {
                Helper::DivRound(m) => o.push_str(&strip(&div_round(*m), self.typed)),
                Helper::Mod => o.push_str(&strip(MOD, self.typed)),
                Helper::Isqrt => o.push_str(&strip(ISQRT, self.typed)),
            }
        }
        // One blank line at the end, not two.
        while o.ends_with("\n\n") {
            o.pop();
        }
    }

    /// Which of the bigint min and max a code node calls.
    fn scan(&self, c: &Code, used: &mut Used) {
        if let Code::Min(_) | Code::Max(_) = c {
            if !matches!(self.kind(c), Kind::Enum(_)) {
                if matches!(c, Code::Min(_)) {
                    used.min = true;
                } else {
                    used.max = true;
                }
            }
        }
        for k in c.children() {
            self.scan(k, used);
        }
    }

    // ---- the runner ---------------------------------------------------------------------

    fn runner(&self) -> String {
        let alias = self.p.ident();
        let f = self.fn_name();
        let ext = ext(self.typed);
        let mut o = self.u.header("//");
        if self.typed {
            let _ = writeln!(
                o,
                "//\n// The runner `rulec test` drives: one vectors line in, one record (or refusal) out.\n// Build: tsc {} --rewriteRelativeImportExtensions --outDir .tsbuild {alias}_runner.ts\n// Run:   node .tsbuild/{alias}_runner.js < ../vectors/{alias}.jsonl   (beside a package.json of {{\"type\":\"module\"}})\n",
                TSC_FLAGS.join(" ")
            );
        } else {
            let _ = writeln!(
                o,
                "//\n// The runner `rulec test` drives: one vectors line in, one record (or refusal) out.\n// Run: node {alias}_runner.mjs < ../vectors/{alias}.jsonl\n"
            );
        }
        let _ = writeln!(
            o,
            "import {{ {f}_traced, {f}_record, RuleInputError, RuleContradictionError }} from \"./{alias}.{ext}\";"
        );
        if self.typed {
            let mut types: Vec<String> = Vec::new();
            for &v in self.p.inputs.iter().chain(&self.p.outputs) {
                let t = match &self.p.vars[v].ty {
                    Ty::Enum(e) => Some(self.enum_name(*e)),
                    _ => self.brand(v),
                };
                if let Some(t) = t {
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
            }
            if !types.is_empty() {
                let _ = writeln!(o, "import type {{ {} }} from \"./{alias}.{ext}\";", types.join(", "));
            }
        }
        let _ = writeln!(
            o,
            "\n/** The inputs' names on the wire, in declaration order. */\nconst _INPUTS{} = [{}];\n",
            self.ann("readonly string[]"),
            self.p.inputs.iter().map(|&v| lit(&self.p.vars[v].name)).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(
            o,
            "/** One vectors line: the record of the call, or the refusal in its place. */\nfunction _call(_line{}){} {{\n  const _obj = _readCall(_line);\n  if (_obj === null) {{\n    return _refusal(\"input\", \"the input is not an object\");\n  }}",
            self.ann("string"),
            self.ann("string")
        );
        let args: Vec<String> = self
            .p
            .inputs
            .iter()
            .enumerate()
            .map(|(i, &v)| self.cast(&format!("_args[{i}]"), &self.api_type(v)))
            .collect();
        let _ = writeln!(
            o,
            "  const _args = _INPUTS.map((k) => _arg(_obj, k));\n  let _result{};\n  try {{\n    _result = {f}_traced({});\n  }} catch (e) {{\n    if (e instanceof RuleInputError) {{\n      return _refusal(\"input\", e.what);\n    }}\n    if (e instanceof RuleContradictionError) {{\n      return _unknownKey(_obj) ?? _refusal(\"contradiction\", e.what);\n    }}\n    throw e;\n  }}\n  return _unknownKey(_obj) ?? {f}_record({}, _result[0], _result[1]);\n}}\n",
            self.ann(&format!("ReturnType<typeof {f}_traced>")),
            args.join(", "),
            args.join(", ")
        );
        o.push_str(&strip(STDIO, self.typed));
        o.push_str(&strip(JSON_STR, self.typed));
        o.push_str(&strip(RUNNER, self.typed));
        while o.ends_with("\n\n") {
            o.pop();
        }
        o
    }
}

#[derive(Default)]
struct Used {
    min: bool,
    max: bool,
}

/// An `if`'s condition: in parentheses, once.
fn cond(s: String) -> String {
    if s.starts_with('(') && balanced_once(&s) {
        s
    } else {
        format!("({s})")
    }
}

fn paren(s: String) -> String {
    let simple = s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    let wrapped = s.starts_with('(') && s.ends_with(')') && balanced_once(&s);
    if simple || wrapped {
        s
    } else {
        format!("({s})")
    }
}

/// Whether `s` is one parenthesised group from its first character to its last.
fn balanced_once(s: &str) -> bool {
    let mut depth = 0i32;
    let mut in_str = false;
    let mut escaped = false;
    let n = s.chars().count();
    for (i, c) in s.chars().enumerate() {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 < n {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

const ERRORS: &str = r#"/** The caller broke the contract: an input missing, of another kind, not a value of its enum, outside its range, or a constraint that does not hold. Fix the call site. `what` is the sentence, `value` what was refused (null when the refusal is not about one value). */
export class RuleInputError extends Error {
«  readonly what: string;
  readonly value: unknown;

»  constructor(what«: string», value«: unknown») {
    super(value === null ? what : what + ": " + _show(value));
    this.name = "RuleInputError";
    this.what = what;
    this.value = value;
  }
}

/** The rule contradicted itself: two rows the checker could not prove apart both matched. Never the caller's fault: fix the rule. */
export class RuleContradictionError extends Error {
«  readonly what: string;

»  constructor(what«: string») {
    super(what);
    this.name = "RuleContradictionError";
    this.what = what;
  }
}

"#;

const ABSENT: &str = r#"/** Whether a value is not there (null or undefined). */
function _isAbsent(x«: unknown»)«: x is null | undefined» {
  return x === null || x === undefined;
}

"#;

const WHOLE: &str = r#"/** Whether x is a JavaScript number whose value is whole: 1000.0 and 1e3 are the integer 1000. */
function _isWhole(x«: unknown»)«: x is number» {
  return typeof x === "number" && Number.isInteger(x);
}

"#;

const SHOW: &str = r#"/** A refused value as an error message shows it. */
function _show(x«: unknown»)«: string» {
  if (typeof x === "string") {
    return _jsonStr(x);
  }
  try {
    return String(x);
  } catch {
    return typeof x;
  }
}

"#;

const JSON_STR: &str = r#"/** A JSON string as serde_json writes it: `"`, `\` and the control characters escaped, the rest as it is. */
function _jsonStr(text«: string»)«: string» {
  return "\"" + text.replace(/["\\\u0000-\u001f]/g, _jsonEscape) + "\"";
}

function _jsonEscape(c«: string»)«: string» {
  switch (c) {
    case "\"":
      return "\\\"";
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\b":
      return "\\b";
    case "\f":
      return "\\f";
    default:
      return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
  }
}

"#;

const DAY_OF: &str = r#"/** The day number (days since 1970-01-01) of exactly "YYYY-MM-DD" naming a day the calendar has, else null. */
function _dayOf(s«: unknown»)«: bigint | null» {
  if (typeof s !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(s)) {
    return null;
  }
  const y0 = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  const leap = (y0 % 4 === 0 && y0 % 100 !== 0) || y0 % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (m < 1 || m > 12 || d < 1 || d > days[m - 1]) {
    return null;
  }
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return BigInt(era * 146097 + doe - 719468);
}

"#;

const DATE_STR: &str = r#"/** A day number as "YYYY-MM-DD" (proleptic Gregorian). */
function _dateStr(days«: bigint»)«: string» {
  const z = Number(days) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return String(y).padStart(4, "0") + "-" + String(m).padStart(2, "0") + "-" + String(d).padStart(2, "0");
}

"#;

fn min_max(name: &str, op: &str) -> String {
    format!(
        "/** The {} of two integers. */\nfunction {name}(a«: bigint», b«: bigint»)«: bigint» {{\n  return b {op} a ? b : a;\n}}\n\n",
        if op == "<" { "smaller" } else { "larger" }
    )
}

const MOD: &str = r#"/** The remainder from zero up: 0 <= r < |b| (b != 0). */
function _mod(a«: bigint», b«: bigint»)«: bigint» {
  const m = b < 0n ? -b : b;
  const r = a % m;
  return r < 0n ? r + m : r;
}

"#;

const ISQRT: &str = r#"/** The largest r with r * r <= x (x >= 0), by a binary search over whole numbers. */
function _isqrt(x«: bigint»)«: bigint» {
  let lo = 0n;
  let hi = x < 3037000499n ? (x > 0n ? x : 0n) : 3037000499n;
  while (lo < hi) {
    const mid = lo + (hi - lo + 1n) / 2n;
    if (mid * mid <= x) {
      lo = mid;
    } else {
      hi = mid - 1n;
    }
  }
  return lo;
}

"#;

/// `n / d` rounded by one mode, for every pair of integers (bigint is exact at any size).
fn div_round(m: RoundMode) -> String {
    let adjust = match m {
        RoundMode::Floor => "q",
        RoundMode::Ceiling => "r > 0n ? q + 1n : q",
        RoundMode::Down => "r > 0n && n < 0n ? q + 1n : q",
        RoundMode::Up => "r > 0n && n > 0n ? q + 1n : q",
        RoundMode::HalfUp => "2n * r > d || (2n * r === d && n > 0n) ? q + 1n : q",
        RoundMode::HalfDown => "2n * r > d || (2n * r === d && n < 0n) ? q + 1n : q",
        RoundMode::HalfEven => "2n * r > d || (2n * r === d && q % 2n !== 0n) ? q + 1n : q",
    };
    format!(
        "/** n / d rounded {} (d != 0: the proof, E132, rules out a zero divisor). */\nfunction {}(n«: bigint», d«: bigint»)«: bigint» {{\n  if (d < 0n) {{\n    n = -n;\n    d = -d;\n  }}\n  // The quotient toward -infinity and the remainder from zero up (0 <= r < d): bigint's own\n  // `/` truncates toward zero, so a negative remainder steps the quotient down by one.\n  let q = n / d;\n  let r = n % d;\n  if (r < 0n) {{\n    q -= 1n;\n    r += d;\n  }}\n  return {adjust};\n}}\n\n",
        match m {
            RoundMode::Up => "away from zero",
            RoundMode::Down => "toward zero",
            RoundMode::Ceiling => "toward +infinity",
            RoundMode::Floor => "toward -infinity",
            RoundMode::HalfUp => "to the nearest, ties away from zero",
            RoundMode::HalfDown => "to the nearest, ties toward zero",
            RoundMode::HalfEven => "to the nearest, ties to even",
        },
        mode_fn(m)
    )
}

/// The runner of the helpers' unit vectors: every helper a module may carry, each case
/// `{"op":…,"a":"…","b":"…"}` answered `{"result":"…"}`.
fn helpers_runner(typed: bool) -> String {
    let mut o = String::from("// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated TypeScript and JavaScript, held to the reference\n// (vectors/_helpers.jsonl).\n\n");
    o.push_str(&strip(STDIO, typed));
    o.push_str(&strip(
        "/** The text of a string field of one line. */\nfunction _field(line«: string», key«: string»)«: string» {\n  const tag = \"\\\"\" + key + \"\\\":\\\"\";\n  const start = line.indexOf(tag) + tag.length;\n  return line.slice(start, line.indexOf(\"\\\"\", start));\n}\n\n",
        typed,
    ));
    o.push_str(&strip("function _one(line«: string»)«: bigint» {\n  const a = BigInt(_field(line, \"a\"));\n  const b = BigInt(_field(line, \"b\"));\n  switch (_field(line, \"op\")) {\n", typed));
    for m in RoundMode::ALL {
        let _ = writeln!(o, "    case \"quot_{}\":\n      return {}(a, b);", m.as_str(), mode_fn(m));
    }
    o.push_str("    case \"mod\":\n      return _mod(a, b);\n    case \"isqrt\":\n      return _isqrt(a);\n  }\n  throw new Error(\"unknown helper: \" + line);\n}\n\n");
    o.push_str("_lines((line) => \"{\\\"result\\\":\\\"\" + _one(line).toString() + \"\\\"}\");\n\n");
    for m in RoundMode::ALL {
        o.push_str(&strip(&div_round(m), typed));
    }
    o.push_str(&strip(MOD, typed));
    o.push_str(&strip(ISQRT, typed));
    o.push_str("export {};\n");
    o
}

/// Standard input and output without an import: node's `process`, read through `globalThis`.
const STDIO: &str = r#"«type _Stream = {
  on(event: string, listener: (chunk?: unknown) => void): unknown;
  setEncoding(encoding: string): unknown;
  write(text: string): unknown;
};
»const _process = «(»globalThis« as unknown as { process: { stdin: _Stream; stdout: _Stream } })».process;

/** Answer every non-empty line of standard input with one line of standard output. */
function _lines(answer«: (line: string) => string»)«: void» {
  let text = "";
  _process.stdin.setEncoding("utf8");
  _process.stdin.on("data", (chunk) => {
    text += String(chunk);
  });
  _process.stdin.on("end", () => {
    let out = "";
    for (const line of text.split("\n")) {
      if (line.trim() !== "") {
        out += answer(line) + "\n";
      }
    }
    _process.stdout.write(out);
  });
}

"#;

/// The runner's fixed part: the reader of one vectors line, which keeps every number as its
/// text so that 1e3, 1000.0, 2^63 and 1000.5 are judged exactly, and the refusal line.
const RUNNER: &str = r#"_lines(_call);

/** A refusal line in the place of the record. */
function _refusal(kind«: string», what«: string»)«: string» {
  return "{\"refused\":\"" + kind + "\",\"error\":" + _jsonStr(what) + "}";
}

/** The refusal for the first key that is not an input, or null. */
function _unknownKey(obj«: Map<string, unknown>»)«: string | null» {
  for (const key of obj.keys()) {
    if (!_INPUTS.includes(key)) {
      return _refusal("input", key + " is not an input");
    }
  }
  return null;
}

/** A JSON number, kept as its text. */
class _JsonNum {
«  readonly text: string;
»  constructor(text«: string») {
    this.text = text;
  }
}

/**
 * The value at a key as the module is handed it: not there is undefined; a number whose value
 * is whole is that integer as a bigint (one past what int64 holds stays past it); any other
 * number is a JavaScript number that is not an integer; an object or an array is itself.
 */
function _arg(obj«: Map<string, unknown>», key«: string»)«: unknown» {
  const v = obj.get(key);
  if (v instanceof _JsonNum) {
    return _whole(v.text);
  }
  if (v instanceof Map) {
    return Object.fromEntries(v);
  }
  return v;
}

/** A JSON number's text as the value it is: worked out from its digits and its exponent. */
function _whole(text«: string»)«: unknown» {
  const neg = text.startsWith("-");
  const body = neg ? text.slice(1) : text;
  const e = body.search(/[eE]/);
  const mantissa = e < 0 ? body : body.slice(0, e);
  let exp = e < 0 ? 0 : Number(body.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const ip = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const fp = dot < 0 ? "" : mantissa.slice(dot + 1);
  let digits = (ip + fp).replace(/^0+/, "");
  exp -= fp.length;
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exp += 1;
  }
  if (digits === "") {
    return 0n;
  }
  if (exp < 0) {
    const f = Number(text);
    return Number.isInteger(f) ? Number.NaN : f;
  }
  if (digits.length + exp > 20) {
    return neg ? -(2n ** 64n) : 2n ** 64n;
  }
  const n = BigInt(digits + "0".repeat(exp));
  return neg ? -n : n;
}

/** A vectors line's `in` object (or, for a line without one, the line itself); null if it is not one. */
function _readCall(line«: string»)«: Map<string, unknown> | null» {
  const r = new _Reader(line);
  try {
    r.ws();
    const top = r.value();
    r.ws();
    if (r.i !== line.length || !(top instanceof Map)) {
      return null;
    }
    if (top.has("in")) {
      const inner = top.get("in");
      return inner instanceof Map ? inner : null;
    }
    return top;
  } catch {
    return null;
  }
}

/** The little JSON the runner reads: objects keep their keys in order (the last value of a key wins). */
class _Reader {
«  readonly s: string;
  i: number;
»  constructor(s«: string») {
    this.s = s;
    this.i = 0;
  }

  fail()«: never» {
    throw new Error("not JSON");
  }

  ws()«: void» {
    while (this.i < this.s.length && " \t\n\r".includes(this.s[this.i])) {
      this.i += 1;
    }
  }

  eat(c«: string»)«: void» {
    if (this.s[this.i] !== c) {
      this.fail();
    }
    this.i += 1;
  }

  word(w«: string», v«: unknown»)«: unknown» {
    if (!this.s.startsWith(w, this.i)) {
      this.fail();
    }
    this.i += w.length;
    return v;
  }

  value()«: unknown» {
    switch (this.s[this.i]) {
      case "n":
        return this.word("null", null);
      case "t":
        return this.word("true", true);
      case "f":
        return this.word("false", false);
      case "\"":
        return this.string();
      case "{":
        return this.object();
      case "[":
        return this.array();
      default:
        return this.number();
    }
  }

  object()«: Map<string, unknown>» {
    this.eat("{");
    const out = new Map«<string, unknown>»();
    this.ws();
    if (this.s[this.i] === "}") {
      this.i += 1;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.eat(":");
      this.ws();
      out.set(key, this.value());
      this.ws();
      if (this.s[this.i] === ",") {
        this.i += 1;
      } else {
        this.eat("}");
        return out;
      }
    }
  }

  array()«: unknown[]» {
    this.eat("[");
    const out«: unknown[]» = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i += 1;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ",") {
        this.i += 1;
      } else {
        this.eat("]");
        return out;
      }
    }
  }

  number()«: _JsonNum» {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i));
    if (m === null) {
      throw new Error("not JSON");
    }
    this.i += m[0].length;
    return new _JsonNum(m[0]);
  }

  string()«: string» {
    this.eat("\"");
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) {
        this.fail();
      }
      const c = this.s[this.i];
      this.i += 1;
      if (c === "\"") {
        return out;
      }
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.s[this.i];
      this.i += 1;
      switch (e) {
        case "\"":
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hi = this.hex4();
          if (hi >= 0xdc00 && hi < 0xe000) {
            this.fail();
          }
          if (hi >= 0xd800 && hi < 0xdc00) {
            this.eat("\\");
            this.eat("u");
            const lo = this.hex4();
            if (lo < 0xdc00 || lo >= 0xe000) {
              this.fail();
            }
            out += String.fromCharCode(hi, lo);
          } else {
            out += String.fromCharCode(hi);
          }
          break;
        }
        default:
          this.fail();
      }
    }
  }

  hex4()«: number» {
    const t = this.s.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(t)) {
      this.fail();
    }
    this.i += 4;
    return parseInt(t, 16);
  }
}

"#;
