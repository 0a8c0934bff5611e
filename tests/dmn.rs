//! `rulec import dmn` through the real CLI on the DMN models of tests/dmn: each importable
//! model gives a rule that `rulec fmt` leaves as it is, that checks clean and that the
//! generated code agrees with (`rulec test`); each FEEL form means in the rule what it means
//! in DMN (`rulec eval`); an unsound model imports and its diagnostics name the DMN element;
//! what has no .rule counterpart is refused naming the element, its line and why, with
//! nothing written.

mod common;
use common::{assert_green, command, generate, test_json, text, ROOT};

use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Output;

fn model(name: &str) -> PathBuf {
    Path::new(ROOT).join("tests/dmn").join(name)
}

fn run(args: &[&str]) -> Output {
    command().args(args).current_dir(ROOT).output().expect("rulec runs")
}

/// `rulec import dmn MODEL --out DIR/STEM.rule`, which must succeed; the rule's path.
fn import(dmn: &str, dir: &Path) -> PathBuf {
    let stem = Path::new(dmn).file_stem().unwrap().to_string_lossy().into_owned();
    let out = dir.join(format!("{stem}.rule"));
    let o = run(&["import", "dmn", model(dmn).to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "import {dmn}: {}{}", text(&o.stdout), text(&o.stderr));
    out
}

/// Canonical (fmt leaves it) and clean (no error, no warning).
fn assert_canonical_and_clean(rule: &Path) {
    let p = rule.to_str().unwrap();
    let fmt = run(&["fmt", "--check", p]);
    assert!(fmt.status.success(), "not canonical: {}{}", text(&fmt.stdout), text(&fmt.stderr));
    let check = run(&["check", p]);
    let said = format!("{}{}", text(&check.stdout), text(&check.stderr));
    assert!(check.status.success() && said.contains("checked 1 file: clean"), "{p}: {said}");
}

fn eval(rule: &Path, input: Json) -> Json {
    let o = run(&["eval", rule.to_str().unwrap(), "--in", &input.to_string()]);
    assert!(o.status.success(), "eval: {}{}", text(&o.stdout), text(&o.stderr));
    let record: Json = serde_json::from_slice(&o.stdout).unwrap();
    record["observed"].clone()
}

/// Imports, checks and runs the models in python and rust.
fn import_check_and_run(models: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let rules: Vec<PathBuf> = models.iter().map(|m| import(m, dir.path())).collect();
    for r in &rules {
        assert_canonical_and_clean(r);
    }
    let out = dir.path().join("generated");
    generate(&rules, "python,rust", &out);
    let report = test_json(&out, "python,rust");
    assert_green(&report);
    for r in report["results"].as_array().unwrap() {
        assert!(r["vectors"].as_u64() > Some(0), "a rule with no vectors tests nothing: {r}");
    }
}

#[test]
fn the_single_hit_policies_and_the_drg_import_check_and_run() {
    import_check_and_run(&["unique.dmn", "first.dmn", "any.dmn", "priority.dmn", "drg.dmn"]);
}

/// Waits on the multiple-hit policies (collect, rule_order, output_order, collect
/// sum|min|max|count and `list[T]`) of the .rule language.
#[test]
fn the_multiple_hit_policies_import_check_and_run() {
    import_check_and_run(&["multi_hit.dmn"]);
}

/// Every importable model, every language (`--require-all` under CI).
#[test]
fn every_language_agrees_on_the_imported_models() {
    let dir = tempfile::tempdir().unwrap();
    let models =
        ["unique.dmn", "first.dmn", "any.dmn", "priority.dmn", "drg.dmn", "multi_hit.dmn", "null.dmn", "lists.dmn"];
    let rules: Vec<PathBuf> = models.iter().map(|m| import(m, dir.path())).collect();
    let out = dir.path().join("generated");
    generate(&rules, "", &out);
    assert_green(&test_json(&out, ""));
}

#[test]
fn each_feel_form_means_what_it_means_in_dmn() {
    let dir = tempfile::tempdir().unwrap();
    let rule = import("unique.dmn", dir.path());
    let written = std::fs::read_to_string(&rule).unwrap();
    // Closed and open ends: [0..10], (10..20), ]19..30[, [30..40); not(…); lists; dates.
    for line in [
        "| >=0 <=10 | 1     |",
        "| >10 <20  | 2     |",
        "| >19 <30  | 3     |",
        "| >=30 <40 | 4     |",
        "| >=50% <=125% | not: Gold, Silver | -      | 250%     |",
        "| >=2026-07-01 | \"late\"  |",
        // Whole literals are an `int`; 2.5 needs one fraction digit: a rate in steps of 10%.
        "input Age: int 0..150",
        "output Discount: rate[10%]",
        "enum Tier: Gold, Silver, Bronze",
    ] {
        assert!(written.contains(line), "missing `{line}` in:\n{written}");
    }
    let call = |age: i64, score: i64, tier: &str, visit: &str| {
        eval(&rule, json!({"Age": age, "Score": score, "Tier": tier, "Member": true, "Visit": visit}))
    };
    // Score travels in steps of 1%: 125 is 1.25, the closed top of [0.5..1.25].
    let o = call(19, 125, "Bronze", "2026-06-30");
    assert_eq!(o, json!({"Band": "adult", "Level": 2, "Discount": 25, "Season": "early"}));
    let o = call(20, 126, "Gold", "2026-07-01");
    assert_eq!(o, json!({"Band": "adult", "Level": 3, "Discount": 200, "Season": "late"}));
    let o = call(10, 50, "Silver", "2026-07-01");
    assert_eq!(o, json!({"Band": "minor", "Level": 1, "Discount": 100, "Season": "late"}));
    let o = call(65, 49, "Gold", "2026-01-01");
    assert_eq!(o, json!({"Band": "senior", "Level": 5, "Discount": 0, "Season": "early"}));
}

#[test]
fn a_test_reading_another_input_and_a_default_output() {
    let dir = tempfile::tempdir().unwrap();
    let rule = import("first.dmn", dir.path());
    let check = |amount: i64, limit: i64| eval(&rule, json!({"Amount": amount, "Limit": limit}))["Check"].clone();
    assert_eq!(check(50, 40), "over");
    assert_eq!(check(40, 40), "at");
    assert_eq!(check(5, 40), "small");
    assert_eq!(check(30, 40), "ok", "the default output");
}

#[test]
fn a_drg_with_bkm_invocations_is_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let rule = import("drg.dmn", dir.path());
    let o = eval(&rule, json!({"Income": 1500, "Region": "South"}));
    assert_eq!(o, json!({"Ratio_Band": "high", "Offer": "silver", "Fee": 15, "Fee_Again": 15}));
    let o = eval(&rule, json!({"Income": 999, "Region": "North"}));
    assert_eq!(o, json!({"Ratio_Band": "low", "Offer": "none", "Fee": 0, "Fee_Again": 0}));
    // One decision and what it requires, and nothing else.
    let o = run(&["import", "dmn", model("drg.dmn").to_str().unwrap(), "--decision", "Offer"]);
    let only = text(&o.stdout);
    assert!(o.status.success() && only.contains("output Offer:") && !only.contains("Fee"), "{only}");
    let o = run(&["import", "dmn", model("drg.dmn").to_str().unwrap(), "--decision", "Nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no decision named `Nope`"), "{}", text(&o.stderr));
}

