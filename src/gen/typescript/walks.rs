//! A rule that walks a sequence, in TypeScript and JavaScript (generated-code.md "A rule that
//! walks a sequence"): each sequence's element an object type, and two functions beside it —
//! one holding an element as the entry guard holds an input, one reading it at the wire
//! door — each refusal naming the element's place (`lines[2].quantity is out of range`).

use super::{doc, js_str, Ts};
use crate::eval::wire::{sentence, WireKind};
use crate::gen::plan::{BoundaryTy, FieldDoor, SequencePlan};
use crate::gen::printer::Spelled;
use crate::gen::text::Code;

impl<const TYPED: bool> Ts<'_, TYPED> {
    /// Each sequence's element type and its two functions, in the order declared.
    pub(super) fn elements(&self, o: &mut Code) {
        for (k, s) in self.plan.sequences.iter().enumerate() {
            let record = &self.n.records[k];
            o.line(format!("/** One element of {}. */", doc(&s.name)));
            o.line(format!("export type {record} = {{"));
            o.indent();
            for f in &s.fields {
                o.line(format!("readonly {}: {};", self.n.fields[f.var], self.ty(f.var)));
            }
            o.dedent();
            o.line("};");
            o.blank();
            self.element(o, k, s, false);
            self.element(o, k, s, true);
        }
    }

    /// The function holding one element (as the entry guard holds it, or off the wire when
    /// `wire`): an object, each field held to its door in order, then (off the wire) a key
    /// that is no field.
    fn element(&self, o: &mut Code, k: usize, s: &SequencePlan, wire: bool) {
        let l = |b| self.n.local(b);
        let (e, el, at, record) = (l("_e"), l("_o"), l("_at"), &self.n.records[k]);
        let (name, what) = match wire {
            true => (
                &self.n.element_reads[k],
                "at the wire door: an object, each field read as an input of its type is, then a key that is no field",
            ),
            false => {
                (&self.n.element_checks[k], "as the entry guard holds it: each field as an input of its type, in order")
            }
        };
        o.line(format!("/** One element {what}. */"));
        o.line(format!("function {name}({e}: unknown, {at}: string): {record} {{"));
        o.indent();
        o.line(format!("const {el} = _object({e}, {at} + {});", js_str(&s.not_an_element)));
        for f in &s.fields {
            // Off the wire by the declared name; in the caller's record by the field's.
            let key = if wire { f.name.as_str() } else { self.n.fields[f.var].as_str() };
            self.field(o, f, &format!("_get({el}, {})", js_str(key)), wire);
        }
        if wire {
            let names: Vec<String> = s.fields.iter().map(|f| js_str(&f.name)).collect();
            o.line(format!("_unknownFields({el}, [{}], {at}, {});", names.join(", "), js_str(sentence::NOT_A_FIELD)));
        }
        let fields: Vec<String> =
            s.fields.iter().map(|f| format!("{}: {}", self.n.fields[f.var], self.n.vars[f.var])).collect();
        o.line(format!("return {{ {} }};", fields.join(", ")));
        o.dedent();
        o.line("}");
        o.blank();
    }

    /// One field held to its door: missing, its kind, its range, each sentence after the
    /// element's place.
    fn field(&self, o: &mut Code, f: &FieldDoor, raw: &str, wire: bool) {
        let at = self.n.local("_at");
        let x = &self.n.vars[f.var];
        let said = |s: &str| format!("{at} + {}", js_str(s));
        let [m, k, lo, hi, out] = f.said(said, |n| (self.ops().int)(n), ["null", "\"\""]);
        let ty = self.plan.var(f.var).ty;
        let read = match f.kind {
            WireKind::Integer => self.made(ty, &format!("_checkInt({raw}, {lo}, {hi}, {m}, {k}, {out})")),
            WireKind::Date if wire => self.made(ty, &format!("_wireDay({raw}, {lo}, {hi}, {m}, {k}, {out})")),
            WireKind::Date => self.made(ty, &format!("_checkInt({raw}, {lo}, {hi}, {m}, {k}, {out})")),
            WireKind::Boolean => format!("_wireBool({raw}, {m}, {k})"),
            WireKind::Text => format!("_wireStr({raw}, {m}, {k})"),
            WireKind::Enum(e) => format!("_wireMember({}, {raw}, {m}, {k})", self.n.enums[e]),
        };
        o.line(format!("const {x} = {read};"));
        if let (WireKind::Enum(e), Some((lo, hi, out))) = (f.kind, &f.range) {
            let rank = self.n.ranks[e].as_deref().expect("a field ranged over an enum's places has its rank function");
            o.line(format!("if ({rank}({x}) < {lo} || {rank}({x}) > {hi}) {{"));
            o.line(format!("  throw new RuleInputError({at} + {}, {x});", js_str(out)));
            o.line("}");
        }
    }

    /// An integer made a value of the field's type (a unit's brand, a day).
    fn made(&self, ty: BoundaryTy, x: &str) -> String {
        match ty {
            BoundaryTy::Unit(u) => format!("{x} as {}", self.n.units[u]),
            BoundaryTy::Date => format!("{x} as Day"),
            _ => x.to_string(),
        }
    }

    /// `held(raw).map((e, i) => each(e, "lines[i]"))`: the sequence held, each element by `each`.
    pub(super) fn elements_read(&self, k: usize, raw: &str, each: &str) -> String {
        let s = &self.plan.sequences[k];
        let (i, e) = (self.n.local("_i"), self.n.local("_e"));
        format!("{}.map(({e}, {i}) => {each}({e}, _place({}, {i})))", s.held(raw, js_str), js_str(&s.name))
    }

    /// The entry guard's line holding sequence `seq`, or (`wire`) the wire door's reading it.
    pub(super) fn sequence_line(&self, seq: &SequencePlan, wire: bool) -> String {
        let (k, list) = (self.plan.sequence_of(seq.list), &self.n.vars[seq.list]);
        match wire {
            false => format!("{list} = {};", self.elements_read(k, list, &self.n.element_checks[k])),
            true => {
                let raw = format!("_get({}, {})", self.n.local("_call"), js_str(&seq.name));
                let read = self.elements_read(k, &raw, &self.n.element_reads[k]);
                format!("const {list}: {} = {read};", self.ty(seq.list))
            }
        }
    }
}
