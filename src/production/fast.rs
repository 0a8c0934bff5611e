//! The rule run fast and exactly, for replaying many records: its code plan (`gen::plan`,
//! built once per rule) run as generated code runs it — every value an i64 of the int64
//! model (docs/int64.md), every step the statement tree's own (`gen::tree::run`), every
//! rounding `num::int64`'s. The plan's arithmetic is what E108 and E132 proved of the rule
//! over every call its door lets in, so this form, like the generated code, checks nothing
//! more at run time. A record it does not read exactly (a decimal, an escaped string, a
//! missing input, a key it does not know), a call the door refuses, a contradiction: each
//! is handed back, and the reference evaluator takes the record instead. On every record it
//! answers it gives the reference's outputs and rows (`tests/replay.rs` and
//! `tests/replay_fast.rs` hold it to that).
//!
//! Records are read by a scanner that borrows from the line and allocates nothing; the
//! values of a call live in one [`Scratch`], reused from record to record (a string input
//! in the string it held before). It takes only what it can read exactly — plain integers,
//! strings without escapes, the six fields of a record, each once — and hands every other
//! line back.

use crate::analysis::{scale, Analysis};
use crate::eval::Fired;
use crate::gen::plan::{self, BoundaryTy, Kind, Plan, Step, TablePlan};
use crate::gen::tree::run::{self, Fires};
use crate::gen::tree::value::{holds, V};
use crate::gen::tree::{self, Facts, Stmt};
use crate::num::{date, Rat};
use crate::sema::{self, Program, Value, VarId};
use crate::syntax::ast::Policy;
use num_traits::ToPrimitive;

/// The form could not take this call: the reference evaluator does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail;

type R<T> = Result<T, Bail>;

/// How a value travels on the wire, and so how the scanner reads it.
#[derive(Clone, Debug)]
enum Wire {
    /// A whole number in the declared unit: the plan's integer.
    Int,
    Bool,
    /// An enum value by name (its position).
    Enum(Vec<String>),
    /// `YYYY-MM-DD` (its day number).
    Date,
    /// A string without escapes.
    Str,
}

/// A value as the record has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Absent,
    /// A number, a truth value (0 or 1), an enum value's place or a day number.
    Int(i64),
    /// A string: where its bytes stand in the line.
    Text(usize, usize),
}

#[derive(Clone, Debug)]
struct Slot {
    name: String,
    var: VarId,
    wire: Wire,
    optional: bool,
    /// The door's range, in the plan's integers (places for an ordered enum).
    range: Option<(i64, i64)>,
}

/// A table of the plan, in evaluation order (its slot in a trace).
#[derive(Clone, Debug)]
struct TableAt {
    name: String,
    rows: usize,
    /// Its step in the plan.
    step: usize,
    /// Its index among the program's tables (what `Fired` names).
    program: usize,
    /// A `unique` table whose W114 pairs the plan does not guard (it was built without the
    /// analysis): after the run, no later row may hold.
    one_row: bool,
}

/// A rule in the fast form.
#[derive(Clone, Debug)]
pub struct Compiled {
    plan: Plan,
    /// What a call runs once the door has read it: the constraints, then the steps.
    body: Vec<Stmt>,
    inputs: Vec<Slot>,
    outputs: Vec<Slot>,
    tables: Vec<TableAt>,
}

/// The row that fired per table slot (0: none yet).
struct Rows(Vec<u32>);

impl Fires for Rows {
    fn fired(&mut self, table: &TablePlan, row: usize) {
        self.0[table.slot] = row as u32;
    }
}

/// The values of one call, one per variable of the plan, and what the record says.
pub struct Scratch {
    vals: Vec<V>,
    fired: Rows,
    /// The rows the record's trace names, per table slot (0: not named).
    recorded: Vec<u32>,
    observed: Vec<Seen>,
}

/// How a value of `kind` (held as `ty` at the boundary) travels.
fn wire(plan: &Plan, kind: Kind, ty: BoundaryTy) -> Wire {
    match kind {
        Kind::Str => Wire::Str,
        Kind::Bool => Wire::Bool,
        Kind::Enum(e) => Wire::Enum(plan.enums[e].values.iter().map(|m| m.name.clone()).collect()),
        Kind::Num if ty == BoundaryTy::Date => Wire::Date,
        Kind::Num => Wire::Int,
    }
}

