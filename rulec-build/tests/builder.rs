//! The Builder on real corpus rules, writing into a temporary OUT_DIR: what it writes, the
//! cargo instructions it prints, how it fails.

use rulec::lock::{Artifact, Lock, LockedRule};
use rulec::Sources;
use rulec_build::{Builder, Error, Lang};
use std::fs;
use std::path::{Path, PathBuf};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus").join(name)
}

/// A rules folder: parcel_rate, member_discount (which uses shared/tiers.rule), single_coupon,
/// and a file that is not a rule.
fn rules_tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("rules");
    fs::create_dir_all(rules.join("shared")).unwrap();
    for f in ["parcel_rate.rule", "member_discount.rule", "single_coupon.rule", "shared/tiers.rule"] {
        fs::copy(corpus(f), rules.join(f)).unwrap();
    }
    fs::write(rules.join("NOTES.md"), "not a rule\n").unwrap();
    tmp
}

fn compile(b: &Builder) -> (Result<(), Error>, Vec<String>) {
    let mut said = Vec::new();
    let r = b.compile_to(&mut said);
    (r, String::from_utf8(said).unwrap().lines().map(str::to_string).collect())
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = match fs::read_dir(dir) {
        Ok(rd) => rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    names
}

/// The module `rulec gen` writes under rust/ for a rule, through the library.
fn module_of(path: &Path) -> String {
    let mut sources = Sources::new();
    let checked = rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()).unwrap();
    let unit = rulec::gen::Unit::of(&checked, &sources).unwrap();
    written(path, &format!("{}.rs", unit.program.ident()))
}

/// The file `name` that `rulec gen` writes under rust/ for a rule, through the library.
fn written(path: &Path, name: &str) -> String {
    let mut sources = Sources::new();
    let checked = rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()).unwrap();
    let unit = rulec::gen::Unit::of(&checked, &sources).unwrap();
    rulec::outputs::of_rule(&unit, &[Lang::Rust]).into_iter().find(|f| f.path == format!("rust/{name}")).unwrap().text
}

#[test]
fn rerun_lines_are_exactly_the_rule_and_enums_files_read() {
    let tmp = rules_tree();
    let (rules, out) = (tmp.path().join("rules"), tmp.path().join("out"));
    let (r, said) = compile(Builder::new().rules_dir(&rules).out_dir(&out).locked(false));
    r.unwrap();
    // Read in path order; tiers.rule is read first through member_discount's `use` and is
    // named once; NOTES.md is not read and not watched, nor is any folder.
    let want: Vec<String> = ["member_discount.rule", "shared/tiers.rule", "parcel_rate.rule", "single_coupon.rule"]
        .iter()
        .map(|f| format!("cargo:rerun-if-changed={}", rules.join(f).display()))
        .collect();
    assert_eq!(said, want);
    // One module per rule, and the enums file's, which member_discount's names.
    assert_eq!(listing(&out), ["member_discount.rs", "parcel_rate.rs", "single_coupon.rs", "tiers.rs"]);
    for name in ["member_discount", "parcel_rate", "single_coupon"] {
        let written = fs::read_to_string(out.join(format!("{name}.rs"))).unwrap();
        assert_eq!(written, module_of(&rules.join(format!("{name}.rule"))), "{name}.rs is what rulec gen writes");
    }
    let tiers = fs::read_to_string(out.join("tiers.rs")).unwrap();
    assert_eq!(tiers, written(&rules.join("member_discount.rule"), "tiers.rs"), "tiers.rs is what rulec gen writes");
}

#[test]
fn a_single_rule_watches_the_enums_file_it_uses_even_outside_the_folder() {
    let tmp = rules_tree();
    let out = tmp.path().join("out");
    let rule = tmp.path().join("rules/member_discount.rule");
    let (r, said) = compile(Builder::new().rule(&rule).out_dir(&out).locked(false));
    r.unwrap();
    assert_eq!(
        said,
        [
            format!("cargo:rerun-if-changed={}", rule.display()),
            format!("cargo:rerun-if-changed={}", tmp.path().join("rules/shared/tiers.rule").display()),
        ]
    );
    assert_eq!(listing(&out), ["member_discount.rs", "tiers.rs"]);
}

