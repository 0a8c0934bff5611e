//! Names, types and units: the syntax tree becomes the typed `Program`.

pub mod ir;
pub mod lower;
pub mod types;

pub use ir::*;
pub use lower::{lower, ty_name, Import};
pub use types::{EnumId, Grid, Tag, Ty};
