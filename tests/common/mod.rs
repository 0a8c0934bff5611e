//! What more than one test file needs: a rule's program, calls drawn at random, and whether
//! a tool is installed. (Each test file uses some of it.)
#![allow(dead_code)]

use rulec::eval::wire;
use rulec::sema::{Program, Ty, Value};
use serde_json::Value as Json;
use std::path::Path;

/// Whether a program is on PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// The program of a rule that checks clean.
pub fn program(path: &Path) -> Program {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()).unwrap();
    assert!(!checked.has_errors(), "{} checks clean", path.display());
    checked.program.unwrap()
}

/// A deterministic generator for calls.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A call with every input drawn in its declared range, as its wire JSON.
pub fn random_call(p: &Program, rng: &mut Lcg) -> Json {
    let mut m = serde_json::Map::new();
    for &v in &p.inputs {
        let var = &p.vars[v];
        if var.optional && rng.below(5) == 0 {
            continue;
        }
        let value = match (&var.ty, &var.range) {
            (Ty::Bool, _) => Value::Bool(rng.below(2) == 1),
            (Ty::Enum(e), r) => {
                let (lo, hi) = match r {
                    Some((Value::Enum(a), Value::Enum(b))) => (*a as u64, *b as u64),
                    _ => (0, p.enums[*e].values.len() as u64 - 1),
                };
                Value::Enum((lo + rng.below(hi - lo + 1)) as u32)
            }
            (t, Some((Value::Num(lo), Value::Num(hi)))) => {
                let (lo, hi) = ((lo / t.factor()).to_integer(), (hi / t.factor()).to_integer());
                let span: u64 = (&hi - &lo + 1u32).try_into().unwrap_or(u64::MAX);
                // Near the ends half the time: where the boundaries and the limits are.
                let k = match rng.below(4) {
                    0 => rng.below(span.min(50)),
                    1 => span - 1 - rng.below(span.min(50)),
                    _ => rng.below(span),
                };
                Value::Num(rulec::num::big(lo + k) * t.factor())
            }
            _ => Value::Str(["JP", "KR", "FR", ""][rng.below(4) as usize].to_string()),
        };
        m.insert(var.name.clone(), wire::to_wire(p, var, &value));
    }
    Json::Object(m)
}
