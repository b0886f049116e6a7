//! `--rollout-above N`: a rule that looks one guess further ahead at its big
//! nodes. At a node of more than N secrets every guess is tried (one of each
//! symmetry class), each played with the rule's own tree below it, and the guess
//! whose whole subtree costs least is played; smaller nodes are the rule's.
//!
//! Why: a rule scores a guess by the classes it makes, not by the tree it leads to,
//! and the two can disagree (`first_best` does this at the root only). Weighing
//! each guess by the tree the rule would grow below it is a rollout (Bertsekas,
//! Tsitsiklis and Wu, "Rollout algorithms for combinatorial optimization", 1997),
//! and it is never worse than the rule: the rule's own guess is tried and wins
//! ties, so at each node the guess played costs, with the rule below it, at most
//! what the rule's does; below it every class is again played by the rollout,
//! no dearer than by the rule (by induction from the small nodes, which are the
//! rule's). With `--exact-below`, the rule below a guess includes its exact
//! search, so the rollout is never worse than that tree either.
//!
//! The guesses tried are the smallest of each class of equivalent guesses at the
//! node (module `symmetry`), whatever `--no-symmetry` says, so that the file is
//! the same with it: equivalent guesses make the same classes, but the rule's trees
//! below them can differ a little (it breaks ties by the smallest code, which a
//! relabelling does not keep). A guess that neither wins nor splits the node is
//! never played. Guesses are weighed in parallel; the least (total, not the rule's
//! own, code) wins, so the choice is the same on any number of threads.
//!
//! `--rollout-width K` weighs only K of them: the rule's own and those it scores
//! best after it (the rule's score of each, one scan of the node). A node of 5x8
//! has hundreds of classes of guesses, each weighed by a subtree of thousands of
//! secrets; the rule's score is a good guide to which are worth it (on 5x6 with
//! N = 10, 64 of them found the tree weighing all of them found, in 1.6 s instead
//! of 40.6 s). The rule's own is still weighed, so the promise stands.

use super::{Heuristic, Strategy};
use crate::build::Expansion;
use crate::codes::{Codes, CLASS_SLOTS};
use crate::symmetry::Symmetry;
use crate::{Counters, Node, Settings};
use lookup::format::StrategyInfo;
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// A rule with a rollout at its nodes of more than `above` secrets, weighing
/// there the `width` guesses the rule scores best (every one, without).
pub struct Rollout {
    pub(super) rule: Heuristic,
    pub(super) above: u32,
    pub(super) width: Option<u32>,
}

impl Rollout {
    /// The guesses tried at `node`: one of each class of equivalent guesses
    /// (among the candidates only, if the rule guesses only those), and the rule's
    /// own `guess`; with a width, only the rule's own and the `width - 1` others it
    /// scores best (ties to the smaller code).
    fn tried(&self, codes: &Codes, node: &Node, own: u32, counters: &Counters) -> Vec<u32> {
        let symmetry = Symmetry::at(codes, node);
        let pool: Box<dyn Iterator<Item = u32>> = match self.rule.options.consistent_only {
            true => Box::new(node.candidates.iter().copied()),
            false => Box::new(0..codes.len()),
        };
        // Ascending, each code once: the rule's own is one of the pool's.
        let tried: Vec<u32> = pool
            .filter(|&g| {
                g == own
                    || symmetry
                        .as_ref()
                        .is_none_or(|s| s.is_representative(codes.code(g)))
            })
            .collect();
        let Some(width) = self.width else {
            return tried;
        };
        let secrets = codes.gather(node.candidates);
        let mut scored: Vec<(bool, u64, u32)> = (tried.into_par_iter())
            .map(|g| {
                let (mut classes, mut work) = ([0; CLASS_SLOTS], 0);
                let guess = codes.guess(g);
                let score = (self.rule.rule).score(
                    codes,
                    guess,
                    &secrets,
                    u64::MAX,
                    &mut classes,
                    &mut work,
                );
                counters.scorings.fetch_add(work, Ordering::Relaxed);
                (g != own, score.unwrap_or(u64::MAX), g)
            })
            .collect();
        scored.sort_unstable();
        scored.truncate(width as usize);
        scored.into_iter().map(|(_, _, g)| g).collect()
    }

