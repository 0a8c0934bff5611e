//! Hostile messages (issue 35): every message of tests/hostile/messages.jsonl — malformed
//! JSON-RPC, a wrong type in every field, a lone surrogate in every string field, huge and
//! precise ids, huge exponents, deep nesting, batches — sent to `rulec mcp` and to the two
//! MCP servers `rulec gen` writes (Python, node) over stdio and over HTTP. Each gets the
//! JSON-RPC answer the file names, with the request's id as it was written (no answer for a
//! notification or a response), and the server answers a ping after each one. The runners
//! answer a huge exponent as `rulec eval` does and read on.
//!
//! Without python3 or node a test prints a note and passes — unless CI is set.

mod common;

use common::{text, toolchain, ROOT};
use rulec::harness::http::Client;
use rulec::harness::serve::{initialize, Server};
use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// What a message must get back.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// A JSON-RPC error with this code.
    Error(i64),
    /// A result.
    Result,
    /// Nothing (a notification, a response).
    Nothing,
}

#[derive(Debug, Clone)]
struct Case {
    what: String,
    bytes: Vec<u8>,
    answer: Expect,
    /// The id the answer carries, as JSON text; None for null.
    id: Option<String>,
    /// For a call the rule refuses: the refusal's sentence.
    refused: Option<String>,
    /// What `rulec mcp` answers instead, where it differs (its serde_json reads a lone
    /// surrogate as no JSON; it has no tool of the rule's name).
    rulec: Option<Expect>,
}

fn expect(v: &Json) -> Expect {
    match v {
        Json::Number(n) => Expect::Error(n.as_i64().unwrap()),
        Json::String(s) if s == "result" => Expect::Result,
        Json::String(s) if s == "none" => Expect::Nothing,
        _ => panic!("an answer is a code, \"result\" or \"none\": {v}"),
    }
}

fn cases() -> Vec<Case> {
    let data = std::fs::read_to_string(Path::new(ROOT).join("tests/hostile/messages.jsonl")).unwrap();
    data.lines()
        .map(|l| {
            let v: Json = serde_json::from_str(l).unwrap();
            let bytes = match v.get("send_hex") {
                Some(h) => {
                    let h = h.as_str().unwrap();
                    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
                }
                None => v["send"].as_str().unwrap().as_bytes().to_vec(),
            };
            Case {
                what: v["what"].as_str().unwrap().to_string(),
                bytes,
                answer: expect(&v["answer"]),
                id: v.get("id").map(|i| i.as_str().unwrap().to_string()),
                refused: v.get("refused").map(|r| r.as_str().unwrap().to_string()),
                rulec: v.get("rulec").map(|r| expect(&r["answer"])),
            }
        })
        .collect()
}

/// The text of a JSON object's member `key` as written (the last one of that key); None when
/// the text is not an object or has no such member.
fn raw_member(text: &str, key: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && b" \t\r\n".contains(&b[*i]) {
            *i += 1
        }
    };
    // The end of the value that starts at `i`.
    fn skip(b: &[u8], mut i: usize) -> usize {
        let (mut depth, mut in_string) = (0usize, false);
        while i < b.len() {
            let c = b[i];
            if in_string {
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    in_string = false;
                    if depth == 0 {
                        return i + 1;
                    }
                }
            } else if c == b'"' {
                in_string = true;
            } else if c == b'[' || c == b'{' {
                depth += 1;
            } else if c == b']' || c == b'}' {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            } else if depth == 0 && (c == b',' || b" \t\r\n".contains(&c)) {
                return i;
            }
            i += 1;
        }
        i
    }
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut found = None;
    loop {
        ws(&mut i);
        if b.get(i) != Some(&b'"') {
            return found;
        }
        let end = skip(b, i);
        let name: Option<String> = serde_json::from_str(&text[i..end]).ok();
        i = end;
        ws(&mut i);
        i += 1; // the colon
        ws(&mut i);
        let end = skip(b, i);
        if name.as_deref() == Some(key) {
            found = Some(text[i..end].to_string());
        }
        i = end;
        ws(&mut i);
        if b.get(i) != Some(&b',') {
            return found;
        }
        i += 1;
    }
}

/// A JSON string's text as the UTF-16 code units it stands for, a lone surrogate included.
fn units(token: &str) -> Option<Vec<u16>> {
    let inner = token.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        out.push(match chars.next()? {
            'u' => u16::from_str_radix(&chars.by_ref().take(4).collect::<String>(), 16).ok()?,
            'n' => 10,
            't' => 9,
            'r' => 13,
            'b' => 8,
            'f' => 12,
            c => c as u16,
        });
    }
    Some(out)
}

/// The same id: a string the same code units however it is escaped, a number the same digits.
fn same_id(got: &str, want: &str) -> bool {
    match (units(got), units(want)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => got == want,
        _ => false,
    }
}

