//! The Java backend over the corpus: every rule generated, built with javac alone and held to
//! the reference evaluator by `rulec test` (the helpers' unit vectors too); javac's every lint
//! an error; the same bytes on a second generation; every name `rulec api` gives in the module.
//!
//! Without javac and java on PATH the tests that need them print a note and pass — unless the
//! environment variable CI is set, where a missing toolchain fails them.

mod common;
use common::command as rulec;

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The clean corpus: `tests/corpus/*.rule` (not `broken/`, not the enums file in `shared/`).
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Whether javac and java are on PATH. When they are not: a failure under CI, a note elsewhere.
fn toolchain(test: &str) -> bool {
    let missing: Vec<&str> = ["javac", "java"].into_iter().filter(|p| !rulec::harness::on_path(p)).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: {} not on PATH, and CI is set", missing.join(" and "));
    }
    eprintln!("note: {test} skipped: {} not on PATH (install a JDK 17 or later)", missing.join(" and "));
    false
}

fn must(out: Output, what: &str) -> Output {
    assert!(out.status.success(), "{what} failed:\n{}{}", text(&out.stdout), text(&out.stderr));
    out
}

/// `Caller.java` in `java`, compiled with the generated `classes` into `to`, and run: its output.
fn run_caller(java: &Path, classes: &[&str], to: &Path) -> Output {
    let mut javac = Command::new("javac");
    javac.args(["--release", "17", "-encoding", "UTF-8", "-d"]).arg(to);
    javac.args(classes.iter().map(|c| java.join(c))).arg(java.join("Caller.java"));
    must(javac.output().unwrap(), "javac");
    must(Command::new("java").arg("-cp").arg(to).arg("Caller").output().unwrap(), "java")
}

