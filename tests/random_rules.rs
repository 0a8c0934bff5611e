//! Random rules that check clean, held to the reference evaluator in every generated
//! language (`rulec test --require-all` under CI) and in the plan run as it stands.
//!
//! The generator reaches what the language has: names that are keywords or identifiers of the
//! generated code (and non-ASCII names with aliases), enums ordered and not, groups, display
//! names, optionals, dates, money of several currencies and tax tags, quantities, rates of
//! several steps, strings, every policy, every cell form (`-`, `none`, `not:`, lists, bounds
//! and their conjunctions, groups, bounds on ordered enums), constraints, and defines with
//! every operator (+ - * /, mod, isqrt, min, max, if, round in all seven modes). A rule takes
//! one of four shapes, by its place in the run: only inputs, defines and outputs (no enum, no
//! table; every tenth with a single output), defines over enums with no table, tables whose
//! results sit behind defines, and tables that decide outputs; every run keeps a rule with no
//! table (the first) and says how many. What the kept rules reach is counted from their
//! plans, and a run of 42 rules or more fails unless they reach optional and date inputs, a
//! date output, every policy and every rounding mode — a rule thrown away for an error
//! otherwise hides the feature it was to test.
//!
//! RULEC_RANDOM_RULES sets how many rules (default 100), RULEC_RANDOM_SEED the base seed
//! (default: the time); every seed is printed, and a failure names the rule and its text.

mod common;
use common::rulec;
use std::fmt::Write as _;

/// splitmix64
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Names a rule may legally use that generated code uses itself, or that some target
/// language reserves.
const HOSTILE: &[&str] = &[
    "trace",
    "tag",
    "out",
    "v",
    "x",
    "s",
    "n",
    "d",
    "f",
    "key",
    "call",
    "what",
    "Fired",
    "Output",
    "Input",
    "Date",
    "Day",
    "Wire",
    "RuleError",
    "type",
    "class",
    "def",
    "func",
    "let",
    "var",
    "self",
    "Self",
    "len",
    "int",
    "str",
    "bool",
    "list",
    "dict",
    "isinstance",
    "repr",
    "None",
    "True",
    "null",
    "undefined",
    "NaN",
    "end",
    "begin",
    "echo",
    "select",
    "from",
    "where",
    "guard",
    "Some",
    "Ok",
    "Err",
    "String",
    "Long",
    "Object",
    "Math",
    "BigInt",
    "Number",
    "Error",
    "JSON",
    "fmt",
    "nil",
    "package",
    "import",
    "return",
    "yield",
    "case",
    "switch",
    "match",
    "with",
    "as",
    "is",
    "new",
    "this",
    "static",
    "final",
    "long",
    "char",
    "byte",
    "go",
    "chan",
    "map",
    "range",
    "struct",
    "impl",
    "fn",
    "mut",
    "ref",
    "loop",
    "while",
    "for",
    "break",
    "continue",
    "do",
    "try",
    "catch",
    "throw",
    "function",
    "export",
    "default",
    "_",
    "_x",
    "_row0",
    "_call",
    "main",
    "Enum",
    "Protocol",
    "_trace",
];

/// Keywords of the .rule language: never a name.
const RULE_KEYWORDS: &[&str] = &[
    "rule",
    "enums",
    "use",
    "about",
    "input",
    "output",
    "value",
    "define",
    "table",
    "enum",
    "group",
    "constraint",
    "expect",
    "round",
    "and",
    "or",
    "not",
    "none",
    "true",
    "false",
    "unique",
    "first",
    "any",
    "min",
    "max",
    "mod",
    "isqrt",
    "if",
    "then",
    "else",
    "in",
];

const MODES: &[&str] = &["up", "down", "ceiling", "floor", "half_up", "half_down", "half_even"];

