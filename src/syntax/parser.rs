//! The parser: a declaration per line, a table per block of `|` lines. Errors are
//! collected and the parser moves on to the next line (or the next cell), so one pass
//! reports every syntax error of a file.

// A line that does not parse returns its diagnostic by value: the cold path, once per bad
// line, where boxing would only add noise to every signature.
#![allow(clippy::result_large_err)]

use super::ast::*;
use super::lexer::{is_keyword, lex_line, Tok, Token};
use crate::diag::{Diagnostic, FileId};
use crate::source::Span;

pub struct Parsed {
    pub file: Option<File>,
    pub diags: Vec<Diagnostic>,
}

/// Parse a whole file. `file` is `None` only when not even a header could be read.
pub fn parse(text: &str, file: FileId) -> Parsed {
    let mut p = FileParser { text, file, diags: Vec::new(), dropped: 0, lines: split_lines(text), at: 0 };
    let f = p.file();
    if p.dropped > 0 {
        if let Some(last) = p.diags.last_mut() {
            crate::diag::more_in_this_file(last, p.dropped);
        }
    }
    Parsed { file: f, diags: p.diags }
}

/// The largest version a rule may have (`rulec.lock` holds it as a signed 64-bit integer).
pub const MAX_VERSION: u64 = i64::MAX as u64;

/// A word as a message quotes it: a very long one is cut.
fn shown(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &word[..i]),
        None => word.to_string(),
    }
}

struct Line<'a> {
    text: &'a str,
    start: usize,
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in text.split('\n') {
        out.push(Line { text: piece, start });
        start += piece.len() + 1;
    }
    out
}

/// A line's content with its comment split off.
struct LineTokens {
    tokens: Vec<Token>,
    comment: Option<Comment>,
    span: Span,
}

struct FileParser<'a> {
    text: &'a str,
    file: FileId,
    diags: Vec<Diagnostic>,
    /// Diagnostics past `diag::MAX_PER_FILE`, only counted.
    dropped: usize,
    lines: Vec<Line<'a>>,
    at: usize,
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

fn is_comment_line(s: &str) -> bool {
    s.trim_start().starts_with('#')
}

fn is_table_line(s: &str) -> bool {
    s.trim_start().starts_with('|')
}

impl<'a> FileParser<'a> {
    fn push(&mut self, d: Diagnostic) {
        if self.diags.len() < crate::diag::MAX_PER_FILE {
            self.diags.push(d);
        } else {
            self.dropped += 1;
        }
    }

    fn lex(&mut self, idx: usize) -> LineTokens {
        let (text, start) = (self.lines[idx].text, self.lines[idx].start);
        let mut found = Vec::new();
        let lexed = lex_line(text, start, self.file, &mut found);
        for d in found {
            self.push(d);
        }
        let content_end = lexed.tokens.last().map(|t| t.span.end as usize).unwrap_or(start);
        let first = lexed.tokens.first().map(|t| t.span.start as usize).unwrap_or(start);
        let comment = lexed.comment.map(|(text, span)| Comment { text, span, blank_before: false });
        LineTokens { tokens: lexed.tokens, comment, span: Span::new(first, content_end) }
    }

    fn comment_at(&self, idx: usize, blank_before: bool) -> Comment {
        let line = &self.lines[idx];
        let hash = line.text.find('#').unwrap();
        Comment {
            text: line.text[hash + 1..].to_string(),
            span: Span::new(line.start + hash, line.start + line.text.len()),
            blank_before,
        }
    }

    /// Comment lines (and blank lines) from here; stops at the first other line.
    fn take_comments(&mut self) -> Vec<Comment> {
        let mut out = Vec::new();
        let mut blank = false;
        while self.at < self.lines.len() {
            let t = self.lines[self.at].text;
            if is_blank(t) {
                blank = true;
            } else if is_comment_line(t) {
                let c = self.comment_at(self.at, blank);
                out.push(c);
                blank = false;
            } else {
                break;
            }
            self.at += 1;
        }
        out
    }

    fn file(&mut self) -> Option<File> {
        let leading = self.take_comments();
        if self.at >= self.lines.len() {
            let end = self.text.len();
            self.push(
                Diagnostic::new("E005", self.file, Span::new(end, end), "the file has no header")
                    .label("expected `rule NAME vN` or `enums NAME`")
                    .help("start the file with a line like `rule parcel_rate v1`"),
            );
            return None;
        }
        let idx = self.at;
        self.at += 1;
        let lt = self.lex(idx);
        let header = self.header(lt, leading)?;
        let mut items: Vec<Item> = Vec::new();
        loop {
            let leading = self.take_comments();
            if self.at >= self.lines.len() {
                return Some(File { header, items, trailing_comments: leading });
            }
            let idx = self.at;
            let directly_after = idx > 0 && !is_blank(self.lines[idx - 1].text) && leading.is_empty();
            self.at += 1;
            if is_table_line(self.lines[idx].text) {
                let lt = self.lex(idx);
                self.push(
                    Diagnostic::new("E004", self.file, lt.span, "a table row outside a table")
                        .label("no `table` line above this row")
                        .help("start the table with `table NAME -> RESULT` on the line above its header"),
                );
                continue;
            }
            let lt = self.lex(idx);
            let Some(item) = self.item(lt, leading) else {
                continue;
            };
            // `about` right after a declaration documents it.
            if let ItemKind::About(about) = &item.kind {
                if directly_after {
                    if let Some(prev) = items.last_mut() {
                        if prev.about.is_none() && !matches!(prev.kind, ItemKind::About(_)) {
                            // The comment at the end of the `about` line stays with it.
                            prev.about = Some(About { trailing: item.trailing.clone(), ..about.clone() });
                            continue;
                        }
                    }
                }
            }
            items.push(item);
        }
    }

