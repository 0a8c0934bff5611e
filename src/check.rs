//! The check pipeline every door runs on one file: parse, resolve the enums files it
//! `use`s, lower to the typed `Program`, W121, the analysis, and every `expect` through
//! the reference evaluator.

use crate::diag::Diagnostic;
use crate::sema::{self, Program};
use crate::source::{FileId, SourceFile, Sources, Span};
use crate::syntax::{self, ast};
use crate::{analysis, eval};
use std::collections::HashMap;
use std::path::Path;

/// What checking one file gave: its header, its program (when it resolved and typed
/// cleanly) and every diagnostic.
pub struct Checked {
    pub file: FileId,
    /// The file's header, when it parsed that far. The syntax tree itself is dropped once
    /// it is lowered (every later step reads the program): on a 30,000-row table it would be
    /// a third of the memory the analysis needs.
    pub header: Option<ast::Header>,
    pub program: Option<Program>,
    /// What the analysis proved (present when the program resolved and typed cleanly).
    pub analysis: Option<analysis::Analysis>,
    /// The enums files `use`d by the rule, as read.
    pub uses: Vec<FileId>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// W121 as it applies to a build that generates `langs` alone (`rulec check` speaks of
    /// every target): a keyword of a language not generated is no renaming anyone will meet.
    pub fn for_targets(&mut self, langs: &[crate::lang::Lang]) {
        let Some(p) = &self.program else { return };
        let Some(at) = self.diagnostics.iter().position(|d| d.code == "W121") else { return };
        self.diagnostics.retain(|d| d.code != "W121");
        let kept = target_keywords(p, langs);
        self.diagnostics.splice(at..at, kept);
    }

    /// The diagnostics errors first (each kind in the order found), so that a tool showing
    /// the first line shows what failed.
    pub fn errors_first(&self) -> Vec<Diagnostic> {
        let (mut errors, rest): (Vec<Diagnostic>, Vec<Diagnostic>) =
            self.diagnostics.iter().cloned().partition(Diagnostic::is_error);
        errors.extend(rest);
        errors
    }

    /// Every file this check read, where it is on disk: the file itself, then each enums file
    /// it `use`s. What a build has to watch to know when to check again.
    pub fn files_read(&self, sources: &Sources) -> Vec<std::path::PathBuf> {
        std::iter::once(self.file)
            .chain(self.uses.iter().copied())
            .map(|f| sources.resolve(&sources.get(f).path))
            .collect()
    }
}

/// Read and check one file.
pub fn check_path(sources: &mut Sources, path: &Path, opts: &analysis::Options) -> Result<Checked, String> {
    let f = sources.read(path)?;
    Ok(check_file(sources, f, opts))
}

/// Check text that is not on disk (tests, `explain` examples); `use` paths resolve from `path`'s folder.
pub fn check_text(sources: &mut Sources, path: &str, text: &str, opts: &analysis::Options) -> Checked {
    check_file(sources, SourceFile::from_text(path, text), opts)
}

fn check_file(sources: &mut Sources, f: SourceFile, opts: &analysis::Options) -> Checked {
    let mut checked = crate::stack::deep(|| check_file_here(sources, f, opts));
    let found = std::mem::take(&mut checked.diagnostics);
    checked.diagnostics = crate::diag::cap(found, |d| {
        let at = &d.primary;
        (at.file, sources.get(at.file).line_col(at.span.start).0)
    });
    checked
}

