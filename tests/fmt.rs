//! `rulec fmt`: the canonical form is a fixed point, keeps every comment, and never changes
//! what a rule means — the same diagnostics, and for every `expect` the same record (outputs
//! and trace) byte for byte. Also the CLI's `fmt`/`--check`/`--format json`, snapshots of
//! three formatted corpus files, and the canonicalisations one by one.

mod common;
use common::rulec;

use rulec::analysis::Options;
use rulec::diag::FileId;
use rulec::eval::{self, wire};
use rulec::sema::{Program, Step};
use rulec::syntax::{self, fmt::format_file, lexer};
use rulec::{check_text, Checked, Sources};
use std::path::{Path, PathBuf};
use std::process::Output;

// ---- helpers

/// Every `.rule` file under tests/corpus (clean, broken and the shared enums file), sorted.
fn corpus() -> Vec<(PathBuf, String)> {
    let root = corpus_path("");
    let mut out: Vec<(PathBuf, String)> = walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rule"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.into_path(), text)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 25, "the corpus is missing: {} files under {}", out.len(), root.display());
    out
}

fn corpus_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(rel)
}

fn corpus_text(rel: &str) -> String {
    std::fs::read_to_string(corpus_path(rel)).unwrap()
}

fn is_clean_corpus(path: &Path) -> bool {
    !path.components().any(|c| c.as_os_str() == "broken")
}

/// The canonical form, or the codes of the syntax errors that make `fmt` refuse.
fn format_text(text: &str) -> Result<String, Vec<&'static str>> {
    let parsed = syntax::parse(text, FileId(0));
    let errors: Vec<&'static str> = parsed.diags.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
    match parsed.file {
        Some(f) if errors.is_empty() => Ok(format_file(&f)),
        _ => Err(errors),
    }
}

fn fmt_ok(text: &str) -> String {
    format_text(text).unwrap_or_else(|codes| panic!("fmt refused {codes:?}:\n{text}"))
}

/// Check `text` as if it were the file at `path` (so that `use` resolves from its folder).
fn check(path: &Path, text: &str) -> Checked {
    check_text(&mut Sources::new(), path.to_str().unwrap(), text, &Options::default())
}

fn codes(c: &Checked) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = c.diagnostics.iter().map(|d| d.code).collect();
    v.sort_unstable();
    v
}

/// What a program means, as far as formatting could touch it: its signature, its tables,
/// its evaluation order, and the record of every `expect` run through the door and the
/// reference evaluator (outputs and trace, as `rulec eval` writes them).
fn meaning(p: &Program) -> Vec<String> {
    let mut out = vec![format!("rule {} {:?} v{} about={:?}", p.name, p.alias, p.version, p.about)];
    out.push(format!("inputs {:?}", p.inputs.iter().map(|&v| &p.vars[v].name).collect::<Vec<_>>()));
    out.push(format!("outputs {:?}", p.outputs.iter().map(|&v| &p.vars[v].name).collect::<Vec<_>>()));
    out.push(format!("constraints {}", p.constraints.len()));
    for t in &p.tables {
        out.push(format!("table {} {:?} rows={} results={}", t.name, t.policy, t.rows.len(), t.results.len()));
    }
    let order: Vec<String> = p
        .order
        .iter()
        .map(|s| match *s {
            Step::Table(t) => format!("table {}", p.tables[t].name),
            Step::Define(d) => format!("define {}", p.vars[p.defines[d].var].name),
            Step::Walk(w) => format!("walk {}", p.sequences[p.walks[w].seq].name),
        })
        .collect();
    out.push(format!("order {order:?}"));
    out.push(format!("expects {}", p.expects.len()));
    for e in &p.expects {
        let mut obj = serde_json::Map::new();
        for (v, x) in &e.inputs {
            obj.insert(p.vars[*v].name.clone(), wire::to_wire(p, &p.vars[*v], x));
        }
        let line = match wire::read_inputs(p, &serde_json::Value::Object(obj)) {
            Err(r) => wire::refusal_line(&r),
            Ok(inputs) => match eval::evaluate(p, &inputs) {
                Ok(o) => wire::record(p, &inputs, &o, ""),
                Err(e) => wire::contradiction_line(&e),
            },
        };
        out.push(line);
    }
    out
}

/// Every comment of a text, as the lexer reads it (not the parser), trailing blanks trimmed.
fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut base = 0;
    for line in text.split('\n') {
        let lexed = lexer::lex_line(line, base, FileId(0), &mut Vec::new());
        if let Some((c, _)) = lexed.comment {
            out.push(c.trim_end().to_string());
        }
        base += line.len() + 1;
    }
    out.sort();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The display width of every line of a table block must be the same.
