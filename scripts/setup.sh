#!/usr/bin/env bash
# Install every toolchain the tests use, from the registries this machine reaches
# (Debian, PyPI, npm, rustup). Idempotent: what is already there is left alone.
# Source it (`. scripts/setup.sh`) so RULEC_TSC and PATH reach the caller.
set -euo pipefail

rustup component add clippy rustfmt >/dev/null 2>&1 || rustup component add clippy rustfmt

need_apt=()
command -v go >/dev/null 2>&1 || need_apt+=(golang-go)
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-pip)
command -v ruby >/dev/null 2>&1 || need_apt+=(ruby)
command -v php >/dev/null 2>&1 || need_apt+=(php-cli php-mbstring)
# git: the production loop's tests read rules at git revisions (`rules/x.rule@HEAD~1`).
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_apt[*]}"
  apt-get update -qq
  mkdir -p /usr/share/man/man1   # the JDK's postinst needs it on slim images
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if ! command -v ruff >/dev/null 2>&1 || ! command -v mypy >/dev/null 2>&1 \
    || ! python3 -c "import numpy, tree_sitter, tree_sitter_swift, z3" 2>/dev/null; then
  # tree-sitter's Swift grammar: the syntax check of the generated Swift (swiftc cannot be installed here).
  # z3-solver: the SMT cross-check of the table verdicts (tests/smt.rs).
  echo "setup: pip install ruff mypy numpy tree-sitter tree-sitter-swift z3-solver"
  pip_args=(-q ruff mypy numpy tree-sitter tree-sitter-swift z3-solver)
  python3 -m pip install "${pip_args[@]}" 2>/dev/null || python3 -m pip install --break-system-packages "${pip_args[@]}"
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi

ts_dir="${RULEC_TOOLS:-$HOME/.cache/rulec-tools}/typescript"
if [ ! -x "$ts_dir/node_modules/.bin/tsc" ]; then
  echo "setup: npm install typescript@5"
  npm install --prefix "$ts_dir" --no-audit --no-fund --silent typescript@5 >/dev/null
fi
export RULEC_TSC="$ts_dir/node_modules/.bin/tsc"
export PATH="$ts_dir/node_modules/.bin:$PATH"

