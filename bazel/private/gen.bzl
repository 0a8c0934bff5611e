"""rulec_gen: one `rulec gen` action per rule file, outputs predeclared from the file names."""

load(":outputs.bzl", "LANGS", "alias_of", "enums_files", "rule_files", "shared_files")
load(":providers.bzl", "RULEC_ATTRS", "RulecInfo", "collect")
load(":toolchain.bzl", "TOOLCHAIN_TYPE", "rulec_binary")

def rules_and_enums(ctx):
    """The rule files to generate (own srcs and every dep's) and the enums files they may use."""
    info = collect(ctx.files.srcs, ctx.files.enums, ctx.attr.deps)
    rules = info.srcs.to_list()
    for d in ctx.attr.deps:
        rules.extend(d[RulecInfo].srcs.to_list())
    seen = {}
    for r in rules:
        a = alias_of(r)
        if a in seen and seen[a] != r:
            fail("%s and %s would generate the same files (one rulec_gen holds one rule per name)" % (seen[a].short_path, r.short_path))
        seen[a] = r
    by_path = {r.path: r for r in seen.values()}
    return [by_path[p] for p in sorted(by_path.keys())], info.enums.to_list()

def check_langs(langs):
    for l in langs:
        if l not in LANGS:
            fail("`%s` is not a language rulec generates (%s)" % (l, ", ".join(LANGS)))
    if not langs:
        fail("langs is empty: name at least one of %s" % ", ".join(LANGS))

def _enums_modules(rules, enums, langs):
    """The modules of the enums files (outputs.bzl's `enums_files`), each once."""
    own = {p: r for r in rules for k in langs for p in rule_files(alias_of(r), k)}
    seen = {}
    for e in enums:
        for k in langs:
            for p in enums_files(alias_of(e), k):
                if p in seen and seen[p] != e:
                    fail("%s and %s would both write %s (one rulec_gen holds one enums file per name)" % (seen[p].short_path, e.short_path, p))
                if p in own:
                    fail("%s and %s would both write %s" % (own[p].short_path, e.short_path, p))
                seen[p] = e
    return sorted(seen.keys())

def _declare(ctx, rel):
    return ctx.actions.declare_file(ctx.label.name + "/" + rel)

def _out_root(f, rel):
    """The folder `rulec gen --out` names, from a declared file and its path below it."""
    return f.path[:-len("/" + rel)]

def _gen_args(ctx, rule, enums, langs):
    args = ctx.actions.args()
    args.add("gen")
    args.add(rule)
    args.add_all(enums)
    args.add("--lang", ",".join(langs))
    args.add("--no-lock")
    args.add("--no-servers")
    args.add("--quiet")
    return args

def _rulec_gen_impl(ctx):
    check_langs(ctx.attr.langs)
    langs = ctx.attr.langs
    rulec = rulec_binary(ctx)
    rules, enums = rules_and_enums(ctx)
    if not rules:
        fail("no rule files: give srcs, or deps with srcs")
    kinds = langs + ["vectors"]
    shared = [p for k in kinds for p in shared_files(k)]
    shared_outs = {p: _declare(ctx, p) for p in shared}
    by_kind = {k: [shared_outs[p] for p in shared_files(k)] for k in kinds}

    # The module of each enums file, in the languages that give one its own: declared once,
    # written with the shared files by the first rule's action.
    modules = _enums_modules(rules, enums, langs)
    module_outs = {p: _declare(ctx, p) for p in modules}
    for k in langs:
        by_kind[k].extend([module_outs[p] for p in modules if p.startswith(k + "/")])
    validations = []
    for i, rule in enumerate(rules):
        alias = alias_of(rule)
        own = [p for k in kinds for p in rule_files(alias, k)]
        outs = {p: _declare(ctx, p) for p in own}
        for k in kinds:
            by_kind[k].extend([outs[p] for p in rule_files(alias, k)])

        # The first rule's action also writes the shared files; the others say where they come from.
        writes = dict(outs)
        if i == 0:
            writes.update(shared_outs)
            writes.update(module_outs)
        unused = ctx.actions.declare_file("%s.rulec/%s.unused" % (ctx.label.name, alias))
        args = _gen_args(ctx, rule, enums, langs)
        some = own[0]
        args.add("--out", _out_root(outs[some], some))
        for p in sorted(writes.keys()):
            args.add("--only", p)
        if i > 0:
            for p in shared + modules:
                args.add("--written-elsewhere", p)
        if enums:
            args.add("--enums-modules")
        args.add("--unused-inputs-list", unused)
        ctx.actions.run(
            executable = rulec,
            arguments = [args],
            inputs = [rule] + enums,
            outputs = writes.values() + [unused],
            unused_inputs_list = unused,
            mnemonic = "RulecGen",
            progress_message = "rulec gen %s (%s)" % (rule.short_path, ", ".join(langs)),
        )
        if ctx.attr.locked:
            validations.append(_locked_check(ctx, rulec, rule, enums, langs, own + shared + modules))

    all_files = [f for k in kinds for f in by_kind[k]]
    groups = {k: depset(by_kind[k]) for k in kinds}
    groups["_validation"] = depset(validations)
    groups["rulec_locked"] = depset(validations)
    # Bazel 4 runs the `_validation` group only with --experimental_run_validations, so the
    # lock checks are also among the files a build of the target asks for.
    return [
        DefaultInfo(files = depset(all_files + validations)),
        OutputGroupInfo(**groups),
        collect(rules, enums, []),
    ]

