"""host_test: a test that runs a command of the host's toolchain (go test, say) over source
files and generated files laid out as make lays them, so the service's own build files
(go.mod's replace lines) hold under Bazel unchanged."""

def _quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _host_test_impl(ctx):
    gen = ctx.attr.generated
    gen_root = "/".join([p for p in [gen.label.package, gen.label.name] if p]) + "/"
    lines = [
        "#!/bin/bash",
        "set -euo pipefail",
        'export HOME="$TEST_TMPDIR" GOCACHE="$TEST_TMPDIR/go-cache" GOPATH="$TEST_TMPDIR/go" TMPDIR="$TEST_TMPDIR"',
        'tree="$TEST_TMPDIR/tree"',
    ]
    files = []
    for f in ctx.files.srcs:
        lines.append('install -D -m 644 %s "$tree"/%s' % (_quote(f.short_path), _quote(f.short_path)))
        files.append(f)
    for f in gen.files.to_list():
        rel = f.short_path
        if not rel.startswith(gen_root):
            fail("%s is not below %s" % (rel, gen_root))
        lines.append('install -D -m 644 %s "$tree"/%s' % (_quote(rel), _quote(ctx.attr.generated_dir + "/" + rel[len(gen_root):])))
        files.append(f)
    lines.append('cd "$tree"/%s' % _quote(ctx.attr.dir))
    lines.append("exec " + ctx.attr.command)
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "\n".join(lines) + "\n", is_executable = True)
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = files))]

host_test = rule(
    implementation = _host_test_impl,
    test = True,
    attrs = {
        "srcs": attr.label_list(allow_files = True, doc = "The service's files, laid out at their paths."),
        "generated": attr.label(mandatory = True, doc = "A rulec_gen target."),
        "generated_dir": attr.string(default = "generated", doc = "Where make writes the generated tree."),
        "dir": attr.string(mandatory = True, doc = "The folder the command runs in."),
        "command": attr.string(mandatory = True),
    },
)
