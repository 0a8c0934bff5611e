//! The stack rulec's recursive stages run on. Every stage walks an expression recursively,
//! and the parser bounds how deep one can be (`syntax::parser::MAX_NESTING`); this module
//! gives that bound a stack that holds it whoever calls the library: a test thread (2 MiB),
//! a build script or a proc macro built without optimisation, where a level of nesting
//! takes tens of kilobytes.

use std::cell::Cell;
use std::sync::Mutex;

/// Enough for `MAX_NESTING` levels through the parser, sema, the analysis, the evaluator,
/// fmt and every backend, in an unoptimised build, with room to spare. Only the pages a
/// run touches are ever committed.
pub const DEEP_STACK_BYTES: usize = 256 << 20;

thread_local! {
    static ON_DEEP_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Run `work` on a thread with `DEEP_STACK_BYTES` of stack, and wait for it (on the
/// caller's thread when it already is such a thread). Where no such thread can be made (an
/// address-space limit), it runs on the caller's stack.
pub fn deep<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if ON_DEEP_STACK.with(Cell::get) {
        return work();
    }
    let work = Mutex::new(Some(work));
    let take = || work.lock().unwrap_or_else(|e| e.into_inner()).take().expect("the work runs once");
    std::thread::scope(|s| {
        let spawned =
            std::thread::Builder::new().name("rulec".into()).stack_size(DEEP_STACK_BYTES).spawn_scoped(s, || {
                ON_DEEP_STACK.with(|f| f.set(true));
                take()()
            });
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => take()(),
        }
    })
}

/// `work` over every item, on up to `available_parallelism` threads of `DEEP_STACK_BYTES`
/// each; the answers come back in the items' order, so what a caller makes of them does not
/// depend on which thread finished first. With one item or one core it is `deep` in a loop.
pub fn each<'a, T: Sync, R: Send>(items: &'a [T], work: impl Fn(&'a T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(items.len());
    if threads <= 1 {
        return deep(|| items.iter().map(&work).collect());
    }
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    let worker = || {
        ON_DEEP_STACK.with(|f| f.set(true));
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            let answer = work(item);
            answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(answer);
        }
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new().name("rulec".into()).stack_size(DEEP_STACK_BYTES).spawn_scoped(s, worker)
            })
            .collect();
        // A thread the system would not make leaves its share to the others; the calling
        // thread takes what is left, on a deep stack of its own.
        if handles.iter().all(Result::is_err) {
            deep(worker);
        }
        for h in handles.into_iter().flatten() {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    answers
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|a| a.expect("every item was worked"))
        .collect()
}
