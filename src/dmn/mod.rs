//! `rulec import dmn`: a DMN 1.3 model's decision tables — with the decisions and business
//! knowledge models that feed them — as one `.rule`, or a refusal naming the element, its
//! line and why. The text is built here, then parsed and printed by `syntax::fmt`, so what
//! is written is canonical by construction. docs/dmn.md gives the mapping and its reasons.

pub mod feel;

use crate::num::{int, Rat};
use crate::syntax::fmt::string_lit;
use feel::{Cell, Lit, Operand, Test};
use num_traits::{Signed, Zero};
use roxmltree::{Document, Node};
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Why a model (or one element of it) cannot be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The element's tag (`inputEntry`, `decision`, …).
    pub element: String,
    /// Its `id` (or `name` when it has no id).
    pub id: String,
    pub line: u32,
    pub why: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} `{}`: {}", self.line, self.element, self.id, self.why)
    }
}

fn refuse(n: Node, why: impl Into<String>) -> Refusal {
    let line = n.document().text_pos_at(n.range().start).row;
    // An element without an id is named by the nearest element around it that has one.
    let named = n.ancestors().find(|a| a.attribute("id").or_else(|| a.attribute("name")).is_some());
    let id = named.and_then(|a| a.attribute("id").or_else(|| a.attribute("name"))).unwrap_or("").to_string();
    let mut element = n.tag_name().name().to_string();
    if let Some(a) = named.filter(|a| *a != n) {
        element = format!("{element} in {}", a.tag_name().name());
    }
    Refusal { element, id, line, why: why.into() }
}

/// Imports a model: every decision, or with `decision` that one and the decisions it requires.
/// `findings` gives what the checker finds in a rule's text, as (table, code) pairs: where it
/// finds a gap (E101) and nothing else in a single-hit or aggregate table, DMN answers null
/// where no rule holds, and so does the rule (docs/dmn.md).
pub fn import(
    text: &str,
    decision: Option<&str>,
    findings: &dyn Fn(&str) -> Vec<(String, String)>,
) -> Result<String, Refusal> {
    let doc = Document::parse(text).map_err(|e| Refusal {
        element: "document".into(),
        id: String::new(),
        line: e.pos().row,
        why: format!("not XML: {e}"),
    })?;
    let mut m = Model::new(&doc)?;
    m.select(decision)?;
    m.decisions()?;
    m.settle()?;
    let used = m.used.clone();
    let mut rule = m.emit().and_then(|t| canonical(&doc, &t))?;
    let mut found = findings(&rule);
    // A table downstream of one that may now answer null may find a gap of its own.
    for _ in 0..m.tables.len() {
        let gapped: Vec<String> = found.iter().filter(|(_, c)| c == "E101").map(|(t, _)| t.clone()).collect();
        let mut changed = false;
        for t in gapped {
            let alone = found.iter().all(|(u, c)| *u != t || c == "E101");
            changed |= alone && m.answer_null(&t);
        }
        if !changed {
            break;
        }
        m.used = used.clone();
        // A null this rule cannot state (a text that does not parse), or one that brings an
        // error of another kind: the rule without it, whose gap the checker names.
        let Ok(next) = m.emit().and_then(|t| canonical(&doc, &t)) else { break };
        let next_found = findings(&next);
        if next_found.iter().any(|f| f.1.starts_with('E') && f.1 != "E101" && !found.contains(f)) {
            break;
        }
        (rule, found) = (next, next_found);
    }
    Ok(rule)
}

