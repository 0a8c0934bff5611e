// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a file may
// carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Swift backend writes
// the arithmetic sections of Module.swift in place of the line below that names them.

// rulec: helpers

/// The string value of a key in one case line (the cases are written by rulec: no escapes).
func field(_ line: String, _ key: String) -> String {
    let marker = Array(("\"" + key + "\":\"").utf8)
    let bytes = Array(line.utf8)
    var i = 0
    while i + marker.count <= bytes.count {
        if Array(bytes[i..<i + marker.count]) == marker {
            var j = i + marker.count
            var value: [UInt8] = []
            while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
                value.append(bytes[j])
                j += 1
            }
            return String(decoding: value, as: UTF8.self)
        }
        i += 1
    }
    return ""
}

@main
struct HelpersRunner {
    static func main() {
        var out = ""
        while let line = readLine() {
            if line.isEmpty {
                continue
            }
            let a = Int64(field(line, "a")) ?? 0
            let b = Int64(field(line, "b")) ?? 0
            let r: Int64
            switch field(line, "op") {
            case "quot_floor": r = divRoundFloor(a, b)
            case "quot_ceiling": r = divRoundCeiling(a, b)
            case "quot_down": r = divRoundDown(a, b)
            case "quot_up": r = divRoundUp(a, b)
            case "quot_half_up": r = divRoundHalfUp(a, b)
            case "quot_half_down": r = divRoundHalfDown(a, b)
            case "quot_half_even": r = divRoundHalfEven(a, b)
            case "mod": r = modFloor(a, b)
            default: r = isqrtInt64(a)
            }
            out += "{\"result\":\"" + String(r) + "\"}\n"
        }
        print(out, terminator: "")
    }
}
