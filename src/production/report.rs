//! The report verify, replay and diff share (formats.md "verify, replay, diff"): they differ
//! only in what the rule is compared against. "Ours" is the rule (for diff, the new
//! version); "theirs" is the counterpart — the adapter's answers, the records' `observed`,
//! the old version. A delta is ours − theirs, in the output's wire unit.
//!
//! Records that differ are grouped into clusters by the rows that fired: `{table,row}` for
//! verify and for replay of records without a trace; `{table,from,to}` for diff (the row of
//! the old version and of the new) and for replay of records that carry a trace (the
//! recorded row and the rule's). Records whose answer is the same but whose rows are not
//! are listed under `moved`, grouped the same way.
//!
//! The headline rate is matched / (compared + unanswered): a record the counterpart declares
//! it cannot answer is not compared and is in no cluster, but it counts as not matched, so
//! refusing the hard cases cannot raise the rate. Filled records are counted apart and kept
//! out of it; excluded records are counted by reason.

use super::values::{number_json, Plain};
use crate::eval::wire;
use crate::num::{self, Rat, RoundMode};
use crate::sema::*;
use num_traits::Signed;
use serde_json::{json, Map, Value as Json};
use std::collections::{BTreeMap, HashMap};

/// A record, as every report names it: its line and its tag together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordId {
    pub line: usize,
    pub tag: String,
}

/// The rows of one table in a record: the row that fired, or the transition between two.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RowKey {
    Fired { table: String, row: usize },
    Transition { table: String, from: Option<usize>, to: Option<usize> },
}

impl RowKey {
    fn to_json(&self) -> Json {
        match self {
            RowKey::Fired { table, row } => json!({"table": table, "row": row}),
            RowKey::Transition { table, from, to } => json!({"table": table, "from": from, "to": to}),
        }
    }
    fn text(&self) -> String {
        let row = |r: &Option<usize>| r.map_or("none".to_string(), |r| r.to_string());
        match self {
            RowKey::Fired { table, row } => format!("{table} row {row}"),
            RowKey::Transition { table, from, to } if from == to => format!("{table} row {}", row(to)),
            RowKey::Transition { table, from, to } => format!("{table} row {} → {}", row(from), row(to)),
        }
    }
    fn changed(&self) -> bool {
        matches!(self, RowKey::Transition { from, to, .. } if from != to)
    }
}

/// The transition of every table between two traces: the tables of `to`'s program in its
/// order, then those only `from` has.
pub fn transitions(to_tables: &[String], to: &[(String, usize)], from: &[(String, usize)]) -> Vec<RowKey> {
    let row_of = |trace: &[(String, usize)], t: &str| trace.iter().find(|(n, _)| n == t).map(|(_, r)| *r);
    let mut out: Vec<RowKey> = to_tables
        .iter()
        .map(|t| RowKey::Transition { table: t.clone(), from: row_of(from, t), to: row_of(to, t) })
        .collect();
    for (t, r) in from {
        if !to_tables.contains(t) {
            out.push(RowKey::Transition { table: t.clone(), from: Some(*r), to: None });
        }
    }
    out
}

/// One record compared.
pub struct Compared {
    pub id: RecordId,
    pub rows: Vec<RowKey>,
    /// The call as the rule read it (the `in` of the witness).
    pub input: Json,
    /// The call in the rule's notation (`weight = 11lb, …`), for the text.
    pub input_shown: String,
    /// Per output of the rule.
    pub ours: Vec<Plain>,
    pub theirs: Vec<Plain>,
}

/// `weight = 11lb, girth = 61in, …`: a call in the rule's notation.
pub fn inputs_shown(p: &Program, inputs: &[Value]) -> String {
    p.inputs
        .iter()
        .zip(inputs)
        .map(|(&v, x)| format!("{} = {}", p.vars[v].name, Plain::of(p, &p.vars[v], x).display(&p.vars[v])))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How one output moved over a cluster.
#[derive(Clone, Debug, Default)]
struct Delta {
    /// Numeric differences (ours − theirs, wire units).
    min: Option<Rat>,
    max: Option<Rat>,
    total: Rat,
    numeric: usize,
    /// Differences that are not two numbers (an enum, a boolean, none on one side).
    changed: usize,
    /// The first record's move, and whether every record moved the same way.
    first: Option<Move>,
    uniform: bool,
}

/// How an output moved in one record.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Move {
    Same,
    By(Rat),
    To(Plain, Plain),
}

