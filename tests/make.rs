//! bazel/rulec.mk driven by a real make on a copy of examples/polyglot: the outputs are
//! `rulec gen`'s bytes; a rule's outputs are remade when the rule, an enums file it uses
//! or the rulec binary changes, and only then; make -j4 twice runs nothing the second time;
//! parallel runs lose no entry of the shared lock; `make check` names a hand-edited file and
//! a stale lock; the services' own tests pass against the generated code.
//!
//! make is always there; without python3 or go the service tests are skipped with a note,
//! unless CI is set.

mod common;
mod polyglot;

use polyglot::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `make ARGS` in `dir`, with RULEC the given binary.
fn make(dir: &Path, rulec: &Path, args: &[&str]) -> Output {
    Command::new("make")
        .args(args)
        .arg(format!("RULEC={}", rulec.display()))
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .output()
        .expect("make runs")
}

fn ok(o: &Output, what: &str) -> String {
    assert!(o.status.success(), "{what} failed:\n{}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stdout)
}

/// The `rulec gen` commands make ran, by the rule each generated.
fn generated_rules(stdout: &str) -> Vec<String> {
    let mut rules: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.split_once(" gen ").map(|(_, rest)| rest))
        .filter(|rest| rest.contains("--depfile"))
        .map(|rest| rest.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    rules.sort();
    rules
}

/// A copy of the example with its own copy of the rulec binary (so the test can touch it).
struct Workspace {
    _dir: tempfile::TempDir,
    example: PathBuf,
    bin: PathBuf,
}

fn workspace() -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    let example = copy_example(dir.path());
    let bin = dir.path().join("bin/rulec");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    install_rulec(&bin);
    Workspace { _dir: dir, example, bin }
}

/// Copies the rulec binary to `to` in a `cp` process of its own: copied here, the file would
/// be open for writing in this process while another test's thread forks, and the child then
/// holds it open until it execs — running the copy in that window fails with "Text file busy".
fn install_rulec(to: &Path) {
    let status = Command::new("cp").arg(rulec_bin()).arg(to).status().unwrap();
    assert!(status.success(), "cp {} {}", rulec_bin().display(), to.display());
}

#[test]
fn make_remakes_exactly_what_an_edit_touches_and_nothing_twice() {
    let ws = workspace();
    let (d, bin) = (ws.example.as_path(), ws.bin.as_path());
    let first = ok(&make(d, bin, &["-j4"]), "make -j4");
    let all = ["rules/member_discount.rule", "rules/parcel_rate.rule", "rules/single_coupon.rule"];
    assert_eq!(generated_rules(&first), all, "{first}");
    assert_eq!(read_tree(&d.join("generated")), rulec_gen_tree(d, "python,go"), "make writes rulec gen's bytes");

    // A second make -j4 runs no command at all.
    let second = ok(&make(d, bin, &["-j4"]), "make -j4, again");
    assert_eq!(second.trim(), "make: Nothing to be done for 'build'.", "{second}");
    assert!(make(d, bin, &["-q"]).status.success(), "make -q: up to date");

    // One rule edited: its rulec gen alone runs, and only its files (and its lock entry) change.
    let before = read_tree(d);
    edit_parcel_rate(d);
    let after_edit = ok(&make(d, bin, &["-j4"]), "make after editing parcel_rate");
    assert_eq!(generated_rules(&after_edit), ["rules/parcel_rate.rule"], "{after_edit}");
    let changed = changed_files(&before, &read_tree(d));
    let own: Vec<String> = own_files("parcel_rate", "parcelrate").iter().map(|f| format!("generated/{f}")).collect();
    let (generated, others): (Vec<&String>, Vec<&String>) = changed.iter().partition(|f| f.starts_with("generated/"));
    assert!(generated.iter().all(|f| own.contains(f)), "only parcel_rate's files change: {generated:?}");
    for module in ["generated/python/parcel_rate.py", "generated/go/parcelrate/parcelrate.go"] {
        assert!(generated.contains(&&module.to_string()), "{module} changed: {generated:?}");
    }
    assert_eq!(others, ["rulec.lock", "rules/parcel_rate.rule"], "and its entry of the lock");

    // The enums file edited: exactly the rule that uses it is regenerated.
    edit_tiers(d);
    let after_enums = ok(&make(d, bin, &["-j4"]), "make after editing tiers");
    assert_eq!(generated_rules(&after_enums), ["rules/member_discount.rule"], "{after_enums}");

    // A new rulec binary: every rule's outputs depend on it.
    std::thread::sleep(std::time::Duration::from_millis(1100)); // mtimes are compared, some filesystems keep seconds
    install_rulec(bin);
    let after_bin = ok(&make(d, bin, &["-j4"]), "make after a new rulec");
    assert_eq!(generated_rules(&after_bin), all, "{after_bin}");
    let settled = ok(&make(d, bin, &["-j4"]), "make, settled");
    assert_eq!(settled.trim(), "make: Nothing to be done for 'build'.");
    ok(&make(d, bin, &["check"]), "make check after the edits");
}

