//! Games against a tree: following a player's history to the next guess, and playing
//! a known secret to the end.
//!
//! Both only walk the tree. The one scan over the board's codes,
//! [`first_impossible_move`], runs only after a walk failed, to tell the player which
//! of their answers cannot be right.

use crate::board::{Board, Code, Written};
use crate::format::FormatError;
use crate::score::{score, Feedback};
use crate::tree::{Position, Tree};
use core::fmt;

/// One guess and the answer it got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub guess: Code,
    pub answer: Feedback,
}

/// Where a history leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The game goes on: the tree's next guess and how many secrets are still possible.
    Guess {
        position: Position,
        guess: Code,
        candidates: u32,
    },
    /// The last move won, after this many guesses.
    Solved { guesses: usize },
}

/// Why a history or a secret could not be followed. Move numbers count from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    Format(FormatError),
    /// The player guessed something other than the tree's guess.
    OffLine {
        move_number: usize,
        played: Written,
        tree: Written,
    },
    /// Moves after a winning answer.
    AfterWin {
        move_number: usize,
    },
    /// No secret gives the answers of moves 1..=move_number: that move's guess and answer.
    Impossible {
        move_number: usize,
        guess: Written,
        answer: Feedback,
    },
    /// The history is possible but the tree has no branch for it: the tree is not
    /// complete (`mmlookup audit` says more).
    Missing {
        move_number: usize,
    },
    /// Playing this secret through the tree never wins.
    Unsolved {
        secret: Written,
    },
}

impl From<FormatError> for PlayError {
    fn from(e: FormatError) -> PlayError {
        PlayError::Format(e)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlayError::Format(e) => write!(f, "{e}"),
            PlayError::OffLine {
                move_number,
                played,
                tree,
            } => write!(
                f,
                "move {move_number} leaves the tree's line: you played {played}, the tree plays {tree} there"
            ),
            PlayError::AfterWin { move_number } => write!(
                f,
                "move {move_number} comes after the game was already won"
            ),
            PlayError::Impossible {
                move_number,
                guess,
                answer,
            } => write!(
                f,
                "move {move_number} ({guess}:{answer}) is impossible: no secret gives that answer and all the answers before it"
            ),
            PlayError::Missing { move_number } => write!(
                f,
                "the tree has no branch for move {move_number} although secrets remain (incomplete tree; run mmlookup audit)"
            ),
            PlayError::Unsolved { secret } => write!(f, "the tree never solves {secret}"),
        }
    }
}

/// Follows `moves` from the root and returns the tree's answer.
///
/// When the walk fails, an impossible history is reported before anything else: the
/// player most likely mistyped an answer, and the move that broke it is what they need.
pub fn next<D: AsRef<[u8]>>(tree: &Tree<D>, moves: &[Move]) -> Result<Next, PlayError> {
    let board = tree.board();
    let fail = |move_number: usize, error: PlayError| {
        Err(match first_impossible_move(&board, &moves[..move_number]) {
            Some(k) => impossible_at(&board, moves, k),
            None => error,
        })
    };
    let mut position = tree.root();
    for (i, m) in moves.iter().enumerate() {
        let move_number = i + 1;
        let ours = tree.guess(position)?;
        if m.guess != ours {
            return fail(
                move_number,
                PlayError::OffLine {
                    move_number,
                    played: board.display(m.guess),
                    tree: board.display(ours),
                },
            );
        }
        if m.answer.is_win(board.pegs()) {
            if move_number < moves.len() {
                return Err(PlayError::AfterWin {
                    move_number: move_number + 1,
                });
            }
            return Ok(Next::Solved {
                guesses: move_number,
            });
        }
        position = match tree.child(position, m.answer)? {
            Some(child) => child,
            None => return fail(move_number, PlayError::Missing { move_number }),
        };
    }
    Ok(Next::Guess {
        position,
        guess: tree.guess(position)?,
        candidates: tree.candidates(position)?,
    })
}

/// Plays `secret` through the tree, calling `visit` with each guess and its answer;
/// returns the number of guesses. Takes at most one step per record, plus the leaf.
pub fn solve<D: AsRef<[u8]>>(
    tree: &Tree<D>,
    secret: Code,
    mut visit: impl FnMut(Code, Feedback),
) -> Result<u32, PlayError> {
    let pegs = tree.board().pegs();
    let mut position = tree.root();
    let mut guesses = 0;
    loop {
        let guess = tree.guess(position)?;
        let answer = score(guess, secret, pegs);
        guesses += 1;
        visit(guess, answer);
        if answer.is_win(pegs) {
            return Ok(guesses);
        }
        position = tree.child(position, answer)?.ok_or(PlayError::Unsolved {
            secret: tree.board().display(secret),
        })?;
    }
}

/// The error that names move `k` (counting from 1) of `moves` as the one no
/// secret of `board` answers as recorded, given the moves before it.
pub fn impossible_at(board: &Board, moves: &[Move], k: usize) -> PlayError {
    PlayError::Impossible {
        move_number: k,
        guess: board.display(moves[k - 1].guess),
        answer: moves[k - 1].answer,
    }
}

/// The first move (counting from 1) after which no code of `board` is consistent
/// with the answers so far, or `None` if some secret fits them all.
pub fn first_impossible_move(board: &Board, moves: &[Move]) -> Option<usize> {
    let pegs = board.pegs();
    let longest_fit = board
        .codes()
        .map(|secret| {
            moves
                .iter()
                .take_while(|m| score(m.guess, secret, pegs) == m.answer)
                .count()
        })
        .max()
        .unwrap_or(0);
    (longest_fit < moves.len()).then_some(longest_fit + 1)
}

impl core::error::Error for PlayError {}
