//! The Ruby backend (generated-code.md, Ruby): it spells the plan. A module named after the
//! rule with module methods; an enum is a module of frozen String constants with `ALL`;
//! `Struct` Output (not `Data`, which 3.1 lacks); `RuleInputError < ArgumentError`,
//! `RuleContradictionError < RuntimeError`; Integer everywhere. The module requires nothing;
//! the runner requires only json. `sig/<alias>.rbs` ships beside it. The fixed text is
//! `runtime/module.rb`.

use super::api::{Dates, Functions, Member, Spelling, ERRORS, ERROR_TYPES};
use super::naming::{self, SharedNames};
use super::plan::{EnumPlan, Expr, InputDoor, Kind, Node};
use super::printer::{text, Extremes, Form, Ops, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{self, Blocks, Body, Refusal};
use super::text::{comment, quoted, section, Code, Escapes};
use super::walk::{self, Check, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
use crate::sema::VarId;
use serde_json::json;

const MODULE: &str = include_str!("runtime/module.rb");
const RUNNER: &str = include_str!("runtime/runner.rb");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.rb");
const MARK: &str = "  # rulec:";
const PROLOG: &str = "# frozen_string_literal: true\n\n";

/// Ruby's types as its RBS signatures write them: an Integer for every number and day, an
/// enum the alias of the union of its values.
const TYPES: Types = Types { enum_type: Some(enum_alias), ..Types::plain("bool", "String", "Integer", "@?") };

/// The RBS type alias of an enum: the union of its values.
fn enum_alias(name: &str) -> String {
    crate::lang::Case::Lower.apply(name).replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_")
}

pub struct Ruby;

impl Language for Ruby {
    const SPEC: Spec = Spec::new(Lang::Ruby, "rb", OPS, TYPES);

    fn code(r: &Rb) -> [String; 3] {
        [r.module(), r.runner(), helpers_runner()]
    }

    fn more_files(r: &Rb) -> Vec<File> {
        let mut files = vec![File { path: format!("sig/{}.rbs", r.plan.rule.base), text: r.rbs() }];
        files.extend(r.shared_modules());
        files
    }

    fn runner(base: &str) -> Runner {
        Runner::script("ruby", &[], format!("{base}_runner.rb"))
    }

    fn api(r: &Rb, _: &Unit) -> serde_json::Value {
        let (plan, n) = (r.plan, r.n);
        let spell = Spelling { names: n, ty: &|v| r.rbs_type(v), member: Member::Qualified("::") };
        let (args, module) = (r.args(), &n.module);
        let (call, tag) = (n.local("call"), n.local("tag"));
        let signatures = [
            format!("{module}.{}({args})", n.function),
            format!("{module}.{}({args})", n.traced),
            format!("{module}.{}({})", n.record, sig::then(&args, &r.record_params())),
            format!("{module}.{}({call}, {tag} = \"\")", n.wire),
        ];
        let place = vec![("module", json!(module)), ("file", json!(format!("{}.rb", plan.rule.base)))];
        let more = vec![("rbs", json!(format!("sig/{}.rbs", plan.rule.base)))];
        let dates = Dates { ty: "Integer", from_wire: "date_from_wire", from_native: Some("date_of") };
        let mut entry = spell.functions(
            plan,
            &r.returns(),
            Functions { place, signatures, more, dates, errors: ERRORS, error_types: ERROR_TYPES },
        );
        // An enum of an enums file is declared in that file's module; the rule's module names it.
        for s in r.shared() {
            super::api::shared_enums(
                &mut entry,
                &s,
                &[("file", format!("{}.rb", s.file)), ("module", s.module.clone())],
            );
        }
        entry
    }
}

/// A Ruby double-quoted string for any text: `"`, `\` and `#` escaped (so nothing
/// interpolates), control characters as `\u{…}`.
fn rb_str(s: &str) -> String {
    const RUBY: Escapes = Escapes {
        spelled: &[('\\', "\\\\"), ('#', "\\#"), ('\n', "\\n"), ('\r', "\\r"), ('\t', "\\t")],
        ..Escapes::c_family(|c| format!("\\u{{{c:x}}}"))
    };
    quoted(s, &RUBY)
}

/// Ruby's spellings. Its `/` is the floor.
const OPS: Ops = Ops {
    prec: Prec { cond: 1, or: 2, and: 3, eq: 4, rel: 5, add: 6, mul: 7, neg: 8, not: 9 },
    absent: "nil",
    member: Some("::"),
    div_floors: true,
    extremes: Extremes::Own,
    ..Ops::c_family(rb_str)
};

type Rb<'a> = Gen<'a, Ruby>;

/// An enum: a module of its members (each its value's name) and `ALL`, in order.
fn enum_module(o: &mut Code, en: &EnumPlan, ty: &str, members: &[String]) {
    let values = members.iter().zip(&en.values).map(|(m, v)| format!("{m} = {}", rb_str(&v.name)));
    let fills = [
        ("what", comment(&en.name)),
        ("name", ty.to_string()),
        ("members", values.collect::<Vec<_>>().join("\n")),
        ("all", members.join(", ")),
    ];
    o.filled(ENUM, &fills);
}

/// An enum's signature: the type alias of the union of its values, and its module.
fn enum_signature(o: &mut Code, en: &EnumPlan, ty: &str, members: &[String]) {
    let values: Vec<String> = en.values.iter().map(|v| rb_str(&v.name)).collect();
    o.line(format!("type {} = {}", enum_alias(ty), values.join(" | ")));
    o.line(format!("module {ty}"));
    for (m, v) in members.iter().zip(&en.values) {
        o.line(format!("  {m}: {}", rb_str(&v.name)));
    }
    o.line(format!("  ALL: Array[{}]", enum_alias(ty)));
    o.line("end");
}

/// The module's head: the generated file's header, then the module (`{module}`) opened.
const HEAD: &str = "{head}
#
# Every number is an Integer in the unit its parameter's comment names; nothing is required.

{requires}
module {module}";

/// An enums file's own module: its enums, for every rule that reads it to require.
const SHARED_HEAD: &str = "{head}
#
# The enums every rule reading {source} shares: require_relative \"{file}\"; then {module}::{first}.

module {module}";

/// An enum: a module of its members (each its value's name) and `ALL`, in order.
/// The place function of an ordered enum: its place in `ALL`.
const RANK: &str = "# The place of a value of the ordered enum {name}, from 0.
def self.{rank}(value)
  {enum}::ALL.index(value)
end";

const ENUM: &str = "# enum {what}: each member is the value's name as the wire and the records write it.
module {name}
  {members}
  ALL = [{all}].freeze
end";

/// The record function (`stmt::record_function`) around its pieces: the runtime's `_record_open` and `_record_close`.
const RECORD: &str =
    "# One call as a fixtures record (formats.md), the line `rulec replay` reads; an empty tag is left out.
{signature}
  {s} = _record_open({tag})
  {pieces}
  _record_close({s}, {trace})
end";

/// The function, its traced twin and the wire door, over the core (see [`sig::functions`]).
const FUNCTIONS: &str = r#"def self.{function}({args})
  {core}({args})[0]
end

# The same call, with the rows that matched: one per table, in evaluation order.
def self.{traced}({args})
  {_out}, {_rows} = {core}({args})
  [{_out}, {fired}]
end

# One call in the wire form (formats.md), a Hash of the inputs under their declared names:
# the door's checks in the reference's order, then the rule; the record line.
def self.{wire}({call}, {tag} = "")
  raise RuleInputError.new({not_an_object}) unless {call}.is_a?(Hash)

  {door}
  {_out}, {_rows} = {core}({args})
  {record}({record_args})
end

# The rule's branches, written once: the outputs, and the row each table matched.
def self.{core}({args})
  {rule}
  [{answer}, [{slots}]]
end"#;

impl Syntax for Rb<'_> {
    fn own(&self, e: &Expr) -> Option<Form> {
        Some(match &e.node {
            // `[a, b].min`, `[a, b].min_by { |_v| rank(_v) }`.
            Node::Min(xs) | Node::Max(xs) => {
                let which = if matches!(e.node, Node::Min(_)) { "min" } else { "max" };
                let mut parts = vec![text("[")];
                for i in 0..xs.len() {
                    if i > 0 {
                        parts.push(text(", "));
                    }
                    parts.push(Part::Kid(i, TOP));
                }
                match e.kind {
                    Kind::Enum(en) => parts.push(Part::Text(format!("].{which}_by {{ |_v| {}(_v) }}", self.rank(en)))),
                    _ => parts.push(Part::Text(format!("].{which}"))),
                }
                Form::Parts(parts, ATOM)
            }
            Node::IsNone(v) => Form::Leaf(format!("{}.nil?", self.n.vars[*v]), ATOM),
            Node::Not(x) => match x.node {
                Node::IsNone(v) => Form::Leaf(format!("!{}.nil?", self.n.vars[v]), OPS.prec.not),
                _ => return None,
            },
            _ => return None,
        })
    }
}

impl Rb<'_> {
    fn rbs_type(&self, v: VarId) -> String {
        TYPES.local(self.plan, self.n, v)
    }

    /// The record function's own parameters, after the inputs.
    fn record_params(&self) -> String {
        let l = |b| self.n.local(b);
        format!("{}, {}, {} = \"\"", l("out"), l("trace"), l("tag"))
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("  ");
        o.raw(PROLOG);
        let head = sig::head(plan, "#");
        let head = head.strip_suffix('\n').unwrap_or(&head).to_string();
        let shared: Vec<SharedNames> = self.shared();
        let requires: Vec<String> = shared.iter().map(|s| format!("require_relative {}\n", rb_str(&s.file))).collect();
        o.filled(HEAD, &[("head", head), ("requires", requires.concat()), ("module", n.module.clone())]);
        o.indent();
        sig::unit_comments(&mut o, plan, n, "#", TYPES.int);
        for (e, en) in plan.enums.iter().enumerate() {
            match shared.iter().find_map(|s| s.enums.iter().position(|&x| x == e).map(|k| (s, k))) {
                // Named here, the module that file's own module declares: one object whichever
                // rule's name a caller reaches it by.
                Some((s, k)) => {
                    let what = comment(&en.name);
                    o.line(format!("# enum {what}: declared in {}.rb, which every rule reading it shares.", s.file));
                    o.line(format!("{} = ::{}::{}", n.enums[e], s.module, s.types[k]));
                }
                None => enum_module(&mut o, en, &n.enums[e], &n.members[e]),
            }
            o.blank();
            sig::rank_function(&mut o, n, e, RANK, comment(&en.name), |_, _| String::new());
        }
        sig::sections(&mut o, MODULE, MARK, &["errors"], "\n\n");
        if plan.outputs.len() > 1 {
            let fields: Vec<String> = plan.outputs.iter().map(|&v| format!(":{}", n.fields[v])).collect();
            o.line("# The outputs, in the order the rule declares them.");
            o.line(format!("Output = Struct.new({})", fields.join(", ")));
            o.blank();
        }
        self.functions(&mut o);
        let signature = format!("def self.{}({})", n.record, sig::then(&self.args(), &self.record_params()));
        stmt::record_function(plan, &mut Body { g: self, o: &mut o }, RECORD, &signature);
        let helpers = sig::taken(plan, &OPS, MODULE, MARK);
        sig::sections(&mut o, MODULE, MARK, &helpers, "\n\n");
        let mut private = vec![n.core.clone()];
        for h in &helpers {
            let sec = section(MODULE, MARK, h);
            private.extend(
                sec.lines()
                    .filter_map(|l| l.trim().strip_prefix("def self._"))
                    .map(|d| format!("_{}", d.split('(').next().unwrap_or(d))),
            );
        }
        private.extend(n.ranks.iter().flatten().cloned());
        let syms: Vec<String> = private.iter().map(|p| format!(":{p}")).collect();
        o.line(format!("private_class_method {}", syms.join(", ")));
        o.close("end");
        o.finish()
    }

    fn fired(&self) -> String {
        sig::fired(self.plan, self.n.local("_rows"), "[@]", |table, row| format!("Fired.new({}, {row})", rb_str(table)))
    }

    /// The names of the module of each enums file the rule reads enums from.
    fn shared(&self) -> Vec<SharedNames> {
        let all = (0..self.plan.uses.len()).map(|home| naming::shared(self.plan, Lang::Ruby, home));
        all.filter(|s| !s.enums.is_empty()).collect()
    }

    /// The module of each enums file the rule reads, and its signature: the same bytes from
    /// every rule that reads the file, so a folder holds them once.
    fn shared_modules(&self) -> Vec<File> {
        let mut files = Vec::new();
        for s in self.shared() {
            let home = self.plan.enums[s.enums[0]].home.expect("a shared enum has a home");
            let u = &self.plan.uses[home];
            let head = super::text::enums_header(u, "#");
            let mut o = Code::new("  ");
            o.raw(PROLOG);
            let fills = [
                ("head", head.trim_end().to_string()),
                ("source", comment(&u.source_name)),
                ("file", s.file.clone()),
                ("module", s.module.clone()),
                ("first", s.types[0].clone()),
            ];
            o.filled(SHARED_HEAD, &fills);
            o.indent();
            for (i, ((&e, ty), members)) in s.enums.iter().zip(&s.types).zip(&s.members).enumerate() {
                if i > 0 {
                    o.blank();
                }
                enum_module(&mut o, &self.plan.enums[e], ty, members);
            }
            o.close("end");
            files.push(File { path: format!("{}.rb", s.file), text: o.finish() });
            let mut o = Code::new("  ");
            o.raw(&head);
            o.blank();
            o.line(format!("module {}", s.module));
            o.indent();
            for (i, ((&e, ty), members)) in s.enums.iter().zip(&s.types).zip(&s.members).enumerate() {
                if i > 0 {
                    o.blank();
                }
                enum_signature(&mut o, &self.plan.enums[e], ty, members);
            }
            o.close("end");
            files.push(File { path: format!("sig/{}.rbs", s.file), text: o.finish() });
        }
        files
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let args = self.args();
        let l = |b| n.local(b);
        let (out, tag) = (l("_out"), l("tag"));
        o.line(format!("# {}", comment(&sig::about(plan))));
        for &v in &plan.inputs {
            let var = plan.var(v);
            o.line(format!("# - {}: {}{}", n.vars[v], comment(&var.what), if var.optional { ", or nil" } else { "" }));
        }
        let answer = match plan.outputs.as_slice() {
            [one] => n.vars[*one].clone(),
            outs => format!("Output.new({})", outs.iter().map(|&v| n.vars[v].clone()).collect::<Vec<_>>().join(", ")),
        };
        let fills = [
            ("args", args.clone()),
            ("fired", self.fired()),
            ("not_an_object", rb_str(&plan.door.not_an_object)),
            ("record_args", sig::then(&args, &format!("{out}, {}, {tag}", self.fired()))),
            ("answer", answer),
            ("slots", n.slots.join(", ")),
        ];
        sig::functions(o, n, FUNCTIONS, &fills, |part, o| walk::part(plan, Lang::Ruby, part, &mut Body { g: self, o }));
        o.blank();
    }

    fn runner(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let fills = [("rulec_rule", plan.rule.base.as_str()), ("RulecRule", &n.module), ("rulec_wire", &n.wire)];
        sig::runner(plan, "#", PROLOG, RUNNER, &fills)
    }

    fn rbs(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("  ");
        o.raw(&super::text::header(plan, "#"));
        o.blank();
        o.line(format!("module {}", n.module));
        o.indent();
        let shared = self.shared();
        for (e, en) in plan.enums.iter().enumerate() {
            match shared.iter().find_map(|s| s.enums.iter().position(|&x| x == e).map(|k| (s, k))) {
                Some((s, k)) => {
                    let (here, there) = (&n.enums[e], &s.types[k]);
                    o.line(format!("type {} = ::{}::{}", enum_alias(here), s.module, enum_alias(there)));
                    o.line(format!("{here}: singleton(::{}::{there})", s.module));
                    o.blank();
                }
                None => {
                    enum_signature(&mut o, en, &n.enums[e], &n.members[e]);
                    o.blank();
                }
            }
        }
        for line in [
            "class RuleInputError < ArgumentError",
            "  attr_reader what: String",
            "  attr_reader value: untyped",
            "  def initialize: (String what, ?untyped value) -> void",
            "end",
            "",
            "class RuleContradictionError < RuntimeError",
            "  attr_reader what: String",
            "  def initialize: (String what) -> void",
            "end",
            "",
            "class Fired < Struct[untyped]",
            "  attr_accessor table: String",
            "  attr_accessor row: Integer",
            "  def self.new: (String table, Integer row) -> Fired",
            "end",
            "",
            "class WireNumber",
            "  attr_reader text: String",
            "  def initialize: (String text) -> void",
            "end",
        ] {
            o.line(line);
        }
        o.blank();
        let ret = self.returns();
        if plan.outputs.len() > 1 {
            o.line("class Output < Struct[untyped]");
            for &v in &plan.outputs {
                o.line(format!("  attr_accessor {}: {}", n.fields[v], self.rbs_type(v)));
            }
            let ps: Vec<String> =
                plan.outputs.iter().map(|&v| format!("{} {}", self.rbs_type(v), n.fields[v])).collect();
            o.line(format!("  def self.new: ({}) -> Output", ps.join(", ")));
            o.line("end");
            o.blank();
        }
        let params = sig::inputs(plan, |v| format!("{} {}", self.rbs_type(v), n.vars[v]));
        let with = |rest: &str| sig::then(&params, rest);
        o.line(format!("def self.{}: ({params}) -> {ret}", n.function));
        o.line(format!("def self.{}: ({params}) -> [{ret}, Array[Fired]]", n.traced));
        o.line(format!(
            "def self.{}: ({}) -> String",
            n.record,
            with(&format!("{ret} {}, Array[Fired] {}, ?String? {}", n.local("out"), n.local("trace"), n.local("tag")))
        ));
        o.line(format!("def self.{}: (untyped {}, ?String? {}) -> String", n.wire, n.local("call"), n.local("tag")));
        if plan.dates {
            o.line("def self.date_from_wire: (String text) -> Integer");
            o.line("def self.date_of: (untyped day) -> Integer");
        }
        o.close("end");
        o.finish()
    }
}

