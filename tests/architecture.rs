//! The invariants docs/architecture.md states, held to the code: a backend reads the plan
//! and the names, never the typed program; no import runs back up the layers.

mod common;
use common::ROOT;
use std::path::{Path, PathBuf};

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
    // The plan and the tree are what every backend reads, not backends.
    out.retain(|p| !["plan", "tree"].contains(&p.file_name().unwrap().to_str().unwrap()));
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

/// The floors of the crate, bottom first: a module imports from its own floor and the ones
/// below it, never from one above (docs/architecture.md, "Layers").
const FLOORS: &[&[&str]] = &[
    &["source", "num", "lang", "units", "stack"],
    &["diag"],
    &["syntax"],
    &["sema", "dmn"],
    &["eval"],
    &["analysis"],
    &["check", "vectors", "certificate", "schema", "graph"],
    &["gen", "production"],
    &["doc", "harness", "lock", "confine", "outputs", "generate"],
    &["cli", "mcp", "lsp"],
];

/// What the crate root re-exports, by the module it comes from.
const ROOT_ITEMS: &[(&str, &str)] =
    &[("check_path", "check"), ("check_text", "check"), ("Checked", "check"), ("Sources", "source")];

/// The floors of `gen`, bottom first, by file or folder: the plan knows nothing of the code
/// written from it, the tree nothing of how a language spells it.
const GEN_FLOORS: &[&[&str]] = &[&["plan"], &["tree"]];

fn floor_of(floors: &[&[&str]], module: &str) -> Option<usize> {
    floors.iter().position(|f| f.contains(&module))
}

/// The modules of `crate::…` paths a file names, outside comments and its `#[cfg(test)]` part
/// (a unit test may build what it tests from the whole crate).
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let names: Vec<String> = match rest.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .map(|n| n.trim().split("::").next().unwrap_or("").to_string())
                    .collect(),
                None => vec![rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("").to_string()],
            };
            out.extend(names.into_iter().filter(|n| !n.is_empty()).map(|n| (i + 1, n)));
        }
    }
    out
}

/// Every Rust module of the crate (the runtime files under `src/gen/*/runtime` are text the
/// generated code holds, not modules of rulec), with the top-level module it belongs to.
fn crate_modules() -> Vec<(PathBuf, String)> {
    let src = Path::new(ROOT).join("src");
    let mut out = Vec::new();
    for f in rust_files(&src) {
        let rel = f.strip_prefix(&src).unwrap();
        if rel.components().any(|c| c.as_os_str() == "runtime")
            || rel == Path::new("main.rs")
            || rel == Path::new("lib.rs")
        {
            continue;
        }
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        out.push((f, top));
    }
    out
}

