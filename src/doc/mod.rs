//! `rulec doc` (formats.md, `doc`): the rule for people. One document model, built once per
//! audience, rendered as markdown or as HTML — the HTML page is that same document with the
//! board on top of it ([`page`]), so the page without JavaScript is the document.
//!
//! The approver's document (the default) says what the rule decides, its inputs in plain
//! words with units and ranges, every table with a `#` column and "column / where it comes
//! from" under it, the rounding as sentences, what `rulec check` verified with the
//! certificate's figures, and the boundary pairs of `rulec vectors`. The customer's article
//! keeps the inputs, the tables in plain words, the rounding and the cases on either side of
//! every threshold, and leaves out aliases, ranges, codes and the evidence.

pub mod html;
pub mod page;
mod page_rows;
mod walks;
pub mod words;

use crate::analysis::tables::cover::Asked;
use crate::analysis::tables::TableProof;
use crate::gen::Unit;
use crate::graph::{self, DeciderRef};
use crate::num::Rat;
use crate::sema::*;
use crate::vectors::{Pair, Suite};
pub use page::{page, page_file};
use std::collections::BTreeSet;
pub use words::Audience;

/// A run of text inside a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    /// A name or a cell as the rule writes it.
    Code(String),
    Strong(String),
}

pub type Line = Vec<Inline>;

pub fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

pub fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

pub fn strong(s: impl Into<String>) -> Inline {
    Inline::Strong(s.into())
}

/// What a table of the document is: the page finds a decision table's rows by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// A rule's table: each row carries its number, the columns from `results` on are results.
    Decision {
        table: String,
        results: usize,
        numbered: bool,
    },
    /// "column / where it comes from".
    WhereFrom,
    Plain,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub kind: TableKind,
    pub head: Vec<Line>,
    pub rows: Vec<TableRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    pub cells: Vec<Line>,
    /// The row's number in the rule (decision tables).
    pub number: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Heading {
        level: u8,
        id: String,
        text: Line,
    },
    Para(Line),
    List(Vec<Line>),
    Table(Table),
    /// A stretch of the document the page moves onto the board: `card` is a decider's
    /// card body, `dock` what the dock shows when that card is selected.
    Part {
        key: PartKey,
        blocks: Vec<Block>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartKey {
    pub slot: &'static str,
    /// The decider's id on the board: `table:size_of`, `define:surcharge`.
    pub decider: String,
}

/// The document: a title and its blocks.
#[derive(Clone, Debug)]
pub struct Doc {
    pub title: String,
    pub blocks: Vec<Block>,
}

/// The id of a decider on the board and in the document.
pub fn decider_id(p: &Program, d: DeciderRef) -> String {
    format!("{}:{}", d.kind(), d.name(p))
}

/// The anchor of a heading: ASCII letters and digits kept, the rest `-`.
fn anchor(parts: &[&str]) -> String {
    let mut s = String::new();
    for part in parts {
        if !s.is_empty() {
            s.push('-');
        }
        for c in part.chars() {
            if c.is_ascii_alphanumeric() {
                s.push(c.to_ascii_lowercase());
            } else if c == '_' || c == '-' {
                s.push(c);
            } else {
                s.push_str(&format!("u{:x}", c as u32));
            }
        }
    }
    s
}

/// What the documents of one rule are made from.
pub struct Rule<'a> {
    pub u: &'a Unit<'a>,
    pub p: &'a Program,
    pub graph: graph::Graph,
    pub layout: Vec<graph::Placed>,
    pub suite: &'a Suite,
}

impl<'a> Rule<'a> {
    pub fn new(u: &'a Unit<'a>) -> Rule<'a> {
        let p = u.program;
        let g = graph::build(p);
        let layout = graph::layout(p, &g);
        Rule { u, p, graph: g, layout, suite: u.suite() }
    }

    /// A span of the rule file, as written.
    fn src(&self, s: crate::source::Span) -> &str {
        self.u.text.get(s.range()).unwrap_or("")
    }

    fn var(&self, v: VarId) -> &Var {
        &self.p.vars[v]
    }

    /// A declared name, with its alias beside it for the approver.
    fn name_with_alias(&self, var: &Var, audience: Audience) -> Line {
        let mut l = vec![code(&var.name)];
        if let (Some(a), Audience::Approver) = (&var.alias, audience) {
            l.push(text(format!(" ({a})")));
        }
        l
    }

    fn title(&self, audience: Audience) -> String {
        match (&self.p.alias, audience) {
            (Some(a), Audience::Approver) => format!("{} ({a})", self.p.name),
            _ => self.p.name.clone(),
        }
    }

    /// The first answered case of the suite: where the page opens.
    pub fn first_case(&self) -> Option<&serde_json::Value> {
        self.suite.vectors.iter().find(|v| matches!(v.answer, crate::vectors::Answer::Record { .. })).map(|v| &v.input)
    }

    fn proof(&self, t: usize) -> Option<&TableProof> {
        self.u.analysis.tables.iter().find(|x| x.table == t)
    }
}

/// The document of a rule for an audience.
pub fn document(r: &Rule, audience: Audience) -> Doc {
    let mut b = Vec::new();
    match audience {
        Audience::Approver => approver(r, &mut b),
        Audience::Customer => customer(r, &mut b),
    }
    Doc { title: r.title(audience), blocks: b }
}

