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

/// The modules generated Python imports by name that rulec does not write (the standard
/// library's, and NumPy, DuckDB, uvicorn and connectrpc where a file asks for them). Python puts a script's
/// folder first on its path, so a rule or an enums file whose module took one of these
/// names (`json.py` beside `json_runner.py`) would hide it: [`crate::gen::clashes`] refuses
/// it. tests/gen_python.rs holds the list to every import of the Python runtime files.
pub const IMPORTED: &[&str] = &[
    "__future__",
    "argparse",
    "collections",
    "connectrpc",
    "decimal",
    "duckdb",
    "enum",
    "functools",
    "http",
    "importlib",
    "inspect",
    "json",
    "numpy",
    "os",
    "re",
    "secrets",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "threading",
    "time",
    "typing",
    "urllib",
    "uvicorn",
    "wsgiref",
];