fn check_file_here(sources: &mut Sources, f: SourceFile, opts: &analysis::Options) -> Checked {
    let dir = f.path.parent().map(Path::to_path_buf).unwrap_or_default();
    let id = sources.add(f);
    let parsed = syntax::parse(&sources.get(id).text, id);
    let mut diagnostics = parsed.diags;
    let mut checked =
        Checked { file: id, header: None, program: None, analysis: None, uses: Vec::new(), diagnostics: Vec::new() };
    let Some(ast) = parsed.file else {
        checked.diagnostics = diagnostics;
        return checked;
    };
    checked.header = Some(ast.header.clone());
    analysis::work::start();
    if diagnostics.iter().any(Diagnostic::is_error) {
        checked.diagnostics = diagnostics;
        return checked;
    }
    if ast.header.kind == ast::HeaderKind::Enums {
        diagnostics.extend(sema::check_enums_file(id, &ast));
        checked.diagnostics = diagnostics;
        return checked;
    }
    // The enums files this rule uses.
    let mut imported: Vec<(FileId, ast::File, Span)> = Vec::new();
    for item in &ast.items {
        let ast::ItemKind::Use(p) = &item.kind else {
            continue;
        };
        match load_enums_file(sources, &dir, p, id) {
            Ok((fid, file)) => {
                checked.uses.push(fid);
                imported.push((fid, file, p.span));
            }
            Err(d) => diagnostics.push(*d),
        }
    }
    if !diagnostics.iter().any(Diagnostic::is_error) {
        let imports: Vec<sema::Import> = imported
            .iter()
            .map(|(f, a, s)| {
                let src = sources.get(*f);
                let source_name = src.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                sema::Import { file: *f, ast: a, use_span: *s, source_name, sha256: src.sha256.clone() }
            })
            .collect();
        let (program, diags) = sema::lower(id, &sources.get(id).text, &ast, &imports);
        // Past lowering nothing reads the trees: free them before the analysis.
        drop(imports);
        drop(imported);
        drop(ast);
        diagnostics.extend(diags);
        if let Some(p) = &program {
            diagnostics.extend(identifier_clashes(p));
            diagnostics.extend(target_keywords(p, crate::lang::Lang::ALL));
            let found = analysis::analyse(p, &sources.get(id).text, opts);
            diagnostics.extend(found.diagnostics.iter().cloned());
            checked.analysis = Some(found);
            diagnostics.extend(run_expects(p));
        }
        if analysis::work::ran_out() {
            diagnostics.push(out_of_steps(id, checked.header.as_ref().expect("a rule has a header")));
        }
        checked.program = program;
    }
    checked.diagnostics = diagnostics;
    checked
}

fn load_enums_file(
    sources: &mut Sources,
    dir: &Path,
    written: &ast::StrLit,
    from: FileId,
) -> Result<(FileId, ast::File), Box<Diagnostic>> {
    let span = written.span;
    let refuse = |message: String, label: &str, help: String| {
        Box::new(Diagnostic::new("E069", from, span, message).label(label).help(help))
    };
    let target = Path::new(&written.value);
    if target.has_root() || target.is_absolute() {
        return Err(refuse(
            "`use` names an absolute path".into(),
            "not read",
            "write the path relative to the folder of this file; it must stay inside the project".into(),
        ));
    }
    if target.extension().is_none_or(|x| x != "rule") {
        return Err(refuse(
            "`use` names a file that is not a `.rule` file".into(),
            "not read",
            "`use` imports the enums of a `.rule` file that starts with `enums NAME`".into(),
        ));
    }
    // Inside the project root by the path's names, and where a link leads too: inside the
    // root, or inside the project the using file really lives in. A build sandbox (Bazel's
    // execroot) is made of links from one tree into the source tree, and both files of a
    // `use` lead into that same project; a link to a file outside every such project is
    // refused before it is read.
    let named = dir.join(target);
    let root = sources.root_for(dir);
    let on_disk = sources.resolve(&named);
    let outside = |message: &str| {
        refuse(
            message.into(),
            "not read",
            format!(
                "write a path that stays inside the project root {} (the nearest folder above the rule that holds {})",
                root.display(),
                crate::source::ROOT_MARKERS.join(", ")
            ),
        )
    };
    if !crate::source::lexical_absolute(&on_disk).starts_with(&root) {
        return Err(outside("the path leaves the project root"));
    }
    if let Ok(real) = std::fs::canonicalize(&on_disk) {
        let real_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        let using_file = sources.resolve(&sources.get(from).path);
        let using_project =
            std::fs::canonicalize(using_file).map(|f| sources.root_for(f.parent().unwrap_or(Path::new("/"))));
        let inside =
            real.starts_with(&root) || real.starts_with(&real_root) || using_project.is_ok_and(|r| real.starts_with(r));
        if !inside {
            return Err(outside("the path leaves the project root through a link"));
        }
    }
    let f = sources.read(&named).map_err(|e| {
        Box::new(
            Diagnostic::new("E069", from, span, format!("cannot read the enums file: {e}"))
                .label("this file")
                .help("the path is relative to the file that `use`s it"),
        )
    })?;
    let fid = sources.add(f);
    let parsed = syntax::parse(&sources.get(fid).text, fid);
    // A file without a header is no rule: none of its text is quoted.
    let Some(file) = parsed.file else {
        return Err(Box::new(
            Diagnostic::new("E069", from, span, "the enums file has no header")
                .label("this file")
                .help("an enums file starts with `enums NAME`"),
        ));
    };
    if file.header.kind != ast::HeaderKind::Enums {
        return Err(Box::new(
            Diagnostic::new("E069", from, span, "`use` names a rule, not an enums file")
                .label("not an enums file")
                .help("`use` imports the enums of a file that starts with `enums NAME`"),
        ));
    }
    if let Some(d) = parsed.diags.into_iter().find(Diagnostic::is_error) {
        return Err(Box::new(d));
    }
    if let Some(d) = sema::check_enums_file(fid, &file).into_iter().find(Diagnostic::is_error) {
        return Err(Box::new(d));
    }
    Ok((fid, file))
}

