//! The PHP backend over the corpus and tests/rules: every rule held to the reference by
//! `rulec test` (the runner runs with every error reported, so a deprecation notice is a
//! difference); `php -l` silent on every file; no `/` operator anywhere; the same bytes on a
//! second generation; every name `rulec api` gives in the file.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn generated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules(), "php", dir.path());
    dir
}

#[test]
fn every_rule_agrees_with_the_reference_in_php() {
    if !toolchain("every_rule_agrees_with_the_reference_in_php", &["php"]) {
        return;
    }
    let dir = generated();
    let report = test_json(dir.path(), "php");
    assert_green(&report);
    assert_eq!(report["results"].as_array().unwrap().len(), rules().len() + 1, "{report}");
}

#[test]
fn php_lints_nothing_and_divides_only_with_intdiv() {
    if !toolchain("php_lints_nothing_and_divides_only_with_intdiv", &["php"]) {
        return;
    }
    let dir = generated();
    let mut files: Vec<_> = std::fs::read_dir(dir.path().join("php")).unwrap().map(|e| e.unwrap().path()).collect();
    files.push(Path::new(ROOT).join("src/gen/php/runtime/module.php"));
    for f in &files {
        let out = Command::new("php").args(["-d", "error_reporting=-1", "-l"]).arg(f).output().unwrap();
        assert!(out.status.success(), "{}: {}", f.display(), text(&out.stdout));
        let source = std::fs::read_to_string(f).unwrap();
        for (i, line) in source.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim_start();
            if code.starts_with('*') || code.starts_with("/*") {
                continue;
            }
            // A division operator: a `/` that is not in a comment, a string or a regex.
            let bare: String = code.split('\'').step_by(2).collect::<Vec<_>>().concat();
            assert!(!bare.contains(" / "), "{}:{}: the `/` operator: {line}", f.display(), i + 1);
        }
    }
}

#[test]
fn every_name_rulec_api_gives_is_in_the_file() {
    let dir = generated();
    for rule in rules() {
        let api = api(&rule, "php");
        let source = std::fs::read_to_string(dir.path().join("php").join(api["module"].as_str().unwrap())).unwrap();
        assert!(source.contains(&format!("namespace {};", api["namespace"].as_str().unwrap())), "{}", rule.display());
        for key in ["function", "traced", "record", "wire"] {
            assert!(source.contains(&format!("function {}(", api[key].as_str().unwrap())), "{}: {key}", rule.display());
        }
        for e in api["enums"].as_array().unwrap() {
            // An enum of an enums file is declared in that file's module, and named here by an alias.
            let (source, declared) = match e["module"].as_str() {
                Some(module) => {
                    let alias =
                        format!("\\class_alias({0}::class, __NAMESPACE__ . '\\{0}');", e["alias"].as_str().unwrap());
                    assert!(source.contains(&alias), "{}: {alias}", rule.display());
                    let shared = std::fs::read_to_string(dir.path().join("php").join(module)).unwrap();
                    assert!(shared.contains(&format!("namespace {};", e["namespace"].as_str().unwrap())), "{module}");
                    (shared, e["declared"].as_str().unwrap())
                }
                None => (source.clone(), e["alias"].as_str().unwrap()),
            };
            assert!(source.contains(&format!("enum {declared}: string")), "{}", rule.display());
            for v in e["values"].as_array().unwrap() {
                let case = v["alias"].as_str().unwrap().rsplit("::").next().unwrap();
                assert!(source.contains(&format!("case {case} = ")), "{}: {case}", rule.display());
            }
        }
    }
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (generated(), generated());
    assert_eq!(tree(&a.path().join("php")), tree(&b.path().join("php")));
}

