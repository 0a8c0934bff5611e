#!/usr/bin/env python3
"""Re-check a rulec certificate without rulec.

    python3 proofs/recheck.py [--rule FILE.rule] cert.json

Standard library only; shares no code with rulec. Prints what it proved and what it only
took as stated. Exit 0 when every table holds, 1 when a claim does not, 2 for a
certificate it cannot read.
"""

import argparse
import bisect
import datetime
import hashlib
import json
import re
import sys
from fractions import Fraction

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


class Unreadable(Exception):
    pass


def frac(s):
    if isinstance(s, bool) or not isinstance(s, (str, int)):
        raise Unreadable(f"not a number: {s!r}")
    try:
        return Fraction(str(s))
    except (ValueError, ZeroDivisionError):
        raise Unreadable(f"not a number: {s!r}")


class Run:
    def __init__(self):
        self.failures = []
        self.stated = {}

    def fail(self, msg):
        self.failures.append(msg)

    def state(self, what, n=1):
        self.stated[what] = self.stated.get(what, 0) + n


# ---------------------------------------------------------------- linear facts


def fact_lin(item):
    coeffs = {k: frac(v) for k, v in item["coeffs"].items()}
    return coeffs, frac(item["const"]), bool(item["strict"])


def check_farkas(run, where, items, table, cert, box):
    """The multipliers add the named facts up to 0 <= negative (or 0 < 0)."""
    total = {}
    const = Fraction(0)
    strict = False
    if not items:
        run.fail(f"{where}: an empty refutation")
        return False
    ok = True
    for it in items:
        y = frac(it["y"])
        if y <= 0:
            run.fail(f"{where}: a multiplier {y} is not positive")
            ok = False
        coeffs, c, s = fact_lin(it)
        if "coord" in it:
            co = it["coord"]
            k, hi, at, op = co["axis"], bool(co["hi"]), frac(co["at"]), bool(co["open"])
            axis = table["axes"][k]
            first, last = box[k]
            b = axis["bounds"][last if hi else first]
            o = axis["open"][last if hi else first]
            end = None if b is None else b[1 if hi else 0]
            if end is None or frac(end) != at or bool(o[1 if hi else 0]) != op:
                run.fail(f"{where}: the coordinate bound {co} is not the leaf's")
                ok = False
            x = axis["column"]
            want = ({x: Fraction(1)}, -at) if hi else ({x: Fraction(-1)}, at)
            if (coeffs, c, s) != (want[0], want[1], op):
                run.fail(f"{where}: the coordinate bound {co} is not written as its linear form")
                ok = False
        elif isinstance(it.get("fact"), dict) and "range" in it["fact"]:
            var, hi = it["fact"]["range"], bool(it["fact"]["hi"])
            r = cert["ranges"].get(var)
            if r is None:
                run.fail(f"{where}: a range of {var}, which declares none")
                ok = False
            else:
                want = ({var: Fraction(1)}, -frac(r[1])) if hi else ({var: Fraction(-1)}, frac(r[0]))
                if (coeffs, c, s) != (want[0], want[1], False):
                    run.fail(f"{where}: the range fact of {var} is not the declared range")
                    ok = False
        else:
            run.state("facts of constraints and defines (their linear form as the certificate reads it)")
        for v, a in coeffs.items():
            total[v] = total.get(v, Fraction(0)) + y * a
        const += y * c
        strict = strict or s
    left = {v: a for v, a in total.items() if a != 0}
    if left:
        run.fail(f"{where}: the multipliers leave {sorted(left)} in the sum")
        return False
    if not (const > 0 or (const == 0 and strict)):
        run.fail(f"{where}: the sum is 0 <= {-const}, no contradiction")
        return False
    return ok


def check_refutation(run, where, ref, table, cert, box):
    if not isinstance(ref, dict):
        run.fail(f"{where}: no refutation")
        return False
    if "farkas" in ref:
        return check_farkas(run, where, ref["farkas"], table, cert, box)
    if "produced" in ref:
        run.state("boxes left out because another table produces no value there")
        return True
    if "same_column" in ref:
        run.state("boxes left out because two columns on one variable share no value there")
        return True
    run.fail(f"{where}: a refutation of no known kind")
    return False