fn assert_aligned(block: &str) {
    use unicode_width::UnicodeWidthStr;
    let widths: Vec<usize> = block.lines().map(UnicodeWidthStr::width).collect();
    assert!(widths.windows(2).all(|w| w[0] == w[1]), "not aligned ({widths:?}):\n{block}");
}

// ---- (a)–(c) on the whole corpus

#[test]
fn corpus_formats_idempotently() {
    let mut formatted = 0;
    for (path, text) in corpus() {
        let Ok(once) = format_text(&text) else {
            continue;
        };
        formatted += 1;
        let twice = format_text(&once)
            .unwrap_or_else(|c| panic!("{}: the formatted text does not parse: {c:?}", path.display()));
        assert_eq!(once, twice, "{}: format(format(x)) != format(x)", path.display());
    }
    // Everything but broken/literal.rule (E049) formats.
    assert_eq!(formatted, corpus().len() - 1);
}

#[test]
fn corpus_formatting_preserves_meaning() {
    for (path, text) in corpus() {
        let Ok(formatted) = format_text(&text) else {
            continue;
        };
        let before = check(&path, &text);
        let after = check(&path, &formatted);
        assert_eq!(codes(&before), codes(&after), "{}: the diagnostics changed", path.display());
        assert_eq!(before.program.is_some(), after.program.is_some(), "{}", path.display());
        if let (Some(a), Some(b)) = (&before.program, &after.program) {
            assert_eq!(meaning(a), meaning(b), "{}: the meaning changed", path.display());
        }
        if is_clean_corpus(&path) {
            assert!(!before.has_errors(), "{}: a clean corpus rule has errors: {:?}", path.display(), codes(&before));
        }
    }
}

#[test]
fn clean_corpus_rules_evaluate_every_expect_identically() {
    let mut expects = 0;
    for (path, text) in corpus().into_iter().filter(|(p, _)| is_clean_corpus(p)) {
        let before = check(&path, &text);
        let after = check(&path, &fmt_ok(&text));
        let header = before.header.as_ref().unwrap();
        if header.kind == syntax::ast::HeaderKind::Enums {
            assert!(before.program.is_none() && after.program.is_none());
            continue;
        }
        let (a, b) = (before.program.unwrap(), after.program.unwrap());
        assert!(!a.expects.is_empty(), "{}: a clean rule without expects", path.display());
        expects += a.expects.len();
        let (ma, mb) = (meaning(&a), meaning(&b));
        assert_eq!(ma, mb, "{}", path.display());
        // Every expect answered with a record, not a refusal.
        assert!(ma.iter().filter(|l| l.starts_with("{\"in\"")).count() == a.expects.len(), "{}", path.display());
    }
    assert!(expects >= 30, "only {expects} expects in the clean corpus");
}

#[test]
fn corpus_comments_survive() {
    for (path, text) in corpus() {
        let Ok(formatted) = format_text(&text) else {
            continue;
        };
        assert_eq!(comments(&text), comments(&formatted), "{}: a comment was lost or duplicated", path.display());
    }
}

// ---- (d) the CLI

