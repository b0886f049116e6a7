//! Every strategy end to end on the classic board: the file records the rule, the
//! audit agrees with mmgen, and the totals are pinned (measured with this code; the
//! heuristics' averages agree with those Kooi (2005) reports for the same rules).

mod common;
use common::*;

#[test]
fn every_strategy_builds_an_audited_tree_with_its_known_total() {
    let dir = scratch("strategies");
    for (strategy, first, total, worst) in [
        ("knuth", "1122", 5801, 5),
        ("expected-size", "1123", 5696, 6),
        ("entropy", "1234", 5722, 6),
        ("most-parts", "1123", 5668, 6),
        ("consistent", "1111", 7471, 9),
    ] {
        let (path, report) = generate(&dir, &format!("{strategy}.mmt"), &["--strategy", strategy]);
        assert_eq!(report["first_guess"], first, "{strategy}");
        assert_eq!(report["total_guesses"], total, "{strategy}");
        assert_eq!(report["max_guesses"], worst, "{strategy}");
        let path = path.to_str().unwrap();
        let audit = json(&ok("mmlookup", &["audit", "--json", path]));
        assert_eq!(audit["ok"], true);
        assert_eq!(audit["total_guesses"], total);
        let info = json(&ok("mmlookup", &["info", "--json", path]));
        assert_eq!(info["strategy"], strategy);
        assert_eq!(info["proven"], serde_json::Value::Null);
    }
}

#[test]
fn options_change_the_tree_and_are_recorded() {
    let dir = scratch("strategy_options");
    let (path, report) = generate(
        &dir,
        "first.mmt",
        &["--strategy", "knuth", "--first", "1123"],
    );
    assert_eq!(report["first_guess"], "1123");
    let info = json(&ok("mmlookup", &["info", "--json", path.to_str().unwrap()]));
    assert_eq!(info["params"], serde_json::json!([["first", "1123"]]));

    let (path, report) = generate(
        &dir,
        "inside.mmt",
        &["--strategy", "knuth", "--consistent-only"],
    );
    assert_eq!(report["total_guesses"], 5828);
    let path = path.to_str().unwrap();
    assert_eq!(
        json(&ok("mmlookup", &["audit", "--json", path]))["ok"],
        true
    );
    // Every guess of a consistent-only tree could still be the secret.
    for line in ok("mmlookup", &["solve", "--all", "--tree", path])
        .lines()
        .step_by(25)
    {
        let words: Vec<&str> = line.split(' ').collect();
        let (secret, guesses) = (words[0], &words[1..]);
        for (i, guess) in guesses.iter().enumerate() {
            let moves: Vec<String> = guesses[..i]
                .iter()
                .map(|g| format!("{g}:{}", ok("mmlookup", &["score", g, secret]).trim()))
                .collect();
            let fits = |code: &str| {
                moves.iter().all(|m| {
                    let (g, answer) = m.split_once(':').unwrap();
                    ok("mmlookup", &["score", g, code]).trim() == answer
                })
            };
            assert!(
                fits(guess),
                "{guess} in the game of {secret} was already impossible"
            );
        }
    }

    let err = fails(
        "mmgen",
        &[
            "--first",
            "1177",
            "--out",
            dir.join("x.mmt").to_str().unwrap(),
        ],
    );
    assert!(err.contains("--first '1177'"), "{err}");
}

#[test]
fn exact_below_plays_the_optimum_in_small_nodes_under_the_rule() {
    // Entropy above, the exact search at nodes of at most N secrets: totals fall as
    // N grows, and at N = every code the search plays everywhere: the optimum.
    let dir = scratch("exact_below");
    let mut totals = Vec::new();
    for n in ["3", "20", "100", "1296"] {
        let (path, report) = generate(
            &dir,
            &format!("e{n}.mmt"),
            &["--strategy", "entropy", "--exact-below", n],
        );
        let path = path.to_str().unwrap();
        let audit = json(&ok("mmlookup", &["audit", "--json", path]));
        assert_eq!(audit["total_guesses"], report["total_guesses"]);
        let info = json(&ok("mmlookup", &["info", "--json", path]));
        assert_eq!(info["params"], serde_json::json!([["exact below", n]]));
        totals.push(report["total_guesses"].as_u64().unwrap());
    }
    let (_, optimum) = generate(&dir, "o.mmt", &["--strategy", "optimal"]);
    assert!(
        totals[0] <= 5722 && totals.windows(2).all(|w| w[0] >= w[1]),
        "{totals:?}"
    );
    assert!(totals[2] < 5722, "{totals:?}");
    assert_eq!(totals[3], optimum["total_guesses"].as_u64().unwrap());
    // The same file whatever the thread count.
    let args = [
        "--pegs",
        "4",
        "--colors",
        "7",
        "--strategy",
        "entropy",
        "--exact-below",
        "40",
    ];
    let (one, _) = generate(&dir, "t1.mmt", &[&args[..], &["--threads", "1"]].concat());
    let (two, _) = generate(&dir, "t2.mmt", &[&args[..], &["--threads", "2"]].concat());
    assert!(std::fs::read(one).unwrap() == std::fs::read(two).unwrap());
    let err = fails(
        "mmgen",
        &[
            "--strategy",
            "optimal",
            "--exact-below",
            "9",
            "--out",
            "x.mmt",
        ],
    );
    assert!(err.contains("--exact-below applies to the rules"), "{err}");
}
