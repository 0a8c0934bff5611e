//! Lexer, parser, the syntax tree and the formatter.

pub mod ast;
pub mod fmt;
pub mod lexer;
pub mod parser;

pub use parser::parse;
