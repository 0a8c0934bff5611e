//! DMN's multiple-hit policies (issue 28): `collect`, `rule_order`, `output_order` answer a
//! list, `collect sum|min|max|count` one value. What the reference evaluator answers and
//! traces, what the checker refuses (E077, E078), and what it proves of an aggregate: no false
//! gap, a sum's declared range (E107) and its running total in int64 (E108), each finding with
//! a witness the evaluator confirms.

mod common;

use rulec::analysis::Options;
use rulec::eval::{self, wire};
use rulec::sema::{Program, Value};
use rulec::{check_text, Checked, Sources};
use serde_json::Value as Json;

fn check(text: &str) -> Checked {
    let mut sources = Sources::new();
    let path = format!("{}/tests/corpus/broken/in_memory.rule", env!("CARGO_MANIFEST_DIR"));
    check_text(&mut sources, &path, text, &Options::default())
}

fn codes(c: &Checked) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

fn program(c: &Checked) -> &Program {
    c.program.as_ref().expect("the rule lowers")
}

/// The record line the reference writes for one call.
fn answer(p: &Program, call: &str) -> Json {
    serde_json::from_str(&eval::answer(p, call, "")).unwrap()
}

const SCORE: &str = include_str!("multi_hit/score.rule");

#[test]
fn every_row_that_holds_counts_and_fires_in_the_order_it_counts() {
    let c = check(SCORE);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let p = program(&c);
    let got = answer(p, r#"{"age":45,"income":7000000,"employment":"self_employed","debts":4}"#);
    assert_eq!(
        got["observed"],
        serde_json::json!({"points":75,"hits":1,"flags":["unemployed","self_employed","student"],"limit":50,"ranked":["employed","self_employed","unemployed"]})
    );
    // Every row that holds, table by table; output_order's rows in their ranking, not as written.
    let trace: Vec<(String, u64)> = got["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["table"].as_str().unwrap().to_string(), f["row"].as_u64().unwrap()))
        .collect();
    let want = [
        ("points_of", 1),
        ("points_of", 2),
        ("points_of", 3),
        ("hits_of", 1),
        ("flags_of", 1),
        ("flags_of", 2),
        ("flags_of", 3),
        ("limit_of", 1),
        ("ranked_of", 2),
        ("ranked_of", 3),
        ("ranked_of", 1),
    ];
    assert_eq!(trace, want.map(|(t, r)| (t.to_string(), r)).to_vec());
    // No row holds: the default, none, zero and empty lists.
    let none = answer(p, r#"{"age":18,"income":0,"employment":"student","debts":0}"#);
    assert_eq!(none["observed"], serde_json::json!({"points":0,"hits":0,"flags":[],"limit":0,"ranked":[]}));
    assert_eq!(none["trace"], serde_json::json!([]));
}

#[test]
fn a_multiple_hit_table_is_canonical_and_round_trips() {
    let parsed = rulec::syntax::parse(SCORE, rulec::diag::FileId(0));
    assert!(parsed.diags.is_empty());
    assert_eq!(rulec::syntax::fmt::format_file(&parsed.file.expect("parses")), SCORE);
}

#[test]
fn a_result_the_policy_cannot_answer_is_e077_and_a_list_out_of_place_is_e078() {
    let base = "rule r v1\n\nenum tier: gold, silver\n\ninput age: int 18..100\n\n";
    let cases = [
        // A sum of strings.
        ("output s: string\n\ntable t collect sum -> s\n| age | s |\n|---|---|\n| >=25 | \"a\" |\n", "E077"),
        // Two results.
        ("output a: int 0..9\noutput b: int 0..9\n\ntable t collect count -> a, b\n| age | a | b |\n|---|---|---|\n| - | 1 | 1 |\n", "E077"),
        // A count that is not an int.
        ("output a: tier\n\ntable t collect count -> a\n| age | a |\n|---|---|\n| - | gold |\n", "E077"),
        // A list policy whose result is not a list.
        ("output a: tier\n\ntable t collect -> a\n| age | a |\n|---|---|\n| - | gold |\n", "E077"),
        // A default nothing folds.
        ("output a: int 0..9 default 1\n\ntable t first -> a\n| age | a |\n|---|---|\n| - | 1 |\n", "E077"),
        // A row that answers none.
        ("output a: int? 0..9\n\ntable t collect max -> a\n| age | a |\n|---|---|\n| - | none |\n", "E077"),
        // A list decided by one row.
        ("output a: list[tier]\n\ntable t first -> a\n| age | a |\n|---|---|\n| - | gold |\n", "E078"),
        // A list input.
        ("input xs: list[tier]\noutput a: int 0..9\n\ndefine a = 1\n", "E078"),
        // A list read by another table.
        ("output a: list[tier]\noutput b: int 0..9\n\ntable t collect -> a\n| age | a |\n|---|---|\n| - | gold |\n\ntable u -> b\n| a | b |\n|---|---|\n| - | 1 |\n", "E078"),
    ];
    for (rest, code) in cases {
        let text = format!("{base}{rest}");
        let c = check(&text);
        assert!(codes(&c).contains(&code), "expected {code} for\n{text}\ngot {:?}", codes(&c));
    }
}

#[test]
fn a_collect_table_has_no_false_gap_and_an_aggregate_without_an_answer_of_its_own_has_one() {
    // Under 18 no row holds: a list is empty, a count 0, a sum its default; a least with
    // neither a default nor `?` has no answer there (E101, with a witness).
    let rule = |policy: &str, out: &str| {
        format!(
            "rule r v1\n\ninput age: int 0..100\n\noutput a: {out}\n\ntable t {policy} -> a\n| age | a |\n|---|---|\n| >=18 | 1 |\n| >=65 | 2 |\n"
        )
    };
    for (policy, out) in [
        ("collect", "list[int]"),
        ("rule_order", "list[int]"),
        ("collect count", "int 0..9"),
        ("collect sum", "int 0..9 default 0"),
        ("collect min", "int 0..9 default 0"),
    ] {
        let c = check(&rule(policy, out));
        assert!(
            c.diagnostics.is_empty(),
            "{policy}: {:?}",
            c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
    let c = check(&rule("collect min", "int 0..9"));
    let gap = c.diagnostics.iter().find(|d| d.code == "E101").expect("a gap");
    let witness = gap.witness.as_ref().expect("with a witness");
    let p = program(&c);
    let inputs = wire::read_inputs(p, &witness["inputs"]).unwrap();
    assert!(matches!(eval::evaluate(p, &inputs), Err(eval::EvalError::NoRow { .. })));
}

/// A sum whose rows fit alone and in pairs, and overflow int64 only when all three hold.
const THREE: &str = "rule big v1

input a: int 0..10
input b: int 0..10

output total: money[JPY] default 0JPY

table t collect sum -> total
| a    | b    | total                  |
|------|------|------------------------|
| >=5  | -    | 4000000000000000000JPY |
| -    | >=5  | 4000000000000000000JPY |
| >=9  | >=9  | 4000000000000000000JPY |
";

#[test]
fn a_sum_that_overflows_only_when_three_rows_hold_is_e108_with_the_witness_that_makes_them_hold() {
    let c = check(THREE);
    let d = c.diagnostics.iter().find(|d| d.code == "E108").expect("the sum overflows");
    assert!(d.message.contains("overflows int64"), "{}", d.message);
    let p = program(&c);
    let inputs = wire::read_inputs(p, &d.witness.as_ref().expect("a witness")["inputs"]).unwrap();
    let out = eval::evaluate(p, &inputs).unwrap();
    assert_eq!(out.trace.len(), 3, "the witness makes all three rows hold");
    let total = match &out.values[p.var_by_name("total").unwrap()] {
        Value::Num(n) => n.to_integer(),
        other => panic!("{other:?}"),
    };
    assert!(total > i64::MAX.into());
    // Two rows alone fit: the same table without its third row is clean.
    let two: String = THREE.lines().filter(|l| !l.starts_with("| >=9")).map(|l| format!("{l}\n")).collect();
    let c = check(&two);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
}

#[test]
fn a_sum_past_its_declared_range_is_e107_with_a_witness_and_one_inside_it_is_proved() {
    let rule = |hi: u32| {
        format!(
            "rule r v1\n\ninput a: int 0..10\ninput b: int 0..10\n\noutput s: int 0..{hi} default 0\n\ntable t collect sum -> s\n| a | b | s |\n|---|---|---|\n| >=5 | - | 30 |\n| - | >=5 | 40 |\n| <3 | <3 | 5 |\n"
        )
    };
    // The most that holds together is rows 1 and 2: 70; rows 1 and 3 never meet.
    assert!(check(&rule(70)).diagnostics.is_empty(), "{:?}", codes(&check(&rule(70))));
    let c = check(&rule(69));
    let d = c.diagnostics.iter().find(|d| d.code == "E107").expect("past its range");
    assert!(d.message.contains("can reach 70"), "{}", d.message);
    let p = program(&c);
    let inputs = wire::read_inputs(p, &d.witness.as_ref().expect("a witness")["inputs"]).unwrap();
    let out = eval::evaluate(p, &inputs).unwrap();
    assert_eq!(out.values[p.var_by_name("s").unwrap()], Value::Num(rulec::num::int(70)));
}

#[test]
fn a_table_reading_a_sum_sees_every_value_the_sum_can_take() {
    // The grade table tests points >= 80, which only two rows together reach: reachable.
    let text = "rule r v1\n\ninput a: int 0..10\ninput b: int 0..10\n\noutput points: int 0..100 default 0\noutput grade: string\n\ntable p collect sum -> points\n| a | b | points |\n|---|---|---|\n| >=5 | - | 50 |\n| - | >=5 | 40 |\n\ntable g first -> grade\n| points | grade |\n|---|---|\n| >=80 | \"A\" |\n| - | \"B\" |\n";
    let c = check(text);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
}

/// The rules in every language: `rulec gen` leaves NumPy out of them, naming why (a list
/// output is not a column), and `rulec test` holds every other language to the reference,
/// lists (several side by side: offers.rule) and sums included (SQL on each engine it reaches).
#[test]
fn a_rule_of_multiple_hit_tables_agrees_with_the_reference_in_every_language_with_a_function() {
    agrees_in_every_language_with_a_function(&[("score", "flags"), ("offers", "offer")]);
}

/// Lists of amounts, dates, quantities, rates, strings and truth values, and aggregates that
/// answer none (or their default) where no row holds, in every language as in the reference.
#[test]
fn lists_of_amounts_and_dates_and_optional_aggregates_agree_with_the_reference_in_every_language() {
    agrees_in_every_language_with_a_function(&[("fees", "fees")]);
}

/// `rulec gen` of tests/multi_hit/NAME.rule for each (NAME, LIST), LIST a list output of it:
/// NumPy is left out, naming why, SQL writes the rule or is left out naming why, and `rulec
/// test` holds every other language to the reference, through its runner and through every
/// server beside it (the MCP tools; the Connect service, a list a `repeated` field, where buf
/// and its plugins are on PATH), and names what gen left out.
fn agrees_in_every_language_with_a_function(rules: &[(&str, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| format!("{}/tests/multi_hit/{name}.rule", env!("CARGO_MANIFEST_DIR"));
    let paths: Vec<String> = rules.iter().map(|(name, _)| path(name)).collect();
    let mut args = vec!["gen"];
    args.extend(paths.iter().map(String::as_str));
    args.extend(["--out", "out"]);
    let gen = common::rulec(&args, dir.path());
    let said = String::from_utf8_lossy(&gen.stderr).to_string();
    assert!(gen.status.success(), "{said}");
    for &(name, list) in rules {
        // Clean, its expects answered so by the reference (an aggregate's none among them).
        let check = common::rulec(&["check", &path(name)], dir.path());
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
        assert!(said.contains(&format!("note: {name}: NumPy cannot decide the output {list}")), "{said}");
        assert!(!dir.path().join(format!("out/numpy/{name}.plan.json")).exists());
        // SQL writes the rule, or says why not and writes none of it.
        let sql_left = said.contains(&format!("note: {name}: SQL "));
        assert_eq!(dir.path().join(format!("out/sql/{name}.sql")).exists(), !sql_left, "{said}");
        // The contract's field of the list is repeated, and the wire's schema says an array.
        let proto =
            std::fs::read_to_string(dir.path().join(format!("out/proto/rulec/{name}/v1/{name}.proto"))).unwrap();
        assert!(proto.lines().any(|l| l.starts_with("  repeated ") && l.contains(&format!(" {list} = "))), "{proto}");
        let schema = common::rulec(&["schema", &path(name)], dir.path());
        let schema: Json = serde_json::from_slice(&schema.stdout).expect("a JSON Schema");
        assert_eq!(schema["properties"]["out"]["properties"][list]["type"], "array", "{schema}");
    }
    // Named with --lang, a language that cannot write a rule is an error, and nothing is written.
    let numpy = common::rulec(&["gen", &paths[0], "--out", "numpy_only", "--lang", "numpy"], dir.path());
    assert!(!numpy.status.success() && !dir.path().join("numpy_only").exists());
    // Swift, which cannot be compiled here, is held to its grammar at least.
    if common::have_swift_grammar() {
        let swift = std::fs::read_dir(dir.path().join("out/swift")).unwrap();
        let files: Vec<String> = swift.map(|e| e.unwrap().path().display().to_string()).collect();
        common::swift_parses(&files).unwrap_or_else(|e| panic!("{e}"));
    }
    // As CI runs it: every installable language, `--require-all` (Swift is held to its grammar above).
    let report = common::test_json(&dir.path().join("out"), "");
    let connect = common::toolchain("the Connect service", &["buf", "protoc-gen-py", "protoc-gen-connectrpc"]);
    // A toolchain missing here is a skip the report names; CI has every one.
    let skipped: Vec<&str> =
        report["skipped"].as_array().unwrap().iter().map(|s| s["lang"].as_str().unwrap()).collect();
    assert!(std::env::var_os("CI").is_none() || skipped.is_empty(), "skipped under CI: {skipped:?}");
    let left: Vec<(&str, &str)> = (report["left_out"].as_array().unwrap().iter())
        .map(|l| (l["rule"].as_str().unwrap(), l["lang"].as_str().unwrap()))
        .collect();
    for &(name, _) in rules {
        let mut ran = Vec::new();
        for r in report["results"].as_array().unwrap().iter().filter(|r| r["rule"] == name) {
            let via = format!("{}/{}", r["lang"].as_str().unwrap(), r["via"].as_str().unwrap());
            if r["ran"] == true {
                assert_eq!(r["ok"], true, "{via}: {r}");
                ran.push(via);
            } else {
                let absent = r["lang"] == "swift" || (!connect && via.starts_with("python/connect"));
                assert!(absent, "only Swift (and the Connect service without buf) may be absent here: {r}");
            }
        }
        let mut want = vec!["python/runner", "typescript/runner", "javascript/runner", "rust/runner", "go/runner"];
        want.extend(["java/runner", "ruby/runner", "php/runner", "wasm/runner", "sql/sqlite"]);
        want.extend(["python/mcp", "python/mcp-http", "javascript/mcp", "javascript/mcp-http"]);
        if connect {
            want.extend([
                "python/connect-asgi",
                "python/connect-asgi-get",
                "python/connect-wsgi",
                "python/connect-wsgi-get",
            ]);
        }
        // What gen left out, `rulec test` names, and does not run.
        assert!(left.contains(&(name, "numpy")), "{name}: {left:?}");
        let sql_left = left.contains(&(name, "sql"));
        assert_eq!(sql_left, said.contains(&format!("note: {name}: SQL ")), "{name}: {left:?}");
        for via in want {
            let absent = skipped.contains(&via.split('/').next().unwrap()) || (sql_left && via.starts_with("sql/"));
            assert!(absent || ran.iter().any(|r| r == via), "{name}: {via} did not run: {ran:?}");
        }
    }
}

/// `rulec test` of `rules` (under tests/multi_hit) generated for `langs`, every result green:
/// which (rule, pass) pairs ran.
fn held(rules: &[&str], langs: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<std::path::PathBuf> =
        rules.iter().map(|r| format!("{}/tests/multi_hit/{r}.rule", env!("CARGO_MANIFEST_DIR")).into()).collect();
    common::generate(&paths, langs, dir.path());
    let report = common::test_json(dir.path(), langs);
    common::assert_green(&report);
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap().to_string(), r["via"].as_str().unwrap().to_string()))
        .collect()
}

/// `rules` held to the reference on every SQL engine here (SQLite always; PostgreSQL and
/// DuckDB where they are reachable): false when python3 is not, as `common::toolchain` says.
fn held_on_every_sql_engine(test: &str, rules: &[&str]) -> bool {
    if !common::toolchain(test, &["python3"]) {
        return false;
    }
    let (server, duck) = (common::postgres(test), common::duckdb(test));
    let ran = held(rules, "sql");
    for rule in rules {
        let vias = [("sqlite", true), ("postgresql", server), ("duckdb", duck)];
        for (via, _) in vias.into_iter().filter(|(_, here)| *here) {
            assert!(ran.contains(&(rule.to_string(), via.to_string())), "{rule} did not run on {via}: {ran:?}");
        }
    }
    true
}

/// A sum with a default (negative values among its rows), a count, a maximum of money (one
/// row's value computed and rounded) and a minimum of dates, each fold and the trace of every
/// row that holds held to the reference on SQLite, PostgreSQL and DuckDB, and in NumPy.
#[test]
fn the_aggregates_agree_with_the_reference_in_sql_on_every_engine_and_in_numpy() {
    let test = "the_aggregates_agree_with_the_reference_in_sql_on_every_engine_and_in_numpy";
    if !held_on_every_sql_engine(test, &["aggregates"]) {
        return;
    }
    if std::process::Command::new("python3").args(["-c", "import numpy"]).status().is_ok_and(|s| s.success()) {
        let ran = held(&["aggregates"], "numpy");
        assert!(ran.contains(&("aggregates".to_string(), "runner".to_string())), "{ran:?}");
    } else {
        eprintln!("note: {test}: numpy is not installed, NumPy not run");
    }
}

/// A list output in SQL, the text of its JSON array on every engine: of numbers computed per
/// call, of an enum read from an input, of truth values, of string literals that JSON escapes,
/// and `output_order`'s ranking (tests/multi_hit/score.rule).
#[test]
fn a_list_output_agrees_with_the_reference_in_sql_on_every_engine() {
    held_on_every_sql_engine("a_list_output_agrees_with_the_reference_in_sql_on_every_engine", &["lists", "score"]);
}

/// What SQL and NumPy still cannot write is refused by name, with the reason: NumPy any list
/// output, SQL a list of strings computed per call (its JSON escaping is each engine's own).
#[test]
fn what_sql_and_numpy_cannot_write_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let lists = format!("{}/tests/multi_hit/lists.rule", env!("CARGO_MANIFEST_DIR"));
    let numpy = common::rulec(&["gen", &lists, "--out", "out", "--lang", "numpy"], dir.path());
    let said = String::from_utf8_lossy(&numpy.stderr);
    assert!(!numpy.status.success(), "{said}");
    assert!(said.contains("lists: NumPy cannot decide the output doubled: a list output is not a column"), "{said}");
    let rule = dir.path().join("names.rule");
    std::fs::write(
        &rule,
        "rule names v1\n\ninput name: string\n\noutput names: list[string]\n\ntable names_of collect -> names\n| name | names |\n|------|-------|\n| -    | name  |\n| -    | \"x\"   |\n",
    )
    .unwrap();
    let sql = common::rulec(&["gen", rule.to_str().unwrap(), "--out", "out", "--lang", "sql"], dir.path());
    let said = String::from_utf8_lossy(&sql.stderr);
    assert!(!sql.status.success() && !dir.path().join("out").exists(), "{said}");
    assert!(
        said.contains("names: SQL cannot return the list output names: an element of it is a string computed per call"),
        "{said}"
    );
}

/// Replay reads a list from a record and says when one moved: the reference's records of
/// its own vectors match, and a record whose list differs is named with both lists.
#[test]
fn replay_holds_recorded_lists_to_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let rule = format!("{}/tests/multi_hit/score.rule", env!("CARGO_MANIFEST_DIR"));
    let vectors = common::rulec(&["vectors", &rule], dir.path());
    let calls: String = String::from_utf8_lossy(&vectors.stdout)
        .lines()
        .filter(|l| !l.contains("\"refused\""))
        .map(|l| serde_json::from_str::<Json>(l).unwrap()["in"].to_string() + "\n")
        .collect();
    let records = common::with_stdin(&["eval", &rule, "--in", "-"], dir.path(), calls.as_bytes());
    let mut lines: Vec<Json> =
        String::from_utf8_lossy(&records.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.len() > 5);
    std::fs::write(dir.path().join("same.jsonl"), lines.iter().map(|l| l.to_string() + "\n").collect::<String>())
        .unwrap();
    let same = common::rulec(&["replay", &rule, "--fixtures", "same.jsonl", "--format", "json"], dir.path());
    let report: Json = serde_json::from_slice(&same.stdout).expect("a JSON report");
    assert_eq!(report["compared"], report["matched"], "{report}");
    let moved = if lines[3]["observed"]["flags"] == serde_json::json!(["student"]) { "[]" } else { r#"["student"]"# };
    lines[3]["observed"]["flags"] = serde_json::from_str(moved).unwrap();
    std::fs::write(dir.path().join("moved.jsonl"), lines.iter().map(|l| l.to_string() + "\n").collect::<String>())
        .unwrap();
    let out = common::rulec(&["replay", &rule, "--fixtures", "moved.jsonl"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("flags changed"), "{text}");
    let theirs = if moved == "[]" { "theirs points".to_string() } else { "flags = [student]".to_string() };
    assert!(text.contains(&theirs), "{text}");
}

/// `rulec diff` over records follows every row that holds; over every input it says it does
/// not read a multiple-hit table yet, rather than answer from one row per table.
#[test]
fn diff_compares_two_versions_over_records_and_says_what_it_cannot_do_over_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = std::fs::read_to_string(format!("{}/tests/multi_hit/score.rule", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let v2 = v1
        .replace("rule score v1", "rule score v2")
        .replace("| >=3   | -             | student       |", "| >=4   | -             | student       |");
    assert_ne!(v1.replace("rule score v1", "rule score v2"), v2, "the edit applies");
    std::fs::write(dir.path().join("v1.rule"), &v1).unwrap();
    std::fs::write(dir.path().join("v2.rule"), &v2).unwrap();
    let calls = "{\"age\":18,\"income\":0,\"employment\":\"employed\",\"debts\":3}\n{\"age\":18,\"income\":0,\"employment\":\"employed\",\"debts\":5}\n";
    let records = common::with_stdin(&["eval", "v1.rule", "--in", "-"], dir.path(), calls.as_bytes());
    std::fs::write(dir.path().join("records.jsonl"), &records.stdout).unwrap();
    let over = common::rulec(&["diff", "v1.rule", "v2.rule", "--fixtures", "records.jsonl"], dir.path());
    let text = String::from_utf8_lossy(&over.stdout);
    assert!(text.contains("Compared 2 / matched 1") && text.contains("flags changed"), "{text}");
    assert!(text.contains("new points = 30, hits = 1, flags = [unemployed]"), "{text}");
    let every = common::rulec(&["diff", "v1.rule", "v2.rule"], dir.path());
    let said = String::from_utf8_lossy(&every.stderr);
    assert!(!every.status.success(), "{said}");
    assert!(said.contains("diff over every input does not read a `collect sum` table yet"), "{said}");
}
