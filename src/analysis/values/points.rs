//! Evaluation at a point: the values a candidate input gives, and the search for a witness.

use super::*;

impl<'a> Values<'a> {
    /// Every variable's value for these inputs, and whether the root is evaluated at all.
    pub(super) fn values_at(&self, root: Root, inputs: &[Value]) -> Result<(Vec<Value>, bool), EvalError> {
        let p = self.p;
        match root {
            Root::Constraint(_) => {
                let mut values = vec![Value::None; p.vars.len()];
                for (&v, x) in p.inputs.iter().zip(inputs) {
                    values[v] = x.clone();
                }
                Ok((values, true))
            }
            Root::Define(_) => Ok((eval::evaluate(p, inputs)?.values, true)),
            Root::Row { table, row, .. } => {
                let out = eval::evaluate(p, inputs)?;
                let fires = out.trace.contains(&Fired { table, row: row + 1 });
                Ok((out.values, fires))
            }
        }
    }

    /// The exact integer `int` names, at a point (a magnitude checked with either sign is
    /// taken on the side that overflows).
    pub(super) fn inter_at(&self, at: &Failure, int: &Inter, values: &[Value], high: bool) -> Option<Rat> {
        let point = |e: &TExpr| -> Option<Iv> {
            let x = eval::eval_expr(e, values).ok()?;
            let x = value_num(&x)?.clone();
            Some((x.clone(), x))
        };
        let ints = match at {
            Failure::Node(r) => {
                let kids: Vec<Option<Iv>> = scale::children(r.e).into_iter().map(point).collect();
                let own = point(r.e);
                scale::node_ints(r.s, &kids, own.as_ref())
            }
            Failure::Store { st, e, s } => {
                let var = &self.p.vars[st.var];
                let ev = point(e)?;
                let sv = self.stored_iv(st.var, &ev);
                let es = s.scale.clone().unwrap_or_else(Rat::one);
                scale::store_ints(st, &es, &ev, &sv, &var.ty.factor())
            }
        };
        ints.into_iter().find(|x| x.what == int.what).map(|x| if high { x.hi } else { x.lo })
    }

    /// Whether these inputs reach `root`: they pass the door's constraints — for a
    /// constraint, the ones before it (ranges hold by construction).
    pub(super) fn admissible(&self, root: Root, inputs: &[Value]) -> bool {
        let p = self.p;
        let mut values = vec![Value::None; p.vars.len()];
        for (&v, x) in p.inputs.iter().zip(inputs) {
            values[v] = x.clone();
        }
        let upto = match root {
            Root::Constraint(c) => c,
            _ => p.constraints.len(),
        };
        p.constraints[..upto].iter().all(|c| eval::eval_expr(&c.expr, &values) != Ok(Value::Bool(false)))
    }

    /// The values an input is tried at: the ends of its range, zero, next to the ends; every
    /// value of a boolean or an enum; the strings the tables name.
    pub(super) fn candidates(&self, v: VarId) -> Vec<Value> {
        let p = self.p;
        let var = &p.vars[v];
        let mut out: Vec<Value> = match &var.ty {
            Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Ty::Enum(e) => {
                let n = p.enums[*e].values.len() as u32;
                let (lo, hi) = match &var.range {
                    Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                    _ => (0, n.saturating_sub(1)),
                };
                (lo..=hi).map(Value::Enum).collect()
            }
            Ty::Str => {
                let mut xs = vec![Value::Str(String::new())];
                for t in &p.tables {
                    for row in &t.rows {
                        for (c, &cv) in row.conds.iter().zip(&t.conds) {
                            if cv != v {
                                continue;
                            }
                            if let CondIr::Tests { tests, .. } = c {
                                for test in tests {
                                    if let TestIr::OneOf(vals) = test {
                                        xs.extend(vals.iter().cloned());
                                    }
                                }
                            }
                        }
                    }
                }
                xs
            }
            _ => match &self.raw[v] {
                Some((lo, hi)) => {
                    let f = var.ty.factor();
                    let mut xs = vec![lo.clone(), hi.clone()];
                    if !lo.is_positive() && !hi.is_negative() {
                        xs.push(Rat::zero());
                    }
                    xs.push(lo + &f);
                    xs.push(hi - &f);
                    xs.extend(self.cuts(v));
                    xs.into_iter().filter(|x| x >= lo && x <= hi).map(Value::Num).collect()
                }
                None => Vec::new(),
            },
        };
        if var.optional {
            out.push(Value::None);
        }
        let mut seen = Vec::new();
        out.retain(|x| {
            let fresh = !seen.contains(x);
            seen.push(x.clone());
            fresh
        });
        out
    }

