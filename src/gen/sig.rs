//! What every backend's declarations share, written once: the types of its signatures from a
//! table of spellings per language ([`Types`]), the parameter and argument lists, the head
//! of a generated file, the runtime sections a module takes (decided here from the plan, by
//! a table of what each section is for), and the runner templating.

use super::naming::{Names, SharedNames};
use super::plan::{BoundaryTy, Fold, Helper, Kind, Node, Plan, Role, UsePlan};
use super::printer::{Ops, Spelled};
use super::stmt::{self, Body, Hooks};
use super::text::{self, comment, section, Code};
use super::walk::Part;
use super::File;
use crate::eval::wire::WireKind;
use crate::num::RoundMode;
use crate::sema::VarId;
use std::collections::BTreeSet;

/// How a language spells the types of its signatures. `@` in a pattern stands for a type.
pub struct Types {
    pub bool: &'static str,
    pub str: &'static str,
    /// Text an output owns, where it differs from the text a parameter lends (Rust).
    pub owned_str: Option<&'static str>,
    /// A number inside the functions, and at the boundary where it has no type of its own.
    pub int: &'static str,
    /// Whether a unit crosses the boundary as a type of its own (its name in `Names::units`).
    pub units: bool,
    /// The date type at the boundary, where the language declares one.
    pub date: Option<&'static str>,
    /// An optional value of a type (`?@`, `@ | None`, `Option<@>`).
    pub optional: &'static str,
    /// Optional types spelled otherwise than by `optional` (Java's boxes: `long` → `Long`).
    pub boxed: &'static [(&'static str, &'static str)],
    /// An enum's type from its name, where it is not the name itself (Ruby's RBS aliases).
    pub enum_type: Option<fn(&str) -> String>,
    /// Whether the inputs cross the boundary as one struct of their own (Go's `Input`).
    pub input_type: bool,
    /// A list of values of a type (`list[@]`, `Vec<@>`), an element boxed as an optional is.
    pub list: &'static str,
}

impl Types {
    /// The types of a language whose units and dates are its integers: `bool`, `str` and
    /// `int` spelled so, an optional one by `optional`.
    pub const fn plain(
        bool: &'static str,
        str: &'static str,
        int: &'static str,
        optional: &'static str,
        list: &'static str,
    ) -> Types {
        Types {
            bool,
            str,
            owned_str: None,
            int,
            units: false,
            date: None,
            optional,
            boxed: &[],
            enum_type: None,
            input_type: false,
            list,
        }
    }

    fn enum_type(&self, n: &Names, e: usize) -> String {
        match self.enum_type {
            Some(spell) => spell(&n.enums[e]),
            None => n.enums[e].clone(),
        }
    }

    fn wrap(&self, base: String, optional: bool) -> String {
        if !optional {
            return base;
        }
        match self.boxed.iter().find(|(t, _)| *t == base) {
            Some((_, boxed)) => boxed.to_string(),
            None => self.optional.replace('@', &base),
        }
    }

    /// A list of `element`s: a reference type where the language boxes one.
    fn listed(&self, element: String) -> String {
        let boxed = self.boxed.iter().find(|(t, _)| *t == element).map(|(_, b)| b.to_string());
        self.list.replace('@', &boxed.unwrap_or(element))
    }

    /// The type of a parameter or an output: what a caller passes or reads.
    pub fn boundary(&self, plan: &Plan, n: &Names, v: VarId) -> String {
        let var = plan.var(v);
        // A sequence is a list of its element's record.
        if let Some(s) = plan.sequences.iter().position(|s| s.list == v) {
            return self.list.replace('@', &n.records[s]);
        }
        let base = match var.ty {
            BoundaryTy::Bool => self.bool.to_string(),
            BoundaryTy::Str => match (self.owned_str, var.role) {
                (Some(owned), Role::Output) => owned.to_string(),
                _ => self.str.to_string(),
            },
            BoundaryTy::Int => self.int.to_string(),
            BoundaryTy::Date => self.date.unwrap_or(self.int).to_string(),
            BoundaryTy::Enum(e) => self.enum_type(n, e),
            BoundaryTy::Unit(u) if self.units => n.units[u].clone(),
            BoundaryTy::Unit(_) => self.int.to_string(),
        };
        match var.list {
            true => self.listed(base),
            false => self.wrap(base, var.optional),
        }
    }

