//! Codes that are not candidates can often be ruled out a whole colour multiset at
//! a time ([`Codes::promising_multisets`]): the shared pegs (black + white) of a
//! guess and a secret depend only on the guess's colours, not on their order, so
//! one count of the secrets by shared pegs bounds every arrangement of those
//! colours. With the even splits of [`even_split`], these are the pruning bounds
//! both searches share; the hot loop they prune is in the parent module.

use super::{packed_width, Codes, Guess, Secrets};
use rayon::prelude::*;

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

impl Codes {
    /// How many colour multisets the codes have.
    pub fn multiset_count(&self) -> usize {
        self.multisets.len()
    }

    /// Where multiset `id`'s codes and bits are.
    fn multiset_range(&self, id: usize) -> std::ops::Range<usize> {
        self.starts[id] as usize..self.starts[id + 1] as usize
    }

    /// The codes with the colours of multiset `id`, ascending.
    pub fn multiset_codes(&self, id: usize) -> &[u32] {
        &self.order[self.multiset_range(id)]
    }

    /// The codes of multiset `id` that are not among `secrets`, ascending, ready
    /// to score (their bits read in order): each is looked up among the few
    /// secrets of its own multiset only.
    pub fn outsiders<'s>(
        &'s self,
        id: usize,
        secrets: &'s Secrets,
    ) -> impl Iterator<Item = Guess> + 's {
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
        let range = self.multiset_range(id);
        (self.order[range.clone()].iter().zip(range))
            .map(|(&code, slot)| Guess {
                code,
                slot: slot as u32,
            })
            .filter(move |g| inside.binary_search_by_key(&g.code, |&(_, s)| s).is_err())
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
        let packed = self.packed_multisets(secrets);
        let usable: Vec<usize> = (0..self.multiset_count())
            .filter(|&id| self.multisets[id].1 & !alphabet == 0)
            .collect();
        // A block of multisets counted at once, then floored one by one.
        let floors = |block: &[usize]| -> Vec<(usize, u64)> {
            let mut coarse = [[0; 9]; 64];
            let coarse = &mut coarse[..block.len()];
            let colours = |i: usize| self.multisets[block[i]].0;
            self.coarse_block(colours, multisets, packed.as_ref(), coarse);
            (block.iter().zip(coarse.iter()))
                .map(|(&id, coarse)| (id, floor_of(coarse)))
                .filter(|&(_, floor)| floor < below)
                .collect()
        };
        let kept = if usable.len() * secrets.len() > crate::PARALLEL_WORK {
            usable.par_chunks(64).flat_map_iter(floors).collect()
        } else {
            usable.chunks(64).flat_map(floors).collect()
        };
        let counted = usable.len() * multisets.len();
        (kept, counted as u64)
    }

    /// The least floor of every colour multiset's codes, so of every code outside
    /// `secrets` (a floor for a multiset whose codes are all secrets bounds nothing,
    /// and only lowers the least): the sum over the coarse classes the codes share
    /// of `spread(shared pegs, secrets)`, which must grow with the secrets. As soon
    /// as some multiset's floor is at most `enough`, that floor (the least is not
    /// above `enough` then). Adds the pairs scored to `work`.
    ///
    /// Only the multisets of `telling_colours` are scanned: a colour no
    /// secret has shares no peg with any, so a multiset with such colours has the
    /// floor of the one with the first of them in their place (5x8's sets deep in a
    /// tree often lack several colours). The others are left out a word of 64 at a
    /// time (`with_colour`), with no test per multiset (5x8 searched 12% more
    /// positions in the same CPU than with a test: BENCHMARKS.md, tuning).
    pub fn least_multiset_floor(
        &self,
        secrets: &Secrets,
        enough: u64,
        work: &mut u64,
        spread: impl Fn(usize, u32) -> u64,
    ) -> u64 {
        match self.board.pegs() {
            4 => self.least_floor::<4>(secrets, enough, work, spread),
            5 => self.least_floor::<5>(secrets, enough, work, spread),
            6 => self.least_floor::<6>(secrets, enough, work, spread),
            _ => self.least_floor::<0>(secrets, enough, work, spread),
        }
    }

    /// [`Codes::least_multiset_floor`] for boards of `PEGS` pegs, any board's with
    /// `PEGS` 0: a floor is a sum over the shared-peg counts, and with their number
    /// known the sum is laid out term by term (a loop over a number known only at
    /// run time was half the scan's time on 5x8: BENCHMARKS.md, tuning).
    #[inline(always)]
    fn least_floor<const PEGS: usize>(
        &self,
        secrets: &Secrets,
        enough: u64,
        work: &mut u64,
        spread: impl Fn(usize, u32) -> u64,
    ) -> u64 {
        let multisets = self.secret_multisets(secrets);
        let pegs = match PEGS {
            0 => self.board.pegs(),
            known => known,
        };
        let packed = self.packed_multisets(secrets);
        let telling = self.telling_colours(secrets);
        let count = self.spread_first.len();
        let words = count.div_ceil(64);
        let (mut guesses, mut counts) = ([0u64; 64], [0u64; 64]);
        let mut least = u64::MAX;
        for word in 0..words {
            let mut kept = match (word + 1) * 64 > count {
                true => (1 << (count % 64)) - 1,
                false => u64::MAX,
            };
            for c in (0..self.board.colors()).filter(|c| telling & 1 << c == 0) {
                kept &= !self.with_colour[c * words + word];
            }
            if let Some(packed) = &packed {
                // The word's multisets counted at once, then floored one by one.
                let mut scanned = 0;
                while kept != 0 {
                    guesses[scanned] =
                        self.spread_first[word * 64 + kept.trailing_zeros() as usize] as u64;
                    scanned += 1;
                    kept &= kept - 1;
                }
                let counts = &mut counts[..scanned];
                let width = packed.width;
                count_shared(
                    &guesses[..scanned],
                    &packed.bits,
                    &packed.weights,
                    width,
                    counts,
                );
                let mask = (1 << width) - 1;
                for &packed_counts in counts.iter() {
                    *work += multisets.len() as u64;
                    let floor = floor_of(pegs, &spread, |shared| {
                        ((packed_counts >> (width * shared as u64)) & mask) as u32
                    });
                    least = least.min(floor);
                    if least <= enough {
                        return least;
                    }
                }
                continue;
            }
            while kept != 0 {
                let colours = self.spread_first[word * 64 + kept.trailing_zeros() as usize];
                kept &= kept - 1;
                *work += multisets.len() as u64;
                let coarse = self.coarse_classes(colours, multisets);
                least = least.min(floor_of(pegs, &spread, |shared| coarse[shared]));
                if least <= enough {
                    return least;
                }
            }
        }
        least
    }

    /// The secrets' multisets side by side for [`count_shared`], if every count
    /// fits in its field: on narrow boards, with fewer secrets than `2^width`.
    fn packed_multisets(&self, secrets: &Secrets) -> Option<Packed> {
        let width = packed_width(self.board.pegs());
        if !self.narrow || secrets.len() >= 1 << width {
            return None;
        }
        let (bits, weights) = (self.secret_multisets(secrets).iter())
            .map(|&(bits, n)| (bits as u64, u64::from(n)))
            .unzip();
        Some(Packed {
            bits,
            weights,
            width: width as u64,
        })
    }

    /// The coarse classes ([`Codes::coarse_classes`]) of the guesses whose
    /// colours are `colours(i)` for each `i` of `coarse` (at most 64 of them),
    /// against the secrets' `multisets`: counted in one block by
    /// [`count_shared`] where they are `packed`.
    fn coarse_block(
        &self,
        colours: impl Fn(usize) -> u128,
        multisets: &[(u128, u32)],
        packed: Option<&Packed>,
        coarse: &mut [Coarse],
    ) {
        let Some(packed) = packed else {
            for (i, coarse) in coarse.iter_mut().enumerate() {
                *coarse = self.coarse_classes(colours(i), multisets);
            }
            return;
        };
        let (mut guesses, mut counts) = ([0u64; 64], [0u64; 64]);
        let block = coarse.len();
        for (i, guess) in guesses[..block].iter_mut().enumerate() {
            *guess = colours(i) as u64;
        }
        let (bits, weights, width) = (&packed.bits, &packed.weights, packed.width);
        count_shared(
            &guesses[..block],
            bits,
            weights,
            width,
            &mut counts[..block],
        );
        let mask = (1 << width) - 1;
        for (coarse, &counts) in coarse.iter_mut().zip(&counts[..block]) {
            *coarse = std::array::from_fn(|shared| match shared <= self.board.pegs() {
                true => ((counts >> (width * shared as u64)) & mask) as u32,
                false => 0,
            });
        }
    }

    /// The colours that can tell codes' floors apart against `secrets` (bit c for
    /// colour c): the secrets' own, and the first of the others, as many of them as
    /// a code can hold (one where colours repeat, whose pegs then stand for any mix
    /// of colours no secret has; as many as the pegs where they do not).
    fn telling_colours(&self, secrets: &Secrets) -> u16 {
        let own = (secrets.indices.iter()).fold(0u16, |m, &s| {
            m | self.multisets[self.multiset_of[s as usize] as usize].1
        });
        let stand_ins = match self.board.repeat() {
            true => 1,
            false => self.board.pegs(),
        };
        (0..self.board.colors())
            .filter(|&c| own & 1 << c == 0)
            .take(stand_ins)
            .fold(own, |m, c| m | 1 << c)
    }

    /// Lays out `secrets` in `layout` (its room reused), grouped by the pegs they
    /// share with multiset `id`'s codes.
    pub fn by_shared(&self, id: usize, secrets: &Secrets, layout: &mut ByShared) {
        let colours = self.multisets[id].0;
        let shared = |s: u32| (colours & self.bits_of(s).counts).count_ones() as usize;
        // A counting sort: how many secrets share each count, then where each goes.
        let mut ends = [0usize; 10];
        for &s in secrets.indices {
            ends[shared(s) + 1] += 1;
        }
        for k in 1..ends.len() {
            ends[k] += ends[k - 1];
        }
        layout.groups.clear();
        layout.groups.extend(
            (0..9)
                .filter(|&k| ends[k + 1] > ends[k])
                .map(|k| (k, ends[k + 1])),
        );
        let (wide, narrow) = (&mut layout.places, &mut layout.narrow_places);
        wide.clear();
        narrow.clear();
        match self.narrow {
            true => narrow.resize(secrets.len(), 0),
            false => wide.resize(secrets.len(), 0),
        }
        for &s in secrets.indices {
            let slot = &mut ends[shared(s)];
            let places = self.bits_of(s).places;
            match self.narrow {
                true => narrow[*slot] = places as u64,
                false => wide[*slot] = places,
            }
            *slot += 1;
        }
    }

    /// Counts the classes of `guess` (a code of the multiset `layout` was made for)
    /// a group at a time: after each group, `keep_going(its classes by black pegs)`
    /// may end the count by returning false; then the result is false.
    /// Adds the pairs scored to `work` (a group that shares no peg is not scored).
    #[inline]
    pub fn count_by_shared(
        &self,
        guess: Guess,
        layout: &ByShared,
        work: &mut u64,
        mut keep_going: impl FnMut(&[u32]) -> bool,
    ) -> bool {
        let places = self.bits[guess.slot as usize].places;
        let width = packed_width(self.board.pegs());
        let mut start = 0;
        for &(shared, end) in &layout.groups {
            // Black pegs are at most 8: masked to 15, the index needs no check.
            let mut blacks = [0u32; 16];
            if shared == 0 {
                // A secret with none of the guess's colours answers it with no peg:
                // its group is one class, with nothing to score.
                blacks[0] = (end - start) as u32;
            } else if self.narrow && end - start < 1 << width {
                let group = &layout.narrow_places[start..end];
                let counts = count_blacks(places as u64, group, width as u64);
                for (black, count) in blacks.iter_mut().enumerate().take(shared + 1) {
                    *count = (counts >> (width * black)) as u32 & ((1 << width) - 1);
                }
            } else if self.narrow {
                for &secret in &layout.narrow_places[start..end] {
                    blacks[((places as u64 & secret).count_ones() & 15) as usize] += 1;
                }
            } else {
                for &secret in &layout.places[start..end] {
                    blacks[((places & secret).count_ones() & 15) as usize] += 1;
                }
            }
            if shared > 0 {
                *work += (end - start) as u64;
            }
            start = end;
            if !keep_going(&blacks[..=shared]) {
                return false;
            }
        }
        true
    }

    /// How many secrets have each of the secrets' distinct colour multisets. A
    /// guess shares as many pegs with each secret of one multiset, so those secrets
    /// stay in one of its coarse classes.
    pub fn multiset_sizes<'s>(&self, secrets: &'s Secrets) -> impl Iterator<Item = u32> + 's {
        self.secret_multisets(secrets).iter().map(|&(_, n)| n)
    }

    /// The secrets' distinct colour multisets (their `counts` bits), each with how
    /// many secrets have it: enough to count shared pegs.
    pub(super) fn secret_multisets<'s>(&self, secrets: &'s Secrets) -> &'s [(u128, u32)] {
        secrets.multisets.get_or_init(|| {
            let mut counts: Vec<u128> = (secrets.indices.iter())
                .map(|&s| self.bits_of(s).counts)
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
}

/// The secrets laid out for scoring the codes of one colour multiset: grouped by
/// the pegs they share with it (the same for every arrangement of its colours), so
/// that scoring a code needs only its black pegs, and a scan can close a group's
/// classes as soon as the group is done ([`Codes::count_by_shared`]).
#[derive(Default)]
pub struct ByShared {
    /// The secrets' `places` bits, group by group, on a board whose bits do not
    /// fit 64-bit words ...
    places: Vec<u128>,
    /// ... and on one whose bits do.
    narrow_places: Vec<u64>,
    /// Each group: the shared pegs and where its secrets end in `places`.
    groups: Vec<(usize, usize)>,
}

impl ByShared {
    /// Each group's shared pegs and number of secrets, in scan order.
    pub fn groups(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let starts = std::iter::once(0).chain(self.groups.iter().map(|&(_, end)| end));
        (self.groups.iter().zip(starts))
            .map(|(&(shared, end), start)| (shared, (end - start) as u32))
    }
}

/// The secrets' colour multisets laid out for [`count_shared`]: their bits, how
/// many secrets have each, and the bits a count takes.
struct Packed {
    bits: Vec<u64>,
    weights: Vec<u64>,
    width: u64,
}

/// For each guess's `counts` bits in `guesses`, its secrets counted by the pegs
/// they share with it, in `counts`: `width` bits a count in one register (adding
/// to an array in memory made each add wait for the one before whenever two
/// landed on one count), secret multiset `i` (its bits `secrets[i]`) counting
/// `weights[i]` secrets. The sum must stay below `2^width` a count.
///
/// A block of guesses at a time, one secret multiset over all of them, so the
/// loop is one vector operation a lane per guess where the CPU has vector
/// population counts; compiled for those too, the fastest picked at run time
/// (the multiversion crate). On 5x8 the multisets' scan was two thirds of a deep
/// search's time (BENCHMARKS.md, "the multisets' scan in blocks").
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx512vpopcntdq+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
    "x86_64+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
))]
fn count_shared(guesses: &[u64], secrets: &[u64], weights: &[u64], width: u64, counts: &mut [u64]) {
    counts.fill(0);
    for (&secret, &weight) in secrets.iter().zip(weights) {
        for (count, &guess) in counts.iter_mut().zip(guesses) {
            *count += weight << (width * u64::from((guess & secret).count_ones()));
        }
    }
}

