#!/usr/bin/env python3
"""Re-check a rulec certificate without rulec.

    python3 proofs/recheck.py [--rule FILE.rule] cert.json

Standard library only; shares no code with rulec. Prints what it proved and what it only
took as stated. Beside each table's cover, it re-derives the value bounds row by row
(`bounds`: each case by interval arithmetic over the rows' results and the boxes they answer
in) and the evidence of the case search: splits (every row of the deciding table, or every
grid value between two bounds, a case), defines read with a case's values, monotone
translations and interval bounds. Exit 0 when every table holds, 1 when a claim does not, 2 for a
certificate it cannot read.
"""

import argparse
import bisect
import datetime
import hashlib
import json
import math
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


# ---------------------------------------------------------------- expressions
#
# The certificate writes every define and every result cell exactly ("defines", a row's
# "results"): numbers in base units, each numeric node with the scale its integer is held
# at ("s") and the grid its values lie on ("g"). These functions read them the way the
# language defines them (language.md §5), independently of rulec.

FREE = object()  # a value that depends on a variable the case does not fix


def floor_frac(x):
    return x.numerator // x.denominator


def ceil_frac(x):
    return -((-x.numerator) // x.denominator)


def round_int(x, mode):
    fl = floor_frac(x)
    if x.denominator == 1:
        return fl
    ce = fl + 1
    away, toward = (fl, ce) if x < 0 else (ce, fl)
    if mode == "up":
        return away
    if mode == "down":
        return toward
    if mode == "ceiling":
        return ce
    if mode == "floor":
        return fl
    part = x - fl
    if part < Fraction(1, 2):
        return fl
    if part > Fraction(1, 2):
        return ce
    if mode == "half_up":
        return away
    if mode == "half_down":
        return toward
    if mode == "half_even":
        return fl if fl % 2 == 0 else ce
    raise Unreadable(f"no rounding mode {mode}")


def round_grid(x, mode, grid):
    return round_int(x / grid, mode) * grid


def isqrt_of(x):
    n = floor_frac(x)
    return Fraction(0) if n <= 0 else Fraction(math.isqrt(n))


def mod_euclid(a, b):
    m = abs(b)
    return a - floor_frac(a / m) * m


def children(e):
    """The children of an expression node, in the order rulec's paths count them."""
    for k in ("neg", "not", "isqrt", "round"):
        if k in e:
            return [e[k]]
    if "op" in e or "cmp" in e:
        return [e["l"], e["r"]]
    for k in ("and", "or", "min", "max", "mod"):
        if k in e:
            return list(e[k])
    if "if" in e:
        return [e["if"], e["then"], e["else"]]
    return []


def constant(e):
    if "num" in e:
        return frac(e["num"])
    if "bool" in e:
        return bool(e["bool"])
    if "pos" in e:
        return ("pos", e["pos"])
    if "str" in e:
        return ("str", e["str"])
    if e.get("none"):
        return None
    return FREE


def fold(e, fixed):
    """The exact value of an expression whose variables are all fixed (else FREE)."""
    if "var" in e:
        return fixed.get(e["var"], FREE)
    c = constant(e)
    if c is not FREE:
        return c
    ks = [fold(k, fixed) for k in children(e)]
    if any(k is FREE for k in ks):
        return FREE
    if "neg" in e:
        return -ks[0]
    if "op" in e:
        a, b = ks
        op = e["op"]
        if op == "/" and b == 0:
            return FREE
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[op]()
    if "cmp" in e:
        a, b = ks
        a, b = (a[1], b[1]) if isinstance(a, tuple) else (a, b)
        return cmp_holds(e["cmp"], a, b)
    if "not" in e:
        return not ks[0]
    if "and" in e:
        return ks[0] and ks[1]
    if "or" in e:
        return ks[0] or ks[1]
    if "min" in e:
        return min(ks)
    if "max" in e:
        return max(ks)
    if "mod" in e:
        return FREE if ks[1] == 0 else mod_euclid(ks[0], ks[1])
    if "isqrt" in e:
        return FREE if ks[0] < 0 else isqrt_of(ks[0])
    if "round" in e:
        return round_grid(ks[0], e["mode"], frac(e["grid"]))
    if "if" in e:
        return ks[1] if ks[0] else ks[2]
    return FREE


def lin_add(a, b, k=Fraction(1)):
    coeffs = dict(a[0])
    for v, x in b[0].items():
        coeffs[v] = coeffs.get(v, Fraction(0)) + k * x
    return ({v: x for v, x in coeffs.items() if x != 0}, a[1] + k * b[1])


def lin_scale(a, k):
    return ({v: x * k for v, x in a[0].items() if x * k != 0}, a[1] * k)


def linearize(e, fixed):
    """(coefficients, constant) of an expression that is linear once `fixed` is read; None."""
    c = fold(e, fixed)
    if c is not FREE:
        return ({}, c) if isinstance(c, Fraction) else None
    if "var" in e:
        return ({e["var"]: Fraction(1)}, Fraction(0))
    if "neg" in e:
        a = linearize(e["neg"], fixed)
        return None if a is None else lin_scale(a, Fraction(-1))
    if "op" in e:
        a, b = linearize(e["l"], fixed), linearize(e["r"], fixed)
        if a is None or b is None:
            return None
        op = e["op"]
        if op == "+":
            return lin_add(a, b)
        if op == "-":
            return lin_add(a, b, Fraction(-1))
        if op == "*" and not a[0]:
            return lin_scale(b, a[1])
        if op == "*" and not b[0]:
            return lin_scale(a, b[1])
        if op == "/" and not b[0] and b[1] != 0:
            return lin_scale(a, 1 / b[1])
    return None


def monotone(e, fixed):
    """(path, linear form, increasing) of an expression that is a monotone function of one
    linear form: every node on the path reads it through one child, the others constant."""
    lin = linearize(e, fixed)
    if lin is not None:
        return ([], lin, True) if lin[0] else None

    def down(i, x, flip):
        m = monotone(x, fixed)
        return None if m is None else ([i] + m[0], m[1], m[2] != flip)

    num = lambda x: (lambda v: v if isinstance(v, Fraction) else None)(fold(x, fixed))
    if "neg" in e:
        return down(0, e["neg"], True)
    if "op" in e:
        a, b, op = num(e["l"]), num(e["r"]), e["op"]
        if op == "+" and a is not None and b is None:
            return down(1, e["r"], False)
        if op in "+-" and a is None and b is not None:
            return down(0, e["l"], False)
        if op == "-" and a is not None and b is None:
            return down(1, e["r"], True)
        if op == "*" and a is not None and b is None and a != 0:
            return down(1, e["r"], a < 0)
        if op in "*/" and a is None and b is not None and b != 0:
            return down(0, e["l"], b < 0)
        return None
    for k in ("min", "max"):
        if k in e:
            free = [i for i, x in enumerate(e[k]) if fold(x, fixed) is FREE]
            return down(free[0], e[k][free[0]], False) if len(free) == 1 else None
    if "round" in e:
        return down(0, e["round"], False)
    if "isqrt" in e:
        return down(0, e["isqrt"], False)
    if "if" in e:
        c = fold(e["if"], fixed)
        if c is True:
            return down(1, e["then"], False)
        if c is False:
            return down(2, e["else"], False)
    return None


def eval_at(e, path, inner, fixed):
    """The value of `e` with the node at `path` replaced by `inner`; None when undefined."""
    if not path:
        return inner
    kids = children(e)
    vals = []
    for j, k in enumerate(kids):
        v = eval_at(k, path[1:], inner, fixed) if j == path[0] else fold(k, fixed)
        if v is None or v is FREE:
            return None
        vals.append(v)
    if "neg" in e:
        return -vals[0]
    if "op" in e:
        a, b = vals
        if e["op"] == "/" and b == 0:
            return None
        return {"+": a + b, "-": a - b, "*": a * b}[e["op"]] if e["op"] != "/" else a / b
    if "min" in e:
        return min(vals)
    if "max" in e:
        return max(vals)
    if "round" in e:
        return round_grid(vals[0], e["mode"], frac(e["grid"]))
    if "isqrt" in e:
        return None if vals[0] < 0 else isqrt_of(vals[0])
    if "if" in e:
        return vals[path[0]]
    return None


def rat_gcd(a, b):
    n = math.gcd(a.numerator * b.denominator, b.numerator * a.denominator)
    return Fraction(n, a.denominator * b.denominator)


def lattice(lin, vars_):
    """(step, offset): every value of the linear form is offset + k·step."""
    step = None
    for v, a in lin[0].items():
        var = vars_.get(v)
        if var is None or var["optional"] or var["step"] is None:
            return None
        g = frac(var["step"]) * abs(a)
        step = g if step is None else rat_gcd(step, g)
    if step is None:
        return None
    return step, lin[1] - floor_frac(lin[1] / step) * step


def corners(x, y, f):
    cs = [f(a, b) for a in x for b in y]
    return (min(cs), max(cs))


def tighten(iv, step):
    if step <= 0:
        return iv
    lo, hi = ceil_frac(iv[0] / step) * step, floor_frac(iv[1] / step) * step
    return (lo, hi) if lo <= hi else iv


def interval(e, bound, annotated):
    """The interval of an expression with each variable inside `bound(name)` (None when
    unbounded). `annotated` follows the value analysis (every node tightened to its scale
    and grid, a quotient kept off the divisor's grid around 0); otherwise plain interval
    arithmetic, as a table's case search bounds a define. None when nothing can be said."""
    ks = children(e)
    kid = lambda i: interval(ks[i], bound, annotated)
    c = constant(e)
    if isinstance(c, Fraction):
        iv = (c, c)
    elif "var" in e:
        iv = bound(e["var"])
    elif "neg" in e:
        a = kid(0)
        iv = None if a is None else (-a[1], -a[0])
    elif "op" in e:
        a, b = kid(0), kid(1)
        if a is None or b is None:
            return None
        op = e["op"]
        if op == "+":
            iv = (a[0] + b[0], a[1] + b[1])
        elif op == "-":
            iv = (a[0] - b[1], a[1] - b[0])
        elif op == "*":
            iv = corners(a, b, lambda x, y: x * y)
        elif isinstance(constant(e["r"]), Fraction) and constant(e["r"]) != 0:
            iv = corners(a, b, lambda x, y: x / y)
        elif not annotated:
            iv = corners(a, b, lambda x, y: x / y) if (b[0] > 0 or b[1] < 0) else None
        else:
            sb = frac(e["r"].get("s", "1"))
            g = e["r"].get("g")
            eps = max(frac(g), sb) if g not in (None, "0") else sb
            iv = None
            for lo, hi in ((max(b[0], eps), b[1]), (b[0], min(b[1], -eps))):
                if lo <= hi and (hi >= eps if lo > 0 else lo <= -eps):
                    piece = corners(a, (lo, hi), lambda x, y: x / y)
                    iv = piece if iv is None else (min(iv[0], piece[0]), max(iv[1], piece[1]))
    elif "min" in e or "max" in e:
        xs = [kid(i) for i in range(len(ks))]
        if any(x is None for x in xs):
            return None
        f = min if "min" in e else max
        iv = (f(x[0] for x in xs), f(x[1] for x in xs))
    elif "mod" in e:
        a, b = kid(0), kid(1)
        if a is None or b is None:
            return None
        top = max(abs(b[0]), abs(b[1]))
        least = b[0] if b[0] > 0 else (-b[1] if b[1] < 0 else Fraction(0))
        if annotated:
            common = frac(e.get("s", "1"))
            iv = a if a[0] >= 0 and a[1] < least else (Fraction(0), max(top - common, Fraction(0)))
        else:
            if not (b[0] > 0 or b[1] < 0):
                return None
            iv = None
            if b[0] == b[1]:
                k = abs(b[0])
                qa, qb = floor_frac(a[0] / k), floor_frac(a[1] / k)
                if qa == qb:
                    iv = (a[0] - qa * k, a[1] - qa * k)
            if iv is None:
                iv = a if a[0] >= 0 and a[1] < min(abs(b[0]), abs(b[1])) else (Fraction(0), top)
    elif "isqrt" in e:
        a = kid(0)
        if a is None or (not annotated and a[1] < 0):
            return None
        iv = (isqrt_of(max(a[0], Fraction(0))), isqrt_of(max(a[1], Fraction(0))))
    elif "round" in e:
        a = kid(0)
        g = frac(e["grid"])
        iv = None if a is None else (round_grid(a[0], e["mode"], g), round_grid(a[1], e["mode"], g))
    elif "if" in e:
        a, b = kid(1), kid(2)
        iv = None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    else:
        return None
    if iv is None or not annotated:
        return iv
    if "s" in e:
        iv = tighten(iv, frac(e["s"]))
    g = e.get("g")
    if g == "0":
        if iv[0] <= 0 <= iv[1]:
            iv = (Fraction(0), Fraction(0))
    elif g is not None:
        iv = tighten(iv, frac(g))
    return iv


def is_number(e, vars_):
    if "var" in e:
        return bool(vars_.get(e["var"], {}).get("numeric"))
    if "num" in e or any(k in e for k in ("op", "neg", "mod", "isqrt", "round")):
        return True
    for k in ("min", "max"):
        if k in e:
            return is_number(e[k][0], vars_)
    if "if" in e:
        return is_number(e["then"], vars_)
    return False


def bool_facts(e, value, fixed, vars_, defs, depth=0):
    """The linear facts a boolean expression asserts when it is `value`, once `fixed` is
    read; a comparison of one variable on a grid is tightened to the grid."""
    if depth > 16:
        return []
    if "bool" in e:
        return [] if bool(e["bool"]) == value else [({}, Fraction(1), False)]
    if "cmp" in e and is_number(e["l"], vars_):
        op = e["cmp"] if value else {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!=", "!=": "="}[e["cmp"]]
        a, b = linearize(e["l"], fixed), linearize(e["r"], fixed)
        if a is None or b is None:
            return []
        ab, ba = lin_add(a, b, Fraction(-1)), lin_add(b, a, Fraction(-1))
        facts = {"<=": [(ab, False)], "<": [(ab, True)], ">=": [(ba, False)], ">": [(ba, True)],
                 "=": [(ab, False), (ba, False)], "!=": []}[op]
        return [grid_tight(f[0], f[1], vars_) for f, in zip(facts)]
    if "not" in e:
        return bool_facts(e["not"], not value, fixed, vars_, defs, depth + 1)
    if "and" in e and value:
        return sum((bool_facts(x, True, fixed, vars_, defs, depth + 1) for x in e["and"]), [])
    if "or" in e and not value:
        return sum((bool_facts(x, False, fixed, vars_, defs, depth + 1) for x in e["or"]), [])
    if "var" in e and e["var"] in defs and vars_.get(e["var"], {}).get("type") == "bool":
        return bool_facts(defs[e["var"]], value, fixed, vars_, defs, depth + 1)
    return []


def grid_tight(lin, strict, vars_):
    """c·x + k ≤ 0 (or < 0) with x on a grid of step s: the tightest non-strict form."""
    coeffs, konst = lin
    if len(coeffs) != 1:
        return (coeffs, konst, strict)
    (v, c), = coeffs.items()
    var = vars_.get(v)
    if var is None or var["step"] is None or var["optional"]:
        return (coeffs, konst, strict)
    s = frac(var["step"])
    q = (-konst / c) / s
    if c > 0:
        k = ceil_frac(q) - 1 if strict else floor_frac(q)
        return ({v: Fraction(1)}, -k * s, False)
    k = floor_frac(q) + 1 if strict else ceil_frac(q)
    return ({v: Fraction(-1)}, k * s, False)


def stored(var, iv):
    """The interval a variable holds once stored: its rounding, or its unit."""
    if iv is None:
        return None
    r = var.get("rounding")
    if r:
        g = frac(r["grid"])
        return (round_grid(iv[0], r["mode"], g), round_grid(iv[1], r["mode"], g))
    if var.get("stored_step") is not None:
        return tighten(iv, frac(var["stored_step"]))
    return iv


# ---------------------------------------------------------------- linear facts


class Ctx:
    """What holds inside a case of a split: the values it fixes, the rows it takes."""

    def __init__(self, fixed=None, rows=()):
        self.fixed = dict(fixed or {})
        self.rows = list(rows)

    def with_(self, var=None, at=None, row=None):
        c = Ctx(self.fixed, self.rows)
        if var is not None and at is not None:
            c.fixed[var] = at
        if row is not None:
            c.rows.append(row)
        return c


def fact_lin(item):
    coeffs = {k: frac(v) for k, v in item["coeffs"].items()}
    return coeffs, frac(item["const"]), bool(item["strict"])


def single(item):
    """(var, upper, bound, strict) of a fact on one variable, else None."""
    coeffs, c, s = fact_lin(item)
    if len(coeffs) != 1:
        return None
    (v, a), = coeffs.items()
    return v, a > 0, -c / a, s


def same_lin(got, want):
    return got[0] == {k: v for k, v in want[0].items() if v != 0} and got[1] == want[1]


def check_fact(run, where, it, table, cert, box, ctx):
    """One fact of a refutation is what it says it is. False (and a failure) when not."""
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
            return False
        x = axis["column"]
        want = ({x: Fraction(1)}, -at) if hi else ({x: Fraction(-1)}, at)
        if (coeffs, c, s) != (want[0], want[1], op):
            run.fail(f"{where}: the coordinate bound {co} is not written as its linear form")
            return False
        return True
    if isinstance(it.get("fact"), dict) and "range" in it["fact"]:
        var, hi = it["fact"]["range"], bool(it["fact"]["hi"])
        r = cert["ranges"].get(var)
        if r is None:
            run.fail(f"{where}: a range of {var}, which declares none")
            return False
        want = ({var: Fraction(1)}, -frac(r[1])) if hi else ({var: Fraction(-1)}, frac(r[0]))
        if (coeffs, c, s) != (want[0], want[1], False):
            run.fail(f"{where}: the range fact of {var} is not the declared range")
            return False
        return True
    if "cell" in it and ctx is not None:
        return check_cell_fact(run, where, it, cert, ctx)
    if "derived" in it:
        return check_derived(run, where, it, table, cert, box, ctx or Ctx())
    run.state("facts of constraints and defines (their linear form as the certificate reads it)")
    return True


def check_cell_fact(run, where, it, cert, ctx):
    """A cell of a row the case takes: the row's own test, as one bound on its column."""
    ce = it["cell"]
    if (ce["table"], ce["row"]) not in ctx.rows:
        run.fail(f"{where}: a cell of {ce['table']} row {ce['row']}, which the case does not take")
        return False
    t = cert_index(cert)["tables"].get(ce["table"])
    row = t["rows"][ce["row"] - 1]
    test = row["tests"][ce["column"]]
    hi, at, op = bool(ce["hi"]), frac(ce["at"]), bool(ce["open"])
    ok = False
    if test["cell"] == "tests" and not test["negated"] and len(test["tests"]) == 1:
        t0 = test["tests"][0]
        if t0["test"] == "cmp":
            want = ({"<": True, "<=": False, "=": False}, {">": True, ">=": False, "=": False})[0 if hi else 1]
            ok = any(b["op"] in want and want[b["op"]] == op and "num" in b["value"] and frac(b["value"]["num"]) == at
                     for b in t0["bounds"])
        elif t0["test"] == "in" and len(t0["values"]) == 1 and "num" in t0["values"][0]:
            ok = frac(t0["values"][0]["num"]) == at and not op
    x = t["axes"][ce["column"]]["column"]
    coeffs, c, s = fact_lin(it)
    want = ({x: Fraction(1)}, -at) if hi else ({x: Fraction(-1)}, at)
    if not ok or (coeffs, c, s) != (want[0], want[1], op):
        run.fail(f"{where}: {ce['table']} row {ce['row']} has no such cell on {x}")
        return False
    return True


def check_derived(run, where, it, table, cert, box, ctx):
    """A fact found on the way: re-derive it from the rule and the facts it names."""
    ix = cert_index(cert)
    d = it["derived"]
    got = fact_lin(it)
    vars_, defs = ix["vars"], ix["defines"]
    if "proven" in d:
        v = d["proven"]
        iv = ix["intervals"].get(v)
        if iv is None:
            run.fail(f"{where}: {v} has no proven interval")
            return False
        if got not in (({v: Fraction(-1)}, iv[0], False), ({v: Fraction(1)}, -iv[1], False)):
            run.fail(f"{where}: the fact on {v} is not its proven interval {iv}")
            return False
        return True
    if "fixed" in d:
        v, at = d["fixed"], frac(d["at"])
        if ctx.fixed.get(v) != at or got not in (({v: Fraction(1)}, -at, False), ({v: Fraction(-1)}, at, False)):
            run.fail(f"{where}: {v} = {at} is not what the case fixes")
            return False
        return True
    if "define_at" in d:
        v = d["define_at"]
        lin = linearize(defs[v], ctx.fixed) if v in defs else None
        if lin is None:
            run.fail(f"{where}: {v}'s define is not linear in the case")
            return False
        x = ({v: Fraction(1)}, Fraction(0))
        if got[2] or not (same_lin(got, lin_add(x, lin, Fraction(-1))) or same_lin(got, lin_add(lin, x, Fraction(-1)))):
            run.fail(f"{where}: {v} against its define is not {got}")
            return False
        return True
    if "bool_at" in d:
        k, value, index = d["bool_at"]["axis"], bool(d["bool_at"]["value"]), d["bool_at"]["index"]
        axis = table["axes"][k]
        v = axis["column"]
        if box[k][0] != box[k][1] or axis["coords"][box[k][0]].get("bool") != value or v not in defs:
            run.fail(f"{where}: the box does not hold {v} = {value}")
            return False
        facts = bool_facts(defs[v], value, ctx.fixed, vars_, defs)
        if index >= len(facts) or not (same_lin(got, facts[index][:2]) and got[2] == facts[index][2]):
            run.fail(f"{where}: {v} = {value} does not assert {got} in the case")
            return False
        return True
    if "monotone" in d:
        v = d["monotone"]
        frm = d["from"]
        b = single(frm)
        if b is None or b[0] != v or not check_fact(run, where, frm, table, cert, box, ctx):
            run.fail(f"{where}: the bound a monotone translation starts from is not one on {v}")
            return False
        _, upper_b, bound, strict = b
        m = monotone(defs.get(v, {}), ctx.fixed) if v in defs else None
        lat = None if m is None else lattice(m[1], vars_)
        if m is None or lat is None or lat[0] != frac(d["step"]):
            run.fail(f"{where}: {v}'s define is not monotone in one linear form on a grid of {d['step']}")
            return False
        path, inner, increasing = m
        step, offset = lat
        if got[0] == inner[0]:
            upper, at = True, inner[1] - got[1]
        elif got[0] == lin_scale(inner, Fraction(-1))[0]:
            upper, at = False, got[1] + inner[1]
        else:
            run.fail(f"{where}: the translated fact is not a bound on {v}'s linear form")
            return False
        nxt = at + step if upper else at - step
        g = eval_at(defs[v], path, nxt, ctx.fixed)
        breaks = g is not None and ((g >= bound if strict else g > bound) if upper_b else (g <= bound if strict else g < bound))
        if got[2] or upper != (upper_b == increasing) or (at - offset) / step != floor_frac((at - offset) / step) or not breaks:
            run.fail(f"{where}: past {at} the form does not take {v} past its bound {bound}")
            return False
        return True
    if "interval" in d:
        v = d["interval"]
        bounds = {w: (x, x) for w, x in ctx.fixed.items()}
        los, his = {}, {}
        for g in d["given"]:
            b = single(g)
            if b is None or not check_fact(run, where, g, table, cert, box, ctx):
                run.fail(f"{where}: a bound {v}'s interval is given is not a fact on one variable")
                return False
            (his if b[1] else los)[b[0]] = b[2]
        for w in set(los) & set(his):
            bounds.setdefault(w, (los[w], his[w]))
        iv = interval(defs[v], lambda w: bounds.get(w), False) if v in defs else None
        ok = iv is not None and not got[2] and (
            (got[0] == {v: Fraction(-1)} and got[1] <= iv[0]) or (got[0] == {v: Fraction(1)} and -got[1] >= iv[1]))
        if not ok:
            run.fail(f"{where}: {v}'s define does not stay inside {got} with those bounds ({iv})")
            return False
        return True
    run.fail(f"{where}: a derived fact of no known kind")
    return False


def check_farkas(run, where, items, table, cert, box, ctx=None):
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
        if not check_fact(run, where, it, table, cert, box, ctx):
            ok = False
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


def cert_index(cert):
    """Lookups over the certificate, made once."""
    ix = cert.get("_index")
    if ix is None:
        vars_ = {v["name"]: v for v in cert.get("vars", [])}
        defs = {d["name"]: d["expr"] for d in cert.get("defines", [])}
        ix = {"vars": vars_, "defines": defs, "tables": {t["table"]: t for t in cert["tables"]},
              "intervals": {}, "row_intervals": {}}
        cert["_index"] = ix
    return ix


def cell_holds(cell, value):
    if cell["cell"] == "any":
        return True
    hit = False
    for t in cell["tests"]:
        if t["test"] == "none":
            hit = value is None
        elif value is None:
            hit = False
        elif t["test"] == "in":
            hit = any(value_key(x) == value for x in t["values"])
        else:
            hit = all(cmp_holds(b["op"], value, value_key(b["value"])) for b in t["bounds"])
        if hit:
            break
    return hit != bool(cell["negated"])


def value_key(v):
    """A certificate value as something to compare: a number, a boolean, a position, a string."""
    if v.get("none"):
        return None
    for k in ("num",):
        if k in v:
            return frac(v[k])
    if "pos" in v:
        return ("pos", v["pos"])
    if "bool" in v:
        return bool(v["bool"])
    return ("str", v["str"])


def in_coord(axis, i, value):
    c = axis["coords"][i]
    if value is None:
        return bool(c.get("none"))
    if c.get("none"):
        return False
    if c.get("interval"):
        if not isinstance(value, Fraction):
            return False
        b, o = axis["bounds"][i], axis["open"][i]
        lo_ok = b[0] is None or (value > frac(b[0]) if o[0] else value >= frac(b[0]))
        hi_ok = b[1] is None or (value < frac(b[1]) if o[1] else value <= frac(b[1]))
        return lo_ok and hi_ok
    if c.get("other"):
        named = [x["str"] for x in axis["coords"] if "str" in x]
        return isinstance(value, tuple) and value[0] == "str" and value[1] not in named
    return value_key(c) == value


def var_values(var_name, table, ctx, cert):
    """Every value of a variable the cells can tell apart (a finite domain in full)."""
    ix = cert_index(cert)
    var = ix["vars"][var_name]
    if var_name in ctx.fixed:
        return [ctx.fixed[var_name]]
    ty = var["type"]
    out = []
    if ty == "bool":
        out = [False, True]
    elif ty in cert.get("enums", {}):
        out = [("pos", i) for i in range(len(cert["enums"][ty]["values"]))]
    elif var["numeric"]:
        nums = set()
        if var["range"] is not None:
            nums.update(frac(x) for x in var["range"])
        for t in [table] + [ix["tables"][n] for n, _ in ctx.rows]:
            for a in t["axes"]:
                if a["column"] == var_name:
                    for b in a["bounds"]:
                        for x in b or []:
                            if x is not None:
                                nums.add(frac(x))
            for r in t["rows"]:
                for a, test in zip(t["axes"], r["tests"]):
                    if a["column"] != var_name or test["cell"] != "tests":
                        continue
                    for tt in test["tests"]:
                        for x in tt.get("values", []) + [b["value"] for b in tt.get("bounds", [])]:
                            if "num" in x:
                                nums.add(frac(x["num"]))
        step = frac(var["step"]) if var["step"] is not None else None
        more = set()
        for x in nums:
            if step is None:
                more.update((x, x + Fraction(1, 2**20), x - Fraction(1, 2**20)))
            else:
                for k in (floor_frac(x / step), ceil_frac(x / step)):
                    more.update((k * step, (k - 1) * step, (k + 1) * step))
        if var["range"] is not None:
            lo, hi = frac(var["range"][0]), frac(var["range"][1])
            more = {x for x in more if lo <= x <= hi}
        out = sorted(more)
    else:
        return None
    if var["optional"]:
        out.append(None)
    return out


def check_cells(run, where, var_name, table, cert, box, ctx):
    """No value of the variable is accepted by the box and every row the case takes."""
    values = var_values(var_name, table, ctx, cert)
    if values is None:
        run.fail(f"{where}: {var_name} has no finite reading")
        return False
    ix = cert_index(cert)
    chosen = [(ix["tables"][n], r) for n, r in ctx.rows]
    for x in values:
        in_box = all(
            a["column"] != var_name or any(in_coord(a, i, x) for i in range(box[k][0], box[k][1] + 1))
            for k, a in enumerate(table["axes"]))
        in_rows = all(
            a["column"] != var_name or cell_holds(test, x)
            for t, r in chosen for a, test in zip(t["axes"], t["rows"][r - 1]["tests"]))
        if in_box and in_rows:
            run.fail(f"{where}: {var_name} = {x} is taken by the box and every row of the case")
            return False
    return True


def check_refutation(run, where, ref, table, cert, box, ctx=None):
    if not isinstance(ref, dict):
        run.fail(f"{where}: no refutation")
        return False
    ctx = ctx or Ctx()
    if "farkas" in ref:
        return check_farkas(run, where, ref["farkas"], table, cert, box, ctx)
    if "produced" in ref:
        pr = ref["produced"]
        for r in pr["rows"]:
            if "refutation" in r:
                if not check_refutation(run, f"{where} ({pr['by']} row {r['row']})", r["refutation"], table, cert,
                                        box, ctx.with_(row=(pr["by"], r["row"]))):
                    return False
        run.state("boxes left out because another table produces no value there")
        return True
    if "same_column" in ref:
        run.state("boxes left out because two columns on one variable share no value there")
        return True
    if "cells" in ref:
        return check_cells(run, where, ref["cells"]["var"], table, cert, box, ctx)
    if "split" in ref:
        return check_split(run, where, ref["split"], table, cert, box, ctx)
    run.fail(f"{where}: a refutation of no known kind")
    return False


def check_split(run, where, sp, table, cert, box, ctx):
    """Every value the variable can take in the box is a case, and each case is refuted."""
    ix = cert_index(cert)
    v = sp["var"]
    var = ix["vars"].get(v)
    basis = sp["basis"]
    cases = sp["cases"]
    if var is None:
        run.fail(f"{where}: a split on {v}, which the rule does not have")
        return False
    if "rows" in basis:
        t = ix["tables"].get(basis["rows"]["table"])
        if t is None or v not in t.get("results", []) or var.get("decided_by") != {"table": t["table"]}:
            run.fail(f"{where}: {v} is not decided by {basis['rows']['table']}")
            return False
        col = t["results"].index(v)
        want = list(range(1, len(t["rows"]) + 1))
        if basis["rows"]["rows"] != want or len(cases) != len(want):
            run.fail(f"{where}: the split on {v} leaves out rows of {t['table']}")
            return False
        for r, case in zip(want, cases):
            res = t["rows"][r - 1]["results"][col]
            at = frac(case["at"])
            if "num" not in res or stored_value(var, frac(res["num"])) != at:
                run.fail(f"{where}: {t['table']} row {r} does not give {v} = {at}")
                return False
            sub = ctx.with_(v, at, (t["table"], r))
            if not check_refutation(run, f"{where} [{v} = {at}, {t['table']} row {r}]", case["refutation"], table, cert, box, sub):
                return False
        return True
    if "grid" in basis:
        g = basis["grid"]
        step = frac(g["step"])
        lo, hi = single(g["lo"]), single(g["hi"])
        if (lo is None or hi is None or lo[0] != v or hi[0] != v or lo[1] or not hi[1]
                or var["step"] is None or frac(var["step"]) != step
                or not check_fact(run, where, g["lo"], table, cert, box, ctx)
                or not check_fact(run, where, g["hi"], table, cert, box, ctx)):
            run.fail(f"{where}: the split on {v} is not between two bounds on it, on its grid")
            return False
        first = floor_frac(lo[2] / step) + 1 if lo[3] else ceil_frac(lo[2] / step)
        last = ceil_frac(hi[2] / step) - 1 if hi[3] else floor_frac(hi[2] / step)
        want = [k * step for k in range(first, last + 1)]
        if [frac(c["at"]) for c in cases] != want:
            run.fail(f"{where}: the split on {v} does not take every value from {lo[2]} to {hi[2]}")
            return False
        for at, case in zip(want, cases):
            if not check_refutation(run, f"{where} [{v} = {at}]", case["refutation"], table, cert, box, ctx.with_(v, at)):
                return False
        return True
    run.fail(f"{where}: a split of no known kind")
    return False


# ---------------------------------------------------------------- bounds, row by row


def leaves_of(node, out):
    if "leaf" in node:
        out.append(node)
    else:
        leaves_of(node["lo"], out)
        leaves_of(node["hi"], out)
    return out


def regions(table):
    """Per row (1-based), the box around the leaves where it is the first row listed and
    the leaf is not refuted: where it answers. Rows that answer nowhere are absent."""
    out = {}
    if table.get("cover") is None:
        return out
    for leaf in leaves_of(table["cover"], []):
        asked = leaf["asked"]
        if not leaf["rows"] or (isinstance(asked, dict) and "no" in asked):
            continue
        r = leaf["rows"][0]
        b = [tuple(x) for x in leaf["box"]]
        out[r] = b if r not in out else [(min(a[0], c[0]), max(a[1], c[1])) for a, c in zip(out[r], b)]
    return out


def region_bounds(table, box, vars_):
    """The bounds a box puts on the table's numeric columns that are never none."""
    out = {}
    for axis, (a, b) in zip(table["axes"], box):
        var = vars_.get(axis["column"])
        if var is None or var["optional"] or not var["numeric"] or any(x is None for x in axis["bounds"][a:b + 1]):
            continue
        lo, hi = axis["bounds"][a][0], axis["bounds"][b][1]
        cur = out.get(axis["column"], (None, None))
        out[axis["column"]] = (frac(lo) if lo is not None else cur[0], frac(hi) if hi is not None else cur[1])
    return out


def meet(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (max(a[0], b[0]) if a[0] is not None and b[0] is not None else a[0] if b[0] is None else b[0],
            min(a[1], b[1]) if a[1] is not None and b[1] is not None else a[1] if b[1] is None else b[1])


def reads(e, out):
    if "var" in e:
        out.add(e["var"])
    if "in" in e:
        out.add(e["in"])
    for k in children(e):
        reads(k, out)
    return out


def define_reads(w, defs, seen=None):
    """Every variable the define of `w` reads, directly or through defines."""
    seen = set() if seen is None else seen
    for x in reads(defs[w], set()):
        if x not in seen:
            seen.add(x)
            if x in defs:
                define_reads(x, defs, seen)
    return seen


def check_bounds(run, cert, lines_out):
    """Each derived value's interval, re-derived case by case: every row each split table
    answers in taken once, the value bounded there by interval arithmetic from the rows'
    results and the boxes they answer in; the hull inside the interval, and that inside the
    declared range."""
    ix = cert_index(cert)
    vars_, defs, tables = ix["vars"], ix["defines"], ix["tables"]
    answering = {name: regions(t) for name, t in tables.items()}
    for name, var in vars_.items():
        if var["kind"] == "input" and var["range"] is not None:
            ix["intervals"][name] = (frac(var["range"][0]), frac(var["range"][1]))
    depends = {}  # define name -> the tables its expression reads, through defines

    def tables_read(e):
        out = set()
        for w in reads(e, set()):
            d = vars_.get(w, {}).get("decided_by") or {}
            if "table" in d:
                out.add(d["table"])
            elif "define" in d:
                out |= depends.get(w, set())
        return out

    for d in cert.get("defines", []):
        depends[d["name"]] = tables_read(d["expr"])
    proved = stated = 0
    for entry in cert.get("bounds", []):
        name = entry["name"]
        var = vars_[name]
        claimed = entry["interval"]
        claimed = None if claimed is None else (frac(claimed[0]), frac(claimed[1]))
        decider = var.get("decided_by") or {}
        hull = None
        roots = entry["roots"]
        if "table" in decider:
            # A row whose result is a literal is its own bound; every other row that
            # answers has its cases.
            t = tables[decider["table"]]
            col = t["results"].index(name)
            rooted = {r["row"]["row"] for r in roots if r["row"]}
            missing = False
            for rn in sorted(answering[t["table"]]):
                res = t["rows"][rn - 1]["results"][col]
                if rn in rooted or res.get("none"):
                    continue
                if "num" not in res:
                    missing = True
                    break
                c = stored_value(var, frac(res["num"]))
                hull = (c, c) if hull is None else (min(hull[0], c), max(hull[1], c))
                ix["row_intervals"][(t["table"], rn, name)] = (c, c)
                proved += 1
            if missing:
                run.fail(f"bounds of {name}: a row of {t['table']} that answers is not bounded")
                continue
        for root in roots:
            here = f"bounds of {name}"
            base = {}
            if root["row"] is None:
                expr = defs.get(name)
            else:
                t = tables[root["row"]["table"]]
                r = root["row"]["row"]
                here += f" ({t['table']} row {r})"
                res = t["rows"][r - 1]["results"][t["results"].index(name)]
                expr = res.get("expr", res)
                if r not in answering[t["table"]]:
                    run.fail(f"{here}: the row answers nowhere")
                    continue
                base = region_bounds(t, answering[t["table"]][r], vars_)
            split = root["split"]
            want = [[]]
            for tn in split:
                want = [w + [(tn, r)] for w in want for r in sorted(answering[tn])]
            got = [[(x["table"], x["row"]) for x in c["rows"]] for c in root["cases"]]
            if sorted(got) != sorted(want):
                run.fail(f"{here}: the cases are not the rows of {', '.join(split) or 'no table'}, each once")
                continue
            for case in root["cases"]:
                civ = case["interval"]
                if civ is None:
                    run.state("cases a value's bound leaves out because the rows' cells contradict")
                    continue
                civ = (frac(civ[0]), frac(civ[1]))
                iv = bound_case(expr, base, case, var, ix, answering, depends)
                if iv is not None and civ[0] <= iv[0] and iv[1] <= civ[1]:
                    proved += 1
                elif case["linear"]:
                    stated += 1
                else:
                    run.fail(f"{here}: in the case {case['rows']} the value lies in {iv}, not inside {civ}")
                    continue
                hull = civ if hull is None else (min(hull[0], civ[0]), max(hull[1], civ[1]))
                if root["row"] is not None:
                    key = (root["row"]["table"], root["row"]["row"], name)
                    old = ix["row_intervals"].get(key)
                    ix["row_intervals"][key] = civ if old is None else (min(old[0], civ[0]), max(old[1], civ[1]))
        if hull is not None and (claimed is None or hull[0] < claimed[0] or hull[1] > claimed[1]):
            run.fail(f"bounds of {name}: its cases reach {hull}, outside the interval {claimed} it states")
            continue
        if claimed is not None and var["range"] is not None and var["kind"] != "input":
            lo, hi = frac(var["range"][0]), frac(var["range"][1])
            if claimed[0] < lo or claimed[1] > hi:
                run.fail(f"bounds of {name}: {claimed} is not inside its declared range {lo}..{hi}")
                continue
        if claimed is not None:
            ix["intervals"][name] = claimed
    if stated:
        run.state("case bounds found by linear reasoning over the case's facts", stated)
    lines_out.append(f"  bounds: {len(cert.get('bounds', []))} values bounded row by row, {proved} cases re-derived by interval arithmetic")


def bound_case(expr, base, case, var, ix, answering, depends):
    """The value's interval in one case, by interval arithmetic."""
    vars_, defs, tables = ix["vars"], ix["defines"], ix["tables"]
    fixed = {}
    box = dict(base)
    split = []
    for x in case["rows"]:
        t = tables[x["table"]]
        r = x["row"]
        split.append(t["table"])
        for k, res in enumerate(t["rows"][r - 1]["results"]):
            rv = vars_[t["results"][k]]
            if "num" in res:
                fixed[rv["name"]] = (stored_value(rv, frac(res["num"])),) * 2
            elif "expr" in res:
                # A result computed by the row: its own bound there, found when it was checked.
                fixed[rv["name"]] = ix["row_intervals"].get((t["table"], r, rv["name"]))
        for w, b in region_bounds(t, answering[t["table"]][r], vars_).items():
            box[w] = meet(box.get(w), b)
    inline = {}
    # A define computed from what the case narrows (a column of a row, a split row's result)
    # is bounded again in the case, as its expression written inline would be.
    narrowed = set(box) | set(fixed)

    def bound(w):
        if w in fixed:
            return fixed[w]
        b = meet(ix["intervals"].get(w), box.get(w))
        if w in defs and (depends.get(w, set()) & set(split) or define_reads(w, defs) & narrowed):
            if w not in inline:
                inline[w] = None
                got = stored(vars_[w], interval(defs[w], bound, True))
                inline[w] = meet(got, b) if got is not None else b
            return inline[w]
        if b is None or b[0] is None or b[1] is None:
            return None
        return b

    if expr is None:
        return None
    if "expr" not in expr and constant(expr) is not FREE:
        c = constant(expr)
        return stored(var, (c, c)) if isinstance(c, Fraction) else None
    return stored(var, interval(expr, bound, True))


def stored_value(var, x):
    r = var.get("rounding")
    return round_grid(x, r["mode"], frac(r["grid"])) if r else x


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


def precedence(cert, table):
    """Under priority, each row's place in the order the rows take precedence: by each
    result's place in its enum's declared order, a tie in the order written. None under any
    other policy."""
    if table["policy"] != "priority":
        return None
    types = {v["name"]: v["type"] for v in cert["vars"]}
    members = [cert["enums"][types[res]]["values"] for res in table["results"]]

    def key(row):
        return ([m.index(x) for m, x in zip(members, row["produces"])], row["row"])

    return {row["row"]: place for place, row in enumerate(sorted(table["rows"], key=key))}


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
        # Constant results, read back from their text: the per-row bounds rest on them.
        for k, res in enumerate(r.get("results", [])):
            var = cert_index(cert)["vars"].get(table["results"][k]) if "results" in table else None
            text = r["produces"][k].strip() if k < len(r["produces"]) else None
            if var is None or text is None or "expr" in res:
                run.state("result cells that compute (their expression as the certificate reads it)")
                continue
            v = read_literal(text, {"unit": var.get("unit") or {}}, cert)
            if v == "unit" or v is None:
                run.state("result literals in a unit other than the value's own")
            elif not same_value(v, res) and not ("enum" in v and v["enum"] == res.get("enum")):
                run.fail(f"{where} row {r['row']}: `{text}` is not the result {res} the certificate states")
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
    rank = precedence(cert, table)
    for node, box in leaves:
        lid = node["leaf"]
        listed = node["rows"]
        leaf_rows[lid] = (listed, box, node)
        # The first row listed is the one that answers: under priority, the one ranked first.
        if rank is not None and listed != sorted(listed, key=lambda rn: rank.get(rn, len(rank))):
            run.fail(f"{where}: leaf {lid} lists its rows {listed} out of their order of priority")
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
        elif len(listed) >= 2 and not refuted and policy not in ("first", "priority"):
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
        if policy in ("first", "priority") and listed and listed[0] != rn:
            run.fail(f"{rw}: under {policy}, row {listed[0]} answers at its reach point")
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
        check_bounds(run, cert, out)
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
