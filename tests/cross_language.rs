//! The same bad inputs give the same sentence from every generated language and from the
//! reference evaluator: the refusal cases are in the vectors, each language's runner is
//! held to the expected file byte for byte, and this test names the cases it relies on.

mod common;
use common::*;

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
}
