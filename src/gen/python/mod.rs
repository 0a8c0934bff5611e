//! The Python backend (generated-code.md, Python): it spells the plan. A `NewType` per unit,
//! an `Enum` per enum, a `NamedTuple` for two outputs or more, the two error classes; the
//! function, its traced twin and the wire door over one function holding the branches; the
//! record function; and only the helpers the rule calls. The module imports `enum` and
//! `typing` and nothing else; a date is its day number (`Date`, a NewType over int), with
//! `date_of` and `date_from_wire` to make one. The fixed text is `runtime/module.py`.

mod enums;
pub mod shared;
mod walks;

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling, ERRORS};
use super::plan::{Expr, Kind, Node};
use super::printer::{text, Cond, Extremes, Form, Ops, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body, Refusals};
use super::text::{comment, quoted, section, Code, Escapes};
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
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
/// Two blank lines between the module's parts (PEP 8).
const TAIL: sig::Tail = sig::Tail { blanks: 2, ..sig::Tail::new(MODULE, MARK) };

/// Python's types: a unit its NewType, a date `Date`, an int inside the functions.
const TYPES: Types =
    Types { units: true, date: Some("Date"), ..Types::plain("bool", "str", "int", "@ | None", "list[@]") };

pub struct Python;

impl Language for Python {
    const SPEC: Spec = Spec::new(Lang::Python, "py", OPS, TYPES).file_is_module();
    const WALKS: bool = true;

    fn code(p: &Py) -> [String; 3] {
        [p.module(), p.runner(), helpers_runner()]
    }

    fn runner(base: &str) -> Runner {
        Runner::script("python3", &["-B"], format!("{base}_runner.py"))
    }