#[derive(Clone)]
enum Ty {
    Int { lo: i64, hi: i64 },
    Money { cur: &'static str, tag: &'static str, lo: i64, hi: i64 },
    Qty { dim: &'static str, unit: &'static str, lo: i64, hi: i64 },
    Rate { step: &'static str, lo: i64, hi: i64 },
    Bool,
    Str,
    Date { lo: i64, hi: i64 },
    Enum(usize),
}

struct EnumDecl {
    name: String,
    values: Vec<String>,
    ordered: bool,
}

struct Var {
    name: String,
    ty: Ty,
    optional: bool,
}

struct Gen {
    rng: Rng,
    used: Vec<String>,
    enums: Vec<EnumDecl>,
    groups: Vec<(String, usize, Vec<usize>)>,
    inputs: Vec<Var>,
    text: String,
}

impl Gen {
    /// A fresh name: hostile, plain, or not ASCII with an alias.
    fn name(&mut self, stem: &str) -> String {
        loop {
            let n = match self.rng.below(10) {
                0..=3 => self.rng.pick(HOSTILE).to_string(),
                4 => format!("{}_{}", self.rng.pick(HOSTILE), self.rng.below(9)),
                5 => format!("重さ{}({stem}{})", self.rng.below(99), self.rng.below(99)),
                6 => format!("{}{}", stem.to_uppercase(), self.rng.below(99)),
                _ => format!("{stem}{}", self.rng.below(999)),
            };
            let ident = n.split('(').next().unwrap().to_string();
            let alias = n.split('(').nth(1).map(|a| a.trim_end_matches(')').to_string());
            let clash = |s: &str, used: &[String]| used.iter().any(|u| u == s);
            if RULE_KEYWORDS.contains(&ident.as_str())
                || clash(&ident, &self.used)
                || alias.as_deref().is_some_and(|a| clash(a, &self.used))
            {
                continue;
            }
            self.used.push(ident);
            if let Some(a) = alias {
                self.used.push(a);
            }
            return n;
        }
    }

    fn literal(&self, ty: &Ty, k: i64) -> String {
        match ty {
            Ty::Int { .. } => k.to_string(),
            Ty::Money { cur, .. } => format!("{k}{cur}"),
            Ty::Qty { unit, .. } => format!("{k}{unit}"),
            Ty::Rate { step, .. } => rate_literal(step, k),
            Ty::Date { .. } => day(k),
            _ => unreachable!("a number"),
        }
    }

    fn ty_text(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int { .. } => "int".into(),
            Ty::Money { cur, tag: "", .. } => format!("money[{cur}]"),
            Ty::Money { cur, tag, .. } => format!("money[{cur}, {tag}]"),
            Ty::Qty { dim, unit, .. } => format!("{dim}[{unit}]"),
            Ty::Rate { step, .. } => format!("rate[{step}]"),
            Ty::Bool => "bool".into(),
            Ty::Str => "string".into(),
            Ty::Date { .. } => "date".into(),
            Ty::Enum(e) => ident(&self.enums[*e].name),
        }
    }

    fn range_text(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int { lo, hi } | Ty::Money { lo, hi, .. } | Ty::Qty { lo, hi, .. } | Ty::Rate { lo, hi, .. } => {
                format!(" {}..{}", self.literal(ty, *lo), self.literal(ty, *hi))
            }
            Ty::Date { lo, hi } => format!(" {}..{}", day(*lo), day(*hi)),
            _ => String::new(),
        }
    }

    fn numeric_ty(&mut self) -> Ty {
        let lo = if self.rng.chance(30) { -self.rng.range(0, 50) } else { 0 };
        let hi = lo + self.rng.range(1, 400);
        match self.rng.below(5) {
            0 | 1 => Ty::Int { lo, hi },
            2 => {
                let (cur, tag) = *self.rng.pick(&[
                    ("JPY", ""),
                    ("JPY", "incl_tax"),
                    ("USD", ""),
                    ("USDc", ""),
                    ("EUR", "excl_tax"),
                    ("GBPp", ""),
                ]);
                Ty::Money { cur, tag, lo, hi }
            }
            3 => {
                let (dim, unit) =
                    *self.rng.pick(&[("mass", "g"), ("mass", "lb"), ("length", "cm"), ("duration", "min")]);
                Ty::Qty { dim, unit, lo, hi }
            }
            _ => {
                let step = *self.rng.pick(&["1%", "0.1%", "0.5%"]);
                Ty::Rate { step, lo: lo.max(0), hi: hi.min(200).max(lo.max(0) + 1) }
            }
        }
    }
}

fn ident(decl: &str) -> String {
    decl.split('(').next().unwrap().to_string()
}

/// The day `k` days after 2026-01-01, as a date literal.
fn day(k: i64) -> String {
    let base = 20454; // 2026-01-01
    let z = base + k + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}-{m:02}-{d:02}")
}

/// A rate literal of `k` steps of `step`.
fn rate_literal(step: &str, k: i64) -> String {
    let tenths = match step {
        "1%" => k * 10,
        "0.1%" => k,
        _ => k * 5,
    };
    if tenths % 10 == 0 {
        format!("{}%", tenths / 10)
    } else {
        format!("{}.{}%", tenths / 10, (tenths % 10).abs())
    }
}

