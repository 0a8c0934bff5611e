//! The Python backend held to the reference: every clean rule of the corpus generated and
//! run by `rulec test` (the helpers' unit vectors included), the linters the generated code
//! promises (ruff's E and W, mypy --strict), the same bytes on every generation, every name
//! `rulec api` gives present in the module, and the module's own door as a caller meets it.
//!
//! Without python3 (or ruff, or mypy) a test prints a note and passes — unless CI is set,
//! where a missing toolchain is a failure.

mod common;
use common::command as rulec;

use rulec::harness::on_path;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The clean rules of the corpus (the enums file under shared/ comes with member_discount).
fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Whether the tools are there; a missing one is a failure under CI and a note elsewhere.
fn have(tools: &[&str]) -> bool {
    match tools.iter().find(|t| !on_path(t)) {
        None => true,
        Some(t) if std::env::var_os("CI").is_some() => panic!("{t} is not on PATH, and CI is set"),
        Some(t) => {
            eprintln!("note: {t} is not on PATH; skipping");
            false
        }
    }
}

fn generate(out: &Path) {
    let lock = out.join("rulec.lock");
    let st = rulec()
        .arg("gen")
        .args(corpus())
        .args(["--lang", "python", "--out"])
        .arg(out)
        .arg("--lock")
        .arg(&lock)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "rulec gen failed");
}

/// Every file under `dir`, relative, sorted, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            out.push((rel, std::fs::read(entry.path()).unwrap()));
        }
    }
    out
}

