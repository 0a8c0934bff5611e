"""rulec_library: rule files and enums files as a target other rules build on."""

load(":providers.bzl", "RULEC_ATTRS", "collect")

def _rulec_library_impl(ctx):
    info = collect(ctx.files.srcs, ctx.files.enums, ctx.attr.deps)
    return [
        info,
        DefaultInfo(files = depset(transitive = [info.srcs, info.enums])),
    ]

rulec_library = rule(
    implementation = _rulec_library_impl,
    doc = "Rule files (`srcs`) and the enums files they `use` (`enums`, and those of `deps`).",
    attrs = RULEC_ATTRS,
)
