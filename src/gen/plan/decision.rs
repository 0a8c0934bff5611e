//! A table of enum and boolean cells as a decision over its columns, decided once for every
//! language that writes one (Go's and Java's `switch`): each case of a column goes on with
//! the rows that take its value, in their order, until the first of them takes anything in
//! the columns left — that row fires, as the first matching row does.

use super::code::Expr;
use super::MatchShape;
use crate::sema::VarId;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The row that fires, by its index in the table's rows (from 0).
    Row(usize),
    /// No row takes this case: the table's no-row refusal.
    NoRow,
    /// A `switch` on an enum column: the values (their places), each list with what follows
    /// it, in the order of the values' first place. A value in no list reaches no row.
    Switch { column: VarId, arms: Vec<(Vec<u32>, Decision)> },
    /// An `if` on a boolean column.
    Bool { column: VarId, yes: Box<Decision>, no: Box<Decision> },
}

impl Decision {
    /// The decision over `shape`, whose column `c` takes the values `domains[c]` (`true`,
    /// `false` for a boolean; an enum's members in order) — unless it would write the rows
    /// out more than a few times over, where the rows one after the other stay shorter.
    pub fn of(shape: &MatchShape, domains: &[Vec<Expr>]) -> Option<Decision> {
        let mut budget = 4 * shape.patterns.len() + 4;
        let rows: Vec<usize> = (0..shape.patterns.len()).collect();
        let columns: Vec<usize> = (0..shape.columns.len()).collect();
        build(shape, domains, &rows, &columns, &mut budget)
    }
}

fn build(
    shape: &MatchShape,
    domains: &[Vec<Expr>],
    rows: &[usize],
    columns: &[usize],
    budget: &mut usize,
) -> Option<Decision> {
    let Some(&first) = rows.first() else { return Some(Decision::NoRow) };
    let Some(&c) = columns.iter().find(|&&c| shape.patterns[first][c].is_some()) else {
        *budget = budget.checked_sub(1)?;
        return Some(Decision::Row(first));
    };
    let rest: Vec<usize> = columns.iter().copied().filter(|&k| k != c).collect();
    let column = shape.columns[c];
    let domain = &domains[c];
    // The values of the column grouped by the rows that take them, in the values' order.
    // Each row's values as a set of places, and each group found by its rows in a map: an
    // enum of 50,000 values and a `not:` cell of 49,999 are not 50,000² comparisons.
    let place: HashMap<&Expr, u32> = domain.iter().enumerate().map(|(i, v)| (v, i as u32)).collect();
    let takes: Vec<Option<HashSet<u32>>> = rows
        .iter()
        .map(|&r| shape.patterns[r][c].as_ref().map(|vs| vs.iter().filter_map(|v| place.get(v).copied()).collect()))
        .collect();
    let mut groups: Vec<(Vec<usize>, Vec<u32>)> = Vec::new();
    let mut group_of: HashMap<Vec<usize>, usize> = HashMap::new();
    for i in 0..domain.len() as u32 {
        let taking: Vec<usize> = rows
            .iter()
            .zip(&takes)
            .filter(|(_, t)| t.as_ref().is_none_or(|t| t.contains(&i)))
            .map(|(&r, _)| r)
            .collect();
        match group_of.get(&taking) {
            Some(&g) => groups[g].1.push(i),
            None => {
                group_of.insert(taking.clone(), groups.len());
                groups.push((taking, vec![i]));
            }
        }
    }
    if domain.iter().all(|v| matches!(v.node, super::Node::Bool(_))) {
        let branch = |yes: bool, budget: &mut usize| -> Option<Decision> {
            let at = domain.iter().position(|v| v.node == super::Node::Bool(yes))? as u32;
            match groups.iter().find(|(_, vs)| vs.contains(&at)) {
                Some((rs, _)) => build(shape, domains, rs, &rest, budget),
                None => Some(Decision::NoRow),
            }
        };
        let yes = branch(true, budget)?;
        let no = branch(false, budget)?;
        return Some(Decision::Bool { column, yes: Box::new(yes), no: Box::new(no) });
    }
    let mut arms = Vec::new();
    for (rs, vs) in &groups {
        if !rs.is_empty() {
            arms.push((vs.clone(), build(shape, domains, rs, &rest, budget)?));
        }
    }
    Some(Decision::Switch { column, arms })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::plan::{Kind, Node};

    fn member(i: u32) -> Expr {
        Expr::new(Kind::Enum(0), Node::Member(i))
    }

    #[test]
    fn the_first_matching_row_wins_in_every_case() {
        // | dest (3 values) | signature | → rows: (0 or 1, true), (-, false), (2, -)
        let shape = MatchShape {
            columns: vec![0, 1],
            patterns: vec![
                vec![Some(vec![member(0), member(1)]), Some(vec![Expr::truth(true)])],
                vec![None, Some(vec![Expr::truth(false)])],
                vec![Some(vec![member(2)]), None],
            ],
        };
        let domains = vec![vec![member(0), member(1), member(2)], vec![Expr::truth(true), Expr::truth(false)]];
        let d = Decision::of(&shape, &domains).expect("small enough");
        let sig_first = Decision::Bool { column: 1, yes: Box::new(Decision::Row(0)), no: Box::new(Decision::Row(1)) };
        let overseas = Decision::Bool { column: 1, yes: Box::new(Decision::Row(2)), no: Box::new(Decision::Row(1)) };
        assert_eq!(d, Decision::Switch { column: 0, arms: vec![(vec![0, 1], sig_first), (vec![2], overseas)] });
    }

    #[test]
    fn a_table_that_would_repeat_its_rows_too_often_stays_rows() {
        // Rows 0..10 each take one value of the first column and the first value of the
        // second; rows 10..20 take anything in the first and one more value of the second:
        // every case of the first column goes on with its own row and all of the ten last.
        let (k, m) = (10u32, 10u32);
        let mut patterns: Vec<Vec<Option<Vec<Expr>>>> =
            (0..k).map(|i| vec![Some(vec![member(i)]), Some(vec![member(0)])]).collect();
        patterns.extend((1..=m).map(|j| vec![None, Some(vec![member(j)])]));
        let shape = MatchShape { columns: vec![0, 1], patterns };
        let domains = vec![(0..k).map(member).collect::<Vec<_>>(), (0..=m).map(member).collect()];
        assert_eq!(Decision::of(&shape, &domains), None);
        // The same rows without the ten that take anything are a switch of switches.
        let shape = MatchShape { columns: vec![0, 1], patterns: shape.patterns[..k as usize].to_vec() };
        assert!(matches!(Decision::of(&shape, &domains), Some(Decision::Switch { .. })));
    }
}
