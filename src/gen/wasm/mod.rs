//! The Wasm target (generated-code.md, Wasm): the Rust module behind the canonical ABI of one
//! function, `call: func(input: string) -> string`. Nothing of the rule is spelled here: the
//! module is the Rust backend's `<alias>.rs`, byte for byte, and what the entry answers for an
//! input is the Rust runner's answer to a line (its `answer` and `json` sections); this
//! backend writes the crate root that puts them behind the ABI (`runtime/entry.rs`), the
//! world (`<alias>.wit`) and the node runner (`runtime/runner.mjs`). The module imports
//! nothing, so it instantiates with an empty import object anywhere WebAssembly runs.

use super::text::{self, comment, section};
use super::{rust, Backend, File, Lang, Pass, Runner, Unit};
use serde_json::json;

const ENTRY: &str = include_str!("runtime/entry.rs");
const RUNNER: &str = include_str!("runtime/runner.mjs");
const MARK: &str = "// rulec:";

/// The target the module is built for.
pub const TARGET: &str = "wasm32-unknown-unknown";

pub struct Wasm;

impl Backend for Wasm {
    fn lang(&self) -> Lang {
        Lang::Wasm
    }

    /// The module is the Rust one, built for wasm32: it walks a sequence where Rust does.
    fn refuses(&self, plan: &super::plan::Plan) -> Option<String> {
        let walks = <super::rust::Rust as super::Language>::WALKS;
        (!plan.sequences.is_empty() && !walks).then(|| super::walks_not_written(plan, Lang::Wasm))
    }

    fn generate(&self, u: &Unit) -> Vec<File> {
        let base = &u.plan.rule.base;
        let module = super::rust_module(u);
        let mut files = vec![
            File { path: format!("{base}_wasm.rs"), text: entry(u, &module.path) },
            module,
            File { path: format!("{base}.wit"), text: wit(u) },
            File { path: format!("{base}_runner.mjs"), text: runner(u, base) },
            File { path: "_helpers_wasm.rs".into(), text: helpers_entry() },
            File { path: "_helpers_runner.mjs".into(), text: helpers_runner() },
        ];
        files.extend(self.shared_files(u));
        files
    }

    /// The module of each enums file the rule reads, which the Rust module names (`tiers.rs`).
    fn shared_files(&self, u: &Unit) -> Vec<File> {
        super::rust_enums_modules(u)
    }

    fn runner(&self, base: &str) -> Runner {
        Runner {
            needs: vec!["rustc", "node"],
            build: vec![build(base)],
            run: vec!["node".into(), format!("{base}_runner.mjs")],
        }
    }

    fn passes(&self, base: &str) -> Vec<Pass> {
        vec![Pass { via: "runner", runner: self.runner(base), probe: Some(rust::target_probe(TARGET)), server: None }]
    }

