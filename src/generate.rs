//! One generation of many rules, as every door that writes code runs it (`rulec gen`, and
//! `rulec-build` from a build script): each rule checked, the clean ones generated side by
//! side, each file placed where the door puts it, the lock entries of what was generated,
//! and the files two rules would both write. What is written, and how a lock is held, stays
//! with the door; what was generated is decided once, here.

use crate::diag::Diagnostic;
use crate::gen::{File, Unit};
use crate::lang::Lang;
use crate::lock::{Artifact, LockedRule};
use crate::{Checked, Sources};
use std::path::{Path, PathBuf};

/// One generated file where a door puts it (`at`): the lock lists it under `kind` (a
/// language's name, or `vectors`); `file.path` is how messages name it, and what two rules
/// must not both write.
#[derive(Clone, Debug)]
pub struct Placed {
    pub kind: String,
    pub at: PathBuf,
    pub file: File,
}

impl Placed {
    /// A file of `rulec gen`'s output folder: its kind is the folder it stands in.
    pub fn in_folder(out: &Path, file: File) -> Placed {
        let kind = file.path.split('/').next().unwrap_or("").to_string();
        Placed { kind, at: out.join(&file.path), file }
    }
}

/// What one generation of many rules gives.
#[derive(Debug, Default)]
pub struct Generation {
    /// Every file the check read — each rule named and the enums files it uses — once each,
    /// in the order first read: what a build script watches.
    pub watched: Vec<PathBuf>,
    /// What the rules that generate code read (an enums file named but used by none is not
    /// in it): a depfile's prerequisites.
    pub read: Vec<PathBuf>,
    /// The rules with errors, each with its diagnostics, errors first: they generate nothing.
    pub failed: Vec<Diagnostic>,
    /// The diagnostics of the rules that checked clean (their warnings and notes).
    pub clean: Vec<Diagnostic>,
    /// The enums files named: they generate nothing alone (each rule that reads one writes the
    /// file's module, the same bytes from every rule, or carries its enums, as its language does).
    pub enums_files: Vec<PathBuf>,
    /// A note for each rule whose file is not named after the rule.
    pub renamed: Vec<String>,
    /// Why a language of the targets cannot write a rule (`Backend::refuses`): that rule
    /// writes nothing.
    pub refused: Vec<String>,
    /// Every file, with the rule that generates it, in the rules' order.
    pub files: Vec<(PathBuf, Placed)>,
    /// The lock's entry of every rule generated, paths relative to the lock's folder.
    pub fresh: Vec<LockedRule>,
}

/// Checks `rules` (W121 speaking of `targets` alone), generates each clean one with `place`
/// (the door's files of a unit, where it puts them), on as many threads as there are cores,
/// and gathers the result in the rules' order: the bytes and the lock do not depend on which
/// rule finished first.
pub fn generate(
    sources: &mut Sources,
    rules: &[PathBuf],
    targets: &[Lang],
    lock_dir: &Path,
    place: impl Fn(&Unit, &[Lang]) -> Vec<Placed> + Sync,
) -> Result<Generation, String> {
    let mut g = Generation::default();
    let mut clean: Vec<(&PathBuf, Checked)> = Vec::new();
    for path in rules {
        let mut checked = crate::check_path(sources, path, &crate::analysis::Options::default())?;
        checked.for_targets(targets);
        for f in checked.files_read(sources) {
            if !g.watched.contains(&f) {
                g.watched.push(f);
            }
        }
        if checked.has_errors() {
            g.failed.extend(checked.errors_first());
            continue;
        }
        clean.push((path, checked));
    }
    let sources: &Sources = sources;
    let generated = crate::stack::each(&clean, |(_, checked)| {
        Unit::of(checked, sources).map(|unit| {
            // A language that cannot write the rule is left out of it, and says why.
            let (mut writing, mut refused) = (Vec::new(), Vec::new());
            for &lang in targets {
                match crate::gen::backend(lang).refuses(&unit.plan) {
                    Some(why) => refused.push(why),
                    None => writing.push(lang),
                }
            }
            let placed = place(&unit, &writing);
            let fresh = (unit.program.ident(), unit.program.name.clone(), unit.program.version, unit.sha256.clone());
            (placed, fresh, refused)
        })
    });
    for ((path, checked), generated) in clean.iter().zip(generated) {
        g.clean.extend(checked.diagnostics.iter().cloned());
        let Some((placed, (ident, name, version, sha256), refused)) = generated else {
            g.enums_files.push((*path).clone());
            continue;
        };
        g.refused.extend(refused);
        g.read.extend(checked.files_read(sources));
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if stem != ident {
            g.renamed.push(format!("{} holds the rule `{ident}`", path.display()));
        }
        let artifacts = placed.iter().map(|p| Artifact::new(&p.kind, &p.at, &p.file.text, lock_dir)).collect();
        g.fresh.push(LockedRule::new(path, &name, version, &sha256, artifacts, lock_dir));
        g.files.extend(placed.into_iter().map(|p| ((*path).clone(), p)));
    }
    Ok(g)
}

impl Generation {
    /// Adds the module of each enums file named, in each of `langs` that gives an enums file
    /// its own (`Backend::shared_files`), placed by `place` and written by the enums file: the
    /// bytes every rule that reads it writes (`rulec gen --enums-modules`, for a build that
    /// cannot know which rule reads which enums file and has one action write them all).
    pub fn add_enums_modules(
        &mut self,
        sources: &mut Sources,
        langs: &[Lang],
        place: impl Fn(File) -> Placed,
    ) -> Result<(), String> {
        for path in self.enums_files.clone() {
            for f in enums_modules(sources, &path, langs)? {
                self.files.push((path.clone(), place(f)));
            }
        }
        Ok(())
    }

    /// Where two rules would write one file with different bytes (or under paths one
    /// filesystem may take for one): a sentence each (`gen::clashes`).
    pub fn clashes(&self) -> Vec<String> {
        let writers: Vec<(String, File)> =
            self.files.iter().map(|(rule, p)| (rule.display().to_string(), p.file.clone())).collect();
        crate::gen::clashes(&writers)
    }
}

/// The module of the enums file `path` in each of `langs` that writes one, paths relative to
/// the output folder: made from a rule beside it that `use`s it and nothing more, so its
/// bytes are those of any rule that reads the file (named as it is on disk).
pub fn enums_modules(sources: &mut Sources, path: &Path, langs: &[Lang]) -> Result<Vec<File>, String> {
    // Beside the file where it really is: a build's sandbox links each input from its tree,
    // and a rule in the sandbox's folder would be refused a `use` leading out of it.
    let real =
        std::fs::canonicalize(sources.resolve(path)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let text = format!(
        "rule rulec_enums_module v1\nuse {}\n\ninput rulec_in: bool\noutput rulec_out: bool\n\ndefine rulec_out = rulec_in\n",
        serde_json::Value::from(name.as_str())
    );
    let beside = real.with_file_name("rulec_enums_module.rule");
    let checked = crate::check_text(sources, &beside.to_string_lossy(), &text, &crate::analysis::Options::default());
    let Some(unit) = Unit::of(&checked, sources) else {
        let why: Vec<String> = checked.errors_first().iter().map(|d| d.message.clone()).collect();
        return Err(format!("{}: its enums module cannot be made ({})", path.display(), why.join("; ")));
    };
    let mut out = Vec::new();
    for &lang in langs {
        for f in crate::gen::backend(lang).shared_files(&unit) {
            out.push(File { path: format!("{}/{}", lang.name(), f.path), text: f.text });
        }
    }
    Ok(out)
}
