//! parcel_rate over its whole domain (weight 1..70 lb × girth 1..130 in × 3 zones × 2 =
//! 54,600 calls): the generated Rust against a hand-written `match` of the same rule, and
//! against the exact reference evaluator. Run: `cargo bench --bench parcel_rate`. Before
//! criterion's groups it prints the ratio of the two Rust functions' fastest passes, taken
//! in turn (docs/benchmarks.md says why that is the figure to read on a shared machine),
//! over the domain in its sweep order and in one fixed shuffled order.
//!
//! The generated module is committed in benches/generated/ and kept in step with the rule
//! by a test (`gen --check`), the way a project keeps its generated code.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

#[allow(dead_code)]
mod parcel_rate {
    include!("generated/rust/parcel_rate.rs");
}
use parcel_rate::{Inches, Pounds, Zone};

/// The rule written by hand, as a programmer would without rulec.
fn by_hand(weight: i64, girth: i64, dest: Zone, signature: bool) -> i64 {
    let size = match (girth <= 60, weight <= 10) {
        (true, true) => 0,
        (true, false) => 1,
        (false, _) => 2,
    };
    let base = match (dest, size) {
        (Zone::Domestic, 0) => 8,
        (Zone::Domestic, 1) => 12,
        (Zone::Domestic, _) => 20,
        (Zone::Canada, 0) => 10,
        (Zone::Canada, 1) => 15,
        (Zone::Canada, _) => 25,
        (Zone::Overseas, 0) => 18,
        (Zone::Overseas, 1) => 30,
        (Zone::Overseas, _) => 45,
    };
    let fuel_pct = if dest == Zone::Overseas { 20 } else { 10 };
    let surcharge = (base * fuel_pct + 99) / 100;
    let sig = match (signature, dest) {
        (false, _) => 0,
        (true, Zone::Overseas) => 5,
        (true, _) => 2,
    };
    base + surcharge + sig
}

/// The same, with the contract the generated function keeps: a call outside the declared
/// ranges (weight 1..70 lb, girth 1..130 in) is refused, not answered.
fn by_hand_checked(weight: i64, girth: i64, dest: Zone, signature: bool) -> Result<i64, &'static str> {
    if !(1..=70).contains(&weight) {
        return Err("weight is out of range");
    }
    if !(1..=130).contains(&girth) {
        return Err("girth is out of range");
    }
    Ok(by_hand(weight, girth, dest, signature))
}

fn domain() -> Vec<(i64, i64, Zone, bool)> {
    let mut out = Vec::with_capacity(54_600);
    for weight in 1..=70 {
        for girth in 1..=130 {
            for dest in Zone::ALL {
                for signature in [false, true] {
                    out.push((weight, girth, dest, signature));
                }
            }
        }
    }
    out
}

/// The same inputs in one fixed shuffled order (xorshift64, a Fisher–Yates pass): in the
/// sweep order of `domain` every branch repeats a short pattern a predictor learns, so a
/// function full of branches looks faster there than on calls in the order traffic brings.
fn shuffled(mut inputs: Vec<(i64, i64, Zone, bool)>) -> Vec<(i64, i64, Zone, bool)> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..inputs.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        inputs.swap(i, (x % (i as u64 + 1)) as usize);
    }
    inputs
}

/// The sum of `f` over the inputs (the function is inlined into the loop, as in a bench).
fn total(inputs: &[(i64, i64, Zone, bool)], f: impl Fn(i64, i64, Zone, bool) -> i64) -> i64 {
    black_box(inputs).iter().map(|&(w, gi, d, s)| f(w, gi, d, s)).sum()
}

/// One pass over the domain, timed.
fn pass(inputs: &[(i64, i64, Zone, bool)], f: impl Fn(i64, i64, Zone, bool) -> i64) -> std::time::Duration {
    let started = std::time::Instant::now();
    black_box(total(inputs, f));
    started.elapsed()
}

fn bench(c: &mut Criterion) {
    let inputs = domain();
    assert_eq!(inputs.len(), 54_600);
    let rule = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/parcel_rate.rule");
    let checked = rulec::check_path(&mut rulec::Sources::new(), &rule, &rulec::analysis::Options::default()).unwrap();
    let p = checked.program.expect("parcel_rate checks clean");
    let reference = |&(w, g, d, s): &(i64, i64, Zone, bool)| -> i64 {
        let call = serde_json::json!({"weight": w, "girth": g, "dest": d.as_str(), "signature": s});
        let values = rulec::eval::wire::read_inputs(&p, &call).unwrap();
        let out = rulec::eval::evaluate(&p, &values).unwrap();
        rulec::eval::wire::outputs_json(&p, &out)["fee"].as_i64().unwrap()
    };
    // The three agree on every input, or the timings compare nothing.
    for x in &inputs {
        let generated = parcel_rate::parcel_rate(Pounds(x.0), Inches(x.1), x.2, x.3).unwrap().0;
        assert_eq!(generated, by_hand(x.0, x.1, x.2, x.3), "{x:?}");
        assert_eq!(Ok(generated), by_hand_checked(x.0, x.1, x.2, x.3), "{x:?}");
        assert_eq!(generated, reference(x), "{x:?}");
    }
    // Criterion times one implementation after the other, and on a shared machine the load
    // moves between the two. The fastest of many passes taken in turn is what each costs
    // when nothing interrupts it: their ratio is the figure to read.
    let generated = |w, gi, d, s| parcel_rate::parcel_rate(Pounds(w), Inches(gi), d, s).unwrap().0;
    let checked = |w, gi, d, s| by_hand_checked(w, gi, d, s).unwrap();
    let mixed = shuffled(inputs.clone());
    for (order, inputs) in [("in sweep order", &inputs), ("shuffled", &mixed)] {
        let mut fastest = [std::time::Duration::MAX; 3];
        for _ in 0..300 {
            fastest[0] = fastest[0].min(pass(inputs, generated));
            fastest[1] = fastest[1].min(pass(inputs, by_hand));
            fastest[2] = fastest[2].min(pass(inputs, checked));
        }
        let ratio = |hand: std::time::Duration| fastest[0].as_secs_f64() / hand.as_secs_f64();
        println!(
            "parcel_rate, the domain {order}: generated {:?}, hand-written {:?} ({:.2}x), hand-written with the range checks {:?} ({:.2}x) a pass (the fastest of 300 passes each, taken in turn)",
            fastest[0],
            fastest[1],
            ratio(fastest[1]),
            fastest[2],
            ratio(fastest[2])
        );
    }
    let mut g = c.benchmark_group("parcel_rate over 54,600 inputs");
    for (order, inputs) in [("", &inputs), (", shuffled", &mixed)] {
        g.bench_function(format!("generated Rust{order}"), |b| b.iter(|| total(inputs, generated)));
        g.bench_function(format!("hand-written match{order}"), |b| b.iter(|| total(inputs, by_hand)));
    }
    g.sample_size(10);
    g.bench_function("reference evaluator", |b| b.iter(|| black_box(&inputs).iter().map(reference).sum::<i64>()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
