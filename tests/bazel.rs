//! The Bazel rules of bazel/ driven by a real bazel (Debian's bazel-bootstrap 4.2.3) on a
//! copy of examples/polyglot, with every download pointed at a closed port:
//!
//! - `bazel build //...` and `bazel test //...` pass with nothing fetched; the generated
//!   files are `rulec gen`'s bytes, and the same from a second output base (whose
//!   `//...` reads past the first one's convenience links); no output holds an absolute path;
//! - editing one rule reruns that rule's action alone, editing an enums file exactly the
//!   actions of the rules that use it (read from bazel's execution log);
//! - a target in java, typescript and javascript whose rules read an enums file builds: the
//!   enums file's module is declared once and written by the first rule file's action;
//! - the `locked` target fails on a hand-edited generated file and on a stale lock, naming
//!   the file;
//! - on a real remote executor (BuildGrid on loopback, with tests/remote/worker.py as its
//!   worker) the actions run remotely and give the local bytes; a third clean build is
//!   served from its cache.
//!
//! One bazel at a time (the machine has two cores); each test shuts its servers down.
//! Without bazel (or BuildGrid and PostgreSQL, for the last) the tests say so and pass, unless CI is set.

mod common;
mod polyglot;

use polyglot::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

static ONE_BAZEL: Mutex<()> = Mutex::new(());

/// A copy of the example and the bazel output bases built in it.
struct Bazel {
    _dir: tempfile::TempDir,
    example: PathBuf,
    bases: PathBuf,
    _one: MutexGuard<'static, ()>,
}

/// Any download goes through this proxy, and nothing listens there.
const CLOSED_PROXY: &str = "http://127.0.0.1:9";
/// The longest one bazel command may take, for `timeout`.
const BAZEL_LIMIT: &str = "900";

impl Bazel {
    fn new(test: &str) -> Option<Bazel> {
        let one = ONE_BAZEL.lock().unwrap_or_else(|e| e.into_inner());
        if !have("bazel", "apt-get install bazel-bootstrap", test) {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let example = copy_example(&dir.path().join("ws"));
        let bases = dir.path().join("bases");
        Some(Bazel { _dir: dir, example, bases, _one: one })
    }

    /// `bazel COMMAND ARGS` in the example, in the output base `base`. A run that has not
    /// ended in `BAZEL_LIMIT` is stopped and fails (an action a remote executor lost would
    /// otherwise keep the client waiting for ever).
    fn run(&self, base: &str, command: &str, args: &[&str]) -> Output {
        let mut c = Command::new("timeout");
        c.args(["--kill-after=10", BAZEL_LIMIT, "bazel"]);
        c.arg(format!("--output_base={}", self.bases.join(base).display()))
            .arg("--max_idle_secs=120")
            .arg(command)
            .current_dir(&self.example);
        if command != "shutdown" {
            c.arg(format!("--repo_env=RULEC={}", rulec_bin().display()));
        }
        for v in ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"] {
            c.env(v, CLOSED_PROXY);
        }
        c.env_remove("NO_PROXY").env_remove("no_proxy");
        c.args(args).output().expect("bazel runs")
    }

    fn ok(&self, base: &str, command: &str, args: &[&str]) -> String {
        let o = self.run(base, command, args);
        let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
        assert!(o.status.success(), "bazel {command} {args:?} failed:\n{all}");
        assert!(!all.contains("Download from"), "bazel tried the network:\n{all}");
        all
    }

    /// The files of a rulec_gen target as the last build in this example left them.
    fn tree(&self, target: &str) -> std::collections::BTreeMap<String, Vec<u8>> {
        read_tree(&self.example.join("bazel-bin").join(target))
    }

    /// The spawns a build of `targets` ran, from its execution log.
    fn exec_log(&self, base: &str, targets: &[&str]) -> Vec<serde_json::Value> {
        let log = self.bases.join(format!("{base}.exec.json"));
        let mut args = targets.to_vec();
        let flag = format!("--execution_log_json_file={}", log.display());
        args.push(&flag);
        self.ok(base, "build", &args);
        let text = std::fs::read_to_string(&log).unwrap();
        serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .map(|s| s.expect("the execution log is JSON"))
            .collect()
    }

