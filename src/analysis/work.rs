//! The allowance of one command's work on one rule (`--steps N`, E109): every step of the
//! exact linear reasoning and every box a table's cover splits, wherever it runs — check's
//! proofs, the boundary suite's search, diff's regions — is drawn from it, so no rule can
//! keep check, gen, graph, doc or diff busy without end. `--budget` bounds one table; this
//! bounds everything.
//!
//! Counted in steps, not time, so the same rule stops at the same step on every machine.
//! The allowance is the thread's: a rule's work runs on one thread from its check on, and
//! every check starts the allowance afresh (`start`), so rules checked side by side on
//! several threads each get their own and none takes from another.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The allowance when `--steps` does not say: far above what a rule of tens of tables or
/// hundreds of rows spends, and under a minute of work on the slowest path.
pub const DEFAULT_STEPS: u64 = 5_000_000;

/// What every rule's allowance starts from in this process (`--steps N` sets it).
static STEPS: AtomicU64 = AtomicU64::new(DEFAULT_STEPS);

thread_local! {
    static LEFT: Cell<u64> = const { Cell::new(DEFAULT_STEPS) };
    static RAN_OUT: Cell<bool> = const { Cell::new(false) };
}

/// Set the allowance every rule's work starts from (the CLI's `--steps N`).
pub fn set_steps(n: u64) {
    STEPS.store(n, Ordering::Relaxed);
}

/// The allowance every rule's work starts from.
pub fn steps() -> u64 {
    STEPS.load(Ordering::Relaxed)
}

/// A rule's work begins: the whole allowance, nothing run out.
pub fn start() {
    LEFT.with(|l| l.set(steps()));
    RAN_OUT.with(|r| r.set(false));
}

/// Spend `n` steps; false (and nothing spent) when fewer are left, and from then on the
/// rule's work is known to have stopped short.
pub fn take(n: u64) -> bool {
    LEFT.with(|l| {
        if n > l.get() {
            RAN_OUT.with(|r| r.set(true));
            false
        } else {
            l.set(l.get() - n);
            true
        }
    })
}

/// Whether some of the rule's work stopped because the allowance ran out.
pub fn ran_out() -> bool {
    RAN_OUT.with(Cell::get)
}
