//! The PHP backend (generated-code.md, PHP): it spells the plan. One file, a namespace per
//! rule, `declare(strict_types=1)`, every parameter typed, native backed enums, `intdiv`
//! wherever a division is written (the `/` operator never appears), `Output` a final class
//! of promoted readonly properties, the traced twin answering `[$value, $trace]`. No composer:
//! one `require_once`. The fixed text is `runtime/module.php`.

mod walks;

use super::api::{Dates, ErrorType, ErrorTypes, Functions, Member, Spelling, ERRORS};
use super::plan::{EnumPlan, Expr, Node};
use super::printer::{Cond, Extremes, Form, Ops, Part, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{Blocks, Body, Refusals};
use super::text::{comment, quoted, Code, Escapes};
use super::walk::{self, Hooks};
use super::{naming, File, Gen, Lang, Language, Runner, Spec, Unit};
use crate::sema::VarId;
use serde_json::json;

const MODULE: &str = include_str!("runtime/module.php");
const RUNNER: &str = include_str!("runtime/runner.php");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.php");
const MARK: &str = "// rulec:";

/// PHP's types: every number and day an `int`.
const TYPES: Types = Types::plain("bool", "string", "int", "?@", "array");

pub struct Php;

impl Language for Php {
    const SPEC: Spec = Spec::new(Lang::Php, "php", OPS, TYPES);
    const WALKS: bool = true;

    fn runner(base: &str) -> Runner {
        Runner::script("php", &["-d", "error_reporting=-1"], format!("{base}_runner.php"))
    }

    fn code(p: &Ph) -> [String; 3] {
        [p.module(), p.runner(), helpers_runner()]
    }

    fn shared_files(p: &Ph) -> Vec<File> {
        p.shared_modules()
    }

    fn api(p: &Ph, _: &Unit) -> serde_json::Value {
        let spell = Spelling { names: p.n, ty: &|v| p.ty(v), member: Member::Qualified("::") };
        let (ret, params) = (p.returns(), p.params());
        let fills =
            [("ret", ret.clone()), ("record_params", sig::then(&params, &p.record_params())), ("params", params)];
        let module = format!("{}.php", p.plan.rule.base);
        let functions = Functions {
            place: vec![("module", json!(module)), ("namespace", json!(p.n.module))],
            signatures: sig::signatures(p.n, SIGNATURES, &fills),
            more: vec![],
            dates: Dates { ty: "int", from_wire: "date_from_wire", from_native: Some("date_of") },
            errors: ERRORS,
            error_types: ErrorTypes {
                input: ErrorType { name: "RuleInputError", fields: &["what", "refused"] },
                contradiction: ErrorType { name: "RuleContradictionError", fields: &["what"] },
            },
        };
        let mut entry = spell.functions(p.plan, &ret, functions);
        // An enum of an enums file is declared in that file's module; the rule's namespace
        // holds an alias of it.
        super::api::shared_enums(&mut entry, &p.shared(), |s| {
            vec![("module", format!("{}.php", s.file)), ("namespace", s.module.clone())]
        });
        entry
    }
}

/// A PHP single-quoted string when the text has no control character, else a double-quoted
/// one with every `$`, `"` and `\` escaped (so nothing interpolates).
fn php_str(s: &str) -> String {
    const SINGLE: Escapes = Escapes { spelled: &[('\\', "\\\\")], ..Escapes::plain('\'', false) };
    const DOUBLE: Escapes = Escapes {
        spelled: &[('\\', "\\\\"), ('$', "\\$"), ('\n', "\\n"), ('\r', "\\r"), ('\t', "\\t")],
        escaped: char::is_control,
        ..Escapes::c_family(|c| format!("\\u{{{c:x}}}"))
    };
    if !s.chars().any(|c| c.is_control()) {
        return quoted(s, &SINGLE);
    }
    quoted(s, &DOUBLE)
}

/// PHP's spellings. The conditional does not nest without parentheses in PHP 8.
const OPS: Ops = Ops {
    int: |n| if n == i64::MIN { "\\PHP_INT_MIN".into() } else { n.to_string() },
    member: Some("::"),
    eq: ["===", "!=="],
    is: ["===", "!=="],
    extremes: Extremes::Variadic { min: "\\min", max: "\\max" },
    cond: Cond::TernaryUnnested,
    ..Ops::c_family(php_str)
};

type Ph<'a> = Gen<'a, Php>;

/// A backed enum: its members' backing values are the names the wire carries.
fn enum_declaration(o: &mut Code, en: &EnumPlan, ty: &str, members: &[String]) {
    o.line(format!(
        "/** enum {}: the backing value is the name the wire and the records carry. */",
        comment(&en.name).replace("*/", "* /")
    ));
    o.line(format!("enum {ty}: string"));
    o.line("{");
    o.indent();
    for (m, v) in members.iter().zip(&en.values) {
        o.line(format!("case {m} = {};", php_str(&v.name)));
    }
    o.close("}");
    o.blank();
}

/// The place function of an ordered enum, `{places}` its arms.
const RANK: &str = "/** The place of a value of the ordered enum {name}, from 0. */
function {rank}({enum} $value): int
{
    return match ($value) {
        {places}
    };
}";

/// The four functions' signatures as `rulec api` gives them, a line each (see
/// [`sig::signatures`]).
const SIGNATURES: &str = "function {function}({params}): {ret}
function {traced}({params}): array
function {record}({record_params}): string
function {wire}(mixed ${call}, ?string ${tag} = ''): string";

/// The function, its traced twin, the wire door and the core (see [`sig::functions`]).
const FUNCTIONS: &str = "/**
 * {about}
 *
 {params_doc}
 * @throws RuleInputError when the call is outside the declared domain (fix the call site)
 * @throws RuleContradictionError when two rows the checker could not prove apart both matched
 */
function {function}({params}): {ret}
{
    return {core}({args})[0];
}

/**
 * The same call, with the rows that matched, in the order they matched.
 *
 * @return array{0: {ret}, 1: list<Fired>}
 */
function {traced}({params}): array
{
    return {core}({args});
}

/**
 * One call in the wire form (formats.md), the object json_decode gives (or an array keyed
 * by the inputs' declared names): the door's checks in the reference's order, then the
 * rule; the record line.
 */
function {wire}(mixed ${call}, ?string ${tag} = ''): string
{
    if (${call} instanceof \\stdClass) {
        ${call} = \\get_object_vars(${call});
    } elseif (!\\is_array(${call}) || (${call} !== [] && \\array_is_list(${call}))) {
        throw new RuleInputError({not_an_object});
    }
    {door}
    [${out}, ${trace}] = {core}({args});
    return {record}({record_args});
}

/**
 * The rule's branches, written once: the outputs, and the rows that matched in order.
 *
 * @return array{0: {ret}, 1: list<Fired>}
 */
function {core}({params}): array
{
    ${trace} = [];
    {rule}
    return [{answer}, ${trace}];
}";

/// The record function (`stmt::record_function`) around its pieces: the runtime's `_record_open` and `_record_close`.
const RECORD: &str = "/**
 * One call as a fixtures record (formats.md), the line `rulec replay` reads; an empty or
 * null tag is left out.
 *
 * @param list<Fired> {trace}
 */
{signature}
    {s} = _record_open({tag});
    {pieces}
    return _record_close({s}, {trace});
}";

