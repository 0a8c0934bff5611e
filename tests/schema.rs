//! `rulec schema` agrees with the door: every call the reference answers validates, and
//! every call refused for its shape (missing, kind, range, enum, unknown key) does not —
//! a sequence's too (an array of at most its count of objects with the element's fields).

mod common;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The stdout of `rulec ARGS` at the root, which must succeed.
fn ok_stdout(args: &[&str]) -> Vec<u8> {
    let out = common::at_root(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The keywords `rulec schema` writes, and nothing else.
fn valid(schema: &Value, v: &Value) -> bool {
    if let Some(any) = schema.get("anyOf") {
        return any.as_array().unwrap().iter().any(|s| valid(s, v));
    }
    let type_ok = match schema.get("type").and_then(Value::as_str) {
        Some("object") => v.is_object(),
        Some("array") => v.is_array(),
        Some("integer") => v.as_i64().is_some() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        Some("boolean") => v.is_boolean(),
        Some("string") => v.is_string(),
        Some("null") => v.is_null(),
        _ => true,
    };
    if !type_ok {
        return false;
    }
    if let Some(e) = schema.get("enum") {
        if !e.as_array().unwrap().contains(v) {
            return false;
        }
    }
    if let (Some(min), Some(x)) = (schema.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < min {
            return false;
        }
    }
    if let (Some(max), Some(x)) = (schema.get("maximum").and_then(Value::as_f64), v.as_f64()) {
        if x > max {
            return false;
        }
    }
    if schema.get("format").and_then(Value::as_str) == Some("date") {
        let s = v.as_str().unwrap_or("");
        if !(s.len() == 10 && chrono_like_date(s)) {
            return false;
        }
    }
    if let Some(items) = v.as_array() {
        if schema["maxItems"].as_u64().is_some_and(|max| items.len() as u64 > max) {
            return false;
        }
        return items.iter().all(|x| valid(&schema["items"], x));
    }
    if let Some(obj) = v.as_object() {
        let props = schema["properties"].as_object().unwrap();
        if schema["required"].as_array().unwrap().iter().any(|k| !obj.contains_key(k.as_str().unwrap())) {
            return false;
        }
        for (k, x) in obj {
            let fits = match props.get(k) {
                Some(s) => valid(s, x),
                None => schema["additionalProperties"] != false,
            };
            if !fits {
                return false;
            }
        }
    }
    true
}

fn chrono_like_date(s: &str) -> bool {
    let b = s.as_bytes();
    let (y, m, d) = (s[..4].parse::<i32>(), s[5..7].parse::<u32>(), s[8..10].parse::<u32>());
    b[4] == b'-' && b[7] == b'-' && matches!((y, m, d), (Ok(y), Ok(m), Ok(d)) if rulec::num::date::is_valid(y, m, d))
}

#[test]
fn the_schema_agrees_with_the_door_on_every_vector() {
    let mut checked = 0;
    for e in std::fs::read_dir(format!("{ROOT}/tests/corpus")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "rule") {
            continue;
        }
        let p = path.to_str().unwrap();
        let schema: Value = serde_json::from_slice(&ok_stdout(&["schema", p])).unwrap();
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let in_schema = &schema["properties"]["in"];
        let vectors = String::from_utf8(ok_stdout(&["vectors", p])).unwrap();
        for line in vectors.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let why = v["why"].as_str().unwrap();
            let accepted = valid(in_schema, &v["in"]);
            if v.get("out").is_some() {
                assert!(accepted, "{p}: the schema refuses a call the rule answers: {line}");
                assert!(valid(&schema["properties"]["out"], &v["out"]), "{p}: the answer does not fit `out`: {line}");
            } else {
                // What the schema cannot state is named in its $comment instead.
                let unstateable =
                    why.contains("constraint") || (why.contains("its range") && schema_says_date_range(&schema, why));
                if unstateable {
                    continue;
                }
                assert!(!accepted, "{p}: the schema accepts a call the door refuses: {line}");
            }
            checked += 1;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let unstateable =
            text.lines().any(|l| l.starts_with("constraint ") || (l.starts_with("input ") && l.contains(": date ")));
        assert_eq!(schema.get("$comment").is_some(), unstateable, "{p}: a $comment names what the schema cannot state");
    }
    assert!(checked > 200, "{checked} vectors checked");
}

#[test]
fn units_and_steps_are_in_the_descriptions() {
    let s: Value = serde_json::from_slice(&ok_stdout(&["schema", "tests/corpus/member_discount.rule"])).unwrap();
    let subtotal = &s["properties"]["in"]["properties"]["subtotal"];
    assert_eq!(subtotal["description"], "money[JPY, incl_tax]: a whole number of JPY");
    let pct = &s["properties"]["out"]["properties"]["pct"];
    assert!(pct["description"].as_str().unwrap().contains("steps of 0.5%"), "{pct}");
    assert_eq!((pct["minimum"].as_i64(), pct["maximum"].as_i64()), (Some(0), Some(40)));
    // An ordered enum input with a range lists only the values the range lets in.
    assert_eq!(s["properties"]["in"]["properties"]["tier"]["enum"], serde_json::json!(["silver", "gold", "platinum"]));
}

/// Whether the schema's `$comment` names the date range a refusal is about.
fn schema_says_date_range(schema: &Value, why: &str) -> bool {
    let comment = schema["$comment"].as_str().unwrap_or("");
    let input = why.trim_start_matches("refused: ").split(' ').next().unwrap_or("");
    comment.contains(&format!("date_range ({input} "))
}

/// `--keys alias`: each property is keyed by its ASCII alias with the rule's name as its
/// title, `required` keyed the same way, and every call the rule answers — its keys turned
/// into the aliases — still validates; without the flag the keys are the wire's names.
#[test]
fn keys_alias_names_each_property_by_its_alias() {
    let p = "tests/corpus/member_shipping_fee.rule";
    let by_name: Value = serde_json::from_slice(&ok_stdout(&["schema", p])).unwrap();
    let by_alias: Value = serde_json::from_slice(&ok_stdout(&["schema", p, "--keys", "alias"])).unwrap();
    let (named, aliased) = (&by_name["properties"]["in"], &by_alias["properties"]["in"]);
    assert!(named["properties"].get("会員").is_some() && named["properties"].get("member").is_none(), "{named}");
    assert_eq!(aliased["properties"]["member"]["title"], "会員", "{aliased}");
    assert_eq!(aliased["properties"]["dest"]["title"], "dest", "{aliased}");
    assert!(aliased["properties"].get("会員").is_none(), "{aliased}");
    assert!(aliased["required"].as_array().unwrap().contains(&Value::from("member")), "{aliased}");
    let keys: Vec<&String> = aliased["properties"].as_object().unwrap().keys().collect();
    assert!(keys.iter().all(|k| k.is_ascii()), "{keys:?}");
    // The name each alias stands for, read off the titles.
    let alias_of = |side: &str| -> std::collections::HashMap<String, String> {
        let props = by_alias["properties"][side]["properties"].as_object().unwrap();
        props.iter().map(|(k, v)| (v["title"].as_str().unwrap().to_string(), k.clone())).collect()
    };
    let rekey = |v: &Value, side: &str| -> Value {
        let names = alias_of(side);
        Value::Object(v.as_object().unwrap().iter().map(|(k, x)| (names[k].clone(), x.clone())).collect())
    };
    let vectors = String::from_utf8(ok_stdout(&["vectors", p])).unwrap();
    let mut answered = 0;
    for line in vectors.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("out").is_some() {
            assert!(valid(aliased, &rekey(&v["in"], "in")), "{line}");
            assert!(valid(&by_alias["properties"]["out"], &rekey(&v["out"], "out")), "{line}");
            assert!(!valid(aliased, &v["in"]), "the names are not the alias keys: {line}");
            answered += 1;
        }
    }
    assert!(answered >= 9, "{answered}");
}

