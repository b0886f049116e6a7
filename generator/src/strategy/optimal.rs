//! The proven optimum: at every node, the guess of an optimal strategy for the
//! secrets still possible there, found by [`crate::exact`].
//!
//! Objectives: the least total number of guesses (optionally with no secret needing
//! more than `--max-depth` guesses), or with `--objective worst` the least worst
//! case first (the smallest depth for which a strategy exists), then the least total
//! under it. With a time limit, nodes whose search did not finish in time get the
//! most-parts heuristic's guess, and the header says the tree is not proven optimal.

use super::{Heuristic, Options, Strategy};
use crate::exact::{lower_bound, Context, Exact, UNLIMITED};
use crate::partition::Codes;
use crate::search::{Counters, Node, Settings};
use lookup::format::StrategyInfo;
use lookup::score::answer_count;
use lookup::Board;
use std::sync::OnceLock;

pub struct Optimal {
    pub options: Options,
    pub board: Board,
    pub exact: Exact,
    /// The guess used where the search ran out of time.
    pub fallback: Heuristic,
    /// The worst case the tree is built for, once known.
    depth: OnceLock<Option<u32>>,
}

impl Optimal {
    pub fn new(options: Options, board: Board, fallback: Heuristic) -> Optimal {
        Optimal {
            exact: Exact::new(board, options.deadline),
            options,
            board,
            fallback,
            depth: OnceLock::new(),
        }
    }

    /// The most guesses any secret may take: the option, or for the worst-case
    /// objective the smallest depth that admits a strategy.
    fn depth(&self, context: Context, all: &[u32]) -> Option<u32> {
        *self.depth.get_or_init(|| {
            if !self.options.worst_first {
                return self.options.max_depth;
            }
            let answers = answer_count(self.board.pegs());
            let shallowest = (1..).find(|&d| lower_bound(all.len(), answers, d) != UNLIMITED)?;
            (shallowest..=all.len() as u32).find(|&depth| {
                self.exact.choose(context, all, &[], depth).is_some() || self.exact.timed_out()
            })
        })
    }
}

impl Strategy for Optimal {
    fn info(&self) -> StrategyInfo {
        let rule = if self.options.worst_first {
            "minimise the worst case, then the total number of guesses (exact branch and bound)"
        } else {
            "minimise the total number of guesses over all secrets (exact branch and bound)"
        };
        let mut params = self.options.params(self.board);
        if self.options.worst_first {
            if let Some(Some(depth)) = self.depth.get() {
                params.push(("worst case".into(), depth.to_string()));
            }
        }
        StrategyInfo {
            name: "optimal".into(),
            rule: rule.into(),
            tie_break: "a code that is still possible, then the first optimal guess by lower bound, then the smallest code"
                .into(),
            params,
            proven: Some(!self.exact.timed_out()),
        }
    }

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        let context = Context {
            codes,
            symmetry: settings.symmetry,
            counters,
        };
        if let (Some(first), true) = (self.options.first, node.history.is_empty()) {
            return first;
        }
        let all: Vec<u32> = (0..codes.len()).collect();
        let depth = self
            .depth(context, &all)
            .map_or(UNLIMITED, |d| d.saturating_sub(node.history.len() as u32));
        match self
            .exact
            .choose(context, node.candidates, node.history, depth)
        {
            Some((_, guess)) => guess,
            None => self.fallback.choose(codes, node, settings, counters),
        }
    }

    fn searched(&self) -> Option<u64> {
        Some(self.exact.nodes.load(std::sync::atomic::Ordering::Relaxed))
    }
}
