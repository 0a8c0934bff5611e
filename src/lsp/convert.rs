//! Between rulec's values and the protocol's: file URIs and paths, byte spans and UTF-16
//! ranges, a diagnostic of `check` and an LSP diagnostic.

use super::index::Index;
use crate::diag::{Diagnostic, Severity};
use crate::sema::Program;
use crate::source::{FileId, SourceFile, Sources, Span};
use lsp_types as lsp;
use std::path::{Path, PathBuf};

/// The path of a `file:` URI (its percent-escapes decoded); `None` for any other scheme.
pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///x` on Unix; `file:///C:/x` on Windows.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(out).ok()?;
    let path = match path.as_bytes() {
        [b'/', _, b':', ..] if cfg!(windows) => path[1..].to_string(),
        _ => path,
    };
    Some(PathBuf::from(path))
}

/// The `file:` URI of an absolute path, every byte outside the unreserved set and `/` escaped.
pub fn path_to_uri(path: &Path) -> lsp::Uri {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out.parse().expect("an escaped file URI parses")
}

pub fn position(f: &SourceFile, offset: u32) -> lsp::Position {
    let (line, character) = f.utf16_position(offset);
    lsp::Position { line, character }
}

pub fn range(f: &SourceFile, span: Span) -> lsp::Range {
    lsp::Range { start: position(f, span.start), end: position(f, span.end) }
}

pub fn offset(f: &SourceFile, p: lsp::Position) -> usize {
    f.offset_of_utf16(p.line, p.character)
}

/// The URI of a file a check read.
pub fn file_uri(sources: &Sources, file: FileId) -> lsp::Uri {
    path_to_uri(&crate::source::lexical_absolute(&sources.resolve(&sources.get(file).path)))
}

pub fn location(sources: &Sources, file: FileId, span: Span) -> lsp::Location {
    lsp::Location { uri: file_uri(sources, file), range: range(sources.get(file), span) }
}

/// What a check found, as the editor shows it on `file`: the headline, the notes and the
/// help in the message; the other labels, the rows and the witness as related information;
/// the fix in `data`. A finding in another file (an enums file the rule `use`s) is shown
/// on the `use` that read it.
pub fn diagnostic(
    d: &Diagnostic,
    sources: &Sources,
    file: FileId,
    program: Option<&Program>,
    index: &Index,
) -> lsp::Diagnostic {
    let mut related = Vec::new();
    let here = if d.primary.file == file {
        range(sources.get(file), d.primary.span)
    } else {
        related.push(lsp::DiagnosticRelatedInformation {
            location: location(sources, d.primary.file, d.primary.span),
            message: if d.primary.text.is_empty() { d.message.clone() } else { d.primary.text.clone() },
        });
        match index.uses.iter().find(|u| u.1 == d.primary.file) {
            Some(u) => range(sources.get(file), u.0),
            None => range(sources.get(file), Span::new(0, 0)),
        }
    };
    for l in &d.secondary {
        related.push(lsp::DiagnosticRelatedInformation {
            location: location(sources, l.file, l.span),
            message: l.text.clone(),
        });
    }
    let table = |name: &str| program.and_then(|p| p.tables.iter().find(|t| t.name == name));
    for r in &d.rows {
        if let Some(row) = table(&r.table).and_then(|t| t.rows.get(r.row.wrapping_sub(1))) {
            related.push(lsp::DiagnosticRelatedInformation {
                location: location(sources, file, row.span),
                message: format!("{} row {}", r.table, r.row),
            });
        }
    }
    if let Some(w) = &d.witness {
        let at = d.table.as_deref().and_then(table).map_or(d.primary.span, |t| t.name_span);
        related.push(lsp::DiagnosticRelatedInformation {
            location: location(sources, file, at),
            message: format!("witness: {}", witness_text(w)),
        });
    }
    let mut message = d.message.clone();
    if !d.primary.text.is_empty() {
        message.push_str(&format!(": {}", d.primary.text));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    lsp::Diagnostic {
        range: here,
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Note => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("rulec".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data: d.fix.as_ref().map(|f| serde_json::json!({"fix": {"kind": f.kind, "text": f.text}})),
        ..lsp::Diagnostic::default()
    }
}

/// A witness object as `name=value, …`, in its order.
pub fn witness_text(w: &serde_json::Value) -> String {
    let w = w.get("inputs").filter(|i| i.is_object()).unwrap_or(w);
    match w.as_object() {
        Some(m) => m
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        None => w.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{path_to_uri, uri_to_path};
    use std::path::Path;

    #[test]
    fn file_uris_escape_and_unescape_every_byte_outside_the_unreserved_set() {
        let path = Path::new("/tmp/my rules/送料#1%.rule");
        let uri = path_to_uri(path);
        assert_eq!(uri.as_str(), "file:///tmp/my%20rules/%E9%80%81%E6%96%99%231%25.rule");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        // What VS Code sends for the same file (`%` escapes in lower case) reads the same.
        let sent: lsp_types::Uri = "file:///tmp/my%20rules/%e9%80%81%e6%96%99%231%25.rule".parse().unwrap();
        assert_eq!(uri_to_path(&sent).as_deref(), Some(path));
        let untitled: lsp_types::Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_to_path(&untitled), None);
    }
}