    /// The type a value has inside the functions: a number is the integer it carries. A
    /// list is built in its elements' type of their own, where they have one, so that it
    /// crosses the boundary as it is.
    pub fn local(&self, plan: &Plan, n: &Names, v: VarId) -> String {
        if plan.var(v).role == Role::Sequence {
            return self.boundary(plan, n, v);
        }
        // The element a walk is on: its sequence's record.
        if plan.var(v).role == Role::Item {
            let list = plan.steps.iter().find_map(|s| match s {
                super::plan::Step::Walk(w) if w.element == v => Some(w.list),
                _ => None,
            });
            let s = plan.sequences.iter().position(|s| Some(s.list) == list);
            return n.records[s.expect("a walk's element belongs to a sequence")].clone();
        }
        match (plan.var(v).list, self.own_type(plan, n, v)) {
            (true, Some(own)) => own,
            _ => self.wrap(self.held(plan, n, v), plan.var(v).optional),
        }
    }

    /// The type of the value a variable holds inside the functions (an optional's, when it holds one).
    pub fn held(&self, plan: &Plan, n: &Names, v: VarId) -> String {
        self.of_kind(n, plan.var(v).kind)
    }

    /// The type of a value of kind `k` inside the functions.
    pub fn of_kind(&self, n: &Names, k: Kind) -> String {
        match k {
            Kind::Bool => self.bool.to_string(),
            Kind::Str => self.str.to_string(),
            Kind::Enum(e) => self.enum_type(n, e),
            Kind::Num => self.int.to_string(),
        }
    }

    /// The type of its own a number has at the boundary where the language gives it one (a
    /// unit's, the date type), which the value inside the functions is made on the way out.
    pub fn own_type(&self, plan: &Plan, n: &Names, v: VarId) -> Option<String> {
        match plan.var(v).ty {
            BoundaryTy::Unit(u) if self.units => Some(n.units[u].clone()),
            BoundaryTy::Date => self.date.map(str::to_string),
            _ => None,
        }
    }

    /// What the function answers: the one output's type, or `Output`.
    pub fn returns(&self, plan: &Plan, n: &Names) -> String {
        match plan.outputs.as_slice() {
            [one] => self.boundary(plan, n, *one),
            _ => "Output".into(),
        }
    }
}

/// What the branches answer, from the outputs' variables: each made its type of its own by
/// `made(type, x, optional)` where it has one ([`Types::own_type`]) and is no list (a list is
/// built in that type); the one output, or `open field sep value, … close` over them all
/// (`Output(`, `=`, `)`).
pub fn answer(
    plan: &Plan,
    n: &Names,
    types: &Types,
    made: impl Fn(&str, &str, bool) -> String,
    [open, sep, close]: [&str; 3],
) -> String {
    let value = |v: VarId| {
        let x = &n.vars[v];
        match types.own_type(plan, n, v) {
            Some(t) if !plan.var(v).list => made(&t, x, plan.var(v).optional),
            _ => x.clone(),
        }
    };
    match plan.outputs.as_slice() {
        [one] => value(*one),
        outs => {
            let fields: Vec<String> = outs.iter().map(|&v| format!("{}{sep}{}", n.fields[v], value(v))).collect();
            format!("{open}{}{close}", fields.join(", "))
        }
    }
}

/// The ends of the declared range of `v`, where it has one, as a comment on it writes them:
/// an enum's by its values' names, any other's as its numbers.
pub fn range_ends(plan: &Plan, v: VarId) -> Option<(String, String)> {
    let var = plan.var(v);
    let (lo, hi) = var.range?;
    Some(match var.ty {
        BoundaryTy::Enum(e) => {
            let values = &plan.enums[e].values;
            (values[lo as usize].name.clone(), values[hi as usize].name.clone())
        }
        _ => (lo.to_string(), hi.to_string()),
    })
}

/// The inputs, each written by `each`, separated by commas.
pub fn inputs(plan: &Plan, each: impl Fn(VarId) -> String) -> String {
    let sequences = plan.sequences.iter().map(|s| s.list);
    plan.inputs.iter().copied().chain(sequences).map(each).collect::<Vec<_>>().join(", ")
}

/// The inputs as a call passes them on: their names.
pub fn args(plan: &Plan, n: &Names) -> String {
    inputs(plan, |v| n.vars[v].clone())
}

/// `list, rest`, or `rest` alone when the list is empty.
pub fn then(list: &str, rest: &str) -> String {
    if list.is_empty() {
        rest.to_string()
    } else {
        format!("{list}, {rest}")
    }
}

