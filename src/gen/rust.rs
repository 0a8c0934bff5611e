//! The Rust backend (generated-code.md, Rust): a newtype per unit, an enum per enum,
//! `Result<_, RuleError>`, the entry guard, one branch per row, the `_traced` twin, the
//! `_record` function, and a runner that `rustc` alone compiles.

use super::legacy_plan::{self as plan, Check, Code, Helper, Plan, Step};
use super::names::{ident, pascal, unit_type};
use super::{Backend, File, Lang, Runner, Unit};
use crate::num::RoundMode;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use std::fmt::Write;

pub struct Rust;

impl Backend for Rust {
    fn lang(&self) -> Lang {
        Lang::Rust
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let alias = u.program.ident().to_string();
        vec![
            File { path: format!("{alias}.rs"), text: g.module() },
            File { path: format!("{alias}_runner.rs"), text: g.runner() },
            File { path: "_helpers_runner.rs".into(), text: helpers_runner() },
        ]
    }

    fn runner(&self, alias: &str) -> Runner {
        Runner {
            needs: vec!["rustc"],
            build: vec![vec![
                "rustc".into(),
                "--edition".into(),
                "2021".into(),
                "-O".into(),
                format!("{alias}_runner.rs"),
                "-o".into(),
                "runner".into(),
            ]],
            run: vec!["./runner".into()],
        }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let p = u.program;
        let f = g.fn_name();
        let (params, ret) = (g.params(), g.returns());
        serde_json::json!({
            "module": format!("{}.rs", p.ident()),
            "function": f,
            "signature": format!("pub fn {f}({params}) -> Result<{ret}, RuleError>"),
            "traced": format!("{f}_traced"),
            "traced_signature": format!("pub fn {f}_traced({params}) -> Result<({ret}, [Fired; {}]), RuleError>", g.tables()),
            "record": format!("{f}_record"),
            "record_signature": format!(
                "pub fn {f}_record({params}, {}: &{ret}, {}: &[Fired], {}: &str) -> String",
                g.fresh("out"),
                g.fresh("trace"),
                g.fresh("tag")
            ),
            "params": p.inputs.iter().map(|&v| super::api_param(u, v, &g.api_type(v, false))).collect::<Vec<_>>(),
            "returns": ret,
            "outputs": p.outputs.iter().map(|&v| super::api_output(u, v, &g.api_type(v, true))).collect::<Vec<_>>(),
            "enums": super::api_enums(u, &|e| g.enum_name(e), &|e, i| g.member(e, i)),
            "errors": ["RuleError::Input", "RuleError::Contradiction"],
        })
    }
}

struct Gen<'a> {
    u: &'a Unit<'a>,
    p: &'a Program,
    plan: &'a Plan,
}

