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
    pub fn new(what: String) -> Refusal {
        Refusal { what }
    }
}

/// The kinds a value has on the wire, each with the sentence the door refuses another kind
/// with. Numbers of every unit, and rates, are integers in the declared unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireKind {
    Integer,
    Boolean,
    Text,
    /// `"YYYY-MM-DD"` of a day the calendar has.
    Date,
    /// One of the enum's declared names.
    Enum(EnumId),
}

impl WireKind {
    pub fn of(ty: &Ty) -> WireKind {
        match ty {
            Ty::Bool => WireKind::Boolean,
            Ty::Str => WireKind::Text,
            Ty::Date => WireKind::Date,
            Ty::Enum(e) => WireKind::Enum(*e),
            _ => WireKind::Integer,
        }
    }
}

/// The sentences of the door. Every generated language says these bytes: the code plan takes
/// them from here (src/gen/plan), and a test holds the plan's door to [`read_inputs`].
pub mod sentence {
    use super::WireKind;
    use crate::sema::Program;

    pub const NOT_AN_OBJECT: &str = "the input is not an object";
    /// What follows a key that is not an input: `coupon is not an input`.
    pub const NOT_AN_INPUT: &str = " is not an input";

    pub fn missing(name: &str) -> String {
        format!("{name} is missing")
    }

    pub fn not_of_kind(p: &Program, name: &str, kind: WireKind) -> String {
        match kind {
            WireKind::Integer => format!("{name} is not an integer"),
            WireKind::Boolean => format!("{name} is not a boolean"),
            WireKind::Text => format!("{name} is not a string"),
            WireKind::Date => format!("{name} is not a date"),
            WireKind::Enum(e) => format!("{name} is not a value of enum {}", p.enums[e].name),
        }
    }

    pub fn out_of_range(name: &str) -> String {
        format!("{name} is out of range")
    }

    pub fn constraint(text: &str) -> String {
        format!("the constraint does not hold: {text}")
    }

    pub fn not_an_input(key: &str) -> String {
        format!("{key}{NOT_AN_INPUT}")
    }

    /// The contradiction a W114 guard raises.
    pub fn rows_met(table: &str, a: usize, b: usize) -> String {
        format!("table {table}: row {a} and row {b} matched at the same time")
    }

    /// A sequence key whose value is not an array.
    pub fn not_a_sequence(name: &str) -> String {
        format!("{name} is not a sequence")
    }

    pub fn too_many(name: &str, max: u32) -> String {
        format!("{name} has more than {max} elements")
    }

    /// Element `at` (0-based) as the sentences about it name it: `lines[2]`.
    pub fn element(name: &str, at: usize) -> String {
        format!("{name}[{at}]")
    }

    pub fn not_an_element(place: &str) -> String {
        format!("{place} is not an object")
    }

    /// What follows `lines[2].key` for a key of an element that is not a field.
    pub const NOT_A_FIELD: &str = " is not a field";

    pub fn not_a_field(place: &str, key: &str) -> String {
        format!("{place}.{key}{NOT_A_FIELD}")
    }

    /// Two elements that both take under `take_unique`.
    pub fn two_takes(sequence: &str, into: &str) -> String {
        format!("two elements of {sequence} take {into}")
    }

    /// The refusal after the last row of a table (completeness proved it unreachable).
    pub fn no_row(table: &str) -> String {
        format!("table {table}: no row matched")
    }
}

/// Read one line of a vectors or fixtures file, or one call on `rulec eval`'s standard input:
/// a JSON object of inputs, or a record that carries them under `in`. A line that is not
/// JSON (a lone surrogate included) or not an object is refused, and the caller reads on.
pub fn read_line(p: &Program, line: &str) -> Result<Vec<Value>, Refusal> {
    let top: Json = serde_json::from_str(line).map_err(|_| Refusal::new(sentence::NOT_AN_OBJECT.into()))?;
    match top.get("in") {
        Some(call) if top.is_object() => read_inputs(p, call),
        _ => read_inputs(p, &top),
    }
}

