//! Diagnostics: what every stage reports, the registry of codes behind `explain`, and the
//! renderers (rustc-like text, the formats.md `check` v2 JSON, SARIF).

pub mod codes;
pub mod render;

use crate::source::Span;
use serde_json::Value as Json;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

pub use crate::source::FileId;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub text: String,
}

/// The one mechanical edit that removes a diagnostic (formats.md `fix`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub kind: &'static str,
    /// The bytes to write: a literal, a row, a range, a declaration line.
    pub text: String,
    /// Where the text goes: the span it replaces, or an empty span where it is inserted.
    pub at: Option<(FileId, Span)>,
}

/// A row of a table named by a diagnostic (`rows` in the JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowRef {
    pub table: String,
    pub row: usize,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    /// The headline, specific to this occurrence.
    pub message: String,
    /// The primary location; its label says what is wrong there.
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// Prose: what else the reader needs (a note) and how to fix it (`help: …`).
    pub notes: Vec<String>,
    pub help: Option<String>,
    pub table: Option<String>,
    pub witness: Option<Json>,
    pub rows: Vec<RowRef>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(code: &'static str, file: FileId, span: Span, message: impl Into<String>) -> Diagnostic {
        let severity = codes::severity_of(code);
        Diagnostic {
            code,
            severity,
            message: message.into(),
            primary: Label { file, span, text: String::new() },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            table: None,
            witness: None,
            rows: Vec::new(),
            fix: None,
        }
    }
    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.primary.text = text.into();
        self
    }
    pub fn secondary(mut self, file: FileId, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push(Label { file, span, text: text.into() });
        self
    }
    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(text.into());
        self
    }
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }
    pub fn in_table(mut self, table: impl Into<String>) -> Self {
        self.table = Some(table.into());
        self
    }
    pub fn witness(mut self, witness: Json) -> Self {
        self.witness = Some(witness);
        self
    }
    pub fn row(mut self, table: &str, row: usize) -> Self {
        self.rows.push(RowRef { table: table.to_string(), row });
        self
    }
    pub fn fix(mut self, kind: &'static str, text: impl Into<String>, at: Option<(FileId, Span)>) -> Self {
        self.fix = Some(Fix { kind, text: text.into(), at });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Diagnostics collected by a stage, in the order they were found.
#[derive(Default, Debug)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }
}
