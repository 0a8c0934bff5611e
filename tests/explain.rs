//! The registry behind `rulec explain` (src/diag/codes/, a file per code): every example really produces its
//! code, the registry is well formed, `explain --all --format json` has the formats.md shape,
//! and every code the compiler can emit has an entry.

mod common;

use rulec::analysis::Options;
use rulec::diag::codes::{lookup, severity_of, CODES};
use rulec::diag::Severity;
use std::collections::BTreeSet;
use std::path::Path;

/// Codes whose example cannot produce its code until the table and value analysis
/// (src/analysis) is merged. Their examples are still run; a skipped one prints a note,
/// and one that already passes prints a note asking to take it off this list.
/// Empty this list once the analysis lands: then every example must pass.
const PENDING_ANALYSIS: &[&str] = &[];

/// A note that shows in `cargo test` output even when the test passes (the test harness
/// captures `println!`, not direct writes to stderr).
fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "note: {text}");
}

fn codes_of(example: &str, budget: Option<u64>) -> Vec<&'static str> {
    let opts = match budget {
        Some(budget) => Options { budget },
        None => Options::default(),
    };
    let checked = rulec::check_text(&mut rulec::Sources::new(), "example.rule", example, &opts);
    checked.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn every_example_produces_its_code() {
    let mut failures = Vec::new();
    for info in CODES {
        let got = codes_of(info.example, info.budget);
        let produced = got.contains(&info.code);
        if PENDING_ANALYSIS.contains(&info.code) {
            if produced {
                note(&format!(
                    "{} is in PENDING_ANALYSIS but its example already produces it: take it off the list",
                    info.code
                ));
            } else {
                note(&format!(
                    "skipping {}: its example waits for the analysis (PENDING_ANALYSIS); got {got:?}",
                    info.code
                ));
            }
            continue;
        }
        if !produced {
            failures.push(format!("{}: the example gives {got:?}", info.code));
        }
    }
    assert!(failures.is_empty(), "examples that do not produce their code:\n{}", failures.join("\n"));
}

#[test]
fn pending_list_names_registered_codes() {
    for code in PENDING_ANALYSIS {
        assert!(lookup(code).is_some(), "PENDING_ANALYSIS names {code}, which has no entry");
    }
}

fn well_formed(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 4 && (b[0] == b'E' || b[0] == b'W') && b[1..].iter().all(u8::is_ascii_digit)
}

#[test]
fn codes_are_unique_sorted_and_well_formed() {
    for info in CODES {
        assert!(well_formed(info.code), "`{}` does not match ^[EW][0-9]{{3}}$", info.code);
    }
    for pair in CODES.windows(2) {
        assert!(pair[0].code < pair[1].code, "CODES is not sorted and unique at {} / {}", pair[0].code, pair[1].code);
    }
}

/// Each code's entry is the file named after it, and every such file is in the registry.
#[test]
fn every_code_is_the_file_named_after_it() {
    let dir = Path::new(common::ROOT).join("src/diag/codes");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "mod.rs")
        .collect();
    files.sort();
    let named: Vec<String> = CODES.iter().map(|c| format!("{}.rs", c.code.to_ascii_lowercase())).collect();
    assert_eq!(files, named);
    for c in CODES {
        let text = std::fs::read_to_string(dir.join(format!("{}.rs", c.code.to_ascii_lowercase()))).unwrap();
        assert!(text.contains(&format!("code: \"{}\",", c.code)), "{} is not in its own file", c.code);
    }
}

#[test]
fn entries_are_complete() {
    for info in CODES {
        let c = info.code;
        assert!(!info.title.trim().is_empty(), "{c}: empty title");
        assert!(!info.when.trim().is_empty(), "{c}: empty `when`");
        assert!(!info.fix.trim().is_empty(), "{c}: empty `fix`");
        // E005's example is the file that lacks its header.
        assert!(
            c == "E005" || info.example.starts_with("rule ") || info.example.starts_with("enums "),
            "{c}: the example does not start with its header"
        );
        assert!(info.example.ends_with('\n'), "{c}: the example does not end with a newline");
        for r in info.related {
            assert!(*r != c, "{c}: related to itself");
            assert!(lookup(r).is_some(), "{c}: related code {r} has no entry");
        }
        // formats.md: budget appears only on E109.
        assert_eq!(info.budget.is_some(), c == "E109", "{c}: only E109 carries a budget");
        let expected = if c.starts_with('W') { Severity::Warning } else { Severity::Error };
        assert_eq!(severity_of(c), expected, "{c}: severity");
    }
    assert_eq!(lookup("E109").and_then(|i| i.budget), Some(1));
}

