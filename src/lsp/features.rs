//! The answers to the editor's requests, each from one checked snapshot of a file and the
//! library functions the CLI calls (`fmt`'s formatter, the reference evaluator, the proofs).

use super::convert::{self, location, range};
use super::index::{Kind, TokenClass};
use super::Snapshot;
use crate::eval::{self, wire};
use crate::sema::{self, Program, Value, Var, VarId};
use crate::source::{FileId, SourceFile, Span};
use crate::syntax::{self, ast};
use lsp_types as lsp;
use std::collections::HashMap;

impl Snapshot {
    fn file(&self) -> &SourceFile {
        self.sources.get(self.checked.file)
    }

    fn offset(&self, p: lsp::Position) -> usize {
        convert::offset(self.file(), p)
    }

    fn var(&self, symbol: usize) -> Option<(&Program, VarId)> {
        let p = self.checked.program.as_ref()?;
        let s = &self.index.symbols[symbol];
        matches!(s.kind, Kind::Input | Kind::Output | Kind::Value | Kind::Define | Kind::Field)
            .then(|| p.var_by_name(&s.name).map(|v| (p, v)))
            .flatten()
    }

    pub fn diagnostics(&self) -> Vec<lsp::Diagnostic> {
        let file = self.checked.file;
        self.checked
            .diagnostics
            .iter()
            .map(|d| convert::diagnostic(d, &self.sources, file, self.checked.program.as_ref(), &self.index))
            .collect()
    }

