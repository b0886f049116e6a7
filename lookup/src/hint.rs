//! The next guess for a game in progress, as every front end gives it: the command
//! line (`next`, `play`, `challenge`), the server's API and the page's WebAssembly
//! core. From the tree while the moves follow its line, computed live with the
//! tree's own rule once they leave it; an impossible history is an error that names
//! the move and the likeliest slip ([`repair`]). Also how moves are written (`GUESS:B,W`) and read.
//!
//! Nothing here reads a clock or the file system, so it runs unchanged in a browser.

use crate::board::{Board, Code};
use crate::format::Meta;
use crate::play::{self, Move, Next, PlayError};
use crate::repair;
use crate::rules::{self, Rule};
use crate::score::{score, Feedback};
use crate::tree::{Position, Tree};

/// Where the next guess comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Read from the tree, at `position`.
    Tree {
        guess: Code,
        candidates: usize,
        position: Position,
    },
    /// Off the tree's line: computed with `rule`.
    Live {
        guess: Code,
        candidates: usize,
        rule: Rule,
    },
    /// The last move won.
    Solved { guesses: usize },
}

impl Hint {
    pub fn guess(&self) -> Option<Code> {
        match *self {
            Hint::Tree { guess, .. } | Hint::Live { guess, .. } => Some(guess),
            Hint::Solved { .. } => None,
        }
    }
}

/// `n` and the noun for it: "1 guess", "5 guesses".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "solved in 1 guess", "solved in 5 guesses".
pub fn solved_in(guesses: usize) -> String {
    format!("solved in {}", plural(guesses as u64, "guess", "guesses"))
}

/// How guesses are computed off a tree's line: with the tree's own rule, or for a
/// tree that has none (exact search, imported) with expected-size, said by name,
/// since the exact search is not run at play time.
#[derive(Clone, Copy, Debug)]
pub struct Live {
    pub rule: Rule,
    pub consistent_only: bool,
}

impl Live {
    pub fn of(meta: &Meta) -> Live {
        Live {
            rule: (meta.strategy.kind())
                .and_then(Rule::of)
                .unwrap_or(Rule::ExpectedSize),
            consistent_only: meta.strategy.settings().consistent_only,
        }
    }
}

/// The codes of `board` that give every answer of `moves`.
pub fn consistent(board: Board, moves: &[Move]) -> Vec<Code> {
    board
        .codes()
        .filter(|&s| {
            moves
                .iter()
                .all(|m| score(m.guess, s, board.pegs()) == m.answer)
        })
        .collect()
}

/// The next guess after `moves` on `tree` (its header read for the live rule when
/// the moves leave the tree's line).
pub fn next<D: AsRef<[u8]>>(tree: &Tree<D>, moves: &[Move]) -> Result<Hint, String> {
    if let Some(walked) = on_line(tree, moves) {
        return walked;
    }
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let board = tree.board();
    off_line(tree, Live::of(&meta), moves, || consistent(board, moves))
}

/// The next guess after `moves`: from the tree while they follow its line, else
/// computed live over the secrets `candidates` gives (asked only then). An
/// impossible history, or moves after a win, are errors with the move named.
pub fn hint<D: AsRef<[u8]>>(
    tree: &Tree<D>,
    live: Live,
    moves: &[Move],
    candidates: impl FnOnce() -> Vec<Code>,
) -> Result<Hint, String> {
    match on_line(tree, moves) {
        Some(walked) => walked,
        None => off_line(tree, live, moves, candidates),
    }
}

/// [`hint`] for moves known to leave the tree's line (the tree walked once).
fn off_line<D: AsRef<[u8]>>(
    tree: &Tree<D>,
    live: Live,
    moves: &[Move],
    candidates: impl FnOnce() -> Vec<Code>,
) -> Result<Hint, String> {
    let board = tree.board();
    if let Some(won) = moves.iter().position(|m| m.answer.is_win(board.pegs())) {
        if won + 1 < moves.len() {
            let after = PlayError::AfterWin {
                move_number: won + 2,
            };
            return Err(after.to_string());
        }
    }
    let candidates = candidates();
    if candidates.is_empty() {
        let k = play::first_impossible_move(&board, moves).unwrap_or(moves.len());
        let impossible = play::impossible_at(&board, moves, k);
        return Err(format!("{impossible}{}", repair::advice(tree, moves)));
    }
    if moves.last().is_some_and(|m| m.answer.is_win(board.pegs())) {
        return Ok(Hint::Solved {
            guesses: moves.len(),
        });
    }
    let guess = rules::best_guess(&board, live.rule, &candidates, live.consistent_only);
    Ok(Hint::Live {
        guess,
        candidates: candidates.len(),
        rule: live.rule,
    })
}

