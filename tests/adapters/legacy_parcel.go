// parcel_rate as a team wrote it by hand in Go before the rule, spoken to over rulec's
// adapter protocol. It has a planted off-by-one: a parcel whose girth is exactly 61 in is
// not counted as large (the rule's large class starts above 60 in).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

var base = map[string]map[string]int64{
	"domestic": {"small": 8, "medium": 12, "large": 20},
	"canada":   {"small": 10, "medium": 15, "large": 25},
	"overseas": {"small": 18, "medium": 30, "large": 45},
}

var fuelPercent = map[string]int64{"domestic": 10, "canada": 10, "overseas": 20}

type call struct {
	Weight    int64  `json:"weight"`
	Girth     int64  `json:"girth"`
	Dest      string `json:"dest"`
	Signature bool   `json:"signature"`
}

func fee(c call) int64 {
	size := "medium"
	switch {
	case c.Girth > 61: // the planted off-by-one: the rule says 60
		size = "large"
	case c.Weight <= 10:
		size = "small"
	}
	b := base[c.Dest][size]
	surcharge := (b*fuelPercent[c.Dest] + 99) / 100 // rounded up to a whole dollar
	var sig int64
	if c.Signature {
		sig = 2
		if c.Dest == "overseas" {
			sig = 5
		}
	}
	return b + surcharge + sig
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	if !in.Scan() {
		os.Exit(1)
	}
	fmt.Println(`{"ok":true,"impl":"legacy@go-1"}`)
	for in.Scan() {
		var req struct {
			ID json.RawMessage `json:"id"`
			In call            `json:"in"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			os.Exit(1)
		}
		out, _ := json.Marshal(map[string]any{"id": req.ID, "out": map[string]int64{"fee": fee(req.In)}})
		fmt.Println(string(out))
	}
}
