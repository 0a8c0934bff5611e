//! `rulec lsp` driven as an editor drives it: over stdio, with Content-Length framing, on
//! corpus rules, on a broken rule of every diagnostic family and on a file with non-ASCII
//! names (UTF-16 columns).

mod common;

#[path = "lsp/client.rs"]
mod client;

use client::{apply, pos, uri, Client};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

fn doc(uri: &str) -> Value {
    json!({"uri": uri})
}

fn at(uri: &str, position: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": position})
}

fn hover_text(c: &mut Client, u: &str, position: Value) -> String {
    let h = c.request("textDocument/hover", at(u, position));
    h["contents"]["value"].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_corpus_rule_answers_every_request() {
    let path = repo().join("tests/corpus/parcel_rate.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new(), "parcel_rate is clean");

    // Hover: type, unit, declared and proven range, rounding.
    let h = hover_text(&mut c, &u, pos(&text, "surcharge", 1));
    for want in
        ["define `surcharge`: money[USD]", "unit: USD", "declared range: 0USD..50USD", "proven range: 1USD..9USD"]
    {
        assert!(h.contains(want), "{want} in {h}");
    }
    // A row: the inputs that reach it.
    let h = hover_text(&mut c, &u, pos(&text, "| canada   | medium | 15USD |", 0));
    assert!(h.contains("row 5 of table `base_rate`"), "{h}");
    assert!(h.contains("reached by: ") && h.contains("dest=canada"), "{h}");

    // Definition: `size` in a table's header is the value's declaration.
    let d = c.request("textDocument/definition", at(&u, pos(&text, "size ", 2)));
    assert_eq!(d["uri"], u.as_str());
    assert_eq!(d["range"]["start"], pos(&text, "size: size_class", 0), "{d}");

    // References: the group's declaration and its two uses.
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": u}, "position": pos(&text, "north_america", 1), "context": {"includeDeclaration": true}}),
    );
    let starts: Vec<&Value> = r.as_array().unwrap().iter().map(|l| &l["range"]["start"]).collect();
    assert_eq!(
        starts,
        vec![&pos(&text, "north_america", 0), &pos(&text, "north_america", 1), &pos(&text, "north_america", 2)]
    );

    // Rename: every place, and the renamed file is still clean.
    let e = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": u}, "position": pos(&text, "base ", 1), "newName": "base_fee"}),
    );
    let edits = e["changes"][u.as_str()].as_array().unwrap().clone();
    let words = |t: &str| t.split(|c: char| !(c == '_' || c.is_alphanumeric())).filter(|w| *w == "base").count();
    assert_eq!(edits.len(), words(&text), "every `base` is renamed");
    let renamed = apply(&text, &edits);
    assert_eq!(words(&renamed), 0);
    assert!(renamed.contains("define fee = base_fee + surcharge + sig"), "{renamed}");
    c.change(&u, 2, &renamed);
    assert_eq!(c.diagnostics(&u, 2).0, Vec::<Value>::new(), "the renamed rule is clean");
    c.change(&u, 3, &text);
    c.diagnostics(&u, 3);
    let bad = c.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": u}, "position": pos(&text, "base ", 1), "newName": "table"}),
    );
    assert!(bad["error"]["message"].as_str().unwrap().contains("keyword"), "{bad}");

    // Formatting: `fmt`'s canonical form (outputs before values), which is canonical itself.
    let format = json!({"textDocument": doc(&u), "options": {"tabSize": 4, "insertSpaces": true}});
    let f = c.request("textDocument/formatting", format.clone());
    let canonical = apply(&text, f.as_array().unwrap());
    assert!(canonical.find("output fee").unwrap() < canonical.find("value size").unwrap(), "{canonical}");
    c.change(&u, 4, &canonical);
    assert_eq!(c.diagnostics(&u, 4).0, Vec::<Value>::new());
    assert_eq!(c.request("textDocument/formatting", format), json!([]));
    c.change(&u, 5, &text);
    c.diagnostics(&u, 5);

    // Semantic tokens: the input `weight` where it is declared.
    let t = c.request("textDocument/semanticTokens/full", json!({"textDocument": doc(&u)}));
    let tokens = decode(&t["data"]);
    let weight = pos(&text, "weight:", 0);
    let tok = tokens.iter().find(|t| (t.0, t.1) == (line_of(&weight), col_of(&weight))).expect("a token at `weight`");
    assert_eq!((tok.2, tok.3, tok.4), (6, 1, 1), "`weight`: 6 long, a parameter, its declaration");
    let keywords = tokens.iter().filter(|t| t.3 == 0).count();
    assert!(keywords >= 20, "keywords are tokens");

    // Inlay hints: the type of the undeclared define, the proven range of a value.
    let hints = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": doc(&u), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}}),
    );
    let labels: Vec<String> =
        hints.as_array().unwrap().iter().map(|h| h["label"].as_str().unwrap().to_string()).collect();
    assert!(labels.contains(&": money[USD] in steps of 1USD".to_string()), "{labels:?}");
    let typed = hints.as_array().unwrap().iter().find(|h| h["label"] == ": money[USD] in steps of 1USD").unwrap();
    let mut after_name = pos(&text, "define fee", 0);
    after_name["character"] = json!(col_of(&after_name) + "define fee".len() as u64);
    assert_eq!(typed["position"], after_name, "right after the name");
    assert!(labels.iter().any(|l| l.starts_with(" proven 8USD..45USD")), "base's proven range: {labels:?}");

    // Code lens: every expect evaluated by the reference evaluator; every table proven.
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": doc(&u)}));
    let titles: Vec<String> =
        lenses.as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap().to_string()).collect();
    let evaluated: Vec<&str> = titles.iter().filter_map(|t| t.strip_prefix("evaluate: ")).collect();
    assert_eq!(evaluated, [r#"{"fee":11}"#, r#"{"fee":24}"#, r#"{"fee":59}"#, r#"{"fee":17}"#], "{titles:?}");
    // Each over its own `expect` line.
    let expect_lines: Vec<u64> =
        text.lines().enumerate().filter(|(_, l)| l.starts_with("expect ")).map(|(i, _)| i as u64).collect();
    let lens_lines: Vec<u64> = lenses
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["command"]["title"].as_str().unwrap().starts_with("evaluate"))
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lens_lines, expect_lines);
    assert_eq!(titles.iter().filter(|t| t.starts_with("proven: ")).count(), 4, "{titles:?}");

    // Document symbols.
    let s = c.request("textDocument/documentSymbol", json!({"textDocument": doc(&u)}));
    let names: Vec<&str> = s.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    for want in ["zone", "north_america", "weight", "fee", "size_of", "base_rate", "signature_fee"] {
        assert!(names.contains(&want), "{want} in {names:?}");
    }
    c.shutdown();
}

