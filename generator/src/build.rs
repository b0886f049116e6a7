//! Expands the complete strategy tree, then lays it out for the file.
//!
//! [`expand`] follows every answer of every node until each secret has been guessed,
//! in parallel (sibling subtrees are independent; big nodes also split their guess
//! search). The result depends only on the board and the strategy, never on the
//! schedule. [`number`] then numbers the nodes breadth first, in answer order, which
//! fixes the file's bytes and makes every edge point forward.

use crate::codes::Codes;
use crate::strategy::Strategy;
use crate::{Counters, Node, Settings};
use lookup::format::{Child, NodeRecord, Stats};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A strategy's decisions below one position.
#[derive(Debug)]
pub enum Subtree {
    /// One secret left: guess it.
    Leaf(u32),
    Node {
        guess: u32,
        /// Whether the guess is itself one of the secrets still possible.
        wins: bool,
        candidates: u32,
        /// Non-empty answer classes other than the win, in answer order.
        children: Vec<(usize, Subtree)>,
    },
}

impl Subtree {
    /// Guesses summed over the subtree's secrets, counted from its first guess.
    pub fn total(&self) -> u64 {
        match self {
            Subtree::Leaf(_) => 1,
            Subtree::Node {
                candidates,
                children,
                ..
            } => {
                let below: u64 = children.iter().map(|(_, child)| child.total()).sum();
                u64::from(*candidates) + below
            }
        }
    }

    /// The subtree's first guess (code index).
    pub fn first_guess(&self) -> u32 {
        match self {
            Subtree::Leaf(code) => *code,
            Subtree::Node { guess, .. } => *guess,
        }
    }

    /// The most guesses a secret takes, counted from the subtree's first guess.
    pub fn depth(&self) -> u32 {
        match self {
            Subtree::Leaf(_) => 1,
            Subtree::Node { children, .. } => {
                let below = children.iter().map(|(_, child)| child.depth()).max();
                1 + below.unwrap_or(0)
            }
        }
    }
}

/// Expands the complete tree of `strategy` over every code of the board.
pub fn expand(
    codes: &Codes,
    strategy: &dyn Strategy,
    settings: Settings,
    counters: &Counters,
) -> Subtree {
    let all: Vec<u32> = (0..codes.len()).collect();
    expand_below(codes, strategy, settings, counters, &[], &all)
}

/// Expands the complete subtree of `strategy` for `candidates` (sorted) reached by
/// the guesses `history`: the same subtree [`expand`] builds there.
pub fn expand_below(
    codes: &Codes,
    strategy: &dyn Strategy,
    settings: Settings,
    counters: &Counters,
    history: &[u32],
    candidates: &[u32],
) -> Subtree {
    counters.progress.start(history.len(), candidates.len());
    let expansion = Expansion {
        codes,
        strategy,
        settings,
        counters,
        counted: true,
    };
    expansion.node(history, candidates)
}

/// What every node of one expansion shares.
#[derive(Clone, Copy)]
pub struct Expansion<'a> {
    codes: &'a Codes,
    strategy: &'a dyn Strategy,
    settings: Settings,
    counters: &'a Counters,
    /// Whether its nodes count as the run's progress and secrets placed.
    counted: bool,
}

