//! Answers that contradict each other: which slip most likely caused it. Players
//! mis-score a row now and then, and then no secret fits; rather than a bare "no
//! solution", every front end names the fewest answers that, scored otherwise,
//! make the game consistent again, the secrets each such correction leaves, and
//! the next guess from there.
//!
//! For every code of the board, count the moves whose answer it does not give:
//! the least count is the fewest answers that must have been mis-scored, and the
//! codes with that count, grouped by the answers they would have given, are the
//! corrections. One pass over the codes, a score per move each.
//!
//! A game whose every answer is written another way (whites first, or the
//! colours right in all after the blacks: [`Reading`]) contradicts itself too,
//! typed as blacks and whites, though no row was mis-scored: the advice also
//! says which such reading every answer fits, and the game so read.

use crate::board::{Board, Code};
use crate::hint::{self, Hint};
use crate::play::Move;
use crate::score::{score, Feedback, Reading};
use crate::tree::Tree;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One way to make the answers consistent: these moves answered otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    /// (index of the move, from 0; the answer that fits), by move.
    pub changes: Vec<(usize, Feedback)>,
    /// The secrets that then fit every answer.
    pub secrets: Vec<Code>,
}

/// The corrections of `moves` with the fewest answers changed, the likeliest
/// first (the smallest slips, then the most secrets left); empty if the moves are
/// consistent already.
pub fn corrections(board: Board, moves: &[Move]) -> Vec<Correction> {
    let pegs = board.pegs();
    let mut fewest = usize::MAX;
    let mut groups: BTreeMap<Vec<(usize, Feedback)>, Vec<Code>> = BTreeMap::new();
    for secret in board.codes() {
        let mut changes = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let fits = score(m.guess, secret, pegs);
            if fits != m.answer {
                changes.push((i, fits));
                if changes.len() > fewest {
                    break;
                }
            }
        }
        if changes.is_empty() {
            return Vec::new();
        }
        if changes.len() > fewest {
            continue;
        }
        if changes.len() < fewest {
            fewest = changes.len();
            groups.clear();
        }
        groups.entry(changes).or_default().push(secret);
    }
    let mut found: Vec<Correction> = (groups.into_iter())
        .map(|(changes, secrets)| Correction { changes, secrets })
        .collect();
    found.sort_by_key(|c| likeliest(c, moves));
    found
}

/// The order corrections are offered in: the smallest slip first (the pegs the
/// changed answers differ by, a player miscounts by one more often than by
/// three), then the most secrets left, then by move.
fn likeliest(
    correction: &Correction,
    moves: &[Move],
) -> (u32, std::cmp::Reverse<usize>, Vec<(usize, Feedback)>) {
    let pegs = |&(i, fits): &(usize, Feedback)| {
        let given = moves[i].answer;
        u32::from(fits.black.abs_diff(given.black) + fits.white.abs_diff(given.white))
    };
    let slip = correction.changes.iter().map(pegs).sum();
    (
        slip,
        std::cmp::Reverse(correction.secrets.len()),
        correction.changes.clone(),
    )
}

/// The game read another way: its moves with every answer as it then stands,
/// and the secrets that fit them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reread {
    pub reading: Reading,
    pub moves: Vec<Move>,
    pub secrets: usize,
}

/// The readings ([`Reading`]) under which every answer of `moves` can occur on
/// `board`, changes something, and leaves some secret.
pub fn readings(board: Board, moves: &[Move]) -> Vec<Reread> {
    let reread = |reading: Reading| {
        let read = |m: &Move| {
            let answer = reading.read(m.answer)?.check(&board).ok()?;
            Some(Move { answer, ..*m })
        };
        let moves_read: Vec<Move> = moves.iter().map(read).collect::<Option<_>>()?;
        let secrets = hint::consistent(board, &moves_read).len();
        (moves_read != moves && secrets > 0).then_some(Reread {
            reading,
            moves: moves_read,
            secrets,
        })
    };
    Reading::ALL.into_iter().filter_map(reread).collect()
}

/// The corrections named in a message, at most.
pub const NAMED: usize = 3;

