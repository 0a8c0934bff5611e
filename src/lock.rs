//! `rulec.lock`: the content hashes that make "the same rule and the same rulec give the
//! same bytes" checkable on every machine (build-integration.md). TOML, written only by
//! rulec (`rulec gen`, `rulec lock`), byte-deterministic: rules sorted by path, artifacts by
//! path, digests as bare lowercase hex (the key says the algorithm), paths relative to the
//! lock's folder with `/`.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
    crate::source::hex(&Sha256::digest(bytes))
}

/// A digest as a lock written before they were bare hex spelled it (`sha256:…`), read as one.
fn bare(d: &mut String) {
    if let Some(hex) = d.strip_prefix("sha256:") {
        *d = hex.to_string();
    }
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
        LockedRule::new(rule, &unit.program.name, unit.program.version, &unit.sha256, artifacts, lock_dir)
    }

    /// The entry of the rule `name` v`version` at `rule`, whose bytes hash to `sha256` (hex).
    pub fn new(
        rule: &Path,
        name: &str,
        version: u64,
        sha256: &str,
        artifacts: Vec<Artifact>,
        lock_dir: &Path,
    ) -> LockedRule {
        LockedRule {
            path: relative(rule, lock_dir),
            name: name.to_string(),
            version,
            source_sha256: sha256.to_string(),
            artifacts,
        }
    }
}

impl Lock {
    pub fn new(mut rules: Vec<LockedRule>) -> Lock {
        rules.sort_by(|a, b| a.path.cmp(&b.path));
        for r in &mut rules {
            r.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
            r.artifacts.dedup_by(|a, b| a.path == b.path);
        }
        Lock { version: 1, rulec: env!("CARGO_PKG_VERSION").to_string(), rules }
    }

    pub fn to_toml(&self) -> String {
        format!("{HEADER}{}", toml::to_string(self).expect("a lock serializes"))
    }

    pub fn read(path: &Path) -> Result<Lock, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut lock: Lock =
            toml::from_str(&text).map_err(|e| format!("{} is not a rulec.lock: {e}", path.display()))?;
        for r in &mut lock.rules {
            bare(&mut r.source_sha256);
            r.artifacts.iter_mut().for_each(|a| bare(&mut a.sha256));
        }
        Ok(lock)
    }

    /// The lock at `path`, or `None` when there is none.
    pub fn read_if_present(path: &Path) -> Result<Option<Lock>, String> {
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            _ => Lock::read(path).map(Some),
        }
    }

    /// Merge a fresh generation into this lock. The run owns the rules for which `owned`
    /// (given an entry's path) is true: their entries become exactly the fresh ones, so the
    /// entry of a rule that is gone (deleted, renamed, moved) goes too. A fresh rule keeps
    /// the artifacts of the languages this run did not generate for it (`rulec gen --lang`).
    /// Every file the lock listed and no longer lists is stale: no rule writes it any more.
    pub fn merge(&self, fresh: &[LockedRule], owned: &dyn Fn(&str) -> bool) -> Merged {
        let mut rules = Vec::new();
        let mut gone = Vec::new();
        for old in &self.rules {
            if fresh.iter().any(|f| f.path == old.path) {
                continue;
            }
            if owned(&old.path) {
                gone.push(old.path.clone());
            } else {
                rules.push(old.clone());
            }
        }
        for f in fresh {
            let mut entry = f.clone();
            if let Some(old) = self.rules.iter().find(|r| r.path == f.path) {
                let generated = |a: &Artifact| f.artifacts.iter().any(|g| g.lang == a.lang || g.path == a.path);
                entry.artifacts.extend(old.artifacts.iter().filter(|a| !generated(a)).cloned());
            }
            rules.push(entry);
        }
        let lock = Lock::new(rules);
        let listed: std::collections::BTreeSet<&str> =
            lock.rules.iter().flat_map(|r| r.artifacts.iter().map(|a| a.path.as_str())).collect();
        let mut stale: Vec<String> = self
            .rules
            .iter()
            .flat_map(|r| r.artifacts.iter().map(|a| a.path.as_str()))
            .filter(|p| !listed.contains(p))
            .map(str::to_string)
            .collect();
        stale.sort();
        stale.dedup();
        Merged { lock, gone, stale }
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
        }
        out
    }
}

/// A lock merged with a fresh generation (`Lock::merge`).
pub struct Merged {
    pub lock: Lock,
    /// The rules whose entries were dropped: the run owns them and they are gone.
    pub gone: Vec<String>,
    /// Files the lock listed that no rule writes any more, relative to the lock's folder.
    pub stale: Vec<String>,
}

/// Whether a run given `paths` owns the entry of the rule at `entry` (relative to
/// `lock_dir`): the rule is one of the files given, or lies below one of the folders given.
pub fn owns(paths: &[PathBuf], lock_dir: &Path, entry: &str) -> bool {
    paths.iter().any(|p| {
        let given = relative(p, lock_dir);
        if !p.is_dir() {
            return entry == given;
        }
        match given.as_str() {
            "" => !entry.starts_with("../"),
            g => entry == g || entry.strip_prefix(g).is_some_and(|rest| rest.starts_with('/')),
        }
    })
}

/// An exclusive hold on a lock for one read–merge–write: while a run holds it, no other
/// rulec (or build) that asks for it reads or writes that lock. The hold is a file beside
/// the lock (`.rulec.lock.guard`), never the lock itself, which is replaced by a rename.
pub struct Hold {
    _file: std::fs::File,
}

pub fn hold(lock: &Path) -> Result<Hold, String> {
    let guard = sibling(lock, &format!(".{}.guard", file_name(lock)));
    if let Some(dir) = guard.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&guard)
        .map_err(|e| format!("cannot open {}: {e}", guard.display()))?;
    file.lock().map_err(|e| format!("cannot lock {}: {e}", guard.display()))?;
    Ok(Hold { _file: file })
}

/// Write `bytes` to `path` whole: into a new file beside it, then renamed over it, so a
/// reader (another rulec, a build, an editor) sees the old file or the new one, never half
/// of either.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let (tmp, mut file) = loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = sibling(path, &format!(".{}.{}.{n}.tmp", file_name(path), std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(cannot(e)),
        }
    };
    let written = std::io::Write::write_all(&mut file, bytes).and_then(|()| {
        drop(file);
        std::fs::rename(&tmp, path)
    });
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        cannot(e)
    })
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| FILE_NAME.to_string())
}

fn sibling(path: &Path, name: &str) -> PathBuf {
    match path.parent() {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
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
        // Bare hex, as build-integration.md writes it.
        assert!(text.contains(&format!("sha256 = \"{}\"\n", digest(b"x"))), "{text}");
        assert!(!text.contains("sha256:"), "{text}");
        assert!(
            digest(b"x").len() == 64 && digest(b"x").bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let back: Lock = toml::from_str(&text).unwrap();
        assert_eq!(back, lock);
        assert_eq!(back.to_toml(), text);
    }

    /// A lock written with `sha256:` before the digests became bare hex reads as the same lock.
    #[test]
    fn a_lock_with_prefixed_digests_reads_as_bare_hex() {
        let lock = sample();
        let old = lock.to_toml().replace("sha256 = \"", "sha256 = \"sha256:");
        assert_eq!(old.matches("sha256:").count(), 3, "{old}");
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join(FILE_NAME);
        std::fs::write(&at, old).unwrap();
        assert_eq!(Lock::read(&at).unwrap(), lock);
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