#[test]
fn every_corpus_rule_agrees_with_the_reference() {
    if !have(&["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    // The servers beside the module are tests/serve.rs's: without the contract, the Connect
    // passes stop before starting anything, and only the runner's results are held here.
    std::fs::remove_dir_all(dir.path().join("proto")).unwrap();
    let out = rulec().arg("test").arg(dir.path()).args(["--lang", "python", "--format", "json"]).output().unwrap();
    let report: Json = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "rulec test printed no JSON:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let skipped: Vec<&Json> = report["skipped"].as_array().unwrap().iter().filter(|s| s["via"] == "runner").collect();
    assert!(skipped.is_empty(), "nothing is skipped: {skipped:?}");
    let results: Vec<&Json> = report["results"].as_array().unwrap().iter().filter(|r| r["via"] == "runner").collect();
    let mut rules: Vec<&str> = results.iter().map(|r| r["rule"].as_str().unwrap()).collect();
    rules.sort();
    let mut want: Vec<String> =
        corpus().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    want.push("_helpers".into());
    want.sort();
    assert_eq!(rules, want, "every rule and the helpers are tested");
    for r in results {
        assert_eq!(r["lang"], "python");
        assert!(r["ran"] == true && r["ok"] == true, "{r}");
        assert!(r["vectors"].as_u64().unwrap() > 0, "{r}");
    }
    // Exit 1 for the Connect passes left without their contract; never 2.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{:?}", out.status);
}

#[test]
fn the_generated_code_passes_ruff_and_mypy_strict() {
    if !have(&["python3", "ruff", "mypy"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let py = dir.path().join("python");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&py)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        // The servers beside the module import connectrpc and their stubs: tests/serve.rs lints them.
        .filter(|p| !["_mcp.py", "_service.py", "_connect_runner.py"].iter().any(|s| p.to_string_lossy().ends_with(s)))
        .collect();
    sources.sort();
    // Each rule's module and runner, the helpers' runner, and the enums file's module.
    assert_eq!(sources.len(), 2 * corpus().len() + 2, "{sources:?}");

    // F: pyflakes too — an import, a variable or a name the module defines and never reads.
    let ruff = Command::new("ruff")
        .args(["check", "--no-cache", "--select", "E,W,F", "--ignore", "E501", "--output-format", "concise"])
        .args(&sources)
        .output()
        .unwrap();
    assert!(
        ruff.status.success(),
        "ruff:\n{}{}",
        String::from_utf8_lossy(&ruff.stdout),
        String::from_utf8_lossy(&ruff.stderr)
    );

    // No dead code: every helper a module carries is one it calls.
    for f in &sources {
        let uncalled = common::uncalled_functions(&std::fs::read_to_string(f).unwrap(), "def ");
        assert!(uncalled.is_empty(), "{}: defined and never called: {uncalled:?}", f.display());
    }

    let mypy = Command::new("mypy")
        .args(["--strict", "--no-incremental", "--cache-dir"])
        .arg(dir.path().join(".mypy_cache"))
        .args(&sources)
        .current_dir(&py)
        .output()
        .unwrap();
    assert!(
        mypy.status.success(),
        "mypy --strict:\n{}{}",
        String::from_utf8_lossy(&mypy.stdout),
        String::from_utf8_lossy(&mypy.stderr)
    );
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate(a.path());
    generate(b.path());
    let (fa, fb) = (files(&a.path().join("python")), files(&b.path().join("python")));
    assert!(!fa.is_empty());
    assert_eq!(fa.len(), fb.len());
    for ((na, ba), (nb, bb)) in fa.iter().zip(&fb) {
        assert_eq!(na, nb);
        assert!(ba == bb, "{na} differs between two generations");
    }
}

#[test]
fn every_name_rulec_api_gives_is_in_the_module() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    for rule in corpus() {
        let out = rulec().arg("api").arg(&rule).args(["--lang", "python"]).output().unwrap();
        assert!(out.status.success(), "rulec api {}", rule.display());
        let api: Json = serde_json::from_slice(&out.stdout).unwrap();
        let py = &api["python"];
        let module =
            std::fs::read_to_string(dir.path().join("python").join(format!("{}.py", py["module"].as_str().unwrap())))
                .unwrap();
        let s = |k: &str| py[k].as_str().unwrap_or_else(|| panic!("{}: no {k}", rule.display())).to_string();
        for (name, sig) in [("function", "signature"), ("traced", "traced_signature"), ("record", "record_signature")] {
            assert!(module.contains(&format!("def {}(", s(name))), "{}: def {}", rule.display(), s(name));
            assert!(module.contains(&s(sig)), "{}: {} not in the module", rule.display(), s(sig));
        }
        assert!(module.contains(&format!("-> {}:", s("returns"))), "{}: returns {}", rule.display(), s("returns"));
        for p in py["params"].as_array().unwrap() {
            let (alias, ty) = (p["alias"].as_str().unwrap(), p["type"].as_str().unwrap());
            assert!(s("signature").contains(&format!("{alias}: {ty}")), "{}: param {alias}", rule.display());
        }
        for o in py["outputs"].as_array().unwrap() {
            if s("returns") == "Output" {
                let (alias, ty) = (o["alias"].as_str().unwrap(), o["type"].as_str().unwrap());
                assert!(module.contains(&format!("    {alias}: {ty}")), "{}: output {alias}", rule.display());
            }
        }
        for e in py["enums"].as_array().unwrap() {
            let alias = e["alias"].as_str().unwrap();
            // An enum of an enums file is declared in that file's module, which the rule's
            // imports under its own name for it.
            let (module, declared) = match e["file"].as_str() {
                Some(file) => {
                    let (from, declared) = (e["module"].as_str().unwrap(), e["declared"].as_str().unwrap());
                    let import = format!("from {from} import {declared} as {alias}");
                    assert!(module.contains(&import), "{}: {import}", rule.display());
                    (std::fs::read_to_string(dir.path().join("python").join(file)).unwrap(), declared)
                }
                None => (module.clone(), alias),
            };
            assert!(module.contains(&format!("class {declared}(Enum):")), "{}: enum {declared}", rule.display());
            for v in e["values"].as_array().unwrap() {
                let (member, name) = (v["alias"].as_str().unwrap(), v["name"].as_str().unwrap());
                let line = format!("    {member} = {}\n", serde_json::to_string(name).unwrap());
                assert!(module.contains(&line), "{}: member {alias}.{member}", rule.display());
            }
        }
        for err in py["errors"].as_array().unwrap() {
            assert!(module.contains(&format!("class {}(", err.as_str().unwrap())), "{}: {err}", rule.display());
        }
    }
}

/// Run a Python snippet beside the generated modules; its standard output.
fn python(dir: &Path, code: &str) -> String {
    let out = Command::new("python3").arg("-B").arg("-c").arg(code).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "python3:\n{code}\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_module_door_holds_what_a_caller_passes() {
    if !have(&["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let py = dir.path().join("python");
    let got = python(
        &py,
        r#"
from single_coupon import single_coupon, single_coupon_traced, single_coupon_record, CouponKind, RuleInputError, RuleContradictionError
out = single_coupon(subtotal=10000, applied=0, kind=CouponKind.PERCENT, rate=10, face=0, dup=False)
print(out.ok, out.raw, type(out.raw).__name__)
print(single_coupon(10000.0, 0, CouponKind.PERCENT, 1e1, 0, False))
out, trace = single_coupon_traced(10000, 0, CouponKind.PERCENT, 10, 0, False)
print(single_coupon_record(10000, 0, CouponKind.PERCENT, 10, 0, False, out, trace, "order:1"))
print(issubclass(RuleInputError, ValueError), issubclass(RuleContradictionError, AssertionError))
for args in [(True, 0, CouponKind.PERCENT, 10, 0, False), (10000.5, 0, CouponKind.PERCENT, 10, 0, False),
             ("10000", 0, CouponKind.PERCENT, 10, 0, False), (None, 0, CouponKind.PERCENT, 10, 0, False),
             (10000, 0, "percent", 10, 0, False), (10000, 0, CouponKind.FIXED, 10, 0, 0),
             (10000, 0, CouponKind.FIXED, 101, 0, False), (10000, 20000, CouponKind.FIXED, 1, 0, False)]:
    try:
        single_coupon(*args)
        print("answered", args)
    except RuleInputError as e:
        print(repr(e.what), repr(e.value), str(e) == (e.what if e.value is None else e.what + ": " + e.value))
"#,
    );
    let want = r#"True 1000 int
Output(ok=True, raw=1000)
{"tag":"order:1","in":{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":1000},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}
True True
'subtotal is not an integer' 'True' True
'subtotal is not an integer' '10000.5' True
'subtotal is not an integer' "'10000'" True
'subtotal is missing' None True
'kind is not a value of enum coupon_kind' "'percent'" True
'dup is not a boolean' '0' True
'rate is out of range' '101' True
'the constraint does not hold: applied <= subtotal' None True
"#;
    assert_eq!(got, want);
}

/// A refusal shows the value as the wire writes it — a date as its date, a member by its
/// name — through the typed function and the wire entry alike, never a day number or a repr.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    if !have(&["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let got = python(
        &dir.path().join("python"),
        r#"
from late_fee import late_fee, late_fee_wire
from member_discount import member_discount, member_discount_wire, Channel, Tier
for call in [lambda: late_fee(20453, 20460, 1000), lambda: late_fee_wire({"due": "2025-12-31", "paid": "2026-01-02", "amount": 1000}),
             lambda: member_discount(Tier.BASIC, Channel.WEB, 1000, None),
             lambda: member_discount_wire({"tier": "basic", "channel": "web", "subtotal": 1000, "coupon": None})]:
    try:
        call()
    except ValueError as e:
        print(e.value, "|", e)
"#,
    );
    let want = "\"2025-12-31\" | due is out of range: \"2025-12-31\"\n".repeat(2)
        + &"\"basic\" | tier is out of range: \"basic\"\n".repeat(2);
    assert_eq!(got, want);
}

/// No rule of the corpus leaves a pair of rows unproven (W114), so the guard is put on one
/// by hand: rows 1 (`<=5`) and 2 (`<=17`) of ticket_price's `first` table meet at age 3.
#[test]
fn a_w114_guard_refuses_a_case_both_rows_match() {
    if !have(&["python3"]) {
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
    for f in rulec::gen::backend(rulec::gen::Lang::Python).generate(&unit) {
        std::fs::write(dir.path().join(&f.path), f.text).unwrap();
    }
    let module = std::fs::read_to_string(dir.path().join("ticket_price.py")).unwrap();
    assert!(module.contains(
        "    # guard: W114 (table price_of, row 1 × row 2): a pair of rows whose exclusivity could not be proven statically\n"
    ));
    let got = python(
        dir.path(),
        r#"
from ticket_price import ticket_price, RuleContradictionError
print(ticket_price(30, 20454, False))
try:
    ticket_price(3, 20454, False)
except RuleContradictionError as e:
    print(e.what, e.value)
"#,
    );
    assert_eq!(got, "1500\ntable price_of: row 1 and row 2 matched at the same time None\n");
    // The runner prints it as a contradiction, after the keys that are not inputs.
    let lines = "{\"in\":{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false}}\n{\"age\":3,\"visit\":\"2026-01-01\",\"member\":false,\"x\":1}\n";
    let mut child = Command::new("python3")
        .args(["-B", "ticket_price_runner.py"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), lines.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"refused\":\"contradiction\",\"error\":\"table price_of: row 1 and row 2 matched at the same time\"}\n\
         {\"refused\":\"input\",\"error\":\"x is not an input\"}\n"
    );
}

/// `rulec api`'s error_types name what the module raises: the entry guard's refusal is an
/// instance of the input error, and every field the entry lists is there to read, on it and
/// on the contradiction error.
#[test]
fn error_types_are_what_the_module_raises() {
    if !have(&["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let out = rulec().args(["api", "tests/corpus/single_coupon.rule", "--lang", "python"]).current_dir(root()).output();
    let api: Json = serde_json::from_slice(&out.unwrap().stdout).unwrap();
    let types = &api["python"]["error_types"];
    let errors = api["python"]["errors"].as_array().unwrap();
    for kind in ["input", "contradiction"] {
        assert!(errors.contains(&types[kind]["name"]), "{kind}: {types} not among {errors:?}");
    }
    let got = python(
        &dir.path().join("python"),
        &format!(
            r#"
import json
import single_coupon as m
types = json.loads({types:?})
try:
    m.single_coupon(10000, 0, m.CouponKind.FIXED, 101, 0, False)
except getattr(m, types["input"]["name"]) as e:
    print([getattr(e, f) for f in types["input"]["fields"]])
e = getattr(m, types["contradiction"]["name"])("table t: row 1 and row 2 matched at the same time")
print([getattr(e, f) for f in types["contradiction"]["fields"]])
"#,
            types = types.to_string()
        ),
    );
    assert_eq!(got, "['rate is out of range', '101']\n['table t: row 1 and row 2 matched at the same time', None]\n");
}

/// Two rules reading one enums file, generated into one folder: the file's enums are its own
/// module (`tiers.py`, written once, the same bytes whichever rule writes it), which each
/// rule's module imports and hands on under the name callers use, so `member_discount.Tier`,
/// `tier_points.Tier` and `tiers.Tier` are one class: a caller passes a member from one
/// rule's module to the other's function, mypy --strict agrees, and both rules still agree
/// with the reference. `rulec api` names the module; a rule named like the enums file it
/// reads is refused.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_python() {
    if !have(&["python3"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "python");
    let py = out.join("python");
    let shared = std::fs::read_to_string(py.join("tiers.py")).unwrap();
    assert!(shared.contains("\nclass Tier(Enum):\n") && shared.contains("    PLATINUM = \"platinum\"\n"), "{shared}");
    for module in ["member_discount.py", "tier_points.py"] {
        let source = std::fs::read_to_string(py.join(module)).unwrap();
        assert!(source.contains("\nfrom tiers import Tier as Tier\n"), "{source}");
        assert!(!source.contains("class Tier("), "{module} declares no Tier of its own");
    }
    // Each rule alone writes the same module.
    for rule in ["member_discount", "tier_points"] {
        let alone = d.join(format!("alone_{rule}"));
        common::generate(&[d.join(format!("rules/{rule}.rule"))], "python", &alone);
        assert_eq!(std::fs::read_to_string(alone.join("python/tiers.py")).unwrap(), shared, "{rule} alone");
    }
    let report = common::test_json(&out, "python");
    let runs: Vec<&Json> = report["results"].as_array().unwrap().iter().filter(|r| r["via"] == "runner").collect();
    assert_eq!(runs.len(), 3, "the two rules and the helpers: {report}");
    for r in runs {
        assert!(r["ran"] == true && r["ok"] == true, "{r}");
    }
    let api = common::api(&d.join("rules/tier_points.rule"), "python");
    let tier = &api["enums"][0];
    assert_eq!(
        (&tier["module"], &tier["file"], &tier["declared"]),
        (&json!("tiers"), &json!("tiers.py"), &json!("Tier"))
    );
    // The caller's code: a tier from either rule's module is one member of one enum.
    let caller = "import member_discount\nimport tier_points\nimport tiers\n\n\
        print(tier_points.tier_points(member_discount.Tier.GOLD))\n\
        out = member_discount.member_discount(tier_points.Tier.PLATINUM, member_discount.Channel.WEB, member_discount.JPYInclTax(10000), None)\n\
        print(out.pct, out.discount)\n\
        print(member_discount.Tier is tier_points.Tier is tiers.Tier)\n";
    std::fs::write(py.join("caller.py"), caller).unwrap();
    let ran = Command::new("python3").args(["-B", "caller.py"]).current_dir(&py).output().unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let (gold, discount) = common::two_rules_answers(d);
    let want = format!("{}\n{} {}\nTrue\n", gold["points"], discount["pct"], discount["discount"]);
    assert_eq!(String::from_utf8_lossy(&ran.stdout), want);
    if have(&["ruff", "mypy"]) {
        let files = ["tiers.py", "member_discount.py", "tier_points.py", "caller.py"];
        let ruff = Command::new("ruff")
            .args(["check", "--no-cache", "--select", "E,W,F", "--ignore", "E501", "--output-format", "concise"])
            .args(files)
            .current_dir(&py)
            .output()
            .unwrap();
        assert!(ruff.status.success(), "ruff:\n{}", String::from_utf8_lossy(&ruff.stdout));
        let mypy = Command::new("mypy")
            .args(["--strict", "--no-incremental", "--cache-dir"])
            .arg(d.join(".mypy_cache"))
            .args(files)
            .current_dir(&py)
            .output()
            .unwrap();
        assert!(mypy.status.success(), "mypy --strict:\n{}", String::from_utf8_lossy(&mypy.stdout));
    }
    // A rule named like the enums file it reads would write its module over the file's.
    let points = std::fs::read_to_string(d.join("rules/tier_points.rule")).unwrap();
    std::fs::write(d.join("rules/tiers.rule"), points.replace("rule tier_points", "rule tiers")).unwrap();
    let clash = common::rulec(&["gen", "rules/tiers.rule", "--out", "clash", "--lang", "python"], d);
    assert_eq!(clash.status.code(), Some(1), "{}", common::text(&clash.stderr));
    let says = "rules/tiers.rule and an enums file it reads would both write python/tiers.py";
    assert!(common::text(&clash.stderr).contains(says), "{}", common::text(&clash.stderr));
}

/// Every module a Python runtime file imports is one `rulec gen` keeps a rule's or an enums
/// file's module from taking, and a rule named `json` is refused, naming the fix: its
/// `json.py` beside the runner hid the standard library's json (the runner then failed with
/// AttributeError).
#[test]
fn a_module_named_like_one_the_generated_python_imports_is_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtimes = ["python", "serve", "numpy", "sql"].map(|b| root.join("src/gen").join(b).join("runtime"));
    let mut imported = std::collections::BTreeSet::new();
    for f in runtimes.iter().flat_map(|d| std::fs::read_dir(d).unwrap()).map(|e| e.unwrap().path()) {
        if f.extension().is_some_and(|e| e == "py") {
            for line in std::fs::read_to_string(&f).unwrap().lines().map(str::trim_start) {
                let Some(rest) = line.strip_prefix("import ").or_else(|| line.strip_prefix("from ")) else { continue };
                let module: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                // `module` and `rulec_rule` stand for the rule's own module, filled by the
                // backend; `rulec_np` is rulec's own, written beside it.
                if !module.is_empty() && !["module", "rulec_rule", "rulec_np"].contains(&module.as_str()) {
                    imported.insert(module);
                }
            }
        }
    }
    let listed: std::collections::BTreeSet<String> =
        rulec::gen::python::shared::IMPORTED.iter().map(|m| m.to_string()).collect();
    assert_eq!(imported, listed, "python/shared.rs's IMPORTED against the runtime files' imports");
    let d = tempfile::tempdir().unwrap();
    let rule = "rule json v1\nabout \"A rule named like a module.\"\n\ninput a: int 0..10\noutput b: int 0..20\n\ndefine b = a + 1\n\nexpect a=1 -> b=2\n";
    std::fs::write(d.path().join("json.rule"), rule).unwrap();
    let o =
        rulec().current_dir(d.path()).args(["gen", "json.rule", "--out", "out", "--lang", "python"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("hides Python's own module json"), "{err}");
    assert!(!d.path().join("out/python/json.py").exists());
    // With an alias it is generated.
    std::fs::write(d.path().join("json.rule"), rule.replace("rule json v1", "rule json(json_rule) v1")).unwrap();
    let o =
        rulec().current_dir(d.path()).args(["gen", "json.rule", "--out", "out", "--lang", "python"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
