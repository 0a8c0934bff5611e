//! A walk lowered (reference §6.3, generated-code.md "A rule that walks a sequence"): one
//! loop over a sequence, its accumulators set above it; inside, the element's fields the
//! walk reads bound, the per-element steps, each summary and fold fed by assignments; below
//! it, each summary held to its declared range and each fold's answer stored. Every
//! statement is one the tree already has (an assignment of a conditional value, a refusal
//! when a test holds), so a backend spells a walk with what it spells everywhere else.

use super::code::{Expr, Kind, Node};
use super::{BoundaryTy, Builder, Role, Step, VarPlan, WalkPlan};
use crate::eval::wire::sentence;
use crate::sema::{self, VarId};
use crate::syntax::ast::{CmpOp, FoldAction, FoldKind, SummaryOp};

/// A sequence the function takes, last among its parameters, in the order declared.
#[derive(Clone, Debug)]
pub struct SequencePlan {
    /// The key on the wire: the declared name.
    pub name: String,
    /// The parameter: a variable of role `Sequence`.
    pub list: VarId,
    /// The refusal of a call without it.
    pub missing: String,
    /// The most elements a call may pass, and the refusal of more.
    pub max: u32,
    pub too_many: String,
    /// The refusals of a sequence that is not an array, and of an element that is not an
    /// object, as `lines[` + the 0-based place + this.
    pub not_a_sequence: String,
    pub not_an_element: String,
    /// The element's fields (role `Field`), in the order declared, each with its door.
    pub fields: Vec<FieldDoor>,
    /// The identifier base of the element's record type: `element` for the rule's one
    /// sequence, `<sequence>_element` where there are several (`LinesElement`).
    pub record: String,
}

/// One field's door: what an input of its type is held to, each sentence after the
/// element's place (`lines[2]` + `.quantity is out of range`).
#[derive(Clone, Debug)]
pub struct FieldDoor {
    pub var: VarId,
    pub name: String,
    pub kind: crate::eval::wire::WireKind,
    pub missing: String,
    pub not_of_kind: String,
    /// `lo..=hi` in wire integers, and the sentence after the place.
    pub range: Option<(i64, i64, String)>,
}

