//! The certificate (formats.md, `certificate`): the evidence behind what `rulec check`
//! proved about one rule, written so that a program sharing no code with rulec
//! (`proofs/recheck.py`) can re-check it.
//!
//! It is tied to the rule file by the SHA-256 of its bytes and, cell by cell, by spans:
//! `line` (1-based), `col` (1-based) and `len`, both counted in characters (Unicode scalar
//! values) of the text as rulec reads it (CRLF read as LF, a leading BOM dropped), and the
//! `text` found there.
//!
//! Numbers are strings: integers (`"1000"`) or exact fractions (`"1/2980"`), in base units
//! (the unit a column's `unit.per` converts to: 1g is `"1000"` base units of mass, 10% is
//! `"1/10"`); dates are day numbers since 1970-01-01.
//!
//! A value (a coordinate, a test operand) is an object with one key: `{"num": "5"}`,
//! `{"enum": "gold", "pos": 1}`, `{"bool": true}`, `{"str": "JP"}`, `{"none": true}`.
//!
//! Per table:
//! - `axes`: `column`, `var`, `kind` (input/derived), `type`, `unit` (`symbol`, `per`: base
//!   units per one of it; the axis' own unit, the one cell literals are checked in),
//!   `step`, `coords` (per coordinate: `{"interval": true}`, `{"other": true}` — every string
//!   no cell names — or a value), `bounds` (per coordinate the closed interval of true
//!   values `[lo, hi]`, `null` for an unbounded end, and `null` for a non-numeric
//!   coordinate) and `open` (per coordinate, whether each end is excluded: only an axis
//!   with no grid has open ends).
//! - `rows`: `cells` and `produces` as written, `tests` (the condition cells as rulec read
//!   them, values in base units), `source` (the span of every cell, conditions then
//!   results), `accepts` (per axis, every coordinate index the cell accepts).
//! - `cover`: the split tree. A node is `{"axis", "at", "lo", "hi"}` (`lo` keeps the
//!   coordinates `< at` of `axis`, `hi` those `>= at`) or a leaf `{"leaf", "box", "rows",
//!   "asked"}`: its box (per axis `[first, last]`), every row (1-based) whose box contains
//!   it (every other row misses it on some axis), and whether it is asked about: `"yes"`,
//!   `"unchecked"` (nothing depended on it), `"unknown"`, or `{"no": refutation}`.
//! - **Disjointness is stated by the cover tree**: two rows that no leaf lists together
//!   share no point (the leaves tile the domain). `disjoint` also lists, for tables of up to
//!   [`MAX_DISJOINT_LISTED`] pairs, each such pair with an axis that parts them.
//! - `most_held`: under a multiple-hit policy, at most how many rows hold at once (the most a
//!   leaf lists that is not refuted: a list output's longest length); `null` otherwise.
//! - `refuted`: pairs some leaf lists together that no asked input makes meet; `parts`: each
//!   shared leaf and its refutation. `undecided` (W114, guarded at run time) and `meeting`
//!   (under `any`, rows that meet and agree) are stated.
//! - A refutation is `{"farkas": [..]}`: multipliers `y` over facts, each `lin ≤ 0` (`< 0`
//!   when `strict`), with its linear form written out (`coeffs` by variable name, `const`);
//!   a fact is named by what it is: `{"range": var, "hi": bool}`, `{"constraint": n}`,
//!   `{"define": var, "le": bool}`, `{"coord": {"axis", "hi", "at", "open"}}` (a bound of the
//!   leaf's box) or `{"bool_define": {"axis", "value", "index"}}`. Or `{"produced": ..}`: the
//!   axis is decided by another table none of whose producing rows reaches the box.
//! - `reach`: per row, the leaf and the coordinate of each axis it answers at; `values`: the
//!   inputs (wire form) of a witness confirmed through the evaluator, and `at_values`: the
//!   value of each input axis at it (derived axes `null`); both `null` when none was found.
//! - A row states its `results` exactly (a value, `{"expr": …}`, or `{"none": true}`).
//! - Refutations found by the case search (analysis/tables/theory.rs): a Farkas fact may be
//!   `{"derived": …}` — `proven` (the value analysis' interval of a variable), `fixed` (the
//!   value a case gives it), `define_at` (a define read with the case's values), `bool_at`
//!   (a boolean column's comparisons read so), `monotone` (a bound on a define carried to
//!   the linear form it is monotone in, with the form's `step` and the bound it starts
//!   `from`) or `interval` (a define's interval from the bounds `given`). `{"split": {"var",
//!   "basis", "cases"}}`: every value the variable takes in the box is a case (`basis` the
//!   rows of the table that decides it, or the grid between two bounds), each refuted;
//!   `{"cells": {"var"}}`: the rows the case takes leave the variable no value.
//!
//! Beside the tables: `vars` (per variable its kind, type, unit, grid `step`, declared
//! `range`, `rounding`, and what decides it), `defines` (each define's expression in
//! evaluation order, exact, every numeric node with its scale `s` and grid `g`), and
//! `bounds`: per derived number, its interval and how it was found — for each expression
//! computing it (its define, or each row's result cell that is not a literal: a literal is
//! its own bound, stated in the row's `results`) the tables split over and one case per
//! combination of their rows, with the value's stored interval there (`linear` when linear
//! reasoning over the case's facts took part).

