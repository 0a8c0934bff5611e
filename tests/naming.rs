//! Names a rule may legally choose never break a backend: the naming pass settles what folds
//! together in one language, `check` refuses two declarations with one identifier (E075),
//! and `gen` refuses two rules that would write one file.

mod common;
use common::rulec;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn two_declarations_with_one_identifier_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rule = "rule clash v1\n\ninput 重さ(w): int 0..10\ninput w: int 0..10\ninput x(q): int 0..10\ninput y(q): int 0..10\n\nenum f: 赤(red), red\n\ninput c: f\n\noutput o: int 0..20\n\ndefine o = w + 重さ\n";
    std::fs::write(dir.path().join("clash.rule"), rule).unwrap();
    let out = rulec(&["check", "--format", "json", "clash.rule"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let e075: Vec<(u64, String)> = lines
        .iter()
        .filter(|d| d["code"] == "E075")
        .map(|d| (d["line"].as_u64().unwrap(), d["title"].as_str().unwrap_or_default().to_string()))
        .collect();
    assert_eq!(e075.len(), 3, "{lines:?}");
    assert_eq!(e075.iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![4, 6, 8]);
}

#[test]
fn two_rules_that_would_write_one_file_generate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = std::fs::read_to_string(Path::new(ROOT).join("tests/corpus/ticket_price.rule")).unwrap();
    for (folder, text) in [
        ("a", corpus.clone()),
        ("b", corpus.replace("rule ticket_price v1", "rule ticket_price v2")),
        ("c", corpus.replace("rule ticket_price v1", "rule TicketPrice v1")),
    ] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("ticket_price.rule"), text).unwrap();
    }
    let out = rulec(&["gen", "a", "b", "--out", "out"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("a/ticket_price.rule and b/ticket_price.rule would both write"), "{err}");
    assert!(!dir.path().join("out").exists(), "nothing is written");
    // Go's package and Java's class fold `ticket_price` and `TicketPrice` into one.
    let out = rulec(&["gen", "a", "c", "--out", "out", "--lang", "go,java"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("a/ticket_price.rule and c/ticket_price.rule would both write go/ticketprice/"), "{err}");
    // So does the Connect contract Python's service is built from: a proto package is
    // lower case, `ticket_price` for both.
    let out = rulec(&["gen", "a", "c", "--out", "out", "--lang", "python"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("would both write proto/rulec/ticket_price/v1/ticket_price.proto"));
    // Languages that keep the two apart generate both.
    let out = rulec(&["gen", "a", "c", "--out", "out", "--lang", "rust,typescript,ruby"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn w121_says_which_languages_rename_a_name() {
    let dir = Path::new(ROOT);
    let out = rulec(&["check", "--format", "json", "tests/rules/hostile_names.rule"], dir);
    assert!(!text(&out.stdout).contains("\"severity\":\"error\""), "{}", text(&out.stdout));
    let w121: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|d| d["code"] == "W121")
        .collect();
    let class_like =
        w121.iter().find(|d| d["spans"][0]["label"].as_str().unwrap_or("").contains("Python writes `def_`"));
    assert!(class_like.is_some(), "{w121:#?}");
    // `v` is an identifier the generated Rust and Python use themselves; `foo_bar` none does.
    let about = |name: &str| w121.iter().any(|d| d["title"].as_str().unwrap().starts_with(&format!("`{name}`")));
    assert!(about("def") && !about("foo_bar"));
}

/// Every rule of tests/rules (the hostile names, DMN's naming style) in every language.
#[test]
fn legal_names_pass_rulec_test_in_every_language() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    common::generate(&[Path::new(ROOT).join("tests/rules")], "", &out);
    common::assert_green(&common::test_json(&out, ""));
}

/// The W121 labels of a rule's diagnostics, by the name each is about.
fn w121_labels(rule: &str) -> Vec<(String, String)> {
    let out = rulec(&["check", "--format", "json", rule], Path::new(ROOT));
    assert!(!text(&out.stdout).contains("\"severity\":\"error\""), "{}", text(&out.stdout));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|d| d["code"] == "W121")
        .map(|d| {
            let title = d["title"].as_str().unwrap();
            let name = title.trim_start_matches('`').split('`').next().unwrap().to_string();
            (name, d["spans"][0]["label"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn rust_go_typescript_javascript_and_java_keep_the_names_of_their_own_locals() {
    let langs = ["Rust", "Go", "TypeScript", "JavaScript", "Java"];
    let names = |label: &str| -> Vec<&str> {
        langs.iter().copied().filter(|l| label.contains(&format!("{l} writes `"))).collect()
    };
    // The labels are read right: a keyword of all five is renamed by all five.
    let hostile = w121_labels("tests/rules/hostile_names.rule");
    let ret = hostile.iter().find(|(n, _)| n == "return").expect("`return` is a keyword");
    assert_eq!(names(&ret.1), langs, "{ret:?}");
    // `out`, `tag`, `call`, `x`, `err`, `_call`…: the generated code's locals give way to them.
    for (name, label) in w121_labels("tests/rules/local_names.rule") {
        assert!(names(&label).is_empty(), "`{name}` is renamed: {label}");
    }
}

/// Ruby, PHP and Swift: a rule whose names are the generated functions' own parameters and
/// locals (`out`, `tag`, `call`, `rows`, `s`, `_key`…) keeps every one of them, so W121 names
/// none of these languages and `rulec api` spells every parameter as declared.
#[test]
fn ruby_php_and_swift_locals_give_way_to_the_rules_names() {
    let rule = "tests/rules/local_names.rule";
    for (name, label) in w121_labels(rule) {
        for lang in ["Ruby", "PHP", "Swift"] {
            assert!(!label.contains(&format!("{lang} writes `")), "`{name}` is renamed: {label}");
        }
    }
    for lang in ["ruby", "php", "swift"] {
        let params = api_params(lang, rule);
        assert_eq!(params.len(), 24, "{lang}: {params:?}");
        for (declared, spelled) in params {
            assert_eq!(declared, spelled, "{lang} renames a parameter");
        }
    }
}

/// Each parameter of a rule's function in one language, as (declared, spelled).
fn api_params(lang: &str, rule: &str) -> Vec<(String, String)> {
    let out = rulec(&["api", "--lang", lang, rule], Path::new(ROOT));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let api: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let params = api[lang]["params"].as_array().unwrap().iter();
    params.map(|p| (p["name"].as_str().unwrap().into(), p["alias"].as_str().unwrap().into())).collect()
}

/// W121 says what the naming pass does: PHP's `$` variables keep a keyword's name (`$match`)
/// and Swift quotes one (`` `where` ``), so neither is named; Ruby renames `def` and is.
#[test]
fn w121_names_neither_php_nor_swift_for_a_keyword_they_keep() {
    let rule = "tests/rules/hostile_names.rule";
    let labels = w121_labels(rule);
    let label = |name: &str| labels.iter().find(|(n, _)| n == name).map(|(_, l)| l.clone()).unwrap_or_default();
    for name in ["match", "where", "var", "self"] {
        let l = label(name);
        assert!(!l.contains("PHP") && !l.contains("Swift"), "{name}: {l}");
    }
    assert!(label("def").contains("Ruby writes `def_`"), "{}", label("def"));
    assert!(api_params("php", rule).contains(&("match".into(), "match".into())));
    assert!(api_params("swift", rule).contains(&("where".into(), "`where`".into())));
}

/// A rule named like an enum it declares (`rule size`, `enum size`): Go's function `Size`,
/// Java's class `Size` and PHP's function `size` (PHP folds case) leave the type no name of
/// its own, so the naming pass writes it `Size2` there, and W121 says so at the enum, for the languages being generated only.
/// The code those languages get compiles and agrees with the reference.
#[test]
fn a_rule_named_like_its_own_enum_is_w121_for_go_java_and_php() {
    let dir = tempfile::tempdir().unwrap();
    let rule = "rule size v1\n\nenum size: small, medium, large\n\ninput s: size\n\noutput fee: int 0..100\n\n\
        table fee_of -> fee\n| s             | fee |\n|---------------|-----|\n| small         | 1   |\n\
        | medium, large | 2   |\n\nexpect s=large -> fee=2\n";
    std::fs::write(dir.path().join("size.rule"), rule).unwrap();
    let out = rulec(&["check", "--format", "json", "size.rule"], dir.path());
    let w121: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|d| d["code"] == "W121")
        .collect();
    assert_eq!(w121.len(), 1, "{}", text(&out.stdout));
    let d = &w121[0];
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(3), Some(6)), "{d}");
    let label = d["spans"][0]["label"].as_str().unwrap();
    assert!(label.contains("Go writes `Size2` (the function is `Size`)"), "{label}");
    assert!(label.contains("Java writes `Size2` (the class is `Size`)"), "{label}");
    // PHP folds case: its function `size` is the class's name too.
    assert!(label.contains("PHP writes `Size2` (the function is `size`)"), "{label}");
    for lang in ["Rust", "Python", "TypeScript", "Ruby", "Swift"] {
        assert!(!label.contains(&format!("{lang} writes")), "{label}");
    }
    assert_eq!(d["fix"]["text"], "size(size_kind)", "{d}");
    // What W121 names is what the code is: rulec api's type of the input.
    for lang in ["go", "java", "php"] {
        let out = rulec(&["api", "--lang", lang, "size.rule"], dir.path());
        let api: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(api[lang].to_string().contains("\"Size2\""), "{lang}: {}", api[lang]);
    }
    // A build of other languages (rulec-build, include_rule!) hears nothing of it.
    let w121_for = |langs: &[rulec::gen::Lang]| {
        let mut sources = rulec::Sources::new();
        let options = rulec::analysis::Options::default();
        let mut checked = rulec::check_path(&mut sources, &dir.path().join("size.rule"), &options).unwrap();
        checked.for_targets(langs);
        let labels = checked.diagnostics.iter().filter(|d| d.code == "W121").map(|d| d.primary.text.clone());
        labels.collect::<Vec<_>>()
    };
    assert!(w121_for(&[rulec::gen::Lang::Rust, rulec::gen::Lang::Python]).is_empty());
    let go = w121_for(&[rulec::gen::Lang::Go]);
    assert!(go.len() == 1 && go[0].contains("Go writes") && !go[0].contains("Java"), "{go:?}");
    let out = rulec(&["gen", "size.rule", "--out", "gjp", "--lang", "go,java,php"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    common::assert_green(&common::test_json(&dir.path().join("gjp"), "go,java,php"));
}

/// Every name a language's fixed text declares at its module's top level is one that
/// language's naming table claims, so no rule's name takes it or hides it (an input `fire`
/// once hid Go's helper each fired row calls, and the package did not build). Java's
/// methods live apart from its variables, and Ruby's values from its methods.
#[test]
fn every_name_a_runtime_declares_is_claimed_by_its_naming_table() {
    use rulec::lang::Lang;
    let declares: [(Lang, &str, &[&str]); 6] = [
        (Lang::Go, "go/runtime/module.go", &["func ", "type ", "var ", "const "]),
        (Lang::Python, "python/runtime/module.py", &["def ", "class ", ""]),
        (
            Lang::TypeScript,
            "typescript/runtime/module.ts",
            &[
                "export function ",
                "function ",
                "export const ",
                "const ",
                "export class ",
                "class ",
                "export type ",
                "type ",
                "export interface ",
                "interface ",
            ],
        ),
        (
            Lang::Rust,
            "rust/runtime/module.rs",
            &[
                "pub fn ",
                "fn ",
                "pub struct ",
                "struct ",
                "pub enum ",
                "enum ",
                "pub type ",
                "type ",
                "pub const ",
                "const ",
                "pub trait ",
                "trait ",
            ],
        ),
        (Lang::Php, "php/runtime/module.php", &["function ", "final class ", "class ", "enum ", "interface "]),
        (
            Lang::Swift,
            "swift/runtime/Module.swift",
            &[
                "public func ",
                "func ",
                "private func ",
                "fileprivate func ",
                "public struct ",
                "struct ",
                "public enum ",
                "enum ",
                "let ",
                "private let ",
                "fileprivate let ",
            ],
        ),
    ];
    let mut unclaimed = Vec::new();
    for (lang, file, prefixes) in declares {
        let text = std::fs::read_to_string(Path::new(ROOT).join("src/gen").join(file)).unwrap();
        let n = lang.naming();
        let mut seen = 0;
        for line in text.lines() {
            // A declaration at the top level: a prefix, then its name (`name = …` for a bare prefix).
            let Some(rest) = prefixes.iter().find_map(|p| line.strip_prefix(p)) else { continue };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let bare = !prefixes.iter().any(|p| !p.is_empty() && line.starts_with(p));
            // `rulec_wire`, `RULEC_NOT_AN_INPUT`: a placeholder the backend fills, no name.
            let placeholder = name.to_ascii_lowercase().starts_with("rulec_");
            if name.is_empty() || placeholder || (bare && !rest[name.len()..].trim_start().starts_with(['=', ':'])) {
                continue;
            }
            seen += 1;
            if ![n.builtins, n.used, n.reserved].iter().any(|list| list.contains(&name.as_str())) {
                unclaimed.push(format!("{file}: {name}"));
            }
        }
        assert!(seen > 5, "{file}: {seen} declarations read");
    }
    assert!(unclaimed.is_empty(), "declared by the runtime, claimed by no naming table:\n{}", unclaimed.join("\n"));
}
