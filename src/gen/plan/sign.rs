//! Roundings whose direction the sign of the quotient settles: `up` (away from zero) of a
//! quotient that is never below zero is `ceiling`, `down` is `floor` (and the other way round
//! for one never above zero). The sign comes from the declared ranges, carried through the
//! expressions by interval arithmetic; the plan then says the cheaper mode, which every
//! language's floor and ceiling spell without looking at the sign.

use super::{Arith, Expr, Node, Plan, Step};
use crate::num::RoundMode;

/// A closed interval of i128 (wide enough for any product of two int64 bounds).
type Iv = (i128, i128);

const ALL: Iv = (i64::MIN as i128, i64::MAX as i128);

fn hull(a: Iv, b: Iv) -> Iv {
    (a.0.min(b.0), a.1.max(b.1))
}

fn clamp(iv: Iv) -> Iv {
    (iv.0.clamp(ALL.0, ALL.1), iv.1.clamp(ALL.0, ALL.1))
}

/// What an expression can be, given what each variable can be.
fn bounds(e: &Expr, vars: &[Option<Iv>]) -> Iv {
    let b = |x: &Expr| bounds(x, vars);
    let iv = match &e.node {
        Node::Int(n) => (*n as i128, *n as i128),
        Node::Var(v) => vars[*v].unwrap_or(ALL),
        Node::Neg(x) => {
            let (lo, hi) = b(x);
            (-hi, -lo)
        }
        Node::Arith(op, x, y) => {
            let ((a, c), (d, f)) = (b(x), b(y));
            match op {
                Arith::Add => (a.saturating_add(d), c.saturating_add(f)),
                Arith::Sub => (a.saturating_sub(f), c.saturating_sub(d)),
                Arith::Mul => {
                    let ps = [a.saturating_mul(d), a.saturating_mul(f), c.saturating_mul(d), c.saturating_mul(f)];
                    (*ps.iter().min().expect("four"), *ps.iter().max().expect("four"))
                }
            }
        }
        Node::DivExact(x, q) => {
            let (lo, hi) = b(x);
            (lo.div_euclid(*q as i128), hi.div_euclid(*q as i128) + 1)
        }
        Node::DivRound(n, d, _) => {
            let ((nl, nh), (dl, _)) = (b(n), b(d));
            // A divisor is a whole number other than zero (E132), so |n / d| <= |n|; the
            // sign is that of n when d > 0.
            if dl > 0 {
                (nl.min(0), nh.max(0))
            } else {
                let m = nl.abs().max(nh.abs());
                (-m, m)
            }
        }
        Node::Min(xs) => xs.iter().map(b).reduce(|p, q| (p.0.min(q.0), p.1.min(q.1))).unwrap_or(ALL),
        Node::Max(xs) => xs.iter().map(b).reduce(|p, q| (p.0.max(q.0), p.1.max(q.1))).unwrap_or(ALL),
        Node::Mod(_, m) => {
            let (lo, hi) = b(m);
            (0, lo.abs().max(hi.abs()).saturating_sub(1).max(0))
        }
        Node::Isqrt(x) => {
            // isqrt(x) <= x for every x >= 0.
            (0, b(x).1.max(0))
        }
        Node::If(_, x, y) => hull(b(x), b(y)),
        _ => ALL,
    };
    clamp(iv)
}

