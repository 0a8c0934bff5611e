//! What `rulec doc` says of a rule that walks a sequence (reference §6.3): each sequence
//! and its element's fields, each walk as one pass over its elements, and each summary and
//! fold in words, as a card like a table's or a define's.

use super::{
    capitalized, code, h, strong, text, words, Audience, Block, Inline, Line, Rule, Table, TableKind, TableRow,
};
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

/// The sentence a summary or a fold is, in words (lower case, to follow a name): what is
/// read of each element and what the answer is when there is none.
pub(super) fn decider_words(r: &Rule, d: DeciderRef) -> Line {
    let p = r.p;
    match d {
        DeciderRef::Summary(s) => {
            let summary = &p.summaries[s];
            let seq = &p.sequences[summary.seq].name;
            let mut l = match summary.op {
                SummaryOp::Sum => vec![text("the sum of ")],
                SummaryOp::Count => vec![text("how many there are of ")],
                SummaryOp::Max => vec![text("the largest ")],
                SummaryOp::Min => vec![text("the smallest ")],
            };
            if let Some(of) = summary.of {
                l.extend([code(&r.var(of).name), text(" over ")]);
            }
            l.extend([text("the elements of "), code(seq)]);
            if let Some(f) = &summary.filter {
                l.extend([text(" where "), code(r.src(f.span))]);
            }
            match (&summary.empty, summary.op) {
                (Some(e), _) => l.extend([text(", or "), code(r.src(e.span)), text(" when there is none")]),
                (None, SummaryOp::Sum) => l.push(text(", 0 when there is none")),
                (None, _) => {}
            }
            l
        }
        DeciderRef::Fold(f) => {
            let fold = &p.folds[f];
            let seq = &p.sequences[fold.seq].name;
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
            let mut l = match fold.kind {
                FoldKind::TakeUnique => {
                    vec![text("the "), code(&r.var(fold.value).name), text(" of the one element of ")]
                }
                FoldKind::TakeFirst => {
                    vec![text("the "), code(&r.var(fold.value).name), text(" of the first element of ")]
                }
                FoldKind::KeepMax => {
                    vec![text("the largest "), code(&r.var(fold.value).name), text(" among the elements of ")]
                }
            };
            l.extend([code(seq), text(" whose "), code(&verdict.name), text(format!(" is {}", members(chosen)))]);
            if fold.kind == FoldKind::TakeUnique {
                l.push(text(" (two such elements are a contradiction: the call has no answer)"));
            }
            if fold.actions.contains(&Some(FoldAction::Stop)) {
                l.extend([
                    text("; it stops at the first element whose "),
                    code(&verdict.name),
                    text(format!(" is {}", members(FoldAction::Stop))),
                ]);
            }
            let done = if chosen == FoldAction::Keep { "kept" } else { "taken" };
            l.extend([text("; "), code(r.src(fold.empty.span)), text(format!(" when none is {done}"))]);
            l
        }
        DeciderRef::Table(_) | DeciderRef::Define(_) => Vec::new(),
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
        Audience::Approver => vec![
            text(format!("{} ", capitalized(d.kind()))),
            code(&var.name),
            text(format!(": {what} over ")),
            code(&p.sequences[seq].name),
        ],
        Audience::Customer => vec![text(format!("How {} is worked out", var.name))],
    };
    let mut said = decider_words(r, d);
    if let Some(Inline::Text(first)) = said.first_mut() {
        *first = capitalized(first);
    }
    said.push(text("."));
    let mut card = vec![Block::Para(said)];
    let mut said = words::var_words(p, var, audience);
    if let (Some(range), Audience::Approver) = (words::range_words(p, var), audience) {
        said.push_str(&format!(", {range}"));
    }
    card.push(Block::Para(vec![text(format!("{}.", capitalized(&said)))]));
    if let (DeciderRef::Summary(s), Audience::Approver) = (d, audience) {
        if crate::graph::caller_keeps(p, &r.u.analysis.diagnostics).contains(&s) {
            let seq = &p.sequences[p.summaries[s].seq];
            card.push(Block::Para(vec![
                strong("The caller keeps it within its range:"),
                text(format!(" up to {} elements of ", seq.max)),
                code(&seq.name),
                text(" can take it past the range declared, and a call that does is refused after the walk (W122)."),
            ]));
        }
    }
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
