#!/usr/bin/env bash
# Calls per second of the generated JavaScript parcel_rate (node), over the whole domain of the
# rule — weight 1..70 × girth 1..130 × 3 zones × 2 booleans = 54,600 calls — repeated until a
# second has passed. Prints one line: `javascript <calls/s> calls/s`.
#
#   benches/javascript_parcel_rate.sh        (RULEC=path/to/rulec to choose the binary)
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
"$rulec" gen "$root/tests/corpus/parcel_rate.rule" --lang javascript --out "$work" --lock "$work/rulec.lock" >/dev/null
cat > "$work/javascript/bench.mjs" <<'JS'
import { parcel_rate, Zone } from "./parcel_rate.mjs";

const calls = [];
for (let w = 1n; w <= 70n; w++) {
  for (let g = 1n; g <= 130n; g++) {
    for (const z of [Zone.DOMESTIC, Zone.CANADA, Zone.OVERSEAS]) {
      for (const s of [false, true]) {
        calls.push([w, g, z, s]);
      }
    }
  }
}
if (calls.length !== 54600) {
  throw new Error("the domain has 54600 points, not " + calls.length);
}
let sink = 0n;
for (const c of calls) {
  sink += parcel_rate(c[0], c[1], c[2], c[3]);
}
let n = 0;
const t0 = process.hrtime.bigint();
let ns = 0n;
do {
  for (const c of calls) {
    sink += parcel_rate(c[0], c[1], c[2], c[3]);
  }
  n += calls.length;
  ns = process.hrtime.bigint() - t0;
} while (ns < 1000000000n);
if (sink < 0n) {
  throw new Error("unreachable");
}
console.log("javascript " + Math.round(n / (Number(ns) / 1e9)) + " calls/s");
JS
node "$work/javascript/bench.mjs"