    fn header(&mut self, lt: LineTokens, leading: Vec<Comment>) -> Option<Header> {
        let mut c = Cursor::new(&lt.tokens, lt.span);
        let kind_word = c.ident_any();
        let res = (|| -> Result<Header, Diagnostic> {
            let (word, wspan) = kind_word.ok_or_else(|| {
                Diagnostic::new("E005", self.file, lt.span, "the file must start with its header")
                    .label("expected `rule NAME vN` or `enums NAME`")
                    .help("start the file with a line like `rule parcel_rate v1`")
            })?;
            match word.as_str() {
                "rule" => {
                    let name = self.decl_name(&mut c)?;
                    let (v, vspan) = c.ident_any().ok_or_else(|| c.expected(self.file, "the version, as `v1`"))?;
                    let digits = v
                        .strip_prefix('v')
                        .filter(|n| !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit()));
                    let Some(digits) = digits else {
                        return Err(Diagnostic::new(
                            "E005",
                            self.file,
                            vspan,
                            format!("`{}` is not a version", shown(&v)),
                        )
                        .label("expected `v` and a positive whole number")
                        .help("write the rule's version as `v1`, `v2`, …"));
                    };
                    // rulec.lock records the version as a TOML integer: a signed 64-bit one.
                    let version = digits.parse::<u64>().ok().filter(|n| *n <= MAX_VERSION).ok_or_else(|| {
                        Diagnostic::new("E005", self.file, vspan, format!("`{}` is too large a version", shown(&v)))
                            .label(format!("the largest version is v{MAX_VERSION}"))
                            .help("number the rule's versions `v1`, `v2`, …")
                    })?;
                    c.end(self.file)?;
                    Ok(Header {
                        kind: HeaderKind::Rule { version },
                        name,
                        span: lt.span,
                        leading,
                        trailing: lt.comment.clone(),
                    })
                }
                "enums" => {
                    let name = self.decl_name(&mut c)?;
                    c.end(self.file)?;
                    Ok(Header { kind: HeaderKind::Enums, name, span: lt.span, leading, trailing: lt.comment.clone() })
                }
                _ => Err(Diagnostic::new("E005", self.file, wspan, "the file must start with its header")
                    .label("expected `rule` or `enums`")
                    .help("start the file with a line like `rule parcel_rate v1`")),
            }
        })();
        match res {
            Ok(h) => Some(h),
            Err(d) => {
                self.push(d);
                None
            }
        }
    }

    fn decl_name(&self, c: &mut Cursor) -> Result<DeclName, Diagnostic> {
        let name = c.name(self.file)?;
        let alias = if c.eat(&Tok::LParen) {
            let a = c.name(self.file)?;
            c.expect(self.file, &Tok::RParen)?;
            Some(a)
        } else {
            None
        };
        Ok(DeclName { name, alias })
    }

    fn item(&mut self, lt: LineTokens, leading: Vec<Comment>) -> Option<Item> {
        let mut c = Cursor::new(&lt.tokens, lt.span);
        let kind = match c.peek_ident() {
            Some("table") => {
                c.bump();
                let res = self.table(&mut c);
                match res {
                    Ok(t) => Some(ItemKind::Table(t)),
                    Err(d) => {
                        self.push(d);
                        self.skip_table_lines();
                        None
                    }
                }
            }
            _ => match self.declaration(&mut c) {
                Ok(k) => Some(k),
                Err(d) => {
                    self.push(d);
                    None
                }
            },
        }?;
        let span = match &kind {
            ItemKind::Table(t) => lt.span.to(t.rows.last().map(|r| r.span).unwrap_or(t.separator_span)),
            _ => lt.span,
        };
        Some(Item { kind, span, leading, trailing: lt.comment, about: None })
    }

    fn skip_table_lines(&mut self) {
        while self.at < self.lines.len() && is_table_line(self.lines[self.at].text) {
            self.at += 1;
        }
    }

    fn declaration(&mut self, c: &mut Cursor) -> Result<ItemKind, Diagnostic> {
        let file = self.file;
        let (word, wspan) = match c.peek() {
            Some(Token { tok: Tok::Ident(w), span }) => (w.clone(), *span),
            _ => {
                return Err(c.expected(file, "a declaration (`input`, `output`, `table`, …)"));
            }
        };
        c.bump();
        let kind = match word.as_str() {
            "about" => ItemKind::About(About { text: c.string(file)?, span: c.whole, trailing: None }),
            "use" => ItemKind::Use(c.string(file)?),
            "enum" => ItemKind::Enum(self.enum_decl(c)?),
            "group" => {
                let name = c.name(file)?;
                c.expect(file, &Tok::Eq)?;
                let mut values = vec![c.name(file)?];
                while c.eat(&Tok::Comma) {
                    values.push(c.name(file)?);
                }
                ItemKind::Group(GroupDecl { name, values })
            }
            "input" | "output" | "value" => {
                let name = self.decl_name(c)?;
                c.expect(file, &Tok::Colon)?;
                let ty = type_expr(c, file)?;
                let range = opt_range(c, file)?;
                let rounding = if c.peek_ident() == Some("round") {
                    let start = c.bump().unwrap().span;
                    let mode = c.name(file)?;
                    c.expect(file, &Tok::LParen)?;
                    let grid = literal(c, file)?;
                    let close = c.expect(file, &Tok::RParen)?;
                    Some(Rounding { mode, grid, span: start.to(close) })
                } else {
                    None
                };
                let default = if c.peek_ident() == Some("default") {
                    c.bump();
                    Some(literal(c, file)?)
                } else {
                    None
                };
                let decl = VarDecl { name, ty, range, rounding, default };
                match word.as_str() {
                    "input" => ItemKind::Input(decl),
                    "output" => ItemKind::Output(decl),
                    _ => ItemKind::Value(decl),
                }
            }
            "define" => {
                let name = self.decl_name(c)?;
                let (ty, range) = if c.eat(&Tok::Colon) {
                    let ty = type_expr(c, file)?;
                    (Some(ty), opt_range(c, file)?)
                } else {
                    (None, None)
                };
                c.expect(file, &Tok::Eq)?;
                let expr = match summary_start(c) {
                    true => summary(c, file)?,
                    false => expr(c, file)?,
                };
                ItemKind::Define(DefineDecl { name, ty, range, expr })
            }
            "elements" => ItemKind::Elements(self.elements_decl(c)?),
            "fold" => ItemKind::Fold(fold_decl(c, file)?),
            "constraint" => ItemKind::Constraint(expr(c, file)?),
            "expect" => ItemKind::Expect(expect(c, file)?),
            "rule" | "enums" => {
                return Err(Diagnostic::new("E005", file, wspan, "a second header")
                    .label("the header was already given")
                    .help("a file holds one rule (or one set of enums)"));
            }
            _ => {
                return Err(Diagnostic::new("E002", file, wspan, format!("expected a declaration, found `{word}`"))
                    .label("not a declaration")
                    .help("a line starts with `input`, `output`, `value`, `define`, `elements`, `fold`, `constraint`, `enum`, `group`, `table`, `expect`, `use` or `about`"));
            }
        };
        c.end(file)?;
        Ok(kind)
    }

    /// `elements NAME up to N: FIELD: TYPE RANGE, …`.
    fn elements_decl(&self, c: &mut Cursor) -> Result<ElementsDecl, Diagnostic> {
        let file = self.file;
        let name = self.decl_name(c)?;
        c.keyword(file, "up")?;
        c.keyword(file, "to")?;
        let max = literal(c, file)?;
        c.expect(file, &Tok::Colon)?;
        let mut fields = Vec::new();
        loop {
            let name = self.decl_name(c)?;
            c.expect(file, &Tok::Colon)?;
            let ty = type_expr(c, file)?;
            let range = match c.peek().map(|t| &t.tok) {
                Some(Tok::Comma) | None => None,
                _ => opt_range(c, file)?,
            };
            fields.push(FieldDecl { name, ty, range });
            if !c.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(ElementsDecl { name, max, fields })
    }

    fn enum_decl(&self, c: &mut Cursor) -> Result<EnumDecl, Diagnostic> {
        let file = self.file;
        let name = self.decl_name(c)?;
        c.expect(file, &Tok::Colon)?;
        let mut values = vec![self.enum_value(c)?];
        let mut ordered = None;
        loop {
            let sep = match c.peek().map(|t| &t.tok) {
                Some(Tok::Comma) => false,
                Some(Tok::Lt) => true,
                _ => break,
            };
            let sep_span = c.bump().unwrap().span;
            if *ordered.get_or_insert(sep) != sep {
                return Err(Diagnostic::new("E002", file, sep_span, "an enum mixes `,` and `<`")
                    .label("one enum is either ordered (`<`) or not (`,`)")
                    .help("write every separator as `<` for an ordered enum, or `,` for an unordered one"));
            }
            values.push(self.enum_value(c)?);
        }
        Ok(EnumDecl { name, ordered: ordered.unwrap_or(false), values })
    }

    fn enum_value(&self, c: &mut Cursor) -> Result<EnumValue, Diagnostic> {
        let name = self.decl_name(c)?;
        let display = match c.peek().map(|t| &t.tok) {
            Some(Tok::Str(_)) => Some(c.string(self.file)?),
            _ => None,
        };
        Ok(EnumValue { name, display })
    }

    fn table(&mut self, c: &mut Cursor) -> Result<Table, Diagnostic> {
        let file = self.file;
        let name = c.name(file)?;
        let policy = match c.peek_ident() {
            Some(w @ ("unique" | "first" | "any" | "priority" | "rule_order" | "output_order")) => {
                let p = match w {
                    "unique" => Policy::Unique,
                    "first" => Policy::First,
                    "priority" => Policy::Priority,
                    "rule_order" => Policy::RuleOrder,
                    "output_order" => Policy::OutputOrder,
                    _ => Policy::Any,
                };
                Some((p, c.bump().unwrap().span))
            }
            Some("collect") => {
                let start = c.bump().unwrap().span;
                let aggregation = match c.peek_ident() {
                    Some("sum") => Some(Policy::CollectSum),
                    Some("min") => Some(Policy::CollectMin),
                    Some("max") => Some(Policy::CollectMax),
                    Some("count") => Some(Policy::CollectCount),
                    _ => None,
                };
                match aggregation {
                    Some(p) => Some((p, start.to(c.bump().unwrap().span))),
                    None => Some((Policy::Collect, start)),
                }
            }
            _ => None,
        };
        c.expect(file, &Tok::Arrow)?;
        let mut results = vec![c.name(file)?];
        while c.eat(&Tok::Comma) {
            results.push(c.name(file)?);
        }
        c.end(file)?;
        let table_line_span = c.whole;

        // The header row.
        let leading = self.take_comments();
        if self.at >= self.lines.len() || !is_table_line(self.lines[self.at].text) {
            let mut d =
                Diagnostic::new("E004", file, table_line_span, format!("table `{}` has no header row", name.name))
                    .label("expected a `| column | … |` line below")
                    .help("write the header row, then the `|---|` line, then one row per line");
            if !leading.is_empty() {
                d = d.note("comment lines may stand between a `table` line and its header row, but the header row must follow them");
            }
            return Err(d);
        }
        let hidx = self.at;
        self.at += 1;
        let hline = self.lex(hidx);
        let header_cells = split_cells(&hline.tokens, hline.span, file)?;
        let mut columns = Vec::new();
        for cell in &header_cells {
            let mut cc = Cursor::new(cell.tokens, cell.span);
            let col = cc.name(file)?;
            cc.end(file)?;
            columns.push(col);
        }
        // The separator.
        let sep_ok = self.at < self.lines.len() && is_separator(separator_content(self.lines[self.at].text));
        if !sep_ok {
            let span = if self.at < self.lines.len() {
                let l = &self.lines[self.at];
                Span::new(l.start, l.start + l.text.len())
            } else {
                hline.span
            };
            return Err(Diagnostic::new("E004", file, span, format!("table `{}` has no `|---|` line", name.name))
                .label("expected the separator line under the header")
                .help("write `|---|---|` with one `---` per column under the header row"));
        }
        let sline = &self.lines[self.at];
        // A comment may end the separator line too (language.md §1).
        let content = separator_content(sline.text);
        let separator_comment = (content.len() < sline.text.len()).then(|| self.comment_at(self.at, false));
        let separator_span = Span::new(
            sline.start + (content.len() - content.trim_start().len()),
            sline.start + content.trim_end().len(),
        );
        let sep_cols = content.trim().trim_matches('|').split('|').count();
        self.at += 1;
        if sep_cols != columns.len() {
            self.push(
                Diagnostic::new(
                    "E004",
                    self.file,
                    separator_span,
                    format!("the `|---|` line has {sep_cols} columns, the header {}", columns.len()),
                )
                .label("one `---` per column")
                .help("write as many `---` cells as the header has columns"),
            );
        }

        let result_start = columns.len().saturating_sub(results.len());
        let mut rows = Vec::new();
        loop {
            // Comment lines may stand between rows; a blank line or any other line ends the table.
            let save = self.at;
            let mut leading = Vec::new();
            while self.at < self.lines.len() && is_comment_line(self.lines[self.at].text) {
                leading.push(self.comment_at(self.at, false));
                self.at += 1;
            }
            if self.at >= self.lines.len() || !is_table_line(self.lines[self.at].text) {
                // Comments not followed by a row belong to what comes next.
                self.at = save;
                break;
            }
            let ridx = self.at;
            self.at += 1;
            let rline = self.lex(ridx);
            let whole = &self.lines[ridx];
            let line = Span::new(whole.start, whole.start + whole.text.len());
            let cells = match split_cells(&rline.tokens, rline.span, file) {
                Ok(c) => c,
                Err(d) => {
                    self.push(d);
                    continue;
                }
            };
            if cells.len() != columns.len() {
                self.push(
                    Diagnostic::new(
                        "E004",
                        self.file,
                        rline.span,
                        format!("this row has {} cells, the header {}", cells.len(), columns.len()),
                    )
                    .label("one cell per column")
                    .help("write `-` in a condition cell that takes any value"),
                );
                continue;
            }
            let mut out = Vec::with_capacity(cells.len());
            let mut ok = true;
            for (i, cell) in cells.iter().enumerate() {
                let parsed = if cell.tokens.is_empty() {
                    Err(Diagnostic::new("E004", file, cell.span, "an empty cell")
                        .label("write something here")
                        .help("write `-` for any value, or the value the row gives"))
                } else if i >= result_start {
                    result_cell(cell.tokens, cell.span, file).map(|e| Cell::Result(Box::new(e)))
                } else {
                    condition_cell(cell.tokens, cell.span, file).map(Cell::Cond)
                };
                match parsed {
                    Ok(kind) => out.push(CellSyntax { kind, span: cell.span }),
                    Err(d) => {
                        self.push(d);
                        ok = false;
                    }
                }
            }
            if ok {
                rows.push(Row { cells: out, span: rline.span, line, leading, trailing: rline.comment });
            }
        }
        Ok(Table {
            name,
            policy,
            results,
            columns,
            header_leading: leading,
            header_span: hline.span,
            header_comment: hline.comment,
            separator_span,
            separator_comment,
            rows,
        })
    }
}

