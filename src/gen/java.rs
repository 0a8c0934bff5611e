//! The Java backend (generated-code.md, Java): one public class per rule with everything
//! nested in it — an enum per enum, `Fired`, `Output`, `Traced`, the two errors — `long` for
//! every number, the entry guard, one branch per row, the `Traced` twin, the `Record`
//! function, and a runner that `javac --release 17` alone compiles.

use super::legacy_plan::{self as plan, Check, Code, Helper, Plan, Step};
use super::names::is_target_keyword;
use super::names::{camel, ident, pascal};
use super::{Backend, File, Lang, Runner, Unit};
use crate::num::RoundMode;
use crate::sema::*;
use crate::syntax::ast::CmpOp;
use std::fmt::Write;

pub struct Java;

/// The command that builds what `rulec gen` writes into the java folder (formats.md `api`).
const BUILD: &str = "javac --release 17 -encoding UTF-8 -d classes *.java";

/// The class of the helpers' runner (in `_helpers_runner.java`, so it is not public).
const HELPERS_CLASS: &str = "RulecHelpersRunner";

impl Backend for Java {
    fn lang(&self) -> Lang {
        Lang::Java
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let class = g.class();
        vec![
            File { path: format!("{class}.java"), text: g.module() },
            File { path: format!("{class}Runner.java"), text: g.runner() },
            File { path: "_helpers_runner.java".into(), text: helpers_runner() },
        ]
    }

    fn runner(&self, alias: &str) -> Runner {
        // The JVM flags only make a short run start faster (C1 alone, one GC thread); the
        // build is the one `rulec api` gives, for the files of this rule.
        let fast = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];
        let javac = |files: Vec<String>| -> Vec<String> {
            let mut cmd = vec!["javac".to_string()];
            cmd.extend(fast.iter().map(|f| format!("-J{f}")));
            cmd.extend(["--release", "17", "-encoding", "UTF-8", "-d", "classes"].iter().map(|s| s.to_string()));
            cmd.extend(files);
            cmd
        };
        let java = |class: String| -> Vec<String> {
            let mut cmd = vec!["java".to_string()];
            cmd.extend(fast.iter().map(|f| f.to_string()));
            cmd.extend(["-cp".to_string(), "classes".to_string(), class]);
            cmd
        };
        if alias == "_helpers" {
            return Runner {
                needs: vec!["javac", "java"],
                build: vec![javac(vec!["_helpers_runner.java".into()])],
                run: java(HELPERS_CLASS.into()),
            };
        }
        let class = class_name(alias);
        Runner {
            needs: vec!["javac", "java"],
            build: vec![javac(vec![format!("{class}.java"), format!("{class}Runner.java")])],
            run: java(format!("{class}Runner")),
        }
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        let plan = plan::build(u.program, u.analysis, &u.text);
        let g = Gen { u, p: u.program, plan: &plan };
        let p = u.program;
        let f = g.fn_name();
        let (params, ret) = (g.params(), g.returns());
        serde_json::json!({
            "module": format!("{}.java", g.class()),
            "class": g.class(),
            "function": f,
            "signature": format!("public static {ret} {f}({params})"),
            "traced": format!("{f}Traced"),
            "traced_signature": format!("public static Traced {f}Traced({params})"),
            "record": format!("{f}Record"),
            "record_signature": format!("public static String {f}Record({params}, {ret} out, List<Fired> trace, String tag)"),
            "build": BUILD,
            "params": p.inputs.iter().map(|&v| super::api_param(u, v, &g.ty(v))).collect::<Vec<_>>(),
            "returns": ret,
            "outputs": p.outputs.iter().map(|&v| super::api_output(u, v, &g.ty(v))).collect::<Vec<_>>(),
            "enums": super::api_enums(u, &|e| g.enum_name(e), &|e, i| g.member(e, i)),
            "errors": ["RuleInputError", "RuleContradictionError"],
        })
    }
}

/// The class a rule's alias names: `single_coupon` → `SingleCoupon`.
fn class_name(alias: &str) -> String {
    pascal(alias)
}

/// A Java string literal. Every backslash is doubled, so no `\u` in the text can start a
/// Unicode escape (javac reads those before anything else); control characters are escapes.
fn lit(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{8}' => o.push_str("\\b"),
            '\u{c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\{:03o}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Text quoted in a `//` comment. javac turns `\uXXXX` into its character before it reads
/// a comment (a `\u000a` would end it, a `\users` would not compile), so a backslash that
/// could start one gets a second backslash in front; line breaks become spaces.
fn comment(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    let mut run = 0usize;
    for c in s.chars() {
        match c {
            '\\' => {
                run += 1;
                o.push(c);
            }
            'u' if run % 2 == 1 => {
                o.push_str("\\u");
                run = 0;
            }
            '\n' | '\r' => {
                o.push(' ');
                run = 0;
            }
            c => {
                o.push(c);
                run = 0;
            }
        }
    }
    o
}

fn mode_fn(m: RoundMode) -> String {
    format!("divRound{}", pascal(m.as_str()))
}

fn mode_words(m: RoundMode) -> &'static str {
    match m {
        RoundMode::Up => "away from zero",
        RoundMode::Down => "toward zero",
        RoundMode::Ceiling => "toward +infinity",
        RoundMode::Floor => "toward -infinity",
        RoundMode::HalfUp => "to the nearest, ties away from zero",
        RoundMode::HalfDown => "to the nearest, ties toward zero",
        RoundMode::HalfEven => "to the nearest, ties to even",
    }
}

/// What kind of value a code node is, for the operators that depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Num,
    Bool,
    Str,
    Enum,
    Unknown,
}

struct Gen<'a> {
    u: &'a Unit<'a>,
    p: &'a Program,
    plan: &'a Plan,
}

