"""Bzlmod: the rulec toolchain for MODULE.bazel users (Bazel 6 and later; untested here).

    bazel_dep(name = "rulec", version = "0.1.0")
    rulec = use_extension("@rulec//bazel:extensions.bzl", "rulec")
    use_repo(rulec, "rulec_toolchain")
    register_toolchains("@rulec_toolchain//:toolchain")
"""

load(":repositories.bzl", "rulec_local_toolchain")

def _rulec_impl(_mctx):
    rulec_local_toolchain(name = "rulec_toolchain")

rulec = module_extension(implementation = _rulec_impl)
