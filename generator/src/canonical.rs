//! Cache keys that candidate sets equivalent under symmetry often share.
//!
//! Permuting the pegs and relabelling the colours maps every code of a board to a
//! code of the board and keeps every score, so a candidate set and its image need
//! the same number of guesses (the guess pool, every code or the candidates, maps
//! onto itself). The exact search meets many such pairs under different histories,
//! so keyed by [`key`] it searches far fewer sets (BENCHMARKS.md, tuning).
//!
//! [`key`] maps a set to one of its images, chosen from what the set looks like,
//! not from how it is labelled: pegs and present colours are put in the order of
//! signatures that do not depend on the labels, and the image is the set seen in
//! that order. The key is always an image of the set, so two sets with the same key
//! are equivalent, whatever the signatures are: a signature tie (broken by label)
//! or collision can only cost a cache hit, never a wrong result. Trying every
//! order a tie leaves for the smallest image would find a few more hits, but on the
//! classic optimum it cost far more than the hits saved.
//!
//! The signatures come from the counts of each colour at each peg, the way graph
//! canonisers start: a peg's is the multiset of its colours' counts, a colour's the
//! multiset of its counts at each kind of peg. Each multiset is summed through a
//! mixing function, so no sorting is needed. (Refining them once more found fewer
//! hits than it cost.)

use crate::relabel::{column_counts, peg, Relabel};

