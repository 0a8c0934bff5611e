//! The two answers of `rulec diff` held against each other (formats.md "diff with no
//! records: the region"). For every corpus rule and every kind of planted edit it has room
//! for — one result cell, one rounding mode, one boundary moved by one unit — the edit is
//! found by replay, by diff over records and by the region diff; every record whose answer
//! moves lies inside one of the region's boxes; and every box has a witness inside it whose
//! answers really differ between the two versions' reference evaluators.

use rulec::eval::{self, wire};
use rulec::production::region::{self, Region};
use rulec::production::values::Plain;
use rulec::sema::Program;
use rulec::vectors::Answer;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::process::{Command, Output};

mod common;
use common::rulec;
use common::{program, random_call, Lcg};

type Edit = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// (rule, kind, the substitutions that make the edit). A rule with no rounding, or with no
/// number on a condition column, has no edit of that kind.
const EDITS: &[Edit] = &[
    (
        "consumption_tax",
        "cell",
        &[("| food      | true        | 8%       |", "| food      | true        | 9%       |")],
    ),
    ("consumption_tax", "rounding", &[("round down(1JPY)", "round up(1JPY)")]),
    ("late_fee", "cell", &[("| on_time | 0JPY ", "| on_time | 1JPY ")]),
    ("late_fee", "rounding", &[("round ceiling(1JPY)", "round floor(1JPY)")]),
    (
        "late_fee",
        "boundary",
        &[
            ("| >=1 <=30  | short   |", "| >=1 <=31  | short   |"),
            ("| >30       | long    |", "| >31       | long    |"),
        ],
    ),
    ("loyalty_points", "cell", &[("| silver   | -       | 2          |", "| silver   | -       | 3          |")]),
    ("loyalty_points", "rounding", &[("round(spend / 100USDc, down, 1)", "round(spend / 100USDc, up, 1)")]),
    ("loyalty_points", "boundary", &[("visits >= 12", "visits >= 13")]),
    ("member_discount", "cell", &[("| silver  | -        | 2.5% |", "| silver  | -        | 3%   |")]),
    ("member_discount", "rounding", &[("round half_even(10JPY)", "round half_up(10JPY)")]),
    ("member_shipping_fee", "cell", &[("| near | <=2kg   | 800JPY   |", "| near | <=2kg   | 801JPY   |")]),
    (
        "member_shipping_fee",
        "boundary",
        &[
            ("| near | <=2kg   | 800JPY   |", "| near | <=2001g | 800JPY   |"),
            ("| near | >2kg    | 1200JPY  |", "| near | >2001g  | 1200JPY  |"),
        ],
    ),
    ("parcel_rate", "cell", &[("| domestic | medium | 12USD |", "| domestic | medium | 13USD |")]),
    ("parcel_rate", "rounding", &[("round(base * fuel_pct, up, 1USD)", "round(base * fuel_pct, down, 1USD)")]),
    (
        "parcel_rate",
        "boundary",
        &[
            ("| <=60in | <=10lb | small  |", "| <=61in | <=10lb | small  |"),
            ("| <=60in | >10lb  | medium |", "| <=61in | >10lb  | medium |"),
            ("| >60in  | -      | large  |", "| >61in  | -      | large  |"),
        ],
    ),
    ("shipping_zone", "cell", &[("| domestic | true   | 500JPY    |", "| domestic | true   | 501JPY    |")]),
    (
        "single_coupon",
        "cell",
        &[("| true  | free_ship | 0JPY             |", "| true  | free_ship | 1JPY             |")],
    ),
    ("single_coupon", "rounding", &[("round down(1JPY)", "round up(1JPY)")]),
    (
        "single_coupon",
        "boundary",
        &[
            ("| false | <1000JPY   | false |", "| false | <1001JPY   | false |"),
            ("| false | >=1000JPY  | true  |", "| false | >=1001JPY  | true  |"),
        ],
    ),
    (
        "ticket_price",
        "cell",
        &[(
            "| <=17 | -                         | -      | 800JPY  |",
            "| <=17 | -                         | -      | 801JPY  |",
        )],
    ),
    ("ticket_price", "boundary", &[("| <=5  |", "| <=6  |")]),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn json_of(o: &Output) -> Json {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!("no JSON ({e}): {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    })
}

/// The corpus, copied (the enums file under shared/ comes along), with the edit beside it.
fn workspace(rule: &str, subs: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = root().join("tests/corpus");
    std::fs::create_dir_all(dir.path().join("shared")).unwrap();
    std::fs::copy(corpus.join("shared/tiers.rule"), dir.path().join("shared/tiers.rule")).unwrap();
    let old = dir.path().join(format!("{rule}.rule"));
    std::fs::copy(corpus.join(format!("{rule}.rule")), &old).unwrap();
    let mut text = std::fs::read_to_string(&old).unwrap();
    for (a, b) in subs {
        assert!(text.contains(a), "{rule}: `{a}` is in the rule");
        text = text.replacen(a, b, 1);
    }
    // The rule's own `expect` lines pin the old answers; the edit is what moves them.
    let text: String = text.lines().filter(|l| !l.starts_with("expect ")).map(|l| format!("{l}\n")).collect();
    let new = dir.path().join(format!("{rule}_edited.rule"));
    std::fs::write(&new, text).unwrap();
    (dir, old, new)
}

/// The answer of `p` to a call in the new version's wire form, by name (`None` when its door
/// refuses it or it has no answer).
fn answer(p: &Program, call: &Json) -> Option<Vec<(String, Plain)>> {
    let Json::Object(m) = call else { return None };
    let own: serde_json::Map<String, Json> =
        m.iter().filter(|(k, _)| p.var_by_name(k).is_some()).map(|(k, v)| (k.clone(), v.clone())).collect();
    let inputs = wire::read_inputs(p, &Json::Object(own)).ok()?;
    let o = eval::evaluate(p, &inputs).ok()?;
    Some(p.outputs.iter().map(|&v| (p.vars[v].name.clone(), Plain::of(p, &p.vars[v], &o.values[v]))).collect())
}

/// Records the old version wrote: its boundary suite, the new one's, and calls drawn at random.
fn records(old: &Program, new: &Program) -> Vec<Json> {
    let mut calls: Vec<Json> = Vec::new();
    for p in [old, new] {
        let suite = rulec::vectors::build(p).vectors;
        calls.extend(suite.into_iter().filter(|v| matches!(v.answer, Answer::Record { .. })).map(|v| v.input));
    }
    let mut rng = Lcg(0xd1ff ^ old.name.len() as u64);
    calls.extend((0..400).map(|_| random_call(old, &mut rng)));
    calls
        .into_iter()
        .filter_map(|c| {
            let inputs = wire::read_inputs(old, &c).ok()?;
            let o = eval::evaluate(old, &inputs).ok()?;
            Some(serde_json::from_str(&wire::record(old, &inputs, &o, "")).unwrap())
        })
        .collect()
}

/// Whether a call's value of an input column is one of the coordinates `accepts` lists.
fn accepted(accepts: &Json, value: &Json) -> bool {
    accepts.as_array().unwrap().iter().any(|a| match a {
        Json::Null => value.is_null(),
        Json::String(w) => match value {
            Json::String(v) => v == w,
            Json::Bool(b) => w == if *b { "true" } else { "false" },
            _ => false,
        },
        Json::Object(m) => {
            let v = match value {
                Json::String(s) => rulec::num::date::parse(s).map(rulec::num::int),
                Json::Number(n) => wire::json_number(n),
                _ => None,
            };
            let Some(v) = v else { return false };
            let end = |k: &str| {
                m.get(k).map(|e| {
                    let t = e.as_str().unwrap();
                    rulec::num::date::parse(t).map(rulec::num::int).or_else(|| rulec::num::parse_decimal(t)).unwrap()
                })
            };
            end("from").is_none_or(|f| v >= f) && end("to").is_none_or(|t| v <= t)
        }
        _ => false,
    })
}

#[test]
fn every_planted_edit_is_found_three_ways_and_the_answers_agree() {
    for &(rule, kind, subs) in EDITS {
        let at = format!("{rule} ({kind})");
        let (dir, old_path, new_path) = workspace(rule, subs);
        let (old, new) = (program(&old_path), program(&new_path));
        let recs = records(&old, &new);
        let file = dir.path().join("records.jsonl");
        std::fs::write(&file, recs.iter().map(|r| format!("{r}\n")).collect::<String>()).unwrap();
        let (os, ns, fs) = (old_path.to_str().unwrap(), new_path.to_str().unwrap(), file.to_str().unwrap());
        let moving: Vec<usize> = recs
            .iter()
            .enumerate()
            .filter(|(_, r)| answer(&old, &r["in"]) != answer(&new, &r["in"]))
            .map(|(i, _)| i + 1)
            .collect();
        assert!(!moving.is_empty(), "{at}: the records reach the edit");

        // Replay: the new version against what the old one answered.
        let rep = json_of(&rulec(&["replay", ns, "--fixtures", fs, "--format", "json"], dir.path()));
        assert_eq!(
            rep["compared"].as_u64().unwrap() - rep["matched"].as_u64().unwrap(),
            moving.len() as u64,
            "{at}: {rep}"
        );

        // Diff over the records: the same records, keyed by row transitions.
        let o = rulec(&["diff", os, ns, "--fixtures", fs, "--format", "json"], dir.path());
        assert_eq!(o.status.code(), Some(1), "{at}");
        let d = json_of(&o);
        let mut lines: Vec<usize> = Vec::new();
        for c in d["clusters"].as_array().unwrap() {
            assert!(
                c["rows"].as_array().unwrap().iter().all(|r| r.get("from").is_some() && r.get("to").is_some()),
                "{at}: {c}"
            );
            lines.extend(c["records"].as_array().unwrap().iter().map(|r| r["line"].as_u64().unwrap() as usize));
        }
        lines.sort();
        assert_eq!(lines, moving, "{at}: diff --fixtures lists exactly the records that move");

        // The region: found, settled, and every moving record inside a box.
        let o = rulec(&["diff", os, ns, "--format", "json"], dir.path());
        assert_eq!(o.status.code(), Some(1), "{at}");
        let reg = json_of(&o);
        let changes = reg["changes"].as_array().unwrap();
        assert!(!changes.is_empty(), "{at}: the region diff finds the edit: {reg}");
        assert_eq!(reg["total"], true, "{at}: every cell is settled: {reg}");
        assert_eq!(
            reg["differing"].as_u64().unwrap() + reg["same"].as_u64().unwrap(),
            reg["feasible"].as_u64().unwrap()
        );
        let region: Region = region::region(&old, &new, os, ns, &region::Options::default()).unwrap();
        assert_eq!(region.to_json(), reg, "{at}: the library and the command give one answer");
        for &line in &moving {
            let call = &recs[line - 1]["in"];
            let i = region
                .locate(call)
                .unwrap_or_else(|| panic!("{at}: record {line} {call} moves outside every box: {reg}"));
            // The box says so in its own coordinates, for every input column it names.
            for col in changes[i]["region"].as_array().unwrap() {
                if col["kind"] == "input" {
                    let v = &call[col["column"].as_str().unwrap()];
                    assert!(accepted(&col["accepts"], v), "{at}: record {line}: {v} not in {col}");
                }
            }
        }
        // No box without a move: the witness of each is inside it, and its answers differ.
        for (i, c) in changes.iter().enumerate() {
            let w = region.witness_json(i);
            assert_eq!(region.locate(&w).map(|j| changes[j]["text"].clone()), Some(c["text"].clone()), "{at}: {c}");
            let (a, b) = (answer(&old, &w).unwrap(), answer(&new, &w).unwrap());
            assert_ne!(a, b, "{at}: the witness of {c} moves");
            for o in c["outputs"].as_array().unwrap() {
                let name = o["output"].as_str().unwrap();
                let get = |xs: &[(String, Plain)], p: &Program| {
                    let (_, x) = xs.iter().find(|(n, _)| n == name).unwrap();
                    x.wire_text(&p.vars[p.var_by_name(name).unwrap()])
                };
                assert_eq!(
                    (o["old"].as_str().unwrap(), o["new"].as_str().unwrap()),
                    (get(&a, &old).as_str(), get(&b, &new).as_str()),
                    "{at}"
                );
            }
        }
    }
}

#[test]
fn the_region_reads_as_a_reviewer_reads_it() {
    let edit = EDITS.iter().find(|e| e.0 == "parcel_rate" && e.1 == "cell").unwrap();
    let (dir, _, _) = workspace(edit.0, edit.2);
    let o = rulec(&["diff", "parcel_rate.rule", "parcel_rate_edited.rule"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8(o.stdout).unwrap();
    insta::assert_snapshot!(text);
    assert!(text.contains(
        "signature = false  and  dest = domestic  and  girth >=1in <=60in  and  weight >=11lb <=70lb: fee 14USD → 15USD"
    ));
    let o = rulec(&["diff", "parcel_rate.rule", "parcel_rate_edited.rule", "--format", "json"], dir.path());
    insta::assert_snapshot!(serde_json::to_string_pretty(&json_of(&o)).unwrap());
    // The same file twice: nothing differs, exit 0.
    let o = rulec(&["diff", "parcel_rate.rule", "parcel_rate.rule", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    let r = json_of(&o);
    assert_eq!(r["changes"], json!([]));
    assert_eq!(r["same"], r["feasible"]);
}

#[test]
fn diff_reads_git_revisions_and_stops_at_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let o = Command::new("git").args(args).current_dir(dir.path()).output().expect("git runs");
        assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    };
    let rules = dir.path().join("rules");
    std::fs::create_dir_all(rules.join("shared")).unwrap();
    std::fs::copy(root().join("tests/corpus/member_discount.rule"), rules.join("member_discount.rule")).unwrap();
    std::fs::copy(root().join("tests/corpus/shared/tiers.rule"), rules.join("shared/tiers.rule")).unwrap();
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v2"]);
    let edit = EDITS.iter().find(|e| e.0 == "member_discount" && e.1 == "cell").unwrap();
    let text =
        std::fs::read_to_string(rules.join("member_discount.rule")).unwrap().replacen(edit.2[0].0, edit.2[0].1, 1);
    let text: String = text.lines().filter(|l| !l.starts_with("expect ")).map(|l| format!("{l}\n")).collect();
    std::fs::write(rules.join("member_discount.rule"), text).unwrap();
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "silver at 3%"]);
    // The previous commit against the last one, both read with `git show` (the enums file too).
    let o = rulec(
        &["diff", "rules/member_discount.rule@HEAD~1", "rules/member_discount.rule@HEAD", "--format", "json"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let r = json_of(&o);
    assert_eq!(r["old"], "rules/member_discount.rule@HEAD~1");
    assert!(
        r["changes"].as_array().unwrap().iter().all(|c| c["text"].as_str().unwrap().contains("tier = silver")),
        "{r}"
    );
    assert!(!r["changes"].as_array().unwrap().is_empty());
    // With a budget too small for the cover tree: over budget, nothing claimed.
    let o = rulec(
        &[
            "diff",
            "rules/member_discount.rule@HEAD~1",
            "rules/member_discount.rule",
            "--budget",
            "1",
            "--format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    let r = json_of(&o);
    assert_eq!((r["over_budget"].as_bool(), r["total"].as_bool()), (Some(true), Some(false)));
    assert_eq!(r["changes"], json!([]));
    // A revision that does not exist is an argument error.
    let o = rulec(&["diff", "rules/member_discount.rule@nope", "rules/member_discount.rule"], dir.path());
    assert_eq!(o.status.code(), Some(2));
}
