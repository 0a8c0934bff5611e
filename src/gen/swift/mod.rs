//! The Swift backend (generated-code.md, Swift): it spells the plan. Int64 everywhere, a
//! one-field struct per unit (Hashable, Sendable), String-backed CaseIterable enums,
//! lowerCamelCase identifiers with backticks for keywords, `throws` with `RuleError.input` /
//! `.contradiction`, a public memberwise initializer on Output, and a runner carrying `@main`,
//! built with swiftc alone. The file imports nothing. The fixed text is `runtime/Module.swift`.

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling};
use super::plan::{BoundaryTy, Expr, Node};
use super::printer::{Form, Ops, Prec, Syntax, ATOM};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body};
use super::text::{braced_unicode as lit, comment, Code};
use super::walk::{self, Hooks};
use super::{File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::sema::VarId;
use serde_json::json;

const MODULE: &str = include_str!("runtime/Module.swift");
const RUNNER: &str = include_str!("runtime/Runner.swift");
const HELPERS_RUNNER: &str = include_str!("runtime/HelpersRunner.swift");
const MARK: &str = "// rulec:";

/// Swift's types: Int64 for every number and day, a unit its struct.
const TYPES: Types = Types { units: true, ..Types::plain("Bool", "String", "Int64", "@?", "[@]") };

pub struct Swift;

impl Language for Swift {
    const SPEC: Spec = Spec::new(Lang::Swift, "swift", OPS, TYPES);

    fn code(s: &Sw) -> [String; 3] {
        [s.module(), s.runner(), helpers_runner()]
    }

    fn shared_files(s: &Sw) -> Vec<File> {
        s.shared_modules()
    }

    fn runner(base: &str) -> Runner {
        swift_runner(base, &[])
    }

    /// The runner built with the module of each enums file the rule reads, which the rule's
    /// file names in its `// Build:` line.
    fn runner_in(base: &str, folder: &std::path::Path) -> Runner {
        let module = std::fs::read_to_string(folder.join(format!("{base}.swift"))).unwrap_or_default();
        let build = module.lines().take_while(|l| l.starts_with("//")).find_map(|l| l.strip_prefix(BUILD_LINE));
        let own = [format!("{base}.swift"), format!("{base}_runner.swift")];
        let shared: Vec<String> = build
            .into_iter()
            .flat_map(str::split_whitespace)
            .filter(|w| w.ends_with(".swift") && !own.iter().any(|o| o == w))
            .map(str::to_string)
            .collect();
        swift_runner(base, &shared)
    }

    fn api(s: &Sw, _: &Unit) -> serde_json::Value {
        let (plan, n) = (s.plan, s.n);
        let spell = Spelling { names: n, ty: &|v| s.ty(v), member: Member::Qualified(".") };
        let (ret, params, base) = (s.returns(), s.params(), &plan.rule.base);
        let record_params = sig::then(&params, &s.record_params());
        let fills = [
            ("ret", ret.clone()),
            ("params", params),
            ("record_params", record_params),
            ("wire_params", s.wire_params()),
        ];
        let signatures = sig::signatures(n, SIGNATURES, &fills);
        let place = vec![("module", json!(format!("{base}.swift")))];
        let more = vec![("build", json!(s.build()))];
        let dates = Dates { ty: "Int64", from_wire: "dateFromWire", from_native: None };
        let errors = &["RuleError.input", "RuleError.contradiction"];
        // The fields are the cases' associated values.
        let error_types = ErrorTypes {
            input: ErrorType { name: "RuleError.input", fields: &["what", "value"] },
            contradiction: ErrorType { name: "RuleError.contradiction", fields: &["what"] },
        };
        let mut entry = spell.functions(plan, &ret, Functions { place, signatures, more, dates, errors, error_types });
        // An enum of an enums file is declared in that file's own Swift file, compiled with the rule's.
        super::api::shared_enums(&mut entry, &s.shared(), |sh| vec![("module", format!("{}.swift", sh.file))]);
        entry
    }
}

/// How a rule's file says what it is compiled with, where that is more than its runner.
const BUILD_LINE: &str = "// Build: ";

/// The runner of `base`, built with the files `shared` (the enums files' modules) beside its own.
fn swift_runner(base: &str, shared: &[String]) -> Runner {
    let files = if base == "_helpers" {
        vec!["_helpers_runner.swift".to_string()]
    } else {
        let mut files = vec![format!("{base}.swift")];
        files.extend(shared.iter().cloned());
        files.push(format!("{base}_runner.swift"));
        files
    };
    let mut args = vec!["-O".to_string()];
    args.extend(files);
    Runner::binary("swiftc", args, base)
}

/// Swift's spellings.
const OPS: Ops = Ops {
    prec: Prec { cond: 1, or: 2, and: 3, eq: 4, rel: 4, add: 5, mul: 6, not: 7, neg: 7 },
    absent: "nil",
    int: |n| if n == i64::MIN { "Int64.min".into() } else { n.to_string() },
    ..Ops::camel_family(lit, "isqrtInt64")
};

type Sw<'a> = Gen<'a, Swift>;

/// The place function of an ordered enum, `{places}` its cases.
const RANK: &str = "/// The place of a value of the ordered enum {name}, from 0.
func {rank}(_ value: {enum}) -> Int {
    switch value {
    {places}
    }
}";

/// The four functions' signatures as `rulec api` gives them, a line each (see
/// [`sig::signatures`]).
const SIGNATURES: &str = "func {function}({params}) throws -> {ret}
func {traced}({params}) throws -> ({ret}, [Fired])
func {record}({record_params}) -> String
func {wire}({wire_params}) throws -> String";

/// The function, its traced twin, the wire door and the core (see [`sig::functions`]).
const FUNCTIONS: &str = "public func {function}({params}) throws -> {ret} {
    return try {core}({pass}).0
}

