//! `rulec doc --format html`: one self-contained page — the approver's document, with the
//! board on top of it. The board's parts for this rule (the form, one card per decider
//! placed by [`graph::layout`], the dock) are written here into a `<template>`; the fixed
//! text (`page/page.css`, `page/page.js`) moves the document's tables into the cards and
//! runs the generated JavaScript module, which is inlined, on the case the reader types.
//! Nothing is fetched: the page declares no origin but its own inline text.

use super::html::{esc, line};
use super::{decider_id, document, words, Audience, Rule};
use crate::gen::{File, Lang, Unit};
use crate::graph::{self, DeciderRef};
use crate::sema::*;
use serde_json::{json, Value as Json};
use std::fmt::Write;

const CSS: &str = include_str!("page/page.css");
const PAGE_JS: &str = include_str!("page/page.js");

/// The page `rulec gen` writes beside the JavaScript module: `javascript/<alias>_page.html`.
pub fn page_file(u: &Unit) -> File {
    File { path: format!("{}/{}_page.html", Lang::JavaScript.name(), u.program.ident()), text: page(u) }
}

/// The whole page of a rule.
pub fn page(u: &Unit) -> String {
    let r = Rule::new(u);
    let p = r.p;
    let doc = document(&r, Audience::Approver);
    let backend = crate::gen::backend(Lang::JavaScript);
    let api = backend.api(u);
    // With every enum it reads in it: the page's script has no folder to import from.
    let module = crate::gen::typescript::self_contained(u);
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    // No origin but the page's own inline text: the page needs no network, and says so.
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; \
         style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n",
    );
    let _ = writeln!(out, "<meta name=\"generator\" content=\"rulec {}\">", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "<title>{} v{} — rulec</title>", esc(&doc.title), p.version);
    let _ = writeln!(out, "<style>\n{CSS}</style>\n</head>\n<body>");
    out.push_str("<div id=\"doc-view\" class=\"doc-view\">\n");
    out.push_str(&super::html::article(&doc));
    out.push_str("</div>\n");
    out.push_str("<template id=\"board-template\">\n");
    out.push_str(&board(&r));
    out.push_str("</template>\n");
    let data = data(&r);
    // `<` never appears raw inside the script element: `</script>` cannot end it early.
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"rule-data\">{}</script>",
        data.to_string().replace('<', "\\u003c")
    );
    out.push_str("<script type=\"module\">\n");
    out.push_str(&script_text(&module));
    out.push_str("\n// The page: the board over the document (rulec doc --format html).\n{\n");
    let binding = wire_binding(&api);
    out.push_str(&script_text(PAGE_JS));
    let _ = writeln!(out, "startPage({binding}, \"rule-data\");\n}}\n</script>\n</body>\n</html>");
    out
}

/// JavaScript as the text of a `<script>` element: a `</script` or `<!--` in it (inside a
/// string or a comment) is written so the HTML parser does not take it for markup.
fn script_text(js: &str) -> String {
    js.replace("</script", "<\\/script").replace("<!--", "<\\!--")
}

/// The function the page calls for one case, as a JavaScript expression: the module's
/// `<fn>_wire`, which takes a call as the wire spells it and answers as `rulec eval` does.
fn wire_binding(api: &Json) -> String {
    api["wire"].as_str().expect("the JavaScript api names its wire function").to_string()
}

/// How a field reads its text: the kind, and for a rate the step in percent.
pub(super) fn field_kind(ty: &Ty) -> (&'static str, Option<String>) {
    match ty {
        Ty::Bool => ("bool", None),
        Ty::Enum(_) => ("enum", None),
        Ty::Date => ("date", None),
        Ty::Str => ("string", None),
        Ty::Rate { step } => ("rate", Some(words::percent_text(step))),
        _ => ("integer", None),
    }
}