impl Gen<'_> {
    fn class(&self) -> String {
        class_name(self.p.ident())
    }

    fn name(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        ident(&var.name, var.alias.as_deref())
    }

    fn fn_name(&self) -> String {
        let c = camel(&ident(&self.p.name, self.p.alias.as_deref()));
        if is_target_keyword(&c) {
            format!("{c}_")
        } else {
            c
        }
    }

    fn enum_name(&self, e: EnumId) -> String {
        pascal(&ident(&self.p.enums[e].name, self.p.enums[e].alias.as_deref()))
    }

    /// A member's constant: the value's alias (or name) in upper case.
    fn constant(&self, e: EnumId, i: u32) -> String {
        let v = &self.p.enums[e].values[i as usize];
        v.alias.as_deref().unwrap_or(&v.name).to_uppercase()
    }

    fn member(&self, e: EnumId, i: u32) -> String {
        format!("{}.{}", self.enum_name(e), self.constant(e, i))
    }

    /// The Java type of a variable: `long` for every number and day, boxed when optional.
    fn ty(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        match (&var.ty, var.optional) {
            (Ty::Bool, false) => "boolean".into(),
            (Ty::Bool, true) => "Boolean".into(),
            (Ty::Str, _) => "String".into(),
            (Ty::Enum(e), _) => self.enum_name(*e),
            (_, false) => "long".into(),
            (_, true) => "Long".into(),
        }
    }

    /// What a parameter or an output holds, for its javadoc line.
    fn about(&self, v: VarId) -> String {
        let var = &self.p.vars[v];
        let mut s = match &var.ty {
            Ty::Date => "a date, as its day number (days since 1970-01-01)".to_string(),
            Ty::Enum(e) => format!("a value of enum {}", self.p.enums[*e].name),
            Ty::Int | Ty::Number => "an integer".to_string(),
            Ty::Bool => "a truth value".to_string(),
            Ty::Str => "a string".to_string(),
            ty => format!("{}, as a whole number of its unit", ty_name(ty, &self.p.enums)),
        };
        if let Some(r) = &var.range_text {
            let _ = write!(s, "; {r}");
        }
        if var.optional {
            s.push_str("; null when it has no value");
        }
        comment(&s)
    }

    fn params(&self) -> String {
        self.p.inputs.iter().map(|&v| format!("{} {}", self.ty(v), self.name(v))).collect::<Vec<_>>().join(", ")
    }

    fn args(&self) -> String {
        self.p.inputs.iter().map(|&v| self.name(v)).collect::<Vec<_>>().join(", ")
    }

    fn returns(&self) -> String {
        match self.p.outputs.as_slice() {
            [one] => self.ty(*one),
            _ => "Output".into(),
        }
    }

    fn module(&self) -> String {
        let mut o = self.u.header("//");
        if let Some(about) = &self.p.about {
            let _ = writeln!(o, "//\n// {}", comment(about));
        }
        let _ = writeln!(o, "//\n// Build: {BUILD}\n");
        o.push_str("import java.util.ArrayList;\nimport java.util.List;\n\n");
        let class = self.class();
        let f = self.fn_name();
        let _ = writeln!(
            o,
            "/**\n * Rule {} v{}. {{@code {f}}} decides; {{@code {f}Traced}} also returns the rows that\n * matched, and {{@code {f}Record}} writes one call as a fixtures record. Every number is a\n * long: an integer in the unit its parameter names.\n */",
            comment(&self.p.name),
            self.p.version,
        );
        let _ = writeln!(o, "public final class {class} {{\n    private {class}() {{\n    }}\n");
        self.types(&mut o);
        self.functions(&mut o);
        self.record(&mut o);
        self.helpers(&mut o);
        let end = o.trim_end().len();
        o.truncate(end);
        o.push_str("\n}\n");
        o
    }

    fn types(&self, o: &mut String) {
        for (e, en) in self.p.enums.iter().enumerate() {
            let name = self.enum_name(e);
            let _ = writeln!(
                o,
                "    /** enum {}{}. */",
                comment(&en.name),
                if en.ordered { " (ordered: a value compares by its place)" } else { "" }
            );
            let _ = writeln!(o, "    public enum {name} {{");
            for (i, v) in en.values.iter().enumerate() {
                let sep = if i + 1 == en.values.len() { ";" } else { "," };
                let _ = writeln!(o, "        {}({}){sep}", self.constant(e, i as u32), lit(&v.name));
            }
            let _ = writeln!(
                o,
                "\n        private final String wire;\n\n        {name}(String wire) {{\n            this.wire = wire;\n        }}\n"
            );
            let _ = writeln!(
                o,
                "        /** The value's name, as the wire and the records write it. */\n        public String value() {{\n            return wire;\n        }}\n"
            );
            let _ = writeln!(
                o,
                "        /** The value named {{@code s}} on the wire, or null when the enum has none of that name. */\n        public static {name} from(String s) {{\n            for ({name} x : values()) {{\n                if (x.wire.equals(s)) {{\n                    return x;\n                }}\n            }}\n            return null;\n        }}\n    }}\n"
            );
        }
        o.push_str(ERRORS);
        if self.p.outputs.len() > 1 {
            o.push_str("    /** What the rule decides, in the order the outputs are declared. */\n");
            let fields = self
                .p
                .outputs
                .iter()
                .map(|&v| format!("{} {}", self.ty(v), self.name(v)))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(o, "    public record Output({fields}) {{\n    }}\n");
        }
        let _ = writeln!(
            o,
            "    /** A call's answer with the rows that matched: one per table, in evaluation order. */\n    public record Traced({} value, List<Fired> trace) {{\n    }}\n",
            self.returns()
        );
    }

    fn functions(&self, o: &mut String) {
        let f = self.fn_name();
        let (params, args, ret) = (self.params(), self.args(), self.returns());
        let outs = self.p.outputs.iter().map(|&v| self.p.vars[v].name.as_str()).collect::<Vec<_>>().join(", ");
        let ins = self.p.inputs.iter().map(|&v| self.p.vars[v].name.as_str()).collect::<Vec<_>>().join(", ");
        let _ = writeln!(o, "    /**\n     * Decides {} from {}.\n     *", comment(&outs), comment(&ins));
        for &v in &self.p.inputs {
            let _ = writeln!(o, "     * @param {} {}", self.name(v), self.about(v));
        }
        match self.p.outputs.as_slice() {
            [one] => {
                let _ = writeln!(o, "     * @return {}: {}", comment(&self.p.vars[*one].name), self.about(*one));
            }
            _ => {
                let _ = writeln!(o, "     * @return the outputs, as an {{@link Output}}");
            }
        }
        let _ = writeln!(
            o,
            "     * @throws RuleInputError when the call is outside the declared domain (fix the call site)\n     * @throws RuleContradictionError when two rows the checker could not prove apart both matched (fix the rule)\n     */"
        );
        let _ = writeln!(
            o,
            "    public static {ret} {f}({params}) {{\n        return {f}Traced({args}).value();\n    }}\n"
        );
        let _ =
            writeln!(o, "    /** The same call, with the rows that matched: one per table, in evaluation order. */");
        let _ = writeln!(o, "    public static Traced {f}Traced({params}) {{");
        self.entry_guard(o);
        let tables = self.plan.steps.iter().filter(|s| matches!(s, Step::Table { .. })).count();
        let _ = writeln!(o, "        List<Fired> trace = new ArrayList<>({tables});");
        for step in &self.plan.steps {
            match step {
                Step::Define { var, value } => {
                    let _ = writeln!(o, "        // define {}", comment(&self.p.vars[*var].name));
                    let _ =
                        writeln!(o, "        {} {} = {};", self.ty(*var), self.name(*var), self.assigned(*var, value));
                }
                Step::Table { table, rows, guards } => self.table(o, *table, rows, guards),
            }
        }
        let out = match self.p.outputs.as_slice() {
            [one] => self.name(*one),
            outs => format!("new Output({})", outs.iter().map(|&v| self.name(v)).collect::<Vec<_>>().join(", ")),
        };
        let _ = writeln!(o, "        return new Traced({out}, trace);\n    }}\n");
    }

    fn entry_guard(&self, o: &mut String) {
        o.push_str("        // The entry guard: what the proofs assumed of every call.\n");
        for &v in &self.p.inputs {
            let n = self.name(v);
            let var = &self.p.vars[v];
            let reference = matches!(var.ty, Ty::Str | Ty::Enum(_));
            if reference && !var.optional {
                let _ = writeln!(
                    o,
                    "        if ({n} == null) {{\n            throw new RuleInputError({}, null);\n        }}",
                    lit(&format!("{} is missing", var.name))
                );
            }
            let Some(g) = self.plan.guards.iter().find(|g| g.var == v) else { continue };
            let (test, value) = match &g.check {
                Check::Range { lo, hi } => (format!("!({} <= {n} && {n} <= {})", long(*lo), long(*hi)), n.clone()),
                Check::EnumRange { lo, hi } => {
                    let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
                    (
                        format!(
                            "{n}.compareTo({}) < 0 || {n}.compareTo({}) > 0",
                            self.member(e, *lo),
                            self.member(e, *hi)
                        ),
                        "null".to_string(),
                    )
                }
            };
            let test = if var.optional { format!("{n} != null && ({test})") } else { test };
            let _ = writeln!(
                o,
                "        if ({test}) {{\n            throw new RuleInputError({}, {value});\n        }}",
                lit(&g.sentence)
            );
        }
        for (c, sentence) in &self.plan.constraints {
            let _ = writeln!(
                o,
                "        if (!{}) {{\n            throw new RuleInputError({}, null);\n        }}",
                paren(self.constraint(c)),
                lit(sentence)
            );
        }
    }

    /// A constraint holds when an optional it reads has no value.
    fn constraint(&self, c: &Code) -> String {
        let optionals = c.optionals_read(self.p);
        let body = self.expr(c, &optionals);
        if optionals.is_empty() {
            return body;
        }
        let absent: Vec<String> = optionals.iter().map(|&v| format!("{} == null", self.name(v))).collect();
        format!("({} || {body})", absent.join(" || "))
    }

    fn table(&self, o: &mut String, t: usize, rows: &[plan::Row], guards: &[(usize, usize, String)]) {
        let table = &self.p.tables[t];
        let _ = writeln!(o, "        // table {} (policy {})", comment(&table.name), table.policy.as_str());
        for (a, b, sentence) in guards {
            let _ = writeln!(
                o,
                "        // guard: W114 (table {}, row {a} × row {b}): a pair of rows whose exclusivity could not be proven statically",
                comment(&table.name)
            );
            let _ = writeln!(
                o,
                "        if ({} && {}) {{\n            throw new RuleContradictionError({});\n        }}",
                self.expr(&rows[a - 1].cond, &[]),
                self.expr(&rows[b - 1].cond, &[]),
                lit(sentence)
            );
        }
        for &r in &table.results {
            let _ = writeln!(o, "        {} {};", self.ty(r), self.name(r));
        }
        for (i, row) in rows.iter().enumerate() {
            let kw = if i == 0 { "        if" } else { " else if" };
            let _ = writeln!(o, "{kw} {} {{", cond(self.expr(&row.cond, &[])));
            let _ = writeln!(o, "            // row {}: {}", row.n, comment(&row.cells));
            for (v, value) in &row.assigns {
                let _ = writeln!(o, "            {} = {};", self.name(*v), self.assigned(*v, value));
            }
            let _ = write!(o, "            trace.add(new Fired({}, {}));\n        }}", lit(&table.name), row.n);
        }
        let _ = writeln!(
            o,
            " else {{\n            throw new RuleContradictionError({});\n        }}",
            lit(&format!("table {}: no row matched", table.name))
        );
    }

    /// A value stored into a variable: an optional one takes null for the absent value.
    fn assigned(&self, v: VarId, value: &Code) -> String {
        if self.p.vars[v].optional {
            match value {
                Code::Absent => "null".into(),
                Code::Var(x) if self.p.vars[*x].optional => self.name(*x),
                other => self.expr(other, &[]),
            }
        } else {
            self.expr(value, &[])
        }
    }

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
            Code::Enum(..) => Kind::Enum,
            Code::Absent => Kind::Unknown,
            Code::Var(v) => match self.p.vars[*v].ty {
                Ty::Bool => Kind::Bool,
                Ty::Str => Kind::Str,
                Ty::Enum(_) => Kind::Enum,
                _ => Kind::Num,
            },
            Code::If(_, a, b) => match self.kind(a) {
                Kind::Unknown => self.kind(b),
                k => k,
            },
            Code::Min(xs) | Code::Max(xs) => {
                xs.iter().map(|x| self.kind(x)).find(|k| *k != Kind::Unknown).unwrap_or(Kind::Unknown)
            }
        }
    }

    /// One expression. `held` are the optional variables known to hold a value here
    /// (inside `Present`, or a constraint past its absent test): they read as that value.
    fn expr(&self, c: &Code, held: &[VarId]) -> String {
        let e = |x: &Code| self.expr(x, held);
        let bin = |op: &str, a: &Code, b: &Code| format!("({} {op} {})", e(a), e(b));
        match c {
            Code::Int(n) => long(*n),
            Code::Bool(b) => b.to_string(),
            Code::Str(s) => lit(s),
            Code::Enum(en, i) => self.member(*en, *i),
            Code::Absent => "null".into(),
            Code::Var(v) => {
                let n = self.name(*v);
                if self.p.vars[*v].optional && held.contains(v) {
                    match self.p.vars[*v].ty {
                        Ty::Bool => format!("{n}.booleanValue()"),
                        Ty::Str | Ty::Enum(_) => n,
                        _ => format!("{n}.longValue()"),
                    }
                } else {
                    n
                }
            }
            Code::Neg(x) => format!("-{}", paren(e(x))),
            Code::Add(a, b) => bin("+", a, b),
            Code::Sub(a, b) => bin("-", a, b),
            Code::Mul(a, b) => bin("*", a, b),
            Code::DivExact(a, q) => format!("({} / {})", e(a), long(*q)),
            Code::DivRound(n, d, m) => format!("{}({}, {})", mode_fn(*m), e(n), e(d)),
            Code::Min(xs) | Code::Max(xs) => {
                let is_min = matches!(c, Code::Min(_));
                let f = match (self.kind(c), is_min) {
                    (Kind::Enum, true) => "least",
                    (Kind::Enum, false) => "greatest",
                    (_, true) => "Math.min",
                    (_, false) => "Math.max",
                };
                let mut s = e(&xs[0]);
                for x in &xs[1..] {
                    s = format!("{f}({s}, {})", e(x));
                }
                s
            }
            Code::Mod(a, b) => format!("modFloor({}, {})", e(a), e(b)),
            Code::Isqrt(x) => format!("isqrtLong({})", e(x)),
            Code::If(c, a, b) => format!("({} ? {} : {})", e(c), e(a), e(b)),
            Code::Cmp(op, a, b) => {
                let kind = match self.kind(a) {
                    Kind::Unknown => self.kind(b),
                    k => k,
                };
                match (kind, op) {
                    (Kind::Str, CmpOp::Eq) => format!("{}.equals({})", e(a), e(b)),
                    (Kind::Str, CmpOp::Ne) => format!("!{}.equals({})", e(a), e(b)),
                    (Kind::Enum, CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge) => {
                        format!("({}.compareTo({}) {} 0)", e(a), e(b), op.as_str())
                    }
                    (_, CmpOp::Eq) => bin("==", a, b),
                    (_, op) => bin(op.as_str(), a, b),
                }
            }
            Code::And(a, b) => bin("&&", a, b),
            Code::Or(a, b) => bin("||", a, b),
            Code::Not(x) => format!("!{}", paren(e(x))),
            Code::OneOf(x, vals) => {
                let x_s = e(x);
                let alts: Vec<String> = vals
                    .iter()
                    .map(|v| {
                        if self.kind(x) == Kind::Str {
                            format!("{x_s}.equals({})", e(v))
                        } else {
                            format!("{x_s} == {}", e(v))
                        }
                    })
                    .collect();
                if alts.is_empty() {
                    "false".into()
                } else {
                    format!("({})", alts.join(" || "))
                }
            }
            Code::IsNone(v) => format!("({} == null)", self.name(*v)),
            Code::Present(v, t) => {
                let mut inner = held.to_vec();
                inner.push(*v);
                format!("({} != null && {})", self.name(*v), self.expr(t, &inner))
            }
        }
    }

    fn record(&self, o: &mut String) {
        let f = self.fn_name();
        let params = self.params();
        let ret = self.returns();
        let _ = writeln!(
            o,
            "    /**\n     * One call as a fixtures record (formats.md): the line {{@code rulec replay}} reads. An empty\n     * tag is left out.\n     */"
        );
        let _ =
            writeln!(o, "    public static String {f}Record({params}, {ret} out, List<Fired> trace, String tag) {{");
        o.push_str("        StringBuilder s = new StringBuilder(256);\n        s.append('{');\n");
        o.push_str("        if (!tag.isEmpty()) {\n            s.append(\"\\\"tag\\\":\");\n            appendJson(s, tag);\n            s.append(',');\n        }\n");
        let key = |name: &str| lit(&format!("{}:", serde_json::to_string(name).expect("a name serializes")));
        o.push_str("        s.append(\"\\\"in\\\":{\");\n");
        for (i, &v) in self.p.inputs.iter().enumerate() {
            if i > 0 {
                o.push_str("        s.append(',');\n");
            }
            let _ = writeln!(o, "        s.append({});", key(&self.p.vars[v].name));
            self.append_value(o, v, &self.name(v));
        }
        o.push_str("        s.append(\"},\\\"observed\\\":{\");\n");
        for (i, &v) in self.p.outputs.iter().enumerate() {
            if i > 0 {
                o.push_str("        s.append(',');\n");
            }
            let _ = writeln!(o, "        s.append({});", key(&self.p.vars[v].name));
            let field = if self.p.outputs.len() == 1 { "out".to_string() } else { format!("out.{}()", self.name(v)) };
            self.append_value(o, v, &field);
        }
        o.push_str("        s.append(\"},\\\"trace\\\":[\");\n        appendTrace(s, trace);\n        s.append(\"]}\");\n        return s.toString();\n    }\n\n");
    }

    /// Append a variable's wire form; `x` reads the variable.
    fn append_value(&self, o: &mut String, v: VarId, x: &str) {
        let var = &self.p.vars[v];
        let one = |x: &str| -> String {
            match &var.ty {
                Ty::Str => format!("appendJson(s, {x});"),
                Ty::Enum(_) => format!("appendJson(s, {x}.value());"),
                Ty::Date => format!("appendDate(s, {x});"),
                _ => format!("s.append({x});"),
            }
        };
        if var.optional {
            let _ = writeln!(
                o,
                "        if ({x} == null) {{\n            s.append(\"null\");\n        }} else {{\n            {}\n        }}",
                one(x)
            );
        } else {
            let _ = writeln!(o, "        {}", one(x));
        }
    }

    /// The private helpers this module calls, and only those.
    fn helpers(&self, o: &mut String) {
        o.push_str(APPEND_JSON);
        o.push_str(APPEND_TRACE);
        if self.plan.uses_dates {
            o.push_str(APPEND_DATE);
        }
        for h in &self.plan.helpers {
            match h {
                Helper::DivRound(m) => o.push_str(&div_round(*m, "    ")),
                Helper::Mod => o.push_str(&indent(MOD_FLOOR, "    ")),
                Helper::Isqrt => o.push_str(&indent(ISQRT, "    ")),
            }
        }
        let (mut least, mut greatest) = (false, false);
        for c in plan_codes(self.plan) {
            self.visit(c, &mut |x| match x {
                Code::Min(_) if self.kind(x) == Kind::Enum => least = true,
                Code::Max(_) if self.kind(x) == Kind::Enum => greatest = true,
                _ => {}
            });
        }
        if least {
            o.push_str(LEAST);
        }
        if greatest {
            o.push_str(GREATEST);
        }
    }

    fn visit(&self, c: &Code, f: &mut dyn FnMut(&Code)) {
        f(c);
        match c {
            Code::Neg(x) | Code::Not(x) | Code::Isqrt(x) | Code::DivExact(x, _) | Code::Present(_, x) => {
                self.visit(x, f)
            }
            Code::Add(a, b)
            | Code::Sub(a, b)
            | Code::Mul(a, b)
            | Code::DivRound(a, b, _)
            | Code::Mod(a, b)
            | Code::Cmp(_, a, b)
            | Code::And(a, b)
            | Code::Or(a, b) => {
                self.visit(a, f);
                self.visit(b, f);
            }
            Code::If(a, b, c) => {
                self.visit(a, f);
                self.visit(b, f);
                self.visit(c, f);
            }
            Code::Min(xs) | Code::Max(xs) => xs.iter().for_each(|x| self.visit(x, f)),
            Code::OneOf(x, vs) => {
                self.visit(x, f);
                vs.iter().for_each(|v| self.visit(v, f));
            }
            Code::Int(_)
            | Code::Bool(_)
            | Code::Str(_)
            | Code::Enum(..)
            | Code::Absent
            | Code::Var(_)
            | Code::IsNone(_) => {}
        }
    }

    fn runner(&self) -> String {
        let class = self.class();
        let runner = format!("{class}Runner");
        let f = self.fn_name();
        let mut o = self.u.header("//");
        let _ = writeln!(
            o,
            "//\n// The runner `rulec test` drives: one vectors line in, one record (or refusal) out.\n// Build: javac --release 17 -encoding UTF-8 -d classes {class}.java {runner}.java\n// Run:   java -cp classes {runner} < vectors.jsonl\n"
        );
        o.push_str(RUNNER_IMPORTS);
        let _ = writeln!(o, "public final class {runner} {{\n    private {runner}() {{\n    }}\n");
        o.push_str(&RUNNER_MAIN.replace("@RUNNER@", &runner).replace("@CLASS@", &class));
        // The call: every local is an input's name, so the runner's own state is read through
        // its class (a local of the same name cannot hide it).
        let _ = writeln!(o, "    /** Read the inputs the way the door holds them, call the rule, write the record. */");
        let _ = writeln!(o, "    private static String call() throws Refused {{");
        for &v in &self.p.inputs {
            self.read_input(&mut o, v);
        }
        let args = self.args();
        let _ = writeln!(o, "        {runner}.traced = {class}.{f}Traced({args});");
        let _ = writeln!(o, "        {runner}.keys();");
        let _ = writeln!(
            o,
            "        return {class}.{f}Record({args}, {runner}.traced.value(), {runner}.traced.trace(), \"\");\n    }}\n"
        );
        let known = self.p.inputs.iter().map(|&v| lit(&self.p.vars[v].name)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            o,
            "    /** The inputs' names: any other key is refused. */\n    private static final String[] INPUTS = {{{known}}};\n"
        );
        let _ =
            writeln!(o, "    /** The answer of the line being read. */\n    private static {class}.Traced traced;\n");
        o.push_str(RUNNER_READERS);
        o.push_str(RUNNER_JSON);
        o.push_str("}\n");
        o
    }

    /// Read one input the way the door holds it: missing, kind, enum membership, range.
    fn read_input(&self, o: &mut String, v: VarId) {
        let var = &self.p.vars[v];
        let n = self.name(v);
        let key = lit(&var.name);
        let opt = var.optional;
        let range = self.plan.guards.iter().find(|g| g.var == v).map(|g| &g.check);
        let (lo, hi) = match range {
            Some(Check::Range { lo, hi }) => (long(*lo), long(*hi)),
            _ => ("Long.MIN_VALUE".to_string(), "Long.MAX_VALUE".to_string()),
        };
        let ty = self.ty(v);
        let read = match &var.ty {
            Ty::Bool => format!("bool({key}, {opt})"),
            Ty::Str => format!("str({key}, {opt})"),
            Ty::Date => format!("date({key}, {opt}, {lo}, {hi})"),
            Ty::Enum(e) => {
                let en = self.enum_name(*e);
                format!(
                    "member({key}, {opt}, {}, {}.{en}::from)",
                    lit(&format!("is not a value of enum {}", self.p.enums[*e].name)),
                    self.class()
                )
            }
            _ => format!("num({key}, {opt}, {lo}, {hi})"),
        };
        let ty = if matches!(var.ty, Ty::Enum(_)) { format!("{}.{ty}", self.class()) } else { ty };
        let _ = writeln!(o, "        {ty} {n} = {read};");
        if let Some(Check::EnumRange { lo, hi }) = range {
            let Ty::Enum(e) = var.ty else { unreachable!("an enum range on an enum") };
            let test = format!(
                "{n}.compareTo({c}.{}) < 0 || {n}.compareTo({c}.{}) > 0",
                self.member(e, *lo),
                self.member(e, *hi),
                c = self.class()
            );
            let test = if opt { format!("{n} != null && ({test})") } else { test };
            let _ = writeln!(
                o,
                "        if ({test}) {{\n            throw new Refused({});\n        }}",
                lit(&format!("{} is out of range", var.name))
            );
        }
    }
}

