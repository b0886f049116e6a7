//! The classic Knuth tree compiled into a program, as firmware would carry it: the
//! lookup core with its `std` feature off, so `no_std` and with no allocator, over
//! bytes embedded with `include_bytes!`. Nothing here allocates or recurses.
//!
//! A device keeps the game as a short array of moves and asks [`next_guess`]; the
//! tree is verified once by [`open`] (checksum and layout, one pass, no allocation)
//! and every value is checked again as the walk reads it, so a damaged flash image
//! gives an error, never a crash or a wrong answer.
#![no_std]
#![forbid(unsafe_code)]

use lookup::play::{next, Next, PlayError};
use lookup::{Code, Move, Tree};

/// The shipped classic 4x6 Knuth tree.
pub static TREE: &[u8] = include_bytes!("../../trees/knuth-4x6.mmt");

/// The embedded tree, verified.
pub fn open() -> Result<Tree<&'static [u8]>, lookup::format::FormatError> {
    Tree::open(TREE)
}

/// The tree's next guess after `moves`, or `None` once the last move won.
pub fn next_guess(tree: &Tree<&'static [u8]>, moves: &[Move]) -> Result<Option<Code>, PlayError> {
    Ok(match next(tree, moves)? {
        Next::Guess { guess, .. } => Some(guess),
        Next::Solved { .. } => None,
    })
}

/// Plays `secret` as a device would, with the game kept in a fixed array; returns
/// the number of guesses.
pub fn play(tree: &Tree<&'static [u8]>, secret: Code) -> Result<usize, PlayError> {
    let pegs = tree.board().pegs();
    let mut moves = [Move {
        guess: secret,
        answer: lookup::Feedback::win(pegs),
    }; 16];
    for played in 0..moves.len() {
        let Some(guess) = next_guess(tree, &moves[..played])? else {
            return Ok(played);
        };
        moves[played] = Move {
            guess,
            answer: lookup::score::score(guess, secret, pegs),
        };
    }
    Err(PlayError::Unsolved {
        secret: tree.board().display(secret),
    })
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn every_secret_is_solved_within_five_guesses_for_5801_in_all() {
        let tree = open().unwrap();
        let board = tree.board();
        let mut total = 0;
        for secret in board.codes() {
            let guesses = play(&tree, secret).unwrap();
            assert!((1..=5).contains(&guesses));
            total += guesses;
        }
        assert_eq!(total, 5801);
    }

    #[test]
    fn the_whole_game_fits_a_small_stack() {
        // 16 KiB is the smallest thread stack the platform gives; the walk keeps no
        // frames per level, so it needs a few hundred bytes of it.
        let handle = std::thread::Builder::new()
            .stack_size(16 * 1024)
            .spawn(|| {
                let tree = open().unwrap();
                tree.board()
                    .codes()
                    .map(|s| play(&tree, s).unwrap())
                    .sum::<usize>()
            })
            .unwrap();
        assert_eq!(handle.join().unwrap(), 5801);
    }
}
