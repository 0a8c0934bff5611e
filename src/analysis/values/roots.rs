//! Roots: each define, table result and constraint bounded over its cases, and the int64 check of every node.

use super::*;

/// Rows that hold together, with the box of the cover's leaf where they do (none when any
/// subset may).
type RowSet<'p> = (Vec<usize>, Option<&'p [(u32, u32)]>);

impl<'a> Values<'a> {
    /// Bound a define (the step of the evaluation order that computes it).
    pub fn define(&mut self, d: usize) {
        let p = self.p;
        let def = &p.defines[d];
        let v = def.var;
        let ann = self.ann;
        self.begin_root(Root::Define(d));
        let s = &ann.defines[d];
        let e_iv = self.root_walk(&def.expr, s, &Env::default(), None, v);
        let stored = e_iv.as_ref().map(|iv| self.stored_iv(v, iv));
        let store = ann.define_stores[d].as_ref().zip(e_iv.as_ref()).zip(stored.as_ref());
        let store = store.map(|((st, e), sv)| (st, &def.expr, s, e.clone(), sv.clone()));
        let failed = self.finish_root(store, &|| p.vars[v].name.clone());
        self.settle(v, stored, failed);
    }

    /// Bound a table's results, row by row, each where the row answers (`proof` is the
    /// table analysis' cover).
    pub fn table(&mut self, t: usize, proof: &TableProof) {
        let p = self.p;
        let ann = self.ann;
        let table = &p.tables[t];
        let boxes = self.firing_boxes(t, proof);
        // The facts of a row's region are built only where something reads them: a result
        // that is computed, or a root elsewhere that is split over this table's rows.
        let split_over = self.split_tables.contains(&t);
        let mut hulls: Vec<Option<Iv>> = vec![None; table.results.len()];
        // A multiple-hit table's one result, per row where it holds: what the fold reads.
        let mut held: Vec<Option<Iv>> = vec![None; table.rows.len()];
        let mut failed = vec![false; table.results.len()];
        if split_over {
            self.regions[t] = vec![None; table.rows.len()];
            self.row_ivs[t] = vec![vec![None; table.results.len()]; table.rows.len()];
        }
        for (r, row) in table.rows.iter().enumerate() {
            self.check_cells(table, row);
            if boxes[r] == Answers::Nowhere {
                continue;
            }
            let constant = row.results.iter().all(|e| e.as_ref().is_none_or(|e| matches!(e.kind, TExprKind::Const(_))));
            let env = if constant && !split_over {
                None
            } else {
                let mut env = self.row_env(table, row);
                if let Answers::In(b) = &boxes[r] {
                    env = env.with(facts::coord_facts(p, &proof.axes, b));
                }
                if !self.satisfiable(&env.facts) {
                    continue;
                }
                Some(env)
            };
            if split_over {
                self.regions[t][r] = env.clone();
            }
            for (i, res) in row.results.iter().enumerate() {
                let (Some(e), Some(s)) = (res, ann.rows[t][r][i].as_ref()) else { continue };
                let v = table.results[i];
                self.begin_root(Root::Row { table: t, row: r, result: i });
                let e_iv = match (&e.kind, &env) {
                    (TExprKind::Const(c), _) => self.constant_root(e, s, c, v),
                    (_, Some(env)) => self.root_walk(e, s, env, Some(t), v),
                    (_, None) => unreachable!("a row that computes a result has its region"),
                };
                let stored = e_iv.as_ref().map(|iv| self.stored_iv(v, iv));
                let st = ann.row_stores[t][r][i].as_ref();
                let store =
                    st.zip(e_iv.as_ref()).zip(stored.as_ref()).map(|((st, ei), sv)| (st, e, s, ei.clone(), sv.clone()));
                failed[i] |= self.finish_root(store, &|| format!("table {} row {}", table.name, r + 1));
                if let Some(env) = &env {
                    let root = self.root;
                    for x in self.extremes[v].iter_mut().flatten() {
                        if x.root == root && x.env.is_none() {
                            x.env = Some(env.clone());
                        }
                    }
                }
                if split_over {
                    self.row_ivs[t][r][i] = stored.clone();
                }
                held[r] = stored.clone();
                hulls[i] = hull(hulls[i].take(), stored);
            }
        }
        // An aggregate folds several rows' values; a list's element is one row's, as for a
        // single-hit table.
        if table.policy.multi_hit() && !table.policy.lists() {
            let folded = if failed[0] { None } else { self.fold_iv(t, proof, &held, hulls[0].take()) };
            self.settle(table.results[0], folded, failed[0]);
            return;
        }
        for (i, &v) in table.results.iter().enumerate() {
            self.settle(v, hulls[i].take(), failed[i]);
        }
    }

