//! The proven optimum: at every node, the guess of an optimal strategy for the
//! secrets still possible there, found by [`crate::exact`].
//!
//! Objectives: the least total number of guesses (optionally with no secret needing
//! more than `--max-depth` guesses, or with guesses only from the still-possible
//! codes), or with `--objective worst` the least worst case first (the smallest
//! depth for which a strategy exists), then the least total under it.
//!
//! "Proven" in the header means exactly that: the tree is optimal under every option
//! it records. So a depth no strategy can meet is found before the tree is built
//! ([`Strategy::check`]) and reported with the least worst case the search proves,
//! instead of a tree that breaks it. With a time limit, the tree is the cheapest the
//! search found where it found one (see the exact search's `found` module), nodes
//! it did not finish get the most-parts heuristic's guess, the header says the tree
//! is not proven, and it records the least total the search did prove (its floor);
//! [`crate::best_known`] then keeps a heuristic's tree instead if that is better.

use super::{Heuristic, Options, Standing, Strategy, Unmet};
use crate::codes::Codes;
use crate::exact::{lower_bound, Context, Exact, UNLIMITED};
use crate::{Counters, Node, Settings};
use lookup::format::{Param, StrategyInfo, StrategyKind};
use lookup::score::answer_count;
use lookup::Board;
use std::fs::File;
use std::sync::OnceLock;

pub struct Optimal {
    pub options: Options,
    pub board: Board,
    pub exact: Exact,
    /// The guess used where the search ran out of time.
    pub fallback: Heuristic,
    /// The worst case the tree is built for, once known (`None`: no limit).
    depth: OnceLock<Option<u32>>,
}

impl Optimal {
    pub fn new(options: Options, board: Board, fallback: Heuristic) -> Optimal {
        Optimal {
            exact: Exact::new(board, options.deadline, options.consistent_only)
                .with_cache(options.cache),
            options,
            board,
            fallback,
            depth: OnceLock::new(),
        }
    }

    /// Builds for at most `depth` guesses per secret without proving first that a
    /// strategy can meet it: for work items, whose merge finds that out.
    pub fn assume_depth(&self, depth: Option<u32>) {
        self.depth.get_or_init(|| depth);
    }

    /// Whether a strategy solves every secret within `depth` guesses (with the
    /// forced first guess, if any); `None` if time ran out before the search knew.
    fn feasible(&self, context: Context, all: &[u32], depth: u32) -> Option<bool> {
        let found = match self.options.first {
            None => self.exact.choose(context, all, &[], depth).is_some(),
            Some(first) => {
                let (split, wins) = context.codes.split(first, all);
                (wins || split.len() > 1)
                    && depth > 1
                    && split.iter().all(|(_, part)| {
                        self.exact
                            .choose(context, part, &[first], depth - 1)
                            .is_some()
                    })
            }
        };
        (found || !self.exact.timed_out()).then_some(found)
    }

    /// The least depth from `from` on that admits a strategy; `Err(())` if time ran
    /// out first.
    fn least_depth(&self, context: Context, all: &[u32], from: u32) -> Result<u32, ()> {
        let answers = answer_count(self.board.pegs());
        let shallowest = (1..)
            .find(|&d| lower_bound(all.len(), answers, d) != UNLIMITED)
            .unwrap_or(1);
        // n guesses always suffice (each one rules out at least one secret).
        for depth in from.max(shallowest)..=all.len() as u32 + 1 {
            match self.feasible(context, all, depth) {
                Some(true) => return Ok(depth),
                Some(false) => {}
                None => return Err(()),
            }
        }
        Err(())
    }

    /// Works out the depth limit the tree is built for.
    fn resolve_depth(&self, context: Context) -> Result<Option<u32>, Unmet> {
        let all: Vec<u32> = (0..context.codes.len()).collect();
        if self.options.worst_first {
            // If time runs out here, the tree is built with no limit and unproven.
            return Ok(self.least_depth(context, &all, 1).ok());
        }
        let Some(asked) = self.options.max_depth else {
            return Ok(None);
        };
        match self.feasible(context, &all, asked) {
            Some(true) => Ok(Some(asked)),
            Some(false) => Err(Unmet::Depth {
                asked,
                least: self.least_depth(context, &all, asked + 1).ok(),
                first: (self.options.first)
                    .and_then(|g| self.board.code(g))
                    .map(|g| self.board.display(g).to_string()),
            }),
            None => Err(Unmet::DepthUndecided { asked }),
        }
    }

