//! A rule that walks a sequence, in PHP (generated-code.md "A rule that walks a sequence"):
//! each sequence's element a final class of readonly properties (PHP's types hold each
//! field's kind), and two functions beside it — one holding an element as the entry guard
//! holds an input, one reading it at the wire door — each refusal naming the element's
//! place (`lines[2].quantity is out of range`).

use super::{php_str, Ph};
use crate::eval::wire::{sentence, WireKind};
use crate::gen::plan::{FieldDoor, SequencePlan};
use crate::gen::text::{comment, Code};

impl Ph<'_> {
    /// Each sequence's element class and its two functions, in the order declared.
    pub(super) fn elements(&self, o: &mut Code) {
        for (k, s) in self.plan.sequences.iter().enumerate() {
            o.line(format!("/** One element of {}. */", comment(&s.name).replace("*/", "* /")));
            o.line(format!("final class {}", self.n.records[k]));
            o.line("{");
            o.line("    public function __construct(");
            for f in &s.fields {
                o.line(format!("        public readonly {} ${},", self.ty(f.var), self.n.fields[f.var]));
            }
            o.line("    ) {");
            o.line("    }");
            o.line("}");
            o.blank();
            self.check_element(o, k, s);
            self.read_element(o, k, s);
        }
    }

    /// `_check_element($e, $at)`: an element as the entry guard holds it — one of its class
    /// (whose types hold each field's kind), each field within its range.
    fn check_element(&self, o: &mut Code, k: usize, s: &SequencePlan) {
        let (e, at, record) = (self.local("_e"), self.local("_at"), &self.n.records[k]);
        o.line(
            "/** One element as the entry guard holds it: one of its class, each field within its range, in order. */",
        );
        o.line(format!("function {}(mixed {e}, string {at}): {record}", self.n.element_checks[k]));
        o.line("{");
        o.indent();
        o.line(format!("if (!{e} instanceof {record}) {{"));
        o.line(format!("    throw new RuleInputError({at} . {});", php_str(&s.not_an_element)));
        o.line("}");
        for f in &s.fields {
            let x = format!("{e}->{}", self.n.fields[f.var]);
            self.inside(o, f, &x);
        }
        o.line(format!("return {e};"));
        o.dedent();
        o.line("}");
        o.blank();
    }

    /// `_read_element($e, $at)`: an element at the wire door — an object, each field read as
    /// an input of its type is, then a key that is no field.
    fn read_element(&self, o: &mut Code, k: usize, s: &SequencePlan) {
        let (e, el, at, key) = (self.local("_e"), self.local("_o"), self.local("_at"), self.local("key"));
        let record = &self.n.records[k];
        o.line("/** One element at the wire door: an object, each field read as an input of its type is, then a key that is no field. */");
        o.line(format!("function {}(mixed {e}, string {at}): {record}", self.n.element_reads[k]));
        o.line("{");
        o.indent();
        o.line(format!("if (!{e} instanceof \\stdClass) {{"));
        o.line(format!("    throw new RuleInputError({at} . {});", php_str(&s.not_an_element)));
        o.line("}");
        o.line(format!("{el} = \\get_object_vars({e});"));
        for f in &s.fields {
            self.read_field(o, f, &format!("{el}[{}] ?? null", php_str(&f.name)));
        }
        let names: Vec<String> = s.fields.iter().map(|f| php_str(&f.name)).collect();
        o.line(format!("foreach (\\array_keys({el}) as {key}) {{"));
        o.line(format!("    if (!\\in_array((string) {key}, [{}], true)) {{", names.join(", ")));
        o.line(format!("        throw new RuleInputError({at} . '.' . {key} . {});", php_str(sentence::NOT_A_FIELD)));
        o.line("    }");
        o.line("}");
        let values: Vec<String> = s.fields.iter().map(|f| format!("${}", self.n.vars[f.var])).collect();
        o.line(format!("return new {record}({});", values.join(", ")));
        o.dedent();
        o.line("}");
        o.blank();
    }

    /// One field read off the wire: missing, its kind, its range, each sentence after the
    /// element's place.
    fn read_field(&self, o: &mut Code, f: &FieldDoor, raw: &str) {
        let at = self.local("_at");
        let x = format!("${}", self.n.vars[f.var]);
        let said = |s: &str| format!("{at} . {}", php_str(s));
        let (m, k) = (said(&f.missing), said(&f.not_of_kind));
        o.line(format!("{x} = {raw};"));
        match f.kind {
            WireKind::Integer => {
                let (lo, hi, out) = f.range.as_ref().expect("an integer field declares its range");
                o.line(format!("{x} = _check_int({x}, {lo}, {hi}, {m}, {k}, {});", said(out)));
            }
            WireKind::Date => {
                o.line(format!("{x} = _wire_day({x}, {m}, {k});"));
                self.inside(o, f, &x);
            }
            WireKind::Boolean => o.line(format!("{x} = \\is_bool({x}) ? {x} : _refuse({x}, {m}, {k});")),
            WireKind::Text => o.line(format!("{x} = \\is_string({x}) ? {x} : _refuse({x}, {m}, {k});")),
            WireKind::Enum(e) => {
                let ty = &self.n.enums[e];
                o.line(format!("{x} = (\\is_string({x}) ? {ty}::tryFrom({x}) : null) ?? _refuse({x}, {m}, {k});"));
                self.inside(o, f, &x);
            }
        }
    }

    /// A field's range check, where it declares one (an enum's by its rank).
    fn inside(&self, o: &mut Code, f: &FieldDoor, x: &str) {
        let Some((lo, hi, out)) = &f.range else { return };
        let at = self.local("_at");
        let place = match f.kind {
            WireKind::Enum(e) => {
                let rank =
                    self.n.ranks[e].as_deref().expect("a field ranged over an enum's places has its rank function");
                format!("{rank}({x})")
            }
            _ => x.to_string(),
        };
        o.line(format!("if ({place} < {lo} || {place} > {hi}) {{"));
        o.line(format!("    throw new RuleInputError({at} . {});", php_str(out)));
        o.line("}");
    }

    /// `array_map(fn($e, $i) => each($e, "lines[i]"), held(raw), keys)`.
    pub(super) fn elements_read(&self, k: usize, raw: &str, each: &str) -> String {
        let s = &self.plan.sequences[k];
        let (i, e) = (self.local("_i"), self.local("_e"));
        let held = format!(
            "_sequence({raw}, {}, {}, {}, {})",
            php_str(&s.missing),
            php_str(&s.not_a_sequence),
            php_str(&s.too_many),
            s.max
        );
        // The elements in order, each held before the next is looked at.
        let list = self.local("_o");
        format!(
            "(function (array {list}): array {{ $r = []; foreach ({list} as {i} => {e}) {{ $r[] = {each}({e}, _place({}, {i})); }} return $r; }})({held})",
            php_str(&s.name)
        )
    }
}