/// [`hint`] as far as walking the tree answers it: `None` once the moves leave the
/// tree's line (then the answer may need a search).
pub fn on_line<D: AsRef<[u8]>>(tree: &Tree<D>, moves: &[Move]) -> Option<Result<Hint, String>> {
    match play::next(tree, moves) {
        Ok(Next::Guess {
            guess,
            candidates,
            position,
        }) => Some(Ok(Hint::Tree {
            guess,
            candidates: candidates as usize,
            position,
        })),
        Ok(Next::Solved { guesses }) => Some(Ok(Hint::Solved { guesses })),
        Err(PlayError::OffLine { .. }) => None,
        Err(e @ PlayError::Impossible { .. }) => {
            Some(Err(format!("{e}{}", repair::advice(tree, moves))))
        }
        Err(e) => Some(Err(e.to_string())),
    }
}

/// The most moves a history may have, on the command line and in the API alike:
/// no tree mmgen builds has a game half as long.
pub const MOVES_AT_MOST: usize = 64;

/// Reads `GUESS:B,W`; `number` counts from 1 for the error message.
fn parse_move(board: &Board, number: usize, text: &str) -> Result<Move, String> {
    let bad = |why: String| format!("move {number} '{text}': {why}");
    let (guess, answer) = text
        .split_once(':')
        .ok_or_else(|| bad("write a move as GUESS:B,W, e.g. 1122:1,0".into()))?;
    let guess = board.parse(guess.trim()).map_err(|e| bad(e.to_string()))?;
    let answer = Feedback::parse(answer, board).map_err(|e| bad(e.to_string()))?;
    Ok(Move { guess, answer })
}

/// Reads moves written `GUESS:B,W` on `board`, as every front end takes them (at
/// most [`MOVES_AT_MOST`]).
pub fn parse_moves<'a>(
    board: &Board,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Move>, String> {
    let moves: Vec<Move> = (texts.into_iter().enumerate().take(MOVES_AT_MOST + 1))
        .map(|(i, text)| parse_move(board, i + 1, text))
        .collect::<Result<_, _>>()?;
    if moves.len() > MOVES_AT_MOST {
        return Err(format!(
            "a game has at most {MOVES_AT_MOST} moves; more were given"
        ));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Tree<Vec<u8>> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../trees/knuth-4x6.mmt");
        Tree::open(std::fs::read(path).unwrap()).unwrap()
    }

    fn moves(text: &str) -> Vec<Move> {
        parse_moves(&Board::classic(), text.split_whitespace()).unwrap()
    }

    #[test]
    fn hints_come_from_the_tree_on_its_line_and_live_off_it() {
        let tree = classic();
        let board = tree.board();
        let on = next(&tree, &moves("1122:1,0 1344:0,1")).unwrap();
        assert!(matches!(on, Hint::Tree { candidates: 44, .. }));
        assert_eq!(board.display(on.guess().unwrap()).to_string(), "3526");
        let off = next(&tree, &moves("1122:1,0 1111:0,0")).unwrap();
        let Hint::Live {
            candidates, rule, ..
        } = off
        else {
            panic!("off the line: {off:?}")
        };
        assert_eq!(rule, Rule::Knuth);
        assert_eq!(
            candidates,
            consistent(board, &moves("1122:1,0 1111:0,0")).len()
        );
        assert_eq!(
            next(&tree, &moves("1122:4,0")).unwrap(),
            Hint::Solved { guesses: 1 }
        );
    }

    #[test]
    fn impossible_histories_and_bad_moves_are_named() {
        let tree = classic();
        let error = next(&tree, &moves("1122:1,0 1111:4,0")).unwrap_err();
        assert!(
            error.starts_with("move 2 (1111:4,0) is impossible"),
            "{error}"
        );
        let board = Board::classic();
        let error = parse_moves(&board, ["1122:1,0", "1344"]).unwrap_err();
        assert!(
            error.starts_with("move 2 '1344': write a move as GUESS:B,W"),
            "{error}"
        );
        let many = vec!["1122:0,0"; MOVES_AT_MOST + 1];
        assert!(parse_moves(&board, many).is_err());
        assert_eq!(
            parse_moves(&board, vec!["1122:0,0"; MOVES_AT_MOST])
                .unwrap()
                .len(),
            64
        );
    }
}