    pub fn hover(&self, at: lsp::Position) -> Option<lsp::Hover> {
        let offset = self.offset(at);
        let mut parts = Vec::new();
        let mut span = None;
        if let Some((s, written)) = self.index.symbol_at(self.checked.file, offset) {
            parts.push(self.describe(s));
            span = Some(written);
        }
        if let Some(p) = &self.checked.program {
            if let Some((t, r)) = row_at(p, offset) {
                parts.push(self.describe_row(p, t, r));
                span.get_or_insert(p.tables[t].rows[r].span);
            }
        }
        if parts.is_empty() {
            return None;
        }
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: parts.join("\n\n---\n\n"),
            }),
            range: span.map(|s| range(self.file(), s)),
        })
    }

    fn describe(&self, symbol: usize) -> String {
        let s = &self.index.symbols[symbol];
        if let Some((p, v)) = self.var(symbol) {
            return self.describe_var(p, v);
        }
        let p = self.checked.program.as_ref();
        match s.kind {
            Kind::Table => {
                let Some((t, table)) = p.and_then(|p| p.tables.iter().enumerate().find(|(_, t)| t.name == s.name))
                else {
                    return format!("table `{}`", s.name);
                };
                let p = p.expect("a table was found in it");
                let results: Vec<&str> = table.results.iter().map(|&v| p.vars[v].name.as_str()).collect();
                let mut out = format!(
                    "table `{}` → {} ({}, {} rows)",
                    table.name,
                    results.join(", "),
                    table.policy.as_str(),
                    table.rows.len()
                );
                out.push_str(&format!("\n\n{}", self.table_verdict(t)));
                out
            }
            Kind::Enum => match p.and_then(|p| p.enums.iter().find(|e| e.name == s.name)) {
                Some(e) => {
                    let values: Vec<&str> = e.values.iter().map(|v| v.name.as_str()).collect();
                    format!("enum `{}`{}: {}", e.name, if e.ordered { " (ordered)" } else { "" }, values.join(", "))
                }
                None => format!("enum `{}`", s.name),
            },
            Kind::EnumValue => format!("`{}`: a value of enum `{}`", s.name, s.parent.as_deref().unwrap_or("?")),
            Kind::Sequence => match p.and_then(|p| p.sequences.iter().find(|q| q.name == s.name).map(|q| (p, q))) {
                Some((p, seq)) => {
                    let fields: Vec<String> = seq
                        .fields
                        .iter()
                        .map(|&f| format!("`{}`: {}", p.vars[f].name, sema::var_ty_name(&p.vars[f], &p.enums)))
                        .collect();
                    format!(
                        "sequence `{}`: up to {} elements, each with {}  \nwalks over it: {} (each one loop)",
                        seq.name,
                        seq.max,
                        fields.join(", "),
                        p.walks.iter().filter(|w| p.sequences[w.seq].name == seq.name).count()
                    )
                }
                None => format!("sequence `{}`", s.name),
            },
            Kind::Group => match p.and_then(|p| p.groups.iter().find(|g| g.name == s.name)) {
                Some(g) => {
                    let e = &p.expect("a group was found in it").enums[g.enum_id];
                    let values: Vec<&str> = g.values.iter().map(|&i| e.values[i as usize].name.as_str()).collect();
                    format!("group `{}` of enum `{}` = {}", g.name, e.name, values.join(", "))
                }
                None => format!("group `{}`", s.name),
            },
            kind => format!("{} `{}`", kind.word(), s.name),
        }
    }

    fn describe_var(&self, p: &Program, v: VarId) -> String {
        let var = &p.vars[v];
        let kind = match var.kind {
            sema::VarKind::Input => "input",
            sema::VarKind::Output => "output",
            sema::VarKind::Value => "value",
            sema::VarKind::Define => "define",
            sema::VarKind::Element => "field",
        };
        let optional = if var.optional { "?" } else { "" };
        let of = match (var.kind, var.frame) {
            (sema::VarKind::Element, Some(seq)) => format!(" of each element of `{}`", p.sequences[seq].name),
            _ => String::new(),
        };
        let mut lines = vec![format!("{kind} `{}`{of}: {}{optional}", var.name, sema::var_ty_name(var, &p.enums))];
        if let Some(u) = var.ty.unit() {
            lines.push(format!("unit: {}", u.symbol));
        }
        match &var.range_text {
            Some(r) => lines.push(format!("declared range: {r}")),
            None => lines.push("declared range: none".into()),
        }
        if var.kind != sema::VarKind::Input {
            if let Some(r) = proven_range(self, p, v) {
                lines.push(format!("proven range: {r}"));
            }
        }
        if let Some(r) = &var.rounding {
            let unit = var.ty.unit().map_or("", |u| u.symbol);
            lines.push(format!(
                "rounding: {}, to {}{unit}",
                r.mode.as_str(),
                crate::num::to_decimal_string(&r.grid_units)
            ));
        }
        if let Some(step) = int64_step(self, p, v) {
            lines.push(format!("held in generated code as a whole number of {step}"));
        }
        match var.decided_by {
            Some(sema::Decider::Table(t)) => lines.push(format!("decided by table `{}`", p.tables[t].name)),
            Some(sema::Decider::Define(_)) => lines.push("decided by its define".into()),
            Some(sema::Decider::Summary(s)) => {
                let s = &p.summaries[s];
                let of = s.of.map(|v| format!(" of `{}`", p.vars[v].name)).unwrap_or_default();
                let filter = match &s.filter {
                    Some(f) => format!(" where `{}`", &self.file().text[f.span.range()]),
                    None => String::new(),
                };
                lines.push(format!(
                    "summary: the `{}`{of} over the elements of `{}`{filter}, found by its walk",
                    s.op.as_str(),
                    p.sequences[s.seq].name
                ))
            }
            Some(sema::Decider::Fold(f)) => {
                let f = &p.folds[f];
                lines.push(format!(
                    "fold: the answer of `{}` of `{}` over `{}` by `{}`, found by its walk",
                    f.kind.as_str(),
                    p.vars[f.value].name,
                    p.sequences[f.seq].name,
                    p.vars[f.verdict].name
                ))
            }
            None => {}
        }
        // A value inside a walk has one value for each element.
        if let (Some(seq), false) = (var.frame, var.kind == sema::VarKind::Element) {
            lines.push(format!("worked out once for each element of `{}`", p.sequences[seq].name));
        }
        lines.join("  \n")
    }

    /// What the proofs say of table `t`: proven, or what was found.
    fn table_verdict(&self, t: usize) -> String {
        let p = self.checked.program.as_ref().expect("a table's program");
        let name = &p.tables[t].name;
        let found: Vec<String> = self
            .checked
            .diagnostics
            .iter()
            .filter(|d| d.table.as_deref() == Some(name))
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        let complete = self.checked.analysis.as_ref().and_then(|a| a.tables.get(t)).is_some_and(|t| t.complete);
        match (found.is_empty(), complete) {
            (true, true) => "proven: every input takes a row, and no two rows disagree".into(),
            (true, false) => "not proven: the analysis stopped before it finished".into(),
            (false, _) => found.join("  \n"),
        }
    }

    fn describe_row(&self, p: &Program, t: usize, r: usize) -> String {
        let mut out = format!("row {} of table `{}`", r + 1, p.tables[t].name);
        let reach =
            self.checked.analysis.as_ref().and_then(|a| a.tables.get(t)).and_then(|proof| proof.reach_inputs(p, r));
        match reach {
            Some(inputs) => out.push_str(&format!("  \nreached by: {}", inputs_text(p, &inputs))),
            None => out.push_str("  \nno input found that reaches it"),
        }
        out
    }

    pub fn definition(&self, at: lsp::Position) -> Option<lsp::Location> {
        let offset = self.offset(at);
        if let Some(&(_, f)) =
            self.index.uses.iter().find(|(s, _)| s.start as usize <= offset && offset <= s.end as usize)
        {
            return Some(location(&self.sources, f, Span::new(0, 0)));
        }
        let (s, _) = self.index.symbol_at(self.checked.file, offset)?;
        let s = &self.index.symbols[s];
        Some(location(&self.sources, s.file, s.span))
    }

    pub fn references(&self, at: lsp::Position, with_declaration: bool) -> Option<Vec<lsp::Location>> {
        let (s, _) = self.index.symbol_at(self.checked.file, self.offset(at))?;
        let refs = self.index.references(s);
        let skip = usize::from(!with_declaration);
        Some(refs.iter().skip(skip).map(|&(f, span)| location(&self.sources, f, span)).collect())
    }

    pub fn prepare_rename(&self, at: lsp::Position) -> Option<lsp::Range> {
        let (_, span) = self.index.symbol_at(self.checked.file, self.offset(at))?;
        Some(range(self.file(), span))
    }

    /// Every place the name at `at` is written, renamed; an error names what is wrong with `to`.
    // lsp-types' `Uri` hashes and compares its text; its `Cell` only caches a parse.
    #[allow(clippy::mutable_key_type)]
    pub fn rename(&self, at: lsp::Position, to: &str) -> Result<Option<lsp::WorkspaceEdit>, String> {
        let Some((s, _)) = self.index.symbol_at(self.checked.file, self.offset(at)) else {
            return Ok(None);
        };
        let mut chars = to.chars();
        let starts = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
        if !starts || !chars.all(|c| c == '_' || c.is_alphanumeric()) {
            return Err(format!("`{to}` is not a name: a name is letters, digits and `_`, not starting with a digit"));
        }
        if syntax::lexer::is_keyword(to) {
            return Err(format!("`{to}` is a keyword"));
        }
        let taken = self.index.symbols.iter().any(|o| o.name == to);
        if taken {
            return Err(format!("`{to}` is declared already"));
        }
        let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
        for (f, span) in self.index.references(s) {
            changes
                .entry(convert::file_uri(&self.sources, f))
                .or_default()
                .push(lsp::TextEdit { range: range(self.sources.get(f), span), new_text: to.to_string() });
        }
        Ok(Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }))
    }

    /// One quick fix per `fix` of a finding that the range touches.
    pub fn code_actions(&self, uri: &lsp::Uri, asked: lsp::Range) -> Vec<lsp::CodeActionOrCommand> {
        let file = self.checked.file;
        let (lo, hi) = (self.offset(asked.start), self.offset(asked.end));
        let mut out = Vec::new();
        for d in &self.checked.diagnostics {
            let Some(fix) = &d.fix else { continue };
            let Some((fix_file, at)) = fix.at else { continue };
            let shown = convert::diagnostic(d, &self.sources, file, self.checked.program.as_ref(), &self.index);
            let on_line = |s: Span| {
                let f = self.file();
                let (a, b) = (f.utf16_position(s.start).0, f.utf16_position(s.end).0);
                let (c, d) = (f.utf16_position(lo as u32).0, f.utf16_position(hi as u32).0);
                a <= d && c <= b
            };
            if d.primary.file == file && !on_line(d.primary.span) && !(fix_file == file && on_line(at)) {
                continue;
            }
            let target = convert::file_uri(&self.sources, fix_file);
            let target = if fix_file == file { uri.clone() } else { target };
            let written = self.sources.get(fix_file).slice(at);
            let what = match (fix.text.is_empty(), at.is_empty()) {
                (true, _) => format!("remove `{}`", written.trim()),
                (false, true) => format!("insert `{}`", fix.text.trim()),
                (false, false) => format!("replace `{}` with `{}`", written.trim(), fix.text.trim()),
            };
            let edit = lsp::TextEdit { range: range(self.sources.get(fix_file), at), new_text: fix.text.clone() };
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("{} ({}): {what}", fix.kind, d.code),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![shown]),
                edit: Some(lsp::WorkspaceEdit {
                    changes: Some(HashMap::from([(target, vec![edit])])),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
        out
    }

    /// The type of a define that does not declare one, and the proven range of every value.
    pub fn inlay_hints(&self, asked: lsp::Range) -> Vec<lsp::InlayHint> {
        let Some(p) = &self.checked.program else { return Vec::new() };
        let f = self.file();
        let mut out = Vec::new();
        let inside = |at: u32| (asked.start.line..=asked.end.line).contains(&f.utf16_position(at).0);
        // `define fee = …` writes no type: the type it has (from its declaration, or found).
        for d in &p.defines {
            let var = &p.vars[d.var];
            let head = format!("define {}", var.name);
            let written = f.slice(d.span);
            let typed = written.get(head.len()..).is_some_and(|rest| rest.trim_start().starts_with(':'));
            if written.starts_with(&head) && !typed && inside(d.span.start) {
                let at = d.span.start + head.len() as u32;
                let mut label = format!(": {}", sema::var_ty_name(var, &p.enums));
                if let Some(step) = int64_step(self, p, d.var) {
                    label.push_str(&format!(" in steps of {step}"));
                }
                out.push(hint(f, at, label, lsp::InlayHintKind::TYPE));
            }
        }
        for (v, var) in p.vars.iter().enumerate() {
            if !inside(var.span.start) {
                continue;
            }
            if var.kind != sema::VarKind::Input {
                if let Some(r) = proven_range(self, p, v) {
                    out.push(hint(f, var.decl_span.end, format!(" proven {r}"), lsp::InlayHintKind::PARAMETER));
                }
            }
        }
        out
    }

    /// Over each `expect` line, the record the reference evaluator gives; over each table,
    /// what the proofs say and, for a finding with one, its witness.
    pub fn code_lenses(&self) -> Vec<lsp::CodeLens> {
        let Some(p) = &self.checked.program else { return Vec::new() };
        let f = self.file();
        let lens = |span: Span, title: String, argument: serde_json::Value| lsp::CodeLens {
            range: range(f, Span::new(span.start as usize, span.start as usize)),
            command: Some(lsp::Command { title, command: "rulec.show".into(), arguments: Some(vec![argument]) }),
            data: None,
        };
        let mut out = Vec::new();
        for (t, table) in p.tables.iter().enumerate() {
            let verdict = self.table_verdict(t);
            let first = verdict.lines().next().unwrap_or("").trim_end_matches("  ").to_string();
            out.push(lens(table.name_span, first, serde_json::Value::String(verdict)));
            for d in self.checked.diagnostics.iter().filter(|d| d.table.as_deref() == Some(&table.name)) {
                if let Some(w) = &d.witness {
                    out.push(lens(
                        table.name_span,
                        format!("witness ({}): {}", d.code, convert::witness_text(w)),
                        w.clone(),
                    ));
                }
            }
        }
        for e in &p.expects {
            let record = match crate::check::expect_inputs(p, e) {
                Err(r) => wire::refusal_line(&r),
                Ok(inputs) => match eval::evaluate(p, &inputs) {
                    Ok(o) => wire::record(p, &inputs, &o, ""),
                    Err(err) => wire::contradiction_line(&err),
                },
            };
            let shown: serde_json::Value = serde_json::from_str(&record).unwrap_or(serde_json::Value::Null);
            let observed = shown.get("observed").map_or_else(|| record.clone(), |o| o.to_string());
            out.push(lens(e.span, format!("evaluate: {observed}"), shown));
        }
        out
    }
}

fn hint(f: &SourceFile, at: u32, label: String, kind: lsp::InlayHintKind) -> lsp::InlayHint {
    lsp::InlayHint {
        position: convert::position(f, at),
        label: lsp::InlayHintLabel::String(label),
        kind: Some(kind),
        text_edits: None,
        tooltip: None,
        padding_left: None,
        padding_right: None,
        data: None,
    }
}

/// The proven range of a variable, written as the rule writes values.
fn proven_range(snap: &Snapshot, p: &Program, v: VarId) -> Option<String> {
    let a = snap.checked.analysis.as_ref()?;
    let (lo, hi) = a.values.intervals.get(v)?.as_ref()?;
    let var: &Var = &p.vars[v];
    let show = |x: &crate::num::Rat| wire::display(p, &var.ty, &Value::Num(x.clone()));
    Some(format!("{}..{}", show(lo), show(hi)))
}

/// The unit of the int64 integer generated code holds a number in (its scale), written as
/// the rule writes values.
fn int64_step(snap: &Snapshot, p: &Program, v: VarId) -> Option<String> {
    let a = snap.checked.analysis.as_ref()?;
    let scale = a.values.scales.var_scale.get(v)?.as_ref()?;
    Some(wire::display(p, &p.vars[v].ty, &Value::Num(scale.clone())))
}

fn inputs_text(p: &Program, inputs: &[Value]) -> String {
    p.inputs
        .iter()
        .zip(inputs)
        .map(|(&v, x)| format!("{}={}", p.vars[v].name, wire::display(p, &p.vars[v].ty, x)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table and row (0-based) whose line holds `offset`.
fn row_at(p: &Program, offset: usize) -> Option<(usize, usize)> {
    p.tables.iter().enumerate().find_map(|(t, table)| {
        let r = table.rows.iter().position(|r| r.span.start as usize <= offset && offset <= r.span.end as usize)?;
        Some((t, r))
    })
}

/// The whole text in `fmt`'s canonical form: one edit, none when it is canonical, `None`
/// when it does not parse.
pub fn formatting(file: &SourceFile) -> Option<Vec<lsp::TextEdit>> {
    let parsed = syntax::parse(&file.text, FileId(0));
    if parsed.diags.iter().any(crate::diag::Diagnostic::is_error) {
        return None;
    }
    let formatted = syntax::fmt::format_file(parsed.file.as_ref()?);
    if formatted == file.text {
        return Some(Vec::new());
    }
    Some(vec![lsp::TextEdit { range: range(file, Span::new(0, file.text.len())), new_text: formatted }])
}

/// Tables and declarations, as the outline shows them.
pub fn document_symbols(file: &SourceFile) -> Vec<lsp::DocumentSymbol> {
    let Some(ast) = syntax::parse(&file.text, FileId(0)).file else { return Vec::new() };
    #[allow(deprecated)]
    let symbol =
        |name: &str, detail: Option<String>, kind, whole: Span, name_span: Span, children| lsp::DocumentSymbol {
            name: name.to_string(),
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: range(file, whole),
            selection_range: range(file, name_span),
            children,
        };
    let mut out = Vec::new();
    for item in &ast.items {
        let it = match &item.kind {
            ast::ItemKind::Enum(e) => {
                let values = e
                    .values
                    .iter()
                    .map(|v| {
                        symbol(
                            &v.name.name.name,
                            None,
                            lsp::SymbolKind::ENUM_MEMBER,
                            v.name.span(),
                            v.name.span(),
                            None,
                        )
                    })
                    .collect();
                symbol(&e.name.name.name, None, lsp::SymbolKind::ENUM, item.span, e.name.span(), Some(values))
            }
            ast::ItemKind::Group(g) => {
                symbol(&g.name.name, Some("group".into()), lsp::SymbolKind::CONSTANT, item.span, g.name.span, None)
            }
            ast::ItemKind::Input(d) => symbol(
                &d.name.name.name,
                Some("input".into()),
                lsp::SymbolKind::VARIABLE,
                item.span,
                d.name.span(),
                None,
            ),
            ast::ItemKind::Output(d) => symbol(
                &d.name.name.name,
                Some("output".into()),
                lsp::SymbolKind::PROPERTY,
                item.span,
                d.name.span(),
                None,
            ),
            ast::ItemKind::Value(d) => {
                symbol(&d.name.name.name, Some("value".into()), lsp::SymbolKind::FIELD, item.span, d.name.span(), None)
            }
            ast::ItemKind::Define(d) => {
                symbol(&d.name.name.name, Some("define".into()), lsp::SymbolKind::FIELD, item.span, d.name.span(), None)
            }
            ast::ItemKind::Table(t) => {
                let results: Vec<&str> = t.results.iter().map(|r| r.name.as_str()).collect();
                let detail = format!("→ {} ({} rows)", results.join(", "), t.rows.len());
                symbol(&t.name.name, Some(detail), lsp::SymbolKind::STRUCT, item.span, t.name.span, None)
            }
            _ => continue,
        };
        out.push(it);
    }
    out
}

pub const TOKEN_TYPES: [lsp::SemanticTokenType; 11] = [
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::PARAMETER,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::FUNCTION,
    lsp::SemanticTokenType::ENUM,
    lsp::SemanticTokenType::ENUM_MEMBER,
    lsp::SemanticTokenType::TYPE,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::COMMENT,
    lsp::SemanticTokenType::OPERATOR,
];
pub const TOKEN_MODIFIERS: [lsp::SemanticTokenModifier; 1] = [lsp::SemanticTokenModifier::DECLARATION];

impl Snapshot {
    /// Every token of the file, classified; positions relative, in UTF-16 units.
    pub fn semantic_tokens(&self) -> lsp::SemanticTokens {
        let f = self.file();
        let mut data = Vec::new();
        let (mut line, mut col) = (0, 0);
        for &(span, class) in &self.index.tokens {
            let (kind, declaration) = match class {
                TokenClass::Keyword => (0, false),
                TokenClass::Name(s) => {
                    let sym = &self.index.symbols[s];
                    let kind = match sym.kind {
                        // What a caller passes: an input, a sequence and its element's fields.
                        Kind::Input | Kind::Sequence | Kind::Field => 1,
                        Kind::Output | Kind::Value | Kind::Define => 2,
                        Kind::Table => 3,
                        Kind::Enum => 4,
                        Kind::EnumValue => 5,
                        Kind::Group => 6,
                    };
                    (kind, sym.file == self.checked.file && sym.span == span)
                }
                TokenClass::Number => (7, false),
                TokenClass::Str => (8, false),
                TokenClass::Comment => (9, false),
                TokenClass::Operator => (10, false),
            };
            let (l, c) = f.utf16_position(span.start);
            let length: usize = f.slice(span).chars().map(char::len_utf16).sum();
            let delta_start = if l == line { c - col } else { c };
            data.push(lsp::SemanticToken {
                delta_line: l - line,
                delta_start,
                length: length as u32,
                token_type: kind,
                token_modifiers_bitset: u32::from(declaration),
            });
            (line, col) = (l, c);
        }
        lsp::SemanticTokens { result_id: None, data }
    }
}