/// The public function, its traced twin, the wire door and the core, from a language's
/// template (see [`Code::template`]): each `{name}` one of `fills`, one of the rule's
/// functions (`{function}`, `{traced}`, `{wire}`, `{record}`, `{core}`), or else a local of
/// the generated code; a line holding only a [`Part`]'s name is where `part` writes it
/// (mostly [`super::walk::part`]).
pub fn functions(
    o: &mut Code,
    n: &Names,
    template: &str,
    fills: &[(&str, String)],
    mut part: impl FnMut(Part, &mut Code),
) {
    let value = |name: &str| Part::named(name).is_none().then(|| function_fill(n, fills, name));
    o.template(template, value, |name, o| part(Part::named(name).expect("a part's line"), o));
}

/// The four functions' signatures as `rulec api` gives them (the function, its traced twin,
/// the record function and the wire door), from a template of a line each, filled as
/// [`functions`] fills its.
pub fn signatures(n: &Names, template: &str, fills: &[(&str, String)]) -> [String; 4] {
    let lines: Vec<&str> = template.lines().collect();
    let lines: [&str; 4] = lines.try_into().expect("four signatures, a line each");
    lines.map(|t| text::fill_names(t, |name| Some(function_fill(n, fills, name))))
}

/// What `{name}` stands for in a function template: one of `fills`, one of the rule's
/// functions, or else a local of the generated code.
fn function_fill(n: &Names, fills: &[(&str, String)], name: &str) -> String {
    let own = text::fill_of(fills, name);
    let function = match name {
        "function" => Some(&n.function),
        "traced" => Some(&n.traced),
        "wire" => Some(&n.wire),
        "record" => Some(&n.record),
        "core" => Some(&n.core),
        _ => None,
    };
    own.or(function.map(String::as_str)).unwrap_or_else(|| n.local(name)).to_string()
}

/// What a rule is about, as the function's doc comment says it.
pub fn about(plan: &Plan) -> String {
    plan.rule.about.clone().unwrap_or_else(|| format!("rule {}", plan.rule.name))
}

/// The head of a generated file: the two header lines, then what the rule is about.
pub fn head(plan: &Plan, marker: &str) -> String {
    let mut o = text::header(plan, marker);
    if let Some(about) = &plan.rule.about {
        o.push_str(&format!("{marker}\n{}\n", format!("{marker} {}", comment(about)).trim_end()));
    }
    o
}

/// The module of each enums file the rule reads (`shared`, as [`super::Gen::shared`] names
/// them), the same bytes from every rule that reads the file: the two header lines behind
/// `marker` at indentation `unit`, then what `body` writes, given the enums file's plan.
pub fn enums_modules(
    plan: &Plan,
    shared: Vec<SharedNames>,
    (unit, marker): (&'static str, &str),
    body: impl Fn(Code, &SharedNames, &UsePlan) -> File,
) -> Vec<File> {
    let module = |s: SharedNames| {
        let u = &plan.uses[plan.enums[s.enums[0]].home.expect("a shared enum has a home")];
        let mut o = Code::new(unit);
        o.raw(&text::enums_header(u, marker));
        body(o, &s, u)
    };
    shared.into_iter().map(module).collect()
}

/// The units of a language that gives them no type of their own, as comments behind
/// `marker`: each one's name and what it is, its values the language's `int`; then a blank line.
pub fn unit_comments(o: &mut Code, plan: &Plan, n: &Names, marker: &str, int: &str) {
    for (u, name) in plan.units.iter().zip(&n.units) {
        o.line(format!("{marker} {name}: {} (an {int} of its unit)", comment(&u.what)));
    }
    if !plan.units.is_empty() {
        o.blank();
    }
}

/// Sections of a runtime file, each followed by `gap`.
pub fn sections(o: &mut Code, file: &str, mark: &str, names: &[&str], gap: &str) {
    for name in names {
        o.raw(section(file, mark, name));
        o.raw(gap);
    }
}

/// The place function of the ordered enum `e`, where the rule compares its values by place,
/// from the language's template: `{name}` the enum's name as a comment, `{rank}` the
/// function, `{enum}` the type, and a line `{places}` where `arm(member, place)` writes each.
pub fn rank_function(
    o: &mut Code,
    n: &Names,
    e: usize,
    template: &str,
    name: String,
    arm: impl Fn(&str, usize) -> String,
) {
    let Some(rank) = &n.ranks[e] else { return };
    let places: Vec<String> = n.members[e].iter().enumerate().map(|(i, m)| arm(m, i)).collect();
    let fills = [("name", name), ("rank", rank.clone()), ("enum", n.enums[e].clone()), ("places", places.join("\n"))];
    o.filled(template, &fills);
    o.blank();
}

/// How a language lays out what [`rest`] writes, where it differs from the most: the
/// runtime file it takes sections of, the blank lines after each part, the sections that
/// open the tail and what follows the record function. A `(file, mark)` pair is the common
/// layout ([`Tail::new`]).
#[derive(Clone, Copy)]
pub struct Tail<'a> {
    /// The runtime file and its section mark.
    pub file: &'a str,
    pub mark: &'a str,
    /// The blank lines after each part: one; two in Python (PEP 8).
    pub blanks: usize,
    /// The runtime's sections the tail opens with: its errors (in Rust the trace's row too).
    pub errors: &'a [&'a str],
    /// Placeholders of the runtime file, each with the text a section holds in its place.
    pub fills: &'a [(&'a str, &'a str)],
    /// What the module holds between the record function and the runtime's sections (in
    /// Rust the wire door and the core), each part followed by its blank line.
    pub after_record: Option<&'a dyn Fn(&mut Code)>,
}

