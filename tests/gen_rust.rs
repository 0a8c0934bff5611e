//! Generated Rust held to the reference evaluator, and `gen` kept in step with the rule:
//! every corpus rule passes `rulec test`; a mutated output or an edited rule is caught;
//! generation is byte-deterministic whatever the environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rulec(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulec")).args(args).current_dir(cwd).output().expect("rulec runs")
}

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

#[test]
fn every_corpus_rule_passes_rulec_test_in_rust() {
    let dir = tempfile::tempdir().unwrap();
    let rules = corpus_into(dir.path());
    let out = gen(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = rulec(&["test", "generated", "--lang", "rust", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), rules.len() + 1, "every rule and the helpers");
    for r in results {
        assert_eq!((r["ok"].as_bool(), r["ran"].as_bool()), (Some(true), Some(true)), "{r}");
        assert!(r["vectors"].as_u64().unwrap() > 10, "{r}");
    }
    assert!(report["skipped"].as_array().unwrap().is_empty());
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
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["rule"], "parcel_rate");
    assert_eq!(failed[0]["ran"], true, "a real disagreement, not a build failure");
    assert!(failed[0]["first_diff"]["expected"].as_str().unwrap().contains("\"signature\":true"));
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
    let fired = "trace[0] = Fired { table: \"price_of\", row: 5 };";
    assert!(src.contains(fired));
    std::fs::write(&module, src.replace(fired, "trace[0] = Fired { table: \"price_of\", row: 6 };")).unwrap();
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
    assert!(lock.contains("path = \"rules/parcel_rate.rule\"") && lock.contains("sha256:"));
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
    let out = Command::new(env!("CARGO_BIN_EXE_rulec"))
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
