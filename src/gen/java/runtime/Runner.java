// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
// line. It reads the JSON — numbers as BigDecimal, kept exactly — and hands the object to the
// class's own door, which checks it in the reference's order; the runner checks nothing.
//
// The Java backend writes it beside each class with `RulecRule`, `RulecRunner` and
// `rulecWire` replaced by the class's, the runner's and the door's names.

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class RulecRunner {
    private RulecRunner() {
    }

    public static void main(String[] args) throws IOException {
        InputStream in = System.in;
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        int n;
        while ((n = in.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                if (buf[i] == '\n') {
                    answer(line.toByteArray(), out);
                    line.reset();
                } else {
                    line.write(buf[i]);
                }
            }
        }
        answer(line.toByteArray(), out);
        out.flush();
    }

    /** One line: the record, or the refusal in its place; a blank line is passed over. */
    private static void answer(byte[] bytes, Writer out) throws IOException {
        String line;
        try {
            line = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException notUtf8) {
            // Bytes that are not UTF-8 are not JSON either: refused like any such line.
            line = null;
        }
        if (line != null && line.isBlank()) {
            return;
        }
        Object call = line == null ? Json.NOT_JSON : Json.parse(line);
        if (call instanceof Map<?, ?> top && top.containsKey("in")) {
            call = top.get("in");
        }
        String answer;
        try {
            answer = RulecRule.rulecWire(call == Json.NOT_JSON ? null : call, "");
        } catch (RulecRule.RuleInputError e) {
            answer = refusal("input", e.what());
        } catch (RulecRule.RuleContradictionError e) {
            answer = refusal("contradiction", e.what());
        }
        out.write(answer);
        out.write('\n');
    }

    private static String refusal(String kind, String what) {
        StringBuilder s = new StringBuilder("{\"refused\":\"");
        s.append(kind).append("\",\"error\":\"");
        for (int i = 0; i < what.length(); i++) {
            char c = what.charAt(i);
            if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else if (c < 0x20) {
                s.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        return s.append("\"}").toString();
    }

    /** JSON as strict as the reference's reader: a number is a BigDecimal of its exact text. */
    private static final class Json {
        private Json() {
        }

        /** What a line that is not JSON reads as. */
        static final Object NOT_JSON = new Object();

        /** serde_json's limit: a line whose arrays and objects nest deeper is not JSON to the reference. */
        static final int MAX_DEPTH = 127;

        static Object parse(String s) {
            Json.Parser p = new Json.Parser(s);
            try {
                p.ws();
                Object v = p.value(0);
                p.ws();
                return p.i == s.length() ? v : NOT_JSON;
            } catch (IllegalStateException | IndexOutOfBoundsException bad) {
                return NOT_JSON;
            }
        }

        private static final class Parser {
            final String s;
            int i;

            Parser(String s) {
                this.s = s;
            }

            IllegalStateException bad() {
                return new IllegalStateException("not JSON at " + i);
            }

            void ws() {
                while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
                    i++;
                }
            }

            void word(String w) {
                if (!s.startsWith(w, i)) {
                    throw bad();
                }
                i += w.length();
            }

            /** The value at i, inside {@code depth} arrays and objects. */
            Object value(int depth) {
                char c = s.charAt(i);
                if ((c == '{' || c == '[') && depth >= MAX_DEPTH) {
                    throw bad();
                }
                switch (c) {
                    case '{':
                        return object(depth);
                    case '[':
                        return array(depth);
                    case '"':
                        return string();
                    case 't':
                        word("true");
                        return Boolean.TRUE;
                    case 'f':
                        word("false");
                        return Boolean.FALSE;
                    case 'n':
                        word("null");
                        return null;
                    default:
                        return number();
                }
            }

            Map<String, Object> object(int depth) {
                i++;
                Map<String, Object> out = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return out;
                }
                while (true) {
                    ws();
                    if (s.charAt(i) != '"') {
                        throw bad();
                    }
                    String key = string();
                    ws();
                    if (s.charAt(i++) != ':') {
                        throw bad();
                    }
                    ws();
                    out.put(key, value(depth + 1));
                    ws();
                    char c = s.charAt(i++);
                    if (c == '}') {
                        return out;
                    }
                    if (c != ',') {
                        throw bad();
                    }
                }
            }

            List<Object> array(int depth) {
                i++;
                List<Object> out = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return out;
                }
                while (true) {
                    ws();
                    out.add(value(depth + 1));
                    ws();
                    char c = s.charAt(i++);
                    if (c == ']') {
                        return out;
                    }
                    if (c != ',') {
                        throw bad();
                    }
                }
            }

            BigDecimal number() {
                int start = i;
                if (s.charAt(i) == '-') {
                    i++;
                }
                if (s.charAt(i) == '0') {
                    i++;
                } else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
                    digits();
                } else {
                    throw bad();
                }
                if (i < s.length() && s.charAt(i) == '.') {
                    i++;
                    if (digits() == 0) {
                        throw bad();
                    }
                }
                if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    i++;
                    if (s.charAt(i) == '+' || s.charAt(i) == '-') {
                        i++;
                    }
                    if (digits() == 0) {
                        throw bad();
                    }
                }
                String text = s.substring(start, i);
                try {
                    return new BigDecimal(text);
                } catch (NumberFormatException exponentBeyondAnInt) {
                    // Zero is zero whatever its exponent; otherwise, a number past every range
                    // (a large exponent) or one that is not whole (a small one).
                    String mantissa = text.split("[eE]")[0];
                    if (mantissa.replaceAll("[-0.]", "").isEmpty()) {
                        return BigDecimal.ZERO;
                    }
                    return text.matches(".*[eE]-.*") ? new BigDecimal("0.5") : new BigDecimal("1e999999999");
                }
            }

            int digits() {
                int start = i;
                while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    i++;
                }
                return i - start;
            }

            String string() {
                i++;
                StringBuilder out = new StringBuilder();
                while (true) {
                    char c = s.charAt(i++);
                    if (c == '"') {
                        return out.toString();
                    }
                    if (c < 0x20) {
                        throw bad();
                    }
                    if (c != '\\') {
                        out.append(c);
                        continue;
                    }
                    char e = s.charAt(i++);
                    switch (e) {
                        case '"', '\\', '/' -> out.append(e);
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'u' -> {
                            char u = hex4();
                            if (Character.isHighSurrogate(u)) {
                                if (!s.startsWith("\\u", i)) {
                                    throw bad();
                                }
                                i += 2;
                                char low = hex4();
                                if (!Character.isLowSurrogate(low)) {
                                    throw bad();
                                }
                                out.append(u).append(low);
                            } else if (Character.isLowSurrogate(u)) {
                                throw bad();
                            } else {
                                out.append(u);
                            }
                        }
                        default -> throw bad();
                    }
                }
            }

            char hex4() {
                int v = 0;
                for (int k = 0; k < 4; k++) {
                    int d = Character.digit(s.charAt(i++), 16);
                    if (d < 0) {
                        throw bad();
                    }
                    v = v * 16 + d;
                }
                return (char) v;
            }
        }
    }
}