/// The rule's text parsed and printed by `rulec fmt`'s printer.
fn canonical(doc: &Document, text: &str) -> Result<String, Refusal> {
    let parsed = crate::syntax::parse(text, crate::source::FileId(0));
    match (&parsed.file, parsed.diags.iter().find(|d| d.is_error())) {
        (Some(f), None) => Ok(crate::syntax::fmt::format_file(f)),
        (_, first) => Err(Refusal {
            element: "definitions".into(),
            id: doc.root_element().attribute("id").unwrap_or("").into(),
            line: 1,
            why: format!(
                "the .rule this model needs does not parse in this build of rulec: {}",
                first.map(|d| d.message.clone()).unwrap_or_default()
            ),
        }),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Num,
    Str,
    Bool,
    Date,
}

#[derive(Default)]
struct Var {
    /// Its DMN name (a table's own output: `Decision.output`).
    dmn: String,
    ident: String,
    input: bool,
    base: Option<Base>,
    /// The members when the strings are an enum (inputValues, outputValues, allowedValues).
    members: Vec<String>,
    /// Every string literal written for it.
    strings: BTreeSet<String>,
    optional: bool,
    nums: Vec<Rat>,
    /// The years of its date literals.
    years: Vec<i64>,
    /// Fraction digits its numbers need: 0 is an `int`.
    scale: u32,
    range: Option<(Rat, Rat)>,
    /// What a multi-hit table makes of it.
    list: bool,
    count: bool,
    default: Option<Lit>,
    /// Where it comes from, for the comment beside its declaration.
    origin: String,
}

struct Row {
    cells: Vec<Cell>,
    outs: Vec<Operand>,
    id: String,
    /// The default row of a table that is not `first`: it holds when no other row does.
    guard: bool,
}

struct Table {
    name: String,
    policy: &'static str,
    id: String,
    cols: Vec<usize>,
    results: Vec<usize>,
    rows: Vec<Row>,
    /// Under `priority` and `output_order`, the results that list no values (DMN ranks by the others).
    unranked: Vec<usize>,
}

struct Model<'a, 'i> {
    doc: &'a Document<'i>,
    inputs: HashMap<String, Node<'a, 'i>>,
    decisions: Vec<Node<'a, 'i>>,
    bkms: HashMap<String, Node<'a, 'i>>,
    items: HashMap<String, Node<'a, 'i>>,
    vars: Vec<Var>,
    by_name: HashMap<String, usize>,
    tables: Vec<Table>,
    /// (column, other): a test of the column reads the other; they share a scale.
    links: Vec<(usize, usize)>,
    used: BTreeSet<String>,
}

fn kids<'a, 'i>(n: Node<'a, 'i>, tag: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    n.children().filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

fn kid<'a, 'i>(n: Node<'a, 'i>, tag: &'static str) -> Option<Node<'a, 'i>> {
    kids(n, tag).next()
}

fn text_of(n: Node) -> String {
    kid(n, "text").and_then(|t| t.text()).unwrap_or("").trim().to_string()
}

/// A DMN name as a .rule name: letters, digits and `_`; never a keyword.
fn ident(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out = out.trim_matches('_').to_string();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out = format!("v_{out}");
    }
    if crate::syntax::lexer::is_keyword(&out) {
        out.push('_');
    }
    out
}

const TYPE_WORDS: [&str; 9] = ["bool", "int", "date", "string", "money", "mass", "length", "duration", "rate"];

impl<'a, 'i> Model<'a, 'i> {
    fn new(doc: &'a Document<'i>) -> Result<Self, Refusal> {
        let root = doc.root_element();
        if root.tag_name().name() != "definitions" {
            return Err(refuse(root, "not a DMN model: the root element is not `definitions`"));
        }
        let mut m = Model {
            doc,
            inputs: HashMap::new(),
            decisions: Vec::new(),
            bkms: HashMap::new(),
            items: HashMap::new(),
            vars: Vec::new(),
            by_name: HashMap::new(),
            tables: Vec::new(),
            links: Vec::new(),
            used: BTreeSet::new(),
        };
        for n in root.children().filter(Node::is_element) {
            let name = n.attribute("name").unwrap_or("").to_string();
            match n.tag_name().name() {
                "inputData" => drop(m.inputs.insert(name, n)),
                "decision" => m.decisions.push(n),
                "businessKnowledgeModel" => drop(m.bkms.insert(name, n)),
                "itemDefinition" => drop(m.items.insert(name, n)),
                _ => {}
            }
        }
        Ok(m)
    }

    /// Keeps the named decision and those it requires, or every decision.
    fn select(&mut self, decision: Option<&str>) -> Result<(), Refusal> {
        let Some(want) = decision else { return Ok(()) };
        let Some(&start) = self.decisions.iter().find(|d| d.attribute("name") == Some(want)) else {
            return Err(refuse(self.doc.root_element(), format!("the model has no decision named `{want}`")));
        };
        let mut keep = vec![start];
        let mut i = 0;
        while i < keep.len() {
            for req in kids(keep[i], "informationRequirement").flat_map(|r| kids(r, "requiredDecision")) {
                let href = req.attribute("href").unwrap_or("");
                let id = href.rsplit('#').next().unwrap_or(href);
                match self.decisions.iter().find(|d| d.attribute("id") == Some(id)) {
                    Some(d) if !keep.contains(d) => keep.push(*d),
                    Some(_) => {}
                    None => return Err(refuse(req, format!("no decision has the id `{id}` it requires"))),
                }
            }
            i += 1;
        }
        self.decisions.retain(|d| keep.contains(d));
        Ok(())
    }

    fn fresh(&mut self, want: String) -> String {
        let mut name = want.clone();
        let mut k = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{want}_{k}");
            k += 1;
        }
        name
    }

    fn var(&mut self, dmn: &str, input: bool, origin: String) -> usize {
        if let Some(&v) = self.by_name.get(dmn) {
            return v;
        }
        let ident = self.fresh(ident(dmn));
        self.vars.push(Var { dmn: dmn.to_string(), ident, input, origin, ..Var::default() });
        self.by_name.insert(dmn.to_string(), self.vars.len() - 1);
        self.vars.len() - 1
    }

    /// A FEEL type reference: its base, and the members its allowed values list.
    fn type_ref(&mut self, at: Node, v: usize, type_ref: Option<&str>) -> Result<(), Refusal> {
        self.type_ref_in(at, v, type_ref, 0, false)
    }

    /// `depth` counts item definitions followed: ones that refer to each other in a loop end.
    /// `list`: the type is that of a C, R or O table's result, a collection of its values
    /// (a `list[T]`), so a collection of a simple type is its element's type.
    fn type_ref_in(
        &mut self,
        at: Node,
        v: usize,
        type_ref: Option<&str>,
        depth: u32,
        list: bool,
    ) -> Result<(), Refusal> {
        let Some(t) = type_ref else { return Ok(()) };
        if depth > 64 {
            return Err(refuse(at, "item definitions that refer to each other in a loop"));
        }
        let t = t.strip_prefix("feel:").unwrap_or(t);
        let base = match t {
            "number" => Base::Num,
            "string" => Base::Str,
            "boolean" => Base::Bool,
            "date" => Base::Date,
            "Any" | "any" => return Ok(()),
            _ => {
                let Some(&item) = self.items.get(t) else {
                    return Err(refuse(at, format!("the type `{t}` has no .rule counterpart")));
                };
                if kid(item, "itemComponent").is_some() {
                    return Err(refuse(item, "a structured type has no .rule counterpart"));
                }
                if item.attribute("isCollection") == Some("true") && !list {
                    return Err(refuse(
                        item,
                        "a collection type has no .rule counterpart here (only as the result of a C, R or O table: its list)",
                    ));
                }
                if let Some(allowed) = kid(item, "allowedValues") {
                    self.values(allowed, v)?;
                }
                let inner = kid(item, "typeRef").and_then(|n| n.text()).map(str::trim).map(String::from);
                return self.type_ref_in(item, v, inner.as_deref(), depth + 1, false);
            }
        };
        self.base(at, v, base)
    }

    fn base(&mut self, at: Node, v: usize, base: Base) -> Result<(), Refusal> {
        match self.vars[v].base {
            Some(b) if b != base => {
                Err(refuse(at, format!("`{}` is read as {:?} here and as {b:?} elsewhere", self.vars[v].ident, base)))
            }
            _ => {
                self.vars[v].base = Some(base);
                Ok(())
            }
        }
    }

    /// `inputValues`, `outputValues`, `allowedValues`: the members of an enum, or a number's range.
    fn values(&mut self, n: Node, v: usize) -> Result<(), Refusal> {
        let tests = match feel::unary_tests(&text_of(n)).map_err(|w| refuse(n, w))? {
            Cell::Any => return Ok(()),
            Cell::Tests { negated: true, .. } => return Err(refuse(n, "a negated list of values")),
            Cell::Tests { tests, .. } => tests,
        };
        for t in tests {
            match t {
                Test::Eq(Operand::Lit(Lit::Str(s))) => {
                    self.base(n, v, Base::Str)?;
                    if !self.vars[v].members.contains(&s) {
                        self.vars[v].members.push(s);
                    }
                }
                Test::Eq(Operand::Lit(Lit::Num(x))) => {
                    self.lit(n, v, &Lit::Num(x.clone()))?;
                    let r = self.vars[v].range.get_or_insert((x.clone(), x.clone()));
                    r.0 = r.0.clone().min(x.clone());
                    r.1 = r.1.clone().max(x);
                }
                Test::Range {
                    lo: Operand::Lit(Lit::Num(lo)),
                    hi: Operand::Lit(Lit::Num(hi)),
                    lo_closed,
                    hi_closed,
                } => {
                    self.lit(n, v, &Lit::Num(lo.clone()))?;
                    self.lit(n, v, &Lit::Num(hi.clone()))?;
                    if !lo_closed || !hi_closed {
                        return Err(refuse(n, "an open end in a range of values: give its last value"));
                    }
                    self.vars[v].range = Some((lo, hi));
                }
                _ => return Err(refuse(n, "values other than strings, numbers and closed number ranges")),
            }
        }
        Ok(())
    }

    /// Notes a literal written for `v`: its base, its digits, whether it is `null`.
    fn lit(&mut self, at: Node, v: usize, l: &Lit) -> Result<(), Refusal> {
        match l {
            Lit::Num(x) => {
                self.base(at, v, Base::Num)?;
                self.vars[v].nums.push(x.clone());
            }
            Lit::Str(s) => {
                self.base(at, v, Base::Str)?;
                self.vars[v].strings.insert(s.clone());
            }
            Lit::Bool(_) => self.base(at, v, Base::Bool)?,
            Lit::Date(d) => {
                self.base(at, v, Base::Date)?;
                self.vars[v].years.extend(d.get(..4).and_then(|y| y.parse::<i64>().ok()));
            }
            Lit::Null => self.vars[v].optional = true,
        }
        Ok(())
    }

    fn operand(&mut self, at: Node, v: usize, o: &Operand, scope: &HashMap<String, usize>) -> Result<Operand, Refusal> {
        match o {
            Operand::Lit(l) => {
                self.lit(at, v, l)?;
                Ok(o.clone())
            }
            Operand::Name(n) => {
                let other = self.resolve(at, n, scope)?;
                self.links.push((v, other));
                Ok(Operand::Name(n.clone()))
            }
        }
    }

    /// A name in an expression: a bound parameter, an input, or a decision of the model.
    fn resolve(&mut self, at: Node, name: &str, scope: &HashMap<String, usize>) -> Result<usize, Refusal> {
        if let Some(&v) = scope.get(name) {
            return Ok(v);
        }
        if let Some(&v) = self.by_name.get(name) {
            return Ok(v);
        }
        if let Some(&n) = self.inputs.get(name) {
            let v = self.var(name, true, format!("inputData {}", n.attribute("id").unwrap_or("")));
            let t = kid(n, "variable").and_then(|x| x.attribute("typeRef"));
            self.type_ref(n, v, t)?;
            return Ok(v);
        }
        // A decision read before its own table: its value, typed when its table is read.
        if let Some(&d) = self.decisions.iter().find(|d| d.attribute("name") == Some(name)) {
            let outputs = d.descendants().filter(|n| n.tag_name().name() == "output").count();
            if outputs > 1 {
                return Err(refuse(
                    at,
                    format!("`{name}` is a decision of several outputs: read one as `{name}.OUTPUT`"),
                ));
            }
            return Ok(self.var(name, false, format!("decision {}", d.attribute("id").unwrap_or(""))));
        }
        let why = if name.contains(['+', '*', '/', '(']) || name.contains(" - ") {
            format!("`{name}` is FEEL beyond unary tests (an expression, not a name of the model)")
        } else if name.contains('.') {
            format!("`{name}` is a path into a structured value, which has no .rule counterpart")
        } else {
            format!("`{name}` names no input data and no decision imported with it")
        };
        Err(refuse(at, why))
    }

    fn decisions(&mut self) -> Result<(), Refusal> {
        let ds = self.decisions.clone();
        for d in ds {
            let name = d.attribute("name").unwrap_or("").to_string();
            let logic = d.children().find(|c| c.is_element() && !NOT_LOGIC.contains(&c.tag_name().name()));
            match logic {
                Some(dt) if dt.tag_name().name() == "decisionTable" => self.table(dt, d, &name, &HashMap::new())?,
                Some(inv) if inv.tag_name().name() == "invocation" => self.invocation(inv, d, &name)?,
                Some(lx) if lx.tag_name().name() == "literalExpression" => self.call(lx, d, &name)?,
                Some(other) => {
                    return Err(refuse(
                        other,
                        format!("a decision's `{}` has no .rule counterpart: only decision tables and invocations of a BKM's decision table import", other.tag_name().name()),
                    ))
                }
                None => return Err(refuse(d, "a decision without logic")),
            }
        }
        Ok(())
    }

    /// A BKM invoked with named bindings: its table, each parameter read as what it is bound to.
    fn invocation(&mut self, inv: Node<'a, 'i>, d: Node<'a, 'i>, name: &str) -> Result<(), Refusal> {
        let callee = kid(inv, "literalExpression").map(text_of).unwrap_or_default();
        let bkm = self.bkm(inv, &callee)?;
        let mut scope = HashMap::new();
        for b in kids(inv, "binding") {
            let param = kid(b, "parameter").and_then(|p| p.attribute("name")).unwrap_or("").to_string();
            let arg = match kid(b, "literalExpression").map(text_of) {
                Some(a) => a,
                None => return Err(refuse(b, "a binding to anything but a name: FEEL beyond unary tests")),
            };
            let v = self.bound(b, &arg)?;
            scope.insert(param, v);
        }
        self.bkm_table(bkm, d, name, scope)
    }

    /// A decision whose literal expression is `BKM(a, b)` with names for arguments.
    fn call(&mut self, lx: Node<'a, 'i>, d: Node<'a, 'i>, name: &str) -> Result<(), Refusal> {
        let text = text_of(lx);
        let beyond = || refuse(lx, format!("`{text}` is FEEL beyond unary tests (only `BKM(name, …)` imports)"));
        let (callee, args) = text.split_once('(').ok_or_else(beyond)?;
        let args = args.trim_end().strip_suffix(')').ok_or_else(beyond)?;
        let bkm = self.bkms.get(callee.trim()).copied().ok_or_else(beyond)?;
        let params: Vec<String> = kid(bkm, "encapsulatedLogic")
            .map(|e| kids(e, "formalParameter").filter_map(|p| p.attribute("name")).map(String::from).collect())
            .unwrap_or_default();
        let args: Vec<&str> = if args.trim().is_empty() { Vec::new() } else { args.split(',').collect() };
        if args.len() != params.len() {
            return Err(refuse(
                lx,
                format!("`{}` takes {} arguments, given {}", callee.trim(), params.len(), args.len()),
            ));
        }
        let mut scope = HashMap::new();
        for (p, a) in params.into_iter().zip(args) {
            let v = self.bound(lx, a.trim())?;
            scope.insert(p, v);
        }
        self.bkm_table(bkm, d, name, scope)
    }

    fn bound(&mut self, at: Node, arg: &str) -> Result<usize, Refusal> {
        match feel::output_entry(arg) {
            Ok(Operand::Name(n)) => self.resolve(at, &n, &HashMap::new()),
            _ => Err(refuse(at, format!("the argument `{arg}` is not a name: FEEL beyond unary tests"))),
        }
    }

    fn bkm(&self, at: Node<'a, 'i>, name: &str) -> Result<Node<'a, 'i>, Refusal> {
        self.bkms
            .get(name)
            .copied()
            .ok_or_else(|| refuse(at, format!("`{name}` is no business knowledge model of the model")))
    }

    fn bkm_table(
        &mut self,
        bkm: Node<'a, 'i>,
        d: Node<'a, 'i>,
        name: &str,
        scope: HashMap<String, usize>,
    ) -> Result<(), Refusal> {
        let logic = kid(bkm, "encapsulatedLogic").ok_or_else(|| refuse(bkm, "a BKM without encapsulated logic"))?;
        for p in kids(logic, "formalParameter") {
            let pname = p.attribute("name").unwrap_or("");
            let Some(&v) = scope.get(pname) else {
                return Err(refuse(p, format!("the parameter `{pname}` is bound to nothing")));
            };
            self.type_ref(p, v, p.attribute("typeRef"))?;
        }
        match kid(logic, "decisionTable") {
            Some(dt) => self.table(dt, d, name, &scope),
            None => Err(refuse(logic, "a BKM's logic other than a decision table: FEEL beyond unary tests")),
        }
    }

    fn table(
        &mut self,
        dt: Node<'a, 'i>,
        d: Node<'a, 'i>,
        name: &str,
        scope: &HashMap<String, usize>,
    ) -> Result<(), Refusal> {
        let policy = policy(dt)?;
        let mut cols = Vec::new();
        for input in kids(dt, "input") {
            let ie = kid(input, "inputExpression").ok_or_else(|| refuse(input, "an input without an expression"))?;
            let expr = text_of(ie);
            let v = match feel::output_entry(&expr) {
                Ok(Operand::Name(n)) => self.resolve(ie, &n, scope)?,
                _ => {
                    return Err(refuse(
                        ie,
                        format!("the input expression `{expr}` is FEEL beyond unary tests (only a name imports)"),
                    ))
                }
            };
            self.type_ref(ie, v, ie.attribute("typeRef"))?;
            if let Some(iv) = kid(input, "inputValues") {
                self.values(iv, v)?;
            }
            cols.push(v);
        }
        let outputs: Vec<Node> = kids(dt, "output").collect();
        let listed = matches!(policy, "collect" | "rule_order" | "output_order");
        let mut results = Vec::new();
        for o in &outputs {
            let v = if outputs.len() == 1 {
                self.var(name, false, format!("decision {}", d.attribute("id").unwrap_or("")))
            } else {
                let oname = o.attribute("name").unwrap_or("");
                self.var(&format!("{name}.{oname}"), false, format!("output {}", o.attribute("id").unwrap_or("")))
            };
            results.push(v);
            // A count is an `int` whatever the rows answer.
            if policy == "collect count" {
                self.vars[v].count = true;
                self.base(*o, v, Base::Num)?;
                continue;
            }
            if outputs.len() == 1 {
                let t = kid(d, "variable").and_then(|x| x.attribute("typeRef"));
                self.type_ref_in(d, v, t, 0, listed)?;
            }
            self.type_ref(*o, v, o.attribute("typeRef"))?;
            if let Some(ov) = kid(*o, "outputValues") {
                self.values(ov, v)?;
            }
        }
        if results.is_empty() {
            return Err(refuse(dt, "a decision table without an output"));
        }
        let multi = !matches!(policy, "unique" | "first" | "any" | "priority");
        if multi && !listed && results.len() > 1 {
            return Err(refuse(
                dt,
                format!("a `{policy}` table with more than one output: an aggregate decides one value"),
            ));
        }
        let ranked = matches!(policy, "priority" | "output_order");
        // The outputs that list no values: DMN ranks by the others.
        let unranked: Vec<usize> =
            (0..results.len()).filter(|&k| ranked && self.vars[results[k]].members.is_empty()).collect();
        if !unranked.is_empty() && unranked.len() == results.len() {
            return Err(refuse(
                outputs[0],
                format!("a `{policy}` table ranks by outputValues, and no output lists any"),
            ));
        }
        // A C, R or O table with several outputs answers a list of contexts: one list per
        // output, each row that holds adding its value to each (parallel lists).
        for &v in &results {
            self.vars[v].list = listed;
        }
        let mut rows = Vec::new();
        for r in kids(dt, "rule") {
            let entries: Vec<Node> = kids(r, "inputEntry").collect();
            let outs: Vec<Node> = kids(r, "outputEntry").collect();
            if entries.len() != cols.len() || outs.len() != results.len() {
                return Err(refuse(r, "a rule whose entries do not match the table's columns"));
            }
            let mut cells = Vec::new();
            for (e, &v) in entries.iter().zip(&cols) {
                let cell = feel::unary_tests(&text_of(*e)).map_err(|w| refuse(*e, w))?;
                if let Cell::Tests { tests, .. } = &cell {
                    for t in tests {
                        match t {
                            Test::Eq(o) | Test::Cmp(_, o) => drop(self.operand(*e, v, o, scope)?),
                            Test::Range { lo, hi, .. } => {
                                self.operand(*e, v, lo, scope)?;
                                self.operand(*e, v, hi, scope)?;
                            }
                        }
                    }
                }
                cells.push(scoped(cell, scope, &self.vars));
            }
            let mut row_outs = Vec::new();
            for (e, &v) in outs.iter().zip(&results) {
                let o = feel::output_entry(&text_of(*e)).map_err(|w| refuse(*e, w))?;
                if multi && o == Operand::Lit(Lit::Null) {
                    return Err(refuse(*e, format!("a `{policy}` row that answers null: rulec counts only values")));
                }
                if !self.vars[v].count {
                    self.operand(*e, v, &o, scope)?;
                }
                row_outs.push(rename(o, scope, &self.vars));
            }
            rows.push(Row { cells, outs: row_outs, id: r.attribute("id").unwrap_or("").to_string(), guard: false });
        }
        if !unranked.is_empty() {
            self.unranked(&outputs, &results, &rows, &unranked, policy)?;
        }
        let mut defaults = Vec::new();
        for (o, &v) in outputs.iter().zip(&results) {
            let Some(def) = kid(*o, "defaultOutputEntry") else {
                defaults.push((*o, Lit::Null));
                continue;
            };
            match feel::output_entry(&text_of(def)).map_err(|w| refuse(def, w))? {
                Operand::Lit(l) => {
                    self.lit(def, v, &l)?;
                    defaults.push((def, l));
                }
                Operand::Name(_) => return Err(refuse(def, "a default output that is not a literal")),
            }
        }
        if defaults.iter().any(|(_, l)| *l != Lit::Null) {
            let at = defaults.iter().find(|(_, l)| *l != Lit::Null).map(|(n, _)| *n).unwrap_or(dt);
            let outs: Vec<Operand> = defaults.iter().map(|(_, l)| Operand::Lit(l.clone())).collect();
            for (&v, (_, l)) in results.iter().zip(&defaults) {
                self.lit(at, v, l)?;
            }
            let cells: Vec<Cell> = cols.iter().map(|_| Cell::Any).collect();
            match policy {
                // The catch-all last row is DMN's default under `first`.
                "first" => rows.push(Row { cells, outs, id: "default".into(), guard: false }),
                // Elsewhere the default row holds exactly when no other row does.
                "unique" | "any" | "priority" => rows.push(Row { cells, outs, id: "default".into(), guard: true }),
                "collect sum" | "collect min" | "collect max" => {
                    self.vars[results[0]].default = Some(defaults[0].1.clone())
                }
                _ => {
                    return Err(refuse(
                        at,
                        format!("a default output under `{policy}`: DMN does not say whether no rule holding answers the default or a list of it, and a count has none"),
                    ))
                }
            }
        }
        let tname = self.fresh(format!("{}_table", ident(name)));
        let id = dt.attribute("id").or_else(|| d.attribute("id")).unwrap_or("").to_string();
        self.tables.push(Table { name: tname, policy, id, cols, results, rows, unranked });
        Ok(())
    }

    /// An output of a `priority` or `output_order` table that lists no values: DMN ranks
    /// the rows by the outputs that do, and rulec by every output in turn. It imports as an
    /// enum of the strings the rows answer, in the order written, when that order never
    /// decides: no two rules whose answers first differ in it can hold together (proved
    /// from their literal cells), so the ranking is DMN's whatever the members' order.
    fn unranked(
        &mut self,
        outputs: &[Node],
        results: &[usize],
        rows: &[Row],
        unranked: &[usize],
        policy: &str,
    ) -> Result<(), Refusal> {
        let mut members: Vec<Vec<String>> = vec![Vec::new(); results.len()];
        for &k in unranked {
            for row in rows {
                let Operand::Lit(Lit::Str(s)) = &row.outs[k] else {
                    return Err(refuse(
                        outputs[k],
                        format!("a `{policy}` table ranks by outputValues; this output lists none, and only a string output without them can stand beside the ranked ones"),
                    ));
                };
                if !members[k].contains(s) {
                    members[k].push(s.clone());
                }
            }
        }
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                let first = (0..results.len()).find(|&k| a.outs[k] != b.outs[k]);
                if first.is_some_and(|k| unranked.contains(&k)) && !apart(a, b) {
                    return Err(refuse(
                        outputs[first.unwrap_or(0)],
                        format!(
                            "a `{policy}` table ranks by outputValues, this output lists none, and rules `{}` and `{}` may hold together and differ first in it: DMN leaves their order open",
                            a.id, b.id
                        ),
                    ));
                }
            }
        }
        for &k in unranked {
            self.vars[results[k]].members = std::mem::take(&mut members[k]);
        }
        Ok(())
    }

    /// DMN's null where no rule of the table holds, for a table whose only finding is a gap:
    /// its results optional, and a catch-all last row answering `none`. A `first` table
    /// takes it as it is. Under U and A — no two rows meet, or those that meet agree, as the
    /// checker found — the table is the `first` table of its rows with the catch-all, which
    /// answers what they answer and null elsewhere. A P row answers a member of an enum, not
    /// `none` (E076): the table is the `first` table of its rules in priority order (a
    /// stable sort by the listed values, as rulec ranks them) with the catch-all. A sum, a
    /// least or a greatest without a default is optional, none when no row holds. Whether
    /// anything changed.
    fn answer_null(&mut self, table: &str) -> bool {
        let Some(t) = self.tables.iter_mut().find(|t| t.name == table) else { return false };
        let results = t.results.clone();
        match t.policy {
            "collect sum" | "collect min" | "collect max" => {
                let changed = !self.vars[results[0]].optional;
                self.vars[results[0]].optional = true;
                return changed;
            }
            "first" => {}
            "unique" => t.id = format!("{} (unique: its rules held apart, as `first`)", t.id),
            "any" => t.id = format!("{} (any: its rules that meet agree, as `first`)", t.id),
            "priority" => {
                let mut keys = Vec::new();
                for row in &t.rows {
                    let mut key = Vec::new();
                    for (k, &v) in results.iter().enumerate().filter(|(k, _)| !t.unranked.contains(k)) {
                        let Operand::Lit(Lit::Str(s)) = &row.outs[k] else { return false };
                        let Some(place) = self.vars[v].members.iter().position(|m| m == s) else { return false };
                        key.push(place);
                    }
                    keys.push(key);
                }
                let mut rows: Vec<(Vec<usize>, Row)> = keys.into_iter().zip(std::mem::take(&mut t.rows)).collect();
                rows.sort_by(|a, b| a.0.cmp(&b.0));
                t.rows = rows.into_iter().map(|(_, r)| r).collect();
                t.id = format!("{} (priority: its rules in priority order, as `first`)", t.id);
            }
            _ => return false,
        }
        if t.rows.iter().any(|r| r.id == NULL_ROW) {
            return false;
        }
        t.policy = "first";
        let cells = t.cols.iter().map(|_| Cell::Any).collect();
        let outs = results.iter().map(|_| Operand::Lit(Lit::Null)).collect();
        t.rows.push(Row { cells, outs, id: NULL_ROW.into(), guard: false });
        for v in results {
            self.vars[v].optional = true;
        }
        true
    }

    /// Types every value: a base for each, and one scale for numbers a test compares.
    fn settle(&mut self) -> Result<(), Refusal> {
        let root = self.doc.root_element();
        for v in &mut self.vars {
            let digits = v.nums.iter().map(frac_digits).max().unwrap_or(0);
            v.scale = if v.count { 0 } else { digits };
            if v.count {
                v.base = Some(Base::Num);
            }
            if v.base.is_none() {
                return Err(refuse(root, format!("`{}` has no type: give it a typeRef", v.ident)));
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &(a, b) in &self.links {
                if self.vars[a].base != self.vars[b].base {
                    return Err(refuse(
                        root,
                        format!("`{}` is compared with `{}`, of another type", self.vars[a].ident, self.vars[b].ident),
                    ));
                }
                let s = self.vars[a].scale.max(self.vars[b].scale);
                for x in [a, b] {
                    if self.vars[x].scale != s {
                        self.vars[x].scale = s;
                        changed = true;
                    }
                }
            }
        }
        for v in &self.vars {
            if v.base == Some(Base::Str) && !v.members.is_empty() {
                if let Some(s) = v.strings.iter().find(|s| !v.members.contains(s)) {
                    return Err(refuse(
                        root,
                        format!("\"{s}\" is written for `{}` and is not one of its listed values", v.ident),
                    ));
                }
            }
        }
        Ok(())
    }

    fn emit(&mut self) -> Result<String, Refusal> {
        let root = self.doc.root_element();
        let mut out = format!("rule {} v1\n", ident(root.attribute("name").unwrap_or("dmn")));
        out.push_str(&format!(
            "about {}\n\n",
            string_lit(&format!("Imported from DMN {}.", root.attribute("id").unwrap_or("")))
        ));
        for i in 0..self.vars.len() {
            let v = &self.vars[i];
            if v.base == Some(Base::Str) && !v.members.is_empty() {
                let members: Vec<String> = v.members.iter().map(|m| member(m)).collect();
                let unique: BTreeSet<&str> = members.iter().map(|m| m.split(' ').next().unwrap_or("")).collect();
                if unique.len() != members.len() {
                    return Err(refuse(root, format!("two values of `{}` are one .rule name", v.ident)));
                }
                out.push_str(&format!("enum {}: {}\n", enum_name(&v.ident), members.join(", ")));
            }
        }
        out.push('\n');
        for v in &self.vars {
            let kind = if v.input { "input" } else { "output" };
            let range = match (&v.base, v.input, &v.range) {
                (Some(Base::Num), _, Some((lo, hi))) if !v.count => {
                    format!(" {}..{}", num_lit(lo, v.scale), num_lit(hi, v.scale))
                }
                (Some(Base::Num), true, _) => {
                    let (lo, hi) = widened(&v.nums);
                    format!(" {}..{}", num_lit(&lo, v.scale), num_lit(&hi, v.scale))
                }
                // Without a range a date input has no boundary vectors: a century either side.
                (Some(Base::Date), true, _) => {
                    let lo = v.years.iter().min().map_or(1900, |y| y - 100).max(1);
                    let hi = v.years.iter().max().map_or(2199, |y| y + 100).min(9999);
                    format!(" {lo:04}-01-01..{hi:04}-12-31")
                }
                _ => String::new(),
            };
            let default = match &v.default {
                Some(l) => format!(" default {}", self.lit_text(l, v).map_err(|w| refuse(root, w))?),
                None => String::new(),
            };
            let ty = ty_text(v);
            let ty = if v.list { format!("list[{ty}]") } else { ty };
            let opt = if v.optional { "?" } else { "" };
            out.push_str(&format!("{kind} {}: {ty}{opt}{range}{default} # DMN {}\n", v.ident, v.origin));
        }
        let mut defines = String::new();
        let mut tables = String::new();
        for t in 0..self.tables.len() {
            tables.push_str(&self.emit_table(t, &mut defines).map_err(|w| refuse(root, w))?);
        }
        out.push('\n');
        out.push_str(&defines);
        out.push_str(&tables);
        Ok(out)
    }

    fn emit_table(&mut self, t: usize, defines: &mut String) -> Result<String, String> {
        let tab = &self.tables[t];
        let mut head: Vec<String> = tab.cols.iter().map(|&c| self.vars[c].ident.clone()).collect();
        let mut extra: Vec<(usize, String, String)> = Vec::new();
        let mut lines = Vec::new();
        for (r, row) in tab.rows.iter().enumerate() {
            if row.guard {
                let mut held = Vec::new();
                for other in tab.rows.iter().filter(|o| !o.guard) {
                    let mut all = Vec::new();
                    for (c, cell) in other.cells.iter().enumerate().filter(|(_, c)| **c != Cell::Any) {
                        all.push(format!("({})", self.expr(cell, &self.vars[tab.cols[c]])?));
                    }
                    held.push(if all.is_empty() { "true".to_string() } else { all.join(" and ") });
                }
                let e = if held.is_empty() { "true".to_string() } else { format!("not ({})", held.join(" or ")) };
                extra.push((r, "default".into(), e));
            }
            let mut cells = Vec::new();
            for (c, cell) in row.cells.iter().enumerate() {
                let v = &self.vars[tab.cols[c]];
                if has_name(cell) {
                    // A test that reads another value is a condition of its own column.
                    extra.push((r, format!("r{}", r + 1), self.expr(cell, v)?));
                    cells.push("-".to_string());
                } else {
                    cells.push(self.cell_text(cell, v)?);
                }
            }
            let outs = row
                .outs
                .iter()
                .zip(&tab.results)
                .map(|(o, &v)| self.out_text(o, &self.vars[v]))
                .collect::<Result<Vec<_>, _>>()?;
            lines.push((cells, outs, row.id.clone()));
        }
        let stem = tab.name.trim_end_matches("_table").to_string();
        let mut names = Vec::new();
        for (r, suffix, e) in &extra {
            let name = self.fresh(format!("{stem}_{suffix}"));
            defines.push_str(&format!("define {name} = {e}\n"));
            names.push((*r, name));
        }
        let tab = &self.tables[t];
        for (_, n) in &names {
            head.push(n.clone());
        }
        let results: Vec<String> = tab.results.iter().map(|&v| self.vars[v].ident.clone()).collect();
        let mut s =
            format!("\ntable {} {} -> {} # DMN decisionTable {}\n", tab.name, tab.policy, results.join(", "), tab.id);
        head.extend(results);
        s.push_str(&format!("| {} |\n", head.join(" | ")));
        s.push_str(&format!("|{}\n", "---|".repeat(head.len())));
        for (r, (mut cells, outs, id)) in lines.into_iter().enumerate() {
            for (er, _) in &names {
                cells.push(if *er == r { "true".into() } else { "-".into() });
            }
            cells.extend(outs);
            let origin = if id == NULL_ROW { "null where no rule holds".into() } else { format!("rule {id}") };
            s.push_str(&format!("| {} | # DMN {origin}\n", cells.join(" | ")));
        }
        Ok(s)
    }

    fn cell_text(&self, cell: &Cell, v: &Var) -> Result<String, String> {
        let Cell::Tests { negated, tests } = cell else { return Ok("-".into()) };
        let mut parts = Vec::new();
        for t in tests {
            parts.push(match t {
                Test::Eq(Operand::Lit(l)) => self.lit_text(l, v)?,
                Test::Cmp(op, Operand::Lit(l)) => format!("{}{}", op.as_str(), self.ordered(l, v)?),
                Test::Range { lo: Operand::Lit(lo), lo_closed, hi: Operand::Lit(hi), hi_closed } => format!(
                    "{}{} {}{}",
                    if *lo_closed { ">=" } else { ">" },
                    self.ordered(lo, v)?,
                    if *hi_closed { "<=" } else { "<" },
                    self.ordered(hi, v)?
                ),
                _ => return Err("a test that reads a name".into()),
            });
        }
        let tests = parts.join(", ");
        Ok(if *negated { format!("not: {tests}") } else { tests })
    }

    /// A literal a bound compares with: numbers and dates only (a FEEL string order has no
    /// .rule counterpart).
    fn ordered(&self, l: &Lit, v: &Var) -> Result<String, String> {
        match l {
            Lit::Num(_) | Lit::Date(_) => self.lit_text(l, v),
            _ => Err(format!("`{}` is compared by order, which only numbers and dates have here", v.ident)),
        }
    }

    fn lit_text(&self, l: &Lit, v: &Var) -> Result<String, String> {
        Ok(match l {
            Lit::Num(x) => num_lit(x, v.scale),
            Lit::Str(s) if !v.members.is_empty() => member(s).split(' ').next().unwrap_or("").to_string(),
            Lit::Str(s) => string_lit(s),
            Lit::Bool(b) => b.to_string(),
            Lit::Date(d) => d.clone(),
            Lit::Null => "none".into(),
        })
    }

    fn out_text(&self, o: &Operand, v: &Var) -> Result<String, String> {
        match o {
            _ if v.count => Ok("1".into()),
            Operand::Lit(l) => self.lit_text(l, v),
            Operand::Name(n) => Ok(self.vars[self.by_name[n.as_str()]].ident.clone()),
        }
    }

    /// A cell that reads other values, as a boolean expression over its column `v`.
    fn expr(&self, cell: &Cell, v: &Var) -> Result<String, String> {
        let Cell::Tests { negated, tests } = cell else { return Ok("true".into()) };
        if v.optional {
            return Err(format!("`{}` may be null, and a test reading another value cannot read it", v.ident));
        }
        let side = |o: &Operand| -> Result<String, String> {
            match o {
                Operand::Name(n) => Ok(self.vars[self.by_name[n.as_str()]].ident.clone()),
                Operand::Lit(Lit::Str(s)) if !v.members.is_empty() => {
                    Ok(format!("{}.{}", enum_name(&v.ident), member(s).split(' ').next().unwrap_or("")))
                }
                Operand::Lit(Lit::Null) => Err("`null` beside a test that reads another value".into()),
                Operand::Lit(l) => self.lit_text(l, v),
            }
        };
        let x = &v.ident;
        let mut parts = Vec::new();
        for t in tests {
            parts.push(match t {
                Test::Eq(o) => format!("{x} = {}", side(o)?),
                Test::Cmp(op, o) => format!("{x} {} {}", op.as_str(), side(o)?),
                Test::Range { lo, lo_closed, hi, hi_closed } => format!(
                    "({x} {} {} and {x} {} {})",
                    if *lo_closed { ">=" } else { ">" },
                    side(lo)?,
                    if *hi_closed { "<=" } else { "<" },
                    side(hi)?
                ),
            });
        }
        let e = parts.join(" or ");
        Ok(if *negated { format!("not ({e})") } else { e })
    }
}

