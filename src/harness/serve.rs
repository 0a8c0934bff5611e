//! The passes through the servers gen writes (src/gen/serve): `rulec test` as the client an
//! agent or a service would be. Each pass answers one line per vector, in the runner's
//! form — the record, or `{"refused":…,"error":…}` — so the same expected records hold it.

use super::http;
use crate::gen::Drive;
use serde_json::{json, Map, Value as Json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a server may take to say where it listens.
const START: Duration = Duration::from_secs(60);

/// A server this pass started: stopped (killed by its handle) when dropped.
pub struct Server {
    child: Child,
    pub url: String,
    errors: mpsc::Receiver<String>,
}

impl Server {
    /// Start `cmd` in `dir` and read the URL it prints first.
    pub fn start(cmd: &[String], dir: &Path) -> Result<Server, String> {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tx.send(lines.next().and_then(Result::ok));
            for _ in lines {}
        });
        let (etx, errors) = mpsc::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            let _ = etx.send(text);
        });
        let mut server = Server { child, url: String::new(), errors };
        match rx.recv_timeout(START) {
            Ok(Some(url)) if url.starts_with("http://") => {
                server.url = url.trim().to_string();
                Ok(server)
            }
            _ => Err(format!("the server `{}` did not say where it listens: {}", cmd.join(" "), server.stop())),
        }
    }

    /// `host:port` of the URL.
    pub fn addr(&self) -> String {
        let rest = self.url.trim_start_matches("http://");
        rest.split('/').next().unwrap_or(rest).to_string()
    }

    /// The URL's path (`/mcp`), or `/`.
    pub fn path(&self) -> String {
        let rest = self.url.trim_start_matches("http://");
        rest.find('/').map(|i| rest[i..].to_string()).unwrap_or_else(|| "/".into())
    }

    /// Stop it; what it printed on stderr.
    pub fn stop(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.errors.recv_timeout(Duration::from_secs(5)).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `in` of a vectors line as JSON text (the line itself when it is not JSON).
fn call_text(line: &str) -> String {
    match serde_json::from_str::<Json>(line) {
        Ok(top) => match top.get("in") {
            Some(call) if top.is_object() => call.to_string(),
            _ => top.to_string(),
        },
        Err(_) => line.to_string(),
    }
}

/// `tools/call` of the rule's tool on one vector, as JSON-RPC text (the call's own bytes
/// inside, so a number keeps its digits).
pub fn tool_call(id: usize, tool: &str, line: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":{},\"arguments\":{}}}}}",
        json!(tool),
        call_text(line)
    )
}

pub fn initialize(id: usize) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "rulec test", "version": env!("CARGO_PKG_VERSION")}}})
    .to_string()
}

pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// The runner's line for an answer to `tools/call`: the record, or the refusal.
pub fn line_of(answer: &Json) -> String {
    let result = &answer["result"];
    if result.is_null() {
        return json!({"jsonrpc_error": answer.get("error")}).to_string();
    }
    if result["isError"] == json!(true) {
        let s = &result["structuredContent"];
        let mut m = Map::new();
        m.insert("refused".into(), s["refused"].clone());
        m.insert("error".into(), s["error"].clone());
        return Json::Object(m).to_string();
    }
    result["content"][0]["text"].as_str().map(str::to_string).unwrap_or_else(|| result.to_string())
}

/// Check that `tools/list` offers the rule's tool.
fn lists(answer: &Json, tool: &str) -> Result<(), String> {
    let tools = answer["result"]["tools"].as_array().cloned().unwrap_or_default();
    if tools.iter().any(|t| t["name"] == json!(tool)) {
        Ok(())
    } else {
        Err(format!("tools/list has no tool named {tool}: {answer}"))
    }
}

/// Drive a pass: the lines its server answered for the vectors.
pub fn drive(drive: &Drive, dir: &Path, tool: &str, vectors: &str) -> Result<String, String> {
    match drive {
        Drive::McpStdio(cmd) => stdio(cmd, dir, tool, vectors),
        Drive::McpHttp(cmd) => mcp_http(cmd, dir, tool, vectors),
        Drive::Served { server, client } => served(server, client, dir, vectors),
    }
}

