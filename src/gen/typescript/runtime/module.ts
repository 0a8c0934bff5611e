// The fixed text of every generated TypeScript module, as one TypeScript file that
// `tsc --strict` checks as it stands (tests/gen_typescript.rs). The backend copies the
// sections a rule needs: each starts at a `// rulec: NAME` line and runs to the next one.
// What comes before the first section is for this file alone.
//
// The JavaScript module is the same text with its types taken off (src/gen/typescript/
// strip.rs), so the types here keep to what that takes off: `type` declarations,
// annotations on parameters, returns and `let`/`const`, `as` casts ending at a bracket, a
// comma or a semicolon, class fields without a value, a function's type parameters. No
// regular expression literal, no template literal, no parenthesized cast.
//
// Every number is a bigint. Nothing here imports anything.

/** The wire door of a rule, which the runner calls; the backend writes the real one. */
export function rulec_wire(call: unknown, tag: string = ""): string {
  const c = _object(call, "the input is not an object");
  _unknownKeys(c, [], " is not an input");
  return _recordClose(_recordOpen(tag), []);
}

// rulec: about_typescript
// Every number is a bigint in its declared unit, each unit a branded bigint, a date its day
// number (Day); an enum is a frozen object and a union type. Erasable syntax only: it runs
// with its types stripped as well as built with tsc. It imports nothing.

// rulec: about_javascript
// Every number is a bigint in its declared unit (rulec api says which), a date its day
// number; an enum is a frozen object. The TypeScript module with its types taken off: an
// ES module that imports nothing.

// rulec: errors
/**
 * The caller broke the contract: an input missing, of another kind, not a value of its
 * enum, outside its range, or a constraint that does not hold. Fix the call site. `what`
 * is the sentence, `value` what was refused (null when the refusal is not about one
 * value); the message is `what: value`, or `what`.
 */
export class RuleInputError extends Error {
  readonly what: string;
  readonly value: unknown;

  constructor(what: string, value: unknown) {
    super(value === null ? what : what + ": " + _show(value));
    this.name = "RuleInputError";
    this.what = what;
    this.value = value;
  }
}

/**
 * The rule contradicted itself: two rows the checker could not prove apart both matched.
 * Never the caller's fault: fix the rule.
 */
export class RuleContradictionError extends Error {
  readonly what: string;

  constructor(what: string) {
    super(what);
    this.name = "RuleContradictionError";
    this.what = what;
  }
}

/** A row that matched: the table's name and the row's number as written (from 1). */
export type Fired = { readonly table: string; readonly row: number };

/** A refused value as a message shows it: a string as JSON writes it, anything else as String does. */
function _show(x: unknown): string {
  if (typeof x === "string") {
    return _jsonStr(x);
  }
  try {
    return String(x);
  } catch {
    return typeof x;
  }
}

// rulec: day
/** A calendar day: the number of days since 1970-01-01. Make one with dayFromWire or dayOf. */
export type Day = bigint & { readonly __rulec: "Day" };

/** The day a "YYYY-MM-DD" names; a RangeError when the calendar has no such day. */
export function dayFromWire(text: string): Day {
  const days = _days(text);
  if (days === null) {
    throw new RangeError(_show(text) + " is not a date");
  }
  return days as Day;
}

/** The day a JavaScript Date falls on, in UTC; a RangeError for an invalid Date. */
export function dayOf(date: Date): Day {
  const ms = date.getTime();
  if (!Number.isInteger(ms)) {
    throw new RangeError("an invalid Date has no day");
  }
  const n = BigInt(ms);
  const day = n / 86400000n;
  // bigint's `/` rounds toward zero: a moment before 1970 belongs to the day before.
  return (day * 86400000n > n ? day - 1n : day) as Day;
}

// rulec: days
/** The day number of exactly "YYYY-MM-DD", when the calendar has that day; else null. */
function _days(text: string): bigint | null {
  if (text.length !== 10 || text[4] !== "-" || text[7] !== "-") {
    return null;
  }
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9]) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) {
      return null;
    }
  }
  const y0 = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const leap = (y0 % 4 === 0 && y0 % 100 !== 0) || y0 % 400 === 0;
  const daysIn = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (m < 1 || m > 12 || d < 1 || d > daysIn[m - 1]) {
    return null;
  }
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return BigInt(era * 146097 + doe - 719468);
}

// rulec: check_int
/**
 * The door of a whole number (a date as its day number): missing, its kind (a JavaScript
 * number whose value is whole is the integer it equals), its range when it has one.
 */
function _checkInt(x: unknown, lo: bigint | null, hi: bigint | null, missing: string, kind: string, out: string): bigint {
  if (x === null || x === undefined) {
    throw new RuleInputError(missing, null);
  }
  const n = typeof x === "number" && Number.isInteger(x) ? BigInt(x) : x;
  if (typeof n !== "bigint") {
    throw new RuleInputError(kind, x);
  }
  if (lo !== null && hi !== null && (n < lo || n > hi)) {
    throw new RuleInputError(out, n);
  }
  return n;
}