/// The id of the row answering DMN's null where no rule holds (no XML id has a space).
const NULL_ROW: &str = "no rule";

/// The children of a decision that are not its logic.
const NOT_LOGIC: [&str; 8] = [
    "variable",
    "informationRequirement",
    "knowledgeRequirement",
    "authorityRequirement",
    "description",
    "extensionElements",
    "question",
    "allowedAnswers",
];

/// Names a BKM's parameters stand for are rewritten to the names they are bound to.
fn scoped(cell: Cell, scope: &HashMap<String, usize>, vars: &[Var]) -> Cell {
    let Cell::Tests { negated, tests } = cell else { return cell };
    let bound = |o: Operand| rename(o, scope, vars);
    let tests = tests
        .into_iter()
        .map(|t| match t {
            Test::Eq(o) => Test::Eq(bound(o)),
            Test::Cmp(c, o) => Test::Cmp(c, bound(o)),
            Test::Range { lo, lo_closed, hi, hi_closed } => {
                Test::Range { lo: bound(lo), lo_closed, hi: bound(hi), hi_closed }
            }
        })
        .collect();
    Cell::Tests { negated, tests }
}

fn rename(o: Operand, scope: &HashMap<String, usize>, vars: &[Var]) -> Operand {
    match o {
        Operand::Name(n) => match scope.get(&n) {
            Some(&v) => Operand::Name(vars[v].dmn.clone()),
            None => Operand::Name(n),
        },
        o => o,
    }
}

