<?php

// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
// line. It reads the JSON (objects as objects, so {} and [] stay apart) and hands the object
// to the file's own door, which checks it in the reference's order; the runner checks nothing.
//
// The PHP backend writes it beside each rule's file with `rulec_rule.php`, `RulecRule` and
// `rulec_wire` replaced by the file, the namespace and the door.

declare(strict_types=1);

require_once __DIR__ . '/rulec_rule.php';

// The deepest nesting serde_json reads: the reference takes a line nested deeper for no JSON.
const MAX_DEPTH = 127;

/**
 * The line as json_decode must read it to hand the door what the reference reads: every
 * number written as what its exact value is to the door (json_decode would read a number
 * with a point or an exponent, and one too long for 64 bits, as a rounded float): a whole
 * number within 64 bits as its digits, a whole one beyond as 1e300, one with a fraction as
 * 0.5. Null for a line nested deeper than MAX_DEPTH. Anything that is no JSON stays so.
 */
function exact_json(string $line): ?string
{
    $out = '';
    $depth = 0;
    $n = \strlen($line);
    $i = 0;
    while ($i < $n) {
        $plain = \strcspn($line, '"[]{}-0123456789', $i);
        $out .= \substr($line, $i, $plain);
        $i += $plain;
        if ($i >= $n) {
            break;
        }
        $c = $line[$i];
        if ($c === '"') {
            $j = $i + 1;
            while ($j < $n && $line[$j] !== '"') {
                $j += $line[$j] === '\\' ? 2 : 1;
            }
            $out .= \substr($line, $i, $j + 1 - $i);
            $i = $j + 1;
        } elseif ($c === '[' || $c === '{') {
            $depth += 1;
            if ($depth > MAX_DEPTH) {
                return null;
            }
            $out .= $c;
            $i += 1;
        } elseif ($c === ']' || $c === '}') {
            $depth -= 1;
            $out .= $c;
            $i += 1;
        } elseif (\preg_match('/\G(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?/', $line, $m, 0, $i) === 1) {
            $out .= exact_number($m[0], $m[1] === '-', $m[2], $m[3] ?? '', $m[4] ?? '');
            $i += \strlen($m[0]);
        } else {
            $out .= $c;
            $i += 1;
        }
    }
    return $out;
}

/** One JSON number (its text, sign, whole digits, fraction digits, exponent) as exact_json writes it. */
function exact_number(string $text, bool $negative, string $whole, string $fraction, string $exponent): string
{
    if ($fraction === '' && $exponent === '' && \strlen($whole) <= 18) {
        return $text;
    }
    $digits = \ltrim($whole . $fraction, '0');
    if ($digits === '') {
        return '0';
    }
    $significant = \rtrim($digits, '0');
    // The power of ten of the last significant digit; an exponent of more than nine digits
    // puts the number past every range or below every whole number, whatever its digits.
    $power = \strlen($digits) - \strlen($significant) - \strlen($fraction);
    $e = \ltrim(\ltrim($exponent, '+-'), '0');
    if (\strlen($e) > 9) {
        $power = \str_starts_with($exponent, '-') ? -1 : 20;
    } elseif ($e !== '') {
        $power += \str_starts_with($exponent, '-') ? -(int) $e : (int) $e;
    }
    if ($power < 0) {
        return $negative ? '-0.5' : '0.5';
    }
    $sign = $negative ? '-' : '';
    if (\strlen($significant) + $power > 19) {
        return $sign . '1e300';
    }
    $value = $significant . \str_repeat('0', $power);
    $limit = $negative ? '9223372036854775808' : '9223372036854775807';
    if (\strlen($value) === 19 && \strcmp($value, $limit) > 0) {
        return $sign . '1e300';
    }
    return $sign . $value;
}

$out = '';
while (($line = \fgets(\STDIN)) !== false) {
    if (\trim($line) === '') {
        continue;
    }
    $exact = exact_json($line);
    $top = false;
    if ($exact !== null) {
        $top = \json_decode($exact, false, MAX_DEPTH + 2);
        if (\json_last_error() !== \JSON_ERROR_NONE) {
            $top = false;
        }
    }
    $call = $top instanceof \stdClass && \property_exists($top, 'in') ? $top->in : $top;
    // In json_decode's objects, a JSON object is a stdClass and nothing else is.
    $call = $call instanceof \stdClass ? $call : false;
    try {
        $out .= \RulecRule\rulec_wire($call) . "\n";
    } catch (\RulecRule\RuleInputError $e) {
        $out .= '{"refused":"input","error":' . \RulecRule\_json_str($e->what) . "}\n";
    } catch (\RulecRule\RuleContradictionError $e) {
        $out .= '{"refused":"contradiction","error":' . \RulecRule\_json_str($e->what) . "}\n";
    }
}
echo $out;
