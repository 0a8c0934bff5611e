//! The rule as a Connect service (generated-code.md, "The rule as a Connect service"): the
//! `.proto` of its wire, the two buf files, the Python service over the module's wire door,
//! and the runner that puts the vectors through it. Read off the plan and the names.
//!
//! The names of the contract are proto's own (buf lint's STANDARD): the package, the file
//! and the fields in lower snake case, the enums in Pascal case with their values in upper
//! snake case behind the enum's name, value 0 `…_UNSPECIFIED`.

use super::super::naming::Names;
use super::super::plan::{BoundaryTy, Plan, VarPlan};
use super::super::text;
use super::super::File;
use crate::sema::VarId;
use serde_json::{json, Value as Json};
use std::collections::HashSet;

const SERVICE: &str = include_str!("runtime/service.py");
const RUNNER: &str = include_str!("runtime/connect_runner.py");
const ADAPTER: &str = include_str!("runtime/connect_adapter.py");
const MARK: &str = "# rulec:";

/// Where the trace sits in the response: far from the outputs, so an output added later
/// takes the next small number and leaves it where it was.
pub const TRACE_FIELD: u32 = 100;

/// The proto names of one rule's contract.
pub struct Contract {
    /// `single_coupon`: the package's middle, the folder and the file.
    pub stem: String,
    pub package: String,
    pub proto_path: String,
    pub service: String,
    /// The Python class names (formats.md `connect.python`).
    pub class: String,
    /// By plan enum: its message-level name, when it crosses the wire.
    pub enums: Vec<Option<String>>,
    /// By plan enum, by value: the value's name (`COUPON_KIND_PERCENT`); its number is its place + 1.
    pub values: Vec<Vec<String>>,
    /// Per input, in order: the field name.
    pub request: Vec<(VarId, String)>,
    /// Per output, in order: the field name and its number.
    pub response: Vec<(VarId, String, u32)>,
}

/// Python keywords, the attributes every message has and the names its constructor takes
/// itself: a field may not be one of them.
const TAKEN: [&str; 45] = [
    "self",
    "cls",
    "false",
    "none",
    "true",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "match",
    "case",
    "desc",
    "clear_field",
    "has_field",
    "to_json",
    "to_binary",
    "trace",
];

/// `aB_c` as `a_b_c`.
pub fn snake(s: &str) -> String {
    let mut o = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let boundary = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(|p| p.is_ascii_uppercase()) && next.is_some_and(|n| n.is_ascii_lowercase()));
            if boundary {
                o.push('_');
            }
            o.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            o.push(c);
        } else {
            o.push('_');
        }
    }
    let parts: Vec<&str> = o.split('_').filter(|p| !p.is_empty()).collect();
    let joined = parts.join("_");
    match joined.chars().next() {
        None => "x".into(),
        Some(c) if c.is_ascii_digit() => format!("x_{joined}"),
        _ => joined,
    }
}

