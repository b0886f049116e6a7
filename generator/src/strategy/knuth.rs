//! Knuth's minimax rule (1977): play the code whose largest answer class is smallest.
//!
//! With the default tie-break (a code that is still possible, then the smallest
//! code) the classic board gives Knuth's tree: first guess 1122, 5801 guesses in
//! total, never more than 5.

use super::heuristic::Scoring;
use crate::codes::Classes;

/// Score: the size of the largest answer class.
pub struct LargestClass;

impl Scoring for LargestClass {
    fn grow(&self, _: &mut u64, size: u32, _left: usize, limit: u64) -> bool {
        // The largest class is at least the one just grown.
        u64::from(size) <= limit
    }

    fn finish(&self, _: u64, classes: &Classes) -> u64 {
        classes.iter().max().map_or(0, |&m| u64::from(m))
    }

    fn least_score(&self, groups: &[(u32, usize)], _answers: usize) -> u64 {
        // Some class of each group holds at least its share.
        groups
            .iter()
            .map(|&(size, parts)| match parts {
                0 if size > 0 => u64::MAX,
                0 => 0,
                _ => u64::from(size.div_ceil(parts as u32)),
            })
            .max()
            .unwrap_or(0)
    }
}
