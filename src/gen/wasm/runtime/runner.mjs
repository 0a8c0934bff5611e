// The runner `rulec test` drives: one vectors line in, one answer out, for every line that is
// not blank. It instantiates the module with an empty import object (it imports nothing),
// hands each line's bytes to `call` as they came — the module reads the JSON and answers the
// record line or the refusal line; the runner checks nothing itself — and prints the answer.
//
// The Wasm backend writes it beside each module with `rulec_rule.wasm` replaced by the
// module's file.

import { readFileSync } from "node:fs";

const bytes = readFileSync(new URL("rulec_rule.wasm", import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, {});
const ex = instance.exports;

/** `call: func(input: string) -> string` through the canonical ABI, on the input's bytes. */
function call(input) {
  const ptr = ex.cabi_realloc(0, 0, 1, input.length);
  new Uint8Array(ex.memory.buffer, ptr, input.length).set(input);
  const ret = ex.call(ptr, input.length);
  // Views after the call: the memory may have grown.
  const [at, n] = new Uint32Array(ex.memory.buffer, ret, 2);
  const answer = Buffer.from(ex.memory.buffer, at, n).toString("utf8");
  ex.cabi_post_call(ret);
  return answer;
}

const stdin = readFileSync(0);
const out = [];
for (let start = 0; start < stdin.length; ) {
  let end = stdin.indexOf(10, start);
  if (end < 0) end = stdin.length;
  const line = stdin.subarray(start, end);
  start = end + 1;
  if (line.toString("utf8").trim() !== "") out.push(call(line));
}
process.stdout.write(out.length ? out.join("\n") + "\n" : "");
