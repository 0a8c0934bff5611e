"""rulec_test and rulec_check_test: `rulec test` and `rulec check` as test targets."""

load(":gen.bzl", "check_langs", "rulec_gen")
load(":providers.bzl", "RULEC_ATTRS", "collect")
load(":toolchain.bzl", "TOOLCHAIN_TYPE", "rulec_binary")

# The runners `rulec test` builds want a writable home and caches (go build does); the test's
# own scratch folder is the one place that is.
_PRELUDE = """#!/bin/bash
set -euo pipefail
export HOME="$TEST_TMPDIR" GOCACHE="$TEST_TMPDIR/go-cache" GOPATH="$TEST_TMPDIR/go" TMPDIR="$TEST_TMPDIR"
"""

def _quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _rulec_tree_test_impl(ctx):
    check_langs(ctx.attr.langs)
    rulec = rulec_binary(ctx)
    files = ctx.files.gen
    tree = "/".join([p for p in [ctx.attr.gen.label.package, ctx.attr.gen.label.name] if p])
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        script,
        _PRELUDE + "exec %s test %s --lang %s\n" % (_quote(rulec.short_path), _quote(tree), ",".join(ctx.attr.langs)),
        is_executable = True,
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = [rulec] + files))]

_rulec_tree_test = rule(
    implementation = _rulec_tree_test_impl,
    test = True,
    attrs = {
        "gen": attr.label(mandatory = True, doc = "A rulec_gen target (of this workspace)."),
        "langs": attr.string_list(mandatory = True),
    },
    toolchains = [TOOLCHAIN_TYPE],
)

def rulec_test(name, langs, gen = None, srcs = [], enums = [], deps = [], **kwargs):
    """`rulec test` over a generated tree: every language's runner held to the vectors.

    Give `gen`, a rulec_gen target that generated `langs`, or `srcs`/`enums`/`deps`, which
    generate a tree `<name>_gen` for the test. The languages' toolchains (python3, go, …)
    are the host's, found on PATH; a language without one is reported skipped by rulec.
    """
    if not gen:
        gen = name + "_gen"
        rulec_gen(name = gen, srcs = srcs, enums = enums, deps = deps, langs = langs, testonly = True)
    _rulec_tree_test(name = name, gen = gen, langs = langs, **kwargs)

def _rulec_check_test_impl(ctx):
    rulec = rulec_binary(ctx)
    info = collect(ctx.files.srcs, ctx.files.enums, ctx.attr.deps)
    rules = info.srcs.to_list()
    enums = info.enums.to_list()
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    paths = " ".join([_quote(f.short_path) for f in rules + enums])
    ctx.actions.write(script, _PRELUDE + "exec %s check --color never %s\n" % (_quote(rulec.short_path), paths), is_executable = True)
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = [rulec] + rules + enums))]

rulec_check_test = rule(
    implementation = _rulec_check_test_impl,
    doc = "`rulec check` on rule and enums files as a test: it fails on any error or warning.",
    test = True,
    attrs = RULEC_ATTRS,
    toolchains = [TOOLCHAIN_TYPE],
)
