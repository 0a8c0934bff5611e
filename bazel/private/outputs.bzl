"""The files `rulec gen` writes for one rule, predeclared from the rule file's name.

Bazel must name every output before any action runs, and it cannot read a rule file to
learn its name then. So the rules rely on one convention, which `rulec gen --only` checks
on every run (a file generated but not declared, or declared but not generated, fails the
action and names the file):

  * a rule file is named after the rule's alias: `parcel_rate.rule` holds `rule parcel_rate`
    (or `rule 送料(parcel_rate)`), and `a` below is that alias;
  * per language, the files of the rule `a` (paths below the language's folder):

      rust        a.rs  a_runner.rs
      python      a.py  a_runner.py
      typescript  a.ts  a_runner.ts
      javascript  a.mjs a_runner.mjs a_page.html               (the page people read)
      go          p/go.mod  p/p.go  p/cmd/runner/main.go   (p: a without `_`, lower case;
                                                            `rule` before a leading digit,
                                                            after a Go keyword or `main`)
      java        A.java  ARunner.java                      (A: a in PascalCase)
      vectors     a.jsonl  a.expected.jsonl

  * the files every rule of a folder shares, written by the action of the target's first
    rule file (by path) and declared once: `_helpers_runner.<ext>` in each language's folder
    and `vectors/_helpers.jsonl`, `vectors/_helpers.expected.jsonl`;
  * an enums file is given to the rules as `enums`, never as `srcs`, and is named after its
    alias too (`tiers.rule` holds `enums tiers`, and `e` below is that alias). In every
    language its enums are its own module (Go's a package), which every rule that uses it
    writes with the same bytes:

      rust        e.rs
      python      e.py
      typescript  e.ts
      javascript  e.mjs
      go          p/go.mod  p/p.go                          (p: the Go package of e, as above)
      java        E.java                                    (E: e in PascalCase)

    The module of every enums file the target names is declared once and written by the action
    of the target's first rule file (`rulec gen --enums-modules`, which writes it from the
    enums file whether or not that rule reads it); every other action is told it is written
    elsewhere. So an edit of an enums file reruns the rules that use it and the first one.
"""

LANGS = ["rust", "python", "typescript", "javascript", "go", "java"]

_GO_KEYWORDS = [
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
]

def go_package(alias):
    """The Go package (and folder) of the rule `alias`."""
    p = alias.replace("_", "").lower()
    if not p or p[0].isdigit():
        return "rule" + p
    if p in _GO_KEYWORDS or p == "main":
        return p + "rule"
    return p

def _pascal(alias):
    return "".join([w[0].upper() + w[1:] for w in alias.split("_") if w])

_HELPERS_EXT = {
    "rust": "rs",
    "python": "py",
    "typescript": "ts",
    "javascript": "mjs",
    "go": "go",
    "java": "java",
}

def rule_files(alias, lang):
    """The files of one rule in one language, relative to the generated tree's root."""
    if lang == "go":
        p = go_package(alias)
        names = [p + "/go.mod", p + "/" + p + ".go", p + "/cmd/runner/main.go"]
    elif lang == "java":
        names = [_pascal(alias) + ".java", _pascal(alias) + "Runner.java"]
    elif lang == "vectors":
        names = [alias + ".jsonl", alias + ".expected.jsonl"]
    elif lang == "javascript":
        names = [alias + ".mjs", alias + "_runner.mjs", alias + "_page.html"]
    else:
        ext = _HELPERS_EXT[lang]
        names = [alias + "." + ext, alias + "_runner." + ext]
    return [lang + "/" + n for n in names]

def shared_files(lang):
    """The files every rule generated into one tree shares, in one language."""
    if lang == "vectors":
        return ["vectors/_helpers.jsonl", "vectors/_helpers.expected.jsonl"]
    return [lang + "/_helpers_runner." + _HELPERS_EXT[lang]]

# The module of the enums file `e` (below the language's folder), per language that gives an
# enums file its own: `{e}` its alias, `{E}` in PascalCase, `{p}` the Go package of it. A
# language joins here when rulec gen writes the module (else `--only` fails naming the file).
_ENUMS_MODULES = {
    "rust": ["{e}.rs"],
    "python": ["{e}.py"],
    "go": ["{p}/go.mod", "{p}/{p}.go"],
    "typescript": ["{e}.ts"],
    "javascript": ["{e}.mjs"],
    "java": ["{E}.java"],
}

def enums_files(alias, lang):
    """The module of the enums file `alias` in one language, where the language writes one."""
    names = _ENUMS_MODULES.get(lang, [])
    return [lang + "/" + n.format(e = alias, E = _pascal(alias), p = go_package(alias)) for n in names]

def alias_of(rule_file):
    """The alias a rule file's name promises (`rules/parcel_rate.rule` → `parcel_rate`)."""
    base = rule_file.basename
    if not base.endswith(".rule"):
        fail("%s is not a .rule file" % rule_file.short_path)
    return base[:-len(".rule")]
