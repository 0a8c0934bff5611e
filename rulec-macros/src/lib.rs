//! `include_rule!`: check a `.rule` file at compile time and expand to its Rust module
//! (docs/build-integration.md).
//!
//! ```ignore
//! rulec_macros::include_rule!("rules/parcel_rate.rule"); // relative to CARGO_MANIFEST_DIR
//! // expands to `pub mod parcel_rate { … }`: the code rulec-build writes into OUT_DIR
//! ```
//!
//! A rule that does not check clean is a `compile_error!` at the call, whose message is the
//! diagnostics rendered as `rulec check` renders them (`error[E060]: …`,
//! `--> rules/parcel_rate.rule:12:5`). The expansion `include_bytes!`s the rule and every
//! enums file it uses, so cargo rebuilds the crate when one of them changes.
//!
//! A rule that reads an enums file names that file's enums from the file's own module beside
//! it (`pub use super::tiers::Tier;`), so the expansion holds that module too, `pub mod tiers
//! { … }`, once. Rules that read one enums file are named in one call, which holds its module
//! once and the rules' beside it, so that their enums are one type:
//!
//! ```ignore
//! rulec_macros::include_rule!("rules/member_discount.rule", "rules/tier_points.rule");
//! // pub mod tiers { … } pub mod member_discount { … } pub mod tier_points { … }
//! ```
//!
//! The macro lives in its own crate because a proc-macro crate can export nothing else, and
//! the `rulec` library it calls cannot re-export it (that would be a dependency cycle).

use proc_macro::{Delimiter, Literal, TokenStream, TokenTree};
use std::path::{Path, PathBuf};

/// `include_rule!("rules/parcel_rate.rule")` expands to `pub mod parcel_rate { … }`, and
/// `include_rule!("a.rule", "b.rule")` to both, with the module of each enums file they read
/// once beside them.
#[proc_macro]
pub fn include_rule(input: TokenStream) -> TokenStream {
    let paths = match path_arguments(input) {
        Ok(p) => p,
        Err(msg) => return compile_error(&msg),
    };
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    let mut out = TokenStream::new();
    // Each enums file's module once, by its file: the same bytes from every rule that reads it.
    let mut shared: Vec<rulec::gen::File> = Vec::new();
    for path in &paths {
        match expand(&manifest_dir, Path::new(path)) {
            Ok((code, enums)) => {
                out.extend(code);
                for m in enums {
                    match shared.iter().find(|f| f.path == m.path) {
                        Some(f) if f.text != m.text => {
                            return compile_error(&format!(
                                "two enums files read by these rules would both be the module {}: give one another name or alias",
                                m.path.strip_suffix(".rs").unwrap_or(&m.path)
                            ))
                        }
                        Some(_) => {}
                        None => shared.push(m),
                    }
                }
            }
            Err(e) => return e,
        }
    }
    for m in shared {
        let name = m.path.strip_suffix(".rs").unwrap_or(&m.path);
        match format!("pub mod {name} {{\n{}\n}}\n", m.text).parse::<TokenStream>() {
            Ok(t) => out.extend(t),
            Err(e) => {
                return compile_error(&format!("rulec generated Rust that does not parse ({e}); please report it"))
            }
        }
    }
    out
}

/// The string literals the macro takes, one or more, separated by commas.
fn path_arguments(input: TokenStream) -> Result<Vec<String>, String> {
    let usage = "include_rule! takes string literals: include_rule!(\"rules/parcel_rate.rule\"), or several separated by commas";
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    // A literal passed on by a macro_rules! arrives wrapped in an invisible group.
    while let [TokenTree::Group(g)] = tokens.as_slice() {
        if g.delimiter() != Delimiter::None {
            break;
        }
        tokens = g.stream().into_iter().collect();
    }
    let mut paths = Vec::new();
    for (i, chunk) in tokens.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')).enumerate() {
        let mut chunk = chunk.to_vec();
        while let [TokenTree::Group(g)] = chunk.as_slice() {
            if g.delimiter() != Delimiter::None {
                break;
            }
            chunk = g.stream().into_iter().collect();
        }
        match chunk.as_slice() {
            [TokenTree::Literal(lit)] => paths.push(string_value(lit).ok_or_else(|| usage.to_string())?),
            // One trailing comma.
            [] if i > 0
                && i == tokens.iter().filter(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')).count() => {}
            _ => return Err(usage.to_string()),
        }
    }
    if paths.is_empty() {
        return Err(usage.to_string());
    }
    Ok(paths)
}

