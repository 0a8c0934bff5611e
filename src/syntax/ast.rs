//! The syntax tree. Every node carries its byte span; nothing here is resolved or typed.

use crate::source::Span;
use num_rational::BigRational;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `NAME` or `NAME(alias)`.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclName {
    pub name: Ident,
    pub alias: Option<Ident>,
}

impl DeclName {
    pub fn span(&self) -> Span {
        match &self.alias {
            Some(a) => self.name.span.to(a.span),
            None => self.name.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub header: Header,
    pub items: Vec<Item>,
    /// Comment lines after the last item.
    pub trailing_comments: Vec<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum HeaderKind {
    Rule { version: u64 },
    Enums,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub kind: HeaderKind,
    pub name: DeclName,
    pub span: Span,
    pub leading: Vec<Comment>,
    pub trailing: Option<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    /// The text after `#`, as written.
    pub text: String,
    pub span: Span,
    /// A blank line stood before this comment.
    pub blank_before: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
    /// Whole-line comments directly above the item.
    pub leading: Vec<Comment>,
    /// A comment at the end of the item's (first) line.
    pub trailing: Option<Comment>,
    /// `about "…"` written directly after this declaration documents it.
    pub about: Option<About>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct About {
    pub text: StrLit,
    pub span: Span,
    pub trailing: Option<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StrLit {
    pub value: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    About(About),
    Use(StrLit),
    Enum(EnumDecl),
    Group(GroupDecl),
    Input(VarDecl),
    Output(VarDecl),
    Value(VarDecl),
    Define(DefineDecl),
    /// `elements NAME up to N: FIELD: TYPE RANGE, …`: a sequence the rule walks.
    Elements(ElementsDecl),
    /// `fold KIND VALUE over SEQ by VERDICT: ACTION VALUE, …, empty EXPR -> NAME`.
    Fold(FoldDecl),
    Constraint(Expr),
    Table(Table),
    Expect(Expect),
}

impl ItemKind {
    /// Position in the canonical declaration order (language.md §2).
    pub fn canonical_rank(&self) -> u8 {
        match self {
            ItemKind::About(_) => 0,
            ItemKind::Use(_) => 1,
            ItemKind::Enum(_) | ItemKind::Group(_) => 2,
            ItemKind::Input(_) | ItemKind::Elements(_) => 3,
            ItemKind::Constraint(_) => 4,
            ItemKind::Output(_) => 5,
            ItemKind::Value(_) => 6,
            ItemKind::Define(_) => 7,
            // A fold reads the verdict a table decides: it stands with the tables.
            ItemKind::Table(_) | ItemKind::Fold(_) => 8,
            ItemKind::Expect(_) => 9,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    pub name: DeclName,
    pub ordered: bool,
    pub values: Vec<EnumValue>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    pub name: DeclName,
    pub display: Option<StrLit>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupDecl {
    pub name: Ident,
    pub values: Vec<Ident>,
}

/// `input`, `output` and `value` declarations.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: DeclName,
    pub ty: TypeExpr,
    pub range: Option<RangeExpr>,
    pub rounding: Option<Rounding>,
    /// `default LIT`: what a `collect sum|min|max` table answers when no row holds.
    pub default: Option<Literal>,
}

/// `elements lines up to 50: quantity: int 1..99, price: money[JPY] 0JPY..10000JPY`.
#[derive(Clone, Debug, PartialEq)]
pub struct ElementsDecl {
    pub name: DeclName,
    /// The most elements a call may pass (`up to N`).
    pub max: Literal,
    pub fields: Vec<FieldDecl>,
}

/// One field of a sequence's element: typed and ranged like an input.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub name: DeclName,
    pub ty: TypeExpr,
    pub range: Option<RangeExpr>,
}

/// What a fold does with an element whose verdict is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldAction {
    /// The element's value is the answer (`take_unique`, `take_first`).
    Take,
    /// The element's value is kept when it is the greatest so far (`keep_max`).
    Keep,
    /// The walk ends here, answering what it holds.
    Stop,
}

impl FoldAction {
    pub fn as_str(self) -> &'static str {
        match self {
            FoldAction::Take => "take",
            FoldAction::Keep => "keep",
            FoldAction::Stop => "stop",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    /// The one element that takes; two that take are a contradiction.
    TakeUnique,
    /// The first element that takes.
    TakeFirst,
    /// The greatest value among the elements kept.
    KeepMax,
}

impl FoldKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FoldKind::TakeUnique => "take_unique",
            FoldKind::TakeFirst => "take_first",
            FoldKind::KeepMax => "keep_max",
        }
    }
    pub fn parse(word: &str) -> Option<FoldKind> {
        [FoldKind::TakeUnique, FoldKind::TakeFirst, FoldKind::KeepMax].into_iter().find(|k| k.as_str() == word)
    }
    /// The action a verdict names to hand its element's value to the fold.
    pub fn action(self) -> FoldAction {
        match self {
            FoldKind::KeepMax => FoldAction::Keep,
            _ => FoldAction::Take,
        }
    }
}

/// `fold keep_max offer over bids by verdict: keep counted, stop closing, empty opening -> best`.
#[derive(Clone, Debug, PartialEq)]
pub struct FoldDecl {
    pub kind: FoldKind,
    pub kind_span: Span,
    /// The per-element value taken or kept.
    pub value: Ident,
    pub over: Ident,
    /// The per-element value (of an enum) a verdict table decides.
    pub verdict: Ident,
    /// What each named verdict does; a verdict not named passes the element by.
    pub clauses: Vec<(FoldAction, Ident)>,
    /// The answer when no element is taken or kept (and for no elements at all).
    pub empty: Expr,
    /// The value the answer is; without one, the rule's first output.
    pub into: Option<Ident>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryOp {
    Sum,
    Count,
    Max,
    Min,
}

impl SummaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryOp::Sum => "sum",
            SummaryOp::Count => "count",
            SummaryOp::Max => "max",
            SummaryOp::Min => "min",
        }
    }
}

/// `sum NAME over SEQ where COND`, `count SEQ where COND`, `max NAME over SEQ where COND
/// empty EXPR`: one value out of every element of a sequence (only as a define's whole
/// right-hand side).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub op: SummaryOp,
    /// The per-element value summed or compared (none for a count).
    pub of: Option<Ident>,
    pub over: Ident,
    /// Only the elements for which this holds count.
    pub filter: Option<Expr>,
    /// A max's or min's answer when no element counts.
    pub empty: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DefineDecl {
    pub name: DeclName,
    pub ty: Option<TypeExpr>,
    pub range: Option<RangeExpr>,
    pub expr: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RangeExpr {
    pub lo: Literal,
    pub hi: Literal,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rounding {
    pub mode: Ident,
    pub grid: Literal,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub optional: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// `bool`, `int`, `date`, `string`, or an enum's name.
    Named(Ident),
    /// `money[CUR]`, `mass[U]`, `rate[STEP]`, `money[CUR, incl_tax]`: the head and its arguments.
    Param { head: Ident, args: Vec<TypeArg> },
    /// `list[T]`: the answer of a `collect`, `rule_order` or `output_order` table.
    List(Box<TypeExpr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeArg {
    Name(Ident),
    Literal(Literal),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    pub kind: LitKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LitKind {
    /// A number with an optional unit written right after it (`%` is a unit here).
    Number {
        value: BigRational,
        unit: Option<Ident>,
    },
    Date {
        year: i32,
        month: u32,
        day: u32,
    },
    Bool(bool),
    Str(String),
    None,
    /// A bare name in literal position: an enum value (or group, in a cell).
    Name(Ident),
    /// `enum.value`.
    Qualified {
        ty: Ident,
        value: Ident,
    },
    /// `[a, b]`: a list output's value in an `expect`, or a sequence's elements.
    List(Vec<Literal>),
    /// `{field=value, …}`: one element of a sequence in an `expect`.
    Record(Vec<(Ident, Literal)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    pub fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => ord == Equal,
            CmpOp::Ne => ord != Equal,
            CmpOp::Lt => ord == Less,
            CmpOp::Le => ord != Greater,
            CmpOp::Gt => ord == Greater,
            CmpOp::Ge => ord != Less,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Mod,
    Isqrt,
}

impl Func {
    pub fn as_str(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Mod => "mod",
            Func::Isqrt => "isqrt",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Lit(Literal),
    /// A bare name: a value name, or (where the context settles it) an enum value.
    Name(Ident),
    Neg(Box<Expr>),
    Paren(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    Round {
        value: Box<Expr>,
        mode: Ident,
        grid: Literal,
    },
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    In {
        name: Ident,
        values: Vec<Literal>,
    },
    /// A summary over a sequence (a define's whole right-hand side).
    Summary(Box<Summary>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Unique,
    First,
    Any,
    /// The matching row whose results come first in their enums' declared order (DMN's `P`).
    Priority,
    /// Every row that holds, its value in a list, in the rows' order (DMN's `C`, its order fixed).
    Collect,
    /// The values of the rows that hold, summed (DMN's `C+`).
    CollectSum,
    /// The least value of the rows that hold (DMN's `C<`).
    CollectMin,
    /// The greatest value of the rows that hold (DMN's `C>`).
    CollectMax,
    /// How many rows hold (DMN's `C#`).
    CollectCount,
    /// Every row that holds, its value in a list, in the rows' order (DMN's `R`).
    RuleOrder,
    /// Every row that holds, its value in a list, ranked as `priority` ranks rows (DMN's `O`).
    OutputOrder,
}

impl Policy {
    pub fn as_str(&self) -> &'static str {
        match self {
            Policy::Unique => "unique",
            Policy::First => "first",
            Policy::Any => "any",
            Policy::Priority => "priority",
            Policy::Collect => "collect",
            Policy::CollectSum => "collect sum",
            Policy::CollectMin => "collect min",
            Policy::CollectMax => "collect max",
            Policy::CollectCount => "collect count",
            Policy::RuleOrder => "rule_order",
            Policy::OutputOrder => "output_order",
        }
    }

    /// Every row that holds counts (DMN's multiple-hit policies), not one row.
    pub fn multi_hit(&self) -> bool {
        !matches!(self, Policy::Unique | Policy::First | Policy::Any | Policy::Priority)
    }

    /// The answer is a list of the values of the rows that hold.
    pub fn lists(&self) -> bool {
        matches!(self, Policy::Collect | Policy::RuleOrder | Policy::OutputOrder)
    }

    /// The rows are ranked by their results' places in their enums (`TableIr::precedence`).
    pub fn ranks(&self) -> bool {
        matches!(self, Policy::Priority | Policy::OutputOrder)
    }

    /// The row that answers is the first that matches in the table's order of precedence
    /// (`TableIr::precedence`), whatever the others say: `first` and `priority`.
    pub fn takes_first(&self) -> bool {
        matches!(self, Policy::First | Policy::Priority)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: Ident,
    /// The policy as written; `None` means the default, `unique`.
    pub policy: Option<(Policy, Span)>,
    pub results: Vec<Ident>,
    pub columns: Vec<Ident>,
    /// Comment lines between the `table` line and the header row.
    pub header_leading: Vec<Comment>,
    pub header_span: Span,
    /// A comment at the end of the header row.
    pub header_comment: Option<Comment>,
    pub separator_span: Span,
    /// A comment at the end of the `|---|` line.
    pub separator_comment: Option<Comment>,
    pub rows: Vec<Row>,
}

impl Table {
    pub fn policy(&self) -> Policy {
        self.policy.as_ref().map(|p| p.0).unwrap_or(Policy::Unique)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// One cell per column; a condition column holds a `Cell::Cond`, a result column a `Cell::Result`.
    pub cells: Vec<CellSyntax>,
    pub span: Span,
    /// The row's whole line, its newline left out (where a fix inserts or removes a row).
    pub line: Span,
    pub leading: Vec<Comment>,
    pub trailing: Option<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CellSyntax {
    pub kind: Cell,
    /// The cell's text span, trimmed of surrounding blanks.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Cond(Condition),
    /// A result: an expression (`none` is the literal `none`). Boxed: a table has many
    /// condition cells, and each would otherwise be as large as an expression.
    Result(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Any,
    Tests { negated: bool, tests: Vec<Test> },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// A conjunction of bounds: `>=11lb <=70lb`.
    Bounds(Vec<(CmpOp, Literal)>),
    /// A literal compared for equality, a group name, an enum value or `none`.
    Equals(Literal),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    pub inputs: Vec<(Ident, Literal)>,
    pub outputs: Vec<(Ident, Literal)>,
}
