//! The `rulec` command line: argument parsing and printing only; the work is the library's.

use clap::Parser;
use rulec::cli::{
    BuildArgs, CheckFormat, Cli, Color, Command, DocAudience, DocFormat, FixturesCommand, Format, Generated,
    ImportCommand, RecordsArgs, TemplateKind,
};
use rulec::diag::{codes, render, Diagnostic};
use rulec::eval;
use rulec::{Checked, Sources};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `--root`, for every command that reads rules: set by each command line (`rulec mcp`
/// runs one per tool call).
static ROOT: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

fn root() -> Option<PathBuf> {
    ROOT.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The files a command reads, held inside `--root` when it is given.
fn new_sources() -> Sources {
    match root() {
        Some(root) => Sources::new().with_root(&root),
        None => Sources::new(),
    }
}

/// Standard output and error for every command. A reader that goes away (`rulec … | head -1`)
/// ends that stream quietly, as it ends cat's: what is left is not written, nothing is said,
/// and the command still finishes and exits with its own code. Any other write error is
/// reported once at the end (exit 2).
mod output {
    use std::fmt::Arguments;
    use std::io::{ErrorKind, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;

    static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
    static STDERR_GONE: AtomicBool = AtomicBool::new(false);
    static FAILED: Mutex<Option<String>> = Mutex::new(None);

    fn write(gone: &AtomicBool, what: &str, w: &mut dyn Write, args: Arguments) {
        if gone.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = w.write_fmt(args).and_then(|()| w.flush()) {
            gone.store(true, Ordering::Relaxed);
            if e.kind() != ErrorKind::BrokenPipe {
                FAILED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(format!("cannot write to {what}: {e}"));
            }
        }
    }

    pub fn out(args: Arguments) {
        write(&STDOUT_GONE, "standard output", &mut std::io::stdout().lock(), args)
    }

    pub fn err(args: Arguments) {
        write(&STDERR_GONE, "standard error", &mut std::io::stderr().lock(), args)
    }

    pub fn stdout_gone() -> bool {
        STDOUT_GONE.load(Ordering::Relaxed)
    }

    /// The first write error that was not a closed pipe.
    pub fn failure() -> Option<String> {
        FAILED.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

macro_rules! outln {
    () => { output::out(format_args!("\n")) };
    ($($t:tt)*) => { output::out(format_args!("{}\n", format_args!($($t)*))) };
}
macro_rules! err {
    ($($t:tt)*) => { output::err(format_args!($($t)*)) };
}
macro_rules! errln {
    ($($t:tt)*) => { output::err(format_args!("{}\n", format_args!($($t)*))) };
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Every stage recurses over expressions: run them on a stack that holds the deepest
    // expression the parser accepts.
    let result = match cli.command {
        Command::Mcp { allow_run } => {
            let opts = rulec::mcp::Options { root: cli.root.clone(), allow_run };
            rulec::mcp::serve(&opts, &|cli| rulec::stack::deep(|| run(cli)))
        }
        _ => rulec::stack::deep(|| run(cli)),
    };
    let code = match result {
        Ok(code) => code,
        Err(msg) => {
            errln!("error: {msg}");
            2
        }
    };
    match output::failure() {
        Some(e) => {
            // Standard error may be the stream that failed; this is the last word either way.
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        }
        None => ExitCode::from(code),
    }
}

/// Run one command line: its exit code, or the error that makes it exit 2. `rulec mcp`
/// calls this for every tool call, with the output captured.
fn run(cli: Cli) -> Result<u8, String> {
    *ROOT.lock().unwrap_or_else(|e| e.into_inner()) = cli.root;
    rulec::analysis::work::set_steps(cli.command.steps());
    match cli.command {
        Command::Check { paths, format, color, budget, .. } => {
            check(&paths, format, color, &rulec::analysis::Options { budget })
        }
        Command::Fmt { paths, check, format } => fmt(&paths, check, format),
        Command::Eval { file, input, tag } => eval_cmd(&file, &input, &tag),
        Command::Gen { rules, check, locked, format, build, .. } => gen(&rules, check, locked, format, &build),
        Command::Lock { rules, no_servers, format, .. } => {
            let build = BuildArgs { lock_only: true, no_servers, ..BuildArgs::default() };
            gen(&rules, false, false, format, &build)
        }
        Command::Test { dir, lang, require_all, jobs, format } => test(&dir, &lang, require_all, jobs, format),
        Command::Api { file, lang } => api(&file, &lang),
        Command::Schema { file, keys } => match load_program(&file) {
            Ok((_, checked)) => {
                let p = checked.program.as_ref().expect("checked clean");
                let caller_keeps = rulec::graph::caller_keeps(p, &checked.diagnostics);
                outln!("{}", rulec::schema::schema(p, keys, &caller_keeps));
                Ok(0)
            }
            Err(code) => Ok(code),
        },
        Command::Vectors { file, out } => vectors(&file, out.as_deref()),
        Command::Coverage { files, format } => coverage(&files, format),
        Command::Certificate { file, program } => certificate_cmd(&file, program),
        Command::Graph { file, .. } => graph_cmd(&file),
        Command::Doc { file, out, audience, format, .. } => doc_cmd(&file, out.as_deref(), audience, format),
        Command::Import { command: ImportCommand::Dmn { file, decision, out } } => {
            import_dmn(&file, decision.as_deref(), out.as_deref())
        }
        Command::Explain { code, all, format } => explain(code.as_deref(), all, format),
        Command::Fixtures { command: FixturesCommand::Lint { file, rule, manifest, fill, read_as, format } } => {
            fixtures_lint(&file, &rule, manifest.as_deref(), &fill, read_as.as_deref(), format)
        }
        Command::Replay { rule, records, format } => replay(&rule, &records, format),
        Command::Verify { rule, timeout, format, sample, seed, exhaustive, adapter } => {
            let reach = match (sample, exhaustive) {
                (_, true) => production::adapter::Reach::Exhaustive,
                (Some(n), false) => production::adapter::Reach::Sample(n, seed),
                (None, false) => production::adapter::Reach::Default,
            };
            verify(&rule, &timeout, &adapter, format, reach)
        }
        Command::Adapter { rule, template } => adapter_template(&rule, template),
        Command::Diff { old, new, fixtures, manifest, fill, read_as, budget, format, .. } => match fixtures {
            Some(f) => {
                let records = RecordsArgs { fixtures: f, manifest, fill, read_as };
                diff_records(&old, &new, &records, format)
            }
            None => diff_region(&old, &new, budget, format),
        },
        Command::Mcp { .. } => Err("rulec mcp is the server itself; it is not one of its tools".into()),
        Command::Lsp => rulec::lsp::run(root()),
    }
}

/// Every `.rule` file named, or found below a named folder, in a stable order. Links below
/// a folder are followed while they stay inside its project root; a folder with no rule in
/// it is an error, not a clean run.
fn rule_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let root = match root() {
                Some(r) => rulec::source::lexical_absolute(&r),
                None => rulec::source::project_root(p),
            };
            let real_root = std::fs::canonicalize(&root).unwrap_or(root.clone());
            let mut found = Vec::new();
            for entry in walkdir::WalkDir::new(p).follow_links(true).sort_by_file_name() {
                let entry = entry.map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                if !entry.file_type().is_file() || entry.path().extension().is_none_or(|x| x != "rule") {
                    continue;
                }
                let real = std::fs::canonicalize(entry.path())
                    .map_err(|e| format!("cannot read {}: {e}", entry.path().display()))?;
                if !real.starts_with(&real_root) {
                    return Err(format!(
                        "{} is a link to a file outside the project root {}; not read",
                        entry.path().display(),
                        root.display()
                    ));
                }
                found.push(entry.into_path());
            }
            if found.is_empty() {
                return Err(format!("no rule found in {} (no *.rule file below it)", p.display()));
            }
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{} does not exist", p.display()));
        }
    }
    Ok(out)
}

fn use_color(c: Color) -> bool {
    match c {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

fn check(paths: &[PathBuf], format: CheckFormat, color: Color, opts: &rulec::analysis::Options) -> Result<u8, String> {
    let files = rule_files(paths)?;
    let mut sources = new_sources();
    let mut all: Vec<Diagnostic> = Vec::new();
    for f in &files {
        let checked = rulec::check_path(&mut sources, f, opts)?;
        all.extend(checked.diagnostics);
    }
    let findings = all.iter().filter(|d| d.severity != rulec::diag::Severity::Note).count();
    match format {
        CheckFormat::Sarif => outln!("{}", render::sarif(&sources, &all)),
        CheckFormat::Json => {
            for d in &all {
                outln!("{}", render::json(&sources, d));
            }
        }
        CheckFormat::Text => {
            err!("{}", render::text(&sources, &all, use_color(color)));
            let errors = all.iter().filter(|d| d.is_error()).count();
            let warnings = findings - errors;
            if findings == 0 {
                errln!("checked {} file{}: clean", files.len(), plural(files.len()));
            } else {
                errln!(
                    "checked {} file{}: {errors} error{}, {warnings} warning{}",
                    files.len(),
                    plural(files.len()),
                    plural(errors),
                    plural(warnings)
                );
            }
        }
    }
    Ok(if findings > 0 { 1 } else { 0 })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `rulec import dmn`: the rule, or the refusal (exit 1) with nothing written.
fn import_dmn(file: &Path, decision: Option<&str>, out: Option<&Path>) -> Result<u8, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    // What the checker finds, table by table: where a gap is all it finds, DMN answers null.
    let findings = |rule: &str| -> Vec<(String, String)> {
        let checked = rulec::check_text(&mut new_sources(), "import.rule", rule, &Default::default());
        checked.diagnostics.into_iter().filter_map(|d| Some((d.table?, d.code.to_string()))).collect()
    };
    match rulec::dmn::import(&text, decision, &findings) {
        Ok(rule) => {
            match out {
                // As `doc --out` does: the file written where it resolves, below its folder.
                Some(o) => {
                    let dir = o.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
                    rulec::confine::Root::new(dir, "--out").write(o, rule.as_bytes())?
                }
                None => output::out(format_args!("{rule}")),
            }
            Ok(0)
        }
        Err(r) => {
            errln!("error: {}:{r}", file.display());
            Ok(1)
        }
    }
}

fn fmt(paths: &[PathBuf], check_only: bool, format: Format) -> Result<u8, String> {
    let files = rule_files(paths)?;
    let mut unformatted = Vec::new();
    let mut formatted = Vec::new();
    let mut sources = new_sources();
    let mut broken = Vec::new();
    for f in &files {
        let sf = rulec::source::SourceFile::read(f)?;
        let id = sources.add(sf);
        let parsed = rulec::syntax::parse(&sources.get(id).text, id);
        if parsed.diags.iter().any(Diagnostic::is_error) || parsed.file.is_none() {
            broken.extend(parsed.diags);
            continue;
        }
        let text = rulec::syntax::fmt::format_file(parsed.file.as_ref().unwrap());
        let original = std::fs::read(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        if text.as_bytes() != original.as_slice() {
            let shown = sources.get(id).display.clone();
            if check_only {
                unformatted.push(shown);
            } else {
                std::fs::write(f, &text).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
                formatted.push(shown);
            }
        }
    }
    if !broken.is_empty() {
        err!("{}", render::text(&sources, &broken, use_color(Color::Auto)));
    }
    match format {
        Format::Json => outln!("{}", json!({"unformatted": unformatted, "formatted": formatted})),
        Format::Text => {
            for f in &unformatted {
                outln!("would reformat {f}");
            }
            for f in &formatted {
                outln!("formatted {f}");
            }
        }
    }
    Ok(if !broken.is_empty() || !unformatted.is_empty() { 1 } else { 0 })
}

/// Check a rule for a command that needs its program; print the diagnostics if it has errors.
fn load_program(path: &Path) -> Result<(Sources, Checked), u8> {
    let mut sources = new_sources();
    let checked = match rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return Err(2);
        }
    };
    if checked.has_errors() || checked.program.is_none() {
        err!("{}", render::text(&sources, &checked.diagnostics, use_color(Color::Auto)));
        errln!("error: {} does not check clean; fix it first", path.display());
        return Err(1);
    }
    Ok((sources, checked))
}

fn certificate_cmd(file: &Path, program: bool) -> Result<u8, String> {
    if program {
        let mut sources = new_sources();
        let checked = rulec::check_path(&mut sources, file, &rulec::analysis::Options::default())?;
        let Some(json) = rulec::certificate::program(&sources, &checked) else {
            err!("{}", render::text(&sources, &checked.diagnostics, use_color(Color::Auto)));
            errln!("error: {} does not resolve its names and types; fix the errors above", file.display());
            return Ok(1);
        };
        outln!("{json}");
        return Ok(0);
    }
    let (sources, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    // Its proofs are of its views (docs/walks.md), which the certificate does not state yet.
    if checked.program.as_ref().is_some_and(|p| p.walks_sequences()) {
        errln!("error: {} walks a sequence, and rulec writes no certificate of a walk yet", file.display());
        return Ok(1);
    }
    match rulec::certificate::certificate(&sources, &checked) {
        Some(cert) => {
            outln!("{cert}");
            Ok(0)
        }
        None => {
            errln!("error: {} was not proved in full; no certificate", file.display());
            Ok(1)
        }
    }
}

fn graph_cmd(file: &Path) -> Result<u8, String> {
    let mut sources = new_sources();
    let checked = rulec::check_path(&mut sources, file, &rulec::analysis::Options::default())?;
    let Some(graph) = rulec::graph::of_checked(&sources, &checked) else {
        err!("{}", render::text(&sources, &checked.diagnostics, use_color(Color::Auto)));
        errln!(
            "error: {} does not resolve its names and types, so there is nothing to draw an edge between; fix the errors above",
            file.display()
        );
        return Ok(1);
    };
    if checked.has_errors() {
        let codes: Vec<&str> = checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
        errln!(
            "note: {} does not check clean ({}); its graph needs only names and types",
            file.display(),
            codes.join(", ")
        );
    }
    outln!("{graph}");
    Ok(0)
}

fn doc_cmd(file: &Path, out: Option<&Path>, audience: DocAudience, format: DocFormat) -> Result<u8, String> {
    use rulec::doc::Audience;
    let audience = match audience {
        DocAudience::Approver => Audience::Approver,
        DocAudience::Customer => Audience::Customer,
    };
    if format == DocFormat::Html && audience == Audience::Customer {
        return Err("--format html is the page for the approver; --audience customer is markdown only".into());
    }
    let (sources, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else { return Ok(1) };
    let (name, text) = rulec::doc::render(&unit, audience, format == DocFormat::Html);
    match out {
        None => output::out(format_args!("{text}")),
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let path = dir.join(name);
            rulec::confine::Root::new(dir, "--out").write(&path, text.as_bytes())?;
            outln!("wrote {}", path.display());
        }
    }
    Ok(0)
}

fn eval_cmd(file: &Path, input: &str, tag: &str) -> Result<u8, String> {
    let (_, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let p = checked.program.as_ref().expect("checked clean");
    if input == "-" {
        // Every line is answered, one that is not UTF-8 or not JSON with a refusal.
        for line in std::io::stdin().lock().split(b'\n') {
            // Nobody reads the answers any more: stop reading calls too.
            if output::stdout_gone() {
                break;
            }
            let answer = match String::from_utf8(line.map_err(|e| e.to_string())?) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => eval::answer(p, &text, tag),
                // Bytes that are not UTF-8 are not JSON either: the door's refusal of one.
                Err(_) => eval::answer(p, "", tag),
            };
            outln!("{answer}");
        }
    } else {
        // One call named on the command line is an argument: one that is not JSON is refused.
        serde_json::from_str::<serde_json::Value>(input).map_err(|e| format!("--in is not JSON: {e}"))?;
        outln!("{}", eval::answer(p, input, tag));
    }
    Ok(0)
}

fn parse_langs(names: &[String]) -> Result<Vec<rulec::gen::Lang>, String> {
    if names.is_empty() {
        return Ok(rulec::gen::Lang::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            rulec::gen::Lang::parse(n).ok_or_else(|| {
                let known: Vec<&str> = rulec::gen::Lang::ALL.iter().map(|l| l.name()).collect();
                format!("`{n}` is not a language rulec generates ({})", known.join(", "))
            })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn gen(rules: &Generated, check_only: bool, locked: bool, format: Format, build: &BuildArgs) -> Result<u8, String> {
    use rulec::lock::{self, Lock};
    let (paths, out) = (&rules.paths, rules.out.as_path());
    let langs = parse_langs(&rules.lang)?;
    // A language named with --lang that cannot write a rule is an error; one of the default
    // set is left out of that rule with a note.
    let explicit = !rules.lang.is_empty();
    let lock_path = rules.lock.clone().unwrap_or_else(|| PathBuf::from(lock::FILE_NAME));
    let lock_dir = lock_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let mut sources = new_sources();
    let rules = rule_files(paths)?;
    let targets = &langs;
    let generation = rulec::generate::generate(&mut sources, &rules, &langs, &lock_dir, |unit, langs| {
        let mut files = if build.no_servers {
            rulec::outputs::without_servers(unit, langs)
        } else {
            rulec::outputs::of_rule(unit, langs)
        };
        files.extend(rulec::outputs::left_out(unit, targets));
        files.into_iter().map(|f| rulec::generate::Placed::in_folder(out, f)).collect()
    })?;
    let mut generation = generation;
    if build.enums_modules {
        generation.add_enums_modules(&mut sources, &langs, |f| rulec::generate::Placed::in_folder(out, f))?;
    }
    let clashes = generation.clashes();
    if !explicit {
        for why in &generation.refused {
            errln!("note: {why}; the rule is written in its other languages");
        }
    }
    if !clashes.is_empty() || (explicit && !generation.refused.is_empty()) {
        let refused = if explicit { &generation.refused[..] } else { &[] };
        for c in clashes.iter().chain(refused) {
            errln!("error: {c}");
        }
        errln!("error: nothing was written");
        return Ok(1);
    }
    if !generation.failed.is_empty() {
        err!("{}", render::text(&sources, &generation.failed, use_color(Color::Auto)));
        errln!("error: rules with errors generate nothing");
        return Ok(1);
    }
    let rulec::generate::Generation { mut read, enums_files: enums_named, renamed, fresh, .. } = generation;
    let (writers, mut files): (Vec<PathBuf>, Vec<rulec::gen::File>) =
        generation.files.into_iter().map(|(by, p)| (by, p.file)).unzip();
    if build.unused_inputs_list.is_some() {
        // The build named every enums file it declared: reading another would be an input
        // it does not know of (a sandbox would refuse it; a plain run would hide it).
        let here = Path::new(".");
        let named: Vec<String> = rules.iter().map(|p| lock::relative(p, here)).collect();
        let mut unknown: Vec<String> =
            read.iter().map(|p| lock::relative(p, here)).filter(|p| !named.contains(p)).collect();
        unknown.sort();
        unknown.dedup();
        if !unknown.is_empty() {
            for u in &unknown {
                errln!("error: a rule uses {u}, which is not named on the command line");
            }
            errln!("error: name every enums file the rules use (with Bazel: in `enums` of the rulec_library)");
            return Ok(2);
        }
    }
    if !build.only.is_empty() {
        let problems = undeclared(&files, &build.only, &build.written_elsewhere, out);
        if !problems.is_empty() {
            for p in &problems {
                errln!("error: {p}");
            }
            for r in &renamed {
                errln!("note: {r}: outputs named after a rule file's name need the file named after the rule");
            }
            errln!("error: the files declared with --only and --written-elsewhere are not what rulec generates");
            return Ok(2);
        }
        // An enums file whose module this run writes is an input of the run, read or not
        // by its rules; one whose module another run writes is not.
        for (by, f) in writers.iter().zip(&files) {
            if enums_named.contains(by) && build.only.contains(&f.path) && !read.contains(by) {
                read.push(by.clone());
            }
        }
        files.retain(|f| build.only.contains(&f.path));
    }
    let owned = |entry: &str| lock::owns(paths, &lock_dir, entry);
    // Only files below --out are ever written or removed, whatever a lock says: below it
    // where they really lead, every `..` and link followed (rulec::confine).
    let out_root = rulec::confine::Root::new(out, "--out");
    let shown = |p: &Path| {
        let s = p.to_string_lossy().replace('\\', "/");
        s.strip_prefix("./").map(str::to_string).unwrap_or(s)
    };
    if locked {
        let existing = Lock::read(&lock_path)?;
        let merged = existing.merge(&fresh, &owned);
        let mut drift = existing.drift(&fresh);
        // What is on disk must be what the lock says, too: a hand edit is drift. Only the
        // rules and the languages of this run are held to it, so a build that checks one
        // rule needs no other rule's files.
        let mut kinds: Vec<&str> = langs.iter().map(|l| l.name()).collect();
        kinds.push("vectors");
        for r in existing.rules.iter().filter(|r| fresh.iter().any(|f| f.path == r.path)) {
            for a in r.artifacts.iter().filter(|a| kinds.contains(&a.lang.as_str())) {
                let on_disk = std::fs::read(lock_dir.join(&a.path)).map(|b| lock::digest(&b));
                match on_disk {
                    Ok(d) if d == a.sha256 => {}
                    Ok(_) => drift.push(format!("{}: the file on disk differs from the lock", a.path)),
                    Err(_) if merged.stale.contains(&a.path) => {}
                    Err(_) => drift.push(format!("{}: locked, but missing on disk", a.path)),
                }
            }
        }
        for r in &merged.gone {
            drift.push(format!("{r}: locked, but the rule is gone"));
        }
        for a in &merged.stale {
            drift.push(format!("{a}: stale: no rule generates it any more"));
        }
        drift.sort();
        drift.dedup();
        if !drift.is_empty() {
            for d in &drift {
                errln!("error: {d}");
            }
            errln!(
                "error: the generation differs from {}; run `{}` to update it",
                lock_path.display(),
                this_run_without("--locked")
            );
            return Ok(1);
        }
    }
    let (mut written, mut stale, mut missing, mut removed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // The lock is held from the read of the lock to the write of it, so two runs into one
    // lock merge one after the other and neither loses the other's entries.
    // With --no-lock a build system owns the outputs: no lock is read, held or written.
    let use_lock = !build.no_lock;
    let _hold = if check_only || locked || !use_lock { None } else { Some(lock::hold(&lock_path)?) };
    let existing = match if use_lock { Lock::read_if_present(&lock_path)? } else { Some(Lock::new(Vec::new())) } {
        Some(l) => l,
        None if check_only => {
            errln!("error: {} does not exist; run `{}` to write it", lock_path.display(), this_run_without("--check"));
            missing.push(shown(&lock_path));
            Lock::new(Vec::new())
        }
        None => Lock::new(Vec::new()),
    };
    let merged = existing.merge(&fresh, &owned);
    // Every write is held to --out before the first one, so a refusal touches nothing.
    let mut to_write = Vec::new();
    for f in files.iter().filter(|_| !build.lock_only) {
        let target = out.join(&f.path);
        match std::fs::read(&target) {
            Ok(bytes) if bytes == f.text.as_bytes() => {}
            Ok(_) if check_only => stale.push(shown(&target)),
            Err(_) if check_only => missing.push(shown(&target)),
            _ => {
                out_root.inside(&target).map_err(|e| format!("{e}; nothing was written"))?;
                to_write.push((target, f));
            }
        }
    }
    for (target, f) in to_write {
        out_root.write(&target, f.text.as_bytes())?;
        written.push(shown(&target));
    }
    for a in merged.stale.iter().filter(|_| !build.lock_only) {
        let at = lock_dir.join(a);
        let real = match out_root.inside(&at) {
            Ok(real) => real,
            Err(e) => {
                if at.is_file() {
                    errln!("note: {} lists {a}, which is not removed: {e}", lock_path.display());
                }
                continue;
            }
        };
        if !real.is_file() {
            continue;
        }
        if check_only {
            stale.push(shown(&at));
        } else {
            std::fs::remove_file(&real).map_err(|e| format!("cannot remove {}: {e}", at.display()))?;
            // And the folders that held only generated files, up to --out.
            let mut dir = real.parent();
            while let Some(d) = dir.filter(|d| d.starts_with(&out_root.real) && *d != out_root.real) {
                if std::fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
            removed.push(shown(&at));
        }
    }
    let text = merged.lock.to_toml();
    let lock_is_current = !use_lock || std::fs::read_to_string(&lock_path).ok().as_deref() == Some(text.as_str());
    if check_only {
        if !lock_is_current && lock_path.exists() {
            stale.push(shown(&lock_path));
        }
    } else if !locked && !lock_is_current {
        lock::write_whole(&lock_path, text.as_bytes())?;
        if build.lock_only {
            written.push(shown(&lock_path));
        }
    }
    if stale.is_empty() && missing.is_empty() {
        write_build_files(build, &read, &enums_named)?;
    }
    match format {
        _ if build.quiet && stale.is_empty() && missing.is_empty() => {}
        Format::Json => {
            let mut report = json!({"written": written, "stale": stale, "missing": missing});
            if !removed.is_empty() {
                report["removed"] = json!(removed);
            }
            outln!("{report}")
        }
        Format::Text => {
            for f in &written {
                outln!("wrote {f}");
            }
            for f in &removed {
                outln!("removed {f}: no rule generates it any more");
            }
            for f in &stale {
                outln!("stale {f}");
            }
            for f in &missing {
                outln!("missing {f}");
            }
        }
    }
    Ok(if stale.is_empty() && missing.is_empty() { 0 } else { 1 })
}

/// Where the files a run generates and the files a build declared for it (--only and
/// --written-elsewhere) disagree, one sentence each.
fn undeclared(files: &[rulec::gen::File], only: &[String], elsewhere: &[String], out: &Path) -> Vec<String> {
    let shown = |p: &str| out.join(p).to_string_lossy().replace('\\', "/");
    let generated: std::collections::BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut problems: Vec<String> = generated
        .iter()
        .filter(|g| !only.iter().chain(elsewhere).any(|d| d == *g))
        .map(|g| format!("{} is generated, but not declared", shown(g)))
        .collect();
    let mut declared: Vec<&String> = only.iter().chain(elsewhere).collect();
    declared.sort();
    declared.dedup();
    problems.extend(
        declared
            .into_iter()
            .filter(|d| !generated.contains(d.as_str()))
            .map(|d| format!("{} is declared, but not generated", shown(d))),
    );
    problems
}

/// The depfile and the unused-inputs list, written after every output so that the depfile,
/// which doubles as make's record of the run, is newer than all of them.
fn write_build_files(build: &BuildArgs, read: &[PathBuf], enums_named: &[PathBuf]) -> Result<(), String> {
    use rulec::lock::{relative, write_whole};
    let here = Path::new(".");
    let mut deps: Vec<String> = read.iter().map(|p| relative(p, here)).collect();
    deps.sort();
    deps.dedup();
    let parent = |f: &Path| -> Result<(), String> {
        match f.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) => std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display())),
            None => Ok(()),
        }
    };
    if let Some(file) = &build.depfile {
        let escape = |p: &str| p.replace(' ', "\\ ").replace('$', "$$").replace('#', "\\#");
        let escaped: Vec<String> = deps.iter().map(|d| escape(d)).collect();
        // Each prerequisite also as a target of its own, so a deleted enums file does not stop make.
        // The target as make names it, so the rule attaches to make's own target.
        let target = build.depfile_target.clone().unwrap_or_else(|| file.to_string_lossy().into_owned());
        let mut text = format!("{}: {}\n", escape(&target), escaped.join(" "));
        for d in &escaped {
            text.push_str(&format!("{d}:\n"));
        }
        parent(file)?;
        write_whole(file, text.as_bytes())?;
    }
    if let Some(file) = &build.unused_inputs_list {
        let text: String = enums_named
            .iter()
            .filter(|e| !deps.contains(&relative(e, here)))
            .map(|e| format!("{}\n", e.to_string_lossy()))
            .collect();
        parent(file)?;
        write_whole(file, text.as_bytes())?;
    }
    Ok(())
}

fn api(file: &Path, langs: &[String]) -> Result<u8, String> {
    let langs = parse_langs(langs)?;
    let (sources, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else { return Ok(1) };
    outln!("{}", rulec::gen::api(&unit, &langs));
    Ok(0)
}

fn test(dir: &Path, langs: &[String], require_all: bool, jobs: usize, format: Format) -> Result<u8, String> {
    let langs = if langs.is_empty() { Vec::new() } else { parse_langs(langs)? };
    let opts = rulec::harness::Options { langs, require_all, jobs };
    let report = rulec::harness::run(dir, &opts)?;
    match format {
        Format::Json => outln!("{}", report.to_json()),
        Format::Text => {
            // A language's only pass is its runner; another pass is named beside it.
            let named = |lang: rulec::gen::Lang, via: &str| match via {
                "runner" => lang.name().to_string(),
                via => format!("{}, {via}", lang.name()),
            };
            for l in &report.left_out {
                outln!("left out {} ({}): {}", l.rule, l.lang.name(), l.reason);
            }
            for s in &report.skipped {
                let what = if require_all { "FAIL" } else { "not run" };
                outln!("{what} {} (ran: false): {}", named(s.lang, s.via), s.reason);
            }
            for r in &report.results {
                let lang = named(r.lang, r.via);
                match (r.ok, r.ran) {
                    (true, _) => outln!("ok {} ({lang}) {} vectors", r.rule, r.vectors),
                    (false, true) => outln!(
                        "FAIL {} ({lang}) disagrees with the reference evaluator: {}",
                        r.rule,
                        r.first_diff.as_ref().map(|d| d.to_string()).unwrap_or_default()
                    ),
                    (false, false) => {
                        outln!("FAIL {} ({lang}) could not be run: {}", r.rule, r.error.as_deref().unwrap_or(""))
                    }
                }
            }
        }
    }
    Ok(if report.ok(require_all) { 0 } else { 1 })
}

fn vectors(file: &Path, out: Option<&Path>) -> Result<u8, String> {
    let (_, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let p = checked.program.as_ref().expect("checked clean");
    let suite = rulec::vectors::build(p);
    match out {
        None => {
            for v in &suite.vectors {
                outln!("{}", v.line(p));
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let lines = |f: &dyn Fn(&rulec::vectors::Vector) -> String| -> String {
                suite.vectors.iter().map(|v| f(v) + "\n").collect()
            };
            let root = rulec::confine::Root::new(dir, "--out");
            let files = [
                (format!("{}.jsonl", p.ident()), lines(&|v| v.line(p))),
                (format!("{}.expected.jsonl", p.ident()), lines(&|v| v.expected(p))),
            ];
            for (name, _) in &files {
                root.inside(&dir.join(name)).map_err(|e| format!("{e}; nothing was written"))?;
            }
            for (name, text) in files {
                root.write(&dir.join(name), text.as_bytes())?;
            }
        }
    }
    Ok(0)
}

fn coverage(files: &[PathBuf], format: Format) -> Result<u8, String> {
    let mut incomplete = false;
    for file in rule_files(files)? {
        let (sources, checked) = match load_program(&file) {
            Ok(x) => x,
            Err(code) => return Ok(code),
        };
        let p = checked.program.as_ref().expect("checked clean");
        let suite = rulec::vectors::build(p);
        let shown = sources.get(checked.file).display.clone();
        incomplete |= suite.criteria.iter().any(|c| !c.missing.is_empty());
        match format {
            Format::Json => outln!("{}", suite.coverage_json(&shown)),
            Format::Text => {
                outln!("{shown}: {} vectors", suite.vectors.len());
                for c in &suite.criteria {
                    outln!("  {:<18} {}/{}", c.name, c.satisfied, c.total);
                    for (what, hint) in &c.missing {
                        outln!("    missing: {what} ({hint})");
                    }
                }
            }
        }
    }
    Ok(if incomplete { 1 } else { 0 })
}

fn explain(code: Option<&str>, all: bool, format: Format) -> Result<u8, String> {
    let entries: Vec<&codes::CodeInfo> =
        match (code, all) {
            (_, true) => codes::CODES.iter().collect(),
            (Some(c), false) => vec![codes::lookup(c)
                .ok_or_else(|| format!("`{c}` is not a rulec code; `rulec explain --all` lists them"))?],
            (None, false) => return Err("name a code (`rulec explain E101`) or pass --all".into()),
        };
    for e in entries {
        match format {
            Format::Json => {
                let mut obj = json!({"code": e.code, "severity": codes::severity_of(e.code).as_str(), "title": e.title, "when": e.when, "fix": e.fix,
                       "example": e.example, "related": e.related, "lang": "en"});
                // formats.md: `budget` appears only on E109, whose example needs `--budget 1`.
                if let Some(b) = e.budget {
                    obj["budget"] = json!(b);
                }
                outln!("{obj}");
            }
            Format::Text => {
                outln!("{}: {}\n", e.code, e.title);
                outln!("When: {}\n", e.when);
                outln!("Fix: {}\n", e.fix);
                match e.budget {
                    Some(b) => outln!("Example (reproduce with `rulec check --budget {b}`):"),
                    None => outln!("Example:"),
                }
                for l in e.example.lines() {
                    if l.is_empty() {
                        outln!();
                    } else {
                        outln!("    {l}");
                    }
                }
                if !e.related.is_empty() {
                    outln!("\nRelated: {}", e.related.join(", "));
                }
                outln!();
            }
        }
    }
    Ok(0)
}

// ---- the production loop: fixtures lint, replay, verify, adapter, diff

use rulec::production::{self, records::Fills, revision::Loaded};

/// A rule named as a file or `file@rev`, checked; its diagnostics printed when it has errors.
fn load_rule(spec: &str) -> Result<Loaded, u8> {
    let loaded = match production::revision::load(spec, &rulec::analysis::Options::default(), root().as_deref()) {
        Ok(l) => l,
        Err(e) => {
            errln!("error: {e}");
            return Err(2);
        }
    };
    if loaded.program().is_none() {
        err!("{}", render::text(&loaded.sources, &loaded.checked.diagnostics, use_color(Color::Auto)));
        errln!("error: {spec} does not check clean; fix it first");
        return Err(1);
    }
    Ok(loaded)
}

/// The version `--read-as` names, which must be the same rule.
fn load_read_as(spec: Option<&str>, rule: &rulec::sema::Program) -> Result<Option<Loaded>, u8> {
    let Some(spec) = spec else { return Ok(None) };
    let loaded = load_rule(spec)?;
    let p = loaded.program().expect("checked clean");
    if p.name != rule.name {
        errln!("error: --read-as {spec} is rule `{}`, not `{}`: it has to be the same rule", p.name, rule.name);
        return Err(2);
    }
    Ok(Some(loaded))
}

fn load_fills(rule: &rulec::sema::Program, manifest: Option<&Path>, fill: &[String]) -> Result<Fills, String> {
    let text = match manifest {
        Some(m) => Some(std::fs::read_to_string(m).map_err(|e| format!("cannot read {}: {e}", m.display()))?),
        None => None,
    };
    let shown = manifest.map(|m| m.display().to_string()).unwrap_or_default();
    Fills::load(rule, text.as_deref().map(|t| (shown.as_str(), t)), fill)
}

/// A fixtures file, opened. A file or a pipe (`<(zcat records.jsonl.gz)`) is read; a device
/// (`/dev/zero`), a folder or a socket is refused, as it has no end or no lines.
fn open_records(path: &Path) -> Result<std::io::BufReader<std::fs::File>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let kind = f.metadata().map_err(|e| format!("cannot read {}: {e}", path.display()))?.file_type();
    #[cfg(unix)]
    let pipe = std::os::unix::fs::FileTypeExt::is_fifo(&kind);
    #[cfg(not(unix))]
    let pipe = false;
    if !kind.is_file() && !pipe {
        let what = if kind.is_dir() { "a folder" } else { "a device or a socket" };
        return Err(format!("{} is {what}, not a file of records; name a JSON Lines file", path.display()));
    }
    Ok(std::io::BufReader::with_capacity(1 << 20, f))
}

/// A progress line on stderr, when it is a terminal.
struct TermProgress {
    start: std::time::Instant,
    on: bool,
}

impl TermProgress {
    fn new() -> TermProgress {
        TermProgress { start: std::time::Instant::now(), on: std::io::stderr().is_terminal() }
    }
}

impl production::Progress for TermProgress {
    fn tick(&mut self, done: usize) {
        if self.on {
            let secs = self.start.elapsed().as_millis().max(1);
            err!("\r{done} records, {} records/s", done as u128 * 1000 / secs);
        }
    }
    fn finish(&mut self, _: usize) {
        if self.on {
            err!("\r\x1b[K");
        }
    }
}

fn fixtures_lint(
    file: &Path,
    rule: &str,
    manifest: Option<&Path>,
    fill: &[String],
    read_as: Option<&str>,
    format: Format,
) -> Result<u8, String> {
    let loaded = match load_rule(rule) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let p = loaded.program().expect("checked clean");
    let read_as = match load_read_as(read_as, p) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let fills = load_fills(p, manifest, fill)?;
    let reader = production::records::Reader {
        rule: p,
        written_by: read_as.as_ref().and_then(Loaded::program),
        fills: &fills,
        fills_for: None,
    };
    let shown = file.display().to_string();
    let lint = production::lint::lint(&reader, &shown, open_records(file)?)?;
    match format {
        Format::Json => outln!("{}", lint.to_json()),
        Format::Text => output::out(format_args!("{}", lint.text())),
    }
    Ok(if lint.problems.is_empty() { 0 } else { 1 })
}

/// Print a report; exit 0 when everything compared matched, 1 otherwise (nothing compared included).
fn print_report(report: &production::report::Report, format: Format) -> u8 {
    match format {
        Format::Json => outln!("{}", report.to_json()),
        Format::Text => output::out(format_args!("{}", report.text())),
    }
    if !report.compared_anything() {
        errln!("error: nothing was compared: {}", report.why_nothing());
        return 1;
    }
    if report.all_matched() {
        0
    } else {
        1
    }
}

fn replay(rule: &str, args: &RecordsArgs, format: Format) -> Result<u8, String> {
    let loaded = match load_rule(rule) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let p = loaded.program().expect("checked clean");
    let read_as = match load_read_as(args.read_as.as_deref(), p) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let fills = load_fills(p, args.manifest.as_deref(), &args.fill)?;
    let reader = production::records::Reader {
        rule: p,
        written_by: read_as.as_ref().and_then(Loaded::program),
        fills: &fills,
        fills_for: None,
    };
    let shown = args.fixtures.display().to_string();
    let fast = loaded.checked.analysis.as_ref().and_then(|a| production::fast::Compiled::checked(p, a));
    let report = production::replay::replay_by(
        &reader,
        fast.as_ref(),
        &shown,
        open_records(&args.fixtures)?,
        &mut TermProgress::new(),
    )?;
    Ok(print_report(&report, format))
}

/// `10s`, `500ms`, `2m`.
fn parse_duration(t: &str) -> Result<std::time::Duration, String> {
    let (n, unit) = t.find(|c: char| !c.is_ascii_digit()).map_or((t, "s"), |i| t.split_at(i));
    let n: u64 = n.parse().map_err(|_| format!("--timeout {t}: write it as 10s or 500ms"))?;
    match unit {
        "ms" => Ok(std::time::Duration::from_millis(n)),
        "s" => Ok(std::time::Duration::from_secs(n)),
        "m" => Ok(std::time::Duration::from_secs(n * 60)),
        _ => Err(format!("--timeout {t}: write it as 10s or 500ms")),
    }
}

fn verify(
    rule: &str,
    timeout: &str,
    adapter: &[String],
    format: Format,
    reach: production::adapter::Reach,
) -> Result<u8, String> {
    let timeout = parse_duration(timeout)?;
    let loaded = match load_rule(rule) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let p = loaded.program().expect("checked clean");
    match production::adapter::verify(p, adapter, timeout, reach) {
        Ok(report) => Ok(print_report(&report, format)),
        Err(f) => {
            errln!("error: {f}");
            Ok(2)
        }
    }
}

fn adapter_template(rule: &str, t: TemplateKind) -> Result<u8, String> {
    let loaded = match load_rule(rule) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let t = match t {
        TemplateKind::Python => production::adapter::Template::Python,
        TemplateKind::Go => production::adapter::Template::Go,
        TemplateKind::ConnectPython => {
            // The Connect wire is the generated service's: spelled from the plan.
            let Some(unit) = rulec::gen::Unit::of(&loaded.checked, &loaded.sources) else { return Ok(1) };
            output::out(format_args!("{}", rulec::gen::serve::connect_adapter(&unit)));
            return Ok(0);
        }
    };
    output::out(format_args!("{}", production::adapter::template(loaded.program().expect("checked clean"), t)));
    Ok(0)
}

fn diff_records(old: &str, new: &str, args: &RecordsArgs, format: Format) -> Result<u8, String> {
    let (lo, ln) = match (load_rule(old), load_rule(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(c), _) | (_, Err(c)) => return Ok(c),
    };
    let (po, pn) = (lo.program().expect("checked clean"), ln.program().expect("checked clean"));
    if po.name != pn.name {
        errln!("error: {old} is rule `{}` and {new} is rule `{}`: diff compares one rule", po.name, pn.name);
        return Ok(2);
    }
    let read_as = match load_read_as(args.read_as.as_deref(), pn) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let fills = load_fills(pn, args.manifest.as_deref(), &args.fill)?;
    let shown = args.fixtures.display().to_string();
    let report = production::diff::diff(
        &production::diff::Versions { old: po, new: pn, old_shown: old },
        &production::diff::Reading { written_by: read_as.as_ref().and_then(Loaded::program), fills: &fills },
        &shown,
        open_records(&args.fixtures)?,
        &mut TermProgress::new(),
    )?;
    Ok(print_report(&report, format))
}

fn diff_region(old: &str, new: &str, budget: u64, format: Format) -> Result<u8, String> {
    let (lo, ln) = match (load_rule(old), load_rule(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(c), _) | (_, Err(c)) => return Ok(c),
    };
    let (po, pn) = (lo.program().expect("checked clean"), ln.program().expect("checked clean"));
    let region = production::region::region(po, pn, old, new, &production::region::Options { budget })?;
    match format {
        Format::Json => outln!("{}", region.to_json()),
        Format::Text => output::out(format_args!("{}", region.text())),
    }
    Ok(if region.changes.is_empty() && region.total() { 0 } else { 1 })
}

/// The command line of this run with `flag` left out, as a user types it again: what a lock
/// error names, so that following it regenerates exactly what this run held to the lock (the
/// same rules, languages, `--out` and `--no-servers`), and the next run passes.
fn this_run_without(flag: &str) -> String {
    let quoted = |a: String| {
        let plain = !a.is_empty() && a.chars().all(|c| c.is_alphanumeric() || "-_./=,:+@%".contains(c));
        if plain {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    let args = std::env::args().skip(1).filter(|a| a != flag).map(quoted);
    std::iter::once("rulec".to_string()).chain(args).collect::<Vec<_>>().join(" ")
}
