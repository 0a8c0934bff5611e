//! Names, types and units: the syntax tree becomes the typed `Program`.

pub mod ir;
mod lower;
pub mod types;
pub mod views;

pub use ir::*;
pub use lower::{check_enums_file, lower, Import};
pub use types::{unify, EnumId, Grid, Tag, Ty};