/// How the plan lowers one table or define of the rule (`plan::lower`), which a walk's body
/// is made of.
pub(super) type LowerStep<'a, 'b> = dyn FnMut(&mut Builder<'a>, sema::Step, &mut Vec<VarPlan>, &mut Vec<Step>) + 'b;

impl<'a> Builder<'a> {
    /// The sequences as parameters: one variable each (after every variable of the rule).
    pub(super) fn sequences(&self, vars: &mut Vec<VarPlan>) -> Vec<SequencePlan> {
        let p = self.p;
        let several = p.sequences.len() > 1;
        p.sequences
            .iter()
            .map(|s| {
                vars.push(VarPlan {
                    name: s.name.clone(),
                    base: s.ident().to_string(),
                    role: Role::Sequence,
                    kind: Kind::Num,
                    ty: BoundaryTy::Int,
                    optional: false,
                    what: format!("elements {}", s.name),
                    range: None,
                    rounding: None,
                    scaled: false,
                    list: true,
                });
                let record = match several {
                    true => format!("{}_element", s.ident()),
                    false => "element".to_string(),
                };
                SequencePlan {
                    name: s.name.clone(),
                    list: vars.len() - 1,
                    missing: sentence::missing(&s.name),
                    max: s.max,
                    too_many: sentence::too_many(&s.name, s.max),
                    not_a_sequence: sentence::not_a_sequence(&s.name),
                    not_an_element: sentence::not_an_element(""),
                    fields: self.field_doors(s, vars),
                    record,
                }
            })
            .collect()
    }

    /// The door of each field of `seq`, in declared order, each sentence after the place.
    fn field_doors(&self, seq: &sema::SequenceIr, vars: &[VarPlan]) -> Vec<FieldDoor> {
        use crate::eval::wire::WireKind;
        seq.fields
            .iter()
            .map(|&f| {
                let var = &self.p.vars[f];
                let name = format!(".{}", var.name);
                let kind = WireKind::of(&var.ty);
                FieldDoor {
                    var: f,
                    name: var.name.clone(),
                    kind,
                    missing: sentence::missing(&name),
                    not_of_kind: sentence::not_of_kind(self.p, &name, kind),
                    range: vars[f].range.map(|(lo, hi)| (lo, hi, sentence::out_of_range(&name))),
                }
            })
            .collect()
    }

    /// Walk `w` as steps pushed onto `steps`: the walk, its body after it, then what stores
    /// its answers.
    pub(super) fn walk(
        &mut self,
        w: usize,
        sequences: &[SequencePlan],
        vars: &mut Vec<VarPlan>,
        steps: &mut Vec<Step>,
        lower_step: &mut LowerStep<'a, '_>,
    ) {
        let p = self.p;
        let walk = &p.walks[w];
        let seq = &sequences[walk.seq];
        vars.push(VarPlan {
            name: format!("{}#element", seq.name),
            base: "elem".to_string(),
            role: Role::Item,
            what: seq.record.clone(),
            list: false,
            ..vars[seq.list].clone()
        });
        let element = vars.len() - 1;
        let at = steps.len();
        steps.push(Step::Walk(WalkPlan {
            list: seq.list,
            element,
            accumulators: Vec::new(),
            body: Vec::new(),
            stop: None,
        }));
        let mut accumulators = Vec::new();
        let mut after = Vec::new();
        // The fields the walk reads, each bound from the element once.
        let mut body = Vec::new();
        let read = walk_reads(p, w);
        for (k, &f) in p.sequences[walk.seq].fields.iter().enumerate() {
            if read.contains(&f) {
                let value = Expr::new(vars[f].kind, Node::Field(element, f, k));
                body.push(Step::Define { var: f, value });
            }
        }
        for &s in &walk.body {
            lower_step(self, s, vars, &mut body);
        }
        for &si in &walk.summaries {
            self.summary(si, vars, &mut accumulators, &mut body, &mut after);
        }
        let mut stopped = Vec::new();
        for &fi in &walk.folds {
            stopped.push(self.fold(fi, vars, &mut accumulators, &mut body, &mut after));
        }
        let stop = match walk.summaries.is_empty() {
            true => stopped.into_iter().map(|v| Expr::bool(Node::Var(v))).reduce(Expr::and),
            false => None,
        };
        let start = steps.len();
        let body_at: Vec<usize> = (start..start + body.len()).collect();
        steps.extend(body);
        steps[at] = Step::Walk(WalkPlan { list: seq.list, element, accumulators, body: body_at, stop });
        steps.extend(after);
    }

    fn summary(
        &mut self,
        si: usize,
        vars: &mut Vec<VarPlan>,
        accumulators: &mut Vec<(VarId, Expr)>,
        body: &mut Vec<Step>,
        after: &mut Vec<Step>,
    ) {
        let p = self.p;
        let s = &p.summaries[si];
        let (filter_ann, empty_ann) = self.ann.summaries[si].clone();
        let filter = s.filter.as_ref().zip(filter_ann.as_ref()).map(|(f, a)| self.expr(f, a));
        let total = || Expr::num(Node::Var(s.var));
        let of_kind = s.of.map(|v| vars[v].kind).unwrap_or(Kind::Num);
        let of = || s.of.map(|v| Expr::new(of_kind, Node::Var(v)));
        let when = |x: Expr, then: Expr| match &filter {
            Some(f) => Expr::new(x.kind, Node::If(Box::new(f.clone()), Box::new(then), Box::new(x))),
            None => then,
        };
        match s.op {
            SummaryOp::Sum => {
                accumulators.push((s.var, Expr::int(0)));
                let added = Expr::num(Node::Arith(
                    super::Arith::Add,
                    Box::new(total()),
                    Box::new(of().expect("a sum's value")),
                ));
                body.push(Step::Assign { var: s.var, value: when(total(), added) });
            }
            SummaryOp::Count => {
                accumulators.push((s.var, Expr::int(0)));
                let added = Expr::num(Node::Arith(super::Arith::Add, Box::new(total()), Box::new(Expr::int(1))));
                body.push(Step::Assign { var: s.var, value: when(total(), added) });
            }
            SummaryOp::Max | SummaryOp::Min => {
                let (empty, store) = empty_ann.expect("a max or a min has an empty answer");
                let e = s.empty.as_ref().expect("a max or a min has an empty answer");
                let empty = match &store {
                    Some(st) => self.store(e, &empty, st),
                    None => self.expr(e, &empty),
                };
                accumulators.push((s.var, empty));
                let seen = flag(vars, s.var, "seen");
                accumulators.push((seen, Expr::truth(false)));
                let op = if s.op == SummaryOp::Max { CmpOp::Gt } else { CmpOp::Lt };
                let value = of().expect("a max's value");
                let better = Expr::or(Expr::negate(Expr::bool(Node::Var(seen))), Expr::cmp(op, value.clone(), total()));
                let takes = match &filter {
                    Some(f) => Expr::and(f.clone(), better),
                    None => better,
                };
                let replaced = Expr::num(Node::If(Box::new(takes), Box::new(value), Box::new(total())));
                body.push(Step::Assign { var: s.var, value: replaced });
                let now = match &filter {
                    Some(f) => Expr::or(Expr::bool(Node::Var(seen)), f.clone()),
                    None => Expr::truth(true),
                };
                body.push(Step::Assign { var: seen, value: now });
            }
        }
        if let Some((lo, hi)) = vars[s.var].range.filter(|_| !vars[s.var].scaled) {
            let x = total();
            let outside =
                Expr::or(Expr::cmp(CmpOp::Lt, x.clone(), Expr::int(lo)), Expr::cmp(CmpOp::Gt, x, Expr::int(hi)));
            after.push(Step::Refuse {
                when: outside,
                sentence: sentence::out_of_range(&p.vars[s.var].name),
                input: true,
            });
        }
    }

    /// A fold fed element by element; the variable that says it has stopped.
    fn fold(
        &mut self,
        fi: usize,
        vars: &mut Vec<VarPlan>,
        accumulators: &mut Vec<(VarId, Expr)>,
        body: &mut Vec<Step>,
        after: &mut Vec<Step>,
    ) -> VarId {
        let p = self.p;
        let f = &p.folds[fi];
        let (empty_ann, store) = self.ann.folds[fi].clone();
        let empty = match &store {
            Some(st) => self.store(&f.empty, &empty_ann, st),
            None => self.expr(&f.empty, &empty_ann),
        };
        let kind = vars[f.into].kind;
        vars.push(VarPlan {
            name: format!("{}#held", p.vars[f.into].name),
            base: format!("{}_held", p.vars[f.into].ident()),
            role: Role::Define,
            optional: false,
            rounding: None,
            range: None,
            ..vars[f.into].clone()
        });
        let held = vars.len() - 1;
        let taken = flag(vars, f.into, "taken");
        let stopped = flag(vars, f.into, "stopped");
        accumulators.push((held, empty));
        accumulators.push((taken, Expr::truth(false)));
        accumulators.push((stopped, Expr::truth(false)));
        let Kind::Enum(e) = vars[f.verdict].kind else { unreachable!("a verdict is a value of an enum") };
        let is = |m: usize| {
            let verdict = Expr::new(Kind::Enum(e), Node::Var(f.verdict));
            Expr::cmp(CmpOp::Eq, verdict, Expr::new(Kind::Enum(e), Node::Member(m as u32)))
        };
        let reading = |m: usize| Expr::and(Expr::negate(Expr::bool(Node::Var(stopped))), is(m));
        let value = Expr::new(kind, Node::Var(f.value));
        let held_x = || Expr::new(kind, Node::Var(held));
        let taken_x = || Expr::bool(Node::Var(taken));
        for (m, action) in f.actions.iter().enumerate() {
            let replace = match action {
                Some(FoldAction::Take) if f.kind == FoldKind::TakeUnique => {
                    let twice = Expr::and(reading(m), taken_x());
                    let said = sentence::two_takes(&p.sequences[f.seq].name, &p.vars[f.into].name);
                    body.push(Step::Refuse { when: twice, sentence: said, input: false });
                    reading(m)
                }
                Some(FoldAction::Take) => Expr::and(reading(m), Expr::negate(taken_x())),
                Some(FoldAction::Keep) => {
                    let better = Expr::or(Expr::negate(taken_x()), Expr::cmp(CmpOp::Gt, value.clone(), held_x()));
                    Expr::and(reading(m), better)
                }
                Some(FoldAction::Stop) | None => continue,
            };
            let kept = Expr::new(kind, Node::If(Box::new(replace), Box::new(value.clone()), Box::new(held_x())));
            body.push(Step::Assign { var: held, value: kept });
            body.push(Step::Assign { var: taken, value: Expr::or(taken_x(), reading(m)) });
        }
        let stops: Vec<Expr> =
            f.actions.iter().enumerate().filter(|(_, a)| **a == Some(FoldAction::Stop)).map(|(m, _)| is(m)).collect();
        if let Some(now) = stops.into_iter().reduce(Expr::or) {
            body.push(Step::Assign { var: stopped, value: Expr::or(Expr::bool(Node::Var(stopped)), now) });
        }
        after.push(Step::Define { var: f.into, value: held_x() });
        stopped
    }
}

/// A truth value the walk carries beside `of` (`top_price#seen`).
fn flag(vars: &mut Vec<VarPlan>, of: VarId, suffix: &str) -> VarId {
    vars.push(VarPlan {
        name: format!("{}#{suffix}", vars[of].name),
        base: format!("{}_{suffix}", vars[of].base),
        role: Role::Define,
        kind: Kind::Bool,
        ty: BoundaryTy::Bool,
        optional: false,
        what: "bool".to_string(),
        range: None,
        rounding: None,
        scaled: false,
        list: false,
    });
    vars.len() - 1
}

/// Every variable walk `w` reads on an element: its body's, its summaries' and folds'.
fn walk_reads(p: &sema::Program, w: usize) -> Vec<VarId> {
    let walk = &p.walks[w];
    let mut out = Vec::new();
    for s in &walk.body {
        match *s {
            sema::Step::Table(t) => {
                out.extend(&p.tables[t].conds);
                p.tables[t]
                    .rows
                    .iter()
                    .flat_map(|r| r.results.iter().flatten())
                    .for_each(|e| sema::collect_vars(e, &mut out));
            }
            sema::Step::Define(d) => sema::collect_vars(&p.defines[d].expr, &mut out),
            sema::Step::Walk(_) => {}
        }
    }
    for &s in &walk.summaries {
        let s = &p.summaries[s];
        out.extend(s.of);
        if let Some(f) = &s.filter {
            sema::collect_vars(f, &mut out);
        }
    }
    for &f in &walk.folds {
        out.extend([p.folds[f].value, p.folds[f].verdict]);
    }
    out
}