/// What the page script needs beside the DOM: how to read each field and show each output,
/// the links between cards, and which cards decide an output.
fn data(r: &Rule) -> Json {
    let p = r.p;
    let inputs: Vec<Json> = p
        .inputs
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let var = &p.vars[v];
            let (kind, step) = field_kind(&var.ty);
            json!({"name": var.name, "id": format!("in-{i}"), "kind": kind, "step": step, "optional": var.optional,
                   "unit": var.ty.unit().map(|u| u.symbol)})
        })
        .collect();
    let outputs: Vec<Json> = p
        .outputs
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let var = &p.vars[v];
            let (kind, step) = field_kind(&var.ty);
            json!({"name": var.name, "id": format!("out-{i}"), "kind": kind, "step": step,
                   "unit": var.ty.unit().map(|u| u.symbol)})
        })
        .collect();
    let mut links: Vec<Json> = Vec::new();
    for e in &r.graph.edges {
        if let Some(up) = graph::decider_of(p, e.from) {
            let link = json!({"from": decider_id(p, up), "to": decider_id(p, e.via)});
            if !links.contains(&link) {
                links.push(link);
            }
        }
    }
    let outputs_by: Vec<Json> = r
        .graph
        .deciders
        .iter()
        .map(|&d| {
            json!({"decider": decider_id(p, d), "outputs": d.decides(p).into_iter()
                .filter(|&v| p.vars[v].kind == VarKind::Output)
                .map(|v| p.vars[v].name.clone()).collect::<Vec<_>>()})
        })
        .collect();
    json!({"inputs": inputs, "sequences": super::page_rows::data(r), "outputs": outputs, "links": links,
           "decides": outputs_by})
}

/// The board's per-rule markup.
fn board(r: &Rule) -> String {
    let p = r.p;
    let mut o = String::new();
    o.push_str("<div class=\"board\">\n<header class=\"topbar\">\n<div class=\"heading\">\n");
    let _ = write!(o, "<h1>{}</h1><span class=\"version\">v{}</span>", esc(&p.name), p.version);
    if let Some(a) = &p.alias {
        let _ = write!(o, "<code class=\"alias\">{}</code>", esc(a));
    }
    o.push_str("\n</div>\n");
    if let Some(about) = &p.about {
        let _ = writeln!(o, "<p class=\"about\">{}</p>", esc(about));
    }
    o.push_str("<ul class=\"checks\" aria-label=\"What rulec check verified\">");
    for badge in badges(r) {
        let _ = write!(o, "<li>{}</li>", esc(&badge));
    }
    o.push_str("</ul>\n");
    o.push_str(
        "<button type=\"button\" class=\"view-toggle\" aria-pressed=\"false\">Read as a document</button>\n</header>\n",
    );
    o.push_str("<div class=\"workspace\">\n<aside class=\"pane\" id=\"board-pane\" aria-label=\"The case\">\n");
    o.push_str(&form(r));
    o.push_str(&types(r));
    o.push_str(&answer(r));
    o.push_str("</aside>\n");
    o.push_str(
        "<div class=\"split split-v\" role=\"separator\" tabindex=\"0\" aria-orientation=\"vertical\" \
         aria-label=\"Width of the case pane\" aria-controls=\"board-pane\"></div>\n",
    );
    o.push_str("<main class=\"stage\">\n");
    o.push_str(
        "<div class=\"canvas\" role=\"region\" aria-label=\"The deciders, placed by how far each is from the inputs\">\n",
    );
    let columns = r.layout.iter().map(|c| c.column).max().unwrap_or(1);
    o.push_str("<div class=\"grid\" role=\"list\">\n");
    for column in 1..=columns {
        let _ = writeln!(o, "<div class=\"column\" role=\"none\" data-column=\"{column}\">");
        for (i, placed) in r.layout.iter().enumerate().filter(|(_, c)| c.column == column) {
            o.push_str(&card(r, i, placed));
        }
        o.push_str("</div>\n");
    }
    o.push_str("</div>\n<svg class=\"wires\" aria-hidden=\"true\" focusable=\"false\"></svg>\n</div>\n");
    o.push_str(
        "<p class=\"legend\">Left to right: how far each decider is from the inputs. Every value is decided in \
         one call; an arrow says which values a decider reads. Arrow keys move between cards.</p>\n",
    );
    o.push_str(
        "<div class=\"split split-h\" role=\"separator\" tabindex=\"0\" aria-orientation=\"horizontal\" \
         aria-label=\"Height of the dock\"></div>\n",
    );
    o.push_str(
        "<section class=\"dock\" aria-live=\"polite\" aria-labelledby=\"dock-title\">\n<h2 id=\"dock-title\"></h2>\n\
         <div class=\"dock-body\"></div>\n</section>\n",
    );
    o.push_str("</main>\n</div>\n</div>\n");
    o
}

