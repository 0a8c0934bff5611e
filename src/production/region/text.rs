//! The region as it is written: coordinates for programs (`accepts`), and the rule's own
//! notation for people (`text`, and the lines a reviewer reads in a pull request).

use super::{Region, Unknown};
use crate::analysis::tables::axes::{Axis, AxisKind, Coord};
use crate::production::values::Plain;
use crate::sema::*;
use serde_json::{json, Map, Value as Json};

impl Region {
    /// The columns of a box that say anything, in the order a reader takes them in: truth
    /// values, then words, then numbers and dates.
    fn shown_axes(&self, ranges: &[(u32, u32)]) -> Vec<usize> {
        let mut ks: Vec<usize> =
            (0..self.axes.len()).filter(|&k| ranges[k] != (0, self.axes[k].len() as u32 - 1)).collect();
        let rank = |a: &Axis| match &self.joint.p.vars[a.var].ty {
            Ty::Bool => 0,
            Ty::Enum(_) | Ty::Str => 1,
            _ => 2,
        };
        ks.sort_by_key(|&k| (rank(&self.axes[k]), k));
        ks
    }

    fn column_name(&self, a: &Axis) -> String {
        let var = &self.joint.p.vars[a.var];
        if self.joint.old_only[a.var] && var.kind != VarKind::Input {
            format!("{} (old)", var.name)
        } else {
            var.name.clone()
        }
    }

    pub(super) fn columns_json(&self, ranges: &[(u32, u32)]) -> Json {
        let jp = &self.joint.p;
        let cols: Vec<Json> = self
            .shown_axes(ranges)
            .into_iter()
            .map(|k| {
                let a = &self.axes[k];
                let var = &jp.vars[a.var];
                let (lo, hi) = ranges[k];
                let accepts: Vec<Json> = (lo..=hi)
                    .map(|i| {
                        let i = i as usize;
                        match &a.coords[i] {
                            Coord::None => Json::Null,
                            Coord::OtherString => json!("(any other string)"),
                            Coord::Value(v) if i >= a.numeric => json!(Plain::of(jp, var, v).wire_text(var)),
                            c => {
                                let mut m = Map::new();
                                if let Some((l, h)) = c.numeric_bounds() {
                                    if let Some(l) = l {
                                        m.insert("from".into(), json!(Plain::Num(l.at).wire_text(var)));
                                        if l.open {
                                            m.insert("from_open".into(), json!(true));
                                        }
                                    }
                                    if let Some(h) = h {
                                        m.insert("to".into(), json!(Plain::Num(h.at).wire_text(var)));
                                        if h.open {
                                            m.insert("to_open".into(), json!(true));
                                        }
                                    }
                                }
                                Json::Object(m)
                            }
                        }
                    })
                    .collect();
                let mut m = Map::new();
                m.insert("column".into(), json!(var.name));
                m.insert("kind".into(), json!(if a.kind == AxisKind::Input { "input" } else { "derived" }));
                if self.joint.old_only[a.var] && var.kind != VarKind::Input {
                    m.insert("version".into(), json!("old"));
                }
                m.insert("accepts".into(), Json::Array(accepts));
                m.insert("text".into(), json!(self.column_text(a, ranges[k])));
                Json::Object(m)
            })
            .collect();
        Json::Array(cols)
    }

