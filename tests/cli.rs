//! The command line as a user meets it: real files, the text and JSON it prints, exit codes.

mod common;
use common::at_root as rulec;

use std::process::Output;

fn rulec_stdin(args: &[&str], input: &str) -> Output {
    common::with_stdin(args, std::path::Path::new(common::ROOT), input.as_bytes())
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn check_renders_like_rustc() {
    let out = rulec(&["check", "--color", "never", "tests/corpus/broken/literal.rule"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!(text(&out.stderr));
}

#[test]
fn check_json_is_the_v2_shape() {
    let out = rulec(&["check", "--format", "json", "tests/corpus/broken/literal.rule"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one object per diagnostic, one per line");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    for key in [
        "v", "severity", "code", "file", "line", "column", "title", "notes", "where", "spans", "witness", "rows",
        "fix", "key",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["v"], 2);
    assert_eq!(v["fix"]["kind"], "rewrite_literal");
    assert_eq!(v["fix"]["text"], "1000JPY");
    insta::assert_snapshot!(stdout);
}

#[test]
fn the_key_does_not_move_with_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let src =
        std::fs::read_to_string(format!("{}/tests/corpus/broken/literal.rule", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let a = dir.path().join("a.rule");
    std::fs::write(&a, &src).unwrap();
    let key = |out: Output| -> String {
        let v: serde_json::Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
        v["key"].as_str().unwrap().to_string()
    };
    let k1 = key(rulec(&["check", "--format", "json", a.to_str().unwrap()]));
    std::fs::write(&a, format!("# a comment moves everything down\n\n{src}")).unwrap();
    let k2 = key(rulec(&["check", "--format", "json", a.to_str().unwrap()]));
    assert_eq!(k1, k2);
}

#[test]
fn clean_rules_exit_zero() {
    let out =
        rulec(&["check", "tests/corpus/parcel_rate.rule", "tests/corpus/member_discount.rule", "tests/corpus/shared"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "checked 3 files: clean\n");
    let json = rulec(&["check", "--format", "json", "tests/corpus/late_fee.rule"]);
    assert_eq!(json.status.code(), Some(0));
    assert!(json.stdout.is_empty());
}

#[test]
fn bad_arguments_exit_two() {
    assert_eq!(rulec(&["check", "no/such/file.rule"]).status.code(), Some(2));
    assert_eq!(rulec(&["explain", "E999"]).status.code(), Some(2));
    assert_eq!(rulec(&["frobnicate"]).status.code(), Some(2));
    let bad_json = rulec(&["eval", "tests/corpus/parcel_rate.rule", "--in", "{not json"]);
    assert_eq!(bad_json.status.code(), Some(2));
}

#[test]
fn eval_prints_records_and_refusals() {
    let calls = concat!(
        r#"{"weight":5,"girth":40,"dest":"canada","signature":false}"#,
        "\n",
        r#"{"weight":71,"girth":40,"dest":"canada","signature":false}"#,
        "\n",
        r#"{"weight":11,"girth":61,"dest":"domestic","signature":true}"#,
        "\n"
    );
    let out = rulec_stdin(&["eval", "tests/corpus/parcel_rate.rule", "--in", "-"], calls);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(text(&out.stdout), @r###"
    {"in":{"weight":5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}
    {"refused":"input","error":"weight is out of range"}
    {"in":{"weight":11,"girth":61,"dest":"domestic","signature":true},"observed":{"fee":24},"trace":[{"table":"size_of","row":3},{"table":"base_rate","row":3},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":1}]}
    "###);
}

#[test]
fn eval_with_a_tag_and_one_object() {
    let out = rulec(&[
        "eval",
        "tests/corpus/member_discount.rule",
        "--tag",
        "order:7",
        "--in",
        r#"{"tier":"gold","channel":"web","subtotal":10100,"coupon":"ten_off"}"#,
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "{\"tag\":\"order:7\",\"in\":{\"tier\":\"gold\",\"channel\":\"web\",\"subtotal\":10100,\"coupon\":\"ten_off\"},\
         \"observed\":{\"pct\":15,\"discount\":1260,\"note\":\"web bonus\"},\"trace\":[{\"table\":\"pct_of\",\"row\":2},{\"table\":\"coupon_of\",\"row\":2}]}\n"
    );
}

#[test]
fn eval_refuses_a_rule_that_does_not_check() {
    let out = rulec(&["eval", "tests/corpus/broken/unit_mismatch.rule", "--in", "{}"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("E060"));
}

#[test]
fn explain_text_and_json() {
    let out = rulec(&["explain", "e049"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("E049: "));
    let json = rulec(&["explain", "E049", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(v["code"], "E049");
    assert_eq!(v["lang"], "en");
    let all = rulec(&["explain", "--all", "--format", "json"]);
    assert!(text(&all.stdout).lines().count() >= 1);
}

#[test]
fn fmt_check_reports_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("r.rule");
    let messy = "rule r v1\noutput y: int 0..10\ninput x: int 0..10\ndefine y = min(x,  10)\n";
    std::fs::write(&f, messy).unwrap();
    let out = rulec(&["fmt", "--check", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["unformatted"].as_array().unwrap().len(), 1);
    assert_eq!(v["formatted"].as_array().unwrap().len(), 0);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), messy);
    let out = rulec(&["fmt", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        "rule r v1\n\ninput x: int 0..10\n\noutput y: int 0..10\n\ndefine y = min(x, 10)\n"
    );
    let out = rulec(&["fmt", "--check", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).trim(), r#"{"unformatted":[],"formatted":[]}"#);
}

#[test]
fn check_sarif_is_one_run_with_stable_fingerprints() {
    let dir = tempfile::tempdir().unwrap();
    let src =
        std::fs::read_to_string(format!("{}/tests/corpus/broken/literal.rule", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let a = dir.path().join("a.rule");
    let sarif = |text: &str| -> serde_json::Value {
        std::fs::write(&a, text).unwrap();
        let out = rulec(&["check", "--format", "sarif", a.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = sarif(&src);
    assert_eq!(v["version"], "2.1.0");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["tool"]["driver"]["name"], "rulec");
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "E049");
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "E049");
    assert_eq!(result["ruleIndex"], 0);
    assert_eq!(result["level"], "error");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(8), Some(4)));
    assert_eq!(result["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"], "1000JPY");
    let fingerprint = result["partialFingerprints"]["rulecFindingId/v1"].clone();
    assert!(fingerprint.is_string());
    // Two lines inserted above: the location moves, the fingerprint does not.
    let moved = sarif(&format!("# one\n# two\n{src}"));
    let moved_result = &moved["runs"][0]["results"][0];
    assert_eq!(moved_result["locations"][0]["physicalLocation"]["region"]["startLine"], 10);
    assert_eq!(moved_result["partialFingerprints"]["rulecFindingId/v1"], fingerprint);
}

/// Every file under `dir` with its bytes, by path.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// `gen` works on the rules side by side: the files and the lock are the same bytes whatever
/// order the rules are named in (and so whichever thread finishes first).
#[test]
fn gen_writes_the_same_bytes_whatever_the_order_of_the_rules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut rules: Vec<String> = ["tests/corpus", "tests/rules"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .map(|p| p.display().to_string())
        .collect();
    rules.sort();
    let dir = tempfile::tempdir().unwrap();
    let mut trees = Vec::new();
    for (name, order) in [("forward", rules.clone()), ("backward", rules.iter().rev().cloned().collect())] {
        let out = dir.path().join(name);
        let lock = out.join("rulec.lock");
        let mut args = vec!["gen".to_string()];
        args.extend(order);
        args.extend(["--out".into(), out.display().to_string(), "--lock".into(), lock.display().to_string()]);
        let o = rulec(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", text(&o.stderr));
        trees.push(files_under(&out));
    }
    assert!(trees[0].len() > rules.len() * 10, "every language of every rule: {}", trees[0].len());
    assert!(trees[0] == trees[1], "the two orders wrote different files");
}

/// docs/reference.md §9 lists every command `rulec --help` lists: a command added to the CLI
/// and not to the reference fails here.
#[test]
fn the_reference_lists_every_command() {
    let help = text(&rulec(&["--help"]).stdout);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 10, "{help}");
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md")).unwrap();
    let section = reference.split("## 9. The commands").nth(1).and_then(|s| s.split("\n## ").next()).unwrap();
    let missing: Vec<&&str> = commands
        .iter()
        .filter(|c| !section.contains(&format!("| `rulec {c} ")) && !section.contains(&format!("| `rulec {c}`")))
        .collect();
    assert!(missing.is_empty(), "docs/reference.md §9 lacks {missing:?}");
}

/// formats.md `api`: `machine` is at the top level, null for a rule that is no step of a
/// state machine — present, so that a caller tells "none" from "not said".
#[test]
fn api_says_machine_null() {
    let o = rulec(&["api", "tests/corpus/single_coupon.rule"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let api: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(api.get("machine"), Some(&serde_json::Value::Null), "{api}");
}

/// `rulec coverage`'s `refused` counts every vector the reference refuses, as `rulec test`
/// does on the same suite: the lines of `rulec vectors` that carry `refused`.
#[test]
fn coverage_counts_the_refusals_the_vectors_hold() {
    let rule = "tests/corpus/parcel_rate.rule";
    let vectors = text(&rulec(&["vectors", rule]).stdout);
    let refused = vectors.lines().filter(|l| l.contains("\"refused\":")).count();
    assert!(refused > 0, "{vectors}");
    let o = rulec(&["coverage", rule, "--format", "json"]);
    let cov: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stdout)));
    assert_eq!(cov["refused"], refused, "{cov}");
}

/// formats.md `api`: every language with functions to call says which of its errors the
/// entry guard raises (input) and which the guard below (contradiction), each one of the
/// errors it names to catch, with the fields to read.
#[test]
fn api_says_which_error_each_guard_raises() {
    let o = rulec(&["api", "tests/corpus/single_coupon.rule"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let api: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let langs = ["python", "typescript", "javascript", "rust", "go", "java", "ruby", "php", "swift", "numpy"];
    for lang in langs {
        let entry = &api[lang];
        let types = &entry["error_types"];
        for kind in ["input", "contradiction"] {
            let t = &types[kind];
            let name = t["name"].as_str().unwrap_or_else(|| panic!("{lang}: no error_types.{kind}: {entry}"));
            let caught = entry["errors"].as_array().unwrap().iter().any(|e| e == name || e["name"] == name);
            assert!(caught, "{lang}: {name} is not among errors");
            let fields = t["fields"].as_array().unwrap();
            assert!(fields.iter().any(|f| f.as_str().unwrap().to_lowercase().starts_with("what")), "{lang}: {t}");
        }
    }
    assert_eq!(
        api["php"]["error_types"]["input"],
        serde_json::json!({"name": "RuleInputError", "fields": ["what", "refused"]})
    );
}

/// `rulec check` on `file`: its JSON lines, and its SARIF run's one fix applied to `source`.
fn check_and_fix(file: &std::path::Path, source: &str) -> (Vec<serde_json::Value>, String) {
    let f = file.to_str().unwrap();
    let json = rulec(&["check", f, "--format", "json"]);
    assert_eq!(json.status.code(), Some(1), "{}", text(&json.stderr));
    let lines: Vec<serde_json::Value> = text(&json.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sarif: serde_json::Value = serde_json::from_slice(&rulec(&["check", f, "--format", "sarif"]).stdout).unwrap();
    let fixes = &sarif["runs"][0]["results"][0]["fixes"];
    let edit = &fixes[0]["artifactChanges"][0]["replacements"][0];
    let (at, len) = (edit["deletedRegion"]["charOffset"].as_u64(), edit["deletedRegion"]["charLength"].as_u64());
    let (at, len) = (at.unwrap() as usize, len.unwrap() as usize);
    let chars: Vec<char> = source.chars().collect();
    let inserted = edit["insertedContent"]["text"].as_str().unwrap();
    let fixed: String =
        chars[..at].iter().chain(inserted.chars().collect::<Vec<_>>().iter()).chain(&chars[at + len..]).collect();
    (lines, fixed)
}

/// formats.md `fix`: E111 carries add_expected — the expect's value replaced by what the
/// rule computes — and an overlap of two rows at one cut carries flip_bound — `>=X` written
/// `>X` in the row that does not keep the cut. Each edit, applied, leaves a clean rule.
#[test]
fn add_expected_and_flip_bound_are_fixes_that_remove_their_code() {
    let dir = tempfile::tempdir().unwrap();
    let explained = rulec(&["explain", "E111", "--format", "json"]);
    let example: serde_json::Value = serde_json::from_slice(&explained.stdout).unwrap();
    let e111 = example["example"].as_str().unwrap().to_string();
    let overlap = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/broken/overlap.rule"));
    let cases = [
        ("expect.rule", e111, "E111", "add_expected", "10USD", "expect weight=50lb -> fee=10USD"),
        ("overlap.rule", overlap.unwrap(), "E102", "flip_bound", ">10lb <=30lb", "| >10lb <=30lb | 2    |"),
    ];
    for (name, source, code, kind, fix_text, line) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, &source).unwrap();
        let (lines, fixed) = check_and_fix(&file, &source);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0]["code"], code);
        assert_eq!(lines[0]["fix"], serde_json::json!({"kind": kind, "text": fix_text}), "{name}");
        assert!(fixed.contains(line), "{name}:\n{fixed}");
        std::fs::write(&file, &fixed).unwrap();
        let again = rulec(&["check", file.to_str().unwrap()]);
        assert_eq!(again.status.code(), Some(0), "{name} fixed:\n{fixed}\n{}", text(&again.stderr));
    }
}

/// A table with two gaps apart — overseas/small and local/large — under `policy`.
fn two_gaps(policy: &str) -> String {
    format!(
        "rule two_gaps v1

enum zone: domestic, overseas, local
enum size_class: small, large

input dest: zone
input size: size_class

output fee: money[USD] 0USD..100USD

table base_rate {policy} -> fee
| dest     | size  | fee   |
|----------|-------|-------|
| domestic | -     | 8USD  |
| overseas | large | 45USD |
| local    | small | 5USD  |
"
    )
}

/// formats.md `fix`: the gap (E101) of a `first` table carries mark_default — one last row
/// of `-` cells, DMN's default — which closes every gap of the table at once, where add_row
/// would close one of the two.
#[test]
fn a_gap_in_a_first_table_is_fixed_by_mark_default_which_closes_every_gap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two_gaps.rule");
    let source = two_gaps("first");
    std::fs::write(&file, &source).unwrap();
    let (lines, fixed) = check_and_fix(&file, &source);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["code"], "E101");
    let notes = lines[0]["notes"].to_string();
    assert!(notes.contains("1 more part of the input space matches no row either"), "{notes}");
    assert_eq!(lines[0]["fix"], serde_json::json!({"kind": "mark_default", "text": "| - | - | 0USD |\n"}));
    assert!(fixed.ends_with("| local    | small | 5USD  |\n| - | - | 0USD |\n"), "{fixed}");
    std::fs::write(&file, &fixed).unwrap();
    let again = rulec(&["check", file.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "fixed:\n{fixed}\n{}", text(&again.stderr));
}

/// Under `unique` a catch-all row would meet every row (E102): the gap keeps add_row, the
/// one gap's box.
#[test]
fn a_gap_in_a_unique_table_is_still_fixed_by_add_row() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two_gaps.rule");
    let source = two_gaps("unique");
    std::fs::write(&file, &source).unwrap();
    let (lines, fixed) = check_and_fix(&file, &source);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["code"], "E101");
    assert_eq!(lines[0]["fix"]["kind"], "add_row");
    let row = lines[0]["fix"]["text"].as_str().unwrap();
    assert!(row.contains("overseas") || row.contains("local"), "{row}");
    std::fs::write(&file, &fixed).unwrap();
    let again = rulec(&["check", file.to_str().unwrap(), "--format", "json"]);
    let codes: Vec<String> = text(&again.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes, ["E101"], "one gap is left:\n{fixed}");
}

/// A date input may leave its range out: its vectors then take the days its cells draw
/// (both sides of each) and 1970-01-01, not one value the door refuses.
#[test]
fn a_date_input_without_a_range_gets_vectors_that_reach_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("due.rule");
    std::fs::write(
        &rule,
        "rule due v1\n\ninput day: date\n\noutput late: bool\n\ntable late_of first -> late\n| day | late |\n|---|---|\n| >2026-01-01 | true |\n| - | false |\n",
    )
    .unwrap();
    let vectors = text(&rulec(&["vectors", rule.to_str().unwrap()]).stdout);
    for want in [r#""day":"2026-01-02""#, r#""day":"2026-01-01""#, r#""day":"1970-01-01""#] {
        assert!(vectors.lines().any(|l| l.contains(want) && !l.contains("refused")), "{want} in\n{vectors}");
    }
    for row in ["table late_of row 1", "table late_of row 2"] {
        assert!(vectors.contains(row), "{row} in\n{vectors}");
    }
}