fn h(level: u8, id: &str, line: Line) -> Block {
    Block::Heading { level, id: id.into(), text: line }
}

fn approver(r: &Rule, b: &mut Vec<Block>) {
    let p = r.p;
    b.push(h(1, "rule", vec![text(r.title(Audience::Approver))]));
    if let Some(about) = &p.about {
        b.push(Block::Para(vec![text(about)]));
    }
    let outputs: Vec<String> = p.outputs.iter().map(|&o| r.var(o).name.clone()).collect();
    let mut decides = vec![text("It decides ")];
    for (i, o) in outputs.iter().enumerate() {
        if i > 0 {
            decides.push(text(if i + 1 == outputs.len() { " and " } else { ", " }));
        }
        decides.push(code(o));
    }
    decides.push(text(format!(
        ". Rule {} version {}, from {} (sha256 {}).",
        p.name,
        p.version,
        r.u.source_name,
        &r.u.sha256[..16.min(r.u.sha256.len())]
    )));
    b.push(Block::Para(decides));

    b.push(h(2, "inputs", vec![text("Inputs")]));
    let rows = p
        .inputs
        .iter()
        .map(|&v| {
            let var = r.var(v);
            let mut what = words::var_words(p, var, Audience::Approver);
            if var.optional {
                what.push_str("; may be left out (none)");
            }
            TableRow {
                cells: vec![
                    r.name_with_alias(var, Audience::Approver),
                    vec![text(what)],
                    vec![text(words::unit_column(&var.ty))],
                    vec![text(words::range_words(p, var).unwrap_or_default())],
                ],
                number: None,
            }
        })
        .collect();
    b.push(Block::Table(Table {
        kind: TableKind::Plain,
        head: ["input", "what it is", "unit", "range"].iter().map(|s| vec![text(*s)]).collect(),
        rows,
    }));
    for g in &p.groups {
        let values: Vec<String> =
            g.values.iter().map(|&i| words::enum_value(p, g.enum_id, i, Audience::Approver)).collect();
        b.push(Block::Para(vec![
            text("The group "),
            code(&g.name),
            text(format!(" of {} is {}.", p.enums[g.enum_id].name, words::listed(&values, "and"))),
        ]));
    }
    if !p.constraints.is_empty() {
        let mut items = Vec::new();
        for c in &p.constraints {
            items.push(vec![code(&c.text)]);
        }
        b.push(Block::Para(vec![text(
            "Every call must also satisfy these; a call that does not is turned away with no answer:",
        )]));
        b.push(Block::List(items));
    }

    walks::sequences_section(r, Audience::Approver, b);
    b.push(h(2, "outputs", vec![text("Outputs")]));
    let rows = p
        .outputs
        .iter()
        .map(|&v| {
            let var = r.var(v);
            let rounding = var
                .rounding
                .as_ref()
                .map(|rd| words::round_words(rd.mode, &words::amount(&var.ty, &rd.grid)))
                .unwrap_or_default();
            let by = match graph::decider_of(p, v) {
                Some(d) => vec![text(format!("{} ", d.kind())), code(d.name(p))],
                None => Vec::new(),
            };
            let mut what = words::var_words(p, var, Audience::Approver);
            if var.optional {
                what.push_str("; may be none");
            }
            TableRow {
                cells: vec![
                    r.name_with_alias(var, Audience::Approver),
                    vec![text(what)],
                    vec![text(words::unit_column(&var.ty))],
                    vec![text(match (words::range_words(p, var), proven_narrower(r, v)) {
                        (Some(declared), Some((lo, hi))) => format!(
                            "{declared} (declared, what callers are promised; the rows give {lo} to {hi}, see \u{201c}What rulec check verified\u{201d})"
                        ),
                        (declared, _) => declared.unwrap_or_default(),
                    })],
                    vec![text(rounding)],
                    by,
                ],
                number: None,
            }
        })
        .collect();
    b.push(Block::Table(Table {
        kind: TableKind::Plain,
        head: ["output", "what it is", "unit", "range", "rounding", "decided by"]
            .iter()
            .map(|s| vec![text(*s)])
            .collect(),
        rows,
    }));

    b.push(h(2, "decided", vec![text("How each value is decided")]));
    b.push(Block::Para(vec![text(
        "Every table and define below is evaluated in one call; each reads the inputs and the values \
         decided by the ones it names under \u{201c}where it comes from\u{201d}.",
    )]));
    for placed in &r.layout {
        decider_section(r, placed.decider, Audience::Approver, b);
    }

    rounding_section(r, Audience::Approver, b);
    verified_section(r, b);
    cases_section(r, Audience::Approver, b);
}