/// A partition of one condition column: the cells of its parts, each an exact cell text.
fn partition(g: &mut Gen, v: &Var) -> Vec<String> {
    let mut parts = match &v.ty {
        Ty::Bool => {
            if g.rng.chance(20) {
                vec!["-".into()]
            } else if g.rng.chance(50) {
                vec!["true".into(), "false".into()]
            } else {
                vec!["false".into(), "not: false".into()]
            }
        }
        Ty::Enum(e) => {
            let en = &g.enums[*e];
            let names: Vec<String> = en.values.iter().map(|v| ident(v.split(' ').next().unwrap())).collect();
            let n = names.len();
            let cut = 1 + g.rng.below(n - 1);
            let group = g.groups.iter().find(|(_, ge, _)| ge == e).map(|(name, _, vs)| (name.clone(), vs.clone()));
            match g.rng.below(4) {
                0 if en.ordered => vec![format!("<={}", names[cut - 1]), format!(">{}", names[cut - 1])],
                1 => vec![names[..cut].join(", "), format!("not: {}", names[..cut].join(", "))],
                2 if group.is_some() => {
                    let (gname, vs) = group.unwrap();
                    vec![gname.clone(), format!("not: {gname}")].into_iter().filter(|_| !vs.is_empty()).collect()
                }
                _ => names.clone(),
            }
        }
        Ty::Str => vec!["\"A\"".into(), "\"B\", \"C\"".into(), "not: \"A\", \"B\", \"C\"".into()],
        Ty::Int { lo, hi }
        | Ty::Money { lo, hi, .. }
        | Ty::Qty { lo, hi, .. }
        | Ty::Rate { lo, hi, .. }
        | Ty::Date { lo, hi } => {
            let (lo, hi) = (*lo, *hi);
            let a = g.rng.range(lo, hi);
            let b = g.rng.range(lo, hi);
            let (a, b) = (a.min(b), a.max(b));
            let shape = g.rng.below(4);
            let lit = |k| g.literal(&v.ty, k);
            match shape {
                0 => vec![format!("<{}", lit(a)), format!(">={}", lit(a))],
                1 => vec![format!("<={}", lit(a)), format!(">{}", lit(a))],
                2 if a < b => {
                    vec![format!("<{}", lit(a)), format!(">={} <{}", lit(a), lit(b)), format!(">={}", lit(b))]
                }
                _ => vec![format!("<={}", lit(a)), format!(">{}", lit(a))],
            }
        }
    };
    if v.optional {
        match g.rng.below(3) {
            0 => parts.push("none".into()),
            1 => {
                let first = parts.remove(0);
                parts.insert(0, format!("{first}, none"));
            }
            _ => {
                parts = vec!["none".into(), "not: none".into()];
            }
        }
    }
    parts
}

/// A table: its heading, rows of cells (conditions then results).
/// Under `priority`, a catch-all row comes first, its result `result_cells(g, usize::MAX)`,
/// ranked below every other row's, so that it answers only where no other row matches.
fn table(
    g: &mut Gen,
    name: &str,
    result: &str,
    priority: bool,
    result_cells: &mut dyn FnMut(&mut Gen, usize) -> String,
) -> String {
    let ncols = 1 + g.rng.below(3);
    let mut cols: Vec<usize> = Vec::new();
    while cols.len() < ncols.min(g.inputs.len()) {
        let c = g.rng.below(g.inputs.len());
        if !cols.contains(&c) {
            cols.push(c);
        }
    }
    let parts: Vec<Vec<String>> = cols
        .iter()
        .map(|&c| {
            let v = Var { name: g.inputs[c].name.clone(), ty: g.inputs[c].ty.clone(), optional: g.inputs[c].optional };
            partition(g, &v)
        })
        .collect();
    let mut rows: Vec<Vec<String>> = vec![Vec::new()];
    for p in &parts {
        rows = rows.into_iter().flat_map(|r| p.iter().map(move |c| [r.clone(), vec![c.clone()]].concat())).collect();
        if rows.len() > 12 {
            rows.truncate(12);
        }
    }
    // A product truncated is no longer complete: the last row takes whatever is left, which
    // only `first` can say.
    let truncated = rows.len() != parts.iter().map(Vec::len).product::<usize>();
    let policy = match (priority, truncated) {
        (true, _) => " priority",
        (false, true) => "first",
        (false, false) => *g.rng.pick(&["", " unique", " first", " any"]),
    };
    if policy == " first" || policy == "first" {
        if let Some(last) = rows.last_mut() {
            if g.rng.chance(50) || truncated {
                *last = vec!["-".to_string(); cols.len()];
            }
        }
    }
    let policy = if policy == "first" { " first" } else { policy };
    let mut t = format!("table {name}{policy} -> {result}\n|");
    for &c in &cols {
        let _ = write!(t, " {} |", ident(&g.inputs[c].name));
    }
    let _ = writeln!(t, " {result} |");
    t.push('|');
    for _ in 0..=cols.len() {
        t.push_str("---|");
    }
    t.push('\n');
    if priority {
        t.push('|');
        t.push_str(&" - |".repeat(cols.len()));
        let _ = writeln!(t, " {} |", result_cells(g, usize::MAX));
    }
    for (i, r) in rows.iter().enumerate() {
        t.push('|');
        for c in r {
            let _ = write!(t, " {c} |");
        }
        let _ = writeln!(t, " {} |", result_cells(g, i));
    }
    t
}

