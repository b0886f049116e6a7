//! Splitting a candidate set by the answers a guess gets: the generator's hot loop.
//!
//! [`Codes`] holds every code of the board as [`ScoreBits`], so scoring a pair is two
//! ANDs and two population counts and an answer's dense index is one table load.
//! Candidate sets are sorted slices of code indices; a scan of many guesses over one
//! set first gathers the set ([`Secrets`]) so that each guess streams through the
//! secrets' bits in order. Class counting uses
//! a fixed array on the stack and never allocates; the loop is compiled once per
//! word width (64 bits when the board's pegs times colours fit, else 128) so that it
//! has no branch besides the caller's early exit.
//!
//! The pruning bounds built on the same codes (colour multisets, even splits)
//! are in the `multisets` submodule ([`Codes::promising_multisets`], [`even_split`]).

use lookup::score::{answer_count, fits, Feedback, ScoreBits, Word, MAX_ANSWERS};
use lookup::{Board, Code};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

mod multisets;
mod profile;
mod spread;
pub use multisets::{coarse_capacity, even_split, ByShared, Coarse, Groups};
pub use profile::{Profile, PROFILE_UP_TO};
pub use spread::{Spread, Spreads, LANES as SPREAD_LANES};

/// Slots in [`Classes`]: the answers rounded up to a power of two, so that an
/// answer index masked to it needs no bounds check in the hot loop.
pub const CLASS_SLOTS: usize = MAX_ANSWERS.next_power_of_two();

/// Class sizes of one guess over a candidate set, indexed by answer.
pub type Classes = [u32; CLASS_SLOTS];

/// Every code of a board, ready to score.
///
/// The codes' bits are stored a colour multiset at a time (`bits[slot[code]]`):
/// scans of the codes that are not candidates go a multiset at a time, so they read
/// the bits in order. Stored in code order, the guess's bits were a cache miss per
/// guess on big boards (7x6: a third of the scan's time, most of it in nodes of
/// under 32 secrets, where a guess is abandoned after a few scorings).
pub struct Codes {
    board: Board,
    codes: Vec<Code>,
    /// The codes' bits, laid out for the board, a multiset at a time: the codes of
    /// multiset `id` are `order[starts[id]..starts[id + 1]]`, ascending, and their
    /// bits are `bits` in the same range.
    bits: Vec<ScoreBits<u128>>,
    order: Vec<u32>,
    starts: Vec<u32>,
    /// Where each code's bits are in `bits`.
    slot: Vec<u32>,
    /// Whether the bits fit 64-bit words, which scans then use.
    narrow: bool,
    /// [`coarse_capacity`] by shared pegs (0 past the pegs).
    capacities: [usize; 9],
    /// Dense answer index at `black pegs << 4 | shared pegs`: any byte is in range.
    answer_index: [u8; 256],
    /// Each code's multiset.
    multiset_of: Vec<u32>,
    /// The `counts` bits of each multiset's codes and its colours (bit c for
    /// colour c): what the multiset scan reads, side by side.
    multisets: Vec<(u128, u16)>,
    /// The multisets' `counts` bits, those of the most colours first: the order
    /// [`Codes::least_multiset_floor`] tries them in. Many colours spread the
    /// secrets over more shared-peg counts, so low floors come soon, and a scan
    /// that only asks whether the least is above some floor ends sooner (4x8 on
    /// one thread: 855.7 million pairs scored, 875.8 million in the order of the
    /// codes).
    spread_first: Vec<u128>,
    /// Which of `spread_first` have colour c: bit i of word `c * words + i / 64`,
    /// `words` the 64-bit words `spread_first` takes. A scan that leaves out the
    /// multisets of some colours clears their words, with no test per multiset.
    with_colour: Vec<u64>,
}

/// A code to score as a guess, with where its bits are (see [`Codes::guess`]).
#[derive(Clone, Copy)]
pub struct Guess {
    pub code: u32,
    slot: u32,
}

/// The secrets' bits in the board's word width.
enum Items {
    Narrow(Vec<ScoreBits<u64>>),
    Wide(Vec<ScoreBits<u128>>),
}

/// Bits that [`fits`] 64 bits, in a 64-bit word.
fn narrow(bits: ScoreBits<u128>) -> ScoreBits<u64> {
    ScoreBits {
        places: bits.places as u64,
        counts: bits.counts as u64,
    }
}

