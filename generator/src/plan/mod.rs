//! Building one tree as many independent work items, for a cluster: files are the
//! contract, so Slurm job arrays, Kubernetes Indexed Jobs and GNU parallel all run
//! the same plan.
//!
//! A [`Plan`] is the top of the tree, chosen on one machine down to a depth, and one
//! work item per class left open there (the secrets reached by a path of guesses
//! and answers). Each item's subtree is built alone ([`Run::solve`]) into its own
//! checksummed file; [`Run::merge`] puts the top and the items back together into the
//! very tree a single run builds, because a strategy's choice depends only on the
//! node (its candidates and history), never on what else is being built. So the
//! merged file is byte-identical to `mmgen`'s. Before every item is done, a merge
//! can fill the others from another tree of the board (`plan::fill`).
//!
//! An exact plan (`--strategy optimal`) cannot choose its first guess on one
//! machine: that choice is the whole proof. So its top lists the first guesses the
//! search would try, and its items are their answer classes, each costed exactly
//! or shown too dear (`plan::exact`); the merge keeps the first of the cheapest, as the
//! search does.
//!
//! An item file holds its subtree in preorder (a leaf: 0, code; a node: 1, guess,
//! wins, candidates, branch count, then each branch's answer and subtree), or for
//! an exact item shown too dear, 2 and the least it costs; it is tagged with the
//! plan's identity and the item's index and ended by a CRC-32, and is written to a
//! temporary name and renamed, so a killed job leaves no item half written and a
//! rerun skips the items already done.

mod exact;
mod fill;
mod floors;
mod item;
mod json;
mod known;
mod projection;
mod run;
mod slurm;
mod upper;

pub use exact::{Cost, First, Standing, NEVER};
pub use fill::{Filled, Tally};
pub use known::FILE as KNOWN_TREE;
pub use projection::{project, Projection};
pub use run::{Built, Run, Status};

use crate::codes::Codes;
use crate::strategy::{by_kind, CacheSettings, Optimal, Options, Strategy};
use crate::{Counters, Node, Settings};
use lookup::format::StrategyKind;
use lookup::Board;

/// What a plan builds: the board, the strategy and its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub board: Board,
    pub strategy: StrategyKind,
    pub consistent_only: bool,
    /// A forced first guess (code index).
    pub first: Option<u32>,
    /// The exact search: no secret may need more guesses.
    pub max_depth: Option<u32>,
    pub symmetry: bool,
    /// Exact plans: each item writes the certificate of its proof, and the merge
    /// puts them together into one (docs/certificate.md).
    pub certified: bool,
}

/// The strategy of a recipe: a rule, or the exact search, whose items are costed
/// apart ([`exact`]).
pub(crate) enum Builder {
    Rule(Box<dyn Strategy>),
    Exact(Box<Optimal>),
}

impl Builder {
    pub(crate) fn strategy(&self) -> &dyn Strategy {
        match self {
            Builder::Rule(rule) => rule.as_ref(),
            Builder::Exact(optimal) => optimal.as_ref(),
        }
    }
}

impl Recipe {
    fn options(&self) -> Options {
        Options {
            consistent_only: self.consistent_only,
            first: self.first,
            max_depth: self.max_depth,
            ..Options::default()
        }
    }

    /// Refuses a certificate for what has no proof to certify: a rule's tree, or
    /// an exact search held to one first guess.
    pub fn check(&self) -> Result<(), String> {
        if self.certified && self.strategy != StrategyKind::Optimal {
            return Err("--certificate applies only to --strategy optimal".into());
        }
        if self.certified && self.first.is_some() {
            return Err(crate::exact::Proof::NOT_WITH_FIRST.into());
        }
        Ok(())
    }

    /// The strategy, or why a plan cannot build it.
    pub(crate) fn builder(&self) -> Result<Builder, String> {
        self.builder_with(CacheSettings::default())
    }

