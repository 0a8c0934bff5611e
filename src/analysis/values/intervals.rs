//! Intervals: every node of an expression bounded, sharpened by the linear reasoning.

use super::*;

impl<'a> Values<'a> {
    pub(super) fn walk(&mut self, e: &'a TExpr, s: &'a Scaled, env: &Env) -> Option<Iv> {
        let mut kids: Vec<Option<Iv>> = Vec::new();
        if let TExprKind::If { cond, then, els } = &e.kind {
            kids.push(self.walk_kid(0, cond, &s.kids[0], env));
            let (tenv, fenv) = (env.with_cond(facts_of(cond, true)), env.with_cond(facts_of(cond, false)));
            let (tenv, fenv) = (self.see_through(then, &tenv), self.see_through(els, &fenv));
            let t = if self.satisfiable(&tenv.facts) { self.walk_kid(1, then, &s.kids[1], &tenv) } else { None };
            let f = if self.satisfiable(&fenv.facts) { self.walk_kid(2, els, &s.kids[2], &fenv) } else { None };
            kids.push(t);
            kids.push(f);
        } else {
            for (i, (k, ks)) in scale::children(e).into_iter().zip(&s.kids).enumerate() {
                kids.push(self.walk_kid(i, k, ks, env));
            }
        }
        let own = self.own_interval(e, s, &kids, env);
        if self.quiet == 0 {
            self.check_node(e, s, &kids, env);
            self.nodes.push(NodeBound { site: self.root, path: self.path.clone(), interval: own.clone() });
            self.recs.push(Rec { e, s, path: self.path.clone(), kids, own: own.clone() });
        }
        own
    }

    pub(super) fn walk_kid(&mut self, i: usize, e: &'a TExpr, s: &'a Scaled, env: &Env) -> Option<Iv> {
        self.path.push(i);
        let iv = self.walk(e, s, env);
        self.path.pop();
        iv
    }

