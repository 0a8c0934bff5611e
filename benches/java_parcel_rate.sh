#!/bin/sh
# The generated Java parcel_rate against the same rule written by hand in Java, over the whole
# domain (weight 1..70 x girth 1..130 x 3 zones x 2 booleans = 54,600 calls a pass), in one
# JVM: it first asserts they agree on every input, warms the JIT up on all of them, then times
# them in alternating rounds of one pass each (about 6 s in all) and prints the calls per
# second of each and the median of the rounds' ratios to the hand-written function.
#
# A pass reads each call's inputs from arrays laid out in domain order, as a caller with data
# does: no work is shared between calls. The hand-written function given the generated entry
# guard says what the guard costs. The last line times the two in nested loops over the
# domain instead, where the JIT may merge neighbouring calls of the same weight, girth and
# zone (it does for the hand-written function). The same rounds time the two over the same
# inputs in one fixed shuffled order (the xorshift64 Fisher-Yates pass of
# benches/parcel_rate.rs, the same on every machine).
#
#   benches/java_parcel_rate.sh          (RULEC=path/to/rulec to use a built binary)
#
# Needs javac and java (JDK 17 or later) on PATH.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${RULEC:-}" ]; then
    (cd "$root" && cargo build --quiet --bin rulec)
    RULEC="$root/target/debug/rulec"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$RULEC" gen "$root/tests/corpus/parcel_rate.rule" --lang java --out "$tmp" --lock "$tmp/rulec.lock" >/dev/null
cat >"$tmp/java/ParcelRateBench.java" <<'JAVA'
import java.util.Arrays;

public final class ParcelRateBench {
    private ParcelRateBench() {
    }

    /** The rule as a Java programmer would write it without rulec (no checks). */
    static long byHand(long weight, long girth, ParcelRate.Zone dest, boolean signature) {
        int size = girth <= 60 ? (weight <= 10 ? 0 : 1) : 2;
        long base;
        long fuel;
        long sig;
        switch (dest) {
            case DOMESTIC -> {
                base = size == 0 ? 8 : size == 1 ? 12 : 20;
                fuel = 10;
                sig = 2;
            }
            case CANADA -> {
                base = size == 0 ? 10 : size == 1 ? 15 : 25;
                fuel = 10;
                sig = 2;
            }
            default -> {
                base = size == 0 ? 18 : size == 1 ? 30 : 45;
                fuel = 20;
                sig = 5;
            }
        }
        long surcharge = (base * fuel + 99) / 100;
        return base + surcharge + (signature ? sig : 0);
    }

    /** The same, behind the generated function's entry guard (its checks and refusals). */
    static long guarded(long weight, long girth, ParcelRate.Zone dest, boolean signature) {
        if (weight < 1L || weight > 70L) {
            throw new ParcelRate.RuleInputError("weight is out of range", weight);
        }
        if (girth < 1L || girth > 130L) {
            throw new ParcelRate.RuleInputError("girth is out of range", girth);
        }
        if (dest == null) {
            throw new ParcelRate.RuleInputError("dest is missing", null);
        }
        return byHand(weight, girth, dest, signature);
    }

    private static final ParcelRate.Zone[] ZONES = ParcelRate.Zone.values();
    private static final int CALLS = 70 * 130 * 3 * 2;
    private static final long[] WEIGHT = new long[CALLS];
    private static final long[] GIRTH = new long[CALLS];
    private static final ParcelRate.Zone[] DEST = new ParcelRate.Zone[CALLS];
    private static final boolean[] SIGNATURE = new boolean[CALLS];
    /** The domain in one fixed shuffled order: benches/parcel_rate.rs's xorshift64 Fisher-Yates pass. */
    private static final long[] M_WEIGHT = new long[CALLS];
    private static final long[] M_GIRTH = new long[CALLS];
    private static final ParcelRate.Zone[] M_DEST = new ParcelRate.Zone[CALLS];
    private static final boolean[] M_SIGNATURE = new boolean[CALLS];

