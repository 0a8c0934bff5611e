"""WORKSPACE set-up: a rulec toolchain from a rulec binary built outside Bazel.

    load("@rulec//bazel:repositories.bzl", "rulec_local_toolchain")
    rulec_local_toolchain(name = "rulec_toolchain")
    register_toolchains("@rulec_toolchain//:toolchain")

The binary is the one the RULEC environment variable names (pass it with
`--repo_env=RULEC=/path/to/rulec`), else the `rulec` on PATH — for instance the one
`cargo install --path .` or `cargo build --release` made. For a prebuilt binary, skip this and
declare `rulec_toolchain(name = …, rulec = "<label of the binary>")` and a `toolchain(…)` of
type `@rulec//bazel:toolchain_type` in a BUILD file of your own, then register that.
"""

def _rulec_local_toolchain_impl(rctx):
    path = rctx.os.environ.get("RULEC", "")
    if path:
        found = rctx.path(path)
        if not found.exists:
            fail("RULEC=%s: no such file (build rulec with `cargo build --release`)" % path)
    else:
        found = rctx.which("rulec")
        if not found:
            fail("no rulec binary: set RULEC (--repo_env=RULEC=/path/to/rulec) or put rulec on PATH " +
                 "(`cargo install --path .` in the rulec repository)")
    rctx.symlink(found, "rulec")
    rctx.file("BUILD.bazel", """load("@rulec//bazel:defs.bzl", "rulec_toolchain")

rulec_toolchain(
    name = "rulec_local",
    rulec = ":rulec",
)

toolchain(
    name = "toolchain",
    toolchain = ":rulec_local",
    toolchain_type = "@rulec//bazel:toolchain_type",
)
""")

rulec_local_toolchain = repository_rule(
    implementation = _rulec_local_toolchain_impl,
    doc = "A repository holding the rulec binary RULEC names (or the one on PATH) as a toolchain.",
    environ = ["RULEC", "PATH"],
    local = True,
)
