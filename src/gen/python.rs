//! The Python backend (generated-code.md, Python): a `NewType` per unit, an `Enum` per enum,
//! a `NamedTuple` for two outputs or more, `RuleInputError` / `RuleContradictionError`, the
//! entry guard (which checks kinds itself: a caller can pass anything), one branch per row,
//! the `_traced` twin, the `_record` function, and a runner that `python3` alone runs.
//!
//! The module imports `enum` and `typing` and nothing else. A date is its day number (days
//! since 1970-01-01, the `Date` NewType over int): `datetime.date` would take an import the
//! module does not make, and the day number is what every other door and the plan hold.

use super::names::{ident, pascal, unit_type};
use super::plan::{self, Check, Code, Helper, Plan, Step};
use super::{Backend, File, Lang, Runner, Unit};
use crate::num::RoundMode;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use std::fmt::Write;

pub struct Python;

impl Backend for Python {
    fn lang(&self) -> Lang {
        Lang::Python
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let alias = u.program.ident().to_string();
        vec![
            File { path: format!("{alias}.py"), text: g.module() },
            File { path: format!("{alias}_runner.py"), text: g.runner() },
            File { path: "_helpers_runner.py".into(), text: helpers_runner() },
        ]
    }

    fn runner(&self, alias: &str) -> Runner {
        Runner {
            needs: vec!["python3"],
            build: vec![],
            run: vec!["python3".into(), "-B".into(), format!("{alias}_runner.py")],
        }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let p = u.program;
        let f = g.fn_name();
        let ret = g.returns();
        let params = g.params();
        let (out, trace, tag) = g.record_names();
        let record_params =
            join_nonempty(&[params.clone(), format!("{out}: {ret}, {trace}: _Trace, {tag}: str = \"\"")]);
        serde_json::json!({
            "module": p.ident(),
            "function": f,
            "signature": format!("def {f}({params}) -> {ret}:"),
            "traced": format!("{f}_traced"),
            "traced_signature": format!("def {f}_traced({params}) -> tuple[{ret}, list[Fired]]:"),
            "record": format!("{f}_record"),
            "record_signature": format!("def {f}_record({record_params}) -> str:"),
            "params": p.inputs.iter().map(|&v| super::api_param(u, v, &g.api_type(v))).collect::<Vec<_>>(),
            "returns": ret,
            "outputs": p.outputs.iter().map(|&v| super::api_output(u, v, &g.api_type(v))).collect::<Vec<_>>(),
            "enums": super::api_enums(u, &|e| g.enum_name(e), &|e, i| g.member_name(e, i)),
            "errors": ["RuleInputError", "RuleContradictionError"],
        })
    }
}

struct Gen<'a> {
    u: &'a Unit<'a>,
    p: &'a Program,
    plan: &'a Plan,
}

/// What a value of generated code is, as far as spelling an operation on it goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Num,
    Bool,
    Str,
    Enum(EnumId),
    Unknown,
}

fn mode_fn(m: RoundMode) -> String {
    format!("_div_round_{}", m.as_str())
}

/// A Python string literal for any text: `"…"` (or `'…'` when that needs fewer escapes),
/// backslashes and control characters escaped, everything else as UTF-8.
fn py_str(s: &str) -> String {
    let quote = if s.contains('"') && !s.contains('\'') { '\'' } else { '"' };
    let mut o = String::with_capacity(s.len() + 2);
    o.push(quote);
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c == quote => {
                o.push('\\');
                o.push(c);
            }
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push(quote);
    o
}

/// Text put in a `#` comment: anything that could end the line becomes a space.
fn comment(s: &str) -> String {
    s.chars().map(|c| if c.is_control() || c == '\u{2028}' || c == '\u{2029}' { ' ' } else { c }).collect()
}

fn join_nonempty(parts: &[String]) -> String {
    parts.iter().filter(|s| !s.is_empty()).cloned().collect::<Vec<_>>().join(", ")
}

/// Drop the parentheses `expr` puts around a whole expression, where the statement holds it alone.
fn bare(s: String) -> String {
    if s.starts_with('(') && s.ends_with(')') {
        let inner = &s[1..s.len() - 1];
        let mut depth = 0i32;
        let mut in_str: Option<char> = None;
        let mut escaped = false;
        for c in inner.chars() {
            if let Some(q) = in_str {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    in_str = None;
                }
                continue;
            }
            match c {
                '"' | '\'' => in_str = Some(c),
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth < 0 {
                        return s;
                    }
                }
                _ => {}
            }
        }
        if depth == 0 {
            return inner.to_string();
        }
    }
    s
}

