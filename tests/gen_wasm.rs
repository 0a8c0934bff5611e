//! The Wasm target held to the reference evaluator: `rulec test --lang wasm` on every rule, the
//! module built with the one command `rulec api` prints (no import, under 64 KiB for
//! parcel_rate), the entry reading the wire as the Rust runner does and answering whatever it
//! is given without a trap, and the Rust runner as a WASI command under node's `node:wasi`.

mod common;
use common::*;
use std::path::Path;

/// Every corpus rule and every rule of tests/rules (the hostile names among them), and the
/// helpers' unit vectors, through the module and its node runner.
#[test]
fn every_rule_passes_rulec_test_in_wasm() {
    if !wasm_toolchain("every_rule_passes_rulec_test_in_wasm", "wasm32-unknown-unknown") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rules = rules();
    generate(&rules, "wasm", dir.path());
    let report = test_json(dir.path(), "wasm");
    assert_green(&report);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), rules.len() + 1, "every rule and the helpers: {report}");
    for r in results {
        assert_eq!((r["lang"].as_str(), r["via"].as_str()), (Some("wasm"), Some("runner")), "{r}");
        // Every vector of the rule's suite was run, not some of them.
        let suite = dir.path().join("vectors").join(format!("{}.jsonl", r["rule"].as_str().unwrap()));
        let lines = std::fs::read_to_string(&suite).unwrap().lines().filter(|l| !l.is_empty()).count();
        assert_eq!(r["vectors"].as_u64(), Some(lines as u64), "{r}");
        assert!(lines > 0, "{r}");
    }
    assert!(results.iter().any(|r| r["refused"].as_u64().unwrap() > 0), "refusals are among the cases");
}

/// The module `rulec api` describes, built with its `build` line: it imports nothing (it
/// instantiates with `{}`), exports the canonical ABI and memory under the names the entry
/// gives, is under 64 KiB, and answers a call as the reference does.
#[test]
fn the_parcel_rate_module_imports_nothing_and_is_under_64_kib() {
    if !wasm_toolchain("the_parcel_rate_module_imports_nothing_and_is_under_64_kib", "wasm32-unknown-unknown") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = Path::new(ROOT).join("tests/corpus/parcel_rate.rule");
    generate(std::slice::from_ref(&rule), "wasm", dir.path());
    let wasm = dir.path().join("wasm");
    let api = api(&rule, "wasm");
    let s = |k: &str| api[k].as_str().unwrap_or_else(|| panic!("wasm.{k} in {api}")).to_string();
    // The build line, as printed, with every warning an error: rustc has nothing to say.
    run_line(&s("build"), &["-D", "warnings"], &wasm);
    let module = wasm.join(s("module"));
    let size = std::fs::metadata(&module).unwrap().len();
    assert!(size < 64 * 1024, "{} is {size} bytes", module.display());

    let vectors = std::fs::read_to_string(dir.path().join("vectors/parcel_rate.jsonl")).unwrap();
    let expected = std::fs::read_to_string(dir.path().join("vectors/parcel_rate.expected.jsonl")).unwrap();
    let script = format!(
        r#"const fs = require("node:fs");
const m = new WebAssembly.Module(fs.readFileSync({module:?}));
const imports = WebAssembly.Module.imports(m);
const exports = WebAssembly.Module.exports(m).map((e) => e.kind + " " + e.name);
const ex = new WebAssembly.Instance(m, {{}}).exports;
const bytes = new TextEncoder().encode(fs.readFileSync(0, "utf8").split("\n")[0]);
const ptr = ex[{realloc:?}](0, 0, 1, bytes.length);
new Uint8Array(ex[{memory:?}].buffer, ptr, bytes.length).set(bytes);
const ret = ex[{call:?}](ptr, bytes.length);
const [p, n] = new Uint32Array(ex[{memory:?}].buffer, ret, 2);
const answer = new TextDecoder().decode(new Uint8Array(ex[{memory:?}].buffer, p, n));
ex[{post:?}](ret);
console.log(JSON.stringify({{ imports, exports }}));
console.log(answer);"#,
        module = module.display().to_string(),
        realloc = s("realloc"),
        memory = s("memory"),
        call = s("call"),
        post = s("post_return"),
    );
    let out = feed("node", &["-e", &script], &wasm, vectors.as_bytes());
    let mut lines = out.lines();
    let shape: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(shape["imports"], serde_json::json!([]), "the module imports nothing");
    assert_eq!(api["imports"], serde_json::json!([]));
    for export in [
        format!("function {}", s("realloc")),
        format!("function {}", s("call")),
        format!("function {}", s("post_return")),
        format!("memory {}", s("memory")),
    ] {
        assert!(shape["exports"].as_array().unwrap().iter().any(|e| e == &export), "{export} in {shape}");
    }
    assert_eq!(lines.next(), expected.lines().next(), "the first vector, through the ABI by hand");
    // The .wit names the package and the world the entry gives, and the one function.
    let wit = std::fs::read_to_string(wasm.join(s("wit"))).unwrap();
    assert!(wit.contains(&format!("package {};", s("package"))), "{wit}");
    assert!(wit.contains(&format!("world {} {{", s("world"))), "{wit}");
    assert!(wit.contains(&format!("export {};", s("call_signature"))), "{wit}");
    assert_eq!((s("package").as_str(), s("world").as_str()), ("rulec:parcel-rate@3.0.0", "parcel-rate"));
    // The module the entry includes is the one rust/ gets, byte for byte.
    generate(std::slice::from_ref(&rule), "rust", dir.path());
    let rust_module = std::fs::read(dir.path().join("rust/parcel_rate.rs")).unwrap();
    assert_eq!(std::fs::read(wasm.join(s("rust_module"))).unwrap(), rust_module);
    // Every generated file is locked.
    let lock = std::fs::read_to_string(dir.path().join("rulec.lock")).unwrap();
    for f in ["parcel_rate_wasm.rs", "parcel_rate.rs", "parcel_rate.wit", "parcel_rate_runner.mjs", "_helpers_wasm.rs"]
    {
        assert!(lock.contains(&format!("wasm/{f}")), "wasm/{f} in the lock:\n{lock}");
    }
}