/// `rulec gen` of the whole corpus, Java only, into `out`.
fn generate(out: &Path) {
    let mut cmd = rulec();
    cmd.arg("gen").args(corpus()).args(["--lang", "java", "--out"]).arg(out).arg("--lock").arg(out.join("rulec.lock"));
    must(cmd.output().unwrap(), "rulec gen");
}

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_rule_passes_rulec_test_in_java() {
    if !toolchain("every_corpus_rule_passes_rulec_test_in_java") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let out = rulec().arg("test").arg(dir.path()).args(["--lang", "java", "--format", "json"]).output().unwrap();
    let report: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("rulec test printed no JSON ({e}):\n{}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(report["skipped"], serde_json::json!([]), "nothing is skipped: {report:#}");
    let results = report["results"].as_array().unwrap();
    for r in results {
        assert_eq!(r["lang"], "java");
        assert!(r["ran"] == true && r["ok"] == true, "{} did not pass in Java: {r:#}", r["rule"]);
    }
    let mut got: Vec<String> = results.iter().map(|r| r["rule"].as_str().unwrap().to_string()).collect();
    got.sort();
    let mut want: Vec<String> =
        corpus().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    want.push("_helpers".into());
    want.sort();
    assert_eq!(got, want, "every rule and the helpers' vectors ran");
    assert!(out.status.success(), "rulec test exits 0 when every rule passes");
}

/// `javac -Xlint:all -Werror` over every file the corpus generates, in one compilation:
/// which also holds them to `javac *.java`, the build `rulec api` gives (no two files
/// declare one class).
#[test]
fn javac_lints_nothing_in_the_generated_java() {
    if !toolchain("javac_lints_nothing_in_the_generated_java") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let java = dir.path().join("java");
    let files = java_files(&java);
    assert!(files.len() > corpus().len() * 2, "a module and a runner per rule, and the helpers' runner");
    let out = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d"])
        .arg(dir.path().join("classes"))
        .args(&files)
        .output()
        .unwrap();
    must(out, "javac -Xlint:all -Werror");
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate(a.path());
    generate(b.path());
    let (fa, fb) = (java_files(&a.path().join("java")), java_files(&b.path().join("java")));
    assert_eq!(
        fa.iter().map(|p| p.file_name().unwrap()).collect::<Vec<_>>(),
        fb.iter().map(|p| p.file_name().unwrap()).collect::<Vec<_>>()
    );
    for (x, y) in fa.iter().zip(&fb) {
        assert!(std::fs::read(x).unwrap() == std::fs::read(y).unwrap(), "{} differs between two runs", x.display());
    }
    // And `gen --check` finds nothing to rewrite.
    let mut cmd = rulec();
    cmd.arg("gen")
        .args(corpus())
        .args(["--lang", "java", "--check", "--out"])
        .arg(a.path())
        .arg("--lock")
        .arg(a.path().join("rulec.lock"));
    must(cmd.output().unwrap(), "rulec gen --check");
}

/// Every name `rulec api --lang java` gives is one the generated module really declares.
#[test]
fn every_name_rulec_api_gives_is_in_the_module() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    for rule in corpus() {
        let out = must(rulec().arg("api").arg(&rule).args(["--lang", "java"]).output().unwrap(), "rulec api");
        let api: Json = serde_json::from_slice(&out.stdout).unwrap();
        let j = &api["java"];
        let module = j["module"].as_str().unwrap();
        let class = j["class"].as_str().unwrap();
        assert_eq!(module, format!("{class}.java"));
        let src = std::fs::read_to_string(dir.path().join("java").join(module))
            .unwrap_or_else(|e| panic!("{}: no module {module}: {e}", rule.display()));
        let has = |needle: &str, what: &str| {
            assert!(src.contains(needle), "{}: the {what} `{needle}` is not in {module}", rule.display());
        };
        has(&format!("public final class {class} "), "class");
        assert_eq!(j["build"], "javac --release 17 -encoding UTF-8 -d classes *.java");
        for (key, sig) in [("function", "signature"), ("traced", "traced_signature"), ("record", "record_signature")] {
            let name = j[key].as_str().unwrap();
            has(&format!(" {name}("), key);
            has(j[sig].as_str().unwrap(), sig);
        }
        let returns = j["returns"].as_str().unwrap();
        has(&format!("public static {returns} {}(", j["function"].as_str().unwrap()), "returns");
        for p in j["params"].as_array().unwrap() {
            has(&format!("{} {}", p["type"].as_str().unwrap(), p["alias"].as_str().unwrap()), "param");
        }
        for e in j["enums"].as_array().unwrap() {
            let alias = e["alias"].as_str().unwrap();
            // An enum of an enums file is nested in that file's own class, which the rule names.
            let (src, declared) = match e["module"].as_str() {
                Some(shared) => {
                    let class = e["class"].as_str().unwrap();
                    assert_eq!(alias, format!("{class}.{}", e["declared"].as_str().unwrap()));
                    has(&format!("{alias} "), "enum of an enums file");
                    let text = std::fs::read_to_string(dir.path().join("java").join(shared)).unwrap();
                    assert!(text.contains(&format!("public final class {class} ")), "{shared}: {class}");
                    (text, e["declared"].as_str().unwrap())
                }
                None => (src.clone(), alias),
            };
            assert!(src.contains(&format!("public enum {declared} {{")), "{}: enum {declared}", rule.display());
            for v in e["values"].as_array().unwrap() {
                let member = v["alias"].as_str().unwrap();
                let (owner, constant) = member.rsplit_once('.').unwrap();
                assert_eq!(owner, alias, "a member is spelt with its enum");
                let line = format!("        {constant}({}", serde_json::to_string(&v["name"]).unwrap());
                assert!(src.contains(&line), "{}: enum member {line}", rule.display());
            }
        }
        for e in j["errors"].as_array().unwrap() {
            has(&format!("class {} extends", e.as_str().unwrap()), "error");
        }
    }
}

/// The W114 guard: two rows the analysis could not prove apart both match, and the module
/// refuses rather than picking one; the runner prints the contradiction in the record's place
/// (after a key that is not an input, which the door refuses first).
#[test]
fn a_w114_guard_stops_the_call_with_its_sentence() {
    if !toolchain("a_w114_guard_stops_the_call_with_its_sentence") {
        return;
    }
    let src = "rule overlap_guard v1\n\
               input n: int 0..100\n\
               input m: int 0..100\n\
               output band: int 0..3\n\
               table decide -> band\n\
               | n    | m    | band |\n\
               |------|------|------|\n\
               | <=50 | -    | 1    |\n\
               | -    | >=50 | 2    |\n\
               | >50  | <50  | 3    |\n";
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, "overlap_guard.rule", src, &rulec::analysis::Options::default());
    let program = checked.program.expect("the rule resolves and types");
    let mut analysis = checked.analysis.expect("the rule is analysed");
    analysis.guards = vec![rulec::analysis::Guard { table: 0, a: 1, b: 2 }];
    let unit = rulec::gen::Unit::new(&program, &analysis, "overlap_guard.rule", &"0".repeat(64), src);
    let dir = tempfile::tempdir().unwrap();
    for f in rulec::gen::backend(rulec::gen::Lang::Java).generate(&unit) {
        std::fs::write(dir.path().join(&f.path), f.text).unwrap();
    }
    let module = std::fs::read_to_string(dir.path().join("OverlapGuard.java")).unwrap();
    assert!(module.contains("// guard: W114 (table decide, row 1 × row 2)"), "{module}");
    let runner = rulec::gen::backend(rulec::gen::Lang::Java).runner("overlap_guard");
    for step in &runner.build {
        must(Command::new(&step[0]).args(&step[1..]).current_dir(dir.path()).output().unwrap(), "the build");
    }
    let mut child = Command::new(&runner.run[0])
        .args(&runner.run[1..])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines =
        "{\"in\":{\"n\":10,\"m\":60}}\n{\"n\":10,\"m\":60,\"k\":1}\n{\"n\":60,\"m\":10}\n{\"n\":10,\"m\":101}\n";
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), lines.as_bytes()).unwrap();
    let out = must(child.wait_with_output().unwrap(), "the runner");
    assert_eq!(
        text(&out.stdout),
        "{\"refused\":\"contradiction\",\"error\":\"table decide: row 1 and row 2 matched at the same time\"}\n\
         {\"refused\":\"input\",\"error\":\"k is not an input\"}\n\
         {\"in\":{\"n\":60,\"m\":10},\"observed\":{\"band\":3},\"trace\":[{\"table\":\"decide\",\"row\":3}]}\n\
         {\"refused\":\"input\",\"error\":\"m is out of range\"}\n"
    );
}