/// `text` held in `v`, in the string `v` already holds where it can be: no allocation once
/// a record of the same length or longer has been read.
fn hold(v: &mut V, text: &str) {
    match v {
        V::Str(held) => {
            held.clear();
            held.push_str(text);
        }
        other => *other = V::Str(text.to_string()),
    }
}

impl Compiled {
    /// The fast form of a rule that checked clean, from its analysis: the very plan `rulec
    /// gen` prints, its W114 pairs guarded (the analysis proved every other pair of rows of a
    /// `unique` table apart). None when the rule has more inputs or outputs than the
    /// scanner's masks hold (64 of each).
    pub fn checked(p: &Program, analysis: &Analysis) -> Option<Compiled> {
        Compiled::of(p, plan::build(p, analysis, "", ""), false)
    }

    /// The fast form of a rule that checked clean, from the program alone: the plan from the
    /// program's int64 model, and every `unique` table held to one matching row as the
    /// reference holds it, since the W114 pairs are the analysis's to know.
    pub fn new(p: &Program) -> Option<Compiled> {
        Compiled::of(p, plan::lower(p, &scale::annotate(p), &[], "", ""), true)
    }

    fn of(p: &Program, plan: Plan, one_row: bool) -> Option<Compiled> {
        // A multiple-hit table fires a number of rows no slot counts: the reference replays it.
        if p.inputs.len() > 64 || p.outputs.len() > 64 || p.tables.iter().any(|t| t.policy.multi_hit()) {
            return None;
        }
        let inputs = plan
            .door
            .inputs
            .iter()
            .map(|d| Slot {
                name: d.name.clone(),
                var: d.var,
                wire: wire(&plan, plan.vars[d.var].kind, plan.vars[d.var].ty),
                optional: d.optional,
                range: d.range.as_ref().map(|r| (r.lo, r.hi)),
            })
            .collect();
        let outputs = plan
            .outputs
            .iter()
            .map(|&v| {
                let var = &plan.vars[v];
                Slot {
                    name: var.name.clone(),
                    var: v,
                    wire: wire(&plan, var.kind, var.ty),
                    optional: var.optional,
                    range: None,
                }
            })
            .collect();
        // The plan's steps are the program's, in its order.
        let tables = p
            .order
            .iter()
            .zip(plan.steps.iter().enumerate())
            .filter_map(|(s, (step, planned))| match (s, planned) {
                (sema::Step::Table(t), Step::Table(tp)) => Some(TableAt {
                    name: tp.name.clone(),
                    rows: tp.rows.len(),
                    step,
                    program: *t,
                    one_row: one_row && p.tables[*t].policy == Policy::Unique,
                }),
                _ => None,
            })
            .collect();
        let mut body: Vec<Stmt> = (0..plan.door.constraints.len()).map(Stmt::Constraint).collect();
        body.extend(tree::body(&plan, &Facts::PLAIN));
        Some(Compiled { plan, body, inputs, outputs, tables })
    }

    pub fn scratch(&self) -> Scratch {
        Scratch {
            vals: run::fresh(&self.plan),
            fired: Rows(vec![0; self.tables.len()]),
            recorded: vec![0; self.tables.len()],
            observed: vec![Seen::Absent; self.outputs.len()],
        }
    }

    /// Run the rule on the inputs already in `s` (read and range-checked at the door): the
    /// constraints and the steps through the tree's run; then no second row of a `unique`
    /// table held to one row may hold (the single assignment of the plan keeps what each
    /// table read).
    fn run(&self, s: &mut Scratch) -> R<()> {
        run::stmts(&self.plan, &self.body, &mut s.vals, &mut s.fired).map_err(|_| Bail)?;
        for t in self.tables.iter().filter(|t| t.one_row) {
            let table = tree::table(&self.plan, t.step);
            let after = s.fired.0[table.slot] as usize;
            if table.rows[after..].iter().any(|r| holds(&r.cond, &s.vals)) {
                return Err(Bail);
            }
        }
        Ok(())
    }