    /// One column of a box in the rule's notation: `weight >=11lb <=70lb`, `dest = north_america`.
    fn column_text(&self, a: &Axis, (lo, hi): (u32, u32)) -> String {
        let jp = &self.joint.p;
        let var = &jp.vars[a.var];
        let name = self.column_name(a);
        let show = |v: &Value| Plain::of(jp, var, v).display(var);
        let (lo, hi) = (lo as usize, hi as usize);
        let mut parts: Vec<String> = Vec::new();
        if lo < a.numeric {
            let last = hi.min(a.numeric - 1);
            let l = a.coords[lo].numeric_bounds().and_then(|b| b.0);
            let h = a.coords[last].numeric_bounds().and_then(|b| b.1);
            let text = match (&l, &h) {
                (Some(l), Some(h)) if l.at == h.at && !l.open && !h.open => {
                    format!("= {}", show(&Value::Num(l.at.clone())))
                }
                _ => {
                    let mut b = Vec::new();
                    if let Some(l) = &l {
                        b.push(format!("{}{}", if l.open { ">" } else { ">=" }, show(&Value::Num(l.at.clone()))));
                    }
                    if let Some(h) = &h {
                        b.push(format!("{}{}", if h.open { "<" } else { "<=" }, show(&Value::Num(h.at.clone()))));
                    }
                    b.join(" ")
                }
            };
            parts.push(text);
        }
        let words: Vec<usize> = (lo.max(a.numeric)..=hi).collect();
        if words.iter().any(|&i| a.coords[i] == Coord::OtherString) {
            let out: Vec<String> =
                (a.numeric..a.len()).filter(|i| !words.contains(i)).map(|i| show(&a.reps[i])).collect();
            return format!("{name} not: {}", out.join(", "));
        }
        let values: Vec<&Value> = words.iter().map(|&i| &a.reps[i]).collect();
        let group = match &var.ty {
            Ty::Enum(e) if values.len() > 1 => jp.groups.iter().find(|g| {
                g.enum_id == *e
                    && g.values.len() == values.len()
                    && values.iter().all(|v| matches!(v, Value::Enum(i) if g.values.contains(i)))
            }),
            _ => None,
        };
        let listed = match group {
            Some(g) => vec![g.name.clone()],
            None => values.iter().map(|v| show(v)).collect(),
        };
        if parts.is_empty() {
            return format!("{name} = {}", listed.join(", "));
        }
        parts.extend(listed);
        format!("{name} {}", parts.join(", "))
    }

    pub(super) fn box_text(&self, ranges: &[(u32, u32)]) -> String {
        let cols: Vec<String> =
            self.shown_axes(ranges).into_iter().map(|k| self.column_text(&self.axes[k], ranges[k])).collect();
        if cols.is_empty() {
            "every input".into()
        } else {
            cols.join("  and  ")
        }
    }

    /// For people: what changed, then one line per box.
    pub fn text(&self) -> String {
        let mut s =
            format!("{}: {} (v{}) → {} (v{})\n", self.rule, self.old, self.old_version, self.new, self.new_version);
        if self.over_budget {
            s.push_str("over budget: the analysis stopped before it was done; raise --budget\n");
        }
        s.push_str(&format!(
            "{} of {} cells differ ({} the same, {} no input reaches",
            self.differing,
            self.cells,
            self.same,
            &self.cells - &self.feasible
        ));
        if !self.total() {
            s.push_str(&format!(", {} unsettled, {} unrealized", self.unsettled, self.unrealized));
        }
        s.push_str(")\n");
        for c in &self.changes {
            let g = &self.groups[c.group];
            let moved: Vec<String> = c.witness.shown.iter().map(|(o, a, b)| format!("{o} {a} → {b}")).collect();
            let rows: Vec<String> = g
                .new_rows
                .iter()
                .filter_map(|(t, r)| {
                    let old = g.old_rows.iter().find(|(u, _)| u == t).map(|(_, r)| *r);
                    match old {
                        Some(o) if o == *r => None,
                        Some(o) => Some(format!("{t} row {o} → {r}")),
                        None => Some(format!("{t} row (none) → {r}")),
                    }
                })
                .collect();
            let rows = if rows.is_empty() { String::new() } else { format!("; {}", rows.join(", ")) };
            let at = if g.uniform {
                String::new()
            } else {
                let jp = &self.joint.p;
                let w: Vec<String> = jp
                    .inputs
                    .iter()
                    .zip(&c.witness.inputs)
                    .map(|(&v, x)| {
                        format!("{} = {}", jp.vars[v].name, Plain::of(jp, &jp.vars[v], x).display(&jp.vars[v]))
                    })
                    .collect();
                format!(" (for example at {}; the amounts vary in the box)", w.join(", "))
            };
            s.push_str(&format!(
                "  {}: {}{at} [{} cell{}{rows}]\n",
                self.box_text(&c.ranges),
                moved.join(", "),
                c.cells,
                if c.cells == 1u32.into() { "" } else { "s" }
            ));
        }
        for Unknown { ranges, unrealized, cells } in &self.unknown {
            s.push_str(&format!(
                "  {}: {} [{cells} cells]\n",
                self.box_text(ranges),
                if *unrealized {
                    "undecided: no input was found here, and the model cannot rule one out"
                } else {
                    "undecided: the two versions compute this differently, and no input found tells them apart"
                }
            ));
        }
        for d in &self.domain {
            s.push_str(&format!("  domain: {d}\n"));
        }
        s
    }
}