impl<'a> Expansion<'a> {
    /// An expansion whose subtrees are weighed and let go: its nodes are not
    /// counted as the run's progress or its secrets placed (a rollout weighs many
    /// subtrees for each one it keeps).
    pub fn uncounted(
        codes: &'a Codes,
        strategy: &'a dyn Strategy,
        settings: Settings,
        counters: &'a Counters,
    ) -> Expansion<'a> {
        Expansion {
            codes,
            strategy,
            settings,
            counters,
            counted: false,
        }
    }

    /// The total of the subtree [`expand_below`] builds for `candidates` (sorted)
    /// reached by `history`; `None` if the run gave up meanwhile (`counters.stop`).
    pub fn total(self, history: &[u32], candidates: &[u32]) -> Option<u64> {
        let total = self.node(history, candidates).total();
        (!self.counters.stop.gave_up()).then_some(total)
    }

    /// Expands the subtree below `history` for `candidates` (sorted).
    fn node(self, history: &[u32], candidates: &[u32]) -> Subtree {
        let Expansion {
            codes,
            strategy,
            settings,
            counters,
            counted,
        } = self;
        if let [only] = candidates {
            if counted {
                counters.solved.fetch_add(1, Ordering::Relaxed);
            }
            return Subtree::Leaf(*only);
        }
        if counters.stop.passed() {
            // The run gave up: this tree will be thrown away, so end here.
            return Subtree::Leaf(candidates[0]);
        }
        let node = Node {
            candidates,
            history,
        };
        // Timed for the progress estimate: what a node costs is its own time.
        let choosing = Instant::now();
        let guess = strategy.choose(codes, &node, settings, counters);
        let took = choosing.elapsed();
        let (parts, wins) = codes.split(guess, candidates);
        assert!(
            wins || parts.len() > 1,
            "the strategy chose a guess that neither wins nor splits the candidates"
        );
        if counted {
            if wins {
                counters.solved.fetch_add(1, Ordering::Relaxed);
            }
            let sizes = parts.iter().map(|(_, part)| part.len());
            counters
                .progress
                .chosen(history.len(), candidates.len(), took, sizes);
        }
        let mut below = history.to_vec();
        below.push(guess);
        let parts: Vec<(usize, &[u32])> = parts.iter().collect();
        let children = parts
            .into_par_iter()
            .map(|(answer, part)| (answer, self.node(&below, part)))
            .collect();
        Subtree::Node {
            guess,
            wins,
            candidates: candidates.len() as u32,
            children,
        }
    }
}

/// The tree as the file stores it.
pub struct Numbered {
    pub records: Vec<NodeRecord>,
    pub edges: Vec<Child>,
    pub stats: Stats,
}

/// Numbers the nodes breadth first and computes the statistics.
pub fn number(root: &Subtree) -> Numbered {
    let mut records = Vec::new();
    let mut edges = Vec::new();
    let mut stats = Stats::default();
    let mut queue = VecDeque::from([(root, 1u32)]);
    let mut next_record = 1u32;
    while let Some((tree, guesses)) = queue.pop_front() {
        stats.nodes += 1;
        let (guess, wins, candidates, children) = match tree {
            Subtree::Leaf(_) => unreachable!("leaves are stored in their parent's edges"),
            Subtree::Node {
                guess,
                wins,
                candidates,
                children,
            } => (*guess, *wins, *candidates, children),
        };
        if wins {
            stats.add_secret(guesses);
        }
        let mut mask = 0u64;
        let first_edge = edges.len() as u32;
        for (answer, child) in children {
            mask |= 1 << answer;
            match child {
                Subtree::Leaf(code) => {
                    stats.nodes += 1;
                    stats.add_secret(guesses + 1);
                    edges.push(Child::Leaf(*code));
                }
                Subtree::Node { .. } => {
                    edges.push(Child::Node(next_record));
                    next_record += 1;
                    queue.push_back((child, guesses + 1));
                }
            }
        }
        records.push(NodeRecord {
            guess,
            candidates,
            mask,
            first_edge,
        });
    }
    Numbered {
        records,
        edges,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{by_kind, Options};
    use lookup::format::StrategyKind;
    use lookup::Board;
    use std::time::Duration;

    #[test]
    fn the_progress_estimate_ends_with_nothing_left() {
        let board = Board::new(4, 5, true).unwrap();
        let codes = Codes::new(board);
        let strategy = by_kind(StrategyKind::Knuth, Options::default(), board).unwrap();
        let counters = Counters::default();
        assert_eq!(counters.progress.time_left(Duration::from_secs(1)), None);
        expand(
            &codes,
            strategy.as_ref(),
            Settings { symmetry: true },
            &counters,
        );
        // Every subtree announced as waiting was chosen, and no count went negative
        // (that would have panicked in a debug build).
        assert_eq!(
            counters.progress.time_left(Duration::from_secs(1)),
            Some(Duration::ZERO)
        );
    }
}
