//! Two versions of a rule as one program, so that the table analysis's own machinery — axes,
//! boxes, the cover tree, the linear model, the witness finder — can reason about both at
//! once. The joint program is the new version with the old one's inputs, derived values,
//! tables, defines and constraints added beside it:
//!
//! - an input both versions have is one input: its range is the intersection of the two
//!   (a call the region speaks of is one both doors take), and it is optional only when it is
//!   in both; an input only one version has is an input of the joint program;
//! - a derived value, a define or a table the old version has exactly as the new one (the
//!   same expression or rows over what is already shared) is the new one's; anything else
//!   is the old version's own, beside it;
//! - an enum is the new version's, with any value only the old version has added after it;
//!   old positions are mapped by name.
//!
//! Every constraint of both versions holds, so the joint model is what both declare.

use crate::analysis::tables::same_expr;
use crate::sema::*;
use serde_json::{json, Value as Json};

pub struct Joint {
    pub p: Program,
    /// Old variable → joint variable.
    pub old_var: Vec<VarId>,
    /// Old table → joint table (a table shared with the new version is the new one's).
    pub old_table: Vec<usize>,
    /// The joint variables only the old version has (added beside the new ones).
    pub old_only: Vec<bool>,
    /// How the two input domains differ (formats.md `domain`).
    pub domain: Vec<Json>,
}

/// How old ids become joint ids, while the joint program is built.
struct Map {
    old_var: Vec<VarId>,
    /// The old type of each old variable.
    old_ty: Vec<Ty>,
    enum_map: Vec<EnumId>,
    value_map: Vec<Vec<u32>>,
}

/// An input's declaration as the rule writes it: `rate[1%] 0%..100%`, `zone?`.
fn declared(p: &Program, v: &Var) -> Json {
    let ty = crate::sema::ty_name(&v.ty, &p.enums);
    let opt = if v.optional { "?" } else { "" };
    json!(match &v.range_text {
        Some(r) => format!("{ty}{opt} {r}"),
        None => format!("{ty}{opt}"),
    })
}

