//! Exact linear reasoning over the rationals: Fourier–Motzkin elimination that proves a
//! system of inequalities has no solution and hands back the Farkas multipliers that say
//! why (a certificate any program can re-check by adding the facts up), and that projects
//! a system onto one expression to bound it.
//!
//! A fact is `Σ aᵢ·xᵢ + c ≤ 0` (or `< 0`). A refutation is a set of non-negative
//! multipliers yⱼ such that Σ yⱼ·factⱼ has every coefficient zero and a constant that is
//! positive (or zero with some strict fact taken with yⱼ > 0): `0 < 0` or `c ≤ 0` with `c > 0`.

use crate::num::Rat;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// A linear expression `Σ coeffs[v]·v + konst` over variables numbered by the caller.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Lin {
    pub coeffs: BTreeMap<usize, Rat>,
    pub konst: Rat,
}

impl Lin {
    pub fn constant(c: Rat) -> Lin {
        Lin { coeffs: BTreeMap::new(), konst: c }
    }
    pub fn var(v: usize) -> Lin {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(v, Rat::one());
        Lin { coeffs, konst: Rat::zero() }
    }
    pub fn scale(&self, k: &Rat) -> Lin {
        if k.is_zero() {
            return Lin::default();
        }
        Lin { coeffs: self.coeffs.iter().map(|(v, a)| (*v, a * k)).collect(), konst: &self.konst * k }
    }
    pub fn add(&self, other: &Lin) -> Lin {
        let mut coeffs = self.coeffs.clone();
        for (v, a) in &other.coeffs {
            let e = coeffs.entry(*v).or_insert_with(Rat::zero);
            *e += a;
            if e.is_zero() {
                coeffs.remove(v);
            }
        }
        Lin { coeffs, konst: &self.konst + &other.konst }
    }
    pub fn sub(&self, other: &Lin) -> Lin {
        self.add(&other.scale(&-Rat::one()))
    }
    pub fn is_constant(&self) -> bool {
        self.coeffs.is_empty()
    }
}

/// `lin ≤ 0`, or `lin < 0` when strict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub lin: Lin,
    pub strict: bool,
}

impl Fact {
    /// `a ≤ b` (or `a < b`).
    pub fn le(a: &Lin, b: &Lin, strict: bool) -> Fact {
        Fact { lin: a.sub(b), strict }
    }
}

/// Multipliers over the input facts: (index of the fact, yⱼ > 0).
pub type Farkas = Vec<(usize, Rat)>;

#[derive(Clone, Debug)]
struct Derived {
    fact: Fact,
    /// How this fact is the sum of input facts.
    from: BTreeMap<usize, Rat>,
}

/// What elimination found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No rational point satisfies every fact; the multipliers prove it.
    Infeasible(Farkas),
    /// Some rational point satisfies every fact.
    Feasible,
    /// The work allowance ran out first.
    Unknown,
}

/// Decide whether the facts have a common rational solution. `budget` is decremented by
/// every fact elimination creates.
pub fn refute(facts: &[Fact], budget: &mut u64) -> Outcome {
    // The system is kept deduplicated, keyed by its left sides, from one elimination to the
    // next: an elimination touches only the facts that hold its variable and the ones it
    // creates, not the whole system (a chain of a thousand defines is a thousand of them).
    let mut system = Facts::new();
    for (i, f) in facts.iter().enumerate() {
        let d = Derived { fact: f.clone(), from: BTreeMap::from([(i, Rat::one())]) };
        if let Some(refuted) = system.add(d) {
            return refuted;
        }
    }
    loop {
        let Some(v) = pick_variable(system.iter()) else { return Outcome::Feasible };
        let (pos, neg) = system.take_holding(v);
        let cost = (pos.len() * neg.len()) as u64;
        if cost > *budget || !super::work::take(cost * weight(&pos, &neg)) {
            return Outcome::Unknown;
        }
        *budget -= cost;
        for p in &pos {
            let ap = p.fact.lin.coeffs[&v].clone();
            for n in &neg {
                let an = -n.fact.lin.coeffs[&v].clone();
                // an·p + ap·n eliminates v; both multipliers are positive.
                if let Some(refuted) = system.add(combine(p, &an, n, &ap)) {
                    return refuted;
                }
            }
        }
    }
}

