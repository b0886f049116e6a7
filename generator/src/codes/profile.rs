//! A small set's colour profile: its secrets' colour multisets, with the colours
//! renamed in an order the set itself gives. The least multiset floor
//! ([`Codes::least_multiset_floor`]) depends on nothing else: a floor counts the
//! secrets by the pegs they share with a guess's colours, whatever the order of
//! either's pegs, and renaming the colours maps the board's multisets onto
//! themselves. So two sets with one profile have one least floor, and a search that
//! meets the same profile in many small sets looks its floor up instead of
//! scanning the multisets again (`exact`'s floor memo). In a 5x8 item, a quarter of
//! the scans' work was on a profile scanned before; keyed by the colours as they
//! are, without the renaming, a sixth.
//!
//! The order is the colours by how many pegs of the set have them, then by how many
//! secrets, then by the sum of the squares of their counts, from the most; a tie
//! keeps the colours' own order. That is no canonical form: two sets alike up to a
//! renaming of tied colours can get different profiles, and only miss each other.
//! But equal profiles always mean sets that are one renaming apart, so a hit is
//! always right.

use super::{Codes, Secrets};

/// The most secrets a profile is made for: larger sets rarely repeat one, and
/// their scans are few.
pub const PROFILE_UP_TO: usize = 16;

/// See the module docs: comparable and hashable, for a memo's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Each secret's count of each colour, 4 bits a colour in the renamed order
    /// (at most 16 colours of at most 8 pegs), ascending; the first `len` are the
    /// set's, the rest 0.
    counts: [u64; PROFILE_UP_TO],
    len: u8,
}