    /// A multiple-hit table's answer over every set of rows that can hold together: the sets
    /// the cover's leaves list (every subset of the rows when it did not finish). A sum's
    /// running total is held to int64 too (E108, with a witness the evaluator confirms).
    fn fold_iv(&mut self, t: usize, proof: &TableProof, held: &[Option<Iv>], hull_iv: Option<Iv>) -> Option<Iv> {
        let p = self.p;
        let table = &p.tables[t];
        let v = table.results[0];
        let var = &p.vars[v];
        let n = table.rows.len();
        let live: Vec<usize> = (0..n).filter(|&r| held[r].is_some()).collect();
        // Each set with the leaf it lies in, or none when every subset may hold.
        let sets: Vec<RowSet> = if proof.complete && !proof.cover.nodes.is_empty() {
            (proof.cover.leaves.iter())
                .filter(|l| !matches!(l.asked, Asked::No(_)))
                .map(|l| {
                    (l.rows.iter().map(|&r| r as usize).filter(|r| held[*r].is_some()).collect(), Some(&l.ranges[..]))
                })
                .collect()
        } else {
            vec![(Vec::new(), None), (live.clone(), None)]
        };
        let exact = proof.complete && !proof.cover.nodes.is_empty();
        let empty = sets.iter().any(|(rows, _)| rows.is_empty());
        let with_default = |iv: Option<Iv>| match (&var.default, empty) {
            (Some(Value::Num(d)), true) => hull(iv, Some((d.clone(), d.clone()))),
            _ => iv,
        };
        use crate::syntax::ast::Policy;
        match table.policy {
            Policy::CollectCount => {
                let counts = sets.iter().map(|(rows, _)| num::int(rows.len() as i64));
                let lo = if exact { counts.clone().min() } else { Some(Rat::zero()) };
                Some((lo.unwrap_or_else(Rat::zero), counts.max().unwrap_or_else(Rat::zero)))
            }
            Policy::CollectSum => {
                let sum_of = |rows: &[usize], part: &dyn Fn(&Iv) -> Iv| {
                    rows.iter().fold((Rat::zero(), Rat::zero()), |acc, &r| {
                        let x = part(held[r].as_ref().expect("a live row"));
                        (acc.0 + x.0, acc.1 + x.1)
                    })
                };
                let whole = |iv: &Iv| iv.clone();
                // Any subset of the rows may hold when the cover did not finish.
                let subset = |iv: &Iv| (iv.0.clone().min(Rat::zero()), iv.1.clone().max(Rat::zero()));
                let mut out: Option<Iv> = None;
                let mut running: Option<Iv> = None;
                // The lowest and the highest sum, with the set that makes it.
                let mut lowest: Option<(Rat, usize)> = None;
                let mut highest: Option<(Rat, usize)> = None;
                for (k, (rows, _)) in sets.iter().enumerate() {
                    if rows.is_empty() {
                        continue;
                    }
                    let sum = if exact { sum_of(rows, &whole) } else { sum_of(rows, &subset) };
                    running = hull(running, Some(sum_of(rows, &subset)));
                    if lowest.as_ref().is_none_or(|(x, _)| sum.0 < *x) {
                        lowest = Some((sum.0.clone(), k));
                    }
                    if highest.as_ref().is_none_or(|(x, _)| sum.1 > *x) {
                        highest = Some((sum.1.clone(), k));
                    }
                    out = hull(out, Some(sum));
                }
                for (_, k) in lowest.into_iter().chain(highest) {
                    if let (rows, Some(ranges)) = &sets[k] {
                        let facts = facts::coord_facts(p, &proof.axes, ranges);
                        let cells: Vec<(VarId, &CondIr)> = (rows.iter())
                            .flat_map(|&r| table.conds.iter().copied().zip(&table.rows[r].conds))
                            .filter(|(w, _)| p.vars[*w].kind == VarKind::Input)
                            .collect();
                        if let Some(point) = self.linear_point_in(&facts, &cells) {
                            self.fold_starts[v].push(point);
                        }
                    }
                }
                if let Some(r) = &running {
                    self.report_running_sum(t, r);
                }
                with_default(out)
            }
            // A least, a greatest or a list element is one of the rows' values.
            _ => with_default(hull_iv),
        }
    }

