//! The Swift backend. Swift cannot be installed on this kind of machine, so what is held here
//! is what can be: every generated file (and the runtime files) parses with tree-sitter's
//! Swift grammar (from PyPI), so a syntax error cannot land unseen; `rulec test` reports Swift
//! `ran: false` with the reason where swiftc is absent, and `--require-all` then fails; where
//! swiftc is present, every rule agrees with the reference.

mod common;
use common::*;
use std::path::Path;

#[test]
fn every_swift_file_parses() {
    if !have_swift_grammar() {
        eprintln!("note: skipped: pip install tree-sitter tree-sitter-swift");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "swift", dir.path());
    let mut files: Vec<String> =
        std::fs::read_dir(dir.path().join("swift")).unwrap().map(|e| e.unwrap().path().display().to_string()).collect();
    for f in ["Module.swift", "Runner.swift", "HelpersRunner.swift"] {
        files.push(Path::new(ROOT).join("src/gen/swift/runtime").join(f).display().to_string());
    }
    files.sort();
    assert!(files.len() > rules().len() * 2, "{files:?}");
    if let Err(e) = swift_parses(&files) {
        panic!("{e}");
    }
}

/// The grammar is not a rubber stamp: a file with a syntax error fails.
#[test]
fn the_swift_grammar_finds_a_syntax_error() {
    if !have_swift_grammar() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.swift");
    std::fs::write(&f, "public func f(x: Int64) -> Int64 {\n    return x +\n}\n").unwrap();
    assert!(swift_parses(&[f.display().to_string()]).is_err());
}

#[test]
fn without_swiftc_swift_is_reported_not_run_and_require_all_fails() {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "swift", dir.path());
    let out_dir = dir.path().to_str().unwrap();
    let out = rulec(&["test", out_dir, "--lang", "swift", "--format", "json"], Path::new(ROOT));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    if rulec::harness::on_path("swiftc") {
        assert_green(&report);
        return;
    }
    let skipped = report["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{report}");
    assert_eq!(skipped[0]["lang"], "swift");
    assert_eq!(skipped[0]["ran"], false);
    assert_eq!(skipped[0]["reason"], "swiftc is not on PATH");
    assert_eq!(out.status.code(), Some(0), "without --require-all a language that cannot run is reported, not failed");
    let strict = rulec(&["test", out_dir, "--lang", "swift", "--require-all"], Path::new(ROOT));
    assert_eq!(strict.status.code(), Some(1), "{}", text(&strict.stdout));
    assert!(
        text(&strict.stdout).contains("FAIL swift (ran: false): swiftc is not on PATH"),
        "{}",
        text(&strict.stdout)
    );
    println!("swift: not installable on this machine kind; reported ran:false, and CI runs --require-all without it");
}

/// Two rules reading one enums file, generated into one folder: the file's enums are its own
/// Swift file (`tiers.swift`, the same bytes whichever rule writes it), which neither rule's
/// file declares again; each rule's file says it is built with it (`// Build:`, and
/// `rulec api`'s build), imports the module `Tiers` where the caller built the file as one,
/// and `rulec test` compiles it with each rule's runner. Every file, and a caller handing one
/// rule's tier to the other's function, parses; where swiftc is present both rules agree with
/// the reference.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_swift() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "swift");
    let swift = out.join("swift");
    let shared = std::fs::read_to_string(swift.join("tiers.swift")).unwrap();
    assert!(shared.contains("public enum Tier: String, CaseIterable, Sendable {"), "{shared}");
    generate(&[d.join("rules/tier_points.rule")], "swift", &d.join("alone"));
    assert_eq!(
        std::fs::read_to_string(d.join("alone/swift/tiers.swift")).unwrap(),
        shared,
        "one file from either rule"
    );
    for rule in ["member_discount", "tier_points"] {
        let source = std::fs::read_to_string(swift.join(format!("{rule}.swift"))).unwrap();
        assert!(!source.contains("enum Tier:"), "{rule}.swift declares no Tier of its own");
        let build = format!("swiftc {rule}.swift tiers.swift {rule}_runner.swift -o {rule}");
        assert!(source.contains(&format!("// Build: {build}\n")), "{source}");
        assert!(source.contains("#if canImport(Tiers)\nimport Tiers\n#endif\n"), "{source}");
        let api = common::api(&d.join(format!("rules/{rule}.rule")), "swift");
        assert_eq!(api["build"], build.as_str());
        assert_eq!([&api["enums"][0]["module"], &api["enums"][0]["declared"]], ["tiers.swift", "Tier"]);
        // What `rulec test` compiles: the rule, the enums file's module and the runner.
        let runner = rulec::gen::backend(rulec::gen::Lang::Swift).runner_in(rule, &swift);
        let files = [format!("{rule}.swift"), "tiers.swift".into(), format!("{rule}_runner.swift")];
        assert_eq!(runner.build[0][1..5], ["-O".to_string(), files[0].clone(), files[1].clone(), files[2].clone()]);
    }
    let plain = rulec::gen::backend(rulec::gen::Lang::Swift).runner_in("parcel_rate", &swift);
    assert_eq!(plain.build, rulec::gen::backend(rulec::gen::Lang::Swift).runner("parcel_rate").build);
    let caller = "func caller() throws -> Int64 {\n    let tier: Tier = .gold\n    \
        return try tierPoints(tier: tier) + memberDiscount(tier: tier, channel: .web, subtotal: JPYInclTax(10000), coupon: nil).pct\n}\n";
    std::fs::write(d.join("caller.swift"), caller).unwrap();
    if have_swift_grammar() {
        let mut files: Vec<String> =
            std::fs::read_dir(&swift).unwrap().map(|e| e.unwrap().path().display().to_string()).collect();
        files.push(d.join("caller.swift").display().to_string());
        if let Err(e) = swift_parses(&files) {
            panic!("{e}");
        }
    }
    if on_path("swiftc") {
        assert_green(&test_json(&out, "swift"));
    }
}
