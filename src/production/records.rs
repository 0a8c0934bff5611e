//! Fixtures records (formats.md "Fixtures"): one past call a line — the inputs under `in`,
//! what production answered under `observed`, the rows that matched under `trace`, a `tag`,
//! and `ts` and `by`, which are carried and never read.
//!
//! A record is read field by field against the rule, so that `fixtures lint` can report
//! every problem a record has and replay can exclude a record for its first one. A number is
//! an integer in the canonical unit; a decimal is refused, naming the field. A field the rule
//! does not know is an error, never ignored: discarding it silently would turn a misspelling
//! into "filled with the default value", and only the match rate would move.
//!
//! Two things change what a record's numbers mean. `--read-as` names the version whose steps
//! and units they were written in: every number is brought from there to the rule's own
//! (a rate kept in whole percents read at a step of 0.1%, yen become sen). The replay
//! manifest fills a missing input with a declared default; a record so filled is marked.

use crate::eval::wire::{self, json_number};
use crate::num::{self, Rat};
use crate::sema::*;
use serde_json::{Map, Value as Json};

/// What is wrong with a record (formats.md `fixtures lint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    NotJson,
    NoIn,
    NoObserved,
    UnknownField,
    BadInput,
    BadObserved,
    MissingObserved,
    BadTrace,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::NotJson,
        Kind::NoIn,
        Kind::NoObserved,
        Kind::UnknownField,
        Kind::BadInput,
        Kind::BadObserved,
        Kind::MissingObserved,
        Kind::BadTrace,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::NotJson => "not_json",
            Kind::NoIn => "no_in",
            Kind::NoObserved => "no_observed",
            Kind::UnknownField => "unknown_field",
            Kind::BadInput => "bad_input",
            Kind::BadObserved => "bad_observed",
            Kind::MissingObserved => "missing_observed",
            Kind::BadTrace => "bad_trace",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Kind::NotJson => "Every line is one JSON object; look at what wrote this line.",
            Kind::NoIn => "A record carries the call's inputs under `in`.",
            Kind::NoObserved => "A record carries what was answered under `observed`.",
            Kind::UnknownField => {
                "The rule has no field of this name: correct the spelling, or the rule. A field is never ignored."
            }
            Kind::BadInput | Kind::BadObserved => {
                "The type or range disagrees with the declaration. A record written before a step or a unit changed is read with --read-as that version."
            }
            Kind::MissingObserved => "Every output is compared: write each one (null for an optional output with no value).",
            Kind::BadTrace => "A trace is a list of {\"table\": …, \"row\": …} naming tables and rows of the rule that wrote it.",
        }
    }
}

/// One problem of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub kind: Kind,
    /// The field at fault; none when the problem is about the record as a whole.
    pub field: Option<String>,
    pub what: String,
}

impl Problem {
    fn new(kind: Kind, field: Option<&str>, what: String) -> Problem {
        Problem { kind, field: field.map(str::to_string), what }
    }
}

/// The defaults a missing input is filled with: the replay manifest's `fills`, then every
/// `--fill k=v` over it. Values are in the canonical unit of the rule they were written for.
#[derive(Clone, Debug, Default)]
pub struct Fills {
    /// In the rule's input order.
    pub values: Vec<(String, Json)>,
}

