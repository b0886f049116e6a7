//! Knuth's minimax rule (1977): play the code whose largest answer class is smallest.
//!
//! Every code of the board is a possible guess. Ties go to a code that is still a
//! candidate, then to the smallest code; with this tie-break the classic board gives
//! Knuth's tree (first guess 1122, 5801 guesses in total, never more than 5).
//! The search itself (candidates first, early exits, symmetry, threads) is
//! [`crate::search`]; this file only says how a guess is scored.

use super::Strategy;
use crate::partition::{Classes, Codes};
use crate::search::{best_guess, Counters, Node, Rule, Settings};
use lookup::format::StrategyInfo;

pub struct Knuth;

/// Score: the size of the largest answer class.
struct LargestClass;

impl Rule for LargestClass {
    fn score(
        &self,
        codes: &Codes,
        guess: u32,
        candidates: &[u32],
        limit: u64,
        classes: &mut Classes,
        work: &mut u64,
    ) -> Option<u64> {
        codes
            .count_classes(guess, candidates, limit, classes, work)
            .then(|| classes.iter().max().map_or(0, |&m| u64::from(m)))
    }

    fn floor(&self, candidates: usize, answers: usize) -> u64 {
        candidates.div_ceil(answers) as u64
    }

    fn outsiders_hopeless(&self, best: u64, candidates: usize, answers: usize) -> bool {
        // An outsider's classes all stay below `best` and the win class is empty.
        (answers as u64 - 1) * best.saturating_sub(1) < candidates as u64
    }
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

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        best_guess(codes, &LargestClass, node, settings, counters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{expand, layout};
    use lookup::score::score;
    use lookup::Board;
    use std::sync::atomic::Ordering;

    /// Knuth's rule read literally: score every guess against every candidate with
    /// the library's plain `score`, no early exit, no threads, no shortcuts.
    struct Reference;

    impl Strategy for Reference {
        fn info(&self) -> StrategyInfo {
            Knuth.info()
        }

        fn choose(&self, codes: &Codes, node: &Node, _: Settings, _: &Counters) -> u32 {
            let (pegs, candidates) = (codes.board().pegs(), node.candidates);
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
            let counters = Counters::default();
            let plain = Settings { symmetry: false };
            let slow = layout(&expand(&codes, &Reference, plain, &counters));
            for symmetry in [false, true] {
                let fast = layout(&expand(&codes, &Knuth, Settings { symmetry }, &counters));
                assert_eq!(fast.records, slow.records, "{p}x{c} repeat={r} symmetry={symmetry}");
                assert_eq!(fast.edges, slow.edges, "{p}x{c} repeat={r} symmetry={symmetry}");
                assert_eq!(fast.stats, slow.stats);
            }
            let solved = counters.solved.load(Ordering::Relaxed);
            assert_eq!(solved, 3 * u64::from(codes.len()));
        }
    }
}
