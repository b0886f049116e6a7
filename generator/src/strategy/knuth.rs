//! Knuth's minimax rule (1977): play the code whose largest answer class is smallest.
//!
//! With the default tie-break (a code that is still possible, then the smallest
//! code) the classic board gives Knuth's tree: first guess 1122, 5801 guesses in
//! total, never more than 5.

use crate::partition::{Classes, Codes, Secrets};
use crate::search::Rule;

/// Score: the size of the largest answer class.
pub struct LargestClass;

impl Rule for LargestClass {
    fn score(
        &self,
        codes: &Codes,
        guess: u32,
        candidates: &Secrets,
        limit: u64,
        classes: &mut Classes,
        work: &mut u64,
    ) -> Option<u64> {
        codes
            .count_classes(guess, candidates, classes, work, |size, _| {
                u64::from(size) <= limit
            })
            .then(|| classes.iter().max().map_or(0, |&m| u64::from(m)))
    }

    fn floor(&self, groups: &[(u32, usize)], _answers: usize) -> u64 {
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
