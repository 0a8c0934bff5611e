//! `rulec doc` over the corpus: snapshots of the approver's document and the customer's
//! article for every rule; the article holds the boundary cases and none of the aliases,
//! declared ranges or codes; the figures of "what rulec check verified" are the ones an
//! independent checker counts from the certificate; `--out` names the files as formats.md
//! says.

mod common;
use common::at_root as rulec;

use rulec::doc::words::{self, Audience};
use rulec::sema::{Program, Ty};
use std::path::Path;
use std::process::Command;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

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

fn stem(rule: &str) -> String {
    Path::new(rule).file_stem().unwrap().to_string_lossy().into_owned()
}

fn doc(rule: &str, extra: &[&str]) -> String {
    let mut args = vec!["doc", rule];
    args.extend(extra);
    let o = rulec(&args);
    assert!(o.status.success(), "rulec doc {rule}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn program(rule: &str) -> Program {
    let mut sources = rulec::Sources::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rule);
    let checked = rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default()).unwrap();
    checked.program.unwrap()
}

#[test]
fn approver_documents() {
    for rule in corpus() {
        insta::assert_snapshot!(format!("approver_{}", stem(&rule)), doc(&rule, &[]));
    }
}

#[test]
fn customer_articles() {
    for rule in corpus() {
        insta::assert_snapshot!(format!("customer_{}", stem(&rule)), doc(&rule, &["--audience", "customer"]));
    }
}

/// Whether `word` occurs in `text` as a whole name (not inside a longer one).
fn has_word(text: &str, word: &str) -> bool {
    let name_char = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(name_char) && !after.is_some_and(name_char)
    })
}

/// A diagnostic code: `E` or `W` and three digits, as a whole word.
fn has_code(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len().saturating_sub(3)).find_map(|i| {
        let word_before = i > 0 && chars[i - 1].is_alphanumeric();
        let word_after = chars.get(i + 4).is_some_and(|c| c.is_alphanumeric());
        let code = matches!(chars[i], 'E' | 'W') && chars[i + 1..i + 4].iter().all(|c| c.is_ascii_digit());
        (code && !word_before && !word_after).then(|| chars[i..i + 4].iter().collect())
    })
}

#[test]
fn the_customer_article_leaves_out_aliases_ranges_and_codes() {
    for rule in corpus() {
        let p = program(&rule);
        let article = doc(&rule, &["--audience", "customer"]);
        // The author's own sentence is quoted as written; the rest is the article's.
        let body = match &p.about {
            Some(about) => article.replace(about.as_str(), ""),
            None => article.clone(),
        };
        let mut aliases: Vec<&str> = Vec::new();
        aliases.extend(p.alias.as_deref());
        aliases.extend(p.vars.iter().filter_map(|v| v.alias.as_deref()));
        for e in &p.enums {
            aliases.extend(e.alias.as_deref());
            aliases.extend(e.values.iter().filter_map(|v| v.alias.as_deref()));
        }
        for a in aliases {
            assert!(!has_word(&body, a), "{rule}: the article names the alias {a}:\n{article}");
        }
        for v in &p.vars {
            if let Some(range) = words::range_words(&p, v) {
                assert!(!body.contains(&range), "{rule}: the article states the range of {}: {range}", v.name);
            }
            if let Some(written) = &v.range_text {
                assert!(!body.contains(written.as_str()), "{rule}: the article states {written}");
            }
        }
        assert_eq!(has_code(&body), None, "{rule}: a diagnostic code in the article");
        assert!(!body.contains("not:"), "{rule}: `not:` is written as \u{201c}other than\u{201d}");
        assert!(!body.contains("| - |"), "{rule}: `-` is written as \u{201c}any\u{201d}");
        assert!(!body.contains("check verified") && !body.contains("certificate"), "{rule}: no evidence");
    }
    let member = doc("tests/corpus/member_discount.rule", &["--audience", "customer"]);
    assert!(member.contains("| other than web |"), "{member}");
    assert!(member.contains("| any |"), "{member}");
}

#[test]
fn the_customer_article_holds_every_boundary_case() {
    let mut pairs_seen = 0;
    for rule in corpus() {
        let p = program(&rule);
        let article = doc(&rule, &["--audience", "customer"]);
        let examples = article.split("## Examples on either side of each threshold").nth(1).unwrap_or("");
        let suite = rulec::vectors::build(&p);
        for pair in &suite.pairs {
            pairs_seen += 1;
            let moved = (0..p.inputs.len()).find(|&i| pair.sides[0].1[i] != pair.sides[1].1[i]).unwrap();
            let var = &p.vars[p.inputs[moved]];
            let side = |s: usize| words::value_words(&p, &var.ty, &pair.sides[s].1[moved], Audience::Customer);
            let answers = |s: usize| -> Vec<String> {
                p.outputs
                    .iter()
                    .map(|&o| {
                        let ty: &Ty = &p.vars[o].ty;
                        format!(
                            "{} {}",
                            p.vars[o].name,
                            words::value_words(&p, ty, &pair.sides[s].2.values[o], Audience::Customer)
                        )
                    })
                    .collect()
            };
            let found = examples.lines().any(|l| {
                let l = l.to_lowercase();
                l.contains(&format!("{} {}", var.name, side(0)).to_lowercase())
                    && l.contains(&format!("{} {}", var.name, side(1)).to_lowercase())
                    && answers(0).iter().chain(&answers(1)).all(|a| l.contains(&a.to_lowercase()))
            });
            assert!(found, "{rule}: no line for the pair {} {} / {}:\n{examples}", var.name, side(0), side(1));
        }
    }
    assert!(pairs_seen > 10, "the corpus has boundary pairs ({pairs_seen})");
}

