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

/// The most diagnostics shown for one line, and for one file: a line of ten thousand stray
/// characters is a handful of diagnostics and a count, not ten thousand diagnostics.
pub const MAX_PER_LINE: usize = 10;
pub const MAX_PER_FILE: usize = 500;

const ON_THIS_LINE: &str = "more on this line";
const IN_THIS_FILE: &str = "more in this file";

/// Say on a kept diagnostic that `n` more were left out on its line (`… and 9,873 more on
/// this line`), adding to what it says already.
pub fn more_on_this_line(d: &mut Diagnostic, n: usize) {
    add_more(d, n, ON_THIS_LINE)
}

/// The same, for a file.
pub fn more_in_this_file(d: &mut Diagnostic, n: usize) {
    add_more(d, n, IN_THIS_FILE)
}

fn add_more(d: &mut Diagnostic, n: usize, what: &str) {
    let count_of = |note: &str| -> Option<usize> {
        note.strip_prefix("… and ")?.strip_suffix(what)?.trim_end().replace(',', "").parse().ok()
    };
    match d.notes.iter().position(|note| count_of(note).is_some()) {
        Some(i) => {
            let total = count_of(&d.notes[i]).unwrap_or(0) + n;
            d.notes[i] = format!("… and {} {what}", thousands(total));
        }
        None => d.notes.push(format!("… and {} {what}", thousands(n))),
    }
}

/// `9873` as `9,873`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Keep at most `MAX_PER_LINE` diagnostics per line and `MAX_PER_FILE` per file, in order;
/// the last one kept for a line (or a file) says how many more there were. `line_of` gives
/// a diagnostic's file and line.
pub fn cap(diags: Vec<Diagnostic>, line_of: impl Fn(&Diagnostic) -> (FileId, usize)) -> Vec<Diagnostic> {
    use std::collections::HashMap;
    let mut kept: Vec<Diagnostic> = Vec::new();
    // Per kept line: the index of its last kept diagnostic, how many it kept and dropped.
    let mut lines: HashMap<(FileId, usize), (usize, usize, usize)> = HashMap::new();
    let mut files: HashMap<FileId, (usize, usize, usize)> = HashMap::new();
    for d in diags {
        let at = line_of(&d);
        let file = files.entry(at.0).or_insert((0, 0, 0));
        if file.1 >= MAX_PER_FILE {
            file.2 += 1;
            continue;
        }
        let line = lines.entry(at).or_insert((0, 0, 0));
        if line.1 >= MAX_PER_LINE {
            line.2 += 1;
            continue;
        }
        line.0 = kept.len();
        line.1 += 1;
        file.0 = kept.len();
        file.1 += 1;
        kept.push(d);
    }
    for &(i, _, dropped) in lines.values().filter(|l| l.2 > 0) {
        more_on_this_line(&mut kept[i], dropped);
    }
    for &(i, _, dropped) in files.values().filter(|f| f.2 > 0) {
        more_in_this_file(&mut kept[i], dropped);
    }
    kept
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
