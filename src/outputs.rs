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

fn files(u: &Unit, langs: &[Lang], servers: bool) -> Vec<File> {
    let mut out = Vec::new();
    let input_schema = crate::schema::schema(u.program, crate::schema::Keys::Name)["properties"]["in"].clone();
    for &lang in langs {
        for f in gen::backend(lang).generate(u) {
            out.push(File { path: format!("{}/{}", lang.name(), f.path), text: f.text });
        }
        if servers {
            for f in gen::serve::files(u, lang, &input_schema) {
                out.push(File { path: format!("{}/{}", lang.name(), f.path), text: f.text });
            }
        }
        if lang == Lang::JavaScript {
            out.push(doc::page_file(u));
        } else if servers && gen::serve::serves(lang) {
            // The page the server offers as its tool's view, beside it (the JavaScript one's bytes).
            let page = doc::page_file(u);
            out.push(File { path: format!("{}/{}", lang.name(), gen::serve::page_name(u)), text: page.text });
        }
        if servers && lang == Lang::Python {
            out.extend(gen::serve::proto_files(u));
        }
    }
    out.extend(gen::helper_vectors().iter().cloned());
    let p = u.program;
    let suite = u.suite();
    let lines = |f: &dyn Fn(&crate::vectors::Vector) -> String| -> String {
        suite.vectors.iter().map(|v| f(v) + "\n").collect()
    };
    out.push(File { path: format!("vectors/{}.jsonl", p.ident()), text: lines(&|v| v.line(p)) });
    out.push(File { path: format!("vectors/{}.expected.jsonl", p.ident()), text: lines(&|v| v.expected(p)) });
    out
}
