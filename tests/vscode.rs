//! The VS Code extension (editors/vscode): its TextMate grammar gives every character of
//! every `.rule` file of the repository a scope of its own (vscode-textmate and
//! vscode-oniguruma from npm, as VS Code tokenizes), its client type-checks against the
//! VS Code API, and `vsce package` packs it. scripts/setup.sh installs the packages.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn extension() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("editors/vscode")
}

/// Whether the extension's npm packages are installed (`npm ci` in editors/vscode).
fn installed(test: &str) -> bool {
    if extension().join("node_modules/vscode-textmate").is_dir() {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: editors/vscode/node_modules is missing (scripts/setup.sh runs npm ci there), and CI is set");
    }
    eprintln!("note: {test} skipped: editors/vscode/node_modules is missing (npm ci in editors/vscode)");
    false
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let shown = format!("{}{}", common::text(&out.stdout), common::text(&out.stderr));
    assert!(out.status.success(), "{cmd:?}:\n{shown}");
    shown
}

#[test]
fn the_grammar_gives_every_token_of_every_rule_file_a_scope() {
    if !common::toolchain("vscode grammar", &["node"]) || !installed("vscode grammar") {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run(Command::new("node")
        .arg("test/grammar.mjs")
        .args(["tests/corpus", "tests/rules", "tests/lsp", "tests/walks", "examples"].map(|d| repo.join(d)))
        .current_dir(extension()));
    assert!(out.contains(" 0 unknown tokens, 0 sample tokens wrong"), "{out}");
    let files: usize = out.lines().last().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(files >= 40, "every rule file of the repository: {out}");
}

#[test]
fn a_character_the_language_does_not_have_is_an_unknown_token() {
    if !common::toolchain("vscode grammar", &["node"]) || !installed("vscode grammar") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("x.rule"), "rule x v1\ninput a: int 1..2 @\n").unwrap();
    let out = Command::new("node").arg("test/grammar.mjs").arg(tmp.path()).current_dir(extension()).output().unwrap();
    assert!(!out.status.success());
    assert!(common::text(&out.stdout).contains("x.rule:2:19: unknown token \"@\""), "{}", common::text(&out.stdout));
}

#[test]
fn the_extension_type_checks_and_packages() {
    if !common::toolchain("vscode package", &["node", "vsce"]) || !installed("vscode package") {
        return;
    }
    // Packaged from a copy: vsce writes out/ and the .vsix beside the sources.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("vscode");
    run(Command::new("cp").arg("-r").arg(extension()).arg(&copy));
    let _ = std::fs::remove_dir_all(copy.join("out"));
    run(Command::new("node").args(["node_modules/typescript/bin/tsc", "-p", "."]).current_dir(&copy));
    assert!(copy.join("out/extension.js").is_file());
    let vsix = tmp.path().join("rulec.vsix");
    run(Command::new("vsce")
        .args(["package", "--allow-missing-repository", "--skip-license", "-o"])
        .arg(&vsix)
        .current_dir(&copy));
    let listed = run(Command::new("vsce").args(["ls"]).current_dir(&copy));
    for f in ["package.json", "out/extension.js", "syntaxes/rule.tmLanguage.json", "language-configuration.json"] {
        assert!(listed.lines().any(|l| l.trim() == f), "{f} in the package:\n{listed}");
    }
    assert!(std::fs::metadata(&vsix).unwrap().len() > 1000);
}
