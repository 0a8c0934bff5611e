//! The production loop: what a team does the week it switches a hand-written function to a
//! rule, and on every later edit (formats.md "verify, replay, diff", "fixtures lint", "The
//! data files", "The adapter protocol").
//!
//! - [`records`] reads a fixtures file line by line against a rule — field by field, so
//!   [`lint`] can report every problem and replay can exclude a record for its first one;
//!   `--read-as` and the replay manifest (`fills`) are applied there.
//! - [`report`] is the one shape verify, replay and diff share: compared, matched, the
//!   clusters of records that moved, grouped by the rows that fired.
//! - [`replay`] runs every record through the rule, by [`fast`] (the rule's code plan run
//!   over i64 as generated code runs it) where it can and by the reference evaluator
//!   everywhere else; every record that differs is redone by the reference, so what a
//!   report says about a record is always the reference's word.
//! - [`adapter`] speaks the adapter protocol to a legacy implementation (`verify`) and
//!   prints the templates; [`reach`] is what verify asks beyond the boundary suite (range
//!   ends, row interiors, `--sample`, `--exhaustive`) and how much of the domain that is;
//!   [`diff`] compares two versions over records; [`region`]
//!   compares them over every input, as boxes over the rule's columns.
//! - [`revision`] loads a rule from a file or from a git revision (`rules/x.rule@HEAD~1`).

pub mod adapter;
pub mod diff;
pub mod fast;
pub mod lint;
pub mod reach;
pub mod records;
pub mod region;
pub mod replay;
pub mod report;
pub mod revision;
pub mod values;

/// Where a long run reports how far it got (a progress line on a terminal).
pub trait Progress {
    /// `done` records so far.
    fn tick(&mut self, done: usize);
    /// The run is over (clear the line).
    fn finish(&mut self, done: usize);
}

/// No progress reporting.
pub struct Quiet;

impl Progress for Quiet {
    fn tick(&mut self, _: usize) {}
    fn finish(&mut self, _: usize) {}
}
