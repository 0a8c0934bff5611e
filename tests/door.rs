//! The plan is derived from the reference evaluator, and held to it here: on every vector of
//! every rule, and on calls built to break the door in each way it can be broken, the plan
//! run as it stands (`gen::tree::interp`) says what `rulec eval` says, byte for byte — the
//! door's order and sentences, the values, the trace, the refusals.

mod common;
use common::rules;
use rulec::gen::tree::interp;
use serde_json::{json, Value as Json};

/// Calls that break the door of `call` (one vector's `in`) in every way one input can, and
/// as a whole.
fn broken(call: &serde_json::Map<String, Json>) -> Vec<String> {
    let mut out = vec![
        "[]".to_string(),
        "\"text\"".into(),
        "not json".into(),
        "{\"a\":\"\\ud800\"}".into(),
        "{}".into(),
        "null".into(),
    ];
    let bad = [
        Json::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1000.0),
        serde_json::from_str::<Json>("1e3").unwrap(),
        serde_json::from_str::<Json>("-0.0").unwrap(),
        serde_json::from_str::<Json>("99999999999999999999999").unwrap(),
        serde_json::from_str::<Json>("1e400").unwrap(),
        json!(i64::MAX),
        json!(i64::MIN),
        json!("1000"),
        json!("2026-02-30"),
        json!("2026-03-31"),
        json!("gold"),
        json!([]),
        json!({}),
    ];
    for key in call.keys() {
        let mut without = call.clone();
        without.remove(key);
        out.push(Json::Object(without).to_string());
        for b in &bad {
            let mut c = call.clone();
            c.insert(key.clone(), b.clone());
            out.push(Json::Object(c).to_string());
        }
    }
    let mut extra = call.clone();
    extra.insert("not_an_input".into(), json!(1));
    out.push(Json::Object(extra.clone()).to_string());
    out.push(json!({"in": Json::Object(extra)}).to_string());
    out
}

#[test]
fn the_plan_says_what_the_reference_says() {
    let mut lines = 0;
    for path in rules() {
        let mut sources = rulec::Sources::new();
        let checked = rulec::check_path(&mut sources, &path, &Default::default()).unwrap();
        let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else { continue };
        let p = checked.program.as_ref().unwrap();
        let suite = rulec::vectors::build(p);
        for (i, v) in suite.vectors.iter().enumerate() {
            let line = v.line(p);
            let top: Json = serde_json::from_str(&line).unwrap();
            let mut cases = vec![line.clone()];
            // Every vector as it is; the first few broken in every way.
            if i < 4 {
                cases.extend(broken(top["in"].as_object().unwrap()));
            }
            for case in cases {
                let want = rulec::eval::answer(p, &case, "");
                let got = interp::line(&unit.plan, &case);
                assert_eq!(got, want, "{}: {case}", path.display());
                lines += 1;
            }
        }
    }
    assert!(lines > 5_000, "only {lines} calls were compared");
}