#[test]
fn no_import_runs_back_up_the_layers() {
    let mut seen = 0;
    for (f, top) in crate_modules() {
        let here =
            floor_of(FLOORS, &top).unwrap_or_else(|| panic!("{}: `{top}` stands on no floor of FLOORS", f.display()));
        for (line, name) in crate_paths(&std::fs::read_to_string(&f).unwrap()) {
            let module = ROOT_ITEMS.iter().find(|(item, _)| *item == name).map_or(name.as_str(), |(_, m)| m);
            if module == top {
                continue;
            }
            // A macro exported at the crate root (`spelled_by!`) is its module's own.
            let Some(there) = floor_of(FLOORS, module) else { continue };
            assert!(
                there <= here,
                "{}:{line}: `{top}` (floor {here}) imports `{module}` (floor {there}), above it",
                f.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 200, "only {seen} imports were read: the reader lost its way");
    let src = Path::new(ROOT).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(!lib.contains("gen::"), "lib.rs imports gen");
    // The leaves import nothing of the crate.
    for leaf in rust_files(&src.join("lang")).into_iter().chain([src.join("source.rs")]) {
        let text = std::fs::read_to_string(&leaf).unwrap();
        assert!(!text.contains("use crate::"), "{} is a leaf", leaf.display());
    }
}

#[test]
fn inside_gen_the_plan_and_the_tree_import_nothing_written_after_them() {
    let gen = Path::new(ROOT).join("src/gen");
    for (f, top) in crate_modules() {
        if top != "gen" {
            continue;
        }
        let part = f
            .strip_prefix(&gen)
            .unwrap()
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let Some(here) = floor_of(GEN_FLOORS, &part) else { continue };
        // How many `super::` from this file reach `gen` itself: one from gen/x.rs and from
        // gen/x/mod.rs, two from gen/x/y.rs.
        let nested = f.parent() != Some(gen.as_path()) && f.file_name().unwrap() != "mod.rs";
        let to_gen = if nested { "super::super::" } else { "super::" };
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for prefix in ["crate::gen::", to_gen] {
                let mut rest = code;
                while let Some(at) = rest.find(prefix) {
                    // `super::super::x` is read once, by its full prefix.
                    let before = &rest[..at];
                    rest = &rest[at + prefix.len()..];
                    if prefix == "super::" && (before.ends_with("super::") || rest.starts_with("super::")) {
                        continue;
                    }
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    let allowed = name == part || floor_of(GEN_FLOORS, &name).is_some_and(|there| there <= here);
                    assert!(
                        allowed,
                        "{}:{}: gen's `{part}` imports `{name}`, written after it: {line}",
                        f.display(),
                        i + 1
                    );
                }
            }
        }
    }
}

#[test]
fn the_layer_reader_finds_an_import_that_runs_back_up() {
    let planted = "use crate::syntax::ast;\nuse crate::{gen::plan, Sources};\n// crate::harness in a comment\n#[cfg(test)]\nuse crate::mcp;";
    let names: Vec<String> = crate_paths(planted).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["syntax", "gen", "Sources"]);
    assert!(floor_of(FLOORS, "gen") > floor_of(FLOORS, "sema"));
}

// Code repeated across backends: a small clone detector (see the test that holds it).

/// How many kept lines in a row make a run.
const RUN: usize = 6;
/// Places one window of shapes may stand in before it is too common to count (as `duplicates`).
const TOO_COMMON: usize = 8;
/// Runs repeated across backends the project allows.
const MOST_RUNS: usize = 3;

/// Words a shape keeps as they are; every other name becomes `NAME`.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "false", "fn", "for", "if", "impl", "in", "let",
    "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "dyn",
];
const NAME: &str = "x";
const STRING: &str = "\"\"";
const NUMBER: &str = "0";

/// A string literal left open at the end of a line, by how it closes.
#[derive(Clone, Copy)]
enum Open {
    /// `"…"` or `b"…"`: `\` escapes the next character, and at a line's end continues the literal.
    Escaped,
    /// `r"…"`, `r#"…"#`, with this many `#`: ends at `"` and as many `#`.
    Raw(usize),
}

/// Shapes a file's lines in order: a literal left open on one line goes on into the next.
#[derive(Default)]
struct Shaper {
    open: Option<Open>,
}

impl Shaper {
    /// The shape of one line (tokens joined by a space), or `None` where it is passed over.
    fn line(&mut self, text: &str) -> Option<String> {
        let c: Vec<char> = text.chars().collect();
        let mut tokens = Vec::new();
        let start = match self.open.take() {
            None => 0,
            Some(open) => {
                // The line starts inside a literal opened above: text of another language up
                // to the literal's end, compared to the letter (marked, to equal no code).
                let end = literal_end(&c, 0, open).unwrap_or_else(|| {
                    self.open = Some(open);
                    c.len()
                });
                let text: String = c[..end].iter().collect();
                tokens.push(format!("{STRING}{}", text.split_whitespace().collect::<Vec<_>>().join(" ")));
                end
            }
        };
        tokens.extend(self.tokens(&c, start));
        let import = start == 0 && ["use ", "pub use "].iter().any(|u| text.trim_start().starts_with(u));
        let no_word = !text.chars().any(|c| c.is_ascii_alphanumeric()) || !tokens.iter().any(|t| is_word(t));
        (!import && !no_word).then(|| tokens.join(" "))
    }