/// DMN's multiple-hit policies, one per rule that takes one, in turn.
const MULTI_HIT: [&str; 7] =
    ["collect sum", "collect count", "collect max", "collect min", "collect", "rule_order", "output_order"];

/// An output of its own decided by a multiple-hit table: rows whose cells overlap freely
/// (every row that holds counts), a default where a sum, a least or a greatest has none.
fn multi_hit_table(g: &mut Gen, policy: &str) -> String {
    let out = g.name("m");
    let out_ident = ident(&out);
    // A list of an enum's values where there is an enum of two or more (output_order ranks
    // by the enum's order), else of numbers.
    let listed =
        g.enums.iter().position(|e| e.values.len() >= 2).filter(|_| policy == "output_order" || g.rng.chance(50));
    let policy = if policy == "output_order" && listed.is_none() { "rule_order" } else { policy };
    let declared = match policy {
        "collect" | "rule_order" | "output_order" => match listed {
            Some(e) => format!("list[{}]", ident(&g.enums[e].name)),
            None => "list[int]".to_string(),
        },
        "collect count" => "int".to_string(),
        _ => format!("int default {}", g.rng.range(0, 5)),
    };
    let _ = writeln!(g.text, "output {out}: {declared}");
    let ncols = (1 + g.rng.below(2)).min(g.inputs.len());
    let mut cols: Vec<usize> = Vec::new();
    while cols.len() < ncols {
        let c = g.rng.below(g.inputs.len());
        if !cols.contains(&c) {
            cols.push(c);
        }
    }
    let mut t = format!("table {} {policy} -> {out_ident}\n|", ident(&g.name("t")));
    for &c in &cols {
        let _ = write!(t, " {} |", ident(&g.inputs[c].name));
    }
    let _ = writeln!(t, " {out_ident} |\n|{}", "---|".repeat(cols.len() + 1));
    for _ in 0..1 + g.rng.below(5) {
        t.push('|');
        for &c in &cols {
            let v = Var { name: g.inputs[c].name.clone(), ty: g.inputs[c].ty.clone(), optional: g.inputs[c].optional };
            let parts = partition(g, &v);
            let cell = if g.rng.chance(30) { "-".to_string() } else { g.rng.pick(&parts).clone() };
            let _ = write!(t, " {cell} |");
        }
        let value = match listed.filter(|_| declared.starts_with("list[")) {
            Some(e) => {
                let en = &g.enums[e];
                let v = ident(en.values[g.rng.below(en.values.len())].split(' ').next().unwrap());
                format!("{}.{v}", ident(&en.name))
            }
            None => g.rng.range(0, 100).to_string(),
        };
        let _ = writeln!(t, " {value} |");
    }
    t
}

/// A numeric input an expression may read, with its type.
fn numeric_inputs(g: &Gen) -> Vec<(String, Ty)> {
    g.inputs
        .iter()
        .filter(|v| !v.optional && matches!(v.ty, Ty::Int { .. } | Ty::Money { .. } | Ty::Qty { .. }))
        .map(|v| (ident(&v.name), v.ty.clone()))
        .collect()
}

/// What a rule is made of; the run cycles through the shapes by the rule's place in it.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// Inputs, defines and outputs only: no enum, no table.
    OnlyDefines,
    /// Enums and defines, no table.
    NoTable,
    /// A table decides a value, and a define turns it into an output.
    BehindDefines,
    /// A table decides an output.
    Tables,
}

impl Shape {
    fn of(index: usize) -> Shape {
        match index % 6 {
            0 => Shape::OnlyDefines,
            1 => Shape::NoTable,
            2 => Shape::BehindDefines,
            _ => Shape::Tables,
        }
    }
}