impl Fills {
    /// Read the manifest (its text and how it is named) and the overrides, for rule `p`.
    pub fn load(p: &Program, manifest: Option<(&str, &str)>, overrides: &[String]) -> Result<Fills, String> {
        let mut given: Vec<(String, Json)> = Vec::new();
        if let Some((name, text)) = manifest {
            let top: Json = serde_json::from_str(text).map_err(|e| format!("{name} is not JSON: {e}"))?;
            let Json::Object(top) = top else { return Err(format!("{name} is not a JSON object")) };
            for (k, v) in &top {
                match k.as_str() {
                    "rule" => {
                        let r = v.as_str().ok_or_else(|| format!("{name}: `rule` is not a string"))?;
                        if r != p.name && r != p.ident() {
                            return Err(format!("{name} is the manifest of rule `{r}`, not of `{}`", p.name));
                        }
                    }
                    "fills" => {
                        let Json::Object(fills) = v else { return Err(format!("{name}: `fills` is not an object")) };
                        given.extend(fills.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    other => return Err(format!("{name}: `{other}` is not a field of a manifest (rule, fills)")),
                }
            }
        }
        for o in overrides {
            let (k, v) = o.split_once('=').ok_or_else(|| format!("--fill {o}: write it as NAME=VALUE"))?;
            // A value is read as JSON (5, false, "a b"); a bare word is a string (an enum value).
            let v = serde_json::from_str(v).unwrap_or_else(|_| Json::String(v.to_string()));
            given.retain(|(g, _)| g != k);
            given.push((k.to_string(), v));
        }
        let mut values = Vec::new();
        for (k, v) in &given {
            let Some(&var) = p.inputs.iter().find(|&&i| &p.vars[i].name == k) else {
                return Err(format!("a fill for `{k}`, which is not an input of {}", p.name));
            };
            wire::read_input(p, &p.vars[var], Some(v)).map_err(|r| format!("the fill for `{k}`: {}", r.what))?;
        }
        for &i in &p.inputs {
            if let Some((k, v)) = given.iter().find(|(k, _)| *k == p.vars[i].name) {
                values.push((k.clone(), v.clone()));
            }
        }
        Ok(Fills { values })
    }

    pub fn get(&self, name: &str) -> Option<&Json> {
        self.values.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// `{"weight": 5, …}`: the defaults as declared.
    pub fn defaults_json(&self) -> Json {
        Json::Object(self.values.iter().cloned().collect())
    }
}

/// How a file's records are read for one rule.
pub struct Reader<'a> {
    pub rule: &'a Program,
    /// The version whose steps and units the numbers are written in (`--read-as`); none for
    /// the rule's own. It names the tables a trace refers to as well.
    pub written_by: Option<&'a Program>,
    pub fills: &'a Fills,
    /// The rule the fills were written for, when it is not `rule` (diff reads one file for
    /// two versions; the fills are the new one's).
    pub fills_for: Option<&'a Program>,
}

/// The call a record asks, as the rule reads it.
#[derive(Clone, Debug)]
pub struct Call {
    /// `in`, in the rule's units, filled, in the rule's input order.
    pub json: Json,
    /// One value per input, in `p.inputs` order, read through the door.
    pub inputs: Vec<Value>,
    /// The inputs filled from the defaults.
    pub filled: Vec<String>,
}

/// One record as read.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line of the file.
    pub line: usize,
    pub tag: String,
    /// Present when every input was read.
    pub call: Option<Call>,
    /// One value per output of the rule, when every output was read.
    pub observed: Option<Vec<Value>>,
    /// The rows the record says matched: (table, 1-based row).
    pub trace: Option<Vec<(String, usize)>>,
    pub problems: Vec<Problem>,
    pub has_observed: bool,
}

impl Record {
    fn empty(line: usize) -> Record {
        Record {
            line,
            tag: String::new(),
            call: None,
            observed: None,
            trace: None,
            problems: Vec::new(),
            has_observed: false,
        }
    }
}

/// Which parts of a record a reader looks at (diff reads `in` alone).
#[derive(Clone, Copy, Debug)]
pub struct Wants {
    pub observed: bool,
    pub trace: bool,
}

/// The fields a record may carry.
const TOP: [&str; 6] = ["ts", "tag", "in", "observed", "trace", "by"];

/// A value as a problem quotes it: a string's text, anything else as JSON.
fn quoted(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The refusal sentence without the field's name in front (`dest is not …` → `is not …`).
fn predicate<'s>(name: &str, what: &'s str) -> &'s str {
    what.strip_prefix(name).map(str::trim_start).unwrap_or(what)
}

/// How a numeric type counts: `1%`, `0.1%`, `USD`, `lb`, `1`.
pub fn unit_text(ty: &Ty) -> String {
    match ty {
        Ty::Rate { step } => format!("{}%", num::to_decimal_string(&(step * num::int(100)))),
        Ty::Money { unit, .. } | Ty::Qty { unit } => unit.symbol.to_string(),
        _ => "1".into(),
    }
}

