//! `rulec lsp`: the Language Server Protocol over stdio. Every answer comes from the library
//! the CLI calls: `check_text` for diagnostics (the proofs, the witnesses, the fixes),
//! `syntax::fmt` for formatting, the reference evaluator for the code lenses.
//!
//! Checks run on a worker thread, so the main loop keeps reading while a large table is
//! proven. An edit is checked once no newer edit came for `DEBOUNCE`; a check of a version
//! an edit has superseded is dropped before it runs, and its result is dropped if a newer
//! version came while it ran (the last edit wins). Requests are answered from the snapshot
//! of the current version (`ContentModified` while it is being checked), formatting and the
//! outline from the text itself.

mod convert;
mod features;
mod index;

use crate::check::Checked;
use crate::source::Sources;
use index::Index;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use convert::{path_to_uri, uri_to_path};

/// How long an edit waits for the next one before it is checked.
pub const DEBOUNCE: Duration = Duration::from_millis(15);
/// The longest a stream of edits delays a check.
const MOST_DELAY: Duration = Duration::from_millis(200);

/// One checked version of an open file.
pub struct Snapshot {
    version: i32,
    text: Arc<str>,
    sources: Sources,
    checked: Checked,
    index: Index,
}

struct Doc {
    version: i32,
    text: Arc<str>,
    path: PathBuf,
}

struct Job {
    uri: lsp::Uri,
    version: i32,
    text: Arc<str>,
    path: PathBuf,
    /// Every other open file: read in place of the file on disk.
    unsaved: Vec<(PathBuf, Arc<str>)>,
}

#[derive(Default)]
struct Shared {
    /// The newest version of each open file.
    newest: Mutex<HashMap<lsp::Uri, i32>>,
    snapshots: Mutex<HashMap<lsp::Uri, Arc<Snapshot>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::FULL)),
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        code_lens_provider: Some(lsp::CodeLensOptions { resolve_provider: Some(false) }),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        semantic_tokens_provider: Some(lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp::SemanticTokensOptions {
                legend: lsp::SemanticTokensLegend {
                    token_types: features::TOKEN_TYPES.to_vec(),
                    token_modifiers: features::TOKEN_MODIFIERS.to_vec(),
                },
                full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        ..Default::default()
    }
}

/// Serve on standard input and output until the editor says `exit`. `root`: `--root`.
pub fn run(root: Option<PathBuf>) -> Result<u8, String> {
    let (connection, io) = Connection::stdio();
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| format!("rulec lsp: {e}"))?;
    let shared = Arc::new(Shared::default());
    let (jobs, queue) = mpsc::channel::<Job>();
    let worker = {
        let (shared, sender, root) = (shared.clone(), connection.sender.clone(), root.clone());
        std::thread::spawn(move || check_loop(&queue, &shared, &sender, root.as_deref()))
    };
    let mut server = Server { connection: &connection, shared, jobs, docs: HashMap::new() };
    let served = server.serve();
    drop(server);
    worker.join().map_err(|_| "rulec lsp: the checking thread stopped".to_string())?;
    drop(connection);
    io.join().map_err(|e| format!("rulec lsp: {e}"))?;
    served.map(|()| 0)
}

struct Server<'c> {
    connection: &'c Connection,
    shared: Arc<Shared>,
    jobs: mpsc::Sender<Job>,
    docs: HashMap<lsp::Uri, Doc>,
}