impl Syntax for Ph<'_> {
    fn var(&self, v: VarId) -> String {
        format!("${}", self.n.vars[v])
    }

    fn field(&self, element: VarId, field: VarId) -> String {
        format!("{}->{}", self.var(element), self.n.fields[field])
    }

    fn own(&self, e: &Expr) -> Option<Form> {
        match &e.node {
            // The `/` operator never appears.
            Node::DivExact(_, q) => Some(Form::Parts(
                vec![Part::Text("\\intdiv(".into()), Part::Kid(0, TOP), Part::Text(format!(", {q})"))],
                ATOM,
            )),
            _ => None,
        }
    }
}

impl Ph<'_> {
    fn params(&self) -> String {
        sig::inputs(self.plan, |v| format!("{} ${}", self.ty(v), self.n.vars[v]))
    }

    fn arg_vars(&self) -> String {
        sig::inputs(self.plan, |v| format!("${}", self.n.vars[v]))
    }

    /// The variable of the generated code's own local `base`, as the rule's values leave it.
    fn local(&self, base: &str) -> String {
        format!("${}", self.n.local(base))
    }

    /// The record function's own parameters, after the inputs.
    fn record_params(&self) -> String {
        let l = |b| self.local(b);
        format!("{} {}, array {}, ?string {} = ''", self.returns(), l("out"), l("trace"), l("tag"))
    }

    fn module(&self) -> String {
        let (plan, n) = (self.plan, self.n);
        let mut o = Code::new("    ");
        o.line("<?php");
        o.blank();
        o.raw(&sig::head(plan, "//"));
        o.line("//");
        o.line(format!("// require_once __DIR__ . '/{}.php'; then \\{}\\{}(…).", plan.rule.base, n.module, n.function));
        o.blank();
        o.line("declare(strict_types=1);");
        o.blank();
        o.line(format!("namespace {};", n.module));
        o.blank();
        self.uses(&mut o);
        sig::unit_comments(&mut o, plan, n, "//", TYPES.int);
        for (e, en) in plan.enums.iter().enumerate() {
            if en.home.is_none() {
                enum_declaration(&mut o, en, &n.enums[e], &n.members[e]);
            }
            sig::rank_function(&mut o, n, e, RANK, comment(&en.name).replace("*/", "* /"), |m, i| {
                format!("{}::{m} => {i},", n.enums[e])
            });
        }
        self.elements(&mut o);
        let head = format!("function {}({}): string\n{{", n.record, sig::then(&self.params(), &self.record_params()));
        sig::rest(&mut o, plan, self, (MODULE, MARK), (RECORD, &head), |o, _| self.output(o), |o| self.functions(o));
        o.finish()
    }

    /// The module of each enums file the rule reads, required, and its enums named here: by
    /// `use` for this file's code, and by an alias in this namespace for the caller, so that
    /// `\Rule\Tier` and `\Tiers\Tier` are one enum.
    fn uses(&self, o: &mut Code) {
        for home in 0..self.plan.uses.len() {
            let shared = naming::shared(self.plan, Lang::Php, home);
            if shared.enums.is_empty() {
                continue;
            }
            o.line(format!("require_once __DIR__ . '/{}.php';", shared.file));
            o.blank();
            for (&e, ty) in shared.enums.iter().zip(&shared.types) {
                let here = &self.n.enums[e];
                let named = if here == ty { String::new() } else { format!(" as {here}") };
                o.line(format!("use {}\\{ty}{named};", shared.module));
            }
            o.blank();
            for &e in &shared.enums {
                o.line(format!("\\class_alias({0}::class, __NAMESPACE__ . '\\{0}');", self.n.enums[e]));
            }
            o.blank();
        }
    }

    /// The module of each enums file the rule reads: its enums, once for every rule that
    /// reads them (the same bytes from each).
    fn shared_modules(&self) -> Vec<File> {
        (0..self.plan.uses.len())
            .filter_map(|home| {
                let shared = naming::shared(self.plan, Lang::Php, home);
                if shared.enums.is_empty() {
                    return None;
                }
                let u = &self.plan.uses[home];
                let mut o = Code::new("    ");
                o.line("<?php");
                o.blank();
                o.raw(&super::text::enums_header(u, "//"));
                o.line("//");
                o.line(format!(
                    "// The enums every rule reading {} shares: require_once __DIR__ . '/{}.php'; then \\{}\\{}.",
                    comment(&u.source_name),
                    shared.file,
                    shared.module,
                    shared.types[0]
                ));
                o.blank();
                o.line("declare(strict_types=1);");
                o.blank();
                o.line(format!("namespace {};", shared.module));
                o.blank();
                for ((&e, ty), members) in shared.enums.iter().zip(&shared.types).zip(&shared.members) {
                    enum_declaration(&mut o, &self.plan.enums[e], ty, members);
                }
                Some(File { path: format!("{}.php", shared.file), text: o.finish() })
            })
            .collect()
    }

    /// The outputs' type: a final class of promoted readonly properties.
    fn output(&self, o: &mut Code) {
        o.line("/** The outputs, in the order the rule declares them. */");
        o.line("final class Output");
        o.line("{");
        o.line("    public function __construct(");
        for &v in &self.plan.outputs {
            o.line(format!("        public readonly {} ${},", self.ty(v), self.n.fields[v]));
        }
        o.line("    ) {");
        o.line("    }");
        o.line("}");
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let params_doc: Vec<String> = plan
            .inputs
            .iter()
            .map(|&v| {
                format!("* @param {} ${} {}", self.ty(v), n.vars[v], comment(&plan.var(v).what).replace("*/", "* /"))
            })
            .collect();
        let answer = match plan.outputs.as_slice() {
            [one] => format!("${}", n.vars[*one]),
            outs => format!(
                "new Output({})",
                outs.iter().map(|&v| format!("${}", n.vars[v])).collect::<Vec<_>>().join(", ")
            ),
        };
        let args = self.arg_vars();
        let record_args =
            sig::then(&args, &format!("{}, {}, {}", self.local("out"), self.local("trace"), self.local("tag")));
        let fills = [
            ("about", comment(&sig::about(plan)).replace("*/", "* /")),
            ("params_doc", params_doc.join("\n")),
            ("params", self.params()),
            ("ret", self.returns()),
            ("args", args),
            ("not_an_object", php_str(&plan.door.not_an_object)),
            ("record_args", record_args),
            ("answer", answer),
        ];
        sig::functions(o, n, FUNCTIONS, &fills, |part, o| walk::part(plan, Lang::Php, part, &mut Body { g: self, o }));
        o.blank();
    }

    fn runner(&self) -> String {
        let (base, n) = (&self.plan.rule.base, self.n);
        let module = format!("{base}.php");
        let fills = [("rulec_rule.php", module.as_str()), ("RulecRule", &n.module), ("rulec_wire", &n.wire)];
        sig::runner(self.plan, "//", "<?php\n\n", RUNNER, &fills)
    }
}

