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

use clap::builder::ArgAction;
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
        });
        for s in c.get_subcommands() {
            props_of(s, &mut props);
        }
    }
    let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
    Tool {
        name: format!("rulec_{}", c.get_name().replace('-', "_")),
        command: c.get_name().to_string(),
        description: format!("`rulec {}`: {about}", c.get_name()),
        subcommands,
        props,
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
        props.push(Prop { name, kind, required: a.is_required_set(), help, long, index });
    }
}

impl Tool {
    /// The tool as `tools/list` gives it.
    pub fn to_json(&self) -> Json {
        let mut properties = Map::new();
        for p in &self.props {
            let mut s = schema_of(&p.kind);
            if !p.help.is_empty() {
                s["description"] = json!(p.help);
            }
            properties.insert(p.name.clone(), s);
        }
        let required: Vec<&str> = self.props.iter().filter(|p| p.required).map(|p| p.name.as_str()).collect();
        json!({
            "name": self.name,
            "title": format!("rulec {}", self.command),
            "description": self.description,
            "inputSchema": {"type": "object", "properties": properties, "required": required, "additionalProperties": false},
        })
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
