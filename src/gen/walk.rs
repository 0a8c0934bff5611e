//! The walker: it goes over the statement tree (`tree`, lowered once from the plan for the
//! language) in order and asks the language to spell each statement. What is checked, in
//! which order, and how each table is written is the tree's; the hooks ([`Hooks`]) only print.

use super::plan::{Arith, Expr, Fold, Node, Plan, Step, TablePlan};
use super::stmt::Open;
pub use super::stmt::{Hooks, Source};
use super::tree::{self, Accumulate, Facts, Shape, Stmt};
pub use super::tree::{checks, Check};
use crate::lang::Lang;
use crate::sema::VarId;

/// What the lowering reads of the language `H` spells: the ways of writing a table its
/// [`super::stmt::Blocks`] has.
pub fn facts<H: Hooks>() -> Facts {
    let b = H::BLOCKS;
    Facts {
        switch: b.switch.is_some(),
        native_match: b.native_match.is_some(),
        table_functions: b.table_functions,
        else_when_true: b.else_when_true,
        function_scope: b.function_scope,
    }
}

/// The entry guard of the function the caller calls: every check its types leave open.
pub fn guard(plan: &Plan, lang: Lang, h: &mut impl Hooks) {
    stmts(plan, &tree::guard(plan, lang), h);
}

/// What the function holding the branches runs: the entry guard, under a comment saying what
/// it is where it checks anything, then the rule's steps.
pub fn core<H: Hooks>(plan: &Plan, lang: Lang, h: &mut H) {
    stmts(plan, &tree::lower(plan, lang, &facts::<H>()), h);
}

/// The statements of a tree, each spelled by its hook.
fn stmts<H: Hooks>(plan: &Plan, tree: &[Stmt], h: &mut H) {
    for s in tree {
        match s {
            Stmt::GuardComment => {
                h.line(&format!("{} The entry guard: what the proofs assumed of every call.", H::BLOCKS.comment))
            }
            Stmt::CheckInput { input, checks } => h.guard_input(&plan.door.inputs[*input], checks),
            Stmt::Constraint(i) => h.constraint(&plan.door.constraints[*i]),
            Stmt::Define { step } => {
                let Step::Define { var, value } = &plan.steps[*step] else { unreachable!("step {step} is a table") };
                h.define(*var, value);
            }
            Stmt::Table { step, form } => {
                let t = tree::table(plan, *step);
                match form.own_function {
                    true => h.table_call(t),
                    false => table(t, form.shape, h),
                }
            }
            Stmt::Assign { var, value } => h.assign(*var, value),
            Stmt::List { var } => h.declare_list(*var),
            Stmt::Push { list, value } => h.push(*list, value),
            Stmt::Loop(l) => {
                for (v, first) in &l.accumulators {
                    h.carry(*v, first);
                }
                h.open_loop(l.list, l.element);
                h.out().indent();
                stmts(plan, &l.body, h);
                if let Some(stop) = &l.stop {
                    h.break_if(stop);
                }
                h.out().dedent();
                h.close();
            }
            Stmt::Accumulate(a) => accumulate(plan, a, h),
            Stmt::Refuse { when, sentence, input: true } => {
                h.refuse_if(when, super::stmt::Refusal::Input(sentence, None))
            }
            Stmt::Refuse { when, sentence, input: false } => {
                h.refuse_if(when, super::stmt::Refusal::Contradiction(sentence))
            }
            Stmt::CheckSequence { seq, checks } => h.guard_sequence(&plan.sequences[*seq], checks),
            Stmt::Call(c) => {
                let what = format!(
                    "{} the rule {} applied: its inputs bound, its steps, its outputs read",
                    H::BLOCKS.comment,
                    c.rule
                );
                h.line(&super::text::comment(&what));
                for (v, arg) in &c.args {
                    h.define(*v, arg);
                }
                stmts(plan, &c.body, h);
                for (v, out) in &c.results {
                    h.define(*v, out);
                }
            }
        }
    }
}

