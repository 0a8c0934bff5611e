//! The same bad inputs give the same sentence from every generated language and from the
//! reference evaluator: the refusal cases are in the vectors, each language's runner is
//! held to the expected file byte for byte, and this test names the cases it relies on.

mod common;
use common::*;
use std::path::Path;

#[test]
fn every_language_refuses_bad_inputs_with_the_reference_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(format!("{ROOT}/tests/corpus/single_coupon.rule"), d.join("single_coupon.rule")).unwrap();
    let out = rulec(&["gen", "single_coupon.rule", "--out", "generated", "--lock", "rulec.lock"], d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // The cases, and the reference's sentence for each.
    let vectors = std::fs::read_to_string(d.join("generated/vectors/single_coupon.jsonl")).unwrap();
    let expected = std::fs::read_to_string(d.join("generated/vectors/single_coupon.expected.jsonl")).unwrap();
    let pairs: Vec<(&str, &str)> = vectors.lines().zip(expected.lines()).collect();
    let sentence_for = |why: &str| -> String {
        let (_, e) = pairs
            .iter()
            .find(|(v, _)| v.contains(&format!("\"why\":\"{why}\"")))
            .unwrap_or_else(|| panic!("no case `{why}`"));
        serde_json::from_str::<serde_json::Value>(e).unwrap()["error"].as_str().unwrap().to_string()
    };
    let cases = [
        ("refused: subtotal missing", "subtotal is missing"),
        ("refused: subtotal null", "subtotal is missing"),
        ("refused: subtotal = 1000.5", "subtotal is not an integer"),
        ("refused: subtotal = \\\"1000\\\"", "subtotal is not an integer"),
        ("refused: dup = \\\"false\\\"", "dup is not a boolean"),
        ("refused: dup = 0", "dup is not a boolean"),
        ("refused: subtotal above its range", "subtotal is out of range"),
        ("refused: rate below its range", "rate is out of range"),
        ("refused: kind = \\\"no such value\\\"", "kind is not a value of enum coupon_kind"),
        ("refused: the constraint applied <= subtotal broken", "the constraint does not hold: applied <= subtotal"),
        ("refused: a key that is not an input", "not_an_input is not an input"),
    ];
    for (why, want) in cases {
        assert_eq!(sentence_for(why), want, "{why}");
    }

    // Every language answers every line as the reference does (values, traces, refusals).
    let report = test_json(&d.join("generated"), "");
    assert_green(&report);
    let skipped = report["skipped"].as_array().unwrap();
    let results = report["results"].as_array().unwrap();
    let langs: std::collections::BTreeSet<&str> = results.iter().map(|r| r["lang"].as_str().unwrap()).collect();
    assert!(langs.len() + skipped.len() >= 8, "{langs:?} {skipped:?}");
    // The Wasm module and the Rust runner under WASI answered every line too, wherever they can run.
    for (lang, via) in [("wasm", "runner"), ("rust", "wasi")] {
        let ran = results.iter().any(|r| r["lang"] == lang && r["via"] == via);
        let not_run = skipped.iter().any(|s| s["lang"] == lang && s["via"] == via);
        assert!(ran || (not_run && std::env::var_os("CI").is_none()), "{lang} through {via}: {report}");
    }
}

/// Wasm refuses through its answer: the cases above, each called through the module as a
/// host calls it, answer the refusal line the reference writes, with its sentence.
#[test]
fn wasm_refuses_bad_inputs_with_the_reference_sentence() {
    if !wasm_toolchain("wasm_refuses_bad_inputs_with_the_reference_sentence", "wasm32-unknown-unknown") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = Path::new(ROOT).join("tests/corpus/single_coupon.rule");
    generate(std::slice::from_ref(&rule), "wasm", dir.path());
    let wasm = dir.path().join("wasm");
    run_line(api(&rule, "wasm")["build"].as_str().unwrap(), &[], &wasm);
    let call = |fields: &str| format!(r#"{{"applied":0,"kind":"percent","rate":10,"face":0,"dup":false{fields}}}"#);
    let cases = [
        (call(""), "subtotal is missing"),
        (call(r#","subtotal":null"#), "subtotal is missing"),
        (call(r#","subtotal":1000.5"#), "subtotal is not an integer"),
        (call(r#","subtotal":"1000""#), "subtotal is not an integer"),
        (call(r#","subtotal":1000,"dup":"false""#), "dup is not a boolean"),
        (call(r#","subtotal":1000,"dup":0"#), "dup is not a boolean"),
        (call(r#","subtotal":1000001"#), "subtotal is out of range"),
        (call(r#","subtotal":1000,"rate":-1"#), "rate is out of range"),
        (call(r#","subtotal":1000,"kind":"no such value""#), "kind is not a value of enum coupon_kind"),
        (call(r#","subtotal":1000,"applied":2000"#), "the constraint does not hold: applied <= subtotal"),
        (call(r#","subtotal":1000,"not_an_input":1"#), "not_an_input is not an input"),
    ];
    let p = program(&rule);
    let input: String = cases.iter().map(|(c, _)| format!("{c}\n")).collect();
    let got = feed("node", &["single_coupon_runner.mjs"], &wasm, input.as_bytes());
    assert_eq!(got.lines().count(), cases.len(), "{got}");
    for ((c, want), line) in cases.iter().zip(got.lines()) {
        assert_eq!(line, reference(&p, c), "{c}");
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!((v["refused"].as_str(), v["error"].as_str()), (Some("input"), Some(*want)), "{c}");
    }
}
