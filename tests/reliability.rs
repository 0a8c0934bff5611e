//! What a hostile or unlucky input meets, through the binary a user runs: every command
//! under a memory cap and a timeout on constructed inputs (deep nesting of every construct,
//! huge lines and numbers, wide and tall tables, long define chains, NUL and control bytes,
//! CRLF, BOM, bytes that are not UTF-8), a closed standard output for every command form,
//! concurrent `gen` into one lock, the lock's ownership of its rules, and `use` held inside
//! the project.

mod common;
use common::BIN;
use rulec::lock::{digest, Lock};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
/// The address space one run may take (`ulimit -v`, in KiB): far above what a rule needs,
/// far below what a blow-up takes.
const MEMORY_KIB: u64 = 4 << 20;
/// The longest one run may take before it counts as a hang (unoptimised build, shared CPU).
const TIMEOUT: Duration = Duration::from_secs(180);

/// Run rulec in `dir` under the memory cap and the timeout.
fn rulec_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run rulec");
    let pid = child.id();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out.expect("wait for rulec"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("rulec {args:?} did not finish in {TIMEOUT:?}");
        }
    };
    let _ = feeder.join();
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// No abort, no panic, an exit code rulec gives (0, 1, 2), and every error located.
fn assert_survived(what: &str, args: &[&str], out: &Output) {
    let err = text(&out.stderr);
    let code =
        out.status.code().unwrap_or_else(|| panic!("{what}: rulec {args:?} was killed: {:?}\n{err}", out.status));
    assert!(code <= 2, "{what}: rulec {args:?} exited {code}\n{err}");
    for bad in ["panicked", "overflow", "fatal runtime error", "RUST_BACKTRACE"] {
        assert!(!err.contains(bad), "{what}: rulec {args:?} says `{bad}`:\n{}", &err[..err.len().min(4000)]);
    }
    if err.contains("error[") {
        assert!(
            located(&err),
            "{what}: rulec {args:?} gives an error without file:line:col:\n{}",
            &err[..err.len().min(4000)]
        );
    }
    if code == 2 {
        assert!(err.contains("error: "), "{what}: rulec {args:?} exits 2 without saying why");
    }
}