/// E075: two declarations that generated code would call by one identifier (the alias, or
/// the ASCII name): variables, enums, or the values of one enum.
fn identifier_clashes(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut clash = |what: &str, ident: &str, first: (FileId, Span), second: (FileId, Span)| {
        out.push(
            Diagnostic::new("E075", second.0, second.1, format!("two {what} are called `{ident}` in generated code"))
                .label(format!("generated code calls this `{ident}`"))
                .secondary(first.0, first.1, format!("and this `{ident}` too"))
                .help("give one of them another alias: `name(another_alias)`"),
        );
    };
    // Each name against the first that took its identifier, found in a map: an enum of
    // 50,000 values is not 50,000² comparisons.
    let mut first_var: HashMap<&str, usize> = HashMap::new();
    for (i, v) in p.vars.iter().enumerate() {
        let w = *first_var.entry(v.ident()).or_insert(i);
        if w != i {
            clash("declarations", v.ident(), (p.file, p.vars[w].span), (p.file, v.span));
        }
    }
    let mut first_enum: HashMap<&str, usize> = HashMap::new();
    for (i, e) in p.enums.iter().enumerate() {
        let f = *first_enum.entry(e.ident()).or_insert(i);
        if f != i {
            clash("enums", e.ident(), (p.enums[f].file, p.enums[f].span), (e.file, e.span));
        }
        let mut first_value: HashMap<&str, usize> = HashMap::new();
        for (j, v) in e.values.iter().enumerate() {
            let ident = v.alias.as_deref().unwrap_or(&v.name);
            let w = *first_value.entry(ident).or_insert(j);
            if w != j {
                let what = format!("values of enum `{}` (`{}` and `{}`)", e.name, e.values[w].name, v.name);
                clash(&what, ident, (e.file, e.span), (e.file, e.span));
            }
        }
    }
    out
}

/// E109 for the whole rule: the command's allowance of steps (`--steps`) ran out, and what
/// was left unproved is not known to hold.
pub fn out_of_steps(file: FileId, header: &ast::Header) -> Diagnostic {
    let name = &header.name.name.name;
    Diagnostic::new("E109", file, header.name.name.span, format!("rule `{name}`: the work on it needs more steps than this command allows"))
        .label("not proved: the work stopped here")
        .note(format!(
            "every step of the linear reasoning and every box a table splits counts; {} steps were allowed, and nothing the work did not finish is proved",
            analysis::work::steps()
        ))
        .help("raise the allowance with `--steps N` (a larger N) on check, gen, graph, doc or diff, or split the rule: fewer inputs that one constraint or table ties together")
}

/// W121: a name generated code cannot use as it is, because it is a keyword of a target
/// language or an identifier the generated code uses itself; that language renames it (the
/// naming tables of src/lang/ say how), the wire keeps the name.
fn target_keywords(p: &Program, langs: &[crate::lang::Lang]) -> Vec<Diagnostic> {
    let mut found = keyword_names(p, langs);
    found.extend(enums_named_like_the_rule(p, langs));
    found
}

fn keyword_names(p: &Program, langs: &[crate::lang::Lang]) -> Vec<Diagnostic> {
    use crate::lang::Lang;
    p.vars
        .iter()
        .filter(|v| v.alias.is_none())
        .filter_map(|v| {
            let hit: Vec<(Lang, String)> = langs
                .iter()
                .filter_map(|&l| {
                    let ident = l.naming().value.apply(&v.name);
                    l.reserves(&ident).then_some((l, ident))
                })
                .collect();
            if hit.is_empty() {
                return None;
            }
            let langs: Vec<String> = hit.iter().map(|(l, i)| format!("{} writes `{i}_`", l.title())).collect();
            Some(
                Diagnostic::new(
                    "W121",
                    p.file,
                    v.span,
                    format!("`{}` is a keyword or a name of the generated code in a target language", v.name),
                )
                .label(format!("renamed in generated code: {}", langs.join(", ")))
                .note("the wire, the records and the vectors keep the declared name; `rulec api` gives every spelling")
                .help(format!("give it an alias to choose the name yourself: `{}(another_name)`", v.name))
                .fix("add_alias", format!("{}({}_value)", v.name, v.name), Some((p.file, v.span))),
            )
        })
        .collect()
}

