//! `rulec graph` (formats.md, `graph`): the rule as a graph of what decides each value and
//! which values it reads. A node is a value — an input, or a value some decider gives — and
//! a table or a define rides on the value it decides, in `by`. An edge says "this value is
//! read while that one is decided"; it is a graph of dependency, not of time.
//!
//! A rule that walks a sequence has a node for the sequence and one for each field of its
//! element; a summary or a fold decides a value of the call from the per-element values, and
//! the edge that crosses the element frame (many elements in, one value out) is a `walk`.
//!
//! It needs only resolved names and types, so a rule whose tables have a gap or an overlap
//! still gets its graph. [`layout`] places the deciders in columns by their distance from
//! the inputs: the board of `rulec doc --format html` is this layout.

use crate::diag::Diagnostic;
use crate::eval::wire;
use crate::sema::*;
use crate::sema::{collect_vars, var_ty_name};
use serde_json::{json, Map, Value as Json};

/// A decider: what gives a value (a table gives one or more, a define, a summary or a fold one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeciderRef {
    Table(usize),
    Define(usize),
    Summary(usize),
    Fold(usize),
}

impl DeciderRef {
    pub fn kind(self) -> &'static str {
        match self {
            DeciderRef::Table(_) => "table",
            DeciderRef::Define(_) => "define",
            DeciderRef::Summary(_) => "summary",
            DeciderRef::Fold(_) => "fold",
        }
    }
    /// The decider's name: the table's, or the name of the value it computes.
    pub fn name(self, p: &Program) -> &str {
        match self {
            DeciderRef::Table(t) => &p.tables[t].name,
            _ => &p.vars[self.decides(p)[0]].name,
        }
    }
    /// The name an edge gives under `via`: a table's or a define's. A summary and a fold
    /// have none of their own (the value they decide is the edge's end already).
    pub fn via(self, p: &Program) -> Option<&str> {
        match self {
            DeciderRef::Table(_) | DeciderRef::Define(_) => Some(self.name(p)),
            DeciderRef::Summary(_) | DeciderRef::Fold(_) => None,
        }
    }
    /// The values it decides.
    pub fn decides(self, p: &Program) -> Vec<VarId> {
        match self {
            DeciderRef::Table(t) => p.tables[t].results.clone(),
            DeciderRef::Define(d) => vec![p.defines[d].var],
            DeciderRef::Summary(s) => vec![p.summaries[s].var],
            DeciderRef::Fold(f) => vec![p.folds[f].into],
        }
    }
}

/// One edge: `from` is read while `to` is decided, by `via`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: VarId,
    pub to: VarId,
    pub via: DeciderRef,
}

impl Edge {
    /// Whether it crosses the element frame: a per-element value read by what decides a
    /// value of the call.
    pub fn walks(&self, p: &Program) -> bool {
        p.vars[self.from].frame.is_some() && p.vars[self.to].frame.is_none()
    }
}

/// The graph of one rule.
pub struct Graph {
    /// Inputs in declaration order, then every other value in evaluation order.
    pub nodes: Vec<VarId>,
    pub edges: Vec<Edge>,
    /// The deciders in evaluation order.
    pub deciders: Vec<DeciderRef>,
}

/// The values a decider reads while it decides `to`: a table's condition columns (which row
/// answers) and the names in `to`'s own result cells; a define's expression.
pub fn reads(p: &Program, d: DeciderRef, to: VarId) -> Vec<VarId> {
    let mut out = Vec::new();
    match d {
        DeciderRef::Table(t) => {
            let table = &p.tables[t];
            out.extend(&table.conds);
            if let Some(col) = table.results.iter().position(|&r| r == to) {
                for row in &table.rows {
                    if let Some(Some(e)) = row.results.get(col) {
                        collect_vars(e, &mut out);
                    }
                }
            }
        }
        DeciderRef::Define(d) => collect_vars(&p.defines[d].expr, &mut out),
        DeciderRef::Summary(s) => {
            let summary = &p.summaries[s];
            out.extend(summary.of);
            summary.filter.iter().chain(&summary.empty).for_each(|e| collect_vars(e, &mut out));
        }
        DeciderRef::Fold(f) => {
            let fold = &p.folds[f];
            out.extend([fold.value, fold.verdict]);
            collect_vars(&fold.empty, &mut out);
        }
    }
    let mut seen = vec![false; p.vars.len()];
    out.retain(|&v| !std::mem::replace(&mut seen[v], true));
    out
}

