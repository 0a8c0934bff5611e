// The fixed text of every generated Go package, as one Go file that gofmt and go vet check
// as it stands (tests/gen_go.rs). The Go backend copies the sections a rule needs: each
// starts at a `// rulec: NAME` line and runs to the next one. What comes before the first
// section is for this file alone.

package rulec

import "fmt"

// rulec: errors
// RuleInputError says the caller broke the contract: a value missing, not of its kind,
// outside its declared range, not a value of its enum, or a constraint that does not
// hold. Fix the call site. Value is the value refused, when HasValue says there is one: a
// number as a number, a value of an enum as itself, a day as the wire writes it
// ("2025-12-31"), anything the wire door was handed as it came.
type RuleInputError struct {
	What     string
	Value    any
	HasValue bool
}

// Error gives the sentence and the value refused, a string and a value of an enum as JSON
// writes them (as every language shows them): due is out of range: "2025-12-31".
func (e *RuleInputError) Error() string {
	if !e.HasValue {
		return e.What
	}
	switch v := e.Value.(type) {
	case string:
		return e.What + ": " + string(appendJSONString(nil, v))
	case member:
		if v.Valid() {
			return e.What + ": " + string(appendJSONString(nil, v.String()))
		}
	}
	return fmt.Sprintf("%s: %v", e.What, e.Value)
}

// member is a value of an enum, which shows its name when it is one of its values.
type member interface {
	Valid() bool
	String() string
}

// RuleContradictionError says two rows the checker could not prove apart both matched.
// It is never the caller's fault: fix the rule.
type RuleContradictionError struct {
	What string
}

func (e *RuleContradictionError) Error() string {
	return e.What
}

// Fired is a row that matched: the table's name and the row's number as written (from 1).
type Fired struct {
	Table string
	Row   int
}

// rulec: fire
// fire appends the row that fired to the trace, where the caller asked for one.
func fire(trace *[]Fired, table string, row int) {
	if trace != nil {
		*trace = append(*trace, Fired{Table: table, Row: row})
	}
}

// rulec: date
// Date is a calendar day: the number of days since 1970-01-01.
type Date int64

// String returns the day as YYYY-MM-DD, the way the wire and the records write it.
func (d Date) String() string {
	return string(appendDate(nil, int64(d)))
}

// ParseDate reads "YYYY-MM-DD" back as its day; false when the calendar has no such day.
func ParseDate(s string) (Date, bool) {
	n, ok := days(s)
	return Date(n), ok
}

// rulec: append_int
// appendInt appends n in decimal.
func appendInt(b []byte, n int64) []byte {
	u := uint64(n)
	if n < 0 {
		b = append(b, '-')
		u = -u
	}
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return append(b, digits[i:]...)
}

// rulec: append_json_string
// appendJSONString appends s as a JSON string: " and \ escaped, control characters as
// escapes, everything else as its UTF-8.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// rulec: record
// recordOpen begins a fixtures record: its brace, and the tag when there is one (an empty
// tag is none).
func recordOpen(tag string) []byte {
	b := make([]byte, 0, 256)
	b = append(b, '{')
	if tag != "" {
		b = append(b, `"tag":`...)
		b = appendJSONString(b, tag)
		b = append(b, ',')
	}
	return b
}

