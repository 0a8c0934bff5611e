//! `rulec verify`: the rule against a legacy implementation, over the adapter protocol of
//! formats.md — a child process, JSON Lines on its stdin and stdout. rulec writes a
//! handshake naming the rule, its inputs and outputs; the adapter answers `{"ok":true,
//! "impl":…}`; then, for every vector of the boundary suite the rule answers and every call
//! [`super::reach`] adds, rulec writes
//! `{"id":…,"in":{…}}` and reads one line: `{"id":…,"out":{…}}`, or `{"id":…,"err":"…"}`
//! for a call the implementation cannot answer (counted `unanswered`, never compared).
//!
//! A line that is not JSON, an answer with another record's id, one with neither `out` nor
//! `err`, an `out` without an output or with a value of the wrong kind: each stops the run
//! ([`Failure`], exit 2), naming the record. So does a child that exits or stops answering
//! (a timeout per answer), with what it wrote on its stderr.
//!
//! The adapter runs in a process group of its own, and the run ends by stopping the whole
//! group: an adapter behind `sh -c`, or one that starts helpers, leaves nothing running.
//!
//! Vector `id` is the 0-based position of the vector in `rulec vectors`' output, and the
//! record is named by its line there (`id + 1`) and an empty tag; the calls reach adds are
//! numbered on from there, each tagged with why it is asked.

use super::reach::{self, Domain};
use super::report::{inputs_shown, Compared, RecordId, Report, RowKey};
use super::values::Plain;
use crate::eval::{wire, Outcome};
use crate::sema::*;
use crate::vectors::{self, Answer};
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Why a run stopped: what happened, and the record it happened at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub what: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

/// The adapter's process: its input, its lines, what it says on stderr.
struct Adapter {
    child: Child,
    /// Taken when the run ends: the adapter sees the end of its input.
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<std::io::Result<String>>,
    stderr: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    timeout: Duration,
    shown: String,
}

impl Adapter {
    fn start(cmd: &[String], timeout: Duration) -> Result<Adapter, Failure> {
        let (prog, args) = cmd.split_first().ok_or_else(|| Failure { what: "--adapter names no command".into() })?;
        let shown = cmd.join(" ");
        let mut command = Command::new(prog);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Failure { what: format!("cannot start the adapter `{shown}`: {e}") })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr_pipe = child.stderr.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut s = sink.lock().expect("the stderr buffer");
                // Keep the last 8 KiB: what a failing child said last.
                s.extend_from_slice(&buf[..n]);
                let len = s.len();
                if len > 8192 {
                    s.drain(..len - 8192);
                }
            }
        });
        Ok(Adapter { child, stdin: Some(stdin), lines, stderr, timeout, shown })
    }

    fn send(&mut self, line: &str, at: &str) -> Result<(), Failure> {
        let stdin = self.stdin.as_mut().expect("open until the run ends");
        let written = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
        written.map_err(|e| self.died(&format!("{at}: cannot write to the adapter ({e})")))
    }

    /// One line of the adapter's, within `wait`. An adapter that has exited answers nothing
    /// more, even while something it started keeps its output open.
    fn receive_within(&mut self, at: &str, wait: Duration) -> Result<String, Failure> {
        let deadline = std::time::Instant::now() + wait;
        let mut exited = false;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let slice = if exited { EXITED_GRACE } else { left.min(Duration::from_millis(50)) };
            match self.lines.recv_timeout(slice) {
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(e)) => return Err(self.died(&format!("{at}: cannot read the adapter's answer ({e})"))),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(self.died(&format!("{at}: the adapter stopped answering")))
                }
                Err(mpsc::RecvTimeoutError::Timeout) if exited => {
                    return Err(self.died(&format!("{at}: the adapter stopped answering")))
                }
                Err(mpsc::RecvTimeoutError::Timeout) if left.is_zero() => {
                    self.stop();
                    return Err(Failure {
                        what: format!(
                            "{at}: the adapter `{}` gave no answer within {} ms; it was stopped{}",
                            self.shown,
                            wait.as_millis(),
                            self.said()
                        ),
                    });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => exited = matches!(self.child.try_wait(), Ok(Some(_))),
            }
        }
    }

    fn receive(&mut self, at: &str) -> Result<String, Failure> {
        self.receive_within(at, self.timeout)
    }

    /// The child is gone or going: how it ended, and what it said.
    fn died(&mut self, what: &str) -> Failure {
        let status = match self.child.try_wait() {
            Ok(Some(st)) => Some(st),
            _ => {
                std::thread::sleep(Duration::from_millis(50));
                self.child.try_wait().ok().flatten()
            }
        };
        let how = match status {
            Some(st) => format!(" (it exited: {st})"),
            None => String::new(),
        };
        Failure { what: format!("{what}{how}{}", self.said()) }
    }

    fn said(&self) -> String {
        let s = self.stderr.lock().map(|b| String::from_utf8_lossy(&b).trim().to_string()).unwrap_or_default();
        if s.is_empty() {
            String::new()
        } else {
            format!("; its stderr ends with:\n{s}")
        }
    }

    /// End the run: close the adapter's input, give it a moment to finish, then stop it
    /// and whatever it started.
    fn close(&mut self) {
        drop(self.stdin.take());
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.stop();
    }

    /// Kill the adapter's process group (it leads it: its id is the group's), then the
    /// adapter itself if it is still there.
    fn stop(&mut self) {
        #[cfg(unix)]
        if let Some(group) = i32::try_from(self.child.id()).ok().and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// However the run ends, the child does not outlive it.
impl Drop for Adapter {
    fn drop(&mut self) {
        self.close();
    }
}

/// How long the lines an adapter wrote before it exited are waited for.
const EXITED_GRACE: Duration = Duration::from_millis(200);

/// The least an adapter is given to start and answer the handshake.
const STARTUP: Duration = Duration::from_secs(10);

/// The handshake line.
pub fn handshake(p: &Program) -> Json {
    let names = |vs: &[VarId]| -> Vec<String> { vs.iter().map(|&v| p.vars[v].name.clone()).collect() };
    json!({"rulec": "adapter/1", "rule": p.name, "in": names(&p.inputs), "out": names(&p.outputs)})
}

/// What verify asks beyond the boundary suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The suite, the ends of every input's range, one interior point per row.
    Default,
    /// Those, and this many points drawn from the domain with this seed.
    Sample(usize, u64),
    /// Every point of the declared domain.
    Exhaustive,
}

