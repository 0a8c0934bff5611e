//! One MCP tool per command of the CLI, read off clap's command table (src/cli.rs), and the
//! way back from a tool call's arguments to the command line clap parses (formats.md `mcp`).
//!
//! - A positional argument that takes several values becomes `files` (a list of strings);
//!   one that takes one value keeps its name (`file`, `dir`, `code`).
//! - A command with commands of its own takes the one to run as `subcommand`, an enum of
//!   their names, and the arguments of all of them.
//! - A flag becomes a property named after its long form with `-` as `_`: a boolean for a
//!   flag without a value, a list for one that may repeat, an enum where its values are a
//!   closed set, an integer where clap reads a number.
//! - What a value names is read off clap too: a `PathBuf` is a path, a string with the
//!   `FilePath` hint a rule (`file` or `file@rev`), the `CommandName` hint a
//!   command. The server holds every path to its root and runs a command only when allowed.

use clap::builder::ArgAction;
use clap::ValueHint;
use serde_json::{json, Map, Value as Json};
use std::any::TypeId;

/// What a property holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Bool,
    Text,
    Integer,
    Choice(Vec<String>),
    List(Box<Kind>),
}

/// One property of a tool's input, and where it goes on the command line.
#[derive(Clone, Debug)]
pub struct Prop {
    pub name: String,
    pub kind: Kind,
    pub required: bool,
    pub help: String,
    /// `Some(--long)` for a flag; `None` for a positional argument (in `index` order).
    pub long: Option<String>,
    pub index: usize,
    pub names: Names,
}

/// What a property's value names, for the server's confinement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    Nothing,
    /// A file or a folder.
    Path,
    /// A rule: a file, or `file@rev` (the file at a git revision).
    Rule,
    /// A command to start, and its arguments.
    Command,
}

/// What a tool does to its environment: the MCP annotations, whether it runs commands, and
/// the shape of what it prints on standard output as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traits {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    /// It starts programs other than rulec (and git): the server must be started with --allow-run.
    pub runs: bool,
    pub json: Option<Shape>,
}

/// How a command prints JSON (formats.md): one document, or one record a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Document,
    Lines,
}

const READS: Traits = Traits { read_only: true, destructive: false, idempotent: true, runs: false, json: None };
/// Writes files, replacing what is there (the same call twice writes the same bytes).
const REWRITES: Traits = Traits { read_only: false, destructive: true, idempotent: true, runs: false, json: None };

/// The traits of each command. A command not listed gets the most cautious (it may change
/// anything, not idempotent); tests/confinement.rs lists every command, so none is.
pub fn traits(command: &str) -> Traits {
    let doc = Some(Shape::Document);
    let lines = Some(Shape::Lines);
    match command {
        "check" | "eval" | "coverage" | "explain" => Traits { json: lines, ..READS },
        "api" | "schema" | "certificate" | "graph" | "fixtures" | "replay" | "diff" => Traits { json: doc, ..READS },
        "adapter" => READS,
        // Writes --out (or prints the rule).
        "import" => REWRITES,
        "fmt" | "gen" | "lock" => Traits { json: doc, ..REWRITES },
        "doc" => REWRITES,
        "vectors" => Traits { json: lines, ..REWRITES },
        // Builds and runs every runner in a scratch folder: caches of the toolchains change.
        "test" => Traits { read_only: false, destructive: false, idempotent: true, runs: true, json: doc },
        // The adapter is any program: it may do anything.
        "verify" => Traits { read_only: false, destructive: true, idempotent: false, runs: true, json: doc },
        _ => Traits { read_only: false, destructive: true, idempotent: false, runs: true, json: None },
    }
}

#[derive(Clone, Debug)]
pub struct Tool {
    /// `rulec_<command>`.
    pub name: String,
    pub command: String,
    pub description: String,
    /// The commands of a command that has some (`subcommand`'s values).
    pub subcommands: Vec<String>,
    pub props: Vec<Prop>,
    pub traits: Traits,
}

/// The commands that are no tool: this server itself, the editor's server, and clap's `help`.
pub const NOT_TOOLS: [&str; 3] = ["mcp", "lsp", "help"];

/// Every tool of the command table, in the table's order.
pub fn tools(cli: &clap::Command) -> Vec<Tool> {
    cli.get_subcommands().filter(|c| !NOT_TOOLS.contains(&c.get_name())).map(tool).collect()
}

