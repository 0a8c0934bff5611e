//! The Python backend (generated-code.md, Python): it spells the plan. A `NewType` per unit,
//! an `Enum` per enum, a `NamedTuple` for two outputs or more, the two error classes; the
//! function, its traced twin and the wire door over one function holding the branches; the
//! record function; and only the helpers the rule calls. The module imports `enum` and
//! `typing` and nothing else; a date is its day number (`Date`, a NewType over int), with
//! `date_of` and `date_from_wire` to make one. The fixed text is `runtime/module.py`.

pub mod shared;

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling, ERRORS};
use super::plan::{BoundaryTy, Expr, InputDoor, Kind, Node, TablePlan};
use super::printer::{text, Cond, Extremes, Form, Ops, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{self, Blocks, Body, Refusal, Refusals};
use super::text::{comment, quoted, section, Code, Escapes};
use super::walk::{self, Check, Hooks, Source};
use super::{Gen, Lang, Language, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
use crate::sema::VarId;
use crate::syntax::ast::CmpOp;
use serde_json::json;

/// Python's contradiction carries `value` too (always None), so both errors read alike.
const ERROR_TYPES_PY: ErrorTypes = ErrorTypes {
    input: ErrorType { name: "RuleInputError", fields: &["what", "value"] },
    contradiction: ErrorType { name: "RuleContradictionError", fields: &["what", "value"] },
};

const MODULE: &str = include_str!("runtime/module.py");
const RUNNER: &str = include_str!("runtime/runner.py");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.py");
const MARK: &str = "# rulec:";

/// Python's types: a unit its NewType, a date `Date`, an int inside the functions.
const TYPES: Types = Types { units: true, date: Some("Date"), ..Types::plain("bool", "str", "int", "@ | None") };

pub struct Python;

impl Language for Python {
    const SPEC: Spec = Spec::new(Lang::Python, "py", OPS, TYPES).file_is_module();

    fn code(p: &Py) -> [String; 3] {
        [p.module(), p.runner(), helpers_runner()]
    }

    fn runner(base: &str) -> Runner {
        Runner::script("python3", &["-B"], format!("{base}_runner.py"))
    }

    fn api(p: &Py, _: &Unit) -> serde_json::Value {
        let (plan, n) = (p.plan, p.n);
        let spell = Spelling { names: n, ty: &|v| p.ty(v), member: Member::Bare };
        let (params, ret) = (p.params(), p.returns());
        let (call, tag) = (n.local("call"), n.local("tag"));
        let signatures = [
            format!("def {}({params}) -> {ret}:", n.function),
            format!("def {}({params}) -> tuple[{ret}, list[Fired]]:", n.traced),
            format!("def {}({}) -> str:", n.record, p.record_params()),
            format!("def {}({call}: object, {tag}: str = \"\") -> str:", n.wire),
        ];
        let place = vec![("module", json!(n.module))];
        let dates = Dates { ty: "Date", from_wire: "date_from_wire", from_native: Some("date_of") };
        spell.functions(
            plan,
            &ret,
            Functions { place, signatures, more: vec![], dates, errors: ERRORS, error_types: ERROR_TYPES_PY },
        )
    }
}

/// A Python string literal for any text: `"…"` (or `'…'` when that needs fewer escapes),
/// backslashes and control characters escaped, everything else as UTF-8.
fn py_str(s: &str) -> String {
    let quote = if s.contains('"') && !s.contains('\'') { '\'' } else { '"' };
    quoted(s, &Escapes { quote, ..Escapes::c_family(|c| format!("\\u{c:04x}")) })
}

/// A one-line docstring for any text.
fn py_doc(t: &str) -> String {
    let t = comment(t).replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let t = if t.ends_with('"') { format!("{t} ") } else { t };
    format!("\"\"\"{t}\"\"\"")
}

/// Python's spellings. Its `//` is the floor.
const OPS: Ops = Ops {
    prec: Prec { cond: 1, or: 2, and: 3, not: 4, eq: 5, rel: 5, add: 6, mul: 7, neg: 8 },
    truth: ["False", "True"],
    absent: "None",
    and: "and",
    or: "or",
    not: "not ",
    is: ["is", "is not"],
    div: "//",
    div_floors: true,
    extremes: Extremes::Own,
    cond: Cond::Own,
    ..Ops::c_family(py_str)
};

type Py<'a> = Gen<'a, Python>;

/// The record function (`stmt::record_function`) around its pieces: the runtime's `_record_open` and `_record_close`.
/// The docstring is the body's first line.
const RECORD: &str = "{signature}
    \"\"\"One call as a fixtures record (formats.md), the line `rulec replay` reads; an empty tag is left out.\"\"\"
    {_s} = _record_open({tag})
    {pieces}
    return _record_close({_s}, {trace})";

impl Syntax for Py<'_> {
    fn own(&self, e: &Expr) -> Option<Form> {
        let p = &OPS.prec;
        Some(match &e.node {
            Node::Min(xs) | Node::Max(xs) => {
                let mut parts = vec![text(if matches!(e.node, Node::Min(_)) { "_min(" } else { "_max(" })];
                for i in 0..xs.len() {
                    if i > 0 {
                        parts.push(text(", "));
                    }
                    parts.push(Part::Kid(i, TOP));
                }
                if let Kind::Enum(en) = e.kind {
                    parts.push(Part::Text(format!(", key={}", self.rank(en))));
                }
                parts.push(text(")"));
                Form::Parts(parts, ATOM)
            }
            Node::If(..) => Form::Parts(
                vec![Part::Kid(1, p.or), text(" if "), Part::Kid(0, p.or), text(" else "), Part::Kid(2, p.cond)],
                p.cond,
            ),
            // An enum's (in)equality is identity.
            Node::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, _) if matches!(a.kind, Kind::Enum(_)) => {
                let is = if *op == CmpOp::Eq { " is " } else { " is not " };
                Form::Parts(vec![Part::Kid(0, p.eq + 1), text(is), Part::Kid(1, p.eq + 1)], p.eq)
            }
            // `not x in y` is written the way Python reads it (E713).
            Node::Not(x) => match &x.node {
                Node::OneOf(..) => self.one_of(x, true),
                _ => return None,
            },
            Node::OneOf(..) => self.one_of(e, false),
            _ => return None,
        })
    }
}

