// The fixed text of every generated Swift file, as one Swift file (tests/gen_swift.rs parses
// it with tree-sitter's Swift grammar; swiftc, where installed, compiles it). The Swift backend
// copies the sections a rule needs: each starts at a `// rulec: NAME` line and runs to the
// next one. What comes before the first section is for this file alone.

// rulec: errors
/// Why a call has no answer. `input`: the caller broke the contract (fix the call site);
/// `contradiction`: two rows the checker could not prove apart both matched (fix the rule).
public enum RuleError: Error, CustomStringConvertible, Equatable, Sendable {
    case input(what: String, value: String?)
    case contradiction(what: String)

    /// The sentence, with the value refused after it where there is one.
    public var description: String {
        switch self {
        case let .input(what, value):
            if let value = value {
                return what + ": " + value
            }
            return what
        case let .contradiction(what):
            return what
        }
    }
}

/// A row that matched: the table's name and the row's number as written (from 1).
public struct Fired: Hashable, Sendable {
    public let table: String
    public let row: Int

    public init(table: String, row: Int) {
        self.table = table
        self.row = row
    }
}

/// A value of a call in the wire form, as a JSON reader hands it over: a number as its text,
/// so that the door reads it exactly.
public enum Wire: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case other
}

// rulec: wire
/// The value of the last member of `call` under `key` (`.null` when there is none).
func wireValue(_ call: [(String, Wire)], _ key: String) -> Wire {
    var found = Wire.null
    for (k, v) in call where k == key {
        found = v
    }
    return found
}

/// An optional input: no value for null (or no member), else what `read` makes of it.
func wireOptional<T>(_ x: Wire, _ read: (Wire) throws -> T) rethrows -> T? {
    if case .null = x {
        return nil
    }
    return try read(x)
}

func refused(_ x: Wire, _ missing: String, _ kind: String) -> RuleError {
    if case .null = x {
        return .input(what: missing, value: nil)
    }
    return .input(what: kind, value: nil)
}

/// A whole number on the wire (1000, 1e3, 1000.0), worked out from its digits and exponent.
func wireInt64(_ x: Wire, _ missing: String, _ kind: String, _ out: String) throws -> Int64 {
    guard case let .number(text) = x else {
        throw refused(x, missing, kind)
    }
    var chars = Array(text.utf8)
    var negative = false
    if chars.first == UInt8(ascii: "-") {
        negative = true
        chars.removeFirst()
    }
    var digits: [UInt8] = []
    var scale = 0
    var exponent = 0
    var i = 0
    while i < chars.count, chars[i] >= UInt8(ascii: "0"), chars[i] <= UInt8(ascii: "9") {
        digits.append(chars[i])
        i += 1
    }
    if i < chars.count, chars[i] == UInt8(ascii: ".") {
        i += 1
        while i < chars.count, chars[i] >= UInt8(ascii: "0"), chars[i] <= UInt8(ascii: "9") {
            digits.append(chars[i])
            scale += 1
            i += 1
        }
    }
    if i < chars.count, chars[i] == UInt8(ascii: "e") || chars[i] == UInt8(ascii: "E") {
        i += 1
        var sign = 1
        if i < chars.count, chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
            sign = chars[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
        }
        while i < chars.count, chars[i] >= UInt8(ascii: "0"), chars[i] <= UInt8(ascii: "9") {
            if exponent < 100_000 {
                exponent = exponent * 10 + Int(chars[i] - UInt8(ascii: "0"))
            }
            i += 1
        }
        exponent *= sign
    }
    while digits.first == UInt8(ascii: "0") {
        digits.removeFirst()
    }
    if digits.isEmpty {
        return 0
    }
    var e = exponent - scale
    while e < 0, digits.last == UInt8(ascii: "0") {
        digits.removeLast()
        e += 1
    }
    if e < 0 {
        throw RuleError.input(what: kind, value: nil)
    }
    if digits.count + e > 19 {
        throw RuleError.input(what: out, value: nil)
    }
    var n: Int64 = 0
    for d in digits + Array(repeating: UInt8(ascii: "0"), count: e) {
        let (m, o1) = n.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(Int64(d - UInt8(ascii: "0")))
        if o1 || o2 {
            if negative && m == Int64.max - 7 && d == UInt8(ascii: "8") {
                return Int64.min
            }
            throw RuleError.input(what: out, value: nil)
        }
        n = s
    }
    return negative ? -n : n
}

func wireBool(_ x: Wire, _ missing: String, _ kind: String) throws -> Bool {
    guard case let .bool(b) = x else {
        throw refused(x, missing, kind)
    }
    return b
}

func wireString(_ x: Wire, _ missing: String, _ kind: String) throws -> String {
    guard case let .string(s) = x else {
        throw refused(x, missing, kind)
    }
    return s
}

func wireDay(_ x: Wire, _ missing: String, _ kind: String) throws -> Int64 {
    guard case let .string(s) = x, let d = days(s) else {
        throw refused(x, missing, kind)
    }
    return d
}