impl<'a> Tail<'a> {
    pub const fn new(file: &'a str, mark: &'a str) -> Tail<'a> {
        Tail { file, mark, blanks: 1, errors: &["errors"], fills: &[], after_record: None }
    }

    /// Sections of the runtime file, each followed by the blank lines.
    pub fn sections(&self, o: &mut Code, names: &[&str]) {
        for name in names {
            let body = section(self.file, self.mark, name);
            match self.fills {
                [] => o.raw(body),
                fills => o.raw(&fills.iter().fold(body.to_string(), |b, (from, to)| b.replace(from, to))),
            }
            o.raw(&"\n".repeat(self.blanks + 1));
        }
    }

    fn blank(&self, o: &mut Code) {
        for _ in 0..self.blanks {
            o.blank();
        }
    }
}

impl<'a> From<(&'a str, &'a str)> for Tail<'a> {
    fn from((file, mark): (&'a str, &'a str)) -> Tail<'a> {
        Tail::new(file, mark)
    }
}

/// What a module holds after its types, in order: the runtime's errors, the boundary's
/// struct types (`types(o, role)`: the inputs' where the language declares one,
/// [`Types::input_type`], and the outputs' for a rule of several outputs), the four functions,
/// the record function (`record`: the language's template and the function's signature,
/// written over the language's hooks), what the language writes after it
/// ([`Tail::after_record`]) and the runtime's sections the rule takes; laid out as `tail` says.
pub fn rest<'t, 'g, G>(
    o: &mut Code,
    plan: &Plan,
    g: &'g G,
    tail: impl Into<Tail<'t>>,
    record: (&str, &str),
    types: impl Fn(&mut Code, Role),
    functions: impl FnOnce(&mut Code),
) where
    G: Spelled,
    for<'o> Body<'g, 'o, G>: Hooks,
{
    let tail = tail.into();
    tail.sections(o, tail.errors);
    let several = plan.outputs.len() > 1;
    for (role, declared) in [(Role::Input, g.types().input_type), (Role::Output, several)] {
        if declared {
            types(o, role);
            tail.blank(o);
        }
    }
    functions(o);
    stmt::record_function(plan, &mut Body { g, o: &mut *o }, record.0, record.1);
    // The record function ends with one blank line.
    for _ in 1..tail.blanks {
        o.blank();
    }
    if let Some(after) = tail.after_record {
        after(o);
    }
    tail.sections(o, &taken(plan, g.ops(), tail.file, tail.mark));
}

/// What a module needs a section of its runtime file for: it takes the section when its
/// rule does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    Always,
    /// A date crosses the boundary (the date type and its converters).
    Dates,
    /// Day numbers are computed: a date crosses the boundary, or one enters at the door.
    Days,
    /// An input of this wire kind enters at the door.
    Integer,
    Boolean,
    Text,
    Date,
    Enum,
    /// A date input with a declared range (its refusal shows the day as the wire writes it).
    RangedDate,
    /// An input that is not an integer (its refusal is not the integer check's).
    NotInteger,
    /// An input read as an integer: a number or a day.
    Counted,
    /// The rule has an input.
    Inputs,
    /// The rule has a table (a row that fires is traced).
    Tables,
    /// The rule declares an enum.
    Enums,
    /// A truth value crosses the boundary (an input or an output).
    Bools,
    /// A quotient rounds to the nearest, a tie some way.
    Halves,
    /// The rule walks a sequence (the door reads an array of objects, the guard each one).
    Walks,
    /// The least (or greatest) of two values or more, of numbers (or of an enum's members):
    /// a language whose operators do not say it takes it from its runtime (a `min` of one
    /// value is that value).
    Extreme {
        enums: bool,
        max: bool,
    },
}

