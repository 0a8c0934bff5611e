//! The wire form (formats.md): how a call's inputs are read at the door, with the refusal
//! sentences every generated language repeats, and how a record of one call is written.

use super::{EvalError, Outcome};
use crate::num::{self, date, Rat};
use crate::sema::*;
use serde_json::{Map, Value as Json};

/// Why the door refused a call: the sentence, and the value refused (as JSON text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub what: String,
}

impl Refusal {
    fn new(what: String) -> Refusal {
        Refusal { what }
    }
}

/// Read one call's inputs from a JSON object, in the order of language.md §7: each input
/// (missing, kind, enum membership, range), then every constraint, then unknown keys.
pub fn read_inputs(p: &Program, obj: &Json) -> Result<Vec<Value>, Refusal> {
    let Some(map) = obj.as_object() else {
        return Err(Refusal::new("the input is not an object".into()));
    };
    let mut out = Vec::with_capacity(p.inputs.len());
    for &v in &p.inputs {
        out.push(read_input(p, &p.vars[v], map.get(&p.vars[v].name))?);
    }
    let mut values = vec![Value::None; p.vars.len()];
    for (&v, x) in p.inputs.iter().zip(&out) {
        values[v] = x.clone();
    }
    for c in &p.constraints {
        // A constraint that reads an absent optional holds — wherever it reads it: `x > 5 and
        // cap >= 3` holds without `cap` just as `cap >= 3 and x > 5` does, though `and` would
        // otherwise stop at `x > 5` before it reached `cap`.
        let mut read = Vec::new();
        crate::sema::lower::collect_vars(&c.expr, &mut read);
        if read.iter().any(|&v| p.vars[v].optional && values[v] == Value::None) {
            continue;
        }
        if super::eval_expr(&c.expr, &values) == Ok(Value::Bool(false)) {
            return Err(Refusal::new(format!("the constraint does not hold: {}", c.text)));
        }
    }
    for key in map.keys() {
        if !p.inputs.iter().any(|&v| &p.vars[v].name == key) {
            return Err(Refusal::new(format!("{key} is not an input")));
        }
    }
    Ok(out)
}

/// A JSON number as an exact rational (the text is kept: `1e3`, `1000.0`, `-0.0`).
pub fn json_number(n: &serde_json::Number) -> Option<Rat> {
    num::parse_decimal(&n.to_string())
}

/// Read one value of `var` from its wire form (`None` when the key is absent): the checks
/// [`read_inputs`] makes of each input, in its order (missing, kind, enum membership, range).
pub fn read_input(p: &Program, var: &Var, raw: Option<&Json>) -> Result<Value, Refusal> {
    let name = &var.name;
    let refuse = |why: &str| Err(Refusal::new(format!("{name} {why}")));
    let raw = match raw {
        None | Some(Json::Null) if var.optional => return Ok(Value::None),
        None | Some(Json::Null) => return refuse("is missing"),
        Some(x) => x,
    };
    let value = match &var.ty {
        Ty::Bool => match raw {
            Json::Bool(b) => Value::Bool(*b),
            _ => return refuse("is not a boolean"),
        },
        Ty::Str => match raw {
            Json::String(s) => Value::Str(s.clone()),
            _ => return refuse("is not a string"),
        },
        Ty::Date => match raw.as_str().and_then(date::parse) {
            Some(d) => Value::Num(num::int(d)),
            None => return refuse("is not a date"),
        },
        Ty::Enum(e) => {
            let en = &p.enums[*e];
            match raw.as_str().and_then(|s| en.position(s)) {
                Some(pos) => Value::Enum(pos),
                None => return refuse(&format!("is not a value of enum {}", en.name)),
            }
        }
        ty => {
            let n = match raw {
                Json::Number(n) => json_number(n).filter(|r| r.is_integer()),
                _ => None,
            };
            match n {
                Some(n) => Value::Num(n * ty.factor()),
                // A whole number too large to read (`1e5000`) is an integer past every range.
                None if matches!(raw, Json::Number(n) if num::decimal_is_whole(&n.to_string()) == Some(true)) => {
                    return refuse("is out of range")
                }
                None => return refuse("is not an integer"),
            }
        }
    };
    if let Some((lo, hi)) = &var.range {
        if &value < lo || &value > hi {
            return refuse("is out of range");
        }
    }
    Ok(value)
}