/// W121 for an enum the rule declares whose type would take a name the rule's module holds
/// already in one namespace (Go's function `Size` beside a type `Size`, Java's class `Size`
/// around its nested enum): that language's naming pass gives the enum the next free name.
/// An enums file's enum is its own module's, not the rule's.
fn enums_named_like_the_rule(p: &Program, langs: &[crate::lang::Lang]) -> Vec<Diagnostic> {
    p.enums
        .iter()
        .filter(|e| e.file == p.file)
        .filter_map(|e| {
            let hit: Vec<String> = langs
                .iter()
                .filter(|l| l.declares_enum_types())
                .filter_map(|&l| {
                    let ty_case = l.naming().ty;
                    let ty = ty_case.apply(e.ident());
                    let taken = l.claimed_before_enums(p.ident());
                    let is_taken = |name: &str| taken.iter().any(|(_, t)| l.same_name(t, name));
                    let (what, owner) = taken.iter().find(|(_, t)| l.same_name(t, &ty))?;
                    let spelled = (2..).map(|n| ty_case.numbered(&ty, n)).find(|c| !is_taken(c))?;
                    Some(format!("{} writes `{spelled}` (the {what} is `{owner}`)", l.title()))
                })
                .collect();
            if hit.is_empty() {
                return None;
            }
            let mut d = Diagnostic::new(
                "W121",
                p.file,
                e.span,
                format!("`{}` is an enum spelled like the rule's own name in a target language", e.name),
            )
            .label(format!("the enum is renamed in generated code: {}", hit.join(", ")))
            .note("the wire, the records and the vectors keep the declared name; `rulec api` gives every spelling");
            d = match &e.alias {
                None => d
                    .help(format!(
                        "give the enum an alias to choose the name yourself: `enum {}({}_kind)`",
                        e.name, e.name
                    ))
                    .fix("add_alias", format!("{}({}_kind)", e.name, e.name), Some((p.file, e.span))),
                Some(_) => d.help("give the enum, or the rule, another alias"),
            };
            Some(d)
        })
        .collect()
}

/// The inputs of an `expect` line as a call gives them: through the wire door, which
/// refuses what a call would be refused.
pub fn expect_inputs(p: &Program, e: &sema::ExpectIr) -> Result<Vec<sema::Value>, eval::wire::Refusal> {
    use eval::wire;
    let mut obj = serde_json::Map::new();
    for (v, x) in &e.inputs {
        obj.insert(p.vars[*v].name.clone(), wire::to_wire(p, &p.vars[*v], x));
    }
    // A sequence the expect does not give is empty.
    for (s, seq) in p.sequences.iter().enumerate() {
        let given = e.sequences.iter().find(|(x, _)| *x == s).map(|(_, xs)| xs.clone()).unwrap_or_default();
        obj.insert(seq.name.clone(), wire::sequence_json(p, seq, &sema::Value::List(given)));
    }
    wire::read_inputs(p, &serde_json::Value::Object(obj))
}

/// E111: run every `expect` through the reference evaluator, through the same door a call takes.
fn run_expects(p: &Program) -> Vec<Diagnostic> {
    use eval::wire;
    let mut out = Vec::new();
    for e in &p.expects {
        let inputs = match expect_inputs(p, e) {
            Ok(i) => i,
            Err(r) => {
                out.push(
                    Diagnostic::new(
                        "E068",
                        p.file,
                        e.span,
                        format!("this expect gives an input the rule refuses: {}", r.what),
                    )
                    .label("refused at the door")
                    .help("give inputs inside the declared ranges and constraints"),
                );
                continue;
            }
        };
        let outcome = match eval::evaluate(p, &inputs) {
            Ok(o) => o,
            Err(err) => {
                out.push(
                    Diagnostic::new("E111", p.file, e.span, format!("this expect has no answer: {err}"))
                        .label("the rule cannot answer these inputs")
                        .help("fix the rule, or the expect"),
                );
                continue;
            }
        };
        for (v, want, span) in &e.outputs {
            let got = &outcome.values[*v];
            if got != want {
                let var = &p.vars[*v];
                let (w, g) = (wire::display(p, &var.ty, want), wire::display(p, &var.ty, got));
                let rows: Vec<String> =
                    outcome.trace.iter().map(|f| format!("{} row {}", p.tables[f.table].name, f.row)).collect();
                let mut d =
                    Diagnostic::new("E111", p.file, *span, format!("expect disagrees: {} is {g}, not {w}", var.name))
                        .label(format!("expected {w}, the rule computes {g}"))
                        .help("if the rule is right, correct the expect; if the expect is right, the rule has a bug")
                        .note(format!(
                            "The fix writes {g}, what the rule computes, as the expected value: a form that removes the disagreement, not a decision that the rule is right."
                        ))
                        .fix("add_expected", g.clone(), Some((p.file, *span)));
                if !rows.is_empty() {
                    d = d.note(format!("rows that fired: {}", rows.join(", ")));
                }
                out.push(d);
            }
        }
    }
    out
}