// recordClose ends a fixtures record: the rows that matched as the records write them, then
// its brackets.
func recordClose(b []byte, trace []Fired) string {
	for i, f := range trace {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"table":`...)
		b = appendJSONString(b, f.Table)
		b = append(b, `,"row":`...)
		b = appendInt(b, int64(f.Row))
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	return string(b)
}

// rulec: append_bool
// appendBool appends true or false.
func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// rulec: append_date
// appendDate appends a day number (days since 1970-01-01) as YYYY-MM-DD, proleptic Gregorian.
func appendDate(b []byte, days int64) []byte {
	z := days + 719468
	era := z / 146097
	if z%146097 < 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	return append(b, fmt.Sprintf("%04d-%02d-%02d", y, m, d)...)
}

// rulec: shown_day
// shownDay is a day refused, as its error holds it: the "YYYY-MM-DD" of a day of the years
// 0000 to 9999, any other by its number.
func shownDay(days int64) any {
	if days < -719528 || days > 2932896 {
		return days
	}
	return string(appendDate(nil, days))
}

// rulec: days
// days reads exactly "YYYY-MM-DD" as a day number (days since 1970-01-01), when the
// calendar has that day.
func days(s string) (int64, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	num := func(part string) int64 {
		n := int64(0)
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return -1
			}
			n = n*10 + int64(part[i]-'0')
		}
		return n
	}
	y, m, d := num(s[0:4]), num(s[5:7]), num(s[8:10])
	if y < 0 || m < 1 || m > 12 || d < 1 {
		return 0, false
	}
	leap := (y%4 == 0 && y%100 != 0) || y%400 == 0
	month := [12]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if leap {
		month[1] = 29
	}
	if d > month[m-1] {
		return 0, false
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := m + 9
	if m > 2 {
		mp = m - 3
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true
}

// rulec: wire_int
// wireInt reads a whole number from the wire: a json.Number (any fmt.Stringer giving a JSON
// number's text), worked out exactly from its digits and exponent, or a Go integer. 1e3 and
// 1000.0 are 1000, 1000.5 is not an integer, and a whole number past int64 is out of range.
func wireInt(x any, missing, notInteger, outOfRange string) (int64, error) {
	switch n := x.(type) {
	case nil:
		return 0, &RuleInputError{What: missing}
	case int:
		return int64(n), nil
	case int64:
		return n, nil
	case fmt.Stringer:
		v, number, whole, fits := wholeNumber(n.String())
		switch {
		case !number || !whole:
			return 0, &RuleInputError{What: notInteger, Value: x, HasValue: true}
		case !fits:
			return 0, &RuleInputError{What: outOfRange, Value: x, HasValue: true}
		}
		return v, nil
	}
	return 0, &RuleInputError{What: notInteger, Value: x, HasValue: true}
}

// wholeNumber works a JSON number's text out exactly: whether it is a number at all,
// whether its value is whole, and whether that whole number fits in an int64.
func wholeNumber(text string) (n int64, number, whole, fits bool) {
	i, neg := 0, false
	if i < len(text) && text[i] == '-' {
		neg = true
		i++
	}
	digitsFrom := func(from int) int {
		j := from
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		return j
	}
	end := digitsFrom(i)
	if end == i {
		return 0, false, false, false
	}
	mantissa := text[i:end]
	fraction := ""
	i = end
	if i < len(text) && text[i] == '.' {
		end = digitsFrom(i + 1)
		if end == i+1 {
			return 0, false, false, false
		}
		fraction = text[i+1 : end]
		i = end
	}
	// The exponent, held within ±2^40: a number that needs more is zero or past any int64.
	exp := int64(0)
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		expNeg := false
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			expNeg = text[i] == '-'
			i++
		}
		end = digitsFrom(i)
		if end == i {
			return 0, false, false, false
		}
		for ; i < end; i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(text[i]-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(text) {
		return 0, false, false, false
	}
	digits := mantissa + fraction
	scale := exp - int64(len(fraction))
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		scale++
	}
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	switch {
	case digits == "":
		return 0, true, true, true
	case scale < 0:
		return 0, true, false, false
	case int64(len(digits))+scale > 19:
		return 0, true, true, false
	}
	u := uint64(0)
	for k := 0; k < len(digits); k++ {
		u = u*10 + uint64(digits[k]-'0')
	}
	for ; scale > 0; scale-- {
		if u > (1<<64-1)/10 {
			return 0, true, true, false
		}
		u *= 10
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true, true, true
	case !neg && u < 1<<63:
		return int64(u), true, true, true
	}
	return 0, true, true, false
}

// rulec: wire_bool
// wireBool reads a truth value from the wire: true or false and nothing else.
func wireBool(x any, missing, notBoolean string) (bool, error) {
	switch b := x.(type) {
	case nil:
		return false, &RuleInputError{What: missing}
	case bool:
		return b, nil
	}
	return false, &RuleInputError{What: notBoolean, Value: x, HasValue: true}
}

// rulec: wire_str
// wireText reads a string from the wire.
func wireText(x any, missing, notString string) (string, error) {
	switch s := x.(type) {
	case nil:
		return "", &RuleInputError{What: missing}
	case string:
		return s, nil
	}
	return "", &RuleInputError{What: notString, Value: x, HasValue: true}
}

// rulec: wire_day
// wireDay reads a date from the wire: "YYYY-MM-DD" of a day the calendar has, as its day number.
func wireDay(x any, missing, notDate string) (int64, error) {
	if x == nil {
		return 0, &RuleInputError{What: missing}
	}
	if s, isString := x.(string); isString {
		if n, found := days(s); found {
			return n, nil
		}
	}
	return 0, &RuleInputError{What: notDate, Value: x, HasValue: true}
}

// rulec: wire_member
// wireMember reads a value of an enum from the wire: one of its names, read back by parse.
func wireMember[E ~int](x any, parse func(string) (E, bool), missing, notMember string) (E, error) {
	if x == nil {
		return 0, &RuleInputError{What: missing}
	}
	if s, isString := x.(string); isString {
		if e, found := parse(s); found {
			return e, nil
		}
	}
	return 0, &RuleInputError{What: notMember, Value: x, HasValue: true}
}

// rulec: unknown_key
// unknownKey finds a key of the call that is not an input: the first of them in order
// (the keys as the call wrote them, when the caller knows it), else the least of them.
func unknownKey(call map[string]any, order []string, inputs []string) (string, bool) {
	known := func(key string) bool {
		for _, k := range inputs {
			if k == key {
				return true
			}
		}
		return false
	}
	for _, key := range order {
		if _, there := call[key]; there && !known(key) {
			return key, true
		}
	}
	least, found := "", false
	for key := range call {
		if !known(key) && (!found || key < least) {
			least, found = key, true
		}
	}
	return least, found
}

// rulec: max_enum
// maxEnum returns the later of two values of an ordered enum.
func maxEnum[E ~int](a, b E) E {
	if a > b {
		return a
	}
	return b
}

// rulec: max_int
// maxInt returns the larger of a and b.
func maxInt(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// rulec: min_enum
// minEnum returns the earlier of two values of an ordered enum.
func minEnum[E ~int](a, b E) E {
	if a < b {
		return a
	}
	return b
}

// rulec: min_int
// minInt returns the smaller of a and b.
func minInt(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

// rulec: div_round_up
// divRoundUp returns n / d rounded away from zero (d != 0; the proof, E132, rules out a
// zero divisor).
func divRoundUp(n, d int64) int64 {
	q, r := n/d, n%d
	if r == 0 {
		return q
	}
	if (r < 0) != (d < 0) {
		return q - 1
	}
	return q + 1
}

// rulec: div_round_down
// divRoundDown returns n / d rounded toward zero, which is how Go's / rounds.
func divRoundDown(n, d int64) int64 {
	return n / d
}

// rulec: div_round_ceiling
// divRoundCeiling returns n / d rounded toward +infinity.
func divRoundCeiling(n, d int64) int64 {
	q, r := n/d, n%d
	if r != 0 && (r < 0) == (d < 0) {
		return q + 1
	}
	return q
}

// rulec: div_round_floor
// divRoundFloor returns n / d rounded toward -infinity.
func divRoundFloor(n, d int64) int64 {
	q, r := n/d, n%d
	if r != 0 && (r < 0) != (d < 0) {
		return q - 1
	}
	return q
}

// rulec: div_round_half_up
// divRoundHalfUp returns n / d rounded to the nearest, ties away from zero.
func divRoundHalfUp(n, d int64) int64 {
	q, r := n/d, n%d
	if r == 0 {
		return q
	}
	s, a, rest := halfway(r, d)
	if a >= rest {
		return q + s
	}
	return q
}

// rulec: div_round_half_down
// divRoundHalfDown returns n / d rounded to the nearest, ties toward zero.
func divRoundHalfDown(n, d int64) int64 {
	q, r := n/d, n%d
	if r == 0 {
		return q
	}
	s, a, rest := halfway(r, d)
	if a > rest {
		return q + s
	}
	return q
}

// rulec: div_round_half_even
// divRoundHalfEven returns n / d rounded to the nearest, ties to even.
func divRoundHalfEven(n, d int64) int64 {
	q, r := n/d, n%d
	if r == 0 {
		return q
	}
	s, a, rest := halfway(r, d)
	if a > rest || (a == rest && q%2 != 0) {
		return q + s
	}
	return q
}

// rulec: mod
// modFloor returns the remainder of a by b from zero up: 0 <= r < |b|.
func modFloor(a, b int64) int64 {
	r := a % b
	if r < 0 {
		if b < 0 {
			return r - b
		}
		return r + b
	}
	return r
}

// rulec: isqrt
// isqrtInt returns the largest r with r*r <= x (x >= 0), by a binary search over whole numbers.
func isqrtInt(x int64) int64 {
	lo, hi := int64(0), int64(3037000499)
	if x < hi {
		hi = x
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if mid*mid <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// rulec: halfway
// halfway says where n / d lies between q = n/d (truncated) and q+s, from the remainder
// r != 0: s is the step away from q, a/|d| the way gone to q+s and rest/|d| the way left.
func halfway(r, d int64) (s, a, rest int64) {
	s = 1
	if (r < 0) != (d < 0) {
		s = -1
	}
	a = r
	if a < 0 {
		a = -a
	}
	if d > 0 {
		rest = d - a
	} else {
		rest = -(d + a)
	}
	return s, a, rest
}
