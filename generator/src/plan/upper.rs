//! What an exact item's class costs at most: the subtree the plan's heuristic
//! rule builds for it.
//!
//! A guess's gap (what its classes must still be shown to cost before it is too
//! dear) is asked of its classes in shares ([`super::exact::share`]), each by how
//! far it can still rise: from the least it is proven to cost to what a tree of
//! it costs. A class asked for more than that cannot be shown to cost it: its
//! search finds a cheaper subtree and must prove that subtree optimal, a search
//! of a wholly different size (5x8's 11123, 1,873 short with one class of 7,960
//! secrets left, whose entropy subtree costs 1,834 above that class's floor:
//! asked for all 1,873, it would be solved in full). The rule is the one the plan
//! found best at its root ([`super::Plan::heuristic`]): entropy on 5x8, whose
//! subtrees of a first guess's 18 classes take 0.4 s in all.

use super::{class, Plan, Recipe};
use crate::build::expand_below;
use crate::codes::Codes;
use crate::strategy::{by_kind, Options};
use crate::Counters;
use lookup::format::StrategyKind;
use std::collections::HashMap;
use std::sync::Mutex;

/// The items' heuristic subtrees' totals, worked out as they are asked for and
/// kept (a run's items are asked for again each time a budget is drawn).
pub struct Uppers {
    codes: Codes,
    kept: Mutex<HashMap<usize, Option<u64>>>,
}

impl Uppers {
    pub fn new(plan: &Plan) -> Uppers {
        Uppers {
            codes: Codes::new(plan.recipe.board),
            kept: Mutex::new(HashMap::new()),
        }
    }

    /// What item `index` of `plan` costs at most, by its heuristic subtree;
    /// `None` if the plan names no rule, or its subtree is deeper than the item
    /// may go.
    pub fn of(&self, plan: &Plan, index: usize) -> Option<u64> {
        let lock = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&total) = lock().get(&index) {
            return total;
        }
        let (kind, _) = plan.heuristic?;
        let item = &plan.items[index];
        let candidates = class(&self.codes, &item.path);
        let history: Vec<u32> = item.path.iter().map(|&(g, _)| g).collect();
        let depth = super::exact::depth_left(plan, item);
        let total = heuristic_total(
            &plan.recipe,
            &self.codes,
            kind,
            &history,
            &candidates,
            depth,
        );
        lock().insert(index, total);
        total
    }
}

/// The total of rule `kind`'s subtree for `candidates` (sorted) reached by
/// `history`, with the recipe's options, if it takes at most `depth` guesses a
/// secret.
pub fn heuristic_total(
    recipe: &Recipe,
    codes: &Codes,
    kind: StrategyKind,
    history: &[u32],
    candidates: &[u32],
    depth: u32,
) -> Option<u64> {
    let options = Options {
        consistent_only: recipe.consistent_only,
        first: recipe.first,
        ..Options::default()
    };
    let rule = by_kind(kind, options, recipe.board)?;
    let counters = Counters::default();
    let tree = expand_below(
        codes,
        rule.as_ref(),
        recipe.settings(),
        &counters,
        history,
        candidates,
    );
    (tree.depth() <= depth).then(|| tree.total())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::expand;
    use crate::plan::{recipe_of, Top};

    /// Each guess of an exact plan on 4x4, its classes played by their upper
    /// subtrees, costs what the plan's rule's whole tree opening with that guess
    /// costs: the same subtrees, worked out one class at a time.
    #[test]
    fn a_guess_s_classes_cost_at_most_what_its_heuristic_tree_costs_them() {
        let board = lookup::Board::new(4, 4, true).unwrap();
        let recipe = recipe_of(board, StrategyKind::Optimal);
        let plan = Plan::new(recipe.clone(), None).unwrap();
        let (kind, _) = plan.heuristic.unwrap();
        let uppers = Uppers::new(&plan);
        let codes = Codes::new(board);
        let Top::Cheapest(options) = &plan.top else {
            panic!("an exact plan's top is its guesses");
        };
        assert!(options.len() > 1);
        for option in options {
            let Top::Node {
                guess,
                candidates,
                children,
                ..
            } = option
            else {
                panic!("a guess's children are its classes");
            };
            let classes = children.iter().map(|(_, child)| match child {
                Top::Item(index) => uppers.of(&plan, *index).unwrap(),
                Top::Leaf(_) => 1,
                _ => panic!("one level"),
            });
            let by_items = u64::from(*candidates) + classes.sum::<u64>();
            let options = Options {
                first: Some(*guess),
                ..Options::default()
            };
            let rule = by_kind(kind, options, board).unwrap();
            let counters = Counters::default();
            let whole = expand(&codes, rule.as_ref(), recipe.settings(), &counters);
            assert_eq!(by_items, whole.total(), "guess {guess}");
        }
        // Asked again, from what was kept.
        assert_eq!(uppers.of(&plan, 0), uppers.of(&plan, 0));
    }
}
