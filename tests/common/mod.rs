//! What several analysis test files share.

use rulec::Checked;

/// The codes whose claims need a witness the reference evaluator confirms.
const CLAIMS: &[&str] = &["E101", "E103", "E107", "E108", "E132", "E134"];

/// Every diagnostic that carries no witness states only what the checker has shown: its text
/// says "not proven" and gives what it found, and claims nothing it has not seen happen.
/// (E102 and E104 are never made without a witness; E105 is a refutation, shown for every
/// input: the tests hold its proof to brute force.)
pub fn assert_no_unproven_claim(c: &Checked, context: &str) {
    for d in &c.diagnostics {
        if ["E102", "E104"].contains(&d.code) {
            assert!(d.witness.is_some(), "{context}: {} without a witness: {}", d.code, d.message);
        }
        if !CLAIMS.contains(&d.code) || d.witness.is_some() {
            continue;
        }
        let text = format!("{} {} {}", d.message, d.primary.text, d.notes.join(" "));
        assert!(text.contains("not proven"), "{context}: {} without a witness says what is not proven: {text}", d.code);
        if d.code == "E103" {
            // Never firing is proven; only that some input matches the row is not.
            continue;
        }
        for claim in
            ["can reach", "can be zero", "can be negative", "reaches", "overflows int64", "some input matches no row"]
        {
            assert!(!text.contains(claim), "{context}: {} claims `{claim}` without a witness: {text}", d.code);
        }
    }
}
