//! `rulec verify` against legacy implementations written by hand (tests/adapters: one in
//! Python, one in Go, each with a planted off-by-one), the adapter protocol's failures, and
//! the templates `rulec adapter` prints, filled in and run.
//!
//! Without python3 or go a test says so and passes, unless CI is set: there a missing
//! toolchain is a failure.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::on_path;
use common::with_env as rulec;

const RULE: &str = "tests/corpus/parcel_rate.rule";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn have(tool: &str) -> bool {
    if on_path(tool) {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "{tool} is not on PATH, and CI is set");
    eprintln!("note: {tool} is not on PATH; skipping");
    false
}

fn report(o: &Output) -> Json {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}): {}{}", text(&o.stdout), text(&o.stderr)))
}

/// The vectors of parcel_rate the rule answers, by their line in `rulec vectors` (1-based).
fn answered_vectors() -> Vec<(usize, Json)> {
    let o = rulec(&["vectors", RULE], &[]);
    assert!(o.status.success());
    text(&o.stdout)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, serde_json::from_str::<Json>(l).unwrap()))
        .filter(|(_, v)| v.get("out").is_some())
        .collect()
}

/// Every cluster's records from the suite are exactly the vectors `bites` picks, the others
/// are the inputs verify adds (tagged), each cluster's move is one amount, its witness is one
/// of its records, as the reference and the legacy code give it, and its smallest input bites.
fn assert_clusters(r: &Json, bites: impl Fn(&Json) -> bool, row: (&str, u64), counterpart: &str) {
    let vectors = answered_vectors();
    let suite_lines = rulec(&["vectors", RULE], &[]).stdout.iter().filter(|&&b| b == b'\n').count();
    let want: Vec<usize> = vectors.iter().filter(|(_, v)| bites(&v["in"])).map(|(l, _)| *l).collect();
    assert!(!want.is_empty(), "the planted bug is reached by the suite");
    assert_eq!(r["counterpart"], counterpart);
    assert_eq!(r["compared"], r["reach"]["asked"]);
    assert!(r["compared"].as_u64().unwrap() > vectors.len() as u64, "verify asks more than the suite: {r}");
    assert_eq!(r["unanswered"], 0);
    let mut got: Vec<usize> = Vec::new();
    let mut differing = 0;
    for c in r["clusters"].as_array().unwrap() {
        let lines: Vec<usize> =
            c["records"].as_array().unwrap().iter().map(|x| x["line"].as_u64().unwrap() as usize).collect();
        assert_eq!(c["count"], lines.len() as u64);
        differing += lines.len();
        for x in c["records"].as_array().unwrap() {
            let line = x["line"].as_u64().unwrap() as usize;
            if line <= suite_lines {
                got.push(line);
            } else {
                assert_ne!(x["tag"], "", "an input verify adds says why: {c}");
            }
        }
        assert!(bites(&c["smallest"]["in"]), "the smallest differing input is one the bug moves: {c}");
        assert!(
            c["rows"].as_array().unwrap().iter().any(|x| x["table"] == row.0 && x["row"] == row.1),
            "every cluster fires {row:?} in the rule: {c}"
        );
        let Some(first) = vectors.iter().find(|(l, _)| *l == lines[0]).map(|(_, v)| v) else { continue };
        // The witness is the cluster's first record, with the rule's answer and the legacy one.
        assert_eq!(c["witness"]["in"], first["in"]);
        assert_eq!(c["witness"]["ours"], first["out"]);
        let (ours, theirs) =
            (c["witness"]["ours"]["fee"].as_i64().unwrap(), c["witness"]["theirs"]["fee"].as_i64().unwrap());
        let d = &c["delta"]["fee"];
        if d["uniform"] == true {
            assert_eq!(d["min"], ours - theirs);
            assert_eq!(d["max"], ours - theirs);
            assert_eq!(d["total"], (ours - theirs) * lines.len() as i64);
        } else {
            assert!(d["min"].as_i64().unwrap() <= ours - theirs && ours - theirs <= d["max"].as_i64().unwrap());
        }
        assert_eq!(c["suspect_rounding"], false, "a dollar is the output's own unit, not a rounding");
    }
    got.sort();
    assert_eq!(got, want, "the clusters hold exactly the records of the suite the planted bug moves");
    assert_eq!(r["matched"].as_u64().unwrap() + differing as u64, r["compared"].as_u64().unwrap());
}