    static {
        int i = 0;
        for (long w = 1; w <= 70; w++) {
            for (long g = 1; g <= 130; g++) {
                for (ParcelRate.Zone z : ZONES) {
                    for (boolean s : new boolean[] {false, true}) {
                        WEIGHT[i] = w;
                        GIRTH[i] = g;
                        DEST[i] = z;
                        SIGNATURE[i] = s;
                        i++;
                    }
                }
            }
        }
        int[] order = new int[CALLS];
        for (int k = 0; k < CALLS; k++) {
            order[k] = k;
        }
        long x = 0x2545f4914f6cdd1dL;
        for (int k = CALLS - 1; k >= 1; k--) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int j = (int) Long.remainderUnsigned(x, k + 1);
            int t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < CALLS; k++) {
            M_WEIGHT[k] = WEIGHT[order[k]];
            M_GIRTH[k] = GIRTH[order[k]];
            M_DEST[k] = DEST[order[k]];
            M_SIGNATURE[k] = SIGNATURE[order[k]];
        }
    }

    // One pass over the whole domain each; the sum keeps the JIT from dropping the calls.

    private static long generated() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += ParcelRate.parcelRate(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i]);
        }
        return sum;
    }

    private static long hand() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += byHand(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i]);
        }
        return sum;
    }

    private static long generatedMixed() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += ParcelRate.parcelRate(M_WEIGHT[i], M_GIRTH[i], M_DEST[i], M_SIGNATURE[i]);
        }
        return sum;
    }

    private static long handMixed() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += byHand(M_WEIGHT[i], M_GIRTH[i], M_DEST[i], M_SIGNATURE[i]);
        }
        return sum;
    }

    private static long handGuarded() {
        long sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += guarded(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i]);
        }
        return sum;
    }

    private static long generatedLoops() {
        long sum = 0;
        for (long w = 1; w <= 70; w++) {
            for (long g = 1; g <= 130; g++) {
                for (ParcelRate.Zone z : ZONES) {
                    sum += ParcelRate.parcelRate(w, g, z, false);
                    sum += ParcelRate.parcelRate(w, g, z, true);
                }
            }
        }
        return sum;
    }

    private static long handLoops() {
        long sum = 0;
        for (long w = 1; w <= 70; w++) {
            for (long g = 1; g <= 130; g++) {
                for (ParcelRate.Zone z : ZONES) {
                    sum += byHand(w, g, z, false);
                    sum += byHand(w, g, z, true);
                }
            }
        }
        return sum;
    }

    private static double median(double[] xs, int n) {
        double[] s = Arrays.copyOf(xs, n);
        Arrays.sort(s);
        return s[n / 2];
    }

    public static void main(String[] args) {
        for (int i = 0; i < CALLS; i++) {
            long gen = ParcelRate.parcelRate(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i]);
            if (gen != byHand(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i])
                    || gen != guarded(WEIGHT[i], GIRTH[i], DEST[i], SIGNATURE[i])) {
                System.err.println("disagree at " + WEIGHT[i] + " " + GIRTH[i] + " " + DEST[i] + " " + SIGNATURE[i]);
                System.exit(1);
            }
        }
        // The JIT compiles every pass before any is timed.
        long warm = System.nanoTime();
        while (System.nanoTime() - warm < 1_000_000_000L) {
            long want = hand();
            if (generated() != want || handGuarded() != want || generatedLoops() != want || handLoops() != want
                    || generatedMixed() != want || handMixed() != want) {
                System.exit(1);
            }
        }
        // Rounds of one pass each, alternating, so that a burst of load on a shared machine
        // falls on all of them: each ratio is the median of the rounds' ratios.
        long tGen = 0;
        long tHand = 0;
        long tGuard = 0;
        long tLoops = 0;
        long tGenMixed = 0;
        long tHandMixed = 0;
        double[] mixedRatio = new double[1 << 16];
        double[] genRatio = new double[1 << 16];
        double[] guardRatio = new double[1 << 16];
        double[] loopsRatio = new double[1 << 16];
        int rounds = 0;
        while (tGen + tHand + tGuard + tLoops + tGenMixed + tHandMixed < 6_000_000_000L && rounds < genRatio.length) {
            long t0 = System.nanoTime();
            long a = generated();
            long t1 = System.nanoTime();
            long b = hand();
            long t2 = System.nanoTime();
            long c = handGuarded();
            long t3 = System.nanoTime();
            long d = generatedLoops();
            long t4 = System.nanoTime();
            long e = handLoops();
            long t5 = System.nanoTime();
            long f = generatedMixed();
            long t6 = System.nanoTime();
            long g = handMixed();
            long t7 = System.nanoTime();
            if (a != b || c != b || d != b || e != b || f != b || g != b) {
                System.exit(1);
            }
            tGen += t1 - t0;
            tHand += t2 - t1;
            tGuard += t3 - t2;
            tLoops += t5 - t3;
            genRatio[rounds] = (double) (t1 - t0) / (t2 - t1);
            guardRatio[rounds] = (double) (t3 - t2) / (t2 - t1);
            loopsRatio[rounds] = (double) (t4 - t3) / (t5 - t4);
            mixedRatio[rounds] = (double) (t6 - t5) / (t7 - t6);
            tGenMixed += t6 - t5;
            tHandMixed += t7 - t6;
            rounds++;
        }
        double perSecond = (double) rounds * CALLS * 1e9;
        System.out.printf("java, the domain in sweep order: generated %.0f calls/s, hand-written %.0f calls/s: %.2fx (median of %d rounds)%n",
            perSecond / tGen, perSecond / tHand, median(genRatio, rounds), rounds);
        System.out.printf("java, the domain shuffled: generated %.0f calls/s, hand-written %.0f calls/s: %.2fx (median of %d rounds)%n",
            perSecond / tGenMixed, perSecond / tHandMixed, median(mixedRatio, rounds), rounds);
        System.out.printf("java hand-written with the generated entry guard %.0f calls/s: %.2fx%n",
            perSecond / tGuard, median(guardRatio, rounds));
        System.out.printf("java in nested loops over the domain, generated / hand-written: %.2fx%n",
            median(loopsRatio, rounds));
    }
}
JAVA
cd "$tmp/java"
javac --release 17 -encoding UTF-8 -d classes ParcelRate.java ParcelRateBench.java
java -cp classes ParcelRateBench
