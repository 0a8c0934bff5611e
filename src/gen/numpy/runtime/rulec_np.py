"""rulec's NumPy evaluator: a rule's plan (`<alias>.plan.json`, written by `rulec gen`) read as
data, deciding whole columns at once.

    plan = rulec_np.load("parcel_rate.plan.json")
    out = plan.call({"weight": weights, "girth": girths, "dest": dests, "signature": sigs})
    fees = out["fee"]

Every number is an int64 in its declared unit (a date its day number since 1970-01-01);
nothing is computed in floating point. The door checks the columns in the rule's order —
each column's kind, enum and range, element by element, then each constraint — and refuses
the first element that fails with the sentence every generated language says and its row.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
# A value over the rows: its data, and where it holds a value (None: everywhere).
Column = tuple[Array, "Array | None"]

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


class RuleInputError(ValueError):
    """The caller broke the contract. what is the sentence; value the value refused (None
    when the refusal is not about one); row the place of the element refused (None when a
    whole column is refused: missing, of another length, not an input)."""

    def __init__(self, what: str, value: str | None = None, row: int | None = None) -> None:
        where = "" if row is None else f" (row {row})"
        super().__init__((what if value is None else f"{what}: {value}") + where)
        self.what = what
        self.value = value
        self.row = row


class RuleContradictionError(AssertionError):
    """The rule contradicted itself at row: two rows the checker could not prove apart both
    matched. Fix the rule, not the call."""

    def __init__(self, what: str, row: int | None) -> None:
        super().__init__(what + ("" if row is None else f" (row {row})"))
        self.what = what
        self.row = row


def load(path: str) -> Plan:
    """The plan a file holds."""
    with open(path, encoding="utf-8") as f:
        return Plan(json.load(f))


# rulec-copy: module.py days


def div_round(n: Array, d: Array, mode: str) -> Array:
    """n / d rounded by the mode, over int64 columns (d != 0 where the rule divides: E132).
    With q the floor and r the remainder of the divisor's sign, the quotient is q + r/d,
    0 <= r/d < 1; each mode is one adjustment of q, and nothing is negated, so the ends of
    int64 stay whole."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if d.ndim == 0 and int(d) > 0 and mode in ("floor", "ceiling"):
            # By a positive constant, the floor is numpy's own; the ceiling its mirror.
            return n // d if mode == "floor" else -((-n) // d)
        safe = np.where(d == 0, 1, d)
        q = n // safe
        r = n % safe
        if mode == "floor":
            return q
        rest = r != 0
        if mode == "ceiling":
            return np.where(rest, q + 1, q)
        if mode == "down":
            return np.where(rest & (q < 0), q + 1, q)
        if mode == "up":
            return np.where(rest & (q >= 0), q + 1, q)
        ar, ad = np.abs(r), np.abs(safe)
        more, tie = ar > ad - ar, rest & (ar == ad - ar)
        if mode == "half_up":
            return np.where(more | (tie & (q >= 0)), q + 1, q)
        if mode == "half_down":
            return np.where(more | (tie & (q < 0)), q + 1, q)
        if mode == "half_even":
            return np.where(more | (tie & (q % 2 != 0)), q + 1, q)
    raise ValueError("unknown rounding mode " + mode)