    /// The tokens of a line from `i`, up to a `//` comment; a literal that does not close
    /// is remembered for the next line.
    fn tokens(&mut self, c: &[char], mut i: usize) -> Vec<String> {
        let mut out = Vec::new();
        while i < c.len() {
            if c[i].is_whitespace() {
                i += 1;
                continue;
            }
            if c[i] == '/' && c.get(i + 1) == Some(&'/') {
                break;
            }
            if let Some((open, body)) = literal_start(c, i) {
                out.push(STRING.to_string());
                match literal_end(c, body, open) {
                    Some(end) => i = end,
                    None => {
                        self.open = Some(open);
                        break;
                    }
                }
                continue;
            }
            let (token, end) = token(c, i);
            out.push(token);
            i = end;
        }
        out
    }
}

/// One token that is not a string literal: its shape and where it ends.
fn token(c: &[char], i: usize) -> (String, usize) {
    let quote = if c[i] == 'b' && c.get(i + 1) == Some(&'\'') { i + 1 } else { i };
    if let Some(end) = char_literal_end(c, quote) {
        return (STRING.to_string(), end);
    }
    if c[i].is_ascii_digit() {
        let end = scan(c, i, |c, j| c[j].is_alphanumeric() || c[j] == '_' || (c[j] == '.' && next_is_digit(c, j)));
        return (NUMBER.to_string(), end);
    }
    if c[i].is_alphabetic() || c[i] == '_' {
        let end = scan(c, i, |c, j| c[j].is_alphanumeric() || c[j] == '_');
        let word: String = c[i..end].iter().collect();
        let shape = if KEYWORDS.contains(&word.as_str()) { word } else { NAME.to_string() };
        return (shape, end);
    }
    (c[i].to_string(), i + 1)
}

/// A token that is not punctuation: a name, keyword, number or string.
fn is_word(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphanumeric() || c == '"')
}

/// The first index from `i` where `more` fails.
fn scan(c: &[char], mut i: usize, more: impl Fn(&[char], usize) -> bool) -> usize {
    while i < c.len() && more(c, i) {
        i += 1;
    }
    i
}

fn next_is_digit(c: &[char], i: usize) -> bool {
    c.get(i + 1).is_some_and(char::is_ascii_digit)
}

/// A string literal opening at `i` (`"`, `b"`, `r"`, `r#"`, `br#"`): its kind and where its text starts.
fn literal_start(c: &[char], i: usize) -> Option<(Open, usize)> {
    let after_b = if c[i] == 'b' { i + 1 } else { i };
    match c.get(after_b) {
        Some('"') => Some((Open::Escaped, after_b + 1)),
        Some('r') => {
            let hashes = scan(c, after_b + 1, |c, j| c[j] == '#') - after_b - 1;
            let quote = after_b + 1 + hashes;
            (c.get(quote) == Some(&'"')).then_some((Open::Raw(hashes), quote + 1))
        }
        _ => None,
    }
}

/// Where a literal whose text runs from `i` ends (just past its closing quote), or `None`
/// where the line ends inside it.
fn literal_end(c: &[char], mut i: usize, open: Open) -> Option<usize> {
    while i < c.len() {
        match (open, c[i]) {
            (Open::Escaped, '\\') => i += 2,
            (Open::Escaped, '"') => return Some(i + 1),
            (Open::Raw(hashes), '"') if c.get(i + 1..i + 1 + hashes).is_some_and(|h| h.iter().all(|&h| h == '#')) => {
                return Some(i + 1 + hashes)
            }
            _ => i += 1,
        }
    }
    None
}

/// Where a char literal at `i` (`'x'`, `'\n'`, `'\u{7f}'`) ends; `None` for a lifetime (`'a`).
fn char_literal_end(c: &[char], i: usize) -> Option<usize> {
    if c[i] != '\'' {
        return None;
    }
    match c.get(i + 1) {
        Some('\\') => c.iter().skip(i + 3).position(|&q| q == '\'').map(|p| i + 3 + p + 1),
        Some(_) if c.get(i + 2) == Some(&'\'') => Some(i + 3),
        _ => None,
    }
}

