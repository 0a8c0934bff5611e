"""Local stand-ins for the repositories Bazel 4 reaches for on its own, for a machine with no
network (Debian's bazel-bootstrap on a build host that reaches its package mirror only).

    load("@rulec//bazel/offline:repositories.bzl", "rulec_offline_repositories")
    rulec_offline_repositories()

@bazel_tools loads @rules_cc, @rules_java and @rules_proto for the native rules' Starlark
names, and every test rule depends on @remote_coverage_tools for coverage. Each stand-in
forwards the names to the native rules, and the coverage tools are scripts that refuse to
run: `bazel coverage` is the one command these cannot serve. Call this before anything
that would declare the real repositories; where the network is there, do not call it.
"""

_FORWARD = """# A stand-in written by rulec_offline_repositories: each name is the native rule.
{lines}
"""

def _forwarders(names):
    return _FORWARD.format(lines = "\n".join([
        "def {n}(**kwargs):\n    native.{n}(**kwargs)\n".format(n = n)
        for n in names
    ]))

_STAND_INS = {
    "rules_cc": {"cc/defs.bzl": [
        "cc_binary",
        "cc_import",
        "cc_library",
        "cc_proto_library",
        "cc_test",
        "cc_toolchain",
        "cc_toolchain_suite",
        "fdo_prefetch_hints",
        "fdo_profile",
        "objc_import",
        "objc_library",
    ]},
    "rules_java": {"java/defs.bzl": [
        "java_binary",
        "java_import",
        "java_library",
        "java_lite_proto_library",
        "java_package_configuration",
        "java_plugin",
        "java_proto_library",
        "java_runtime",
        "java_test",
        "java_toolchain",
    ]},
    "rules_proto": {"proto/defs.bzl": [
        "proto_lang_toolchain",
        "proto_library",
    ]},
}

def _stand_in_impl(rctx):
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.attr.name)
    rctx.file("BUILD.bazel", "")
    for path, names in _STAND_INS[rctx.attr.kind].items():
        rctx.file(path.rsplit("/", 1)[0] + "/BUILD.bazel", "")
        rctx.file(path, _forwarders(names))

_stand_in = repository_rule(
    implementation = _stand_in_impl,
    attrs = {"kind": attr.string(mandatory = True)},
)

_COVERAGE_BUILD = """load(":refuse.bzl", "refuse")

refuse(name = "coverage_report_generator", visibility = ["//visibility:public"])

refuse(name = "lcov_merger", visibility = ["//visibility:public"])
"""

_REFUSE_BZL = """def _refuse_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(out, "#!/bin/sh\\necho 'coverage needs the real @remote_coverage_tools' >&2\\nexit 1\\n", is_executable = True)
    return [DefaultInfo(executable = out)]

refuse = rule(implementation = _refuse_impl, executable = True)
"""

def _coverage_tools_impl(rctx):
    rctx.file("WORKSPACE", 'workspace(name = "remote_coverage_tools")\n')
    rctx.file("BUILD.bazel", _COVERAGE_BUILD)
    rctx.file("refuse.bzl", _REFUSE_BZL)

_coverage_tools = repository_rule(implementation = _coverage_tools_impl)

def rulec_offline_repositories():
    for name in _STAND_INS:
        _stand_in(name = name, kind = name)
    _coverage_tools(name = "remote_coverage_tools")
