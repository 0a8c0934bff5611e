//! The target languages and what is true of each of them before any rule is read: their
//! names, the words they reserve, the identifiers generated code itself uses, and how each
//! kind of identifier is spelled. A leaf: the check (W121) and the code generator's naming
//! pass (src/gen/naming.rs) read the same tables.

/// The target languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Python,
    TypeScript,
    JavaScript,
    Go,
    Java,
}

impl Lang {
    pub const ALL: &'static [Lang] =
        &[Lang::Rust, Lang::Python, Lang::TypeScript, Lang::JavaScript, Lang::Go, Lang::Java];

    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
            Lang::JavaScript => "javascript",
            Lang::Go => "go",
            Lang::Java => "java",
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
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| l.name() == s)
    }
}

/// How an identifier is spelled from its base (the alias, or the declared ASCII name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// As it is: `unit_price`.
    Keep,
    /// `unit_price` → `UnitPrice`.
    Pascal,
    /// `unit_price` → `unitPrice`.
    Camel,
    /// `unit_price` → `UNIT_PRICE`.
    Upper,
    /// `unit_price` → `unitprice` (a Go package).
    Flat,
}

impl Case {
    pub fn apply(self, base: &str) -> String {
        match self {
            Case::Keep => base.to_string(),
            Case::Pascal => pascal(base),
            Case::Camel => camel(base),
            Case::Upper => base.to_ascii_uppercase(),
            Case::Flat => {
                let flat: String = base.chars().filter(|c| *c != '_').map(|c| c.to_ascii_lowercase()).collect();
                if flat.is_empty() || flat.starts_with(|c: char| c.is_ascii_digit()) {
                    format!("x{flat}")
                } else {
                    flat
                }
            }
        }
    }

    /// The `n`th spelling of a name that is taken (n ≥ 2), in this case's own manner.
    pub fn numbered(self, ident: &str, n: usize) -> String {
        match self {
            Case::Pascal | Case::Camel => format!("{ident}{n}"),
            Case::Keep | Case::Upper | Case::Flat => format!("{ident}_{n}"),
        }
    }
}

/// `coupon_kind` → `CouponKind`; `MaritalStatus` stays `MaritalStatus`.
pub fn pascal(s: &str) -> String {
    let out: String = s
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    if out.is_empty() {
        // A name of underscores only: still an identifier.
        "X".repeat(s.len().max(1))
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("X{out}")
    } else {
        out
    }
}

/// `single_coupon` → `singleCoupon`.
pub fn camel(s: &str) -> String {
    let p = pascal(s);
    let mut c = p.chars();
    match c.next() {
        Some(f) => f.to_ascii_lowercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// What a language spells each kind of identifier like, and the words a rule's names must
/// stay away from. `reserved` are the language's keywords and the names its generated code
/// cannot have shadowed; `used` the identifiers the generated module and its runner declare
/// or read themselves; `fields` the names a field of a record or struct cannot take.
pub struct Naming {
    /// The module, package or class a rule becomes.
    pub module: Case,
    /// Whether the module's name is a name in its own namespace (Java's class, which nested
    /// types may not repeat).
    pub module_in_scope: bool,
    pub function: Case,
    /// How the traced twin, the record function and the wire door are named after the
    /// function: `{}` is the function's identifier.
    pub traced: &'static str,
    pub record: &'static str,
    pub wire: &'static str,
    /// The function giving the place of an ordered enum's value, where the language needs
    /// one: `{}` is the enum's base spelled in the case given.
    pub rank: Option<(&'static str, Case)>,
    /// The branches of every table are written once, in a function of the module's own that
    /// answers the outputs and the row each table matched: `{}` is the function's identifier.
    pub core: &'static str,
    /// The local holding the row a table matched: `{}` is the table's place.
    pub slot: &'static str,
    /// A module constant per enum member, where reading a member through its enum costs more
    /// than reading a name of the module (Python's Enum): `{0}` the enum, `{1}` the member.
    pub member_const: Option<&'static str>,
    /// Names of the module's own that a module-level declaration (the function, a type)
    /// must not take: the builtins its fixed text calls. Locals may shadow them.
    pub builtins: &'static [&'static str],
    /// Inputs as parameters, and every value the function body holds.
    pub value: Case,
    pub ty: Case,
    pub member: Case,
    /// The fields of `Output` (and of Go's `Input`).
    pub field: Case,
    /// Whether enum members live in the module's namespace (Go's constants) rather than in
    /// their enum's.
    pub members_global: bool,
    /// Whether the members' spelling starts with their enum's type name (`CouponKindPercent`).
    pub member_prefixed: bool,
    pub reserved: &'static [&'static str],
    pub used: &'static [&'static str],
    pub fields: &'static [&'static str],
    /// Whether a field may not start with `_` (Python's NamedTuple).
    pub field_no_underscore: bool,
}

