//! What `rulec verify` asks beyond the boundary suite, and how much of the declared domain
//! that is. The suite is built to cross every cut the rule draws; a legacy implementation
//! has cuts of its own, so verify also asks the ends of every input's declared range, one
//! interior point of every row, `--sample N` points drawn from the domain, or, with
//! `--exhaustive`, every point of a domain of at most [`EXHAUSTIVE_LIMIT`] points.
//!
//! The domain is the box of the inputs' declarations: every whole value of a counted input's
//! range (in its declared unit), every day of a date range, every value of a bool or of an
//! enum's range, and none for an optional. A string input, or one without a range, makes it
//! unbounded. Points the door refuses (a constraint does not hold) are in the box but are
//! not inputs: they are never asked.

use crate::eval::wire;
use crate::num::Rat;
use crate::sema::*;
use crate::vectors::{self, Rng};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};
use serde_json::{json, Value as Json};

/// `--exhaustive` walks a domain of at most this many points.
pub const EXHAUSTIVE_LIMIT: u64 = 1_000_000;

/// The seed of `--sample` when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;

/// One input's values in the domain: its discrete values (a bool's, an enum's, none), then
/// the whole units `lo..=hi` of a counted input or the days of a date.
struct Axis {
    discrete: Vec<Value>,
    span: Option<(BigInt, BigInt)>,
    factor: Rat,
    /// A string, or a number without a range: not enumerable, sampled from the suite's values.
    open: bool,
}

impl Axis {
    fn count(&self) -> BigUint {
        let span =
            self.span.as_ref().map_or(BigUint::zero(), |(lo, hi)| (hi - lo + 1u32).to_biguint().unwrap_or_default());
        span + self.discrete.len()
    }

    /// The value at `i` (below `count()`).
    fn at(&self, i: &BigUint) -> Value {
        match i.to_usize() {
            Some(k) if k < self.discrete.len() => self.discrete[k].clone(),
            _ => {
                let (lo, _) = self.span.as_ref().expect("an index past the discrete values is in the span");
                let units = lo + BigInt::from(i - self.discrete.len());
                Value::Num(Rat::from_integer(units) * &self.factor)
            }
        }
    }
}

/// The inputs' axes, in `p.inputs` order, or the first input that makes the domain unbounded.
pub struct Domain {
    axes: Vec<Axis>,
    unbounded: Option<String>,
}

impl Domain {
    pub fn of(p: &Program) -> Domain {
        let mut axes = Vec::new();
        let mut unbounded = None;
        for &v in &p.inputs {
            let var = &p.vars[v];
            let mut discrete = Vec::new();
            let mut span = None;
            let mut open = false;
            match (&var.ty, &var.range) {
                (Ty::Bool, _) => discrete.extend([Value::Bool(false), Value::Bool(true)]),
                (Ty::Enum(e), range) => {
                    let (lo, hi) = match range {
                        Some((Value::Enum(lo), Value::Enum(hi))) => (*lo, *hi),
                        _ => (0, p.enums[*e].values.len() as u32 - 1),
                    };
                    discrete.extend((lo..=hi).map(Value::Enum));
                }
                (ty, Some((Value::Num(lo), Value::Num(hi)))) if ty.is_integer_on_wire() || *ty == Ty::Date => {
                    let f = ty.factor();
                    span = Some(((lo / &f).ceil().to_integer(), (hi / &f).floor().to_integer()));
                }
                (Ty::Str, _) => {
                    open = true;
                    unbounded.get_or_insert_with(|| format!("input `{}` is a string", var.name));
                }
                _ => {
                    open = true;
                    unbounded.get_or_insert_with(|| format!("input `{}` declares no range", var.name));
                }
            }
            if var.optional {
                discrete.insert(0, Value::None);
            }
            axes.push(Axis { discrete, span, factor: var.ty.factor(), open });
        }
        Domain { axes, unbounded }
    }

    /// Why the domain is unbounded, when it is.
    pub fn unbounded(&self) -> Option<&str> {
        self.unbounded.as_deref()
    }

    /// How many points the box holds; `None` when it is unbounded.
    pub fn size(&self) -> Option<BigUint> {
        if self.unbounded.is_some() {
            return None;
        }
        Some(self.axes.iter().fold(BigUint::one(), |n, a| n * a.count()))
    }

    /// The point at `index` of the walk: the last input moves fastest.
    fn point(&self, mut index: BigUint) -> Vec<Value> {
        let mut values = vec![Value::None; self.axes.len()];
        for (k, a) in self.axes.iter().enumerate().rev() {
            let n = a.count();
            values[k] = a.at(&(&index % &n));
            index /= n;
        }
        values
    }