fn customer(r: &Rule, b: &mut Vec<Block>) {
    let p = r.p;
    b.push(h(1, "rule", vec![text(r.title(Audience::Customer))]));
    if let Some(about) = &p.about {
        b.push(Block::Para(vec![text(about)]));
    }
    b.push(h(2, "inputs", vec![text("What it depends on")]));
    let items = p
        .inputs
        .iter()
        .map(|&v| {
            let var = r.var(v);
            let mut what = words::var_words(p, var, Audience::Customer);
            if var.optional {
                what.push_str(" (you may leave it out)");
            }
            vec![strong(&var.name), text(format!(": {what}"))]
        })
        .collect();
    b.push(Block::List(items));
    if !p.constraints.is_empty() {
        let mut l = vec![text("It answers only when ")];
        for (i, c) in p.constraints.iter().enumerate() {
            if i > 0 {
                l.push(text(if i + 1 == p.constraints.len() { " and " } else { ", " }));
            }
            l.push(code(&c.text));
        }
        l.push(text("."));
        b.push(Block::Para(l));
    }
    walks::sequences_section(r, Audience::Customer, b);
    b.push(h(2, "outputs", vec![text("What it gives")]));
    let items = p
        .outputs
        .iter()
        .map(|&v| {
            let var = r.var(v);
            vec![strong(&var.name), text(format!(": {}", words::var_words(p, var, Audience::Customer)))]
        })
        .collect();
    b.push(Block::List(items));
    b.push(h(2, "decided", vec![text("How it is worked out")]));
    for placed in &r.layout {
        decider_section(r, placed.decider, Audience::Customer, b);
    }
    rounding_section(r, Audience::Customer, b);
    cases_section(r, Audience::Customer, b);
}

/// One decider's section: the table (or the define's expression) in a card part, and for
/// the approver "column / where it comes from" and what check verified in a dock part.
fn decider_section(r: &Rule, d: DeciderRef, audience: Audience, b: &mut Vec<Block>) {
    let p = r.p;
    let id = decider_id(p, d);
    let name = d.name(p).to_string();
    let decides: Vec<VarId> = d.decides(p);
    let mut card = Vec::new();
    match d {
        DeciderRef::Table(t) => {
            let table = &p.tables[t];
            let heading = match audience {
                Audience::Approver => {
                    let mut l = vec![text("Table "), code(&name), text(" decides ")];
                    for (i, &v) in decides.iter().enumerate() {
                        if i > 0 {
                            l.push(text(", "));
                        }
                        l.push(code(&r.var(v).name));
                    }
                    l
                }
                Audience::Customer => {
                    let names: Vec<String> = decides.iter().map(|&v| r.var(v).name.clone()).collect();
                    vec![text(format!("How {} is decided", words::listed(&names, "and")))]
                }
            };
            b.push(h(3, &anchor(&["table", &name]), heading));
            let policy = match audience {
                Audience::Approver => vec![
                    text(words::policy_words(&table.policy, audience).trim_end_matches('.')),
                    text(" (policy "),
                    code(table.policy.as_str()),
                    text(")."),
                ],
                Audience::Customer => vec![text(words::policy_words(&table.policy, audience))],
            };
            card.push(Block::Para(policy));
            card.push(Block::Table(decision_table(r, t, audience)));
        }
        DeciderRef::Define(def) => {
            let var = r.var(p.defines[def].var);
            let heading = match audience {
                Audience::Approver => vec![text("Define "), code(&name)],
                Audience::Customer => vec![text(format!("How {name} is worked out"))],
            };
            b.push(h(3, &anchor(&["define", &name]), heading));
            card.push(Block::Para(vec![code(format!("{name} = {}", r.src(p.defines[def].expr.span)))]));
            let mut what = words::var_words(p, var, audience);
            if let (Some(range), Audience::Approver) = (words::range_words(p, var), audience) {
                what.push_str(&format!(", {range}"));
            }
            card.push(Block::Para(vec![text(format!("{}{}.", capitalized(&what), declared_note(var, audience)))]));
        }
        DeciderRef::Summary(_) | DeciderRef::Fold(_) => {
            let (heading, blocks) = walks::card(r, d, audience);
            b.push(h(3, &anchor(&[d.kind(), &name]), heading));
            card.extend(blocks);
        }
    }
    card.extend(walks::per_element_note(r, d));
    if audience == Audience::Customer {
        b.extend(card);
        return;
    }
    b.push(Block::Part { key: PartKey { slot: "card", decider: id.clone() }, blocks: card });
    let mut dock = vec![Block::Table(where_from(r, d))];
    dock.push(Block::Para(vec![strong("Verified")]));
    dock.push(Block::List(verified_lines(r, d)));
    b.push(Block::Part { key: PartKey { slot: "dock", decider: id }, blocks: dock });
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn declared_note(var: &Var, audience: Audience) -> &'static str {
    match (var.kind, audience) {
        (VarKind::Output, Audience::Approver) => "; an output of the rule",
        _ => "",
    }
}

/// A rule's table as the document shows it: a `#` column for the approver, the cells as
/// written (the approver) or in plain words (the customer).
fn decision_table(r: &Rule, t: usize, audience: Audience) -> Table {
    let p = r.p;
    let table = &p.tables[t];
    let mut head: Vec<Line> = Vec::new();
    if audience == Audience::Approver {
        head.push(vec![text("#")]);
    }
    for &c in &table.conds {
        head.push(vec![text(&r.var(c).name)]);
    }
    for &v in &table.results {
        head.push(vec![text(&r.var(v).name)]);
    }
    let ncond = table.conds.len();
    let rows = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut cells: Vec<Line> = Vec::new();
            if audience == Audience::Approver {
                cells.push(vec![text((i + 1).to_string())]);
            }
            for (ci, cond) in row.conds.iter().enumerate() {
                let cell = match audience {
                    Audience::Approver => vec![code(r.src(row.cell_spans[ci]))],
                    Audience::Customer => vec![text(words::cell_words(p, r.var(table.conds[ci]), cond, audience))],
                };
                cells.push(cell);
            }
            for (ri, res) in row.results.iter().enumerate() {
                let written = r.src(row.cell_spans[ncond + ri]);
                let var = r.var(table.results[ri]);
                let cell = match (audience, res) {
                    (Audience::Approver, _) => vec![code(written)],
                    (Audience::Customer, None) => vec![text(words::value_words(p, &var.ty, &Value::None, audience))],
                    (Audience::Customer, Some(e)) => match &e.kind {
                        TExprKind::Const(v) => vec![text(words::value_words(p, &var.ty, v, audience))],
                        _ => vec![code(written)],
                    },
                };
                cells.push(cell);
            }
            TableRow { cells, number: Some(i + 1) }
        })
        .collect();
    let results = head.len() - table.results.len();
    let numbered = audience == Audience::Approver;
    Table { kind: TableKind::Decision { table: table.name.clone(), results, numbered }, head, rows }
}

