//! `mmtree-report estimates [--write]` (`make bench-estimates`): `mmgen --estimate`
//! against the runs it estimates, on the boards of `tests/tests/estimate.rs` and a
//! few more, one run each right after its estimate; with `--write`, the table goes
//! into BENCHMARKS.md.

pub const START: &str = "<!-- estimates: written by `make bench-estimates`; do not edit -->";
pub const END: &str = "<!-- end of estimates -->";

/// Beside the five the tests hold it to: a tiny board, one without repeats and the
/// consistent rule, and a board of a quarter of a million codes.
const MORE_BOARDS: [&[&str]; 4] = [
    &["--pegs", "4", "--colors", "6", "--strategy", "knuth"],
    &[
        "--pegs",
        "4",
        "--colors",
        "10",
        "--no-repeat",
        "--strategy",
        "entropy",
    ],
    &["--pegs", "6", "--colors", "8", "--strategy", "consistent"],
    &["--pegs", "6", "--colors", "8", "--strategy", "knuth"],
];

pub fn estimates(write: bool) -> Result<(), String> {
    let mmgen = &super::program("mmgen");
    let out = super::target_dir().join("estimate-run.mmt");
    let out = out
        .to_str()
        .ok_or("the target folder's path is not UTF-8")?;
    let mut rows = String::new();
    for args in mmtree_tests::ESTIMATED_BOARDS
        .into_iter()
        .chain(MORE_BOARDS)
    {
        let estimate = super::run_json(mmgen, &[args, &["--estimate", "--json"][..]].concat())?;
        let run = super::run_json(
            mmgen,
            &[args, &["--json", "--force", "--out", out][..]].concat(),
        )?;
        let field = |value: &serde_json::Value, key: &str| {
            value
                .pointer(key)
                .and_then(|v| v.as_f64())
                .ok_or(format!("no {key} in {value}"))
        };
        let (low, expected, high) = (
            field(&estimate, "/seconds/low")?,
            field(&estimate, "/seconds/expected")?,
            field(&estimate, "/seconds/high")?,
        );
        let seconds = field(&run, "/generation_ms")? / 1000.0;
        let memory = field(&estimate, "/memory_bytes/expected")?;
        let peak = field(&run, "/peak_memory_bytes")?;
        let mib = |bytes: f64| bytes / 1048576.0;
        let row = format!(
            "| `{}` | {expected:.3} s ({low:.3} to {high:.3}) | {seconds:.3} s | {:.2} | {:.1} MiB | {:.1} MiB | {:.2} |\n",
            args.join(" "),
            seconds / expected,
            mib(memory),
            mib(peak),
            peak / memory
        );
        print!("{row}");
        rows += &row;
    }
    if write {
        let section = format!(
            "{START}\n## Estimates before a run\n\n\
             Written by `make bench-estimates` (`mmtree-report estimates --write`) on {}: for each board, \
             `mmgen ARGS --estimate --json` (the model of `generator/src/estimate.rs` with a scoring rate it \
             measures for 0.1 s), then the run `mmgen ARGS --json --out FILE` at once, default threads. Measured \
             is the generation time and the peak resident memory the run reports; the ratio is measured over \
             estimated (`make test` requires 1/3 to 3 on five of these boards).\n\n\
             | args | estimated time (range) | measured | ratio | estimated memory | measured | ratio |\n\
             |---|---|---|---|---|---|---|\n{rows}{END}",
            super::machine()
        );
        let current = std::fs::read_to_string("BENCHMARKS.md").unwrap_or_default();
        let updated = super::replace_section(&current, START, END, &section);
        std::fs::write("BENCHMARKS.md", updated).map_err(|e| format!("BENCHMARKS.md: {e}"))?;
        println!("wrote BENCHMARKS.md");
    }
    Ok(())
}
