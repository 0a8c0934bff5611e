// The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for
// every line. It reads the JSON exactly — a number keeps its digits — then hands the object
// to the module's own door, which checks it in the reference's order; the runner checks
// nothing itself. Node is reached through globalThis: the runner imports nothing but its
// module.
//
// The backend writes it beside each module, the import below naming the module's file and
// its wire door (`rulec_wire`).

import { rulec_wire, RuleInputError, RuleContradictionError } from "./module.ts";

/** The backend copies the module's string writer below the runner. */
declare function _jsonStr(text: string): string;

// rulec: node
/** What the runners use of node. */
type _Node = {
  process: {
    stdin: { on(event: string, listener: (chunk: Uint8Array) => void): unknown };
    stdout: { write(text: string): unknown };
  };
  TextDecoder: new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => {
    decode(bytes: Uint8Array): string;
  };
};
const _node = globalThis as unknown as _Node;

/**
 * Answer every line of standard input that is not blank with one line of standard output.
 * `answer` is given the line's text, or null for a line that is not UTF-8.
 */
function _lines(answer: (line: string | null) => string): void {
  const chunks: Uint8Array[] = [];
  _node.process.stdin.on("data", (chunk: Uint8Array) => {
    chunks.push(chunk);
  });
  _node.process.stdin.on("end", () => {
    let size = 0;
    for (const c of chunks) {
      size += c.length;
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const utf8 = new _node.TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const out: string[] = [];
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end < 0) {
        end = bytes.length;
      }
      const line = bytes.subarray(start, end);
      start = end + 1;
      if (line.every((b) => b === 32 || b === 9 || b === 13)) {
        continue;
      }
      let text: string | null;
      try {
        text = utf8.decode(line);
      } catch {
        text = null;
      }
      out.push(answer(text) + "\n");
    }
    _node.process.stdout.write(out.join(""));
  });
}

// rulec: reader
/** The nesting serde_json stops at: a line nested as deep is not JSON to the reference. */
const _DEPTH = 128;

/**
 * JSON read exactly: a number whose value is whole is that integer as a bigint (one past
 * what 64 bits hold stays past it), any other number a JavaScript number that is not an
 * integer; an object keeps its keys in the order written (the last value of a key wins).
 * Whatever serde_json refuses is refused: a SyntaxError. Half of a surrogate pair, which is
 * not a character, is read as it is and said by `lone`: the reference reads such a text as
 * no JSON at all, where a JSON-RPC message is still a message.
 */
class _Reader {
  readonly s: string;
  i: number;
  depth: number;
  lone: boolean;

  constructor(s: string) {
    this.s = s;
    this.i = 0;
    this.depth = 0;
    this.lone = false;
  }

  fail(): never {
    throw new SyntaxError("not JSON at character " + this.i);
  }

