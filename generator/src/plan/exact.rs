//! Exact plans: work items that prove the optimum between them.
//!
//! The exact search keeps, at the root, the first of the cheapest of the guesses it
//! tries there ([`crate::exact::Exact::options_at`]), and a first guess costs
//! its secrets plus the optimum of each of its answer classes. So an exact plan's
//! top is [`Top::Cheapest`] over those guesses, with one item per class of two or
//! more secrets.
//!
//! Most first guesses lose, and proving a class's optimum costs far more than
//! proving it too dear. So an item proves its class's optimum only below a budget:
//! the best total known plus one (a heuristic tree's total at the start, or a
//! better tree's put beside the plan: the known module; then any first guess
//! whose items are all done, or done but for splits that each have a tree of
//! their own so far), less what the class's siblings cost at least (their
//! proven costs, or their floors two guesses ahead: the floors module). A class
//! that reaches its budget is recorded as costing at least that much, which puts
//! its first guess above the best total; with shares ([`share`]) a class is asked
//! for its share of its guess's gap, and one that reaches that is asked again
//! if its guess's other classes leave the guess open ([`reopened`]). The plus one lets ties be proven, and the merge breaks
//! them as the search does, by position. The kept first guess's items all hold their subtrees,
//! and those are the single run's: the search keeps the same guess at a node
//! whatever its budget or cache held.

use super::upper::heuristic_total;
use super::{class, Item, Plan, Recipe, Top, TopBuilder, Within};
use crate::codes::Codes;
use crate::exact::UNLIMITED;
use crate::strategy::Optimal;
use crate::{Counters, Node};
use lookup::format::StrategyKind;

/// What an item, or a first guess, is known to cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    Exact(u64),
    AtLeast(u64),
    /// At least the first, and a tree of the second is known: an item split a
    /// level deeper ([`crate::plan::Run::split`]) whose split has a tree so far.
    Between(u64, u64),
}

/// At or past this, a cost means "cannot be done within the depth limit".
pub const NEVER: u64 = UNLIMITED as u64;

impl Cost {
    pub fn least(self) -> u64 {
        match self {
            Cost::Exact(cost) | Cost::AtLeast(cost) | Cost::Between(cost, _) => cost,
        }
    }

    /// The total of a tree known to reach it, if one is.
    pub fn tree(self) -> Option<u64> {
        match self {
            Cost::Exact(cost) | Cost::Between(_, cost) => Some(cost),
            Cost::AtLeast(_) => None,
        }
    }

    fn plus(self, other: Cost) -> Cost {
        let sum = |a: u64, b: u64| a.saturating_add(b).min(NEVER);
        let least = sum(self.least(), other.least());
        match (self, other) {
            (Cost::Exact(_), Cost::Exact(_)) => Cost::Exact(least),
            (Cost::AtLeast(_), _) | (_, Cost::AtLeast(_)) => Cost::AtLeast(least),
            _ => Cost::Between(
                least,
                sum(self.tree().unwrap_or(NEVER), other.tree().unwrap_or(NEVER)),
            ),
        }
    }
}

/// The exact plan of `recipe` (see the module docs); its depth is always 1.
pub fn plan(recipe: Recipe, optimal: &Optimal, depth: Option<u32>) -> Result<Plan, String> {
    if depth.is_some_and(|d| d != 1) {
        return Err(
            "an exact plan has depth 1: one work item per first guess and answer class".into(),
        );
    }
    plan_at(recipe, optimal, None)
}