    /// The spawns a build ran, from its execution log: (mnemonic, the rule file it read first).
    fn spawns(&self, base: &str, target: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self.exec_log(base, &[target]).iter().map(spawn_of).collect();
        out.sort();
        out
    }

    fn bases_dir(&self) -> PathBuf {
        std::fs::create_dir_all(&self.bases).unwrap();
        self.bases.clone()
    }

    fn shutdown(&self, bases: &[&str]) {
        for b in bases {
            let _ = self.run(b, "shutdown", &[]);
        }
    }
}

/// A spawn of the execution log as (mnemonic, the rule file it read first).
fn spawn_of(s: &serde_json::Value) -> (String, String) {
    let args: Vec<&str> = s["commandArgs"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    let rule = args.iter().find(|a| a.ends_with(".rule")).unwrap_or(&"").to_string();
    (s["mnemonic"].as_str().unwrap_or("").to_string(), rule)
}

fn gen_of(rule: &str) -> (String, String) {
    ("RulecGen".to_string(), format!("rules/{rule}.rule"))
}

#[test]
fn bazel_builds_and_tests_the_example_offline_with_rulec_gens_bytes() {
    let Some(bz) = Bazel::new("bazel build //...") else { return };
    let build = bz.ok("a", "build", &["//..."]);
    assert!(build.contains("Build completed successfully"), "{build}");
    let tests = bz.ok("a", "test", &["//..."]);
    assert!(tests.contains("Executed 4 out of 4 tests: 4 tests pass."), "{tests}");
    // rulec_test ran both languages, not a skip.
    let log = std::fs::read_to_string(bz.example.join("bazel-testlogs/rules_test/test.log")).unwrap();
    for rule in ["_helpers", "member_discount", "parcel_rate", "single_coupon"] {
        for lang in ["python", "go"] {
            assert!(log.contains(&format!("ok {rule} ({lang})")), "{rule} in {lang}:\n{log}");
        }
    }

    let from_bazel = bz.tree("rules");
    assert_eq!(from_bazel, rulec_gen_tree(&bz.example, "python,go"), "bazel-bin/rules is rulec gen's tree");
    assert_eq!(from_bazel, read_tree(&bz.example.join("generated")), "and make's, as committed");
    let roots = [bz.example.to_string_lossy().into_owned(), bz.bases.to_string_lossy().into_owned()];
    for (path, bytes) in &from_bazel {
        let t = text(bytes);
        assert!(!roots.iter().any(|r| t.contains(r.as_str())), "{path} holds an absolute path");
        assert!(!t.contains("bazel-out") && !t.contains("execroot"), "{path} names Bazel's folders");
    }

    // Every target from a second output base, beside the first one's links: the same bytes.
    let again = bz.ok("b", "build", &["//..."]);
    assert!(again.contains("Build completed successfully"), "{again}");
    assert_eq!(bz.tree("rules"), from_bazel, "a second output base builds the same files");
    bz.shutdown(&["a", "b"]);
}

/// The example's .bazelignore names every convenience link a build leaves in it (they are
/// named after the workspace's folder), so that a build from another output base does not
/// read the first one's tree as packages (the build above runs that case where bazel is).
#[test]
fn the_example_ignores_bazels_convenience_links() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/polyglot");
    let ignored = std::fs::read_to_string(example.join(".bazelignore")).expect("examples/polyglot/.bazelignore");
    let lines: Vec<&str> = ignored.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let folder = example.file_name().unwrap().to_string_lossy();
    for link in ["bin", "out", "testlogs", &folder] {
        let name = format!("bazel-{link}");
        assert!(lines.contains(&name.as_str()), ".bazelignore lacks {name}: {lines:?}");
    }
}

