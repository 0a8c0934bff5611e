// Checks every rule below rules/ (the enums file in rules/shared/ generates nothing of its own),
// writes <alias>.rs into OUT_DIR, and tells cargo to rerun only when one of those files changes.
// A rule that does not check clean fails the build with the diagnostics `rulec check` prints:
// returning the error from main prints it as it is (its Debug is its Display).
fn main() -> Result<(), rulec_build::Error> {
    rulec_build::Builder::new().rules_dir("rules").compile()
}
