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
/** What a client said at initialize (whether it renders views); over HTTP, the client's address, which alone may use it, and when it was last used. */
type Session = { views: boolean; client: string; used: bigint };

/** What the server uses of node. */
type NodeGlobals = {
  process: {
    argv: string[];
    exitCode: number | undefined;
    hrtime: { bigint(): bigint };
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
  socket: { remoteAddress?: string };
  on(event: string, listener: (chunk: Bytes) => void): unknown;
};
type Response = {
  headersSent: boolean;
  writeHead(status: number, headers: { [key: string]: string }): unknown;
  end(data: string): unknown;
  destroy(): unknown;
};
type NodeHttp = {
  createServer(
    options: { connectionsCheckingInterval: number },
    handler: (req: Request, res: Response) => void,
  ): {
    listen(port: number, host: string, done: () => void): unknown;
    address(): { port: number };
    setTimeout(ms: number): unknown;
    requestTimeout: number;
    headersTimeout: number;
    keepAliveTimeout: number;
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
// The sessions open at once: a client that never says DELETE cannot hold the memory. When
// every one is taken, one that has been idle longer than --idle-timeout makes room; if none
// has, initialize is refused (503), and no session in use is ever closed for another.
const MAX_SESSIONS = 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/** A message answered with a JSON-RPC error. */
class Refused extends Error {
  code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

// rulec-copy: runner.ts reader

/**
 * JSON text. A string of the message may hold half of a surrogate pair: JSON.stringify
 * writes it as its escape.
 */
function dumps(x: unknown): string {
  return JSON.stringify(x);
}

/** A response's text: the id as the client wrote it (null without one), then `outcome`, its result or its error. */
function response(id: string | null, outcome: Json): string {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + (id ?? "null") + "," + dumps(outcome).slice(1);
}

/** Whether a response of `response` is a result, not an error. */
function isResult(answer: string, id: string | null): boolean {
  return id !== null && answer.startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":");
}

function error(code: number, message: string): Json {
  return { error: { code, message } };
}

/**
 * One JSON-RPC message: its members, and its id as the client wrote it (the JSON text of a
 * string or an integer, echoed as it came: null when there is none, or it is neither).
 */
type Message = { fields: Json; id: string | null };

/** One JSON-RPC message: a JSON object. */
function read(text: string): Message {
  let message: unknown;
  try {
    message = new _Reader(text).top();
  } catch (e) {
    throw new Refused(PARSE_ERROR, "the message is not JSON: " + (e instanceof Error ? e.message : String(e)));
  }
  if (Array.isArray(message)) {
    throw new Refused(INVALID_REQUEST, "a batch is not accepted: send one message at a time");
  }
  if (!_isObject(message)) {
    throw new Refused(INVALID_REQUEST, "a message is a JSON object");
  }
  const id = idText(text);
  return { fields: message, id: id !== null && (id.startsWith("\"") || INTEGER.test(id)) ? id : null };
}

/** The text of the id of a JSON object's text, read already (of the last id, as the value read is the last one's). */
function idText(text: string): string | null {
  const r = new _Reader(text);
  let id: string | null = null;
  r.ws();
  r.eat("{");
  r.ws();
  while (r.s[r.i] !== "}") {
    const key = r.string();
    r.ws();
    r.eat(":");
    r.ws();
    const from = r.i;
    r.value();
    if (key === "id") {
      id = r.s.slice(from, r.i);
    }
    r.ws();
    if (r.s[r.i] === ",") {
      r.i += 1;
      r.ws();
    }
  }
  return id;
}

/** Whether a string of a JSON value (a key or a value) holds half of a surrogate pair, which is not a character. */
function loneSurrogate(x: unknown): boolean {
  if (typeof x === "string") {
    return LONE_SURROGATE.test(x);
  }
  if (Array.isArray(x)) {
    return x.some(loneSurrogate);
  }
  if (_isObject(x)) {
    return Object.keys(x).some((k) => LONE_SURROGATE.test(k) || loneSurrogate(x[k]));
  }
  return false;
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

  /** The answer to a message, as its text; null for a notification or a response. */
  answer(message: Message, session: Session): string | null {
    const { fields, id } = message;
    if (fields.jsonrpc !== "2.0") {
      return response(id, error(INVALID_REQUEST, "the message does not say \"jsonrpc\":\"2.0\""));
    }
    if (!Object.hasOwn(fields, "method")) {
      if (Object.hasOwn(fields, "result") || Object.hasOwn(fields, "error")) {
        return null;
      }
      return response(id, error(INVALID_REQUEST, "the message has no method"));
    }
    const method = fields.method;
    if (typeof method !== "string") {
      return response(id, error(INVALID_REQUEST, "method is not a string"));
    }
    if (!Object.hasOwn(fields, "id")) {
      return null;
    }
    if (id === null) {
      return response(null, error(INVALID_REQUEST, "id is a string or an integer"));
    }
    const params = fields.params ?? {};
    if (!_isObject(params)) {
      return response(id, error(INVALID_PARAMS, "params is an object"));
    }
    try {
      return response(id, { result: this.request(method, params, session) });
    } catch (e) {
      if (e instanceof Refused) {
        return response(id, error(e.code, e.message));
      }
      // Nothing a message holds may end the server: what no check above foresaw is this
      // request's error.
      return response(id, error(INTERNAL_ERROR, "the server could not answer: " + (e instanceof Error ? e.name : typeof e)));
    }
  }

  request(method: string, params: Json, session: Session): Json {
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
        return this.call(params);
      case "resources/list":
        return {
          resources: this.view(session) === null ? [] : [{ uri: _RULE.view, name: _RULE.tool.name, mimeType: UI_MIME }],
        };
      case "resources/templates/list":
        return { resourceTemplates: [] };
      case "resources/read": {
        const uri = params.uri;
        if (typeof uri !== "string") {
          throw new Refused(INVALID_PARAMS, "uri is missing or not a string");
        }
        const page = this.view(session);
        if (uri !== _RULE.view || page === null) {
          throw new Refused(RESOURCE_NOT_FOUND, uri + " is not a resource of this server");
        }
        return { contents: [{ uri: _RULE.view, mimeType: UI_MIME, text: page }] };
      }
      default:
        throw new Refused(METHOD_NOT_FOUND, "this server has no method " + method);
    }
  }

  call(params: Json): Json {
    const name = params.name;
    if (typeof name !== "string") {
      throw new Refused(INVALID_PARAMS, "name is missing or not a string");
    }
    if (name !== _RULE.tool.name) {
      throw new Refused(INVALID_PARAMS, name + " is not a tool of this server");
    }
    const args = params.arguments ?? {};
    if (!_isObject(args)) {
      throw new Refused(INVALID_PARAMS, "arguments is an object");
    }
    const call = loneSurrogate(args) ? null : args;
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
    return response(null, error(PARSE_ERROR, "the message is not UTF-8"));
  }
  try {
    return tool.answer(read(text), session);
  } catch (e) {
    if (e instanceof Refused) {
      return response(null, error(e.code, e.message));
    }
    throw e;
  }
}

function serveStdio(tool: Tool): void {
  const session: Session = { views: false, client: "", used: 0n };
  let pending: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  const line = (bytes: Uint8Array): void => {
    if (tooLong) {
      node.process.stdout.write(response(null, error(INVALID_REQUEST, "the message is longer than " + MAX_MESSAGE + " bytes")) + "\n");
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
  const span = BigInt(Math.round(idle * 1e9));
  /** A new session's id; null when every place is taken by a session used within the idle time (the longest idle one makes room otherwise). */
  const opened = (session: Session): string | null => {
    if (sessions.size >= MAX_SESSIONS) {
      let oldest: [string, Session] | null = null;
      for (const entry of sessions) {
        if (oldest === null || entry[1].used < oldest[1].used) {
          oldest = entry;
        }
      }
      if (oldest === null || node.process.hrtime.bigint() - oldest[1].used < span) {
        return null;
      }
      sessions.delete(oldest[0]);
    }
    const sid = nodeCrypto.randomBytes(16).toString("hex");
    sessions.set(sid, session);
    return sid;
  };
  const handle = (req: Request, res: Response): void => {
    const send = (status: number, body: string | null, headers: { [key: string]: string } = {}): void => {
      const data = body ?? "";
      if (body !== null) {
        headers["Content-Type"] = "application/json";
      }
      headers["Content-Length"] = String(node.Buffer.byteLength(data));
      res.writeHead(status, headers);
      res.end(data);
    };
    const refuse = (status: number, message: string): void => send(status, response(null, error(INVALID_REQUEST, message)));
    if (pathOf(req.url ?? "/") !== "/mcp") {
      refuse(404, "the server answers at /mcp");
      return;
    }
    const origin = req.headers.origin;
    if (typeof origin === "string" && !local(origin) && !origins.includes(origin)) {
      refuse(403, "the Origin " + origin + " is not allowed");
      return;
    }
    const client = req.socket.remoteAddress ?? "";
    /** The session the request names; else answered already (400 without one, 404 for one that is not open, or no longer, or was opened by another client). */
    const sessionOf = (): [string, Session] | null => {
      const sid = req.headers["mcp-session-id"];
      if (typeof sid !== "string") {
        refuse(400, "Mcp-Session-Id is missing: initialize first");
        return null;
      }
      const found = sessions.get(sid);
      if (found === undefined || found.client !== client) {
        refuse(404, "the session " + sid + " is not open");
        return null;
      }
      found.used = node.process.hrtime.bigint();
      return [sid, found];
    };
    if (req.method === "DELETE") {
      const found = sessionOf();
      if (found !== null) {
        sessions.delete(found[0]);
        send(200, null);
      }
      return;
    }
    if (req.method !== "POST") {
      // The server never sends anything unasked: there is no stream to open.
      send(405, null, { Allow: "POST, DELETE" });
      return;
    }
    if (req.headers["content-length"] === undefined) {
      refuse(411, "Content-Length is missing");
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
      guarded(res, () => {
        if (tooLong) {
          refuse(413, "the message is longer than " + MAX_MESSAGE + " bytes");
          return;
        }
        let message: Message;
        try {
          message = read(decode(node.Buffer.concat(chunks)));
        } catch (e) {
          const r = e instanceof Refused ? e : new Refused(PARSE_ERROR, "the message is not UTF-8");
          send(400, response(null, error(r.code, r.message)));
          return;
        }
        const { fields } = message;
        if (fields.method === "initialize" && Object.hasOwn(fields, "id")) {
          const session: Session = { views: false, client, used: node.process.hrtime.bigint() };
          const answer = tool.answer(message, session);
          if (answer === null || !isResult(answer, message.id)) {
            send(200, answer);
            return;
          }
          const sid = opened(session);
          if (sid === null) {
            send(503, response(message.id, error(INVALID_REQUEST, "every session is in use: try again later")));
            return;
          }
          send(200, answer, { "Mcp-Session-Id": sid });
          return;
        }
        const version = req.headers["mcp-protocol-version"];
        if (typeof version === "string" && !VERSIONS.includes(version)) {
          send(400, response(message.id, error(INVALID_REQUEST, "MCP-Protocol-Version " + version + " is not spoken here")));
          return;
        }
        const found = sessionOf();
        if (found === null) {
          return;
        }
        const answer = tool.answer(message, found[1]);
        if (answer === null) {
          send(202, null);
        } else {
          send(200, answer);
        }
      });
    });
  };
  // The time a request has to arrive whole, checked every quarter of it: a client that
  // trickles a byte at a time is answered 408 and closed.
  const checking = { connectionsCheckingInterval: Math.max(Math.min(idle * 250, 1000), 1) };
  const server = nodeHttp.createServer(checking, (req: Request, res: Response) => guarded(res, () => handle(req, res)));
  // A connection that sends nothing for this long is closed (with no listener for the
  // timeout, node destroys the socket): an idle or stalled client does not keep it open.
  server.setTimeout(idle * 1000);
  server.requestTimeout = idle * 1000;
  server.headersTimeout = idle * 1000;
  server.keepAliveTimeout = idle * 1000;
  server.listen(port, host, () => {
    const shown = host.includes(":") ? "[" + host + "]" : host;
    node.process.stdout.write("http://" + shown + ":" + server.address().port + "/mcp\n");
  });
}

/** The path of a request's target; null for one that is not a URL's (`//`). */
function pathOf(target: string): string | null {
  try {
    return new node.URL(target, "http://x").pathname;
  } catch {
    return null;
  }
}

/** Run `work`, answering with 500 whatever it throws (nothing a request holds may end the server). */
function guarded(res: Response, work: () => void): void {
  try {
    work();
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = response(null, error(INTERNAL_ERROR, "the server could not answer: " + (e instanceof Error ? e.name : typeof e)));
    res.writeHead(500, { "Content-Type": "application/json", "Content-Length": String(node.Buffer.byteLength(body)) });
    res.end(body);
  }
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