use crate::analysis::linear::{Fact, Lin};
use crate::analysis::model::{self, Origin};
use crate::analysis::scale::{Annotation, Scaled};
use crate::analysis::tables::axes::{Axis, Coord};
use crate::analysis::tables::cover::{Asked, Node};
use crate::analysis::tables::facts::{Derivation, FactRef};
use crate::analysis::tables::{Basis, Refutation, TableProof};
use crate::num::Rat;
use crate::sema::ty_name;
use crate::sema::*;
use crate::source::{SourceFile, Span};
use crate::{Checked, Sources};
use serde_json::{json, Map, Value as Json};

/// Up to this many pairs of rows, `disjoint` lists every pair with its parting axis.
pub const MAX_DISJOINT_LISTED: usize = 20_000;

fn rat(r: &Rat) -> Json {
    Json::String(r.to_string())
}

/// Under a multiple-hit policy, the most rows that hold at once: the most a leaf of the
/// cover lists where some input may lie (a list's longest length); null for a single-hit
/// table, or when the cover did not finish.
fn most_held(ir: &crate::sema::TableIr, t: &crate::analysis::tables::TableProof) -> Json {
    if !ir.policy.multi_hit() || !t.complete || t.cover.nodes.is_empty() {
        return Json::Null;
    }
    let feasible = t.cover.leaves.iter().filter(|l| !matches!(l.asked, crate::analysis::tables::cover::Asked::No(_)));
    json!(feasible.map(|l| l.rows.len()).max().unwrap_or(0))
}

fn value(v: &Value) -> Json {
    match v {
        Value::None => json!({"none": true}),
        Value::Bool(b) => json!({"bool": b}),
        Value::Num(n) => json!({"num": n.to_string()}),
        Value::Str(s) => json!({"str": s}),
        Value::Enum(i) => json!({"pos": i}),
        Value::List(xs) => json!({"list": xs.iter().map(value).collect::<Vec<_>>()}),
    }
}

/// A value of a variable, with enum positions named.
fn value_of(p: &Program, var: VarId, v: &Value) -> Json {
    match (v, &p.vars[var].ty) {
        (Value::Enum(i), Ty::Enum(e)) => json!({"enum": p.enums[*e].values[*i as usize].name, "pos": i}),
        _ => value(v),
    }
}

fn span_json(f: &SourceFile, s: Span) -> Json {
    let (line, col) = f.line_col(s.start);
    let text = &f.text[s.range()];
    json!({"line": line, "col": col, "len": text.chars().count(), "text": text})
}

fn lin_json(p: &Program, l: &Lin) -> Json {
    let mut c = Map::new();
    for (v, a) in &l.coeffs {
        c.insert(p.vars[*v].name.clone(), rat(a));
    }
    json!({"coeffs": c, "const": rat(&l.konst)})
}

fn fact_json(p: &Program, f: &Fact) -> Map<String, Json> {
    let mut m = Map::new();
    let l = lin_json(p, &f.lin);
    m.insert("coeffs".into(), l["coeffs"].clone());
    m.insert("const".into(), l["const"].clone());
    m.insert("strict".into(), Json::Bool(f.strict));
    m
}

fn origin_json(p: &Program, o: &Origin) -> Json {
    match o {
        Origin::Range { var, hi } => json!({"range": p.vars[*var].name, "hi": hi}),
        Origin::Constraint(i) => json!({"constraint": i, "text": p.constraints[*i].text}),
        Origin::Define { var, le } => json!({"define": p.vars[*var].name, "le": le}),
    }
}

struct Ctx<'a> {
    p: &'a Program,
    model: model::Model,
    file: &'a SourceFile,
    ann: &'a Annotation,
}

