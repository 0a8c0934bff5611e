//! The statements every language writes alike, written once: a language gives its table of
//! block syntax ([`Blocks`]), its refusal statement and a few spellings ([`Hooks`]'s required
//! methods), and the default hooks write the constraints, the defines, the W114 guards, the
//! rows and the refusal after the last from them. Where a language's idiom differs it says
//! so as data (Go's optional stores: [`Stores`]).

use super::naming::Names;
use super::plan::{BoundaryTy, Constraint, Decision, Expr, InputDoor, Kind, Node, Piece, Plan, Row, TablePlan};
use super::printer::{Ops, ATOM, TOP};
use super::sig::Types;
use super::text::{comment, fill_names, fill_of, Code};
use super::tree::Check;
use crate::eval::wire::WireKind;
use crate::sema::VarId;

/// How a language writes a block and a statement. `@` stands for the condition (or the
/// scrutinee, or the case's values).
pub struct Blocks {
    /// `if (@) {`, `if @:`.
    pub if_: &'static str,
    /// `} else if (@) {`, `elif @:`.
    pub else_if: &'static str,
    /// `} else {`, `else:`.
    pub else_: &'static str,
    /// What closes a chain of branches (`}`, `end`); empty where the indentation does.
    pub end: &'static str,
    /// What starts a line comment.
    pub comment: &'static str,
    /// Where a comment on a statement stands at the end of its line (`  # `), what comes
    /// between; `None` where it stands on a line of its own, above (first inside, for a branch).
    pub beside: Option<&'static str>,
    /// What ends a simple statement (`;`, or nothing).
    pub semi: &'static str,
    /// What a variable's name is written after (`$` in PHP).
    pub sigil: &'static str,
    /// A field of a value: `@.@`, `@->@`, `@.@()`.
    pub field: &'static str,
    /// A variable lives as long as the function (Python, Ruby, PHP), not its block: one
    /// defined again (a walk's per-element value, on a second walk) is assigned, not declared.
    pub function_scope: bool,
    /// A last row whose condition is `true` is written `else`, with no refusal after it
    /// (a compiler that sees the branches cover every call then asks for none).
    pub else_when_true: bool,
    /// The `switch` a table's decision is written with; `None` writes it row by row.
    pub switch: Option<Switch>,
    /// A table of enum and boolean cells is written as one pattern match ([`Hooks::table_match`]).
    pub native_match: Option<Match>,
    /// A table that decides one value is written in a function of its own ([`Hooks::table_call`]).
    pub table_functions: bool,
    /// The statements that stop a call.
    pub refuse: Refusals,
    /// How a refused value goes into `refuse.input`, `@` the value: an enum's, a date's (its
    /// day number, shown as the wire writes the day where the error can carry text), any other's.
    pub shown: [&'static str; 3],
    /// Where a refusal is written on one line behind its test (Ruby's `raise … if test`), the
    /// words between: when the test holds, and when the negated test fails (`unless`).
    pub behind: Option<[&'static str; 2]>,
    /// How a refused optional's value goes into `refuse.input`, where it differs from `shown`
    /// (Rust's, still in its `Option`: `@.map(Refused::Number)`).
    pub shown_held: Option<[&'static str; 3]>,
    /// An optional is read as a value only inside the test that binds it ([`Node::Present`],
    /// Rust's `x.is_some_and(|x| …)`): a constraint then fails where each optional it reads
    /// holds a value and its test does not, rather than where none is absent and the test fails.
    pub binds_optionals: bool,
    /// The left side of a define, `@` the variable, `$` its type (`@: $`, `let @: $`).
    pub binding: &'static str,
    /// The statement declaring a table's result before its rows assign it, as `binding`
    /// spells it; empty where the language declares none.
    pub declare: &'static str,
    /// How a language whose optionals are pointers and which has no conditional expression
    /// stores a value ([`Stores`]); `None` stores it by `=`.
    pub stores: Option<Stores>,
}

/// How a language stores a value where `=` alone cannot (Go): a conditional value branch by
/// branch, an optional by what it points to, a define by its own statement. Templates:
/// `{x}`/`{name}` the variable, `{ty}` its type (the type it holds, for an optional),
/// `{value}` the value.
pub struct Stores {
    /// A value stored into an optional, which then points to it.
    pub held: &'static str,
    /// A define.
    pub define: &'static str,
    /// A define of a number constant, which would otherwise take another type than the
    /// variable's.
    pub constant: &'static str,
}

impl Blocks {
    /// The C family's: `if (@) {`, `} else if (@) {`, `} else {`, `}`, `//`, `;`.
    pub const PARENS: Blocks = Blocks {
        if_: "if (@) {",
        else_if: "} else if (@) {",
        else_: "} else {",
        end: "}",
        comment: "//",
        beside: None,
        semi: ";",
        sigil: "",
        field: "@.@",
        function_scope: false,
        else_when_true: false,
        switch: None,
        native_match: None,
        table_functions: false,
        refuse: Refusals {
            input: "throw new RuleInputError(@, $);",
            input_alone: "throw new RuleInputError(@, null);",
            contradiction: "throw new RuleContradictionError(@);",
        },
        shown: ["@", "@", "@"],
        behind: None,
        binding: "@",
        declare: "",
        stores: None,
        shown_held: None,
        binds_optionals: false,
    };
    /// Braces with no parentheses around the condition and no `;`, Swift's `RuleError` thrown
    /// (Go, Swift).
    pub const BARE: Blocks = Blocks {
        if_: "if @ {",
        else_if: "} else if @ {",
        semi: "",
        refuse: Refusals {
            input: "throw RuleError.input(what: @, value: $)",
            input_alone: "throw RuleError.input(what: @, value: nil)",
            contradiction: "throw RuleError.contradiction(what: @)",
        },
        ..Blocks::PARENS
    };
    /// Keywords closed by `end`, `#` comments beside the statement (Ruby).
    pub const KEYWORDS: Blocks = Blocks {
        if_: "if @",
        else_if: "elsif @",
        else_: "else",
        end: "end",
        comment: "#",
        function_scope: true,
        beside: Some(" # "),
        refuse: Refusals {
            input: "raise RuleInputError.new(@, $)",
            input_alone: "raise RuleInputError.new(@)",
            contradiction: "raise RuleContradictionError.new(@)",
        },
        ..Blocks::BARE
    };
}

/// The required methods every backend's `Body { o, <spelling> }` gives alike: its writer, and
/// the plan, the names, the expression printer and the string literal of its spelling (`$s`, which has `plan` and `n`).
#[macro_export]
macro_rules! spelled_by {
    ($s:ident) => {
        fn out(&mut self) -> &mut $crate::gen::text::Code {
            self.o
        }
        fn plan(&self) -> &$crate::gen::plan::Plan {
            self.$s.plan
        }
        fn names(&self) -> &$crate::gen::naming::Names {
            self.$s.n
        }
        fn expr(&self, e: &$crate::gen::plan::Expr, min: u8) -> String {
            $crate::gen::printer::Syntax::print(self.$s, e, min)
        }
        fn ops(&self) -> &$crate::gen::printer::Ops {
            $crate::gen::printer::Spelled::ops(self.$s)
        }
        fn types(&self) -> &$crate::gen::sig::Types {
            $crate::gen::printer::Spelled::types(self.$s)
        }
        fn boundary_ty(&self, v: $crate::sema::VarId) -> String {
            self.$s.ty(v)
        }
        fn local_ty(&self, v: $crate::sema::VarId) -> String {
            self.$s.local_ty(v)
        }
        fn held_ty(&self, v: $crate::sema::VarId) -> String {
            self.$s.held_ty(v)
        }
    };
}

/// What a language's hooks write with: its spelling of the rule (`g`, a `Gen`) and the code
/// being written. `DOOR` says the hooks write the wire door, for a language whose statements
/// there differ from the core's (Go's refusals: the door returns no value of the rule's type).
pub struct Body<'a, 'b, G, const DOOR: bool = false> {
    pub g: &'a G,
    pub o: &'b mut Code,
}

/// The `switch` over an enum column of a table's [`Decision`].
pub struct Switch {
    /// `switch (@) {`
    pub open: &'static str,
    /// `case @ -> {`, `case @:`; the values joined with `, `.
    pub case: &'static str,
    /// `default -> {`, `default:`.
    pub default: &'static str,
    /// What closes a case (`}`), or nothing.
    pub close: &'static str,
    /// Whether the cases stand one level in from the `switch` (gofmt puts them level with it).
    pub indent: bool,
}

/// The pattern match a table of enum and boolean cells is written as: an arm per row in
/// the rule's order, the first that matches winning as the first row does.
pub struct Match {
    /// `match @ {`, `@` the columns.
    pub open: &'static str,
    /// `@ => {`, `@` the row's pattern.
    pub arm: &'static str,
    /// What closes an arm, and the match.
    pub close: &'static str,
    /// A cell that takes any value, and what stands between the values of one cell (`_`, ` | `).
    pub any: &'static str,
    pub or: &'static str,
    /// Several columns, or their patterns, around the values: before, between, after.
    pub tuple: [&'static str; 3],
    /// After the last row, the arm no call reaches (completeness proved it; the compiler
    /// asks for one): `$` the refusal, its statement end taken off.
    pub rest: &'static str,
}

/// Where a value of the record comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Input,
    Output,
}

/// How a row of a chain opens: the first row, one after it, the last row of a settled chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    If,
    ElseIf,
    Else,
}

/// Why a call stops.
#[derive(Clone, Copy, Debug)]
pub enum Refusal<'a> {
    /// Outside the rule's domain: the sentence, and the value refused, spelled, when it is shown.
    Input(&'a str, Option<&'a str>),
    /// Two rows the checker could not prove apart both matched, or no row did.
    Contradiction(&'a str),
}

/// How a language stops a call, as statement templates: `@` stands for the sentence (as a
/// string literal), `$` for the value refused, any `{name}` for a local of the function.
pub struct Refusals {
    /// An input refused, its value shown.
    pub input: &'static str,
    /// An input refused with no value to show.
    pub input_alone: &'static str,
    pub contradiction: &'static str,
}

impl Refusals {
    /// The refusal `r`, its sentence written by `lit`, the template's `{name}`s by `locals`
    /// first (Go's `return {out}, …`). One pass over the template, so a `@` or `$` in the
    /// sentence or the value stays as it is.
    pub fn spell(&self, r: Refusal, lit: &dyn Fn(&str) -> String, locals: &dyn Fn(&str) -> String) -> String {
        let (template, what, value) = match r {
            Refusal::Input(s, Some(v)) => (self.input, s, v),
            Refusal::Input(s, None) => (self.input_alone, s, ""),
            Refusal::Contradiction(s) => (self.contradiction, s, ""),
        };
        let mut out = String::new();
        for c in locals(template).chars() {
            match c {
                '@' => out.push_str(&lit(what)),
                '$' => out.push_str(value),
                c => out.push(c),
            }
        }
        out
    }
}

/// What a language spells for the walker. The required methods are the language's own; the
/// others are written once here, over them.
pub trait Hooks {
    /// The language's block syntax.
    const BLOCKS: Blocks;
    fn out(&mut self) -> &mut Code;
    fn plan(&self) -> &Plan;
    fn names(&self) -> &Names;
    /// `e`, binding at least as tightly as `min` (the language's expression printer).
    fn expr(&self, e: &Expr, min: u8) -> String;
    /// The language's expression spellings.
    fn ops(&self) -> &Ops;
    /// The language's types.
    fn types(&self) -> &Types;
    /// The type of `v` at the boundary, as the caller passes it.
    fn boundary_ty(&self, v: VarId) -> String;
    /// The type of a variable the body declares (a list's, the type of its values).
    fn local_ty(&self, v: VarId) -> String;
    /// The type of the value an optional variable holds.
    fn held_ty(&self, v: VarId) -> String;
    /// A string literal, as the language writes it.
    fn lit(&self, s: &str) -> String {
        (self.ops().str)(s)
    }
    /// The arguments after the value of the runtime's integer check (`_check_int`): the
    /// bounds (absent where the input has none), the sentences of a missing value, of one
    /// not of the kind, and of one out of the range.
    fn check_int_args(&self, input: &InputDoor) -> String {
        let (lo, hi, out) = match &input.range {
            Some(r) => ((self.ops().int)(r.lo), (self.ops().int)(r.hi), self.lit(&r.sentence)),
            None => (self.ops().absent.to_string(), self.ops().absent.to_string(), self.lit("")),
        };
        format!("{lo}, {hi}, {}, {}, {out}", self.lit(&input.missing), self.lit(&input.not_of_kind))
    }
    /// The statement that stops the call.
    fn refusal(&self, r: Refusal) -> String {
        Self::BLOCKS.refuse.spell(r, &|s| self.lit(s), &|t| with_locals(self, t, &[]))
    }

    /// The entry guard's checks of a language whose types leave the missing value or the
    /// kind to it, as a table ([`Guards`]); a language whose types make every check but the
    /// range gives none.
    const GUARD: &'static str = "";
    /// The checks of one input the function makes, in order. An optional input is checked
    /// only when it holds a value (`Missing` is then never asked). Written from the
    /// language's [`Hooks::GUARD`]; without one, the range alone.
    fn guard_input(&mut self, input: &InputDoor, checks: &[Check]) {
        match Self::GUARD {
            "" if checks.contains(&Check::Range) => self.range_check(input),
            "" => {}
            table => guard(self, &Guards::parse(table), input, checks),
        }
    }
    /// The entry guard's checks of a sequence: its count, then each element's fields by
    /// `checks` (by the field's place), each refusal naming the element's place
    /// (`lines[2].quantity is out of range`). A language that does not write walks yet
    /// refuses such a rule at gen (`Backend::refuses`) and never gets here.
    fn guard_sequence(&mut self, seq: &crate::gen::plan::SequencePlan, checks: &[(usize, Vec<Check>)]) {
        let _ = (seq, checks);
        unreachable!("a language that writes no walk refuses the rule at gen")
    }
    /// The wire door of a sequence: the array read, each element's fields as inputs of their
    /// types are read, each refusal naming the element's place (see `guard_sequence`).
    fn wire_sequence(&mut self, seq: &crate::gen::plan::SequencePlan) {
        let _ = seq;
        unreachable!("a language that writes no walk refuses the rule at gen")
    }
    /// The language's wire door as a table ([`WireReads`]); a language that writes its own
    /// `wire_input` and `wire_unknown_keys` gives none.
    const WIRE: &'static str = "";
    /// The wire door: read one input out of the caller's object (missing, kind, range).
    fn wire_input(&mut self, input: &InputDoor) {
        wire_input(self, &WireReads::parse(Self::WIRE), input);
    }
    /// The wire door: refuse the first key that is not an input.
    fn wire_unknown_keys(&mut self, names: &[&str], sentence: &str) {
        unknown_keys(self, &WireReads::parse(Self::WIRE), names, sentence);
    }
    fn record_text(&mut self, json: &str);
    /// The language's record values as a table ([`RecordValues`]); a language that writes
    /// its own `record_value` gives none.
    const RECORD_VALUES: &'static str = "";
    /// One value of the record line, in the wire form: an input as passed, an output as returned.
    fn record_value(&mut self, var: VarId, from: Source) {
        record_value(self, &RecordValues::parse(Self::RECORD_VALUES), var, from, "");
    }

    /// The language's lists, loops and trace as a table ([`Lists`]).
    const LISTS: &'static str;

    /// The row that fired, appended to the trace.
    fn fire_trace(&mut self, t: &TablePlan, row: usize) {
        let fills = [("table", self.lit(&t.name)), ("row", row.to_string())];
        write_filled(self, &lists::<Self>().fired, &fills);
    }

    /// An empty list, declared.
    fn declare_list(&mut self, var: VarId) {
        let ty = self.local_ty(var);
        let boxed = self.types().boxed.iter().find(|(t, _)| *t == ty).map(|(_, b)| b.to_string());
        let fills = [("name", self.name(var)), ("boxed", boxed.unwrap_or_else(|| ty.clone())), ("ty", ty)];
        write_filled(self, &lists::<Self>().list, &fills);
    }

    /// `value` appended to `list`, made the type of its own its elements have, where they have one.
    fn push(&mut self, list: VarId, value: &Expr) {
        let lists = lists::<Self>();
        let mut pushed = self.value(list, value);
        if let (Some(own), Some(ty)) = (&lists.own, self.types().own_type(self.plan(), self.names(), list)) {
            let fills = [("value", pushed), ("atom", self.expr(value, ATOM)), ("ty", ty)];
            pushed = with_locals(self, own, &fills);
        }
        write_filled(self, &lists.push, &[("list", self.name(list)), ("value", pushed)]);
    }

    /// A variable set again and again (an accumulator), declared with its first value.
    fn carry(&mut self, var: VarId, value: &Expr) {
        let fills = [("name", self.name(var)), ("ty", self.local_ty(var)), ("value", self.value(var, value))];
        write_filled(self, &lists::<Self>().carry, &fills);
    }

    /// The line opening a loop binding `element` to each value of `list`.
    fn open_loop(&mut self, list: VarId, element: VarId) {
        let fills = [("list", self.name(list)), ("element", self.name(element)), ("ty", self.local_ty(element))];
        write_filled(self, &lists::<Self>().for_, &fills);
    }

    /// Leave the loop when `stop` holds.
    fn break_if(&mut self, stop: &Expr) {
        let (b, leave) = (Self::BLOCKS, lists::<Self>().break_);
        let test = self.expr(stop, TOP);
        if let Some([when, _]) = b.behind {
            return self.line(&format!("{leave}{when}{test}"));
        }
        self.line(&b.if_.replace('@', &test));
        self.out().indent();
        self.line(&leave);
        self.out().dedent();
        self.close();
    }

    /// A variable as the code reads it.
    fn name(&self, v: VarId) -> String {
        format!("{}{}", Self::BLOCKS.sigil, self.names().vars[v])
    }

    /// The value stored into `var`.
    fn value(&self, _var: VarId, e: &Expr) -> String {
        self.expr(e, TOP)
    }

    /// The left side of a define: the name, with what declares it.
    fn binding(&self, var: VarId) -> String {
        typed(Self::BLOCKS.binding, &self.name(var), &self.local_ty(var))
    }

    /// A value of the record: an input as passed, an output as returned.
    fn place(&self, var: VarId, from: Source) -> String {
        let out = format!("{}{}", Self::BLOCKS.sigil, self.names().local("out"));
        match from {
            Source::Input => self.name(var),
            Source::Output if self.plan().outputs.len() == 1 => out,
            Source::Output => Self::BLOCKS.field.replacen('@', &out, 1).replacen('@', &self.names().fields[var], 1),
        }
    }

    /// A value of an enum column as a `case` of a switch names it.
    fn case_label(&self, kind: Kind, i: u32) -> String {
        self.expr(&Expr::new(kind, Node::Member(i)), TOP)
    }

    /// Lines of code (an expression may span several).
    fn line(&mut self, s: &str) {
        for l in s.split('\n') {
            self.out().line(l);
        }
    }

    /// A statement, and a comment on it.
    fn commented(&mut self, stmt: &str, text: &str) {
        let b = Self::BLOCKS;
        match b.beside {
            Some(sep) => self.line(&format!("{stmt}{sep}{}", comment(text))),
            None => {
                self.line(format!("{} {}", b.comment, comment(text)).trim_end());
                self.line(stmt);
            }
        }
    }

    /// `if test { refuse }`, the test already spelled (or the refusal behind it, where the
    /// language writes it so).
    fn refuse_when(&mut self, test: &str, r: Refusal) {
        let b = Self::BLOCKS;
        let refusal = self.refusal(r);
        if let Some([when, _]) = b.behind {
            return self.line(&format!("{refusal}{when}{test}"));
        }
        self.line(&b.if_.replace('@', test));
        self.out().indent();
        self.line(&refusal);
        self.out().dedent();
        self.close();
    }

    fn refuse_if(&mut self, test: &Expr, r: Refusal) {
        if let (Some([_, unless]), Node::Not(holds)) = (Self::BLOCKS.behind, &test.node) {
            let line = format!("{}{unless}{}", self.refusal(r), self.expr(holds, TOP));
            return self.line(&line);
        }
        let test = self.expr(test, TOP);
        self.refuse_when(&test, r);
    }

    /// What closes a chain of branches, where something does.
    fn close(&mut self) {
        if !Self::BLOCKS.end.is_empty() {
            self.line(Self::BLOCKS.end);
        }
    }

    /// The range check of an input already read: refuse a value outside its declared bounds,
    /// by the plan's test (`RangeCheck::outside`).
    fn range_check(&mut self, input: &InputDoor) {
        refuse_outside(self, input, false);
    }

    /// An input's value as its refusal shows it ([`Blocks::shown`]), read where it holds one.
    fn shown(&self, input: &InputDoor) -> String {
        let x = self.expr(&Expr::new(self.plan().var(input.var).kind, Node::Var(input.var)), TOP);
        let b = Self::BLOCKS;
        let [member, date, other] = b.shown_held.filter(|_| input.optional).unwrap_or(b.shown);
        let template = match input.kind {
            WireKind::Enum(_) => member,
            WireKind::Date => date,
            _ => other,
        };
        template.replace('@', &x)
    }

    /// A constraint: refuse when it does not hold (it holds when an optional it reads is absent).
    fn constraint(&mut self, c: &Constraint) {
        let fails = if Self::BLOCKS.binds_optionals {
            let present = |fails: Expr, &v: &VarId| Expr::bool(Node::Present(v, Box::new(fails)));
            c.optionals.iter().rev().fold(Expr::negate(c.test.clone()), present)
        } else {
            let absent = c.optionals.iter().map(|&v| Expr::bool(Node::IsNone(v)));
            Expr::negate(absent.chain([c.test.clone()]).reduce(Expr::or).expect("a test"))
        };
        self.refuse_if(&fails, Refusal::Input(&c.sentence, None));
    }

    fn define(&mut self, var: VarId, value: &Expr) {
        let what = format!("define {}", self.plan().var(var).name);
        let Some(stores) = &Self::BLOCKS.stores else {
            let stmt = format!("{} = {}{}", self.binding(var), self.value(var, value), Self::BLOCKS.semi);
            return self.commented(&stmt, &what);
        };
        // An optional or conditional value is declared, then stored.
        if self.plan().var(var).optional || matches!(value.node, Node::If(..)) {
            self.commented(&format!("{}{}", self.binding(var), Self::BLOCKS.semi), &what);
            return self.assign(var, value);
        }
        let template = if value.kind == Kind::Num && constant(value) { stores.constant } else { stores.define };
        let fills = [("name", self.name(var)), ("ty", self.local_ty(var)), ("value", self.value(var, value))];
        self.commented(&fill_names(template, |n| fill_of(&fills, n).map(str::to_string)), &what);
    }

    /// A table the lowering put in a function of its own (`Blocks::table_functions`; the
    /// function writes it with [`super::walk::table`]): the call deciding it in place.
    fn table_call(&mut self, t: &TablePlan) {
        unreachable!("table {} in a function of its own, in a language that writes none", t.name)
    }

    /// Before anything else of a table: its comment.
    fn table_open(&mut self, t: &TablePlan) {
        let c = format!("{} table {} (policy {})", Self::BLOCKS.comment, comment(&t.name), t.policy);
        self.line(&c);
    }

    fn pair_guard(&mut self, t: &TablePlan, a: &Row, b: &Row, sentence: &str) {
        self.line(&format!(
            "{} guard: W114 (table {}, row {} × row {}): a pair of rows whose exclusivity could not be proven statically",
            Self::BLOCKS.comment,
            comment(&t.name),
            a.n,
            b.n
        ));
        let both = Expr::bool(Node::And(Box::new(a.cond.clone()), Box::new(b.cond.clone())));
        self.refuse_if(&both, Refusal::Contradiction(sentence));
    }

    /// The whole table as one pattern match over its shape (`Blocks::native_match`).
    fn table_match(&mut self, t: &TablePlan) {
        let b = Self::BLOCKS;
        let m = b.native_match.as_ref().expect("a language that writes a match spells it");
        let shape = t.shape.as_ref().expect("the lowering writes a match only for a table with a match shape");
        for &r in &t.results {
            self.declare(r);
        }
        let [before, between, after] = m.tuple;
        let tuple = |xs: Vec<String>| match xs.len() {
            1 => xs.into_iter().next().expect("one"),
            _ => format!("{before}{}{after}", xs.join(between)),
        };
        let columns = tuple(shape.columns.iter().map(|&c| self.name(c)).collect());
        self.line(&m.open.replace('@', &columns));
        self.out().indent();
        for (row, cells) in t.rows.iter().zip(&shape.patterns) {
            let cell = |c: &Option<Vec<Expr>>| match c {
                None => m.any.to_string(),
                Some(vals) => vals.iter().map(|v| self.expr(v, TOP)).collect::<Vec<_>>().join(m.or),
            };
            let pattern = tuple(cells.iter().map(cell).collect());
            self.commented(&m.arm.replace('@', &pattern), &format!("row {}: {}", row.n, row.cells));
            self.out().indent();
            self.assigns(t, row);
            self.out().dedent();
            self.line(m.close);
        }
        let refusal = self.refusal(Refusal::Contradiction(&t.no_row));
        self.line(&m.rest.replace('$', refusal.strip_suffix(b.semi).unwrap_or(&refusal)));
        self.out().dedent();
        self.line(m.close);
    }

    /// The whole table as its decision over its columns, `switch`es and `if`s.
    fn table_decision(&mut self, t: &TablePlan) {
        let d = t.decision.as_ref().expect("the lowering writes a decision only for a table that has one");
        for &r in &t.results {
            self.declare(r);
        }
        self.decide(t, d);
    }

    /// A result variable, before the rows assign it.
    fn declare(&mut self, var: VarId) {
        if !Self::BLOCKS.declare.is_empty() {
            let s = typed(Self::BLOCKS.declare, &self.name(var), &self.local_ty(var));
            self.line(&s);
        }
    }

    fn assign(&mut self, var: VarId, value: &Expr) {
        let (b, optional) = (Self::BLOCKS, self.plan().var(var).optional);
        let s = match (&b.stores, &value.node) {
            (Some(_), Node::If(..)) => return store_branches(self, var, value),
            (Some(_), Node::Var(y)) if optional && self.plan().var(*y).optional => {
                format!("{} = {}{}", self.name(var), self.name(*y), b.semi)
            }
            (Some(stores), node) if optional && !matches!(node, Node::Absent) => {
                let fills = [("x", self.name(var)), ("ty", self.held_ty(var)), ("value", self.value(var, value))];
                fill_names(stores.held, |n| fill_of(&fills, n).map(str::to_string))
            }
            _ => format!("{} = {}{}", self.name(var), self.value(var, value), b.semi),
        };
        self.line(&s);
    }

    /// What a row that fired stores, and its number.
    fn assigns(&mut self, t: &TablePlan, row: &Row) {
        for (v, value) in &row.assigns {
            self.assign(*v, value);
        }
        self.fire_trace(t, row.n);
    }

    /// A row that fired: its comment, what it stores, its number.
    fn fire(&mut self, t: &TablePlan, row: &Row) {
        let c = format!("{} row {}: {}", Self::BLOCKS.comment, row.n, comment(&row.cells));
        self.line(c.trim_end());
        self.assigns(t, row);
    }

    /// One row, opened as `open` says.
    fn row(&mut self, t: &TablePlan, row: &Row, open: Open) {
        self.open_row(row, open);
        self.assigns(t, row);
        self.out().dedent();
    }

    /// The branch of a row, opened as `open` says, with the row's comment, one level in.
    fn open_row(&mut self, row: &Row, open: Open) {
        let b = Self::BLOCKS;
        let line = match open {
            Open::If => b.if_.replace('@', &self.expr(&row.cond, TOP)),
            Open::ElseIf => b.else_if.replace('@', &self.expr(&row.cond, TOP)),
            Open::Else => b.else_.to_string(),
        };
        let what = format!("row {}: {}", row.n, row.cells);
        match b.beside {
            Some(_) => {
                self.commented(&line, &what);
                self.out().indent();
            }
            None => {
                self.line(&line);
                self.out().indent();
                let c = format!("{} {}", b.comment, comment(&what));
                self.line(c.trim_end());
            }
        }
    }

    /// After the last row: the refusal no call reaches (completeness proved it), unless the
    /// last row `settled` the chain with an `else`.
    fn no_row(&mut self, t: &TablePlan, settled: bool) {
        let b = Self::BLOCKS;
        if !settled {
            self.line(b.else_);
            self.out().indent();
            let r = self.refusal(Refusal::Contradiction(&t.no_row));
            self.line(&r);
            self.out().dedent();
        }
        self.close();
    }

    /// One level of a table written as a decision over its columns (a `switch` on an enum,
    /// an `if` on a boolean), down to the first row each case reaches.
    fn decide(&mut self, t: &TablePlan, d: &Decision) {
        let b = Self::BLOCKS;
        let sw = b.switch.as_ref().expect("a language that writes decisions has a switch");
        match d {
            Decision::Row(r) => self.fire(t, &t.rows[*r]),
            Decision::NoRow => {
                let r = self.refusal(Refusal::Contradiction(&t.no_row));
                self.line(&r);
            }
            Decision::Bool { column, yes, no } => {
                self.line(&b.if_.replace('@', &self.name(*column)));
                self.out().indent();
                self.decide(t, yes);
                self.out().dedent();
                self.line(b.else_);
                self.out().indent();
                self.decide(t, no);
                self.out().dedent();
                self.close();
            }
            Decision::Switch { column, arms } => {
                self.line(&sw.open.replace('@', &self.name(*column)));
                if sw.indent {
                    self.out().indent();
                }
                let kind = self.plan().var(*column).kind;
                let cases = arms.iter().map(|(values, then)| {
                    let labels: Vec<String> = values.iter().map(|&i| self.case_label(kind, i)).collect();
                    (sw.case.replace('@', &labels.join(", ")), Some(then))
                });
                let cases: Vec<(String, Option<&Decision>)> = cases.chain([(sw.default.to_string(), None)]).collect();
                for (case, then) in cases {
                    self.line(&case);
                    self.out().indent();
                    self.decide(t, then.unwrap_or(&Decision::NoRow));
                    self.out().dedent();
                    if !sw.close.is_empty() {
                        self.line(sw.close);
                    }
                }
                if sw.indent {
                    self.out().dedent();
                }
                self.close();
            }
        }
    }
}

/// The record function, one call as a fixtures record (formats.md: the line `rulec replay`
/// reads), from the language's template: its comment, `{signature}`, the runtime's start of
/// a record (the record's brace, and the tag when there is one), a line `{pieces}` one level
/// in where the record's pieces go, the runtime's end (the trace, the brackets) and what
/// closes the function. Any other `{name}` is the function's local `name` (one of the
/// language's `locals`, spelled as the naming pass left it, after the sigil).
pub fn record_function<H: Hooks>(plan: &Plan, h: &mut H, template: &str, signature: &str) {
    let lines: Vec<&str> = template.lines().collect();
    let at = lines.iter().position(|l| l.trim() == "{pieces}").expect("a record template has a `{pieces}` line");
    let fills = [("signature", signature.to_string())];
    write_filled(h, &lines[..at].join("\n"), &fills);
    h.out().indent();
    record(plan, h);
    h.out().dedent();
    write_filled(h, &lines[at + 1..].join("\n"), &fills);
    h.out().blank();
}

/// The record line after its optional tag, up to the trace. Where the language's table joins
/// the text to the value after it ([`RecordValues`]), one statement appends both.
fn record<H: Hooks>(plan: &Plan, h: &mut H) {
    // A language that writes its own `record_value` gives no table, and joins nothing.
    let table = (!H::RECORD_VALUES.is_empty()).then(|| RecordValues::parse(H::RECORD_VALUES));
    let joined = table.as_ref().filter(|t| t.joined);
    let mut text = String::new();
    for piece in &plan.record {
        let (var, from) = match piece {
            Piece::Text(t) if joined.is_some() => {
                text.push_str(t);
                continue;
            }
            Piece::Text(t) => {
                h.record_text(t);
                continue;
            }
            Piece::Input(v) => (*v, Source::Input),
            Piece::Output(v) => (*v, Source::Output),
        };
        match joined {
            Some(table) => record_value(h, table, var, from, &std::mem::take(&mut text)),
            None => h.record_value(var, from),
        }
    }
    if !text.is_empty() {
        h.record_text(&text);
    }
}

/// A conditional value stored branch by branch ([`Blocks::stores`]).
fn store_branches<H: Hooks + ?Sized>(h: &mut H, var: VarId, value: &Expr) {
    let b = H::BLOCKS;
    let mut open = b.if_;
    let mut rest = value;
    while let Node::If(c, then, otherwise) = &rest.node {
        let line = open.replace('@', &h.expr(c, TOP));
        h.line(&line);
        h.out().indent();
        h.assign(var, then);
        h.out().dedent();
        (open, rest) = (b.else_if, otherwise);
    }
    h.line(b.else_);
    h.out().indent();
    h.assign(var, rest);
    h.out().dedent();
    h.close();
}

/// Whether `e` is a constant: literals, and what arithmetic makes of them.
fn constant(e: &Expr) -> bool {
    match &e.node {
        Node::Int(_) | Node::Bool(_) | Node::Str(_) => true,
        Node::Neg(x) | Node::DivExact(x, _) => constant(x),
        Node::Arith(_, a, b) => constant(a) && constant(b),
        _ => false,
    }
}

/// `template` with each `{name}` one of `fills` or else the generated code's local `name`
/// (after the sigil).
fn with_locals<H: Hooks + ?Sized>(h: &H, template: &str, fills: &[(&str, String)]) -> String {
    fill_names(template, |name| {
        let own = fill_of(fills, name).map(str::to_string);
        Some(own.unwrap_or_else(|| format!("{}{}", H::BLOCKS.sigil, h.names().local(name))))
    })
}

/// Writes `template`'s lines, filled as [`with_locals`] fills them.
fn write_filled<H: Hooks + ?Sized>(h: &mut H, template: &str, fills: &[(&str, String)]) {
    let text = with_locals(h, template, fills);
    h.line(&text);
}

/// How a language writes a list, a loop and the trace ([`Hooks::LISTS`]): a table of
/// `key: template` lines, `\n` in a template a new line; any `{name}` not listed is a local.
///
/// - `fired`: the statement appending a fired row to the core's trace (`{trace}`), `{table}`
///   the table's name as a literal, `{row}` the row's number;
/// - `list`: the statement declaring `{name}`, an empty list of values of type `{ty}` (`{boxed}`
///   as a reference, where the language boxes it: Java's `Long`);
/// - `push`: the statement appending `{value}` to the list `{list}`;
/// - `own` (where the language gives a number a type of its own, [`Types::own_type`]): the
///   value pushed onto a list of such numbers, `{value}` (`{atom}` where it binds as one)
///   made the type `{ty}`;
/// - `carry`: the statement declaring `{name}`, a variable of type `{ty}` set again later,
///   with its first value `{value}`;
/// - `for`: the line opening a loop that binds `{element}` (of type `{ty}`) to each value of
///   `{list}` in order; `Blocks::end` closes it;
/// - `break`: the statement leaving the loop.
pub struct Lists {
    pub fired: String,
    pub list: String,
    pub push: String,
    pub own: Option<String>,
    pub carry: String,
    pub for_: String,
    pub break_: String,
}

impl Lists {
    pub fn parse(table: &'static str) -> Lists {
        let found = |key: &str| {
            let found = table.lines().find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")));
            found.map(|t| t.replace("\\n", "\n"))
        };
        let entry = |key: &str| found(key).unwrap_or_else(|| panic!("the lists table has no `{key}:`"));
        Lists {
            fired: entry("fired"),
            list: entry("list"),
            push: entry("push"),
            own: found("own"),
            carry: entry("carry"),
            for_: entry("for"),
            break_: entry("break"),
        }
    }
}

/// The language's lists table.
fn lists<H: Hooks + ?Sized>() -> Lists {
    Lists::parse(H::LISTS)
}

/// How a language's wire door reads an input and refuses an unknown key ([`Hooks::WIRE`]): a
/// table of templates, a line `key: template` each, the loop for unknown keys on the lines
/// after `unknown_keys:`, `\n` in a template a new line. In the templates `{raw}` is the value
/// under the input's key, `{name}` that key as a literal, `{var}` the input's variable and
/// `{decl}` its binding ([`Hooks::binding`]), `{m}`, `{k}` and `{out}` the sentences of a value
/// missing, not of its kind and out of range, `{enum}` the input's enum type and `{parse}`
/// its parser (where the language names one), `{int_args}` the arguments of the runtime's
/// integer check after the value ([`Hooks::check_int_args`]); any other `{name}` is a local.
///
/// - `raw`: the value under the input's key; `required` and `optional`: the statement that
///   reads an input, `{read}` the reader of its kind (an optional's absent or null read as
///   no value); `held`: what the optional form hands the reader in place of `{raw}`, where
///   it is not `{raw}` (Swift's closure's `$0`);
/// - `integer`, `boolean`, `text`, `date`, `member`: the reader of each kind;
///   `integer_ranged: yes` (`date_ranged: yes`) where the integer (date) reader checks the
///   range itself (the door then checks only the others');
/// - `own`: what makes `{read}` the type of its own a number has at the boundary
///   ([`Types::own_type`], `{type}`), where the language makes it so at the door;
/// - `guarded: yes` where the read stores the value as it comes (`{read}` is `{raw}`, `{ty}`
///   the input's type at the boundary) and the entry guard's checks follow, every one of them
///   ([`Hooks::GUARD`], its `wire_<type>` templates in place of the guard's where it has
///   them): the readers are then not given;
/// - `unknown_keys`: the loop that refuses the first key that is not an input, `{inputs}` the
///   inputs' names as literals (between each two `key_sep`, `, ` where it is not given),
///   `{sentence}` what follows the key; `single_key`: how `{inputs}` is written for one
///   input, `{key}` it, where that differs (Python's tuple `{key},`); `no_keys`: the refusal
///   of any key for a rule with no inputs, where the loop cannot be written over none
///   (Rust's `matches!`).
pub struct WireReads {
    pub raw: String,
    pub required: String,
    pub optional: String,
    pub held: Option<String>,
    pub integer: Option<String>,
    pub boolean: Option<String>,
    pub text: Option<String>,
    pub date: Option<String>,
    pub member: Option<String>,
    pub integer_ranged: bool,
    pub date_ranged: bool,
    pub own: Option<String>,
    pub key_sep: String,
    pub no_keys: Option<String>,
    pub unknown_keys: String,
    pub guarded: bool,
    pub single_key: Option<String>,
}

impl WireReads {
    pub fn parse(table: &'static str) -> WireReads {
        let (lines, unknown_keys) =
            table.split_once("\nunknown_keys:\n").expect("a wire table ends in `unknown_keys:`");
        let entry = |key: &str| {
            let line = lines.lines().find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")));
            line.map(|t| t.replace("\\n", "\n"))
        };
        let need = |key: &str| entry(key).unwrap_or_else(|| panic!("the wire table has no `{key}:`"));
        let guarded = entry("guarded").as_deref() == Some("yes");
        let reader = |key: &str| if guarded { entry(key) } else { Some(need(key)) };
        WireReads {
            raw: need("raw"),
            required: need("required"),
            optional: need("optional"),
            held: entry("held"),
            integer: reader("integer"),
            boolean: reader("boolean"),
            text: reader("text"),
            date: reader("date"),
            member: reader("member"),
            integer_ranged: entry("integer_ranged").as_deref() == Some("yes"),
            date_ranged: entry("date_ranged").as_deref() == Some("yes"),
            own: entry("own"),
            key_sep: entry("key_sep").unwrap_or_else(|| ", ".to_string()),
            no_keys: entry("no_keys"),
            unknown_keys: unknown_keys.trim_end().to_string(),
            guarded,
            single_key: entry("single_key"),
        }
    }
}

/// The wire door's read of one input (see [`WireReads`]), then its range check (or, where
/// the door is guarded, every check of the entry guard's).
fn wire_input<H: Hooks + ?Sized>(h: &mut H, w: &WireReads, input: &InputDoor) {
    let reader = match input.kind {
        WireKind::Integer => &w.integer,
        WireKind::Boolean => &w.boolean,
        WireKind::Text => &w.text,
        WireKind::Date => &w.date,
        WireKind::Enum(_) => &w.member,
    };
    let reader = match w.guarded {
        true => "{raw}",
        false => reader.as_deref().unwrap_or_else(|| panic!("the wire table reads no {:?}", input.kind)),
    };
    let out = input.range.as_ref().map_or(String::new(), |r| h.lit(&r.sentence));
    let mut fills = vec![
        ("name", h.lit(&input.name)),
        ("var", h.name(input.var)),
        ("m", h.lit(&input.missing)),
        ("k", h.lit(&input.not_of_kind)),
        ("out", out),
        ("int_args", h.check_int_args(input)),
        ("decl", h.binding(input.var)),
        ("ty", h.boundary_ty(input.var)),
    ];
    if let WireKind::Enum(e) = input.kind {
        fills.push(("enum", h.names().enums[e].clone()));
        fills.extend(h.names().parsers[e].clone().map(|p| ("parse", p)));
    }
    let raw = with_locals(h, &w.raw, &fills);
    let held = match (input.optional, &w.held) {
        (true, Some(held)) => with_locals(h, held, &fills),
        _ => raw.clone(),
    };
    let mut read = with_locals(h, reader, &[&[("raw", held)], &fills[..]].concat());
    if let (Some(own), Some(ty)) = (&w.own, h.types().own_type(h.plan(), h.names(), input.var)) {
        read = with_locals(h, own, &[("read", read), ("type", ty)]);
    }
    let form = if input.optional { &w.optional } else { &w.required };
    write_filled(h, form, &[&[("raw", raw), ("read", read)], &fills[..]].concat());
    let ranged = match input.kind {
        WireKind::Integer => w.integer_ranged,
        WireKind::Date => w.date_ranged,
        _ => false,
    };
    if w.guarded {
        let mut checks = if input.optional { vec![Check::Kind] } else { vec![Check::Missing, Check::Kind] };
        checks.extend(input.range.as_ref().map(|_| Check::Range));
        guard(h, &Guards { table: H::GUARD, wire: true }, input, &checks);
    } else if !ranged {
        h.range_check(input);
    }
}

/// The wire door's refusal of the first key that is not an input (see [`WireReads`]).
fn unknown_keys<H: Hooks + ?Sized>(h: &mut H, w: &WireReads, names: &[&str], sentence: &str) {
    let keys: Vec<String> = names.iter().map(|k| h.lit(k)).collect();
    let keys = match (keys.as_slice(), &w.single_key) {
        ([key], Some(single)) => single.replace("{key}", key),
        _ => keys.join(&w.key_sep),
    };
    let fills = [("inputs", keys), ("sentence", h.lit(sentence))];
    let template = match &w.no_keys {
        Some(none) if names.is_empty() => none,
        _ => &w.unknown_keys,
    };
    write_filled(h, template, &fills);
}

/// How a language writes one value of the record line ([`Hooks::RECORD_VALUES`]): a table of
/// `key: template` lines, `\n` in a template a new line. `bool`, `str`, `enum`, `date`,
/// `int`, `unit`: the text of a value of that boundary type, `{x}` the value; `required` and
/// `optional`: the statement that appends it to the record, `{one}` that text (its lines after
/// the first as far in as the `{one}` line), `{x}` the value's place (an optional's test reads
/// it); `held`: what the optional form hands the type's template in place of `{x}`, where it
/// is not `{x}` (Swift's closure's `$0`, Go's `*{x}`), `held_<type>` the same for one type;
/// `optional_<type>`: the optional form of one type, where it differs;
/// `input` and `output`: an input's place (`{field}` its field) and the outputs', where they
/// are not the variable and the local `out` (Go's record reads them out of `in` and `out`);
/// `lent`: how an output's field is lent where a template reads the value whole (`{lent}`,
/// the place itself where it is no field or there is no `lent`: Rust's `&{x}`); `list`: the
/// statement that appends a list output `{x}` as a JSON array, `{one}` the text of its element
/// `element` (`{x}` in it the list: Java's `{x}.get({i})`, Swift's `$0`); `joined: yes`
/// where that statement appends the record's text before the value too, `{text}` (a
/// literal), the text after the last value then written by [`Hooks::record_text`]. Any other
/// `{name}` is a local.
pub struct RecordValues {
    by_type: [String; 6],
    held_by_type: [Option<String>; 6],
    required: String,
    optional: String,
    optional_by_type: [Option<String>; 6],
    held: Option<String>,
    input: Option<String>,
    output: Option<String>,
    lent: Option<String>,
    list: String,
    element: String,
    /// A sequence, `{one}` an element's object text over `{_item}` (`elements:`), and what
    /// joins two strings (`concat:`), where the language writes walks.
    elements: Option<String>,
    concat: Option<String>,
    joined: bool,
}

/// The keys of the boundary types in a language's tables.
const RECORD_TYPES: [&str; 6] = ["bool", "str", "enum", "date", "int", "unit"];

impl RecordValues {
    pub fn parse(table: &'static str) -> RecordValues {
        let entry = |key: &str| {
            table
                .lines()
                .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")))
                .map(|t| t.replace("\\n", "\n"))
        };
        let need = |key: &str| entry(key).unwrap_or_else(|| panic!("the record table has no `{key}:`"));
        RecordValues {
            by_type: RECORD_TYPES.map(need),
            held_by_type: RECORD_TYPES.map(|t| entry(&format!("held_{t}"))),
            required: need("required"),
            optional: need("optional"),
            optional_by_type: RECORD_TYPES.map(|ty| entry(&format!("optional_{ty}"))),
            held: entry("held"),
            input: entry("input"),
            output: entry("output"),
            lent: entry("lent"),
            list: need("list"),
            element: need("element"),
            elements: entry("elements"),
            concat: entry("concat"),
            joined: entry("joined").as_deref() == Some("yes"),
        }
    }

    fn at(ty: BoundaryTy) -> usize {
        match ty {
            BoundaryTy::Bool => 0,
            BoundaryTy::Str => 1,
            BoundaryTy::Enum(_) => 2,
            BoundaryTy::Date => 3,
            BoundaryTy::Int => 4,
            BoundaryTy::Unit(_) => 5,
        }
    }

    /// The place of a value of the record, as the table says where it is not [`Hooks::place`].
    fn place<H: Hooks + ?Sized>(&self, h: &H, var: VarId, from: Source) -> String {
        let field = h.names().fields[var].clone();
        match (from, &self.input, &self.output) {
            (Source::Input, Some(input), _) => with_locals(h, input, &[("field", field)]),
            (Source::Output, _, Some(out)) if h.plan().outputs.len() == 1 => out.clone(),
            (Source::Output, _, Some(out)) => H::BLOCKS.field.replacen('@', out, 1).replacen('@', &field, 1),
            _ => h.place(var, from),
        }
    }
}

/// One value of the record line, written from the language's table (see [`RecordValues`]).
fn record_value<H: Hooks + ?Sized>(h: &mut H, r: &RecordValues, var: VarId, from: Source, text: &str) {
    let (x, v) = (r.place(h, var, from), h.plan().var(var));
    let (optional, at) = (v.optional, RecordValues::at(v.ty));
    if v.role == crate::gen::plan::Role::Sequence {
        return record_sequence(h, r, var, &x, text);
    }
    if v.list {
        return record_list(h, r, &x, at, text);
    }
    let field = from == Source::Output && h.plan().outputs.len() > 1;
    let lent = match &r.lent {
        Some(lent) if field => with_locals(h, lent, &[("x", x.clone())]),
        _ => x.clone(),
    };
    let (held, held_lent) = match (optional, r.held_by_type[at].as_ref().or(r.held.as_ref())) {
        (true, Some(held)) => {
            let held = with_locals(h, held, &[("x", x.clone())]);
            (held.clone(), held)
        }
        _ => (x.clone(), lent.clone()),
    };
    let form = match optional {
        true => r.optional_by_type[at].as_ref().unwrap_or(&r.optional),
        false => &r.required,
    };
    let depth = form.lines().find(|l| l.contains("{one}")).map_or("", |l| &l[..l.len() - l.trim_start().len()]);
    let one = with_locals(h, &r.by_type[at], &[("x", held), ("lent", held_lent)]).replace('\n', &format!("\n{depth}"));
    let text = with_locals(h, form, &[("x", x), ("lent", lent), ("one", one), ("text", h.lit(text))]);
    h.line(&text);
}

/// A sequence of the record line at `x`: an array of objects, each field by its declared
/// name, its value as the record writes a value of its type.
fn record_sequence<H: Hooks + ?Sized>(h: &mut H, r: &RecordValues, var: VarId, x: &str, text: &str) {
    let plan = h.plan();
    let s = plan.sequences.iter().find(|s| s.list == var).expect("a sequence of the plan");
    let (Some(elements), Some(concat)) = (&r.elements, &r.concat) else {
        unreachable!("a language that writes no walk refuses the rule at gen")
    };
    let item = with_locals(h, &r.element, &[]);
    let mut parts: Vec<String> = Vec::new();
    for (k, f) in s.fields.iter().enumerate() {
        let key = serde_json::to_string(&f.name).expect("a name serializes");
        parts.push(h.lit(&format!("{}{key}:", if k == 0 { "{" } else { "," })));
        let place = H::BLOCKS.field.replacen('@', &item, 1).replacen('@', &h.names().fields[f.var], 1);
        let at = RecordValues::at(plan.var(f.var).ty);
        // Parenthesized where the value is more than a call (`"true" if x else "false"`).
        let one = with_locals(h, &r.by_type[at], &[("x", place.clone()), ("lent", place)]);
        parts.push(if one.contains(' ') { format!("({one})") } else { one });
    }
    parts.push(h.lit(if s.fields.is_empty() { "{}" } else { "}" }));
    let one = parts.join(concat);
    let line = with_locals(h, elements, &[("x", x.to_string()), ("one", one), ("text", h.lit(text))]);
    h.line(&line);
}

/// A list output of the record line at `x`, its elements of the boundary type at `at`.
fn record_list<H: Hooks + ?Sized>(h: &mut H, r: &RecordValues, x: &str, at: usize, text: &str) {
    let element = with_locals(h, &r.element, &[("x", x.to_string())]);
    let depth = r.list.lines().find(|l| l.contains("{one}")).map_or("", |l| &l[..l.len() - l.trim_start().len()]);
    let one = with_locals(h, &r.by_type[at], &[("x", element.clone()), ("lent", element)]);
    let one = one.replace('\n', &format!("\n{depth}"));
    let line = with_locals(h, &r.list, &[("x", x.to_string()), ("one", one), ("text", h.lit(text))]);
    h.line(&line);
}

/// `template` with `@` the variable `name` and `$` its type `ty`, in one pass (so a `$` of
/// PHP's names stays as it is).
fn typed(template: &str, name: &str, ty: &str) -> String {
    let mut out = String::new();
    for c in template.chars() {
        match c {
            '@' => out.push_str(name),
            '$' => out.push_str(ty),
            c => out.push(c),
        }
    }
    out
}

/// The range check of `input` (see [`Hooks::range_check`]); `held` where the code stands
/// inside an optional's test of holding a value, which then goes. Where a refusal stands
/// behind its test, it is written `unless` the value is inside the range.
fn refuse_outside<H: Hooks + ?Sized>(h: &mut H, input: &InputDoor, held: bool) {
    if let Some(r) = &input.range {
        let shown = h.shown(input);
        let outside = if held { held_test(&r.outside) } else { r.outside.clone() };
        let test = match H::BLOCKS.behind {
            Some(_) => Expr::negate(inside(&outside)),
            None => outside,
        };
        h.refuse_if(&test, Refusal::Input(&r.sentence, Some(&shown)));
    }
}

/// A test over an optional's value, without its test of holding one.
fn held_test(test: &Expr) -> Expr {
    match &test.node {
        Node::Present(_, t) => (**t).clone(),
        _ => test.clone(),
    }
}

/// The test that holds exactly when `test` does not, its negation carried down to the
/// comparisons (`lo <= x && x <= hi` for `x < lo || x > hi`).
fn inside(test: &Expr) -> Expr {
    match &test.node {
        Node::Or(a, b) => Expr::and(inside(a), inside(b)),
        Node::And(a, b) => Expr::or(inside(a), inside(b)),
        Node::Cmp(op, a, b) => Expr::cmp(super::printer::negated(*op), (**a).clone(), (**b).clone()),
        Node::Present(v, t) => Expr::or(Expr::bool(Node::IsNone(*v)), inside(t)),
        _ => Expr::negate(test.clone()),
    }
}

/// How a language whose callers can pass anything checks an input in the entry guard
/// ([`Hooks::GUARD`]): a table of `key: template` lines, `\n` in a template a new line.
///
/// - `bool`, `str`, `enum`, `date`, `int`, `unit`: the check of the kind of a value of that
///   boundary type (and of a missing one, where `missing` gives none); `<type>_ranged`
///   (`date_ranged`): the check of an input that declares a range, where it differs. A line
///   `{range}` in it is where the range check goes ([`Hooks::range_check`]); a template with
///   none checks the range itself (`{outside}`, `{inside}`, `{int_args}`).
/// - `missing`: the check of a missing value, where the language makes it apart from the
///   kind's (Go's enum zero).
/// - `wire_<type>`: the check of a value the wire door read out of JSON (`WireReads::guarded`),
///   where it differs from the guard's.
/// - `held`: the lines an optional input's checks stand in, a line `{checks}` where they go
///   (`if {x} is not None:`); without it the checks stand as they are, each test held to a
///   value by `{present}`, the key `present` (`{x} != nil && `).
/// - `<type>_optional`, `<type>_ranged_optional`: the check of an optional input, where it
///   differs (its test held to a value otherwise than by a prefix); `absent`: what an optional
///   input's checks start with (TypeScript's `undefined` made `null`).
/// - `each_member`: a line of `{members}`, one for each value of the input's enum, `{member}`
///   the value's name and `{enum}` its type (a `case` of a `switch`).
///
/// In the templates `{x}` is the input's variable; `{m}`, `{k}`, `{out}` the sentences of a
/// value missing, not of its kind, out of range (literals); `{refuse_m}`, `{refuse_k}` the
/// refusals of a value missing and of one not of its kind (its value shown); `{int_args}`
/// the arguments of the runtime's integer check after the value ([`Hooks::check_int_args`]);
/// `{enum}` the input's enum type, `{unit}` its unit's type; `{outside}` the plan's range
/// test (`RangeCheck::outside`) and `{inside}` its negation, each over the value alone
/// where the checks are held, `{outside_held}` the test over the value alone wherever they
/// stand. Any other `{name}` is a local.
pub struct Guards {
    table: &'static str,
    /// Checking a value the wire door read out of JSON: `wire_<type>` first.
    wire: bool,
}

impl Guards {
    pub fn parse(table: &'static str) -> Guards {
        Guards { table, wire: false }
    }

    fn entry(&self, key: &str) -> Option<String> {
        let found = self.table.lines().find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(": ")));
        found.map(|t| t.replace("\\n", "\n"))
    }

