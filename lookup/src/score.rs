//! Feedback (black and white pegs), its dense index, and scoring a guess.
//!
//! Scoring works on whole words: blacks are the zero nibbles of `guess ^ secret`, and
//! blacks + whites is the sum over colours of the smaller of the two colour counts,
//! taken on 16 lanes of a word at once ([`ColorCounts`]). The generator scores
//! billions of pairs, so it keeps each code's counts and calls [`differ_shared`], the
//! branch-free core of [`score_counts`]; the plain per-peg definition stays in the
//! tests as the reference.
//!
//! Feedback index: answers are numbered by blacks, then whites, skipping the
//! impossible `(P-1, 1)`, with the win `(P, 0)` last. A board with P pegs has
//! `P(P+3)/2` answers ([`answer_count`]); the first `answer_count - 1` are the ones a
//! tree node can branch on.

use crate::board::{Board, Code};
use core::fmt;

/// Black and white pegs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Feedback {
    pub black: u8,
    pub white: u8,
}

/// Why a feedback was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FeedbackError {
    /// Not written `B,W` with two small numbers.
    Malformed,
    /// No guess and secret of the board score like this.
    Impossible { black: u8, white: u8 },
}

impl fmt::Display for FeedbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FeedbackError::Malformed => {
                f.write_str("feedback is written B,W (blacks, whites), e.g. 1,0")
            }
            FeedbackError::Impossible { black, white } => {
                write!(f, "feedback {black},{white} cannot occur on this board")
            }
        }
    }
}

/// How many different answers a board with `pegs` pegs has, the win included.
pub const fn answer_count(pegs: usize) -> usize {
    pegs * (pegs + 3) / 2
}

/// The most answers any supported board has (8 pegs).
pub const MAX_ANSWERS: usize = answer_count(8);

impl Feedback {
    pub const fn new(black: u8, white: u8) -> Feedback {
        Feedback { black, white }
    }

    /// The winning feedback: every peg black.
    pub fn win(pegs: usize) -> Feedback {
        Feedback::new(pegs as u8, 0)
    }

    pub fn is_win(self, pegs: usize) -> bool {
        usize::from(self.black) == pegs
    }

    /// The dense index of this answer (see the module docs). Only meaningful for a
    /// feedback that [`Feedback::check`] accepts.
    pub fn index(self, pegs: usize) -> usize {
        let (b, w, p) = (usize::from(self.black), usize::from(self.white), pegs);
        let row_start = b * (p + 1) - b * b.saturating_sub(1) / 2;
        if b == p {
            row_start - 1
        } else {
            row_start + w
        }
    }

    /// The answer with dense index `index`, or `None` past the last one.
    pub fn from_index(index: usize, pegs: usize) -> Option<Feedback> {
        (0..=pegs)
            .flat_map(|b| (0..=pegs - b).map(move |w| Feedback::new(b as u8, w as u8)))
            .filter(|f| !(usize::from(f.black) + 1 == pegs && f.white == 1))
            .nth(index)
    }

    /// Accepts the feedback only if some guess and secret of `board` can score it.
    ///
    /// Rules: blacks + whites at most P; never `(P-1, 1)`; without repetition the two
    /// codes share at least `2P - C` colours. These are exact when there are more
    /// colours than pegs; on smaller boards a few more answers never occur, and a
    /// history using one is caught as having no consistent secret.
    pub fn check(self, board: &Board) -> Result<Feedback, FeedbackError> {
        let (b, w, p) = (
            usize::from(self.black),
            usize::from(self.white),
            board.pegs(),
        );
        let shared_at_least = if board.repeat() {
            0
        } else {
            (2 * p).saturating_sub(board.colors())
        };
        let impossible = b + w > p || (b + 1 == p && w == 1) || b + w < shared_at_least;
        if impossible {
            Err(FeedbackError::Impossible {
                black: self.black,
                white: self.white,
            })
        } else {
            Ok(self)
        }
    }

    /// Reads `B,W` (also `B W` or `BW` with single digits) and checks it against `board`.
    pub fn parse(text: &str, board: &Board) -> Result<Feedback, FeedbackError> {
        let text = text.trim();
        let split = text
            .split_once(',')
            .or_else(|| text.split_once(char::is_whitespace));
        let (black, white) = match split {
            Some((black, white)) => (black.trim(), white.trim()),
            None if text.len() == 2 && text.is_ascii() => text.split_at(1),
            None => return Err(FeedbackError::Malformed),
        };
        Feedback::new(number(black)?, number(white)?).check(board)
    }
}

fn number(text: &str) -> Result<u8, FeedbackError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FeedbackError::Malformed);
    }
    text.parse().map_err(|_| FeedbackError::Malformed)
}

impl fmt::Display for Feedback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.black, self.white)
    }
}

/// A code's colour counts in SIMD-within-a-register lanes, laid out for its board:
/// with at most 7 pegs a count fits 3 bits, so 16 colours take one 4-bit lane each
/// of `lo`; with 8 pegs a count can be 8, so each colour takes a byte lane, colours
/// 0-7 in `lo` and 8-15 in `hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColorCounts {
    lo: u64,
    hi: u64,
}

