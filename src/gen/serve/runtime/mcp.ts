// The rule as one MCP tool (generated-code.md, "The rule as an MCP tool"): a server over
// stdio, or over MCP's Streamable HTTP with --http. It answers a call with the module's own
// wire door, so the answer is the fixtures record the runner prints; a refused call comes
// back with isError and the module's sentence. Node's own modules only.
//
// The backend writes it beside each module with the import naming the module's file and
// its wire door (`rulec_wire`), and `_RULE` the rule's tool. mcp.ts beside this file is the
// same server with its types on.

import { rulec_wire, RuleInputError, RuleContradictionError } from "./module.mjs";
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const _RULE = JSON.parse('{"tool":{"name":"rulec_tool","inputSchema":{}},"page":"","view":"","version":""}');

const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const UI_EXTENSION = "io.modelcontextprotocol/ui";
const UI_MIME = "text/html;profile=mcp-app";
const MAX_MESSAGE = 4 << 20;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
/** The nesting serde_json stops at. */
const DEPTH = 128;

/** A message answered with a JSON-RPC error. */
class Refused extends Error {
  constructor(code, message, id) {
    super(message);
    this.code = code;
    this.id = id;
  }
}

/**
 * JSON read exactly, as the module's runner reads a call: a whole number is a bigint (one
 * with more than 40 digits before the point is a number past every range), any other
 * number a JavaScript number that is not an integer. `lone` says whether a string held half
 * of a surrogate pair, which the reference reads as no JSON at all.
 */
class Reader {
  constructor(s) {
    this.s = s;
    this.i = 0;
    this.depth = 0;
    this.lone = false;
  }

  fail() {
    throw new SyntaxError("not JSON at character " + this.i);
  }

  ws() {
    while (this.i < this.s.length && " \t\n\r".includes(this.s[this.i])) {
      this.i += 1;
    }
  }

  eat(c) {
    if (this.s[this.i] !== c) {
      this.fail();
    }
    this.i += 1;
  }

  top() {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i !== this.s.length) {
      this.fail();
    }
    return v;
  }

  value() {
    const c = this.s[this.i];
    if (c === "{" || c === "[") {
      this.depth += 1;
      if (this.depth >= DEPTH) {
        this.fail();
      }
      const v = c === "{" ? this.object() : this.array();
      this.depth -= 1;
      return v;
    }
    if (c === "\"") {
      return this.string();
    }
    for (const [word, v] of [["null", null], ["true", true], ["false", false]]) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.number();
  }

  object() {
    this.eat("{");
    const out = {};
    this.ws();
    if (this.s[this.i] === "}") {
      this.i += 1;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.eat(":");
      this.ws();
      const v = this.value();
      // A key such as __proto__ is a key like any other.
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      this.ws();
      if (this.s[this.i] === ",") {
        this.i += 1;
      } else {
        this.eat("}");
        return out;
      }
    }
  }

  array() {
    this.eat("[");
    const out = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i += 1;
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
        return out;
      }
    }
  }

  string() {
    this.eat("\"");
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) {
        this.fail();
      }
      const c = this.s[this.i];
      const code = this.s.charCodeAt(this.i);
      this.i += 1;
      if (c === "\"") {
        break;
      }
      if (code < 0x20) {
        this.fail();
      }
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.s[this.i];
      this.i += 1;
      const simple = { "\"": "\"", "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
      if (simple !== undefined) {
        out += simple;
      } else if (e === "u") {
        const hex = this.s.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.fail();
        }
        this.i += 4;
        out += String.fromCharCode(parseInt(hex, 16));
      } else {
        this.fail();
      }
    }
    if (!out.isWellFormed()) {
      this.lone = true;
    }
    return out;
  }

  number() {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 4096));
    if (m === null || m[0].length === 0) {
      this.fail();
    }
    this.i += m[0].length;
    return exact(m[0]);
  }
}