fn tool(c: &clap::Command) -> Tool {
    let mut props = Vec::new();
    let subcommands: Vec<String> = c.get_subcommands().map(|s| s.get_name().to_string()).collect();
    if subcommands.is_empty() {
        props_of(c, &mut props);
    } else {
        props.push(Prop {
            name: "subcommand".into(),
            kind: Kind::Choice(subcommands.clone()),
            required: true,
            help: "The command to run.".into(),
            long: None,
            index: 0,
            names: Names::Nothing,
        });
        for s in c.get_subcommands() {
            props_of(s, &mut props);
        }
    }
    if ["gen", "lock"].contains(&c.get_name()) {
        // The server's own default (Server::call), not the CLI's.
        if let Some(lock) = props.iter_mut().find(|p| p.name == "lock") {
            lock.help = "The lock file (default: rulec.lock in the folder that holds `out`).".into();
        }
    }
    let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
    Tool {
        name: format!("rulec_{}", c.get_name().replace('-', "_")),
        command: c.get_name().to_string(),
        description: format!("`rulec {}`: {about}", c.get_name()),
        subcommands,
        props,
        traits: traits(c.get_name()),
    }
}

/// The properties of one command's arguments, skipping any a sibling command already gave.
fn props_of(c: &clap::Command, props: &mut Vec<Prop>) {
    for a in c.get_arguments() {
        if a.is_hide_set() || matches!(a.get_action(), ArgAction::Help | ArgAction::Version) {
            continue;
        }
        let many = matches!(a.get_action(), ArgAction::Append)
            || a.get_num_args().is_some_and(|n| n.max_values() > 1)
            || a.get_value_delimiter().is_some();
        let one = match a.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => Kind::Bool,
            _ => {
                let values: Vec<String> = a.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
                let id = a.get_value_parser().type_id();
                if !values.is_empty() {
                    Kind::Choice(values)
                } else if [TypeId::of::<u64>(), TypeId::of::<usize>(), TypeId::of::<u32>(), TypeId::of::<i64>()]
                    .iter()
                    .any(|t| id == *t)
                {
                    Kind::Integer
                } else {
                    Kind::Text
                }
            }
        };
        let (name, long, index) = match a.get_long() {
            Some(long) => (long.replace('-', "_"), Some(format!("--{long}")), 0),
            None if many => ("files".to_string(), None, a.get_index().unwrap_or(0)),
            None => (a.get_id().as_str().to_string(), None, a.get_index().unwrap_or(0)),
        };
        if props.iter().any(|p| p.name == name) {
            continue;
        }
        let kind = if many && one != Kind::Bool { Kind::List(Box::new(one)) } else { one };
        let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        let names = match a.get_value_hint() {
            ValueHint::CommandWithArguments | ValueHint::CommandName | ValueHint::CommandString => Names::Command,
            ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath | ValueHint::ExecutablePath => {
                if a.get_value_parser().type_id() == TypeId::of::<std::path::PathBuf>() {
                    Names::Path
                } else {
                    Names::Rule
                }
            }
            _ => Names::Nothing,
        };
        props.push(Prop { name, kind, required: a.is_required_set(), help, long, index, names });
    }
}

impl Tool {
    /// The tool as `tools/list` gives it, by a server that runs commands or not.
    pub fn to_json(&self, allow_run: bool) -> Json {
        let mut properties = Map::new();
        for p in &self.props {
            let mut s = schema_of(&p.kind);
            if !p.help.is_empty() {
                s["description"] = json!(p.help);
            }
            properties.insert(p.name.clone(), s);
        }
        let required: Vec<&str> = self.props.iter().filter(|p| p.required).map(|p| p.name.as_str()).collect();
        let mut description = self.description.clone();
        if self.traits.runs {
            if !description.ends_with('.') {
                description.push('.');
            }
            description.push_str(&format!(
                " It runs commands ({}), so `rulec mcp` runs it only when started with --allow-run; this server was started {}.",
                if self.command == "verify" { "the adapter" } else { "each language's toolchain and runner" },
                if allow_run { "with it" } else { "without it, and refuses the call" }
            ));
        }
        let t = &self.traits;
        let mut tool = json!({
            "name": self.name,
            "title": format!("rulec {}", self.command),
            "description": description,
            "inputSchema": {"type": "object", "properties": properties, "required": required, "additionalProperties": false},
            "annotations": {
                "title": format!("rulec {}", self.command),
                "readOnlyHint": t.read_only,
                "destructiveHint": t.destructive,
                "idempotentHint": t.idempotent,
                "openWorldHint": t.runs,
            },
        });
        if let Some(shape) = t.json {
            let printed = match shape {
                Shape::Document => json!({"type": "object",
                    "description": "What the command printed on standard output, parsed: its JSON of formats.md (with `format` json where the tool has `format`)."}),
                Shape::Lines => json!({"type": "array", "items": {"type": "object"},
                    "description": "What the command printed on standard output, one JSON record a line, parsed (with `format` json where the tool has `format`)."}),
            };
            tool["outputSchema"] = json!({
                "type": "object",
                "properties": {
                    "exit_code": {"type": "integer", "description": "0: done; 1: findings (not an error of the call); 2 and above: the command could not do its work."},
                    "json": printed,
                },
                "required": ["exit_code"],
            });
        }
        tool
    }

