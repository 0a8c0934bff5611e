//! rulec: compiles `.rule` files — typed decision tables with units, money, rates and
//! explicit rounding — after proving things about them.
//!
//! The pipeline reads in one direction: `syntax` (parse) → `sema` (names, types, units:
//! the typed `Program`) → checks → `eval` (the exact reference evaluator). Every door —
//! the CLI, `rulec-build`, `include_rule!` — calls [`check_path`] or [`check_text`].

pub mod analysis;
pub mod certificate;
pub mod check;
pub mod cli;
pub mod confine;
pub mod diag;
pub mod dmn;
pub mod doc;
pub mod eval;
pub mod gen;
pub mod generate;
pub mod graph;
pub mod harness;
pub mod lang;
pub mod lock;
pub mod lsp;
pub mod mcp;
pub mod num;
pub mod outputs;
pub mod production;
pub mod schema;
pub mod sema;
pub mod source;
pub mod stack;
pub mod syntax;
pub mod units;
pub mod vectors;

pub use check::{check_path, check_text, Checked};
pub use source::Sources;
