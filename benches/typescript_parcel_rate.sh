#!/usr/bin/env bash
# The generated TypeScript parcel_rate, built with tsc and run with node, against a
# hand-written TypeScript function over bigints, in one process, over the whole domain of
# the rule — weight 1..70 × girth 1..130 × 3 zones × 2 booleans = 54,600 calls a pass. It
# first asserts the two give the same fee on every input, then times them in alternating
# rounds (at least 0.5 s each) over the domain in its sweep order and in one fixed shuffled
# order (the xorshift64 Fisher–Yates pass of benches/parcel_rate.rs, the same on every
# machine), and prints for each order the calls per second of each and the median of the
# rounds' ratios.
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

const proc = globalThis as unknown as {
  process: { hrtime: { bigint(): bigint }; stdout: { write(s: string): unknown } };
};

/** parcel_rate as a TypeScript programmer would write it, over bigints, checking nothing. */
function handParcelRate(weight: Pounds, girth: Inches, dest: Zone, signature: boolean): USD {
  const size = girth > 60n ? "large" : weight > 10n ? "medium" : "small";
  let base: bigint;
  if (dest === Zone.DOMESTIC) {
    base = size === "small" ? 8n : size === "medium" ? 12n : 20n;
  } else if (dest === Zone.CANADA) {
    base = size === "small" ? 10n : size === "medium" ? 15n : 25n;
  } else {
    base = size === "small" ? 18n : size === "medium" ? 30n : 45n;
  }
  const fuel = dest === Zone.OVERSEAS ? 20n : 10n;
  const surcharge = (base * fuel + 99n) / 100n; // rounded up: every amount here is positive
  const sig = signature ? (dest === Zone.OVERSEAS ? 5n : 2n) : 0n;
  return (base + surcharge + sig) as USD;
}

type Fee = (weight: Pounds, girth: Inches, dest: Zone, signature: boolean) => USD;

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
for (const c of calls) {
  const a = parcel_rate(c[0], c[1], c[2], c[3]);
  const b = handParcelRate(c[0], c[1], c[2], c[3]);
  if (a !== b) {
    throw new Error("generated " + a + " but hand-written " + b + " for " + c.join(","));
  }
}

/** The domain in one fixed shuffled order: benches/parcel_rate.rs's xorshift64 Fisher–Yates pass. */
function shuffled<T>(xs: T[]): T[] {
  const out = xs.slice();
  const mask = (1n << 64n) - 1n;
  let x = 0x2545f4914f6cdd1dn;
  for (let i = out.length - 1; i >= 1; i--) {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    const j = Number(x % BigInt(i + 1));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}
const mixed = shuffled(calls);

/** Calls per second of `f` over `inputs`, passes repeated for at least half a second. */
function rate(f: Fee, inputs: [Pounds, Inches, Zone, boolean][]): number {
  let sink = 0n;
  let n = 0;
  const t0 = proc.process.hrtime.bigint();
  let ns = 0n;
  do {
    for (const c of inputs) {
      sink += f(c[0], c[1], c[2], c[3]);
    }
    n += inputs.length;
    ns = proc.process.hrtime.bigint() - t0;
  } while (ns < 500000000n);
  if (sink < 0n) {
    throw new Error("unreachable");
  }
  return n / (Number(ns) / 1e9);
}

for (const [order, inputs] of [["in sweep order", calls], ["shuffled", mixed]] as const) {
  const rounds: { generated: number; hand: number }[] = [];
  for (let r = 0; r < 7; r++) {
    rounds.push({ generated: rate(parcel_rate, inputs), hand: rate(handParcelRate, inputs) });
  }
  const ratios = rounds.map((r) => r.hand / r.generated).sort((a, b) => a - b);
  const best = (k: "generated" | "hand") => Math.round(Math.max(...rounds.map((r) => r[k])));
  proc.process.stdout.write("typescript, the domain " + order + ": generated " + best("generated") + " calls/s, hand-written " + best("hand") +
    " calls/s, generated takes " + ratios[3].toFixed(2) + "x the hand-written time (median of 7 rounds; " +
    ratios[0].toFixed(2) + "x-" + ratios[6].toFixed(2) + "x)" + "\n");
}
TS
"$tsc" --strict --erasableSyntaxOnly --target es2022 --lib es2022 --module es2022 --moduleResolution bundler \
  --rewriteRelativeImportExtensions --outDir .tsbuild bench.ts
printf '{"type":"module"}\n' > .tsbuild/package.json
node .tsbuild/bench.js
