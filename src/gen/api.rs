//! `rulec api` (formats.md): how to call the generated code, built from the plan and each
//! language's names. The shared fields are written here once; a backend adds the spellings
//! only it knows (its signatures) through [`Spelling`].

use super::naming::Names;
use super::plan::{BoundaryTy, Plan, Role};
use crate::sema::VarId;
use serde_json::{json, Map, Value as Json};

/// The top-level fields of `rulec api` for a rule.
pub fn top(plan: &Plan) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert("rule".into(), json!(plan.rule.name));
    m.insert("alias".into(), json!(plan.rule.base));
    m.insert("version".into(), json!(plan.rule.version.to_string()));
    m.insert("source_sha256".into(), json!(plan.rule.sha256));
    let pre: Vec<Json> = plan.preconditions.iter().map(|t| json!({"kind": "constraint", "text": t})).collect();
    m.insert("preconditions".into(), json!(pre));
    m
}

/// How a language spells what `api` lists: a variable's type, and a member as a caller
/// writes it (`CouponKind.PERCENT`).
pub struct Spelling<'a> {
    pub names: &'a Names,
    pub ty: &'a dyn Fn(VarId) -> String,
    pub member: Member,
}

/// How a caller writes an enum's member.
#[derive(Clone, Copy)]
pub enum Member {
    /// After its type and this (`CouponKind::Percent`, `CouponKind.PERCENT`).
    Qualified(&'static str),
    /// Its identifier alone.
    Bare,
    /// The value's declared name (a SQL text, a NumPy column's string).
    Declared,
}

/// How a language's dates cross its functions: the type of one, and the converters from the
/// wire string and, where the language has a date type of its own, from that.
pub struct Dates {
    pub ty: &'static str,
    pub from_wire: &'static str,
    pub from_native: Option<&'static str>,
}

/// The errors most languages' functions throw.
pub const ERRORS: &[&str] = &["RuleInputError", "RuleContradictionError"];

/// One error a caller catches: its name as `errors` gives it, and the fields the caller
/// reads from it, spelled as the language reads them.
pub struct ErrorType {
    pub name: &'static str,
    pub fields: &'static [&'static str],
}

/// Which error the entry guard raises (`input`) and which one the guard below raises
/// (`contradiction`), for `error_types` (generated-code.md, "The two guards").
pub struct ErrorTypes {
    pub input: ErrorType,
    pub contradiction: ErrorType,
}

/// The two errors as most languages spell them: the sentence and the value refused.
pub const ERROR_TYPES: ErrorTypes = ErrorTypes {
    input: ErrorType { name: "RuleInputError", fields: &["what", "value"] },
    contradiction: ErrorType { name: "RuleContradictionError", fields: &["what"] },
};

impl ErrorTypes {
    pub fn to_json(&self) -> Json {
        let one = |e: &ErrorType| json!({"name": e.name, "fields": e.fields});
        json!({"input": one(&self.input), "contradiction": one(&self.contradiction)})
    }
}

/// The entry of a language written as functions: where the caller finds them (`module`
/// first), the four functions' signatures (the function, its traced twin, the record and the
/// wire function), what else the language says, its dates and its errors.
pub struct Functions {
    pub place: Vec<(&'static str, Json)>,
    pub signatures: [String; 4],
    pub more: Vec<(&'static str, Json)>,
    pub dates: Dates,
    pub errors: &'static [&'static str],
    pub error_types: ErrorTypes,
}

impl Spelling<'_> {
    /// A parameter: the wire name, this language's identifier, its type, its unit, and the
    /// range the entry guard enforces (wire integers; day numbers for a date; names for an
    /// ordered enum).
    pub fn param(&self, plan: &Plan, v: VarId, ident: &str) -> Json {
        let var = plan.var(v);
        let mut m = Map::new();
        m.insert("name".into(), json!(var.name));
        m.insert("alias".into(), json!(ident));
        m.insert("type".into(), json!((self.ty)(v)));
        match var.ty {
            BoundaryTy::Unit(u) => {
                m.insert("unit".into(), json!(plan.units[u].symbol));
            }
            BoundaryTy::Date => {
                m.insert("unit".into(), json!("day"));
            }
            _ => {}
        }
        if let Some((lo, hi)) = var.range {
            let range = match var.ty {
                BoundaryTy::Enum(e) => {
                    let en = &plan.enums[e];
                    json!({"min": en.values[lo as usize].name, "max": en.values[hi as usize].name})
                }
                _ => json!({"min": lo, "max": hi}),
            };
            m.insert("range".into(), range);
        }
        m.insert("optional".into(), json!(var.optional));
        Json::Object(m)
    }

