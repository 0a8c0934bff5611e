//! The plan, run: the one "language" that needs no toolchain. It reads a call in the wire
//! form through the plan's door, runs the rule's statement tree over i64 exactly as
//! generated code does ([`super::run`]), and writes the record line from the plan's record
//! layout. Held to the reference evaluator on every vector (tests/door.rs), it shows the plan
//! — not only each backend — says what the rule says.

use super::value::{eval, Refused, V};
use crate::eval::wire::WireKind;
use crate::gen::plan::{BoundaryTy, InputDoor, Kind, Piece, Plan, RangeCheck, SequencePlan};
use crate::num::date;
use serde_json::Value as Json;

fn input(what: &str) -> Refused {
    Refused { kind: "input", what: what.to_string() }
}

/// The line a runner prints for one vectors line: the record, or the refusal.
pub fn line(plan: &Plan, text: &str) -> String {
    let call = serde_json::from_str::<Json>(text).ok().map(|top| match top.get("in") {
        Some(inner) if top.is_object() => inner.clone(),
        _ => top,
    });
    match call.as_ref().map(|c| run(plan, c)).unwrap_or_else(|| Err(input(&plan.door.not_an_object))) {
        Ok(record) => record,
        Err(r) => serde_json::json!({"refused": r.kind, "error": r.what}).to_string(),
    }
}

/// One call through the door, the steps and the record.
pub fn run(plan: &Plan, call: &Json) -> Result<String, Refused> {
    let obj = call.as_object().ok_or_else(|| input(&plan.door.not_an_object))?;
    let mut vals = super::run::fresh(plan);
    for d in &plan.door.inputs {
        vals[d.var] = read(plan, d, obj.get(&d.name))?;
    }
    for c in &plan.door.constraints {
        if c.optionals.iter().any(|&v| vals[v] == V::Absent) {
            continue;
        }
        if eval(&c.test, &vals) == V::Bool(false) {
            return Err(input(&c.sentence));
        }
    }
    for s in &plan.sequences {
        vals[s.list] = sequence(plan, s, obj.get(&s.name))?;
    }
    let named =
        |k: &String| plan.door.inputs.iter().any(|d| &d.name == k) || plan.sequences.iter().any(|s| &s.name == k);
    if let Some(key) = obj.keys().find(|k| !named(k)) {
        return Err(input(&format!("{key}{}", plan.door.not_an_input)));
    }
    let mut trace = super::run::Trace::default();
    let body = super::body(plan, &super::Facts::PLAIN);
    super::run::stmts(plan, &body, &mut vals, &mut trace)?;
    let trace: Vec<String> = trace
        .fired
        .iter()
        .map(|(table, row)| format!("{{\"table\":{},\"row\":{row}}}", Json::from(table.as_str())))
        .collect();
    let mut out = String::from("{");
    for piece in &plan.record {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Input(v) | Piece::Output(v) => out.push_str(&wire_text(plan, *v, &vals[*v])),
        }
    }
    out.push_str(&trace.join(","));
    out.push_str("]}");
    Ok(out)
}

/// A sequence through the door: an array of at most its count of objects, each field read
/// as an input of its type is, each sentence naming the element's place; then a key that
/// names no field.
fn sequence(plan: &Plan, s: &SequencePlan, raw: Option<&Json>) -> Result<V, Refused> {
    let items = match raw {
        None | Some(Json::Null) => return Err(input(&crate::eval::wire::sentence::missing(&s.name))),
        Some(Json::Array(items)) => items,
        Some(_) => return Err(input(&s.not_a_sequence)),
    };
    if items.len() > s.max as usize {
        return Err(input(&s.too_many));
    }
    let mut out = Vec::with_capacity(items.len());
    for (at, item) in items.iter().enumerate() {
        let place = format!("{}[{at}]", s.name);
        let Json::Object(fields) = item else { return Err(input(&format!("{place}{}", s.not_an_element))) };
        let mut values = Vec::with_capacity(s.fields.len());
        for f in &s.fields {
            let range = f.range.as_ref().map(|(lo, hi, said)| RangeCheck {
                lo: *lo,
                hi: *hi,
                sentence: format!("{place}{said}"),
                outside: crate::gen::plan::Expr::truth(false),
            });
            let door = InputDoor {
                var: f.var,
                name: f.name.clone(),
                optional: false,
                kind: f.kind,
                missing: format!("{place}{}", f.missing),
                not_of_kind: format!("{place}{}", f.not_of_kind),
                range,
            };
            values.push(read(plan, &door, fields.get(&f.name))?);
        }
        if let Some(key) = fields.keys().find(|k| !s.fields.iter().any(|f| &f.name == *k)) {
            return Err(input(&crate::eval::wire::sentence::not_a_field(&place, key)));
        }
        out.push(V::List(values));
    }
    Ok(V::List(out))
}