    /// Evaluate a call given as the reference holds it (inputs in `p.inputs` order, already
    /// read at the door): the outputs and the rows that fired, or `None` where this form
    /// hands the call to the reference. What the agreement test holds to `eval::evaluate`.
    pub fn evaluate(&self, p: &Program, inputs: &[Value]) -> Option<(Vec<Value>, Vec<Fired>)> {
        let mut s = self.scratch();
        for (slot, x) in self.inputs.iter().zip(inputs) {
            s.vals[slot.var] = match x {
                Value::None => V::Absent,
                Value::Bool(b) => V::Bool(*b),
                Value::Enum(i) => V::Member(*i),
                Value::Num(r) => {
                    let n = r / p.vars[slot.var].ty.factor();
                    if !n.is_integer() {
                        return None;
                    }
                    V::Int(n.to_integer().to_i64()?)
                }
                Value::Str(x) => V::Str(x.clone()),
                Value::List(_) => unreachable!("an input is never a list"),
            };
        }
        self.run(&mut s).ok()?;
        let outputs = self
            .outputs
            .iter()
            .map(|o| match &s.vals[o.var] {
                V::Absent => Value::None,
                V::Bool(b) => Value::Bool(*b),
                V::Member(m) => Value::Enum(*m),
                V::Int(n) => Value::Num(Rat::from_integer((*n).into()) * p.vars[o.var].ty.factor()),
                V::Str(x) => Value::Str(x.clone()),
                V::List(_) => unreachable!("no rule has a list output yet"),
            })
            .collect();
        let trace = self.tables.iter().zip(&s.fired.0).map(|(t, &row)| Fired { table: t.program, row: row as usize });
        Some((outputs, trace.collect()))
    }

    /// Replay one fixtures line: `Some(true)` when it is a record this form read, whose call
    /// it answered exactly as observed, with the rows its trace names (when it has one);
    /// `None` for every other line — the reference reads it.
    pub fn matches(&self, line: &[u8], s: &mut Scratch) -> Option<bool> {
        let text = std::str::from_utf8(line).ok()?;
        let traced = self.scan(text.as_bytes(), s).ok()?;
        self.run(s).ok()?;
        for (o, want) in self.outputs.iter().zip(&s.observed) {
            let same = match (&s.vals[o.var], *want) {
                (V::Absent, Seen::Absent) => true,
                (V::Int(n), Seen::Int(m)) => *n == m,
                (V::Bool(b), Seen::Int(m)) => *b as i64 == m,
                (V::Member(p), Seen::Int(m)) => *p as i64 == m,
                (V::Str(x), Seen::Text(a, b)) => x.as_bytes() == &line[a..b],
                _ => false,
            };
            if !same {
                return None;
            }
        }
        if traced && s.recorded != s.fired.0 {
            return None;
        }
        Some(true)
    }