struct Cluster {
    rows: Vec<RowKey>,
    count: usize,
    deltas: Vec<Delta>,
    witness: (Json, String, Vec<Plain>, Vec<Plain>),
    records: Vec<RecordId>,
    suspect_rounding: bool,
    /// verify: the smallest differing input it asked (inputs in declaration order).
    smallest: Option<(Json, String)>,
    /// verify: per input, the least and the greatest value among its differing inputs.
    region: Option<(Json, String)>,
}

struct Moved {
    rows: Vec<RowKey>,
    records: Vec<RecordId>,
}

/// The report, built one record at a time.
pub struct Report {
    outputs: Vec<Var>,
    /// What the text calls the two sides (the JSON keeps `ours` and `theirs`).
    sides: (&'static str, &'static str),
    pub counterpart: String,
    pub compared: usize,
    pub matched: usize,
    pub unanswered: usize,
    clusters: Vec<Cluster>,
    index: HashMap<Vec<RowKey>, usize>,
    moved: Vec<Moved>,
    moved_index: HashMap<Vec<RowKey>, usize>,
    pub excluded: BTreeMap<String, usize>,
    pub filled: usize,
    pub filled_matched: usize,
    filled_by_field: BTreeMap<String, usize>,
    defaults: Json,
    /// verify: how much of the declared domain was asked.
    pub reach: Option<super::reach::Reach>,
}

impl Report {
    /// A report on the outputs of `p` (the rule: ours).
    pub fn new(p: &Program, counterpart: &str, defaults: Json) -> Report {
        Report::over(p.outputs.iter().map(|&o| p.vars[o].clone()).collect(), counterpart, defaults)
    }

    /// A report on these outputs (of the rule: ours).
    pub fn over(outputs: Vec<Var>, counterpart: &str, defaults: Json) -> Report {
        Report {
            outputs,
            sides: ("ours", "theirs"),
            counterpart: counterpart.to_string(),
            compared: 0,
            matched: 0,
            unanswered: 0,
            clusters: Vec::new(),
            index: HashMap::new(),
            moved: Vec::new(),
            moved_index: HashMap::new(),
            excluded: BTreeMap::new(),
            filled: 0,
            filled_matched: 0,
            filled_by_field: BTreeMap::new(),
            defaults,
            reach: None,
        }
    }

    /// Name the two sides in the text (`new`, `old` for a diff).
    pub fn sides(mut self, ours: &'static str, theirs: &'static str) -> Report {
        self.sides = (ours, theirs);
        self
    }

    pub fn exclude(&mut self, reason: &str) {
        *self.excluded.entry(reason.to_string()).or_default() += 1;
    }

    /// A record that matched and whose rows, where it has two sides, did not change: what the
    /// fast path counts without building the record.
    pub fn matched_unchanged(&mut self) {
        self.compared += 1;
        self.matched += 1;
    }

    /// A filled record: compared, but kept out of the headline.
    pub fn add_filled(&mut self, c: &Compared, fields: &[String]) {
        self.filled += 1;
        for f in fields {
            *self.filled_by_field.entry(f.clone()).or_default() += 1;
        }
        if c.ours == c.theirs {
            self.filled_matched += 1;
        }
    }

    /// Name the smallest differing input of the cluster at `rows` (verify).
    pub fn smallest(&mut self, rows: &[RowKey], input: Json, shown: String) {
        if let Some(&i) = self.index.get(rows) {
            self.clusters[i].smallest = Some((input, shown));
        }
    }

