//! The one expression printer: it decides every parenthesis, for every language, from the
//! precedence each language gives the forms of its expressions.
//!
//! A language says how one node is written ([`Syntax::form`]): a leaf, a prefix or infix
//! operator with its precedence, a call, or text around the node's children each needing at
//! least some precedence. The printer writes the children and puts parentheses exactly where
//! a child binds more loosely than its place asks. Higher binds tighter; [`ATOM`] never needs
//! parentheses and [`TOP`] is a whole expression standing alone.

use super::plan::Expr;

pub const TOP: u8 = 0;
pub const ATOM: u8 = u8::MAX;

/// How one node is written.
pub enum Form {
    /// Text that is complete in itself, binding as tightly as `prec` (a literal below zero
    /// binds as a unary minus does).
    Leaf(String, u8),
    /// `op x`; the operand must bind more tightly than the operator.
    Prefix(String, u8),
    /// `a op b`, left-associative: the node's two children.
    Infix(String, u8),
    /// `f(a, b, …)` over the node's children.
    Call(String),
    /// Text around the node's children.
    Parts(Vec<Part>, u8),
}

pub enum Part {
    Text(String),
    /// The node's `i`th child, printed so that it binds at least as tightly as `prec`.
    Kid(usize, u8),
    /// Another expression (one the language builds from the node), likewise.
    Expr(Expr, u8),
}

pub trait Syntax {
    fn form(&self, e: &Expr) -> Form;

    /// `a op b` as the language lays it out (gofmt, for one, drops the spaces in places).
    fn infix(&self, left: String, op: &str, right: String) -> String {
        format!("{left} {op} {right}")
    }

    /// `e`, parenthesized when it binds more loosely than `min`.
    fn print(&self, e: &Expr, min: u8) -> String {
        let kids = e.children();
        let (text, prec) = match self.form(e) {
            Form::Leaf(t, p) => (t, p),
            Form::Prefix(op, p) => (format!("{op}{}", self.print(kids[0], p.saturating_add(1))), p),
            Form::Infix(op, p) => {
                let (l, r) = (self.print(kids[0], p), self.print(kids[1], p.saturating_add(1)));
                (self.infix(l, &op, r), p)
            }
            Form::Call(f) => {
                let args: Vec<String> = kids.iter().map(|k| self.print(k, TOP)).collect();
                (format!("{f}({})", args.join(", ")), ATOM)
            }
            Form::Parts(parts, p) => {
                let mut t = String::new();
                for part in parts {
                    match part {
                        Part::Text(s) => t.push_str(&s),
                        Part::Kid(i, q) => t.push_str(&self.print(kids[i], q)),
                        Part::Expr(x, q) => t.push_str(&self.print(&x, q)),
                    }
                }
                (t, p)
            }
        };
        if prec < min {
            format!("({text})")
        } else {
            text
        }
    }

    /// A whole expression standing alone (a condition, a value assigned).
    fn top(&self, e: &Expr) -> String {
        self.print(e, TOP)
    }
}

/// A comparison as most languages write it (`==`, `!=`, `<`, `<=`, `>`, `>=`).
pub fn cmp_op(op: crate::syntax::ast::CmpOp) -> &'static str {
    use crate::syntax::ast::CmpOp;
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}
