//! The SQL backend over every rule (tests/corpus, tests/rules): the query held to the
//! reference evaluator on SQLite, on a real PostgreSQL and (its DuckDB text) on DuckDB, the
//! function on PostgreSQL, the helpers' arithmetic and java.math.RoundingMode's table of the
//! seven roundings on all three; two runs on one database at once; the passes that need a
//! server or DuckDB's module reported `ran: false` without them; the runners lint clean; the
//! function holds the query as it is; every name `rulec api` gives is in the files; the
//! same bytes twice.
//!
//! The PostgreSQL is the one libpq's environment names (PGHOST, PGPORT, PGUSER,
//! PGDATABASE): .ci/run starts one. Without it (or without python3, psql, ruff, mypy) a
//! test prints a note and passes — unless CI is set, where it fails.

mod common;
use common::*;
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

fn stems() -> Vec<String> {
    rules().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect()
}

/// The rule's identifier as the vectors name it (the alias, or the name): what the runner is called.
fn bases(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir.join("vectors"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".expected.jsonl").map(str::to_string))
        .collect();
    out.sort();
    out
}

#[test]
fn every_rule_agrees_with_the_reference_on_sqlite_postgresql_and_duckdb() {
    let test = "every_rule_agrees_with_the_reference_on_sqlite_postgresql_and_duckdb";
    if !toolchain(test, &["python3"]) {
        return;
    }
    let (server, duck) = (postgres(test), duckdb(test));
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let report = test_json(dir.path(), "sql");
    assert_green(&report);
    let ran: BTreeSet<(String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap().to_string(), r["via"].as_str().unwrap().to_string()))
        .collect();
    let mut want = BTreeSet::new();
    for rule in bases(dir.path()) {
        want.insert((rule.clone(), "sqlite".to_string()));
        if server {
            want.insert((rule.clone(), "postgresql".to_string()));
        }
        if duck {
            want.insert((rule, "duckdb".to_string()));
        }
    }
    assert_eq!(ran, want, "every rule and the helpers' vectors, through every door");
    assert_eq!(bases(dir.path()).len(), stems().len() + 1);
}

/// The query file itself, unchanged, over a relation on PostgreSQL whose number columns are
/// numeric (so a number with a fraction reaches the query's own check).
#[test]
fn the_query_runs_unchanged_on_postgresql() {
    if !toolchain("the_query_runs_unchanged_on_postgresql", &["python3"])
        || !postgres("the_query_runs_unchanged_on_postgresql")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    for base in bases(dir.path()).iter().filter(|b| *b != "_helpers") {
        let vectors = std::fs::read(dir.path().join(format!("vectors/{base}.jsonl"))).unwrap();
        let want = std::fs::read_to_string(dir.path().join(format!("vectors/{base}.expected.jsonl"))).unwrap();
        let got = runner(&dir.path().join("sql"), base, &["--postgresql-query"], &vectors);
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{base}: line {} of the query over a PostgreSQL relation", i + 1);
        }
        assert_eq!(got.lines().count(), want.lines().count(), "{base}");
    }
}

