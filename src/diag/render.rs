//! Rendering diagnostics: text the way rustc prints it, and formats.md's `check` v2 JSON.

use super::{Diagnostic, Severity};
use crate::source::{SourceFile, Sources};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor};
use serde_json::{json, Map, Value as Json};

impl<'a> Files<'a> for Sources {
    type FileId = super::FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: Self::FileId) -> Result<&'a str, FilesError> {
        Ok(&self.get(id).display)
    }
    fn source(&'a self, id: Self::FileId) -> Result<&'a str, FilesError> {
        Ok(&self.get(id).text)
    }
    fn line_index(&'a self, id: Self::FileId, byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.get(id).line_col(byte_index as u32).0 - 1)
    }
    fn line_range(&'a self, id: Self::FileId, line_index: usize) -> Result<std::ops::Range<usize>, FilesError> {
        let f: &SourceFile = self.get(id);
        f.line_range(line_index).ok_or(FilesError::LineTooLarge { given: line_index, max: 0 })
    }
}

/// The longest line a diagnostic quotes: past it, the diagnostic gives the place and its
/// label as text, and not the line (a line of ten megabytes is not shown once per error).
pub const MAX_QUOTED_LINE: usize = 400;

fn quotes_its_lines(sources: &Sources, d: &Diagnostic) -> bool {
    std::iter::once(&d.primary).chain(&d.secondary).all(|l| {
        let f = sources.get(l.file);
        let (first, _) = f.line_col(l.span.start);
        let (last, _) = f.line_col(l.span.end);
        (first..=last).all(|line| f.line_range(line - 1).is_none_or(|r| r.len() <= MAX_QUOTED_LINE))
    })
}

fn to_codespan(sources: &Sources, d: &Diagnostic) -> cs::Diagnostic<super::FileId> {
    if !quotes_its_lines(sources, d) {
        return unquoted(sources, d);
    }
    to_codespan_quoted(d)
}

fn to_codespan_quoted(d: &Diagnostic) -> cs::Diagnostic<super::FileId> {
    let sev = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut labels = vec![cs::Label::primary(d.primary.file, d.primary.span.range()).with_message(&d.primary.text)];
    labels.extend(d.secondary.iter().map(|l| cs::Label::secondary(l.file, l.span.range()).with_message(&l.text)));
    let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
    if let Some(w) = &d.witness {
        notes.push(format!("witness: {w}"));
    }
    if let Some(h) = &d.help {
        notes.push(format!("help: {h}"));
    }
    if let Some(fix) = &d.fix {
        if !fix.text.is_empty() {
            notes.push(format!("fix ({}): {}", fix.kind, fix.text.trim()));
        }
    }
    cs::Diagnostic::new(sev).with_code(d.code).with_message(&d.message).with_labels(labels).with_notes(notes)
}

/// A diagnostic on a line too long to quote: each label as `--> file:line:col: label`.
fn unquoted(sources: &Sources, d: &Diagnostic) -> cs::Diagnostic<super::FileId> {
    let sev = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut notes: Vec<String> = std::iter::once(&d.primary)
        .chain(&d.secondary)
        .map(|l| {
            let f = sources.get(l.file);
            let (line, col) = f.line_col(l.span.start);
            let length = f.line_range(line - 1).map_or(0, |r| f.text[r].trim_end_matches('\n').chars().count());
            format!("--> {}:{line}:{col}: {} (the line is {length} characters long; not shown)", f.display, l.text)
        })
        .collect();
    let rest = to_codespan_quoted(d).notes;
    notes.extend(rest);
    cs::Diagnostic::new(sev).with_code(d.code).with_message(&d.message).with_notes(notes)
}