/// Sum over 4-bit lanes of the smaller of two lanes holding at most 7 each.
#[inline(always)]
fn nibble_min_sum(a: u64, b: u64) -> u32 {
    const HIGH: u64 = 0x8888_8888_8888_8888;
    const LOW: u64 = 0x1111_1111_1111_1111;
    // a + 8 - b is in 1..=15: no borrow across lanes, and bit 3 says a >= b.
    let take_b = ((((a | HIGH) - b) & HIGH) >> 3) * 0xf;
    let min = (b & take_b) | (a & !take_b);
    // The total is at most 7, so the top lane of the product is the lane sum.
    (min.wrapping_mul(LOW) >> 60) as u32
}

/// Sum over byte lanes of the smaller of two lanes holding at most 8 each.
#[inline(always)]
fn byte_min_sum(a: u64, b: u64) -> u32 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW: u64 = 0x0101_0101_0101_0101;
    let take_b = ((((a | HIGH) - b) & HIGH) >> 7) * 0xff;
    let min = (b & take_b) | (a & !take_b);
    (min.wrapping_mul(LOW) >> 56) as u32
}

impl ColorCounts {
    pub fn of(code: Code, pegs: usize) -> ColorCounts {
        let mut counts = ColorCounts { lo: 0, hi: 0 };
        for i in 0..pegs {
            let c = u32::from(code.color(pegs, i));
            match (Self::is_wide(pegs), c < 8) {
                (false, _) => counts.lo += 1 << (4 * c),
                (true, true) => counts.lo += 1 << (8 * c),
                (true, false) => counts.hi += 1 << (8 * (c - 8)),
            }
        }
        counts
    }

    /// Whether a board with `pegs` pegs needs byte lanes (8 pegs) rather than nibbles.
    pub const fn is_wide(pegs: usize) -> bool {
        pegs > 7
    }

    /// Sum over colours of the smaller count: the pegs the two codes share.
    /// `WIDE` is [`ColorCounts::is_wide`] of the board.
    #[inline(always)]
    fn shared<const WIDE: bool>(self, other: ColorCounts) -> u32 {
        if WIDE {
            byte_min_sum(self.lo, other.lo) + byte_min_sum(self.hi, other.hi)
        } else {
            nibble_min_sum(self.lo, other.lo)
        }
    }
}

/// The raw material of a score in the form the generator's hot loop wants:
/// `(differing pegs, shared pegs)`, from which black = pegs - differing and
/// white = shared - black. `WIDE` is [`ColorCounts::is_wide`] of the board, a
/// constant so that the loop has no branch.
#[inline(always)]
pub fn differ_shared<const WIDE: bool>(
    guess: Code,
    guess_counts: ColorCounts,
    secret: Code,
    secret_counts: ColorCounts,
) -> (u32, u32) {
    let x = guess.packed() ^ secret.packed();
    // Bit 0 of each nibble: that peg differs. At most 8 such bits: their sum fits
    // the top nibble of the product.
    let differ = (x | x >> 1 | x >> 2 | x >> 3) & 0x1111_1111;
    (
        differ.wrapping_mul(0x1111_1111) >> 28,
        guess_counts.shared::<WIDE>(secret_counts),
    )
}

/// Scores with precomputed colour counts.
#[inline]
pub fn score_counts(
    guess: Code,
    guess_counts: ColorCounts,
    secret: Code,
    secret_counts: ColorCounts,
    pegs: usize,
) -> Feedback {
    let (differ, shared) = if ColorCounts::is_wide(pegs) {
        differ_shared::<true>(guess, guess_counts, secret, secret_counts)
    } else {
        differ_shared::<false>(guess, guess_counts, secret, secret_counts)
    };
    let black = pegs as u32 - differ;
    Feedback::new(black as u8, (shared - black) as u8)
}

