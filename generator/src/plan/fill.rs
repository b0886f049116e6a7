//! A whole tree from a plan whose items are not all done: the items searched in
//! their places, every other class played as another tree of the board plays it
//! (`mmgen merge --fill TREE`).
//!
//! An exact plan of a big board takes days (5x8's), but each item done is the
//! optimum of its class, so the best tree known, with the items done put in its
//! places, is a tree at least as good, and better wherever the search beat it:
//! players get the campaign's gains as they come, not only at its end. The first
//! guess is the other tree's (it must be one the plan considers); below it the
//! plan's top and the tree must guess alike down to the items. An item not done
//! may be split a level deeper (`RUN/within-INDEX`), where a guess whose items
//! are all done is a whole tree of the class long before the split is: it goes
//! in where it beats the other tree (5x8's item 7, 157 guesses fewer on
//! 2026-12-01). Nothing is claimed of the result but what an audit of it
//! proves: no item left is searched here.

use super::run::trees_of;
use super::{Run, Top};
use crate::build::Subtree;

/// A plan's items and another tree, merged ([`Run::filled`]).
pub struct Filled {
    pub tree: Subtree,
    pub tally: Tally,
}

/// What a merge with another tree took from where.
#[derive(Default)]
pub struct Tally {
    /// The items under the tree's first guess whose subtrees were put in.
    pub searched: Vec<usize>,
    /// The items under it played as the other tree plays them (not done, or shown
    /// only to cost at least some total, too dear to matter).
    pub filled: Vec<usize>,
    /// What the items searched cost (their subtrees' totals), and what the other
    /// tree's subtrees in their places cost.
    pub searched_total: u64,
    pub replaced_total: u64,
    /// The items not done played as their splits' best guesses so far play them
    /// (`RUN/within-INDEX`, a guess costed in full below the other tree's subtree
    /// there), what those cost, and what the other tree's subtrees there cost.
    pub split: Vec<usize>,
    pub split_total: u64,
    pub split_replaced_total: u64,
}

impl Run {
    /// The plan's top with the items done in their places and `fill`'s subtrees
    /// (a tree of the whole board, from [`crate::import::from_tree`]) in the others.
    pub fn filled(&self, fill: Subtree) -> Result<Filled, String> {
        if let Some(within) = &self.plan.within {
            return Err(format!(
                "this plan is of item {}'s class of another plan, not of a whole tree: \
                 fill from a tree with that plan",
                within.item
            ));
        }
        let (_, outcomes) = self.read_all();
        let mut subtrees = trees_of(outcomes);
        // An item not done whose split has a guess costed in full: that guess's tree.
        let mut splits: Vec<Option<Subtree>> = (subtrees.iter().enumerate())
            .map(|(index, done)| match done {
                Some(_) => None,
                None => self.split(index).and_then(|split| split.best_so_far()),
            })
            .collect();
        let codes = crate::codes::Codes::new(self.plan.recipe.board);
        let name = |code: u32| {
            let board = codes.board();
            board
                .code(code)
                .map_or(code.to_string(), |c| board.display(c).to_string())
        };
        let top = match &self.plan.top {
            Top::Cheapest(options) => {
                let opens = fill.first_guess();
                let first = |option: &Top| match option {
                    Top::Node { guess, .. } => Some(*guess),
                    _ => None,
                };
                (options.iter())
                    .find(|option| first(option) == Some(opens))
                    .ok_or_else(|| {
                        let considered: Vec<String> =
                            options.iter().filter_map(first).map(&name).collect();
                        format!(
                            "the tree opens with {}, which the plan does not consider (it \
                             considers {}, one of each kind up to symmetry)",
                            name(opens),
                            considered.join(", ")
                        )
                    })?
            }
            top => top,
        };
        let mut tally = Tally::default();
        let mut from = From {
            items: &mut subtrees,
            splits: &mut splits,
        };
        let tree = put(top, fill, &mut from, &mut tally, &name)?;
        Ok(Filled { tree, tally })
    }
}

/// The subtrees a merge puts in, by item: the items done, and for an item not
/// done, its split's best guess so far.
struct From<'a> {
    items: &'a mut [Option<Subtree>],
    splits: &'a mut [Option<Subtree>],
}