/// How many of `secrets` (a group's `places` bits) get each count of black pegs
/// from the guess whose bits are `places`: `width` bits a count in one register,
/// as in [`count_shared`], so the sum must stay below `2^width` a count. A lane
/// per secret where the CPU has vector population counts (compiled for those
/// too, the fastest picked at run time); one by one, with the unit of each count
/// looked up, each add waited on the one before (BENCHMARKS.md).
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx512vpopcntdq+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
    "x86_64+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
))]
fn count_blacks(places: u64, secrets: &[u64], width: u64) -> u64 {
    (secrets.iter())
        .map(|&secret| 1 << (width * u64::from((places & secret).count_ones())))
        .sum()
}

/// The sum over the shared-peg counts 0 to `pegs` of `spread(shared, count(shared))`:
/// every term, with no test between them. Stopping the sum once it reached the
/// least floor so far saved table loads but cost a mispredicted branch at nearly
/// every multiset (where the sum passes the least varies): 5x6 on one thread
/// 194.1 s with the stop, 183.3 s without, side by side (BENCHMARKS.md, tuning).
fn floor_of(pegs: usize, spread: &impl Fn(usize, u32) -> u64, count: impl Fn(usize) -> u32) -> u64 {
    (0..pegs + 1)
        .map(|shared| spread(shared, count(shared)))
        .sum()
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
    use lookup::score::{answer_count, Feedback, ScoreBits};
    use lookup::Board;

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
                // The outsiders, read in the multisets' order, carry their own bits.
                let outsiders: Vec<Guess> = codes.outsiders(id, &secrets).collect();
                let expected: Vec<u32> = (codes.multiset_codes(id).iter().copied())
                    .filter(|g| candidates.binary_search(g).is_err())
                    .collect();
                assert_eq!(
                    outsiders.iter().map(|g| g.code).collect::<Vec<_>>(),
                    expected
                );
                for g in outsiders {
                    let plain = ScoreBits::of(codes.code(g.code), board.pegs(), board.colors());
                    assert_eq!(codes.bits[g.slot as usize], plain);
                }
                let shared = codes.coarse_classes(codes.multisets[id].0, multisets);
                for &g in codes.multiset_codes(id) {
                    assert!(!std::mem::replace(&mut seen[g as usize], true));
                    let coarse = codes.coarse_classes(codes.bits_of(g).counts, multisets);
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

    /// Against the slow reference (every multiset's floor, the least of them), on
    /// sets with every colour and sets that lack some, where colours repeat and
    /// where they do not: the scan of the telling colours' multisets finds the same
    /// least, and scans fewer exactly when the secrets lack colours; the
    /// multisets kept under a limit are those whose floor is below it.
    #[test]
    fn multiset_floors_are_those_of_every_multiset() {
        // A floor that tells coarse classes apart: squares, weighted.
        let spread = |shared: usize, c: u32| (shared as u64 + 1) * u64::from(c * c);
        let floor_of = |coarse: &Coarse| (0..9).map(|s| spread(s, coarse[s])).sum::<u64>();
        // Counts packed in a register (4x5, 4 of 10 without repeats), and in an array
        // (5 of 13 colours, whose bits do not fit 64).
        let packed = Codes::new(Board::new(4, 5, true).unwrap());
        let distinct = Codes::new(Board::new(4, 10, false).unwrap());
        let wide = Codes::new(Board::new(5, 13, true).unwrap());
        assert!(packed.narrow && distinct.narrow && !wide.narrow);
        // Six pegs, and three (a number of pegs the scan has no layout of its own for).
        let six = Codes::new(Board::new(6, 4, true).unwrap());
        let three = Codes::new(Board::new(3, 7, true).unwrap());
        // Super Mastermind, whose deep sets the scan in blocks was made for.
        let super_mm = Codes::new(Board::new(5, 8, true).unwrap());
        // Every `step`th code whose colours are all below `below`.
        let cases = [
            (&packed, 3, 5),
            (&packed, 7, 5),
            (&packed, 29, 5),
            (&packed, 1, 3),
            (&packed, 5, 4),
            (&distinct, 3, 10),
            (&distinct, 2, 6),
            (&distinct, 1, 5),
            (&wide, 997, 13),
            (&wide, 97, 9),
            (&six, 5, 4),
            (&six, 2, 2),
            (&three, 2, 7),
            (&three, 1, 4),
            (&super_mm, 37, 8),
            (&super_mm, 11, 6),
            (&super_mm, 1, 3),
        ];
        for (codes, step, below) in cases {
            let (board, pegs) = (codes.board(), codes.board().pegs());
            let candidates: Vec<u32> = (0..codes.len())
                .filter(|&i| (0..pegs).all(|p| board.code(i).unwrap().color(pegs, p) < below as u8))
                .step_by(step)
                .collect();
            let secrets = codes.gather(&candidates);
            let multisets = codes.secret_multisets(&secrets);
            let plain = (0..codes.multiset_count())
                .map(|id| floor_of(&codes.coarse_classes(codes.multisets[id].0, multisets)))
                .min()
                .unwrap();
            let mut work = 0;
            assert_eq!(
                codes.least_multiset_floor(&secrets, 0, &mut work, spread),
                plain,
                "{} below {below}",
                board.name()
            );
            let every = (codes.multiset_count() * multisets.len()) as u64;
            let present = candidates.iter().fold(0u16, |m, &i| {
                m | (0..pegs).fold(0, |m, p| m | 1 << board.code(i).unwrap().color(pegs, p))
            });
            let absent = board.colors() - present.count_ones() as usize;
            let stand_ins = if board.repeat() { 1 } else { pegs };
            let fewer = absent > stand_ins;
            assert_eq!(work < every, fewer, "{} below {below}", board.name());
            // Asked only whether the least is above `enough`: a floor at most that.
            for enough in [plain, plain + 1, 2 * plain] {
                let early = codes.least_multiset_floor(&secrets, enough, &mut work, spread);
                assert!(plain <= early && early <= enough, "{early} for {enough}");
            }
            // The multisets kept under a limit, counted in blocks: those of the
            // alphabet whose plain floor is below it, in order.
            for (alphabet, below) in [(u16::MAX, plain + 1), (u16::MAX, 2 * plain), (7, 3 * plain)]
            {
                let kept: Vec<(usize, u64)> = (0..codes.multiset_count())
                    .filter(|&id| codes.multisets[id].1 & !alphabet == 0)
                    .map(|id| {
                        (
                            id,
                            floor_of(&codes.coarse_classes(codes.multisets[id].0, multisets)),
                        )
                    })
                    .filter(|&(_, floor)| floor < below)
                    .collect();
                assert!(!kept.is_empty() || alphabet != u16::MAX);
                let (blocks, _) = codes.promising_multisets(&secrets, alphabet, below, floor_of);
                assert_eq!(blocks, kept, "{} below {below}", board.name());
            }
        }
    }

    /// Shared pegs counted a block of guesses at a time, by whichever build of
    /// `count_shared` this CPU runs, are those of the plain count, one guess at a
    /// time: for blocks of 1 to 64 of 5x8's multisets (their bits fit 64) and
    /// secrets of up to the most a packed count holds.
    #[test]
    fn shared_pegs_counted_in_blocks_are_the_plain_counts() {
        // Which build of `count_shared` runs follows from these (scripts/test-dispatch.sh
        // runs this test as CPUs without them).
        #[cfg(target_arch = "x86_64")]
        println!(
            "count_shared: avx2 {}, avx512vpopcntdq {}",
            std::arch::is_x86_feature_detected!("avx2"),
            std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        );
        let codes = Codes::new(Board::new(5, 8, true).unwrap());
        let width = packed_width(5);
        let all: Vec<u64> = codes.spread_first.iter().map(|&b| b as u64).collect();
        for step in [1, 7, 61] {
            let secrets: Vec<u64> = all.iter().step_by(step).take(40).copied().collect();
            // The first multiset fills a count to the most a packed count holds.
            let mut weights: Vec<u64> = (0..secrets.len() as u64).map(|i| i % 3 + 1).collect();
            weights[0] = (1 << width) - 1 - weights[1..].iter().sum::<u64>();
            for block in [1, 13, 64] {
                for guesses in all.chunks(block) {
                    let mut counts = vec![u64::MAX; guesses.len()];
                    count_shared(guesses, &secrets, &weights, width as u64, &mut counts);
                    for (&guess, &packed) in guesses.iter().zip(&counts) {
                        let mut plain = [0u64; 6];
                        for (&secret, &w) in secrets.iter().zip(&weights) {
                            plain[(guess & secret).count_ones() as usize] += w;
                        }
                        let unpacked: Vec<u64> = (0..6)
                            .map(|shared| (packed >> (width * shared)) & ((1 << width) - 1))
                            .collect();
                        assert_eq!(unpacked, plain, "guess {guess:#x}, step {step}");
                    }
                }
            }
        }
    }

    /// Each group's counts by black pegs are those of the plain scoring, where a
    /// group's counts fit one word (4x6), where some do not (8 pegs of 3 colours:
    /// 7 bits a count, groups of hundreds) and where the bits are wide (5x13).
    #[test]
    fn counts_by_shared_pegs_are_the_plain_scorings() {
        for (board, step) in [
            (Board::classic(), 5),
            (Board::new(8, 3, true).unwrap(), 2),
            (Board::new(5, 13, true).unwrap(), 311),
        ] {
            let codes = Codes::new(board);
            let pegs = board.pegs();
            let candidates: Vec<u32> = (0..codes.len()).step_by(step).collect();
            let secrets = codes.gather(&candidates);
            let mut layout = ByShared::default();
            let (mut packed_groups, mut wide_groups) = (false, false);
            for id in (0..codes.multiset_count()).step_by(7) {
                codes.by_shared(id, &secrets, &mut layout);
                let sizes: Vec<(usize, u32)> = layout.groups().collect();
                packed_groups |= sizes.iter().any(|&(_, n)| n < 1 << packed_width(pegs));
                wide_groups |= sizes.iter().any(|&(_, n)| n >= 1 << packed_width(pegs));
                for &g in codes.multiset_codes(id).iter().step_by(3) {
                    let plain = codes.classes(g, &candidates);
                    let mut expected = [[0u32; 9]; 9];
                    for (a, &size) in plain.iter().enumerate().take(answer_count(pegs)) {
                        let f = Feedback::from_index(a, pegs).unwrap();
                        expected[usize::from(f.black + f.white)][usize::from(f.black)] += size;
                    }
                    let (mut group, mut work) = (0, 0);
                    let all = codes.count_by_shared(codes.guess(g), &layout, &mut work, |blacks| {
                        let shared = sizes[group].0;
                        assert_eq!(
                            blacks,
                            &expected[shared][..=shared],
                            "{}",
                            board.display(codes.code(g))
                        );
                        group += 1;
                        true
                    });
                    assert!(all && group == sizes.len());
                    // Secrets that share no peg with the guess need no scoring.
                    let scored = sizes.iter().filter(|&&(shared, _)| shared > 0);
                    assert_eq!(work, scored.map(|&(_, n)| u64::from(n)).sum::<u64>());
                }
            }
            assert!(packed_groups, "{}", board.name());
            assert_eq!(wide_groups, pegs == 8, "{}", board.name());
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
