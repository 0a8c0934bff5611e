//! `rulec mcp`: the Model Context Protocol over stdio (formats.md `mcp`). JSON-RPC 2.0, one
//! message a line in and out. It is the command table in another syntax: the tools are read
//! off clap's table (src/cli.rs, [`tools`]), a call becomes the command line clap parses,
//! and the command runs through the same function the CLI calls, in this process, with what
//! it prints captured. The docs an agent needs are resources, embedded at build time so
//! they are the version the tools implement.
//!
//! The server is confined to a root (`--root`, else the working folder's project root):
//! every path a call names must lead inside it, links followed, or the call is refused
//! before anything runs; a tool that runs commands runs only under `--allow-run`.

#[cfg(unix)]
mod capture;
pub mod tools;

use crate::cli::Cli;
use clap::{CommandFactory, Parser};
use serde_json::{json, Map, Value as Json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// The protocol revisions this server speaks, newest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The longest message read; a longer line is answered with an error and skipped.
pub const MAX_MESSAGE: usize = 4 << 20;

/// A resource: the file of this repository's docs/ it is, embedded when rulec is built.
pub struct Resource {
    pub name: &'static str,
    pub description: &'static str,
    pub text: &'static str,
}

pub const RESOURCES: [Resource; 5] = [
    Resource {
        name: "agents.md",
        description: "Read this first: how an agent writes, checks, fixes and generates a rule with these tools.",
        text: include_str!("../../docs/agents.md"),
    },
    Resource {
        name: "reference.md",
        description: "The .rule language: every declaration, type, table policy and diagnostic.",
        text: include_str!("../../docs/reference.md"),
    },
    Resource {
        name: "formats.md",
        description: "What every command prints (text and JSON), and the data files: vectors, fixtures, records.",
        text: include_str!("../../docs/formats.md"),
    },
    Resource {
        name: "generated-code.md",
        description:
            "The code gen writes, per language, and how to call it; the MCP tool and the Connect service of a rule.",
        text: include_str!("../../docs/generated-code.md"),
    },
    Resource {
        name: "backends.md",
        description: "How code generation is shaped: a plan decided once, which every language only spells.",
        text: include_str!("../../docs/backends.md"),
    },
];

pub fn resource_uri(name: &str) -> String {
    format!("rulec://docs/{name}")
}

/// A resource's text as served: a markdown link to another resource points at its URI.
pub fn resource_text(r: &Resource) -> String {
    let mut text = r.text.to_string();
    for other in &RESOURCES {
        text = text.replace(&format!("]({}", other.name), &format!("]({}", resource_uri(other.name)));
    }
    text
}

/// The JSON-RPC error codes this server answers with.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// MCP's: a resource that does not exist.
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
}

/// How `rulec mcp` was started.
pub struct Options {
    /// The folder no path of a call may leave (`None`: the working folder's project root).
    pub root: Option<std::path::PathBuf>,
    /// Whether the tools that run commands (`verify`, `test`) may run them.
    pub allow_run: bool,
}

/// Serve until standard input ends. `run` is the CLI's own dispatch (src/main.rs).
pub fn serve(opts: &Options, run: &dyn Fn(Cli) -> Result<u8, String>) -> Result<u8, String> {
    #[cfg(unix)]
    {
        let server = Server::new(opts);
        let stdio = capture::Stdio::take().map_err(|e| format!("cannot take standard input and output: {e}"))?;
        let mut output = stdio.output.try_clone().map_err(|e| e.to_string())?;
        let mut input = BufReader::new(stdio.input.try_clone().map_err(|e| e.to_string())?);
        let call = |cli: Cli| -> Outcome {
            let ran = stdio.capture(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli))));
            match ran {
                Err(e) => Outcome {
                    text: format!("error: cannot capture the command's output: {e}\n"),
                    stdout: String::new(),
                    code: 2,
                },
                Ok((out, err, result)) => {
                    let code = match result {
                        Ok(Ok(code)) => code,
                        Ok(Err(msg)) => {
                            return Outcome { text: format!("{out}{err}error: {msg}\n"), stdout: out, code: 2 };
                        }
                        // The panic's message is in what stderr captured.
                        Err(_) => 101,
                    };
                    Outcome { text: format!("{out}{err}"), stdout: out, code }
                }
            }
        };
        loop {
            let line = match read_line(&mut input, MAX_MESSAGE) {
                Ok(None) => return Ok(0),
                Ok(Some(line)) => line,
                Err(e) => return Err(format!("cannot read standard input: {e}")),
            };
            if let Some(answer) = server.answer(&line, &call) {
                writeln!(output, "{answer}").and_then(|_| output.flush()).map_err(|e| e.to_string())?;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (opts, run);
        Err("rulec mcp captures a command's output through the file descriptors of a Unix system".into())
    }
}

