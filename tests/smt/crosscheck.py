#!/usr/bin/env python3
"""Cross-check rulec's table verdicts against an independent SMT encoding (z3).

    python3 tests/smt/crosscheck.py --rulec target/debug/rulec FILE.rule...

For each rule: `rulec certificate --program FILE` gives the rule exactly (inputs, ranges,
constraints, defines, every row's tests and results, the evaluation order), and
`rulec check --format json FILE` what rulec found. The rule's meaning is encoded here, from
language.md and the reference evaluator's semantics, sharing no code with rulec:

- a call is asked about a table when it passes the door (each input in its type and range,
  each constraint not false) and every define and table the table reads — through its
  columns and result cells, transitively — evaluates: no division by zero, no root of a
  negative, some row matching, and under `unique` no two;
- a gap (E101) is an asked call no row matches; an overlap (E102, `unique`) two rows one
  asked call matches; under `any`, two rows that meet with different results (E104); a row
  no asked call matches is dead (E105); under `first`, a row some asked call matches but
  none reaches, an earlier row matching first, is shadowed (E103).

Each question is put to z3 and held to rulec's answer: a finding rulec reports that z3
refutes is a false claim, one z3 finds that rulec does not report is a missed finding, and
a pair rulec leaves to a runtime guard (W114), or a finding it states as not proven (no
witness), that z3 decides either way is a verdict not reached.
A table rulec stopped on (E109) and a question z3 cannot decide in its time are counted,
never taken as agreement. A rule whose names and types do not resolve has no tables to ask
about. Exit 0 when every verdict agrees, 1 otherwise; the last line counts both.
"""

import argparse
import json
import subprocess
import sys
from fractions import Fraction

import z3

TIMEOUT_MS = 20000


def frac(s):
    return Fraction(str(s))


# DMN's multiple-hit policies: every row that matches counts.
MULTI_HIT = ("collect", "rule_order", "output_order", "collect sum", "collect min", "collect max", "collect count")


def q(x):
    x = frac(x)
    return z3.RealVal(x.numerator) / z3.RealVal(x.denominator) if x.denominator != 1 else z3.RealVal(x.numerator)


class Val:
    """A value as the evaluator holds it: `v` the z3 term, `none` when it is absent, `ok`
    when computing it raised no error."""

    def __init__(self, v, none=z3.BoolVal(False), ok=z3.BoolVal(True)):
        self.v, self.none, self.ok = v, none, ok