    /// The strategy with an exact search's `cache`, or why a plan cannot build it.
    pub(crate) fn builder_with(&self, cache: CacheSettings) -> Result<Builder, String> {
        self.check()?;
        if self.strategy == StrategyKind::Optimal {
            let options = Options {
                cache,
                ..self.options()
            };
            let optimal = crate::strategy::exact(options, self.board);
            optimal.assume_depth(self.max_depth);
            return Ok(Builder::Exact(Box::new(optimal)));
        }
        if self.max_depth.is_some() {
            return Err("--max-depth applies to --strategy optimal only".into());
        }
        by_kind(self.strategy, self.options(), self.board)
            .map(Builder::Rule)
            .ok_or_else(|| format!("no strategy {} to build", self.strategy.name()))
    }

    pub fn settings(&self) -> Settings {
        Settings {
            symmetry: self.symmetry,
        }
    }
}

/// Where the top of the tree leads: a decided node, a leaf, or an open work item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Top {
    Node {
        guess: u32,
        wins: bool,
        candidates: u32,
        children: Vec<(usize, Top)>,
    },
    Leaf(u32),
    Item(usize),
    /// The first of the cheapest of these nodes, by what their items cost: the
    /// exact search's first guess, decided at the merge.
    Cheapest(Vec<Top>),
}

/// One work item: the class reached by `path` (guess, answer) from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub path: Vec<(u32, usize)>,
    pub secrets: u32,
}

/// The top of a tree and its open work items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub recipe: Recipe,
    /// Guesses chosen in the top, per line.
    pub depth: u32,
    pub top: Top,
    pub items: Vec<Item>,
    /// Exact plans: the least total of a heuristic tree that meets the options, and
    /// its rule; no item need prove more than what beats it.
    pub heuristic: Option<(StrategyKind, u32)>,
    /// A plan of one item's class of another plan (`mmgen plan --within`), or of
    /// the whole board.
    pub within: Option<Within>,
}

/// What a plan of one item's class is within: an item too big to search in one go
/// is split a level deeper, its class's guesses costed as items of their own, and
/// merged back into the item's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Within {
    /// The other plan's identity (its items carry it too).
    pub parent: u32,
    /// The item of the other plan whose class this plan is.
    pub item: usize,
    /// That item's path from the root.
    pub path: Vec<(u32, usize)>,
}

/// The secrets reached by `path` (guess, answer) from the root.
pub(crate) fn class(codes: &Codes, path: &[(u32, usize)]) -> Vec<u32> {
    let all: Vec<u32> = (0..codes.len()).collect();
    path.iter().fold(all, |secrets, &(guess, answer)| {
        step(codes, &secrets, guess, answer)
    })
}

/// The secrets of `secrets` that answer `guess` with `answer`.
pub(crate) fn step(codes: &Codes, secrets: &[u32], guess: u32, answer: usize) -> Vec<u32> {
    let (split, _) = codes.split(guess, secrets);
    let part = split.iter().find(|&(a, _)| a == answer);
    part.map(|(_, p)| p.to_vec()).unwrap_or_default()
}

/// Secrets a default array task gets: enough work that a task's start (one to two
/// seconds on a stock one-node Slurm, `make test-cluster`) is small against it.
/// A rule builds about 9,000 secrets' subtrees a second on one core (6x9 Knuth:
/// 531,441 in 57 s), so 100,000 is seconds of work; the exact search takes far
/// longer a secret and gets 2,000 (a 4x7 proof, 11,999 secrets in 2 s, is 6 tasks).
fn secrets_per_task(strategy: StrategyKind) -> u64 {
    match strategy {
        StrategyKind::Optimal => 2_000,
        _ => 100_000,
    }
}

/// How many array tasks the job scripts of `plan` run: `asked`, or enough for the
/// plan's work, by the secrets a task gets (5x7 Knuth: 1 task for its 230 items);
/// at most 1000 (Slurm's default `MaxArraySize` is 1001), and no more than items.
pub fn array_tasks(plan: &Plan, asked: Option<usize>) -> Result<usize, String> {
    let items = plan.items.len().max(1);
    match asked {
        None => {
            let secrets: u64 = plan.items.iter().map(|i| u64::from(i.secrets)).sum();
            let wanted = secrets.div_ceil(secrets_per_task(plan.recipe.strategy));
            Ok((wanted.max(1) as usize).min(items).min(slurm::MAX_TASKS))
        }
        Some(t) if (1..=slurm::MAX_TASKS).contains(&t) => Ok(t.min(items)),
        Some(t) => Err(format!(
            "--tasks {t}: a job array takes 1 to {} tasks (Slurm's MaxArraySize)",
            slurm::MAX_TASKS
        )),
    }
}