/// A long literal.
fn long(n: i64) -> String {
    format!("{n}L")
}

/// Parenthesize unless the text is one name or already one parenthesized whole.
fn paren(s: String) -> String {
    if wrapped(&s) || (!s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')) {
        s
    } else {
        format!("({s})")
    }
}

/// An `if` condition: in parentheses, once.
fn cond(s: String) -> String {
    if wrapped(&s) {
        s
    } else {
        format!("({s})")
    }
}

/// Whether the first `(` of the text closes at its last character (string and character
/// literals skipped).
fn wrapped(s: &str) -> bool {
    if !s.starts_with('(') || !s.ends_with(')') {
        return false;
    }
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == s.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("{by}{l}\n") }).collect()
}

/// Every code node of the plan, for the helpers a module needs.
fn plan_codes(plan: &Plan) -> Vec<&Code> {
    let mut out: Vec<&Code> = plan.constraints.iter().map(|(c, _)| c).collect();
    for step in &plan.steps {
        match step {
            Step::Define { value, .. } => out.push(value),
            Step::Table { rows, .. } => {
                for r in rows {
                    out.push(&r.cond);
                    out.extend(r.assigns.iter().map(|(_, c)| c));
                }
            }
        }
    }
    out
}

/// `n / d` rounded by one mode, exact for every pair of longs: the floor quotient and the
/// remainder of the same sign as `d` (Math.floorDiv, Math.floorMod) say where `n / d` lies
/// between two whole numbers, and `r` against `d - r` (which cannot overflow) says which half.
fn div_round(m: RoundMode, by: &str) -> String {
    let half = "int half = d > 0 ? Long.compare(r, d - r) : Long.compare(d - r, r);\n";
    let step = |adjust: &str, uses_half: bool| {
        format!(
            "long q = Math.floorDiv(n, d);\nlong r = Math.floorMod(n, d);\n{}return {adjust} ? q + 1 : q;\n",
            if uses_half { half } else { "" }
        )
    };
    let body = match m {
        RoundMode::Floor => "return Math.floorDiv(n, d);\n".to_string(),
        RoundMode::Ceiling => step("r != 0", false),
        RoundMode::Down => step("r != 0 && q < 0", false),
        RoundMode::Up => step("r != 0 && q >= 0", false),
        RoundMode::HalfUp => step("half > 0 || (half == 0 && q >= 0)", true),
        RoundMode::HalfDown => step("half > 0 || (half == 0 && q < 0)", true),
        RoundMode::HalfEven => step("half > 0 || (half == 0 && (q & 1L) != 0)", true),
    };
    let text = format!(
        "/** n / d rounded {} (d != 0: the proof, E132, rules out a zero divisor). */\nprivate static long {}(long n, long d) {{\n{}}}\n\n",
        mode_words(m),
        mode_fn(m),
        indent(&body, "    ")
    );
    indent(&text, by)
}