/// Run the rule's boundary suite, and what `reach` adds, through the adapter `cmd` and compare.
pub fn verify(p: &Program, cmd: &[String], timeout: Duration, reach: Reach) -> Result<Report, Failure> {
    let suite = vectors::build(p);
    let domain = Domain::of(p);
    // The calls, before the adapter starts: an exhaustive walk that cannot be done is refused first.
    let mut calls = Calls { list: Vec::new(), seen: std::collections::HashSet::new(), line: suite.vectors.len() };
    let mut bases = Vec::new();
    for (id, v) in suite.vectors.iter().enumerate() {
        let Answer::Record { inputs, outcome } = &v.answer else { continue };
        calls.seen.insert(reach::key(p, inputs));
        bases.push((inputs.clone(), outcome.trace.iter().map(|f| (f.table, f.row)).collect::<Vec<_>>()));
        let id = RecordId { line: id + 1, tag: String::new() };
        calls.list.push((v.input.clone(), inputs.clone(), outcome.clone(), id));
    }
    let mut refused = 0;
    match reach {
        Reach::Exhaustive => {
            for point in domain.walk().map_err(|what| Failure { what })? {
                if !calls.add(p, &point, "domain") && wire::read_inputs(p, &wire::inputs_json(p, &point)).is_err() {
                    refused += 1;
                }
            }
        }
        Reach::Default | Reach::Sample(..) => {
            for (point, tag) in reach::default_points(p, &domain, &bases) {
                calls.add(p, &point, &tag);
            }
            if let Reach::Sample(n, seed) = reach {
                reach::sample(p, &domain, n, seed, |point| calls.add(p, point, "sample"));
            }
        }
    }
    let calls = calls.list;
    let mut a = Adapter::start(cmd, timeout)?;
    a.send(&handshake(p).to_string(), "the handshake")?;
    // Starting a process (an interpreter, a JVM) may take longer than one answer does.
    let hello = a.receive_within("the handshake", timeout.max(STARTUP))?;
    let hello: Json = serde_json::from_str(&hello)
        .map_err(|e| Failure { what: format!("the handshake: the adapter's answer is not JSON ({e}): {hello}") })?;
    if hello.get("ok") != Some(&Json::Bool(true)) {
        return Err(Failure { what: format!("the handshake: the adapter did not answer `\"ok\": true`: {hello}") });
    }
    let counterpart = match hello.get("impl") {
        Some(Json::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => a.shown.clone(),
    };
    let mut report = Report::new(p, &counterpart, json!({}));
    let mut smallest: HashMap<Vec<RowKey>, Vec<Value>> = HashMap::new();
    // Per cluster, per input, the least and the greatest differing value.
    let mut region: HashMap<Vec<RowKey>, (Vec<Value>, Vec<Value>)> = HashMap::new();
    let asked = calls.len();
    for (input, read, outcome, record) in calls {
        let id = record.line - 1;
        let at = format!("record {} (id {id})", record.line);
        a.send(&json!({"id": id, "in": input}).to_string(), &at)?;
        let Some(theirs) = a.answer(p, id, &at)? else {
            report.unanswered += 1;
            continue;
        };
        let ours: Vec<Plain> = outcome.output_values(p).map(|(v, x)| Plain::of(p, &p.vars[v], x)).collect();
        let rows: Vec<RowKey> =
            outcome.trace.iter().map(|f| RowKey::Fired { table: p.tables[f.table].name.clone(), row: f.row }).collect();
        if ours != theirs {
            let least = smallest.entry(rows.clone()).or_insert_with(|| read.clone());
            if reach::smaller(&read, least) {
                *least = read.clone();
            }
            let (lows, highs) = region.entry(rows.clone()).or_insert_with(|| (read.clone(), read.clone()));
            for ((lo, hi), x) in lows.iter_mut().zip(highs.iter_mut()).zip(&read) {
                let one = std::slice::from_ref;
                if reach::smaller(one(x), one(lo)) {
                    *lo = x.clone();
                }
                if reach::smaller(one(hi), one(x)) {
                    *hi = x.clone();
                }
            }
        }
        report.add(Compared {
            id: record,
            rows,
            input: wire::inputs_json(p, &read),
            input_shown: inputs_shown(p, &read),
            ours,
            theirs,
        });
    }
    for (rows, inputs) in smallest {
        report.smallest(&rows, wire::inputs_json(p, &inputs), inputs_shown(p, &inputs));
    }
    for (rows, (lows, highs)) in region {
        report.region(p, &rows, &lows, &highs);
    }
    report.reach = Some(reach::Reach {
        asked,
        domain: domain.size(),
        unbounded: domain.unbounded().map(str::to_string),
        exhaustive: reach == Reach::Exhaustive,
        refused,
        sample: match reach {
            Reach::Sample(n, seed) => Some((n, seed)),
            _ => None,
        },
    });
    Ok(report)
}

/// The calls of a run, in the order they are asked, each once.
struct Calls {
    /// The call on the wire, the inputs as read, the rule's answer, the record it is.
    list: Vec<(Json, Vec<Value>, Outcome, RecordId)>,
    seen: std::collections::HashSet<String>,
    /// The record line of the last call added.
    line: usize,
}

impl Calls {
    /// Add a call the door takes, the rule answers and no earlier call is; say whether it was.
    fn add(&mut self, p: &Program, point: &[Value], tag: &str) -> bool {
        let Ok(read) = wire::read_inputs(p, &wire::inputs_json(p, point)) else { return false };
        // A call the rule has no answer for is not one to compare.
        let Ok(outcome) = crate::eval::evaluate(p, &read) else { return false };
        if !self.seen.insert(reach::key(p, &read)) {
            return false;
        }
        self.line += 1;
        self.list.push((
            wire::inputs_json(p, &read),
            read,
            outcome,
            RecordId { line: self.line, tag: tag.to_string() },
        ));
        true
    }
}

impl Adapter {
    /// The adapter's answer to record `id`: its outputs, or `None` for an `err`.
    fn answer(&mut self, p: &Program, id: usize, at: &str) -> Result<Option<Vec<Plain>>, Failure> {
        let line = self.receive(at)?;
        let answer: Json = serde_json::from_str(&line)
            .map_err(|e| Failure { what: format!("{at}: the adapter's answer is not JSON ({e}): {line}") })?;
        let Json::Object(answer) = answer else {
            return Err(Failure { what: format!("{at}: the adapter's answer is not an object: {line}") });
        };
        match answer.get("id").and_then(Json::as_u64) {
            Some(got) if got as usize == id => {}
            _ => {
                return Err(Failure {
                    what: format!(
                        "{at}: the adapter answered with id {} instead of {id}: {line}",
                        answer.get("id").map_or("none".into(), Json::to_string)
                    ),
                })
            }
        }
        let out = match (answer.get("out"), answer.get("err")) {
            (_, Some(_)) => return Ok(None),
            (Some(Json::Object(out)), None) => out,
            (Some(_), None) => {
                return Err(Failure { what: format!("{at}: the adapter's `out` is not an object: {line}") })
            }
            (None, None) => {
                return Err(Failure { what: format!("{at}: the adapter's answer has neither `out` nor `err`: {line}") })
            }
        };
        let mut theirs = Vec::with_capacity(p.outputs.len());
        for &o in &p.outputs {
            let var = &p.vars[o];
            let raw = out.get(&var.name);
            if raw.is_none() {
                return Err(Failure { what: format!("{at}: the adapter's `out` has no `{}`: {line}", var.name) });
            }
            // An answer outside the declared range is a disagreement, not a broken line.
            let unbounded = Var { range: None, ..var.clone() };
            let value = wire::read_input(p, &unbounded, raw)
                .map_err(|r| Failure { what: format!("{at}: the adapter's `out.{}`: {}: {line}", var.name, r.what) })?;
            theirs.push(Plain::of(p, var, &value));
        }
        if let Some(k) = out.keys().find(|k| !p.outputs.iter().any(|&o| &p.vars[o].name == *k)) {
            return Err(Failure {
                what: format!("{at}: the adapter's `out.{k}` is not an output of {}: {line}", p.name),
            });
        }
        Ok(Some(theirs))
    }
}

/// Which template `rulec adapter --template` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    Python,
    Go,
}

