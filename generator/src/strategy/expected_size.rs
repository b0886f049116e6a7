//! Irving's rule (1979): minimise the expected size of the next candidate set, that
//! is the sum of the squared class sizes (divided by |S|, which is the same for
//! every guess at a node).

use crate::partition::{even_split, Classes, Codes, Secrets};
use crate::search::Rule;

/// Score: the sum of squared class sizes.
pub struct SquaredSizes;

impl Rule for SquaredSizes {
    fn score(
        &self,
        codes: &Codes,
        guess: u32,
        candidates: &Secrets,
        limit: u64,
        classes: &mut Classes,
        work: &mut u64,
    ) -> Option<u64> {
        // Growing a class from c-1 to c adds 2c-1: the running sum only rises.
        let mut sum = 0u64;
        codes
            .count_classes(guess, candidates, classes, work, |size, _| {
                sum += 2 * u64::from(size) - 1;
                sum <= limit
            })
            .then_some(sum)
    }

    fn floor(&self, groups: &[(u32, usize)], _answers: usize) -> u64 {
        // Each group as even as possible (squares are convex).
        groups.iter().fold(0u64, |sum, &(size, parts)| {
            sum.saturating_add(even_split(size, parts, |c| u64::from(c) * u64::from(c)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_are_balanced_sums_of_squares() {
        let floor = |groups: &[(u32, usize)]| SquaredSizes.floor(groups, 14);
        assert_eq!(floor(&[(10, 3)]), 16 + 9 + 9);
        assert_eq!(floor(&[(2, 14)]), 2);
        assert_eq!(floor(&[(1296, 14)]), 8 * 93 * 93 + 6 * 92 * 92);
        assert_eq!(floor(&[(10, 3), (2, 14), (0, 0)]), 34 + 2);
        assert_eq!(floor(&[(1, 0)]), u64::MAX);
    }
}