/// A wire number of `from_var` (in `from`'s units) brought to `to_var`'s units. Anything that
/// is not a whole number is left as it is, for the door to refuse as it would.
pub fn convert(from: &Program, from_var: &Var, to_var: &Var, raw: &Json) -> Result<Json, String> {
    let numeric = |t: &Ty| t.is_integer_on_wire();
    if !numeric(&from_var.ty) || !numeric(&to_var.ty) || from_var.ty.factor() == to_var.ty.factor() {
        return Ok(raw.clone());
    }
    let Json::Number(n) = raw else { return Ok(raw.clone()) };
    let Some(r) = json_number(n).filter(Rat::is_integer) else { return Ok(raw.clone()) };
    let converted = r * from_var.ty.factor() / to_var.ty.factor();
    if !converted.is_integer() {
        return Err(format!(
            "{raw} at {} v{}'s step of {} is not a whole number of this version's steps of {}",
            from.name,
            from.version,
            unit_text(&from_var.ty),
            unit_text(&to_var.ty)
        ));
    }
    Ok(serde_json::from_str(&converted.to_integer().to_string()).expect("an integer is JSON"))
}

/// The longest line read as a record: a longer one is a `not_json` problem of its own line.
pub const MAX_LINE: usize = 16 << 20;

/// The next line of a fixtures file into `buf`: `None` at the end of the file; its text, or
/// why it is no record (not UTF-8, longer than [`MAX_LINE`], the rest of it read past), so
/// that one bad line is a problem of that line and the lines after it are still read.
pub fn next_line<'b>(
    input: &mut impl std::io::BufRead,
    buf: &'b mut Vec<u8>,
) -> std::io::Result<Option<Result<&'b str, String>>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !too_long && buf.len() + part.len() > MAX_LINE {
            too_long = true;
            buf.clear();
        }
        if !too_long {
            buf.extend_from_slice(part);
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Err(format!("the line is longer than {} MiB", MAX_LINE >> 20))));
    }
    Ok(Some(std::str::from_utf8(buf).map_err(|e| format!("the line is not UTF-8 ({e})"))))
}

impl Record {
    /// A line that is no record at all: `not_json`, with why.
    pub fn not_json(line: usize, what: String) -> Record {
        Record { problems: vec![Problem::new(Kind::NotJson, None, what)], ..Record::empty(line) }
    }
}