    /// The module of each enums file the rule reads (`tiers.py`).
    fn shared_files(p: &Py) -> Vec<File> {
        p.shared_modules()
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
        let mut entry = spell.functions(
            plan,
            &ret,
            Functions { place, signatures, more: vec![], dates, errors: ERRORS, error_types: ERROR_TYPES_PY },
        );
        // An enum of an enums file is declared in that file's module; the rule's module
        // imports it and hands it on under its own name.
        super::api::shared_enums(&mut entry, &p.shared(), |s| {
            vec![("module", s.module.clone()), ("file", format!("{}.py", s.module))]
        });
        entry
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

/// The function, its traced twin, the wire door and the core (see [`sig::functions`]).
const FUNCTIONS: &str = r#"def {function}({params}) -> {ret}:
    {doc}
    return {core}({untraced})


def {traced}({params}) -> tuple[{ret}, list[Fired]]:
    """The same call, with the rows that matched, in the order they matched."""
    {trace}: list[Fired] = []
    return {core}({traced_args}), {trace}


def {wire}({call}: object, {tag}: str = "") -> str:
    """One call in the wire form (formats.md), an object of the inputs under their declared names: the door's checks in the reference's order, then the rule; the record line."""
    {_call} = _object({call}, {not_an_object})
    {door}
    {trace}: list[Fired] = []
    {_out} = {core}({traced_args})
    return {record}({record_args})


def {core}({core_params}) -> {ret}:
    """The rule's branches, written once: the outputs; each row that matches appended to the trace, where there is one (the plain function passes none)."""
    {rule}
    return {answer}"#;

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
            // A value outside its bounds, as Python writes a range: `not lo <= x <= hi`.
            Node::Or(a, b) => match (&a.node, &b.node) {
                (Node::Cmp(CmpOp::Lt, x, lo), Node::Cmp(CmpOp::Gt, y, hi)) if x == y && bound(lo) && bound(hi) => {
                    let (r, q) = match x.kind {
                        Kind::Enum(en) => (format!("{}(", self.rank(en)), TOP),
                        _ => (String::new(), p.eq + 1),
                    };
                    let close = if r.is_empty() { "" } else { ")" };
                    let [lo, x, hi] = [lo, x, hi].map(|e| Part::Expr((**e).clone(), q));
                    let between = || Part::Text(format!("{close} <= {r}"));
                    Form::Parts(
                        vec![Part::Text(format!("not {r}")), lo, between(), x, between(), hi, text(close)],
                        p.not,
                    )
                }
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// A bound of a range: a number or a member, written as it is.
fn bound(e: &Expr) -> bool {
    matches!(e.node, Node::Int(_) | Node::Member(_))
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
        // The enums of an enums file are its module's: the rule's declares only its own, and
        // names Enum for them and for the wire door's reader of a member.
        let shared = self.shared();
        if self.names_enum(&shared) {
            o.line("from enum import Enum");
        }
        let mut typing = vec!["Any", "NamedTuple"];
        if !plan.units.is_empty() || plan.dates {
            typing.push("NewType");
        }
        let fields = plan.sequences.iter().flat_map(|s| s.fields.iter().map(|f| f.kind));
        if plan.door.inputs.iter().map(|i| i.kind).chain(fields).any(|k| k != WireKind::Integer) {
            typing.push("NoReturn");
        }
        if plan.dates {
            typing.push("Protocol");
        }
        typing.push("Sequence");
        if self.wire_enum() || !plan.sequences.is_empty() {
            typing.push("TypeVar");
        }
        o.line(format!("from typing import {}", typing.join(", ")));
        o.blank();
        self.imports(&mut o, &shared);
        TAIL.sections(&mut o, &["builtins"]);
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
        self.enums(&mut o, &shared);
        self.elements(&mut o);
        let signature = format!("def {}({}) -> str:", self.n.record, self.record_params());
        sig::rest(&mut o, plan, self, TAIL, (RECORD, &signature), |o, _| self.output(o), |o| self.functions(o));
        o.finish()
    }

    /// The outputs' type: a NamedTuple.
    fn output(&self, o: &mut Code) {
        o.line("class Output(NamedTuple):");
        o.indent();
        o.line("\"\"\"The outputs, in the order the rule declares them.\"\"\"");
        o.blank();
        for &v in &self.plan.outputs {
            let f = &self.n.fields[v];
            // A field named like one of tuple's methods takes its place, which is what a
            // caller reading `out.count` wants; mypy is told so.
            let note = if matches!(f.as_str(), "count" | "index") { "  # type: ignore[assignment]" } else { "" };
            o.line(format!("{f}: {}{note}", self.ty(v)));
        }
        o.dedent();
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let made = |w: &str, x: &str, optional: bool| match optional {
            true => format!("None if {x} is None else {w}({x})"),
            false => format!("{w}({x})"),
        };
        let l = |b| n.local(b);
        let fills = [
            ("core_params", sig::then(&self.params(), &format!("{}: list[Fired] | None", l("trace")))),
            ("untraced", sig::then(&self.args(), "None")),
            ("traced_args", sig::then(&self.args(), l("trace"))),
            ("params", self.params()),
            ("ret", self.returns()),
            ("args", self.args()),
            ("doc", py_doc(&sig::about(plan))),
            ("not_an_object", py_str(&plan.door.not_an_object)),
            ("record_args", sig::then(&self.args(), &format!("{}, {}, {}", l("_out"), l("trace"), l("tag")))),
            ("answer", sig::answer(plan, n, &TYPES, made, ["Output(", "=", ")"])),
        ];
        sig::functions(o, n, FUNCTIONS, &fills, |part, o| {
            walk::part(plan, Lang::Python, part, &mut Body { g: self, o })
        });
        o.blank();
        o.blank();
    }

    fn runner(&self) -> String {
        let runner = shared::copy(RUNNER);
        sig::runner(self.plan, "#", "", &runner, &[("rulec_rule", &self.n.module), ("rulec_wire", &self.n.wire)])
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
        // A value refused is shown as the wire writes it: a member by its name, a day as its date.
        shown: ["_json_str(@.value)", "_date_str(@)", "@"],
        refuse: Refusals {
            input: "raise RuleInputError(@, $)",
            input_alone: "raise RuleInputError(@)",
            contradiction: "raise RuleContradictionError(@)",
        },
        binding: "@: $",
        declare: "@: $",
        ..Blocks::KEYWORDS
    };
    /// The entry guard: a caller can pass anything. A number's fast test is the type's
    /// identity and the range; `_check_int` then says which of the three failed. A day with
    /// a range is checked apart from its kind, so that its refusal shows the date.
    const GUARD: &'static str = r#"held: if {x} is not None:\n    {checks}
int: if _type({x}) is not _int or {outside}:\n    {x} = _check_int({x}, {int_args})
unit: if _type({x}) is not _int or {outside}:\n    {x} = {unit}(_check_int({x}, {int_args}))
date: if _type({x}) is not _int:\n    {x} = Date(_check_int({x}, {int_args}))
date_ranged: if _type({x}) is not _int or {outside}:\n    {x} = Date(_check_int({x}, None, None, {m}, {k}, ""))\n    {range}
enum: if _type({x}) is not {enum}:\n    _refuse({x}, {m}, {k})\n{range}
bool: if _type({x}) is not _bool:\n    _refuse({x}, {m}, {k})
str: if _type({x}) is not _str:\n    _refuse({x}, {m}, {k})
wire_date: {x} = Date(_wire_day({x}, {m}, {k}))\n{range}
wire_enum: {x} = _wire_member({enum}, {x}, {m}, {k})\n{range}"#;
    /// The wire door: each value read as it comes, then checked as the entry guard checks it.
    const WIRE: &'static str = "raw: _get({_call}, {name})
required: {var}: {ty} = {raw}
optional: {var}: {ty} = {raw}
guarded: yes
single_key: {key},
unknown_keys:
for {_key} in {_call}:
    if {_key} not in ({inputs}):
        raise RuleInputError(_str({_key}) + {sentence})";
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = r#"bool: "true" if {x} else "false"
str: _json_str({x})
enum: _json_str({x}.value)
date: _date_str({x})
int: _str(_int({x}))
unit: _str(_int({x}))
required: {_s}.append({one})
optional: {_s}.append("null" if {x} is None else {one})
optional_bool: {_s}.append("null" if {x} is None else ({one}))
list: {_s}.append("[" + ",".join([{one} for {_item} in {x}]) + "]")
element: {_item}
elements: {_s}.append("[" + ",".join([{one} for {_item} in {x}]) + "]")
concat:  + "#;

    /// The trace, lists and loops.
    const LISTS: &'static str = "fired: if {trace} is not None:\\n    {trace}.append(Fired({table}, {row}))
list: {name}: list[{ty}] = []
push: {list}.append({value})
own: {ty}({value})
carry: {name}: {ty} = {value}
for: for {element} in {list}:
break: break";

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{}.append({})", self.g.n.local("_s"), py_str(json)));
    }

    fn guard_sequence(&mut self, seq: &super::plan::SequencePlan, _checks: &[(usize, Vec<walk::Check>)]) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let line = self.g.guard_sequence_line(k);
        self.o.line(line);
    }

    fn wire_sequence(&mut self, seq: &super::plan::SequencePlan) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let line = self.g.wire_sequence_line(k);
        self.o.line(line);
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