/// One line of input: its bytes, or `Line::TooLong` when it runs past `max` (the rest of
/// it is read and dropped, so the next line starts where it should). `None` at the end.
pub fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long && bytes.len() + chunk.len() > max {
            too_long = true;
            bytes = Vec::new();
        }
        if !too_long {
            bytes.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(Some(if too_long { Line::TooLong } else { Line::Bytes(bytes) }))
}

pub enum Line {
    Bytes(Vec<u8>),
    TooLong,
}

/// What a command did: everything it printed, what of it went to standard output, and its
/// exit code.
pub struct Outcome {
    pub text: String,
    pub stdout: String,
    pub code: u8,
}

/// The protocol, apart from reading and writing lines: a message in, the answer (if any) out.
pub struct Server {
    tools: Vec<tools::Tool>,
    root: crate::confine::Root,
    allow_run: bool,
}

impl Server {
    pub fn new(opts: &Options) -> Server {
        let mut cli = Cli::command();
        cli.build();
        let root = match &opts.root {
            Some(r) => r.clone(),
            None => crate::source::project_root(Path::new(".")),
        };
        Server {
            tools: tools::tools(&cli),
            root: crate::confine::Root::new(&root, "the server's root"),
            allow_run: opts.allow_run,
        }
    }

    pub fn tools(&self) -> &[tools::Tool] {
        &self.tools
    }

