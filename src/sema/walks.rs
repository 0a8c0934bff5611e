//! Sequences and walks (reference §6.3): the `elements` a rule walks, the summaries and
//! folds over them, which value belongs to an element (its frame), and the walks the
//! evaluation order makes of them — each one loop over one sequence.

use super::*;
use crate::syntax::ast::{FoldAction, FoldKind, SummaryOp};

/// The most elements a sequence may declare: a walk's proofs multiply by it, and generated
/// code counts with it in every language.
pub const MAX_ELEMENTS: u32 = 1_000_000;

impl Lower {
    /// Each `elements` declaration: a sequence, and one variable for each field of its element.
    pub(super) fn collect_sequences(&mut self, ast: &ast::File) {
        for item in &ast.items {
            let ItemKind::Elements(e) = &item.kind else { continue };
            let alias = self.check_decl_name(self.file, &e.name);
            let name = e.name.name.name.clone();
            if let Some(&prev) = self.var_index.get(&name) {
                let d = Diagnostic::new("E052", self.file, e.name.name.span, format!("`{name}` is declared twice"))
                    .label("declared again here")
                    .secondary(self.file, self.vars[prev].span, "first declared here")
                    .help("give one of them another name");
                self.push(d);
                continue;
            }
            let max = match &e.max.kind {
                ast::LitKind::Number { value, unit: None } if value.is_integer() => {
                    value.to_integer().try_into().ok().filter(|&n: &u32| (1..=MAX_ELEMENTS).contains(&n))
                }
                _ => None,
            };
            let Some(max) = max else {
                self.push(
                    Diagnostic::new(
                        "E079",
                        self.file,
                        e.max.span,
                        "the most elements a sequence takes is a whole number",
                    )
                    .label(format!("expected a count from 1 to {MAX_ELEMENTS}"))
                    .help(format!("write `elements {name} up to 100: …`")),
                );
                continue;
            };
            let seq = self.sequences.len();
            let mut fields = Vec::new();
            for f in &e.fields {
                let alias = self.check_decl_name(self.file, &f.name);
                let Some((ty, optional)) = self.type_expr(&f.ty) else { continue };
                if optional || matches!(f.ty.kind, ast::TypeKind::List(_)) {
                    self.push(
                        Diagnostic::new("E079", self.file, f.ty.span, "an element's field is one value, never none")
                            .label("not allowed here")
                            .help("declare the field with a plain type: an element with no value there is another element"),
                    );
                    continue;
                }
                let range = self.range(f.range.as_ref(), &ty, true, &f.name, f.ty.span);
                fields.push(self.add_var(Var {
                    name: f.name.name.name.clone(),
                    alias,
                    kind: VarKind::Element,
                    ty,
                    optional: false,
                    range: range.as_ref().map(|r| r.0.clone()),
                    range_text: range.map(|r| r.1),
                    range_span: f.range.as_ref().map(|r| r.span),
                    rounding: None,
                    decided_by: None,
                    span: f.name.name.span,
                    decl_span: item.span,
                    declared: true,
                    list: false,
                    default: None,
                    frame: Some(seq),
                }));
            }
            self.seq_index.insert(name.clone(), seq);
            self.sequences.push(SequenceIr { name, alias, max, fields, span: e.name.name.span, decl_span: item.span });
        }
    }

    fn sequence(&mut self, id: &ast::Ident) -> Option<usize> {
        let found = self.seq_index.get(&id.name).copied();
        if found.is_none() {
            self.push(
                Diagnostic::new("E050", self.file, id.span, format!("unknown sequence `{}`", id.name))
                    .label("no `elements` declares it")
                    .help(format!("declare it: `elements {} up to 100: FIELD: TYPE RANGE`", id.name)),
            );
        }
        found
    }

