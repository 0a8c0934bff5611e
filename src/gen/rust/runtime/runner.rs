// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for
// every line. It reads the JSON (numbers kept as their text) and hands the object to the
// module's own wire door, which checks it in the reference's order; the runner checks
// nothing itself. A line that is not UTF-8, not JSON or not an object is refused as the door
// refuses any value that is not an object, and the runner reads on.
//
// The Rust backend writes it beside each module with `rulec_rule`, `rulec_wire` and
// `RULEC_NOT_AN_OBJECT` replaced by the module's file, its door and the plan's sentence. The
// Wasm entry is the `answer` and `json` sections behind the canonical ABI in place of `main`.

// rulec: runner
// The runner calls the wire door alone; the rest of the module is its callers' API.
#[allow(dead_code)]
#[path = "rulec_rule.rs"]
mod rule;

use std::io::{BufRead, Write};

fn main() {
    let mut input = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => panic!("standard input is not readable: {e}"),
        }
        if let Some(printed) = answer(&line) {
            writeln!(out, "{printed}").expect("standard output is writable");
        }
    }
    out.flush().expect("standard output is writable");
}

// rulec: answer
// The answer to one line, which the Wasm entry (src/gen/wasm) gives a host as well.
const NOT_AN_OBJECT: &str = RULEC_NOT_AN_OBJECT;

/// What the runner prints for one line: nothing for a blank line.
fn answer(line: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text.trim(),
        Err(_) => return Some(refusal("input", NOT_AN_OBJECT)),
    };
    if text.is_empty() {
        return None;
    }
    // A record line is read as its `in`.
    let call = match json::parse(text) {
        Some(json::Value::Object(mut top)) => match top.iter().rposition(|(k, _)| k == "in") {
            Some(at) => match top.swap_remove(at).1 {
                json::Value::Object(call) => Some(call),
                _ => None,
            },
            None => Some(top),
        },
        _ => None,
    };
    let Some(call) = call else { return Some(refusal("input", NOT_AN_OBJECT)) };
    let wire: Vec<(&str, rule::Wire<'_>)> = call.iter().map(|(k, v)| (k.as_str(), v.wire())).collect();
    Some(match rule::rulec_wire(&wire, "") {
        Ok(record) => record,
        Err(rule::RuleError::Contradiction { what }) => refusal("contradiction", what),
        Err(rule::RuleError::Input { what, .. }) => refusal("input", what),
        Err(e @ rule::RuleError::NotAnInput { .. }) => refusal("input", &e.to_string()),
    })
}

fn refusal(kind: &str, what: &str) -> String {
    let mut s = String::from("{\"refused\":\"");
    s.push_str(kind);
    s.push_str("\",\"error\":");
    json::push_str(&mut s, what);
    s.push('}');
    s
}

// rulec: json
/// The JSON this runner reads, as strictly as the reference's reader: one value per line,
/// numbers kept as their text, strings unescaped (a lone surrogate is no JSON), nesting
/// bounded as the reference bounds it.
mod json {
    #[derive(Clone, Debug)]
    pub enum Value<'a> {
        Null,
        Bool(bool),
        Number(&'a str),
        String(String),
        Array,
        Object(Vec<(String, Value<'a>)>),
    }

    impl Value<'_> {
        /// The value as the module's wire door takes it.
        pub fn wire(&self) -> super::rule::Wire<'_> {
            use super::rule::Wire;
            match self {
                Value::Null => Wire::Null,
                Value::Bool(b) => Wire::Bool(*b),
                Value::Number(t) => Wire::Num(t),
                Value::String(s) => Wire::Str(s),
                Value::Array | Value::Object(_) => Wire::Other,
            }
        }
    }

