//! Splitting a candidate set by the answers a guess gets: the generator's hot loop.
//!
//! [`Codes`] holds every code of the board with its colour counts, so scoring a pair
//! is a few word operations ([`lookup::score::score_counts`]) and an answer's dense
//! index is one table load. Candidate sets are sorted slices of code indices; class
//! counting uses a fixed array on the stack and never allocates.

use lookup::score::{answer_count, score_counts, ColorCounts, Feedback, MAX_ANSWERS};
use lookup::{Board, Code};

/// Class sizes of one guess over a candidate set, indexed by answer.
pub type Classes = [u32; MAX_ANSWERS];

/// One code with its colour counts, side by side for the hot loop.
#[derive(Clone, Copy)]
struct Scorable {
    code: Code,
    counts: ColorCounts,
}

/// Every code of a board, ready to score.
pub struct Codes {
    board: Board,
    codes: Vec<Scorable>,
    /// Dense answer index of (black, white), at `black * 9 + white`.
    answer_index: [u8; 81],
}

impl Codes {
    pub fn new(board: Board) -> Codes {
        let pegs = board.pegs();
        let codes = board
            .codes()
            .map(|code| Scorable {
                code,
                counts: ColorCounts::of(code, pegs),
            })
            .collect();
        let mut answer_index = [0u8; 81];
        for i in 0..answer_count(pegs) {
            if let Some(f) = Feedback::from_index(i, pegs) {
                answer_index[usize::from(f.black) * 9 + usize::from(f.white)] = i as u8;
            }
        }
        Codes {
            board,
            codes,
            answer_index,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// Number of codes.
    pub fn len(&self) -> u32 {
        self.codes.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    pub fn code(&self, index: u32) -> Code {
        self.codes[index as usize].code
    }

    /// The index of the answers the win gets (the last one).
    pub fn win(&self) -> usize {
        answer_count(self.board.pegs()) - 1
    }

    /// Dense index of the answer `guess` gets against `secret`.
    #[inline]
    pub fn answer(&self, guess: u32, secret: u32) -> usize {
        self.answer_of(self.codes[guess as usize], secret)
    }

    #[inline]
    fn answer_of(&self, guess: Scorable, secret: u32) -> usize {
        let s = self.codes[secret as usize];
        let f = score_counts(
            guess.code,
            guess.counts,
            s.code,
            s.counts,
            self.board.pegs(),
        );
        usize::from(self.answer_index[usize::from(f.black) * 9 + usize::from(f.white)])
    }

    /// Counts the classes of `guess` over `candidates` into `classes` (its first
    /// [`answer_count`] slots are reset first, the rest stay zero). After each
    /// secret, `keep_going(new size of its class, secrets left)` may end the count
    /// early by returning false (the guess cannot beat one already found); then the
    /// result is false. Adds the pairs scored to `work`.
    #[inline]
    pub fn count_classes(
        &self,
        guess: u32,
        candidates: &[u32],
        classes: &mut Classes,
        work: &mut u64,
        mut keep_going: impl FnMut(u32, usize) -> bool,
    ) -> bool {
        classes[..answer_count(self.board.pegs())].fill(0);
        let guess = self.codes[guess as usize];
        for (done, &s) in candidates.iter().enumerate() {
            let class = &mut classes[self.answer_of(guess, s)];
            *class += 1;
            if !keep_going(*class, candidates.len() - done - 1) {
                *work += done as u64 + 1;
                return false;
            }
        }
        *work += candidates.len() as u64;
        true
    }

    /// Class sizes of `guess` over `candidates`.
    pub fn classes(&self, guess: u32, candidates: &[u32]) -> Classes {
        let mut classes = [0u32; MAX_ANSWERS];
        for &s in candidates {
            classes[self.answer(guess, s)] += 1;
        }
        classes
    }

    /// The non-empty classes of `guess` other than the win, in answer order, and
    /// whether the guess itself is a candidate.
    pub fn split(&self, guess: u32, candidates: &[u32]) -> (Vec<(usize, Vec<u32>)>, bool) {
        let classes = self.classes(guess, candidates);
        let win = self.win();
        let mut parts: Vec<(usize, Vec<u32>)> = (0..win)
            .filter(|&a| classes[a] > 0)
            .map(|a| (a, Vec::with_capacity(classes[a] as usize)))
            .collect();
        let mut slot = [usize::MAX; MAX_ANSWERS];
        for (i, (a, _)) in parts.iter().enumerate() {
            slot[*a] = i;
        }
        for &s in candidates {
            let a = self.answer(guess, s);
            if a != win {
                parts[slot[a]].1.push(s);
            }
        }
        (parts, classes[win] > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lookup::score::score;

    #[test]
    fn answers_match_the_library_score() {
        for board in [
            Board::classic(),
            Board::new(3, 10, false).unwrap(),
            Board::new(8, 2, true).unwrap(),
        ] {
            let codes = Codes::new(board);
            for g in (0..codes.len()).step_by(7) {
                for s in (0..codes.len()).step_by(5) {
                    let expected =
                        score(codes.code(g), codes.code(s), board.pegs()).index(board.pegs());
                    assert_eq!(codes.answer(g, s), expected);
                }
            }
        }
    }

    #[test]
    fn classic_first_guess_1122_splits_as_knuth_says() {
        let board = Board::classic();
        let codes = Codes::new(board);
        let all: Vec<u32> = (0..codes.len()).collect();
        let guess = board.index(board.parse("1122").unwrap()).unwrap();
        let classes = codes.classes(guess, &all);
        assert_eq!(classes.iter().max(), Some(&256));
        assert_eq!(classes.iter().sum::<u32>(), 1296);
        let (mut work, mut scratch) = (0, [7; MAX_ANSWERS]);
        assert!(!codes.count_classes(guess, &all, &mut scratch, &mut work, |c, _| c <= 255));
        assert!(work > 0 && work < 1296);
        assert!(codes.count_classes(guess, &all, &mut scratch, &mut work, |c, _| c <= 256));
        assert_eq!(scratch[..14], classes[..14]);
        let (parts, wins) = codes.split(guess, &all);
        assert!(wins);
        assert_eq!(parts.iter().map(|(_, p)| p.len()).sum::<usize>(), 1295);
        assert!(parts
            .iter()
            .all(|(a, p)| p.iter().all(|&s| codes.answer(guess, s) == *a)));
    }
}
