//! The page of every rule (`rulec gen` writes `javascript/<alias>_page.html`, the same bytes
//! `rulec doc --format html` prints), tested where a reader meets it: in a real headless
//! Chromium, with the network off. For every corpus rule, at least 20 cases are typed into
//! the form and the answer, the lit rows and the sentence a refused input shows by its field
//! are read back from the page and held to what the reference evaluator expects — the
//! records of `vectors/<alias>.expected.jsonl`, and where a rule has fewer than 20 cases a
//! form can type, more calls one input apart from those, evaluated by the reference. The
//! cards are held to `rulec graph`'s columns. A screenshot of parcel_rate's page is saved
//! as target/page/parcel_rate.png.
//!
//! The browser is Debian's chromium with chromium-driver, driven by Selenium from PyPI;
//! `scripts/setup.sh` installs them. Without them the browser test says so and returns,
//! unless `CI` is set, where that is a failure.

mod common;
use common::at_root as rulec;

use rulec::sema::{Program, Ty};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CASES_PER_RULE: usize = 20;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The clean corpus, and the rules of DMN's multiple-hit tables (list outputs on the page).
fn corpus() -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for folder in ["tests/corpus", "tests/multi_hit"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        rules.extend(
            (std::fs::read_dir(&dir).expect("the corpus").filter_map(|e| e.ok()).map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "rule"))
                .map(|p| format!("{folder}/{}", p.file_name().unwrap().to_string_lossy())),
        );
    }
    rules.sort();
    assert!(rules.len() >= 9, "the corpus is there");
    rules
}

