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

/// SQL refuses in the relation's own terms: the query's `_input_error` column (over SQLite)
/// and the function's SQLSTATE 22023 (on PostgreSQL) carry the reference's sentences.
#[test]
fn sql_refuses_through_input_error_and_sqlstate_22023() {
    if !toolchain("sql_refuses_through_input_error_and_sqlstate_22023", &["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = std::path::Path::new(ROOT).join("tests/corpus/single_coupon.rule");
    generate(std::slice::from_ref(&rule), "sql", dir.path());
    let sql = dir.path().join("sql");
    // (subtotal, applied, kind, rate, face, dup) as SQL literals, and the sentence.
    let cases = [
        ("NULL", "0", "'percent'", "1", "0", "FALSE", "subtotal is missing"),
        ("1000.5", "0", "'percent'", "1", "0", "FALSE", "subtotal is not an integer"),
        ("5000", "0", "'percent'", "18.3", "0", "FALSE", "rate is not an integer"),
        ("1000001", "0", "'percent'", "1", "0", "FALSE", "subtotal is out of range"),
        ("5000", "0", "'percent'", "-1", "0", "FALSE", "rate is out of range"),
        ("5000", "0", "'no such value'", "1", "0", "FALSE", "kind is not a value of enum coupon_kind"),
        ("1000", "2000", "'percent'", "1", "0", "FALSE", "the constraint does not hold: applied <= subtotal"),
    ];
    // The sentences are the reference's.
    for (s, a, k, r, f, d, want) in cases {
        let call = format!(
            "{{\"subtotal\":{},\"applied\":{a},\"kind\":{},\"rate\":{r},\"face\":{f},\"dup\":{}}}",
            if s == "NULL" { "null" } else { s },
            k.replace('\'', "\""),
            d.to_lowercase()
        );
        let out = rulec(&["eval", "--in", &call, rule.to_str().unwrap()], dir.path());
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got["error"], want, "{call}");
    }

    let rows: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (s, a, k, r, f, d, _))| format!("({i}, {s}, {a}, {k}, {r}, {f}, {d})"))
        .collect();
    let script = format!(
        "import sqlite3\n\
         db = sqlite3.connect(':memory:')\n\
         db.create_function('LEAST', -1, lambda *xs: min((x for x in xs if x is not None), default=None))\n\
         db.create_function('GREATEST', -1, lambda *xs: max((x for x in xs if x is not None), default=None))\n\
         db.execute('CREATE TABLE \"single_coupon_input\" (\"_id\", \"subtotal\", \"applied\", \"kind\", \"rate\", \"face\", \"dup\")')\n\
         db.execute(\"INSERT INTO \\\"single_coupon_input\\\" VALUES {}\")\n\
         db.executescript(open('single_coupon.sql').read())\n\
         for (e,) in db.execute('SELECT \"_input_error\" FROM \"single_coupon\" ORDER BY \"_id\"'):\n\
         \x20   print(e)\n",
        rows.join(", ")
    );
    let out = std::process::Command::new("python3").args(["-c", &script]).current_dir(&sql).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    let want: Vec<String> = cases.iter().map(|c| c.6.to_string()).collect();
    assert_eq!(got, want, "the query's _input_error over SQLite");

    if !postgres("sql_refuses_through_input_error_and_sqlstate_22023") {
        return;
    }
    // The function takes bigint arguments: a number with a fraction cannot reach it.
    let calls: Vec<String> = cases
        .iter()
        .filter(|c| !c.0.contains('.') && !c.3.contains('.'))
        .map(|(s, a, k, r, f, d, _)| {
            format!(
                "SELECT * FROM \"single_coupon\"(\"subtotal\" => {s}, \"applied\" => {a}, \"kind\" => {k}, \"rate\" => {r}, \"face\" => {f}, \"dup\" => {d});"
            )
        })
        .collect();
    let script = format!(
        "\\set VERBOSITY verbose\nBEGIN;\nCREATE SCHEMA rulec_cross_language;\nSET LOCAL search_path TO rulec_cross_language;\n\\i single_coupon_function.sql\nSAVEPOINT s;\n{}\nROLLBACK;\n",
        calls.join("\nROLLBACK TO SAVEPOINT s;\n")
    );
    let mut child = std::process::Command::new("psql")
        .args(["-X", "-q", "-f", "-"])
        .current_dir(&sql)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let errors: Vec<String> = text(&out.stderr)
        .lines()
        .filter_map(|l| {
            l.strip_prefix("psql:<stdin>:").and_then(|l| l.split_once("ERROR:  ")).map(|(_, e)| e.to_string())
        })
        .collect();
    let want: Vec<String> =
        cases.iter().filter(|c| !c.0.contains('.') && !c.3.contains('.')).map(|c| format!("22023: {}", c.6)).collect();
    assert_eq!(errors, want, "the function raises SQLSTATE 22023 with the sentence:\n{}", text(&out.stderr));
}

