//! What the integration tests share: the binary, the corpus, the toolchain rule (under CI a
//! missing toolchain fails the test; elsewhere it is a note), `rulec test` as CI runs it, and
//! the analysis tests' check that no diagnostic claims what it has not shown.
#![allow(dead_code)]

pub mod grades;

use rulec::eval::wire;
use rulec::sema::{Program, Ty, Value};
use rulec::Checked;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `rulec` binary under test (the one place a test names it).
pub const BIN: &str = env!("CARGO_BIN_EXE_rulec");

/// The binary, with colour off.
pub fn command() -> Command {
    let mut c = Command::new(BIN);
    c.env("NO_COLOR", "1");
    c
}

/// `rulec ARGS` run in `cwd`.
pub fn rulec(args: &[&str], cwd: &Path) -> Output {
    command().args(args).current_dir(cwd).output().expect("rulec runs")
}

/// `rulec ARGS` run at the workspace's root, where the tests name their files from.
pub fn at_root(args: &[&str]) -> Output {
    rulec(args, Path::new(ROOT))
}

/// `rulec ARGS` at the root with `env` set.
pub fn with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = command();
    c.args(args).current_dir(ROOT);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("rulec runs")
}

/// `rulec ARGS` in `cwd` with `input` on its stdin.
pub fn with_stdin(args: &[&str], cwd: &Path, input: &[u8]) -> Output {
    fed(command().args(args).current_dir(cwd), input)
}