fn line_of(p: &Value) -> u64 {
    p["line"].as_u64().unwrap()
}
fn col_of(p: &Value) -> u64 {
    p["character"].as_u64().unwrap()
}

/// The semantic token type at each position of the open document `u`: `None` where no token
/// starts there.
fn token_types(c: &mut Client, u: &str) -> impl Fn(&Value) -> Option<u64> {
    let tokens = decode(&c.request("textDocument/semanticTokens/full", json!({"textDocument": doc(u)}))["data"]);
    move |p: &Value| tokens.iter().find(|t| (t.0, t.1) == (line_of(p), col_of(p))).map(|t| t.3)
}

/// Semantic tokens as (line, column, length, type, modifiers), absolute.
fn decode(data: &Value) -> Vec<(u64, u64, u64, u64, u64)> {
    let d: Vec<u64> = data.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    let (mut line, mut col) = (0, 0);
    d.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                col = 0;
            }
            line += t[0];
            col += t[1];
            (line, col, t[2], t[3], t[4])
        })
        .collect()
}

#[test]
fn quick_edits_are_checked_once_and_the_last_one_wins() {
    let path = repo().join("tests/corpus/broken/gap.rule");
    let gap = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert!(codes(&c.open(&u, &gap)).contains(&"E101".to_string()));
    // Four edits at once: the second-to-last fills the gap, the last one opens it again.
    let filled =
        gap.replace("| overseas | large | 45USD |", "| overseas | large | 45USD |\n| overseas | small | 30USD |");
    c.change(&u, 2, &filled.replace("8USD", "9USD"));
    c.change(&u, 3, &filled.replace("8USD", "7USD"));
    c.change(&u, 4, &filled);
    c.change(&u, 5, &gap.replace("8USD", "6USD"));
    let (last, older) = c.diagnostics(&u, 5);
    assert!(codes(&last).contains(&"E101".to_string()), "version 5 has the gap: {last:?}");
    assert!(older.iter().all(|&v| v < 5), "{older:?}");
    // Requests now answer for version 5 (its text: 6USD).
    let h = hover_text(&mut c, &u, pos(&gap, "| domestic | small", 0));
    assert!(h.contains("row 1 of table `base_rate`"), "{h}");
    c.change(&u, 6, &filled);
    let (last, older) = c.diagnostics(&u, 6);
    assert_eq!(last, Vec::<Value>::new(), "version 6 fills the gap");
    assert!(older.is_empty(), "nothing older is published after a newer version: {older:?}");
    c.shutdown();
}

