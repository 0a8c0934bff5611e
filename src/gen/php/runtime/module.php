<?php

// The fixed text of every generated PHP file, as one PHP file that `php -l` checks as it
// stands (tests/gen_php.rs). The PHP backend copies the sections a rule needs into the
// rule's namespace: each starts at a `// rulec: NAME` line and runs to the next one. What
// comes before the first section is for this file alone.

declare(strict_types=1);

namespace RulecModule;

// rulec: errors
/** The caller broke the contract: fix the call site. */
final class RuleInputError extends \InvalidArgumentException
{
    /**
     * @param string $what the sentence, the same in every language: `weight is out of range`
     * @param ?string $refused the value refused, or null when the refusal is not about one
     */
    public function __construct(public readonly string $what, public readonly ?string $refused = null)
    {
        parent::__construct($refused === null ? $what : $what . ': ' . $refused);
    }
}

/** Two rows the checker could not prove apart both matched: fix the rule, not the call. */
final class RuleContradictionError extends \RuntimeException
{
    public function __construct(public readonly string $what)
    {
        parent::__construct($what);
    }
}

/** A row that matched: the table's name and the row's number as written (from 1). */
final class Fired
{
    public function __construct(public readonly string $table, public readonly int $row)
    {
    }
}

// rulec: wire
/** The door's refusal of a value that is not of its kind: missing first. */
function _refuse(mixed $x, string $missing, string $kind): never
{
    if ($x === null) {
        throw new RuleInputError($missing);
    }
    throw new RuleInputError($kind, \var_export($x, true));
}

// rulec: walk
/** A sequence a walk reads: a list of at most `$most` elements. */
function _sequence(mixed $x, string $missing, string $notSequence, string $tooMany, int $most): array
{
    if ($x === null) {
        throw new RuleInputError($missing);
    }
    if (!\is_array($x) || !\array_is_list($x)) {
        throw new RuleInputError($notSequence, \var_export($x, true));
    }
    if (\count($x) > $most) {
        throw new RuleInputError($tooMany);
    }
    return $x;
}

/** Where an element is, as a refusal names it: `lines[2]`. */
function _place(string $name, int $i): string
{
    return $name . '[' . $i . ']';
}

// rulec: wire_int
/**
 * The door of a whole number on the wire (a date as its day number): missing, its kind (a
 * float whose value is whole, within 64 bits, is the integer it equals), its range.
 */
function _check_int(mixed $x, int $lo, int $hi, string $missing, string $kind, string $out): int
{
    if ($x === null) {
        throw new RuleInputError($missing);
    }
    if (\is_float($x) && \is_finite($x) && \floor($x) === $x) {
        if ($x < -9.2233720368547758e18 || $x >= 9.2233720368547758e18) {
            throw new RuleInputError($out, \var_export($x, true));
        }
        $x = (int) $x;
    }
    if (!\is_int($x)) {
        throw new RuleInputError($kind, \var_export($x, true));
    }
    if ($x < $lo || $x > $hi) {
        throw new RuleInputError($out, (string) $x);
    }
    return $x;
}

// rulec: wire_day
/** The day number of a "YYYY-MM-DD" the wire carries. */
function _wire_day(mixed $x, string $missing, string $kind): int
{
    $d = \is_string($x) ? _days($x) : null;
    if ($d === null) {
        _refuse($x, $missing, $kind);
    }
    return $d;
}

