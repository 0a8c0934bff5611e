//! `rulec replay` and `rulec fixtures lint` on real files: the records the generated code
//! writes replay at 100% for every corpus rule; the fast exact form agrees with the reference
//! evaluator on every record it takes; `suspect_rounding`, `--read-as`, the manifest's fills,
//! traces and `moved`, and every problem kind lint reports.

use rulec::eval::{self, wire};
use rulec::production::fast::Compiled;
use rulec::production::records::{Fills, Reader};
use rulec::production::replay::{self, Options};
use rulec::production::Quiet;
use rulec::sema::{Ty, Value};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::at_root as rulec;
use common::{on_path, program, random_call, Lcg};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rulec_in(args: &[&str], input: &str) -> Output {
    common::with_stdin(args, &root(), input.as_bytes())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json_of(o: &Output) -> Json {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}{}", text(&o.stdout), text(&o.stderr)))
}

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    files
}

#[test]
fn records_the_generated_code_writes_replay_at_100_percent() {
    if !on_path("python3") {
        assert!(std::env::var_os("CI").is_none(), "python3 is not on PATH, and CI is set");
        eprintln!("note: python3 is not on PATH; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = vec!["gen".into()];
    args.extend(corpus().iter().map(|p| p.to_string_lossy().into_owned()));
    let out = dir.path().to_string_lossy().into_owned();
    args.extend([
        "--lang".into(),
        "python".into(),
        "--out".into(),
        out.clone(),
        "--lock".into(),
        format!("{out}/rulec.lock"),
    ]);
    let o = rulec(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    for rule in corpus() {
        let alias = program(&rule).ident().to_string();
        let vectors = dir.path().join(format!("vectors/{alias}.jsonl"));
        // The generated runner prints, for every vector, the record its own record function writes.
        let runner = Command::new("python3")
            .arg(format!("{alias}_runner.py"))
            .current_dir(dir.path().join("python"))
            .stdin(std::fs::File::open(&vectors).unwrap())
            .output()
            .unwrap();
        assert!(runner.status.success(), "{alias}: {}", text(&runner.stderr));
        let records = dir.path().join(format!("{alias}.records.jsonl"));
        std::fs::write(&records, &runner.stdout).unwrap();
        let refusals = text(&runner.stdout).lines().filter(|l| l.starts_with("{\"refused\"")).count();
        for file in [records.clone(), dir.path().join(format!("vectors/{alias}.expected.jsonl"))] {
            let o =
                rulec(&["replay", rule.to_str().unwrap(), "--fixtures", file.to_str().unwrap(), "--format", "json"]);
            let r = json_of(&o);
            assert_eq!(o.status.code(), Some(0), "{alias}: {r}");
            assert!(r["compared"].as_u64().unwrap() > 0, "{alias}: {r}");
            assert_eq!(r["matched"], r["compared"], "{alias}: {r}");
            assert_eq!(r["clusters"], json!([]));
            assert_eq!(r["moved"], json!([]), "the rows the runner records are the rule's: {r}");
            // Only the runner's refusal lines are left out: they answer nothing.
            let excluded: u64 = r["excluded"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
            assert_eq!(excluded, refusals as u64, "{alias}: {r}");
        }
        let lint = json_of(&rulec(&[
            "fixtures",
            "lint",
            records.to_str().unwrap(),
            "--rule",
            rule.to_str().unwrap(),
            "--format",
            "json",
        ]));
        let kinds: Vec<&str> =
            lint["problems"].as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
        assert!(kinds.iter().all(|k| *k == "no_in"), "{alias}: {lint}");
    }
}

#[test]
fn the_fast_form_agrees_with_the_reference_evaluator() {
    let mut compiled_rules = 0;
    for rule in corpus() {
        let p = program(&rule);
        let has_string = p.vars.iter().any(|v| v.ty == Ty::Str);
        let Some(c) = Compiled::new(&p) else {
            assert!(has_string, "{}: every rule without a string compiles", rule.display());
            continue;
        };
        compiled_rules += 1;
        let mut rng = Lcg(0x5eed ^ p.name.len() as u64);
        let mut calls: Vec<Json> = rulec::vectors::build(&p).vectors.into_iter().map(|v| v.input).collect();
        calls.extend((0..3000).map(|_| random_call(&p, &mut rng)));
        let (mut answered, mut lines) = (0, String::new());
        let mut scratch = c.scratch();
        for call in &calls {
            let Ok(inputs) = wire::read_inputs(&p, call) else { continue };
            match eval::evaluate(&p, &inputs) {
                Ok(o) => {
                    let (outs, trace) = c.evaluate(&p, &inputs).unwrap_or_else(|| panic!("{}: {call} bails", p.name));
                    let want: Vec<Value> = o.output_values(&p).map(|(_, x)| x.clone()).collect();
                    assert_eq!(outs, want, "{}: {call}", p.name);
                    assert_eq!(trace, o.trace, "{}: {call}", p.name);
                    // The record the reference writes is read and matched by the fast form.
                    let record = wire::record(&p, &inputs, &o, "t");
                    assert_eq!(c.matches(record.as_bytes(), &mut scratch), Some(true), "{record}");
                    lines.push_str(&record);
                    lines.push('\n');
                    answered += 1;
                }
                Err(_) => assert!(c.evaluate(&p, &inputs).is_none(), "{}: {call} has no answer", p.name),
            }
        }
        assert!(answered > 500, "{}: {answered} calls answered", p.name);
        // A record that differs anywhere is handed to the reference; the reports are the same.
        let perturbed: String = lines
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let mut r: Json = serde_json::from_str(l).unwrap();
                if i % 7 == 0 {
                    let out = p.vars[p.outputs[0]].name.clone();
                    if let Some(n) = r["observed"][&out].as_i64() {
                        r["observed"][&out] = json!(n + 1);
                    }
                }
                if i % 11 == 0 {
                    r["trace"][0]["row"] = json!(1);
                }
                if i % 13 == 0 {
                    r["tag"] = json!("a \"quoted\" tag");
                }
                format!("{r}\n")
            })
            .collect();
        let fills = Fills::default();
        let reader = Reader { rule: &p, written_by: None, fills: &fills, fills_for: None };
        let run = |fast: bool| {
            replay::replay(&reader, "f", perturbed.as_bytes(), &Options { fast }, &mut Quiet).unwrap().to_json()
        };
        let (fast, reference) = (run(true), run(false));
        assert_eq!(fast, reference, "{}", p.name);
        assert!(fast["clusters"].as_array().unwrap().len() + fast["moved"].as_array().unwrap().len() > 0);
    }
    assert!(compiled_rules >= 7, "{compiled_rules} corpus rules compile to the fast form");
}

#[test]
fn suspect_rounding_is_exactly_a_cluster_under_the_grid() {
    // member_discount rounds the discount half_even to 10 yen; pct has no rounding of its own.
    let line = |tier: &str, channel: &str, subtotal: u64, coupon: Option<&str>, pct: u64, discount: u64| {
        let mut input = json!({"tier": tier, "channel": channel, "subtotal": subtotal});
        if let Some(c) = coupon {
            input["coupon"] = json!(c);
        }
        let note = if channel == "web" && tier != "silver" { json!("web bonus") } else { json!(null) };
        json!({"in": input, "observed": {"pct": pct, "discount": discount, "note": note}}).to_string()
    };
    let records = [
        // silver, store: 250 yen; theirs 3 and 5 above: both under the grid.
        line("silver", "store", 10000, None, 5, 253),
        line("silver", "store", 10100, None, 5, 255),
        // gold, web, ten_off: 1260 and 2000; theirs 5 and 10 above: 10 is not under the grid.
        line("gold", "web", 10100, Some("ten_off"), 15, 1265),
        line("gold", "web", 20000, Some("ten_off"), 15, 2010),
        // platinum, phone, gift: the discount is right; pct, which has no grid, is one step off.
        line("platinum", "phone", 1300, Some("gift"), 11, 60),
        // gold, web, no coupon: 750; theirs 1 below.
        line("gold", "web", 10000, None, 15, 749),
    ];
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("discounts.jsonl");
    std::fs::write(&f, records.join("\n") + "\n").unwrap();
    let o =
        rulec(&["replay", "tests/corpus/member_discount.rule", "--fixtures", f.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let r = json_of(&o);
    assert_eq!((r["compared"].as_u64(), r["matched"].as_u64()), (Some(6), Some(0)), "{r}");
    let suspect: Vec<(u64, bool)> = r["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["records"][0]["line"].as_u64().unwrap(), c["suspect_rounding"].as_bool().unwrap()))
        .collect();
    let mut suspect = suspect;
    suspect.sort();
    assert_eq!(suspect, vec![(1, true), (3, false), (5, false), (6, true)], "{r}");
    let silver = r["clusters"].as_array().unwrap().iter().find(|c| c["records"][0]["line"] == 1).unwrap();
    assert_eq!(silver["delta"]["discount"], json!({"min": -5, "max": -3, "uniform": false, "total": -8}));
    assert_eq!(silver["count"], 2);
    let text = text(&rulec(&["replay", "tests/corpus/member_discount.rule", "--fixtures", f.to_str().unwrap()]).stdout);
    assert_eq!(text.lines().next(), Some("Compared 6 / matched 0 (0.000%)"));
    assert_eq!(text.matches("suspect rounding").count(), 2, "{text}");
}

/// single_coupon with its rate kept in tenths of a percent (v2) where v1 kept whole percents.
fn finer_coupon() -> String {
    let src = std::fs::read_to_string(root().join("tests/corpus/single_coupon.rule")).unwrap();
    let v2 = src
        .replace("rule single_coupon v1", "rule single_coupon v2")
        .replace("input rate: rate[1%] 0%..100%", "input rate: rate[0.1%] 0%..100%");
    assert_ne!(v2, src);
    v2
}

/// Records v1 wrote: every call of its suite the rule answers, through `rulec eval`.
fn v1_records(v1: &Path) -> String {
    let p = program(v1);
    let calls: String = rulec::vectors::build(&p).vectors.iter().map(|v| v.input.to_string() + "\n").collect();
    let o = rulec_in(&["eval", v1.to_str().unwrap(), "--in", "-"], &calls);
    assert!(o.status.success());
    text(&o.stdout)
}

#[test]
fn read_as_brings_records_written_at_a_coarser_step_to_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = dir.path().join("coupon_v1.rule");
    let v2 = dir.path().join("coupon.rule");
    std::fs::copy(root().join("tests/corpus/single_coupon.rule"), &v1).unwrap();
    std::fs::write(&v2, finer_coupon()).unwrap();
    let records = dir.path().join("records.jsonl");
    std::fs::write(&records, v1_records(&v1)).unwrap();
    let (v1s, v2s, rs) = (v1.to_str().unwrap(), v2.to_str().unwrap(), records.to_str().unwrap());
    // Read at v2's steps, 10 (10%) is 1.0%: the percent coupons no longer match.
    let plain = json_of(&rulec(&["replay", v2s, "--fixtures", rs, "--format", "json"]));
    assert!(plain["compared"].as_u64().unwrap() > 0);
    assert!(plain["matched"].as_u64() < plain["compared"].as_u64(), "{plain}");
    let o = rulec(&["replay", v2s, "--fixtures", rs, "--read-as", v1s, "--format", "json"]);
    let read = json_of(&o);
    assert_eq!(o.status.code(), Some(0), "{read}");
    assert_eq!(read["matched"], read["compared"]);
    assert_eq!(read["compared"], plain["compared"]);
    // lint reads them the same way: nothing to report but the refusal lines.
    let lint = json_of(&rulec(&["fixtures", "lint", rs, "--rule", v2s, "--read-as", v1s, "--format", "json"]));
    assert!(lint["problems"].as_array().unwrap().iter().all(|p| p["kind"] == "no_in"), "{lint}");
    // From a git revision: v1 committed, v2 in the working tree.
    if on_path("git") {
        let git = |args: &[&str]| {
            let o = Command::new("git").args(args).current_dir(dir.path()).output().unwrap();
            assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
        };
        git(&["init", "-q"]);
        std::fs::copy(&v1, &v2).unwrap();
        git(&["add", "coupon.rule"]);
        git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1"]);
        std::fs::write(&v2, finer_coupon()).unwrap();
        let at = format!("{v2s}@HEAD");
        let o = rulec(&["replay", v2s, "--fixtures", rs, "--read-as", &at, "--format", "json"]);
        let r = json_of(&o);
        assert_eq!(o.status.code(), Some(0), "{r}{}", text(&o.stderr));
        assert_eq!(r["matched"], r["compared"]);
    } else {
        assert!(std::env::var_os("CI").is_none(), "git is not on PATH, and CI is set");
    }
    // The other way, a step that does not divide is refused, naming the field.
    let fine = dir.path().join("fine.jsonl");
    let line = json!({"in": {"subtotal": 1000, "applied": 0, "kind": "percent", "rate": 155, "face": 0, "dup": false},
                      "observed": {"ok": true, "raw": 155}});
    std::fs::write(&fine, format!("{line}\n")).unwrap();
    let o = rulec(&["fixtures", "lint", fine.to_str().unwrap(), "--rule", v1s, "--read-as", v2s, "--format", "json"]);
    let lint = json_of(&o);
    assert_eq!(lint["problems"][0]["kind"], "bad_input");
    assert_eq!(lint["problems"][0]["field"], "rate");
    assert!(
        lint["problems"][0]["what"].as_str().unwrap().contains("not a whole number of this version's steps"),
        "{lint}"
    );
    // --read-as another rule is refused.
    let o = rulec(&["replay", v2s, "--fixtures", rs, "--read-as", "tests/corpus/parcel_rate.rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("the same rule"));
}

const GOOD_IN: &str = r#""weight":5,"girth":40,"dest":"canada","signature":false"#;

#[test]
fn fixtures_lint_reports_every_problem_kind() {
    let lines = [
        format!(
            r#"{{"ts":"2025-08-14T09:12:33+09:00","tag":"order:1","in":{{{GOOD_IN}}},"observed":{{"fee":11}},"by":{{"dest":{{"src":"model","conf":0.3,"odd":[1,"x"]}}}},"trace":[{{"table":"size_of","row":1}},{{"table":"base_rate","row":4}},{{"table":"fuel_rate","row":1}},{{"table":"signature_fee","row":3}}]}}"#
        ),
        "fee=11 weight=5".to_string(),
        r#"{"tag":"order:3","observed":{"fee":11}}"#.to_string(),
        format!(r#"{{"tag":"order:4","in":{{{GOOD_IN}}}}}"#),
        format!(r#"{{"tag":"order:5","in":{{{GOOD_IN},"colour":"red"}},"observed":{{"fee":11}}}}"#),
        r#"{"tag":"order:6","in":{"weight":5.5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11}}"#
            .to_string(),
        format!(r#"{{"tag":"order:7","in":{{{GOOD_IN}}},"observed":{{"fee":"eleven"}}}}"#),
        format!(r#"{{"tag":"order:8","in":{{{GOOD_IN}}},"observed":{{}}}}"#),
        format!(
            r#"{{"tag":"order:9","in":{{{GOOD_IN}}},"observed":{{"fee":11}},"trace":[{{"table":"size_of","row":9}}]}}"#
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("every_kind.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    let o = rulec(&[
        "fixtures",
        "lint",
        f.to_str().unwrap(),
        "--rule",
        "tests/corpus/parcel_rate.rule",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let mut r = json_of(&o);
    r["file"] = json!("every_kind.jsonl");
    assert_eq!(
        (r["records"].as_u64(), r["observed"].as_u64(), r["dropped"].as_u64()),
        (Some(9), Some(7), Some(8)),
        "{r}"
    );
    let got: Vec<(String, Json, u64, u64, String)> = r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_string(),
                p.get("field").cloned().unwrap_or(Json::Null),
                p["count"].as_u64().unwrap(),
                p["example"]["line"].as_u64().unwrap(),
                p["example"]["tag"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("not_json", Json::Null, 2, ""),
        ("no_in", Json::Null, 3, "order:3"),
        ("no_observed", Json::Null, 4, "order:4"),
        ("unknown_field", json!("colour"), 5, "order:5"),
        ("bad_input", json!("weight"), 6, "order:6"),
        ("bad_observed", json!("fee"), 7, "order:7"),
        ("missing_observed", json!("fee"), 8, "order:8"),
        ("bad_trace", json!("trace"), 9, "order:9"),
    ];
    let want: Vec<(String, Json, u64, u64, String)> =
        want.iter().map(|(k, f, l, t)| (k.to_string(), f.clone(), 1, *l, t.to_string())).collect();
    assert_eq!(got, want, "{r}");
    let every: Vec<&str> = rulec::production::records::Kind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(got.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(), every, "each kind there is, once");
    let decimal = &r["problems"][4];
    assert_eq!(decimal["what"], "`in.weight`: `5.5` is not an integer");
    insta::assert_snapshot!(serde_json::to_string_pretty(&r).unwrap());
    // The record whose `by` holds anything at all is read and matches: `by` is never read.
    let o = rulec(&["replay", "tests/corpus/parcel_rate.rule", "--fixtures", f.to_str().unwrap(), "--format", "json"]);
    let rep = json_of(&o);
    assert_eq!((rep["compared"].as_u64(), rep["matched"].as_u64()), (Some(1), Some(1)), "{rep}");
    let excluded: u64 = rep["excluded"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(excluded, 8);
}

#[test]
fn a_replay_whose_every_record_was_filled_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("filled.jsonl");
    // Records written before `signature` was an input: each is completed with the fill.
    std::fs::write(
        &f,
        "{\"in\":{\"weight\":5,\"girth\":40,\"dest\":\"canada\"},\"observed\":{\"fee\":11}}\n\
         {\"in\":{\"weight\":5,\"girth\":40,\"dest\":\"domestic\"},\"observed\":{\"fee\":9}}\n",
    )
    .unwrap();
    let o = rulec(&[
        "replay",
        "tests/corpus/parcel_rate.rule",
        "--fixtures",
        f.to_str().unwrap(),
        "--fill",
        "signature=false",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("Compared nothing: every record was filled from the defaults (see Filled below)\n"),
        "{out}"
    );
    assert!(out.contains("Filled 2 "), "{out}");
    assert!(!out.contains("excluded"), "{out}");
    assert!(text(&o.stderr).contains("nothing was compared: every record was filled"), "{}", text(&o.stderr));
}

#[test]
fn a_replay_that_compares_nothing_says_so_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("refusals.jsonl");
    std::fs::write(&f, "{\"refused\":\"input\",\"error\":\"weight is missing\"}\nnot json\n").unwrap();
    let o = rulec(&["replay", "tests/corpus/parcel_rate.rule", "--fixtures", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).starts_with("Compared nothing: every record was excluded\n"), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("Excluded 2: no_in 1, not_json 1"), "{}", text(&o.stdout));
    assert!(text(&o.stderr).contains("nothing was compared"));
}

#[test]
fn filled_records_are_counted_apart_and_traces_give_transitions() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("records.jsonl");
    let trace = |sig_row: u64, fuel_row: u64| json!([{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":fuel_row},{"table":"signature_fee","row":sig_row}]);
    let records = [
        // Matches, with the rule's rows.
        json!({"tag": "a", "in": {"weight":5,"girth":40,"dest":"canada","signature":false}, "observed": {"fee": 11}, "trace": trace(3, 1)}),
        // The same answer, but the record says another fuel row fired: moved.
        json!({"tag": "b", "in": {"weight":5,"girth":40,"dest":"canada","signature":false}, "observed": {"fee": 11}, "trace": trace(3, 2)}),
        // A different answer and another signature row: a cluster keyed by the transition.
        json!({"tag": "c", "in": {"weight":5,"girth":40,"dest":"canada","signature":true}, "observed": {"fee": 12}, "trace": trace(2, 1)}),
        // No signature: filled from the manifest (false), and it matches.
        json!({"tag": "d", "in": {"weight":5,"girth":40,"dest":"canada"}, "observed": {"fee": 11}}),
        // No weight, which nothing fills: excluded.
        json!({"tag": "e", "in": {"girth":40,"dest":"canada","signature":false}, "observed": {"fee": 11}}),
    ];
    std::fs::write(&f, records.iter().map(|r| r.to_string() + "\n").collect::<String>()).unwrap();
    let m = dir.path().join("manifest.json");
    std::fs::write(&m, r#"{"rule":"parcel_rate","fills":{"signature":false}}"#).unwrap();
    let (fs, ms) = (f.to_str().unwrap(), m.to_str().unwrap());
    let rule = "tests/corpus/parcel_rate.rule";
    let r = json_of(&rulec(&["replay", rule, "--fixtures", fs, "--manifest", ms, "--format", "json"]));
    assert_eq!((r["compared"].as_u64(), r["matched"].as_u64()), (Some(3), Some(2)), "{r}");
    assert_eq!(
        r["filled"],
        json!({"count": 1, "matched": 1, "by_field": {"signature": 1}, "defaults": {"signature": false}})
    );
    assert_eq!(r["excluded"], json!({"bad_input": 1}));
    assert_eq!(r["moved"][0]["rows"][2], json!({"table": "fuel_rate", "from": 2, "to": 1}));
    assert_eq!(r["moved"][0]["records"], json!([{"line": 2, "tag": "b"}]));
    let c = &r["clusters"][0];
    assert_eq!(c["rows"][3], json!({"table": "signature_fee", "from": 2, "to": 1}));
    assert_eq!(c["delta"]["fee"], json!({"min": 1, "max": 1, "uniform": true, "total": 1}));
    // --fill overrides the manifest for a sensitivity run: the filled record no longer matches.
    let r = json_of(&rulec(&[
        "replay",
        rule,
        "--fixtures",
        fs,
        "--manifest",
        ms,
        "--fill",
        "signature=true",
        "--format",
        "json",
    ]));
    assert_eq!(r["filled"]["matched"], 0);
    assert_eq!(r["filled"]["defaults"], json!({"signature": true}));
    assert_eq!(r["compared"], 3, "filled records stay out of the headline");
    // A manifest for another rule, or naming a field that is not an input, is refused.
    std::fs::write(&m, r#"{"rule":"ticket_price","fills":{}}"#).unwrap();
    assert_eq!(rulec(&["replay", rule, "--fixtures", fs, "--manifest", ms]).status.code(), Some(2));
    std::fs::write(&m, r#"{"fills":{"colour":"red"}}"#).unwrap();
    let o = rulec(&["replay", rule, "--fixtures", fs, "--manifest", ms]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("`colour`, which is not an input"), "{}", text(&o.stderr));
}

/// A rule decided by defines alone (tests/rules/band_tax.rule): its records cluster by no
/// row, and the report says so instead of naming an empty list of rows.
#[test]
fn a_rule_with_no_table_clusters_its_records_by_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let rule = root().join("tests/rules/band_tax.rule");
    let fixtures = dir.path().join("old.jsonl");
    std::fs::write(
        &fixtures,
        "{\"in\":{\"income\":55000},\"observed\":{\"tax\":5900},\"trace\":[]}\n\
         {\"in\":{\"income\":250000},\"observed\":{\"tax\":67400},\"trace\":[]}\n",
    )
    .unwrap();
    let out = rulec(&["replay", rule.to_str().unwrap(), "--fixtures", fixtures.to_str().unwrap()]);
    let report = text(&out.stdout);
    assert!(report.contains("Compared 2 / matched 0"), "{report}\n{}", text(&out.stderr));
    assert!(report.contains("2 records decided by no table: tax +100 each"), "{report}");
    let json = json_of(&rulec(&[
        "replay",
        rule.to_str().unwrap(),
        "--fixtures",
        fixtures.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(json["clusters"][0]["rows"], json!([]), "{json}");
}
