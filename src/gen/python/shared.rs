//! The Python that several generated files hold, written once: a runtime file of any
//! backend asks for a section of `runtime/script.py` (what the runners and servers share)
//! or of `runtime/module.py` (a helper of the module) with a line
//! `# rulec-copy: FILE NAME`, and [`copy`] puts the section in its place.

use crate::gen::text;

const MODULE: &str = include_str!("runtime/module.py");
const SCRIPT: &str = include_str!("runtime/script.py");

/// `file` with every `# rulec-copy:` line replaced by the section it names.
pub fn copy(file: &str) -> String {
    text::splice(file, "# rulec-copy:", &[("module.py", MODULE), ("script.py", SCRIPT)], "# rulec:")
}