#[test]
fn glob_patterns_select_rules() {
    let tmp = rules_tree();
    let (rules, out) = (tmp.path().join("rules"), tmp.path().join("out"));
    let pattern = format!("{}/{{parcel_rate,single_coupon}}.rule", rules.display());
    let (r, said) = compile(Builder::new().rules(&pattern).out_dir(&out).locked(false));
    r.unwrap();
    assert_eq!(said.len(), 2, "{said:#?}");
    assert_eq!(listing(&out), ["parcel_rate.rs", "single_coupon.rs"]);

    let out2 = tmp.path().join("out2");
    let (r, _) = compile(Builder::new().rules(&format!("{}/**/*.rule", rules.display())).out_dir(&out2).locked(false));
    r.unwrap();
    assert_eq!(listing(&out2), ["member_discount.rs", "parcel_rate.rs", "single_coupon.rs", "tiers.rs"]);

    let (r, said) = compile(Builder::new().rules(&format!("{}/*.rules", rules.display())).out_dir(&out2).locked(false));
    let e = r.unwrap_err();
    assert!(e.to_string().contains("matches no file"), "{e}");
    assert!(said.is_empty());
}

#[test]
fn a_check_error_fails_with_the_rendered_diagnostics_and_still_watches_the_files() {
    let tmp = rules_tree();
    let (rules, out) = (tmp.path().join("rules"), tmp.path().join("out"));
    fs::copy(corpus("broken/unit_mismatch.rule"), rules.join("unit_mismatch.rule")).unwrap();
    let (r, said) = compile(Builder::new().rules_dir(&rules).out_dir(&out).locked(false));
    let Err(e @ Error::Check { .. }) = r else { panic!("expected a check error, got {r:?}") };
    let shown = e.to_string();
    // As `rulec check` renders it: the code, file:line:col, the line and a caret.
    let broken = rules.join("unit_mismatch.rule");
    assert!(shown.starts_with("error[E060]: `+` between money[JPY, incl_tax] and money[JPY, excl_tax]"), "{shown}");
    assert!(shown.contains(&format!("--> {}:6:12", broken.display())), "{shown}");
    let mut sources = Sources::new();
    let checked = rulec::check_path(&mut sources, &broken, &rulec::analysis::Options::default()).unwrap();
    assert_eq!(shown, rulec::diag::render::text(&sources, &checked.diagnostics, false).trim_end());
    assert_eq!(format!("{e:?}"), shown, "Debug is the text too, so unwrap() prints it readably");
    // Every file read is still watched, the broken one included; nothing is written.
    assert!(said.contains(&format!("cargo:rerun-if-changed={}", broken.display())), "{said:#?}");
    assert_eq!(said.len(), 5);
    assert!(listing(&out).is_empty());
}

#[test]
fn emit_writes_another_languages_files_as_rulec_gen_does() {
    let tmp = rules_tree();
    let (rules, out, gen) = (tmp.path().join("rules"), tmp.path().join("out"), tmp.path().join("generated/rust"));
    let (r, _) =
        compile(Builder::new().rule(rules.join("parcel_rate.rule")).out_dir(&out).emit(Lang::Rust, &gen).locked(false));
    r.unwrap();
    let mut sources = Sources::new();
    let checked =
        rulec::check_path(&mut sources, &rules.join("parcel_rate.rule"), &rulec::analysis::Options::default()).unwrap();
    let unit = rulec::gen::Unit::of(&checked, &sources).unwrap();
    let want: Vec<_> = rulec::outputs::of_rule(&unit, &[Lang::Rust])
        .into_iter()
        .filter_map(|f| f.path.strip_prefix("rust/").map(|p| (p.to_string(), f.text.clone())))
        .collect();
    assert_eq!(listing(&gen), ["_helpers_runner.rs", "_wasi_runner.mjs", "parcel_rate.rs", "parcel_rate_runner.rs"]);
    for (name, text) in want {
        assert_eq!(fs::read_to_string(gen.join(&name)).unwrap(), text, "{name}");
    }
}

