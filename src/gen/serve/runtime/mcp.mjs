// The rule as one MCP tool (generated-code.md, "The rule as an MCP tool"): a server over
// stdio, or over MCP's Streamable HTTP with --http. It answers a call with the module's own
// wire door, so the answer is the fixtures record the runner prints; a refused call comes
// back with isError and the module's sentence. Node's own modules only, reached through
// globalThis and import(), so that the types below are the whole of what it uses of node.
//
// The backend writes it beside each module with the import naming the module's file and
// its wire door (`rulec_wire`), and `_RULE` the rule's tool. mcp.mjs is this file with its
// types taken off (tsc's own output; tests/serve.rs holds the two together).
import { rulec_wire, RuleInputError, RuleContradictionError } from "./module.mjs";
const node = globalThis;
/** A module of node by name (the name computed, so that no type declarations are needed for it). */
const builtin = async (name) => await import("node:" + name);
const nodeHttp = (await builtin("http"));
const nodeCrypto = (await builtin("crypto"));
const nodeFs = (await builtin("fs"));
const nodePath = (await builtin("path"));
const nodeUrl = (await builtin("url"));
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
    code;
    id;
    constructor(code, message, id) {
        super(message);
        this.code = code;
        this.id = id;
    }
}
/** Whether a string holds half of a surrogate pair. */
function lone(s) {
    for (let i = 0; i < s.length; i += 1) {
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff) {
            const d = s.charCodeAt(i + 1);
            if (!(d >= 0xdc00 && d <= 0xdfff)) {
                return true;
            }
            i += 1;
        }
        else if (c >= 0xdc00 && c <= 0xdfff) {
            return true;
        }
    }
    return false;
}
/**
 * JSON read exactly, as the module's runner reads a call: a whole number is a bigint (one
 * with more than 40 digits before the point is a number past every range), any other
 * number a JavaScript number that is not an integer. `lone` says whether a string held half
 * of a surrogate pair, which the reference reads as no JSON at all.
 */
class Reader {
    s;
    i;
    depth;
    lone;
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
        const words = [["null", null], ["true", true], ["false", false]];
        for (const [word, v] of words) {
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
            }
            else {
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
            }
            else {
                this.eat("]");
                return out;
            }
        }
    }
    string() {
        this.eat("\"");
        let out = "";
        const simple = { "\"": "\"", "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
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
            if (Object.hasOwn(simple, e)) {
                out += simple[e];
            }
            else if (e === "u") {
                const hex = this.s.slice(this.i, this.i + 4);
                if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
                    this.fail();
                }
                this.i += 4;
                out += String.fromCharCode(parseInt(hex, 16));
            }
            else {
                this.fail();
            }
        }
        if (lone(out)) {
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
    if (m === null) {
        return Number(text);
    }
    const sign = m[1];
    const frac = m[3] ?? "";
    let digits = (m[2] + frac).replace(/^0+/, "");
    const e = Number(m[4] ?? "0") - frac.length;
    const far = sign === "-" ? -(10n ** 40n) : 10n ** 40n;
    if (digits === "") {
        return 0n;
    }
    if (e < 0) {
        const cut = digits.length + e;
        if (cut <= 0 || /[^0]/.test(digits.slice(cut))) {
            return Number(text);
        }
        digits = digits.slice(0, cut);
    }
    else if (digits.length + e > 40) {
        return far;
    }
    else {
        digits += "0".repeat(e);
    }
    return digits.length > 40 ? far : BigInt(sign + digits);
}
/** A value as JSON text: a bigint as its digits. */
function dumps(x) {
    return JSON.stringify(x, (_, v) => (typeof v === "bigint" ? Number(v) : v));
}
function error(id, code, message) {
    return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}
