#!/usr/bin/env bash
# Calls per second of the generated TypeScript parcel_rate, built with tsc and run with node,
# over the whole domain of the rule — weight 1..70 × girth 1..130 × 3 zones × 2 booleans =
# 54,600 calls — repeated until a second has passed. Prints one line: `typescript <calls/s> calls/s`.
#
#   benches/typescript_parcel_rate.sh        (RULEC=path/to/rulec, RULEC_TSC=path/to/tsc)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tsc="${RULEC_TSC:-tsc}"
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
"$rulec" gen "$root/tests/corpus/parcel_rate.rule" --lang typescript --out "$work" --lock "$work/rulec.lock" >/dev/null
cd "$work/typescript"
cat > bench.ts <<'TS'
import { parcel_rate, Zone } from "./parcel_rate.ts";
import type { Pounds, Inches, USD } from "./parcel_rate.ts";

const proc = (globalThis as unknown as {
  process: { hrtime: { bigint(): bigint }; stdout: { write(s: string): unknown } };
}).process;

const calls: [Pounds, Inches, Zone, boolean][] = [];
for (let w = 1n; w <= 70n; w++) {
  for (let g = 1n; g <= 130n; g++) {
    for (const z of [Zone.DOMESTIC, Zone.CANADA, Zone.OVERSEAS]) {
      for (const s of [false, true]) {
        calls.push([w as Pounds, g as Inches, z, s]);
      }
    }
  }
}
if (calls.length !== 54600) {
  throw new Error("the domain has 54600 points, not " + calls.length);
}
let sink: bigint = 0n;
for (const c of calls) {
  sink += parcel_rate(c[0], c[1], c[2], c[3]) as USD;
}
let n = 0;
const t0 = proc.hrtime.bigint();
let ns = 0n;
do {
  for (const c of calls) {
    sink += parcel_rate(c[0], c[1], c[2], c[3]);
  }
  n += calls.length;
  ns = proc.hrtime.bigint() - t0;
} while (ns < 1000000000n);
if (sink < 0n) {
  throw new Error("unreachable");
}
proc.stdout.write("typescript " + Math.round(n / (Number(ns) / 1e9)) + " calls/s\n");
TS
"$tsc" --strict --erasableSyntaxOnly --target es2022 --lib es2022 --module es2022 --moduleResolution bundler \
  --rewriteRelativeImportExtensions --outDir .tsbuild bench.ts
printf '{"type":"module"}\n' > .tsbuild/package.json
node .tsbuild/bench.js
