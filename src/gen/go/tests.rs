//! The Go printer held to gofmt: random expressions over a rule's inputs, printed and
//! formatted by gofmt, must come out unchanged.

use super::*;
use crate::gen::plan::{Arith, Plan};
use crate::num::RoundMode;
use crate::syntax::ast::CmpOp;

const RULE: &str = "rule t v1\n\nenum level: low < mid < high\n\ninput a: int -100..100\ninput b: int -100..100\ninput p: int? 0..10\ninput lvl: level\n\noutput o: int -300..300\ndefine o = a + b\n";

/// A deterministic stream of small numbers (no dependency for randomness).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random expression over the rule's inputs `a`, `b`, `p` (optional) and `lvl`: the
/// printer lays out whatever nodes it is given, whether or not they would type-check.
fn random(r: &mut Lcg, plan: &Plan, depth: usize) -> Expr {
    let var = |name: &str, optional: bool| {
        let v = plan.vars.iter().position(|x| x.name == name).unwrap();
        Expr { kind: plan.var(v).kind, optional, node: Node::Var(v) }
    };
    let p = plan.vars.iter().position(|x| x.name == "p").unwrap();
    if depth == 0 {
        return match r.next(6) {
            0 => Expr::int(-(r.next(20) as i64)),
            1 => var("p", false),
            2 => Expr::int(r.next(100) as i64),
            3 => Expr::new(var("lvl", false).kind, Node::Member(r.next(3) as u32)),
            _ => var(["a", "b", "lvl"][r.next(3) as usize], false),
        };
    }
    let kid = |r: &mut Lcg| Box::new(random(r, plan, depth - 1));
    let cmps = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Ge];
    let arith = [Arith::Add, Arith::Sub, Arith::Mul];
    match r.next(16) {
        0 => Expr::num(Node::Neg(kid(r))),
        1 => Expr::negate(*kid(r)),
        2 => Expr::num(Node::DivRound(kid(r), kid(r), RoundMode::HalfEven)),
        3 => Expr::num(Node::Mod(kid(r), kid(r))),
        4 => Expr::num(Node::Min((0..2 + r.next(2)).map(|_| *kid(r)).collect())),
        5 => Expr::num(Node::DivExact(kid(r), 1 + r.next(9) as i64)),
        6 => Expr::num(Node::If(kid(r), kid(r), kid(r))),
        7 => Expr::bool(Node::OneOf(kid(r), (0..1 + r.next(3)).map(|_| *kid(r)).collect())),
        8 => Expr::bool(Node::Present(p, kid(r))),
        9 => Expr::bool(Node::IsNone(p)),
        10 | 11 => Expr::cmp(cmps[r.next(4) as usize], *kid(r), *kid(r)),
        12 => Expr::bool(Node::And(kid(r), kid(r))),
        13 => Expr::or(*kid(r), *kid(r)),
        _ => Expr::num(Node::Arith(arith[r.next(3) as usize], kid(r), kid(r))),
    }
}

/// The printer agrees with gofmt: random expressions, printed where the generated code
/// prints them (an assignment, an `if`, a call's arguments, a composite literal), come
/// back from `gofmt -d` unchanged. Skipped without gofmt (a failure under CI).
/// GOFMT_FUZZ and GOFMT_SEED run more of them, or others.
#[test]
fn expressions_print_as_gofmt_prints_them() {
    if std::process::Command::new("gofmt").arg("-h").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "gofmt is not on PATH, and CI is set");
        eprintln!("note: gofmt is not on PATH; the printer is not compared with it");
        return;
    }
    let mut sources = crate::Sources::new();
    let checked = crate::check_text(&mut sources, "t.rule", RULE, &Default::default());
    let unit = crate::gen::Unit::of(&checked, &sources).expect("the rule checks clean");
    let names = unit.names(Lang::Go);
    let g = Spell::new(&unit.plan, &names);
    let mut r = Lcg(std::env::var("GOFMT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7));
    let n: usize = std::env::var("GOFMT_FUZZ").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
    let mut src = String::from("package p\n\nfunc g() {\n");
    for i in 0..n {
        let e = random(&mut r, &unit.plan, 1 + i % 5);
        let line = match i % 4 {
            0 => format!("x = {}", g.top(&e)),
            1 => format!("if {} {{\n\tx = 1\n}}", g.top(&e)),
            2 => {
                let call =
                    Expr::num(Node::DivRound(Box::new(e), Box::new(random(&mut r, &unit.plan, 2)), RoundMode::Up));
                format!("x = {}", g.top(&call))
            }
            _ => format!("x = T{{A: {}, B: 1}}", g.top(&e)),
        };
        src.push_str(&format!("\t{}\n", indent_rest(&line, 1)));
    }
    src.push_str("}\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.go");
    std::fs::write(&file, &src).unwrap();
    let out = std::process::Command::new("gofmt").arg("-d").arg(&file).output().unwrap();
    assert!(out.status.success(), "gofmt: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "gofmt would change:\n{}", String::from_utf8_lossy(&out.stdout));
}
