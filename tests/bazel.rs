//! The Bazel rules of bazel/ driven by a real bazel (Debian's bazel-bootstrap 4.2.3) on a
//! copy of examples/polyglot, with every download pointed at a closed port:
//!
//! - `bazel build //...` and `bazel test //...` pass with nothing fetched; the generated
//!   files are `rulec gen`'s bytes, and the same from a second output base; no output holds
//!   an absolute path;
//! - editing one rule reruns that rule's action alone, editing an enums file exactly the
//!   actions of the rules that use it (read from bazel's execution log);
//! - the `locked` target fails on a hand-edited generated file and on a stale lock, naming
//!   the file;
//! - a second clean build against a real remote cache (BuildGrid on loopback) is served
//!   from it, byte for byte.
//!
//! One bazel at a time (the machine has two cores); each test shuts its servers down.
//! Without bazel (or BuildGrid, for the last) the tests say so and pass, unless CI is set.

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

    /// `bazel COMMAND ARGS` in the example, in the output base `base`.
    fn run(&self, base: &str, command: &str, args: &[&str]) -> Output {
        let mut c = Command::new("bazel");
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

    /// The spawns a build ran, from its execution log: (mnemonic, the rule file it read first).
    fn spawns(&self, base: &str, target: &str) -> Vec<(String, String)> {
        let log = self.bases.join(format!("{base}.exec.json"));
        self.ok(base, "build", &[target, &format!("--execution_log_json_file={}", log.display())]);
        let text = std::fs::read_to_string(&log).unwrap();
        let mut out: Vec<(String, String)> = serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .map(|s| {
                let s = s.expect("the execution log is JSON");
                let args: Vec<&str> =
                    s["commandArgs"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
                let rule = args.iter().find(|a| a.ends_with(".rule")).unwrap_or(&"").to_string();
                (s["mnemonic"].as_str().unwrap_or("").to_string(), rule)
            })
            .collect();
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

    // The same target from a second output base: the same bytes.
    bz.ok("b", "build", &["//:rules"]);
    assert_eq!(bz.tree("rules"), from_bazel, "a second output base builds the same files");
    bz.shutdown(&["a", "b"]);
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

/// A BuildGrid server on a loopback port, stopped when dropped.
struct BuildGrid {
    child: std::process::Child,
    port: u16,
    log: PathBuf,
}

impl BuildGrid {
    /// BuildGrid's `bgd`: RULEC_BGD (scripts/setup.sh installs it into a virtualenv) or the one on PATH.
    fn start(test: &str, config: &str, dir: &Path) -> Option<BuildGrid> {
        let bgd = std::env::var_os("RULEC_BGD").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("bgd"));
        if !Command::new(&bgd).arg("--help").output().is_ok_and(|o| o.status.success()) {
            assert!(std::env::var_os("CI").is_none(), "{test}: BuildGrid is not installed, and CI is set");
            eprintln!("note: {test} skipped: no BuildGrid (scripts/setup.sh installs it: pip install buildgrid)");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let yml = dir.join("buildgrid.yml");
        std::fs::write(
            &yml,
            std::fs::read_to_string(Path::new(ROOT).join(config)).unwrap().replace("${PORT}", &port.to_string()),
        )
        .unwrap();
        let log = dir.join("buildgrid.log");
        let child = Command::new(&bgd)
            .args(["server", "start"])
            .arg(&yml)
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::fs::File::create(dir.join("buildgrid.err")).unwrap())
            .spawn()
            .expect("bgd starts");
        let server = BuildGrid { child, port, log };
        // Ready when it accepts a connection: at most a minute on a busy machine.
        let ready = (0..600).any(|_| {
            let up = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
            if !up {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            up
        });
        assert!(
            ready,
            "BuildGrid did not listen on {port}:\n{}",
            std::fs::read_to_string(&server.log).unwrap_or_default()
        );
        Some(server)
    }

    fn url(&self) -> String {
        format!("grpc://127.0.0.1:{}", self.port)
    }
}

impl Drop for BuildGrid {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_clean_build_is_served_by_a_real_remote_cache() {
    let Some(bz) = Bazel::new("bazel --remote_cache") else { return };
    let Some(grid) = BuildGrid::start("bazel --remote_cache", "tests/remote/cache.yml", &bz.bases_dir()) else {
        return;
    };
    let cache = format!("--remote_cache={}", grid.url());
    let first = bz.ok("a", "build", &["//:rules", &cache]);
    assert!(first.contains("3 linux-sandbox") || first.contains("3 processwrapper-sandbox"), "{first}");
    let built = bz.tree("rules");
    // A second output base is a clean build: every action comes from the cache.
    let second = bz.ok("b", "build", &["//:rules", &cache]);
    assert!(second.contains("3 remote cache hit"), "{second}");
    assert_eq!(bz.tree("rules"), built, "the cached outputs are the built ones, byte for byte");
    bz.shutdown(&["a", "b"]);
}