// rulec: check_day
/**
 * The door of a day passed as its number: _checkInt's, but a day outside its range is
 * refused as the wire writes it, "YYYY-MM-DD" (one no such text writes, past the years 0000
 * to 9999, by its number).
 */
function _checkDay(x: unknown, lo: bigint, hi: bigint, missing: string, kind: string, out: string): bigint {
  const n = _checkInt(x, null, null, missing, kind, out);
  if (n < lo || n > hi) {
    throw new RuleInputError(out, n < -719528n || n > 2932896n ? n : _dateStr(n).slice(1, -1));
  }
  return n;
}

// rulec: refuse
/** The door's refusal of a value that is not of its kind: missing first. */
function _refuse(x: unknown, missing: string, kind: string): never {
  if (x === null || x === undefined) {
    throw new RuleInputError(missing, null);
  }
  throw new RuleInputError(kind, x);
}

// rulec: wire
/** A call in the wire form is an object (not an array, not null). */
function _object(x: unknown, sentence: string): Readonly<Record<string, unknown>> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    throw new RuleInputError(sentence, null);
  }
  return x as Readonly<Record<string, unknown>>;
}

/** The value under a key of the call, its own (not its prototype's); null when there is none. */
function _get(call: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(call, key) ? (call[key] ?? null) : null;
}

/** Refuse the first key of the call that is not one of `inputs`. */
function _unknownKeys(call: Readonly<Record<string, unknown>>, inputs: readonly string[], sentence: string): void {
  for (const key of Object.keys(call)) {
    if (!inputs.includes(key)) {
      throw new RuleInputError(key + sentence, null);
    }
  }
}

// rulec: walk
/** A sequence a walk reads: an array of at most `most` elements. */
function _sequence(x: unknown, missing: string, notSequence: string, tooMany: string, most: number): readonly unknown[] {
  if (x === null || x === undefined) {
    throw new RuleInputError(missing, null);
  }
  if (!Array.isArray(x)) {
    throw new RuleInputError(notSequence, x);
  }
  if (x.length > most) {
    throw new RuleInputError(tooMany, null);
  }
  return x;
}

/** Where an element is, as a refusal names it: `lines[2]`. */
function _place(name: string, i: number): string {
  return name + "[" + String(i) + "]";
}

/** Refuse the first key of an element that is not one of its `fields`. */
function _unknownFields(o: Readonly<Record<string, unknown>>, fields: readonly string[], at: string, sentence: string): void {
  for (const key of Object.keys(o)) {
    if (!fields.includes(key)) {
      throw new RuleInputError(at + "." + key + sentence, null);
    }
  }
}

// rulec: wire_bool
/** A boolean the wire carries. */
function _wireBool(x: unknown, missing: string, kind: string): boolean {
  if (typeof x !== "boolean") {
    _refuse(x, missing, kind);
  }
  return x;
}

// rulec: wire_str
/** A string the wire carries. */
function _wireStr(x: unknown, missing: string, kind: string): string {
  if (typeof x !== "string") {
    _refuse(x, missing, kind);
  }
  return x;
}

// rulec: wire_day
/** The day number of a "YYYY-MM-DD" the wire carries, in its range when it has one. */
function _wireDay(x: unknown, lo: bigint | null, hi: bigint | null, missing: string, kind: string, out: string): bigint {
  const days = typeof x === "string" ? _days(x) : null;
  if (days === null) {
    _refuse(x, missing, kind);
  }
  if (lo !== null && hi !== null && (days < lo || days > hi)) {
    throw new RuleInputError(out, x);
  }
  return days;
}

// rulec: parse_member
/** The value of an enum (one of the module's frozen objects) named `name`, or undefined. */
export function parseMember<E extends Readonly<Record<string, string>>>(e: E, name: unknown): E[keyof E] | undefined {
  for (const key in e) {
    if (e[key] === name) {
      return e[key];
    }
  }
  return undefined;
}

// rulec: wire_member
/** The value of an enum whose name the wire carries. */
function _wireMember<E extends Readonly<Record<string, string>>>(e: E, x: unknown, missing: string, kind: string): E[keyof E] {
  const v = parseMember(e, x);
  if (v === undefined) {
    _refuse(x, missing, kind);
  }
  return v;
}

// rulec: record
/** A fixtures record begun: its brace, and the tag when there is one (an empty tag, or none, is none). */
function _recordOpen(tag: string): string {
  return typeof tag === "string" && tag !== "" ? "{\"tag\":" + _jsonStr(tag) + "," : "{";
}