    /// `--exhaustive`: every point, in the walk's order, or why it cannot be walked.
    pub fn walk(&self) -> Result<impl Iterator<Item = Vec<Value>> + '_, String> {
        let Some(size) = self.size() else {
            let why = self.unbounded.as_deref().unwrap_or("an input takes any value");
            return Err(format!(
                "--exhaustive walks a finite domain, and this one is unbounded ({why}); use --sample N"
            ));
        };
        let Some(n) = size.to_u64().filter(|&n| n <= EXHAUSTIVE_LIMIT) else {
            return Err(format!(
                "--exhaustive walks at most {EXHAUSTIVE_LIMIT} points, and the declared domain holds {size}; \
                 narrow the inputs' ranges or use --sample N"
            ));
        };
        Ok((0..n).map(|i| self.point(BigUint::from(i))))
    }

    /// `--sample`: one point drawn from the domain. Even draws are uniform over the box; odd
    /// ones put one input on a value the suite finds interesting (a cut's side, a range's
    /// end) and draw the others uniformly, so every cut is sampled along.
    fn draw(&self, rng: &mut Rng, along: &[Vec<Value>], k: usize) -> Vec<Value> {
        let mut values: Vec<Value> = self
            .axes
            .iter()
            .zip(along)
            .map(|(a, near)| match a.count() {
                n if !a.open && !n.is_zero() => a.at(&below(rng, &n)),
                // Not enumerable (or a range no whole unit fits in): the suite's values.
                _ => near.get(below_usize(rng, near.len())).cloned().unwrap_or(Value::None),
            })
            .collect();
        let cut: Vec<usize> = (0..along.len()).filter(|&i| !along[i].is_empty()).collect();
        if k % 2 == 1 && !cut.is_empty() {
            let i = cut[below_usize(rng, cut.len())];
            values[i] = along[i][below_usize(rng, along[i].len())].clone();
        }
        values
    }
}

/// A uniform draw below `n` (> 0): rejection over as many random bits as `n` has.
fn below(rng: &mut Rng, n: &BigUint) -> BigUint {
    let bits = n.bits();
    loop {
        let mut x = BigUint::zero();
        let mut left = bits;
        while left > 0 {
            let take = left.min(64);
            let word = if take == 64 { rng.next() } else { rng.next() & ((1u64 << take) - 1) };
            x = (x << take) | BigUint::from(word);
            left -= take;
        }
        if &x < n {
            return x;
        }
    }
}

fn below_usize(rng: &mut Rng, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        below(rng, &BigUint::from(n)).to_usize().expect("below a usize")
    }
}

/// `--sample N`: draw with `seed` until `take` has taken N points (it refuses one the door
/// refuses or the run already asks), or after 20 N + 100 draws when the domain holds fewer.
pub fn sample(p: &Program, d: &Domain, n: usize, seed: u64, mut take: impl FnMut(&[Value]) -> bool) {
    let along: Vec<Vec<Value>> = p
        .inputs
        .iter()
        .map(|&v| {
            let var = &p.vars[v];
            vectors::interesting(p, v).iter().filter_map(|w| vectors::wire_value(p, var, w)).collect()
        })
        .collect();
    let mut rng = Rng(seed);
    let mut taken = 0;
    for k in 0..20 * n + 100 {
        if taken == n {
            break;
        }
        if take(&d.draw(&mut rng, &along, k)) {
            taken += 1;
        }
    }
}

/// The canonical text of a call: its inputs as read, in declaration order.
pub fn key(p: &Program, inputs: &[Value]) -> String {
    wire::inputs_json(p, inputs).to_string()
}

/// A suite call: its inputs as read, and the rows it fires (table, 1-based row).
pub type Base = (Vec<Value>, Vec<(usize, usize)>);

