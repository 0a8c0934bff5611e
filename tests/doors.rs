//! The two Rust doors under a real cargo: a copy of examples/shipping-service, with an
//! `include_rule!` of its own, built as a standalone crate whose path dependencies point back
//! at this repository. One crate and one test, so the first build — which compiles rulec for
//! the build script and the macro — is paid once; its target folder stays under
//! CARGO_TARGET_TMPDIR, so a second run only rebuilds the fixture.
//!
//! What it holds: cargo reruns build.rs when a rule or the enums file it uses changes and not
//! for any other edit; the crate recompiles when the rule behind `include_rule!` changes; a
//! rule with a check error fails the build with the diagnostics `rulec check` prints, through
//! either door; a `rulec.lock` at the workspace root is found, agrees with build.rs byte for
//! byte, and fails the build once the rule drifts from it.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Fixture {
    dir: tempfile::TempDir,
    target: PathBuf,
}

struct Build {
    ok: bool,
    /// cargo's stderr and stdout.
    log: String,
}

impl Build {
    /// Whether cargo ran the build script (`-v` prints the command it runs).
    fn ran_build_script(&self) -> bool {
        self.log.contains("build-script-build`")
    }
    /// Whether cargo compiled the library (as opposed to finding it fresh).
    fn compiled_lib(&self) -> bool {
        self.log.contains("--crate-name shipping_service")
    }
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let example = repo().join("examples/shipping-service");
        for entry in walkdir::WalkDir::new(&example) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(&example).unwrap();
            if rel.starts_with("tests") || rel.starts_with("target") || rel == Path::new("Cargo.toml") {
                continue;
            }
            if entry.file_type().is_dir() {
                fs::create_dir_all(root.join(rel)).unwrap();
            } else {
                fs::copy(entry.path(), root.join(rel)).unwrap();
            }
        }
        fs::write(
            root.join("Cargo.toml"),
            format!(
                "[package]\nname = \"shipping-service\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
                 [dependencies]\nrulec-macros = {{ path = {:?} }}\n\n\
                 [build-dependencies]\nrulec-build = {{ path = {:?} }}\n\n\
                 [workspace]\n\n[profile.dev]\ndebug = 0\n",
                repo().join("rulec-macros"),
                repo().join("rulec-build"),
            ),
        )
        .unwrap();
        // The same versions as this workspace, so nothing is fetched.
        fs::copy(repo().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
        // The macro door, beside the build.rs one.
        fs::create_dir_all(root.join("macro")).unwrap();
        fs::copy(repo().join("examples/macro-user/rules/late_fee.rule"), root.join("macro/late_fee.rule")).unwrap();
        let lib = fs::read_to_string(root.join("src/lib.rs")).unwrap();
        fs::write(root.join("src/lib.rs"), format!("{lib}\nrulec_macros::include_rule!(\"macro/late_fee.rule\");\n"))
            .unwrap();
        Fixture { dir, target: Path::new(env!("CARGO_TARGET_TMPDIR")).join("doors-target") }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn build(&self, what: &str) -> Build {
        let started = Instant::now();
        let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "-v", "--offline", "--color", "never"])
            .current_dir(self.root())
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("RUSTC_WRAPPER")
            .output()
            .expect("cargo runs");
        let log = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        eprintln!("doors: {what}: cargo build took {:.1}s", started.elapsed().as_secs_f64());
        Build { ok: out.status.success(), log }
    }

    /// Rewrite a file with a change, after a pause that keeps its time after the last build's.
    fn edit(&self, rel: &str, from: &str, to: &str) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let path = self.root().join(rel);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }

    /// The build script's run: its `output` (what it told cargo) and its OUT_DIR.
    fn script_run(&self) -> (String, PathBuf) {
        let build = self.target.join("debug/build");
        let run = fs::read_dir(&build)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("shipping-service-"))
            .filter(|p| p.join("output").is_file())
            .max_by_key(|p| fs::metadata(p.join("output")).unwrap().modified().unwrap())
            .expect("the build script ran");
        (fs::read_to_string(run.join("output")).unwrap(), run.join("out"))
    }

    /// What `rulec check` prints for one file, without its closing count.
    fn check_text(&self, rel: &str) -> String {
        let out = common::command().args(["check", "--color", "never", rel]).current_dir(self.root()).output().unwrap();
        assert!(!out.status.success());
        let text = String::from_utf8(out.stderr).unwrap();
        text.lines().filter(|l| !l.starts_with("checked ")).collect::<Vec<_>>().join("\n")
    }
}