    /// The check of the kind of `input`'s value: the first the table gives of its optional
    /// ranged form, its ranged form (where it has a range), its optional form (where it is
    /// optional) and its type's.
    fn kind(&self, plan: &Plan, input: &InputDoor) -> Option<String> {
        let ty = type_key(plan.var(input.var).ty);
        let (ranged, optional) = (input.range.is_some(), input.optional);
        let forms =
            [(ranged && optional, "_ranged_optional"), (ranged, "_ranged"), (optional, "_optional"), (true, "")];
        let wire = self.wire.then(|| self.entry(&format!("wire_{ty}"))).flatten();
        wire.or_else(|| {
            forms.iter().filter(|(holds, _)| *holds).find_map(|(_, form)| self.entry(&format!("{ty}{form}")))
        })
    }
}

/// The key of a boundary type in a language's tables.
fn type_key(ty: BoundaryTy) -> &'static str {
    RECORD_TYPES[RecordValues::at(ty)]
}

/// The entry guard's checks of one input, in the tree's order, from the language's table.
fn guard<H: Hooks + ?Sized>(h: &mut H, g: &Guards, input: &InputDoor, checks: &[Check]) {
    let held = match (input.optional, g.entry("held")) {
        (true, Some(held)) => Some(held),
        _ => None,
    };
    let fills = guard_fills(h, g, input, held.is_some());
    if let Some(absent) = g.entry("absent").filter(|_| input.optional) {
        write_parts(h, &absent, &fills, &mut |_, _| {});
    }
    let Some(held) = held else { return guard_checks(h, g, input, checks, &fills, false) };
    write_parts(h, &held, &fills, &mut |h: &mut H, _| guard_checks(h, g, input, checks, &fills, true));
}