/// Whether no input can make both rows hold: some column's cells, literal tests both, share
/// no value. False when it cannot tell.
fn apart(a: &Row, b: &Row) -> bool {
    a.cells.iter().zip(&b.cells).any(|(x, y)| match (x, y) {
        (Cell::Tests { negated: false, tests: xs }, Cell::Tests { negated: false, tests: ys }) => {
            xs.iter().all(|s| ys.iter().all(|t| !may_meet(s, t)))
        }
        _ => false,
    })
}

/// Whether one value can pass both tests (true when it cannot tell).
fn may_meet(s: &Test, t: &Test) -> bool {
    match (interval(s), interval(t)) {
        (Some((lo1, hi1)), Some((lo2, hi2))) => {
            // The later of the two lower ends, the earlier of the two upper ends.
            let lo = match (lo1, lo2) {
                (Some(a), Some(b)) => Some(if a.0 > b.0 || (a.0 == b.0 && !a.1) { a } else { b }),
                (a, b) => a.or(b),
            };
            let hi = match (hi1, hi2) {
                (Some(a), Some(b)) => Some(if a.0 < b.0 || (a.0 == b.0 && !a.1) { a } else { b }),
                (a, b) => a.or(b),
            };
            match (lo, hi) {
                (Some(l), Some(h)) => l.0 < h.0 || (l.0 == h.0 && l.1 && h.1),
                _ => true,
            }
        }
        _ => match (s, t) {
            (Test::Eq(Operand::Lit(x)), Test::Eq(Operand::Lit(y))) => {
                matches!(x, Lit::Num(_)) || matches!(y, Lit::Num(_)) || x == y
            }
            _ => true,
        },
    }
}

