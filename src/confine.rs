//! Confinement: a path is held to a folder by where it really leads — every `..` and every
//! link followed as the file system would follow them — not by how its name reads. What
//! leads outside is refused with a sentence naming the path and the folder, before anything
//! is read, written or removed (docs/reliability.md, "Nothing outside the root").

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// The most links followed in one path, as Linux's own limit (past it the kernel says ELOOP).
const MAX_LINKS: usize = 40;

/// Where `path` leads: absolute, each link of the part that exists followed (a dangling one
/// too, to where it would create a file), each `..` taken from the folder it is really in.
/// The part that does not exist yet is taken by its names.
pub fn resolve(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut todo: Vec<Step> = steps(&abs);
    todo.reverse();
    let mut out = PathBuf::from("/");
    let mut links = 0;
    while let Some(step) = todo.pop() {
        match step {
            Step::Root => out = PathBuf::from("/"),
            Step::Up => {
                out.pop();
            }
            Step::Name(name) => {
                let next = out.join(&name);
                let link = std::fs::symlink_metadata(&next).is_ok_and(|m| m.file_type().is_symlink());
                match std::fs::read_link(&next) {
                    Ok(target) if link && links < MAX_LINKS => {
                        links += 1;
                        let mut more = steps(&target);
                        more.reverse();
                        todo.extend(more);
                    }
                    _ => out = next,
                }
            }
        }
    }
    out
}

enum Step {
    Root,
    Up,
    Name(OsString),
}

fn steps(p: &Path) -> Vec<Step> {
    p.components()
        .filter_map(|c| match c {
            Component::Prefix(_) | Component::RootDir => Some(Step::Root),
            Component::CurDir => None,
            Component::ParentDir => Some(Step::Up),
            Component::Normal(n) => Some(Step::Name(n.to_os_string())),
        })
        .collect()
}

/// A folder paths are held inside: as it was named (for sentences) and where it leads.
#[derive(Clone, Debug)]
pub struct Root {
    pub shown: PathBuf,
    pub real: PathBuf,
    /// What the root is, in a sentence: `the root`, `--out`.
    pub what: &'static str,
}

impl Root {
    pub fn new(dir: &Path, what: &'static str) -> Root {
        Root { shown: dir.to_path_buf(), real: resolve(dir), what }
    }

    /// Where `path` leads, when that is inside the root (the root itself included); else
    /// the sentence that refuses it.
    pub fn inside(&self, path: &Path) -> Result<PathBuf, String> {
        let real = resolve(path);
        if real.starts_with(&self.real) {
            return Ok(real);
        }
        let by_name = crate::source::lexical_absolute(path).starts_with(crate::source::lexical_absolute(&self.shown));
        Err(if by_name {
            format!(
                "{} leads through a link to {}, outside {} {}",
                path.display(),
                real.display(),
                self.what,
                self.shown.display()
            )
        } else {
            format!("{} is outside {} {}", path.display(), self.what, self.shown.display())
        })
    }

    /// Write `bytes` to `path` whole (`lock::write_whole`), when it leads inside the root.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), String> {
        self.inside(path)?;
        crate::lock::write_whole(path, bytes)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn dots_and_links_are_followed_where_they_lead() {
        let dir = tempfile::tempdir().unwrap();
        let base = resolve(dir.path());
        std::fs::create_dir_all(base.join("out/real")).unwrap();
        std::fs::create_dir_all(base.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(base.join("elsewhere"), base.join("out/away")).unwrap();
        std::os::unix::fs::symlink("real", base.join("out/near")).unwrap();
        std::os::unix::fs::symlink("../../elsewhere/new.py", base.join("out/real/dangling.py")).unwrap();
        let out = Root::new(&base.join("out"), "--out");
        assert_eq!(out.inside(&base.join("out/near/x.py")).unwrap(), base.join("out/real/x.py"));
        assert_eq!(out.inside(&base.join("out/not/yet/x.py")).unwrap(), base.join("out/not/yet/x.py"));
        let away = out.inside(&base.join("out/away/x.py")).unwrap_err();
        assert!(away.contains("leads through a link to") && away.contains("outside --out"), "{away}");
        assert!(out.inside(&base.join("out/real/dangling.py")).is_err(), "a dangling link leads where it would write");
        let up = out.inside(&base.join("out/../../x")).unwrap_err();
        assert!(up.contains("is outside --out"), "{up}");
        // `..` after a link is taken from the folder the link leads to.
        assert_eq!(resolve(&base.join("out/away/../out")), base.join("out"));
    }
}