    /// What `guess` costs at `node` with the rule's tree below it: the node's
    /// secrets plus the rule's subtree of each class; `None` if it makes no
    /// progress, or the run gave up.
    fn weigh(
        &self,
        codes: &Codes,
        node: &Node,
        guess: u32,
        settings: Settings,
        counters: &Counters,
    ) -> Option<u64> {
        let (split, wins) = codes.split(guess, node.candidates);
        if !wins && split.len() < 2 {
            return None;
        }
        let mut history = node.history.to_vec();
        history.push(guess);
        let below = Expansion::uncounted(codes, &self.rule, settings, counters);
        let mut total = node.candidates.len() as u64;
        for (_, class) in split.iter() {
            total += below.total(&history, class)?;
        }
        Some(total)
    }
}

impl Strategy for Rollout {
    fn info(&self, codes: &Codes) -> StrategyInfo {
        self.rule.info(codes)
    }

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        let own = self.rule.choose(codes, node, settings, counters);
        let forced = self.rule.options.first.is_some() && node.history.is_empty();
        if forced || node.candidates.len() <= self.above as usize {
            return own;
        }
        let weighed = self
            .tried(codes, node, own, counters)
            .into_par_iter()
            .filter_map(|g| {
                let total = self.weigh(codes, node, g, settings, counters)?;
                Some((total, g != own, g))
            });
        weighed.min().map_or(own, |(_, _, g)| g)
    }

    fn searched(&self) -> Option<u64> {
        self.rule.searched()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::expand;
    use crate::strategy::{by_kind, Options};
    use lookup::format::StrategyKind;
    use lookup::Board;

    const RULES: [StrategyKind; 4] = [
        StrategyKind::Knuth,
        StrategyKind::ExpectedSize,
        StrategyKind::Entropy,
        StrategyKind::MostParts,
    ];

    fn total(codes: &Codes, kind: StrategyKind, options: Options) -> u64 {
        let strategy = by_kind(kind, options, codes.board()).unwrap();
        let settings = Settings { symmetry: true };
        expand(codes, strategy.as_ref(), settings, &Counters::default()).total()
    }

    /// The rule's own guess, weighed, costs what the rule's whole tree costs: the
    /// step the argument that a rollout is never dearer stands on.
    #[test]
    fn the_rule_s_own_guess_weighs_what_its_tree_costs() {
        let codes = Codes::new(Board::new(4, 5, true).unwrap());
        let all: Vec<u32> = (0..codes.len()).collect();
        let node = Node {
            candidates: &all,
            history: &[],
        };
        let settings = Settings { symmetry: true };
        let counters = Counters::default();
        for kind in RULES {
            let rule = super::super::rule(kind, Options::default(), codes.board()).unwrap();
            let rollout = Rollout {
                rule,
                above: 2,
                width: None,
            };
            let own = rollout.rule.choose(&codes, &node, settings, &counters);
            let weighed = rollout.weigh(&codes, &node, own, settings, &counters);
            assert_eq!(
                weighed,
                Some(total(&codes, kind, Options::default())),
                "{kind:?}"
            );
        }
    }

    /// On every rule and several thresholds, the rollout's tree costs no more than
    /// the rule's, and entropy's costs less.
    #[test]
    fn a_rollout_is_never_dearer_than_its_rule() {
        let codes = Codes::new(Board::new(4, 4, true).unwrap());
        for kind in RULES {
            let plain = total(&codes, kind, Options::default());
            for above in [2, 8, 40] {
                let options = Options {
                    rollout_above: Some(above),
                    ..Options::default()
                };
                let rolled = total(&codes, kind, options);
                assert!(
                    rolled <= plain,
                    "{kind:?} above {above}: {rolled} > {plain}"
                );
                if kind == StrategyKind::Entropy && above == 2 {
                    assert!(rolled < plain, "{rolled} {plain}");
                }
                // Weighing fewer guesses: still never dearer than the rule; as
                // many as there are, the same tree as weighing them all.
                for (width, same) in [(2, false), (5, false), (u32::MAX, true)] {
                    let narrow = Options {
                        rollout_width: Some(width),
                        ..options
                    };
                    let total = total(&codes, kind, narrow);
                    assert!(total <= plain, "{kind:?} above {above} width {width}");
                    assert!(!same || total == rolled, "{kind:?} above {above}");
                }
            }
        }
    }
}