/// A test a define's `if` can make of the inputs: a boolean, a threshold on a number, an
/// enum's value (qualified: a bare value that is also a variable's name is the variable).
fn condition(g: &mut Gen) -> String {
    let mut tests = Vec::new();
    for v in g.inputs.iter().filter(|v| !v.optional) {
        let name = ident(&v.name);
        match &v.ty {
            Ty::Bool => tests.push(name),
            Ty::Int { lo, hi } | Ty::Money { lo, hi, .. } | Ty::Qty { lo, hi, .. } => {
                let k = lo + (hi - lo) / 2;
                tests.push(format!("{name} > {}", g.literal(&v.ty, k)));
            }
            Ty::Enum(e) => {
                let en = &g.enums[*e];
                tests.push(format!("{name} = {}.{}", ident(&en.name), ident(en.values[0].split(' ').next().unwrap())));
            }
            _ => {}
        }
    }
    if tests.is_empty() {
        return "true".into();
    }
    let i = g.rng.below(tests.len());
    tests.swap_remove(i)
}

/// Two literals of a table-less output's type, the answers of its `if`.
fn two_values(g: &mut Gen, ty: &Ty) -> (String, String) {
    match ty {
        Ty::Enum(e) => {
            let en = &g.enums[*e];
            let v = |i: usize| format!("{}.{}", ident(&en.name), ident(en.values[i].split(' ').next().unwrap()));
            (v(0), v(en.values.len() - 1))
        }
        _ => (g.rng.range(0, 1000).to_string(), g.rng.range(0, 1000).to_string()),
    }
}

