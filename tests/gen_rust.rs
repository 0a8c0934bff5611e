//! Generated Rust held to the reference evaluator, and `gen` kept in step with the rule:
//! every corpus rule passes `rulec test`; a mutated output or an edited rule is caught;
//! generation is byte-deterministic whatever the environment.

mod common;
use common::rulec;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The clean corpus rules, copied into `dir/rules` (with the enums file they use).
fn corpus_into(dir: &Path) -> Vec<PathBuf> {
    let rules = dir.join("rules");
    std::fs::create_dir_all(rules.join("shared")).unwrap();
    std::fs::copy(format!("{ROOT}/tests/corpus/shared/tiers.rule"), rules.join("shared/tiers.rule")).unwrap();
    let mut out = Vec::new();
    for e in std::fs::read_dir(format!("{ROOT}/tests/corpus")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rule") {
            let to = rules.join(p.file_name().unwrap());
            std::fs::copy(&p, &to).unwrap();
            out.push(to);
        }
    }
    out.sort();
    out
}

fn gen(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["gen", "rules", "--out", "generated", "--lang", "rust"];
    args.extend_from_slice(extra);
    rulec(&args, dir)
}

fn read_tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = walk(dir)
        .into_iter()
        .map(|p| (p.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The corpus and tests/rules: the hostile names (inputs, enums and members named after the
/// words the generated code uses and the keywords of many languages) and the forms each
/// language spells in its own idiom.
fn corpus_and_hostile_into(dir: &Path) -> Vec<PathBuf> {
    let mut rules = corpus_into(dir);
    for name in ["hostile_names.rule", "spelling.rule"] {
        let to = dir.join("rules").join(name);
        std::fs::copy(format!("{ROOT}/tests/rules/{name}"), &to).unwrap();
        rules.push(to);
    }
    rules
}

#[test]
fn every_corpus_rule_passes_rulec_test_in_rust() {
    let dir = tempfile::tempdir().unwrap();
    let rules = corpus_and_hostile_into(dir.path());
    let out = gen(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = rulec(&["test", "generated", "--lang", "rust", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = report["results"].as_array().unwrap();
    // Two passes, each over every rule and the helpers: the runner, and the runner built for
    // wasm32-wasip1 under node's WASI.
    for via in ["runner", "wasi"] {
        let n = results.iter().filter(|r| r["via"] == via).count();
        assert_eq!(n, rules.len() + 1, "every rule and the helpers through {via}");
    }
    for r in results {
        assert_eq!((r["ok"].as_bool(), r["ran"].as_bool()), (Some(true), Some(true)), "{r}");
        assert!(r["vectors"].as_u64().unwrap() > 10, "{r}");
    }
    assert!(report["skipped"].as_array().unwrap().is_empty(), "{}", report["skipped"]);
    // The suite covers every criterion it owes, for every rule.
    for rule in &rules {
        let cov = rulec(&["coverage", "--format", "json", rule.to_str().unwrap()], dir.path());
        assert_eq!(cov.status.code(), Some(0), "{}", text(&cov.stdout));
        let v: serde_json::Value = serde_json::from_slice(&cov.stdout).unwrap();
        for c in v["criteria"].as_array().unwrap() {
            assert_eq!(c["satisfied"], c["total"], "{}: {c}", rule.display());
        }
    }
}

#[test]
fn a_mutated_cell_fails_rulec_test() {
    let dir = tempfile::tempdir().unwrap();
    corpus_into(dir.path());
    assert_eq!(gen(dir.path(), &[]).status.code(), Some(0));
    // Change the answer of one row of the generated code: the signature fee to overseas.
    let module = dir.path().join("generated/rust/parcel_rate.rs");
    let src = std::fs::read_to_string(&module).unwrap();
    // The branch quotes its row; its answer is the first assignment after the quote.
    let quote = src.find("// row 2: true | overseas | 5USD").expect("the branch quotes its row");
    let at = quote + src[quote..].find("sig = 5;").expect("the row's answer");
    let mutated = format!("{}sig = 4;{}", &src[..at], &src[at + "sig = 5;".len()..]);
    std::fs::write(&module, mutated).unwrap();
    let out = rulec(&["test", "generated", "--lang", "rust", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<&serde_json::Value> =
        report["results"].as_array().unwrap().iter().filter(|r| r["ok"] == false).collect();
    // The runner and the same runner under WASI both catch it.
    let vias: Vec<&str> = failed.iter().map(|r| r["via"].as_str().unwrap()).collect();
    assert_eq!(vias, ["runner", "wasi"]);
    for f in &failed {
        assert_eq!(f["rule"], "parcel_rate");
        assert_eq!(f["ran"], true, "a real disagreement, not a build failure");
        assert!(f["first_diff"]["expected"].as_str().unwrap().contains("\"signature\":true"));
    }
    // And gen --check names the hand-edited file.
    let check = gen(dir.path(), &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(v["stale"], serde_json::json!(["generated/rust/parcel_rate.rs"]));
}

#[test]
fn a_trace_from_the_wrong_row_fails_rulec_test() {
    let dir = tempfile::tempdir().unwrap();
    corpus_into(dir.path());
    assert_eq!(gen(dir.path(), &[]).status.code(), Some(0));
    let module = dir.path().join("generated/rust/ticket_price.rs");
    let src = std::fs::read_to_string(&module).unwrap();
    // The branch pushes the row it took onto the trace.
    let quote = src.find("// row 5: - | - | true | 1200JPY").expect("the branch quotes its row");
    let pushed = "trace.push(Fired { table: \"price_of\", row: 5 });";
    let at = quote + src[quote..].find(pushed).expect("the row pushed");
    let wrong = pushed.replace("row: 5", "row: 6");
    std::fs::write(&module, format!("{}{wrong}{}", &src[..at], &src[at + pushed.len()..])).unwrap();
    let out = rulec(&["test", "generated", "--lang", "rust"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("FAIL ticket_price (rust) disagrees with the reference evaluator"));
}

#[test]
fn gen_check_and_locked_catch_each_kind_of_drift() {
    let dir = tempfile::tempdir().unwrap();
    corpus_into(dir.path());
    let d = dir.path();
    assert_eq!(gen(d, &[]).status.code(), Some(0));
    assert!(d.join("rulec.lock").exists());
    let lock = std::fs::read_to_string(d.join("rulec.lock")).unwrap();
    assert!(lock.starts_with("# Written by rulec. Do not edit.\n"));
    assert!(lock.contains("path = \"rules/parcel_rate.rule\""));
    // Every digest is bare hex (build-integration.md), no `sha256:` before it.
    let digests: Vec<&str> =
        lock.lines().filter_map(|l| l.split_once("sha256 = \"")).map(|(_, d)| d.trim_end_matches('"')).collect();
    assert!(digests.len() > 20, "{lock}");
    assert!(digests
        .iter()
        .all(|d| d.len() == 64 && d.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))));
    // Up to date: both pass and write nothing.
    let check = gen(d, &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    assert_eq!(text(&check.stdout).trim(), r#"{"written":[],"stale":[],"missing":[]}"#);
    assert_eq!(gen(d, &["--locked"]).status.code(), Some(0));

    // 1. A hand-edited output.
    let module = d.join("generated/rust/late_fee.rs");
    let original = std::fs::read_to_string(&module).unwrap();
    std::fs::write(&module, original.replace("DO NOT EDIT.", "DO NOT EDIT!")).unwrap();
    let check = gen(d, &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("\"stale\":[\"generated/rust/late_fee.rs\"]"));
    let locked = gen(d, &["--locked", "--check"]);
    assert_eq!(locked.status.code(), Some(1));
    assert!(
        text(&locked.stderr).contains("generated/rust/late_fee.rs: the file on disk differs from the lock"),
        "{}",
        text(&locked.stderr)
    );
    std::fs::write(&module, &original).unwrap();

    // 2. A missing output.
    std::fs::remove_file(d.join("generated/vectors/late_fee.jsonl")).unwrap();
    let check = gen(d, &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("\"missing\":[\"generated/vectors/late_fee.jsonl\"]"));
    assert_eq!(gen(d, &[]).status.code(), Some(0));

    // 3. An edited rule (outputs now stale): one row's answer changes.
    let rule = d.join("rules/parcel_rate.rule");
    let src = std::fs::read_to_string(&rule).unwrap();
    std::fs::write(
        &rule,
        src.replace("| true      | overseas      | 5USD |", "| true      | overseas      | 6USD |")
            .replace("fee=59USD", "fee=60USD"),
    )
    .unwrap();
    let check = gen(d, &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("generated/rust/parcel_rate.rs"), "{}", text(&check.stdout));
    let locked = gen(d, &["--locked", "--check"]);
    assert_eq!(locked.status.code(), Some(1));
    let err = text(&locked.stderr);
    assert!(err.contains("rules/parcel_rate.rule: the source changed since it was locked"), "{err}");
    assert!(err.contains("generated/rust/parcel_rate.rs: the output differs from the lock"), "{err}");
}

#[test]
fn generation_is_byte_deterministic_across_environments() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    corpus_into(a.path());
    corpus_into(b.path());
    assert_eq!(gen(a.path(), &[]).status.code(), Some(0));
    let out = common::command()
        .args(["gen", "rules", "--out", "generated", "--lang", "rust"])
        .current_dir(b.path())
        .env("HOME", b.path())
        .env("LANG", "tr_TR.UTF-8")
        .env("LC_ALL", "tr_TR.UTF-8")
        .env("TZ", "Pacific/Kiritimati")
        .env("RUSTC", "/nonexistent/rustc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(read_tree(&a.path().join("generated")), read_tree(&b.path().join("generated")));
    assert_eq!(
        std::fs::read(a.path().join("rulec.lock")).unwrap(),
        std::fs::read(b.path().join("rulec.lock")).unwrap()
    );
    // A second run writes nothing.
    let again = gen(a.path(), &["--format", "json"]);
    assert_eq!(text(&again.stdout).trim(), r#"{"written":[],"stale":[],"missing":[]}"#);
}

#[test]
fn a_rule_with_errors_generates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rules")).unwrap();
    std::fs::copy(format!("{ROOT}/tests/corpus/broken/unit_mismatch.rule"), dir.path().join("rules/u.rule")).unwrap();
    let out = gen(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("error[E060]"));
    assert!(!dir.path().join("generated").exists());
}

/// `rulec lock` writes the lock `rulec gen` writes with the same arguments, and nothing
/// else; the files it lists are then what `rulec gen` writes, held to it by `--locked`.
#[test]
fn lock_writes_the_lock_of_gen_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    corpus_into(dir.path());
    let d = dir.path();
    let out = rulec(&["lock", "rules", "--out", "generated", "--lang", "rust", "--format", "json"], d);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), r#"{"written":["rulec.lock"],"stale":[],"missing":[]}"#);
    assert!(!d.join("generated").exists(), "rulec lock wrote a generated file");
    let locked = std::fs::read_to_string(d.join("rulec.lock")).unwrap();
    assert!(locked.contains("path = \"rules/parcel_rate.rule\"") && locked.contains("generated/rust/parcel_rate.rs"));
    // Up to date: a second run writes nothing.
    let again = rulec(&["lock", "rules", "--out", "generated", "--lang", "rust", "--format", "json"], d);
    assert_eq!(text(&again.stdout).trim(), r#"{"written":[],"stale":[],"missing":[]}"#);
    // gen writes the files the lock lists, and the lock stays as it was.
    assert_eq!(gen(d, &["--locked"]).status.code(), Some(1), "the files are not on disk yet");
    assert_eq!(gen(d, &[]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(d.join("rulec.lock")).unwrap(), locked);
    assert_eq!(gen(d, &["--locked"]).status.code(), Some(0));
}

/// The generated module the benchmark compiles is committed; CI re-derives it.
#[test]
fn committed_generated_code_is_up_to_date() {
    let out = rulec(
        &[
            "gen",
            "tests/corpus/parcel_rate.rule",
            "--lang",
            "rust",
            "--out",
            "benches/generated",
            "--lock",
            "benches/generated/rulec.lock",
            "--check",
            "--locked",
        ],
        Path::new(ROOT),
    );
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
}

/// Whether a tool is there; a missing one is a failure under CI and a note elsewhere.
fn have(tool: &str) -> bool {
    if rulec::harness::on_path(tool) {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "{tool} is not on PATH, and CI is set");
    eprintln!("note: {tool} is not on PATH; skipping");
    false
}

/// Run a program; its standard error, and whether it succeeded.
fn run(program: &str, args: &[&str], cwd: &Path) -> (bool, String) {
    let out = Command::new(program).args(args).current_dir(cwd).output().unwrap();
    (out.status.success(), format!("{}{}", text(&out.stdout), text(&out.stderr)))
}

/// Every generated file, as the crates that include it compile it: the modules inside
/// `pub mod <alias> { include!(…) }` of one library, the runners as the programs they are,
/// all under clippy with every warning an error.
#[test]
fn the_generated_rust_has_no_warning_under_rustc_and_clippy() {
    if !have("clippy-driver") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rules = corpus_and_hostile_into(dir.path());
    assert_eq!(gen(dir.path(), &[]).status.code(), Some(0));
    let rust = dir.path().join("generated/rust");
    let mut modules = Vec::new();
    let mut runners = Vec::new();
    // The Rust files (the WASI host beside them is node's).
    for p in walk(&rust).into_iter().filter(|p| p.extension().is_some_and(|x| x == "rs")) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        match name.strip_suffix("_runner.rs") {
            Some(_) => runners.push(name),
            None => modules.push(name.strip_suffix(".rs").unwrap().to_string()),
        }
    }
    modules.sort();
    runners.sort();
    // Each rule's module and the enums file's (tiers.rs), beside them as its rules name it.
    assert_eq!((modules.len(), runners.len()), (rules.len() + 1, rules.len() + 1), "{modules:?} {runners:?}");
    let lib: String = modules.iter().map(|m| format!("pub mod {m} {{\n    include!(\"{m}.rs\");\n}}\n")).collect();
    std::fs::write(rust.join("lib.rs"), lib).unwrap();
    let clippy = |file: &str, kind: &str| {
        let (ok, said) = run(
            "clippy-driver",
            &["--edition", "2021", "--crate-type", kind, "--emit=metadata", "-D", "warnings", "-o", "out", file],
            &rust,
        );
        assert!(ok && said.is_empty(), "clippy on {file}:\n{said}");
    };
    clippy("lib.rs", "lib");
    for r in &runners {
        clippy(r, "bin");
    }
}

/// The answer of the reference evaluator to one line a runner reads: the record, or the
/// refusal line.
fn reference_answer(p: &rulec::sema::Program, line: &str) -> String {
    match rulec::eval::wire::read_line(p, line) {
        Err(refusal) => rulec::eval::wire::refusal_line(&refusal),
        Ok(values) => match rulec::eval::evaluate(p, &values) {
            Ok(outcome) => rulec::eval::wire::record(p, &values, &outcome, ""),
            Err(e) => rulec::eval::wire::contradiction_line(&e),
        },
    }
}

/// Feed lines to a built runner; the lines it prints.
fn feed(runner: &Path, input: &[u8]) -> Vec<String> {
    let mut child =
        Command::new(runner).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// The runner built with the command its header documents prints no warning, and its JSON
/// reader hands the wire door exactly what the reference reads: numbers from their digits,
/// the last of a key given twice, a record line's `in`, escapes and surrogate pairs; a line
/// that is not JSON, not UTF-8 or not an object is refused and the runner reads on.
#[test]
fn the_runner_builds_without_warnings_and_reads_the_wire_as_the_reference_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(format!("{ROOT}/tests/corpus/single_coupon.rule"), dir.path().join("single_coupon.rule")).unwrap();
    let out = rulec(&["gen", "single_coupon.rule", "--out", "generated", "--lang", "rust"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rust = dir.path().join("generated/rust");
    let runner = std::fs::read_to_string(rust.join("single_coupon_runner.rs")).unwrap();
    let build = "rustc --edition 2021 -O single_coupon_runner.rs";
    assert!(runner.contains(&format!("// Build: {build}\n")), "{runner}");
    let args: Vec<&str> = build.split(' ').skip(1).collect();
    let (ok, said) = run("rustc", &args, &rust);
    assert!(ok && said.is_empty(), "{build} printed:\n{said}");

    let call = |subtotal: &str, rest: &str| {
        format!(r#"{{"subtotal":{subtotal},"applied":0,"kind":"percent","rate":10,"face":0,"dup":false{rest}}}"#)
    };
    let mut lines: Vec<String> = Vec::new();
    for n in ["10000", "1e4", "1E+4", "10000.0", "1.00000e4", "100000000e-4", "-0.0", "0e99", "1000.5", "1e-4"] {
        lines.push(call(n, ""));
    }
    for n in ["1e400", "-1e400", "99999999999999999999", "9223372036854775808", "-9223372036854775809", "1.5e19"] {
        lines.push(call(n, ""));
    }
    lines.push(call("1", r#","subtotal":10000"#));
    lines.push(call("10000", r#","subtotal":null"#));
    lines.push(call("10000", r#","x":[1,{"y":[null,true]}],"z":{}"#));
    lines.push(call("10000", r#","\ud83d\ude00":1"#));
    lines.push(call("10000", r#","k\u0069nd":"fixed""#).replace(r#""kind":"percent","#, ""));
    lines.push(format!(r#"{{"tag":"t","in":{},"observed":{{}}}}"#, call("10000", "")));
    lines.push(r#"{"in":5}"#.to_string());
    for bad in ["[1,2]", "\"text\"", "42", "null", "{\"a\":}", "{\"subtotal\":01}", "{\"kind\":\"\\ud800\"}", "{,}"] {
        lines.push(bad.to_string());
    }
    // A tab escaped is text; a tab as it is makes no JSON.
    lines.push(call("10000", r#","note":"a\ttab""#));
    lines.push(call("10000", ",\"note\":\"a\ttab\""));
    let mut input: Vec<u8> = Vec::new();
    for l in &lines {
        input.extend_from_slice(l.as_bytes());
        input.extend_from_slice(b"\n\n");
    }
    input.extend_from_slice(b"{\"subtotal\":\"\xff\"}\n");
    let got = feed(&rust.join("single_coupon_runner"), &input);

    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, &dir.path().join("single_coupon.rule"), &Default::default()).unwrap();
    let p = checked.program.unwrap();
    let mut want: Vec<String> = lines.iter().map(|l| reference_answer(&p, l)).collect();
    want.push(r#"{"refused":"input","error":"the input is not an object"}"#.to_string());
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for ((line, g), w) in lines.iter().chain(["<not UTF-8>".to_string()].iter()).zip(&got).zip(&want) {
        assert_eq!(g, w, "the line {line}");
    }
    // The cases are real ones: each kind of answer appears.
    for sentence in [
        "\"observed\":{\"ok\":true,\"raw\":1000}",
        "subtotal is not an integer",
        "subtotal is out of range",
        "subtotal is missing",
        "x is not an input",
        "😀 is not an input",
        "the input is not an object",
        "note is not an input",
    ] {
        assert!(want.iter().any(|w| w.contains(sentence)), "no case answers {sentence}");
    }
}

/// Every name `rulec api` gives is in the module it names, spelled as it says.
#[test]
fn every_name_rulec_api_gives_is_in_the_module() {
    let dir = tempfile::tempdir().unwrap();
    let rules = corpus_and_hostile_into(dir.path());
    assert_eq!(gen(dir.path(), &[]).status.code(), Some(0));
    for rule in &rules {
        let out = rulec(&["api", rule.to_str().unwrap(), "--lang", "rust"], dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let api: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rs = &api["rust"];
        let s = |k: &str| rs[k].as_str().unwrap_or_else(|| panic!("{}: no {k}", rule.display())).to_string();
        let module = std::fs::read_to_string(dir.path().join("generated/rust").join(s("module"))).unwrap();
        let has = |what: &str| assert!(module.contains(what), "{}: {what:?} is not in {}", rule.display(), s("module"));
        for (name, sig) in [
            ("function", "signature"),
            ("traced", "traced_signature"),
            ("record", "record_signature"),
            ("wire", "wire_signature"),
        ] {
            assert!(s(sig).starts_with(&format!("pub fn {}(", s(name))), "{}: {sig}", rule.display());
            has(&format!("{} {{\n", s(sig)));
        }
        assert!(s("signature").ends_with(&format!("-> Result<{}, RuleError>", s("returns"))));
        for p in rs["params"].as_array().unwrap() {
            let (alias, ty) = (p["alias"].as_str().unwrap(), p["type"].as_str().unwrap());
            assert!(s("signature").contains(&format!("{alias}: {ty}")), "{}: param {alias}", rule.display());
        }
        if s("returns") == "Output" {
            for o in rs["outputs"].as_array().unwrap() {
                has(&format!("    pub {}: {},\n", o["alias"].as_str().unwrap(), o["type"].as_str().unwrap()));
            }
        }
        for e in rs["enums"].as_array().unwrap() {
            let alias = e["alias"].as_str().unwrap();
            // An enum of an enums file is declared in that file's module, which the rule's names.
            let (shared, declared) = match e["module"].as_str() {
                Some(file) => {
                    let (m, declared) = (e["mod"].as_str().unwrap(), e["declared"].as_str().unwrap());
                    let named = if declared == alias { String::new() } else { format!(" as {alias}") };
                    has(&format!("pub use super::{m}::{declared}{named};\n"));
                    (std::fs::read_to_string(dir.path().join("generated/rust").join(file)).unwrap(), declared)
                }
                None => (module.clone(), alias),
            };
            let has = |what: &str| assert!(shared.contains(what), "{}: {what:?} is not declared", rule.display());
            has(&format!("pub enum {declared} {{\n"));
            for v in e["values"].as_array().unwrap() {
                let member = v["alias"].as_str().unwrap();
                has(&format!("            {member} => {},\n", serde_json::to_string(&v["name"]).unwrap()));
            }
        }
        for err in rs["errors"].as_array().unwrap() {
            has(&format!("    {} {{", err.as_str().unwrap().strip_prefix("RuleError::").unwrap()));
        }
        if let Some(dates) = rs.get("dates") {
            assert_eq!(dates["from_wire"], "Date::from_wire");
            has("pub struct Date(pub i64);\n");
            has("    pub fn from_wire(text: &str) -> Option<Date> {\n");
        }
    }
}

/// No rule of the corpus leaves a pair of rows unproven (W114), so the guard is put on one
/// by hand: rows 1 (`<=5`) and 2 (`<=17`) of ticket_price's `first` table meet at age 3.
#[test]
fn a_w114_guard_refuses_a_case_both_rows_match() {
    let path = Path::new(ROOT).join("tests/corpus/ticket_price.rule");
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, &path, &Default::default()).unwrap();
    let program = checked.program.as_ref().unwrap();
    let mut analysis = checked.analysis.clone().unwrap();
    analysis.guards.push(rulec::analysis::Guard { table: 0, a: 1, b: 2 });
    let src = sources.get(checked.file);
    let unit = rulec::gen::Unit::new(program, &analysis, "ticket_price.rule", &src.sha256, &src.text);
    let dir = tempfile::tempdir().unwrap();
    for f in rulec::gen::backend(rulec::gen::Lang::Rust).generate(&unit) {
        std::fs::write(dir.path().join(&f.path), f.text).unwrap();
    }
    let module = std::fs::read_to_string(dir.path().join("ticket_price.rs")).unwrap();
    assert!(module.contains(
        "    // guard: W114 (table price_of, row 1 × row 2): a pair of rows whose exclusivity could not be proven statically\n    if age <= 5 && age <= 17 {\n"
    ), "{module}");
    let (ok, said) = run("rustc", &["--edition", "2021", "ticket_price_runner.rs"], dir.path());
    assert!(ok, "{said}");
    let lines = "{\"in\":{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false}}\n{\"age\":30,\"visit\":\"2026-01-01\",\"member\":false}\n{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false,\"x\":1}\n";
    assert_eq!(
        feed(&dir.path().join("ticket_price_runner"), lines.as_bytes()),
        [
            "{\"refused\":\"contradiction\",\"error\":\"table price_of: row 1 and row 2 matched at the same time\"}",
            "{\"in\":{\"age\":30,\"visit\":\"2026-01-01\",\"member\":false},\"observed\":{\"price\":1500},\"trace\":[{\"table\":\"price_of\",\"row\":6}]}",
            "{\"refused\":\"input\",\"error\":\"x is not an input\"}",
        ]
    );
}

/// A refused date or member is shown as the wire writes it ("2027-01-01", "basic"), by the
/// function and by the wire door alike, and carried as what the caller gave (a day by its
/// number, a member by its name): the message every language prints. A day no `YYYY-MM-DD`
/// writes, which only the typed function can be given, is shown as its number.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    let dir = tempfile::tempdir().unwrap();
    let rules = corpus_into(dir.path());
    let picked: Vec<String> = rules
        .iter()
        .filter(|p| p.ends_with("ticket_price.rule") || p.ends_with("member_discount.rule"))
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["gen"];
    args.extend(picked.iter().map(String::as_str));
    args.extend(["--out", "generated", "--lang", "rust"]);
    let out = rulec(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rust = dir.path().join("generated/rust");
    std::fs::write(rust.join("caller.rs"), include_str!("common/refused_caller.rs")).unwrap();
    let (ok, said) = run("rustc", &["--edition", "2021", "-A", "dead_code", "caller.rs"], &rust);
    assert!(ok, "{said}");
    let out = Command::new(rust.join("caller")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "visit is out of range: \"2027-01-01\" | Some(Day(20819))\n\
         visit is out of range: 9223372036854775807 | Some(Day(9223372036854775807))\n\
         visit is out of range: \"2027-01-01\" | Some(Day(20819))\n\
         tier is out of range: \"basic\" | Some(Member(\"basic\"))\n\
         tier is out of range: \"basic\" | Some(Member(\"basic\"))\n"
    );
}

/// The plain function builds no trace: over the committed parcel_rate module, compiled with
/// an allocator that counts, 54,600 calls of the plain function allocate nothing and give
/// the traced twin's answers, whose trace holds a row per table.
#[test]
fn the_plain_function_allocates_nothing_for_its_trace() {
    if !have("rustc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let module = format!("{ROOT}/benches/generated/rust/parcel_rate.rs");
    let program = format!(
        r#"use std::alloc::{{GlobalAlloc, Layout, System}};
use std::sync::atomic::{{AtomicUsize, Ordering}};
struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {{
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {{
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        System.alloc(layout)
    }}
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {{
        System.dealloc(p, layout)
    }}
}}
#[global_allocator]
static COUNTING: Counting = Counting;
#[allow(dead_code)]
mod rule {{
    include!({module:?});
}}
use rule::*;
fn main() {{
    let (mut plain, mut traced) = (Vec::with_capacity(54_600), Vec::with_capacity(54_600));
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for w in 1..=70 {{
        for g in 1..=130 {{
            for d in Zone::ALL {{
                for s in [false, true] {{
                    plain.push(parcel_rate(Pounds(w), Inches(g), d, s).unwrap().0);
                }}
            }}
        }}
    }}
    let allocated = ALLOCATIONS.load(Ordering::SeqCst) - before;
    for w in 1..=70 {{
        for g in 1..=130 {{
            for d in Zone::ALL {{
                for s in [false, true] {{
                    let (fee, trace) = parcel_rate_traced(Pounds(w), Inches(g), d, s).unwrap();
                    assert_eq!(trace.len(), 4);
                    traced.push(fee.0);
                }}
            }}
        }}
    }}
    assert_eq!(plain, traced);
    println!("{{allocated}}");
}}
"#
    );
    std::fs::write(dir.path().join("count.rs"), program).unwrap();
    let (ok, said) = run("rustc", &["--edition", "2021", "-o", "count", "count.rs"], dir.path());
    assert!(ok, "{said}");
    let out = Command::new(dir.path().join("count")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "0", "the plain function allocated");
}

/// Two rules reading one enums file, generated into one folder: the file's enums are its own
/// module (`tiers.rs`, written once, the same bytes whichever rule writes it), which each
/// rule's module names (`pub use super::tiers::Tier;`). Included as rulec-build's users
/// include them — each inside `pub mod <alias> { include!(…) }` of one library — a caller
/// passes a value of one rule's `Tier` to the other rule's function, and clippy has nothing
/// to say; the runners (`mod tiers` beside `mod rule`) agree with the reference, natively and
/// under WASI. `rulec api` names the module; a rule named like the enums file it reads is
/// refused.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_rust() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "rust");
    let rust = out.join("rust");
    let shared = std::fs::read_to_string(rust.join("tiers.rs")).unwrap();
    assert!(
        shared.contains("\npub enum Tier {\n")
            && shared.contains("            \"platinum\" => Some(Tier::Platinum),\n")
    );
    for module in ["member_discount.rs", "tier_points.rs"] {
        let source = std::fs::read_to_string(rust.join(module)).unwrap();
        assert!(source.contains("\npub use super::tiers::Tier;\n"), "{source}");
        assert!(!source.contains("pub enum Tier "), "{module} declares no Tier of its own");
    }
    // Each rule alone writes the same module.
    for rule in ["member_discount", "tier_points"] {
        let alone = d.join(format!("alone_{rule}"));
        common::generate(&[d.join(format!("rules/{rule}.rule"))], "rust", &alone);
        assert_eq!(std::fs::read_to_string(alone.join("rust/tiers.rs")).unwrap(), shared, "{rule} alone");
    }
    let api = common::api(&d.join("rules/tier_points.rule"), "rust");
    let tier = &api["enums"][0];
    let named = (&tier["module"], &tier["mod"], &tier["declared"]);
    assert_eq!(named, (&serde_json::json!("tiers.rs"), &serde_json::json!("tiers"), &serde_json::json!("Tier")));
    let report = common::test_json(&out, "rust");
    common::assert_green(&report);
    assert_eq!(report["results"].as_array().unwrap().len(), 6, "two rules and the helpers, natively and under WASI");
    // The caller's code, as a crate that includes the modules: one rule's tier is the other's.
    let (gold, discount) = common::two_rules_answers(d);
    let caller = format!(
        r#"pub mod tiers {{
    include!("tiers.rs");
}}
pub mod member_discount {{
    include!("member_discount.rs");
}}
pub mod tier_points {{
    include!("tier_points.rs");
}}

fn main() {{
    let gold: member_discount::Tier = member_discount::Tier::Gold;
    assert_eq!(tier_points::tier_points(gold), Ok({points}));
    let tier: tier_points::Tier = tiers::Tier::Platinum;
    let out = member_discount::member_discount(tier, member_discount::Channel::Web, member_discount::JPYInclTax(10000), None);
    let out = out.expect("answered");
    assert_eq!((out.pct.0, out.discount.0), ({pct}, {off}));
}}
"#,
        points = gold["points"],
        pct = discount["pct"],
        off = discount["discount"]
    );
    std::fs::write(rust.join("caller.rs"), caller).unwrap();
    let (ok, said) = run("rustc", &["--edition", "2021", "caller.rs"], &rust);
    assert!(ok && said.is_empty(), "rustc caller.rs:\n{said}");
    let ran = Command::new(rust.join("caller")).output().unwrap();
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    if have("clippy-driver") {
        let args =
            ["--edition", "2021", "--crate-type", "bin", "--emit=metadata", "-D", "warnings", "-o", "out", "caller.rs"];
        let (ok, said) = run("clippy-driver", &args, &rust);
        assert!(ok && said.is_empty(), "clippy on caller.rs:\n{said}");
    }
    // A rule named like the enums file it reads would write its module over the file's.
    let points = std::fs::read_to_string(d.join("rules/tier_points.rule")).unwrap();
    std::fs::write(d.join("rules/tiers.rule"), points.replace("rule tier_points", "rule tiers")).unwrap();
    let clash = rulec(&["gen", "rules/tiers.rule", "--out", "clash", "--lang", "rust"], d);
    assert_eq!(clash.status.code(), Some(1), "{}", text(&clash.stderr));
    let says = "rules/tiers.rule and an enums file it reads would both write rust/tiers.rs";
    assert!(text(&clash.stderr).contains(says), "{}", text(&clash.stderr));
}
