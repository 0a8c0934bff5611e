# The runners `rulec test` drives for the generated SQL (generated-code.md, SQL), as one
# Python file that ruff and mypy check as it stands (tests/gen_sql.rs). Python's sqlite3,
# the psql client and, for DuckDB, its Python module (PyPI's duckdb) are all they use.
#
# A rule's runner reads each vectors line as the wire door reads it, holds each input in
# the type the query's relation or the function's parameter gives it, and lets the engine
# answer: the view the query file creates, over a relation in an in-memory SQLite (the
# default), the function on a real PostgreSQL (--postgresql), the view over a relation on
# PostgreSQL (--postgresql-query), or DuckDB's view over a relation in an in-memory DuckDB
# (--duckdb). The door's checks are the engine's (`_input_error`, SQLSTATE
# 22023), but for a value its type cannot hold (a string where the relation has a number):
# the runner refuses that one with the sentence of its check, where the door's order puts
# it. The helpers' runner answers vectors/_helpers.jsonl with the view `_helpers.sql` creates.
#
# The SQL backend writes the sections below after the rule's data (what comes before the
# first section stands in for that data here).

# rulec: head
import decimal
import json
import os
import secrets
import sqlite3
import subprocess
import sys
from typing import Any, NamedTuple

# The classes of value the door tells apart (the data below names them).
INTEGER = "integer"
DATE = "date"
BOOLEAN = "boolean"
TEXT = "text"
ENUM = "enum"
LIST = "list"  # an output only: the text of its JSON array, as the wire writes it
LIST_OF_DATES = "list of dates"  # the text of a JSON array of day numbers


class Input(NamedTuple):
    """One input of the door: its key on the wire, its column, its class, its sentences."""

    key: str
    column: str
    kind: str
    missing: str
    not_of_kind: str
    out_of_range: str | None


# rulec: data
QUERY = "rule.sql"
FUNCTION = "rule_function.sql"
DUCKDB_QUERY = "rule_duckdb.sql"
NAME = "rule"  # the view's and the function's
RELATION = "rule_input"
DOOR: list[Input] = [Input("x", "x", INTEGER, "x is missing", "x is not an integer", "x is out of range")]
CONSTRAINTS: list[str] = []
NOT_AN_INPUT = " is not an input"
NOT_AN_OBJECT = "the input is not an object"
RECORD: list[tuple[str, str, str]] = [("text", '"in":{"x":', ""), ("input", "x", INTEGER), ("text", '},"observed":{"y":', ""), ("output", "y", INTEGER), ("text", '},"trace":[', "")]
# Each table, its column, and whether every row that holds counts (its column a JSON array).
TABLES: list[tuple[str, str, bool]] = [("t", "t_row", False)]

# rulec: common
INT64 = (-(2**63), 2**63 - 1)


# rulec-copy: script.py depth


# rulec-copy: script.py read


# rulec-copy: module.py days


# rulec-copy: module.py date_str