/// Every line of `rendered` appears in `log`, in order.
fn shows_rendered(log: &str, rendered: &str) -> bool {
    let mut rest = log;
    for line in rendered.lines().filter(|l| !l.trim().is_empty()) {
        match rest.find(line) {
            Some(at) => rest = &rest[at + line.len()..],
            None => {
                eprintln!("missing from cargo's output: {line:?}");
                return false;
            }
        }
    }
    true
}

#[test]
fn both_doors_under_cargo() {
    let started = Instant::now();
    let fx = Fixture::new();

    // 1. The first build runs build.rs, which watches exactly the four rule files it read.
    let b = fx.build("first build");
    assert!(b.ok, "{}", b.log);
    assert!(b.ran_build_script(), "{}", b.log);
    let (said, out_dir) = fx.script_run();
    let rerun: Vec<&str> = said.lines().filter(|l| l.starts_with("cargo:rerun-if-changed=")).collect();
    assert_eq!(
        rerun,
        [
            "cargo:rerun-if-changed=rules/member_discount.rule",
            "cargo:rerun-if-changed=rules/shared/tiers.rule",
            "cargo:rerun-if-changed=rules/parcel_rate.rule",
            "cargo:rerun-if-changed=rules/single_coupon.rule",
        ],
        "{said}"
    );
    assert_eq!(rerun.len(), said.lines().count(), "nothing but the rule files: {said}");
    let module = out_dir.join("parcel_rate.rs");
    assert!(fs::read_to_string(&module).unwrap().starts_with("// Code generated by rulec"));

    // 2. Nothing changed: nothing runs.
    let b = fx.build("no change");
    assert!(b.ok && !b.ran_build_script() && !b.compiled_lib(), "{}", b.log);

    // 3. Unrelated edits — a new file beside the rules, a README, the library's own source —
    //    do not rerun build.rs (the library recompiles for its own source, and only for that).
    std::thread::sleep(std::time::Duration::from_millis(50));
    fs::write(fx.root().join("rules/NOTES.md"), "prices change on the first of the month\n").unwrap();
    fs::write(fx.root().join("README.md"), "a fixture\n").unwrap();
    let b = fx.build("unrelated files");
    assert!(b.ok && !b.ran_build_script() && !b.compiled_lib(), "{}", b.log);
    fx.edit("src/lib.rs", "//! A small shipping service", "//! A small (edited) shipping service");
    let b = fx.build("src/lib.rs edited");
    assert!(b.ok && !b.ran_build_script() && b.compiled_lib(), "{}", b.log);

    // 4. The rule behind include_rule! recompiles the crate, without rerunning build.rs.
    fx.edit("macro/late_fee.rule", "Late fee on an invoice", "Late fee on an unpaid invoice");
    let b = fx.build("include_rule!'s rule edited");
    assert!(b.ok && !b.ran_build_script() && b.compiled_lib(), "{}", b.log);

    // 5. A rule edit reruns build.rs, and the module in OUT_DIR follows it.
    fx.edit("rules/parcel_rate.rule", "What one parcel costs", "What one parcel costs today");
    let b = fx.build("rule edited");
    assert!(b.ok && b.ran_build_script() && b.compiled_lib(), "{}", b.log);
    assert!(fs::read_to_string(&module).unwrap().contains("What one parcel costs today"));

    // 6. So does an edit of the enums file a rule uses.
    fx.edit("rules/shared/tiers.rule", "Member tiers shared", "The member tiers shared");
    let b = fx.build("enums file edited");
    assert!(b.ok && b.ran_build_script(), "{}", b.log);

    // 7. A check error fails build.rs with what `rulec check` prints: code, file:line:col, caret.
    fx.edit("rules/parcel_rate.rule", "| canada   | small  | 10USD |", "| canada   | small  | 12USD |");
    let b = fx.build("rule broken (build.rs)");
    assert!(!b.ok, "{}", b.log);
    assert!(b.log.contains("error[E111]: expect disagrees: fee is 14USD, not 11USD"), "{}", b.log);
    assert!(b.log.contains("--> rules/parcel_rate.rule:56:68"), "{}", b.log);
    assert!(shows_rendered(&b.log, &fx.check_text("rules/parcel_rate.rule")), "{}", b.log);
    fx.edit("rules/parcel_rate.rule", "| canada   | small  | 12USD |", "| canada   | small  | 10USD |");

    // 8. …and include_rule! with a compile_error! at the call carrying the same text.
    fx.edit("macro/late_fee.rule", "fee=1930JPY", "fee=1931JPY");
    let b = fx.build("rule broken (include_rule!)");
    assert!(!b.ok, "{}", b.log);
    assert!(b.log.contains("error[E111]: expect disagrees: fee is 1930JPY, not 1931JPY"), "{}", b.log);
    assert!(b.log.contains("--> macro/late_fee.rule:38:65"), "{}", b.log);
    assert!(b.log.contains("src/lib.rs:"), "the error sits at the macro call: {}", b.log);
    assert!(shows_rendered(&b.log, &fx.check_text("macro/late_fee.rule")), "{}", b.log);
    fx.edit("macro/late_fee.rule", "fee=1931JPY", "fee=1930JPY");
    let b = fx.build("both fixed");
    assert!(b.ok, "{}", b.log);

    // 8b. A clean rule's warning is a compiler warning at include_rule!'s call, speaking of
    //     Rust alone (`type` is a keyword of Go too); beside an error it comes second.
    fx.edit("macro/late_fee.rule", "define grace:", "define type:");
    fx.edit("macro/late_fee.rule", "- grace * 10JPY", "- type * 10JPY");
    let b = fx.build("a warning (include_rule!)");
    assert!(b.ok, "{}", b.log);
    assert!(b.log.contains("warning[W121]: `type` is a keyword"), "{}", b.log);
    assert!(b.log.contains("renamed in generated code: Rust writes `type_`\n"), "{}", b.log);
    fx.edit("macro/late_fee.rule", "fee=1930JPY", "fee=1931JPY");
    let b = fx.build("an error beside a warning (include_rule!)");
    assert!(!b.ok, "{}", b.log);
    let headline = b.log.lines().find(|l| l.starts_with("error")).unwrap_or_default();
    assert_eq!(headline, "error: error[E111]: expect disagrees: fee is 1930JPY, not 1931JPY", "{}", b.log);
    fx.edit("macro/late_fee.rule", "fee=1931JPY", "fee=1930JPY");
    fx.edit("macro/late_fee.rule", "define type:", "define grace:");
    fx.edit("macro/late_fee.rule", "- type * 10JPY", "- grace * 10JPY");

    // 9. A rulec.lock at the workspace root, written by `rulec gen`: build.rs finds it through
    //    cargo metadata, holds its module to it (they agree byte for byte) and watches it…
    let gen = common::command()
        .args(["gen", "rules", "--out", "generated", "--lang", "rust"])
        .current_dir(fx.root())
        .output()
        .unwrap();
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    assert!(fx.root().join("rulec.lock").is_file());
    // (A new lock is not watched until build.rs runs again: a rule edit, or touching build.rs.)
    fx.edit(
        "build.rs",
        "fn main() -> Result<(), rulec_build::Error> {",
        "fn main() -> Result<(), rulec_build::Error> { // locked",
    );
    let b = fx.build("locked, agreeing");
    assert!(b.ok && b.ran_build_script(), "{}", b.log);
    let (said, _) = fx.script_run();
    assert!(said.lines().any(|l| l.starts_with("cargo:rerun-if-changed=") && l.ends_with("/rulec.lock")), "{said}");

    //    …and fails once a rule is edited without locking it again, naming the files.
    fx.edit("rules/parcel_rate.rule", "What one parcel costs today", "What one parcel costs now");
    let b = fx.build("locked, rule drifted");
    assert!(!b.ok, "{}", b.log);
    assert!(b.log.contains("error: rules/parcel_rate.rule: the source changed since it was locked"), "{}", b.log);
    assert!(b.log.contains("error: generated/rust/parcel_rate.rs: the rust output differs from the lock"), "{}", b.log);
    assert!(!b.log.contains("single_coupon.rule:"), "only the drifted rule is named: {}", b.log);

    eprintln!("doors: the whole test took {:.1}s", started.elapsed().as_secs_f64());
}

/// Neither crate is on crates.io yet; packaging the three together (cargo resolves each path
/// dependency to the package beside it) is the step before publishing them, and passes.
#[test]
fn the_three_crates_package_together() {
    let target = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["package", "-p", "rulec", "-p", "rulec-build", "-p", "rulec-macros"])
        .args(["--no-verify", "--offline", "--allow-dirty", "--target-dir"])
        .arg(target.path())
        .current_dir(repo())
        .output()
        .expect("cargo runs");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    for krate in ["rulec", "rulec-build", "rulec-macros"] {
        assert!(target.path().join(format!("package/{krate}-0.1.0.crate")).is_file(), "{log}");
    }
}
