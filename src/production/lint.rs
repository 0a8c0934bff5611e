//! `rulec fixtures lint`: every problem of a fixtures file, grouped by kind and field, each
//! with how often it occurs and the first record it occurs in (formats.md "fixtures lint").
//!
//! `records` counts the lines that are not blank; `observed` those that carry an `observed`
//! object; `filled` those completed from the manifest's defaults; `dropped` those replay
//! would exclude (a record with any problem). `by` is carried and never read: nothing in it
//! is ever a problem.

use super::records::{next_line, Kind, Reader, Record, Wants};
use serde_json::{json, Value as Json};
use std::io::BufRead;

/// One kind of problem on one field, over the whole file.
#[derive(Clone, Debug)]
pub struct Group {
    pub kind: Kind,
    pub field: Option<String>,
    pub count: usize,
    /// The first record it occurs in: line and tag.
    pub line: usize,
    pub tag: String,
    /// The first occurrence's sentence.
    pub what: String,
}

#[derive(Clone, Debug)]
pub struct Lint {
    pub file: String,
    pub records: usize,
    pub observed: usize,
    pub filled: usize,
    pub dropped: usize,
    pub problems: Vec<Group>,
}

/// Lint the records of `input` (named `file` in the report).
pub fn lint(reader: &Reader, file: &str, input: impl BufRead) -> Result<Lint, String> {
    let mut out = Lint { file: file.to_string(), records: 0, observed: 0, filled: 0, dropped: 0, problems: Vec::new() };
    let (mut input, mut buf, mut at) = (input, Vec::new(), 0);
    while let Some(line) = next_line(&mut input, &mut buf).map_err(|e| format!("cannot read {file}: {e}"))? {
        at += 1;
        let rec = match line {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => reader.read(at, text, Wants { observed: true, trace: true }),
            Err(what) => Record::not_json(at, what),
        };
        out.records += 1;
        out.observed += usize::from(rec.has_observed);
        if rec.call.as_ref().is_some_and(|c| !c.filled.is_empty()) {
            out.filled += 1;
        }
        if !rec.problems.is_empty() {
            out.dropped += 1;
        }
        for p in rec.problems {
            match out.problems.iter_mut().find(|g| g.kind == p.kind && g.field == p.field) {
                Some(g) => g.count += 1,
                None => out.problems.push(Group {
                    kind: p.kind,
                    field: p.field,
                    count: 1,
                    line: rec.line,
                    tag: rec.tag.clone(),
                    what: p.what,
                }),
            }
        }
    }
    Ok(out)
}

impl Lint {
    pub fn to_json(&self) -> Json {
        let problems: Vec<Json> = self
            .problems
            .iter()
            .map(|g| {
                let mut m = serde_json::Map::new();
                m.insert("kind".into(), json!(g.kind.as_str()));
                if let Some(f) = &g.field {
                    m.insert("field".into(), json!(f));
                }
                m.insert("count".into(), json!(g.count));
                m.insert("example".into(), json!({"line": g.line, "tag": g.tag}));
                m.insert("what".into(), json!(g.what));
                m.insert("hint".into(), json!(g.kind.hint()));
                Json::Object(m)
            })
            .collect();
        json!({"file": self.file, "records": self.records, "observed": self.observed, "filled": self.filled,
               "dropped": self.dropped, "problems": problems})
    }

    /// For people: a summary line, then one line per problem with its first record.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}: {} record{}, {} with observed, {} filled, {} dropped\n",
            self.file,
            self.records,
            plural(self.records),
            self.observed,
            self.filled,
            self.dropped
        );
        if self.problems.is_empty() {
            s.push_str("no problems\n");
        }
        for g in &self.problems {
            let tag = if g.tag.is_empty() { String::new() } else { format!(" ({})", g.tag) };
            s.push_str(&format!(
                "{}: {} × {}: line {}{tag}: {}\n  hint: {}\n",
                g.kind.as_str(),
                g.field.as_deref().unwrap_or("the record"),
                g.count,
                g.line,
                g.what,
                g.kind.hint()
            ));
        }
        s
    }
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
