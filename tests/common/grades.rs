//! The grade tables of benches/tables.rs and tests/speed.rs, generated as rule text.

/// A unique grade table: `salary` cut into `ns` bands, `age` into `na`, and, when
/// `regions > 0`, one row per region as well. Every band is closed on both ends
/// (`>=a <=b`), so completeness needs the integer reading of the cuts.
pub fn grade_table(ns: usize, na: usize, regions: usize) -> String {
    let mut s = String::from("rule grades v1\n");
    if regions > 0 {
        let names: Vec<String> = (0..regions).map(|i| format!("r{i}")).collect();
        s.push_str(&format!("enum region: {}\n", names.join(", ")));
    }
    s.push_str("input salary: money[JPY] 0JPY..9999999JPY\ninput age: int 0..119\n");
    if regions > 0 {
        s.push_str("input region: region\n");
    }
    s.push_str("output grade: int 0..1000000\ntable grade_of -> grade\n");
    let head = if regions > 0 {
        "| salary | age | region | grade |\n|---|---|---|---|\n"
    } else {
        "| salary | age | grade |\n|---|---|---|\n"
    };
    s.push_str(head);
    let sw = 10_000_000 / ns;
    let mut g = 0;
    for i in 0..ns {
        let (lo, hi) = (i * sw, if i + 1 == ns { 9_999_999 } else { (i + 1) * sw - 1 });
        for j in 0..na {
            let (alo, ahi) = (j * 120 / na, if j + 1 == na { 119 } else { (j + 1) * 120 / na - 1 });
            for r in 0..regions.max(1) {
                g += 1;
                let region = if regions > 0 { format!(" r{r} |") } else { String::new() };
                s.push_str(&format!("| >={lo}JPY <={hi}JPY | >={alo} <={ahi} |{region} {g} |\n"));
            }
        }
    }
    s
}