    /// The inputs, then each sequence a walk reads (formats.md): last, its type the list of
    /// its element's record, the element's fields under `elements` as parameters are.
    pub fn params(&self, plan: &Plan) -> Json {
        let mut out: Vec<Json> = plan.inputs.iter().map(|&v| self.param(plan, v, &self.names.vars[v])).collect();
        for s in &plan.sequences {
            let mut entry = self.param(plan, s.list, &self.names.vars[s.list]);
            let fields = s.fields.iter().map(|f| self.param(plan, f.var, &self.names.fields[f.var]));
            entry["elements"] = json!(fields.collect::<Vec<_>>());
            out.push(entry);
        }
        json!(out)
    }

    /// The outputs, each under the name a caller reads it by (a field of `Output`, or the
    /// value itself when there is one), with its rounding.
    pub fn outputs(&self, plan: &Plan) -> Json {
        let outs: Vec<Json> = plan
            .outputs
            .iter()
            .map(|&v| {
                let ident = if plan.outputs.len() == 1 { &self.names.vars[v] } else { &self.names.fields[v] };
                let mut o = self.param(plan, v, ident);
                if let Some((mode, grid)) = plan.var(v).rounding {
                    o["rounding"] = json!({"mode": mode.as_str(), "grid": grid});
                }
                o
            })
            .collect();
        json!(outs)
    }

    pub fn enums(&self, plan: &Plan) -> Json {
        json!(plan
            .enums
            .iter()
            .enumerate()
            .map(|(e, en)| {
                let mut entry = json!({
                    "name": en.name,
                    "alias": self.names.enums[e],
                    "values": en.values.iter().enumerate()
                        .map(|(i, v)| json!({"name": v.name, "alias": self.member(e, i, &v.name)}))
                        .collect::<Vec<_>>(),
                });
                // The function reading a value back from its wire name, where the language has one per enum.
                if let Some(parse) = &self.names.parsers[e] {
                    entry["parse"] = json!(parse);
                }
                entry
            })
            .collect::<Vec<_>>())
    }

    fn member(&self, e: usize, i: usize, declared: &str) -> String {
        let n = self.names;
        match self.member {
            Member::Qualified(sep) => format!("{}{sep}{}", n.enums[e], n.members[e][i]),
            Member::Bare => n.members[e][i].clone(),
            Member::Declared => declared.to_string(),
        }
    }

    /// A function-shaped language's whole entry: [`Spelling::entry`] and its own fields.
    pub fn functions(&self, plan: &Plan, returns: &str, f: Functions) -> Json {
        let mut m = self.entry(plan, returns);
        m.extend(f.place.into_iter().map(|(k, v)| (k.to_string(), v)));
        let keys = ["signature", "traced_signature", "record_signature", "wire_signature"];
        m.extend(keys.into_iter().zip(f.signatures).map(|(k, s)| (k.to_string(), json!(s))));
        m.extend(f.more.into_iter().map(|(k, v)| (k.to_string(), v)));
        if plan.dates {
            let mut d = json!({"type": f.dates.ty, "from_wire": f.dates.from_wire});
            if let Some(native) = f.dates.from_native {
                d["from_native"] = json!(native);
            }
            m.insert("dates".into(), d);
        }
        m.insert("errors".into(), json!(f.errors));
        m.insert("error_types".into(), f.error_types.to_json());
        Json::Object(m)
    }

    /// The fields every function-shaped language shares: the functions by name, the
    /// parameters, the outputs, the enums.
    pub fn entry(&self, plan: &Plan, returns: &str) -> Map<String, Json> {
        let n = self.names;
        let mut m = Map::new();
        m.insert("function".into(), json!(n.function));
        m.insert("traced".into(), json!(n.traced));
        m.insert("record".into(), json!(n.record));
        m.insert("wire".into(), json!(n.wire));
        m.insert("params".into(), self.params(plan));
        m.insert("returns".into(), json!(returns));
        m.insert("outputs".into(), self.outputs(plan));
        m.insert("enums".into(), self.enums(plan));
        m
    }
}

/// Whether any variable that crosses the boundary is a date (the module's converters).
pub fn has_dates(plan: &Plan) -> bool {
    plan.vars.iter().any(|v| v.ty == BoundaryTy::Date && matches!(v.role, Role::Input | Role::Output))
}

/// The enums of each enums file the rule reads (`shared`), each declared in that file's own
/// module: `place` says where the module is and what it is called (its keys are the
/// language's), `declared` the type.
pub fn shared_enums(
    entry: &mut Json,
    shared: &[super::naming::SharedNames],
    place: impl Fn(&super::naming::SharedNames) -> Vec<(&'static str, String)>,
) {
    for s in shared {
        let place = place(s);
        for (&e, ty) in s.enums.iter().zip(&s.types) {
            let at = &mut entry["enums"][e];
            for (key, value) in &place {
                at[*key] = Json::from(value.as_str());
            }
            at["declared"] = Json::from(ty.as_str());
        }
    }
}