/// An end of an interval: the number, and whether it is in.
type End = Option<(Rat, bool)>;

/// A test of a number against literals, as the interval it passes.
fn interval(t: &Test) -> Option<(End, End)> {
    let num = |o: &Operand| match o {
        Operand::Lit(Lit::Num(x)) => Some(x.clone()),
        _ => None,
    };
    Some(match t {
        Test::Eq(o) => {
            let x = num(o)?;
            (Some((x.clone(), true)), Some((x, true)))
        }
        Test::Cmp(c, o) => {
            let x = num(o)?;
            match c {
                feel::Cmp::Lt => (None, Some((x, false))),
                feel::Cmp::Le => (None, Some((x, true))),
                feel::Cmp::Gt => (Some((x, false)), None),
                feel::Cmp::Ge => (Some((x, true)), None),
            }
        }
        Test::Range { lo, lo_closed, hi, hi_closed } => (Some((num(lo)?, *lo_closed)), Some((num(hi)?, *hi_closed))),
    })
}

fn has_name(cell: &Cell) -> bool {
    let Cell::Tests { tests, .. } = cell else { return false };
    tests.iter().any(|t| match t {
        Test::Eq(o) | Test::Cmp(_, o) => matches!(o, Operand::Name(_)),
        Test::Range { lo, hi, .. } => matches!(lo, Operand::Name(_)) || matches!(hi, Operand::Name(_)),
    })
}

