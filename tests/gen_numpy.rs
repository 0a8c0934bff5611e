//! The NumPy target over the corpus and tests/rules: the plan as data and one evaluator,
//! held to the reference by `rulec test` on every vector (the helpers' unit vectors too: the
//! roundings, mod and isqrt over int64 columns, ends of int64 included); ruff and mypy
//! --strict silent on the evaluator, its runner and the batch adapters (rulec_batch.py); a whole column decided at once, its
//! refusal naming the row; the same bytes on a second generation.

mod common;
use common::*;
use std::process::Command;

fn generated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "numpy", dir.path());
    dir
}

fn have_numpy(test: &str) -> bool {
    if !toolchain(test, &["python3"]) {
        return false;
    }
    let ok = Command::new("python3").args(["-c", "import numpy"]).status().is_ok_and(|s| s.success());
    assert!(ok || std::env::var_os("CI").is_none(), "{test}: numpy is not installed, and CI is set");
    ok
}

#[test]
fn every_rule_agrees_with_the_reference_in_numpy() {
    if !have_numpy("every_rule_agrees_with_the_reference_in_numpy") {
        return;
    }
    let dir = generated();
    let report = test_json(dir.path(), "numpy");
    assert_green(&report);
    assert_eq!(report["results"].as_array().unwrap().len(), rules().len() + 1, "{report}");
}

#[test]
fn the_evaluator_passes_ruff_and_mypy_strict() {
    if !toolchain("the_evaluator_passes_ruff_and_mypy_strict", &["ruff", "mypy"]) {
        return;
    }
    let dir = generated();
    let np = dir.path().join("numpy");
    let ruff = Command::new("ruff")
        .args(["check", "--select", "E,W,F,I", "--ignore", "E501", "."])
        .current_dir(&np)
        .output()
        .unwrap();
    assert!(ruff.status.success(), "{}", text(&ruff.stdout));
    let mypy = Command::new("mypy")
        .args(["--strict", "rulec_np.py", "rulec_np_runner.py", "rulec_batch.py"])
        .current_dir(&np)
        .output()
        .unwrap();
    assert!(mypy.status.success(), "{}", text(&mypy.stdout));
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (generated(), generated());
    assert_eq!(tree(&a.path().join("numpy")), tree(&b.path().join("numpy")));
}

/// A whole column through the plan: the answers of every row at once, each held to the
/// reference; a refused element named by its row, with the sentence every language says.
#[test]
fn a_column_is_decided_at_once_and_a_refusal_names_its_row() {
    if !have_numpy("a_column_is_decided_at_once_and_a_refusal_names_its_row") {
        return;
    }
    let dir = generated();
    let script = r#"
import numpy as np
import rulec_np
plan = rulec_np.load("parcel_rate.plan.json")
out, rows = plan.traced({"weight": np.array([5, 11, 70]), "girth": np.array([40, 61, 130]), "dest": np.array(["canada", "domestic", "overseas"]), "signature": np.array([False, True, True])})
print(out["fee"].tolist(), rows["base_rate"].tolist())
for weight in ([5, 0, 70], [5, 1.5, 70], [5, None, 70]):
    try:
        plan.call({"weight": np.array(weight, dtype=object), "girth": np.array([40, 61, 130]), "dest": np.array(["canada", "domestic", "overseas"]), "signature": np.array([False, True, True])})
    except rulec_np.RuleInputError as e:
        print(e.what, e.row)
try:
    plan.call({"weight": [1], "girth": [1], "dest": ["mars"], "signature": [True]})
except rulec_np.RuleInputError as e:
    print(e.what, e.row)
"#;
    let out =
        Command::new("python3").args(["-B", "-c", script]).current_dir(dir.path().join("numpy")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The fees of the corpus's own expect lines: 11, 24, 59.
    assert_eq!(
        text(&out.stdout),
        "[11, 24, 59] [4, 3, 9]\nweight is out of range 1\nweight is not an integer 1\nweight is missing 1\ndest is not a value of enum zone 0\n"
    );
}
