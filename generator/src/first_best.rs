//! `--first best`: a rule's complete tree for one first guess of each symmetry class
//! of the board, and the best of those trees.
//!
//! A rule scores its first guess like any other node, by the classes that guess
//! makes, not by the whole tree it leads to, and the two can disagree: on 7x7
//! Knuth's rule needs 9 guesses after its own first guess and 8 after 1122334
//! (RESULTS.md). Guesses that a peg and colour permutation maps onto each other
//! make the same classes, so one per class is tried: the class's smallest code
//! (the board has few classes: 5 on the classic board, 15 on 7x7). The trees of
//! two equivalent first guesses can still differ a little, since a rule breaks
//! its ties by the smallest code and a permutation does not keep that order; what
//! is tried is exactly the list [`first_guesses`] gives, whatever `--no-symmetry`
//! says, so the file is the same with it.
//!
//! The best tree has the least total, or with `worst_first` the least worst case
//! and then the least total; a tie goes to the smaller first guess. It is the tree
//! `--first CODE` builds for its first guess, header included, so the file names
//! that guess and `mmgen` rebuilds it from the file.

use crate::codes::Codes;
use crate::strategy::{by_kind, Options};
use crate::symmetry::Symmetry;
use crate::{generate_on, Counters, Generated, Settings};
use lookup::format::StrategyKind;
use lookup::Code;

/// Why the exact search does not take `--first best`.
pub const NOT_FOR_OPTIMAL: &str =
    "--first best is for the rules: the exact search tries every first guess itself";

/// A first guess tried, with its tree's total and worst case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tried {
    pub first: u32,
    pub total: u64,
    pub worst: u32,
}

/// The first guesses tried: the smallest code of each class of equivalent first
/// guesses of the board, ascending.
pub fn first_guesses(codes: &Codes) -> Vec<u32> {
    let board = codes.board();
    let all: Vec<Code> = board.codes().collect();
    let symmetry = Symmetry::new(board, &[], &all);
    (0..codes.len())
        .filter(|&g| symmetry.is_representative(codes.code(g)))
        .collect()
}

/// The best of the trees the rule `kind` builds with `options` after each of
/// [`first_guesses`] (see the module docs; `options.worst_first` ranks them and
/// is not the rule's), and every guess tried, in order; `tried` hears of each as
/// its tree is done, with how many trees are done and how many there are.
/// `counters` add up the work of all the trees.
pub fn best_first(
    codes: &Codes,
    kind: StrategyKind,
    options: Options,
    settings: Settings,
    counters: &Counters,
    mut tried: impl FnMut(&Tried, usize, usize),
) -> Result<(Generated, Vec<Tried>), String> {
    if kind == StrategyKind::Optimal {
        return Err(NOT_FOR_OPTIMAL.into());
    }
    let rank = |t: &Tried| {
        if options.worst_first {
            (t.worst, t.total)
        } else {
            (0, t.total)
        }
    };
    let mut best: Option<(Generated, Tried)> = None;
    let mut all = Vec::new();
    let firsts = first_guesses(codes);
    for &first in &firsts {
        let forced = Options {
            first: Some(first),
            worst_first: false,
            ..options
        };
        let strategy = by_kind(kind, forced, codes.board()).ok_or("unknown strategy")?;
        let tree =
            generate_on(codes, strategy.as_ref(), settings, counters).map_err(|e| e.to_string())?;
        let stats = &tree.meta.stats;
        let this = Tried {
            first,
            total: stats.total_guesses,
            worst: stats.max_guesses,
        };
        all.push(this);
        tried(&this, all.len(), firsts.len());
        if best.as_ref().is_none_or(|(_, b)| rank(&this) < rank(b)) {
            best = Some((tree, this));
        }
    }
    let (tree, _) = best.ok_or("the board has no codes")?;
    Ok((tree, all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{CacheSettings, DEFAULT_CACHE_MIB};
    use lookup::Board;

    fn options() -> Options {
        Options {
            consistent_only: false,
            first: None,
            max_depth: None,
            worst_first: false,
            deadline: None,
            stop: None,
            exact_below: None,
            rollout_above: None,
            rollout_width: None,
            cache: CacheSettings {
                bytes: DEFAULT_CACHE_MIB << 20,
                canonical_keys: true,
            },
        }
    }

    #[test]
    fn the_best_first_guess_is_the_best_of_every_class() {
        let codes = Codes::new(Board::classic());
        let firsts: Vec<String> = (first_guesses(&codes).iter())
            .map(|&g| codes.board().display(codes.code(g)).to_string())
            .collect();
        assert_eq!(firsts, ["1111", "1112", "1122", "1123", "1234"]);
        let settings = Settings { symmetry: true };
        for worst_first in [false, true] {
            let mut heard = Vec::new();
            let ranked = Options {
                worst_first,
                ..options()
            };
            let (tree, tried) = best_first(
                &codes,
                StrategyKind::Knuth,
                ranked,
                settings,
                &Counters::default(),
                |t, done, of| {
                    assert_eq!((done, of), (heard.len() + 1, 5));
                    heard.push(*t)
                },
            )
            .unwrap();
            assert_eq!(tried, heard);
            assert_eq!(tried.len(), 5);
            let stats = &tree.meta.stats;
            let key = |t: &Tried| (if worst_first { t.worst } else { 0 }, t.total);
            let least = tried.iter().map(key).min().unwrap();
            assert_eq!(
                key(&Tried {
                    first: 0,
                    total: stats.total_guesses,
                    worst: stats.max_guesses
                }),
                least
            );
            // Each tried tree is the one --first builds for that guess.
            for t in &tried {
                let forced = Options {
                    first: Some(t.first),
                    ..options()
                };
                let strategy = by_kind(StrategyKind::Knuth, forced, codes.board()).unwrap();
                let alone =
                    generate_on(&codes, strategy.as_ref(), settings, &Counters::default()).unwrap();
                assert_eq!(alone.meta.stats.total_guesses, t.total);
            }
        }
        let refused = best_first(
            &codes,
            StrategyKind::Optimal,
            options(),
            settings,
            &Counters::default(),
            |_, _, _| {},
        );
        assert!(refused.is_err());
    }
}
