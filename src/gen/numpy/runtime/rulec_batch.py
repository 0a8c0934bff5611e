"""rulec's batch adapters: a rule's plan (rulec_np) as one Arrow batch function, and that
function on the engines users run — Spark (an Arrow UDF, or a pandas UDF), Dask
(map_partitions), DuckDB (a Python UDF of type arrow) and Polars (map_batches). docs/batch.md
shows each one.

    batch = rulec_batch.load("parcel_rate.plan.json")
    out = batch(table)            # a pyarrow Table or RecordBatch of the inputs, by name

The batch function gives a record batch of a row per row: every output of the rule (null
where the row was refused), `refused` ("input" or "contradiction", null where decided) and
`error` (the sentence every language says), and with traced=True `trace`, the row each table
matched. refusals="raise" raises the first refusal (rulec_np's errors, with the row) instead.

Every number stays an int64: a column of floating point or decimal type is refused whole
(cast it to an integer first), and a null is read as no value, never as NaN. This module
imports pyarrow, which every one of the four engines already has; each engine's own module
is imported only by its adapter.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import rulec_np

pa: Any = importlib.import_module("pyarrow")
pc: Any = importlib.import_module("pyarrow.compute")


def load(path: str, *, traced: bool = False, refusals: str = "column", prefix: str = "") -> Batch:
    """The batch function of the plan a file holds."""
    return Batch(rulec_np.load(path), traced=traced, refusals=refusals, prefix=prefix)


def _output_type(plan: rulec_np.Plan, name: str) -> Any:
    info = plan.vars[name]
    kind = info["kind"]
    if kind == "bool":
        return pa.bool_()
    if kind == "str" or isinstance(kind, dict):
        return pa.string()
    return pa.date32() if info["date"] else pa.int64()


class Batch:
    """The plan as an Arrow batch function: the rule's inputs in, a column each (by name, or
    by place in the plan's order through `arrays`), its outputs out, a row for a row."""

    def __init__(self, plan: rulec_np.Plan, *, traced: bool = False, refusals: str = "column", prefix: str = "") -> None:
        if refusals not in ("column", "raise"):
            raise ValueError("refusals is 'column' or 'raise', not " + repr(refusals))
        self.plan = plan
        self.traced = traced
        self.refusals = refusals
        self.columns: list[str] = [c["name"] for c in plan.data["columns"]]
        self.outputs: list[str] = list(plan.data["outputs"])
        self.tables: list[str] = [s["table"] for s in plan.data["steps"] if "table" in s]
        # The tables where every row that holds counts: their trace is a list of rows.
        self.every: set[str] = {s["table"] for s in plan.data["steps"] if s.get("collect") is not None}
        fields = [pa.field(name, _output_type(plan, name)) for name in self.outputs]
        self.refused = prefix + "refused"
        self.error = prefix + "error"
        self.trace = prefix + "trace"
        if refusals == "column":
            fields += [pa.field(self.refused, pa.string()), pa.field(self.error, pa.string())]
        if traced and self.tables:
            fields.append(pa.field(self.trace, pa.struct([pa.field(t, pa.list_(pa.int64()) if t in self.every else pa.int64()) for t in self.tables])))
        names = [f.name for f in fields]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"the rule has an output named {name!r}, which the batch function also adds: pass prefix= to name its own columns apart")
        self.schema: Any = pa.schema(fields)

    # -- the inputs

    def _input(self, col: Mapping[str, Any], arr: Any) -> Any:
        """One Arrow column as the plan's door reads it: a typed NumPy column where Arrow's
        has no null, each element as a Python value where it has (None for a null)."""
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        t = arr.type
        if pa.types.is_floating(t) or pa.types.is_decimal(t):
            raise TypeError(f"{col['name']} is a column of {t}: the rule reads whole numbers exactly; cast the column to an integer (int64) first")
        if arr.null_count == 0 and (pa.types.is_integer(t) or pa.types.is_boolean(t) or pa.types.is_date(t)):
            return arr.to_numpy(zero_copy_only=False)
        text = pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
        if text and isinstance(col["kind"], dict):
            # Every name a value of the enum: the names as fixed-width text, found by Arrow's
            # own search, not one Python object an element (any other goes to the door below).
            names = self.plan.enums[col["kind"]["enum"]]
            places = pc.index_in(arr, value_set=pa.array(names, type=t))
            if places.null_count == 0 and names:
                return np.asarray(names, dtype=str)[places.to_numpy().astype(np.intp)]
        if arr.null_count == 0 and text:
            return arr.to_numpy(zero_copy_only=False)
        if pa.types.is_date(t):
            # The door reads a date with nulls as the wire writes one: "YYYY-MM-DD", or None.
            days = arr.cast(pa.date32()).cast(pa.int32()).fill_null(0).to_numpy().astype("datetime64[D]")
            out = np.datetime_as_string(days).astype(object)
            out[~arr.is_valid().to_numpy(zero_copy_only=False)] = None
            return out
        out = np.empty(len(arr), dtype=object)
        out[:] = arr.to_pylist()
        return out

    def _inputs(self, table: Any) -> dict[str, Any]:
        """Every column of the table, the rule's converted; any other is handed to the door
        as it is, which refuses it as not an input after checking the rule's own."""
        of = {c["name"]: c for c in self.plan.data["columns"]}
        return {name: self._input(of[name], table.column(name)) if name in of else table.column(name) for name in table.schema.names}

    # -- the outputs

    def _decided(self, outputs: Mapping[str, Any], rows: Mapping[str, Any], n: int) -> list[Any]:
        arrays = []
        for name in self.outputs:
            data = outputs[name]
            mask = np.ma.getmaskarray(data) if isinstance(data, np.ma.MaskedArray) else None
            values = np.asarray(np.ma.getdata(data))
            kind = self.plan.vars[name]
            if kind["date"]:
                values = values.astype(np.int64).astype("datetime64[D]")
            arrays.append(pa.array(values, type=self.schema.field(name).type, mask=mask))
        if self.refusals == "column":
            arrays += [pa.nulls(n, pa.string()), pa.nulls(n, pa.string())]
        if self.traced and self.tables:
            arrays.append(self._trace(rows))
        return arrays

    def _trace(self, rows: Mapping[str, Any]) -> Any:
        return pa.StructArray.from_arrays([self._rows_of(t, np.asarray(rows[t], dtype=np.int64)) for t in self.tables], names=self.tables)

    def _rows_of(self, table: str, rows: Any) -> Any:
        """A table's trace column: the row it matched; for one where every row that holds
        counts, the list of their numbers, in the order they count (rulec_np gives them as an
        n x k array, 0 where a row does not hold)."""
        if table not in self.every:
            return pa.array(rows, type=pa.int64())
        held = rows != 0
        offsets = np.concatenate([[0], np.cumsum(held.sum(axis=1))]).astype(np.int32)
        return pa.ListArray.from_arrays(pa.array(offsets, type=pa.int32()), pa.array(rows[held], type=pa.int64()))

    def _refusal(self, kind: str, what: str) -> list[Any]:
        arrays = [pa.nulls(1, f.type) for f in self.schema]
        at = self.schema.get_field_index(self.refused)
        arrays[at] = pa.array([kind], type=pa.string())
        arrays[at + 1] = pa.array([what], type=pa.string())
        return arrays

    # -- the call

    def __call__(self, table: Any) -> Any:
        """A record batch of the outputs of every row of `table` (a pyarrow Table or
        RecordBatch whose columns are the rule's inputs, by name)."""
        n = table.num_rows
        columns = self._inputs(table)
        if n == 0:
            return pa.RecordBatch.from_arrays(self._empty(), schema=self.schema)
        if self.refusals == "raise":
            outputs, rows = self.plan.traced(columns)
            return pa.RecordBatch.from_arrays(self._decided(outputs, rows, n), schema=self.schema)
        return pa.RecordBatch.from_arrays(self._rows(columns, n), schema=self.schema)

    def arrays(self, arrays: Sequence[Any]) -> Any:
        """The same over the inputs as arrays in the plan's order (`columns`): a struct
        array of the outputs, what a UDF of an engine returns."""
        if len(arrays) != len(self.columns):
            raise TypeError(f"the rule takes {len(self.columns)} columns ({', '.join(self.columns)}), not {len(arrays)}")
        chunks = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
        table = pa.Table.from_arrays(chunks, names=self.columns)
        return self(table).to_struct_array()

    def _empty(self) -> list[Any]:
        return [pa.array([], type=f.type) for f in self.schema]

    def _rows(self, columns: dict[str, Any], n: int) -> list[Any]:
        """Every row decided, each refused row with its own refusal. The door refuses the
        first element that fails in its order, and for that row alone the same check is the
        first to fail (every earlier check passed every row), so the row is refused with it
        and the rows on either side are decided again, apart."""
        pieces: list[tuple[int, list[Any]]] = []
        pending = [(0, n)]
        while pending:
            lo, hi = pending.pop()
            if lo == hi:
                continue
            part = columns if (lo, hi) == (0, n) else {k: v[lo:hi] for k, v in columns.items()}
            try:
                outputs, rows = self.plan.traced(part)
            except rulec_np.RuleInputError as e:
                if e.row is None:
                    raise
                pieces.append((lo + e.row, self._refusal("input", e.what)))
                pending += [(lo, lo + e.row), (lo + e.row + 1, hi)]
                continue
            except rulec_np.RuleContradictionError as e:
                if e.row is None:
                    raise
                pieces.append((lo + e.row, self._refusal("contradiction", e.what)))
                pending += [(lo, lo + e.row), (lo + e.row + 1, hi)]
                continue
            pieces.append((lo, self._decided(outputs, rows, hi - lo)))
        if not pieces:
            return self._empty()
        if len(pieces) == 1:
            return pieces[0][1]
        pieces.sort(key=lambda p: p[0])
        return [pa.concat_arrays([p[1][i] for p in pieces]) for i in range(len(self.schema))]


