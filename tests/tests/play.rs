//! The interactive modes, driven through piped stdin as a person would type, and
//! once in a real pseudo-terminal.

mod common;
use common::*;

#[test]
fn play_follows_a_game_typed_in_every_form() {
    let out = session(
        "mmlookup",
        &["play"],
        "1122 1 0\nhint\n1344:0,1\n3526 12\nshow\nb1 w1\nmoves\n",
    );
    assert!(
        out.contains("hint: 1122 (1296 secrets still possible; from the tree)"),
        "{out}"
    );
    assert!(out.contains("move 1: 1122 1,0"));
    assert!(out.contains("hint: 1344 (256 secrets still possible"));
    assert!(out.contains("move 3: 3526 1,2"));
    assert!(out.contains("7 still possible\n3632 3662 4562 4625 5532 6425 6623"));
    assert!(
        out.contains("move 4: 1462 1,1"),
        "the answer alone plays the hint"
    );
    assert!(out.contains("hint: 3632 (1 secret still possible"));
    assert!(out.contains("1. 1122 1,0\n2. 1344 0,1\n3. 3526 1,2\n4. 1462 1,1"));
}

#[test]
fn play_forgives_typos_refuses_contradictions_and_undoes() {
    let out = session(
        "mmlookup",
        &["play"],
        "1122 1 0\n1344 0,1\n11 22 33\n1344 5 0\nfoo\n3526 0 0\n3526 1 2\nundo\nmoves\n3526 1 2\nnew\nhint\nquit\n1111 0 0\n",
    );
    assert!(out.contains("did not understand '11 22 33'"), "{out}");
    assert!(out.contains("feedback 5,0 cannot occur"));
    assert!(out.contains("unknown command 'foo'"));
    // 3526 0,0 is impossible after 1122 1,0 and 1344 0,1: refused, the game is kept.
    assert!(out.contains("3526 0,0 contradicts move"), "{out}");
    assert!(out.contains("refused, nothing changed"));
    assert!(out.contains("took back 3526 1,2"));
    assert!(out.contains("1. 1122 1,0\n2. 1344 0,1\n"));
    assert!(out.contains("new game\nhint: 1122 (1296"));
    assert!(!out.contains("1111 0,0"), "nothing after quit is read");
}

#[test]
fn play_off_the_tree_computes_live_with_the_trees_rule() {
    let out = session("mmlookup", &["play"], "1111 0 0\n2222 1 0\nhint\n");
    assert!(
        out.contains("off the tree's line, so computed live with the knuth rule in"),
        "{out}"
    );
    // The live answer is the rule's answer: Knuth's rule on the remaining set.
    let line = out.lines().rfind(|l| l.starts_with("hint: ")).unwrap();
    assert!(line.contains("still possible"), "{line}");
}

#[test]
fn play_in_a_real_terminal_shows_prompts() {
    let command = format!("{} play", bin("mmlookup").display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"1122 1 0\nquit\n")?;
            child.wait_with_output()
        });
    let Ok(out) = out else {
        panic!("`script` (util-linux) runs the pseudo-terminal test");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The terminal echoes the typed-ahead lines whenever it likes, so count the
    // prompts: one before each of the two lines read.
    assert!(text.contains("move 1: 1122 1,0"), "{text}");
    assert!(
        text.matches("> ").count() >= 2,
        "a prompt before each line read: {text}"
    );
}

#[test]
fn guess_mine_solves_the_users_secret_and_catches_a_wrong_answer() {
    // The user's secret is 3632; the third answer is first mistyped (0 0), the
    // program refuses it, the user corrects it.
    let out = session(
        "mmlookup",
        &["guess-mine"],
        "1 0\n0 1\n0 0\n1 2\n1 1\n4 0\n",
    );
    assert!(out.contains("guess 1: 1122"), "{out}");
    assert!(out.contains("That cannot be right"), "{out}");
    assert!(out.contains(
        "Found it in 5 guesses:\n1. 1122 1,0\n2. 1344 0,1\n3. 3526 1,2\n4. 1462 1,1\n5. 3632 4,0"
    ));
    let back = session("mmlookup", &["guess-mine"], "1 0\nback\n0 0\nquit\n");
    assert!(back.contains("took back your answer 1,0 to 1122"), "{back}");
    assert!(
        back.contains("guess 2: 3345"),
        "after the corrected answer 0,0: {back}"
    );
}