/// The same call, with the rows that matched, in the order they matched.
public func {traced}({params}) throws -> ({ret}, [Fired]) {
    return try {core}({pass})
}

/// One call in the wire form (formats.md), the members of its object in order (nil when it is
/// not an object): the door's checks in the reference's order, then the rule; the record line.
public func {wire}({wire_params}) throws -> String {
    guard let {call} = {call} else {
        throw RuleError.input(what: {not_an_object}, value: nil)
    }
    {door}
    let ({out}, {trace}) = try {core}({boxed})
    return {record}({record_args})
}

/// The rule's branches, written once: the outputs, and the rows that matched in order.
func {core}({params}) throws -> ({ret}, [Fired]) {
    {unboxed}
    // The entry guard: what the proofs assumed of every call.
    {guard}
    var {trace}: [Fired] = []
    {body}
    return ({answer}, {trace})
}";

/// The record function (`stmt::record_function`) around its pieces: the runtime's `recordOpen` and `recordClose`.
const RECORD: &str =
    "/// One call as a fixtures record (formats.md), the line `rulec replay` reads; an empty tag is left out.
{signature}
    var {s} = recordOpen({tag})
    {pieces}
    return recordClose({s}, {trace})
}";

impl Syntax for Sw<'_> {
    fn own(&self, e: &Expr) -> Option<Form> {
        match &e.node {
            // The value an optional holds, where the code reads it as a value.
            Node::Var(v) if self.plan.var(*v).optional && !e.optional => {
                Some(Form::Leaf(format!("{}!", self.n.vars[*v]), ATOM))
            }
            _ => None,
        }
    }
}