/// A lock as `rulec gen rules --out generated --lang rust` run in `root` writes it.
fn lock_for(root: &Path, rules: &[&str]) -> Lock {
    let mut entries = Vec::new();
    for r in rules {
        let path = root.join(r);
        let mut sources = Sources::new();
        let checked = rulec::check_path(&mut sources, &path, &rulec::analysis::Options::default()).unwrap();
        let unit = rulec::gen::Unit::of(&checked, &sources).unwrap();
        let artifacts = rulec::outputs::of_rule(&unit, &[Lang::Rust])
            .iter()
            .map(|f| {
                let lang = f.path.split('/').next().unwrap();
                Artifact::new(lang, &root.join("generated").join(&f.path), &f.text, root)
            })
            .collect();
        entries.push(LockedRule::fresh(&path, &unit, artifacts, root));
    }
    Lock::new(entries)
}

#[test]
fn locked_holds_the_generated_rust_to_the_lock() {
    let tmp = rules_tree();
    let root = tmp.path();
    let out = root.join("out");
    let lock_file = root.join("rulec.lock");
    let both = ["rules/parcel_rate.rule", "rules/single_coupon.rule"];
    let builder = |b: &mut Builder| {
        b.rule(root.join("rules/parcel_rate.rule")).rule(root.join("rules/single_coupon.rule")).out_dir(&out);
    };

    // A lock that agrees: compiles, and the lock is watched too.
    fs::write(&lock_file, lock_for(root, &both).to_toml()).unwrap();
    let mut b = Builder::new();
    builder(b.lock_file(&lock_file));
    let (r, said) = compile(&b);
    r.unwrap();
    assert_eq!(said.last().unwrap(), &format!("cargo:rerun-if-changed={}", lock_file.display()));
    assert_eq!(listing(&out), ["parcel_rate.rs", "single_coupon.rs"]);
    fs::remove_dir_all(&out).unwrap();

    // The locked Rust module differs (a rulec that writes other bytes): the file is named.
    let mut lock = lock_for(root, &both);
    let art = lock.rules[0].artifacts.iter_mut().find(|a| a.path.ends_with("rust/parcel_rate.rs")).unwrap();
    art.sha256 = rulec::lock::digest(b"other bytes");
    fs::write(&lock_file, lock.to_toml()).unwrap();
    let (r, _) = compile(&b);
    let Err(e @ Error::Locked { .. }) = r else { panic!("expected a lock error, got {r:?}") };
    assert_eq!(
        e.to_string(),
        format!(
            "error: generated/rust/parcel_rate.rs: the rust output differs from the lock (generated now from \
             rules/parcel_rate.rule)\nerror: the generation differs from {}; run `rulec gen` to update it, or pass \
             .locked(false)",
            lock_file.display()
        )
    );
    assert!(listing(&out).is_empty(), "nothing is written when the lock disagrees");

    // The rule was edited without re-locking: the source and its module both drift.
    fs::write(&lock_file, lock_for(root, &both).to_toml()).unwrap();
    let text = fs::read_to_string(root.join("rules/single_coupon.rule")).unwrap();
    fs::write(root.join("rules/single_coupon.rule"), text.replace("before rounding", "before it is rounded")).unwrap();
    let (r, _) = compile(&b);
    let shown = r.unwrap_err().to_string();
    assert!(shown.contains("error: rules/single_coupon.rule: the source changed since it was locked"), "{shown}");
    assert!(shown.contains("error: generated/rust/single_coupon.rs: the rust output differs from the lock"), "{shown}");
    assert!(!shown.contains("parcel_rate"), "{shown}");

    // A rule the lock does not know.
    fs::write(&lock_file, lock_for(root, &["rules/parcel_rate.rule"]).to_toml()).unwrap();
    let (r, _) = compile(&b);
    let shown = r.unwrap_err().to_string();
    assert!(shown.contains("error: rules/single_coupon.rule: not in rulec.lock"), "{shown}");

    // .locked(false) ignores it; a missing lock file given explicitly is an error.
    let (r, _) = compile(b.locked(false));
    r.unwrap();
    let (r, _) = compile(
        Builder::new().rule(root.join("rules/parcel_rate.rule")).out_dir(&out).lock_file(root.join("nope.lock")),
    );
    assert!(r.unwrap_err().to_string().contains("nope.lock does not exist"));
}

#[test]
fn without_out_dir_it_says_so() {
    if std::env::var_os("OUT_DIR").is_some() {
        return;
    }
    let (r, _) = compile(Builder::new().rule(corpus("parcel_rate.rule")).locked(false));
    assert!(r.unwrap_err().to_string().contains("OUT_DIR is not set"));
}
