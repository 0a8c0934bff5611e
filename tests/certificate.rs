//! `rulec certificate` and the independent re-checker `proofs/recheck.py`: every clean corpus
//! rule's certificate is accepted; forged ones are rejected (exit 1), garbage is unreadable (exit 2).

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn certificate(rule: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulec")).arg("certificate").arg(rule).output().expect("run rulec");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn cert_json(rule: &Path) -> Json {
    let (code, out, err) = certificate(rule);
    assert_eq!(code, 0, "{}: {err}", rule.display());
    assert_eq!(out.trim_end().lines().count(), 1, "one line");
    serde_json::from_str(&out).expect("JSON")
}

/// Run the re-checker on a certificate's text; its exit code and report.
fn recheck(rule: &Path, cert: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cert.json");
    std::fs::write(&path, cert).unwrap();
    let out = Command::new("python3")
        .arg(root().join("proofs/recheck.py"))
        .arg("--rule")
        .arg(rule)
        .arg(&path)
        .output()
        .expect("python3 runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

fn clean_rules() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    v.sort();
    v.push(root().join("tests/corpus/broken/derived_overlap.rule"));
    v
}

#[test]
fn every_clean_rule_is_certified_and_rechecked() {
    let rules = clean_rules();
    assert!(rules.len() >= 9);
    for rule in rules {
        let cert = cert_json(&rule);
        assert_eq!(cert["v"], 1);
        let (code, report) = recheck(&rule, &cert.to_string());
        assert_eq!(code, 0, "{}:\n{report}", rule.display());
        assert!(report.contains("'s\n") || report.contains("the digest is"), "{report}");
    }
}

#[test]
fn a_rule_with_errors_gets_no_certificate() {
    for name in ["gap", "overlap", "dead_row", "shadowed"] {
        let (code, out, err) = certificate(&root().join(format!("tests/corpus/broken/{name}.rule")));
        assert_eq!(code, 1, "{name}: {err}");
        assert!(out.is_empty(), "{name}: printed {out}");
        assert!(err.contains("error"), "{name}: {err}");
    }
}

fn forged(rule: &str, forge: impl Fn(&mut Json)) -> (i32, String) {
    let rule = root().join(rule);
    let mut cert = cert_json(&rule);
    forge(&mut cert);
    recheck(&rule, &cert.to_string())
}

fn first_unique_table(c: &mut Json) -> &mut Json {
    let tables = c["tables"].as_array_mut().unwrap();
    tables.iter_mut().find(|t| t["policy"] == "unique" && t["rows"].as_array().unwrap().len() >= 2).unwrap()
}

#[test]
fn a_flipped_coordinate_bound_is_rejected() {
    let (code, report) = forged("tests/corpus/member_shipping_fee.rule", |c| {
        let t = first_unique_table(c);
        // weight: the first coordinate's upper end, moved one gram up.
        let axis = t["axes"].as_array_mut().unwrap().iter_mut().find(|a| a["bounds"][0].is_array()).unwrap();
        let hi = axis["bounds"][0][1].as_str().unwrap().parse::<i64>().unwrap();
        axis["bounds"][0][1] = Json::String((hi + 1000).to_string());
    });
    assert_eq!(code, 1, "{report}");
}

#[test]
fn a_coordinate_bound_that_leaves_a_hole_is_rejected() {
    let (code, report) = forged("tests/corpus/member_shipping_fee.rule", |c| {
        let t = first_unique_table(c);
        let axis = t["axes"].as_array_mut().unwrap().iter_mut().find(|a| a["bounds"][0].is_array()).unwrap();
        let hi = axis["bounds"][0][1].as_str().unwrap().parse::<i64>().unwrap();
        axis["bounds"][0][1] = Json::String((hi - 1000).to_string());
    });
    assert_eq!(code, 1, "{report}");
}

#[test]
fn a_flipped_accepts_is_rejected() {
    let (code, report) = forged("tests/corpus/member_shipping_fee.rule", |c| {
        let t = first_unique_table(c);
        let acc = t["rows"][0]["accepts"][1].as_array_mut().unwrap();
        acc.pop();
    });
    assert_eq!(code, 1, "{report}");
}

#[test]
fn a_dropped_row_is_rejected() {
    let (code, report) = forged("tests/corpus/member_shipping_fee.rule", |c| {
        let t = first_unique_table(c);
        t["rows"].as_array_mut().unwrap().remove(1);
    });
    assert_eq!(code, 1, "{report}");
}

#[test]
fn a_wrong_farkas_multiplier_is_rejected() {
    let rule = "tests/corpus/broken/derived_overlap.rule";
    // The rule checks clean only through a refutation: find one multiplier and change it.
    let cert = cert_json(&root().join(rule));
    assert!(cert.to_string().contains("\"farkas\""), "derived_overlap is proved through Farkas");
    let (code, report) = forged(rule, |c| {
        fn bump(j: &mut Json) -> bool {
            match j {
                Json::Object(m) => {
                    if let Some(Json::Array(ys)) = m.get_mut("farkas") {
                        ys[0]["y"] = Json::String("2".into());
                        return true;
                    }
                    m.values_mut().any(bump)
                }
                Json::Array(a) => a.iter_mut().any(bump),
                _ => false,
            }
        }
        assert!(bump(c));
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("FAILED"), "{report}");
}

#[test]
fn a_changed_digest_is_rejected() {
    let (code, report) = forged("tests/corpus/late_fee.rule", |c| {
        let d = c["source_sha256"].as_str().unwrap();
        let flipped = match d.strip_prefix('0') {
            Some(rest) => format!("1{rest}"),
            None => format!("0{}", &d[1..]),
        };
        c["source_sha256"] = Json::String(flipped);
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("digest"), "{report}");
}

#[test]
fn a_changed_cell_text_is_rejected() {
    let (code, report) = forged("tests/corpus/member_shipping_fee.rule", |c| {
        let t = first_unique_table(c);
        t["rows"][0]["source"][1]["col"] = Json::from(t["rows"][0]["source"][1]["col"].as_u64().unwrap() + 1);
    });
    assert_eq!(code, 1, "{report}");
}

#[test]
fn garbage_is_unreadable() {
    let rule = root().join("tests/corpus/late_fee.rule");
    assert_eq!(recheck(&rule, "this is not a certificate {").0, 2);
    assert_eq!(recheck(&rule, "{\"v\": 1}").0, 2);
    assert_eq!(recheck(&rule, "[1, 2, 3]").0, 2);
}
