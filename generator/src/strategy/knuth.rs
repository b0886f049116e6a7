//! Knuth's minimax rule (1977): play the code whose largest answer class is smallest.
//!
//! Every code of the board is a possible guess. Ties go to a code that is still a
//! candidate, then to the smallest code; with this tie-break the classic board gives
//! Knuth's tree (first guess 1122, 5801 guesses in total, never more than 5).
//!
//! The search over guesses runs in parallel chunks that share the best maximum found
//! so far: a guess is abandoned as soon as one of its classes exceeds it, since it can
//! no longer win or tie. Abandoned guesses are strictly worse than a guess already
//! seen, so the choice (the minimum of a total order) is the same for any thread count.

use super::Strategy;
use crate::partition::Codes;
use lookup::format::StrategyInfo;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Knuth;

/// Below this many scorings a node is searched on one thread.
const PARALLEL_WORK: usize = 1 << 16;
/// Guesses per parallel chunk.
const CHUNK: u32 = 128;

/// (largest class, not a candidate, code index): smaller is better.
type Key = (u32, bool, u32);

fn best_in(
    codes: &Codes,
    candidates: &[u32],
    guesses: std::ops::Range<u32>,
    shared: &AtomicU32,
) -> Option<Key> {
    let mut best: Option<Key> = None;
    let mut next_candidate = candidates.partition_point(|&c| c < guesses.start);
    for guess in guesses {
        while next_candidate < candidates.len() && candidates[next_candidate] < guess {
            next_candidate += 1;
        }
        let in_set = candidates.get(next_candidate) == Some(&guess);
        let limit = shared.load(Ordering::Relaxed);
        let Some(classes) = codes.classes_within(guess, candidates, limit) else {
            continue;
        };
        let key = (*classes.iter().max().unwrap_or(&0), !in_set, guess);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
            shared.fetch_min(key.0, Ordering::Relaxed);
        }
    }
    best
}

impl Strategy for Knuth {
    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            name: "knuth".into(),
            rule: "minimise the largest answer class (Knuth 1977), guesses from all codes".into(),
            tie_break: "a code that is still possible, then the smallest code".into(),
            params: Vec::new(),
            proven: None,
        }
    }

    fn choose(&self, codes: &Codes, candidates: &[u32]) -> u32 {
        // With two left, the first one wins or leaves the other: largest class 1, a
        // candidate, and the smallest candidate, so the rule picks it.
        if candidates.len() <= 2 {
            return candidates[0];
        }
        let shared = AtomicU32::new(u32::MAX);
        let n = codes.len();
        let best = if candidates.len() * n as usize <= PARALLEL_WORK {
            best_in(codes, candidates, 0..n, &shared)
        } else {
            (0..n.div_ceil(CHUNK))
                .into_par_iter()
                .filter_map(|c| {
                    best_in(
                        codes,
                        candidates,
                        c * CHUNK..((c + 1) * CHUNK).min(n),
                        &shared,
                    )
                })
                .min()
        };
        // A candidate always gives a largest class below |S|, so some guess qualifies.
        best.map_or(candidates[0], |(_, _, guess)| guess)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{expand, layout};
    use lookup::score::score;
    use lookup::Board;
    use std::sync::atomic::AtomicU64;

    /// Knuth's rule read literally: score every guess against every candidate with
    /// the library's plain `score`, no early exit, no threads, no shortcuts.
    struct Reference;

    impl Strategy for Reference {
        fn info(&self) -> StrategyInfo {
            Knuth.info()
        }

        fn choose(&self, codes: &Codes, candidates: &[u32]) -> u32 {
            let pegs = codes.board().pegs();
            (0..codes.len())
                .min_by_key(|&g| {
                    let mut classes = std::collections::HashMap::new();
                    for &s in candidates {
                        *classes
                            .entry(score(codes.code(g), codes.code(s), pegs))
                            .or_insert(0) += 1;
                    }
                    let largest = classes.values().copied().max().unwrap_or(0);
                    (largest, !candidates.contains(&g), g)
                })
                .unwrap()
        }
    }

    #[test]
    fn fast_knuth_builds_the_same_trees_as_the_reference() {
        for (p, c, r) in [
            (3, 4, true),
            (4, 4, true),
            (3, 5, true),
            (4, 6, false),
            (2, 9, true),
            (4, 6, true),
        ] {
            let codes = Codes::new(Board::new(p, c, r).unwrap());
            let all: Vec<u32> = (0..codes.len()).collect();
            let solved = AtomicU64::new(0);
            let fast = layout(&expand(&codes, &Knuth, &all, &solved));
            let slow = layout(&expand(&codes, &Reference, &all, &solved));
            assert_eq!(fast.records, slow.records, "{p}x{c} repeat={r}");
            assert_eq!(fast.edges, slow.edges, "{p}x{c} repeat={r}");
            assert_eq!(fast.stats, slow.stats);
            assert_eq!(solved.load(Ordering::Relaxed), 2 * u64::from(codes.len()));
        }
    }
}
