<?php

// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a file may
// carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The PHP backend writes
// the arithmetic sections of module.php in place of the line below that names them.

declare(strict_types=1);

namespace RulecHelpers;

// rulec: helpers

$out = '';
while (($line = \fgets(\STDIN)) !== false) {
    if (\trim($line) === '') {
        continue;
    }
    $c = \json_decode($line, true);
    $a = (int) $c['a'];
    $b = (int) $c['b'];
    $r = match ($c['op']) {
        'quot_floor' => _div_round_floor($a, $b),
        'quot_ceiling' => _div_round_ceiling($a, $b),
        'quot_down' => _div_round_down($a, $b),
        'quot_up' => _div_round_up($a, $b),
        'quot_half_up' => _div_round_half_up($a, $b),
        'quot_half_down' => _div_round_half_down($a, $b),
        'quot_half_even' => _div_round_half_even($a, $b),
        'mod' => _mod($a, $b),
        'isqrt' => _isqrt($a),
    };
    $out .= '{"result":"' . $r . "\"}\n";
}
echo $out;
