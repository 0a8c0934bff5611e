// The WASI host `rulec test` runs the Rust runner under when it is built for wasm32-wasip1:
// node's own `node:wasi`, the runner's stdin, stdout and stderr its own. The Rust backend
// writes it beside the runners as `_wasi_runner.mjs`; the module is its first argument.
//
//   node --no-warnings _wasi_runner.mjs parcel_rate_runner.wasm < vectors/parcel_rate.jsonl

import { readFileSync } from "node:fs";
import { WASI } from "node:wasi";

const path = process.argv[2];
const wasi = new WASI({ version: "preview1", args: [path], env: {}, returnOnExit: true });
const module = await WebAssembly.compile(readFileSync(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
