//! The JavaScript of a TypeScript file: the same text with its types taken off, token for
//! token what `tsc` would emit (tests/gen_typescript.rs holds the two to each other).
//!
//! It reads the subset of TypeScript the backend and its runtime files keep to, which is
//! erasable syntax and nothing more:
//!
//! - `type` and `export type` declarations, `import type` lines (taken off with the comment
//!   lines right above them);
//! - annotations on parameters (of `function`s, methods and arrow functions), on the return
//!   of a function or method, and on a `let`/`const` binding;
//! - `as T` casts, chained or not, that end at a bracket, `,`, `;`, a logical operator, a
//!   comparison by identity, `?` or `:` (`x === 5n as bigint && …`);
//! - class fields declared without a value (`readonly what: string;`);
//! - a function's own type parameters (`function f<T>(`).
//!
//! What it does not read: regular expression literals, template literals, a parenthesized
//! cast whose parentheses `tsc` would drop, generic arguments at a call, `!`, `satisfies`,
//! `enum`, `namespace`, parameter properties, `import { a as b }`.

/// What one token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Space,
    Comment,
    Str,
    Word,
    Num,
    Punct,
}

#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub kind: Tok,
    pub text: &'a str,
    pub start: usize,
}

impl Token<'_> {
    fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

const PUNCT: &[&str] = &[
    "===", "!==", "...", "**=", "==", "!=", "<=", ">=", "=>", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=",
    "/=", "%=", "**",
];

/// The tokens of a JavaScript or TypeScript text, spaces and comments included.
pub fn tokens(s: &str) -> Vec<Token<'_>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            Tok::Space
        } else if s[i..].starts_with("//") {
            i = s[i..].find('\n').map_or(b.len(), |e| i + e);
            Tok::Comment
        } else if s[i..].starts_with("/*") {
            i = s[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            Tok::Comment
        } else if matches!(c, b'"' | b'\'' | b'`') {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            Tok::Str
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            Tok::Num
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
                i += 1;
            }
            Tok::Word
        } else {
            i += PUNCT.iter().find(|p| s[i..].starts_with(*p)).map_or(1, |p| p.len());
            Tok::Punct
        };
        // Keep every token on a character boundary (a non-ASCII character is one word).
        while !s.is_char_boundary(i) {
            i += 1;
        }
        out.push(Token { kind, text: &s[start..i], start });
    }
    out
}

/// What ends the type of an `as` cast (besides a bracket it did not open).
const CAST_ENDS: &[&str] = &[",", ";", "as", "||", "&&", "??", "?", ":", "===", "!==", "==", "!=", "="];

/// What an open bracket opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// The parameters of a function, a method or an arrow function.
    Params,
    /// A class body.
    Class,
    Other,
}

struct Stripper<'a> {
    src: &'a str,
    /// The significant tokens (no spaces, no comments).
    sig: Vec<Token<'a>>,
    /// For each opening bracket among `sig`, the index of its closer.
    close: Vec<Option<usize>>,
    /// Byte ranges to take off; `true` for a whole statement (its lines go).
    cuts: Vec<(usize, usize, bool)>,
}

/// The JavaScript of `ts`: every type taken off.
pub fn strip_types(ts: &str) -> String {
    let all = tokens(ts);
    let sig: Vec<Token> = all.iter().copied().filter(|t| !matches!(t.kind, Tok::Space | Tok::Comment)).collect();
    let mut close = vec![None; sig.len()];
    let mut stack = Vec::new();
    for (k, t) in sig.iter().enumerate() {
        match (t.kind, t.text) {
            (Tok::Punct, "(" | "[" | "{") => stack.push(k),
            (Tok::Punct, ")" | "]" | "}") => {
                if let Some(o) = stack.pop() {
                    close[o] = Some(k);
                }
            }
            _ => {}
        }
    }
    let mut s = Stripper { src: ts, sig, close, cuts: Vec::new() };
    s.walk();
    s.apply()
}

impl<'a> Stripper<'a> {
    fn is(&self, k: usize, text: &str) -> bool {
        self.sig.get(k).is_some_and(|t| t.text == text && t.kind != Tok::Str)
    }

    fn word(&self, k: usize) -> bool {
        self.sig.get(k).is_some_and(|t| t.kind == Tok::Word)
    }

    /// The last token of a type starting at `k`: the one before the first token, outside
    /// every bracket the type opens, that is one of `ends` or closes a bracket opened before it
    /// (so a return type is never an object type: its `{` would be the body's).
    fn type_end(&self, k: usize, ends: &[&str]) -> usize {
        let mut depth = 0usize;
        let mut j = k;
        while j < self.sig.len() {
            let t = self.sig[j];
            if depth == 0 && t.kind != Tok::Str && ends.contains(&t.text) {
                break;
            }
            if t.kind == Tok::Punct {
                match t.text {
                    "(" | "[" | "{" | "<" => depth += 1,
                    ")" | "]" | "}" | ">" if depth == 0 => break,
                    ")" | "]" | "}" | ">" => depth -= 1,
                    _ => {}
                }
            }
            j += 1;
        }
        j - 1
    }

