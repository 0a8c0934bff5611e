//! The names of a checked file and every place each is written: what definition,
//! references, rename, hover and the semantic tokens read. Built from the syntax trees and
//! the lexer's tokens of the rule and the enums files it `use`s.

use crate::source::{FileId, Sources, Span};
use crate::syntax::{self, ast, lexer};
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Input,
    Output,
    Value,
    Define,
    Table,
    Enum,
    EnumValue,
    Group,
    /// `elements NAME up to N: …`: a sequence the rule walks.
    Sequence,
    /// A field of a sequence's element (its parent is the sequence).
    Field,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Input => "input",
            Kind::Output => "output",
            Kind::Value => "value",
            Kind::Define => "define",
            Kind::Table => "table",
            Kind::Enum => "enum",
            Kind::EnumValue => "enum value",
            Kind::Group => "group",
            Kind::Sequence => "sequence",
            Kind::Field => "field",
        }
    }
    /// Where a name is looked for first when two kinds share it.
    fn rank(self) -> u8 {
        match self {
            Kind::Input | Kind::Output | Kind::Value | Kind::Define | Kind::Field => 0,
            Kind::Table | Kind::Sequence => 1,
            Kind::Enum => 2,
            Kind::Group => 3,
            Kind::EnumValue => 4,
        }
    }
}

/// One declared name: where it is declared (its name's span).
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub kind: Kind,
    pub file: FileId,
    pub span: Span,
    /// For an enum value, its enum's name.
    pub parent: Option<String>,
}

/// A token as the semantic tokens classify it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenClass {
    Keyword,
    Name(usize),
    Number,
    Str,
    Comment,
    Operator,
}

#[derive(Default)]
pub struct Index {
    pub symbols: Vec<Symbol>,
    /// Every written name that is a symbol (declarations included): the symbol, the file, the span.
    pub refs: Vec<(usize, FileId, Span)>,
    /// Each `use "…"` of the rule: the string's span and the file it read.
    pub uses: Vec<(Span, FileId)>,
    /// The classified tokens of the rule file, in order.
    pub tokens: Vec<(Span, TokenClass)>,
}