impl Py<'_> {
    /// `x in (a, b)` over the node `of` (a `OneOf`).
    fn one_of(&self, of: &Expr, negated: bool) -> Form {
        let Node::OneOf(x, vals) = &of.node else { unreachable!("a set of values") };
        let mut parts = vec![
            Part::Expr((**x).clone(), OPS.prec.eq + 1),
            Part::Text(if negated { " not in (" } else { " in (" }.into()),
        ];
        for (i, v) in vals.iter().enumerate() {
            if i > 0 {
                parts.push(Part::Text(", ".into()));
            }
            parts.push(Part::Expr(v.clone(), TOP));
        }
        parts.push(Part::Text(if vals.len() == 1 { ",)" } else { ")" }.into()));
        Form::Parts(parts, OPS.prec.eq)
    }

    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{}: {}", self.n.vars[v], self.ty(v)))
    }

    fn record_params(&self) -> String {
        let l = |b| self.n.local(b);
        let rest = format!("{}: {}, {}: _Trace, {}: str = \"\"", l("out"), self.returns(), l("trace"), l("tag"));
        sig::then(&self.params(), &rest)
    }

    fn module(&self) -> String {
        let plan = self.plan;
        let mut o = Code::new("    ");
        o.raw(&sig::head(plan, "#"));
        o.blank();
        let enums = !plan.enums.is_empty();
        if enums {
            o.line("from enum import Enum");
        }
        let mut typing = vec!["Any", "NamedTuple"];
        if !plan.units.is_empty() || plan.dates {
            typing.push("NewType");
        }
        if plan.door.inputs.iter().any(|i| i.kind != WireKind::Integer) {
            typing.push("NoReturn");
        }
        if plan.dates {
            typing.push("Protocol");
        }
        typing.push("Sequence");
        if plan.door.inputs.iter().any(|i| matches!(i.kind, WireKind::Enum(_))) {
            typing.push("TypeVar");
        }
        o.line(format!("from typing import {}", typing.join(", ")));
        o.blank();
        sig::sections(&mut o, MODULE, MARK, &["builtins"], "\n\n\n");
        for (u, name) in plan.units.iter().zip(&self.n.units) {
            o.line(format!(
                "{name} = NewType({}, int)  # {}: a whole number of its unit",
                py_str(name),
                comment(&u.what)
            ));
        }
        if plan.dates {
            o.line("Date = NewType(\"Date\", int)  # a calendar day: the number of days since 1970-01-01");
        }
        if !plan.units.is_empty() || plan.dates {
            o.blank();
            o.blank();
        }
        self.enums(&mut o);
        sig::sections(&mut o, MODULE, MARK, &["errors"], "\n\n\n");
        if plan.outputs.len() > 1 {
            o.line("class Output(NamedTuple):");
            o.indent();
            o.line("\"\"\"The outputs, in the order the rule declares them.\"\"\"");
            o.blank();
            for &v in &plan.outputs {
                let f = &self.n.fields[v];
                // A field named like one of tuple's methods takes its place, which is what a
                // caller reading `out.count` wants; mypy is told so.
                let note = if matches!(f.as_str(), "count" | "index") { "  # type: ignore[assignment]" } else { "" };
                o.line(format!("{f}: {}{note}", self.ty(v)));
            }
            o.dedent();
            o.blank();
            o.blank();
        }
        self.functions(&mut o);
        let signature = format!("def {}({}) -> str:", self.n.record, self.record_params());
        stmt::record_function(plan, &mut Body { g: self, o: &mut o }, RECORD, &signature);
        o.blank();
        sig::sections(&mut o, MODULE, MARK, &sig::taken(plan, &OPS, MODULE, MARK), "\n\n\n");
        o.finish()
    }

    fn enums(&self, o: &mut Code) {
        for (e, en) in self.plan.enums.iter().enumerate() {
            let name = &self.n.enums[e];
            o.line(format!("class {name}(Enum):"));
            o.indent();
            o.line(py_doc(&format!(
                "enum {}{}: a member is the alias in upper case, its value the name the wire and the records write.",
                en.name,
                if en.ordered { " (ordered: a value compares by its place)" } else { "" }
            )));
            o.blank();
            for (i, v) in en.values.iter().enumerate() {
                o.line(format!("{} = {}", self.n.members[e][i], py_str(&v.name)));
            }
            o.dedent();
            o.blank();
            o.blank();
            o.line("# The members as names of the module: read through the enum, a member costs a walk through");
            o.line("# the enum's machinery on every call; a name of the module does not.");
            for (i, c) in self.n.member_consts[e].iter().enumerate() {
                if let Some(c) = c {
                    o.line(format!("{c} = {name}.{}", self.n.members[e][i]));
                }
            }
            o.blank();
            o.blank();
            if let Some(rank) = &self.n.ranks[e] {
                let table = format!("_{}_PLACE", rank.trim_start_matches('_').to_ascii_uppercase());
                let places: Vec<String> =
                    (0..en.values.len()).map(|i| format!("{}: {i}", self.member(Kind::Enum(e), i as u32))).collect();
                o.line(format!("{table}: dict[{name}, int] = {{{}}}", places.join(", ")));
                o.blank();
                o.blank();
                o.line(format!("def {rank}(value: {name}) -> int:"));
                o.indent();
                o.line(py_doc(&format!("The place of a value of the ordered enum {}, from 0.", en.name)));
                o.line(format!("return {table}[value]"));
                o.dedent();
                o.blank();
                o.blank();
            }
        }
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let (params, args, ret) = (self.params(), self.args(), self.returns());
        let tables: Vec<&TablePlan> = plan.tables().collect();
        let rows_ty = match tables.len() {
            0 => "tuple[()]".to_string(),
            k => format!("tuple[{}]", vec!["int"; k].join(", ")),
        };
        o.line(format!("def {}({params}) -> {ret}:", n.function));
        o.indent();
        o.line(py_doc(&sig::about(plan)));
        o.line(format!("return {}({args})[0]", n.core));
        o.dedent();
        o.blank();
        o.blank();
        o.line(format!("def {}({params}) -> tuple[{ret}, list[Fired]]:", n.traced));
        o.indent();
        o.line("\"\"\"The same call, with the rows that matched: one per table, in evaluation order.\"\"\"");
        let l = |b| n.local(b);
        let (out, rows) = (l("_out"), l("_rows"));
        o.line(format!("{out}, {rows} = {}({args})", n.core));
        let fired = sig::fired(plan, rows, "[@]", |table, row| format!("Fired({}, {row})", py_str(table)));
        o.line(format!("return {out}, {fired}"));
        o.dedent();
        o.blank();
        o.blank();
        o.line(format!("def {}({}: object, {}: str = \"\") -> str:", n.wire, l("call"), l("tag")));
        o.indent();
        o.line(
            "\"\"\"One call in the wire form (formats.md), an object of the inputs under their declared names: \
             the door's checks in the reference's order, then the rule; the record line.\"\"\"",
        );
        o.line(format!("{} = _object({}, {})", l("_call"), l("call"), py_str(&plan.door.not_an_object)));
        walk::wire(plan, &mut Body { g: self, o: &mut *o });
        o.line(format!("{out}, {rows} = {}({args})", n.core));
        let record_args = format!("{out}, {fired}, {}", l("tag"));
        o.line(format!("return {}({})", n.record, sig::then(&args, &record_args)));
        o.dedent();
        o.blank();
        o.blank();
        o.line(format!("def {}({params}) -> tuple[{ret}, {rows_ty}]:", n.core));
        o.indent();
        o.line("\"\"\"The rule's branches, written once: the outputs, and the row each table matched.\"\"\"");
        walk::core(plan, Lang::Python, &mut Body { g: self, o: &mut *o });
        let made = |w: &str, x: &str, optional: bool| {
            if optional {
                format!("None if {x} is None else {w}({x})")
            } else {
                format!("{w}({x})")
            }
        };
        let out = sig::answer(plan, n, &TYPES, made, ["Output(", "=", ")"]);
        let rows = match n.slots.len() {
            1 => format!("({},)", n.slots[0]),
            _ => format!("({})", n.slots.join(", ")),
        };
        o.line(format!("return {out}, {rows}"));
        o.dedent();
        o.blank();
        o.blank();
    }

    fn runner(&self) -> String {
        let runner = shared::copy(RUNNER);
        sig::runner(self.plan, "#", "", &runner, &[("rulec_rule", &self.n.module), ("rulec_wire", &self.n.wire)])
    }

    /// `x`'s wire form, as an expression giving its JSON text.
    fn wire_text(&self, v: VarId, x: &str) -> String {
        let var = self.plan.var(v);
        let one = match var.ty {
            BoundaryTy::Bool => format!("\"true\" if {x} else \"false\""),
            BoundaryTy::Str => format!("_json_str({x})"),
            BoundaryTy::Enum(_) => format!("_json_str({x}.value)"),
            BoundaryTy::Date => format!("_date_str({x})"),
            _ => format!("_str(_int({x}))"),
        };
        match (var.optional, var.ty) {
            (true, BoundaryTy::Bool) => format!("\"null\" if {x} is None else ({one})"),
            (true, _) => format!("\"null\" if {x} is None else {one}"),
            (false, _) => one,
        }
    }
}

