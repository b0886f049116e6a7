//! `mmgen value`: the exact value of a position, checked against trees that mmgen
//! builds and mmlookup audits, and against the literature.

mod common;
use common::*;

fn value(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["value", "--json"];
    all.extend(args);
    json(&ok("mmgen", &all))
}

#[test]
fn the_start_is_worth_the_boards_optimum() {
    // shared/reference/mastermind.md: 3x5 451 (heuristics reach 453).
    let start = value(&["--pegs", "3", "--colors", "5"]);
    assert_eq!(start["secrets"], 125);
    assert_eq!(start["least_total"], 451);
    let text = ok("mmgen", &["value", "--pegs", "3", "--colors", "5"]);
    assert!(text.starts_with("at the start: 125 secrets possible\nleast total: 451 guesses"));
    // And without repeated colours: 4x6's 360 codes, 1446 (the same reference).
    let start = value(&["--pegs", "4", "--colors", "6", "--no-repeat"]);
    assert_eq!(
        (start["secrets"].as_u64(), start["least_total"].as_u64()),
        (Some(360), Some(1446))
    );
}

#[test]
fn a_guess_costs_what_an_optimal_tree_forced_to_play_it_costs() {
    // 1111 is a poor first guess on 4x5: an optimal tree that must open with it
    // costs what `value` says it costs, and each of its answers' classes what
    // `value` says the position after that answer is worth.
    let dir = scratch("value_forced_first");
    let (tree, _) = generate(
        &dir,
        "first-1111.mmt",
        &[
            "--pegs",
            "4",
            "--colors",
            "5",
            "--strategy",
            "optimal",
            "--first",
            "1111",
        ],
    );
    let tree = tree.to_str().unwrap();
    let audit = json(&ok("mmlookup", &["audit", "--json", tree]));
    let total = audit["total_guesses"].as_u64().unwrap();
    let start = value(&[
        "--pegs", "4", "--colors", "5", "--guess", "1111", "--guess", "1123",
    ]);
    assert_eq!(start["guesses"][0]["guess"], "1111");
    assert_eq!(start["guesses"][0]["total"].as_u64().unwrap(), total);
    let over = start["guesses"][0]["over"].as_u64().unwrap();
    assert_eq!(total - over, start["least_total"].as_u64().unwrap());
    assert!(over > 0, "1111 is not an optimal first guess on 4x5");
    // The classes: every answer 1111 can get, each position's least, summed.
    let mut classes = 0;
    for blacks in 0..4 {
        let position = format!("1111:{blacks},0");
        let after = value(&["--pegs", "4", "--colors", "5", &position]);
        classes += after["least_total"].as_u64().unwrap();
        // The tree plays the optimal guess there too.
        let next = json(&ok(
            "mmlookup",
            &["next", "--tree", tree, "--json", &position],
        ));
        assert_eq!(after["best"], next["guess"], "after {position}");
    }
    assert_eq!(total, 625 + classes);
}

#[test]
fn a_position_off_every_tree_is_valued_with_its_regret() {
    let text = ok(
        "mmgen",
        &["value", "1122:1,0", "1111:0,0", "--guess", "3324"],
    );
    let value = value(&["1122:1,0", "1111:0,0", "--guess", "3324"]);
    let (least, best) = (
        value["least_total"].as_u64().unwrap(),
        value["best"].as_str().unwrap(),
    );
    let over = value["guesses"][0]["over"].as_u64().unwrap();
    assert_eq!(value["secrets"], 128);
    assert!(text.contains(&format!("least total: {least} guesses for them")));
    assert!(text.contains(&format!("optimal next guess: {best}\n")));
    assert!(text.contains(&format!("3324 next: {}, {over} more", least + over)));
}

#[test]
fn the_fewest_guesses_that_always_suffice_meet_a_tree_built_for_them() {
    // Knuth: 5 at worst on 4x6; Koyama and Lai: 5626 within 5. And an optimal tree
    // built with --max-depth 5 (mmgen, audited by mmlookup) costs the same.
    let start = value(&["--worst"]);
    assert_eq!(start["worst"]["guesses"], 5);
    assert_eq!(start["worst"]["least_total"], 5626);
    assert!(value(&[]).get("worst").is_none());
    let text = ok("mmgen", &["value", "--worst"]);
    assert!(text
        .ends_with("fewest guesses that always suffice: 5 (the least total within them: 5626)\n"));
    let dir = scratch("value_worst");
    let (tree, _) = generate(
        &dir,
        "depth5.mmt",
        &["--strategy", "optimal", "--max-depth", "5"],
    );
    let audit = json(&ok(
        "mmlookup",
        &["audit", "--json", tree.to_str().unwrap()],
    ));
    assert_eq!(audit["total_guesses"], 5626);
    assert_eq!(audit["max_guesses"], 5);
}

#[test]
fn colours_may_be_letters_or_any_alphabet() {
    let digits = value(&["1122:1,0", "1111:0,0", "--guess", "3324"]);
    let letters = value(&["--letters", "RRGG:1,0", "rrrr:0,0", "--guess", "BBGY"]);
    let notes = value(&[
        "--alphabet",
        "ABCDEF",
        "AABB:1,0",
        "AAAA:0,0",
        "--guess",
        "CCBD",
    ]);
    assert_eq!(letters["least_total"], digits["least_total"]);
    assert_eq!(letters["guesses"][0]["over"], digits["guesses"][0]["over"]);
    let best = digits["best"].as_str().unwrap();
    let spell = |symbols: &str| -> String {
        best.chars()
            .map(|c| symbols.as_bytes()[c.to_digit(10).unwrap() as usize - 1] as char)
            .collect()
    };
    assert_eq!(letters["best"].as_str().unwrap(), spell("RGBYOP"));
    assert_eq!(notes["best"].as_str().unwrap(), spell("ABCDEF"));
    let line = fails(
        "mmgen",
        &["value", "--pegs", "4", "--colors", "9", "--letters"],
    );
    assert!(line.contains("letters"), "{line}");
}

#[test]
fn bad_positions_are_one_line_errors() {
    for (args, expected) in [
        (
            &["1122:1,0", "1344:0,1", "3526:1,2", "1462:0,0"][..],
            "move 4 (1462:0,0) is impossible",
        ),
        (&["1122:4,0"], "the last move won: no guess is left to play"),
        (&["1122:4,0", "1344:0,0"], "move 2"),
        (&["--guess", "1178"], "--guess 1178: '7' is not a colour"),
        (
            &["--pegs", "5", "--colors", "8", "--time-limit", "0.2"],
            "no answer within the time limit of 0.2 s",
        ),
    ] {
        let mut all = vec!["value"];
        all.extend(args);
        let line = fails("mmgen", &all);
        assert!(line.contains(expected), "{args:?}: {line}");
    }
}
