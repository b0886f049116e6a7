//! Kooi's rule (2005): maximise the number of non-empty answer classes.

use crate::partition::{Classes, Codes, Secrets};
use crate::search::Rule;

/// Score: the number of answers minus the number of non-empty classes (smaller is
/// better, as the search wants).
pub struct MostParts;

impl Rule for MostParts {
    fn score(
        &self,
        codes: &Codes,
        guess: u32,
        candidates: &Secrets,
        limit: u64,
        classes: &mut Classes,
        work: &mut u64,
    ) -> Option<u64> {
        let answers = lookup::score::answer_count(codes.board().pegs()) as u64;
        let needed = answers.saturating_sub(limit);
        let mut parts = 0u64;
        codes
            .count_classes(guess, candidates, classes, work, |size, left| {
                parts += u64::from(size == 1);
                // Even if every secret left opened a class, too few parts.
                parts + left as u64 >= needed
            })
            .then_some(answers - parts)
    }

    fn floor(&self, groups: &[(u32, usize)], answers: usize) -> u64 {
        // A group gives at most one class per secret and at most its parts.
        let parts: usize = groups
            .iter()
            .map(|&(size, parts)| parts.min(size as usize))
            .sum();
        answers.saturating_sub(parts) as u64
    }
}