/// A separator line without the comment that may end it (the line holds no strings).
fn separator_content(line: &str) -> &str {
    line.split('#').next().unwrap_or(line)
}

fn is_separator(line: &str) -> bool {
    let t = line.trim();
    if !(t.starts_with('|') && t.ends_with('|') && t.len() >= 3) {
        return false;
    }
    t[1..t.len() - 1].split('|').all(|cell| {
        let c = cell.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        !c.is_empty() && c.bytes().all(|b| b == b'-')
    })
}

struct CellTokens<'t> {
    tokens: &'t [Token],
    span: Span,
}

/// Split a `| a | b |` line into its cells.
fn split_cells(tokens: &[Token], line: Span, file: FileId) -> Result<Vec<CellTokens<'_>>, Diagnostic> {
    if tokens.first().map(|t| &t.tok) != Some(&Tok::Pipe)
        || tokens.last().map(|t| &t.tok) != Some(&Tok::Pipe)
        || tokens.len() < 2
    {
        return Err(Diagnostic::new("E004", file, line, "a table line must start and end with `|`")
            .label("expected `| … |`")
            .help("close the row with `|`"));
    }
    let mut cells = Vec::new();
    let mut start = 1;
    for i in 1..tokens.len() {
        if tokens[i].tok == Tok::Pipe {
            let slice = &tokens[start..i];
            let span = match (slice.first(), slice.last()) {
                (Some(a), Some(b)) => a.span.to(b.span),
                _ => Span::new(tokens[i - 1].span.end as usize, tokens[i].span.start as usize),
            };
            cells.push(CellTokens { tokens: slice, span });
            start = i + 1;
        }
    }
    Ok(cells)
}

