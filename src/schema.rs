//! `rulec schema`: the JSON Schema (2020-12) of a rule's wire — the `in` object a call
//! sends and the `out` object it gets back. Every integer says its unit and, for a rate,
//! its step, so a caller who never reads the rule knows that 18.3% at a step of 0.1%
//! travels as 183.
//!
//! A sequence a rule walks is a property of `in` like an input: an array of at most its
//! declared count of objects, each with the element's fields.
//!
//! `--keys alias` names each property by its ASCII alias, with the rule's name as its title:
//! the shape an HTTP request body or a form wants. The wire keeps the names.

use crate::num::{to_decimal_string, Rat};
use crate::sema::*;
use serde_json::{json, Map, Value as Json};

/// What a property is keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Keys {
    /// The rule's name, as the wire spells it.
    Name,
    /// The ASCII alias (the name where there is none), with the name as the title.
    Alias,
}

/// The schema of the rule's wire. `caller_keeps` are the summaries whose declared range the
/// analysis could not prove (W122, `graph::caller_keeps`): the door refuses a call that takes
/// one out, which no shape states, so the `$comment` names them.
pub fn schema(p: &Program, keys: Keys, caller_keeps: &[usize]) -> Json {
    let key = |name: &str, ident: &str, prop: &mut Json| -> String {
        match keys {
            Keys::Name => name.to_string(),
            Keys::Alias => {
                prop["title"] = json!(name);
                ident.to_string()
            }
        }
    };
    let object = |vars: &[VarId], required_all: bool| -> (Map<String, Json>, Vec<Json>) {
        let mut props = Map::new();
        let mut required = Vec::new();
        for &v in vars {
            let var = &p.vars[v];
            let mut prop = property(p, var);
            let k = key(&var.name, var.ident(), &mut prop);
            if required_all || !var.optional {
                required.push(json!(k));
            }
            props.insert(k, prop);
        }
        (props, required)
    };
    let side = |vars: &[VarId], required_all: bool, sequences: &[SequenceIr]| -> Json {
        let (mut props, mut required) = object(vars, required_all);
        // A call passes every sequence, an empty one as [].
        for seq in sequences {
            let (fields, needed) = object(&seq.fields, false);
            let mut prop = json!({
                "type": "array",
                "items": {"type": "object", "properties": fields, "required": needed, "additionalProperties": false},
                "maxItems": seq.max,
                "description": format!("a list of up to {} elements of {}", seq.max, seq.name),
            });
            let k = key(&seq.name, seq.ident(), &mut prop);
            required.push(json!(k));
            props.insert(k, prop);
        }
        json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
    };
    let mut m = Map::new();
    m.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
    m.insert("title".into(), json!(format!("{} v{}", p.name, p.version)));
    if let Some(a) = &p.about {
        m.insert("description".into(), json!(a));
    }
    // What a JSON Schema cannot state: relations between inputs, and the range of a date.
    let mut kinds: Vec<String> = p.constraints.iter().map(|c| format!("constraint ({})", c.text)).collect();
    for &v in &p.inputs {
        let var = &p.vars[v];
        if var.ty == Ty::Date && var.range.is_some() {
            kinds.push(format!("date_range ({} {})", var.name, var.range_text.as_deref().unwrap_or("")));
        }
    }
    for &s in caller_keeps {
        let summary = &p.summaries[s];
        let var = &p.vars[summary.var];
        let over = &p.sequences[summary.seq].name;
        kinds.push(format!(
            "{} ({} over {over} within {})",
            summary.op.as_str(),
            var.name,
            var.range_text.as_deref().unwrap_or("")
        ));
    }
    if !kinds.is_empty() {
        m.insert(
            "$comment".into(),
            json!(format!(
                "A call that passes this schema can still be refused at the door, by preconditions of these kinds: {}. rulec api lists the constraints, rulec graph every precondition.",
                kinds.join("; ")
            )),
        );
    }
    m.insert("type".into(), json!("object"));
    let mut props = Map::new();
    props.insert("in".into(), side(&p.inputs, false, &p.sequences));
    props.insert("out".into(), side(&p.outputs, true, &[]));
    m.insert("properties".into(), Json::Object(props));
    m.insert("required".into(), json!(["in"]));
    Json::Object(m)
}

fn units(n: &Rat, ty: &Ty) -> String {
    to_decimal_string(&(n / ty.factor()))
}

fn property(p: &Program, var: &Var) -> Json {
    let mut m = Map::new();
    match &var.ty {
        Ty::Bool => {
            m.insert("type".into(), json!("boolean"));
        }
        Ty::Str => {
            m.insert("type".into(), json!("string"));
        }
        Ty::Date => {
            m.insert("type".into(), json!("string"));
            m.insert("format".into(), json!("date"));
            let mut d = "a calendar day, YYYY-MM-DD".to_string();
            if let Some((Value::Num(lo), Value::Num(hi))) = &var.range {
                let day = |n: &Rat| crate::num::to_i64(n).map(crate::num::date::format_days).unwrap_or_default();
                d = format!("{d}, from {} to {}", day(lo), day(hi));
            }
            m.insert("description".into(), json!(d));
        }
        Ty::Enum(e) => {
            let en = &p.enums[*e];
            let (lo, hi) = match &var.range {
                Some((Value::Enum(lo), Value::Enum(hi))) => (*lo as usize, *hi as usize),
                _ => (0, en.values.len() - 1),
            };
            m.insert("type".into(), json!("string"));
            m.insert("enum".into(), json!(en.values[lo..=hi].iter().map(|v| v.name.as_str()).collect::<Vec<_>>()));
            m.insert("description".into(), json!(format!("a value of enum {}", en.name)));
        }
        ty => {
            m.insert("type".into(), json!("integer"));
            if let Some((Value::Num(lo), Value::Num(hi))) = &var.range {
                m.insert("minimum".into(), serde_json::from_str(&units(lo, ty)).unwrap_or(Json::Null));
                m.insert("maximum".into(), serde_json::from_str(&units(hi, ty)).unwrap_or(Json::Null));
            }
            let d = match ty {
                Ty::Money { unit, .. } => format!("{}: a whole number of {}", ty_name(ty, &p.enums), unit.symbol),
                Ty::Qty { unit } => format!("{}: a whole number of {}", ty_name(ty, &p.enums), unit.symbol),
                Ty::Rate { step } => {
                    let pct = to_decimal_string(&(step * crate::num::int(100)));
                    format!("a rate counted in steps of {pct}% (the number of steps: 18.3% at a step of 0.1% travels as 183)")
                }
                _ => "a whole number".to_string(),
            };
            m.insert("description".into(), json!(d));
        }
    }
    let prop = Json::Object(m);
    if var.list {
        // A list holds a value per row that holds: at most every row of the table deciding it.
        let rows = match var.decided_by {
            Some(crate::sema::Decider::Table(t)) => p.tables[t].rows.len(),
            _ => 0,
        };
        return json!({
            "type": "array",
            "items": prop,
            "maxItems": rows,
            "description": "a list: the value of each row that holds, in the order the table counts them"
        });
    }
    if var.optional {
        json!({"anyOf": [prop, {"type": "null"}], "description": "may be null: the value is absent"})
    } else {
        prop
    }
}
