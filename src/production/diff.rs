//! `rulec diff OLD NEW --fixtures F`: the report of formats.md over two versions of a rule —
//! every record's call answered by both, ours the new version and theirs the old, clusters
//! keyed by the transition of each table's row (`{table,from,to}`: from the old version's
//! row, to the new one's). Records whose answer is the same but whose rows moved are listed
//! under `moved`.
//!
//! The records are read at the new version's steps and units (or `--read-as`'s) and brought
//! to each version's own. An input only the new version has is not given to the old one; a
//! record either version's door refuses is excluded (`old_…` when only the old one refuses).
//! Outputs are compared by name, those both versions have.

use super::records::{next_line, Fills, Reader, Wants};
use super::report::{inputs_shown, transitions, Compared, RecordId, Report};
use super::values::Plain;
use super::Progress;
use crate::eval;
use crate::sema::*;
use serde_json::Value as Json;
use std::io::BufRead;

/// The two versions compared, and how the old one is named in the report.
pub struct Versions<'a> {
    pub old: &'a Program,
    pub new: &'a Program,
    pub old_shown: &'a str,
}

/// How the records are read: `--read-as`'s version (none for the new one's own steps and
/// units), and the defaults of missing fields (written for the new version).
pub struct Reading<'a> {
    pub written_by: Option<&'a Program>,
    pub fills: &'a Fills,
}

/// Compare the two versions over the records of `input` (named `file`).
pub fn diff(
    v: &Versions,
    reading: &Reading,
    file: &str,
    input: impl BufRead,
    progress: &mut dyn Progress,
) -> Result<Report, String> {
    let (old, new, old_shown) = (v.old, v.new, v.old_shown);
    let (written_by, fills) = (reading.written_by, reading.fills);
    let new_reader = Reader { rule: new, written_by, fills, fills_for: None };
    let old_reader = Reader { rule: old, written_by: Some(written_by.unwrap_or(new)), fills, fills_for: Some(new) };
    let common: Vec<(VarId, VarId)> = new
        .outputs
        .iter()
        .filter_map(|&n| old.outputs.iter().find(|&&o| old.vars[o].name == new.vars[n].name).map(|&o| (o, n)))
        .collect();
    let outputs = common.iter().map(|&(_, n)| new.vars[n].clone()).collect();
    let mut report = Report::over(outputs, old_shown, fills.defaults_json()).sides("new", "old");
    let tables: Vec<String> = new.tables.iter().map(|t| t.name.clone()).collect();
    let new_only: Vec<&str> = new
        .inputs
        .iter()
        .map(|&v| new.vars[v].name.as_str())
        .filter(|n| !old.inputs.iter().any(|&o| old.vars[o].name == *n))
        .collect();
    let wants = Wants { observed: false, trace: false };
    let mut done = 0;
    let (mut input, mut buf, mut at) = (input, Vec::new(), 0);
    while let Some(line) = next_line(&mut input, &mut buf).map_err(|e| format!("cannot read {file}: {e}"))? {
        at += 1;
        let line = match line {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => Ok(text),
            Err(_) => Err(()),
        };
        done += 1;
        if done % 65536 == 0 {
            progress.tick(done);
        }
        let top: Json = match line.and_then(|text| serde_json::from_str(text).map_err(|_| ())) {
            Ok(t) => t,
            Err(()) => {
                report.exclude(super::records::Kind::NotJson.as_str());
                continue;
            }
        };
        let rec_new = new_reader.read_json(at, &top, wants);
        if let Some(first) = rec_new.problems.first() {
            report.exclude(first.kind.as_str());
            continue;
        }
        let mut for_old = top;
        if let Some(Json::Object(m)) = for_old.get_mut("in") {
            m.retain(|k, _| !new_only.contains(&k.as_str()));
        }
        let rec_old = old_reader.read_json(at, &for_old, wants);
        if let Some(first) = rec_old.problems.first() {
            report.exclude(&format!("old_{}", first.kind.as_str()));
            continue;
        }
        let (Some(cn), Some(co)) = (&rec_new.call, &rec_old.call) else { continue };
        let (Ok(on), Ok(oo)) = (eval::evaluate(new, &cn.inputs), eval::evaluate(old, &co.inputs)) else {
            report.exclude("no_answer");
            continue;
        };
        let fired = |p: &Program, o: &eval::Outcome| -> Vec<(String, usize)> {
            o.trace.iter().map(|f| (p.tables[f.table].name.clone(), f.row)).collect()
        };
        let c = Compared {
            id: RecordId { line: rec_new.line, tag: rec_new.tag.clone() },
            rows: transitions(&tables, &fired(new, &on), &fired(old, &oo)),
            input: cn.json.clone(),
            input_shown: inputs_shown(new, &cn.inputs),
            ours: common.iter().map(|&(_, n)| Plain::of(new, &new.vars[n], &on.values[n])).collect(),
            theirs: common.iter().map(|&(o, _)| Plain::of(old, &old.vars[o], &oo.values[o])).collect(),
        };
        if cn.filled.is_empty() {
            report.add(c);
        } else {
            report.add_filled(&c, &cn.filled);
        }
    }
    progress.finish(done);
    Ok(report)
}