    /// The answer to one line, or `None` for a notification (and a blank line).
    pub fn answer(&self, line: &Line, run: &dyn Fn(Cli) -> Outcome) -> Option<String> {
        let bytes = match line {
            Line::TooLong => {
                return Some(error(
                    &Json::Null,
                    code::INVALID_REQUEST,
                    &format!("the message is longer than {MAX_MESSAGE} bytes"),
                ))
            }
            Line::Bytes(b) => b,
        };
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Some(error(&Json::Null, code::PARSE_ERROR, "the message is not UTF-8"));
        };
        if text.trim().is_empty() {
            return None;
        }
        let message: Json = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return Some(error(&Json::Null, code::PARSE_ERROR, &format!("the message is not JSON: {e}"))),
        };
        let Some(m) = message.as_object() else {
            let what = if message.is_array() {
                "a batch is not accepted: send one message a line"
            } else {
                "a message is a JSON object"
            };
            return Some(error(&Json::Null, code::INVALID_REQUEST, what));
        };
        // An id is a string or an integer of any length, echoed as written (serde_json keeps
        // a number's text); any other id is not echoed.
        let valid = |id: &Json| match id {
            Json::String(_) => true,
            Json::Number(n) => n.to_string().trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()),
            _ => false,
        };
        let id = m.get("id").cloned();
        let shown_id = id.clone().filter(valid).unwrap_or(Json::Null);
        if m.get("jsonrpc") != Some(&json!("2.0")) {
            return Some(error(&shown_id, code::INVALID_REQUEST, "the message does not say \"jsonrpc\":\"2.0\""));
        }
        let Some(method) = m.get("method") else {
            // A response to something this server never asks: nothing to answer.
            return if m.contains_key("result") || m.contains_key("error") {
                None
            } else {
                Some(error(&shown_id, code::INVALID_REQUEST, "the message has no method"))
            };
        };
        let Some(method) = method.as_str() else {
            return Some(error(&shown_id, code::INVALID_REQUEST, "method is not a string"));
        };
        let Some(id) = id else {
            // A notification (notifications/initialized, notifications/cancelled…): never answered.
            return None;
        };
        if !valid(&id) {
            return Some(error(&Json::Null, code::INVALID_REQUEST, "id is a string or an integer"));
        }
        let empty = Map::new();
        let params = match m.get("params") {
            None | Some(Json::Null) => &empty,
            Some(Json::Object(p)) => p,
            Some(_) => return Some(error(&id, code::INVALID_PARAMS, "params is an object")),
        };
        Some(match self.request(method, params, run) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
            Err((c, msg)) => error(&id, c, &msg),
        })
    }

    fn request(
        &self,
        method: &str,
        params: &Map<String, Json>,
        run: &dyn Fn(Cli) -> Outcome,
    ) -> Result<Json, (i64, String)> {
        match method {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Json::as_str).unwrap_or("");
                let version = PROTOCOL_VERSIONS.iter().find(|v| **v == asked).unwrap_or(&PROTOCOL_VERSIONS[0]);
                Ok(json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}, "resources": {"listChanged": false}},
                    "serverInfo": {"name": "rulec", "title": "rulec", "version": env!("CARGO_PKG_VERSION")},
                    "instructions": format!(
                        "Read {} first: the procedure for writing, checking, fixing and generating a rule. \
                         Each tool runs one rulec command in this server's working directory; every path \
                         a call names must lead inside the server's root, {}.{}",
                        resource_uri("agents.md"),
                        self.root.shown.display(),
                        if self.allow_run { "" } else { " Tools that run commands (rulec_verify, rulec_test) are refused: the server was started without --allow-run." }
                    ),
                }))
            }
            "ping" => Ok(json!({})),
            "tools/list" => {
                Ok(json!({"tools": self.tools.iter().map(|t| t.to_json(self.allow_run)).collect::<Vec<_>>()}))
            }
            "tools/call" => self.call(params, run),
            "resources/list" => Ok(json!({"resources": RESOURCES.iter().map(|r| json!({
                "uri": resource_uri(r.name), "name": r.name, "description": r.description, "mimeType": "text/markdown",
            })).collect::<Vec<_>>()})),
            "resources/templates/list" => Ok(json!({"resourceTemplates": []})),
            "resources/read" => {
                let uri =
                    params.get("uri").and_then(Json::as_str).ok_or((code::INVALID_PARAMS, "uri is missing".into()))?;
                let r = RESOURCES
                    .iter()
                    .find(|r| resource_uri(r.name) == uri)
                    .ok_or((code::RESOURCE_NOT_FOUND, format!("{uri} is not a resource of rulec")))?;
                Ok(json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": resource_text(r)}]}))
            }
            _ => Err((code::METHOD_NOT_FOUND, format!("rulec mcp has no method {method}"))),
        }
    }

    fn call(&self, params: &Map<String, Json>, run: &dyn Fn(Cli) -> Outcome) -> Result<Json, (i64, String)> {
        let name = params.get("name").and_then(Json::as_str).ok_or((code::INVALID_PARAMS, "name is missing".into()))?;
        let tool = self.tools.iter().find(|t| t.name == name).ok_or_else(|| {
            (code::INVALID_PARAMS, format!("{name} is not a tool of rulec mcp; tools/list lists them"))
        })?;
        let empty = Map::new();
        let args = match params.get("arguments") {
            None | Some(Json::Null) => &empty,
            Some(Json::Object(a)) => a,
            Some(_) => return Err((code::INVALID_PARAMS, "arguments is an object".into())),
        };
        let mut argv = tool.argv(args).map_err(|e| (code::INVALID_PARAMS, e))?;
        self.confine(tool, args, &mut argv)?;
        let outcome = match Cli::try_parse_from(std::iter::once("rulec".to_string()).chain(argv)) {
            Ok(cli) => run(cli),
            Err(e) => Outcome {
                text: e.render().to_string(),
                stdout: String::new(),
                code: u8::try_from(e.exit_code()).unwrap_or(2),
            },
        };
        let mut result = json!({
            "content": [{"type": "text", "text": outcome.text}, {"type": "text", "text": format!("exit code {}", outcome.code)}],
            // Findings are exit 1 and no error; exit 2 (and a crash) is.
            "isError": outcome.code >= 2,
        });
        if let Some(shape) = tool.traits.json {
            let mut structured = json!({"exit_code": outcome.code});
            // A command with --format prints JSON only when asked to.
            let asked = !tool.props.iter().any(|p| p.name == "format") || args.get("format") == Some(&json!("json"));
            if let Some(printed) = parsed(&outcome.stdout, shape).filter(|_| asked && outcome.code < 2) {
                structured["json"] = printed;
            }
            result["structuredContent"] = structured;
        }
        Ok(result)
    }

    /// Hold a call to the server's root before it runs: every path it names must lead
    /// inside, a tool that runs commands needs --allow-run. A call gets the server's root as
    /// its `--root` when it names none, and `gen` its lock beside `out`.
    fn confine(
        &self,
        tool: &tools::Tool,
        args: &Map<String, Json>,
        argv: &mut Vec<String>,
    ) -> Result<(), (i64, String)> {
        if tool.traits.runs && !self.allow_run {
            return Err((
                code::INVALID_PARAMS,
                format!(
                    "{} runs commands; this server was started without --allow-run, so it runs none (start it as `rulec mcp --allow-run` to allow them)",
                    tool.name
                ),
            ));
        }
        for (prop, value) in tool.named(args) {
            let path = match prop.names {
                tools::Names::Path => std::path::PathBuf::from(&value),
                tools::Names::Rule => crate::production::revision::split(&value).0,
                tools::Names::Command | tools::Names::Nothing => continue,
            };
            self.root
                .inside(&path)
                .map_err(|e| (code::INVALID_PARAMS, format!("`{}` of {}: {e}", prop.name, tool.name)))?;
        }
        if args.get("root").is_none_or(Json::is_null) {
            argv.insert(1, format!("--root={}", self.root.shown.display()));
        }
        let no_lock = args.get("no_lock") == Some(&Json::Bool(true));
        let writes_a_lock = ["gen", "lock"].contains(&tool.command.as_str());
        if writes_a_lock && !no_lock && args.get("lock").is_none_or(Json::is_null) {
            let out = args.get("out").and_then(Json::as_str).unwrap_or(".");
            let lock = Path::new(out).parent().unwrap_or(Path::new("")).join(crate::lock::FILE_NAME);
            self.root.inside(&lock).map_err(|e| {
                (
                    code::INVALID_PARAMS,
                    format!("the lock beside `out` of {}: {e}; name one inside with `lock`", tool.name),
                )
            })?;
            argv.insert(1, format!("--lock={}", lock.display()));
        }
        Ok(())
    }
}

/// What a command printed on standard output, as the JSON of its shape: `None` when that
/// is not JSON (a document that is no object, a line that is none).
fn parsed(stdout: &str, shape: tools::Shape) -> Option<Json> {
    match shape {
        tools::Shape::Document => serde_json::from_str::<Json>(stdout).ok().filter(Json::is_object),
        tools::Shape::Lines => {
            let lines: Option<Vec<Json>> = stdout
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str::<Json>(l).ok().filter(Json::is_object))
                .collect();
            lines.map(Json::Array)
        }
    }
}

/// A JSON-RPC error response.
pub fn error(id: &Json, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}