pub fn pascal(s: &str) -> String {
    snake(s)
        .split('_')
        .map(|p| {
            let mut cs = p.chars();
            match cs.next() {
                Some(c) => c.to_ascii_uppercase().to_string() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// `name`, or `name_2`, `name_3`… — the first that `taken` does not hold.
fn fresh(name: String, taken: &mut HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

fn field_name(v: &VarPlan, taken: &mut HashSet<String>) -> String {
    let mut base = snake(&v.base);
    if TAKEN.contains(&base.as_str()) {
        base.push_str("_value");
    }
    fresh(base, taken)
}

impl Contract {
    pub fn of(plan: &Plan) -> Contract {
        // A package, a folder and a module of Python: none may be a keyword.
        let mut stem = snake(&plan.rule.base);
        if TAKEN.contains(&stem.as_str()) {
            stem.push_str("_rule");
        }
        let major = plan.rule.version;
        let package = format!("rulec.{stem}.v{major}");
        let proto_path = format!("proto/rulec/{stem}/v{major}/{stem}.proto");
        let class = pascal(&plan.rule.base);
        let crossing: Vec<usize> = plan
            .inputs
            .iter()
            .chain(&plan.outputs)
            .filter_map(|&v| match plan.var(v).ty {
                BoundaryTy::Enum(e) => Some(e),
                _ => None,
            })
            .collect();
        // The messages, and the three names the generated Python cannot read as an attribute
        // of the stubs' module (`_pb.True` is a syntax error): an enum takes `Value` after them.
        let mut type_names: Vec<String> =
            ["DecideRequest", "DecideResponse", "Fired", "Refusal", "True", "False", "None"].map(String::from).to_vec();
        let mut enums = vec![None; plan.enums.len()];
        let mut values = vec![Vec::new(); plan.enums.len()];
        for (e, en) in plan.enums.iter().enumerate() {
            if !crossing.contains(&e) {
                continue;
            }
            let mut name = pascal(&en.base);
            while type_names.contains(&name) {
                name.push_str("Value");
            }
            type_names.push(name.clone());
            let prefix = snake(&name).to_ascii_uppercase();
            let mut taken = HashSet::from([format!("{prefix}_UNSPECIFIED")]);
            values[e] = en
                .values
                .iter()
                .map(|m| fresh(format!("{prefix}_{}", snake(&m.base).to_ascii_uppercase()), &mut taken))
                .collect();
            enums[e] = Some(name);
        }
        let mut taken = HashSet::new();
        let request = plan.inputs.iter().map(|&v| (v, field_name(plan.var(v), &mut taken))).collect();
        let mut taken = HashSet::new();
        let response = plan
            .outputs
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let n = i as u32 + 1;
                (v, field_name(plan.var(v), &mut taken), if n >= TRACE_FIELD { n + 1 } else { n })
            })
            .collect();
        Contract {
            stem,
            package,
            proto_path,
            service: format!("{class}Service"),
            class,
            enums,
            values,
            request,
            response,
        }
    }

    pub fn path(&self) -> String {
        format!("/{}.{}/Decide", self.package, self.service)
    }

    fn proto_type(&self, plan: &Plan, v: VarId) -> String {
        match plan.var(v).ty {
            BoundaryTy::Bool => "bool".into(),
            BoundaryTy::Str | BoundaryTy::Date => "string".into(),
            BoundaryTy::Int | BoundaryTy::Unit(_) => "int64".into(),
            BoundaryTy::Enum(e) => self.enums[e].clone().expect("an enum on the wire is declared"),
        }
    }

    /// The stubs' modules, from the Python folder (`stubs.rulec.x.v1.x_pb`).
    fn stub(&self, plan: &Plan, suffix: &str) -> String {
        format!("stubs.rulec.{}.v{}.{}_{suffix}", self.stem, plan.rule.version, self.stem)
    }
}

/// What a field holds, as its comment says it: the kind, the unit, the range.
fn what(plan: &Plan, v: VarId) -> String {
    let var = plan.var(v);
    let mut s = match var.ty {
        BoundaryTy::Bool => format!("{}: true or false", var.name),
        BoundaryTy::Str => format!("{}: a string", var.name),
        BoundaryTy::Date => format!("{}: a calendar day, YYYY-MM-DD", var.name),
        BoundaryTy::Enum(_) => format!("{}: {}", var.name, var.what),
        BoundaryTy::Int => format!("{}: an integer", var.name),
        BoundaryTy::Unit(u) => format!("{}: an integer, in {} ({})", var.name, plan.units[u].symbol, var.what),
    };
    if var.list {
        s = s.replacen(": ", ": a list, each ", 1);
    }
    if let Some((lo, hi)) = var.range {
        match var.ty {
            BoundaryTy::Date => s.push_str(&format!(
                ", from {} to {}",
                crate::num::date::format_days(lo),
                crate::num::date::format_days(hi)
            )),
            BoundaryTy::Enum(e) => s.push_str(&format!(
                ", from {} to {}",
                plan.enums[e].values[lo as usize].name, plan.enums[e].values[hi as usize].name
            )),
            _ => s.push_str(&format!(". {lo} to {hi}")),
        }
    }
    if var.optional {
        s.push_str(". May be left unset: the value is absent");
    }
    text::comment(&s)
}

/// `proto/rulec/<stem>/v<major>/<stem>.proto`: the whole of the contract.
pub fn proto(plan: &Plan, c: &Contract) -> File {
    let mut o = text::header(plan, "//");
    o.push_str(&format!("\nsyntax = \"proto3\";\n\npackage {};\n", c.package));
    for (e, name) in c.enums.iter().enumerate() {
        let Some(name) = name else { continue };
        let en = &plan.enums[e];
        let prefix = snake(name).to_ascii_uppercase();
        o.push_str(&format!(
            "\n// enum {}: a value is its name on the rule's wire.\nenum {name} {{\n",
            text::comment(&en.name)
        ));
        o.push_str(&format!("  // Not set: refused where a value is needed.\n  {prefix}_UNSPECIFIED = 0;\n"));
        for (i, value) in c.values[e].iter().enumerate() {
            o.push_str(&format!("  // {}\n  {value} = {};\n", text::comment(&en.values[i].name), i + 1));
        }
        o.push_str("}\n");
    }
    o.push_str("\n// Every field is marked optional, so that one left out is told apart from one set to\n// its zero: an input the rule needs and the request leaves out is refused.\nmessage DecideRequest {\n");
    for (i, (v, field)) in c.request.iter().enumerate() {
        o.push_str(&format!("  // {}\n  optional {} {field} = {};\n", what(plan, *v), c.proto_type(plan, *v), i + 1));
    }
    o.push_str("}\n\n// A row that matched: the table's name, and the row's number as written (from 1).\nmessage Fired {\n  string table = 1;\n  int32 row = 2;\n}\n");
    o.push_str("\nmessage DecideResponse {\n");
    for (v, field, n) in &c.response {
        let label = match (plan.var(*v).list, plan.var(*v).optional) {
            (true, _) => "repeated ",
            (_, true) => "optional ",
            _ => "",
        };
        o.push_str(&format!("  // {}\n  {label}{} {field} = {n};\n", what(plan, *v), c.proto_type(plan, *v)));
    }
    o.push_str(&format!(
        "\n  // The rows that matched, in the order they matched.\n  repeated Fired trace = {TRACE_FIELD};\n}}\n"
    ));
    o.push_str(
        "\n// Why a call was refused, in the error's details: the sentence every door of the rule\n// says, and the value refused where the refusal is about one.\nmessage Refusal {\n  string what = 1;\n  optional string value = 2;\n}\n",
    );
    let ins: Vec<&str> = plan.inputs.iter().map(|&v| plan.var(v).name.as_str()).collect();
    let outs: Vec<&str> = plan.outputs.iter().map(|&v| plan.var(v).name.as_str()).collect();
    o.push_str(&format!(
        "\nservice {} {{\n  // Decides {} from {}.\n  // The rule is a pure function, so this method has no side effects and can be\n  // called with GET.\n  rpc Decide(DecideRequest) returns (DecideResponse) {{\n    option idempotency_level = NO_SIDE_EFFECTS;\n  }}\n}}\n",
        c.service,
        text::comment(&outs.join(", ")),
        text::comment(if ins.is_empty() { "nothing".into() } else { ins.join(", ") }.as_str()),
    ));
    File { path: c.proto_path.clone(), text: o }
}

/// `proto/buf.yaml` and `proto/buf.gen.yaml`: the tree is a buf module, and its stubs are
/// generated into `python/stubs` with the two local plugins connect-python documents.
pub fn buf_files() -> Vec<File> {
    vec![
        File {
            path: "proto/buf.yaml".into(),
            text: "# Code generated by rulec. DO NOT EDIT.\nversion: v2\nlint:\n  use:\n    - STANDARD\nbreaking:\n  use:\n    - FILE\n".into(),
        },
        File {
            path: "proto/buf.gen.yaml".into(),
            text: "# Code generated by rulec. DO NOT EDIT.\n# cd proto && buf generate: the messages (protoc-gen-py) and the Connect client and\n# server bases (protoc-gen-connectrpc), into a package of their own beside the modules.\n# buf runs both plugins from PATH: pip install protoc-gen-py protoc-gen-connectrpc\nversion: v2\nplugins:\n  - local: protoc-gen-py\n    out: ../python/stubs\n  - local: protoc-gen-connectrpc\n    out: ../python/stubs\n".into(),
        },
    ]
}

/// A Python string literal (JSON's escapes are Python's).
fn py(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

fn enum_tables(plan: &Plan, c: &Contract, o: &mut String) {
    for (e, name) in c.enums.iter().enumerate() {
        if name.is_none() {
            continue;
        }
        let pairs: Vec<String> =
            plan.enums[e].values.iter().enumerate().map(|(i, m)| format!("{}: {}", i + 1, py(&m.name))).collect();
        o.push_str(&format!("_NAMES_{e} = {{{}}}\n", pairs.join(", ")));
        let back: Vec<String> =
            plan.enums[e].values.iter().enumerate().map(|(i, m)| format!("{}: {}", py(&m.name), i + 1)).collect();
        o.push_str(&format!("_NUMBERS_{e} = {{{}}}\n", back.join(", ")));
    }
}

/// The stubs, as modules: a type of the rule's (an enum called `Code`, say) cannot take
/// the place of a name the service uses.
fn stub_imports(plan: &Plan, c: &Contract) -> String {
    format!("import {} as _pb\nimport {} as _connect\n", c.stub(plan, "pb"), c.stub(plan, "connect"))
}

/// `python/<alias>_service.py`.
pub fn service(plan: &Plan, names: &Names, c: &Contract) -> File {
    let mut o = text::header(plan, "#");
    o.push_str(&format!(
        "#\n# The rule as a Connect service: {path}\n#   uvicorn {base}_service:app --port 8080\n#   gunicorn '{base}_service:wsgi_app'\n#   hypercorn --bind 127.0.0.1:8080 {base}_service:app\n#   python3 {base}_service.py --http 127.0.0.1:8080 [--asgi] [--record calls.jsonl]\n# Each speaks Connect and gRPC-Web; gRPC needs HTTP/2 with trailers, which hypercorn alone\n# of these serves (cleartext with prior knowledge, or TLS).\n# The stubs first: pip install connectrpc protoc-gen-py protoc-gen-connectrpc, then\n# cd ../proto && buf generate\n\n",
        path = c.path(),
        base = plan.rule.base
    ));
    o.push_str(text::section(SERVICE, MARK, "imports"));
    o.push_str(&format!("\n\nimport {} as _rule\n", names.module));
    o.push_str(&stub_imports(plan, c));
    o.push('\n');
    o.push_str(&format!("_SOURCE_SHA256 = {}\n", py(&plan.rule.sha256)));
    enum_tables(plan, c, &mut o);
    o.push_str("\n\ndef _call(request: _pb.DecideRequest) -> dict[str, object]:\n    \"\"\"The call in the wire form: a field left unset (an enum at 0 too) is left out.\"\"\"\n    call: dict[str, object] = {}\n");
    for (v, field) in &c.request {
        let name = py(&plan.var(*v).name);
        match plan.var(*v).ty {
            BoundaryTy::Enum(e) => o.push_str(&format!(
                "    if request.has_field(\"{field}\") and int(request.{field}) != 0:\n        call[{name}] = _NAMES_{e}.get(int(request.{field}), int(request.{field}))\n"
            )),
            _ => o.push_str(&format!("    if request.has_field(\"{field}\"):\n        call[{name}] = request.{field}\n")),
        }
    }
    o.push_str("    return call\n\n\ndef _response(observed: dict[str, Any], trace: list[Any]) -> _pb.DecideResponse:\n    return _pb.DecideResponse(\n");
    for (v, field, _) in &c.response {
        let name = py(&plan.var(*v).name);
        match plan.var(*v).ty {
            BoundaryTy::Enum(e) => {
                let ty = format!("_pb.{}", c.enums[e].clone().expect("declared"));
                if plan.var(*v).list {
                    o.push_str(&format!("        {field}=[{ty}(_NUMBERS_{e}[x]) for x in observed[{name}]],\n"));
                } else if plan.var(*v).optional {
                    o.push_str(&format!(
                        "        {field}=None if observed[{name}] is None else {ty}(_NUMBERS_{e}[observed[{name}]]),\n"
                    ));
                } else {
                    o.push_str(&format!("        {field}={ty}(_NUMBERS_{e}[observed[{name}]]),\n"));
                }
            }
            _ => o.push_str(&format!("        {field}=observed[{name}],\n")),
        }
    }
    o.push_str("        trace=[_pb.Fired(table=f[\"table\"], row=f[\"row\"]) for f in trace],\n    )\n\n\n");
    let body = super::super::python::shared::copy(text::section(SERVICE, MARK, "body"))
        .replace("rulec_wire", &names.wire)
        .replace("rulec_sync_protocol", &format!("_connect.{}ServiceSync", c.class))
        .replace("rulec_protocol", &format!("_connect.{}Service", c.class))
        .replace("rulec_sync_class", &format!("{}Sync", c.class))
        .replace("rulec_class", &c.class)
        .replace("rulec_asgi", &format!("_connect.{}ServiceASGIApplication", c.class))
        .replace("rulec_wsgi", &format!("_connect.{}ServiceWSGIApplication", c.class));
    o.push_str(&body);
    o.push('\n');
    File { path: format!("{}_service.py", plan.rule.base), text: o }
}

/// `python/<alias>_connect_runner.py`.
pub fn runner(plan: &Plan, names: &Names, c: &Contract) -> File {
    let mut o = text::header(plan, "#");
    o.push_str(&format!(
        "#\n# The vectors through the Connect service: python3 {}_connect_runner.py URL [--get]\n\n",
        plan.rule.base
    ));
    o.push_str(text::section(RUNNER, MARK, "imports"));
    o.push_str(&format!("\n\nimport {} as _rule\n", names.module));
    o.push_str(&stub_imports(plan, c));
    o.push('\n');
    o.push_str(&format!("_PATH = {}\n", py(&c.path())));
    let fields: Vec<String> =
        c.request.iter().map(|(v, f)| format!("{}: {}", py(&plan.var(*v).name), py(&json_name(f)))).collect();
    o.push_str(&format!(
        "# The inputs, and each one's field under its JSON name.\n_FIELDS = {{{}}}\n",
        fields.join(", ")
    ));
    enum_tables(plan, c, &mut o);
    o.push('\n');
    o.push_str(
        &super::super::python::shared::copy(text::section(RUNNER, MARK, "body"))
            .replace("rulec_wire", &names.wire)
            .replace("rulec_client", &format!("_connect.{}ServiceClientSync", c.class)),
    );
    o.push_str("\n\n\ndef _request(call: dict[str, Any]) -> tuple[_pb.DecideRequest, dict[str, Any]]:\n    \"\"\"The call as a DecideRequest, and the inputs as the record writes them.\"\"\"\n    fields: dict[str, Any] = {}\n    echo: dict[str, Any] = {}\n");
    for (v, field) in &c.request {
        let name = py(&plan.var(*v).name);
        let read = match plan.var(*v).ty {
            BoundaryTy::Bool => "_bool(x)".to_string(),
            BoundaryTy::Str | BoundaryTy::Date => "_str(x)".to_string(),
            BoundaryTy::Int | BoundaryTy::Unit(_) => "_int(x)".to_string(),
            BoundaryTy::Enum(e) => format!("_pb.{}(_member(_NUMBERS_{e}, x))", c.enums[e].clone().expect("declared")),
        };
        o.push_str(&format!(
            "    x = call.get({name})\n    if x is not None:\n        fields[\"{field}\"] = {read}\n    echo[{name}] = x\n"
        ));
    }
    o.push_str("    return _pb.DecideRequest(**fields), echo\n\n\ndef _observed(r: _pb.DecideResponse) -> dict[str, Any]:\n    \"\"\"The outputs as the record writes them.\"\"\"\n    return {\n");
    for (v, field, _) in &c.response {
        let name = py(&plan.var(*v).name);
        let value = match (plan.var(*v).ty, plan.var(*v).list) {
            (BoundaryTy::Enum(e), true) => format!("[_NAMES_{e}.get(int(x)) for x in r.{field}]"),
            (BoundaryTy::Enum(e), false) => format!("_NAMES_{e}.get(int(r.{field}))"),
            (_, true) => format!("list(r.{field})"),
            (_, false) => format!("r.{field}"),
        };
        if plan.var(*v).optional {
            o.push_str(&format!("        {name}: {value} if r.has_field(\"{field}\") else None,\n"));
        } else {
            o.push_str(&format!("        {name}: {value},\n"));
        }
    }
    o.push_str("    }\n\n\n");
    o.push_str(text::section(RUNNER, MARK, "main"));
    o.push('\n');
    File { path: format!("{}_connect_runner.py", plan.rule.base), text: o }
}

/// `rulec adapter --template connect-python`: the adapter of `rulec verify` for a legacy
/// implementation that is a Connect service. The two functions to fill in, `request` and
/// `outputs`, are written for this rule's own contract (the DecideRequest and DecideResponse
/// of the service `rulec gen` writes), so as printed it verifies a service generated from
/// this rule; for another service they become that service's messages.
pub fn adapter(plan: &Plan, c: &Contract) -> String {
    let described = |vars: &[VarId]| -> String { vars.iter().map(|&v| format!("#   {}\n", what(plan, v))).collect() };
    let mut o = format!(
        "#!/usr/bin/env python3\n# Adapter for `rulec verify {rule}.rule --adapter python3 adapter.py URL` (formats.md),\n# where the legacy implementation is a Connect service at URL.\n# A call, in rulec's wire:\n{ins}# The answer:\n{outs}",
        rule = plan.rule.base,
        ins = described(&plan.inputs),
        outs = described(&plan.outputs)
    );
    o.push_str(text::section(ADAPTER, MARK, "imports"));
    o.push_str("\n\n");
    o.push_str(&super::replace_line(
        text::section(ADAPTER, MARK, "path"),
        "PATH = ",
        &format!("PATH = {}", py(&c.path())),
    ));
    for (e, name) in c.enums.iter().enumerate() {
        let Some(name) = name else { continue };
        let pairs: Vec<String> = plan.enums[e]
            .values
            .iter()
            .zip(&c.values[e])
            .map(|(m, wire)| format!("{}: {}", py(&m.name), py(wire)))
            .collect();
        o.push_str(&format!("# enum {}: the rule's values and {name}'s.\n", text::comment(&plan.enums[e].name)));
        o.push_str(&format!("{} = {{{}}}\n", enum_table(c, e), pairs.join(", ")));
    }
    let mut fields = String::new();
    for (v, field) in &c.request {
        let var = plan.var(*v);
        let name = py(&var.name);
        let value = match var.ty {
            BoundaryTy::Enum(e) => format!("{}[call[{name}]]", enum_table(c, e)),
            _ => format!("call[{name}]"),
        };
        let key = py(&json_name(field));
        fields.push_str(&format!("    if call.get({name}) is not None:\n        message[{key}] = {value}\n"));
    }
    o.push_str("\n\n");
    o.push_str(
        super::replace_line(text::section(ADAPTER, MARK, "request"), "    # rulec-fields", fields.trim_end())
            .trim_end(),
    );
    let mut fields = String::new();
    for (v, field, _) in &c.response {
        let var = plan.var(*v);
        let key = py(&json_name(field));
        let (read, zero) = match var.ty {
            BoundaryTy::Bool => (format!("response[{key}]"), "False".to_string()),
            BoundaryTy::Str | BoundaryTy::Date => (format!("response[{key}]"), "\"\"".to_string()),
            BoundaryTy::Int | BoundaryTy::Unit(_) => (format!("int(response[{key}])"), "0".to_string()),
            BoundaryTy::Enum(e) => {
                (format!("{{w: r for r, w in {}.items()}}.get(response[{key}])", enum_table(c, e)), "None".to_string())
            }
        };
        // A list is each element read so (left out when empty); an absent optional output is
        // null; any other field left out is at its zero.
        let whole = format!("response[{key}]");
        let (read, absent) = match (var.list, var.optional) {
            (true, _) if read == whole => (format!("list({whole})"), "[]".into()),
            (true, _) => (format!("[{} for x in {whole}]", read.replace(&whole, "x")), "[]".into()),
            (_, true) => (read, "None".to_string()),
            _ => (read, zero),
        };
        fields.push_str(&format!("        {}: {read} if {key} in response else {absent},\n", py(&var.name)));
    }
    o.push_str("\n\n\n");
    o.push_str(
        super::replace_line(text::section(ADAPTER, MARK, "outputs"), "        # rulec-fields", fields.trim_end())
            .trim_end(),
    );
    o.push_str("\n\n\n");
    o.push_str(text::section(ADAPTER, MARK, "body"));
    o.push_str("\n\n\n");
    o.push_str(text::section(ADAPTER, MARK, "main"));
    o.push('\n');
    o
}

/// The name of an enum's table in the adapter: the rule's values to the wire's.
fn enum_table(c: &Contract, e: usize) -> String {
    format!("{}_VALUES", snake(c.enums[e].as_deref().expect("an enum on the wire is declared")).to_ascii_uppercase())
}

/// protoc's JSON name of a field: lower camel case.
pub fn json_name(field: &str) -> String {
    let mut o = String::new();
    let mut up = false;
    for ch in field.chars() {
        if ch == '_' {
            up = true;
        } else if up {
            o.push(ch.to_ascii_uppercase());
            up = false;
        } else {
            o.push(ch);
        }
    }
    o
}

/// The `connect` entry of `rulec api` (formats.md).
pub fn api(plan: &Plan, c: &Contract) -> Json {
    let field = |v: VarId, f: &str| -> Json {
        let var = plan.var(v);
        let mut m = serde_json::Map::new();
        m.insert("name".into(), json!(var.name));
        m.insert("field".into(), json!(f));
        m.insert("type".into(), json!(c.proto_type(plan, v)));
        m.insert("optional".into(), json!(var.optional));
        m.insert("repeated".into(), json!(var.list));
        if let BoundaryTy::Enum(e) = var.ty {
            m.insert("enum".into(), json!(plan.enums[e].name));
        }
        Json::Object(m)
    };
    let enums: Vec<Json> = c
        .enums
        .iter()
        .enumerate()
        .filter_map(|(e, name)| {
            let name = name.as_ref()?;
            let prefix = snake(name).to_ascii_uppercase();
            Some(json!({
                "name": plan.enums[e].name, "alias": name, "contract": null, "unset": format!("{prefix}_UNSPECIFIED"),
                "values": plan.enums[e].values.iter().enumerate().map(|(i, m)| json!({"name": m.name, "alias": c.values[e][i], "number": i + 1})).collect::<Vec<_>>(),
            }))
        })
        .collect();
    let base = &plan.rule.base;
    json!({
        "proto": c.proto_path, "package": c.package, "service": c.service, "method": "Decide", "path": c.path(),
        "request": "DecideRequest", "response": "DecideResponse", "refusal": "Refusal",
        "idempotency_level": "NO_SIDE_EFFECTS", "trace": "trace", "trace_field": TRACE_FIELD,
        "source_header": "rulec-source-sha256", "stubs": "cd proto && buf generate",
        "buf_yaml": "proto/buf.yaml", "buf_gen_yaml": "proto/buf.gen.yaml", "deps": [],
        "json_names": "lowerCamelCase", "json_int64": "string",
        "request_fields": c.request.iter().map(|(v, f)| field(*v, f)).collect::<Vec<_>>(),
        "element_fields": null,
        "response_fields": c.response.iter().map(|(v, f, _)| field(*v, f)).collect::<Vec<_>>(),
        "enums": enums,
        "python": {
            "module": format!("{base}_service.py"), "class": c.class, "sync_class": format!("{}Sync", c.class),
            "asgi": "app", "wsgi": "wsgi_app",
            "serve_asgi": format!("uvicorn {base}_service:app --port 8080"),
            "serve_wsgi": format!("gunicorn '{base}_service:wsgi_app'"),
            "serve_grpc": format!("hypercorn --bind 127.0.0.1:8080 {base}_service:app"),
            "serve_stdlib": format!("python3 {base}_service.py --http 127.0.0.1:8080"),
            "client": format!("{}ServiceClientSync", c.class),
            "runner": format!("{base}_connect_runner.py"),
            "needs": ["connectrpc", "buf", "protoc-gen-py", "protoc-gen-connectrpc"],
        },
    })
}
