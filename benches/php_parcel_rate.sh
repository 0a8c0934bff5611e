#!/usr/bin/env bash
# Generated PHP against a hand-written PHP function over parcel_rate's whole domain
# (weight 1..70 × girth 1..130 × 3 zones × 2 = 54,600 calls), in one php process: both first
# checked to give the same fee on every input, then timed in 15 alternating rounds of three
# passes each (the median of the rounds' ratios), over the domain in its sweep order and in
# one fixed shuffled order (the xorshift64 Fisher–Yates pass of benches/parcel_rate.rs, the
# same on every machine). Prints calls/s of each and the ratio, a line per order.
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-target/release/rulec}"
[ -x "$rulec" ] || { cargo build --release --quiet --bin rulec; rulec=target/release/rulec; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang php --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/php"
cat > bench.php <<'PHP'
<?php
declare(strict_types=1);
require_once __DIR__ . '/parcel_rate.php';
use ParcelRate\Zone;

const BASE = [
    'domestic' => ['small' => 8, 'medium' => 12, 'large' => 20],
    'canada' => ['small' => 10, 'medium' => 15, 'large' => 25],
    'overseas' => ['small' => 18, 'medium' => 30, 'large' => 45],
];

/** parcel_rate as a PHP programmer writes it: an array of base rates, the rounding by hand. */
function hand_written(int $weight, int $girth, Zone $dest, bool $signature): int
{
    if ($weight < 1 || $weight > 70 || $girth < 1 || $girth > 130) {
        throw new \InvalidArgumentException('out of range');
    }
    $size = $girth > 60 ? 'large' : ($weight <= 10 ? 'small' : 'medium');
    $base = BASE[$dest->value][$size];
    $pct = $dest === Zone::OVERSEAS ? 20 : 10;
    $surcharge = intdiv($base * $pct + 99, 100);
    $sig = $signature ? ($dest === Zone::OVERSEAS ? 5 : 2) : 0;
    return $base + $surcharge + $sig;
}

$domain = [];
for ($w = 1; $w <= 70; $w++) {
    for ($g = 1; $g <= 130; $g++) {
        foreach (Zone::cases() as $z) {
            foreach ([false, true] as $s) {
                $domain[] = [$w, $g, $z, $s];
            }
        }
    }
}
assert(count($domain) === 54600);
foreach ($domain as [$w, $g, $z, $s]) {
    if (\ParcelRate\parcel_rate($w, $g, $z, $s) !== hand_written($w, $g, $z, $s)) {
        throw new \RuntimeException("disagree at $w $g {$z->value}");
    }
}

/**
 * The domain in one fixed shuffled order: benches/parcel_rate.rs's xorshift64 Fisher–Yates
 * pass, its u64 arithmetic written over PHP's signed ints.
 */
function shuffled(array $xs): array
{
    $x = 0x2545f4914f6cdd1d;
    // 2^64 mod m, for the unsigned remainder of a negative int.
    $umod = function (int $x, int $m): int {
        if ($x >= 0) {
            return $x % $m;
        }
        $wrap = (2 * (\PHP_INT_MAX % $m) + 2) % $m;
        return (($x % $m + $m) % $m + $wrap) % $m;
    };
    for ($i = count($xs) - 1; $i >= 1; $i--) {
        $x ^= $x << 13;
        $x ^= ($x >> 7) & 0x01ffffffffffffff;
        $x ^= $x << 17;
        $j = $umod($x, $i + 1);
        [$xs[$i], $xs[$j]] = [$xs[$j], $xs[$i]];
    }
    return $xs;
}
$mixed = shuffled($domain);

/** Seconds for three passes of `$f` over `$calls`. */
function passes(array $calls, callable $f): float
{
    $start = hrtime(true);
    for ($k = 0; $k < 3; $k++) {
        foreach ($calls as [$w, $g, $z, $s]) {
            $f($w, $g, $z, $s);
        }
    }
    return (hrtime(true) - $start) / 1e9;
}

// Rounds of three passes each, the two functions in turn, so that a burst of load on a
// shared machine falls on both: the ratio is the median of the rounds' ratios.
foreach (['in sweep order' => $domain, 'shuffled' => $mixed] as $order => $calls) {
    $ratios = [];
    $best = [INF, INF];
    for ($r = 0; $r < 15; $r++) {
        $ours = passes($calls, '\ParcelRate\parcel_rate');
        $hand = passes($calls, 'hand_written');
        $ratios[] = $ours / $hand;
        $best = [min($best[0], $ours), min($best[1], $hand)];
    }
    sort($ratios);
    $n = 3 * count($calls);
    printf("php, the domain %s: generated %.0f calls/s, hand-written %.0f calls/s (best rounds), generated takes %.2fx the hand-written time (median of 15 rounds; %.2fx-%.2fx)\n",
        $order, $n / $best[0], $n / $best[1], $ratios[7], $ratios[0], $ratios[14]);
}
PHP
php bench.php
