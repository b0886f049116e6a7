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

    fn floor(&self, candidates: usize, answers: usize) -> u64 {
        (answers - answers.min(candidates)) as u64
    }

    fn outsiders_hopeless(&self, best: u64, candidates: usize, answers: usize) -> bool {
        (answers - (answers - 1).min(candidates)) as u64 >= best
    }
}