impl Ctx<'_> {
    /// One fact of a refutation: its linear form and what it is.
    fn fact_item(&self, t: &TableProof, f: &FactRef) -> Map<String, Json> {
        let p = self.p;
        match f {
            FactRef::Model(i) => {
                let mut m = fact_json(p, &self.model.facts[*i]);
                m.insert("fact".into(), origin_json(p, &self.model.origins[*i]));
                m.insert("index".into(), json!(i));
                m
            }
            FactRef::Coord { axis, hi, at, open } => {
                let x = Lin::var(t.axes[*axis].var);
                let c = Lin::constant(at.clone());
                let lin = if *hi { x.sub(&c) } else { c.sub(&x) };
                let mut m = fact_json(p, &Fact { lin, strict: *open });
                m.insert("coord".into(), json!({"axis": axis, "hi": hi, "at": rat(at), "open": open}));
                m
            }
            FactRef::Cell { table, row, column, hi, at, open } => {
                // A producing row's cell: its column's variable against a bound.
                let var = p.tables[*table].conds[*column];
                let x = Lin::var(var);
                let c = Lin::constant(at.clone());
                let lin = if *hi { x.sub(&c) } else { c.sub(&x) };
                let mut m = fact_json(p, &Fact { lin, strict: *open });
                m.insert(
                    "cell".into(),
                    json!({"table": p.tables[*table].name, "row": row + 1, "column": column, "hi": hi, "at": rat(at), "open": open}),
                );
                m
            }
            FactRef::BoolDefine { axis, value, index } => {
                let f = t.linear.bool_facts[*axis].as_ref().map(|b| &b[*value as usize][*index]);
                let mut m = f.map(|f| fact_json(p, f)).unwrap_or_default();
                m.insert("bool_define".into(), json!({"axis": axis, "value": value, "index": index}));
                m
            }
            FactRef::Derived { fact, how } => {
                let mut m = fact_json(p, fact);
                m.insert("derived".into(), self.derivation(t, how));
                m
            }
        }
    }

    /// How a derived fact follows (re-checked by `proofs/recheck.py`).
    fn derivation(&self, t: &TableProof, how: &Derivation) -> Json {
        let name = |v: &VarId| self.p.vars[*v].name.clone();
        match how {
            Derivation::Proven { var } => json!({"proven": name(var)}),
            Derivation::Fixed { var, at } => json!({"fixed": name(var), "at": rat(at)}),
            Derivation::DefineAt { var } => json!({"define_at": name(var)}),
            Derivation::BoolAt { axis, value, index } => {
                json!({"bool_at": {"axis": axis, "value": value, "index": index}})
            }
            Derivation::Monotone { var, from, step } => {
                json!({"monotone": name(var), "step": rat(step), "from": Json::Object(self.fact_item(t, from))})
            }
            Derivation::Interval { var, given } => json!({"interval": name(var),
                "given": given.iter().map(|g| Json::Object(self.fact_item(t, g))).collect::<Vec<_>>()}),
        }
    }

    fn refutation(&self, t: &TableProof, r: &Refutation) -> Json {
        let p = self.p;
        match r {
            Refutation::Farkas(ys) => {
                let items: Vec<Json> = ys
                    .iter()
                    .map(|(f, y)| {
                        let mut m = self.fact_item(t, f);
                        m.insert("y".into(), rat(y));
                        Json::Object(m)
                    })
                    .collect();
                json!({"farkas": items})
            }
            Refutation::Split { var, basis, cases } => {
                let basis = match basis.as_ref() {
                    Basis::Rows { table, rows } => {
                        json!({"rows": {"table": p.tables[*table].name, "rows": rows.iter().map(|r| r + 1).collect::<Vec<_>>()}})
                    }
                    Basis::Grid { step, lo, hi } => json!({"grid": {"step": rat(step),
                        "lo": Json::Object(self.fact_item(t, lo)), "hi": Json::Object(self.fact_item(t, hi))}}),
                };
                json!({"split": {"var": p.vars[*var].name, "basis": basis,
                    "cases": cases.iter().map(|(at, r)| json!({"at": rat(at), "refutation": self.refutation(t, r)})).collect::<Vec<_>>()}})
            }
            Refutation::Cells { var } => json!({"cells": {"var": p.vars[*var].name}}),
            // Two columns on one variable whose coordinates in the box share no value.
            Refutation::SameColumn { a, b } => json!({"same_column": {"a": a, "b": b}}),
            // Every row of a table that leaves inputs out misses the box (no certificate has
            // one: a rule with a gap has none).
            Refutation::Gate { by, rows } => json!({"gate": {"by": p.tables[*by].name,
                "rows": rows.iter().map(|(r, k)| json!({"row": r + 1, "axis": k})).collect::<Vec<_>>()}}),
            Refutation::Produced { axis, by, rows } => json!({"produced": {
                "axis": axis, "by": p.tables[*by].name,
                "rows": rows.iter().map(|(r, why)| match why {
                    // The producing row's cell misses the box on a column both tables read.
                    crate::analysis::tables::Producer::Parts(k) => json!({"row": r + 1, "axis": k}),
                    // Its own cells, with the box's facts, contradict (stated, like every `produced`).
                    crate::analysis::tables::Producer::Farkas(f) => json!({"row": r + 1,
                        "multipliers": f.iter().map(|(i, y)| json!({"fact": format!("{i:?}"), "y": rat(y)})).collect::<Vec<_>>()}),
                    // With its cells, the box searched by cases is refuted.
                    crate::analysis::tables::Producer::Cases(why) => json!({"row": r + 1, "refutation": self.refutation(t, why)}),
                }).collect::<Vec<_>>()}}),
        }
    }

    /// An expression, exactly: numbers in base units, each numeric node with the scale its
    /// integer is held at (`s`, docs/int64.md) and the grid its values lie on (`g`).
    fn expr(&self, e: &TExpr, s: Option<&Scaled>) -> Json {
        let p = self.p;
        let kids = crate::analysis::scale::children(e);
        let sk = |i: usize| s.and_then(|s| s.kids.get(i));
        let k = |i: usize| self.expr(kids[i], sk(i));
        let all = |n: usize| (0..n).map(k).collect::<Vec<_>>();
        let mut m = match &e.kind {
            TExprKind::Const(v) => match value(v) {
                Json::Object(m) => m,
                _ => Map::new(),
            },
            TExprKind::Var(v) => Map::from_iter([("var".to_string(), json!(p.vars[*v].name))]),
            TExprKind::Neg(_) => Map::from_iter([("neg".to_string(), k(0))]),
            TExprKind::Arith(op, ..) => {
                Map::from_iter([("op".into(), json!(op.as_str())), ("l".into(), k(0)), ("r".into(), k(1))])
            }
            TExprKind::Cmp(op, ..) => {
                Map::from_iter([("cmp".into(), json!(op.as_str())), ("l".into(), k(0)), ("r".into(), k(1))])
            }
            TExprKind::Not(_) => Map::from_iter([("not".to_string(), k(0))]),
            TExprKind::And(..) => Map::from_iter([("and".to_string(), json!(all(2)))]),
            TExprKind::Or(..) => Map::from_iter([("or".to_string(), json!(all(2)))]),
            TExprKind::Min(xs) => Map::from_iter([("min".to_string(), json!(all(xs.len())))]),
            TExprKind::Max(xs) => Map::from_iter([("max".to_string(), json!(all(xs.len())))]),
            TExprKind::Mod(..) => Map::from_iter([("mod".to_string(), json!(all(2)))]),
            TExprKind::Isqrt(_) => Map::from_iter([("isqrt".to_string(), k(0))]),
            TExprKind::Round { mode, grid, .. } => Map::from_iter([
                ("round".to_string(), k(0)),
                ("mode".to_string(), json!(mode.as_str())),
                ("grid".to_string(), rat(grid)),
            ]),
            TExprKind::If { .. } => {
                Map::from_iter([("if".to_string(), k(0)), ("then".to_string(), k(1)), ("else".to_string(), k(2))])
            }
            TExprKind::In { var, values } => Map::from_iter([
                ("in".to_string(), json!(p.vars[*var].name)),
                ("values".to_string(), json!(values.iter().map(|v| value_of(p, *var, v)).collect::<Vec<_>>())),
            ]),
        };
        if let Some(s) = s {
            if let (true, Some(sc)) = (s.holds_n(), &s.scale) {
                m.insert("s".into(), rat(sc));
            }
        }
        match &e.grid {
            Grid::Step(g) => {
                m.insert("g".into(), rat(g));
            }
            Grid::Zero => {
                m.insert("g".into(), json!("0"));
            }
            Grid::Unknown => {}
        }
        Json::Object(m)
    }

    /// Every variable: what re-checking the defines and the splits needs of it.
    fn vars(&self) -> Json {
        let p = self.p;
        let vars: Vec<Json> = p
            .vars
            .iter()
            .enumerate()
            .map(|(v, var)| {
                let range = match &var.range {
                    Some((Value::Num(lo), Value::Num(hi))) => json!([rat(lo), rat(hi)]),
                    _ => Json::Null,
                };
                let decided = match var.decided_by {
                    Some(Decider::Define(_)) => json!({"define": true}),
                    Some(Decider::Table(t)) => json!({"table": p.tables[t].name}),
                    Some(Decider::Summary(s)) => json!({"summary": p.summaries[s].op.as_str(), "over": p.sequences[p.summaries[s].seq].name}),
                    Some(Decider::Fold(f)) => json!({"fold": p.folds[f].kind.as_str(), "over": p.sequences[p.folds[f].seq].name}),
                    None => Json::Null,
                };
                let numeric = var.ty.is_numeric() || var.ty == Ty::Date;
                let stored = (numeric && (var.declared || var.kind != VarKind::Define)).then(|| rat(&var.ty.factor()));
                json!({"name": var.name, "kind": kind_text(var.kind), "type": crate::sema::var_ty_name(var, &p.enums),
                       "optional": var.optional, "numeric": numeric, "unit": unit_json(&var.ty),
                       "step": crate::analysis::tables::axes::var_step(p, v).map(|s| rat(&s)),
                       "range": range, "decided_by": decided, "stored_step": stored,
                       "default": var.default.as_ref().map(value),
                       "rounding": var.rounding.as_ref().map(|r| json!({"mode": r.mode.as_str(), "grid": rat(&r.grid)}))})
            })
            .collect();
        Json::Array(vars)
    }

    /// Every define's expression, in evaluation order.
    fn defines(&self) -> Json {
        let p = self.p;
        let out: Vec<Json> = p
            .order
            .iter()
            .filter_map(|s| match *s {
                crate::sema::Step::Define(d) => Some(d),
                _ => None,
            })
            .map(|d| {
                let def = &p.defines[d];
                json!({"name": p.vars[def.var].name, "expr": self.expr(&def.expr, self.ann.defines.get(d))})
            })
            .collect();
        Json::Array(out)
    }

    /// How each derived variable's interval was found, case by case.
    fn bounds(&self, proof: &crate::analysis::values::ValueProof) -> Json {
        let p = self.p;
        let iv = |x: &Option<(Rat, Rat)>| x.as_ref().map_or(Json::Null, |(a, b)| json!([rat(a), rat(b)]));
        let row = |(t, r): (usize, usize)| json!({"table": p.tables[t].name, "row": r + 1});
        let out: Vec<Json> = proof
            .bounds
            .iter()
            .filter(|b| crate::analysis::scale::is_number(&p.vars[b.var].ty))
            .map(|b| {
                let roots: Vec<Json> = b
                    .roots
                    .iter()
                    .map(|root| {
                        json!({"row": root.row.map(row),
                               "split": root.split.iter().map(|&t| p.tables[t].name.clone()).collect::<Vec<_>>(),
                               "cases": root.cases.iter().map(|c| json!({"rows": c.rows.iter().map(|&x| row(x)).collect::<Vec<_>>(),
                                   "interval": iv(&c.interval), "linear": c.linear})).collect::<Vec<_>>()})
                    })
                    .collect();
                json!({"name": p.vars[b.var].name, "interval": iv(&b.interval), "roots": roots})
            })
            .collect();
        Json::Array(out)
    }

    fn axis(&self, a: &Axis) -> Json {
        let p = self.p;
        let var = &p.vars[a.var];
        let coords: Vec<Json> = a
            .coords
            .iter()
            .map(|c| match c {
                Coord::None => json!({"none": true}),
                Coord::OtherString => json!({"other": true}),
                Coord::Interval { .. } => json!({"interval": true}),
                Coord::Value(v) => value_of(p, a.var, v),
            })
            .collect();
        let mut bounds = Vec::new();
        let mut open = Vec::new();
        for c in &a.coords {
            match c.numeric_bounds() {
                Some((lo, hi)) => {
                    bounds.push(json!([lo.as_ref().map(|e| rat(&e.at)), hi.as_ref().map(|e| rat(&e.at))]));
                    open.push(json!([lo.is_some_and(|e| e.open), hi.is_some_and(|e| e.open)]));
                }
                None => {
                    bounds.push(Json::Null);
                    open.push(Json::Null);
                }
            }
        }
        let unit = unit_json(&var.ty);
        json!({"column": var.name, "index": a.column, "kind": a.kind.as_str(), "type": ty_name(&var.ty, &p.enums),
               "optional": var.optional, "unit": unit, "step": a.step.as_ref().map(rat),
               "produced": a.produced, "coords": coords, "bounds": bounds, "open": open})
    }

    fn cond(&self, var: VarId, c: &CondIr) -> Json {
        match c {
            CondIr::Any => json!({"cell": "any"}),
            CondIr::Tests { negated, tests } => {
                let ts: Vec<Json> = tests
                    .iter()
                    .map(|t| match t {
                        TestIr::IsNone => json!({"test": "none"}),
                        TestIr::OneOf(vs) => {
                            json!({"test": "in", "values": vs.iter().map(|v| value_of(self.p, var, v)).collect::<Vec<_>>()})
                        }
                        TestIr::Bounds(bs) => json!({"test": "cmp", "bounds": bs.iter().map(|(op, v)| {
                            json!({"op": op.as_str(), "value": value_of(self.p, var, v)})
                        }).collect::<Vec<_>>()}),
                    })
                    .collect();
                json!({"cell": "tests", "negated": negated, "tests": ts})
            }
        }
    }

    fn table(&self, t: &TableProof) -> Json {
        let p = self.p;
        let ir = &p.tables[t.table];
        let ncond = ir.conds.len();
        let rows: Vec<Json> = t
            .rows
            .iter()
            .zip(&ir.rows)
            .map(|(r, row)| {
                let texts: Vec<&str> = row.cell_spans.iter().map(|s| &self.file.text[s.range()]).collect();
                let (line, _) = self.file.line_col(r.span.start);
                let results: Vec<Json> = row
                    .results
                    .iter()
                    .enumerate()
                    .map(|(i, e)| match e {
                        None => json!({"none": true}),
                        Some(TExpr { kind: TExprKind::Const(v), .. }) => value_of(p, ir.results[i], v),
                        Some(e) => json!({"expr": self.expr(e, self.ann.rows[t.table][r.row - 1][i].as_ref())}),
                    })
                    .collect();
                json!({"row": r.row, "cells": texts[..ncond.min(texts.len())], "results": results,
                       "tests": ir.conds.iter().zip(&row.conds).map(|(&v, c)| self.cond(v, c)).collect::<Vec<_>>(),
                       "line": line,
                       "source": row.cell_spans.iter().map(|s| span_json(self.file, *s)).collect::<Vec<_>>(),
                       "accepts": r.accepts_indices(),
                       "produces": texts[ncond.min(texts.len())..]})
            })
            .collect();
        let n = t.rows.len();
        let disjoint = if n * n.saturating_sub(1) / 2 <= MAX_DISJOINT_LISTED && !t.cover.nodes.is_empty() {
            let mut together = vec![false; n * n];
            for leaf in &t.cover.leaves {
                for (i, &a) in leaf.rows.iter().enumerate() {
                    for &b in &leaf.rows[i + 1..] {
                        together[a as usize * n + b as usize] = true;
                    }
                }
            }
            let mut out = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if !together[a * n + b] {
                        if let Some(k) = t.parting_axis(a, b) {
                            out.push(json!({"a": a + 1, "b": b + 1, "axis": k}));
                        }
                    }
                }
            }
            Json::Array(out)
        } else {
            Json::Null
        };
        let pairs = |ps: &[crate::analysis::tables::PairProof]| -> Json {
            ps.iter()
                .map(|pp| {
                    json!({"a": pp.a + 1, "b": pp.b + 1, "parts": pp.parts.iter().map(|(leaf, r)| {
                        json!({"leaf": leaf, "refutation": r.as_ref().map(|r| self.refutation(t, r))})
                    }).collect::<Vec<_>>()})
                })
                .collect()
        };
        let reach: Vec<Json> = t
            .reach
            .iter()
            .enumerate()
            .map(|(r, reach)| match reach {
                None => json!({"row": r + 1, "leaf": null}),
                Some(re) => {
                    let inputs = t.reach_inputs(p, r);
                    let values = inputs.as_ref().map(|ins| {
                        let mut m = Map::new();
                        for (&v, x) in p.inputs.iter().zip(ins) {
                            m.insert(p.vars[v].name.clone(), crate::eval::wire::to_wire(p, &p.vars[v], x));
                        }
                        Json::Object(m)
                    });
                    let at_values = inputs.as_ref().map(|ins| {
                        t.axes
                            .iter()
                            .map(|a| match p.inputs.iter().position(|&v| v == a.var) {
                                Some(i) if a.kind == crate::analysis::tables::axes::AxisKind::Input => {
                                    value_of(p, a.var, &ins[i])
                                }
                                _ => Json::Null,
                            })
                            .collect::<Vec<_>>()
                    });
                    json!({"row": r + 1, "leaf": re.leaf, "at": re.at, "values": values, "at_values": at_values})
                }
            })
            .collect();
        json!({
            "table": ir.name,
            "policy": t.policy.as_str(),
            "complete": t.complete,
            "axes": t.axes.iter().map(|a| self.axis(a)).collect::<Vec<_>>(),
            "outputs": ir.results.len(),
            "results": ir.results.iter().map(|&v| p.vars[v].name.clone()).collect::<Vec<_>>(),
            "rows": rows,
            "disjoint": disjoint,
            "refuted": pairs(&t.refuted),
            "undecided": pairs(&t.undecided),
            "meeting": pairs(&t.meeting),
            "reach": reach,
            "linear": {"vars": t.linear.vars.iter().map(|&v| p.vars[v].name.clone()).collect::<Vec<_>>(),
                       "linked": t.linear.linked,
                       "facts": t.linear.model_facts.iter().map(|&i| {
                           let mut m = fact_json(p, &self.model.facts[i]);
                           m.insert("index".into(), json!(i));
                           m.insert("fact".into(), origin_json(p, &self.model.origins[i]));
                           Json::Object(m)
                       }).collect::<Vec<_>>()},
            "cover": self.cover(t),
            "most_held": most_held(ir, t),
        })
    }

    fn cover(&self, t: &TableProof) -> Json {
        if t.cover.nodes.is_empty() {
            return Json::Null;
        }
        self.node(t, 0)
    }

    fn node(&self, t: &TableProof, i: usize) -> Json {
        match &t.cover.nodes[i] {
            Node::Split { axis, at, lo, hi } => {
                json!({"axis": axis, "at": at, "lo": self.node(t, *lo as usize), "hi": self.node(t, *hi as usize)})
            }
            Node::Leaf(l) => {
                let leaf = &t.cover.leaves[*l as usize];
                let asked = match &leaf.asked {
                    Asked::Yes => json!("yes"),
                    Asked::Unchecked => json!("unchecked"),
                    Asked::Unknown => json!("unknown"),
                    Asked::No(r) => json!({"no": self.refutation(t, r)}),
                };
                json!({"leaf": l, "box": leaf.ranges.iter().map(|&(a, b)| json!([a, b])).collect::<Vec<_>>(),
                       "rows": leaf.rows.iter().map(|r| r + 1).collect::<Vec<_>>(), "asked": asked})
            }
        }
    }
}