/// The class's own door, called as a Java caller calls it: an unknown enum name is refused as
/// not a value of the enum (not as missing), a null tag is no tag, and the plain function
/// refuses a null enum as missing.
#[test]
fn the_wire_door_and_the_record_hold_what_a_java_caller_passes() {
    if !toolchain("the_wire_door_and_the_record_hold_what_a_java_caller_passes") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let java = dir.path().join("java");
    std::fs::write(
        java.join("Caller.java"),
        r#"
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

public final class Caller {
    private Caller() {
    }

    public static void main(String[] args) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("subtotal", new BigDecimal("10000"));
        call.put("applied", new BigDecimal("0"));
        call.put("kind", "percent");
        call.put("rate", new BigDecimal("1e1"));
        call.put("face", new BigDecimal("0.0"));
        call.put("dup", false);
        System.out.println(SingleCoupon.singleCouponWire(call, null));
        call.put("kind", "x");
        try {
            SingleCoupon.singleCouponWire(call, "");
        } catch (SingleCoupon.RuleInputError e) {
            System.out.println(e.getMessage());
        }
        try {
            SingleCoupon.singleCoupon(10000, 0, null, 10, 0, false);
        } catch (SingleCoupon.RuleInputError e) {
            System.out.println(e.getMessage());
        }
        try {
            SingleCoupon.singleCoupon(10000, 0, SingleCoupon.CouponKind.FIXED, 101, 0, false);
        } catch (SingleCoupon.RuleInputError e) {
            System.out.println(e.getMessage());
        }
        SingleCoupon.Traced t = SingleCoupon.singleCouponTraced(10000, 0, SingleCoupon.CouponKind.PERCENT, 10, 0, false);
        System.out.println(SingleCoupon.singleCouponRecord(10000, 0, SingleCoupon.CouponKind.PERCENT, 10, 0, false, t.value(), t.trace(), null));
        System.out.println(SingleCoupon.CouponKind.from("free_ship").value());
        try {
            System.out.println(SingleCoupon.CouponKind.from("bogus"));
        } catch (SingleCoupon.RuleInputError e) {
            System.out.println(e.getMessage());
        }
    }
}
"#,
    )
    .unwrap();
    let out = run_caller(&java, &["SingleCoupon.java"], &dir.path().join("classes"));
    let record = r#"{"in":{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false},"observed":{"ok":true,"raw":1000},"trace":[{"table":"applicable","row":3},{"table":"raw_discount","row":2}]}"#;
    assert_eq!(
        text(&out.stdout),
        format!(
            "{record}\nkind is not a value of enum coupon_kind\nkind is missing\nrate is out of range: 101\n{record}\n\
             free_ship\n\"bogus\" is not a value of CouponKind\n"
        )
    );
}

