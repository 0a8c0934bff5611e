//! The door (language.md §7, generated-code.md "The two guards" and "A record of one call"):
//! every refusal sentence, the order the checks are made in, and the records written for the
//! inputs it lets in — through the library (`wire::read_inputs`) and through `rulec eval`.
//!
//! The rules are the corpus, copied unchanged into tests/corpus/. Every expected line below is
//! written by hand.

mod common;

use rulec::eval::{self, wire};
use rulec::sema::Program;
use rulec::Sources;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name)
}

/// Check a rule file through the library; it must check clean.
fn program_at(path: &Path) -> Program {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let checked =
        rulec::check_text(&mut Sources::new(), path.to_str().unwrap(), &text, &rulec::analysis::Options::default());
    assert!(!checked.has_errors(), "{} does not check clean: {:?}", path.display(), checked.diagnostics);
    checked.program.unwrap_or_else(|| panic!("{} gave no program", path.display()))
}

/// What the library writes for one call: the record, or the line that stands in its place.
fn library_line(p: &Program, input: &str) -> String {
    let obj: serde_json::Value = serde_json::from_str(input).expect("the test's input is JSON");
    match wire::read_inputs(p, &obj) {
        Err(r) => wire::refusal_line(&r),
        Ok(values) => match eval::evaluate(p, &values) {
            Ok(o) => wire::record(p, &values, &o, ""),
            Err(e) => wire::contradiction_line(&e),
        },
    }
}

/// The sentence the library refuses with, or None when it lets the call in.
fn library_refusal(p: &Program, input: &str) -> Option<String> {
    let obj: serde_json::Value = serde_json::from_str(input).expect("the test's input is JSON");
    wire::read_inputs(p, &obj).err().map(|r| r.what)
}