/// The certificate of a rule that checked clean (`None` when it did not: no certificate).
pub fn certificate(sources: &Sources, checked: &Checked) -> Option<Json> {
    if checked.has_errors() {
        return None;
    }
    let p = checked.program.as_ref()?;
    let analysis = checked.analysis.as_ref()?;
    if analysis.tables.iter().any(|t| !t.complete) {
        return None;
    }
    let file = sources.get(checked.file);
    let cx = Ctx { p, model: model::build(p), file, ann: &analysis.values.scales };
    let mut ranges = Map::new();
    let mut values = Vec::new();
    for (v, var) in p.vars.iter().enumerate() {
        let Some((Value::Num(lo), Value::Num(hi))) = &var.range else { continue };
        ranges.insert(var.name.clone(), json!([rat(lo), rat(hi)]));
        // What is stored: base units, or steps of a rate.
        let per = match &var.ty {
            Ty::Rate { step } => step.clone(),
            _ => Rat::from_integer(1.into()),
        };
        let kind = kind_text(var.kind);
        values.push(json!({"name": var.name, "kind": kind, "type": crate::sema::var_ty_name(var, &p.enums),
            "interval": [rat(lo), rat(hi)], "scale": rat(&per), "stored_min": rat(&(lo / &per)),
            "stored_max": rat(&(hi / &per)), "from": "declared range", "var": v}));
    }
    let (enums, groups) = (enums_json(p), groups_json(p));
    Some(json!({
        "v": 1,
        "rule": p.name,
        "alias": p.alias.clone().unwrap_or_else(|| p.name.clone()),
        "version": p.version.to_string(),
        "source_sha256": file.sha256,
        "rulec": env!("CARGO_PKG_VERSION"),
        "ranges": ranges,
        "constraints": p.constraints.iter().map(|c| json!({"text": c.text})).collect::<Vec<_>>(),
        "enums": enums,
        "groups": groups,
        "values": values,
        "guards": analysis.guards.iter().map(|g| json!({"table": p.tables[g.table].name, "a": g.a, "b": g.b})).collect::<Vec<_>>(),
        "tables": analysis.tables.iter().map(|t| cx.table(t)).collect::<Vec<_>>(),
        "vars": cx.vars(),
        "defines": cx.defines(),
        "bounds": cx.bounds(&analysis.values),
    }))
}

