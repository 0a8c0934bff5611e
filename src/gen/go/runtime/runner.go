// The runner rulec test drives: one vectors line in, one record (or refusal) out, for
// every line. It reads the JSON (numbers as json.Number, keeping their digits), then hands
// the object to the package's own door, which checks it in the reference's order; the
// runner checks nothing itself.
//
// The Go backend writes it as <package>/cmd/runner/main.go with rulec_rule, rulec_wire and
// rulec_not_an_object replaced by the package, its door and the door's sentence, and the
// line that names a section of module.go replaced by that section.

// rulec: main
// Build (in the package's folder): GOPROXY=off go build -o runner ./cmd/runner

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"unicode/utf8"

	rule "rulec/rulec_rule"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		out.WriteString(answer(line))
		out.WriteByte('\n')
	}
}

// answer is the line printed for one call: the record, or the refusal in its place.
func answer(line []byte) string {
	call, keys, isObject := readCall(line)
	if !isObject {
		return refusal("input", "rulec_not_an_object")
	}
	record, err := rule.rulec_wire(call, "", keys...)
	switch e := err.(type) {
	case nil:
		return record
	case *rule.RuleInputError:
		return refusal("input", e.What)
	case *rule.RuleContradictionError:
		return refusal("contradiction", e.What)
	}
	return refusal("input", err.Error())
}

// refusal is the line printed in the place of a record (appendJSONString is the
// package's own, copied after this file).
func refusal(kind, what string) string {
	b := appendJSONString([]byte(`{"refused":"`+kind+`","error":`), what)
	return string(append(b, '}'))
}

// readCall reads a vectors line: the object of a call, or a record whose in is one. A line
// that is not UTF-8, not JSON (a lone surrogate included) or not an object is no call.
func readCall(line []byte) (map[string]any, []string, bool) {
	if !utf8.Valid(line) || tooDeep(line) || loneSurrogate(line) {
		return nil, nil, false
	}
	top, keys, raw, isObject := object(line)
	if !isObject {
		return nil, nil, false
	}
	if in, has := raw["in"]; has {
		top, keys, _, isObject = object(in)
	}
	return top, keys, isObject
}

// object reads exactly one JSON object: its members (numbers as json.Number; for a key
// given twice, the last), its keys in the order they first appear, and each member's text.
func object(data []byte) (map[string]any, []string, map[string]json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, nil, false
	}
	members := map[string]any{}
	raw := map[string]json.RawMessage{}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, nil, false
		}
		key, isKey := t.(string)
		if !isKey {
			return nil, nil, nil, false
		}
		var text json.RawMessage
		if err := dec.Decode(&text); err != nil {
			return nil, nil, nil, false
		}
		value, isValue := decode(text)
		if !isValue {
			return nil, nil, nil, false
		}
		if _, seen := raw[key]; !seen {
			keys = append(keys, key)
		}
		members[key], raw[key] = value, text
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, nil, nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, nil, false
	}
	return members, keys, raw, true
}

// decode reads one JSON value as encoding/json does, numbers as json.Number.
func decode(text []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// maxDepth is serde_json's limit: a line whose arrays and objects nest deeper is not JSON to
// the reference (encoding/json reads up to 10000).
const maxDepth = 127

// tooDeep says whether the arrays and objects of a line nest deeper than maxDepth; a bracket
// inside a string does not count.
func tooDeep(line []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			if depth > maxDepth {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// loneSurrogate says whether a string of the JSON holds half of a surrogate pair (\ud800
// to \udfff not in a pair), which is no character: the reference reads no JSON there.
func loneSurrogate(line []byte) bool {
	hex := func(at int) (rune, bool) {
		if at+6 > len(line) || line[at] != '\\' || line[at+1] != 'u' {
			return 0, false
		}
		r := rune(0)
		for _, c := range line[at+2 : at+6] {
			switch {
			case c >= '0' && c <= '9':
				r = r*16 + rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r*16 + rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return r, true
	}
	for i := 0; i < len(line); i++ {
		if line[i] != '\\' {
			continue
		}
		r, isEscape := hex(i)
		if !isEscape {
			i++
			continue
		}
		switch {
		case r >= 0xd800 && r <= 0xdbff:
			if low, next := hex(i + 6); next && low >= 0xdc00 && low <= 0xdfff {
				i += 11
				continue
			}
			return true
		case r >= 0xdc00 && r <= 0xdfff:
			return true
		}
		i += 5
	}
	return false
}

// rulec-copy: module.go append_json_string