impl Need {
    fn holds(self, plan: &Plan) -> bool {
        // What enters at the door: the inputs, and the fields of each sequence's elements.
        let fields = || plan.sequences.iter().flat_map(|s| &s.fields);
        let input = |k: fn(&WireKind) -> bool| {
            plan.door.inputs.iter().map(|i| i.kind).chain(fields().map(|f| f.kind)).any(|x| k(&x))
        };
        match self {
            Need::Always => true,
            Need::Dates => plan.dates,
            Need::Days => plan.dates || input(|k| *k == WireKind::Date),
            Need::Integer => input(|k| *k == WireKind::Integer),
            Need::Boolean => input(|k| *k == WireKind::Boolean),
            Need::Text => input(|k| *k == WireKind::Text),
            Need::Date => input(|k| *k == WireKind::Date),
            Need::RangedDate => {
                plan.door.inputs.iter().any(|i| i.kind == WireKind::Date && i.range.is_some())
                    || fields().any(|f| f.kind == WireKind::Date && f.range.is_some())
            }
            Need::Enum => input(|k| matches!(k, WireKind::Enum(_))),
            Need::NotInteger => input(|k| *k != WireKind::Integer),
            Need::Counted => input(|k| matches!(k, WireKind::Integer | WireKind::Date)),
            Need::Inputs => !plan.inputs.is_empty() || !plan.sequences.is_empty(),
            Need::Walks => !plan.sequences.is_empty(),
            Need::Tables => plan.tables().next().is_some(),
            Need::Enums => !plan.enums.is_empty(),
            Need::Bools => plan.inputs.iter().chain(&plan.outputs).any(|&v| plan.var(v).ty == BoundaryTy::Bool),
            Need::Halves => plan
                .helpers
                .iter()
                .any(|h| matches!(h, Helper::DivRound(RoundMode::HalfUp | RoundMode::HalfDown | RoundMode::HalfEven))),
            Need::Extreme { enums, max } => {
                let written = plan.nodes().into_iter().any(|e| match &e.node {
                    Node::Min(xs) | Node::Max(xs) => {
                        xs.len() > 1
                            && matches!(e.node, Node::Max(_)) == max
                            && matches!(e.kind, Kind::Enum(_)) == enums
                    }
                    _ => false,
                });
                // A collect table's minimum or maximum folds each value held into the result.
                let folded = plan.tables().any(|t| match (&t.collect, t.results.first()) {
                    (Some(c), Some(&r)) => {
                        let kind = matches!(plan.var(r).kind, Kind::Enum(_)) == enums;
                        kind && c.fold == if max { Fold::Max } else { Fold::Min }
                    }
                    _ => false,
                });
                written || folded
            }
        }
    }
}

/// The section of a helper in the runtime files (`div_round_floor`, `mod`, `isqrt`).
pub fn helper_section(h: Helper) -> String {
    match h {
        Helper::DivRound(m) => format!("div_round_{}", m.as_str()),
        Helper::Mod => "mod".into(),
        Helper::Isqrt => "isqrt".into(),
    }
}

/// Every helper a module may carry, in the order the helpers' runner lists them.
pub fn every_helper() -> Vec<String> {
    let quotients = RoundMode::ALL.iter().map(|&m| helper_section(Helper::DivRound(m)));
    quotients.chain(["mod".to_string(), "isqrt".to_string()]).collect()
}