/// A table of enum and boolean cells is written as a `switch` (and an `if` per boolean)
/// whose cases keep the rows in order: on every input of a `first` table whose rows overlap,
/// the Java class answers what the reference evaluator answers, row number included — for a
/// table in a method of its own and for one of two results written in place.
#[test]
fn a_table_of_enum_and_boolean_cells_is_a_switch_where_the_first_matching_row_wins() {
    if !toolchain("a_table_of_enum_and_boolean_cells_is_a_switch_where_the_first_matching_row_wins") {
        return;
    }
    let src = "rule first_wins v1\n\
               enum tier: bronze, silver, gold, platinum\n\
               input tier: tier\n\
               input member: bool\n\
               input express: bool\n\
               value base: money[USD] 0USD..20USD\n\
               output fee: money[USD] 0USD..40USD\n\
               output lane: int 0..9\n\
               output rush: bool\n\
               define fee = base + base\n\
               table base_of first -> base\n\
               | tier           | member | express | base  |\n\
               |----------------|--------|---------|-------|\n\
               | gold, platinum | true   | -       | 0USD  |\n\
               | -              | -      | true    | 20USD |\n\
               | platinum       | -      | -       | 5USD  |\n\
               | not: bronze    | true   | false   | 8USD  |\n\
               | -              | -      | -       | 10USD |\n\
               table route first -> lane, rush\n\
               | express | tier           | lane | rush  |\n\
               |---------|----------------|------|-------|\n\
               | true    | -              | 1    | true  |\n\
               | -       | platinum, gold | 2    | false |\n\
               | -       | -              | 3    | false |\n";
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, "first_wins.rule", src, &rulec::analysis::Options::default());
    let program = checked.program.expect("the rule resolves and types");
    let analysis = checked.analysis.expect("the rule is analysed");
    let unit = rulec::gen::Unit::new(&program, &analysis, "first_wins.rule", &"0".repeat(64), src);
    let dir = tempfile::tempdir().unwrap();
    for f in rulec::gen::backend(rulec::gen::Lang::Java).generate(&unit) {
        std::fs::write(dir.path().join(&f.path), f.text).unwrap();
    }
    let module = std::fs::read_to_string(dir.path().join("FirstWins.java")).unwrap();
    assert_eq!(
        module.matches("switch (tier.ordinal()) {").count(),
        2,
        "both tables switch on the enum's place:\n{module}"
    );
    assert!(!module.contains("tier == Tier."), "no row is tested one after the other:\n{module}");
    let runner = rulec::gen::backend(rulec::gen::Lang::Java).runner("first_wins");
    for step in &runner.build {
        must(Command::new(&step[0]).args(&step[1..]).current_dir(dir.path()).output().unwrap(), "the build");
    }
    let mut lines = String::new();
    for tier in ["bronze", "silver", "gold", "platinum"] {
        for member in [false, true] {
            for express in [false, true] {
                lines.push_str(&format!("{{\"tier\":\"{tier}\",\"member\":{member},\"express\":{express}}}\n"));
            }
        }
    }
    let mut child = Command::new(&runner.run[0])
        .args(&runner.run[1..])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), lines.as_bytes()).unwrap();
    let out = must(child.wait_with_output().unwrap(), "the runner");
    let got = text(&out.stdout);
    let want: Vec<String> = lines.lines().map(|l| rulec::eval::answer(&program, l, "")).collect();
    assert_eq!(got.lines().collect::<Vec<_>>(), want, "the class and the reference differ");
    // The overlaps are real: the first matching row, not the last, answers these.
    assert!(want.iter().any(|w| w.contains("{\"table\":\"base_of\",\"row\":1}") && w.contains("\"express\":true")));
    assert!(want.iter().any(|w| w.contains("{\"table\":\"route\",\"row\":1}") && w.contains("\"tier\":\"gold\"")));
}