/// Every broken corpus rule: the code its header names; each fix offered as a code action,
/// applied, and checked again: the finding is gone.
#[test]
fn every_diagnostic_family_and_every_fix_kind() {
    let dir = repo().join("tests/corpus/broken");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut c = Client::start(&repo());
    let mut fixed = Vec::new();
    for path in &files {
        let text = read(path);
        let u = uri(path);
        let want = text.lines().next().unwrap().trim_start_matches("# expect-diagnostic: ").to_string();
        let diags = c.open(&u, &text);
        let code = want.split_whitespace().next().unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match code {
            "none" => assert!(diags.iter().all(|d| d["severity"] != 1), "{name}: {diags:?}"),
            "a" => assert!(diags.iter().any(|d| d["severity"] == 1), "{name}: a unit error: {diags:?}"),
            code => assert!(codes(&diags).contains(&code.to_string()), "{name}: {code} in {diags:?}"),
        }
        for d in diags.iter().filter(|d| d["data"]["fix"].is_object()) {
            let kind = d["data"]["fix"]["kind"].as_str().unwrap().to_string();
            let actions = c.request(
                "textDocument/codeAction",
                json!({"textDocument": doc(&u), "range": d["range"], "context": {"diagnostics": [d]}}),
            );
            let action = actions
                .as_array()
                .unwrap()
                .iter()
                .find(|a| {
                    a["title"].as_str().unwrap().starts_with(&format!("{kind} ({})", d["code"].as_str().unwrap()))
                })
                .unwrap_or_else(|| panic!("{name}: a {kind} action in {actions}"));
            assert_eq!(action["kind"], "quickfix");
            let edits = action["edit"]["changes"][u.as_str()].as_array().unwrap().clone();
            let after = apply(&text, &edits);
            c.change(&u, 2, &after);
            let (again, _) = c.diagnostics(&u, 2);
            assert!(
                !codes(&again).contains(&d["code"].as_str().unwrap().to_string()),
                "{name}: {kind} applied:\n{after}\n{again:?}"
            );
            fixed.push(kind);
            c.change(&u, 3, &text);
            c.diagnostics(&u, 3);
        }
        c.notify("textDocument/didClose", json!({"textDocument": doc(&u)}));
    }
    fixed.sort();
    fixed.dedup();
    assert_eq!(
        fixed,
        ["add_range", "add_rounding", "add_row", "flip_bound", "remove_row", "rewrite_literal", "widen_range"],
        "every fix kind the corpus produces"
    );
    c.shutdown();
}

#[test]
fn an_overlap_points_at_its_rows_and_its_witness() {
    let path = repo().join("tests/corpus/broken/overlap.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    let diags = c.open(&u, &text);
    let d = diags.iter().find(|d| d["code"] == "E102").expect("E102");
    assert_eq!(d["range"]["start"], pos(&text, "| <=10lb ", 0));
    let related: Vec<(Value, String)> = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["location"]["range"]["start"].clone(), r["message"].as_str().unwrap().to_string()))
        .collect();
    assert!(related.contains(&(pos(&text, "| <=10lb ", 0), "band_of row 1".into())), "{related:?}");
    assert!(related.contains(&(pos(&text, "| >=10lb", 0), "band_of row 2".into())), "{related:?}");
    assert!(related.contains(&(pos(&text, "band_of", 0), "witness: weight=10".into())), "{related:?}");
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": doc(&u)}));
    assert!(lenses.to_string().contains("witness (E102): weight=10"), "{lenses}");
    c.shutdown();
}