/** A JSON number's text as the door takes it: a bigint when its value is whole. */
function exact(text) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  const [, sign, whole, frac = "", exp = "0"] = m;
  let digits = (whole + frac).replace(/^0+/, "");
  const e = Number(exp) - frac.length;
  if (digits === "") {
    return 0n;
  }
  if (e < 0) {
    const cut = digits.length + e;
    if (cut <= 0 || /[^0]/.test(digits.slice(cut))) {
      return Number(text);
    }
    digits = digits.slice(0, cut);
  } else if (digits.length + e > 40) {
    return sign === "-" ? -(10n ** 40n) : 10n ** 40n;
  } else {
    digits += "0".repeat(e);
  }
  if (digits.length > 40) {
    return sign === "-" ? -(10n ** 40n) : 10n ** 40n;
  }
  return BigInt(sign + digits);
}

/** A value as JSON text: a bigint as its digits. */
function dumps(x) {
  return JSON.stringify(x, (_, v) => (typeof v === "bigint" ? Number(v) : v));
}

function error(id, code, message) {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}

/** One JSON-RPC message: a JSON object that says jsonrpc 2.0. */
function read(text) {
  const r = new Reader(text);
  let message;
  try {
    message = r.top();
  } catch (e) {
    throw new Refused(PARSE_ERROR, "the message is not JSON: " + e.message, null);
  }
  if (Array.isArray(message)) {
    throw new Refused(INVALID_REQUEST, "a batch is not accepted: send one message at a time", null);
  }
  if (typeof message !== "object" || message === null) {
    throw new Refused(INVALID_REQUEST, "a message is a JSON object", null);
  }
  const id = Object.hasOwn(message, "id") ? message.id : undefined;
  if (!(id === undefined || id === null || typeof id === "string" || typeof id === "bigint")) {
    throw new Refused(INVALID_REQUEST, "id is a string or an integer", null);
  }
  if (message.jsonrpc !== "2.0") {
    throw new Refused(INVALID_REQUEST, "the message does not say \"jsonrpc\":\"2.0\"", id);
  }
  return { message, lone: r.lone };
}

/** The protocol: one tool, the page as its view, the record file. */
class Tool {
  constructor(record, here) {
    this.record = record;
    this.page = join(here, _RULE.page);
  }

  /** The page, for a client that renders views, while the file is there. */
  view(session) {
    if (!session.views || _RULE.page === "") {
      return null;
    }
    try {
      return readFileSync(this.page, "utf8");
    } catch {
      return null;
    }
  }

  /** The answer to a message; null for a notification or a response. */
  answer(read, session) {
    const { message } = read;
    const id = message.id;
    const method = message.method;
    if (method === undefined) {
      if (Object.hasOwn(message, "result") || Object.hasOwn(message, "error")) {
        return null;
      }
      return error(id, INVALID_REQUEST, "the message has no method");
    }
    if (typeof method !== "string") {
      return error(id, INVALID_REQUEST, "method is not a string");
    }
    if (id === undefined || id === null) {
      return null;
    }
    const params = message.params ?? {};
    if (typeof params !== "object" || Array.isArray(params)) {
      return error(id, INVALID_PARAMS, "params is an object");
    }
    try {
      return { jsonrpc: "2.0", id, result: this.request(method, params, session, read.lone) };
    } catch (e) {
      if (e instanceof Refused) {
        return error(id, e.code, e.message);
      }
      throw e;
    }
  }

