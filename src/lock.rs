//! `rulec.lock`: the content hashes that make "the same rule and the same rulec give the
//! same bytes" checkable on every machine (build-integration.md). TOML, written only by
//! rulec, byte-deterministic: rules sorted by path, artifacts by path, digests with their
//! algorithm (`sha256:…`), paths relative to the lock's folder with `/`.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "rulec.lock";
const HEADER: &str = "# Written by rulec. Do not edit.\n";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    pub version: u32,
    pub rulec: String,
    #[serde(default, rename = "rule")]
    pub rules: Vec<LockedRule>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedRule {
    pub path: String,
    pub name: String,
    pub version: u64,
    pub source_sha256: String,
    #[serde(default, rename = "artifact")]
    pub artifacts: Vec<Artifact>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    pub lang: String,
    pub path: String,
    pub sha256: String,
}

pub fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{}", crate::source::hex(&Sha256::digest(bytes)))
}

/// `path` relative to `base`, with `/` (and `..` where it lies outside): the same text on
/// every machine, wherever the checkout is.
pub fn relative(path: &Path, base: &Path) -> String {
    use std::path::Component;
    let abs = |p: &Path| -> Vec<String> {
        let p: PathBuf = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut parts: Vec<String> = Vec::new();
        for c in p.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(x) => parts.push(x.to_string_lossy().into_owned()),
                _ => {}
            }
        }
        parts
    };
    let (p, b) = (abs(path), abs(base));
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); b.len() - common];
    out.extend(p[common..].iter().cloned());
    out.join("/")
}

impl Artifact {
    /// The entry for `text`, written (or to be written) at `at`; its path relative to `lock_dir`.
    pub fn new(lang: &str, at: &Path, text: &str, lock_dir: &Path) -> Artifact {
        Artifact { lang: lang.to_string(), path: relative(at, lock_dir), sha256: digest(text.as_bytes()) }
    }

    fn file_name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

impl LockedRule {
    /// The entry a fresh generation of the rule at `rule` gives, paths relative to `lock_dir`.
    pub fn fresh(rule: &Path, unit: &crate::gen::Unit, artifacts: Vec<Artifact>, lock_dir: &Path) -> LockedRule {
        LockedRule {
            path: relative(rule, lock_dir),
            name: unit.program.name.clone(),
            version: unit.program.version,
            source_sha256: format!("sha256:{}", unit.sha256),
            artifacts,
        }
    }
}

impl Lock {
    pub fn new(mut rules: Vec<LockedRule>) -> Lock {
        rules.sort_by(|a, b| a.path.cmp(&b.path));
        for r in &mut rules {
            r.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
        }
        Lock { version: 1, rulec: env!("CARGO_PKG_VERSION").to_string(), rules }
    }

    pub fn to_toml(&self) -> String {
        format!("{HEADER}{}", toml::to_string(self).expect("a lock serializes"))
    }

    pub fn read(path: &Path) -> Result<Lock, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{} is not a rulec.lock: {e}", path.display()))
    }

    /// Merge fresh entries into this lock: a rule named again replaces its entry.
    pub fn updated(&self, fresh: &[LockedRule]) -> Lock {
        let mut rules: Vec<LockedRule> =
            self.rules.iter().filter(|r| !fresh.iter().any(|f| f.path == r.path)).cloned().collect();
        rules.extend(fresh.iter().cloned());
        Lock::new(rules)
    }

    /// What a fresh generation changes against this lock, one line per drifted file.
    pub fn drift(&self, fresh: &[LockedRule]) -> Vec<String> {
        self.drift_matching(fresh, false)
    }

    /// The same, for a door that writes its files somewhere other than where `rulec gen`
    /// wrote the locked ones (build.rs writes into OUT_DIR): a fresh file is held to the locked
    /// file of its rule with the same language and the same name, and only the files this
    /// door generates are compared.
    pub fn drift_by_name(&self, fresh: &[LockedRule]) -> Vec<String> {
        self.drift_matching(fresh, true)
    }