class Rule:
    def __init__(self, prog):
        self.prog = prog
        self.vars = {v["name"]: v for v in prog["vars"]}
        self.enums = prog["enums"]
        self.defines = {d["name"]: d["expr"] for d in prog["defines"]}
        self.tables = {t["table"]: t for t in prog["tables"]}
        self.env = {}
        self.door = []
        self.fresh = 0
        self.side = []  # definitions of fresh terms (floor, roots): true of every call
        for name in prog["inputs"]:
            self.env[name] = self.input(self.vars[name])
        for c in prog["constraints"]:
            read = reads(c["expr"], set())
            absent = [self.env[w].none for w in read if self.vars[w]["optional"]]
            x = self.expr(c["expr"])
            holds = z3.Or(z3.Not(x.ok), x.none, x.v)
            self.door.append(z3.Or(*absent, holds) if absent else holds)
        # Each step's value and whether it evaluates.
        self.step_ok = {}
        self.matches = {}
        self.row_results = {}
        for step in prog["order"]:
            if "define" in step:
                name = step["define"]
                x = self.expr(self.defines[name])
                self.env[name] = self.store(name, x)
                self.step_ok[("define", name)] = x.ok
            else:
                self.table(self.tables[step["table"]])

    def name(self, base):
        self.fresh += 1
        return f"{base}!{self.fresh}"

    def input(self, var):
        ty = var["type"]
        name = var["name"]
        none = z3.Bool(f"{name}?none") if var["optional"] else z3.BoolVal(False)
        facts = []
        if ty == "bool":
            x = z3.Bool(name)
        elif ty == "string":
            x = z3.String(name)
        elif ty in self.enums:
            x = z3.Int(name)
            lo, hi = var.get("positions") or (0, len(self.enums[ty]["values"]) - 1)
            facts += [x >= lo, x <= hi]
        elif var["numeric"]:
            x = z3.Real(name)
            step = var["step"]
            if step is not None:
                n = z3.Int(f"{name}#steps")
                facts.append(x == q(step) * z3.ToReal(n))
            if var["range"] is not None:
                lo, hi = var["range"]
                facts += [x >= q(lo), x <= q(hi)]
            elif ty == "date":
                # 0000-01-01 .. 9999-12-31, as day numbers from 1970-01-01.
                facts += [x >= -719528, x <= 2932896]
        else:
            raise NotImplementedError(f"input {name} of type {ty}")
        # An absent optional is let through whatever its value would be.
        self.door += [z3.Or(none, f) for f in facts] if var["optional"] else facts
        return Val(x, none)

    def store(self, name, x):
        r = self.vars[name].get("rounding")
        if r is None or not self.vars[name]["numeric"]:
            return x
        return Val(self.round(x.v, r["mode"], frac(r["grid"])), x.none, x.ok)

    def round(self, x, mode, grid):
        k = x / q(grid)
        f = z3.ToInt(k)
        fr = k - z3.ToReal(f)
        neg = k < 0
        half = z3.RealVal(1) / 2
        even = f % 2 == 0
        up = {
            "up": z3.Not(neg),
            "down": neg,
            "ceiling": z3.BoolVal(True),
            "floor": z3.BoolVal(False),
        }.get(mode)
        if up is None:
            at_half = {"half_up": z3.Not(neg), "half_down": neg, "half_even": z3.Not(even)}[mode]
            up = z3.If(fr < half, z3.BoolVal(False), z3.If(fr > half, z3.BoolVal(True), at_half))
        m = z3.If(fr == 0, f, z3.If(up, f + 1, f))
        return z3.ToReal(m) * q(grid)

    def const(self, e):
        if "num" in e:
            return Val(q(e["num"]))
        if "bool" in e:
            return Val(z3.BoolVal(e["bool"]))
        if "str" in e:
            return Val(z3.StringVal(e["str"]))
        if "pos" in e:
            return Val(z3.IntVal(e["pos"]))
        if "none" in e:
            return Val(z3.RealVal(0), z3.BoolVal(True))
        return None

    def expr(self, e):
        c = self.const(e)
        if c is not None:
            return c
        if "var" in e:
            return self.env[e["var"]]
        if "neg" in e:
            a = self.expr(e["neg"])
            return Val(-a.v, a.none, a.ok)
        if "op" in e:
            a, b = self.expr(e["l"]), self.expr(e["r"])
            none, ok = z3.Or(a.none, b.none), z3.And(a.ok, b.ok)
            op = e["op"]
            if op == "+":
                return Val(a.v + b.v, none, ok)
            if op == "-":
                return Val(a.v - b.v, none, ok)
            if op == "*":
                return Val(a.v * b.v, none, ok)
            return Val(a.v / b.v, none, z3.And(ok, z3.Or(none, b.v != 0)))
        if "cmp" in e:
            a, b = self.expr(e["l"]), self.expr(e["r"])
            return Val(cmp(e["cmp"], a.v, b.v), z3.Or(a.none, b.none), z3.And(a.ok, b.ok))
        if "not" in e:
            a = self.expr(e["not"])
            return Val(z3.Not(a.v), a.none, a.ok)
        if "and" in e or "or" in e:
            is_and = "and" in e
            a, b = (self.expr(x) for x in e["and" if is_and else "or"])
            # The second operand is evaluated only when the first does not settle it.
            goes_on = a.v if is_and else z3.Not(a.v)
            v = z3.And(a.v, b.v) if is_and else z3.Or(a.v, b.v)
            return Val(v, z3.Or(a.none, z3.And(goes_on, b.none)), z3.And(a.ok, z3.Or(a.none, z3.Not(goes_on), b.ok)))
        if "min" in e or "max" in e:
            is_min = "min" in e
            xs = [self.expr(x) for x in e["min" if is_min else "max"]]
            best = xs[0].v
            for x in xs[1:]:
                best = z3.If((x.v < best) if is_min else (x.v > best), x.v, best)
            return Val(best, z3.Or(*[x.none for x in xs]), z3.And(*[x.ok for x in xs]))
        if "mod" in e:
            a, b = (self.expr(x) for x in e["mod"])
            babs = z3.If(b.v < 0, -b.v, b.v)
            qq = z3.ToReal(z3.ToInt(a.v / babs))
            return Val(a.v - qq * babs, z3.Or(a.none, b.none), z3.And(a.ok, b.ok, z3.Or(a.none, b.none, b.v != 0)))
        if "isqrt" in e:
            a = self.expr(e["isqrt"])
            r = z3.Int(self.name("isqrt"))
            n = z3.ToInt(a.v)
            # r = the largest whole number whose square is at most ⌊a⌋ (0 below 1).
            self.side.append(z3.Implies(a.v >= 0, z3.And(r >= 0, r * r <= z3.If(n < 0, 0, n), (r + 1) * (r + 1) > z3.If(n < 0, 0, n))))
            return Val(z3.ToReal(r), a.none, z3.And(a.ok, z3.Or(a.none, a.v >= 0)))
        if "round" in e:
            a = self.expr(e["round"])
            return Val(self.round(a.v, e["mode"], frac(e["grid"])), a.none, a.ok)
        if "if" in e:
            c, t, f = self.expr(e["if"]), self.expr(e["then"]), self.expr(e["else"])
            return Val(z3.If(c.v, t.v, f.v), z3.Or(c.none, z3.If(c.v, t.none, f.none)),
                       z3.And(c.ok, z3.Or(c.none, z3.If(c.v, t.ok, f.ok))))
        if "in" in e:
            x = self.env[e["in"]]
            vals = [self.const(v).v for v in e["values"]]
            return Val(z3.Or(*[x.v == v for v in vals]) if vals else z3.BoolVal(False), x.none, x.ok)
        raise NotImplementedError(f"expression {e}")

    def cell(self, test, x):
        if test["cell"] == "any":
            return z3.BoolVal(True)
        holds = []
        for t in test["tests"]:
            if t["test"] == "none":
                holds.append(x.none)
            elif t["test"] == "in":
                holds.append(z3.And(z3.Not(x.none), z3.Or(*[x.v == self.const(v).v for v in t["values"]])))
            else:
                holds.append(z3.And(z3.Not(x.none), *[cmp(b["op"], x.v, self.const(b["value"]).v) for b in t["bounds"]]))
        h = z3.Or(*holds) if holds else z3.BoolVal(False)
        return z3.Not(h) if test["negated"] else h

    def table(self, t):
        cols = [self.env[c] for c in t["columns"]]
        ms = [z3.And(*[self.cell(test, x) for test, x in zip(r["tests"], cols)]) for r in t["rows"]]
        self.matches[t["table"]] = ms
        results = [[self.result(r["results"][i], self.vars[name]) for r in t["rows"]] for i, name in enumerate(t["results"])]
        self.row_results[t["table"]] = results
        if t["policy"] in MULTI_HIT:
            return self.multi_hit(t, ms, results)
        # The row that answers: the first that matches (under `unique`, the only one).
        some = z3.Or(*ms) if ms else z3.BoolVal(False)
        ok = some
        if t["policy"] == "unique":
            ok = z3.And(ok, z3.Not(z3.Or(*[z3.And(ms[a], ms[b]) for a in range(len(ms)) for b in range(a + 1, len(ms))] or [z3.BoolVal(False)])))
        for name, rs in zip(t["results"], results):
            v, none, rok = rs[-1].v, rs[-1].none, rs[-1].ok
            for m, r in reversed(list(zip(ms[:-1], rs[:-1]))):
                v, none, rok = z3.If(m, r.v, v), z3.If(m, r.none, none), z3.If(m, r.ok, rok)
            ok = z3.And(ok, rok)
            self.env[name] = self.store(name, Val(v, none))
        self.step_ok[("table", t["table"])] = ok

    def multi_hit(self, t, ms, results):
        """Every row that matches counts: a count of them, a sum, a least or a greatest of
        their values (the default, else none, where none matches); a list is read by nothing
        later, so its value is left free."""
        some = z3.Or(*ms) if ms else z3.BoolVal(False)
        oks = [z3.Implies(m, r.ok) for m, r in zip(ms, results[0])]
        name = t["results"][0]
        var = self.vars[name]
        policy = t["policy"]
        if policy in ("collect", "rule_order", "output_order"):
            for n in t["results"]:
                self.env[n] = Val(z3.Real(self.name(n)))
            self.step_ok[("table", t["table"])] = z3.And(*oks) if oks else z3.BoolVal(True)
            return
        if policy == "collect count":
            v = z3.Sum(*[z3.If(m, z3.RealVal(1), z3.RealVal(0)) for m in ms]) if ms else z3.RealVal(0)
            self.env[name] = Val(v)
            self.step_ok[("table", t["table"])] = z3.BoolVal(True)
            return
        if policy == "collect sum":
            v = z3.Sum(*[z3.If(m, r.v, z3.RealVal(0)) for m, r in zip(ms, results[0])]) if ms else z3.RealVal(0)
        else:
            # In the rows' order: the first value that matches, then each that beats it.
            v, held = self.default(var), z3.BoolVal(False)
            for m, r in zip(ms, results[0]):
                beats = r.v < v if policy == "collect min" else r.v > v
                v = z3.If(z3.And(m, z3.Or(z3.Not(held), beats)), r.v, v)
                held = z3.Or(held, m)
        default = var.get("default")
        if default is not None:
            v, none, ok = z3.If(some, v, self.const(default).v), z3.BoolVal(False), z3.BoolVal(True)
        elif var["optional"]:
            none, ok = z3.Not(some), z3.BoolVal(True)
        else:
            none, ok = z3.BoolVal(False), some
        self.env[name] = self.store(name, Val(v, none))
        self.step_ok[("table", t["table"])] = z3.And(ok, *oks)

    def result(self, res, var):
        if "expr" in res:
            return self.expr(res["expr"])
        if "none" in res:
            return Val(self.default(var), z3.BoolVal(True))
        return self.const(res)

    def default(self, var):
        """Some value of the variable's sort: what an absent value is held as."""
        ty = var["type"]
        if ty == "bool":
            return z3.BoolVal(False)
        if ty == "string":
            return z3.StringVal("")
        if ty in self.enums:
            return z3.IntVal(0)
        return z3.RealVal(0)

    def needed(self, t):
        """The steps table `t` reads, through its columns and its result cells, transitively."""
        out, stack, seen = set(), list(self.tables[t]["columns"]), set()
        for r in self.tables[t]["rows"]:
            for res in r["results"]:
                if "expr" in res:
                    stack += list(reads(res["expr"], set()))
        while stack:
            w = stack.pop()
            if w in seen:
                continue
            seen.add(w)
            by = self.vars[w]["decided_by"] or {}
            if "define" in by:
                out.add(("define", w))
                stack += list(reads(self.defines[w], set()))
            elif "table" in by:
                d = self.tables[by["table"]]
                out.add(("table", d["table"]))
                stack += d["columns"]
                for r in d["rows"]:
                    for res in r["results"]:
                        if "expr" in res:
                            stack += list(reads(res["expr"], set()))
        return out

    def asked(self, t):
        return self.door + self.side + [self.step_ok[s] for s in sorted(self.needed(t)) if s != ("table", t)]


