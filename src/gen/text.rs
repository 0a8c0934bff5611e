//! What every backend writes text with: a writer that keeps the indentation, the sections
//! of a runtime file, and the header every generated file starts with.

use super::plan::Plan;

/// Lines of code at an indentation.
pub struct Code {
    text: String,
    depth: usize,
    unit: &'static str,
}

impl Code {
    /// `unit` is one level of indentation (four spaces, a tab).
    pub fn new(unit: &'static str) -> Code {
        Code { text: String::new(), depth: 0, unit }
    }

    /// One level of indentation.
    pub fn unit(&self) -> &'static str {
        self.unit
    }

    /// One line at the current depth.
    pub fn line(&mut self, s: impl AsRef<str>) {
        let s = s.as_ref();
        if !s.is_empty() {
            for _ in 0..self.depth {
                self.text.push_str(self.unit);
            }
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// Text as it is (several lines, already laid out).
    pub fn raw(&mut self, s: &str) {
        self.text.push_str(s);
    }

    pub fn blank(&mut self) {
        self.text.push('\n');
    }

    pub fn indent(&mut self) {
        self.depth += 1;
    }

    pub fn dedent(&mut self) {
        self.depth -= 1;
    }

    /// One level out, then the line that closes the block (`}`, `end`).
    pub fn close(&mut self, line: &str) {
        self.dedent();
        self.line(line);
    }

    /// `template`'s lines at the current depth, each `{name}` filled by `value` (see
    /// [`fill_names`]); a line holding nothing but a `{name}` that `value` gives no text for
    /// is where `part` writes that part, at the line's indentation. A value of several lines
    /// is indented as its line; a line that fills to nothing is left out.
    pub fn template(
        &mut self,
        template: &str,
        value: impl Fn(&str) -> Option<String>,
        mut part: impl FnMut(&str, &mut Code),
    ) {
        for line in template.lines() {
            let body = line.trim_start();
            let name = body.strip_prefix('{').and_then(|b| b.strip_suffix('}'));
            // Only a name alone is a part (`{x} := T{{y}}` is a line of fills).
            let name = name.filter(|n| n.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()));
            let name = name.filter(|name| value(name).is_none());
            match name {
                Some(name) => {
                    let depth = (line.len() - body.len()) / self.unit.len();
                    self.depth += depth;
                    part(name, self);
                    self.depth -= depth;
                }
                None => {
                    // A value of several lines keeps the template line's indentation on each;
                    // a line that was only a value, and it empty, is no line.
                    let filled = fill_names(line, &value);
                    if filled.trim().is_empty() && !body.is_empty() {
                        continue;
                    }
                    let lead = &line[..line.len() - body.len()];
                    for (i, piece) in filled.split('\n').enumerate() {
                        self.line(if i == 0 || piece.is_empty() {
                            piece.to_string()
                        } else {
                            format!("{lead}{piece}")
                        });
                    }
                }
            }
        }
    }

    /// `template` filled from `fills` alone (see [`Code::template`]): a template with no parts.
    pub fn filled(&mut self, template: &str, fills: &[(&str, String)]) {
        let value = |name: &str| fill_of(fills, name).map(str::to_string);
        self.template(template, value, |name, _| panic!("the template names `{name}`, which no fill gives"));
    }

    /// The text, ending in exactly one newline.
    pub fn finish(mut self) -> String {
        while self.text.ends_with("\n\n") {
            self.text.pop();
        }
        self.text
    }
}

/// The value `fills` gives `name`, if any.
pub fn fill_of<'a>(fills: &'a [(&str, String)], name: &str) -> Option<&'a str> {
    fills.iter().find(|(f, _)| *f == name).map(|(_, v)| v.as_str())
}