impl Lang {
    pub fn naming(self) -> &'static Naming {
        match self {
            Lang::Rust => &RUST,
            Lang::Python => &PYTHON,
            Lang::TypeScript | Lang::JavaScript => &TYPESCRIPT,
            Lang::Go => &GO,
            Lang::Java => &JAVA,
        }
    }

    /// Whether `ident` (already spelled for this language) cannot be used as it is.
    pub fn reserves(self, ident: &str) -> bool {
        let n = self.naming();
        n.reserved.contains(&ident) || n.used.contains(&ident)
    }
}

const RUST: Naming = Naming {
    module: Case::Keep,
    module_in_scope: false,
    function: Case::Keep,
    traced: "{}_traced",
    record: "{}_record",
    wire: "{}_wire",
    rank: None,
    core: "{}_rows",
    slot: "row{}",
    member_const: None,
    builtins: &[],
    value: Case::Keep,
    ty: Case::Pascal,
    member: Case::Pascal,
    field: Case::Keep,
    members_global: false,
    member_prefixed: false,
    reserved: &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
        "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
        "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract",
        "become", "box", "do", "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
        "union", "Some", "None", "Ok", "Err", "Option", "Result", "String", "Vec", "Box", "i64", "i128", "u32", "u64",
        "usize", "bool", "str", "char", "std", "core", "alloc", "_",
    ],
    used: &[
        "Output",
        "Fired",
        "RuleError",
        "Wire",
        "Input",
        "Contradiction",
        "NotAnInput",
        "Date",
        "trace",
        "out",
        "tag",
        "call",
        "value",
        "what",
        "key",
        "rule",
        "x",
        "s",
        "n",
        "d",
        "v",
        "f",
        "main",
    ],
    fields: &[],
    field_no_underscore: false,
};

const PYTHON: Naming = Naming {
    module: Case::Keep,
    module_in_scope: false,
    function: Case::Keep,
    traced: "{}_traced",
    record: "{}_record",
    wire: "{}_wire",
    rank: Some(("{}_rank", Case::Keep)),
    core: "_{}_rows",
    slot: "_row{}",
    member_const: Some("_{0}_{1}"),
    builtins: &[
        "isinstance",
        "type",
        "int",
        "float",
        "bool",
        "str",
        "repr",
        "min",
        "max",
        "ord",
        "len",
        "dict",
        "all",
        "any",
        "object",
        "super",
        "ValueError",
        "AssertionError",
        "TypeError",
        "list",
        "tuple",
        "range",
        "print",
        "Exception",
        "BaseException",
        "NotImplemented",
        "Ellipsis",
        "iter",
        "next",
        "set",
        "frozenset",
        "bytes",
        "id",
        "hash",
        "getattr",
        "setattr",
        "callable",
        "abs",
    ],
    value: Case::Keep,
    ty: Case::Pascal,
    member: Case::Upper,
    field: Case::Keep,
    members_global: false,
    member_prefixed: false,
    reserved: &[
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
        "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case", "type", "_",
        "__name__", "__file__", "__doc__", "__all__",
    ],
    used: &[
        "Enum",
        "NamedTuple",
        "NewType",
        "Sequence",
        "Protocol",
        "Output",
        "Fired",
        "RuleInputError",
        "RuleContradictionError",
        "Date",
        "_Trace",
        "_trace",
        "_isinstance",
        "_int",
        "_float",
        "_bool",
        "_str",
        "_repr",
        "_min",
        "_max",
        "_ord",
        "_len",
        "_json_str",
        "_date_str",
        "_days",
        "_mod",
        "_isqrt",
        "_rule",
        "_call",
        "_s",
        "_f",
        "_key",
        "_out",
        "_rows",
        "_type",
        "_dict",
        "_refuse",
        "_check_int",
        "_wire_member",
        "_wire_day",
        "_object",
        "_get",
        "_E",
        "_CalendarDay",
        "Any",
        "NoReturn",
        "TypeVar",
        "date_of",
        "date_from_wire",
        "out",
        "trace",
        "tag",
        "call",
        "what",
        "value",
    ],
    fields: &["count", "index"],
    field_no_underscore: true,
};