#[test]
fn non_ascii_names_are_placed_in_utf16_columns() {
    let path = repo().join("tests/lsp/non_ascii.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new());
    // `大` in the last table row is the enum value declared after an emoji (two UTF-16
    // units): column 37, where a count of characters says 36 and of bytes 47.
    let d = c.request("textDocument/definition", at(&u, pos(&text, "大 | 900JPY", 0)));
    assert_eq!(d["range"], json!({"start": {"line": 3, "character": 37}, "end": {"line": 3, "character": 38}}), "{d}");
    let h = hover_text(&mut c, &u, pos(&text, "送料 =", 0));
    assert!(h.contains("output `送料`: money[JPY]") && h.contains("decided by its define"), "{h}");
    // References to `重さ`: declaration, define, expect — each where the UTF-16 count puts it.
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": doc(&u), "position": pos(&text, "重さ", 1), "context": {"includeDeclaration": true}}),
    );
    let starts: Vec<Value> = r.as_array().unwrap().iter().map(|l| l["range"]["start"].clone()).collect();
    assert_eq!(starts, vec![pos(&text, "重さ", 0), pos(&text, "重さ", 1), pos(&text, "重さ", 2)]);
    // Formatting gives what `rulec fmt` writes.
    let f = c.request(
        "textDocument/formatting",
        json!({"textDocument": doc(&u), "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let formatted = apply(&text, f.as_array().unwrap());
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("x.rule"), &text).unwrap();
    let out = common::command().args(["fmt", "x.rule"]).current_dir(tmp.path()).output().unwrap();
    assert!(out.status.success());
    assert_eq!(formatted, read(&tmp.path().join("x.rule")));
    assert_ne!(formatted, text);
    c.shutdown();
}

/// A rule's `use`d enums file is read from the editor's buffer while it is open, unsaved.
#[test]
fn a_used_enums_file_is_read_from_the_unsaved_buffer() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    std::fs::create_dir(tmp.path().join("shared")).unwrap();
    let enums = read(&repo().join("tests/corpus/shared/tiers.rule"));
    std::fs::write(tmp.path().join("shared/tiers.rule"), &enums).unwrap();
    let rule = read(&repo().join("tests/corpus/member_discount.rule"));
    std::fs::write(tmp.path().join("member_discount.rule"), &rule).unwrap();
    let (ru, eu) = (uri(&tmp.path().join("member_discount.rule")), uri(&tmp.path().join("shared/tiers.rule")));
    let mut c = Client::start(tmp.path());
    assert_eq!(c.open(&ru, &rule), Vec::<Value>::new());
    assert_eq!(c.open(&eu, &enums), Vec::<Value>::new());
    // Opening a file a rule reads checks the rule again.
    assert_eq!(c.diagnostics(&ru, 1).0, Vec::<Value>::new());
    // Hover: the declared rounding.
    let h = hover_text(&mut c, &ru, pos(&rule, "discount", 1));
    assert!(h.contains("rounding: half_even, to 10JPY"), "{h}");
    // Unsaved: `gold` renamed in the buffer only. The rule's rows name `gold`.
    let edited = enums.replace("gold \"Gold\"", "golden \"Gold\"").replace("= gold,", "= golden,");
    c.change(&eu, 2, &edited);
    let (own, _) = c.diagnostics(&eu, 2);
    assert_eq!(own, Vec::<Value>::new());
    let (users, _) = c.diagnostics(&ru, 1);
    assert!(users.iter().any(|d| d["severity"] == 1 && d["message"].as_str().unwrap().contains("gold")), "{users:?}");
    // Going to the definition of `tier` leads into the enums file, to the buffer's text.
    let d = c.request("textDocument/definition", at(&ru, pos(&rule, "tier silver", 0)));
    assert_eq!(d["uri"], eu.as_str());
    // And from the `use` line, to the file it names.
    let d = c.request("textDocument/definition", at(&ru, pos(&rule, "shared/tiers.rule", 0)));
    assert_eq!(d["uri"], eu.as_str());
    assert_eq!(d["range"]["start"], json!({"line": 0, "character": 0}));
    let d = c.request("textDocument/definition", at(&ru, pos(&rule, "tier silver", 0)));
    assert_eq!(d["uri"], eu.as_str());
    assert_eq!(d["range"]["start"], pos(&edited, "tier:", 0));
    assert_eq!(read(&tmp.path().join("shared/tiers.rule")), enums, "nothing is written to disk");
    c.shutdown();
}

#[test]
fn priority_is_a_keyword_in_a_table_heading_and_a_name_anywhere_else() {
    // A DMN table often has a column called priority: the word names a policy only where a
    // table's heading names one.
    let path = repo().join("tests/rules/shipping_class.rule");
    let text =
        read(&path).replace("input distance: int", "input priority: int").replace("| distance |", "| priority |");
    let text = text.replace("distance=", "priority=");
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new(), "a value may be named priority");
    let class_at = token_types(&mut c, &u);
    assert_eq!(class_at(&pos(&text, "priority ->", 0)), Some(0), "the policy is a keyword");
    assert_ne!(class_at(&pos(&text, "priority:", 0)), Some(0), "the input is a name");
}

