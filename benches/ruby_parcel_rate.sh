#!/usr/bin/env bash
# Generated Ruby against a hand-written Ruby function over parcel_rate's whole domain
# (weight 1..70 × girth 1..130 × 3 zones × 2 = 54,600 calls), in one ruby process: both first
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
"$rulec" gen tests/corpus/parcel_rate.rule --lang ruby --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/ruby"
ruby - <<'RB'
require_relative "parcel_rate"

BASE = {
  ["domestic", "small"] => 8, ["domestic", "medium"] => 12, ["domestic", "large"] => 20,
  ["canada", "small"] => 10, ["canada", "medium"] => 15, ["canada", "large"] => 25,
  ["overseas", "small"] => 18, ["overseas", "medium"] => 30, ["overseas", "large"] => 45
}.freeze

# parcel_rate as a Ruby programmer writes it: a hash of base rates, the rounding by hand.
def hand_written(weight, girth, dest, signature)
  raise ArgumentError, "out of range" unless weight.between?(1, 70) && girth.between?(1, 130)

  size = girth > 60 ? "large" : (weight <= 10 ? "small" : "medium")
  base = BASE[[dest, size]]
  pct = dest == "overseas" ? 20 : 10
  surcharge = -(-base * pct / 100)
  sig = signature ? (dest == "overseas" ? 5 : 2) : 0
  base + surcharge + sig
end

domain = []
(1..70).each { |w| (1..130).each { |g| ParcelRate::Zone::ALL.each { |z| [false, true].each { |s| domain << [w, g, z, s] } } } }
raise "domain" unless domain.size == 54_600
domain.each { |a| raise a.inspect unless ParcelRate.parcel_rate(*a) == hand_written(*a) }

# The domain in one fixed shuffled order: benches/parcel_rate.rs's xorshift64 Fisher–Yates pass.
def shuffled(xs)
  xs = xs.dup
  x = 0x2545F4914F6CDD1D
  mask = (1 << 64) - 1
  (xs.size - 1).downto(1) do |i|
    x ^= (x << 13) & mask
    x ^= x >> 7
    x ^= (x << 17) & mask
    j = x % (i + 1)
    xs[i], xs[j] = xs[j], xs[i]
  end
  xs
end
mixed = shuffled(domain)

# Seconds for three passes of the block over the inputs.
def passes(inputs)
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  3.times { inputs.each { |a| yield(*a) } }
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
end

# Rounds of three passes each, the two functions in turn, so that a burst of load on a shared
# machine falls on both: the ratio is the median of the rounds' ratios.
[["in sweep order", domain], ["shuffled", mixed]].each do |order, inputs|
  ratios = []
  best = [Float::INFINITY, Float::INFINITY]
  15.times do
    ours = passes(inputs) { |w, g, z, s| ParcelRate.parcel_rate(w, g, z, s) }
    hand = passes(inputs) { |w, g, z, s| hand_written(w, g, z, s) }
    ratios << ours / hand
    best = [[best[0], ours].min, [best[1], hand].min]
  end
  ratios.sort!
  n = 3 * inputs.size
  puts format("ruby, the domain %s: generated %.0f calls/s, hand-written %.0f calls/s (best rounds), " \
              "generated takes %.2fx the hand-written time (median of 15 rounds; %.2fx-%.2fx)",
              order, n / best[0], n / best[1], ratios[7], ratios[0], ratios[14])
end
RB
