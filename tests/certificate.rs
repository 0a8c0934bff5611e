//! `rulec certificate` and the independent re-checker `proofs/recheck.py`: every clean corpus
//! rule's certificate is accepted; forged ones are rejected (exit 1), garbage is unreadable (exit 2).

mod common;

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn certificate(rule: &Path) -> (i32, String, String) {
    let out = common::command().arg("certificate").arg(rule).output().expect("run rulec");
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
    v.push(root().join("tests/rules/shipping_class.rule"));
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

/// The first leaf of a cover tree that lists two rows or more.
fn shared_leaf(node: &mut Json) -> Option<&mut Json> {
    if node.get("leaf").is_some() {
        return (node["rows"].as_array().unwrap().len() >= 2).then_some(node);
    }
    if shared_leaf(&mut node["lo"]).is_some() {
        return shared_leaf(&mut node["lo"]);
    }
    shared_leaf(&mut node["hi"])
}

#[test]
fn a_priority_leaf_that_lists_its_rows_out_of_rank_is_rejected() {
    // The first row a leaf lists is the one that answers there: under priority, the one ranked first.
    let (code, report) = forged("tests/rules/shipping_class.rule", |c| {
        let t = &mut c["tables"][0];
        assert_eq!(t["policy"], "priority");
        let leaf = shared_leaf(&mut t["cover"]).expect("rows of a priority table share a leaf");
        leaf["rows"].as_array_mut().unwrap().reverse();
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("out of their order of priority"), "{report}");
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

// ---- the evidence of the per-row value analysis and of the case search (issues 15, 17)

/// A rule written to a file of its own, its certificate, and the re-checker on a forgery of it.
fn forged_text(text: &str, forge: impl Fn(&mut Json)) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("rule.rule");
    std::fs::write(&rule, text).unwrap();
    let mut cert = cert_json(&rule);
    forge(&mut cert);
    recheck(&rule, &cert.to_string())
}

const TAX: &str = "rule income_tax v1
input income: money[JPY] 0JPY..100000000JPY
value rate: rate[1%]
value lower: money[JPY]
value base: money[JPY]
output tax: money[JPY] 0JPY..50000000JPY round down(1JPY)
define tax = base + (income - lower) * rate
table bracket_of -> rate, lower, base
| income                     | rate | lower       | base        |
|----------------------------|------|-------------|-------------|
| <=1950000JPY               | 5%   | 0JPY        | 0JPY        |
| >1950000JPY <=3300000JPY   | 10%  | 1950000JPY  | 97500JPY    |
| >3300000JPY <=6950000JPY   | 20%  | 3300000JPY  | 232500JPY   |
| >6950000JPY <=9000000JPY   | 23%  | 6950000JPY  | 962500JPY   |
| >9000000JPY <=18000000JPY  | 33%  | 9000000JPY  | 1434000JPY  |
| >18000000JPY <=40000000JPY | 40%  | 18000000JPY | 4404000JPY  |
| >40000000JPY               | 45%  | 40000000JPY | 13204000JPY |
expect income=5000000JPY -> tax=572500JPY
";

fn bounds_of<'a>(c: &'a mut Json, name: &str) -> &'a mut Json {
    c["bounds"].as_array_mut().unwrap().iter_mut().find(|b| b["name"] == name).unwrap()
}

#[test]
fn per_row_bounds_are_rechecked_and_a_forged_case_is_refused() {
    let (code, report) = forged_text(TAX, |_| {});
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("bounds: 4 values bounded row by row, 28 cases re-derived"), "{report}");
    // The top bracket's case narrowed below what the row computes.
    let (code, report) = forged_text(TAX, |c| {
        let tax = bounds_of(c, "tax");
        let case = tax["roots"][0]["cases"].as_array_mut().unwrap().iter_mut().last().unwrap();
        case["interval"][1] = Json::String("30000000".into());
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("FAILED: bounds of tax"), "{report}");
    // A case left out.
    let (code, report) = forged_text(TAX, |c| {
        bounds_of(c, "tax")["roots"][0]["cases"].as_array_mut().unwrap().pop();
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("the cases are not the rows of bracket_of"), "{report}");
    // A row's result changed along with everything computed from it: the cell text says 45%.
    let (code, report) = forged_text(TAX, |c| {
        c["tables"][0]["rows"][6]["results"][0] = serde_json::json!({"num": "1/20"});
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("is not the result"), "{report}");
    // The hull claimed narrower than its cases.
    let (code, report) = forged_text(TAX, |c| {
        bounds_of(c, "tax")["interval"][1] = Json::String("40000000".into());
    });
    assert_eq!(code, 1, "{report}");
}

/// The first value under `j` (depth first) that `pred` accepts.
fn find_mut<'a>(j: &'a mut Json, pred: &dyn Fn(&Json) -> bool) -> Option<&'a mut Json> {
    if pred(j) {
        return Some(j);
    }
    match j {
        Json::Object(m) => m.values_mut().find_map(|x| find_mut(x, pred)),
        Json::Array(a) => a.iter_mut().find_map(|x| find_mut(x, pred)),
        _ => None,
    }
}

/// The first refutation that is a split, in a table's cover.
fn first_split(j: &mut Json) -> Option<&mut Json> {
    find_mut(j, &|x| x.get("split").is_some())
}