/// The exact plan of the class reached by `within`'s path (of another plan of the
/// same recipe), or of the whole board: its top is [`Top::Cheapest`] over the
/// guesses the search tries there ([`crate::exact::Exact::options_at`]), one item
/// per answer class of two or more secrets.
pub fn plan_at(recipe: Recipe, optimal: &Optimal, within: Option<Within>) -> Result<Plan, String> {
    let codes = Codes::new(recipe.board);
    let root = within.as_ref().map_or(&[][..], |w| &w.path[..]);
    let candidates = class(&codes, root);
    let history: Vec<u32> = root.iter().map(|&(g, _)| g).collect();
    let counters = Counters::default();
    let context = Optimal::context(&codes, recipe.settings(), &counters);
    let limit = (recipe.max_depth).map_or(UNLIMITED, |d| d.saturating_sub(root.len() as u32));
    let node = Node {
        candidates: &candidates,
        history: &history,
    };
    if !root.is_empty() && candidates.len() < 3 {
        return Err(format!(
            "the class holds {} secrets: its optimum needs no plan (at most 3 guesses)",
            candidates.len()
        ));
    }
    let guesses = match (recipe.first, root) {
        (Some(first), []) => vec![first],
        _ => optimal.exact.options_at(context, node, limit),
    };
    if guesses.is_empty() || limit < 2 {
        return Err(format!(
            "no strategy solves every secret within {limit} guesses (--max-depth {limit}), \
             proven by the bounds of the exact search; no plan written"
        ));
    }
    let mut builder = TopBuilder {
        codes: &codes,
        strategy: optimal,
        settings: recipe.settings(),
        counters,
        depth: root.len() as u32 + 1,
        items: Vec::new(),
    };
    let options = (guesses.iter())
        .map(|&guess| builder.node(&mut root.to_vec(), &candidates, guess))
        .collect();
    let items = builder.items;
    let heuristic = best_heuristic(&recipe, &codes, &history, &candidates, limit);
    Ok(Plan {
        recipe,
        depth: 1,
        top: Top::Cheapest(options),
        items,
        heuristic,
        within,
    })
}

/// The least total of a heuristic subtree for `candidates` reached by `history`,
/// with the recipe's options and at most `depth` guesses a secret, and the rule
/// that built it.
fn best_heuristic(
    recipe: &Recipe,
    codes: &Codes,
    history: &[u32],
    candidates: &[u32],
    depth: u32,
) -> Option<(StrategyKind, u32)> {
    let rules = [
        StrategyKind::MostParts,
        StrategyKind::Entropy,
        StrategyKind::ExpectedSize,
        StrategyKind::Knuth,
    ];
    let totals = rules.into_iter().filter_map(|kind| {
        let total = heuristic_total(recipe, codes, kind, history, candidates, depth)?;
        Some((u32::try_from(total).ok()?, kind))
    });
    totals.min_by_key(|&(total, _)| total).map(|(t, k)| (k, t))
}

/// What `top` costs from what is `known` of every item.
pub(super) fn cost(top: &Top, known: &[Cost]) -> Cost {
    match top {
        Top::Leaf(_) => Cost::Exact(1),
        Top::Item(index) => known[*index],
        Top::Node {
            candidates,
            children,
            ..
        } => (children.iter()).fold(Cost::Exact(u64::from(*candidates)), |sum, (_, child)| {
            sum.plus(cost(child, known))
        }),
        Top::Cheapest(options) => (options.iter())
            .map(|option| cost(option, known))
            .min_by_key(|c| c.least())
            .unwrap_or(Cost::AtLeast(NEVER)),
    }
}

/// The option (first guess) of `options` whose items hold item `index`.
fn option_of(options: &[Top], index: usize) -> Option<&Top> {
    (options.iter()).find(|option| items_of(option).contains(&index))
}

/// The items of `top`, in the plan's order.
pub(super) fn items_of(top: &Top) -> Vec<usize> {
    match top {
        Top::Item(i) => vec![*i],
        Top::Leaf(_) => Vec::new(),
        Top::Node { children, .. } => children.iter().flat_map(|(_, c)| items_of(c)).collect(),
        Top::Cheapest(options) => options.iter().flat_map(items_of).collect(),
    }
}