/// The checks themselves (see [`guard`]).
fn guard_checks<H: Hooks + ?Sized>(
    h: &mut H,
    g: &Guards,
    input: &InputDoor,
    checks: &[Check],
    fills: &[(&str, String)],
    held: bool,
) {
    let kind = g.kind(h.plan(), input).filter(|_| checks.contains(&Check::Kind));
    for check in checks {
        match check {
            Check::Missing => {
                if let Some(missing) = g.entry("missing") {
                    write_parts(h, &missing, fills, &mut |_, _| {});
                }
            }
            Check::Kind => {
                let kind = kind.as_deref().unwrap_or_else(|| panic!("the guard table checks no {:?}", input.kind));
                write_parts(h, kind, fills, &mut |h: &mut H, _| refuse_outside(h, input, held));
            }
            Check::Range if kind.is_none() => refuse_outside(h, input, held),
            Check::Range => {}
        }
    }
}

/// The fills every template of the guard table has (see [`Guards`]).
fn guard_fills<H: Hooks + ?Sized>(h: &H, g: &Guards, input: &InputDoor, held: bool) -> Vec<(&'static str, String)> {
    let x = h.name(input.var);
    let present = match input.optional && !held {
        true => g.entry("present").map(|p| p.replace("{x}", &x)).unwrap_or_default(),
        false => String::new(),
    };
    let shown = h.shown(input);
    let mut fills = vec![
        ("m", h.lit(&input.missing)),
        ("k", h.lit(&input.not_of_kind)),
        ("refuse_m", h.refusal(Refusal::Input(&input.missing, None))),
        ("refuse_k", h.refusal(Refusal::Input(&input.not_of_kind, Some(&shown)))),
        ("int_args", h.check_int_args(input)),
        ("present", present),
        ("x", x),
    ];
    if let Some(r) = &input.range {
        let outside = if held { held_test(&r.outside) } else { r.outside.clone() };
        let or = h.ops().prec.or;
        fills.push(("out", h.lit(&r.sentence)));
        fills.push(("inside", h.expr(&inside(&outside), or)));
        fills.push(("outside", h.expr(&outside, or)));
        fills.push(("outside_held", h.expr(&held_test(&r.outside), or)));
    }
    match h.plan().var(input.var).ty {
        BoundaryTy::Enum(e) => {
            fills.push(("enum", h.names().enums[e].clone()));
            let each = g.entry("each_member").unwrap_or_default();
            let ty = ("enum", h.names().enums[e].clone());
            let members: Vec<String> = h.names().members[e]
                .iter()
                .map(|m| with_locals(h, &each, &[("member", m.clone()), ty.clone()]))
                .collect();
            fills.push(("members", members.join("\n")));
        }
        BoundaryTy::Unit(u) => fills.push(("unit", h.names().units[u].clone())),
        _ => {}
    }
    fills
}

/// Writes `template`'s lines, filled as [`with_locals`] fills them, a line holding nothing
/// but a `{name}` that `fills` do not give being where `part` writes, at that line's depth.
fn write_parts<H: Hooks + ?Sized>(
    h: &mut H,
    template: &str,
    fills: &[(&str, String)],
    part: &mut dyn FnMut(&mut H, &str),
) {
    for line in template.lines() {
        let body = line.trim_start();
        let name = body.strip_prefix('{').and_then(|b| b.strip_suffix('}'));
        let is_part =
            |n: &&str| n.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) && fill_of(fills, n).is_none();
        let name = name.filter(is_part);
        match name {
            Some(name) => {
                let depth = (line.len() - body.len()) / h.out().unit().len();
                (0..depth).for_each(|_| h.out().indent());
                part(h, name);
                (0..depth).for_each(|_| h.out().dedent());
            }
            None => write_filled(h, line, fills),
        }
    }
}