/// The calls verify adds to the suite by default: each input at each end of its range, then
/// one interior point of every row (the middle of what the row's cells accept on each input
/// they cut), each completed from a suite call the door takes (`bases`, with their traces).
pub fn default_points(p: &Program, d: &Domain, bases: &[Base]) -> Vec<(Vec<Value>, String)> {
    let mut out = Vec::new();
    let door = |values: &[Value]| wire::read_inputs(p, &wire::inputs_json(p, values)).is_ok();
    for (i, a) in d.axes.iter().enumerate() {
        let n = a.count();
        if n.is_zero() {
            continue;
        }
        let name = &p.vars[p.inputs[i]].name;
        // An optional's none is not an end of its range.
        let first = match a.span {
            Some(_) => a.discrete.len(),
            None => a.discrete.iter().take_while(|v| matches!(v, Value::None)).count(),
        };
        let first = BigUint::from(first);
        for (end, what) in [(first, "low"), (n - 1u32, "high")] {
            let value = a.at(&end);
            let completed = bases.iter().map(|(b, _)| {
                let mut c = b.clone();
                c[i] = value.clone();
                c
            });
            if let Some(c) = completed.into_iter().find(|c| door(c)) {
                out.push((c, format!("{name} {what} end")));
            }
        }
    }
    for (t, table) in p.tables.iter().enumerate() {
        for (r, row) in table.rows.iter().enumerate() {
            let Some((base, _)) = bases.iter().find(|(_, trace)| trace.contains(&(t, r + 1))) else { continue };
            let mut c = base.clone();
            for (ci, &col) in table.conds.iter().enumerate() {
                let Some(i) = p.inputs.iter().position(|&v| v == col) else { continue };
                let Some((lo, hi)) = &d.axes[i].span else { continue };
                let CondIr::Tests { negated: false, tests } = &row.conds[ci] else { continue };
                let [TestIr::Bounds(bounds)] = tests.as_slice() else { continue };
                let f = &d.axes[i].factor;
                let (mut lo, mut hi) = (lo.clone(), hi.clone());
                for (op, x) in bounds {
                    let Value::Num(x) = x else { continue };
                    let x = x / f;
                    use crate::syntax::ast::CmpOp::*;
                    match op {
                        Gt => lo = lo.max(x.floor().to_integer() + 1),
                        Ge => lo = lo.max(x.ceil().to_integer()),
                        Lt => hi = hi.min(x.ceil().to_integer() - 1),
                        Le => hi = hi.min(x.floor().to_integer()),
                        Eq => {
                            lo = lo.max(x.ceil().to_integer());
                            hi = hi.min(x.floor().to_integer());
                        }
                        _ => {}
                    }
                }
                if lo <= hi {
                    let mid: BigInt = (&lo + &hi) / 2;
                    c[i] = Value::Num(Rat::from_integer(mid) * f);
                }
            }
            let fires = wire::read_inputs(p, &wire::inputs_json(p, &c))
                .ok()
                .and_then(|inputs| crate::eval::evaluate(p, &inputs).ok())
                .is_some_and(|o| o.trace.iter().any(|x| x.table == t && x.row == r + 1));
            if fires {
                out.push((c, format!("interior: table {} row {}", table.name, r + 1)));
            }
        }
    }
    out
}

/// How much of the domain a run asked, for the report.
pub struct Reach {
    pub asked: usize,
    pub domain: Option<BigUint>,
    pub unbounded: Option<String>,
    pub exhaustive: bool,
    /// Points of an exhaustive walk the door refused (a constraint does not hold).
    pub refused: usize,
    /// `--sample`: how many were drawn, and the seed.
    pub sample: Option<(usize, u64)>,
}

impl Reach {
    pub fn to_json(&self) -> Json {
        json!({
            "asked": self.asked,
            "domain": self.domain.as_ref().map(|n| Json::String(n.to_string())),
            "exhaustive": self.exhaustive,
            "refused": self.refused,
            "sample": self.sample.map(|(n, seed)| json!({"count": n, "seed": seed})),
        })
    }

    pub fn text(&self) -> String {
        let of = match (&self.domain, &self.unbounded) {
            (Some(n), _) => format!("{n} points of the declared domain"),
            (None, Some(why)) => format!("an unbounded domain ({why})"),
            (None, None) => "an unbounded domain".to_string(),
        };
        if self.exhaustive {
            let refused = match self.refused {
                0 => String::new(),
                n => format!("; {n} break a constraint and are no input"),
            };
            return format!("Reach: exhaustive, asked all {} inputs of the {of}{refused}\n", self.asked);
        }
        let how = match self.sample {
            Some((n, seed)) => format!("boundary suite, range ends, row interiors and {n} sampled with seed {seed}"),
            None => "boundary suite, range ends, row interiors".to_string(),
        };
        format!("Reach: asked {} of {of} ({how}); agreement on these is not equivalence\n", self.asked)
    }
}

/// The order in which a cluster's smallest differing input is chosen: the inputs in
/// declaration order, none first, then by value.
pub fn smaller(a: &[Value], b: &[Value]) -> bool {
    fn rank(v: &Value) -> (u8, Option<&Rat>, Option<u32>, Option<&str>, bool) {
        match v {
            Value::None => (0, None, None, None, false),
            Value::Bool(b) => (1, None, None, None, *b),
            Value::Num(n) => (2, Some(n), None, None, false),
            Value::Enum(e) => (3, None, Some(*e), None, false),
            Value::Str(s) => (4, None, None, Some(s.as_str()), false),
            Value::List(_) => unreachable!("an input is never a list"),
        }
    }
    a.iter().map(rank).lt(b.iter().map(rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_below_its_bound_and_fixed_by_the_seed() {
        let wide = BigUint::from(1u32) << 70u32;
        let (mut a, mut b) = (Rng(7), Rng(7));
        for _ in 0..200 {
            let x = below(&mut a, &BigUint::from(70u32));
            assert!(x < BigUint::from(70u32));
            assert_eq!(x, below(&mut b, &BigUint::from(70u32)));
            assert!(below(&mut a, &wide) < wide);
            below(&mut b, &wide);
        }
    }
}