const MOD_FLOOR: &str = "/** The remainder from zero up: 0 <= r < |b| (Math.floorMod takes the sign of b; b != 0). */\nprivate static long modFloor(long a, long b) {\n    long r = Math.floorMod(a, b);\n    return r < 0 ? r - b : r;\n}\n\n";

const ISQRT: &str = "/** The largest r with r * r <= x (x >= 0), by a binary search over whole numbers. */\nprivate static long isqrtLong(long x) {\n    long lo = 0L;\n    long hi = Math.min(3037000499L, Math.max(x, 0L));\n    while (lo < hi) {\n        long mid = lo + (hi - lo + 1) / 2;\n        if (mid * mid <= x) {\n            lo = mid;\n        } else {\n            hi = mid - 1;\n        }\n    }\n    return lo;\n}\n\n";

const LEAST: &str = "    /** The earlier of two values of an ordered enum. */\n    private static <E extends Enum<E>> E least(E a, E b) {\n        return a.compareTo(b) <= 0 ? a : b;\n    }\n\n";

const GREATEST: &str = "    /** The later of two values of an ordered enum. */\n    private static <E extends Enum<E>> E greatest(E a, E b) {\n        return a.compareTo(b) >= 0 ? a : b;\n    }\n\n";

const ERRORS: &str = r#"    /** The caller broke the contract: fix the call site. */
    public static final class RuleInputError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String what;
        private final Long value;

        public RuleInputError(String what, Long value) {
            super(what);
            this.what = what;
            this.value = value;
        }

        /** The sentence, the same in every language: {@code weight is out of range}. */
        public String what() {
            return what;
        }

        /** The number that was refused, or null when the refusal is not about one. */
        public Long value() {
            return value;
        }

        @Override
        public String getMessage() {
            return value == null ? what : what + ": " + value;
        }
    }

    /** Two rows the checker could not prove apart both matched: fix the rule, not the call. */
    public static final class RuleContradictionError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String what;

        public RuleContradictionError(String what) {
            super(what);
            this.what = what;
        }

        /** The sentence: {@code table decide: row 1 and row 2 matched at the same time}. */
        public String what() {
            return what;
        }
    }

    /** A row that fired: the table's name and the row's number as written (from 1). */
    public record Fired(String table, int row) {
    }

