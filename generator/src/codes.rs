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
//! Codes that are not candidates can often be ruled out a whole colour multiset at
//! a time ([`Codes::promising_multisets`]): the shared pegs (black + white) of a guess
//! and a secret depend only on the guess's colours, not on their order, so one
//! count of the secrets by shared pegs bounds every arrangement of those colours.

use lookup::score::{answer_count, fits, Feedback, ScoreBits, Word, MAX_ANSWERS};
use lookup::{Board, Code};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Slots in [`Classes`]: the answers rounded up to a power of two, so that an
/// answer index masked to it needs no bounds check in the hot loop.
pub const CLASS_SLOTS: usize = MAX_ANSWERS.next_power_of_two();

/// Class sizes of one guess over a candidate set, indexed by answer.
pub type Classes = [u32; CLASS_SLOTS];

/// Every code of a board, ready to score.
pub struct Codes {
    board: Board,
    codes: Vec<Code>,
    /// Each code's bits, numbered out for the board.
    bits: Vec<ScoreBits<u128>>,
    /// Whether the bits fit 64-bit words, which scans then use.
    narrow: bool,
    /// [`coarse_capacity`] by shared pegs (0 past the pegs).
    capacities: [usize; 9],
    /// Dense answer index at `black pegs << 4 | shared pegs`: any byte is in range.
    answer_index: [u8; 256],
    /// The codes of each multiset, ascending.
    multiset_codes: Vec<Vec<u32>>,
    /// Each code's multiset.
    multiset_of: Vec<u32>,
    /// The `counts` bits of each multiset's codes and its colours (bit c for
    /// colour c): what the multiset scan reads, side by side.
    multisets: Vec<(u128, u16)>,
}

/// Secrets counted by the pegs they share with a guess (black + white), at `shared`.
pub type Coarse = [u32; 9];

/// Groups of secrets, each with the most answer classes it can split into:
/// `(secrets, classes)`.
pub type Groups = [(u32, usize); 9];