/// "column / where it comes from": every value the decider reads, and what it decides.
fn where_from(r: &Rule, d: DeciderRef) -> Table {
    let p = r.p;
    let decides = d.decides(p);
    let mut read: Vec<VarId> = Vec::new();
    for &to in &decides {
        for v in graph::reads(p, d, to) {
            if !read.contains(&v) {
                read.push(v);
            }
        }
    }
    let mut rows = Vec::new();
    for &v in &read {
        let var = r.var(v);
        let from = match graph::decider_of(p, v) {
            None if var.kind == VarKind::Element => walks::from_words(r, v).unwrap_or_default(),
            None => {
                let optional = if var.optional { "; may be left out" } else { "" };
                vec![text(format!("input: {}{optional}", words::var_words(p, var, Audience::Approver)))]
            }
            Some(DeciderRef::Table(t)) => vec![text("decided by table "), code(&p.tables[t].name)],
            Some(DeciderRef::Define(def)) => {
                vec![text("define: "), code(format!("{} = {}", var.name, r.src(p.defines[def].expr.span)))]
            }
            Some(d @ (DeciderRef::Summary(_) | DeciderRef::Fold(_))) => {
                let mut l = vec![text(format!("{}: ", d.kind()))];
                l.extend(walks::decider_words(r, d));
                l
            }
        };
        rows.push(TableRow { cells: vec![vec![code(&var.name)], from], number: None });
    }
    for &v in &decides {
        let var = r.var(v);
        let mut what = format!("decided here: {}", words::var_words(p, var, Audience::Approver));
        if var.kind == VarKind::Output {
            what.push_str("; an output of the rule");
        }
        rows.push(TableRow { cells: vec![vec![code(&var.name)], vec![text(what)]], number: None });
    }
    Table { kind: TableKind::WhereFrom, head: vec![vec![text("column")], vec![text("where it comes from")]], rows }
}

/// What the table's proof holds, in the certificate's terms (`rulec certificate` writes
/// the same proof; `proofs/recheck.py` counts the same figures from it).
pub struct TableFigures {
    pub policy: &'static str,
    pub rows: usize,
    /// Leaves of the cover tree: boxes of the table's columns that tile every call.
    pub boxes: usize,
    /// Boxes no call the rule accepts falls in (refuted).
    pub refuted_boxes: usize,
    pub pairs: usize,
    /// Pairs of rows no box holds together.
    pub disjoint: usize,
    /// Pairs that share a box no accepted call reaches.
    pub refuted_pairs: usize,
    /// Pairs neither parted nor shown to meet (W114): guarded at run time.
    pub undecided: usize,
    /// Under `any`, pairs that meet and agree.
    pub meeting: usize,
    pub reached: usize,
    /// Rows whose reach point comes with a call the reference evaluator confirmed.
    pub witnessed: usize,
}

