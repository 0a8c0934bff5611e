//! Rust's enums: each a `Copy` enum with its names and the way back from one; and an enums
//! file's enums, which are a module of their own (`tiers.rs`), written once per folder with
//! the same bytes from every rule that reads it. A rule's module names them from beside it
//! (`pub use super::tiers::Tier;`), so two rules' enums are one type: whatever includes the
//! rule's module (the runner, the Wasm entry, rulec-build's OUT_DIR, `include_rule!`) includes
//! the enums file's beside it, once.

use super::super::naming::{Names, SharedNames};
use super::super::plan::{EnumPlan, Plan};
use super::super::sig;
use super::super::text::{braced_unicode as rs_str, comment, section, Code};
use super::super::File;
use super::{Rs, MARK, TEMPLATES};
use crate::lang::{is_acronym, is_camel};

/// An enum: its variants (each its value's display name as its doc), its names and the way
/// back from one.
fn enum_declaration(o: &mut Code, en: &EnumPlan, name: &str, members: &[String]) {
    let mut lints = Vec::new();
    if !is_camel(name) || !members.iter().all(|m| is_camel(m)) {
        lints.push("non_camel_case_types");
    }
    if is_acronym(name) || members.iter().any(|m| is_acronym(m)) {
        lints.push("clippy::upper_case_acronyms");
    }
    let all: Vec<String> = members.iter().map(|m| format!("{name}::{m}")).collect();
    let each = |f: &dyn Fn(&str, &str) -> String| {
        all.iter().zip(&en.values).map(|(m, v)| f(m, &rs_str(&v.name))).collect::<Vec<_>>().join("\n")
    };
    let declared = members.iter().zip(&en.values).map(|(m, v)| match &v.display {
        Some(display) => format!("/// {}\n{m},", comment(display)),
        None => format!("{m},"),
    });
    let fills = [
        ("what", comment(&en.name)),
        ("ordered", if en.ordered { " (ordered: a value compares by its place)" } else { "" }.to_string()),
        ("lints", if lints.is_empty() { String::new() } else { format!("#[allow({})]", lints.join(", ")) }),
        ("enum", name.to_string()),
        ("members", declared.collect::<Vec<_>>().join("\n")),
        ("count", all.len().to_string()),
        ("all", all.join(", ")),
        ("names", each(&|m, wire| format!("{m} => {wire},"))),
        ("parses", each(&|m, wire| format!("{wire} => Some({m}),"))),
    ];
    o.filled(section(TEMPLATES, MARK, "enum"), &fills);
}

impl Rs<'_> {
    /// Each enum: declared here, or, for one of an enums file, named from that file's module
    /// beside this one, so that every rule reading the file takes one type.
    pub(super) fn enums(&self, o: &mut Code) {
        let shared = self.shared();
        for (e, en) in self.plan.enums.iter().enumerate() {
            let name = &self.n.enums[e];
            match SharedNames::of(&shared, e) {
                Some((s, k)) => {
                    let u = &self.plan.uses[en.home.expect("a shared enum has a home")];
                    o.line(format!(
                        "/// enum {}: declared in {}.rs, the module of {} beside this one, which every rule reading it shares.",
                        comment(&en.name),
                        s.module,
                        comment(&u.source_name)
                    ));
                    let renamed = if s.types[k] == *name { String::new() } else { format!(" as {name}") };
                    o.line(format!("pub use super::{}::{}{renamed};", s.module, s.types[k]));
                }
                None => enum_declaration(o, en, name, &self.n.members[e]),
            }
            o.blank();
        }
    }

    /// The module of each enums file the rule reads (`tiers.rs`): its enums, the same bytes
    /// from every rule that reads the file, so a folder holds it once. A rule's module names
    /// them as `super::tiers::Tier`, so this one is included beside the rules' (`pub mod tiers
    /// { … }`).
    pub(super) fn shared_modules(&self) -> Vec<File> {
        sig::enums_modules(self.plan, self.shared(), ("    ", "//"), |mut o, s, u| {
            let (source, m, first) = (comment(&u.source_name), &s.module, &s.types[0]);
            o.raw(&format!(
                "//\n// The enums every rule reading {source} shares, included beside the rules' modules as `mod {m}`:\n"
            ));
            o.line(format!("// each names them from here (pub use super::{m}::{first};)."));
            for (k, &e) in s.enums.iter().enumerate() {
                o.blank();
                enum_declaration(&mut o, &self.plan.enums[e], &s.types[k], &s.members[k]);
            }
            File { path: format!("{}.rs", s.module), text: o.finish() }
        })
    }
}

/// The `mod` line of each enums file's module a rule reads, for a crate root that includes
/// the rule's module (the runner, the Wasm entry): the rule's names `super::tiers::Tier`.
pub(crate) fn enums_mods(plan: &Plan, n: &Names) -> String {
    let line = |s: SharedNames| {
        format!(
            "// The enums of an enums file the rule reads.\n#[allow(dead_code)]\n#[path = \"{0}.rs\"]\nmod {0};\n\n",
            s.module
        )
    };
    Rs::new(plan, n).shared().into_iter().map(line).collect()
}