# ---------------------------------------------------------------- cells


OPS = ("<=", ">=", "!=", "<", ">", "=")
NUM_RE = re.compile(r"^(-?\d+(?:\.\d+)?)\s*(.*)$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
EPOCH = datetime.date(1970, 1, 1).toordinal()


def split_items(t):
    items, cur, q = [], "", False
    for ch in t:
        if ch == '"':
            q = not q
        if ch == "," and not q:
            items.append(cur.strip())
            cur = ""
        else:
            cur += ch
    items.append(cur.strip())
    return items


def read_literal(lit, axis, cert):
    """A literal as a certificate value; 'unit' when written in another unit; None if unreadable."""
    unit = axis.get("unit") or {}
    if lit.startswith('"') and lit.endswith('"') and len(lit) >= 2:
        return {"str": lit[1:-1]}
    if lit in ("true", "false"):
        return {"bool": lit == "true"}
    if lit == "none":
        return {"none": True}
    if DATE_RE.match(lit):
        try:
            return {"num": str(datetime.date.fromisoformat(lit).toordinal() - EPOCH)}
        except ValueError:
            return None
    m = NUM_RE.match(lit)
    if m:
        n, sym = Fraction(m.group(1)), m.group(2).strip()
        if unit and sym == unit.get("symbol", ""):
            return {"num": str(n * frac(unit["per"]))}
        return "unit"
    if re.match(r"^[\w]+$", lit):
        if lit in cert.get("groups", {}):
            return {"group": lit}
        return {"enum": lit}
    return None


def same_value(a, b):
    if "num" in a and "num" in b:
        return frac(a["num"]) == frac(b["num"])
    if "enum" in a and "enum" in b:
        return a["enum"] == b["enum"]
    for k in ("bool", "str", "none"):
        if k in a and k in b:
            return a[k] == b[k]
    return False


def flatten_stated(cell):
    """(negated, in-values, none?, [bounds]) of a stated cell."""
    ins, none, bounds = [], False, []
    for t in cell["tests"]:
        if t["test"] == "none":
            none = True
        elif t["test"] == "in":
            ins.extend(t["values"])
        elif t["test"] == "cmp":
            bounds.append(t["bounds"])
        else:
            raise Unreadable(f"a test of no known kind: {t['test']}")
    return bool(cell["negated"]), ins, none, bounds


def read_back_cell(run, where, text, cell, axis, cert):
    """Hold the stated tests to the cell text. Returns False on a contradiction."""
    t = text.strip()
    if t == "-":
        if cell["cell"] != "any":
            run.fail(f"{where}: `-` is stated as a test")
            return False
        return True
    if cell["cell"] != "tests":
        run.fail(f"{where}: `{t}` is stated as `-`")
        return False
    neg = False
    if t.startswith("not:"):
        neg, t = True, t[4:].strip()
    sneg, sins, snone, sbounds = flatten_stated(cell)
    if neg != sneg:
        run.fail(f"{where}: `{text}` is {'not ' if not neg else ''}negated, the certificate says otherwise")
        return False
    ins, none, bounds = [], False, []
    for item in split_items(t):
        if item.startswith(OPS):
            bs = []
            for op, lit in re.findall(r"(<=|>=|!=|<|>|=)\s*([^\s<>=!]+)", item):
                bs.append((op, read_literal(lit, axis, cert)))
            bounds.append(bs)
        else:
            v = read_literal(item, axis, cert)
            if isinstance(v, dict) and v.get("none"):
                none = True
            elif isinstance(v, dict) and "group" in v:
                g = cert["groups"][v["group"]]
                run.state("group members (the certificate's reading of the rule)")
                ins.extend({"enum": n} for n in g["values"])
            else:
                ins.append(v)
    if none != snone or len(ins) != len(sins) or len(bounds) != len(sbounds):
        run.fail(f"{where}: `{text}` does not have the tests the certificate states")
        return False
    ok = True
    for v in ins:
        if v is None or v == "unit":
            run.state("cell literals in a unit other than the axis's own")
            continue
        if not any(same_value(v, s) for s in sins):
            run.fail(f"{where}: `{text}` names {v}, which the certificate's tests do not")
            ok = False
    for bs, sbs in zip(bounds, sbounds):
        if len(bs) != len(sbs):
            run.fail(f"{where}: `{text}` has {len(bs)} bounds, the certificate {len(sbs)}")
            ok = False
            continue
        for (op, v), s in zip(bs, sbs):
            if op != s["op"]:
                run.fail(f"{where}: `{text}` compares with {op}, the certificate with {s['op']}")
                ok = False
            elif v is None or v == "unit":
                run.state("cell literals in a unit other than the axis's own")
            elif not same_value(v, s["value"]):
                run.fail(f"{where}: `{text}` compares with {v}, the certificate with {s['value']}")
                ok = False
    return ok


# ---------------------------------------------------------------- boxes from tests


def cmp_holds(op, a, b):
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "=": a == b, "!=": a != b}[op]


