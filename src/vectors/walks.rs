//! The suite of a rule that walks sequences (reference §6.3). The calls are made of two
//! searches over its views (`sema::views`): the call's inputs from the search over the call
//! (each walk's answer taken as an input there, and dropped from the call), the elements
//! from the search over each walk's element (its fields kept). Then the lists that meet the
//! `fold_transition` obligations, each the shortest that does: no element, one element,
//! one of each verdict, every two verdicts one after the other (which covers a take then a
//! take, and a `stop`), and the longest list a sequence takes. A call the reference refuses
//! as a contradiction goes to `<alias>.refused.jsonl` (`Suite::refused`).

use super::{run, search, Answer, Criterion, Suite, Vector};
use crate::sema::views::{self, Ranges};
use crate::sema::{Decider, Program, Value};
use serde_json::{json, Map, Value as Json};

/// Calls per list shape at most, so a rule with wide tables stays a suite a person can read.
const MOST_BASES: usize = 40;
const MOST_ELEMENTS: usize = 400;
/// The longest list the suite writes out whole (a longer maximum is met by its analysis).
const LONGEST_WRITTEN: u32 = 1000;

pub fn build(p: &Program) -> Suite {
    let bases = bases(p);
    let elements: Vec<Vec<Json>> = (0..p.sequences.len()).map(|s| elements_of(p, s)).collect();
    let empty = |base: &Json| {
        let mut m = base.as_object().cloned().unwrap_or_default();
        for seq in &p.sequences {
            m.insert(seq.name.clone(), json!([]));
        }
        m
    };
    let mut calls: Vec<(Json, String)> = Vec::new();
    for base in &bases {
        calls.push((Json::Object(empty(base)), "walk: no elements".into()));
    }
    let first = bases.first().cloned().unwrap_or_else(|| json!({}));
    let with = |s: usize, list: Vec<Json>, base: &Json| {
        let mut m = empty(base);
        m.insert(p.sequences[s].name.clone(), Json::Array(list));
        Json::Object(m)
    };
    let mut transitions = Vec::new();
    for (s, seq) in p.sequences.iter().enumerate() {
        // One element on each base in turn; then, of every element on every base, those that
        // fire a row, give a verdict or follow one verdict by another no call before did.
        let folds: Vec<usize> = (0..p.folds.len()).filter(|&f| p.folds[f].seq == s).collect();
        let mut seen = Seen::default();
        for (i, e) in elements[s].iter().enumerate() {
            let call = with(s, vec![e.clone()], &bases[i % bases.len()]);
            seen.note(p, &folds, &run(p, &call));
            calls.push((call, format!("walk: one element of {}", seq.name)));
        }
        for base in &bases {
            for e in &elements[s] {
                let call = with(s, vec![e.clone()], base);
                if seen.note(p, &folds, &run(p, &call)) {
                    calls.push((call, format!("walk: one element of {}", seq.name)));
                }
            }
        }
        // Two elements, on the first base: a row one alone cannot fire (one that reads a
        // summary of the others: the dearest line, the gap to it), and each verdict after
        // each other. Two that both take under take_unique are refused as a contradiction,
        // which meets "a take then a take" all the same.
        // On the base under which one element at a time shows the most (rows, verdicts).
        let shows = |base: &Json| {
            let mut traces: Vec<String> = elements[s]
                .iter()
                .filter_map(|e| match run(p, &with(s, vec![e.clone()], base)) {
                    Answer::Record { outcome, .. } => Some(format!("{:?}", outcome.trace)),
                    _ => None,
                })
                .collect();
            traces.sort();
            traces.dedup();
            traces.len()
        };
        let base = bases.iter().max_by_key(|b| shows(b)).cloned().unwrap_or_else(|| first.clone());
        let single: Vec<Option<Vec<Vec<u32>>>> = elements[s]
            .iter()
            .map(|e| match run(p, &with(s, vec![e.clone()], &base)) {
                Answer::Record { outcome, .. } => Some(folds.iter().map(|&f| verdicts(p, f, &outcome)).collect()),
                _ => None,
            })
            .collect();
        // A dozen elements spread over those found, for the lists of three.
        let n = elements[s].len();
        let mut reps: Vec<usize> = (0..12.min(n)).map(|k| k * n / 12.min(n).max(1)).collect();
        reps.dedup();
        let mut lists: Vec<Vec<usize>> = Vec::new();
        for a in 0..elements[s].len() {
            for b in 0..elements[s].len() {
                lists.push(vec![a, b]);
            }
        }
        for &a in &reps {
            for &b in &reps {
                for &c in &reps {
                    lists.push(vec![a, b, c]);
                }
            }
        }
        for list in lists {
            let call = with(s, list.iter().map(|&i| elements[s][i].clone()).collect(), &base);
            let answer = run(p, &call);
            let mut new_pairs = seen.pairs_new(p, &folds, &answer);
            if let (Answer::Contradiction(crate::eval::EvalError::TwoTakes { .. }), [a, b]) = (&answer, list.as_slice())
            {
                for (k, &f) in folds.iter().enumerate() {
                    let one = |i: usize| single[i].as_ref().and_then(|v| v[k].first().copied());
                    if let (Some(x), Some(y)) = (one(*a), one(*b)) {
                        if !seen.pairs.contains(&(f, x, y)) {
                            new_pairs.push((f, x, y));
                        }
                    }
                }
            }
            if seen.note(p, &folds, &answer) || !new_pairs.is_empty() {
                let why = match new_pairs.first() {
                    Some((f, x, y)) => format!(
                        "walk: {} then {}",
                        verdict_name(p, p.folds[*f].verdict, *x),
                        verdict_name(p, p.folds[*f].verdict, *y)
                    ),
                    None => format!("walk: {} elements of {}", list.len(), seq.name),
                };
                seen.pairs.extend(new_pairs);
                calls.push((call, why));
            }
        }
        for &f in &folds {
            let mut reached: Vec<u32> = seen.verdicts.iter().filter(|(g, _)| *g == f).map(|(_, v)| *v).collect();
            reached.sort();
            let pairs = seen.pairs.iter().filter(|(g, _, _)| *g == f).count();
            transitions.push((f, reached, pairs));
        }
        if let (true, Some(last)) = (seq.max <= LONGEST_WRITTEN, elements[s].last()) {
            let list = vec![last.clone(); seq.max as usize];
            calls.push((
                with(s, list, &first),
                format!("walk: {} elements of {}, the most it takes", seq.max, seq.name),
            ));
        }
    }
    let mut vectors: Vec<Vector> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (input, why) in calls {
        if seen.insert(input.to_string()) {
            let answer = run(p, &input);
            vectors.push(Vector { input, why, answer });
        }
    }
    vectors.extend(refusals(p, &empty(&first), &elements));
    let criteria = vec![
        rows(p, &vectors),
        Criterion { name: "boundary_pair", satisfied: 0, total: 0, missing: Vec::new() },
        Criterion { name: "shadow_pair", satisfied: 0, total: 0, missing: Vec::new() },
        Criterion { name: "value_pair", satisfied: 0, total: 0, missing: Vec::new() },
        Criterion { name: "rounding_tie", satisfied: 0, total: 0, missing: Vec::new() },
        fold_transitions(p, &vectors, &transitions),
        Criterion { name: "machine_transition", satisfied: 0, total: 0, missing: Vec::new() },
    ];
    Suite { vectors, criteria, pairs: Vec::new() }
}

