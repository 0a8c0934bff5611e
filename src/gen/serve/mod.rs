//! The rule served (generated-code.md): as one MCP tool — `<alias>_mcp.py` beside the Python
//! module, `<alias>_mcp.ts` beside the TypeScript one and `<alias>_mcp.mjs`, the same text
//! with its types taken off, beside the JavaScript one — and as a Connect service
//! (src/gen/serve/connect.rs). Every server answers through the module's wire door and
//! reads its record line: none re-implements the door.
//!
//! The fixed text is in runtime/ as real files; the rule's part is one JSON constant (the
//! tool: its name, its inputSchema — the `in` object of `rulec schema` —, the page and the
//! view) and the names of the module and its door.

pub mod connect;

use super::text;
use super::{File, Lang, Pass, Unit};
use serde_json::{json, Value as Json};

const MCP_PY: &str = include_str!("runtime/mcp.py");
const MCP_TS: &str = include_str!("runtime/mcp.ts");
/// Where the node server's JSON reader comes from: the TypeScript runner's own.
const TS_RUNNER: &str = include_str!("../typescript/runtime/runner.ts");

/// The fixed TypeScript of the node server, the sections it copies put in (the JavaScript
/// server is this text with its types taken off).
pub fn mcp_ts() -> String {
    text::splice(MCP_TS, "// rulec-copy:", &[("runner.ts", TS_RUNNER)], "// rulec:")
}

/// The languages whose folder gets an MCP server.
pub fn serves(lang: Lang) -> bool {
    matches!(lang, Lang::Python | Lang::JavaScript | Lang::TypeScript)
}

/// The page a server offers as the tool's view, as `rulec gen` names it beside the module.
pub fn page_name(u: &Unit) -> String {
    format!("{}_page.html", u.plan.rule.base)
}

/// The view's URI (generated-code.md, "The answer, with the table beside it").
pub fn view_uri(u: &Unit) -> String {
    format!("ui://{}/table", u.plan.rule.base)
}

/// What the servers say about the rule's tool.
fn rule_json(u: &Unit, input_schema: &Json) -> Json {
    let r = &u.plan.rule;
    let about = r.about.clone().map(|a| format!("{a} ")).unwrap_or_default();
    json!({
        "tool": {
            "name": r.base,
            "title": format!("{} v{}", r.name, r.version),
            "description": format!(
                "{about}Answers one call of the rule {} v{}: the inputs in the wire form (an integer in the declared unit, an enum by its name, a date as YYYY-MM-DD), and back one fixtures record — the inputs, the outputs as observed, and the rows that decided them. A call the rule cannot take is refused with the argument named.",
                r.name, r.version
            ),
            "inputSchema": input_schema,
        },
        "page": page_name(u),
        "view": view_uri(u),
        "version": r.version.to_string(),
    })
}

/// The rule's files beside one language's module: its MCP server, and in Python the
/// Connect service and its runner. `input_schema` is the `in` object of `rulec schema`.
pub fn files(u: &Unit, lang: Lang, input_schema: &Json) -> Vec<File> {
    let base = &u.plan.rule.base;
    let rule = rule_json(u, input_schema).to_string();
    match lang {
        Lang::Python => {
            let names = u.names(Lang::Python);
            let mut o = text::header(&u.plan, "#");
            o.push_str("#\n");
            let body = super::python::shared::copy(MCP_PY)
                .replace("rulec_rule", &names.module)
                .replace("rulec_wire", &names.wire);
            let body = replace_line(
                &body,
                "_RULE: dict[str, Any] = json.loads(",
                &format!("_RULE: dict[str, Any] = json.loads({})", serde_json::to_string(&rule).expect("a string")),
            );
            o.push_str(&body);
            let mut out = vec![File { path: format!("{base}_mcp.py"), text: o }];
            if connects(u) {
                let c = connect::Contract::of(&u.plan);
                out.extend([connect::service(&u.plan, &names, &c), connect::runner(&u.plan, &names, &c)]);
            }
            out
        }
        Lang::JavaScript | Lang::TypeScript => {
            let typed = lang == Lang::TypeScript;
            let (names, ext) = if typed { (u.names(lang), "ts") } else { (u.names(lang), "mjs") };
            let mut o = text::header(&u.plan, "//");
            o.push_str("//\n");
            let body = mcp_ts()
                .replace("./module.ts", &format!("./{}.{ext}", names.module))
                .replace("rulec_wire", &names.wire);
            let body = replace_line(
                &body,
                "const _RULE",
                &format!("const _RULE: RuleInfo = JSON.parse({});", serde_json::to_string(&rule).expect("a string")),
            );
            // The JavaScript server is the TypeScript one with its types taken off.
            o.push_str(&if typed { body } else { super::typescript::strip_types(&body) });
            vec![File { path: format!("{base}_mcp.{ext}"), text: o }]
        }
        _ => Vec::new(),
    }
}

