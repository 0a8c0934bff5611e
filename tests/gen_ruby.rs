//! The Ruby backend over the corpus and tests/rules: every rule held to the reference by
//! `rulec test` (the helpers' unit vectors too); `ruby -wc` silent on every file and `ruby -w`
//! silent while the runners run; the signature files valid for the rbs that ships with Ruby;
//! the same bytes on a second generation; every name `rulec api` gives in the module.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn generated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "ruby", dir.path());
    dir
}

#[test]
fn every_rule_agrees_with_the_reference_in_ruby() {
    if !toolchain("every_rule_agrees_with_the_reference_in_ruby", &["ruby"]) {
        return;
    }
    let dir = generated();
    let report = test_json(dir.path(), "ruby");
    assert_green(&report);
    assert_eq!(report["results"].as_array().unwrap().len(), rules().len() + 1, "{report}");
}

#[test]
fn ruby_warns_of_nothing_and_the_signatures_are_valid() {
    if !toolchain("ruby_warns_of_nothing_and_the_signatures_are_valid", &["ruby"]) {
        return;
    }
    let dir = generated();
    let ruby = dir.path().join("ruby");
    let mut files: Vec<_> = std::fs::read_dir(&ruby).unwrap().map(|e| e.unwrap().path()).collect();
    files.push(Path::new(ROOT).join("src/gen/ruby/runtime/module.rb"));
    for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "rb")) {
        let out = Command::new("ruby").arg("-wc").arg(f).output().unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{}: {}", f.display(), text(&out.stderr));
    }
    // No dead code: every private helper a module carries is one it calls.
    for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "rb") && f.starts_with(&ruby)) {
        // `private_class_method :_name` marks a helper private; it does not call it.
        let text = std::fs::read_to_string(f).unwrap();
        let code: String =
            text.lines().filter(|l| !l.contains("private_class_method")).map(|l| l.to_string() + "\n").collect();
        let uncalled = uncalled_functions(&code, "  def self.");
        assert!(uncalled.is_empty(), "{}: defined and never called: {uncalled:?}", f.display());
    }
    // Warnings that only a run shows (an unused variable, a redefinition) are a failure too.
    for (path, vectors) in tree(&dir.path().join("vectors")) {
        let Some(base) = path.strip_suffix(".jsonl").filter(|b| !b.ends_with(".expected") && *b != "_helpers") else {
            continue;
        };
        let mut child = Command::new("ruby")
            .arg("-w")
            .arg(format!("{base}_runner.rb"))
            .current_dir(&ruby)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), &vectors).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{base}: {}", text(&out.stderr));
    }
    let rbs = Command::new("ruby")
        .args([
            "-rrbs",
            "-rrbs/cli",
            "-rstringio",
            "-e",
            "RBS::CLI.new(stdout: StringIO.new, stderr: $stderr).run(ARGV)",
            "--",
            "-I",
            "sig",
            "validate",
        ])
        .current_dir(&ruby)
        .output()
        .unwrap();
    assert!(rbs.status.success(), "rbs validate: {}{}", text(&rbs.stdout), text(&rbs.stderr));
}

#[test]
fn the_signature_names_what_the_module_defines() {
    if !toolchain("the_signature_names_what_the_module_defines", &["ruby"]) {
        return;
    }
    let dir = generated();
    let ruby = dir.path().join("ruby");
    for rule in rules() {
        let api = api(&rule, "ruby");
        let file = api["file"].as_str().unwrap();
        let module = api["module"].as_str().unwrap();
        // The module's public methods, as Ruby sees them, and as the signature declares them.
        let script = format!(
            "require_relative '{}'; puts {module}.singleton_methods(false).map(&:to_s).sort",
            file.trim_end_matches(".rb")
        );
        let out = Command::new("ruby").args(["-e", &script]).current_dir(&ruby).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let rbs = std::fs::read_to_string(ruby.join(api["rbs"].as_str().unwrap())).unwrap();
        for method in text(&out.stdout).lines() {
            assert!(rbs.contains(&format!("def self.{method}:")), "{}: {method} has no signature", rule.display());
        }
        for key in ["function", "traced", "record", "wire"] {
            assert!(text(&out.stdout).lines().any(|m| m == api[key]), "{}: api {key} {}", rule.display(), api[key]);
        }
        let source = std::fs::read_to_string(ruby.join(file)).unwrap();
        for e in api["enums"].as_array().unwrap() {
            // An enum of an enums file is declared in that file's module, which the rule's names.
            let source = match e["file"].as_str() {
                Some(shared) => {
                    let named = format!(
                        "{} = ::{}::{}",
                        e["alias"].as_str().unwrap(),
                        e["module"].as_str().unwrap(),
                        e["declared"].as_str().unwrap()
                    );
                    assert!(source.contains(&named), "{}: {named}", rule.display());
                    std::fs::read_to_string(ruby.join(shared)).unwrap()
                }
                None => source.clone(),
            };
            for v in e["values"].as_array().unwrap() {
                let member = v["alias"].as_str().unwrap().rsplit("::").next().unwrap();
                assert!(source.contains(&format!("{member} = ")), "{}: {member}", rule.display());
            }
        }
    }
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (generated(), generated());
    assert_eq!(tree(&a.path().join("ruby")), tree(&b.path().join("ruby")));
}

