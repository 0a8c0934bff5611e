//! Source files and byte spans. Every AST node carries a `Span`; line and column are
//! computed only when a diagnostic is rendered.

use std::path::{Path, PathBuf};

/// Index of a file in the `Sources` a diagnostic is rendered against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The largest rule or enums file rulec reads.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One loaded file: its path as the user named it, and its text with CRLF read as LF.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    /// The path as it is shown in diagnostics (as given on the command line, with `/`).
    pub display: String,
    pub text: String,
    /// The SHA-256 of the file's bytes as read from disk (before CRLF folding).
    pub sha256: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: &Path, bytes: &[u8]) -> Result<SourceFile, String> {
        use sha2::{Digest, Sha256};
        let sha256 = hex(&Sha256::digest(bytes));
        let text = std::str::from_utf8(bytes)
            .map_err(|e| {
                // Located as a diagnostic is: the line, and the column in characters.
                let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
                let line = valid.matches('\n').count() + 1;
                let col = valid.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                format!("{}:{line}:{col}: not UTF-8 (byte {})", path.display(), e.valid_up_to())
            })?
            .replace("\r\n", "\n");
        let text = text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text);
        Ok(SourceFile::from_parts(path, text, sha256))
    }

    /// A file that exists only in memory (tests, `explain` examples, the macro).
    pub fn from_text(path: &str, text: &str) -> SourceFile {
        SourceFile::new(Path::new(path), text.as_bytes()).expect("a str is UTF-8")
    }

    fn from_parts(path: &Path, text: String, sha256: String) -> SourceFile {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let display = path.to_string_lossy().replace('\\', "/");
        SourceFile { path: path.to_path_buf(), display, text, sha256, line_starts }
    }

    /// Read a rule or enums file: a regular file of at most `MAX_FILE_BYTES` (so a `use` of
    /// a device or a pipe is refused rather than waited on).
    pub fn read(path: &Path) -> Result<SourceFile, String> {
        SourceFile::read_at(path, path)
    }

    /// Read the file at `disk`, shown (in diagnostics, headers, the lock) as `shown`.
    pub fn read_at(disk: &Path, shown: &Path) -> Result<SourceFile, String> {
        let meta = std::fs::metadata(disk).map_err(|e| format!("cannot read {}: {e}", shown.display()))?;
        if !meta.is_file() {
            return Err(format!("{} is not a regular file", shown.display()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(format!("{} is larger than {} bytes", shown.display(), MAX_FILE_BYTES));
        }
        let bytes = std::fs::read(disk).map_err(|e| format!("cannot read {}: {e}", shown.display()))?;
        SourceFile::new(shown, &bytes)
    }

    /// 1-based line and 1-based column counted in characters, as rustc prints them.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let col = self.text[self.line_starts[line]..offset].chars().count() + 1;
        (line + 1, col)
    }

    /// 0-based line and 0-based column counted in UTF-16 code units, as the Language Server
    /// Protocol counts them (`rulec lsp` only; diagnostics count characters, see `line_col`).
    pub fn utf16_position(&self, offset: u32) -> (u32, u32) {
        let offset = floor_char_boundary(&self.text, offset as usize);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[self.line_starts[line]..offset].chars().map(char::len_utf16).sum();
        (line as u32, col as u32)
    }

    /// The byte offset of a 0-based line and UTF-16 column: a column past the end of the line
    /// (or inside a character) is the end of the line (the start of that character), a line
    /// past the end of the file is its end.
    pub fn offset_of_utf16(&self, line: u32, col: u32) -> usize {
        let Some(range) = self.line_range(line as usize) else {
            return self.text.len();
        };
        let text = self.text[range.clone()].strip_suffix('\n').unwrap_or(&self.text[range.clone()]);
        let mut units = 0;
        for (i, c) in text.char_indices() {
            units += c.len_utf16();
            if units > col as usize {
                return range.start + i;
            }
        }
        range.start + text.len()
    }

    /// The bytes of a 0-based line, with its newline.
    pub fn line_range(&self, line_index: usize) -> Option<std::ops::Range<usize>> {
        let start = *self.line_starts.get(line_index)?;
        let end = self.line_starts.get(line_index + 1).copied().unwrap_or(self.text.len());
        Some(start..end)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).map(|e| e - 1).unwrap_or(self.text.len());
        &self.text[start..end]
    }

    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    /// Length of a span in characters (what `spans[].length` reports).
    pub fn char_len(&self, span: Span) -> usize {
        self.slice(span).chars().count()
    }

    /// `sha256:` and the first 16 hex digits, as headers and the CLI show a digest.
    pub fn short_digest(&self) -> String {
        format!("sha256:{}", &self.sha256[..16])
    }
}

