//! Resolution and type checking: the syntax tree of a rule (and the enums files it uses)
//! becomes a `Program`. Every name, type and unit error is reported here with its code.

use super::ir::*;
use super::types::{unify, Grid, Tag, Ty};
use crate::diag::{Diagnostic, FileId};
use crate::num::{int, Rat, RoundMode};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, CmpOp, ExprKind, Func, ItemKind, LitKind};
use crate::syntax::fmt::print_expr;
use crate::units::{self, Dim};
use num_traits::{Signed, Zero};
use std::collections::{HashMap, HashSet};

#[path = "walks.rs"]
mod walks;

/// An enums file brought in by `use`, already parsed.
pub struct Import<'a> {
    pub file: FileId,
    pub ast: &'a ast::File,
    pub use_span: Span,
    /// The file's name and the SHA-256 of its bytes (`UseIr`).
    pub source_name: String,
    pub sha256: String,
}

pub fn lower(file: FileId, text: &str, ast: &ast::File, imports: &[Import]) -> (Option<Program>, Vec<Diagnostic>) {
    let mut l = Lower::new(file);
    l.text = text.to_string();
    let prog = l.run(ast, imports);
    (prog, l.diags)
}

/// Check an enums file on its own (`rulec check shared/tiers.rule`).
pub fn check_enums_file(file: FileId, ast: &ast::File) -> Vec<Diagnostic> {
    let mut l = Lower::new(file);
    l.collect_enums(file, ast);
    for item in &ast.items {
        if !matches!(item.kind, ItemKind::Enum(_) | ItemKind::Group(_) | ItemKind::About(_)) {
            l.diags.push(
                Diagnostic::new("E069", file, item.span, "an enums file holds only `enum`, `group` and `about`")
                    .label("not allowed in an enums file")
                    .help("move this declaration into a rule file that `use`s this one"),
            );
        }
    }
    l.diags
}

struct Lower {
    file: FileId,
    /// The rule's text, for fixes that quote an expression.
    text: String,
    diags: Vec<Diagnostic>,
    enums: Vec<EnumIr>,
    enum_index: HashMap<String, usize>,
    groups: Vec<GroupIr>,
    vars: Vec<Var>,
    var_index: HashMap<String, VarId>,
    /// Untyped defines are typed when first read; this marks the ones being typed.
    define_ast: HashMap<VarId, (ast::DefineDecl, Span)>,
    define_state: HashMap<VarId, DefineState>,
    defines: Vec<DefineIr>,
    define_of_var: HashMap<VarId, usize>,
    /// Defines in the order they were written, for the evaluation order.
    define_item_order: Vec<(usize, VarId)>,
    /// Where each `default` is written, to refuse one on a value no aggregate decides.
    default_spans: Vec<(VarId, Span)>,
    sequences: Vec<SequenceIr>,
    seq_index: HashMap<String, usize>,
    summaries: Vec<SummaryIr>,
    folds: Vec<FoldIr>,
}

#[derive(Clone, Copy, PartialEq)]
enum DefineState {
    Typing,
    Done,
    Failed,
}