impl Gen<'_> {
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

    /// The member's own name: the alias (or the name) in upper case.
    fn member_name(&self, e: EnumId, i: u32) -> String {
        let v = &self.p.enums[e].values[i as usize];
        v.alias.as_deref().unwrap_or(&v.name).to_ascii_uppercase()
    }

    fn member(&self, e: EnumId, i: u32) -> String {
        format!("{}.{}", self.enum_name(e), self.member_name(e, i))
    }

    /// The function giving the place of a value of an ordered enum (`tier_rank`).
    fn rank_fn(&self, e: EnumId) -> String {
        format!("{}_rank", ident(&self.p.enums[e].name, self.p.enums[e].alias.as_deref()))
    }

    /// Whether the API wraps this variable's integer in a NewType.
    fn wrapped(&self, v: VarId) -> bool {
        matches!(self.p.vars[v].ty, Ty::Date | Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. })
    }

    fn wrapper(&self, v: VarId) -> String {
        match &self.p.vars[v].ty {
            Ty::Date => "Date".into(),
            ty => unit_type(self.p, ty).expect("a unit type"),
        }
    }

    fn optional(&self, v: VarId, base: String) -> String {
        if self.p.vars[v].optional {
            format!("{base} | None")
        } else {
            base
        }
    }

    /// The type of a parameter or an output in the API.
    fn api_type(&self, v: VarId) -> String {
        let base = match &self.p.vars[v].ty {
            Ty::Bool => "bool".to_string(),
            Ty::Int | Ty::Number => "int".to_string(),
            Ty::Str => "str".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ => self.wrapper(v),
        };
        self.optional(v, base)
    }

    /// The type a value has inside the function body (a number is the integer it carries).
    fn local_type(&self, v: VarId) -> String {
        let base = match &self.p.vars[v].ty {
            Ty::Bool => "bool".to_string(),
            Ty::Str => "str".to_string(),
            Ty::Enum(e) => self.enum_name(*e),
            _ => "int".to_string(),
        };
        self.optional(v, base)
    }

    fn params(&self) -> String {
        self.p.inputs.iter().map(|&v| format!("{}: {}", self.name(v), self.api_type(v))).collect::<Vec<_>>().join(", ")
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

    /// The names of the record function's last three parameters: `out`, `trace`, `tag`, with
    /// `_` after one that an input already has.
    fn record_names(&self) -> (String, String, String) {
        let taken: Vec<String> = self.p.inputs.iter().map(|&v| self.name(v)).collect();
        let fresh = |base: &str| {
            let mut n = base.to_string();
            while taken.contains(&n) {
                n.push('_');
            }
            n
        };
        (fresh("out"), fresh("trace"), fresh("tag"))
    }

    fn module(&self) -> String {
        let mut o = self.u.header("#");
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, "#\n# {}", comment(about));
        }
        o.push('\n');
        let has_enums = !self.p.enums.is_empty();
        let units = super::names::unit_types(self.p);
        let has_date = self.has_date_type();
        if has_enums {
            o.push_str("from enum import Enum\n");
        }
        let mut typing = vec!["NamedTuple"];
        if !units.is_empty() || has_date {
            typing.push("NewType");
        }
        typing.push("Sequence");
        let _ = writeln!(o, "from typing import {}\n", typing.join(", "));
        o.push_str(
            "# The builtins the functions call, under names of the module's own, so that an input\n\
             # called int or len cannot stand in their way.\n",
        );
        for b in ["isinstance", "int", "float", "bool", "str", "repr", "min", "max", "ord"] {
            let _ = writeln!(o, "_{b} = {b}");
        }
        o.push_str("\n\n");
        self.types(&mut o, &units, has_date);
        self.functions(&mut o);
        self.record(&mut o);
        self.helpers(&mut o);
        // One newline at the end, no blank line after it.
        while o.ends_with("\n\n") {
            o.pop();
        }
        o
    }

    fn has_date_type(&self) -> bool {
        self.p.vars.iter().any(|v| v.ty == Ty::Date && (v.kind != VarKind::Define || v.declared))
    }

    fn types(&self, o: &mut String, units: &[(String, Ty)], has_date: bool) {
        for (name, ty) in units {
            let what = crate::sema::ty_name(ty, &self.p.enums);
            let _ = writeln!(
                o,
                "{name} = NewType({}, int)  # {}: a whole number of its unit",
                py_str(name),
                comment(&what)
            );
        }
        if has_date {
            o.push_str("Date = NewType(\"Date\", int)  # a calendar day: the number of days since 1970-01-01\n");
        }
        if !units.is_empty() || has_date {
            o.push_str("\n\n");
        }
        for (e, en) in self.p.enums.iter().enumerate() {
            let name = self.enum_name(e);
            let _ = writeln!(o, "class {name}(Enum):");
            let _ = writeln!(
                o,
                "    {}\n",
                py_doc(&format!(
                    "enum {}{}: a member is the alias in upper case, its value the name the wire and the records write.",
                    en.name,
                    if en.ordered { " (ordered: a value compares by its place)" } else { "" }
                ))
            );
            for (i, v) in en.values.iter().enumerate() {
                let _ = writeln!(o, "    {} = {}", self.member_name(e, i as u32), py_str(&v.name));
            }
            o.push_str("\n\n");
            if en.ordered {
                let table = format!("_{}_PLACE", self.rank_fn(e).to_ascii_uppercase());
                let places = (0..en.values.len())
                    .map(|i| format!("{}: {i}", self.member(e, i as u32)))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = writeln!(o, "{table}: dict[{name}, int] = {{{places}}}\n\n");
                let _ = writeln!(
                    o,
                    "def {}(value: {name}) -> int:\n    {}\n    return {table}[value]\n\n",
                    self.rank_fn(e),
                    py_doc(&format!("The place of a value of the ordered enum {}, from 0.", en.name))
                );
            }
        }
        o.push_str(
            "class RuleInputError(ValueError):\n\
             \x20   \"\"\"The caller broke the contract: fix the call site.\n\n\
             \x20   what is the sentence; value the repr() of what was refused (None when the\n\
             \x20   refusal is not about one value). The message is the sentence.\n\
             \x20   \"\"\"\n\n\
             \x20   def __init__(self, what: str, value: str | None = None) -> None:\n\
             \x20       super().__init__(what)\n\
             \x20       self.what = what\n\
             \x20       self.value = value\n\n\n\
             class RuleContradictionError(AssertionError):\n\
             \x20   \"\"\"The rule contradicted itself (two rows the checker could not prove apart both\n\
             \x20   matched): fix the rule, not the call. value is always None.\n\
             \x20   \"\"\"\n\n\
             \x20   def __init__(self, what: str) -> None:\n\
             \x20       super().__init__(what)\n\
             \x20       self.what = what\n\
             \x20       self.value: str | None = None\n\n\n\
             class Fired(NamedTuple):\n\
             \x20   \"\"\"A row that matched: the table's name and the row's number as written (from 1).\"\"\"\n\n\
             \x20   table: str\n\
             \x20   row: int\n\n\n\
             _Trace = Sequence[Fired]\n\n\n",
        );
        if self.p.outputs.len() > 1 {
            o.push_str(
                "class Output(NamedTuple):\n    \"\"\"The outputs, in the order the rule declares them.\"\"\"\n\n",
            );
            for &v in &self.p.outputs {
                let n = self.name(v);
                // A field named like one of tuple's methods takes its place, which is what a
                // caller reading `out.count` wants; mypy is told so.
                let note = if matches!(n.as_str(), "count" | "index") { "  # type: ignore[assignment]" } else { "" };
                let _ = writeln!(o, "    {n}: {}{note}", self.api_type(v));
            }
            o.push_str("\n\n");
        }
    }

    fn functions(&self, o: &mut String) {
        let f = self.fn_name();
        let (params, args, ret) = (self.params(), self.args(), self.returns());
        let _ = writeln!(o, "def {f}({params}) -> {ret}:");
        let about = self.p.about.clone().unwrap_or_else(|| format!("rule {}", self.p.name));
        let _ = writeln!(o, "    {}", py_doc(&about));
        let _ = writeln!(o, "    return {f}_traced({args})[0]\n\n");
        let _ = writeln!(o, "def {f}_traced({params}) -> tuple[{ret}, list[Fired]]:");
        o.push_str("    \"\"\"The same call, with the rows that matched: one per table, in evaluation order.\"\"\"\n");
        self.entry_guard(o);
        o.push_str("    _trace: list[Fired] = []\n");
        for step in &self.plan.steps {
            match step {
                Step::Define { var, value } => {
                    let _ = writeln!(
                        o,
                        "    {}: {} = {}  # define {}",
                        self.name(*var),
                        self.local_type(*var),
                        bare(self.expr(value)),
                        comment(&self.p.vars[*var].name)
                    );
                }
                Step::Table { table, rows, guards } => self.table(o, *table, rows, guards),
            }
        }
        let value = |v: VarId| -> String {
            let n = self.name(v);
            match (self.wrapped(v), self.p.vars[v].optional) {
                (true, false) => format!("{}({n})", self.wrapper(v)),
                (true, true) => format!("(None if {n} is None else {}({n}))", self.wrapper(v)),
                _ => n,
            }
        };
        let out = match self.p.outputs.as_slice() {
            [one] => value(*one),
            outs => format!(
                "Output({})",
                outs.iter().map(|&v| format!("{}={}", self.name(v), value(v))).collect::<Vec<_>>().join(", ")
            ),
        };
        let _ = writeln!(o, "    return {out}, _trace\n\n");
    }

    /// Per input in declaration order: missing, kind, enum membership, range; then every
    /// constraint — the order of the reference's door.
    fn entry_guard(&self, o: &mut String) {
        o.push_str("    # The entry guard: what the proofs assumed of every call.\n");
        for &v in &self.p.inputs {
            let var = &self.p.vars[v];
            let n = self.name(v);
            let refuse = |what: &str, value: bool| -> String {
                let sentence = py_str(&format!("{} {what}", var.name));
                if value {
                    format!("raise RuleInputError({sentence}, _repr({n}))")
                } else {
                    format!("raise RuleInputError({sentence})")
                }
            };
            let mut lines: Vec<String> = Vec::new();
            let int_valued = |what: &str, lines: &mut Vec<String>| {
                let convert =
                    if self.wrapped(v) { format!("{}(_int({n}))", self.wrapper(v)) } else { format!("_int({n})") };
                lines.push(format!("if _isinstance({n}, _float) and _float({n}).is_integer():"));
                lines.push(format!("    {n} = {convert}"));
                lines.push(format!("if not _isinstance({n}, _int) or _isinstance({n}, _bool):"));
                lines.push(format!("    {}", refuse(what, true)));
            };
            match &var.ty {
                Ty::Bool => {
                    lines.push(format!("if not _isinstance({n}, _bool):"));
                    lines.push(format!("    {}", refuse("is not a boolean", true)));
                }
                Ty::Str => {
                    lines.push(format!("if not _isinstance({n}, _str):"));
                    lines.push(format!("    {}", refuse("is not a string", true)));
                }
                Ty::Enum(e) => {
                    lines.push(format!("if not _isinstance({n}, {}):", self.enum_name(*e)));
                    lines.push(format!(
                        "    {}",
                        refuse(&format!("is not a value of enum {}", self.p.enums[*e].name), true)
                    ));
                }
                Ty::Date => int_valued("is not a date", &mut lines),
                _ => int_valued("is not an integer", &mut lines),
            }
            if let Some(g) = self.plan.guards.iter().find(|g| g.var == v) {
                let raise = format!("    raise RuleInputError({}, _repr({n}))", py_str(&g.sentence));
                match &g.check {
                    Check::Range { lo, hi } => lines.push(format!("if not {lo} <= {n} <= {hi}:")),
                    Check::EnumRange { lo, hi } => {
                        let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                        let r = self.rank_fn(e);
                        lines.push(format!(
                            "if not {r}({}) <= {r}({n}) <= {r}({}):",
                            self.member(e, *lo),
                            self.member(e, *hi)
                        ));
                    }
                }
                lines.push(raise);
            }
            if var.optional {
                let _ = writeln!(o, "    if {n} is not None:");
                for l in lines {
                    let _ = writeln!(o, "        {l}");
                }
            } else {
                let _ = writeln!(o, "    if {n} is None:\n        {}", refuse("is missing", false));
                for l in lines {
                    let _ = writeln!(o, "    {l}");
                }
            }
        }
        for (c, sentence) in &self.plan.constraints {
            let _ =
                writeln!(o, "    if not {}:\n        raise RuleInputError({})", self.constraint(c), py_str(sentence));
        }
    }

    /// A constraint holds when an optional it reads is absent.
    fn constraint(&self, c: &Code) -> String {
        let optionals = c.optionals_read(self.p);
        if optionals.is_empty() {
            return self.expr(c);
        }
        let mut parts: Vec<String> = optionals.iter().map(|&v| format!("{} is None", self.name(v))).collect();
        parts.push(self.expr(c));
        format!("({})", parts.join(" or "))
    }

    fn table(&self, o: &mut String, t: usize, rows: &[plan::Row], guards: &[(usize, usize, String)]) {
        let table = &self.p.tables[t];
        let _ = writeln!(o, "    # table {} (policy {})", comment(&table.name), table.policy.as_str());
        for (a, b, sentence) in guards {
            let _ = writeln!(
                o,
                "    # guard: W114 (table {}, row {a} × row {b}): a pair of rows whose exclusivity could not be proven statically",
                comment(&table.name)
            );
            let _ = writeln!(
                o,
                "    if {} and {}:\n        raise RuleContradictionError({})",
                self.expr_paren(&rows[a - 1].cond),
                self.expr_paren(&rows[b - 1].cond),
                py_str(sentence)
            );
        }
        for &r in &table.results {
            let _ = writeln!(o, "    {}: {}", self.name(r), self.local_type(r));
        }
        for (i, row) in rows.iter().enumerate() {
            let kw = if i == 0 { "if" } else { "elif" };
            let _ = writeln!(o, "    {kw} {}:  # row {}: {}", bare(self.expr(&row.cond)), row.n, comment(&row.cells));
            for (v, value) in &row.assigns {
                let _ = writeln!(o, "        {} = {}", self.name(*v), bare(self.expr(value)));
            }
            let _ = writeln!(o, "        _trace.append(Fired({}, {}))", py_str(&table.name), row.n);
        }
        let _ = writeln!(
            o,
            "    else:\n        raise RuleContradictionError({})",
            py_str(&format!("table {}: no row matched", table.name))
        );
    }

    /// What a code node is: a number, a truth value, a string, a value of an enum.
    fn kind(&self, c: &Code) -> Kind {
        match c {
            Code::Int(_) => Kind::Num,
            Code::Bool(_) => Kind::Bool,
            Code::Str(_) => Kind::Str,
            Code::Enum(e, _) => Kind::Enum(*e),
            Code::Absent => Kind::Unknown,
            Code::Var(v) => match &self.p.vars[*v].ty {
                Ty::Bool => Kind::Bool,
                Ty::Str => Kind::Str,
                Ty::Enum(e) => Kind::Enum(*e),
                _ => Kind::Num,
            },
            Code::Neg(_)
            | Code::Add(..)
            | Code::Sub(..)
            | Code::Mul(..)
            | Code::DivExact(..)
            | Code::DivRound(..)
            | Code::Mod(..)
            | Code::Isqrt(_) => Kind::Num,
            Code::If(_, a, b) => match self.kind(a) {
                Kind::Unknown => self.kind(b),
                k => k,
            },
            Code::Min(xs) | Code::Max(xs) => {
                xs.iter().map(|x| self.kind(x)).find(|k| *k != Kind::Unknown).unwrap_or(Kind::Unknown)
            }
            Code::Cmp(..)
            | Code::And(..)
            | Code::Or(..)
            | Code::Not(_)
            | Code::OneOf(..)
            | Code::IsNone(_)
            | Code::Present(..) => Kind::Bool,
        }
    }

    /// An expression that can stand as an operand of `and`.
    fn expr_paren(&self, c: &Code) -> String {
        let s = self.expr(c);
        let whole = s.starts_with('(') && bare(s.clone()) != s;
        if whole || s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            s
        } else {
            format!("({s})")
        }
    }

    /// A code node in Python; every compound expression is wrapped in parentheses.
    fn expr(&self, c: &Code) -> String {
        let bin = |op: &str, a: &Code, b: &Code| format!("({} {op} {})", self.expr(a), self.expr(b));
        match c {
            Code::Int(n) => n.to_string(),
            Code::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Code::Str(s) => py_str(s),
            Code::Enum(e, i) => self.member(*e, *i),
            Code::Absent => "None".into(),
            Code::Var(v) => self.name(*v),
            Code::Neg(x) => format!("(-{})", self.expr(x)),
            Code::Add(a, b) => bin("+", a, b),
            Code::Sub(a, b) => bin("-", a, b),
            Code::Mul(a, b) => bin("*", a, b),
            // Exact: E106 proved the division lands on a whole number, so flooring changes nothing.
            Code::DivExact(a, q) => format!("({} // {q})", self.expr(a)),
            Code::DivRound(n, d, m) => format!("{}({}, {})", mode_fn(*m), bare(self.expr(n)), bare(self.expr(d))),
            Code::Min(xs) | Code::Max(xs) => {
                let f = if matches!(c, Code::Min(_)) { "_min" } else { "_max" };
                let args = xs.iter().map(|x| bare(self.expr(x))).collect::<Vec<_>>().join(", ");
                match self.kind(c) {
                    Kind::Enum(e) => format!("{f}({args}, key={})", self.rank_fn(e)),
                    _ => format!("{f}({args})"),
                }
            }
            Code::Mod(a, b) => format!("_mod({}, {})", bare(self.expr(a)), bare(self.expr(b))),
            Code::Isqrt(x) => format!("_isqrt({})", bare(self.expr(x))),
            Code::If(c, a, b) => format!("({} if {} else {})", self.expr(a), self.expr(c), self.expr(b)),
            Code::Cmp(op, a, b) => self.cmp(*op, a, b, false),
            Code::And(a, b) => bin("and", a, b),
            Code::Or(a, b) => bin("or", a, b),
            Code::Not(x) => match &**x {
                // `not x in y` and `not x is y` are written the way Python reads them (E713, E714).
                Code::OneOf(v, vals) => self.one_of(v, vals, true),
                Code::IsNone(v) => format!("({} is not None)", self.name(*v)),
                Code::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) if self.identity(a, b) => self.cmp(*op, a, b, true),
                inner => format!("(not {})", self.expr(inner)),
            },
            Code::OneOf(x, vals) => self.one_of(x, vals, false),
            Code::IsNone(v) => format!("({} is None)", self.name(*v)),
            Code::Present(v, t) => format!("({} is not None and {})", self.name(*v), self.expr(t)),
        }
    }

    fn one_of(&self, x: &Code, vals: &[Code], negated: bool) -> String {
        let items = vals.iter().map(|v| self.expr(v)).collect::<Vec<_>>();
        let tuple = if items.len() == 1 { format!("({},)", items[0]) } else { format!("({})", items.join(", ")) };
        format!("({} {} {tuple})", self.expr(x), if negated { "not in" } else { "in" })
    }

    /// Whether an (in)equality is one of identity: a value of an enum, or a truth value against a literal.
    fn identity(&self, a: &Code, b: &Code) -> bool {
        matches!(self.kind(a), Kind::Enum(_))
            || matches!(self.kind(b), Kind::Enum(_))
            || matches!(a, Code::Bool(_))
            || matches!(b, Code::Bool(_))
    }

    /// `a op b`: numbers as integers, an ordered enum by its place, and equality of an enum
    /// value or against True/False as identity. `negated` turns the (in)equality over.
    fn cmp(&self, op: CmpOp, a: &Code, b: &Code, negated: bool) -> String {
        let (x, y) = (self.expr(a), self.expr(b));
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            let eq = (op == CmpOp::Eq) != negated;
            if self.identity(a, b) {
                return format!("({x} {} {y})", if eq { "is" } else { "is not" });
            }
            return format!("({x} {} {y})", if eq { "==" } else { "!=" });
        }
        let o = op.as_str();
        match (self.kind(a), self.kind(b)) {
            (Kind::Enum(e), _) | (_, Kind::Enum(e)) => {
                let r = self.rank_fn(e);
                format!("({r}({}) {o} {r}({}))", bare(x), bare(y))
            }
            _ => format!("({x} {o} {y})"),
        }
    }

    fn record(&self, o: &mut String) {
        let f = self.fn_name();
        let ret = self.returns();
        let (out, trace, tag) = self.record_names();
        let params = join_nonempty(&[self.params(), format!("{out}: {ret}, {trace}: _Trace, {tag}: str = \"\"")]);
        let _ = writeln!(o, "def {f}_record({params}) -> str:");
        o.push_str(
            "    \"\"\"One call as a fixtures record (formats.md), the line `rulec replay` reads; an empty tag is left out.\"\"\"\n",
        );
        o.push_str("    _s: list[str] = [\"{\"]\n");
        let _ = writeln!(o, "    if {tag} != \"\":\n        _s.append('\"tag\":' + _json_str({tag}) + \",\")");
        let key = |name: &str| serde_json::to_string(name).expect("a name serializes");
        let mut lead = String::from("\"in\":{");
        for (i, &v) in self.p.inputs.iter().enumerate() {
            if i > 0 {
                lead.push(',');
            }
            lead.push_str(&key(&self.p.vars[v].name));
            lead.push(':');
            let _ = writeln!(o, "    _s.append({})", py_str(&lead));
            let _ = writeln!(o, "    _s.append({})", self.wire(v, &self.name(v)));
            lead.clear();
        }
        lead.push_str("},\"observed\":{");
        for (i, &v) in self.p.outputs.iter().enumerate() {
            if i > 0 {
                lead.push(',');
            }
            lead.push_str(&key(&self.p.vars[v].name));
            lead.push(':');
            let _ = writeln!(o, "    _s.append({})", py_str(&lead));
            let field = if self.p.outputs.len() == 1 { out.clone() } else { format!("{out}.{}", self.name(v)) };
            let _ = writeln!(o, "    _s.append({})", self.wire(v, &field));
            lead.clear();
        }
        lead.push_str("},\"trace\":[");
        let _ = writeln!(o, "    _s.append({})", py_str(&lead));
        let _ = writeln!(
            o,
            "    _s.append(\",\".join('{{\"table\":' + _json_str(_f.table) + ',\"row\":' + _str(_int(_f.row)) + \"}}\" for _f in {trace}))"
        );
        o.push_str("    _s.append(\"]}\")\n    return \"\".join(_s)\n\n\n");
    }

    /// A variable's wire form, as an expression giving its JSON text; `x` reads the value.
    fn wire(&self, v: VarId, x: &str) -> String {
        let var = &self.p.vars[v];
        let one = |x: &str| -> String {
            match &var.ty {
                Ty::Bool => format!("\"true\" if {x} else \"false\""),
                Ty::Str => format!("_json_str({x})"),
                Ty::Enum(_) => format!("_json_str({x}.value)"),
                Ty::Date => format!("_date_str({x})"),
                _ => format!("_str(_int({x}))"),
            }
        };
        match (var.optional, &var.ty) {
            (true, Ty::Bool) => format!("\"null\" if {x} is None else ({})", one(x)),
            (true, _) => format!("\"null\" if {x} is None else {}", one(x)),
            (false, _) => one(x),
        }
    }

    fn helpers(&self, o: &mut String) {
        o.push_str(JSON_STR);
        if self.plan.uses_dates {
            o.push_str(DATE_STR);
        }
        for h in &self.plan.helpers {
            match h {
                Helper::DivRound(m) => o.push_str(&div_round(*m)),
                Helper::Mod => o.push_str(MOD),
                Helper::Isqrt => o.push_str(ISQRT),
            }
        }
    }

    fn runner(&self) -> String {
        let alias = self.p.ident();
        let f = self.fn_name();
        let mut o = self.u.header("#");
        let _ = writeln!(
            o,
            "#\n# The runner `rulec test` drives: one vectors line in, one record (or refusal) out.\n\
             # Run: python3 {alias}_runner.py < {alias}.jsonl\n\
             #\n\
             # It turns the wire into what the module takes (an enum's name into its member, a date\n\
             # into its day number, a whole number into an int) and hands everything else on as it\n\
             # came: the module's own entry guard refuses it, in the reference's order.\n"
        );
        o.push_str("import decimal\nimport json\nimport sys\nfrom typing import Any\n\n");
        let _ = writeln!(o, "import {alias} as _rule\n");
        let names = self.p.inputs.iter().map(|&v| py_str(&self.p.vars[v].name)).collect::<Vec<_>>();
        let tuple = match names.len() {
            0 => "()".to_string(),
            1 => format!("({},)", names[0]),
            _ => format!("({})", names.join(", ")),
        };
        let _ = writeln!(o, "_INPUTS = {tuple}\n\n");
        o.push_str(RUNNER_READERS);
        // The locals of `_call` start with `_`, so that no input's name stands in their way.
        o.push_str("def _call(_line: str) -> str:\n");
        o.push_str("    _in = _read_call(_line)\n    if _in is None:\n        return _refusal(\"input\", \"the input is not an object\")\n");
        for &v in &self.p.inputs {
            let var = &self.p.vars[v];
            let key = py_str(&var.name);
            let read = match &var.ty {
                Ty::Bool | Ty::Str => format!("_as_read(_in.get({key}))"),
                Ty::Enum(e) => format!("_enum(_rule.{}, _in.get({key}))", self.enum_name(*e)),
                Ty::Date => format!("_date(_in.get({key}))"),
                _ => format!("_number(_in.get({key}))"),
            };
            let _ = writeln!(o, "    {} = {read}", self.name(v));
        }
        let args = self.args();
        let _ = writeln!(
            o,
            "    try:\n        _out, _trace = _rule.{f}_traced({args})\n    except _rule.RuleInputError as _e:\n        return _refusal(\"input\", _e.what)\n\
             \x20   except _rule.RuleContradictionError as _e:\n        _stray_key = _stray(_in)\n        return _stray_key if _stray_key is not None else _refusal(\"contradiction\", _e.what)\n\
             \x20   _stray_key = _stray(_in)\n    if _stray_key is not None:\n        return _stray_key\n    return _rule.{f}_record({})\n\n",
            join_nonempty(&[args.clone(), "_out, _trace".to_string()])
        );
        o.push_str(RUNNER_MAIN);
        o
    }
}

