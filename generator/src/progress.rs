//! How much of a run is left, estimated from the work already done.
//!
//! Secrets placed is a poor measure of progress: on a big board the first few
//! guesses take most of the time and place almost no secret, and the last minutes
//! place most of them. The estimate here counts work (guess-secret pairs scored)
//! instead. Subtrees are grouped by size, a power of two per group; every secret in
//! a subtree waiting to be expanded is expected to cost what a secret of a finished
//! subtree of its group cost on average. Big subtrees finish last and cost more per
//! secret (bigger guess pools, fewer dead colours), so a group with none finished
//! yet takes the next smaller group's cost, grown by the factor per group seen
//! between the two largest groups with data (at least 1, at most 4; 2 while only
//! one group has data). Reaching further down than one group proved unreliable
//! (3 to 5 times too low in the first third of a 6x9 run), so until then there is
//! no estimate. Time left is that work at the rate of the work done so far.

use std::sync::atomic::{AtomicU64, Ordering};

/// Subtrees by size, a power of two per bucket.
const BUCKETS: usize = 32;

#[derive(Default)]
struct Bucket {
    /// Secrets in subtrees waiting to be expanded.
    waiting: AtomicU64,
    /// Secrets in finished subtrees, and the work those took.
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
            .fetch_add(size as u64, Ordering::Relaxed);
    }

    /// A waiting subtree is being expanded now.
    pub fn started(&self, size: usize) {
        self.buckets[bucket(size)]
            .waiting
            .fetch_sub(size as u64, Ordering::Relaxed);
    }

    /// A subtree of `size` secrets is complete; it took `work` scorings in all.
    pub fn finished(&self, size: usize, work: u64) {
        let b = &self.buckets[bucket(size)];
        b.finished.fetch_add(size as u64, Ordering::Relaxed);
        b.work.fetch_add(work, Ordering::Relaxed);
    }

    /// The scorings the waiting subtrees are expected to take; `None` while some
    /// waiting subtree is more than one group bigger than any finished one.
    pub fn remaining_work(&self) -> Option<u64> {
        // Work per secret of each bucket with finished subtrees.
        let rates: Vec<(usize, f64)> = self
            .buckets
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let finished = b.finished.load(Ordering::Relaxed);
                (finished > 0).then(|| (i, b.work.load(Ordering::Relaxed) as f64 / finished as f64))
            })
            .collect();
        let (&(last, last_rate), before) = rates.split_last()?;
        let growth = match before.last() {
            Some(&(i, rate)) if rate > 0.0 => (last_rate / rate)
                .powf(1.0 / (last - i) as f64)
                .clamp(1.0, 4.0),
            _ => 2.0,
        };
        let mut total = 0.0;
        let mut known = rates.iter().peekable();
        let mut rate = (0, 0.0);
        for (i, b) in self.buckets.iter().enumerate() {
            while let Some(&&(at, r)) = known.peek() {
                if at > i {
                    break;
                }
                rate = (at, r);
                known.next();
            }
            let waiting = b.waiting.load(Ordering::Relaxed) as f64;
            if waiting > 0.0 && i > rate.0 + 1 {
                return None;
            }
            total += waiting * rate.1 * growth.powi((i - rate.0) as i32);
        }
        Some(total as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_per_secret_from_the_same_size_or_grown_from_smaller() {
        let p = Progress::default();
        p.waiting(100);
        assert_eq!(p.remaining_work(), None);
        p.waiting(5);
        p.waiting(6);
        p.started(5);
        p.finished(5, 40);
        // 100 (64..128) is four buckets above anything finished: no estimate.
        assert_eq!(p.remaining_work(), None);
        p.waiting(20);
        p.started(20);
        p.finished(20, 20 * 200);
        p.waiting(40);
        p.started(40);
        p.finished(40, 40 * 200 * 5);
        // 8 a secret at 4..8 (6 waiting: 48), 200 at 16..32 and 1000 at 32..64:
        // 5 times per bucket, capped at 4, for 100 one bucket up.
        assert_eq!(p.remaining_work(), Some(48 + 100 * 1000 * 4));
        p.started(100);
        p.started(6);
        p.finished(6, 60);
        assert_eq!(p.remaining_work(), Some(0));
    }
}