    /// A result cell that is a literal: its value, its integer checked for int64. Its bound
    /// is its value: no node bound, and no case in the certificate (the row states it).
    pub(super) fn constant_root(&mut self, e: &'a TExpr, s: &'a Scaled, c: &Value, v: VarId) -> Option<Iv> {
        let iv = value_num(c).map(|n| (n.clone(), n.clone()));
        self.recs.push(Rec { e, s, path: Vec::new(), kids: Vec::new(), own: iv.clone() });
        if let Some(x) = &iv {
            let stored = self.stored_iv(v, x);
            self.note_stored_extremes(v, &stored, Vec::new());
        }
        iv
    }

    /// Per row, where it answers: the box around the leaves of the cover where it is the
    /// first row listed and some asked input may lie, nowhere when it has no such leaf, or
    /// where its cells take for every row when the cover did not finish.
    pub(super) fn firing_boxes(&self, t: usize, proof: &TableProof) -> Vec<Answers> {
        let n = self.p.tables[t].rows.len();
        if !proof.complete || proof.cover.nodes.is_empty() {
            return vec![Answers::Cells; n];
        }
        let mut boxes = vec![Answers::Nowhere; n];
        // Under a multiple-hit policy every row a leaf lists holds there, not only the first.
        let every = self.p.tables[t].policy.multi_hit();
        for leaf in &proof.cover.leaves {
            if matches!(leaf.asked, Asked::No(_)) {
                continue;
            }
            let answering = if every { &leaf.rows[..] } else { &leaf.rows[..leaf.rows.len().min(1)] };
            for &r in answering {
                let b = &mut boxes[r as usize];
                *b = Answers::In(match std::mem::replace(b, Answers::Nowhere) {
                    Answers::In(h) => {
                        h.iter().zip(&leaf.ranges).map(|(&(a, b), &(c, d))| (a.min(c), b.max(d))).collect()
                    }
                    _ => leaf.ranges.clone(),
                });
            }
        }
        boxes
    }

    /// Start bounding the expression of a new root.
    pub(super) fn begin_root(&mut self, root: Root) {
        self.root = root;
        self.recs.clear();
    }