/// The feedback `guess` gets when the hidden code is `secret`.
pub fn score(guess: Code, secret: Code, pegs: usize) -> Feedback {
    score_counts(
        guess,
        ColorCounts::of(guess, pegs),
        secret,
        ColorCounts::of(secret, pegs),
        pegs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// The definition, peg by peg: the slow reference the fast path is tested against.
    fn reference_score(guess: &[u8], secret: &[u8]) -> (u8, u8) {
        let black = guess.iter().zip(secret).filter(|(g, s)| g == s).count();
        let shared: usize = (0..16u8)
            .map(|c| {
                let in_guess = guess.iter().filter(|&&g| g == c).count();
                let in_secret = secret.iter().filter(|&&s| s == c).count();
                in_guess.min(in_secret)
            })
            .sum();
        (black as u8, (shared - black) as u8)
    }

    fn classic(text: &str) -> Code {
        Board::classic().parse(text).unwrap()
    }

    #[test]
    fn hand_worked_cases_with_repeated_colours() {
        // shared/reference/mastermind.md, "Scoring vectors".
        for (guess, secret, black, white) in [
            ("1122", "1213", 1, 2),
            ("1122", "2211", 0, 4),
            ("1111", "1222", 1, 0),
            ("1123", "3211", 0, 4),
            ("1122", "3456", 0, 0),
            ("1212", "2121", 0, 4),
            ("3632", "1462", 1, 1),
            ("3632", "3526", 1, 2),
            ("1344", "3632", 0, 1),
            ("1122", "1122", 4, 0),
        ] {
            let got = score(classic(guess), classic(secret), 4);
            assert_eq!(got, Feedback::new(black, white), "{guess} vs {secret}");
        }
    }

    #[test]
    fn dense_index_skips_the_impossible_answer_and_puts_the_win_last() {
        for pegs in 1..=8 {
            let answers: Vec<Feedback> = (0..answer_count(pegs))
                .map(|i| Feedback::from_index(i, pegs).unwrap())
                .collect();
            assert_eq!(Feedback::from_index(answer_count(pegs), pegs), None);
            assert_eq!(*answers.last().unwrap(), Feedback::win(pegs));
            for (i, f) in answers.iter().enumerate() {
                assert_eq!(f.index(pegs), i, "{f} on {pegs} pegs");
                assert!(!(usize::from(f.black) + 1 == pegs && f.white == 1));
            }
        }
        assert_eq!(answer_count(4), 14);
    }

    #[test]
    fn feedback_text_is_checked_against_the_board() {
        let classic = Board::classic();
        assert_eq!(Feedback::parse("1,0", &classic), Ok(Feedback::new(1, 0)));
        assert_eq!(
            Feedback::parse(" 2 , 1 ", &classic),
            Ok(Feedback::new(2, 1))
        );
        assert_eq!(Feedback::parse("04", &classic), Ok(Feedback::new(0, 4)));
        assert_eq!(Feedback::parse("1 2", &classic), Ok(Feedback::new(1, 2)));
        for bad in ["", "1", "1,", "a,b", "1,0,0", "-1,2", "123"] {
            assert_eq!(
                Feedback::parse(bad, &classic),
                Err(FeedbackError::Malformed),
                "{bad:?}"
            );
        }
        for (b, w) in [(3, 1), (2, 3), (5, 0), (0, 5)] {
            assert_eq!(
                Feedback::new(b, w).check(&classic),
                Err(FeedbackError::Impossible { black: b, white: w })
            );
        }
        // 4 of 6 without repeats: any two codes share at least 2 colours.
        let no_repeat = Board::new(4, 6, false).unwrap();
        assert!(Feedback::new(0, 1).check(&no_repeat).is_err());
        assert!(Feedback::new(0, 2).check(&no_repeat).is_ok());
    }

    #[test]
    fn check_accepts_the_answers_that_occur_exactly_with_more_colours_than_pegs() {
        for (p, c, r) in [
            (4, 6, true),
            (4, 6, false),
            (3, 4, false),
            (2, 2, true),
            (3, 3, false),
        ] {
            let board = Board::new(p, c, r).unwrap();
            let mut seen = [false; MAX_ANSWERS];
            for g in board.codes() {
                for s in board.codes() {
                    seen[score(g, s, board.pegs()).index(board.pegs())] = true;
                }
            }
            for (i, &occurs) in seen[..answer_count(board.pegs())].iter().enumerate() {
                let f = Feedback::from_index(i, board.pegs()).unwrap();
                let accepted = f.check(&board).is_ok();
                if c > p {
                    assert_eq!(accepted, occurs, "{f} on {p}x{c} {r}");
                } else {
                    assert!(accepted || !occurs, "{f} on {p}x{c} {r}");
                }
            }
        }
    }

    fn board_and_two_codes() -> impl Strategy<Value = (usize, Vec<u8>, Vec<u8>)> {
        (1usize..=8, 2u8..=16).prop_flat_map(|(pegs, colors)| {
            (
                Just(pegs),
                proptest::collection::vec(0..colors, pegs),
                proptest::collection::vec(0..colors, pegs),
            )
        })
    }

    proptest! {
        #[test]
        fn fast_score_matches_the_reference((pegs, g, s) in board_and_two_codes()) {
            let got = score(Code::from_colors(&g), Code::from_colors(&s), pegs);
            let (black, white) = reference_score(&g, &s);
            prop_assert_eq!(got, Feedback::new(black, white));
        }

        #[test]
        fn score_is_symmetric_and_bounded((pegs, g, s) in board_and_two_codes()) {
            let (g, s) = (Code::from_colors(&g), Code::from_colors(&s));
            let forward = score(g, s, pegs);
            prop_assert_eq!(forward, score(s, g, pegs));
            prop_assert!(usize::from(forward.black + forward.white) <= pegs);
            prop_assert_eq!(forward.is_win(pegs), g == s);
            prop_assert!(!(usize::from(forward.black) + 1 == pegs && forward.white == 1));
        }
    }
}