def order_key(v):
    if "num" in v:
        return frac(v["num"])
    if "pos" in v:
        return v["pos"]
    if "bool" in v:
        return int(v["bool"])
    if "str" in v:
        return v["str"]
    raise Unreadable(f"cannot order {v}")


def bound_on_interval(op, v, lo, hi, lo_open, hi_open):
    """True if every value of the interval satisfies `x op v`, False if none does, None if some do."""
    # A value is in the interval when lo (<|<=) x (<|<=) hi.
    def all_le(v, strict):  # every x < v (strict) or <= v
        if hi is None:
            return False
        return hi < v or (hi == v and (not strict or hi_open))

    def all_ge(v, strict):
        if lo is None:
            return False
        return lo > v or (lo == v and (not strict or lo_open))

    if op in ("<=", "<"):
        strict = op == "<"
        if all_le(v, strict):
            return True
        if all_ge(v, not strict):
            return False
        return None
    if op in (">=", ">"):
        strict = op == ">"
        if all_ge(v, strict):
            return True
        if all_le(v, not strict):
            return False
        return None
    point = lo is not None and lo == hi and not lo_open and not hi_open
    inside = not all_le(v, True) and not all_ge(v, True)
    if op == "=":
        return True if point and lo == v else (None if inside else False)
    if op == "!=":
        return False if point and lo == v else (None if inside else True)
    raise Unreadable(f"no such comparison: {op}")


def test_on_coord(test, axis, i):
    c = axis["coords"][i]
    if test["test"] == "none":
        return bool(c.get("none"))
    if c.get("none"):
        return False
    if c.get("other"):
        # Every string no cell names: no test of a cell names one of them.
        return False
    if c.get("interval"):
        b, o = axis["bounds"][i], axis["open"][i]
        lo = None if b[0] is None else frac(b[0])
        hi = None if b[1] is None else frac(b[1])
        if test["test"] == "in":
            rs = [bound_on_interval("=", frac(v["num"]), lo, hi, o[0], o[1]) for v in test["values"]]
        else:
            rs = [
                all_of([bound_on_interval(x["op"], frac(x["value"]["num"]), lo, hi, o[0], o[1]) for x in test["bounds"]])
            ]
        return any_of(rs)
    if test["test"] == "in":
        return any(same_value(c, v) or c == v for v in test["values"])
    return all(cmp_holds(x["op"], order_key(c), order_key(x["value"])) for x in test["bounds"])


def all_of(rs):
    if any(r is False for r in rs):
        return False
    return True if all(r is True for r in rs) else None


def any_of(rs):
    if any(r is True for r in rs):
        return True
    return False if all(r is False for r in rs) else None


