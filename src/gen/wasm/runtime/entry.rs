// The fixed text of the Wasm entry: the crate root that puts a module behind the canonical
// ABI of `call: func(input: string) -> string`. It compiles as it stands (rustc --target
// wasm32-unknown-unknown --crate-type cdylib). The Wasm backend copies the sections: each
// starts at a `// rulec: NAME` line and runs to the next one. What comes before the first
// section is for this file alone: what the sections read from the crate they are written
// into (the answer of the Rust runner, runtime/runner.rs of the Rust backend; the helpers'
// `case`), and `rulec_respond`, which the backend replaces with the crate's `respond` or
// `respond_case`.

#![allow(dead_code)]

use crate::respond as rulec_respond;

const NOT_AN_OBJECT: &str = "the input is not an object";

fn answer(line: &[u8]) -> Option<String> {
    std::str::from_utf8(line).ok().filter(|t| !t.trim().is_empty()).map(str::to_string)
}

fn refusal(kind: &str, what: &str) -> String {
    format!("{kind}: {what}")
}

fn case(line: &str) -> Option<String> {
    Some(line.to_string())
}

// rulec: respond
/// The answer to one call: the record line, or the refusal line the runner prints. A blank
/// input is no JSON object either.
fn respond(input: &[u8]) -> String {
    answer(input).unwrap_or_else(|| refusal("input", NOT_AN_OBJECT))
}

// rulec: respond_case
/// The answer to one case of the helpers' unit vectors; a line that is not one says so.
fn respond_case(input: &[u8]) -> String {
    match std::str::from_utf8(input).ok().and_then(case) {
        Some(answer) => answer,
        None => "{\"refused\":\"input\",\"error\":\"not a case of vectors/_helpers.jsonl\"}".to_string(),
    }
}

// rulec: abi
// The canonical ABI of one function, `call: func(input: string) -> string`: the host places
// the input with `cabi_realloc`, calls `call`, reads the (pointer, length) pair it returns,
// and gives the pair back with `cabi_post_call`. The module imports nothing. Nothing the
// input holds makes it trap: every answer is a string; only a host that breaks the ABI (a
// layout no allocator can give, memory exhausted) meets an abort.

/// The canonical ABI's realloc: `new_size` bytes aligned to `align`, in place of `old`.
///
/// # Safety
///
/// `old` is null, or a block this function gave with `old_size` and `align`.
#[no_mangle]
pub unsafe extern "C" fn cabi_realloc(old: *mut u8, old_size: usize, align: usize, new_size: usize) -> *mut u8 {
    use std::alloc::Layout;
    let Ok(layout) = Layout::from_size_align(new_size, align) else { std::process::abort() };
    if new_size == 0 {
        // No bytes: a pointer aligned as asked that is never read.
        return align as *mut u8;
    }
    let block = if old.is_null() || old_size == 0 {
        std::alloc::alloc(layout)
    } else {
        let Ok(was) = Layout::from_size_align(old_size, align) else { std::process::abort() };
        std::alloc::realloc(old, was, new_size)
    };
    if block.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    block
}

/// `call(input)`: the input's `len` bytes at `ptr` (placed by `cabi_realloc` with alignment
/// 1, and the module's from here on); the answer's (pointer, length) pair.
///
/// # Safety
///
/// `ptr` holds `len` bytes from `cabi_realloc(0, 0, 1, len)`, not used by the host after.
#[no_mangle]
pub unsafe extern "C" fn call(ptr: *mut u8, len: usize) -> *mut [usize; 2] {
    let input: Vec<u8> = if len == 0 { Vec::new() } else { Vec::from_raw_parts(ptr, len, len) };
    let answer = rulec_respond(&input).into_bytes().into_boxed_slice();
    drop(input);
    let n = answer.len();
    let at = Box::into_raw(answer) as *mut u8;
    Box::into_raw(Box::new([at as usize, n]))
}

/// Frees an answer of `call` and its pair (the canonical ABI's post-return).
///
/// # Safety
///
/// `ret` is what `call` returned, given back once.
#[no_mangle]
pub unsafe extern "C" fn cabi_post_call(ret: *mut [usize; 2]) {
    let [at, n] = *Box::from_raw(ret);
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(at as *mut u8, n)));
}
