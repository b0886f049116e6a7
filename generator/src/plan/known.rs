//! A tree of the board the run knows besides its plan's heuristic: `RUN/known.mmt`.
//!
//! An item proves its class's optimum only below a budget drawn from the best total
//! known (the exact module): at the plan's making a heuristic tree's, later any
//! first guess costed in full. Until then, the items done with a good tree's
//! subtrees in the other classes' places make a better tree (`mmgen merge --fill`:
//! on 5x8 178591 against the plan's heuristic 179863), and each item of a rival
//! first guess searched under the budget that tree leaves stops sooner, its guess
//! shown dearer with less search. Such a tree, put in the run's folder as
//! `known.mmt`, is read each time budgets are drawn, so a better one put there
//! while items run lowers their budgets too.
//!
//! Beside a split (a plan of an item's class, whose items' paths run from the
//! board's first guess), the tree is still a tree of the board, and must play
//! the split's class: its subtree there is a strategy for the class, whose total
//! is the class's least known. A tree after another first guess than the best
//! one's (a rollout after 5x8's 11223, whose big classes are split) so tightens
//! the splits of that guess, which the best tree above does not play.
//!
//! The file is untrusted input, and a budget drawn from a total no tree of the
//! plan's options reaches would leave the proof short (the merge would find a
//! first guess undecided): it is checked as an imported tree is (every node against
//! the secrets that reach it, `import::tree_file`), then against the plan's
//! options (only consistent guesses, the depth limit, a forced first guess), and
//! only its total and its subtrees in the items' places are used. Budgets only
//! decide how soon a guess is shown dearer, never what the kept first guess's
//! items hold, so the merged tree is the same bytes with or without it.
//!
//! Where the tree plays an item's path (the first guess it opens with, most
//! often), its subtree there is a strategy for the item's class, so the class's
//! optimum is at most that subtree's total: a search under that total plus one
//! still finds the optimum, and that budget is often below the one drawn from the
//! whole tree, which leaves an item the slack of every class not yet costed
//! beside it (5x8's item 7: 27,865 against its subtree's 25,193). It saves what
//! the first guesses tried cost past the subtree: 5x8's item 6 searched 90,394
//! positions instead of 98,285 (88.7 against 90.2 s), item 3 192,835 instead of
//! 192,845, the same parts (BENCHMARKS.md, "an item's budget capped").

use super::Plan;
use crate::build::Subtree;
use crate::codes::Codes;
use std::path::Path;

/// The file's name in a run's folder.
pub const FILE: &str = "known.mmt";

/// What the tree in a run's folder tells the budgets.
#[derive(Debug, PartialEq, Eq)]
pub struct Known {
    /// The tree's total.
    pub total: u64,
    /// Per item of the plan: what the tree's subtree for the item's class costs,
    /// if the tree plays the item's path.
    pub items: Vec<Option<u64>>,
}

/// The tree in `dir`'s `known.mmt`, checked to be a tree of the board that
/// `plan`'s options allow; `None` if there is no such file. Beside a split (a
/// plan of an item's class), the tree must play that class: its total is then
/// the class's, its subtree's there.
pub fn read(dir: &Path, plan: &Plan) -> Result<Option<Known>, String> {
    let path = dir.join(FILE);
    // A link to no file is a tree meant and missing: an error, not none.
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let refuse = |why: String| Err(format!("{}: {why}", path.display()));
    let recipe = &plan.recipe;
    let codes = Codes::new(recipe.board);
    let tree = crate::import::tree_file(&codes, &path)?.tree;
    // A split's class: the tree's subtree for it, reached by the path from the
    // board's first guess (the items' paths run from there too).
    let class = match &plan.within {
        None => &tree,
        Some(within) => match subtree_at(&tree, &within.path) {
            Some(class) => class,
            None => {
                return refuse(format!(
                    "it does not play the class of item {} of the plan above (its guesses \
                     and answers from the first guess): a tree beside a split must",
                    within.item
                ))
            }
        },
    };
    if let Some(first) = recipe.first {
        if tree.first_guess() != first {
            return refuse("it opens with another guess than the plan's forced first guess".into());
        }
    }
    if let Some(limit) = recipe.max_depth {
        let depth = tree.depth();
        if depth > limit {
            return refuse(format!(
                "it takes {depth} guesses for some secret, past the plan's limit of {limit}"
            ));
        }
    }
    if recipe.consistent_only && !consistent(&tree) {
        return refuse("it makes a guess no secret left could be, which the plan does not".into());
    }
    Ok(Some(Known {
        total: class.total(),
        items: (plan.items.iter())
            .map(|item| subtree_at(&tree, &item.path).map(Subtree::total))
            .collect(),
    }))
}

