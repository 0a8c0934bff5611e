//! Where a rule is read from: a file as it is on disk, or a file at a git revision —
//! `rules/x.rule@HEAD~1`, `rules/rates.rule@v1` — read with `git show`, together with the
//! enums files it `use`s at that same revision.

use crate::analysis::Options;
use crate::check::{check_path, Checked};
use crate::sema::Program;
use crate::source::{lexical_absolute, Sources};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A rule, checked.
pub struct Loaded {
    pub sources: Sources,
    pub checked: Checked,
    /// How the rule was named (`rules/x.rule@HEAD~1`).
    pub shown: String,
    /// The revision's files, while they are read from.
    _dir: Option<tempfile::TempDir>,
}

impl Loaded {
    /// The typed program (present when the rule checks without errors).
    pub fn program(&self) -> Option<&Program> {
        if self.checked.has_errors() {
            None
        } else {
            self.checked.program.as_ref()
        }
    }
}

/// `path@rev` taken apart: the path, and the revision when one is named. A file whose own
/// name holds an `@` is read as that file.
pub fn split(spec: &str) -> (PathBuf, Option<String>) {
    if Path::new(spec).exists() {
        return (PathBuf::from(spec), None);
    }
    match spec.rsplit_once('@') {
        Some((path, rev)) if !path.is_empty() && !rev.is_empty() => (PathBuf::from(path), Some(rev.to_string())),
        _ => (PathBuf::from(spec), None),
    }
}

/// Read and check a rule named as a file or `file@rev`, its `use`s held inside `root` (the
/// project root of the rule's folder when `None`). `Err` is a message for a rule that cannot
/// be read at all (no such file, no such revision, a revision that reads as an option, a
/// `use` that leaves the root); a rule with errors comes back `Ok`, with its diagnostics,
/// and [`Loaded::program`] is `None`.
pub fn load(spec: &str, opts: &Options, root: Option<&Path>) -> Result<Loaded, String> {
    let (path, rev) = split(spec);
    match rev {
        None => {
            let mut sources = match root {
                Some(r) => Sources::new().with_root(r),
                None => Sources::new(),
            };
            let checked = check_path(&mut sources, &path, opts)?;
            Ok(Loaded { sources, checked, shown: spec.to_string(), _dir: None })
        }
        Some(rev) => {
            let abs = lexical_absolute(&path);
            let root = match root {
                Some(r) => lexical_absolute(r),
                None => crate::source::project_root(abs.parent().unwrap_or(Path::new("/"))),
            };
            if rev.starts_with('-') {
                return Err(format!("{spec}: the revision `{rev}` starts with `-`, which git would read as an option; name a commit, a branch or a tag"));
            }
            let below = |p: &Path| p.strip_prefix(&root).ok().map(Path::to_path_buf);
            let rel = below(&abs).ok_or_else(|| format!("{spec} is outside the project root {}", root.display()))?;
            let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
            // The project root is the temporary folder: the rule and every file it `use`s keep
            // their paths below it, so `use` paths resolve as in the working tree, and nothing
            // is written anywhere else.
            let text = git_show(&path, &rev)?;
            write(&dir.path().join(&rel), &text)?;
            let parsed = crate::syntax::parse(&text, crate::source::FileId(0));
            for u in parsed.file.iter().flat_map(|f| &f.items).filter_map(|item| match &item.kind {
                crate::syntax::ast::ItemKind::Use(u) => Some(u),
                _ => None,
            }) {
                if Path::new(&u.value).has_root() {
                    // The check refuses an absolute `use` (E069) without reading it.
                    continue;
                }
                let used = lexical_absolute(&abs.parent().unwrap_or(Path::new("/")).join(&u.value));
                let Some(used_rel) = below(&used) else {
                    return Err(format!(
                        "{spec}: `use \"{}\"` leads to {}, outside the project root {}; not read",
                        u.value,
                        used.display(),
                        root.display()
                    ));
                };
                // A `use` the revision does not have is reported by the check (E069).
                if let Ok(t) = git_show(&used, &rev) {
                    write(&dir.path().join(used_rel), &t)?;
                }
            }
            // Shown as the user named it when that is a path from a folder inside the root.
            let here = lexical_absolute(Path::new("."));
            let (base, named) = match here.strip_prefix(&root) {
                Ok(cwd) if path.is_relative() => (dir.path().join(cwd), path.clone()),
                _ => (dir.path().to_path_buf(), rel.clone()),
            };
            std::fs::create_dir_all(&base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
            let mut sources = Sources::in_dir(&base).with_root(dir.path());
            let checked = check_path(&mut sources, &named, opts)?;
            Ok(Loaded { sources, checked, shown: spec.to_string(), _dir: Some(dir) })
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The text of `path` at `rev`, by `git show` run in the file's folder.
fn git_show(path: &Path, rev: &str) -> Result<String, String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| format!("{} names no file", path.display()))?;
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("show")
        .arg(format!("{rev}:./{}", name.to_string_lossy()))
        .output()
        .map_err(|e| format!("cannot run git to read {}@{rev}: {e}", path.display()))?;
    if !out.status.success() {
        return Err(format!("cannot read {}@{rev}: {}", path.display(), String::from_utf8_lossy(&out.stderr).trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("{}@{rev} is not UTF-8", path.display()))
}
