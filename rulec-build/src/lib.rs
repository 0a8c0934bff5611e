//! `rulec-build`: check `.rule` files and generate their Rust from a build script, the way
//! prost-build does for `.proto` files (docs/build-integration.md).
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), rulec_build::Error> {
//!     rulec_build::Builder::new()
//!         .rules_dir("rules") // every *.rule below it
//!         .compile() // an error prints every diagnostic, rendered file:line:col
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs
//! pub mod parcel_rate {
//!     include!(concat!(env!("OUT_DIR"), "/parcel_rate.rs"));
//! }
//! ```
//!
//! An enums file's enums are its own module, `<alias>.rs` in OUT_DIR beside the rules', which
//! each rule's module names as `super::<alias>::…`: include it beside them, once.
//!
//! ```ignore
//! pub mod tiers {
//!     include!(concat!(env!("OUT_DIR"), "/tiers.rs"));
//! }
//! pub mod member_discount {
//!     include!(concat!(env!("OUT_DIR"), "/member_discount.rs")); // pub use super::tiers::Tier;
//! }
//! ```
//!
//! [`Builder::compile`] writes `<alias>.rs` into OUT_DIR for every rule, and for every enums
//! file a rule reads (written once, however many rules read it), prints
//! `cargo:rerun-if-changed=` for every rule and enums file it read and for nothing else, turns
//! warnings into `cargo:warning=` lines, and fails with the diagnostics rendered as
//! `rulec check` renders them when a rule does not check clean. With a `rulec.lock` at the
//! workspace root it also fails when what it generates differs from the lock.

// A build script is a `main`: the example shows one whole.
#![allow(clippy::needless_doctest_main)]

use rulec::diag::{render, Diagnostic, Severity};
use rulec::gen;
use rulec::generate::Placed;
use rulec::lock::{self, Lock};
use rulec::Sources;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use rulec::gen::Lang;

/// Why [`Builder::compile`] failed. Its `Display` (and its `Debug`, so that `unwrap()` and
/// `main() -> Result` print it readably) is the text a person acts on.
#[non_exhaustive]
pub enum Error {
    /// A rule does not check clean: the diagnostics of every such rule, rendered as
    /// `rulec check` renders them (`error[E101]: …`, `--> rules/x.rule:12:5`, the line, a caret).
    Check { rendered: String },
    /// What the build generates differs from `rulec.lock`: one line per file, naming it and
    /// what changed.
    Locked { lock_file: PathBuf, drift: Vec<String> },
    /// Anything else: a file that cannot be read or written, a bad pattern, no OUT_DIR.
    Other(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Check { rendered } => f.write_str(rendered.trim_end()),
            Error::Locked { lock_file, drift } => {
                for d in drift {
                    writeln!(f, "error: {d}")?;
                }
                write!(
                    f,
                    "error: the generation differs from {}; run `rulec gen` to update it, or pass .locked(false)",
                    lock_file.display()
                )
            }
            Error::Other(msg) => write!(f, "error: {msg}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

enum Source {
    /// Every `*.rule` below a folder.
    Dir(PathBuf),
    /// A globset pattern, matched against paths with `/`.
    Glob(String),
    File(PathBuf),
}

/// Configures and runs the generation. Relative paths are relative to the current folder,
/// which cargo makes the package's folder when it runs a build script.
#[derive(Default)]
pub struct Builder {
    sources: Vec<Source>,
    emit: Vec<(Lang, PathBuf)>,
    locked: Option<bool>,
    lock_file: Option<PathBuf>,
    out_dir: Option<PathBuf>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Every `*.rule` file below `dir`, at any depth.
    pub fn rules_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.sources.push(Source::Dir(dir.as_ref().to_path_buf()));
        self
    }

    /// Every file matching a globset pattern, e.g. `rules/**/*.rule` or `rules/{a,b}.rule`.
    /// The search starts at the pattern's longest prefix without a wildcard.
    pub fn rules(&mut self, pattern: &str) -> &mut Builder {
        self.sources.push(Source::Glob(pattern.to_string()));
        self
    }

    /// One rule (or enums) file.
    pub fn rule(&mut self, path: impl AsRef<Path>) -> &mut Builder {
        self.sources.push(Source::File(path.as_ref().to_path_buf()));
        self
    }

    /// Also write `lang`'s files for every rule into `dir` — the files `rulec gen` writes
    /// under `<out>/<lang>/`, byte for byte — for a repository where the Rust service owns
    /// the rules and other languages use them too.
    pub fn emit(&mut self, lang: Lang, dir: impl AsRef<Path>) -> &mut Builder {
        self.emit.push((lang, dir.as_ref().to_path_buf()));
        self
    }

    /// Fail when what is generated differs from `rulec.lock` (the source or the output).
    /// Default: true when a `rulec.lock` is found at the workspace root (located with
    /// `cargo metadata`), or at the file given to [`Builder::lock_file`].
    pub fn locked(&mut self, locked: bool) -> &mut Builder {
        self.locked = Some(locked);
        self
    }

    /// The lock to hold the generation to, instead of `rulec.lock` at the workspace root.
    pub fn lock_file(&mut self, path: impl AsRef<Path>) -> &mut Builder {
        self.lock_file = Some(path.as_ref().to_path_buf());
        self
    }

    /// Where `<alias>.rs` is written (default: the `OUT_DIR` cargo gives a build script).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Check every rule, generate, and print cargo's instructions on standard output.
    pub fn compile(&self) -> Result<(), Error> {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        self.compile_to(&mut out)
    }

    /// [`Builder::compile`], writing cargo's instructions (`cargo:rerun-if-changed=…`,
    /// `cargo:warning=…`) to `instructions` instead of standard output.
    pub fn compile_to(&self, instructions: &mut dyn Write) -> Result<(), Error> {
        let mut say = |line: String| -> Result<(), Error> {
            writeln!(instructions, "{line}").map_err(|e| Error::Other(format!("cannot write to cargo: {e}")))
        };
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                Error::Other("OUT_DIR is not set: call compile() from a build script, or give .out_dir()".into())
            })?,
        };
        let rules = self.rule_files()?;
        let (lock_file, watch_lock) = self.lock_to_hold()?;

        let mut sources = Sources::new();
        // The languages this build writes: W121 speaks of these alone.
        let targets: Vec<Lang> = std::iter::once(Lang::Rust).chain(self.emit.iter().map(|(l, _)| *l)).collect();
        let lock_dir = lock_file.as_ref().map_or(PathBuf::from("."), |l| l.parent().unwrap_or(Path::new(".")).into());
        // Every language here is asked for by name: one that refuses a rule is an error below.
        let generation = rulec::generate::generate(&mut sources, &rules, &targets, &lock_dir, |unit, _| {
            // Each file is named by where it is written: OUT_DIR, or the folder of its language.
            let placed = |lang: Lang, at: PathBuf, text: String| Placed {
                kind: lang.name().to_string(),
                file: gen::File { path: at.display().to_string(), text },
                at,
            };
            let module = gen::rust_module(unit);
            let mut out = vec![placed(Lang::Rust, out_dir.join(&module.path), module.text)];
            // The module of each enums file the rule reads, beside it: the same bytes from every
            // rule that reads the file.
            for m in gen::rust_enums_modules(unit) {
                out.push(placed(Lang::Rust, out_dir.join(&m.path), m.text));
            }
            for (lang, dir) in &self.emit {
                out.extend(
                    gen::backend(*lang).generate(unit).into_iter().map(|f| placed(*lang, dir.join(&f.path), f.text)),
                );
            }
            out
        })
        .map_err(Error::Other)?;
        if let Some(clash) = generation.clashes().into_iter().chain(generation.refused.iter().cloned()).next() {
            return Err(Error::Other(clash));
        }
        let mut read: Vec<PathBuf> = Vec::new();
        for f in generation.watched.iter().map(|f| normalize(f)) {
            if !read.contains(&f) {
                read.push(f);
            }
        }
        let warnings = cargo_warnings(&sources, &generation.clean);
        let rendered_errors = render::text(&sources, &generation.failed, false);

        // Watch exactly what was read, so an edit anywhere else does not rerun the script.
        for f in &read {
            say(format!("cargo:rerun-if-changed={}", f.display()))?;
        }
        // The lock held to: cargo reruns the script when it changes or disappears. (One not
        // yet there is not watched: cargo counts a missing path as changed on every build,
        // which would rerun this script, and rebuild the crate, on each build without a lock.)
        if let Some(l) = &watch_lock {
            say(format!("cargo:rerun-if-changed={}", l.display()))?;
        }
        for line in warnings {
            say(line)?;
        }
        if !rendered_errors.is_empty() {
            return Err(Error::Check { rendered: rendered_errors });
        }
        if let Some(l) = &lock_file {
            let drift = Lock::read(l).map_err(Error::Other)?.drift_by_name(&generation.fresh);
            if !drift.is_empty() {
                return Err(Error::Locked { lock_file: l.clone(), drift });
            }
        }
        for (_, p) in &generation.files {
            write_if_changed(&p.at, &p.file.text)?;
        }
        Ok(())
    }

    /// The rule files named, found below a folder or matched by a pattern: sorted, each once.
    fn rule_files(&self) -> Result<Vec<PathBuf>, Error> {
        let mut out = Vec::new();
        for s in &self.sources {
            match s {
                Source::File(p) => {
                    if !p.is_file() {
                        return Err(Error::Other(format!("{} does not exist", p.display())));
                    }
                    out.push(p.clone());
                }
                Source::Dir(d) => {
                    if !d.is_dir() {
                        return Err(Error::Other(format!("{} is not a folder", d.display())));
                    }
                    out.extend(walk(d).filter(|p| p.extension().is_some_and(|x| x == "rule")));
                }
                Source::Glob(pattern) => {
                    let glob = globset::GlobBuilder::new(pattern)
                        .literal_separator(true)
                        .build()
                        .map_err(|e| Error::Other(format!("`{pattern}` is not a glob pattern: {e}")))?
                        .compile_matcher();
                    let root = literal_prefix(pattern);
                    let before = out.len();
                    out.extend(walk(&root).filter(|p| glob.is_match(slashed(p))));
                    if out.len() == before {
                        return Err(Error::Other(format!("`{pattern}` matches no file")));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// The lock to hold the generation to, if any, and the lock to watch (the same one).
    fn lock_to_hold(&self) -> Result<(Option<PathBuf>, Option<PathBuf>), Error> {
        if self.locked == Some(false) {
            return Ok((None, None));
        }
        if let Some(p) = &self.lock_file {
            return match p.is_file() {
                true => Ok((Some(p.clone()), Some(p.clone()))),
                false => Err(Error::Other(format!("{} does not exist", p.display()))),
            };
        }
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
        let path = workspace_root(&manifest_dir)?.join(lock::FILE_NAME);
        match (path.is_file(), self.locked) {
            (true, _) => Ok((Some(path.clone()), Some(path))),
            (false, Some(true)) => Err(Error::Other(format!("locked, but there is no {}", path.display()))),
            (false, _) => Ok((None, None)),
        }
    }
}

/// A clean rule's warnings as cargo shows them: each line of the rendered text a
/// `cargo:warning=` line (cargo takes one line per instruction).
fn cargo_warnings(sources: &Sources, diags: &[Diagnostic]) -> Vec<String> {
    let warnings: Vec<Diagnostic> = diags.iter().filter(|d| d.severity == Severity::Warning).cloned().collect();
    if warnings.is_empty() {
        return Vec::new();
    }
    render::text(sources, &warnings, false).lines().map(|l| format!("cargo:warning={l}")).collect()
}

/// The workspace root of the package in `manifest_dir`, as cargo sees it.
fn workspace_root(manifest_dir: &Path) -> Result<PathBuf, Error> {
    let meta = cargo_metadata::MetadataCommand::new()
        .manifest_path(manifest_dir.join("Cargo.toml"))
        .no_deps()
        .exec()
        .map_err(|e| Error::Other(format!("cannot find the workspace root with cargo metadata: {e}")))?;
    Ok(meta.workspace_root.into_std_path_buf())
}

/// Every file below `dir`, in a stable order (a path that is a file is its own walk).
fn walk(dir: &Path) -> impl Iterator<Item = PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
}

/// The folder a pattern's matches all lie below: its leading components without a wildcard.
fn literal_prefix(pattern: &str) -> PathBuf {
    let mut root = PathBuf::new();
    let parts: Vec<&str> = pattern.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() || part.contains(['*', '?', '[', '{', '\\']) {
            break;
        }
        root.push(if part.is_empty() { "/" } else { part });
    }
    if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    }
}

/// `a/b/../c` as `a/c`, `./a` as `a`: one spelling per file for cargo to watch.
fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// A path as a pattern sees it: with `/`, without a leading `./`.
fn slashed(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// Write only when the bytes differ, so an unchanged file keeps its time and nothing that
/// depends on it is rebuilt; and write whole (a new file renamed over the old one), so two
/// builds writing one folder at once never leave half a file.
fn write_if_changed(at: &Path, text: &str) -> Result<(), Error> {
    if std::fs::read(at).ok().as_deref() == Some(text.as_bytes()) {
        return Ok(());
    }
    lock::write_whole(at, text.as_bytes()).map_err(Error::Other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literal_prefix_is_where_a_pattern_is_searched() {
        assert_eq!(literal_prefix("rules/**/*.rule"), PathBuf::from("rules"));
        assert_eq!(literal_prefix("a/b/{c,d}.rule"), PathBuf::from("a/b"));
        assert_eq!(literal_prefix("*.rule"), PathBuf::from("."));
        assert_eq!(literal_prefix("rules/x.rule"), PathBuf::from("rules"));
        assert_eq!(literal_prefix("/abs/rules/*.rule"), PathBuf::from("/abs/rules"));
    }

    #[test]
    fn a_warning_is_one_cargo_warning_line_per_rendered_line() {
        // The checker emits no warning code today (W114 is pending), so the diagnostic is made here.
        let mut sources = Sources::new();
        let text = "rule w v1\n\ninput a: int 0..9\noutput b: int 0..9\ndefine b = a\n";
        let checked = rulec::check_text(&mut sources, "rules/w.rule", text, &rulec::analysis::Options::default());
        assert!(!checked.has_errors(), "{}", render::text(&sources, &checked.diagnostics, false));
        let at = text.find("define").unwrap();
        let w = Diagnostic::new("W114", checked.file, rulec::source::Span::new(at, at + 6), "rows not proven apart")
            .label("here");
        let error = Diagnostic::new("E101", checked.file, rulec::source::Span::new(at, at + 6), "not a warning");
        let lines = cargo_warnings(&sources, &[w.clone(), error]);
        let rendered = render::text(&sources, &[w], false);
        assert_eq!(lines.len(), rendered.lines().count());
        assert!(lines.iter().all(|l| l.starts_with("cargo:warning=")));
        assert_eq!(lines[0], "cargo:warning=warning[W114]: rows not proven apart");
        assert!(lines.iter().any(|l| l.contains("--> rules/w.rule:5:1")), "{lines:#?}");
        assert!(cargo_warnings(&sources, &checked.diagnostics).is_empty());
    }

    /// W121 speaks of the languages the build writes: `func` is a keyword of Go alone, so a
    /// Rust-only build says nothing of it, and one that emits Go too says Go renames it.
    #[test]
    fn w121_speaks_of_the_languages_the_build_writes() {
        let dir = tempfile::tempdir().unwrap();
        let rule = dir.path().join("kw.rule");
        let text = "rule kw v1\n\ninput func: int 0..9\n\noutput y: int 0..9\n\ndefine y = func\n";
        std::fs::write(&rule, text).unwrap();
        let build = |emit: bool| {
            let mut b = Builder::new();
            b.rule(&rule).out_dir(dir.path().join("out")).locked(false);
            if emit {
                b.emit(Lang::Go, dir.path().join("go"));
            }
            let mut said = Vec::new();
            b.compile_to(&mut said).unwrap();
            String::from_utf8(said).unwrap()
        };
        assert!(!build(false).contains("W121"), "{}", build(false));
        let with_go = build(true);
        assert!(with_go.contains("cargo:warning=warning[W121]: `func` is a keyword"), "{with_go}");
        assert!(with_go.contains("renamed in generated code: Go writes `func_`\n"), "{with_go}");
    }

    #[test]
    fn a_path_is_watched_under_one_spelling() {
        assert_eq!(normalize(Path::new("./rules/sub/../shared/tiers.rule")), PathBuf::from("rules/shared/tiers.rule"));
        assert_eq!(normalize(Path::new("../x/./a.rule")), PathBuf::from("../x/a.rule"));
    }

    #[test]
    fn the_workspace_root_is_cargos() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = workspace_root(here).unwrap();
        assert_eq!(root, here.parent().unwrap().canonicalize().unwrap());
    }
}
