//! The PHP backend (generated-code.md, PHP): it spells the plan. One file, a namespace per
//! rule, `declare(strict_types=1)`, every parameter typed, native backed enums, `intdiv`
//! wherever a division is written (the `/` operator never appears), `Output` a final class
//! of promoted readonly properties, the traced twin answering `[$value, $trace]`. No composer:
//! one `require_once`. The fixed text is `runtime/module.php`.

use super::api::{Dates, Functions, Member, Spelling, ERRORS};
use super::plan::{BoundaryTy, Expr, InputDoor, Node};
use super::printer::{Cond, Extremes, Form, Ops, Part, Syntax, ATOM, TOP};
use super::sig::{self, Types};
use super::stmt::{self, Blocks, Refusal, Refusals};
use super::text::{comment, quoted, Code, Escapes};
use super::walk::{self, Check, Hooks, Source};
use super::{Gen, Lang, Language, Runner, Spec, Unit};
use crate::eval::wire::WireKind;
use crate::sema::VarId;
use serde_json::json;

const MODULE: &str = include_str!("runtime/module.php");
const RUNNER: &str = include_str!("runtime/runner.php");
const HELPERS_RUNNER: &str = include_str!("runtime/helpers_runner.php");
const MARK: &str = "// rulec:";

/// PHP's types: every number and day an `int`.
const TYPES: Types = Types::plain("bool", "string", "int", "?@");

pub struct Php;

impl Language for Php {
    const SPEC: Spec = Spec::new(Lang::Php, "php", OPS, TYPES);

    fn code(p: &Ph) -> [String; 3] {
        [p.module(), p.runner(), helpers_runner()]
    }

    fn runner(base: &str) -> Runner {
        Runner::script("php", &["-d", "error_reporting=-1"], format!("{base}_runner.php"))
    }