impl Index {
    /// Index the rule `file` and the enums files `uses` it read.
    pub fn build(sources: &Sources, file: FileId, uses: &[FileId]) -> Index {
        let mut index = Index::default();
        let files: Vec<FileId> = std::iter::once(file).chain(uses.iter().copied()).collect();
        for &f in &files {
            let parsed = syntax::parse(&sources.get(f).text, f);
            if let Some(ast) = parsed.file {
                index.declare(&ast, f);
                if f == file {
                    index.note_uses(&ast, sources, file, uses);
                }
            }
        }
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for (i, s) in index.symbols.iter().enumerate() {
            let best = by_name.entry(&s.name).or_insert(i);
            if s.kind.rank() < index.symbols[*best].kind.rank() {
                *best = i;
            }
        }
        // A type is an enum's name: `input tier: tier` names the input, then the enum.
        let enums: HashMap<&str, usize> = index
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == Kind::Enum)
            .map(|(i, s)| (s.name.as_str(), i))
            .collect();
        let mut refs = Vec::new();
        let mut tokens = Vec::new();
        for &f in &files {
            let text = &sources.get(f).text;
            let mut base = 0;
            for line in text.split('\n') {
                let lexed = lexer::lex_line(line, base, f, &mut Vec::new());
                for (k, t) in lexed.tokens.iter().enumerate() {
                    let after_colon = k > 0 && lexed.tokens[k - 1].tok == lexer::Tok::Colon;
                    // A policy's words (`priority`, `collect sum`) are keywords only where a
                    // table's heading names its policy: between the table's name and `->`.
                    let policy = k >= 2
                        && matches!(&lexed.tokens[0].tok, lexer::Tok::Ident(w) if w == "table")
                        && lexed.tokens[k..].iter().take(3).any(|n| n.tok == lexer::Tok::Arrow)
                        && lexed.tokens[2..k].iter().all(|n| matches!(n.tok, lexer::Tok::Ident(_)));
                    let class = match &t.tok {
                        lexer::Tok::Ident(name) if lexer::is_keyword(name) || policy => TokenClass::Keyword,
                        lexer::Tok::Ident(_) if walk_word(&lexed.tokens, k) => TokenClass::Keyword,
                        lexer::Tok::Ident(name) => {
                            match enums.get(name.as_str()).filter(|_| after_colon).or(by_name.get(name.as_str())) {
                                Some(&s) => {
                                    refs.push((s, f, t.span));
                                    TokenClass::Name(s)
                                }
                                None => continue,
                            }
                        }
                        lexer::Tok::Number { .. } | lexer::Tok::Date { .. } => TokenClass::Number,
                        lexer::Tok::Str(_) => TokenClass::Str,
                        lexer::Tok::Pipe | lexer::Tok::Comma | lexer::Tok::Colon => continue,
                        _ => TokenClass::Operator,
                    };
                    if f == file {
                        tokens.push((t.span, class));
                    }
                }
                if let (Some((_, span)), true) = (&lexed.comment, f == file) {
                    tokens.push((*span, TokenClass::Comment));
                }
                base += line.len() + 1;
            }
        }
        tokens.sort_by_key(|t| t.0);
        index.refs = refs;
        index.tokens = tokens;
        index
    }

    fn declare(&mut self, ast: &ast::File, file: FileId) {
        let mut add = |name: &ast::Ident, kind: Kind, parent: Option<&str>| {
            self.symbols.push(Symbol {
                name: name.name.clone(),
                kind,
                file,
                span: name.span,
                parent: parent.map(str::to_string),
            })
        };
        for item in &ast.items {
            match &item.kind {
                ast::ItemKind::Enum(e) => {
                    add(&e.name.name, Kind::Enum, None);
                    for v in &e.values {
                        add(&v.name.name, Kind::EnumValue, Some(&e.name.name.name));
                    }
                }
                ast::ItemKind::Group(g) => add(&g.name, Kind::Group, None),
                ast::ItemKind::Input(d) => add(&d.name.name, Kind::Input, None),
                ast::ItemKind::Output(d) => add(&d.name.name, Kind::Output, None),
                ast::ItemKind::Value(d) => add(&d.name.name, Kind::Value, None),
                ast::ItemKind::Define(d) => add(&d.name.name, Kind::Define, None),
                ast::ItemKind::Table(t) => add(&t.name, Kind::Table, None),
                ast::ItemKind::Elements(e) => {
                    add(&e.name.name, Kind::Sequence, None);
                    for f in &e.fields {
                        add(&f.name.name, Kind::Field, Some(&e.name.name.name));
                    }
                }
                _ => {}
            }
        }
    }

    fn note_uses(&mut self, ast: &ast::File, sources: &Sources, file: FileId, uses: &[FileId]) {
        let dir = sources.get(file).path.parent().unwrap_or(Path::new("")).to_path_buf();
        for item in &ast.items {
            if let ast::ItemKind::Use(written) = &item.kind {
                let named = dir.join(&written.value);
                if let Some(&f) = uses.iter().find(|&&f| sources.get(f).path == named) {
                    self.uses.push((written.span, f));
                }
            }
        }
    }

    /// The symbol written at `offset` of `file`, and the span it is written at.
    pub fn symbol_at(&self, file: FileId, offset: usize) -> Option<(usize, Span)> {
        self.refs
            .iter()
            .find(|(_, f, span)| *f == file && span.start as usize <= offset && offset <= span.end as usize)
            .map(|&(s, _, span)| (s, span))
    }

    /// Every place `symbol` is written, its declaration first.
    pub fn references(&self, symbol: usize) -> Vec<(FileId, Span)> {
        let s = &self.symbols[symbol];
        let mut out = vec![(s.file, s.span)];
        out.extend(
            self.refs.iter().filter(|r| r.0 == symbol && (r.1, r.2) != (s.file, s.span)).map(|&(_, f, span)| (f, span)),
        );
        out
    }
}

/// Whether the word at `k` of a line is one of the words of a walk (reference §6.3), which
/// are keywords only where they say what they say, as a policy's are: `elements NAME up to`;
/// a summary right after a define's `=` (`sum`, `count`, `max`, `min` with no parenthesis
/// after it) and its `over`, `where`, `empty`; a fold's `fold KIND VALUE over SEQ by` and,
/// after its colon, each `take`, `keep`, `stop` and `empty` that opens a clause.
fn walk_word(tokens: &[lexer::Token], k: usize) -> bool {
    let word = |i: usize| match tokens.get(i).map(|t| &t.tok) {
        Some(lexer::Tok::Ident(w)) => w.as_str(),
        _ => "",
    };
    let tok = |i: usize| tokens.get(i).map(|t| &t.tok);
    match word(0) {
        "elements" => k == 0 || (k == 2 && word(2) == "up" && word(3) == "to") || (k == 3 && word(2) == "up"),
        "fold" => {
            let clause_opens = matches!(tok(k.wrapping_sub(1)), Some(lexer::Tok::Colon | lexer::Tok::Comma));
            k == 0
                || (k == 1 && ast::FoldKind::parse(word(1)).is_some())
                || (k == 3 && word(3) == "over")
                || (k == 5 && word(5) == "by")
                || (clause_opens && matches!(word(k), "take" | "keep" | "stop" | "empty"))
        }
        "define" => {
            let Some(eq) = tokens.iter().position(|t| t.tok == lexer::Tok::Eq) else { return false };
            let op = matches!(word(eq + 1), "sum" | "count" | "max" | "min")
                && !matches!(tok(eq + 2), Some(lexer::Tok::LParen) | None);
            op && (k == eq + 1 || (k > eq + 1 && matches!(word(k), "over" | "where" | "empty")))
        }
        _ => false,
    }
}