/// One file's kept lines: their shapes and their numbers in the file.
struct Source {
    path: String,
    backend: usize,
    shapes: Vec<String>,
    numbers: Vec<usize>,
}

impl Source {
    fn new(path: String, backend: usize, text: &str) -> Source {
        let mut shaper = Shaper::default();
        let (mut shapes, mut numbers) = (Vec::new(), Vec::new());
        for (i, line) in text.lines().enumerate() {
            if let Some(shape) = shaper.line(line) {
                shapes.push(shape);
                numbers.push(i + 1);
            }
        }
        Source { path, backend, shapes, numbers }
    }

    /// Every backend's Rust files, each with the backend's index.
    fn of_backends() -> Vec<Source> {
        let mut out = Vec::new();
        for (backend, dir) in backends().iter().enumerate() {
            for f in rust_files(dir) {
                let path = f.strip_prefix(ROOT).unwrap().display().to_string();
                out.push(Source::new(path, backend, &std::fs::read_to_string(&f).unwrap()));
            }
        }
        out
    }
}

/// One place of a run: a source and the first and last of its kept lines in the run.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    source: usize,
    first: usize,
    last: usize,
}

/// The same lines by shape in two places of two backends, as long as they go on alike.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Run(Place, Place);

impl Run {
    fn show(&self, sources: &[Source]) -> String {
        let at = |p: &Place| {
            let s = &sources[p.source];
            format!("{}:{}-{}", s.path, s.numbers[p.first], s.numbers[p.last])
        };
        format!("{} ~ {}", at(&self.0), at(&self.1))
    }
}

/// Every maximal run of `RUN` or more same-shape lines shared by files of two backends,
/// seeded by a window that is not too common.
fn repeated_runs(sources: &[Source]) -> Vec<Run> {
    let mut runs = std::collections::BTreeSet::new();
    for (_, places) in windows(sources).iter().filter(|(w, p)| p.len() <= TOO_COMMON && !is_list(w)) {
        for (i, &a) in places.iter().enumerate() {
            for &b in &places[i + 1..] {
                if sources[a.0].backend != sources[b.0].backend {
                    runs.insert(extend(sources, a, b));
                }
            }
        }
    }
    runs.into_iter().collect()
}

/// A window where one shape fills more than half the lines: a list (struct fields, match
/// arms, `o.line` calls), the way a table is written, not a copy of logic.
fn is_list(window: &[String]) -> bool {
    window.iter().any(|s| window.iter().filter(|t| *t == s).count() * 2 > window.len())
}

/// Every window of `RUN` shapes, with the places (source, first line) it stands in.
fn windows(sources: &[Source]) -> std::collections::HashMap<&[String], Vec<(usize, usize)>> {
    let mut out: std::collections::HashMap<_, Vec<_>> = std::collections::HashMap::new();
    for (s, source) in sources.iter().enumerate() {
        for (first, window) in source.shapes.windows(RUN).enumerate() {
            out.entry(window).or_default().push((s, first));
        }
    }
    out
}

/// The run through two places of one window, grown both ways while the shapes agree.
fn extend(sources: &[Source], (sa, a): (usize, usize), (sb, b): (usize, usize)) -> Run {
    let (x, y) = (&sources[sa].shapes, &sources[sb].shapes);
    let back = (1..=a.min(b)).take_while(|k| x[a - k] == y[b - k]).count();
    let on = (RUN..).take_while(|k| a + k < x.len() && b + k < y.len() && x[a + k] == y[b + k]).count();
    let len = RUN + on;
    let place = |source, at: usize| Place { source, first: at - back, last: at + len - 1 };
    Run(place(sa, a), place(sb, b))
}