/// Paths (relative to the example) whose bytes differ between two snapshots.
fn changed_files(
    a: &std::collections::BTreeMap<String, Vec<u8>>,
    b: &std::collections::BTreeMap<String, Vec<u8>>,
) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).cloned().collect()
}

#[test]
fn make_j_from_nothing_locks_every_rule() {
    let ws = workspace();
    let (d, bin) = (ws.example.as_path(), ws.bin.as_path());
    std::fs::remove_dir_all(d.join("generated")).unwrap();
    std::fs::remove_file(d.join("rulec.lock")).unwrap();
    ok(&make(d, bin, &["-j4"]), "make -j4 from nothing");
    // Three rulec gen at once each merged their entries into the one lock.
    let lock = std::fs::read_to_string(d.join("rulec.lock")).unwrap();
    for r in ["rules/member_discount.rule", "rules/parcel_rate.rule", "rules/single_coupon.rule"] {
        assert!(lock.contains(&format!("path = \"{r}\"")), "{r} is locked:\n{lock}");
    }
    assert_eq!(lock, std::fs::read_to_string(Path::new(ROOT).join("examples/polyglot/rulec.lock")).unwrap());
    ok(&make(d, bin, &["check"]), "make check");
    let stray: Vec<String> = read_tree(d).into_keys().filter(|k| k.contains(".part") || k.ends_with(".tmp")).collect();
    assert!(stray.is_empty(), "no half-written file is left: {stray:?}");
}

#[test]
fn make_check_names_a_hand_edited_file_and_a_stale_lock() {
    let ws = workspace();
    let (d, bin) = (ws.example.as_path(), ws.bin.as_path());
    ok(&make(d, bin, &["check"]), "make check on the example as committed");

    let module = d.join("generated/python/single_coupon.py");
    let original = std::fs::read_to_string(&module).unwrap();
    edit(&module, "DO NOT EDIT.", "DO NOT EDIT (edited anyway).");
    let o = make(d, bin, &["check"]);
    assert!(!o.status.success(), "a hand edit fails make check");
    let err = text(&o.stderr);
    assert!(err.contains("generated/python/single_coupon.py: the file on disk differs from the lock"), "{err}");
    std::fs::write(&module, original).unwrap();
    ok(&make(d, bin, &["check"]), "make check once the file is restored");

    // The rule edited and not regenerated: the lock is stale.
    edit(&d.join("rules/single_coupon.rule"), "before rounding.", "before rounding (edited).");
    let o = make(d, bin, &["check"]);
    assert!(!o.status.success(), "a stale lock fails make check");
    let err = text(&o.stderr);
    assert!(err.contains("rules/single_coupon.rule: the source changed since it was locked"), "{err}");
    assert!(err.contains("generated/python/single_coupon.py: the output differs from the lock"), "{err}");
    ok(&make(d, bin, &[]), "make regenerates and relocks");
    ok(&make(d, bin, &["check"]), "make check after make");
}

#[test]
fn make_test_runs_rulec_test_and_the_services_tests() {
    if !have("python3", "apt-get install python3", "make test") || !have("go", "apt-get install golang-go", "make test")
    {
        return;
    }
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    let o = Command::new("make")
        .args(["test", &format!("RULEC={}", ws.bin.display())])
        .current_dir(&ws.example)
        .env("GOCACHE", home.path().join("go-cache"))
        .output()
        .unwrap();
    let out = ok(&o, "make test");
    for rule in ["member_discount", "parcel_rate", "single_coupon"] {
        for lang in ["python", "go"] {
            assert!(out.contains(&format!("ok {rule} ({lang})")), "{rule} in {lang}: {out}");
        }
    }
    assert!(text(&o.stderr).contains("Ran 3 tests") && text(&o.stderr).contains("OK"), "{}", text(&o.stderr));
    assert!(out.contains("ok  \texample.com/polyglot/checkout"), "{out}");
}

