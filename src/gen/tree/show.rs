//! The tree as text, one statement a line and its body indented under it: what the snapshot
//! tests hold (tests/tree.rs). Expressions are written as the plan holds them, prefix and
//! parenthesized, every variable by its declared name.

use super::{table, Fold, Shape, Stmt};
use crate::gen::plan::{Arith, Expr, Node, Plan, Step};

/// `stmts` as text.
pub fn show(plan: &Plan, stmts: &[Stmt]) -> String {
    let mut out = String::new();
    block(plan, stmts, 0, &mut out);
    out
}

fn line(out: &mut String, depth: usize, text: &str) {
    out.push_str(&"  ".repeat(depth));
    out.push_str(text);
    out.push('\n');
}

fn block(plan: &Plan, stmts: &[Stmt], depth: usize, out: &mut String) {
    let name = |v: usize| plan.var(v).name.clone();
    for s in stmts {
        match s {
            Stmt::GuardComment => line(out, depth, "guard:"),
            Stmt::CheckInput { input, checks } => {
                let d = &plan.door.inputs[*input];
                let checks: Vec<String> = checks.iter().map(|c| format!("{c:?}").to_lowercase()).collect();
                line(out, depth, &format!("check {} [{}]", d.name, checks.join(", ")));
            }
            Stmt::Constraint(i) => {
                let c = &plan.door.constraints[*i];
                line(out, depth, &format!("constraint {} else refuse {:?}", expr(plan, &c.test), c.sentence));
            }
            Stmt::Define { step } => {
                let Step::Define { var, value } = &plan.steps[*step] else { unreachable!("a define") };
                line(out, depth, &format!("define {} = {}", name(*var), expr(plan, value)));
            }
            Stmt::Table { step, form } => {
                let t = table(plan, *step);
                let shape = match form.shape {
                    Shape::Chain { settled: true } => "chain, settled by its last row",
                    Shape::Chain { settled: false } => "chain",
                    Shape::Decision => "decision",
                    Shape::Match => "match",
                };
                let own = if form.own_function { ", in a function of its own" } else { "" };
                line(out, depth, &format!("table {} (policy {}) as {shape}{own}", t.name, t.policy));
                for g in &t.guards {
                    line(out, depth + 1, &format!("guard row {} × row {} else refuse {:?}", g.a, g.b, g.sentence));
                }
                for r in &t.rows {
                    let stores: Vec<String> =
                        r.assigns.iter().map(|(v, x)| format!("{} = {}", name(*v), expr(plan, x))).collect();
                    line(out, depth + 1, &format!("row {} when {}: {}", r.n, expr(plan, &r.cond), stores.join("; ")));
                }
                line(out, depth + 1, &format!("no row: refuse {:?}", t.no_row));
            }
            Stmt::Assign { var, value } => line(out, depth, &format!("{} = {}", name(*var), expr(plan, value))),
            Stmt::Refuse { when, sentence, input } => {
                let kind = if *input { "input" } else { "contradiction" };
                line(out, depth, &format!("refuse ({kind}) {sentence:?} when {}", expr(plan, when)));
            }
            Stmt::CheckSequence { seq, checks } => {
                let s = &plan.sequences[*seq];
                line(out, depth, &format!("check {} [count <= {}]", s.name, s.max));
                for (k, checks) in checks {
                    let checks: Vec<String> = checks.iter().map(|c| format!("{c:?}").to_lowercase()).collect();
                    line(out, depth + 1, &format!("each .{} [{}]", s.fields[*k].name, checks.join(", ")));
                }
            }
            Stmt::List { var } => line(out, depth, &format!("list {}", name(*var))),
            Stmt::Push { list, value } => line(out, depth, &format!("push {} onto {}", expr(plan, value), name(*list))),
            Stmt::Loop(l) => {
                line(out, depth, &format!("for {} in {}:", name(l.element), name(l.list)));
                for (v, init) in &l.accumulators {
                    line(out, depth + 1, &format!("carry {} from {}", name(*v), expr(plan, init)));
                }
                block(plan, &l.body, depth + 1, out);
                if let Some(stop) = &l.stop {
                    line(out, depth + 1, &format!("stop when {}", expr(plan, stop)));
                }
            }
            Stmt::Accumulate(a) => {
                let fold = match a.fold {
                    Fold::Sum => "sum",
                    Fold::Min => "min",
                    Fold::Max => "max",
                    Fold::Count => "count",
                    Fold::List => "list",
                };
                let t = table(plan, a.step);
                let rule = format!(
                    "{} = {fold} over the matching rows of {}, else {}",
                    name(a.into),
                    t.name,
                    expr(plan, &a.empty)
                );
                line(out, depth, &rule);
            }
            Stmt::Call(c) => {
                line(out, depth, &format!("call {}:", c.rule));
                for (v, arg) in &c.args {
                    line(out, depth + 1, &format!("bind {} = {}", name(*v), expr(plan, arg)));
                }
                block(plan, &c.body, depth + 1, out);
                for (v, value) in &c.results {
                    line(out, depth + 1, &format!("read {} = {}", name(*v), expr(plan, value)));
                }
            }
        }
    }
}

/// An expression, prefix and parenthesized.
pub fn expr(plan: &Plan, e: &Expr) -> String {
    let x = |e: &Expr| expr(plan, e);
    let all = |xs: &[Expr]| xs.iter().map(|e| expr(plan, e)).collect::<Vec<_>>().join(" ");
    match &e.node {
        Node::Int(n) => n.to_string(),
        Node::Bool(b) => b.to_string(),
        Node::Str(s) => format!("{s:?}"),
        Node::Member(m) => match e.kind {
            crate::gen::plan::Kind::Enum(en) => plan.enums[en].values[*m as usize].name.clone(),
            _ => format!("#{m}"),
        },
        Node::Absent => "none".into(),
        Node::Var(v) => plan.var(*v).name.clone(),
        Node::Field(e, f, _) => format!("{}.{}", plan.var(*e).name, plan.var(*f).name),
        Node::Neg(a) => format!("(- {})", x(a)),
        Node::Arith(op, a, b) => {
            let op = match op {
                Arith::Add => "+",
                Arith::Sub => "-",
                Arith::Mul => "*",
            };
            format!("({op} {} {})", x(a), x(b))
        }
        Node::DivExact(a, q) => format!("(div-exact {} {q})", x(a)),
        Node::DivRound(a, b, m) => format!("(div-round {m:?} {} {})", x(a), x(b)),
        Node::Min(xs) => format!("(min {})", all(xs)),
        Node::Max(xs) => format!("(max {})", all(xs)),
        Node::Mod(a, b) => format!("(mod {} {})", x(a), x(b)),
        Node::Isqrt(a) => format!("(isqrt {})", x(a)),
        Node::If(c, a, b) => format!("(if {} {} {})", x(c), x(a), x(b)),
        Node::Cmp(op, a, b) => format!("({} {} {})", op.as_str(), x(a), x(b)),
        Node::And(a, b) => format!("(and {} {})", x(a), x(b)),
        Node::Or(a, b) => format!("(or {} {})", x(a), x(b)),
        Node::Not(a) => format!("(not {})", x(a)),
        Node::OneOf(a, vs) => format!("(one-of {} {})", x(a), all(vs)),
        Node::IsNone(v) => format!("(none? {})", plan.var(*v).name),
        Node::Present(v, t) => format!("(present? {} {})", plan.var(*v).name, x(t)),
    }
}