#[test]
fn a_python_legacy_with_an_off_by_one_is_found_exactly() {
    if !have("python3") {
        return;
    }
    let o =
        rulec(&["verify", RULE, "--format", "json", "--adapter", "python3", "tests/adapters/legacy_parcel.py"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let r = report(&o);
    // 11 lb parcels under 61 in are medium to the rule and small to the legacy code.
    assert_clusters(&r, |i| i["weight"] == 11 && i["girth"].as_i64().unwrap() <= 60, ("size_of", 2), "legacy@py-1");
    // Domestic, no signature: medium 12 + 2 fuel against small 8 + 1.
    let domestic = r["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["witness"]["in"]["dest"] == "domestic" && c["witness"]["in"]["signature"] == false)
        .expect("a domestic cluster");
    assert_eq!(domestic["delta"]["fee"]["min"], 5);
    assert_eq!(domestic["witness"]["theirs"]["fee"], 9);
    // The text leads with the summary line, then one line per cluster.
    let t = text(&rulec(&["verify", RULE, "--adapter", "python3", "tests/adapters/legacy_parcel.py"], &[]).stdout);
    let lines: Vec<&str> = t.lines().collect();
    let n = r["compared"].as_u64().unwrap();
    let m = r["matched"].as_u64().unwrap();
    assert!(lines[0].starts_with(&format!("Compared {n} / matched {m} (")), "{t}");
    assert_eq!(lines[1], "Counterpart: legacy@py-1");
    assert!(lines[2].starts_with(&format!("Reach: asked {n} of 54600 points of the declared domain")), "{t}");
    assert_eq!(lines.len(), 3 + r["clusters"].as_array().unwrap().len(), "{t}");
}

#[test]
fn a_go_legacy_with_an_off_by_one_is_found_exactly() {
    if !have("go") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("legacy");
    let build = Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&bin)
        .arg(root().join("tests/adapters/legacy_parcel.go"))
        .current_dir(dir.path())
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-mod=mod")
        .output()
        .unwrap();
    assert!(build.status.success(), "go build: {}", text(&build.stderr));
    let o = rulec(&["verify", RULE, "--format", "json", "--adapter", bin.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    // A 61 in girth is large to the rule and not to the legacy code.
    assert_clusters(&report(&o), |i| i["girth"] == 61, ("size_of", 3), "legacy@go-1");
}

#[test]
fn an_adapter_that_refuses_the_hard_cases_does_not_pass() {
    if !have("python3") {
        return;
    }
    let args = ["verify", RULE, "--format", "json", "--adapter", "python3", "tests/adapters/legacy_parcel.py"];
    let answering = report(&rulec(&args, &[]));
    let o = rulec(&args, &[("LEGACY_REFUSE", "1")]);
    assert_eq!(o.status.code(), Some(1), "a run with unanswered records fails");
    let refusing = report(&o);
    let wrong = answering["compared"].as_u64().unwrap() - answering["matched"].as_u64().unwrap();
    let refused = refusing["unanswered"].as_u64().unwrap();
    assert!(refused >= wrong && refused > 0, "it refuses every case it gets wrong: {refusing}");
    assert_eq!(refusing["clusters"], serde_json::json!([]), "what is refused is not compared");
    let compared = refusing["compared"].as_u64().unwrap();
    assert_eq!(compared + refused, answering["compared"].as_u64().unwrap());
    // An unanswered record leaves the denominator (formats.md, the adapter protocol, point 4):
    // the rate is over what was answered, and the refusals are reported beside it.
    let matched = refusing["matched"].as_u64().unwrap();
    assert_eq!(refusing["rate"].as_f64().unwrap(), matched as f64 / compared as f64, "{refusing}");
    let o =
        rulec(&["verify", RULE, "--adapter", "python3", "tests/adapters/legacy_parcel.py"], &[("LEGACY_REFUSE", "1")]);
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!(
            "Unanswered {refused} (the counterpart answered err; kept out of the rate, and the run fails)\n"
        )),
        "{out}"
    );
}

/// An adapter that answers `err` to every record but one, where it misbehaves.
fn misbehaving(dir: &Path, name: &str, at_id_2: &str) -> PathBuf {
    let path = dir.join(format!("{name}.py"));
    let script = format!(
        r#"import json, sys, time
sys.stdin.readline()
print(json.dumps({{"ok": True, "impl": "{name}"}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req["id"] == 2:
        {at_id_2}
    print(json.dumps({{"id": req["id"], "err": "not this one"}}), flush=True)
"#
    );
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
fn every_malformed_answer_stops_the_run_naming_the_record() {
    if !have("python3") {
        return;
    }
    // The vector with id 2 is the third line of `rulec vectors`: parcel_rate answers it.
    assert!(answered_vectors().iter().any(|(l, _)| *l == 3));
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("not_json", "print('fee: 12', flush=True); continue", "is not JSON"),
        (
            "other_id",
            "print(json.dumps({'id': 7, 'out': {'fee': 12}}), flush=True); continue",
            "with id 7 instead of 2",
        ),
        ("neither", "print(json.dumps({'id': 2}), flush=True); continue", "neither `out` nor `err`"),
        ("no_output", "print(json.dumps({'id': 2, 'out': {}}), flush=True); continue", "has no `fee`"),
        ("decimal", "print(json.dumps({'id': 2, 'out': {'fee': 12.5}}), flush=True); continue", "`out.fee`"),
        ("dies", "sys.stderr.write('legacy crashed\\n'); sys.exit(3)", "legacy crashed"),
        ("hangs", "time.sleep(30)", "no answer within 1000 ms"),
    ];
    for (name, act, says) in cases {
        let script = misbehaving(dir.path(), name, act);
        // Only the hanging adapter is waited for; the others answer at once.
        let timeout = if name == "hangs" { "1000ms" } else { "10s" };
        let o = rulec(&["verify", RULE, "--timeout", timeout, "--adapter", "python3", script.to_str().unwrap()], &[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}{}", text(&o.stdout));
        assert!(err.contains("record 3 (id 2)"), "{name} names the record: {err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    let bad_hello = dir.path().join("bad_hello.py");
    std::fs::write(&bad_hello, "import sys\nsys.stdin.readline()\nprint('{\"ok\": false}', flush=True)\n").unwrap();
    let o = rulec(&["verify", RULE, "--adapter", "python3", bad_hello.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("the handshake"), "{}", text(&o.stderr));
}

/// parcel_rate written correctly, as a user fills the template in.
const PYTHON_BODY: &str = r#"    base = {"domestic": {"small": 8, "medium": 12, "large": 20},
            "canada": {"small": 10, "medium": 15, "large": 25},
            "overseas": {"small": 18, "medium": 30, "large": 45}}
    size = "large" if call["girth"] > 60 else ("small" if call["weight"] <= 10 else "medium")
    b = base[call["dest"]][size]
    fuel = 20 if call["dest"] == "overseas" else 10
    sig = (5 if call["dest"] == "overseas" else 2) if call["signature"] else 0
    return {"fee": b + -(-b * fuel // 100) + sig}"#;

const GO_BODY: &str = r#"	base := map[string]map[string]int64{"domestic": {"small": 8, "medium": 12, "large": 20},
		"canada": {"small": 10, "medium": 15, "large": 25}, "overseas": {"small": 18, "medium": 30, "large": 45}}
	w, _ := call["weight"].(json.Number).Int64()
	g, _ := call["girth"].(json.Number).Int64()
	dest := call["dest"].(string)
	size := "medium"
	if g > 60 { size = "large" } else if w <= 10 { size = "small" }
	b := base[dest][size]
	fuel, sig := int64(10), int64(0)
	if dest == "overseas" { fuel = 20 }
	if call["signature"].(bool) { sig = 2; if dest == "overseas" { sig = 5 } }
	return map[string]any{"fee": b + (b*fuel+99)/100 + sig}, nil"#;

fn template(kind: &str) -> String {
    let o = rulec(&["adapter", RULE, "--template", kind], &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = text(&o.stdout);
    let n = t.lines().count();
    assert!((20..=30).contains(&n), "the {kind} template is {n} lines:\n{t}");
    t
}

#[test]
fn the_python_template_works_as_printed_and_filled_in() {
    if !have("python3") {
        return;
    }
    let t = template("python");
    let dir = tempfile::tempdir().unwrap();
    // As printed: it speaks the protocol and refuses every call.
    let printed = dir.path().join("printed.py");
    std::fs::write(&printed, &t).unwrap();
    let o = rulec(&["verify", RULE, "--format", "json", "--adapter", "python3", printed.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let r = report(&o);
    assert_eq!(r["compared"], 0);
    assert_eq!(r["unanswered"], r["reach"]["asked"]);
    let n = r["reach"]["asked"].as_u64().unwrap();
    // Filled in with a correct implementation: everything matches.
    let stub = "    raise NotImplementedError(\"call the legacy implementation here\")";
    assert!(t.contains(stub), "{t}");
    let filled = dir.path().join("adapter.py");
    std::fs::write(&filled, t.replace(stub, PYTHON_BODY)).unwrap();
    let o = rulec(&["verify", RULE, "--adapter", "python3", filled.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).starts_with(&format!("Compared {n} / matched {n} (100.000%)\nCounterpart: legacy@dev\n")));
}

#[test]
fn the_go_template_builds_and_works_filled_in() {
    if !have("go") {
        return;
    }
    let t = template("go");
    let stub = "\treturn nil, fmt.Errorf(\"call the legacy implementation here\")";
    assert!(t.contains(stub), "{t}");
    let dir = tempfile::tempdir().unwrap();
    let mut n = None;
    for (name, src, want) in [("printed", t.clone(), 1), ("filled", t.replace(stub, GO_BODY), 0)] {
        let src_path = dir.path().join(format!("{name}.go"));
        std::fs::write(&src_path, src).unwrap();
        let bin = dir.path().join(name);
        let build = Command::new("go")
            .arg("build")
            .arg("-o")
            .arg(&bin)
            .arg(&src_path)
            .current_dir(dir.path())
            .env("GOPROXY", "off")
            .output()
            .unwrap();
        assert!(build.status.success(), "go build {name}: {}", text(&build.stderr));
        let o = rulec(&["verify", RULE, "--format", "json", "--adapter", bin.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(want), "{name}: {}{}", text(&o.stdout), text(&o.stderr));
        let r = report(&o);
        let asked = r["reach"]["asked"].as_u64();
        assert!(asked.unwrap() > answered_vectors().len() as u64);
        if want == 0 {
            assert_eq!((r["compared"].as_u64(), r["matched"].as_u64()), (n, n));
        } else {
            assert_eq!(r["unanswered"].as_u64(), asked);
            n = asked;
        }
    }
}

/// parcel_rate right but for a cut of the legacy code's own (tests/adapters/legacy_parcel_cuts.py).
fn with_cut(cut: &str, extra: &[&str]) -> Output {
    let mut args = vec!["verify", RULE, "--format", "json"];
    args.extend(extra);
    args.extend(["--adapter", "python3", "tests/adapters/legacy_parcel_cuts.py"]);
    rulec(&args, &[("LEGACY_CUT", cut)])
}

#[test]
fn a_legacy_cut_above_the_rules_last_cut_is_found_by_default() {
    if !have("python3") {
        return;
    }
    // The suite never asks above 11 lb; the top of weight's range is past the legacy cut.
    assert!(answered_vectors().iter().all(|(_, v)| v["in"]["weight"].as_i64().unwrap() <= 50));
    let o = with_cut("above_50lb", &[]);
    assert_eq!(o.status.code(), Some(1), "{}{}", text(&o.stdout), text(&o.stderr));
    let r = report(&o);
    let clusters = r["clusters"].as_array().unwrap();
    assert!(!clusters.is_empty(), "{r}");
    for c in clusters {
        assert_eq!(c["delta"]["fee"]["min"], -1, "{c}");
        assert!(c["smallest"]["in"]["weight"].as_i64().unwrap() > 50, "{c}");
        // The region the cluster covers: its differing weights all lie above the legacy cut.
        let (lo, hi) = (c["region"]["weight"]["min"].as_i64().unwrap(), c["region"]["weight"]["max"].as_i64().unwrap());
        assert!(50 < lo && lo <= hi && hi <= 70, "{c}");
        assert_eq!(c["region"]["weight"]["min"], c["smallest"]["in"]["weight"], "{c}");
        for x in c["records"].as_array().unwrap() {
            assert_ne!(x["tag"], "", "only an input verify adds reaches the cut: {c}");
        }
    }
    assert!(clusters.iter().any(|c| c["records"].as_array().unwrap().iter().any(|x| x["tag"] == "weight high end")));
    let reach = &r["reach"];
    assert_eq!(reach["asked"], r["compared"]);
    // 70 weights × 130 girths × 3 zones × 2.
    assert_eq!(reach["domain"], "54600");
    assert_eq!(reach["exhaustive"], false);
    assert_eq!(reach["sample"], Json::Null);
    // Right legacy code, same inputs: 100%, and the text says of how many.
    let o = with_cut("", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(report(&o)["reach"], r["reach"]);
}

#[test]
fn a_legacy_cut_between_the_rules_cuts_is_found_by_sampling() {
    if !have("python3") {
        return;
    }
    // 23 and 24 lb are neither a cut's side, a range's end nor a row's middle.
    let o = with_cut("between", &[]);
    assert_eq!(o.status.code(), Some(0), "the default set does not reach it: {}", text(&o.stdout));
    let default_asked = report(&o)["reach"]["asked"].as_u64().unwrap();
    let o = with_cut("between", &["--sample", "1000"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", text(&o.stdout), text(&o.stderr));
    let r = report(&o);
    assert_eq!(r["reach"]["sample"], serde_json::json!({"count": 1000, "seed": 1}));
    assert_eq!(r["reach"]["asked"].as_u64().unwrap(), default_asked + 1000, "1000 distinct new inputs");
    let clusters = r["clusters"].as_array().unwrap();
    assert!(!clusters.is_empty());
    for c in clusters {
        let w = c["smallest"]["in"]["weight"].as_i64().unwrap();
        assert!((23..=24).contains(&w), "{c}");
        // The region is the legacy bug's band, not the rule's row around it (11 to 70 lb).
        let (lo, hi) = (c["region"]["weight"]["min"].as_i64().unwrap(), c["region"]["weight"]["max"].as_i64().unwrap());
        assert!(23 <= lo && hi <= 24, "{c}");
        assert!(c["region"]["dest"]["min"].is_string() && c["region"]["girth"]["max"].is_i64(), "{c}");
        assert!(c["records"].as_array().unwrap().iter().all(|x| x["tag"] == "sample"), "{c}");
    }
    // The same seed draws the same inputs; another seed others, and says which.
    assert_eq!(report(&with_cut("between", &["--sample", "1000"])), r);
    let other = report(&with_cut("between", &["--sample", "1000", "--seed", "9"]));
    assert_eq!(other["reach"]["sample"]["seed"], 9);
    assert_ne!(other["clusters"], r["clusters"]);
    let t = rulec(
        &["verify", RULE, "--sample", "1000", "--adapter", "python3", "tests/adapters/legacy_parcel_cuts.py"],
        &[("LEGACY_CUT", "between")],
    );
    let t = text(&t.stdout);
    assert!(t.lines().nth(2).unwrap().contains("and 1000 sampled with seed 1"), "{t}");
    assert!(t.contains("; its differing inputs lie in weight "), "{t}");
}

const TINY: &str = r#"rule tiny v1
about "A price by count and membership."

input count: int 0..99
input member: bool

output price: int 0..200

table price_of -> price
| count | member | price |
|-------|--------|-------|
| <=49  | true   | 10    |
| <=49  | false  | 20    |
| >49   | -      | 30    |
"#;

/// tiny as a legacy system wrote it: right, or off at `count == wrong_at`.
fn tiny_legacy(dir: &Path, wrong_at: i64) -> PathBuf {
    let path = dir.join(format!("tiny_{wrong_at}.py"));
    let script = format!(
        r#"import json, sys
sys.stdin.readline()
print(json.dumps({{"ok": True, "impl": "tiny"}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    c, m = req["in"]["count"], req["in"]["member"]
    price = 30 if c > 49 else (10 if m else 20)
    if c == {wrong_at}:
        price += 1
    print(json.dumps({{"id": req["id"], "out": {{"price": price}}}}), flush=True)
"#
    );
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
fn exhaustive_proves_agreement_on_a_small_domain_and_refuses_a_large_one() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("tiny.rule");
    std::fs::write(&rule, TINY).unwrap();
    let rule = rule.to_str().unwrap();
    let run = |extra: &[&str], legacy: &Path| {
        let mut args = vec!["verify", rule, "--format", "json"];
        args.extend(extra);
        args.extend(["--adapter", "python3", legacy.to_str().unwrap()]);
        rulec(&args, &[])
    };
    // Right everywhere: all 200 inputs asked and matched, and the report says it is all of them.
    let right = tiny_legacy(dir.path(), -1);
    let o = run(&["--exhaustive"], &right);
    assert_eq!(o.status.code(), Some(0), "{}{}", text(&o.stdout), text(&o.stderr));
    let r = report(&o);
    assert_eq!((r["compared"].as_u64(), r["matched"].as_u64()), (Some(200), Some(200)));
    assert_eq!(
        r["reach"],
        serde_json::json!({"asked": 200, "domain": "200", "exhaustive": true, "refused": 0, "sample": null})
    );
    let t =
        text(&rulec(&["verify", rule, "--exhaustive", "--adapter", "python3", right.to_str().unwrap()], &[]).stdout);
    assert_eq!(
        t.lines().nth(2),
        Some("Reach: exhaustive, asked all 200 inputs of the 200 points of the declared domain")
    );
    // Off at one count the default set does not ask: the walk finds it, and names it as smallest.
    let wrong = tiny_legacy(dir.path(), 37);
    assert_eq!(run(&[], &wrong).status.code(), Some(0));
    let r = report(&run(&["--exhaustive"], &wrong));
    assert_eq!(r["compared"].as_u64().unwrap() - r["matched"].as_u64().unwrap(), 2);
    let smallest: Vec<&Json> = r["clusters"].as_array().unwrap().iter().map(|c| &c["smallest"]["in"]).collect();
    assert!(smallest.contains(&&serde_json::json!({"count": 37, "member": false})), "{r}");
    // A domain past the bound is refused before the adapter starts, naming its size.
    let wide = dir.path().join("wide.rule");
    std::fs::write(&wide, TINY.replace("0..99", "0..9999999")).unwrap();
    let o = rulec(
        &["verify", wide.to_str().unwrap(), "--exhaustive", "--adapter", "python3", right.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("at most 1000000 points, and the declared domain holds 20000000"), "{err}");
}