    /// A define whose right-hand side is a summary: typed from what it sums or compares.
    pub(super) fn summary_define(&mut self, v: VarId, m: &ast::Summary, span: Span) -> bool {
        let seq = self.sequence(&m.over);
        let of = match &m.of {
            Some(id) => match self.name_expr(id, None, false) {
                Some(TExpr { kind: TExprKind::Var(x), ty, .. }) if ty.is_numeric() || ty == Ty::Date => Some((x, ty)),
                Some(te) => {
                    let tn = self.tyname(&te.ty);
                    self.push(
                        Diagnostic::new(
                            "E061",
                            self.file,
                            id.span,
                            format!("`{}` is {tn}, and a summary adds up or compares numbers", id.name),
                        )
                        .label("not a number")
                        .help("sum, max and min read a number, an amount or a date of each element"),
                    );
                    return false;
                }
                None => return false,
            },
            None => None,
        };
        if m.op == SummaryOp::Sum && of.as_ref().is_some_and(|(_, t)| *t == Ty::Date) {
            self.push(
                Diagnostic::new("E061", self.file, span, "dates do not add up")
                    .label("a sum of dates")
                    .help("sum a number or an amount; a latest or earliest date is a `max` or a `min`"),
            );
            return false;
        }
        let filter = match &m.filter {
            Some(f) => match self.bool_expr(f, false) {
                Some(te) => Some(te),
                None => return false,
            },
            None => None,
        };
        let ty = match (&of, m.op) {
            (_, SummaryOp::Count) => Ty::Int,
            (Some((_, t)), _) => t.clone(),
            (None, _) => unreachable!("the parser gives every sum, max and min a value"),
        };
        let empty = match &m.empty {
            Some(e) => match self.expr(e, Some(&ty), false) {
                Some(te) if self.assignable(&te, &ty, e.span) => Some(te),
                _ => return false,
            },
            None => None,
        };
        let var = &self.vars[v];
        if var.declared || var.kind == VarKind::Output {
            let probe = TExpr { kind: TExprKind::Var(v), ty: ty.clone(), grid: Grid::Zero, span };
            let want = var.ty.clone();
            if !self.assignable(&probe, &want, span) {
                return false;
            }
        } else {
            self.vars[v].ty = match ty {
                Ty::Money { unit, tag: Tag::Any } => Ty::Money { unit, tag: Tag::Untagged },
                t => t,
            };
        }
        let Some(seq) = seq else { return false };
        let si = self.summaries.len();
        self.summaries.push(SummaryIr { var: v, seq, op: m.op, of: of.map(|(x, _)| x), filter, empty, span });
        self.vars[v].decided_by = Some(Decider::Summary(si));
        true
    }

    /// Each `fold`: its sequence, the value it takes or keeps, the verdict whose members name
    /// what each element does, its empty answer and the value it decides.
    /// Returns the values a fold that failed to lower would have decided (reported already,
    /// so not "decided by nothing").
    pub(super) fn lower_folds(&mut self, ast: &ast::File) -> Vec<String> {
        let mut failed = Vec::new();
        for item in &ast.items {
            let ItemKind::Fold(f) = &item.kind else { continue };
            let Some(fi) = self.fold(f, item.span) else {
                let first_output = self.vars.iter().find(|v| v.kind == VarKind::Output).map(|v| v.name.clone());
                failed.extend(f.into.as_ref().map(|i| i.name.clone()).or(first_output));
                continue;
            };
            let into = self.folds[fi].into;
            if self.vars[into].decided_by.is_some() {
                let name = self.vars[into].name.clone();
                let at = f.into.as_ref().map_or(f.kind_span, |i| i.span);
                self.push(
                    Diagnostic::new("E065", self.file, at, format!("`{name}` is decided twice"))
                        .label("a fold decides it, and so does another table, define or fold")
                        .help("keep one decider per name"),
                );
                continue;
            }
            self.vars[into].decided_by = Some(Decider::Fold(fi));
        }
        failed
    }