fn condition_cell(tokens: &[Token], span: Span, file: FileId) -> Result<Condition, Diagnostic> {
    if tokens.len() == 1 && tokens[0].tok == Tok::Minus {
        return Ok(Condition::Any);
    }
    let mut c = Cursor::new(tokens, span);
    let negated = if c.peek_ident() == Some("not") {
        c.bump();
        c.expect(file, &Tok::Colon)?;
        true
    } else {
        false
    };
    let mut tests = vec![test(&mut c, file)?];
    while c.eat(&Tok::Comma) {
        tests.push(test(&mut c, file)?);
    }
    c.end(file)?;
    tests.shrink_to_fit();
    Ok(Condition::Tests { negated, tests })
}

fn cmp_op(t: &Tok) -> Option<CmpOp> {
    Some(match t {
        Tok::Lt => CmpOp::Lt,
        Tok::Le => CmpOp::Le,
        Tok::Gt => CmpOp::Gt,
        Tok::Ge => CmpOp::Ge,
        Tok::Eq => CmpOp::Eq,
        Tok::Ne => CmpOp::Ne,
        _ => return None,
    })
}

fn test(c: &mut Cursor, file: FileId) -> Result<Test, Diagnostic> {
    let mut bounds = Vec::new();
    while let Some(op) = c.peek().and_then(|t| cmp_op(&t.tok)) {
        let op_span = c.peek().unwrap().span;
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            return Err(Diagnostic::new("E002", file, op_span, format!("`{}` is not a bound in a cell", op.as_str()))
                .label("a cell compares with `<`, `<=`, `>` or `>=`")
                .help("write the value alone for equality, or `not: VALUE` for its opposite"));
        }
        c.bump();
        bounds.push((op, literal(c, file)?));
    }
    if !bounds.is_empty() {
        bounds.shrink_to_fit();
        return Ok(Test::Bounds(bounds));
    }
    Ok(Test::Equals(literal(c, file)?))
}

fn result_cell(tokens: &[Token], span: Span, file: FileId) -> Result<Expr, Diagnostic> {
    let mut c = Cursor::new(tokens, span);
    let e = expr(&mut c, file)?;
    c.end(file)?;
    Ok(e)
}