/// `text` with each `{name}` (letters, digits and `_`) that `value` gives a text for replaced
/// by it, in one pass: braces inside a value, and a name `value` leaves alone, stay as they are.
pub fn fill_names(text: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let name = after.find('}').map(|j| &after[..j]);
        match name
            .filter(|b| !b.is_empty() && b.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()))
            .and_then(&value)
        {
            Some(filled) => {
                out.push_str(&filled);
                rest = &after[name.map_or(0, str::len) + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The section `name` of a runtime file: the lines after the line `{marker} NAME` up to the
/// next such line, without the blank lines around them.
pub fn section<'a>(file: &'a str, marker: &str, name: &str) -> &'a str {
    let head = format!("{marker} {name}\n");
    let start = file
        .find(&head)
        .filter(|&i| i == 0 || file.as_bytes()[i - 1] == b'\n')
        .unwrap_or_else(|| panic!("the runtime file has a section `{name}`"))
        + head.len();
    let rest = &file[start..];
    let end = rest.find(&format!("\n{marker} ")).map(|e| e + 1).unwrap_or(rest.len());
    rest[..end].trim_matches('\n')
}

/// `file` with each line `{marker} FILE NAME` replaced by the section NAME of FILE, one of
/// `files` (each a name as the line gives it and its text, cut into sections at
/// `{section_marker} NAME` lines): a piece of target-language text that several generated
/// files hold is written once, in the file it is copied from.
pub fn splice(file: &str, marker: &str, files: &[(&str, &str)], section_marker: &str) -> String {
    let mut out = String::with_capacity(file.len());
    for line in file.split_inclusive('\n') {
        let Some(copy) = line.strip_prefix(marker) else {
            out.push_str(line);
            continue;
        };
        let (from, name) = copy.trim().split_once(' ').expect("a copy line names a file and a section");
        let (_, text) = files
            .iter()
            .find(|(f, _)| *f == from)
            .unwrap_or_else(|| panic!("the runtime file {from} is one a copy line can name"));
        out.push_str(section(text, section_marker, name));
        out.push('\n');
    }
    out
}

/// The two lines every generated file starts with, behind the language's comment marker.
pub fn header(plan: &Plan, comment: &str) -> String {
    let r = &plan.rule;
    format!(
        "{comment} Code generated by rulec {}. DO NOT EDIT.\n{comment} Source: {} (rule {} v{}, sha256:{})\n",
        env!("CARGO_PKG_VERSION"),
        r.source_name,
        r.name,
        r.version,
        &r.sha256[..16.min(r.sha256.len())]
    )
}

/// The two header lines of an enums file's own module (`Plan::uses`): it names the file,
/// not a rule, so every rule reading the file writes the same bytes.
pub fn enums_header(u: &super::plan::UsePlan, comment: &str) -> String {
    format!(
        "{comment} Code generated by rulec {}. DO NOT EDIT.\n{comment} Source: {} (enums {}, sha256:{})\n",
        env!("CARGO_PKG_VERSION"),
        self::comment(&u.source_name),
        u.name,
        &u.sha256[..16.min(u.sha256.len())]
    )
}

/// Text put in a line comment: anything that could end the line becomes a space.
pub fn comment(s: &str) -> String {
    s.chars().map(|c| if c.is_control() || c == '\u{2028}' || c == '\u{2029}' { ' ' } else { c }).collect()
}

/// How a language writes a string literal: the quote around it, how the quote is written
/// inside, the characters spelled otherwise, and the other characters escaped by their code
/// point. Every backend's string literal is [`quoted`] with its description.
#[derive(Clone, Copy)]
pub struct Escapes {
    pub quote: char,
    /// The quote inside is doubled (SQL), not written after a backslash.
    pub doubled: bool,
    /// Characters spelled otherwise inside, each with its spelling.
    pub spelled: &'static [(char, &'static str)],
    /// The other characters written by their code point, and how.
    pub escaped: fn(char) -> bool,
    pub code: fn(u32) -> String,
}

/// The backslash and the whitespace that ends or breaks a line, as the C family spells them.
pub const C_SPELLED: &[(char, &str)] = &[('\\', "\\\\"), ('\n', "\\n"), ('\r', "\\r"), ('\t', "\\t")];

/// A character that could end a line or hide in one: a control character, a line separator.
pub fn unprintable(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

impl Escapes {
    /// The C family's escapes (`"…"`, `\"`, `\\`, `\n`, then `code` for the other control
    /// characters and the line separators): Go, Java, TypeScript, JavaScript, Rust, Swift.
    pub const fn c_family(code: fn(u32) -> String) -> Escapes {
        Escapes { quote: '"', doubled: false, spelled: C_SPELLED, escaped: unprintable, code }
    }

    /// A literal whose quote is its only escape (SQL's `'…'` with `''` inside when `doubled`).
    pub const fn plain(quote: char, doubled: bool) -> Escapes {
        Escapes { quote, doubled, spelled: &[], escaped: |_| false, code: |_| String::new() }
    }
}

/// `s` as a string literal written by `e`.
pub fn quoted(s: &str, e: &Escapes) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push(e.quote);
    for c in s.chars() {
        if c == e.quote {
            o.push(if e.doubled { c } else { '\\' });
            o.push(c);
        } else if let Some((_, spelling)) = e.spelled.iter().find(|(x, _)| *x == c) {
            o.push_str(spelling);
        } else if (e.escaped)(c) {
            o.push_str(&(e.code)(c as u32));
        } else {
            o.push(c);
        }
    }
    o.push(e.quote);
    o
}

/// A string literal of the C family with every control character as `\u{…}` (Rust, Swift).
pub fn braced_unicode(s: &str) -> String {
    quoted(s, &Escapes::c_family(|c| format!("\\u{{{c:x}}}")))
}

#[cfg(test)]
mod tests {
    use super::{fill_names, Code};

    fn value(name: &str) -> Option<String> {
        match name {
            "a" => Some("{b}".into()),
            "b" => Some("B".into()),
            "lines" => Some("one\ntwo".into()),
            "none" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn a_name_is_filled_once_and_other_braces_stay() {
        assert_eq!(fill_names("{a}{b} { x } {} {c}", value), "{b}B { x } {} {c}");
    }

    #[test]
    fn a_template_indents_each_line_of_a_value_and_writes_parts_at_their_depth() {
        let mut o = Code::new("  ");
        o.indent();
        o.template("f {\n  {lines}\n  {none}\n\n  {walk}\n}", value, |part, o| o.line(format!("part {part}")));
        assert_eq!(o.finish(), "  f {\n    one\n    two\n\n    part walk\n  }\n");
    }
}