/// What the calls chosen so far have shown: the rows fired, each fold's verdicts, and the
/// verdicts seen one right after the other.
#[derive(Default)]
struct Seen {
    fired: std::collections::HashSet<(usize, usize)>,
    verdicts: std::collections::HashSet<(usize, u32)>,
    pairs: std::collections::HashSet<(usize, u32, u32)>,
}

impl Seen {
    /// Record what `answer` shows; whether it fired a row or gave a verdict not seen before.
    fn note(&mut self, p: &Program, folds: &[usize], answer: &Answer) -> bool {
        let Answer::Record { outcome, .. } = answer else { return false };
        let mut new = false;
        for f in &outcome.trace {
            new |= self.fired.insert((f.table, f.row));
        }
        for &f in folds {
            for v in verdicts(p, f, outcome) {
                new |= self.verdicts.insert((f, v));
            }
        }
        new
    }

    /// The verdicts one right after the other in `answer` that no call before showed.
    fn pairs_new(&self, p: &Program, folds: &[usize], answer: &Answer) -> Vec<(usize, u32, u32)> {
        let Answer::Record { outcome, .. } = answer else { return Vec::new() };
        let mut out = Vec::new();
        for &f in folds {
            for w in verdicts(p, f, outcome).windows(2) {
                let pair = (f, w[0], w[1]);
                if !self.pairs.contains(&pair) && !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
        out
    }
}

/// The verdict fold `f` read of each element, in order, off the trace: the member each row
/// of the verdict's table that fired stores (a verdict decided otherwise shows none).
fn verdicts(p: &Program, f: usize, outcome: &crate::eval::Outcome) -> Vec<u32> {
    let verdict = p.folds[f].verdict;
    let Some(t) = p.cell_table(verdict) else { return Vec::new() };
    let k = p.tables[t].results.iter().position(|&r| r == verdict).expect("the table decides the verdict");
    outcome
        .trace
        .iter()
        .filter(|fired| fired.table == t)
        .filter_map(|fired| match p.tables[t].rows[fired.row - 1].results[k].as_ref().map(|e| &e.kind) {
            Some(crate::sema::TExprKind::Const(Value::Enum(v))) => Some(*v),
            _ => None,
        })
        .collect()
}

fn verdict_name(p: &Program, verdict: usize, v: u32) -> String {
    match &p.vars[verdict].ty {
        crate::sema::Ty::Enum(e) => p.enums[*e].values[v as usize].name.clone(),
        _ => v.to_string(),
    }
}

/// The walks' answers as the call's search reads them: each over its declared range, or a
/// span around zero wide enough for every cell that tests it.
fn answer_ranges(p: &Program) -> Ranges {
    let wide = crate::num::int(1_000_000_000);
    p.vars
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v.decided_by, Some(Decider::Summary(_) | Decider::Fold(_))))
        .map(|(i, v)| {
            (
                i,
                v.range
                    .clone()
                    .unwrap_or((Value::Num(-wide.clone() * v.ty.factor()), Value::Num(wide.clone() * v.ty.factor()))),
            )
        })
        .collect()
}

