//! Replay's fast form (`production::fast`, the rule's code plan run as generated code runs
//! it) held to the reference evaluator on every rule of tests/corpus and tests/rules, built
//! from the analysis (as `rulec replay` builds it) and from the program alone: on each
//! boundary vector and on calls drawn from the declared ranges it answers exactly as the
//! reference does, it answers every ordinary record (so a form that handed every record
//! back could not pass), and every record it answers is one the reference's replay matches
//! too — a record whose output or rows are off, or whose call the door refuses, it hands
//! back. `rulec replay` on such records reports what the reference reports.

use rulec::eval::{self, wire};
use rulec::production::fast::Compiled;
use rulec::production::records::{Fills, Reader};
use rulec::production::replay;
use rulec::production::Quiet;
use rulec::sema::{Program, Ty, Value};
use serde_json::{json, Value as Json};

mod common;
use common::{program, random_call, rules, Lcg};

/// The reference's replay of `lines` (named `file`): how many it compared and matched, and
/// the report.
fn reference_replay(p: &Program, file: &str, lines: &str) -> (usize, usize, Json) {
    let fills = Fills::default();
    let reader = Reader { rule: p, written_by: None, fills: &fills, fills_for: None };
    let r = replay::replay_by(&reader, None, file, lines.as_bytes(), &mut Quiet).unwrap();
    (r.compared, r.matched, r.to_json())
}

/// Records that differ from the reference's `record` in one place each: an output one step
/// off (or another truth value, another enum value), one row of the trace another row.
fn perturbed(p: &Program, record: &str) -> Vec<String> {
    let r: Json = serde_json::from_str(record).unwrap();
    let mut out = Vec::new();
    for &o in &p.outputs {
        let name = &p.vars[o].name;
        let mut x = r.clone();
        let other = match &r["observed"][name] {
            Json::Number(n) => json!(n.as_i64().unwrap() + 1),
            Json::Bool(b) => json!(!b),
            Json::Null => json!(0),
            Json::String(s) => match &p.vars[o].ty {
                Ty::Enum(e) => {
                    let names: Vec<&str> = p.enums[*e].values.iter().map(|v| v.name.as_str()).collect();
                    let at = names.iter().position(|n| n == s).unwrap();
                    json!(names[(at + 1) % names.len()])
                }
                _ => json!(format!("{s}x")),
            },
            other => panic!("{}: an output on the wire is not {other}", p.name),
        };
        x["observed"][name] = other;
        out.push(x.to_string());
    }
    for (i, f) in r["trace"].as_array().unwrap().iter().enumerate() {
        let rows = p.tables.iter().find(|t| t.name == f["table"]).unwrap().rows.len() as u64;
        if rows > 1 {
            let mut x = r.clone();
            x["trace"][i]["row"] = json!(f["row"].as_u64().unwrap() % rows + 1);
            out.push(x.to_string());
        }
    }
    out
}

