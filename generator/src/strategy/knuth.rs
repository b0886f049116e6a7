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

    fn floor(&self, candidates: usize, answers: usize) -> u64 {
        candidates.div_ceil(answers) as u64
    }

    fn outsiders_hopeless(&self, best: u64, candidates: usize, answers: usize) -> bool {
        // An outsider's classes all stay below `best` and the win class is empty.
        (answers as u64 - 1) * best.saturating_sub(1) < candidates as u64
    }
}
