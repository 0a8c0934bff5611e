//! The deterministic search that meets the suite's obligations: a pool of calls built from
//! each input's interesting values (its range's ends, both sides of every boundary a cell
//! draws on it), and moves of one input at a time from a call that already fires a row.

use super::{edges, run, Answer, Criterion, Pair, Vector};
use crate::analysis::model::linear_of;
use crate::eval::{self, wire, Outcome};
use crate::num::{self, Rat};
use crate::sema::*;
use serde_json::{json, Map, Value as Json};
use std::collections::HashSet;

/// A call the door took, with its answer.
#[derive(Clone)]
struct Case {
    input: Json,
    inputs: Vec<Value>,
    outcome: Outcome,
}

pub(super) struct Search<'p> {
    p: &'p Program,
    /// Interesting wire values per input, in `p.inputs` order.
    values: Vec<Vec<Json>>,
    /// Every call tried, refused or not, in a fixed order.
    raw: Vec<Json>,
    pool: Vec<Case>,
    chosen: Vec<Vector>,
    seen: HashSet<String>,
    pairs: Vec<Pair>,
}

/// splitmix64: a small, fixed PRNG, so the same rule always gives the same suite.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const POOL: usize = 3000;

impl<'p> Search<'p> {
    pub fn new(p: &'p Program) -> Search<'p> {
        let values: Vec<Vec<Json>> = p.inputs.iter().map(|&v| interesting(p, v)).collect();
        let raw = calls(p, &values);
        let pool = raw.iter().filter_map(|input| case(p, input)).collect();
        Search { p, values, raw, pool, chosen: Vec::new(), seen: HashSet::new(), pairs: Vec::new() }
    }

    /// The chosen vectors, and the boundary pairs among them.
    pub fn into_vectors(self) -> (Vec<Vector>, Vec<Pair>) {
        (self.chosen, self.pairs)
    }

    fn choose(&mut self, c: &Case, why: String) {
        let key = c.input.to_string();
        if self.seen.insert(key) {
            let answer = Answer::Record { inputs: c.inputs.clone(), outcome: c.outcome.clone() };
            self.chosen.push(Vector { input: c.input.clone(), why, answer });
        }
    }

    /// A valid call to start the refusal cases from.
    pub fn first_valid(&self) -> Option<Json> {
        self.pool.first().map(|c| c.input.clone())
    }

    /// A call that passes every input check but breaks this constraint.
    pub fn breaking(&self, c: &ConstraintIr) -> Option<Json> {
        let want = format!("the constraint does not hold: {}", c.text);
        self.raw.iter().find(|input| matches!(wire::read_inputs(self.p, input), Err(r) if r.what == want)).cloned()
    }

    fn fires(c: &Case, t: usize, row: usize) -> bool {
        c.outcome.trace.iter().any(|f| f.table == t && f.row == row + 1)
    }

    /// Cases that fire a row: the pool's, then the ones the suite already holds.
    fn firing(&self, t: usize, row: usize) -> Vec<Case> {
        self.pool.iter().filter(|c| Self::fires(c, t, row)).take(40).cloned().collect()
    }

    fn with_input(&self, base: &Json, input: usize, value: Json) -> Option<Case> {
        let mut m = base.as_object()?.clone();
        m.insert(self.p.vars[self.p.inputs[input]].name.clone(), value);
        case(self.p, &Json::Object(m))
    }

    // ---- row

    pub fn rows(&mut self) -> Criterion {
        let p = self.p;
        let mut c = Criterion { name: "row", satisfied: 0, total: 0, missing: Vec::new() };
        for (t, table) in p.tables.iter().enumerate() {
            for r in 0..table.rows.len() {
                c.total += 1;
                // In an `any` table a row that agrees with an earlier one is inside the call
                // without being the one the trace names.
                let inside = |x: &Case| match table.policy {
                    crate::syntax::ast::Policy::Any => eval::row_matches(table, r, &x.outcome.values),
                    _ => Self::fires(x, t, r),
                };
                let found = self.pool.iter().find(|x| inside(x)).cloned().or_else(|| self.steer_into_row(t, r));
                match found {
                    Some(x) => self.choose(&x, format!("row: table {} row {}", table.name, r + 1)),
                    None => c.missing.push((
                        format!("table {} row {}", table.name, r + 1),
                        "no call the search tried fires this row; add an expect that does".into(),
                    )),
                }
            }
        }
        c
    }

    /// Set the inputs a row's cells read to values its cells accept, starting from each pool case.
    fn steer_into_row(&self, t: usize, r: usize) -> Option<Case> {
        let table = &self.p.tables[t];
        for base in self.pool.iter().take(200) {
            let mut m = base.input.as_object()?.clone();
            for (ci, &col) in table.conds.iter().enumerate() {
                let Some(i) = self.p.inputs.iter().position(|&v| v == col) else { continue };
                let var = &self.p.vars[col];
                let accepted = self.values[i].iter().find(|w| {
                    wire_value(self.p, var, w).is_some_and(|v| eval::cell_holds(&table.rows[r].conds[ci], &v))
                });
                if let Some(w) = accepted {
                    m.insert(var.name.clone(), w.clone());
                }
            }
            if let Some(x) = case(self.p, &Json::Object(m)) {
                if Self::fires(&x, t, r) {
                    return Some(x);
                }
            }
        }
        None
    }

    // ---- boundary_pair

    pub fn boundary_pairs(&mut self) -> Criterion {
        let p = self.p;
        let mut c = Criterion { name: "boundary_pair", satisfied: 0, total: 0, missing: Vec::new() };
        for (t, table) in p.tables.iter().enumerate() {
            for (r, row) in table.rows.iter().enumerate() {
                for (ci, &col) in table.conds.iter().enumerate() {
                    let var = &p.vars[col];
                    if !(var.ty.is_integer_on_wire() || var.ty == Ty::Date) {
                        continue;
                    }
                    let CondIr::Tests { tests, .. } = &row.conds[ci] else { continue };
                    let mut cuts = Vec::new();
                    for test in tests {
                        match test {
                            TestIr::Bounds(bs) => {
                                for (op, v) in bs {
                                    if let Value::Num(n) = v {
                                        cuts.extend(edges(*op, &(n / var.ty.factor())));
                                    }
                                }
                            }
                            TestIr::OneOf(vs) => {
                                for v in vs {
                                    if let Value::Num(n) = v {
                                        cuts.extend(edges(crate::syntax::ast::CmpOp::Eq, &(n / var.ty.factor())));
                                    }
                                }
                            }
                            TestIr::IsNone => {}
                        }
                    }
                    for (a, b) in cuts {
                        if !inside_range(var, &a) || !inside_range(var, &b) {
                            continue;
                        }
                        c.total += 1;
                        let what = format!(
                            "table {} row {}: {} between {} and {}",
                            table.name,
                            r + 1,
                            var.name,
                            show_units(p, var, &a),
                            show_units(p, var, &b)
                        );
                        match self.pair_across(t, r, col, &a, &b) {
                            Some((x, y)) => {
                                self.choose(&x, format!("boundary pair: {what}, one side"));
                                self.choose(&y, format!("boundary pair: {what}, other side"));
                                let record = |c: &Case| (c.input.clone(), c.inputs.clone(), c.outcome.clone());
                                self.pairs.push(Pair {
                                    table: t,
                                    row: r + 1,
                                    column: col,
                                    below: a.clone(),
                                    above: b.clone(),
                                    sides: [record(&x), record(&y)],
                                });
                            }
                            None => {
                                c.missing.push((what, "no two calls one input apart were found on either side".into()))
                            }
                        }
                    }
                }
            }
        }
        c
    }

    /// Two calls one input apart, `col` at `a` in one and `b` in the other, the row firing in exactly one.
    fn pair_across(&self, t: usize, r: usize, col: VarId, a: &Rat, b: &Rat) -> Option<(Case, Case)> {
        let var = &self.p.vars[col];
        let mut bases = self.firing(t, r);
        bases.extend(self.pool.iter().take(60).cloned());
        for base in &bases {
            for (i, set) in self.movers(col, &base.outcome) {
                let (Some(wa), Some(wb)) = (set(a), set(b)) else { continue };
                let (Some(x), Some(y)) = (self.with_input(&base.input, i, wa), self.with_input(&base.input, i, wb))
                else {
                    continue;
                };
                let in_units = |c: &Case| match &c.outcome.values[col] {
                    Value::Num(n) => Some(n / var.ty.factor()),
                    _ => None,
                };
                if in_units(&x).as_ref() == Some(a)
                    && in_units(&y).as_ref() == Some(b)
                    && Self::fires(&x, t, r) != Self::fires(&y, t, r)
                {
                    return Some((x, y));
                }
            }
        }
        None
    }

    /// The inputs that move `col` one for one: the column itself when it is an input, or an
    /// input with a ±1 coefficient in its linear define. Each comes with how to set it so the
    /// column takes a value (in the column's units).
    #[allow(clippy::type_complexity)]
    fn movers(&self, col: VarId, at: &Outcome) -> Vec<(usize, Box<dyn Fn(&Rat) -> Option<Json> + '_>)> {
        let p = self.p;
        let var = &p.vars[col];
        if let Some(i) = p.inputs.iter().position(|&v| v == col) {
            return vec![(i, Box::new(move |u: &Rat| Some(wire::to_wire(p, var, &Value::Num(u * var.ty.factor())))))];
        }
        let Some(Decider::Define(d)) = var.decided_by else { return Vec::new() };
        let Some(lin) = linear_of(&p.defines[d].expr) else { return Vec::new() };
        let mut out: Vec<(usize, Box<dyn Fn(&Rat) -> Option<Json> + '_>)> = Vec::new();
        for (&v, k) in &lin.coeffs {
            let Some(i) = p.inputs.iter().position(|&x| x == v) else { continue };
            let input = &p.vars[v];
            // col = k·v + rest  ⇒  v = (target − rest) / k, all in base units.
            let Value::Num(cur_v) = &at.values[v] else { continue };
            let Value::Num(cur_col) = &at.values[col] else { continue };
            let rest = cur_col - k * cur_v;
            let k = k.clone();
            out.push((
                i,
                Box::new(move |u: &Rat| {
                    let target = u * var.ty.factor();
                    let base = (&target - &rest) / &k;
                    let units = &base / input.ty.factor();
                    units.is_integer().then(|| wire::to_wire(p, input, &Value::Num(base)))
                }),
            ));
        }
        out
    }

    // ---- shadow_pair

    pub fn shadow_pairs(&mut self) -> Criterion {
        let p = self.p;
        let mut c = Criterion { name: "shadow_pair", satisfied: 0, total: 0, missing: Vec::new() };
        for (t, table) in p.tables.iter().enumerate() {
            if !table.policy.takes_first() {
                continue;
            }
            // Earlier: before it in the order the rows take precedence.
            let order = table.precedence();
            for (place, &r) in order.iter().enumerate().skip(1) {
                if !order[..place].iter().any(|&q| self.cells_may_meet(t, q, r)) {
                    continue;
                }
                c.total += 1;
                let matches = |x: &Case| eval::row_matches(table, r, &x.outcome.values);
                let loses = self.pool.iter().find(|x| matches(x) && !Self::fires(x, t, r)).cloned();
                let wins = self.pool.iter().find(|x| Self::fires(x, t, r)).cloned();
                let what = format!("table {} row {} losing to an earlier row and winning", table.name, r + 1);
                match (loses, wins) {
                    (Some(l), Some(w)) => {
                        self.choose(&l, format!("shadow pair: table {} row {} matches and loses", table.name, r + 1));
                        self.choose(&w, format!("shadow pair: table {} row {} wins", table.name, r + 1));
                    }
                    _ => c.missing.push((
                        what,
                        "no call was found where the row matches and an earlier row wins, or where it wins".into(),
                    )),
                }
            }
        }
        c
    }

    /// Whether two rows' cells can both hold, judged on the values the suite knows per column.
    fn cells_may_meet(&self, t: usize, q: usize, r: usize) -> bool {
        let table = &self.p.tables[t];
        table.conds.iter().enumerate().all(|(ci, &col)| {
            let (a, b) = (&table.rows[q].conds[ci], &table.rows[r].conds[ci]);
            self.column_values(col).iter().any(|v| eval::cell_holds(a, v) && eval::cell_holds(b, v))
        })
    }

    fn column_values(&self, col: VarId) -> Vec<Value> {
        let mut out: Vec<Value> = self.pool.iter().map(|c| c.outcome.values[col].clone()).collect();
        out.sort();
        out.dedup();
        out
    }

    // ---- value_pair

    pub fn value_pairs(&mut self) -> Criterion {
        let p = self.p;
        let mut c = Criterion { name: "value_pair", satisfied: 0, total: 0, missing: Vec::new() };
        for d in &p.defines {
            let var = &p.vars[d.var];
            if var.kind != VarKind::Output || !reads_a_variable(&d.expr) {
                continue;
            }
            c.total += 1;
            let what = format!("output {} computed by its define", var.name);
            match self.moving_pair(d.var, None) {
                Some((x, y)) => {
                    self.choose(&x, format!("value pair: {what}"));
                    self.choose(&y, format!("value pair: {what}, moved"));
                }
                None => c.missing.push((what, "no two calls one input apart give different values".into())),
            }
        }
        for (t, table) in p.tables.iter().enumerate() {
            for (r, row) in table.rows.iter().enumerate() {
                for (k, res) in row.results.iter().enumerate() {
                    let Some(e) = res else { continue };
                    if !reads_a_variable(e) || pinned_by_row(table, r, e) {
                        continue;
                    }
                    c.total += 1;
                    let what = format!("table {} row {}: {}", table.name, r + 1, p.vars[table.results[k]].name);
                    match self.moving_pair(table.results[k], Some((t, r))) {
                        Some((x, y)) => {
                            self.choose(&x, format!("value pair: {what}"));
                            self.choose(&y, format!("value pair: {what}, moved"));
                        }
                        None => c
                            .missing
                            .push((what, "no two calls one input apart on this row give different values".into())),
                    }
                }
            }
        }
        c
    }

    /// Two calls one input apart (both on `row`, when given) where `var` differs.
    fn moving_pair(&self, var: VarId, row: Option<(usize, usize)>) -> Option<(Case, Case)> {
        let on_row = |x: &Case| row.is_none_or(|(t, r)| Self::fires(x, t, r));
        let bases: Vec<Case> = match row {
            Some((t, r)) => self.firing(t, r),
            None => self.pool.iter().take(40).cloned().collect(),
        };
        for base in &bases {
            for i in 0..self.p.inputs.len() {
                for w in self.values[i].iter().chain(self.nudges(base, i).iter()) {
                    let Some(y) = self.with_input(&base.input, i, w.clone()) else { continue };
                    if on_row(&y) && y.outcome.values[var] != base.outcome.values[var] {
                        return Some((base.clone(), y));
                    }
                }
            }
        }
        None
    }

    /// The values one step either side of an input's value in a call.
    fn nudges(&self, base: &Case, i: usize) -> Vec<Json> {
        let v = self.p.inputs[i];
        let var = &self.p.vars[v];
        let Value::Num(n) = &base.inputs[i] else { return Vec::new() };
        [-1, 1]
            .iter()
            .map(|d| Value::Num(n + num::int(*d) * var.ty.factor()))
            .map(|x| wire::to_wire(self.p, var, &x))
            .collect()
    }

    // ---- rounding_tie

    pub fn rounding_ties(&mut self) -> Criterion {
        let p = self.p;
        let mut c = Criterion { name: "rounding_tie", satisfied: 0, total: 0, missing: Vec::new() };
        for &o in &p.outputs {
            let var = &p.vars[o];
            let Some(rounding) = &var.rounding else { continue };
            if !tie_possible(p, o, &rounding.grid) {
                continue;
            }
            c.total += 1;
            let what = format!("output {} exactly half a step off its grid", var.name);
            let is_tie = |x: &Case| unrounded(p, o, &x.outcome).is_some_and(|v| is_half(&(v / &rounding.grid)));
            let found = self.pool.iter().find(|x| is_tie(x)).cloned().or_else(|| self.sweep_for(&is_tie));
            match found {
                Some(x) => self.choose(&x, format!("rounding tie: {what}")),
                None => {
                    c.missing.push((what, "no call the search tried lands on a tie; add an expect that does".into()))
                }
            }
        }
        c
    }

    /// Walk each numeric input over a window from a few starting calls.
    fn sweep_for(&self, want: &dyn Fn(&Case) -> bool) -> Option<Case> {
        for base in self.pool.iter().step_by((self.pool.len() / 8).max(1)).take(8) {
            for (i, &v) in self.p.inputs.iter().enumerate() {
                let var = &self.p.vars[v];
                if !var.ty.is_integer_on_wire() {
                    continue;
                }
                let Some((Value::Num(lo), Value::Num(hi))) = var.range.clone() else { continue };
                let f = var.ty.factor();
                let (lo, hi) = (lo / &f, hi / &f);
                let mut u = lo.clone();
                for _ in 0..400 {
                    if u > hi {
                        break;
                    }
                    let w = wire::to_wire(self.p, var, &Value::Num(&u * &f));
                    if let Some(x) = self.with_input(&base.input, i, w) {
                        if want(&x) {
                            return Some(x);
                        }
                    }
                    u += num::int(1);
                }
            }
        }
        None
    }
}

fn case(p: &Program, input: &Json) -> Option<Case> {
    match run(p, input) {
        Answer::Record { inputs, outcome } => Some(Case { input: input.clone(), inputs, outcome }),
        _ => None,
    }
}

/// A wire value read as the evaluator holds it (None when the door would refuse it).
pub(crate) fn wire_value(p: &Program, var: &Var, w: &Json) -> Option<Value> {
    if w.is_null() {
        return Some(Value::None);
    }
    let mut m = Map::new();
    m.insert(var.name.clone(), w.clone());
    // Read through a one-input view of the door: kinds and ranges as the real door reads them.
    match &var.ty {
        Ty::Bool => w.as_bool().map(Value::Bool),
        Ty::Str => w.as_str().map(|s| Value::Str(s.into())),
        Ty::Enum(e) => w.as_str().and_then(|s| p.enums[*e].position(s)).map(Value::Enum),
        Ty::Date => w.as_str().and_then(crate::num::date::parse).map(|d| Value::Num(num::int(d))),
        ty => match w {
            Json::Number(n) => wire::json_number(n).map(|r| Value::Num(r * ty.factor())),
            _ => None,
        },
    }
}

fn inside_range(var: &Var, units: &Rat) -> bool {
    match &var.range {
        Some((Value::Num(lo), Value::Num(hi))) => {
            let v = units * var.ty.factor();
            lo <= &v && &v <= hi
        }
        _ => true,
    }
}

fn show_units(p: &Program, var: &Var, units: &Rat) -> String {
    wire::display(p, &var.ty, &Value::Num(units * var.ty.factor()))
}

/// Each input's interesting values on the wire: the ends of its range, both sides of every
/// boundary a cell draws on it, the middle; every value of an enum; none for an optional.
pub(crate) fn interesting(p: &Program, v: VarId) -> Vec<Json> {
    let var = &p.vars[v];
    let mut out: Vec<Json> = Vec::new();
    match &var.ty {
        Ty::Bool => out.extend([json!(false), json!(true)]),
        Ty::Enum(e) => {
            let all = 0..p.enums[*e].values.len() as u32;
            for i in all {
                let in_range = match &var.range {
                    Some((Value::Enum(lo), Value::Enum(hi))) => *lo <= i && i <= *hi,
                    _ => true,
                };
                if in_range {
                    out.push(json!(p.enums[*e].values[i as usize].name));
                }
            }
        }
        Ty::Str => {
            for t in &p.tables {
                for (ci, &col) in t.conds.iter().enumerate() {
                    if col != v {
                        continue;
                    }
                    for row in &t.rows {
                        if let CondIr::Tests { tests, .. } = &row.conds[ci] {
                            for test in tests {
                                if let TestIr::OneOf(vs) = test {
                                    for x in vs {
                                        if let Value::Str(s) = x {
                                            out.push(json!(s));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            out.extend([json!(""), json!("other")]);
        }
        ty => {
            let f = ty.factor();
            // Only a date may leave its range out: its values are then the cells' edges, and
            // 1970-01-01 (day 0) when no cell draws one.
            let range = match &var.range {
                Some((Value::Num(lo), Value::Num(hi))) => Some((lo / &f, hi / &f)),
                _ => None,
            };
            let mut units: Vec<Rat> = match &range {
                Some((lo, hi)) => {
                    vec![lo.clone(), hi.clone(), lo + num::int(1), hi - num::int(1), ((lo + hi) / num::int(2)).floor()]
                }
                None => vec![num::int(0)],
            };
            for t in &p.tables {
                for (ci, &col) in t.conds.iter().enumerate() {
                    if col != v {
                        continue;
                    }
                    for row in &t.rows {
                        if let CondIr::Tests { tests, .. } = &row.conds[ci] {
                            for test in tests {
                                let bounds: Vec<(crate::syntax::ast::CmpOp, Value)> = match test {
                                    TestIr::Bounds(bs) => bs.clone(),
                                    TestIr::OneOf(vs) => {
                                        vs.iter().map(|x| (crate::syntax::ast::CmpOp::Eq, x.clone())).collect()
                                    }
                                    TestIr::IsNone => Vec::new(),
                                };
                                for (op, x) in bounds {
                                    if let Value::Num(n) = x {
                                        for (a, b) in edges(op, &(n / &f)) {
                                            units.extend([a, b]);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            units.retain(|u| u.is_integer() && range.as_ref().is_none_or(|(lo, hi)| lo <= u && u <= hi));
            units.sort();
            units.dedup();
            out.extend(units.into_iter().map(|u| wire::to_wire(p, var, &Value::Num(u * &f))));
        }
    }
    if var.optional {
        out.push(Json::Null);
    }
    out
}

/// The calls of the pool: every combination when there are few, else a fixed sample that
/// still takes every interesting value of every input at least once.
fn calls(p: &Program, values: &[Vec<Json>]) -> Vec<Json> {
    let names: Vec<&str> = p.inputs.iter().map(|&v| p.vars[v].name.as_str()).collect();
    let make = |pick: &[usize]| -> Json {
        let mut m = Map::new();
        for (i, &k) in pick.iter().enumerate() {
            m.insert(names[i].to_string(), values[i][k].clone());
        }
        Json::Object(m)
    };
    let total = values.iter().try_fold(1usize, |acc, v| acc.checked_mul(v.len().max(1)));
    let mut out = Vec::new();
    if values.iter().any(|v| v.is_empty()) {
        return out;
    }
    match total {
        Some(n) if n <= POOL => {
            let mut pick = vec![0; values.len()];
            for _ in 0..n {
                out.push(make(&pick));
                for i in (0..pick.len()).rev() {
                    pick[i] += 1;
                    if pick[i] < values[i].len() {
                        break;
                    }
                    pick[i] = 0;
                }
            }
        }
        _ => {
            let seed =
                p.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
            let mut rng = Rng(seed);
            let longest = values.iter().map(Vec::len).max().unwrap_or(1);
            for k in 0..POOL {
                let pick: Vec<usize> =
                    values.iter().map(|v| if k < longest { k % v.len() } else { rng.below(v.len()) }).collect();
                out.push(make(&pick));
            }
        }
    }
    out
}

fn reads_a_variable(e: &TExpr) -> bool {
    let mut vs = Vec::new();
    crate::sema::collect_vars(e, &mut vs);
    !vs.is_empty()
}

/// Whether a row's own cells fix every variable its result reads to one value.
fn pinned_by_row(t: &TableIr, r: usize, e: &TExpr) -> bool {
    let mut vs = Vec::new();
    crate::sema::collect_vars(e, &mut vs);
    vs.iter().all(|v| {
        t.conds.iter().position(|c| c == v).is_some_and(|ci| match &t.rows[r].conds[ci] {
            CondIr::Tests { negated: false, tests } => {
                tests.len() == 1 && matches!(&tests[0], TestIr::OneOf(xs) if xs.len() == 1)
            }
            _ => false,
        })
    })
}

/// The value an output had before its rounding, in the call `o` answered.
fn unrounded(p: &Program, var: VarId, o: &Outcome) -> Option<Rat> {
    let x = match p.vars[var].decided_by? {
        Decider::Define(d) => eval::eval_expr(&p.defines[d].expr, &o.values).ok()?,
        Decider::Summary(_) | Decider::Fold(_) => return None,
        Decider::Table(t) => {
            let row = o.trace.iter().find(|f| f.table == t)?.row - 1;
            let k = p.tables[t].results.iter().position(|&r| r == var)?;
            eval::eval_expr(p.tables[t].rows[row].results[k].as_ref()?, &o.values).ok()?
        }
    };
    match x {
        Value::Num(n) => Some(n),
        _ => None,
    }
}

fn is_half(x: &Rat) -> bool {
    (x - x.floor()) == Rat::new(1.into(), 2.into())
}

/// Whether the expression's grid allows a value half a step off the output's grid.
fn tie_possible(p: &Program, var: VarId, grid: &Rat) -> bool {
    let g = match p.vars[var].decided_by {
        Some(Decider::Define(d)) => p.defines[d].expr.grid.clone(),
        Some(Decider::Table(t)) => {
            let k = p.tables[t].results.iter().position(|&r| r == var).unwrap_or(0);
            p.tables[t].rows.iter().filter_map(|row| row.results[k].as_ref()).fold(Grid::Zero, |g, e| g.join(&e.grid))
        }
        Some(Decider::Summary(_) | Decider::Fold(_)) | None => return false,
    };
    match g {
        Grid::Zero => false,
        Grid::Unknown => true,
        // Values are multiples of s; a tie needs one ≡ grid/2 (mod grid).
        Grid::Step(s) => {
            let half = grid / num::int(2);
            let gcd_like = |a: &Rat, b: &Rat| -> Rat {
                use num_integer::Integer;
                let n = (a.numer() * b.denom()).gcd(&(b.numer() * a.denom()));
                Rat::new(n, a.denom() * b.denom())
            };
            (&half / gcd_like(&s, grid)).is_integer()
        }
    }
}
