//! An editor's side of `rulec lsp`: the process over stdio, messages framed by
//! Content-Length, requests matched to their responses, notifications kept in order.

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long any one answer may take before the test gives up (a hang guard, not a timing).
const GIVE_UP: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: mpsc::Receiver<Value>,
    notifications: VecDeque<Value>,
    next_id: i64,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    pub fn start(cwd: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulec"))
            .arg("lsp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("rulec lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut stdout) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut c = Client { child, stdin, incoming, notifications: VecDeque::new(), next_id: 1 };
        let caps = c.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
        assert_eq!(caps["capabilities"]["positionEncoding"], "utf-16", "{caps}");
        c.notify("initialized", json!({}));
        c
    }

    fn write(&mut self, msg: &Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The whole response (`result` or `error`).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.incoming.recv_timeout(GIVE_UP).unwrap_or_else(|_| panic!("no answer to {method}"));
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            self.notifications.push_back(m);
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let m = self.call(method, params.clone());
        assert!(m.get("error").is_none(), "{method} {params}: {m}");
        m["result"].clone()
    }

    /// The next diagnostics published for `uri` at `version`; any published for it at an
    /// older version before them are passed over (and returned second). What is published
    /// for other files stays to be read.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> (Vec<Value>, Vec<i64>) {
        let mut older = Vec::new();
        let mut seen = 0;
        loop {
            while seen < self.notifications.len() {
                let m = &self.notifications[seen];
                if m["method"] != "textDocument/publishDiagnostics" || m["params"]["uri"] != uri {
                    seen += 1;
                    continue;
                }
                let m = self.notifications.remove(seen).unwrap();
                let v = m["params"]["version"].as_i64().unwrap_or(-1);
                if v == version {
                    return (m["params"]["diagnostics"].as_array().unwrap().clone(), older);
                }
                older.push(v);
            }
            let m = self.incoming.recv_timeout(GIVE_UP).expect("diagnostics are published");
            self.notifications.push_back(m);
        }
    }

    pub fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "rule", "version": 1, "text": text}}),
        );
        self.diagnostics(uri, 1).0
    }

    pub fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    pub fn shutdown(mut self) {
        let r = self.call("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "rulec lsp exits 0 after exit: {status}");
    }
}

/// The `file:` URI of a path.
pub fn uri(path: &Path) -> String {
    rulec::lsp::path_to_uri(&std::fs::canonicalize(path).unwrap()).as_str().to_string()
}

/// The LSP position (0-based line, UTF-16 column) of the `nth` (0-based) occurrence of `needle`.
pub fn pos(text: &str, needle: &str, nth: usize) -> Value {
    let at = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("`{needle}` #{nth} in the text")).0;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count();
    json!({"line": line, "character": text[line_start..at].encode_utf16().count()})
}

/// Apply LSP text edits (on one file) to `text`.
pub fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let (line, col) = (p["line"].as_u64().unwrap() as usize, p["character"].as_u64().unwrap() as usize);
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let rest = &text[start..];
        let mut units = 0;
        for (i, c) in rest.char_indices() {
            if units >= col || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap()))
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, t) in spans {
        out.replace_range(a..b, t);
    }
    out
}