impl Hooks for Body<'_, '_, Ph<'_>> {
    crate::spelled_by!(g);
    const BLOCKS: Blocks = Blocks {
        refuse: Refusals { input_alone: "throw new RuleInputError(@);", ..Blocks::PARENS.refuse },
        shown: ["@->value", "_date_str(@)", "(string) @"],
        else_if: "} elseif (@) {",
        sigil: "$",
        field: "@->@",
        ..Blocks::PARENS
    };
    /// The record's values: each type's wire text, appended to the line.
    const RECORD_VALUES: &'static str = "bool: ({x} ? 'true' : 'false')
str: _json_str({x})
enum: _json_str({x}->value)
date: _date_str({x})
int: (string) {x}
unit: (string) {x}
required: {s} .= {one};
optional: {s} .= {x} === null ? 'null' : {one};
list: {s} .= '[' . \\implode(',', \\array_map(fn({item}) => {one}, {x})) . ']';
element: {item}
elements: {s} .= '[' . \\implode(',', \\array_map(fn({item}) => {one}, {x})) . ']';
concat:  . ";
    /// The wire door: an array keyed by the inputs' declared names; `_check_int` checks an
    /// integer's range itself.
    const WIRE: &'static str = "raw: {call}[{name}] ?? null
required: {decl} = {read};
optional: {decl} = ({raw}) === null ? null : ({read});
integer: _check_int({raw}, {int_args})
integer_ranged: yes
boolean: \\is_bool({raw}) ? {call}[{name}] : _refuse({raw}, {m}, {k})
text: \\is_string({raw}) ? {call}[{name}] : _refuse({raw}, {m}, {k})
date: _wire_day({raw}, {m}, {k})
member: (\\is_string({raw}) ? {enum}::tryFrom({call}[{name}]) : null) ?? _refuse({raw}, {m}, {k})
unknown_keys:
foreach (\\array_keys({call}) as {key}) {
    if (!\\in_array((string) {key}, [{inputs}], true)) {
        throw new RuleInputError({key} . {sentence});
    }
}";
    /// The trace, lists and loops.
    const LISTS: &'static str = "fired: {trace}[] = new Fired({table}, {row});
list: {name} = [];
push: {list}[] = {value};
carry: {name} = {value};
for: foreach ({list} as {element}) {
break: break;";

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} .= {};", self.g.local("s"), php_str(json)));
    }

    fn guard_sequence(&mut self, seq: &super::plan::SequencePlan, _checks: &[(usize, Vec<walk::Check>)]) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let list = format!("${}", self.g.n.vars[seq.list]);
        let line = format!("{list} = {};", self.g.elements_read(k, &list, &self.g.n.element_checks[k]));
        self.o.line(line);
    }

    fn wire_sequence(&mut self, seq: &super::plan::SequencePlan) {
        let k = self.g.plan.sequences.iter().position(|s| s.list == seq.list).expect("a sequence of the plan");
        let (list, call) = (format!("${}", self.g.n.vars[seq.list]), self.g.local("call"));
        let raw = format!("{call}[{}] ?? null", php_str(&seq.name));
        let line = format!("{list} = {};", self.g.elements_read(k, &raw, &self.g.n.element_reads[k]));
        self.o.line(line);
    }
}

/// The runner of the helpers' unit vectors: every helper a file may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("//", "<?php\n\n", HELPERS_RUNNER, "// rulec: helpers", MODULE, MARK)
}