/// Code repeated across backends (six or more lines of the same shape in two places) stands in
/// at most `MOST_RUNS` places. A small clone detector, after the `duplicates` tool:
/// - Every .rs file under every backend folder is read line by line. A line is passed over
///   when it is blank, a comment, a `use`, or its code is punctuation alone (`}`, `});`,
///   `} // done`): every file has those, and they say nothing of the logic.
/// - A kept line's *shape* is its tokens, white space aside, with every string and char
///   literal one placeholder, every number `0`, and every name that is not a Rust keyword
///   another (so `Some`, `None` and `String` are names too).
/// - A string literal that spans lines (`const RECORD: &str = "/**…`, a template of the
///   target language) is one literal where it opens; the lines inside it are text of another
///   language, which Rust's tokens do not shape, so they are compared to the letter (white
///   space folded). Passing over them would join the code around two templates into one run;
///   shaping each as a bare string would make any two templates of one length alike.
/// - A run is `RUN` or more kept lines in a row of one file whose shapes stand, in order, in a
///   file of another backend: found through its windows of `RUN` lines, then grown both ways
///   while the shapes agree, so that only maximal runs are told.
/// - A window starts no run when it stands in more than `TOO_COMMON` places across the
///   backends' files (the language's idiom), or when one shape fills more than half of it (a
///   list: struct fields, match arms, `o.line("…")` after `o.line("…")` broken by one
///   `o.blank()`), the way a table is written rather than a copy of logic. A run that only
///   passes through such windows still counts.
#[test]
fn code_repeated_across_backends_stands_in_at_most_3_places() {
    let sources = Source::of_backends();
    let runs: Vec<String> = repeated_runs(&sources).iter().map(|r| r.show(&sources)).collect();
    eprintln!("{} runs of {RUN}+ same-shape lines across backends:", runs.len());
    for r in &runs {
        eprintln!("  {r}");
    }
    assert!(
        runs.len() <= MOST_RUNS,
        "{} runs of code repeated across backends (at most {MOST_RUNS}):\n{}",
        runs.len(),
        runs.join("\n")
    );
}