/// The walker's hooks: the statements of the function bodies.
impl Body<'_, '_, Py<'_>> {
    /// `lo <= x <= hi` of an input: over places for an ordered enum.
    fn in_range(&self, input: &InputDoor, x: &str) -> String {
        let r = input.range.as_ref().expect("a range");
        match input.kind {
            WireKind::Enum(e) => {
                let rank = self.g.rank(e);
                let (lo, hi) = (self.g.member(Kind::Enum(e), r.lo as u32), self.g.member(Kind::Enum(e), r.hi as u32));
                format!("{rank}({lo}) <= {rank}({x}) <= {rank}({hi})")
            }
            _ => format!("{} <= {x} <= {}", r.lo, r.hi),
        }
    }

    /// The checks of one value `x` already read, in the door's order (every one of them
    /// when `wire`: the value came out of JSON).
    fn checks(&mut self, input: &InputDoor, x: &str, wire: bool) {
        let (m, k) = (py_str(&input.missing), py_str(&input.not_of_kind));
        let wrap = |s: String| match self.g.own_type(input.var) {
            Some(w) => format!("{w}({s})"),
            None => s,
        };
        match input.kind {
            WireKind::Date if wire => {
                self.o.line(format!("{x} = {}", wrap(format!("_wire_day({x}, {m}, {k})"))));
                self.range_check(input, x);
            }
            WireKind::Date if input.range.is_some() => {
                // The range is checked apart from the kind, so that a refusal shows the day as
                // the wire writes it, not as its day number.
                let args = format!("None, None, {m}, {k}, {}", py_str(""));
                self.o.line(format!("if _type({x}) is not _int or not {}:", self.in_range(input, x)));
                self.o.indent();
                self.o.line(format!("{x} = {}", wrap(format!("_check_int({x}, {args})"))));
                self.range_check(input, x);
                self.o.dedent();
            }
            WireKind::Integer | WireKind::Date => {
                let fast = match &input.range {
                    Some(_) => format!("_type({x}) is not _int or not {}", self.in_range(input, x)),
                    None => format!("_type({x}) is not _int"),
                };
                self.o.line(format!("if {fast}:"));
                self.o.line(format!("    {x} = {}", wrap(format!("_check_int({x}, {})", self.check_int_args(input)))));
            }
            WireKind::Enum(e) if wire => {
                self.o.line(format!("{x} = _wire_member({}, {x}, {m}, {k})", self.g.n.enums[e]));
                self.range_check(input, x);
            }
            WireKind::Enum(e) => {
                self.o.line(format!("if _type({x}) is not {}:", self.g.n.enums[e]));
                self.o.line(format!("    _refuse({x}, {m}, {k})"));
                self.range_check(input, x);
            }
            WireKind::Boolean | WireKind::Text => {
                let t = if input.kind == WireKind::Boolean { "_bool" } else { "_str" };
                self.o.line(format!("if _type({x}) is not {t}:"));
                self.o.line(format!("    _refuse({x}, {m}, {k})"));
            }
        }
    }

    fn range_check(&mut self, input: &InputDoor, x: &str) {
        if let Some(r) = &input.range {
            let test = format!("not {}", self.in_range(input, x));
            // The value as the wire writes it: a day as its date, a member by its name (a
            // number's range is checked by `_check_int`; this one is a date's or a member's).
            let shown = match input.kind {
                WireKind::Date => format!("_date_str({x})"),
                _ => format!("_json_str({x}.value)"),
            };
            self.refuse_when(&test, Refusal::Input(&r.sentence, Some(&shown)));
        }
    }

    /// Checks that run only when an optional input holds a value.
    fn optional(&mut self, input: &InputDoor, x: &str, wire: bool) {
        if input.optional {
            self.o.line(format!("if {x} is not None:"));
            self.o.indent();
            self.checks(input, x, wire);
            self.o.dedent();
        } else {
            self.checks(input, x, wire);
        }
    }
}