    fn fold(&mut self, f: &ast::FoldDecl, span: Span) -> Option<usize> {
        let seq = self.sequence(&f.over)?;
        let into = match &f.into {
            Some(id) => match self.var_index.get(&id.name).copied() {
                Some(v) if matches!(self.vars[v].kind, VarKind::Output | VarKind::Value) && !self.vars[v].list => v,
                _ => {
                    self.push(
                        Diagnostic::new(
                            "E080",
                            self.file,
                            id.span,
                            format!("a fold answers into `{}`, which is not an output or a value", id.name),
                        )
                        .label("not an output or a value")
                        .help(format!("declare `value {}: TYPE RANGE` (or an output) for the fold's answer", id.name)),
                    );
                    return None;
                }
            },
            None => (0..self.vars.len()).find(|&v| self.vars[v].kind == VarKind::Output)?,
        };
        let want = self.vars[into].ty.clone();
        let value = self.name_expr(&f.value, None, false)?;
        let TExprKind::Var(value_var) = value.kind else {
            self.push(
                Diagnostic::new(
                    "E080",
                    self.file,
                    f.value.span,
                    format!("`{}` is not a value of an element", f.value.name),
                )
                .label("not a value")
                .help("name a field of the element, or a value computed from one"),
            );
            return None;
        };
        if !self.assignable(&value, &want, f.value.span) {
            return None;
        }
        if f.kind == FoldKind::KeepMax && !(value.ty.is_numeric() || value.ty == Ty::Date) {
            self.push(
                Diagnostic::new("E080", self.file, f.value.span, "keep_max compares what it keeps")
                    .label("not a number, an amount or a date")
                    .help("keep a number, an amount or a date; take_first or take_unique take any value"),
            );
            return None;
        }
        let verdict = self.name_expr(&f.verdict, None, false)?;
        let (TExprKind::Var(verdict_var), Ty::Enum(e)) = (verdict.kind, verdict.ty) else {
            self.push(
                Diagnostic::new("E080", self.file, f.verdict.span, format!("`{}` is not a verdict", f.verdict.name))
                    .label("not a value of an enum")
                    .help(
                        "decide a value of an enum for each element in a table, and name what each of its values does",
                    ),
            );
            return None;
        };
        let mut actions = vec![None; self.enums[e].values.len()];
        for (action, member) in &f.clauses {
            let Some(p) = self.enums[e].position(&member.name) else {
                let en = self.enums[e].name.clone();
                self.push(
                    Diagnostic::new(
                        "E080",
                        self.file,
                        member.span,
                        format!("`{}` is not a value of `{en}`", member.name),
                    )
                    .label("not a verdict")
                    .help(format!("name a value of `{en}`, the verdict's enum")),
                );
                return None;
            };
            if *action != FoldAction::Stop && *action != f.kind.action() {
                self.push(
                    Diagnostic::new(
                        "E080",
                        self.file,
                        member.span,
                        format!("{} does not {}", f.kind.as_str(), action.as_str()),
                    )
                    .label("not an action of this fold")
                    .help(format!(
                        "{} hands an element's value over with `{}`; any fold ends the walk with `stop`",
                        f.kind.as_str(),
                        f.kind.action().as_str()
                    )),
                );
                return None;
            }
            if actions[p as usize].is_some() {
                self.push(
                    Diagnostic::new("E080", self.file, member.span, format!("`{}` is named twice", member.name))
                        .label("named again")
                        .help("give each verdict one action"),
                );
                return None;
            }
            actions[p as usize] = Some(*action);
        }
        let empty = self.expr(&f.empty, Some(&want), false)?;
        if !self.assignable(&empty, &want, f.empty.span) {
            return None;
        }
        let fi = self.folds.len();
        self.folds.push(FoldIr {
            into,
            seq,
            kind: f.kind,
            value: value_var,
            verdict: verdict_var,
            actions,
            empty,
            span,
        });
        Some(fi)
    }

