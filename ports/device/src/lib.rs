//! A tree as firmware carries it: the lookup core with its `std` feature off, so
//! `no_std` and with no allocator, over bytes embedded with `include_bytes!`.
//! Nothing here allocates or recurses. The same code runs on the host (the tests,
//! `device-demo`) and on the chips of `ports/firmware/` (Cortex-M under QEMU).
//!
//! A device keeps the game as a short array of moves and asks [`next_guess`]; the
//! tree is verified once by `Tree::open` (checksum and layout, one pass, no
//! allocation) and every value is checked again as the walk reads it, so a damaged
//! flash image gives an error, never a crash or a wrong answer. [`check`] plays
//! every secret that way and holds the result to what the tree's own header claims
//! (total, worst case, histogram), so a device proves the tree it carries with no
//! figure compiled into it.
#![no_std]
#![forbid(unsafe_code)]

use core::fmt;
use lookup::format::FormatError;
use lookup::play::{next, Next, PlayError};
use lookup::{Code, Move, Tree};

/// The shipped classic 4x6 Knuth tree.
pub static TREE: &[u8] = include_bytes!("../../../trees/knuth-4x6.mmt");

/// The embedded classic tree, verified.
pub fn open() -> Result<Tree<&'static [u8]>, FormatError> {
    Tree::open(TREE)
}

/// The moves a device keeps for one game, so a game lasts at most one guess less
/// (11): more than any tree mmgen builds needs (the deepest known, 7x7 and 6x9, need
/// 9), and few enough to keep a Cortex-M0's stack under 1 KiB.
pub const MAX_GUESSES: usize = 12;

/// The tree's next guess after `moves`, or `None` once the last move won.
pub fn next_guess(tree: &Tree<&[u8]>, moves: &[Move]) -> Result<Option<Code>, PlayError> {
    Ok(match next(tree, moves)? {
        Next::Guess { guess, .. } => Some(guess),
        Next::Solved { .. } => None,
    })
}

/// Plays `secret` as a device would, with the game kept in a fixed array and the
/// tree asked for the next guess after each answer ([`next_guess`]); returns the
/// number of guesses.
// Not inlined into `check`: on a Cortex-M0 the two frames apart take less stack.
#[inline(never)]
pub fn play(tree: &Tree<&[u8]>, secret: Code) -> Result<usize, PlayError> {
    let pegs = tree.board().pegs();
    let mut moves = [Move {
        guess: secret,
        answer: lookup::Feedback::win(pegs),
    }; MAX_GUESSES];
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

/// What playing every secret gave. Counts are 32 bits wide (a board has at most
/// 2^24 codes, a game fewer than [`MAX_GUESSES`] guesses): half the stack of 64-bit
/// ones on a chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub secrets: u32,
    pub total: u32,
    pub worst: u32,
    /// `histogram[i]`: secrets solved with `i + 1` guesses.
    pub histogram: [u32; MAX_GUESSES],
    /// Calls of [`next_guess`] (each game makes one more than its guesses).
    pub hints: u32,
}

/// Why a tree failed its check on a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The tree's bytes or header cannot be read.
    Format(FormatError),
    /// A secret could not be played through.
    Play(PlayError),
    /// A figure the header claims is not what playing every secret gave.
    Differs {
        what: &'static str,
        claimed: u64,
        played: u64,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Format(e) => write!(f, "{e}"),
            CheckError::Play(e) => write!(f, "{e}"),
            CheckError::Differs {
                what,
                claimed,
                played,
            } => write!(
                f,
                "the header claims {what} {claimed}, playing every secret gave {played}"
            ),
        }
    }
}

/// Plays every secret of the tree's board with [`play`] and checks the number of
/// secrets, the total, the worst case and every histogram entry against the
/// figures the tree's header records.
pub fn check(tree: &Tree<&[u8]>) -> Result<Played, CheckError> {
    let mut played = Played {
        secrets: 0,
        total: 0,
        worst: 0,
        histogram: [0; MAX_GUESSES],
        hints: 0,
    };
    for secret in tree.board().codes() {
        let guesses = play(tree, secret).map_err(CheckError::Play)?;
        // Fewer than MAX_GUESSES guesses: these cannot overflow.
        played.secrets += 1;
        played.total += guesses as u32;
        played.worst = played.worst.max(guesses as u32);
        played.histogram[guesses - 1] += 1;
        played.hints += guesses as u32 + 1;
    }
    // Read after the games, so the claims take no stack while they run; plain
    // comparisons one at a time: a chip's stack is counted in bytes.
    let claims = tree.claims().map_err(CheckError::Format)?;
    let same = |what, claimed: u64, played: u64| match claimed == played {
        true => Ok(()),
        false => Err(CheckError::Differs {
            what,
            claimed,
            played,
        }),
    };
    same("secrets", claims.secrets, played.secrets.into())?;
    same("total", claims.total_guesses, played.total.into())?;
    same("worst case", claims.max_guesses.into(), played.worst.into())?;
    // As long as the worst case, so each claimed entry meets a played one.
    same(
        "histogram entries",
        claims.histogram().count() as u64,
        played.worst.into(),
    )?;
    for (claimed, played) in claims.histogram().zip(played.histogram) {
        same("secrets solved at some depth", claimed, played.into())?;
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn the_classic_tree_plays_5801_guesses_as_its_header_claims() {
        let tree = open().unwrap();
        let played = check(&tree).unwrap();
        assert_eq!(
            (played.secrets, played.total, played.worst),
            (1296, 5801, 5)
        );
        assert_eq!(played.histogram[..5], [1, 6, 62, 533, 694]);
        assert_eq!(played.hints, 5801 + 1296);
    }

    /// The classic tree with one byte of its header changed, and the checksum made
    /// good again: the tree still verifies, but claims something else.
    fn classic_claiming(from: &[u8], to: &[u8]) -> std::vec::Vec<u8> {
        let mut bytes = std::vec::Vec::from(TREE);
        let at = bytes
            .windows(from.len())
            .position(|w| w == from)
            .expect("the figure in the header");
        bytes[at..at + to.len()].copy_from_slice(to);
        let body = bytes.len() - 4;
        let crc = lookup::checksum::crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        bytes
    }

    #[test]
    fn a_header_that_claims_another_total_or_histogram_is_caught() {
        // 5801 is a 2-byte varint (251, then 0x16a9).
        let bytes = classic_claiming(&[251, 0xa9, 0x16], &[251, 0xaa, 0x16]);
        assert_eq!(
            check(&Tree::open(&bytes[..]).unwrap()),
            Err(CheckError::Differs {
                what: "total",
                claimed: 5802,
                played: 5801
            })
        );
        // The histogram 1 6 62 533 694 with 62 made 63.
        let bytes = classic_claiming(&[5, 1, 6, 62], &[5, 1, 6, 63]);
        assert_eq!(
            check(&Tree::open(&bytes[..]).unwrap()),
            Err(CheckError::Differs {
                what: "secrets solved at some depth",
                claimed: 63,
                played: 62
            })
        );
    }

    #[test]
    fn the_whole_check_fits_a_small_stack() {
        // 16 KiB is the smallest thread stack the platform gives; the walk keeps no
        // frames per level, so it needs a few hundred bytes of it (the firmware
        // measures it on the chips).
        let handle = std::thread::Builder::new()
            .stack_size(16 * 1024)
            .spawn(|| check(&open().unwrap()).unwrap().total)
            .unwrap();
        assert_eq!(handle.join().unwrap(), 5801);
    }
}