/// A candidate set gathered for scanning: each secret's bits in order.
pub struct Secrets<'a> {
    indices: &'a [u32],
    items: Items,
    /// The secrets' distinct colour multisets (their `counts` bits), each with how
    /// many secrets have it: enough to count shared pegs (made on first use).
    multisets: OnceLock<Vec<(u128, u32)>>,
    /// `(multiset, secret)` for every secret, sorted: the secrets of any multiset
    /// (made on first use).
    by_multiset: OnceLock<Vec<(u32, u32)>>,
}

impl Secrets<'_> {
    /// The secrets' code indices (sorted).
    pub fn indices(&self) -> &[u32] {
        self.indices
    }

    pub fn len(&self) -> usize {
        self.indices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

/// The bits each count takes where counts by peg number (0 to `pegs`) are added
/// in one 64-bit register: a count must stay below `2^width`.
fn packed_width(pegs: usize) -> usize {
    64 / (pegs + 1)
}

impl Codes {
    pub fn new(board: Board) -> Codes {
        let (pegs, colors) = (board.pegs(), board.colors());
        let codes: Vec<Code> = board.codes().collect();
        let bits_of = |code: Code| ScoreBits::of(code, pegs, colors);
        let mut answer_index = [0u8; 256];
        for i in 0..answer_count(pegs) {
            if let Some(f) = Feedback::from_index(i, pegs) {
                let (black, white) = (usize::from(f.black), usize::from(f.white));
                answer_index[black << 4 | (black + white)] = i as u8;
            }
        }
        let mut ids: FxHashMap<u128, u32> = FxHashMap::default();
        let (mut multiset_codes, mut multisets) = (Vec::<Vec<u32>>::new(), Vec::new());
        let mut multiset_of = Vec::with_capacity(codes.len());
        for (index, &code) in codes.iter().enumerate() {
            let counts = bits_of(code).counts;
            let id = *ids.entry(counts).or_insert_with(|| {
                multiset_codes.push(Vec::new());
                let colors = (0..pegs).fold(0u16, |m, i| m | 1 << code.color(pegs, i));
                multisets.push((counts, colors));
                multiset_codes.len() as u32 - 1
            });
            multiset_codes[id as usize].push(index as u32);
            multiset_of.push(id);
        }
        let mut by_colours = multisets.clone();
        by_colours.sort_by_key(|&(_, colours)| std::cmp::Reverse(colours.count_ones()));
        let words = by_colours.len().div_ceil(64);
        let mut with_colour = vec![0u64; colors * words];
        for (i, &(_, colours)) in by_colours.iter().enumerate() {
            for c in (0..colors).filter(|c| colours & 1 << c != 0) {
                with_colour[c * words + i / 64] |= 1 << (i % 64);
            }
        }
        let spread_first = by_colours.into_iter().map(|(counts, _)| counts).collect();
        let starts: Vec<u32> = std::iter::once(0)
            .chain(multiset_codes.iter().scan(0, |end, m| {
                *end += m.len() as u32;
                Some(*end)
            }))
            .collect();
        let order: Vec<u32> = multiset_codes.concat();
        let mut slot = vec![0; codes.len()];
        for (at, &code) in order.iter().enumerate() {
            slot[code as usize] = at as u32;
        }
        Codes {
            board,
            bits: order.iter().map(|&c| bits_of(codes[c as usize])).collect(),
            codes,
            order,
            starts,
            slot,
            narrow: fits::<u64>(pegs, colors),
            capacities: std::array::from_fn(|shared| {
                if shared <= pegs {
                    coarse_capacity(pegs, shared)
                } else {
                    0
                }
            }),
            answer_index,
            multiset_of,
            multisets,
            spread_first,
            with_colour,
        }
    }

    /// The bits of code `index`.
    #[inline]
    fn bits_of(&self, index: u32) -> ScoreBits<u128> {
        self.bits[self.slot[index as usize] as usize]
    }

    /// Code `index`, ready to score as a guess.
    pub fn guess(&self, index: u32) -> Guess {
        Guess {
            code: index,
            slot: self.slot[index as usize],
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
        self.codes[index as usize]
    }

    /// The index of the answers the win gets (the last one).
    pub fn win(&self) -> usize {
        answer_count(self.board.pegs()) - 1
    }

    /// `candidates` (sorted code indices) laid out for [`Codes::count_classes`].
    pub fn gather<'a>(&self, candidates: &'a [u32]) -> Secrets<'a> {
        let bits = candidates.iter().map(|&s| self.bits_of(s));
        Secrets {
            indices: candidates,
            items: if self.narrow {
                Items::Narrow(bits.map(narrow).collect())
            } else {
                Items::Wide(bits.collect())
            },
            multisets: OnceLock::new(),
            by_multiset: OnceLock::new(),
        }
    }

    /// Dense index of the answer `guess` gets against `secret`.
    pub fn answer(&self, guess: u32, secret: u32) -> usize {
        self.answer_of(self.bits_of(guess), self.bits_of(secret))
    }

    #[inline(always)]
    fn answer_of<W: Word>(&self, guess: ScoreBits<W>, secret: ScoreBits<W>) -> usize {
        let (black, shared) = guess.black_shared(secret);
        usize::from(self.answer_index[usize::from((black << 4 | shared) as u8)])
    }

    /// Counts the classes of `guess` over `secrets` into `classes` (reset first:
    /// a fixed-size store, cheaper than a call to clear just the answers). After each
    /// secret, `keep_going(new size of its class, secrets left)` may end the count
    /// early by returning false (the guess cannot beat one already found); then the
    /// result is false. Adds the pairs scored to `work`.
    #[inline(always)]
    pub fn count_classes(
        &self,
        guess: Guess,
        secrets: &Secrets,
        classes: &mut Classes,
        work: &mut u64,
        keep_going: impl FnMut(u32, usize) -> bool,
    ) -> bool {
        *classes = [0; CLASS_SLOTS];
        let guess = self.bits[guess.slot as usize];
        let (done, complete) = match &secrets.items {
            Items::Narrow(items) => self.count(narrow(guess), items, classes, keep_going),
            Items::Wide(items) => self.count(guess, items, classes, keep_going),
        };
        *work += done as u64;
        complete
    }

    /// [`Codes::count_classes`] over every secret, with no early end.
    pub fn count_every(
        &self,
        guess: Guess,
        secrets: &Secrets,
        classes: &mut Classes,
        work: &mut u64,
    ) {
        self.count_classes(guess, secrets, classes, work, |_, _| true);
    }

    /// Which answers each of up to [`SPREAD_LANES`] candidates gets over
    /// `secrets` ([`Spread`]), in `out`: the secrets from `first` on, as guesses,
    /// a lane each. Where a set's cost by the bounds rests on its classes' count alone
    /// (no class past the next guess's reach), that is all a look needs: no class
    /// sizes stored and no test per secret, where [`Codes::count_classes`] adds to
    /// a class in memory and asks after each secret whether to go on (see
    /// `Exact::candidates_own`).
    #[inline(always)]
    pub fn candidate_spreads(&self, secrets: &Secrets, first: usize, out: &mut Spreads) {
        let block = first..(first + SPREAD_LANES).min(secrets.len());
        match &secrets.items {
            Items::Narrow(items) => spread::spreads(&items[block], items, out),
            Items::Wide(items) => spread::spreads(&items[block], items, out),
        }
    }

    /// The loop of [`Codes::count_classes`] for one word width: secrets scored, and
    /// whether all were.
    #[inline(always)]
    fn count<W: Word>(
        &self,
        guess: ScoreBits<W>,
        secrets: &[ScoreBits<W>],
        classes: &mut Classes,
        mut keep_going: impl FnMut(u32, usize) -> bool,
    ) -> (usize, bool) {
        for (done, &s) in secrets.iter().enumerate() {
            let class = &mut classes[self.answer_of(guess, s) % CLASS_SLOTS];
            *class += 1;
            if !keep_going(*class, secrets.len() - done - 1) {
                return (done + 1, false);
            }
        }
        (secrets.len(), true)
    }

    /// Class sizes of `guess` over `candidates`: the plain count the tests check
    /// the fast paths against.
    #[cfg(test)]
    pub fn classes(&self, guess: u32, candidates: &[u32]) -> Classes {
        let mut classes = [0u32; CLASS_SLOTS];
        for &s in candidates {
            classes[self.answer(guess, s)] += 1;
        }
        classes
    }

    /// The non-empty classes of `guess` other than the win, in answer order, and
    /// whether the guess itself is a candidate.
    pub fn split(&self, guess: u32, candidates: &[u32]) -> (Split, bool) {
        let guess = self.bits_of(guess);
        let answers = candidates
            .iter()
            .map(|&s| self.answer_of(guess, self.bits_of(s)));
        self.split_by(candidates, answers)
    }

    /// [`Codes::split`] of secrets gathered already: their bits read in order,
    /// in the narrow word where the board fits it, not the code table by index
    /// (a search's options: BENCHMARKS.md, "options split from the node's
    /// gathered candidates").
    pub fn split_gathered(&self, guess: Guess, secrets: &Secrets) -> (Split, bool) {
        let guess = self.bits[guess.slot as usize];
        match &secrets.items {
            Items::Narrow(items) => {
                let guess = narrow(guess);
                let answers = items.iter().map(|&s| self.answer_of(guess, s));
                self.split_by(secrets.indices, answers)
            }
            Items::Wide(items) => {
                let answers = items.iter().map(|&s| self.answer_of(guess, s));
                self.split_by(secrets.indices, answers)
            }
        }
    }

    /// The split of `candidates` whose answers, in their order, are `scored`.
    #[inline(always)]
    fn split_by(&self, candidates: &[u32], scored: impl Iterator<Item = usize>) -> (Split, bool) {
        let n = candidates.len();
        let win = self.win();
        // The secrets go in the first half; each one's answer, scored once, waits in
        // the second half until then.
        let mut grouped = vec![0u32; 2 * n];
        let (secrets, answers) = grouped.split_at_mut(n);
        let mut classes = [0u32; CLASS_SLOTS];
        for (answer, a) in answers.iter_mut().zip(scored) {
            *answer = a as u32;
            classes[*answer as usize] += 1;
        }
        let mut split = Split {
            grouped: Vec::new(),
            parts: [(0, 0); MAX_ANSWERS],
            count: 0,
        };
        // Where each answer's secrets go: classes in answer order, the win last.
        let mut next = [0u32; MAX_ANSWERS];
        let mut end = 0;
        for a in 0..=win {
            next[a] = end;
            end += classes[a];
            if a < win && classes[a] > 0 {
                split.parts[split.count] = (a as u8, end);
                split.count += 1;
            }
        }
        for (&answer, &s) in answers.iter().zip(candidates) {
            let slot = &mut next[answer as usize];
            secrets[*slot as usize] = s;
            *slot += 1;
        }
        grouped.truncate(n);
        split.grouped = grouped;
        (split, classes[win] > 0)
    }
}

