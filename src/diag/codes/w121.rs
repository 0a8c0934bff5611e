//! W121: A name is a keyword in a target language.

use super::CodeInfo;

pub const INFO: CodeInfo = CodeInfo {
    code: "W121",
    title: "A name is a keyword in a target language",
    when: "An input, output, value or define is called by a word that one of the languages rulec generates \
            reserves (`class`, `type`, `def`, `func`, `final`, …) or by an identifier that language's generated \
            code uses itself (`trace`, `out`, `Output`). That language writes it with `_` after it (`class_`, or \
            `class_2` where `class_` is taken); the languages that do not reserve it keep it as it is. `rulec api` \
            gives the spelling of every language; the wire, the records and the vectors keep the declared name. \
            Also reported for an enum the rule declares that is spelled like the rule itself where the two share \
            a namespace (`rule size` with `enum size`: Go's function `Size` beside the type, Java's class `Size` \
            around the nested enum, PHP's function `size`, since PHP folds case): that language writes the enum's type \
            `Size2`.",
    fix: "Nothing is wrong, but the generated name is not the one you wrote. To choose it yourself, give the \
            name an alias: `class(student_class)`, `enum size(size_kind)`. The fix `add_alias` proposes one.",
    example: "\
rule t v1

input class: int 0..10

output fee: int 0..10

define fee = class
",
    related: &["E053"],
    budget: None,
};