#[test]
fn challenge_is_reproducible_and_compares_with_the_tree() {
    let out = session("mmlookup", &["challenge", "--seed", "7"], "quit\n");
    let secret = out
        .lines()
        .last()
        .unwrap()
        .trim_start_matches("The secret was ")
        .trim_end_matches('.')
        .to_string();
    assert_eq!(secret.len(), 4, "{out}");
    let again = session("mmlookup", &["challenge", "--seed", "7"], "quit\n");
    assert_eq!(out, again, "same seed, same secret");
    // An answer typed where a guess belongs is not taken for one, and an answer
    // typed after a guess is said to be unused, never dropped silently.
    let mistyped = session(
        "mmlookup",
        &["challenge", "--seed", "7"],
        "99\n1 0\n1122 1 0\nquit\n",
    );
    let said: Vec<&str> = mistyped.lines().collect();
    let not_a_guess = "is not a guess: a guess is 4 colours (e.g. 1122); I give the answers here";
    assert!(
        said[1].starts_with("'99' ") && said[1].ends_with(not_a_guess),
        "{mistyped}"
    );
    assert!(
        said[2].starts_with("'1 0' ") && said[2].ends_with(not_a_guess),
        "{mistyped}"
    );
    assert!(
        said[3].starts_with("1122 ")
            && said[3].ends_with("(the answer is mine to give: 1,0 was not used)"),
        "{mistyped}"
    );
    // Play the tree's own line with hints, then the secret.
    let tree_game = json(&ok("mmlookup", &["solve", "--json", &secret]));
    let mut input = String::from("hint\n1111\n");
    for guess in tree_game["guesses"].as_array().unwrap() {
        input.push_str(guess.as_str().unwrap());
        input.push('\n');
    }
    let played = session("mmlookup", &["challenge", "--seed", "7"], &input);
    assert!(
        played.contains("hint: 1122 (1296 secrets still possible; from the tree)"),
        "{played}"
    );
    let n = tree_game["guesses"].as_array().unwrap().len();
    assert!(
        played.contains(&format!(
            "You found {secret} in {} guesses; the tree needs {n} guesses for this secret",
            n + 1
        )),
        "{played}"
    );
}

#[test]
fn explain_shows_the_split_and_the_alternative() {
    let out = ok("mmlookup", &["explain", "1122:1,0", "1344:0,1", "3526:1,2"]);
    assert!(
        out.contains("7 secrets still possible after 3 moves"),
        "{out}"
    );
    assert!(out.contains("the tree plays 1462 (cannot be the secret)"));
    assert!(out.contains("7 secrets in 7 classes: worst class 1, expected remaining 1.00"));
    assert!(out.contains(
        "the tree solves these 7 secrets with 14 guesses from here (7 for this guess, 7 after it), at most 2 each (5 in all)"
    ));
    assert!(out.contains("the best guess that could be the secret, by the knuth rule: 3632"));
    assert!(out.ends_with(
        "by the knuth rule the tree's guess 1462 is better (worst class 1 against 2), though it cannot win at once and 3632 could\n"
    ));
    // The case that once printed a false sentence: an optimal tree compares with no
    // heuristic it does not follow.
    let optimal = root().join("trees/optimal-4x6.mmt");
    let out = ok(
        "mmlookup",
        &["explain", "--tree", optimal.to_str().unwrap(), "1123:1,0"],
    );
    assert!(!out.contains("better"), "{out}");
    assert!(
        out.contains("this optimal tree follows no one-step rule"),
        "{out}"
    );
    let data = json(&ok("mmlookup", &["explain", "--json", "1122:1,0"]));
    assert_eq!(data["candidates"], 256);
    assert_eq!(data["tree"]["guess"], "1344");
    assert_eq!(data["tree"]["worst_class"], 44);
    assert_eq!(data["guesses_in_all"], 5);
    let classes = data["tree"]["classes"].as_array().unwrap();
    assert_eq!(
        classes
            .iter()
            .map(|c| c["secrets"].as_u64().unwrap())
            .sum::<u64>(),
        256
    );
    let err = fails("mmlookup", &["explain", "1122:4,0"]);
    assert!(err.contains("already solved in 1 guess"), "{err}");
}