/// The items of array task `task` of `tasks`, largest first: the plan's items are
/// dealt largest first (by secrets, then by index), each to the task with the
/// fewest secrets so far (then the lowest), so every task gets about as much
/// work and the biggest items start first. `None` if `task` is not below `tasks`.
pub fn task_items(plan: &Plan, task: usize, tasks: usize) -> Option<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    if task >= tasks {
        return None;
    }
    let mut order: Vec<usize> = (0..plan.items.len()).collect();
    order.sort_by_key(|&i| (Reverse(plan.items[i].secrets), i));
    let mut load: BinaryHeap<Reverse<(u64, usize)>> = (0..tasks).map(|t| Reverse((0, t))).collect();
    let mut mine = Vec::new();
    for index in order {
        let Some(Reverse((secrets, t))) = load.pop() else {
            break;
        };
        if t == task {
            mine.push(index);
        }
        load.push(Reverse((secrets + u64::from(plan.items[index].secrets), t)));
    }
    Some(mine)
}

/// The most work items a plan aims for when no depth is given.
pub const ENOUGH_ITEMS: usize = 100;

impl Plan {
    /// The top of the tree chosen down to `depth` guesses per line (at least 1), or
    /// without a depth, the least that gives [`ENOUGH_ITEMS`] items (at most 6).
    pub fn new(recipe: Recipe, depth: Option<u32>) -> Result<Plan, String> {
        let strategy = match recipe.builder()? {
            Builder::Exact(optimal) => return exact::plan(recipe, &optimal, depth),
            Builder::Rule(rule) => rule,
        };
        let codes = Codes::new(recipe.board);
        let top = |depth: u32| {
            let mut builder = TopBuilder {
                codes: &codes,
                strategy: strategy.as_ref(),
                settings: recipe.settings(),
                counters: Counters::default(),
                depth,
                items: Vec::new(),
            };
            let all: Vec<u32> = (0..codes.len()).collect();
            let top = builder.choose(&mut Vec::new(), &all);
            (top, builder.items)
        };
        let depth = match depth {
            Some(0) => return Err("--depth must be at least 1".into()),
            Some(d) => d,
            None => (1..=6)
                .find(|&d| top(d).1.len() >= ENOUGH_ITEMS)
                .unwrap_or(6),
        };
        let (top, items) = top(depth);
        Ok(Plan {
            recipe,
            depth,
            top,
            items,
            heuristic: None,
            within: None,
        })
    }
}

impl Top {
    /// The secrets this part of the top places.
    fn secrets(&self, items: &[Item]) -> u32 {
        match self {
            Top::Leaf(_) => 1,
            Top::Item(index) => items[*index].secrets,
            Top::Node { candidates, .. } => *candidates,
            Top::Cheapest(options) => options.first().map_or(0, |o| o.secrets(items)),
        }
    }
}

impl Plan {
    /// The secrets the plan places: the board's, or the class's of a plan within
    /// another.
    pub fn secrets(&self) -> u32 {
        self.top.secrets(&self.items)
    }

    /// The exact plan of item `index`'s class of the exact plan in `parent`, with
    /// its recipe: the guesses the search tries there, one item per answer class.
    pub fn within(parent: &Run, index: usize) -> Result<Plan, String> {
        let recipe = parent.plan.recipe.clone();
        let Some(item) = parent.plan.items.get(index) else {
            let last = parent.plan.items.len().saturating_sub(1);
            return Err(format!("no item {index}: the plan has items 0 to {last}"));
        };
        let Builder::Exact(optimal) = recipe.builder()? else {
            return Err(
                "only an exact plan's items are split (mmgen plan --strategy optimal)".into(),
            );
        };
        let within = Within {
            parent: parent.identity(),
            item: index,
            path: item.path.clone(),
        };
        exact::plan_at(recipe, &optimal, Some(within))
    }
}