    /// The one JSON value `text` is, or `None` when it is not JSON.
    pub fn parse(text: &str) -> Option<Value<'_>> {
        let mut p = Parser { text, at: 0, depth: 0 };
        p.space();
        let v = p.value()?;
        p.space();
        (p.at == text.len()).then_some(v)
    }

    /// Append a JSON string: `"` and `\` escaped, control characters as escapes.
    pub fn push_str(s: &mut String, text: &str) {
        s.push('"');
        for c in text.chars() {
            match c {
                '"' => s.push_str("\\\""),
                '\\' => s.push_str("\\\\"),
                '\n' => s.push_str("\\n"),
                '\r' => s.push_str("\\r"),
                '\t' => s.push_str("\\t"),
                '\u{8}' => s.push_str("\\b"),
                '\u{c}' => s.push_str("\\f"),
                c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
                c => s.push(c),
            }
        }
        s.push('"');
    }

    /// Arrays and objects nest at most this deep (serde_json's limit).
    const MAX_DEPTH: usize = 127;

    struct Parser<'a> {
        text: &'a str,
        at: usize,
        depth: usize,
    }

    impl<'a> Parser<'a> {
        fn peek(&self) -> Option<u8> {
            self.text.as_bytes().get(self.at).copied()
        }

        fn eat(&mut self, c: u8) -> Option<()> {
            (self.peek()? == c).then(|| self.at += 1)
        }

        fn space(&mut self) {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.at += 1;
            }
        }

        fn word(&mut self, w: &str, v: Value<'a>) -> Option<Value<'a>> {
            self.text[self.at..].starts_with(w).then(|| {
                self.at += w.len();
                v
            })
        }

        fn value(&mut self) -> Option<Value<'a>> {
            match self.peek()? {
                b'n' => self.word("null", Value::Null),
                b't' => self.word("true", Value::Bool(true)),
                b'f' => self.word("false", Value::Bool(false)),
                b'"' => self.string().map(Value::String),
                b'[' => self.nested(b']', |p| p.value().map(drop)).map(|_| Value::Array),
                b'{' => {
                    let mut members = Vec::new();
                    self.nested(b'}', |p| {
                        let key = p.string()?;
                        p.space();
                        p.eat(b':')?;
                        p.space();
                        members.push((key, p.value()?));
                        Some(())
                    })?;
                    Some(Value::Object(members))
                }
                _ => self.number().map(Value::Number),
            }
        }

        /// An array or an object: `item` read for each element, between commas.
        fn nested(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return None;
            }
            self.at += 1;
            self.space();
            if self.eat(close).is_none() {
                loop {
                    self.space();
                    item(self)?;
                    self.space();
                    match self.peek()? {
                        b',' => self.at += 1,
                        c if c == close => {
                            self.at += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            self.depth -= 1;
            Some(())
        }

        /// A JSON number's text: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        fn number(&mut self) -> Option<&'a str> {
            let start = self.at;
            let digits = |p: &mut Self| {
                let from = p.at;
                while matches!(p.peek(), Some(b'0'..=b'9')) {
                    p.at += 1;
                }
                p.at - from
            };
            let _ = self.eat(b'-');
            let first = self.peek();
            match digits(self) {
                0 => return None,
                n if n > 1 && first == Some(b'0') => return None,
                _ => {}
            }
            if self.eat(b'.').is_some() && digits(self) == 0 {
                return None;
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                self.at += 1;
                if matches!(self.peek(), Some(b'+' | b'-')) {
                    self.at += 1;
                }
                if digits(self) == 0 {
                    return None;
                }
            }
            Some(&self.text[start..self.at])
        }

        fn string(&mut self) -> Option<String> {
            self.eat(b'"')?;
            let mut out = String::new();
            loop {
                let rest = &self.text[self.at..];
                let plain = rest.find(|c: char| c == '"' || c == '\\' || c < ' ')?;
                out.push_str(&rest[..plain]);
                self.at += plain;
                match self.peek()? {
                    b'"' => {
                        self.at += 1;
                        return Some(out);
                    }
                    b'\\' => {
                        self.at += 1;
                        let e = self.peek()?;
                        self.at += 1;
                        out.push(match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => self.escaped()?,
                            _ => return None,
                        });
                    }
                    // A control character must be escaped.
                    _ => return None,
                }
            }
        }

        /// The character of a `\uXXXX` escape (the `\u` read), a surrogate pair taken whole.
        fn escaped(&mut self) -> Option<char> {
            let hi = self.hex4()?;
            if (0xD800..0xDC00).contains(&hi) {
                self.eat(b'\\')?;
                self.eat(b'u')?;
                let lo = self.hex4()?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return None;
                }
                return char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
            }
            char::from_u32(hi)
        }

        fn hex4(&mut self) -> Option<u32> {
            let t = self.text.get(self.at..self.at + 4)?;
            if !t.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            self.at += 4;
            u32::from_str_radix(t, 16).ok()
        }
    }
}
