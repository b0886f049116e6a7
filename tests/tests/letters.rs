//! `mmlookup --letters`: colours written and read as letters (R G B Y O P W N)
//! instead of digits, by every subcommand, typed in either case; a board of more
//! than 8 colours is refused in one line.

mod common;
use common::*;

#[test]
fn every_subcommand_writes_and_reads_colour_letters() {
    // Knuth's game against 3632 is BPBG's: 1122, 1344, 3526, 1462 as letters.
    let solved = ok("mmlookup", &["--letters", "solve", "BPBG"]);
    let guesses: Vec<&str> = solved
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        guesses[..5],
        ["RRGG", "RBYY", "BOGP", "RYPG", "BPBG"],
        "{solved}"
    );
    let next = ok("mmlookup", &["next", "--letters", "rrgg:1,0", "RBYY:0,1"]);
    assert!(next.starts_with("BOGP\n"), "{next}");
    assert_eq!(
        ok("mmlookup", &["--letters", "score", "RRGG", "bpbg"]),
        "1,0\n"
    );
    assert_eq!(
        ok(
            "mmlookup",
            &[
                "--letters",
                "score",
                "--pegs",
                "5",
                "--colors",
                "8",
                "RRGGB",
                "BGRNW"
            ]
        ),
        ok(
            "mmlookup",
            &["score", "--pegs", "5", "--colors", "8", "11223", "32187"]
        )
    );
    let explained = json(&ok(
        "mmlookup",
        &["--letters", "explain", "--json", "RRGG:1,0"],
    ));
    assert_eq!(explained["tree"]["guess"], "RBYY");
    // Digits are not letters: the message names the board's colours.
    let error = fails("mmlookup", &["--letters", "next", "1122:1,0"]);
    assert!(
        error.contains("'1' is not a colour of this board (colours are RGBYOP)"),
        "{error}"
    );
    let game = session(
        "mmlookup",
        &["--letters", "play"],
        "rrgg 1 0\nRBYY 0 1\nhint\nquit\n",
    );
    assert!(
        game.contains("hint: BOGP (44 secrets still possible; from the tree)"),
        "{game}"
    );
}

#[test]
fn more_colours_than_letters_are_refused() {
    let bulls = root().join("trees/optimal-4x10-no-repeat.mmt");
    let error = fails(
        "mmlookup",
        &["--letters", "next", "--tree", bulls.to_str().unwrap()],
    );
    assert!(
        error.ends_with("colour letters name at most 8 colours (RGBYOPWN); this board has 10"),
        "{error}"
    );
    let error = fails(
        "mmlookup",
        &["--letters", "score", "--colors", "9", "RRGG", "RRGG"],
    );
    assert!(error.contains("this board has 9"), "{error}");
}
