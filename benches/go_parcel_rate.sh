#!/bin/sh
# Calls per second of the generated Go function over the whole domain of parcel_rate
# (weight 1..70 x girth 1..130 x 3 zones x 2 booleans = 54,600 calls a pass), in Go's own
# runtime, passes repeated until at least a second has gone by. Prints one line: `go N`.
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
	"time"

	rule "rulec/parcelrate"
)

func main() {
	zones := []rule.Zone{rule.ZoneDomestic, rule.ZoneCanada, rule.ZoneOverseas}
	var calls, sink int64
	start := time.Now()
	for time.Since(start) < time.Second {
		for w := rule.Pounds(1); w <= 70; w++ {
			for g := rule.Inches(1); g <= 130; g++ {
				for _, z := range zones {
					for _, s := range []bool{false, true} {
						fee, err := rule.ParcelRate(rule.Input{Weight: w, Girth: g, Dest: z, Signature: s})
						if err != nil {
							fmt.Fprintln(os.Stderr, err)
							os.Exit(1)
						}
						sink += int64(fee)
						calls++
					}
				}
			}
		}
	}
	elapsed := time.Since(start).Seconds()
	if sink == 0 {
		os.Exit(1)
	}
	fmt.Printf("go %.0f\n", float64(calls)/elapsed)
}
GO
cd "$tmp/go/parcelrate"
GO111MODULE=on GOPROXY=off go build -o bench ./cmd/bench
./bench
