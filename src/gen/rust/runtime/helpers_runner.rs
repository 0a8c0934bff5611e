// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a module
// may carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Rust backend
// writes the section below, then every arithmetic section of module.rs.

// rulec: main
use std::io::{BufRead, Write};

/// The string under `key` in a case line (every value of a case is a string without escapes).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let tag = format!("\"{key}\":\"");
    let start = line.find(&tag).expect("a case has the field") + tag.len();
    &line[start..start + line[start..].find('"').expect("a closing quote")]
}

fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("standard input is readable");
        if line.trim().is_empty() {
            continue;
        }
        let a: i64 = field(&line, "a").parse().expect("a is an i64");
        let b: i64 = field(&line, "b").parse().expect("b is an i64");
        let r = match field(&line, "op") {
            "quot_floor" => quot_floor(a, b),
            "quot_ceiling" => quot_ceiling(a, b),
            "quot_down" => quot_down(a, b),
            "quot_up" => quot_up(a, b),
            "quot_half_up" => quot_half_up(a, b),
            "quot_half_down" => quot_half_down(a, b),
            "quot_half_even" => quot_half_even(a, b),
            "mod" => mod_floor(a, b),
            "isqrt" => isqrt_i64(a),
            op => panic!("unknown helper {op}"),
        };
        writeln!(out, "{{\"result\":\"{r}\"}}").expect("standard output is writable");
    }
}