func wireMember<E: RawRepresentable>(_ x: Wire, _ missing: String, _ kind: String) throws -> E where E.RawValue == String {
    guard case let .string(s) = x, let e = E(rawValue: s) else {
        throw refused(x, missing, kind)
    }
    return e
}

// rulec: json_str
/// A JSON string as the records write it: quote, backslash and control characters escaped.
func jsonString(_ text: String) -> String {
    var out = "\""
    for u in text.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        default:
            if u.value < 0x20 {
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(u.value >> 4)]) + String(hex[Int(u.value & 15)])
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

// rulec: record
/// A fixtures record begun: its brace, and the tag when there is one (an empty tag is none).
func recordOpen(_ tag: String) -> String {
    return tag.isEmpty ? "{" : "{\"tag\":" + jsonString(tag) + ","
}

/// A fixtures record ended: the rows that matched as the records write them, then its brackets.
func recordClose(_ s: String, _ trace: [Fired]) -> String {
    let rows = trace.map { "{\"table\":" + jsonString($0.table) + ",\"row\":" + String($0.row) + "}" }
    return s + rows.joined(separator: ",") + "]}"
}

// rulec: days
/// The day number of exactly "YYYY-MM-DD", when the calendar has that day.
func days(_ s: String) -> Int64? {
    let c = Array(s.utf8)
    guard c.count == 10, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-") else {
        return nil
    }
    var parts: [Int64] = [0, 0, 0]
    for (k, range) in [(0, 0..<4), (1, 5..<7), (2, 8..<10)] {
        for i in range {
            guard c[i] >= UInt8(ascii: "0"), c[i] <= UInt8(ascii: "9") else {
                return nil
            }
            parts[k] = parts[k] * 10 + Int64(c[i] - UInt8(ascii: "0"))
        }
    }
    var y = parts[0]
    let m = parts[1]
    let d = parts[2]
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    let daysIn: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard m >= 1, m <= 12, d >= 1, d <= daysIn[Int(m - 1)] else {
        return nil
    }
    if m <= 2 {
        y -= 1
    }
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

// rulec: date_type
/// A "YYYY-MM-DD" of a day the calendar has as its day number; nil otherwise.
public func dateFromWire(_ text: String) -> Int64? {
    return days(text)
}

// rulec: date_str
/// A day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON.
func dateString(_ days: Int64) -> String {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return "\"" + pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "\""
}

// rulec: div_round_up
/// n / d rounded away from zero (d != 0).
func divRoundUp(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    if n % d == 0 {
        return q
    }
    return (n < 0) == (d < 0) ? q + 1 : q - 1
}

// rulec: div_round_down
/// n / d rounded toward zero (d != 0): Swift's own division.
func divRoundDown(_ n: Int64, _ d: Int64) -> Int64 {
    return n / d
}

// rulec: div_round_ceiling
/// n / d rounded toward +infinity (d != 0).
func divRoundCeiling(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    return n % d != 0 && (n < 0) == (d < 0) ? q + 1 : q
}

// rulec: div_round_floor
/// n / d rounded toward -infinity (d != 0; the proof, E132, rules out a zero divisor).
func divRoundFloor(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    return n % d != 0 && (n < 0) != (d < 0) ? q - 1 : q
}

// rulec: div_round_half_up
/// n / d rounded to the nearest, ties away from zero (d != 0).
func divRoundHalfUp(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    let r = (n % d).magnitude
    let away: Int64 = (n < 0) == (d < 0) ? 1 : -1
    return r != 0 && r >= d.magnitude - r ? q + away : q
}

// rulec: div_round_half_down
/// n / d rounded to the nearest, ties toward zero (d != 0).
func divRoundHalfDown(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    let r = (n % d).magnitude
    let away: Int64 = (n < 0) == (d < 0) ? 1 : -1
    return r > d.magnitude - r ? q + away : q
}

// rulec: div_round_half_even
/// n / d rounded to the nearest, ties to the even multiple (d != 0).
func divRoundHalfEven(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    let r = (n % d).magnitude
    let rest = d.magnitude - r
    let away: Int64 = (n < 0) == (d < 0) ? 1 : -1
    return r > rest || (r != 0 && r == rest && q % 2 != 0) ? q + away : q
}

// rulec: mod
/// The remainder from zero up: 0 <= r < |b| (b != 0).
func modFloor(_ a: Int64, _ b: Int64) -> Int64 {
    let r = a % b
    return r < 0 ? r + Int64(b.magnitude) : r
}

// rulec: isqrt
/// The largest r with r * r <= x (x >= 0), by a binary search over whole numbers.
func isqrtInt64(_ x: Int64) -> Int64 {
    var lo: Int64 = 0
    var hi: Int64 = min(3_037_000_499, max(x, 0))
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2
        if mid * mid <= x {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    return lo
}

// rulec: end
