//! How much of a run is left, estimated from the time its nodes took so far.
//!
//! Secrets placed is a poor measure of progress: on a big board the first few
//! guesses take most of the time and place almost no secret, and the last minutes
//! place most of them. Scorings are a poor measure too: small nodes score pairs
//! several times slower than big ones, because the cost of trying a guess barely
//! depends on how few secrets it scores. So the estimate counts the time each node
//! took to choose its guess, and learns it node by node, as soon as the guess is
//! chosen: subtrees that finish first are the cheap ones, and an estimate built on
//! finished subtrees runs low (the measurements: BENCHMARKS.md, tuning).
//!
//! Nodes are grouped by depth and size (a power of two per group). For each group
//! the estimate keeps the time its nodes took per secret, and where their secrets
//! went: into children of which smaller group. A waiting subtree then costs its
//! group's time per secret, plus what its children are expected to cost one level
//! down, and so on to the leaves. A group with no node yet borrows from the nearest
//! group of its depth, its children shifted by the same number of groups (a node
//! twice as big has children twice as big). Until every depth with a waiting
//! subtree has one node to learn from there is no estimate.
//!
//! Nodes explored later tend to cost more than the earlier ones of their group (on
//! 6x9 Knuth, 1.2 to 1.4 times): the answers explored last leave fewer colours
//! interchangeable. So the estimate is scaled by how far the nodes chosen so far
//! overran what their group predicted for them when they were chosen. Thread time
//! becomes wall time at the rate the threads have been busy choosing.

use std::sync::Mutex;
use std::time::Duration;

/// Subtrees by size, a power of two per bucket.
const BUCKETS: usize = 32;

fn bucket(size: usize) -> usize {
    ((usize::BITS - size.leading_zeros()) as usize).min(BUCKETS - 1)
}

/// The nodes of one depth and one size bucket.
#[derive(Clone, Copy, Default)]
struct Group {
    /// Secrets in subtrees waiting for their guess.
    waiting: u64,
    /// Secrets in nodes whose guess is chosen, and the seconds choosing took.
    chosen: u64,
    seconds: f64,
    /// The secrets of those nodes' children (two or more secrets each), by how many
    /// buckets smaller than the node the child is.
    below: [u64; BUCKETS],
}

impl Group {
    fn seconds_per_secret(&self) -> Option<f64> {
        (self.chosen > 0).then(|| self.seconds / self.chosen as f64)
    }
}

#[derive(Default)]
struct State {
    depths: Vec<[Group; BUCKETS]>,
    /// Seconds every node took to choose.
    busy: f64,
    /// Seconds the nodes whose group already had data took, and what their group
    /// predicted for them.
    took: f64,
    predicted: f64,
}

impl State {
    fn group(&mut self, depth: usize, size: usize) -> &mut Group {
        if self.depths.len() <= depth {
            self.depths.resize(depth + 1, [Group::default(); BUCKETS]);
        }
        &mut self.depths[depth][bucket(size)]
    }
}

/// Subtrees waiting and nodes chosen, by depth and size.
#[derive(Default)]
pub struct Progress {
    state: Mutex<State>,
}

impl Progress {
    /// A run that builds one subtree of `size` secrets at `depth` (the whole tree:
    /// depth 0).
    pub fn start(&self, depth: usize, size: usize) {
        if size > 1 {
            self.update(|state| state.group(depth, size).waiting += size as u64);
        }
    }