/// What `cmd` gives with `input` on its stdin. The input is written from a thread, so a large
/// one cannot fill the pipe while the program's output waits; a program that stops reading
/// early is not an error here (its exit status says what happened).
fn fed(cmd: &mut Command, input: &[u8]) -> Output {
    use std::process::Stdio;
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("it runs");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
    let out = child.wait_with_output().expect("it ends");
    let _ = writer.join().expect("the writer ends");
    out
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The rules every language is held to: the clean corpus, and tests/rules (the hostile
/// names, DMN's naming style, rules decided by defines alone).
pub fn rules() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/corpus", "tests/rules"] {
        for e in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rule") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Whether every program is on PATH. When one is not: a failure under CI, a note elsewhere.
pub fn toolchain(test: &str, programs: &[&str]) -> bool {
    let missing: Vec<&&str> = programs.iter().filter(|p| !rulec::harness::on_path(p)).collect();
    if missing.is_empty() {
        return true;
    }
    let names: Vec<&str> = missing.iter().map(|p| **p).collect();
    if std::env::var_os("CI").is_some() {
        panic!("{test}: {} not on PATH, and CI is set", names.join(" and "));
    }
    eprintln!("note: {test} skipped: {} not on PATH", names.join(" and "));
    false
}

/// `rulec gen` of `rules` for `langs` (every language when empty) into `out`.
pub fn generate(rules: &[PathBuf], langs: &str, out: &Path) {
    let mut cmd = command();
    cmd.arg("gen").args(rules).arg("--out").arg(out).arg("--lock").arg(out.join("rulec.lock"));
    if !langs.is_empty() {
        cmd.args(["--lang", langs]);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "rulec gen: {}{}", text(&o.stdout), text(&o.stderr));
}

/// The languages this machine kind can install: every one but Swift.
pub const INSTALLABLE: &str = "rust,python,typescript,javascript,go,java,ruby,php,numpy,sql,wasm";

/// `rulec test DIR --format json` as CI runs it: `--require-all` over every installable
/// language under CI (Swift cannot be installed here, and is tested apart); the report.
pub fn test_json(dir: &Path, langs: &str) -> serde_json::Value {
    let mut args: Vec<&str> = vec!["test", dir.to_str().unwrap(), "--format", "json"];
    let langs = if langs.is_empty() && std::env::var_os("CI").is_some() { INSTALLABLE } else { langs };
    if !langs.is_empty() {
        args.extend(["--lang", langs]);
    }
    if std::env::var_os("CI").is_some() {
        args.push("--require-all");
    }
    let out = rulec(&args, Path::new(ROOT));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("rulec test: {e}\n{}", text(&out.stderr)))
}

/// Every result of a `rulec test` report agreed, and ran; nothing skipped under CI.
pub fn assert_green(report: &serde_json::Value) {
    let skipped = report["skipped"].as_array().unwrap();
    assert!(std::env::var_os("CI").is_none() || skipped.is_empty(), "skipped under CI: {skipped:?}");
    if !skipped.is_empty() {
        eprintln!("note: not run here (CI runs them): {skipped:?}");
    }
    let results = report["results"].as_array().unwrap();
    assert!(!results.is_empty() || !skipped.is_empty(), "nothing was tested: {report}");
    for r in results {
        assert_eq!((r["ok"].as_bool(), r["ran"].as_bool()), (Some(true), Some(true)), "{r}");
    }
}

/// Every file under `dir`, with its bytes, sorted by path.
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push((p.strip_prefix(root).unwrap().display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Every name `rulec api` gives for `lang` that a file must hold: the functions and the
/// enums' members, as identifiers of the file the entry names.
pub fn api(rule: &Path, lang: &str) -> serde_json::Value {
    let out = rulec(&["api", rule.to_str().unwrap(), "--lang", lang], Path::new(ROOT));
    assert!(out.status.success(), "rulec api: {}", text(&out.stderr));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()[lang].clone()
}

/// Whether a program is on PATH.
pub fn on_path(program: &str) -> bool {
    rulec::harness::on_path(program)
}

/// The program of a rule that checks clean.
pub fn program(path: &Path) -> Program {
    let mut sources = rulec::Sources::new();
    let checked = rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()).unwrap();
    assert!(!checked.has_errors(), "{} checks clean", path.display());
    checked.program.unwrap()
}

/// A deterministic generator for calls.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A call with every input drawn in its declared range, as its wire JSON.
pub fn random_call(p: &Program, rng: &mut Lcg) -> Json {
    let mut m = serde_json::Map::new();
    for &v in &p.inputs {
        let var = &p.vars[v];
        if var.optional && rng.below(5) == 0 {
            continue;
        }
        let value = match (&var.ty, &var.range) {
            (Ty::Bool, _) => Value::Bool(rng.below(2) == 1),
            (Ty::Enum(e), r) => {
                let (lo, hi) = match r {
                    Some((Value::Enum(a), Value::Enum(b))) => (*a as u64, *b as u64),
                    _ => (0, p.enums[*e].values.len() as u64 - 1),
                };
                Value::Enum((lo + rng.below(hi - lo + 1)) as u32)
            }
            (t, Some((Value::Num(lo), Value::Num(hi)))) => {
                let (lo, hi) = ((lo / t.factor()).to_integer(), (hi / t.factor()).to_integer());
                let span: u64 = (&hi - &lo + 1u32).try_into().unwrap_or(u64::MAX);
                // Near the ends half the time: where the boundaries and the limits are.
                let k = match rng.below(4) {
                    0 => rng.below(span.min(50)),
                    1 => span - 1 - rng.below(span.min(50)),
                    _ => rng.below(span),
                };
                Value::Num(rulec::num::big(lo + k) * t.factor())
            }
            _ => Value::Str(["JP", "KR", "FR", ""][rng.below(4) as usize].to_string()),
        };
        m.insert(var.name.clone(), wire::to_wire(p, var, &value));
    }
    Json::Object(m)
}

/// Whether the PostgreSQL libpq's environment names (PGHOST, PGPORT, PGUSER, PGDATABASE)
/// answers psql. When it does not: a failure under CI (.ci/run starts one), a note elsewhere.
pub fn postgres(test: &str) -> bool {
    if !toolchain(test, &["psql"]) {
        return false;
    }
    let out =
        Command::new("psql").args(["-X", "-q", "-A", "-t", "-c", "SELECT 1"]).env("PGCONNECT_TIMEOUT", "10").output();
    match out {
        Ok(o) if o.status.success() => true,
        other => {
            let why = other.map(|o| text(&o.stderr)).unwrap_or_else(|e| e.to_string());
            if std::env::var_os("CI").is_some() {
                panic!("{test}: no PostgreSQL server answers, and CI is set: {why}");
            }
            eprintln!("note: {test} skipped: no PostgreSQL server answers (set PGHOST, PGPORT, PGUSER): {why}");
            false
        }
    }
}

/// Whether python3 imports DuckDB's module (PyPI's duckdb); under CI its absence fails.
pub fn duckdb(test: &str) -> bool {
    if !toolchain(test, &["python3"]) {
        return false;
    }
    match Command::new("python3").args(["-c", "import duckdb"]).output() {
        Ok(o) if o.status.success() => true,
        other => {
            let why = other.map(|o| text(&o.stderr)).unwrap_or_else(|e| e.to_string());
            if std::env::var_os("CI").is_some() {
                panic!("{test}: python3 cannot import duckdb, and CI is set: {why}");
            }
            eprintln!("note: {test} skipped: python3 cannot import duckdb (pip install duckdb): {why}");
            false
        }
    }
}

/// The codes whose claims need a witness the reference evaluator confirms.
const CLAIMS: &[&str] = &["E101", "E103", "E107", "E108", "E132", "E134"];

/// Every diagnostic that carries no witness states only what the checker has shown: its text
/// says "not proven" and gives what it found, and claims nothing it has not seen happen.
/// (E102 and E104 are never made without a witness; E105 is a refutation, shown for every
/// input: the tests hold its proof to brute force.)
pub fn assert_no_unproven_claim(c: &Checked, context: &str) {
    for d in &c.diagnostics {
        if ["E102", "E104"].contains(&d.code) {
            assert!(d.witness.is_some(), "{context}: {} without a witness: {}", d.code, d.message);
        }
        if !CLAIMS.contains(&d.code) || d.witness.is_some() {
            continue;
        }
        let text = format!("{} {} {}", d.message, d.primary.text, d.notes.join(" "));
        assert!(text.contains("not proven"), "{context}: {} without a witness says what is not proven: {text}", d.code);
        if d.code == "E103" {
            // Never firing is proven; only that some input matches the row is not.
            continue;
        }
        for claim in
            ["can reach", "can be zero", "can be negative", "reaches", "overflows int64", "some input matches no row"]
        {
            assert!(!text.contains(claim), "{context}: {} claims `{claim}` without a witness: {text}", d.code);
        }
    }
}

// --- Wasm (tests/gen_wasm.rs, tests/cross_language.rs) ---

/// Whether rustc, node and the standard library of `target` are here: a failure under CI, a
/// note elsewhere.
pub fn wasm_toolchain(test: &str, target: &str) -> bool {
    if !toolchain(test, &["rustc", "node"]) {
        return false;
    }
    let out =
        std::process::Command::new("rustc").args(["--print", "target-libdir", "--target", target]).output().unwrap();
    if Path::new(text(&out.stdout).trim()).is_dir() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "{test}: rustup target add {target}, and CI is set");
    eprintln!("note: {test} skipped: the {target} standard library is not installed");
    false
}

/// Run a command line (the words of `rulec api`'s `build`, say) in `dir`; it must succeed
/// and print nothing.
pub fn run_line(line: &str, extra: &[&str], dir: &Path) {
    let words: Vec<&str> = line.split(' ').collect();
    let out = std::process::Command::new(words[0]).args(&words[1..]).args(extra).current_dir(dir).output().unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success() && said.is_empty(), "{line}:\n{said}");
}

