//! The document as HTML: the same blocks the markdown is written from. A decision table
//! carries its table's name and each row its number, so the page can light the rows that
//! fired; a part carries its slot and decider, so the page can move it onto the board.

use super::{Block, Doc, Inline, Table, TableKind};

/// Text escaped for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub fn line(l: &[Inline]) -> String {
    l.iter()
        .map(|i| match i {
            Inline::Text(s) => esc(s),
            Inline::Code(s) => format!("<code>{}</code>", esc(s)),
            Inline::Strong(s) => format!("<strong>{}</strong>", esc(s)),
        })
        .collect()
}

/// The document's body: an `<article>`.
pub fn article(doc: &Doc) -> String {
    let mut out = String::from("<article class=\"doc\">\n");
    blocks(&doc.blocks, &mut out);
    out.push_str("</article>\n");
    out
}

fn blocks(bs: &[Block], out: &mut String) {
    for b in bs {
        match b {
            Block::Heading { level, id, text } => {
                out.push_str(&format!("<h{level} id=\"{}\">{}</h{level}>\n", esc(id), line(text)));
            }
            Block::Para(l) => out.push_str(&format!("<p>{}</p>\n", line(l))),
            Block::List(items) => {
                out.push_str("<ul>\n");
                for i in items {
                    out.push_str(&format!("<li>{}</li>\n", line(i)));
                }
                out.push_str("</ul>\n");
            }
            Block::Table(t) => table(t, out),
            Block::Part { key, blocks: inner } => {
                out.push_str(&format!(
                    "<section class=\"part part-{}\" data-part=\"{}\" data-decider=\"{}\">\n",
                    key.slot,
                    key.slot,
                    esc(&key.decider)
                ));
                blocks(inner, out);
                out.push_str("</section>\n");
            }
        }
    }
}

fn table(t: &Table, out: &mut String) {
    let (class, attrs, results, numbered) = match &t.kind {
        TableKind::Decision { table, results, numbered } => {
            ("decision", format!(" data-table=\"{}\"", esc(table)), *results, *numbered)
        }
        TableKind::WhereFrom => ("where-from", String::new(), usize::MAX, false),
        TableKind::Plain => ("plain", String::new(), usize::MAX, false),
    };
    out.push_str(&format!("<div class=\"table-wrap\"><table class=\"{class}\"{attrs}>\n<thead><tr>"));
    for (i, h) in t.head.iter().enumerate() {
        let c = if i >= results { " class=\"result\"" } else { "" };
        out.push_str(&format!("<th scope=\"col\"{c}>{}</th>", line(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in &t.rows {
        match r.number {
            Some(n) => out.push_str(&format!("<tr data-row=\"{n}\">")),
            None => out.push_str("<tr>"),
        }
        for (i, c) in r.cells.iter().enumerate() {
            let class = match (i >= results, i == 0 && numbered) {
                (_, true) => " class=\"num\"",
                (true, _) => " class=\"result\"",
                _ => "",
            };
            out.push_str(&format!("<td{class}>{}</td>", line(c)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}