/// Whether the text names a place as `case.rule:LINE:COL`.
fn located(err: &str) -> bool {
    err.match_indices(".rule:").any(|(i, m)| {
        let rest = &err[i + m.len()..];
        let line: String = rest.chars().take_while(char::is_ascii_digit).collect();
        !line.is_empty()
            && rest[line.len()..].starts_with(':')
            && rest[line.len() + 1..].starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Every command that reads a rule, on `case.rule` in `dir`.
fn every_command(dir: &Path, what: &str) -> Vec<(Vec<&'static str>, Output)> {
    let forms: &[&[&'static str]] = &[
        &["check", "case.rule"],
        &["check", "--format", "json", "case.rule"],
        &["check", "--format", "sarif", "case.rule"],
        &["fmt", "--check", "case.rule"],
        &["eval", "case.rule", "--in", "{}"],
        &["gen", "case.rule", "--out", "out", "--lock", "out/rulec.lock", "--lang", "python"],
        &["vectors", "case.rule"],
        &["coverage", "case.rule"],
        &["api", "case.rule"],
        &["schema", "case.rule"],
        &["certificate", "case.rule"],
    ];
    forms
        .iter()
        .map(|args| {
            let out = rulec_in(dir, args, b"");
            assert_survived(what, args, &out);
            (args.to_vec(), out)
        })
        .collect()
}

fn case_dir(bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("case.rule"), bytes).unwrap();
    dir
}

fn rule_with(define: &str) -> String {
    format!("rule deep v1\n\ninput x: int 0..10\ninput b: bool\n\noutput y: int 0..1000000\n\ndefine y = {define}\n")
}

/// The deep form of every construct that nests: each is refused with E007 at line 8 by
/// every command, and none aborts.
#[test]
fn deep_nesting_of_every_construct_is_e007_everywhere() {
    let n = 3000;
    let cases: Vec<(&str, String)> = vec![
        ("parentheses", format!("{}x{}", "(".repeat(n), ")".repeat(n))),
        ("if", format!("{}x{}", "if b then ".repeat(n), " else 0".repeat(n))),
        ("max", format!("{}x{}", "max(".repeat(n), ", 0)".repeat(n))),
        ("min", format!("{}x{}", "min(".repeat(n), ", 9)".repeat(n))),
        ("mod", format!("{}x{}", "mod(".repeat(n), ", 7)".repeat(n))),
        ("isqrt", format!("{}x{}", "isqrt(".repeat(n), ")".repeat(n))),
        ("round", format!("{}x{}", "round(".repeat(n), ", up, 1)".repeat(n))),
        ("not", format!("if {}b then x else 0", "not ".repeat(n))),
        ("unary minus", format!("{}x", "- ".repeat(2 * n))),
        ("a chain of +", format!("x{}", " + 1".repeat(100 * n))),
        ("a chain of *", format!("x{}", " * 1".repeat(n))),
        ("a chain of and", format!("if b{} then x else 0", " and b".repeat(n))),
        ("a chain of or", format!("if b{} then x else 0", " or b".repeat(n))),
        ("parentheses around chains", format!("{}x{}", "(x + ".repeat(n), ")".repeat(n))),
    ];
    for (what, define) in &cases {
        let dir = case_dir(rule_with(define).as_bytes());
        for (args, out) in every_command(dir.path(), what) {
            if args[0] == "fmt" || args.contains(&"json") || args.contains(&"sarif") {
                continue;
            }
            let err = text(&out.stderr);
            assert!(
                err.contains("error[E007]") && err.contains("case.rule:8:"),
                "{what}: rulec {args:?}:\n{}",
                &err[..err.len().min(3000)]
            );
        }
    }
    // The same limit in a table's result cell and in a constraint.
    let deep = format!("{}x{}", "(".repeat(n), ")".repeat(n));
    let table = format!(
        "rule deep v1\n\ninput x: int 0..10\n\noutput y: int 0..10\n\ntable y_of -> y\n| x | y |\n|---|---|\n| - | {deep} |\n"
    );
    let constraint =
        format!("rule deep v1\n\ninput x: int 0..10\n\nconstraint {deep} > 0\n\noutput y: int 0..10\n\ndefine y = x\n");
    for (what, rule, line) in [("a table cell", table, ":10:"), ("a constraint", constraint, ":5:")] {
        let dir = case_dir(rule.as_bytes());
        let out = rulec_in(dir.path(), &["check", "case.rule"], b"");
        assert_survived(what, &["check"], &out);
        let err = text(&out.stderr);
        assert!(err.contains("error[E007]") && err.contains(&format!("case.rule{line}")), "{what}:\n{err}");
    }
}

/// Just inside the limit, every command (generation included) walks the tree to the end.
#[test]
fn nesting_at_the_limit_goes_through_every_command() {
    let n = rulec::syntax::parser::MAX_NESTING as usize - 2;
    for (what, define) in [
        ("parentheses", format!("{}x{}", "(".repeat(n), ")".repeat(n))),
        ("a chain of +", format!("x{}", " + 0".repeat(n))),
        ("max", format!("{}x{}", "max(".repeat(n / 2), ", 0)".repeat(n / 2))),
    ] {
        let dir = case_dir(rule_with(&define).as_bytes());
        for (args, out) in every_command(dir.path(), what) {
            assert!(!text(&out.stderr).contains("E007"), "{what}: {args:?} refused it:\n{}", text(&out.stderr));
        }
        let out = rulec_in(dir.path(), &["eval", "case.rule", "--in", r#"{"x": 3, "b": true}"#], b"");
        assert_eq!(text(&out.stdout).trim(), r#"{"in":{"x":3,"b":true},"observed":{"y":3},"trace":[]}"#, "{what}");
    }
}

#[test]
fn huge_lines_and_numbers_are_located_and_capped() {
    // A 10 MB line of `1 + 1 + …`: one E007, the line not quoted back.
    let chain = rule_with(&format!("1{}", " + 1".repeat(2_500_000)));
    let dir = case_dir(chain.as_bytes());
    let out = rulec_in(dir.path(), &["check", "case.rule"], b"");
    assert_survived("a 10 MB line", &["check"], &out);
    assert!(text(&out.stderr).contains("error[E007]"));
    assert!(out.stderr.len() < 10_000, "the line was quoted: {} bytes", out.stderr.len());

    // 100,000 stray characters on one line: ten diagnostics and a count, not 100,000.
    let stray =
        format!("rule r v1\n\ninput x: int 0..1 {}\n\noutput y: int 0..1\n\ndefine y = x\n", "$".repeat(100_000));
    let dir = case_dir(stray.as_bytes());
    for (args, out) in every_command(dir.path(), "a line of stray characters") {
        if args[0] == "check" && args.len() == 2 {
            let err = text(&out.stderr);
            assert_eq!(err.matches("error[E001]").count(), 10, "{}", &err[..err.len().min(3000)]);
            assert!(err.contains("… and 99,990 more on this line"), "{}", &err[..err.len().min(3000)]);
            assert!(out.stderr.len() < 20_000, "{} bytes of diagnostics", out.stderr.len());
        }
    }
    // As many bad lines as the file holds: at most 500 diagnostics and a count.
    let lines = format!("rule r v1\n\n{}", "bogus line\n".repeat(20_000));
    let dir = case_dir(lines.as_bytes());
    let out = rulec_in(dir.path(), &["check", "--format", "json", "case.rule"], b"");
    assert_survived("20,000 bad lines", &["check"], &out);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), rulec::diag::MAX_PER_FILE);
    assert!(stdout.contains("… and 19,500 more in this file"));

    // A number of a million digits in a rule: refused before it is read (E008).
    let long =
        format!("rule r v1\n\ninput x: int 0..{}\n\noutput y: int 0..1\n\ndefine y = 1\n", "9".repeat(1_000_000));
    let dir = case_dir(long.as_bytes());
    for (args, out) in every_command(dir.path(), "a million-digit number") {
        if args[0] != "fmt" && !args.contains(&"json") && !args.contains(&"sarif") {
            assert!(text(&out.stderr).contains("error[E008]"), "{args:?}: {}", text(&out.stderr));
        }
    }

    // A version past what the lock can hold: refused where it is read, and gen does not panic.
    let version = "rule r v9223372036854775808\n\ninput x: int 0..1\n\noutput y: int 0..1\n\ndefine y = x\n";
    let dir = case_dir(version.as_bytes());
    for (args, out) in every_command(dir.path(), "a huge version") {
        if args[0] != "fmt" && !args.contains(&"json") && !args.contains(&"sarif") {
            assert!(text(&out.stderr).contains("is too large a version"), "{args:?}: {}", text(&out.stderr));
        }
    }
}

#[test]
fn huge_numbers_on_the_wire_are_refused_fast_with_todays_sentences() {
    let dir = tempfile::tempdir().unwrap();
    // parcel_rate's first input is `weight`, a mass: the door reads it first.
    fs::copy(format!("{CORPUS}/parcel_rate.rule"), dir.path().join("case.rule")).unwrap();
    let name = "weight";
    let lines = [
        format!("{{\"{name}\": {}}}", "9".repeat(1_000_000)),
        format!("{{\"{name}\": -{}}}", "9".repeat(1_000_000)),
        format!("{{\"{name}\": 1.{}1}}", "0".repeat(1_000_000)),
        format!("{{\"{name}\": 1{}e-999990}}", "0".repeat(1_000_000)),
    ];
    let started = std::time::Instant::now();
    let out = rulec_in(dir.path(), &["eval", "case.rule", "--in", "-"], (lines.join("\n") + "\n").as_bytes());
    assert_survived("huge wire numbers", &["eval"], &out);
    let records: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(records.len(), 4, "{records:?}");
    assert!(records[0].contains(&format!("\"{name} is out of range\"")), "{}", records[0]);
    assert!(records[1].contains(&format!("\"{name} is out of range\"")), "{}", records[1]);
    assert!(records[2].contains(&format!("\"{name} is not an integer\"")), "{}", records[2]);
    // 10^10: whole, 11 digits, read and held to the range as any number is.
    assert!(records[3].contains("\"refused\""), "{}", records[3]);
    assert!(started.elapsed() < Duration::from_secs(60), "took {:?}", started.elapsed());
}

#[test]
fn wide_and_tall_tables_and_long_define_chains_go_through_every_command() {
    let wide = {
        let n = 120;
        let inputs: String = (0..n).map(|i| format!("input c{i}: bool\n")).collect();
        let head: String = (0..n).map(|i| format!(" c{i} |")).collect();
        let all = |cell: &str| -> String { (0..n).map(|_| format!(" {cell} |")).collect() };
        format!(
            "rule wide v1\n\n{inputs}\noutput y: int 0..1\n\ntable y_of first -> y\n|{head} y |\n|{}---|\n|{} 1 |\n|{} 0 |\n",
            "---|".repeat(n),
            all("true"),
            all("-")
        )
    };
    let tall = {
        let n = 1200;
        let rows: String = (0..n).map(|i| format!("| {i} | {} |\n", i % 7)).collect();
        format!(
            "rule tall v1\n\ninput n: int 0..{}\n\noutput y: int 0..6\n\ntable y_of -> y\n| n | y |\n|---|---|\n{rows}",
            n - 1
        )
    };
    let chain = {
        let n = 60;
        let defines: String = (0..n).map(|i| format!("define d{}: int 0..{} = d{i} + 1\n", i + 1, i + 1)).collect();
        format!("rule chain v1\n\ninput x: int 0..0\n\ndefine d0: int 0..0 = x\n{defines}\noutput y: int 0..{n}\ndefine y = d{n}\n")
    };
    for (what, rule) in [("a wide table", wide), ("a tall table", tall), ("a define chain", chain)] {
        let dir = case_dir(rule.as_bytes());
        let outs = every_command(dir.path(), what);
        assert_eq!(outs[0].1.status.code(), Some(0), "{what} does not check clean:\n{}", text(&outs[0].1.stderr));
        let generated = &outs[5].1;
        assert_eq!(generated.status.code(), Some(0), "{what}: gen:\n{}", text(&generated.stderr));
    }
}

#[test]
fn control_bytes_crlf_bom_and_bytes_that_are_not_utf8() {
    let parcel = fs::read(format!("{CORPUS}/parcel_rate.rule")).unwrap();
    let parcel_text = String::from_utf8(parcel.clone()).unwrap();
    let crlf = parcel_text.replace('\n', "\r\n").into_bytes();
    let bom = [b"\xef\xbb\xbf".as_slice(), &parcel].concat();
    let nul = parcel_text.replacen("input weight", "input \0weight", 1).into_bytes();
    let control = parcel_text.replacen("define fee", "define \x01\x07\x1b[31mfee", 1).into_bytes();
    let mut not_utf8 = parcel.clone();
    let at = parcel_text.find("input girth").unwrap();
    not_utf8.splice(at..at, [0xff, 0xfe]);
    let line_of_bad = parcel_text[..at].matches('\n').count() + 1;
    for (what, bytes, clean) in [
        ("CRLF", crlf, true),
        ("a BOM", bom, true),
        ("NUL", nul, false),
        ("control bytes", control, false),
        ("not UTF-8", not_utf8, false),
    ] {
        let dir = case_dir(&bytes);
        let outs = every_command(dir.path(), what);
        let check = &outs[0].1;
        assert_eq!(check.status.code() == Some(0), clean, "{what}: {}", text(&check.stderr));
        if what == "not UTF-8" {
            assert!(
                text(&check.stderr).contains(&format!("case.rule:{line_of_bad}:1: not UTF-8")),
                "{}",
                text(&check.stderr)
            );
        } else if !clean {
            assert!(located(&text(&check.stderr)), "{what}: {}", text(&check.stderr));
        }
    }
}

/// A reader that stops reading (`| head -1`) ends the output quietly: the command's own exit
/// code, nothing on standard error, whatever the command.
#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("rules/shared")).unwrap();
    for f in ["parcel_rate.rule", "member_discount.rule", "shared/tiers.rule"] {
        fs::copy(format!("{CORPUS}/{f}"), d.join("rules").join(f)).unwrap();
    }
    fs::create_dir_all(d.join("broken")).unwrap();
    for f in fs::read_dir(format!("{CORPUS}/broken")).unwrap().take(6) {
        let f = f.unwrap().path();
        fs::copy(&f, d.join("broken").join(f.file_name().unwrap())).unwrap();
    }
    let calls = "{\"weight\": 5, \"girth\": 40, \"dest\": \"canada\", \"signature\": false}\n".repeat(2000);
    let forms: &[&[&str]] = &[
        &["explain", "--all"],
        &["explain", "--all", "--format", "json"],
        &["explain", "E101"],
        &["--help"],
        &["--version"],
        &["check", "--format", "json", "broken"],
        &["check", "--format", "sarif", "broken"],
        &["check", "rules"],
        &["fmt", "--check", "rules"],
        &["fmt", "--check", "--format", "json", "rules"],
        &["eval", "rules/parcel_rate.rule", "--in", "-"],
        &["vectors", "rules/parcel_rate.rule"],
        &["coverage", "rules"],
        &["coverage", "--format", "json", "rules"],
        &["api", "rules/parcel_rate.rule"],
        &["schema", "rules/parcel_rate.rule"],
        &["certificate", "rules/parcel_rate.rule"],
        &["gen", "rules", "--out", "generated", "--lang", "python"],
        &["gen", "rules", "--out", "generated", "--lang", "python", "--format", "json"],
        &["gen", "rules", "--out", "generated", "--lang", "python", "--check"],
    ];
    for args in forms {
        let expected = rulec_in(d, args, calls.as_bytes()).status.code();
        let mut child = common::command()
            .args(*args)
            .current_dir(d)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = calls.clone();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        // The reader takes one byte at most, then goes away.
        let mut stdout = child.stdout.take().unwrap();
        let _ = stdout.read(&mut [0u8; 1]);
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let _ = feeder.join();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), expected, "rulec {args:?} with a closed stdout: {err}");
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "rulec {args:?}: {err}");
    }
    // The diagnostics of text `check` go to standard error: a closed one ends as quietly.
    let mut child = common::command().args(["check", "broken"]).current_dir(d).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
}