/// What a program prints for `input` on its stdin; it must exit 0.
pub fn feed(program: &str, args: &[&str], dir: &Path, input: &[u8]) -> String {
    let out = fed(Command::new(program).args(args).current_dir(dir), input);
    assert!(out.status.success(), "{program} {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The reference evaluator's answer to one line: the record, or the refusal line.
pub fn reference(p: &rulec::sema::Program, line: &str) -> String {
    match rulec::eval::wire::read_line(p, line) {
        Err(refusal) => rulec::eval::wire::refusal_line(&refusal),
        Ok(values) => match rulec::eval::evaluate(p, &values) {
            Ok(outcome) => rulec::eval::wire::record(p, &values, &outcome, ""),
            Err(e) => rulec::eval::wire::contradiction_line(&e),
        },
    }
}

/// The private functions a generated file defines and never calls: each line that starts
/// with `def` (`def _name(`, `def self._name(`) names one, and a function is called when its
/// name stands anywhere else in the file as a word. No linter of Python or Ruby reports an
/// unused function, so the tests hold the modules to this.
pub fn uncalled_functions(source: &str, def: &str) -> Vec<String> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut words: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for w in source.split(|c: char| !is_word(c)).filter(|w| !w.is_empty()) {
        *words.entry(w).or_default() += 1;
    }
    source
        .lines()
        .filter_map(|l| l.strip_prefix(def))
        .filter_map(|rest| rest.split('(').next())
        .filter(|name| name.starts_with('_') && words.get(name).copied().unwrap_or(0) < 2)
        .map(str::to_string)
        .collect()
}

/// Two rules that read one enums file, below `dir/rules` — the corpus's member_discount and
/// tier_points, which gives points by the same tier — generated into `dir/out` for `lang`
/// (the folder returned).
pub fn two_rules_of_one_enums_file(dir: &Path, lang: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join("rules/shared")).unwrap();
    for f in ["member_discount.rule", "shared/tiers.rule"] {
        std::fs::copy(Path::new(ROOT).join("tests/corpus").join(f), dir.join("rules").join(f)).unwrap();
    }
    let points = "rule tier_points v1\nabout \"Points per order by member tier.\"\nuse \"shared/tiers.rule\"\n\n\
        input tier: tier\n\noutput points: int 0..10\n\ntable points_of -> points\n\
        | tier    | points |\n|---------|--------|\n| basic   | 1      |\n| silver  | 2      |\n| premium | 5      |\n";
    std::fs::write(dir.join("rules/tier_points.rule"), points).unwrap();
    let out = dir.join("out");
    generate(&[dir.join("rules/member_discount.rule"), dir.join("rules/tier_points.rule")], lang, &out);
    out
}

