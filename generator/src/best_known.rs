//! What a time-limited exact search returns when time runs out: the best complete
//! tree it can vouch for, never worse than a heuristic's.
//!
//! Where the search ran out, nodes get a heuristic's guess under an exact guess
//! made for a subtree that was never finished; such a mixed tree can cost more
//! than a plain heuristic's. So the run also builds every heuristic's tree with the
//! same options and keeps the best under the objective (the total, or the worst
//! case then the total), the search's own on a tie. A heuristic's tree keeps its
//! own header, so `mmgen` rebuilds it from the file, and adds what the search did
//! prove: not proven, with the least total proven for the board.

use crate::codes::Codes;
use crate::strategy::{buildable, by_kind, Options};
use crate::{generate_on, Counters, Generated, Settings, Stop};
use lookup::format::{Param, StrategyKind};

/// The best of `searched` (an unproven exact tree built with `options`) and every
/// heuristic's tree on `codes` with the same options.
pub fn best_known(
    codes: &Codes,
    searched: Generated,
    options: Options,
    settings: Settings,
) -> Generated {
    let rank = |tree: &Generated| {
        let stats = &tree.meta.stats;
        let worst = if options.worst_first {
            stats.max_guesses
        } else {
            0
        };
        (worst, stats.total_guesses)
    };
    let floor = searched.meta.strategy.settings().proven_lower_bound;
    let heuristics = buildable().filter(|&k| k != StrategyKind::Optimal);
    let mut best = searched;
    for kind in heuristics {
        let plain = Options {
            max_depth: None,
            worst_first: false,
            deadline: None,
            ..options
        };
        let Some(strategy) = by_kind(kind, plain, codes.board()) else {
            continue;
        };
        // A heuristic that cannot finish by the run's stop is left out.
        let counters = Counters {
            stop: Stop::at(options.stop),
            ..Counters::default()
        };
        let Ok(tree) = generate_on(codes, strategy.as_ref(), settings, &counters) else {
            continue;
        };
        let within = options
            .max_depth
            .is_none_or(|d| tree.meta.stats.max_guesses <= d);
        if within && rank(&tree) < rank(&best) {
            best = tree;
        }
    }
    if best.meta.strategy.proven.is_none() {
        let info = &mut best.meta.strategy;
        info.proven = Some(false);
        if let (Some(floor), false) = (floor, options.worst_first) {
            let mut params = info.typed_params();
            params.push(Param::ProvenLowerBound(floor));
            info.set_params(&params);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use lookup::Board;
    use std::time::Instant;

    fn total(tree: &Generated) -> u64 {
        tree.meta.stats.total_guesses
    }

    /// With no time at all, the search's tree is the fallback heuristic's.
    fn out_of_time(board: Board, worst_first: bool) -> (Codes, Generated, Options) {
        let codes = Codes::new(board);
        let options = Options {
            deadline: Some(Instant::now()),
            worst_first,
            ..Options::default()
        };
        let optimal = by_kind(StrategyKind::Optimal, options, board).unwrap();
        let settings = Settings { symmetry: true };
        let searched =
            generate_on(&codes, optimal.as_ref(), settings, &Counters::default()).unwrap();
        assert_eq!(searched.meta.strategy.proven, Some(false));
        (codes, searched, options)
    }

    fn heuristic(kind: StrategyKind, board: Board) -> Generated {
        let s = by_kind(kind, Options::default(), board).unwrap();
        let settings = Settings { symmetry: true };
        generate(board, s.as_ref(), settings, &Counters::default()).unwrap()
    }

    #[test]
    fn a_search_out_of_time_keeps_the_best_heuristic_tree() {
        // 3x8: entropy's total is the least of the heuristics, below the fallback's.
        let board = Board::new(3, 8, true).unwrap();
        let (codes, searched, options) = out_of_time(board, false);
        let least = buildable()
            .filter(|&k| k != StrategyKind::Optimal)
            .map(|k| total(&heuristic(k, board)))
            .min()
            .unwrap();
        assert!(
            total(&searched) > least,
            "the test needs a worse search tree"
        );
        let kept = best_known(&codes, searched, options, Settings { symmetry: true });
        assert_eq!(total(&kept), least);
        let entropy = heuristic(StrategyKind::Entropy, board);
        assert!(kept.numbered.records == entropy.numbered.records);
        let info = &kept.meta.strategy;
        assert_eq!((info.name.as_str(), info.proven), ("entropy", Some(false)));
        let floor = info.settings().proven_lower_bound.unwrap();
        assert!(floor > 0 && floor <= least, "{floor}");
    }

    #[test]
    fn under_the_worst_objective_the_worst_case_ranks_first() {
        // 4x6: Knuth's tree has the least worst case (5) at the greatest total.
        let board = Board::classic();
        let (codes, searched, options) = out_of_time(board, true);
        assert_eq!(searched.meta.stats.max_guesses, 6);
        let kept = best_known(&codes, searched, options, Settings { symmetry: true });
        assert_eq!(kept.meta.strategy.name, "knuth");
        assert_eq!((kept.meta.stats.max_guesses, total(&kept)), (5, 5801));
    }
}