#[test]
fn cli_check_then_rewrite_then_check() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read(corpus_path("single_coupon.rule")).unwrap();
    let file = dir.path().join("single_coupon.rule");
    std::fs::write(&file, &original).unwrap();
    let canonical = fmt_ok(std::str::from_utf8(&original).unwrap());
    assert_ne!(canonical.as_bytes(), original.as_slice(), "the corpus copy is expected to be unformatted");

    // --check: exit 1, names the file, writes nothing.
    let o = rulec(&["fmt", "single_coupon.rule", "--check"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(stdout(&o).contains("single_coupon.rule"), "{o:?}");
    assert_eq!(std::fs::read(&file).unwrap(), original, "--check wrote the file");

    let o = rulec(&["fmt", "single_coupon.rule", "--check", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j, serde_json::json!({"unformatted": ["single_coupon.rule"], "formatted": []}));
    assert_eq!(std::fs::read(&file).unwrap(), original, "--check wrote the file");

    // fmt: rewrites it to the canonical form.
    let o = rulec(&["fmt", "single_coupon.rule", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j, serde_json::json!({"unformatted": [], "formatted": ["single_coupon.rule"]}));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), canonical);

    // Now it is canonical: --check passes, and fmt leaves it alone.
    let o = rulec(&["fmt", "single_coupon.rule", "--check"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let o = rulec(&["fmt", ".", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j, serde_json::json!({"unformatted": [], "formatted": []}));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), canonical);
}

#[test]
fn cli_formats_a_whole_corpus_copy_to_a_fixed_point() {
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for (path, text) in corpus() {
        if !is_clean_corpus(&path) {
            continue;
        }
        let rel = path.strip_prefix(corpus_path("")).unwrap();
        let to = dir.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, &text).unwrap();
        n += 1;
    }
    let o = rulec(&["fmt", ".", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(j["unformatted"].as_array().unwrap().is_empty());
    assert!(!j["formatted"].as_array().unwrap().is_empty());
    assert!(j["formatted"].as_array().unwrap().len() <= n);
    // The rewritten rules still check clean, `use` included.
    let o = rulec(&["check", "."], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let o = rulec(&["fmt", ".", "--check"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

#[test]
fn shipped_examples_are_in_canonical_form() {
    // What a user copies from first: every rule under examples/ is already what fmt writes.
    let o = rulec(&["fmt", "examples", "--check"], Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
}

#[test]
fn crlf_is_rewritten_to_lf() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("crlf.rule");
    let lf = fmt_ok(&corpus_text("ticket_price.rule"));
    std::fs::write(&file, lf.replace('\n', "\r\n")).unwrap();
    let o = rulec(&["fmt", "crlf.rule", "--check"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let o = rulec(&["fmt", "crlf.rule"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), lf);
}

#[test]
fn thousands_separator_is_not_formattable() {
    // Through the library: E049 is a syntax error, so there is no canonical form.
    let text = "rule r v1\ninput x: int 0..1,000\n";
    assert_eq!(format_text(text), Err(vec!["E049"]));
    let text = "rule r v1\ninput x: money[JPY] 0JPY..5000JPY\noutput y: bool\ntable t -> y\n| x | y |\n|---|---|\n| <1,000JPY | true |\n| >=1000JPY | false |\n";
    assert_eq!(format_text(text), Err(vec!["E049"]));

    // Through the CLI: fmt refuses, exits 1, names E049 and leaves the file as it was.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("literal.rule");
    let original = std::fs::read(corpus_path("broken/literal.rule")).unwrap();
    std::fs::write(&file, &original).unwrap();
    for args in [
        &["fmt", "literal.rule"][..],
        &["fmt", "literal.rule", "--check"],
        &["fmt", "literal.rule", "--format", "json"],
    ] {
        let o = rulec(args, dir.path());
        assert_eq!(o.status.code(), Some(1), "{args:?}: {o:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("E049"), "{args:?}: {o:?}");
        assert_eq!(std::fs::read(&file).unwrap(), original, "{args:?} touched a file it cannot format");
    }
    let o = rulec(&["fmt", "literal.rule", "--format", "json"], dir.path());
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j, serde_json::json!({"unformatted": [], "formatted": []}));
}

// ---- snapshots

#[test]
fn snapshot_member_shipping_fee() {
    // Non-ASCII names and a non-ASCII column header, aligned by display width.
    let text = corpus_text("member_shipping_fee.rule");
    insta::assert_snapshot!("member_shipping_fee", fmt_ok(&text));
}

#[test]
fn snapshot_single_coupon() {
    // A constraint and a define moved into canonical order; tables re-aligned.
    let text = corpus_text("single_coupon.rule");
    insta::assert_snapshot!("single_coupon", fmt_ok(&text));
}

#[test]
fn snapshot_loyalty_points() {
    // Defines and a value interleaved with outputs, an ordered enum, an `any` table.
    let text = corpus_text("loyalty_points.rule");
    insta::assert_snapshot!("loyalty_points", fmt_ok(&text));
}

// ---- canonicalisations, one by one

#[test]
fn argument_lists_get_one_space_after_each_comma() {
    let out = fmt_ok("rule r v1\ninput x: int 1..1000\noutput y: int 1..1000\ndefine y = max(1,  min(x ,100))\n");
    assert!(out.contains("define y = max(1, min(x, 100))\n"), "{out}");
    let out = fmt_ok("rule r v1\ninput x: int 1..1000\noutput y: int 1..1000\ndefine y = max(1,  100)\n");
    assert!(out.contains("define y = max(1, 100)\n"), "{out}");
}

#[test]
fn operators_get_one_space_around_them() {
    let out = fmt_ok(
        "rule r v1\ninput a: int 0..9\ninput b: int 0..9\ninput c: int 0..9\noutput y: int 0..90\ndefine y = a+b*c\n",
    );
    assert!(out.contains("define y = a + b * c\n"), "{out}");
    let out =
        fmt_ok("rule r v1\ninput a: int 0..9\noutput y: bool\ndefine y = (a+1)*2>=a and not a=3 or a  in {1,2}\n");
    assert!(out.contains("define y = (a + 1) * 2 >= a and not a = 3 or a in {1, 2}\n"), "{out}");
    // Parentheses that were written stay; none are invented; a negative literal is canonical.
    let out = fmt_ok("rule r v1\ninput a: int 0..9\noutput y: int -99..99\ndefine y = a-(a-1) - - 5\n");
    assert!(out.contains("define y = a - (a - 1) - -5\n"), "{out}");
}

#[test]
fn literals_are_written_canonically() {
    let out = fmt_ok("rule r v1\ninput w: mass[kg] 0.50kg..002kg\ninput r: rate[0.1%] 0.10%..10.0%\noutput y: bool\ndefine y = w > 1.500kg\n");
    assert!(out.contains("input w: mass[kg] 0.5kg..2kg\n"), "{out}");
    assert!(out.contains("input r: rate[0.1%] 0.1%..10%\n"), "{out}");
    assert!(out.contains("define y = w > 1.5kg\n"), "{out}");
}

#[test]
fn money_literals_keep_their_currencys_minor_digits() {
    let out = fmt_ok(
        "rule r v1\ninput p: money[EUR] 0EUR..100.0EUR\noutput y: bool\ndefine y = p > 4.90EUR or p < 4.9EUR or p = 0.125EUR\n\
         expect p=4.5USD -> y=true\nexpect p=3JPY -> y=true\nexpect p=0.50EURc -> y=true\n",
    );
    // Cents show both digits, a whole amount none, a finer amount all it has.
    assert!(out.contains("input p: money[EUR] 0EUR..100EUR\n"), "{out}");
    assert!(out.contains("define y = p > 4.90EUR or p < 4.90EUR or p = 0.125EUR\n"), "{out}");
    assert!(out.contains("expect p=4.50USD -> y=true\n"), "{out}");
    // A unit that is its currency's minor unit has no minor digits to keep.
    assert!(out.contains("expect p=3JPY -> y=true\nexpect p=0.5EURc -> y=true\n"), "{out}");
}

#[test]
fn declarations_are_reordered_canonically() {
    let text = "\
rule r v1
expect x=1 -> y=2
table t -> y
| x | y |
|---|---|
| - | z |
define z: int 0..10 = x + 1
output y: int 0..10
constraint x >= 0
input x: int 0..5
enum e: a, b
use \"shared/tiers.rule\"

about \"A rule.\"
";
    let want = "\
rule r v1
about \"A rule.\"

use \"shared/tiers.rule\"

enum e: a, b

input x: int 0..5

constraint x >= 0

output y: int 0..10

define z: int 0..10 = x + 1

table t -> y
| x | y |
|---|---|
| - | z |

expect x=1 -> y=2
";
    assert_eq!(fmt_ok(text), want);
    // Each group keeps the order it was written in.
    let out = fmt_ok("rule r v1\ninput b: int 0..1\noutput q: bool\ninput a: int 0..1\noutput p: bool\n");
    assert_eq!(out, "rule r v1\n\ninput b: int 0..1\ninput a: int 0..1\n\noutput q: bool\noutput p: bool\n");
}

#[test]
fn about_stays_with_the_declaration_it_documents() {
    let text = "\
rule r v1
output y: int 0..10 # y
about \"What the rule answers.\" # on the about
table t -> y
| x | y |
|---|---|
| - | 1 |
about \"The only table.\"
input x: int 0..5
about \"The question.\"
about \"The rule itself.\"
";
    let want = "\
rule r v1
about \"The rule itself.\"

input x: int 0..5
about \"The question.\"

output y: int 0..10 # y
about \"What the rule answers.\" # on the about

table t -> y
| x | y |
|---|---|
| - | 1 |
about \"The only table.\"
";
    let out = fmt_ok(text);
    assert_eq!(out, want);
    assert_eq!(fmt_ok(&out), out);
    let (a, b) = (syntax::parse(text, FileId(0)).file.unwrap(), syntax::parse(&out, FileId(0)).file.unwrap());
    let abouts = |f: &syntax::ast::File| -> Vec<(String, Option<String>)> {
        let mut v: Vec<(String, Option<String>)> = f
            .items
            .iter()
            .map(|i| {
                let what = match &i.kind {
                    syntax::ast::ItemKind::About(a) => format!("file: {}", a.text.value),
                    _ => format!("{:?}", std::mem::discriminant(&i.kind)),
                };
                (what, i.about.as_ref().map(|a| a.text.value.clone()))
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(abouts(&a), abouts(&b));
}

#[test]
fn ragged_table_is_aligned() {
    let text = "\
rule r v1
input weight: mass[lb] 1lb..70lb
input girth: length[in] 1in..130in
output size: int 1..3
table size_of first -> size
|girth|weight|size|
|-|-|-|
|<=60in|<=10lb|1|
| <=60in   |  >10lb | 2 |
|-|-|3|
";
    let out = fmt_ok(text);
    let want_table = "\
table size_of first -> size
| girth  | weight | size |
|--------|--------|------|
| <=60in | <=10lb | 1    |
| <=60in | >10lb  | 2    |
| -      | -      | 3    |
";
    assert!(out.ends_with(want_table), "{out}");
    assert_aligned(want_table.split_once('\n').unwrap().1);
}

#[test]
fn non_ascii_header_aligns_by_display_width() {
    let text = "\
rule r v1
enum member_kind: basic, gold
input 会員(member): member_kind
input total: money[JPY] 0JPY..100000JPY
output 送料(fee): money[JPY] 0JPY..5000JPY
table payer first -> 送料
| 会員 | total | 送料 |
|---|---|---|
| gold | - | 0JPY |
| basic | >=10000JPY | 0JPY |
| - | - | 500JPY |
";
    let out = fmt_ok(text);
    // `会員` is 2 characters but 4 columns wide: it is padded like `basic` less one.
    let want_table = "\
| 会員  | total      | 送料   |
|-------|------------|--------|
| gold  | -          | 0JPY   |
| basic | >=10000JPY | 0JPY   |
| -     | -          | 500JPY |
";
    assert!(out.ends_with(want_table), "{out}");
    assert_aligned(want_table);
    // Padding by chars rather than columns would have put 3 spaces after `会員`.
    assert!(!out.contains("| 会員   |"));
    assert_eq!(fmt_ok(&out), out);
}

#[test]
fn comments_everywhere_survive() {
    let text = "\
# top comment

# a second paragraph
rule r v1 # on the header

# above output
output y: int 0..10 # on output
about \"the answer\" # on the about
input x: int 0..10
define d: int 0..10 = x+1 # on the define
table t first -> y # on the table
# between the table line and its header row
| x | y | # on the header row
|-|-| # on the separator
# above a row
| <=5 | max(1,  x) | # on a row
| - | \"#not a comment\" |
# between a row and the end of the table

# at the end
";
    let want = "\
# top comment

# a second paragraph
rule r v1 # on the header

input x: int 0..10

# above output
output y: int 0..10 # on output
about \"the answer\" # on the about

define d: int 0..10 = x + 1 # on the define

table t first -> y # on the table
# between the table line and its header row
| x   | y                | # on the header row
|-----|------------------| # on the separator
# above a row
| <=5 | max(1, x)        | # on a row
| -   | \"#not a comment\" |

# between a row and the end of the table

# at the end
";
    let out = fmt_ok(text);
    assert_eq!(out, want);
    assert_eq!(comments(text), comments(&out));
    assert_eq!(comments(text).len(), 15);
    assert_eq!(fmt_ok(&out), out);
}

#[test]
fn formatting_never_changes_the_evaluation_order() {
    // Table `ta` reads a define written after table `tb`. Written this way `tb` is ready
    // first; `fmt` prints every define before every table. The trace — part of every
    // record — must come out the same from both spellings.
    let text = "\
rule order v1
input x: int 0..10
output a: int 0..10
output b: int 0..10
table ta -> a
| d | a |
|---|---|
| - | 1 |

table tb -> b
| x | b |
|---|---|
| - | 2 |
define d: int 0..10 = x
expect x=1 -> a=1, b=2
";
    let path = Path::new("order.rule");
    let before = check(path, text);
    let after = check(path, &fmt_ok(text));
    assert!(!before.has_errors(), "{:?}", codes(&before));
    let (a, b) = (before.program.unwrap(), after.program.unwrap());
    assert_eq!(meaning(&a), meaning(&b));
    assert!(meaning(&a).iter().any(|l| l.contains(r#""trace":[{"table":"ta","row":1},{"table":"tb","row":1}]"#)));
}
