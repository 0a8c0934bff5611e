//! The one naming pass: every identifier a rule's generated code declares, for one
//! language, from the plan and the language's tables (src/lang/).
//!
//! A name keeps its spelling unless the language reserves it or something declared before
//! it already has it. A reserved word takes `_` after it (`class_`); a name taken takes the
//! next number in the case's own manner (`class_2`, `Output2`). Claims are made in one fixed
//! order — the module, the function and its twins, the unit types, the enums and their
//! members, the ranks, then every variable in declaration order — so the same rule gives
//! the same identifiers on every run, and names that fold together in one language (`Red`,
//! `red`, `RED` as Python's `RED`) are settled there without touching the others.

use super::plan::{EnumPlan, Plan};
use crate::lang::{Case, Lang, Naming};
use std::collections::HashSet;

#[derive(Clone, Debug)]
pub struct Names {
    pub lang: Lang,
    /// The module's file stem, Go's package, Java's class.
    pub module: String,
    pub function: String,
    pub traced: String,
    pub record: String,
    pub wire: String,
    /// By unit type (the plan's `units`).
    pub units: Vec<String>,
    /// By enum: its type.
    pub enums: Vec<String>,
    /// By enum: the function reading a value back from its wire name, where the language
    /// declares one beside the type (Go's `ParseCouponKind`).
    pub parsers: Vec<Option<String>>,
    /// By enum, by value: the member's identifier (bare: without the enum's qualifier).
    pub members: Vec<Vec<String>>,
    /// The function holding the branches (answers the outputs and the rows).
    pub core: String,
    /// By table, in evaluation order: the local holding the row it matched.
    pub slots: Vec<String>,
    /// By table, in evaluation order: the function deciding it, where a language writes a
    /// table in a function of its own (`{core}{place}`, claimed after every other name so
    /// that it moves none of them).
    pub tables: Vec<String>,
    /// By enum, by value: the module constant holding the member, where the language has them.
    pub member_consts: Vec<Vec<Option<String>>>,
    /// By enum: the function giving a value's place, where the language needs one.
    pub ranks: Vec<Option<String>>,
    /// By variable: the identifier of the parameter or local that holds it.
    pub vars: Vec<String>,
    /// By variable: its field in `Output` (outputs) or Go's `Input` (inputs), or in the
    /// record of its sequence's element (a field of one).
    pub fields: Vec<String>,
    /// By sequence: the type of its element's record (`Element`, `LinesElement`), and the
    /// module's functions that hold one element as the entry guard holds it and read one
    /// at the wire door, where the language writes them apart (Python).
    pub records: Vec<String>,
    pub element_checks: Vec<String>,
    pub element_reads: Vec<String>,
    /// The language's `locals`, each with the spelling left free by the rule's values.
    locals: Vec<(&'static str, String)>,
}

impl Names {
    /// The spelling of the generated code's own local `base` (one of the language's `locals`).
    pub fn local(&self, base: &str) -> &str {
        match self.locals.iter().find(|(b, _)| *b == base) {
            Some((_, spelled)) => spelled,
            None => panic!("`{base}` is not among the {} locals of src/lang/naming.rs", self.lang.name()),
        }
    }
}

/// What an identifier is compared by: itself, or its lower case in a language that folds case.
fn key(naming: &Naming, ident: &str) -> String {
    if naming.fold_case {
        ident.to_ascii_lowercase()
    } else {
        ident.to_string()
    }
}

/// Identifiers taken in one namespace.
struct Scope<'a> {
    naming: &'a Naming,
    /// Words no identifier of this namespace may be: the language's, and the generated code's,
    /// by their keys (a set: every claim asks it, and a rule may have 50,000 names).
    reserved: HashSet<String>,
    taken: HashSet<String>,
}