def _locked_check(ctx, rulec, rule, enums, langs, paths):
    """An action that fails when the committed files or the lock differ from a fresh generation.

    It runs `rulec gen --locked --check` with --out the committed tree beside the lock: the
    lock must agree with a fresh generation of the rule (a stale lock names the rule and each
    file), and each committed file with both (a hand edit names the file). It writes nothing
    but its record, so Bazel runs it as a validation of the target.
    """
    lock = ctx.file.lock
    if not lock:
        fail("locked = True needs lock: the rulec.lock the committed files were generated with")
    if lock.owner.workspace_root != ctx.label.workspace_root or lock.owner.package != ctx.label.package:
        fail("lock %s is not in the package of %s: the committed tree is looked for beside it" % (lock.short_path, ctx.label))
    lock_dir = lock.path[:-len(lock.basename)]
    committed_root = lock_dir + ctx.attr.committed_dir
    present = {f.path: f for f in ctx.files.committed}
    committed = [present[committed_root + "/" + p] for p in paths if committed_root + "/" + p in present]
    done = ctx.actions.declare_file("%s.rulec/%s.locked" % (ctx.label.name, alias_of(rule)))
    args = ctx.actions.args()
    args.add("gen")
    args.add(rule)
    args.add_all(enums)
    args.add("--lang", ",".join(langs))
    args.add("--out", committed_root)
    args.add("--lock", lock)
    args.add("--locked")
    args.add("--check")
    args.add("--no-servers")
    args.add("--quiet")
    args.add("--unused-inputs-list", done)
    ctx.actions.run(
        executable = rulec,
        arguments = [args],
        inputs = [rule, lock] + enums + committed,
        outputs = [done],
        unused_inputs_list = done,
        mnemonic = "RulecLocked",
        progress_message = "rulec gen --locked %s against %s" % (rule.short_path, lock.short_path),
    )
    return done

_GEN_ATTRS = dict(RULEC_ATTRS)
_GEN_ATTRS.update({
    "langs": attr.string_list(
        mandatory = True,
        doc = "Languages to generate: %s." % ", ".join(LANGS),
    ),
    "locked": attr.bool(
        default = False,
        doc = "Fail the build when a fresh generation differs from `lock`, or a committed file from either.",
    ),
    "lock": attr.label(
        allow_single_file = True,
        doc = "The committed rulec.lock (with locked = True).",
    ),
    "committed_dir": attr.string(
        default = "generated",
        doc = "Where the committed generated tree is, relative to the lock's folder (rulec gen --out).",
    ),
    "committed": attr.label_list(
        allow_files = True,
        doc = "The committed generated files (the rulec_gen macro globs committed_dir for them).",
    ),
})

rulec_gen_rule = rule(
    implementation = _rulec_gen_impl,
    doc = "Generate code for rule files: `<name>/<lang>/…` and `<name>/vectors/…`.",
    attrs = _GEN_ATTRS,
    toolchains = [TOOLCHAIN_TYPE],
)

def rulec_gen(name, locked = False, lock = None, committed_dir = "generated", **kwargs):
    """Generate code for rule files, one action per rule file.

    Outputs are `<name>/<lang>/…` and `<name>/vectors/…`, named as bazel/private/outputs.bzl
    says, returned in DefaultInfo and in one output group per language (and `vectors`).
    With locked = True, `lock` (default `rulec.lock` in this package) and the committed tree
    beside it (`committed_dir`) are held to a fresh generation, and the build fails naming
    every file that differs.
    """
    committed = []
    if locked:
        lock = lock or "rulec.lock"
        committed = native.glob([committed_dir + "/**"], allow_empty = True)
    rulec_gen_rule(
        name = name,
        locked = locked,
        lock = lock,
        committed_dir = committed_dir,
        committed = committed,
        **kwargs
    )