fn type_expr(c: &mut Cursor, file: FileId) -> Result<TypeExpr, Diagnostic> {
    let head = c.name_or_keyword_type(file)?;
    let start = head.span;
    let kind = if head.name == "list" && c.eat(&Tok::LBracket) {
        let element = type_expr(c, file)?;
        c.expect(file, &Tok::RBracket)?;
        TypeKind::List(Box::new(element))
    } else if c.eat(&Tok::LBracket) {
        let mut args = vec![type_arg(c, file)?];
        while c.eat(&Tok::Comma) {
            args.push(type_arg(c, file)?);
        }
        c.expect(file, &Tok::RBracket)?;
        TypeKind::Param { head, args }
    } else {
        TypeKind::Named(head)
    };
    let optional = c.eat(&Tok::Question);
    Ok(TypeExpr { kind, optional, span: start.to(c.prev_end()) })
}

fn type_arg(c: &mut Cursor, file: FileId) -> Result<TypeArg, Diagnostic> {
    match c.peek().map(|t| &t.tok) {
        Some(Tok::Number { .. }) => Ok(TypeArg::Literal(literal(c, file)?)),
        // Units such as `in` and `min` are keywords elsewhere; here any word is a unit's name.
        _ => match c.ident_any() {
            Some((name, span)) => Ok(TypeArg::Name(Ident { name, span })),
            None => Err(c.expected(file, "a unit or a tag")),
        },
    }
}

fn opt_range(c: &mut Cursor, file: FileId) -> Result<Option<RangeExpr>, Diagnostic> {
    let starts_literal = match c.peek() {
        // `round` and `default` follow a range; an enum value of either name may start one.
        Some(Token { tok: Tok::Ident(w), .. }) if w == "round" || w == "default" => {
            matches!(c.peek_at(1), Some(Token { tok: Tok::DotDot, .. }))
        }
        Some(Token { tok: Tok::Ident(_), .. }) => true,
        Some(Token { tok: Tok::Eq, .. }) | None => false,
        Some(_) => true,
    };
    if !starts_literal {
        return Ok(None);
    }
    let lo = literal(c, file)?;
    c.expect(file, &Tok::DotDot)?;
    let hi = literal(c, file)?;
    let span = lo.span.to(hi.span);
    Ok(Some(RangeExpr { lo, hi, span }))
}

/// A literal: a number (possibly negative) with its unit, a date, a string, a boolean,
/// `none`, a bare name or `enum.value`.
pub(crate) fn literal(c: &mut Cursor, file: FileId) -> Result<Literal, Diagnostic> {
    let Some(tok) = c.peek().cloned() else {
        return Err(c.expected(file, "a value"));
    };
    let kind = match tok.tok {
        Tok::Minus => {
            c.bump();
            match c.peek().cloned() {
                Some(Token { tok: Tok::Number { value, unit }, span }) if span.start == tok.span.end => {
                    c.bump();
                    let unit = unit.map(|(name, span)| Ident { name, span });
                    return Ok(Literal { kind: LitKind::Number { value: -value, unit }, span: tok.span.to(span) });
                }
                _ => return Err(c.expected(file, "a number right after `-`")),
            }
        }
        Tok::Number { value, unit } => {
            c.bump();
            LitKind::Number { value, unit: unit.map(|(name, span)| Ident { name, span }) }
        }
        Tok::Date { year, month, day } => {
            c.bump();
            LitKind::Date { year, month, day }
        }
        Tok::Str(s) => {
            c.bump();
            LitKind::Str(s)
        }
        Tok::Ident(ref w) => match w.as_str() {
            "true" | "false" => {
                c.bump();
                LitKind::Bool(w == "true")
            }
            "none" => {
                c.bump();
                LitKind::None
            }
            _ => {
                let first = c.name(file)?;
                if c.eat(&Tok::Dot) {
                    let value = c.name(file)?;
                    let span = first.span.to(value.span);
                    return Ok(Literal { kind: LitKind::Qualified { ty: first, value }, span });
                }
                return Ok(Literal { span: first.span, kind: LitKind::Name(first) });
            }
        },
        _ => return Err(c.expected(file, "a value")),
    };
    Ok(Literal { kind, span: tok.span })
}

/// Whether a define's right-hand side is a summary: `sum`, `count`, `max` or `min` followed
/// by a name (`max(a, b)` is the function; a value called `sum` is read as a value).
fn summary_start(c: &Cursor) -> bool {
    let word = c.peek_ident();
    matches!(word, Some("sum" | "count" | "max" | "min"))
        && matches!(c.peek_at(1), Some(Token { tok: Tok::Ident(w), .. }) if !is_keyword(w))
}

/// `sum NAME over SEQ [where COND]`, `count SEQ [where COND]`, `max|min NAME over SEQ
/// [where COND] empty EXPR`.
fn summary(c: &mut Cursor, file: FileId) -> Result<Expr, Diagnostic> {
    let head = c.bump().expect("a summary's word");
    let op = match &head.tok {
        Tok::Ident(w) if w == "sum" => SummaryOp::Sum,
        Tok::Ident(w) if w == "count" => SummaryOp::Count,
        Tok::Ident(w) if w == "max" => SummaryOp::Max,
        _ => SummaryOp::Min,
    };
    let (of, over) = match op {
        SummaryOp::Count => (None, c.name(file)?),
        _ => {
            let of = c.name(file)?;
            c.keyword(file, "over")?;
            (Some(of), c.name(file)?)
        }
    };
    let filter = match c.peek_ident() {
        Some("where") => {
            c.bump();
            Some(expr(c, file)?)
        }
        _ => None,
    };
    let empty = match (op, c.peek_ident()) {
        (SummaryOp::Max | SummaryOp::Min, Some("empty")) => {
            c.bump();
            Some(expr(c, file)?)
        }
        (SummaryOp::Max | SummaryOp::Min, _) => {
            return Err(c
                .expected(file, "`empty` and the answer when no element counts")
                .help(format!("end the line with `empty VALUE`: `{} price over lines empty 0JPY`", op.as_str())))
        }
        _ => None,
    };
    let span = head.span.to(c.prev_end());
    Ok(Expr { kind: ExprKind::Summary(Box::new(Summary { op, of, over, filter, empty })), span })
}

