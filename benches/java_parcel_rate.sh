#!/bin/sh
# Calls per second of the generated Java parcel_rate over its whole domain:
# weight 1..70 x girth 1..130 x 3 zones x 2 booleans = 54,600 calls per pass, passes repeated
# for about a second after a warm-up (the JIT compiles the function first). Prints one line:
# `java <calls/s>`. Needs javac and java (JDK 17 or later) on PATH.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${RULEC:-}" ]; then
    rulec=$RULEC
else
    cargo build --quiet --manifest-path "$root/Cargo.toml" --bin rulec
    rulec=$root/target/debug/rulec
fi
"$rulec" gen "$root/tests/corpus/parcel_rate.rule" --lang java --out "$tmp" --lock "$tmp/rulec.lock" >/dev/null
cat >"$tmp/java/ParcelRateBench.java" <<'JAVA'
public final class ParcelRateBench {
    private ParcelRateBench() {
    }

    /** One pass over the whole domain; the sum keeps the JIT from dropping the calls. */
    private static long pass() {
        long sum = 0;
        ParcelRate.Zone[] zones = ParcelRate.Zone.values();
        for (long weight = 1; weight <= 70; weight++) {
            for (long girth = 1; girth <= 130; girth++) {
                for (ParcelRate.Zone dest : zones) {
                    sum += ParcelRate.parcelRate(weight, girth, dest, false);
                    sum += ParcelRate.parcelRate(weight, girth, dest, true);
                }
            }
        }
        return sum;
    }

    public static void main(String[] args) {
        long sink = 0;
        long warm = System.nanoTime();
        while (System.nanoTime() - warm < 1_000_000_000L) {
            sink += pass();
        }
        long passes = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            sink += pass();
            passes++;
            elapsed = System.nanoTime() - start;
        } while (elapsed < 1_000_000_000L);
        long calls = passes * 54_600L;
        System.out.println("java " + (calls * 1_000_000_000L / elapsed));
        if (sink == 42) {
            System.err.println(sink);
        }
    }
}
JAVA
cd "$tmp/java"
javac --release 17 -encoding UTF-8 -d classes ParcelRate.java ParcelRateBench.java
java -cp classes ParcelRateBench