fn random_rule(seed: u64, index: usize) -> String {
    let shape = Shape::of(index);
    let mut g = Gen {
        rng: Rng(seed),
        used: Vec::new(),
        enums: Vec::new(),
        groups: Vec::new(),
        inputs: Vec::new(),
        text: String::new(),
    };
    // Rules of one run are generated into one folder: each name is its own.
    let rule_name = format!("{}_r{index}", g.rng.pick(HOSTILE));
    let _ = writeln!(g.text, "rule {rule_name} v{}", 1 + g.rng.below(9));
    if g.rng.chance(50) {
        let _ = writeln!(g.text, "about \"Random rule {index} (seed {seed}): \\\"quoted\\\", \\\\ and 送料.\"");
    }
    let enums = if shape == Shape::OnlyDefines { 0 } else { 1 + g.rng.below(3) };
    for _ in 0..enums {
        let name = g.name("e");
        let n = 2 + g.rng.below(4);
        let values: Vec<String> = (0..n)
            .map(|i| {
                let base = g.name(&format!("m{i}_"));
                if g.rng.chance(15) {
                    format!("{base} \"Shown {i}\"")
                } else {
                    base
                }
            })
            .collect();
        let ordered = g.rng.chance(40);
        let sep = if ordered { " < " } else { ", " };
        let _ = writeln!(g.text, "enum {name}: {}", values.join(sep));
        let e = g.enums.len();
        if g.rng.chance(40) {
            let gname = g.name("grp");
            let members: Vec<usize> = (0..n).filter(|_| g.rng.chance(50)).collect();
            if !members.is_empty() && members.len() < n {
                let names: Vec<String> = members.iter().map(|&i| ident(values[i].split(' ').next().unwrap())).collect();
                let _ = writeln!(g.text, "group {} = {}", ident(&gname), names.join(", "));
                g.groups.push((ident(&gname), e, members));
            }
        }
        g.enums.push(EnumDecl { name, values, ordered });
    }
    for _ in 0..2 + g.rng.below(5) {
        let name = g.name("i");
        let ty = match g.rng.below(8) {
            0 | 1 => g.numeric_ty(),
            2 => Ty::Bool,
            3 => Ty::Str,
            4 => Ty::Date { lo: g.rng.range(0, 30), hi: g.rng.range(31, 400) },
            _ if g.enums.is_empty() => g.numeric_ty(),
            _ => Ty::Enum(g.rng.below(g.enums.len())),
        };
        let optional = !matches!(ty, Ty::Str) && g.rng.chance(20);
        let mut range = g.range_text(&ty);
        if let (Ty::Enum(e), true) = (&ty, g.rng.chance(30)) {
            let en = &g.enums[*e];
            if en.ordered && en.values.len() > 2 {
                let v = |i: usize| ident(en.values[i].split(' ').next().unwrap());
                range = format!(" {}..{}", v(1), v(en.values.len() - 1));
            }
        }
        let _ = writeln!(g.text, "input {name}: {}{}{range}", g.ty_text(&ty), if optional { "?" } else { "" });
        g.inputs.push(Var { name, ty, optional });
    }
    let nums = numeric_inputs(&g);
    if nums.len() >= 2 && g.rng.chance(30) {
        let (a, b) = (&nums[0], &nums[1]);
        if std::mem::discriminant(&a.1) == std::mem::discriminant(&b.1) && g.ty_text(&a.1) == g.ty_text(&b.1) {
            let _ = writeln!(g.text, "constraint {} <= {} + {}", a.0, b.0, g.literal(&b.1, 100));
        }
    }
    // An output decided by a table of literals, one of an enum's values or of a number; or
    // a value so decided that a define turns into an output; or, with no table, an output
    // a define chooses with an `if`.
    let out1 = g.name("o");
    // Every fourth rule's table is `priority` where it can be: its result a member of an enum.
    let wants_priority = index % 4 == 3;
    let out1_ty = if !g.enums.is_empty() && (g.rng.chance(50) || wants_priority) {
        Ty::Enum(g.rng.below(g.enums.len()))
    } else {
        Ty::Int { lo: 0, hi: 1000 }
    };
    let out1_optional = shape == Shape::Tables && g.rng.chance(20) && !wants_priority;
    let mut defines = Vec::new();
    match shape {
        Shape::Tables => {
            let _ = writeln!(g.text, "output {out1}: {}{}", g.ty_text(&out1_ty), if out1_optional { "?" } else { "" });
        }
        Shape::BehindDefines => {
            let _ = writeln!(g.text, "value {out1}: {}", g.ty_text(&out1_ty));
            let shown = g.name("o");
            let _ = writeln!(g.text, "output {shown}: int");
            let body = match &out1_ty {
                Ty::Enum(e) => {
                    let en = &g.enums[*e];
                    let first = ident(en.values[0].split(' ').next().unwrap());
                    format!("if {} = {}.{first} then 1 else 2", ident(&out1), ident(&en.name))
                }
                _ => format!("{} * 2 + 1", ident(&out1)),
            };
            defines.push(format!("define {} = {body}", ident(&shown)));
        }
        Shape::NoTable | Shape::OnlyDefines => {
            let _ = writeln!(g.text, "output {out1}: {}", g.ty_text(&out1_ty));
            let test = condition(&mut g);
            let (yes, no) = two_values(&mut g, &out1_ty);
            defines.push(format!("define {} = if {test} then {yes} else {no}", ident(&out1)));
        }
    }
    // A single output, every twelfth rule: the SQL function then returns one column.
    let single = shape == Shape::OnlyDefines && index.is_multiple_of(12);
    // An output computed by a define, rounded on a grid.
    let nums = if single { Vec::new() } else { numeric_inputs(&g) };
    if let Some((a, aty)) = nums.first().cloned() {
        let out2 = g.name("o");
        let (ty_text, grid) = match &aty {
            Ty::Money { cur, tag, .. } => {
                (g.ty_text(&Ty::Money { cur, tag, lo: 0, hi: 0 }), format!("{}{cur}", 1 + g.rng.below(10)))
            }
            Ty::Qty { dim, unit, .. } => (format!("{dim}[{unit}]"), format!("{}{unit}", 1 + g.rng.below(5))),
            _ => ("int".into(), (1 + g.rng.below(5)).to_string()),
        };
        // By the rule's place in the run, so a run of a few dozen rules rounds in every mode.
        let mode = MODES[index % MODES.len()];
        let _ = writeln!(g.text, "output {out2}: {ty_text} round {mode}({grid})");
        let b = nums.get(1).cloned();
        let expr = match g.rng.below(7) {
            0 => format!("{a} * 3 / 7"),
            1 => format!("{a} / {}", 2 + g.rng.below(9)),
            2 => format!("max({a}, {}) - min({a}, {}) / 4", g.literal(&aty, 3), g.literal(&aty, 50)),
            3 => format!("if {a} > {} then {a} / 3 else {a} * 2", g.literal(&aty, 10)),
            4 => match &b {
                Some((b, bty)) if g.ty_text(bty) == g.ty_text(&aty) => format!("({a} + {b}) / 2"),
                _ => format!("-{a} / 3"),
            },
            5 => format!("{a} * 15%"),
            _ => format!("{a} - {a} / 9"),
        };
        defines.push(format!("define {} = {expr}", ident(&out2)));
        // Plain numbers: mod, isqrt, a quotient by a value, rounded.
        if let Ty::Int { lo, .. } = aty {
            let d = g.name("d");
            let body = match g.rng.below(3) {
                0 => format!("mod({a}, {})", 3 + g.rng.below(5)),
                1 if lo >= 0 => format!("isqrt({a})"),
                _ => format!("round({a} / {}, {}, 1)", 2 + g.rng.below(5), g.rng.pick(MODES)),
            };
            defines.push(format!("define {d} = {body}"));
        }
    }
    // A date output.
    if let Some(v) = g.inputs.iter().find(|v| !single && matches!(v.ty, Ty::Date { .. }) && !v.optional) {
        let (iname, k) = (ident(&v.name), g.rng.range(-30, 30));
        let out3 = g.name("due");
        let _ = writeln!(g.text, "output {out3}: date");
        defines.push(format!("define {} = {iname} + {k}", ident(&out3)));
    }
    for d in defines {
        let _ = writeln!(g.text, "{d}");
    }
    if matches!(shape, Shape::NoTable | Shape::OnlyDefines) {
        return g.text;
    }
    let enums_out = out1_ty.clone();
    // A `priority` table's results are members: an enum of two values or more, never none.
    let ranked = match &enums_out {
        Ty::Enum(e) => !out1_optional && g.enums[*e].values.len() >= 2,
        _ => false,
    };
    let priority = ranked && wants_priority;
    let t = {
        let tname = g.name("t");
        let out1_ident = ident(&out1);
        let mut cells = |g: &mut Gen, i: usize| -> String {
            if out1_optional && g.rng.chance(25) {
                return "none".into();
            }
            match &enums_out {
                Ty::Enum(e) => {
                    let en = &g.enums[*e];
                    // Under priority the catch-all takes the last value and the other rows the rest.
                    let n = en.values.len();
                    let k = match i {
                        usize::MAX => n - 1,
                        i if priority => i % (n - 1),
                        i => i % n,
                    };
                    let v = ident(en.values[k].split(' ').next().unwrap());
                    // A bare value that is also a variable's name is read as the variable.
                    format!("{}.{v}", ident(&en.name))
                }
                _ => format!("{}", g.rng.range(0, 1000)),
            }
        };
        table(&mut g, &ident(&tname), &out1_ident, priority, &mut cells)
    };
    g.text.push_str(&t);
    // Every sixth rule from the fifth: a multiple-hit table beside, its policies in turn.
    if index % 6 == 4 {
        let policy = MULTI_HIT[(index / 6) % MULTI_HIT.len()];
        let m = multi_hit_table(&mut g, policy);
        g.text.push('\n');
        g.text.push_str(&m);
    }
    g.text
}