/// The items of `plan` in the order to solve them, the order the search takes
/// them in: the guess it tries first, its classes smallest first (then in the
/// plan's order), then the next guess's. An item's budget rests on its own
/// guess's other classes and on the best total known, so a guess's small
/// classes, once costed, lower what is left for its big ones (below their
/// bounds, nothing to search, once the guess is shown too dear), and each guess
/// costed in full early may lower every later guess's budgets (measured in
/// BENCHMARKS.md, the order of an exact plan's items). A plan of rules: the
/// plan's order.
pub fn order(plan: &Plan) -> Vec<usize> {
    let Top::Cheapest(options) = &plan.top else {
        return (0..plan.items.len()).collect();
    };
    let by_size = |option: &Top| {
        let mut items = items_of(option);
        items.sort_by_key(|&i| (plan.items[i].secrets, i));
        items
    };
    options.iter().flat_map(by_size).collect()
}

/// What item `index` of `plan` must cost less than to matter (see the module
/// docs), from what is `known` of every item (done or not) and the least total of
/// a tree known `beside` them (the plan's heuristic's, or a better tree's:
/// [`crate::plan::Run::tree_beside`]); `None` for no limit.
/// `cap`: what the whole plan must cost less than to matter (a split's class,
/// to its parent: [`crate::plan::Run::split`]), if anything: a guess whose
/// total reaches it matters no more than one above the best known.
pub fn budget(
    plan: &Plan,
    index: usize,
    known: &[Cost],
    beside: Option<u64>,
    cap: Option<u64>,
) -> Option<u64> {
    let Top::Cheapest(options) = &plan.top else {
        return None;
    };
    let trees = options
        .iter()
        .filter_map(|option| cost(option, known).tree());
    let capped = cap.map(|cap| cap.saturating_sub(1));
    let best = trees.chain(beside).chain(capped).min()?;
    let mine = option_of(options, index)?;
    let mut without = known.to_vec();
    without[index] = Cost::Exact(0);
    Some((best + 1).saturating_sub(cost(mine, &without).least()))
}

/// What item `index` is asked to prove of its guess's gap: the share of what
/// `budget` leaves above the least it costs (in `known`), as its class's weight
/// among the classes of its guess still `left` (not done); one done (asked
/// again) or the last left, for all of it. But a class is never asked for as
/// much as a tree of it costs (its split's so far, or `upper`'s: the plan's
/// heuristic's subtree, or a known tree's, for it): that would ask for its
/// optimum. Such a class is asked instead for the part of the gap its room (from
/// the least it costs to its tree's) is of the rooms of its guess's classes not
/// costed in full; the others then rise further when asked again.
///
/// A search's proven floor rises cheaply at first and dearly at the end: on
/// 5x8's within-2, classes of 1,247 to 1,288 secrets shown 28 to 60 dearer than
/// their floors took 36 to 100 s of CPU, where proving the optimum of classes
/// that size, about 150 above their floors, took 125 to 1,436 s. So a guess's
/// gap is best closed by every class rising some way, not by the small ones
/// rising all the way, one after another. A class's weight is the square of
/// its secrets: there its rise from floor to optimum was about proportional to
/// the floor (about 4 secrets a guess) times the secrets (0.5% of the floor at
/// 400 secrets, 2% at 850, 3.4% at 1,200). A class that costs less than its
/// share is solved in full and leaves more for the classes after it; the
/// classes shown dearer only by their shares, of a guess still open once all
/// its classes are done, are asked again ([`reopened`]), so items are taken
/// until none is left, not each once. Weights by rooms alone asked within-2's
/// middling classes for rises they could not make, each then solved in full,
/// and took twice as long (BENCHMARKS.md). A guess whose gap is more than its
/// classes' rooms has a tree no dearer than the best known: its class is asked
/// as by its weight. Only for a plan whose guesses' children are classes (one
/// level); elsewhere, `budget`.
pub fn share(
    plan: &Plan,
    index: usize,
    known: &[Cost],
    left: &[usize],
    upper: impl Fn(usize) -> Option<u64>,
    budget: u64,
) -> u64 {
    let Top::Cheapest(options) = &plan.top else {
        return budget;
    };
    let Some(mine) = option_of(options, index) else {
        return budget;
    };
    let Top::Node { children, .. } = mine else {
        return budget;
    };
    if (children.iter()).any(|(_, child)| !matches!(child, Top::Item(_) | Top::Leaf(_))) {
        return budget;
    }
    let least = known[index].least();
    if budget <= least {
        return budget;
    }
    let gap = budget - least;
    let weight = |item: usize| u128::from(plan.items[item].secrets).pow(2);
    let weights: u128 = (items_of(mine).into_iter())
        .filter(|item| left.contains(item))
        .map(weight)
        .sum();
    let by_size = match left.contains(&index) {
        true => (u128::from(gap) * weight(index)).div_ceil(weights) as u64,
        false => gap,
    };
    let room = |item: usize| match known[item] {
        Cost::Exact(_) => Some(0),
        cost => {
            let most = upper(item).into_iter().chain(cost.tree()).min()?;
            Some(most.saturating_sub(cost.least()))
        }
    };
    let by_room = || {
        let own = room(index).filter(|&own| own > 0 && by_size >= own)?;
        let rooms: u64 = items_of(mine).into_iter().map(room).sum::<Option<u64>>()?;
        (gap <= rooms).then(|| (u128::from(gap) * u128::from(own)).div_ceil(u128::from(rooms)))
    };
    least + by_room().map_or(by_size, |share| share as u64)
}