#[test]
fn lookup_is_case_insensitive() {
    for info in CODES {
        let lower = info.code.to_ascii_lowercase();
        assert_eq!(lookup(&lower).map(|i| i.code), Some(info.code));
        assert_eq!(lookup(info.code).map(|i| i.code), Some(info.code));
    }
    assert!(lookup("E999").is_none());
    assert!(lookup("").is_none());
}

#[test]
fn explain_all_json_is_one_object_per_line() {
    let out = common::command().args(["explain", "--all", "--format", "json"]).output().expect("run rulec explain");
    assert!(out.status.success(), "rulec explain failed: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), CODES.len(), "one line per code");
    let keys = ["code", "severity", "title", "when", "fix", "example", "related", "lang"];
    for (line, info) in lines.iter().zip(CODES) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        let obj = v.as_object().unwrap_or_else(|| panic!("not an object: {line}"));
        let mut want: BTreeSet<&str> = keys.into_iter().collect();
        if info.code == "E109" {
            want.insert("budget");
        }
        let have: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
        assert_eq!(have, want, "keys of {}", info.code);
        assert_eq!(obj["code"], info.code);
        assert_eq!(obj["severity"], severity_of(info.code).as_str());
        assert_eq!(obj["title"], info.title);
        assert_eq!(obj["when"], info.when);
        assert_eq!(obj["fix"], info.fix);
        assert_eq!(obj["example"], info.example);
        assert_eq!(obj["lang"], "en");
        let related: Vec<&str> =
            obj["related"].as_array().expect("related is a list").iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(related, info.related);
        if info.code == "E109" {
            assert_eq!(obj["budget"], 1);
        }
    }
}

#[test]
fn explain_one_code_by_name() {
    let out = common::command().args(["explain", "e049", "--format", "json"]).output().expect("run rulec explain");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["code"], "E049");
    let out = common::command().args(["explain", "E999"]).output().expect("run");
    assert!(!out.status.success(), "an unknown code is an error");
}

/// Every `"XNNN"` code literal in `text`: the code of each `Diagnostic::new(` (the literal may
/// be on the next line), and every other string literal that is exactly a code (codes chosen
/// through a variable: `let code = if … { "E060" } else { "E061" }`).
fn codes_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let call = "Diagnostic::new(";
    let mut from = 0;
    while let Some(i) = text[from..].find(call) {
        let after = text[from + i + call.len()..].trim_start();
        if let Some(code) = after.strip_prefix('"').and_then(|rest| rest.get(..5)) {
            if code.ends_with('"') && well_formed(&code[..4]) {
                out.insert(code[..4].to_string());
            }
        }
        from += i + call.len();
    }
    let bytes = text.as_bytes();
    for i in 0..bytes.len().saturating_sub(5) {
        if bytes[i] == b'"' && bytes[i + 5] == b'"' {
            if let Ok(code) = std::str::from_utf8(&bytes[i + 1..i + 5]) {
                if well_formed(code) && (i == 0 || bytes[i - 1] != b'\\') {
                    out.insert(code.to_string());
                }
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn scanner_finds_codes() {
    let text = "Diagnostic::new(\"E001\", f, s, \"m\")\nDiagnostic::new(\n    \"E063\",\n)\nlet c = if x { \"E060\" } else { \"E061\" };\nformat!(\"E5\")";
    let found: Vec<String> = codes_in(text).into_iter().collect();
    assert_eq!(found, ["E001", "E060", "E061", "E063"]);
}

#[test]
fn every_emitted_code_is_registered() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut missing = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        // The registry itself names every code; it is what is being checked against.
        if f.parent().is_some_and(|d| d.ends_with("diag/codes")) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("read");
        for code in codes_in(&text) {
            if lookup(&code).is_none() {
                missing.push(format!("{code} ({})", f.display()));
            }
            seen.insert(code);
        }
    }
    assert!(seen.len() > 20, "the scan found only {seen:?}: is it still reading src/?");
    assert!(missing.is_empty(), "codes the compiler emits without an explain entry: {missing:?}");
}