/// Every row of a collect table that holds, each its own `if`, folded into the result: a
/// count from 0, a list from none, a sum, a minimum or a maximum from the first value held
/// (the result `empty` until then, and `seen` saying whether one has).
fn accumulate<H: Hooks>(plan: &Plan, a: &Accumulate, h: &mut H) {
    let t = tree::table(plan, a.step);
    h.table_open(t);
    match a.fold {
        Fold::List => t.results.iter().for_each(|&list| h.declare_list(list)),
        Fold::Count => h.carry(a.into, &Expr::int(0)),
        Fold::Sum | Fold::Min | Fold::Max => h.carry(a.into, &a.empty),
    }
    if let Some(seen) = a.seen {
        h.carry(seen, &Expr::truth(false));
    }
    let into = Expr::new(plan.var(a.into).kind, Node::Var(a.into));
    for row in &t.rows {
        // An aggregate stores one value; a list table's values are each pushed below.
        let (_, value) = row.assigns.first().expect("a collect table stores a value");
        h.open_row(row, Open::If);
        let folded = match a.fold {
            Fold::List => None,
            Fold::Count => Some(Expr::num(Node::Arith(Arith::Add, Box::new(into.clone()), Box::new(Expr::int(1))))),
            Fold::Sum => Some(Expr::num(Node::Arith(Arith::Add, Box::new(into.clone()), Box::new(value.clone())))),
            Fold::Min => Some(Expr::new(into.kind, Node::Min(vec![into.clone(), value.clone()]))),
            Fold::Max => Some(Expr::new(into.kind, Node::Max(vec![into.clone(), value.clone()]))),
        };
        match (folded, a.seen) {
            (None, _) => row.assigns.iter().for_each(|(list, value)| h.push(*list, value)),
            (Some(f), None) => h.assign(a.into, &f),
            (Some(f), Some(seen)) => {
                let held = Expr::bool(Node::Var(seen));
                h.assign(a.into, &Expr::new(into.kind, Node::If(Box::new(held), Box::new(f), Box::new(value.clone()))));
                h.assign(seen, &Expr::truth(true));
            }
        }
        h.fire_trace(t, row.n);
        h.out().dedent();
        h.close();
    }
}

/// Where a function template (`sig::functions`) leaves the writing to the walker.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// `{door}`: the wire door's checks, in the reference's order ([`wire`]).
    Door,
    /// `{rule}`: the core's statements, the guard's comment with them ([`core`]).
    Rule,
    /// `{guard}`: the entry guard alone ([`guard`]).
    Guard,
    /// `{body}`: the rule's steps after the guard ([`body`]).
    Body,
}

impl Part {
    pub fn named(name: &str) -> Option<Part> {
        Some(match name {
            "door" => Part::Door,
            "rule" => Part::Rule,
            "guard" => Part::Guard,
            "body" => Part::Body,
            _ => return None,
        })
    }
}

/// One part of a function template, written over a language's hooks.
pub fn part<H: Hooks>(plan: &Plan, lang: Lang, part: Part, h: &mut H) {
    match part {
        Part::Door => wire(plan, h),
        Part::Rule => core(plan, lang, h),
        Part::Guard => guard(plan, lang, h),
        Part::Body => body(plan, h),
    }
}

/// The rule's steps in evaluation order.
pub fn body<H: Hooks>(plan: &Plan, h: &mut H) {
    stmts(plan, &tree::body(plan, &facts::<H>()), h);
}

/// One table written as `shape`: its comment, its W114 guards, then the match, the decision,
/// or its rows in order and the refusal after the last.
pub fn table(t: &TablePlan, shape: Shape, h: &mut impl Hooks) {
    h.table_open(t);
    for g in &t.guards {
        h.pair_guard(t, &t.rows[g.a - 1], &t.rows[g.b - 1], &g.sentence);
    }
    match shape {
        Shape::Match => h.table_match(t),
        Shape::Decision => h.table_decision(t),
        Shape::Chain { settled } => {
            for &r in &t.results {
                h.declare(r);
            }
            let last = t.rows.len() - 1;
            for (i, row) in t.rows.iter().enumerate() {
                let open = match i {
                    0 => Open::If,
                    i if settled && i == last => Open::Else,
                    _ => Open::ElseIf,
                };
                h.row(t, row, open);
            }
            h.no_row(t, settled);
        }
    }
}