"#;

const APPEND_JSON: &str = r#"    /** Append a JSON string: quote and backslash escaped, control characters as escapes, the rest as it is. */
    private static void appendJson(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                case '\b' -> s.append("\\b");
                case '\f' -> s.append("\\f");
                default -> {
                    if (c < 0x20) {
                        s.append("\\u00").append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }

    private static final String HEX = "0123456789abcdef";

"#;

const APPEND_TRACE: &str = r#"    /** Append the rows that matched as the records write them. */
    private static void appendTrace(StringBuilder s, List<Fired> trace) {
        for (int i = 0; i < trace.size(); i++) {
            if (i > 0) {
                s.append(',');
            }
            s.append("{\"table\":");
            appendJson(s, trace.get(i).table());
            s.append(",\"row\":").append(trace.get(i).row()).append('}');
        }
    }

"#;

const APPEND_DATE: &str = r#"    /** Append a day number as "YYYY-MM-DD" (proleptic Gregorian). */
    private static void appendDate(StringBuilder s, long days) {
        long z = days + 719468L;
        long era = Math.floorDiv(z, 146097L);
        long doe = z - era * 146097L;
        long yoe = (doe - doe / 1460L + doe / 36524L - doe / 146096L) / 365L;
        long doy = doe - (365L * yoe + yoe / 4L - yoe / 100L);
        long mp = (5L * doy + 2L) / 153L;
        long d = doy - (153L * mp + 2L) / 5L + 1L;
        long m = mp < 10L ? mp + 3L : mp - 9L;
        long y = yoe + era * 400L + (m <= 2L ? 1L : 0L);
        s.append('"').append(String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", y, m, d)).append('"');
    }

"#;

const RUNNER_IMPORTS: &str = "import java.io.BufferedReader;\nimport java.io.BufferedWriter;\nimport java.io.IOException;\nimport java.io.InputStreamReader;\nimport java.io.OutputStreamWriter;\nimport java.io.Writer;\nimport java.nio.charset.StandardCharsets;\nimport java.util.ArrayList;\nimport java.util.List;\nimport java.util.function.Function;\n\n";

const RUNNER_MAIN: &str = r#"    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            out.write(answer(line));
            out.write('\n');
        }
        out.flush();
    }

    /** The line printed for one vectors line: the record, or the refusal in its place. */
    private static String answer(String line) {
        current = Json.parseCall(line);
        if (current == null) {
            return refusal("input", "the input is not an object");
        }
        try {
            return call();
        } catch (Refused e) {
            return refusal("input", e.what);
        } catch (@CLASS@.RuleInputError e) {
            return refusal("input", e.what());
        } catch (@CLASS@.RuleContradictionError e) {
            // The door refuses a key that is not an input before the rule is worked out.
            try {
                keys();
            } catch (Refused k) {
                return refusal("input", k.what);
            }
            return refusal("contradiction", e.what());
        }
    }

    private static String refusal(String kind, String what) {
        StringBuilder s = new StringBuilder("{\"refused\":\"");
        s.append(kind).append("\",\"error\":");
        Json.appendString(s, what);
        return s.append('}').toString();
    }

    /** A refusal at the door, with its sentence. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final String what;

        Refused(String what) {
            super(what, null, false, false);
            this.what = what;
        }
    }

    /** The in object of the line being read. */
    private static List<Json.Member> current;

    /** Refuse the first key that is not an input. */
    private static void keys() throws Refused {
        for (Json.Member m : current) {
            boolean known = false;
            for (String name : INPUTS) {
                known |= name.equals(m.key);
            }
            if (!known) {
                throw new Refused(m.key + " is not an input");
            }
        }
    }

"#;

const RUNNER_READERS: &str = r#"    /** The value at a key, or null when it is absent or null (missing, unless optional). */
    private static Json.Value present(String key, boolean optional) throws Refused {
        Json.Value v = Json.get(current, key);
        if (v == null || v.kind == Json.Kind.NULL) {
            if (optional) {
                return null;
            }
            throw new Refused(key + " is missing");
        }
        return v;
    }

    private static Long num(String key, boolean optional, long lo, long hi) throws Refused {
        Json.Value v = present(key, optional);
        if (v == null) {
            return null;
        }
        if (v.kind != Json.Kind.NUM) {
            throw new Refused(key + " is not an integer");
        }
        Long n = Json.whole(v.text);
        if (n == null) {
            throw new Refused(key + (Json.wholeButTooBig(v.text) ? " is out of range" : " is not an integer"));
        }
        if (n < lo || n > hi) {
            throw new Refused(key + " is out of range");
        }
        return n;
    }

    private static Long date(String key, boolean optional, long lo, long hi) throws Refused {
        Json.Value v = present(key, optional);
        if (v == null) {
            return null;
        }
        Long d = v.kind == Json.Kind.STR ? Json.date(v.text) : null;
        if (d == null) {
            throw new Refused(key + " is not a date");
        }
        if (d < lo || d > hi) {
            throw new Refused(key + " is out of range");
        }
        return d;
    }

    private static Boolean bool(String key, boolean optional) throws Refused {
        Json.Value v = present(key, optional);
        if (v == null) {
            return null;
        }
        if (v.kind != Json.Kind.BOOL) {
            throw new Refused(key + " is not a boolean");
        }
        return v.text.equals("true");
    }

    private static String str(String key, boolean optional) throws Refused {
        Json.Value v = present(key, optional);
        if (v == null) {
            return null;
        }
        if (v.kind != Json.Kind.STR) {
            throw new Refused(key + " is not a string");
        }
        return v.text;
    }

    private static <E> E member(String key, boolean optional, String notOne, Function<String, E> from) throws Refused {
        Json.Value v = present(key, optional);
        if (v == null) {
            return null;
        }
        E x = v.kind == Json.Kind.STR ? from.apply(v.text) : null;
        if (x == null) {
            throw new Refused(key + " " + notOne);
        }
        return x;
    }

"#;

const RUNNER_JSON: &str = r#"    /** The little JSON this runner needs: one flat object per line, numbers kept as their text. */
    private static final class Json {
        private Json() {
        }

        enum Kind {
            NULL,
            BOOL,
            NUM,
            STR,
            OBJ,
            OTHER
        }

        static final class Value {
            final Kind kind;
            final String text;
            final List<Member> members;

            Value(Kind kind, String text, List<Member> members) {
                this.kind = kind;
                this.text = text;
                this.members = members;
            }
        }

        static final class Member {
            final String key;
            final Value value;

            Member(String key, Value value) {
                this.key = key;
                this.value = value;
            }
        }

        /** The value of the last member with this key. */
        static Value get(List<Member> obj, String key) {
            for (int i = obj.size() - 1; i >= 0; i--) {
                if (obj.get(i).key.equals(key)) {
                    return obj.get(i).value;
                }
            }
            return null;
        }

        static void appendString(StringBuilder s, String text) {
            s.append('"');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                switch (c) {
                    case '"' -> s.append("\\\"");
                    case '\\' -> s.append("\\\\");
                    case '\n' -> s.append("\\n");
                    case '\r' -> s.append("\\r");
                    case '\t' -> s.append("\\t");
                    case '\b' -> s.append("\\b");
                    case '\f' -> s.append("\\f");
                    default -> {
                        if (c < 0x20) {
                            s.append("\\u00").append("0123456789abcdef".charAt(c >> 4)).append("0123456789abcdef".charAt(c & 0xf));
                        } else {
                            s.append(c);
                        }
                    }
                }
            }
            s.append('"');
        }

        /** The digits of a number's text with its exponent: null when the text is not a number. */
        private static String[] split(String text) {
            String body = text.startsWith("-") ? text.substring(1) : text;
            int e = Math.max(body.indexOf('e'), body.indexOf('E'));
            String mantissa = e >= 0 ? body.substring(0, e) : body;
            String exp = e >= 0 ? body.substring(e + 1) : "0";
            int dot = mantissa.indexOf('.');
            String ip = dot >= 0 ? mantissa.substring(0, dot) : mantissa;
            String fp = dot >= 0 ? mantissa.substring(dot + 1) : "";
            return new String[] {ip + fp, exp, Integer.toString(fp.length())};
        }

        /** The exponent of a number's text, saturated far beyond any long. */
        private static long exponent(String exp) {
            String t = exp.startsWith("+") ? exp.substring(1) : exp;
            boolean neg = t.startsWith("-");
            String digits = (neg ? t.substring(1) : t).replaceFirst("^0+(?=.)", "");
            if (digits.length() > 15) {
                return neg ? -1_000_000_000_000_000L : 1_000_000_000_000_000L;
            }
            long v = Long.parseLong(digits);
            return neg ? -v : v;
        }

        /** The whole number a JSON number's text is, worked out from its digits and exponent; null when it is not one or does not fit a long. */
        static Long whole(String text) {
            String[] parts = split(text);
            StringBuilder digits = new StringBuilder(parts[0].replaceFirst("^0+", ""));
            long e = exponent(parts[1]) - Long.parseLong(parts[2]);
            while (digits.length() > 0 && digits.charAt(digits.length() - 1) == '0') {
                digits.setLength(digits.length() - 1);
                e++;
            }
            if (digits.length() == 0) {
                return 0L;
            }
            if (e < 0 || digits.length() + e > 19) {
                return null;
            }
            for (long i = 0; i < e; i++) {
                digits.append('0');
            }
            try {
                return Long.parseLong((text.startsWith("-") ? "-" : "") + digits);
            } catch (NumberFormatException tooBig) {
                return null;
            }
        }

        /** Whether a number's text is whole (and so, when whole() gave null, too big for a long). */
        static boolean wholeButTooBig(String text) {
            String[] parts = split(text);
            String digits = parts[0].replaceFirst("^0+", "");
            long e = exponent(parts[1]) - Long.parseLong(parts[2]);
            int trailing = 0;
            while (trailing < digits.length() && digits.charAt(digits.length() - 1 - trailing) == '0') {
                trailing++;
            }
            return digits.isEmpty() || e + trailing >= 0;
        }

        /** A day number for exactly "YYYY-MM-DD", when the calendar has that day. */
        static Long date(String s) {
            if (s.length() != 10 || s.charAt(4) != '-' || s.charAt(7) != '-') {
                return null;
            }
            for (int i = 0; i < 10; i++) {
                if (i != 4 && i != 7 && (s.charAt(i) < '0' || s.charAt(i) > '9')) {
                    return null;
                }
            }
            long y = Long.parseLong(s.substring(0, 4));
            long m = Long.parseLong(s.substring(5, 7));
            long d = Long.parseLong(s.substring(8, 10));
            boolean leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            long[] daysIn = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
            if (m < 1 || m > 12 || d < 1 || d > daysIn[(int) (m - 1)]) {
                return null;
            }
            long yy = m <= 2 ? y - 1 : y;
            long era = Math.floorDiv(yy, 400L);
            long yoe = yy - era * 400L;
            long doy = (153L * (m > 2 ? m - 3 : m + 9) + 2L) / 5L + d - 1L;
            long doe = yoe * 365L + yoe / 4L - yoe / 100L + doy;
            return era * 146097L + doe - 719468L;
        }

        /** A vectors line's in object (or, for a line without one, the line itself); null when it is not one. */
        static List<Member> parseCall(String line) {
            Parser p = new Parser(line);
            try {
                p.ws();
                List<Member> top = p.object();
                p.ws();
                if (p.i != line.length()) {
                    return null;
                }
                for (Member m : top) {
                    if (m.key.equals("in")) {
                        return m.value.kind == Kind.OBJ ? m.value.members : null;
                    }
                }
                return top;
            } catch (IllegalStateException | IndexOutOfBoundsException bad) {
                return null;
            }
        }

        private static final class Parser {
            final String s;
            int i;

            Parser(String s) {
                this.s = s;
            }

            char peek() {
                if (i >= s.length()) {
                    throw new IllegalStateException("the line ends early");
                }
                return s.charAt(i);
            }

            void eat(char c) {
                if (peek() != c) {
                    throw new IllegalStateException("expected " + c);
                }
                i++;
            }

            void ws() {
                while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
                    i++;
                }
            }

            void word(String w) {
                if (!s.startsWith(w, i)) {
                    throw new IllegalStateException("expected " + w);
                }
                i += w.length();
            }

            List<Member> object() {
                eat('{');
                List<Member> out = new ArrayList<>();
                ws();
                if (peek() == '}') {
                    i++;
                    return out;
                }
                while (true) {
                    ws();
                    String key = string();
                    ws();
                    eat(':');
                    ws();
                    out.add(new Member(key, value()));
                    ws();
                    char c = peek();
                    i++;
                    if (c == '}') {
                        return out;
                    }
                    if (c != ',') {
                        throw new IllegalStateException("expected , or }");
                    }
                }
            }

            Value value() {
                switch (peek()) {
                    case 'n' -> {
                        word("null");
                        return new Value(Kind.NULL, "null", null);
                    }
                    case 't' -> {
                        word("true");
                        return new Value(Kind.BOOL, "true", null);
                    }
                    case 'f' -> {
                        word("false");
                        return new Value(Kind.BOOL, "false", null);
                    }
                    case '"' -> {
                        return new Value(Kind.STR, string(), null);
                    }
                    case '{' -> {
                        return new Value(Kind.OBJ, null, object());
                    }
                    case '[' -> {
                        skipNested();
                        return new Value(Kind.OTHER, null, null);
                    }
                    default -> {
                        return new Value(Kind.NUM, number(), null);
                    }
                }
            }

            String number() {
                int start = i;
                while (i < s.length() && "0123456789-+.eE".indexOf(s.charAt(i)) >= 0) {
                    i++;
                }
                String t = s.substring(start, i);
                if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                    throw new IllegalStateException("not a number: " + t);
                }
                return t;
            }

            String string() {
                eat('"');
                StringBuilder out = new StringBuilder();
                while (true) {
                    char c = peek();
                    i++;
                    if (c == '"') {
                        return out.toString();
                    }
                    if (c != '\\') {
                        out.append(c);
                        continue;
                    }
                    char e = peek();
                    i++;
                    switch (e) {
                        case '"' -> out.append('"');
                        case '\\' -> out.append('\\');
                        case '/' -> out.append('/');
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'u' -> {
                            int hi = hex4();
                            if (hi >= 0xD800 && hi < 0xDC00) {
                                eat('\\');
                                eat('u');
                                int lo = hex4();
                                if (lo < 0xDC00 || lo > 0xDFFF) {
                                    throw new IllegalStateException("a lone surrogate");
                                }
                                out.append((char) hi).append((char) lo);
                            } else if (hi >= 0xDC00 && hi <= 0xDFFF) {
                                throw new IllegalStateException("a lone surrogate");
                            } else {
                                out.append((char) hi);
                            }
                        }
                        default -> throw new IllegalStateException("a bad escape");
                    }
                }
            }

            int hex4() {
                String t = s.substring(i, i + 4);
                i += 4;
                if (!t.matches("[0-9a-fA-F]{4}")) {
                    throw new IllegalStateException("a bad \\u escape");
                }
                return Integer.parseInt(t, 16);
            }

            void skipNested() {
                int depth = 0;
                while (true) {
                    char c = peek();
                    if (c == '"') {
                        string();
                        continue;
                    }
                    if (c == '[' || c == '{') {
                        depth++;
                    } else if (c == ']' || c == '}') {
                        depth--;
                        if (depth == 0) {
                            i++;
                            return;
                        }
                    }
                    i++;
                }
            }
        }
    }
