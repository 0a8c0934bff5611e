#!/usr/bin/env bash
# The DMN TCK (github.com/dmn-tck/tck) through `rulec import dmn`: every compliance-level-2
# and -3 model that holds a decision table is imported and checked, and every test case of
# it run through `rulec eval`; with --langs L (comma-separated, or `all`), the same calls go
# through the code `rulec gen` writes too (`rulec test` holds each language to eval's records
# on them). Prints passed / failed / refused per hit policy, a test case counted under each
# policy of its model's tables. Run by hand: `scripts/dmn-tck.sh ~/tck [--langs python,rust]`.
#
#   refused  the import refused the model (the reason is listed), or the rule does not check
#   failed   eval's answer differs from the TCK's expected value, or a call was refused
#   passed   every result node of the case equals what eval answers; an expected null counts
#            as met by a call rulec answers with "no row matched" (DMN's null for no match)
#
# Numbers travel as the rule declares them (docs/dmn.md): an `int` as itself, a `rate[S%]`
# as its count of steps; strings of an enum as the member's name. Decimal arithmetic only.
set -euo pipefail
tck="${1:?usage: scripts/dmn-tck.sh TCK_CHECKOUT [--langs L]}"
shift
langs=""
if [ "${1:-}" = "--langs" ]; then langs="${2:?--langs takes a list}"; fi
cd "$(dirname "$0")/.."
cargo build --quiet
export RULEC="$PWD/target/debug/rulec" TCK="$tck" LANGS="$langs"
exec python3 - <<'PY'
import json, os, re, subprocess, sys, tempfile
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

RULEC, TCK, LANGS = os.environ["RULEC"], Path(os.environ["TCK"]), os.environ["LANGS"]
XSI = "{http://www.w3.org/2001/XMLSchema-instance}"
POL = {("UNIQUE", None): "U", ("FIRST", None): "F", ("ANY", None): "A", ("PRIORITY", None): "P",
       ("COLLECT", None): "C", ("COLLECT", "SUM"): "C+", ("COLLECT", "MIN"): "C<",
       ("COLLECT", "MAX"): "C>", ("COLLECT", "COUNT"): "C#", ("RULE ORDER", None): "R",
       ("OUTPUT ORDER", None): "O"}
KEYWORDS = set("rule enums use about input output value define table enum group constraint expect "
               "round and or not none true false unique first any min max mod isqrt if then else in".split())

def local(tag): return tag.rsplit("}", 1)[-1]

def ident(s):
    # src/dmn/mod.rs `ident`: the same spelling of a DMN name as a .rule name.
    out = ""
    for c in s:
        if (c.isascii() and c.isalnum()) or c == "_": out += c
        elif not out.endswith("_"): out += "_"
    out = out.strip("_")
    if not out or out[0].isdigit(): out = "v_" + out
    return out + "_" if out in KEYWORDS else out

def declarations(rule_text):
    """DMN id -> (name, type, list) for every input and output, from the `# DMN … ID` comments."""
    enums, decls = {}, {}
    for line in rule_text.splitlines():
        m = re.match(r'enum (\w+): (.*)', line)
        if m:
            members = {}
            for part in re.findall(r'(\w+)(?: "((?:[^"\\]|\\.)*)")?', m.group(2)):
                members[part[1].replace('\\"', '"').replace("\\\\", "\\") if part[1] else part[0]] = part[0]
            enums[m.group(1)] = members
        m = re.match(r'(input|output) (\w+): (\S+?)(\?)?(?: .*)? # DMN \w+ (\S+)$', line)
        if m:
            ty = m.group(3)
            lst = ty.startswith("list[")
            decls[m.group(5)] = (m.group(1), m.group(2), ty[5:-1] if lst else ty, lst)
    return enums, decls

def value(node):
    """A TCK value node as Python: Decimal, str, bool, None, list, or dict of components."""
    if node is None or node.get(XSI + "nil") == "true": return None
    kids = [k for k in node if isinstance(k.tag, str)]
    lst = [k for k in kids if local(k.tag) == "list"]
    comps = [k for k in kids if local(k.tag) == "component"]
    if lst: return [item(i) for i in lst[0] if local(i.tag) == "item"]
    if comps: return {c.get("name"): value(next((v for v in c if local(v.tag) == "value"), None)) for c in comps}
    t = (node.get(XSI + "type") or "").split(":")[-1]
    text = node.text or ""
    if t in ("decimal", "double", "int", "integer", "long", "float"): return Decimal(text.strip())
    if t == "boolean": return text.strip() == "true"
    return text

