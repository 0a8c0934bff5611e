//! The command table of `rulec`: every command, its arguments and its flags, as clap reads
//! them. The CLI (src/main.rs) parses with it, and `rulec mcp` (src/mcp) builds one tool per
//! command from it, so the two cannot list different commands or flags.

use clap::{Parser, Subcommand, ValueEnum, ValueHint};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "rulec",
    version,
    about = "Check .rule decision tables and compile them to code",
    propagate_version = true
)]
pub struct Cli {
    /// The project root no `use` may leave (default: the nearest folder above each rule that
    /// holds rulec.lock, Cargo.toml, WORKSPACE, WORKSPACE.bazel, MODULE.bazel or .git). For
    /// `rulec mcp`, the folder no tool's path may leave (default: the working folder's root).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `check` also speaks SARIF, for code scanning.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocAudience {
    Approver,
    Customer,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    Markdown,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
pub enum Command {
    /// Resolve, type-check and prove the rules, and run every `expect` line.
    Check {
        /// Rule files, or folders to search for *.rule files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: CheckFormat,
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
        /// How much work one table's analysis may do before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::Options::default().budget)]
        budget: u64,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
    },
    /// Rewrite rule files in place in the canonical form (with --check, write nothing and list the files that would change).
    Fmt {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write nothing; exit 1 when a file would change.
        #[arg(long)]
        check: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Evaluate a rule on inputs given in the wire form; print one record per call.
    Eval {
        file: PathBuf,
        /// A JSON object of inputs, or `-` to read JSON Lines from standard input.
        #[arg(long = "in", value_name = "JSON")]
        input: String,
        /// A tag written into every record.
        #[arg(long, default_value = "")]
        tag: String,
    },
    /// Generate code for rules: every language's module and runner, the vectors, rulec.lock.
    Gen {
        #[command(flatten)]
        rules: Generated,
        /// Write nothing; exit 1 when a file on disk differs from a fresh generation or is missing.
        #[arg(long)]
        check: bool,
        /// Exit 1 when a fresh generation differs from rulec.lock (the source or the output).
        #[arg(long)]
        locked: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        build: BuildArgs,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
    },
    /// Write rulec.lock for rules and write nothing else: the lock `rulec gen` writes with the same arguments.
    Lock {
        #[command(flatten)]
        rules: Generated,
        /// Lock what `rulec gen --no-servers` writes.
        #[arg(long)]
        no_servers: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
    },
    /// Build each generated language's runner and hold it to the vectors, byte for byte.
    Test {
        dir: PathBuf,
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
        /// Fail when any language is skipped or not run (a missing toolchain included).
        #[arg(long)]
        require_all: bool,
        /// Runners built and run at once (default: one per core).
        #[arg(long, default_value_t = 0)]
        jobs: usize,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// How to call the generated code, per language, without reading it (formats.md `api`).
    Api {
        file: PathBuf,
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
    },
    /// The JSON Schema of a rule's wire: the `in` a call sends, the `out` it gets back.
    Schema {
        file: PathBuf,
        /// Name each property by the rule's name (the wire), or by its ASCII alias with the
        /// name as its title (an HTTP request body, a form).
        #[arg(long, value_enum, default_value = "name")]
        keys: crate::schema::Keys,
    },
    /// Write the boundary suite of a rule: `<alias>.jsonl` and `<alias>.expected.jsonl` under --out, or the vectors on stdout.
    Vectors {
        file: PathBuf,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Report what the boundary suite covers, criterion by criterion.
    Coverage {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the certificate of a rule that checks clean: the evidence behind what check proved.
    Certificate {
        file: PathBuf,
        /// Print only the rule as the certificate reads it (variables, constraints, defines,
        /// rows), for any rule whose names and types resolve, findings or not.
        #[arg(long)]
        program: bool,
    },
    /// Print the rule as a graph: what decides each value, and which values it reads (JSON).
    Graph {
        file: PathBuf,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
    },
    /// Write the rule for people: markdown for the approver or the customer, or the HTML page.
    Doc {
        file: PathBuf,
        /// Write `<alias>.md` (`.customer.md`, `.html`) into this folder instead of printing.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "approver")]
        audience: DocAudience,
        #[arg(long, value_enum, default_value = "markdown")]
        format: DocFormat,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
    },
    /// Check a fixtures file against a rule: every problem, by kind and field (formats.md).
    Fixtures {
        #[command(subcommand)]
        command: FixturesCommand,
    },
    /// Run every record of a fixtures file through the rule: what matches, and what moved.
    Replay {
        /// The rule (a file, or `file@rev` for a git revision).
        #[arg(value_hint = ValueHint::FilePath)]
        rule: String,
        #[command(flatten)]
        records: RecordsArgs,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Hold the rule's boundary suite to a legacy implementation run as an adapter.
    Verify {
        #[arg(value_hint = ValueHint::FilePath)]
        rule: String,
        /// How long to wait for one answer (`10s`, `500ms`).
        #[arg(long, default_value = "10s")]
        timeout: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also ask N inputs drawn from the declared domain (uniformly, and along every cut).
        #[arg(long, value_name = "N", conflicts_with = "exhaustive")]
        sample: Option<usize>,
        /// The seed of `--sample` (the same seed draws the same inputs).
        #[arg(long, default_value_t = crate::production::reach::DEFAULT_SEED, requires = "sample")]
        seed: u64,
        /// Ask every input of the declared domain (at most 1,000,000 of them).
        #[arg(long)]
        exhaustive: bool,
        /// The command that starts the adapter, and its arguments (last on the line).
        #[arg(
            long,
            required = true,
            num_args = 1..,
            allow_hyphen_values = true,
            value_name = "CMD",
            value_hint = ValueHint::CommandName
        )]
        adapter: Vec<String>,
    },
    /// Print an adapter template for `verify`, to fill in with a call to the legacy code.
    Adapter {
        #[arg(value_hint = ValueHint::FilePath)]
        rule: String,
        #[arg(long, value_enum)]
        template: TemplateKind,
    },
    /// Compare two versions of a rule: over records (--fixtures), or over every input.
    Diff {
        /// The old version (a file, or `file@rev`: `rules/x.rule@HEAD~1`).
        #[arg(value_hint = ValueHint::FilePath)]
        old: String,
        /// The new version.
        #[arg(value_hint = ValueHint::FilePath)]
        new: String,
        /// Compare over these records instead of over every input.
        #[arg(long)]
        fixtures: Option<PathBuf>,
        #[arg(long)]
        manifest: Option<PathBuf>,
        #[arg(long = "fill", value_name = "NAME=VALUE")]
        fill: Vec<String>,
        #[arg(long = "read-as", value_name = "RULE[@REV]", value_hint = ValueHint::FilePath)]
        read_as: Option<String>,
        /// How much work the region analysis may do before it stops (`over_budget`).
        #[arg(long, default_value_t = crate::production::region::Options::default().budget)]
        budget: u64,
        /// How many steps the whole command may spend on one rule before it stops (E109).
        #[arg(long, default_value_t = crate::analysis::work::DEFAULT_STEPS)]
        steps: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Serve these commands as MCP tools over stdio (JSON-RPC 2.0, one message a line), with the docs as resources.
    Mcp {
        /// Let the tools that run commands run them: `rulec_verify` its adapter, `rulec_test` the toolchains.
        #[arg(long)]
        allow_run: bool,
    },
    /// Serve the Language Server Protocol over stdio: diagnostics, fixes, formatting, hover, lenses.
    Lsp,
    /// Import a model written in another notation as one .rule file.
    Import {
        #[command(subcommand)]
        command: ImportCommand,
    },
    /// Explain a diagnostic code.
    Explain {
        code: Option<String>,
        /// Every code, one after another.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

/// The rules `rulec gen` generates and `rulec lock` locks, where the files go, in which
/// languages, and the lock that lists them: one set of arguments for both.
#[derive(clap::Args)]
pub struct Generated {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The folder the files are written into (for `rulec lock`, the one `rulec gen --out` writes).
    #[arg(long)]
    pub out: PathBuf,
    /// Languages, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub lang: Vec<String>,
    /// The lock file (default: rulec.lock in the current folder).
    #[arg(long)]
    pub lock: Option<PathBuf>,
}

/// What a build system that runs `rulec gen` once per rule asks of it (bazel/, bazel/rulec.mk).
#[derive(clap::Args, Default)]
pub struct BuildArgs {
    /// Write the lock alone, no generated file (`rulec lock`).
    #[arg(skip)]
    pub lock_only: bool,
    /// Write no rulec.lock: the outputs belong to a build system, not to the repository.
    #[arg(long, conflicts_with_all = ["lock", "locked"])]
    pub no_lock: bool,
    /// Write each language's module, runner and vectors only: no MCP or Connect server, no
    /// page beside them (a build that predeclares its outputs; the lock then lists only those).
    #[arg(long)]
    pub no_servers: bool,
    /// Write only these generated files (paths below --out, with `/`). Every file the rules
    /// generate must be named here or by --written-elsewhere, and every file named generated.
    #[arg(long = "only", value_name = "PATH")]
    pub only: Vec<String>,
    /// A file the rules generate that another run writes (one rule's run writes the shared `_helpers` files).
    #[arg(long = "written-elsewhere", value_name = "PATH", requires = "only")]
    pub written_elsewhere: Vec<String>,
    /// Generate the module of each enums file named too (`tiers.ts`, `Tiers.java`), in the
    /// languages that give an enums file its own, whether or not a rule of this run reads it:
    /// a build that cannot know which rule reads which enums file has one action write them
    /// and names them --written-elsewhere in the others.
    #[arg(long, requires = "only")]
    pub enums_modules: bool,
    /// Write a Make rule to FILE, last: its target depends on every rule and enums file the run read.
    #[arg(long, value_name = "FILE")]
    pub depfile: Option<PathBuf>,
    /// The target the depfile's rule names (default: the depfile itself).
    #[arg(long, value_name = "TARGET", requires = "depfile")]
    pub depfile_target: Option<String>,
    /// Write to FILE, one a line, the enums files named on the command line that no rule of
    /// the run read (what Bazel's unused_inputs_list reads).
    #[arg(long, value_name = "FILE")]
    pub unused_inputs_list: Option<PathBuf>,
    /// Print nothing when all is well (a build system's action).
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Subcommand)]
pub enum ImportCommand {
    /// A DMN 1.3 model's decision tables, decisions and business knowledge models (docs/dmn.md).
    Dmn {
        #[arg(value_hint = ValueHint::FilePath)]
        file: PathBuf,
        /// Import this decision and the decisions it requires (default: every decision).
        #[arg(long)]
        decision: Option<String>,
        /// Write the rule to FILE (default: standard output); nothing is written on a refusal.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum FixturesCommand {
    /// Report every problem of a fixtures file: kind, field, count, the first record.
    Lint {
        file: PathBuf,
        /// The rule the records are read for.
        #[arg(long, value_hint = ValueHint::FilePath)]
        rule: String,
        #[arg(long)]
        manifest: Option<PathBuf>,
        #[arg(long = "fill", value_name = "NAME=VALUE")]
        fill: Vec<String>,
        #[arg(long = "read-as", value_name = "RULE[@REV]", value_hint = ValueHint::FilePath)]
        read_as: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

/// Where records come from and how they are read.
#[derive(clap::Args)]
pub struct RecordsArgs {
    #[arg(long)]
    pub fixtures: PathBuf,
    /// The replay manifest: the defaults a missing field is filled with.
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// One default, over the manifest's (`--fill weight=5`).
    #[arg(long = "fill", value_name = "NAME=VALUE")]
    pub fill: Vec<String>,
    /// Read every number at the steps and units of this version (`rules/x.rule@v1`).
    #[arg(long = "read-as", value_name = "RULE[@REV]", value_hint = ValueHint::FilePath)]
    pub read_as: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TemplateKind {
    Python,
    Go,
    /// A legacy implementation that is a Connect service: a client between the JSON Lines.
    ConnectPython,
}

impl Command {
    /// The allowance of steps the command gives each rule (`--steps`), for a command that
    /// takes one; every other command works with the default.
    pub fn steps(&self) -> u64 {
        match self {
            Command::Check { steps, .. }
            | Command::Gen { steps, .. }
            | Command::Lock { steps, .. }
            | Command::Graph { steps, .. }
            | Command::Doc { steps, .. }
            | Command::Diff { steps, .. } => *steps,
            _ => crate::analysis::work::DEFAULT_STEPS,
        }
    }
}