def accepts_of(cell, axis):
    n = len(axis["coords"])
    if cell["cell"] == "any":
        return list(range(n)), True
    out, whole = [], True
    for i in range(n):
        r = any_of([test_on_coord(t, axis, i) for t in cell["tests"]])
        if r is None:
            whole = False
            continue
        if r != bool(cell["negated"]):
            out.append(i)
    return out, whole


# ---------------------------------------------------------------- tables


def count_in(sorted_idx, a, b):
    return bisect.bisect_right(sorted_idx, b) - bisect.bisect_left(sorted_idx, a)


def check_table(run, cert, table, file_text, lines_out):
    name = table["table"]
    policy = table["policy"]
    axes = table["axes"]
    rows = table["rows"]
    where = f"table {name}"
    if not table.get("complete", False):
        run.fail(f"{where}: the analysis did not finish")
        return
    by_num = {}
    acc = {}
    for r in rows:
        by_num[r["row"]] = r
        if len(r["accepts"]) != len(axes):
            run.fail(f"{where} row {r['row']}: accepts {len(r['accepts'])} axes of {len(axes)}")
            return
        acc[r["row"]] = [sorted(set(a)) for a in r["accepts"]]
    if sorted(by_num) != list(range(1, len(rows) + 1)):
        run.fail(f"{where}: the rows are not numbered 1..{len(rows)}")
    for k, axis in enumerate(axes):
        n = len(axis["coords"])
        if len(axis["bounds"]) != n or len(axis["open"]) != n:
            run.fail(f"{where}: axis {k} has {n} coordinates but not as many bounds")
            return
        # Numeric coordinates ascend and do not overlap.
        prev = None
        for i in range(n):
            b = axis["bounds"][i]
            if b is None:
                continue
            lo = None if b[0] is None else frac(b[0])
            hi = None if b[1] is None else frac(b[1])
            if lo is not None and hi is not None and (lo > hi or (lo == hi and any(axis["open"][i]))):
                run.fail(f"{where}: axis {k} coordinate {i} is empty")
            if prev is not None:
                step = axis.get("step")
                if lo is None or prev[0] is None:
                    adjacent = False
                elif step is not None and not prev[1] and not axis["open"][i][0]:
                    adjacent = lo == prev[0] + frac(step)
                else:
                    adjacent = lo == prev[0] and prev[1] != bool(axis["open"][i][0])
                if not adjacent:
                    run.fail(f"{where}: axis {k} coordinates {i - 1} and {i} overlap, leave a hole or are out of order")
            else:
                first_lo = lo
            prev = (hi, axis["open"][i][1])
        r = cert["ranges"].get(axis["column"])
        if prev is not None and r is not None and not axis.get("optional"):
            if (first_lo is not None and first_lo > frac(r[0])) or (prev[0] is not None and prev[0] < frac(r[1])):
                run.fail(f"{where}: axis {k} does not reach the ends of {axis['column']}'s declared range")
        names = {c["enum"] for c in axis["coords"] if "enum" in c}
        e = cert.get("enums", {}).get(axis.get("type"))
        if e is not None and not axis.get("produced"):
            if e.get("ordered"):
                run.state("coordinates of ordered enum axes (limited to the declared range)")
            elif names != set(e["values"]):
                run.fail(f"{where}: axis {k} does not have every value of {axis['type']} as a coordinate")
        if axis.get("type") == "bool" and not axis.get("produced"):
            if {c.get("bool") for c in axis["coords"] if "bool" in c} != {True, False}:
                run.fail(f"{where}: axis {k} does not have both booleans as coordinates")
        if prev is not None and axis.get("step") is not None:
            run.state("grid steps of numeric axes")
        for r in rows:
            if any(not (0 <= x < n) for x in r["accepts"][k]):
                run.fail(f"{where} row {r['row']}: accepts a coordinate axis {k} does not have")
                return
    # Cells: the stated tests read back from the text; the boxes recomputed from the tests.
    boxes_read = 0
    cells_read = 0
    for r in rows:
        ok = True
        src = r["source"]
        ncond = len(axes)
        for k, axis in enumerate(axes):
            w = f"{where} row {r['row']} column {axis['column']}"
            text = r["cells"][k]
            if src[k]["text"] != text:
                run.fail(f"{w}: the span's text is not the cell's")
                ok = False
            if not read_back_cell(run, w, text, r["tests"][k], axis, cert):
                ok = False
            got, whole = accepts_of(r["tests"][k], axis)
            if not whole:
                run.fail(f"{w}: a value the cell compares with falls inside a coordinate")
                ok = False
            elif got != acc[r["row"]][k]:
                run.fail(f"{w}: the cell accepts coordinates {got}, the certificate says {acc[r['row']][k]}")
                ok = False
        if file_text is not None:
            for s in src:
                line = file_text[s["line"] - 1] if 0 < s["line"] <= len(file_text) else ""
                if line[s["col"] - 1 : s["col"] - 1 + s["len"]] != s["text"]:
                    run.fail(f"{where} row {r['row']}: the file does not say `{s['text']}` at line {s['line']}, col {s['col']}")
                    ok = False
                else:
                    cells_read += 1
            if len(src) != ncond + table["outputs"]:
                run.fail(f"{where} row {r['row']}: {len(src)} cells for {ncond + table['outputs']} columns")
        if ok:
            boxes_read += 1
    # The cover tree: tile the domain, check every leaf.
    if any(len(a["coords"]) == 0 for a in axes):
        if table["cover"] is not None:
            run.fail(f"{where}: a cover of an empty domain")
        lines_out.append(f"  {name}: {policy}, {len(rows)} rows — a column takes no value, nothing is asked")
        return
    root = [(0, len(a["coords"]) - 1) for a in axes]
    leaves = []

    def walk(node, box, depth):
        if depth > 10000:
            raise Unreadable("the cover tree is too deep")
        if "leaf" in node:
            if [tuple(b) for b in node["box"]] != box:
                run.fail(f"{where}: leaf {node['leaf']} states box {node['box']}, the tree gives {box}")
            leaves.append((node, box))
            return
        k, at = node["axis"], node["at"]
        if not (0 <= k < len(box)) or not (box[k][0] < at <= box[k][1]):
            run.fail(f"{where}: a split at {at} on axis {k} outside its node {box}")
            return
        lo, hi = list(box), list(box)
        lo[k] = (box[k][0], at - 1)
        hi[k] = (at, box[k][1])
        walk(node["lo"], lo, depth + 1)
        walk(node["hi"], hi, depth + 1)

    if table["cover"] is None:
        run.fail(f"{where}: no cover tree")
        return
    walk(table["cover"], root, 0)
    undecided = {(p["a"], p["b"]) for p in table["undecided"]}
    meeting = {(p["a"], p["b"]) for p in table["meeting"]}
    together = set()
    leaf_rows = {}
    covered = 0
    for node, box in leaves:
        lid = node["leaf"]
        listed = node["rows"]
        leaf_rows[lid] = (listed, box, node)
        for rn in listed:
            if rn not in by_num:
                run.fail(f"{where}: leaf {lid} lists row {rn}, which the certificate does not hold")
        for rn, a in acc.items():
            counts = [count_in(a[k], box[k][0], box[k][1]) for k in range(len(axes))]
            contains = all(c == box[k][1] - box[k][0] + 1 for k, c in enumerate(counts))
            misses = any(c == 0 for c in counts)
            if contains and rn not in listed:
                run.fail(f"{where}: row {rn} takes leaf {lid} but the leaf does not list it")
            elif not contains and not misses:
                run.fail(f"{where}: row {rn} takes part of leaf {lid}")
            elif misses and rn in listed:
                run.fail(f"{where}: leaf {lid} lists row {rn}, which misses it")
        for i, a in enumerate(listed):
            for b in listed[i + 1 :]:
                together.add((min(a, b), max(a, b)))
        asked = node["asked"]
        lw = f"{where} leaf {lid}"
        refuted = isinstance(asked, dict) and "no" in asked
        if refuted and not check_refutation(run, lw, asked["no"], table, cert, box):
            continue
        if not listed:
            if not refuted:
                run.fail(f"{lw}: no row takes it and it is not refuted (a gap)")
                continue
        elif len(listed) >= 2 and not refuted and policy != "first":
            pairs = [(a, b) for i, a in enumerate(listed) for b in listed[i + 1 :]]
            for a, b in pairs:
                if (a, b) in undecided:
                    continue
                if policy == "any" and (
                    by_num.get(a, {}).get("produces") == by_num.get(b, {}).get("produces") or (a, b) in meeting
                ):
                    if (a, b) in meeting:
                        run.state("rows of an any table that meet and are stated to agree")
                    continue
                run.fail(f"{lw}: rows {a} and {b} both take it and it is not refuted")
        covered += 1
    if undecided:
        run.state("pairs the axes do not part (W114, guarded at run time)", len(undecided))
    # Refuted pairs: every leaf they share is refuted.
    for p in table["refuted"]:
        pw = f"{where} rows {p['a']},{p['b']}"
        shared = {lid for lid, (listed, _, _) in leaf_rows.items() if p["a"] in listed and p["b"] in listed}
        parts = {}
        for part in p["parts"]:
            lid = part["leaf"]
            if lid not in leaf_rows:
                run.fail(f"{pw}: no leaf {lid}")
                continue
            parts[lid] = part
            check_refutation(run, f"{pw} leaf {lid}", part["refutation"], table, cert, leaf_rows[lid][1])
        if set(parts) != shared:
            run.fail(f"{pw}: the refutation leaves out leaves {sorted(shared - set(parts))}")
    # Listed disjoint pairs: the axis parts them.
    n = len(rows)
    if table["disjoint"] is not None:
        for d in table["disjoint"]:
            a, b, k = d["a"], d["b"], d["axis"]
            if a not in acc or b not in acc or set(acc[a][k]) & set(acc[b][k]):
                run.fail(f"{where}: rows {a} and {b} are not parted by axis {k}")
    disjoint = n * (n - 1) // 2 - len(together)
    # Reach points.
    reached = 0
    for re_ in table["reach"]:
        rn = re_["row"]
        rw = f"{where} row {rn}"
        if re_.get("leaf") is None:
            run.fail(f"{rw}: reached by nothing")
            continue
        if re_["leaf"] not in leaf_rows or rn not in acc:
            run.fail(f"{rw}: reach point in no leaf the certificate holds")
            continue
        listed, box, node = leaf_rows[re_["leaf"]]
        at = re_["at"]
        if rn not in listed or (isinstance(node["asked"], dict) and "no" in node["asked"]):
            run.fail(f"{rw}: its reach point is in a leaf it does not answer in")
            continue
        if policy == "first" and listed and listed[0] != rn:
            run.fail(f"{rw}: under first, row {listed[0]} answers at its reach point")
            continue
        if len(at) != len(axes) or any(not (box[k][0] <= at[k] <= box[k][1]) or at[k] not in acc[rn][k] for k in range(len(axes))):
            run.fail(f"{rw}: the reach point {at} is not in the row's box")
            continue
        if re_.get("at_values") is None:
            run.state("points handed over with no values behind them")
        else:
            bad = False
            for k, v in enumerate(re_["at_values"]):
                if v is None:
                    continue
                c = axes[k]["coords"][at[k]]
                if c.get("interval"):
                    b, o = axes[k]["bounds"][at[k]], axes[k]["open"][at[k]]
                    x = frac(v["num"])
                    if (b[0] is not None and (x < frac(b[0]) or (o[0] and x == frac(b[0])))) or (
                        b[1] is not None and (x > frac(b[1]) or (o[1] and x == frac(b[1])))
                    ):
                        bad = True
                elif c.get("other"):
                    named = [x["str"] for x in axes[k]["coords"] if "str" in x]
                    if "str" not in v or v["str"] in named:
                        bad = True
                elif not same_value(c, v) and c != v:
                    bad = True
            if bad:
                run.fail(f"{rw}: the values of its reach point are not in coordinates {at}")
                continue
        reached += 1
    if reached != n:
        run.fail(f"{where}: {reached} of {n} rows reached")
    lines_out.append(
        f"  {name}: {policy}, {n} rows — {disjoint} pairs disjoint, {reached} rows reached, "
        f"{covered} boxes covered, {boxes_read} boxes read back from their cells"
    )
    return cells_read


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", help="the .rule file the certificate speaks of")
    ap.add_argument("certificate")
    args = ap.parse_args(argv)
    try:
        with open(args.certificate, encoding="utf-8") as f:
            cert = json.load(f)
        if not isinstance(cert, dict) or cert.get("v") != 1:
            raise Unreadable("not a certificate of version 1")
        for key, ty in (("rule", str), ("source_sha256", str), ("tables", list), ("values", list), ("ranges", dict)):
            if not isinstance(cert.get(key), ty):
                raise Unreadable(f"no {key}")
    except (OSError, ValueError, Unreadable) as e:
        print(f"cannot read the certificate: {e}", file=sys.stderr)
        return 2
    run = Run()
    out = []
    file_lines = None
    digest_line = None
    if args.rule:
        try:
            raw = open(args.rule, "rb").read()
        except OSError as e:
            print(f"cannot read {args.rule}: {e}", file=sys.stderr)
            return 2
        if hashlib.sha256(raw).hexdigest() != cert["source_sha256"]:
            run.fail(f"the digest is not {args.rule}'s")
        else:
            digest_line = f"  the digest is {args.rule}'s"
        text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
        if text.startswith("\ufeff"):
            text = text[1:]
        file_lines = text.split("\n")
    else:
        run.state("the digest and the cells' text (no --rule given)")
    header = (
        f"{cert['rule']} ({cert.get('alias', cert['rule'])} v{cert.get('version', '?')}, "
        f"sha256:{cert['source_sha256'][:12]}) — certificate by rulec {cert.get('rulec', '?')}"
    )
    cells = 0
    try:
        fit = 0
        for v in cert["values"]:
            lo, hi = frac(v["stored_min"]), frac(v["stored_max"])
            scale = frac(v["scale"])
            ilo, ihi = frac(v["interval"][0]), frac(v["interval"][1])
            if scale <= 0 or ilo / scale != lo or ihi / scale != hi:
                run.fail(f"value {v['name']}: stored bounds are not its interval over its scale")
            elif lo.denominator != 1 or hi.denominator != 1 or lo < I64_MIN or hi > I64_MAX:
                run.fail(f"value {v['name']}: stored bounds {lo}..{hi} do not fit int64")
            else:
                fit += 1
        out.append(f"  units: {len(cert['values'])} values keep the type the rule declares (as stated)")
        out.append(f"  int64: {fit} values fit")
        for t in cert["tables"]:
            try:
                cells += check_table(run, cert, t, file_lines, out) or 0
            except (KeyError, IndexError, TypeError, AttributeError) as e:
                run.fail(f"table {t.get('table', '?') if isinstance(t, dict) else '?'}: "
                         f"a claim refers to something the certificate does not hold ({type(e).__name__}: {e})")
    except (KeyError, TypeError, AttributeError, Unreadable) as e:
        print(f"cannot read the certificate: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    print(header)
    for line in out:
        print(line)
    if digest_line:
        print(digest_line)
        print(f"  the file says the same: {cells} cells read back from it")
    if run.stated:
        print("  taken as stated, not proved:")
        for what, n in sorted(run.stated.items()):
            print(f"    {what}: {n}")
    print("  taken as stated always: declared ranges and types, enums, groups, constraints and defines as read")
    if run.failures:
        for f in run.failures:
            print(f"FAILED: {f}")
        return 1
    if run.stated:
        print("every claim this program states was proved, except those listed as taken as stated")
    else:
        print("  every claim this program states was proved")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