impl Reader<'_> {
    /// Read one line (`line` is its 1-based number in the file).
    pub fn read(&self, line: usize, text: &str, wants: Wants) -> Record {
        match serde_json::from_str(text) {
            Ok(top) => self.read_json(line, &top, wants),
            Err(e) => Record {
                problems: vec![Problem::new(Kind::NotJson, None, format!("the line is not JSON: {e}"))],
                ..Record::empty(line)
            },
        }
    }

    /// Read a line already parsed.
    pub fn read_json(&self, line: usize, top: &Json, wants: Wants) -> Record {
        let mut rec = Record::empty(line);
        let Json::Object(top) = top else {
            rec.problems.push(Problem::new(Kind::NotJson, None, "the line is JSON but not an object".into()));
            return rec;
        };
        if let Some(tag) = top.get("tag") {
            rec.tag = quoted(tag);
        }
        // What a generated runner prints for a call its door refused: no record of a call.
        if let (Some(refused), None) = (top.get("refused"), top.get("in")) {
            rec.problems.push(Problem::new(
                Kind::NoIn,
                None,
                format!("a refusal (`refused`: {}), not a record: the call got no answer to compare", quoted(refused)),
            ));
            return rec;
        }
        for k in top.keys() {
            if !TOP.contains(&k.as_str()) {
                rec.problems.push(Problem::new(
                    Kind::UnknownField,
                    Some(k),
                    format!("`{k}` is not a field of a record (ts, tag, in, observed, trace, by)"),
                ));
            }
        }
        match top.get("in") {
            None => rec.problems.push(Problem::new(Kind::NoIn, None, "the record has no `in`".into())),
            Some(Json::Object(input)) => rec.call = self.read_in(input, &mut rec.problems),
            Some(_) => rec.problems.push(Problem::new(Kind::NoIn, None, "`in` is not an object".into())),
        }
        if wants.observed {
            match top.get("observed") {
                None => rec.problems.push(Problem::new(Kind::NoObserved, None, "the record has no `observed`".into())),
                Some(Json::Object(obs)) => {
                    rec.has_observed = true;
                    rec.observed = self.read_observed(obs, &mut rec.problems);
                }
                Some(_) => {
                    rec.has_observed = true;
                    rec.problems.push(Problem::new(
                        Kind::BadObserved,
                        Some("observed"),
                        "`observed` is not an object".into(),
                    ));
                }
            }
        } else {
            rec.has_observed = matches!(top.get("observed"), Some(Json::Object(_)));
        }
        if wants.trace {
            if let Some(t) = top.get("trace") {
                rec.trace = self.read_trace(t, &mut rec.problems);
            }
        }
        rec
    }

    /// The program the record's numbers and trace were written by.
    fn writer(&self) -> &Program {
        self.written_by.unwrap_or(self.rule)
    }

    fn read_in(&self, input: &Map<String, Json>, problems: &mut Vec<Problem>) -> Option<Call> {
        let p = self.rule;
        let before = problems.len();
        for k in input.keys() {
            if !p.inputs.iter().any(|&i| &p.vars[i].name == k) && !p.sequences.iter().any(|s| &s.name == k) {
                problems.push(Problem::new(
                    Kind::UnknownField,
                    Some(k),
                    format!("`in.{k}` is not an input of {}", p.name),
                ));
            }
        }
        let mut obj = Map::new();
        let mut filled = Vec::new();
        for &i in &p.inputs {
            let var = &p.vars[i];
            let name = &var.name;
            let raw = match input.get(name) {
                Some(raw) => match self.in_rule_units(var, raw) {
                    Ok(v) => v,
                    Err(what) => {
                        problems.push(Problem::new(Kind::BadInput, Some(name), format!("`in.{name}`: {what}")));
                        continue;
                    }
                },
                None => match self.fill(var) {
                    Some(v) => {
                        filled.push(name.clone());
                        v
                    }
                    None if var.optional => continue,
                    None => {
                        problems.push(Problem::new(
                            Kind::BadInput,
                            Some(name),
                            format!("`in.{name}` is missing, and no fill covers it"),
                        ));
                        continue;
                    }
                },
            };
            if let Err(r) = wire::read_input(p, var, Some(&raw)) {
                problems.push(Problem::new(
                    Kind::BadInput,
                    Some(name),
                    format!("`in.{name}`: `{}` {}", quoted(&raw), predicate(name, &r.what)),
                ));
                continue;
            }
            obj.insert(name.clone(), raw);
        }
        // Each sequence as it was recorded, each element's fields in the rule's units; the
        // door below holds every element to what the rule takes.
        for s in &p.sequences {
            let Some(raw) = input.get(&s.name) else { continue };
            match self.elements_in_rule_units(s, raw) {
                Ok(list) => {
                    obj.insert(s.name.clone(), list);
                }
                Err(what) => {
                    problems.push(Problem::new(Kind::BadInput, Some(&s.name), format!("`in.{}`: {what}", s.name)))
                }
            }
        }
        if problems.len() > before {
            return None;
        }
        let json = Json::Object(obj);
        match wire::read_inputs(p, &json) {
            Ok(inputs) => Some(Call { json, inputs, filled }),
            Err(r) => {
                problems.push(Problem::new(Kind::BadInput, None, r.what));
                None
            }
        }
    }

    /// A value written by the writer, in the rule's units.
    fn in_rule_units(&self, var: &Var, raw: &Json) -> Result<Json, String> {
        let Some(w) = self.written_by else { return Ok(raw.clone()) };
        match w.var_by_name(&var.name) {
            Some(wv) => convert(w, &w.vars[wv], var, raw),
            None => Ok(raw.clone()),
        }
    }

    /// A recorded sequence, each field of each element in the rule's units (a field the writer
    /// did not have, or a value that is not an element, is left for the door to refuse).
    fn elements_in_rule_units(&self, s: &crate::sema::SequenceIr, raw: &Json) -> Result<Json, String> {
        let Json::Array(elements) = raw else { return Ok(raw.clone()) };
        let mut out = Vec::with_capacity(elements.len());
        for e in elements {
            let Json::Object(fields) = e else {
                out.push(e.clone());
                continue;
            };
            let mut converted = Map::new();
            for (k, v) in fields {
                let field = s.fields.iter().map(|&f| &self.rule.vars[f]).find(|var| &var.name == k);
                let v = match field {
                    Some(var) => self.in_rule_units(var, v)?,
                    None => v.clone(),
                };
                converted.insert(k.clone(), v);
            }
            out.push(Json::Object(converted));
        }
        Ok(Json::Array(out))
    }

    /// The default of an input, in the rule's units.
    fn fill(&self, var: &Var) -> Option<Json> {
        let v = self.fills.get(&var.name)?;
        match self.fills_for {
            Some(f) if !std::ptr::eq(f, self.rule) => {
                let fv = f.var_by_name(&var.name)?;
                convert(f, &f.vars[fv], var, v).ok()
            }
            _ => Some(v.clone()),
        }
    }

    fn read_observed(&self, obs: &Map<String, Json>, problems: &mut Vec<Problem>) -> Option<Vec<Value>> {
        let p = self.rule;
        let before = problems.len();
        for k in obs.keys() {
            if !p.outputs.iter().any(|&o| &p.vars[o].name == k) {
                problems.push(Problem::new(
                    Kind::UnknownField,
                    Some(k),
                    format!("`observed.{k}` is not an output of {}", p.name),
                ));
            }
        }
        let mut out = Vec::with_capacity(p.outputs.len());
        for &o in &p.outputs {
            let var = &p.vars[o];
            let name = &var.name;
            let Some(raw) = obs.get(name) else {
                problems.push(Problem::new(Kind::MissingObserved, Some(name), format!("`observed.{name}` is missing")));
                continue;
            };
            let raw = match self.in_rule_units(var, raw) {
                Ok(v) => v,
                Err(what) => {
                    problems.push(Problem::new(Kind::BadObserved, Some(name), format!("`observed.{name}`: {what}")));
                    continue;
                }
            };
            match wire::read_input(p, var, Some(&raw)) {
                Ok(v) => out.push(v),
                Err(r) => problems.push(Problem::new(
                    Kind::BadObserved,
                    Some(name),
                    format!("`observed.{name}`: `{}` {}", quoted(&raw), predicate(name, &r.what)),
                )),
            }
        }
        (problems.len() == before).then_some(out)
    }

    fn read_trace(&self, t: &Json, problems: &mut Vec<Problem>) -> Option<Vec<(String, usize)>> {
        let w = self.writer();
        let bad = |what: String| Problem::new(Kind::BadTrace, Some("trace"), what);
        let Json::Array(entries) = t else {
            problems.push(bad("`trace` is not a list".into()));
            return None;
        };
        let mut out = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            let Json::Object(m) = e else {
                problems.push(bad(format!("`trace[{i}]` is not an object")));
                return None;
            };
            if let Some(k) = m.keys().find(|k| *k != "table" && *k != "row") {
                problems.push(bad(format!("`trace[{i}].{k}` is not a field of a trace entry (table, row)")));
                return None;
            }
            let (Some(Json::String(table)), Some(Json::Number(row))) = (m.get("table"), m.get("row")) else {
                problems.push(bad(format!("`trace[{i}]` needs a `table` (a name) and a `row` (a number)")));
                return None;
            };
            let Some(t) = w.tables.iter().find(|t| &t.name == table) else {
                problems.push(bad(format!("`trace[{i}]`: {} has no table `{table}`", w.name)));
                return None;
            };
            let n = json_number(row).and_then(|r| num::to_i64(&r)).filter(|&r| r >= 1 && r as usize <= t.rows.len());
            let Some(n) = n else {
                problems.push(bad(format!("`trace[{i}]`: table `{table}` has no row {row} (it has {})", t.rows.len())));
                return None;
            };
            out.push((table.clone(), n as usize));
        }
        Some(out)
    }
}