/// A one-line docstring for any text.
fn py_doc(text: &str) -> String {
    let t = comment(text).replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let t = if t.ends_with('"') { format!("{t} ") } else { t };
    format!("\"\"\"{t}\"\"\"")
}

/// `n / d` rounded by one mode. Python's integers do not overflow, and once the divisor is
/// made positive `//` is the floor and `%` the remainder from zero up, so each mode is one
/// adjustment of the floor.
fn div_round(m: RoundMode) -> String {
    let (what, adjust) = match m {
        RoundMode::Floor => ("toward -infinity", None),
        RoundMode::Ceiling => ("toward +infinity", Some("r > 0")),
        RoundMode::Down => ("toward zero", Some("r > 0 and n < 0")),
        RoundMode::Up => ("away from zero", Some("r > 0 and n > 0")),
        RoundMode::HalfUp => ("to the nearest, ties away from zero", Some("2 * r > d or (2 * r == d and n > 0)")),
        RoundMode::HalfDown => ("to the nearest, ties toward zero", Some("2 * r > d or (2 * r == d and n < 0)")),
        RoundMode::HalfEven => ("to the nearest, ties to even", Some("2 * r > d or (2 * r == d and q % 2 != 0)")),
    };
    let mut s = format!(
        "def {}(n: int, d: int) -> int:\n    \"\"\"n / d rounded {what} (d != 0; the proof, E132, rules out a zero divisor).\"\"\"\n\
         \x20   if d < 0:\n        n, d = -n, -d\n    q, r = n // d, n % d  # d > 0: q is the floor, 0 <= r < d\n",
        mode_fn(m)
    );
    if let Some(cond) = adjust {
        let _ = writeln!(s, "    if {cond}:\n        q += 1");
    }
    s.push_str("    return q\n\n\n");
    s
}