/// The subtree of `tree` that the guesses and answers of `path` reach, if `tree`
/// plays those guesses.
fn subtree_at<'a>(tree: &'a Subtree, path: &[(u32, usize)]) -> Option<&'a Subtree> {
    let Some(((guess, answer), rest)) = path.split_first() else {
        return Some(tree);
    };
    match tree {
        Subtree::Node {
            guess: played,
            children,
            ..
        } if played == guess => {
            let (_, child) = children.iter().find(|(a, _)| a == answer)?;
            subtree_at(child, rest)
        }
        _ => None,
    }
}

/// Whether every guess of `tree` could be one of the secrets that reach it.
fn consistent(tree: &Subtree) -> bool {
    match tree {
        Subtree::Leaf(_) => true,
        Subtree::Node { wins, children, .. } => {
            *wins && children.iter().all(|(_, child)| consistent(child))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::expand;
    use crate::output::write_tree_file;
    use crate::plan::Run;
    use crate::strategy::{by_kind, Options};
    use crate::{lay_out, Counters, Settings};
    use lookup::format::{StrategyInfo, StrategyKind};
    use lookup::Board;

    /// `kind`'s tree of `board`, written to `dir`'s `known.mmt`: its total.
    fn known_tree(dir: &Path, board: Board, kind: StrategyKind, options: Options) -> u64 {
        let codes = Codes::new(board);
        let strategy = by_kind(kind, options, board).unwrap();
        let settings = Settings { symmetry: true };
        let tree = expand(&codes, strategy.as_ref(), settings, &Counters::default());
        let info = StrategyInfo {
            name: kind.name().into(),
            rule: String::new(),
            tie_break: String::new(),
            params: Vec::new(),
            proven: None,
        };
        let path = dir.join(FILE);
        write_tree_file(&path, &lay_out(board, &tree, info), true).unwrap();
        tree.total()
    }

    /// An exact plan of `board` in a fresh folder (`mmgen-NAME-PID` in the
    /// temporary folder) with the optimal tree beside it: the folder, the plan,
    /// its run and the tree's total.
    fn beside_the_optimum(board: Board, name: &str) -> (std::path::PathBuf, Plan, Run, u64) {
        let recipe = super::super::recipe_of(board, StrategyKind::Optimal);
        let dir = std::env::temp_dir().join(format!("mmgen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let plan = Plan::new(recipe, None).unwrap();
        let run = Run::create(&dir, plan.clone(), "mmgen", 1).unwrap();
        let total = known_tree(&dir, board, StrategyKind::Optimal, Options::default());
        (dir, plan, run, total)
    }

    /// An item's budget is at most one more than the known tree's subtree there
    /// costs (a search under it still finds the class's optimum), where the
    /// budget drawn from the whole tree's total leaves it more: on 4x5, with the
    /// optimal tree, the other classes' floors below their costs.
    #[test]
    fn an_item_s_budget_is_capped_by_the_known_tree_s_subtree_in_its_place() {
        let (dir, plan, run, _) = beside_the_optimum(Board::new(4, 5, true).unwrap(), "capped");
        let known = read(&dir, &plan).unwrap().unwrap();
        let Ok(super::super::Builder::Exact(optimal)) = plan.recipe.builder() else {
            panic!("an exact plan builds an exact search");
        };
        let budgets: Vec<u64> = (0..plan.items.len())
            .map(|index| u64::from(run.budget(&optimal, index).unwrap()))
            .collect();
        let played: Vec<(u64, u64)> = (known.items.iter().zip(&budgets))
            .filter_map(|(cost, &budget)| Some((cost.as_ref()? + 1, budget)))
            .collect();
        assert!(
            played.iter().all(|&(cap, budget)| budget <= cap),
            "{played:?}"
        );
        // Without the cap, the whole tree's total leaves some class more.
        let beside = run.tree_beside().unwrap();
        let items = run.known(&optimal).1;
        let drawn = |index| super::super::exact::budget(&plan, index, &items, beside, None);
        assert!(
            (0..plan.items.len())
                .any(|i| known.items[i].is_some_and(|c| drawn(i).unwrap() > c + 1)),
            "{played:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A split whose own best so far is its heuristic's tree counts, in its first
    /// guess's tree known, at the known tree's subtree there where that is less:
    /// on 4x6, with the optimal tree beside the plan and the other items of its
    /// first guess done, that first guess's tree known is the optimal tree.
    #[test]
    fn a_split_counts_at_the_known_tree_s_subtree_where_it_is_cheaper() {
        let (dir, plan, run, optimum) =
            beside_the_optimum(Board::new(4, 6, true).unwrap(), "known-split");
        let known = read(&dir, &plan).unwrap().unwrap();
        // The biggest class the known tree plays, split; the other items of its
        // first guess solved.
        let played: Vec<usize> = (0..plan.items.len())
            .filter(|&i| known.items[i].is_some())
            .collect();
        let item = *played
            .iter()
            .max_by_key(|&&i| plan.items[i].secrets)
            .unwrap();
        let split_plan = super::super::Plan::within(&run, item).unwrap();
        let split = Run::create(&run.split_dir(item), split_plan, "mmgen", 1).unwrap();
        for &index in played.iter().filter(|&&i| i != item) {
            run.solve(index, &Counters::default()).unwrap();
        }
        let own = split
            .status()
            .unwrap()
            .standing
            .unwrap()
            .best_known
            .unwrap();
        let there = known.items[item].unwrap();
        assert!(
            own > there,
            "the split's heuristic {own}, the known tree's {there}"
        );
        let standing = run.status().unwrap().standing.unwrap();
        let first = &plan.items[item].path[0].0;
        let first = standing.firsts.iter().find(|f| f.guess == *first).unwrap();
        assert_eq!(first.cost.tree(), Some(optimum), "{first:?}");
        assert_eq!(standing.split_best.map(|(_, total)| total), Some(optimum));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A tree of the board beside a split (in the split's folder) counts at its
    /// subtree for the split's class: the split's least total known is that
    /// subtree's total where it is below the split's heuristic's, and its items'
    /// budgets are capped by the subtrees in their places (on 4x6, the optimal
    /// tree beside a split of its biggest class).
    #[test]
    fn a_tree_beside_a_split_counts_at_its_subtree_for_the_class() {
        let (dir, plan, run, _) =
            beside_the_optimum(Board::new(4, 6, true).unwrap(), "known-beside-split");
        let known = read(&dir, &plan).unwrap().unwrap();
        let item = (0..plan.items.len())
            .filter(|&i| known.items[i].is_some())
            .max_by_key(|&i| plan.items[i].secrets)
            .unwrap();
        let split_plan = super::super::Plan::within(&run, item).unwrap();
        let split = Run::create(&run.split_dir(item), split_plan.clone(), "mmgen", 1).unwrap();
        let heuristic = u64::from(split_plan.heuristic.unwrap().1);
        let there = known.items[item].unwrap();
        assert!(heuristic > there, "{heuristic} {there}");
        std::fs::copy(dir.join(FILE), run.split_dir(item).join(FILE)).unwrap();
        let beside = read(&run.split_dir(item), &split_plan).unwrap().unwrap();
        assert_eq!(beside.total, there);
        let standing = split.status().unwrap().standing.unwrap();
        assert_eq!(standing.best_known, Some(there));
        let Ok(super::super::Builder::Exact(optimal)) = split_plan.recipe.builder() else {
            panic!("an exact plan builds an exact search");
        };
        let played: Vec<usize> = (0..split_plan.items.len())
            .filter(|&i| beside.items[i].is_some())
            .collect();
        assert!(!played.is_empty());
        for index in played {
            let budget = u64::from(split.budget(&optimal, index).unwrap());
            assert!(
                budget <= beside.items[index].unwrap() + 1,
                "{index}: {budget}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_known_tree_bounds_the_budgets_only_if_the_plan_s_options_allow_it() {
        let board = Board::new(3, 4, true).unwrap();
        let recipe = super::super::recipe_of(board, StrategyKind::Optimal);
        let dir = std::env::temp_dir().join(format!("mmgen-known-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let plan = Plan::new(recipe, None).unwrap();
        let heuristic = u64::from(plan.heuristic.unwrap().1);
        let run = Run::create(&dir, plan.clone(), "mmgen", 1).unwrap();
        let best_known = |run: &Run| run.status().map(|s| s.standing.unwrap().best_known);
        assert_eq!(read(&dir, &plan), Ok(None));
        assert_eq!(best_known(&run), Ok(Some(heuristic)));

        // Knuth's tree: its total, checked; the least total known is the lesser.
        let knuth = known_tree(&dir, board, StrategyKind::Knuth, Options::default());
        let known = read(&dir, &plan).unwrap().unwrap();
        assert_eq!(known.total, knuth);
        // Its subtrees in the places of the items of its first guess, none for
        // the others': with the first guess's own and its classes of one secret
        // (a guess each), its total.
        let codes = Codes::new(board);
        let tree = crate::import::tree_file(&codes, &dir.join(FILE))
            .unwrap()
            .tree;
        let opens = tree.first_guess();
        assert_eq!(plan.depth, 1);
        let (mine, others): (Vec<_>, Vec<_>) =
            (plan.items.iter().zip(&known.items)).partition(|(item, _)| item.path[0].0 == opens);
        assert!(others.iter().all(|(_, cost)| cost.is_none()) && !others.is_empty());
        let all: Vec<u32> = (0..codes.len()).collect();
        let singles = (codes.split(opens, &all).0.iter())
            .filter(|(_, part)| part.len() == 1)
            .count() as u64;
        let items: u64 = mine.iter().map(|(_, cost)| cost.unwrap()).sum();
        assert_eq!(codes.len() as u64 + singles + items, knuth);
        assert_eq!(best_known(&run), Ok(Some(knuth.min(heuristic))));
        // The optimal tree, below the plan's heuristic: the least total known.
        let optimum = known_tree(&dir, board, StrategyKind::Optimal, Options::default());
        assert!(optimum < heuristic, "{optimum} {heuristic}");
        assert_eq!(best_known(&run), Ok(Some(optimum)));

        // A tree the options do not allow is refused, saying why.
        let with = |change: &dyn Fn(&mut Plan)| {
            let mut other = plan.clone();
            change(&mut other);
            other
        };
        let refused = |plan: &Plan, why: &str| {
            let err = read(&dir, plan).unwrap_err();
            assert!(err.contains(FILE) && err.contains(why), "{err}");
        };
        refused(
            &with(&|p| p.recipe.max_depth = Some(2)),
            "past the plan's limit of 2",
        );
        let codes = Codes::new(board);
        let opens = crate::import::tree_file(&codes, &dir.join(FILE))
            .unwrap()
            .tree;
        let first = opens.first_guess() + 1;
        refused(
            &with(&|p| p.recipe.first = Some(first)),
            "forced first guess",
        );
        // Beside a split, it must play the split's class.
        let within = super::super::Within {
            parent: 0,
            item: 0,
            path: vec![(first, 0)],
        };
        refused(
            &with(&|p| p.within = Some(within.clone())),
            "does not play the class of item 0",
        );
        // Only consistent guesses: a tree of them counts.
        let consistent_only = Options {
            consistent_only: true,
            ..Options::default()
        };
        let allowed = known_tree(&dir, board, StrategyKind::Knuth, consistent_only);
        let only = with(&|p| p.recipe.consistent_only = true);
        assert_eq!(read(&dir, &only).unwrap().unwrap().total, allowed);
        // A guess no secret left could be: one secret left, another code guessed.
        let wasted = Subtree::Node {
            guess: 0,
            wins: false,
            candidates: 1,
            children: vec![(0, Subtree::Leaf(5))],
        };
        assert!(!consistent(&wasted) && consistent(&Subtree::Leaf(5)));

        // A link to no file: an error naming it.
        let path = dir.join(FILE);
        let kept = dir.join("kept.mmt");
        std::fs::rename(&path, &kept).unwrap();
        std::os::unix::fs::symlink(dir.join("gone.mmt"), &path).unwrap();
        assert!(read(&dir, &plan).unwrap_err().contains("cannot open"));
        std::fs::remove_file(&path).unwrap();
        std::fs::rename(&kept, &path).unwrap();

        // A damaged file: an error naming it, from the status too.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(read(&dir, &plan).unwrap_err().contains(FILE));
        assert!(best_known(&run).unwrap_err().contains(FILE));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
