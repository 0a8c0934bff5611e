// The rule as one MCP tool (generated-code.md, "The rule as an MCP tool"): a server over
// stdio, or over MCP's Streamable HTTP with --http. It answers a call with the module's own
// wire door, so the answer is the fixtures record the runner prints; a refused call comes
// back with isError and the module's sentence. Node's own modules only, reached through
// globalThis and import(), so that the types below are the whole of what it uses of node.
//
// The backend writes it beside each module with the import naming the module's file and
// its wire door (`rulec_wire`), and `_RULE` the rule's tool; the JavaScript server beside
// a JavaScript module is this file with its types taken off (as tsc emits it, token for
// token: tests/serve.rs holds the two together). A `// rulec-copy: FILE NAME` line stands
// for that section of the TypeScript backend's runtime file.

import { rulec_wire, RuleInputError, RuleContradictionError } from "./module.ts";

/** What the server says about its tool. */
type RuleInfo = {
  tool: { name: string; inputSchema: unknown; [key: string]: unknown };
  page: string;
  view: string;
  version: string;
};

type Json = { [key: string]: unknown };
type Bytes = Uint8Array & { indexOf(byte: number, from?: number): number };
type Session = { views: boolean };
type Answer = Json | null;

/** What the server uses of node. */
type NodeGlobals = {
  process: {
    argv: string[];
    exitCode: number | undefined;
    stdin: { on(event: string, listener: (chunk: Bytes) => void): unknown };
    stdout: { write(text: string): unknown };
    stderr: { write(text: string): unknown };
  };
  Buffer: { concat(chunks: Uint8Array[]): Bytes; byteLength(text: string): number };
  TextDecoder: new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => {
    decode(bytes: Uint8Array): string;
  };
  URL: new (url: string, base?: string) => { protocol: string; hostname: string; pathname: string };
};
type Request = {
  url?: string;
  method?: string;
  headers: { [key: string]: string | string[] | undefined };
  on(event: string, listener: (chunk: Bytes) => void): unknown;
};
type Response = { writeHead(status: number, headers: { [key: string]: string }): unknown; end(data: string): unknown };
type NodeHttp = {
  createServer(handler: (req: Request, res: Response) => void): {
    listen(port: number, host: string, done: () => void): unknown;
    address(): { port: number };
    setTimeout(ms: number): unknown;
  };
};
type NodeCrypto = { randomBytes(n: number): { toString(encoding: string): string } };
type NodeFs = { appendFileSync(path: string, text: string): void; readFileSync(path: string, encoding: string): string };
type NodePath = { dirname(path: string): string; join(a: string, b: string): string };
type NodeUrl = { fileURLToPath(url: string): string };

const node = globalThis as unknown as NodeGlobals;
/** A module of node by name (the name computed, so that no type declarations are needed for it). */
const builtin = async (name: string): Promise<unknown> => await import("node:" + name);
const nodeHttp = (await builtin("http")) as NodeHttp;
const nodeCrypto = (await builtin("crypto")) as NodeCrypto;
const nodeFs = (await builtin("fs")) as NodeFs;
const nodePath = (await builtin("path")) as NodePath;
const nodeUrl = (await builtin("url")) as NodeUrl;

const _RULE: RuleInfo = JSON.parse('{"tool":{"name":"rulec_tool","inputSchema":{}},"page":"","view":"","version":""}');

const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const UI_EXTENSION = "io.modelcontextprotocol/ui";
const UI_MIME = "text/html;profile=mcp-app";
const MAX_MESSAGE = 4 << 20;
// The sessions open at once: a client that never says DELETE cannot hold the memory; the
// oldest session closes when one more opens.
const MAX_SESSIONS = 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;

/** A message answered with a JSON-RPC error. */
class Refused extends Error {
  code: number;
  id: unknown;

  constructor(code: number, message: string, id: unknown) {
    super(message);
    this.code = code;
    this.id = id;
  }
}

// rulec-copy: runner.ts reader