    fn api(&self, u: &Unit) -> serde_json::Value {
        let plan = &u.plan;
        let base = &plan.rule.base;
        let label = wit_label(base);
        let module = format!("{base}.wasm");
        json!({
            "source": format!("{base}_wasm.rs"),
            "rust_module": super::rust_module(u).path,
            "module": module,
            "build": build(base).join(" "),
            "wit": format!("{base}.wit"),
            "package": format!("rulec:{label}@{}.0.0", plan.rule.version),
            "world": label,
            "call": "call",
            "call_signature": "call: func(input: string) -> string",
            "post_return": "cabi_post_call",
            "realloc": "cabi_realloc",
            "memory": "memory",
            "imports": [],
            "runner": format!("{base}_runner.mjs"),
            "answers": {
                "record": {"keys": ["in", "observed", "trace"]},
                "refusal": {"keys": ["refused", "error"], "refused": ["input", "contradiction"]},
            },
            "enums": plan.enums.iter().map(|en| json!({
                "name": en.name,
                "values": en.values.iter().map(|v| json!({"name": v.name, "alias": v.name})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "component": format!(
                "wasm-tools component embed {base}.wit {module} -o {base}.embedded.wasm && wasm-tools component new {base}.embedded.wasm -o {base}.component.wasm"
            ),
            "needs": ["rustc", "node", format!("rustup target add {TARGET}")],
        })
    }
}

/// The one command that builds a crate root into its module, with rustc alone.
fn build(base: &str) -> Vec<String> {
    let flags = "--edition 2021 -C opt-level=s -C lto -C panic=abort -C strip=symbols";
    let mut cmd = vec!["rustc".to_string()];
    cmd.extend(flags.split(' ').map(str::to_string));
    cmd.extend(["--target", TARGET, "--crate-type", "cdylib"].map(str::to_string));
    cmd.extend([format!("{base}_wasm.rs"), "-o".into(), format!("{base}.wasm")]);
    cmd
}

/// The crate root: the module as `rule`, the Rust runner's answer to a line, the ABI.
fn entry(u: &Unit, module: &str) -> String {
    let plan = &u.plan;
    let names = u.names(Lang::Rust);
    let mut o = text::header(plan, "//");
    o.push_str("//\n// The rule behind the canonical ABI of `call: func(input: string) -> string` (");
    o.push_str(&format!("{}.wit).\n", plan.rule.base));
    o.push_str(&format!("// Build: {}\n\n", build(&plan.rule.base).join(" ")));
    o.push_str(&rust::enums_mods(plan, &names));
    o.push_str("// The entry calls the wire door alone; the rest of the module is its callers' API.\n");
    o.push_str(&format!("#[allow(dead_code)]\n#[path = \"{module}\"]\nmod rule;\n\n"));
    let parts = [section(ENTRY, MARK, "respond"), &rust::answer(plan, &names), section(ENTRY, MARK, "abi")];
    o.push_str(&parts.join("\n\n").replace("rulec_respond", "respond"));
    o.push('\n');
    o
}

/// The helpers' crate root: one case of `vectors/_helpers.jsonl` per call.
fn helpers_entry() -> String {
    let mut o = String::from("// Code generated by rulec. DO NOT EDIT.\n// The arithmetic helpers of the generated Rust behind the canonical ABI, held to the reference\n// (vectors/_helpers.jsonl).\n");
    o.push_str(&format!("// Build: {}\n\n", build("_helpers").join(" ")));
    let parts = [section(ENTRY, MARK, "respond_case"), section(ENTRY, MARK, "abi")];
    o.push_str(&parts.join("\n\n").replace("rulec_respond", "respond_case"));
    o.push_str("\n\n");
    o.push_str(&rust::helpers_case());
    o
}

fn runner(u: &Unit, base: &str) -> String {
    let mut o = text::header(&u.plan, "//");
    o.push_str("//\n");
    o.push_str(&js_runner(base));
    o
}

fn helpers_runner() -> String {
    let mut o = String::from("// Code generated by rulec. DO NOT EDIT.\n//\n");
    o.push_str(&js_runner("_helpers"));
    o
}

fn js_runner(base: &str) -> String {
    // The file's own opening comment, from its first line to the first blank one, stays.
    let body = RUNNER.split_once("\n\n").map_or(RUNNER, |(_, rest)| rest);
    let mut o = format!("// The runner `rulec test` drives: node {base}_runner.mjs < vectors.jsonl\n\n");
    o.push_str(&body.replace("rulec_rule.wasm", &format!("{base}.wasm")));
    o
}

/// The world: the package and the one function the module exports.
fn wit(u: &Unit) -> String {
    let plan = &u.plan;
    let label = wit_id(&wit_label(&plan.rule.base));
    let mut o = text::header(plan, "//");
    o.push('\n');
    o.push_str(&format!("package rulec:{label}@{}.0.0;\n\n", plan.rule.version));
    let about = plan.rule.about.clone().unwrap_or_else(|| format!("rule {}", plan.rule.name));
    o.push_str(&format!("/// {}\n", comment(&about)));
    o.push_str(&format!("world {label} {{\n"));
    o.push_str("    /// One call in the wire form (a JSON object of the inputs by name; a record is read as its\n");
    o.push_str("    /// `in`): the record line, or {\"refused\":\"input\"|\"contradiction\",\"error\":…}.\n");
    o.push_str("    export call: func(input: string) -> string;\n");
    o.push_str("}\n");
    o
}

/// A WIT label for a rule's alias: lower-case words joined by `-`, each starting with a
/// letter (`parcel_rate` → `parcel-rate`; a word of digits joins the word before it).
pub fn wit_label(base: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for w in base.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let w = w.to_ascii_lowercase();
        match words.last_mut() {
            Some(last) if w.starts_with(|c: char| c.is_ascii_digit()) => last.push_str(&w),
            _ if w.starts_with(|c: char| c.is_ascii_digit()) => words.push(format!("rule{w}")),
            _ => words.push(w),
        }
    }
    if words.is_empty() {
        words.push("rule".into());
    }
    words.join("-")
}

/// The label as the .wit writes it: `%` before a word WIT reserves.
fn wit_id(label: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as",
        "async",
        "bool",
        "borrow",
        "char",
        "constructor",
        "enum",
        "export",
        "f32",
        "f64",
        "flags",
        "from",
        "func",
        "future",
        "import",
        "include",
        "interface",
        "list",
        "option",
        "own",
        "package",
        "record",
        "resource",
        "result",
        "s16",
        "s32",
        "s64",
        "s8",
        "static",
        "stream",
        "string",
        "tuple",
        "type",
        "u16",
        "u32",
        "u64",
        "u8",
        "use",
        "variant",
        "with",
        "world",
    ];
    if KEYWORDS.contains(&label) {
        format!("%{label}")
    } else {
        label.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wit_label_is_kebab_words_starting_with_a_letter() {
        assert_eq!(wit_label("parcel_rate"), "parcel-rate");
        assert_eq!(wit_label("Rate_2x"), "rate2x");
        assert_eq!(wit_label("_2fast"), "rule2fast");
        assert_eq!(wit_label("__"), "rule");
        assert_eq!(wit_id("world"), "%world");
        assert_eq!(wit_id("parcel-rate"), "parcel-rate");
    }
}