  ws(): void {
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) {
        return;
      }
      this.i += 1;
    }
  }

  eat(c: string): void {
    if (this.s[this.i] !== c) {
      this.fail();
    }
    this.i += 1;
  }

  word(w: string, v: unknown): unknown {
    if (!this.s.startsWith(w, this.i)) {
      this.fail();
    }
    this.i += w.length;
    return v;
  }

  /** The whole text as one value. */
  top(): unknown {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i !== this.s.length) {
      this.fail();
    }
    return v;
  }

  value(): unknown {
    switch (this.s[this.i]) {
      case "n":
        return this.word("null", null);
      case "t":
        return this.word("true", true);
      case "f":
        return this.word("false", false);
      case "\"":
        return this.string();
      case "{":
        return this.object();
      case "[":
        return this.array();
      default:
        return this.number();
    }
  }

  enter(): void {
    this.depth += 1;
    if (this.depth >= _DEPTH) {
      this.fail();
    }
  }

  object(): Record<string, unknown> {
    this.enter();
    this.eat("{");
    const out: Record<string, unknown> = {};
    const keys: string[] = [];
    this.ws();
    if (this.s[this.i] === "}") {
      this.i += 1;
      this.depth -= 1;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.eat(":");
      this.ws();
      const v = this.value();
      if (!Object.hasOwn(out, key)) {
        keys.push(key);
      }
      // A key such as __proto__ is a key like any other.
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      this.ws();
      if (this.s[this.i] === ",") {
        this.i += 1;
      } else {
        this.eat("}");
        this.depth -= 1;
        return _inOrder(out, keys);
      }
    }
  }

  array(): unknown[] {
    this.enter();
    this.eat("[");
    const out: unknown[] = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i += 1;
      this.depth -= 1;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ",") {
        this.i += 1;
      } else {
        this.eat("]");
        this.depth -= 1;
        return out;
      }
    }
  }

  digits(): number {
    const from = this.i;
    while (this.i < this.s.length && this.s.charCodeAt(this.i) >= 48 && this.s.charCodeAt(this.i) <= 57) {
      this.i += 1;
    }
    return this.i - from;
  }

  number(): unknown {
    const from = this.i;
    if (this.s[this.i] === "-") {
      this.i += 1;
    }
    if (this.s[this.i] === "0") {
      this.i += 1;
    } else if (this.digits() === 0) {
      this.fail();
    }
    if (this.s[this.i] === ".") {
      this.i += 1;
      if (this.digits() === 0) {
        this.fail();
      }
    }
    if (this.s[this.i] === "e" || this.s[this.i] === "E") {
      this.i += 1;
      if (this.s[this.i] === "+" || this.s[this.i] === "-") {
        this.i += 1;
      }
      if (this.digits() === 0) {
        this.fail();
      }
    }
    return _number(this.s.slice(from, this.i));
  }

  string(): string {
    this.eat("\"");
    let out = "";
    let from = this.i;
    for (;;) {
      if (this.i >= this.s.length) {
        this.fail();
      }
      const c = this.s.charCodeAt(this.i);
      if (c === 34) {
        out += this.s.slice(from, this.i);
        this.i += 1;
        return out;
      }
      if (c < 32) {
        this.fail();
      }
      if (c !== 92) {
        this.i += 1;
        continue;
      }
      out += this.s.slice(from, this.i);
      const e = this.s[this.i + 1];
      this.i += 2;
      switch (e) {
        case "\"":
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hi = this.hex4();
          out += String.fromCharCode(hi);
          if (hi >= 0xd800 && hi < 0xe000) {
            // The high half of a pair and the low half right after it make one character.
            const lo = hi < 0xdc00 && this.s.startsWith("\\u", this.i) ? this.hex(this.i + 2) : -1;
            if (lo >= 0xdc00 && lo < 0xe000) {
              out += String.fromCharCode(lo);
              this.i += 6;
            } else {
              this.lone = true;
            }
          }
          break;
        }
        default:
          this.fail();
      }
      from = this.i;
    }
  }

  hex4(): number {
    const v = this.hex(this.i);
    if (v < 0) {
      this.fail();
    }
    this.i += 4;
    return v;
  }

  /** The four hex digits at `at` as a number; -1 when they are not four hex digits. */
  hex(at: number): number {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.s.charCodeAt(at + k);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }
}

/** An object whose keys come back in the order written, which for a key like "1" a plain object does not keep. */
function _inOrder(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const own = Object.keys(obj);
  if (own.every((k, i) => k === keys[i])) {
    return obj;
  }
  return new Proxy(obj, { ownKeys: () => keys });
}

/** A JSON number's text as the value it is, worked out from its digits and its exponent. */
function _number(text: string): unknown {
  const neg = text.startsWith("-");
  const body = neg ? text.slice(1) : text;
  let e = body.indexOf("e");
  if (e < 0) {
    e = body.indexOf("E");
  }
  const mantissa = e < 0 ? body : body.slice(0, e);
  let exp = e < 0 ? 0 : Number(body.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const whole = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const frac = dot < 0 ? "" : mantissa.slice(dot + 1);
  let digits = whole + frac;
  exp -= frac.length;
  let first = 0;
  while (first < digits.length && digits[first] === "0") {
    first += 1;
  }
  let last = digits.length;
  while (last > first && digits[last - 1] === "0") {
    last -= 1;
    exp += 1;
  }
  digits = digits.slice(first, last);
  if (digits === "") {
    return 0n;
  }
  if (exp < 0) {
    // Not whole: as a JavaScript number, never one that is an integer (1e-400 is not 0).
    const f = Number(text);
    return Number.isInteger(f) ? Number.NaN : f;
  }
  if (digits.length + exp > 20) {
    return neg ? -(10n ** 20n) : 10n ** 20n;
  }
  const n = BigInt(digits + "0".repeat(exp));
  return neg ? -n : n;
}

/** A line's call: the line's JSON, or the `in` of a record line; null when the line is not JSON. */
function _readCall(line: string | null): unknown {
  if (line === null) {
    return null;
  }
  const reader = new _Reader(line);
  let top: unknown;
  try {
    top = reader.top();
  } catch {
    return null;
  }
  if (reader.lone) {
    return null;
  }
  if (_isObject(top) && Object.hasOwn(top, "in")) {
    return top["in"];
  }
  return top;
}

function _isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

// rulec: main
/** One vectors line: the record of the call, or the refusal in its place. */
function _answer(line: string | null): string {
  try {
    return rulec_wire(_readCall(line));
  } catch (e) {
    if (e instanceof RuleInputError) {
      return _refusal("input", e.what);
    }
    if (e instanceof RuleContradictionError) {
      return _refusal("contradiction", e.what);
    }
    throw e;
  }
}

/** A refusal line in the place of the record. */
function _refusal(kind: string, what: string): string {
  return "{\"refused\":\"" + kind + "\",\"error\":" + _jsonStr(what) + "}";
}

_lines(_answer);