#[test]
fn the_clone_detector_finds_a_planted_run_and_nothing_else() {
    // Seven kept lines, planted in two backends under other names, strings and numbers.
    const PLANTED: &str = "    let NAME = Vec::new();
    for k in 0..COUNT {
        NAME.push(k * COUNT);
    }
    if NAME.len() > COUNT { return None; }
    let text = format!(\"WORD {}{}\", NAME[0], '\"');
    // a comment, passed over
    println!(\"{text}\");
    Some(NAME)
";
    let plant =
        |name: &str, word: &str, n: &str| PLANTED.replace("NAME", name).replace("WORD", word).replace("COUNT", n);
    let one = format!("fn first(a: u8) -> Option<Vec<u32>> {{\n{}}}\nconst A: u8 = 1;\n", plant("alpha", "one", "3"));
    let other =
        format!("pub fn second() -> Option<Vec<u32>> {{\n{}}}\nstatic B: &str = \"b\";\n", plant("beta", "two", "40"));
    let found = |a: &str, b: &str| {
        let sources = [Source::new("a.rs".into(), 0, a), Source::new("b.rs".into(), 1, b)];
        repeated_runs(&sources).iter().map(|r| r.show(&sources)).collect::<Vec<_>>()
    };
    assert_eq!(found(&one, &other), ["a.rs:2-10 ~ b.rs:2-10"]);
    assert_eq!(found(&one, "pub fn second() {}\n"), Vec::<String>::new());
    // Inside a string literal that spans lines, the lines are text: alike only to the letter.
    let text = |t: &str| format!("const T: &str = r#\"\n{t}\"#;\n");
    assert_eq!(found(&one, &text(&one)), Vec::<String>::new());
    assert_eq!(found(&text(&one), &text(&other)), Vec::<String>::new());
    assert_eq!(found(&text(&one), &text(&one)), ["a.rs:1-13 ~ b.rs:1-13"]);
}

/// Every test file shares tests/common: it declares the module, and none but common names
/// the binary under test or defines its own way of running it.
#[test]
fn every_test_file_runs_rulec_through_tests_common() {
    let tests = Path::new(ROOT).join("tests");
    let mut files = 0;
    for e in std::fs::read_dir(&tests).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(text.lines().any(|l| l == "mod common;"), "{name} does not declare `mod common;`");
        assert!(!text.contains(concat!("CARGO_BIN_", "EXE_rulec")), "{name} names the binary: use common::command");
        assert!(!text.lines().any(|l| l.starts_with("fn rulec(")), "{name} defines its own `fn rulec`: use common's");
    }
    assert!(files > 30, "{files} test files");
    let polyglot = std::fs::read_to_string(tests.join("polyglot/mod.rs")).unwrap();
    assert!(!polyglot.contains(concat!("CARGO_BIN_", "EXE_rulec")), "polyglot names the binary");
}

/// The hooks a backend may give: its tables of spellings, the `spelled_by!` methods, and
/// the methods that spell one node they are handed (docs/adding-a-language.md). Every
/// other hook — what is checked, in which order, how a table or the door is written — is
/// written once in src/gen/stmt.rs from the tables.
const SPELLING: &[&str] = &[
    "BLOCKS",
    "WIRE",
    "RECORD_VALUES",
    "LISTS",
    "GUARD",
    "out",
    "plan",
    "names",
    "expr",
    "ops",
    "local_ty",
    "lit",
    "name",
    "binding",
    "declare",
    "value",
    "case_label",
    "record_text",
    "table_call",
    "table_match",
    "check_int_args",
    "shown",
    "sequence_line",
];

/// The items of every `impl Hooks for` block of `text`: each `fn` or `const` one level in.
fn hook_items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("impl") && line.contains("Hooks for ") {
            inside = true;
            continue;
        }
        if inside && line == "}" {
            inside = false;
        }
        let Some(item) = line.strip_prefix("    ").filter(|_| inside) else { continue };
        let item = item.strip_prefix("pub ").unwrap_or(item);
        for kw in ["fn ", "const "] {
            if let Some(rest) = item.strip_prefix(kw) {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn no_backend_overrides_a_hook_outside_the_spelling_set() {
    let mut seen = 0;
    for b in backends() {
        for f in rust_files(&b) {
            let text = std::fs::read_to_string(&f).unwrap();
            for item in hook_items(&text) {
                seen += 1;
                assert!(
                    SPELLING.contains(&item.as_str()),
                    "{}: the hook `{item}` decides; write it in stmt.rs from a table",
                    f.display()
                );
            }
        }
    }
    // Eight function-shaped languages give at least their block syntax each.
    assert!(seen >= 8, "{seen}");
}

/// The plain function's copy of the branches (`walk::plain`) writes through the language's
/// hooks with the trace left out: it must forward every hook a backend may give, or a
/// language's spelling would be lost there alone. The two it leaves out write their own rows,
/// and `walk::plain` refuses a language that has them.
#[test]
fn the_untraced_hooks_forward_every_spelling() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("src/gen/walk.rs")).unwrap();
    let items = hook_items(&text);
    let missing: Vec<&&str> = SPELLING
        .iter()
        .filter(|h| !["table_call", "table_match"].contains(h) && !items.iter().any(|i| i == *h))
        .collect();
    assert!(missing.is_empty(), "walk.rs's Untraced does not forward {missing:?}");
    assert!(items.iter().any(|i| i == "fire_trace"), "Untraced records no row");
}

#[test]
fn the_hook_reader_finds_an_override() {
    let planted = "impl Hooks for Body<'_, '_, X<'_>> {\n    const BLOCKS: Blocks = Blocks::PARENS;\n    fn guard_input(&mut self) {}\n}\n";
    assert_eq!(hook_items(planted), vec!["BLOCKS", "guard_input"]);
}

/// The backends whose module is functions: every backend but SQL's query, NumPy's columns
/// and the wasm and serve wrappers around another backend's code.
fn function_shaped() -> Vec<PathBuf> {
    let mut out = backends();
    out.retain(|p| !["sql", "numpy", "wasm", "serve"].contains(&p.file_name().unwrap().to_str().unwrap()));
    out
}

/// How many times `text` calls `call` outside `//` comments.
fn calls(text: &str, call: &str) -> usize {
    text.lines().map(|l| l.split("//").next().unwrap_or("").matches(call).count()).sum()
}

/// What a function-shaped backend's files (each its path and text) do wrong by the module's
/// tail: its mod.rs calls `sig::rest` other than once, or a file writes the record function
/// itself.
fn tail_faults(files: &[(String, String)]) -> Vec<String> {
    let mut faults = Vec::new();
    let rest: usize = files.iter().filter(|(p, _)| p.ends_with("mod.rs")).map(|(_, t)| calls(t, "sig::rest(")).sum();
    if rest != 1 {
        faults.push(format!("its mod.rs calls sig::rest {rest} times"));
    }
    for (path, text) in files {
        if calls(text, "record_function(") > 0 {
            faults.push(format!("{path} calls stmt::record_function itself"));
        }
    }
    faults
}

/// What a function-shaped module holds after its types — the runtime's errors, the outputs'
/// type, the functions, the record function, the runtime's sections the rule takes — is laid
/// out once, in `sig::rest` (a language's differences are its `sig::Tail`): every such
/// backend goes through it, once, and none writes the record function by hand.
#[test]
fn every_function_shaped_backend_writes_its_tail_through_sig_rest() {
    let backends = function_shaped();
    assert!(backends.len() >= 8, "{backends:?}");
    for b in backends {
        let name = b.file_name().unwrap().to_str().unwrap();
        let files: Vec<(String, String)> = rust_files(&b)
            .into_iter()
            .map(|f| (f.strip_prefix(ROOT).unwrap().display().to_string(), std::fs::read_to_string(&f).unwrap()))
            .collect();
        let faults = tail_faults(&files);
        assert!(faults.is_empty(), "src/gen/{name} lays out its module's tail by hand: {faults:?}");
    }
}

#[test]
fn the_tail_reader_finds_a_tail_written_by_hand() {
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let through =
        "        // sig::rest( in a comment\n        sig::rest(&mut o, plan, self, TAIL, record, output, functions);\n";
    assert_eq!(tail_faults(&[file("x/mod.rs", through)]), Vec::<String>::new());
    let by_hand =
        "        self.functions(&mut o);\n        stmt::record_function(plan, &mut body, RECORD, &signature);\n";
    assert_eq!(
        tail_faults(&[file("x/mod.rs", by_hand)]),
        ["its mod.rs calls sig::rest 0 times", "x/mod.rs calls stmt::record_function itself"]
    );
    // Once through sig::rest, a second tail in another file is still found.
    assert_eq!(
        tail_faults(&[file("x/mod.rs", through), file("x/more.rs", by_hand)]),
        ["x/more.rs calls stmt::record_function itself"]
    );
    assert_eq!(tail_faults(&[file("x/mod.rs", &through.repeat(2))]), ["its mod.rs calls sig::rest 2 times"]);
}

/// What a function-shaped language's own Rust may hold: what the shared machinery cannot say
/// for it. Its fixed text belongs in its `runtime/` files, the rest in the shared machinery.
const MAX_BACKEND_LINES: usize = 450;

#[test]
fn every_function_shaped_backend_is_at_most_450_lines() {
    let backends = function_shaped();
    assert!(backends.len() >= 8, "{backends:?}");
    let mut over = Vec::new();
    for dir in backends {
        let f = dir.join("mod.rs");
        let count = std::fs::read_to_string(&f).unwrap().lines().count();
        if count > MAX_BACKEND_LINES {
            over.push(format!("{}: {count} lines", f.display()));
        }
    }
    assert!(over.is_empty(), "more than {MAX_BACKEND_LINES} lines: {}", over.join("; "));
}