impl Sw<'_> {
    fn unit(&self, v: VarId) -> Option<&str> {
        match self.plan.var(v).ty {
            BoundaryTy::Unit(u) => Some(&self.n.units[u]),
            _ => None,
        }
    }

    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{}: {}", self.n.vars[v], self.ty(v)))
    }

    /// The record function's own parameters, after the inputs: their labels are their names,
    /// as the rule's inputs leave them.
    fn record_params(&self) -> String {
        let l = |b| self.n.local(b);
        format!("{}: {}, {}: [Fired], {}: String = \"\"", l("out"), self.returns(), l("trace"), l("tag"))
    }

    /// The wire door's parameters: the label `tag` whatever name the body gives it.
    fn wire_params(&self) -> String {
        let (call, tag) = (self.n.local("call"), self.n.local("tag"));
        let tag = if tag == "tag" { tag.to_string() } else { format!("tag {tag}") };
        format!("_ {call}: [(String, Wire)]?, {tag}: String = \"\"")
    }

    /// The call's arguments by label: `value(v)` spells each one.
    fn labelled(&self, value: &dyn Fn(VarId) -> String) -> String {
        sig::inputs(self.plan, |v| format!("{}: {}", self.n.vars[v], value(v)))
    }

    /// A raw local as the value of its boundary type.
    fn boxed(&self, v: VarId, x: &str) -> String {
        match (self.unit(v), self.plan.var(v).optional) {
            _ if self.plan.var(v).list => x.to_string(),
            (Some(u), false) => format!("{u}({x})"),
            (Some(u), true) => format!("{x}.map {{ {u}($0) }}"),
            (None, _) => x.to_string(),
        }
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("    ");
        o.raw(&sig::head(plan, "//"));
        let shared = self.shared();
        if !shared.is_empty() {
            // The enums files' modules, compiled with this file; or, built as modules of their
            // own, imported, so that every rule's module takes one type.
            o.line("//");
            o.line(format!("{BUILD_LINE}{}", self.build()));
            o.blank();
            for sh in &shared {
                let module = crate::lang::pascal(&sh.file);
                o.line(format!("#if canImport({module})"));
                o.line(format!("import {module}"));
                o.line("#endif");
            }
        }
        o.blank();
        for (u, name) in plan.units.iter().zip(&n.units) {
            o.line(format!("/// {}: a whole number of its unit.", comment(&u.what)));
            o.line(format!("public struct {name}: Hashable, Sendable {{"));
            o.line("    public var value: Int64");
            o.blank();
            o.line("    public init(_ value: Int64) {");
            o.line("        self.value = value");
            o.line("    }");
            o.line("}");
            o.blank();
        }
        for (e, en) in plan.enums.iter().enumerate() {
            // An enums file's enum is declared in that file's own Swift file.
            if en.home.is_none() {
                enum_declaration(&mut o, en, &n.enums[e], &n.members[e]);
            }
            sig::rank_function(&mut o, n, e, RANK, comment(&en.name), |m, i| format!("case .{m}: return {i}"));
        }
        let head =
            format!("public func {}({}) -> String {{", n.record, sig::then(&self.params(), &self.record_params()));
        sig::rest(&mut o, plan, self, (MODULE, MARK), (RECORD, &head), |o, _| self.output(o), |o| self.functions(o));
        o.finish()
    }

    /// How the rule and its runner are built: with the module of each enums file it reads.
    fn build(&self) -> String {
        let base = &self.plan.rule.base;
        let shared: Vec<String> = self.shared().iter().map(|s| format!(" {}.swift", s.file)).collect();
        format!("swiftc {base}.swift{} {base}_runner.swift -o {base}", shared.concat())
    }

    /// The Swift file of each enums file the rule reads: its enums, the same bytes from every
    /// rule that reads the file, so a folder holds it once.
    fn shared_modules(&self) -> Vec<File> {
        sig::enums_modules(self.plan, self.shared(), ("    ", "//"), |mut o, s, u| {
            o.line("//");
            o.line(format!(
                "// The enums every rule reading {} shares: compile this file with the rule's, or build it",
                comment(&u.source_name)
            ));
            o.line(format!(
                "// as a module {} of its own, which each rule's file imports, so two rules take one {}.",
                crate::lang::pascal(&s.file),
                s.types[0]
            ));
            o.blank();
            for (k, &e) in s.enums.iter().enumerate() {
                enum_declaration(&mut o, &self.plan.enums[e], &s.types[k], &s.members[k]);
            }
            File { path: format!("{}.swift", s.file), text: o.finish() }
        })
    }

    /// The outputs' type: a struct of constants, its initializer by label.
    fn output(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        o.line("/// The outputs, in the order the rule declares them.");
        o.line("public struct Output: Hashable, Sendable {");
        for &v in &plan.outputs {
            o.line(format!("    public let {}: {}", n.fields[v], self.ty(v)));
        }
        o.blank();
        let ps: Vec<String> = plan.outputs.iter().map(|&v| format!("{}: {}", n.fields[v], self.ty(v))).collect();
        o.line(format!("    public init({}) {{", ps.join(", ")));
        for &v in &plan.outputs {
            o.line(format!("        self.{0} = {0}", n.fields[v]));
        }
        o.line("    }");
        o.line("}");
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let l = |b| n.local(b);
        let (out, tag) = (l("out"), l("tag"));
        let unboxed: Vec<String> = plan
            .inputs
            .iter()
            .filter(|&&v| self.unit(v).is_some())
            .map(|&v| {
                let x = &n.vars[v];
                format!("let {x} = {x}{}.value", if plan.var(v).optional { "?" } else { "" })
            })
            .collect();
        let answer = match plan.outputs.as_slice() {
            [one] => self.boxed(*one, &n.vars[*one]),
            outs => format!(
                "Output({})",
                outs.iter()
                    .map(|&v| format!("{}: {}", n.fields[v], self.boxed(v, &n.vars[v])))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let boxed = self.labelled(&|v| self.boxed(v, &n.vars[v]));
        let trace = l("trace");
        let record_args = sig::then(&boxed, &format!("{out}: {out}, {trace}: {trace}, {tag}: {tag}"));
        let fills = [
            ("params", self.params()),
            ("ret", self.returns()),
            ("pass", self.labelled(&|v| n.vars[v].clone())),
            ("wire_params", self.wire_params()),
            ("not_an_object", lit(&plan.door.not_an_object)),
            ("boxed", boxed),
            ("record_args", record_args),
            ("unboxed", unboxed.join("\n")),
            ("answer", answer),
        ];
        o.line(format!("/// {}", comment(&sig::about(plan))));
        sig::functions(o, n, FUNCTIONS, &fills, |part, o| {
            walk::part(plan, Lang::Swift, part, &mut Body { g: self, o })
        });
        o.blank();
    }

    fn runner(&self) -> String {
        let runner = format!("{}Runner", crate::lang::pascal(&self.plan.rule.base));
        sig::runner(self.plan, "//", "", RUNNER, &[("rulecWire", &self.n.wire), ("RulecRunner", &runner)])
    }
}

impl Hooks for Body<'_, '_, Sw<'_>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks { shown: ["@.rawValue", "dateString(@)", "String(@)"], ..Blocks::BARE };
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = "bool: ({x} ? \"true\" : \"false\")
str: jsonString({x})
enum: jsonString({x}.rawValue)
date: dateString({x})
int: String({x})
unit: String({x}.value)
required: {s} += {one}
optional: {s} += {x}.map { {one} } ?? \"null\"
held: $0
list: {s} += \"[\" + {x}.map { {one} }.joined(separator: \",\") + \"]\"
element: $0";
    /// The wire door: the runtime's readers over the members of the call's object.
    const WIRE: &'static str = "raw: wireValue({call}, {name})
required: {decl} = try {read}
optional: {decl} = try wireOptional({raw}) { try {read} }
held: $0
integer: wireInt64({raw}, {m}, {k}, {out})
boolean: wireBool({raw}, {m}, {k})
text: wireString({raw}, {m}, {k})
date: wireDay({raw}, {m}, {k})
member: wireMember({raw}, {m}, {k}) as {enum}
unknown_keys:
for ({key}, _) in {call} where ![{inputs}].contains({key}) {
    throw RuleError.input(what: {key} + {sentence}, value: nil)
}";
    /// The trace, lists and loops.
    const LISTS: &'static str = "fired: {trace}.append(Fired(table: {table}, row: {row}))
list: var {name}: [{ty}] = []
push: {list}.append({value})
own: {ty}({value})
carry: var {name}: {ty} = {value}
for: for {element} in {list} {
break: break";

    fn binding(&self, var: VarId) -> String {
        format!("let {}: {}", self.g.n.vars[var], self.g.local_ty(var))
    }

    fn declare(&mut self, var: VarId) {
        self.o.line(self.binding(var));
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} += {}", self.g.n.local("s"), lit(json)));
    }
}

/// A String-backed enum whose raw values are the names the wire carries.
fn enum_declaration(o: &mut Code, en: &super::plan::EnumPlan, name: &str, members: &[String]) {
    o.line(format!("/// enum {}: the raw value is the name the wire and the records carry.", comment(&en.name)));
    o.line(format!("public enum {name}: String, CaseIterable, Sendable {{"));
    for (m, v) in members.iter().zip(&en.values) {
        o.line(format!("    case {m} = {}", lit(&v.name)));
    }
    o.line("}");
    o.blank();
}

/// The runner of the helpers' unit vectors: every helper a file may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("//", "", HELPERS_RUNNER, "// rulec: helpers", MODULE, MARK)
}