/// Build the graph. Only names and types are needed: no analysis result is read.
pub fn build(p: &Program) -> Graph {
    // A walk's body in its place, then what the walk finds.
    let deciders: Vec<DeciderRef> = p
        .steps_flat()
        .into_iter()
        .flat_map(|s| match s {
            Step::Table(t) => vec![DeciderRef::Table(t)],
            Step::Define(d) => vec![DeciderRef::Define(d)],
            Step::Walk(w) => {
                let walk = &p.walks[w];
                let summaries = walk.summaries.iter().map(|&s| DeciderRef::Summary(s));
                summaries.chain(walk.folds.iter().map(|&f| DeciderRef::Fold(f))).collect()
            }
        })
        .collect();
    let mut nodes: Vec<VarId> = p.inputs.clone();
    nodes.extend(p.sequences.iter().flat_map(|s| s.fields.iter().copied()));
    let mut edges = Vec::new();
    for &d in &deciders {
        for to in d.decides(p) {
            if !nodes.contains(&to) {
                nodes.push(to);
            }
            for from in reads(p, d, to) {
                edges.push(Edge { from, to, via: d });
            }
        }
    }
    // A value nothing decides (only in a rule that does not check): still a node.
    for v in 0..p.vars.len() {
        if !nodes.contains(&v) {
            nodes.push(v);
        }
    }
    Graph { nodes, edges, deciders }
}

/// The decider of a value, when one decides it.
pub fn decider_of(p: &Program, v: VarId) -> Option<DeciderRef> {
    match p.vars[v].decided_by? {
        Decider::Table(t) => Some(DeciderRef::Table(t)),
        Decider::Define(d) => Some(DeciderRef::Define(d)),
        Decider::Summary(s) => Some(DeciderRef::Summary(s)),
        Decider::Fold(f) => Some(DeciderRef::Fold(f)),
    }
}

/// Where a decider's card goes on the board: its column (1 for a decider that reads inputs
/// only, one more than the furthest decider it reads from otherwise) and its place in that
/// column (evaluation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub decider: DeciderRef,
    pub column: usize,
    pub row: usize,
}

/// The board's layout: every decider, by its distance from the inputs.
pub fn layout(p: &Program, g: &Graph) -> Vec<Placed> {
    let mut column: Vec<(DeciderRef, usize)> = Vec::new();
    for &d in &g.deciders {
        let far = g
            .edges
            .iter()
            .filter(|e| e.via == d)
            .filter_map(|e| decider_of(p, e.from))
            .filter_map(|up| column.iter().find(|(x, _)| *x == up).map(|(_, c)| *c))
            .max()
            .unwrap_or(0);
        column.push((d, far + 1));
    }
    let mut rows = std::collections::BTreeMap::<usize, usize>::new();
    column
        .into_iter()
        .map(|(decider, column)| {
            let row = rows.entry(column).or_insert(0);
            *row += 1;
            Placed { decider, column, row: *row }
        })
        .collect()
}

/// A declared range in the wire form: `{"min":…,"max":…}`.
pub fn range_json(p: &Program, var: &Var) -> Option<Json> {
    let (lo, hi) = var.range.as_ref()?;
    Some(json!({"min": wire::to_wire(p, var, lo), "max": wire::to_wire(p, var, hi)}))
}

/// The graph as formats.md writes it: one object. `diagnostics` are the rule's own, from
/// which the summaries whose declared range only the caller keeps (W122) are read.
pub fn to_json(p: &Program, g: &Graph, text: &str, sha256: &str, diagnostics: &[Diagnostic]) -> Json {
    let mut nodes: Vec<Json> = Vec::new();
    for &v in &g.nodes {
        let var = &p.vars[v];
        // A sequence's node comes just before its first field's.
        if let (VarKind::Element, Some(s)) = (var.kind, var.frame) {
            if p.sequences[s].fields.first() == Some(&v) {
                nodes.push(json!({"name": p.sequences[s].name, "kind": "sequence"}));
            }
        }
        nodes.push(node_json(p, v, text));
    }
    let edges: Vec<Json> = g
        .edges
        .iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert("from".into(), json!(p.vars[e.from].name));
            m.insert("to".into(), json!(p.vars[e.to].name));
            m.insert("kind".into(), json!(if e.walks(p) { "walk" } else { "reads" }));
            if let Some(via) = e.via.via(p) {
                m.insert("via".into(), json!(via));
            }
            Json::Object(m)
        })
        .collect();
    let mut preconditions: Vec<Json> = p
        .constraints
        .iter()
        .map(|c| {
            let mut read = Vec::new();
            collect_vars(&c.expr, &mut read);
            let mut names: Vec<&str> = Vec::new();
            for v in read {
                if !names.contains(&p.vars[v].name.as_str()) {
                    names.push(&p.vars[v].name);
                }
            }
            json!({"kind": "constraint", "text": c.text, "reads": names})
        })
        .collect();
    preconditions.extend(caller_keeps(p, diagnostics).into_iter().map(|s| {
        let summary = &p.summaries[s];
        let var = &p.vars[summary.var];
        let mut m = Map::new();
        m.insert("kind".into(), json!(summary.op.as_str()));
        m.insert("name".into(), json!(var.name));
        m.insert("over".into(), json!(p.sequences[summary.seq].name));
        if let Some(of) = summary.of {
            m.insert("of".into(), json!(p.vars[of].name));
        }
        if let Some(range) = range_json(p, var) {
            m.insert("max".into(), range["max"].clone());
        }
        Json::Object(m)
    }));
    json!({
        "rule": p.name,
        "alias": p.alias.clone().unwrap_or_default(),
        "version": p.version.to_string(),
        "source_sha256": sha256,
        "nodes": nodes,
        "edges": edges,
        "preconditions": preconditions,
        "carry": Json::Null,
    })
}

