//! The TypeScript and JavaScript backends over the corpus and tests/rules (the hostile names
//! among them): `rulec test` holds every rule's runner (and the helpers') to the reference
//! evaluator, the generated files and the runtime files pass their linters (`tsc --strict`,
//! `node --check`), the JavaScript is exactly what `tsc` makes of the TypeScript, generating
//! twice writes the same bytes, every name `rulec api` gives is in the module it describes,
//! and the module's own doors hold what a caller (and the `doc --format html` page) passes.
//!
//! The toolchain: node for both, and for TypeScript a `tsc` of TypeScript 5.8 or later —
//! `$RULEC_TSC` when set (say `node_modules/.bin/tsc`), else `tsc` on PATH. Without it a test
//! says so and returns, unless `CI` is set, where a missing toolchain is a failure.

mod common;
use common::at_root as rulec;

use rulec::gen::typescript::{tokens, Tok, TSC_FLAGS};
use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const LANGS: [&str; 2] = ["typescript", "javascript"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn rule_files(dir: &str) -> Vec<String> {
    let mut rules: Vec<String> = std::fs::read_dir(root().join(dir))
        .expect("the rules")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    rules.sort();
    rules
}

/// The clean rules of the corpus and of tests/rules (an enums file in `shared/` comes with
/// the rule that uses it).
fn rules() -> Vec<String> {
    let corpus = rule_files("tests/corpus");
    assert!(corpus.len() >= 9, "the corpus is there");
    let mut all = corpus;
    let extra = rule_files("tests/rules");
    assert!(extra.iter().any(|r| r.ends_with("hostile_names.rule")), "the hostile names are there");
    all.extend(extra);
    all
}

/// `rulec gen` of every rule for `langs` into `out`.
fn generate(out: &Path, langs: &str) {
    let lock = out.join("rulec.lock");
    let mut args: Vec<String> = vec!["gen".into()];
    args.extend(rules());
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
    rulec::harness::on_path(program)
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
    let runs = |via: &str| {
        let mut got: Vec<&str> =
            results.iter().filter(|r| r["via"] == via).map(|r| r["rule"].as_str().unwrap()).collect();
        got.sort();
        got
    };
    let got = runs("runner");
    let mut want: Vec<String> = rules()
        .iter()
        .map(|p| {
            let src = std::fs::read_to_string(root().join(p)).unwrap();
            // The vectors are named by the rule's identifier: `rule 会員送料(member_shipping_fee)`.
            let head = src.lines().find(|l| l.starts_with("rule ")).unwrap();
            let name = head.split_whitespace().nth(1).unwrap();
            name.split_once('(').map_or(name, |(_, a)| a.trim_end_matches(')')).to_string()
        })
        .collect();
    want.push("_helpers".into());
    want.sort();
    assert_eq!(got, want, "one result per rule and one for the helpers");
    // The node MCP server beside each JavaScript module answers what the runner does
    // (src/gen/serve); the helpers' suite has no server.
    let served: &[&str] = if lang == "javascript" { &["mcp", "mcp-http"] } else { &[] };
    want.retain(|r| r != "_helpers");
    for via in served {
        assert_eq!(runs(via), want, "every rule through its server, {via}");
    }
    assert_eq!(results.len(), want.len() * (1 + served.len()) + 1);
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

/// The significant tokens of a JavaScript text (no spaces, no comments); a module's own
/// import path is read without its extension, which `tsc` rewrites to `.js`.
fn js_tokens(src: &str) -> Vec<String> {
    tokens(src)
        .into_iter()
        .filter(|t| !matches!(t.kind, Tok::Space | Tok::Comment))
        .map(|t| {
            let s = t.text;
            match s.strip_suffix(".js\"").or_else(|| s.strip_suffix(".mjs\"")) {
                Some(stem) if t.kind == Tok::Str && s.starts_with("\"./") => format!("{stem}\""),
                _ => s.to_string(),
            }
        })
        .collect()
}

/// `tsc --strict` passes every generated TypeScript file, and what it emits for each is, token
/// for token, the JavaScript rulec writes: the JavaScript is the TypeScript without its types.
#[test]
fn typescript_passes_tsc_strict_and_its_javascript_is_ours() {
    if !toolchain("typescript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "typescript,javascript");
    let ts = files(&dir.path().join("typescript"), "ts");
    // Every module, its runner and its MCP server's typed twin, the helpers' runner, and the
    // module of the enums file member_discount reads (tiers.ts).
    assert_eq!(ts.len(), 3 * rules().len() + 2, "{ts:?}");
    let emitted = dir.path().join("emitted");
    // Without define semantics a field declared with no value is not emitted, as rulec leaves it out.
    let o = Command::new(tsc().unwrap())
        .args(TSC_FLAGS)
        .args(["--useDefineForClassFields", "false", "--rewriteRelativeImportExtensions", "--outDir"])
        .arg(&emitted)
        .args(&ts)
        .current_dir(dir.path().join("typescript"))
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc --strict:\n{}{}", text(&o.stdout), text(&o.stderr));
    // No dead code in a module or a runner: a function, a constant or an import it never
    // reads is an error to tsc with --noUnusedLocals.
    let lean: Vec<&PathBuf> = ts.iter().filter(|f| !f.to_string_lossy().ends_with("_mcp.ts")).collect();
    let o = Command::new(tsc().unwrap())
        .args(TSC_FLAGS)
        .args(["--noEmit", "--noUnusedLocals", "--allowImportingTsExtensions"])
        .args(&lean)
        .current_dir(dir.path().join("typescript"))
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc --noUnusedLocals:\n{}{}", text(&o.stdout), text(&o.stderr));
    for f in &ts {
        let stem = f.file_stem().unwrap().to_string_lossy();
        // The MCP server's twin imports node's modules by a computed name, for which this
        // tsc adds a helper; tests/serve.rs holds its JavaScript to tsc's output without it.
        if std::fs::read_to_string(f).unwrap().contains("const _RULE: RuleInfo = JSON.parse(") {
            continue;
        }
        let theirs = std::fs::read_to_string(emitted.join(format!("{stem}.js"))).unwrap();
        let ours = std::fs::read_to_string(dir.path().join("javascript").join(format!("{stem}.mjs"))).unwrap();
        let (theirs, ours) = (js_tokens(&theirs), js_tokens(&ours));
        if let Some(i) = (0..theirs.len().max(ours.len())).find(|&i| theirs.get(i) != ours.get(i)) {
            let around = |t: &[String]| t[i.saturating_sub(8)..(i + 8).min(t.len())].join(" ");
            panic!("{stem}: tsc emits `{}`, rulec wrote `{}`", around(&theirs), around(&ours));
        }
    }
}

/// The runtime files are TypeScript as they stand: `tsc --strict` passes them.
#[test]
fn the_runtime_files_pass_tsc_strict() {
    if !toolchain("typescript") {
        return;
    }
    let runtime = root().join("src/gen/typescript/runtime");
    let ts = files(&runtime, "ts");
    assert_eq!(ts.len(), 3, "{ts:?}");
    let o = Command::new(tsc().unwrap())
        .args(TSC_FLAGS)
        .args(["--noEmit", "--allowImportingTsExtensions"])
        .args(&ts)
        .current_dir(&runtime)
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc --strict:\n{}{}", text(&o.stdout), text(&o.stderr));
}

#[test]
fn javascript_passes_node_check() {
    if !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "javascript");
    let js = files(&dir.path().join("javascript"), "mjs");
    // Every module, its runner and its MCP server, the helpers' runner, and the module of the
    // enums file member_discount reads (tiers.mjs).
    assert_eq!(js.len(), 3 * rules().len() + 2, "{js:?}");
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
    let mut dated = 0;
    for rule in rules() {
        let o = rulec(&["api", &rule, "--lang", "typescript,javascript"]);
        assert!(o.status.success(), "rulec api {rule}: {}", text(&o.stderr));
        let api: Json = serde_json::from_slice(&o.stdout).unwrap();
        for lang in LANGS {
            let e = &api[lang];
            let module = e["module"].as_str().expect("module");
            let src = std::fs::read_to_string(dir.path().join(lang).join(module))
                .unwrap_or_else(|_| panic!("{lang}/{module} was written"));
            let s = |k: &str| e[k].as_str().unwrap_or_else(|| panic!("{rule}: {lang} api has no {k}")).to_string();
            let mut names: Vec<String> = Vec::new();
            for (f, sig) in [
                ("function", "signature"),
                ("traced", "traced_signature"),
                ("record", "record_signature"),
                ("wire", "wire_signature"),
            ] {
                names.push(format!("export function {}(", s(f)));
                names.push(s(sig) + " {\n");
            }
            for p in e["params"].as_array().unwrap() {
                let (alias, ty) = (p["alias"].as_str().unwrap(), p["type"].as_str().unwrap());
                if lang == "typescript" {
                    names.push(format!("{alias}: {ty}"));
                }
            }
            let outputs = e["outputs"].as_array().unwrap();
            for p in outputs {
                if outputs.len() > 1 && lang == "typescript" {
                    names.push(format!(
                        "  readonly {}: {};\n",
                        p["alias"].as_str().unwrap(),
                        p["type"].as_str().unwrap()
                    ));
                }
            }
            for en in e["enums"].as_array().unwrap() {
                let alias = en["alias"].as_str().unwrap();
                let generic = if lang == "typescript" { "<" } else { "(" };
                names.push(format!("export function {}{generic}", s("enum_from_wire")));
                // An enum of an enums file is declared in that file's module, which the rule's
                // imports it from and exports it again.
                let mut declared = Vec::new();
                let (there, named) = match en["module"].as_str() {
                    Some(shared) => {
                        let import = format!(" }} from \"./{shared}\";\nexport {{ ");
                        names.push(import);
                        let declared_by = std::fs::read_to_string(dir.path().join(lang).join(shared)).unwrap();
                        (declared_by, en["declared"].as_str().unwrap())
                    }
                    None => (src.clone(), alias),
                };
                declared.push(format!("export const {named} = Object.freeze("));
                for v in en["values"].as_array().unwrap() {
                    declared.push(format!("  {}: {}", v["alias"].as_str().unwrap(), v["name"]));
                }
                for n in declared {
                    assert!(there.contains(&n), "{rule}: `{n}` ({lang} api) is not declared");
                }
            }
            // A date crosses the boundary as its day number, and the module says how to make one.
            let takes_dates = e["params"].as_array().unwrap().iter().any(|p| p["unit"] == "day");
            assert_eq!(takes_dates, e["dates"].is_object(), "{rule}: {lang} api names its dates");
            if let Some(d) = e["dates"].as_object() {
                dated += 1;
                assert_eq!(d["type"], if lang == "typescript" { "Day" } else { "bigint" });
                for p in e["params"].as_array().unwrap().iter().filter(|p| p["unit"] == "day") {
                    let want = if lang == "typescript" { "Day" } else { "bigint" };
                    assert!(p["type"].as_str().unwrap().starts_with(want), "{rule}: {p}");
                    if let Some(r) = p["range"].as_object() {
                        assert!(r["min"].is_i64() && r["max"].is_i64(), "{rule}: a date's range is in day numbers");
                    }
                }
                for f in ["from_wire", "from_native"] {
                    names.push(format!("export function {}(", d[f].as_str().unwrap()));
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
    assert!(dated > 0, "a rule of the corpus takes a date");
}

/// Run lines through a runner in `dir`; what it prints.
fn run_lines(dir: &Path, runner: &str, input: &[u8]) -> Vec<String> {
    let mut child = Command::new("node")
        .arg(runner)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the runner died: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// What the reference says of each line (`rulec eval RULE --in -`).
fn reference(rule: &str, lines: &[String]) -> Vec<String> {
    let mut child = common::command()
        .arg("eval")
        .arg(root().join(rule))
        .args(["--in", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "rulec eval: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// The runner reads JSON as the reference does, over lines the vectors do not carry: numbers
/// written every way JSON allows (whole values with a point or an exponent are integers, past
/// int64 is out of range, a fraction is not an integer), keys twice, a key `__proto__`, keys
/// that are not inputs in the order written (`"1"` too), a record line, strings with escapes.
/// Lines the reference reads as no JSON at all — nested past serde_json's limit, a lone
/// surrogate, bytes that are not UTF-8, not JSON — are refused as not an object, and the
/// runner reads on.
#[test]
fn the_runner_reads_what_the_reference_reads() {
    if !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "javascript");
    let js = dir.path().join("javascript");
    let sc = r#""applied":0,"kind":"percent","rate":10,"face":0,"dup":false"#;
    let mut lines: Vec<String> = [
        "1e3",
        "1000.0",
        "1.5e3",
        "-0.0",
        "0e99999999999999999999",
        "1000.5",
        "1e-99999999999999999999",
        "1e400",
        "1e-400",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "0.00000000000000000000000000001e29",
        "12345e-2",
        "\"1000\"",
        "true",
        "null",
        "[1]",
        "{\"a\":1}",
    ]
    .iter()
    .map(|n| format!(r#"{{"subtotal":{n},{sc}}}"#))
    .collect();
    lines.extend([
        format!(r#"{{"subtotal":1000,{sc},"subtotal":2000}}"#),
        format!(r#"{{"subtotal":1000,{sc},"zz":1,"1":2}}"#),
        format!(r#"{{"subtotal":1000,{sc},"__proto__":{{}}}}"#),
        format!(r#"{{"subtotal":1000,{sc},"k\u00e9y\n":1}}"#),
        r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false,"zz":1}"#.into(),
        r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":0}"#.into(),
        r#"{"subtotal":1000,"applied":0,"kind":"Percent","rate":10,"face":0,"dup":false}"#.into(),
        r#"  {"subtotal" : 1000 , "applied":0,"kind":"fixed","rate":10,"face":10,"dup":false}  "#.into(),
        format!("{{\"a\":{}{}}}", "[".repeat(126), "]".repeat(126)),
        "[]".into(),
        "7".into(),
    ]);
    let mut want = reference("tests/corpus/single_coupon.rule", &lines);
    assert_eq!(want.len(), lines.len());
    // A record line is read as its `in` (the reference's `rulec eval` reads only calls).
    let call = format!(r#"{{"subtotal":1000,{sc}}}"#);
    want.extend(reference("tests/corpus/single_coupon.rule", std::slice::from_ref(&call)));
    lines.push(format!(r#"{{"in":{call},"tag":"x","observed":{{}}}}"#));
    // What the reference reads as no JSON (`rulec eval` stops at such a line, the door refuses it).
    let not_json: [&[u8]; 6] = [
        format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127)).leak().as_bytes(),
        br#"{"subtotal":1000,"x":"\ud800"}"#,
        br#"{"subtotal":1000,"x":"\udc00\ud800"}"#,
        b"{\"subtotal\":1000,\"x\":\"\xff\"}",
        b"not json",
        b"{\"subtotal\":1000,\"x\":\"a\tb\"}",
    ];
    let mut input: Vec<u8> = Vec::new();
    for l in &lines {
        input.extend_from_slice(l.as_bytes());
        input.push(b'\n');
    }
    for l in not_json {
        input.extend_from_slice(l);
        input.push(b'\n');
        want.push(r#"{"refused":"input","error":"the input is not an object"}"#.into());
    }
    // Blank lines are not calls.
    input.extend_from_slice(b"\n  \r\n");
    let got = run_lines(&js, "single_coupon_runner.mjs", &input);
    assert_eq!(got.len(), want.len(), "{got:#?}");
    let all: Vec<String> = lines.iter().cloned().chain(not_json.iter().map(|l| text(l))).collect();
    for ((line, want), got) in all.iter().zip(&want).zip(&got) {
        assert_eq!(got, want, "for {line}");
    }
}

/// Run a node module script beside the generated JavaScript; its standard output.
fn node(dir: &Path, script: &str) -> String {
    let out = Command::new("node").args(["--input-type=module", "-e", script]).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "node:\n{script}\n{}", text(&out.stderr));
    text(&out.stdout)
}

/// The module as a JavaScript caller meets it: the function takes bigints (and JavaScript
/// numbers that are whole), refuses anything else in the door's order with the errors'
/// `what` and `value`; the wire door takes the plain object the html page builds (numbers as
/// numbers or bigints, enum values and dates as strings) and answers the record line, whose
/// `observed` and `trace` the page reads, or throws RuleInputError whose `what` starts with
/// the input's declared name; dates are day numbers, made from the wire's text or a Date.
#[test]
fn the_module_doors_hold_what_a_caller_passes() {
    if !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "javascript");
    let js = dir.path().join("javascript");
    let got = node(
        &js,
        r#"
import { single_coupon, single_coupon_traced, single_coupon_record, single_coupon_wire, CouponKind, parseMember,
         parseCouponKind, RuleInputError, RuleContradictionError } from "./single_coupon.mjs";
import { ticket_price, ticket_price_wire, dayFromWire, dayOf } from "./ticket_price.mjs";
const show = (f) => { try { return JSON.stringify(f(), (k, v) => typeof v === "bigint" ? v + "n" : v); }
  catch (e) { return e.name + " " + JSON.stringify(e.what) + " " + String(e.value) + " | " + e.message + " " + (e instanceof Error); } };
console.log(show(() => single_coupon(10000n, 0n, CouponKind.PERCENT, 10n, 0n, false)));
console.log(show(() => single_coupon(10000, 0, "percent", 1e1, 0, false)));
const [out, trace] = single_coupon_traced(10000n, 0n, CouponKind.PERCENT, 10n, 0n, false);
console.log(single_coupon_record(10000n, 0n, CouponKind.PERCENT, 10n, 0n, false, out, trace, "order:1"));
console.log(single_coupon_record(10000n, 0n, CouponKind.PERCENT, 10n, 0n, false, out, trace, null));
for (const args of [[true, 0n, "percent", 10n, 0n, false], [10000.5, 0n, "percent", 10n, 0n, false],
                    ["10000", 0n, "percent", 10n, 0n, false], [undefined, 0n, "percent", 10n, 0n, false],
                    [10000n, 0n, "PERCENT", 10n, 0n, false], [10000n, 0n, "fixed", 10n, 0n, 0],
                    [10000n, 0n, "fixed", 101n, 0n, false], [10000n, 20000n, "fixed", 1n, 0n, false]]) {
  console.log(show(() => single_coupon(...args)));
}
console.log(parseMember(CouponKind, "fixed") === CouponKind.FIXED, parseMember(CouponKind, "FIXED"));
console.log(parseCouponKind("free_ship") === CouponKind.FREE_SHIP, parseCouponKind("bogus"));
const page = { subtotal: 10000, applied: 0n, kind: "fixed", rate: 0, face: 500, dup: false };
console.log(single_coupon_wire(page));
console.log(show(() => single_coupon_wire({ ...page, subtotal: Number.NaN })));
console.log(show(() => single_coupon_wire({ ...page, kind: "nope" })));
console.log(show(() => single_coupon_wire({ ...page, extra: 1 })));
console.log(show(() => single_coupon_wire([page])));
console.log(show(() => single_coupon_wire(Object.create(page))));
const visit = dayFromWire("2026-08-01");
console.log(visit, dayOf(new Date(Date.UTC(2026, 7, 1, 23, 59))) === visit, dayOf(new Date(-1)), dayOf(new Date(0)));
console.log(ticket_price(30n, visit, true), ticket_price(30n, Number(visit) + 31, true));
console.log(ticket_price_wire({ age: 30, visit: "2026-08-01", member: true }));
console.log(show(() => ticket_price(30n, "2026-08-01", true)));
console.log(show(() => ticket_price_wire({ age: 30, visit: 20666, member: true })));
console.log(show(() => ticket_price_wire({ age: 30, visit: "2027-01-01", member: true })));
console.log(show(() => dayFromWire("2026-02-29")), show(() => dayOf(new Date(Number.NaN))));
"#,
    );
    let want = r#"{"ok":true,"raw":"1000n"}
{"ok":true,"raw":"1000n"}
{"tag":"order:1","in":{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":1000},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}
{"in":{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":1000},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}
RuleInputError "subtotal is not an integer" true | subtotal is not an integer: true true
RuleInputError "subtotal is not an integer" 10000.5 | subtotal is not an integer: 10000.5 true
RuleInputError "subtotal is not an integer" 10000 | subtotal is not an integer: "10000" true
RuleInputError "subtotal is missing" null | subtotal is missing true
RuleInputError "kind is not a value of enum coupon_kind" PERCENT | kind is not a value of enum coupon_kind: "PERCENT" true
RuleInputError "dup is not a boolean" 0 | dup is not a boolean: 0 true
RuleInputError "rate is out of range" 101 | rate is out of range: 101 true
RuleInputError "the constraint does not hold: applied <= subtotal" null | the constraint does not hold: applied <= subtotal true
true undefined
true undefined
{"in":{"subtotal":10000,"applied":0,"kind":"fixed","rate":0,"face":500,"dup":false},"observed":{"ok":true,"raw":500},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":3}]}
RuleInputError "subtotal is not an integer" NaN | subtotal is not an integer: NaN true
RuleInputError "kind is not a value of enum coupon_kind" nope | kind is not a value of enum coupon_kind: "nope" true
RuleInputError "extra is not an input" null | extra is not an input true
RuleInputError "the input is not an object" null | the input is not an object true
RuleInputError "subtotal is missing" null | subtotal is missing true
20666n true -1n 0n
2000n 1200n
{"in":{"age":30,"visit":"2026-08-01","member":true},"observed":{"price":2000},"trace":[{"table":"price_of","row":4}]}
RuleInputError "visit is not a date" 2026-08-01 | visit is not a date: "2026-08-01" true
RuleInputError "visit is not a date" 20666 | visit is not a date: 20666 true
RuleInputError "visit is out of range" 2027-01-01 | visit is out of range: "2027-01-01" true
RangeError undefined undefined | "2026-02-29" is not a date true RangeError undefined undefined | an invalid Date has no day true
"#;
    assert_eq!(got, want);
}

/// No rule of the corpus leaves a pair of rows unproven (W114), so the guard is put on one
/// by hand: rows 1 (`<=5`) and 2 (`<=17`) of ticket_price's `first` table meet at age 3. The
/// module throws RuleContradictionError; the runner prints it, after keys that are not inputs.
#[test]
fn a_w114_guard_refuses_a_case_both_rows_match() {
    if !toolchain("javascript") {
        return;
    }
    let path = root().join("tests/corpus/ticket_price.rule");
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, &path, &Default::default()).unwrap();
    let program = checked.program.as_ref().unwrap();
    let mut analysis = checked.analysis.clone().unwrap();
    analysis.guards.push(rulec::analysis::Guard { table: 0, a: 1, b: 2 });
    let src = sources.get(checked.file);
    let unit = rulec::gen::Unit::new(program, &analysis, "ticket_price.rule", &src.sha256, &src.text);
    let dir = tempfile::tempdir().unwrap();
    for f in rulec::gen::backend(rulec::gen::Lang::JavaScript).generate(&unit) {
        std::fs::write(dir.path().join(&f.path), f.text).unwrap();
    }
    let module = std::fs::read_to_string(dir.path().join("ticket_price.mjs")).unwrap();
    assert!(module.contains(
        "  // guard: W114 (table price_of, row 1 × row 2): a pair of rows whose exclusivity could not be proven statically\n"
    ));
    let got = node(
        dir.path(),
        r#"
import { ticket_price, RuleContradictionError } from "./ticket_price.mjs";
console.log(String(ticket_price(30n, 20454n, false)));
try {
  ticket_price(3n, 20454n, false);
} catch (e) {
  console.log(e instanceof RuleContradictionError, e.name, e.what);
}
"#,
    );
    assert_eq!(got, "1500\ntrue RuleContradictionError table price_of: row 1 and row 2 matched at the same time\n");
    let lines = "{\"in\":{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false}}\n{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false,\"x\":1}\n";
    assert_eq!(
        run_lines(dir.path(), "ticket_price_runner.mjs", lines.as_bytes()),
        [
            r#"{"refused":"contradiction","error":"table price_of: row 1 and row 2 matched at the same time"}"#,
            r#"{"refused":"input","error":"x is not an input"}"#
        ]
    );
}

/// A refused date or member is shown as the wire writes it ("2027-01-01", "basic") by the
/// function, typed TypeScript compiled by `tsc` and JavaScript alike, as by the wire door:
/// `value` is what the caller gave, a day as the wire's text. A day no `YYYY-MM-DD` writes,
/// which only the function can be given, is shown as its number.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    if !toolchain("typescript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "typescript,javascript");
    // The calls, typed: a day and an amount are branded bigints.
    let calls = r#"
show(() => ticket_price(30n, dayFromWire("2027-01-01"), true));
show(() => ticket_price(30n, (dayFromWire("2025-12-31") - 3000000n) as Day, true));
show(() => ticket_price_wire({ age: 30, visit: "2027-01-01", member: true }));
show(() => member_discount(Tier.BASIC, Channel.WEB, 1000n as JPYInclTax, null));
show(() => member_discount_wire({ tier: "basic", channel: "web", subtotal: 1000 }));
"#;
    let typed = format!(
        r#"import {{ ticket_price, ticket_price_wire, dayFromWire, type Day }} from "./ticket_price.ts";
import {{ member_discount, member_discount_wire, Tier, Channel, type JPYInclTax }} from "./member_discount.ts";
declare const console: {{ log(line: string): void }};
const show = (f: () => unknown): void => {{
  try {{
    f();
  }} catch (e) {{
    const v = (e as {{ value: unknown }}).value;
    console.log((e as Error).message + " | " + String(v) + " " + typeof v);
  }}
}};
{calls}"#
    );
    let untyped = typed
        .replace("declare const console: { log(line: string): void };\n", "")
        .replace(", type Day", "")
        .replace(", type JPYInclTax", "")
        .replace(".ts\";", ".mjs\";")
        .replace("(f: () => unknown): void", "(f)")
        .replace(" as { value: unknown }", "")
        .replace(" as Error", "")
        .replace(" as Day", "")
        .replace(" as JPYInclTax", "");
    let want = "visit is out of range: \"2027-01-01\" | 2027-01-01 string\n\
                visit is out of range: -2979547 | -2979547 bigint\n\
                visit is out of range: \"2027-01-01\" | 2027-01-01 string\n\
                tier is out of range: \"basic\" | basic string\n\
                tier is out of range: \"basic\" | basic string\n";
    // TypeScript: the caller checked and built with the modules by tsc, run by node.
    let ts = dir.path().join("typescript");
    std::fs::write(ts.join("caller.ts"), &typed).unwrap();
    let o = Command::new(tsc().unwrap())
        .args(TSC_FLAGS)
        .args(["--rewriteRelativeImportExtensions", "--allowImportingTsExtensions", "--outDir", "built", "caller.ts"])
        .current_dir(&ts)
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc:\n{}{}", text(&o.stdout), text(&o.stderr));
    std::fs::write(ts.join("built/package.json"), "{\"type\":\"module\"}\n").unwrap();
    let o = Command::new("node").arg("built/caller.js").current_dir(&ts).output().unwrap();
    assert!(o.status.success(), "node:\n{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), want, "TypeScript");
    // JavaScript: the same caller without its types.
    assert!(!untyped.contains(" as "), "{untyped}");
    assert_eq!(node(&dir.path().join("javascript"), &untyped), want, "JavaScript");
}

/// Two rules reading one enums file, generated into one folder: the file's enums and their
/// parsers are its own module (`tiers.ts`, `tiers.mjs`: the same bytes whichever rule writes
/// it), which each rule's module imports and exports again, so `Tier` from either rule's module
/// is one object and a caller's imports still find it there; `rulec api` names the module;
/// `tsc --strict` passes a caller that hands one rule's tier to the other's function, and both
/// rules still agree with the reference in both languages.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_typescript_and_javascript() {
    if !toolchain("typescript") || !toolchain("javascript") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "typescript,javascript");
    common::generate(&[d.join("rules/tier_points.rule")], "typescript,javascript", &d.join("alone"));
    for (lang, ext) in [("typescript", "ts"), ("javascript", "mjs")] {
        let shared = std::fs::read_to_string(out.join(lang).join(format!("tiers.{ext}"))).unwrap();
        assert!(shared.contains("export const Tier = Object.freeze(") && shared.contains("export function parseTier("));
        let alone = std::fs::read_to_string(d.join("alone").join(lang).join(format!("tiers.{ext}"))).unwrap();
        assert_eq!(alone, shared, "one {lang} module from either rule");
        for rule in ["member_discount", "tier_points"] {
            let source = std::fs::read_to_string(out.join(lang).join(format!("{rule}.{ext}"))).unwrap();
            assert!(!source.contains("export const Tier ="), "{rule}.{ext} declares no Tier of its own");
            let import =
                format!("import {{ Tier, parseTier }} from \"./tiers.{ext}\";\nexport {{ Tier, parseTier }};\n");
            assert!(source.contains(&import), "{rule}.{ext}:\n{source}");
            let api = common::api(&d.join(format!("rules/{rule}.rule")), lang);
            let tier = &api["enums"][0];
            assert_eq!([&tier["alias"], &tier["module"], &tier["declared"]], ["Tier", &format!("tiers.{ext}"), "Tier"]);
        }
    }
    common::assert_green(&common::test_json(&out, "typescript,javascript"));
    // The caller's code, typed: one rule's tier is the other's, checked by tsc --strict.
    let ts = out.join("typescript");
    let caller = r#"import { tier_points, Tier as PointsTier } from "./tier_points.ts";
import { member_discount, Tier, Channel, type JPYInclTax } from "./member_discount.ts";
import { Tier as Shared } from "./tiers.ts";
const gold: Shared = PointsTier.GOLD;
const points: bigint = tier_points(gold);
const tier: PointsTier = Tier.PLATINUM;
const out = member_discount(tier, Channel.WEB, 10000n as JPYInclTax, null);
export const answer = [points, out.pct];
"#;
    std::fs::write(ts.join("caller.ts"), caller).unwrap();
    let files = files(&ts, "ts");
    let o = Command::new(tsc().unwrap())
        .args(TSC_FLAGS)
        .args(["--noEmit", "--noUnusedLocals", "--allowImportingTsExtensions"])
        .args(files.iter().filter(|f| !f.to_string_lossy().ends_with("_mcp.ts")))
        .current_dir(&ts)
        .output()
        .expect("tsc runs");
    assert!(o.status.success(), "tsc --strict:\n{}{}", text(&o.stdout), text(&o.stderr));
    // And run: the tier taken from either rule's module is one value of one enum.
    let got = node(
        &out.join("javascript"),
        r#"
import { tier_points, Tier as PointsTier, parseTier } from "./tier_points.mjs";
import { member_discount, Tier, Channel } from "./member_discount.mjs";
import * as Tiers from "./tiers.mjs";
console.log(String(tier_points(Tier.GOLD)));
const out = member_discount(PointsTier.PLATINUM, Channel.WEB, 10000n, null);
console.log(`${out.pct} ${out.discount}`);
console.log(Tier === PointsTier && PointsTier === Tiers.Tier && parseTier("gold") === Tier.GOLD);
"#,
    );
    let (gold, discount) = common::two_rules_answers(d);
    assert_eq!(got, format!("{}\n{} {}\ntrue\n", gold["points"], discount["pct"], discount["discount"]));
}