/// The rule as the certificate reads it, for any rule whose names and types resolve, proved
/// or not (`rulec certificate --program`): every variable, the enums and groups, each
/// constraint, define and row exactly, and the evaluation order. No evidence: what an
/// encoding of the rule that shares no code with rulec (tests/smt/crosscheck.py) reads.
pub fn program(sources: &Sources, checked: &Checked) -> Option<Json> {
    let p = checked.program.as_ref()?;
    let file = sources.get(checked.file);
    let ann = Annotation::default();
    let cx = Ctx { p, model: model::build(p), file, ann: &ann };
    let name = |v: VarId| p.vars[v].name.clone();
    let tables: Vec<Json> = p
        .tables
        .iter()
        .map(|t| {
            let rows: Vec<Json> = t
                .rows
                .iter()
                .enumerate()
                .map(|(r, row)| {
                    let results: Vec<Json> = row
                        .results
                        .iter()
                        .zip(&t.results)
                        .map(|(e, &v)| match e {
                            None => json!({"none": true}),
                            Some(TExpr { kind: TExprKind::Const(x), .. }) => value_of(p, v, x),
                            Some(e) => json!({"expr": cx.expr(e, None)}),
                        })
                        .collect();
                    json!({"row": r + 1, "line": file.line_col(row.span.start).0,
                           "tests": t.conds.iter().zip(&row.conds).map(|(&v, c)| cx.cond(v, c)).collect::<Vec<_>>(),
                           "results": results})
                })
                .collect();
            json!({"table": t.name, "policy": t.policy.as_str(),
                   "columns": t.conds.iter().map(|&v| name(v)).collect::<Vec<_>>(),
                   "results": t.results.iter().map(|&v| name(v)).collect::<Vec<_>>(), "rows": rows})
        })
        .collect();
    // An ordered enum input's declared range, as the positions it lets through.
    let mut vars = cx.vars();
    for (var, out) in p.vars.iter().zip(vars.as_array_mut().into_iter().flatten()) {
        if let Some((Value::Enum(lo), Value::Enum(hi))) = &var.range {
            out["positions"] = json!([lo, hi]);
        }
    }
    let order: Vec<Json> = p
        .order
        .iter()
        .map(|s| match *s {
            crate::sema::Step::Define(d) => json!({"define": name(p.defines[d].var)}),
            crate::sema::Step::Table(t) => json!({"table": p.tables[t].name}),
            crate::sema::Step::Walk(w) => json!({"walk": p.sequences[p.walks[w].seq].name}),
        })
        .collect();
    Some(json!({
        "v": 1,
        "rule": p.name,
        "source_sha256": file.sha256,
        "inputs": p.inputs.iter().map(|&v| name(v)).collect::<Vec<_>>(),
        "vars": vars,
        "enums": enums_json(p),
        "groups": groups_json(p),
        "constraints": p.constraints.iter().map(|c| json!({"text": c.text, "expr": cx.expr(&c.expr, None)})).collect::<Vec<_>>(),
        "defines": cx.defines(),
        "tables": tables,
        "order": order,
    }))
}

