//! The precision test bed (issue 32): published income-tax tariffs of four countries, each
//! written twice — once with its normalised income, deduction or rounding as a `define` the
//! rows read, once with that define written out where it is read (cells on the input, the
//! expression inline). Both forms check clean with the ranges as published, every worked
//! example reproduced; both give the same verdict, clean or not; and what check proved of
//! each is re-checked by proofs/recheck.py.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{rulec, text, ROOT};

/// Every tariff of tests/tariffs: its define form and its inline form.
fn tariffs() -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(ROOT).join("tests/tariffs");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(stem) = name.strip_suffix(".define.rule") {
            let inline = dir.join(format!("{stem}.inline.rule"));
            assert!(inline.exists(), "{name} has its inline form {}", inline.display());
            out.push((p, inline));
        }
    }
    out.sort();
    assert!(out.len() >= 4, "the test bed has its tariffs: {out:?}");
    out
}

/// `rulec check --format json`: the exit code and each diagnostic's verdict — its code,
/// table and rows (what it says, not where the text puts it).
fn verdict(rule: &Path) -> (i32, Vec<Json>) {
    let o = rulec(&["check", "--format", "json", rule.to_str().unwrap()], Path::new(ROOT));
    let lines: Vec<Json> = text(&o.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let d: Json = serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", rule.display()));
            serde_json::json!({"code": d["code"], "table": d["where"]["table"], "rows": d["rows"]})
        })
        .collect();
    (o.status.code().unwrap(), lines)
}

fn recheck(rule: &Path, dir: &Path) -> (bool, String) {
    let o = rulec(&["certificate", rule.to_str().unwrap()], Path::new(ROOT));
    assert!(o.status.success(), "{}: no certificate: {}", rule.display(), text(&o.stderr));
    let cert = dir.join("cert.json");
    std::fs::write(&cert, &o.stdout).unwrap();
    let r = Command::new("python3")
        .arg(Path::new(ROOT).join("proofs/recheck.py"))
        .arg("--rule")
        .arg(rule)
        .arg(&cert)
        .output()
        .expect("python3 runs");
    (r.status.success(), format!("{}{}", text(&r.stdout), text(&r.stderr)))
}

#[test]
fn each_tariff_checks_clean_in_both_forms_and_is_rechecked() {
    let dir = tempfile::tempdir().unwrap();
    for (define, inline) in tariffs() {
        let source = std::fs::read_to_string(&define).unwrap();
        assert!(source.lines().any(|l| l.starts_with("define ")), "{}: the define form has a define", define.display());
        assert!(
            source.lines().filter(|l| l.starts_with("expect ")).count() >= 5,
            "{}: worked examples",
            define.display()
        );
        for form in [&define, &inline] {
            let (code, diags) = verdict(form);
            assert_eq!((code, &diags), (0, &Vec::new()), "{} checks clean", form.display());
            let (ok, report) = recheck(form, dir.path());
            assert!(ok, "{}: recheck.py\n{report}", form.display());
        }
    }
}

#[test]
fn both_forms_give_the_same_verdict_when_the_range_is_wrong() {
    // Each tariff's output range cut to a tenth of its top: both forms overflow it, and say
    // so alike (the same codes, tables and rows), with a witness the evaluator confirms.
    let dir = tempfile::tempdir().unwrap();
    for (define, inline) in tariffs() {
        let mut verdicts = Vec::new();
        for form in [&define, &inline] {
            let source = std::fs::read_to_string(form).unwrap();
            let out = source.lines().find(|l| l.starts_with("output ")).expect("an output").to_string();
            let top = out.split("..").nth(1).unwrap().split(' ').next().unwrap();
            let digits: String = top.chars().take_while(|c| c.is_ascii_digit()).collect();
            let unit = &top[digits.len()..];
            let cut = format!("{}{unit}", &digits[..digits.len() - 1]);
            let path = dir.path().join(form.file_name().unwrap());
            std::fs::write(&path, source.replace(&out, &out.replace(top, &cut))).unwrap();
            let (code, diags) = verdict(&path);
            assert_eq!(code, 1, "{}: {out} cut to {cut} is a finding", form.display());
            let o = rulec(&["check", "--format", "json", path.to_str().unwrap()], Path::new(ROOT));
            for l in text(&o.stdout).lines() {
                let d: Json = serde_json::from_str(l).unwrap();
                assert!(d["witness"].is_object(), "{}: {} has a witness: {l}", form.display(), d["code"]);
            }
            verdicts.push(diags);
        }
        assert_eq!(verdicts[0], verdicts[1], "{} and its inline form", define.display());
    }
}