/** A fixtures record ended: the rows that matched as the records write them, then its brackets. */
function _recordClose(s: string, trace: readonly Fired[]): string {
  let rows = "";
  for (const f of trace) {
    rows += (rows === "" ? "" : ",") + "{\"table\":" + _jsonStr(f.table) + ",\"row\":" + String(f.row) + "}";
  }
  return s + rows + "]}";
}

// rulec: json_str
/** A JSON string as the records write it: `"`, `\` and the control characters escaped, the rest as it is. */
function _jsonStr(text: string): string {
  let out = "\"";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 32 && c !== 34 && c !== 92) {
      continue;
    }
    out += text.slice(from, i);
    from = i + 1;
    switch (c) {
      case 34:
        out += "\\\"";
        break;
      case 92:
        out += "\\\\";
        break;
      case 10:
        out += "\\n";
        break;
      case 13:
        out += "\\r";
        break;
      case 9:
        out += "\\t";
        break;
      case 8:
        out += "\\b";
        break;
      case 12:
        out += "\\f";
        break;
      default:
        out += "\\u" + c.toString(16).padStart(4, "0");
    }
  }
  return out + text.slice(from) + "\"";
}

// rulec: date_str
/** A day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON. */
function _dateStr(days: bigint): string {
  const z = Number(days) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const year = y < 0 ? "-" + String(-y).padStart(3, "0") : String(y).padStart(4, "0");
  return "\"" + year + "-" + String(m).padStart(2, "0") + "-" + String(d).padStart(2, "0") + "\"";
}

// rulec: min_int
/** The smaller of two integers. */
function _min(a: bigint, b: bigint): bigint {
  return b < a ? b : a;
}

// rulec: max_int
/** The larger of two integers. */
function _max(a: bigint, b: bigint): bigint {
  return b > a ? b : a;
}

// rulec: min_enum
/** The earlier of two values of an ordered enum, by their places. */
function _minBy<T>(rank: (v: T) => number, a: T, b: T): T {
  return rank(b) < rank(a) ? b : a;
}

// rulec: max_enum
/** The later of two values of an ordered enum, by their places. */
function _maxBy<T>(rank: (v: T) => number, a: T, b: T): T {
  return rank(b) > rank(a) ? b : a;
}

// rulec: div_round_floor
/** n / d rounded toward -infinity (d != 0: the proof, E132, rules out a zero divisor). */
function _divRoundFloor(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  // bigint's `/` rounds toward zero: a negative remainder steps the quotient down by one.
  const q = n / d;
  return n % d < 0n ? q - 1n : q;
}

// rulec: div_round_ceiling
/** n / d rounded toward +infinity (d != 0). */
function _divRoundCeiling(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  return n % d > 0n ? q + 1n : q;
}

// rulec: div_round_down
/** n / d rounded toward zero (d != 0): bigint's own `/`. */
function _divRoundDown(n: bigint, d: bigint): bigint {
  return n / d;
}

// rulec: div_round_up
/** n / d rounded away from zero (d != 0). */
function _divRoundUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d === 0n ? q : (n < 0n) === (d < 0n) ? q + 1n : q - 1n;
}

// rulec: div_round_half_up
/** n / d rounded to the nearest, ties away from zero (d != 0). */
function _divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  // The quotient toward -infinity and the remainder from zero up (0 <= r < d).
  let q = n / d;
  let r = n % d;
  if (r < 0n) {
    q -= 1n;
    r += d;
  }
  return 2n * r > d || (2n * r === d && n > 0n) ? q + 1n : q;
}

// rulec: div_round_half_down
/** n / d rounded to the nearest, ties toward zero (d != 0). */
function _divRoundHalfDown(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d;
  let r = n % d;
  if (r < 0n) {
    q -= 1n;
    r += d;
  }
  return 2n * r > d || (2n * r === d && n < 0n) ? q + 1n : q;
}

// rulec: div_round_half_even
/** n / d rounded to the nearest, ties to the even multiple (d != 0). */
function _divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d;
  let r = n % d;
  if (r < 0n) {
    q -= 1n;
    r += d;
  }
  return 2n * r > d || (2n * r === d && q % 2n !== 0n) ? q + 1n : q;
}

// rulec: mod
/** The remainder from zero up: 0 <= r < |b| (b != 0). */
function _mod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r < 0n ? r + (b < 0n ? -b : b) : r;
}

// rulec: isqrt
/** The largest r with r * r <= x (x >= 0), by a binary search over whole numbers. */
function _isqrt(x: bigint): bigint {
  let lo = 0n;
  let hi = x < 3037000499n ? (x > 0n ? x : 0n) : 3037000499n;
  while (lo < hi) {
    const mid = lo + (hi - lo + 1n) / 2n;
    if (mid * mid <= x) {
      lo = mid;
    } else {
      hi = mid - 1n;
    }
  }
  return lo;
}
