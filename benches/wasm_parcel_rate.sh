#!/usr/bin/env bash
# The Wasm module of parcel_rate called from node against the generated JavaScript module,
# in one node process, over the whole domain of the rule — weight 1..70 × girth 1..130 ×
# 3 zones × 2 booleans = 54,600 calls a pass. The Wasm call takes the call's JSON text and
# answers the record line, so it is timed against the JavaScript door doing the same work
# (JSON.parse, then parcel_rate_wire, which answers the same record line), and beside the
# plain JavaScript function for scale. It first asserts the module and the JavaScript door
# answer the same line on every input, then times the three in alternating rounds (at least
# 0.5 s each) and prints the calls per second of each and the medians of the rounds' ratios.
#
#   benches/wasm_parcel_rate.sh        (RULEC=path/to/rulec to choose the binary)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rulec="${RULEC:-}"
if [ -z "$rulec" ]; then
  for c in "$root/target/release/rulec" "$root/target/debug/rulec"; do
    if [ -x "$c" ]; then rulec="$c"; break; fi
  done
fi
if [ -z "$rulec" ]; then
  cargo build --quiet --manifest-path "$root/Cargo.toml"
  rulec="$root/target/debug/rulec"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$rulec" gen "$root/tests/corpus/parcel_rate.rule" --lang javascript,wasm --out "$work" --lock "$work/rulec.lock" >/dev/null
build="$("$rulec" api "$root/tests/corpus/parcel_rate.rule" --lang wasm | python3 -c 'import json,sys; print(json.load(sys.stdin)["wasm"]["build"])')"
(cd "$work/wasm" && $build)
cat > "$work/javascript/bench.mjs" <<'JS'
import { readFileSync } from "node:fs";
import { parcel_rate, parcel_rate_wire, Zone } from "./parcel_rate.mjs";

const bytes = readFileSync(new URL("../wasm/parcel_rate.wasm", import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, {});
const ex = instance.exports;
const decoder = new TextDecoder();

/** `call: func(input: string) -> string` through the canonical ABI, on UTF-8 bytes. */
function wasmCall(input) {
  const ptr = ex.cabi_realloc(0, 0, 1, input.length);
  new Uint8Array(ex.memory.buffer, ptr, input.length).set(input);
  const ret = ex.call(ptr, input.length);
  const [at, n] = new Uint32Array(ex.memory.buffer, ret, 2);
  const answer = decoder.decode(new Uint8Array(ex.memory.buffer, at, n));
  ex.cabi_post_call(ret);
  return answer;
}

const encoder = new TextEncoder();
const calls = [];
for (let w = 1n; w <= 70n; w++) {
  for (let g = 1n; g <= 130n; g++) {
    for (const [z, name] of [[Zone.DOMESTIC, "domestic"], [Zone.CANADA, "canada"], [Zone.OVERSEAS, "overseas"]]) {
      for (const s of [false, true]) {
        const text = `{"weight":${w},"girth":${g},"dest":"${name}","signature":${s}}`;
        calls.push({ args: [w, g, z, s], text, bytes: encoder.encode(text) });
      }
    }
  }
}
if (calls.length !== 54600) {
  throw new Error("the domain has 54600 points, not " + calls.length);
}
for (const c of calls) {
  const a = wasmCall(c.bytes);
  const b = parcel_rate_wire(JSON.parse(c.text));
  if (a !== b) {
    throw new Error("the module answers " + a + " but the JavaScript door " + b + " for " + c.text);
  }
  if (!a.includes(`"observed":{"fee":${parcel_rate(...c.args)}}`)) {
    throw new Error("the record " + a + " is not the fee of parcel_rate for " + c.text);
  }
}

const passes = {
  wasm: (c) => wasmCall(c.bytes).length,
  door: (c) => parcel_rate_wire(JSON.parse(c.text)).length,
  plain: (c) => Number(parcel_rate(c.args[0], c.args[1], c.args[2], c.args[3])),
};

/** Calls per second of `f` over the domain, passes repeated for at least half a second. */
function rate(f) {
  let sink = 0;
  let n = 0;
  const t0 = process.hrtime.bigint();
  let ns = 0n;
  do {
    for (const c of calls) {
      sink += f(c);
    }
    n += calls.length;
    ns = process.hrtime.bigint() - t0;
  } while (ns < 500000000n);
  if (sink < 0) {
    throw new Error("unreachable");
  }
  return n / (Number(ns) / 1e9);
}

const rounds = [];
for (let r = 0; r < 7; r++) {
  rounds.push({ wasm: rate(passes.wasm), door: rate(passes.door), plain: rate(passes.plain) });
}
const median = (k) => {
  const xs = rounds.map((r) => r[k] / r.wasm).sort((a, b) => a - b);
  return xs[3].toFixed(2) + "x (" + xs[0].toFixed(2) + "x-" + xs[6].toFixed(2) + "x)";
};
const best = (k) => Math.round(Math.max(...rounds.map((r) => r[k])));
console.log("wasm call (JSON text in, record line out): " + best("wasm") + " calls/s");
console.log("javascript JSON.parse + parcel_rate_wire (the same work): " + best("door") + " calls/s");
console.log("javascript parcel_rate (the plain function): " + best("plain") + " calls/s");
console.log("the wasm call takes " + median("door") + " the time of JSON.parse + parcel_rate_wire, and " +
  median("plain") + " the time of the plain function");
console.log("(median of 7 rounds, range in parentheses)");
JS
node "$work/javascript/bench.mjs"