/// Read one call's inputs from a JSON object, in the order of language.md §7: each input
/// (missing, kind, enum membership, range), then every constraint, then unknown keys.
pub fn read_inputs(p: &Program, obj: &Json) -> Result<Vec<Value>, Refusal> {
    let Some(map) = obj.as_object() else {
        return Err(Refusal::new(sentence::NOT_AN_OBJECT.into()));
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
        crate::sema::collect_vars(&c.expr, &mut read);
        if read.iter().any(|&v| p.vars[v].optional && values[v] == Value::None) {
            continue;
        }
        if super::eval_expr(&c.expr, &values) == Ok(Value::Bool(false)) {
            return Err(Refusal::new(sentence::constraint(&c.text)));
        }
    }
    for seq in &p.sequences {
        out.push(read_sequence(p, seq, map.get(&seq.name))?);
    }
    // A key that names no input: only looked for when the keys outnumber the inputs given
    // (a call has a thousand keys where a table has a thousand columns).
    let named =
        |key: &String| p.inputs.iter().any(|&v| &p.vars[v].name == key) || p.sequences.iter().any(|s| &s.name == key);
    let given = map.keys().filter(|k| named(k)).count();
    if map.len() > given {
        for key in map.keys() {
            if !named(key) {
                return Err(Refusal::new(sentence::not_an_input(key)));
            }
        }
    }
    Ok(out)
}

/// Read one sequence: an array of at most its maximum count of objects, each field read as
/// an input of its type is (named `lines[2].price` in the sentence), then a key that names
/// no field.
pub fn read_sequence(p: &Program, seq: &SequenceIr, raw: Option<&Json>) -> Result<Value, Refusal> {
    let items = match raw {
        None | Some(Json::Null) => return Err(Refusal::new(sentence::missing(&seq.name))),
        Some(Json::Array(items)) => items,
        Some(_) => return Err(Refusal::new(sentence::not_a_sequence(&seq.name))),
    };
    if items.len() > seq.max as usize {
        return Err(Refusal::new(sentence::too_many(&seq.name, seq.max)));
    }
    let mut elements = Vec::with_capacity(items.len());
    for (at, item) in items.iter().enumerate() {
        let place = sentence::element(&seq.name, at);
        let Json::Object(fields) = item else {
            return Err(Refusal::new(sentence::not_an_element(&place)));
        };
        let mut values = Vec::with_capacity(seq.fields.len());
        for &f in &seq.fields {
            let var = &p.vars[f];
            let named = Var { name: format!("{place}.{}", var.name), ..var.clone() };
            values.push(read_input(p, &named, fields.get(&var.name))?);
        }
        if fields.len() > seq.fields.len() {
            if let Some(key) = fields.keys().find(|k| !seq.fields.iter().any(|&f| &&p.vars[f].name == k)) {
                return Err(Refusal::new(sentence::not_a_field(&place, key)));
            }
        }
        elements.push(Value::List(values));
    }
    Ok(Value::List(elements))
}

/// A JSON number as an exact rational (the text is kept: `1e3`, `1000.0`, `-0.0`).
pub fn json_number(n: &serde_json::Number) -> Option<Rat> {
    num::parse_decimal(&n.to_string())
}

