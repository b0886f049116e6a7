//! The exact search end to end: proven optima from the literature
//! (shared/reference/mastermind.md), the worst-case objective, time limits that
//! still give valid trees, and optimal never worse than any heuristic.

mod common;
use common::*;

fn optimal(
    dir: &std::path::Path,
    name: &str,
    board: &[&str],
    extra: &[&str],
) -> (String, serde_json::Value) {
    let mut args = board.to_vec();
    args.extend(["--strategy", "optimal"]);
    args.extend(extra);
    let (path, report) = generate(dir, name, &args);
    let path = path.to_str().unwrap().to_string();
    let audit = json(&ok("mmlookup", &["audit", "--json", &path]));
    assert_eq!(audit["ok"], true, "{name}");
    assert_eq!(audit["total_guesses"], report["total_guesses"]);
    (path, report)
}

#[test]
fn proven_optima_match_the_literature() {
    let dir = scratch("optima");
    for (board, total) in [
        (&["--pegs", "3", "--colors", "5"][..], 451),
        (&["--pegs", "4", "--colors", "4"], 905),
        (&["--pegs", "4", "--colors", "6", "--no-repeat"], 1446),
    ] {
        let (path, report) = optimal(&dir, "opt.mmt", board, &[]);
        assert_eq!(report["total_guesses"], total, "{board:?}");
        assert_eq!(report["proven"], true);
        let info = json(&ok("mmlookup", &["info", "--json", &path]));
        assert_eq!(info["proven"], true);
        assert_eq!(info["strategy"], "optimal");
    }
}

#[test]
fn classic_optimum_is_5625_and_5626_within_five_guesses() {
    let dir = scratch("classic_optimum");
    let (_, free) = optimal(&dir, "opt.mmt", &["--pegs", "4", "--colors", "6"], &[]);
    assert_eq!(free["total_guesses"], 5625);
    assert_eq!(free["max_guesses"], 6);
    let (path, five) = optimal(
        &dir,
        "opt5.mmt",
        &["--pegs", "4", "--colors", "6"],
        &["--max-depth", "5"],
    );
    assert_eq!(five["total_guesses"], 5626);
    assert_eq!(five["max_guesses"], 5);
    let info = json(&ok("mmlookup", &["info", "--json", &path]));
    assert_eq!(info["params"], serde_json::json!([["max-depth", "5"]]));
}

#[test]
fn worst_case_objective_finds_the_least_worst_case() {
    // Jager and Peczarski: with 3 pegs and c >= 5 colours the best worst case is
    // floor((c - 1) / 3) + 4: 5 up to 6 colours, 6 from 7, 7 from 10 (RESULTS.md has
    // every c up to 16; 3x12 takes 1.4 s in a release build).
    let dir = scratch("worst");
    for colors in 5u32..=12 {
        let board = ["--pegs", "3", "--colors", &colors.to_string()].map(String::from);
        let board: Vec<&str> = board.iter().map(String::as_str).collect();
        let (_, report) = optimal(&dir, "worst.mmt", &board, &["--objective", "worst"]);
        assert_eq!(report["max_guesses"], (colors - 1) / 3 + 4, "3x{colors}");
    }
}

#[test]
fn optimal_is_never_worse_than_a_heuristic() {
    let dir = scratch("never_worse");
    for board in [
        &["--pegs", "3", "--colors", "5"][..],
        &["--pegs", "4", "--colors", "4"],
        &["--pegs", "3", "--colors", "6", "--no-repeat"],
    ] {
        let compare = json(&ok("mmgen", &[&["compare", "--json"][..], board].concat()));
        let rows = compare.as_array().unwrap();
        let best = rows.iter().find(|r| r["strategy"] == "optimal").unwrap()["total_guesses"]
            .as_u64()
            .unwrap();
        for row in rows {
            assert!(
                row["total_guesses"].as_u64().unwrap() >= best,
                "{board:?}: {row}"
            );
        }
        let (_, report) = optimal(&dir, "o.mmt", board, &[]);
        assert_eq!(report["total_guesses"], best);
    }
}