/// The value of a string literal: `"…"` with its escapes, or a raw `r#"…"#`.
fn string_value(lit: &Literal) -> Option<String> {
    let s = lit.to_string();
    if let Some(raw) = s.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = raw.get(hashes..raw.len() - hashes)?;
        return inner.strip_prefix('"')?.strip_suffix('"').map(str::to_string);
    }
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            '0' => out.push('\0'),
            _ => return None,
        }
    }
    Some(out)
}

/// Check the rule and give `pub mod <alias> { <module> <include_bytes of each file read> }`
/// and the module of each enums file it reads, or a `compile_error!` with the rendered
/// diagnostics.
fn expand(manifest_dir: &Path, path: &Path) -> Result<(TokenStream, Vec<rulec::gen::File>), TokenStream> {
    // Read below the manifest folder, shown as written at the call.
    let mut sources = rulec::Sources::in_dir(manifest_dir);
    let mut checked = match rulec::check_path(&mut sources, path, &rulec::analysis::Options::default()) {
        Ok(c) => c,
        Err(e) => return Err(compile_error(&format!("{e} (the path is relative to {})", manifest_dir.display()))),
    };
    // The macro writes Rust alone: a keyword of another language renames nothing here.
    checked.for_targets(&[rulec::gen::Lang::Rust]);
    let watch: String = checked
        .files_read(&sources)
        .iter()
        .map(|f| format!("const _: &[u8] = include_bytes!({:?});\n", f.to_string_lossy()))
        .collect();
    let watch: TokenStream = watch.parse().expect("include_bytes! lines parse");
    if checked.has_errors() {
        // Errors first: the compile_error!'s headline is what failed, not a warning beside it.
        let rendered = rulec::diag::render::text(&sources, &checked.errors_first(), false);
        // Still watch the files, so that fixing one of them rebuilds the crate.
        let mut out = compile_error(rendered.trim_end());
        out.extend(watch);
        return Err(out);
    }
    let Some(unit) = rulec::gen::Unit::of(&checked, &sources) else {
        return Err(compile_error(&format!(
            "{} is an enums file: its module comes with a rule that `use`s it; include the rules that read it, in one call",
            path.display()
        )));
    };
    let module = rulec::stack::deep(|| rulec::gen::rust_module(&unit));
    // The module's name is its file's (the rule's alias, renamed where Rust reserves it).
    let name = module.path.strip_suffix(".rs").unwrap_or(&module.path);
    let allow = if name.chars().any(char::is_uppercase) { "#[allow(non_snake_case)]\n" } else { "" };
    // The module may open with inner doc comments, so the watches and the warnings (inside
    // it, so that two calls in one module never clash) go after it.
    let warn = warnings(&sources, &checked.diagnostics);
    let code = format!("{allow}pub mod {name} {{\n{}\n{watch}\n{warn}\n}}\n", module.text);
    let enums = rulec::stack::deep(|| rulec::gen::rust_enums_modules(&unit));
    match code.parse::<TokenStream>() {
        Ok(t) => Ok((t, enums)),
        Err(e) => Err(compile_error(&format!("rulec generated Rust that does not parse ({e}); please report it"))),
    }
}

/// A clean rule's warnings, each a compiler warning at the call. Stable Rust gives a proc
/// macro no way to warn, so each is the deprecation of a constant the expansion reads, the
/// way `proc-macro-warning` (used by Substrate's FRAME) makes one: the note is the warning
/// rendered as `rulec check` renders it.
fn warnings(sources: &rulec::Sources, diags: &[rulec::diag::Diagnostic]) -> String {
    use proc_macro_warning::FormattedWarning;
    use quote::ToTokens;
    let mut out = proc_macro2::TokenStream::new();
    for (i, d) in diags.iter().filter(|d| !d.is_error()).enumerate() {
        let note = rulec::diag::render::text(sources, std::slice::from_ref(d), false);
        let name = format!("rulec_{}_{i}", d.code);
        FormattedWarning::new_deprecated(name.as_str(), note.trim_end(), proc_macro2::Span::call_site())
            .to_tokens(&mut out);
    }
    out.to_string()
}

/// `::core::compile_error!("…")` at the call.
fn compile_error(msg: &str) -> TokenStream {
    format!("::core::compile_error!({msg:?});").parse().expect("a compile_error! call parses")
}