pub fn table_figures(t: &TableProof) -> TableFigures {
    let n = t.rows.len();
    let mut together = BTreeSet::new();
    let mut refuted_boxes = 0;
    for leaf in &t.cover.leaves {
        if matches!(leaf.asked, Asked::No(_)) {
            refuted_boxes += 1;
        }
        for (i, &a) in leaf.rows.iter().enumerate() {
            for &b in &leaf.rows[i + 1..] {
                together.insert((a.min(b), a.max(b)));
            }
        }
    }
    let pairs = n * n.saturating_sub(1) / 2;
    TableFigures {
        policy: t.policy.as_str(),
        rows: n,
        boxes: t.cover.leaves.len(),
        refuted_boxes,
        pairs,
        disjoint: pairs - together.len(),
        refuted_pairs: t.refuted.len(),
        undecided: t.undecided.len(),
        meeting: t.meeting.len(),
        reached: t.reach.iter().filter(|x| x.is_some()).count(),
        witnessed: t.reach.iter().filter(|x| x.as_ref().is_some_and(|re| re.witness.is_some())).count(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", words::grouped(&n.to_string()), if n == 1 { one } else { many })
}

/// The lines of what check verified about one decider.
fn verified_lines(r: &Rule, d: DeciderRef) -> Vec<Line> {
    let p = r.p;
    let mut out = Vec::new();
    if let DeciderRef::Table(t) = d {
        let Some(proof) = r.proof(t) else { return out };
        let f = table_figures(proof);
        let covered = f.boxes - f.refuted_boxes;
        let mut complete = format!(
            "complete: the columns' values fall into {}, {} answered by a row",
            plural(f.boxes, "combination", "combinations"),
            words::grouped(&covered.to_string())
        );
        if f.refuted_boxes > 0 {
            complete.push_str(&format!(
                " and {} that no accepted call can reach",
                words::grouped(&f.refuted_boxes.to_string())
            ));
        }
        out.push(vec![text(complete)]);
        match proof.policy {
            crate::syntax::ast::Policy::First => out.push(vec![text(format!(
                "in order: of {} of one row with another, {} never take the same call; where two rows do, the first one written decides",
                plural(f.pairs, "comparison", "comparisons"),
                words::grouped(&(f.disjoint + f.refuted_pairs).to_string())
            ))]),
            crate::syntax::ast::Policy::Priority => out.push(vec![text(format!(
                "by priority: of {} of one row with another, {} never take the same call; where two rows do, the one whose result is listed first decides",
                plural(f.pairs, "comparison", "comparisons"),
                words::grouped(&(f.disjoint + f.refuted_pairs).to_string())
            ))]),
            crate::syntax::ast::Policy::Any => out.push(vec![text(format!(
                "agree: of {} of one row with another, {} differ on some column; where two rows can take the same call ({}), they give the same answer",
                plural(f.pairs, "comparison", "comparisons"),
                words::grouped(&f.disjoint.to_string()),
                plural(f.pairs - f.disjoint, "time", "times")
            ))]),
            _ => {
                let mut apart = format!(
                    "exclusive: of {} of one row with another, {} differ on some column",
                    plural(f.pairs, "comparison", "comparisons"),
                    words::grouped(&f.disjoint.to_string())
                );
                if f.refuted_pairs > 0 {
                    apart.push_str(&format!(
                        ", {} more could take only calls the rule turns away",
                        words::grouped(&f.refuted_pairs.to_string())
                    ));
                }
                if f.meeting > 0 {
                    apart.push_str(&format!(", {} meet and agree", words::grouped(&f.meeting.to_string())));
                }
                out.push(vec![text(apart)]);
            }
        }
        if f.undecided > 0 {
            out.push(vec![text(format!(
                "{} two rows could not be shown never to take the same call; the generated code checks {} on every call",
                if f.undecided == 1 { "once".to_string() } else { format!("{} times", words::grouped(&f.undecided.to_string())) },
                if f.undecided == 1 { "them" } else { "each of them" }
            ))]);
        }
        out.push(vec![text(format!(
            "reached: {} of {} rows answer some call, {} of them with a call the reference evaluator confirmed",
            words::grouped(&f.reached.to_string()),
            words::grouped(&f.rows.to_string()),
            words::grouped(&f.witnessed.to_string())
        ))]);
    }
    for v in d.decides(p) {
        match value_line(r, v) {
            Some(line) => out.push(line),
            None if matches!(d, DeciderRef::Define(_)) => out.push(vec![
                code(&r.var(v).name),
                text(format!(
                    " is {}: nothing to bound, nothing to overflow",
                    words::type_words(p, &r.var(v).ty, Audience::Approver)
                )),
            ]),
            None => {}
        }
    }
    out
}

/// The interval check proved for a value, as its two ends are written in words, when it
/// is narrower than the value's declared range (a claim the rule keeps with room to spare).
fn proven_narrower(r: &Rule, v: VarId) -> Option<(String, String)> {
    let var = r.var(v);
    let Some((Value::Num(lo), Value::Num(hi))) = &var.range else { return None };
    if var.ty == Ty::Date {
        return None;
    }
    let entry = r.u.analysis.values.values.iter().find(|e| e.of.is_none() && e.name == var.name)?;
    let (a, b) = (crate::num::parse_decimal(&entry.interval.0)?, crate::num::parse_decimal(&entry.interval.1)?);
    let factor = var.ty.factor();
    let (a, b) = (a * &factor, b * &factor);
    (a > *lo || b < *hi).then(|| (words::amount(&var.ty, &a), words::amount(&var.ty, &b)))
}

/// Why a declared range is wider than what the rows give.
fn why_wider(r: &Rule, v: VarId) -> Option<String> {
    let declared = words::range_words(r.p, r.var(v))?;
    proven_narrower(r, v)?;
    let promise =
        if r.var(v).kind == VarKind::Output { "what callers are promised" } else { "the bound the rule's author set" };
    Some(format!(
        "its declared range, {declared}, is wider: that is {promise}, and the rows as written stay inside it with room to spare"
    ))
}

/// int64: the value's proven interval and the largest integers the code holds for it.
fn value_line(r: &Rule, v: VarId) -> Option<Line> {
    let var = r.var(v);
    let entries = &r.u.analysis.values.values;
    let entry = entries.iter().find(|e| e.of.is_none() && e.name == var.name)?;
    let on_the_way = entries
        .iter()
        .filter(|e| e.name == var.name || e.of.as_deref() == Some(&var.name))
        .flat_map(|e| e.intermediates.iter().map(|(_, m)| m))
        .filter(|m| **m > entry.stored_max)
        .max();
    let show = |s: &str| match &var.ty {
        Ty::Date => s.to_string(),
        // A rate's interval counts its steps.
        Ty::Rate { step } => match crate::num::parse_decimal(s) {
            Some(steps) => words::amount(&var.ty, &(steps * step)),
            None => s.to_string(),
        },
        _ => {
            let unit = words::unit_column(&var.ty);
            let unit = if unit.is_empty() || unit == "%" { unit } else { format!(" {unit}") };
            format!("{}{unit}", words::grouped(s))
        }
    };
    let mut said = format!(
        " is always {} to {}; the generated code holds it as a whole number no larger than {}",
        show(&entry.interval.0),
        show(&entry.interval.1),
        words::grouped(&entry.stored_max.to_string())
    );
    if let Some(m) = on_the_way {
        said.push_str(&format!(", computed through integers of at most {}", words::grouped(&m.to_string())));
    }
    if let Some(why) = why_wider(r, v) {
        said.push_str(&format!("; {why}"));
    }
    Some(vec![code(&var.name), text(said)])
}

fn rounding_section(r: &Rule, audience: Audience, b: &mut Vec<Block>) {
    let p = r.p;
    b.push(h(2, "rounding", vec![text("Rounding")]));
    let mut items: Vec<Line> = Vec::new();
    for &d in &r.graph.deciders {
        if let DeciderRef::Define(def) = d {
            let mut found = Vec::new();
            rounds(&p.defines[def].expr, &mut found);
            for (value, mode, grid, ty) in found {
                items.push(vec![
                    code(d.name(p)),
                    text(": "),
                    code(r.src(value.span)),
                    text(format!(" is {}.", words::round_words(mode, &words::amount(ty, grid)))),
                ]);
            }
        }
    }
    for &o in &p.outputs {
        let var = r.var(o);
        if let Some(rd) = &var.rounding {
            items.push(vec![
                code(&var.name),
                text(format!(
                    " is {}, once it is computed.",
                    words::round_words(rd.mode, &words::amount(&var.ty, &rd.grid))
                )),
            ]);
        }
    }
    if items.is_empty() {
        let none = match audience {
            Audience::Approver => {
                "Nothing is rounded: every value is exact, and a value that could hold a fraction \
                                   of its unit would have been refused by rulec check."
            }
            Audience::Customer => "Nothing is rounded: every amount is exact.",
        };
        b.push(Block::Para(vec![text(none)]));
    } else {
        b.push(Block::List(items));
    }
}

/// Every `round(…)` in an expression: the value rounded, the mode, the grid, the type.
fn rounds<'e>(e: &'e TExpr, out: &mut Vec<(&'e TExpr, crate::num::RoundMode, &'e Rat, &'e Ty)>) {
    match &e.kind {
        TExprKind::Round { value, mode, grid } => {
            out.push((value, *mode, grid, &e.ty));
            rounds(value, out);
        }
        TExprKind::Const(_) | TExprKind::Var(_) | TExprKind::In { .. } => {}
        TExprKind::Neg(a) | TExprKind::Not(a) | TExprKind::Isqrt(a) => rounds(a, out),
        TExprKind::Arith(_, a, b)
        | TExprKind::Cmp(_, a, b)
        | TExprKind::And(a, b)
        | TExprKind::Or(a, b)
        | TExprKind::Mod(a, b) => {
            rounds(a, out);
            rounds(b, out);
        }
        TExprKind::Min(xs) | TExprKind::Max(xs) => xs.iter().for_each(|x| rounds(x, out)),
        TExprKind::If { cond, then, els } => {
            rounds(cond, out);
            rounds(then, out);
            rounds(els, out);
        }
    }
}

fn verified_section(r: &Rule, b: &mut Vec<Block>) {
    let p = r.p;
    let a = r.u.analysis;
    b.push(h(2, "verified", vec![text("What rulec check verified")]));
    let typed = p.vars.iter().filter(|v| matches!(v.range, Some((Value::Num(_), Value::Num(_))))).count();
    let entries = &a.values.values;
    let biggest = entries
        .iter()
        .flat_map(|e| {
            std::iter::once((&e.stored_max, e.name.as_str()))
                .chain(e.intermediates.iter().map(move |(_, m)| (m, e.of.as_deref().unwrap_or(&e.name))))
        })
        .max_by(|x, y| x.0.cmp(y.0));
    let mut items = vec![vec![text(format!(
        "units: {} keep the type the rule declares; no sum or comparison mixes units",
        plural(typed, "value", "values")
    ))]];
    match biggest {
        Some((m, of)) => items.push(vec![
            text(format!(
                "size: {}, and every number worked out on the way, fit the whole numbers the generated code holds; the largest, {}, is ",
                plural(entries.iter().filter(|e| e.of.is_none()).count(), "value", "values"),
                words::grouped(&m.to_string())
            )),
            code(of),
            text(format!(" (they hold up to {})", words::grouped(&i64::MAX.to_string()))),
        ]),
        None => items.push(vec![text("size: the rule computes no number")]),
    }
    if a.guards.is_empty() {
        items.push(vec![text("no two rows are left to be checked against each other while the code runs")]);
    } else {
        for g in &a.guards {
            items.push(vec![
                text(format!("rows {} and {} of ", g.a, g.b)),
                code(&p.tables[g.table].name),
                text(" could not be proved apart: the generated code raises a contradiction if both match"),
            ]);
        }
    }
    b.push(Block::List(items));
    let mut rows = Vec::new();
    for (t, table) in p.tables.iter().enumerate() {
        let Some(proof) = r.proof(t) else { continue };
        let f = table_figures(proof);
        let apart = match proof.policy {
            crate::syntax::ast::Policy::First => "first decides".to_string(),
            crate::syntax::ast::Policy::Priority => "priority decides".to_string(),
            _ => {
                let mut s = format!("{} of {} comparisons differ", f.disjoint, f.pairs);
                if f.refuted_pairs > 0 {
                    s.push_str(&format!(", {} unreachable", f.refuted_pairs));
                }
                if f.undecided > 0 {
                    s.push_str(&format!(", {} guarded", f.undecided));
                }
                s
            }
        };
        let covered = if f.refuted_boxes > 0 {
            format!("{} combinations, {} unreachable", f.boxes, f.refuted_boxes)
        } else {
            plural(f.boxes, "combination", "combinations")
        };
        rows.push(TableRow {
            cells: vec![
                vec![code(&table.name)],
                vec![text(f.policy)],
                vec![text(f.rows.to_string())],
                vec![text(covered)],
                vec![text(apart)],
                vec![text(format!("{} of {}", f.reached, f.rows))],
            ],
            number: None,
        });
    }
    if !rows.is_empty() {
        b.push(Block::Table(Table {
            kind: TableKind::Plain,
            head: ["table", "policy", "rows", "complete: combinations answered", "exclusive", "rows reached"]
                .iter()
                .map(|s| vec![text(*s)])
                .collect(),
            rows,
        }));
    }
    b.push(Block::Para(vec![
        text("The figures are those of the certificate: "),
        code(format!("rulec certificate {}", r.u.source_name)),
        text(" prints the evidence, and a checker that shares no code with rulec re-checks it."),
    ]));
}

/// Boundary pairs that are the same two calls, once each (a threshold two rows share).
struct CasePair<'s> {
    pair: &'s Pair,
    also: Vec<&'s Pair>,
}

fn case_pairs(suite: &Suite) -> Vec<CasePair<'_>> {
    let mut out: Vec<CasePair> = Vec::new();
    for pair in &suite.pairs {
        let same = |c: &CasePair| c.pair.sides[0].0 == pair.sides[0].0 && c.pair.sides[1].0 == pair.sides[1].0;
        match out.iter_mut().find(|c| same(c)) {
            Some(c) => c.also.push(pair),
            None => out.push(CasePair { pair, also: Vec::new() }),
        }
    }
    out
}