    /// Name the region the cluster at `rows` covers: per input, the least and the greatest
    /// value among its differing inputs (verify).
    pub fn region(&mut self, p: &Program, rows: &[RowKey], lows: &[Value], highs: &[Value]) {
        let Some(&i) = self.index.get(rows) else { return };
        let mut json = Map::new();
        let mut text = Vec::new();
        for ((&v, lo), hi) in p.inputs.iter().zip(lows).zip(highs) {
            let var = &p.vars[v];
            json.insert(var.name.clone(), json!({"min": wire::to_wire(p, var, lo), "max": wire::to_wire(p, var, hi)}));
            let (a, b) = (Plain::of(p, var, lo).display(var), Plain::of(p, var, hi).display(var));
            text.push(if a == b { format!("{} = {a}", var.name) } else { format!("{} {a}..{b}", var.name) });
        }
        self.clusters[i].region = Some((Json::Object(json), text.join(", ")));
    }

    pub fn add(&mut self, c: Compared) {
        self.compared += 1;
        if c.ours == c.theirs {
            self.matched += 1;
            if c.rows.iter().any(RowKey::changed) {
                let i = *self.moved_index.entry(c.rows.clone()).or_insert_with(|| {
                    self.moved.push(Moved { rows: c.rows.clone(), records: Vec::new() });
                    self.moved.len() - 1
                });
                self.moved[i].records.push(c.id);
            }
            return;
        }
        let suspect = self.rounding_only(&c.ours, &c.theirs);
        let i = match self.index.get(&c.rows) {
            Some(&i) => i,
            None => {
                self.clusters.push(Cluster {
                    rows: c.rows.clone(),
                    count: 0,
                    deltas: vec![Delta { uniform: true, ..Delta::default() }; self.outputs.len()],
                    witness: (c.input.clone(), c.input_shown.clone(), c.ours.clone(), c.theirs.clone()),
                    records: Vec::new(),
                    suspect_rounding: true,
                    smallest: None,
                    region: None,
                });
                self.index.insert(c.rows.clone(), self.clusters.len() - 1);
                self.clusters.len() - 1
            }
        };
        let outputs = &self.outputs;
        let cl = &mut self.clusters[i];
        cl.count += 1;
        cl.suspect_rounding &= suspect;
        for (k, (o, t)) in c.ours.iter().zip(&c.theirs).enumerate() {
            let d = &mut cl.deltas[k];
            let mv = match (o.number(), t.number()) {
                _ if o == t => Move::Same,
                (Some(a), Some(b)) => Move::By((a - b) / outputs[k].ty.factor()),
                _ => Move::To(t.clone(), o.clone()),
            };
            match &d.first {
                None => d.first = Some(mv.clone()),
                Some(f) if *f != mv => d.uniform = false,
                Some(_) => {}
            }
            match mv {
                Move::Same => {}
                Move::By(x) => {
                    d.numeric += 1;
                    d.total += &x;
                    if d.min.as_ref().is_none_or(|m| &x < m) {
                        d.min = Some(x.clone());
                    }
                    if d.max.as_ref().is_none_or(|m| &x > m) {
                        d.max = Some(x);
                    }
                }
                Move::To(..) => d.changed += 1,
            }
        }
        cl.records.push(c.id);
    }

    /// Every output that differs differs by less than its own rounding grid.
    fn rounding_only(&self, ours: &[Plain], theirs: &[Plain]) -> bool {
        self.outputs.iter().zip(ours.iter().zip(theirs)).all(|(var, (o, t))| {
            if o == t {
                return true;
            }
            match (&var.rounding, o.number(), t.number()) {
                (Some(r), Some(a), Some(b)) => (a - b).abs() < r.grid,
                _ => false,
            }
        })
    }

    /// matched / compared; none when nothing was compared. A record the counterpart did not
    /// answer leaves the denominator (formats.md, the adapter protocol, point 4): it is
    /// counted `unanswered`, and a run with any fails however high the rate.
    pub fn rate(&self) -> Option<Rat> {
        (self.compared > 0).then(|| Rat::new((self.matched as i64).into(), (self.compared as i64).into()))
    }

