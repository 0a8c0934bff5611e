// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a module
// may carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Rust backend
// writes the two sections below, then every arithmetic section of module.rs; the Wasm one
// writes `case` behind the canonical ABI.

// rulec: main
use std::io::{BufRead, Write};

fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("standard input is readable");
        if line.trim().is_empty() {
            continue;
        }
        let answer = case(&line).expect("a case of vectors/_helpers.jsonl");
        writeln!(out, "{answer}").expect("standard output is writable");
    }
}

// rulec: case
/// The string under `key` in a case line (every value of a case is a string without escapes).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let tag = format!("\"{key}\":\"");
    let start = line.find(&tag)? + tag.len();
    line.get(start..start + line.get(start..)?.find('"')?)
}

/// The answer to one case, `{"result":"…"}`; `None` for a line that is not a case (an
/// unknown helper, an operand that is not an i64, a zero divisor).
fn case(line: &str) -> Option<String> {
    let a: i64 = field(line, "a")?.parse().ok()?;
    let b: i64 = field(line, "b")?.parse().ok()?;
    let op = field(line, "op")?;
    if b == 0 && op != "isqrt" {
        return None;
    }
    let r = match op {
        "quot_floor" => quot_floor(a, b),
        "quot_ceiling" => quot_ceiling(a, b),
        "quot_down" => quot_down(a, b),
        "quot_up" => quot_up(a, b),
        "quot_half_up" => quot_half_up(a, b),
        "quot_half_down" => quot_half_down(a, b),
        "quot_half_even" => quot_half_even(a, b),
        "mod" => mod_floor(a, b),
        "isqrt" => isqrt_i64(a),
        _ => return None,
    };
    Some(format!("{{\"result\":\"{r}\"}}"))
}