def item(i):
    """A list's item: a value, or a context of components."""
    if any(local(c.tag) == "component" for c in i): return value(i)
    return value(next((v for v in i if local(v.tag) == "value"), None))

def wire(v, ty, enums):
    """A DMN value in the rule's wire; raises ValueError when it has none."""
    if v is None: return None
    if isinstance(v, (list, dict)): raise ValueError("a structured value")
    if ty == "int":
        if not isinstance(v, Decimal) or v != v.to_integral_value(): raise ValueError(f"{v} is no int")
        return int(v)
    m = re.match(r"rate\[(.*)%\]", ty)
    if m:
        steps = v * 100 / Decimal(m.group(1))
        if steps != steps.to_integral_value(): raise ValueError(f"{v} is off the step")
        return int(steps)
    if ty in enums:
        if v not in enums[ty]: raise ValueError(f"{v!r} is no member of {ty}")
        return enums[ty][v]
    if ty == "bool": return bool(v)
    return v.strip() if ty == "date" else v

def tables(dmn):
    try: root = ET.parse(dmn).getroot()
    except ET.ParseError: return []
    return [POL.get((t.get("hitPolicy", "UNIQUE"), t.get("aggregation")), "?")
            for t in root.iter() if local(t.tag) == "decisionTable"]

tally, refusals, work, agreed = {}, [], Path(tempfile.mkdtemp()), [0, 0]
# The hit-policy test cases as the TCK labels them: every test case of a test file that
# carries a `Hit Policy: …` label, counted once, by compliance level.
labelled = {}
def count(pols, what, n=1, level=None, lab=False):
    for p in pols: tally.setdefault(p, {"passed": 0, "failed": 0, "refused": 0})[what] += n
    if lab: labelled.setdefault(level, {"passed": 0, "failed": 0, "refused": 0})[what] += n

