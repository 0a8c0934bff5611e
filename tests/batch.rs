//! The plan as an Arrow batch function on the engines users run (rulec_batch.py, beside the
//! NumPy plan): Spark (an Arrow UDF and a pandas UDF, local mode), Dask (map_partitions), DuckDB (a Python UDF
//! of type arrow) and Polars (map_batches), each held to the reference on every vector of the
//! corpus and tests/rules, byte for byte as `rulec test` compares (outputs, trace, refusals).
//! tests/batch/engines.py puts each rule's vectors in one typed table and runs it through the
//! engine, its session started once for every rule. A vector no typed table can hold (a value
//! of another kind than its column, a key that is not an input) is skipped, and each one
//! skipped must be a refusal of the reference: skipping never hides a decided call. Without an
//! engine's package a test prints a note and passes; under CI it fails.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// Whether python3 imports pyarrow and the engine's module (`probe`, the import statement);
/// under CI their absence fails.
fn have(test: &str, probe: &str) -> bool {
    if !toolchain(test, &["python3"]) {
        return false;
    }
    let out = Command::new("python3").args(["-c", &format!("import pyarrow; {probe}")]).output().unwrap();
    if out.status.success() {
        return true;
    }
    let why = text(&out.stderr);
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: python3 cannot `{probe}`, and CI is set (scripts/setup.sh installs it): {why}"
    );
    eprintln!("note: {test} skipped: python3 cannot `{probe}` (scripts/setup.sh installs it): {why}");
    false
}