/// The items done that are to be solved again: those shown dearer than their
/// classes' floors only by their shares ([`share`]), of a guess still `open`
/// in `standing` none of whose items is `left` to take (the caller leaves out
/// items split a level deeper), each now to be asked for all the gap its guess
/// leaves, or its share of it by its room ([`share`]).
pub fn reopened(standing: &Standing, known: &[Cost], left: &[usize]) -> Vec<usize> {
    let waiting = |first: &&First| first.open && !first.items.iter().any(|i| left.contains(i));
    (standing.firsts.iter().filter(waiting))
        .flat_map(|first| first.items.iter().copied())
        .filter(|&item| matches!(known[item], Cost::AtLeast(_)))
        .collect()
}

/// Where an exact plan's proof stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The first of the cheapest first guesses costed in full so far, and its total.
    pub best: Option<(u32, u64)>,
    /// No strategy costs less than this, as far as the items done prove.
    pub floor: u64,
    /// The first of the cheapest first guesses with a tree known that is not
    /// costed in full (its items done but for splits, each with a tree so far),
    /// and that tree's total, if it is less than the best so far.
    pub split_best: Option<(u32, u64)>,
    /// The least total known: the best so far, a first guess's tree with its
    /// splits' trees so far, or a tree's known beside the items (a heuristic's,
    /// or a better one's), whichever is least.
    pub best_known: Option<u64>,
    /// First guesses neither costed in full nor shown dearer than the best known
    /// (or than the cap).
    pub open: usize,
    /// What the plan's whole class must cost less than to matter, if anything
    /// caps it (a split's: its item's budget in the plan above).
    pub cap: Option<u64>,
    /// Each first guess, in the plan's order.
    pub firsts: Vec<First>,
}

/// One first guess of an exact plan, as far as its items go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct First {
    pub guess: u32,
    /// Its total, or the least it can be.
    pub cost: Cost,
    /// Its items, in the plan's order.
    pub items: Vec<usize>,
    /// Neither costed in full nor shown dearer than the best known total (nor
    /// costing the cap or more).
    pub open: bool,
}