/// How many kept rules are enough to reach every feature [`Reach`] counts: the rules cycle
/// through the shapes, the policies and the rounding modes by their place in the run.
const REACHES_ALL: usize = 42;

/// What the kept rules reach, counted from their plans.
#[derive(Debug, Default)]
struct Reach {
    optional_inputs: usize,
    date_inputs: usize,
    date_outputs: usize,
    /// By policy as the plan names it.
    policies: std::collections::BTreeMap<&'static str, usize>,
    /// By rounding mode (an output's `round`, or a `round(…)` in a define), as written.
    modes: std::collections::BTreeMap<&'static str, usize>,
}

impl Reach {
    fn add(&mut self, plan: &rulec::gen::plan::Plan) {
        use rulec::gen::plan::{BoundaryTy, Helper};
        for &v in &plan.inputs {
            let var = plan.var(v);
            self.optional_inputs += usize::from(var.optional);
            self.date_inputs += usize::from(var.ty == BoundaryTy::Date);
        }
        self.date_outputs += plan.outputs.iter().filter(|&&v| plan.var(v).ty == BoundaryTy::Date).count();
        for t in plan.tables() {
            *self.policies.entry(t.policy).or_default() += 1;
        }
        let mut modes: Vec<&'static str> =
            plan.vars.iter().filter_map(|v| v.rounding).map(|(m, _)| m.as_str()).collect();
        modes.extend(plan.helpers.iter().filter_map(|h| match h {
            Helper::DivRound(m) => Some(m.as_str()),
            _ => None,
        }));
        modes.sort();
        modes.dedup();
        for m in modes {
            *self.modes.entry(m).or_default() += 1;
        }
    }

    fn assert_all(&self) {
        assert!(self.optional_inputs > 0 && self.date_inputs > 0 && self.date_outputs > 0, "{self:?}");
        for p in ["unique", "first", "any", "priority"].into_iter().chain(MULTI_HIT) {
            assert!(self.policies.get(p).is_some_and(|&n| n > 0), "no kept rule has a {p} table: {self:?}");
        }
        for m in MODES {
            assert!(self.modes.get(m).is_some_and(|&n| n > 0), "no kept rule rounds {m}: {self:?}");
        }
    }
}