/// `top` with the items' subtrees (taken from `from`) or `fill`'s in their
/// places; `fill` is the other tree's subtree for the same secrets. A split's
/// tree goes in only where it is cheaper than `fill`'s.
fn put(
    top: &Top,
    fill: Subtree,
    from: &mut From,
    tally: &mut Tally,
    name: &impl Fn(u32) -> String,
) -> Result<Subtree, String> {
    Ok(match (top, fill) {
        (Top::Item(index), fill) => {
            let split = (from.splits[*index].take()).filter(|tree| tree.total() < fill.total());
            match (from.items[*index].take(), split) {
                (Some(subtree), _) => {
                    tally.searched.push(*index);
                    tally.searched_total += subtree.total();
                    tally.replaced_total += fill.total();
                    subtree
                }
                (None, Some(subtree)) => {
                    tally.split.push(*index);
                    tally.split_total += subtree.total();
                    tally.split_replaced_total += fill.total();
                    subtree
                }
                (None, None) => {
                    tally.filled.push(*index);
                    fill
                }
            }
        }
        // One secret left, guessed: no tree does better.
        (Top::Leaf(code), _) => Subtree::Leaf(*code),
        (
            Top::Node {
                guess,
                wins,
                candidates,
                children,
            },
            Subtree::Node {
                guess: other,
                children: mut others,
                ..
            },
        ) if *guess == other => Subtree::Node {
            guess: *guess,
            wins: *wins,
            candidates: *candidates,
            children: (children.iter())
                .map(|(answer, child)| {
                    // Both play the same secrets with the same guess: the same answers.
                    let at = (others.iter())
                        .position(|(a, _)| a == answer)
                        .ok_or_else(|| {
                            format!("the tree has no branch the plan has after {}", name(*guess))
                        })?;
                    let (_, other) = others.swap_remove(at);
                    Ok((*answer, put(child, other, from, tally, name)?))
                })
                .collect::<Result<_, String>>()?,
        },
        (Top::Node { guess, .. }, other) => {
            return Err(format!(
                "the tree guesses {} where the plan's top guesses {}: fill from a tree \
                 that plays the plan's top",
                name(other.first_guess()),
                name(*guess)
            ))
        }
        (Top::Cheapest(_), _) => return Err("a plan's choice of first guess is nested".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{expand, number};
    use crate::codes::Codes;
    use crate::strategy::{by_kind, Options};
    use crate::{Counters, Settings};
    use lookup::format::StrategyKind;
    use lookup::Board;

    /// A tree of `kind` over every code of `codes`, opening with `first` if given.
    fn tree_of(codes: &Codes, kind: StrategyKind, first: Option<u32>) -> Subtree {
        let options = Options {
            first,
            ..Options::default()
        };
        let strategy = by_kind(kind, options, codes.board()).unwrap();
        let settings = Settings { symmetry: true };
        expand(codes, strategy.as_ref(), settings, &Counters::default())
    }

    /// The first step's subtrees of `tree`, by answer: what each item holds.
    fn below(tree: &Subtree) -> Vec<(usize, u64)> {
        match tree {
            Subtree::Node { children, .. } => (children.iter())
                .map(|(answer, child)| (*answer, child.total()))
                .collect(),
            Subtree::Leaf(_) => Vec::new(),
        }
    }

    /// An exact plan of `board` in a fresh folder of the temporary folder named
    /// after `name` and this process.
    fn exact_run(board: Board, name: &str) -> (std::path::PathBuf, Run) {
        let recipe = super::super::recipe_of(board, StrategyKind::Optimal);
        let plan = super::super::Plan::new(recipe, None).unwrap();
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let run = Run::create(&dir, plan, "mmgen", 1).unwrap();
        (dir, run)
    }

    #[test]
    fn the_items_done_replace_the_other_trees_classes_and_the_rest_is_kept() {
        let board = Board::new(3, 3, true).unwrap();
        let codes = Codes::new(board);
        let (dir, run) = exact_run(board, "mmgen-fill");
        let knuth = tree_of(&codes, StrategyKind::Knuth, None);
        let opens = knuth.first_guess();
        let (whole, parts) = (knuth.total(), below(&knuth));
        let under: Vec<usize> = (0..run.plan.items.len())
            .filter(|&i| run.plan.items[i].path[0].0 == opens)
            .collect();
        assert!(under.len() >= 2, "{under:?}");

        // No item done: the other tree, as it was.
        let none = run
            .filled(tree_of(&codes, StrategyKind::Knuth, None))
            .unwrap();
        assert_eq!((none.tree.total(), none.tally.searched.len()), (whole, 0));
        assert_eq!(none.tally.filled, under);

        // All but the last item under its first guess done: each in its place.
        for &index in &under[..under.len() - 1] {
            run.solve(index, &Counters::default()).unwrap();
        }
        let filled = run
            .filled(tree_of(&codes, StrategyKind::Knuth, None))
            .unwrap();
        let some = &filled.tally;
        assert_eq!(some.searched, under[..under.len() - 1]);
        assert_eq!(some.filled, [under[under.len() - 1]]);
        let answer = |index: usize| run.plan.items[index].path[0].1;
        let replaced: u64 = (parts.iter())
            .filter(|(a, _)| some.searched.iter().any(|&i| answer(i) == *a))
            .map(|(_, total)| total)
            .sum();
        assert_eq!(some.replaced_total, replaced);
        assert!(
            some.searched_total <= replaced,
            "an item is its class's optimum"
        );
        assert_eq!(
            filled.tree.total(),
            whole - replaced + some.searched_total,
            "the rest is the other tree's"
        );
        let numbered = number(&filled.tree);
        assert_eq!(numbered.stats.secrets, 27);
        assert_eq!(numbered.stats.total_guesses, filled.tree.total());

        // A first guess the plan does not consider (one of the same kind as one it
        // does, but not that one) is refused, naming those it considers.
        let Top::Cheapest(options) = &run.plan.top else {
            panic!("an exact plan chooses its first guess at the merge")
        };
        let considered =
            |g: u32| (options.iter()).any(|o| matches!(o, Top::Node { guess, .. } if *guess == g));
        let other = (0..codes.len()).find(|&g| !considered(g)).unwrap();
        let err = run
            .filled(tree_of(&codes, StrategyKind::Knuth, Some(other)))
            .err()
            .unwrap();
        assert!(err.contains("which the plan does not consider"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An item not done whose split has a guess costed in full goes in as that
    /// guess plays it, where that is cheaper than the other tree there; not while
    /// no guess is, nor where the other tree is as cheap.
    #[test]
    fn a_split_s_best_guess_so_far_plays_its_item_where_it_is_cheaper() {
        let board = Board::new(3, 4, true).unwrap();
        let codes = Codes::new(board);
        let (dir, run) = exact_run(board, "mmgen-fill-split");
        let fill = || tree_of(&codes, StrategyKind::Knuth, None);
        let opens = fill().first_guess();
        let parts = below(&fill());
        // The biggest class under the tree's first guess, split.
        let under = (0..run.plan.items.len()).filter(|&i| run.plan.items[i].path[0].0 == opens);
        let item = under.max_by_key(|&i| run.plan.items[i].secrets).unwrap();
        let answer = run.plan.items[item].path[0].1;
        let there = parts.iter().find(|(a, _)| *a == answer).unwrap().1;
        let split_plan = super::super::Plan::within(&run, item).unwrap();
        let split = Run::create(&run.split_dir(item), split_plan, "mmgen", 1).unwrap();
        // Nothing done there: no guess costed in full, the tree's class.
        assert!(split.best_so_far().is_none());
        let filled = run.filled(fill()).unwrap();
        assert_eq!(
            (filled.tally.split.len(), filled.tree.total()),
            (0, fill().total())
        );

        // Every item done: the cheapest guess's tree, each class its optimum.
        for index in 0..split.plan.items.len() {
            split.solve(index, &Counters::default()).unwrap();
        }
        let best = split.best_so_far().unwrap();
        // On 3x4 Knuth's tree plays that class in 39 guesses, its optimum is 36.
        assert_eq!((best.total(), there), (36, 39));
        let filled = run.filled(fill()).unwrap();
        let tally = &filled.tally;
        assert_eq!(tally.split, [item]);
        assert_eq!((tally.split_total, tally.split_replaced_total), (36, 39));
        assert!(!tally.filled.contains(&item));
        assert_eq!(filled.tree.total(), fill().total() - 3);
        // A tree that plays the class as cheaply keeps its own subtree there.
        let again = run.filled(run.filled(fill()).unwrap().tree).unwrap();
        assert!(again.tally.split.is_empty() && again.tally.filled.contains(&item));
        assert_eq!(again.tree.total(), filled.tree.total());
        let numbered = number(&filled.tree);
        assert_eq!(numbered.stats.secrets, u64::from(codes.len()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
