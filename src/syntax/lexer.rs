//! The lexer works one line at a time: the language is line-oriented (a declaration per
//! line, a table row per line), so a bad line never derails the lines after it.

use crate::diag::{Diagnostic, FileId};
use crate::source::Span;
use num_bigint::BigInt;
use num_rational::BigRational;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// A number, with the unit written right after it (`%` counts as a unit).
    Number {
        value: BigRational,
        unit: Option<(String, Span)>,
    },
    Date {
        year: i32,
        month: u32,
        day: u32,
    },
    Str(String),
    Pipe,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    DotDot,
    Dot,
    Arrow,
    Question,
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Number { .. } => "a number".into(),
            Tok::Date { .. } => "a date".into(),
            Tok::Str(_) => "a string".into(),
            other => format!("`{}`", punct_text(other)),
        }
    }
}

pub fn punct_text(t: &Tok) -> &'static str {
    match t {
        Tok::Pipe => "|",
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::Comma => ",",
        Tok::Colon => ":",
        Tok::Eq => "=",
        Tok::Ne => "!=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Slash => "/",
        Tok::DotDot => "..",
        Tok::Dot => ".",
        Tok::Arrow => "->",
        Tok::Question => "?",
        _ => "",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The tokens of one line, and the comment that ends it, if any.
pub struct LexedLine {
    pub tokens: Vec<Token>,
    pub comment: Option<(String, Span)>,
}

pub const KEYWORDS: &[&str] = &[
    "rule",
    "enums",
    "use",
    "about",
    "input",
    "output",
    "value",
    "define",
    "table",
    "enum",
    "group",
    "constraint",
    "expect",
    "round",
    "and",
    "or",
    "not",
    "none",
    "true",
    "false",
    "unique",
    "first",
    "any",
    "min",
    "max",
    "mod",
    "isqrt",
    "if",
    "then",
    "else",
    "in",
];

/// The most digits a number literal may have (whole and fractional part together).
pub const MAX_LITERAL_DIGITS: usize = 100;

pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Lex `line`, which starts at byte `base` of the file. At most
/// `diag::MAX_PER_LINE` diagnostics are kept; the last one kept counts the others.
pub fn lex_line(line: &str, base: usize, file: FileId, diags: &mut Vec<Diagnostic>) -> LexedLine {
    let mut lx = Lexer { src: line, pos: 0, base, file, diags, reported: 0, dropped: 0, tokens: Vec::new(), depth: 0 };
    let comment = lx.run();
    if lx.dropped > 0 {
        if let Some(last) = lx.diags.last_mut() {
            crate::diag::more_on_this_line(last, lx.dropped);
        }
    }
    LexedLine { tokens: lx.tokens, comment }
}

struct Lexer<'a, 'd> {
    src: &'a str,
    pos: usize,
    base: usize,
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    /// Diagnostics of this line kept, and past `MAX_PER_LINE`, only counted.
    reported: usize,
    dropped: usize,
    tokens: Vec<Token>,
    /// Open `(` and `{`: inside them a comma always separates list items.
    depth: usize,
}

impl Lexer<'_, '_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }
    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }
    fn span(&self, start: usize) -> Span {
        Span::new(self.base + start, self.base + self.pos)
    }
    fn report(&mut self, d: Diagnostic) {
        if self.reported < crate::diag::MAX_PER_LINE {
            self.reported += 1;
            self.diags.push(d);
        } else {
            self.dropped += 1;
        }
    }
    fn push(&mut self, tok: Tok, start: usize) {
        let span = self.span(start);
        self.tokens.push(Token { tok, span });
    }

    fn run(&mut self) -> Option<(String, Span)> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            if c == ' ' || c == '\t' {
                self.pos += 1;
            } else if c == '#' {
                let text = self.src[self.pos + 1..].to_string();
                self.pos = self.src.len();
                return Some((text, self.span(start)));
            } else if c.is_ascii_digit() {
                self.number();
            } else if is_ident_start(c) {
                while self.peek().is_some_and(is_ident_continue) {
                    self.pos += self.peek().unwrap().len_utf8();
                }
                let word = self.src[start..self.pos].to_string();
                self.push(Tok::Ident(word), start);
            } else if c == '"' {
                self.string();
            } else {
                self.punct(c);
            }
        }
        None
    }

    fn punct(&mut self, c: char) {
        let start = self.pos;
        let two = |a: char, b: char| c == a && self.peek_at(1) == Some(b);
        let (tok, len) = if two('<', '=') {
            (Tok::Le, 2)
        } else if two('>', '=') {
            (Tok::Ge, 2)
        } else if two('!', '=') {
            (Tok::Ne, 2)
        } else if two('-', '>') {
            (Tok::Arrow, 2)
        } else if two('.', '.') {
            (Tok::DotDot, 2)
        } else {
            let t = match c {
                '|' => Tok::Pipe,
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                '[' => Tok::LBracket,
                ']' => Tok::RBracket,
                '{' => Tok::LBrace,
                '}' => Tok::RBrace,
                ',' => Tok::Comma,
                ':' => Tok::Colon,
                '=' => Tok::Eq,
                '<' => Tok::Lt,
                '>' => Tok::Gt,
                '+' => Tok::Plus,
                '-' => Tok::Minus,
                '*' => Tok::Star,
                '/' => Tok::Slash,
                '.' => Tok::Dot,
                '?' => Tok::Question,
                _ => {
                    self.pos += c.len_utf8();
                    let hint = match c {
                        '%' => "a percent sign belongs right after a number, as in `10%`",
                        '\'' => "strings are written in double quotes",
                        _ => "remove it, or put it inside a string or after `#`",
                    };
                    let d = Diagnostic::new("E001", self.file, self.span(start), format!("unexpected character `{c}`"))
                        .label("not part of the language")
                        .help(hint);
                    self.report(d);
                    return;
                }
            };
            (t, 1)
        };
        match tok {
            Tok::LParen | Tok::LBrace => self.depth += 1,
            Tok::RParen | Tok::RBrace => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.pos += len;
        self.push(tok, start);
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            match self.peek() {
                None => {
                    let d = Diagnostic::new("E003", self.file, self.span(start), "unterminated string")
                        .label("this string has no closing `\"`")
                        .help("close the string on the same line; write `\\\"` for a quote inside it");
                    self.report(d);
                    break;
                }
                Some('"') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => {
                    let esc_start = self.pos;
                    self.pos += 1;
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            value.push(c);
                            self.pos += 1;
                        }
                        other => {
                            if let Some(c) = other {
                                self.pos += c.len_utf8();
                            }
                            let d =
                                Diagnostic::new("E003", self.file, self.span(esc_start), "unknown escape in a string")
                                    .label("only `\\\"` and `\\\\` are escapes")
                                    .help("write `\\\\` for a backslash");
                            self.report(d);
                        }
                    }
                }
                Some(c) => {
                    value.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
        self.push(Tok::Str(value), start);
    }

    fn digits(&mut self) -> &str {
        let s = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        &self.src[s..self.pos]
    }

    fn number(&mut self) {
        let start = self.pos;
        if let Some(date) = self.date() {
            self.push(date, start);
            return;
        }
        let mut int_text = self.digits().to_string();
        // Thousands separators: a comma and exactly three digits, no space between, outside
        // an argument list or a set (where a comma separates items).
        let mut separated = false;
        while self.depth == 0 && self.peek() == Some(',') && self.three_digits_after_comma() {
            self.pos += 1;
            int_text.push_str(self.digits());
            separated = true;
        }
        let mut frac_text = String::new();
        if self.peek() == Some('.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            frac_text = self.digits().to_string();
        }
        let mut unit = None;
        if self.peek() == Some('%') {
            let us = self.pos;
            self.pos += 1;
            unit = Some(("%".to_string(), self.span(us)));
        } else if self.peek().is_some_and(is_ident_start) {
            let us = self.pos;
            while self.peek().is_some_and(is_ident_continue) {
                self.pos += self.peek().unwrap().len_utf8();
            }
            unit = Some((self.src[us..self.pos].to_string(), self.span(us)));
        }
        let digits = int_text.len() + frac_text.len();
        let value = if digits > MAX_LITERAL_DIGITS {
            // Refused before it is converted: reading a number of a million digits takes
            // time quadratic in them, and no such number fits a rule's int64 arithmetic.
            let d = Diagnostic::new(
                "E008",
                self.file,
                self.span(start),
                format!("this number has {digits} digits; the most a number may have is {MAX_LITERAL_DIGITS}"),
            )
            .label("too many digits")
            .note("every value a rule computes with is a whole int64 in its unit: at most 19 digits")
            .help("write the number in a unit that makes it short, or remove digits that were pasted by mistake");
            self.report(d);
            BigRational::from_integer(BigInt::default())
        } else {
            decimal_value(&int_text, &frac_text)
        };
        if separated {
            let mut canonical = int_text.clone();
            if !frac_text.is_empty() {
                canonical = format!("{canonical}.{frac_text}");
            }
            if let Some((u, _)) = &unit {
                canonical.push_str(u);
            }
            let written = &self.src[start..self.pos];
            let d = Diagnostic::new(
                "E049",
                self.file,
                self.span(start),
                format!("`{written}` is written with a thousands separator"),
            )
            .label("write this number without separators")
            .note("one spelling per number: a comma always separates list items")
            .help(format!("write `{canonical}`"))
            .fix("rewrite_literal", canonical, Some((self.file, self.span(start))));
            self.report(d);
        }
        self.push(Tok::Number { value, unit }, start);
    }

    fn three_digits_after_comma(&self) -> bool {
        let rest = &self.src.as_bytes()[self.pos + 1..];
        rest.len() >= 3 && rest[..3].iter().all(u8::is_ascii_digit) && !rest.get(3).is_some_and(u8::is_ascii_digit)
    }

    /// `YYYY-MM-DD`, not followed by a digit or a letter.
    fn date(&mut self) -> Option<Tok> {
        let b = &self.src.as_bytes()[self.pos..];
        let shape = b.len() >= 10
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4] == b'-'
            && b[5..7].iter().all(u8::is_ascii_digit)
            && b[7] == b'-'
            && b[8..10].iter().all(u8::is_ascii_digit)
            && !self.src[self.pos + 10..].chars().next().is_some_and(is_ident_continue);
        if !shape {
            return None;
        }
        let text = &self.src[self.pos..self.pos + 10];
        let start = self.pos;
        self.pos += 10;
        let (year, month, day) =
            (text[..4].parse().unwrap(), text[5..7].parse().unwrap(), text[8..10].parse().unwrap());
        if !crate::num::date::is_valid(year, month, day) {
            let d = Diagnostic::new("E010", self.file, self.span(start), format!("`{text}` is not a date"))
                .label("the calendar has no such day")
                .help("write a day that exists, as YYYY-MM-DD");
            self.report(d);
        }
        Some(Tok::Date { year, month, day })
    }
}

fn decimal_value(int_text: &str, frac_text: &str) -> BigRational {
    // A whole number that fits a machine word, the common case, needs no reduction.
    if frac_text.is_empty() {
        if let Ok(n) = int_text.parse::<u64>() {
            return BigRational::from_integer(BigInt::from(n));
        }
    }
    let digits = format!("{int_text}{frac_text}");
    let numer: BigInt = digits.parse().unwrap_or_default();
    let denom = num_traits::pow(BigInt::from(10), frac_text.len());
    BigRational::new(numer, denom)
}