/** A value as JSON text: a bigint as its digits. */
function dumps(x: unknown): string {
  return JSON.stringify(x, (_, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
}

function error(id: unknown, code: number, message: string): Json {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}

/** A JSON-RPC message that says jsonrpc 2.0, and whether a string of it held a lone surrogate. */
type Read = { message: Json; lone: boolean };

/** One JSON-RPC message. */
function read(text: string): Read {
  const r = new _Reader(text);
  let message: unknown;
  try {
    message = r.top();
  } catch (e) {
    throw new Refused(PARSE_ERROR, "the message is not JSON: " + (e instanceof Error ? e.message : String(e)), null);
  }
  if (Array.isArray(message)) {
    throw new Refused(INVALID_REQUEST, "a batch is not accepted: send one message at a time", null);
  }
  if (typeof message !== "object" || message === null) {
    throw new Refused(INVALID_REQUEST, "a message is a JSON object", null);
  }
  const m = message as Json;
  const id = Object.hasOwn(m, "id") ? m.id : undefined;
  if (!(id === undefined || id === null || typeof id === "string" || typeof id === "bigint")) {
    throw new Refused(INVALID_REQUEST, "id is a string or an integer", null);
  }
  if (m.jsonrpc !== "2.0") {
    throw new Refused(INVALID_REQUEST, "the message does not say \"jsonrpc\":\"2.0\"", id);
  }
  return { message: m, lone: r.lone };
}

/** A field of a JSON object, when the value is an object. */
function field(x: unknown, key: string): unknown {
  return _isObject(x) ? x[key] : undefined;
}

/** The protocol: one tool, the page as its view, the record file. */
class Tool {
  record: string | null;
  page: string;

  constructor(record: string | null, here: string) {
    this.record = record;
    this.page = nodePath.join(here, _RULE.page);
  }

  /** The page, for a client that renders views, while the file is there. */
  view(session: Session): string | null {
    if (!session.views || _RULE.page === "") {
      return null;
    }
    try {
      return nodeFs.readFileSync(this.page, "utf8");
    } catch {
      return null;
    }
  }

  /** The answer to a message; null for a notification or a response. */
  answer(read: Read, session: Session): Answer {
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
    if (typeof params !== "object" || params === null || Array.isArray(params)) {
      return error(id, INVALID_PARAMS, "params is an object");
    }
    try {
      return { jsonrpc: "2.0", id, result: this.request(method, params as Json, session, read.lone) };
    } catch (e) {
      if (e instanceof Refused) {
        return error(id, e.code, e.message);
      }
      throw e;
    }
  }

  request(method: string, params: Json, session: Session, lone: boolean): Json {
    switch (method) {
      case "initialize": {
        const types = field(field(field(params.capabilities, "extensions"), UI_EXTENSION), "mimeTypes");
        session.views = Array.isArray(types) && types.includes(UI_MIME);
        const asked = params.protocolVersion;
        return {
          protocolVersion: typeof asked === "string" && VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
          serverInfo: { name: _RULE.tool.name, version: _RULE.version },
        };
      }
      case "ping":
        return {};
      case "tools/list": {
        const tool: Json = { ..._RULE.tool };
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
          throw new Refused(RESOURCE_NOT_FOUND, String(params.uri) + " is not a resource of this server", null);
        }
        return { contents: [{ uri: _RULE.view, mimeType: UI_MIME, text: page }] };
      }
      default:
        throw new Refused(METHOD_NOT_FOUND, "this server has no method " + method, null);
    }
  }

  call(params: Json, lone: boolean): Json {
    if (params.name !== _RULE.tool.name) {
      throw new Refused(INVALID_PARAMS, String(params.name) + " is not a tool of this server", null);
    }
    const call = lone ? null : (params.arguments ?? {});
    let line: string;
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
      nodeFs.appendFileSync(this.record, line + "\n");
    }
    return { content: [{ type: "text", text: line }], structuredContent: JSON.parse(line), isError: false };
  }
}

function refused(text: string, kind: string, what: string): Json {
  return { content: [{ type: "text", text }], structuredContent: { refused: kind, error: what }, isError: true };
}

function decode(bytes: Uint8Array): string {
  return new node.TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
}

