#!/usr/bin/env bash
# The generated SQL query of parcel_rate over one million rows (its whole domain, 54,600
# calls, over and over), on SQLite (python3's sqlite3, in memory) and on PostgreSQL (the
# server libpq's environment names: PGHOST, PGPORT, PGUSER, PGDATABASE), in one script,
# against a hand-written query of the same rule on each. Every row is first checked to give
# the same fee from both queries on both engines; then each query is timed (best of three)
# as an aggregate over every column it returns, so that the engine computes them all and
# sends back one row. Prints rows/s of each and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-target/release/rulec}"
[ -x "$rulec" ] || { cargo build --release --quiet --bin rulec; rulec=target/release/rulec; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang sql --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/sql"
python3 - <<'PY'
import csv
import os
import re
import secrets
import sqlite3
import subprocess
import time

ROWS = 1_000_000
domain = [
    (w, g, z, s)
    for w in range(1, 71)
    for g in range(1, 131)
    for z in ("domestic", "canada", "overseas")
    for s in (False, True)
]
assert len(domain) == 54_600
rows = [(i, *domain[i % len(domain)]) for i in range(ROWS)]

# The query file creates the view "parcel_rate" over the relation; the generated query is
# the view, read whole.
view = open("parcel_rate.sql", encoding="utf-8").read()
generated = 'SELECT * FROM "parcel_rate"'
# parcel_rate as an SQL programmer writes it: the base rate by zone and size, the surcharge
# rounded up by hand, the door a WHERE.
hand = """SELECT "_id", "base" + ("base" * "pct" + 99) / 100 + "sig" AS "fee" FROM (
  SELECT "_id",
    CASE WHEN "dest" = 'overseas' THEN 20 ELSE 10 END AS "pct",
    CASE WHEN "signature" THEN CASE WHEN "dest" = 'overseas' THEN 5 ELSE 2 END ELSE 0 END AS "sig",
    CASE "dest"
      WHEN 'domestic' THEN CASE WHEN "girth" > 60 THEN 20 WHEN "weight" <= 10 THEN 8 ELSE 12 END
      WHEN 'canada' THEN CASE WHEN "girth" > 60 THEN 25 WHEN "weight" <= 10 THEN 10 ELSE 15 END
      ELSE CASE WHEN "girth" > 60 THEN 45 WHEN "weight" <= 10 THEN 18 ELSE 30 END
    END AS "base"
  FROM "parcel_rate_input"
  WHERE "weight" BETWEEN 1 AND 70 AND "girth" BETWEEN 1 AND 130 AND "dest" IN ('domestic', 'canada', 'overseas')
) AS "h\""""
every = (
    'SELECT count(*), sum("fee"), sum("size_of_row"), sum("base_rate_row"), sum("fuel_rate_row"), '
    'sum("signature_fee_row"), count("_input_error") FROM (\n' + generated + '\n) AS "q"'
)
fee_only = 'SELECT count(*), sum("fee") FROM (\n' + hand + '\n) AS "q"'
differ = (
    'SELECT count(*) FROM (\n' + generated + '\n) AS "g" JOIN (\n' + hand + '\n) AS "h" USING ("_id") '
    'WHERE "g"."fee" IS DISTINCT FROM "h"."fee" OR "g"."_input_error" IS NOT NULL'
)


def least(*xs):
    there = [x for x in xs if x is not None]
    return min(there) if there else None


def greatest(*xs):
    there = [x for x in xs if x is not None]
    return max(there) if there else None


db = sqlite3.connect(":memory:")
db.create_function("LEAST", -1, least, deterministic=True)
db.create_function("GREATEST", -1, greatest, deterministic=True)
db.execute('CREATE TABLE "parcel_rate_input" ("_id" INTEGER PRIMARY KEY, "weight" BIGINT, "girth" BIGINT, "dest" TEXT, "signature" BOOLEAN)')
db.executemany('INSERT INTO "parcel_rate_input" VALUES (?, ?, ?, ?, ?)', rows)
db.executescript(view)
assert db.execute(differ).fetchone() == (0,), "the two queries disagree on SQLite"


def best_sqlite(query):
    best = None
    for _ in range(3):
        start = time.perf_counter()
        answer = db.execute(query).fetchall()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return answer, best


sqlite_every, sqlite_generated = best_sqlite(every)
sqlite_fee, sqlite_hand = best_sqlite(fee_only)
assert sqlite_every[0][:2] == sqlite_fee[0], (sqlite_every, sqlite_fee)

schema = "rulec_bench_" + secrets.token_hex(4)
with open("rows.csv", "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows((i, w, g, z, "t" if s else "f") for i, w, g, z, s in rows)
script = f"""
\\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE SCHEMA "{schema}";
SET search_path TO "{schema}";
CREATE TABLE "parcel_rate_input" ("_id" bigint PRIMARY KEY, "weight" bigint, "girth" bigint, "dest" text, "signature" boolean);
\\copy "parcel_rate_input" FROM 'rows.csv' WITH (FORMAT csv)
ANALYZE "parcel_rate_input";
{view}
{differ};
\\timing on
{every};
{every};
{every};
{fee_only};
{fee_only};
{fee_only};
\\timing off
DROP SCHEMA "{schema}" CASCADE;
"""
try:
    pg = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-f", "-"], input=script, capture_output=True, text=True, check=True)
except subprocess.CalledProcessError as e:
    subprocess.run(["psql", "-X", "-q", "-c", f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'], check=False)
    raise SystemExit("psql: " + e.stderr)
out = pg.stdout.splitlines()
assert out[0] == "0", "the two queries disagree on PostgreSQL: " + out[0]
times = [float(t) / 1000 for t in re.findall(r"^Time: ([0-9.]+) ms", pg.stdout, re.M)]
answers = [line for line in out[1:] if not line.startswith("Time:")]
assert answers[0].split("|")[:2] == answers[3].split("|"), answers
assert answers[0].split("|")[:2] == [str(x) for x in sqlite_fee[0]], (answers, sqlite_fee)
pg_generated, pg_hand = min(times[0:3]), min(times[3:6])

os.remove("rows.csv")
print(f"{ROWS:,} rows of parcel_rate (fee sum {sqlite_fee[0][1]:,})")
print(f"SQLite {sqlite3.sqlite_version}   generated {ROWS / sqlite_generated:12,.0f} rows/s   hand-written {ROWS / sqlite_hand:12,.0f} rows/s   generated is {sqlite_generated / sqlite_hand:.2f}x the hand-written time")
print(f"PostgreSQL        generated {ROWS / pg_generated:12,.0f} rows/s   hand-written {ROWS / pg_hand:12,.0f} rows/s   generated is {pg_generated / pg_hand:.2f}x the hand-written time")
print(f"PostgreSQL runs the generated query {sqlite_generated / pg_generated:.2f}x as fast as SQLite")
PY