    fn api(p: &Ph, _: &Unit) -> serde_json::Value {
        let (plan, n) = (p.plan, p.n);
        let spell = Spelling { names: n, ty: &|v| p.ty(v), member: Member::Qualified("::") };
        let (ret, params) = (p.returns(), p.params());
        let signatures = [
            format!("function {}({params}): {ret}", n.function),
            format!("function {}({params}): array", n.traced),
            format!("function {}({}): string", n.record, sig::then(&params, &p.record_params())),
            format!("function {}(mixed {}, ?string {} = ''): string", n.wire, p.local("call"), p.local("tag")),
        ];
        let place = vec![("module", json!(format!("{}.php", plan.rule.base))), ("namespace", json!(n.module))];
        let dates = Dates { ty: "int", from_wire: "date_from_wire", from_native: Some("date_of") };
        spell.functions(plan, &ret, Functions { place, signatures, more: vec![], dates, errors: ERRORS })
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

    fn fired(&self) -> String {
        sig::fired(self.plan, &self.local("rows"), "[@]", |table, row| format!("new Fired({}, {row})", php_str(table)))
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
        sig::unit_comments(&mut o, plan, n, "//", TYPES.int);
        for (e, en) in plan.enums.iter().enumerate() {
            o.line(format!(
                "/** enum {}: the backing value is the name the wire and the records carry. */",
                comment(&en.name).replace("*/", "* /")
            ));
            o.line(format!("enum {}: string", n.enums[e]));
            o.line("{");
            o.indent();
            for (i, v) in en.values.iter().enumerate() {
                o.line(format!("case {} = {};", n.members[e][i], php_str(&v.name)));
            }
            o.close("}");
            o.blank();
            if let Some(rank) = &n.ranks[e] {
                o.line(format!(
                    "/** The place of a value of the ordered enum {}, from 0. */",
                    comment(&en.name).replace("*/", "* /")
                ));
                o.line(format!("function {rank}({} $value): int", n.enums[e]));
                o.line("{");
                o.line("    return match ($value) {");
                for (i, m) in n.members[e].iter().enumerate() {
                    o.line(format!("        {}::{m} => {i},", n.enums[e]));
                }
                o.line("    };");
                o.line("}");
                o.blank();
            }
        }
        sig::sections(&mut o, MODULE, MARK, &["errors"], "\n\n");
        if plan.outputs.len() > 1 {
            o.line("/** The outputs, in the order the rule declares them. */");
            o.line("final class Output");
            o.line("{");
            o.line("    public function __construct(");
            for &v in &plan.outputs {
                o.line(format!("        public readonly {} ${},", self.ty(v), n.fields[v]));
            }
            o.line("    ) {");
            o.line("    }");
            o.line("}");
            o.blank();
        }
        self.functions(&mut o);
        let signature =
            format!("function {}({}): string\n{{", n.record, sig::then(&self.params(), &self.record_params()));
        stmt::record_function(plan, &mut Body { p: self, o: &mut o }, RECORD, &signature);
        sig::sections(&mut o, MODULE, MARK, &sig::taken(plan, MODULE, MARK), "\n\n");
        o.finish()
    }

    /// The head of a function answering the outputs and a list of `second` (the rows that
    /// matched), `about` its sentence.
    fn pair_head(&self, o: &mut Code, name: &str, about: &str, second: &str) {
        let tag = format!("@return array{{0: {}, 1: list<{second}>}}", self.returns());
        head(o, &[about], &[tag], &format!("function {name}({}): array", self.params()));
    }

    fn functions(&self, o: &mut Code) {
        let (plan, n) = (self.plan, self.n);
        let (params, args, ret) = (self.params(), self.arg_vars(), self.returns());
        let mut tags: Vec<String> = plan
            .inputs
            .iter()
            .map(|&v| {
                format!("@param {} ${} {}", self.ty(v), n.vars[v], comment(&plan.var(v).what).replace("*/", "* /"))
            })
            .collect();
        tags.push("@throws RuleInputError when the call is outside the declared domain (fix the call site)".into());
        tags.push("@throws RuleContradictionError when two rows the checker could not prove apart both matched".into());
        let about = comment(&sig::about(plan)).replace("*/", "* /");
        head(o, &[&about], &tags, &format!("function {}({params}): {ret}", n.function));
        o.line(format!("    return {}({args})[0];", n.core));
        o.line("}");
        o.blank();
        let about = "The same call, with the rows that matched: one per table, in evaluation order.";
        self.pair_head(o, &n.traced, about, "Fired");
        let l = |b| self.local(b);
        let (out, rows, call, tag) = (l("out"), l("rows"), l("call"), l("tag"));
        o.line(format!("    [{out}, {rows}] = {}({args});", n.core));
        o.line(format!("    return [{out}, {}];", self.fired()));
        o.line("}");
        o.blank();
        let about = [
            "One call in the wire form (formats.md), the object json_decode gives (or an array keyed",
            "by the inputs' declared names): the door's checks in the reference's order, then the",
            "rule; the record line.",
        ];
        head(o, &about, &[], &format!("function {}(mixed {call}, ?string {tag} = ''): string", n.wire));
        o.indent();
        o.line(format!("if ({call} instanceof \\stdClass) {{"));
        o.line(format!("    {call} = \\get_object_vars({call});"));
        o.line(format!("}} elseif (!\\is_array({call}) || ({call} !== [] && \\array_is_list({call}))) {{"));
        o.line(format!("    throw new RuleInputError({});", php_str(&plan.door.not_an_object)));
        o.line("}");
        let mut body = Body { p: self, o };
        walk::wire(plan, &mut body);
        let o = body.o;
        o.line(format!("[{out}, {rows}] = {}({args});", n.core));
        o.line(format!("return {}({});", n.record, sig::then(&args, &format!("{out}, {}, {tag}", self.fired()))));
        o.close("}");
        o.blank();
        let about = "The rule's branches, written once: the outputs, and the row each table matched.";
        self.pair_head(o, &n.core, about, "int");
        o.indent();
        let mut body = Body { p: self, o };
        walk::core(plan, Lang::Php, &mut body);
        let o = body.o;
        let answer = match plan.outputs.as_slice() {
            [one] => format!("${}", n.vars[*one]),
            outs => format!(
                "new Output({})",
                outs.iter().map(|&v| format!("${}", n.vars[v])).collect::<Vec<_>>().join(", ")
            ),
        };
        let slots: Vec<String> = n.slots.iter().map(|s| format!("${s}")).collect();
        o.line(format!("return [{answer}, [{}]];", slots.join(", ")));
        o.close("}");
        o.blank();
    }

    fn runner(&self) -> String {
        let (base, n) = (&self.plan.rule.base, self.n);
        let module = format!("{base}.php");
        let fills = [("rulec_rule.php", module.as_str()), ("RulecRule", &n.module), ("rulec_wire", &n.wire)];
        sig::runner(self.plan, "//", "<?php\n\n", RUNNER, &fills)
    }
}

struct Body<'a, 'b> {
    p: &'a Ph<'a>,
    o: &'b mut Code,
}

impl Body<'_, '_> {
    fn range_check(&mut self, input: &InputDoor, x: &str) {
        let Some(r) = &input.range else { return };
        let (cond, value) = match input.kind {
            WireKind::Enum(e) => {
                let rank = self.p.rank(e);
                (format!("{rank}({x}) < {} || {rank}({x}) > {}", r.lo, r.hi), format!("{x}->value"))
            }
            _ => (format!("{x} < {} || {x} > {}", r.lo, r.hi), format!("(string) {x}")),
        };
        let guard = if input.optional { format!("{x} !== null && ({cond})") } else { cond };
        self.refuse_when(&guard, Refusal::Input(&r.sentence, Some(&value)));
    }
}

impl Hooks for Body<'_, '_> {
    crate::spelled_by!(p);
    const BLOCKS: Blocks = Blocks {
        refuse: Refusals { input_alone: "throw new RuleInputError(@);", ..Blocks::PARENS.refuse },
        else_if: "} elseif (@) {",
        sigil: "$",
        field: "@->@",
        ..Blocks::PARENS
    };