#[test]
fn next_and_explain_answer_off_the_tree_s_line_live_and_say_so() {
    let out = ok("mmlookup", &["next", "1122:1,0", "1111:0,0"]);
    let mut lines = out.lines();
    let guess = lines.next().unwrap().to_string();
    assert_eq!(
        lines.next(),
        Some("guess 3 of the game; 128 secrets still possible; off the tree's line, so computed live with the knuth rule")
    );
    let data = json(&ok("mmlookup", &["next", "--json", "1122:1,0", "1111:0,0"]));
    assert_eq!(data["guess"], guess.as_str());
    assert_eq!(data["source"], "live");
    assert_eq!(data["rule"], "knuth");
    assert_eq!(data["candidates"], 128);
    // One shape whether solved or not, on the tree's line or off it.
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let on_line = json(&ok("mmlookup", &["next", "--json", "1122:1,0"]));
    let solved = json(&ok("mmlookup", &["next", "--json", "1111:0,0", "2345:4,0"]));
    assert_eq!(on_line["source"], "tree");
    assert_eq!(solved["solved"], true);
    assert_eq!(solved["guesses"], 2);
    assert_eq!(keys(&data), keys(&on_line));
    assert_eq!(keys(&data), keys(&solved));
    assert_eq!(ok("mmlookup", &["next", "1122:4,0"]), "solved in 1 guess\n");
    let explained = ok("mmlookup", &["explain", "1122:1,0", "1111:0,0"]);
    assert!(
        explained.contains("off the tree's line, so computed live with the knuth rule"),
        "{explained}"
    );
}