def mod(a: Array, b: Array) -> Array:
    """The remainder from zero up: 0 <= r < |b| (b != 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.abs(b)
        return np.mod(a, np.where(m == 0, 1, m))


def isqrt(x: Array) -> Array:
    """The largest r with r * r <= x (x >= 0), by a binary search over whole numbers, a
    column at a time."""
    x = np.asarray(x, dtype=np.int64)
    lo = np.zeros(x.shape, dtype=np.int64)
    hi = np.minimum(np.maximum(x, 0), 3037000499).astype(np.int64)
    while bool(np.any(lo < hi)):
        mid = lo + (hi - lo + 1) // 2
        fits = mid * mid <= x
        lo = np.where(fits & (lo < hi), mid, lo)
        hi = np.where(~fits & (lo < hi), mid - 1, hi)
    return lo


_is_str = np.frompyfunc(lambda x: type(x) is str, 1, 1)


def _first(bad: Array) -> int | None:
    hits = np.flatnonzero(bad)
    return int(hits[0]) if hits.size else None


class Plan:
    """A rule's plan: `call` decides whole columns, `traced` also gives each table's row."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if data.get("rulec_plan") not in (1, 2):
            raise ValueError("not a plan rulec_np reads (rulec_plan 1 or 2)")
        self.data = data
        self.enums: dict[str, list[str]] = {e["name"]: list(e["values"]) for e in data["enums"]}
        self.vars: dict[str, Any] = dict(data["vars"])

    # -- the door

    def read(self, columns: Mapping[str, Any]) -> tuple[int, dict[str, Column]]:
        """The columns as the door reads them, in the rule's order: each column's kind, enum
        and range, element by element; then each constraint; then any column that is not
        an input. The number of rows, and each input as an int64 (an enum as its place, a
        date as its day number) with where it holds a value."""
        given = [c for c in self.data["columns"] if c["name"] in columns]
        n = len(columns[given[0]["name"]]) if given else (len(next(iter(columns.values()))) if columns else 1)
        vals: dict[str, Column] = {}
        for col in self.data["columns"]:
            name = col["name"]
            if name not in columns:
                if not col["optional"]:
                    raise RuleInputError(col["missing"])
                vals[name] = (np.zeros(n, dtype=self._dtype(col)), np.zeros(n, dtype=bool))
                continue
            raw = columns[name]
            if len(raw) != n:
                raise RuleInputError(f"{name} is not a column of {n} values")
            vals[name] = self._column(col, raw, n)
        for c in self.data["constraints"]:
            held, _ = self._eval(c["test"], vals, n)
            fails = ~held.astype(bool)
            for opt in c["optionals"]:
                present = vals[opt][1]
                if present is not None:
                    fails &= present
            row = _first(fails)
            if row is not None:
                raise RuleInputError(c["sentence"], None, row)
        names = {c["name"] for c in self.data["columns"]}
        for key in columns:
            if key not in names:
                raise RuleInputError(str(key) + self.data["not_an_input"])
        return n, vals

    def _dtype(self, col: Mapping[str, Any]) -> Any:
        kind = col["kind"]
        if kind == "boolean":
            return bool
        if kind == "text":
            return object
        return np.int64

    def _column(self, col: Mapping[str, Any], raw: Any, n: int) -> Column:
        kind = col["kind"]
        arr = np.asarray(raw) if not isinstance(raw, np.ndarray) else raw
        # A typed column: the kind is the dtype's, and only the range is left to check.
        if kind in ("integer", "date") and arr.dtype.kind in "iu":
            if arr.dtype.kind == "u" and arr.size and int(arr.max()) > _INT64_MAX:
                raise RuleInputError(col["out_of_range"] or col["not_of_kind"], str(arr.max()), _first(arr > _INT64_MAX))
            data = arr.astype(np.int64)
            self._range(col, data, None)
            return data, None
        if kind == "boolean" and arr.dtype.kind == "b":
            return arr.astype(bool), None
        if kind == "date" and arr.dtype.kind == "M":
            data = arr.astype("datetime64[D]").astype(np.int64)
            self._range(col, data, None)
            return data, None
        if isinstance(kind, dict) and arr.dtype.kind in "UO":
            # Names of the enum, every one of them: each is its place, found by a search
            # over fixed-width text (an object that is not a str is left to the slow path).
            strings = arr if arr.dtype.kind == "U" else None
            if strings is None and bool(_is_str(arr).all()):
                strings = arr.astype(str)
            known = np.asarray(self.enums[kind["enum"]], dtype=str)
            if strings is not None and known.size:
                order = np.argsort(known)
                ordered = known[order]
                at = np.minimum(np.searchsorted(ordered, strings), known.size - 1)
                if bool((ordered[at] == strings).all()):
                    data = order[at].astype(np.int64)
                    self._range(col, data, None)
                    return data, None
        # Anything else, element by element in the door's order.
        data = np.zeros(n, dtype=self._dtype(col))
        present = np.ones(n, dtype=bool)
        names = self.enums.get(kind["enum"], []) if isinstance(kind, dict) else []
        for i, x in enumerate(arr.tolist() if isinstance(arr, np.ndarray) else list(raw)):
            if x is None:
                if not col["optional"]:
                    raise RuleInputError(col["missing"], None, i)
                present[i] = False
                continue
            data[i] = self._element(col, kind, names, x, i)
        self._range(col, data, present)
        return data, (None if bool(present.all()) else present)

    def _element(self, col: Mapping[str, Any], kind: Any, names: list[str], x: Any, i: int) -> Any:
        if kind == "integer":
            if isinstance(x, float) and x == x and abs(x) != float("inf") and x == int(x):
                x = int(x)
            elif isinstance(x, float) and abs(x) == float("inf"):
                raise RuleInputError(col["out_of_range"], repr(x), i)
            if not isinstance(x, int) or isinstance(x, bool):
                raise RuleInputError(col["not_of_kind"], repr(x), i)
            if not _INT64_MIN <= x <= _INT64_MAX:
                raise RuleInputError(col["out_of_range"], repr(x), i)
            self._range_one(col, x, i)
            return x
        if kind == "boolean":
            if x is True or x is False:
                return x
            raise RuleInputError(col["not_of_kind"], repr(x), i)
        if kind == "text":
            if isinstance(x, str):
                return x
            raise RuleInputError(col["not_of_kind"], repr(x), i)
        if kind == "date":
            days = _days(x) if isinstance(x, str) else None
            if days is None:
                raise RuleInputError(col["not_of_kind"], repr(x), i)
            self._range_one(col, days, i)
            return days
        if isinstance(x, str) and x in names:
            place = names.index(x)
            self._range_one(col, place, i)
            return place
        raise RuleInputError(col["not_of_kind"], repr(x), i)

    def _range_one(self, col: Mapping[str, Any], x: int, i: int) -> None:
        r = col["range"]
        if r is not None and not r[0] <= x <= r[1]:
            value = repr(self.enums[col["kind"]["enum"]][x]) if isinstance(col["kind"], dict) else repr(x)
            raise RuleInputError(col["out_of_range"], value, i)

    def _range(self, col: Mapping[str, Any], data: Array, present: Array | None) -> None:
        r = col["range"]
        if r is None:
            return
        bad = (data < r[0]) | (data > r[1])
        if present is not None:
            bad &= present
        row = _first(bad)
        if row is not None:
            raise RuleInputError(col["out_of_range"], repr(int(data[row])), row)

    # -- the steps

    def _eval(self, e: Mapping[str, Any], vals: Mapping[str, Column], n: int) -> Column:
        # A literal is one value, which numpy spreads over the rows where it meets a column.
        if "int" in e:
            return np.asarray(e["int"], dtype=np.int64), None
        if "bool" in e:
            return np.asarray(e["bool"], dtype=bool), None
        if "str" in e:
            return np.asarray(e["str"], dtype=object), None
        if "member" in e:
            return np.asarray(e["member"], dtype=np.int64), None
        if "absent" in e:
            return np.asarray(0, dtype=np.int64), np.zeros(n, dtype=bool)
        if "var" in e and "op" not in e:
            return vals[e["var"]]
        op = e["op"]
        if op == "is_none":
            present = vals[e["var"]][1]
            return (np.zeros(n, dtype=bool) if present is None else ~present), None
        if op == "present":
            present = vals[e["var"]][1]
            test = self._eval(e["args"][0], vals, n)[0].astype(bool)
            return (test if present is None else present & test), None
        args = [self._eval(a, vals, n) for a in e["args"]]
        xs = [a[0] for a in args]
        with np.errstate(over="ignore"):
            if op == "neg":
                return -xs[0], args[0][1]
            if op == "add":
                return xs[0] + xs[1], None
            if op == "sub":
                return xs[0] - xs[1], None
            if op == "mul":
                return xs[0] * xs[1], None
            if op == "div_exact":
                return xs[0] // e["by"], None
            if op == "div_round":
                return div_round(xs[0], xs[1], e["mode"]), None
            if op == "min":
                return functools.reduce(np.minimum, xs), None
            if op == "max":
                return functools.reduce(np.maximum, xs), None
            if op == "mod":
                return mod(xs[0], xs[1]), None
            if op == "isqrt":
                return isqrt(xs[0]), None
            if op == "if":
                present = None
                if args[1][1] is not None or args[2][1] is not None:
                    a = args[1][1] if args[1][1] is not None else np.ones(n, dtype=bool)
                    b = args[2][1] if args[2][1] is not None else np.ones(n, dtype=bool)
                    present = np.where(xs[0].astype(bool), a, b)
                return np.where(xs[0].astype(bool), xs[1], xs[2]), present
            if op == "and":
                return np.logical_and(xs[0], xs[1]), None
            if op == "or":
                return np.logical_or(xs[0], xs[1]), None
            if op == "not":
                return np.logical_not(xs[0]), None
            if op == "one_of":
                hit = np.zeros(n, dtype=bool)
                for v in xs[1:]:
                    hit |= xs[0] == v
                return hit, None
            compare = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
            if op in compare:
                return np.asarray(compare[op](xs[0], xs[1]), dtype=bool), None
        raise ValueError("unknown operation " + op)

    def _run(self, columns: Mapping[str, Any]) -> tuple[int, dict[str, Column], dict[str, Array]]:
        n, vals = self.read(columns)
        vals = dict(vals)
        rows: dict[str, Array] = {}
        for step in self.data["steps"]:
            if "define" in step:
                vals[step["define"]] = self._eval(step["value"], vals, n)
                continue
            if step.get("collect") is not None:
                rows[step["table"]] = self._collect(step, vals, n)
                continue
            if step["match"] is not None and not step["guards"]:
                rows[step["table"]] = self._lookup(step, vals, n)
                continue
            conds = [np.broadcast_to(np.asarray(self._eval(r["when"], vals, n)[0], dtype=bool), (n,)) for r in step["rows"]]
            for g in step["guards"]:
                row = _first(conds[g["a"] - 1] & conds[g["b"] - 1])
                if row is not None:
                    raise RuleContradictionError(g["sentence"], row)
            left = np.ones(n, dtype=bool)
            matched = np.zeros(n, dtype=np.int64)
            results: dict[str, list[Any]] = {}
            for r, cond in zip(step["rows"], conds):
                fires = cond & left
                for name, value in r["set"]:
                    data, present = self._eval(value, vals, n)
                    if name not in results:
                        results[name] = [np.zeros(n, dtype=data.dtype), None]
                    slot = results[name]
                    slot[0] = np.where(fires, data, slot[0])
                    if present is not None or slot[1] is not None:
                        had = np.ones(n, dtype=bool) if slot[1] is None else slot[1]
                        slot[1] = np.where(fires, True if present is None else present, had)
                matched = np.where(fires, r["n"], matched)
                np.logical_and(left, ~cond, out=left)
            row = _first(left)
            if row is not None:
                raise RuleContradictionError(step["no_row"], row)
            for name, (data, present) in results.items():
                vals[name] = (data, None if present is None or bool(present.all()) else present)
            rows[step["table"]] = matched
        return n, vals, rows

    def _collect(self, step: Mapping[str, Any], vals: dict[str, Column], n: int) -> Array:
        """A table where every row that holds counts: its one result the fold of their values
        (a masked sum, a count, the least or the greatest; the plan's `empty` where no row
        holds), and its rows as an n x k int64 array, in the order they count, each the row's
        number where it holds and 0 where it does not."""
        fold = step["collect"]["fold"]
        (name,) = step["results"]
        conds = [np.broadcast_to(np.asarray(self._eval(r["when"], vals, n)[0], dtype=bool), (n,)) for r in step["rows"]]
        held = np.zeros(n, dtype=bool)
        acc = np.zeros(n, dtype=np.int64)
        with np.errstate(over="ignore"):
            for r, cond in zip(step["rows"], conds):
                if fold == "count":
                    acc = acc + cond
                    continue
                value = np.broadcast_to(np.asarray(self._eval(dict(r["set"])[name], vals, n)[0], dtype=np.int64), (n,))
                if fold == "sum":
                    # E108 proved the running total fits in an int64 wherever the rows hold.
                    folded = acc + value
                else:
                    folded = np.where(held, (np.minimum if fold == "min" else np.maximum)(acc, value), value)
                acc = np.where(cond, folded, acc)
                held = held | cond
        if fold != "count":
            empty = np.asarray(self._eval(step["collect"]["empty"], vals, n)[0], dtype=np.int64)
            acc = np.where(held, acc, empty)
        if "held" in step["collect"]:
            vals[step["collect"]["held"]] = (held, None)
        vals[name] = (acc, None)
        numbers = np.asarray([r["n"] for r in step["rows"]], dtype=np.int64)
        return np.where(np.stack(conds, axis=1), numbers, 0) if conds else np.zeros((n, 0), dtype=np.int64)

    def _lookup(self, step: Mapping[str, Any], vals: dict[str, Column], n: int) -> Array:
        """A table of enum and boolean cells: the first row of each combination of the
        columns' places, looked up, then each result taken from the row that fired."""
        m = step["match"]
        key = f"_lut_{step['table']}"
        lut = self.__dict__.get(key)
        if lut is None:
            sizes = m["sizes"]
            grid = np.indices(sizes).reshape(len(sizes), -1)
            lut = np.full(grid.shape[1], -1, dtype=np.int64)
            for k, pattern in reversed(list(enumerate(m["rows"]))):
                hit = np.ones(grid.shape[1], dtype=bool)
                for axis, cell in enumerate(pattern):
                    if cell is not None:
                        hit &= np.isin(grid[axis], cell)
                lut[hit] = k
            self.__dict__[key] = lut
        index = np.zeros(n, dtype=np.int64)
        for name, size in zip(m["columns"], m["sizes"]):
            index = index * size + np.broadcast_to(vals[name][0], (n,)).astype(np.int64)
        fired = lut[index]
        row = _first(fired < 0)
        if row is not None:
            raise RuleContradictionError(step["no_row"], row)
        for name in step["results"]:
            values = [dict(r["set"])[name] for r in step["rows"]]
            if all(("int" in v or "bool" in v or "member" in v) for v in values):
                table = np.asarray([next(iter(v.values())) for v in values])
                vals[name] = (table[fired], None)
                continue
            data: Array = np.zeros(n, dtype=np.int64)
            present = np.ones(n, dtype=bool)
            for k, v in enumerate(values):
                d, p = self._eval(v, vals, n)
                here = fired == k
                data = np.where(here, d, data)
                if p is not None:
                    present = np.where(here, p, present)
            vals[name] = (data, None if bool(present.all()) else present)
        numbers: Array = np.asarray([r["n"] for r in step["rows"]], dtype=np.int64)
        return np.asarray(numbers[fired])

    def _outputs(self, vals: Mapping[str, Column], n: int) -> dict[str, Array]:
        out: dict[str, Array] = {}
        for name in self.data["outputs"]:
            data, present = vals[name]
            # A define that reads no input is one value: spread over the n calls.
            data = np.broadcast_to(np.asarray(data), (n,))
            kind = self.vars[name]["kind"]
            if isinstance(kind, dict):
                data = np.asarray(self.enums[kind["enum"]], dtype=object)[data.astype(np.int64)]
            if present is not None:
                data = np.ma.MaskedArray(data, mask=~present)
            out[name] = data
        return out

    def call(self, columns: Mapping[str, Any]) -> dict[str, Array]:
        """Every output, a column each: an int64 in its unit (a date as its day number), a
        bool, an enum's value by its name; a masked array where an output may hold none."""
        n, vals, _ = self._run(columns)
        return self._outputs(vals, n)

    def traced(self, columns: Mapping[str, Any]) -> tuple[dict[str, Array], dict[str, Array]]:
        """The same call, with the row each table matched, a column per table; for a table
        where every row that holds counts, an n x k array: per call, the number of each of
        its k rows that holds, in the order they count, 0 for one that does not."""
        n, vals, rows = self._run(columns)
        return self._outputs(vals, n), rows