/// A rule that walks: each sequence is a required array property of `in`, its items the
/// element's fields; every call the rule answers validates, every call refused at the door
/// for its shape (a sequence missing, not an array, too long, an element not an object, a
/// field missing, of the wrong kind, out of its range, unknown) does not. What is refused
/// after the walk (a contradiction, a summary past the range only the caller keeps) is no
/// shape: the `$comment` names the summary.
#[test]
fn the_schema_of_a_walk_agrees_with_the_door() {
    let mut answered = 0;
    let mut refused = 0;
    for rule in ["cart_shipping_fee", "order_settlement", "best_bid", "carrier_pick", "caller_keeps"] {
        let p = format!("tests/walks/{rule}.rule");
        let schema: Value = serde_json::from_slice(&ok_stdout(&["schema", &p])).unwrap();
        let in_schema = &schema["properties"]["in"];
        let vectors = String::from_utf8(ok_stdout(&["vectors", &p])).unwrap();
        for line in vectors.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if v.get("out").is_some() {
                assert!(valid(in_schema, &v["in"]), "{p}: the schema refuses a call the rule answers: {line}");
                answered += 1;
            } else if v["refused"] == "input" && v["why"].as_str().is_some_and(|w| w.starts_with("refused:")) {
                // A call the door refuses for its shape (a summary past the range only the
                // caller keeps is refused after the walk, and is no shape).
                assert!(!valid(in_schema, &v["in"]), "{p}: the schema accepts a call the door refuses: {line}");
                refused += 1;
            }
        }
        for seq in in_schema["required"].as_array().unwrap() {
            assert!(in_schema["properties"][seq.as_str().unwrap()].is_object(), "{p}: {seq}");
        }
    }
    assert!(answered > 20 && refused > 40, "{answered} answered, {refused} refused");
    let s: Value = serde_json::from_slice(&ok_stdout(&["schema", "tests/walks/cart_shipping_fee.rule"])).unwrap();
    let lines = &s["properties"]["in"]["properties"]["lines"];
    assert_eq!(lines["type"], "array");
    assert_eq!(lines["maxItems"], 10);
    assert_eq!(lines["items"]["required"], serde_json::json!(["amount", "quantity"]));
    assert_eq!(lines["items"]["additionalProperties"], false);
    assert_eq!(lines["items"]["properties"]["quantity"]["maximum"], 10);
    assert!(s["properties"]["in"]["required"].as_array().unwrap().contains(&Value::from("lines")));
    assert!(s.get("$comment").is_none(), "the analysis proves the sum's range: {s}");
    let keeps: Value = serde_json::from_slice(&ok_stdout(&["schema", "tests/walks/caller_keeps.rule"])).unwrap();
    assert!(keeps["$comment"].as_str().unwrap().contains("sum (total over lines within 0JPY..1000000JPY)"), "{keeps}");
}