/// Where the proof of `plan` (an exact plan) stands, from what is `known` of
/// every item (done or not), the least total of a tree known `beside` them and
/// the `cap` its whole class must stay below to matter, if any ([`budget`]);
/// `None` for other plans.
pub fn standing(
    plan: &Plan,
    known: &[Cost],
    beside: Option<u64>,
    cap: Option<u64>,
) -> Option<Standing> {
    let Top::Cheapest(options) = &plan.top else {
        return None;
    };
    let costs: Vec<(u32, Cost, Vec<usize>)> = (options.iter())
        .filter_map(|option| match option {
            Top::Node { guess, .. } => Some((*guess, cost(option, known), items_of(option))),
            _ => None,
        })
        .collect();
    // The first of the cheapest first guesses whose cost `total` picks, and its total.
    let cheapest = |total: fn(Cost) -> Option<u64>| {
        (costs.iter())
            .filter_map(|&(guess, c, _)| Some((total(c)?, guess)))
            .min_by_key(|&(total, _)| total)
            .map(|(total, guess)| (guess, total))
    };
    let best = cheapest(|c| match c {
        Cost::Exact(total) if total < NEVER => Some(total),
        _ => None,
    });
    let split_best = cheapest(|c| match c {
        Cost::Between(_, tree) => Some(tree),
        _ => None,
    })
    .filter(|&(_, tree)| best.is_none_or(|(_, b)| tree < b));
    let best_known = [best, split_best]
        .into_iter()
        .flatten()
        .map(|(_, total)| total)
        .chain(beside)
        .min();
    let floor = costs
        .iter()
        .map(|(_, c, _)| c.least())
        .min()
        .unwrap_or(NEVER);
    let firsts: Vec<First> = (costs.into_iter())
        .map(|(guess, cost, items)| First {
            guess,
            cost,
            items,
            open: match cost {
                Cost::Exact(_) => false,
                Cost::AtLeast(least) | Cost::Between(least, _) => {
                    least <= best_known.unwrap_or(NEVER - 1) && cap.is_none_or(|cap| least < cap)
                }
            },
        })
        .collect();
    Some(Standing {
        best,
        split_best,
        floor,
        best_known,
        open: firsts.iter().filter(|f| f.open).count(),
        cap,
        firsts,
    })
}

/// Which of `options` the search keeps: the first of the cheapest, by what is
/// `known` of every item (all done). Fails if the items leave it undecided.
pub fn cheapest(plan: &Plan, options: &[Top], known: &[Cost]) -> Result<usize, String> {
    let costs: Vec<Cost> = options.iter().map(|o| cost(o, known)).collect();
    let exact = costs.iter().enumerate().filter_map(|(at, c)| match c {
        Cost::Exact(total) if *total < NEVER => Some((*total, at)),
        _ => None,
    });
    let Some((best, at)) = exact.min() else {
        if costs.iter().all(|c| c.least() >= NEVER) {
            let d = plan.recipe.max_depth.unwrap_or(UNLIMITED);
            return Err(format!(
                "no strategy solves every secret within {d} guesses (--max-depth {d}), \
                 proven by the work items' exact search; no file written"
            ));
        }
        return Err("no first guess is costed in full by the items; rerun them".into());
    };
    let open = costs
        .iter()
        .position(|c| !matches!(c, Cost::Exact(_)) && c.least() <= best);
    match open {
        Some(other) => Err(format!(
            "the items leave first guess {other} of the plan undecided against the best \
             total {best}; rerun its items"
        )),
        None => Ok(at),
    }
}

/// What each item is known to cost: `done[i]` where given, else its floor
/// (`floors[i]`, the least its class can cost looking two guesses ahead: the
/// floors module).
pub fn known(floors: &[u64], done: &[Option<Cost>]) -> Vec<Cost> {
    let items = floors.iter().zip(done);
    items
        .map(|(&floor, done)| done.unwrap_or(Cost::AtLeast(floor)))
        .collect()
}