fn stdio(cmd: &[String], dir: &Path, tool: &str, vectors: &str) -> Result<String, String> {
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
    let mut input =
        format!("{}\n{INITIALIZED}\n{}\n", initialize(0), json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let lines: Vec<&str> = vectors.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        input.push_str(&tool_call(i + 2, tool, l));
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = super::wait_with_timeout(child, Duration::from_secs(300))?;
    let _ = writer.join();
    let text =
        String::from_utf8(output.stdout).map_err(|_| "the server printed something that is not UTF-8".to_string())?;
    let mut answers: Vec<Option<Json>> = vec![None; lines.len() + 2];
    for l in text.lines() {
        let a: Json =
            serde_json::from_str(l).map_err(|e| format!("the server printed a line that is not JSON ({e}): {l}"))?;
        let id = a["id"].as_u64().map(|n| n as usize).filter(|&n| n < answers.len());
        match id {
            Some(n) => answers[n] = Some(a),
            None => return Err(format!("the server answered something no request asked: {l}")),
        }
    }
    if answers[0].as_ref().and_then(|a| a.get("result")).is_none() {
        return Err(format!(
            "the server did not answer initialize ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    lists(answers[1].as_ref().unwrap_or(&Json::Null), tool)?;
    let mut out = String::new();
    for (i, a) in answers.iter().skip(2).enumerate() {
        let a = a.as_ref().ok_or_else(|| format!("no answer to the call of line {}", i + 1))?;
        out.push_str(&line_of(a));
        out.push('\n');
    }
    Ok(out)
}

fn mcp_http(cmd: &[String], dir: &Path, tool: &str, vectors: &str) -> Result<String, String> {
    let mut server = Server::start(cmd, dir)?;
    let result = (|| {
        let mut c = http::Client::new(&server.addr());
        let path = server.path();
        let post = |c: &mut http::Client, sid: Option<&str>, body: &str| -> Result<http::Response, String> {
            let mut headers = vec![("Accept", "application/json, text/event-stream")];
            if let Some(s) = sid {
                headers.push(("Mcp-Session-Id", s));
            }
            c.request("POST", &path, &headers, body.as_bytes()).map_err(|e| format!("POST {path}: {e}"))
        };
        let init = post(&mut c, None, &initialize(0))?;
        let sid = init
            .header("mcp-session-id")
            .map(str::to_string)
            .ok_or_else(|| format!("initialize gave no Mcp-Session-Id ({}): {}", init.status, init.text()))?;
        let note = post(&mut c, Some(&sid), INITIALIZED)?;
        if note.status != 202 {
            return Err(format!("a notification was answered {} rather than 202", note.status));
        }
        let list = post(&mut c, Some(&sid), &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string())?;
        lists(&serde_json::from_slice(&list.body).unwrap_or(Json::Null), tool)?;
        let mut out = String::new();
        for (i, l) in vectors.lines().enumerate() {
            let r = post(&mut c, Some(&sid), &tool_call(i + 2, tool, l))?;
            let a: Json = serde_json::from_slice(&r.body)
                .map_err(|_| format!("line {}: the answer ({}) is not JSON: {}", i + 1, r.status, r.text()))?;
            out.push_str(&line_of(&a));
            out.push('\n');
        }
        let end = c.request("DELETE", &path, &[("Mcp-Session-Id", &sid)], b"").map_err(|e| e.to_string())?;
        if end.status != 200 {
            return Err(format!("DELETE of the session was answered {}", end.status));
        }
        Ok(out)
    })();
    result.map_err(|e| format!("{e}\n{}", server.stop()))
}

fn served(server_cmd: &[String], client: &[String], dir: &Path, vectors: &str) -> Result<String, String> {
    let mut server = Server::start(server_cmd, dir)?;
    let cmd: Vec<String> = client.iter().map(|a| a.replace("{url}", &server.url)).collect();
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = vectors.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = super::wait_with_timeout(child, Duration::from_secs(300));
    let _ = writer.join();
    let output = output.map_err(|e| format!("{e}\n{}", server.stop()))?;
    if !output.status.success() {
        return Err(format!(
            "the client died ({}):\n{}\nthe server said:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr),
            server.stop()
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| "the client printed something that is not UTF-8".to_string())
}