/// The corpus's clean rules but the one that needs an enums file: eight rules.
fn eight_rules(rules: &Path) -> Vec<String> {
    fs::create_dir_all(rules).unwrap();
    let mut names: Vec<String> = fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rule") && n != "member_discount.rule")
        .collect();
    names.sort();
    names.truncate(8);
    assert_eq!(names.len(), 8);
    for n in &names {
        fs::copy(format!("{CORPUS}/{n}"), rules.join(n)).unwrap();
    }
    names
}

#[test]
fn eight_concurrent_gens_into_one_lock_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = eight_rules(&d.join("rules"));
    for round in 0..20 {
        let _ = fs::remove_dir_all(d.join("generated"));
        let _ = fs::remove_file(d.join("rulec.lock"));
        let children: Vec<_> = names
            .iter()
            .map(|n| {
                common::command()
                    .args(["gen", &format!("rules/{n}"), "--out", "generated", "--lang", "python"])
                    .current_dir(d)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "round {round}: {}", text(&out.stderr));
        }
        let lock = Lock::read(&d.join("rulec.lock")).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let locked: Vec<String> = lock.rules.iter().map(|r| r.path.clone()).collect();
        let want: Vec<String> = names.iter().map(|n| format!("rules/{n}")).collect();
        assert_eq!(locked, want, "round {round}: an entry is missing");
        for r in &lock.rules {
            for a in &r.artifacts {
                let bytes = fs::read(d.join(&a.path)).unwrap_or_else(|e| panic!("round {round}: {}: {e}", a.path));
                assert_eq!(digest(&bytes), a.sha256, "round {round}: {} is not whole", a.path);
            }
        }
    }
}