  request(method, params, session, lone) {
    switch (method) {
      case "initialize": {
        const types = params.capabilities?.extensions?.[UI_EXTENSION]?.mimeTypes;
        session.views = Array.isArray(types) && types.includes(UI_MIME);
        const asked = params.protocolVersion;
        return {
          protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
          serverInfo: { name: _RULE.tool.name, version: _RULE.version },
        };
      }
      case "ping":
        return {};
      case "tools/list": {
        const tool = { ..._RULE.tool };
        if (this.view(session) !== null) {
          tool._meta = { ui: { resourceUri: _RULE.view } };
        }
        return { tools: [tool] };
      }
      case "tools/call":
        return this.call(params, lone);
      case "resources/list":
        return {
          resources: this.view(session) === null ? [] : [{ uri: _RULE.view, name: _RULE.tool.name, mimeType: UI_MIME }],
        };
      case "resources/templates/list":
        return { resourceTemplates: [] };
      case "resources/read": {
        const page = this.view(session);
        if (params.uri !== _RULE.view || page === null) {
          throw new Refused(RESOURCE_NOT_FOUND, String(params.uri) + " is not a resource of this server");
        }
        return { contents: [{ uri: _RULE.view, mimeType: UI_MIME, text: page }] };
      }
      default:
        throw new Refused(METHOD_NOT_FOUND, "this server has no method " + method);
    }
  }

  call(params, lone) {
    if (params.name !== _RULE.tool.name) {
      throw new Refused(INVALID_PARAMS, String(params.name) + " is not a tool of this server");
    }
    const call = lone ? null : (params.arguments ?? {});
    let line;
    try {
      line = rulec_wire(call);
    } catch (e) {
      if (e instanceof RuleInputError) {
        return refused("RuleInputError: " + e.message, "input", e.what);
      }
      if (e instanceof RuleContradictionError) {
        return refused("RuleContradictionError: " + e.message, "contradiction", e.what);
      }
      throw e;
    }
    if (this.record !== null) {
      appendFileSync(this.record, line + "\n");
    }
    return { content: [{ type: "text", text: line }], structuredContent: JSON.parse(line), isError: false };
  }
}

function refused(text, kind, what) {
  return { content: [{ type: "text", text }], structuredContent: { refused: kind, error: what }, isError: true };
}

/** Answer one line of bytes: the answer's text, or null. */
function answerBytes(tool, bytes, session) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return dumps(error(null, PARSE_ERROR, "the message is not UTF-8"));
  }
  try {
    const answer = tool.answer(read(text), session);
    return answer === null ? null : dumps(answer);
  } catch (e) {
    if (e instanceof Refused) {
      return dumps(error(e.id, e.code, e.message));
    }
    throw e;
  }
}

function serveStdio(tool) {
  const session = { views: false };
  let pending = [];
  let size = 0;
  let tooLong = false;
  const line = (bytes) => {
    if (tooLong) {
      process.stdout.write(dumps(error(null, INVALID_REQUEST, "the message is longer than " + MAX_MESSAGE + " bytes")) + "\n");
      return;
    }
    if (bytes.every((b) => b === 32 || b === 9 || b === 13)) {
      return;
    }
    const answer = answerBytes(tool, bytes, session);
    if (answer !== null) {
      process.stdout.write(answer + "\n");
    }
  };
  process.stdin.on("data", (chunk) => {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (!tooLong) {
        size += piece.length;
        if (size > MAX_MESSAGE) {
          tooLong = true;
          pending = [];
        } else {
          pending.push(piece);
        }
      }
      if (end < 0) {
        return;
      }
      line(Buffer.concat(pending));
      pending = [];
      size = 0;
      tooLong = false;
      start = end + 1;
    }
  });
  process.stdin.on("end", () => {
    if (size > 0 || tooLong) {
      line(Buffer.concat(pending));
    }
  });
}

function local(origin) {
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
  } catch {
    return false;
  }
}

