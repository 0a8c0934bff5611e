//! The diagnostics: E107, E108 and the findings left pending, each with a witness where one is found.

use super::*;

impl<'a> Values<'a> {
    pub(super) fn report_range(&mut self, v: VarId, declared: &Iv, proven: &Iv) {
        let p = self.p;
        let var = &p.vars[v];
        let ty = &var.ty;
        let union = (declared.0.clone().min(proven.0.clone()), declared.1.clone().max(proven.1.clone()));
        let text = self.show_iv(ty, &union);
        let span = var.range_span.unwrap_or(var.span);
        let declared_text = var.range_text.clone().unwrap_or_else(|| self.show_iv(ty, declared));
        let high = proven.1 > declared.1;
        // A witness: inputs that take the value out of its range, confirmed by the evaluator.
        let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
            let out = eval::evaluate(p, inputs).ok()?;
            let x = value_num(&out.values[v])?.clone();
            Some((1, if high { x } else { -x }))
        };
        let root = self.root;
        // First where the case that takes it furthest reaches its bound.
        let mut starts: Vec<Vec<Value>> = self.extreme_point(v, high).into_iter().collect();
        starts.extend(self.fold_starts[v].iter().cloned());
        starts.extend(self.linear_point(&[]));
        let found = self.search(root, &score, starts).and_then(|(w, (_, s))| {
            let x = if high { s } else { -s };
            (x > declared.1 || x < declared.0).then_some((w, x))
        });
        let proven_text = self.show_iv(ty, proven);
        let mut d = match &found {
            Some((_, x)) => Diagnostic::new(
                "E107",
                p.file,
                span,
                format!("`{}` can reach {}, outside its declared range {declared_text}", var.name, self.show(ty, x)),
            )
            .label(format!("the checker proves {proven_text}")),
            None => Diagnostic::new(
                "E107",
                p.file,
                span,
                format!("`{}` is not proven to stay inside its declared range {declared_text}", var.name),
            )
            .label(format!("the checker bounds it by {proven_text}")),
        };
        d = d.secondary(p.file, var.span, format!("`{}` is computed from its inputs", var.name));
        d = match &found {
            Some((w, x)) => d
                .note(format!("the value lies in {proven_text} over every input the rule is asked about"))
                .note(format!("with the witness's inputs `{}` is {}", var.name, self.show(ty, x)))
                .witness(json!({"inputs": wire::inputs_json(p, w)})),
            None => {
                d = d.note(format!(
                    "not proven: the checker bounds `{}` by {proven_text} over every input the rule is asked about, and found no input that takes it outside {declared_text}",
                    var.name
                ));
                if self.short.get() {
                    d = d.note("the linear reasoning ran out of its budget on the way, so the bound may be looser than the rule's (`rulec check --budget N` raises it)");
                }
                d
            }
        };
        d = d
            .note("the fix widens the range to what the checker can prove; whether the computation or the range is wrong is a business decision")
            .help(format!("widen the range to `{text}`, or change what computes `{}`", var.name))
            .fix("widen_range", text, Some((p.file, span)));
        self.diags.push(d);
    }

    /// E108 for a sum's running total: the integer the code adds the rows' values into, over
    /// every set of rows that can hold together (`running`, in base units).
    pub(super) fn report_running_sum(&mut self, t: usize, running: &Iv) {
        let p = self.p;
        let table = &p.tables[t];
        let v = table.results[0];
        let var = &p.vars[v];
        let f = var.ty.factor();
        let (lo, hi) = ((&running.0 / &f).floor().to_integer(), (&running.1 / &f).ceil().to_integer());
        let high = hi > scale::i64_max();
        if !high && lo >= scale::i64_min() {
            return;
        }
        let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
            let out = eval::evaluate(p, inputs).ok()?;
            let x = value_num(&out.values[v])? / &f;
            Some((1, if high { x } else { -x }))
        };
        let mut starts = self.fold_starts[v].clone();
        starts.extend(self.linear_point(&[]));
        let confirmed = self.search(self.root, &score, starts).and_then(|(w, (_, s))| {
            let x = if high { s } else { -s };
            (x > Rat::from_integer(scale::i64_max()) || x < Rat::from_integer(scale::i64_min())).then_some((w, x))
        });
        let name = &table.name;
        let bound = if high { hi.to_string() } else { lo.to_string() };
        let d = match &confirmed {
            Some((w, x)) => {
                let x = num::to_decimal_string(x);
                Diagnostic::new("E108", p.file, table.name_span, format!("table `{name}`: the sum of `{}` overflows int64", var.name))
                    .label(format!("reaches {x}"))
                    .note(format!("the rows that hold together for the witness's inputs add up to {x}; int64 holds {}", int64_text()))
                    .witness(json!({"inputs": wire::inputs_json(p, w)}))
            }
            None => Diagnostic::new("E108", p.file, table.name_span, format!("table `{name}`: the sum of `{}` is not proven to fit in int64", var.name))
                .label(format!("bounded by {bound}"))
                .note(format!("not proven: the rows that can hold together add up to as much as {bound}, beyond int64 ({}), and no input was found that takes the sum there", int64_text())),
        };
        let d = d.in_table(name).help("narrow the rows' values or the input ranges, so that the rows that can hold together add up to what int64 holds");
        self.diags.push(d);
    }

    pub(super) fn report_overflow(&mut self, root: Root, at: Failure<'a, '_>, int: &Inter) {
        let p = self.p;
        let high = int.hi.floor().to_integer() > scale::i64_max();
        let bound = if high { int.hi.floor().to_integer() } else { int.lo.ceil().to_integer() };
        let span = match &at {
            Failure::Node(r) => r.e.span,
            Failure::Store { e, .. } => e.span,
        };
        let text = self.src(span);
        let what = self.describe(&at, int);
        // A witness: the inputs that push this integer furthest.
        let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
            let (values, fires) = self.values_at(root, inputs).ok()?;
            let x = self.inter_at(&at, int, &values, high)?;
            Some((u8::from(fires), if high { x } else { -x }))
        };
        let found = self.search(root, &score, self.linear_point(&[]).into_iter().collect());
        let confirmed = found.as_ref().and_then(|(w, (fires, s))| {
            let x = if high { s.clone() } else { -s.clone() };
            let beyond = x > Rat::from_integer(scale::i64_max()) || x < Rat::from_integer(scale::i64_min());
            (*fires == 1 && beyond).then(|| (w.clone(), x))
        });
        let help = "narrow the input ranges, or reorder the arithmetic so every step stays small (divide or round before multiplying)";
        let d = match (&confirmed, &found) {
            (Some((w, x)), _) => {
                let x = num::to_decimal_string(x);
                Diagnostic::new("E108", p.file, span, format!("`{text}` overflows int64"))
                    .label(format!("reaches {x}"))
                    .note(format!("{what} reaches {x} with the witness's inputs; int64 holds {}", int64_text()))
                    .witness(json!({"inputs": wire::inputs_json(p, w)}))
            }
            (None, found) => {
                let mut d = Diagnostic::new("E108", p.file, span, format!("`{text}` is not proven to fit in int64"))
                    .label(format!("bounded by {bound}"))
                    .note(format!(
                        "not proven: {what} is bounded by {bound}, beyond int64 ({}), and no input was found that takes it there",
                        int64_text()
                    ));
                if let Some((_, (_, s))) = found {
                    let x = if high { s.clone() } else { -s.clone() };
                    d = d.note(format!("the furthest the inputs tried take it is {}", num::to_decimal_string(&x)));
                }
                if self.short.get() {
                    d = d.note(
                        "the linear reasoning ran out of its budget on the way (`rulec check --budget N` raises it)",
                    );
                }
                d
            }
        };
        self.diags.push(d.help(help));
    }

    /// A sentence naming the integer that overflows.
    pub(super) fn describe(&self, at: &Failure, int: &Inter) -> String {
        match at {
            Failure::Node(r) => {
                let text = self.src(r.e.span);
                let kid_text = |i: usize| scale::children(r.e).get(i).map(|k| self.src(k.span)).unwrap_or("");
                let step = r.s.scale.as_ref().map(|s| self.step_text(&r.e.ty, s)).unwrap_or_default();
                let w = int.what.as_str();
                if w == "value" {
                    format!("`{text}` is held as a whole number of steps of {step}; it")
                } else if let Some(rest) = w.strip_prefix("operand ") {
                    let (i, k) = rest.split_once(" × ").unwrap_or((rest, "1"));
                    let i: usize = i.parse().unwrap_or(1);
                    if matches!(r.s.op, Op::Round { .. } | Op::Isqrt { .. }) || i == 0 {
                        format!("`{}` is multiplied by {k} before it is divided; the product", kid_text(0))
                    } else {
                        format!(
                            "to meet the other operands at steps of {step}, `{}` is multiplied by {k}; the product",
                            kid_text(i - 1)
                        )
                    }
                } else if w.starts_with("numerator") {
                    format!("the numerator of `{text}` ({w})")
                } else if w.starts_with("denominator") {
                    format!("the denominator of `{text}` ({w})")
                } else if w == "the divisor's magnitude" {
                    format!("the magnitude of the divisor `{}`", kid_text(1))
                } else {
                    format!("{w} of `{text}`")
                }
            }
            Failure::Store { st, e, .. } => {
                let var = &self.p.vars[st.var];
                if int.what == "stored" {
                    format!(
                        "`{}` is stored as a whole number of {}; it",
                        var.name,
                        self.step_text(&var.ty, &var.ty.factor())
                    )
                } else {
                    format!("storing `{}` into `{}` computes its {}; that", self.src(e.span), var.name, int.what)
                }
            }
        }
    }

    pub(super) fn step_text(&self, ty: &Ty, s: &Rat) -> String {
        match ty {
            Ty::Int | Ty::Number | Ty::Date => num::to_decimal_string(s),
            _ => self.show(ty, s),
        }
    }

    pub(super) fn report_pending(&mut self, pd: Pending<'a>) {
        let p = self.p;
        match pd {
            Pending::ZeroDivisor { node, divisor, env, root } => {
                let dtext = self.src(divisor.span);
                let ntext = self.src(node.span);
                let help = format!(
                    "guard the division (`if {dtext} != 0 then … else …`), or exclude 0 from what the inputs may be"
                );
                let mut extra = env.facts.clone();
                if let Some(lin) = model::linear_of(divisor) {
                    extra.extend(eq_facts(&lin, &Rat::zero()));
                }
                let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
                    match self.values_at(root, inputs) {
                        Err(EvalError::DivisionByZero) => Some((3, Rat::zero())),
                        Err(_) => None,
                        Ok((values, fires)) => {
                            if root_divides(root, p, &values) {
                                return Some((3, Rat::zero()));
                            }
                            let x = eval::eval_expr(divisor, &values).ok()?;
                            Some((if fires { 2 } else { 1 }, -value_num(&x)?.abs()))
                        }
                    }
                };
                let starts: Vec<Vec<Value>> =
                    self.linear_point(&extra).into_iter().chain(self.linear_point(&env.facts)).collect();
                let d = match self.search(root, &score, starts) {
                    Some((w, (3, _))) => {
                        Diagnostic::new("E132", p.file, divisor.span, format!("`{dtext}` can be zero where `{ntext}` divides by it"))
                            .label("zero with the witness's inputs")
                            .note("with the witness's inputs the reference evaluator divides by zero")
                            .witness(json!({"inputs": wire::inputs_json(p, &w)}))
                    }
                    _ => Diagnostic::new(
                        "E132",
                        p.file,
                        divisor.span,
                        format!("`{dtext}` is not proven nonzero where `{ntext}` divides by it"),
                    )
                    .label("not proven nonzero")
                    .note("not proven: the checker cannot show the divisor is never zero over the inputs the rule is asked about, and found no input that makes it zero"),
                };
                self.diags.push(d.help(help));
            }
            Pending::NegativeRoot { node, arg, env, root } => {
                let atext = self.src(arg.span);
                let ntext = self.src(node.span);
                let help =
                    format!("take the root of a value that cannot be negative, such as `isqrt(max({atext}, 0))`");
                let score = |inputs: &[Value]| -> Option<(u8, Rat)> {
                    match self.values_at(root, inputs) {
                        Err(EvalError::NegativeRoot) => Some((3, Rat::zero())),
                        Err(_) => None,
                        Ok((values, fires)) => {
                            let x = eval::eval_expr(arg, &values).ok()?;
                            Some((if fires { 2 } else { 1 }, -value_num(&x)?.clone()))
                        }
                    }
                };
                let mut extra = env.facts.clone();
                if let Some(lin) = model::linear_of(arg) {
                    extra.push(Fact::le(&lin, &Lin::constant(Rat::zero()), true));
                }
                let starts: Vec<Vec<Value>> = self.linear_point(&extra).into_iter().collect();
                let d = match self.search(root, &score, starts) {
                    Some((w, (3, _))) => Diagnostic::new(
                        "E134",
                        p.file,
                        arg.span,
                        format!("`{atext}` can be negative where `{ntext}` takes its root"),
                    )
                    .label("below zero with the witness's inputs")
                    .note("with the witness's inputs the reference evaluator takes the root of a negative number")
                    .witness(json!({"inputs": wire::inputs_json(p, &w)})),
                    _ => Diagnostic::new(
                        "E134",
                        p.file,
                        arg.span,
                        format!("`{atext}` is not proven non-negative where `{ntext}` takes its root"),
                    )
                    .label("not proven non-negative")
                    .note("not proven: the checker cannot show the value is never negative over the inputs the rule is asked about, and found no input that makes it negative"),
                };
                self.diags.push(d.help(help));
            }
        }
    }

    pub(super) fn check_input(&mut self, v: VarId) {
        let p = self.p;
        let var = &p.vars[v];
        let Some(iv) = &self.raw[v] else { return };
        let f = var.ty.factor();
        let int = Inter { what: "stored".into(), lo: &iv.0 / &f, hi: &iv.1 / &f };
        if int.fits() {
            return;
        }
        let span = var.range_span.unwrap_or(var.span);
        self.diags.push(
            Diagnostic::new("E108", p.file, span, format!("input `{}` may not fit in int64", var.name))
                .label(format!("reaches {}", int.max_abs()))
                .note(format!("an input is passed as a whole number of its unit; int64 holds {}", int64_text()))
                .help("declare a range whose ends fit in int64"),
        );
    }
}
