//! What `rulec doc` says of a rule that walks a sequence (reference §6.3): each sequence
//! and its element's fields, each walk as one pass over its elements, and each summary and
//! fold in words, as a card like a table's or a define's.

use super::{capitalized, code, h, strong, text, words, Audience, Block, Line, Rule, Table, TableKind, TableRow};
use crate::graph::DeciderRef;
use crate::sema::*;
use crate::syntax::ast::{FoldAction, FoldKind, SummaryOp};

/// "Sequences": each sequence with its fields, then each walk, the per-element steps it
/// takes and the values it finds. Nothing for a rule that walks none.
pub(super) fn sequences_section(r: &Rule, audience: Audience, b: &mut Vec<Block>) {
    let p = r.p;
    if !p.walks_sequences() {
        return;
    }
    let title = match audience {
        Audience::Approver => "Sequences",
        Audience::Customer => "The lists it reads",
    };
    b.push(h(2, "sequences", vec![text(title)]));
    for seq in &p.sequences {
        b.push(Block::Para(vec![
            strong(&seq.name),
            text(format!(": a list of up to {} elements, each with these fields.", seq.max)),
        ]));
        let rows = seq
            .fields
            .iter()
            .map(|&f| {
                let var = r.var(f);
                TableRow {
                    cells: vec![
                        vec![code(&var.name)],
                        vec![text(words::var_words(p, var, audience))],
                        vec![text(words::unit_column(&var.ty))],
                        vec![text(words::range_words(p, var).unwrap_or_default())],
                    ],
                    number: None,
                }
            })
            .collect();
        b.push(Block::Table(Table {
            kind: TableKind::Plain,
            head: ["field", "what it is", "unit", "range"].iter().map(|s| vec![text(*s)]).collect(),
            rows,
        }));
    }
    let mut items: Vec<Line> = Vec::new();
    for walk in &p.walks {
        items.push(walk_line(r, walk));
    }
    b.push(Block::Para(vec![text(
        "Each walk is one pass over its list, element by element: the values that read no element are \
         worked out before it, the per-element ones for each element in turn, and what reads its answer after.",
    )]));
    b.push(Block::List(items));
}

/// "One pass over `lines`: for each element `line_total`, `pick`; it finds `subtotal`, `discount`."
fn walk_line(r: &Rule, walk: &WalkIr) -> Line {
    let p = r.p;
    let mut l = vec![text("One pass over "), code(&p.sequences[walk.seq].name)];
    let per_element: Vec<VarId> = walk
        .body
        .iter()
        .flat_map(|s| match *s {
            Step::Table(t) => p.tables[t].results.clone(),
            Step::Define(d) => vec![p.defines[d].var],
            Step::Walk(_) => Vec::new(),
        })
        .collect();
    if !per_element.is_empty() {
        l.push(text(": for each element "));
        names(r, &per_element, &mut l);
    }
    let found: Vec<VarId> =
        walk.summaries.iter().map(|&s| p.summaries[s].var).chain(walk.folds.iter().map(|&f| p.folds[f].into)).collect();
    l.push(text("; it finds "));
    names(r, &found, &mut l);
    l.push(text("."));
    l
}

fn names(r: &Rule, vars: &[VarId], l: &mut Line) {
    for (i, &v) in vars.iter().enumerate() {
        if i > 0 {
            l.push(text(", "));
        }
        l.push(code(&r.var(v).name));
    }
}