    fn guard_input(&mut self, input: &InputDoor, checks: &[Check]) {
        if checks.contains(&Check::Range) {
            self.range_check(input, &self.name(input.var));
        }
    }

    fn wire_input(&mut self, input: &InputDoor) {
        let p = self.p;
        let x = self.name(input.var);
        let key = php_str(&input.name);
        let call = p.local("call");
        let (m, k) = (php_str(&input.missing), php_str(&input.not_of_kind));
        let read = match input.kind {
            WireKind::Integer => format!("_check_int({call}[{key}] ?? null, {})", self.check_int_args(input)),
            WireKind::Date => format!("_wire_day({call}[{key}] ?? null, {m}, {k})"),
            WireKind::Boolean => format!("\\is_bool({call}[{key}] ?? null) ? {call}[{key}] : _refuse({call}[{key}] ?? null, {m}, {k})"),
            WireKind::Text => format!("\\is_string({call}[{key}] ?? null) ? {call}[{key}] : _refuse({call}[{key}] ?? null, {m}, {k})"),
            WireKind::Enum(e) => format!(
                "(\\is_string({call}[{key}] ?? null) ? {}::tryFrom({call}[{key}]) : null) ?? _refuse({call}[{key}] ?? null, {m}, {k})",
                p.n.enums[e]
            ),
        };
        if input.optional {
            self.o.line(format!("{x} = ({call}[{key}] ?? null) === null ? null : ({read});"));
        } else {
            self.o.line(format!("{x} = {read};"));
        }
        if input.kind == WireKind::Date || matches!(input.kind, WireKind::Enum(_)) {
            self.range_check(input, &x);
        }
    }

    fn wire_unknown_keys(&mut self, names: &[&str], sentence: &str) {
        let keys: Vec<String> = names.iter().map(|k| php_str(k)).collect();
        let (call, key) = (self.p.local("call"), self.p.local("key"));
        self.o.line(format!("foreach (\\array_keys({call}) as {key}) {{"));
        self.o.line(format!("    if (!\\in_array((string) {key}, [{}], true)) {{", keys.join(", ")));
        self.o.line(format!("        throw new RuleInputError({key} . {});", php_str(sentence)));
        self.o.line("    }");
        self.o.line("}");
    }

    fn record_text(&mut self, json: &str) {
        self.o.line(format!("{} .= {};", self.p.local("s"), php_str(json)));
    }

    fn record_value(&mut self, var: VarId, from: Source) {
        let (x, s, v) = (self.place(var, from), self.p.local("s"), self.p.plan.var(var));
        let one = match v.ty {
            BoundaryTy::Str => format!("_json_str({x})"),
            BoundaryTy::Enum(_) => format!("_json_str({x}->value)"),
            BoundaryTy::Date => format!("_date_str({x})"),
            BoundaryTy::Bool => format!("({x} ? 'true' : 'false')"),
            _ => format!("(string) {x}"),
        };
        if v.optional {
            self.o.line(format!("{s} .= {x} === null ? 'null' : {one};"));
        } else {
            self.o.line(format!("{s} .= {one};"));
        }
    }
}

/// A function's head: its PHPDoc (the sentences, then the tags after a blank line where
/// there are any), its signature and the brace.
fn head(o: &mut Code, about: &[&str], tags: &[String], signature: &str) {
    o.line("/**");
    for line in about {
        o.line(format!(" * {line}"));
    }
    if !tags.is_empty() {
        o.line(" *");
        for tag in tags {
            o.line(format!(" * {tag}"));
        }
    }
    o.line(" */");
    o.line(signature);
    o.line("{");
}

/// The runner of the helpers' unit vectors: every helper a file may carry.
fn helpers_runner() -> String {
    sig::helpers_runner("//", "<?php\n\n", HELPERS_RUNNER, "// rulec: helpers", MODULE, MARK)
}