/// How an input or output travels, for the template's comments.
fn described(p: &Program, v: VarId) -> String {
    let var = &p.vars[v];
    let what = match &var.ty {
        Ty::Bool => "bool".to_string(),
        Ty::Str => "string".to_string(),
        Ty::Date => "\"YYYY-MM-DD\"".to_string(),
        Ty::Enum(e) => {
            let names: Vec<&str> = p.enums[*e].values.iter().map(|x| x.name.as_str()).collect();
            names.join("|")
        }
        t @ Ty::Rate { .. } => format!("integer, steps of {}", super::records::unit_text(t)),
        t @ (Ty::Money { .. } | Ty::Qty { .. }) => format!("integer, {}", super::records::unit_text(t)),
        _ => "integer".to_string(),
    };
    format!("{}: {what}{}", var.name, if var.optional { " or null" } else { "" })
}

/// The template: 20 to 30 lines that work as printed once the legacy call is filled in.
pub fn template(p: &Program, t: Template) -> String {
    let ins: Vec<String> = p.inputs.iter().map(|&v| described(p, v)).collect();
    let outs: Vec<String> = p.outputs.iter().map(|&v| described(p, v)).collect();
    let ins = ins.join("; ");
    let outs = outs.join("; ");
    let rule = &p.name;
    match t {
        Template::Python => format!(
            r#"#!/usr/bin/env python3
# Adapter for `rulec verify {rule}.rule --adapter python3 adapter.py` (formats.md).
# call: {ins}
# answer: {outs}
import json
import sys

IMPL = "legacy@dev"  # names the build being compared


def legacy(call):
    """Fill in: compute the outputs of `call` with the legacy code; raise to refuse it."""
    raise NotImplementedError("call the legacy implementation here")


hello = json.loads(sys.stdin.readline())
assert hello["rulec"] == "adapter/1", hello
print(json.dumps({{"ok": True, "impl": IMPL}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    try:
        ans = {{"id": req["id"], "out": legacy(req["in"])}}
    except Exception as e:  # the legacy code cannot answer: `err`, not counted
        ans = {{"id": req["id"], "err": repr(e)}}
    print(json.dumps(ans), flush=True)
"#
        ),
        Template::Go => format!(
            r#"// Adapter for `rulec verify {rule}.rule --adapter ./adapter` (formats.md); go build -o adapter adapter.go
// call: {ins}
// answer: {outs}
package main

import ("bufio"; "encoding/json"; "fmt"; "os"; "strings")

const impl = "legacy@dev" // names the build being compared

// legacy: fill in. Numbers arrive as json.Number (exact); return an error to refuse a call.
func legacy(call map[string]any) (map[string]any, error) {{
	return nil, fmt.Errorf("call the legacy implementation here")
}}

func main() {{
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {{ os.Exit(1) }}
	fmt.Println(`{{"ok":true,"impl":"` + impl + `"}}`)
	for line, err := in.ReadString('\n'); err == nil; line, err = in.ReadString('\n') {{
		var req struct {{ ID json.RawMessage `json:"id"`; In map[string]any `json:"in"` }}
		dec := json.NewDecoder(strings.NewReader(line)); dec.UseNumber()
		if dec.Decode(&req) != nil {{ os.Exit(1) }}
		ans := map[string]any{{"id": req.ID}}
		if out, err := legacy(req.In); err != nil {{ ans["err"] = err.Error() }} else {{ ans["out"] = out }}
		b, _ := json.Marshal(ans); fmt.Println(string(b))
	}}
}}
"#
        ),
    }
}