    /// Every path the arguments name, with the property that names it and what it names (a
    /// rule's revision left on). The arguments are this tool's ([`Tool::argv`] said so).
    pub fn named(&self, args: &Map<String, Json>) -> Vec<(&Prop, String)> {
        let mut out = Vec::new();
        for p in self.props.iter().filter(|p| p.names != Names::Nothing) {
            if let Some(values) = args.get(&p.name).and_then(|v| p.values(v)) {
                out.extend(values.into_iter().map(|v| (p, v)));
            }
        }
        out
    }

    /// The command line for a call's arguments (without the program's name), or why the
    /// arguments are not this tool's: an unknown name, a value of another kind, a missing one.
    pub fn argv(&self, args: &Map<String, Json>) -> Result<Vec<String>, String> {
        let known: Vec<&str> = self.props.iter().map(|p| p.name.as_str()).collect();
        for key in args.keys() {
            if !known.contains(&key.as_str()) {
                return Err(format!(
                    "{} takes no argument `{key}`; it takes {}",
                    self.name,
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                ));
            }
        }
        let mut argv = vec![self.command.clone()];
        let mut flags = Vec::new();
        let mut positional: Vec<(usize, Vec<String>)> = Vec::new();
        for p in &self.props {
            let Some(value) = args.get(&p.name).filter(|v| !v.is_null()) else {
                if p.required {
                    return Err(format!("{} needs the argument `{}`", self.name, p.name));
                }
                continue;
            };
            let values = p
                .values(value)
                .ok_or_else(|| format!("`{}` of {} must be {}", p.name, self.name, describe(&p.kind)))?;
            if p.name == "subcommand" {
                argv.extend(values);
                continue;
            }
            match &p.long {
                Some(long) if p.kind == Kind::Bool => {
                    if value == &Json::Bool(true) {
                        flags.push(long.clone());
                    }
                }
                Some(long) => flags.extend(values.iter().map(|v| format!("{long}={v}"))),
                None => positional.push((p.index, values)),
            }
        }
        argv.extend(flags);
        positional.sort_by_key(|(i, _)| *i);
        if !positional.is_empty() {
            // Everything after `--` is positional, so a file called `-x` is a file.
            argv.push("--".into());
            argv.extend(positional.into_iter().flat_map(|(_, v)| v));
        }
        Ok(argv)
    }
}

impl Prop {
    /// The value as command-line words, or `None` when it is not of the property's kind.
    fn values(&self, value: &Json) -> Option<Vec<String>> {
        match (&self.kind, value) {
            (Kind::List(one), Json::Array(items)) => {
                items.iter().map(|v| word(one, v)).collect::<Option<Vec<String>>>()
            }
            (Kind::List(one), v) => word(one, v).map(|w| vec![w]),
            (kind, v) => word(kind, v).map(|w| vec![w]),
        }
    }
}

fn word(kind: &Kind, v: &Json) -> Option<String> {
    match (kind, v) {
        (Kind::Bool, Json::Bool(b)) => Some(b.to_string()),
        (Kind::Text, Json::String(s)) => Some(s.clone()),
        (Kind::Integer, Json::Number(n)) if n.as_u64().is_some() => Some(n.to_string()),
        (Kind::Choice(values), Json::String(s)) if values.contains(s) => Some(s.clone()),
        _ => None,
    }
}

fn describe(kind: &Kind) -> String {
    match kind {
        Kind::Bool => "true or false".into(),
        Kind::Text => "a string".into(),
        Kind::Integer => "a whole number, 0 or more".into(),
        Kind::Choice(values) => format!("one of {}", values.join(", ")),
        Kind::List(one) => format!("a list, each {}", describe(one)),
    }
}

fn schema_of(kind: &Kind) -> Json {
    match kind {
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Text => json!({"type": "string"}),
        Kind::Integer => json!({"type": "integer", "minimum": 0}),
        Kind::Choice(values) => json!({"type": "string", "enum": values}),
        Kind::List(one) => json!({"type": "array", "items": schema_of(one)}),
    }
}
