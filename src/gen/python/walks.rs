//! A rule that walks a sequence, in Python (generated-code.md "A rule that walks a
//! sequence"): each sequence's element a `NamedTuple`, and two functions beside it — one
//! holding an element as the entry guard holds an input, one reading it at the wire door —
//! each refusal naming the element's place (`lines[2].quantity is out of range`).

use super::{py_doc, py_str, Py};
use crate::eval::wire::WireKind;
use crate::gen::plan::{BoundaryTy, FieldDoor, SequencePlan};
use crate::gen::text::Code;

impl Py<'_> {
    /// Each sequence's record and its two functions, in the order the sequences are declared.
    pub(super) fn elements(&self, o: &mut Code) {
        for (k, s) in self.plan.sequences.iter().enumerate() {
            let record = &self.n.records[k];
            o.line(format!("class {record}(NamedTuple):"));
            o.indent();
            o.line(py_doc(&format!("One element of {}.", s.name)));
            o.blank();
            for f in &s.fields {
                o.line(format!("{}: {}", self.n.fields[f.var], self.ty(f.var)));
            }
            o.dedent();
            o.blank();
            o.blank();
            self.check_element(o, k, s);
            self.read_element(o, k, s);
        }
    }

    /// `_check_element(e, at)`: an element as the entry guard holds it.
    fn check_element(&self, o: &mut Code, k: usize, s: &SequencePlan) {
        let (e, el, at, record) = (self.n.local("_e"), self.n.local("_o"), self.n.local("_at"), &self.n.records[k]);
        o.line(format!("def {}({e}: object, {at}: str) -> {record}:", self.n.element_checks[k]));
        o.indent();
        o.line(py_doc("One element as the entry guard holds it: each field as an input of its type, in order."));
        o.line(format!("{el} = _held({e}, {record}, {at} + {})", py_str(&s.not_an_element)));
        for f in &s.fields {
            self.field(o, f, &format!("{el}.{}", self.n.fields[f.var]), false);
        }
        o.line(format!("return {record}({})", self.field_names(s)));
        o.dedent();
        o.blank();
        o.blank();
    }

    /// `_read_element(o, at)`: an element at the wire door, then a key that is no field.
    fn read_element(&self, o: &mut Code, k: usize, s: &SequencePlan) {
        let (e, el, at, key) = (self.n.local("_e"), self.n.local("_o"), self.n.local("_at"), self.n.local("_key"));
        let record = &self.n.records[k];
        o.line(format!("def {}({e}: object, {at}: str) -> {record}:", self.n.element_reads[k]));
        o.indent();
        o.line(py_doc("One element at the wire door: an object, each field read as an input of its type is, then a key that is no field."));
        o.line(format!("{el} = _object({e}, {at} + {})", py_str(&s.not_an_element)));
        for f in &s.fields {
            self.field(o, f, &format!("{el}.get({})", py_str(&f.name)), true);
        }
        let names: Vec<String> = s.fields.iter().map(|f| py_str(&f.name)).collect();
        let tuple = if names.len() == 1 { format!("({},)", names[0]) } else { format!("({})", names.join(", ")) };
        o.line(format!("for {key} in {el}:"));
        o.line(format!("    if {key} not in {tuple}:"));
        o.line(format!(
            "        raise RuleInputError({at} + \".\" + _str({key}) + {})",
            py_str(crate::eval::wire::sentence::NOT_A_FIELD)
        ));
        o.line(format!("return {record}({})", self.field_names(s)));
        o.dedent();
        o.blank();
        o.blank();
    }

    fn field_names(&self, s: &SequencePlan) -> String {
        s.fields.iter().map(|f| self.n.vars[f.var].clone()).collect::<Vec<_>>().join(", ")
    }

    /// One field held to its door: missing, its kind, its range, in that order, each
    /// sentence after the element's place. `raw` reads it (off the wire when `wire`).
    fn field(&self, o: &mut Code, f: &FieldDoor, raw: &str, wire: bool) {
        let at = self.n.local("_at");
        let x = &self.n.vars[f.var];
        let said = |s: &str| format!("{at} + {}", py_str(s));
        let (m, k) = (said(&f.missing), said(&f.not_of_kind));
        let range = f.range.as_ref();
        let ends = |r: Option<&(i64, i64, String)>| match r {
            Some((lo, hi, out)) => (lo.to_string(), hi.to_string(), said(out)),
            None => ("None".into(), "None".into(), "\"\"".into()),
        };
        let ty = self.plan.var(f.var).ty;
        match f.kind {
            // A day number held: checked as an integer, with a date's sentences.
            WireKind::Integer => {
                let (lo, hi, out) = ends(range);
                let checked = format!("_check_int({raw}, {lo}, {hi}, {m}, {k}, {out})");
                o.line(format!("{x} = {}", self.made(ty, &checked)));
            }
            WireKind::Date if !wire => {
                let (lo, hi, out) = ends(range);
                let checked = format!("_check_int({raw}, {lo}, {hi}, {m}, {k}, {out})");
                o.line(format!("{x} = {}", self.made(ty, &checked)));
            }
            WireKind::Date => {
                o.line(format!("{x} = Date(_wire_day({raw}, {m}, {k}))"));
                self.inside(o, f, x, x);
            }
            WireKind::Enum(e) => {
                let ty = &self.n.enums[e];
                match wire {
                    true => o.line(format!("{x} = _wire_member({ty}, {raw}, {m}, {k})")),
                    false => {
                        o.line(format!("{x} = {raw}"));
                        o.line(format!("if _type({x}) is not {ty}:"));
                        o.line(format!("    _refuse({x}, {m}, {k})"));
                    }
                }
                self.inside(o, f, x, &format!("_list({ty}).index({x})"));
            }
            WireKind::Boolean | WireKind::Text => {
                let ty = if f.kind == WireKind::Boolean { "_bool" } else { "_str" };
                o.line(format!("{x} = {raw}"));
                o.line(format!("if _type({x}) is not {ty}:"));
                o.line(format!("    _refuse({x}, {m}, {k})"));
            }
        }
    }

    /// The range check of a field read apart from its kind (a date off the wire, a member),
    /// `place` the field's place in the range (a member's in its enum).
    fn inside(&self, o: &mut Code, f: &FieldDoor, x: &str, place: &str) {
        if let Some((lo, hi, out)) = &f.range {
            o.line(format!("if not {lo} <= {place} <= {hi}:"));
            o.line(format!("    raise RuleInputError({} + {}, _repr({x}))", self.n.local("_at"), py_str(out)));
        }
    }

    /// An integer made a value of the field's type: its unit's, a date.
    fn made(&self, ty: BoundaryTy, x: &str) -> String {
        match ty {
            BoundaryTy::Unit(u) => format!("{}({x})", self.n.units[u]),
            BoundaryTy::Date => format!("Date({x})"),
            _ => x.to_string(),
        }
    }

    /// The entry guard of sequence `k`: the list and each element held.
    pub(super) fn guard_sequence_line(&self, k: usize) -> String {
        let s = &self.plan.sequences[k];
        let list = &self.n.vars[s.list];
        format!("{list} = {}", self.elements_read(k, list, &self.n.element_checks[k]))
    }

    /// The wire door of sequence `k`: read off the call.
    pub(super) fn wire_sequence_line(&self, k: usize) -> String {
        let s = &self.plan.sequences[k];
        let (list, call) = (&self.n.vars[s.list], self.n.local("_call"));
        let raw = format!("_get({call}, {})", py_str(&s.name));
        format!("{list}: list[{}] = {}", self.n.records[k], self.elements_read(k, &raw, &self.n.element_reads[k]))
    }

    /// `[each(e, "lines[i]") for i, e in enumerate(the sequence held)]`.
    fn elements_read(&self, k: usize, raw: &str, each: &str) -> String {
        let s = &self.plan.sequences[k];
        let (i, e) = (self.n.local("_i"), self.n.local("_e"));
        let held = format!(
            "_sequence({raw}, {}, {}, {}, {})",
            py_str(&s.missing),
            py_str(&s.not_a_sequence),
            py_str(&s.too_many),
            s.max
        );
        format!("[{each}({e}, _place({}, {i})) for {i}, {e} in _enumerate({held})]", py_str(&s.name))
    }
}
