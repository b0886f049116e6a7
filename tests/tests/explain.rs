//! `mmlookup explain` prints only sentences that its own figures make true: checked
//! for every history up to two moves deep in every shipped tree.

mod common;
use common::*;
use lookup::{Position, Tree};
use serde_json::Value;

/// The histories of at most two moves that follow `tree`'s line, as `GUESS:B,W`.
fn histories(tree: &Tree<&[u8]>) -> Vec<Vec<String>> {
    let board = tree.board();
    let step = |at: Position| -> Vec<(String, Position)> {
        let guess = board.display(tree.guess(at).unwrap()).to_string();
        tree.children(at)
            .unwrap()
            .map(|branch| {
                let (answer, child) = branch.unwrap();
                (format!("{guess}:{answer}"), child)
            })
            .collect()
    };
    let mut all = vec![Vec::new()];
    for (first, child) in step(tree.root()) {
        all.push(vec![first.clone()]);
        // After a leaf the next guess wins: nothing is left to explain.
        if let Position::Node(_) = child {
            for (second, _) in step(child) {
                all.push(vec![first.clone(), second]);
            }
        }
    }
    all
}

/// The figure a rule compares, from class sizes, and whether low is better.
fn figure(rule: &str, sizes: &[u64]) -> (f64, bool) {
    let n = sizes.iter().sum::<u64>() as f64;
    match rule {
        "knuth" => (*sizes.iter().max().unwrap() as f64, true),
        "expected-size" => (sizes.iter().map(|&c| (c * c) as f64).sum::<f64>() / n, true),
        "entropy" => (
            n.log2()
                - sizes
                    .iter()
                    .map(|&c| c as f64 * (c as f64).log2())
                    .sum::<f64>()
                    / n,
            false,
        ),
        "most-parts" => (sizes.len() as f64, false),
        other => panic!("no figure for {other}"),
    }
}

fn sizes(split: &Value) -> Vec<u64> {
    split["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["secrets"].as_u64().unwrap())
        .collect()
}

/// Checks one explanation's figures and sentences against each other.
fn check(text: &str, json: &Value, context: &str) {
    let n = json["candidates"].as_u64().unwrap();
    let ours = &json["tree"];
    let ours_sizes = sizes(ours);
    assert_eq!(ours_sizes.iter().sum::<u64>(), n, "{context}");
    assert_eq!(
        ours["worst_class"].as_u64(),
        ours_sizes.iter().max().copied()
    );
    assert_eq!(ours["class_count"].as_u64(), Some(ours_sizes.len() as u64));
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{n} secret")),
        "{context}: {first}"
    );
    // The subtree totals: this guess once per secret, then each class's total.
    if let Some(here) = json["guesses_here"].as_u64() {
        let after: u64 = ours["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["guesses_after"].as_u64().unwrap())
            .sum();
        assert_eq!(here, n + after, "{context}");
        let left = json["guesses_left"].as_u64().unwrap();
        let line = format!(
            "({n} for this guess, {after} after it), at most {left} each ({} in all)",
            json["moves"].as_u64().unwrap() + left
        );
        assert!(text.contains(&line), "{context}: {line} in {text}");
    }
    let last = text.lines().last().unwrap();
    let verdict = &json["verdict"];
    let Some(sentence) = verdict["sentence"].as_str() else {
        assert!(json["rule"].is_null(), "{context}");
        assert!(
            last.contains("follows no one-step rule"),
            "{context}: {last}"
        );
        return;
    };
    assert_eq!(last, sentence, "{context}");
    let rule = verdict["rule"].as_str().unwrap();
    if verdict["better"] == "same" || rule == "consistent" {
        return;
    }
    let theirs = &json["alternative"];
    let (x, low_is_good) = figure(rule, &ours_sizes);
    let (y, _) = figure(rule, &sizes(theirs));
    // Each figure is shown rounded to its last decimal.
    for (value, key) in [(x, "tree"), (y, "alternative")] {
        let text = verdict[key].as_str().unwrap();
        let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
        let shown: f64 = text.parse().unwrap();
        let half_unit = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-12;
        assert!(
            (shown - value).abs() <= half_unit,
            "{context}: {value} shown {text}"
        );
    }
    let tree_better = if low_is_good { x < y } else { x > y };
    let other_better = if low_is_good { y < x } else { y > x };
    match verdict["better"].as_str().unwrap() {
        "tree" => {
            assert!(tree_better, "{context}: {sentence}");
            assert!(sentence.contains(&format!(
                "is better ({} {} against {})",
                verdict["figure"].as_str().unwrap(),
                verdict["tree"].as_str().unwrap(),
                verdict["alternative"].as_str().unwrap()
            )));
        }
        "alternative" => assert!(other_better, "{context}: {sentence}"),
        "equal" => assert!(!tree_better && !other_better, "{context}: {sentence}"),
        other => panic!("{context}: verdict {other}"),
    }
    let cannot_win = ours["possible_secret"] == false;
    assert_eq!(
        sentence.contains("cannot win at once"),
        cannot_win && verdict["better"] == "tree",
        "{context}: {sentence}"
    );
}

#[test]
fn every_sentence_holds_for_every_history_two_moves_deep_in_every_shipped_tree() {
    let mut checked = 0;
    for path in shipped_trees() {
        let bytes = std::fs::read(&path).unwrap();
        let tree = Tree::open(&bytes[..]).unwrap();
        let path = path.to_str().unwrap().to_string();
        let all = histories(&tree);
        let results: Vec<usize> = std::thread::scope(|scope| {
            let workers: Vec<_> = all
                .chunks(all.len().div_ceil(2))
                .map(|chunk| {
                    let path = &path;
                    scope.spawn(move || {
                        for moves in chunk {
                            let mut args = vec!["explain", "--tree", path.as_str()];
                            args.extend(moves.iter().map(String::as_str));
                            let text = ok("mmlookup", &args);
                            args.push("--json");
                            let report = json(&ok("mmlookup", &args));
                            check(&text, &report, &format!("{path} {moves:?}"));
                        }
                        chunk.len()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        checked += results.iter().sum::<usize>();
    }
    assert!(checked > 1000, "{checked} histories");
}