class Unheld(Exception):
    """A value the engine's type cannot hold, refused with the sentence of its check."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Engine(NamedTuple):
    """What the engine's types hold: `sqlite` (INTEGER, REAL, TEXT), `bigint` (the function's
    parameters, a DuckDB relation's BIGINT columns) or `numeric` (a PostgreSQL relation with
    numeric columns); and whether its text holds a NUL character (PostgreSQL's does not)."""

    numbers: str
    holds_nul: bool


def held(door: Input, x: Any, engine: Engine) -> Any:
    """The value of one input as the engine holds it: None (NULL) for a missing one, which
    the engine refuses; raises Unheld for one its type cannot hold."""
    if x is None:
        return None
    if door.kind in (INTEGER, DATE):
        if door.kind == DATE:
            if not isinstance(x, str) or _days(x) is None:
                raise Unheld(door.not_of_kind)
            x = _days(x)
        if isinstance(x, bool) or not isinstance(x, (int, decimal.Decimal)):
            raise Unheld(door.not_of_kind)
        if engine.numbers == "numeric":
            return x
        if isinstance(x, decimal.Decimal):
            # A fraction: SQLite holds it as a REAL if the nearest double still has one.
            f = float(x)
            if engine.numbers == "sqlite" and not f.is_integer():
                return f
            raise Unheld(door.not_of_kind)
        if INT64[0] <= x <= INT64[1]:
            return x
        if engine.numbers == "sqlite":
            return float(x)
        raise Unheld(door.out_of_range or door.not_of_kind)
    if door.kind == BOOLEAN:
        if not isinstance(x, bool):
            raise Unheld(door.not_of_kind)
        return x
    if not isinstance(x, str):
        raise Unheld(door.not_of_kind)
    if not engine.holds_nul and "\x00" in x:
        raise Unheld(door.not_of_kind if door.kind == ENUM else "PostgreSQL cannot hold a NUL character")
    return x


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def literal(x: Any) -> str:
    """A value as a PostgreSQL literal."""
    if x is None:
        return "NULL"
    if isinstance(x, bool):
        return "TRUE" if x else "FALSE"
    if isinstance(x, int):
        return "CAST(" + str(x) + " AS BIGINT)" if INT64[0] <= x <= INT64[1] else str(x)
    if isinstance(x, decimal.Decimal):
        return str(x)
    return "'" + str(x).replace("'", "''") + "'"


def least(*xs: Any) -> Any:
    """LEAST as PostgreSQL has it: NULL only when every argument is."""
    there = [x for x in xs if x is not None]
    return min(there) if there else None


def greatest(*xs: Any) -> Any:
    there = [x for x in xs if x is not None]
    return max(there) if there else None


# rulec-copy: module.py isqrt


def isqrt(x: Any) -> Any:
    """rulec_isqrt as the function file defines it: the largest r with r * r <= x (for a
    whole r, r * r <= x and r * r <= int(x) are one test); NULL for NULL (STRICT)."""
    return None if x is None else _isqrt(int(x))


def sqlite(script: str, view: str, relation: str, columns: list[str], rows: list[list[Any]]) -> list[dict[str, Any]]:
    """The view `script` creates, over an in-memory SQLite relation holding the rows (after `_id`)."""
    db = sqlite3.connect(":memory:")
    db.create_function("LEAST", -1, least, deterministic=True)
    db.create_function("GREATEST", -1, greatest, deterministic=True)
    db.create_function("rulec_isqrt", 1, isqrt, deterministic=True)
    cols = "".join(", " + quote(c) for c in columns)
    db.execute("CREATE TABLE " + quote(relation) + ' ("_id" INTEGER PRIMARY KEY' + cols + ")")
    marks = "?" + ", ?" * len(columns)
    db.executemany("INSERT INTO " + quote(relation) + " VALUES (" + marks + ")", [[i, *r] for i, r in enumerate(rows)])
    db.executescript(script)
    cur = db.execute("SELECT * FROM " + quote(view))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def duckdb(script: str, view: str, relation: str, columns: list[tuple[str, str]], rows: list[list[Any]]) -> list[dict[str, Any]]:
    """The view `script` creates, over a relation in an in-memory DuckDB holding the rows
    (after `_id`), its columns of the types given; rulec_isqrt registered from Python (NULL
    for NULL)."""
    import duckdb as engine

    db = engine.connect(":memory:")
    db.create_function("rulec_isqrt", isqrt, ["BIGINT"], "BIGINT")
    cols = "".join(", " + quote(c) + " " + t for c, t in columns)
    db.execute("CREATE TABLE " + quote(relation) + ' ("_id" BIGINT' + cols + ")")
    for i in range(0, len(rows), 500):
        values = ", ".join("(" + ", ".join(literal(x) for x in [n, *rows[n]]) + ")" for n in range(i, min(i + 500, len(rows))))
        db.execute("INSERT INTO " + quote(relation) + " VALUES " + values)
    db.execute(script)
    cur = db.execute("SELECT * FROM " + quote(view))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


TRY = """CREATE FUNCTION "_rulec_try"("q" text) RETURNS text LANGUAGE plpgsql AS $try$
DECLARE
  answer text;
BEGIN
  EXECUTE "q" INTO answer;
  RETURN answer;
EXCEPTION WHEN OTHERS THEN
  RETURN json_build_object('state', SQLSTATE, 'message', SQLERRM)::text;
END
$try$;"""


def psql(setup: list[str], asks: list[str]) -> list[Any]:
    """Each of `asks` (a query giving one JSON text) answered on the PostgreSQL of libpq's
    environment, in a schema of this run's own: made for it, dropped after, all of it inside
    one transaction, so two runs never meet and a run that stops leaves nothing behind."""
    schema = "rulec_test_" + secrets.token_hex(8)
    script = [
        "SET client_min_messages = warning;",
        "BEGIN;",
        "CREATE SCHEMA " + quote(schema) + ";",
        "SET LOCAL search_path TO " + quote(schema) + ";",
        *setup,
        TRY,
    ]
    script += ["SELECT " + quote("_rulec_try") + "(" + literal(q) + ");" for q in asks]
    script += ["DROP SCHEMA " + quote(schema) + " CASCADE;", "COMMIT;", ""]
    env = dict(os.environ)
    env.setdefault("PGCONNECT_TIMEOUT", "10")
    out = subprocess.run(
        ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", "-"],
        input="\n".join(script).encode("utf-8"),
        capture_output=True,
        env=env,
        check=False,
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr.decode("utf-8", errors="replace"))
        sys.exit("psql failed (" + str(out.returncode) + ")")
    lines = [line for line in out.stdout.decode("utf-8").split("\n") if line != ""]
    if len(lines) != len(asks):
        sys.exit("psql answered " + str(len(lines)) + " lines for " + str(len(asks)) + " calls")
    return [json.loads(line) for line in lines]


def postgresql_query(
    script: str, view: str, setup: list[str], relation: str, columns: list[tuple[str, str]], rows: list[list[Any]]
) -> list[dict[str, Any]]:
    """The view `script` creates, over a relation on PostgreSQL holding the rows (after
    `_id`), its columns of the types given."""
    cols = "".join(", " + quote(c) + " " + t for c, t in columns)
    table = ["CREATE TABLE " + quote(relation) + ' ("_id" bigint' + cols + ");"]
    for i in range(0, len(rows), 500):
        values = ", ".join("(" + ", ".join(literal(x) for x in [n, *rows[n]]) + ")" for n in range(i, min(i + 500, len(rows))))
        table.append("INSERT INTO " + quote(relation) + " VALUES " + values + ";")
    ask = "SELECT '[' || COALESCE(string_agg(row_to_json(\"_r\")::text, ','), '') || ']' FROM " + quote(view) + ' AS "_r"'
    (answer,) = psql([*setup, *table, script], [ask])
    if not isinstance(answer, list):
        sys.exit("the query answered " + json.dumps(answer))
    return answer


# rulec-copy: script.py refusal


def read_file(name: str) -> str:
    with open(name, encoding="utf-8") as f:
        return f.read()


def lines() -> list[str]:
    """The vectors: every non-empty line of stdin (one that is not UTF-8 read as the
    characters it can be, which makes it no JSON the door reads)."""
    out = []
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace").strip()
        if line != "":
            out.append(line)
    return out


def write(answers: list[str]) -> None:
    sys.stdout.buffer.write("".join(a + "\n" for a in answers).encode("utf-8", errors="surrogatepass"))

# rulec: rule
def wire(x: Any, kind: str) -> str:
    """A value of the record in its wire form."""
    if x is None:
        return "null"
    if kind == BOOLEAN:
        return "true" if x else "false"
    if kind == DATE:
        return _date_str(int(x))
    if kind == INTEGER:
        return str(int(x))
    if kind == LIST:
        return str(x)
    if kind == LIST_OF_DATES:
        return "[" + ",".join(_date_str(int(d)) for d in json.loads(str(x))) + "]"
    return json.dumps(x, ensure_ascii=False)


def position(sentence: str) -> int:
    """Where the door's check that says `sentence` stands: an input's place, then the
    constraints after every input (-1 for a sentence of no check, which stands first)."""
    for i, d in enumerate(DOOR):
        if sentence in (d.missing, d.not_of_kind, d.out_of_range):
            return i
    return len(DOOR) if sentence in CONSTRAINTS else -1


class Call(NamedTuple):
    """One call as the door read it: the values held (None where absent, or unheld), the
    first value the engine cannot hold (its place and sentence), the first unknown key."""

    values: list[Any]
    unheld: tuple[int, str] | None
    unknown: str | None


# Each input's place in the door, by its key.
PLACE = {d.key: i for i, d in enumerate(DOOR)}


def read(call: dict[str, Any], engine: Engine) -> Call:
    values: list[Any] = []
    unheld = None
    for i, d in enumerate(DOOR):
        try:
            values.append(held(d, call.get(d.key), engine))
        except Unheld as e:
            values.append(None)
            unheld = unheld or (i, e.what)
    unknown = next((k for k in call if k not in PLACE), None)
    return Call(values, unheld, unknown)


def answer(call: Call, error: str | None, contradiction: str | None, row: dict[str, Any]) -> str:
    """The line for one call, in the door's order: the engine's refusal where it stands
    before the value the engine could not hold, that value's, an unknown key's, the rule's
    contradiction; else the record."""
    if error is not None and (call.unheld is None or position(error) < call.unheld[0]):
        return _refusal("input", error)
    if call.unheld is not None:
        return _refusal("input", call.unheld[1])
    if call.unknown is not None:
        return _refusal("input", call.unknown + NOT_AN_INPUT)
    if contradiction is not None:
        return _refusal("contradiction", contradiction)
    s = ["{"]
    for piece, name, kind in RECORD:
        if piece == "text":
            s.append(name)
        elif piece == "input":
            s.append(wire(call.values[PLACE[name]], kind))
        else:
            s.append(wire(row[name], kind))
    fired = []
    for t, c, every in TABLES:
        table = '{"table":' + json.dumps(t, ensure_ascii=False) + ',"row":'
        fired += [table + wire(r, INTEGER) + "}" for r in (json.loads(row[c]) if every else [row[c]])]
    s.append(",".join(fired))
    s.append("]}")
    return "".join(s)


def numeric_type(d: Input) -> str:
    return {INTEGER: "numeric", DATE: "numeric", BOOLEAN: "boolean"}.get(d.kind, "text")


def duckdb_type(d: Input) -> str:
    return {INTEGER: "BIGINT", DATE: "BIGINT", BOOLEAN: "BOOLEAN"}.get(d.kind, "VARCHAR")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "--sqlite"
    numbers = {"--postgresql": "bigint", "--postgresql-query": "numeric", "--duckdb": "bigint"}.get(mode, "sqlite")
    engine = Engine(numbers, mode in ("--sqlite", "--duckdb"))
    calls: list[Call | None] = []
    for line in lines():
        call = _call_of(line)
        calls.append(read(call, engine) if isinstance(call, dict) else None)
    asked = [c for c in calls if c is not None]
    found: list[tuple[str | None, str | None, dict[str, Any]]] = []
    if mode == "--postgresql":
        setup = [read_file(FUNCTION)]
        asks = []
        for c in asked:
            args = ", ".join(quote(d.column) + " => " + literal(x) for d, x in zip(DOOR, c.values))
            # The call inside a subquery: `FROM f(...) AS "_r"` names the column of a
            # function returning one column (a rule with one output and no table) "_r" too.
            call = "SELECT * FROM " + quote(NAME) + "(" + args + ")"
            asks.append("SELECT json_build_object('row', row_to_json(\"_r\"))::text FROM (" + call + ') AS "_r"')
        for got in psql(setup, asks):
            if "row" in got:
                found.append((None, None, got["row"]))
            elif got["state"] == "22023":
                found.append((got["message"], None, {}))
            elif got["state"] == "P0001":
                found.append((None, got["message"], {}))
            else:
                found.append((got["state"] + " " + got["message"], None, {}))
    else:
        rows = [c.values for c in asked]
        if mode == "--postgresql-query":
            columns = [(d.column, numeric_type(d)) for d in DOOR]
            setup = [read_file(FUNCTION)] if os.path.exists(FUNCTION) else []
            got_rows = postgresql_query(read_file(QUERY), NAME, setup, RELATION, columns, rows)
        elif mode == "--duckdb":
            columns = [(d.column, duckdb_type(d)) for d in DOOR]
            got_rows = duckdb(read_file(DUCKDB_QUERY), NAME, RELATION, columns, rows)
        else:
            got_rows = sqlite(read_file(QUERY), NAME, RELATION, [d.column for d in DOOR], rows)
        by_id = {int(r["_id"]): r for r in got_rows}
        for i in range(len(asked)):
            r = by_id[i]
            found.append((r["_input_error"], r.get("_contradiction"), r))
    out = []
    answers = iter(found)
    for one in calls:
        if one is None:
            out.append(_refusal("input", NOT_AN_OBJECT))
        else:
            error, contradiction, row = next(answers)
            out.append(answer(one, error, contradiction, row))
    write(out)


if __name__ == "__main__":
    main()

# rulec: helpers
def main_helpers() -> None:
    """Every case {"op":…,"a":"…","b":"…"} answered {"result":"…"} by the query _helpers.sql:
    `result` the arithmetic over a divisor in a column, `by_constant` the same arithmetic
    over the divisor written in as a literal, which must agree."""
    cases = [json.loads(line) for line in lines()]
    rows = [[c["op"], int(c["a"]), int(c["b"])] for c in cases]
    mode = sys.argv[1] if len(sys.argv) > 1 else "--sqlite"
    if mode == "--postgresql":
        columns = [("op", "text"), ("a", "bigint"), ("b", "bigint")]
        got = postgresql_query(read_file("_helpers.sql"), "_helpers", [read_file("_helpers_function.sql")], "_helpers_input", columns, rows)
    elif mode == "--duckdb":
        columns = [("op", "VARCHAR"), ("a", "BIGINT"), ("b", "BIGINT")]
        got = duckdb(read_file("_helpers_duckdb.sql"), "_helpers", "_helpers_input", columns, rows)
    else:
        got = sqlite(read_file("_helpers.sql"), "_helpers", "_helpers_input", ["op", "a", "b"], rows)
    by_id = {int(r["_id"]): r for r in got}
    out = []
    for i in range(len(cases)):
        r = by_id[i]
        result, by_constant = r["result"], r["by_constant"]
        if by_constant is None or by_constant == result:
            out.append('{"result":"' + str(result) + '"}')
        else:
            out.append('{"result":"' + str(result) + '","by_constant":"' + str(by_constant) + '"}')
    write(out)


if __name__ == "__main__":
    main_helpers()
