//! `rulec test`: build each language's runner, feed it the vectors, and compare every line
//! it prints with the reference evaluator's, byte for byte (values, trace and refusals).
//! Adding a language is adding a backend: the harness only reads its `Runner`.
//!
//! Every (language, rule) pair is a job; jobs run on as many threads as the machine has
//! cores, and the report lists them in one fixed order whatever order they finished in.

pub mod http;
pub mod serve;

use crate::gen::{self, Lang};
use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct TestResult {
    pub rule: String,
    pub lang: Lang,
    /// How the vectors reached the code (`gen::Pass::via`): `runner` for a language's own
    /// runner; `sqlite` and `postgresql` for SQL's two doors; else one of its servers
    /// (`mcp`, `connect-wsgi`…).
    pub via: &'static str,
    pub vectors: usize,
    pub refused: usize,
    pub ok: bool,
    /// False when the runner could not be built or started: says nothing about the rule.
    pub ran: bool,
    pub first_diff: Option<Json>,
    pub error: Option<String>,
}

/// A language (or one pass of it) that was not run at all, and why (a toolchain missing, a
/// server out of reach, nothing generated).
#[derive(Clone, Debug)]
pub struct Skipped {
    pub lang: Lang,
    /// The pass (`gen::Pass::via`) that was not run; `runner` for a language's only one.
    pub via: &'static str,
    pub reason: String,
}

/// A rule a language left out when it was generated (`Backend::refuses`, by name with the
/// reason): nothing to run, and no failure — the generator said so.
#[derive(Clone, Debug)]
pub struct LeftOut {
    pub rule: String,
    pub lang: Lang,
    pub reason: String,
}

#[derive(Default, Debug)]
pub struct Report {
    pub results: Vec<TestResult>,
    pub skipped: Vec<Skipped>,
    pub left_out: Vec<LeftOut>,
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The languages to test (every generated one when empty).
    pub langs: Vec<Lang>,
    /// A language skipped or not run fails the run.
    pub require_all: bool,
    /// Jobs at once (the machine's cores when 0).
    pub jobs: usize,
}

impl Report {
    /// Whether the run passes: every result agrees; with `require_all`, nothing was skipped.
    pub fn ok(&self, require_all: bool) -> bool {
        self.results.iter().all(|r| r.ok) && (!require_all || self.skipped.is_empty())
    }

    pub fn to_json(&self) -> Json {
        let results: Vec<Json> = self
            .results
            .iter()
            .map(|r| {
                json!({"rule": r.rule, "lang": r.lang.name(), "via": r.via, "vectors": r.vectors, "refused": r.refused,
                       "ok": r.ok, "ran": r.ran, "first_diff": r.first_diff, "error": r.error})
            })
            .collect();
        let skipped: Vec<Json> = self
            .skipped
            .iter()
            .map(|s| json!({"lang": s.lang.name(), "via": s.via, "reason": s.reason, "ran": false}))
            .collect();
        let left_out: Vec<Json> = (self.left_out.iter())
            .map(|l| json!({"rule": l.rule, "lang": l.lang.name(), "reason": l.reason}))
            .collect();
        json!({"results": results, "skipped": skipped, "left_out": left_out})
    }
}