#[test]
fn an_edit_reruns_only_the_actions_of_the_rules_it_touches() {
    let Some(bz) = Bazel::new("bazel incremental") else { return };
    let first = bz.spawns("a", "//:rules");
    let every: Vec<(String, String)> =
        ["member_discount", "parcel_rate", "single_coupon"].iter().map(|r| gen_of(r)).collect();
    assert_eq!(first, every, "one action per rule file");
    assert_eq!(bz.spawns("a", "//:rules"), [], "nothing changed, nothing runs");

    let before = bz.tree("rules");
    edit_parcel_rate(&bz.example);
    assert_eq!(bz.spawns("a", "//:rules"), [gen_of("parcel_rate")], "one rule edited");
    let after = bz.tree("rules");
    for (path, bytes) in &before {
        let own = own_files("parcel_rate", "parcelrate").contains(path);
        assert!(own || after.get(path) == Some(bytes), "{path} changed, but is not parcel_rate's");
    }
    assert_ne!(after["python/parcel_rate.py"], before["python/parcel_rate.py"]);

    edit_tiers(&bz.example);
    assert_eq!(bz.spawns("a", "//:rules"), [gen_of("member_discount")], "the enums file only member_discount uses");
    bz.shutdown(&["a"]);
}

/// Two targets whose rules read the example's enums file in languages that give it a module
/// of its own (Go's a package): every rule (`:jts`), and parcel_rate alone, which does not
/// read it (`:jts_alone`).
const ENUMS_MODULE_TARGETS: &str = r#"
rulec_gen(
    name = "jts",
    langs = ["java", "typescript", "javascript", "python", "go"],
    deps = [":shop_rules"],
)

rulec_gen(
    name = "jts_alone",
    srcs = ["rules/parcel_rate.rule"],
    enums = ["rules/shared/tiers.rule"],
    langs = ["java", "typescript", "javascript", "python", "go"],
)
"#;

/// A target whose rule reads an enums file in java, typescript, javascript, python and go
/// builds: the enums file's module (`Tiers.java`, `tiers.ts`, `tiers.mjs`, `tiers.py`,
/// `tiers/go.mod` and `tiers/tiers.go`) is declared once and written
/// by the action of the target's first rule file alone, with rulec gen's bytes, even where
/// that rule does not read the enums file; an edit of the enums file reruns the rules that
/// read it (and the first), no other.
#[test]
fn an_enums_files_module_is_declared_once_and_written_by_the_first_rules_action() {
    let Some(bz) = Bazel::new("bazel enums modules") else { return };
    let build = bz.example.join("BUILD.bazel");
    let text_before = std::fs::read_to_string(&build).unwrap();
    std::fs::write(&build, text_before + ENUMS_MODULE_TARGETS).unwrap();
    let modules = [
        "java/Tiers.java",
        "typescript/tiers.ts",
        "javascript/tiers.mjs",
        "python/tiers.py",
        "go/tiers/go.mod",
        "go/tiers/tiers.go",
    ];

    let log = bz.exec_log("a", &["//:jts", "//:jts_alone"]);
    let writers = |target: &str, module: &str| -> Vec<(String, String)> {
        let out = format!("/bin/{target}/{module}");
        log.iter()
            .filter(|s| {
                s["listedOutputs"].as_array().is_some_and(|o| o.iter().any(|p| p.as_str().unwrap().ends_with(&out)))
            })
            .map(spawn_of)
            .collect()
    };
    for m in modules {
        assert_eq!(writers("jts", m), [gen_of("member_discount")], "{m}: written once, by the first rule's action");
        assert_eq!(writers("jts_alone", m), [gen_of("parcel_rate")], "{m}: written by a rule that does not read it");
    }
    let reference = rulec_gen_tree(&bz.example, "java,typescript,javascript,python,go");
    let jts = bz.tree("jts");
    assert_eq!(jts, reference, "bazel-bin/jts is rulec gen's tree");
    let alone = bz.tree("jts_alone");
    for m in modules {
        assert_eq!(alone.get(m), Some(&reference[m]), "{m} from parcel_rate's action");
    }

    edit_tiers(&bz.example);
    assert_eq!(bz.spawns("a", "//:jts"), [gen_of("member_discount")], "the enums file only member_discount reads");
    assert_ne!(bz.tree("jts")["java/Tiers.java"], reference["java/Tiers.java"], "its module follows it");
    bz.shutdown(&["a"]);
}