fn gen_in(d: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["gen", "rules", "--out", "generated", "--lang", "python"];
    args.extend_from_slice(extra);
    let out = rulec_in(d, &args, b"");
    assert_survived("gen", &args, &out);
    out
}

fn corpus_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["late_fee.rule", "parcel_rate.rule"] {
        fs::create_dir_all(dir.path().join("rules")).unwrap();
        fs::copy(format!("{CORPUS}/{f}"), dir.path().join("rules").join(f)).unwrap();
    }
    dir
}

#[test]
fn the_lock_follows_a_renamed_rule() {
    let dir = corpus_project();
    let d = dir.path();
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    fs::rename(d.join("rules/late_fee.rule"), d.join("rules/fees.rule")).unwrap();
    let locked = gen_in(d, &["--locked"]);
    assert_eq!(locked.status.code(), Some(1));
    let err = text(&locked.stderr);
    assert!(err.contains("rules/late_fee.rule: locked, but the rule is gone"), "{err}");
    assert!(err.contains("rules/fees.rule: not in rulec.lock"), "{err}");
    // The fix the message names works: afterwards --locked passes, and keeps passing.
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    let lock = Lock::read(&d.join("rulec.lock")).unwrap();
    let paths: Vec<&str> = lock.rules.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["rules/fees.rule", "rules/parcel_rate.rule"]);
    assert_eq!(gen_in(d, &["--locked"]).status.code(), Some(0), "{}", text(&gen_in(d, &["--locked"]).stderr));
    assert_eq!(gen_in(d, &["--check"]).status.code(), Some(0));
}