/// A split's classes other than the win, smallest first ([`Split::smallest_first`]),
/// held without an allocation: a slice of them.
pub struct SmallestFirst<'a> {
    classes: [&'a [u32]; MAX_ANSWERS],
    count: usize,
}

impl<'a> std::ops::Deref for SmallestFirst<'a> {
    type Target = [&'a [u32]];

    fn deref(&self) -> &[&'a [u32]] {
        &self.classes[..self.count]
    }
}

/// The classes a guess makes of a candidate set, in one allocation: each class's
/// secrets, ascending, lie side by side in answer order.
pub struct Split {
    grouped: Vec<u32>,
    /// The non-empty classes other than the win: answer, and where its secrets end.
    parts: [(u8, u32); MAX_ANSWERS],
    count: usize,
}

impl Split {
    /// Each class other than the win, in answer order: its answer and its secrets.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        let ends = self.parts[..self.count].iter();
        let starts = std::iter::once(0).chain(ends.clone().map(|&(_, end)| end));
        ends.zip(starts)
            .map(|(&(a, end), start)| (usize::from(a), &self.grouped[start as usize..end as usize]))
    }

    /// The classes other than the win, smallest first (ties in answer order):
    /// the order a search solves them in, and a look two ahead takes them in.
    pub fn smallest_first(&self) -> SmallestFirst<'_> {
        let mut classes = [&[][..]; MAX_ANSWERS];
        for (slot, (_, class)) in classes.iter_mut().zip(self.iter()) {
            *slot = class;
        }
        classes[..self.count].sort_by_key(|class| class.len());
        SmallestFirst {
            classes,
            count: self.count,
        }
    }

    /// How many classes other than the win.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
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
        let (mut work, mut scratch) = (0, [7; CLASS_SLOTS]);
        let secrets = codes.gather(&all);
        let g = codes.guess(guess);
        assert!(!codes.count_classes(g, &secrets, &mut scratch, &mut work, |c, _| c <= 255));
        assert!(work > 0 && work < 1296);
        assert!(codes.count_classes(g, &secrets, &mut scratch, &mut work, |c, _| c <= 256));
        assert_eq!(scratch[..14], classes[..14]);
        let (parts, wins) = codes.split(guess, &all);
        assert!(wins);
        assert_eq!(parts.iter().map(|(_, p)| p.len()).sum::<usize>(), 1295);
        assert!(parts
            .iter()
            .all(|(a, p)| p.iter().all(|&s| codes.answer(guess, s) == a)));
        // Each class stays sorted, as every candidate set must be.
        assert!(parts.iter().all(|(_, p)| p.is_sorted()));
        let answers: Vec<usize> = parts.iter().map(|(a, _)| a).collect();
        assert!(answers.is_sorted() && answers.len() == parts.len());
    }

    /// A split of gathered secrets is the split of their indices, on a board of
    /// each word width.
    #[test]
    fn a_split_of_gathered_secrets_is_the_split_of_their_indices() {
        for board in [
            Board::new(4, 6, true).unwrap(),
            Board::new(5, 13, true).unwrap(),
        ] {
            let codes = Codes::new(board);
            for (n, step) in [(1, 1), (9, 97), (300, 13)] {
                let mut set: Vec<u32> = (0..n).map(|i| (i * step) % codes.len()).collect();
                set.sort_unstable();
                set.dedup();
                let secrets = codes.gather(&set);
                for guess in (0..codes.len()).step_by(101).chain(set.iter().copied()) {
                    let (plain, wins) = codes.split(guess, &set);
                    let (gathered, also) = codes.split_gathered(codes.guess(guess), &secrets);
                    assert!(plain.iter().eq(gathered.iter()), "{board:?} {guess} {n}");
                    assert_eq!(wins, also);
                }
            }
        }
    }

    /// The spread's bit sets against each secret scored peg by peg, its answer's
    /// bit counted in a map, and its answer count against the plain count's
    /// classes (distinct answers get distinct bits): on a board of each word width
    /// (5x13 does not fit 64 bits), one of 8 pegs (the highest bits), and sets of
    /// every size about the lanes' width.
    #[test]
    fn an_answer_spread_holds_the_answers_got_once_twice_and_three_times() {
        let mut seen = [false; 4];
        for board in [
            Board::new(4, 6, true).unwrap(),
            Board::new(5, 13, true).unwrap(),
            Board::new(8, 3, true).unwrap(),
        ] {
            let codes = Codes::new(board);
            let pegs = board.pegs();
            let sets = [(1, 1), (2, 311), (7, 89), (8, 83), (9, 97), (17, 61)];
            for (n, step) in sets.into_iter().chain([(40, 41), (300, 13)]) {
                let set: Vec<u32> = (0..n).map(|i| (i * step) % codes.len()).collect();
                let mut set = set;
                set.sort_unstable();
                set.dedup();
                let secrets = codes.gather(&set);
                let mut spreads = Spreads::default();
                for (at, &guess) in set.iter().enumerate() {
                    let first = at / SPREAD_LANES * SPREAD_LANES;
                    codes.candidate_spreads(&secrets, first, &mut spreads);
                    let spread = spreads.get(at % SPREAD_LANES);
                    let mut got = FxHashMap::<u32, u32>::default();
                    for &secret in &set {
                        let f = score(codes.code(guess), codes.code(secret), pegs);
                        let (black, shared) = (u32::from(f.black), u32::from(f.black + f.white));
                        *got.entry(shared * (shared + 1) / 2 + black).or_default() += 1;
                    }
                    let at_least = |k: u32| {
                        (got.iter())
                            .filter(|&(_, &size)| size >= k)
                            .fold(0u64, |bits, (bit, _)| bits | 1 << bit)
                    };
                    let expected = Spread {
                        once: at_least(1),
                        twice: at_least(2),
                        thrice: at_least(3),
                    };
                    assert_eq!(spread, expected, "{board:?} guess {guess} set of {n}");
                    let classes = codes.classes(guess, &set);
                    let answers = classes.iter().filter(|&&size| size > 0).count();
                    assert_eq!(spread.once.count_ones() as usize, answers);
                    let widest = classes.iter().max().copied().unwrap_or(0);
                    seen[widest.min(3) as usize] = true;
                }
            }
        }
        assert_eq!(
            seen,
            [false, true, true, true],
            "sets whose widest class is 1, 2, 3+"
        );
    }
}