/// The file's door as a PHP caller meets it: strict types refuse a float for an int, the
/// range is refused with its value, the wire door takes json_decode's objects.
#[test]
fn the_file_holds_what_a_php_caller_passes() {
    if !toolchain("the_file_holds_what_a_php_caller_passes", &["php"]) {
        return;
    }
    let dir = generated();
    let script = r#"<?php
declare(strict_types=1);
require_once __DIR__ . '/single_coupon.php';
use SingleCoupon\CouponKind;
$out = SingleCoupon\single_coupon(10000, 0, CouponKind::PERCENT, 10, 0, false);
echo \var_export($out->ok, true), ' ', $out->raw, "\n";
try { SingleCoupon\single_coupon(10000, 0, CouponKind::FIXED, 101, 0, false); } catch (SingleCoupon\RuleInputError $e) { echo $e->getMessage(), "\n"; }
try { SingleCoupon\single_coupon(10000.0, 0, CouponKind::FIXED, 1, 0, false); } catch (\TypeError $e) { echo "TypeError\n"; }
[$v, $trace] = SingleCoupon\single_coupon_traced(10000, 0, CouponKind::FIXED, 1, 300, false);
echo \count($trace), ' ', $trace[1]->row, "\n";
echo SingleCoupon\single_coupon_wire(\json_decode('{"subtotal":1e4,"applied":0,"kind":"fixed","rate":0,"face":300,"dup":false}'), null), "\n";
try { SingleCoupon\single_coupon_wire(\json_decode('{"subtotal":10000,"applied":0,"kind":"nope","rate":0,"face":300,"dup":false}')); } catch (SingleCoupon\RuleInputError $e) { echo $e->what, "\n"; }
try { SingleCoupon\single_coupon_wire(\json_decode('[1]')); } catch (SingleCoupon\RuleInputError $e) { echo $e->what, "\n"; }
require_once __DIR__ . '/ticket_price.php';
try { TicketPrice\ticket_price(30, 20819, true); } catch (TicketPrice\RuleInputError $e) { echo $e->getMessage(), "\n"; }
try { TicketPrice\ticket_price_wire(\json_decode('{"age":30,"visit":"2027-01-01","member":true}')); } catch (TicketPrice\RuleInputError $e) { echo $e->getMessage(), "\n"; }
"#;
    std::fs::write(dir.path().join("php/caller.php"), script).unwrap();
    let out = Command::new("php")
        .args(["-d", "error_reporting=-1", "caller.php"])
        .current_dir(dir.path().join("php"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "true 1000\nrate is out of range: 101\nTypeError\n2 3\n\
         {\"in\":{\"subtotal\":10000,\"applied\":0,\"kind\":\"fixed\",\"rate\":0,\"face\":300,\"dup\":false},\"observed\":{\"ok\":true,\"raw\":300},\"trace\":[{\"table\":\"applicable\",\"row\":3},{\"table\":\"raw_discount\",\"row\":3}]}\n\
         kind is not a value of enum coupon_kind\nthe input is not an object\n\
         visit is out of range: \"2027-01-01\"\nvisit is out of range: \"2027-01-01\"\n"
    );
}

/// The names PHP gives a meaning of its own (`$this`, the superglobals) are legal rule names:
/// as an output (a promoted constructor parameter of Output) and as an input they move, and
/// the rule still agrees with the reference.
#[test]
fn this_and_the_superglobals_are_names_a_rule_may_use() {
    if !toolchain("this_and_the_superglobals_are_names_a_rule_may_use", &["php"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("special.rule");
    std::fs::write(
        &rule,
        "rule special v1\n\ninput GLOBALS: int 0..9\ninput _GET: int 0..9\n\noutput this: int 0..20\noutput _ENV: int 0..9\n\ndefine this = GLOBALS + _GET\ndefine _ENV = GLOBALS\n\nexpect GLOBALS=1, _GET=2 -> this=3, _ENV=1\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    generate(&[rule], "php", &out);
    let php = std::fs::read_to_string(out.join("php/special.php")).unwrap();
    for special in ["$this", "$GLOBALS", "$_GET", "$_ENV"] {
        assert!(!php.contains(&format!("{special},")) && !php.contains(&format!("{special})")), "{special}:\n{php}");
    }
    assert_green(&test_json(&out, "php"));
}

/// Two rules reading one enums file, generated into one folder: the file's enums are its own
/// module (`tiers.php`, written once), each rule's namespace names them by an alias, so a
/// caller passes a member taken from one rule's namespace to the other's function; both
/// rules still agree with the reference. Two enums files that would write one module are
/// refused.
#[test]
fn two_rules_reading_one_enums_file_share_its_enums_in_php() {
    if !toolchain("two_rules_reading_one_enums_file_share_its_enums_in_php", &["php"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::two_rules_of_one_enums_file(d, "php");
    let points = std::fs::read_to_string(d.join("rules/tier_points.rule")).unwrap();
    let shared = std::fs::read_to_string(out.join("php/tiers.php")).unwrap();
    assert!(shared.contains("namespace Tiers;") && shared.contains("enum Tier: string"), "{shared}");
    for module in ["member_discount.php", "tier_points.php"] {
        let source = std::fs::read_to_string(out.join("php").join(module)).unwrap();
        assert!(!source.contains("enum Tier:"), "{module} declares no Tier of its own");
        assert!(source.contains("require_once __DIR__ . '/tiers.php';"), "{module}");
    }
    assert_green(&test_json(&out, "php"));
    // The caller's code: a tier from either namespace is one value of one enum.
    let script = r#"<?php
declare(strict_types=1);
require_once __DIR__ . '/member_discount.php';
require_once __DIR__ . '/tier_points.php';
echo TierPoints\tier_points(MemberDiscount\Tier::GOLD), "\n";
$out = MemberDiscount\member_discount(TierPoints\Tier::PLATINUM, MemberDiscount\Channel::WEB, 10000, null);
echo $out->pct, ' ', $out->discount, "\n";
echo \var_export(MemberDiscount\Tier::GOLD === TierPoints\Tier::GOLD && TierPoints\Tier::GOLD === Tiers\Tier::GOLD, true), "\n";
"#;
    std::fs::write(out.join("php/caller.php"), script).unwrap();
    let ran = Command::new("php")
        .args(["-d", "error_reporting=-1", "caller.php"])
        .current_dir(out.join("php"))
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}{}", text(&ran.stdout), text(&ran.stderr));
    let (gold, discount) = common::two_rules_answers(d);
    assert_eq!(text(&ran.stdout), format!("{}\n{} {}\ntrue\n", gold["points"], discount["pct"], discount["discount"]));
    // Another enums file declaring `enums tiers` would write the same module with other bytes.
    std::fs::create_dir_all(d.join("other/shared")).unwrap();
    std::fs::write(d.join("other/shared/tiers.rule"), "enums tiers\n\nenum tier: bronze < gold\n").unwrap();
    std::fs::write(
        d.join("other/tier_points.rule"),
        points.replace("rule tier_points", "rule bronze_points").replace(
            "| basic   | 1      |\n| silver  | 2      |\n| premium | 5      |\n",
            "| bronze  | 1      |\n| gold    | 5      |\n",
        ),
    )
    .unwrap();
    let clash =
        rulec(&["gen", "rules/tier_points.rule", "other/tier_points.rule", "--out", "clash", "--lang", "php"], d);
    assert_eq!(clash.status.code(), Some(1), "{}", text(&clash.stderr));
    assert!(text(&clash.stderr).contains("would both write php/tiers.php"), "{}", text(&clash.stderr));
    // So would a rule named like the enums file it reads: its own module is not overwritten.
    std::fs::write(d.join("rules/tiers.rule"), points.replace("rule tier_points", "rule tiers")).unwrap();
    let clash = rulec(&["gen", "rules/tiers.rule", "--out", "clash", "--lang", "php"], d);
    assert_eq!(clash.status.code(), Some(1), "{}", text(&clash.stderr));
    let says = "rules/tiers.rule and an enums file it reads would both write php/tiers.php";
    assert!(text(&clash.stderr).contains(says), "{}", text(&clash.stderr));
}
