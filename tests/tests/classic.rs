//! The classic board end to end: mmgen builds Knuth's tree, mmlookup answers from it
//! and proves it. Reference values: Knuth 1977, via shared/reference/mastermind.md.

mod common;
use common::*;

#[test]
fn knuth_classic_tree_is_knuths() {
    let dir = scratch("knuth_classic");
    let (tree, report) = generate(
        &dir,
        "k.mmt",
        &["--pegs", "4", "--colors", "6", "--strategy", "knuth"],
    );
    assert_eq!(report["first_guess"], "1122");
    assert_eq!(report["total_guesses"], 5801);
    assert_eq!(report["max_guesses"], 5);
    assert_eq!(report["secrets"], 1296);
    assert_eq!(report["histogram"], serde_json::json!([1, 6, 62, 533, 694]));
    assert!(
        report["file_bytes"].as_u64().unwrap() <= 16 * 1024,
        "at most 16 KiB"
    );

    let tree = tree.to_str().unwrap();
    let audit = json(&ok("mmlookup", &["audit", tree, "--json"]));
    assert_eq!(audit["ok"], true);
    assert_eq!(audit["total_guesses"], 5801);
    assert_eq!(audit["max_guesses"], 5);
    assert_eq!(audit["nodes"], report["nodes"]);
    assert_eq!(audit["histogram"], report["histogram"]);

    let path = ok("mmlookup", &["solve", "--tree", tree, "3632", "--json"]);
    assert_eq!(
        json(&path)["guesses"],
        serde_json::json!(["1122", "1344", "3526", "1462", "3632"])
    );
    assert_eq!(
        json(&path)["answers"],
        serde_json::json!(["1,0", "0,1", "1,2", "1,1", "4,0"])
    );
}

#[test]
fn next_follows_knuths_worked_example_with_candidate_counts() {
    // 1122 (1,0) -> 1344 (0,1) -> 3526 (1,2) -> 1462 (1,1) -> 3632: 256 -> 44 -> 7 -> 1.
    let steps = [
        (vec![], "1122", 1296),
        (vec!["1122:1,0"], "1344", 256),
        (vec!["1122:1,0", "1344:0,1"], "3526", 44),
        (vec!["1122:1,0", "1344:0,1", "3526:1,2"], "1462", 7),
        (
            vec!["1122:1,0", "1344:0,1", "3526:1,2", "1462:1,1"],
            "3632",
            1,
        ),
    ];
    for (moves, guess, candidates) in steps {
        let mut args = vec!["next", "--json"];
        args.extend(moves.iter().copied());
        let answer = json(&ok("mmlookup", &args));
        assert_eq!(answer["guess"], guess, "after {moves:?}");
        assert_eq!(answer["candidates"], candidates, "after {moves:?}");
        // The plain form puts the guess alone on the first line.
        args.remove(1);
        assert_eq!(ok("mmlookup", &args).lines().next(), Some(guess));
    }
    let done = json(&ok(
        "mmlookup",
        &[
            "next", "--json", "1122:1,0", "1344:0,1", "3526:1,2", "1462:1,1", "3632:4,0",
        ],
    ));
    assert_eq!(done["solved"], true);
    assert_eq!(done["guesses"], 5);
}

/// Shipped trees that take too long to rerun in every test (a minute or more on
/// 2 cores, as the entropy trees with an exact search below 500 secrets; 5x7, 4x11
/// and 6x5, hours; 4x12 and 5x8, campaigns of days of CPU): `make trees`
/// regenerates them (all but 5x7, 4x11 and 6x5, whose proofs RESULTS.md tells;
/// 4x12's and 5x8's from their campaigns' items, a merge that
/// tests/tests/certificate.rs checks byte for byte, with the top certificate
/// against the campaign's ledger), and `make test` audits them like every other
/// tree (`mmtree-report trees --check`, tests/tests/explain.rs).
const LONG_PROOFS: &[&str] = &[
    "optimal-4x12.mmt",
    "optimal-5x8.mmt",
    "optimal-5x7.mmt",
    "optimal-4x11.mmt",
    "optimal-6x5.mmt",
    "optimal-5x6.mmt",
    "optimal-worst-5x6.mmt",
    "optimal-worst-4x10.mmt",
    "optimal-4x9.mmt",
    "optimal-4x10.mmt",
    "entropy-exact250-5x8.mmt",
    "entropy-exact500-5x8.mmt",
    "entropy-exact500-6x6.mmt",
    "entropy-rollout500-6x6.mmt",
];

#[test]
fn every_shipped_tree_is_what_mmgen_makes_today() {
    let dir = scratch("shipped");
    let shipped = shipped_trees();
    assert!(shipped.iter().any(|p| p.ends_with("knuth-4x6.mmt")));
    let quick = shipped
        .into_iter()
        .filter(|p| !LONG_PROOFS.iter().any(|long| p.ends_with(long)));
    for path in quick {
        let bytes = std::fs::read(&path).unwrap();
        let tree = lookup::Tree::open(&bytes[..]).unwrap();
        let info = tree.meta().unwrap().strategy;
        let args = mmtree_tests::regenerate_args(&root(), tree.board(), &info).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (fresh, _) = generate(&dir, "fresh.mmt", &args);
        assert!(
            std::fs::read(fresh).unwrap() == bytes,
            "{} is stale: run `make trees`",
            path.display()
        );
    }
}

#[test]
fn solve_all_plays_every_secret_once() {
    let all = ok("mmlookup", &["solve", "--all"]);
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 1296);
    let total: usize = lines.iter().map(|l| l.split(' ').count() - 1).sum();
    assert_eq!(total, 5801);
    for line in &lines {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], "1122");
        assert_eq!(
            words.first(),
            words.last(),
            "each game ends on its secret: {line}"
        );
    }
    let jsonl = ok("mmlookup", &["solve", "--all", "--json"]);
    let first = json(jsonl.lines().next().unwrap());
    assert_eq!(first["secret"], "1111");
    assert_eq!(jsonl.lines().count(), 1296);
}

#[test]
fn info_reports_board_strategy_and_sizes() {
    let info = json(&ok("mmlookup", &["info", "--json"]));
    assert_eq!(info["board"], "4x6");
    assert_eq!(info["strategy"], "knuth");
    assert_eq!(info["first_guess"], "1122");
    let parts = ["header_bytes", "node_table_bytes", "edge_table_bytes"]
        .iter()
        .map(|k| info[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(parts + 4, info["file_bytes"].as_u64().unwrap());
}
