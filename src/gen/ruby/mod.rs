//! The Ruby backend (generated-code.md, Ruby): it spells the plan. A module named after the
//! rule with module methods; an enum is a module of frozen String constants with `ALL`;
//! `Struct` Output (not `Data`, which 3.1 lacks); `RuleInputError < ArgumentError`,
//! `RuleContradictionError < RuntimeError`; Integer everywhere. The module requires nothing;
//! the runner requires only json. `sig/<alias>.rbs` ships beside it. The fixed text is
//! `runtime/module.rb`.

mod walks;

use super::api::{Dates, Functions, Member, Spelling, ERRORS, ERROR_TYPES};
use super::naming::SharedNames;
use super::plan::{EnumPlan, Expr, Kind, Node};
use super::printer::{text, Extremes, Form, Ops, Part, Prec, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body};
use super::text::{comment, quoted, section, Code, Escapes};
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::sema::VarId;
use crate::syntax::ast::CmpOp;
use serde_json::json;

const MODULE: &str = include_str!("runtime/module.rb");
const RUNNER: &str = include_str!("runtime/runner.rb");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.rb");
/// The signatures of the runtime's types and functions every module declares.
const SIGNATURES_RBS: &str = include_str!("runtime/module.rbs");
const MARK: &str = "  # rulec:";
const TEMPLATES: &str = include_str!("runtime/templates.tmpl");
const PROLOG: &str = "# frozen_string_literal: true\n\n";

/// Ruby's types as its RBS signatures write them: an Integer for every number and day, an
/// enum the alias of the union of its values.
const TYPES: Types =
    Types { enum_type: Some(enum_alias), ..Types::plain("bool", "String", "Integer", "@?", "Array[@]") };

/// The RBS type alias of an enum: the union of its values.
fn enum_alias(name: &str) -> String {
    crate::lang::Case::Lower.apply(name).replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_")
}

pub struct Ruby;

impl Language for Ruby {
    const SPEC: Spec = Spec::new(Lang::Ruby, "rb", OPS, TYPES);
    const WALKS: bool = true;

    fn code(r: &Rb) -> [String; 3] {
        [r.module(), r.runner(), helpers_runner()]
    }

    fn more_files(r: &Rb) -> Vec<File> {
        vec![File { path: format!("sig/{}.rbs", r.plan.rule.base), text: r.rbs() }]
    }

    fn shared_files(r: &Rb) -> Vec<File> {
        r.shared_modules()
    }

    fn runner(base: &str) -> Runner {
        Runner::script("ruby", &[], format!("{base}_runner.rb"))
    }