    /// Why nothing was compared, for a report that compared nothing: every record was
    /// filled (compared, but kept out of the headline), unanswered, or excluded.
    pub fn why_nothing(&self) -> &'static str {
        match (self.filled > 0, self.unanswered > 0) {
            (true, false) => "every record was filled from the defaults (see Filled below)",
            (false, true) => "the counterpart answered no record",
            (true, true) => "every record was filled from the defaults or left unanswered",
            (false, false) => "every record was excluded",
        }
    }

    /// Whether anything was compared, or asked of the counterpart.
    pub fn compared_anything(&self) -> bool {
        self.compared + self.unanswered > 0
    }

    /// Whether every record compared matched and none was left unanswered.
    pub fn all_matched(&self) -> bool {
        self.compared_anything() && self.matched == self.compared && self.unanswered == 0
    }

    fn ordered(&self) -> Vec<&Cluster> {
        let mut cs: Vec<&Cluster> = self.clusters.iter().collect();
        cs.sort_by(|a, b| b.count.cmp(&a.count).then(a.records[0].line.cmp(&b.records[0].line)));
        cs
    }

    fn outputs_json(&self, vals: &[Plain]) -> Json {
        let mut m = Map::new();
        for (var, v) in self.outputs.iter().zip(vals) {
            m.insert(var.name.clone(), v.wire(var));
        }
        Json::Object(m)
    }

    pub fn to_json(&self) -> Json {
        let records = |rs: &[RecordId]| -> Json {
            Json::Array(rs.iter().map(|r| json!({"line": r.line, "tag": r.tag})).collect())
        };
        let clusters: Vec<Json> = self
            .ordered()
            .into_iter()
            .map(|c| {
                let mut delta = Map::new();
                for (var, d) in self.outputs.iter().zip(&c.deltas) {
                    if d.numeric + d.changed == 0 {
                        continue;
                    }
                    let mut e = Map::new();
                    if d.numeric > 0 {
                        e.insert("min".into(), number_json(d.min.as_ref().expect("a numeric difference")));
                        e.insert("max".into(), number_json(d.max.as_ref().expect("a numeric difference")));
                    }
                    e.insert("uniform".into(), json!(d.uniform));
                    if d.numeric > 0 {
                        e.insert("total".into(), number_json(&d.total));
                    }
                    if d.changed > 0 {
                        e.insert("changed".into(), json!(d.changed));
                    }
                    delta.insert(var.name.clone(), Json::Object(e));
                }
                let (input, _, ours, theirs) = &c.witness;
                let mut cluster = json!({"rows": c.rows.iter().map(RowKey::to_json).collect::<Vec<_>>(), "count": c.count,
                       "delta": delta,
                       "witness": {"in": input, "ours": self.outputs_json(ours), "theirs": self.outputs_json(theirs)},
                       "records": records(&c.records), "suspect_rounding": c.suspect_rounding});
                if let Some((least, _)) = &c.smallest {
                    cluster["smallest"] = json!({"in": least});
                }
                if let Some((region, _)) = &c.region {
                    cluster["region"] = region.clone();
                }
                cluster
            })
            .collect();
        let moved: Vec<Json> = self
            .moved
            .iter()
            .map(|m| {
                json!({"rows": m.rows.iter().map(RowKey::to_json).collect::<Vec<_>>(), "count": m.records.len(),
                       "records": records(&m.records)})
            })
            .collect();
        let mut report = json!({"compared": self.compared, "matched": self.matched,
               "rate": self.rate().map_or(Json::Null, |r| number_json(&num::round_to_grid(&r, RoundMode::HalfEven, &Rat::new(1.into(), 1_000_000.into())))),
               "counterpart": self.counterpart, "unanswered": self.unanswered,
               "clusters": clusters, "moved": moved,
               "excluded": self.excluded,
               "filled": {"count": self.filled, "matched": self.filled_matched, "by_field": self.filled_by_field, "defaults": self.defaults},
               "cases": null});
        if let Some(r) = &self.reach {
            report["reach"] = r.to_json();
        }
        report
    }

    /// For people: the summary line, the counterpart, then one line per cluster.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let pct = |r: &Rat| {
            num::to_decimal_string(&num::round_to_grid(
                &(r * num::int(100)),
                RoundMode::HalfEven,
                &Rat::new(1.into(), 1000.into()),
            ))
        };
        let pct = |r: &Rat| {
            // Always three decimals: 90.625%, 100.000%.
            let t = pct(r);
            let (i, f) = t.split_once('.').unwrap_or((&t, ""));
            format!("{i}.{f:0<3}%")
        };
        match self.rate() {
            None => s.push_str(&format!("Compared nothing: {}\n", self.why_nothing())),
            Some(r) => s.push_str(&format!("Compared {} / matched {} ({})\n", self.compared, self.matched, pct(&r))),
        }
        if self.unanswered > 0 {
            s.push_str(&format!(
                "Unanswered {} (the counterpart answered err; kept out of the rate, and the run fails)\n",
                self.unanswered
            ));
        }
        s.push_str(&format!("Counterpart: {}\n", self.counterpart));
        if let Some(r) = &self.reach {
            s.push_str(&r.text());
        }
        for c in self.ordered() {
            let rows: Vec<String> = c.rows.iter().map(RowKey::text).collect();
            let mut moved: Vec<String> = Vec::new();
            for (var, d) in self.outputs.iter().zip(&c.deltas) {
                if d.numeric + d.changed == 0 {
                    continue;
                }
                let sign = |x: &Rat| {
                    let t = num::to_decimal_string(x);
                    if x.is_positive() {
                        format!("+{t}")
                    } else {
                        t
                    }
                };
                moved.push(match (d.numeric > 0 && d.changed == 0, d.uniform) {
                    (true, true) => format!("{} {} each", var.name, sign(d.min.as_ref().expect("numeric"))),
                    (true, false) => format!(
                        "{} {}..{} (total {})",
                        var.name,
                        sign(d.min.as_ref().expect("numeric")),
                        sign(d.max.as_ref().expect("numeric")),
                        sign(&d.total)
                    ),
                    (false, _) => format!("{} changed", var.name),
                });
            }
            let (_, shown, ours, theirs) = &c.witness;
            let at = |vals: &[Plain]| -> String {
                self.outputs
                    .iter()
                    .zip(vals)
                    .map(|(var, v)| format!("{} = {}", var.name, v.display(var)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let lines: Vec<String> = c
                .records
                .iter()
                .take(10)
                .map(|r| if r.tag.is_empty() { r.line.to_string() } else { format!("{} ({})", r.line, r.tag) })
                .collect();
            let more = if c.records.len() > 10 { format!(" and {} more", c.records.len() - 10) } else { String::new() };
            // A rule with no table clusters every record by no row: its defines alone moved.
            let fired =
                if rows.is_empty() { "decided by no table".to_string() } else { format!("at {}", rows.join(", ")) };
            s.push_str(&format!(
                "{} record{} {fired}: {}{}; e.g. {shown}: {} {}, {} {}; line{} {}{more}\n",
                c.count,
                super::lint::plural(c.count),
                moved.join(", "),
                if c.suspect_rounding {
                    " (suspect rounding: every difference is under the output's grid)"
                } else {
                    ""
                },
                self.sides.0,
                at(ours),
                self.sides.1,
                at(theirs),
                super::lint::plural(c.records.len()),
                lines.join(", ")
            ));
            if let Some((_, least)) = &c.smallest {
                s.pop();
                s.push_str(&format!("; smallest differing input {least}\n"));
            }
            if let Some((_, region)) = &c.region {
                s.pop();
                s.push_str(&format!("; its differing inputs lie in {region}\n"));
            }
        }
        for m in &self.moved {
            let rows: Vec<String> = m.rows.iter().filter(|r| r.changed()).map(RowKey::text).collect();
            s.push_str(&format!(
                "Moved without a different answer: {} record{} at {}\n",
                m.records.len(),
                super::lint::plural(m.records.len()),
                rows.join(", ")
            ));
        }
        if !self.excluded.is_empty() {
            let n: usize = self.excluded.values().sum();
            let by: Vec<String> = self.excluded.iter().map(|(k, v)| format!("{k} {v}")).collect();
            s.push_str(&format!("Excluded {n}: {}\n", by.join(", ")));
        }
        if self.filled > 0 {
            let by: Vec<String> = self.filled_by_field.iter().map(|(k, v)| format!("{k} {v}")).collect();
            s.push_str(&format!(
                "Filled {} (kept out of the rate; {} matched): {} — defaults {}\n",
                self.filled,
                self.filled_matched,
                by.join(", "),
                self.defaults
            ));
        }
        s
    }
}
