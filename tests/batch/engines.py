"""tests/batch.rs's driver: every vector of each rule run through one engine's adapter of
rulec_batch, one table a rule, and each answer written as the record `rulec test` compares.

    PYTHONPATH=OUT/numpy python3 -B engines.py ENGINE OUT ALIAS...

writes OUT/batch/WAY/ALIAS.jsonl for each way the engine runs the batch function (Spark:
spark and spark_pandas; the others one, named as the engine), a line for each line of OUT/vectors/ALIAS.jsonl: the
record or refusal the engine gave, or {"skipped": why} for a call no typed table can hold
(a value of another kind than its column's, a key that is not an input, a line that is not
an object). The engine's session is started once for every rule.
"""

import datetime
import json
import os
import sys
from typing import Any

import pyarrow as pa

import rulec_batch
import rulec_np
import rulec_np_runner as runner

_ROW = "__rulec_row"
_INT64 = (-(2**63), 2**63 - 1)


def _typed(plan: rulec_np.Plan, col: dict[str, Any], x: Any) -> tuple[bool, Any]:
    """Whether a table's column of the input's kind holds x, and the value it holds."""
    if x is None:
        return True, None
    kind = col["kind"]
    if kind == "integer":
        return isinstance(x, int) and not isinstance(x, bool) and _INT64[0] <= x <= _INT64[1], x
    if kind == "boolean":
        return isinstance(x, bool), x
    if kind == "date":
        days = rulec_np._days(x) if isinstance(x, str) else None
        return days is not None, days
    return isinstance(x, str), x


def _arrow_type(col: dict[str, Any]) -> Any:
    kind = col["kind"]
    return {"integer": pa.int64(), "boolean": pa.bool_(), "date": pa.int32()}.get(kind, pa.string()) if isinstance(kind, str) else pa.string()


def _table(plan: rulec_np.Plan, lines: list[str]) -> tuple[Any, list[Any]]:
    """The table of the calls a typed table holds, and for each line its call or why not."""
    columns = plan.data["columns"]
    names = {c["name"] for c in columns}
    calls: list[Any] = []
    rows: list[list[Any]] = []
    for line in lines:
        call = runner._call_of(line)
        if not isinstance(call, dict):
            calls.append("not an object")
            continue
        if any(k not in names for k in call):
            calls.append("a key that is not an input")
            continue
        typed = [_typed(plan, c, call.get(c["name"])) for c in columns]
        if not all(ok for ok, _ in typed):
            calls.append("a value of another kind than its column")
            continue
        calls.append(call)
        rows.append([v for _, v in typed])
    arrays = []
    for i, col in enumerate(columns):
        arr = pa.array([r[i] for r in rows], type=_arrow_type(col))
        arrays.append(arr.cast(pa.date32()) if col["kind"] == "date" else arr)
    arrays.append(pa.array(range(len(rows)), type=pa.int64()))
    return pa.Table.from_arrays(arrays, names=[c["name"] for c in columns] + [_ROW]), calls


def _days(x: Any) -> Any:
    return (x - datetime.date(1970, 1, 1)).days if isinstance(x, datetime.date) else x


def _record(plan: rulec_np.Plan, batch: rulec_batch.Batch, call: dict[str, Any], out: dict[str, Any]) -> str:
    if out["refused"] is not None:
        return runner._refusal(out["refused"], out["error"])
    # The inputs as the door reads them, as the NumPy runner echoes them.
    read = plan.read({k: rulec_np.np.array([v], dtype=object) for k, v in call.items()})[1]
    parts = []
    for col in plan.data["columns"]:
        data, present = read[col["name"]]
        parts.append(json.dumps(col["name"], ensure_ascii=False) + ":" + runner._wire(plan, col["name"], data[0], present is None or bool(present[0])))
    observed = [json.dumps(n, ensure_ascii=False) + ":" + runner._wire(plan, n, _days(out[n]), out[n] is not None) for n in batch.outputs]
    # A table where every row that holds counts has a list of them.
    fired = [(t, r) for t in batch.tables for r in (out["trace"][t] if t in batch.every else [out["trace"][t]])]
    trace = ['{"table":' + json.dumps(t, ensure_ascii=False) + ',"row":' + str(int(r)) + "}" for t, r in fired]
    return '{"in":{' + ",".join(parts) + '},"observed":{' + ",".join(observed) + '},"trace":[' + ",".join(trace) + "]}"