/// Rewrite `up`/`down` to `ceiling`/`floor` where the numerator's sign settles it.
fn settle(e: &mut Expr, vars: &[Option<Iv>]) {
    if let Node::DivRound(n, d, mode) = &mut e.node {
        let (nl, nh) = bounds(n, vars);
        let (dl, dh) = bounds(d, vars);
        // The quotient's sign: that of n when d > 0, the other when d < 0.
        let nonneg = (nl >= 0 && dl > 0) || (nh <= 0 && dh < 0);
        let nonpos = (nh <= 0 && dl > 0) || (nl >= 0 && dh < 0);
        *mode = match (*mode, nonneg, nonpos) {
            (RoundMode::Up, true, _) | (RoundMode::Down, _, true) => RoundMode::Ceiling,
            (RoundMode::Down, true, _) | (RoundMode::Up, _, true) => RoundMode::Floor,
            (m, _, _) => m,
        };
    }
    match &mut e.node {
        Node::Neg(x) | Node::Not(x) | Node::Isqrt(x) | Node::DivExact(x, _) | Node::Present(_, x) => settle(x, vars),
        Node::Arith(_, a, b)
        | Node::DivRound(a, b, _)
        | Node::Mod(a, b)
        | Node::Cmp(_, a, b)
        | Node::And(a, b)
        | Node::Or(a, b) => {
            settle(a, vars);
            settle(b, vars);
        }
        Node::If(a, b, c) => {
            settle(a, vars);
            settle(b, vars);
            settle(c, vars);
        }
        Node::Min(xs) | Node::Max(xs) => xs.iter_mut().for_each(|x| settle(x, vars)),
        Node::OneOf(x, vs) => {
            settle(x, vars);
            vs.iter_mut().for_each(|v| settle(v, vars));
        }
        _ => {}
    }
}

/// Settle every rounding of the plan, in evaluation order (a define's bounds are known before
/// anything reads it), and recount the helpers the code then calls.
pub(super) fn settle_roundings(plan: &mut Plan) {
    let mut vars: Vec<Option<Iv>> =
        plan.vars.iter().map(|v| v.range.filter(|_| !v.scaled).map(|(lo, hi)| (lo as i128, hi as i128))).collect();
    for c in &mut plan.door.constraints {
        settle(&mut c.test, &vars);
    }
    for step in &mut plan.steps {
        match step {
            Step::Define { var, value } => {
                settle(value, &vars);
                if vars[*var].is_none() {
                    vars[*var] = Some(bounds(value, &vars));
                }
            }
            Step::Table(t) => {
                for row in &mut t.rows {
                    settle(&mut row.cond, &vars);
                    for (_, value) in &mut row.assigns {
                        settle(value, &vars);
                    }
                }
                for &r in &t.results {
                    if vars[r].is_none() && plan.vars[r].kind == super::Kind::Num {
                        let all = t.rows.iter().filter_map(|row| row.assigns.iter().find(|(v, _)| *v == r));
                        vars[r] = all.map(|(_, x)| bounds(x, &vars)).reduce(hull);
                    }
                }
                if let Some(c) = &mut t.collect {
                    settle(&mut c.empty, &vars);
                }
            }
            // What a walk carries has no bounds of its own here: the analysis proved each value.
            Step::Assign { value, .. } | Step::Push { value, .. } | Step::Refuse { when: value, .. } => {
                settle(value, &vars)
            }
            Step::Walk(w) => {
                for x in w.accumulators.iter_mut().map(|(_, x)| x).chain(&mut w.stop) {
                    settle(x, &vars);
                }
            }
            // A call's bindings are defines of the callee's inputs and of what reads its
            // outputs (each output declared, so bounded before its steps run).
            Step::Call(c) => {
                for (var, value) in c.args.iter_mut().chain(&mut c.results) {
                    settle(value, &vars);
                    if vars[*var].is_none() {
                        vars[*var] = Some(bounds(value, &vars));
                    }
                }
            }
        }
    }
    let mut found = std::collections::BTreeSet::new();
    plan.each_expr(&mut |e| collect(e, &mut found));
    plan.helpers = found;
}

/// The helper one node calls (its children are walked by [`Plan::each_expr`]).
fn collect(e: &Expr, out: &mut std::collections::BTreeSet<super::Helper>) {
    match &e.node {
        Node::DivRound(.., m) => {
            out.insert(super::Helper::DivRound(*m));
        }
        Node::Mod(..) => {
            out.insert(super::Helper::Mod);
        }
        Node::Isqrt(_) => {
            out.insert(super::Helper::Isqrt);
        }
        _ => {}
    }
}
