// The TextMate grammar over every .rule file named on the command line (or found below
// the folders named): each non-blank character must get a scope of its own, and none an
// `invalid` one. Run by tests/vscode.rs; exits 1 naming each unknown token.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.dirname(fileURLToPath(import.meta.url));
const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);

const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scopeName) => {
    if (scopeName !== "source.rule") return null;
    const file = path.join(here, "..", "syntaxes", "rule.tmLanguage.json");
    return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
  },
});
const grammar = await registry.loadGrammar("source.rule");

function ruleFiles(p) {
  if (fs.statSync(p).isFile()) return [p];
  return fs
    .readdirSync(p, { withFileTypes: true })
    .flatMap((e) => (e.name === "node_modules" || e.name === "target" ? [] : ruleFiles(path.join(p, e.name))))
    .filter((f) => f.endsWith(".rule"));
}

// What a few tokens must be highlighted as (the first scope past source.rule).
const sample = [
  ["table base_rate first -> base  # comment", [["table", "keyword.other.declaration.rule"], ["base_rate", "entity.name.rule"], ["first", "storage.modifier.policy.rule"], ["->", "keyword.operator.rule"], ["# comment", "comment.line.number-sign.rule"]]],
  ["| <=1,000JPY | 2026-03-31 | 7.5% | \"a \\\" b\" |", [["1,000", "constant.numeric.rule"], ["JPY", "keyword.other.unit.rule"], ["2026-03-31", "constant.numeric.date.rule"], ["%", "keyword.other.unit.rule"], ["\\\"", "constant.character.escape.rule"]]],
  ["elements lines up to 10: amount: money[JPY] 0JPY..10000JPY", [["elements", "keyword.other.declaration.rule"], ["up to", "keyword.other.walk.rule"]]],
  ["fold keep_max offer over bids by verdict: keep counted, stop closing, empty opening -> best", [["fold", "keyword.other.declaration.rule"], ["keep_max", "keyword.other.walk.rule"], ["over", "keyword.other.walk.rule"], ["keep", "keyword.other.walk.rule"], ["stop", "keyword.other.walk.rule"], ["empty", "keyword.other.walk.rule"]]],
  ["define n = count lines where late", [["count", "keyword.other.walk.rule"], ["where", "keyword.other.walk.rule"]]],
  ["input 重さ(weight): money[JPY, incl_tax] 0JPY..10JPY", [["重さ", "entity.name.rule"], ["weight", "variable.other.rule"], ["money", "support.type.rule"], ["incl_tax", "support.type.rule"], ["..", "keyword.operator.rule"]]],
];
let wrong = 0;
for (const [line, want] of sample) {
  const tokens = grammar.tokenizeLine(line, vsctm.INITIAL).tokens;
  for (const [text, scope] of want) {
    const t = tokens.find((t) => line.slice(t.startIndex, t.endIndex) === text);
    const got = t ? t.scopes.slice(1).join(" ") : "no token";
    if (!got.split(" ").includes(scope)) {
      console.log(`${JSON.stringify(line)}: ${JSON.stringify(text)} is ${got}, not ${scope}`);
      wrong += 1;
    }
  }
}

const files = process.argv.slice(2).flatMap(ruleFiles).sort();
let unknown = 0;
for (const file of files) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  let state = vsctm.INITIAL;
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const text = line.slice(t.startIndex, t.endIndex);
      if (text.trim() === "") continue;
      const own = t.scopes.filter((s) => s !== "source.rule");
      if (own.length === 0 || own.some((s) => s.startsWith("invalid"))) {
        console.log(`${file}:${i + 1}:${t.startIndex + 1}: unknown token ${JSON.stringify(text)} (${t.scopes.join(" ")})`);
        unknown += 1;
      }
    }
    state = r.ruleStack;
  });
}
console.log(`${files.length} files, ${unknown} unknown tokens, ${wrong} sample tokens wrong`);
process.exit(unknown === 0 && wrong === 0 && files.length > 0 ? 0 : 1);