/// A single-hit table the checker finds a gap in answers DMN's null where no rule holds:
/// its results optional, a catch-all `none` last (U and A as `first`, P as the `first` table
/// of its rules in priority order); a complete table keeps its type.
#[test]
fn a_gap_answers_dmns_null_and_a_complete_table_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let rule = import("null.dmn", dir.path());
    assert_canonical_and_clean(&rule);
    let written = std::fs::read_to_string(&rule).unwrap();
    for line in [
        "output Ad: string?",
        "output Band: int?",
        "output Status_Verdict: Status_Verdict?",
        "output Whole: bool #",
        "table Band_table first -> Band # DMN decisionTable dt_band (unique: its rules held apart, as `first`)",
        "| -   | none   | # DMN null where no rule holds",
        // Approved ranks first, then Declined; Rate lists no values, and the rules that
        // differ first in it never hold together.
        "| >=30 | Low         | Approved       | Best        | # DMN rule dt_status_r2\n| -    | High        | Approved       | Standard    | # DMN rule dt_status_r3\n| >=18 | Low, Medium | Declined       | Basic       | # DMN rule dt_status_r1\n| -    | -           | none           | none        |",
    ] {
        assert!(written.contains(line), "missing `{line}` in:\n{written}");
    }
    let o = eval(&rule, json!({"Age": 0, "Risk": "Medium"}));
    assert_eq!(o, json!({"Ad": null, "Band": null, "Status_Verdict": null, "Status_Rate": null, "Whole": false}));
    let o = eval(&rule, json!({"Age": 35, "Risk": "Low"}));
    assert_eq!(o, json!({"Ad": "Cars", "Band": 1, "Status_Verdict": "Approved", "Status_Rate": "Best", "Whole": true}));
    let o = eval(&rule, json!({"Age": 20, "Risk": "Low"}));
    assert_eq!(o["Status_Verdict"], "Declined");
    // A sum with no default is optional, none when no row holds; it checks once an
    // optional aggregate is generated (E077 until then).
    let sum = std::fs::read_to_string(import("null_sum.dmn", dir.path())).unwrap();
    assert!(sum.contains("output Points: int? # DMN") && !sum.contains("default"), "{sum}");
}