/// The guesses per secret `item` has left under the depth limit.
pub fn depth_left(plan: &Plan, item: &Item) -> u32 {
    (plan.recipe.max_depth).map_or(UNLIMITED, |d| d.saturating_sub(item.path.len() as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(guess: u32, items: &[usize]) -> Top {
        Top::Node {
            guess,
            wins: true,
            candidates: 0,
            children: (items.iter()).map(|&i| (i, Top::Item(i))).collect(),
        }
    }

    #[test]
    fn items_come_guess_by_guess_each_guess_s_smallest_first() {
        let sizes = [30, 4, 12, 4, 7, 50, 2, 3];
        let plan = |top| super::super::plan_of(StrategyKind::Optimal, top, &sizes);
        let options = vec![
            option(5, &[0, 1, 2, 3]),
            option(9, &[4, 5]),
            option(7, &[6, 7]),
        ];
        assert_eq!(
            order(&plan(Top::Cheapest(options))),
            [1, 3, 2, 0, 4, 5, 6, 7]
        );
        // A plan of rules: its own order.
        let top = option(5, &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(order(&plan(top)), [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn a_split_s_tree_so_far_gives_its_guess_a_tree_and_the_budgets_a_best() {
        let sizes = [10, 20, 30, 40];
        let plan = super::super::plan_of(
            StrategyKind::Optimal,
            Top::Cheapest(vec![option(5, &[0, 1]), option(9, &[2, 3])]),
            &sizes,
        );
        let heuristic = Some(200);
        // Item 1 split: at least 50 so far, and its split has a tree of 60.
        let known = [
            Cost::Exact(30),
            Cost::Between(50, 60),
            Cost::AtLeast(70),
            Cost::AtLeast(80),
        ];
        let now = standing(&plan, &known, heuristic, None).unwrap();
        assert_eq!(now.firsts[0].cost, Cost::Between(80, 90));
        assert_eq!((now.best, now.split_best), (None, Some((5, 90))));
        assert_eq!((now.best_known, now.floor, now.open), (Some(90), 80, 1));
        // Guess 9 must beat 90: its item 2 has 91 less item 3's 80 left.
        assert_eq!(budget(&plan, 2, &known, heuristic, None), Some(11));
        // Without the split's tree, the heuristic's 200.
        let mut bare = known;
        bare[1] = Cost::AtLeast(50);
        assert_eq!(budget(&plan, 2, &bare, heuristic, None), Some(121));
        // A split whose class must cost less than 100 to matter: no guess need
        // prove more than 99; a cap above the best changes nothing.
        assert_eq!(budget(&plan, 2, &bare, heuristic, Some(100)), Some(20));
        assert_eq!(budget(&plan, 2, &bare, heuristic, Some(1000)), Some(121));
        assert_eq!(
            standing(&plan, &bare, heuristic, None).unwrap().split_best,
            None
        );
        // Capped at 90, guess 5 (at least 80) stays open and guess 9 (at least
        // 120) is settled; capped at 80, neither is open.
        let open = |cap| standing(&plan, &bare, heuristic, Some(cap)).unwrap().open;
        assert_eq!((open(90), open(80)), (1, 0));
        // A tree known on both sides of a sum, and an exact one.
        assert_eq!(
            Cost::Between(1, 2).plus(Cost::Exact(3)),
            Cost::Between(4, 5)
        );
        assert_eq!(Cost::Between(1, 2).plus(Cost::AtLeast(3)), Cost::AtLeast(4));
        assert_eq!(Cost::Exact(1).plus(Cost::Exact(3)), Cost::Exact(4));
        // The merge never takes a guess whose tree is not costed in full.
        let options = match &plan.top {
            Top::Cheapest(options) => options,
            _ => unreachable!(),
        };
        assert!(cheapest(&plan, options, &known).is_err());
    }

    #[test]
    fn an_item_is_asked_for_its_share_of_its_guess_s_gap_never_for_its_tree_s_cost() {
        // Guess 5's classes of 10, 20 and 30 secrets at their floors, 40, 80
        // and 120 (the guess itself counted as costing nothing more), their
        // heuristic subtrees 50, 110 and 170; guess 9 costed in full at 299.
        let sizes = [10, 20, 30, 40];
        let plan = super::super::plan_of(
            StrategyKind::Optimal,
            Top::Cheapest(vec![option(5, &[0, 1, 2]), option(9, &[3])]),
            &sizes,
        );
        let known = [
            Cost::AtLeast(40),
            Cost::AtLeast(80),
            Cost::AtLeast(120),
            Cost::Exact(299),
        ];
        let all = [0, 1, 2];
        // The best 299: each class of guess 5 may cost 300 - 240 = 60 more.
        assert_eq!(budget(&plan, 1, &known, None, None), Some(140));
        let share_under = |uppers: &[u64], index, known: &[Cost], left: &[usize]| {
            let budget = budget(&plan, index, known, None, None).unwrap();
            share(
                &plan,
                index,
                known,
                left,
                |i| uppers.get(i).copied(),
                budget,
            )
        };
        let share = |index, known: &[Cost], left: &[usize]| {
            share_under(&[50, 110, 170], index, known, left)
        };
        // Shares by the squares of their secrets, 100 : 400 : 900, rounded up.
        assert_eq!(
            [0, 1, 2].map(|i| share(i, &known, &all)),
            [40 + 5, 80 + 18, 120 + 39]
        );
        // Item 0 solved in full at 42 (2 of its 5): items 1 and 2 share the 58
        // left, 400 : 900.
        let mut after = known;
        after[0] = Cost::Exact(42);
        assert_eq!(share(1, &after, &[1, 2]), 80 + 18);
        // The last item left, for all that is left, unless that is as much as
        // its tree costs (50 above its floor): then by the rooms, 30 : 50.
        assert_eq!(share_under(&[50, 110, 190], 2, &after, &[2]), 120 + 58);
        assert_eq!(share(2, &after, &[2]), 120 + 37);
        // Rooms of 20 and 30, less than the 58 left: guess 5 has a tree of 292,
        // below the best, so its class is asked for all of it; as is a class
        // with no tree known, and a guess's class costed in full.
        assert_eq!(share_under(&[50, 100, 150], 2, &after, &[2]), 120 + 58);
        assert_eq!(share_under(&[50, 110], 2, &after, &[2]), 120 + 58);
        assert_eq!(share(3, &known, &[3]), 300);
        // A split's class counts its tree so far: rooms 30 : 40.
        let mut split = after;
        split[2] = Cost::Between(120, 160);
        assert_eq!(share(1, &split, &[1]), 80 + 25);
        // Guess 5 open with all its items done, two shown dearer by their shares
        // only: those are asked again, for all of the gap, or by their rooms.
        let done = [
            Cost::Exact(42),
            Cost::AtLeast(100),
            Cost::AtLeast(150),
            Cost::Exact(299),
        ];
        let now = standing(&plan, &done, None, None).unwrap();
        assert_eq!(now.open, 1);
        assert_eq!(reopened(&now, &done, &[]), [1, 2]);
        assert_eq!(budget(&plan, 1, &done, None, None), Some(108));
        assert_eq!(share(1, &done, &[]), 108);
        // 8 left, where item 1's tree costs 4 more: rooms 4 : 20.
        assert_eq!(share_under(&[50, 104, 170], 1, &done, &[]), 100 + 2);
        // A class proven to cost what its tree costs has no room: all of it.
        assert_eq!(share_under(&[50, 100, 170], 1, &done, &[]), 108);
        // Not while an item of the guess is left, nor once the guess is settled.
        assert_eq!(reopened(&now, &done, &[0]), Vec::<usize>::new());
        let mut settled = done;
        settled[2] = Cost::AtLeast(158);
        let now = standing(&plan, &settled, None, None).unwrap();
        assert_eq!(reopened(&now, &settled, &[]), Vec::<usize>::new());
    }
}
