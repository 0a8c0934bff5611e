//! A port of go/printer's layout of expressions (nodes.go: binaryExpr, walkBinary, cutoff,
//! diffPrec, reduceDepth): which binary operators get blanks depends on the precedences
//! mixed in the expression and on how deep it sits (call arguments, operands, parentheses).

/// A Go expression as go/printer sees it: the parentheses are nodes of their own.
#[derive(Clone, Debug)]
pub enum Ast {
    /// An identifier, a literal, a selector, a function literal: printed as is.
    Atom(String),
    Paren(Box<Ast>),
    Unary(String, Box<Ast>),
    Star(Box<Ast>),
    Bin(String, Box<Ast>, Box<Ast>),
    Call(String, Vec<Ast>),
}

impl Ast {
    /// A leaf's text: a negative literal is a unary minus, `*x` a dereference.
    pub fn leaf(t: String) -> Ast {
        if let Some(rest) = t.strip_prefix('-') {
            Ast::Unary("-".into(), Box::new(Ast::Atom(rest.into())))
        } else if let Some(rest) = t.strip_prefix('*') {
            Ast::Star(Box::new(Ast::Atom(rest.into())))
        } else {
            Ast::Atom(t)
        }
    }
}

fn prec(op: &str) -> usize {
    match op {
        "||" => 1,
        "&&" => 2,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 3,
        "+" | "-" | "|" | "^" => 4,
        _ => 5,
    }
}

const UNARY_PREC: usize = 6;

/// An expression at the top of a statement (depth 1).
pub fn expr(x: &Ast) -> String {
    expr1(x, 0, 1)
}

/// An expression as one of two arguments or more of a call (depth 2).
pub fn argument(x: &Ast) -> String {
    expr1(x, 0, 2)
}

fn expr1(x: &Ast, prec1: usize, depth: usize) -> String {
    match x {
        Ast::Atom(s) => s.clone(),
        Ast::Bin(..) => binary(x, prec1, cutoff(x, depth), depth),
        Ast::Star(inner) => {
            if UNARY_PREC < prec1 {
                format!("(*{})", expr(inner))
            } else {
                format!("*{}", expr(inner))
            }
        }
        Ast::Unary(op, inner) => {
            if UNARY_PREC < prec1 {
                format!("({})", expr(x))
            } else {
                format!("{op}{}", expr1(inner, UNARY_PREC, depth))
            }
        }
        Ast::Paren(inner) => {
            if matches!(**inner, Ast::Paren(_)) {
                expr1(inner, 0, depth)
            } else {
                format!("({})", expr1(inner, 0, reduce_depth(depth)))
            }
        }
        Ast::Call(f, args) => {
            let depth = if args.len() > 1 { depth + 1 } else { depth };
            let args: Vec<String> = args.iter().map(|a| expr1(a, 0, depth)).collect();
            format!("{f}({})", args.join(", "))
        }
    }
}

fn reduce_depth(depth: usize) -> usize {
    if depth > 1 {
        depth - 1
    } else {
        1
    }
}

fn diff_prec(x: &Ast, p: usize) -> usize {
    match x {
        Ast::Bin(op, ..) if prec(op) == p => 0,
        _ => 1,
    }
}

fn binary(x: &Ast, prec1: usize, cutoff: usize, depth: usize) -> String {
    let Ast::Bin(op, l, r) = x else { unreachable!("a binary expression") };
    let p = prec(op);
    if p < prec1 {
        return format!("({})", expr1(x, 0, reduce_depth(depth)));
    }
    let blank = p < cutoff;
    let l = expr1(l, p, depth + diff_prec(l, p));
    let r = expr1(r, p + 1, depth + 1);
    if blank {
        format!("{l} {op} {r}")
    } else if (op == "-" && r.starts_with('-')) || (op == "/" && r.starts_with('*')) {
        // printer.go's mayCombine: a blank keeps `- -x` from reading as `--x`.
        format!("{l}{op} {r}")
    } else {
        format!("{l}{op}{r}")
    }
}

fn walk(x: &Ast) -> (bool, bool, usize) {
    let Ast::Bin(op, l, r) = x else { return (false, false, 0) };
    let p = prec(op);
    let (mut has4, mut has5, mut problem) = (p == 4, p == 5, 0);
    if let Ast::Bin(lo, ..) = &**l {
        if prec(lo) >= p {
            let (h4, h5, mp) = walk(l);
            has4 |= h4;
            has5 |= h5;
            problem = problem.max(mp);
        }
    }
    match &**r {
        Ast::Bin(ro, ..) if prec(ro) > p => {
            let (h4, h5, mp) = walk(r);
            has4 |= h4;
            has5 |= h5;
            problem = problem.max(mp);
        }
        Ast::Star(_) if op == "/" => problem = 5,
        Ast::Unary(uo, _) => match format!("{op}{uo}").as_str() {
            "/*" | "&&" | "&^" => problem = 5,
            "++" | "--" => problem = problem.max(4),
            _ => {}
        },
        _ => {}
    }
    (has4, has5, problem)
}

fn cutoff(x: &Ast, depth: usize) -> usize {
    let (has4, has5, problem) = walk(x);
    if problem > 0 {
        return problem + 1;
    }
    if has4 && has5 {
        return if depth == 1 { 5 } else { 4 };
    }
    if depth == 1 {
        6
    } else {
        4
    }
}
