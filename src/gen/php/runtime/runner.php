<?php

// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
// line. It reads the JSON (objects as objects, so {} and [] stay apart) and hands the object
// to the file's own door, which checks it in the reference's order; the runner checks nothing.
//
// The PHP backend writes it beside each rule's file with `rulec_rule.php`, `RulecRule` and
// `rulec_wire` replaced by the file, the namespace and the door.

declare(strict_types=1);

require_once __DIR__ . '/rulec_rule.php';

// serde_json's limit: a line whose arrays and objects nest deeper is not JSON to the reference.
const MAX_DEPTH = 127;

$out = '';
while (($line = \fgets(\STDIN)) !== false) {
    if (\trim($line) === '') {
        continue;
    }
    // json_decode's depth counts one level more than there are arrays and objects around
    // the innermost value ([] needs 2).
    $top = \json_decode($line, false, MAX_DEPTH + 1);
    if (\json_last_error() !== \JSON_ERROR_NONE) {
        $top = false;
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