/// The lines a host might send that are no call: the entry answers each as the Rust runner
/// does (the same bytes), so nothing reaches the host as a trap, and the refusal sentences
/// are the reference's.
#[test]
fn the_entry_answers_whatever_it_is_given_as_the_rust_runner_does() {
    if !wasm_toolchain("the_entry_answers_whatever_it_is_given_as_the_rust_runner_does", "wasm32-unknown-unknown") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = Path::new(ROOT).join("tests/corpus/single_coupon.rule");
    generate(std::slice::from_ref(&rule), "rust,wasm", dir.path());
    let (rust, wasm) = (dir.path().join("rust"), dir.path().join("wasm"));
    run_line("rustc --edition 2021 -O single_coupon_runner.rs -o runner", &[], &rust);
    run_line(api(&rule, "wasm")["build"].as_str().unwrap(), &[], &wasm);

    let call = |subtotal: &str, rest: &str| {
        format!(r#"{{"subtotal":{subtotal},"applied":0,"kind":"percent","rate":10,"face":0,"dup":false{rest}}}"#)
    };
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for n in ["10000", "1e4", "10000.0", "-0.0", "1000.5", "1e400", "-1e400", "9223372036854775808", "1.5e19"] {
        lines.push(call(n, "").into_bytes());
    }
    lines.push(call(&"9".repeat(100_000), "").into_bytes());
    lines.push(call(&format!("1e{}", "9".repeat(50)), "").into_bytes());
    lines.push(call("1", r#","subtotal":10000"#).into_bytes());
    lines.push(call("10000", r#","x":[1,{"y":[null,true]}]"#).into_bytes());
    lines.push(call("10000", r#","\ud83d\ude00":1"#).into_bytes());
    lines.push(format!(r#"{{"tag":"t","in":{},"observed":{{}}}}"#, call("10000", "")).into_bytes());
    lines.push(format!(r#"{{"in":{}}}"#, call("10000", r#","dup":"false""#)).into_bytes());
    lines.push(call("10000", r#","kind":"\ud800""#).into_bytes());
    lines.push(format!("{}{}", "[".repeat(127), "]".repeat(127)).into_bytes());
    lines.push(format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes());
    lines.push(format!(r#"{{"subtotal":"{}"}}"#, "x".repeat(1 << 20)).into_bytes());
    for bad in ["[1,2]", "\"text\"", "42", "null", "{\"a\":}", "{,}", "{\"subtotal\":01}", "{", "\u{3000}x"] {
        lines.push(bad.as_bytes().to_vec());
    }
    lines.push(b"{\"subtotal\":\"\xff\"}".to_vec());
    lines.push(b"\xc3".to_vec());
    // Bytes drawn at random: what a broken host might send.
    let mut rng = Lcg(20260401);
    for len in [1, 7, 64, 300] {
        for _ in 0..25 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).filter(|b| *b != b'\n').collect();
            lines.push(bytes);
        }
    }
    let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    let native = feed("./runner", &[], &rust, &input);
    let module = feed("node", &["single_coupon_runner.mjs"], &wasm, &input);
    assert_eq!(module.lines().count(), native.lines().count());
    for (i, (w, n)) in module.lines().zip(native.lines()).enumerate() {
        assert_eq!(w, n, "line {}: {:?}", i + 1, String::from_utf8_lossy(&lines[i][..lines[i].len().min(80)]));
    }
    // The sentences are the reference's, and each kind of answer is there.
    let p = program(&rule);
    for (line, answer) in lines.iter().zip(module.lines()).take(9) {
        let line = std::str::from_utf8(line).unwrap();
        assert_eq!(answer, reference(&p, line), "{line}");
    }
    for sentence in ["\"observed\":{", "subtotal is not an integer", "subtotal is out of range", "dup is not a boolean"]
    {
        assert!(module.contains(sentence), "no answer says {sentence}");
    }
    assert!(module.contains("the input is not an object") && module.contains("x is not an input"));
}

/// The Rust runner compiled for wasm32-wasip1 with the `rust.wasi.build` line and run with
/// `rust.wasi.run`: the same answers as the expected records.
#[test]
fn the_rust_runner_runs_as_a_wasi_command() {
    if !wasm_toolchain("the_rust_runner_runs_as_a_wasi_command", "wasm32-wasip1") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = Path::new(ROOT).join("tests/corpus/member_shipping_fee.rule");
    generate(std::slice::from_ref(&rule), "rust", dir.path());
    let rust = dir.path().join("rust");
    let wasi = api(&rule, "rust")["wasi"].clone();
    let s = |k: &str| wasi[k].as_str().unwrap_or_else(|| panic!("rust.wasi.{k} in {wasi}")).to_string();
    assert_eq!(s("source"), "member_shipping_fee_runner.rs");
    assert!(rust.join(s("source")).is_file() && rust.join(s("host")).is_file());
    run_line(&s("build"), &[], &rust);
    assert!(rust.join(s("module")).is_file());
    let vectors = std::fs::read(dir.path().join("vectors/member_shipping_fee.jsonl")).unwrap();
    let expected = std::fs::read_to_string(dir.path().join("vectors/member_shipping_fee.expected.jsonl")).unwrap();
    let run = s("run");
    let words: Vec<&str> = run.split(' ').collect();
    assert_eq!(feed(words[0], &words[1..], &rust, &vectors), expected);
}

/// The fixed text is real source: the runners pass `node --check`, the entry compiles for
/// wasm32 as it stands with every warning an error, and the generated crate roots pass clippy.
#[test]
fn the_runtime_files_and_the_generated_entries_lint_clean() {
    if !wasm_toolchain("the_runtime_files_and_the_generated_entries_lint_clean", "wasm32-unknown-unknown") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for f in ["src/gen/wasm/runtime/runner.mjs", "src/gen/rust/runtime/wasi.mjs"] {
        run_line(&format!("node --check {ROOT}/{f}"), &[], dir.path());
    }
    let entry = format!("{ROOT}/src/gen/wasm/runtime/entry.rs");
    run_line(
        &format!(
            "rustc --edition 2021 --target wasm32-unknown-unknown --crate-type cdylib -D warnings {entry} -o e.wasm"
        ),
        &[],
        dir.path(),
    );
    let rules =
        [Path::new(ROOT).join("tests/rules/hostile_names.rule"), Path::new(ROOT).join("tests/corpus/late_fee.rule")];
    generate(&rules, "wasm,rust", dir.path());
    let wasm = dir.path().join("wasm");
    for e in std::fs::read_dir(&wasm).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".mjs") {
            run_line(&format!("node --check {name}"), &[], &wasm);
        }
    }
    run_line(&format!("node --check {}", dir.path().join("rust/_wasi_runner.mjs").display()), &[], dir.path());
    if !toolchain("the_runtime_files_and_the_generated_entries_lint_clean", &["clippy-driver"]) {
        return;
    }
    for root in ["class_wasm.rs", "late_fee_wasm.rs", "_helpers_wasm.rs"] {
        run_line(
            &format!("clippy-driver --edition 2021 --target wasm32-unknown-unknown --crate-type cdylib --emit=metadata -D warnings -o out {root}"),
            &[],
            &wasm,
        );
    }
}

/// Generating twice gives the same bytes.
#[test]
fn wasm_generation_is_deterministic() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate(&rules(), "wasm", a.path());
    generate(&rules(), "wasm", b.path());
    assert_eq!(tree(&a.path().join("wasm")), tree(&b.path().join("wasm")));
}

/// A refused date or member, out of its range, as a Wasm host meets it: `call` answers the
/// refusal line the runners print (the sentence alone, as the reference writes it), and the
/// module the Wasm crate is built from, called by a Rust caller built for wasm32-wasip1 and
/// run under node's WASI, shows the value as the wire writes it ("2027-01-01", "basic"), not
/// a day number.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    let test = "a_refused_date_or_member_is_shown_in_the_wire_form";
    if !wasm_toolchain(test, "wasm32-unknown-unknown") || !wasm_toolchain(test, "wasm32-wasip1") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(ROOT).join("tests/corpus");
    let rules = [corpus.join("ticket_price.rule"), corpus.join("member_discount.rule")];
    generate(&rules, "wasm,rust", dir.path());
    let wasm = dir.path().join("wasm");
    let calls =
        [r#"{"age":30,"visit":"2027-01-01","member":true}"#, r#"{"tier":"basic","channel":"web","subtotal":1000}"#];
    for (rule, call) in rules.iter().zip(calls) {
        let api = api(rule, "wasm");
        run_line(api["build"].as_str().unwrap(), &[], &wasm);
        let base = rule.file_stem().unwrap().to_string_lossy().into_owned();
        let answer = feed("node", &[&format!("{base}_runner.mjs")], &wasm, format!("{call}\n").as_bytes());
        let want = reference(&program(rule), call);
        assert!(want.contains("is out of range\"}"), "{want}");
        assert_eq!(answer, format!("{want}\n"), "{base}");
    }
    std::fs::write(wasm.join("caller.rs"), include_str!("common/refused_caller.rs")).unwrap();
    run_line("rustc --edition 2021 --target wasm32-wasip1 -A dead_code caller.rs -o caller.wasm", &[], &wasm);
    assert_eq!(
        feed("node", &["--no-warnings", "../rust/_wasi_runner.mjs", "caller.wasm"], &wasm, b""),
        "visit is out of range: \"2027-01-01\" | Some(Day(20819))\n\
         visit is out of range: 9223372036854775807 | Some(Day(9223372036854775807))\n\
         visit is out of range: \"2027-01-01\" | Some(Day(20819))\n\
         tier is out of range: \"basic\" | Some(Member(\"basic\"))\n\
         tier is out of range: \"basic\" | Some(Member(\"basic\"))\n"
    );
}