    fn api(r: &Rb, _: &Unit) -> serde_json::Value {
        let (plan, n) = (r.plan, r.n);
        let spell = Spelling { names: n, ty: &|v| r.rbs_type(v), member: Member::Qualified("::") };
        let (args, module) = (r.args(), &n.module);
        let fills = [("module", module.clone()), ("record_args", sig::then(&args, &r.record_params())), ("args", args)];
        let signatures = sig::signatures(n, template("signatures"), &fills);
        let place = vec![("module", json!(module)), ("file", json!(format!("{}.rb", plan.rule.base)))];
        let more = vec![("rbs", json!(format!("sig/{}.rbs", plan.rule.base)))];
        let dates = Dates { ty: "Integer", from_wire: "date_from_wire", from_native: Some("date_of") };
        let mut entry = spell.functions(
            plan,
            &r.returns(),
            Functions { place, signatures, more, dates, errors: ERRORS, error_types: ERROR_TYPES },
        );
        // An enum of an enums file is declared in that file's module; the rule's module names it.
        super::api::shared_enums(&mut entry, &r.shared(), |s| {
            vec![("file", format!("{}.rb", s.file)), ("module", s.module.clone())]
        });
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

/// The template `name` of `runtime/templates.tmpl`.
fn template(name: &str) -> &'static str {
    section(TEMPLATES, "# rulec:", name)
}

/// An enum: a module of its members (each its value's name) and `ALL`, in order.
fn enum_module(o: &mut Code, en: &EnumPlan, ty: &str, members: &[String]) {
    let values = members.iter().zip(&en.values).map(|(m, v)| format!("{m} = {}", rb_str(&v.name)));
    let fills = [
        ("what", comment(&en.name)),
        ("name", ty.to_string()),
        ("members", values.collect::<Vec<_>>().join("\n")),
        ("all", members.join(", ")),
    ];
    o.filled(template("enum"), &fills);
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
            // A member within the bounds of an ordered enum, by its place.
            Node::And(a, b) => match (&a.node, &b.node) {
                (Node::Cmp(CmpOp::Ge, x, lo), Node::Cmp(CmpOp::Le, y, hi)) if x == y => {
                    let (Kind::Enum(en), Node::Member(lo), Node::Member(hi)) = (x.kind, &lo.node, &hi.node) else {
                        return None;
                    };
                    let rank = Part::Text(format!("{}(", self.rank(en)));
                    Form::Parts(
                        vec![rank, Part::Expr((**x).clone(), TOP), Part::Text(format!(").between?({lo}, {hi})"))],
                        ATOM,
                    )
                }
                _ => return None,
            },
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
        TYPES.boundary(self.plan, self.n, v)
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
        o.filled(template("head"), &[("head", head), ("requires", requires.concat()), ("module", n.module.clone())]);
        o.indent();
        sig::unit_comments(&mut o, plan, n, "#", TYPES.int);
        for (e, en) in plan.enums.iter().enumerate() {
            match self.shared_of(e) {
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
            sig::rank_function(&mut o, n, e, template("rank"), comment(&en.name), |_, _| String::new());
        }
        self.elements(&mut o);
        let signature = format!("def self.{}({})", n.record, sig::then(&self.args(), &self.record_params()));
        let output = |o: &mut Code, _| {
            let fields: Vec<String> = plan.outputs.iter().map(|&v| format!(":{}", n.fields[v])).collect();
            o.line("# The outputs, in the order the rule declares them.");
            o.line(format!("Output = Struct.new({})", fields.join(", ")));
        };
        sig::rest(&mut o, plan, self, (MODULE, MARK), (template("record"), &signature), output, |o| self.functions(o));
        let helpers = sig::taken(plan, &OPS, MODULE, MARK);
        let mut private = vec![n.core.clone()];
        private.extend(self.element_functions());
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

    /// The enums file enum `e` is declared in, and its place there, where it has one.
    fn shared_of(&self, e: usize) -> Option<(SharedNames, usize)> {
        SharedNames::of(&self.shared(), e).map(|(s, k)| (s.clone(), k))
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
            o.filled(template("shared_head"), &fills);
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
            ("untraced", sig::then(&args, "nil")),
            ("traced_args", sig::then(&args, l("trace"))),
            ("args", args.clone()),
            ("not_an_object", rb_str(&plan.door.not_an_object)),
            ("record_args", sig::then(&args, &format!("{out}, {}, {tag}", l("trace")))),
            ("answer", answer),
        ];
        sig::functions(o, n, template("functions"), &fills, |part, o| {
            walk::part(plan, Lang::Ruby, part, &mut Body { g: self, o })
        });
        o.blank();
    }

    fn runner(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let fills = [("rulec_rule", plan.rule.base.as_str()), ("RulecRule", &n.module), ("rulec_wire", &n.wire)];
        sig::runner(plan, "#", PROLOG, RUNNER, &fills)
    }

    fn rbs(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut enums = Code::new("  ");
        for (e, en) in plan.enums.iter().enumerate() {
            match self.shared_of(e) {
                Some((s, k)) => {
                    let (here, there) = (&n.enums[e], &s.types[k]);
                    enums.line(format!("type {} = ::{}::{}", enum_alias(here), s.module, enum_alias(there)));
                    enums.line(format!("{here}: singleton(::{}::{there})", s.module));
                }
                None => enum_signature(&mut enums, en, &n.enums[e], &n.members[e]),
            }
            enums.blank();
        }
        let typed = |v: VarId| format!("{} {}", self.rbs_type(v), n.fields[v]);
        let output = match plan.outputs.len() {
            1 => String::new(),
            _ => {
                let fields =
                    plan.outputs.iter().map(|&v| format!("  attr_accessor {}: {}\n", n.fields[v], self.rbs_type(v)));
                let ps: Vec<String> = plan.outputs.iter().map(|&v| typed(v)).collect();
                let new = format!("  def self.new: ({}) -> Output", ps.join(", "));
                format!("class Output < Struct[untyped]\n{}{new}\nend\n", fields.collect::<String>())
            }
        };
        // Each sequence's element, a Struct of its fields.
        let elements: String = plan
            .sequences
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let record = &n.records[k];
                let fields: String = s
                    .fields
                    .iter()
                    .map(|f| format!("  attr_accessor {}: {}\n", n.fields[f.var], self.rbs_type(f.var)))
                    .collect();
                let ps: Vec<String> = s.fields.iter().map(|f| typed(f.var)).collect();
                format!(
                    "class {record} < Struct[untyped]\n{fields}  def self.new: ({}) -> {record}\nend\n",
                    ps.join(", ")
                )
            })
            .collect();
        let output = output + &elements;
        let params = sig::inputs(plan, |v| format!("{} {}", self.rbs_type(v), n.vars[v]));
        let ret = self.returns();
        let trace = format!("{ret} {}, Array[Fired] {}, ?String? {}", n.local("out"), n.local("trace"), n.local("tag"));
        let fills = [
            ("header", super::text::header(plan, "#")),
            ("module", n.module.clone()),
            ("enums", enums.finish()),
            ("types", section(SIGNATURES_RBS, "# rulec:", "types").to_string()),
            ("output", output),
            ("record_params", sig::then(&params, &trace)),
            ("params", params),
            ("ret", ret),
            ("dates", if plan.dates { section(SIGNATURES_RBS, "# rulec:", "dates") } else { "" }.to_string()),
        ];
        let mut o = Code::new("  ");
        sig::functions(&mut o, n, template("rbs"), &fills, |_, _| unreachable!("a signature file has no statements"));
        o.finish()
    }
}