/// The wire door: every input read in order, then the constraints, then the unknown keys;
/// the function is called after.
pub fn wire(plan: &Plan, h: &mut impl Hooks) {
    for input in &plan.door.inputs {
        h.wire_input(input);
    }
    for c in &plan.door.constraints {
        h.constraint(c);
    }
    for s in &plan.sequences {
        h.wire_sequence(s);
    }
    let inputs = plan.door.inputs.iter().map(|i| i.name.as_str());
    let names: Vec<&str> = inputs.chain(plan.sequences.iter().map(|s| s.name.as_str())).collect();
    h.wire_unknown_keys(&names, &plan.door.not_an_input);
}

/// One column of a language that computes a rule as columns of a relation (SQL's query):
/// a define, the row a table matched, whether each row of a collect table holds, or a result
/// of a table by that row (those rows).
#[derive(Clone, Copy, Debug)]
pub enum Column<'a> {
    Define(VarId, &'a Expr),
    /// The first row whose condition holds (the table's pair guards read the same conditions);
    /// of a collect table, every row that holds, read from its `Held` columns.
    Row(&'a TablePlan),
    /// A collect table's rows: whether each holds, a column per row.
    Held(&'a TablePlan),
    /// One result of a table: what the row it matched stores (what the rows that hold fold to).
    Result(&'a TablePlan, VarId),
}

/// The steps as layers of columns: a column reads the inputs and the columns of earlier
/// layers only, so a layer is one SELECT over the one before it (a CTE). Each column goes
/// in the first layer that can hold it; within a layer, columns keep the evaluation order.
pub fn layers(plan: &Plan) -> Vec<Vec<Column<'_>>> {
    // The first layer each variable can be read in: 0 for the inputs.
    let mut ready = vec![0usize; plan.vars.len()];
    let mut out: Vec<Vec<Column>> = Vec::new();
    fn put<'a>(out: &mut Vec<Vec<Column<'a>>>, layer: usize, c: Column<'a>) {
        if out.len() <= layer {
            out.resize_with(layer + 1, Vec::new);
        }
        out[layer].push(c);
    }
    let after = |ready: &[usize], e: &Expr| e.vars().into_iter().map(|v| ready[v]).max().unwrap_or(0);
    for step in &plan.steps {
        match step {
            Step::Define { var, value } => {
                let at = after(&ready, value);
                put(&mut out, at, Column::Define(*var, value));
                ready[*var] = at + 1;
            }
            Step::Table(t) => {
                let at = t.rows.iter().map(|r| after(&ready, &r.cond)).max().unwrap_or(0);
                // A collect table's trace and results read its rows' `Held` columns; any
                // other's results read the row it matched.
                let results_at = if t.collect.is_some() {
                    put(&mut out, at, Column::Held(t));
                    put(&mut out, at + 1, Column::Row(t));
                    at + 1
                } else {
                    put(&mut out, at, Column::Row(t));
                    at + 1
                };
                for &var in &t.results {
                    let reads = t.rows.iter().flat_map(|r| &r.assigns).filter(|(v, _)| *v == var);
                    let at = reads.map(|(_, e)| after(&ready, e)).fold(results_at, usize::max);
                    put(&mut out, at, Column::Result(t, var));
                    ready[var] = at + 1;
                }
            }
            Step::Assign { .. } | Step::Push { .. } | Step::Walk(_) | Step::Call(_) | Step::Refuse { .. } => {
                unreachable!("a rule that walks a sequence or calls another is refused for SQL at gen")
            }
        }
    }
    out
}