"#;

/// The runner of the helpers' unit vectors: every helper a module may carry, each case
/// `{"op":…,"a":"…","b":"…"}` answered `{"result":"…"}`.
fn helpers_runner() -> String {
    let mut o = String::from(
        "// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Java, held to the reference (vectors/_helpers.jsonl).\n// Build: javac --release 17 -encoding UTF-8 -d classes _helpers_runner.java\n\n",
    );
    o.push_str("import java.io.BufferedReader;\nimport java.io.BufferedWriter;\nimport java.io.IOException;\nimport java.io.InputStreamReader;\nimport java.io.OutputStreamWriter;\nimport java.io.Writer;\nimport java.nio.charset.StandardCharsets;\n\n");
    let _ = writeln!(o, "final class {HELPERS_CLASS} {{\n    private {HELPERS_CLASS}() {{\n    }}\n");
    o.push_str(
        r#"    private static String field(String line, String key) {
        String tag = "\"" + key + "\":\"";
        int start = line.indexOf(tag) + tag.length();
        return line.substring(start, line.indexOf('"', start));
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            long a = Long.parseLong(field(line, "a"));
            long b = Long.parseLong(field(line, "b"));
            String op = field(line, "op");
            long r = switch (op) {
"#,
    );
    for m in RoundMode::ALL {
        let _ = writeln!(o, "                case \"quot_{}\" -> {}(a, b);", m.as_str(), mode_fn(m));
    }
    o.push_str(
        r#"                case "mod" -> modFloor(a, b);
                case "isqrt" -> isqrtLong(a);
                default -> throw new IllegalArgumentException("unknown helper " + op);
            };
            out.write("{\"result\":\"" + r + "\"}\n");
        }
        out.flush();
    }

"#,
    );
    for m in RoundMode::ALL {
        o.push_str(&div_round(m, "    "));
    }
    o.push_str(&indent(MOD_FLOOR, "    "));
    o.push_str(indent(ISQRT, "    ").trim_end());
    o.push_str("\n}\n");
    o
}
