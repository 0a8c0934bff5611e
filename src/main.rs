//! The `rulec` command line: argument parsing and printing only; the work is the library's.

use clap::{Parser, Subcommand, ValueEnum};
use rulec::diag::{codes, render, Diagnostic};
use rulec::eval::{self, wire};
use rulec::{Checked, Sources};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rulec",
    version,
    about = "Check .rule decision tables and compile them to code",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// `check` also speaks SARIF, for code scanning.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Resolve, type-check and prove the rules, and run every `expect` line.
    Check {
        /// Rule files, or folders to search for *.rule files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: CheckFormat,
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
        /// How much work one table's analysis may do before it stops (E109).
        #[arg(long, default_value_t = rulec::analysis::Options::default().budget)]
        budget: u64,
    },
    /// Print rules in the canonical form (or, with --check, list the ones that are not).
    Fmt {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write nothing; exit 1 when a file would change.
        #[arg(long)]
        check: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Evaluate a rule on inputs given in the wire form; print one record per call.
    Eval {
        file: PathBuf,
        /// A JSON object of inputs, or `-` to read JSON Lines from standard input.
        #[arg(long = "in", value_name = "JSON")]
        input: String,
        /// A tag written into every record.
        #[arg(long, default_value = "")]
        tag: String,
    },
    /// Generate code for rules: every language's module and runner, the vectors, rulec.lock.
    Gen {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        /// Languages, comma-separated (default: all).
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
        /// Write nothing; exit 1 when a file on disk differs from a fresh generation or is missing.
        #[arg(long)]
        check: bool,
        /// Exit 1 when a fresh generation differs from rulec.lock (the source or the output).
        #[arg(long)]
        locked: bool,
        /// The lock file (default: rulec.lock in the current folder).
        #[arg(long)]
        lock: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Build each generated language's runner and hold it to the vectors, byte for byte.
    Test {
        dir: PathBuf,
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// How to call the generated code, per language, without reading it (formats.md `api`).
    Api {
        file: PathBuf,
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
    },
    /// The JSON Schema of a rule's wire: the `in` a call sends, the `out` it gets back.
    Schema { file: PathBuf },
    /// Write the boundary suite of a rule: `<alias>.jsonl` and `<alias>.expected.jsonl` under --out, or the vectors on stdout.
    Vectors {
        file: PathBuf,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Report what the boundary suite covers, criterion by criterion.
    Coverage {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the certificate of a rule that checks clean: the evidence behind what check proved.
    Certificate { file: PathBuf },
    /// Check a fixtures file against a rule: every problem, by kind and field (formats.md).
    Fixtures {
        #[command(subcommand)]
        command: FixturesCommand,
    },
    /// Run every record of a fixtures file through the rule: what matches, and what moved.
    Replay {
        /// The rule (a file, or `file@rev` for a git revision).
        rule: String,
        #[command(flatten)]
        records: RecordsArgs,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Hold the rule's boundary suite to a legacy implementation run as an adapter.
    Verify {
        rule: String,
        /// How long to wait for one answer (`10s`, `500ms`).
        #[arg(long, default_value = "10s")]
        timeout: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// The command that starts the adapter, and its arguments (last on the line).
        #[arg(long, required = true, num_args = 1.., allow_hyphen_values = true, value_name = "CMD")]
        adapter: Vec<String>,
    },
    /// Print an adapter template for `verify`, to fill in with a call to the legacy code.
    Adapter {
        rule: String,
        #[arg(long, value_enum)]
        template: TemplateKind,
    },
    /// Compare two versions of a rule: over records (--fixtures), or over every input.
    Diff {
        /// The old version (a file, or `file@rev`: `rules/x.rule@HEAD~1`).
        old: String,
        /// The new version.
        new: String,
        /// Compare over these records instead of over every input.
        #[arg(long)]
        fixtures: Option<PathBuf>,
        #[arg(long)]
        manifest: Option<PathBuf>,
        #[arg(long = "fill", value_name = "NAME=VALUE")]
        fill: Vec<String>,
        #[arg(long = "read-as", value_name = "RULE[@REV]")]
        read_as: Option<String>,
        /// How much work the region analysis may do before it stops (`over_budget`).
        #[arg(long, default_value_t = rulec::production::region::Options::default().budget)]
        budget: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Explain a diagnostic code.
    Explain {
        code: Option<String>,
        /// Every code, one after another.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

#[derive(Subcommand)]
enum FixturesCommand {
    /// Report every problem of a fixtures file: kind, field, count, the first record.
    Lint {
        file: PathBuf,
        /// The rule the records are read for.
        #[arg(long)]
        rule: String,
        #[arg(long)]
        manifest: Option<PathBuf>,
        #[arg(long = "fill", value_name = "NAME=VALUE")]
        fill: Vec<String>,
        #[arg(long = "read-as", value_name = "RULE[@REV]")]
        read_as: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

/// Where records come from and how they are read.
#[derive(clap::Args)]
struct RecordsArgs {
    #[arg(long)]
    fixtures: PathBuf,
    /// The replay manifest: the defaults a missing field is filled with.
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// One default, over the manifest's (`--fill weight=5`).
    #[arg(long = "fill", value_name = "NAME=VALUE")]
    fill: Vec<String>,
    /// Read every number at the steps and units of this version (`rules/x.rule@v1`).
    #[arg(long = "read-as", value_name = "RULE[@REV]")]
    read_as: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TemplateKind {
    Python,
    Go,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { paths, format, color, budget } => {
            check(&paths, format, color, &rulec::analysis::Options { budget })
        }
        Command::Fmt { paths, check, format } => fmt(&paths, check, format),
        Command::Eval { file, input, tag } => eval_cmd(&file, &input, &tag),
        Command::Gen { paths, out, lang, check, locked, lock, format } => {
            gen(&paths, &out, &lang, check, locked, lock.as_deref(), format)
        }
        Command::Test { dir, lang, format } => test(&dir, &lang, format),
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
        Command::Explain { code, all, format } => explain(code.as_deref(), all, format),
        Command::Fixtures { command: FixturesCommand::Lint { file, rule, manifest, fill, read_as, format } } => {
            fixtures_lint(&file, &rule, manifest.as_deref(), &fill, read_as.as_deref(), format)
        }
        Command::Replay { rule, records, format } => replay(&rule, &records, format),
        Command::Verify { rule, timeout, format, adapter } => verify(&rule, &timeout, &adapter, format),
        Command::Adapter { rule, template } => adapter_template(&rule, template),
        Command::Diff { old, new, fixtures, manifest, fill, read_as, budget, format } => match fixtures {
            Some(f) => {
                let records = RecordsArgs { fixtures: f, manifest, fill, read_as };
                diff_records(&old, &new, &records, format)
            }
            None => diff_region(&old, &new, budget, format),
        },
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
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

fn eval_cmd(file: &Path, input: &str, tag: &str) -> Result<u8, String> {
    let (_, checked) = match load_program(file) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let p = checked.program.as_ref().expect("checked clean");
    let mut out = std::io::stdout().lock();
    let mut run = |line: &str, at: usize| -> Result<(), String> {
        let obj: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("input {at} is not JSON: {e}"))?;
        let printed = match wire::read_inputs(p, &obj) {
            Err(r) => wire::refusal_line(&r),
            Ok(inputs) => match eval::evaluate(p, &inputs) {
                Ok(o) => wire::record(p, &inputs, &o, tag),
                Err(e) => wire::contradiction_line(&e),
            },
        };
        writeln!(out, "{printed}").map_err(|e| e.to_string())
    };
    if input == "-" {
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.map_err(|e| e.to_string())?;
            if !line.trim().is_empty() {
                run(&line, i + 1)?;
            }
        }
    } else {
        run(input, 1)?;
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
) -> Result<u8, String> {
    use rulec::lock::{self, Artifact, Lock, LockedRule};
    let langs = parse_langs(langs)?;
    let lock_path = lock.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(lock::FILE_NAME));
    let lock_dir = lock_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let mut sources = Sources::new();
    let mut files = Vec::new();
    let mut fresh = Vec::new();
    let mut failed = Vec::new();
    for path in rule_files(paths)? {
        let checked = rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default())?;
        if checked.has_errors() {
            failed.extend(checked.diagnostics);
            continue;
        }
        // An enums file has no code of its own: the rules that use it carry its enums.
        let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else { continue };
        let outputs = rulec::gen::outputs(&unit, &langs);
        let artifacts = outputs
            .iter()
            .map(|f| Artifact::new(f.path.split('/').next().unwrap_or(""), &out.join(&f.path), &f.text, &lock_dir))
            .collect();
        fresh.push(LockedRule::fresh(&path, &unit, artifacts, &lock_dir));
        files.extend(outputs);
    }
    if !failed.is_empty() {
        eprint!("{}", render::text(&sources, &failed, use_color(Color::Auto)));
        eprintln!("error: rules with errors generate nothing");
        return Ok(1);
    }
    if locked {
        let existing = Lock::read(&lock_path)?;
        let mut drift = existing.drift(&fresh);
        // What is on disk must be what the lock says, too: a hand edit is drift.
        for r in &existing.rules {
            for a in &r.artifacts {
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
                std::fs::write(&target, &f.text).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
                written.push(shown);
            }
        }
    }
    if !check_only && !locked {
        let base = if lock_path.exists() { Lock::read(&lock_path)? } else { Lock::new(Vec::new()) };
        let text = base.updated(&fresh).to_toml();
        if std::fs::read_to_string(&lock_path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&lock_path, text).map_err(|e| format!("cannot write {}: {e}", lock_path.display()))?;
        }
    }
    match format {
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

fn test(dir: &Path, langs: &[String], format: Format) -> Result<u8, String> {
    let langs = if langs.is_empty() { Vec::new() } else { parse_langs(langs)? };
    let report = rulec::harness::run(dir, &langs)?;
    match format {
        Format::Json => println!("{}", report.to_json()),
        Format::Text => {
            for s in &report.skipped {
                println!("skipped {}: {}", s.lang.name(), s.reason);
            }
            for r in &report.results {
                let lang = r.lang.name();
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
    Ok(if report.ok() { 0 } else { 1 })
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

// ---- the production loop: fixtures lint, replay, verify, adapter, diff

use rulec::production::{self, records::Fills, revision::Loaded};

/// A rule named as a file or `file@rev`, checked; its diagnostics printed when it has errors.
fn load_rule(spec: &str) -> Result<Loaded, u8> {
    let loaded = match production::revision::load(spec, &rulec::analysis::Options::default()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(2);
        }
    };
    if loaded.program().is_none() {
        eprint!("{}", render::text(&loaded.sources, &loaded.checked.diagnostics, use_color(Color::Auto)));
        eprintln!("error: {spec} does not check clean; fix it first");
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
        eprintln!("error: --read-as {spec} is rule `{}`, not `{}`: it has to be the same rule", p.name, rule.name);
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

fn open_records(path: &Path) -> Result<std::io::BufReader<std::fs::File>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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
            eprint!("\r{done} records, {} records/s", done as u128 * 1000 / secs);
        }
    }
    fn finish(&mut self, _: usize) {
        if self.on {
            eprint!("\r\x1b[K");
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
        Format::Json => println!("{}", lint.to_json()),
        Format::Text => print!("{}", lint.text()),
    }
    Ok(if lint.problems.is_empty() { 0 } else { 1 })
}

/// Print a report; exit 0 when everything compared matched, 1 otherwise (nothing compared included).
fn print_report(report: &production::report::Report, format: Format) -> u8 {
    match format {
        Format::Json => println!("{}", report.to_json()),
        Format::Text => print!("{}", report.text()),
    }
    if !report.compared_anything() {
        eprintln!("error: nothing was compared: every record was excluded");
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
    let report = production::replay::replay(
        &reader,
        &shown,
        open_records(&args.fixtures)?,
        &production::replay::Options::default(),
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

fn verify(rule: &str, timeout: &str, adapter: &[String], format: Format) -> Result<u8, String> {
    let timeout = parse_duration(timeout)?;
    let loaded = match load_rule(rule) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let p = loaded.program().expect("checked clean");
    match production::adapter::verify(p, adapter, timeout) {
        Ok(report) => Ok(print_report(&report, format)),
        Err(f) => {
            eprintln!("error: {f}");
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
    };
    print!("{}", production::adapter::template(loaded.program().expect("checked clean"), t));
    Ok(0)
}

fn diff_records(old: &str, new: &str, args: &RecordsArgs, format: Format) -> Result<u8, String> {
    let (lo, ln) = match (load_rule(old), load_rule(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(c), _) | (_, Err(c)) => return Ok(c),
    };
    let (po, pn) = (lo.program().expect("checked clean"), ln.program().expect("checked clean"));
    if po.name != pn.name {
        eprintln!("error: {old} is rule `{}` and {new} is rule `{}`: diff compares one rule", po.name, pn.name);
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
        Format::Json => println!("{}", region.to_json()),
        Format::Text => print!("{}", region.text()),
    }
    Ok(if region.changes.is_empty() && region.total() { 0 } else { 1 })
}