/// The command a failed `--locked` or `--check` run advises, between backticks on its last line.
fn advised(stderr: &str) -> Vec<String> {
    let last = stderr.lines().last().unwrap_or_default();
    let cmd = last.split('`').nth(1).unwrap_or_else(|| panic!("no command in {last:?}"));
    cmd.split(' ').map(str::to_string).collect()
}

/// Every lock message names the command that fixes it, and running that command fixes it:
/// a lock written with the servers, held by a build that leaves them out (as the Make and
/// Bazel rules do), is made current by the command named, not by a plain `rulec gen` that
/// would write the servers back and fail the same build again.
#[test]
fn the_command_a_lock_error_names_fixes_it() {
    let dir = corpus_project();
    let d = dir.path();
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    let without = ["--no-servers", "--locked"];
    for _round in 0..2 {
        let locked = gen_in(d, &without);
        assert_eq!(locked.status.code(), Some(1));
        let err = text(&locked.stderr);
        assert!(err.contains("generated/python/late_fee_mcp.py: stale: no rule generates it any more"), "{err}");
        let cmd = advised(&err);
        assert_eq!(cmd[..2], ["rulec", "gen"], "{err}");
        assert!(!cmd.contains(&"--locked".to_string()) && cmd.contains(&"--no-servers".to_string()), "{err}");
        let args: Vec<&str> = cmd[1..].iter().map(String::as_str).collect();
        assert_eq!(rulec_in(d, &args, b"").status.code(), Some(0));
        assert_eq!(gen_in(d, &without).status.code(), Some(0), "{}", text(&gen_in(d, &without).stderr));
        // And back: a build with the servers is told how to lock them again.
        let locked = gen_in(d, &["--locked"]);
        assert_eq!(locked.status.code(), Some(1));
        let cmd = advised(&text(&locked.stderr));
        let args: Vec<&str> = cmd[1..].iter().map(String::as_str).collect();
        assert_eq!(rulec_in(d, &args, b"").status.code(), Some(0));
        assert_eq!(gen_in(d, &["--locked"]).status.code(), Some(0));
    }
    // --check with no lock names the command that writes one.
    fs::remove_file(d.join("rulec.lock")).unwrap();
    let check = gen_in(d, &["--check"]);
    assert_eq!(check.status.code(), Some(1));
    let err = text(&check.stderr);
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains("`rulec gen rules --out generated --lang python`"), "{err}");
}