for level in ("compliance-level-2", "compliance-level-3"):
    for d in sorted((TCK / "TestCases" / level).iterdir()):
        if not d.is_dir(): continue
        for dmn in sorted(d.glob("*.dmn")):
            pols = sorted(set(tables(dmn)))
            if not pols: continue
            cases = []
            for tf in sorted(d.glob("*test*.xml")):
                try: tr = ET.parse(tf).getroot()
                except ET.ParseError: continue
                model = next((m.text for m in tr if local(m.tag) == "modelName"), None)
                if model and model.strip() != dmn.name: continue
                hp = any(local(l.tag) == "label" and "hit policy" in (l.text or "").lower() for l in tr.iter())
                cases += [(c, hp) for c in tr if local(c.tag) == "testCase"]
            rule = work / (dmn.stem + ".rule")
            imp = subprocess.run([RULEC, "import", "dmn", str(dmn), "--out", str(rule)], capture_output=True, text=True)
            def refused():
                for _, hp in cases: count(pols, "refused", level=level, lab=hp)
            if imp.returncode != 0:
                refusals.append((level, dmn.name, imp.stderr.strip().split(".dmn:", 1)[-1]))
                refused(); continue
            chk = subprocess.run([RULEC, "check", str(rule)], capture_output=True, text=True)
            said = (chk.stdout + chk.stderr).splitlines()
            at = next((i for i, l in enumerate(said) if l.startswith("error")), None)
            if at is not None:
                # The error's headline, and its help when it gives one (why it is refused).
                helps = [l.split("= help:", 1)[1].strip() for l in said[at + 1:at + 12] if "= help:" in l]
                refusals.append((level, dmn.name, "imported; " + said[at] + ("; " + helps[0] if helps else "")))
                refused(); continue
            enums, decls = declarations(rule.read_text())
            root = ET.parse(dmn).getroot()
            by_name = {}  # DMN name (or decision.component) -> declaration
            for e in root.iter():
                i = e.get("id")
                if i in decls:
                    if local(e.tag) == "output":
                        dec = next(x for x in root.iter() if local(x.tag) == "decision" and e in x.iter())
                        by_name[f'{dec.get("name")}.{e.get("name")}'] = decls[i]
                    else: by_name[e.get("name")] = decls[i]
            calls, checks, labs = [], [], []
            for c, hp in cases:
                try:
                    call = {}
                    for n in c:
                        if local(n.tag) != "inputNode": continue
                        decl = by_name.get(n.get("name"))
                        if decl is None: continue  # an input no imported table reads
                        vn = next((v for v in n if local(v.tag) == "value"), None)
                        v = value(vn) if vn is not None else value(n)
                        call[decl[1]] = wire(v, decl[2], enums)
                    want = []
                    for r in c:
                        if local(r.tag) != "resultNode": continue
                        exp = next((x for x in r if local(x.tag) == "expected"), None)
                        vn = None if exp is None else next((x for x in exp if local(x.tag) == "value"), None)
                        v = value(vn) if vn is not None else (value(exp) if exp is not None else None)
                        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                            # A list of contexts: one list per component, zipped (parallel lists).
                            names = list(dict.fromkeys(k for x in v for k in x))
                            parts = [(n, [x.get(n) for x in v]) for n in names]
                        else:
                            parts = v.items() if isinstance(v, dict) else [(None, v)]
                        for comp, cv in parts:
                            key = r.get("name") if comp is None else f'{r.get("name")}.{comp}'
                            decl = by_name.get(key)
                            if decl is None: raise ValueError(f"{key} is not an output")
                            want.append((decl[1], [wire(x, decl[2], enums) for x in cv] if decl[3] and isinstance(cv, list) else wire(cv, decl[2], enums)))
                    calls.append(call); checks.append(want); labs.append(hp)
                except (ValueError, StopIteration, TypeError) as e:
                    count(pols, "failed", level=level, lab=hp)
            if not calls: continue
            ev = subprocess.run([RULEC, "eval", str(rule), "--in", "-"], input="\n".join(json.dumps(c) for c in calls),
                                capture_output=True, text=True)
            records = [json.loads(l) for l in ev.stdout.splitlines() if l.strip()]
            for i, want in enumerate(checks):
                rec = records[i] if i < len(records) else {}
                got = rec.get("observed")
                ok = i < len(records) and all((got is not None and got.get(k) == v) or
                         (v is None and got is None and "no row matched" in json.dumps(rec)) for k, v in want)
                count(pols, "passed" if ok else "failed", level=level, lab=labs[i])
            if LANGS:
                # The TCK's calls as the rule's vectors, eval's records as what each language must print.
                out = work / ("gen-" + dmn.stem)
                g = [RULEC, "gen", str(rule), "--out", str(out), "--lock", str(out / "rulec.lock"), "--no-servers"]
                if LANGS != "all": g += ["--lang", LANGS]
                subprocess.run(g, capture_output=True, check=True)
                stem = next(p for p in (out / "vectors").glob("*.jsonl") if not p.name.startswith("_") and not p.name.endswith(".expected.jsonl")).name[:-6]
                (out / "vectors" / f"{stem}.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
                vec = subprocess.run([RULEC, "eval", str(rule), "--in", "-"], input="\n".join(json.dumps(c) for c in calls), capture_output=True, text=True)
                (out / "vectors" / f"{stem}.expected.jsonl").write_text(vec.stdout)
                t = subprocess.run([RULEC, "test", str(out), "--format", "json"] + ([] if LANGS == "all" else ["--lang", LANGS]), capture_output=True, text=True)
                bad = [r for r in json.loads(t.stdout or '{"results":[]}')["results"] if not r["ok"]]
                agreed[bool(bad or t.returncode != 0)] += 1
                if bad or t.returncode != 0:
                    refusals.append((level, dmn.name, f"generated code disagrees with eval: {[r['lang'] for r in bad]} {t.stderr.strip()[:200]}"))

print(f"{'policy':8} {'passed':>7} {'failed':>7} {'refused':>8}")
for p in ["U", "A", "P", "F", "R", "O", "C", "C+", "C<", "C>", "C#", "?"]:
    if p in tally: print(f"{p:8} {tally[p]['passed']:>7} {tally[p]['failed']:>7} {tally[p]['refused']:>8}")
print("\nhit-policy test cases (those of the test files labelled `Hit Policy: ...`), by level:")
for lvl, t in sorted(labelled.items()):
    print(f"  {lvl}: {t['passed']} passed, {t['failed']} failed, {t['refused']} refused of {sum(t.values())}")
if LANGS: print(f"\ngenerated code ({LANGS}) on the TCK's calls: {agreed[0]} models agree with eval, {agreed[1]} do not")
print("\nrefused models:")
for level, name, why in refusals: print(f"  {level}/{name}: {why}")
PY