/// `fold KIND VALUE over SEQ by VERDICT: ACTION VALUE, …, empty EXPR [-> NAME]`.
fn fold_decl(c: &mut Cursor, file: FileId) -> Result<FoldDecl, Diagnostic> {
    let (word, kind_span) =
        c.ident_any().ok_or_else(|| c.expected(file, "`take_unique`, `take_first` or `keep_max`"))?;
    let Some(kind) = FoldKind::parse(&word) else {
        return Err(Diagnostic::new("E002", file, kind_span, format!("`{word}` is not a fold"))
            .label("not a fold")
            .help("a fold is `take_unique`, `take_first` or `keep_max`"));
    };
    let value = c.name(file)?;
    c.keyword(file, "over")?;
    let over = c.name(file)?;
    c.keyword(file, "by")?;
    let verdict = c.name(file)?;
    c.expect(file, &Tok::Colon)?;
    let mut clauses = Vec::new();
    loop {
        let action = match c.peek_ident() {
            Some("take") => FoldAction::Take,
            Some("keep") => FoldAction::Keep,
            Some("stop") => FoldAction::Stop,
            Some("empty") => break,
            _ => return Err(c.expected(file, "`take`, `keep` or `stop` and a verdict, or `empty`")),
        };
        c.bump();
        clauses.push((action, c.name(file)?));
        c.expect(file, &Tok::Comma)?;
    }
    c.keyword(file, "empty")?;
    let empty = expr(c, file)?;
    let into = match c.eat(&Tok::Arrow) {
        true => Some(c.name(file)?),
        false => None,
    };
    Ok(FoldDecl { kind, kind_span, value, over, verdict, clauses, empty, into })
}

/// A value an `expect` gives: a literal, `[…]` (a list output's value, or a sequence's
/// elements) or `{FIELD=VALUE, …}` (one element).
fn expect_value(c: &mut Cursor, file: FileId, depth: u32) -> Result<Literal, Diagnostic> {
    let Some(Token { tok, span }) = c.peek().cloned() else {
        return literal(c, file);
    };
    if depth > 2 && matches!(tok, Tok::LBracket | Tok::LBrace) {
        return Err(c.expected(file, "a value"));
    }
    match tok {
        Tok::LBracket => {
            c.bump();
            let mut items = Vec::new();
            if !c.eat(&Tok::RBracket) {
                items.push(expect_value(c, file, depth + 1)?);
                while c.eat(&Tok::Comma) {
                    items.push(expect_value(c, file, depth + 1)?);
                }
                c.expect(file, &Tok::RBracket)?;
            }
            Ok(Literal { kind: LitKind::List(items), span: span.to(c.prev_end()) })
        }
        Tok::LBrace => {
            c.bump();
            let mut fields = Vec::new();
            if !c.eat(&Tok::RBrace) {
                loop {
                    let name = c.name(file)?;
                    c.expect(file, &Tok::Eq)?;
                    fields.push((name, literal(c, file)?));
                    if !c.eat(&Tok::Comma) {
                        break;
                    }
                }
                c.expect(file, &Tok::RBrace)?;
            }
            Ok(Literal { kind: LitKind::Record(fields), span: span.to(c.prev_end()) })
        }
        _ => literal(c, file),
    }
}

fn expect(c: &mut Cursor, file: FileId) -> Result<Expect, Diagnostic> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let assignment = |c: &mut Cursor| -> Result<(Ident, Literal), Diagnostic> {
        let name = c.name(file)?;
        c.expect(file, &Tok::Eq)?;
        Ok((name, expect_value(c, file, 0)?))
    };
    if c.peek().map(|t| &t.tok) != Some(&Tok::Arrow) {
        inputs.push(assignment(c)?);
        while c.eat(&Tok::Comma) {
            inputs.push(assignment(c)?);
        }
    }
    c.expect(file, &Tok::Arrow)?;
    outputs.push(assignment(c)?);
    while c.eat(&Tok::Comma) {
        outputs.push(assignment(c)?);
    }
    Ok(Expect { inputs, outputs })
}

// ---- expressions, by precedence: or < and < not < comparison < + - < * / < unary minus
//
// Every stage after the parser (sema, the analysis, the evaluator, fmt, every backend) walks
// an expression recursively, so the parser refuses one nested deeper than `MAX_NESTING`
// (E007): that bound is what keeps every stage's stack bounded. Each function returns the
// depth of the tree it built with it, so a long chain such as `1 + 1 + …`, which the loops
// below build without recursing, is bounded too, and is refused before it is built past the
// limit (dropping a tree recurses as well).

/// The deepest expression tree rulec reads: parentheses, calls, `if`, `not`, `-` and each
/// operator of a chain (`a + b + c` is two levels) count one level each.
pub const MAX_NESTING: u32 = 128;

/// An expression and the depth of its tree (a name or a literal is 1).
type Deep = (Expr, u32);

pub(crate) fn expr(c: &mut Cursor, file: FileId) -> Result<Expr, Diagnostic> {
    or_expr(c, file).map(|(e, _)| e)
}

/// A subexpression one level further in (inside `(`, a call, `if`, `not`, `-`): refused
/// before recursing once the limit is reached.
fn nested<T>(
    c: &mut Cursor,
    file: FileId,
    at: Span,
    parse: impl FnOnce(&mut Cursor, FileId) -> Result<T, Diagnostic>,
) -> Result<T, Diagnostic> {
    if c.nesting >= MAX_NESTING {
        return Err(too_deep(file, at));
    }
    c.nesting += 1;
    let out = parse(c, file);
    c.nesting -= 1;
    out
}

/// The depth of a node over children of depths `a` and `b`, refused past the limit.
fn join(file: FileId, at: Span, a: u32, b: u32) -> Result<u32, Diagnostic> {
    let d = a.max(b) + 1;
    if d > MAX_NESTING {
        return Err(too_deep(file, at));
    }
    Ok(d)
}

fn too_deep(file: FileId, at: Span) -> Diagnostic {
    Diagnostic::new("E007", file, at, format!("this expression nests more than {MAX_NESTING} levels deep"))
        .label(format!("level {} starts here", MAX_NESTING + 1))
        .note(format!(
            "the limit is {MAX_NESTING} levels: each `(`, call, `if`, `not` and `-`, and each operator of a chain such as `a + b + c`, is one level"
        ))
        .help("name parts of the expression with `define` and use the names")
}

fn or_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let (mut l, mut d) = and_expr(c, file)?;
    while c.peek_ident() == Some("or") {
        let op = c.bump().unwrap().span;
        let (r, rd) = and_expr(c, file)?;
        d = join(file, op, d, rd)?;
        let span = l.span.to(r.span);
        l = Expr { kind: ExprKind::Or(Box::new(l), Box::new(r)), span };
    }
    Ok((l, d))
}