#[test]
fn a_deleted_rule_loses_its_entry_and_its_files() {
    let dir = corpus_project();
    let d = dir.path();
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    let module = d.join("generated/python/late_fee.py");
    assert!(module.exists());
    fs::remove_file(d.join("rules/late_fee.rule")).unwrap();
    // Stale code does not ship: --locked and --check both fail, naming the entry and files.
    let locked = gen_in(d, &["--locked"]);
    assert_eq!(locked.status.code(), Some(1));
    let err = text(&locked.stderr);
    assert!(err.contains("rules/late_fee.rule: locked, but the rule is gone"), "{err}");
    assert!(err.contains("generated/python/late_fee.py: stale: no rule generates it any more"), "{err}");
    let check = gen_in(d, &["--check", "--format", "json"]);
    assert_eq!(check.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert!(v["stale"].as_array().unwrap().iter().any(|s| s == "generated/python/late_fee.py"), "{v}");
    // gen removes them and says so.
    let out = gen_in(d, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["removed"].as_array().unwrap().iter().any(|s| s == "generated/python/late_fee.py"), "{v}");
    assert!(!module.exists());
    assert!(d.join("generated/python/parcel_rate.py").exists());
    let lock = Lock::read(&d.join("rulec.lock")).unwrap();
    assert_eq!(lock.rules.len(), 1);
    assert_eq!(gen_in(d, &["--locked"]).status.code(), Some(0));
}

#[test]
fn a_file_no_rule_writes_any_more_is_stale_and_removed() {
    let dir = corpus_project();
    let d = dir.path();
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    // The rule is renamed inside: its module gets another name, the old one is left behind.
    let rule = d.join("rules/late_fee.rule");
    let src = fs::read_to_string(&rule).unwrap();
    fs::write(&rule, src.replacen("rule late_fee ", "rule overdue_fee ", 1)).unwrap();
    let left = d.join("generated/python/late_fee.py");
    assert!(left.exists());
    let locked = gen_in(d, &["--locked"]);
    assert_eq!(locked.status.code(), Some(1));
    assert!(text(&locked.stderr).contains("generated/python/late_fee.py: stale: no rule generates it any more"));
    let out = gen_in(d, &[]);
    assert!(text(&out.stdout).contains("removed generated/python/late_fee.py"), "{}", text(&out.stdout));
    assert!(!left.exists());
    assert!(d.join("generated/python/overdue_fee.py").exists());
    assert_eq!(gen_in(d, &["--locked"]).status.code(), Some(0));
    // Only the paths given are owned: a run on one rule keeps the other's entry and files.
    assert_eq!(
        rulec_in(d, &["gen", "rules/parcel_rate.rule", "--out", "generated", "--lang", "python"], b"").status.code(),
        Some(0)
    );
    assert_eq!(Lock::read(&d.join("rulec.lock")).unwrap().rules.len(), 2);
    assert!(d.join("generated/python/overdue_fee.py").exists());
}

#[test]
fn gen_check_needs_a_lock_it_can_read() {
    let dir = corpus_project();
    let d = dir.path();
    assert_eq!(gen_in(d, &[]).status.code(), Some(0));
    fs::remove_file(d.join("rulec.lock")).unwrap();
    let out = gen_in(d, &["--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("rulec.lock does not exist"), "{}", text(&out.stderr));
    fs::write(d.join("rulec.lock"), "not a lock [").unwrap();
    let out = gen_in(d, &["--check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not a rulec.lock"), "{}", text(&out.stderr));
}

const SECRET: &str = "root:x:0:0:the secret line";

/// A project (a `.git` folder marks its root) with a rule in a subfolder that uses an enums
/// file beside the subfolder, and a secret outside it.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::create_dir_all(root.join("rules/sub")).unwrap();
    fs::create_dir_all(root.join("rules/shared")).unwrap();
    fs::copy(format!("{CORPUS}/shared/tiers.rule"), root.join("rules/shared/tiers.rule")).unwrap();
    let member = fs::read_to_string(format!("{CORPUS}/member_discount.rule")).unwrap();
    fs::write(
        root.join("rules/sub/member.rule"),
        member.replace("use \"shared/tiers.rule\"", "use \"../shared/tiers.rule\""),
    )
    .unwrap();
    fs::write(dir.path().join("secret.rule"), format!("{SECRET}\n")).unwrap();
    (dir, root)
}

fn with_use(path: &str) -> String {
    format!("rule t v1\nuse \"{path}\"\n\ninput x: int 0..1\n\noutput y: int 0..1\n\ndefine y = x\n")
}

#[test]
fn a_use_is_held_inside_the_project() {
    let (dir, root) = project();
    // Inside the root, `..` is fine.
    let out = rulec_in(&root, &["check", "rules/sub/member.rule"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let secret = dir.path().join("secret.rule");
    std::os::unix::fs::symlink(&secret, root.join("rules/shared/link.rule")).unwrap();
    for (what, path, says) in [
        ("absolute", secret.to_str().unwrap().to_string(), "absolute path"),
        ("..", "../../../secret.rule".to_string(), "leaves the project root"),
        // A link inside the root that leads out of the project is refused unread.
        ("a link", "../shared/link.rule".to_string(), "leaves the project root through a link"),
        ("/etc/passwd", "/etc/passwd".to_string(), "absolute path"),
    ] {
        fs::write(root.join("rules/sub/t.rule"), with_use(&path)).unwrap();
        for args in [&["check", "rules/sub/t.rule"][..], &["check", "--format", "json", "rules/sub/t.rule"]] {
            let out = rulec_in(&root, args, b"");
            assert_eq!(out.status.code(), Some(1), "{what}");
            let all = text(&out.stderr) + &text(&out.stdout);
            assert!(all.contains("E069") && all.contains(says), "{what}: {all}");
            assert!(!all.contains("secret line") && !all.contains("root:x"), "{what}: the target was quoted: {all}");
        }
    }
    // A file without a header inside the root is refused without being quoted either.
    fs::write(root.join("rules/shared/junk.rule"), format!("{SECRET}\n")).unwrap();
    fs::write(root.join("rules/sub/t.rule"), with_use("../shared/junk.rule")).unwrap();
    let out = rulec_in(&root, &["check", "rules/sub/t.rule"], b"");
    assert!(
        text(&out.stderr).contains("has no header") && !text(&out.stderr).contains("secret line"),
        "{}",
        text(&out.stderr)
    );
    // A tree of links into the project elsewhere, as a build sandbox lays its inputs out
    // (real folders, a WORKSPACE, every file a link): both files of the `use` lead into one
    // project, so the rule checks clean.
    let elsewhere = tempfile::tempdir().unwrap();
    let sandbox = elsewhere.path().join("execroot");
    fs::create_dir_all(sandbox.join("rules/sub")).unwrap();
    fs::create_dir_all(sandbox.join("rules/shared")).unwrap();
    fs::write(sandbox.join("WORKSPACE"), "").unwrap();
    for f in ["rules/sub/member.rule", "rules/shared/tiers.rule"] {
        std::os::unix::fs::symlink(root.join(f), sandbox.join(f)).unwrap();
    }
    let out = rulec_in(&sandbox, &["check", "rules/sub/member.rule"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // --root narrows the project: the subfolder alone cannot reach ../shared.
    let out = rulec_in(&root, &["check", "--root", "rules/sub", "rules/sub/member.rule"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("leaves the project root"), "{}", text(&out.stderr));
}

#[test]
fn a_folder_without_rules_is_an_error_and_links_inside_the_root_are_followed() {
    let (dir, root) = project();
    fs::create_dir_all(root.join("empty")).unwrap();
    let out = rulec_in(&root, &["check", "empty"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no rule found in empty"), "{}", text(&out.stderr));
    // A folder holding only links to rules inside the root: they are checked.
    fs::create_dir_all(root.join("links")).unwrap();
    std::os::unix::fs::symlink(root.join("rules/shared/tiers.rule"), root.join("links/tiers.rule")).unwrap();
    let out = rulec_in(&root, &["check", "links"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("checked 1 file: clean"), "{}", text(&out.stderr));
    // A link out of the root is refused, not read.
    std::os::unix::fs::symlink(dir.path().join("secret.rule"), root.join("links/secret.rule")).unwrap();
    let out = rulec_in(&root, &["check", "links"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("outside the project root") && !text(&out.stderr).contains("secret line"));
}

/// Forty inputs tied in a chain of constraints (`i0 <= i1 + 5`, …) and summed: the exact
/// linear reasoning over them grows without a useful end. Every command that works on the
/// rule stops at its allowance of steps (`--steps`) with E109 on the rule's name, naming what
/// to raise, instead of running for minutes; and it stops at the same step every time.
#[test]
fn forty_inputs_tied_together_stop_at_the_steps_allowance_in_every_command() {
    let n = 40;
    let inputs: String = (0..n).map(|i| format!("input i{i}: int 0..100\n")).collect();
    let ties: String = (0..n - 1).map(|i| format!("constraint i{i} <= i{} + 5\n", i + 1)).collect();
    let sum: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    let rule = format!("rule wide v1\n\n{inputs}{ties}\noutput o: int 0..4000\ndefine o = {}\n", sum.join(" + "));
    let dir = case_dir(rule.as_bytes());
    fs::write(dir.path().join("again.rule"), rule.replace("rule wide", "rule again")).unwrap();
    let steps = ["--steps", "100000"];
    let forms: [&[&str]; 5] = [
        &["check", "case.rule"],
        &["gen", "case.rule", "--out", "out", "--lock", "out/rulec.lock", "--lang", "python"],
        &["graph", "case.rule"],
        &["doc", "case.rule"],
        &["diff", "case.rule", "again.rule"],
    ];
    for form in forms {
        let args: Vec<&str> = form.iter().chain(&steps).copied().collect();
        let out = rulec_in(dir.path(), &args, b"");
        assert_survived("forty inputs", &args, &out);
        let err = text(&out.stderr);
        if form[0] == "graph" {
            // The graph needs only names and types: it is printed, with a note of the code.
            assert!(err.contains("does not check clean (E109)") && out.status.code() == Some(0), "{args:?}:\n{err}");
            continue;
        }
        assert!(
            err.contains("error[E109]: rule `wide`: the work on it needs more steps than this command allows"),
            "{args:?}:\n{err}"
        );
        assert!(
            err.contains("100000 steps were allowed") && err.contains("raise the allowance with `--steps N`"),
            "{args:?}:\n{err}"
        );
        assert!(err.contains("case.rule:1:6"), "{args:?}: on the rule's name:\n{err}");
        assert_eq!(out.status.code(), Some(1), "{args:?}:\n{err}");
    }
    let json =
        |dir: &Path| text(&rulec_in(dir, &["check", "--format", "json", "case.rule", "--steps", "100000"], b"").stdout);
    assert_eq!(json(dir.path()), json(dir.path()), "the allowance stops the work at the same step every run");
}

/// An enum of 50,000 members (a product catalogue, a list of postcodes): every name is
/// held against the others through a set, not one by one, so check and gen go through it
/// (the sema's repeated values, E075's clashes, the naming pass, the Connect enum, a
/// `switch` over a `not:` cell of 49,999 members).
#[test]
fn an_enum_of_fifty_thousand_members_checks_and_generates() {
    let n = 50_000;
    let members: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
    let rule = format!(
        "rule catalogue v1\n\nenum item: {}\n\ninput x: item\n\noutput o: int 0..10\n\ntable o_of -> o\n| x | o |\n|---|---|\n| m0 | 1 |\n| not: m0 | 2 |\n\nexpect x=m49999 -> o=2\n",
        members.join(", ")
    );
    let dir = case_dir(rule.as_bytes());
    let check = rulec_in(dir.path(), &["check", "case.rule"], b"");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let gen = rulec_in(
        dir.path(),
        &["gen", "case.rule", "--out", "out", "--lock", "out/rulec.lock", "--lang", "go,java,python"],
        b"",
    );
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    let go = fs::read_to_string(dir.path().join("out/go/catalogue/catalogue.go")).unwrap();
    assert!(go.contains("m49999"), "the Go module names the last member");
}