/// The largest char boundary of `text` at or below `offset`.
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file read during a run, by `FileId`: diagnostics point into them.
#[derive(Default)]
pub struct Sources {
    files: Vec<SourceFile>,
    /// Where relative paths are read from (the current folder when `None`); they are still
    /// shown as given, so a diagnostic names `rules/parcel_rate.rule`, not a long absolute path.
    base: Option<PathBuf>,
    /// The project root every `use` must stay inside (`--root`); found from each rule's
    /// folder when `None` (see `project_root`).
    root: Option<PathBuf>,
    /// Texts read in place of the files on disk, by absolute path: the unsaved buffers of an
    /// editor (`rulec lsp`).
    unsaved: std::collections::HashMap<PathBuf, String>,
}

/// What marks a project's root folder.
pub const ROOT_MARKERS: &[&str] = &["rulec.lock", "Cargo.toml", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".git"];

/// The project root of a file in `dir`: the nearest folder at or above it that holds one of
/// `ROOT_MARKERS`, or `dir` itself when none does. Absolute, with no `.` or `..`.
pub fn project_root(dir: &Path) -> PathBuf {
    let dir = lexical_absolute(dir);
    dir.ancestors().find(|d| ROOT_MARKERS.iter().any(|m| d.join(m).exists())).unwrap_or(&dir).to_path_buf()
}

/// `path` made absolute against the current folder, `.` and `..` resolved by their names
/// (not by following links).
pub fn lexical_absolute(path: &Path) -> PathBuf {
    use std::path::Component;
    let path = if path.as_os_str().is_empty() { Path::new(".") } else { path };
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }
    /// Sources whose relative paths are read from below `base` (as `include_rule!` reads them
    /// from below `CARGO_MANIFEST_DIR`), and shown as given.
    pub fn in_dir(base: impl Into<PathBuf>) -> Sources {
        Sources { base: Some(base.into()), ..Sources::default() }
    }
    /// Hold every `use` inside `root`, whatever the markers say.
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Sources {
        self.root = Some(lexical_absolute(&root.into()));
        self
    }
    /// Read `text` wherever the file at `path` (absolute) is read.
    pub fn with_unsaved(mut self, path: &Path, text: &str) -> Sources {
        self.unsaved.insert(lexical_absolute(path), text.to_string());
        self
    }
    /// The root the `use`s of a file in `dir` (as named) must stay inside.
    pub fn root_for(&self, dir: &Path) -> PathBuf {
        match &self.root {
            Some(r) => r.clone(),
            None => project_root(&self.resolve(dir)),
        }
    }
    /// Where a path as named is on disk: below the base folder when it is relative.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        match &self.base {
            Some(b) if path.is_relative() => b.join(path),
            _ => path.to_path_buf(),
        }
    }
    /// Read a file, shown as named.
    pub fn read(&self, path: &Path) -> Result<SourceFile, String> {
        if let Some(text) = self.unsaved.get(&lexical_absolute(&self.resolve(path))) {
            return SourceFile::new(path, text.as_bytes());
        }
        SourceFile::read_at(&self.resolve(path), path)
    }
    pub fn add(&mut self, f: SourceFile) -> FileId {
        self.files.push(f);
        FileId(self.files.len() as u32 - 1)
    }
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::SourceFile;

    #[test]
    fn utf16_positions_count_code_units_not_characters_or_bytes() {
        // 送 and 料 are one UTF-16 unit each (three bytes), 🚚 is two (four bytes).
        let f = SourceFile::from_text("x.rule", "rule a v1\nabout \"🚚 送料\" # x\nb");
        let about = f.text.find("about").unwrap();
        let hash = f.text.find('#').unwrap();
        assert_eq!(f.utf16_position(about as u32), (1, 0));
        assert_eq!(f.utf16_position(hash as u32), (1, 14));
        assert_eq!(f.line_col(hash as u32), (2, 14));
        assert_eq!(f.offset_of_utf16(1, 14), hash);
        assert_eq!(f.utf16_position(f.text.len() as u32), (2, 1));
        // Inside the emoji's surrogate pair: the emoji's first byte. Past the line: its end.
        let truck = f.text.find('🚚').unwrap();
        assert_eq!(f.offset_of_utf16(1, 8), truck);
        assert_eq!(f.offset_of_utf16(1, 99), f.text.find("\nb").unwrap());
        assert_eq!(f.offset_of_utf16(9, 0), f.text.len());
    }
}