/// The input that differs between the two sides of a pair.
fn moved_input(p: &Program, pair: &Pair) -> Option<usize> {
    (0..p.inputs.len()).find(|&i| pair.sides[0].1[i] != pair.sides[1].1[i])
}

fn cases_section(r: &Rule, audience: Audience, b: &mut Vec<Block>) {
    let p = r.p;
    let pairs = case_pairs(r.suite);
    match audience {
        Audience::Approver => {
            b.push(h(2, "cases", vec![text("Cases on either side of each threshold")]));
            if pairs.is_empty() {
                b.push(Block::Para(vec![text("No cell draws a threshold on a number or a date.")]));
                return;
            }
            b.push(Block::Para(vec![text(
                "The boundary pairs of rulec vectors: two calls one input apart (in bold), on either side \
                 of a threshold a cell draws, the reference evaluator's answer for each.",
            )]));
            let mut head: Vec<Line> = vec![vec![text("threshold")]];
            head.extend(p.inputs.iter().map(|&v| vec![text(&r.var(v).name)]));
            head.extend(p.outputs.iter().map(|&v| vec![text(&r.var(v).name)]));
            head.push(vec![text("rows")]);
            let mut rows = Vec::new();
            for c in &pairs {
                let moved = moved_input(p, c.pair);
                for (side, (_, inputs, outcome)) in c.pair.sides.iter().enumerate() {
                    let mut cells: Vec<Line> = Vec::new();
                    cells.push(if side == 0 { threshold_line(r, c) } else { Vec::new() });
                    for (i, &v) in p.inputs.iter().enumerate() {
                        let shown = words::value_words(p, &r.var(v).ty, &inputs[i], Audience::Approver);
                        cells.push(vec![if Some(i) == moved { strong(shown) } else { text(shown) }]);
                    }
                    for &o in &p.outputs {
                        cells.push(vec![text(words::value_words(
                            p,
                            &r.var(o).ty,
                            &outcome.values[o],
                            Audience::Approver,
                        ))]);
                    }
                    let fired: Vec<String> =
                        outcome.trace.iter().map(|f| format!("{} {}", p.tables[f.table].name, f.row)).collect();
                    cells.push(vec![text(fired.join(", "))]);
                    rows.push(TableRow { cells, number: None });
                }
            }
            b.push(Block::Table(Table { kind: TableKind::Plain, head, rows }));
        }
        Audience::Customer => {
            b.push(h(2, "cases", vec![text("Examples on either side of each threshold")]));
            if pairs.is_empty() {
                b.push(Block::Para(vec![text("Nothing here depends on a threshold.")]));
                return;
            }
            let mut lines: Vec<String> = Vec::new();
            for c in &pairs {
                let line = customer_case(r, c.pair);
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
            b.push(Block::List(lines.into_iter().map(|l| vec![text(l)]).collect()));
        }
    }
}

fn threshold_line(r: &Rule, c: &CasePair) -> Line {
    let p = r.p;
    let mut by_table: Vec<(usize, Vec<usize>)> = Vec::new();
    for pair in std::iter::once(c.pair).chain(c.also.iter().copied()) {
        match by_table.iter_mut().find(|(t, _)| *t == pair.table) {
            Some((_, rows)) => rows.push(pair.row),
            None => by_table.push((pair.table, vec![pair.row])),
        }
    }
    let mut l = Vec::new();
    for (i, (t, rows)) in by_table.iter().enumerate() {
        if i > 0 {
            l.push(text("; "));
        }
        l.push(code(&p.tables[*t].name));
        let numbers: Vec<String> = rows.iter().map(|n| n.to_string()).collect();
        let label = if rows.len() == 1 { "row" } else { "rows" };
        l.push(text(format!(" {label} {}", words::listed(&numbers, "and"))));
    }
    let var = r.var(c.pair.column);
    let f = var.ty.factor();
    l.push(text(format!(
        ": {} between {} and {}",
        var.name,
        words::amount(&var.ty, &(&c.pair.below * &f)),
        words::amount(&var.ty, &(&c.pair.above * &f))
    )));
    l
}

/// One line per pair: the input that moves, the answer on each side, the rest of the call.
fn customer_case(r: &Rule, pair: &Pair) -> String {
    let p = r.p;
    let show_in = |i: usize, side: usize| {
        let v = p.inputs[i];
        format!("{} {}", r.var(v).name, words::value_words(p, &r.var(v).ty, &pair.sides[side].1[i], Audience::Customer))
    };
    let show_out = |side: usize| {
        let outs: Vec<String> = p
            .outputs
            .iter()
            .map(|&o| {
                format!(
                    "{} {}",
                    r.var(o).name,
                    words::value_words(p, &r.var(o).ty, &pair.sides[side].2.values[o], Audience::Customer)
                )
            })
            .collect();
        outs.join(", ")
    };
    let moved = moved_input(p, pair).unwrap_or(0);
    let rest: Vec<String> = (0..p.inputs.len()).filter(|&i| i != moved).map(|i| show_in(i, 0)).collect();
    let mut line = format!(
        "{} gives {}; {} gives {}",
        capitalized(&show_in(moved, 0)),
        show_out(0),
        show_in(moved, 1),
        show_out(1)
    );
    if !rest.is_empty() {
        line.push_str(&format!(" (with {})", words::listed(&rest, "and")));
    }
    line.push('.');
    line
}

/// What `rulec doc` writes for one rule: the file name under `--out`, and the text.
pub fn render(u: &Unit, audience: Audience, html: bool) -> (String, String) {
    let alias = u.program.ident();
    if html {
        return (format!("{alias}.html"), page(u));
    }
    let r = Rule::new(u);
    let name = match audience {
        Audience::Approver => format!("{alias}.md"),
        Audience::Customer => format!("{alias}.customer.md"),
    };
    (name, markdown(&document(&r, audience)) + "\n")
}

/// The markdown of a document.
pub fn markdown(doc: &Doc) -> String {
    let mut out = String::new();
    md_blocks(&doc.blocks, &mut out);
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn md_blocks(blocks: &[Block], out: &mut String) {
    for b in blocks {
        match b {
            Block::Heading { level, text, .. } => {
                out.push_str(&"#".repeat(*level as usize));
                out.push(' ');
                out.push_str(&md_line(text));
                out.push_str("\n\n");
            }
            Block::Para(l) => {
                out.push_str(&md_line(l));
                out.push_str("\n\n");
            }
            Block::List(items) => {
                for i in items {
                    out.push_str("- ");
                    out.push_str(&md_line(i));
                    out.push('\n');
                }
                out.push('\n');
            }
            Block::Table(t) => {
                let row = |cells: &[Line]| -> String {
                    let cs: Vec<String> = cells.iter().map(|c| md_cell(c)).collect();
                    format!("| {} |\n", cs.join(" | "))
                };
                out.push_str(&row(&t.head));
                out.push_str(&format!("|{}\n", "---|".repeat(t.head.len())));
                for r in &t.rows {
                    out.push_str(&row(&r.cells));
                }
                out.push('\n');
            }
            Block::Part { blocks, .. } => md_blocks(blocks, out),
        }
    }
}

/// A table cell: a `|` escaped, and nothing at its start is a block's markup.
fn md_cell(l: &[Inline]) -> String {
    let line = md_line(l).replace('|', "\\|");
    match line.strip_prefix('\\') {
        Some(rest) if rest.starts_with(['#', '-', '+']) => rest.to_string(),
        _ => line,
    }
}

fn md_line(l: &[Inline]) -> String {
    l.iter()
        .map(|i| match i {
            Inline::Text(s) => md_escape(s),
            Inline::Strong(s) if s.is_empty() => String::new(),
            Inline::Strong(s) => format!("**{}**", md_escape(s)),
            Inline::Code(s) if s.is_empty() => String::new(),
            Inline::Code(s) => {
                let fence = if s.contains('`') { "``" } else { "`" };
                let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
                format!("{fence}{pad}{s}{pad}{fence}")
            }
        })
        .collect()
}

/// Text as markdown reads it back: the characters that would start markup escaped.
fn md_escape(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let word = |j: Option<&char>| j.is_some_and(|c| c.is_alphanumeric());
        let escape = match c {
            '\\' | '*' | '`' | '[' | ']' | '<' | '>' => true,
            // `_` inside a word is not emphasis; at a word's edge it may be.
            '_' => !(word(i.checked_sub(1).and_then(|j| chars.get(j))) && word(chars.get(i + 1))),
            '#' | '-' | '+' => i == 0,
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