/// The short list at the top: what check proved, in a word each.
fn badges(r: &Rule) -> Vec<String> {
    let a = r.u.analysis;
    let tables = r.p.tables.len();
    let mut out = Vec::new();
    if tables > 0 {
        out.push(format!("complete: {tables} of {tables} tables"));
        let guarded = a.guards.len();
        if guarded == 0 {
            out.push("no two rows disagree".to_string());
        } else {
            let overlaps = if guarded == 1 { "possible overlap" } else { "possible overlaps" };
            out.push(format!("{guarded} {overlaps} checked while the code runs"));
        }
        let rows: usize = r.p.tables.iter().map(|t| t.rows.len()).sum();
        let reached: usize = a.tables.iter().map(|t| t.reach.iter().filter(|x| x.is_some()).count()).sum();
        out.push(format!("{reached} of {rows} rows reached"));
    }
    out.push("no number too large for the code".to_string());
    out
}

fn form(r: &Rule) -> String {
    let p = r.p;
    let initial = r.first_case();
    let mut o = String::from("<form class=\"case\" novalidate autocomplete=\"off\" aria-labelledby=\"case-title\">\n");
    o.push_str("<h2 id=\"case-title\">Case</h2>\n");
    for (i, &v) in p.inputs.iter().enumerate() {
        let var = &p.vars[v];
        let id = format!("in-{i}");
        let start = initial.and_then(|c| c.get(&var.name)).cloned().unwrap_or(Json::Null);
        let (kind, step) = field_kind(&var.ty);
        let mut hint = words::var_words(p, var, Audience::Approver);
        if let Some(range) = words::range_words(p, var) {
            hint.push_str(&format!(" · {range}"));
        }
        if var.optional {
            hint.push_str(" · may be left out");
        }
        let _ = writeln!(o, "<div class=\"field\" data-input=\"{}\" data-kind=\"{kind}\">", esc(&var.name));
        let _ = write!(o, "<label for=\"{id}\">{}", esc(&var.name));
        if let Some(a) = &var.alias {
            let _ = write!(o, " <span class=\"alias\">{}</span>", esc(a));
        }
        o.push_str("</label>\n<div class=\"control\">");
        let described = format!("aria-describedby=\"{id}-hint {id}-error\"");
        match &var.ty {
            Ty::Enum(e) => {
                let _ = write!(o, "<select id=\"{id}\" name=\"{}\" {described}>", esc(&var.name));
                if var.optional {
                    let sel = if start.is_null() { " selected" } else { "" };
                    let _ = write!(o, "<option value=\"\"{sel}>none</option>");
                }
                for (k, val) in p.enums[*e].values.iter().enumerate() {
                    let sel = if start.as_str() == Some(&val.name) || (k == 0 && start.is_null() && !var.optional) {
                        " selected"
                    } else {
                        ""
                    };
                    let shown = match &val.display {
                        Some(d) => format!("{} — {}", val.name, d),
                        None => val.name.clone(),
                    };
                    let _ = write!(o, "<option value=\"{}\"{sel}>{}</option>", esc(&val.name), esc(&shown));
                }
                o.push_str("</select>");
            }
            Ty::Bool => {
                let _ = write!(o, "<select id=\"{id}\" name=\"{}\" {described}>", esc(&var.name));
                if var.optional {
                    let sel = if start.is_null() { " selected" } else { "" };
                    let _ = write!(o, "<option value=\"\"{sel}>none</option>");
                }
                for b in ["true", "false"] {
                    let sel =
                        if start.as_bool().map(|x| x.to_string()).as_deref() == Some(b) { " selected" } else { "" };
                    let _ = write!(o, "<option value=\"{b}\"{sel}>{b}</option>");
                }
                o.push_str("</select>");
            }
            Ty::Date => {
                let value = start.as_str().unwrap_or_default();
                let bounds = match &var.range {
                    Some((lo, hi)) => format!(
                        " min=\"{}\" max=\"{}\"",
                        esc(crate::eval::wire::to_wire(p, var, lo).as_str().unwrap_or_default()),
                        esc(crate::eval::wire::to_wire(p, var, hi).as_str().unwrap_or_default())
                    ),
                    None => String::new(),
                };
                let _ = write!(
                    o,
                    "<input id=\"{id}\" name=\"{}\" type=\"date\" value=\"{}\"{bounds} {described}>",
                    esc(&var.name),
                    esc(value)
                );
            }
            _ => {
                let value = match (&start, kind) {
                    (Json::Null, _) => String::new(),
                    (Json::String(s), _) => s.clone(),
                    (Json::Number(n), "rate") => rate_text(&n.to_string(), step.as_deref().unwrap_or("1")),
                    (j, _) => j.to_string(),
                };
                let mode = match kind {
                    "integer" => " inputmode=\"numeric\"",
                    "rate" => " inputmode=\"decimal\"",
                    _ => "",
                };
                let _ = write!(
                    o,
                    "<input id=\"{id}\" name=\"{}\" type=\"text\"{mode} spellcheck=\"false\" value=\"{}\" {described}>",
                    esc(&var.name),
                    esc(&value)
                );
                let unit = match &var.ty {
                    Ty::Rate { .. } => "%".to_string(),
                    t => t.unit().map(|u| u.symbol.to_string()).unwrap_or_default(),
                };
                if !unit.is_empty() {
                    let _ = write!(o, "<span class=\"unit\" aria-hidden=\"true\">{}</span>", esc(&unit));
                }
            }
        }
        o.push_str("</div>\n");
        let _ = writeln!(o, "<p class=\"hint\" id=\"{id}-hint\">{}</p>", esc(&hint));
        let _ = writeln!(o, "<p class=\"error\" id=\"{id}-error\" hidden></p>\n</div>");
    }
    o.push_str(&super::page_rows::form(r));
    if !p.constraints.is_empty() {
        o.push_str("<p class=\"constraints\">Also required: ");
        let items: Vec<String> = p.constraints.iter().map(|c| format!("<code>{}</code>", esc(&c.text))).collect();
        o.push_str(&items.join(", "));
        o.push_str("</p>\n");
    }
    // A refusal that is not about one field (a constraint) is shown here, by the form.
    o.push_str("<p class=\"error form-error\" hidden></p>\n</form>\n");
    o
}