fn and_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let (mut l, mut d) = not_expr(c, file)?;
    while c.peek_ident() == Some("and") {
        let op = c.bump().unwrap().span;
        let (r, rd) = not_expr(c, file)?;
        d = join(file, op, d, rd)?;
        let span = l.span.to(r.span);
        l = Expr { kind: ExprKind::And(Box::new(l), Box::new(r)), span };
    }
    Ok((l, d))
}

fn not_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    if c.peek_ident() == Some("not") {
        let start = c.bump().unwrap().span;
        let (inner, d) = nested(c, file, start, not_expr)?;
        let span = start.to(inner.span);
        return Ok((Expr { kind: ExprKind::Not(Box::new(inner)), span }, join(file, start, d, 0)?));
    }
    cmp_expr(c, file)
}

fn cmp_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let (l, ld) = add_expr(c, file)?;
    if c.peek_ident() == Some("in") {
        c.bump();
        return in_set(c, file, l).map(|e| (e, ld));
    }
    let Some(op) = c.peek().and_then(|t| cmp_op(&t.tok)) else {
        return Ok((l, ld));
    };
    let op_span = c.bump().unwrap().span;
    let (r, rd) = add_expr(c, file)?;
    if let Some(t) = c.peek() {
        if cmp_op(&t.tok).is_some() {
            return Err(Diagnostic::new("E073", file, t.span, "comparisons do not chain")
                .label("a second comparison")
                .help("join two comparisons with `and`: `a <= b and b <= c`"));
        }
    }
    let d = join(file, op_span, ld, rd)?;
    let span = l.span.to(r.span);
    Ok((Expr { kind: ExprKind::Cmp(op, Box::new(l), Box::new(r)), span }, d))
}

/// `NAME in {V1, V2}`, after `in`.
fn in_set(c: &mut Cursor, file: FileId, l: Expr) -> Result<Expr, Diagnostic> {
    let ExprKind::Name(name) = l.kind else {
        return Err(Diagnostic::new("E002", file, l.span, "`in` needs a name on its left")
            .label("expected a value name")
            .help("write `NAME in {V1, V2}`"));
    };
    c.expect(file, &Tok::LBrace)?;
    let mut values = vec![literal(c, file)?];
    while c.eat(&Tok::Comma) {
        values.push(literal(c, file)?);
    }
    let close = c.expect(file, &Tok::RBrace)?;
    let span = l.span.to(close);
    Ok(Expr { kind: ExprKind::In { name, values }, span })
}

fn add_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let (mut l, mut d) = mul_expr(c, file)?;
    loop {
        let op = match c.peek().map(|t| &t.tok) {
            Some(Tok::Plus) => BinOp::Add,
            Some(Tok::Minus) => BinOp::Sub,
            _ => return Ok((l, d)),
        };
        let op_span = c.bump().unwrap().span;
        let (r, rd) = mul_expr(c, file)?;
        d = join(file, op_span, d, rd)?;
        let span = l.span.to(r.span);
        l = Expr { kind: ExprKind::Binary(op, Box::new(l), Box::new(r)), span };
    }
}

fn mul_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let (mut l, mut d) = unary_expr(c, file)?;
    loop {
        let op = match c.peek().map(|t| &t.tok) {
            Some(Tok::Star) => BinOp::Mul,
            Some(Tok::Slash) => BinOp::Div,
            _ => return Ok((l, d)),
        };
        let op_span = c.bump().unwrap().span;
        let (r, rd) = unary_expr(c, file)?;
        d = join(file, op_span, d, rd)?;
        let span = l.span.to(r.span);
        l = Expr { kind: ExprKind::Binary(op, Box::new(l), Box::new(r)), span };
    }
}

fn unary_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    if let Some(t) = c.peek() {
        if t.tok == Tok::Minus {
            let start = t.span;
            // `-5` is a literal; `- x` and `-(…)` negate.
            if let Some(Token { tok: Tok::Number { .. }, span }) = c.peek_at(1) {
                if span.start == start.end {
                    let lit = literal(c, file)?;
                    return Ok((Expr { span: lit.span, kind: ExprKind::Lit(lit) }, 1));
                }
            }
            c.bump();
            let (inner, d) = nested(c, file, start, unary_expr)?;
            let span = start.to(inner.span);
            return Ok((Expr { kind: ExprKind::Neg(Box::new(inner)), span }, join(file, start, d, 0)?));
        }
    }
    primary(c, file)
}

// `primary` only dispatches: each form that nests is a function of its own, so the stack
// a level of nesting takes is that form's frame, not the sum of every form's temporaries.
fn primary(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let Some(tok) = c.peek() else {
        return Err(c.expected(file, "an expression"));
    };
    match &tok.tok {
        Tok::LParen => paren(c, file),
        Tok::Ident(w) => match w.as_str() {
            "min" | "max" | "mod" | "isqrt" => call(c, file),
            "round" => round_call(c, file),
            "if" => if_expr(c, file),
            "true" | "false" | "none" => leaf(c, file),
            w if is_keyword(w) => Err(c.expected(file, "an expression")),
            _ => leaf(c, file),
        },
        Tok::Number { .. } | Tok::Date { .. } | Tok::Str(_) => leaf(c, file),
        _ => Err(c.expected(file, "an expression")),
    }
}

/// A literal, or a bare name.
fn leaf(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let lit = literal(c, file)?;
    let kind = match lit.kind {
        LitKind::Name(id) => ExprKind::Name(id),
        _ => ExprKind::Lit(lit.clone()),
    };
    Ok((Expr { kind, span: lit.span }, 1))
}

#[inline(never)]
fn paren(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let open = c.bump().unwrap().span;
    let (inner, d) = nested(c, file, open, or_expr)?;
    let close = c.expect(file, &Tok::RParen)?;
    Ok((Expr { kind: ExprKind::Paren(Box::new(inner)), span: open.to(close) }, join(file, open, d, 0)?))
}