/// Whether a program is on PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// Test every rule whose vectors are under `dir/vectors`, in every language folder of `dir`
/// (or only those of `opts.langs`).
pub fn run(dir: &Path, opts: &Options) -> Result<Report, String> {
    let vectors_dir = dir.join("vectors");
    let mut rules: Vec<String> = std::fs::read_dir(&vectors_dir)
        .map_err(|e| format!("cannot read {}: {e}", vectors_dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".jsonl")).map(str::to_string))
        .filter(|n| !n.ends_with(".expected") && !n.ends_with(REFUSED))
        .collect();
    rules.sort();
    // The languages that left a rule out, each with why (`outputs::left_out`).
    let left_out = |rule: &str| -> serde_json::Map<String, Json> {
        let path = vectors_dir.join(format!("{rule}.{}", crate::outputs::LEFT_OUT));
        let text = std::fs::read_to_string(path).unwrap_or_default();
        serde_json::from_str::<Json>(&text).ok().and_then(|j| j.as_object().cloned()).unwrap_or_default()
    };
    let mut report = Report::default();
    let wanted: Vec<Lang> = if opts.langs.is_empty() { Lang::ALL.to_vec() } else { opts.langs.clone() };
    // One job per (language, pass, rule).
    let mut jobs: Vec<(Lang, usize, String)> = Vec::new();
    let mut scratch: Vec<(Lang, tempfile::TempDir, bool)> = Vec::new();
    // Why a server pass's preparation (its stubs) failed, by (language, pass).
    let mut unprepared: Vec<(Lang, usize, String)> = Vec::new();
    for lang in wanted {
        let lang_dir = dir.join(lang.name());
        let mut written = Vec::new();
        let mut left = false;
        for rule in &rules {
            match left_out(rule).get(lang.name()) {
                Some(why) => {
                    let reason = why.as_str().unwrap_or_default().to_string();
                    report.left_out.push(LeftOut { rule: rule.clone(), lang, reason });
                    left = true;
                }
                None => written.push(rule),
            }
        }
        if !lang_dir.is_dir() {
            // A language that left out every rule it was given wrote no folder: said above.
            if !opts.langs.is_empty() && !left {
                let reason = format!("{} was not generated", lang_dir.display());
                report.skipped.push(Skipped { lang, via: "runner", reason });
            }
            continue;
        }
        let all = gen::passes(lang, "");
        // A server pass is the folder's only where gen served the rule (not under --no-servers).
        let served = |i: usize, rule: &str| match &gen::passes(lang, rule)[i].server {
            None => true,
            Some(server) => lang_dir.join(&server.serves).is_file(),
        };
        let mut passes = Vec::new();
        for (i, pass) in all.iter().enumerate() {
            if !rules.iter().any(|r| served(i, r)) {
                continue;
            }
            match unavailable(pass) {
                Some(reason) => report.skipped.push(Skipped { lang, via: pass.via, reason }),
                None => passes.push(i),
            }
        }
        if passes.is_empty() {
            continue;
        }
        // The language's folder, and beside it what its servers read from gen's other folders.
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let here = dir.path().join(lang.name());
        std::fs::create_dir_all(&here).map_err(|e| e.to_string())?;
        copy_dir(&lang_dir, &here).map_err(|e| format!("cannot copy {}: {e}", lang_dir.display()))?;
        if lang_dir.with_file_name("proto").is_dir() {
            let proto = dir.path().join("proto");
            std::fs::create_dir_all(&proto).map_err(|e| e.to_string())?;
            copy_dir(&lang_dir.with_file_name("proto"), &proto).map_err(|e| format!("cannot copy proto: {e}"))?;
        }
        let mut files: Vec<String> = std::fs::read_dir(&here)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().and_then(|e| e.file_name().into_string().ok()))
            .collect();
        files.sort();
        let built = match gen::backend(lang).build_all(&files) {
            Some(steps) => steps.iter().all(|step| run_step(step, &here).is_ok()),
            None => false,
        };
        // Each server's preparation, once for the folder, a step shared by passes run once.
        let mut prepared: Vec<(&Vec<String>, Option<String>)> = Vec::new();
        for &i in &passes {
            let Some(server) = &all[i].server else { continue };
            for step in &server.prepare {
                let failed = match prepared.iter().find(|(s, _)| *s == step) {
                    Some((_, failed)) => failed.clone(),
                    None => {
                        let failed = run_step(step, &here).err();
                        prepared.push((step, failed.clone()));
                        failed
                    }
                };
                if let Some(e) = failed {
                    unprepared.push((lang, i, e));
                    break;
                }
            }
        }
        scratch.push((lang, dir, built));
        for &i in &passes {
            // `_helpers` is the arithmetic's suite, not a rule: it has a runner and no server.
            let rules =
                written.iter().filter(|r| (all[i].server.is_none() || r.as_str() != "_helpers") && served(i, r));
            jobs.extend(rules.map(|r| (lang, i, (*r).clone())));
        }
    }
    let threads =
        if opts.jobs > 0 { opts.jobs } else { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) };
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, TestResult)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()).max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((lang, pass, alias)) = jobs.get(i) else { break };
                let (_, folder, built) =
                    scratch.iter().find(|(l, ..)| l == lang).expect("a scratch folder per language");
                let folder = folder.path().join(lang.name());
                let unprepared = unprepared.iter().find(|(l, p, _)| l == lang && p == pass).map(|(.., e)| e.as_str());
                let r = test_one(&vectors_dir, &folder, *built, *lang, *pass, alias, unprepared);
                done.lock().expect("no job panics holding the lock").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("every job finished");
    done.sort_by_key(|(i, _)| *i);
    report.results = done.into_iter().map(|(_, r)| r).collect();
    Ok(report)
}