/// What one combination of an elimination costs the rule's allowance (`work`): a step for
/// each term it writes, of the widest fact combined and its provenance, so that a system of
/// forty variables is not forty times cheaper than it is.
fn weight(pos: &[Derived], neg: &[Derived]) -> u64 {
    let widest = pos.iter().chain(neg).map(|d| d.fact.lin.coeffs.len() + d.from.len()).max().unwrap_or(0);
    1 + widest as u64
}

/// Facts without duplicates: of two with the same left side only the tightest is kept, in
/// the order of their left sides.
struct Facts {
    by_left: BTreeMap<Vec<(usize, Rat)>, Derived>,
}

impl Facts {
    fn new() -> Facts {
        Facts { by_left: BTreeMap::new() }
    }

    /// Add a fact: a constant one is a contradiction (the refutation) or always true (dropped).
    fn add(&mut self, d: Derived) -> Option<Outcome> {
        if d.fact.lin.is_constant() {
            let c = &d.fact.lin.konst;
            if c.is_positive() || (c.is_zero() && d.fact.strict) {
                return Some(Outcome::Infeasible(d.from.into_iter().filter(|(_, y)| !y.is_zero()).collect()));
            }
            return None;
        }
        let key: Vec<(usize, Rat)> = d.fact.lin.coeffs.iter().map(|(v, a)| (*v, a.clone())).collect();
        match self.by_left.get(&key) {
            Some(old) if tighter_or_equal(&old.fact, &d.fact) => {}
            _ => {
                self.by_left.insert(key, d);
            }
        }
        None
    }

    fn iter(&self) -> impl Iterator<Item = &Derived> {
        self.by_left.values()
    }

    /// Take out the facts that hold `v`: those with a positive coefficient, then the others.
    fn take_holding(&mut self, v: usize) -> (Vec<Derived>, Vec<Derived>) {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        let keys: Vec<Vec<(usize, Rat)>> =
            self.by_left.iter().filter(|(_, d)| d.fact.lin.coeffs.contains_key(&v)).map(|(k, _)| k.clone()).collect();
        for k in keys {
            let d = self.by_left.remove(&k).expect("a key just found");
            if d.fact.lin.coeffs[&v].is_positive() {
                pos.push(d);
            } else {
                neg.push(d);
            }
        }
        (pos, neg)
    }

    fn into_facts(self) -> Vec<Fact> {
        self.by_left.into_values().map(|d| d.fact).collect()
    }
}

fn combine(a: &Derived, ka: &Rat, b: &Derived, kb: &Rat) -> Derived {
    let lin = a.fact.lin.scale(ka).add(&b.fact.lin.scale(kb));
    let mut from = BTreeMap::new();
    for (i, y) in &a.from {
        *from.entry(*i).or_insert_with(Rat::zero) += y * ka;
    }
    for (i, y) in &b.from {
        *from.entry(*i).or_insert_with(Rat::zero) += y * kb;
    }
    // Keep numbers small: scale so the largest coefficient is 1 in absolute value.
    let norm = lin.coeffs.values().map(|a| a.abs()).max().unwrap_or_else(Rat::one);
    let k = Rat::one() / norm;
    Derived {
        fact: Fact { lin: lin.scale(&k), strict: a.fact.strict || b.fact.strict },
        from: from.into_iter().map(|(i, y)| (i, y * &k)).collect(),
    }
}

/// `a` implies `b` (same left side): a's constant is at least b's, strictness considered.
fn tighter_or_equal(a: &Fact, b: &Fact) -> bool {
    match a.lin.konst.cmp(&b.lin.konst) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => a.strict || !b.strict,
        std::cmp::Ordering::Less => false,
    }
}

