// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
// line. It reads the JSON with a reader of its own (a number kept as its text) and hands the
// object to the file's own door, which checks it in the reference's order; the runner checks
// nothing itself. Built with the rule's file: swiftc rule.swift rule_runner.swift.
//
// The Swift backend writes it beside each rule with `rulecWire` and `RulecRunner` replaced by
// the door's and the runner's names.

/// A JSON value as the line holds it.
indirect enum Json {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([Json])
    case object([(String, Json)])

    var wire: Wire {
        switch self {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .number(t): return .number(t)
        case let .string(s): return .string(s)
        case .array, .object: return .other
        }
    }
}

/// JSON as strict as the reference's reader; nil for a line that is not JSON.
struct JsonReader {
    /// serde_json's limit: a line whose arrays and objects nest deeper is not JSON to the reference.
    static let maxDepth = 127

    let s: [UInt8]
    var i = 0

    init(_ line: String) {
        s = Array(line.utf8)
    }

    mutating func ws() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D {
            i += 1
        }
    }

    mutating func eat(_ c: UInt8) -> Bool {
        if i < s.count, s[i] == c {
            i += 1
            return true
        }
        return false
    }

    mutating func word(_ w: String) -> Bool {
        let b = Array(w.utf8)
        if i + b.count <= s.count, Array(s[i..<i + b.count]) == b {
            i += b.count
            return true
        }
        return false
    }

    mutating func document() -> Json? {
        ws()
        guard let v = value(0) else {
            return nil
        }
        ws()
        return i == s.count ? v : nil
    }

    /// The value at i, inside `depth` arrays and objects.
    mutating func value(_ depth: Int) -> Json? {
        guard i < s.count else {
            return nil
        }
        if s[i] == UInt8(ascii: "{") || s[i] == UInt8(ascii: "["), depth >= JsonReader.maxDepth {
            return nil
        }
        switch s[i] {
        case UInt8(ascii: "{"): return object(depth)
        case UInt8(ascii: "["): return array(depth)
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return word("null") ? .null : nil
        default: return number()
        }
    }

    mutating func object(_ depth: Int) -> Json? {
        i += 1
        var members: [(String, Json)] = []
        ws()
        if eat(UInt8(ascii: "}")) {
            return .object(members)
        }
        while true {
            ws()
            guard i < s.count, s[i] == UInt8(ascii: "\""), let key = string() else {
                return nil
            }
            ws()
            guard eat(UInt8(ascii: ":")) else {
                return nil
            }
            ws()
            guard let v = value(depth + 1) else {
                return nil
            }
            members.append((key, v))
            ws()
            if eat(UInt8(ascii: "}")) {
                return .object(members)
            }
            guard eat(UInt8(ascii: ",")) else {
                return nil
            }
        }
    }

    mutating func array(_ depth: Int) -> Json? {
        i += 1
        var items: [Json] = []
        ws()
        if eat(UInt8(ascii: "]")) {
            return .array(items)
        }
        while true {
            ws()
            guard let v = value(depth + 1) else {
                return nil
            }
            items.append(v)
            ws()
            if eat(UInt8(ascii: "]")) {
                return .array(items)
            }
            guard eat(UInt8(ascii: ",")) else {
                return nil
            }
        }
    }

    mutating func digits() -> Int {
        let start = i
        while i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") {
            i += 1
        }
        return i - start
    }

    mutating func number() -> Json? {
        let start = i
        _ = eat(UInt8(ascii: "-"))
        if eat(UInt8(ascii: "0")) {
        } else if digits() == 0 {
            return nil
        }
        if eat(UInt8(ascii: ".")), digits() == 0 {
            return nil
        }
        if eat(UInt8(ascii: "e")) || eat(UInt8(ascii: "E")) {
            if !eat(UInt8(ascii: "+")) {
                _ = eat(UInt8(ascii: "-"))
            }
            if digits() == 0 {
                return nil
            }
        }
        return .number(String(decoding: s[start..<i], as: UTF8.self))
    }

    mutating func hex4() -> UInt32? {
        guard i + 4 <= s.count else {
            return nil
        }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = s[i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v * 16 + UInt32(d)
            i += 1
        }
        return v
    }

    mutating func string() -> String? {
        i += 1
        var bytes: [UInt8] = []
        while i < s.count {
            let c = s[i]
            i += 1
            if c == UInt8(ascii: "\"") {
                return String(decoding: bytes, as: UTF8.self)
            }
            if c < 0x20 {
                return nil
            }
            if c != UInt8(ascii: "\\") {
                bytes.append(c)
                continue
            }
            guard i < s.count else {
                return nil
            }
            let e = s[i]
            i += 1
            var scalar: UInt32
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(e)
            case UInt8(ascii: "b"): scalar = 8
            case UInt8(ascii: "f"): scalar = 12
            case UInt8(ascii: "n"): scalar = 10
            case UInt8(ascii: "r"): scalar = 13
            case UInt8(ascii: "t"): scalar = 9
            case UInt8(ascii: "u"):
                guard let u = hex4() else {
                    return nil
                }
                scalar = u
                if u >= 0xD800, u < 0xDC00 {
                    guard eat(UInt8(ascii: "\\")), eat(UInt8(ascii: "u")), let low = hex4(), low >= 0xDC00, low < 0xE000 else {
                        return nil
                    }
                    scalar = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                } else if u >= 0xDC00, u < 0xE000 {
                    return nil
                }
            default:
                return nil
            }
            guard let us = Unicode.Scalar(scalar) else {
                return nil
            }
            bytes.append(contentsOf: Array(String(Character(us)).utf8))
        }
        return nil
    }
}

@main
struct RulecRunner {
    static func main() {
        var out = ""
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                continue
            }
            var reader = JsonReader(line)
            var call: Json? = reader.document()
            if case let .object(members)? = call, let inner = members.last(where: { $0.0 == "in" }) {
                call = inner.1
            }
            var object: [(String, Wire)]?
            if case let .object(members)? = call {
                object = members.map { ($0.0, $0.1.wire) }
            }
            do {
                out += try rulecWire(object, tag: "") + "\n"
            } catch let RuleError.input(what, _) {
                out += "{\"refused\":\"input\",\"error\":" + jsonString(what) + "}\n"
            } catch let RuleError.contradiction(what) {
                out += "{\"refused\":\"contradiction\",\"error\":" + jsonString(what) + "}\n"
            } catch {
                out += "{\"refused\":\"input\",\"error\":" + jsonString(String(describing: error)) + "}\n"
            }
        }
        print(out, terminator: "")
    }
}