/** One JSON-RPC message. */
function read(text) {
    const r = new Reader(text);
    let message;
    try {
        message = r.top();
    }
    catch (e) {
        throw new Refused(PARSE_ERROR, "the message is not JSON: " + e.message, null);
    }
    if (Array.isArray(message)) {
        throw new Refused(INVALID_REQUEST, "a batch is not accepted: send one message at a time", null);
    }
    if (typeof message !== "object" || message === null) {
        throw new Refused(INVALID_REQUEST, "a message is a JSON object", null);
    }
    const m = message;
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
function field(x, key) {
    return typeof x === "object" && x !== null && !Array.isArray(x) ? x[key] : undefined;
}
/** The protocol: one tool, the page as its view, the record file. */
class Tool {
    record;
    page;
    constructor(record, here) {
        this.record = record;
        this.page = nodePath.join(here, _RULE.page);
    }
    /** The page, for a client that renders views, while the file is there. */
    view(session) {
        if (!session.views || _RULE.page === "") {
            return null;
        }
        try {
            return nodeFs.readFileSync(this.page, "utf8");
        }
        catch {
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
        if (typeof params !== "object" || params === null || Array.isArray(params)) {
            return error(id, INVALID_PARAMS, "params is an object");
        }
        try {
            return { jsonrpc: "2.0", id, result: this.request(method, params, session, read.lone) };
        }
        catch (e) {
            if (e instanceof Refused) {
                return error(id, e.code, e.message);
            }
            throw e;
        }
    }
    request(method, params, session, lone) {
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
                    throw new Refused(RESOURCE_NOT_FOUND, String(params.uri) + " is not a resource of this server", null);
                }
                return { contents: [{ uri: _RULE.view, mimeType: UI_MIME, text: page }] };
            }
            default:
                throw new Refused(METHOD_NOT_FOUND, "this server has no method " + method, null);
        }
    }
    call(params, lone) {
        if (params.name !== _RULE.tool.name) {
            throw new Refused(INVALID_PARAMS, String(params.name) + " is not a tool of this server", null);
        }
        const call = lone ? null : (params.arguments ?? {});
        let line;
        try {
            line = rulec_wire(call);
        }
        catch (e) {
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
function refused(text, kind, what) {
    return { content: [{ type: "text", text }], structuredContent: { refused: kind, error: what }, isError: true };
}
function decode(bytes) {
    return new node.TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
}
/** Answer one line of bytes: the answer's text, or null. */
function answerBytes(tool, bytes, session) {
    let text;
    try {
        text = decode(bytes);
    }
    catch {
        return dumps(error(null, PARSE_ERROR, "the message is not UTF-8"));
    }
    try {
        const answer = tool.answer(read(text), session);
        return answer === null ? null : dumps(answer);
    }
    catch (e) {
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
    node.process.stdin.on("data", (chunk) => {
        let start = 0;
        for (;;) {
            const end = chunk.indexOf(10, start);
            const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
            if (!tooLong) {
                size += piece.length;
                if (size > MAX_MESSAGE) {
                    tooLong = true;
                    pending = [];
                }
                else {
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
function local(origin) {
    try {
        const u = new node.URL(origin);
        return (u.protocol === "http:" || u.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
    }
    catch {
        return false;
    }
}
function serveHttp(tool, host, port, origins) {
    const sessions = new Map();
    const server = nodeHttp.createServer((req, res) => {
        const send = (status, body, headers = {}) => {
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
            }
            else {
                chunks.push(chunk);
            }
        });
        req.on("end", () => {
            if (tooLong) {
                send(413, error(null, INVALID_REQUEST, "the message is longer than " + MAX_MESSAGE + " bytes"));
                return;
            }
            let parsed;
            try {
                parsed = read(decode(node.Buffer.concat(chunks)));
            }
            catch (e) {
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
                    const sid = nodeCrypto.randomBytes(16).toString("hex");
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
            }
            else {
                send(200, answer);
            }
        });
    });
    server.listen(port, host, () => {
        const shown = host.includes(":") ? "[" + host + "]" : host;
        node.process.stdout.write("http://" + shown + ":" + server.address().port + "/mcp\n");
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
        }
        else if (arg === "--origin") {
            origins.push(next());
        }
        else if (arg === "--record") {
            record = next();
        }
        else {
            throw new Error("usage: " + _RULE.tool.name + "_mcp [--http [HOST:]PORT] [--origin ORIGIN]... [--record FILE]");
        }
    }
    const here = nodePath.dirname(nodeUrl.fileURLToPath(import.meta.url));
    const tool = new Tool(record, here);
    if (http === null) {
        serveStdio(tool);
    }
    else {
        serveHttp(tool, http[0], http[1], origins);
    }
}
try {
    main(node.process.argv.slice(2));
}
catch (e) {
    node.process.stderr.write(e.message + "\n");
    node.process.exitCode = 2;
}