/// The module's door as a Ruby caller meets it: the plain function, a Float that is whole,
/// a refusal printed with its value, a String where an Integer is declared.
#[test]
fn the_module_holds_what_a_ruby_caller_passes() {
    if !toolchain("the_module_holds_what_a_ruby_caller_passes", &["ruby"]) {
        return;
    }
    let dir = generated();
    let script = r#"
require_relative "single_coupon"
out = SingleCoupon.single_coupon(10000, 0, SingleCoupon::CouponKind::PERCENT, 10, 0, false)
puts [out.ok, out.raw].inspect
puts SingleCoupon.single_coupon(10000.0, 0, "percent", 1e1, 0, false).raw
[[10000, 0, "percent", 101, 0, false], [10000, 0, "nope", 10, 0, false], ["10000", 0, "percent", 10, 0, false], [nil, 0, "percent", 10, 0, false]].each do |args|
  SingleCoupon.single_coupon(*args)
rescue SingleCoupon::RuleInputError => e
  puts e.message
end
puts SingleCoupon.single_coupon_wire({ "subtotal" => 10000, "applied" => 0, "kind" => "fixed", "rate" => 0, "face" => 300, "dup" => false }, "t")
require_relative "ticket_price"
[-> { TicketPrice.ticket_price(30, 20819, true) }, -> { TicketPrice.ticket_price_wire({ "age" => 30, "visit" => "2027-01-01", "member" => true }) }].each do |call|
  call.call
rescue TicketPrice::RuleInputError => e
  puts e.message
end
"#;
    let out =
        Command::new("ruby").arg("-w").arg("-e").arg(script).current_dir(dir.path().join("ruby")).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "[true, 1000]\n1000\nrate is out of range: 101\nkind is not a value of enum coupon_kind: \"nope\"\nsubtotal is not an integer: \"10000\"\nsubtotal is missing\n\
         {\"tag\":\"t\",\"in\":{\"subtotal\":10000,\"applied\":0,\"kind\":\"fixed\",\"rate\":0,\"face\":300,\"dup\":false},\"observed\":{\"ok\":true,\"raw\":300},\"trace\":[{\"table\":\"applicable\",\"row\":3},{\"table\":\"raw_discount\",\"row\":3}]}\n\
         visit is out of range: \"2027-01-01\"\nvisit is out of range: \"2027-01-01\"\n"
    );
}

/// Two rules reading one enums file, generated into one folder: the file's enums are its own
/// module (`tiers.rb`, and `sig/tiers.rbs`, written once), which each rule's module requires
/// and names, so `MemberDiscount::Tier` and `TierPoints::Tier` are one module object and a
/// member from either is passed to the other's function; both rules still agree with the
/// reference, and the signatures are valid together.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_ruby() {
    if !toolchain("two_rules_reading_one_enums_file_share_its_enums_in_ruby", &["ruby"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "ruby");
    let ruby = out.join("ruby");
    let shared = std::fs::read_to_string(ruby.join("tiers.rb")).unwrap();
    assert!(shared.contains("module Tiers") && shared.contains("  module Tier\n"), "{shared}");
    for module in ["member_discount.rb", "tier_points.rb"] {
        let source = std::fs::read_to_string(ruby.join(module)).unwrap();
        assert!(source.contains("require_relative \"tiers\"") && source.contains("Tier = ::Tiers::Tier"), "{source}");
        assert!(!source.contains("module Tier\n"), "{module} declares no Tier of its own");
    }
    assert_green(&test_json(&out, "ruby"));
    let rbs = Command::new("ruby")
        .args([
            "-rrbs",
            "-rrbs/cli",
            "-rstringio",
            "-e",
            "RBS::CLI.new(stdout: StringIO.new, stderr: $stderr).run(ARGV)",
        ])
        .args(["--", "-I", "sig", "validate"])
        .current_dir(&ruby)
        .output()
        .unwrap();
    assert!(rbs.status.success(), "rbs validate: {}{}", text(&rbs.stdout), text(&rbs.stderr));
    // The caller's code: a tier from either rule's module is one value of one enum.
    let script = "require_relative 'member_discount'\nrequire_relative 'tier_points'\n\
        puts TierPoints.tier_points(MemberDiscount::Tier::GOLD)\n\
        out = MemberDiscount.member_discount(TierPoints::Tier::PLATINUM, MemberDiscount::Channel::WEB, 10000, nil)\n\
        puts \"#{out.pct} #{out.discount}\"\n\
        puts MemberDiscount::Tier.equal?(TierPoints::Tier) && TierPoints::Tier.equal?(Tiers::Tier)\n";
    std::fs::write(ruby.join("caller.rb"), script).unwrap();
    let ran = Command::new("ruby").args(["-w", "caller.rb"]).current_dir(&ruby).output().unwrap();
    assert!(ran.status.success() && ran.stderr.is_empty(), "{}{}", text(&ran.stdout), text(&ran.stderr));
    let (gold, discount) = common::two_rules_answers(d);
    assert_eq!(text(&ran.stdout), format!("{}\n{} {}\ntrue\n", gold["points"], discount["pct"], discount["discount"]));
}
