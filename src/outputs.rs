//! Every file `rulec gen` writes for a rule: each language's code and servers, the page for
//! people, and the boundary vectors. Above both `gen` and `doc`, since the page embeds the
//! generated JavaScript; every door that writes a rule's files calls this.

use crate::doc;
use crate::gen::{self, File, Lang, Unit};

/// Every file `rulec gen` writes for one rule, paths relative to the output folder: each
/// language's under its name, and the boundary suite under `vectors/`.
pub fn of_rule(u: &Unit, langs: &[Lang]) -> Vec<File> {
    files(u, langs, true)
}

/// The same without the servers and the pages beside them: each language's module and
/// runner, the JavaScript page, the vectors (`rulec gen --no-servers`, what a build system
/// that predeclares its outputs asks for).
pub fn without_servers(u: &Unit, langs: &[Lang]) -> Vec<File> {
    files(u, langs, false)
}

/// The languages of `targets` that left the rule out (`Backend::refuses`), each with its
/// reason, as `vectors/<alias>.left-out.json`: `rulec test` reports them by name rather than
/// looking for a module that was never written. None when every target writes the rule.
pub fn left_out(u: &Unit, targets: &[Lang]) -> Option<File> {
    let mut why = serde_json::Map::new();
    for &lang in targets {
        if let Some(reason) = gen::backend(lang).refuses(&u.plan) {
            why.insert(lang.name().to_string(), serde_json::Value::String(reason));
        }
    }
    (!why.is_empty()).then(|| File {
        path: format!("vectors/{}.{LEFT_OUT}", u.program.ident()),
        text: serde_json::Value::Object(why).to_string() + "\n",
    })
}

/// The suffix of the file naming the languages that left a rule out.
pub const LEFT_OUT: &str = "left-out.json";

fn files(u: &Unit, langs: &[Lang], servers: bool) -> Vec<File> {
    let mut out = Vec::new();
    let caller_keeps = crate::graph::caller_keeps(u.program, &u.analysis.diagnostics);
    let input_schema =
        crate::schema::schema(u.program, crate::schema::Keys::Name, &caller_keeps)["properties"]["in"].clone();
    for &lang in langs {
        for f in gen::backend(lang).generate(u) {
            out.push(File { path: format!("{}/{}", lang.name(), f.path), text: f.text });
        }
        if servers {
            for f in gen::serve::files(u, lang, &input_schema) {
                out.push(File { path: format!("{}/{}", lang.name(), f.path), text: f.text });
            }
        }
        // The page runs the generated JavaScript: none where JavaScript leaves the rule out.
        let page = gen::backend(Lang::JavaScript).refuses(&u.plan).is_none();
        if lang == Lang::JavaScript {
            out.push(doc::page_file(u));
        } else if servers && page && gen::serve::serves(lang) {
            // The page the server offers as its tool's view, beside it (the JavaScript one's bytes).
            let page = doc::page_file(u);
            out.push(File { path: format!("{}/{}", lang.name(), gen::serve::page_name(u)), text: page.text });
        }
        if servers && lang == Lang::Python && gen::serve::connects(u) {
            out.extend(gen::serve::proto_files(u));
        }
    }
    out.extend(gen::helper_vectors().iter().cloned());
    let p = u.program;
    let suite = u.suite();
    // A rule that walks a sequence has calls with no answer to expect (two elements taking
    // under take_unique): they go to a file of their own, written only when there are any.
    let refused = |v: &&crate::vectors::Vector| {
        p.walks_sequences() && matches!(v.answer, crate::vectors::Answer::Contradiction(_))
    };
    let lines = |f: &dyn Fn(&crate::vectors::Vector) -> String| -> String {
        suite.vectors.iter().filter(|v| !refused(v)).map(|v| f(v) + "\n").collect()
    };
    out.push(File { path: format!("vectors/{}.jsonl", p.ident()), text: lines(&|v| v.line(p)) });
    out.push(File { path: format!("vectors/{}.expected.jsonl", p.ident()), text: lines(&|v| v.expected(p)) });
    let contradictions: String = suite.vectors.iter().filter(refused).map(|v| v.line(p) + "\n").collect();
    if !contradictions.is_empty() {
        out.push(File { path: format!("vectors/{}.refused.jsonl", p.ident()), text: contradictions });
    }
    out
}
