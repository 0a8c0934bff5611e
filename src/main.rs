//! The `rulec` command line: argument parsing and printing only; the work is the library's.

use clap::Parser;
use rulec::cli::{BuildArgs, CheckFormat, Cli, Color, Command, DocAudience, DocFormat, Format};
use rulec::diag::{codes, render, Diagnostic};
use rulec::eval;
use rulec::{Checked, Sources};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Mcp => rulec::mcp::serve(&run),
        command => run(command),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Run one command: its exit code, or the error that makes it exit 2. `rulec mcp` calls
/// this for every tool call, with the output captured.
fn run(command: Command) -> Result<u8, String> {
    match command {
        Command::Check { paths, format, color, budget } => {
            check(&paths, format, color, &rulec::analysis::Options { budget })
        }
        Command::Fmt { paths, check, format } => fmt(&paths, check, format),
        Command::Eval { file, input, tag } => eval_cmd(&file, &input, &tag),
        Command::Gen { paths, out, lang, check, locked, lock, format, build } => {
            gen(&paths, &out, &lang, check, locked, lock.as_deref(), format, &build)
        }
        Command::Test { dir, lang, require_all, jobs, format } => test(&dir, &lang, require_all, jobs, format),
        Command::Api { file, lang } => api(&file, &lang),
        Command::Schema { file } => match load_program(&file) {
            Ok((_, checked)) => {
                println!("{}", rulec::schema::schema(checked.program.as_ref().expect("checked clean")));
                Ok(0)
            }
            Err(code) => Ok(code),
        },
        Command::Vectors { file, out } => vectors(&file, out.as_deref()),
        Command::Coverage { files, format } => coverage(&files, format),
        Command::Certificate { file } => certificate_cmd(&file),
        Command::Graph { file } => graph_cmd(&file),
        Command::Doc { file, out, audience, format } => doc_cmd(&file, out.as_deref(), audience, format),
        Command::Explain { code, all, format } => explain(code.as_deref(), all, format),
        Command::Mcp => Err("rulec mcp is the server itself; it is not one of its tools".into()),
    }
}