    /// Which values belong to an element: a field, and whatever a table or define computes
    /// from one. A value of one element is read only on its walk: by another of its values,
    /// by a summary or a fold over its sequence — never by a value of the call (E079).
    pub(super) fn frames(&mut self, tables: &[TableIr], constraints: &[ConstraintIr]) {
        let mut deciders: Vec<(Vec<VarId>, Vec<VarId>, Span)> = Vec::new();
        for t in tables {
            let mut reads = t.conds.clone();
            for row in &t.rows {
                row.results.iter().flatten().for_each(|e| collect_vars(e, &mut reads));
            }
            deciders.push((t.results.clone(), reads, t.name_span));
        }
        for d in &self.defines {
            let mut reads = Vec::new();
            collect_vars(&d.expr, &mut reads);
            deciders.push((vec![d.var], reads, d.span));
        }
        // Until nothing moves: a decider reading a value of an element is of that element.
        loop {
            let mut moved = false;
            for (writes, reads, span) in &deciders {
                let frames: Vec<usize> = reads.iter().filter_map(|&r| self.vars[r].frame).collect();
                let Some(&first) = frames.first() else { continue };
                if let Some(&other) = frames.iter().find(|&&f| f != first) {
                    let (a, b) = (self.sequences[first].name.clone(), self.sequences[other].name.clone());
                    self.push(
                        Diagnostic::new("E079", self.file, *span, format!("this reads an element of `{a}` and one of `{b}`"))
                            .label("two sequences at once")
                            .note("a walk goes over one sequence; a value of an element exists only while the walk is on that element")
                            .help(format!("summarise one of them first (`sum`, `count`, `max`, `min` over `{b}`), and read the summary")),
                    );
                    return;
                }
                for &w in writes {
                    if self.vars[w].frame.is_none() {
                        self.vars[w].frame = Some(first);
                        moved = true;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        for v in 0..self.vars.len() {
            let var = &self.vars[v];
            if let (VarKind::Output, Some(s)) = (var.kind, var.frame) {
                let (name, seq, span) = (var.name.clone(), self.sequences[s].name.clone(), var.span);
                self.push(
                    Diagnostic::new(
                        "E079",
                        self.file,
                        span,
                        format!("output `{name}` is computed from an element of `{seq}`"),
                    )
                    .label("an output has one value for the call, not one for each element")
                    .help(format!("decide it from a summary over `{seq}` (`sum`, `count`, `max`, `min`) or a fold")),
                );
            }
        }
        for c in constraints {
            let mut reads = Vec::new();
            collect_vars(&c.expr, &mut reads);
            if let Some(s) = reads.iter().find_map(|&r| self.vars[r].frame) {
                let seq = self.sequences[s].name.clone();
                self.push(
                    Diagnostic::new("E079", self.file, c.span, format!("a constraint reads an element of `{seq}`"))
                        .label("a constraint is about the call's inputs")
                        .help("hold an element's fields by their declared ranges, or decide what an element may do in its verdict table"),
                );
            }
        }
        self.aggregator_frames();
    }

    /// A summary or a fold reads its sequence's elements and the call's values, nothing else.
    fn aggregator_frames(&mut self) {
        let mut checks: Vec<(usize, Vec<VarId>, Vec<VarId>, Span)> = Vec::new();
        for s in &self.summaries {
            let mut per_element: Vec<VarId> = s.of.into_iter().collect();
            if let Some(f) = &s.filter {
                collect_vars(f, &mut per_element);
            }
            let mut once = Vec::new();
            if let Some(e) = &s.empty {
                collect_vars(e, &mut once);
            }
            checks.push((s.seq, per_element, once, s.span));
        }
        for f in &self.folds {
            let mut once = Vec::new();
            collect_vars(&f.empty, &mut once);
            checks.push((f.seq, vec![f.value, f.verdict], once, f.span));
        }
        for (seq, per_element, once, span) in checks {
            let name = self.sequences[seq].name.clone();
            if let Some(&v) = per_element.iter().find(|&&v| self.vars[v].frame.is_some_and(|f| f != seq)) {
                let (vn, other) = (self.vars[v].name.clone(), self.sequences[self.vars[v].frame.unwrap()].name.clone());
                self.push(
                    Diagnostic::new(
                        "E079",
                        self.file,
                        span,
                        format!("this walks `{name}` and reads `{vn}`, a value of an element of `{other}`"),
                    )
                    .label("another sequence's element")
                    .help(format!("walk `{other}` for `{vn}`, or read a summary of it")),
                );
            }
            if let Some(&v) = once.iter().find(|&&v| self.vars[v].frame.is_some()) {
                let vn = self.vars[v].name.clone();
                self.push(
                    Diagnostic::new(
                        "E079",
                        self.file,
                        span,
                        format!("the empty answer reads `{vn}`, a value of an element"),
                    )
                    .label("there is no element when the answer is empty")
                    .help("answer a value of the call: a literal, an input, or a value computed from them"),
                );
            }
        }
    }

    /// A sequence an `expect` gives: `[{FIELD=VALUE, …}, …]`, every field given.
    pub(super) fn expect_sequence(&mut self, seq: usize, lit: &ast::Literal) -> Option<Vec<Value>> {
        let name = self.sequences[seq].name.clone();
        let ast::LitKind::List(items) = &lit.kind else {
            self.push(
                Diagnostic::new("E068", self.file, lit.span, format!("`{name}` is a sequence"))
                    .label("expected its elements")
                    .help("write its elements in brackets: `[{FIELD=VALUE, …}, …]`, or `[]` for none"),
            );
            return None;
        };
        let max = self.sequences[seq].max as usize;
        if items.len() > max {
            self.push(
                Diagnostic::new("E068", self.file, lit.span, format!("`{name}` takes at most {max} elements"))
                    .label(format!("{} given", items.len()))
                    .help("give fewer elements, or declare a larger count"),
            );
            return None;
        }
        let fields = self.sequences[seq].fields.clone();
        let mut out = Vec::new();
        for item in items {
            let ast::LitKind::Record(given) = &item.kind else {
                self.push(
                    Diagnostic::new(
                        "E068",
                        self.file,
                        item.span,
                        format!("an element of `{name}` is written in braces"),
                    )
                    .label("not an element")
                    .help("write `{FIELD=VALUE, …}` with every field of the element"),
                );
                return None;
            };
            let mut values = Vec::new();
            for &f in &fields {
                let field = self.vars[f].name.clone();
                let Some((_, v)) = given.iter().find(|(n, _)| n.name == field) else {
                    self.push(
                        Diagnostic::new("E068", self.file, item.span, format!("this element does not give `{field}`"))
                            .label(format!("`{field}` is missing"))
                            .help(format!("add `{field}=…`: every field of an element is given")),
                    );
                    return None;
                };
                let ty = self.vars[f].ty.clone();
                values.push(self.lit_value(v, &ty)?);
            }
            if let Some((n, _)) = given.iter().find(|(n, _)| !fields.iter().any(|&f| self.vars[f].name == n.name)) {
                self.push(
                    Diagnostic::new("E068", self.file, n.span, format!("`{}` is not a field of `{name}`", n.name))
                        .label("not a field")
                        .help("give the fields the `elements` line declares"),
                );
                return None;
            }
            out.push(Value::List(values));
        }
        Some(out)
    }

    /// The values a summary or a fold reads on each element, and those it reads once.
    fn aggregator_reads(&self, agg: Aggregator) -> (usize, Vec<VarId>, Vec<VarId>, Vec<VarId>) {
        match agg {
            Aggregator::Summary(i) => {
                let s = &self.summaries[i];
                let mut each: Vec<VarId> = s.of.into_iter().collect();
                if let Some(f) = &s.filter {
                    collect_vars(f, &mut each);
                }
                let mut once = Vec::new();
                if let Some(e) = &s.empty {
                    collect_vars(e, &mut once);
                }
                (s.seq, each, once, vec![s.var])
            }
            Aggregator::Fold(i) => {
                let f = &self.folds[i];
                let mut once = Vec::new();
                collect_vars(&f.empty, &mut once);
                (f.seq, vec![f.value, f.verdict], once, vec![f.into])
            }
        }
    }

    /// The evaluation order with walks: repeatedly the earliest-written step of the call
    /// whose reads are done; when none is, one walk over the first sequence that has
    /// summaries or folds ready, finding all of them on one pass (each with the per-element
    /// steps it needs in its body).
    pub(super) fn order_steps(&mut self, steps: &[OrderStep]) -> Option<(Vec<Step>, Vec<WalkIr>)> {
        let frame_of = |s: &OrderStep| s.3.first().and_then(|&w| self.vars[w].frame);
        let call_steps: Vec<usize> = (0..steps.len()).filter(|&i| frame_of(&steps[i]).is_none()).collect();
        let element_steps: Vec<usize> = (0..steps.len()).filter(|&i| frame_of(&steps[i]).is_some()).collect();
        let mut aggs: Vec<Aggregator> = (0..self.summaries.len()).map(Aggregator::Summary).collect();
        aggs.extend((0..self.folds.len()).map(Aggregator::Fold));
        let mut done = vec![false; self.vars.len()];
        for (v, var) in self.vars.iter().enumerate() {
            done[v] = var.kind == VarKind::Input;
        }
        let ready = |done: &[bool], reads: &[VarId], vars: &[Var]| {
            reads.iter().all(|&r| done[r] || vars[r].decided_by.is_none() && vars[r].kind != VarKind::Element)
        };
        let (mut order, mut walks) = (Vec::new(), Vec::new());
        let mut taken = vec![false; steps.len()];
        let mut found = vec![false; aggs.len()];
        loop {
            if let Some(&i) = call_steps.iter().find(|&&i| !taken[i] && ready(&done, &steps[i].2, &self.vars)) {
                taken[i] = true;
                steps[i].3.iter().for_each(|&w| done[w] = true);
                order.push(steps[i].1);
                continue;
            }
            // The aggregators whose per-element steps read nothing of the call not yet done.
            let mut walk: Option<(usize, Vec<usize>, Vec<usize>)> = None;
            for (a, &agg) in aggs.iter().enumerate() {
                if found[a] {
                    continue;
                }
                let (seq, each, once, _) = self.aggregator_reads(agg);
                if walk.as_ref().is_some_and(|w| w.0 != seq) {
                    continue;
                }
                let Some(body) = self.element_closure(steps, &element_steps, &each) else { continue };
                let mut reads = once;
                for &b in &body {
                    reads.extend(steps[b].2.iter().filter(|&&r| self.vars[r].frame.is_none()));
                }
                reads.extend(each.iter().filter(|&&r| self.vars[r].frame.is_none()));
                if !ready(&done, &reads, &self.vars) {
                    continue;
                }
                let w = walk.get_or_insert((seq, Vec::new(), Vec::new()));
                w.1.push(a);
                for b in body {
                    if !w.2.contains(&b) {
                        w.2.push(b);
                    }
                }
            }
            let Some((seq, members, mut body)) = walk else { break };
            // The body in the order its steps were written (each after what it reads, which
            // `element_closure` listed first).
            body.sort_by_key(|&b| self.element_rank(steps, &element_steps, b));
            let (mut summaries, mut folds) = (Vec::new(), Vec::new());
            for a in members {
                found[a] = true;
                let (_, _, _, writes) = self.aggregator_reads(aggs[a]);
                writes.iter().for_each(|&w| done[w] = true);
                match aggs[a] {
                    Aggregator::Summary(i) => summaries.push(i),
                    Aggregator::Fold(i) => folds.push(i),
                }
            }
            order.push(Step::Walk(walks.len()));
            walks.push(WalkIr { seq, body: body.iter().map(|&b| steps[b].1).collect(), summaries, folds });
        }
        if call_steps.iter().all(|&i| taken[i]) && found.iter().all(|&f| f) {
            return Some((order, walks));
        }
        let mut names: Vec<String> = call_steps
            .iter()
            .filter(|&&i| !taken[i])
            .flat_map(|&i| steps[i].3.iter().map(|&v| format!("`{}`", self.vars[v].name)))
            .collect();
        let mut span = call_steps.iter().find(|&&i| !taken[i]).map(|&i| steps[i].4);
        for (a, &agg) in aggs.iter().enumerate() {
            if !found[a] {
                let (_, _, _, writes) = self.aggregator_reads(agg);
                names.extend(writes.iter().map(|&v| format!("`{}`", self.vars[v].name)));
                span = span.or(Some(match agg {
                    Aggregator::Summary(i) => self.summaries[i].span,
                    Aggregator::Fold(i) => self.folds[i].span,
                }));
            }
        }
        let message = match names.as_slice() {
            [one] => format!("a cycle: {one} is computed from itself"),
            _ => format!("a cycle: {} are each computed from another", names.join(", ")),
        };
        self.push(
            Diagnostic::new("E110", self.file, span.expect("a step is left"), message)
                .label("part of the cycle")
                .note("a walk over a sequence runs after the values of the call its elements read, and before those that read what it finds")
                .help("break the cycle: one of these must be decided without the others"),
        );
        None
    }

    /// The per-element steps that compute `each` (fields need none), each after what it
    /// reads; None when one of them is not a step of the walk's sequence.
    fn element_closure(&self, steps: &[OrderStep], element_steps: &[usize], each: &[VarId]) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        let mut stack: Vec<VarId> = each.to_vec();
        let mut seen = vec![false; self.vars.len()];
        while let Some(v) = stack.pop() {
            if seen[v] || self.vars[v].frame.is_none() || self.vars[v].kind == VarKind::Element {
                continue;
            }
            seen[v] = true;
            let i = *element_steps.iter().find(|&&i| steps[i].3.contains(&v))?;
            if !out.contains(&i) {
                out.push(i);
                stack.extend(steps[i].2.iter().copied());
            }
        }
        Some(out)
    }

    /// Where per-element step `b` goes in its walk's body: after every per-element step it
    /// reads, else in the order written.
    fn element_rank(&self, steps: &[OrderStep], element_steps: &[usize], b: usize) -> (usize, usize) {
        fn depth(steps: &[OrderStep], element_steps: &[usize], b: usize, guard: usize) -> usize {
            if guard == 0 {
                return 0;
            }
            steps[b]
                .2
                .iter()
                .filter_map(|r| element_steps.iter().find(|&&i| steps[i].3.contains(r)))
                .map(|&i| 1 + depth(steps, element_steps, i, guard - 1))
                .max()
                .unwrap_or(0)
        }
        (depth(steps, element_steps, b, element_steps.len()), b)
    }
}

/// What finds one value over a sequence's elements.
#[derive(Clone, Copy, Debug)]
enum Aggregator {
    Summary(usize),
    Fold(usize),
}

/// (position in the file, the step, what it reads, what it writes, where it is)
pub(super) type OrderStep = (usize, Step, Vec<VarId>, Vec<VarId>, Span);
