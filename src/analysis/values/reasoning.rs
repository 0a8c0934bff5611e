//! The linear reasoning: which facts a question needs, bounds of a linear form, satisfiability.

use super::*;

impl<'a> Values<'a> {
    /// The facts that share a variable, transitively, with `vars`.
    pub(super) fn relevant(&self, vars: &BTreeSet<usize>, extra: &[Fact]) -> Vec<Fact> {
        let all: Vec<&Fact> = self.base.iter().chain(&self.derived).chain(extra).collect();
        let mut seen = vars.clone();
        let mut taken = vec![false; all.len()];
        loop {
            let mut grew = false;
            for (i, f) in all.iter().enumerate() {
                if !taken[i] && f.lin.coeffs.keys().any(|v| seen.contains(v)) {
                    taken[i] = true;
                    grew = true;
                    seen.extend(f.lin.coeffs.keys().copied());
                }
            }
            if !grew {
                break;
            }
        }
        all.into_iter().zip(taken).filter(|(_, t)| *t).map(|(f, _)| f.clone()).collect()
    }

    /// Exact bounds of `lin` over the facts (None when the analysis cannot say).
    pub(super) fn lin_bounds(&self, lin: &Lin, env: &Env) -> Option<(Option<Rat>, Option<Rat>)> {
        if !self.linear_on {
            return None;
        }
        let vars: BTreeSet<usize> = lin.coeffs.keys().copied().collect();
        let facts = self.relevant(&vars, &env.facts);
        if facts.is_empty() {
            return None;
        }
        let mut b = self.budget;
        match linear::refute(&facts, &mut b) {
            Outcome::Feasible => {}
            Outcome::Unknown => {
                self.short.set(true);
                return None;
            }
            Outcome::Infeasible(_) => return None,
        }
        let mut b = self.budget;
        // The objective carries its constant: these are its own bounds.
        match linear::try_bounds(&facts, lin, &mut b) {
            Ok(bs) => Some(bs),
            Err(linear::Short) => {
                self.short.set(true);
                None
            }
        }
    }

    /// Whether some rational point satisfies the facts and `extra` (true when it cannot say).
    pub(super) fn satisfiable(&self, extra: &[Fact]) -> bool {
        if !self.linear_on || extra.is_empty() {
            return true;
        }
        let vars: BTreeSet<usize> = extra.iter().flat_map(|f| f.lin.coeffs.keys().copied()).collect();
        let facts = self.relevant(&vars, extra);
        let mut b = self.budget;
        !matches!(linear::refute(&facts, &mut b), Outcome::Infeasible(_))
    }

    /// Whether `lin = 0` is consistent with the facts and with every nonzero form of the
    /// environment (each split into its two strict sides).
    pub(super) fn may_be_zero(&self, lin: &Lin, env: &Env) -> bool {
        let zero = env.with(eq_facts(lin, &Rat::zero())).facts;
        let nonzero: Vec<&Lin> = env.nonzero.iter().take(4).collect();
        (0..1u32 << nonzero.len()).any(|mask| {
            let mut fs = zero.clone();
            for (i, l) in nonzero.iter().enumerate() {
                let side = if mask & (1 << i) == 0 { l.scale(&-Rat::one()) } else { (*l).clone() };
                fs.push(Fact { lin: side, strict: true });
            }
            self.satisfiable(&fs)
        })
    }
}