#[test]
fn the_games_speak_the_board_in_use() {
    // On 5x8 the intro suggests a 5-peg move, which is then accepted, and a code
    // that does not fit gets the same precise message as `next`.
    let tree = root().join("trees/knuth-5x8.mmt");
    let tree = tree.to_str().unwrap();
    let out = session(
        "mmlookup",
        &["play", "--tree", tree],
        "11223 1 0\n1172 1 0\n",
    );
    let intro = out.lines().next().unwrap();
    let example = intro
        .split_once("answer (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(example, _)| example)
        .unwrap();
    assert_eq!(example.split(' ').next(), Some("11223"), "{intro}");
    assert!(out.contains("move 1: 11223 1,0"), "{out}");
    assert!(
        out.contains("'1172': a code has 5 pegs, this one has 4"),
        "{out}"
    );
    let help = session("mmlookup", &["play", "--tree", tree], "help\n");
    assert!(!help.contains("1122 "), "{help}");
    // Bulls and Cows codes are hexadecimal digits.
    let bulls = root().join("trees/optimal-4x10-no-repeat.mmt");
    let out = session(
        "mmlookup",
        &["guess-mine", "--tree", bulls.to_str().unwrap()],
        "quit\n",
    );
    assert!(out.contains("colours 0-9, no repeated colours"), "{out}");
    let out = session(
        "mmlookup",
        &["play", "--tree", bulls.to_str().unwrap()],
        "0123 4 0\n",
    );
    assert!(out.contains("solved in 1 guess."), "{out}");
}

/// Input never ends a game by accident: a line that is not UTF-8 gets one error
/// and the game goes on; a 10 MB line is quoted cut short; a page that does not
/// exist, a word after a command, and a word that is not a code are each named.
#[test]
fn odd_lines_get_one_precise_error_and_the_game_goes_on() {
    let mut input = b"\xff\xfe 1 0\n1122 1 0\n".to_vec();
    input.extend(std::iter::repeat_n(b'z', 10 << 20));
    input.extend(b"\nshow 0\nshow x\nshow 99\nshow 3\nhint now\nabcd\n1344 0 1\nmoves\nquit\n");
    let out = session_bytes("mmlookup", &["play"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"that line is not text (UTF-8); type it again"),
        "{out}"
    );
    assert!(lines.contains(&"move 1: 1122 1,0"), "{out}");
    let long = lines.iter().find(|l| l.contains("zzz")).unwrap();
    assert!(
        long.len() < 120,
        "the long line is cut: {} bytes",
        long.len()
    );
    assert!(long.contains(&format!("'{}...'", "z".repeat(40))), "{long}");
    for said in [
        "no page 0: show 1 to 3",
        "'show x': show takes a page number, e.g. show 2",
        "no page 99: show 1 to 3",
        "256 still possible (page 3 of 3; show 1 for more)",
        "'hint now': hint takes nothing after it",
        "'abcd' is not a code: 'a' is not a colour of this board (colours are 1-6); or type help for the commands",
    ] {
        assert!(lines.contains(&said), "{said}\n{out}");
    }
    assert!(
        out.contains("1. 1122 1,0\n2. 1344 0,1\n"),
        "the game went on: {out}"
    );

    let out = session_bytes(
        "mmlookup",
        &["challenge", "--seed", "1"],
        b"abcd\n\xc3\x28\n1122\nquit\n",
    );
    assert!(
        out.contains("'abcd' is not a code: 'a' is not a colour of this board (colours are 1-6); or type a guess (e.g. 1122), hint, moves, show or quit"),
        "{out}"
    );
    assert!(
        out.contains("that line is not text (UTF-8); type it again\n1122 "),
        "{out}"
    );
    let out = session_bytes("mmlookup", &["guess-mine"], b"\xff\n1 0\nquit\n");
    assert!(out.contains("that line is not text (UTF-8)"), "{out}");
    assert!(out.contains("Giving up after:\n1. 1122 1,0"), "{out}");
}

#[test]
fn ctrl_d_at_a_prompt_ends_its_line() {
    // On a terminal (a pseudo-terminal from util-linux's script), the end of input
    // at the prompt prints a newline, so the shell's prompt starts on its own line.
    let command = format!("{} challenge --seed 7", bin("mmlookup").display());
    let out = std::process::Command::new("script")
        .args(["-q", "-c", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("guess> \r\nThe secret was "), "{text:?}");
}

/// Blacks and whites by the rules, peg by peg: a black for each peg right in
/// place; then each peg left of the guess takes, if it can, a peg left of the
/// secret of its colour, for a white (each secret peg counted once).
fn score_by_hand(guess: &[u8], secret: &[u8]) -> (usize, usize) {
    let mut left: Vec<Option<u8>> = secret.iter().map(|&c| Some(c)).collect();
    let mut blacks = 0;
    let mut unmatched = Vec::new();
    for (i, &g) in guess.iter().enumerate() {
        if secret[i] == g {
            blacks += 1;
            left[i] = None;
        } else {
            unmatched.push(g);
        }
    }
    let mut whites = 0;
    for g in unmatched {
        if let Some(j) = left.iter().position(|&c| c == Some(g)) {
            left[j] = None;
            whites += 1;
        }
    }
    (blacks, whites)
}

#[test]
fn score_tables_are_the_rules_for_every_pair() {
    // Every guess against every secret of 4x6 (1,679,616 lines), and of 3x3.
    for board in [
        &["--pegs", "4", "--colors", "6"][..],
        &["--pegs", "3", "--colors", "3"],
    ] {
        let table = ok("mmlookup", &[&["score", "--all"][..], board].concat());
        let pegs: usize = board[1].parse().unwrap();
        let colors: u32 = board[3].parse().unwrap();
        let mut lines = 0;
        for line in table.lines() {
            let [guess, secret, answer] = line.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{line}")
            };
            let digits = |code: &str| -> Vec<u8> { code.bytes().map(|b| b - b'1').collect() };
            let (b, w) = score_by_hand(&digits(guess), &digits(secret));
            assert_eq!(answer, format!("{b},{w}"), "{line}");
            lines += 1;
        }
        assert_eq!(lines, colors.pow(2 * pegs as u32), "{board:?}");
    }
    // One guess against every secret of Bulls and Cows (5,040 lines), in the
    // order of codes, its 0,4 row where the rules put it.
    let bulls = [
        "score",
        "--colors",
        "10",
        "--pegs",
        "4",
        "--no-repeat",
        "0123",
    ];
    let table = ok("mmlookup", &bulls);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 5040);
    assert_eq!(rows[0], "0123 4,0");
    for row in rows {
        let (secret, answer) = row.split_once(' ').unwrap();
        let digits = |code: &str| -> Vec<u8> { code.bytes().collect() };
        let (b, w) = score_by_hand(b"0123", &digits(secret));
        assert_eq!(answer, format!("{b},{w}"), "{row}");
    }
}