/// The summaries whose declared range lists of the declared lengths can leave: the analysis
/// said so with W122, at the range (the door refuses such a call, and the caller keeps it).
pub fn caller_keeps(p: &Program, diagnostics: &[Diagnostic]) -> Vec<usize> {
    (0..p.summaries.len())
        .filter(|&s| {
            let summary = &p.summaries[s];
            let at = p.vars[summary.var].range_span.unwrap_or(summary.span);
            diagnostics.iter().any(|d| d.code == "W122" && d.primary.file == p.file && d.primary.span == at)
        })
        .collect()
}

/// One value's node: an input, an element's field (`of` its sequence) or a value with what
/// decides it under `by`.
fn node_json(p: &Program, v: VarId, text: &str) -> Json {
    let var = &p.vars[v];
    let mut m = Map::new();
    m.insert("name".into(), json!(var.name));
    let kind = match var.kind {
        VarKind::Input => "input",
        VarKind::Element => "element",
        _ => "value",
    };
    m.insert("kind".into(), json!(kind));
    if let (VarKind::Element, Some(s)) = (var.kind, var.frame) {
        m.insert("of".into(), json!(p.sequences[s].name));
    }
    m.insert("type".into(), json!(var_ty_name(var, &p.enums)));
    if let Some(r) = range_json(p, var) {
        m.insert("range".into(), r);
    }
    if var.optional {
        m.insert("optional".into(), json!(true));
    }
    if var.kind == VarKind::Output {
        m.insert("output".into(), json!(true));
    }
    if let Some(d) = decider_of(p, v) {
        let by = match d {
            DeciderRef::Table(t) => {
                let table = &p.tables[t];
                json!({"kind": "table", "name": table.name, "policy": table.policy.as_str(), "rows": table.rows.len()})
            }
            DeciderRef::Define(_) => json!({"kind": "define", "name": var.name}),
            DeciderRef::Summary(s) => {
                let summary = &p.summaries[s];
                let mut by = Map::new();
                by.insert("kind".into(), json!(summary.op.as_str()));
                by.insert("over".into(), json!(p.sequences[summary.seq].name));
                if let Some(of) = summary.of {
                    by.insert("of".into(), json!(p.vars[of].name));
                }
                if let Some(filter) = &summary.filter {
                    by.insert("where".into(), json!(&text[filter.span.range()]));
                }
                Json::Object(by)
            }
            DeciderRef::Fold(f) => {
                let fold = &p.folds[f];
                json!({"kind": fold.kind.as_str(), "over": p.sequences[fold.seq].name,
                       "of": p.vars[fold.value].name, "by": p.vars[fold.verdict].name})
            }
        };
        m.insert("by".into(), json!([by]));
        if let DeciderRef::Define(d) = d {
            m.insert("expr".into(), json!(&text[p.defines[d].expr.span.range()]));
        }
    }
    Json::Object(m)
}

/// The graph of a checked file, when its names resolved (a table with a gap still has one).
pub fn of_checked(sources: &crate::Sources, checked: &crate::Checked) -> Option<Json> {
    let p = checked.program.as_ref()?;
    let src = sources.get(checked.file);
    Some(to_json(p, &build(p), &src.text, &src.sha256, &checked.diagnostics))
}
