//! Go's enums: each an integer type with `Valid`, `String` and its parser; and an enums
//! file's enums, which are a package of their own (`tiers/go.mod`, `tiers/tiers.go`), written
//! once per folder with the same bytes from every rule that reads it. A rule's package
//! requires that module (a `replace` to `../tiers`, so `go build` needs no proxy) and names
//! each of its enums under the names it would have declared: a type alias, its constants and
//! its parser, so two rules' `Tier` are one type.

use super::super::naming::SharedNames;
use super::super::plan::EnumPlan;
use super::super::sig;
use super::super::text::{comment, section, Code};
use super::super::File;
use super::{go_str, module_path, Spell, MARK, TEMPLATES};
use serde_json::Value as Json;

/// The fills of the `enum` template: the type `name`, its members and its parser.
fn declared(en: &EnumPlan, name: &str, members: &[String], parse: &str) -> Vec<(&'static str, String)> {
    let each = |line: &dyn Fn(&str, &str) -> String| -> String {
        members.iter().zip(&en.values).map(|(m, v)| line(m, &go_str(&v.name))).collect::<Vec<_>>().join("\n")
    };
    vec![
        ("name", name.to_string()),
        ("what", comment(&en.name)),
        ("ordered", ordered(en)),
        ("first", members[0].clone()),
        ("others", members[1..].join("\n")),
        ("last", members[members.len() - 1].clone()),
        ("to_name", each(&|m, wire| format!("case {m}:\n\treturn {wire}"))),
        ("unnamed", go_str(&format!("{name}(%d)"))),
        ("parse", parse.to_string()),
        ("from_name", each(&|m, wire| format!("case {wire}:\n\treturn {m}, true"))),
    ]
}

fn ordered(en: &EnumPlan) -> String {
    if en.ordered { " (ordered: a value compares by its place)" } else { "" }.to_string()
}

impl Spell<'_> {
    /// The name the rule's package gives the package `s`: its own, but where the rule's package
    /// declares that name itself (its core, `decide`).
    fn qualifier(&self, s: &SharedNames) -> String {
        if s.module == self.n.core {
            format!("{}_", s.module)
        } else {
            s.module.clone()
        }
    }

    /// The rule's enums: declared here, or named from the package of the enums file that
    /// declares them.
    pub(super) fn enums(&self, o: &mut Code) {
        let shared = self.shared();
        for (e, en) in self.plan.enums.iter().enumerate() {
            let (name, members) = (&self.n.enums[e], &self.n.members[e]);
            let parse = self.n.parsers[e].as_deref().expect("Go names a parser per enum");
            match SharedNames::of(&shared, e) {
                Some((s, k)) => {
                    // Each constant `Name = pkg.Name`, the `=` aligned as gofmt aligns it.
                    let q = self.qualifier(s);
                    let width = members.iter().map(|m| m.chars().count()).max().unwrap_or(0);
                    let consts = members
                        .iter()
                        .zip(&s.members[k])
                        .map(|(m, there)| format!("{m}{} = {q}.{there}", " ".repeat(width - m.chars().count())));
                    let fills = [
                        ("name", name.clone()),
                        ("what", comment(&en.name)),
                        ("ordered", ordered(en)),
                        ("package", s.module.clone()),
                        ("qualifier", q.clone()),
                        ("module_path", module_path(&s.module)),
                        ("declared", s.types[k].clone()),
                        ("consts", consts.collect::<Vec<_>>().join("\n")),
                        ("parse", parse.to_string()),
                        ("declared_parse", s.parsers[k].clone().expect("Go names a parser per enum")),
                    ];
                    o.filled(section(TEMPLATES, MARK, "alias"), &fills);
                }
                None => o.filled(section(TEMPLATES, MARK, "enum"), &declared(en, name, members, parse)),
            }
            o.blank();
        }
    }

    /// What the rule's package imports: `fmt`, and the package of each enums file it reads.
    pub(super) fn imports(&self) -> String {
        let shared = self.shared();
        if shared.is_empty() {
            return "\"fmt\"".to_string();
        }
        let named = |s: &SharedNames| match self.qualifier(s) {
            q if q == s.module => String::new(),
            q => format!("{q} "),
        };
        let paths: Vec<String> =
            shared.iter().map(|s| format!("\t{}{}\n", named(s), go_str(&module_path(&s.module)))).collect();
        format!("(\n\t\"fmt\"\n\n{})", paths.concat())
    }

    /// The rule's go.mod: its module, and each enums file's it requires, found beside it.
    pub(super) fn go_mod(&self) -> String {
        let mut text = go_mod(&self.n.module);
        let shared = self.shared();
        let lines = |each: &dyn Fn(&SharedNames) -> String| -> Vec<String> { shared.iter().map(each).collect() };
        let require = lines(&|s| format!("{} v0.0.0", module_path(&s.module)));
        let replace = lines(&|s| format!("{} => ../{}", module_path(&s.module), s.module));
        for (word, specs) in [("require", require), ("replace", replace)] {
            match specs.as_slice() {
                [] => {}
                [one] => text.push_str(&format!("\n{word} {one}\n")),
                _ => text.push_str(&format!("\n{word} (\n\t{}\n)\n", specs.join("\n\t"))),
            }
        }
        text
    }

    /// The package of each enums file the rule reads (`tiers/go.mod`, `tiers/tiers.go`): its
    /// go.mod and its enums, the same bytes from every rule that reads the file.
    pub(super) fn shared_packages(&self) -> Vec<File> {
        let shared = self.shared();
        let mods: Vec<File> =
            shared.iter().map(|s| File { path: format!("{}/go.mod", s.module), text: go_mod(&s.module) }).collect();
        let code = sig::enums_modules(self.plan, shared, ("\t", "//"), |mut o, s, u| {
            let pkg = &s.module;
            o.blank();
            let fills = [
                ("package", pkg.clone()),
                ("source", comment(&u.source_name)),
                ("module_path", module_path(pkg)),
                ("first", format!("{pkg}.{}", s.types[0])),
            ];
            o.filled(section(TEMPLATES, MARK, "shared"), &fills);
            o.blank();
            for (k, &e) in s.enums.iter().enumerate() {
                let parse = s.parsers[k].as_deref().expect("Go names a parser per enum");
                o.filled(
                    section(TEMPLATES, MARK, "enum"),
                    &declared(&self.plan.enums[e], &s.types[k], &s.members[k], parse),
                );
                o.blank();
            }
            File { path: format!("{pkg}/{pkg}.go"), text: o.finish() }
        });
        mods.into_iter().zip(code).flat_map(|(m, c)| [m, c]).collect()
    }

    /// `rulec api`'s entry, with each enum of an enums file's package, file, module path and
    /// name there.
    pub(super) fn api_shared(&self, mut entry: Json) -> Json {
        super::super::api::shared_enums(&mut entry, &self.shared(), |s| {
            vec![
                ("package", s.module.clone()),
                ("module", format!("{0}/{0}.go", s.module)),
                ("module_path", module_path(&s.module)),
            ]
        });
        entry
    }
}

/// A package's go.mod, before what it requires.
pub(super) fn go_mod(package: &str) -> String {
    format!("module {}\n\ngo 1.18\n", module_path(package))
}
