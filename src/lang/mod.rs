//! The target languages and what is true of each of them before any rule is read: their
//! names, the words they reserve, the identifiers generated code itself uses, and how each
//! kind of identifier is spelled. A leaf: the check (W121) and the code generator's naming
//! pass (src/gen/naming.rs) read the same tables.

mod case;
mod naming;

pub use case::{camel, is_acronym, is_camel, is_snake, pascal, Case};
pub use naming::Naming;

/// The target languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Python,
    TypeScript,
    JavaScript,
    Go,
    Java,
    Ruby,
    Php,
    Swift,
    /// A query and a PL/pgSQL function: one door, no module (src/gen/sql).
    Sql,
    Numpy,
    Wasm,
}

impl Lang {
    pub const ALL: &'static [Lang] = &[
        Lang::Rust,
        Lang::Python,
        Lang::TypeScript,
        Lang::JavaScript,
        Lang::Go,
        Lang::Java,
        Lang::Ruby,
        Lang::Php,
        Lang::Swift,
        Lang::Sql,
        Lang::Numpy,
        Lang::Wasm,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
            Lang::JavaScript => "javascript",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::Ruby => "ruby",
            Lang::Php => "php",
            Lang::Swift => "swift",
            Lang::Sql => "sql",
            Lang::Numpy => "numpy",
            Lang::Wasm => "wasm",
        }
    }

    /// The language's name as prose writes it.
    pub fn title(self) -> &'static str {
        match self {
            Lang::Rust => "Rust",
            Lang::Python => "Python",
            Lang::TypeScript => "TypeScript",
            Lang::JavaScript => "JavaScript",
            Lang::Go => "Go",
            Lang::Java => "Java",
            Lang::Ruby => "Ruby",
            Lang::Php => "PHP",
            Lang::Swift => "Swift",
            Lang::Sql => "SQL",
            Lang::Numpy => "NumPy",
            Lang::Wasm => "Wasm",
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| l.name() == s)
    }
}

/// The kinds a value has on the wire, as the door's checks tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Integer,
    Boolean,
    Text,
    Date,
    Enum,
}

/// Which of the door's checks a function of the language makes itself, for a parameter of
/// each class: the ones its types do not already make. The range (and every constraint) is
/// checked in every language; the wire door, which reads JSON, makes every check.
pub struct Guard {
    /// A parameter may be absent (None, null, undefined, an enum's zero value in Go).
    pub missing: &'static [Class],
    /// A parameter may hold a value of another kind (or, for an enum, not one of its values).
    pub kind: &'static [Class],
}

const ALL_CLASSES: &[Class] = &[Class::Integer, Class::Boolean, Class::Text, Class::Date, Class::Enum];

impl Lang {
    pub fn guard(self) -> Guard {
        match self {
            // A caller can pass anything: every check is made at run time.
            Lang::Python | Lang::TypeScript | Lang::JavaScript => Guard { missing: ALL_CLASSES, kind: ALL_CLASSES },
            // Types make every check but the range.
            Lang::Rust => Guard { missing: &[], kind: &[] },
            // An enum is an integer type whose zero value means "not set".
            Lang::Go => Guard { missing: &[Class::Enum], kind: &[Class::Enum] },
            // An enum and a string are references that may be null.
            Lang::Java => Guard { missing: &[Class::Enum, Class::Text], kind: &[] },
            // A caller can pass any value.
            Lang::Ruby => Guard { missing: ALL_CLASSES, kind: ALL_CLASSES },
            // Declared parameter types (strict_types): only the range is left.
            Lang::Php => Guard { missing: &[], kind: &[] },
            // The types make every check but the range.
            Lang::Swift => Guard { missing: &[], kind: &[] },
            // A column of the relation may be NULL in any row, a number may have a fraction
            // (18.3 in a numeric column of steps), a text may not be a value of its enum; a
            // boolean or a text column holds nothing of another kind.
            Lang::Sql => Guard { missing: ALL_CLASSES, kind: &[Class::Integer, Class::Date, Class::Enum] },
            // The evaluator's door reads every column: it has no typed function of its own.
            Lang::Numpy => Guard { missing: ALL_CLASSES, kind: ALL_CLASSES },
            // The Rust module, behind the wire door: the types make every check but the range.
            Lang::Wasm => Guard { missing: &[], kind: &[] },
        }
    }
}
