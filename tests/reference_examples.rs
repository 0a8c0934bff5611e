//! Every example of docs/reference.md says what `rulec check` makes of it, in the comment
//! above it (`<!-- check: clean, canonical -->`, `<!-- check: E054 -->`): the reference's
//! examples are held to the checker, so the language it describes is the one rulec reads.

mod common;

use common::ROOT;
use rulec::analysis::Options;
use rulec::{check_path, Sources};

/// Each example: what its comment claims, and its text.
fn examples() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/reference.md")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(claim) = line.strip_prefix("<!-- check: ").and_then(|l| l.strip_suffix(" -->")) else { continue };
        assert_eq!(
            lines.get(i + 1),
            Some(&"```rule"),
            "line {}: a check comment stands right above a rule block",
            i + 1
        );
        let body: Vec<&str> = lines[i + 2..].iter().take_while(|l| **l != "```").copied().collect();
        out.push((claim.to_string(), body.join("\n") + "\n"));
    }
    out
}

#[test]
fn every_example_of_the_reference_checks_as_its_comment_says() {
    let dir = tempfile::tempdir().unwrap();
    // The examples' `use "shared/tiers.rule"` reads the corpus's enums file.
    std::fs::create_dir_all(dir.path().join("shared")).unwrap();
    std::fs::copy(format!("{ROOT}/tests/corpus/shared/tiers.rule"), dir.path().join("shared/tiers.rule")).unwrap();
    let examples = examples();
    assert!(examples.len() >= 20, "the reference's examples were not found: {}", examples.len());
    for (k, (claim, text)) in examples.iter().enumerate() {
        let path = dir.path().join(format!("example{k}.rule"));
        std::fs::write(&path, text).unwrap();
        let mut sources = Sources::new();
        let checked = check_path(&mut sources, &path, &Options::default()).unwrap();
        let codes: Vec<&str> = checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
        let mut parts = claim.split(", ");
        match parts.next().unwrap() {
            "clean" => assert!(checked.diagnostics.is_empty(), "example {k} is not clean: {codes:?}\n{text}"),
            code => assert!(codes.contains(&code), "example {k} does not produce {code}: {codes:?}\n{text}"),
        }
        if parts.any(|p| p == "canonical") {
            let parsed = rulec::syntax::parse(text, rulec::diag::FileId(0));
            let file = parsed.file.unwrap_or_else(|| panic!("example {k} does not parse\n{text}"));
            assert_eq!(&rulec::syntax::fmt::format_file(&file), text, "example {k} is not in canonical form");
        }
    }
}
