//! Python's enums: each an `Enum` class, its members also names of the module, and the rank
//! of an ordered one; and an enums file's enums, which are a module of their own (`tiers.py`),
//! written once per folder with the same bytes from every rule that reads it. A rule's module
//! imports them under its own names (`from tiers import Tier as Tier`) and hands them on, so
//! two rules' enums are one class.

use super::super::naming::SharedNames;
use super::super::plan::{EnumPlan, Kind};
use super::super::printer::Syntax;
use super::super::sig;
use super::super::text::{comment, Code};
use super::super::File;
use super::{py_doc, py_str, Py};
use crate::eval::wire::WireKind;

/// An enum's class: a member is its alias in upper case, its value the value's name.
fn enum_class(o: &mut Code, en: &EnumPlan, name: &str, members: &[String]) {
    o.line(format!("class {name}(Enum):"));
    o.indent();
    o.line(py_doc(&format!(
        "enum {}{}: a member is the alias in upper case, its value the name the wire and the records write.",
        en.name,
        if en.ordered { " (ordered: a value compares by its place)" } else { "" }
    )));
    o.blank();
    for (m, v) in members.iter().zip(&en.values) {
        o.line(format!("{m} = {}", py_str(&v.name)));
    }
    o.dedent();
}

impl Py<'_> {
    /// Whether the module reads a member by its wire name (the wire door's `TypeVar`).
    pub(super) fn wire_enum(&self) -> bool {
        self.plan.door.inputs.iter().any(|i| matches!(i.kind, WireKind::Enum(_)))
    }

    /// Whether the module names `Enum`: for an enum it declares, or the wire door's reader of
    /// a member (an enums file's enums are declared in its module).
    pub(super) fn names_enum(&self, shared: &[SharedNames]) -> bool {
        self.wire_enum() || (0..self.plan.enums.len()).any(|e| SharedNames::of(shared, e).is_none())
    }

    /// The import of each enums file's enums, under the rule's name for each, which the module
    /// hands on to its callers.
    pub(super) fn imports(&self, o: &mut Code, shared: &[SharedNames]) {
        for s in shared {
            let named: Vec<String> =
                s.enums.iter().zip(&s.types).map(|(&e, ty)| format!("{ty} as {}", self.n.enums[e])).collect();
            o.line(format!("from {} import {}", s.module, named.join(", ")));
        }
        if !shared.is_empty() {
            o.blank();
        }
    }

    /// Each enum: its class (or, for one of an enums file, a line saying where it is
    /// declared), the members as names of the module and the rank, which are the rule's own.
    pub(super) fn enums(&self, o: &mut Code, shared: &[SharedNames]) {
        for (e, en) in self.plan.enums.iter().enumerate() {
            let name = &self.n.enums[e];
            // A member is spelled in the enum's own namespace: the same in the rule's module
            // and in the enums file's.
            let members = &self.n.members[e];
            match SharedNames::of(shared, e) {
                Some((s, k)) => {
                    debug_assert_eq!(members, &s.members[k], "a member is named in its enum's namespace");
                    o.line(format!(
                        "# {name}: enum {}, declared in {}.py, which every rule reading {} shares.",
                        comment(&en.name),
                        s.module,
                        comment(&self.plan.uses[en.home.expect("a shared enum has a home")].source_name)
                    ));
                }
                None => enum_class(o, en, name, members),
            }
            o.blank();
            o.blank();
            o.line("# The members as names of the module: read through the enum, a member costs a walk through");
            o.line("# the enum's machinery on every call; a name of the module does not.");
            for (i, c) in self.n.member_consts[e].iter().enumerate() {
                if let Some(c) = c {
                    o.line(format!("{c} = {name}.{}", members[i]));
                }
            }
            o.blank();
            o.blank();
            if let Some(rank) = &self.n.ranks[e] {
                let table = format!("_{}_PLACE", rank.trim_start_matches('_').to_ascii_uppercase());
                let places: Vec<String> =
                    (0..en.values.len()).map(|i| format!("{}: {i}", self.member(Kind::Enum(e), i as u32))).collect();
                o.line(format!("{table}: dict[{name}, int] = {{{}}}", places.join(", ")));
                o.blank();
                o.blank();
                o.line(format!("def {rank}(value: {name}) -> int:"));
                o.indent();
                o.line(py_doc(&format!("The place of a value of the ordered enum {}, from 0.", en.name)));
                o.line(format!("return {table}[value]"));
                o.dedent();
                o.blank();
                o.blank();
            }
        }
    }

    /// The module of each enums file the rule reads (`tiers.py`): its enums, the same bytes
    /// from every rule that reads the file, so a folder holds it once.
    pub(super) fn shared_modules(&self) -> Vec<File> {
        sig::enums_modules(self.plan, self.shared(), ("    ", "#"), |mut o, s, u| {
            o.line("#");
            o.line(format!(
                "# The enums every rule reading {} shares: from {} import {}.",
                comment(&u.source_name),
                s.module,
                s.types.join(", ")
            ));
            o.blank();
            o.line("from enum import Enum");
            for ((&e, ty), members) in s.enums.iter().zip(&s.types).zip(&s.members) {
                o.blank();
                o.blank();
                enum_class(&mut o, &self.plan.enums[e], ty, members);
            }
            File { path: format!("{}.py", s.module), text: o.finish() }
        })
    }
}