    /// Read a record into `s`: inputs, observed, and the trace as a row per table (whether
    /// the record has one is the answer).
    fn scan(&self, b: &[u8], s: &mut Scratch) -> R<bool> {
        let mut sc = Scan { b, i: 0 };
        let mut seen_in = 0u64;
        let mut seen_out = 0u64;
        let mut seen_top = 0u8;
        let mut traced = false;
        sc.ws();
        sc.eat(b'{')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b'}') {
                sc.i += 1;
                break;
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            let key = sc.string()?;
            sc.ws();
            sc.eat(b':')?;
            sc.ws();
            let bit = match key {
                b"ts" => 1,
                b"tag" => 2,
                b"in" => 4,
                b"observed" => 8,
                b"trace" => 16,
                b"by" => 32,
                _ => return Err(Bail),
            };
            if seen_top & bit != 0 {
                return Err(Bail);
            }
            seen_top |= bit;
            match key {
                b"in" => seen_in = self.object(&mut sc, &self.inputs, s, false)?,
                b"observed" => seen_out = self.object(&mut sc, &self.outputs, s, true)?,
                b"trace" => {
                    self.trace(&mut sc, &mut s.recorded)?;
                    traced = true;
                }
                b"tag" => {
                    sc.string()?;
                }
                _ => sc.skip(0)?,
            }
        }
        sc.ws();
        if sc.i != b.len() || seen_top & 12 != 12 {
            return Err(Bail);
        }
        // Every input the rule needs and every output must be there.
        for (i, slot) in self.inputs.iter().enumerate() {
            if seen_in & (1 << i) == 0 {
                if !slot.optional {
                    return Err(Bail);
                }
                s.vals[slot.var] = V::Absent;
            }
        }
        if seen_out.count_ones() as usize != self.outputs.len() {
            return Err(Bail);
        }
        Ok(traced)
    }

    /// An object of wire values for `slots`; each key once, each value as the door reads it.
    fn object(&self, sc: &mut Scan, slots: &[Slot], s: &mut Scratch, observed: bool) -> R<u64> {
        let mut seen = 0u64;
        sc.eat(b'{')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b'}') {
                sc.i += 1;
                return Ok(seen);
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            let key = sc.string()?;
            sc.ws();
            sc.eat(b':')?;
            sc.ws();
            let k = slots.iter().position(|x| x.name.as_bytes() == key).ok_or(Bail)?;
            if seen & (1 << k) != 0 {
                return Err(Bail);
            }
            seen |= 1 << k;
            let slot = &slots[k];
            let x = if sc.peek() == Some(b'n') {
                sc.word(b"null")?;
                if !slot.optional {
                    return Err(Bail);
                }
                Seen::Absent
            } else {
                match &slot.wire {
                    Wire::Int => Seen::Int(parse_int(sc.number()?)?),
                    Wire::Bool => match sc.peek() {
                        Some(b't') => sc.word(b"true").map(|_| Seen::Int(1))?,
                        _ => sc.word(b"false").map(|_| Seen::Int(0))?,
                    },
                    Wire::Enum(names) => {
                        let w = sc.string()?;
                        Seen::Int(names.iter().position(|n| n.as_bytes() == w).ok_or(Bail)? as i64)
                    }
                    Wire::Date => {
                        let w = sc.string()?;
                        Seen::Int(date::parse(std::str::from_utf8(w).map_err(|_| Bail)?).ok_or(Bail)?)
                    }
                    Wire::Str => {
                        let w = sc.string()?;
                        let end = sc.i - 1;
                        Seen::Text(end - w.len(), end)
                    }
                }
            };
            if let (Seen::Int(n), Some((lo, hi))) = (x, slot.range) {
                if n < lo || n > hi {
                    return Err(Bail);
                }
            }
            if observed {
                s.observed[k] = x;
                continue;
            }
            let v = &mut s.vals[slot.var];
            match (x, &slot.wire) {
                (Seen::Absent, _) => *v = V::Absent,
                (Seen::Int(n), Wire::Bool) => *v = V::Bool(n != 0),
                (Seen::Int(n), Wire::Enum(_)) => *v = V::Member(n as u32),
                (Seen::Int(n), _) => *v = V::Int(n),
                (Seen::Text(a, b), _) => hold(v, std::str::from_utf8(&sc.b[a..b]).map_err(|_| Bail)?),
            }
        }
    }

    /// `[{"table":…,"row":…},…]`, every table of the rule once: the row of each.
    fn trace(&self, sc: &mut Scan, rows: &mut [u32]) -> R<()> {
        rows.fill(0);
        sc.eat(b'[')?;
        let mut first = true;
        loop {
            sc.ws();
            if sc.peek() == Some(b']') {
                sc.i += 1;
                break;
            }
            if !first {
                sc.eat(b',')?;
                sc.ws();
            }
            first = false;
            sc.eat(b'{')?;
            let (mut table, mut row) = (None, None);
            for i in 0..2 {
                sc.ws();
                if i == 1 {
                    sc.eat(b',')?;
                    sc.ws();
                }
                let key = sc.string()?;
                sc.ws();
                sc.eat(b':')?;
                sc.ws();
                match key {
                    b"table" if table.is_none() => {
                        let name = sc.string()?;
                        table = Some(self.tables.iter().position(|t| t.name.as_bytes() == name).ok_or(Bail)?);
                    }
                    b"row" if row.is_none() => row = Some(parse_int(sc.number()?)?),
                    _ => return Err(Bail),
                }
            }
            sc.ws();
            sc.eat(b'}')?;
            let (t, r) = (table.ok_or(Bail)?, row.ok_or(Bail)?);
            if rows[t] != 0 || r < 1 || r as usize > self.tables[t].rows {
                return Err(Bail);
            }
            rows[t] = r as u32;
        }
        if rows.contains(&0) {
            return Err(Bail);
        }
        Ok(())
    }
}