    /// Bound a root's expression: split over the rows of the tables whose results it reads
    /// (each case the cells of the rows it takes and their results), the hull over cases.
    /// `own` is the table the root is a result cell of.
    pub(super) fn root_walk(
        &mut self,
        e: &'a TExpr,
        s: &'a Scaled,
        env: &Env,
        own: Option<usize>,
        v: VarId,
    ) -> Option<Iv> {
        let first_node = self.nodes.len();
        let (split, between) = self.split_plan(e, own);
        let mut out: Option<Iv> = None;
        let row = match self.root {
            Root::Row { table, row, .. } => Some((table, row)),
            _ => None,
        };
        let mut proof = RootProof { row, split: split.clone(), cases: Vec::new() };
        if split.is_empty() {
            self.refined.set(false);
            let env = self.see_through(e, env);
            out = self.walk(e, s, &env);
            if let Some(iv) = &out {
                self.note_extremes(v, iv, Vec::new());
            }
            let interval = out.as_ref().map(|iv| self.stored_iv(v, iv));
            proof.cases.push(CaseProof { rows: Vec::new(), interval, linear: self.refined.get() });
        } else {
            let rows: Vec<Vec<usize>> = split
                .iter()
                .map(|&t| (0..self.p.tables[t].rows.len()).filter(|&r| self.regions[t][r].is_some()).collect())
                .collect();
            let mut pick = vec![0usize; split.len()];
            'cases: loop {
                let mut case = env.clone();
                for (k, &t) in split.iter().enumerate() {
                    let r = rows[k][pick[k]];
                    case = case.join(&self.row_case(t, r));
                }
                let picks: Vec<(usize, usize)> =
                    split.iter().enumerate().map(|(k, &t)| (t, rows[k][pick[k]])).collect();
                self.refined.set(false);
                if self.satisfiable(&case.facts) {
                    for &d in &between {
                        self.inline_define(d, &mut case);
                    }
                    let case = self.see_through(e, &case);
                    let iv = self.walk(e, s, &case);
                    if let Some(iv) = &iv {
                        self.note_extremes(v, iv, picks.clone());
                    }
                    let interval = iv.as_ref().map(|iv| self.stored_iv(v, iv));
                    proof.cases.push(CaseProof { rows: picks, interval, linear: self.refined.get() });
                    out = hull(out, iv);
                } else {
                    // The rows' cells contradict: no input takes these rows together.
                    proof.cases.push(CaseProof { rows: picks, interval: None, linear: true });
                }
                for k in 0..split.len() {
                    pick[k] += 1;
                    if pick[k] < rows[k].len() {
                        continue 'cases;
                    }
                    pick[k] = 0;
                }
                break;
            }
            self.merge_nodes(first_node);
        }
        self.root_proof.push((v, proof));
        out
    }

    /// Remember the case if it takes `v`'s stored value further than any before.
    pub(super) fn note_extremes(&mut self, v: VarId, expr_iv: &Iv, picks: Vec<(usize, usize)>) {
        if self.p.vars[v].range.is_none() {
            return;
        }
        let stored = self.stored_iv(v, expr_iv);
        self.note_stored_extremes(v, &stored, picks);
    }

    /// [`Self::note_extremes`] of a value already stored.
    pub(super) fn note_stored_extremes(&mut self, v: VarId, stored: &Iv, picks: Vec<(usize, usize)>) {
        if self.p.vars[v].range.is_none() {
            return;
        }
        let stored = stored.clone();
        let root = self.root;
        for (side, at) in [(0, stored.0), (1, stored.1)] {
            let better = match &self.extremes[v][side] {
                None => true,
                Some(x) => (side == 1 && at > x.at) || (side == 0 && at < x.at),
            };
            if better {
                self.extremes[v][side] = Some(Extreme { at, root, picks: picks.clone(), env: None });
            }
        }
    }

    /// Inputs where the case that takes `v` furthest reaches its bound: a start for E107's
    /// witness search. In the case the rows' results are constants, so the expression is
    /// linear more often than over every input.
    pub(super) fn extreme_point(&mut self, v: VarId, high: bool) -> Option<Vec<Value>> {
        let x = self.extremes[v][usize::from(high)].clone()?;
        let p = self.p;
        let (e, mut env) = match x.root {
            Root::Define(d) => (&p.defines[d].expr, Env::default()),
            Root::Row { table, row, result } => (p.tables[table].rows[row].results[result].as_ref()?, x.env.clone()?),
            Root::Constraint(_) => return None,
        };
        for &(t, r) in &x.picks {
            env = env.join(&self.row_case(t, r));
        }
        let (_, between) = self.split_plan(e, None);
        for &d in &between {
            self.inline_define(d, &mut env);
        }
        let point = |w: VarId| env.over_of(w).filter(|iv| iv.0 == iv.1).map(|iv| iv.0.clone());
        // The expression grows or shrinks with one linear form: where that is at its extreme.
        let m = model::monotone_in(e, &point)?;
        let up = high == m.increasing;
        let mut lin = m.inner;
        // A define between the rows and the root that is linear in the case reads through.
        for &d in between.iter().rev() {
            let def = &p.defines[d];
            let Some(a) = lin.coeffs.get(&def.var).cloned() else { continue };
            if p.vars[def.var].rounding.is_some() {
                continue;
            }
            if let Some(inner) = model::linear_with(&def.expr, &point) {
                lin.coeffs.remove(&def.var);
                lin = lin.add(&inner.scale(&a));
            }
        }
        let sign = if up { Rat::one() } else { -Rat::one() };
        let (lo, hi) = self.lin_bounds(&lin, &env)?;
        let target = if up { hi? } else { lo? };
        let mut facts = env.facts.clone();
        facts.push(Fact::le(&Lin::constant(&target * &sign), &lin.scale(&sign), false));
        // The rows' cells on the inputs hold too (a boolean column the facts do not speak of).
        let mut rows: Vec<(usize, usize)> = x.picks.clone();
        if let Root::Row { table, row, .. } = x.root {
            rows.push((table, row));
        }
        let cells: Vec<(VarId, &CondIr)> = rows
            .iter()
            .flat_map(|&(t, r)| p.tables[t].conds.iter().copied().zip(&p.tables[t].rows[r].conds))
            .filter(|(w, _)| p.vars[*w].kind == VarKind::Input)
            .collect();
        self.linear_point_in(&facts, &cells).or_else(|| self.linear_point_in(&env.facts, &cells))
    }

    /// What holds where row `r` of table `t` answers, with its results: their intervals
    /// there, and, for a linear result stored as it is computed, its equality.
    pub(super) fn row_case(&self, t: usize, r: usize) -> Env {
        let p = self.p;
        let table = &p.tables[t];
        let mut env = self.regions[t][r].clone().unwrap_or_default();
        for (i, &v) in table.results.iter().enumerate() {
            let Some(iv) = &self.row_ivs[t][r][i] else { continue };
            env.facts.extend(range_facts(v, iv));
            env.over.push((v, iv.clone()));
            if p.vars[v].rounding.is_none() {
                if let Some(lin) = table.rows[r].results[i].as_ref().and_then(model::linear_of) {
                    env.facts.extend(eq_facts(&Lin::var(v).sub(&lin), &Rat::zero()));
                }
            }
        }
        env
    }

    /// Bound a define inside a case, for the root that reads it: its interval there.
    pub(super) fn inline_define(&mut self, d: usize, case: &mut Env) {
        let def = &self.p.defines[d];
        let v = def.var;
        let s = &self.ann.defines[d];
        self.quiet += 1;
        let iv = self.walk(&def.expr, s, case);
        self.quiet -= 1;
        let Some(iv) = iv else { return };
        let mut iv = self.stored_iv(v, &iv);
        if let Some(all) = &self.iv[v] {
            iv = (iv.0.max(all.0.clone()), iv.1.min(all.1.clone()));
        }
        if iv.0 <= iv.1 {
            case.facts.extend(range_facts(v, &iv));
            case.over.push((v, iv));
        }
    }

    /// `env` with each define `e` reads (directly or through defines) bounded again where
    /// `env` holds, when `env` narrows a variable the define is computed from: a define of
    /// the inputs a row cuts is bounded on the row as its expression written inline is.
    pub(super) fn see_through(&mut self, e: &TExpr, env: &Env) -> Env {
        let p = self.p;
        let narrowed = |w: VarId| env.mentions(w) || env.over_of(w).is_some();
        let mut vs = Vec::new();
        collect_vars(e, &mut vs);
        let mut ds: BTreeSet<(usize, usize)> = BTreeSet::new();
        while let Some(w) = vs.pop() {
            let Some(Decider::Define(d)) = p.vars[w].decided_by else { continue };
            if env.over_of(w).is_some() || !ds.insert((self.define_at[d], d)) {
                continue;
            }
            collect_vars(&p.defines[d].expr, &mut vs);
        }
        ds.retain(|&(_, d)| self.define_reads[d].iter().any(|&w| narrowed(w)));
        let mut out = env.clone();
        for (_, d) in ds {
            self.inline_define(d, &mut out);
        }
        out
    }

    /// The tables a root's bound is split over, and the defines between them and the root
    /// (in evaluation order), re-bounded in each case. At most MAX_CASES cases: the tables
    /// with the most rows are left out first.
    pub(super) fn split_plan(&self, e: &TExpr, own: Option<usize>) -> (Vec<usize>, Vec<usize>) {
        let p = self.p;
        let mut tables: BTreeSet<usize> = reads_tables(p, e, &self.define_tables);
        if let Some(t) = own {
            tables.remove(&t);
        }
        let answering = |t: usize| self.regions[t].iter().filter(|r| r.is_some()).count().max(1);
        let limit = MAX_CASES.min((self.budget / 64).max(1) as usize);
        let mut split: Vec<usize> = tables.into_iter().collect();
        while split.iter().map(|&t| answering(t)).product::<usize>() > limit {
            let (i, _) = split.iter().enumerate().max_by_key(|(_, &t)| (answering(t), t)).unwrap();
            split.remove(i);
        }
        if split.is_empty() {
            return (split, Vec::new());
        }
        // The defines the root reads, through defines, that read a split table.
        let mut between: BTreeSet<usize> = BTreeSet::new();
        let mut stack = Vec::new();
        collect_vars(e, &mut stack);
        let mut seen = BTreeSet::new();
        while let Some(w) = stack.pop() {
            if !seen.insert(w) {
                continue;
            }
            if let Some(Decider::Define(d)) = p.vars[w].decided_by {
                if self.define_tables[d].iter().any(|t| split.contains(t)) {
                    between.insert(d);
                    collect_vars(&p.defines[d].expr, &mut stack);
                }
            }
        }
        let order: Vec<usize> = p
            .order
            .iter()
            .filter_map(|s| match *s {
                Step::Define(d) if between.contains(&d) => Some(d),
                _ => None,
            })
            .collect();
        (split, order)
    }

    /// Several cases bounded the nodes of one root: one bound per node, the hull.
    pub(super) fn merge_nodes(&mut self, from: usize) {
        let mut merged: Vec<NodeBound> = Vec::new();
        for nb in self.nodes.drain(from..) {
            match merged.iter_mut().find(|m| m.path == nb.path) {
                Some(m) => m.interval = hull(m.interval.take(), nb.interval),
                None => merged.push(nb),
            }
        }
        self.nodes.extend(merged);
    }

    /// A cell compares the column's integer with the literal at the column's scale: the
    /// literal must be one the code can write.
    pub(super) fn check_cells(&mut self, table: &TableIr, row: &RowIr) {
        let p = self.p;
        for (j, (c, &v)) in row.conds.iter().zip(&table.conds).enumerate() {
            let CondIr::Tests { tests, .. } = c else { continue };
            let Some(sc) = self.ann.var_scale[v].clone() else { continue };
            for test in tests {
                let vals: Vec<&Value> = match test {
                    TestIr::Bounds(bs) => bs.iter().map(|(_, b)| b).collect(),
                    TestIr::OneOf(xs) => xs.iter().collect(),
                    TestIr::IsNone => Vec::new(),
                };
                for x in vals.into_iter().filter_map(value_num) {
                    let n = num::quot(x, &sc);
                    let int = Inter { what: "literal".into(), lo: n.clone(), hi: n };
                    if int.fits() {
                        continue;
                    }
                    let span = row.cell_spans.get(j).copied().unwrap_or(row.span);
                    self.diags.push(
                        Diagnostic::new(
                            "E108",
                            p.file,
                            span,
                            format!(
                                "a literal in this cell does not fit in int64 at the scale of `{}`",
                                p.vars[v].name
                            ),
                        )
                        .label(format!("{} steps of the column", num::to_decimal_string(&(x / &sc))))
                        .note(format!(
                            "the cell compares `{}` as a whole number of its steps; int64 holds {}",
                            p.vars[v].name,
                            int64_text()
                        ))
                        .help("write a bound inside the column's range"),
                    );
                }
            }
        }
    }

    /// The facts a row's own cells state about numeric columns.
    pub(super) fn row_env(&self, table: &TableIr, row: &RowIr) -> Env {
        let (mut facts, mut nonzero) = (Vec::new(), Vec::new());
        for (c, &v) in row.conds.iter().zip(&table.conds) {
            let var = &self.p.vars[v];
            if var.optional || !scale::is_number(&var.ty) {
                continue;
            }
            let CondIr::Tests { negated, tests } = c else { continue };
            let [test] = tests.as_slice() else { continue };
            let x = Lin::var(v);
            match (test, negated) {
                (TestIr::Bounds(bs), false) => {
                    for (op, b) in bs {
                        if let Some(b) = value_num(b) {
                            facts.extend(
                                model::comparison_facts(*op, &x, &Lin::constant(b.clone())).unwrap_or_default(),
                            );
                        }
                    }
                }
                (TestIr::Bounds(bs), true) if bs.len() == 1 => {
                    if let Some(b) = value_num(&bs[0].1) {
                        let op = negate_op(bs[0].0);
                        facts.extend(model::comparison_facts(op, &x, &Lin::constant(b.clone())).unwrap_or_default());
                    }
                }
                (TestIr::OneOf(vals), false) if vals.len() == 1 => {
                    if let Some(b) = value_num(&vals[0]) {
                        facts.extend(eq_facts(&x, b));
                    }
                }
                (TestIr::OneOf(vals), true) => {
                    for b in vals.iter().filter_map(value_num) {
                        nonzero.push(x.sub(&Lin::constant(b.clone())));
                    }
                }
                _ => {}
            }
        }
        Env { facts, nonzero, over: Vec::new() }
    }

    /// The interval a variable holds after a store: its rounding, its unit.
    pub(super) fn stored_iv(&self, v: VarId, iv: &Iv) -> Iv {
        let var = &self.p.vars[v];
        match &var.rounding {
            Some(r) => {
                let lo = num::round_to_grid(&iv.0, r.mode, &r.grid);
                let hi = num::round_to_grid(&iv.1, r.mode, &r.grid);
                (lo, hi)
            }
            None if var.declared || var.kind != VarKind::Define => tighten(iv.clone(), &var.ty.factor()),
            None => iv.clone(),
        }
    }

    /// A derived variable's interval is settled: E107, the facts later readers reason with, the entry.
    pub(super) fn settle(&mut self, v: VarId, iv: Option<Iv>, failed: bool) {
        let var = &self.p.vars[v];
        let declared = match &var.range {
            Some((Value::Num(lo), Value::Num(hi))) => Some((lo.clone(), hi.clone())),
            _ => None,
        };
        // Outside its range whether or not it also overflows: fixing one leaves the other.
        if let (Some(d), Some(iv)) = (&declared, &iv) {
            if iv.0 < d.0 || iv.1 > d.1 {
                self.report_range(v, d, iv);
            }
        }
        let iv = match (failed, &declared) {
            // An overflow was reported: later readers take the claim rather than a cascade.
            (true, Some(d)) => Some(d.clone()),
            _ => iv,
        };
        if let Some(iv) = &iv {
            self.derived.extend(range_facts(v, iv));
        }
        let (mine, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.root_proof).into_iter().partition(|(w, _)| *w == v);
        self.root_proof = rest;
        let roots = mine.into_iter().map(|(_, r)| r).collect();
        self.bounds.push(BoundProof { var: v, interval: iv.clone(), roots });
        self.iv[v] = iv;
        self.var_entry(v);
    }

    /// Check a root's records and its store for int64; returns whether it overflows.
    /// `of` names what the root computes (only the certificate's entries of intermediates say it).
    pub(super) fn finish_root(
        &mut self,
        store: Option<(&'a Store, &'a TExpr, &'a Scaled, Iv, Iv)>,
        of: &dyn Fn() -> String,
    ) -> bool {
        let recs = merge_recs(std::mem::take(&mut self.recs));
        let mut pending = std::mem::take(&mut self.pending);
        // One finding per node, whatever the cases that met it.
        let mut seen: Vec<*const TExpr> = Vec::new();
        pending.retain(|pd| {
            let node = match pd {
                Pending::ZeroDivisor { node, .. } | Pending::NegativeRoot { node, .. } => *node as *const TExpr,
            };
            let fresh = !seen.contains(&node);
            seen.push(node);
            fresh
        });
        let root = self.root;
        let mut failed = false;
        for r in &recs {
            let ints = scale::node_ints(r.s, &r.kids, r.own.as_ref());
            if let Some(i) = ints.iter().position(|x| !x.fits()) {
                self.report_overflow(root, Failure::Node(r), &ints[i]);
                failed = true;
                break;
            }
        }
        if let (false, Some((st, e, s, e_iv, stored))) = (failed, store) {
            let var = &self.p.vars[st.var];
            let es = s.scale.clone().unwrap_or_else(Rat::one);
            let ints = scale::store_ints(st, &es, &e_iv, &stored, &var.ty.factor());
            if let Some(i) = ints.iter().position(|x| !x.fits()) {
                self.report_overflow(root, Failure::Store { st, e, s }, &ints[i]);
                failed = true;
            }
        }
        for pd in pending {
            self.report_pending(pd);
        }
        // Entries for the intermediates.
        for r in &recs {
            if !r.s.holds_n() || matches!(r.s.op, Op::Var(_) | Op::Const(_)) {
                continue;
            }
            let Some(own) = &r.own else { continue };
            let ints = scale::node_ints(r.s, &r.kids, Some(own));
            let sc = r.s.scale.clone().unwrap_or_else(Rat::one);
            let entry = self.entry(
                (self.src(r.e.span).to_string(), Some(of())),
                &r.e.ty,
                Some(self.expr_json(r.e)),
                own,
                &sc,
                &ints,
            );
            self.entries.push(entry);
        }
        failed
    }
}