# The page's browser test (tests/page.rs): Debian's chromium and chromium-driver, a font
# to draw the screenshot with, and Selenium from PyPI to drive them (no browser download).
need_browser=()
[ -x /usr/bin/chromium ] || need_browser+=(chromium)
[ -x /usr/bin/chromedriver ] || need_browser+=(chromium-driver)
[ -d /usr/share/fonts/truetype/dejavu ] || need_browser+=(fonts-dejavu-core)
if [ ${#need_browser[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_browser[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_browser[@]}" >/dev/null
fi
if ! python3 -c "import selenium" >/dev/null 2>&1; then
  echo "setup: pip install selenium"
  python3 -m pip install -q selenium 2>/dev/null || python3 -m pip install -q --break-system-packages selenium
fi

# --- The Bazel and Make doors (tests/bazel.rs, tests/make.rs) ---
# Debian's Bazel (4.2.3) runs offline with the stand-ins of bazel/offline; make is the
# system's. BuildGrid (PyPI) is the remote-execution server the remote test builds on; its
# scheduler keeps its jobs in PostgreSQL (Debian), through psycopg2.
if ! command -v bazel >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "setup: apt-get install bazel-bootstrap make postgresql"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bazel-bootstrap make postgresql >/dev/null
fi
bgd_dir="${RULEC_TOOLS:-$HOME/.cache/rulec-tools}/buildgrid"
if [ ! -x "$bgd_dir/bin/bgd" ] || ! "$bgd_dir/bin/python" -c "import psycopg2" 2>/dev/null; then
  echo "setup: pip install buildgrid psycopg2-binary (a virtualenv in $bgd_dir)"
  python3 -m venv "$bgd_dir"
  "$bgd_dir/bin/pip" install -q buildgrid==0.4.4 psycopg2-binary==2.9.13
fi
export RULEC_BGD="$bgd_dir/bin/bgd"

# Fuzzing (scripts/fuzz.sh): libfuzzer-sys builds libFuzzer from its C++ source.
if ! command -v c++ >/dev/null 2>&1; then
  echo "setup: apt-get install g++"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++ >/dev/null
fi

# --- SQL (tests/gen_sql.rs) ---
# The query runs on SQLite through python3's own sqlite3; the function, and the query again,
# on a real PostgreSQL through psql: .ci/run starts a cluster of Debian's server and exports
# PGHOST, PGPORT, PGUSER and PGDATABASE; the DuckDB text on DuckDB (PyPI's duckdb).
if ! command -v psql >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! python3 -c "import sqlite3" >/dev/null 2>&1; then
  echo "setup: apt-get install postgresql postgresql-client"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql postgresql-client >/dev/null
fi

# DuckDB, the third engine of the query (its `_duckdb.sql` text), through its Python module.
if ! python3 -c "import duckdb" >/dev/null 2>&1; then
  echo "setup: pip install duckdb"
  python3 -m pip install -q duckdb 2>/dev/null || python3 -m pip install -q --break-system-packages duckdb
fi

# --- Batch on the engines users run (tests/batch.rs, benches/batch_parcel_rate.py) ---
# rulec_batch.py, beside the NumPy plan, on Spark (pyspark runs in local mode on the JDK
# above), Dask, DuckDB (above) and Polars, all through pyarrow. pyspark is the large one:
# about 490 MB installed, some 35 s to install here.
if ! python3 -c "import pyarrow, pandas, polars, dask.dataframe; from pyspark.sql.functions import arrow_udf" >/dev/null 2>&1; then
  echo "setup: pip install pyarrow pandas polars dask[dataframe] pyspark"
  batch_args=(-q pyarrow pandas polars "dask[dataframe]" "pyspark>=4.1")
  python3 -m pip install "${batch_args[@]}" 2>/dev/null || python3 -m pip install --break-system-packages "${batch_args[@]}"
fi

# --- Wasm and WASI (tests/gen_wasm.rs; the wasi pass of rulec test --lang rust) ---
# The two standard libraries rustc builds the module and the WASI runner with; node (above)
# instantiates the module and is the WASI host (node:wasi), so nothing else is installed.
for target in wasm32-unknown-unknown wasm32-wasip1; do
  if [ ! -d "$(rustc --print target-libdir --target "$target")" ]; then
    echo "setup: rustup target add $target"
    rustup target add "$target" >/dev/null
  fi
done

# --- The rule served (tests/serve.rs): the Connect service and its stubs ---
# buf from npm (its package carries the binary) with the two local plugins connect-python
# documents, protoc-gen-py and protoc-gen-connectrpc (PyPI); connectrpc and uvicorn serve
# the ASGI app, gunicorn the WSGI one, and hypercorn the ASGI app over HTTP/2 as well, the
# one of them that speaks gRPC (docs/serve.md). The MCP servers need nothing beyond python3
# and node.
buf_dir="${RULEC_TOOLS:-$HOME/.cache/rulec-tools}/buf"
if [ ! -x "$buf_dir/node_modules/.bin/buf" ]; then
  echo "setup: npm install @bufbuild/buf"
  npm install --prefix "$buf_dir" --no-audit --no-fund --silent @bufbuild/buf@1 >/dev/null
fi
export PATH="$buf_dir/node_modules/.bin:$PATH"
if ! python3 -c "import connectrpc, uvicorn" 2>/dev/null || ! command -v protoc-gen-py >/dev/null 2>&1 \
    || ! command -v protoc-gen-connectrpc >/dev/null 2>&1 || ! command -v hypercorn >/dev/null 2>&1 \
    || ! command -v gunicorn >/dev/null 2>&1; then
  echo "setup: pip install connectrpc protoc-gen-connectrpc protoc-gen-py uvicorn hypercorn gunicorn"
  connect_args=(-q "connectrpc==0.13.*" "protoc-gen-connectrpc==0.13.*" "protoc-gen-py==0.7.*" uvicorn "hypercorn==0.18.*" "gunicorn==27.*")
  python3 -m pip install "${connect_args[@]}" 2>/dev/null || python3 -m pip install --break-system-packages "${connect_args[@]}"
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi

# --- The editor extension (tests/vscode.rs): its packages from package-lock.json
# (vscode-textmate and vscode-oniguruma to tokenize as VS Code does, the client library,
# TypeScript and the VS Code API types), and vsce to package it.
vscode_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/editors/vscode"
if [ ! -d "$vscode_dir/node_modules/vscode-textmate" ]; then
  echo "setup: npm ci in editors/vscode"
  npm ci --prefix "$vscode_dir" --no-audit --no-fund --silent >/dev/null
fi
vsce_dir="${RULEC_TOOLS:-$HOME/.cache/rulec-tools}/vsce"
if [ ! -x "$vsce_dir/node_modules/.bin/vsce" ]; then
  echo "setup: npm install @vscode/vsce"
  npm install --prefix "$vsce_dir" --no-audit --no-fund --silent @vscode/vsce@3 >/dev/null
fi
export PATH="$vsce_dir/node_modules/.bin:$PATH"
