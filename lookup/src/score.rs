//! Feedback (black and white pegs), its dense index, and scoring a guess.
//!
//! Scoring works on whole words: a code is kept as two bit sets ([`ScoreBits`]) whose
//! intersections with another code's count the blacks and the shared pegs (blacks +
//! whites), so a score is two ANDs and two population counts. The generator scores
//! billions of pairs this way from bits it keeps for every code; the plain per-peg
//! definition stays in the tests as the reference.
//!
//! Feedback index: answers are numbered by blacks, then whites, skipping the
//! impossible `(P-1, 1)`, with the win `(P, 0)` last. A board with P pegs has
//! `P(P+3)/2` answers ([`answer_count`]); the first `answer_count - 1` are the ones a
//! tree node can branch on.

use crate::board::{Board, Code};
use core::fmt;

/// Black and white pegs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// No guess and secret of the board score like this. `meant`: the answer
    /// it is if its second number counts every colour right, blacks included (as
    /// some games write their answers), when that can occur.
    Impossible {
        black: u8,
        white: u8,
        meant: Option<Feedback>,
    },
}

impl fmt::Display for FeedbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FeedbackError::Malformed => {
                f.write_str("feedback is written B,W (blacks, whites), e.g. 1,0")
            }
            FeedbackError::Impossible {
                black,
                white,
                meant,
            } => {
                write!(f, "feedback {black},{white} cannot occur on this board")?;
                match meant {
                    Some(meant) => write!(
                        f,
                        " (if the second number counts every colour right, blacks too, it is {meant})"
                    ),
                    None => Ok(()),
                }
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
            let in_all = (b > 0).then(|| Reading::ColoursInAll.read(self)).flatten();
            Err(FeedbackError::Impossible {
                black: self.black,
                white: self.white,
                meant: in_all.filter(|meant| meant.check(board).is_ok()),
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

/// Another way a game writes its answers than blacks, then whites: some put
/// whites first, some count in the second number every peg of a right colour,
/// in place or not (so "1-1" is one peg right in place and no other colour). A
/// player who types such answers as blacks and whites gets a game no secret fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Whites, then blacks.
    WhitesFirst,
    /// Blacks, then the colours right in all (blacks plus whites).
    ColoursInAll,
}

impl Reading {
    pub const ALL: [Reading; 2] = [Reading::WhitesFirst, Reading::ColoursInAll];

    /// The blacks and whites an answer written this way stands for (`None` if it
    /// cannot be one: fewer colours right in all than blacks). Not checked
    /// against a board.
    pub fn read(self, written: Feedback) -> Option<Feedback> {
        let (first, second) = (written.black, written.white);
        match self {
            Reading::WhitesFirst => Some(Feedback::new(second, first)),
            Reading::ColoursInAll => (second.checked_sub(first)).map(|w| Feedback::new(first, w)),
        }
    }

    /// How the two numbers are read, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Reading::WhitesFirst => "whites first, then blacks",
            Reading::ColoursInAll => "blacks, then every colour right, blacks again",
        }
    }
}

impl fmt::Display for Feedback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.black, self.white)
    }
}

/// A machine word used as a bit set: `u64` when a board's pegs times colours fit
/// in 64 bits (every board up to 8 pegs of 8 colours, 7 of 9, 6 of 10, 5 of 12,
/// 4 of 16), `u128` for the rest.
pub trait Word:
    Copy
    + Eq
    + Ord
    + core::hash::Hash
    + core::ops::BitAnd<Output = Self>
    + core::ops::BitOr<Output = Self>
{
    /// Bits in the word.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// The word with only bit `i` set.
    fn bit(i: u32) -> Self;
    /// The number of bits set (one instruction on CPUs with a population count).
    fn ones(self) -> u32;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: $t = 0;
            #[inline(always)]
            fn bit(i: u32) -> $t {
                1 << i
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
        }
    };
}
word!(u64);
word!(u128);

/// A code as two bit sets laid out so that scoring is two intersections and two
/// population counts, with no loop and no branch.
///
/// `places` has bit `peg * colors + colour` for each peg, so the common bits of a
/// guess and a secret are their blacks. `counts` gives each colour a block of
/// `pegs` bits, at `colour * pegs`, whose first k bits are set when the colour
/// occurs k times; the common bits of two such blocks are the smaller count, so the
/// common bits of two codes' `counts` are the pegs they share (black + white).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScoreBits<W> {
    pub places: W,
    pub counts: W,
}

/// Whether a board with `pegs` pegs and `colors` colours fits [`ScoreBits`] of `W`.
pub const fn fits<W: Word>(pegs: usize, colors: usize) -> bool {
    pegs * colors <= W::BITS as usize
}

