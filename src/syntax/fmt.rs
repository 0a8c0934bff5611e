//! The canonical form (`rulec fmt`): declarations in the order of language.md §2, one
//! space around operators, `, ` in lists, canonical literals, aligned Markdown tables.
//! Comments stay with the line they were written on or above.

use super::ast::*;
use crate::num::to_decimal_string;
use crate::units::{self, Dim};
use unicode_width::UnicodeWidthStr;

pub fn format_file(f: &File) -> String {
    let mut out = String::new();
    comments(&mut out, &f.header.leading);
    let header = match &f.header.kind {
        HeaderKind::Rule { version } => format!("rule {} v{version}", decl_name(&f.header.name)),
        HeaderKind::Enums => format!("enums {}", decl_name(&f.header.name)),
    };
    line(&mut out, &header, f.header.trailing.as_ref());

    let mut items: Vec<&Item> = f.items.iter().collect();
    items.sort_by_key(|i| i.kind.canonical_rank());
    let mut prev_rank: Option<u8> = None;
    for item in items {
        let rank = item.kind.canonical_rank();
        // The file's `about` sits right under the header; every other group, and every
        // table, is set off by a blank line.
        let blank = match prev_rank {
            None => rank != 0,
            Some(p) => p != rank || matches!(item.kind, ItemKind::Table(_) | ItemKind::Fold(_)),
        };
        if blank {
            out.push('\n');
        }
        prev_rank = Some(rank);
        comments(&mut out, &item.leading);
        print_item(&mut out, item);
        if let Some(a) = &item.about {
            line(&mut out, &format!("about {}", string_lit(&a.text.value)), a.trailing.as_ref());
        }
    }
    if !f.trailing_comments.is_empty() {
        out.push('\n');
        comments(&mut out, &f.trailing_comments);
    }
    out
}

/// A block of whole-line comments; a blank line that parted two of them is kept.
fn comments(out: &mut String, cs: &[Comment]) {
    for (i, c) in cs.iter().enumerate() {
        if i > 0 && c.blank_before {
            out.push('\n');
        }
        out.push('#');
        out.push_str(c.text.trim_end());
        out.push('\n');
    }
}

fn line(out: &mut String, text: &str, trailing: Option<&Comment>) {
    out.push_str(text);
    if let Some(c) = trailing {
        out.push_str(" #");
        out.push_str(c.text.trim_end());
    }
    out.push('\n');
}

fn print_item(out: &mut String, item: &Item) {
    let t = item.trailing.as_ref();
    match &item.kind {
        ItemKind::About(a) => line(out, &format!("about {}", string_lit(&a.text.value)), t),
        ItemKind::Use(p) => line(out, &format!("use {}", string_lit(&p.value)), t),
        ItemKind::Enum(e) => {
            let sep = if e.ordered { " < " } else { ", " };
            let values: Vec<String> = e
                .values
                .iter()
                .map(|v| match &v.display {
                    Some(d) => format!("{} {}", decl_name(&v.name), string_lit(&d.value)),
                    None => decl_name(&v.name),
                })
                .collect();
            line(out, &format!("enum {}: {}", decl_name(&e.name), values.join(sep)), t);
        }
        ItemKind::Group(g) => {
            let values: Vec<&str> = g.values.iter().map(|v| v.name.as_str()).collect();
            line(out, &format!("group {} = {}", g.name.name, values.join(", ")), t);
        }
        ItemKind::Input(d) => line(out, &format!("input {}", var_decl(d)), t),
        ItemKind::Output(d) => line(out, &format!("output {}", var_decl(d)), t),
        ItemKind::Value(d) => line(out, &format!("value {}", var_decl(d)), t),
        ItemKind::Define(d) => {
            let mut s = format!("define {}", decl_name(&d.name));
            if let Some(ty) = &d.ty {
                s.push_str(": ");
                s.push_str(&print_type(ty));
                if let Some(r) = &d.range {
                    s.push(' ');
                    s.push_str(&print_range(r));
                }
            }
            s.push_str(" = ");
            s.push_str(&print_expr(&d.expr));
            line(out, &s, t);
        }
        ItemKind::Elements(e) => {
            let fields: Vec<String> = e
                .fields
                .iter()
                .map(|f| match &f.range {
                    Some(r) => format!("{}: {} {}", decl_name(&f.name), print_type(&f.ty), print_range(r)),
                    None => format!("{}: {}", decl_name(&f.name), print_type(&f.ty)),
                })
                .collect();
            let head = format!("elements {} up to {}", decl_name(&e.name), print_literal(&e.max));
            line(out, &format!("{head}: {}", fields.join(", ")), t);
        }
        ItemKind::Fold(f) => {
            let mut s =
                format!("fold {} {} over {} by {}:", f.kind.as_str(), f.value.name, f.over.name, f.verdict.name);
            for (action, verdict) in &f.clauses {
                s.push_str(&format!(" {} {},", action.as_str(), verdict.name));
            }
            s.push_str(&format!(" empty {}", print_expr(&f.empty)));
            if let Some(into) = &f.into {
                s.push_str(&format!(" -> {}", into.name));
            }
            line(out, &s, t);
        }
        ItemKind::Constraint(e) => line(out, &format!("constraint {}", print_expr(e)), t),
        ItemKind::Table(tb) => print_table(out, tb, t),
        ItemKind::Expect(e) => {
            let side = |xs: &[(Ident, Literal)]| {
                xs.iter().map(|(n, l)| format!("{}={}", n.name, print_literal(l))).collect::<Vec<_>>().join(", ")
            };
            let s = if e.inputs.is_empty() {
                format!("expect -> {}", side(&e.outputs))
            } else {
                format!("expect {} -> {}", side(&e.inputs), side(&e.outputs))
            };
            line(out, &s, t);
        }
    }
}