function serveHttp(tool, host, port, origins) {
  const sessions = new Map();
  const server = createServer((req, res) => {
    const send = (status, body, headers = {}) => {
      const data = body === null ? "" : dumps(body);
      if (body !== null) {
        headers["Content-Type"] = "application/json";
      }
      headers["Content-Length"] = String(Buffer.byteLength(data));
      res.writeHead(status, headers);
      res.end(data);
    };
    if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") {
      send(404, error(null, INVALID_REQUEST, "the server answers at /mcp"));
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !local(origin) && !origins.includes(origin)) {
      send(403, error(null, INVALID_REQUEST, "the Origin " + origin + " is not allowed"));
      return;
    }
    /** The session the request names; else answered already (400 without one, 404 for one not open). */
    const sessionOf = () => {
      const sid = req.headers["mcp-session-id"];
      if (typeof sid !== "string") {
        send(400, error(null, INVALID_REQUEST, "Mcp-Session-Id is missing: initialize first"));
        return null;
      }
      const found = sessions.get(sid);
      if (found === undefined) {
        send(404, error(null, INVALID_REQUEST, "the session " + sid + " is not open"));
        return null;
      }
      return [sid, found];
    };
    if (req.method === "GET") {
      // The server never sends anything unasked: there is no stream to open.
      send(405, null, { Allow: "POST, DELETE" });
      return;
    }
    if (req.method === "DELETE") {
      const found = sessionOf();
      if (found !== null) {
        sessions.delete(found[0]);
        send(200, null);
      }
      return;
    }
    if (req.method !== "POST") {
      send(405, null, { Allow: "POST, DELETE" });
      return;
    }
    const chunks = [];
    let size = 0;
    let tooLong = false;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_MESSAGE) {
        tooLong = true;
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => {
      if (tooLong) {
        send(413, error(null, INVALID_REQUEST, "the message is longer than " + MAX_MESSAGE + " bytes"));
        return;
      }
      let text;
      let parsed;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks));
        parsed = read(text);
      } catch (e) {
        const r = e instanceof Refused ? e : new Refused(PARSE_ERROR, "the message is not UTF-8", null);
        send(400, error(r.id, r.code, r.message));
        return;
      }
      const { message } = parsed;
      if (message.method === "initialize" && Object.hasOwn(message, "id")) {
        const session = { views: false };
        const answer = tool.answer(parsed, session);
        const headers = {};
        if (answer !== null && Object.hasOwn(answer, "result")) {
          const sid = randomBytes(16).toString("hex");
          sessions.set(sid, session);
          headers["Mcp-Session-Id"] = sid;
        }
        send(200, answer, headers);
        return;
      }
      const version = req.headers["mcp-protocol-version"];
      if (typeof version === "string" && !VERSIONS.includes(version)) {
        send(400, error(message.id, INVALID_REQUEST, "MCP-Protocol-Version " + version + " is not spoken here"));
        return;
      }
      const found = sessionOf();
      if (found === null) {
        return;
      }
      const answer = tool.answer(parsed, found[1]);
      if (answer === null) {
        send(202, null);
      } else {
        send(200, answer);
      }
    });
  });
  server.listen(port, host, () => {
    const shown = host.includes(":") ? "[" + host + "]" : host;
    process.stdout.write("http://" + shown + ":" + server.address().port + "/mcp\n");
  });
}

/** --http PORT (on 127.0.0.1), HOST:PORT or [V6]:PORT. */
function address(text) {
  const at = text.lastIndexOf(":");
  const host = at < 0 ? "127.0.0.1" : text.slice(0, at).replace(/^\[|\]$/g, "");
  const port = Number(at < 0 ? text : text.slice(at + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(text + " is not a port or HOST:PORT");
  }
  return [host, port];
}

function main(argv) {
  let http = null;
  let record = null;
  const origins = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) {
        throw new Error(arg + " needs a value");
      }
      i += 1;
      return argv[i];
    };
    if (arg === "--http") {
      http = address(next());
    } else if (arg === "--origin") {
      origins.push(next());
    } else if (arg === "--record") {
      record = next();
    } else {
      throw new Error("usage: node " + _RULE.tool.name + "_mcp.mjs [--http [HOST:]PORT] [--origin ORIGIN]... [--record FILE]");
    }
  }
  const tool = new Tool(record, dirname(fileURLToPath(import.meta.url)));
  if (http === null) {
    serveStdio(tool);
  } else {
    serveHttp(tool, http[0], http[1], origins);
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(e.message + "\n");
  process.exitCode = 2;
}