/// A whole number written plainly (`-12`, `0`): no fraction, no exponent, no leading zero.
fn parse_int(t: &[u8]) -> R<i64> {
    let digits = t.strip_prefix(b"-").unwrap_or(t);
    if digits.is_empty() || digits.len() > 18 || (digits.len() > 1 && digits[0] == b'0') {
        return Err(Bail);
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return Err(Bail);
    }
    let mut n: i64 = 0;
    for d in digits {
        n = n * 10 + (d - b'0') as i64;
    }
    Ok(if t[0] == b'-' { -n } else { n })
}

/// A JSON scanner over one line that borrows from it.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> R<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(Bail)
        }
    }
    fn word(&mut self, w: &[u8]) -> R<()> {
        if self.b[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(())
        } else {
            Err(Bail)
        }
    }
    /// A string without escapes: its bytes.
    fn string(&mut self) -> R<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(&self.b[start..self.i - 1]);
                }
                Some(b'\\') | None => return Err(Bail),
                Some(c) if c < 0x20 => return Err(Bail),
                Some(_) => self.i += 1,
            }
        }
    }
    /// A JSON number's text (the whole grammar), for the caller to read.
    fn number(&mut self) -> R<&'a [u8]> {
        let start = self.i;
        let digits = |s: &mut Scan| {
            let from = s.i;
            while matches!(s.peek(), Some(b'0'..=b'9')) {
                s.i += 1;
            }
            s.i > from
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        if !digits(self) {
            return Err(Bail);
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !digits(self) {
                return Err(Bail);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(Bail);
            }
        }
        Ok(&self.b[start..self.i])
    }
    /// Any JSON value, passed over (what `ts` and `by` hold).
    fn skip(&mut self, depth: usize) -> R<()> {
        if depth > 64 {
            return Err(Bail);
        }
        self.ws();
        match self.peek().ok_or(Bail)? {
            b'"' => {
                self.i += 1;
                loop {
                    match self.peek().ok_or(Bail)? {
                        b'"' => {
                            self.i += 1;
                            return Ok(());
                        }
                        b'\\' => self.i += 2,
                        c if c < 0x20 => return Err(Bail),
                        _ => self.i += 1,
                    }
                }
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                self.ws();
                if self.peek() == Some(close) {
                    self.i += 1;
                    return Ok(());
                }
                loop {
                    if open == b'{' {
                        self.ws();
                        self.skip(depth + 1)?;
                        self.ws();
                        self.eat(b':')?;
                    }
                    self.skip(depth + 1)?;
                    self.ws();
                    match self.peek().ok_or(Bail)? {
                        b',' => self.i += 1,
                        c if c == close => {
                            self.i += 1;
                            return Ok(());
                        }
                        _ => return Err(Bail),
                    }
                }
            }
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => self.number().map(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_integers_only() {
        assert_eq!(parse_int(b"-12"), Ok(-12));
        assert_eq!(parse_int(b"0"), Ok(0));
        for t in [&b"012"[..], b"1.0", b"1e3", b"", b"-", b"1234567890123456789"] {
            assert_eq!(parse_int(t), Err(Bail), "{}", String::from_utf8_lossy(t));
        }
    }

    #[test]
    fn skips_any_value() {
        let mut s = Scan { b: br#"{"a":[1,{"b":"x\"y"},null,true,-1.5e3]} "#, i: 0 };
        s.skip(0).unwrap();
        assert_eq!(s.i, s.b.len() - 1);
    }
}