#[test]
fn the_figures_are_the_certificates() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "python3 not found: CI must install it");
        eprintln!("note: skipped, python3 not found");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for rule in corpus() {
        let cert = rulec(&["certificate", &rule]);
        assert!(cert.status.success());
        let path = dir.path().join("cert.json");
        std::fs::write(&path, &cert.stdout).unwrap();
        let o = Command::new("python3")
            .arg(root.join("proofs/recheck.py"))
            .arg("--rule")
            .arg(root.join(&rule))
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success(), "recheck {rule}: {}", text(&o.stdout));
        let document = doc(&rule, &[]);
        // `  name: policy, N rows — D pairs disjoint, R rows reached, C boxes covered, …`
        for line in text(&o.stdout).lines() {
            let Some((name, rest)) = line.trim_start().split_once(": ") else { continue };
            let Some((policy_rows, figures)) = rest.split_once(" rows — ") else { continue };
            let (policy, rows) = policy_rows.split_once(", ").unwrap();
            let n: Vec<&str> = figures.split(", ").map(|f| f.split(' ').next().unwrap()).collect();
            let (disjoint, reached, covered) = (n[0], n[1], n[2]);
            let pairs = {
                let r: usize = rows.parse().unwrap();
                r * r.saturating_sub(1) / 2
            };
            let exclusive = if policy == "first" {
                "first decides".to_string()
            } else {
                format!("{disjoint} of {pairs} comparisons differ")
            };
            let start = format!("| `{name}` | {policy} | {rows} | ");
            let row =
                document.lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("{rule}: no row {start}"));
            for figure in [format!("| {covered} combination"), exclusive, format!("| {reached} of {rows} |")] {
                assert!(row.contains(&figure), "{rule}: the document's figures for {name} ({row}) do not say {figure}");
            }
        }
    }
}

#[test]
fn out_writes_the_files_formats_md_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_string_lossy().into_owned();
    let rule = "tests/corpus/member_shipping_fee.rule";
    for (extra, name) in [
        (vec![], "member_shipping_fee.md"),
        (vec!["--audience", "customer"], "member_shipping_fee.customer.md"),
        (vec!["--format", "html"], "member_shipping_fee.html"),
    ] {
        let mut args = vec!["doc", rule, "--out", &out];
        args.extend(extra.iter());
        let o = rulec(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let written = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let mut printed = vec!["doc", rule];
        printed.extend(extra.iter());
        assert_eq!(written, text(&rulec(&printed).stdout), "{name} is what rulec doc prints");
    }
    let o = rulec(&["doc", rule, "--audience", "customer", "--format", "html"]);
    assert_eq!(o.status.code(), Some(2), "the customer's article is markdown only");
    let o = rulec(&["doc", "tests/corpus/broken/gap.rule"]);
    assert_eq!(o.status.code(), Some(1), "a rule that does not check clean has no document");
    assert!(text(&o.stderr).contains("E101"));
}

/// The rules of tests/walks that check clean (sum_past_int64.rule is E108, which `doc` refuses).
fn walk_rules() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walks");
    let mut rules: Vec<String> = std::fs::read_dir(&dir)
        .expect("the walk rules")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule") && !p.ends_with("sum_past_int64.rule"))
        .map(|p| format!("tests/walks/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    rules.sort();
    assert!(rules.len() >= 5, "the walk rules are there");
    rules
}

/// A rule that walks (reference §6.3), in every format and for every audience: each
/// sequence with its fields and ranges, each walk as one pass, each summary and fold in
/// words and the per-element tables said to be worked out for each element. The approver's
/// documents are snapshots; the page runs the generated module, with a card for each summary
/// (tests/page.rs holds its rows).
#[test]
fn a_rule_that_walks_is_described_in_every_format() {
    for rule in walk_rules() {
        let p = program(&rule);
        let approver = doc(&rule, &[]);
        insta::assert_snapshot!(format!("walk_approver_{}", stem(&rule)), approver);
        let customer = doc(&rule, &["--audience", "customer"]);
        for (who, text) in [("approver", &approver), ("customer", &customer)] {
            for seq in &p.sequences {
                assert!(
                    text.contains(&format!("**{}**: a list of up to {} elements", seq.name, seq.max)),
                    "{rule} {who}"
                );
                for &f in &seq.fields {
                    assert!(
                        text.contains(&format!("| `{}` |", p.vars[f].name)),
                        "{rule} {who}: field {}",
                        p.vars[f].name
                    );
                }
            }
            assert_eq!(text.matches("One pass over `").count(), p.walks.len(), "{rule} {who}: each walk once");
        }
        for s in &p.summaries {
            let name = &p.vars[s.var].name;
            assert!(approver.contains(&format!("### Summary `{name}`: {} over", s.op.as_str())), "{rule}: {name}");
        }
        for f in &p.folds {
            let name = &p.vars[f.into].name;
            assert!(approver.contains(&format!("### Fold `{name}`: {} over", f.kind.as_str())), "{rule}: {name}");
        }
        let per_element = p.walks.iter().map(|w| w.body.len()).sum::<usize>();
        assert!(approver.matches("Worked out once for each element of").count() >= per_element, "{rule}");
        let page = doc(&rule, &["--format", "html"]);
        assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<h2"), "{rule}: the document is there");
        assert!(page.contains(&format!("export function {}_traced(", p.ident())), "{rule}: the module runs it");
        for s in &p.summaries {
            let card = format!("data-decider=\"summary:{}\"", p.vars[s.var].name);
            assert!(page.contains(&card), "{rule}: a card for each summary");
        }
    }
}