/// What a player reads after "move k is impossible": the likeliest corrections
/// (at most [`NAMED`]), each with the secrets it leaves and the next guess from
/// there (from `tree`, on its line or live).
pub fn advice<D: AsRef<[u8]>>(tree: &Tree<D>, moves: &[Move]) -> String {
    let board = tree.board();
    let found = corrections(board, moves);
    let Some(first) = found.first() else {
        return String::new();
    };
    let answers = match first.changes.len() {
        1 => "one answer scored otherwise makes the game possible again".to_string(),
        n => format!("no one answer explains it; {n} answers scored otherwise do"),
    };
    let mut text = format!("; {answers}:");
    for (n, correction) in found.iter().take(NAMED).enumerate() {
        let changed: Vec<String> = (correction.changes.iter())
            .map(|&(i, fits)| {
                let m = moves[i];
                let given = m.answer;
                let guess = board.display(m.guess);
                format!(
                    "move {} ({guess}) as {},{} not {},{}",
                    i + 1,
                    fits.black,
                    fits.white,
                    given.black,
                    given.white
                )
            })
            .collect();
        let left = correction.secrets.len();
        let secrets = hint::plural(left as u64, "secret", "secrets");
        let _ = write!(
            text,
            "{} {} leaves {secrets}",
            if n == 0 { "" } else { ";" },
            changed.join(" and ")
        );
        let mut fixed = moves.to_vec();
        for &(i, fits) in &correction.changes {
            fixed[i].answer = fits;
        }
        match hint::next(tree, &fixed) {
            Ok(Hint::Solved { .. }) => text.push_str(" (the game was won)"),
            Ok(hint) => {
                if let Some(guess) = hint.guess() {
                    let _ = write!(text, ", next guess {}", board.display(guess));
                }
            }
            Err(_) => {}
        }
    }
    if found.len() > NAMED {
        let more = found.len() - NAMED;
        let _ = write!(text, "; {more} more such corrections");
    }
    for reread in readings(board, moves) {
        let secrets = hint::plural(reread.secrets as u64, "secret", "secrets");
        let written: Vec<String> = (reread.moves.iter())
            .map(|m| format!("{}:{}", board.display(m.guess), m.answer))
            .collect();
        let _ = write!(
            text,
            "; or the answers give {}: as blacks, whites the game is {} ({secrets} left)",
            reread.reading.describe(),
            written.join(" ")
        );
        if let Some(guess) = hint::next(tree, &reread.moves).ok().and_then(|h| h.guess()) {
            let _ = write!(text, ", next guess {}", board.display(guess));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hint::Hint;

    fn moves(board: &Board, texts: &[&str]) -> Vec<Move> {
        hint::parse_moves(board, texts.iter().copied()).unwrap()
    }

    /// The slow reference: every way of changing each set of up to two answers,
    /// and the secrets each leaves.
    fn by_trying(board: Board, played: &[Move]) -> Vec<Correction> {
        let pegs = board.pegs();
        let fits = |ms: &[Move]| -> Vec<Code> {
            board
                .codes()
                .filter(|&s| ms.iter().all(|m| score(m.guess, s, pegs) == m.answer))
                .collect()
        };
        let answers: Vec<Feedback> = (0..=pegs as u8)
            .flat_map(|b| (0..=(pegs as u8 - b)).map(move |w| Feedback::new(b, w)))
            .collect();
        for size in 1..=2 {
            let mut found = Vec::new();
            let sets: Vec<Vec<usize>> = match size {
                1 => (0..played.len()).map(|i| vec![i]).collect(),
                _ => (0..played.len())
                    .flat_map(|i| (i + 1..played.len()).map(move |j| vec![i, j]))
                    .collect(),
            };
            for set in sets {
                let mut choice = vec![0usize; set.len()];
                loop {
                    let changes: Vec<(usize, Feedback)> = set
                        .iter()
                        .zip(&choice)
                        .map(|(&i, &c)| (i, answers[c]))
                        .collect();
                    if changes.iter().all(|&(i, f)| played[i].answer != f) {
                        let mut fixed = played.to_vec();
                        changes.iter().for_each(|&(i, f)| fixed[i].answer = f);
                        let secrets = fits(&fixed);
                        if !secrets.is_empty() {
                            found.push(Correction { changes, secrets });
                        }
                    }
                    let Some(k) = (0..choice.len()).find(|&k| choice[k] + 1 < answers.len()) else {
                        break;
                    };
                    choice[k] += 1;
                    choice[..k].iter_mut().for_each(|c| *c = 0);
                }
            }
            if !found.is_empty() {
                found.sort_by_key(|c| likeliest(c, played));
                return found;
            }
        }
        Vec::new()
    }

    #[test]
    fn corrections_match_trying_every_other_answer() {
        let board = Board::classic();
        for texts in [
            &["1122:0,0", "3344:0,0", "5566:0,0"][..],
            &["1122:1,0", "1344:3,0", "1345:0,0"],
            &["1234:4,0", "1234:0,4"],
            &["1122:2,0", "1122:0,2", "3456:0,0", "1111:4,0"],
        ] {
            let played = moves(&board, texts);
            assert!(hint::consistent(board, &played).is_empty(), "{texts:?}");
            assert_eq!(
                corrections(board, &played),
                by_trying(board, &played),
                "{texts:?}"
            );
        }
        let fine = moves(&board, &["1122:1,0"]);
        assert!(corrections(board, &fine).is_empty());
    }

    /// How a game that writes its answers `reading`'s way writes `answer`.
    fn written(reading: Reading, answer: Feedback) -> Feedback {
        match reading {
            Reading::WhitesFirst => Feedback::new(answer.white, answer.black),
            Reading::ColoursInAll => Feedback::new(answer.black, answer.black + answer.white),
        }
    }

    #[test]
    fn a_game_written_another_way_is_read_back() {
        let bytes = include_bytes!("../../trees/knuth-4x6.mmt");
        let tree = Tree::open(&bytes[..]).unwrap();
        let board = tree.board();
        let pegs = board.pegs();
        let mut found = [0; 2];
        // Knuth's games against every 7th secret, each answer but the win's
        // written each way.
        for secret in board.codes().step_by(7) {
            let (mut truth, mut moves) = (Vec::new(), Vec::new());
            for reading in Reading::ALL {
                truth.clear();
                moves.clear();
                // Up to the winning guess: its answer is the game's end, not typed.
                while let Ok(Hint::Tree { guess, .. }) = hint::next(&tree, &truth) {
                    let answer = score(guess, secret, pegs);
                    if answer.is_win(pegs) {
                        break;
                    }
                    truth.push(Move { guess, answer });
                    moves.push(Move {
                        guess,
                        answer: written(reading, answer),
                    });
                }
                // Typed as blacks and whites: a game no secret fits (or a game
                // such answers could give), never one that loses the secret.
                let typed: Option<Vec<Move>> = (moves.iter())
                    .map(|m| m.answer.check(&board).ok().map(|_| *m))
                    .collect();
                let Some(typed) = typed else { continue };
                if !hint::consistent(board, &typed).is_empty() {
                    continue;
                }
                let reread = readings(board, &typed);
                let it = reread.iter().find(|r| r.reading == reading);
                let it = it.unwrap_or_else(|| panic!("{typed:?} not read {reading:?}"));
                assert_eq!(it.moves, truth);
                assert!(hint::consistent(board, &it.moves).contains(&secret));
                found[reading as usize] += 1;
                let said = advice(&tree, &typed);
                assert!(said.contains(reading.describe()), "{said}");
            }
        }
        // Both ways came up, where typing made a game no secret fits.
        assert!(found.iter().all(|&n| n > 5), "{found:?}");
        // A game that fits as typed is read no other way.
        let fine = moves(&board, &["1122:1,0"]);
        assert!(corrections(board, &fine).is_empty());
    }

    #[test]
    fn the_advice_names_the_slip_and_the_guess_after_it() {
        let bytes = include_bytes!("../../trees/knuth-4x6.mmt");
        let tree = Tree::open(&bytes[..]).unwrap();
        let board = tree.board();
        // 1344 scored 3,0 is impossible after 1122:1,0 with 1345:0,0.
        let played = moves(&board, &["1122:1,0", "1344:3,0", "1345:0,0"]);
        let said = advice(&tree, &played);
        let opening = "; one answer scored otherwise makes the game possible again: move ";
        assert!(said.starts_with(opening), "{said}");
        assert!(said.contains(", next guess "), "{said}");
        let first = &corrections(board, &played)[0];
        let (i, fits) = first.changes[0];
        let named = format!(
            "move {} ({}) as {},{}",
            i + 1,
            board.display(played[i].guess),
            fits.black,
            fits.white
        );
        assert!(said.contains(&named), "{said} lacks {named}");
    }
}