def _positional(batch: Batch) -> Callable[..., Any]:
    """The batch function over the rule's columns as arrays in the plan's order, with a
    signature of that many parameters: the engines count them."""

    def decide(*arrays: Any) -> Any:
        return batch.arrays(arrays)

    place = inspect.Parameter.POSITIONAL_ONLY
    params = [inspect.Parameter(f"column_{i}", place, annotation=pa.Array) for i in range(len(batch.columns))]
    setattr(decide, "__signature__", inspect.Signature(params, return_annotation=pa.Array))
    decide.__annotations__ = {p.name: pa.Array for p in params} | {"return": pa.Array}
    return decide


def _engine(name: str, install: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise ImportError(f"{name} is not installed: {install}") from e


# -- Spark


def spark_udf(batch: Batch) -> Any:
    """The batch function as a Spark Arrow UDF (pyspark 4.1 and later; Arrow arrays in and
    out, so no integer passes through pandas' float64 for a null), called on the rule's
    columns in the plan's order; `spark_column` calls it."""
    functions = _engine("pyspark.sql.functions", "pip install pyspark")
    types = _engine("pyspark.sql.pandas.types", "pip install pyspark")
    return functions.arrow_udf(_positional(batch), types.from_arrow_schema(batch.schema))


def spark_column(batch: Batch) -> Any:
    """The outputs of every row of a Spark DataFrame with the rule's columns, as one struct
    column: `df.withColumn("decided", spark_column(batch))`."""
    functions = _engine("pyspark.sql.functions", "pip install pyspark")
    # Each name quoted, so that a dot in one is not read as a field of a struct.
    return spark_udf(batch)(*[functions.col("`" + name.replace("`", "``") + "`") for name in batch.columns])


def spark_pandas_udf(batch: Batch) -> Any:
    """The batch function as a Spark pandas UDF, for a Spark session with
    spark.sql.execution.pythonUDF.pandas.preferIntExtensionDtype=true: without it, Spark hands
    a long column with a null to pandas as float64, which the batch function refuses rather
    than read a double. Called on the rule's columns in the plan's order, as spark_udf is."""
    functions = _engine("pyspark.sql.functions", "pip install pyspark")
    types = _engine("pyspark.sql.pandas.types", "pip install pyspark")
    pd = _engine("pandas", "pip install pandas")

    def decide(*series: Any) -> Any:
        for s in series:
            if getattr(s.dtype, "kind", "") == "f":
                raise TypeError(f"a column came to the pandas UDF as {s.dtype}: set spark.sql.execution.pythonUDF.pandas.preferIntExtensionDtype to true, or use spark_udf (an Arrow UDF)")
        arrays = [pa.Array.from_pandas(s) for s in series]
        # An integer with a null back as a Python int, not a float64 with NaN.
        return pa.Table.from_batches([batch(pa.Table.from_arrays(arrays, names=batch.columns))]).to_pandas(integer_object_nulls=True, date_as_object=True)

    place = inspect.Parameter.POSITIONAL_ONLY
    params = [inspect.Parameter(f"column_{i}", place, annotation=pd.Series) for i in range(len(batch.columns))]
    setattr(decide, "__signature__", inspect.Signature(params, return_annotation=pd.DataFrame))
    decide.__annotations__ = {p.name: pd.Series for p in params} | {"return": pd.DataFrame}
    return functions.pandas_udf(decide, types.from_arrow_schema(batch.schema))


# -- Dask (and pandas)


def pandas_frame(batch: Batch) -> Callable[[Any], Any]:
    """The batch function over a pandas DataFrame (what Dask's map_partitions hands each
    partition): the outputs as a frame of Arrow-backed columns, on the partition's index."""
    pd = _engine("pandas", "pip install pandas")

    def decide(frame: Any) -> Any:
        for name, dtype in frame.dtypes.items():
            if getattr(dtype, "kind", "") == "f":
                raise TypeError(f"{name} is a column of {dtype}: the rule reads whole numbers exactly; hold integers with nulls as Int64 or an Arrow dtype (dtype_backend='pyarrow'), not float64")
        table = pa.Table.from_pandas(frame, preserve_index=False)
        out = pa.Table.from_batches([batch(table)]).to_pandas(types_mapper=pd.ArrowDtype)
        out.index = frame.index
        return out

    return decide


def pandas_meta(batch: Batch) -> Any:
    """An empty frame of the columns and dtypes pandas_frame gives: Dask's `meta`."""
    pd = _engine("pandas", "pip install pandas")
    return batch.schema.empty_table().to_pandas(types_mapper=pd.ArrowDtype)


def dask_frame(batch: Batch, frame: Any) -> Any:
    """The outputs of every row of a Dask DataFrame, a partition at a time."""
    return frame.map_partitions(pandas_frame(batch), meta=pandas_meta(batch))


# -- DuckDB


_DUCKDB_TYPES = {"integer": "BIGINT", "boolean": "BOOLEAN", "text": "VARCHAR", "date": "DATE"}


def duckdb_type(t: Any) -> str:
    """An Arrow type of the batch's schema in DuckDB's spelling."""
    if pa.types.is_struct(t):
        return "STRUCT(" + ", ".join(_duckdb_name(f.name) + " " + duckdb_type(f.type) for f in t) + ")"
    if pa.types.is_list(t):
        return duckdb_type(t.value_type) + "[]"
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_string(t):
        return "VARCHAR"
    return "DATE" if pa.types.is_date(t) else "BIGINT"


def _duckdb_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def duckdb_function(batch: Batch, connection: Any, name: str) -> None:
    """The batch function as a DuckDB scalar function of type arrow on `connection`: called
    on the rule's columns in the plan's order, a STRUCT of the outputs. A null is handed to
    the rule (null_handling special), which reads it as no value."""
    _engine("duckdb", "pip install duckdb")
    params = [connection.type(_DUCKDB_TYPES.get(c["kind"], "VARCHAR") if isinstance(c["kind"], str) else "VARCHAR") for c in batch.plan.data["columns"]]
    returns = connection.type(duckdb_type(pa.struct(list(batch.schema))))
    connection.create_function(name, _positional(batch), params, returns, type="arrow", null_handling="special", side_effects=False)


# -- Polars


def polars_expr(batch: Batch) -> Any:
    """The batch function as a Polars expression over the rule's columns (by name): a struct
    of the outputs, a batch of rows at a time (map_batches)."""
    pl = _engine("polars", "pip install polars")

    def decide(series: Any) -> Any:
        struct = series.to_arrow()
        if isinstance(struct, pa.ChunkedArray):
            struct = struct.combine_chunks()
        return pl.Series(series.name, batch.arrays([struct.field(i) for i in range(len(batch.columns))]))

    dtype = pl.from_arrow(pa.Table.from_batches([], schema=batch.schema)).schema
    return pl.struct(batch.columns).map_batches(decide, return_dtype=pl.Struct(dict(dtype)))
