//! Kooi's rule (2005): maximise the number of non-empty answer classes.

use super::heuristic::Scoring;
use crate::codes::Classes;

/// Score: the number of answers minus the number of non-empty classes (smaller is
/// better, as the search wants).
pub struct MostParts {
    /// The board's answers, the win included.
    pub answers: u64,
}

impl Scoring for MostParts {
    fn grow(&self, parts: &mut u64, size: u32, left: usize, limit: u64) -> bool {
        *parts += u64::from(size == 1);
        // Even if every secret left opened a class, enough parts?
        *parts + left as u64 >= self.answers.saturating_sub(limit)
    }

    fn finish(&self, parts: u64, _: &Classes) -> u64 {
        self.answers - parts
    }

    fn least_score(&self, groups: &[(u32, usize)], answers: usize) -> u64 {
        // A group gives at most one class per secret and at most its parts.
        let parts: usize = groups
            .iter()
            .map(|&(size, parts)| parts.min(size as usize))
            .sum();
        answers.saturating_sub(parts) as u64
    }
}