/// The call's inputs: the search over the call, each walk's answer dropped.
fn bases(p: &Program) -> Vec<Json> {
    let outer = views::outer(p, &answer_ranges(p)).program;
    let mut s = search::Search::new(&outer);
    s.rows();
    s.boundary_pairs();
    let (found, _) = s.into_vectors();
    let mut out: Vec<Json> = Vec::new();
    for v in found {
        let kept: Map<String, Json> = v
            .input
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| p.inputs.iter().any(|&i| &p.vars[i].name == *k))
            .map(|(k, x)| (k.clone(), x.clone()))
            .collect();
        let kept = Json::Object(kept);
        if !out.contains(&kept) {
            out.push(kept);
        }
    }
    if out.is_empty() {
        let seed: Map<String, Json> = p
            .inputs
            .iter()
            .filter_map(|&i| Some((p.vars[i].name.clone(), super::interesting(p, i).into_iter().next()?)))
            .collect();
        out.push(Json::Object(seed));
    }
    // Each input at each value a cell or its range makes interesting, the rest as found first.
    let first = out[0].clone();
    for &i in &p.inputs {
        for x in super::interesting(p, i) {
            let mut m = first.as_object().cloned().unwrap_or_default();
            m.insert(p.vars[i].name.clone(), x);
            let b = Json::Object(m);
            if !out.contains(&b) {
                out.push(b);
            }
        }
    }
    out.truncate(MOST_BASES);
    out
}

