// The arithmetic helpers of the generated Go, held to the reference (vectors/_helpers.jsonl).
// The go command skips a file whose name starts with _: build a copy of it.

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := in.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c struct {
			Op string `json:"op"`
			A  string `json:"a"`
			B  string `json:"b"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			panic(err)
		}
		a, err := strconv.ParseInt(c.A, 10, 64)
		if err != nil {
			panic(err)
		}
		b, err := strconv.ParseInt(c.B, 10, 64)
		if err != nil {
			panic(err)
		}
		out.WriteString(`{"result":"` + strconv.FormatInt(apply(c.Op, a, b), 10) + "\"}\n")
	}
}

// apply runs one helper on a and b (isqrt reads a alone).
func apply(op string, a, b int64) int64 {
	switch op {
	case "quot_up":
		return divRoundUp(a, b)
	case "quot_down":
		return divRoundDown(a, b)
	case "quot_ceiling":
		return divRoundCeiling(a, b)
	case "quot_floor":
		return divRoundFloor(a, b)
	case "quot_half_up":
		return divRoundHalfUp(a, b)
	case "quot_half_down":
		return divRoundHalfDown(a, b)
	case "quot_half_even":
		return divRoundHalfEven(a, b)
	case "mod":
		return modFloor(a, b)
	case "isqrt":
		return isqrtInt(a)
	}
	panic("unknown helper " + op)
}

// rulec: helpers