    fn drift_matching(&self, fresh: &[LockedRule], by_name: bool) -> Vec<String> {
        let mut out = Vec::new();
        for f in fresh {
            let Some(old) = self.rules.iter().find(|r| r.path == f.path) else {
                out.push(format!("{}: not in {FILE_NAME} (run rulec gen to lock it)", f.path));
                continue;
            };
            if old.source_sha256 != f.source_sha256 {
                out.push(format!("{}: the source changed since it was locked", f.path));
            }
            for a in &f.artifacts {
                let locked = if by_name {
                    old.artifacts.iter().find(|o| o.lang == a.lang && o.file_name() == a.file_name())
                } else {
                    old.artifacts.iter().find(|o| o.path == a.path)
                };
                match locked {
                    None if by_name => out.push(format!(
                        "{}: no {} file {} for it in {FILE_NAME} (run rulec gen --lang {} to lock it)",
                        f.path,
                        a.lang,
                        a.file_name(),
                        a.lang
                    )),
                    None => out.push(format!("{}: output not in {FILE_NAME}", a.path)),
                    Some(o) if o.sha256 != a.sha256 && by_name => out.push(format!(
                        "{}: the {} output differs from the lock (generated now from {})",
                        o.path, a.lang, f.path
                    )),
                    Some(o) if o.sha256 != a.sha256 => {
                        out.push(format!("{}: the output differs from the lock", a.path))
                    }
                    Some(_) => {}
                }
            }
            if by_name {
                continue;
            }
            // Only languages generated in this run can say an artifact is gone.
            let langs: Vec<&str> = f.artifacts.iter().map(|a| a.lang.as_str()).collect();
            for o in &old.artifacts {
                if langs.contains(&o.lang.as_str()) && !f.artifacts.iter().any(|a| a.path == o.path) {
                    out.push(format!("{}: locked, but no longer generated", o.path));
                }
            }
        }
        out
    }
}

/// Merge `fresh` into the lock at `path` and write it when its text changes. `make -j` runs
/// one `rulec gen` per rule, each updating its own entries of the one shared file, so the
/// read, merge and write happen under an exclusive lock on the lock's folder (on Unix), and
/// the file is replaced whole, never seen half written.
pub fn update_file(path: &Path, fresh: &[LockedRule]) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let _held = hold_folder(dir)?;
    let base = if path.exists() { Lock::read(path)? } else { Lock::new(Vec::new()) };
    let text = base.updated(fresh).to_toml();
    if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
        write_whole(path, text.as_bytes())?;
    }
    Ok(())
}

/// An exclusive advisory lock on a folder, released when the value is dropped.
#[cfg(unix)]
fn hold_folder(dir: &Path) -> Result<std::fs::File, String> {
    let held = std::fs::File::open(dir).map_err(|e| format!("cannot open {}: {e}", dir.display()))?;
    rustix::fs::flock(&held, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|e| format!("cannot lock {}: {e}", dir.display()))?;
    Ok(held)
}

/// Elsewhere one `rulec gen` at a time updates a lock (run make without -j there).
#[cfg(not(unix))]
fn hold_folder(_dir: &Path) -> Result<(), String> {
    Ok(())
}

/// Write `bytes` to `path` through a file beside it renamed over it, so a reader (another
/// `rulec gen` of the same folder, a build running alongside) sees the old file or the new one.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let part = path.with_file_name(format!(".{name}.{}.part", std::process::id()));
    std::fs::write(&part, bytes).map_err(|e| format!("cannot write {}: {e}", part.display()))?;
    std::fs::rename(&part, path).map_err(|e| {
        let _ = std::fs::remove_file(&part);
        format!("cannot write {}: {e}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Lock {
        Lock::new(vec![
            LockedRule {
                path: "rules/b.rule".into(),
                name: "b".into(),
                version: 1,
                source_sha256: digest(b"b"),
                artifacts: vec![Artifact { lang: "rust".into(), path: "gen/rust/b.rs".into(), sha256: digest(b"x") }],
            },
            LockedRule {
                path: "rules/a.rule".into(),
                name: "a".into(),
                version: 3,
                source_sha256: digest(b"a"),
                artifacts: vec![],
            },
        ])
    }

    #[test]
    fn round_trips_sorted_and_deterministic() {
        let lock = sample();
        let text = lock.to_toml();
        assert!(text.starts_with(HEADER));
        assert!(text.find("rules/a.rule").unwrap() < text.find("rules/b.rule").unwrap());
        assert!(text.contains("[[rule.artifact]]"));
        assert!(text.contains("sha256:"));
        let back: Lock = toml::from_str(&text).unwrap();
        assert_eq!(back, lock);
        assert_eq!(back.to_toml(), text);
    }

    #[test]
    fn paths_are_relative_to_the_lock_with_slashes() {
        assert_eq!(relative(Path::new("/a/b/rules/x.rule"), Path::new("/a/b")), "rules/x.rule");
        assert_eq!(relative(Path::new("/a/tests/x.rule"), Path::new("/a/benches/gen")), "../../tests/x.rule");
        assert_eq!(relative(Path::new("/a/b/../c/x.rule"), Path::new("/a/c")), "x.rule");
    }

    #[test]
    fn drift_names_the_file_and_what_changed() {
        let lock = sample();
        let mut fresh = lock.rules.clone();
        fresh[0].source_sha256 = digest(b"edited");
        fresh[1].artifacts[0].sha256 = digest(b"other bytes");
        let drift = lock.drift(&fresh);
        assert_eq!(
            drift,
            vec![
                "rules/a.rule: the source changed since it was locked".to_string(),
                "gen/rust/b.rs: the output differs from the lock".to_string()
            ]
        );
    }
}