/// Why a pass cannot run here (a program not on PATH, its probe failing), or `None`.
fn unavailable(pass: &gen::Pass) -> Option<String> {
    if let Some(missing) = pass.runner.needs.iter().find(|p| !on_path(p)) {
        return Some(format!("{missing} is not on PATH"));
    }
    let probe = pass.probe.as_ref()?;
    let child = Command::new(&probe[0])
        .args(&probe[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let said = |out: &std::process::Output| {
        let text = String::from_utf8_lossy(&out.stderr).split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            format!("{} exited with {}", probe[0], out.status)
        } else {
            text
        }
    };
    match child.map_err(|e| e.to_string()).and_then(|c| wait_with_timeout(c, Duration::from_secs(30))) {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!("{} failed: {}", probe.join(" "), said(&out))),
        Err(e) => Some(format!("{} failed: {e}", probe.join(" "))),
    }
}

/// One rule through one of its language's passes. `unprepared` is why the pass's server
/// could not be prepared (its stubs), if it could not.
fn test_one(
    vectors_dir: &Path,
    folder: &Path,
    built: bool,
    lang: Lang,
    pass: usize,
    alias: &str,
    unprepared: Option<&str>,
) -> TestResult {
    let pass = gen::passes(lang, alias).swap_remove(pass);
    let mut vectors = std::fs::read_to_string(vectors_dir.join(format!("{alias}.jsonl"))).unwrap_or_default();
    let expected = std::fs::read_to_string(vectors_dir.join(format!("{alias}.expected.jsonl"))).unwrap_or_default();
    // The calls with no answer to expect (two elements taking under take_unique), after the
    // vectors: each must be refused as a contradiction.
    let contradictions =
        std::fs::read_to_string(vectors_dir.join(format!("{alias}{REFUSED}.jsonl"))).unwrap_or_default();
    vectors.push_str(&contradictions);
    let count = vectors.lines().count();
    let refused = expected.lines().filter(|l| l.starts_with("{\"refused\":")).count() + contradictions.lines().count();
    let mut result = TestResult {
        rule: alias.to_string(),
        lang,
        via: pass.via,
        vectors: count,
        refused,
        ok: false,
        ran: false,
        first_diff: None,
        error: None,
    };
    // The runner as built in this folder (with the enums files' modules its rule reads).
    let runner = match pass.via {
        "runner" => gen::backend(lang).runner_in(alias, folder),
        _ => pass.runner.clone(),
    };
    let got = match (&pass.server, unprepared) {
        (None, _) => build_and_run(folder, built, &runner, &vectors),
        (Some(_), Some(e)) => Err(e.to_string()),
        (Some(server), None) => serve::drive(&server.drive, folder, alias, &vectors),
    };
    match got {
        Err(e) => result.error = Some(e),
        Ok(got) => {
            result.ran = true;
            let (want, got): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
            let stops =
                |line: &str| serde_json::from_str::<Json>(line).ok().is_some_and(|j| j["refused"] == "contradiction");
            // A vector's line is the expected one; a contradiction's, any refusal of that kind.
            let differs = |i: usize| match (want.get(i), got.get(i)) {
                (Some(w), g) => Some(w) != g,
                (None, Some(g)) => !(i < count && stops(g)),
                (None, None) => i < count,
            };
            match (0..count.max(got.len())).find(|&i| differs(i)) {
                None => result.ok = true,
                Some(i) => {
                    result.first_diff = Some(json!({
                        "line": i + 1,
                        "in": vectors.lines().nth(i),
                        "expected": want.get(i),
                        "got": got.get(i),
                    }))
                }
            }
        }
    }
    result
}

/// The suffix (before `.jsonl`) of the file of calls a rule that walks has no answer for.
const REFUSED: &str = ".refused";

/// Run one command in `dir`: its output when it fails.
fn run_step(step: &[String], dir: &Path) -> Result<(), String> {
    let out = Command::new(&step[0])
        .args(&step[1..])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot start {}: {e}", step[0]))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "does not compile:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Build the rule's runner in the language's scratch folder (unless every runner was built at
/// once) and run it on the vectors.
fn build_and_run(folder: &Path, built: bool, runner: &gen::Runner, vectors: &str) -> Result<String, String> {
    if !built {
        for step in &runner.build {
            run_step(step, folder)?;
        }
    }
    let mut child = Command::new(&runner.run[0])
        .args(&runner.run[1..])
        .current_dir(folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", runner.run[0]))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = vectors.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = wait_with_timeout(child, Duration::from_secs(300))?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(format!("the runner died ({}):\n{}", output.status, String::from_utf8_lossy(&output.stderr)));
    }
    String::from_utf8(output.stdout).map_err(|_| "the runner printed something that is not UTF-8".to_string())
}

pub(crate) fn wait_with_timeout(child: std::process::Child, limit: Duration) -> Result<std::process::Output, String> {
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            Err(format!("the runner did not finish within {} s", limit.as_secs()))
        }
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target: PathBuf = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