/// A rate's wire steps as the percentage the field shows: `15` steps of `0.5`% is `7.5`.
fn rate_text(steps: &str, step_pct: &str) -> String {
    match (crate::num::parse_decimal(steps), crate::num::parse_decimal(step_pct)) {
        (Some(s), Some(k)) => crate::num::to_decimal_string(&(s * k)),
        _ => steps.to_string(),
    }
}

fn answer(r: &Rule) -> String {
    let p = r.p;
    let mut o = String::from("<section class=\"answer\" aria-labelledby=\"answer-title\">\n");
    o.push_str("<h2 id=\"answer-title\">Answer</h2>\n<dl class=\"outputs\" aria-live=\"polite\">\n");
    for (i, &v) in p.outputs.iter().enumerate() {
        let var = &p.vars[v];
        let _ = writeln!(
            o,
            "<div class=\"output\" data-output=\"{}\"><dt>{}</dt><dd id=\"out-{i}\" data-wire=\"\">—</dd>\
             <dd class=\"type\">{}</dd></div>",
            esc(&var.name),
            esc(&var.name),
            esc(&words::var_words(p, var, Audience::Approver))
        );
    }
    o.push_str("</dl>\n<p class=\"status\" role=\"status\" aria-live=\"polite\"></p>\n");
    o.push_str(
        "<details class=\"record\"><summary>Fixtures record</summary><pre><code class=\"record-line\"></code></pre>\
         </details>\n</section>\n",
    );
    o
}