// rulec: days
/** The day number of exactly "YYYY-MM-DD", when the calendar has that day. */
function _days(string $s): ?int
{
    if (\preg_match('/\A\d{4}-\d{2}-\d{2}\z/', $s) !== 1) {
        return null;
    }
    $y = (int) \substr($s, 0, 4);
    $m = (int) \substr($s, 5, 2);
    $d = (int) \substr($s, 8, 2);
    $leap = ($y % 4 === 0 && $y % 100 !== 0) || $y % 400 === 0;
    $daysIn = [31, $leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if ($m < 1 || $m > 12 || $d < 1 || $d > $daysIn[$m - 1]) {
        return null;
    }
    $y = $m <= 2 ? $y - 1 : $y;
    $era = \intdiv($y >= 0 ? $y : $y - 399, 400);
    $yoe = $y - $era * 400;
    $doy = \intdiv(153 * ($m > 2 ? $m - 3 : $m + 9) + 2, 5) + $d - 1;
    $doe = $yoe * 365 + \intdiv($yoe, 4) - \intdiv($yoe, 100) + $doy;
    return $era * 146097 + $doe - 719468;
}

// rulec: date_type
/** A "YYYY-MM-DD" of a day the calendar has, as the day number the functions take. */
function date_from_wire(string $text): int
{
    $d = _days($text);
    if ($d === null) {
        throw new \InvalidArgumentException($text . ' is not a date');
    }
    return $d;
}

/** A \DateTimeInterface as the day number the functions take (its calendar day). */
function date_of(\DateTimeInterface $day): int
{
    return _days($day->format('Y-m-d')) ?? throw new \InvalidArgumentException('not a date');
}

// rulec: json_str
/** A JSON string as the records write it: quote, backslash and control characters escaped. */
function _json_str(string $text): string
{
    $out = '"';
    $n = \strlen($text);
    for ($i = 0; $i < $n; $i++) {
        $c = $text[$i];
        $o = \ord($c);
        if ($c === '"') {
            $out .= '\\"';
        } elseif ($c === '\\') {
            $out .= '\\\\';
        } elseif ($o >= 0x20) {
            $out .= $c;
        } elseif ($c === "\n") {
            $out .= '\\n';
        } elseif ($c === "\r") {
            $out .= '\\r';
        } elseif ($c === "\t") {
            $out .= '\\t';
        } elseif ($o === 8) {
            $out .= '\\b';
        } elseif ($o === 12) {
            $out .= '\\f';
        } else {
            $out .= \sprintf('\\u%04x', $o);
        }
    }
    return $out . '"';
}

// rulec: record
/** A fixtures record begun: its brace, and the tag when there is one (an empty or null tag is none). */
function _record_open(?string $tag): string
{
    return $tag === null || $tag === '' ? '{' : '{"tag":' . _json_str($tag) . ',';
}

/**
 * A fixtures record ended: the rows that matched as the records write them, then its brackets.
 *
 * @param list<Fired> $trace
 */
function _record_close(string $s, array $trace): string
{
    $rows = [];
    foreach ($trace as $f) {
        $rows[] = '{"table":' . _json_str($f->table) . ',"row":' . $f->row . '}';
    }
    return $s . \implode(',', $rows) . ']}';
}

// rulec: date_str
/** A day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON. */
function _date_str(int $days): string
{
    $z = $days + 719468;
    $era = \intdiv($z >= 0 ? $z : $z - 146096, 146097);
    $doe = $z - $era * 146097;
    $yoe = \intdiv($doe - \intdiv($doe, 1460) + \intdiv($doe, 36524) - \intdiv($doe, 146096), 365);
    $doy = $doe - (365 * $yoe + \intdiv($yoe, 4) - \intdiv($yoe, 100));
    $mp = \intdiv(5 * $doy + 2, 153);
    $d = $doy - \intdiv(153 * $mp + 2, 5) + 1;
    $m = $mp < 10 ? $mp + 3 : $mp - 9;
    $y = $yoe + $era * 400 + ($m <= 2 ? 1 : 0);
    return \sprintf('"%04d-%02d-%02d"', $y, $m, $d);
}

// rulec: div_round_up
/** n / d rounded away from zero (d != 0). */
function _div_round_up(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    if ($n % $d === 0) {
        return $q;
    }
    return ($n < 0) === ($d < 0) ? $q + 1 : $q - 1;
}

// rulec: div_round_down
/** n / d rounded toward zero (d != 0): intdiv itself. */
function _div_round_down(int $n, int $d): int
{
    return \intdiv($n, $d);
}

// rulec: div_round_ceiling
/** n / d rounded toward +infinity (d != 0). */
function _div_round_ceiling(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    return ($n % $d !== 0 && ($n < 0) === ($d < 0)) ? $q + 1 : $q;
}

// rulec: div_round_floor
/** n / d rounded toward -infinity (d != 0; the proof, E132, rules out a zero divisor). */
function _div_round_floor(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    return ($n % $d !== 0 && ($n < 0) !== ($d < 0)) ? $q - 1 : $q;
}

// rulec: div_round_half_up
/** n / d rounded to the nearest, ties away from zero (d != 0). */
function _div_round_half_up(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    $r = \abs($n % $d);
    $away = ($n < 0) === ($d < 0) ? 1 : -1;
    return $r !== 0 && $r >= \abs($d) - $r ? $q + $away : $q;
}

// rulec: div_round_half_down
/** n / d rounded to the nearest, ties toward zero (d != 0). */
function _div_round_half_down(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    $r = \abs($n % $d);
    $away = ($n < 0) === ($d < 0) ? 1 : -1;
    return $r > \abs($d) - $r ? $q + $away : $q;
}

// rulec: div_round_half_even
/** n / d rounded to the nearest, ties to the even multiple (d != 0). */
function _div_round_half_even(int $n, int $d): int
{
    $q = \intdiv($n, $d);
    $r = \abs($n % $d);
    $away = ($n < 0) === ($d < 0) ? 1 : -1;
    $rest = \abs($d) - $r;
    return $r > $rest || ($r !== 0 && $r === $rest && $q % 2 !== 0) ? $q + $away : $q;
}

// rulec: mod
/** The remainder from zero up: 0 <= r < |b| (b != 0). */
function _mod(int $a, int $b): int
{
    $r = $a % $b;
    return $r < 0 ? $r + \abs($b) : $r;
}

// rulec: isqrt
/** The largest r with r * r <= x (x >= 0), by a binary search over whole numbers. */
function _isqrt(int $x): int
{
    $lo = 0;
    $hi = \min(3037000499, \max($x, 0));
    while ($lo < $hi) {
        $mid = $lo + \intdiv($hi - $lo + 1, 2);
        if ($mid * $mid <= $x) {
            $lo = $mid;
        } else {
            $hi = $mid - 1;
        }
    }
    return $lo;
}

// rulec: end