/// `rulec eval FILE --in -` with one JSON object a line; the lines it prints.
fn cli_lines(rule: &Path, inputs: &[&str]) -> Vec<String> {
    let mut child = common::command()
        .arg("eval")
        .arg(rule)
        .args(["--in", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rulec runs");
    {
        let mut stdin = child.stdin.take().unwrap();
        for line in inputs {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rulec eval {} failed: {stderr}", rule.display());
    assert!(out.stderr.is_empty(), "rulec eval {} wrote to stderr: {stderr}", rule.display());
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

/// `rulec eval FILE --in JSON`: the one line it prints.
fn cli_one(rule: &Path, input: &str) -> String {
    let out = common::command().arg("eval").arg(rule).args(["--in", input]).output().unwrap();
    assert!(out.status.success(), "rulec eval failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches('\n').count(), 1, "one line: {text:?}");
    text.trim_end_matches('\n').to_string()
}

/// The refusal line, written out by hand.
fn refused(sentence: &str) -> String {
    format!(r#"{{"refused":"input","error":"{sentence}"}}"#)
}

/// What a call should print: a refusal sentence, or a whole record.
enum Want {
    Refused(&'static str),
    Record(&'static str),
}
use Want::{Record, Refused};

/// Run every case through the library and (all in one process) through the CLI, and compare
/// each with the line written by hand.
fn check_cases(rule: &Path, cases: &[(&str, Want)]) {
    let p = program_at(rule);
    let inputs: Vec<&str> = cases.iter().map(|(i, _)| *i).collect();
    let printed = cli_lines(rule, &inputs);
    assert_eq!(printed.len(), cases.len(), "one line per call from {}: {printed:#?}", rule.display());
    let mut failures = Vec::new();
    for ((input, want), cli) in cases.iter().zip(&printed) {
        let want_line = match want {
            Refused(s) => refused(s),
            Record(r) => r.to_string(),
        };
        let lib = library_line(&p, input);
        if lib != want_line {
            failures.push(format!("library, {input}\n   got  {lib}\n   want {want_line}"));
        }
        if *cli != want_line {
            failures.push(format!("cli, {input}\n   got  {cli}\n   want {want_line}"));
        }
        match want {
            Refused(s) => {
                if library_refusal(&p, input).as_deref() != Some(*s) {
                    failures.push(format!("library sentence, {input}: want {s:?}"));
                }
            }
            Record(_) => {
                if let Some(s) = library_refusal(&p, input) {
                    failures.push(format!("library refused {input}: {s}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}:\n{}", rule.display(), failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Sentences, one rule at a time
// ---------------------------------------------------------------------------------------

#[test]
fn parcel_rate_door() {
    // weight: mass[lb] 1lb..70lb; girth: length[in] 1in..130in; dest: zone; signature: bool
    const OK_5: &str = r#"{"in":{"weight":5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#;
    check_cases(
        &corpus("parcel_rate.rule"),
        &[
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":false}"#, Record(OK_5)),
            // the order of the keys is not the order of the checks, nor of the record
            (r#"{"signature":false,"dest":"canada","girth":40,"weight":5}"#, Record(OK_5)),
            // missing: no key, or null for an input that is not optional
            (r#"{}"#, Refused("weight is missing")),
            (r#"{"girth":40,"dest":"canada","signature":false}"#, Refused("weight is missing")),
            (r#"{"weight":null,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is missing")),
            (r#"{"weight":5,"girth":40,"dest":"canada"}"#, Refused("signature is missing")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":null}"#, Refused("signature is missing")),
            // kinds
            (r#"{"weight":"5","girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            (r#"{"weight":true,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            (r#"{"weight":[5],"girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            (
                r#"{"weight":{"lb":5},"girth":40,"dest":"canada","signature":false}"#,
                Refused("weight is not an integer"),
            ),
            (r#"{"weight":5.5,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            (r#"{"weight":5,"girth":"40in","dest":"canada","signature":false}"#, Refused("girth is not an integer")),
            (r#"{"weight":5,"girth":40,"dest":5,"signature":false}"#, Refused("dest is not a value of enum zone")),
            (r#"{"weight":5,"girth":40,"dest":"mars","signature":false}"#, Refused("dest is not a value of enum zone")),
            (
                r#"{"weight":5,"girth":40,"dest":"Canada","signature":false}"#,
                Refused("dest is not a value of enum zone"),
            ),
            // a group is not a value
            (
                r#"{"weight":5,"girth":40,"dest":"north_america","signature":false}"#,
                Refused("dest is not a value of enum zone"),
            ),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":0}"#, Refused("signature is not a boolean")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":1}"#, Refused("signature is not a boolean")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":"false"}"#, Refused("signature is not a boolean")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":"true"}"#, Refused("signature is not a boolean")),
            // whole numbers however JSON writes them are the integer (and the record says so)
            (r#"{"weight":5.0,"girth":40,"dest":"canada","signature":false}"#, Record(OK_5)),
            (r#"{"weight":5e0,"girth":4e1,"dest":"canada","signature":false}"#, Record(OK_5)),
            (r#"{"weight":0.5e1,"girth":400e-1,"dest":"canada","signature":false}"#, Record(OK_5)),
            (
                r#"{"weight":1e1,"girth":40.000,"dest":"canada","signature":false}"#,
                Record(
                    r#"{"in":{"weight":10,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#,
                ),
            ),
            // ranges, both ends, and the ends themselves
            (r#"{"weight":0,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (r#"{"weight":-0.0,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (r#"{"weight":-1,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (r#"{"weight":71,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (
                r#"{"weight":7e1,"girth":40,"dest":"canada","signature":false}"#,
                Record(
                    r#"{"in":{"weight":70,"girth":40,"dest":"canada","signature":false},"observed":{"fee":17},"trace":[{"table":"size_of","row":2},{"table":"base_rate","row":5},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#,
                ),
            ),
            (
                r#"{"weight":99999999999999999999999,"girth":40,"dest":"canada","signature":false}"#,
                Refused("weight is out of range"),
            ),
            (r#"{"weight":1e20,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (r#"{"weight":-1e20,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is out of range")),
            (r#"{"weight":5,"girth":0,"dest":"canada","signature":false}"#, Refused("girth is out of range")),
            (r#"{"weight":5,"girth":131,"dest":"canada","signature":false}"#, Refused("girth is out of range")),
            (
                r#"{"weight":1,"girth":1,"dest":"domestic","signature":true}"#,
                Record(
                    r#"{"in":{"weight":1,"girth":1,"dest":"domestic","signature":true},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":1},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":1}]}"#,
                ),
            ),
            // a number that is not whole is refused before its range is looked at
            (r#"{"weight":1000.5,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            (r#"{"weight":0.5,"girth":40,"dest":"canada","signature":false}"#, Refused("weight is not an integer")),
            // an unknown key
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"x":1}"#, Refused("x is not an input")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"x":null}"#, Refused("x is not an input")),
            (
                r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"Weight":5}"#,
                Refused("Weight is not an input"),
            ),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"fee":11}"#, Refused("fee is not an input")),
            (
                r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"size":"small"}"#,
                Refused("size is not an input"),
            ),
        ],
    );
}

#[test]
fn order_of_the_checks() {
    check_cases(
        &corpus("parcel_rate.rule"),
        &[
            // inputs in declaration order, whatever order the keys come in
            (r#"{"signature":"no","dest":"mars","girth":40,"weight":5}"#, Refused("dest is not a value of enum zone")),
            (r#"{"signature":"no","dest":"canada","girth":999,"weight":5}"#, Refused("girth is out of range")),
            (r#"{"girth":"x","dest":"mars","signature":0}"#, Refused("weight is missing")),
            (r#"{"weight":0,"girth":0,"dest":"mars","signature":0}"#, Refused("weight is out of range")),
            // the first input that fails, then the next is never looked at
            (r#"{"weight":5,"girth":0,"signature":0}"#, Refused("girth is out of range")),
            (r#"{"weight":5,"girth":40,"signature":0}"#, Refused("dest is missing")),
            // a bad input and an unknown key: the input
            (
                r#"{"x":1,"weight":"5","girth":40,"dest":"canada","signature":false}"#,
                Refused("weight is not an integer"),
            ),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"x":1,"y":2}"#, Refused("x is not an input")),
            (r#"{"weight":5,"girth":40,"dest":"canada","x":1}"#, Refused("signature is missing")),
            (r#"{"weight":5,"girth":40,"dest":"canada","signature":0,"x":1}"#, Refused("signature is not a boolean")),
            (r#"{"weight":71,"girth":40,"dest":"canada","signature":false,"x":1}"#, Refused("weight is out of range")),
        ],
    );
    check_cases(
        &corpus("single_coupon.rule"),
        &[
            // an input's own failure comes before any constraint
            (
                r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":101,"face":0,"dup":false}"#,
                Refused("rate is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":2000,"kind":"bogus","rate":10,"face":0,"dup":false}"#,
                Refused("kind is not a value of enum coupon_kind"),
            ),
            (r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0}"#, Refused("dup is missing")),
            // a constraint comes before an unknown key
            (
                r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false,"x":1}"#,
                Refused("the constraint does not hold: applied <= subtotal"),
            ),
            (
                r#"{"x":1,"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("the constraint does not hold: applied <= subtotal"),
            ),
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":0,"dup":false,"x":1}"#,
                Refused("x is not an input"),
            ),
        ],
    );
    check_cases(
        &corpus("member_discount.rule"),
        &[
            // enum membership comes before the range, the range before the next input
            (r#"{"tier":"diamond","channel":"web","subtotal":100}"#, Refused("tier is not a value of enum tier")),
            (r#"{"tier":"basic","channel":"fax","subtotal":100}"#, Refused("tier is out of range")),
            (r#"{"tier":"basic","subtotal":100}"#, Refused("tier is out of range")),
            (r#"{"tier":"basic","channel":"web","subtotal":100,"x":1}"#, Refused("tier is out of range")),
            (r#"{"tier":"silver","subtotal":100,"x":1}"#, Refused("channel is missing")),
            (
                r#"{"tier":"silver","channel":"web","subtotal":100,"coupon":"bogus","x":1}"#,
                Refused("coupon is not a value of enum coupon_kind"),
            ),
        ],
    );
}

#[test]
fn single_coupon_door() {
    // subtotal, applied: money[JPY, incl_tax] 0..1000000; kind; rate: rate[1%] 0%..100%;
    // face: 0..100000; dup: bool; constraint applied <= subtotal
    const ZERO_REST: &str = r#"{"in":{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":0},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#;
    check_cases(
        &corpus("single_coupon.rule"),
        &[
            (
                r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("the constraint does not hold: applied <= subtotal"),
            ),
            (
                r#"{"subtotal":1000,"applied":1001,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("the constraint does not hold: applied <= subtotal"),
            ),
            // the constraint is met at equality
            (r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":0,"dup":false}"#, Record(ZERO_REST)),
            // 1000.0, 1e3, 1E3, 1.0e3 are 1000; -0.0 is 0; 1000.5 is no integer; "1000" no number
            (
                r#"{"subtotal":1000.0,"applied":1e3,"kind":"percent","rate":10,"face":-0.0,"dup":false}"#,
                Record(ZERO_REST),
            ),
            (
                r#"{"subtotal":1E3,"applied":1.0e3,"kind":"percent","rate":10.0,"face":0,"dup":false}"#,
                Record(ZERO_REST),
            ),
            // zero is zero whatever its exponent
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":0e5000,"dup":false}"#,
                Record(ZERO_REST),
            ),
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":-0e-99999999999999999999,"dup":false}"#,
                Record(ZERO_REST),
            ),
            // a whole number too large to read is an integer past the range; a fraction too
            // small to read is no integer
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":1e5000,"dup":false}"#,
                Refused("face is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":-1e99999999999999999999,"dup":false}"#,
                Refused("face is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":1e-5000,"dup":false}"#,
                Refused("face is not an integer"),
            ),
            (
                r#"{"subtotal":1000,"applied":1000,"kind":"percent","rate":10,"face":1e400,"dup":false}"#,
                Refused("face is out of range"),
            ),
            (
                r#"{"subtotal":1000.5,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("subtotal is not an integer"),
            ),
            (
                r#"{"subtotal":"1000","applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("subtotal is not an integer"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":"10%","face":0,"dup":false}"#,
                Refused("rate is not an integer"),
            ),
            // a rate travels in whole steps: 10.5 steps of 1% is not one
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10.5,"face":0,"dup":false}"#,
                Refused("rate is not an integer"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":0.1,"face":0,"dup":false}"#,
                Refused("rate is not an integer"),
            ),
            (
                r#"{"subtotal":1.5e3,"applied":0,"kind":"percent","rate":15,"face":0,"dup":false}"#,
                Record(
                    r#"{"in":{"subtotal":1500,"applied":0,"kind":"percent","rate":15,"face":0,"dup":false},"observed":{"ok":true,"raw":225},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#,
                ),
            ),
            (
                r#"{"subtotal":1999,"applied":0,"kind":"percent","rate":15,"face":0,"dup":false}"#,
                Record(
                    r#"{"in":{"subtotal":1999,"applied":0,"kind":"percent","rate":15,"face":0,"dup":false},"observed":{"ok":true,"raw":299},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#,
                ),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":101,"face":0,"dup":false}"#,
                Refused("rate is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":-1,"face":0,"dup":false}"#,
                Refused("rate is out of range"),
            ),
            (
                r#"{"subtotal":1000001,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("subtotal is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":-1,"kind":"percent","rate":10,"face":0,"dup":false}"#,
                Refused("applied is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":100001,"dup":false}"#,
                Refused("face is out of range"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":0,"rate":10,"face":0,"dup":false}"#,
                Refused("kind is not a value of enum coupon_kind"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":"false"}"#,
                Refused("dup is not a boolean"),
            ),
            (
                r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":0}"#,
                Refused("dup is not a boolean"),
            ),
        ],
    );
}

#[test]
fn consumption_tax_optional_boolean() {
    // price: money[JPY, excl_tax] 0..10000000; category; takeout: bool?
    const NONE_1000: &str = r#"{"in":{"price":1000,"category":"food","takeout":null},"observed":{"tax":100},"trace":[{"table":"rate_of","row":2}]}"#;
    check_cases(
        &corpus("consumption_tax.rule"),
        &[
            // null for an optional is none, and so is leaving it out; the record says null
            (r#"{"price":1000,"category":"food","takeout":null}"#, Record(NONE_1000)),
            (r#"{"price":1000,"category":"food"}"#, Record(NONE_1000)),
            (
                r#"{"price":1000,"category":"food","takeout":true}"#,
                Record(
                    r#"{"in":{"price":1000,"category":"food","takeout":true},"observed":{"tax":80},"trace":[{"table":"rate_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"price":1234,"category":"food","takeout":false}"#,
                Record(
                    r#"{"in":{"price":1234,"category":"food","takeout":false},"observed":{"tax":123},"trace":[{"table":"rate_of","row":2}]}"#,
                ),
            ),
            // an optional is held to its kind whenever it has a value
            (r#"{"price":1000,"category":"food","takeout":"false"}"#, Refused("takeout is not a boolean")),
            (r#"{"price":1000,"category":"food","takeout":0}"#, Refused("takeout is not a boolean")),
            (r#"{"price":1000,"category":"food","takeout":"null"}"#, Refused("takeout is not a boolean")),
            (r#"{"price":1000,"category":5,"takeout":true}"#, Refused("category is not a value of enum category")),
            (r#"{"price":1000,"takeout":true}"#, Refused("category is missing")),
            (r#"{"price":1000,"category":null}"#, Refused("category is missing")),
            (r#"{"price":-1,"category":"food"}"#, Refused("price is out of range")),
            (r#"{"price":10000001,"category":"food"}"#, Refused("price is out of range")),
            (
                r#"{"price":10000000,"category":"general"}"#,
                Record(
                    r#"{"in":{"price":10000000,"category":"general","takeout":null},"observed":{"tax":1000000},"trace":[{"table":"rate_of","row":4}]}"#,
                ),
            ),
            (r#"{"price":1000,"category":"food","Takeout":true}"#, Refused("Takeout is not an input")),
        ],
    );
}

#[test]
fn member_discount_ordered_enum_range_and_optional_enum() {
    // tier: tier silver..platinum (from shared/tiers.rule); channel; subtotal; coupon: coupon_kind?
    check_cases(
        &corpus("member_discount.rule"),
        &[
            // a value of the enum that the declared range leaves out
            (r#"{"tier":"basic","channel":"store","subtotal":10000}"#, Refused("tier is out of range")),
            // values the enum does not have: an unknown name, a display name, a group, a number
            (r#"{"tier":"diamond","channel":"store","subtotal":10000}"#, Refused("tier is not a value of enum tier")),
            (r#"{"tier":"Silver","channel":"store","subtotal":10000}"#, Refused("tier is not a value of enum tier")),
            (r#"{"tier":"premium","channel":"store","subtotal":10000}"#, Refused("tier is not a value of enum tier")),
            (r#"{"tier":1,"channel":"store","subtotal":10000}"#, Refused("tier is not a value of enum tier")),
            (
                r#"{"tier":"silver","channel":"fax","subtotal":10000}"#,
                Refused("channel is not a value of enum channel"),
            ),
            (
                r#"{"tier":"silver","channel":"store","subtotal":10000,"coupon":"half_off"}"#,
                Refused("coupon is not a value of enum coupon_kind"),
            ),
            (
                r#"{"tier":"silver","channel":"store","subtotal":10000,"coupon":5}"#,
                Refused("coupon is not a value of enum coupon_kind"),
            ),
            (
                r#"{"tier":"silver","channel":"store","subtotal":10000,"coupon":false}"#,
                Refused("coupon is not a value of enum coupon_kind"),
            ),
            // the range's ends are in it; an absent optional enum is null in the record; the
            // rate output travels in steps of 0.5% (2.5% is 5); the optional string output is null
            (
                r#"{"tier":"silver","channel":"store","subtotal":10000}"#,
                Record(
                    r#"{"in":{"tier":"silver","channel":"store","subtotal":10000,"coupon":null},"observed":{"pct":5,"discount":250,"note":null},"trace":[{"table":"pct_of","row":1},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"tier":"gold","channel":"web","subtotal":10100,"coupon":"ten_off"}"#,
                Record(
                    r#"{"in":{"tier":"gold","channel":"web","subtotal":10100,"coupon":"ten_off"},"observed":{"pct":15,"discount":1260,"note":"web bonus"},"trace":[{"table":"pct_of","row":2},{"table":"coupon_of","row":2}]}"#,
                ),
            ),
            (
                r#"{"tier":"platinum","channel":"phone","subtotal":1300,"coupon":"gift"}"#,
                Record(
                    r#"{"in":{"tier":"platinum","channel":"phone","subtotal":1300,"coupon":"gift"},"observed":{"pct":10,"discount":60,"note":null},"trace":[{"table":"pct_of","row":3},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
            // banker's rounding to 10 yen: 75 -> 80 (7.5 tens, 8 even), 85 -> 80 (8.5 tens, 8 even),
            // 125 -> 120, 175 -> 180
            (
                r#"{"tier":"gold","channel":"store","subtotal":1500,"coupon":null}"#,
                Record(
                    r#"{"in":{"tier":"gold","channel":"store","subtotal":1500,"coupon":null},"observed":{"pct":10,"discount":80,"note":null},"trace":[{"table":"pct_of","row":3},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"tier":"gold","channel":"store","subtotal":1700}"#,
                Record(
                    r#"{"in":{"tier":"gold","channel":"store","subtotal":1700,"coupon":null},"observed":{"pct":10,"discount":80,"note":null},"trace":[{"table":"pct_of","row":3},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"tier":"gold","channel":"store","subtotal":2500}"#,
                Record(
                    r#"{"in":{"tier":"gold","channel":"store","subtotal":2500,"coupon":null},"observed":{"pct":10,"discount":120,"note":null},"trace":[{"table":"pct_of","row":3},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"tier":"gold","channel":"store","subtotal":3500}"#,
                Record(
                    r#"{"in":{"tier":"gold","channel":"store","subtotal":3500,"coupon":null},"observed":{"pct":10,"discount":180,"note":null},"trace":[{"table":"pct_of","row":3},{"table":"coupon_of","row":1}]}"#,
                ),
            ),
        ],
    );
}

#[test]
fn late_fee_dates() {
    // due: date 2026-01-01..2026-12-31; paid: date 2026-01-01..2027-12-31; amount 1..10000000;
    // constraint paid >= due - 60
    check_cases(
        &corpus("late_fee.rule"),
        &[
            (r#"{"due":20260101,"paid":"2026-01-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":"2026-02-30","paid":"2026-03-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":"2026-1-01","paid":"2026-03-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":"2026-01-01T00:00:00Z","paid":"2026-03-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":"20260101","paid":"2026-03-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":true,"paid":"2026-03-01","amount":1}"#, Refused("due is not a date")),
            (r#"{"due":"2026-03-31","paid":"2026-02-29","amount":1}"#, Refused("paid is not a date")),
            (r#"{"due":"2025-12-31","paid":"2026-01-01","amount":1}"#, Refused("due is out of range")),
            (r#"{"due":"2027-01-01","paid":"2027-01-01","amount":1}"#, Refused("due is out of range")),
            (r#"{"due":"2026-12-31","paid":"2028-01-01","amount":1}"#, Refused("paid is out of range")),
            (r#"{"due":"2026-03-31","paid":"2026-04-01","amount":0}"#, Refused("amount is out of range")),
            (r#"{"due":"2026-03-31","paid":"2026-04-01"}"#, Refused("amount is missing")),
            // 60 days before 2026-03-31 is 2026-01-30: met at the bound, broken one day past it
            (
                r#"{"due":"2026-03-31","paid":"2026-01-29","amount":100000}"#,
                Refused("the constraint does not hold: paid >= due - 60"),
            ),
            (
                r#"{"due":"2026-03-31","paid":"2026-01-30","amount":100000}"#,
                Record(
                    r#"{"in":{"due":"2026-03-31","paid":"2026-01-30","amount":100000},"observed":{"fee":0,"band":"on_time","weekday_offset":3},"trace":[{"table":"band_of","row":1},{"table":"fee_of","row":1}]}"#,
                ),
            ),
            // 1 day late: 1% of 123456 is 1234.56, ceiling to 1235
            (
                r#"{"due":"2026-03-31","paid":"2026-04-01","amount":123456}"#,
                Record(
                    r#"{"in":{"due":"2026-03-31","paid":"2026-04-01","amount":123456},"observed":{"fee":1235,"band":"short","weekday_offset":1},"trace":[{"table":"band_of","row":2},{"table":"fee_of","row":2}]}"#,
                ),
            ),
            // 59 days late: 8 whole weeks, grace isqrt(59) = 7: 100000 * 1% * 8 / 4 - 70 = 1930
            (
                r#"{"due":"2026-01-31","paid":"2026-03-31","amount":100000}"#,
                Record(
                    r#"{"in":{"due":"2026-01-31","paid":"2026-03-31","amount":100000},"observed":{"fee":1930,"band":"long","weekday_offset":3},"trace":[{"table":"band_of","row":3},{"table":"fee_of","row":3}]}"#,
                ),
            ),
            // across the end of a February that has no 29th: one day late
            (
                r#"{"due":"2026-02-28","paid":"2026-03-01","amount":100}"#,
                Record(
                    r#"{"in":{"due":"2026-02-28","paid":"2026-03-01","amount":100},"observed":{"fee":1,"band":"short","weekday_offset":1},"trace":[{"table":"band_of","row":2},{"table":"fee_of","row":2}]}"#,
                ),
            ),
        ],
    );
}

#[test]
fn member_shipping_fee_names_that_are_not_ascii() {
    // dest: 都道府県 (alias prefecture); weight: mass[g] 1..40000; total; 会員 (alias member): member_kind
    check_cases(
        &corpus("member_shipping_fee.rule"),
        &[
            (
                r#"{"dest":"Hokkaido","weight":1200,"total":0,"会員":"basic"}"#,
                Record(
                    r#"{"in":{"dest":"Hokkaido","weight":1200,"total":0,"会員":"basic"},"observed":{"fee":1200},"trace":[{"table":"base","row":3},{"table":"payer","row":3}]}"#,
                ),
            ),
            (
                r#"{"会員":"gold","total":12000,"weight":2500,"dest":"Hokkaido"}"#,
                Record(
                    r#"{"in":{"dest":"Hokkaido","weight":2500,"total":12000,"会員":"gold"},"observed":{"fee":0},"trace":[{"table":"base","row":4},{"table":"payer","row":1}]}"#,
                ),
            ),
            (
                r#"{"dest":"Osaka","weight":2000,"total":10000,"会員":"basic"}"#,
                Record(
                    r#"{"in":{"dest":"Osaka","weight":2000,"total":10000,"会員":"basic"},"observed":{"fee":0},"trace":[{"table":"base","row":1},{"table":"payer","row":2}]}"#,
                ),
            ),
            // the wire uses the declared name, never the alias
            (r#"{"dest":"Hokkaido","weight":1200,"total":0,"member":"basic"}"#, Refused("会員 is missing")),
            (
                r#"{"dest":"Hokkaido","weight":1200,"total":0,"会員":"basic","member":"basic"}"#,
                Refused("member is not an input"),
            ),
            // an enum is named the way the rule declares it
            (
                r#"{"dest":"Tokyo-to","weight":1200,"total":0,"会員":"basic"}"#,
                Refused("dest is not a value of enum 都道府県"),
            ),
            (
                r#"{"dest":"prefecture","weight":1200,"total":0,"会員":"basic"}"#,
                Refused("dest is not a value of enum 都道府県"),
            ),
            (
                r#"{"dest":"Tokyo","weight":1200,"total":0,"会員":"platinum"}"#,
                Refused("会員 is not a value of enum member_kind"),
            ),
            (r#"{"dest":"Tokyo","weight":"2kg","total":0,"会員":"basic"}"#, Refused("weight is not an integer")),
            (r#"{"dest":"Tokyo","weight":40001,"total":0,"会員":"basic"}"#, Refused("weight is out of range")),
            (r#"{"dest":"Tokyo","weight":1200,"total":0,"会員":"basic","送料":1}"#, Refused("送料 is not an input")),
        ],
    );
}

#[test]
fn shipping_zone_strings() {
    check_cases(
        &corpus("shipping_zone.rule"),
        &[
            (r#"{"country":5,"remote":false}"#, Refused("country is not a string")),
            (r#"{"country":["JP"],"remote":false}"#, Refused("country is not a string")),
            (r#"{"country":true,"remote":false}"#, Refused("country is not a string")),
            (r#"{"country":null,"remote":false}"#, Refused("country is missing")),
            (r#"{"country":"JP","remote":"yes"}"#, Refused("remote is not a boolean")),
            (
                r#"{"country":"","remote":false}"#,
                Record(
                    r#"{"in":{"country":"","remote":false},"observed":{"zone":"world","surcharge":1500},"trace":[{"table":"zone_of","row":3},{"table":"surcharge_of","row":3}]}"#,
                ),
            ),
            (
                r#"{"country":"JP","remote":true}"#,
                Record(
                    r#"{"in":{"country":"JP","remote":true},"observed":{"zone":"domestic","surcharge":500},"trace":[{"table":"zone_of","row":1},{"table":"surcharge_of","row":2}]}"#,
                ),
            ),
            // a string is compared for equality only: "jp" is not "JP"
            (
                r#"{"country":"jp","remote":true}"#,
                Record(
                    r#"{"in":{"country":"jp","remote":true},"observed":{"zone":"world","surcharge":1500},"trace":[{"table":"zone_of","row":3},{"table":"surcharge_of","row":3}]}"#,
                ),
            ),
        ],
    );
}

#[test]
fn ticket_price_int_and_date() {
    check_cases(
        &corpus("ticket_price.rule"),
        &[
            (r#"{"age":121,"visit":"2026-08-01","member":false}"#, Refused("age is out of range")),
            (r#"{"age":-1,"visit":"2026-08-01","member":false}"#, Refused("age is out of range")),
            (r#"{"age":30.5,"visit":"2026-08-01","member":false}"#, Refused("age is not an integer")),
            (r#"{"age":30,"visit":"2026-08-32","member":false}"#, Refused("visit is not a date")),
            (r#"{"age":30,"visit":"2026-08-01","member":null}"#, Refused("member is missing")),
            (
                r#"{"age":3e1,"visit":"2026-08-01","member":true}"#,
                Record(
                    r#"{"in":{"age":30,"visit":"2026-08-01","member":true},"observed":{"price":2000},"trace":[{"table":"price_of","row":4}]}"#,
                ),
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Rules written for the test
// ---------------------------------------------------------------------------------------

fn write_rule(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_constraint_that_reads_an_absent_optional_holds() {
    let dir = tempfile::tempdir().unwrap();
    // The same constraint written both ways round: where the absent optional stands in it
    // must not matter.
    for (name, constraint) in [("cap_last.rule", "x > 5 and cap >= 3"), ("cap_first.rule", "cap >= 3 and x > 5")] {
        let rule = write_rule(
            dir.path(),
            name,
            &format!(
                "rule capped v1\n\ninput x: int 0..10\ninput cap: int? 0..10\nconstraint {constraint}\nconstraint cap >= x\n\noutput y: int 0..10\ndefine y = x\n"
            ),
        );
        let broken = format!("the constraint does not hold: {constraint}");
        check_cases(
            &rule,
            &[
                (r#"{"x":1}"#, Record(r#"{"in":{"x":1,"cap":null},"observed":{"y":1},"trace":[]}"#)),
                (r#"{"x":1,"cap":null}"#, Record(r#"{"in":{"x":1,"cap":null},"observed":{"y":1},"trace":[]}"#)),
                (r#"{"x":7,"cap":9}"#, Record(r#"{"in":{"x":7,"cap":9},"observed":{"y":7},"trace":[]}"#)),
                (r#"{"x":7,"cap":5}"#, Refused("the constraint does not hold: cap >= x")),
                (r#"{"x":7,"cap":11}"#, Refused("cap is out of range")),
                (r#"{"x":7,"cap":"9"}"#, Refused("cap is not an integer")),
                (r#"{"x":7,"cap":9,"z":0}"#, Refused("z is not an input")),
            ],
        );
        // With a value, the constraint is held to: x = 1 breaks `x > 5`.
        let p = program_at(&rule);
        assert_eq!(library_refusal(&p, r#"{"x":1,"cap":9}"#).as_deref(), Some(broken.as_str()));
        assert_eq!(cli_one(&rule, r#"{"x":1,"cap":9}"#), refused(&broken));
    }
}

#[test]
fn optional_date_and_rate_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let rule = write_rule(
        dir.path(),
        "optional_kinds.rule",
        "rule optional_kinds v1\n\
         \n\
         input ship_on: date? 2026-01-01..2026-12-31\n\
         input pct: rate[0.1%]? 0%..20%\n\
         \n\
         output shipped: bool\n\
         \n\
         table shipped_of -> shipped\n\
         | ship_on | shipped |\n\
         |---------|---------|\n\
         | none    | false   |\n\
         | not: none | true  |\n",
    );
    check_cases(
        &rule,
        &[
            (
                r#"{}"#,
                Record(
                    r#"{"in":{"ship_on":null,"pct":null},"observed":{"shipped":false},"trace":[{"table":"shipped_of","row":1}]}"#,
                ),
            ),
            (
                r#"{"ship_on":"2026-07-01","pct":183}"#,
                Record(
                    r#"{"in":{"ship_on":"2026-07-01","pct":183},"observed":{"shipped":true},"trace":[{"table":"shipped_of","row":2}]}"#,
                ),
            ),
            // an optional is held to its type's kind and range whenever it has a value
            (r#"{"ship_on":"2027-01-01"}"#, Refused("ship_on is out of range")),
            (r#"{"ship_on":20454}"#, Refused("ship_on is not a date")),
            (r#"{"ship_on":"2026-02-29"}"#, Refused("ship_on is not a date")),
            (r#"{"pct":201}"#, Refused("pct is out of range")),
            (r#"{"pct":18.3}"#, Refused("pct is not an integer")),
            (r#"{"pct":-1}"#, Refused("pct is out of range")),
        ],
    );
}

#[test]
fn cli_single_input_and_tag() {
    let rule = corpus("parcel_rate.rule");
    assert_eq!(
        cli_one(&rule, r#"{"weight":5,"girth":40,"dest":"canada","signature":false}"#),
        r#"{"in":{"weight":5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#
    );
    assert_eq!(
        cli_one(&rule, r#"{"weight":5,"girth":40,"dest":"canada","signature":false,"x":1}"#),
        r#"{"refused":"input","error":"x is not an input"}"#
    );
    assert_eq!(cli_one(&rule, r#"{"weight":71}"#), r#"{"refused":"input","error":"weight is out of range"}"#);
    // a tag goes first in a record, and not into a refusal
    let out = common::command()
        .arg("eval")
        .arg(&rule)
        .args(["--tag", "order:1", "--in", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(
                b"{\"weight\":5,\"girth\":40,\"dest\":\"canada\",\"signature\":false}\n\n{\"weight\":0}\n",
            )?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        concat!(
            r#"{"tag":"order:1","in":{"weight":5,"girth":40,"dest":"canada","signature":false},"observed":{"fee":11},"trace":[{"table":"size_of","row":1},{"table":"base_rate","row":4},{"table":"fuel_rate","row":1},{"table":"signature_fee","row":3}]}"#,
            "\n",
            r#"{"refused":"input","error":"weight is out of range"}"#,
            "\n"
        )
    );
}

// ---------------------------------------------------------------------------------------
// Every `expect` line of the corpus, as records written by `rulec eval`
// ---------------------------------------------------------------------------------------

/// A declared input or output: its name and its type as written (`money[JPY, incl_tax]`, `tier?`).
struct Decl {
    name: String,
    ty: String,
}

/// `input NAME[(ALIAS)]: TYPE …` and `output …` lines, in the order written.
fn decls(text: &str, keyword: &str) -> Vec<Decl> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) else {
            continue;
        };
        let (name, ty) = rest.split_once(':').expect("NAME: TYPE");
        let name = name.split('(').next().unwrap().trim().to_string();
        let ty = ty.trim_start();
        // A type runs to the first space outside brackets.
        let mut depth = 0;
        let end = ty
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                c == ' ' && depth == 0
            })
            .map_or(ty.len(), |(i, _)| i);
        out.push(Decl { name, ty: ty[..end].to_string() });
    }
    out
}

/// A decimal numeral as (digits, places): "2.5" is (25, 1).
fn decimal(text: &str) -> (i128, u32) {
    match text.split_once('.') {
        Some((i, f)) => (format!("{i}{f}").parse().unwrap(), f.len() as u32),
        None => (text.parse().unwrap(), 0),
    }
}

/// An `expect` literal in the wire form of its declared type.
fn wire_literal(lit: &str, ty: &str) -> String {
    let ty = ty.trim_end_matches('?');
    if lit == "none" {
        return "null".into();
    }
    if let Some(s) = lit.strip_prefix('"') {
        let s = s.strip_suffix('"').unwrap().replace("\\\"", "\"").replace("\\\\", "\\");
        return serde_json::Value::String(s).to_string();
    }
    if lit == "true" || lit == "false" {
        return lit.into();
    }
    if ty == "date" {
        return format!("\"{lit}\"");
    }
    if let Some(step) = ty.strip_prefix("rate[").and_then(|s| s.strip_suffix("%]")) {
        // whole steps: 7.5% at 0.5% is 15
        let (n, np) = decimal(lit.strip_suffix('%').expect("a rate literal carries %"));
        let (s, sp) = decimal(step);
        let (n, s) = (n * 10i128.pow(sp), s * 10i128.pow(np));
        assert_eq!(n % s, 0, "{lit} is not on the step {step}");
        return (n / s).to_string();
    }
    let unit = ty.find('[').map(|i| ty[i + 1..].split([',', ']']).next().unwrap());
    if let Some(unit) = unit {
        // the corpus writes every quantity in its declared unit
        let n = lit.strip_suffix(unit).unwrap_or_else(|| panic!("{lit} is not in {unit}"));
        return n.parse::<i64>().expect("a whole number").to_string();
    }
    if ty == "int" {
        return lit.parse::<i64>().expect("an int").to_string();
    }
    // an enum value
    format!("\"{lit}\"")
}

/// Split `a=1, b="x, y"` at the commas outside quotes.
fn assignments(text: &str) -> Vec<(String, String)> {
    let mut parts = Vec::new();
    let (mut cur, mut quoted) = (String::new(), false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c)
            }
            ',' if !quoted => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    parts
        .into_iter()
        .map(|p| {
            let (k, v) = p.trim().split_once('=').expect("NAME=LITERAL");
            (k.trim().to_string(), v.trim().to_string())
        })
        .collect()
}

#[test]
fn corpus_expect_lines_as_records() {
    let mut rules: Vec<PathBuf> = std::fs::read_dir(corpus(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    rules.sort();
    assert_eq!(rules.len(), 9, "the nine corpus rules: {rules:?}");
    let mut total = 0;
    for rule in &rules {
        let text = std::fs::read_to_string(rule).unwrap();
        let (inputs, outputs) = (decls(&text, "input"), decls(&text, "output"));
        let ty_of = |name: &str, list: &[Decl]| -> String {
            list.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name} is not declared")).ty.clone()
        };
        let mut calls = Vec::new();
        let mut wanted = Vec::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("expect ")) {
            let (given, then) = line.split_once(" -> ").expect("IN -> OUT");
            let given = assignments(given);
            let call: Vec<String> = given
                .iter()
                .map(|(k, v)| {
                    format!("{}:{}", serde_json::Value::String(k.clone()), wire_literal(v, &ty_of(k, &inputs)))
                })
                .collect();
            calls.push(format!("{{{}}}", call.join(",")));
            // The record echoes every input in declaration order, an absent optional as null.
            let echo: Vec<String> = inputs
                .iter()
                .map(|d| {
                    let v =
                        given.iter().find(|(k, _)| *k == d.name).map_or("null".into(), |(_, v)| wire_literal(v, &d.ty));
                    format!("{}:{}", serde_json::Value::String(d.name.clone()), v)
                })
                .collect();
            let outs: Vec<(String, String)> = assignments(then)
                .into_iter()
                .map(|(k, v)| (k.clone(), wire_literal(&v, &ty_of(&k, &outputs))))
                .collect();
            wanted.push((format!("{{{}}}", echo.join(",")), outs));
        }
        assert!(!calls.is_empty(), "{} has no expect line", rule.display());
        let call_refs: Vec<&str> = calls.iter().map(String::as_str).collect();
        let printed = cli_lines(rule, &call_refs);
        assert_eq!(printed.len(), calls.len());
        let p = program_at(rule);
        for ((call, (echo, outs)), line) in calls.iter().zip(&wanted).zip(&printed) {
            assert_eq!(line, &library_line(&p, call), "library and CLI agree on {call}");
            let record: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {line}: {e}", rule.display()));
            assert!(record.get("refused").is_none(), "{}: {call} refused: {line}", rule.display());
            assert_eq!(record["in"].to_string(), *echo, "{}: {call}", rule.display());
            let observed = record["observed"].as_object().unwrap();
            // every output is in the record, in declaration order
            let names: Vec<&str> = observed.keys().map(String::as_str).collect();
            let declared: Vec<&str> = outputs.iter().map(|d| d.name.as_str()).collect();
            assert_eq!(names, declared, "{}", rule.display());
            for (name, want) in outs {
                assert_eq!(observed[name].to_string(), *want, "{}: {call}: {name} in {line}", rule.display());
            }
            assert!(record["trace"].is_array());
            total += 1;
        }
    }
    assert_eq!(total, 43, "every expect line of the corpus was run");
}

#[test]
fn corpus_is_a_copy() {
    // tests/corpus is /work/shared/corpus byte for byte, subfolders included.
    let want = [
        "broken/any_disagree.rule",
        "broken/cycle.rule",
        "broken/dead_row.rule",
        "broken/derived_overlap.rule",
        "broken/divide_by_zero.rule",
        "broken/gap.rule",
        "broken/integer_cut.rule",
        "broken/literal.rule",
        "broken/missing_range.rule",
        "broken/missing_rounding.rule",
        "broken/overflow.rule",
        "broken/overlap.rule",
        "broken/range_unproven.rule",
        "broken/shadowed.rule",
        "broken/unit_mismatch.rule",
        "consumption_tax.rule",
        "late_fee.rule",
        "loyalty_points.rule",
        "member_discount.rule",
        "member_shipping_fee.rule",
        "parcel_rate.rule",
        "shared/tiers.rule",
        "shipping_zone.rule",
        "single_coupon.rule",
        "ticket_price.rule",
    ];
    let mut found: Vec<String> = walk(&corpus(""))
        .into_iter()
        .map(|p| p.strip_prefix(corpus("")).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    found.sort();
    assert_eq!(found, want);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