fn print_table(out: &mut String, t: &Table, trailing: Option<&Comment>) {
    let mut head = format!("table {}", t.name.name);
    if let Some((p, _)) = &t.policy {
        head.push(' ');
        head.push_str(p.as_str());
    }
    let results: Vec<&str> = t.results.iter().map(|r| r.name.as_str()).collect();
    head.push_str(" -> ");
    head.push_str(&results.join(", "));
    line(out, &head, trailing);

    let header: Vec<String> = t.columns.iter().map(|c| c.name.clone()).collect();
    let rows: Vec<Vec<String>> = t.rows.iter().map(|r| r.cells.iter().map(print_cell).collect()).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.width());
            }
        }
    }
    let render = |cells: &[String]| -> String {
        let mut s = String::from("|");
        for (i, c) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            s.push(' ');
            s.push_str(c);
            s.push_str(&" ".repeat(w.saturating_sub(c.width())));
            s.push_str(" |");
        }
        s
    };
    comments(out, &t.header_leading);
    line(out, &render(&header), t.header_comment.as_ref());
    let sep: String = widths.iter().map(|w| format!("{}|", "-".repeat(w + 2))).collect();
    line(out, &format!("|{sep}"), t.separator_comment.as_ref());
    for (row, cells) in t.rows.iter().zip(&rows) {
        comments(out, &row.leading);
        line(out, &render(cells), row.trailing.as_ref());
    }
}

pub fn print_cell(c: &CellSyntax) -> String {
    match &c.kind {
        Cell::Result(e) => print_expr(e),
        Cell::Cond(Condition::Any) => "-".into(),
        Cell::Cond(Condition::Tests { negated, tests }) => {
            let body = tests.iter().map(print_test).collect::<Vec<_>>().join(", ");
            if *negated {
                format!("not: {body}")
            } else {
                body
            }
        }
    }
}

pub fn print_test(t: &Test) -> String {
    match t {
        Test::Equals(l) => print_literal(l),
        Test::Bounds(bs) => {
            bs.iter().map(|(op, l)| format!("{}{}", op.as_str(), print_literal(l))).collect::<Vec<_>>().join(" ")
        }
    }
}

fn decl_name(n: &DeclName) -> String {
    match &n.alias {
        Some(a) => format!("{}({})", n.name.name, a.name),
        None => n.name.name.clone(),
    }
}

fn var_decl(d: &VarDecl) -> String {
    let mut s = format!("{}: {}", decl_name(&d.name), print_type(&d.ty));
    if let Some(r) = &d.range {
        s.push(' ');
        s.push_str(&print_range(r));
    }
    if let Some(r) = &d.rounding {
        s.push_str(&format!(" round {}({})", r.mode.name, print_literal(&r.grid)));
    }
    if let Some(d) = &d.default {
        s.push_str(" default ");
        s.push_str(&print_literal(d));
    }
    s
}