/// The committed example is what this rulec writes: generated/ and rulec.lock are up to date.
/// After a change to the generators, `make -C examples/polyglot RULEC=…/rulec` brings them up to date.
#[test]
fn the_committed_example_is_up_to_date() {
    let o = make(&Path::new(ROOT).join("examples/polyglot"), &rulec_bin(), &["check"]);
    assert!(
        o.status.success(),
        "examples/polyglot/generated or rulec.lock is stale: run `make -C examples/polyglot RULEC=$PWD/target/debug/rulec` and commit\n{}",
        text(&o.stderr)
    );
}

/// `--enums-modules`: the module of each enums file named, in the languages that give one its
/// own, from a rule that does not read it (what Bazel's first action of a target writes), the
/// bytes a rule that reads it writes; the enums file is then an input of the run, and is not
/// where another run writes its module.
#[test]
fn gen_writes_an_enums_files_module_when_asked_whoever_reads_it() {
    let ws = workspace();
    let d = ws.example.as_path();
    let gen = |args: &[&str]| Command::new(&ws.bin).arg("gen").args(args).current_dir(d).output().unwrap();
    let langs = "java,typescript,javascript,python,rust,go";
    let modules = [
        "java/Tiers.java",
        "typescript/tiers.ts",
        "javascript/tiers.mjs",
        "python/tiers.py",
        "rust/tiers.rs",
        "go/tiers/go.mod",
        "go/tiers/tiers.go",
    ];
    let o =
        gen(&["rules/member_discount.rule", "rules/shared/tiers.rule", "--lang", langs, "--out", "read", "--no-lock"]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let mut args: Vec<String> =
        ["rules/parcel_rate.rule", "rules/shared/tiers.rule", "--lang", langs].map(String::from).to_vec();
    args.extend(["--out", "named", "--no-lock", "--no-servers", "--quiet", "--enums-modules"].map(String::from));
    args.extend(["--unused-inputs-list", "unused.txt", "--depfile", "deps.d"].map(String::from));
    let rest = |only: &[&str], elsewhere: &[&str]| {
        let mut a = args.clone();
        for f in only {
            a.extend(["--only".to_string(), f.to_string()]);
        }
        for f in elsewhere {
            a.extend(["--written-elsewhere".to_string(), f.to_string()]);
        }
        a
    };
    let own: Vec<String> = [
        "java/ParcelRate.java",
        "java/ParcelRateRunner.java",
        "java/_helpers_runner.java",
        "typescript/parcel_rate.ts",
        "typescript/parcel_rate_runner.ts",
        "typescript/_helpers_runner.ts",
        "javascript/parcel_rate.mjs",
        "javascript/parcel_rate_runner.mjs",
        "javascript/_helpers_runner.mjs",
        "javascript/parcel_rate_page.html",
        "python/parcel_rate.py",
        "python/parcel_rate_runner.py",
        "python/_helpers_runner.py",
        "rust/parcel_rate.rs",
        "rust/parcel_rate_runner.rs",
        "rust/_helpers_runner.rs",
        "rust/_wasi_runner.mjs",
        "go/parcelrate/go.mod",
        "go/parcelrate/parcelrate.go",
        "go/parcelrate/cmd/runner/main.go",
        "go/_helpers_runner.go",
        "vectors/_helpers.jsonl",
        "vectors/_helpers.expected.jsonl",
        "vectors/parcel_rate.jsonl",
        "vectors/parcel_rate.expected.jsonl",
    ]
    .map(String::from)
    .to_vec();
    let own: Vec<&str> = own.iter().map(String::as_str).collect();

    // Undeclared, the modules are named.
    let o = gen(&rest(&own, &[]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(2));
    for m in modules {
        assert!(
            text(&o.stderr).contains(&format!("error: named/{m} is generated, but not declared")),
            "{}",
            text(&o.stderr)
        );
    }

    // Declared, they are written: the bytes of the rule that reads the enums file.
    let o = gen(&rest(&modules, &own).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let written: Vec<String> = read_tree(&d.join("named")).into_keys().collect();
    let mut sorted = modules.to_vec();
    sorted.sort();
    assert_eq!(written, sorted);
    for m in modules {
        assert_eq!(
            std::fs::read(d.join("named").join(m)).unwrap(),
            std::fs::read(d.join("read").join(m)).unwrap(),
            "{m}"
        );
    }
    assert_eq!(std::fs::read_to_string(d.join("unused.txt")).unwrap(), "", "its module was written from it");
    let deps = std::fs::read_to_string(d.join("deps.d")).unwrap();
    assert!(deps.starts_with("deps.d: rules/parcel_rate.rule rules/shared/tiers.rule\n"), "{deps}");

    // Written elsewhere, the enums file is no input of a rule that does not read it.
    let o = gen(&rest(&own, &modules).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(d.join("unused.txt")).unwrap(), "rules/shared/tiers.rule\n");

    // Without --only the flag is refused (no lock would list what it writes).
    let o = gen(&["rules/shared/tiers.rule", "--lang", "java", "--out", "x", "--enums-modules"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// The flags of `rulec gen` the two doors rely on, one by one, on the example's rules.
#[test]
fn gen_writes_what_a_build_declared_and_says_what_it_read() {
    let ws = workspace();
    let d = ws.example.as_path();
    let gen = |args: &[&str]| Command::new(&ws.bin).arg("gen").args(args).current_dir(d).output().unwrap();
    let out = "out";
    let lock_before = std::fs::read(d.join("rulec.lock")).unwrap();

    // --only: a file generated but not declared, and one declared but not generated, are named.
    let o = gen(&[
        "rules/parcel_rate.rule",
        "--lang",
        "python",
        "--out",
        out,
        "--no-lock",
        "--no-servers",
        "--only",
        "python/parcel_rate.py",
        "--only",
        "python/parcelrate.py",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("error: out/python/parcel_rate_runner.py is generated, but not declared"), "{err}");
    assert!(err.contains("error: out/python/parcelrate.py is declared, but not generated"), "{err}");
    assert!(!d.join(out).exists(), "nothing is written when the declaration is wrong");

    // Declared exactly: those files alone are written, no lock, and nothing is printed.
    let mut args: Vec<String> =
        ["rules/member_discount.rule", "rules/shared/tiers.rule", "rules/parcel_rate.rule", "--lang", "python"]
            .map(String::from)
            .to_vec();
    args.extend(
        ["--out", out, "--no-lock", "--no-servers", "--quiet", "--unused-inputs-list", "unused.txt"].map(String::from),
    );
    args.extend(["--depfile", "deps.d"].map(String::from));
    for r in ["member_discount", "parcel_rate"] {
        for f in [format!("python/{r}.py"), format!("python/{r}_runner.py")] {
            args.extend(["--only".to_string(), f]);
        }
        for f in [format!("vectors/{r}.jsonl"), format!("vectors/{r}.expected.jsonl")] {
            args.extend(["--only".to_string(), f]);
        }
    }
    // The enums file's module (python/tiers.py), as Bazel declares it for every rule's action.
    for f in
        ["python/_helpers_runner.py", "vectors/_helpers.jsonl", "vectors/_helpers.expected.jsonl", "python/tiers.py"]
    {
        args.extend(["--written-elsewhere".to_string(), f.to_string()]);
    }
    let o = gen(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "", "--quiet");
    let written: Vec<String> = read_tree(&d.join(out)).into_keys().collect();
    assert_eq!(written.len(), 8, "{written:?}");
    assert!(!written.iter().any(|f| f.contains("_helpers")), "{written:?}");
    assert_eq!(std::fs::read(d.join("rulec.lock")).unwrap(), lock_before, "--no-lock leaves the lock alone");
    // The enums file was read by member_discount, so nothing is unused; the depfile names it.
    assert_eq!(std::fs::read_to_string(d.join("unused.txt")).unwrap(), "");
    let deps = std::fs::read_to_string(d.join("deps.d")).unwrap();
    assert!(
        deps.starts_with("deps.d: rules/member_discount.rule rules/parcel_rate.rule rules/shared/tiers.rule\n"),
        "{deps}"
    );

    // parcel_rate alone does not read the enums file: it is unused.
    let o = gen(&[
        "rules/parcel_rate.rule",
        "rules/shared/tiers.rule",
        "--lang",
        "python",
        "--out",
        out,
        "--no-lock",
        "--unused-inputs-list",
        "unused.txt",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(d.join("unused.txt")).unwrap(), "rules/shared/tiers.rule\n");

    // A rule that reads an enums file the build did not name is refused.
    let o = gen(&[
        "rules/member_discount.rule",
        "--lang",
        "python",
        "--out",
        out,
        "--no-lock",
        "--unused-inputs-list",
        "u",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("error: a rule uses rules/shared/tiers.rule, which is not named on the command line"),
        "{}",
        text(&o.stderr)
    );
}
