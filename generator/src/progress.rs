//! How much of a run is left, estimated from the work already done.
//!
//! Secrets placed is a poor measure of progress: on a big board the first few
//! guesses take most of the time and place almost no secret, and the last minutes
//! place most of them. The estimate here counts work (guess-secret pairs scored)
//! instead. Every subtree waiting to be expanded is expected to cost what the
//! finished subtrees of about its size (the same power of two) cost on average; a
//! size with none finished yet borrows the average of the largest smaller size,
//! scaled up in proportion (so early estimates err low, and say so by being early).
//! Time left is that work at the rate of the work done so far.

use std::sync::atomic::{AtomicU64, Ordering};

/// Subtrees by size, a power of two per bucket.
const BUCKETS: usize = 32;

#[derive(Default)]
struct Bucket {
    waiting: AtomicU64,
    finished: AtomicU64,
    work: AtomicU64,
}

/// Subtrees waiting and finished, with the work the finished ones took.
#[derive(Default)]
pub struct Progress {
    buckets: [Bucket; BUCKETS],
}

fn bucket(size: usize) -> usize {
    (usize::BITS - size.leading_zeros()) as usize % BUCKETS
}

impl Progress {
    /// A subtree of `size` secrets will be expanded.
    pub fn waiting(&self, size: usize) {
        self.buckets[bucket(size)]
            .waiting
            .fetch_add(1, Ordering::Relaxed);
    }

    /// A waiting subtree is being expanded now.
    pub fn started(&self, size: usize) {
        self.buckets[bucket(size)]
            .waiting
            .fetch_sub(1, Ordering::Relaxed);
    }

    /// A subtree of `size` secrets is complete; it took `work` scorings in all.
    pub fn finished(&self, size: usize, work: u64) {
        let b = &self.buckets[bucket(size)];
        b.finished.fetch_add(1, Ordering::Relaxed);
        b.work.fetch_add(work, Ordering::Relaxed);
    }

    /// The scorings the waiting subtrees are expected to take, once some subtree
    /// has finished; `None` before.
    pub fn remaining_work(&self) -> Option<u64> {
        // The last bucket with finished subtrees: (its average, its index).
        let mut known: Option<(f64, usize)> = None;
        let mut total = 0.0;
        for (i, b) in self.buckets.iter().enumerate() {
            let finished = b.finished.load(Ordering::Relaxed);
            if finished > 0 {
                known = Some((b.work.load(Ordering::Relaxed) as f64 / finished as f64, i));
            }
            let waiting = b.waiting.load(Ordering::Relaxed);
            if let Some((average, at)) = known {
                // Sizes double from bucket to bucket.
                total += waiting as f64 * average * 2f64.powi((i - at) as i32);
            }
        }
        known.map(|_| total as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_from_finished_subtrees_of_the_same_size_or_scaled_up() {
        let p = Progress::default();
        p.waiting(100);
        assert_eq!(p.remaining_work(), None);
        p.waiting(5);
        p.waiting(6);
        p.started(5);
        p.finished(5, 40);
        // 6 waits in the bucket of 5 (4..8): 40; 100 (64..128) is four buckets up.
        assert_eq!(p.remaining_work(), Some(40 + 40 * 16));
        p.started(100);
        p.started(6);
        p.finished(6, 60);
        assert_eq!(p.remaining_work(), Some(0));
    }
}