/// A C, R or O table of several outputs (DMN's list of contexts) decides one list per
/// output, side by side; a collection item definition is a C, R or O result's list; under O
/// an output without outputValues stands beside the ranked one.
#[test]
fn lists_of_contexts_are_lists_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let rule = import("lists.dmn", dir.path());
    assert_canonical_and_clean(&rule);
    let written = std::fs::read_to_string(&rule).unwrap();
    for line in [
        "output Offers_Product: list[Offers_Product]",
        "output Offers_Rate: list[int]",
        "enum Tags: young, senior, risky",
        "output Tags: list[Tags]",
        "table Verdicts_table output_order -> Verdicts_Verdict, Verdicts_Note",
    ] {
        assert!(written.contains(line), "missing `{line}` in:\n{written}");
    }
    let o = eval(&rule, json!({"Age": 70, "Risk": "High"}));
    assert_eq!(o["Offers_Product"], json!(["Loan", "Savings", "Pension"]));
    assert_eq!(o["Offers_Rate"], json!([3, 1, 2]));
    assert_eq!(o["Tags"], json!(["senior", "risky"]));
    let o = eval(&rule, json!({"Age": 10, "Risk": "Low"}));
    assert_eq!(o["Verdicts_Verdict"], json!(["Approved", "Declined"]), "Approved ranks first");
    assert_eq!(o["Verdicts_Note"], json!(["safe", "minor"]));
}

#[test]
fn an_unsound_model_imports_and_its_diagnostics_name_the_dmn_element() {
    let dir = tempfile::tempdir().unwrap();
    for (dmn, code, id) in [("unsound/gap.dmn", "E101", "dt_gap"), ("unsound/overlap.dmn", "E102", "dt_overlap_r1")] {
        let rule = import(dmn, dir.path());
        let o = run(&["check", rule.to_str().unwrap()]);
        let said = text(&o.stdout) + &text(&o.stderr);
        assert!(!o.status.success(), "{said}");
        assert!(said.contains(code) && said.contains(id), "{dmn}: {said}");
    }
}

#[test]
fn what_has_no_rule_counterpart_is_refused_naming_the_element_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (dmn, line, id, why) in [
        ("refused/expression.dmn", 19, "dt_x_r2", "`Age + 1` is FEEL beyond unary tests"),
        ("refused/question_mark.dmn", 15, "dt_x_r1", "`?`"),
        ("refused/context.dmn", 8, "ctx_x", "`context` has no .rule counterpart"),
        ("refused/literal.dmn", 8, "lx_x", "`Age * 2` is FEEL beyond unary tests"),
        (
            "refused/unranked.dmn",
            71,
            "dt_verdicts_o1",
            "rules `dt_verdicts_r2` and `dt_verdicts_r3` may hold together and differ first in it",
        ),
    ] {
        let out = dir.path().join("never.rule");
        let o = run(&["import", "dmn", model(dmn).to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let said = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{dmn}: {said}");
        assert!(said.contains(&format!("{dmn}:{line}: ")), "{dmn}: the line: {said}");
        assert!(said.contains(&format!("`{id}`")) && said.contains(why), "{dmn}: {said}");
        assert!(!out.exists(), "{dmn}: nothing is written");
        assert!(o.stdout.is_empty(), "{dmn}: nothing is printed");
    }
}
