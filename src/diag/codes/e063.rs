//! E063: Enum value belongs to more than one enum.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "E063",
    title: "Enum value belongs to more than one enum",
    when: "A bare enum value is read where nothing says which enum it belongs to, and more than one enum of the \
            rule (declared in it or brought in by `use`) has a value of that name. In a cell or an `expect` line the \
            column's type decides; in an expression the type the place expects decides (a typed define, an output, a \
            comparison with a value of the enum); an untyped `define` says nothing.",
    fix: "Qualify the value with its enum's name (`zone.domestic`), or give the define its type (`define home: \
            zone = domestic`).",
    example: "\
rule shipping v1

enum zone: domestic, overseas
enum carrier: domestic, courier

input dest: zone

output local: bool

define home = domestic
define local = dest = home
",
    related: &["E050"],
    budget: None,
};