const MOD: &str = "def _mod(a: int, b: int) -> int:\n    \"\"\"The remainder from zero up: 0 <= r < |b| (b != 0).\"\"\"\n    return a % (b if b > 0 else -b)\n\n\n";

const ISQRT: &str = "def _isqrt(x: int) -> int:\n    \"\"\"The largest r with r * r <= x (x >= 0), by a binary search over whole numbers.\"\"\"\n\
    \x20   lo, hi = 0, 3037000499\n    if x < hi:\n        hi = x if x > 0 else 0\n    while lo < hi:\n        mid = lo + (hi - lo + 1) // 2\n\
    \x20       if mid * mid <= x:\n            lo = mid\n        else:\n            hi = mid - 1\n    return lo\n\n\n";

const JSON_STR: &str = r#"def _json_str(text: str) -> str:
    """A JSON string as the records write it: quote, backslash and control characters escaped, the rest as it is."""
    out = ['"']
    for c in text:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c >= " ":
            out.append(c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\b":
            out.append("\\b")
        elif c == "\f":
            out.append("\\f")
        else:
            out.append(f"\\u{_ord(c):04x}")
    out.append('"')
    return "".join(out)


"#;

const DATE_STR: &str = r#"def _date_str(days: int) -> str:
    """A day number as "YYYY-MM-DD" (proleptic Gregorian); // here divides by positive constants, where it is the floor."""
    z = _int(days) + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return f'"{y:04d}-{m:02d}-{d:02d}"'


"#;

const RUNNER_READERS: &str = r#"def _parse_int(text: str) -> int:
    """A JSON integer. One too long for any range is kept as a number past every range (Python reads no more than 4300 digits)."""
    if len(text) > 40:
        return -(10 ** 40) if text.startswith("-") else 10 ** 40
    return int(text)


def _no_constant(text: str) -> Any:
    raise ValueError(text + " is not JSON")


def _read_call(line: str) -> dict[str, Any] | None:
    """A vectors line's `in` object (or, for a line without one, the line itself)."""
    try:
        top = json.loads(line, parse_float=decimal.Decimal, parse_int=_parse_int, parse_constant=_no_constant)
    except ValueError:
        return None
    if not isinstance(top, dict):
        return None
    call = top.get("in", top)
    if not isinstance(call, dict):
        return None
    return call


def _number(x: Any) -> Any:
    """A JSON number whose value is whole (1000.0, 1e3, -0.0) is that int, read exactly; any other value is handed on."""
    if isinstance(x, decimal.Decimal) and x == x.to_integral_value():
        if x.adjusted() > 40:
            return -(10 ** 40) if x < 0 else 10 ** 40
        return int(x)
    return x


def _enum(kind: Any, x: Any) -> Any:
    """A value's name as the enum's member; anything else is handed on."""
    if isinstance(x, str):
        for member in kind:
            if member.value == x:
                return member
    return x


def _days(text: str) -> int | None:
    """The day number of exactly "YYYY-MM-DD", when the calendar has that day."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    parts = (text[0:4], text[5:7], text[8:10])
    if not all(c in "0123456789" for part in parts for c in part):
        return None
    y, m, d = int(parts[0]), int(parts[1]), int(parts[2])
    leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0
    days_in = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= m <= 12 or not 1 <= d <= days_in[m - 1]:
        return None
    y = y - 1 if m <= 2 else y
    era = y // 400  # y >= -1: the floor is the era
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _date(x: Any) -> Any:
    """A date on the wire is "YYYY-MM-DD"; the module takes its day number. Anything else is handed on, a number as its text so that it is not taken for a day number."""
    if isinstance(x, str):
        days = _days(x)
        return x if days is None else days
    if isinstance(x, (int, decimal.Decimal)) and not isinstance(x, bool):
        return str(x)
    return x


def _as_read(x: Any) -> Any:
    """A truth value or a string is taken as JSON has it; the module refuses anything else."""
    return x


def _refusal(kind: str, what: str) -> str:
    return '{"refused":"' + kind + '","error":' + json.dumps(what, ensure_ascii=False) + "}"


def _stray(call: dict[str, Any]) -> str | None:
    """The refusal of the first key that is not an input, if there is one."""
    for key in call:
        if key not in _INPUTS:
            return _refusal("input", key + " is not an input")
    return None


"#;

const RUNNER_MAIN: &str = r#"def main() -> None:
    out: list[str] = []
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").strip()
        if line == "":
            continue
        out.append(_call(line) + "\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8"))


if __name__ == "__main__":
    main()
"#;

/// The runner of the helpers' unit vectors: every helper a module may carry, each case
/// `{"op":…,"a":"…","b":"…"}` answered `{"result":"…"}`.
fn helpers_runner() -> String {
    let mut o = String::from(
        "# Code generated by rulec. DO NOT EDIT.\n# The arithmetic helpers of the generated Python, held to the reference (vectors/_helpers.jsonl).\n\nimport json\nimport sys\n\n\n",
    );
    for m in RoundMode::ALL {
        o.push_str(&div_round(m));
    }
    o.push_str(MOD);
    o.push_str(ISQRT);
    o.push_str("def _apply(op: str, a: int, b: int) -> int:\n");
    for m in RoundMode::ALL {
        let _ = writeln!(o, "    if op == \"quot_{}\":\n        return {}(a, b)", m.as_str(), mode_fn(m));
    }
    o.push_str("    if op == \"mod\":\n        return _mod(a, b)\n    if op == \"isqrt\":\n        return _isqrt(a)\n    raise ValueError(\"unknown helper \" + op)\n\n\n");
    o.push_str(
        "def main() -> None:\n    out: list[str] = []\n    for raw in sys.stdin.buffer:\n        line = raw.decode(\"utf-8\").strip()\n        if line == \"\":\n            continue\n\
         \x20       case = json.loads(line)\n        r = _apply(case[\"op\"], int(case[\"a\"]), int(case[\"b\"]))\n        out.append('{\"result\":\"' + str(r) + '\"}\\n')\n\
         \x20   sys.stdout.buffer.write(\"\".join(out).encode(\"utf-8\"))\n\n\nif __name__ == \"__main__\":\n    main()\n",
    );
    o
}
