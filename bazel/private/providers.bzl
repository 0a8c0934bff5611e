"""The provider every rulec rule reads."""

RulecInfo = provider(
    doc = "Rule files and the enums files they may `use`.",
    fields = {
        "srcs": "depset of File: the rule files of this target alone (each generates code)",
        "enums": "depset of File: the enums files the rules may `use`: this target's and its deps', transitively",
    },
)

def collect(srcs, enums, deps):
    """RulecInfo for rule files `srcs` and enums files `enums`, over `deps` (targets with RulecInfo)."""
    return RulecInfo(
        srcs = depset(srcs),
        enums = depset(enums, transitive = [d[RulecInfo].enums for d in deps]),
    )

RULEC_ATTRS = {
    "srcs": attr.label_list(
        allow_files = [".rule"],
        doc = "Rule files; each generates code. A rule file is named after its rule's alias.",
    ),
    "enums": attr.label_list(
        allow_files = [".rule"],
        doc = "Enums files the rules may `use` (they generate nothing of their own).",
    ),
    "deps": attr.label_list(
        providers = [RulecInfo],
        doc = "rulec_library targets whose enums files the rules may `use`.",
    ),
}