/// Holds one fast form of `p` to the reference on `calls`: the number of records it answered.
fn hold(p: &Program, name: &str, c: &Compiled, calls: &[Json]) -> usize {
    let mut scratch = c.scratch();
    let (mut good, mut all) = (String::new(), String::new());
    let mut answered = 0;
    for call in calls {
        let inputs = match wire::read_inputs(p, call) {
            Ok(inputs) => inputs,
            Err(_) => {
                // A call the door refuses, written as a record: handed back, excluded by the reference.
                let observed: serde_json::Map<String, Json> =
                    p.outputs.iter().map(|&o| (p.vars[o].name.clone(), json!(0))).collect();
                let line = json!({"in": call, "observed": observed}).to_string();
                assert_eq!(c.matches(line.as_bytes(), &mut scratch), None, "{name}: {line}");
                all.push_str(&line);
                all.push('\n');
                continue;
            }
        };
        match eval::evaluate(p, &inputs) {
            Ok(o) => {
                let (outs, trace) = c.evaluate(p, &inputs).unwrap_or_else(|| panic!("{name}: {call} bails"));
                let want: Vec<Value> = o.output_values(p).map(|(_, x)| x.clone()).collect();
                assert_eq!((outs, trace), (want, o.trace.clone()), "{name}: {call}");
                let record = wire::record(p, &inputs, &o, &format!("v{answered}"));
                assert_eq!(c.matches(record.as_bytes(), &mut scratch), Some(true), "{name}: {record} bails");
                answered += 1;
                good.push_str(&record);
                good.push('\n');
                for line in std::iter::once(record).chain(perturbed(p, &wire::record(p, &inputs, &o, ""))) {
                    if c.matches(line.as_bytes(), &mut scratch) == Some(true) {
                        let (compared, matched, _) = reference_replay(p, "f", &line);
                        assert_eq!((compared, matched), (1, 1), "{name}: the fast form answers {line}");
                    }
                    all.push_str(&line);
                    all.push('\n');
                }
            }
            Err(_) => assert!(c.evaluate(p, &inputs).is_none(), "{name}: {call} has no answer"),
        }
    }
    // The whole file, and the ordinary records alone: the report is the reference's.
    let fills = Fills::default();
    let reader = Reader { rule: p, written_by: None, fills: &fills, fills_for: None };
    for lines in [&good, &all] {
        let fast = replay::replay_by(&reader, Some(c), "f", lines.as_bytes(), &mut Quiet).unwrap().to_json();
        assert_eq!(fast, reference_replay(p, "f", lines).2, "{name}");
    }
    let (compared, matched, report) = reference_replay(p, "f", &good);
    assert_eq!((compared, matched), (answered, answered), "{name}: {report}");
    answered
}

#[test]
fn the_fast_form_answers_every_ordinary_record_and_only_as_the_reference_does() {
    let (mut fast_rules, mut records_answered) = (0, 0);
    for rule in rules() {
        let name = rule.display().to_string();
        let mut sources = rulec::Sources::new();
        let checked = rulec::check_path(&mut sources, &rule, &rulec::analysis::Options::default()).unwrap();
        assert!(!checked.has_errors(), "{name} checks clean");
        let (p, analysis) = (checked.program.as_ref().unwrap(), checked.analysis.as_ref().unwrap());
        let mut rng = Lcg(0xfa57 ^ p.name.len() as u64);
        let mut calls: Vec<Json> = rulec::vectors::build(p).vectors.into_iter().map(|v| v.input).collect();
        calls.extend((0..300).map(|_| random_call(p, &mut rng)));
        // From the analysis (the plan `rulec gen` prints, what `rulec replay` runs), and from
        // the program alone (what the library's `replay` runs).
        for c in [Compiled::checked(p, analysis), Compiled::new(p)] {
            let c = c.unwrap_or_else(|| panic!("{name}: no fast form"));
            let answered = hold(p, &name, &c, &calls);
            assert!(answered >= 100, "{name}: {answered} calls answered");
            records_answered += answered;
        }
        fast_rules += 1;
    }
    assert!(fast_rules >= 17, "{fast_rules} rules, each with its fast forms");
    assert!(records_answered > 4000, "{records_answered} records answered");
}

/// `rulec replay` on a file of every kind of record above: its report is the reference's.
#[test]
fn rulec_replay_reports_what_the_reference_reports() {
    let dir = tempfile::tempdir().unwrap();
    for rule in rules() {
        let p = program(&rule);
        let mut rng = Lcg(0x5107 ^ p.name.len() as u64);
        let mut lines = String::new();
        for _ in 0..200 {
            let call = random_call(&p, &mut rng);
            let Ok(inputs) = wire::read_inputs(&p, &call) else { continue };
            let Ok(o) = eval::evaluate(&p, &inputs) else { continue };
            let record = wire::record(&p, &inputs, &o, "");
            for line in std::iter::once(record.clone()).chain(perturbed(&p, &record)) {
                lines.push_str(&line);
                lines.push('\n');
            }
        }
        let file = dir.path().join(format!("{}.jsonl", p.ident()));
        std::fs::write(&file, &lines).unwrap();
        let shown = file.to_str().unwrap();
        let o = common::at_root(&["replay", rule.to_str().unwrap(), "--fixtures", shown, "--format", "json"]);
        let got: Json =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", common::text(&o.stderr)));
        let (compared, matched, want) = reference_replay(&p, shown, &lines);
        assert_eq!(got, want, "{}", rule.display());
        assert!(compared > matched && matched > 0, "{}: {want}", rule.display());
    }
}
