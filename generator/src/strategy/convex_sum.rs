//! Rules that score a guess by a sum over its answer classes of a convex function
//! of the class size: Irving's expected size (1979), the sum of squared class sizes
//! (the expected size of the next candidate set times |S|, the same for every guess
//! at a node), and Neuwirth's entropy (1982), whose score is `sum c log2 c` (see
//! [`super::entropy`]). Only `f` differs.

use super::heuristic::Scoring;
use crate::codes::even_split;

/// Score: `sum f(c)` over the answer classes, `f` convex, increasing and `f(0) = 0`;
/// `step(c) = f(c) - f(c - 1)`, what growing a class to c adds.
pub struct ConvexSum<F, S> {
    pub f: F,
    pub step: S,
}

/// Irving's sum of squares: `f(c) = c^2`, each step `2c - 1`.
pub fn squares() -> ConvexSum<impl Fn(u32) -> u64 + Send + Sync, impl Fn(u32) -> u64 + Send + Sync>
{
    ConvexSum {
        f: |c: u32| u64::from(c) * u64::from(c),
        step: |c: u32| 2 * u64::from(c) - 1,
    }
}

impl<F, S> Scoring for ConvexSum<F, S>
where
    F: Fn(u32) -> u64 + Send + Sync,
    S: Fn(u32) -> u64 + Send + Sync,
{
    #[inline(always)]
    fn grow(&self, sum: &mut u64, size: u32, _left: usize, limit: u64) -> bool {
        // The sum only rises as classes grow.
        *sum += (self.step)(size);
        *sum <= limit
    }

    fn least_score(&self, groups: &[(u32, usize)], _answers: usize) -> u64 {
        // Each group as even as possible (f is convex).
        groups.iter().fold(0u64, |sum, &(size, parts)| {
            sum.saturating_add(even_split(size, parts, &self.f))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_add_up_to_f() {
        let rule = squares();
        let mut sum = 0;
        for c in 1..=100 {
            assert!(rule.grow(&mut sum, c, 0, u64::MAX));
            assert_eq!(sum, (rule.f)(c));
        }
    }

    #[test]
    fn floors_are_balanced_sums_of_squares() {
        let floor = |groups: &[(u32, usize)]| squares().least_score(groups, 14);
        assert_eq!(floor(&[(10, 3)]), 16 + 9 + 9);
        assert_eq!(floor(&[(2, 14)]), 2);
        assert_eq!(floor(&[(1296, 14)]), 8 * 93 * 93 + 6 * 92 * 92);
        assert_eq!(floor(&[(10, 3), (2, 14), (0, 0)]), 34 + 2);
        assert_eq!(floor(&[(1, 0)]), u64::MAX);
    }
}