#[test]
fn compare_draws_every_strategy_s_distribution_and_keeps_other_files() {
    let dir = scratch("compare_plot");
    let chart = dir.join("chart.svg");
    let board = ["--pegs", "3", "--colors", "4"];
    let chart_text = chart.to_str().unwrap();
    let rows = json(&ok(
        "mmgen",
        &[&["compare", "--json", "--plot", chart_text][..], &board].concat(),
    ));
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    for row in rows.as_array().unwrap() {
        let legend = format!(
            "{} (average {:.4})",
            row["strategy"].as_str().unwrap(),
            row["average_guesses"].as_f64().unwrap()
        );
        assert!(svg.contains(&legend), "{legend}");
    }
    // Drawn again over its own chart; a file that is not a chart is kept.
    ok(
        "mmgen",
        &[&["compare", "--plot", chart_text][..], &board].concat(),
    );
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let err = fails(
        "mmgen",
        &[&["compare", "--plot", notes.to_str().unwrap()][..], &board].concat(),
    );
    assert!(err.contains("is not an SVG chart; not replaced"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
}

#[test]
fn a_time_limit_gives_a_valid_unproven_tree() {
    let dir = scratch("time_limit");
    let (path, report) = optimal(
        &dir,
        "quick.mmt",
        &["--pegs", "4", "--colors", "6"],
        &["--time-limit", "0"],
    );
    assert_eq!(report["proven"], false);
    let info = json(&ok("mmlookup", &["info", "--json", &path]));
    assert_eq!(info["proven"], false);
    assert!(report["total_guesses"].as_u64().unwrap() >= 5625);
    // Never worse than the best heuristic: on 3x8 with no time the search's tree is
    // most-parts' (2407), and entropy's (2395) is kept, with the floor proven.
    let board = ["--pegs", "3", "--colors", "8"];
    let (path, report) = optimal(&dir, "kept.mmt", &board, &["--time-limit", "0"]);
    let (_, entropy) = generate(
        &dir,
        "entropy.mmt",
        &[&board[..], &["--strategy", "entropy"]].concat(),
    );
    assert_eq!(report["total_guesses"], entropy["total_guesses"]);
    assert_eq!(report["search_tree_total"], 2407);
    assert_eq!(report["strategy"], "entropy");
    assert_eq!(report["proven"], false);
    let floor = report["proven_lower_bound"].as_u64().unwrap();
    assert!(floor > 0 && floor < 2395, "{report}");
    assert_eq!(report["histogram"], entropy["histogram"]);
    let info = json(&ok("mmlookup", &["info", "--json", &path]));
    assert_eq!(info["proven_lower_bound"].as_u64(), Some(floor));
}

#[test]
fn a_time_limited_search_keeps_the_tree_it_found() {
    // 4x7 with about a second: the search's own tree (part proven, part heuristic)
    // beats every heuristic (the best, entropy, totals 11378), and is audited whole.
    let dir = scratch("time_limit_found");
    let board = ["--pegs", "4", "--colors", "7"];
    let (_, report) = optimal(
        &dir,
        "found.mmt",
        &board,
        &["--time-limit", "1.5", "--threads", "2"],
    );
    let total = report["total_guesses"].as_u64().unwrap();
    assert!((11228..=11378).contains(&total), "{report}");
    if report["proven"] == false && report["strategy"] == "optimal" {
        assert_eq!(report["search_tree_total"].as_u64(), Some(total));
    }
}

#[test]
fn optimal_trees_do_not_depend_on_threads_or_symmetry() {
    let dir = scratch("optimal_determinism");
    let board = ["--pegs", "4", "--colors", "4"];
    let mut files = Vec::new();
    for extra in [
        &["--threads", "1"][..],
        &["--threads", "2"],
        &["--no-symmetry"],
    ] {
        let (path, _) = optimal(&dir, "d.mmt", &board, extra);
        files.push(std::fs::read(path).unwrap());
    }
    assert!(files.windows(2).all(|w| w[0] == w[1]));
}

/// `compare` calls a row optimal only when it is proven; a search out of time
/// shows the tree `mmgen --strategy optimal` with the same limit writes (the better
/// of its own and the heuristics'), labelled as the best found. The limit is a
/// millisecond, so that no machine, busy or idle, gets the search past the
/// heuristics' trees and both runs end with the same one (a second let a busy run
/// stop elsewhere than the other: 86,867 against 86,587 on 5x7).
#[test]
fn compare_shows_the_optimal_run_s_file_and_says_optimal_only_when_proven() {
    let dir = scratch("compare_truth");
    let limit = [
        "--pegs",
        "4",
        "--colors",
        "7",
        "--time-limit",
        "0.001",
        "--threads",
        "1",
    ];
    let rows = json(&ok("mmgen", &[&["compare", "--json"], &limit[..]].concat()));
    let row = (rows.as_array().unwrap().iter())
        .find(|r| r["proven"] == false)
        .expect("the search's row, out of time");
    let (file, report) = generate(
        &dir,
        "o.mmt",
        &[&limit[..], &["--strategy", "optimal"]].concat(),
    );
    assert_eq!(row["total_guesses"], report["total_guesses"], "{row}");
    assert_eq!(row["file_bytes"], report["file_bytes"], "{row}");
    assert_eq!(
        row["file_bytes"].as_u64(),
        Some(std::fs::metadata(file).unwrap().len())
    );
    // In the table: proven, it is optimal; out of time, the best found.
    let proven = ok("mmgen", &["compare", "--pegs", "3", "--colors", "3"]);
    assert!(
        proven.lines().any(|l| l.starts_with("optimal ")),
        "{proven}"
    );
    let late = ok(
        "mmgen",
        &[
            "compare",
            "--pegs",
            "4",
            "--colors",
            "6",
            "--time-limit",
            "0",
        ],
    );
    assert!(!late.lines().any(|l| l.starts_with("optimal ")), "{late}");
    let best = late.lines().find(|l| l.starts_with("best found ")).unwrap();
    assert!(best.ends_with("(not proven optimal: time limit)"), "{best}");
    // A plot that cannot be written is refused before any work.
    let err = fails("mmgen", &["compare", "--plot", "/nonexistent/x.svg"]);
    assert!(err.contains("cannot write /nonexistent/x.svg"), "{err}");
}

/// `--time-limit` bounds the whole run, not only the search: past the limit, the
/// completion and the heuristics' trees give up too. Boards too big to finish any
/// tree in that time end with a message and no file; before, 6x8 ran 159 s and 8x8
/// over 10 minutes with a 2 s limit. How long past the limit a run takes depends on
/// the machine and its load, so it is measured (BENCHMARKS.md, `make bench`), not
/// asserted here.
#[test]
fn a_time_limit_bounds_the_whole_run() {
    let dir = scratch("time_limit_run");
    for (pegs, colors) in [("6", "8"), ("7", "7"), ("8", "8")] {
        let out = dir.join(format!("{pegs}x{colors}.mmt"));
        let err = fails(
            "mmgen",
            &[
                "--pegs",
                pegs,
                "--colors",
                colors,
                "--strategy",
                "optimal",
                "--time-limit",
                "2",
                // A cache of fixed size, started whatever memory the machine has
                // free: on a busy machine the default cache is cut to fit, which
                // mmgen says in a line of its own (tests/tests/estimate.rs).
                "--cache-mib",
                "64",
                "--force",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert!(
            err.contains(
                "the time limit ran out before any complete tree was built; no file written"
            ),
            "{pegs}x{colors}: {err}"
        );
        assert!(!out.exists());
    }
    // A board that can finish keeps its tree, as before: the search's, finished by
    // a heuristic, or a heuristic's if better.
    let (_, report) = generate(
        &dir,
        "5x7.mmt",
        &[
            "--pegs",
            "5",
            "--colors",
            "7",
            "--strategy",
            "optimal",
            "--time-limit",
            "1",
        ],
    );
    assert_eq!(report["proven"], false);
    assert!(
        report["total_guesses"].as_u64().unwrap() <= 86587,
        "{report}"
    );
}