    /// Where the rows cut a numeric input, each cut and the steps beside it: a value that
    /// is a polynomial of the input on a row is often furthest at the row's end. None when
    /// the cuts are more than a search should try.
    fn cuts(&self, v: VarId) -> Vec<Rat> {
        const MOST: usize = 64;
        let p = self.p;
        let f = p.vars[v].ty.factor();
        let mut at: BTreeSet<Rat> = BTreeSet::new();
        for t in &p.tables {
            let Some(col) = t.conds.iter().position(|&w| w == v) else { continue };
            for row in &t.rows {
                let CondIr::Tests { tests, .. } = &row.conds[col] else { continue };
                for test in tests {
                    if let TestIr::Bounds(bs) = test {
                        at.extend(bs.iter().filter_map(|(_, b)| value_num(b)).cloned());
                    }
                }
                if at.len() > MOST {
                    return Vec::new();
                }
            }
        }
        at.iter().flat_map(|b| [b - &f, b.clone(), b + &f]).collect()
    }

    /// Coordinate ascent over the inputs from the best admissible start (the given ones, the
    /// low corner, the high corner): the point whose score is highest.
    pub(super) fn search(
        &self,
        root: Root,
        score: &Score,
        mut starts: Vec<Vec<Value>>,
    ) -> Option<(Vec<Value>, (u8, Rat))> {
        let cands: Vec<Vec<Value>> = self.p.inputs.iter().map(|&v| self.candidates(v)).collect();
        if cands.iter().any(Vec::is_empty) {
            return None;
        }
        starts.push(cands.iter().map(|c| c[0].clone()).collect());
        starts.push(
            cands
                .iter()
                .map(|c| if c.len() > 1 && matches!(c[1], Value::Num(_)) { c[1].clone() } else { c[0].clone() })
                .collect(),
        );
        let mut best: Option<(Vec<Value>, (u8, Rat))> = None;
        for st in starts {
            if !self.admissible(root, &st) {
                continue;
            }
            if let Some(sc) = score(&st) {
                if best.as_ref().is_none_or(|b| sc > b.1) {
                    best = Some((st, sc));
                }
            }
        }
        let (mut cur, mut cs) = best?;
        for _ in 0..3 {
            let mut improved = false;
            for i in 0..cur.len() {
                for c in &cands[i] {
                    if *c == cur[i] {
                        continue;
                    }
                    let mut t = cur.clone();
                    t[i] = c.clone();
                    if !self.admissible(root, &t) {
                        continue;
                    }
                    if let Some(sc) = score(&t) {
                        if sc > cs {
                            cur = t;
                            cs = sc;
                            improved = true;
                        }
                    }
                }
            }
            if !improved || cs.0 >= 3 {
                break;
            }
        }
        Some((cur, cs))
    }

    /// Inputs satisfying the program's facts and `extra`, found by fixing one input at a
    /// time to a whole number of its unit inside what the facts still allow (nearest 0).
    pub(super) fn linear_point(&self, extra: &[Fact]) -> Option<Vec<Value>> {
        self.linear_point_in(extra, &[])
    }

    /// [`Self::linear_point`] with each input also taking a value its `cells` accept.
    pub(super) fn linear_point_in(&self, extra: &[Fact], cells: &[(VarId, &CondIr)]) -> Option<Vec<Value>> {
        let p = self.p;
        if !self.feasible {
            return None;
        }
        let mut facts: Vec<Fact> = self.base.iter().chain(extra).cloned().collect();
        let feasible = |fs: &[Fact]| {
            let mut b = self.budget;
            fs.is_empty() || linear::refute(fs, &mut b) == Outcome::Feasible
        };
        if !feasible(&facts) {
            return None;
        }
        let mut out = Vec::new();
        for &v in &p.inputs {
            let var = &p.vars[v];
            let accepted = |x: &Value| cells.iter().all(|(w, c)| *w != v || eval::cell_holds(c, x));
            if var.optional {
                out.push(if accepted(&Value::None) {
                    Value::None
                } else {
                    self.candidates(v).into_iter().find(|x| accepted(x)).unwrap_or(Value::None)
                });
                continue;
            }
            let Some(raw) = self.raw[v].clone() else {
                let cands = self.candidates(v);
                out.push(cands.iter().find(|x| accepted(x)).or(cands.first()).cloned()?);
                continue;
            };
            let mut b = self.budget;
            let (lo, hi) = linear::bounds(&facts, &Lin::var(v), &mut b);
            let lo = lo.map_or(raw.0.clone(), |l| l.max(raw.0.clone()));
            let hi = hi.map_or(raw.1.clone(), |h| h.min(raw.1.clone()));
            let f = var.ty.factor();
            let (lk, hk) = ((&lo / &f).ceil(), (&hi / &f).floor());
            if lk > hk {
                return None;
            }
            let zero = Rat::zero().max(lk.clone()).min(hk.clone());
            let tries = [zero, lk.clone(), hk.clone(), lk + Rat::one(), hk - Rat::one()];
            let mut fixed = None;
            for k in tries {
                let x = k * &f;
                if x < lo || x > hi || !accepted(&Value::Num(x.clone())) {
                    continue;
                }
                let mut next = facts.clone();
                next.extend(eq_facts(&Lin::var(v), &x));
                if feasible(&next) {
                    fixed = Some((x, next));
                    break;
                }
            }
            let (x, next) = fixed?;
            facts = next;
            out.push(Value::Num(x));
        }
        Some(out)
    }
}