/// How many different answers a guess that is not a candidate can get from the
/// secrets sharing `shared` of its `pegs` pegs: black is 0 to `shared`, but never
/// `pegs - 1` with one white, and never all (that would be the guess itself).
pub fn coarse_capacity(pegs: usize, shared: usize) -> usize {
    if shared < pegs {
        shared + 1
    } else {
        pegs - 1
    }
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

impl Codes {
    pub fn new(board: Board) -> Codes {
        let (pegs, colors) = (board.pegs(), board.colors());
        let codes: Vec<Code> = board.codes().collect();
        let bits: Vec<ScoreBits<u128>> = codes
            .iter()
            .map(|&code| ScoreBits::of(code, pegs, colors))
            .collect();
        let mut answer_index = [0u8; 256];
        for i in 0..answer_count(pegs) {
            if let Some(f) = Feedback::from_index(i, pegs) {
                let (black, white) = (usize::from(f.black), usize::from(f.white));
                answer_index[black << 4 | (black + white)] = i as u8;
            }
        }
        let mut ids: HashMap<u128, u32> = HashMap::new();
        let (mut multiset_codes, mut multisets) = (Vec::<Vec<u32>>::new(), Vec::new());
        let mut multiset_of = Vec::with_capacity(codes.len());
        for (index, (code, bits)) in codes.iter().zip(&bits).enumerate() {
            let id = *ids.entry(bits.counts).or_insert_with(|| {
                multiset_codes.push(Vec::new());
                let colors = (0..pegs).fold(0u16, |m, i| m | 1 << code.color(pegs, i));
                multisets.push((bits.counts, colors));
                multiset_codes.len() as u32 - 1
            });
            multiset_codes[id as usize].push(index as u32);
            multiset_of.push(id);
        }
        Codes {
            board,
            codes,
            bits,
            narrow: fits::<u64>(pegs, colors),
            capacities: std::array::from_fn(|shared| {
                if shared <= pegs {
                    coarse_capacity(pegs, shared)
                } else {
                    0
                }
            }),
            answer_index,
            multiset_codes,
            multiset_of,
            multisets,
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

    /// How many colour multisets the codes have.
    pub fn multiset_count(&self) -> usize {
        self.multiset_codes.len()
    }

    /// The codes with the colours of multiset `id`, ascending.
    pub fn multiset_codes(&self, id: usize) -> &[u32] {
        &self.multiset_codes[id]
    }

    /// The codes of multiset `id` that are not among `secrets`, ascending: each is
    /// looked up among the few secrets of its own multiset only.
    pub fn outsiders<'s>(
        &'s self,
        id: usize,
        secrets: &'s Secrets,
    ) -> impl Iterator<Item = u32> + 's {
        let grouped = secrets.by_multiset.get_or_init(|| {
            let mut grouped: Vec<(u32, u32)> = (secrets.indices.iter())
                .map(|&s| (self.multiset_of[s as usize], s))
                .collect();
            grouped.sort_unstable();
            grouped
        });
        let from = grouped.partition_point(|&(m, _)| (m as usize) < id);
        let to = from + grouped[from..].partition_point(|&(m, _)| m as usize == id);
        let inside = &grouped[from..to];
        self.multiset_codes[id]
            .iter()
            .copied()
            .filter(move |&g| inside.binary_search_by_key(&g, |&(_, s)| s).is_err())
    }

    /// `candidates` (sorted code indices) numbered out for [`Codes::count_classes`].
    pub fn gather<'a>(&self, candidates: &'a [u32]) -> Secrets<'a> {
        let bits = candidates.iter().map(|&s| self.bits[s as usize]);
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
        self.answer_of(self.bits[guess as usize], self.bits[secret as usize])
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
    #[inline]
    pub fn count_classes(
        &self,
        guess: u32,
        secrets: &Secrets,
        classes: &mut Classes,
        work: &mut u64,
        keep_going: impl FnMut(u32, usize) -> bool,
    ) -> bool {
        *classes = [0; CLASS_SLOTS];
        let guess = self.bits[guess as usize];
        let (done, complete) = match &secrets.items {
            Items::Narrow(items) => self.count(narrow(guess), items, classes, keep_going),
            Items::Wide(items) => self.count(guess, items, classes, keep_going),
        };
        *work += done as u64;
        complete
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

    /// Coarse classes as groups: each with the most answer classes
    /// ([`coarse_capacity`]) a code that is not a candidate can split it into.
    pub fn groups(&self, coarse: &Coarse) -> Groups {
        std::array::from_fn(|shared| (coarse[shared], self.capacities[shared]))
    }

    /// The colour multisets worth scoring code by code: those whose colours are all
    /// in `alphabet` (bit c for colour c) and whose floor, `floor_of` the coarse
    /// classes their codes share (every answer class of a code that is not a
    /// candidate lies in one, see [`Codes::groups`]), is below `below`, each with
    /// that floor; and the pairs scored. Counted in parallel when there is much to
    /// count.
    pub fn promising_multisets(
        &self,
        secrets: &Secrets,
        alphabet: u16,
        below: u64,
        floor_of: impl Fn(&Coarse) -> u64 + Sync,
    ) -> (Vec<(usize, u64)>, u64) {
        let multisets = self.secret_multisets(secrets);
        let usable = |id: &usize| self.multisets[*id].1 & !alphabet == 0;
        let floor = |id: usize| {
            let floor = floor_of(&self.coarse_classes(self.multisets[id].0, multisets));
            (floor < below).then_some((id, floor))
        };
        let count = self.multiset_count();
        let kept = if count * secrets.len() > crate::PARALLEL_WORK {
            (0..count)
                .into_par_iter()
                .filter(usable)
                .filter_map(floor)
                .collect()
        } else {
            (0..count).filter(usable).filter_map(floor).collect()
        };
        let counted = (0..count).filter(usable).count() * multisets.len();
        (kept, counted as u64)
    }

    /// How many secrets have each of the secrets' distinct colour multisets. A
    /// guess shares as many pegs with each secret of one multiset, so those secrets
    /// stay in one of its coarse classes.
    pub fn multiset_sizes<'s>(&self, secrets: &'s Secrets) -> impl Iterator<Item = u32> + 's {
        self.secret_multisets(secrets).iter().map(|&(_, n)| n)
    }

    /// The secrets' distinct colour multisets (their `counts` bits), each with how
    /// many secrets have it: enough to count shared pegs.
    fn secret_multisets<'s>(&self, secrets: &'s Secrets) -> &'s [(u128, u32)] {
        secrets.multisets.get_or_init(|| {
            let mut counts: Vec<u128> = (secrets.indices.iter())
                .map(|&s| self.bits[s as usize].counts)
                .collect();
            counts.sort_unstable();
            let mut weighted: Vec<(u128, u32)> = Vec::new();
            for c in counts {
                match weighted.last_mut() {
                    Some((last, n)) if *last == c => *n += 1,
                    _ => weighted.push((c, 1)),
                }
            }
            weighted
        })
    }

    /// The secrets, given as their [`Codes::secret_multisets`], counted by the pegs
    /// they share with a guess whose colours have the `counts` bits `guess`: the
    /// same for every arrangement of its colours, and for every secret with the same
    /// colours, so each distinct secret multiset is scored once.
    #[inline]
    fn coarse_classes(&self, guess: u128, multisets: &[(u128, u32)]) -> Coarse {
        let mut coarse = [0; 9];
        if self.narrow {
            let guess = guess as u64;
            for &(counts, n) in multisets {
                coarse[(guess & counts as u64).count_ones() as usize] += n;
            }
        } else {
            for &(counts, n) in multisets {
                coarse[(guess & counts).count_ones() as usize] += n;
            }
        }
        coarse
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
        let n = candidates.len();
        let win = self.win();
        // The secrets go in the first half; each one's answer, scored once, waits in
        // the second half until then.
        let mut grouped = vec![0u32; 2 * n];
        let (secrets, answers) = grouped.split_at_mut(n);
        let mut classes = [0u32; CLASS_SLOTS];
        for (answer, &s) in answers.iter_mut().zip(candidates) {
            *answer = self.answer(guess, s) as u32;
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

    /// How many classes other than the win.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The least sum of `cost(class size)` over at most `classes` classes holding `n`
/// secrets, for a convex `cost` with `cost(0) = 0`: as even as possible.
pub fn even_split(n: u32, classes: usize, cost: impl Fn(u32) -> u64) -> u64 {
    if n == 0 {
        return 0;
    }
    if classes == 0 {
        return u64::MAX;
    }
    let classes = classes as u32;
    let (share, rest) = (n / classes, n % classes);
    // `cost(share + 1)` only when some class holds it: it may be past a table's end.
    let bigger = if rest > 0 {
        u64::from(rest) * cost(share + 1)
    } else {
        0
    };
    bigger + u64::from(classes - rest) * cost(share)
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
        assert!(!codes.count_classes(guess, &secrets, &mut scratch, &mut work, |c, _| c <= 255));
        assert!(work > 0 && work < 1296);
        assert!(codes.count_classes(guess, &secrets, &mut scratch, &mut work, |c, _| c <= 256));
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

    /// Every answer class of a code outside the set lies inside one coarse class,
    /// and a coarse class holds at most its capacity of answers; every arrangement
    /// of a multiset has the coarse classes of the multiset.
    #[test]
    fn coarse_classes_bound_every_arrangement() {
        for board in [
            Board::classic(),
            Board::new(3, 5, false).unwrap(),
            Board::new(5, 3, true).unwrap(),
            Board::new(2, 4, true).unwrap(),
        ] {
            let codes = Codes::new(board);
            let candidates: Vec<u32> = (0..codes.len()).filter(|i| i % 3 != 1).collect();
            let secrets = codes.gather(&candidates);
            let multisets = codes.secret_multisets(&secrets);
            let mut seen = vec![false; codes.len() as usize];
            for id in 0..codes.multiset_count() {
                let shared = codes.coarse_classes(codes.multisets[id].0, multisets);
                for &g in codes.multiset_codes(id) {
                    assert!(!std::mem::replace(&mut seen[g as usize], true));
                    let coarse = codes.coarse_classes(codes.bits[g as usize].counts, multisets);
                    assert_eq!(coarse, shared);
                    if candidates.binary_search(&g).is_err() {
                        check_outsider(&codes, g, &candidates, &coarse);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "every code is in a multiset");
        }
    }

    /// `g`'s answer classes lie inside its coarse classes, at most their capacity each.
    fn check_outsider(codes: &Codes, g: u32, candidates: &[u32], coarse: &Coarse) {
        let (board, pegs) = (codes.board(), codes.board().pegs());
        let classes = codes.classes(g, candidates);
        let (mut sizes, mut answers) = ([0u32; 9], [0usize; 9]);
        for (a, &size) in classes.iter().enumerate().take(answer_count(pegs)) {
            let f = Feedback::from_index(a, pegs).unwrap();
            let shared = usize::from(f.black + f.white);
            sizes[shared] += size;
            answers[shared] += usize::from(size > 0);
        }
        assert_eq!(&sizes, coarse, "{}", board.display(codes.code(g)));
        for (shared, &count) in answers.iter().enumerate().take(pegs + 1) {
            assert!(count <= coarse_capacity(pegs, shared));
        }
    }

    #[test]
    fn even_splits() {
        let square = |c: u32| u64::from(c * c);
        assert_eq!(even_split(10, 3, square), 16 + 9 + 9);
        assert_eq!(even_split(0, 0, square), 0);
        assert_eq!(even_split(1, 0, square), u64::MAX);
        assert_eq!(even_split(2, 5, square), 2);
    }
}
