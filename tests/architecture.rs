//! The invariants docs/architecture.md states, held to the code: a backend reads the plan
//! and the names, never the typed program; no import runs back up the layers.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Every backend: a folder of src/gen with a mod.rs.
fn backends() -> Vec<PathBuf> {
    let gen = Path::new(ROOT).join("src/gen");
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(&gen).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("mod.rs").is_file()).collect();
    out.retain(|p| p.file_name().unwrap() != "plan");
    out.sort();
    out
}

#[test]
fn no_backend_reads_the_typed_program() {
    let backends = backends();
    assert!(backends.len() >= 2, "{backends:?}");
    for b in backends {
        for f in rust_files(&b) {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let at = format!("{}:{}", f.display(), i + 1);
                // Ids are numbers into the plan's own tables; everything else of sema is off limits.
                let sema_use = line.contains("crate::sema") && !line.contains("crate::sema::VarId");
                assert!(!sema_use, "{at}: a backend reads sema: {line}");
                for field in [".program", ".analysis", "u.text"] {
                    assert!(!line.contains(field), "{at}: a backend reads `{field}`: {line}");
                }
            }
        }
    }
}

#[test]
fn no_import_runs_back_up_the_layers() {
    let src = Path::new(ROOT).join("src");
    for f in rust_files(&src.join("diag")) {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(
            !text.contains("use crate::{") && !text.contains("crate::Sources"),
            "{} imports the crate root",
            f.display()
        );
    }
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(!lib.contains("gen::"), "lib.rs imports gen");
    // The leaves import nothing of the crate.
    for leaf in ["lang.rs", "source.rs"] {
        let text = std::fs::read_to_string(src.join(leaf)).unwrap();
        assert!(!text.contains("use crate::"), "{leaf} is a leaf");
    }
    for stage in ["syntax", "sema", "analysis", "eval"] {
        for f in rust_files(&src.join(stage)) {
            let text = std::fs::read_to_string(&f).unwrap();
            for later in ["crate::gen", "crate::harness", "crate::lock", "crate::vectors"] {
                assert!(!text.contains(later), "{} ({stage}) imports {later}", f.display());
            }
        }
    }
}
