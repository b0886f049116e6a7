//! Irving's rule (1979): minimise the expected size of the next candidate set, that
//! is the sum of the squared class sizes (divided by |S|, which is the same for
//! every guess at a node).

use crate::partition::{Classes, Codes, Secrets};
use crate::search::Rule;

/// Score: the sum of squared class sizes.
pub struct SquaredSizes;

/// The least sum of squares of `n` items in `classes` classes: as even as possible.
fn balanced(n: usize, classes: usize) -> u64 {
    let (q, r) = ((n / classes) as u64, (n % classes) as u64);
    r * (q + 1) * (q + 1) + (classes as u64 - r) * q * q
}

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

    fn floor(&self, candidates: usize, answers: usize) -> u64 {
        balanced(candidates, answers)
    }

    fn outsiders_hopeless(&self, best: u64, candidates: usize, answers: usize) -> bool {
        balanced(candidates, answers - 1) >= best
    }
}

#[cfg(test)]
mod tests {
    use super::balanced;

    #[test]
    fn balanced_sums_of_squares() {
        assert_eq!(balanced(10, 3), 16 + 9 + 9);
        assert_eq!(balanced(2, 14), 2);
        assert_eq!(balanced(1296, 14), 8 * 93 * 93 + 6 * 92 * 92);
    }
}
