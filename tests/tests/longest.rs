//! `mmgen longest`: the longest game of consistent guesses, checked move by move
//! with `mmlookup score`, against the values the tests of its module work out
//! by trying every game.

mod common;
use common::*;

#[test]
fn the_longest_consistent_game_is_a_consistent_game_of_that_length() {
    let said = json(&ok(
        "mmgen",
        &["longest", "--pegs", "4", "--colors", "5", "--json"],
    ));
    assert_eq!(said["guesses"], 9, "{said}");
    let game: Vec<(String, String)> = (said["game"].as_array().unwrap().iter())
        .map(|m| (m[0].as_str().unwrap().into(), m[1].as_str().unwrap().into()))
        .collect();
    assert_eq!(game.len(), 9);
    let board = ["--pegs", "4", "--colors", "5"];
    let score = |guess: &str, secret: &str| {
        let args = [&["score", guess, secret][..], &board].concat();
        ok("mmlookup", &args).trim().to_string()
    };
    let (secret, won) = game.last().unwrap();
    assert_eq!(won, "4,0");
    for (i, (guess, answer)) in game.iter().enumerate() {
        assert_eq!(&score(guess, secret), answer, "{guess}");
        // Consistent: it gives each guess before it the answer that guess got.
        for (earlier, got) in &game[..i] {
            assert_eq!(&score(earlier, guess), got, "{guess} after {earlier}");
        }
    }
    // As text: the claim, then the game a move a line.
    let text = ok("mmgen", &["longest", "--pegs", "4", "--colors", "4"]);
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    assert!(
        head.starts_with(
            "longest game of consistent guesses on 4x4: 8 guesses, and none takes 9 ("
        ),
        "{text}"
    );
    assert_eq!(lines.count(), 8);
    let bulls = ["longest", "--pegs", "4", "--colors", "6", "--no-repeat"];
    assert!(ok("mmgen", &bulls)
        .starts_with("longest game of consistent guesses on 4x6 without repeats: 7 guesses"));
}

#[test]
fn a_reader_that_went_away_is_no_error() {
    // `mmgen longest | head -1` and the like: the reader closes the pipe before
    // the answer is written; the program ends quietly, as mmlookup's commands do.
    for args in [&["longest", "--pegs", "4", "--colors", "5"][..], &["value"]] {
        let mut child = std::process::Command::new(bin("mmgen"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn results_md_s_table_of_longest_games_is_what_mmgen_finds() {
    let results = std::fs::read_to_string(root().join("RESULTS.md")).unwrap();
    let table = results
        .split("<!-- longest: pegs, then the longest game for 2, 3, ... colours -->")
        .nth(1)
        .expect("RESULTS.md has the table of longest games");
    let rows = table.lines().skip(3).take_while(|l| l.starts_with('|'));
    let mut checked = 0;
    for row in rows {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let pegs: u32 = cells[0].parse().unwrap();
        for (i, cell) in cells[1..].iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            let colors = i as u32 + 2;
            if colors.pow(pegs) > 1296 {
                continue;
            }
            let (p, c) = (pegs.to_string(), colors.to_string());
            let said = json(&ok(
                "mmgen",
                &["longest", "--pegs", &p, "--colors", &c, "--json"],
            ));
            assert_eq!(said["guesses"].to_string(), *cell, "{pegs}x{colors}");
            checked += 1;
        }
    }
    assert!(checked >= 14, "{checked}");
}

#[test]
fn a_time_limit_ends_with_the_game_found_and_no_claim_of_proof() {
    // 5x6 takes minutes: a fraction of a second proves nothing, and says so,
    // naming a consistent game it found (how long depends on the machine).
    let board = ["--pegs", "5", "--colors", "6"];
    let args = [&["longest", "--time-limit", "0.3"][..], &board].concat();
    let err = fails("mmgen", &args);
    let prefix = "mmgen: error: no proof within the time limit of 0.3 s: a consistent game of ";
    assert!(err.starts_with(prefix), "{err}");
    let moves = err.split_once(" was found (").unwrap().1;
    let moves: Vec<(&str, &str)> = (moves.split_once(')').unwrap().0.split(' '))
        .map(|m| m.split_once(':').unwrap())
        .collect();
    let (secret, won) = *moves.last().unwrap();
    assert_eq!(won, "5,0");
    let score = |guess: &str, secret: &str| {
        let args = [&["score", guess, secret][..], &board].concat();
        ok("mmlookup", &args).trim().to_string()
    };
    for (i, &(guess, answer)) in moves.iter().enumerate() {
        assert_eq!(score(guess, secret), answer, "{err}");
        for &(earlier, got) in &moves[..i] {
            assert_eq!(score(earlier, guess), got, "{err}");
        }
    }
    let n = moves.len();
    assert!(
        err.contains(&format!("and one of {} is not ruled out", n + 1)),
        "{err}"
    );
}
