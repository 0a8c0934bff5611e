//! `cargo bench --bench lsp`: how long `rulec lsp` takes from a `didChange` to the
//! `publishDiagnostics` of that version, on a 1,000-row table (p50 and p95 over 100 edits,
//! each edit waiting for the previous one's diagnostics), and, on a 30,000-row table, that
//! the editor is answered while the check runs: the time to answer a request sent during
//! the check, and the versions published after a burst of edits (only the last).

#[allow(dead_code)]
#[path = "../tests/lsp/client.rs"]
mod client;

use serde_json::json;
use std::time::{Duration, Instant};

/// A `unique` table of `ns × na` rows over two integer inputs, every band closed.
fn table(ns: usize, na: usize) -> String {
    let mut s = String::from("rule bands v1\ninput salary: int 0..9999999\ninput age: int 0..119\n");
    s.push_str("output grade: int 0..1000000\ntable grade_of -> grade\n| salary | age | grade |\n|---|---|---|\n");
    let sw = 10_000_000 / ns;
    let mut g = 0;
    for i in 0..ns {
        let (lo, hi) = (i * sw, if i + 1 == ns { 9_999_999 } else { (i + 1) * sw - 1 });
        for j in 0..na {
            let (alo, ahi) = (j * 120 / na, if j + 1 == na { 119 } else { (j + 1) * 120 / na - 1 });
            g += 1;
            s.push_str(&format!("| >={lo} <={hi} | >={alo} <={ahi} | {g} |\n"));
        }
    }
    s
}

/// The rule with row `k`'s result changed (a clean edit: the result is any int in range).
fn edited(text: &str, k: usize, to: usize) -> String {
    let header = text.lines().take_while(|l| !l.starts_with("|---")).count() + 1;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let row = &mut lines[header + k];
    let cut = row[..row.len() - 1].rfind('|').unwrap();
    *row = format!("{} {to} |", &row[..cut + 1]);
    lines.join("\n") + "\n"
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p).div_ceil(100).saturating_sub(1)]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();

    // 1,000 rows: 40 salary bands × 25 age bands.
    let path = dir.path().join("bands.rule");
    let text = table(40, 25);
    std::fs::write(&path, &text).unwrap();
    let u = client::uri(&path);
    let mut c = client::Client::start(dir.path());
    let opened = Instant::now();
    assert_eq!(c.open(&u, &text), Vec::<serde_json::Value>::new(), "the 1,000-row table is clean");
    println!("1,000 rows: didOpen → diagnostics {:?}", opened.elapsed());
    let mut times = Vec::new();
    for n in 0..100 {
        let version = n as i64 + 2;
        let next = edited(&text, (n * 37) % 1000, 500_000 + n);
        let sent = Instant::now();
        c.change(&u, version, &next);
        let (diags, _) = c.diagnostics(&u, version);
        times.push(sent.elapsed());
        assert!(diags.is_empty(), "edit {n} stays clean: {diags:?}");
    }
    times.sort();
    println!(
        "1,000 rows, 100 edits: didChange → publishDiagnostics p50 {:?}, p95 {:?}, max {:?} (debounce {:?} included)",
        percentile(&times, 50),
        percentile(&times, 95),
        times[times.len() - 1],
        rulec::lsp::DEBOUNCE
    );

    // 30,000 rows: 200 × 150. A burst of edits while it is checked; a request meanwhile.
    let big = dir.path().join("big.rule");
    let big_text = table(200, 150);
    std::fs::write(&big, &big_text).unwrap();
    let bu = client::uri(&big);
    let opened = Instant::now();
    c.open(&bu, &big_text);
    let check = opened.elapsed();
    println!("30,000 rows: didOpen → diagnostics {check:?}");
    let sent = Instant::now();
    for v in 2..=11 {
        c.change(&bu, v, &edited(&big_text, v as usize * 101, 700_000 + v as usize));
        // Each edit waits a little more than the debounce, so the first starts a check.
        std::thread::sleep(rulec::lsp::DEBOUNCE * 2);
    }
    let asked = Instant::now();
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": u}}));
    let answered = asked.elapsed();
    assert!(symbols.as_array().is_some_and(|s| !s.is_empty()));
    let (_, older) = c.diagnostics(&bu, 11);
    println!(
        "30,000 rows: 10 edits sent in {:?}; a request sent after them answered in {answered:?} while the check ran; \
         the last version's diagnostics {:?} after the first edit; versions published before it: {older:?}",
        asked - sent,
        sent.elapsed()
    );
    c.shutdown();
}