/// What the reference answers to the calls each caller of [`two_rules_of_one_enums_file`]'s
/// rules makes, below `dir`: tier_points for a gold member, member_discount for a platinum
/// member's web order of 10,000.
pub fn two_rules_answers(dir: &Path) -> (serde_json::Value, serde_json::Value) {
    let eval = |rule: &str, call: &str| -> serde_json::Value {
        let o = rulec(&["eval", rule, "--in", call], dir);
        let line: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o.stderr)));
        line["observed"].clone()
    };
    let gold = eval("rules/tier_points.rule", r#"{"tier":"gold"}"#);
    let discount =
        eval("rules/member_discount.rule", r#"{"tier":"platinum","channel":"web","subtotal":10000,"coupon":null}"#);
    (gold, discount)
}

/// The Python that parses Swift: tree-sitter and its Swift grammar.
const SWIFT_PARSE: &str = r#"
import sys, tree_sitter, tree_sitter_swift
parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_swift.language()))
def errors(node, out):
    if node.type == "ERROR" or node.is_missing:
        out.append(f"{node.start_point[0] + 1}:{node.start_point[1] + 1} {node.text[:60]!r}")
    for child in node.children:
        errors(child, out)
bad = 0
for path in sys.argv[1:]:
    out = []
    errors(parser.parse(open(path, "rb").read()).root_node, out)
    for e in out[:3]:
        print(f"{path}:{e}")
    bad += bool(out)
sys.exit(1 if bad else 0)
"#;

/// Whether tree-sitter's Swift grammar is there (under CI it must be).
pub fn have_swift_grammar() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import tree_sitter, tree_sitter_swift"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok && std::env::var_os("CI").is_some() {
        panic!("tree_sitter_swift is not installed, and CI is set (pip install tree-sitter tree-sitter-swift)");
    }
    ok
}

/// Every file of `files` parses with the Swift grammar, or what does not, where.
pub fn swift_parses(files: &[String]) -> Result<(), String> {
    let out = Command::new("python3").arg("-c").arg(SWIFT_PARSE).args(files).output().unwrap();
    match out.status.success() {
        true => Ok(()),
        false => Err(format!("{}{}", text(&out.stdout), text(&out.stderr))),
    }
}

/// A randomized run's size and base seed: `count_var` (else `default`) rules, from
/// `RULEC_RANDOM_SEED` (else the clock), printed so that a failing run can be repeated.
pub fn random_run(what: &str, count_var: &str, default: usize) -> (usize, u64) {
    let count: usize = std::env::var(count_var).ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let base: u64 = std::env::var("RULEC_RANDOM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs());
    println!("{what}: base seed {base}, {count} rules (RULEC_RANDOM_SEED, {count_var})");
    (count, base)
}