fn read(plan: &Plan, d: &InputDoor, raw: Option<&Json>) -> Result<V, Refused> {
    let raw = match raw {
        None | Some(Json::Null) if d.optional => return Ok(V::Absent),
        None | Some(Json::Null) => return Err(input(&d.missing)),
        Some(x) => x,
    };
    let kind = || input(&d.not_of_kind);
    let v = match d.kind {
        WireKind::Boolean => V::Bool(raw.as_bool().ok_or_else(kind)?),
        WireKind::Text => V::Str(raw.as_str().ok_or_else(kind)?.to_string()),
        WireKind::Date => V::Int(raw.as_str().and_then(date::parse).ok_or_else(kind)?),
        WireKind::Enum(e) => {
            let name = raw.as_str().ok_or_else(kind)?;
            let pos = plan.enums[e].values.iter().position(|m| m.name == name).ok_or_else(kind)?;
            V::Member(pos as u32)
        }
        WireKind::Integer => {
            let Json::Number(n) = raw else { return Err(kind()) };
            let text = n.to_string();
            match crate::num::parse_decimal(&text).filter(|r| r.is_integer()) {
                Some(r) => match i64::try_from(r.to_integer()) {
                    Ok(i) => V::Int(i),
                    Err(_) => return Err(input(&d.range.as_ref().expect("a counted input has a range").sentence)),
                },
                None if crate::num::decimal_is_whole(&text) == Some(true) => {
                    return Err(input(&d.range.as_ref().expect("a counted input has a range").sentence))
                }
                None => return Err(kind()),
            }
        }
    };
    if let Some(r) = &d.range {
        let at = match &v {
            V::Int(i) => *i,
            V::Member(m) => *m as i64,
            _ => unreachable!("a range over numbers or places"),
        };
        if at < r.lo || at > r.hi {
            return Err(input(&r.sentence));
        }
    }
    Ok(v)
}

fn wire_text(plan: &Plan, v: usize, x: &V) -> String {
    match x {
        V::Absent => "null".into(),
        V::Bool(b) => b.to_string(),
        V::Str(s) => Json::from(s.as_str()).to_string(),
        V::Member(m) => {
            let Kind::Enum(e) = plan.vars[v].kind else { unreachable!("a member of an enum") };
            Json::from(plan.enums[e].values[*m as usize].name.as_str()).to_string()
        }
        V::Int(n) if plan.vars[v].ty == BoundaryTy::Date => format!("\"{}\"", date::format_days(*n)),
        V::Int(n) => n.to_string(),
        // A sequence: each element an object of its fields, by their declared names.
        V::List(items) if plan.vars[v].role == crate::gen::plan::Role::Sequence => {
            let s = plan.sequences.iter().find(|s| s.list == v).expect("a sequence of the plan");
            let element = |x: &V| {
                let V::List(fields) = x else { unreachable!("an element is the list of its fields") };
                let each: Vec<String> = s
                    .fields
                    .iter()
                    .zip(fields)
                    .map(|(f, x)| format!("{}:{}", Json::from(f.name.as_str()), wire_text(plan, f.var, x)))
                    .collect();
                format!("{{{}}}", each.join(","))
            };
            format!("[{}]", items.iter().map(element).collect::<Vec<_>>().join(","))
        }
        V::List(items) => format!("[{}]", items.iter().map(|x| wire_text(plan, v, x)).collect::<Vec<_>>().join(",")),
    }
}