class Spark:
    def __init__(self) -> None:
        from pyspark.sql import SparkSession

        # Small Arrow batches, so that a rule's rows cross several calls of the UDF.
        self.session = (
            SparkSession.builder.master("local[1]")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "16")
            # The pandas UDF gets a long column with a null as Int64, not float64.
            .config("spark.sql.execution.pythonUDF.pandas.preferIntExtensionDtype", "true")
            .getOrCreate()
        )
        self.session.sparkContext.setLogLevel("ERROR")

    def run(self, batch: rulec_batch.Batch, table: Any) -> dict[str, list[dict[str, Any]]]:
        from pyspark.sql import functions

        df = self.session.createDataFrame(table)
        columns = [functions.col("`" + name.replace("`", "``") + "`") for name in batch.columns]
        ways = {"spark": rulec_batch.spark_column(batch), "spark_pandas": rulec_batch.spark_pandas_udf(batch)(*columns)}
        answers = {}
        for way, column in ways.items():
            rows = df.select(_ROW, column.alias("r")).collect()
            answers[way] = [r["r"].asDict(recursive=True) for r in sorted(rows, key=lambda r: int(r[_ROW]))]
        return answers


class Dask:
    def run(self, batch: rulec_batch.Batch, table: Any) -> dict[str, list[dict[str, Any]]]:
        import dask.dataframe as dd
        import pandas as pd

        frame = dd.from_pandas(table.to_pandas(types_mapper=pd.ArrowDtype), npartitions=3)
        out = rulec_batch.dask_frame(batch, frame[batch.columns]).compute()
        return {"dask": pa.Table.from_pandas(out, preserve_index=False).to_pylist()}


class Duckdb:
    def __init__(self) -> None:
        import duckdb

        self.con = duckdb.connect()
        self.n = 0

    def run(self, batch: rulec_batch.Batch, table: Any) -> dict[str, list[dict[str, Any]]]:
        self.n += 1
        name = f"rule_{self.n}"
        rulec_batch.duckdb_function(batch, self.con, name)
        self.con.register("calls", table)
        args = ", ".join(rulec_batch._duckdb_name(c) for c in batch.columns)
        query = f'SELECT {name}({args}) AS r FROM calls ORDER BY "{_ROW}"'
        return {"duckdb": [r[0] for r in self.con.execute(query).fetchall()]}


class Polars:
    def run(self, batch: rulec_batch.Batch, table: Any) -> dict[str, list[dict[str, Any]]]:
        import polars as pl

        frame = pl.from_arrow(table)
        return {"polars": frame.select(rulec_batch.polars_expr(batch).alias("r"))["r"].to_list()}


def main() -> None:
    engine_name, out_dir, aliases = sys.argv[1], sys.argv[2], sys.argv[3:]
    engine = {"spark": Spark, "dask": Dask, "duckdb": Duckdb, "polars": Polars}[engine_name]()
    for alias in aliases:
        plan = rulec_np.load(os.path.join(out_dir, "numpy", alias + ".plan.json"))
        batch = rulec_batch.Batch(plan, traced=True)
        with open(os.path.join(out_dir, "vectors", alias + ".jsonl"), encoding="utf-8") as f:
            lines = [line.strip() for line in f if line.strip()]
        table, calls = _table(plan, lines)
        # Each way the engine runs the batch function (Spark: the Arrow UDF and the pandas one).
        for way, rows in engine.run(batch, table).items():
            answers = iter(rows)
            target = os.path.join(out_dir, "batch", way)
            os.makedirs(target, exist_ok=True)
            with open(os.path.join(target, alias + ".jsonl"), "w", encoding="utf-8") as f:
                for call in calls:
                    if isinstance(call, str):
                        f.write(json.dumps({"skipped": call}) + "\n")
                    else:
                        f.write(_record(plan, batch, call, next(answers)) + "\n")


if __name__ == "__main__":
    main()
