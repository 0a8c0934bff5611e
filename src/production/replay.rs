//! `rulec replay`: every record of a fixtures file through the rule, and the report of
//! formats.md. A record whose call the door refuses, or that has any problem `fixtures lint`
//! would report, is excluded by the kind of its first problem; one the rule has no answer
//! for (a contradiction) is excluded as `no_answer`; one completed from the manifest's
//! defaults is compared and counted apart, out of the headline rate.

use super::fast::Compiled;
use super::records::{Reader, Record, Wants};
use super::report::{inputs_shown, transitions, Compared, RecordId, Report, RowKey};
use super::values::Plain;
use super::Progress;
use crate::eval;
use crate::sema::*;
use std::io::BufRead;

/// How a replay runs.
pub struct Options {
    /// Use the fast form where the rule compiles to it (the report is the same either way).
    pub fast: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { fast: true }
    }
}

/// Replay `input` (named `file`) through `reader.rule`.
pub fn replay(
    reader: &Reader,
    file: &str,
    input: impl BufRead,
    opts: &Options,
    progress: &mut dyn Progress,
) -> Result<Report, String> {
    let fast = if opts.fast { Compiled::new(reader.rule) } else { None };
    replay_by(reader, fast.as_ref(), file, input, progress)
}

/// Replay `input` (named `file`) through `reader.rule`, by the fast form `fast` where it
/// takes a record (`Compiled::checked` when the rule's analysis is at hand).
pub fn replay_by(
    reader: &Reader,
    fast: Option<&Compiled>,
    file: &str,
    mut input: impl BufRead,
    progress: &mut dyn Progress,
) -> Result<Report, String> {
    let p = reader.rule;
    let mut report = Report::new(p, file, reader.fills.defaults_json());
    // The fast form reads numbers in the rule's own units: not under --read-as.
    let compiled = fast.filter(|_| reader.written_by.is_none());
    let mut scratch = compiled.map(Compiled::scratch);
    let tables: Vec<String> = p.tables.iter().map(|t| t.name.clone()).collect();
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut line = 0usize;
    let mut done = 0usize;
    loop {
        buf.clear();
        let n = input.read_until(b'\n', &mut buf).map_err(|e| format!("cannot read {file}: {e}"))?;
        if n == 0 {
            break;
        }
        line += 1;
        let text = trim(&buf);
        if text.is_empty() {
            continue;
        }
        done += 1;
        if done.is_multiple_of(65536) {
            progress.tick(done);
        }
        if let (Some(c), Some(s)) = (compiled, scratch.as_mut()) {
            if c.matches(text, s) == Some(true) {
                report.matched_unchanged();
                continue;
            }
        }
        let Ok(text) = std::str::from_utf8(text) else {
            report.exclude(super::records::Kind::NotJson.as_str());
            continue;
        };
        let rec = reader.read(line, text, Wants { observed: true, trace: true });
        compare_record(p, &tables, &rec, &mut report);
    }
    progress.finish(done);
    Ok(report)
}

/// A line without its line ending and surrounding blanks.
fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &b[start..end]
}

/// One record read by the reference: excluded, filled, or compared.
fn compare_record(p: &Program, tables: &[String], rec: &Record, report: &mut Report) {
    if let Some(first) = rec.problems.first() {
        report.exclude(first.kind.as_str());
        return;
    }
    let (Some(call), Some(observed)) = (&rec.call, &rec.observed) else {
        report.exclude(super::records::Kind::NoIn.as_str());
        return;
    };
    let outcome = match eval::evaluate(p, &call.inputs) {
        Ok(o) => o,
        Err(_) => {
            report.exclude("no_answer");
            return;
        }
    };
    let fired: Vec<(String, usize)> = outcome.trace.iter().map(|f| (p.tables[f.table].name.clone(), f.row)).collect();
    let rows = match &rec.trace {
        Some(recorded) => transitions(tables, &fired, recorded),
        None => fired.into_iter().map(|(table, row)| RowKey::Fired { table, row }).collect(),
    };
    let plain = |vals: &mut dyn Iterator<Item = (VarId, &Value)>| -> Vec<Plain> {
        vals.map(|(v, x)| Plain::of(p, &p.vars[v], x)).collect()
    };
    let ours = plain(&mut outcome.output_values(p));
    let theirs = plain(&mut p.outputs.iter().copied().zip(observed.iter()));
    let c = Compared {
        id: RecordId { line: rec.line, tag: rec.tag.clone() },
        rows,
        input: call.json.clone(),
        input_shown: inputs_shown(p, &call.inputs),
        ours,
        theirs,
    };
    if call.filled.is_empty() {
        report.add(c);
    } else {
        report.add_filled(&c, &call.filled);
    }
}