/// The elements of sequence `s`: the search over the element of each walk over it, its
/// fields kept.
fn elements_of(p: &Program, s: usize) -> Vec<Json> {
    let fields: Vec<&str> = p.sequences[s].fields.iter().map(|&f| p.vars[f].name.as_str()).collect();
    let mut out: Vec<Json> = Vec::new();
    let mut ranges = answer_ranges(p);
    for (v, var) in p.vars.iter().enumerate() {
        if var.frame.is_none() && var.decided_by.is_some() && var.range.is_none() && var.ty.is_numeric() {
            let wide = crate::num::int(1_000_000_000) * var.ty.factor();
            ranges.push((v, (Value::Num(-wide.clone()), Value::Num(wide))));
        }
    }
    for w in (0..p.walks.len()).filter(|&w| p.walks[w].seq == s) {
        let view = views::element(p, w, &ranges).program;
        let mut search = search::Search::new(&view);
        search.rows();
        search.boundary_pairs();
        let (found, _) = search.into_vectors();
        for v in found {
            let kept: Map<String, Json> = v
                .input
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| fields.contains(&k.as_str()))
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect();
            let kept = Json::Object(kept);
            if kept.as_object().is_some_and(|m| m.len() == fields.len()) && !out.contains(&kept) {
                out.push(kept);
            }
        }
    }
    // Each field at each value a cell or its range makes interesting, the rest as found
    // first (or at the first such value of each, where the search found none).
    let seed: Map<String, Json> = p.sequences[s]
        .fields
        .iter()
        .filter_map(|&f| Some((p.vars[f].name.clone(), super::interesting(p, f).into_iter().next()?)))
        .collect();
    if out.is_empty() && seed.len() == fields.len() {
        out.push(Json::Object(seed));
    }
    // Every combination of those values, where there are few enough.
    let values: Vec<(String, Vec<Json>)> =
        p.sequences[s].fields.iter().map(|&f| (p.vars[f].name.clone(), super::interesting(p, f))).collect();
    let combinations = values.iter().map(|(_, xs)| xs.len()).try_fold(1usize, |n, k| n.checked_mul(k));
    if combinations.is_some_and(|n| n <= 400) {
        let mut all: Vec<Map<String, Json>> = vec![Map::new()];
        for (name, xs) in &values {
            all = all
                .into_iter()
                .flat_map(|m| {
                    xs.iter().map(move |x| {
                        let mut m = m.clone();
                        m.insert(name.clone(), x.clone());
                        m
                    })
                })
                .collect();
        }
        for m in all {
            let e = Json::Object(m);
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    if let Some(first) = out.first().cloned() {
        for &f in &p.sequences[s].fields {
            for x in super::interesting(p, f) {
                let mut m = first.as_object().cloned().unwrap_or_default();
                m.insert(p.vars[f].name.clone(), x);
                let e = Json::Object(m);
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
    }
    out.truncate(MOST_ELEMENTS);
    out
}

/// The door's refusals of a sequence: not an array, too many elements, an element that is
/// not an object, and for each field of one element what the door refuses of an input of
/// its kind, a key that is no field.
fn refusals(p: &Program, empty: &Map<String, Json>, elements: &[Vec<Json>]) -> Vec<Vector> {
    let mut out = super::refusals_from(p, Json::Object(empty.clone()));
    let mut add = |why: String, input: Json| {
        let answer = run(p, &input);
        if matches!(answer, Answer::Refused(_)) {
            out.push(Vector { input, why, answer });
        }
    };
    for (s, seq) in p.sequences.iter().enumerate() {
        let with = |list: Json| {
            let mut m = empty.clone();
            m.insert(seq.name.clone(), list);
            Json::Object(m)
        };
        let n = &seq.name;
        add(format!("refused: {n} missing"), {
            let mut m = empty.clone();
            m.remove(n);
            Json::Object(m)
        });
        add(format!("refused: {n} not a sequence"), with(json!({})));
        add(format!("refused: an element of {n} not an object"), with(json!([1])));
        let Some(e) = elements[s].first() else { continue };
        if seq.max <= LONGEST_WRITTEN {
            add(
                format!("refused: {n} with one element too many"),
                with(Json::Array(vec![e.clone(); seq.max as usize + 1])),
            );
        }
        for &f in &seq.fields {
            let var = &p.vars[f];
            let field = var.name.as_str();
            let one = |value: Option<Json>| {
                let mut m = e.as_object().cloned().unwrap_or_default();
                match value {
                    Some(v) => m.insert(field.to_string(), v),
                    None => m.remove(field),
                };
                with(Json::Array(vec![e.clone(), Json::Object(m)]))
            };
            add(format!("refused: {n}[1].{field} missing"), one(None));
            for w in super::wrong_kinds(&var.ty) {
                add(format!("refused: {n}[1].{field} = {w}"), one(Some(w)));
            }
            if let Some((lo, hi)) = &var.range {
                for (end, beyond) in [("below", super::step(p, var, lo, -1)), ("above", super::step(p, var, hi, 1))] {
                    if let Some(b) = beyond {
                        add(format!("refused: {n}[1].{field} {end} its range"), one(Some(b)));
                    }
                }
            }
        }
        let mut extra = e.as_object().cloned().unwrap_or_default();
        extra.insert("not_a_field".into(), json!(1));
        add(format!("refused: {n}[0] with a key that is not a field"), with(Json::Array(vec![Json::Object(extra)])));
    }
    out
}

/// Every row of every table fired by some case of the suite.
fn rows(p: &Program, vectors: &[Vector]) -> Criterion {
    let mut missing = Vec::new();
    let mut total = 0;
    for (t, table) in p.tables.iter().enumerate() {
        for row in 1..=table.rows.len() {
            total += 1;
            let fired = vectors.iter().any(|v| match &v.answer {
                Answer::Record { outcome, .. } => outcome.trace.iter().any(|f| f.table == t && f.row == row),
                _ => false,
            });
            if !fired {
                missing.push((
                    format!("table {} row {row}", table.name),
                    "no call of the suite fires this row: no element the search found reaches it".to_string(),
                ));
            }
        }
    }
    Criterion { name: "row", satisfied: total - missing.len(), total, missing }
}

/// The `fold_transition` obligations, each met by a case of the suite: no element and one
/// element of each sequence; for each fold, each verdict, and each two one after the other.
fn fold_transitions(p: &Program, vectors: &[Vector], transitions: &[(usize, Vec<u32>, usize)]) -> Criterion {
    let mut total = 0;
    let mut missing = Vec::new();
    let has = |why: &str| vectors.iter().any(|v| v.why == why);
    for seq in &p.sequences {
        total += 2;
        if !has("walk: no elements") {
            missing.push((format!("{}: no elements", seq.name), "call the rule with an empty list".into()));
        }
        if !has(&format!("walk: one element of {}", seq.name)) {
            missing.push((format!("{}: one element", seq.name), "no element of it passes the door".into()));
        }
    }
    for (f, reached, pairs) in transitions {
        let fold = &p.folds[*f];
        let members = match &p.vars[fold.verdict].ty {
            crate::sema::Ty::Enum(e) => p.enums[*e].values.len() as u32,
            _ => 0,
        };
        for a in 0..members {
            total += 1;
            if !reached.contains(&a) {
                let what = format!("{}: verdict {}", p.vars[fold.into].name, verdict_name(p, fold.verdict, a));
                missing.push((what, "no element the search found gets this verdict".into()));
            }
        }
        // Every two reached verdicts can follow one another but after a `stop`, which ends
        // the walk's reading: each element's verdict is its own.
        let going =
            reached.iter().filter(|&&v| fold.actions[v as usize] != Some(crate::syntax::ast::FoldAction::Stop)).count();
        let want = going * reached.len();
        total += want;
        if *pairs < want {
            let what = format!("{}: {} of {want} verdicts one after another", p.vars[fold.into].name, pairs);
            missing.extend(
                (*pairs..want)
                    .map(|_| (what.clone(), "no two elements the search found give them in that order".to_string())),
            );
        }
    }
    Criterion { name: "fold_transition", satisfied: total - missing.len(), total, missing }
}
