// The fixed text of every generated Java class, as one Java file that javac compiles as it
// stands (tests/gen_java.rs). The Java backend copies the sections a rule needs, members of
// the rule's class: each starts at a `    // rulec: NAME` line and runs to the next one. What
// comes before the first section is for this file alone.

import java.util.List;

final class Module {
    private Module() {
    }

    /** What every generated enum holds after its members, RulecEnum standing for its name. */
    enum RulecEnum {
        ONLY("only");

        // rulec: enum_body
        private final String wire;

        RulecEnum(String wire) {
            this.wire = wire;
        }

        /** The value's name, as the wire and the records write it. */
        public String value() {
            return wire;
        }

        /** The value named {@code s} on the wire; a name the enum does not have is refused. */
        public static RulecEnum from(String s) {
            RulecEnum x = find(s);
            if (x == null) {
                throw new RuleInputError("\"" + s + "\" is not a value of RulecEnum", null);
            }
            return x;
        }

        /** The value named {@code s} on the wire, or null when the enum has none of that name. */
        static RulecEnum find(String s) {
            for (RulecEnum x : values()) {
                if (x.wire.equals(s)) {
                    return x;
                }
            }
            return null;
        }
        // rulec: enum_end
    }

    // rulec: errors
    /** The caller broke the contract: fix the call site. */
    public static final class RuleInputError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String what;
        private final Object value;

        public RuleInputError(String what, Object value) {
            super(what);
            this.what = what;
            this.value = value;
        }

        /** The sentence, the same in every language: {@code weight is out of range}. */
        public String what() {
            return what;
        }

        /**
         * The value refused as the caller gave it, or null when the refusal is not about one: a
         * Long for a number, a String for a day ({@code 2025-12-31}) or a member of an enum
         * ({@code basic}).
         */
        public Object value() {
            return value;
        }