    /// Take off tokens `from..=to` (and nothing around them).
    fn cut(&mut self, from: usize, to: usize) {
        self.cuts.push((self.sig[from].start, self.sig[to].end(), false));
    }

    /// Take off a statement `from..=to`, with its lines and the comment lines right above it.
    fn cut_statement(&mut self, from: usize, to: usize) {
        self.cuts.push((self.sig[from].start, self.sig[to].end(), true));
    }

    /// Whether `k` starts a statement (or a member of a class body).
    fn statement_start(&self, k: usize) -> bool {
        k == 0 || self.is(k - 1, ";") || self.is(k - 1, "{") || self.is(k - 1, "}")
    }

    fn walk(&mut self) {
        let mut ctx: Vec<(Ctx, usize)> = Vec::new();
        // The next `(` opens parameters (after `function name` or a method's name); the next
        // `{` opens a class body.
        let (mut params_next, mut class_next) = (false, false);
        let mut k = 0;
        while k < self.sig.len() {
            let t = self.sig[k];
            let top = ctx.last().map(|c| c.0);
            if t.kind == Tok::Word && self.statement_start(k) && top != Some(Ctx::Class) {
                let export = t.text == "export" && self.is(k + 1, "type") && self.word(k + 2);
                let ty = t.text == "type" && self.word(k + 1) && (self.is(k + 2, "=") || self.is(k + 2, "<"));
                let import = t.text == "import" && self.is(k + 1, "type");
                if export || ty || import {
                    let end = self.type_end(k + 1, &[";"]);
                    self.cut_statement(k, end + 1);
                    k = end + 2;
                    continue;
                }
            }
            if top == Some(Ctx::Class) && t.kind == Tok::Word && self.statement_start(k) {
                let name = if t.text == "readonly" { k + 1 } else { k };
                if self.is(name + 1, ":") {
                    let end = self.type_end(name + 2, &[";"]);
                    self.cut_statement(k, end + 1);
                    k = end + 2;
                    continue;
                }
                if self.is(name + 1, "(") {
                    params_next = true;
                }
            }
            match (t.kind, t.text) {
                (Tok::Word, "function") => {
                    params_next = true;
                    let mut j = k + 1;
                    if self.word(j) {
                        j += 1;
                    }
                    if self.is(j, "<") {
                        let end = self.type_end(j + 1, &[]);
                        self.cut(j, end + 1);
                        k = end + 2;
                        continue;
                    }
                }
                (Tok::Word, "class") => class_next = true,
                (Tok::Word, "let" | "const" | "var") if self.word(k + 1) && self.is(k + 2, ":") => {
                    let end = self.type_end(k + 3, &["=", ";", ","]);
                    self.cut(k + 2, end);
                    k = end + 1;
                    continue;
                }
                (Tok::Word, "as") if k > 0 && self.ends_expression(k - 1) => {
                    let mut end = self.type_end(k + 1, CAST_ENDS);
                    while self.is(end + 1, "as") {
                        end = self.type_end(end + 2, CAST_ENDS);
                    }
                    // With the space before `as`.
                    self.cuts.push((self.sig[k - 1].end(), self.sig[end].end(), false));
                    k = end + 1;
                    continue;
                }
                (Tok::Punct, ":") if top == Some(Ctx::Params) => {
                    let end = self.type_end(k + 1, &[",", "="]);
                    self.cut(k, end);
                    k = end + 1;
                    continue;
                }
                (Tok::Punct, "(") => {
                    let arrow = self.close[k].is_some_and(|c| self.arrow_after(c));
                    ctx.push((if params_next || arrow { Ctx::Params } else { Ctx::Other }, k));
                    params_next = false;
                }
                (Tok::Punct, "{") => {
                    ctx.push((if class_next { Ctx::Class } else { Ctx::Other }, k));
                    class_next = false;
                }
                (Tok::Punct, "[") => ctx.push((Ctx::Other, k)),
                (Tok::Punct, ")" | "]" | "}") => {
                    if let Some((Ctx::Params, _)) = ctx.pop() {
                        if self.is(k + 1, ":") {
                            let end = self.type_end(k + 2, &["{", "=>"]);
                            self.cut(k + 1, end);
                            k = end + 1;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            k += 1;
        }
    }

    /// Whether the `)` at `c` closes the parameters of an arrow function: `=>` follows, or a
    /// return type and then `=>` (`(x: T): R => …`, where a `: …` of a conditional ends at a
    /// `;` or a `,` without one).
    fn arrow_after(&self, c: usize) -> bool {
        self.is(c + 1, "=>") || (self.is(c + 1, ":") && self.is(self.type_end(c + 2, &["=>", ";", ","]) + 1, "=>"))
    }

    /// Whether the token at `k` can end an expression (so an `as` after it is a cast).
    fn ends_expression(&self, k: usize) -> bool {
        let t = self.sig[k];
        match t.kind {
            Tok::Str | Tok::Num => true,
            Tok::Word => !matches!(t.text, "import" | "export" | "return" | "typeof" | "in" | "of"),
            Tok::Punct => matches!(t.text, ")" | "]" | "}"),
            _ => false,
        }
    }

    fn apply(self) -> String {
        let src = self.src;
        let mut ranges: Vec<(usize, usize, bool)> = Vec::new();
        for &(mut from, mut to, statement) in &self.cuts {
            if statement {
                // The whole lines, and the comment lines right above.
                let line_start = |at: usize| src[..at].rfind('\n').map_or(0, |i| i + 1);
                let mut start = line_start(from);
                if src[start..from].trim().is_empty() {
                    from = start;
                    while start > 0 {
                        let above = line_start(start - 1);
                        let line = src[above..start - 1].trim();
                        if line.starts_with("//") || line.starts_with("/*") || line.starts_with('*') {
                            from = above;
                            start = above;
                        } else {
                            break;
                        }
                    }
                }
                let rest = &src[to..];
                let eol = rest.find('\n').map_or(rest.len(), |i| i + 1);
                if rest[..eol].trim().is_empty() {
                    to += eol;
                }
            }
            ranges.push((from, to, statement));
        }
        ranges.sort();
        let mut out = String::with_capacity(src.len());
        let (mut at, mut after_statement) = (0, false);
        // A statement taken off right after a `{` leaves no blank line below it.
        let keep = |out: &mut String, chunk: &str, after_statement: bool| {
            let blank_after_brace = after_statement && out.ends_with("{\n") && chunk.starts_with('\n');
            out.push_str(if blank_after_brace { &chunk[1..] } else { chunk });
        };
        for (from, to, statement) in ranges.drain(..) {
            if from >= at {
                keep(&mut out, &src[at..from], after_statement);
            }
            at = at.max(to);
            after_statement = statement;
        }
        keep(&mut out, &src[at..], after_statement);
        // A statement taken off between two blank lines leaves one (and none at the top).
        while out.contains("\n\n\n") {
            out = out.replace("\n\n\n", "\n\n");
        }
        if !src.starts_with('\n') {
            out = out.trim_start_matches('\n').to_string();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::strip_types;

    #[test]
    fn the_types_come_off() {
        let ts = r#"/** A unit. */
export type USD = bigint & { readonly __rulec: "USD" };

export const Zone = Object.freeze({ A: "a" } as const);
export type Zone = (typeof Zone)[keyof typeof Zone];

export class E extends Error {
  readonly what: string;
  value: unknown;

  constructor(what: string, value: unknown) {
    super(what);
    this.what = what;
  }

  fail(): never {
    throw this;
  }
}

function _minBy<T>(rank: (v: T) => number, a: T, b: T): T {
  return rank(b) < rank(a) ? b : a;
}

export function f(x: bigint | null, tag: string = ""): [USD, Fired[]] {
  let s: string = "{";
  const o: Record<string, unknown> = { table: x, row: 1 };
  const g = globalThis as unknown as { process: { a: string; b: (x: number) => void } };
  const p = new Proxy(o, { ownKeys: (t: object) => [] });
  const q = (a: number, b: [string, E] | null): [string, E] | null => (a > 0 ? b : null);
  const t = s === "a" as string && x === 5n as bigint ? 1 : 2;
  return [x as USD | null, [{ table: "t", row: 1 } as Fired], s ? "a" : "b"];
}
"#;
        let js = r#"export const Zone = Object.freeze({ A: "a" });

export class E extends Error {
  constructor(what, value) {
    super(what);
    this.what = what;
  }

  fail() {
    throw this;
  }
}

function _minBy(rank, a, b) {
  return rank(b) < rank(a) ? b : a;
}

export function f(x, tag = "") {
  let s = "{";
  const o = { table: x, row: 1 };
  const g = globalThis;
  const p = new Proxy(o, { ownKeys: (t) => [] });
  const q = (a, b) => (a > 0 ? b : null);
  const t = s === "a" && x === 5n ? 1 : 2;
  return [x, [{ table: "t", row: 1 }], s ? "a" : "b"];
}
"#;
        assert_eq!(strip_types(ts), js);
    }
}
