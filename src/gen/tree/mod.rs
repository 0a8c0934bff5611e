//! The statement tree: what a rule's function does, as statements, decided once per rule
//! and language by one lowering ([`lower`]) from the plan. The walker (`walk.rs`) goes over
//! this tree and the hooks only spell what it holds: which checks the entry guard makes and
//! in which order, each step in evaluation order, and how each table is written (row by
//! row, as a decision over its columns, as one native match, in a function of its own, and
//! whether the last row closes the chain with no refusal after it) are all settled here,
//! from the plan and the language's table of facts ([`Facts`]), never in a backend.
//!
//! Beside the statements every rule has today, the tree holds the ones the language's next
//! features lower to — a list value built element by element ([`Stmt::Push`]), a loop over a
//! list with accumulators and an early stop ([`Loop`]), an accumulation over every matching
//! row of a table ([`Accumulate`], DMN's collect policies), and a call of another rule's
//! function ([`Call`]). [`run`] runs any tree exactly as generated code would, and
//! [`show`] prints one as text for snapshots (tests/tree.rs).

pub mod interp;
pub mod run;
pub mod show;
pub mod value;

pub use super::plan::Fold;
use super::plan::{Expr, InputDoor, Node, Plan, Step, TablePlan};
use crate::eval::wire::WireKind;
use crate::lang::{Class, Lang};
use crate::sema::VarId;

/// One check of the door on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    Missing,
    Kind,
    Range,
}

/// A statement of a rule's function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// The comment over the entry guard (written only where the guard checks anything).
    GuardComment,
    /// The checks the function makes of one input of `plan.door.inputs`, in the door's order.
    CheckInput {
        input: usize,
        checks: Vec<Check>,
    },
    /// A constraint of `plan.door.constraints`, refused when it does not hold.
    Constraint(usize),
    /// The define of step `step` of the plan.
    Define {
        step: usize,
    },
    /// The table of step `step` of the plan, written as `form` says.
    Table {
        step: usize,
        form: TableForm,
    },
    /// `var = value`.
    Assign {
        var: VarId,
        value: Expr,
    },
    /// An empty list, declared before the statements that push onto it.
    List {
        var: VarId,
    },
    /// `value` appended to the list held by `list`.
    Push {
        list: VarId,
        value: Expr,
    },
    Loop(Loop),
    Accumulate(Accumulate),
    Call(Call),
    /// Stop the call when `when` holds, with the sentence: an input refused, or a
    /// contradiction (`plan::Step::Refuse`).
    Refuse {
        when: Expr,
        sentence: String,
        input: bool,
    },
    /// The entry guard's checks of sequence `seq` of `plan.sequences`: its count, then each
    /// element's fields in order, each refusal naming the element's place.
    CheckSequence {
        seq: usize,
        checks: Vec<(usize, Vec<Check>)>,
    },
}

/// How a table is written. Every form means the same thing — the first row whose condition
/// holds fires, after the W114 pair guards — and [`run`] runs them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableForm {
    /// In a function of its own, called in place.
    pub own_function: bool,
    pub shape: Shape,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The rows one after the other, an if-chain; `settled` when the last row's condition is
    /// `true` and it is written `else`, with no refusal after it.
    Chain { settled: bool },
    /// The table's decision over its columns, as `switch`es and `if`s (`TablePlan::decision`).
    Decision,
    /// One native pattern match over the table's shape (`TablePlan::shape`).
    Match,
}

/// A loop over the elements of a list: the accumulators set before the first element, the
/// body run for each element bound to `element`, and an early stop tested after each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The list walked: a variable holding a list.
    pub list: VarId,
    /// The variable each element is bound to in turn.
    pub element: VarId,
    /// The variables the loop carries, each with its value before the first element.
    pub accumulators: Vec<(VarId, Expr)>,
    pub body: Vec<Stmt>,
    /// After an element's body: the loop ends when this holds.
    pub stop: Option<Expr>,
}

/// Every row of a table whose condition holds, each giving the value it stores into its
/// first result, folded into `into` — `empty` when no row holds (a sum, a minimum, a
/// maximum; `seen` says whether one has, so the first value replaces `empty`). Under
/// `Fold::List` each of the table's results is a list, and a row that holds adds its value
/// to each (`into` is the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulate {
    pub step: usize,
    pub into: VarId,
    pub fold: Fold,
    pub empty: Expr,
    pub seen: Option<VarId>,
}

/// A call of another rule's function, written in place (`Step::Call`): each of the callee's
/// inputs bound to a value of the caller, the callee's statements, then the caller's
/// variables set from the callee's outputs. A callee's refusal (a contradiction of one of
/// its tables) is the caller's, under the table's prefixed name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The callee's rule name.
    pub rule: String,
    pub args: Vec<(VarId, Expr)>,
    pub body: Vec<Stmt>,
    pub results: Vec<(VarId, Expr)>,
}