fn is_ascii_name(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn is_alias(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_lowercase() || c == b'_')
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

impl Lower {
    fn new(file: FileId) -> Lower {
        Lower {
            file,
            text: String::new(),
            diags: Vec::new(),
            enums: Vec::new(),
            enum_index: HashMap::new(),
            groups: Vec::new(),
            vars: Vec::new(),
            var_index: HashMap::new(),
            define_ast: HashMap::new(),
            define_state: HashMap::new(),
            defines: Vec::new(),
            define_of_var: HashMap::new(),
            define_item_order: Vec::new(),
            default_spans: Vec::new(),
            sequences: Vec::new(),
            seq_index: HashMap::new(),
            summaries: Vec::new(),
            folds: Vec::new(),
        }
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn tyname(&self, ty: &Ty) -> String {
        ty_name(ty, &self.enums)
    }

    /// A declared name: non-ASCII needs an alias, an alias is `[a-z_][a-z0-9_]*`.
    fn check_decl_name(&mut self, file: FileId, n: &ast::DeclName) -> Option<String> {
        if let Some(a) = &n.alias {
            if !is_alias(&a.name) {
                let d = Diagnostic::new("E053", file, a.span, format!("`{}` is not an alias", a.name))
                    .label("an alias is lower-case ASCII letters, digits and `_`")
                    .help(format!("write `{}({})`", n.name.name, a.name.name_to_alias()));
                self.push(d);
            }
            return Some(a.name.clone());
        }
        if !is_ascii_name(&n.name.name) {
            let d = Diagnostic::new("E053", file, n.name.span, format!("`{}` needs an ASCII alias", n.name.name))
                .label("a name that is not ASCII must be given an alias")
                .help(format!(
                    "write `{}(an_ascii_name)`: generated code uses the alias, the wire keeps the name",
                    n.name.name
                ))
                .fix("add_alias", format!("{}(alias)", n.name.name), Some((file, n.name.span)));
            self.push(d);
        }
        None
    }

    fn run(&mut self, ast: &ast::File, imports: &[Import]) -> Option<Program> {
        let (name, alias, version) = match &ast.header.kind {
            ast::HeaderKind::Rule { version } => {
                let alias = self.check_decl_name(self.file, &ast.header.name);
                (ast.header.name.name.name.clone(), alias, *version)
            }
            ast::HeaderKind::Enums => unreachable!("enums files are checked by check_enums_file"),
        };
        for imp in imports {
            self.collect_enums(imp.file, imp.ast);
        }
        self.collect_enums(self.file, ast);

        let mut about = None;
        for item in &ast.items {
            if let ItemKind::About(a) = &item.kind {
                if about.is_some() {
                    self.push(
                        Diagnostic::new("E006", self.file, a.span, "a second file-level `about`")
                            .label("the file already has its `about`")
                            .help("write `about` directly under the declaration it documents, or join the two"),
                    );
                } else {
                    about = Some(a.text.value.clone());
                }
            }
        }

        self.collect_vars(ast);
        // Type every define (untyped ones on demand, so order does not matter).
        for i in 0..self.define_item_order.len() {
            let var = self.define_item_order[i].1;
            self.type_define(var);
        }
        let mut constraints = Vec::new();
        let mut tables = Vec::new();
        let mut table_items = Vec::new();
        let mut expects_ast = Vec::new();
        let mut failed_results: Vec<String> = Vec::new();
        for (idx, item) in ast.items.iter().enumerate() {
            match &item.kind {
                ItemKind::Constraint(e) => {
                    if let Some(te) = self.expr(e, Some(&Ty::Bool), true) {
                        if te.ty != Ty::Bool {
                            let tn = self.tyname(&te.ty);
                            self.push(
                                Diagnostic::new("E061", self.file, e.span, "a constraint must be true or false")
                                    .label(format!("this is {tn}"))
                                    .help("write a comparison, such as `paid >= due`"),
                            );
                        } else if let Some(&v) = self.derived_read(&te) {
                            // The door checks constraints before anything is computed.
                            let name = self.vars[v].name.clone();
                            self.push(
                                Diagnostic::new("E074", self.file, e.span, format!("a constraint reads `{name}`, which is not an input"))
                                    .label("a constraint may read only inputs")
                                    .note("constraints are what every call guarantees, checked at the door before the rule computes anything")
                                    .help(format!("state the guarantee over the inputs `{name}` is computed from")),
                            );
                        } else {
                            constraints.push(ConstraintIr { expr: te, text: print_expr(e), span: e.span });
                        }
                    }
                }
                ItemKind::Table(t) => match self.table(t, item.span) {
                    Some(tir) => {
                        table_items.push(idx);
                        tables.push(tir);
                    }
                    // Its errors are reported; what it decides is not "decided by nothing".
                    None => failed_results.extend(t.results.iter().map(|r| r.name.clone())),
                },
                ItemKind::Expect(_) => expects_ast.push(item),
                _ => {}
            }
        }
        // Who decides what.
        for (ti, t) in tables.iter().enumerate() {
            for &r in &t.results {
                self.decide(r, Decider::Table(ti), t.name_span);
            }
        }
        failed_results.extend(self.lower_folds(ast));
        for v in 0..self.vars.len() {
            let var = &self.vars[v];
            // A define that failed to type was reported already; its output is not undecided.
            if matches!(var.kind, VarKind::Output | VarKind::Value)
                && var.decided_by.is_none()
                && !self.define_ast.contains_key(&v)
                && !failed_results.contains(&var.name)
            {
                let what = if var.kind == VarKind::Output { "output" } else { "value" };
                let (name, span) = (var.name.clone(), var.span);
                self.push(
                    Diagnostic::new("E065", self.file, span, format!("{what} `{name}` is decided by nothing"))
                        .label("no table or define decides it")
                        .help(format!("add `define {name} = …`, or a table with `-> {name}`")),
                );
            }
        }
        for &(v, span) in &self.default_spans.clone() {
            let aggregate = match self.vars[v].decided_by {
                Some(Decider::Table(t)) => {
                    matches!(
                        tables[t].policy,
                        ast::Policy::CollectSum | ast::Policy::CollectMin | ast::Policy::CollectMax
                    )
                }
                _ => false,
            };
            if !aggregate {
                let name = self.vars[v].name.clone();
                self.push(
                    Diagnostic::new("E077", self.file, span, format!("`{name}` has a default, and no `collect sum`, `collect min` or `collect max` table decides it"))
                        .label("never used")
                        .help("a default is what such a table answers when no row holds: remove it, or decide the value with one"),
                );
            }
        }
        self.storage_checks(&tables);
        if !self.diags.iter().any(Diagnostic::is_error) {
            self.frames(&tables, &constraints);
        }

        let expects: Vec<ExpectIr> = expects_ast
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::Expect(e) => self.expect(e, item.span),
                _ => None,
            })
            .collect();

        let ordered = match self.diags.iter().any(Diagnostic::is_error) {
            true => None,
            false => self.order(&tables, &table_items),
        };
        // Whether a value is read is only worth saying of a rule whose every decider typed.
        if let (Some(_), false) = (&ordered, self.diags.iter().any(Diagnostic::is_error)) {
            self.unread_values(&tables);
        }
        let inputs = (0..self.vars.len()).filter(|&v| self.vars[v].kind == VarKind::Input).collect();
        let outputs = (0..self.vars.len()).filter(|&v| self.vars[v].kind == VarKind::Output).collect();
        if self.diags.iter().any(Diagnostic::is_error) {
            return None;
        }
        Some(Program {
            name,
            alias,
            version,
            about,
            file: self.file,
            uses: imports
                .iter()
                .map(|imp| UseIr {
                    file: imp.file,
                    name: imp.ast.header.name.name.name.clone(),
                    alias: imp.ast.header.name.alias.as_ref().map(|a| a.name.clone()),
                    source_name: imp.source_name.clone(),
                    sha256: imp.sha256.clone(),
                })
                .collect(),
            enums: std::mem::take(&mut self.enums),
            groups: std::mem::take(&mut self.groups),
            vars: std::mem::take(&mut self.vars),
            inputs,
            outputs,
            constraints,
            tables,
            defines: std::mem::take(&mut self.defines),
            order: ordered.as_ref()?.0.clone(),
            expects,
            sequences: std::mem::take(&mut self.sequences),
            summaries: std::mem::take(&mut self.summaries),
            folds: std::mem::take(&mut self.folds),
            walks: ordered?.1,
        })
    }

    fn decide(&mut self, var: VarId, by: Decider, span: Span) {
        let v = &self.vars[var];
        match v.kind {
            VarKind::Input => {
                let name = v.name.clone();
                self.push(
                    Diagnostic::new("E065", self.file, span, format!("input `{name}` cannot be decided here"))
                        .label("an input is given by the caller")
                        .help(format!("declare `value {name}: …` or `output {name}: …` instead of an input")),
                );
            }
            _ if v.decided_by.is_some() => {
                let (name, first) = (v.name.clone(), v.decided_by);
                let d = Diagnostic::new("E065", self.file, span, format!("`{name}` is decided twice"))
                    .label("a second decider")
                    .help(format!("decide `{name}` in one table or one define ({first:?} already does)"));
                self.push(d);
            }
            _ => self.vars[var].decided_by = Some(by),
        }
    }

    // ---- enums and groups

    fn collect_enums(&mut self, file: FileId, ast: &ast::File) {
        for item in &ast.items {
            if let ItemKind::Enum(e) = &item.kind {
                let alias = self.check_decl_name(file, &e.name);
                let name = e.name.name.name.clone();
                if let Some(&prev) = self.enum_index.get(&name) {
                    let prev_span = self.enums[prev].span;
                    let d = Diagnostic::new("E052", file, e.name.name.span, format!("enum `{name}` is declared twice"))
                        .label("declared again here")
                        .secondary(self.enums[prev].file, prev_span, "first declared here")
                        .help("give one of them another name");
                    self.push(d);
                    continue;
                }
                let mut values: Vec<EnumValueIr> = Vec::new();
                // The names listed so far, in a set: a long enum is not quadratic.
                let mut listed: HashSet<&str> = HashSet::new();
                for v in &e.values {
                    let valias = self.check_decl_name(file, &v.name);
                    if !listed.insert(&v.name.name.name) {
                        let d = Diagnostic::new(
                            "E052",
                            file,
                            v.name.name.span,
                            format!("`{}` appears twice in enum `{name}`", v.name.name.name),
                        )
                        .label("a repeated value")
                        .help("list each value once");
                        self.push(d);
                        continue;
                    }
                    values.push(EnumValueIr {
                        name: v.name.name.name.clone(),
                        alias: valias,
                        display: v.display.as_ref().map(|d| d.value.clone()),
                    });
                }
                self.enum_index.insert(name.clone(), self.enums.len());
                self.enums.push(EnumIr { name, alias, ordered: e.ordered, values, file, span: e.name.name.span });
            }
        }
        for item in &ast.items {
            if let ItemKind::Group(g) = &item.kind {
                self.group(file, g);
            }
        }
    }

    fn group(&mut self, file: FileId, g: &ast::GroupDecl) {
        let owners: Vec<usize> = (0..self.enums.len())
            .filter(|&e| g.values.iter().all(|v| self.enums[e].position(&v.name).is_some()))
            .collect();
        if owners.len() != 1 {
            let msg = if owners.is_empty() {
                format!("group `{}`: no one enum has all of its values", g.name.name)
            } else {
                format!("group `{}`: its values belong to more than one enum", g.name.name)
            };
            let d = Diagnostic::new("E064", file, g.name.span, msg)
                .label("a group belongs to the one enum that has all its values")
                .help("list values of one enum only");
            self.push(d);
            return;
        }
        if self.groups.iter().any(|x| x.name == g.name.name) || self.enums[owners[0]].position(&g.name.name).is_some() {
            let d =
                Diagnostic::new("E052", file, g.name.span, format!("`{}` is already a name of that enum", g.name.name))
                    .label("declared again")
                    .help("give the group a name no value or group has");
            self.push(d);
            return;
        }
        let e = owners[0];
        let values = g.values.iter().map(|v| self.enums[e].position(&v.name).unwrap()).collect();
        self.groups.push(GroupIr { name: g.name.name.clone(), enum_id: e, values });
    }

    // ---- variables

    fn collect_vars(&mut self, ast: &ast::File) {
        self.collect_sequences(ast);
        for item in &ast.items {
            let (decl, kind) = match &item.kind {
                ItemKind::Input(d) => (d, VarKind::Input),
                ItemKind::Output(d) => (d, VarKind::Output),
                ItemKind::Value(d) => (d, VarKind::Value),
                _ => continue,
            };
            let alias = self.check_decl_name(self.file, &decl.name);
            let (list, element) = match &decl.ty.kind {
                ast::TypeKind::List(element) => (true, &**element),
                _ => (false, &decl.ty),
            };
            if list && (kind != VarKind::Output || element.optional || decl.ty.optional) {
                let what = if kind == VarKind::Output {
                    "a list's element cannot be optional"
                } else {
                    "only an output can be a list"
                };
                self.push(
                    Diagnostic::new("E078", self.file, decl.ty.span, what)
                        .label("not allowed here")
                        .help("declare `output NAME: list[T]` with T not optional; a `collect`, `rule_order` or `output_order` table decides it"),
                );
                continue;
            }
            let Some((ty, optional)) = self.type_expr(element) else {
                continue;
            };
            if let (true, Some(r)) = (kind != VarKind::Output, &decl.rounding) {
                let span = r.span;
                self.push(
                    Diagnostic::new("E072", self.file, span, "only an output declares a rounding")
                        .label("not allowed here")
                        .help("round inside the expression that computes it: `round(EXPR, half_up, 1JPY)`"),
                );
            }
            let range = self.range(decl.range.as_ref(), &ty, kind == VarKind::Input, &decl.name, decl.ty.span);
            let rounding =
                if kind == VarKind::Output { decl.rounding.as_ref().and_then(|r| self.rounding(r, &ty)) } else { None };
            let default = match &decl.default {
                Some(lit) if kind != VarKind::Input && !list => match self.lit_value(lit, &ty) {
                    Some(v) => {
                        self.default_spans.push((self.vars.len(), lit.span));
                        Some(v)
                    }
                    None => continue,
                },
                Some(lit) => {
                    self.push(
                        Diagnostic::new("E077", self.file, lit.span, "a default is what a `collect sum`, `collect min` or `collect max` table answers when no row holds")
                            .label("not allowed here")
                            .help("remove `default …`"),
                    );
                    continue;
                }
                None => None,
            };
            self.add_var(Var {
                name: decl.name.name.name.clone(),
                alias,
                kind,
                ty,
                optional,
                range: range.as_ref().map(|r| r.0.clone()),
                range_text: range.map(|r| r.1),
                range_span: decl.range.as_ref().map(|r| r.span),
                rounding,
                decided_by: None,
                span: decl.name.name.span,
                decl_span: item.span,
                declared: true,
                list,
                default,
                frame: None,
            });
        }
        // Defines: one of an output's name computes it; any other is a new name.
        for (idx, item) in ast.items.iter().enumerate() {
            let ItemKind::Define(d) = &item.kind else {
                continue;
            };
            let name = &d.name.name.name;
            let var = match self.var_index.get(name).copied() {
                Some(v) if self.vars[v].kind == VarKind::Output && d.ty.is_none() && d.name.alias.is_none() => v,
                Some(v) if self.vars[v].kind == VarKind::Output => {
                    self.push(
                        Diagnostic::new(
                            "E052",
                            self.file,
                            d.name.span(),
                            format!("`{name}` is declared as an output already"),
                        )
                        .label("an output's define repeats neither its type nor its alias")
                        .help(format!("write `define {name} = …`; the output's declaration says the type")),
                    );
                    continue;
                }
                Some(v) => {
                    let prev = self.vars[v].span;
                    let d = Diagnostic::new("E052", self.file, d.name.name.span, format!("`{name}` is declared twice"))
                        .label("declared again here")
                        .secondary(self.file, prev, "first declared here")
                        .help("give one of them another name");
                    self.push(d);
                    continue;
                }
                None => {
                    let alias = self.check_decl_name(self.file, &d.name);
                    let (ty, declared, range) = match &d.ty {
                        Some(t) => {
                            let Some((ty, optional)) = self.type_expr(t) else {
                                continue;
                            };
                            if optional {
                                self.push(
                                    Diagnostic::new("E061", self.file, t.span, "a define cannot be optional")
                                        .label("`?` is not allowed here")
                                        .help("decide an optional value in a table instead"),
                                );
                            }
                            let range = self.range(d.range.as_ref(), &ty, false, &d.name, t.span);
                            (ty, true, range)
                        }
                        None => (Ty::Int, false, None),
                    };
                    self.add_var(Var {
                        name: name.clone(),
                        alias,
                        kind: VarKind::Define,
                        ty,
                        optional: false,
                        range: range.as_ref().map(|r| r.0.clone()),
                        range_text: range.map(|r| r.1),
                        range_span: d.range.as_ref().map(|r| r.span),
                        rounding: None,
                        decided_by: None,
                        span: d.name.name.span,
                        decl_span: item.span,
                        declared,
                        list: false,
                        default: None,
                        frame: None,
                    })
                }
            };
            if self.define_ast.contains_key(&var) {
                let d2 = Diagnostic::new("E065", self.file, d.name.name.span, format!("`{name}` is decided twice"))
                    .label("a second define")
                    .help("keep one define per name");
                self.push(d2);
                continue;
            }
            self.define_ast.insert(var, (d.clone(), item.span));
            self.define_item_order.push((idx, var));
        }
    }

    fn add_var(&mut self, var: Var) -> VarId {
        if let Some(&prev) = self.var_index.get(&var.name) {
            let d = Diagnostic::new("E052", self.file, var.span, format!("`{}` is declared twice", var.name))
                .label("declared again here")
                .secondary(self.file, self.vars[prev].span, "first declared here")
                .help("give one of them another name");
            self.push(d);
        }
        let id = self.vars.len();
        self.var_index.insert(var.name.clone(), id);
        self.vars.push(var);
        id
    }

    fn type_expr(&mut self, t: &ast::TypeExpr) -> Option<(Ty, bool)> {
        let ty = match &t.kind {
            ast::TypeKind::Named(id) => match id.name.as_str() {
                "bool" => Ty::Bool,
                "int" => Ty::Int,
                "date" => Ty::Date,
                "string" => Ty::Str,
                n => match self.enum_index.get(n) {
                    Some(&e) => Ty::Enum(e),
                    None => {
                        let help = if matches!(n, "money" | "mass" | "length" | "duration" | "rate") {
                            format!("`{n}` needs its unit: `{n}[…]`")
                        } else {
                            "the types are bool, int, date, string, money[CUR], mass[U], length[U], duration[U], rate[STEP] and the enums declared".to_string()
                        };
                        self.push(
                            Diagnostic::new("E051", self.file, id.span, format!("unknown type `{n}`"))
                                .label("not a type")
                                .help(help),
                        );
                        return None;
                    }
                },
            },
            ast::TypeKind::Param { head, args } => self.param_type(head, args, t.span)?,
            ast::TypeKind::List(_) => {
                self.push(
                    Diagnostic::new("E078", self.file, t.span, "only an output can be a list")
                        .label("not allowed here")
                        .help("declare `output NAME: list[T]`; a `collect`, `rule_order` or `output_order` table decides it"),
                );
                return None;
            }
        };
        Some((ty, t.optional))
    }

    fn param_type(&mut self, head: &ast::Ident, args: &[ast::TypeArg], span: Span) -> Option<Ty> {
        let name_arg = |a: &ast::TypeArg| match a {
            ast::TypeArg::Name(i) => Some(i.clone()),
            _ => None,
        };
        match head.name.as_str() {
            "money" | "mass" | "length" | "duration" => {
                let kind = head.name.as_str();
                let Some(u) = args.first().and_then(name_arg) else {
                    self.push(
                        Diagnostic::new("E055", self.file, span, format!("{kind}[…] needs a unit"))
                            .label("expected a unit")
                            .help(format!("write one of {}", units::units_of_kind(kind).join(", "))),
                    );
                    return None;
                };
                let unit = match units::lookup(&u.name) {
                    Some(unit) if unit.dim.kind() == kind => unit,
                    _ => {
                        self.push(
                            Diagnostic::new("E055", self.file, u.span, format!("`{}` is not a unit of {kind}", u.name))
                                .label("unknown unit")
                                .help(format!("write one of {}", units::units_of_kind(kind).join(", "))),
                        );
                        return None;
                    }
                };
                if kind != "money" {
                    if args.len() > 1 {
                        self.push(
                            Diagnostic::new("E051", self.file, span, format!("{kind}[…] takes one unit"))
                                .label("too many arguments")
                                .help(format!("write `{kind}[{}]`", u.name)),
                        );
                    }
                    return Some(Ty::Qty { unit });
                }
                let tag = match args.get(1) {
                    None => Tag::Untagged,
                    Some(ast::TypeArg::Name(t)) if t.name == "incl_tax" => Tag::Incl,
                    Some(ast::TypeArg::Name(t)) if t.name == "excl_tax" => Tag::Excl,
                    Some(_) => {
                        self.push(
                            Diagnostic::new("E051", self.file, span, "the tax tag is `incl_tax` or `excl_tax`")
                                .label("unknown tag")
                                .help(format!("write `money[{}, incl_tax]` or `money[{}, excl_tax]`", u.name, u.name)),
                        );
                        return None;
                    }
                };
                if args.len() > 2 {
                    self.push(
                        Diagnostic::new("E051", self.file, span, "money[…] takes a currency and a tax tag")
                            .label("too many arguments")
                            .help("write `money[JPY]` or `money[JPY, incl_tax]`"),
                    );
                }
                Some(Ty::Money { unit, tag })
            }
            "rate" => {
                let step = match args {
                    [ast::TypeArg::Literal(ast::Literal { kind: LitKind::Number { value, unit: Some(u) }, .. })]
                        if u.name == "%" && value.is_positive() =>
                    {
                        value / int(100)
                    }
                    _ => {
                        self.push(
                            Diagnostic::new("E051", self.file, span, "rate[…] needs its step as a positive percent")
                                .label("expected `rate[1%]`, `rate[0.1%]`, …")
                                .help("write the step the rate counts in, such as `rate[0.1%]`"),
                        );
                        return None;
                    }
                };
                Some(Ty::Rate { step })
            }
            other => {
                self.push(
                    Diagnostic::new("E051", self.file, head.span, format!("unknown type `{other}[…]`"))
                        .label("not a type")
                        .help("the unit types are money[CUR], mass[U], length[U], duration[U] and rate[STEP]"),
                );
                None
            }
        }
    }

    /// A declared range: both ends converted and in order. Inputs of a counted type must have one.
    fn range(
        &mut self,
        r: Option<&ast::RangeExpr>,
        ty: &Ty,
        required: bool,
        name: &ast::DeclName,
        ty_span: Span,
    ) -> Option<((Value, Value), String)> {
        let Some(r) = r else {
            if required && ty.is_integer_on_wire() {
                let example = self.example_range(ty);
                let n = name.name.name.clone();
                self.push(
                    Diagnostic::new("E054", self.file, name.name.span, format!("input `{n}` declares no range"))
                        .label("a counted input must say what it accepts")
                        .note("the proofs (completeness, int64) are over the declared domain")
                        .help(format!("add its range after the type, such as `{example}`"))
                        .fix(
                            "add_range",
                            format!(" {example}"),
                            Some((self.file, Span::new(ty_span.end as usize, ty_span.end as usize))),
                        ),
                );
            }
            return None;
        };
        if matches!(ty, Ty::Bool | Ty::Str) || matches!(ty, Ty::Enum(e) if !self.enums[*e].ordered) {
            let tn = self.tyname(ty);
            self.push(
                Diagnostic::new("E071", self.file, r.span, format!("{tn} has no range"))
                    .label("a range needs an order")
                    .help("remove the range"),
            );
            return None;
        }
        let lo = self.lit_value(&r.lo, ty)?;
        let hi = self.lit_value(&r.hi, ty)?;
        if lo > hi {
            self.push(
                Diagnostic::new("E071", self.file, r.span, "the range is empty: its low end is above its high end")
                    .label("low..high")
                    .help("write the smaller value first"),
            );
            return None;
        }
        Some((
            (lo, hi),
            format!("{}..{}", crate::syntax::fmt::print_literal(&r.lo), crate::syntax::fmt::print_literal(&r.hi)),
        ))
    }

    fn example_range(&self, ty: &Ty) -> String {
        match ty {
            Ty::Money { unit, .. } | Ty::Qty { unit } => {
                format!("0{}..100{}", unit.symbol, unit.symbol)
            }
            Ty::Rate { .. } => "0%..100%".into(),
            _ => "0..100".into(),
        }
    }

    fn rounding(&mut self, r: &ast::Rounding, ty: &Ty) -> Option<Rounding> {
        let Some(mode) = RoundMode::parse(&r.mode.name) else {
            self.push(
                Diagnostic::new("E072", self.file, r.mode.span, format!("`{}` is not a rounding mode", r.mode.name))
                    .label("unknown mode")
                    .help("the modes are up, down, ceiling, floor, half_up, half_down, half_even"),
            );
            return None;
        };
        if !ty.is_numeric() {
            let tn = self.tyname(ty);
            self.push(
                Diagnostic::new("E072", self.file, r.span, format!("{tn} cannot be rounded"))
                    .label("not a number")
                    .help("remove the rounding"),
            );
            return None;
        }
        let grid = self.lit_value(&r.grid, ty)?;
        let Value::Num(g) = grid else { return None };
        let factor = ty.factor();
        if !g.is_positive() || !(&g / &factor).is_integer() {
            self.push(
                Diagnostic::new(
                    "E072",
                    self.file,
                    r.grid.span,
                    "the rounding grid must be a whole positive number of the output's unit",
                )
                .label("not a whole positive multiple")
                .help(format!("write a grid such as `{}`", self.example_grid(ty))),
            );
            return None;
        }
        let grid_units = &g / &factor;
        Some(Rounding { mode, grid: g, grid_units })
    }

    fn example_grid(&self, ty: &Ty) -> String {
        match ty {
            Ty::Money { unit, .. } | Ty::Qty { unit } => format!("1{}", unit.symbol),
            Ty::Rate { step } => format!("{}%", crate::num::to_decimal_string(&(step * int(100)))),
            _ => "1".into(),
        }
    }

    // ---- literals

    /// The value of a literal read by `ty` (cells, ranges, expects, grids).
    fn lit_value(&mut self, lit: &ast::Literal, ty: &Ty) -> Option<Value> {
        match self.lit_value_diag(lit, ty) {
            Ok(v) => Some(v),
            Err(d) => {
                self.push(*d);
                None
            }
        }
    }

    fn lit_value_diag(&self, lit: &ast::Literal, ty: &Ty) -> Result<Value, Box<Diagnostic>> {
        let file = self.file;
        let mismatch = |what: &str| {
            let tn = self.tyname(ty);
            Box::new(
                Diagnostic::new("E061", file, lit.span, format!("expected a value of {tn}, found {what}"))
                    .label(format!("not a value of {tn}"))
                    .help(match ty {
                        Ty::Money { unit, .. } | Ty::Qty { unit } => {
                            format!("write the amount with its unit, such as `1{}`", unit.symbol)
                        }
                        Ty::Rate { .. } => "a rate literal always carries `%`, such as `10%`".to_string(),
                        Ty::Date => "write a date as YYYY-MM-DD".to_string(),
                        Ty::Bool => "write `true` or `false`".to_string(),
                        Ty::Str => "write a string in double quotes".to_string(),
                        Ty::Enum(e) => format!(
                            "write one of {}",
                            self.enums[*e].values.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                        _ => "write a whole number".to_string(),
                    }),
            )
        };
        match (&lit.kind, ty) {
            (LitKind::None, _) => Ok(Value::None),
            (LitKind::Bool(b), Ty::Bool) => Ok(Value::Bool(*b)),
            (LitKind::Str(s), Ty::Str) => Ok(Value::Str(s.clone())),
            (LitKind::Date { year, month, day }, Ty::Date) => {
                Ok(Value::Num(int(crate::num::date::days_from_civil(*year, *month, *day))))
            }
            (LitKind::Name(n), Ty::Enum(e)) => match self.enums[*e].position(&n.name) {
                Some(p) => Ok(Value::Enum(p)),
                None => Err(Box::new(
                    Diagnostic::new(
                        "E050",
                        file,
                        n.span,
                        format!("`{}` is not a value of enum {}", n.name, self.enums[*e].name),
                    )
                    .label("unknown value")
                    .help(format!(
                        "write one of {}",
                        self.enums[*e].values.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ")
                    )),
                )),
            },
            (LitKind::Qualified { ty: tname, value }, Ty::Enum(e)) => {
                if tname.name != self.enums[*e].name {
                    return Err(mismatch(&format!("a value of enum {}", tname.name)));
                }
                self.lit_value_diag(&ast::Literal { kind: LitKind::Name(value.clone()), span: value.span }, ty)
            }
            (LitKind::Number { value, unit }, _) if ty.is_numeric() => {
                self.number_value(value, unit.as_ref(), ty, lit.span).map(Value::Num)
            }
            (LitKind::Number { .. }, _) => Err(mismatch("a number")),
            (LitKind::Date { .. }, _) => Err(mismatch("a date")),
            (LitKind::Bool(_), _) => Err(mismatch("a boolean")),
            (LitKind::Str(_), _) => Err(mismatch("a string")),
            (LitKind::Name(n), _) => Err(mismatch(&format!("`{}`", n.name))),
            (LitKind::Qualified { ty: t, value }, _) => Err(mismatch(&format!("`{}.{}`", t.name, value.name))),
            (LitKind::List(_), _) => Err(mismatch("a list")),
            (LitKind::Record(_), _) => Err(mismatch("an element of a sequence")),
        }
    }

    /// A number literal read in `ty`: converted to base units, on the unit's grid.
    fn number_value(
        &self,
        value: &Rat,
        unit: Option<&ast::Ident>,
        ty: &Ty,
        span: Span,
    ) -> Result<Rat, Box<Diagnostic>> {
        let file = self.file;
        // Named only in a diagnostic: most literals need no text.
        let tn = || self.tyname(ty);
        let base = match (ty, unit) {
            (Ty::Int | Ty::Number, None) => value.clone(),
            (Ty::Int | Ty::Number, Some(u)) => {
                return Err(Box::new(
                    Diagnostic::new("E060", file, u.span, format!("`{}` is a unit, and {} has none", u.name, tn()))
                        .label("a count has no unit")
                        .help("write the number alone"),
                ))
            }
            (Ty::Rate { .. }, Some(u)) if u.name == "%" => crate::num::quot(value, &int(100)),
            (Ty::Rate { .. }, _) => {
                return Err(Box::new(
                    Diagnostic::new("E062", file, span, "a rate literal always carries `%`")
                        .label("a bare number where a rate is expected")
                        .help("write the rate as a percent, such as `10%`"),
                ))
            }
            (Ty::Money { unit: want, .. } | Ty::Qty { unit: want }, Some(u)) => {
                let Some(lu) = units::lookup(&u.name) else {
                    return Err(Box::new(
                        Diagnostic::new("E055", file, u.span, format!("`{}` is not a unit", u.name))
                            .label("unknown unit")
                            .help(format!("write one of {}", units::units_of_kind(want.dim.kind()).join(", "))),
                    ));
                };
                if lu.dim != want.dim {
                    let why = if lu.dim.kind() == want.dim.kind() && !matches!(lu.dim, Dim::Money(_)) {
                        " (imperial and metric never convert)"
                    } else {
                        ""
                    };
                    return Err(Box::new(
                        Diagnostic::new("E060", file, u.span, format!("`{}` cannot be read as {}{why}", u.name, tn()))
                            .label(format!(
                                "a unit of another {}",
                                if matches!(lu.dim, Dim::Money(_)) { "currency" } else { "dimension" }
                            ))
                            .help(format!("write the value in {}", want.symbol)),
                    ));
                }
                crate::num::prod(value, &lu.factor())
            }
            (Ty::Money { unit: want, .. } | Ty::Qty { unit: want }, None) => {
                return Err(Box::new(
                    Diagnostic::new("E060", file, span, format!("a number without a unit where {} is expected", tn()))
                        .label("the unit is missing")
                        .help(format!("write `{}{}`", crate::num::to_decimal_string(value), want.symbol)),
                ))
            }
            _ => unreachable!("number_value is called for numeric types"),
        };
        let factor = ty.factor();
        if !matches!(ty, Ty::Number) && !crate::num::on_grid(&base, &factor) {
            let tn = tn();
            return Err(Box::new(
                Diagnostic::new("E056", file, span, format!("this value is not a whole number of {tn}'s unit"))
                    .label("off the unit's grid")
                    .note(format!("{tn} counts whole steps of {}", self.example_grid(ty)))
                    .help("write a value that lands on the grid"),
            ));
        }
        Ok(base)
    }

    /// The natural type of a literal in an expression with nothing else to go by.
    fn lit_natural(&mut self, lit: &ast::Literal) -> Option<(Ty, Value)> {
        match &lit.kind {
            LitKind::Bool(b) => Some((Ty::Bool, Value::Bool(*b))),
            LitKind::Str(s) => Some((Ty::Str, Value::Str(s.clone()))),
            LitKind::Date { year, month, day } => {
                Some((Ty::Date, Value::Num(int(crate::num::date::days_from_civil(*year, *month, *day)))))
            }
            LitKind::Number { value, unit: None } => {
                Some((if value.is_integer() { Ty::Int } else { Ty::Number }, Value::Num(value.clone())))
            }
            LitKind::Number { value, unit: Some(u) } if u.name == "%" => {
                let v = value / int(100);
                Some((
                    Ty::Rate { step: if v.is_zero() { Rat::new(1.into(), 100.into()) } else { v.abs() } },
                    Value::Num(v),
                ))
            }
            LitKind::Number { value, unit: Some(u) } => match units::lookup(&u.name) {
                Some(unit) => {
                    let ty = if matches!(unit.dim, Dim::Money(_)) {
                        Ty::Money { unit, tag: Tag::Any }
                    } else {
                        Ty::Qty { unit }
                    };
                    Some((ty, Value::Num(value * unit.factor())))
                }
                None => {
                    self.push(Diagnostic::new("E055", self.file, u.span, format!("`{}` is not a unit", u.name))
                        .label("unknown unit")
                        .help("the units are JPY, 円, USD, USDc, EUR, EURc, GBP, GBPp, mg, g, kg, t, oz, lb, mm, cm, m, km, in, ft, s, min, h, d and %"));
                    None
                }
            },
            LitKind::Qualified { ty, .. } => {
                let Some(&e) = self.enum_index.get(&ty.name) else {
                    self.push(
                        Diagnostic::new("E051", self.file, ty.span, format!("unknown enum `{}`", ty.name))
                            .label("no enum of this name")
                            .help("qualify a value with the name of its enum"),
                    );
                    return None;
                };
                let v = self.lit_value(lit, &Ty::Enum(e))?;
                Some((Ty::Enum(e), v))
            }
            LitKind::None => {
                self.push(
                    Diagnostic::new("E061", self.file, lit.span, "`none` in an expression")
                        .label("none is written in a table cell")
                        .help("answer `none` from a table row"),
                );
                None
            }
            LitKind::Name(_) => unreachable!("bare names are resolved as names"),
            LitKind::List(_) | LitKind::Record(_) => unreachable!("the parser reads these only as an expect's value"),
        }
    }

    // ---- expressions

    fn var_ty(&mut self, v: VarId, span: Span) -> Option<Ty> {
        if self.vars[v].list {
            let name = self.vars[v].name.clone();
            self.push(
                Diagnostic::new("E078", self.file, span, format!("`{name}` is a list, and nothing in a rule reads a list"))
                    .label("read here")
                    .help("a list is an answer for the caller; to count or add up the rows that hold, decide a value with `collect count` or `collect sum`"),
            );
            return None;
        }
        if self.vars[v].kind == VarKind::Define && !self.vars[v].declared {
            match self.define_state.get(&v).copied() {
                Some(DefineState::Done) => {}
                Some(DefineState::Failed) => return None,
                Some(DefineState::Typing) => {
                    let name = self.vars[v].name.clone();
                    self.push(
                        Diagnostic::new("E110", self.file, span, format!("`{name}` is computed from itself"))
                            .label("read while it is being computed")
                            .help("break the cycle: one of the values must be decided without the other"),
                    );
                    self.define_state.insert(v, DefineState::Failed);
                    return None;
                }
                None => {
                    if !self.type_define(v) {
                        return None;
                    }
                }
            }
        }
        Some(self.vars[v].ty.clone())
    }

    /// Type a define's expression; an untyped define takes the expression's type.
    fn type_define(&mut self, v: VarId) -> bool {
        if let Some(s) = self.define_state.get(&v) {
            return *s == DefineState::Done;
        }
        self.define_state.insert(v, DefineState::Typing);
        let (d, span) = self.define_ast[&v].clone();
        let var = &self.vars[v];
        let expected = (var.declared || var.kind == VarKind::Output).then(|| var.ty.clone());
        if let ast::ExprKind::Summary(m) = &d.expr.kind {
            let ok = self.summary_define(v, m, span);
            self.define_state.insert(v, if ok { DefineState::Done } else { DefineState::Failed });
            return ok;
        }
        let Some(te) = self.expr(&d.expr, expected.as_ref(), false) else {
            self.define_state.insert(v, DefineState::Failed);
            return false;
        };
        if let Some(want) = &expected {
            if !self.assignable(&te, want, d.expr.span) {
                self.define_state.insert(v, DefineState::Failed);
                return false;
            }
        } else {
            self.vars[v].ty = match te.ty {
                Ty::Money { unit, tag: Tag::Any } => Ty::Money { unit, tag: Tag::Untagged },
                ref t => t.clone(),
            };
        }
        let di = self.defines.len();
        self.defines.push(DefineIr { var: v, expr: te, span });
        self.define_of_var.insert(v, di);
        self.vars[v].decided_by = Some(Decider::Define(di));
        self.define_state.insert(v, DefineState::Done);
        true
    }

    /// Whether a value of `te`'s type may be stored where `want` is declared.
    fn assignable(&mut self, te: &TExpr, want: &Ty, span: Span) -> bool {
        let ok = match (&te.ty, want) {
            (Ty::Int | Ty::Number, Ty::Int) => true,
            (a, b) => unify(a, b).is_some_and(|u| u.dim() == b.dim()),
        };
        if !ok {
            let (have, want_n) = (self.tyname(&te.ty), self.tyname(want));
            let code = if te.ty.dim().is_some() && want.dim().is_some() { "E060" } else { "E061" };
            self.push(
                Diagnostic::new(code, self.file, span, format!("expected {want_n}, found {have}"))
                    .label(format!("this is {have}"))
                    .help(format!("compute a value of {want_n} here")),
            );
        }
        ok
    }

    fn name_expr(&mut self, id: &ast::Ident, expected: Option<&Ty>, allow_optional: bool) -> Option<TExpr> {
        if let Some(&v) = self.var_index.get(&id.name) {
            let ty = self.var_ty(v, id.span)?;
            if self.vars[v].optional && !allow_optional {
                self.push(
                    Diagnostic::new(
                        "E061",
                        self.file,
                        id.span,
                        format!("`{}` may be none, and an expression cannot read it", id.name),
                    )
                    .label("an optional value")
                    .help("decide it in a table first: a cell can test `none`"),
                );
                return None;
            }
            let grid = if ty.is_numeric() || ty == Ty::Date { Grid::Step(ty.factor()) } else { Grid::Zero };
            let grid = match &self.vars[v] {
                var if var.kind == VarKind::Define && !var.declared => {
                    self.define_of_var.get(&v).map(|&d| self.defines[d].expr.grid.clone()).unwrap_or(grid)
                }
                var if var.kind == VarKind::Output && var.rounding.is_some() => {
                    Grid::Step(var.rounding.as_ref().unwrap().grid.clone())
                }
                _ => grid,
            };
            return Some(TExpr { kind: TExprKind::Var(v), ty, grid, span: id.span });
        }
        // An enum value, read by the type the context expects, else by the one enum that has it.
        let owners: Vec<usize> = match expected {
            Some(Ty::Enum(e)) if self.enums[*e].position(&id.name).is_some() => vec![*e],
            _ => (0..self.enums.len()).filter(|&e| self.enums[e].position(&id.name).is_some()).collect(),
        };
        match owners.as_slice() {
            [e] => {
                let p = self.enums[*e].position(&id.name).unwrap();
                Some(TExpr {
                    kind: TExprKind::Const(Value::Enum(p)),
                    ty: Ty::Enum(*e),
                    grid: Grid::Zero,
                    span: id.span,
                })
            }
            [] => {
                self.push(
                    Diagnostic::new("E050", self.file, id.span, format!("unknown name `{}`", id.name))
                        .label("no input, output, value, define or enum value has this name")
                        .help("declare it, or check its spelling"),
                );
                None
            }
            many => {
                let options: Vec<String> =
                    many.iter().map(|&e| format!("`{}.{}`", self.enums[e].name, id.name)).collect();
                self.push(
                    Diagnostic::new(
                        "E063",
                        self.file,
                        id.span,
                        format!("`{}` is a value of more than one enum", id.name),
                    )
                    .label("nothing here says which")
                    .help(format!("write {}", options.join(" or "))),
                );
                None
            }
        }
    }

    fn expr(&mut self, e: &ast::Expr, expected: Option<&Ty>, allow_optional: bool) -> Option<TExpr> {
        let span = e.span;
        let mk = |kind, ty, grid| Some(TExpr { kind, ty, grid, span });
        match &e.kind {
            ExprKind::Paren(inner) => self.expr(inner, expected, allow_optional),
            ExprKind::Name(id) => self.name_expr(id, expected, allow_optional),
            ExprKind::Lit(lit) => {
                let (ty, v) = match expected {
                    // A literal in a finer unit than the context (50USDc beside USD) keeps its own unit:
                    // the two meet at the finer one.
                    Some(t) if lit_fits_expected(lit, t) && self.lit_value_diag(lit, t).is_ok() => {
                        (t.clone(), self.lit_value(lit, t)?)
                    }
                    _ => self.lit_natural(lit)?,
                };
                let grid = match &v {
                    Value::Num(n) => Grid::of_constant(n),
                    _ => Grid::Zero,
                };
                let ty = match ty {
                    Ty::Money { unit, .. } if !matches!(expected, Some(Ty::Money { .. })) => {
                        Ty::Money { unit, tag: Tag::Any }
                    }
                    t => t,
                };
                mk(TExprKind::Const(v), ty, grid)
            }
            ExprKind::Neg(inner) => {
                let t = self.expr(inner, expected, allow_optional)?;
                if !t.ty.is_numeric() {
                    let tn = self.tyname(&t.ty);
                    self.push(
                        Diagnostic::new("E061", self.file, span, format!("{tn} cannot be negated"))
                            .label("not a number")
                            .help("negate a number"),
                    );
                    return None;
                }
                let (ty, grid) = (t.ty.clone(), t.grid.clone());
                mk(TExprKind::Neg(Box::new(t)), ty, grid)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, expected, allow_optional, span),
            ExprKind::Cmp(op, l, r) => {
                let (lt, rt) = self.pair(l, r, None, allow_optional)?;
                let Some(u) = unify(&lt.ty, &rt.ty) else {
                    return self.mismatch(&lt, &rt, op.as_str(), span);
                };
                let ordered = match &u {
                    Ty::Bool | Ty::Str => false,
                    Ty::Enum(e) => self.enums[*e].ordered,
                    _ => true,
                };
                if !ordered && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    let tn = self.tyname(&u);
                    self.push(
                        Diagnostic::new("E061", self.file, span, format!("{tn} has no order"))
                            .label(format!("`{}` needs an order", op.as_str()))
                            .help("compare with `=` or `!=`, or declare the enum ordered (`a < b < c`)"),
                    );
                    return None;
                }
                mk(TExprKind::Cmp(*op, Box::new(lt), Box::new(rt)), Ty::Bool, Grid::Zero)
            }
            ExprKind::Not(inner) => {
                let t = self.bool_expr(inner, allow_optional)?;
                mk(TExprKind::Not(Box::new(t)), Ty::Bool, Grid::Zero)
            }
            ExprKind::And(l, r) | ExprKind::Or(l, r) => {
                let lt = self.bool_expr(l, allow_optional);
                let rt = self.bool_expr(r, allow_optional);
                let (lt, rt) = (Box::new(lt?), Box::new(rt?));
                let kind =
                    if matches!(e.kind, ExprKind::And(..)) { TExprKind::And(lt, rt) } else { TExprKind::Or(lt, rt) };
                mk(kind, Ty::Bool, Grid::Zero)
            }
            ExprKind::Call(f, args) => self.call(*f, args, expected, allow_optional, span),
            ExprKind::Round { value, mode, grid } => {
                let v = self.expr(value, expected.filter(|t| t.is_numeric()), allow_optional)?;
                if !v.ty.is_numeric() {
                    let tn = self.tyname(&v.ty);
                    self.push(
                        Diagnostic::new("E061", self.file, value.span, format!("{tn} cannot be rounded"))
                            .label("not a number")
                            .help("round a number"),
                    );
                    return None;
                }
                let Some(m) = RoundMode::parse(&mode.name) else {
                    self.push(
                        Diagnostic::new(
                            "E072",
                            self.file,
                            mode.span,
                            format!("`{}` is not a rounding mode", mode.name),
                        )
                        .label("unknown mode")
                        .help("the modes are up, down, ceiling, floor, half_up, half_down, half_even"),
                    );
                    return None;
                };
                let grid_ty = match &v.ty {
                    Ty::Number => Ty::Int,
                    t => t.clone(),
                };
                let Value::Num(g) = self.lit_value(grid, &grid_ty)? else {
                    return None;
                };
                if !g.is_positive() {
                    self.push(
                        Diagnostic::new("E072", self.file, grid.span, "the rounding grid must be positive")
                            .label("not positive")
                            .help("round to a positive grid, such as `1`"),
                    );
                    return None;
                }
                let ty = if v.ty == Ty::Number { Ty::Int } else { v.ty.clone() };
                mk(TExprKind::Round { value: Box::new(v), mode: m, grid: g.clone() }, ty, Grid::Step(g))
            }
            ExprKind::If { cond, then, els } => {
                let c = self.bool_expr(cond, allow_optional);
                let (t, f) = self.pair(then, els, expected, allow_optional)?;
                let c = c?;
                let Some(u) = unify(&t.ty, &f.ty) else {
                    return self.mismatch(&t, &f, "if", span);
                };
                let grid = t.grid.join(&f.grid);
                mk(TExprKind::If { cond: Box::new(c), then: Box::new(t), els: Box::new(f) }, u, grid)
            }
            ExprKind::In { name, values } => {
                let v = self.name_expr(name, None, allow_optional)?;
                let TExprKind::Var(var) = v.kind else {
                    self.push(
                        Diagnostic::new("E061", self.file, name.span, "`in` needs a value name on its left")
                            .label("not a value name")
                            .help("write `NAME in {V1, V2}`"),
                    );
                    return None;
                };
                let mut vals = Vec::new();
                for lit in values {
                    vals.extend(self.set_member(lit, &v.ty)?);
                }
                mk(TExprKind::In { var, values: vals }, Ty::Bool, Grid::Zero)
            }
            ExprKind::Summary(m) => {
                self.push(
                    Diagnostic::new(
                        "E079",
                        self.file,
                        span,
                        format!("a `{}` over a sequence is a define of its own", m.op.as_str()),
                    )
                    .label("inside an expression")
                    .help("name the summary with `define NAME = …` on its own line, and read NAME here"),
                );
                None
            }
        }
    }

    /// A literal in a set (`in {…}` or a cell): a group stands for its values.
    fn set_member(&mut self, lit: &ast::Literal, ty: &Ty) -> Option<Vec<Value>> {
        if let (LitKind::Name(n), Ty::Enum(e)) = (&lit.kind, ty) {
            if let Some(g) = self.groups.iter().find(|g| g.enum_id == *e && g.name == n.name) {
                return Some(g.values.iter().map(|&p| Value::Enum(p)).collect());
            }
        }
        Some(vec![self.lit_value(lit, ty)?])
    }

    /// The first variable an expression reads that is not an input.
    fn derived_read(&self, e: &TExpr) -> Option<&VarId> {
        let mut vs = Vec::new();
        collect_vars(e, &mut vs);
        let first = vs.into_iter().find(|&v| self.vars[v].kind != VarKind::Input)?;
        self.var_index.get(&self.vars[first].name)
    }

    /// Whether an expression takes its type from its context: a literal, or a bare name
    /// that is no value's name (an enum value).
    fn needs_context(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Lit(_) => true,
            ExprKind::Name(id) => !self.var_index.contains_key(&id.name),
            ExprKind::Paren(x) | ExprKind::Neg(x) => self.needs_context(x),
            _ => false,
        }
    }

    fn bool_expr(&mut self, e: &ast::Expr, allow_optional: bool) -> Option<TExpr> {
        let t = self.expr(e, Some(&Ty::Bool), allow_optional)?;
        if t.ty != Ty::Bool {
            let tn = self.tyname(&t.ty);
            self.push(
                Diagnostic::new("E061", self.file, e.span, format!("expected true or false, found {tn}"))
                    .label("not a boolean")
                    .help("write a comparison here"),
            );
            return None;
        }
        Some(t)
    }

    /// Type two operands that must agree; a side that needs context (a literal, a bare
    /// enum value) is typed by the other.
    fn pair(
        &mut self,
        l: &ast::Expr,
        r: &ast::Expr,
        expected: Option<&Ty>,
        allow_optional: bool,
    ) -> Option<(TExpr, TExpr)> {
        if self.needs_context(l) && !self.needs_context(r) {
            let rt = self.expr(r, expected, allow_optional)?;
            let lt = self.expr(l, Some(&rt.ty), allow_optional)?;
            Some((lt, rt))
        } else {
            let lt = self.expr(l, expected, allow_optional)?;
            let rt = self.expr(r, Some(&lt.ty), allow_optional)?;
            Some((lt, rt))
        }
    }

    fn mismatch(&mut self, l: &TExpr, r: &TExpr, what: &str, span: Span) -> Option<TExpr> {
        let (a, b) = (self.tyname(&l.ty), self.tyname(&r.ty));
        let code = if l.ty.dim().is_some() && r.ty.dim().is_some() { "E060" } else { "E061" };
        let help = match (&l.ty, &r.ty) {
            (Ty::Money { tag: t1, .. }, Ty::Money { tag: t2, .. }) if t1 != t2 => {
                "the tax tag never converts: convert one side explicitly with a rate, or declare both with the same tag"
                    .to_string()
            }
            _ => "both sides of this operation must have one type".to_string(),
        };
        let d = Diagnostic::new(code, self.file, span, format!("`{what}` between {a} and {b}"))
            .label(format!("{a} {what} {b}"))
            .secondary(self.file, l.span, format!("this is {a}"))
            .secondary(self.file, r.span, format!("this is {b}"))
            .help(help);
        self.push(d);
        None
    }

    fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        expected: Option<&Ty>,
        allow_optional: bool,
        span: Span,
    ) -> Option<TExpr> {
        let mk = |kind, ty, grid| Some(TExpr { kind, ty, grid, span });
        match op {
            BinOp::Add | BinOp::Sub => {
                // date ± int and date - date are the two date forms.
                let lt = if self.needs_context(l) { None } else { Some(self.expr(l, expected, allow_optional)?) };
                if let Some(lt) = &lt {
                    if lt.ty == Ty::Date {
                        let rt = self.expr(r, None, allow_optional)?;
                        let ty = match (&rt.ty, op) {
                            (Ty::Int, _) => Ty::Date,
                            (Ty::Date, BinOp::Sub) => Ty::Int,
                            _ => return self.mismatch(lt, &rt, op.as_str(), span),
                        };
                        let grid = lt.grid.join(&rt.grid);
                        return mk(TExprKind::Arith(op, Box::new(lt.clone()), Box::new(rt)), ty, grid);
                    }
                }
                let (lt, rt) = match lt {
                    Some(lt) => {
                        let rt = self.expr(r, Some(&lt.ty), allow_optional)?;
                        (lt, rt)
                    }
                    None => self.pair(l, r, expected, allow_optional)?,
                };
                let Some(ty) = unify(&lt.ty, &rt.ty).filter(|t| t.is_numeric()) else {
                    return self.mismatch(&lt, &rt, op.as_str(), span);
                };
                let grid = lt.grid.join(&rt.grid);
                mk(TExprKind::Arith(op, Box::new(lt), Box::new(rt)), ty, grid)
            }
            BinOp::Mul => {
                let lt = self.expr(l, None, allow_optional)?;
                let rt = self.expr(r, None, allow_optional)?;
                let ty = match (&lt.ty, &rt.ty) {
                    (Ty::Int, Ty::Int) => Ty::Int,
                    (Ty::Int | Ty::Number, Ty::Int | Ty::Number) => Ty::Number,
                    (Ty::Rate { .. }, Ty::Int | Ty::Number | Ty::Rate { .. })
                    | (Ty::Int | Ty::Number, Ty::Rate { .. }) => Ty::Number,
                    (t @ (Ty::Money { .. } | Ty::Qty { .. }), Ty::Int | Ty::Number | Ty::Rate { .. }) => t.clone(),
                    (Ty::Int | Ty::Number | Ty::Rate { .. }, t @ (Ty::Money { .. } | Ty::Qty { .. })) => t.clone(),
                    _ => return self.mismatch(&lt, &rt, "*", span),
                };
                let ty = match ty {
                    Ty::Money { unit, tag: Tag::Any } if matches!(expected, Some(Ty::Money { .. })) => match expected {
                        Some(Ty::Money { tag, .. }) => Ty::Money { unit, tag: *tag },
                        _ => unreachable!(),
                    },
                    t => t,
                };
                let grid = lt.grid.mul(&rt.grid);
                mk(TExprKind::Arith(op, Box::new(lt), Box::new(rt)), ty, grid)
            }
            BinOp::Div => {
                let lt = self.expr(l, None, allow_optional)?;
                let rt = self.expr(r, Some(&lt.ty), allow_optional)?;
                let ty = match (&lt.ty, &rt.ty) {
                    (Ty::Int | Ty::Number, Ty::Int | Ty::Number) => Ty::Number,
                    (t @ (Ty::Money { .. } | Ty::Qty { .. } | Ty::Rate { .. }), Ty::Int | Ty::Number) => t.clone(),
                    (a, b) if a.is_numeric() && unify(a, b).is_some() => Ty::Number,
                    _ => return self.mismatch(&lt, &rt, "/", span),
                };
                let grid = match &rt.kind {
                    TExprKind::Const(Value::Num(c)) if !c.is_zero() => match (&lt.ty, &rt.ty) {
                        (a, b) if a.dim().is_some() && b.dim().is_some() => Grid::Unknown,
                        _ => lt.grid.div_const(c),
                    },
                    _ => Grid::Unknown,
                };
                mk(TExprKind::Arith(op, Box::new(lt), Box::new(rt)), ty, grid)
            }
        }
    }

    fn call(
        &mut self,
        f: Func,
        args: &[ast::Expr],
        expected: Option<&Ty>,
        allow_optional: bool,
        span: Span,
    ) -> Option<TExpr> {
        let mk = |kind, ty, grid| Some(TExpr { kind, ty, grid, span });
        let arity_ok = match f {
            Func::Min | Func::Max => args.len() >= 2,
            Func::Mod => args.len() == 2,
            Func::Isqrt => args.len() == 1,
        };
        if !arity_ok {
            let want = match f {
                Func::Min | Func::Max => "two or more arguments",
                Func::Mod => "two arguments",
                Func::Isqrt => "one argument",
            };
            self.push(
                Diagnostic::new("E061", self.file, span, format!("`{}` takes {want}", f.as_str()))
                    .label(format!("{} given", args.len()))
                    .help(format!("write `{}(…)` with {want}", f.as_str())),
            );
            return None;
        }
        match f {
            Func::Min | Func::Max | Func::Mod => {
                // The first argument that settles its own type types the others.
                let anchor = args.iter().position(|a| !self.needs_context(a)).unwrap_or(0);
                let first = self.expr(&args[anchor], expected, allow_optional)?;
                let mut typed = vec![None; args.len()];
                let mut ty = first.ty.clone();
                typed[anchor] = Some(first);
                for (i, a) in args.iter().enumerate() {
                    if i == anchor {
                        continue;
                    }
                    let t = self.expr(a, Some(&ty), allow_optional)?;
                    let Some(u) = unify(&ty, &t.ty) else {
                        let a0 = typed[anchor].clone().unwrap();
                        return self.mismatch(&a0, &t, f.as_str(), span);
                    };
                    ty = u;
                    typed[i] = Some(t);
                }
                let typed: Vec<TExpr> = typed.into_iter().map(Option::unwrap).collect();
                let ordered = match &ty {
                    Ty::Enum(e) => self.enums[*e].ordered && f != Func::Mod,
                    t => t.is_numeric() || (*t == Ty::Date && f != Func::Mod),
                };
                if !ordered {
                    let tn = self.tyname(&ty);
                    self.push(
                        Diagnostic::new("E061", self.file, span, format!("`{}` of {tn}", f.as_str()))
                            .label("these values have no order to take it by")
                            .help("compare numbers, dates or the values of an ordered enum"),
                    );
                    return None;
                }
                let grid = typed.iter().skip(1).fold(typed[0].grid.clone(), |g, t| g.join(&t.grid));
                match f {
                    Func::Min => mk(TExprKind::Min(typed), ty, grid),
                    Func::Max => mk(TExprKind::Max(typed), ty, grid),
                    _ => {
                        let mut it = typed.into_iter();
                        let (a, b) = (it.next().unwrap(), it.next().unwrap());
                        mk(TExprKind::Mod(Box::new(a), Box::new(b)), ty, grid)
                    }
                }
            }
            Func::Isqrt => {
                let a = self.expr(&args[0], None, allow_optional)?;
                if !matches!(a.ty, Ty::Int | Ty::Number) {
                    let tn = self.tyname(&a.ty);
                    self.push(
                        Diagnostic::new("E061", self.file, args[0].span, format!("`isqrt` of {tn}"))
                            .label("isqrt takes a plain number")
                            .help("divide by the unit first, such as `isqrt(area / 1m)`"),
                    );
                    return None;
                }
                mk(TExprKind::Isqrt(Box::new(a)), Ty::Int, Grid::Step(int(1)))
            }
        }
    }

    // ---- tables

    fn table(&mut self, t: &ast::Table, span: Span) -> Option<TableIr> {
        let ncols = t.columns.len();
        let nres = t.results.len();
        let mut ok = true;
        // Result columns: the rightmost, in the heading's order.
        let result_cols = &t.columns[ncols.saturating_sub(nres)..];
        if ncols < nres || result_cols.iter().zip(&t.results).any(|(c, r)| c.name != r.name) {
            self.push(
                Diagnostic::new(
                    "E067",
                    self.file,
                    t.header_span,
                    format!(
                        "table `{}`: the result columns must be the rightmost, in the order the heading names them",
                        t.name.name
                    ),
                )
                .label(format!(
                    "expected the last columns to be {}",
                    t.results.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .help("move the result columns to the right, or fix the heading after `->`"),
            );
            return None;
        }
        let mut conds = Vec::new();
        for c in &t.columns[..ncols - nres] {
            match self.var_index.get(&c.name) {
                Some(&v) => {
                    if self.var_ty(v, c.span).is_none() {
                        ok = false;
                    }
                    conds.push(v);
                }
                None => {
                    self.push(
                        Diagnostic::new("E050", self.file, c.span, format!("unknown column `{}`", c.name))
                            .label("no declared name")
                            .help("head a condition column with an input, a value, a define or an output"),
                    );
                    ok = false;
                }
            }
        }
        let mut results = Vec::new();
        for r in &t.results {
            match self.var_index.get(&r.name) {
                Some(&v) => results.push(v),
                None => {
                    self.push(
                        Diagnostic::new("E050", self.file, r.span, format!("unknown result `{}`", r.name))
                            .label("not declared")
                            .help(format!("declare `output {}: …` or `value {}: …`", r.name, r.name)),
                    );
                    ok = false;
                }
            }
        }
        if !ok {
            return None;
        }
        // Exact capacities: a table may have tens of thousands of rows.
        let mut rows = Vec::with_capacity(t.rows.len());
        for row in &t.rows {
            let mut cell_spans = Vec::with_capacity(row.cells.len());
            let mut cells = Vec::with_capacity(row.cells.len());
            let mut rconds = Vec::with_capacity(conds.len());
            let mut rres = Vec::with_capacity(results.len());
            for (i, cell) in row.cells.iter().enumerate() {
                cell_spans.push(cell.span);
                cells.push(self.source_text(cell.span));
                match &cell.kind {
                    ast::Cell::Cond(c) => {
                        let v = conds[i];
                        match self.condition(c, v) {
                            Some(ci) => rconds.push(ci),
                            None => ok = false,
                        }
                    }
                    ast::Cell::Result(e) => {
                        let v = results[i - conds.len()];
                        match self.result_cell(e, v) {
                            Some(r) => rres.push(r),
                            None => ok = false,
                        }
                    }
                }
            }
            rows.push(RowIr { conds: rconds, results: rres, span: row.span, line: row.line, cell_spans, cells });
        }
        if !ok {
            return None;
        }
        if t.policy().ranks() && !self.priority_cells(t, &results, &rows) {
            return None;
        }
        if !self.multi_hit_result(t, &results, &rows) {
            return None;
        }
        Some(TableIr {
            name: t.name.name.clone(),
            policy: t.policy(),
            conds,
            results,
            rows,
            span,
            name_span: t.name.span,
            policy_span: t
                .policy
                .as_ref()
                .map(|p| p.1)
                .unwrap_or(Span::new(t.name.span.end as usize, t.name.span.end as usize)),
        })
    }

    /// A multiple-hit table decides one result, of the kind its policy makes (E077), and only
    /// a list policy decides a list (E078).
    fn multi_hit_result(&mut self, t: &ast::Table, results: &[VarId], rows: &[RowIr]) -> bool {
        let policy = t.policy();
        let name = &t.name.name;
        if !policy.multi_hit() {
            if let Some(k) = results.iter().position(|&v| self.vars[v].list) {
                self.push(
                    Diagnostic::new("E078", self.file, t.results[k].span, format!("`{}` is a list, and table `{name}` answers one row", t.results[k].name))
                        .label("a list is decided by every row that holds")
                        .help("make the table `collect`, `rule_order` or `output_order`, or declare the result without `list[…]`"),
                );
                return false;
            }
            return true;
        }
        let p = policy.as_str();
        // A list policy may decide several lists side by side (DMN's list of contexts), each
        // row that holds adding one value to each; an aggregate folds one result.
        if results.len() != 1 && !policy.lists() {
            self.push(
                Diagnostic::new(
                    "E077",
                    self.file,
                    t.results[1].span,
                    format!("table `{name}` is `{p}`, and decides more than one result"),
                )
                .label("a second result")
                .help("an aggregate decides one result: split it into one table per result"),
            );
            return false;
        }
        if let Some(k) = results.iter().position(|&v| policy.lists() && !self.vars[v].list) {
            let ty = self.tyname(&self.vars[results[k]].ty.clone());
            let what = format!("table `{name}` is `{p}`, and its result `{}` is {ty}", t.results[k].name);
            self.push(
                Diagnostic::new("E077", self.file, t.results[k].span, what)
                    .label("not what the policy answers")
                    .help(format!("declare it `list[{ty}]`")),
            );
            return false;
        }
        let var = &self.vars[results[0]];
        let ty = var.ty.clone();
        let (numeric, list) = (ty.is_numeric(), var.list);
        let wrong = match policy {
            _ if policy.lists() && !list => Some(format!("declare it `list[{}]`", self.tyname(&ty))),
            _ if policy.lists() => None,
            _ if list => Some(format!("declare it `{}`, not a list", self.tyname(&ty))),
            ast::Policy::CollectCount if ty != Ty::Int => Some("a count is an `int`".to_string()),
            ast::Policy::CollectSum if !numeric => {
                Some("a sum is a number: `int`, `money[…]`, a quantity or `rate[…]`".to_string())
            }
            ast::Policy::CollectMin | ast::Policy::CollectMax if !numeric && ty != Ty::Date => {
                Some("the least or greatest is of a number or a date".to_string())
            }
            _ => None,
        };
        if let Some(help) = wrong {
            let what =
                format!("table `{name}` is `{p}`, and its result `{}` is {}", t.results[0].name, self.tyname(&ty));
            self.push(
                Diagnostic::new("E077", self.file, t.results[0].span, what)
                    .label("not what the policy answers")
                    .help(help),
            );
            return false;
        }
        if let Some((row, k)) = rows.iter().find_map(|r| r.results.iter().position(Option::is_none).map(|k| (r, k))) {
            let at = row.cell_spans[row.conds.len() + k];
            self.push(
                Diagnostic::new("E077", self.file, at, format!("table `{name}` is `{p}`, and a row answers `none`"))
                    .label("every row that holds gives a value")
                    .help("give the row a value, or leave the row out: a row that holds nowhere adds nothing"),
            );
            return false;
        }
        true
    }

    /// A `priority` table ranks its rows by their results' places in their enums: every
    /// result is an enum, and every result cell one of its members (E076).
    /// Under `output_order` the first result ranks and a later one ranks where it is an enum;
    /// the others ride along, as DMN's outputs without output values do.
    fn priority_cells(&mut self, t: &ast::Table, results: &[VarId], rows: &[RowIr]) -> bool {
        let p = t.policy().as_str();
        for (k, &v) in results.iter().enumerate() {
            let Ty::Enum(e) = self.vars[v].ty else {
                if t.policy() == ast::Policy::OutputOrder && k > 0 {
                    continue;
                }
                let what =
                    format!("table `{}` is `{p}`, and its result `{}` is not an enum", t.name.name, t.results[k].name);
                self.push(
                    Diagnostic::new("E076", self.file, t.results[k].span, what)
                        .label(format!("a `{p}` table ranks its rows by their results' places in their enums"))
                        .help("give the result an enum type, or use `first` and order the rows yourself"),
                );
                return false;
            };
            let members: Vec<&str> = self.enums[e].values.iter().map(|x| x.name.as_str()).collect();
            for (r, row) in rows.iter().enumerate() {
                if let Some(TExprKind::Const(Value::Enum(_))) = row.results[k].as_ref().map(|x| &x.kind) {
                    continue;
                }
                let at = row.cell_spans[row.conds.len() + k];
                let what = format!(
                    "table `{}` is `{p}`, and row {} does not give `{}` a member of its enum",
                    t.name.name,
                    r + 1,
                    t.results[k].name
                );
                self.push(
                    Diagnostic::new("E076", self.file, at, what)
                        .label(format!("a `{p}` row answers one member, so that its place decides"))
                        .help(format!("write one of {}", members.join(", "))),
                );
                return false;
            }
        }
        true
    }

    fn condition(&mut self, c: &ast::Condition, v: VarId) -> Option<CondIr> {
        let ast::Condition::Tests { negated, tests } = c else {
            return Some(CondIr::Any);
        };
        let ty = self.vars[v].ty.clone();
        let optional = self.vars[v].optional;
        let mut out = Vec::with_capacity(tests.len());
        for t in tests {
            match t {
                ast::Test::Equals(lit) if lit.kind == LitKind::None => {
                    if !optional {
                        let name = self.vars[v].name.clone();
                        self.push(
                            Diagnostic::new("E061", self.file, lit.span, format!("`{name}` is never none"))
                                .label("this column is not optional")
                                .help(format!("declare `{name}` with `?` to let it be none, or remove `none`")),
                        );
                        return None;
                    }
                    out.push(TestIr::IsNone);
                }
                ast::Test::Equals(lit) => out.push(TestIr::OneOf(self.set_member(lit, &ty)?)),
                ast::Test::Bounds(bounds) => {
                    let ordered = match &ty {
                        Ty::Enum(e) => self.enums[*e].ordered,
                        Ty::Bool | Ty::Str => false,
                        _ => true,
                    };
                    if !ordered {
                        let tn = self.tyname(&ty);
                        self.push(
                            Diagnostic::new("E061", self.file, bounds[0].1.span, format!("{tn} has no order"))
                                .label("a bound needs an order")
                                .help("list the values the row takes instead"),
                        );
                        return None;
                    }
                    let mut bs = Vec::with_capacity(bounds.len());
                    for (op, lit) in bounds {
                        bs.push((*op, self.lit_value(lit, &ty)?));
                    }
                    out.push(TestIr::Bounds(bs));
                }
            }
        }
        Some(CondIr::Tests { negated: *negated, tests: out })
    }

    fn result_cell(&mut self, e: &ast::Expr, v: VarId) -> Option<Option<TExpr>> {
        if let ExprKind::Lit(ast::Literal { kind: LitKind::None, .. }) = e.kind {
            if !self.vars[v].optional {
                let name = self.vars[v].name.clone();
                self.push(
                    Diagnostic::new("E061", self.file, e.span, format!("`{name}` cannot be none"))
                        .label("not optional")
                        .help(format!("declare `{name}` with `?`, or give a value")),
                );
                return None;
            }
            return Some(None);
        }
        let want = self.vars[v].ty.clone();
        let te = self.expr(e, Some(&want), false)?;
        if !self.assignable(&te, &want, e.span) {
            return None;
        }
        Some(Some(te))
    }

    // ---- after typing

    /// E106: a value with a finer scale than where it is stored, and no rounding.
    fn storage_checks(&mut self, tables: &[TableIr]) {
        let mut stores: Vec<(VarId, TExpr)> = Vec::new();
        for d in &self.defines {
            let var = &self.vars[d.var];
            if var.declared || var.kind == VarKind::Output {
                stores.push((d.var, d.expr.clone()));
            }
        }
        for t in tables {
            for row in &t.rows {
                for (i, r) in row.results.iter().enumerate() {
                    if let Some(r) = r {
                        stores.push((t.results[i], r.clone()));
                    }
                }
            }
        }
        for (v, e) in stores {
            let var = &self.vars[v];
            if var.rounding.is_some() || !var.ty.is_integer_on_wire() {
                continue;
            }
            let unit = var.ty.factor();
            if e.grid.fits(&unit) {
                continue;
            }
            let tn = self.tyname(&var.ty);
            let name = var.name.clone();
            let grid_lit = self.example_grid(&var.ty);
            let (fix_text, fix_at) = match var.kind {
                VarKind::Output => {
                    (format!(" round half_even({grid_lit})"), Span::new(var_decl_end(var), var_decl_end(var)))
                }
                _ => (format!("round({}, half_even, {grid_lit})", self.source_text(e.span)), e.span),
            };
            let what = if var.kind == VarKind::Output { "output" } else { "value" };
            let d = Diagnostic::new("E106", self.file, e.span, format!("{what} `{name}` may hold a fraction of its unit, and nothing rounds it"))
                .label(format!("this can be finer than {tn}"))
                .secondary(self.file, var.span, format!("`{name}` is {tn}"))
                .note("the direction and the grid of a rounding are business decisions: the fix proposes half_even to a whole unit")
                .help(if var.kind == VarKind::Output { format!("declare its rounding: `output {name}: … round half_even({grid_lit})`") } else { format!("round it explicitly: `round(…, half_even, {grid_lit})`") })
                .fix("add_rounding", fix_text, Some((self.file, fix_at)));
            self.push(d);
        }
    }

    fn source_text(&self, span: Span) -> String {
        self.text.get(span.range()).unwrap_or_default().to_string()
    }

    fn expect(&mut self, e: &ast::Expect, span: Span) -> Option<ExpectIr> {
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let mut sequences: Vec<(usize, Vec<Value>)> = Vec::new();
        let mut ok = true;
        for (name, lit) in &e.inputs {
            if let Some(&seq) = self.seq_index.get(&name.name) {
                if sequences.iter().any(|(s, _)| *s == seq) {
                    self.push(
                        Diagnostic::new("E068", self.file, name.span, format!("`{}` is given twice", name.name))
                            .label("given again")
                            .help("give each sequence once"),
                    );
                    ok = false;
                    continue;
                }
                match self.expect_sequence(seq, lit) {
                    Some(elements) => sequences.push((seq, elements)),
                    None => ok = false,
                }
                continue;
            }
            match self.var_index.get(&name.name).copied() {
                Some(v) if self.vars[v].kind == VarKind::Input => {
                    if inputs.iter().any(|(x, _)| *x == v) {
                        self.push(
                            Diagnostic::new("E068", self.file, name.span, format!("`{}` is given twice", name.name))
                                .label("given again")
                                .help("give each input once"),
                        );
                        ok = false;
                        continue;
                    }
                    let ty = self.vars[v].ty.clone();
                    match self.lit_value(lit, &ty) {
                        Some(Value::None) if !self.vars[v].optional => {
                            self.push(
                                Diagnostic::new("E068", self.file, lit.span, format!("`{}` is never none", name.name))
                                    .label("not optional")
                                    .help("give it a value"),
                            );
                            ok = false;
                        }
                        Some(val) => inputs.push((v, val)),
                        None => ok = false,
                    }
                }
                _ => {
                    self.push(
                        Diagnostic::new("E068", self.file, name.span, format!("`{}` is not an input", name.name))
                            .label("not an input")
                            .help("an expect names inputs before `->` and outputs after it"),
                    );
                    ok = false;
                }
            }
        }
        for &v in &(0..self.vars.len()).collect::<Vec<_>>() {
            if self.vars[v].kind == VarKind::Input && !inputs.iter().any(|(x, _)| *x == v) {
                if self.vars[v].optional {
                    inputs.push((v, Value::None));
                } else if ok {
                    let name = self.vars[v].name.clone();
                    self.push(
                        Diagnostic::new("E068", self.file, span, format!("this expect does not give input `{name}`"))
                            .label(format!("`{name}` is missing"))
                            .help(format!("add `{name}=…`; only an optional input may be left out")),
                    );
                    ok = false;
                }
            }
        }
        for (name, lit) in &e.outputs {
            match self.var_index.get(&name.name).copied() {
                Some(v) if self.vars[v].kind == VarKind::Output => {
                    let ty = self.vars[v].ty.clone();
                    let value = match (&lit.kind, self.vars[v].list) {
                        (LitKind::List(items), true) => {
                            items.iter().map(|x| self.lit_value(x, &ty)).collect::<Option<Vec<_>>>().map(Value::List)
                        }
                        (_, true) => {
                            self.push(
                                Diagnostic::new("E068", self.file, lit.span, format!("`{}` is a list", name.name))
                                    .label("expected a list")
                                    .help("write its values in brackets: `[a, b]`, or `[]` for none"),
                            );
                            None
                        }
                        _ => self.lit_value(lit, &ty),
                    };
                    match value {
                        Some(val) => outputs.push((v, val, lit.span)),
                        None => ok = false,
                    }
                }
                _ => {
                    self.push(
                        Diagnostic::new("E068", self.file, name.span, format!("`{}` is not an output", name.name))
                            .label("not an output")
                            .help("after `->` an expect names outputs"),
                    );
                    ok = false;
                }
            }
        }
        inputs.sort_by_key(|(v, _)| *v);
        sequences.sort_by_key(|(s, _)| *s);
        ok.then_some(ExpectIr { inputs, sequences, outputs, span })
    }

    /// The evaluation order of §7: repeatedly the earliest-written step whose dependencies are done.
    fn order(&mut self, tables: &[TableIr], table_items: &[usize]) -> Option<(Vec<Step>, Vec<WalkIr>)> {
        let mut steps: Vec<walks::OrderStep> = Vec::new();
        for (ti, t) in tables.iter().enumerate() {
            let mut reads = t.conds.clone();
            for row in &t.rows {
                for e in row.results.iter().flatten() {
                    collect_vars(e, &mut reads);
                }
            }
            steps.push((table_items[ti], Step::Table(ti), reads, t.results.clone(), t.name_span));
        }
        for &(idx, var) in &self.define_item_order {
            let Some(&di) = self.define_of_var.get(&var) else {
                continue;
            };
            let mut reads = Vec::new();
            collect_vars(&self.defines[di].expr, &mut reads);
            steps.push((idx, Step::Define(di), reads, vec![var], self.defines[di].span));
        }
        // "Written earliest" is read in the canonical form (defines before tables, each group
        // in the order written), so `rulec fmt` can never change the order or the trace.
        steps.sort_by_key(|s| (matches!(s.1, Step::Table(_)), s.0));
        self.order_steps(&steps)
    }

    /// E066: a value that nothing reaching an output reads.
    fn unread_values(&mut self, tables: &[TableIr]) {
        // Every decider as (what it writes, what it reads); then what an output needs, until
        // nothing moves.
        let mut deciders: Vec<(Vec<VarId>, Vec<VarId>)> = Vec::new();
        for t in tables {
            let mut reads = t.conds.clone();
            for row in &t.rows {
                row.results.iter().flatten().for_each(|e| collect_vars(e, &mut reads));
            }
            deciders.push((t.results.clone(), reads));
        }
        for d in &self.defines {
            let mut reads = Vec::new();
            collect_vars(&d.expr, &mut reads);
            deciders.push((vec![d.var], reads));
        }
        for s in &self.summaries {
            let mut reads: Vec<VarId> = s.of.into_iter().collect();
            s.filter.iter().chain(&s.empty).for_each(|e| collect_vars(e, &mut reads));
            deciders.push((vec![s.var], reads));
        }
        for f in &self.folds {
            let mut reads = vec![f.value, f.verdict];
            collect_vars(&f.empty, &mut reads);
            deciders.push((vec![f.into], reads));
        }
        let mut needed: Vec<bool> = self.vars.iter().map(|v| v.kind == VarKind::Output).collect();
        loop {
            let mut moved = false;
            for (writes, reads) in &deciders {
                if writes.iter().any(|&w| needed[w]) {
                    for &r in reads {
                        moved |= !needed[r];
                        needed[r] = true;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        for (v, var) in self.vars.iter().enumerate() {
            if !needed[v] && matches!(var.kind, VarKind::Value | VarKind::Define) {
                let d = Diagnostic::new(
                    "E066",
                    self.file,
                    var.span,
                    format!("`{}` is computed but no output depends on it", var.name),
                )
                .label("read by nothing that reaches an output")
                .help("read it in a table or define that decides an output, or remove it");
                self.diags.push(d);
            }
        }
    }
}

trait AliasSuggest {
    fn name_to_alias(&self) -> String;
}

impl AliasSuggest for String {
    fn name_to_alias(&self) -> String {
        let s: String =
            self.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            format!("_{s}")
        } else {
            s
        }
    }
}

/// Where a rounding is appended to an output's declaration line.
fn var_decl_end(v: &Var) -> usize {
    v.decl_span.end as usize
}

/// Whether a literal can be read in `t` (else it takes its natural type and unification decides).
fn lit_fits_expected(lit: &ast::Literal, t: &Ty) -> bool {
    match (&lit.kind, t) {
        (LitKind::Number { unit: None, .. }, Ty::Int | Ty::Number) => true,
        (LitKind::Number { unit: Some(u), .. }, Ty::Rate { .. }) => u.name == "%",
        (LitKind::Number { unit: Some(u), .. }, Ty::Money { unit: want, .. } | Ty::Qty { unit: want }) => {
            units::lookup(&u.name).is_some_and(|lu| lu.dim == want.dim)
        }
        (LitKind::Date { .. }, Ty::Date) | (LitKind::Bool(_), Ty::Bool) | (LitKind::Str(_), Ty::Str) => true,
        (LitKind::Qualified { .. }, Ty::Enum(_)) => true,
        _ => false,
    }
}