#[test]
fn random_rules_agree_with_the_reference_in_every_language() {
    let (count, base) = common::random_run("random rules", "RULEC_RANDOM_RULES", 100);
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let (mut kept, mut tried) = (0, 0);
    let mut texts = Vec::new();
    while kept < count {
        let seed = base.wrapping_add((tried as u64).wrapping_mul(0x9e37_79b9));
        tried += 1;
        assert!(tried < count * 20, "too few random rules check clean: {kept} of {tried}");
        let text = random_rule(seed, kept);
        let path = rules.join(format!("r{kept:04}.rule"));
        std::fs::write(&path, &text).unwrap();
        let out = rulec(&["check", "--format", "json", path.to_str().unwrap()], dir.path());
        let errors =
            String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("\"severity\":\"error\"")).count();
        if errors > 0 || !out.status.success() && out.status.code() != Some(1) {
            std::fs::remove_file(&path).unwrap();
            continue;
        }
        texts.push((text.lines().next().unwrap().split(' ').nth(1).unwrap().to_string(), seed, text));
        kept += 1;
    }
    println!("random rules: {kept} clean of {tried} generated");
    // Rules with no table are as ordinary as any (a tax by marginal bands, a fee as a formula):
    // every run holds some to every language.
    let tableless = |text: &str| !text.lines().any(|l| l.starts_with("table "));
    let no_table = texts.iter().filter(|(_, _, t)| tableless(t)).count();
    let bare = texts.iter().filter(|(_, _, t)| tableless(t) && !t.lines().any(|l| l.starts_with("enum "))).count();
    let behind = texts.iter().filter(|(_, _, t)| t.lines().any(|l| l.starts_with("value "))).count();
    println!(
        "random rules: {no_table} with no table ({bare} of them only inputs, defines and outputs), \
         {behind} whose table decides a value a define reads"
    );
    assert!(no_table >= 1, "every run keeps a rule with no table; this one kept none");
    // The plan, run as it stands, on every vector; and what the kept rules reach, read off
    // their plans (a rule thrown away for an error reaches nothing).
    let mut reach = Reach::default();
    for (_, seed, text) in &texts {
        let mut sources = rulec::Sources::new();
        let checked = rulec::check_text(&mut sources, "random.rule", text, &Default::default());
        let unit = rulec::gen::Unit::of(&checked, &sources).unwrap_or_else(|| panic!("seed {seed}: no unit\n{text}"));
        reach.add(&unit.plan);
        let p = checked.program.as_ref().unwrap();
        for v in &rulec::vectors::build(p).vectors {
            let line = v.line(p);
            let want = rulec::eval::answer(p, &line, "");
            assert_eq!(rulec::gen::tree::interp::line(&unit.plan, &line), want, "seed {seed}: {line}\n{text}");
        }
    }
    println!("random rules reach: {reach:?}");
    // Enough rules to cycle through every policy and rounding mode reach each of them, and
    // optionals and dates, however many were thrown away for an error.
    if count >= REACHES_ALL {
        reach.assert_all();
    }
    let out_dir = dir.path().join("generated");
    // RULEC_RANDOM_LANGS narrows the languages (`python,java`), for working on one backend.
    let langs = std::env::var("RULEC_RANDOM_LANGS").unwrap_or_default();
    let mut gen_args = vec!["gen", "rules", "--out", out_dir.to_str().unwrap()];
    if !langs.is_empty() {
        gen_args.extend(["--lang", langs.as_str()]);
    }
    // RULEC_RANDOM_NO_SERVERS=1 holds the modules alone (no MCP or Connect server beside
    // them): a long run of many rules then spends its time on the languages.
    if std::env::var("RULEC_RANDOM_NO_SERVERS").is_ok_and(|v| v == "1") {
        gen_args.push("--no-servers");
    }
    let gen = rulec(&gen_args, dir.path());
    assert!(gen.status.success(), "gen: {}", String::from_utf8_lossy(&gen.stderr));
    let report = common::test_json(&out_dir, &langs);
    // Every disagreement, not only the first: one run then shows every class of bug it met.
    let disagreements: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ok"] != true)
        .map(|r| {
            let (seed, text) = texts
                .iter()
                .find(|(name, _, _)| r["rule"] == name.as_str())
                .map(|(_, s, t)| (*s, t.as_str()))
                .unwrap_or((0, "(the helpers' vectors)"));
            format!("{} disagrees in {}: {}\nseed {seed}\n{text}", r["rule"], r["lang"], r)
        })
        .collect();
    assert!(disagreements.is_empty(), "{} disagreements:\n\n{}", disagreements.len(), disagreements.join("\n"));
    common::assert_green(&report);
}