    /// A node of `size` secrets at `depth` took `took` to choose its guess, which
    /// split its secrets into `parts` (the win and single secrets cost nothing more).
    pub fn chosen(
        &self,
        depth: usize,
        size: usize,
        took: Duration,
        parts: impl Iterator<Item = usize>,
    ) {
        let seconds = took.as_secs_f64();
        self.update(|state| {
            let mut below = [0; BUCKETS];
            for part in parts.filter(|&p| p > 1) {
                below[bucket(size) - bucket(part)] += part as u64;
                state.group(depth + 1, part).waiting += part as u64;
            }
            let g = state.group(depth, size);
            let predicted = g.seconds_per_secret().map(|s| s * size as f64);
            g.waiting -= size as u64;
            g.chosen += size as u64;
            g.seconds += seconds;
            for (total, part) in g.below.iter_mut().zip(below) {
                *total += part;
            }
            state.busy += seconds;
            if let Some(predicted) = predicted {
                state.took += seconds;
                state.predicted += predicted;
            }
        });
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        // A panic elsewhere cannot leave the counts half-updated, so a poisoned lock
        // still holds usable counts.
        change(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// The wall time the waiting subtrees are expected to take, `elapsed` into the
    /// run; `None` while some depth with a waiting subtree has no node to learn
    /// from.
    pub fn time_left(&self, elapsed: Duration) -> Option<Duration> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // Expected seconds per secret of a subtree, by depth and bucket, deepest first.
        let mut per_secret = vec![[None; BUCKETS]; state.depths.len() + 1];
        let mut seconds = 0.0;
        for (depth, groups) in state.depths.iter().enumerate().rev() {
            for (b, g) in groups.iter().enumerate() {
                per_secret[depth][b] = expected(groups, b, &per_secret[depth + 1]);
                if g.waiting > 0 {
                    seconds += g.waiting as f64 * per_secret[depth][b]?;
                }
            }
        }
        let overrun = if state.predicted > 0.0 {
            state.took / state.predicted
        } else {
            1.0
        };
        let busy_threads = state.busy / elapsed.as_secs_f64();
        Duration::try_from_secs_f64(seconds * overrun / busy_threads).ok()
    }
}

/// Expected seconds per secret of a subtree in bucket `b` of a depth whose groups
/// are `groups`, given the same for the depth below.
fn expected(groups: &[Group; BUCKETS], b: usize, below: &[Option<f64>; BUCKETS]) -> Option<f64> {
    // The nearest bucket with chosen nodes; the bigger one on a tie.
    let from = (0..BUCKETS)
        .filter(|&i| groups[i].chosen > 0)
        .min_by_key(|&i| (i.abs_diff(b), std::cmp::Reverse(i)))?;
    let g = &groups[from];
    let mut cost = g.seconds_per_secret()?;
    for (smaller, &secrets) in g.below.iter().enumerate().filter(|&(_, &s)| s > 0) {
        // Shifted below two secrets, a child is a leaf and costs nothing.
        if let Some(child) = b.checked_sub(smaller).filter(|&c| c > 1) {
            cost += secrets as f64 / g.chosen as f64 * below[child]?;
        }
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn singles(n: usize) -> impl Iterator<Item = usize> {
        std::iter::repeat_n(1, n)
    }

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn assert_near(left: Option<Duration>, right: f64) {
        let left = left.expect("an estimate").as_secs_f64();
        assert!((left - right).abs() < 1e-9, "{left} is not {right}");
    }

    #[test]
    fn a_waiting_subtree_costs_its_node_and_its_expected_children() {
        let p = Progress::default();
        p.start(0, 100);
        // Nothing chosen at depth 0 yet.
        assert_eq!(p.time_left(ms(1)), None);
        // The root (bucket 7) made parts of 60 (bucket 6) and 30 (bucket 5), and 10
        // single secrets.
        p.chosen(0, 100, ms(1000), [60, 30].into_iter().chain(singles(10)));
        // Depth 1 has waiting subtrees but no chosen node.
        assert_eq!(p.time_left(ms(1000)), None);
        // The 30 took 4 ms a secret and made a part of 20 (bucket 5, no smaller).
        p.chosen(1, 30, ms(120), [20].into_iter().chain(singles(10)));
        // Depth 2 has a waiting 20 and nothing chosen.
        assert_eq!(p.time_left(ms(1120)), None);
        // The 20 took 2 ms a secret and split into single secrets.
        p.chosen(2, 20, ms(40), singles(20));
        // The waiting 60 (bucket 6) borrows from bucket 5 of depth 1: 4 ms a
        // secret, and 20 of every 30 secrets go on to depth 2, shifted to bucket 6,
        // which borrows bucket 5's 2 ms a secret. One thread was busy all along.
        let per_secret = 0.004 + 20.0 / 30.0 * 0.002;
        assert_near(p.time_left(ms(1160)), 60.0 * per_secret);
        // Two threads busy: half the time.
        assert_near(p.time_left(ms(580)), 30.0 * per_secret);
        p.chosen(1, 60, ms(180), singles(60));
        assert_near(p.time_left(ms(1340)), 0.0);
    }

    #[test]
    fn nodes_that_overran_their_group_scale_the_estimate() {
        let p = Progress::default();
        p.start(0, 50);
        p.chosen(0, 50, ms(50), [10, 10, 10].into_iter().chain(singles(19)));
        // 1 ms a secret, then 2 ms a secret where 1 was predicted: twice as slow.
        p.chosen(1, 10, ms(10), singles(10));
        p.chosen(1, 10, ms(20), singles(10));
        // The last 10 at the group's 1.5 ms a secret, doubled.
        assert_near(p.time_left(ms(80)), 10.0 * 0.0015 * 2.0);
    }

    #[test]
    fn children_shifted_below_two_secrets_are_leaves() {
        let p = Progress::default();
        p.start(0, 20);
        p.chosen(0, 20, ms(40), [5, 3].into_iter().chain(singles(12)));
        // The 5 (bucket 3) took 2 ms a secret and left a part of 2 (bucket 2).
        p.chosen(1, 5, ms(10), [2].into_iter().chain(singles(3)));
        p.chosen(2, 2, ms(2), singles(2));
        // The waiting 3 (bucket 2) borrows bucket 3: its child, one bucket smaller,
        // would be in bucket 1, a single secret, so only the 2 ms a secret remain.
        assert_near(p.time_left(ms(52)), 3.0 * 0.002);
    }
}
