//! The TypeScript and JavaScript backends over the corpus: `rulec test` holds every rule's
//! runner (and the helpers') to the reference evaluator, the generated files pass their
//! linters (`tsc --strict --noEmit`, `node --check`), generating twice writes the same
//! bytes, and every name `rulec api` gives is in the module it describes.
//!
//! The toolchain: node for both, and for TypeScript a `tsc` of TypeScript 5.8 or later —
//! `$RULEC_TSC` when set (say `node_modules/.bin/tsc`), else `tsc` on PATH. Without it a test
//! says so and returns, unless `CI` is set, where a missing toolchain is a failure.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LANGS: [&str; 2] = ["typescript", "javascript"];

fn rulec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("rulec runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The clean rules of the corpus (an enums file in `shared/` comes with the rule that uses it).
fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut rules: Vec<String> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .map(|p| format!("tests/corpus/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    rules.sort();
    assert!(rules.len() >= 9, "the corpus is there");
    rules
}

/// `rulec gen` of the whole corpus for `langs` into `out`.
fn generate(out: &Path, langs: &str) {
    let lock = out.join("rulec.lock");
    let mut args: Vec<String> = vec!["gen".into()];
    args.extend(corpus());
    args.extend([
        "--lang".into(),
        langs.into(),
        "--out".into(),
        out.to_string_lossy().into_owned(),
        "--lock".into(),
        lock.to_string_lossy().into_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = rulec(&args);
    assert!(o.status.success(), "rulec gen failed:\n{}{}", text(&o.stdout), text(&o.stderr));
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// The `tsc` the backend will run, when there is one.
fn tsc() -> Option<String> {
    match std::env::var("RULEC_TSC") {
        Ok(t) if !t.is_empty() => Path::new(&t).is_file().then_some(t),
        _ => on_path("tsc").then(|| "tsc".to_string()),
    }
}

/// Whether the toolchain is here; when it is not, a note (or, under CI, a failure).
fn toolchain(lang: &str) -> bool {
    let mut missing = Vec::new();
    if !on_path("node") {
        missing.push("node".to_string());
    }
    if lang == "typescript" && tsc().is_none() {
        missing.push("tsc (set RULEC_TSC to node_modules/.bin/tsc, or put tsc on PATH)".to_string());
    }
    if missing.is_empty() {
        return true;
    }
    let note = format!("{lang}: {} not found", missing.join(", "));
    if std::env::var_os("CI").is_some() {
        panic!("{note}: CI must install the toolchain");
    }
    eprintln!("note: skipped, {note}");
    false
}

fn agrees_with_the_reference(lang: &str) {
    if !toolchain(lang) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), lang);
    let o = rulec(&["test", &dir.path().to_string_lossy(), "--lang", lang, "--format", "json"]);
    let report: Json = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("rulec test printed no JSON ({e}):\n{}{}", text(&o.stdout), text(&o.stderr)));
    assert_eq!(report["skipped"], serde_json::json!([]), "nothing skipped");
    let results = report["results"].as_array().expect("results");
    let mut rules: Vec<&str> = results.iter().map(|r| r["rule"].as_str().unwrap()).collect();
    rules.sort();
    let mut want: Vec<String> =
        corpus().iter().map(|p| Path::new(p).file_stem().unwrap().to_string_lossy().into_owned()).collect();
    want.push("_helpers".into());
    want.sort();
    assert_eq!(rules, want, "one result per rule and one for the helpers");
    for r in results {
        assert!(r["ran"] == true && r["ok"] == true, "{lang} disagrees with the reference: {r}");
        assert_eq!(r["lang"], lang);
    }
    assert!(o.status.success());
}

#[test]
fn typescript_agrees_with_the_reference() {
    agrees_with_the_reference("typescript");
}

#[test]
fn javascript_agrees_with_the_reference() {
    agrees_with_the_reference("javascript");
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

#[test]
fn typescript_passes_tsc_strict() {
    if !toolchain("typescript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "typescript");
    let ts = files(&dir.path().join("typescript"), "ts");
    // Every module, every runner, and the helpers' runner.
    assert_eq!(ts.len(), 2 * corpus().len() + 1, "{ts:?}");
    let o = Command::new(tsc().unwrap())
        .args(rulec::gen::typescript::TSC_FLAGS)
        .args(["--noEmit", "--allowImportingTsExtensions"])
        .args(&ts)
        .current_dir(dir.path().join("typescript"))
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc --strict --noEmit:\n{}{}", text(&o.stdout), text(&o.stderr));
}

#[test]
fn javascript_passes_node_check() {
    if !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "javascript");
    let js = files(&dir.path().join("javascript"), "mjs");
    assert_eq!(js.len(), 2 * corpus().len() + 1, "{js:?}");
    for f in js {
        let o = Command::new("node").arg("--check").arg(&f).output().expect("node runs");
        assert!(o.status.success(), "node --check {}:\n{}", f.display(), text(&o.stderr));
    }
}

fn read_all(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_all(&p, out);
        } else if p.file_name().is_some_and(|n| n != "rulec.lock") {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
}

#[test]
fn generating_twice_writes_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate(a.path(), "typescript,javascript");
    generate(b.path(), "typescript,javascript");
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    read_all(a.path(), &mut fa);
    read_all(b.path(), &mut fb);
    assert_eq!(fa.len(), fb.len());
    assert!(fa.iter().any(|(p, _)| p.extension().is_some_and(|x| x == "ts")));
    assert!(fa.iter().any(|(p, _)| p.extension().is_some_and(|x| x == "mjs")));
    for ((pa, ta), (pb, tb)) in fa.iter().zip(&fb) {
        assert_eq!(pa.strip_prefix(a.path()).unwrap(), pb.strip_prefix(b.path()).unwrap());
        assert!(ta == tb, "{} differs between two generations", pa.display());
    }
}

#[test]
fn every_name_api_gives_is_in_the_module() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "typescript,javascript");
    for rule in corpus() {
        let o = rulec(&["api", &rule, "--lang", "typescript,javascript"]);
        assert!(o.status.success(), "rulec api {rule}: {}", text(&o.stderr));
        let api: Json = serde_json::from_slice(&o.stdout).unwrap();
        for lang in LANGS {
            let e = &api[lang];
            let module = e["module"].as_str().expect("module");
            let src = std::fs::read_to_string(dir.path().join(lang).join(module))
                .unwrap_or_else(|_| panic!("{lang}/{module} was written"));
            let mut names: Vec<String> = Vec::new();
            for key in ["function", "traced", "record", "signature", "traced_signature", "record_signature", "returns"]
            {
                names.push(e[key].as_str().unwrap_or_else(|| panic!("{lang} api has {key}")).to_string());
            }
            for p in e["params"].as_array().unwrap() {
                names.push(p["alias"].as_str().unwrap().to_string());
            }
            for p in e["outputs"].as_array().unwrap() {
                if e["outputs"].as_array().unwrap().len() > 1 {
                    names.push(format!("{}: ", p["alias"].as_str().unwrap()));
                }
            }
            for en in e["enums"].as_array().unwrap() {
                let alias = en["alias"].as_str().unwrap();
                names.push(format!("export const {alias} = Object.freeze("));
                names.push(format!("export function parse{alias}("));
                for v in en["values"].as_array().unwrap() {
                    names.push(format!("  {}: {},", v["alias"].as_str().unwrap(), v["name"]));
                }
            }
            for err in e["errors"].as_array().unwrap() {
                names.push(format!("export class {} extends Error", err.as_str().unwrap()));
            }
            for n in names {
                assert!(src.contains(&n), "{rule}: `{n}` ({lang} api) is not in {module}");
            }
        }
    }
}