fn mode_fn(m: RoundMode) -> String {
    format!("quot_{}", m.as_str())
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

impl Gen<'_> {
    fn name(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        ident(&var.name, var.alias.as_deref())
    }

    /// A name for something the generated code declares itself (`trace`, `out`, `s`),
    /// with `_` added until no variable of the rule is called that.
    fn fresh(&self, base: &str) -> String {
        let mut n = base.to_string();
        while self.p.vars.iter().any(|v| ident(&v.name, v.alias.as_deref()) == n) {
            n.push('_');
        }
        n
    }

    fn enum_name(&self, e: EnumId) -> String {
        pascal(&ident(&self.p.enums[e].name, self.p.enums[e].alias.as_deref()))
    }

    fn member(&self, e: EnumId, i: u32) -> String {
        let v = &self.p.enums[e].values[i as usize];
        format!("{}::{}", self.enum_name(e), pascal(v.alias.as_deref().unwrap_or(&v.name)))
    }

    /// The type a parameter or output field has in the API.
    fn api_type(&self, v: VarId, owned: bool) -> String {
        let var = &self.p.vars[v];
        let base = match &var.ty {
            Ty::Bool => "bool".to_string(),
            Ty::Int | Ty::Number => "i64".to_string(),
            Ty::Date => "Date".to_string(),
            Ty::Str if owned => "String".to_string(),
            Ty::Str => "&str".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            ty => unit_type(self.p, ty).expect("a unit type"),
        };
        if var.optional {
            format!("Option<{base}>")
        } else {
            base
        }
    }

    /// The type a value has inside the function body.
    fn local_type(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let base = match &var.ty {
            Ty::Bool => "bool".to_string(),
            Ty::Str => "&str".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ => "i64".to_string(),
        };
        if var.optional {
            format!("Option<{base}>")
        } else {
            base
        }
    }

    /// Whether the API wraps this variable's integer in a newtype.
    fn wrapped(&self, v: VarId) -> bool {
        matches!(self.p.vars[v].ty, Ty::Date | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }

    /// How many parameters the function takes (clippy's `too_many_arguments` counts them).
    fn param_count(&self) -> usize {
        self.p.inputs.len()
    }

    fn params(&self) -> String {
        self.p
            .inputs
            .iter()
            .map(|&v| format!("{}: {}", self.name(v), self.api_type(v, false)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn args(&self) -> String {
        self.p.inputs.iter().map(|&v| self.name(v)).collect::<Vec<_>>().join(", ")
    }

    fn fn_name(&self) -> String {
        ident(&self.p.name, self.p.alias.as_deref())
    }

    fn returns(&self) -> String {
        match self.p.outputs.as_slice() {
            [one] => self.api_type(*one, true),
            _ => "Output".into(),
        }
    }

    fn module(&self) -> String {
        let mut o = self.u.header("//");
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, "//\n// {about}");
        }
        o.push('\n');
        self.types(&mut o);
        self.functions(&mut o);
        self.record(&mut o);
        self.helpers(&mut o);
        o
    }

    fn types(&self, o: &mut String) {
        for (name, ty) in super::names::unit_types(self.p) {
            let what = crate::sema::ty_name(&ty, &self.p.enums);
            let _ = writeln!(
                o,
                "/// {what}: a whole number of its unit.\n#[allow(clippy::upper_case_acronyms)]\n#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\npub struct {name}(pub i64);\n"
            );
        }
        if self.p.vars.iter().any(|v| v.ty == Ty::Date && (v.kind != VarKind::Define || v.declared)) {
            o.push_str("/// A calendar day: the number of days since 1970-01-01.\n#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\npub struct Date(pub i64);\n\n");
        }
        for (e, en) in self.p.enums.iter().enumerate() {
            let name = self.enum_name(e);
            let members: Vec<String> =
                en.values.iter().map(|v| pascal(v.alias.as_deref().unwrap_or(&v.name))).collect();
            let _ = writeln!(
                o,
                "/// enum {}{}",
                en.name,
                if en.ordered { " (ordered: a value compares by its place)" } else { "" }
            );
            let _ =
                writeln!(o, "#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\npub enum {name} {{");
            for m in &members {
                let _ = writeln!(o, "    {m},");
            }
            let _ = writeln!(o, "}}\n\nimpl {name} {{");
            let _ = writeln!(
                o,
                "    pub const ALL: [{name}; {}] = [{}];",
                members.len(),
                members.iter().map(|m| format!("{name}::{m}")).collect::<Vec<_>>().join(", ")
            );
            let _ = writeln!(o, "\n    /// The value's name, as the wire and the records write it.\n    pub fn as_str(self) -> &'static str {{\n        match self {{");
            for (m, v) in members.iter().zip(&en.values) {
                let _ = writeln!(o, "            {name}::{m} => {},", lit(&v.name));
            }
            let _ =
                writeln!(o, "        }}\n    }}\n\n    pub fn parse(s: &str) -> Option<{name}> {{\n        match s {{");
            for (m, v) in members.iter().zip(&en.values) {
                let _ = writeln!(o, "            {} => Some({name}::{m}),", lit(&v.name));
            }
            let _ = writeln!(o, "            _ => None,\n        }}\n    }}\n}}\n");
        }
        o.push_str(
            "/// Why a call has no answer. `Input`: the caller broke the contract (fix the call site).\n\
             /// `Contradiction`: two rows the checker could not prove apart both matched (fix the rule).\n\
             #[derive(Clone, Debug, PartialEq, Eq)]\n\
             pub enum RuleError {\n    Input { what: &'static str, value: Option<i64> },\n    Contradiction { what: &'static str },\n}\n\n\
             impl std::fmt::Display for RuleError {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        match self {\n\
             \x20           RuleError::Input { what, value: Some(v) } => write!(f, \"{what}: {v}\"),\n\
             \x20           RuleError::Input { what, value: None } | RuleError::Contradiction { what } => f.write_str(what),\n        }\n    }\n}\n\n\
             impl std::error::Error for RuleError {}\n\n\
             /// A row that fired: the table's name and the row's number as written (from 1).\n\
             #[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct Fired {\n    pub table: &'static str,\n    pub row: u32,\n}\n\n",
        );
        if self.p.outputs.len() > 1 {
            o.push_str("#[derive(Clone, Debug, PartialEq, Eq)]\npub struct Output {\n");
            for &v in &self.p.outputs {
                let _ = writeln!(o, "    pub {}: {},", self.name(v), self.api_type(v, true));
            }
            o.push_str("}\n\n");
        }
    }

    fn functions(&self, o: &mut String) {
        let f = self.fn_name();
        let (params, args, ret) = (self.params(), self.args(), self.returns());
        // The module lands in the caller's crate (include!, include_rule!), where clippy runs.
        if self.param_count() > 7 {
            let _ = writeln!(o, "#[allow(clippy::too_many_arguments)]");
        }
        let _ = writeln!(
            o,
            "pub fn {f}({params}) -> Result<{ret}, RuleError> {{\n    {f}_traced({args}).map(|(out, _)| out)\n}}\n"
        );
        let _ = writeln!(o, "/// The same call, with the rows that matched: one per table, in evaluation order.");
        let _ = writeln!(o, "#[inline]\n#[allow(unused_parens, unused_variables, clippy::all)]");
        let n = self.tables();
        let _ = writeln!(o, "pub fn {f}_traced({params}) -> Result<({ret}, [Fired; {n}]), RuleError> {{");
        self.entry_guard(o);
        // The trace is a fixed array: one slot per table, no allocation on any call.
        let tr = self.fresh("trace");
        let _ = writeln!(o, "    let mut {tr} = [Fired {{ table: \"\", row: 0 }}; {n}];");
        let mut slot = 0;
        for step in &self.plan.steps {
            match step {
                Step::Define { var, value } => {
                    let _ = writeln!(o, "    // define {}", self.p.vars[*var].name);
                    let _ = writeln!(
                        o,
                        "    let {}: {} = {};",
                        self.name(*var),
                        self.local_type(*var),
                        self.assigned(*var, value)
                    );
                }
                Step::Table { table, rows, guards } => {
                    self.table(o, *table, rows, guards, slot);
                    slot += 1;
                }
            }
        }
        let value = |v: VarId| -> String {
            let n = self.name(v);
            let var = &self.p.vars[v];
            match (&var.ty, var.optional) {
                (Ty::Str, false) => format!("{n}.to_string()"),
                (Ty::Str, true) => format!("{n}.map(str::to_string)"),
                (_, false) if self.wrapped(v) => format!("{}({n})", self.wrapper(v)),
                (_, true) if self.wrapped(v) => format!("{n}.map({})", self.wrapper(v)),
                _ => n,
            }
        };
        let out = match self.p.outputs.as_slice() {
            [one] => value(*one),
            outs => format!(
                "Output {{ {} }}",
                outs.iter().map(|&v| format!("{}: {}", self.name(v), value(v))).collect::<Vec<_>>().join(", ")
            ),
        };
        let _ = writeln!(o, "    Ok(({out}, {tr}))\n}}\n");
    }

    fn wrapper(&self, v: VarId) -> String {
        match &self.p.vars[v].ty {
            Ty::Date => "Date".into(),
            ty => unit_type(self.p, ty).expect("a unit type"),
        }
    }

    fn entry_guard(&self, o: &mut String) {
        o.push_str("    // The entry guard: what the proofs assumed of every call.\n");
        for g in &self.plan.guards {
            let n = self.name(g.var);
            let var = &self.p.vars[g.var];
            let raw = if self.wrapped(g.var) { format!("{n}.0") } else { n.clone() };
            let (test, value) = match &g.check {
                Check::Range { lo, hi } => (format!("!({lo} <= x && x <= {hi})"), "Some(x)".to_string()),
                Check::EnumRange { lo, hi } => {
                    let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                    (format!("x < {} || x > {}", self.member(e, *lo), self.member(e, *hi)), "None".to_string())
                }
            };
            let refuse = format!("return Err(RuleError::Input {{ what: {}, value: {value} }});", lit(&g.sentence));
            let bind = if matches!(g.check, Check::Range { .. }) { raw.clone() } else { n.clone() };
            if var.optional {
                let opt = if matches!(g.check, Check::Range { .. }) && self.wrapped(g.var) {
                    format!("{n}.map(|x| x.0)")
                } else {
                    n.clone()
                };
                let _ = writeln!(
                    o,
                    "    if let Some(x) = {opt} {{\n        if {test} {{\n            {refuse}\n        }}\n    }}"
                );
            } else {
                let _ = writeln!(
                    o,
                    "    {{\n        let x = {bind};\n        if {test} {{\n            {refuse}\n        }}\n    }}"
                );
            }
        }
        // From here on every number is the integer it carries.
        for &v in &self.p.inputs {
            if self.wrapped(v) {
                let n = self.name(v);
                if self.p.vars[v].optional {
                    let _ = writeln!(o, "    let {n}: Option<i64> = {n}.map(|x| x.0);");
                } else {
                    let _ = writeln!(o, "    let {n}: i64 = {n}.0;");
                }
            }
        }
        for (c, sentence) in &self.plan.constraints {
            let _ = writeln!(
                o,
                "    if !({}) {{\n        return Err(RuleError::Input {{ what: {}, value: None }});\n    }}",
                self.constraint(c),
                lit(sentence)
            );
        }
    }

    /// A constraint holds when an optional it reads is absent: read each optional through `map_or(true, …)`.
    fn constraint(&self, c: &Code) -> String {
        let optionals = c.optionals_read(self.p);
        let mut body = self.expr(c);
        for v in optionals.iter().rev() {
            let n = self.name(*v);
            body = format!("{n}.map_or(true, |{n}| {body})");
        }
        body
    }

    /// How many tables fire in a call: the length of the trace.
    fn tables(&self) -> usize {
        self.plan.steps.iter().filter(|s| matches!(s, Step::Table { .. })).count()
    }

    fn table(&self, o: &mut String, t: usize, rows: &[plan::Row], guards: &[(usize, usize, String)], slot: usize) {
        let table = &self.p.tables[t];
        let _ = writeln!(o, "    // table {} (policy {})", table.name, table.policy.as_str());
        for (a, b, sentence) in guards {
            let _ = writeln!(o, "    // guard: W114 (table {}, row {a} × row {b}): a pair of rows whose exclusivity could not be proven statically", table.name);
            let _ = writeln!(
                o,
                "    if ({}) && ({}) {{\n        return Err(RuleError::Contradiction {{ what: {} }});\n    }}",
                self.expr(&rows[a - 1].cond),
                self.expr(&rows[b - 1].cond),
                lit(sentence)
            );
        }
        for &r in &table.results {
            let _ = writeln!(o, "    let {}: {};", self.name(r), self.local_type(r));
        }
        if let Some(patterns) = self.match_patterns(table) {
            // Every cell is an enum or boolean value (or `-`): one `match`, an arm per row in
            // the rule's order. The first arm that matches wins, as the rows do, and the
            // compiler can jump to it.
            let cols: Vec<String> = table.conds.iter().map(|&c| self.name(c)).collect();
            let scrutinee = if cols.len() == 1 { cols[0].clone() } else { format!("({})", cols.join(", ")) };
            let _ = writeln!(o, "    match {scrutinee} {{");
            for (row, pat) in rows.iter().zip(&patterns) {
                let _ = writeln!(o, "        // row {}: {}\n        {pat} => {{", row.n, row.cells);
                for (v, value) in &row.assigns {
                    let _ = writeln!(o, "            {} = {};", self.name(*v), self.assigned(*v, value));
                }
                let _ = writeln!(
                    o,
                    "            {}[{slot}] = Fired {{ table: {}, row: {} }};\n        }}",
                    self.fresh("trace"),
                    lit(&table.name),
                    row.n
                );
            }
            let _ = writeln!(
                o,
                "        #[allow(unreachable_patterns)]\n        _ => return Err(RuleError::Contradiction {{ what: {} }}),\n    }}",
                lit(&format!("table {}: no row matched", table.name))
            );
            return;
        }
        for (i, row) in rows.iter().enumerate() {
            let kw = if i == 0 { "    if" } else { " else if" };
            let _ = writeln!(o, "{kw} {} {{", self.expr(&row.cond));
            let _ = writeln!(o, "        // row {}: {}", row.n, row.cells);
            for (v, value) in &row.assigns {
                let _ = writeln!(o, "        {} = {};", self.name(*v), self.assigned(*v, value));
            }
            let _ = write!(
                o,
                "        {}[{slot}] = Fired {{ table: {}, row: {} }};\n    }}",
                self.fresh("trace"),
                lit(&table.name),
                row.n
            );
        }
        let _ = writeln!(
            o,
            " else {{\n        return Err(RuleError::Contradiction {{ what: {} }});\n    }}",
            lit(&format!("table {}: no row matched", table.name))
        );
    }

    /// The rows as `match` patterns, when every condition column is a (non-optional) enum or
    /// boolean and every cell is `-` or a list of its values.
    fn match_patterns(&self, t: &TableIr) -> Option<Vec<String>> {
        if t.conds.is_empty() {
            return None;
        }
        for &c in &t.conds {
            let var = &self.p.vars[c];
            if var.optional || !matches!(var.ty, Ty::Enum(_) | Ty::Bool) {
                return None;
            }
        }
        let mut out = Vec::new();
        for row in &t.rows {
            let mut cells = Vec::new();
            for (ci, cond) in row.conds.iter().enumerate() {
                let ty = &self.p.vars[t.conds[ci]].ty;
                let pat = match cond {
                    CondIr::Any => "_".to_string(),
                    CondIr::Tests { negated: false, tests } => {
                        let mut alts = Vec::new();
                        for test in tests {
                            let TestIr::OneOf(vs) = test else { return None };
                            for v in vs {
                                alts.push(match (v, ty) {
                                    (Value::Enum(i), Ty::Enum(e)) => self.member(*e, *i),
                                    (Value::Bool(b), Ty::Bool) => b.to_string(),
                                    _ => return None,
                                });
                            }
                        }
                        alts.join(" | ")
                    }
                    CondIr::Tests { negated: true, .. } => return None,
                };
                cells.push(pat);
            }
            out.push(if cells.len() == 1 { cells.pop().unwrap() } else { format!("({})", cells.join(", ")) });
        }
        Some(out)
    }

    /// A value stored into a variable: optional results wrap it.
    fn assigned(&self, v: VarId, value: &Code) -> String {
        if self.p.vars[v].optional {
            match value {
                Code::Absent => "None".into(),
                Code::Var(x) if self.p.vars[*x].optional => self.name(*x),
                other => format!("Some({})", self.expr(other)),
            }
        } else {
            self.expr(value)
        }
    }

    fn expr(&self, c: &Code) -> String {
        let bin = |op: &str, a: &Code, b: &Code| format!("({} {op} {})", self.expr(a), self.expr(b));
        match c {
            Code::Int(n) => n.to_string(),
            Code::Bool(b) => b.to_string(),
            Code::Str(s) => lit(s),
            Code::Enum(e, i) => self.member(*e, *i),
            Code::Absent => "None".into(),
            Code::Var(v) => self.name(*v),
            Code::Neg(x) => format!("-{}", paren(self.expr(x))),
            Code::Add(a, b) => bin("+", a, b),
            Code::Sub(a, b) => bin("-", a, b),
            Code::Mul(a, b) => bin("*", a, b),
            Code::DivExact(a, q) => format!("({} / {q})", self.expr(a)),
            Code::DivRound(n, d, m) => format!("{}({}, {})", mode_fn(*m), self.expr(n), self.expr(d)),
            Code::Min(xs) | Code::Max(xs) => {
                let f = if matches!(c, Code::Min(_)) { "min" } else { "max" };
                let mut s = self.expr(&xs[0]);
                for x in &xs[1..] {
                    s = format!("{}.{f}({})", paren(s), self.expr(x));
                }
                s
            }
            Code::Mod(a, b) => format!("mod_floor({}, {})", self.expr(a), self.expr(b)),
            Code::Isqrt(x) => format!("isqrt_i64({})", self.expr(x)),
            Code::If(c, a, b) => format!("(if {} {{ {} }} else {{ {} }})", self.expr(c), self.expr(a), self.expr(b)),
            Code::Cmp(op, a, b) => {
                let o = match op {
                    CmpOp::Eq => "==",
                    other => other.as_str(),
                };
                bin(o, a, b)
            }
            Code::And(a, b) => bin("&&", a, b),
            Code::Or(a, b) => bin("||", a, b),
            Code::Not(x) => format!("!{}", paren(self.expr(x))),
            Code::OneOf(x, vals) => {
                format!(
                    "matches!({}, {})",
                    self.expr(x),
                    vals.iter().map(|v| self.expr(v)).collect::<Vec<_>>().join(" | ")
                )
            }
            Code::IsNone(v) => format!("{}.is_none()", self.name(*v)),
            Code::Present(v, t) => {
                let n = self.name(*v);
                format!("{n}.is_some_and(|{n}| {})", self.expr(t))
            }
        }
    }

    fn record(&self, o: &mut String) {
        let f = self.fn_name();
        let params = self.params();
        let ret = self.returns();
        // The record's own names step aside for the rule's.
        let (sn, on, tn, gn) = (self.fresh("s"), self.fresh("out"), self.fresh("trace"), self.fresh("tag"));
        let _ = writeln!(o, "/// One call as a fixtures record (formats.md), the line `rulec replay` reads.");
        if self.param_count() + 3 > 7 {
            let _ = writeln!(o, "#[allow(clippy::too_many_arguments)]");
        }
        let _ = writeln!(o, "pub fn {f}_record({params}, {on}: &{ret}, {tn}: &[Fired], {gn}: &str) -> String {{");
        let _ = writeln!(o, "    let mut {sn} = String::with_capacity(256);\n    {sn}.push('{{');");
        let _ = writeln!(
            o,
            "    if !{gn}.is_empty() {{\n        {sn}.push_str(\"\\\"tag\\\":\");\n        push_json_str(&mut {sn}, {gn});\n        {sn}.push(',');\n    }}"
        );
        let key = |name: &str| lit(&format!("{}:", serde_json::to_string(name).expect("a name serializes")));
        let _ = writeln!(o, "    {sn}.push_str(\"\\\"in\\\":{{\");");
        for (i, &v) in self.p.inputs.iter().enumerate() {
            if i > 0 {
                let _ = writeln!(o, "    {sn}.push(',');");
            }
            let _ = writeln!(o, "    {sn}.push_str({});", key(&self.p.vars[v].name));
            self.push_value(o, &sn, v, &self.name(v));
        }
        let _ = writeln!(o, "    {sn}.push_str(\"}},\\\"observed\\\":{{\");");
        for (i, &v) in self.p.outputs.iter().enumerate() {
            if i > 0 {
                let _ = writeln!(o, "    {sn}.push(',');");
            }
            let _ = writeln!(o, "    {sn}.push_str({});", key(&self.p.vars[v].name));
            let field = if self.p.outputs.len() == 1 { on.clone() } else { format!("{on}.{}", self.name(v)) };
            self.push_value(o, &sn, v, &field);
        }
        let _ = writeln!(
            o,
            "    {sn}.push_str(\"}},\\\"trace\\\":[\");\n    for (i, f) in {tn}.iter().enumerate() {{\n        if i > 0 {{\n            {sn}.push(',');\n        }}\n        {sn}.push_str(\"{{\\\"table\\\":\");\n        push_json_str(&mut {sn}, f.table);\n        {sn}.push_str(\",\\\"row\\\":\");\n        {sn}.push_str(&f.row.to_string());\n        {sn}.push('}}');\n    }}\n    {sn}.push_str(\"]}}\");\n    {sn}\n}}\n"
        );
    }

    /// Append a variable's wire form. `place` is the variable, a field, or a reference to
    /// one: every spelling below reads the same through a reference (`to_string` writes a
    /// boolean as JSON does, `&` coerces to `&str`, `.0` and `.as_str()` auto-deref).
    fn push_value(&self, o: &mut String, s: &str, v: VarId, place: &str) {
        let var = &self.p.vars[v];
        let one = |x: &str| -> String {
            match &var.ty {
                Ty::Str => format!("push_json_str(&mut {s}, {x});"),
                Ty::Enum(_) => format!("push_json_str(&mut {s}, {x}.as_str());"),
                Ty::Date => format!("push_date(&mut {s}, {x}.0);"),
                _ if self.wrapped(v) => format!("{s}.push_str(&{x}.0.to_string());"),
                _ => format!("{s}.push_str(&{x}.to_string());"),
            }
        };
        if var.optional {
            let _ = writeln!(
                o,
                "    match &{place} {{\n        Some(x) => {{\n            {}\n        }}\n        None => {s}.push_str(\"null\"),\n    }}",
                one("x")
            );
        } else {
            // A field is passed by reference; a parameter or an `out` reference as it is.
            let x = match &var.ty {
                Ty::Str if place.contains('.') => format!("&{place}"),
                _ => place.to_string(),
            };
            let _ = writeln!(o, "    {}", one(&x));
        }
    }

    fn helpers(&self, o: &mut String) {
        o.push_str(JSON_STR);
        if self.plan.uses_dates {
            o.push_str(DATE_FMT);
        }
        for h in &self.plan.helpers {
            match h {
                Helper::DivRound(m) => {
                    let _ = writeln!(o, "{}", div_round(*m));
                }
                Helper::Mod => o.push_str(MOD_FLOOR),
                Helper::Isqrt => o.push_str(ISQRT),
            }
        }
    }

    fn runner(&self) -> String {
        let alias = self.p.ident();
        let f = self.fn_name();
        let mut o = self.u.header("//");
        let _ = writeln!(o, "//\n// The runner `rulec test` drives: one vectors line in, one record (or refusal) out.\n// Build: rustc --edition 2021 -O {alias}_runner.rs\n\n#[path = \"{alias}.rs\"]\nmod rule;\n");
        o.push_str(RUNNER_MAIN);
        o.push_str("fn call(line: &str) -> Result<String, String> {\n    let obj = json::parse_call(line).ok_or(\"the input is not an object\")?;\n");
        for g in &self.p.inputs {
            self.read_input(&mut o, *g);
        }
        let by_ref: Vec<String> = self
            .p
            .inputs
            .iter()
            .map(|&v| {
                let var = &self.p.vars[v];
                match (&var.ty, var.optional) {
                    (Ty::Str, false) => format!("&{}", self.name(v)),
                    (Ty::Str, true) => format!("{}.as_deref()", self.name(v)),
                    _ => self.name(v),
                }
            })
            .collect();
        let call_args = by_ref.join(", ");
        let _ = writeln!(
            o,
            "    let answer = match rule::{f}_traced({call_args}) {{\n        Err(rule::RuleError::Input {{ what, .. }}) => return Err(what.to_string()),\n        other => other,\n    }};"
        );
        let known = self.p.inputs.iter().map(|&v| lit(&self.p.vars[v].name)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            o,
            "    // The door refuses a key that is not an input before the rule answers anything.\n    for (key, _) in &obj {{\n        if ![{known}].contains(&key.as_str()) {{\n            return Err(format!(\"{{key}} is not an input\"));\n        }}\n    }}\n    match answer {{\n        Ok((out, trace)) => Ok(rule::{f}_record({call_args}, &out, &trace, \"\")),\n        Err(rule::RuleError::Contradiction {{ what }}) => Ok(contradiction(what)),\n        Err(rule::RuleError::Input {{ what, .. }}) => Err(what.to_string()),\n    }}\n}}\n"
        );
        o.push_str(RUNNER_JSON);
        o
    }

    /// Read one input the way the door holds it: missing, kind, enum membership, range.
    fn read_input(&self, o: &mut String, v: VarId) {
        let var = &self.p.vars[v];
        let n = self.name(v);
        let key = lit(&var.name);
        let refuse = |what: &str| format!("return Err({}.to_string())", lit(&format!("{} {what}", var.name)));
        let (kind, build) = match &var.ty {
            Ty::Bool => ("json::Value::Bool(b) => *b".to_string(), "x".to_string()),
            Ty::Str => ("json::Value::Str(s) => s.clone()".to_string(), "x".to_string()),
            Ty::Date => (
                format!("json::Value::Str(s) => match json::date(s) {{\n                Some(d) => d,\n                None => {},\n            }}", refuse("is not a date")),
                "rule::Date(x)".to_string(),
            ),
            Ty::Enum(e) => (
                format!(
                    "json::Value::Str(s) => match rule::{}::parse(s) {{\n                Some(x) => x,\n                None => {},\n            }}",
                    self.enum_name(*e),
                    refuse(&format!("is not a value of enum {}", self.p.enums[*e].name))
                ),
                "x".to_string(),
            ),
            _ => (
                format!(
                    "json::Value::Num(t) => match json::whole(t) {{\n                json::Whole::Int(n) => n,\n                json::Whole::TooBig => {},\n                json::Whole::No => {},\n            }}",
                    refuse("is out of range"),
                    refuse("is not an integer")
                ),
                if self.wrapped(v) { format!("rule::{}(x)", self.wrapper(v)) } else { "x".to_string() },
            ),
        };
        let wrong = match &var.ty {
            Ty::Bool => refuse("is not a boolean"),
            Ty::Str => refuse("is not a string"),
            Ty::Date => refuse("is not a date"),
            Ty::Enum(e) => refuse(&format!("is not a value of enum {}", self.p.enums[*e].name)),
            _ => refuse("is not an integer"),
        };
        let range = self.plan.guards.iter().find(|g| g.var == v).map(|g| match &g.check {
            Check::Range { lo, hi } => format!(
                "if !({lo} <= x && x <= {hi}) {{\n            {};\n        }}\n        ",
                refuse("is out of range")
            ),
            Check::EnumRange { lo, hi } => {
                let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                format!(
                    "if x < rule::{} || x > rule::{} {{\n            {};\n        }}\n        ",
                    self.member(e, *lo),
                    self.member(e, *hi),
                    refuse("is out of range")
                )
            }
        });
        let range = range.unwrap_or_default();
        let missing = if var.optional { "None".to_string() } else { refuse("is missing") };
        let _ = writeln!(
            o,
            "    let {n} = match json::get(&obj, {key}) {{\n        None | Some(json::Value::Null) => {missing},\n        Some(v) => Some(match v {{\n            {kind},\n            _ => {wrong},\n        }}),\n    }};"
        );
        let _ = writeln!(o, "    let {n} = match {n} {{\n        Some(x) => {{\n        {range}Some({build})\n        }}\n        None => None,\n    }};");
        if !var.optional {
            let _ = writeln!(o, "    let {n} = {n}.expect(\"checked above\");");
        }
    }
}

fn paren(s: String) -> String {
    if s.starts_with('(') || s.chars().all(|c| c.is_alphanumeric() || c == '_') {
        s
    } else {
        format!("({s})")
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry, each case
/// `{"op":…,"a":"…","b":"…"}` answered `{"result":"…"}`.
fn helpers_runner() -> String {
    let mut o = String::from("// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Rust, held to the reference (vectors/_helpers.jsonl).\n\n");
    o.push_str(
        "use std::io::{BufRead, Write};\n\nfn field<'a>(line: &'a str, key: &str) -> &'a str {\n    let tag = format!(\"\\\"{key}\\\":\\\"\");\n    let start = line.find(&tag).expect(\"a field\") + tag.len();\n    &line[start..start + line[start..].find('\"').expect(\"a closing quote\")]\n}\n\n\
         fn main() {\n    let mut out = std::io::BufWriter::new(std::io::stdout().lock());\n    for line in std::io::stdin().lock().lines() {\n        let line = line.expect(\"standard input is readable\");\n        if line.trim().is_empty() {\n            continue;\n        }\n\
         \x20       let (a, b): (i64, i64) = (field(&line, \"a\").parse().expect(\"an i64\"), field(&line, \"b\").parse().expect(\"an i64\"));\n        let r = match field(&line, \"op\") {\n",
    );
    for m in RoundMode::ALL {
        let f = mode_fn(m);
        o.push_str(&format!("            \"{f}\" => {f}(a, b),\n"));
    }
    o.push_str("            \"mod\" => mod_floor(a, b),\n            \"isqrt\" => isqrt_i64(a),\n            op => panic!(\"unknown helper {op}\"),\n        };\n        writeln!(out, \"{{\\\"result\\\":\\\"{r}\\\"}}\").expect(\"standard output is writable\");\n    }\n}\n\n");
    for m in RoundMode::ALL {
        o.push_str(&div_round(m));
        o.push('\n');
    }
    o.push_str(MOD_FLOOR);
    o.push_str(ISQRT);
    o
}

const MOD_FLOOR: &str =
    "/// The remainder from zero up: 0 <= r < |b|.\nfn mod_floor(a: i64, b: i64) -> i64 {\n    a.rem_euclid(b)\n}\n\n";

const ISQRT: &str = "/// The largest r with r * r <= x (x >= 0), by a binary search over whole numbers.\nfn isqrt_i64(x: i64) -> i64 {\n    let (mut lo, mut hi) = (0i64, 3_037_000_499i64.min(x.max(0)));\n    while lo < hi {\n        let mid = lo + (hi - lo + 1) / 2;\n        if mid * mid <= x {\n            lo = mid;\n        } else {\n            hi = mid - 1;\n        }\n    }\n    lo\n}\n\n";

/// `n / d` rounded by one mode, exact for every i64 pair. A positive divisor (nearly every
/// one: grids and constants) stays in i64, where nothing can overflow: 0 <= r < d, and a
/// half is judged by comparing r with d - r, never 2r. A negative divisor turns both signs
/// over in i128, since -i64::MIN does not fit in 64 bits.
fn div_round(m: RoundMode) -> String {
    let adjust = match m {
        RoundMode::Floor => "q",
        RoundMode::Ceiling => "if r > 0 { q + 1 } else { q }",
        RoundMode::Down => "if r > 0 && n < 0 { q + 1 } else { q }",
        RoundMode::Up => "if r > 0 && n > 0 { q + 1 } else { q }",
        RoundMode::HalfUp => "if r > d - r || (r == d - r && n > 0) { q + 1 } else { q }",
        RoundMode::HalfDown => "if r > d - r || (r == d - r && n < 0) { q + 1 } else { q }",
        RoundMode::HalfEven => "if r > d - r || (r == d - r && q % 2 != 0) { q + 1 } else { q }",
    };
    // Floor needs no remainder, and an unused `r` would warn in the crate that includes the module.
    let split = match m {
        RoundMode::Floor => "let q = n.div_euclid(d);",
        _ => "let (q, r) = (n.div_euclid(d), n.rem_euclid(d));",
    };
    format!(
        "/// n / d rounded {} (d != 0; the proof, E132, rules out a zero divisor).\nfn {}(n: i64, d: i64) -> i64 {{\n    if d < 0 {{\n        let (n, d) = (-(n as i128), -(d as i128));\n        {split}\n        return ({adjust}) as i64;\n    }}\n    {split}\n    {adjust}\n}}\n",
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

const JSON_STR: &str = r#"/// Append a JSON string: `"` and `\` escaped, control characters as escapes, the rest as UTF-8.
fn push_json_str(s: &mut String, text: &str) {
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            '\u{8}' => s.push_str("\\b"),
            '\u{c}' => s.push_str("\\f"),
            c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
}

"#;

const DATE_FMT: &str = r#"/// Append a day number as "YYYY-MM-DD" (proleptic Gregorian).
fn push_date(s: &mut String, days: i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    s.push_str(&format!("\"{y:04}-{m:02}-{d:02}\""));
}

"#;

const RUNNER_MAIN: &str = r#"use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.expect("standard input is readable");
        if line.trim().is_empty() {
            continue;
        }
        let printed = match call(&line) {
            Ok(record) => record,
            Err(what) => refusal("input", &what),
        };
        writeln!(out, "{printed}").expect("standard output is writable");
    }
}

fn refusal(kind: &str, what: &str) -> String {
    let mut s = String::from("{\"refused\":\"");
    s.push_str(kind);
    s.push_str("\",\"error\":");
    json::push_str(&mut s, what);
    s.push('}');
    s
}

fn contradiction(what: &str) -> String {
    refusal("contradiction", what)
}

"#;

const RUNNER_JSON: &str = r#"/// The little JSON this runner needs: one flat object per line, numbers kept as their text.
mod json {
    pub enum Value {
        Null,
        Bool(bool),
        Num(String),
        Str(String),
        Obj(Vec<(String, Value)>),
        Other,
    }

    pub enum Whole {
        Int(i64),
        TooBig,
        No,
    }

    pub fn get<'a>(obj: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
        obj.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn push_str(s: &mut String, text: &str) {
        s.push('"');
        for c in text.chars() {
            match c {
                '"' => s.push_str("\\\""),
                '\\' => s.push_str("\\\\"),
                '\n' => s.push_str("\\n"),
                '\r' => s.push_str("\\r"),
                '\t' => s.push_str("\\t"),
                '\u{8}' => s.push_str("\\b"),
                '\u{c}' => s.push_str("\\f"),
                c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
                c => s.push(c),
            }
        }
        s.push('"');
    }

    /// The whole number a JSON number's text is, worked out from its digits and exponent.
    pub fn whole(text: &str) -> Whole {
        let (neg, body) = match text.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, text),
        };
        let (mantissa, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], body[i + 1..].trim_start_matches('+').parse::<i64>().unwrap_or(i64::MAX)),
            None => (body, 0),
        };
        let (ip, fp) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut digits: String = format!("{ip}{fp}").trim_start_matches('0').to_string();
        let mut e = exp.saturating_sub(fp.len() as i64);
        while digits.ends_with('0') {
            digits.pop();
            e = e.saturating_add(1);
        }
        if digits.is_empty() {
            return Whole::Int(0);
        }
        if e < 0 {
            return Whole::No;
        }
        if digits.len() as i64 + e > 19 {
            return Whole::TooBig;
        }
        let mut n: i128 = digits.parse().expect("digits");
        for _ in 0..e {
            n *= 10;
        }
        let n = if neg { -n } else { n };
        match i64::try_from(n) {
            Ok(n) => Whole::Int(n),
            Err(_) => Whole::TooBig,
        }
    }

    /// A day number for exactly "YYYY-MM-DD", when the calendar has that day.
    pub fn date(s: &str) -> Option<i64> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<i64> {
            if b[r.clone()].iter().all(u8::is_ascii_digit) {
                s[r].parse().ok()
            } else {
                None
            }
        };
        let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days_in = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        if !(1..=12).contains(&m) || d < 1 || d > days_in[(m - 1) as usize] {
            return None;
        }
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(era * 146_097 + doe - 719_468)
    }

    /// A vectors line's `in` object (or, for a line without one, the line itself).
    pub fn parse_call(line: &str) -> Option<Vec<(String, Value)>> {
        let mut p = Parser { s: line.as_bytes(), i: 0 };
        p.ws();
        let top = p.object()?;
        p.ws();
        if p.i != p.s.len() {
            return None;
        }
        match top.iter().position(|(k, _)| k == "in") {
            Some(i) => match top.into_iter().nth(i)?.1 {
                Value::Obj(o) => Some(o),
                _ => None,
            },
            None => Some(top),
        }
    }

    struct Parser<'a> {
        s: &'a [u8],
        i: usize,
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<u8> {
            self.s.get(self.i).copied()
        }
        fn eat(&mut self, c: u8) -> Option<()> {
            (self.peek()? == c).then(|| self.i += 1)
        }
        fn ws(&mut self) {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.i += 1;
            }
        }
        fn word(&mut self, w: &str) -> Option<()> {
            self.s[self.i..].starts_with(w.as_bytes()).then(|| self.i += w.len())
        }
        fn object(&mut self) -> Option<Vec<(String, Value)>> {
            self.eat(b'{')?;
            let mut out = Vec::new();
            self.ws();
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Some(out);
            }
            loop {
                self.ws();
                let key = self.string()?;
                self.ws();
                self.eat(b':')?;
                self.ws();
                let value = self.value()?;
                out.push((key, value));
                self.ws();
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        return Some(out);
                    }
                    _ => return None,
                }
            }
        }
        fn value(&mut self) -> Option<Value> {
            match self.peek()? {
                b'n' => self.word("null").map(|_| Value::Null),
                b't' => self.word("true").map(|_| Value::Bool(true)),
                b'f' => self.word("false").map(|_| Value::Bool(false)),
                b'"' => self.string().map(Value::Str),
                b'{' => self.object().map(Value::Obj),
                b'[' => self.skip_nested().map(|_| Value::Other),
                _ => self.number().map(Value::Num),
            }
        }
        fn number(&mut self) -> Option<String> {
            let start = self.i;
            while matches!(self.peek(), Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
                self.i += 1;
            }
            let t = std::str::from_utf8(&self.s[start..self.i]).ok()?;
            let ok = {
                let b = t.strip_prefix('-').unwrap_or(t);
                let (m, e) = match b.find(['e', 'E']) {
                    Some(i) => (&b[..i], Some(&b[i + 1..])),
                    None => (b, None),
                };
                let (ip, fp) = match m.split_once('.') {
                    Some((i, f)) => (i, Some(f)),
                    None => (m, None),
                };
                let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
                digits(ip)
                    && (ip == "0" || !ip.starts_with('0'))
                    && fp.map_or(true, digits)
                    && e.map_or(true, |e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
            };
            ok.then(|| t.to_string())
        }
        fn string(&mut self) -> Option<String> {
            self.eat(b'"')?;
            let mut out = String::new();
            loop {
                let c = self.peek()?;
                self.i += 1;
                match c {
                    b'"' => return Some(out),
                    b'\\' => {
                        let e = self.peek()?;
                        self.i += 1;
                        match e {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'n' => out.push('\n'),
                            b'r' => out.push('\r'),
                            b't' => out.push('\t'),
                            b'u' => {
                                let hi = self.hex4()?;
                                let code = if (0xD800..0xDC00).contains(&hi) {
                                    self.eat(b'\\')?;
                                    self.eat(b'u')?;
                                    let lo = self.hex4()?;
                                    0x10000 + ((hi - 0xD800) << 10) + (lo.checked_sub(0xDC00)?)
                                } else {
                                    hi
                                };
                                out.push(char::from_u32(code)?);
                            }
                            _ => return None,
                        }
                    }
                    c if c < 0x80 => out.push(c as char),
                    _ => {
                        let start = self.i - 1;
                        let len = match c {
                            0xC0..=0xDF => 2,
                            0xE0..=0xEF => 3,
                            _ => 4,
                        };
                        let piece = std::str::from_utf8(self.s.get(start..start + len)?).ok()?;
                        out.push_str(piece);
                        self.i = start + len;
                    }
                }
            }
        }
        fn hex4(&mut self) -> Option<u32> {
            let t = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
            self.i += 4;
            u32::from_str_radix(t, 16).ok()
        }
        fn skip_nested(&mut self) -> Option<()> {
            let mut depth = 0usize;
            loop {
                match self.peek()? {
                    b'"' => {
                        self.string()?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            self.i += 1;
                            return Some(());
                        }
                    }
                    _ => {}
                }
                self.i += 1;
            }
        }
    }
}
"#;
