//! `cargo bench --bench replay`: the production loop at production sizes.
//!
//! 1. Replay of 1,000,000 parcel_rate records (drawn from the rule's whole domain by a fixed
//!    generator; one in a thousand with its fee off by a dollar, so the reference takes those
//!    and builds their clusters): records per second through the library, from the file,
//!    with the fast form and with the reference evaluator alone; then `rulec replay` on the
//!    same file, its wall time and peak memory (`/usr/bin/time`).
//! 2. The region diff of two versions of a 10,000-row `unique` table (salary × age bands,
//!    one result cell edited): checking both, the region analysis alone, and `rulec diff`.
//!
//! Every figure is printed with what it is measured against; nothing is asserted about time.

use rulec::eval::{self, wire};
use rulec::production::records::{Fills, Reader};
use rulec::production::{region, replay, Quiet};
use rulec::sema::Program;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn program(text: &str, name: &str) -> Program {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_text(&mut sources, name, text, &rulec::analysis::Options::default());
    assert!(!checked.has_errors(), "{name} checks clean");
    checked.program.expect("a program")
}

/// splitmix64, so the file is the same on every run.
fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What `/usr/bin/time` says of one run of the command.
struct Run {
    wall: f64,
    cpu: f64,
    peak_kib: u64,
}

/// `/usr/bin/time -f "%e %U %S %M"` around the command: wall and CPU seconds, peak resident KiB.
fn timed(args: &[&str]) -> Option<Run> {
    let o = Command::new("/usr/bin/time")
        .args(["-f", "%e %U %S %M"])
        .arg(env!("CARGO_BIN_EXE_rulec"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&o.stderr);
    let f: Vec<f64> = err.lines().last()?.split(' ').filter_map(|x| x.parse().ok()).collect();
    (f.len() == 4).then(|| Run { wall: f[0], cpu: f[1] + f[2], peak_kib: f[3] as u64 })
}

/// The machine's load while the figures were taken (other work on the same cores).
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn replay_bench(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rule = root.join("tests/corpus/parcel_rate.rule");
    let p = program(&std::fs::read_to_string(&rule).unwrap(), "parcel_rate.rule");
    // Every call the rule declares, its record as the reference evaluator writes it.
    let t = Instant::now();
    let mut domain: Vec<(String, String)> = Vec::new();
    for weight in 1..=70 {
        for girth in 1..=130 {
            for dest in ["domestic", "canada", "overseas"] {
                for signature in [false, true] {
                    let call =
                        serde_json::json!({"weight": weight, "girth": girth, "dest": dest, "signature": signature});
                    let inputs = wire::read_inputs(&p, &call).unwrap();
                    let o = eval::evaluate(&p, &inputs).unwrap();
                    let good = wire::record(&p, &inputs, &o, "");
                    let fee = o.values[p.outputs[0]].clone();
                    let off = wire::to_wire(&p, &p.vars[p.outputs[0]], &fee).as_i64().unwrap() + 1;
                    let bad = good.replace(&format!("\"fee\":{}", off - 1), &format!("\"fee\":{off}"));
                    domain.push((good, bad));
                }
            }
        }
    }
    println!("replay: {} distinct calls, their records written by the reference in {:.2?}", domain.len(), t.elapsed());
    let n = 1_000_000;
    let file = dir.join("parcel_rate.1m.jsonl");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    let mut seed = 7u64;
    for i in 0..n {
        let (good, bad) = &domain[(next(&mut seed) % domain.len() as u64) as usize];
        let tag = format!("order:{i}");
        let line = if i % 1000 == 999 { bad } else { good };
        writeln!(w, "{{\"tag\":\"{tag}\",{}", &line[1..]).unwrap();
    }
    drop(w);
    let bytes = std::fs::metadata(&file).unwrap().len();
    println!("replay: {n} records, {:.0} MB", bytes as f64 / 1e6);
    let fills = Fills::default();
    let reader = Reader { rule: &p, written_by: None, fills: &fills, fills_for: None };
    let open = || std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&file).unwrap());
    let t = Instant::now();
    let r = replay::replay(&reader, "f", open(), &replay::Options { fast: true }, &mut Quiet).unwrap();
    let fast = t.elapsed();
    assert_eq!(r.compared, n);
    assert_eq!(r.matched, n - n / 1000);
    println!(
        "replay (library, fast form): {n} records in {fast:.2?}: {:.2} M records/s",
        n as f64 / fast.as_secs_f64() / 1e6
    );
    let k = 50_000;
    let prefix = dir.join("parcel_rate.50k.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let head: String = text.lines().take(k).map(|l| format!("{l}\n")).collect();
    drop(text);
    std::fs::write(&prefix, head).unwrap();
    let t = Instant::now();
    let f = std::io::BufReader::new(std::fs::File::open(&prefix).unwrap());
    replay::replay(&reader, "f", f, &replay::Options { fast: false }, &mut Quiet).unwrap();
    let slow = t.elapsed();
    let per_fast = fast.as_secs_f64() / n as f64;
    let per_slow = slow.as_secs_f64() / k as f64;
    println!(
        "replay (library, reference evaluator alone): {k} records in {slow:.2?}: {:.0} records/s; the fast form is {:.0}x faster",
        k as f64 / slow.as_secs_f64(),
        per_slow / per_fast
    );
    let (rs, fs) = (rule.to_string_lossy().into_owned(), file.to_string_lossy().into_owned());
    match timed(&["replay", &rs, "--fixtures", &fs, "--format", "json"]) {
        Some(r) => println!(
            "replay (rulec replay, the whole command): {n} records in {:.2} s wall, {:.2} s CPU: {:.2} M records per CPU second; peak memory {} KiB (load {})",
            r.wall,
            r.cpu,
            n as f64 / r.cpu / 1e6,
            r.peak_kib,
            load()
        ),
        None => println!("replay (rulec replay): /usr/bin/time is not here; no command figure"),
    }
}