/// An answer read as JSON, its escaped surrogates replaced so that serde_json reads it.
fn parsed(answer: &str) -> Json {
    let mut clean = String::with_capacity(answer.len());
    let mut rest = answer;
    while let Some(at) = rest.find("\\u") {
        let (head, tail) = rest.split_at(at);
        let escape = tail.get(2..6).and_then(|h| u16::from_str_radix(h, 16).ok());
        let backslashes = head.bytes().rev().take_while(|&b| b == b'\\').count();
        clean.push_str(head);
        match escape {
            Some(u) if (0xd800..0xe000).contains(&u) && backslashes % 2 == 0 => {
                clean.push_str("\\ufffd");
                rest = &tail[6..];
            }
            _ => {
                clean.push_str("\\u");
                rest = &tail[2..];
            }
        }
    }
    clean.push_str(rest);
    serde_json::from_str(&clean).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}

/// Whether `answers` (all a server said to the case's message) are what the case expects.
fn check(case: &Case, answers: &[String], rulec_mcp: bool) -> Result<(), String> {
    let (want, id) = match (&case.rulec, rulec_mcp) {
        (Some(Expect::Error(-32700)), true) => (Expect::Error(-32700), None),
        (Some(other), true) => (other.clone(), case.id.clone()),
        _ => (case.answer.clone(), case.id.clone()),
    };
    if want == Expect::Nothing {
        return if answers.is_empty() { Ok(()) } else { Err(format!("answered {answers:?}")) };
    }
    let [answer] = answers else {
        return Err(format!("{} answers: {answers:?}", answers.len()));
    };
    let got_id = raw_member(answer, "id").ok_or_else(|| format!("no id: {answer}"))?;
    let want_id = id.unwrap_or_else(|| "null".into());
    // The generated servers echo the id's text; rulec mcp its value (serde_json keeps a
    // number's digits, and writes a string its own way).
    if if rulec_mcp { !same_id(&got_id, &want_id) } else { got_id != want_id } {
        return Err(format!("id {got_id}, not {want_id}: {answer}"));
    }
    let a = parsed(answer);
    if a["jsonrpc"] != "2.0" {
        return Err(format!("no jsonrpc 2.0: {answer}"));
    }
    match want {
        Expect::Error(code) if a["error"]["code"] != code || !a["error"]["message"].is_string() => {
            Err(format!("not error {code}: {answer}"))
        }
        Expect::Result if !a["result"].is_object() => Err(format!("not a result: {answer}")),
        Expect::Result => match &case.refused {
            Some(sentence) if rulec_mcp => unreachable!("{sentence}: rulec mcp has no tool of the rule"),
            Some(sentence) if a["result"]["structuredContent"]["error"] != sentence.as_str() => {
                Err(format!("not refused with {sentence:?}: {answer}"))
            }
            None if a["result"]["isError"] == true => Err(format!("an error result: {answer}")),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// single_coupon generated for Python and JavaScript, once for this test binary.
fn generated() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile");
        let _ = std::fs::remove_dir_all(&dir);
        common::generate(
            &[Path::new(ROOT).join("tests/corpus/single_coupon.rule")],
            "python,javascript,numpy,sql",
            &dir,
        );
        dir
    })
}

fn server_cmd(lang: &str) -> Vec<String> {
    match lang {
        "python" => vec!["python3".into(), "-B".into(), "single_coupon_mcp.py".into()],
        _ => vec!["node".into(), "single_coupon_mcp.mjs".into()],
    }
}

fn langs(test: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    if toolchain(test, &["python3"]) {
        out.push("python");
    }
    if toolchain(test, &["node"]) {
        out.push("javascript");
    }
    out
}

fn after(k: usize) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":\"after {k}\",\"method\":\"ping\"}}")
}

/// Every case over stdio, a ping after each: what the server said to each message (the
/// lines before the ping's answer), every ping answered.
fn over_stdio(cmd: &mut Command, cases: &[Case]) -> Vec<Vec<String>> {
    let mut input = initialize(0).into_bytes();
    input.push(b'\n');
    for (k, c) in cases.iter().enumerate() {
        input.extend_from_slice(&c.bytes);
        input.push(b'\n');
        input.extend_from_slice(after(k).as_bytes());
        input.push(b'\n');
    }
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{}: {}", out.status, text(&out.stderr));
    assert!(out.stderr.is_empty(), "said on stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines().skip(1);
    let mut said = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let mut these = Vec::new();
        loop {
            let line = lines.next().unwrap_or_else(|| panic!("no answer to the ping after {:?}", case.what));
            if raw_member(line, "id").is_some_and(|id| id == format!("\"after {k}\"")) {
                assert!(parsed(line)["result"].is_object(), "the ping after {:?}: {line}", case.what);
                break;
            }
            these.push(line.to_string());
        }
        said.push(these);
    }
    said
}