impl Body<'_, '_, Rb<'_>> {
    fn in_range(&self, input: &InputDoor, x: &str) -> Option<String> {
        let r = input.range.as_ref()?;
        Some(match input.kind {
            WireKind::Enum(e) => {
                let rank = self.g.rank(e);
                format!("{rank}({x}).between?({}, {})", r.lo, r.hi)
            }
            _ => format!("{x} >= {} && {x} <= {}", r.lo, r.hi),
        })
    }

    fn range_check(&mut self, input: &InputDoor, x: &str) {
        if let (Some(r), Some(cond)) = (&input.range, self.in_range(input, x)) {
            // A day is shown as the wire writes it, not as its day number.
            let shown = if input.kind == WireKind::Date { format!("_date_str({x})") } else { format!("{x}.inspect") };
            let refusal = self.refusal(Refusal::Input(&r.sentence, Some(&shown)));
            self.o.line(format!("{refusal} unless {cond}"));
        }
    }

    /// The checks of one value `x` already read, in the door's order (from JSON when `wire`).
    fn checks(&mut self, input: &InputDoor, x: &str, wire: bool) {
        let (m, k) = (rb_str(&input.missing), rb_str(&input.not_of_kind));
        match input.kind {
            WireKind::Date if wire => {
                self.o.line(format!("{x} = _wire_day({x}, {m}, {k})"));
                self.range_check(input, x);
            }
            WireKind::Date if input.range.is_some() => {
                // The kind through _check_int, the range apart: its refusal shows the date.
                self.o.line(format!(
                    "{x} = _check_int({x}, nil, nil, {m}, {k}, {}) unless {x}.instance_of?(Integer)",
                    rb_str("")
                ));
                self.range_check(input, x);
            }
            WireKind::Integer | WireKind::Date => {
                let fast = match self.in_range(input, x) {
                    Some(c) => format!("{x}.instance_of?(Integer) && {c}"),
                    None => format!("{x}.instance_of?(Integer)"),
                };
                self.o.line(format!("{x} = _check_int({x}, {}) unless {fast}", self.check_int_args(input)));
            }
            WireKind::Enum(e) if wire => {
                self.o.line(format!("{x} = _wire_member({}::ALL, {x}, {m}, {k})", self.g.n.enums[e]));
                self.range_check(input, x);
            }
            WireKind::Enum(e) => {
                self.o.line(format!("_refuse({x}, {m}, {k}) unless {}::ALL.include?({x})", self.g.n.enums[e]));
                self.range_check(input, x);
            }
            WireKind::Boolean => {
                self.o.line(format!("_refuse({x}, {m}, {k}) unless {x}.equal?(true) || {x}.equal?(false)"))
            }
            WireKind::Text => self.o.line(format!("_refuse({x}, {m}, {k}) unless {x}.is_a?(String)")),
        }
    }

    fn optional(&mut self, input: &InputDoor, x: &str, wire: bool) {
        if input.optional {
            self.o.line(format!("unless {x}.nil?"));
            self.o.indent();
            self.checks(input, x, wire);
            self.o.close("end");
        } else {
            self.checks(input, x, wire);
        }
    }
}

