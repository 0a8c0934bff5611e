// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a class may
// carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Java backend writes the
// arithmetic sections of Module.java into it in place of the line below that names them.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

final class _helpers_runner {
    private _helpers_runner() {
    }

    // rulec: helpers

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            String op = field(line, "op");
            long a = Long.parseLong(field(line, "a"));
            long b = Long.parseLong(field(line, "b"));
            out.append("{\"result\":\"").append(apply(op, a, b)).append("\"}\n");
        }
        System.out.print(out);
    }

    /** The string value of a key in one case line (the cases are written by rulec: no escapes). */
    private static String field(String line, String key) {
        int at = line.indexOf("\"" + key + "\":\"") + key.length() + 4;
        return line.substring(at, line.indexOf('"', at));
    }

    private static long apply(String op, long a, long b) {
        return switch (op) {
            case "quot_floor" -> divRoundFloor(a, b);
            case "quot_ceiling" -> divRoundCeiling(a, b);
            case "quot_down" -> divRoundDown(a, b);
            case "quot_up" -> divRoundUp(a, b);
            case "quot_half_up" -> divRoundHalfUp(a, b);
            case "quot_half_down" -> divRoundHalfDown(a, b);
            case "quot_half_even" -> divRoundHalfEven(a, b);
            case "mod" -> modFloor(a, b);
            case "isqrt" -> isqrtLong(a);
            default -> throw new IllegalArgumentException("unknown helper " + op);
        };
    }
}
