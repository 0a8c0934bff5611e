// The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a module
// may carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The backend
// writes runner.ts's `node` section and the arithmetic sections of module.ts above the
// section below.

declare function _lines(answer: (line: string | null) => string): void;
declare function _divRoundFloor(n: bigint, d: bigint): bigint;
declare function _divRoundCeiling(n: bigint, d: bigint): bigint;
declare function _divRoundDown(n: bigint, d: bigint): bigint;
declare function _divRoundUp(n: bigint, d: bigint): bigint;
declare function _divRoundHalfUp(n: bigint, d: bigint): bigint;
declare function _divRoundHalfDown(n: bigint, d: bigint): bigint;
declare function _divRoundHalfEven(n: bigint, d: bigint): bigint;
declare function _mod(a: bigint, b: bigint): bigint;
declare function _isqrt(x: bigint): bigint;

// rulec: about
// The arithmetic helpers of the generated TypeScript and JavaScript, held to the reference
// (vectors/_helpers.jsonl).

// rulec: main
/** One case: the helper named by `op` applied to `a` and `b`. */
function _helper(line: string | null): string {
  const c = JSON.parse(line ?? "") as { op: string; a: string; b: string };
  const a = BigInt(c.a);
  const b = BigInt(c.b);
  let r: bigint;
  switch (c.op) {
    case "quot_floor":
      r = _divRoundFloor(a, b);
      break;
    case "quot_ceiling":
      r = _divRoundCeiling(a, b);
      break;
    case "quot_down":
      r = _divRoundDown(a, b);
      break;
    case "quot_up":
      r = _divRoundUp(a, b);
      break;
    case "quot_half_up":
      r = _divRoundHalfUp(a, b);
      break;
    case "quot_half_down":
      r = _divRoundHalfDown(a, b);
      break;
    case "quot_half_even":
      r = _divRoundHalfEven(a, b);
      break;
    case "mod":
      r = _mod(a, b);
      break;
    case "isqrt":
      r = _isqrt(a);
      break;
    default:
      throw new Error("unknown helper: " + c.op);
  }
  return "{\"result\":\"" + String(r) + "\"}";
}

_lines(_helper);

export {};