        /** The sentence and the value as the wire writes it: {@code due is out of range: "2025-12-31"}. */
        @Override
        public String getMessage() {
            if (value == null) {
                return what;
            }
            StringBuilder s = new StringBuilder(what).append(": ");
            if (value instanceof String text) {
                appendJson(s, text);
            } else {
                s.append(value);
            }
            return s.toString();
        }
    }

    /** Two rows the checker could not prove apart both matched: fix the rule, not the call. */
    public static final class RuleContradictionError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String what;

        public RuleContradictionError(String what) {
            super(what);
            this.what = what;
        }

        /** The sentence: {@code table decide: row 1 and row 2 matched at the same time}. */
        public String what() {
            return what;
        }
    }

    /** A row that fired: the table's name and the row's number as written (from 1). */
    public record Fired(String table, int row) {
    }

    // rulec: fire
    /** The row that fired added to the trace, where the call keeps one (the plain function's keeps none). */
    private static void addFired(List<Fired> trace, String table, int row) {
        if (trace != null) {
            trace.add(new Fired(table, row));
        }
    }

    // rulec: json
    /** Append a JSON string: quote and backslash escaped, control characters as escapes, the rest as it is. */
    private static void appendJson(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                case '\b' -> s.append("\\b");
                case '\f' -> s.append("\\f");
                default -> {
                    if (c < 0x20) {
                        s.append("\\u00").append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }

    private static final String HEX = "0123456789abcdef";

    // rulec: record
    /** A fixtures record begun: its brace, and the tag when there is one (empty or null is none). */
    private static StringBuilder recordOpen(String tag) {
        StringBuilder s = new StringBuilder(256);
        s.append('{');
        if (tag != null && !tag.isEmpty()) {
            s.append("\"tag\":");
            appendJson(s, tag);
            s.append(',');
        }
        return s;
    }

    /** A fixtures record ended: the rows that matched as the records write them, then its brackets. */
    private static String recordClose(StringBuilder s, List<Fired> trace) {
        for (int i = 0; i < trace.size(); i++) {
            if (i > 0) {
                s.append(',');
            }
            s.append("{\"table\":");
            appendJson(s, trace.get(i).table());
            s.append(",\"row\":").append(trace.get(i).row()).append('}');
        }
        return s.append("]}").toString();
    }

    // rulec: date_str
    /** Append a day number as "YYYY-MM-DD" (proleptic Gregorian), quoted. */
    private static void appendDate(StringBuilder s, long days) {
        long z = days + 719468L;
        long era = Math.floorDiv(z, 146097L);
        long doe = z - era * 146097L;
        long yoe = (doe - doe / 1460L + doe / 36524L - doe / 146096L) / 365L;
        long doy = doe - (365L * yoe + yoe / 4L - yoe / 100L);
        long mp = (5L * doy + 2L) / 153L;
        long d = doy - (153L * mp + 2L) / 5L + 1L;
        long m = mp < 10L ? mp + 3L : mp - 9L;
        long y = yoe + era * 400L + (m <= 2L ? 1L : 0L);
        s.append('"').append(String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", y, m, d)).append('"');
    }

    // rulec: shown_day
    /** A day refused, as its error holds it: the "YYYY-MM-DD" of a day of the years 0000 to 9999, any other by its number. */
    private static Object shownDay(long days) {
        if (days < -719528L || days > 2932896L) {
            return days;
        }
        StringBuilder s = new StringBuilder(12);
        appendDate(s, days);
        return s.substring(1, s.length() - 1);
    }

    // rulec: date_type
    /** A "YYYY-MM-DD" of a day the calendar has, as the day number the class takes. */
    public static long dateFromWire(String text) {
        Long d = text == null ? null : days(text);
        if (d == null) {
            throw new IllegalArgumentException(text + " is not a date");
        }
        return d;
    }

    /** A java.time.LocalDate as the day number the class takes (days since 1970-01-01). */
    public static long dateOf(java.time.LocalDate day) {
        return day.toEpochDay();
    }

    // rulec: days
    /** The day number of exactly "YYYY-MM-DD", when the calendar has that day; null otherwise. */
    private static Long days(String s) {
        if (s.length() != 10 || s.charAt(4) != '-' || s.charAt(7) != '-') {
            return null;
        }
        for (int i = 0; i < 10; i++) {
            if (i != 4 && i != 7 && (s.charAt(i) < '0' || s.charAt(i) > '9')) {
                return null;
            }
        }
        long y = Long.parseLong(s.substring(0, 4));
        long m = Long.parseLong(s.substring(5, 7));
        long d = Long.parseLong(s.substring(8, 10));
        boolean leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        long[] daysIn = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        if (m < 1 || m > 12 || d < 1 || d > daysIn[(int) (m - 1)]) {
            return null;
        }
        long yy = m <= 2 ? y - 1 : y;
        long era = Math.floorDiv(yy, 400L);
        long yoe = yy - era * 400L;
        long doy = (153L * (m > 2 ? m - 3 : m + 9) + 2L) / 5L + d - 1L;
        long doe = yoe * 365L + yoe / 4L - yoe / 100L + doy;
        return era * 146097L + doe - 719468L;
    }

    // rulec: wire
    /** A call's value that is not there (or null) is missing; one of another kind is refused. */
    private static RuleInputError refused(Object x, String missing, String kind) {
        return new RuleInputError(x == null ? missing : kind, null);
    }

    // rulec: wire_int
    /** A whole number on the wire (1000, 1e3, 1000.0), read exactly from its digits. */
    private static long wireLong(Object x, String missing, String kind, String out) {
        if (!(x instanceof java.math.BigDecimal n)) {
            throw refused(x, missing, kind);
        }
        if (n.signum() == 0) {
            return 0L;
        }
        if (n.precision() - n.scale() > 19) {
            throw new RuleInputError(out, null);
        }
        java.math.BigDecimal whole = n.stripTrailingZeros();
        if (whole.scale() > 0) {
            throw new RuleInputError(kind, null);
        }
        try {
            return whole.longValueExact();
        } catch (ArithmeticException tooBig) {
            throw new RuleInputError(out, null);
        }
    }

    // rulec: wire_bool
    private static boolean wireBool(Object x, String missing, String kind) {
        if (!(x instanceof Boolean b)) {
            throw refused(x, missing, kind);
        }
        return b;
    }

    // rulec: wire_str
    private static String wireString(Object x, String missing, String kind) {
        if (!(x instanceof String s)) {
            throw refused(x, missing, kind);
        }
        return s;
    }

    // rulec: wire_day
    private static long wireDay(Object x, String missing, String kind) {
        Long d = x instanceof String s ? days(s) : null;
        if (d == null) {
            throw refused(x, missing, kind);
        }
        return d;
    }

    // rulec: wire_member
    private static <E> E wireMember(Object x, java.util.function.Function<String, E> from, String missing, String kind) {
        E e = x instanceof String s ? from.apply(s) : null;
        if (e == null) {
            throw refused(x, missing, kind);
        }
        return e;
    }

    // rulec: div_round_up
    /** n / d rounded away from zero (d != 0). */
    private static long divRoundUp(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        return r != 0 && q >= 0 ? q + 1 : q;
    }

    // rulec: div_round_down
    /** n / d rounded toward zero (d != 0). */
    private static long divRoundDown(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        return r != 0 && q < 0 ? q + 1 : q;
    }

    // rulec: div_round_ceiling
    /** n / d rounded toward +infinity (d != 0). */
    private static long divRoundCeiling(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        return r != 0 ? q + 1 : q;
    }

    // rulec: div_round_floor
    /** n / d rounded toward -infinity (d != 0: the proof, E132, rules out a zero divisor). */
    private static long divRoundFloor(long n, long d) {
        return Math.floorDiv(n, d);
    }

    // rulec: div_round_half_up
    /** n / d rounded to the nearest, ties away from zero (d != 0). */
    private static long divRoundHalfUp(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        int half = d > 0 ? Long.compare(r, d - r) : Long.compare(d - r, r);
        return half > 0 || (half == 0 && q >= 0) ? q + 1 : q;
    }

    // rulec: div_round_half_down
    /** n / d rounded to the nearest, ties toward zero (d != 0). */
    private static long divRoundHalfDown(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        int half = d > 0 ? Long.compare(r, d - r) : Long.compare(d - r, r);
        return half > 0 || (half == 0 && q < 0) ? q + 1 : q;
    }

    // rulec: div_round_half_even
    /** n / d rounded to the nearest, ties to the even multiple (d != 0). */
    private static long divRoundHalfEven(long n, long d) {
        long q = Math.floorDiv(n, d);
        long r = Math.floorMod(n, d);
        int half = d > 0 ? Long.compare(r, d - r) : Long.compare(d - r, r);
        return half > 0 || (half == 0 && (q & 1L) != 0) ? q + 1 : q;
    }

    // rulec: mod
    /** The remainder from zero up: 0 <= r < |b| (b != 0). */
    private static long modFloor(long a, long b) {
        return Math.floorMod(a, Math.abs(b));
    }

    // rulec: isqrt
    /** The largest r with r * r <= x (x >= 0), by a binary search over whole numbers. */
    private static long isqrtLong(long x) {
        long lo = 0L;
        long hi = Math.min(3037000499L, Math.max(x, 0L));
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (mid * mid <= x) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    // rulec: min_enum
    /** The earlier of two values of an ordered enum. */
    private static <E extends Enum<E>> E least(E a, E b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    // rulec: max_enum
    /** The later of two values of an ordered enum. */
    private static <E extends Enum<E>> E greatest(E a, E b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    // rulec: end
}