fn policy(dt: Node) -> Result<&'static str, Refusal> {
    let hp = dt.attribute("hitPolicy").unwrap_or("UNIQUE");
    let agg = dt.attribute("aggregation");
    Ok(match (hp, agg) {
        ("UNIQUE", None) => "unique",
        ("FIRST", None) => "first",
        ("ANY", None) => "any",
        ("PRIORITY", None) => "priority",
        ("RULE ORDER", None) => "rule_order",
        ("OUTPUT ORDER", None) => "output_order",
        ("COLLECT", None) => "collect",
        ("COLLECT", Some("SUM")) => "collect sum",
        ("COLLECT", Some("MIN")) => "collect min",
        ("COLLECT", Some("MAX")) => "collect max",
        ("COLLECT", Some("COUNT")) => "collect count",
        _ => return Err(refuse(dt, format!("the hit policy `{hp}` with aggregation `{}`", agg.unwrap_or("none")))),
    })
}

fn ty_text(v: &Var) -> String {
    match v.base {
        Some(Base::Num) if v.count || v.scale == 0 => "int".into(),
        // A rate counts whole steps; a step of 10^-k (as a percent) makes a number of k
        // fraction digits whole, and the rate's value is the DMN number itself.
        Some(Base::Num) => format!("rate[{}%]", crate::num::to_decimal_string(&(step(v.scale) * int(100)))),
        Some(Base::Str) if !v.members.is_empty() => enum_name(&v.ident),
        Some(Base::Str) => "string".into(),
        Some(Base::Bool) => "bool".into(),
        Some(Base::Date) | None => "date".into(),
    }
}