#[test]
fn a_multiple_hit_policy_of_two_words_is_a_keyword_in_a_table_heading() {
    let path = repo().join("tests/multi_hit/score.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new());
    let class_at = token_types(&mut c, &u);
    for word in ["collect sum ->", "sum ->", "rule_order ->", "output_order ->"] {
        assert_eq!(class_at(&pos(&text, word, 0)), Some(0), "{word} is a keyword");
    }
    assert_ne!(class_at(&pos(&text, "points\n| age", 0)), Some(0), "a result is a name");
}

/// A `first` table's gap is offered as mark_default: one last row of `-` cells, DMN's
/// default, which closes both of the table's gaps at once (formats.md `fix`).
#[test]
fn a_first_tables_gap_is_a_mark_default_code_action() {
    let path = repo().join("tests/corpus/broken/gap.rule");
    let text = read(&path)
        .replace("table base_rate -> fee", "table base_rate first -> fee")
        .replace("| domestic | large | 20USD |\n", "");
    let u = uri(&path);
    let mut c = Client::start(&repo());
    let diags = c.open(&u, &text);
    assert_eq!(codes(&diags), ["E101"], "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["data"]["fix"]["kind"], "mark_default", "{d}");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": doc(&u), "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let action =
        actions.as_array().unwrap().iter().find(|a| a["title"].as_str().unwrap().starts_with("mark_default (E101)"));
    let edits = action.unwrap_or_else(|| panic!("a mark_default action in {actions}"))["edit"]["changes"][u.as_str()]
        .as_array()
        .unwrap()
        .clone();
    let after = apply(&text, &edits);
    assert!(after.ends_with("| overseas | large | 45USD |\n| - | - | 0USD |\n"), "{after}");
    c.change(&u, 2, &after);
    assert_eq!(c.diagnostics(&u, 2).0, Vec::<Value>::new(), "both gaps are closed:\n{after}");
    c.shutdown();
}

/// A rule that walks (reference §6.3): hover on a field says which sequence's element it
/// belongs to, on a summary and on a fold's answer what finds it, on a per-element value
/// that it has one value for each element, on the sequence its count and fields; the walk's
/// words are keywords where they say what they say, and a name anywhere else.
#[test]
fn a_walk_is_described_on_hover_and_its_words_are_keywords() {
    let path = repo().join("tests/walks/order_settlement.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new(), "order_settlement is clean");
    let h = hover_text(&mut c, &u, pos(&text, "price: money", 0));
    assert!(h.contains("field `price` of each element of `lines`: money[USD]"), "{h}");
    assert!(h.contains("declared range: 0USD..1000USD"), "{h}");
    let h = hover_text(&mut c, &u, pos(&text, "subtotal", 0));
    assert!(h.contains("summary: the `sum` of `line_total` over the elements of `lines`"), "{h}");
    let h = hover_text(&mut c, &u, pos(&text, "discount", 0));
    assert!(h.contains("fold: the answer of `take_first` of `top_off` over `lines` by `pick`"), "{h}");
    let h = hover_text(&mut c, &u, pos(&text, "line_total =", 0));
    assert!(h.contains("worked out once for each element of `lines`"), "{h}");
    let h = hover_text(&mut c, &u, pos(&text, "payments", 0));
    assert!(h.contains("sequence `payments`: up to 5 elements, each with `amount`: money[USD]"), "{h}");

    let class_at = token_types(&mut c, &u);
    for (word, nth) in [
        ("elements lines", 0),
        ("up to 20", 0),
        ("to 20", 0),
        ("sum line_total", 0),
        ("over lines", 0),
        ("max price", 0),
        ("empty 0USD", 0),
        ("fold take_first", 0),
        ("take_first top_off", 0),
        ("by pick", 0),
        ("take top", 0),
    ] {
        assert_eq!(class_at(&pos(&text, word, nth)), Some(0), "{word} is a keyword");
    }
    assert_ne!(class_at(&pos(&text, "top_off over", 0)), Some(0), "the value folded is a name");
    c.shutdown();

    // A fold's clauses: each action word is a keyword, each verdict a name.
    let path = repo().join("tests/walks/best_bid.rule");
    let text = read(&path);
    let u = uri(&path);
    let mut c = Client::start(&repo());
    assert_eq!(c.open(&u, &text), Vec::<Value>::new());
    let class_at = token_types(&mut c, &u);
    for word in ["keep_max offer", "keep counted", "stop closing", "empty opening"] {
        assert_eq!(class_at(&pos(&text, word, 0)), Some(0), "{word} is a keyword");
    }
    assert_ne!(class_at(&pos(&text, "counted, stop", 0)), Some(0), "a verdict is a name");
    let h = hover_text(&mut c, &u, pos(&text, "late: bool", 0));
    assert!(h.contains("field `late` of each element of `bids`: bool"), "{h}");
    c.shutdown();
}