/// Every `.rule` file named, or found below a named folder, in a stable order.
fn rule_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
                .sort_by_file_name()
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rule"))
                .map(|e| e.into_path())
                .collect();
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
    let mut sources = Sources::new();
    let mut all: Vec<Diagnostic> = Vec::new();
    for f in &files {
        let checked = rulec::check_path(&mut sources, f, opts)?;
        all.extend(checked.diagnostics);
    }
    let findings = all.iter().filter(|d| d.severity != rulec::diag::Severity::Note).count();
    match format {
        CheckFormat::Sarif => println!("{}", render::sarif(&sources, &all)),
        CheckFormat::Json => {
            let mut out = std::io::stdout().lock();
            for d in &all {
                writeln!(out, "{}", render::json(&sources, d)).map_err(|e| e.to_string())?;
            }
        }
        CheckFormat::Text => {
            eprint!("{}", render::text(&sources, &all, use_color(color)));
            let errors = all.iter().filter(|d| d.is_error()).count();
            let warnings = findings - errors;
            if findings == 0 {
                eprintln!("checked {} file{}: clean", files.len(), plural(files.len()));
            } else {
                eprintln!(
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

fn fmt(paths: &[PathBuf], check_only: bool, format: Format) -> Result<u8, String> {
    let files = rule_files(paths)?;
    let mut unformatted = Vec::new();
    let mut formatted = Vec::new();
    let mut sources = Sources::new();
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
        eprint!("{}", render::text(&sources, &broken, use_color(Color::Auto)));
    }
    match format {
        Format::Json => println!("{}", json!({"unformatted": unformatted, "formatted": formatted})),
        Format::Text => {
            for f in &unformatted {
                println!("would reformat {f}");
            }
            for f in &formatted {
                println!("formatted {f}");
            }
        }
    }
    Ok(if !broken.is_empty() || !unformatted.is_empty() { 1 } else { 0 })
}

/// Check a rule for a command that needs its program; print the diagnostics if it has errors.
fn load_program(path: &Path) -> Result<(Sources, Checked), u8> {
    let mut sources = Sources::new();
    let checked = match rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(2);
        }
    };
    if checked.has_errors() || checked.program.is_none() {
        eprint!("{}", render::text(&sources, &checked.diagnostics, use_color(Color::Auto)));
        eprintln!("error: {} does not check clean; fix it first", path.display());
        return Err(1);
    }
    Ok((sources, checked))
}

fn certificate_cmd(file: &Path) -> Result<u8, String> {
    let (sources, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    match rulec::certificate::certificate(&sources, &checked) {
        Some(cert) => {
            println!("{cert}");
            Ok(0)
        }
        None => {
            eprintln!("error: {} was not proved in full; no certificate", file.display());
            Ok(1)
        }
    }
}

fn graph_cmd(file: &Path) -> Result<u8, String> {
    let mut sources = Sources::new();
    let checked = rulec::check_path(&mut sources, file, &rulec::analysis::Options::default())?;
    let Some(graph) = rulec::graph::of_checked(&sources, &checked) else {
        eprint!("{}", render::text(&sources, &checked.diagnostics, use_color(Color::Auto)));
        eprintln!(
            "error: {} does not resolve its names and types, so there is nothing to draw an edge between; fix the errors above",
            file.display()
        );
        return Ok(1);
    };
    if checked.has_errors() {
        let codes: Vec<&str> = checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
        eprintln!(
            "note: {} does not check clean ({}); its graph needs only names and types",
            file.display(),
            codes.join(", ")
        );
    }
    println!("{graph}");
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
        None => print!("{text}"),
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("wrote {}", path.display());
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
    let mut out = std::io::stdout().lock();
    if input == "-" {
        // Every line is answered, one that is not UTF-8 or not JSON with a refusal.
        for line in std::io::stdin().lock().split(b'\n') {
            let answer = match String::from_utf8(line.map_err(|e| e.to_string())?) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => eval::answer(p, &text, tag),
                // Bytes that are not UTF-8 are not JSON either: the door's refusal of one.
                Err(_) => eval::answer(p, "", tag),
            };
            writeln!(out, "{answer}").map_err(|e| e.to_string())?;
        }
    } else {
        // One call named on the command line is an argument: one that is not JSON is refused.
        serde_json::from_str::<serde_json::Value>(input).map_err(|e| format!("--in is not JSON: {e}"))?;
        writeln!(out, "{}", eval::answer(p, input, tag)).map_err(|e| e.to_string())?;
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
fn gen(
    paths: &[PathBuf],
    out: &Path,
    langs: &[String],
    check_only: bool,
    locked: bool,
    lock: Option<&Path>,
    format: Format,
    build: &BuildArgs,
) -> Result<u8, String> {
    use rulec::lock::{self, Artifact, Lock, LockedRule};
    let langs = parse_langs(langs)?;
    let lock_path = lock.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(lock::FILE_NAME));
    let lock_dir = lock_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let mut sources = Sources::new();
    let mut files = Vec::new();
    let mut writers = Vec::new();
    let mut fresh = Vec::new();
    let mut failed = Vec::new();
    // For a build system: the enums files named, and every file a rule read.
    let (mut enums_named, mut read) = (Vec::new(), Vec::new());
    let mut renamed = Vec::new();
    for path in rule_files(paths)? {
        let checked = rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default())?;
        if checked.has_errors() {
            failed.extend(checked.diagnostics);
            continue;
        }
        // An enums file has no code of its own: the rules that use it carry its enums.
        let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else {
            enums_named.push(path);
            continue;
        };
        read.extend(checked.files_read(&sources));
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if stem != unit.program.ident() {
            renamed.push(format!("{} holds the rule `{}`", path.display(), unit.program.ident()));
        }
        let outputs = rulec::gen::outputs(&unit, &langs);
        let artifacts = outputs
            .iter()
            .map(|f| Artifact::new(f.path.split('/').next().unwrap_or(""), &out.join(&f.path), &f.text, &lock_dir))
            .collect();
        fresh.push(LockedRule::fresh(&path, &unit, artifacts, &lock_dir));
        writers.extend(outputs.iter().map(|f| (path.display().to_string(), f.clone())));
        files.extend(outputs);
    }
    let clashes = rulec::gen::clashes(&writers);
    if !clashes.is_empty() {
        for c in &clashes {
            eprintln!("error: {c}");
        }
        eprintln!("error: nothing was written");
        return Ok(1);
    }
    if !failed.is_empty() {
        eprint!("{}", render::text(&sources, &failed, use_color(Color::Auto)));
        eprintln!("error: rules with errors generate nothing");
        return Ok(1);
    }
    if build.unused_inputs_list.is_some() {
        // The build named every enums file it declared: reading another would be an input
        // it does not know of (a sandbox would refuse it; a plain run would hide it).
        let here = Path::new(".");
        let named: Vec<String> = rule_files(paths)?.iter().map(|p| lock::relative(p, here)).collect();
        let mut unknown: Vec<String> =
            read.iter().map(|p| lock::relative(p, here)).filter(|p| !named.contains(p)).collect();
        unknown.sort();
        unknown.dedup();
        if !unknown.is_empty() {
            for u in &unknown {
                eprintln!("error: a rule uses {u}, which is not named on the command line");
            }
            eprintln!("error: name every enums file the rules use (with Bazel: in `enums` of the rulec_library)");
            return Ok(2);
        }
    }
    if !build.only.is_empty() {
        let problems = undeclared(&files, &build.only, &build.written_elsewhere, out);
        if !problems.is_empty() {
            for p in &problems {
                eprintln!("error: {p}");
            }
            for r in &renamed {
                eprintln!("note: {r}: outputs named after a rule file's name need the file named after the rule");
            }
            eprintln!("error: the files declared with --only and --written-elsewhere are not what rulec generates");
            return Ok(2);
        }
        files.retain(|f| build.only.contains(&f.path));
    }
    if locked {
        let existing = Lock::read(&lock_path)?;
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
                    Err(_) => drift.push(format!("{}: locked, but missing on disk", a.path)),
                }
            }
        }
        drift.sort();
        drift.dedup();
        if !drift.is_empty() {
            for d in &drift {
                eprintln!("error: {d}");
            }
            eprintln!(
                "error: the generation differs from {}; run rulec gen without --locked to update it",
                lock_path.display()
            );
            return Ok(1);
        }
    }
    let (mut written, mut stale, mut missing) = (Vec::new(), Vec::new(), Vec::new());
    for f in &files {
        let target = out.join(&f.path);
        let shown = target.to_string_lossy().replace('\\', "/");
        match std::fs::read(&target) {
            Ok(bytes) if bytes == f.text.as_bytes() => {}
            Ok(_) if check_only => stale.push(shown),
            Err(_) if check_only => missing.push(shown),
            _ => {
                if let Some(dir) = target.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                // Several runs of one folder at once (make -j) write the shared files too.
                lock::write_whole(&target, f.text.as_bytes())?;
                written.push(shown);
            }
        }
    }
    if !check_only && !locked && !build.no_lock {
        lock::update_file(&lock_path, &fresh)?;
    }
    if stale.is_empty() && missing.is_empty() {
        write_build_files(build, &read, &enums_named)?;
    }
    match format {
        _ if build.quiet && stale.is_empty() && missing.is_empty() => {}
        Format::Json => println!("{}", json!({"written": written, "stale": stale, "missing": missing})),
        Format::Text => {
            for f in &written {
                println!("wrote {f}");
            }
            for f in &stale {
                println!("stale {f}");
            }
            for f in &missing {
                println!("missing {f}");
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
    println!("{}", rulec::gen::api(&unit, &langs));
    Ok(0)
}

fn test(dir: &Path, langs: &[String], require_all: bool, jobs: usize, format: Format) -> Result<u8, String> {
    let langs = if langs.is_empty() { Vec::new() } else { parse_langs(langs)? };
    let opts = rulec::harness::Options { langs, require_all, jobs };
    let report = rulec::harness::run(dir, &opts)?;
    match format {
        Format::Json => println!("{}", report.to_json()),
        Format::Text => {
            for s in &report.skipped {
                let what = if require_all { "FAIL" } else { "not run" };
                let via = if s.via == "runner" { String::new() } else { format!(", {}", s.via) };
                println!("{what} {}{via} (ran: false): {}", s.lang.name(), s.reason);
            }
            for r in &report.results {
                let lang =
                    if r.via == "runner" { r.lang.name().to_string() } else { format!("{}, {}", r.lang.name(), r.via) };
                match (r.ok, r.ran) {
                    (true, _) => println!("ok {} ({lang}) {} vectors", r.rule, r.vectors),
                    (false, true) => println!(
                        "FAIL {} ({lang}) disagrees with the reference evaluator: {}",
                        r.rule,
                        r.first_diff.as_ref().map(|d| d.to_string()).unwrap_or_default()
                    ),
                    (false, false) => {
                        println!("FAIL {} ({lang}) could not be run: {}", r.rule, r.error.as_deref().unwrap_or(""))
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
            let mut o = std::io::stdout().lock();
            for v in &suite.vectors {
                writeln!(o, "{}", v.line(p)).map_err(|e| e.to_string())?;
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let lines = |f: &dyn Fn(&rulec::vectors::Vector) -> String| -> String {
                suite.vectors.iter().map(|v| f(v) + "\n").collect()
            };
            for (name, text) in [
                (format!("{}.jsonl", p.ident()), lines(&|v| v.line(p))),
                (format!("{}.expected.jsonl", p.ident()), lines(&|v| v.expected(p))),
            ] {
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
            Format::Json => println!("{}", suite.coverage_json(&shown)),
            Format::Text => {
                println!("{shown}: {} vectors", suite.vectors.len());
                for c in &suite.criteria {
                    println!("  {:<18} {}/{}", c.name, c.satisfied, c.total);
                    for (what, hint) in &c.missing {
                        println!("    missing: {what} ({hint})");
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
                println!("{obj}");
            }
            Format::Text => {
                println!("{}: {}\n", e.code, e.title);
                println!("When: {}\n", e.when);
                println!("Fix: {}\n", e.fix);
                match e.budget {
                    Some(b) => println!("Example (reproduce with `rulec check --budget {b}`):"),
                    None => println!("Example:"),
                }
                for l in e.example.lines() {
                    if l.is_empty() {
                        println!();
                    } else {
                        println!("    {l}");
                    }
                }
                if !e.related.is_empty() {
                    println!("\nRelated: {}", e.related.join(", "));
                }
                println!();
            }
        }
    }
    Ok(0)
}