#[test]
fn the_locked_target_names_a_hand_edited_file_and_a_stale_lock() {
    let Some(bz) = Bazel::new("bazel locked") else { return };
    bz.ok("a", "build", &["//:rules_locked"]);

    let module = bz.example.join("generated/python/parcel_rate.py");
    let original = std::fs::read(&module).unwrap();
    edit(&module, "DO NOT EDIT.", "DO NOT EDIT (edited anyway).");
    let o = bz.run("a", "build", &["//:rules_locked"]);
    assert!(!o.status.success(), "a hand-edited generated file fails the locked build");
    let err = text(&o.stderr);
    assert!(err.contains("generated/python/parcel_rate.py: the file on disk differs from the lock"), "{err}");
    std::fs::write(&module, original).unwrap();
    bz.ok("a", "build", &["//:rules_locked"]);

    edit(&bz.example.join("rules/single_coupon.rule"), "before rounding.", "before rounding (edited).");
    let o = bz.run("a", "build", &["//:rules_locked"]);
    assert!(!o.status.success(), "a stale lock fails the locked build");
    let err = text(&o.stderr);
    assert!(err.contains("rules/single_coupon.rule: the source changed since it was locked"), "{err}");
    assert!(err.contains("generated/go/singlecoupon/singlecoupon.go: the output differs from the lock"), "{err}");
    assert!(!err.contains("parcel_rate"), "the other rules are not blamed:\n{err}");

    // make regenerates and relocks; the locked build agrees again.
    let m = Command::new("make").arg(format!("RULEC={}", rulec_bin().display())).current_dir(&bz.example).output();
    assert!(m.unwrap().status.success());
    bz.ok("a", "build", &["//:rules_locked"]);
    bz.shutdown(&["a"]);
}

/// A process the test started, ended (by its id) when dropped.
struct Started(std::process::Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free loopback port, and a wait (a minute at most) for a server to listen on it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for(port: u16, what: &str, log: &Path) {
    let up = (0..600).any(|_| {
        let up = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
        if !up {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        up
    });
    assert!(up, "{what} did not listen on {port}:\n{}", std::fs::read_to_string(log).unwrap_or_default());
}

/// A PostgreSQL cluster of its own in `dir` (BuildGrid's scheduler keeps its jobs there),
/// stopped when dropped. initdb refuses root, so as root it runs as the `postgres` user.
struct Postgres {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_root: bool,
}

impl Postgres {
    fn bin_dir() -> Option<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|b| b.join("initdb").is_file())
            .collect();
        found.sort();
        found.pop()
    }

    fn command(&self, program: &str) -> Command {
        let mut c = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(self.bin.join(program));
            c
        } else {
            Command::new(self.bin.join(program))
        };
        c.current_dir("/");
        c
    }

    fn start(bin: PathBuf, dir: &Path) -> Postgres {
        let as_root = Command::new("id").arg("-u").output().is_ok_and(|o| text(&o.stdout).trim() == "0");
        std::fs::create_dir_all(dir).unwrap();
        if as_root {
            assert!(Command::new("chown").arg("postgres").arg(dir).status().unwrap().success());
        }
        let pg = Postgres { bin, data: dir.join("data"), port: free_port(), as_root };
        let init = pg.command("initdb").arg("-D").arg(&pg.data).args(["-U", "postgres", "--auth=trust"]).output();
        assert!(init.as_ref().is_ok_and(|o| o.status.success()), "initdb: {init:?}");
        let options = format!("-c listen_addresses=127.0.0.1 -p {} -k {}", pg.port, dir.display());
        let log = dir.join("postgres.log");
        let started = pg
            .command("pg_ctl")
            .arg("-D")
            .arg(&pg.data)
            .args(["-o", &options, "-l"])
            .arg(&log)
            .args(["-w", "start"])
            .output();
        assert!(
            started.unwrap().status.success(),
            "pg_ctl start:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        pg
    }

    fn url(&self) -> String {
        format!("postgresql+psycopg2://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.command("pg_ctl").arg("-D").arg(&self.data).args(["-m", "fast", "-w", "stop"]).output();
    }
}

/// BuildGrid's `bgd`: RULEC_BGD (scripts/setup.sh installs it into a virtualenv, with the
/// Python that runs tests/remote/worker.py beside it) or the one on PATH.
fn buildgrid(test: &str) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let bgd = std::env::var_os("RULEC_BGD").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("bgd"));
    let python = bgd.parent().map(|b| b.join("python")).unwrap_or_else(|| PathBuf::from("python3"));
    let ok = Command::new(&bgd).arg("--help").output().is_ok_and(|o| o.status.success());
    let pg = Postgres::bin_dir();
    if !ok || pg.is_none() {
        assert!(std::env::var_os("CI").is_none(), "{test}: BuildGrid or PostgreSQL is not installed, and CI is set");
        eprintln!("note: {test} skipped: no BuildGrid or PostgreSQL (scripts/setup.sh installs both)");
        return None;
    }
    Some((bgd, python, pg.unwrap()))
}