/// The sentence a summary or a fold is, in words: what is read of each element and what
/// the answer is when there is none.
pub(super) fn decider_words(r: &Rule, d: DeciderRef) -> Option<String> {
    let p = r.p;
    match d {
        DeciderRef::Summary(s) => {
            let summary = &p.summaries[s];
            let seq = &p.sequences[summary.seq].name;
            let of = summary.of.map(|v| format!("`{}`", r.var(v).name)).unwrap_or_default();
            let counted = match &summary.filter {
                Some(f) => format!("the elements of `{seq}` where `{}`", r.src(f.span)),
                None => format!("the elements of `{seq}`"),
            };
            let empty = summary.empty.as_ref().map(|e| format!(", or `{}` when there is none", r.src(e.span)));
            Some(match summary.op {
                SummaryOp::Sum => format!("The sum of {of} over {counted}; 0 when there is none."),
                SummaryOp::Count => format!("How many of {counted} there are."),
                SummaryOp::Max => format!("The largest {of} of {counted}{}.", empty.unwrap_or_default()),
                SummaryOp::Min => format!("The smallest {of} of {counted}{}.", empty.unwrap_or_default()),
            })
        }
        DeciderRef::Fold(f) => {
            let fold = &p.folds[f];
            let seq = &p.sequences[fold.seq].name;
            let value = &r.var(fold.value).name;
            let verdict = r.var(fold.verdict);
            let members = |want: FoldAction| -> String {
                let names: Vec<String> = fold
                    .actions
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| **a == Some(want))
                    .filter_map(|(i, _)| match verdict.ty {
                        Ty::Enum(e) => Some(words::enum_value(p, e, i as u32, Audience::Approver)),
                        _ => None,
                    })
                    .collect();
                words::listed(&names, "or")
            };
            let chosen = fold.kind.action();
            let whose = format!("whose `{}` is {}", verdict.name, members(chosen));
            let mut said = match fold.kind {
                FoldKind::TakeUnique => format!(
                    "The `{value}` of the one element of `{seq}` {whose}; two such elements are a contradiction, and the call has no answer."
                ),
                FoldKind::TakeFirst => format!("The `{value}` of the first element of `{seq}` {whose}."),
                FoldKind::KeepMax => format!("The largest `{value}` among the elements of `{seq}` {whose}."),
            };
            if fold.actions.contains(&Some(FoldAction::Stop)) {
                said.push_str(&format!(
                    " At the first element whose `{}` is {}, it stops reading the list.",
                    verdict.name,
                    members(FoldAction::Stop)
                ));
            }
            let done = if chosen == FoldAction::Keep { "kept" } else { "taken" };
            said.push_str(&format!(" `{}` when none is {done}.", r.src(fold.empty.span)));
            Some(said)
        }
        DeciderRef::Table(_) | DeciderRef::Define(_) => None,
    }
}

/// The heading and card of a summary or a fold.
pub(super) fn card(r: &Rule, d: DeciderRef, audience: Audience) -> (Line, Vec<Block>) {
    let p = r.p;
    let var = r.var(d.decides(p)[0]);
    let (what, seq) = match d {
        DeciderRef::Summary(s) => (p.summaries[s].op.as_str(), p.summaries[s].seq),
        DeciderRef::Fold(f) => (p.folds[f].kind.as_str(), p.folds[f].seq),
        DeciderRef::Table(_) | DeciderRef::Define(_) => unreachable!("a table or a define has a card of its own"),
    };
    let heading = match audience {
        Audience::Approver => {
            vec![text(format!("{} ", capitalized(what))), code(&var.name), text(" over "), code(&p.sequences[seq].name)]
        }
        Audience::Customer => vec![text(format!("How {} is worked out", var.name))],
    };
    let mut card = vec![Block::Para(vec![text(decider_words(r, d).unwrap_or_default())])];
    let mut said = words::var_words(p, var, audience);
    if let (Some(range), Audience::Approver) = (words::range_words(p, var), audience) {
        said.push_str(&format!(", {range}"));
    }
    card.push(Block::Para(vec![text(format!("{}.", capitalized(&said)))]));
    (heading, card)
}

/// "Worked out once for each element of `lines`." for a value inside a walk.
pub(super) fn per_element_note(r: &Rule, d: DeciderRef) -> Option<Block> {
    let p = r.p;
    let seq = d.decides(p).iter().find_map(|&v| p.vars[v].frame)?;
    Some(Block::Para(vec![
        text("Worked out once for each element of "),
        code(&p.sequences[seq].name),
        text(", inside its walk."),
    ]))
}

/// Where a value read inside or across a walk comes from, for "where it comes from".
pub(super) fn from_words(r: &Rule, v: VarId) -> Option<Line> {
    let p = r.p;
    let var = r.var(v);
    match (var.kind, var.frame) {
        (VarKind::Element, Some(s)) => Some(vec![
            text("a field of each element of "),
            code(&p.sequences[s].name),
            text(format!(": {}", words::var_words(p, var, Audience::Approver))),
        ]),
        _ => None,
    }
}