const TYPESCRIPT: Naming = Naming {
    module: Case::Keep,
    module_in_scope: false,
    function: Case::Keep,
    traced: "{}_traced",
    record: "{}_record",
    wire: "{}_wire",
    rank: Some(("_{}Rank", Case::Camel)),
    core: "_{}_rows",
    slot: "_row{}",
    member_const: None,
    builtins: &[],
    value: Case::Keep,
    ty: Case::Pascal,
    member: Case::Upper,
    field: Case::Keep,
    members_global: false,
    member_prefixed: false,
    reserved: &[
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
        "async",
        "arguments",
        "eval",
        "undefined",
        "NaN",
        "Infinity",
        "of",
        "as",
        "type",
        "any",
        "unknown",
        "never",
        "number",
        "bigint",
        "boolean",
        "string",
        "symbol",
        "object",
        "declare",
        "readonly",
        "keyof",
        "infer",
        "is",
        "asserts",
        "satisfies",
        "BigInt",
        "Object",
        "Number",
        "String",
        "Boolean",
        "Error",
        "JSON",
        "Math",
        "Array",
        "Symbol",
        "globalThis",
        "Date",
        "Readonly",
        "RangeError",
        "ReturnType",
        "Record",
        "Set",
        "Map",
    ],
    // Every identifier the module's fixed text declares at its top level (runtime/module.ts
    // and what the backend writes around it), and the locals of the functions a rule's
    // names sit beside.
    used: &[
        "Output",
        "Fired",
        "RuleInputError",
        "RuleContradictionError",
        "Day",
        "dayFromWire",
        "dayOf",
        "parseMember",
        "_show",
        "_days",
        "_checkInt",
        "_refuse",
        "_object",
        "_get",
        "_unknownKeys",
        "_wireBool",
        "_wireStr",
        "_wireDay",
        "_wireMember",
        "_traceJson",
        "_jsonStr",
        "_dateStr",
        "_min",
        "_max",
        "_minBy",
        "_maxBy",
        "_divRoundFloor",
        "_divRoundCeiling",
        "_divRoundDown",
        "_divRoundUp",
        "_divRoundHalfUp",
        "_divRoundHalfDown",
        "_divRoundHalfEven",
        "_mod",
        "_isqrt",
        "_call",
        "_r",
        "s",
        "out",
        "trace",
        "tag",
        "call",
    ],
    fields: &["__proto__", "constructor"],
    field_no_underscore: false,
};

const GO: Naming = Naming {
    module: Case::Flat,
    module_in_scope: false,
    function: Case::Pascal,
    traced: "{}Traced",
    record: "{}Record",
    wire: "{}Wire",
    rank: None,
    core: "{}Rows",
    slot: "row{}",
    member_const: None,
    builtins: &[],
    value: Case::Keep,
    ty: Case::Pascal,
    member: Case::Pascal,
    field: Case::Pascal,
    members_global: true,
    member_prefixed: true,
    reserved: &[
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
        "bool",
        "byte",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "string",
        "rune",
        "error",
        "any",
        "comparable",
        "nil",
        "true",
        "false",
        "iota",
        "append",
        "cap",
        "clear",
        "close",
        "complex",
        "copy",
        "delete",
        "imag",
        "len",
        "make",
        "max",
        "min",
        "new",
        "panic",
        "print",
        "println",
        "real",
        "recover",
        "fmt",
        "_",
    ],
    used: &[
        "Input",
        "Output",
        "Fired",
        "RuleInputError",
        "RuleContradictionError",
        "Date",
        "WireNumber",
        "in",
        "out",
        "trace",
        "tag",
        "call",
        "err",
        "what",
        "value",
        "s",
        "main",
        "Error",
    ],
    fields: &[],
    field_no_underscore: false,
};

const JAVA: Naming = Naming {
    module: Case::Pascal,
    module_in_scope: true,
    function: Case::Camel,
    traced: "{}Traced",
    record: "{}Record",
    wire: "{}Wire",
    rank: None,
    core: "{}Rows",
    slot: "row{}",
    member_const: None,
    builtins: &[],
    value: Case::Keep,
    ty: Case::Pascal,
    member: Case::Upper,
    field: Case::Keep,
    members_global: false,
    member_prefixed: false,
    reserved: &[
        "abstract",
        "assert",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "final",
        "finally",
        "float",
        "for",
        "goto",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "native",
        "new",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "strictfp",
        "super",
        "switch",
        "synchronized",
        "this",
        "throw",
        "throws",
        "transient",
        "try",
        "void",
        "volatile",
        "while",
        "true",
        "false",
        "null",
        "var",
        "record",
        "yield",
        "sealed",
        "permits",
        "when",
        "_",
        "String",
        "Long",
        "Boolean",
        "Object",
        "Math",
        "List",
        "ArrayList",
        "StringBuilder",
        "Integer",
        "System",
        "Character",
        "IllegalArgumentException",
        "RuntimeException",
        "Override",
        "java",
    ],
    used: &[
        "Output",
        "Fired",
        "Traced",
        "RuleInputError",
        "RuleContradictionError",
        "trace",
        "out",
        "tag",
        "call",
        "what",
        "value",
        "s",
        "main",
        "in",
        "rows",
        "key",
        "x",
        "wire",
        "from",
        "values",
        "dateFromWire",
        "dateOf",
        "appendJson",
        "appendTrace",
        "appendDate",
        "days",
        "refused",
        "wireLong",
        "wireBool",
        "wireString",
        "wireDay",
        "wireMember",
        "modFloor",
        "isqrtLong",
        "least",
        "greatest",
        "HEX",
    ],
    fields: &["hashCode", "toString", "equals", "getClass", "notify", "notifyAll", "wait", "clone", "finalize"],
    field_no_underscore: false,
};

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
        }
    }
}
