"""The toolchain that carries the rulec binary."""

TOOLCHAIN_TYPE = str(Label("//bazel:toolchain_type"))

def _rulec_toolchain_impl(ctx):
    return [platform_common.ToolchainInfo(rulec = ctx.executable.rulec)]

rulec_toolchain = rule(
    implementation = _rulec_toolchain_impl,
    doc = """The rulec binary for the rules of //bazel:defs.bzl. Point `rulec` at any
executable: one built with cargo outside Bazel and brought in by rulec_local_toolchain
(bazel/repositories.bzl), a prebuilt one checked in or fetched with http_file.""",
    attrs = {
        "rulec": attr.label(
            executable = True,
            cfg = "exec",
            allow_single_file = True,
            mandatory = True,
            doc = "The rulec executable.",
        ),
    },
)

def rulec_binary(ctx):
    """The rulec executable of the resolved toolchain."""
    return ctx.toolchains[TOOLCHAIN_TYPE].rulec