/// A value in the wire form: an integer in the declared unit, a name, a date, a boolean, null.
pub fn to_wire(p: &Program, var: &Var, v: &Value) -> Json {
    match v {
        Value::None => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Str(s) => Json::String(s.clone()),
        Value::Enum(i) => match &var.ty {
            Ty::Enum(e) => Json::String(p.enums[*e].values[*i as usize].name.clone()),
            _ => unreachable!("an enum value in a variable of another type"),
        },
        Value::Num(n) => {
            if var.ty == Ty::Date {
                return Json::String(date::format_days(num::to_i64(n).expect("a day number")));
            }
            let units = n / var.ty.factor();
            json_integer(&units)
        }
    }
}

fn json_integer(n: &Rat) -> Json {
    // An output is proven to be whole in its unit; a fraction here would be a checker bug,
    // and it is written exactly rather than rounded so that it shows.
    let text = if n.is_integer() { n.to_integer().to_string() } else { num::to_decimal_string(n) };
    serde_json::from_str(&text).unwrap_or_else(|_| Json::String(text))
}

/// The `in` object of a record: inputs in declaration order as read.
pub fn inputs_json(p: &Program, inputs: &[Value]) -> Json {
    let mut m = Map::new();
    for (&v, x) in p.inputs.iter().zip(inputs) {
        m.insert(p.vars[v].name.clone(), to_wire(p, &p.vars[v], x));
    }
    Json::Object(m)
}

pub fn outputs_json(p: &Program, o: &Outcome) -> Json {
    let mut m = Map::new();
    for (v, x) in o.output_values(p) {
        m.insert(p.vars[v].name.clone(), to_wire(p, &p.vars[v], x));
    }
    Json::Object(m)
}

pub fn trace_json(p: &Program, o: &Outcome) -> Json {
    Json::Array(
        o.trace
            .iter()
            .map(|f| {
                let mut m = Map::new();
                m.insert("table".into(), Json::String(p.tables[f.table].name.clone()));
                m.insert("row".into(), Json::from(f.row));
                Json::Object(m)
            })
            .collect(),
    )
}

/// One fixtures record: `{"tag":…,"in":…,"observed":…,"trace":[…]}` (an empty tag is left out).
pub fn record(p: &Program, inputs: &[Value], o: &Outcome, tag: &str) -> String {
    let mut m = Map::new();
    if !tag.is_empty() {
        m.insert("tag".into(), Json::String(tag.into()));
    }
    m.insert("in".into(), inputs_json(p, inputs));
    m.insert("observed".into(), outputs_json(p, o));
    m.insert("trace".into(), trace_json(p, o));
    Json::Object(m).to_string()
}

/// The line a runner prints in place of a record when the door refuses the input.
pub fn refusal_line(r: &Refusal) -> String {
    let mut m = Map::new();
    m.insert("refused".into(), Json::String("input".into()));
    m.insert("error".into(), Json::String(r.what.clone()));
    Json::Object(m).to_string()
}

/// The line for a call the rule itself cannot answer (the W114 guard firing).
pub fn contradiction_line(e: &EvalError) -> String {
    let mut m = Map::new();
    m.insert("refused".into(), Json::String("contradiction".into()));
    m.insert("error".into(), Json::String(e.to_string()));
    Json::Object(m).to_string()
}

/// A value written the way the rule writes it: `1235JPY`, `7.5%`, `2026-03-31`, `gold`.
pub fn display(p: &Program, ty: &Ty, v: &Value) -> String {
    match v {
        Value::None => "none".into(),
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => crate::syntax::fmt::string_lit(s),
        Value::Enum(i) => match ty {
            Ty::Enum(e) => p.enums[*e].values[*i as usize].name.clone(),
            _ => i.to_string(),
        },
        Value::Num(n) => match ty {
            Ty::Date => num::to_i64(n).map(date::format_days).unwrap_or_else(|| num::to_decimal_string(n)),
            Ty::Money { unit, .. } | Ty::Qty { unit } => {
                format!("{}{}", num::to_decimal_string(&(n / unit.factor())), unit.symbol)
            }
            Ty::Rate { .. } => format!("{}%", num::to_decimal_string(&(n * num::int(100)))),
            _ => num::to_decimal_string(n),
        },
    }
}
