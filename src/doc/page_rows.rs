//! The page's form for a rule that walks (reference §6.3): each sequence a table of rows,
//! one element each, with a control per field, a row to add and a button on each row to
//! take it away. `page/page.js` reads the rows into the call as the wire spells a sequence.

use super::html::esc;
use super::page::field_kind;
use super::Rule;
use crate::sema::*;
use serde_json::{json, Value as Json};
use std::fmt::Write;

/// What the page script needs of each sequence: its name, its count and how to read each
/// field (as it reads an input).
pub(super) fn data(r: &Rule) -> Json {
    let p = r.p;
    let sequences: Vec<Json> = p
        .sequences
        .iter()
        .map(|seq| {
            let fields: Vec<Json> = seq
                .fields
                .iter()
                .map(|&f| {
                    let var = &p.vars[f];
                    let (kind, step) = field_kind(&var.ty);
                    json!({"name": var.name, "kind": kind, "step": step, "optional": var.optional,
                           "unit": var.ty.unit().map(|u| u.symbol)})
                })
                .collect();
            json!({"name": seq.name, "max": seq.max, "fields": fields})
        })
        .collect();
    Json::Array(sequences)
}

/// Each sequence's fieldset, its rows the opening case's elements.
pub(super) fn form(r: &Rule) -> String {
    let p = r.p;
    let initial = r.first_case();
    let mut o = String::new();
    for seq in &p.sequences {
        let _ = writeln!(o, "<fieldset class=\"sequence\" data-sequence=\"{}\">", esc(&seq.name));
        let _ =
            writeln!(o, "<legend>{} <span class=\"hint\">up to {} elements</span></legend>", esc(&seq.name), seq.max);
        o.push_str("<table class=\"rows\"><thead><tr>");
        for &f in &seq.fields {
            let _ = write!(o, "<th scope=\"col\">{}</th>", esc(&p.vars[f].name));
        }
        o.push_str("<th></th></tr></thead>\n<tbody>\n");
        let elements = initial.and_then(|c| c.get(&seq.name)).and_then(Json::as_array);
        for element in elements.into_iter().flatten() {
            o.push_str(&row(p, seq, Some(element)));
        }
        o.push_str("</tbody></table>\n<template class=\"row-template\">");
        o.push_str(&row(p, seq, None));
        let _ = writeln!(
            o,
            "</template>\n<button type=\"button\" class=\"add-row\">Add an element to {}</button>\n</fieldset>",
            esc(&seq.name)
        );
    }
    o
}

/// One element's row: a control per field, its value the element's (none for a new row).
fn row(p: &Program, seq: &SequenceIr, element: Option<&Json>) -> String {
    let mut o = String::from("<tr>");
    for &f in &seq.fields {
        let var = &p.vars[f];
        let start = element.and_then(|e| e.get(&var.name)).cloned().unwrap_or(Json::Null);
        let label = format!("{}: {}", seq.name, var.name);
        let attrs = format!("data-field=\"{}\" aria-label=\"{}\"", esc(&var.name), esc(&label));
        o.push_str("<td>");
        let choices: Option<Vec<String>> = match &var.ty {
            Ty::Enum(e) => Some(p.enums[*e].values.iter().map(|v| v.name.clone()).collect()),
            Ty::Bool => Some(vec!["true".into(), "false".into()]),
            _ => None,
        };
        match choices {
            Some(choices) => {
                let _ = write!(o, "<select {attrs}>");
                let chosen = match &start {
                    Json::Bool(b) => b.to_string(),
                    Json::String(s) => s.clone(),
                    _ => String::new(),
                };
                for c in choices {
                    let sel = if c == chosen { " selected" } else { "" };
                    let _ = write!(o, "<option value=\"{0}\"{sel}>{0}</option>", esc(&c));
                }
                o.push_str("</select>");
            }
            None => {
                let value = match &start {
                    Json::Null => String::new(),
                    Json::String(s) => s.clone(),
                    j => j.to_string(),
                };
                let _ = write!(o, "<input type=\"text\" spellcheck=\"false\" value=\"{}\" {attrs}>", esc(&value));
            }
        }
        o.push_str("</td>");
    }
    o.push_str(
        "<td><button type=\"button\" class=\"remove-row\" aria-label=\"Take this element away\">×</button></td></tr>\n",
    );
    o
}