impl Server<'_> {
    fn serve(&mut self) -> Result<(), String> {
        for msg in &self.connection.receiver {
            match msg {
                Message::Request(req) => {
                    if self.connection.handle_shutdown(&req).map_err(|e| format!("rulec lsp: {e}"))? {
                        return Ok(());
                    }
                    let resp = self.request(req);
                    self.send(resp.into());
                }
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn send(&self, msg: Message) {
        // The writer is gone only when the editor is: the loop then ends on its own.
        let _ = self.connection.sender.send(msg);
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification::{DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument};
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.changed(d.uri, d.version, d.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params) {
                    // Full sync: the last change holds the whole text.
                    if let Some(c) = p.content_changes.into_iter().last() {
                        self.changed(p.text_document.uri, p.text_document.version, c.text);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    if let Some(doc) = self.docs.remove(&uri) {
                        lock(&self.shared.newest).remove(&uri);
                        lock(&self.shared.snapshots).remove(&uri);
                        self.recheck_users(&doc.path);
                        self.publish_empty(uri);
                    }
                }
            }
            _ => {}
        }
    }

    fn publish_empty(&self, uri: lsp::Uri) {
        let params = lsp::PublishDiagnosticsParams { uri, diagnostics: Vec::new(), version: None };
        self.send(Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params).into());
    }

    fn changed(&mut self, uri: lsp::Uri, version: i32, text: String) {
        let path = uri_to_path(&uri).unwrap_or_else(|| PathBuf::from("untitled.rule"));
        let path = crate::source::lexical_absolute(&path);
        lock(&self.shared.newest).insert(uri.clone(), version);
        self.docs.insert(uri.clone(), Doc { version, text: text.into(), path: path.clone() });
        self.queue(&uri);
        self.recheck_users(&path);
    }

    /// Check again every open file whose last check read the file at `path`.
    fn recheck_users(&self, path: &std::path::Path) {
        let users: Vec<lsp::Uri> = lock(&self.shared.snapshots)
            .iter()
            .filter(|(_, s)| {
                s.checked.uses.iter().any(|&f| crate::source::lexical_absolute(&s.sources.get(f).path) == path)
            })
            .map(|(u, _)| u.clone())
            .collect();
        for u in users {
            self.queue(&u);
        }
    }

    fn queue(&self, uri: &lsp::Uri) {
        let Some(doc) = self.docs.get(uri) else { return };
        let unsaved =
            self.docs.iter().filter(|(u, _)| *u != uri).map(|(_, d)| (d.path.clone(), d.text.clone())).collect();
        let job =
            Job { uri: uri.clone(), version: doc.version, text: doc.text.clone(), path: doc.path.clone(), unsaved };
        let _ = self.jobs.send(job);
    }

    /// The snapshot of the file's current version.
    fn current(&self, uri: &lsp::Uri) -> Result<Arc<Snapshot>, (ErrorCode, String)> {
        let doc = self.docs.get(uri).ok_or((ErrorCode::InvalidParams, "the file is not open".to_string()))?;
        match lock(&self.shared.snapshots).get(uri) {
            Some(s) if s.version == doc.version && s.text == doc.text => Ok(s.clone()),
            _ => Err((ErrorCode::ContentModified, "the file is being checked".to_string())),
        }
    }

    fn request(&self, req: Request) -> Response {
        use lsp::request::*;
        let id = req.id.clone();
        let answer = match req.method.as_str() {
            HoverRequest::METHOD => self.at::<lsp::HoverParams, _>(
                req,
                |p| &p.text_document_position_params,
                |s, p| Ok(s.hover(p.text_document_position_params.position)),
            ),
            GotoDefinition::METHOD => self.at::<lsp::GotoDefinitionParams, _>(
                req,
                |p| &p.text_document_position_params,
                |s, p| {
                    Ok(s.definition(p.text_document_position_params.position).map(lsp::GotoDefinitionResponse::Scalar))
                },
            ),
            References::METHOD => self.at::<lsp::ReferenceParams, _>(
                req,
                |p| &p.text_document_position,
                |s, p| Ok(s.references(p.text_document_position.position, p.context.include_declaration)),
            ),
            PrepareRenameRequest::METHOD => self.at::<lsp::TextDocumentPositionParams, _>(
                req,
                |p| p,
                |s, p| Ok(s.prepare_rename(p.position).map(lsp::PrepareRenameResponse::Range)),
            ),
            Rename::METHOD => self.at::<lsp::RenameParams, _>(
                req,
                |p| &p.text_document_position,
                |s, p| {
                    s.rename(p.text_document_position.position, &p.new_name).map_err(|e| (ErrorCode::InvalidParams, e))
                },
            ),
            CodeActionRequest::METHOD => self.on::<lsp::CodeActionParams, _>(
                req,
                |p| &p.text_document,
                |s, p| Ok(Some(s.code_actions(&p.text_document.uri, p.range))),
            ),
            InlayHintRequest::METHOD => {
                self.on::<lsp::InlayHintParams, _>(req, |p| &p.text_document, |s, p| Ok(Some(s.inlay_hints(p.range))))
            }
            CodeLensRequest::METHOD => {
                self.on::<lsp::CodeLensParams, _>(req, |p| &p.text_document, |s, _| Ok(Some(s.code_lenses())))
            }
            SemanticTokensFullRequest::METHOD => self.on::<lsp::SemanticTokensParams, _>(
                req,
                |p| &p.text_document,
                |s, _| Ok(Some(lsp::SemanticTokensResult::Tokens(s.semantic_tokens()))),
            ),
            Formatting::METHOD => self.text::<lsp::DocumentFormattingParams, _>(
                req,
                |p| &p.text_document,
                |f, _| Ok(features::formatting(f)),
            ),
            DocumentSymbolRequest::METHOD => self.text::<lsp::DocumentSymbolParams, _>(
                req,
                |p| &p.text_document,
                |f, _| Ok(Some(lsp::DocumentSymbolResponse::Nested(features::document_symbols(f)))),
            ),
            _ => Err((ErrorCode::MethodNotFound, format!("rulec lsp does not answer {}", req.method))),
        };
        match answer {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// A request about a file, answered from its current snapshot.
    fn on<P, R>(
        &self,
        req: Request,
        doc: impl Fn(&P) -> &lsp::TextDocumentIdentifier,
        answer: impl Fn(&Snapshot, &P) -> Result<Option<R>, (ErrorCode, String)>,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        let params: P = params(req)?;
        let snapshot = self.current(&doc(&params).uri)?;
        let result = answer(&snapshot, &params)?;
        Ok(serde_json::to_value(result).unwrap_or_default())
    }

    fn at<P, R>(
        &self,
        req: Request,
        doc: impl Fn(&P) -> &lsp::TextDocumentPositionParams,
        answer: impl Fn(&Snapshot, &P) -> Result<Option<R>, (ErrorCode, String)>,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        self.on(req, |p| &doc(p).text_document, answer)
    }

    /// A request answered from the file's current text alone.
    fn text<P, R>(
        &self,
        req: Request,
        doc: impl Fn(&P) -> &lsp::TextDocumentIdentifier,
        answer: impl Fn(&crate::source::SourceFile, &P) -> Result<Option<R>, (ErrorCode, String)>,
    ) -> Result<serde_json::Value, (ErrorCode, String)>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        let params: P = params(req)?;
        let d =
            self.docs.get(&doc(&params).uri).ok_or((ErrorCode::InvalidParams, "the file is not open".to_string()))?;
        let file =
            crate::source::SourceFile::new(&d.path, d.text.as_bytes()).map_err(|e| (ErrorCode::InvalidParams, e))?;
        let result = answer(&file, &params)?;
        Ok(serde_json::to_value(result).unwrap_or_default())
    }
}

fn params<P: serde::de::DeserializeOwned>(req: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(req.params).map_err(|e| (ErrorCode::InvalidParams, format!("{}: {e}", req.method)))
}

/// The worker: take the jobs, keep the newest of each file, check each once the edits
/// pause, publish what is still current.
fn check_loop(
    queue: &mpsc::Receiver<Job>,
    shared: &Shared,
    sender: &crossbeam_channel::Sender<Message>,
    root: Option<&std::path::Path>,
) {
    while let Ok(first) = queue.recv() {
        let started = Instant::now();
        let mut pending: BTreeMap<String, Job> = BTreeMap::new();
        pending.insert(first.uri.as_str().to_string(), first);
        loop {
            let wait = DEBOUNCE.min(MOST_DELAY.saturating_sub(started.elapsed()));
            match queue.recv_timeout(wait) {
                Ok(job) => {
                    pending.insert(job.uri.as_str().to_string(), job);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
        for job in pending.into_values() {
            let current = |shared: &Shared| lock(&shared.newest).get(&job.uri) == Some(&job.version);
            if !current(shared) {
                continue;
            }
            let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&job, root)));
            let Ok(snapshot) = checked.map(Arc::new) else {
                // A bug in rulec, not in the rule: said on the file, and the server goes on.
                let d = lsp::Diagnostic {
                    severity: Some(lsp::DiagnosticSeverity::ERROR),
                    source: Some("rulec".into()),
                    message: "rulec lsp could not check this version: an internal error (its message is on the server's standard error); please report it".into(),
                    ..lsp::Diagnostic::default()
                };
                let params =
                    lsp::PublishDiagnosticsParams { uri: job.uri, diagnostics: vec![d], version: Some(job.version) };
                let _ =
                    sender.send(Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params).into());
                continue;
            };
            if !current(shared) {
                continue;
            }
            let diagnostics = snapshot.diagnostics();
            lock(&shared.snapshots).insert(job.uri.clone(), snapshot);
            let params = lsp::PublishDiagnosticsParams { uri: job.uri, diagnostics, version: Some(job.version) };
            let _ = sender.send(Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params).into());
        }
    }
}

fn check(job: &Job, root: Option<&std::path::Path>) -> Snapshot {
    let mut sources = match root {
        Some(r) => Sources::new().with_root(r),
        None => Sources::new(),
    };
    for (path, text) in &job.unsaved {
        sources = sources.with_unsaved(path, text);
    }
    let shown = job.path.to_string_lossy().into_owned();
    let checked = crate::check_text(&mut sources, &shown, &job.text, &crate::analysis::Options::default());
    let index = Index::build(&sources, checked.file, &checked.uses);
    Snapshot { version: job.version, text: job.text.clone(), sources, checked, index }
}