/// A refused date or member is shown as the wire writes it ("2027-01-01", "basic"), by the
/// method and by the wire door alike; `value()` is what the caller gave, a day and a member
/// as the wire's text, a number as a Long. A day no `YYYY-MM-DD` writes, which only the
/// typed method can be given, is shown as its number.
#[test]
fn a_refused_date_or_member_is_shown_in_the_wire_form() {
    if !toolchain("a_refused_date_or_member_is_shown_in_the_wire_form") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let java = dir.path().join("java");
    std::fs::write(
        java.join("Caller.java"),
        r#"
import java.math.BigDecimal;
import java.util.Map;

public final class Caller {
    private Caller() {
    }

    private static void show(Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            Object v = e instanceof TicketPrice.RuleInputError t ? t.value() : ((MemberDiscount.RuleInputError) e).value();
            System.out.println(e.getMessage() + " | " + v + " " + v.getClass().getSimpleName());
        }
    }

    public static void main(String[] args) {
        show(() -> TicketPrice.ticketPrice(30, 20819, true));
        show(() -> TicketPrice.ticketPrice(30, Long.MAX_VALUE, true));
        show(() -> TicketPrice.ticketPrice(130, 20600, true));
        show(() -> TicketPrice.ticketPriceWire(Map.of("age", new BigDecimal("30"), "visit", "2027-01-01", "member", true), ""));
        show(() -> MemberDiscount.memberDiscount(Tiers.Tier.BASIC, MemberDiscount.Channel.WEB, 1000, null));
        show(() -> MemberDiscount.memberDiscountWire(Map.of("tier", "basic", "channel", "web", "subtotal", new BigDecimal("1000")), ""));
    }
}
"#,
    )
    .unwrap();
    let out =
        run_caller(&java, &["TicketPrice.java", "MemberDiscount.java", "Tiers.java"], &dir.path().join("classes"));
    assert_eq!(
        text(&out.stdout),
        "visit is out of range: \"2027-01-01\" | 2027-01-01 String\n\
         visit is out of range: 9223372036854775807 | 9223372036854775807 Long\n\
         age is out of range: 130 | 130 Long\n\
         visit is out of range: \"2027-01-01\" | 2027-01-01 String\n\
         tier is out of range: \"basic\" | basic String\n\
         tier is out of range: \"basic\" | basic String\n"
    );
}

/// Two rules reading one enums file, generated into one folder: the file's enums are nested in
/// its own class (`Tiers.java`, the same bytes whichever rule writes it), which each rule's
/// class names, so a caller passes one `Tiers.Tier` to both rules' methods; `rulec api` names
/// the class; javac lints nothing and both rules still agree with the reference.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_java() {
    if !toolchain("two_rules_reading_one_enums_file_share_its_enums_in_java") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "java");
    let java = out.join("java");
    let shared = std::fs::read_to_string(java.join("Tiers.java")).unwrap();
    assert!(shared.contains("public final class Tiers ") && shared.contains("    public enum Tier {"), "{shared}");
    for module in ["MemberDiscount.java", "TierPoints.java"] {
        let source = std::fs::read_to_string(java.join(module)).unwrap();
        assert!(!source.contains("enum Tier "), "{module} declares no Tier of its own");
        assert!(source.contains("(Tiers.Tier tier"), "{module} takes the enums file's Tier");
    }
    // The one rule alone writes the same class.
    common::generate(&[d.join("rules/tier_points.rule")], "java", &d.join("alone"));
    assert_eq!(std::fs::read_to_string(d.join("alone/java/Tiers.java")).unwrap(), shared, "one class from either rule");
    for rule in ["member_discount", "tier_points"] {
        let api = common::api(&d.join(format!("rules/{rule}.rule")), "java");
        let tier = &api["enums"][0];
        let place = [&tier["alias"], &tier["module"], &tier["class"], &tier["declared"]];
        assert_eq!(place, ["Tiers.Tier", "Tiers.java", "Tiers", "Tier"], "{rule}");
    }
    let files = java_files(&java);
    let lint = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d"])
        .arg(d.join("lint"))
        .args(&files)
        .output()
        .unwrap();
    must(lint, "javac -Xlint:all -Werror");
    common::assert_green(&common::test_json(&out, "java"));
    // The caller's code: the tier one rule's method takes is the tier the other's takes.
    let caller = "public final class Caller {
    public static void main(String[] args) {
        Tiers.Tier gold = Tiers.Tier.valueOf(\"GOLD\");
        System.out.println(TierPoints.tierPoints(gold));
        MemberDiscount.Output out = MemberDiscount.memberDiscount(Tiers.Tier.PLATINUM, MemberDiscount.Channel.WEB, 10000, null);
        System.out.println(out.pct() + \" \" + out.discount());
    }
}
";
    std::fs::write(java.join("Caller.java"), caller).unwrap();
    let ran = run_caller(&java, &["Tiers.java", "MemberDiscount.java", "TierPoints.java"], &d.join("caller"));
    let (gold, discount) = common::two_rules_answers(d);
    assert_eq!(text(&ran.stdout), format!("{}\n{} {}\n", gold["points"], discount["pct"], discount["discount"]));
}