/// What each section of the runtime files is for, by its name, the same in every language:
/// a module takes the section when its rule needs it. A section named neither here nor by a
/// helper is one the backend places itself (`errors`, the date type above the enums, …).
const NEEDS: &[(&str, Need)] = &[
    ("wire", Need::Always),
    ("fire", Need::Tables),
    ("json", Need::Always),
    ("json_str", Need::Always),
    ("object", Need::Always),
    ("record", Need::Always),
    ("unknown_key", Need::Always),
    ("append_int", Need::Always),
    ("append_json_string", Need::Always),
    ("append_bool", Need::Bools),
    ("append_date", Need::Dates),
    ("date_type", Need::Dates),
    ("date_str", Need::Dates),
    ("days", Need::Days),
    ("wire_get", Need::Inputs),
    ("wire_int", Need::Integer),
    ("wire_bool", Need::Boolean),
    ("wire_str", Need::Text),
    ("wire_day", Need::Date),
    ("wire_member", Need::Enum),
    ("refuse", Need::NotInteger),
    ("check_int", Need::Counted),
    ("check_day", Need::RangedDate),
    ("shown_day", Need::RangedDate),
    ("parse_member", Need::Enums),
    ("halfway", Need::Halves),
    ("walk", Need::Walks),
    ("min_int", Need::Extreme { enums: false, max: false }),
    ("max_int", Need::Extreme { enums: false, max: true }),
    ("min_enum", Need::Extreme { enums: true, max: false }),
    ("max_enum", Need::Extreme { enums: true, max: true }),
];

/// The helpers the code calls as the language writes it: the plan's, but a rounded quotient
/// the language writes in place everywhere it stands ([`Ops::quotient_in_place`]).
fn called(plan: &Plan, ops: &Ops) -> BTreeSet<Helper> {
    let mut called = BTreeSet::new();
    plan.each_expr(&mut |e| match &e.node {
        Node::DivRound(_, d, m) if !ops.quotient_in_place(d, *m) => {
            called.insert(Helper::DivRound(*m));
        }
        _ => {}
    });
    let quotient = |h: &&Helper| matches!(h, Helper::DivRound(_));
    called.extend(plan.helpers.iter().filter(|h| !quotient(h)));
    called
}

/// The names of a runtime file's sections (behind `mark`), in the file's order.
pub fn section_names<'f>(file: &'f str, mark: &str) -> impl Iterator<Item = &'f str> {
    let mark = format!("{mark} ");
    file.lines().filter_map(move |l| l.strip_prefix(mark.as_str()).map(str::trim))
}

/// The sections of a runtime `file` a module takes, in the file's order: those [`NEEDS`]
/// says the rule needs and the helpers the rule calls.
pub fn taken<'f>(plan: &Plan, ops: &Ops, file: &'f str, mark: &str) -> Vec<&'f str> {
    let helpers: Vec<String> = called(plan, ops).into_iter().map(helper_section).collect();
    section_names(file, mark)
        .filter(|name| NEEDS.iter().any(|(n, need)| n == name && need.holds(plan)) || helpers.iter().any(|h| h == name))
        .collect()
}

/// The sections of every helper a module may carry, each followed by `gap` but the last:
/// what the helpers' runner of a language holds to the unit vectors. A file whose quotients
/// rounded to the nearest share a section `halfway` holds it after the quotients.
pub fn helpers_text(file: &str, mark: &str, gap: &str) -> String {
    let mut helpers = every_helper();
    if section_names(file, mark).any(|name| name == "halfway") {
        helpers.insert(RoundMode::ALL.len(), "halfway".into());
    }
    helpers.iter().map(|h| section(file, mark, h)).collect::<Vec<_>>().join(gap)
}

/// A template filled in: `prolog` (a line the language wants first; the template's own is
/// taken off), then `head`, then the template with every placeholder replaced.
pub fn fill(prolog: &str, head: &str, template: &str, fills: &[(&str, &str)]) -> String {
    let mut body = template.strip_prefix(prolog).unwrap_or(template).to_string();
    for (placeholder, value) in fills {
        body = body.replace(placeholder, value);
    }
    format!("{prolog}{head}{body}")
}

/// A rule's runner from its template: the generated file's header and a blank comment line
/// before it (see [`fill`]).
pub fn runner(plan: &Plan, marker: &str, prolog: &str, template: &str, fills: &[(&str, &str)]) -> String {
    fill(prolog, &format!("{}{marker}\n", text::header(plan, marker)), template, fills)
}

/// The runner of the helpers' unit vectors from its template: `placeholder` becomes every
/// helper a module may carry (the sections of `module` behind `mark`).
pub fn helpers_runner(
    marker: &str,
    prolog: &str,
    template: &str,
    placeholder: &str,
    module: &str,
    mark: &str,
) -> String {
    let helpers = helpers_text(module, mark, "\n\n");
    fill(prolog, &format!("{marker} Code generated by rulec. DO NOT EDIT.\n"), template, &[(placeholder, &helpers)])
}