    pub fn context<'a>(
        codes: &'a Codes,
        settings: Settings,
        counters: &'a Counters,
    ) -> Context<'a> {
        Context {
            codes,
            symmetry: settings.symmetry,
            counters,
            past_deadline: false,
        }
    }
}

impl Strategy for Optimal {
    fn info(&self, codes: &Codes) -> StrategyInfo {
        let rule = if self.options.worst_first {
            "minimise the worst case, then the total number of guesses (exact branch and bound)"
        } else {
            "minimise the total number of guesses over all secrets (exact branch and bound)"
        };
        let mut params = self.options.params(self.board);
        let proven = !self.exact.timed_out();
        let depth = self.depth.get().copied().flatten();
        if let (true, Some(depth)) = (self.options.worst_first && proven, depth) {
            params.push(Param::WorstCase(depth));
        }
        if let (false, Some(standing)) = (proven, self.standing(codes)) {
            params.push(Param::ProvenLowerBound(u64::from(standing.floor)));
        }
        let mut info = StrategyInfo {
            tie_break: "a code that is still possible, then the first optimal guess by lower bound, then the smallest code"
                .into(),
            proven: Some(proven),
            ..self.options.info(StrategyKind::Optimal, rule.into(), self.board)
        };
        info.set_params(&params);
        info
    }

    fn check(&self, codes: &Codes, settings: Settings, counters: &Counters) -> Result<(), Unmet> {
        let context = Optimal::context(codes, settings, counters);
        let depth = self.resolve_depth(context)?;
        self.depth.get_or_init(|| depth);
        Ok(())
    }

    fn max_depth(&self) -> Option<u32> {
        self.options.max_depth
    }

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        let context = Optimal::context(codes, settings, counters);
        if let (Some(first), true) = (self.options.first, node.history.is_empty()) {
            return first;
        }
        let depth = self
            .depth
            .get()
            .copied()
            .flatten()
            .map_or(UNLIMITED, |d| d.saturating_sub(node.history.len() as u32));
        // A guess worked out as the search solved the node's class, else the
        // search's; out of time, the tree the search found where it found one,
        // else the heuristic's guess.
        let kept = (self.exact).kept_guess(codes, node.candidates, node.history, depth);
        if let Some(guess) = kept {
            return guess;
        }
        (self.exact)
            .choose(context, node.candidates, node.history, depth)
            .map(|(_, guess)| guess)
            .or_else(|| self.exact.found_choice(context, *node, depth))
            .unwrap_or_else(|| self.fallback.choose(codes, node, settings, counters))
    }

    fn standing(&self, codes: &Codes) -> Option<Standing> {
        let all: Vec<u32> = (0..codes.len()).collect();
        let counters = Counters::default();
        let context = Optimal::context(codes, Settings { symmetry: true }, &counters);
        let root = Node {
            candidates: &all,
            history: &[],
        };
        let depth = match self.depth.get() {
            Some(depth) => *depth,
            // Still being worked out: no limit bounds every tree.
            None if self.options.worst_first => None,
            None => self.options.max_depth,
        };
        Some(self.exact.standing(
            context,
            root,
            depth.unwrap_or(UNLIMITED),
            self.options.first,
        ))
    }

    fn proven_total(&self, codes: &Codes) -> Option<u64> {
        if self.exact.timed_out() || self.options.first.is_some() {
            return None;
        }
        let all: Vec<u32> = (0..codes.len()).collect();
        let depth = self.depth.get().copied().flatten().unwrap_or(UNLIMITED);
        self.exact.exact_cost(codes, &all, depth).map(u64::from)
    }

    fn searched(&self) -> Option<u64> {
        Some(self.exact.nodes.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn keeps_checkpoints(&self) -> bool {
        true
    }

    fn save_checkpoint(&self, file: &File) -> Result<crate::exact::Checkpoint, String> {
        self.exact.save_checkpoint(file)
    }

    fn resume(&self, file: &File) -> Result<usize, String> {
        self.exact.resume(file)
    }

    fn prove_into(&self, proof: super::Proof) -> Result<(), super::Proof> {
        self.exact.prove_into(proof);
        Ok(())
    }

    fn take_proof(&self) -> Option<super::Proof> {
        self.exact.take_proof()
    }
}
