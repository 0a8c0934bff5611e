//! A rule that walks a sequence, in Ruby (generated-code.md "A rule that walks a
//! sequence"): each sequence's element a `Struct`, and two module functions beside it — one
//! holding an element as the entry guard holds an input, one reading it at the wire door —
//! each refusal naming the element's place (`lines[2].quantity is out of range`).

use super::{rb_str, Rb};
use crate::eval::wire::{sentence, WireKind};
use crate::gen::plan::{FieldDoor, SequencePlan};
use crate::gen::text::{comment, Code};

impl Rb<'_> {
    /// Each sequence's record and its two functions, in the order declared.
    pub(super) fn elements(&self, o: &mut Code) {
        for (k, s) in self.plan.sequences.iter().enumerate() {
            let fields: Vec<String> = s.fields.iter().map(|f| format!(":{}", self.n.fields[f.var])).collect();
            o.line(format!("# One element of {}.", comment(&s.name)));
            o.line(format!("{} = Struct.new({})", self.n.records[k], fields.join(", ")));
            o.blank();
            self.element(o, k, s, false);
            self.element(o, k, s, true);
        }
    }

    /// The names of the module functions the walks add, which the module keeps private.
    pub(super) fn element_functions(&self) -> Vec<String> {
        self.n.element_checks.iter().chain(&self.n.element_reads).cloned().collect()
    }

    /// The function holding one element (as the entry guard holds it, or off the wire when
    /// `wire`): each field held to its door in order, then (off the wire) a key that is no field.
    fn element(&self, o: &mut Code, k: usize, s: &SequencePlan, wire: bool) {
        let l = |b| self.n.local(b);
        let (e, at, record) = (l("_e"), l("_at"), &self.n.records[k]);
        let (name, what, kind) = match wire {
            true => (
                &self.n.element_reads[k],
                "at the wire door: a Hash, each field read as an input of its type is, then a key that is no field",
                "Hash",
            ),
            false => (
                &self.n.element_checks[k],
                "as the entry guard holds it: each field as an input of its type, in order",
                record.as_str(),
            ),
        };
        o.line(format!("# One element {what}."));
        o.line(format!("def self.{name}({e}, {at})"));
        o.indent();
        o.line(format!(
            "raise RuleInputError.new({at} + {}, {e}.inspect) unless {e}.is_a?({kind})",
            rb_str(&s.not_an_element)
        ));
        for f in &s.fields {
            let raw = match wire {
                true => format!("{e}[{}]", rb_str(&f.name)),
                false => format!("{e}.{}", self.n.fields[f.var]),
            };
            self.field(o, f, &raw, wire);
        }
        if wire {
            let names: Vec<String> = s.fields.iter().map(|f| rb_str(&f.name)).collect();
            let key = l("_key");
            o.line(format!("{e}.each_key do |{key}|"));
            o.line(format!(
                "  raise RuleInputError.new({at} + \".\" + {key}.to_s + {}) unless [{}].include?({key})",
                rb_str(sentence::NOT_A_FIELD),
                names.join(", ")
            ));
            o.line("end");
        }
        let values: Vec<&str> = s.fields.iter().map(|f| self.n.vars[f.var].as_str()).collect();
        o.line(format!("{record}.new({})", values.join(", ")));
        o.dedent();
        o.line("end");
        o.blank();
    }

    /// One field held to its door: missing, its kind, its range, each sentence after the
    /// element's place.
    fn field(&self, o: &mut Code, f: &FieldDoor, raw: &str, wire: bool) {
        let at = self.n.local("_at");
        let x = &self.n.vars[f.var];
        let said = |s: &str| format!("{at} + {}", rb_str(s));
        let (m, k) = (said(&f.missing), said(&f.not_of_kind));
        let (lo, hi, out) = match &f.range {
            Some((lo, hi, out)) => (lo.to_string(), hi.to_string(), said(out)),
            None => ("nil".into(), "nil".into(), "\"\"".into()),
        };
        match f.kind {
            WireKind::Integer => o.line(format!("{x} = _check_int({raw}, {lo}, {hi}, {m}, {k}, {out})")),
            WireKind::Date if !wire => o.line(format!("{x} = _check_int({raw}, {lo}, {hi}, {m}, {k}, {out})")),
            WireKind::Date => {
                o.line(format!("{x} = _wire_day({raw}, {m}, {k})"));
                self.inside(o, f, x, x);
            }
            WireKind::Boolean => {
                o.line(format!("{x} = {raw}"));
                o.line(format!("_refuse({x}, {m}, {k}) unless {x}.equal?(true) || {x}.equal?(false)"));
            }
            WireKind::Text => {
                o.line(format!("{x} = {raw}"));
                o.line(format!("_refuse({x}, {m}, {k}) unless {x}.is_a?(String)"));
            }
            WireKind::Enum(e) => {
                let ty = &self.n.enums[e];
                o.line(format!("{x} = _wire_member({ty}::ALL, {raw}, {m}, {k})"));
                self.inside(o, f, x, &format!("{ty}::ALL.index({x})"));
            }
        }
    }

    /// The range check of a field read apart from its kind (a date off the wire, a member).
    fn inside(&self, o: &mut Code, f: &FieldDoor, x: &str, place: &str) {
        if let Some((lo, hi, out)) = &f.range {
            let at = self.n.local("_at");
            o.line(format!(
                "raise RuleInputError.new({at} + {}, {x}.inspect) unless {place}.between?({lo}, {hi})",
                rb_str(out)
            ));
        }
    }

    /// `held(raw).each_with_index.map { |e, i| each(e, "lines[i]") }`.
    pub(super) fn elements_read(&self, k: usize, raw: &str, each: &str) -> String {
        let s = &self.plan.sequences[k];
        let (i, e) = (self.n.local("_i"), self.n.local("_e"));
        let held = format!(
            "_sequence({raw}, {}, {}, {}, {})",
            rb_str(&s.missing),
            rb_str(&s.not_a_sequence),
            rb_str(&s.too_many),
            s.max
        );
        format!("{held}.each_with_index.map {{ |{e}, {i}| {each}({e}, _place({}, {i})) }}", rb_str(&s.name))
    }
}