/// A `unique` table of `ns` salary bands × `na` age bands, every band closed on both ends.
fn grade_table(ns: usize, na: usize, edit: Option<usize>) -> String {
    let mut s = String::from("rule grades v1\ninput salary: money[JPY] 0JPY..9999999JPY\ninput age: int 0..119\n");
    s.push_str("output grade: int 0..1000000\ntable grade_of -> grade\n| salary | age | grade |\n|---|---|---|\n");
    let sw = 10_000_000 / ns;
    let mut g = 0;
    for i in 0..ns {
        let (lo, hi) = (i * sw, if i + 1 == ns { 9_999_999 } else { (i + 1) * sw - 1 });
        for j in 0..na {
            let (alo, ahi) = (j * 120 / na, if j + 1 == na { 119 } else { (j + 1) * 120 / na - 1 });
            g += 1;
            let grade = if edit == Some(g) { g + 500_000 } else { g };
            s.push_str(&format!("| >={lo}JPY <={hi}JPY | >={alo} <={ahi} | {grade} |\n"));
        }
    }
    s
}

fn region_bench(dir: &Path) {
    let (old_text, new_text) = (grade_table(100, 100, None), grade_table(100, 100, Some(4242)));
    let (a, b) = (dir.join("grades_old.rule"), dir.join("grades_new.rule"));
    std::fs::write(&a, &old_text).unwrap();
    std::fs::write(&b, &new_text).unwrap();
    let t = Instant::now();
    let (old, new) = (program(&old_text, "grades_old.rule"), program(&new_text, "grades_new.rule"));
    let check = t.elapsed();
    let t = Instant::now();
    let r = region::region(&old, &new, "old", "new", &region::Options::default()).unwrap();
    let diff = t.elapsed();
    assert!(r.total() && r.changes.len() == 1, "one box: {}", r.text());
    println!("region: two 10,000-row tables checked in {check:.2?}; the region analysis alone {diff:.2?}");
    print!("{}", r.text());
    let (as_, bs) = (a.to_string_lossy().into_owned(), b.to_string_lossy().into_owned());
    match timed(&["diff", &as_, &bs]) {
        Some(r) => println!(
            "region (rulec diff, the whole command: both checks and the region): {:.2} s wall, {:.2} s CPU, peak memory {} KiB (load {})",
            r.wall,
            r.cpu,
            r.peak_kib,
            load()
        ),
        None => println!("region (rulec diff): /usr/bin/time is not here; no command figure"),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word picks one part.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let dir = tempfile::tempdir().unwrap();
    if args.is_empty() || args.iter().any(|a| a == "replay") {
        replay_bench(dir.path());
    }
    if args.is_empty() || args.iter().any(|a| a == "region") {
        region_bench(dir.path());
    }
}