impl<'a> Scope<'a> {
    fn new(naming: &'a Naming) -> Scope<'a> {
        let reserved = naming.reserved.iter().chain(naming.used).map(|w| key(naming, w)).collect();
        Scope { naming, reserved, taken: HashSet::new() }
    }

    /// The scope of values where the language keeps them apart from the module's names.
    fn values(naming: &'a Naming) -> Scope<'a> {
        if naming.values_apart {
            let reserved = naming.value_reserved.iter().map(|w| key(naming, w)).collect();
            Scope { naming, reserved, taken: HashSet::new() }
        } else {
            Scope::new(naming)
        }
    }

    fn key(&self, ident: &str) -> String {
        key(self.naming, ident)
    }

    fn reserved(&self, ident: &str) -> bool {
        self.reserved.contains(&self.key(ident))
    }

    fn is_taken(&self, ident: &str) -> bool {
        self.taken.contains(&self.key(ident))
    }

    /// Claim `ident` (already spelled), or the first free spelling after it. A keyword the
    /// language can quote is quoted; any other reserved word takes `_` after it.
    fn claim(&mut self, ident: String, case: Case) -> String {
        if self.reserved(&ident) && !self.is_taken(&ident) {
            let keyword = self.naming.reserved.contains(&ident.as_str()) && !self.naming.used.contains(&ident.as_str());
            if let (Some((open, close)), true) = (self.naming.escape, keyword) {
                self.taken.insert(self.key(&ident));
                return format!("{open}{ident}{close}");
            }
        }
        let mut candidate = if self.reserved(&ident) { case.escaped(&ident) } else { ident.clone() };
        let mut n = 2;
        while self.is_taken(&candidate) || self.reserved(&candidate) {
            candidate = case.numbered(&ident, n);
            n += 1;
        }
        self.taken.insert(self.key(&candidate));
        candidate
    }

    /// Claim a module-level name: it must not shadow a builtin the fixed text calls either.
    fn claim_top(&mut self, ident: String, case: Case) -> String {
        let builtins = self.naming.builtins;
        let ident = if builtins.contains(&ident.as_str()) { format!("{ident}_") } else { ident };
        self.claim(ident, case)
    }

    /// Claim a spelling that must be unique but is also not one of `extra`.
    fn claim_field(&mut self, ident: String, case: Case, extra: &[&str]) -> String {
        let clash = |s: &str| extra.contains(&s);
        let mut candidate = if clash(&ident) { format!("{ident}_") } else { ident.clone() };
        let mut n = 2;
        while self.is_taken(&candidate) || clash(&candidate) {
            candidate = case.numbered(&ident, n);
            n += 1;
        }
        self.taken.insert(self.key(&candidate));
        candidate
    }
}

/// The members of the enum `e` whose type is spelled `ty`: in the enum's own namespace, or
/// in `global` where the language puts them in the module's (Go's constants).
fn claim_members<'a>(n: &'a Naming, e: &EnumPlan, ty: &str, global: &mut Scope<'a>) -> Vec<String> {
    let mut own = Scope::new(n);
    e.values
        .iter()
        .map(|v| {
            let mut bare = n.member.apply(&v.base);
            if n.no_leading_underscore {
                bare = underscores_after(bare, n.member.apply("value"));
            }
            let ident = if n.member_prefixed { format!("{ty}{bare}") } else { bare };
            let scope = if n.members_global { &mut *global } else { &mut own };
            scope.claim(ident, n.member)
        })
        .collect()
}

/// The identifiers of an enums file's own module in one language (`Plan::uses`).
#[derive(Clone, Debug)]
pub struct SharedNames {
    /// The module's file stem, and its namespace or package where the language has one.
    pub file: String,
    pub module: String,
    /// The plan's enums the file declares, in order, each with its type and its members.
    pub enums: Vec<usize>,
    pub types: Vec<String>,
    pub members: Vec<Vec<String>>,
    /// By enum: the function reading a value back from its wire name, where the language
    /// declares one beside the type (`Names::parsers`).
    pub parsers: Vec<Option<String>>,
}

impl SharedNames {
    /// The module of `shared` enum `e` is declared in, and its place there, where it has one.
    pub fn of(shared: &[SharedNames], e: usize) -> Option<(&SharedNames, usize)> {
        shared.iter().find_map(|s| s.enums.iter().position(|&x| x == e).map(|k| (s, k)))
    }
}

/// The names of the module of the enums file `home`, claimed in that module's own scope
/// alone, so that every rule reading the file spells it the same.
pub fn shared(plan: &Plan, lang: Lang, home: usize) -> SharedNames {
    let n = lang.naming();
    let u = &plan.uses[home];
    let mut global = Scope::new(n);
    let module = module_name(lang, &u.base);
    if n.module_in_scope {
        global.taken.insert(key(n, &module));
    }
    let enums: Vec<usize> = (0..plan.enums.len()).filter(|&e| plan.enums[e].home == Some(home)).collect();
    let types: Vec<String> = enums.iter().map(|&e| global.claim_top(n.ty.apply(&plan.enums[e].base), n.ty)).collect();
    let members = enums.iter().zip(&types).map(|(&e, ty)| claim_members(n, &plan.enums[e], ty, &mut global)).collect();
    let parsers = types.iter().map(|ty| n.parse.map(|t| global.claim_top(template(t, ty), n.function))).collect();
    SharedNames { file: u.base.clone(), module, enums, types, members, parsers }
}

/// Whether a rule names an enum of an enums file by that file's module (`Tiers.Tier`), the
/// language having no alias a rule's module could hold of it: Java, whose classes are in one
/// package that cannot be imported from.
fn by_module(lang: Lang) -> bool {
    lang == Lang::Java
}

/// `_x` as `x_`, for a language where an identifier of this kind may not start with `_`;
/// what is left must still start like an identifier (`_0` as `{word}_0_`).
fn underscores_after(ident: String, word: impl std::fmt::Display) -> String {
    if !ident.starts_with('_') {
        return ident;
    }
    let bare = ident.trim_start_matches('_');
    match bare.chars().next() {
        None => format!("{word}_"),
        Some(c) if c.is_ascii_digit() => format!("{word}_{bare}_"),
        Some(_) => format!("{bare}_"),
    }
}

fn template(t: &str, ident: &str) -> String {
    t.replace("{}", ident)
}

/// The module (file stem, package, class) of a rule whose identifier base is `base`: what
/// `names` gives, from the base alone (the harness finds a runner by it).
pub fn module_name(lang: Lang, base: &str) -> String {
    let n = lang.naming();
    Scope::new(n).claim_top(n.module.apply(base), n.module)
}

pub fn names(plan: &Plan, lang: Lang) -> Names {
    let n = lang.naming();
    let mut global = Scope::new(n);
    let module = module_name(lang, &plan.rule.base);
    if n.module_in_scope {
        global.taken.insert(module.clone());
    }
    // Where the rule names an enums file's enum through that file's module (Java's class),
    // no name of the rule's may hide the module.
    if by_module(lang) {
        for u in &plan.uses {
            global.taken.insert(key(n, &module_name(lang, &u.base)));
        }
    }
    let function = global.claim_top(n.function.apply(&plan.rule.base), n.function);
    let cased = n.function.apply(&plan.rule.base);
    let traced = global.claim_top(template(n.traced, &cased), n.function);
    let record = global.claim_top(template(n.record, &cased), n.function);
    let wire = global.claim_top(template(n.wire, &cased), n.function);
    let core = global.claim_top(template(n.core, &plan.rule.base), n.function);
    let units = plan.units.iter().map(|u| global.claim_top(u.name.clone(), Case::Pascal)).collect();
    let mut enums: Vec<String> = plan.enums.iter().map(|e| global.claim_top(n.ty.apply(&e.base), n.ty)).collect();
    let members: Vec<Vec<String>> =
        plan.enums.iter().zip(&enums).map(|(e, ty)| claim_members(n, e, ty, &mut global)).collect();
    if by_module(lang) {
        for home in 0..plan.uses.len() {
            let s = shared(plan, lang, home);
            for (&e, ty) in s.enums.iter().zip(&s.types) {
                enums[e] = format!("{}.{ty}", s.module);
            }
        }
    }
    let member_consts = members
        .iter()
        .zip(&enums)
        .map(|(ms, ty): (&Vec<String>, &String)| {
            ms.iter()
                .map(|m| n.member_const.map(|t| global.claim_top(t.replace("{0}", ty).replace("{1}", m), Case::Keep)))
                .collect()
        })
        .collect();
    let ranks = plan
        .enums
        .iter()
        .map(|e| match n.rank {
            Some((t, case)) if e.ranked => Some(global.claim_top(template(t, &case.apply(&e.base)), case)),
            _ => None,
        })
        .collect();
    let parsers = enums.iter().map(|ty| n.parse.map(|t| global.claim_top(template(t, ty), n.function))).collect();
    let records = plan.sequences.iter().map(|s| global.claim_top(n.ty.apply(&s.record), n.ty)).collect();
    let helper = |global: &mut Scope, verb: &str, s: &super::plan::SequencePlan| {
        global.claim_top(format!("_{}", n.function.apply(&format!("{verb}_{}", s.record))), Case::Keep)
    };
    let element_checks = plan.sequences.iter().map(|s| helper(&mut global, "check", s)).collect();
    let element_reads = plan.sequences.iter().map(|s| helper(&mut global, "read", s)).collect();
    // `{}` is the table's place; `{name}` its name (SQL's `<table>_row` column).
    let slots: Vec<String> = plan
        .tables()
        .map(|t| global.claim(template(&n.slot.replace("{name}", &t.name), &t.slot.to_string()), Case::Keep))
        .collect();
    let mut values =
        if n.values_apart { Scope::values(n) } else { Scope { taken: global.taken.clone(), ..Scope::new(n) } };
    // The row a table matched is a value too: values that live apart from the module's
    // names still stay away from it (SQL's `<table>_row` beside the variables' columns).
    if n.values_apart {
        for s in &slots {
            let k = values.key(s);
            values.taken.insert(k);
        }
    }
    let vars = plan.vars.iter().map(|v| values.claim(n.value.apply(&v.base), n.value)).collect();
    // After the values: a value named like one of them keeps its name, the local moves.
    let locals = n.locals.iter().map(|&l| (l, values.claim(l.to_string(), Case::Keep))).collect();
    let tables = plan.tables().map(|t| values.claim(format!("{core}{}", t.slot), Case::Keep)).collect();
    let mut inputs = Scope::new(n);
    let mut outputs = Scope::new(n);
    let mut elements: Vec<Scope> = plan.sequences.iter().map(|_| Scope::new(n)).collect();
    let fields = plan
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut f = n.field.apply(&v.base);
            if n.no_leading_underscore {
                f = underscores_after(f, "field");
            }
            let element = plan.sequences.iter().position(|s| s.fields.iter().any(|d| d.var == i));
            let scope = match (element, v.role) {
                (Some(s), _) => &mut elements[s],
                (None, super::plan::Role::Input) => &mut inputs,
                (None, _) => &mut outputs,
            };
            let mut reserved: Vec<&str> = n.fields.to_vec();
            reserved.extend(n.reserved);
            scope.claim_field(f, n.field, &reserved)
        })
        .collect();
    Names {
        lang,
        module,
        function,
        traced,
        record,
        wire,
        core,
        slots,
        tables,
        units,
        enums,
        parsers,
        members,
        member_consts,
        ranks,
        vars,
        fields,
        records,
        element_checks,
        element_reads,
        locals,
    }
}