fn step(scale: u32) -> Rat {
    Rat::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), scale as usize))
}

fn frac_digits(x: &Rat) -> u32 {
    let mut k = 0;
    let mut y = x.clone();
    while !y.is_integer() && k < 40 {
        y *= int(10);
        k += 1;
    }
    k
}

/// A number as a literal of its type: an `int`, or a rate written in percent.
fn num_lit(x: &Rat, scale: u32) -> String {
    if scale == 0 {
        crate::num::to_decimal_string(x)
    } else {
        format!("{}%", crate::num::to_decimal_string(&(x * int(100))))
    }
}

/// An input's range when the model gives none: from 0 (or the negative of the top, when a
/// literal is negative) to the power of ten at least ten times the largest literal, and at
/// least 100 — room for the values a test will send, with every literal inside.
fn widened(nums: &[Rat]) -> (Rat, Rat) {
    let big = nums.iter().map(|x| x.abs()).max().unwrap_or_else(Rat::zero) * int(10);
    let mut hi = int(100);
    while hi < big {
        hi *= int(10);
    }
    let lo = if nums.iter().any(|x| x.is_negative()) { -hi.clone() } else { Rat::zero() };
    (lo, hi)
}

fn enum_name(var: &str) -> String {
    if TYPE_WORDS.contains(&var) {
        format!("{var}_kind")
    } else {
        var.to_string()
    }
}