#[inline(never)]
fn call(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let head = c.bump().unwrap();
    let f = match head.tok {
        Tok::Ident(ref w) if w == "min" => Func::Min,
        Tok::Ident(ref w) if w == "max" => Func::Max,
        Tok::Ident(ref w) if w == "mod" => Func::Mod,
        _ => Func::Isqrt,
    };
    c.expect(file, &Tok::LParen)?;
    let (args, d) = nested(c, file, head.span, |c, file| {
        let (first, mut d) = or_expr(c, file)?;
        let mut args = vec![first];
        while c.eat(&Tok::Comma) {
            let (a, ad) = or_expr(c, file)?;
            d = d.max(ad);
            args.push(a);
        }
        Ok((args, d))
    })?;
    let close = c.expect(file, &Tok::RParen)?;
    Ok((Expr { kind: ExprKind::Call(f, args), span: head.span.to(close) }, join(file, head.span, d, 0)?))
}

#[inline(never)]
fn round_call(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let head = c.bump().unwrap().span;
    c.expect(file, &Tok::LParen)?;
    let (value, d) = nested(c, file, head, or_expr)?;
    c.expect(file, &Tok::Comma)?;
    let mode = c.name(file)?;
    c.expect(file, &Tok::Comma)?;
    let grid = literal(c, file)?;
    let close = c.expect(file, &Tok::RParen)?;
    Ok((
        Expr { kind: ExprKind::Round { value: Box::new(value), mode, grid }, span: head.to(close) },
        join(file, head, d, 0)?,
    ))
}

#[inline(never)]
fn if_expr(c: &mut Cursor, file: FileId) -> Result<Deep, Diagnostic> {
    let head = c.bump().unwrap().span;
    let (cond, then, els, d) = nested(c, file, head, |c, file| {
        let (cond, cd) = or_expr(c, file)?;
        c.keyword(file, "then")?;
        let (then, td) = or_expr(c, file)?;
        c.keyword(file, "else")?;
        let (els, ed) = or_expr(c, file)?;
        Ok((cond, then, els, cd.max(td).max(ed)))
    })?;
    let span = head.to(els.span);
    Ok((
        Expr { kind: ExprKind::If { cond: Box::new(cond), then: Box::new(then), els: Box::new(els) }, span },
        join(file, head, d, 0)?,
    ))
}

/// A position in the tokens of one line (or one cell).
pub(crate) struct Cursor<'t> {
    tokens: &'t [Token],
    pos: usize,
    /// How many subexpressions the parser is inside (`MAX_NESTING` bounds it).
    nesting: u32,
    /// The whole line or cell, for errors at its end.
    pub whole: Span,
}

impl<'t> Cursor<'t> {
    pub fn new(tokens: &'t [Token], whole: Span) -> Cursor<'t> {
        Cursor { tokens, pos: 0, nesting: 0, whole }
    }
    pub fn peek(&self) -> Option<&'t Token> {
        self.tokens.get(self.pos)
    }
    fn peek_at(&self, n: usize) -> Option<&'t Token> {
        self.tokens.get(self.pos + n)
    }
    fn peek_ident(&self) -> Option<&'t str> {
        match self.peek() {
            Some(Token { tok: Tok::Ident(w), .. }) => Some(w.as_str()),
            _ => None,
        }
    }
    fn bump(&mut self) -> Option<&'t Token> {
        let t = self.tokens.get(self.pos);
        self.pos += 1;
        t
    }
    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek().map(|t| &t.tok) == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn prev_end(&self) -> Span {
        let t = &self.tokens[self.pos.saturating_sub(1).min(self.tokens.len().saturating_sub(1))];
        t.span
    }
    /// Where "expected X" points: the next token, or just past the last one.
    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span,
            None => {
                let end = self.tokens.last().map(|t| t.span.end).unwrap_or(self.whole.end) as usize;
                Span::new(end, end)
            }
        }
    }
    fn expected(&self, file: FileId, what: &str) -> Diagnostic {
        let found = match self.peek() {
            Some(t) => t.tok.describe(),
            None => "the end of the line".to_string(),
        };
        Diagnostic::new("E002", file, self.here(), format!("expected {what}, found {found}"))
            .label(format!("expected {what}"))
    }
    fn expect(&mut self, file: FileId, tok: &Tok) -> Result<Span, Diagnostic> {
        match self.peek() {
            Some(t) if &t.tok == tok => {
                self.pos += 1;
                Ok(t.span)
            }
            _ => Err(self.expected(file, &format!("`{}`", super::lexer::punct_text(tok)))),
        }
    }
    fn keyword(&mut self, file: FileId, kw: &str) -> Result<Span, Diagnostic> {
        match self.peek() {
            Some(Token { tok: Tok::Ident(w), span }) if w == kw => {
                self.pos += 1;
                Ok(*span)
            }
            _ => Err(self.expected(file, &format!("`{kw}`"))),
        }
    }
    fn ident_any(&mut self) -> Option<(String, Span)> {
        match self.peek() {
            Some(Token { tok: Tok::Ident(w), span }) => {
                self.pos += 1;
                Some((w.clone(), *span))
            }
            _ => None,
        }
    }
    /// A name that is not a keyword.
    fn name(&mut self, file: FileId) -> Result<Ident, Diagnostic> {
        match self.peek() {
            Some(Token { tok: Tok::Ident(w), span }) if !is_keyword(w) => {
                self.pos += 1;
                Ok(Ident { name: w.clone(), span: *span })
            }
            Some(Token { tok: Tok::Ident(w), span }) => {
                Err(Diagnostic::new("E002", file, *span, format!("`{w}` is a keyword, not a name"))
                    .label("a keyword cannot be a name")
                    .help("choose another name: a keyword cannot be a name"))
            }
            _ => Err(self.expected(file, "a name")),
        }
    }
    /// A type's head: a name, or `bool`-like words (none of which are keywords).
    fn name_or_keyword_type(&mut self, file: FileId) -> Result<Ident, Diagnostic> {
        self.name(file).map_err(|_| self.expected(file, "a type"))
    }
    fn string(&mut self, file: FileId) -> Result<StrLit, Diagnostic> {
        match self.peek() {
            Some(Token { tok: Tok::Str(s), span }) => {
                self.pos += 1;
                Ok(StrLit { value: s.clone(), span: *span })
            }
            _ => Err(self.expected(file, "a string in double quotes")),
        }
    }
    fn end(&self, file: FileId) -> Result<(), Diagnostic> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.expected(file, "the end of the line")),
        }
    }
}