impl Hooks for Body<'_, '_, Rb<'_>> {
    crate::spelled_by!(g);
    /// A refusal stands on one line, behind its test; a value refused is shown as Ruby
    /// inspects it, a day as the wire writes it.
    const BLOCKS: Blocks = Blocks {
        behind: Some([" if ", " unless "]),
        shown: ["@.inspect", "_date_str(@)", "@.inspect"],
        ..Blocks::KEYWORDS
    };
    /// The entry guard: a caller can pass any value. A number's fast test is its class and
    /// the range; `_check_int` then says which of the three failed. A day with a range is
    /// checked apart from its kind, so that its refusal shows the date.
    const GUARD: &'static str = r#"held: unless {x}.nil?\n  {checks}\nend
int: {x} = _check_int({x}, {int_args}) unless {x}.instance_of?(Integer) && {inside}
unit: {x} = _check_int({x}, {int_args}) unless {x}.instance_of?(Integer) && {inside}
date: {x} = _check_int({x}, {int_args}) unless {x}.instance_of?(Integer)
date_ranged: {x} = _check_int({x}, nil, nil, {m}, {k}, "") unless {x}.instance_of?(Integer)\n{range}
enum: _refuse({x}, {m}, {k}) unless {enum}::ALL.include?({x})\n{range}
bool: _refuse({x}, {m}, {k}) unless {x}.equal?(true) || {x}.equal?(false)
str: _refuse({x}, {m}, {k}) unless {x}.is_a?(String)
wire_date: {x} = _wire_day({x}, {m}, {k})\n{range}
wire_enum: {x} = _wire_member({enum}::ALL, {x}, {m}, {k})\n{range}"#;
    /// The wire door: each value read out of the Hash as it comes, then checked as the entry
    /// guard checks it.
    const WIRE: &'static str = "raw: {call}[{name}]
required: {var} = {raw}
optional: {var} = {raw}
guarded: yes
unknown_keys:
{call}.each_key do |{_key}|
  raise RuleInputError.new({_key}.to_s + {sentence}) unless [{inputs}].include?({_key})
end";
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = "bool: {x}.to_s
str: _json_str({x})
enum: _json_str({x})
date: _date_str({x})
int: {x}.to_s
unit: {x}.to_s
required: {s} << {one}
optional: {s} << ({x}.nil? ? \"null\" : {one})
list: {s} << \"[\" << {x}.map { |{item}| {one} }.join(\",\") << \"]\"
element: {item}
elements: {s} << \"[\" << {x}.map { |{item}| {one} }.join(\",\") << \"]\"
concat:  + ";

    /// The trace, lists and loops: a value is pushed with `push`, since `<<` binds more
    /// tightly than a value's `&&` or `? :`.
    const LISTS: &'static str = "fired: {trace} << Fired.new({table}, {row}) if {trace}
list: {name} = []
push: {list}.push({value})
carry: {name} = {value}
for: {list}.each do |{element}|
break: break";

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} << {}", self.g.n.local("s"), rb_str(json)));
    }

    fn guard_sequence(&mut self, seq: &super::plan::SequencePlan, _checks: &[(usize, Vec<walk::Check>)]) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let list = &self.g.n.vars[seq.list];
        let line = format!("{list} = {}", self.g.elements_read(k, list, &self.g.n.element_checks[k]));
        self.o.line(line);
    }

    fn wire_sequence(&mut self, seq: &super::plan::SequencePlan) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let (list, call) = (&self.g.n.vars[seq.list], self.g.n.local("call"));
        let raw = format!("{call}[{}]", rb_str(&seq.name));
        let line = format!("{list} = {}", self.g.elements_read(k, &raw, &self.g.n.element_reads[k]));
        self.o.line(line);
    }
}

/// The runner of the helpers' unit vectors: every helper a module may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("#", PROLOG, HELPERS_RUNNER, "  # rulec: helpers", MODULE, MARK)
}