/// The JavaScript runner reads numbers exactly: whole values written with a point or an
/// exponent are integers, past int64 is out of range, a fraction is not an integer, and the
/// door refuses in the reference's order (constraints before keys that are not inputs).
#[test]
fn the_door_reads_numbers_exactly() {
    if !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "javascript");
    let cases: &[(&str, &str)] = &[
        (
            r#"{"subtotal":1e3,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"in":{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":100},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#,
        ),
        (
            r#"{"subtotal":1500.0,"applied":-0.0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"in":{"subtotal":1500,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":150},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#,
        ),
        (
            r#"{"subtotal":9223372036854775808,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"refused":"input","error":"subtotal is out of range"}"#,
        ),
        (
            r#"{"subtotal":1e400,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"refused":"input","error":"subtotal is out of range"}"#,
        ),
        (
            r#"{"subtotal":1e-400,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"refused":"input","error":"subtotal is not an integer"}"#,
        ),
        (
            r#"{"subtotal":1000.5,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"refused":"input","error":"subtotal is not an integer"}"#,
        ),
        (
            r#"{"subtotal":"1000","applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
            r#"{"refused":"input","error":"subtotal is not an integer"}"#,
        ),
        (
            r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":0}"#,
            r#"{"refused":"input","error":"dup is not a boolean"}"#,
        ),
        (
            r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false,"extra":1}"#,
            r#"{"refused":"input","error":"the constraint does not hold: applied <= subtotal"}"#,
        ),
        (
            r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false,"zz":1,"aa":2}"#,
            r#"{"refused":"input","error":"zz is not an input"}"#,
        ),
        ("not json", r#"{"refused":"input","error":"the input is not an object"}"#),
    ];
    let input: String = cases.iter().map(|(i, _)| format!("{i}\n")).collect();
    let mut child = Command::new("node")
        .arg("single_coupon_runner.mjs")
        .current_dir(dir.path().join("javascript"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = text(&child.wait_with_output().unwrap().stdout);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), cases.len());
    for ((line, want), got) in cases.iter().zip(got) {
        assert_eq!(got, *want, "for {line}");
    }
}