impl Hooks for Body<'_, '_, Py<'_>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        if_: "if @:",
        else_if: "elif @:",
        else_: "else:",
        end: "",
        beside: Some("  # "),
        refuse: Refusals {
            input: "raise RuleInputError(@, $)",
            input_alone: "raise RuleInputError(@)",
            contradiction: "raise RuleContradictionError(@)",
        },
        ..Blocks::KEYWORDS
    };

    fn guard_input(&mut self, input: &InputDoor, checks: &[Check]) {
        debug_assert!(checks.contains(&Check::Kind), "Python checks the kind of every parameter");
        let x = self.g.n.vars[input.var].clone();
        self.optional(input, &x, false);
    }

    fn binding(&self, var: VarId) -> String {
        format!("{}: {}", self.g.n.vars[var], self.g.local_ty(var))
    }

    fn declare(&mut self, var: VarId) {
        self.o.line(self.binding(var));
    }

    fn wire_input(&mut self, input: &InputDoor) {
        let x = self.g.n.vars[input.var].clone();
        let call = self.g.n.local("_call");
        self.o.line(format!("{x}: {} = _get({call}, {})", self.g.ty(input.var), py_str(&input.name)));
        self.optional(input, &x, true);
    }

    fn wire_unknown_keys(&mut self, names: &[&str], sentence: &str) {
        let keys: Vec<String> = names.iter().map(|k| py_str(k)).collect();
        let tuple = if keys.len() == 1 { format!("({},)", keys[0]) } else { format!("({})", keys.join(", ")) };
        let (key, call) = (self.g.n.local("_key"), self.g.n.local("_call"));
        self.o.line(format!("for {key} in {call}:"));
        self.o.line(format!("    if {key} not in {tuple}:"));
        self.o.line(format!("        raise RuleInputError(_str({key}) + {})", py_str(sentence)));
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{}.append({})", self.g.n.local("_s"), py_str(json)));
    }

    fn record_value(&mut self, var: VarId, from: Source) {
        let x = self.place(var, from);
        self.o.line(format!("{}.append({})", self.g.n.local("_s"), self.g.wire_text(var, &x)));
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    format!(
        "# Code generated by rulec. DO NOT EDIT.\n# The arithmetic helpers of the generated Python, held to the reference (vectors/_helpers.jsonl).\n\nimport json\nimport sys\n\n\n{}\n\n\n{}\n",
        sig::helpers_text(MODULE, MARK, "\n\n\n"),
        section(HELPERS_RUNNER, MARK, "main")
    )
}
