#!/usr/bin/env bash
# parcel_rate over 10,000,000 rows on each engine of rulec_batch.py — Spark (the Arrow UDF,
# local mode), Dask (map_partitions), DuckDB (the Python UDF of type arrow) and Polars
# (map_batches) — and the NumPy plan alone for scale. The rows (the whole domain of 54,600
# inputs, repeated) are written once to a Parquet file of 1,000,000-row groups, and each engine
# reads it, decides every row and sums the fees: the sum is first checked against the plan's
# own on the same rows, then one run is timed (after a warm-up run on 100,000 rows). Prints
# rows/s and rows/s per core, with the cores each engine was given (BATCH_CORES, default 2).
# BATCH_ROWS changes the number of rows; BATCH_ENGINES (spark,dask,duckdb,polars) the engines.
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-target/release/rulec}"
[ -x "$rulec" ] || { cargo build --release --quiet --bin rulec; rulec=target/release/rulec; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang numpy --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/numpy"
python3 -B - <<'PY'
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import rulec_batch
import rulec_np

ROWS = int(os.environ.get("BATCH_ROWS", "10000000"))
CORES = int(os.environ.get("BATCH_CORES", "2"))
ENGINES = os.environ.get("BATCH_ENGINES", "spark,dask,duckdb,polars").split(",")
os.environ["POLARS_MAX_THREADS"] = str(CORES)


def write(path, n):
    w, g, z, s = np.meshgrid(np.arange(1, 71), np.arange(1, 131), np.arange(3), np.array([False, True]), indexing="ij")
    reps = -(-n // w.size)
    dest = np.array(["domestic", "canada", "overseas"])[np.tile(z.ravel(), reps)[:n]]
    table = pa.table({
        "weight": np.tile(w.ravel(), reps)[:n].astype(np.int64),
        "girth": np.tile(g.ravel(), reps)[:n].astype(np.int64),
        "dest": pa.array(dest, pa.string()),
        "signature": np.tile(s.ravel(), reps)[:n],
    })
    pq.write_table(table, path, row_group_size=1_000_000)
    return table


plan = rulec_np.load("parcel_rate.plan.json")
batch = rulec_batch.Batch(plan)
small, big = "small.parquet", "big.parquet"
write(small, 100_000)
table = write(big, ROWS)
cols = {name: table.column(name).to_numpy() for name in table.column_names}


def spark(path):
    from pyspark.sql import SparkSession, functions as F

    session = (
        SparkSession.builder.master(f"local[{CORES}]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000")
        .config("spark.driver.memory", "4g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    df = session.read.parquet(path)
    return df.select(rulec_batch.spark_column(batch).alias("r")).agg(F.sum("r.fee")).collect()[0][0]


def dask(path):
    import dask
    import dask.dataframe as dd

    frame = dd.read_parquet(path, dtype_backend="pyarrow", split_row_groups=True)
    with dask.config.set(scheduler="threads", num_workers=CORES):
        return int(rulec_batch.dask_frame(batch, frame)["fee"].sum().compute())


def duckdb(path):
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {CORES}")
    rulec_batch.duckdb_function(batch, con, "parcel_rate")
    query = f"SELECT sum(r.fee) FROM (SELECT parcel_rate(weight, girth, dest, signature) AS r FROM read_parquet('{path}'))"
    return int(con.execute(query).fetchone()[0])


def polars(path):
    import polars as pl

    expr = rulec_batch.polars_expr(batch).struct.field("fee").sum()
    return int(pl.scan_parquet(path).select(expr).collect().item())


start = time.perf_counter()
want = int(plan.call(cols)["fee"].sum())
alone = ROWS / (time.perf_counter() - start)
print(f"{ROWS:,} rows of parcel_rate; {os.cpu_count()} cores here")
print(f"{'numpy plan, one call':24} {alone:14,.0f} rows/s   1 core    {alone:12,.0f} rows/s per core   ({ROWS / alone:.1f} s)")
for name in ENGINES:
    run = {"spark": spark, "dask": dask, "duckdb": duckdb, "polars": polars}[name]
    run(small)
    start = time.perf_counter()
    got = run(big)
    took = time.perf_counter() - start
    assert got == want, f"{name}: the fees sum to {got}, the plan's to {want}"
    print(f"{name:24} {ROWS / took:14,.0f} rows/s   {CORES} cores   {ROWS / took / CORES:12,.0f} rows/s per core   ({took:.1f} s)")
PY