def cmp(op, a, b):
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "=": a == b, "!=": a != b}[op]


def reads(e, out):
    if isinstance(e, dict):
        if "var" in e:
            out.add(e["var"])
        if "in" in e:
            out.add(e["in"])
        for k, x in e.items():
            if k not in ("var", "in", "values"):
                reads(x, out)
    elif isinstance(e, list):
        for x in e:
            reads(x, out)
    return out


def sat(facts):
    s = z3.Solver()
    s.set("timeout", TIMEOUT_MS)
    s.add(*facts)
    r = s.check()
    if r == z3.sat:
        return True
    if r == z3.unsat:
        return False
    return None


def crosscheck(rulec, path):
    """(disagreements, questions, undecided) for one rule file."""
    got = subprocess.run([rulec, "certificate", "--program", path], capture_output=True, text=True)
    if got.returncode != 0:
        return [], 0, 0, False
    prog = json.loads(got.stdout)
    # A rule that walks a sequence is proved through its views (docs/walks.md); the model
    # here is of one call's tables, so it asks nothing of it.
    if any("walk" in step for step in prog["order"]):
        return [], 0, 0, None
    rule = Rule(prog)
    check = subprocess.run([rulec, "check", "--format", "json", path], capture_output=True, text=True)
    diags = [json.loads(line) for line in check.stdout.splitlines() if line.strip()]
    said = {}
    unshown = set()  # findings rulec states as not proven: no witness behind them
    for d in diags:
        table = (d.get("where") or {}).get("table")
        if table is None or not d["code"].startswith(("E10", "W114")):
            continue
        rows = [r["row"] for r in d.get("rows") or []]
        # A shadowed row names the rows that shadow it after it; a pair is a pair either way.
        rows = tuple(rows[:1]) if d["code"] in ("E103", "E105") else tuple(sorted(rows))
        said.setdefault(table, set()).add((d["code"], rows))
        if d["code"] in ("E101", "E102", "E104") and not d.get("witness"):
            unshown.add((table, d["code"], rows))
    bad, questions, undecided = [], 0, 0

    def claim(table, code, rows, z3_says, what):
        nonlocal questions, undecided
        questions += 1
        reported = (code, rows) in said.get(table, set())
        guarded = ("W114", rows) in said.get(table, set())
        if z3_says is None:
            undecided += 1
            return
        where = f"{path}: table {table}"
        rows_text = f" rows {', '.join(map(str, rows))}" if rows else ""
        if guarded and code == "E102":
            bad.append(f"{where}{rows_text}: W114 (not proven apart), but z3 says they {'meet' if z3_says else 'never meet'}")
        elif (table, code, rows) in unshown:
            verdict = "finds it" if z3_says else "refutes it"
            bad.append(f"{where}{rows_text}: rulec leaves {code} ({what}) not proven, with no witness; z3 {verdict}")
        elif reported and not z3_says:
            bad.append(f"{where}{rows_text}: rulec reports {code} ({what}), z3 refutes it")
        elif z3_says and not reported:
            bad.append(f"{where}{rows_text}: z3 finds {what}, rulec does not report {code}")

    for t in rule.prog["tables"]:
        name = t["table"]
        if ("E109", ()) in said.get(name, set()):
            undecided += 1
            continue
        asked = rule.asked(name)
        ms = rule.matches[name]
        # A multiple-hit table has a gap only where an aggregate has no answer of its own.
        result = rule.vars[t["results"][0]]
        answers_none = t["policy"] in MULTI_HIT and (
            t["policy"] not in ("collect sum", "collect min", "collect max") or result["optional"] or result.get("default") is not None
        )
        if not answers_none:
            claim(name, "E101", (), sat(asked + [z3.Not(z3.Or(*ms))]), "an asked call no row matches")
        reached = [sat(asked + [m]) for m in ms]
        for r, m in enumerate(ms):
            claim(name, "E105", (r + 1,), None if reached[r] is None else not reached[r], "no asked call matches the row")
        if t["policy"] == "unique":
            for a in range(len(ms)):
                for b in range(a + 1, len(ms)):
                    if reached[a] is False or reached[b] is False:
                        continue
                    claim(name, "E102", (a + 1, b + 1), sat(asked + [ms[a], ms[b]]), "one asked call both rows match")
        elif t["policy"] == "any":
            res = rule.row_results[name]
            for a in range(len(ms)):
                for b in range(a + 1, len(ms)):
                    if reached[a] is False or reached[b] is False:
                        continue
                    differ = z3.Or(*[z3.Or(x[a].none != x[b].none, z3.And(z3.Not(x[a].none), x[a].v != x[b].v)) for x in res])
                    claim(name, "E104", (a + 1, b + 1), sat(asked + [ms[a], ms[b], differ]), "two rows that meet and disagree")
        elif t["policy"] == "first":
            for r, m in enumerate(ms):
                if not reached[r] or r == 0:
                    continue
                answers = sat(asked + [m, z3.Not(z3.Or(*ms[:r]))])
                claim(name, "E103", (r + 1,), None if answers is None else not answers, "a row every asked call it matches meets an earlier row first")
    return bad, questions, undecided, True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rulec", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    all_bad, total, undecided, rules, unresolved = [], 0, 0, 0, 0
    for f in args.files:
        bad, n, u, resolved = crosscheck(args.rulec, f)
        if resolved is None:
            print(f"{f}: walks a sequence; its tables are asked of through the walk's views, not here")
            continue
        if not resolved:
            unresolved += 1
            print(f"{f}: does not resolve; no tables to ask about")
            continue
        rules += 1
        total += n
        undecided += u
        all_bad += bad
        print(f"{f}: {n} questions, {len(bad)} disagreements, {u} undecided")
        for b in bad:
            print(f"  DISAGREE {b}")
    print(f"crosscheck: {rules} rules ({unresolved} not resolving), {total} questions, {len(all_bad)} disagreements, {undecided} undecided")
    sys.exit(1 if all_bad else 0)


if __name__ == "__main__":
    main()
