//! Arbitrary bytes, read as UTF-8 (lossily), through everything a `.rule` file meets:
//! the parser, the whole check (names, types, analysis, expects), the diagnostic renderers,
//! and `fmt`. Asserts what tests/parser_fuzz.rs asserts: no panic, every diagnostic span
//! inside its text and on char boundaries, and on text that parses cleanly, a formatted
//! form that parses cleanly, is a fixed point and keeps every comment.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulec::analysis::Options;
use rulec::diag::{render, Diagnostic, FileId};
use rulec::syntax::{self, ast, fmt::format_file, lexer};
use rulec::{check_text, Sources};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    run(&text);
});

fn run(text: &str) {
    let parsed = syntax::parse(text, FileId(0));
    for d in &parsed.diags {
        assert_span(text, d.primary.span.start, d.primary.span.end, d);
    }

    // `use` reads a file: only plain relative paths are followed (a fuzzer that wrote
    // `use "/dev/zero"` would be testing the disk, not rulec).
    let reads_safely = parsed.file.as_ref().is_none_or(|f| {
        f.items.iter().all(|i| match &i.kind {
            ast::ItemKind::Use(p) => {
                !p.value.starts_with('/')
                    && !p.value.contains("..")
                    && p.value.bytes().all(|b| b.is_ascii_alphanumeric() || b"_./-".contains(&b))
            }
            _ => true,
        })
    });
    if reads_safely {
        let mut sources = Sources::new();
        let checked = check_text(&mut sources, "fuzz_case.rule", text, &Options::default());
        for d in &checked.diagnostics {
            for l in std::iter::once(&d.primary).chain(&d.secondary) {
                assert_span(&sources.get(l.file).text, l.span.start, l.span.end, d);
            }
            if let Some((f, s)) = d.fix.as_ref().and_then(|f| f.at) {
                assert_span(&sources.get(f).text, s.start, s.end, d);
            }
            let _ = render::json(&sources, d);
            let _ = render::key(&sources, d);
        }
        let _ = render::text(&sources, &checked.diagnostics, false);
    }

    // fmt, on what the CLI would format.
    let folded = text.replace("\r\n", "\n");
    let folded = folded.strip_prefix('\u{feff}').unwrap_or(&folded);
    let parsed = syntax::parse(folded, FileId(0));
    let Some(file) = parsed.file.filter(|_| !parsed.diags.iter().any(Diagnostic::is_error)) else {
        return;
    };
    let once = format_file(&file);
    let again = syntax::parse(&once, FileId(0));
    assert!(!again.diags.iter().any(Diagnostic::is_error), "the formatted text does not parse:\n{once}");
    let twice = format_file(again.file.as_ref().expect("a formatted file has a header"));
    assert_eq!(once, twice, "fmt is not idempotent");
    assert_eq!(comments(folded), comments(&once), "fmt lost or added a comment");
}

fn assert_span(text: &str, start: u32, end: u32, d: &Diagnostic) {
    let (s, e) = (start as usize, end as usize);
    assert!(
        s <= e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e),
        "{} span {s}..{e} is outside the text ({} bytes) or splits a char: {}",
        d.code,
        text.len(),
        d.message
    );
}

fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut base = 0;
    for line in text.split('\n') {
        if let Some((c, _)) = lexer::lex_line(line, base, FileId(0), &mut Vec::new()).comment {
            out.push(c.trim_end().to_string());
        }
        base += line.len() + 1;
    }
    out.sort();
    out
}