/// What the lowering reads of a language besides `Lang::guard` (which checks its types leave
/// to the entry guard): which ways of writing a table it has. Data, read off the language's
/// table of block syntax (`walk::facts`).
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// It writes a table's decision as `switch`es (`Blocks::switch`).
    pub switch: bool,
    /// It writes a table of enum and boolean cells as one pattern match (`Blocks::native_match`).
    pub native_match: bool,
    /// It writes a table of one result in a function of its own (`Blocks::table_functions`).
    pub table_functions: bool,
    /// A last row whose condition is `true` is written `else` (`Blocks::else_when_true`).
    pub else_when_true: bool,
    /// A variable lives as long as the function (`Blocks::function_scope`).
    pub function_scope: bool,
}

impl Facts {
    /// The facts the plan's own interpreter runs by: a plain chain of rows for every table.
    pub const PLAIN: Facts = Facts {
        switch: false,
        native_match: false,
        table_functions: false,
        else_when_true: false,
        function_scope: false,
    };
}

fn class(kind: WireKind) -> Class {
    match kind {
        WireKind::Integer => Class::Integer,
        WireKind::Boolean => Class::Boolean,
        WireKind::Text => Class::Text,
        WireKind::Date => Class::Date,
        WireKind::Enum(_) => Class::Enum,
    }
}

/// The inputs the entry guard checks, each with its checks in the door's order: those the
/// language's types leave open (an optional input is checked only when it holds a value).
pub fn checks(plan: &Plan, lang: Lang) -> Vec<(&InputDoor, Vec<Check>)> {
    let g = lang.guard();
    let mut out = Vec::new();
    for input in &plan.door.inputs {
        let c = class(input.kind);
        let mut checks = Vec::new();
        if !input.optional && g.missing.contains(&c) {
            checks.push(Check::Missing);
        }
        if g.kind.contains(&c) {
            checks.push(Check::Kind);
        }
        if input.range.is_some() {
            checks.push(Check::Range);
        }
        if !checks.is_empty() {
            out.push((input, checks));
        }
    }
    out
}

/// The lowering: the entry guard and the steps of `plan` as the language `facts` writes them.
pub fn lower(plan: &Plan, lang: Lang, facts: &Facts) -> Vec<Stmt> {
    let mut out = guard(plan, lang);
    if !out.is_empty() {
        out.insert(0, Stmt::GuardComment);
    }
    out.extend(body(plan, facts));
    out
}

/// The entry guard alone: every check the language's types leave open, then the constraints.
pub fn guard(plan: &Plan, lang: Lang) -> Vec<Stmt> {
    let inputs = &plan.door.inputs;
    let mut out: Vec<Stmt> = checks(plan, lang)
        .into_iter()
        .map(|(d, checks)| Stmt::CheckInput {
            input: inputs.iter().position(|i| i.var == d.var).expect("a door input"),
            checks,
        })
        .collect();
    out.extend((0..plan.door.constraints.len()).map(Stmt::Constraint));
    out.extend((0..plan.sequences.len()).map(|seq| Stmt::CheckSequence { seq, checks: field_checks(plan, seq, lang) }));
    out
}

/// The checks each field of sequence `seq` needs, by its place in the element: those the
/// language's types leave open (never `Missing` for a language whose record holds every
/// field), then the range.
pub fn field_checks(plan: &Plan, seq: usize, lang: Lang) -> Vec<(usize, Vec<Check>)> {
    let g = lang.guard();
    let mut out = Vec::new();
    for (k, f) in plan.sequences[seq].fields.iter().enumerate() {
        let c = class(f.kind);
        let mut checks = Vec::new();
        if g.missing.contains(&c) {
            checks.push(Check::Missing);
        }
        if g.kind.contains(&c) {
            checks.push(Check::Kind);
        }
        if f.range.is_some() {
            checks.push(Check::Range);
        }
        if !checks.is_empty() {
            out.push((k, checks));
        }
    }
    out
}

/// The values the function declares and never reads, in the plan's order (a language that
/// refuses an unused local marks them read, Go's `_ = x`): the inputs, the defines and the
/// tables' results, and what a call binds, that no expression, no output and no check of the
/// entry guard reads.
pub fn unread(plan: &Plan, lang: Lang) -> Vec<VarId> {
    let mut read: std::collections::BTreeSet<VarId> = checks(plan, lang).into_iter().map(|(d, _)| d.var).collect();
    read.extend(plan.exprs().into_iter().flat_map(|e| e.vars()));
    read.extend(plan.outputs.iter().copied());
    let declared = plan.inputs.iter().copied().chain(plan.steps.iter().flat_map(|s| match s {
        Step::Define { var, .. } => vec![*var],
        Step::Table(t) => t.results.clone(),
        Step::Call(c) => c.args.iter().chain(&c.results).map(|(v, _)| *v).collect(),
        _ => Vec::new(),
    }));
    declared.filter(|v| !read.contains(v)).collect()
}