/// Render as rustc does: `error[E101]: …`, then `--> file:line:col`, the line and a caret.
pub fn text(sources: &Sources, diags: &[Diagnostic], color: bool) -> String {
    let mut buf = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let config = term::Config { chars: term::Chars::ascii(), ..term::Config::default() };
    for d in diags {
        term::emit(&mut buf, &config, sources, &to_codespan(sources, d)).expect("writing to a buffer");
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// A key that names the finding, not where it sits: it survives edits that move lines.
pub fn key(sources: &Sources, d: &Diagnostic) -> String {
    use sha2::{Digest, Sha256};
    let f = sources.get(d.primary.file);
    let mut h = Sha256::new();
    for part in [d.code, &f.display, d.table.as_deref().unwrap_or(""), &d.message, f.slice(d.primary.span)] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    crate::source::hex(&h.finalize()[..8])
}

/// One `check` v2 object (formats.md).
pub fn json(sources: &Sources, d: &Diagnostic) -> Json {
    let f = sources.get(d.primary.file);
    let (line, column) = f.line_col(d.primary.span.start);
    let mut spans = vec![span_json(sources, &d.primary)];
    spans.extend(d.secondary.iter().map(|l| span_json(sources, l)));
    let mut notes: Vec<Json> = d.notes.iter().map(|n| Json::String(n.clone())).collect();
    if let Some(h) = &d.help {
        notes.push(Json::String(format!("hint: {h}")));
    }
    let mut where_ = Map::new();
    where_.insert("file".into(), json!(f.display));
    where_.insert("line".into(), json!(line));
    where_.insert("column".into(), json!(column));
    if let Some(t) = &d.table {
        where_.insert("table".into(), json!(t));
    }
    let mut m = Map::new();
    m.insert("v".into(), json!(2));
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("code".into(), json!(d.code));
    m.insert("file".into(), json!(f.display));
    m.insert("line".into(), json!(line));
    m.insert("column".into(), json!(column));
    m.insert("title".into(), json!(d.message));
    m.insert("notes".into(), Json::Array(notes));
    m.insert("where".into(), Json::Object(where_));
    m.insert("spans".into(), Json::Array(spans));
    m.insert("witness".into(), d.witness.clone().unwrap_or(Json::Null));
    m.insert("rows".into(), Json::Array(d.rows.iter().map(|r| json!({"table": r.table, "row": r.row})).collect()));
    m.insert(
        "fix".into(),
        match &d.fix {
            Some(fix) => json!({"kind": fix.kind, "text": fix.text}),
            None => json!({"kind": "none", "text": ""}),
        },
    );
    m.insert("key".into(), json!(key(sources, d)));
    Json::Object(m)
}

fn span_json(sources: &Sources, l: &super::Label) -> Json {
    let f = sources.get(l.file);
    let (line, column) = f.line_col(l.span.start);
    json!({"line": line, "column": column, "length": f.char_len(l.span), "label": l.text})
}

/// A SARIF 2.1.0 log with one run, for code scanning: one result per diagnostic, each
/// code described once under `tool.driver.rules`, a fingerprint that does not move with the line.
pub fn sarif(sources: &Sources, diags: &[Diagnostic]) -> Json {
    let mut codes: Vec<&'static str> = diags.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Json> = codes
        .iter()
        .map(|code| {
            let info = super::codes::lookup(code);
            let level = sarif_level(super::codes::severity_of(code));
            json!({
                "id": code,
                "name": code,
                "shortDescription": {"text": info.map_or(*code, |i| i.title)},
                "fullDescription": {"text": info.map_or("", |i| i.when)},
                "help": {"text": info.map_or("", |i| i.fix)},
                "defaultConfiguration": {"level": level},
            })
        })
        .collect();
    let results: Vec<Json> = diags
        .iter()
        .map(|d| {
            let mut text = d.message.clone();
            for n in &d.notes {
                text.push_str("\nnote: ");
                text.push_str(n);
            }
            if let Some(h) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(h);
            }
            let mut r = Map::new();
            r.insert("ruleId".into(), json!(d.code));
            r.insert("ruleIndex".into(), json!(codes.iter().position(|c| *c == d.code).unwrap_or(0)));
            r.insert("level".into(), json!(sarif_level(d.severity)));
            r.insert("message".into(), json!({"text": text}));
            r.insert("locations".into(), json!([sarif_location(sources, d.primary.file, d.primary.span, None)]));
            if !d.secondary.is_empty() {
                let related: Vec<Json> = d
                    .secondary
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let mut loc = sarif_location(sources, l.file, l.span, Some(&l.text));
                        loc["id"] = json!(i);
                        loc
                    })
                    .collect();
                r.insert("relatedLocations".into(), Json::Array(related));
            }
            r.insert("partialFingerprints".into(), json!({"rulecFindingId/v1": key(sources, d)}));
            if let Some(fix) = &d.fix {
                if let Some((file, span)) = fix.at {
                    r.insert(
                        "fixes".into(),
                        json!([{
                            "description": {"text": format!("{}: {}", fix.kind, fix.text.trim())},
                            "artifactChanges": [{
                                "artifactLocation": {"uri": sources.get(file).display},
                                "replacements": [{
                                    "deletedRegion": {"charOffset": char_offset(sources, file, span.start), "charLength": sources.get(file).char_len(span)},
                                    "insertedContent": {"text": fix.text},
                                }],
                            }],
                        }]),
                    );
                }
            }
            Json::Object(r)
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulec",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": true}],
            "results": results,
        }],
    })
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn char_offset(sources: &Sources, file: super::FileId, byte: u32) -> usize {
    sources.get(file).text[..byte as usize].chars().count()
}

fn sarif_location(sources: &Sources, file: super::FileId, span: crate::source::Span, message: Option<&str>) -> Json {
    let f = sources.get(file);
    let (start_line, start_col) = f.line_col(span.start);
    let (end_line, end_col) = f.line_col(span.end);
    let mut loc = json!({
        "physicalLocation": {
            "artifactLocation": {"uri": f.display},
            "region": {"startLine": start_line, "startColumn": start_col, "endLine": end_line, "endColumn": end_col},
        }
    });
    if let Some(m) = message {
        loc["message"] = json!({"text": m});
    }
    loc
}