impl<W: Word> ScoreBits<W> {
    /// The bits of `code` on a board of `pegs` pegs and `colors` colours, which must
    /// [`fits`] `W`.
    pub fn of(code: Code, pegs: usize, colors: usize) -> ScoreBits<W> {
        debug_assert!(fits::<W>(pegs, colors));
        // Bytes, not words: 48 bytes less stack on a chip.
        let mut seen = [0u8; 16];
        let mut bits = ScoreBits {
            places: W::ZERO,
            counts: W::ZERO,
        };
        for peg in 0..pegs {
            let c = usize::from(code.color(pegs, peg));
            bits.places = bits.places | W::bit((peg * colors + c) as u32);
            bits.counts = bits.counts | W::bit((c * pegs) as u32 + u32::from(seen[c]));
            seen[c] += 1;
        }
        bits
    }

    /// `(black pegs, shared pegs)` of a guess (`self`) and a secret: black + white
    /// is the shared count, so white = shared - black.
    #[inline(always)]
    pub fn black_shared(self, secret: ScoreBits<W>) -> (u32, u32) {
        (
            (self.places & secret.places).ones(),
            (self.counts & secret.counts).ones(),
        )
    }

    /// The feedback of a guess (`self`) and a secret.
    #[inline]
    pub fn score(self, secret: ScoreBits<W>) -> Feedback {
        let (black, shared) = self.black_shared(secret);
        Feedback::new(black as u8, (shared - black) as u8)
    }
}

/// The feedback `guess` gets when the hidden code is `secret`, on any board with
/// `pegs` pegs.
///
/// Peg by peg, in 32-bit steps: small and quick on every word size, a Cortex-M0
/// included (where [`ScoreBits`] of 128 bits took 726 bytes of code and 164 of
/// stack, and a hint 23% more instructions). The generator, which scores billions of pairs, keeps [`ScoreBits`] per code
/// instead.
pub fn score(guess: Code, secret: Code, pegs: usize) -> Feedback {
    let (mut black, mut white) = (0u8, 0u8);
    // The guess's colours on the pegs that are not black, then matched off one by
    // one against the secret's.
    let mut unmatched = [0u8; 16];
    for peg in 0..pegs {
        let (g, s) = (guess.color(pegs, peg), secret.color(pegs, peg));
        if g == s {
            black += 1;
        } else {
            unmatched[usize::from(g)] += 1;
        }
    }
    for peg in 0..pegs {
        let (g, s) = (guess.color(pegs, peg), secret.color(pegs, peg));
        let left = &mut unmatched[usize::from(s)];
        if g != s && *left > 0 {
            *left -= 1;
            white += 1;
        }
    }
    Feedback::new(black, white)
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
        for (b, w) in [(3, 1), (5, 0), (0, 5), (2, 1)] {
            let meant = Feedback::new(b, w).check(&Board::classic()).err();
            let expected = (b + w > 4 || b == 3).then_some(FeedbackError::Impossible {
                black: b,
                white: w,
                meant: None,
            });
            assert_eq!(meant, expected, "{b},{w}");
        }
        // Blacks, then every colour right: 2,3 is two in place and one elsewhere.
        let said = Feedback::parse("2,3", &classic).unwrap_err();
        assert_eq!(
            said,
            FeedbackError::Impossible {
                black: 2,
                white: 3,
                meant: Some(Feedback::new(2, 1)),
            }
        );
        assert_eq!(
            said.to_string(),
            "feedback 2,3 cannot occur on this board (if the second number counts every colour right, blacks too, it is 2,1)"
        );
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

        /// The layout the generator uses: colours blocks as wide as the board's
        /// colours, in 64 bits when they fit.
        #[test]
        fn board_layouts_match_the_reference((pegs, g, s) in board_and_two_codes()) {
            let colors = usize::from(*g.iter().chain(&s).max().unwrap()) + 1;
            let (gc, sc) = (Code::from_colors(&g), Code::from_colors(&s));
            let (black, white) = reference_score(&g, &s);
            let wide = ScoreBits::<u128>::of(gc, pegs, colors);
            prop_assert_eq!(wide.score(ScoreBits::of(sc, pegs, colors)), Feedback::new(black, white));
            if fits::<u64>(pegs, colors) {
                let narrow = ScoreBits::<u64>::of(gc, pegs, colors);
                let (b, shared) = narrow.black_shared(ScoreBits::of(sc, pegs, colors));
                prop_assert_eq!((b as u8, shared as u8 - b as u8), (black, white));
            }
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