/// An enum member for a DMN string: its name, and the string as display name when they differ.
fn member(s: &str) -> String {
    let name = ident(s);
    if name == s {
        name
    } else {
        format!("{name} {}", string_lit(s))
    }
}

#[cfg(test)]
mod tests {
    use super::import;

    /// Hostile models end in a refusal, never a panic.
    #[test]
    fn broken_models_are_refused() {
        let loop_ = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="m" name="m">
  <itemDefinition name="a"><typeRef>b</typeRef></itemDefinition>
  <itemDefinition name="b"><typeRef>a</typeRef></itemDefinition>
  <inputData id="i" name="x"><variable name="x" typeRef="a"/></inputData>
  <decision id="d" name="y"><decisionTable id="t"><input><inputExpression><text>x</text></inputExpression></input>
    <output id="o" typeRef="number"/><rule id="r"><inputEntry><text>[1..</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
  </decisionTable></decision>
</definitions>"#;
        let sound = loop_.replace(r#"typeRef="a""#, r#"typeRef="number""#);
        for (text, why) in [
            ("", "not XML"),
            ("<a/>", "not a DMN model"),
            (loop_, "in a loop"),
            (&sound.clone(), "is not a range"),
            (&sound.replace("[1..", r#""\q""#), "an escape"),
            (&sound.replace("<text>x</text>", "<text>x.y</text>"), "a path"),
        ] {
            let r = import(text, None, &|_| Vec::new()).unwrap_err();
            assert!(r.why.contains(why), "{why}: {r}");
        }
    }
}