/** Answer one line of bytes: the answer's text, or null. */
function answerBytes(tool: Tool, bytes: Uint8Array, session: Session): string | null {
  let text: string;
  try {
    text = decode(bytes);
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

function serveStdio(tool: Tool): void {
  const session: Session = { views: false };
  let pending: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  const line = (bytes: Uint8Array): void => {
    if (tooLong) {
      node.process.stdout.write(dumps(error(null, INVALID_REQUEST, "the message is longer than " + MAX_MESSAGE + " bytes")) + "\n");
      return;
    }
    if (bytes.every((b) => b === 32 || b === 9 || b === 13)) {
      return;
    }
    const answer = answerBytes(tool, bytes, session);
    if (answer !== null) {
      node.process.stdout.write(answer + "\n");
    }
  };
  node.process.stdin.on("data", (chunk: Bytes) => {
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
      line(node.Buffer.concat(pending));
      pending = [];
      size = 0;
      tooLong = false;
      start = end + 1;
    }
  });
  node.process.stdin.on("end", () => {
    if (size > 0 || tooLong) {
      line(node.Buffer.concat(pending));
    }
  });
}

function local(origin: string): boolean {
  try {
    const u = new node.URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
  } catch {
    return false;
  }
}

function serveHttp(tool: Tool, host: string, port: number, origins: string[], idle: number): void {
  const sessions: Map<string, Session> = new Map();
  const server = nodeHttp.createServer((req: Request, res: Response) => {
    const send = (status: number, body: Json | null, headers: { [key: string]: string } = {}): void => {
      const data = body === null ? "" : dumps(body);
      if (body !== null) {
        headers["Content-Type"] = "application/json";
      }
      headers["Content-Length"] = String(node.Buffer.byteLength(data));
      res.writeHead(status, headers);
      res.end(data);
    };
    if (new node.URL(req.url ?? "/", "http://x").pathname !== "/mcp") {
      send(404, error(null, INVALID_REQUEST, "the server answers at /mcp"));
      return;
    }
    const origin = req.headers.origin;
    if (typeof origin === "string" && !local(origin) && !origins.includes(origin)) {
      send(403, error(null, INVALID_REQUEST, "the Origin " + origin + " is not allowed"));
      return;
    }
    /** The session the request names; else answered already (400 without one, 404 for one not open). */
    const sessionOf = (): [string, Session] | null => {
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
    const chunks: Uint8Array[] = [];
    let size = 0;
    let tooLong = false;
    req.on("data", (chunk: Bytes) => {
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
      let parsed: Read;
      try {
        parsed = read(decode(node.Buffer.concat(chunks)));
      } catch (e) {
        const r = e instanceof Refused ? e : new Refused(PARSE_ERROR, "the message is not UTF-8", null);
        send(400, error(r.id, r.code, r.message));
        return;
      }
      const { message } = parsed;
      if (message.method === "initialize" && Object.hasOwn(message, "id")) {
        const session: Session = { views: false };
        const answer = tool.answer(parsed, session);
        const headers: { [key: string]: string } = {};
        if (answer !== null && Object.hasOwn(answer, "result")) {
          const sid = nodeCrypto.randomBytes(16).toString("hex");
          sessions.set(sid, session);
          for (const oldest of sessions.keys()) {
            if (sessions.size <= MAX_SESSIONS) {
              break;
            }
            sessions.delete(oldest);
          }
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
  // A connection that sends nothing for this long is closed (with no listener for the
  // timeout, node destroys the socket): an idle or stalled client does not keep it open.
  server.setTimeout(idle * 1000);
  server.listen(port, host, () => {
    const shown = host.includes(":") ? "[" + host + "]" : host;
    node.process.stdout.write("http://" + shown + ":" + server.address().port + "/mcp\n");
  });
}

/** --idle-timeout SECONDS: a length of time above zero. */
function seconds(text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !(value > 0 && value < 1e9)) {
    throw new Error(text + " is not a number of seconds above zero");
  }
  return value;
}

/** --http PORT (on 127.0.0.1), HOST:PORT or [V6]:PORT. */
function address(text: string): [string, number] {
  const at = text.lastIndexOf(":");
  const host = at < 0 ? "127.0.0.1" : text.slice(0, at).replace(/^\[|\]$/g, "");
  const port = Number(at < 0 ? text : text.slice(at + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(text + " is not a port or HOST:PORT");
  }
  return [host, port];
}

function main(argv: string[]): void {
  let http: [string, number] | null = null;
  let record: string | null = null;
  let idle = 60;
  const origins: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const next = (): string => {
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
    } else if (arg === "--idle-timeout") {
      idle = seconds(next());
    } else {
      const flags = "[--http [HOST:]PORT] [--origin ORIGIN]... [--record FILE] [--idle-timeout SECONDS]";
      throw new Error("usage: " + _RULE.tool.name + "_mcp " + flags);
    }
  }
  const meta = import.meta as unknown as { url: string };
  const here = nodePath.dirname(nodeUrl.fileURLToPath(meta.url));
  const tool = new Tool(record, here);
  if (http === null) {
    serveStdio(tool);
  } else {
    serveHttp(tool, http[0], http[1], origins, idle);
  }
}

try {
  main(node.process.argv.slice(2));
} catch (e) {
  node.process.stderr.write((e instanceof Error ? e.message : String(e)) + "\n");
  node.process.exitCode = 2;
}