#[test]
fn the_rules_run_on_a_remote_executor_and_come_back_from_its_cache() {
    let test = "bazel --remote_executor";
    let Some(bz) = Bazel::new(test) else { return };
    let Some((bgd, python, pg_bin)) = buildgrid(test) else { return };
    let dir = bz.bases_dir().join("remote");
    let pg = Postgres::start(pg_bin, &dir.join("pg"));
    let migrate = Command::new(&bgd).args(["migrate", "apply", &pg.url()]).output().unwrap();
    assert!(migrate.status.success(), "bgd migrate: {}", text(&migrate.stderr));

    let port = free_port();
    let config = std::fs::read_to_string(Path::new(ROOT).join("tests/remote/buildgrid.yml"))
        .unwrap()
        .replace("${PORT}", &port.to_string())
        .replace("${DATABASE}", &pg.url());
    std::fs::write(dir.join("buildgrid.yml"), config).unwrap();
    let log = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let _server = Started(
        Command::new(&bgd)
            .args(["server", "start"])
            .arg(dir.join("buildgrid.yml"))
            .stdout(log("buildgrid.log"))
            .stderr(log("buildgrid.err"))
            .spawn()
            .unwrap(),
    );
    wait_for(port, "BuildGrid", &dir.join("buildgrid.err"));
    let url = format!("grpc://127.0.0.1:{port}");
    std::fs::create_dir_all(dir.join("work")).unwrap();
    let _worker = Started(
        Command::new(&python)
            .arg(Path::new(ROOT).join("tests/remote/worker.py"))
            .arg(&url)
            .arg(dir.join("work"))
            .stdout(log("worker.log"))
            .stderr(log("worker.err"))
            .spawn()
            .unwrap(),
    );

    // One output base, cleaned between the builds: a local build, the same on the remote
    // executor, then from the remote cache alone.
    bz.ok("a", "build", &["//:rules"]);
    let local = bz.tree("rules");
    bz.ok("a", "clean", &[]);
    // Every action on BuildGrid's worker, in a folder holding the declared inputs alone.
    let remote = bz.ok("a", "build", &["//:rules", &format!("--remote_executor={url}")]);
    assert!(remote.contains("3 remote"), "{remote}\n{}", std::fs::read_to_string(dir.join("worker.err")).unwrap());
    let worker = std::fs::read_to_string(dir.join("worker.log")).unwrap();
    assert_eq!(worker.matches(": exit 0").count(), 3, "the worker ran the three actions:\n{worker}");
    assert_eq!(bz.tree("rules"), local, "the remote outputs are the local ones, byte for byte");
    bz.ok("a", "clean", &[]);
    let cached = bz.ok("a", "build", &["//:rules", &format!("--remote_cache={url}")]);
    assert!(cached.contains("3 remote cache hit"), "{cached}");
    assert_eq!(bz.tree("rules"), local, "and so are the cached ones");
    bz.shutdown(&["a"]);
}