fn print_range(r: &RangeExpr) -> String {
    format!("{}..{}", print_literal(&r.lo), print_literal(&r.hi))
}

pub fn print_type(t: &TypeExpr) -> String {
    let mut s = match &t.kind {
        TypeKind::Named(n) => n.name.clone(),
        TypeKind::Param { head, args } => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match a {
                    TypeArg::Name(n) => n.name.clone(),
                    TypeArg::Literal(l) => print_literal(l),
                })
                .collect();
            format!("{}[{}]", head.name, args.join(", "))
        }
        TypeKind::List(element) => format!("list[{}]", print_type(element)),
    };
    if t.optional {
        s.push('?');
    }
    s
}

pub fn string_lit(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

pub fn print_literal(l: &Literal) -> String {
    match &l.kind {
        LitKind::Number { value, unit } => {
            let mut s = to_decimal_string(value);
            if let Some(u) = unit {
                pad_to_minor_digits(&mut s, &u.name);
                s.push_str(&u.name);
            }
            s
        }
        LitKind::Date { year, month, day } => format!("{year:04}-{month:02}-{day:02}"),
        LitKind::Bool(b) => b.to_string(),
        LitKind::Str(s) => string_lit(s),
        LitKind::None => "none".into(),
        LitKind::Name(n) => n.name.clone(),
        LitKind::Qualified { ty, value } => format!("{}.{}", ty.name, value.name),
        LitKind::List(items) => format!("[{}]", items.iter().map(print_literal).collect::<Vec<_>>().join(", ")),
        LitKind::Record(fields) => {
            let fields: Vec<String> = fields.iter().map(|(n, v)| format!("{}={}", n.name, print_literal(v))).collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

/// A money literal with a fraction shows every minor digit of its currency (`4.90EUR`,
/// not `4.9EUR`): the amount reads as it is written on a price tag.
fn pad_to_minor_digits(number: &mut String, unit: &str) {
    let Some(unit) = units::lookup(unit).filter(|u| matches!(u.dim, Dim::Money(_))) else { return };
    let Some(point) = number.find('.') else { return };
    let minor_digits = unit.factor.ilog10() as usize;
    let written = number.len() - point - 1;
    number.push_str(&"0".repeat(minor_digits.saturating_sub(written)));
}

pub fn print_expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Lit(l) => print_literal(l),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Neg(x) => format!("-{}", print_expr(x)),
        ExprKind::Paren(x) => format!("({})", print_expr(x)),
        ExprKind::Binary(op, l, r) => {
            format!("{} {} {}", print_expr(l), op.as_str(), print_expr(r))
        }
        ExprKind::Cmp(op, l, r) => format!("{} {} {}", print_expr(l), op.as_str(), print_expr(r)),
        ExprKind::Not(x) => format!("not {}", print_expr(x)),
        ExprKind::And(l, r) => format!("{} and {}", print_expr(l), print_expr(r)),
        ExprKind::Or(l, r) => format!("{} or {}", print_expr(l), print_expr(r)),
        ExprKind::Call(f, args) => {
            format!("{}({})", f.as_str(), args.iter().map(print_expr).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Round { value, mode, grid } => {
            format!("round({}, {}, {})", print_expr(value), mode.name, print_literal(grid))
        }
        ExprKind::If { cond, then, els } => {
            format!("if {} then {} else {}", print_expr(cond), print_expr(then), print_expr(els))
        }
        ExprKind::In { name, values } => {
            format!("{} in {{{}}}", name.name, values.iter().map(print_literal).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Summary(m) => print_summary(m),
    }
}

fn print_summary(m: &Summary) -> String {
    let mut s = match &m.of {
        Some(of) => format!("{} {} over {}", m.op.as_str(), of.name, m.over.name),
        None => format!("{} {}", m.op.as_str(), m.over.name),
    };
    if let Some(f) = &m.filter {
        s.push_str(&format!(" where {}", print_expr(f)));
    }
    if let Some(e) = &m.empty {
        s.push_str(&format!(" empty {}", print_expr(e)));
    }
    s
}