fn types(r: &Rule) -> String {
    let p = r.p;
    let mut used: Vec<EnumId> = Vec::new();
    for &v in p.inputs.iter().chain(&p.outputs) {
        if let Ty::Enum(e) = p.vars[v].ty {
            if !used.contains(&e) {
                used.push(e);
            }
        }
    }
    for var in &p.vars {
        if let Ty::Enum(e) = var.ty {
            if !used.contains(&e) {
                used.push(e);
            }
        }
    }
    if used.is_empty() && p.groups.is_empty() {
        return String::new();
    }
    let mut o = String::from(
        "<section class=\"types\" aria-labelledby=\"types-title\">\n<h2 id=\"types-title\">Types</h2>\n<dl>\n",
    );
    for e in used {
        let en = &p.enums[e];
        let sep = if en.ordered { " < " } else { ", " };
        let values: Vec<String> = en.values.iter().map(|v| esc(&v.name)).collect();
        let _ = writeln!(o, "<dt><code>{}</code></dt><dd>{}</dd>", esc(&en.name), values.join(sep));
    }
    for g in &p.groups {
        let values: Vec<String> = g.values.iter().map(|&i| esc(&p.enums[g.enum_id].values[i as usize].name)).collect();
        let _ = writeln!(
            o,
            "<dt><code>{}</code></dt><dd>{} <span class=\"of\">(a group of {})</span></dd>",
            esc(&g.name),
            values.join(", "),
            esc(&p.enums[g.enum_id].name)
        );
    }
    o.push_str("</dl>\n</section>\n");
    o
}

fn card(r: &Rule, i: usize, placed: &graph::Placed) -> String {
    let p = r.p;
    let d = placed.decider;
    let id = decider_id(p, d);
    let decides: Vec<String> = d.decides(p).iter().map(|&v| p.vars[v].name.clone()).collect();
    let mut reads: Vec<String> = Vec::new();
    for &to in &d.decides(p) {
        for v in graph::reads(p, d, to) {
            if !reads.contains(&p.vars[v].name) {
                reads.push(p.vars[v].name.clone());
            }
        }
    }
    let kind = match d {
        DeciderRef::Table(t) => format!("table · {}", p.tables[t].policy.as_str()),
        DeciderRef::Define(_) => "define".to_string(),
        DeciderRef::Summary(s) => format!("summary · {}", p.summaries[s].op.as_str()),
        DeciderRef::Fold(f) => format!("fold · {}", p.folds[f].kind.as_str()),
    };
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<article class=\"card\" role=\"listitem\" data-decider=\"{}\" data-column=\"{}\" data-row=\"{}\" \
         tabindex=\"-1\" aria-labelledby=\"card-{i}-title\" aria-describedby=\"card-{i}-fired\">",
        esc(&id),
        placed.column,
        placed.row
    );
    let _ = writeln!(
        o,
        "<header><span class=\"kind\">{}</span><h3 id=\"card-{i}-title\">{}</h3>\
         <p class=\"reads\">{}<span class=\"arrow\" aria-label=\"decides\"> → </span>{}</p>\
         <p class=\"fired\" id=\"card-{i}-fired\"></p></header>",
        esc(&kind),
        esc(d.name(p)),
        line(&[super::text(reads.join(", "))]),
        esc(&decides.join(", "))
    );
    o.push_str("<div class=\"card-body\"></div>\n</article>\n");
    o
}