    pub(super) fn own_interval(&self, e: &TExpr, s: &Scaled, kids: &[Option<Iv>], env: &Env) -> Option<Iv> {
        if !scale::is_number(&e.ty) {
            return None;
        }
        let k = |i: usize| kids.get(i).cloned().flatten();
        let iv: Iv = match &e.kind {
            TExprKind::Const(Value::Num(v)) => (v.clone(), v.clone()),
            TExprKind::Const(_) | TExprKind::In { .. } | TExprKind::Cmp(..) => return None,
            TExprKind::Not(_) | TExprKind::And(..) | TExprKind::Or(..) => return None,
            TExprKind::Var(v) => {
                let iv = env.over_of(*v).or(self.iv[*v].as_ref()).cloned()?;
                if env.mentions(*v) {
                    // The facts on it alone first: what interval arithmetic reads too.
                    let iv = env.direct(*v, iv);
                    return Some(self.refine(&Lin::var(*v), iv, env));
                }
                return Some(iv);
            }
            TExprKind::Neg(_) => {
                let a = k(0)?;
                (-a.1, -a.0)
            }
            TExprKind::Arith(op, num_e, b) => {
                let (x, y) = (k(0)?, k(1)?);
                match op {
                    BinOp::Add => (&x.0 + &y.0, &x.1 + &y.1),
                    BinOp::Sub => (&x.0 - &y.1, &x.1 - &y.0),
                    BinOp::Mul => corners(&x, &y, |a, b| a * b),
                    BinOp::Div => match (&s.op, &b.kind) {
                        (Op::DivConst { .. }, TExprKind::Const(Value::Num(c))) => {
                            corners(&x, &(c.clone(), c.clone()), |a, b| a / b)
                        }
                        _ => {
                            let sb = s.kids[1].scale.clone().unwrap_or_else(Rat::one);
                            let eps = match &b.grid {
                                Grid::Step(g) => g.clone().max(sb),
                                _ => sb,
                            };
                            let mut out: Option<Iv> = None;
                            if y.1 >= eps {
                                let piece = (y.0.clone().max(eps.clone()), y.1.clone());
                                out = hull(out, Some(corners(&x, &piece, |a, b| a / b)));
                            }
                            if y.0 <= -eps.clone() {
                                let piece = (y.0.clone(), y.1.clone().min(-eps.clone()));
                                out = hull(out, Some(corners(&x, &piece, |a, b| a / b)));
                            }
                            let out = out?;
                            // Both sides linear, the divisor of one sign: exact bounds.
                            match (model::linear_of(num_e), model::linear_of(b)) {
                                (Some(la), Some(lb)) if y.0.is_positive() || y.1.is_negative() => {
                                    self.ratio_bounds(&la, &lb, y.1.is_negative(), out, env)
                                }
                                _ => out,
                            }
                        }
                    },
                }
            }
            TExprKind::Min(_) | TExprKind::Max(_) => {
                let is_min = matches!(e.kind, TExprKind::Min(_));
                let mut acc: Option<Iv> = None;
                for i in 0..kids.len() {
                    let x = k(i)?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) if is_min => (a.0.min(x.0), a.1.min(x.1)),
                        Some(a) => (a.0.max(x.0), a.1.max(x.1)),
                    });
                }
                acc?
            }
            TExprKind::Mod(..) => {
                let (x, y) = (k(0)?, k(1)?);
                let common = s.scale.clone().unwrap_or_else(Rat::one);
                let m = y.0.abs().max(y.1.abs());
                let min_abs = if y.0.is_positive() {
                    y.0.clone()
                } else if y.1.is_negative() {
                    -y.1.clone()
                } else {
                    Rat::zero()
                };
                if !x.0.is_negative() && x.1 < min_abs {
                    x
                } else {
                    (Rat::zero(), (m - common).max(Rat::zero()))
                }
            }
            TExprKind::Isqrt(_) => {
                let x = k(0)?;
                let r = |v: &Rat| Rat::from_integer(num::isqrt(&v.clone().max(Rat::zero())));
                (r(&x.0), r(&x.1))
            }
            TExprKind::Round { mode, grid, .. } => {
                let x = k(0)?;
                (num::round_to_grid(&x.0, *mode, grid), num::round_to_grid(&x.1, *mode, grid))
            }
            TExprKind::If { .. } => hull(k(1), k(2))?,
        };
        let mut iv = iv;
        if let Some(lin) = model::linear_of(e) {
            if lin.coeffs.len() >= 2 || lin.coeffs.keys().any(|v| env.mentions(*v)) {
                iv = self.refine(&lin, iv, env);
            }
        }
        if s.holds_n() {
            if let Some(sc) = &s.scale {
                iv = tighten(iv, sc);
            }
        }
        match &e.grid {
            Grid::Step(g) => iv = tighten(iv, g),
            Grid::Zero if iv.0 <= Rat::zero() && Rat::zero() <= iv.1 => iv = (Rat::zero(), Rat::zero()),
            _ => {}
        }
        Some(iv)
    }

    /// Bounds of `a / b` for linear `a`, `b` where `b` keeps one sign, by the Charnes–Cooper
    /// transformation: with `t = 1/b` and `y = x·t`, every fact `Σ aᵢxᵢ + c ≤ 0` becomes
    /// `Σ aᵢyᵢ + c·t ≤ 0`, `b` becomes `b(y, t) = 1`, and `a / b` the linear `a(y, t)`.
    pub(super) fn ratio_bounds(&self, a: &Lin, b: &Lin, negative: bool, iv: Iv, env: &Env) -> Iv {
        if !self.linear_on {
            return iv;
        }
        let (a, b) = if negative { (a.scale(&-Rat::one()), b.scale(&-Rat::one())) } else { (a.clone(), b.clone()) };
        let vars: BTreeSet<usize> = a.coeffs.keys().chain(b.coeffs.keys()).copied().collect();
        let facts = self.relevant(&vars, &env.facts);
        let t = facts.iter().flat_map(|f| f.lin.coeffs.keys()).chain(&vars).max().map_or(0, |m| m + 1);
        let homogenize = |l: &Lin| {
            let mut h = Lin { coeffs: l.coeffs.clone(), konst: Rat::zero() };
            if !l.konst.is_zero() {
                h.coeffs.insert(t, l.konst.clone());
            }
            h
        };
        let mut system: Vec<Fact> = facts.iter().map(|f| Fact { lin: homogenize(&f.lin), strict: f.strict }).collect();
        let one = Lin::constant(Rat::one());
        system.push(Fact::le(&homogenize(&b), &one, false));
        system.push(Fact::le(&one, &homogenize(&b), false));
        system.push(Fact::le(&Lin::constant(Rat::zero()), &Lin::var(t), false));
        let mut budget = self.budget;
        if linear::refute(&system, &mut budget) != Outcome::Feasible {
            return iv;
        }
        let mut budget = self.budget;
        let (lo, hi) = linear::bounds(&system, &homogenize(&a), &mut budget);
        let lo = lo.map_or(iv.0.clone(), |l| l.max(iv.0.clone()));
        let hi = hi.map_or(iv.1.clone(), |h| h.min(iv.1.clone()));
        if lo <= hi {
            if (&lo, &hi) != (&iv.0, &iv.1) {
                self.refined.set(true);
            }
            (lo, hi)
        } else {
            iv
        }
    }

    pub(super) fn refine(&self, lin: &Lin, iv: Iv, env: &Env) -> Iv {
        match self.lin_bounds(lin, env) {
            Some((lo, hi)) => {
                let lo = lo.map_or(iv.0.clone(), |l| l.max(iv.0.clone()));
                let hi = hi.map_or(iv.1.clone(), |h| h.min(iv.1.clone()));
                if lo <= hi {
                    if (&lo, &hi) != (&iv.0, &iv.1) {
                        self.refined.set(true);
                    }
                    (lo, hi)
                } else {
                    iv
                }
            }
            None => iv,
        }
    }

    /// E132 and E134 at this node.
    pub(super) fn check_node(&mut self, e: &'a TExpr, s: &Scaled, kids: &[Option<Iv>], env: &Env) {
        let root = self.root;
        match &e.kind {
            TExprKind::Arith(BinOp::Div, _, b) | TExprKind::Mod(_, b) => {
                if matches!(s.op, Op::DivConst { .. }) {
                    return;
                }
                let Some(Some(y)) = kids.get(1) else { return };
                if y.0.is_positive() || y.1.is_negative() {
                    return;
                }
                if let Some(lin) = model::linear_of(b) {
                    if !lin.is_constant() && !self.may_be_zero(&lin, env) {
                        return;
                    }
                }
                self.pending.push(Pending::ZeroDivisor { node: e, divisor: b, env: env.clone(), root });
            }
            TExprKind::Isqrt(x) => {
                let Some(Some(y)) = kids.first() else { return };
                if !y.0.is_negative() {
                    return;
                }
                if let Some(lin) = model::linear_of(x) {
                    let neg = Fact::le(&lin, &Lin::constant(Rat::zero()), true);
                    if !lin.is_constant() && !self.satisfiable(&env.with(vec![neg]).facts) {
                        return;
                    }
                }
                self.pending.push(Pending::NegativeRoot { node: e, arg: x, env: env.clone(), root });
            }
            _ => {}
        }
    }
}
