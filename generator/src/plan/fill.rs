//! A whole tree from a plan whose items are not all done: the items searched in
//! their places, every other class played as another tree of the board plays it
//! (`mmgen merge --fill TREE`).
//!
//! An exact plan of a big board takes days (5x8's), but each item done is the
//! optimum of its class, so the best tree known, with the items done put in its
//! places, is a tree at least as good, and better wherever the search beat it:
//! players get the campaign's gains as they come, not only at its end. The first
//! guess is the other tree's (it must be one the plan considers); below it the
//! plan's top and the tree must guess alike down to the items. Nothing is claimed
//! of the result but what an audit of it proves: no item left is searched here.

use super::item::Outcome;
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
        let mut subtrees: Vec<Option<Subtree>> = (outcomes.into_iter())
            .map(|outcome| match outcome {
                Some(Outcome::Tree(subtree)) => Some(subtree),
                _ => None,
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
        let tree = put(top, fill, &mut subtrees, &mut tally, &name)?;
        Ok(Filled { tree, tally })
    }
}

/// `top` with the items' subtrees (taken from `subtrees`) or `fill`'s in their
/// places; `fill` is the other tree's subtree for the same secrets.
fn put(
    top: &Top,
    fill: Subtree,
    subtrees: &mut [Option<Subtree>],
    tally: &mut Tally,
    name: &impl Fn(u32) -> String,
) -> Result<Subtree, String> {
    Ok(match (top, fill) {
        (Top::Item(index), fill) => match subtrees[*index].take() {
            Some(subtree) => {
                tally.searched.push(*index);
                tally.searched_total += subtree.total();
                tally.replaced_total += fill.total();
                subtree
            }
            None => {
                tally.filled.push(*index);
                fill
            }
        },
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
                    Ok((*answer, put(child, other, subtrees, tally, name)?))
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

    #[test]
    fn the_items_done_replace_the_other_trees_classes_and_the_rest_is_kept() {
        let board = Board::new(3, 3, true).unwrap();
        let codes = Codes::new(board);
        let recipe = super::super::recipe_of(board, StrategyKind::Optimal);
        let plan = super::super::Plan::new(recipe, None).unwrap();
        let dir = std::env::temp_dir().join(format!("mmgen-fill-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let run = Run::create(&dir, plan, "mmgen", 1).unwrap();
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
}