/// `text` with the one line that starts with `start` replaced by `line`.
fn replace_line(text: &str, start: &str, line: &str) -> String {
    let mut found = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if !found && l.starts_with(start) {
                found = true;
                line.to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(found, "the runtime file has a line starting with {start}");
    out.join("\n") + "\n"
}

/// The files of the Connect contract, outside any language's folder (`proto/…`).
/// Whether the rule is served over Connect: not yet a rule that walks a sequence, whose
/// request would carry repeated element messages the contract does not write yet.
pub fn connects(u: &Unit) -> bool {
    u.plan.sequences.is_empty()
}

pub fn proto_files(u: &Unit) -> Vec<File> {
    let c = connect::Contract::of(&u.plan);
    let mut out = vec![connect::proto(&u.plan, &c)];
    out.extend(connect::buf_files());
    out
}

/// The fields a language's `rulec api` entry gains: the server beside the module and its page.
pub fn api_fields(u: &Unit, lang: Lang, entry: &mut Json) {
    if !serves(lang) {
        return;
    }
    let ext = match lang {
        Lang::Python => "py",
        Lang::TypeScript => "ts",
        _ => "mjs",
    };
    if let Some(m) = entry.as_object_mut() {
        m.insert("mcp".into(), json!(format!("{}_mcp.{ext}", u.plan.rule.base)));
        m.insert("page".into(), json!(page_name(u)));
    }
}

/// The `connect` entry of `rulec api`.
pub fn connect_api(u: &Unit) -> Json {
    connect::api(&u.plan, &connect::Contract::of(&u.plan))
}

/// `rulec adapter --template connect-python`: the adapter for a Connect service.
pub fn connect_adapter(u: &Unit) -> String {
    connect::adapter(&u.plan, &connect::Contract::of(&u.plan))
}

/// The passes `rulec test` makes through a language's servers, beside its runner.
pub fn passes(lang: Lang, base: &str) -> Vec<Pass> {
    use super::{Drive, Runner, Server};
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let pass = |via, serves: String, needs: &[&'static str], prepare: &[Vec<String>], drive| Pass {
        via,
        runner: Runner { needs: needs.to_vec(), build: Vec::new(), run: Vec::new() },
        probe: None,
        server: Some(Server { serves, prepare: prepare.to_vec(), drive }),
    };
    match lang {
        Lang::Python => {
            let mcp = s(&["python3", "-B", &format!("{base}_mcp.py")]);
            let mut http = mcp.clone();
            http.extend(s(&["--http", "127.0.0.1:0"]));
            let stubs = vec![s(&[
                "buf",
                "generate",
                "../proto",
                "--template",
                "../proto/buf.gen.yaml",
                "--output",
                "../proto",
            ])];
            let needs = ["python3", "buf", "protoc-gen-py", "protoc-gen-connectrpc"];
            let service = |asgi: bool| {
                let mut cmd = s(&["python3", "-B", &format!("{base}_service.py"), "--http", "127.0.0.1:0"]);
                if asgi {
                    cmd.push("--asgi".into());
                }
                cmd
            };
            let client = |get: bool| {
                let mut cmd = s(&["python3", "-B", &format!("{base}_connect_runner.py"), "{url}"]);
                if get {
                    cmd.push("--get".into());
                }
                cmd
            };
            let mut out = vec![
                pass("mcp", format!("{base}_mcp.py"), &["python3"], &[], Drive::McpStdio(mcp)),
                pass("mcp-http", format!("{base}_mcp.py"), &["python3"], &[], Drive::McpHttp(http)),
            ];
            for (via, asgi, get) in [
                ("connect-asgi", true, false),
                ("connect-asgi-get", true, true),
                ("connect-wsgi", false, false),
                ("connect-wsgi-get", false, true),
            ] {
                let drive = Drive::Served { server: service(asgi), client: client(get) };
                out.push(pass(via, format!("{base}_service.py"), &needs, &stubs, drive));
            }
            out
        }
        Lang::JavaScript => {
            let mcp = s(&["node", &format!("{base}_mcp.mjs")]);
            let mut http = mcp.clone();
            http.extend(s(&["--http", "127.0.0.1:0"]));
            vec![
                pass("mcp", format!("{base}_mcp.mjs"), &["node"], &[], Drive::McpStdio(mcp)),
                pass("mcp-http", format!("{base}_mcp.mjs"), &["node"], &[], Drive::McpHttp(http)),
            ]
        }
        _ => Vec::new(),
    }
}