/// Lines that probe how a runner reads JSON: numbers exact however they are written (a
/// point, an exponent, digits past 64 bits, past any float), the grammar's edges (leading
/// zeros, comments, trailing commas, escapes JSON has not, half a surrogate pair, a byte
/// order mark), keys given twice, record lines. Every runner hands its door what the
/// reference reads: the answers are `rulec eval`'s, byte for byte.
fn hostile_lines() -> Vec<String> {
    let call = |subtotal: &str, rest: &str| {
        format!(r#"{{"subtotal":{subtotal},"applied":0,"kind":"percent","rate":10,"face":0,"dup":false{rest}}}"#)
    };
    let numbers = [
        "10000",
        "1e4",
        "1E+4",
        "10000.0",
        "1.00000e4",
        "100000000e-4",
        "-0.0",
        "0e99",
        "-0e4000",
        "0e-4000",
        "1000.5",
        "1e-4",
        "1E400",
        "-1e400",
        "1e4000",
        "1e-4000",
        "99999999999999999999",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "9223372036854775806.0",
        "9223372036854775807.5",
        "1.5e19",
        "9.2233720368547758e18",
        "10000.000000000000000001",
        "1.0000000000000000001e4",
        "9999.9999999999999999999",
        "0.0000000000000000000000000000000000000001e44",
        "100000000000000000000000e-19",
        "12345678901234567890e-16",
        "1e0000000000000000001",
        "1e+0004",
        "10000E-0",
        "01",
        "00",
        "-01",
        "1.",
        ".5",
        "+1",
        "-",
        "1e",
        "1e+",
        "0x10",
        "1_000",
        "Infinity",
        "-Infinity",
        "NaN",
        "\"10000\"",
        "true",
        "null",
        "[]",
        "{}",
    ];
    let mut lines: Vec<String> = numbers.iter().map(|n| call(n, "")).collect();
    for rest in [
        r#","subtotal":1"#,
        r#","subtotal":null"#,
        r#","x":[1,{"y":[null,true]}],"z":{}"#,
        r#","\ud83d\ude00":1"#,
        r#","\ud800":1"#,
        r#","\udc00x":1"#,
        r#","\ud800abc\udc00":1"#,
        r#","a\u0000b":1"#,
        r#","":1"#,
        r#","kind":"fixed""#,
        r#","kind":"Percent""#,
        r#","k\u0069nd":"fixed""#,
        r#","note":"a\ttab""#,
        ",\"note\":\"a\ttab\"",
        ",\"note\":\"\u{7f}\u{2028}\"",
        r#","note":"\x41""#,
        r#","note":"\u12""#,
        r#","note":"x\\""#,
        r#","note":"[[{{""#,
        ",",
    ] {
        lines.push(call("10000", rest));
    }
    let plain = call("10000", "");
    for (from, to) in [
        (r#""percent""#, r#""per\u0063ent""#),
        (r#""percent""#, r#""percent ""#),
        (r#""dup":false"#, r#""dup":0"#),
        (r#""dup":false"#, r#""dup":False"#),
        (r#""rate":10"#, r#""rate":1e1"#),
        (r#""rate":10"#, r#""rate":-0"#),
        (":", " : "),
        (",", " ,\t"),
    ] {
        lines.push(plain.replace(from, to));
    }
    for (before, after) in
        [("", "x"), ("", " "), (" ", ""), ("\t", ""), ("\u{feff}", ""), ("", "//c"), ("", "/**/"), ("", "{}")]
    {
        lines.push(format!("{before}{plain}{after}"));
    }
    for record in [
        format!(r#"{{"tag":"t","in":{plain},"observed":{{}}}}"#),
        format!(r#"{{"tag":5,"in":{plain},"observed":{{}}}}"#),
        format!(r#"{{"in":{plain},"in":{{"subtotal":1}}}}"#),
        format!(r#"{{"observed":{{}},"in":{plain}}}"#),
        r#"{"in":5}"#.to_string(),
        r#"{"in":null}"#.to_string(),
    ] {
        lines.push(record);
    }
    for bad in [
        "[1,2]",
        "\"text\"",
        "42",
        "null",
        "{\"a\":}",
        "{,}",
        "{",
        "}",
        "{}",
        "{\"a\":1,}",
        "{'a':1}",
        "{\"a\" 1}",
        "{\"a\":1 \"b\":2}",
        "{\"subtotal\":1e5,\"subtotal\":\"x\"}",
    ] {
        lines.push(bad.to_string());
    }
    lines.extend(nested_lines().into_iter().map(|(line, _)| line));
    lines
}

/// Lines nested around serde_json's limit, each with whether the reference reads it: 127
/// arrays and objects (the line's own object among them) are read, 128 are no JSON, however
/// deep and whatever they hold. The JSON libraries of the runners draw lines of their own by
/// default (Ruby's at 100, PHP's at 512, Go's at 10000, Python's at its recursion limit).
fn nested_lines() -> Vec<(String, bool)> {
    const LIMIT: usize = 127;
    let call = |x: &str| {
        format!(r#"{{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false,"x":{x}}}"#)
    };
    let arrays = |n: usize, inside: &str| format!("{}{inside}{}", "[".repeat(n), "]".repeat(n));
    let objects = |n: usize| format!("{}{{}}{}", r#"{"a":"#.repeat(n - 1), "}".repeat(n - 1));
    let mut lines = Vec::new();
    // `depth` arrays and objects in all: the call's object and depth - 1 in x.
    for depth in [99, 100, 101, 126, 127, 128, 129, 1000, 100_000] {
        lines.push((call(&arrays(depth - 1, "")), depth <= LIMIT));
        lines.push((call(&objects(depth - 1)), depth <= LIMIT));
    }
    // Brackets in a string do not count, an escaped quote does not end one, an escaped
    // backslash does not escape the quote after it.
    lines.push((call(&arrays(LIMIT - 1, r#""a\"[[[[{{""#)), true));
    lines.push((call(&arrays(LIMIT - 2, r#""[[[[","]]]]""#)), true));
    lines.push((call(&format!(r#"["\\",{}]"#, arrays(LIMIT - 2, ""))), true));
    lines.push((call(&format!(r#"["\\",{}]"#, arrays(LIMIT - 1, ""))), false));
    // A record's `in` is a level deeper: the whole line is what serde_json reads.
    lines.push((format!(r#"{{"in":{}}}"#, call(&arrays(LIMIT - 2, ""))), true));
    lines.push((format!(r#"{{"in":{}}}"#, call(&arrays(LIMIT - 1, ""))), false));
    lines.push((format!(r#"{{"in":{},"observed":{}}}"#, call("1"), arrays(LIMIT, "")), false));
    lines
}

#[test]
fn every_runner_reads_a_hostile_line_as_the_reference_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(format!("{ROOT}/tests/corpus/single_coupon.rule"), d.join("single_coupon.rule")).unwrap();
    let out = rulec(&["gen", "single_coupon.rule", "--out", "generated", "--no-servers", "--no-lock", "-q"], d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let vectors = d.join("generated/vectors");
    for helpers in ["_helpers.jsonl", "_helpers.expected.jsonl"] {
        std::fs::remove_file(vectors.join(helpers)).unwrap();
    }
    let lines = hostile_lines().join("\n") + "\n";
    std::fs::write(vectors.join("single_coupon.jsonl"), &lines).unwrap();
    let answers = feed(common::BIN, &["eval", "single_coupon.rule", "--in", "-"], d, lines.as_bytes());
    assert_eq!(answers.lines().count(), hostile_lines().len(), "one answer a line");
    // The nested lines probe the reference's own edge: read below it, no JSON past it.
    let nested = nested_lines();
    let tail = answers.lines().skip(hostile_lines().len() - nested.len());
    for ((line, read), answer) in nested.iter().zip(tail) {
        let not_json = answer == r#"{"refused":"input","error":"the input is not an object"}"#;
        assert_eq!(!not_json, *read, "{answer} for {}", &line[..line.len().min(200)]);
    }
    std::fs::write(vectors.join("single_coupon.expected.jsonl"), &answers).unwrap();
    // The cases are real ones: each kind of answer appears.
    for sentence in ["\"observed\"", "not an integer", "out of range", "not an object", "is not an input", "is missing"]
    {
        assert!(answers.contains(sentence), "no line answers {sentence}");
    }
    assert_green(&test_json(&d.join("generated"), ""));
}
