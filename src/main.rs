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
        format: Format,
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
    /// Print the certificate of a rule that checks clean: the evidence behind what check proved.
    Certificate { file: PathBuf },
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { paths, format, color, budget } => {
            check(&paths, format, color, &rulec::analysis::Options { budget })
        }
        Command::Fmt { paths, check, format } => fmt(&paths, check, format),
        Command::Eval { file, input, tag } => eval_cmd(&file, &input, &tag),
        Command::Certificate { file } => certificate_cmd(&file),
        Command::Explain { code, all, format } => explain(code.as_deref(), all, format),
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

fn check(paths: &[PathBuf], format: Format, color: Color, opts: &rulec::analysis::Options) -> Result<u8, String> {
    let files = rule_files(paths)?;
    let mut sources = Sources::new();
    let mut all: Vec<Diagnostic> = Vec::new();
    for f in &files {
        let checked = rulec::check_path(&mut sources, f, opts)?;
        all.extend(checked.diagnostics);
    }
    let findings = all.iter().filter(|d| d.severity != rulec::diag::Severity::Note).count();
    match format {
        Format::Json => {
            let mut out = std::io::stdout().lock();
            for d in &all {
                writeln!(out, "{}", render::json(&sources, d)).map_err(|e| e.to_string())?;
            }
        }
        Format::Text => {
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
            Format::Json => println!(
                "{}",
                json!({"code": e.code, "severity": codes::severity_of(e.code).as_str(), "title": e.title, "when": e.when, "fix": e.fix,
                       "example": e.example, "related": e.related, "lang": "en"})
            ),
            Format::Text => {
                println!("{}: {}\n", e.code, e.title);
                println!("When: {}\n", e.when);
                println!("Fix: {}\n", e.fix);
                println!("Example:");
                for l in e.example.lines() {
                    println!("    {l}");
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