/// Mixes a signature with a count into a value whose sums over a multiset of pairs
/// tell multisets apart, barring collisions (splitmix64's finaliser).
pub(crate) fn mix(signature: u64, count: u32) -> u64 {
    let mut z = signature ^ u64::from(count).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Labels (pegs or colours) with their signatures, in the order of the signatures
/// (ties by label).
type Ranked = Vec<(u64, u8)>;

/// The pegs and the present colours of `set` (packed codes of a board with `pegs`
/// pegs), ranked.
fn signatures(set: impl Iterator<Item = u32>, pegs: usize) -> (Ranked, Ranked) {
    let counts = column_counts(set, pegs);
    let present: Vec<u8> = (0..16u8)
        .filter(|&c| (0..pegs).any(|j| counts[j][usize::from(c)] > 0))
        .collect();
    let mut peg_sigs: Ranked = (0..pegs)
        .map(|j| {
            let sig = (present.iter())
                .map(|&c| mix(0, counts[j][usize::from(c)]))
                .fold(0, u64::wrapping_add);
            (sig, j as u8)
        })
        .collect();
    let mut color_sigs: Ranked = (present.iter())
        .map(|&c| {
            let sig = (peg_sigs.iter())
                .map(|&(peg_sig, j)| mix(peg_sig, counts[usize::from(j)][usize::from(c)]))
                .fold(0, u64::wrapping_add);
            (sig, c)
        })
        .collect();
    peg_sigs.sort_unstable();
    color_sigs.sort_unstable();
    (peg_sigs, color_sigs)
}

/// The image of `set` (packed codes of a board with `pegs` pegs, any order) that
/// stands for the sets equivalent to it, as packed codes, ascending, in `image`.
pub fn key(set: impl Iterator<Item = u32> + Clone, pegs: usize, image: &mut Vec<u32>) {
    let (peg_order, color_order) = signatures(set.clone(), pegs);
    // places[j][c]: what colour c at peg j becomes in the image, in place.
    let mut places = [[0u32; 16]; 8];
    for (k, &(_, j)) in peg_order.iter().enumerate() {
        for (label, &(_, c)) in color_order.iter().enumerate() {
            places[usize::from(j)][usize::from(c)] = (label as u32) << (4 * (pegs - 1 - k));
        }
    }
    image.clear();
    image.extend(set.map(|x| {
        (0..pegs)
            .map(|j| places[j][usize::from(peg(x, pegs, j))])
            .sum::<u32>()
    }));
    image.sort_unstable();
}

/// The relabelling that [`key`] applies to `set` (packed codes of a board with
/// `pegs` pegs and `colors` colours): the key is `set` mapped through it. Present
/// colours take the labels [`key`] gives them; the others the labels left, in
/// order, so that it is a permutation of the board's colours. A certificate
/// ([`crate::exact`]'s proof module) names a set the cache knows by it.
pub fn key_relabel(set: impl Iterator<Item = u32> + Clone, pegs: usize, colors: usize) -> Relabel {
    let (peg_order, color_order) = signatures(set, pegs);
    let from: Vec<u8> = peg_order.iter().map(|&(_, j)| j).collect();
    let mut color: [u8; 16] = std::array::from_fn(|c| c as u8);
    let mut present = [false; 16];
    for (label, &(_, c)) in color_order.iter().enumerate() {
        color[usize::from(c)] = label as u8;
        present[usize::from(c)] = true;
    }
    let absent = (0..colors).filter(|&c| !present[c]);
    for (label, c) in (color_order.len()..).zip(absent) {
        color[c] = label as u8;
    }
    Relabel::new(&from, color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lookup::{Board, Code};

    fn key_of(set: &[Code], pegs: usize) -> Vec<u32> {
        let packed: Vec<u32> = set.iter().map(|c| c.packed()).collect();
        let mut image = Vec::new();
        key(packed.iter().copied(), pegs, &mut image);
        image
    }

    /// Every permutation of 0..n, by plain recursion.
    fn permutations(n: usize) -> Vec<Vec<u8>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for shorter in permutations(n - 1) {
            for at in 0..n {
                let mut p = shorter.clone();
                p.insert(at, (n - 1) as u8);
                out.push(p);
            }
        }
        out
    }

    /// Every image of `set` under peg permutations and colour relabellings: the
    /// plain definition of equivalence the keys are checked against.
    fn images(board: Board, set: &[Code]) -> Vec<Vec<Code>> {
        let pegs = board.pegs();
        let mut out = Vec::new();
        for p in permutations(pegs) {
            for c in permutations(board.colors()) {
                let mut image: Vec<Code> = (set.iter())
                    .map(|code| {
                        let colors: Vec<u8> = (p.iter())
                            .map(|&j| c[usize::from(code.color(pegs, usize::from(j)))])
                            .collect();
                        Code::from_colors(&colors)
                    })
                    .collect();
                image.sort_unstable();
                out.push(image);
            }
        }
        out
    }

    /// Pseudo-random sets of a board, some drawn from few colours so that ties
    /// between pegs and colours are common.
    fn sample_sets(board: Board, count: usize) -> Vec<Vec<Code>> {
        let codes: Vec<Code> = board.codes().collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        (0..count)
            .filter_map(|i| {
                let colors_used = 2 + i % (board.colors() - 1);
                let pool: Vec<Code> = (codes.iter().copied())
                    .filter(|c| {
                        (0..board.pegs())
                            .all(|j| usize::from(c.color(board.pegs(), j)) < colors_used)
                    })
                    .collect();
                if pool.is_empty() {
                    return None;
                }
                let size = 1 + next() % pool.len().min(12);
                let mut set: Vec<Code> = (0..size).map(|_| pool[next() % pool.len()]).collect();
                set.sort_unstable();
                set.dedup();
                Some(set)
            })
            .collect()
    }

    #[test]
    fn a_key_is_an_image_of_its_set() {
        for board in [
            Board::new(3, 4, true).unwrap(),
            Board::new(4, 5, false).unwrap(),
        ] {
            for set in sample_sets(board, 200) {
                let key: Vec<Code> = key_of(&set, board.pegs())
                    .iter()
                    .map(|&x| {
                        let colors: Vec<u8> =
                            (0..board.pegs()).map(|j| peg(x, board.pegs(), j)).collect();
                        Code::from_colors(&colors)
                    })
                    .collect();
                assert!(images(board, &set).contains(&key), "{set:?}");
            }
        }
    }

    #[test]
    fn the_key_is_its_set_through_the_key_relabelling() {
        for board in [
            Board::new(3, 4, true).unwrap(),
            Board::new(4, 5, false).unwrap(),
        ] {
            let (pegs, colors) = (board.pegs(), board.colors());
            for set in sample_sets(board, 200) {
                let packed: Vec<u32> = set.iter().map(|c| c.packed()).collect();
                let map = key_relabel(packed.iter().copied(), pegs, colors);
                let mut image: Vec<u32> = packed.iter().map(|&x| map.apply(x, pegs)).collect();
                image.sort_unstable();
                assert_eq!(image, key_of(&set, pegs), "{set:?}");
                let mut labels: Vec<u8> = map.color[..colors].to_vec();
                labels.sort_unstable();
                assert_eq!(labels, (0..colors as u8).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn equivalent_sets_share_a_key_when_no_signatures_tie() {
        let board = Board::new(3, 4, true).unwrap();
        let mut checked = 0;
        for set in sample_sets(board, 300) {
            let packed: Vec<u32> = set.iter().map(|c| c.packed()).collect();
            let (pegs, colors) = signatures(packed.iter().copied(), 3);
            let tie = |sigs: &[(u64, u8)]| sigs.windows(2).any(|w| w[0].0 == w[1].0);
            if tie(&pegs) || tie(&colors) {
                continue;
            }
            let expected = key_of(&set, 3);
            for image in images(board, &set) {
                assert_eq!(key_of(&image, 3), expected, "{set:?} and {image:?}");
            }
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    #[test]
    fn equivalent_sets_often_share_a_key() {
        // Sets with ties (often symmetric ones) may get another key for an image,
        // which only costs a cache hit. These small random sets over few colours
        // tie a lot; 59% of the pairs share a key.
        let board = Board::new(3, 4, true).unwrap();
        let (mut agree, mut total) = (0, 0);
        for set in sample_sets(board, 100) {
            let expected = key_of(&set, 3);
            for image in images(board, &set) {
                total += 1;
                agree += usize::from(key_of(&image, 3) == expected);
            }
        }
        assert!(agree * 100 >= total * 55, "{agree} of {total}");
    }
}