/// Whether two types hold the same kind of value (an enum by name, a number of one dimension).
fn compatible(a: &Ty, b: &Ty, old: &Program, new: &Program) -> bool {
    match (a, b) {
        (Ty::Enum(x), Ty::Enum(y)) => old.enums[*x].name == new.enums[*y].name,
        (Ty::Money { unit: u, .. }, Ty::Money { unit: w, .. }) | (Ty::Qty { unit: u }, Ty::Qty { unit: w }) => {
            u.dim == w.dim
        }
        (Ty::Rate { .. }, Ty::Rate { .. }) => true,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

impl Joint {
    pub fn build(old: &Program, new: &Program) -> Result<Joint, String> {
        let mut p = new.clone();
        p.expects.clear();
        let mut j = Map {
            old_var: vec![usize::MAX; old.vars.len()],
            old_ty: old.vars.iter().map(|v| v.ty.clone()).collect(),
            enum_map: Vec::new(),
            value_map: Vec::new(),
        };
        let mut old_table = vec![usize::MAX; old.tables.len()];
        let mut old_only = vec![false; new.vars.len()];
        let mut domain: Vec<Json> = Vec::new();
        // Enums: the new version's, extended.
        for e in &old.enums {
            let id = match p.enums.iter().position(|x| x.name == e.name) {
                Some(id) => id,
                None => {
                    p.enums.push(EnumIr { values: Vec::new(), ..e.clone() });
                    p.enums.len() - 1
                }
            };
            let mut positions = Vec::new();
            for v in &e.values {
                let pos = match p.enums[id].position(&v.name) {
                    Some(pos) => pos,
                    None => {
                        p.enums[id].values.push(v.clone());
                        p.enums[id].values.len() as u32 - 1
                    }
                };
                positions.push(pos);
            }
            j.enum_map.push(id);
            j.value_map.push(positions);
        }
        // Inputs: shared by name.
        for &ov in &old.inputs {
            let o = &old.vars[ov];
            match new.var_by_name(&o.name) {
                Some(nv) if new.vars[nv].kind == VarKind::Input => {
                    let n = &new.vars[nv];
                    if !compatible(&o.ty, &n.ty, old, new) {
                        return Err(format!(
                            "input `{}` holds another kind of value in each version; the region is one input space",
                            o.name
                        ));
                    }
                    let range = j.range_in(o, &p.vars[nv]);
                    let var = &mut p.vars[nv];
                    var.range = range;
                    var.optional = o.optional && n.optional;
                    if declared(old, o) != declared(new, n) {
                        domain.push(json!({"input": o.name, "old": declared(old, o), "new": declared(new, n)}));
                    }
                    j.old_var[ov] = nv;
                }
                Some(_) => {
                    return Err(format!(
                        "`{}` is an input of the old version and a derived value of the new one",
                        o.name
                    ))
                }
                None => {
                    let var = Var { ty: j.ty(&o.ty), range: j.range_of(o), ..o.clone() };
                    p.vars.push(var);
                    p.inputs.push(p.vars.len() - 1);
                    old_only.push(true);
                    j.old_var[ov] = p.vars.len() - 1;
                    domain.push(json!({"input": o.name, "old": declared(old, o), "new": null}));
                }
            }
        }
        for &nv in &new.inputs {
            if !old.inputs.iter().any(|&ov| old.vars[ov].name == new.vars[nv].name) {
                domain.push(json!({"input": new.vars[nv].name, "old": null, "new": declared(new, &new.vars[nv])}));
            }
        }
        for &no in &new.outputs {
            if !old.outputs.iter().any(|&oo| old.vars[oo].name == new.vars[no].name) {
                domain.push(json!({"output": new.vars[no].name, "old": null, "new": "declared"}));
            }
        }
        for &oo in &old.outputs {
            if !new.outputs.iter().any(|&no| new.vars[no].name == old.vars[oo].name) {
                domain.push(json!({"output": old.vars[oo].name, "old": "declared", "new": null}));
            }
        }
        // Derived values, defines and tables, in the old version's order.
        for step in &old.order {
            match *step {
                // A rule with walks is refused before a region is looked for.
                Step::Walk(_) => {}
                Step::Define(d) => {
                    let def = &old.defines[d];
                    let expr = j.expr(&def.expr);
                    let o = &old.vars[def.var];
                    let shared = new.var_by_name(&o.name).filter(|&nv| {
                        let n = &new.vars[nv];
                        matches!(n.decided_by, Some(Decider::Define(nd)) if same_expr(&expr, &new.defines[nd].expr))
                            && n.ty == j.ty(&o.ty)
                            && same_rounding(o, n)
                            && n.declared == o.declared
                    });
                    match shared {
                        Some(nv) => j.old_var[def.var] = nv,
                        None => {
                            let v = j.add_var(&mut p, &mut old_only, old, def.var);
                            p.vars[v].decided_by = Some(Decider::Define(p.defines.len()));
                            p.defines.push(DefineIr { var: v, expr, span: def.span });
                            p.order.push(Step::Define(p.defines.len() - 1));
                        }
                    }
                }
                Step::Table(t) => {
                    let table = &old.tables[t];
                    let conds: Vec<VarId> = table.conds.iter().map(|&c| j.old_var[c]).collect();
                    let rows: Vec<RowIr> = table
                        .rows
                        .iter()
                        .map(|r| RowIr {
                            conds: r.conds.iter().zip(&table.conds).map(|(c, &v)| j.cond(&old.vars[v].ty, c)).collect(),
                            results: r.results.iter().map(|e| e.as_ref().map(|e| j.expr(e))).collect(),
                            ..r.clone()
                        })
                        .collect();
                    let shared = new.tables.iter().position(|n| {
                        n.name == table.name
                            && n.policy == table.policy
                            && n.conds == conds
                            && n.results.len() == table.results.len()
                            && n.results.iter().zip(&table.results).all(|(&nr, &or)| {
                                let (a, b) = (&new.vars[nr], &old.vars[or]);
                                a.name == b.name && a.ty == j.ty(&b.ty) && same_rounding(b, a)
                            })
                            && n.rows.len() == rows.len()
                            && n.rows.iter().zip(&rows).all(|(x, y)| same_row(x, y))
                    });
                    match shared {
                        Some(nt) => {
                            old_table[t] = nt;
                            for (&or, &nr) in table.results.iter().zip(&new.tables[nt].results) {
                                j.old_var[or] = nr;
                            }
                        }
                        None => {
                            let results: Vec<VarId> =
                                table.results.iter().map(|&r| j.add_var(&mut p, &mut old_only, old, r)).collect();
                            let jt = p.tables.len();
                            for &r in &results {
                                p.vars[r].decided_by = Some(Decider::Table(jt));
                            }
                            p.tables.push(TableIr { conds, results, rows, ..table.clone() });
                            p.order.push(Step::Table(jt));
                            old_table[t] = jt;
                        }
                    }
                }
            }
        }
        for c in &old.constraints {
            p.constraints.push(ConstraintIr { expr: j.expr(&c.expr), ..c.clone() });
        }
        Ok(Joint { p, old_var: j.old_var, old_table, old_only, domain })
    }
}

impl Map {
    /// A joint variable for an old variable only the old version has.
    fn add_var(&mut self, p: &mut Program, old_only: &mut Vec<bool>, old: &Program, ov: VarId) -> VarId {
        let o = &old.vars[ov];
        let var = Var { ty: self.ty(&o.ty), range: self.range_of(o), decided_by: None, ..o.clone() };
        p.vars.push(var);
        old_only.push(true);
        self.old_var[ov] = p.vars.len() - 1;
        p.vars.len() - 1
    }

    fn ty(&self, t: &Ty) -> Ty {
        match t {
            Ty::Enum(e) => Ty::Enum(self.enum_map[*e]),
            t => t.clone(),
        }
    }

    fn value(&self, ty: &Ty, v: &Value) -> Value {
        match (ty, v) {
            (Ty::Enum(e), Value::Enum(i)) => Value::Enum(self.value_map[*e][*i as usize]),
            _ => v.clone(),
        }
    }

    fn range_of(&self, o: &Var) -> Option<(Value, Value)> {
        o.range.as_ref().map(|(lo, hi)| (self.value(&o.ty, lo), self.value(&o.ty, hi)))
    }

    /// The range a shared input has in the joint program: both versions' at once.
    fn range_in(&self, o: &Var, n: &Var) -> Option<(Value, Value)> {
        match (self.range_of(o), &n.range) {
            (None, r) => r.clone(),
            (r, None) => r,
            (Some((a, b)), Some((c, d))) => Some((a.max(c.clone()), b.min(d.clone()))),
        }
    }

    fn cond(&self, ty: &Ty, c: &CondIr) -> CondIr {
        match c {
            CondIr::Any => CondIr::Any,
            CondIr::Tests { negated, tests } => CondIr::Tests {
                negated: *negated,
                tests: tests
                    .iter()
                    .map(|t| match t {
                        TestIr::IsNone => TestIr::IsNone,
                        TestIr::OneOf(vs) => TestIr::OneOf(vs.iter().map(|v| self.value(ty, v)).collect()),
                        TestIr::Bounds(bs) => {
                            TestIr::Bounds(bs.iter().map(|(op, v)| (*op, self.value(ty, v))).collect())
                        }
                    })
                    .collect(),
            },
        }
    }

    /// An old expression over the joint variables.
    fn expr(&self, e: &TExpr) -> TExpr {
        let b = |x: &TExpr| Box::new(self.expr(x));
        let kind = match &e.kind {
            TExprKind::Const(v) => TExprKind::Const(self.value(&e.ty, v)),
            TExprKind::Var(v) => TExprKind::Var(self.old_var[*v]),
            TExprKind::Neg(x) => TExprKind::Neg(b(x)),
            TExprKind::Arith(op, x, y) => TExprKind::Arith(*op, b(x), b(y)),
            TExprKind::Cmp(op, x, y) => TExprKind::Cmp(*op, b(x), b(y)),
            TExprKind::Not(x) => TExprKind::Not(b(x)),
            TExprKind::And(x, y) => TExprKind::And(b(x), b(y)),
            TExprKind::Or(x, y) => TExprKind::Or(b(x), b(y)),
            TExprKind::Min(xs) => TExprKind::Min(xs.iter().map(|x| self.expr(x)).collect()),
            TExprKind::Max(xs) => TExprKind::Max(xs.iter().map(|x| self.expr(x)).collect()),
            TExprKind::Mod(x, y) => TExprKind::Mod(b(x), b(y)),
            TExprKind::Isqrt(x) => TExprKind::Isqrt(b(x)),
            TExprKind::Round { value, mode, grid } => {
                TExprKind::Round { value: b(value), mode: *mode, grid: grid.clone() }
            }
            TExprKind::If { cond, then, els } => TExprKind::If { cond: b(cond), then: b(then), els: b(els) },
            TExprKind::In { var, values } => {
                let ty = self.old_ty[*var].clone();
                TExprKind::In { var: self.old_var[*var], values: values.iter().map(|v| self.value(&ty, v)).collect() }
            }
        };
        TExpr { kind, ty: self.ty(&e.ty), grid: e.grid.clone(), span: e.span }
    }
}

fn same_rounding(a: &Var, b: &Var) -> bool {
    match (&a.rounding, &b.rounding) {
        (None, None) => true,
        (Some(x), Some(y)) => x.mode == y.mode && x.grid == y.grid,
        _ => false,
    }
}

/// Two rows with the same cells and results (over joint variables).
fn same_row(a: &RowIr, b: &RowIr) -> bool {
    a.conds.len() == b.conds.len()
        && a.conds.iter().zip(&b.conds).all(|(x, y)| same_cond(x, y))
        && a.results.len() == b.results.len()
        && a.results.iter().zip(&b.results).all(|(x, y)| match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => same_expr(x, y),
            _ => false,
        })
}

fn same_cond(a: &CondIr, b: &CondIr) -> bool {
    match (a, b) {
        (CondIr::Any, CondIr::Any) => true,
        (CondIr::Tests { negated: n, tests: x }, CondIr::Tests { negated: m, tests: y }) => {
            n == m
                && x.len() == y.len()
                && x.iter().zip(y).all(|(s, t)| match (s, t) {
                    (TestIr::IsNone, TestIr::IsNone) => true,
                    (TestIr::OneOf(u), TestIr::OneOf(w)) => u == w,
                    (TestIr::Bounds(u), TestIr::Bounds(w)) => u == w,
                    _ => false,
                })
        }
        _ => false,
    }
}