/// Read one value of `var` from its wire form (`None` when the key is absent): the checks
/// [`read_inputs`] makes of each input, in its order (missing, kind, enum membership, range).
pub fn read_input(p: &Program, var: &Var, raw: Option<&Json>) -> Result<Value, Refusal> {
    let name = &var.name;
    let raw = match raw {
        None | Some(Json::Null) if var.optional => return Ok(Value::None),
        None | Some(Json::Null) => return Err(Refusal::new(sentence::missing(name))),
        Some(x) => x,
    };
    // A list output's recorded value (replay and diff read outputs through this door too).
    if var.list {
        let Json::Array(items) = raw else {
            return Err(Refusal::new(format!("{name} is not a list")));
        };
        let element = Var { list: false, ..var.clone() };
        return items.iter().map(|x| read_input(p, &element, Some(x))).collect::<Result<_, _>>().map(Value::List);
    }
    let kind = WireKind::of(&var.ty);
    let not_of_kind = || Err(Refusal::new(sentence::not_of_kind(p, name, kind)));
    let value = match kind {
        WireKind::Boolean => match raw {
            Json::Bool(b) => Value::Bool(*b),
            _ => return not_of_kind(),
        },
        WireKind::Text => match raw {
            Json::String(s) => Value::Str(s.clone()),
            _ => return not_of_kind(),
        },
        WireKind::Date => match raw.as_str().and_then(date::parse) {
            Some(d) => Value::Num(num::int(d)),
            None => return not_of_kind(),
        },
        WireKind::Enum(e) => match raw.as_str().and_then(|s| p.enums[e].position(s)) {
            Some(pos) => Value::Enum(pos),
            None => return not_of_kind(),
        },
        WireKind::Integer => {
            if let Json::Number(n) = raw {
                match too_wide(var, &n.to_string()) {
                    Some(Wide::Fraction) => return not_of_kind(),
                    Some(Wide::PastRange) => return Err(Refusal::new(sentence::out_of_range(name))),
                    None => {}
                }
            }
            let n = match raw {
                Json::Number(n) => json_number(n).filter(|r| r.is_integer()),
                _ => None,
            };
            match n {
                Some(n) => Value::Num(n * var.ty.factor()),
                // A whole number too large to read (`1e5000`) is an integer past every range.
                None if matches!(raw, Json::Number(n) if num::decimal_is_whole(&n.to_string()) == Some(true)) => {
                    return Err(Refusal::new(sentence::out_of_range(name)))
                }
                None => return not_of_kind(),
            }
        }
    };
    if let Some((lo, hi)) = &var.range {
        if &value < lo || &value > hi {
            return Err(Refusal::new(sentence::out_of_range(name)));
        }
    }
    Ok(value)
}

/// The refusal of a number too wide to convert, decided from its digits alone (converting a
/// number of a million digits takes time quadratic in them): a fraction is not an integer,
/// and a whole number of more digits than int64 holds (or than the range's widest end, if
/// that is wider) is out of range. The same sentences as for any other number.
/// What a number wider than int64 is, told from its digits alone.
enum Wide {
    Fraction,
    PastRange,
}

fn too_wide(var: &Var, text: &str) -> Option<Wide> {
    const INT64_DIGITS: u64 = 19;
    if text.len() as u64 <= INT64_DIGITS + 2 {
        return None;
    }
    let (whole, digits) = num::decimal_digits(text)?;
    if !whole {
        return Some(Wide::Fraction);
    }
    let widest = match &var.range {
        Some((Value::Num(lo), Value::Num(hi))) => {
            let end = |x: &num::Rat| {
                (num_traits::Signed::abs(x) / var.ty.factor()).ceil().to_integer().to_string().len() as u64
            };
            end(lo).max(end(hi))
        }
        _ => 0,
    };
    (digits > INT64_DIGITS.max(widest)).then_some(Wide::PastRange)
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
        Value::List(xs) => Json::Array(xs.iter().map(|x| to_wire(p, var, x)).collect()),
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
    for (seq, x) in p.sequences.iter().zip(inputs.iter().skip(p.inputs.len())) {
        m.insert(seq.name.clone(), sequence_json(p, seq, x));
    }
    Json::Object(m)
}

/// A sequence in the wire form: an array of objects, each field by its declared name.
pub fn sequence_json(p: &Program, seq: &SequenceIr, x: &Value) -> Json {
    let Value::List(elements) = x else { return Json::Array(Vec::new()) };
    let element = |e: &Value| {
        let Value::List(fields) = e else { unreachable!("an element is the list of its fields") };
        let mut m = Map::new();
        for (&f, x) in seq.fields.iter().zip(fields) {
            m.insert(p.vars[f].name.clone(), to_wire(p, &p.vars[f], x));
        }
        Json::Object(m)
    };
    Json::Array(elements.iter().map(element).collect())
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
        Value::List(xs) => format!("[{}]", xs.iter().map(|x| display(p, ty, x)).collect::<Vec<_>>().join(", ")),
    }
}
