//! The cover tree: the table's domain (every coordinate of every axis) split recursively
//! until, in every part, each row either takes the whole part or none of it.
//!
//! A node is a box: per axis a run of consecutive coordinates `[first, last]`. A split
//! names an axis and a coordinate `at`: the low child keeps `[first, at - 1]` on that axis,
//! the high child `[at, last]`. A leaf lists every row whose box contains the leaf's box
//! (ascending); every other row misses the leaf on some axis. That one invariant is what
//! proves everything about the rows' boxes at once:
//! - a leaf listing no row is a part of the domain no row takes (a gap, if it is asked);
//! - two rows meet on every axis exactly when some leaf lists both — every pair never
//!   listed together is disjoint, and for a pair of boxes (products of per-axis sets) that
//!   means some axis parts them;
//! - under `first`, the row that answers everywhere in a leaf is the first one it lists.
//!
//! Splits are chosen at the median of the row boundaries that fall inside the node, on
//! the axis with the most of them, so a table of n rows on a grid is cut in O(n log n).

use super::Budget;

/// One node of the tree, in a flat list (the root is node 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Split { axis: u32, at: u32, lo: u32, hi: u32 },
    Leaf(u32),
}

/// Whether any input the rule is asked about lies in a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Not looked at: nothing depends on it (a leaf one already-reached row covers).
    Unchecked,
    /// Some point of the box is asked about: the linear model is feasible there (and, when
    /// `witness` is set, that input really lands in it through the evaluator).
    Yes,
    /// No point of the box is asked about.
    No(super::Refutation),
    /// The linear reasoning ran out of its allowance on this box.
    Unknown,
}

#[derive(Clone, Debug)]
pub struct Leaf {
    /// Per axis, the run of coordinates `[first, last]`.
    pub ranges: Vec<(u32, u32)>,
    /// Every row (0-based) whose box contains this leaf's box, ascending.
    pub rows: Vec<u32>,
    pub asked: Asked,
}

#[derive(Clone, Debug, Default)]
pub struct Cover {
    pub nodes: Vec<Node>,
    pub leaves: Vec<Leaf>,
}

/// The index of the first run that ends at or after `a`.
fn first_run(runs: &[(u32, u32)], a: u32) -> usize {
    runs.partition_point(|r| r.1 < a)
}

/// Whether some accepted coordinate lies in `[a, b]`.
pub fn meets(runs: &[(u32, u32)], a: u32, b: u32) -> bool {
    let i = first_run(runs, a);
    i < runs.len() && runs[i].0 <= b
}

/// Whether every coordinate of `[a, b]` is accepted.
pub fn covers(runs: &[(u32, u32)], a: u32, b: u32) -> bool {
    let i = first_run(runs, a);
    i < runs.len() && runs[i].0 <= a && runs[i].1 >= b
}

/// Whether a row's box contains a whole box.
pub fn contains(row: &[Vec<(u32, u32)>], ranges: &[(u32, u32)]) -> bool {
    row.iter().zip(ranges).all(|(r, &(a, b))| covers(r, a, b))
}

/// Whether a row's box meets a box.
pub fn meets_box(row: &[Vec<(u32, u32)>], ranges: &[(u32, u32)]) -> bool {
    row.iter().zip(ranges).all(|(r, &(a, b))| meets(r, a, b))
}

/// Cut the domain `root` among the rows' boxes (`boxes[row][axis]` = runs). Only the rows
/// in `live` (those whose box is not empty) take part. Each split spends one unit of the
/// budget, and one more for every 32 rows it sorts; `None` when the budget runs out.
pub fn build(
    boxes: &[Vec<Vec<(u32, u32)>>],
    root: Vec<(u32, u32)>,
    live: Vec<u32>,
    budget: &mut Budget,
) -> Option<Cover> {
    let mut cover = Cover { nodes: vec![Node::Leaf(0)], leaves: Vec::new() };
    // (node, its box, the rows that meet it)
    type Work = (usize, Vec<(u32, u32)>, Vec<u32>);
    let mut stack: Vec<Work> = vec![(0, root, live)];
    while let Some((node, ranges, cands)) = stack.pop() {
        if !budget.spend(1 + cands.len() as u64 / 32) {
            return None;
        }
        let split = choose_split(boxes, &ranges, &cands);
        let Some((axis, at)) = split else {
            cover.nodes[node] = Node::Leaf(cover.leaves.len() as u32);
            cover.leaves.push(Leaf { ranges, rows: cands, asked: Asked::Unchecked });
            continue;
        };
        let (a, b) = ranges[axis];
        let mut lo_ranges = ranges.clone();
        lo_ranges[axis] = (a, at - 1);
        let mut hi_ranges = ranges;
        hi_ranges[axis] = (at, b);
        let lo_rows: Vec<u32> = cands.iter().copied().filter(|&r| meets(&boxes[r as usize][axis], a, at - 1)).collect();
        let hi_rows: Vec<u32> = cands.into_iter().filter(|&r| meets(&boxes[r as usize][axis], at, b)).collect();
        let lo = cover.nodes.len();
        cover.nodes.push(Node::Leaf(0));
        cover.nodes.push(Node::Leaf(0));
        cover.nodes[node] = Node::Split { axis: axis as u32, at, lo: lo as u32, hi: lo as u32 + 1 };
        // Depth first, low side first: leaves come out in coordinate order.
        stack.push((lo + 1, hi_ranges, hi_rows));
        stack.push((lo, lo_ranges, lo_rows));
    }
    Some(cover)
}

/// Where to cut a node: `None` when every candidate row takes the whole node.
fn choose_split(boxes: &[Vec<Vec<(u32, u32)>>], ranges: &[(u32, u32)], cands: &[u32]) -> Option<(usize, u32)> {
    let mut events: Vec<Vec<u32>> = vec![Vec::new(); ranges.len()];
    for &r in cands {
        for (k, &(a, b)) in ranges.iter().enumerate() {
            let runs = &boxes[r as usize][k];
            if covers(runs, a, b) {
                continue;
            }
            for &(s, e) in &runs[first_run(runs, a)..] {
                if s > b {
                    break;
                }
                if s > a {
                    events[k].push(s);
                }
                if e < b {
                    events[k].push(e + 1);
                }
            }
        }
    }
    let (axis, ev) = events.iter_mut().enumerate().max_by_key(|(k, e)| (e.len(), std::cmp::Reverse(*k)))?;
    if ev.is_empty() {
        return None;
    }
    let mid = ev.len() / 2;
    let (_, &mut at, _) = ev.select_nth_unstable(mid);
    Some((axis, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_meet_and_cover() {
        let r = vec![(0, 2), (5, 7)];
        assert!(meets(&r, 2, 4));
        assert!(!meets(&r, 3, 4));
        assert!(covers(&r, 5, 7));
        assert!(!covers(&r, 2, 5));
    }

    #[test]
    fn a_grid_is_cut_into_its_cells() {
        // 3 × 3 grid of rows, each one cell.
        let boxes: Vec<Vec<Vec<(u32, u32)>>> =
            (0..9).map(|i| vec![vec![(i / 3, i / 3)], vec![(i % 3, i % 3)]]).collect();
        let mut budget = Budget::new(1000);
        let c = build(&boxes, vec![(0, 2), (0, 2)], (0..9).collect(), &mut budget).unwrap();
        assert_eq!(c.leaves.len(), 9);
        assert!(c.leaves.iter().all(|l| l.rows.len() == 1));
    }
}
