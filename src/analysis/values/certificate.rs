//! The certificate's entries: every value with its interval, as JSON.

use super::*;

impl<'a> Values<'a> {
    pub(super) fn var_entry(&mut self, v: VarId) {
        let p = self.p;
        let var = &p.vars[v];
        let Some(iv) = self.iv[v].clone() else { return };
        let expr = match var.decided_by {
            Some(Decider::Define(d)) => Some(self.expr_json(&p.defines[d].expr)),
            Some(Decider::Table(t)) => Some(json!({"table": p.tables[t].name})),
            Some(Decider::Summary(_) | Decider::Fold(_)) | None => None,
        };
        let sc = self.ann.var_scale[v].clone().unwrap_or_else(|| var.ty.factor());
        let int = Inter { what: "stored".into(), lo: &iv.0 / &sc, hi: &iv.1 / &sc };
        let entry = self.entry((var.name.clone(), None), &var.ty, expr, &iv, &sc, &[int]);
        self.entries.push(entry);
    }

    pub(super) fn entry(
        &self,
        (name, of): (String, Option<String>),
        ty: &Ty,
        expr: Option<Json>,
        iv: &Iv,
        sc: &Rat,
        ints: &[Inter],
    ) -> ValueEntry {
        let f = ty.factor();
        let end = |x: &Rat| {
            if *ty == Ty::Date {
                num::to_i64(x).map(date::format_days).unwrap_or_else(|| num::to_decimal_string(x))
            } else {
                num::to_decimal_string(&(x / &f))
            }
        };
        let stored_max = ints.first().map(Inter::max_abs).unwrap_or_default();
        let intermediates = ints.iter().skip(1).map(|i| (i.what.clone(), i.max_abs())).collect();
        let ty_text = match ty {
            Ty::Number => "number".to_string(),
            t => ty_name(t, &self.p.enums),
        };
        ValueEntry {
            name,
            of,
            ty: ty_text,
            expr,
            interval: (end(&iv.0), end(&iv.1)),
            scale: sc / &f,
            stored_max,
            intermediates,
        }
    }

    pub(super) fn expr_json(&self, e: &TExpr) -> Json {
        let p = self.p;
        let j = |x: &TExpr| self.expr_json(x);
        match &e.kind {
            TExprKind::Const(v) => json!({"lit": wire::display(p, &e.ty, v)}),
            TExprKind::Var(v) => json!({"name": p.vars[*v].name}),
            TExprKind::Neg(x) => json!({"op": "neg", "x": j(x)}),
            TExprKind::Arith(op, a, b) => json!({"op": op.as_str(), "l": j(a), "r": j(b)}),
            TExprKind::Cmp(op, a, b) => json!({"op": op.as_str(), "l": j(a), "r": j(b)}),
            TExprKind::Not(x) => json!({"op": "not", "x": j(x)}),
            TExprKind::And(a, b) => json!({"op": "and", "l": j(a), "r": j(b)}),
            TExprKind::Or(a, b) => json!({"op": "or", "l": j(a), "r": j(b)}),
            TExprKind::Min(xs) => json!({"op": "min", "args": xs.iter().map(j).collect::<Vec<_>>()}),
            TExprKind::Max(xs) => json!({"op": "max", "args": xs.iter().map(j).collect::<Vec<_>>()}),
            TExprKind::Mod(a, b) => json!({"op": "mod", "l": j(a), "r": j(b)}),
            TExprKind::Isqrt(x) => json!({"op": "isqrt", "x": j(x)}),
            TExprKind::Round { value, mode, grid } => {
                json!({"op": "round", "x": j(value), "mode": mode.as_str(), "grid": self.show(&e.ty, grid)})
            }
            TExprKind::If { cond, then, els } => json!({"op": "if", "cond": j(cond), "then": j(then), "else": j(els)}),
            TExprKind::In { var, values } => {
                let ty = &p.vars[*var].ty;
                let vals: Vec<String> = values.iter().map(|v| wire::display(p, ty, v)).collect();
                json!({"op": "in", "name": p.vars[*var].name, "values": vals})
            }
        }
    }
}