const LOAN: &str = "rule loan v1
enum decision: approve, decline
input income: money[JPY] 0JPY..10000000JPY
input installment: money[JPY] 1JPY..1000000JPY
input bureau: bool
value factor: rate[1%]
table factor_of -> factor
| bureau | factor |
|--------|--------|
| true   | 40%    |
| false  | 0%     |
define affordable = income * factor > installment
output result: decision
table decide -> result
| affordable | bureau | result  |
|------------|--------|---------|
| true       | true   | approve |
| false      | -      | decline |
expect income=100JPY, installment=10JPY, bureau=true -> result=approve
";

#[test]
fn a_split_over_an_upstream_table_is_rechecked_and_a_forged_split_is_refused() {
    let (code, report) = forged_text(LOAN, |c| assert!(first_split(&mut c["tables"][1]).is_some()));
    assert_eq!(code, 0, "{report}");
    // A row of factor_of left out of the split.
    let (code, report) = forged_text(LOAN, |c| {
        let sp = &mut first_split(&mut c["tables"][1]).unwrap()["split"];
        sp["cases"].as_array_mut().unwrap().pop();
        sp["basis"]["rows"]["rows"].as_array_mut().unwrap().pop();
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("leaves out rows of factor_of"), "{report}");
    // The no-bureau case given the bureau's factor.
    let (code, report) = forged_text(LOAN, |c| {
        let sp = &mut first_split(&mut c["tables"][1]).unwrap()["split"];
        sp["cases"][1]["at"] = Json::String("2/5".into());
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("does not give factor"), "{report}");
}

#[test]
fn a_split_over_grid_values_is_rechecked_and_a_missing_value_refused() {
    // a × b is never 7 for a, b in 1..5: every value of a, then of b, is a case.
    let text = "rule seven v1
input a: int 1..5
input b: int 1..5
define p = a * b
output k: int 0..1
table t -> k
| p   | k |
|-----|---|
| <=6 | 0 |
| >=8 | 1 |
expect a=2, b=3 -> k=0
";
    let (code, report) = forged_text(text, |_| {});
    assert_eq!(code, 0, "{report}");
    let (code, report) = forged_text(text, |c| {
        let sp = &mut first_split(&mut c["tables"][0]).unwrap()["split"];
        assert!(sp["basis"]["grid"].is_object());
        sp["cases"].as_array_mut().unwrap().remove(2);
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("does not take every value"), "{report}");
}

#[test]
fn a_forged_monotone_translation_is_refused() {
    // isqrt(x) <= 10 is x <= 120: the two first rows are apart through that translation.
    let text = "rule roots v1
input x: int 0..1000
define r = isqrt(x)
output k: int 0..2
table t -> k
| r    | x     | k |
|------|-------|---|
| <=10 | -     | 0 |
| -    | >=122 | 1 |
| >10  | <122  | 2 |
expect x=121 -> k=2
";
    fn monotone(j: &mut Json) -> Option<&mut Json> {
        find_mut(j, &|x| x.get("derived").is_some_and(|d| d.get("monotone").is_some()))
    }
    let (code, report) = forged_text(text, |c| assert!(monotone(&mut c["tables"][0]).is_some()));
    assert_eq!(code, 0, "{report}");
    // x <= 119 does not follow from isqrt(x) <= 10 (isqrt(120) = 10).
    let (code, report) = forged_text(text, |c| {
        let f = monotone(&mut c["tables"][0]).unwrap();
        f["const"] = Json::String("-119".into());
    });
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("does not take r past its bound"), "{report}");
}

#[test]
fn the_program_is_printed_for_a_rule_with_findings_and_refused_for_one_that_does_not_resolve() {
    // A rule with a gap has no certificate, but its program: every row exactly.
    let gap = root().join("tests/corpus/broken/gap.rule");
    assert_eq!(certificate(&gap).0, 1);
    let out = common::command().args(["certificate", "--program"]).arg(&gap).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let prog: Json = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let text = std::fs::read_to_string(&gap).unwrap();
    let tables = prog["tables"].as_array().unwrap();
    assert!(!tables.is_empty());
    for t in tables {
        let rows = t["rows"].as_array().unwrap();
        for r in rows {
            assert_eq!(r["tests"].as_array().unwrap().len(), t["columns"].as_array().unwrap().len(), "{r}");
            assert_eq!(r["results"].as_array().unwrap().len(), t["results"].as_array().unwrap().len(), "{r}");
            let line = text.lines().nth(r["line"].as_u64().unwrap() as usize - 1).unwrap();
            assert!(line.trim_start().starts_with('|'), "row {} is the table line {line}", r["row"]);
        }
    }
    let steps = prog["order"].as_array().unwrap();
    assert_eq!(steps.iter().filter(|s| s.get("table").is_some()).count(), tables.len());
    assert_eq!(
        prog["inputs"].as_array().unwrap().len(),
        prog["vars"].as_array().unwrap().iter().filter(|v| v["kind"] == "input").count()
    );
    // A rule whose names do not resolve: exit 1, the diagnostics, no JSON.
    let broken = root().join("tests/corpus/broken/unit_mismatch.rule");
    let out = common::command().args(["certificate", "--program"]).arg(&broken).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not resolve"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
