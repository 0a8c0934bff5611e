//! One case of the theory search (what its splits fix and add), and the hint it hands the
//! witness search when a box survives every split: a leaf both searches read, so neither
//! imports the other's types back.

use super::facts::FactRef;
use crate::analysis::linear::Fact;
use crate::num::Rat;
use crate::sema::VarId;

/// One case of the search: what the splits so far fix and add.
#[derive(Clone, Debug, Default)]
pub struct Case {
    /// Numeric variables holding one value.
    pub fixed: Vec<(VarId, Rat)>,
    /// Facts the splits added (a row's cells, a fixed value), with where they come from.
    pub facts: Vec<(Fact, FactRef)>,
    /// Per variable decided by a table, the row the case takes.
    pub rows: Vec<(VarId, usize)>,
}

impl Case {
    pub(super) fn value(&self, v: VarId) -> Option<Rat> {
        self.fixed.iter().find(|(w, _)| *w == v).map(|(_, x)| x.clone())
    }
}

/// Where a box the search could not refute may be reached: the case that survived, handed
/// to the witness search.
#[derive(Clone, Debug, Default)]
pub struct Hint {
    pub case: Case,
    /// The linear facts of the case (its defines read with its fixed values).
    pub facts: Vec<Fact>,
}