fn runner(sql: &Path, base: &str, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new("python3")
        .arg("-B")
        .arg(format!("{base}_runner.py"))
        .args(args)
        .current_dir(sql)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{base} {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Cases no vector holds, each answered as the reference answers it, by every door: a
/// number with a fraction inside the range (refused, not truncated), ends of int64, a
/// number past it, an unknown key after a broken input, a string where a number goes.
#[test]
fn the_doors_refuse_what_the_reference_refuses_in_its_order() {
    if !toolchain("the_doors_refuse_what_the_reference_refuses_in_its_order", &["python3"]) {
        return;
    }
    let server = postgres("the_doors_refuse_what_the_reference_refuses_in_its_order");
    let dir = tempfile::tempdir().unwrap();
    let rule = Path::new(ROOT).join("tests/corpus/single_coupon.rule");
    generate(std::slice::from_ref(&rule), "sql", dir.path());
    let ok = r#""subtotal":5000,"applied":0,"kind":"percent","face":0,"dup":false"#;
    let lines = [
        format!(r#"{{{ok},"rate":18.3}}"#),
        format!(r#"{{{ok},"rate":18.0}}"#),
        format!(r#"{{{ok},"rate":1e1}}"#),
        format!(r#"{{{ok},"rate":-0.0}}"#),
        format!(r#"{{{ok},"rate":9223372036854775807}}"#),
        format!(r#"{{{ok},"rate":-9223372036854775808}}"#),
        format!(r#"{{{ok},"rate":9223372036854775808}}"#),
        format!(r#"{{{ok},"rate":1e400}}"#),
        format!(r#"{{{ok},"rate":0.5e-400}}"#),
        format!(r#"{{{ok},"rate":"18"}}"#),
        r#"{"subtotal":"5000","applied":1e30,"kind":"percent","rate":1,"face":0,"dup":false}"#.into(),
        r#"{"subtotal":100,"applied":200,"kind":"percent","rate":1,"face":0.5,"dup":false}"#.into(),
        r#"{"subtotal":100,"applied":200,"kind":"percent","rate":1,"face":0,"dup":false,"extra":1}"#.into(),
        r#"{"subtotal":100,"applied":50,"kind":7,"rate":200,"face":0,"dup":false,"extra":1}"#.into(),
        r#"{"subtotal":100,"applied":50,"kind":"percent","rate":1,"face":0,"dup":"no","extra":1}"#.into(),
        r#"{"in":{"subtotal":100,"applied":50,"kind":"fixed","rate":1,"face":10,"dup":false}}"#.into(),
        r#"[1, 2]"#.into(),
        r#"not json"#.into(),
    ];
    let input = lines.join("\n") + "\n";
    let mut reference = common::command()
        .args(["eval", "--in", "-", rule.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    reference.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let want = text(&reference.wait_with_output().unwrap().stdout);
    assert_eq!(want.lines().count(), lines.len(), "{want}");
    let sql = dir.path().join("sql");
    let mut doors = vec![("sqlite", runner(&sql, "single_coupon", &[], input.as_bytes()))];
    if duckdb("the_doors_refuse_what_the_reference_refuses_in_its_order") {
        doors.push(("duckdb", runner(&sql, "single_coupon", &["--duckdb"], input.as_bytes())));
    }
    if server {
        doors.push(("postgresql", runner(&sql, "single_coupon", &["--postgresql"], input.as_bytes())));
        doors.push(("postgresql-query", runner(&sql, "single_coupon", &["--postgresql-query"], input.as_bytes())));
    }
    for (door, got) in doors {
        assert_eq!(got.lines().count(), lines.len(), "{door}: {got}");
        for ((line, w), g) in lines.iter().zip(want.lines()).zip(got.lines()) {
            assert_eq!(g, w, "{door}: {line}");
        }
    }
}

/// Two `rulec test` runs on one database at once: both pass, and no schema of theirs stays.
#[test]
fn two_runs_on_one_database_at_once_both_pass_and_leave_no_schema() {
    if !toolchain("two_runs_on_one_database_at_once_both_pass_and_leave_no_schema", &["python3"])
        || !postgres("two_runs_on_one_database_at_once_both_pass_and_leave_no_schema")
    {
        return;
    }
    let schemas = || {
        let out = Command::new("psql")
            .args(["-X", "-q", "-A", "-t", "-c", "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'rulec_test_%'"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).trim().parse::<u64>().unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let run = || {
        common::command()
            .arg("test")
            .arg(dir.path())
            .args(["--lang", "sql", "--format", "json", "--require-all"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (run(), run());
    for out in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()] {
        let report: Json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
        assert!(out.status.success(), "{report:#}");
        let results = report["results"].as_array().unwrap();
        assert!(results.iter().any(|r| r["via"] == "postgresql"), "{report:#}");
        assert!(results.iter().all(|r| r["ok"] == true && r["ran"] == true), "{report:#}");
    }
    assert_eq!(schemas(), 0, "a run left a schema behind");
}

/// Without a server to reach, the function's pass is not run, says why, and fails
/// `--require-all`; the query's pass runs all the same.
#[test]
fn without_a_server_the_postgresql_pass_is_not_run_and_says_why() {
    if !toolchain("without_a_server_the_postgresql_pass_is_not_run_and_says_why", &["python3", "psql"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&[Path::new(ROOT).join("tests/corpus/parcel_rate.rule")], "sql", dir.path());
    // A port nothing listens on: one just closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let out = common::command()
        .arg("test")
        .arg(dir.path())
        .args(["--lang", "sql", "--format", "json", "--require-all"])
        .env("PGHOST", "127.0.0.1")
        .env("PGPORT", &port)
        .output()
        .unwrap();
    let report: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "--require-all fails: {report:#}");
    let skipped: Vec<&Json> = report["skipped"].as_array().unwrap().iter().filter(|s| s["via"] != "duckdb").collect();
    assert_eq!(skipped.len(), 1, "{report:#}");
    assert_eq!((skipped[0]["lang"].as_str(), skipped[0]["via"].as_str()), (Some("sql"), Some("postgresql")));
    assert_eq!(skipped[0]["ran"], false);
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(reason.contains("psql") && reason.contains(&port), "{reason}");
    let results: Vec<&Json> = report["results"].as_array().unwrap().iter().filter(|r| r["via"] != "duckdb").collect();
    assert_eq!(results.len(), 2, "parcel_rate and the helpers, on SQLite: {report:#}");
    assert!(results.iter().all(|r| r["via"] == "sqlite" && r["ok"] == true), "{report:#}");
    // The text report names the pass.
    let out = common::command()
        .arg("test")
        .arg(dir.path())
        .args(["--lang", "sql"])
        .env("PGHOST", "127.0.0.1")
        .env("PGPORT", &port)
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(said.contains("not run sql, postgresql (ran: false): psql"), "{said}");
    assert!(said.contains("ok parcel_rate (sql, sqlite) 38 vectors"), "{said}");
    assert!(out.status.success(), "without --require-all a pass not run does not fail the run");
}

#[test]
fn the_runners_pass_ruff_and_mypy_strict() {
    if !toolchain("the_runners_pass_ruff_and_mypy_strict", &["python3", "ruff", "mypy"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let sql = dir.path().join("sql");
    let mut sources: Vec<_> = std::fs::read_dir(&sql)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    sources.sort();
    assert_eq!(sources.len(), stems().len() + 1, "a runner per rule and the helpers' runner");
    // The fixed text as it stands too (with the sections it copies from the Python
    // backend's runtime files put in), and the shared pieces as they stand.
    let fixed = std::fs::read_to_string(Path::new(ROOT).join("src/gen/sql/runtime/runner.py")).unwrap();
    let fixed_path = dir.path().join("fixed_runner.py");
    std::fs::write(&fixed_path, rulec::gen::python::shared::copy(&fixed)).unwrap();
    sources.push(fixed_path);
    sources.push(Path::new(ROOT).join("src/gen/python/runtime/script.py"));
    let ruff = Command::new("ruff")
        .args(["check", "--no-cache", "--select", "E,W,F", "--ignore", "E501", "--output-format", "concise"])
        .args(&sources)
        .output()
        .unwrap();
    assert!(ruff.status.success(), "ruff:\n{}{}", text(&ruff.stdout), text(&ruff.stderr));
    let mypy = Command::new("mypy")
        .args(["--strict", "--no-incremental", "--cache-dir"])
        .arg(dir.path().join(".mypy_cache"))
        .args(&sources)
        .output()
        .unwrap();
    assert!(mypy.status.success(), "mypy --strict:\n{}{}", text(&mypy.stdout), text(&mypy.stderr));
}

/// runtime/functions.sql runs on PostgreSQL as it stands (in a transaction rolled back).
#[test]
fn the_fixed_sql_runs_on_postgresql_as_it_stands() {
    if !postgres("the_fixed_sql_runs_on_postgresql_as_it_stands") {
        return;
    }
    let fixed = std::fs::read_to_string(Path::new(ROOT).join("src/gen/sql/runtime/functions.sql")).unwrap();
    let script = format!(
        "BEGIN;\nCREATE SCHEMA rulec_fixed_text;\nSET LOCAL search_path TO rulec_fixed_text;\n{fixed}\n\
         SELECT rulec_isqrt(99), rulec_isqrt(100), rulec_isqrt(9223372036854775807), rulec_isqrt(-5), rulec_isqrt(NULL) IS NULL;\n\
         ROLLBACK;\n"
    );
    let mut child = Command::new("psql")
        .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "9|10|3037000499|0|t");
}

/// The function's body is the query's text, byte for byte, behind the one CTE that binds
/// the arguments.
#[test]
fn the_function_holds_the_query_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let sql = dir.path().join("sql");
    for rule in rules() {
        let api = api(&rule, "sql");
        let query = std::fs::read_to_string(sql.join(api["file"].as_str().unwrap())).unwrap();
        let function = std::fs::read_to_string(sql.join(api["function"]["file"].as_str().unwrap())).unwrap();
        let at = query.find("\nWITH \"_c0\" AS (").expect("the query starts after its header");
        let body = query[at + "\nWITH ".len()..].trim_end().trim_end_matches(';');
        assert!(
            function.contains(&format!("),\n{body}\n  LOOP\n")),
            "{}: the function's query differs",
            rule.display()
        );
        let bind = format!("WITH \"{}\" AS (\n  SELECT\n    1 AS \"_id\"", api["input"].as_str().unwrap());
        assert!(function.contains(&bind), "{}", rule.display());
    }
}

/// Every name `rulec api` gives is in the file it names: the relation, its columns, the
/// outputs and rows the query returns, the function's signature.
#[test]
fn every_name_rulec_api_gives_is_in_the_files() {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let sql = dir.path().join("sql");
    for rule in rules() {
        let api = api(&rule, "sql");
        let query = std::fs::read_to_string(sql.join(api["file"].as_str().unwrap())).unwrap();
        let quoted = |name: &str| format!("\"{}\"", name.replace('"', "\"\""));
        assert!(query.contains(&format!("FROM {}\n", quoted(api["input"].as_str().unwrap()))), "{}", rule.display());
        let view = format!("\nCREATE VIEW {} AS\nWITH ", quoted(api["view"].as_str().unwrap()));
        assert!(query.contains(&view), "{}", rule.display());
        let last = &query[query.rfind("\nSELECT\n").unwrap()..];
        for c in api["columns"].as_array().unwrap() {
            assert!(
                last.contains(&format!("  {},\n", quoted(c["alias"].as_str().unwrap()))),
                "{}: {c}",
                rule.display()
            );
        }
        // An output and a row are NULL where the call is refused.
        let answered = |name: &str| format!(" THEN {} END AS {},\n", quoted(name), quoted(name));
        for c in api["outputs"].as_array().unwrap() {
            assert!(last.contains(&answered(c["alias"].as_str().unwrap())), "{}: {c}", rule.display());
        }
        for r in api["rows"].as_array().unwrap() {
            assert!(last.contains(&answered(r["column"].as_str().unwrap())), "{}: {r}", rule.display());
        }
        assert!(last.contains(&format!("  {}", quoted(api["guard"].as_str().unwrap()))));
        let function = std::fs::read_to_string(sql.join(api["function"]["file"].as_str().unwrap())).unwrap();
        let signature = api["function"]["signature"].as_str().unwrap().replacen(" RETURNS", "\nRETURNS", 1);
        assert!(function.contains(&format!("CREATE FUNCTION {signature}\n")), "{}: {signature}", rule.display());
        assert!(signature.starts_with(&quoted(api["function"]["name"].as_str().unwrap())));
        assert_eq!(api["function"]["raises"], "22023");
    }
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate(&rules(), "sql", a.path());
    generate(&rules(), "sql", b.path());
    let (ta, tb) = (tree(&a.path().join("sql")), tree(&b.path().join("sql")));
    assert_eq!(
        ta.len(),
        4 * stems().len() + 4,
        "a query, its DuckDB text, a function and a runner per rule; the helpers' four"
    );
    assert_eq!(ta, tb);
}

/// Without DuckDB's module to import, its pass is not run, says why, and fails
/// `--require-all`; the SQLite pass runs all the same. A `duckdb` module that refuses to
/// load, first on PYTHONPATH, stands in for a machine without it.
#[test]
fn without_duckdb_its_pass_is_not_run_and_says_why() {
    if !toolchain("without_duckdb_its_pass_is_not_run_and_says_why", &["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&[Path::new(ROOT).join("tests/corpus/parcel_rate.rule")], "sql", dir.path());
    let hidden = dir.path().join("no_duckdb");
    std::fs::create_dir(&hidden).unwrap();
    std::fs::write(hidden.join("duckdb.py"), "raise ImportError('no DuckDB on this machine')\n").unwrap();
    let out = common::command()
        .arg("test")
        .arg(dir.path())
        .args(["--lang", "sql", "--format", "json", "--require-all"])
        .env("PYTHONPATH", &hidden)
        .output()
        .unwrap();
    let report: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "--require-all fails: {report:#}");
    let skipped: Vec<&Json> = report["skipped"].as_array().unwrap().iter().filter(|s| s["via"] == "duckdb").collect();
    assert_eq!(skipped.len(), 1, "{report:#}");
    assert_eq!((skipped[0]["lang"].as_str(), skipped[0]["ran"].as_bool()), (Some("sql"), Some(false)));
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(reason.contains("import duckdb") && reason.contains("no DuckDB on this machine"), "{reason}");
    let results = report["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["via"] == "sqlite"), "{report:#}");
    assert!(results.iter().all(|r| r["via"] != "duckdb" && r["ok"] == true), "{report:#}");
}

/// java.math.RoundingMode's documented table of the seven roundings (the input, then
/// UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN, HALF_EVEN), in tenths.
const ROUNDING_TABLE: [(i64, [i64; 7]); 10] = [
    (55, [6, 5, 6, 5, 6, 5, 6]),
    (25, [3, 2, 3, 2, 3, 2, 2]),
    (16, [2, 1, 2, 1, 2, 2, 2]),
    (11, [2, 1, 2, 1, 1, 1, 1]),
    (10, [1, 1, 1, 1, 1, 1, 1]),
    (-10, [-1, -1, -1, -1, -1, -1, -1]),
    (-11, [-2, -1, -1, -2, -1, -1, -1]),
    (-16, [-2, -1, -1, -2, -2, -2, -2]),
    (-25, [-3, -2, -2, -3, -3, -2, -2]),
    (-55, [-6, -5, -5, -6, -6, -5, -6]),
];

/// The helpers' query rounds every quotient of the table as the table says, on SQLite,
/// PostgreSQL and DuckDB: each input as tenths over 10 (the divisor a column, and written
/// in, which must agree) and as minus tenths over -10.
#[test]
fn the_roundings_follow_java_s_table_on_every_engine() {
    let test = "the_roundings_follow_java_s_table_on_every_engine";
    if !toolchain(test, &["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&[Path::new(ROOT).join("tests/corpus/parcel_rate.rule")], "sql", dir.path());
    let modes = ["up", "down", "ceiling", "floor", "half_up", "half_down", "half_even"];
    let (mut cases, mut want) = (String::new(), String::new());
    for (tenths, rounded) in ROUNDING_TABLE {
        for (mode, r) in modes.iter().zip(rounded) {
            for (a, b) in [(tenths, 10), (-tenths, -10)] {
                cases.push_str(&format!("{{\"op\":\"quot_{mode}\",\"a\":\"{a}\",\"b\":\"{b}\"}}\n"));
                want.push_str(&format!("{{\"result\":\"{r}\"}}\n"));
            }
        }
    }
    let sql = dir.path().join("sql");
    let mut engines = vec![("sqlite", runner(&sql, "_helpers", &[], cases.as_bytes()))];
    if postgres(test) {
        engines.push(("postgresql", runner(&sql, "_helpers", &["--postgresql"], cases.as_bytes())));
    }
    if duckdb(test) {
        engines.push(("duckdb", runner(&sql, "_helpers", &["--duckdb"], cases.as_bytes())));
    }
    for (engine, got) in engines {
        for ((case, w), g) in cases.lines().zip(want.lines()).zip(got.lines()) {
            assert_eq!(g, w, "{engine}: {case}");
        }
        assert_eq!(got.lines().count(), want.lines().count(), "{engine}");
    }
}

/// The DuckDB text `rulec api` names is the query line for line, but for its divisions
/// between integers, spelled `//` (DuckDB's `/` divides exactly).
#[test]
fn the_duckdb_text_is_the_query_with_its_divisions_spelled_for_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "sql", dir.path());
    let sql = dir.path().join("sql");
    let body = |text: &str| text[text.find("\nWITH \"_c0\" AS (").expect("a query after its header")..].to_string();
    let mut divisions = 0;
    for rule in rules() {
        let api = api(&rule, "sql");
        let query = body(&std::fs::read_to_string(sql.join(api["file"].as_str().unwrap())).unwrap());
        let duckdb = body(&std::fs::read_to_string(sql.join(api["duckdb"]["file"].as_str().unwrap())).unwrap());
        assert_eq!(query.lines().count(), duckdb.lines().count(), "{}", rule.display());
        for (q, d) in query.lines().zip(duckdb.lines()) {
            let code = d.split(" -- ").next().unwrap();
            assert!(!code.contains(" / "), "{}: a bare / on DuckDB: {d}", rule.display());
            assert!(d == q || d == q.replace(" / ", " // "), "{}:\n{q}\n{d}", rule.display());
            divisions += usize::from(d != q);
        }
    }
    assert!(divisions > 0, "some rule divides");
}

/// The query file is the documented `CREATE VIEW`: run as it stands after the relation is
/// made, it creates the view named after the rule, and `SELECT * FROM` it answers every row.
/// A row the door refuses, by a range or by a constraint over inputs each in range, has its
/// outputs and rows NULL beside the sentence, on SQLite, PostgreSQL and DuckDB (its text).
#[test]
fn the_query_file_creates_the_view_and_a_refused_row_has_no_answer_on_every_engine() {
    let test = "the_query_file_creates_the_view_and_a_refused_row_has_no_answer_on_every_engine";
    if !toolchain(test, &["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&[Path::new(ROOT).join("tests/corpus/single_coupon.rule")], "sql", dir.path());
    let sql = dir.path().join("sql");
    let query = std::fs::read_to_string(sql.join("single_coupon.sql")).unwrap();
    assert!(query.contains("\nCREATE VIEW \"single_coupon\" AS\nWITH \"_c0\" AS (\n"), "{query}");
    assert!(query.ends_with("\nORDER BY \"_id\";\n"), "{query}");
    // A call answered; one out of range (rate 101%); one whose inputs are each in range and
    // break the constraint applied <= subtotal.
    let rows = "[(0, 10000, 0, 'percent', 10, 0, False), (1, 10000, 0, 'percent', 101, 0, False), \
                (2, 10000, 20000, 'percent', 10, 0, False)]";
    let script = format!(
        r#"import json, sqlite3, sys
rows = {rows}
if sys.argv[1] == "sqlite":
    db = sqlite3.connect(":memory:")
    db.create_function("LEAST", -1, lambda *xs: min(x for x in xs if x is not None), deterministic=True)
    db.execute('CREATE TABLE "single_coupon_input" ("_id", "subtotal", "applied", "kind", "rate", "face", "dup")')
    db.executemany('INSERT INTO "single_coupon_input" VALUES (?, ?, ?, ?, ?, ?, ?)', rows)
    db.executescript(open("single_coupon.sql").read())
else:
    import duckdb
    db = duckdb.connect(":memory:")
    db.execute('CREATE TABLE "single_coupon_input" ("_id" BIGINT, "subtotal" BIGINT, "applied" BIGINT, "kind" VARCHAR, "rate" BIGINT, "face" BIGINT, "dup" BOOLEAN)')
    db.executemany('INSERT INTO "single_coupon_input" VALUES (?, ?, ?, ?, ?, ?, ?)', rows)
    db.execute(open("single_coupon_duckdb.sql").read())
cur = db.execute('SELECT * FROM "single_coupon"')
names = [d[0] for d in cur.description]
for r in cur.fetchall():
    print(json.dumps(dict(zip(names, r))))
"#
    );
    let python = |engine: &str| {
        let out = Command::new("python3").args(["-c", &script, engine]).current_dir(&sql).output().unwrap();
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let mut engines = vec![("sqlite", python("sqlite"))];
    if duckdb(test) {
        engines.push(("duckdb", python("duckdb")));
    }
    if postgres(test) {
        let schema = format!("rulec_view_{}", std::process::id());
        let psql = format!(
            "BEGIN;\nCREATE SCHEMA {schema};\nSET LOCAL search_path TO {schema};\n\
             CREATE TABLE \"single_coupon_input\" (\"_id\" bigint, \"subtotal\" bigint, \"applied\" bigint, \"kind\" text, \"rate\" bigint, \"face\" bigint, \"dup\" boolean);\n\
             INSERT INTO \"single_coupon_input\" VALUES (0, 10000, 0, 'percent', 10, 0, FALSE), (1, 10000, 0, 'percent', 101, 0, FALSE), (2, 10000, 20000, 'percent', 10, 0, FALSE);\n\
             \\i single_coupon.sql\n\
             SELECT row_to_json(\"v\") FROM \"single_coupon\" AS \"v\";\nROLLBACK;\n"
        );
        let mut child = Command::new("psql")
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", "-"])
            .current_dir(&sql)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(psql.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "psql: {}", text(&out.stderr));
        engines.push(("postgresql", text(&out.stdout)));
    }
    let column = |row: &Json, c: &str| match &row[c] {
        Json::Null => "NULL".to_string(),
        // SQLite has no boolean: a truth value comes back 1 or 0.
        Json::Bool(b) => u8::from(*b).to_string(),
        x => x.to_string(),
    };
    for (engine, got) in engines {
        let rows: Vec<String> = got
            .lines()
            .map(|l| serde_json::from_str::<Json>(l).unwrap())
            .map(|r| {
                ["_id", "rate", "ok", "raw", "applicable_row", "raw_discount_row", "_input_error"]
                    .map(|c| column(&r, c))
                    .join(" ")
            })
            .collect();
        assert_eq!(
            rows,
            [
                "0 10 1 1000 3 2 NULL",
                "1 NULL NULL NULL NULL NULL \"rate is out of range\"",
                "2 10 NULL NULL NULL NULL \"the constraint does not hold: applied <= subtotal\"",
            ],
            "{engine}"
        );
    }
}
