//! `cargo bench --bench tables`: checking `unique` grade tables of 100, 1,000 and 10,000
//! rows (salary bands × age bands, and salary × age × region), and 2-axis tables of 3,000,
//! 30,000 and 90,000 rows, generated as rule text.
//! `check` is the whole pipeline (parse, lower, analyse); `analyse` is the analysis alone
//! (the table analysis and the value analysis it runs with), on the lowered program;
//! `check 2-axis (CPU time)` is the whole pipeline on the 2-axis tables, in CPU time.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rulec::analysis::{self, Options};
use rulec::{check_text, Sources};
use std::time::Duration;

#[path = "../tests/common/grades.rs"]
mod grades;
use grades::grade_table;

fn tables(c: &mut Criterion) {
    let cases = [
        ("100 rows (10 × 10)", grade_table(10, 10, 0)),
        ("1,000 rows (40 × 25)", grade_table(40, 25, 0)),
        ("10,000 rows (100 × 100)", grade_table(100, 100, 0)),
        ("10,000 rows (50 × 50 × 4)", grade_table(50, 50, 4)),
    ];
    let opts = Options::default();
    let mut g = c.benchmark_group("check");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(2));
    for (name, text) in &cases {
        // The table must check clean.
        let mut sources = Sources::new();
        let checked = check_text(&mut sources, "grades.rule", text, &opts);
        assert!(checked.diagnostics.is_empty(), "{name}: {:?}", checked.diagnostics.first().map(|d| &d.message));
        g.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| {
                let mut sources = Sources::new();
                check_text(&mut sources, "grades.rule", text, &opts)
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("analyse");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(2));
    for (name, text) in &cases {
        let mut sources = Sources::new();
        let checked = check_text(&mut sources, "grades.rule", text, &opts);
        let p = checked.program.expect("a program");
        g.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| analysis::tables::analyse(&p, text, &opts))
        });
    }
    g.finish();
}

/// Issue 15's scale: a unique 2-axis table, pay bands × 3 age bands, from 3,000 to 90,000
/// rows, the whole pipeline as `rulec check` runs it. Timed in the process's CPU time: on a
/// machine shared with other work, wall-clock time measures the others too.
fn scale(c: &mut Criterion<ProcessCpu>) {
    let opts = Options::default();
    let sizes = [
        ("3,000 rows (1,000 × 3)", grade_table(1_000, 3, 0)),
        ("30,000 rows (10,000 × 3)", grade_table(10_000, 3, 0)),
        ("90,000 rows (30,000 × 3)", grade_table(30_000, 3, 0)),
    ];
    let mut g = c.benchmark_group("check 2-axis (CPU time)");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(2));
    for (name, text) in &sizes {
        let mut sources = Sources::new();
        let checked = check_text(&mut sources, "grades.rule", text, &opts);
        assert!(checked.diagnostics.is_empty(), "{name}: {:?}", checked.diagnostics.first().map(|d| &d.message));
        g.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| {
                let mut sources = Sources::new();
                check_text(&mut sources, "grades.rule", text, &opts)
            })
        });
    }
    g.finish();
}

/// The CPU time of this process (every thread), in nanoseconds.
struct ProcessCpu;

fn process_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write; the clock is one every Linux has.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

impl Measurement for ProcessCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        process_cpu_ns()
    }
    fn end(&self, started: u64) -> u64 {
        process_cpu_ns() - started
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Nanoseconds of CPU time, shown as criterion shows wall-clock time.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match ns {
            x if x < 1e3 => (1.0, "ns (CPU)"),
            x if x < 1e6 => (1e-3, "µs (CPU)"),
            x if x < 1e9 => (1e-6, "ms (CPU)"),
            _ => (1e-9, "s (CPU)"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, _typical: f64, _throughput: &Throughput, _values: &mut [f64]) -> &'static str {
        "(no throughput)"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group!(benches, tables);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ProcessCpu);
    targets = scale
}
criterion_main!(benches, cpu);