impl Codes {
    /// The profile of `secrets`, if it has at most [`PROFILE_UP_TO`] of them.
    pub fn profile(&self, secrets: &Secrets) -> Option<Profile> {
        if secrets.len() > PROFILE_UP_TO {
            return None;
        }
        let (pegs, colors) = (self.board.pegs(), self.board.colors());
        let one_colour = (1u128 << pegs) - 1;
        // Each distinct multiset's colour counts, and each colour's place in the
        // order: (pegs, secrets, squares) summed over the secrets.
        let multisets = self.secret_multisets(secrets);
        let mut each = [[0u8; 16]; PROFILE_UP_TO];
        let mut order = [(0u32, 0u32, 0u32, 0usize); 16];
        for (c, key) in order.iter_mut().enumerate() {
            key.3 = c;
        }
        for (&(bits, n), counts) in multisets.iter().zip(each.iter_mut()) {
            for (c, count) in counts.iter_mut().enumerate().take(colors) {
                let k = ((bits >> (c * pegs)) & one_colour).count_ones();
                *count = k as u8;
                let key = &mut order[c];
                key.0 += n * k;
                key.1 += n * u32::from(k > 0);
                key.2 += n * k * k;
            }
        }
        let order = &mut order[..colors];
        order.sort_unstable_by(|a, b| (b.0, b.1, b.2, a.3).cmp(&(a.0, a.1, a.2, b.3)));
        let mut profile = Profile {
            counts: [0; PROFILE_UP_TO],
            len: secrets.len() as u8,
        };
        let mut filled = 0;
        for (&(_, n), counts) in multisets.iter().zip(&each) {
            let renamed = (order.iter().enumerate()).fold(0u64, |key, (at, c)| {
                key | u64::from(counts[c.3]) << (4 * at)
            });
            profile.counts[filled..filled + n as usize].fill(renamed);
            filled += n as usize;
        }
        profile.counts[..filled].sort_unstable();
        Some(profile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lookup::{Board, Code};

    /// A floor that tells coarse classes apart: squares, weighted by shared pegs.
    fn spread(shared: usize, c: u32) -> u64 {
        (shared as u64 + 1) * u64::from(c * c)
    }

    /// The least floor of `set`, every multiset scanned (asked with `enough` 0).
    fn least(codes: &Codes, set: &[u32]) -> u64 {
        codes.least_multiset_floor(&codes.gather(set), 0, &mut 0, spread)
    }

    /// `set` with its colours renamed by `rename` (colour c becomes rename[c]),
    /// sorted.
    fn renamed(codes: &Codes, set: &[u32], rename: &[u8]) -> Vec<u32> {
        let board = codes.board();
        let pegs = board.pegs();
        let mut out: Vec<u32> = (set.iter())
            .map(|&i| {
                let code = board.code(i).unwrap();
                let colours: Vec<u8> = (0..pegs)
                    .map(|p| rename[code.color(pegs, p) as usize])
                    .collect();
                board.index(Code::from_colors(&colours)).unwrap()
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Sets one renaming of colours apart, with their pegs in another order too,
    /// have one least floor; sets with equal profiles (by the order's ties, some
    /// of them are renamings) have one least floor; a set with a colour's count
    /// changed gets another profile; and sets of more than [`PROFILE_UP_TO`]
    /// secrets get none. On 5x8 (colours repeat) and on 4 of 8 without repeats.
    #[test]
    fn equal_profiles_have_equal_floors() {
        for board in [
            Board::new(5, 8, true).unwrap(),
            Board::new(4, 8, false).unwrap(),
        ] {
            let codes = Codes::new(board);
            let all = codes.len();
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let mut by_profile = std::collections::HashMap::new();
            let mut hits = 0;
            for round in 0..400 {
                let n = 1 + round % PROFILE_UP_TO;
                // A few colours only, so that profiles repeat.
                let colours = 2 + (next() % 4) as u8;
                let mut set: Vec<u32> = (0..n)
                    .map(|_| next() as u32 % all)
                    .filter(|&i| {
                        let code = board.code(i).unwrap();
                        (0..board.pegs()).all(|p| code.color(board.pegs(), p) < colours)
                    })
                    .collect();
                set.sort_unstable();
                set.dedup();
                if set.is_empty() {
                    continue;
                }
                let floor = least(&codes, &set);
                let mut rename: Vec<u8> = (0..board.colors() as u8).collect();
                for i in (1..rename.len()).rev() {
                    rename.swap(i, next() as usize % (i + 1));
                }
                assert_eq!(least(&codes, &renamed(&codes, &set, &rename)), floor);
                // Each secret's pegs in another order: the same profile.
                let mut shuffled: Vec<u32> = (set.iter())
                    .map(|&i| {
                        let code = board.code(i).unwrap();
                        let mut colours: Vec<u8> = (0..board.pegs())
                            .map(|p| code.color(board.pegs(), p))
                            .collect();
                        colours.rotate_left(next() as usize % board.pegs());
                        board.index(Code::from_colors(&colours)).unwrap()
                    })
                    .collect();
                shuffled.sort_unstable();
                let profile = |set: &[u32]| codes.profile(&codes.gather(set)).unwrap();
                assert_eq!(profile(&shuffled), profile(&set));
                if let Some(before) = by_profile.insert(profile(&set), floor) {
                    hits += 1;
                    assert_eq!(before, floor, "{} {set:?}", board.name());
                }
            }
            assert!(hits > 20, "{} profiles repeated {hits} times", board.name());
            // Two secrets sharing all colours but one, and two sharing fewer:
            // other profiles.
            let (pegs, colors) = (board.pegs() as u8, board.colors() as u8);
            let index = |colours: Vec<u8>| board.index(Code::from_colors(&colours)).unwrap();
            let first = index((0..pegs).collect());
            let near = index((0..pegs - 1).chain([pegs]).collect());
            let far = index((colors - pegs..colors).collect());
            let profile = |a: u32, b: u32| {
                let set = [a.min(b), a.max(b)];
                codes.profile(&codes.gather(&set[..1 + usize::from(a != b)]))
            };
            assert_ne!(profile(first, near), profile(first, far));
            // A colour's count matters, not only whether a secret has it.
            if board.repeat() {
                let (a, b) = (index(vec![0, 0, 0, 1, 1]), index(vec![0, 0, 0, 0, 1]));
                assert_ne!(profile(a, a), profile(b, b));
            }
            let big: Vec<u32> = (0..=PROFILE_UP_TO as u32).collect();
            assert_eq!(codes.profile(&codes.gather(&big)), None);
        }
    }
}
