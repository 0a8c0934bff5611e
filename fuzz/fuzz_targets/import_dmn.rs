//! Arbitrary bytes, read as UTF-8 (lossily), as a DMN model through `rulec import dmn`: the
//! XML reader, the FEEL unary tests, the mapping and the checker it asks about gaps. Asserts
//! no panic, and that a model it imports is a rule in canonical form that parses cleanly.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rulec::analysis::Options;
use rulec::diag::{Diagnostic, FileId};
use rulec::syntax::{self, fmt::format_file};
use rulec::{check_text, Sources};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let findings = |rule: &str| -> Vec<(String, String)> {
        let checked = check_text(&mut Sources::new(), "import.rule", rule, &Options::default());
        checked.diagnostics.into_iter().filter_map(|d| Some((d.table?, d.code.to_string()))).collect()
    };
    let Ok(rule) = rulec::dmn::import(&text, None, &findings) else { return };
    let parsed = syntax::parse(&rule, FileId(0));
    assert!(!parsed.diags.iter().any(Diagnostic::is_error), "an imported rule does not parse:\n{rule}");
    let file = parsed.file.expect("an imported rule has a header");
    assert_eq!(format_file(&file), rule, "an imported rule is not in canonical form");
});