fn enums_json(p: &Program) -> Map<String, Json> {
    let mut enums = Map::new();
    for e in &p.enums {
        let names: Vec<&str> = e.values.iter().map(|v| v.name.as_str()).collect();
        enums.insert(e.name.clone(), json!({"ordered": e.ordered, "values": names}));
    }
    enums
}

fn groups_json(p: &Program) -> Map<String, Json> {
    let mut groups = Map::new();
    for g in &p.groups {
        let names: Vec<&str> = g.values.iter().map(|&i| p.enums[g.enum_id].values[i as usize].name.as_str()).collect();
        groups.insert(g.name.clone(), json!({"enum": p.enums[g.enum_id].name, "values": names}));
    }
    groups
}

/// The unit a type's literals are written in: its symbol and how many base units one is.
fn unit_json(ty: &Ty) -> Json {
    match ty {
        Ty::Money { unit, .. } | Ty::Qty { unit } => json!({"symbol": unit.symbol, "per": rat(&unit.factor())}),
        Ty::Rate { .. } => json!({"symbol": "%", "per": "1/100"}),
        Ty::Int | Ty::Number => json!({"symbol": "", "per": "1"}),
        Ty::Date => json!({"symbol": "date", "per": "1"}),
        _ => Json::Null,
    }
}

fn kind_text(k: VarKind) -> &'static str {
    match k {
        VarKind::Input => "input",
        VarKind::Output => "output",
        VarKind::Value => "value",
        VarKind::Define => "define",
        VarKind::Element => "element",
    }
}
