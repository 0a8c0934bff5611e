#!/bin/sh
# The generated Go parcel_rate against the same rule written by hand in Go, over the whole
# domain (weight 1..70 x girth 1..130 x 3 zones x 2 booleans = 54,600 calls a pass), in one
# program: it first asserts the two agree on every input, then times them in alternating
# rounds of one pass each (about 2 s an order) and prints the calls per second of each and
# the median of the rounds' ratios, over the domain in its sweep order and in one fixed
# shuffled order (the xorshift64 Fisher-Yates pass of benches/parcel_rate.rs). A pass reads
# each call's inputs from a slice, as a caller with data does.
#
#   benches/go_parcel_rate.sh            (RULEC=path/to/rulec to use a built binary)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${RULEC:-}" ]; then
    (cd "$root" && cargo build --quiet --bin rulec)
    RULEC="$root/target/debug/rulec"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$RULEC" gen "$root/tests/corpus/parcel_rate.rule" --lang go --out "$tmp" --lock "$tmp/rulec.lock" >/dev/null
mkdir -p "$tmp/go/parcelrate/cmd/bench"
cat > "$tmp/go/parcelrate/cmd/bench/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"sort"
	"time"

	rule "rulec/parcelrate"
)

// byHand is the rule as a Go programmer would write it without rulec (no checks).
func byHand(weight, girth int64, dest rule.Zone, signature bool) int64 {
	size := 2
	if girth <= 60 {
		size = 1
		if weight <= 10 {
			size = 0
		}
	}
	var base int64
	switch dest {
	case rule.ZoneDomestic:
		base = [3]int64{8, 12, 20}[size]
	case rule.ZoneCanada:
		base = [3]int64{10, 15, 25}[size]
	default:
		base = [3]int64{18, 30, 45}[size]
	}
	fuel := int64(10)
	if dest == rule.ZoneOverseas {
		fuel = 20
	}
	surcharge := (base*fuel + 99) / 100
	var sig int64
	if signature {
		sig = 2
		if dest == rule.ZoneOverseas {
			sig = 5
		}
	}
	return base + surcharge + sig
}

var zones = []rule.Zone{rule.ZoneDomestic, rule.ZoneCanada, rule.ZoneOverseas}

// The inputs of one call: a pass reads them from a slice, as a caller with data does.
type call struct {
	weight, girth int64
	dest          rule.Zone
	signature     bool
}

// shuffled is the domain in one fixed order: benches/parcel_rate.rs's xorshift64
// Fisher-Yates pass, the same on every machine.
func shuffled(xs []call) []call {
	out := append([]call(nil), xs...)
	x := uint64(0x2545f4914f6cdd1d)
	for i := len(out) - 1; i >= 1; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := x % uint64(i+1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func generated(calls []call) int64 {
	var sum int64
	for _, c := range calls {
		fee, err := rule.ParcelRate(rule.Input{Weight: rule.Pounds(c.weight), Girth: rule.Inches(c.girth), Dest: c.dest, Signature: c.signature})
		if err != nil {
			panic(err)
		}
		sum += int64(fee)
	}
	return sum
}

func hand(calls []call) int64 {
	var sum int64
	for _, c := range calls {
		sum += byHand(c.weight, c.girth, c.dest, c.signature)
	}
	return sum
}

func main() {
	var domain []call
	for w := int64(1); w <= 70; w++ {
		for g := int64(1); g <= 130; g++ {
			for _, z := range zones {
				for _, s := range []bool{false, true} {
					domain = append(domain, call{w, g, z, s})
				}
			}
		}
	}
	for _, c := range domain {
		fee, err := rule.ParcelRate(rule.Input{Weight: rule.Pounds(c.weight), Girth: rule.Inches(c.girth), Dest: c.dest, Signature: c.signature})
		if err != nil || int64(fee) != byHand(c.weight, c.girth, c.dest, c.signature) {
			fmt.Fprintln(os.Stderr, "disagree at", c, fee, err)
			os.Exit(1)
		}
	}
	mixed := shuffled(domain)
	for _, o := range []struct {
		order string
		calls []call
	}{{"in sweep order", domain}, {"shuffled", mixed}} {
		// Rounds of one pass each, alternating, so that a burst of load on a shared machine
		// falls on both: the ratio is the median of the rounds' ratios.
		var tGen, tHand time.Duration
		var ratios []float64
		for tGen+tHand < 2*time.Second {
			start := time.Now()
			a := generated(o.calls)
			g := time.Since(start)
			start = time.Now()
			b := hand(o.calls)
			h := time.Since(start)
			if a != b {
				os.Exit(1)
			}
			tGen, tHand = tGen+g, tHand+h
			ratios = append(ratios, g.Seconds()/h.Seconds())
		}
		sort.Float64s(ratios)
		passes := float64(len(ratios))
		n := float64(len(o.calls))
		fmt.Printf("go, the domain %s: generated %.0f calls/s, hand-written %.0f calls/s: %.2fx (median of %d rounds)\n",
			o.order, passes*n/tGen.Seconds(), passes*n/tHand.Seconds(), ratios[len(ratios)/2], len(ratios))
	}
}
GO
cd "$tmp/go/parcelrate"
GO111MODULE=on GOPROXY=off go build -o bench ./cmd/bench
./bench
