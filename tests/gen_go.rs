//! The Go backend against the reference evaluator: every clean rule of the corpus generated
//! with `--lang go`, built with `go build` alone (GOPROXY=off) and held to the vectors by
//! `rulec test`, the unit vectors of the helpers included; `gofmt -l` and `go vet` silent on
//! all of it; the same bytes twice; every name `rulec api` gives really in the package; and
//! the door read the way the reference reads it, over inputs the vectors do not carry.
//!
//! Without a go toolchain the tests say so and pass, unless CI is set: there, a missing
//! toolchain is a failure.

mod common;
use common::at_root as rulec;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Whether `go` runs; when it does not, a note (or, under CI, a failure).
fn have_go(test: &str) -> bool {
    let ok = Command::new("go").arg("version").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "{test}: go is not installed, and CI is set");
        eprintln!("note: {test} skipped: go is not on PATH (apt-get install golang-go)");
    }
    ok
}

/// The clean rules of the corpus (the enums file under shared/ is read by the rules that use
/// it), and the rules of tests/rules: the hostile names among them.
fn corpus_rules() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["tests/corpus", "tests/rules"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("the rules folder"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the corpus has its rules: {files:?}");
    assert!(files.iter().any(|f| f.ends_with("hostile_names.rule")), "the hostile names are generated too");
    files
}

/// `rulec gen RULES --lang go --out DIR --lock DIR/rulec.lock`.
fn generate(rules: &[PathBuf], out: &Path) {
    let mut args: Vec<String> = vec!["gen".into()];
    args.extend(rules.iter().map(|p| p.to_string_lossy().into_owned()));
    let lock = out.join("rulec.lock");
    args.extend(["--lang".into(), "go".into(), "--out".into(), out.to_string_lossy().into_owned()]);
    args.extend(["--lock".into(), lock.to_string_lossy().into_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = rulec(&args);
    assert!(o.status.success(), "rulec gen failed: {}{}", text(&o.stdout), text(&o.stderr));
}

/// Every package folder under `go/` (each has its go.mod).
fn packages(go: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(go)
        .expect("the go folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("go.mod").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// `rulec test DIR --lang go --format json`: every result ran and agrees, nothing skipped.
fn assert_test_passes(dir: &Path, rules: usize) {
    let o = rulec(&["test", &dir.to_string_lossy(), "--lang", "go", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("rulec test printed no JSON ({e}): {}{}", text(&o.stdout), text(&o.stderr)));
    assert_eq!(report["skipped"], serde_json::json!([]), "nothing is skipped: {report}");
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), rules + 1, "one result per rule and one for _helpers: {report}");
    assert!(results.iter().any(|r| r["rule"] == "_helpers"), "the helpers ran: {report}");
    for r in results {
        assert_eq!(r["lang"], "go");
        assert_eq!(r["ran"], true, "{} could not be run: {r}", r["rule"]);
        assert_eq!(r["ok"], true, "{} disagrees with the reference: {r}", r["rule"]);
    }
    assert!(o.status.success(), "rulec test exits 0: {report}");
}

#[test]
fn go_agrees_with_the_reference_on_the_corpus() {
    if !have_go("go_agrees_with_the_reference_on_the_corpus") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let rules = corpus_rules();
    generate(&rules, tmp.path());
    assert_test_passes(tmp.path(), rules.len());
}

#[test]
fn gofmt_and_go_vet_are_silent() {
    if !have_go("gofmt_and_go_vet_are_silent") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    generate(&corpus_rules(), tmp.path());
    let go = tmp.path().join("go");
    let helpers = go.join("_helpers_runner.go");
    // gofmt walks the folders; the helpers' runner is named as well, so its leading `_`
    // cannot hide it.
    let o = Command::new("gofmt").arg("-l").arg(&go).arg(&helpers).output().expect("gofmt runs");
    assert!(o.status.success(), "gofmt failed: {}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "", "gofmt -l lists no file");
    let pkgs = packages(&go);
    // A package per rule, and one per enums file a rule reads (tests/corpus/shared/tiers.rule).
    assert_eq!(pkgs.len(), corpus_rules().len() + 1, "a package per rule and per enums file");
    for pkg in &pkgs {
        let o = Command::new("go")
            .args(["vet", "./..."])
            .current_dir(pkg)
            .env("GOPROXY", "off")
            .env("GO111MODULE", "on")
            .output()
            .expect("go vet runs");
        assert!(o.status.success(), "go vet {}: {}{}", pkg.display(), text(&o.stdout), text(&o.stderr));
        let module = std::fs::read_to_string(pkg.join(format!("{}.go", pkg.file_name().unwrap().to_string_lossy())))
            .expect("the module");
        // fmt, and the package of each enums file the rule reads, beside it.
        let import = module.split_once("\nimport ").expect("an import").1;
        let import = match import.find(')') {
            Some(end) if import.starts_with('(') => &import[..=end],
            _ => import.lines().next().unwrap(),
        };
        let gomod = std::fs::read_to_string(pkg.join("go.mod")).unwrap();
        let shared: Vec<&str> =
            import.lines().filter_map(|l| l.strip_prefix("\t\"rulec/")?.strip_suffix('"')).collect();
        let paths: String = shared.iter().map(|s| format!("\t\"rulec/{s}\"\n")).collect();
        assert!(shared.is_empty() || import == format!("(\n\t\"fmt\"\n\n{paths})"), "{}: {import}", pkg.display());
        if shared.is_empty() {
            assert_eq!(import, "\"fmt\"", "{}: the module imports fmt alone", pkg.display());
            assert!(!gomod.contains("require"), "{}: go.mod lists nothing but the module: {gomod}", pkg.display());
        }
        for s in shared {
            assert!(go.join(s).join("go.mod").is_file(), "{}: rulec/{s} is beside it", pkg.display());
            let found = format!("\nrequire rulec/{s} v0.0.0\n\nreplace rulec/{s} => ../{s}\n");
            assert!(gomod.ends_with(&found), "{}: go.mod requires rulec/{s} from beside it: {gomod}", pkg.display());
        }
    }
    // The helpers' runner is one file outside any module; vet a copy the go command will read.
    let scratch = tempfile::tempdir().unwrap();
    std::fs::copy(&helpers, scratch.path().join("helpers_runner.go")).unwrap();
    let o = Command::new("go")
        .args(["vet", "helpers_runner.go"])
        .current_dir(scratch.path())
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .output()
        .expect("go vet runs");
    assert!(o.status.success(), "go vet _helpers_runner.go: {}{}", text(&o.stdout), text(&o.stderr));
}

/// Every file under a folder, by its path relative to it.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.file_name() != "rulec.lock" {
            let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            out.push((rel, std::fs::read(entry.path()).unwrap()));
        }
    }
    out
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let rules = corpus_rules();
    generate(&rules, a.path());
    generate(&rules, b.path());
    let (ta, tb) = (tree(a.path()), tree(b.path()));
    assert!(ta.iter().any(|(p, _)| p.ends_with("singlecoupon/singlecoupon.go")), "{:?}", ta.iter().map(|t| &t.0));
    assert_eq!(ta.len(), tb.len());
    for ((pa, xa), (pb, xb)) in ta.iter().zip(&tb) {
        assert_eq!(pa, pb);
        assert!(xa == xb, "{pa} differs between two generations");
    }
}

#[test]
fn every_name_api_gives_is_in_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = corpus_rules();
    generate(&rules, tmp.path());
    for rule in &rules {
        let o = rulec(&["api", &rule.to_string_lossy(), "--lang", "go"]);
        assert!(o.status.success(), "rulec api {}: {}", rule.display(), text(&o.stderr));
        let api: serde_json::Value = serde_json::from_slice(&o.stdout).expect("api prints JSON");
        let go = &api["go"];
        let module_path = tmp.path().join("go").join(go["module"].as_str().expect("module"));
        let module = std::fs::read_to_string(&module_path).unwrap_or_else(|e| panic!("{}: {e}", module_path.display()));
        assert!(module.contains(&format!("package {}\n", go["package"].as_str().unwrap())), "{}", rule.display());
        let mut names: Vec<String> = Vec::new();
        for key in ["function", "func", "traced", "record", "input_type", "output_type", "returns"] {
            names.push(go[key].as_str().unwrap_or_else(|| panic!("{key} in {go}")).trim_start_matches('*').into());
        }
        for key in ["wire", "dates"] {
            if let Some(name) = go.get(key).and_then(|x| x.as_str().or_else(|| x["from_wire"].as_str())) {
                names.push(name.into());
            }
        }
        for key in ["signature", "traced_signature", "record_signature", "wire_signature"] {
            names.push(go[key].as_str().unwrap().to_string());
        }
        for p in go["params"].as_array().unwrap() {
            names.push(p["alias"].as_str().unwrap().into());
            names.push(p["field"].as_str().unwrap().into());
            names.push(p["type"].as_str().unwrap().trim_start_matches('*').into());
        }
        for e in go["enums"].as_array().unwrap() {
            // An enum of an enums file is declared in that file's package, which the rule's names.
            if let Some(shared) = e["module"].as_str() {
                let there = std::fs::read_to_string(tmp.path().join("go").join(shared)).unwrap();
                assert!(there.contains(&format!("package {}\n", e["package"].as_str().unwrap())), "{shared}");
                assert!(there.contains(&format!("type {} int\n", e["declared"].as_str().unwrap())), "{shared}");
                names.push(format!("\"{}\"", e["module_path"].as_str().unwrap()));
            }
            names.push(e["alias"].as_str().unwrap().into());
            names.push(format!("func {}(s string)", e["parse"].as_str().unwrap()));
            for v in e["values"].as_array().unwrap() {
                names.push(v["alias"].as_str().unwrap().into());
            }
        }
        for n in go["errors"].as_array().unwrap() {
            names.push(n.as_str().unwrap().trim_start_matches('*').into());
        }
        for n in &names {
            assert!(module.contains(n.as_str()), "{}: `{n}` is not in {}", rule.display(), module_path.display());
        }
        assert_eq!(go["params"], go["input_fields"]);
        assert_eq!(go["outputs"], go["output_fields"]);
    }
}

/// What the reference says of each line (`rulec eval RULE --in -`).
fn reference(rule: &Path, lines: &[&str]) -> Vec<String> {
    let mut child = common::command()
        .arg("eval")
        .arg(rule)
        .args(["--in", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rulec runs");
    child.stdin.take().unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "rulec eval: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// What the generated runner of a package says of each line.
fn runner(pkg: &Path, lines: &[&str]) -> Vec<String> {
    let bin = pkg.join("runner");
    let o = Command::new("go")
        .args(["build", "-o"])
        .arg(&bin)
        .arg("./cmd/runner")
        .current_dir(pkg)
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .output()
        .expect("go build runs");
    assert!(o.status.success(), "go build {}: {}", pkg.display(), text(&o.stderr));
    let mut child =
        Command::new(&bin).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the runner died: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// The door, over inputs the boundary vectors do not carry: numbers written every way JSON
/// allows (exponents, points, -0, past int64, an exponent past int64), kinds that are not the
/// declared one, null, keys twice, keys that are not inputs and which of them is named, dates
/// the calendar does not have, strings that need escaping, names that are not ASCII.
#[test]
fn the_door_reads_what_the_reference_reads() {
    if !have_go("the_door_reads_what_the_reference_reads") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    generate(&corpus_rules(), tmp.path());
    let go = tmp.path().join("go");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let sc = r#""applied":0,"kind":"percent","rate":10,"face":0,"dup":false"#;
    let single_coupon: Vec<String> = [
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
        "-9223372036854775808",
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
    .chain([
        format!(r#"{{"in":{{"subtotal":1000,{sc}}},"tag":"x"}}"#),
        r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":0}"#.into(),
        r#"{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":"false"}"#.into(),
        r#"{"subtotal":1000,"applied":2000,"kind":"percent","rate":10,"face":0,"dup":false,"zzz":1}"#.into(),
        format!(r#"{{"subtotal":1000,{sc},"zzz":1,"aaa":2}}"#),
        format!(r#"{{"subtotal":1000,{sc},"subtotal":2000}}"#),
        r#"{"applied":"x","kind":"nope","rate":10,"face":0,"dup":false}"#.into(),
        r#"{"subtotal":5,"applied":0,"kind":"Percent","rate":10,"face":0,"dup":false}"#.into(),
        r#"{"subtotal":5,"applied":0,"kind":1,"rate":1E2,"face":0,"dup":false}"#.into(),
        r#"{"subtotal":5,"applied":0,"kind":"percent","rate":101,"face":0,"dup":false}"#.into(),
    ])
    .collect();
    let cases: Vec<(&str, &str, Vec<String>)> = vec![
        ("single_coupon", "singlecoupon", single_coupon),
        (
            "late_fee",
            "latefee",
            [
                r#"{"due":"2026-02-29","paid":"2026-03-01","amount":5}"#,
                r#"{"due":"2026-2-28","paid":"2026-03-01","amount":5}"#,
                r#"{"due":"2026-02-28","paid":"2026-03-01T00:00","amount":5}"#,
                r#"{"due":"2026-02-28","paid":"2027-12-31","amount":5}"#,
                r#"{"due":"2026-12-31","paid":"2026-01-01","amount":5}"#,
                r#"{"due":"2026-12-31","paid":"2026-01-01","amount":5,"bogus":1}"#,
                r#"{"due":20454,"paid":"2026-01-01","amount":5}"#,
                r#"{"due":"２026-01-01","paid":"2026-01-01","amount":5}"#,
                r#"{"due":"2026-06-15","paid":"2026-05-01","amount":77}"#,
                r#"{"due":"2026-01-01","paid":"2027-12-31","amount":10000000}"#,
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "member_discount",
            "memberdiscount",
            [
                r#"{"tier":"basic","channel":"web","subtotal":1}"#,
                r#"{"tier":"gold","channel":"web","subtotal":1,"coupon":null}"#,
                r#"{"tier":"gold","channel":"web","subtotal":1,"coupon":"gift"}"#,
                r#"{"tier":"gold","channel":"web","subtotal":1,"coupon":"GIFT"}"#,
                r#"{"tier":"gold","channel":"web","subtotal":1,"coupon":5}"#,
                r#"{"tier":"platinum","channel":"phone","subtotal":4999995,"coupon":"ten_off"}"#,
                r#"{"tier":null,"channel":"phone","subtotal":1}"#,
                r#"{"tier":"silver","channel":"phone","subtotal":1,"extra":null}"#,
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "shipping_zone",
            "shippingzone",
            [
                r#"{"country":"JP","remote":true}"#,
                r#"{"country":"J\"P\\\n\t\b\f\r\u0001\u001f\u007f é 日本 \ud83d\ude00","remote":true}"#,
                r#"{"country":"\u2028\u2029\/","remote":false}"#,
                r#"{"country":1,"remote":false}"#,
                r#"{"country":"KR","remote":null}"#,
                r#"{"remote":true,"country":"TW","国":1}"#,
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "member_shipping_fee",
            "membershippingfee",
            [
                r#"{"dest":"Tokyo","weight":2000,"total":5,"会員":"gold"}"#,
                r#"{"dest":"Tokyo","weight":2000,"total":5}"#,
                r#"{"dest":"tokyo","weight":2000,"total":5,"会員":"gold"}"#,
                r#"{"dest":"Tokyo","weight":2000,"total":5,"\u4f1a\u54e1":"basic"}"#,
                r#"{"dest":"Tokyo","weight":2e3,"total":5,"member":"gold"}"#,
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (rule, pkg, lines) in &cases {
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        // The reference reads the call itself; a line with `in` is the runner's to unwrap.
        let unwrapped: Vec<String> = lines
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                match v.get("in") {
                    Some(inner) if l.starts_with("{\"in\"") => inner.to_string(),
                    _ => l.to_string(),
                }
            })
            .collect();
        let unwrapped: Vec<&str> = unwrapped.iter().map(String::as_str).collect();
        let want = reference(&corpus.join(format!("{rule}.rule")), &unwrapped);
        let got = runner(&go.join(pkg), &lines);
        assert_eq!(want.len(), lines.len(), "{rule}: one reference line per call");
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(got.get(i), want.get(i), "{rule}: {line}");
        }
        assert_eq!(got.len(), want.len(), "{rule}");
    }
}

/// What the corpus does not reach: an `if … then … else` inside an expression (a function
/// literal, so only the branch taken runs) and nested ones, optional inputs of every kind,
/// optional outputs with a unit and a rounding, a constraint over an optional, a date output,
/// negative numbers into `mod`, min and max over an ordered enum, a non-ASCII name with an
/// alias that is a Go builtin (`len`).
#[test]
fn go_carries_what_the_corpus_does_not_reach() {
    if !have_go("go_carries_what_the_corpus_does_not_reach") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(rules.join("odd_bits.rule"), ODD_BITS).unwrap();
    std::fs::write(rules.join("one_opt.rule"), ONE_OPT).unwrap();
    let out = tmp.path().join("out");
    generate(&[rules.join("odd_bits.rule"), rules.join("one_opt.rule")], &out);
    assert_test_passes(&out, 2);
    let o = Command::new("gofmt").arg("-l").arg(out.join("go")).output().expect("gofmt runs");
    assert_eq!(text(&o.stdout), "", "gofmt -l lists no file");
    for pkg in packages(&out.join("go")) {
        let o = Command::new("go").args(["vet", "./..."]).current_dir(&pkg).env("GOPROXY", "off").output().unwrap();
        assert!(o.status.success(), "go vet {}: {}", pkg.display(), text(&o.stderr));
    }
    let lines = [
        r#"{"値":5,"c":"赤"}"#,
        r#"{"値":5,"c":"blue","when":"2026-01-01"}"#,
        r#"{"値":5,"c":"blue","when":"2026-01-02"}"#,
        r#"{"値":11,"c":"blue","when":null}"#,
        r#"{"c":"blue"}"#,
        r#"{"値":101,"c":"blue"}"#,
        r#"{"値":1.5,"c":"blue"}"#,
        r#"{"値":5,"c":"red"}"#,
    ];
    let want = reference(&rules.join("one_opt.rule"), &lines);
    let got = runner(&out.join("go/oneopt"), &lines);
    assert_eq!(got, want);
}

const ODD_BITS: &str = r#"rule odd_bits v1
about "Synthetic: optionals, nested ifs, negative numbers, mod, dates."

enum level: low < mid < high

input a: int -1000..1000
input b: int -1000..1000
input lvl: level low..high
input coupon: money[JPY]? 0JPY..500JPY
input paid: money[JPY] 0JPY..100000JPY
input day: date 2026-01-01..2026-12-31
input flag: bool?
input label: string?

constraint coupon <= paid

output picked: int -3000..3000
output rem: int 0..6
output later: date
output top: level
output pay: money[JPY]? 0JPY..100000JPY round half_up(10JPY)
output tag: string?
output neg: int -1000..1000

define picked = 1 + (if a > 0 then (if b > 0 then a + b else b - a) else (if b < -5 then -a else a * 2))
define rem = mod(a - b, 7)
define later = day + 3
define top = min(max(lvl, mid), high)
define neg = -(a)

table pay_of -> pay, tag
| coupon   | flag        | label  | pay          | tag     |
|----------|-------------|--------|--------------|---------|
| none     | -           | -      | none         | none    |
| >=1JPY   | true        | -      | paid * 3 / 7 | "yes"   |
| >=1JPY   | false, none | -      | paid         | none    |
| 0JPY     | -           | -      | 0JPY         | "zero"  |
"#;

const ONE_OPT: &str = r#"rule 単一(one_opt) v1

enum 色(colour): 赤(red), blue

input 値(len): money[USD]? 0USD..100USD
input c: 色
input when: date?

output price: money[USDc]? 0USDc..30000USDc round down(1USDc)

table price_of -> price
| 値      | c    | when         | price   |
|---------|------|--------------|---------|
| none    | -    | -            | none    |
| <=10USD | 赤   | -            | 439USDc |
| <=10USD | blue | none         | 1USD    |
| <=10USD | blue | <=2026-01-01 | 2USD    |
| <=10USD | blue | >2026-01-01  | 3USD    |
| >10USD  | -    | -            | 300USDc |
"#;

/// Build and run a Go program of the package `pkg` (its `cmd/NAME/main.go`): what it prints.
fn go_program(pkg: &Path, name: &str, source: &str) -> String {
    let dir = pkg.join("cmd").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.go"), source).unwrap();
    let o = Command::new("go")
        .args(["run", &format!("./cmd/{name}")])
        .current_dir(pkg)
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .output()
        .expect("go run runs");
    assert!(o.status.success(), "go run {name}: {}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stdout)
}

/// The package as a Go caller meets it: a forgotten field (an enum's zero value) is refused
/// as missing, an integer that is no value of its enum as not one of them, both printing
/// `what: value`; errors.As tells the two errors apart; the wire door takes a map built in
/// Go (Go integers, json.Number, a float is not an integer) and names the first unknown key
/// in the order given, else the least of them.
#[test]
fn a_go_caller_meets_the_contract() {
    if !have_go("a_go_caller_meets_the_contract") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    generate(&[corpus.join("single_coupon.rule")], tmp.path());
    let got = go_program(
        &tmp.path().join("go/singlecoupon"),
        "caller",
        r#"package main

import (
	"encoding/json"
	"errors"
	"fmt"

	rule "rulec/singlecoupon"
)

func main() {
	var refused *rule.RuleInputError
	_, err := rule.SingleCoupon(rule.Input{})
	fmt.Println(errors.As(err, &refused), refused.What, refused.HasValue)
	_, err = rule.SingleCoupon(rule.Input{Kind: rule.CouponKind(7)})
	fmt.Println(err)
	_, err = rule.SingleCoupon(rule.Input{Subtotal: 5, Applied: 6, Kind: rule.CouponKindFixed})
	fmt.Println(err)
	out, err := rule.SingleCoupon(rule.Input{Subtotal: 1000, Kind: rule.CouponKindPercent, Rate: 10})
	fmt.Println(out.Ok, out.Raw, err)
	call := map[string]any{"subtotal": 1000, "applied": int64(0), "kind": "percent", "rate": json.Number("1e1"), "face": 0, "dup": false}
	line, err := rule.SingleCouponWire(call, "t")
	fmt.Println(line, err)
	call["zzz"], call["aaa"] = 1, 2
	_, err = rule.SingleCouponWire(call, "")
	fmt.Println(err)
	_, err = rule.SingleCouponWire(call, "", "subtotal", "zzz", "aaa")
	fmt.Println(err)
	call["subtotal"] = 1000.0
	_, err = rule.SingleCouponWire(call, "")
	fmt.Println(err)
	v, _ := rule.ParseCouponKind("free_ship")
	fmt.Println(v, v.Valid(), rule.CouponKind(0).Valid(), rule.CouponKind(0))
}
"#,
    );
    let record = r#"{"tag":"t","in":{"subtotal":1000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":100},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#;
    let want = [
        "true kind is missing false",
        "kind is not a value of enum coupon_kind: CouponKind(7)",
        "the constraint does not hold: applied <= subtotal",
        "true 100 <nil>",
        &format!("{record} <nil>"),
        "aaa is not an input",
        "zzz is not an input",
        "subtotal is not an integer: 1000",
        "free_ship true false CouponKind(0)",
    ];
    assert_eq!(got.lines().collect::<Vec<_>>(), want, "{got}");
}

/// A refused day or member is shown as the wire writes it ("2027-01-01", "basic"), as every
/// language shows it, by the function and by the wire door alike; Value holds the day's text
/// (a day no `YYYY-MM-DD` writes, which only the function can be given, as its number) and
/// the member itself. A string the door refuses is shown quoted too.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    if !have_go("a_refused_date_or_member_is_shown_in_the_wire_form") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    generate(&[corpus.join("ticket_price.rule"), corpus.join("member_discount.rule")], tmp.path());
    let show = r#"
func show(err error) {
	var refused *rule.RuleInputError
	errors.As(err, &refused)
	fmt.Printf("%v | %v %T\n", err, refused.Value, refused.Value)
}
"#;
    let program = |body: &str| {
        format!("package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\n\trule \"rulec/PKG\"\n)\n{show}\nfunc main() {{\n{body}}}\n")
    };
    let tickets = program(
        r#"	day, _ := rule.ParseDate("2027-01-01")
	_, err := rule.TicketPrice(rule.Input{Age: 30, Visit: day, Member: true})
	show(err)
	_, err = rule.TicketPrice(rule.Input{Age: 30, Visit: rule.Date(9223372036854775807), Member: true})
	show(err)
	_, err = rule.TicketPriceWire(map[string]any{"age": 30, "visit": "2027-01-01", "member": true}, "")
	show(err)
	_, err = rule.TicketPriceWire(map[string]any{"age": "30", "visit": "2026-01-01", "member": true}, "")
	show(err)
	_, err = rule.TicketPriceWire(map[string]any{"age": 30, "visit": "2026-02-30", "member": true}, "")
	show(err)
"#,
    );
    let got = go_program(&tmp.path().join("go/ticketprice"), "caller", &tickets.replace("PKG", "ticketprice"));
    assert_eq!(
        got,
        "visit is out of range: \"2027-01-01\" | 2027-01-01 string\n\
         visit is out of range: 9223372036854775807 | 9223372036854775807 int64\n\
         visit is out of range: \"2027-01-01\" | 2027-01-01 string\n\
         age is not an integer: \"30\" | 30 string\n\
         visit is not a date: \"2026-02-30\" | 2026-02-30 string\n"
    );
    let members = program(
        r#"	_, err := rule.MemberDiscount(rule.Input{Tier: rule.TierBasic, Channel: rule.ChannelWeb, Subtotal: 1000})
	show(err)
	_, err = rule.MemberDiscountWire(map[string]any{"tier": "basic", "channel": "web", "subtotal": 1000}, "")
	show(err)
	_, err = rule.MemberDiscountWire(map[string]any{"tier": "gold", "channel": "fax", "subtotal": 1000}, "")
	show(err)
"#,
    );
    let got = go_program(&tmp.path().join("go/memberdiscount"), "caller", &members.replace("PKG", "memberdiscount"));
    // The rule's Tier is the enums file's (an alias): %T names the package that declares it.
    assert_eq!(
        got,
        "tier is out of range: \"basic\" | basic tiers.Tier\n\
         tier is out of range: \"basic\" | basic tiers.Tier\n\
         channel is not a value of enum channel: \"fax\" | fax string\n"
    );
}

/// The runtime file every package's fixed text comes from is a Go file gofmt and go vet
/// accept as it stands, every section in it (the generated files carry only some).
#[test]
fn the_runtime_file_is_go_as_it_stands() {
    if !have_go("the_runtime_file_is_go_as_it_stands") {
        return;
    }
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gen/go/runtime");
    let o = Command::new("gofmt").arg("-l").arg(&runtime).output().expect("gofmt runs");
    assert!(o.status.success(), "gofmt: {}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "", "gofmt -l lists no runtime file");
    let scratch = tempfile::tempdir().unwrap();
    std::fs::copy(runtime.join("module.go"), scratch.path().join("module.go")).unwrap();
    std::fs::write(scratch.path().join("go.mod"), "module rulec\n\ngo 1.18\n").unwrap();
    let o = Command::new("go")
        .args(["vet", "./..."])
        .current_dir(scratch.path())
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .output()
        .expect("go vet runs");
    assert!(o.status.success(), "go vet module.go: {}{}", text(&o.stdout), text(&o.stderr));
}

/// Two rules reading one enums file, generated into one folder: the file's enums are a
/// package of their own (`tiers/go.mod`, `tiers/tiers.go`), the same bytes whichever rule
/// writes it, which each rule's package requires from beside it and names under the names it
/// always had (`type Tier = tiers.Tier`, the constants, `ParseTier`). A caller's module that
/// takes both rules passes one rule's `Tier` to the other's function, and `go build` (offline,
/// GOPROXY=off) accepts it; gofmt and go vet are silent and both rules agree with the
/// reference. A rule named like the enums file it reads would write the package's folder
/// over, and is refused.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_go() {
    if !have_go("two_rules_reading_one_enums_file_share_its_enums_in_go") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "go");
    let go = out.join("go");
    let shared = std::fs::read_to_string(go.join("tiers/tiers.go")).unwrap();
    assert!(shared.contains("\npackage tiers\n") && shared.contains("\ntype Tier int\n"), "{shared}");
    assert!(shared.contains("func ParseTier(s string) (Tier, bool)"), "{shared}");
    assert_eq!(std::fs::read_to_string(go.join("tiers/go.mod")).unwrap(), "module rulec/tiers\n\ngo 1.18\n");
    for pkg in ["memberdiscount", "tierpoints"] {
        let source = std::fs::read_to_string(go.join(pkg).join(format!("{pkg}.go"))).unwrap();
        assert!(source.contains("\ntype Tier = tiers.Tier\n") && source.contains("\t\"rulec/tiers\"\n"), "{source}");
        assert!(source.contains("\tTierGold     = tiers.TierGold\n"), "{source}");
        assert!(!source.contains("type Tier int"), "{pkg} declares no Tier of its own");
        let gomod = std::fs::read_to_string(go.join(pkg).join("go.mod")).unwrap();
        let want =
            format!("module rulec/{pkg}\n\ngo 1.18\n\nrequire rulec/tiers v0.0.0\n\nreplace rulec/tiers => ../tiers\n");
        assert_eq!(gomod, want);
    }
    // The same bytes from each rule alone: a folder holds the package once.
    for rule in ["member_discount", "tier_points"] {
        let alone = d.join(format!("alone_{rule}"));
        common::generate(&[d.join(format!("rules/{rule}.rule"))], "go", &alone);
        for f in ["tiers/go.mod", "tiers/tiers.go"] {
            let a = std::fs::read(alone.join("go").join(f)).unwrap();
            assert!(a == std::fs::read(go.join(f)).unwrap(), "{rule} writes {f} with other bytes");
        }
    }
    let o = Command::new("gofmt").arg("-l").arg(&go).output().expect("gofmt runs");
    assert_eq!(text(&o.stdout), "", "gofmt -l lists no file: {}", text(&o.stderr));
    for pkg in ["tiers", "memberdiscount", "tierpoints"] {
        let o = Command::new("go")
            .args(["vet", "./..."])
            .current_dir(go.join(pkg))
            .env("GOPROXY", "off")
            .env("GO111MODULE", "on")
            .env("GOFLAGS", "-mod=mod")
            .output()
            .expect("go vet runs");
        assert!(o.status.success(), "go vet {pkg}: {}{}", text(&o.stdout), text(&o.stderr));
    }
    common::assert_green(&common::test_json(&out, "go"));
    // rulec api names the package each rule's Tier is declared in.
    let o = common::rulec(&["api", "rules/tier_points.rule", "--lang", "go"], d);
    let api: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o.stderr)));
    let tier = &api["go"]["enums"][0];
    assert_eq!(
        (&tier["alias"], &tier["package"], &tier["module"], &tier["module_path"], &tier["declared"]),
        (&"Tier".into(), &"tiers".into(), &"tiers/tiers.go".into(), &"rulec/tiers".into(), &"Tier".into()),
        "{tier}"
    );
    // The caller's code: a module of its own, taking both rules (and, as Go's modules have it,
    // the package they share) from beside it.
    let caller = go.join("caller");
    std::fs::create_dir_all(&caller).unwrap();
    let mut gomod = "module caller\n\ngo 1.18\n\nrequire (\n".to_string();
    for m in ["memberdiscount", "tierpoints", "tiers"] {
        gomod.push_str(&format!("\trulec/{m} v0.0.0\n"));
    }
    gomod.push_str(")\n\nreplace (\n");
    for m in ["memberdiscount", "tierpoints", "tiers"] {
        gomod.push_str(&format!("\trulec/{m} => ../{m}\n"));
    }
    std::fs::write(caller.join("go.mod"), format!("{gomod})\n")).unwrap();
    let program = r#"package main

import (
	"fmt"

	"rulec/memberdiscount"
	"rulec/tierpoints"
	"rulec/tiers"
)

func main() {
	var gold memberdiscount.Tier = memberdiscount.TierGold
	points, err := tierpoints.TierPoints(tierpoints.Input{Tier: gold})
	fmt.Println(points, err)
	out, err := memberdiscount.MemberDiscount(memberdiscount.Input{Tier: tierpoints.TierPlatinum, Channel: memberdiscount.ChannelWeb, Subtotal: 10000})
	fmt.Println(out.Pct, out.Discount, err)
	parsed, _ := tierpoints.ParseTier("gold")
	var t tiers.Tier = parsed
	fmt.Println(t == memberdiscount.TierGold, t)
}
"#;
    std::fs::write(caller.join("main.go"), program).unwrap();
    let o = Command::new("go")
        .args(["build", "-o", "caller", "."])
        .current_dir(&caller)
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .env("GOWORK", "off")
        .output()
        .expect("go build runs");
    assert!(o.status.success(), "go build caller: {}{}", text(&o.stdout), text(&o.stderr));
    let ran = Command::new(caller.join("caller")).output().unwrap();
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let (gold, discount) = common::two_rules_answers(d);
    let want = format!("{} <nil>\n{} {} <nil>\ntrue gold\n", gold["points"], discount["pct"], discount["discount"]);
    assert_eq!(text(&ran.stdout), want);
    // A rule named like the enums file it reads would write go/tiers/ over.
    let points = std::fs::read_to_string(d.join("rules/tier_points.rule")).unwrap();
    std::fs::write(d.join("rules/tiers.rule"), points.replace("rule tier_points", "rule tiers")).unwrap();
    let clash = common::rulec(&["gen", "rules/tiers.rule", "--out", "clash", "--lang", "go"], d);
    assert_eq!(clash.status.code(), Some(1), "{}", text(&clash.stderr));
    let says = "rules/tiers.rule and an enums file it reads would both write go/tiers/";
    assert!(text(&clash.stderr).contains(says), "{}", text(&clash.stderr));
}