/// Chooses the guesses of the top down to `depth`, numbering the open classes as
/// items in the order a depth-first walk in answer order meets them.
struct TopBuilder<'a> {
    codes: &'a Codes,
    strategy: &'a dyn Strategy,
    settings: Settings,
    counters: Counters,
    depth: u32,
    items: Vec<Item>,
}

impl TopBuilder<'_> {
    fn choose(&mut self, path: &mut Vec<(u32, usize)>, candidates: &[u32]) -> Top {
        if let [only] = candidates {
            return Top::Leaf(*only);
        }
        if path.len() as u32 == self.depth {
            self.items.push(Item {
                path: path.clone(),
                secrets: candidates.len() as u32,
            });
            return Top::Item(self.items.len() - 1);
        }
        let history: Vec<u32> = path.iter().map(|&(g, _)| g).collect();
        let node = Node {
            candidates,
            history: &history,
        };
        let guess = (self.strategy).choose(self.codes, &node, self.settings, &self.counters);
        self.node(path, candidates, guess)
    }

    /// The node that plays `guess` for `candidates` (at least two), reached by `path`.
    fn node(&mut self, path: &mut Vec<(u32, usize)>, candidates: &[u32], guess: u32) -> Top {
        let (split, wins) = self.codes.split(guess, candidates);
        let mut children = Vec::with_capacity(split.len());
        for (answer, part) in split.iter() {
            path.push((guess, answer));
            children.push((answer, self.choose(path, part)));
            path.pop();
        }
        Top::Node {
            guess,
            wins,
            candidates: candidates.len() as u32,
            children,
        }
    }
}

/// A classic-board plan of `strategy` with `top` over items of these sizes, for
/// tests of what is drawn from a plan's shape.
/// A recipe of `strategy` on `board` with the default options, uncertified.
#[cfg(test)]
pub(crate) fn recipe_of(board: Board, strategy: StrategyKind) -> Recipe {
    Recipe {
        board,
        strategy,
        consistent_only: false,
        first: None,
        max_depth: None,
        symmetry: true,
        certified: false,
    }
}

#[cfg(test)]
pub(crate) fn plan_of(strategy: StrategyKind, top: Top, sizes: &[u32]) -> Plan {
    Plan {
        recipe: recipe_of(Board::classic(), strategy),
        depth: 1,
        top,
        items: (sizes.iter())
            .map(|&secrets| Item {
                path: Vec::new(),
                secrets,
            })
            .collect(),
        heuristic: None,
        within: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_share_every_item_once_and_evenly() {
        let sizes = [900u32, 5, 300, 300, 2, 77, 640, 13, 13, 250, 1, 48];
        let plan = plan_of(StrategyKind::Knuth, Top::Leaf(0), &sizes);
        for tasks in [1, 2, 3, 5, 12, 20] {
            let dealt: Vec<Vec<usize>> = (0..tasks)
                .map(|t| task_items(&plan, t, tasks).unwrap())
                .collect();
            let mut all: Vec<usize> = dealt.concat();
            all.sort();
            assert_eq!(all, (0..sizes.len()).collect::<Vec<_>>(), "{tasks} tasks");
            let loads: Vec<u32> = (dealt.iter())
                .map(|items| items.iter().map(|&i| sizes[i]).sum())
                .collect();
            let spread = loads.iter().max().unwrap() - loads.iter().min().unwrap();
            assert!(spread <= 900, "{tasks} tasks: {loads:?}");
            for items in &dealt {
                assert!(items.windows(2).all(|w| sizes[w[0]] >= sizes[w[1]]));
            }
        }
        assert_eq!(task_items(&plan, 3, 3), None);
        // Two tasks: 900 alone against 640 + 300 ... as the greedy deal gives.
        assert_eq!(task_items(&plan, 0, 2).unwrap()[0], 0);
        assert_eq!(task_items(&plan, 1, 2).unwrap()[0], 6);
    }
}