fn assert_all(cases: &[Case], said: &[Vec<String>], rulec_mcp: bool, who: &str) {
    assert!(cases.len() >= 60, "{} messages", cases.len());
    let wrong: Vec<String> = cases
        .iter()
        .zip(said)
        .filter_map(|(c, s)| check(c, s, rulec_mcp).err().map(|e| format!("{}: {e}", c.what)))
        .collect();
    assert!(wrong.is_empty(), "{who}: {} of {} wrong:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
}

#[test]
fn rulec_mcp_answers_every_hostile_message_over_stdio() {
    let cases = cases();
    let mut cmd = common::command();
    cmd.arg("mcp").current_dir(ROOT).env("NO_COLOR", "1");
    let said = over_stdio(&mut cmd, &cases);
    assert_all(&cases, &said, true, "rulec mcp");
}

#[test]
fn the_generated_servers_answer_every_hostile_message_over_stdio() {
    let cases = cases();
    for lang in langs("hostile messages, stdio") {
        let cmd = server_cmd(lang);
        let said = over_stdio(Command::new(&cmd[0]).args(&cmd[1..]).current_dir(generated().join(lang)), &cases);
        assert_all(&cases, &said, false, lang);
    }
}

#[test]
fn the_generated_servers_answer_every_hostile_message_over_http_with_one_status() {
    let cases = cases();
    let mut statuses: Vec<(&str, Vec<u16>)> = Vec::new();
    for lang in langs("hostile messages, http") {
        let mut cmd = server_cmd(lang);
        cmd.extend(["--http".into(), "127.0.0.1:0".into()]);
        let server = Server::start(&cmd, &generated().join(lang)).unwrap();
        let mut c = Client::new(&server.addr());
        let post = |c: &mut Client, sid: Option<&str>, body: &[u8]| {
            let mut headers = vec![("Accept", "application/json, text/event-stream")];
            if let Some(s) = sid {
                headers.push(("Mcp-Session-Id", s));
            }
            c.request("POST", "/mcp", &headers, body).unwrap()
        };
        let init = post(&mut c, None, initialize(0).as_bytes());
        let sid = init.header("mcp-session-id").unwrap().to_string();
        let mut said = Vec::new();
        let mut seen = Vec::new();
        for case in &cases {
            let r = post(&mut c, Some(&sid), &case.bytes);
            seen.push(r.status);
            match r.status {
                202 => assert!(r.body.is_empty(), "{lang}: {}: 202 with a body", case.what),
                200 | 400 => {}
                s => panic!("{lang}: {}: status {s}", case.what),
            }
            said.push(if r.status == 202 { vec![] } else { vec![r.text()] });
        }
        assert_all(&cases, &said, false, &format!("{lang} over HTTP"));
        let ping = post(&mut c, Some(&sid), after(0).as_bytes());
        assert_eq!(ping.status, 200, "{lang}: still answering: {}", ping.text());
        statuses.push((lang, seen));
    }
    if let [(_, py), (_, js)] = statuses.as_slice() {
        let differ: Vec<String> = cases
            .iter()
            .zip(py.iter().zip(js))
            .filter(|(_, (a, b))| a != b)
            .map(|(c, (a, b))| format!("{}: python {a}, node {b}", c.what))
            .collect();
        assert!(differ.is_empty(), "one behaviour over HTTP:\n{}", differ.join("\n"));
    }
}

/// A batch with a number past what a Decimal holds among good lines: every runner prints
/// one line a call, the one `rulec eval` prints.
#[test]
fn the_runners_answer_a_huge_exponent_as_rulec_eval_does_and_read_on() {
    if !toolchain("huge exponents, runners", &["python3"]) {
        return;
    }
    let good = r#"{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#;
    let batch: String = [
        "10000",
        "1e9999999999999999999",
        "-1e9999999999999999999",
        "-1e-9999999999999999999",
        "0e99999999999999999999",
        "10000",
    ]
    .iter()
    .map(|n| good.replacen("10000", n, 1) + "\n")
    .collect();
    let eval = {
        let mut child = common::command()
            .args(["eval", "tests/corpus/single_coupon.rule", "--in", "-"])
            .current_dir(ROOT)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(batch.as_bytes()).unwrap();
        text(&child.wait_with_output().unwrap().stdout)
    };
    assert_eq!(eval.lines().count(), 6, "{eval}");
    assert!(eval.contains(r#"{"refused":"input","error":"subtotal is out of range"}"#), "{eval}");
    let dir = generated();
    let runners: [(&str, Vec<&str>); 3] = [
        ("python", vec!["single_coupon_runner.py"]),
        ("numpy", vec!["rulec_np_runner.py", "single_coupon.plan.json"]),
        ("sql", vec!["single_coupon_runner.py"]),
    ];
    for (lang, args) in runners {
        let mut child = Command::new("python3")
            .arg("-B")
            .args(&args)
            .current_dir(dir.join(lang))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(batch.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{lang}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), eval, "{lang}");
    }
}

/// A failure no check foresees — here the record file that cannot be written — is -32603
/// for that request, and the server answers the next one.
#[test]
fn an_unforeseen_failure_is_that_request_s_error_not_the_server_s_end() {
    let call = rulec::harness::serve::tool_call(
        1,
        "single_coupon",
        r#"{"subtotal":10000,"applied":0,"kind":"percent","rate":10,"face":0,"dup":false}"#,
    );
    let cases = vec![Case {
        what: "a call whose record cannot be written".into(),
        bytes: call.into_bytes(),
        answer: Expect::Error(-32603),
        id: Some("1".into()),
        refused: None,
        rulec: None,
    }];
    for lang in langs("unforeseen failure") {
        let mut cmd = server_cmd(lang);
        cmd.extend(["--record".into(), "/dev/full".into()]);
        let said = over_stdio(Command::new(&cmd[0]).args(&cmd[1..]).current_dir(generated().join(lang)), &cases);
        check(&cases[0], &said[0], false).unwrap_or_else(|e| panic!("{lang}: {e}"));
    }
}

/// The status a raw HTTP request gets (the connection closed after it), with its headers.
fn raw_status(addr: &str, request: &str) -> (u16, String) {
    use std::io::Read;
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    let head = text(&got);
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head)
}

/// HTTP's edge cases, each one status from both servers.
#[test]
fn the_generated_servers_answer_http_edge_cases_alike() {
    let init_null = r#"{"jsonrpc":"2.0","id":null,"method":"initialize","params":{}}"#;
    for lang in langs("http edge cases") {
        let mut cmd = server_cmd(lang);
        cmd.extend(["--http".into(), "127.0.0.1:0".into()]);
        let server = Server::start(&cmd, &generated().join(lang)).unwrap();
        let addr = server.addr();
        let mut c = Client::new(&addr);
        let sid = c.request("POST", "/mcp", &[], initialize(0).as_bytes()).unwrap();
        let sid = sid.header("mcp-session-id").unwrap().to_string();
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let with = |method: &str, path: &str, headers: &str, body: &str| {
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
                body.len()
            )
        };
        let session = format!("Mcp-Session-Id: {sid}\r\n");
        let cases: Vec<(&str, String, u16)> = vec![
            ("GET", with("GET", "/mcp", &session, ""), 405),
            ("HEAD", with("HEAD", "/mcp", &session, ""), 405),
            ("PUT", with("PUT", "/mcp", &session, ping), 405),
            ("PATCH", with("PATCH", "/mcp", &session, ping), 405),
            ("OPTIONS", with("OPTIONS", "/mcp", "", ""), 405),
            ("another path", with("POST", "/other", &session, ping), 404),
            ("a path that is not a URL's", with("POST", "//", &session, ping), 404),
            ("a query after /mcp", with("POST", "/mcp?x=1", &session, ping), 200),
            ("another origin", with("POST", "/mcp", "Origin: https://evil.example\r\n", ping), 403),
            ("an origin that is not a URL", with("POST", "/mcp", "Origin: null\r\n", ping), 403),
            ("no session", with("POST", "/mcp", "", ping), 400),
            ("a session nobody opened", with("POST", "/mcp", "Mcp-Session-Id: x\r\n", ping), 404),
            ("DELETE without a session", with("DELETE", "/mcp", "", ""), 400),
            ("DELETE of a session nobody opened", with("DELETE", "/mcp", "Mcp-Session-Id: x\r\n", ""), 404),
            (
                "a protocol version not spoken",
                with("POST", "/mcp", &format!("{session}MCP-Protocol-Version: 1999-01-01\r\n"), ping),
                400,
            ),
            ("initialize with a null id", with("POST", "/mcp", "", init_null), 200),
            (
                "no Content-Length",
                format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{session}\r\n"),
                411,
            ),
            (
                "a chunked body",
                format!(
                    "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{session}Transfer-Encoding: chunked\r\n\r\n{:x}\r\n{ping}\r\n0\r\n\r\n",
                    ping.len()
                ),
                411,
            ),
        ];
        for (what, request, want) in cases {
            let (status, head) = raw_status(&addr, &request);
            assert_eq!(status, want, "{lang}: {what}: {head}");
            if what == "initialize with a null id" {
                assert!(!head.to_ascii_lowercase().contains("mcp-session-id"), "{lang}: no session opened: {head}");
            }
        }
        let again = c.request("POST", "/mcp", &[("Mcp-Session-Id", &sid)], ping.as_bytes()).unwrap();
        assert_eq!(again.status, 200, "{lang}: still answering");
    }
}