/// Every vector of every rule (and tests/multi_hit/aggregates.rule's collect tables, whose
/// trace is a list of rows) through `engine`, each of its `ways` (tests/batch/engines.py's
/// output folders): each answer the reference's, line for line.
fn held_to_the_vectors(engine: &str, ways: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let mut rules = rules();
    rules.push(Path::new(ROOT).join("tests/multi_hit/aggregates.rule"));
    generate(&rules, "numpy", dir.path());
    let mut aliases: Vec<String> = std::fs::read_dir(dir.path().join("numpy"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().to_str().and_then(|n| n.strip_suffix(".plan.json")).map(String::from))
        .collect();
    aliases.sort();
    assert_eq!(aliases.len(), rules.len(), "a plan per rule");
    let out = Command::new("python3")
        .arg("-B")
        .arg(Path::new(ROOT).join("tests/batch/engines.py"))
        .arg(engine)
        .arg(dir.path())
        .args(&aliases)
        .env("PYTHONPATH", dir.path().join("numpy"))
        .output()
        .unwrap();
    assert!(out.status.success(), "engines.py {engine}:\n{}", text(&out.stderr));
    for way in ways {
        let (mut decided, mut refused, mut skipped) = (0, 0, 0);
        let mut wrong = Vec::new();
        for alias in &aliases {
            let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let expected = read(&dir.path().join(format!("vectors/{alias}.expected.jsonl")));
            let got = read(&dir.path().join(format!("batch/{way}/{alias}.jsonl")));
            let (expected, got): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
            assert_eq!(got.len(), expected.len(), "{alias}: an answer for every vector");
            let mut compared = 0;
            for (i, (want, have)) in expected.iter().zip(&got).enumerate() {
                if have.starts_with(r#"{"skipped":"#) {
                    assert!(
                        want.starts_with(r#"{"refused":"input""#),
                        "{alias} line {}: skipped {have}, but the reference decides it: {want}",
                        i + 1
                    );
                    skipped += 1;
                    continue;
                }
                compared += 1;
                if want.starts_with(r#"{"refused""#) {
                    refused += 1;
                } else {
                    decided += 1;
                }
                if want != have {
                    wrong.push(format!("{alias} line {}:\n  reference {want}\n  {way} {have}", i + 1));
                }
            }
            assert!(compared > 0, "{alias}: no vector reached {way}");
        }
        assert!(wrong.is_empty(), "{} answers of {way} differ from the reference:\n{}", wrong.len(), wrong.join("\n"));
        assert!(decided > 0 && refused > 0, "{way}: {decided} decided and {refused} refused calls");
        eprintln!("{way}: {decided} decided and {refused} refused calls agree with the reference; {skipped} no typed table holds");
    }
}

#[test]
fn spark_agrees_with_the_reference_on_every_vector() {
    if have("spark_agrees_with_the_reference_on_every_vector", "from pyspark.sql.functions import arrow_udf") {
        held_to_the_vectors("spark", &["spark", "spark_pandas"]);
    }
}

#[test]
fn dask_agrees_with_the_reference_on_every_vector() {
    if have("dask_agrees_with_the_reference_on_every_vector", "import dask.dataframe") {
        held_to_the_vectors("dask", &["dask"]);
    }
}

#[test]
fn duckdb_agrees_with_the_reference_on_every_vector() {
    if have("duckdb_agrees_with_the_reference_on_every_vector", "import duckdb") {
        held_to_the_vectors("duckdb", &["duckdb"]);
    }
}

#[test]
fn polars_agrees_with_the_reference_on_every_vector() {
    if have("polars_agrees_with_the_reference_on_every_vector", "import polars") {
        held_to_the_vectors("polars", &["polars"]);
    }
}

/// The batch function itself (pyarrow alone): each refused row with its own refusal, the
/// first check of the door's order it fails (row 5 fails weight's range and signature's
/// kind: weight is checked first), the rows around it decided; a column of doubles refused
/// whole, never read through a float; refusals="raise" giving the first refusal with its row;
/// a column that is not an input refused as the door refuses it.
#[test]
fn the_batch_function_refuses_a_row_at_a_time_and_never_reads_a_float() {
    if !have("the_batch_function_refuses_a_row_at_a_time_and_never_reads_a_float", "import pyarrow.compute") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(&[Path::new(ROOT).join("tests/corpus/parcel_rate.rule")], "numpy", dir.path());
    let script = r#"
import pyarrow as pa
import rulec_batch, rulec_np
batch = rulec_batch.load("parcel_rate.plan.json")
table = pa.table({"weight": pa.array([5, 0, 11, None, 70, 71], pa.int64()), "girth": [40, 40, 61, 3, 130, 1],
                  "dest": ["canada", "domestic", "mars", "domestic", "overseas", "canada"], "signature": [False, True, True, False, True, None]})
for row in batch(table).to_pylist():
    print(row)
try:
    batch(table.set_column(0, "weight", pa.array([5.0] * 6)))
except TypeError as e:
    print(e)
try:
    rulec_batch.load("parcel_rate.plan.json", refusals="raise")(table)
except rulec_np.RuleInputError as e:
    print(e.what, e.row)
try:
    batch(table.append_column("wieght", pa.array([1] * 6)))
except rulec_np.RuleInputError as e:
    print(e.what, e.row)
"#;
    let out =
        Command::new("python3").args(["-B", "-c", script]).current_dir(dir.path().join("numpy")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{'fee': 11, 'refused': None, 'error': None}\n\
         {'fee': None, 'refused': 'input', 'error': 'weight is out of range'}\n\
         {'fee': None, 'refused': 'input', 'error': 'dest is not a value of enum zone'}\n\
         {'fee': None, 'refused': 'input', 'error': 'weight is missing'}\n\
         {'fee': 59, 'refused': None, 'error': None}\n\
         {'fee': None, 'refused': 'input', 'error': 'weight is out of range'}\n\
         weight is a column of double: the rule reads whole numbers exactly; cast the column to an integer (int64) first\n\
         weight is out of range 1\n\
         wieght is not an input None\n"
    );
}

/// The driver is held to the linter the runtime files are (its types are pyarrow's and the
/// engines', which have no stubs here, so mypy is left to rulec_batch.py: tests/gen_numpy.rs).
#[test]
fn the_driver_passes_ruff() {
    if !toolchain("the_driver_passes_ruff", &["ruff"]) {
        return;
    }
    let ruff = Command::new("ruff")
        .args(["check", "--no-cache", "--select", "E,W,F,I", "--ignore", "E501"])
        // The generated modules it imports are its own, wherever ruff runs from.
        .args(["--config", r#"lint.isort.known-first-party = ["rulec_batch", "rulec_np", "rulec_np_runner"]"#])
        .arg(Path::new(ROOT).join("tests/batch/engines.py"))
        .output()
        .unwrap();
    assert!(ruff.status.success(), "{}{}", text(&ruff.stdout), text(&ruff.stderr));
}