/// The variable whose elimination creates the fewest new facts.
fn pick_variable<'d>(system: impl Iterator<Item = &'d Derived>) -> Option<usize> {
    let mut counts: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for d in system {
        for (v, a) in &d.fact.lin.coeffs {
            let e = counts.entry(*v).or_default();
            if a.is_positive() {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
    }
    counts.into_iter().min_by_key(|(v, (p, n))| ((p * n) as i64 - (p + n) as i64, *v)).map(|(v, _)| v)
}

/// Check a refutation: Σ y·fact has no variable left and a constant that contradicts.
pub fn verify(facts: &[Fact], farkas: &Farkas) -> bool {
    let mut sum = Lin::default();
    let mut strict = false;
    for (i, y) in farkas {
        if !y.is_positive() || *i >= facts.len() {
            return false;
        }
        sum = sum.add(&facts[*i].lin.scale(y));
        strict |= facts[*i].strict;
    }
    sum.is_constant() && (sum.konst.is_positive() || (sum.konst.is_zero() && strict))
}

/// Bounds of `objective` over the rational points satisfying `facts`: (lowest, highest),
/// `None` where it is unbounded (or the allowance ran out). The facts must be satisfiable.
pub fn bounds(facts: &[Fact], objective: &Lin, budget: &mut u64) -> (Option<Rat>, Option<Rat>) {
    let lo = extreme(facts, objective, false, budget).unwrap_or(None);
    let hi = extreme(facts, objective, true, budget).unwrap_or(None);
    (lo, hi)
}

/// [`bounds`], or `Err` when the allowance ran out before either bound was found.
pub fn try_bounds(facts: &[Fact], objective: &Lin, budget: &mut u64) -> Result<(Option<Rat>, Option<Rat>), Short> {
    Ok((extreme(facts, objective, false, budget)?, extreme(facts, objective, true, budget)?))
}

/// The work allowance ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short;

/// The supremum (`upper`) or infimum of the objective, found by bisection-free projection:
/// eliminate every variable from facts ∪ {t = objective} but t.
fn extreme(facts: &[Fact], objective: &Lin, upper: bool, budget: &mut u64) -> Result<Option<Rat>, Short> {
    let t = facts.iter().flat_map(|f| f.lin.coeffs.keys()).chain(objective.coeffs.keys()).max().map_or(0, |m| m + 1);
    let tl = Lin::var(t);
    let mut system: Vec<Fact> = facts.to_vec();
    system.push(Fact::le(&tl, objective, false));
    system.push(Fact::le(objective, &tl, false));
    let projected = project(system, t, budget).ok_or(Short)?;
    let mut best: Option<Rat> = None;
    for f in projected {
        // a·t + c ≤ 0
        let Some(a) = f.lin.coeffs.get(&t) else { continue };
        let bound = -&f.lin.konst / a;
        let relevant = if upper { a.is_positive() } else { a.is_negative() };
        if relevant {
            best = Some(match best {
                None => bound,
                Some(b) if upper => b.min(bound),
                Some(b) => b.max(bound),
            });
        }
    }
    Ok(best)
}

/// Eliminate every variable but `keep`.
fn project(system: Vec<Fact>, keep: usize, budget: &mut u64) -> Option<Vec<Fact>> {
    let derived = |fact: Fact| Derived { fact, from: BTreeMap::new() };
    let mut first = Some(system);
    let mut facts = Facts::new();
    loop {
        // The variable whose elimination creates the fewest new facts (the lowest on a tie).
        let mut counts: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        let current: Box<dyn Iterator<Item = &Fact>> = match &first {
            Some(raw) => Box::new(raw.iter()),
            None => Box::new(facts.iter().map(|d| &d.fact)),
        };
        for f in current {
            for (v, a) in f.lin.coeffs.iter().filter(|(v, _)| **v != keep) {
                let e = counts.entry(*v).or_default();
                if a.is_positive() {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
        }
        let Some(v) =
            counts.into_iter().min_by_key(|(v, (p, n))| ((p * n) as i64 - (p + n) as i64, *v)).map(|(v, _)| v)
        else {
            return Some(first.unwrap_or_else(|| facts.into_facts()));
        };
        let (pos, neg) = match first.take() {
            // The system as given is deduplicated after its first elimination, as the facts
            // it creates are.
            Some(raw) => {
                let (mut pos, mut neg) = (Vec::new(), Vec::new());
                for f in raw {
                    match f.lin.coeffs.get(&v).map(|a| a.is_positive()) {
                        Some(true) => pos.push(derived(f)),
                        Some(false) => neg.push(derived(f)),
                        None => {
                            facts.add(derived(f));
                        }
                    }
                }
                (pos, neg)
            }
            None => facts.take_holding(v),
        };
        let cost = (pos.len() * neg.len()) as u64;
        if cost > *budget || !super::work::take(cost * weight(&pos, &neg)) {
            return None;
        }
        *budget -= cost;
        for p in &pos {
            for n in &neg {
                let (ap, an) = (p.fact.lin.coeffs[&v].clone(), -n.fact.lin.coeffs[&v].clone());
                let lin = p.fact.lin.scale(&an).add(&n.fact.lin.scale(&ap));
                // A constant fact says nothing about the objective: dropped (the system is
                // satisfiable, so none contradicts).
                facts.add(derived(Fact { lin, strict: p.fact.strict || n.fact.strict }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::int;

    fn lin(terms: &[(usize, i64)], k: i64) -> Lin {
        let mut l = Lin::constant(int(k));
        for (v, a) in terms {
            l = l.add(&Lin::var(*v).scale(&int(*a)));
        }
        l
    }

    #[test]
    fn refutes_derived_overlap() {
        // rest = total - disc, disc >= 0, rest > 1000, total <= 1000: no solution.
        // vars: 0 rest, 1 total, 2 disc
        let facts = vec![
            Fact::le(&lin(&[(0, 1)], 0), &lin(&[(1, 1), (2, -1)], 0), false),
            Fact::le(&lin(&[(1, 1), (2, -1)], 0), &lin(&[(0, 1)], 0), false),
            Fact::le(&lin(&[], 0), &lin(&[(2, 1)], 0), false),
            Fact::le(&lin(&[], 1000), &lin(&[(0, 1)], 0), true),
            Fact::le(&lin(&[(1, 1)], 0), &lin(&[], 1000), false),
        ];
        let mut budget = 1000;
        match refute(&facts, &mut budget) {
            Outcome::Infeasible(y) => assert!(verify(&facts, &y), "{y:?}"),
            other => panic!("expected a refutation, got {other:?}"),
        }
    }

    #[test]
    fn feasible_system_is_not_refuted() {
        let facts =
            vec![Fact::le(&lin(&[(0, 1)], 0), &lin(&[], 10), false), Fact::le(&lin(&[], 0), &lin(&[(0, 1)], 0), false)];
        assert_eq!(refute(&facts, &mut 100), Outcome::Feasible);
    }

    #[test]
    fn strictness_matters() {
        // x <= 5 and x >= 5 is feasible; x < 5 and x >= 5 is not.
        let le5 = Fact::le(&lin(&[(0, 1)], 0), &lin(&[], 5), false);
        let ge5 = Fact::le(&lin(&[], 5), &lin(&[(0, 1)], 0), false);
        assert_eq!(refute(&[le5.clone(), ge5.clone()], &mut 100), Outcome::Feasible);
        let lt5 = Fact { strict: true, ..le5 };
        assert!(matches!(refute(&[lt5, ge5], &mut 100), Outcome::Infeasible(_)));
    }

    #[test]
    fn bounds_use_relations() {
        // d = p - q, p in [0, 700], q in [0, 400], p >= q - 60  =>  d in [-60, 700]
        let (d, p, q) = (0, 1, 2);
        let facts = vec![
            Fact::le(&lin(&[(d, 1)], 0), &lin(&[(p, 1), (q, -1)], 0), false),
            Fact::le(&lin(&[(p, 1), (q, -1)], 0), &lin(&[(d, 1)], 0), false),
            Fact::le(&lin(&[], 0), &lin(&[(p, 1)], 0), false),
            Fact::le(&lin(&[(p, 1)], 0), &lin(&[], 700), false),
            Fact::le(&lin(&[], 0), &lin(&[(q, 1)], 0), false),
            Fact::le(&lin(&[(q, 1)], 0), &lin(&[], 400), false),
            Fact::le(&lin(&[(q, 1)], -60), &lin(&[(p, 1)], 0), false),
        ];
        let (lo, hi) = bounds(&facts, &lin(&[(d, 1)], 0), &mut 10_000);
        assert_eq!(lo, Some(int(-60)));
        assert_eq!(hi, Some(int(700)));
    }

    #[test]
    fn budget_stops_elimination() {
        let facts: Vec<Fact> = (0..6)
            .flat_map(|i| {
                [
                    Fact::le(&lin(&[(i, 1), ((i + 1) % 6, 1)], 0), &lin(&[], 10), false),
                    Fact::le(&lin(&[], -10), &lin(&[(i, 1), ((i + 2) % 6, -1)], 0), false),
                ]
            })
            .collect();
        assert_eq!(refute(&facts, &mut 1), Outcome::Unknown);
    }
}