/// The rule's steps in evaluation order: each walk's body inside its loop, each call's
/// inside the call.
pub fn body(plan: &Plan, facts: &Facts) -> Vec<Stmt> {
    let inside: std::collections::BTreeSet<usize> = plan
        .steps
        .iter()
        .flat_map(|s| match s {
            Step::Walk(w) => w.body.clone(),
            Step::Call(c) => c.body.clone(),
            _ => Vec::new(),
        })
        .collect();
    // A list a collect table folds into is declared by its accumulation; any other first
    // here, before any step pushes onto it.
    let folded: Vec<VarId> = plan.tables().filter(|t| t.collect.is_some()).flat_map(|t| t.results.clone()).collect();
    // A sequence is a parameter: the caller's list, walked, never built here.
    let built = |v: VarId| plan.var(v).list && plan.var(v).role != super::plan::Role::Sequence;
    let lists = (0..plan.vars.len()).filter(|&v| built(v) && !folded.contains(&v));
    let lists = lists.map(|var| Stmt::List { var });
    let mut out: Vec<Stmt> =
        lists.chain((0..plan.steps.len()).filter(|i| !inside.contains(i)).map(|i| step(plan, i, facts))).collect();
    if facts.function_scope {
        defined_once(plan, &mut out, &mut std::collections::BTreeSet::new());
    }
    out
}

/// In a language whose variables live as long as the function, a value defined a second
/// time (a walk's per-element value, on a second walk over its sequence) is assigned.
fn defined_once(plan: &Plan, stmts: &mut [Stmt], defined: &mut std::collections::BTreeSet<VarId>) {
    for s in stmts {
        match s {
            Stmt::Define { step } => {
                let Step::Define { var, value } = &plan.steps[*step] else { unreachable!("a define") };
                if !defined.insert(*var) {
                    *s = Stmt::Assign { var: *var, value: value.clone() };
                }
            }
            Stmt::Loop(l) => defined_once(plan, &mut l.body, defined),
            Stmt::Call(c) => defined_once(plan, &mut c.body, defined),
            _ => {}
        }
    }
}

/// Step `i` of the plan as a statement.
fn step(plan: &Plan, i: usize, facts: &Facts) -> Stmt {
    match &plan.steps[i] {
        Step::Define { .. } => Stmt::Define { step: i },
        Step::Table(t) => match &t.collect {
            Some(c) => Stmt::Accumulate(Accumulate {
                step: i,
                into: t.results[0],
                fold: c.fold,
                empty: c.empty.clone(),
                seen: c.seen,
            }),
            None => Stmt::Table { step: i, form: form(t, facts) },
        },
        Step::Assign { var, value } => Stmt::Assign { var: *var, value: value.clone() },
        Step::Refuse { when, sentence, input } => {
            Stmt::Refuse { when: when.clone(), sentence: sentence.clone(), input: *input }
        }
        Step::Push { list, value } => Stmt::Push { list: *list, value: value.clone() },
        Step::Walk(w) => Stmt::Loop(Loop {
            list: w.list,
            element: w.element,
            accumulators: w.accumulators.clone(),
            body: w.body.iter().map(|&j| step(plan, j, facts)).collect(),
            stop: w.stop.clone(),
        }),
        Step::Call(c) => Stmt::Call(Call {
            rule: c.rule.clone(),
            args: c.args.clone(),
            body: c.body.iter().map(|&j| step(plan, j, facts)).collect(),
            results: c.results.clone(),
        }),
    }
}

/// How the language `facts` writes table `t`.
pub fn form(t: &TablePlan, facts: &Facts) -> TableForm {
    // A collect table folds its rows in place: no call decides it.
    let own_function = facts.table_functions && t.results.len() == 1 && t.collect.is_none();
    TableForm { own_function, shape: shape(t, facts) }
}

fn shape(t: &TablePlan, facts: &Facts) -> Shape {
    if let Some(shape) = &t.shape {
        // A cell that takes no value has no pattern: such a table is written row by row.
        if facts.native_match && !shape.patterns.iter().flatten().any(|c| c.as_ref().is_some_and(Vec::is_empty)) {
            return Shape::Match;
        }
        if facts.switch && t.decision.is_some() {
            return Shape::Decision;
        }
    }
    let settled = t.rows.len() > 1 && t.rows.last().is_some_and(|r| r.cond.node == Node::Bool(true));
    Shape::Chain { settled: facts.else_when_true && settled }
}

/// The table of step `step`.
pub fn table(plan: &Plan, step: usize) -> &TablePlan {
    match &plan.steps[step] {
        Step::Table(t) => t,
        _ => unreachable!("step {step} is not a table"),
    }
}