/// `rulec gen --lang javascript` of the whole corpus into `out`.
fn generate(out: &Path) {
    let lock = out.join("rulec.lock");
    let mut args: Vec<String> = vec!["gen".into()];
    args.extend(corpus());
    for a in ["--lang", "javascript", "--out", &out.to_string_lossy(), "--lock", &lock.to_string_lossy()] {
        args.push(a.to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = rulec(&args);
    assert!(o.status.success(), "rulec gen failed:\n{}{}", text(&o.stdout), text(&o.stderr));
}

fn program(rule: &str) -> Program {
    let mut sources = rulec::Sources::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rule);
    let checked = rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default()).unwrap();
    assert!(!checked.has_errors(), "{rule} checks clean");
    checked.program.unwrap()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The text a reader types (or the option they choose) so that the page sends `value` for
/// this input — `None` when no form entry sends it (a string where a number goes, say).
fn typed(p: &Program, input: usize, value: Option<&Json>) -> Option<String> {
    let var = &p.vars[p.inputs[input]];
    let value = value.filter(|v| !v.is_null());
    let Some(v) = value else {
        // An empty text or date field, or a select's "none": missing, or none for an optional.
        return match &var.ty {
            Ty::Enum(_) | Ty::Bool | Ty::Str => var.optional.then(String::new),
            _ => Some(String::new()),
        };
    };
    match (&var.ty, v) {
        (Ty::Bool, Json::Bool(b)) => Some(b.to_string()),
        (Ty::Enum(e), Json::String(s)) => p.enums[*e].values.iter().any(|x| &x.name == s).then(|| s.clone()),
        (Ty::Date, Json::String(s)) => rulec::num::date::parse(s).map(|_| s.clone()),
        (Ty::Str, Json::String(s)) if !(s.is_empty() && var.optional) => Some(s.clone()),
        (Ty::Rate { step }, Json::Number(n)) => {
            let steps = rulec::num::parse_decimal(&n.to_string())?;
            Some(rulec::num::to_decimal_string(&(steps * step * rulec::num::int(100))))
        }
        (Ty::Int | Ty::Money { .. } | Ty::Qty { .. }, Json::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// A case as the browser driver takes it: what to type in each field, and the expected line.
fn case(p: &Program, input: &Json, expected: String) -> Option<Json> {
    let obj = input.as_object()?;
    if obj.keys().any(|k| !p.inputs.iter().any(|&v| &p.vars[v].name == k)) {
        return None;
    }
    let mut fill = serde_json::Map::new();
    for (i, &v) in p.inputs.iter().enumerate() {
        fill.insert(p.vars[v].name.clone(), json!(typed(p, i, obj.get(&p.vars[v].name))?));
    }
    // A refusal about one input names it first: the page shows it by that field.
    let exp: Json = serde_json::from_str(&expected).unwrap();
    let field = exp["error"].as_str().and_then(|what| {
        p.inputs
            .iter()
            .map(|&v| p.vars[v].name.as_str())
            .filter(|n| what.starts_with(&format!("{n} ")))
            .max_by_key(|n| n.len())
    });
    Some(json!({"fill": fill, "expected": expected, "field": field}))
}

/// Every string a cell compares a string input with, each in lower case too, the empty
/// string and one no cell names.
fn strings_compared(p: &Program, input: rulec::sema::VarId) -> Vec<String> {
    let mut out = vec![String::new(), "ZZ".to_string()];
    for t in &p.tables {
        for (ci, &col) in t.conds.iter().enumerate() {
            if col != input {
                continue;
            }
            for row in &t.rows {
                if let rulec::sema::CondIr::Tests { tests, .. } = &row.conds[ci] {
                    for test in tests {
                        if let rulec::sema::TestIr::OneOf(vs) = test {
                            for v in vs {
                                if let rulec::sema::Value::Str(s) = v {
                                    out.push(s.clone());
                                    out.push(s.to_lowercase());
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out.dedup();
    out
}

/// Calls one input apart from the answered vectors: every other value of an enum or a
/// boolean, and a number or a date moved to its range's ends — with the reference's line.
fn neighbours(p: &Program, vectors: &[Json]) -> Vec<(Json, String)> {
    let mut out = Vec::new();
    for v in vectors {
        for &input in &p.inputs {
            let var = &p.vars[input];
            let mut alternatives: Vec<Json> = match &var.ty {
                Ty::Bool => vec![json!(true), json!(false)],
                Ty::Enum(e) => p.enums[*e].values.iter().map(|x| json!(x.name)).collect(),
                Ty::Str => strings_compared(p, input).into_iter().map(Json::String).collect(),
                _ => match &var.range {
                    Some((lo, hi)) => {
                        vec![rulec::eval::wire::to_wire(p, var, lo), rulec::eval::wire::to_wire(p, var, hi)]
                    }
                    None => Vec::new(),
                },
            };
            if var.optional {
                alternatives.push(Json::Null);
            }
            for alt in alternatives {
                let mut call = v["in"].as_object().unwrap().clone();
                call.insert(var.name.clone(), alt);
                let call = Json::Object(call);
                let line = rulec::vectors::run(p, &call);
                let expected = match &line {
                    rulec::vectors::Answer::Record { inputs, outcome } => {
                        rulec::eval::wire::record(p, inputs, outcome, "")
                    }
                    rulec::vectors::Answer::Refused(r) => rulec::eval::wire::refusal_line(r),
                    rulec::vectors::Answer::Contradiction(e) => rulec::eval::wire::contradiction_line(e),
                };
                out.push((call, expected));
            }
        }
    }
    out
}

/// Every rule's cases: the suite's that a form can type, then neighbours up to 20.
fn cases(rule: &str, alias: &str, vectors_dir: &Path) -> (Json, usize) {
    let p = program(rule);
    let vectors: Vec<Json> =
        lines(&vectors_dir.join(format!("{alias}.jsonl"))).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let expected = lines(&vectors_dir.join(format!("{alias}.expected.jsonl")));
    assert_eq!(vectors.len(), expected.len());
    let mut out: Vec<Json> = Vec::new();
    let mut seen: Vec<Json> = Vec::new();
    for (v, e) in vectors.iter().zip(&expected) {
        if let Some(c) = case(&p, &v["in"], e.clone()) {
            if !seen.contains(&c["fill"]) {
                seen.push(c["fill"].clone());
                out.push(c);
            }
        }
    }
    let from_suite = out.len();
    let answered: Vec<Json> = vectors.iter().filter(|v| v.get("out").is_some()).cloned().collect();
    for (call, e) in neighbours(&p, &answered) {
        if out.len() >= CASES_PER_RULE {
            break;
        }
        if let Some(c) = case(&p, &call, e) {
            if !seen.contains(&c["fill"]) {
                seen.push(c["fill"].clone());
                out.push(c);
            }
        }
    }
    let fields: serde_json::Map<String, Json> = p
        .inputs
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let control = match p.vars[v].ty {
                Ty::Enum(_) | Ty::Bool => "select",
                Ty::Date => "date",
                _ => "text",
            };
            (p.vars[v].name.clone(), json!({"id": format!("in-{i}"), "control": control}))
        })
        .collect();
    (json!({"cases": out, "fields": fields}), from_suite)
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// Whether the browser, its driver and Selenium are here; when not, a note (under CI, a failure).
fn browser() -> bool {
    let mut missing = Vec::new();
    for f in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(f).is_file() {
            missing.push(f.to_string());
        }
    }
    let selenium = on_path("python3")
        && Command::new("python3").args(["-c", "import selenium"]).output().is_ok_and(|o| o.status.success());
    if !selenium {
        missing.push("python3 with selenium".into());
    }
    if missing.is_empty() {
        return true;
    }
    let note = format!("the page's browser test: {} not found", missing.join(", "));
    if std::env::var_os("CI").is_some() {
        panic!("{note}: CI must install chromium, chromium-driver and selenium (scripts/setup.sh)");
    }
    eprintln!("note: skipped, {note}");
    false
}

fn screenshot_path() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("page/parcel_rate.png")
}

#[test]
fn every_page_answers_in_a_real_browser() {
    if !browser() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let mut rules = Vec::new();
    for rule in corpus() {
        let p = program(&rule);
        let alias = p.ident().to_string();
        let graph = rulec(&["graph", &rule]);
        assert!(graph.status.success(), "rulec graph {rule}: {}", text(&graph.stderr));
        let graph_path = dir.path().join(format!("{alias}.graph.json"));
        std::fs::write(&graph_path, &graph.stdout).unwrap();
        let (mut entry, from_suite) = cases(&rule, &alias, &dir.path().join("vectors"));
        let n = entry["cases"].as_array().unwrap().len();
        assert!(n >= CASES_PER_RULE, "{alias}: only {n} cases a form can type ({from_suite} from the suite)");
        let page = dir.path().join(format!("javascript/{alias}_page.html"));
        assert!(page.is_file(), "rulec gen wrote {}", page.display());
        entry["alias"] = json!(alias);
        entry["page"] = json!(page);
        entry["graph"] = json!(graph_path);
        if alias == "parcel_rate" {
            let shot = screenshot_path();
            std::fs::create_dir_all(shot.parent().unwrap()).unwrap();
            let _ = std::fs::remove_file(&shot);
            entry["screenshot"] = json!(shot);
        }
        rules.push(entry);
    }
    let manifest = dir.path().join("manifest.json");
    let report_path = dir.path().join("report.json");
    std::fs::write(&manifest, json!({"chromium": CHROMIUM, "chromedriver": CHROMEDRIVER, "rules": rules}).to_string())
        .unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/drive.py");
    let o = Command::new("python3").arg(&driver).arg(&manifest).arg(&report_path).output().expect("python3 runs");
    assert!(o.status.success(), "the browser driver failed:\n{}{}", text(&o.stdout), text(&o.stderr));
    let report: Json = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let mut refusals = 0;
    for r in report["rules"].as_array().unwrap() {
        let alias = r["alias"].as_str().unwrap();
        assert_eq!(r["ready"], true, "{alias}: the page started");
        assert_eq!(r["fetched"], json!([]), "{alias}: the page fetched nothing");
        assert_eq!(r["external"], json!([]), "{alias}: the page names no other resource");
        assert_eq!(r["failures"], json!([]), "{alias}: the page disagrees with the reference");
        assert!(r["cases"].as_u64().unwrap() >= CASES_PER_RULE as u64, "{alias}: {} cases", r["cases"]);
        assert!(r["cards"].as_u64().unwrap() >= 1, "{alias}: cards on the board");
        refusals += r["refusals_shown"].as_u64().unwrap();
        eprintln!(
            "{alias}: {} cases, {} refusals shown, loaded in {} ms",
            r["cases"], r["refusals_shown"], r["load_ms"]
        );
    }
    assert!(refusals >= 9, "refused inputs show their sentence ({refusals})");
    let shot = std::fs::read(screenshot_path()).expect("the screenshot of parcel_rate's page");
    assert!(shot.starts_with(b"\x89PNG"), "a PNG");
    eprintln!("the browser session took {} s", report["seconds"]);
}

#[test]
fn the_page_of_parcel_rate_is_under_200_kib_and_self_contained() {
    let o = rulec(&["doc", "tests/corpus/parcel_rate.rule", "--format", "html"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = text(&o.stdout);
    assert!(o.stdout.len() < 200 * 1024, "{} bytes", o.stdout.len());
    // The generated module is inlined; nothing is loaded from anywhere.
    assert!(page.contains("export function parcel_rate_traced("));
    for external in ["src=", "href=\"http", "<link", "@import", "url(http", "fetch("] {
        assert!(!page.contains(external), "the page names an external resource: {external}");
    }
    assert!(page.contains("default-src 'none'"), "the page's CSP allows no origin");
    // Without JavaScript the page is the approver's document.
    let md = text(&rulec(&["doc", "tests/corpus/parcel_rate.rule"]).stdout);
    for heading in md.lines().filter_map(|l| l.strip_prefix("## ")) {
        assert!(page.contains(&format!(">{heading}</h2>")), "the page has the document's section {heading}");
    }
}

/// A rule that walks a sequence: its form has a table of rows for each sequence, one
/// element a row, with a button to add one and one on each row to take it away. Each call of
/// the suite (refused ones included), put in the form, shows what the reference evaluator
/// answers; the buttons add and take away an element of the call the form reads.
#[test]
fn the_page_of_a_rule_that_walks_takes_its_sequences_as_rows() {
    let rules = ["tests/walks/order_settlement.rule", "tests/walks/best_bid.rule", "tests/walks/carrier_pick.rule"];
    for rule in rules {
        let page = text(&rulec(&["doc", rule, "--format", "html"]).stdout);
        let p = program(rule);
        for seq in &p.sequences {
            assert!(page.contains(&format!("<fieldset class=\"sequence\" data-sequence=\"{}\">", seq.name)), "{rule}");
            assert!(page.contains(&format!("Add an element to {}", seq.name)), "{rule}");
        }
        let md = text(&rulec(&["doc", rule]).stdout);
        for heading in md.lines().filter_map(|l| l.strip_prefix("## ")) {
            assert!(page.contains(&format!(">{heading}</h2>")), "{rule}: the page has the section {heading}");
        }
    }
    if !browser() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut entries = Vec::new();
    for rule in rules {
        let p = program(rule);
        let page = dir.path().join(format!("{}.html", p.ident()));
        std::fs::write(&page, rulec(&["doc", rule, "--format", "html"]).stdout).unwrap();
        // The calls a form can type: answered, a contradiction, or a number out of its range
        // (not a sequence that is no array, an element that is no object, a key no field has).
        let cases: Vec<Json> = rulec::vectors::build(&p)
            .vectors
            .iter()
            .map(|v| (v, serde_json::from_str::<Json>(&rulec::eval::answer(&p, &v.line(&p), "")).unwrap()))
            .filter(|(_, a)| {
                a.get("observed").is_some()
                    || a["refused"] == "contradiction"
                    || a["error"].as_str().is_some_and(|e| e.ends_with("is out of range"))
            })
            .take(60)
            .map(|(v, answer)| json!({"in": v.input, "answer": answer}))
            .collect();
        let sequences: Vec<&str> = p.sequences.iter().map(|s| s.name.as_str()).collect();
        entries.push(json!({"page": page, "cases": cases, "sequences": sequences}));
    }
    let manifest = dir.path().join("manifest.json");
    let report_path = dir.path().join("report.json");
    std::fs::write(
        &manifest,
        json!({"chromium": CHROMIUM, "chromedriver": CHROMEDRIVER, "rules": entries}).to_string(),
    )
    .unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/walks.py");
    let o = Command::new("python3").arg(&driver).arg(&manifest).arg(&report_path).output().expect("python3 runs");
    assert!(o.status.success(), "the browser driver failed:\n{}{}", text(&o.stdout), text(&o.stderr));
    let report: Json = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    for r in report["rules"].as_array().unwrap() {
        assert_eq!(r["failures"], json!([]), "{}: the page disagrees with the reference", r["page"]);
        assert!(r["cases"].as_u64().unwrap() >= 20, "{}: {} cases", r["page"], r["cases"]);
        let rows = r["rows"].as_array().unwrap();
        let first = |i: usize| rows[i][0].as_u64().unwrap();
        assert_eq!((first(1), first(2)), (first(0) + 1, first(0)), "{}: add a row, take one away: {rows:?}", r["page"]);
    }
}

#[test]
fn gen_writes_the_page_doc_prints() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let page = std::fs::read(dir.path().join("javascript/single_coupon_page.html")).unwrap();
    let o = rulec(&["doc", "tests/corpus/single_coupon.rule", "--format", "html"]);
    assert!(page == o.stdout, "rulec gen's page and rulec doc --format html are the same bytes");
}

fn node_check(file: &Path) {
    let o = Command::new("node").arg("--check").arg(file).output().expect("node runs");
    assert!(o.status.success(), "node --check {}:\n{}", file.display(), text(&o.stderr));
}

#[test]
fn the_page_script_passes_node_check() {
    if !on_path("node") {
        if std::env::var_os("CI").is_some() {
            panic!("node not found: CI must install it");
        }
        eprintln!("note: skipped, node not found");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    node_check(&root.join("src/doc/page/page.js"));
    // The page's whole script, as the browser reads it: the module, then the page.
    let dir = tempfile::tempdir().unwrap();
    for rule in corpus() {
        let page = text(&rulec(&["doc", &rule, "--format", "html"]).stdout);
        let start = page.find("<script type=\"module\">\n").expect("the module script") + 23;
        let end = page[start..].find("</script>").unwrap() + start;
        let script = dir.path().join("page.mjs");
        std::fs::write(&script, &page[start..end]).unwrap();
        node_check(&script);
    }
}

/// A rule whose one table reads ten columns: wider than a card, and than a 1,440 px window.
const WIDE: &str = "rule wide_table v1

input measurement_0: int 0..1000000
input measurement_1: int 0..1000000
input measurement_2: int 0..1000000
input measurement_3: int 0..1000000
input measurement_4: int 0..1000000
input measurement_5: int 0..1000000
input measurement_6: int 0..1000000
input measurement_7: int 0..1000000
input measurement_8: int 0..1000000
input measurement_9: int 0..1000000

output band: int 1..2

table band_of first -> band
| measurement_0 | measurement_1 | measurement_2 | measurement_3 | measurement_4 | measurement_5 | measurement_6 | measurement_7 | measurement_8 | measurement_9 | band |
|---|---|---|---|---|---|---|---|---|---|---|
| >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | >=100000 <=500000 | 1 |
| - | - | - | - | - | - | - | - | - | - | 2 |
";

/// The page as a business reader meets it, in the browser (tests/page/printed.py): a number
/// typed the way the page prints numbers (`10,000 JPY`, `10%`) is the number, and what the
/// page prints, typed back, is taken; none of the analysis's own words (`refused at the door`,
/// `fits int64`, `boxes`, `pairs of rows`) is on any page; a declared range wider than the
/// verified one says why; and at 1,440 px every table scrolls to its last column while
/// nothing in a card reaches past its edge.
#[test]
fn the_page_reads_what_it_prints_in_plain_words_and_scrolls_wide_tables() {
    if !browser() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let page = |alias: &str| dir.path().join(format!("javascript/{alias}_page.html"));
    let words = ["refused at the door", "fits int64", "int64", "boxes", "pairs of rows", "row pairs"];
    let mut pages: Vec<Json> = corpus()
        .iter()
        .map(|rule| json!({"page": page(program(rule).ident()), "words": words, "wide": true}))
        .collect();
    let coupon = pages.iter_mut().find(|p| p["page"] == json!(page("single_coupon"))).unwrap();
    coupon["choose"] = json!([{"id": "in-2", "value": "percent"}, {"id": "in-5", "value": "false"}]);
    coupon["typed"] = json!([
        {"id": "in-0", "input": "subtotal", "plain": "10000",
         "accepted": ["10,000", "10,000 JPY", "10000JPY", " 10,000 JPY "],
         "refused": ["1,00", "10,0000", "10 000", "10,000 USD", "JPY"]},
        {"id": "in-3", "input": "rate", "plain": "10", "accepted": ["10%", "10 %"], "refused": ["10%%", "1,0"]},
    ]);
    coupon["printed_back"] = json!([{"id": "in-0", "output": "raw", "plain": "50000"}]);
    let parcel = pages.iter_mut().find(|p| p["page"] == json!(page("parcel_rate"))).unwrap();
    parcel["says"] = json!([
        "0 USD to 500 USD (declared, what callers are promised; the rows give 9 USD to 59 USD",
        "fee is always 9 USD to 59 USD",
        "its declared range, 0 USD to 500 USD, is wider: that is what callers are promised",
    ]);
    let wide_rule = dir.path().join("wide_table.rule");
    std::fs::write(&wide_rule, WIDE).unwrap();
    let wide = rulec(&["doc", wide_rule.to_str().unwrap(), "--format", "html"]);
    assert!(wide.status.success(), "{}", text(&wide.stderr));
    let wide_page = dir.path().join("wide_table.html");
    std::fs::write(&wide_page, &wide.stdout).unwrap();
    pages.push(json!({"page": wide_page, "words": words, "wide": true}));

    let manifest = dir.path().join("printed.json");
    let report_path = dir.path().join("printed.report.json");
    std::fs::write(&manifest, json!({"chromium": CHROMIUM, "chromedriver": CHROMEDRIVER, "pages": pages}).to_string())
        .unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/printed.py");
    let o = Command::new("python3").arg(&driver).arg(&manifest).arg(&report_path).output().expect("python3 runs");
    assert!(o.status.success(), "the browser driver failed:\n{}{}", text(&o.stdout), text(&o.stderr));
    let report: Json = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    for r in report.as_array().unwrap() {
        assert_eq!(r["failures"], json!([]), "{}", r["page"]);
        assert!(r["tables"].as_u64().unwrap() >= 2, "{}: tables measured", r["page"]);
    }
    let coupon = report.as_array().unwrap().iter().find(|r| r["page"] == json!(page("single_coupon"))).unwrap();
    let printed = coupon["printed"][0].as_str().unwrap();
    assert!(printed.contains(',') && printed.ends_with(" JPY"), "typed back what the page prints: {printed}");
}