impl Hooks for Body<'_, '_, Rb<'_>> {
    crate::spelled_by!(g);
    /// A refusal stands on one line, behind its test.
    const BLOCKS: Blocks = Blocks { behind: Some([" if ", " unless "]), ..Blocks::KEYWORDS };
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = "bool: {x}.to_s
str: _json_str({x})
enum: _json_str({x})
date: _date_str({x})
int: {x}.to_s
unit: {x}.to_s
required: {s} << {one}
optional: {s} << ({x}.nil? ? \"null\" : {one})";

    fn guard_input(&mut self, input: &InputDoor, checks: &[Check]) {
        debug_assert!(checks.contains(&Check::Kind), "Ruby checks the kind of every parameter");
        let x = self.g.n.vars[input.var].clone();
        self.optional(input, &x, false);
    }

    fn wire_input(&mut self, input: &InputDoor) {
        let x = self.g.n.vars[input.var].clone();
        self.o.line(format!("{x} = {}[{}]", self.g.n.local("call"), rb_str(&input.name)));
        self.optional(input, &x, true);
    }

    fn wire_unknown_keys(&mut self, names: &[&str], sentence: &str) {
        let keys: Vec<String> = names.iter().map(|k| rb_str(k)).collect();
        let (call, key) = (self.g.n.local("call"), self.g.n.local("_key"));
        self.o.line(format!("{call}.each_key do |{key}|"));
        self.o.line(format!(
            "  raise RuleInputError.new({key}.to_s + {}) unless [{}].include?({key})",
            rb_str(sentence),
            keys.join(", ")
        ));
        self.o.line("end");
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} << {}", self.g.n.local("s"), rb_str(json)));
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("#", PROLOG, HELPERS_RUNNER, "  # rulec: helpers", MODULE, MARK)
}
