//! A plan in a folder, and the three steps users run on it: solve items, see the
//! status, merge. `RUN/plan.json` is the plan; `RUN/items/N.item` are the items;
//! `RUN/submit.sh`, `RUN/items.sbatch` and `RUN/merge.sbatch` run it on Slurm.

use super::exact::{self, Cost, Standing, NEVER};
use super::floors;
use super::item::{self, Outcome, Part, Solved};
use super::json::identity;
use super::known;
use super::projection::{project, Projection};
use super::upper::Uppers;
use super::{Builder, Plan, Top};
use crate::build::{expand_below, Subtree};
use crate::checkpoint::{self, Done, Resumed};
use crate::codes::Codes;
use crate::exact::{Proof, Written, UNLIMITED};
use crate::output::write_owned;
use crate::strategy::{CacheSettings, Optimal};
use crate::{lay_out, Counters, Generated, Node};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A plan's folder, with the plan read and its identity. Creating one over another
/// plan (which `mmgen plan` does only with `--force`) removes that plan's items.
pub struct Run {
    pub dir: PathBuf,
    pub plan: Plan,
    id: u32,
    /// The exact search's cache for the items this process solves: changes the
    /// work, never the items.
    pub cache: CacheSettings,
    /// Exact items: save what the search proved every so often, in the item's
    /// checkpoint folder, so that an item cut off (with its session, or killed)
    /// goes on from there; `None`: no checkpoints.
    pub saves: Option<Duration>,
    /// Called after each save that succeeded, with the item, where its search
    /// stands (its class's floor and each guess's there) and the positions this
    /// run searched: what a long item shows while it runs.
    pub on_save: Option<OnSave>,
    /// With saves: how often an item's budget is drawn again between them (at
    /// each save too); `BUDGET_EVERY` unless set.
    pub budget_every: Duration,
    /// Called when an item's budget changed while it was searched, with the
    /// item, the budget the search was under and the one it goes on under:
    /// lower as items beside it are done, higher as its share of its guess's
    /// gap grows (the exact module's `share`).
    pub on_budget: Option<OnBudget>,
    /// Items to solve asked for their shares of their guesses' gaps only
    /// (the exact module's `share`), not for all of them.
    pub shares: bool,
    /// Items done but only shown to cost at least some total (by a share of
    /// their guess's gap, or a budget below it) are solved again when asked,
    /// for all of the gap, not only when their guess's other classes are done
    /// ([`Status::reopened`]).
    pub again: bool,
    /// Items done are solved again, in a copy of the folder, under the budget
    /// that gives what each recorded (one above its cost if costed in full, else
    /// the least it was shown to cost): so a reader can see the search prove an
    /// item's result again and have its new part checked (`mmtree-report
    /// recheck`), without the budget the items done set today.
    pub recheck: bool,
    /// Made once per process, for every item it solves.
    work: OnceLock<Work>,
    /// An exact plan's: what each item costs at the least ([`floors`]), read or
    /// worked out once per process, and how many items of those read count at
    /// their size bounds only, their floors not worked out yet.
    floors: OnceLock<(Vec<u64>, usize)>,
    /// An exact plan's: what each item's class costs at most, worked out as
    /// shares ask for it ([`Uppers`]).
    uppers: OnceLock<Uppers>,
    /// The items of first guesses settled when [`Run::note_settled`] read the
    /// status: each solved under its floor with no budget drawn.
    settled: OnceLock<Vec<usize>>,
}

/// How many items of each kind a merge's refusal names before it says how many.
const LISTED: usize = 12;

/// What [`Run::on_save`] holds.
pub type OnSave = Box<dyn Fn(usize, &crate::exact::Standing, u64) + Sync>;

/// What [`Run::on_budget`] holds.
pub type OnBudget = Box<dyn Fn(usize, u32, u32) + Sync>;

/// How often, by default, an item saved every so often draws its budget again
/// between saves.
///
/// Items of one guess are solved side by side, smallest first, so a big item's
/// budget falls whenever a worker beside it finishes a sibling; with the budget
/// drawn only at saves (every 10 minutes in a campaign), an item searched on for
/// up to 10 minutes under a budget already out of date. Drawing it reads the
/// items done (about 1 MB for 4x12's split of 472 items): cheap at this period.
const BUDGET_EVERY: Duration = Duration::from_secs(30);

/// A path from the root: (guess, answer) steps.
type Steps = Vec<(u32, usize)>;

/// What solving items needs, made once: the codes, the strategy (whose exact
/// search keeps what it proved for the next item), and the secrets reached by each
/// path prefix met so far (items share their first steps).
struct Work {
    codes: Codes,
    builder: Builder,
    classes: Mutex<HashMap<Steps, Arc<Vec<u32>>>>,
}

/// One exact item to solve: which, with what counters, since when, and under
/// the budget its record gives when rechecked ([`Run::recheck`]).
struct Solve<'a> {
    index: usize,
    counters: &'a Counters,
    started: Instant,
    recorded: Option<u32>,
}

impl Work {
    /// The secrets reached by `path` from the root.
    fn candidates(&self, path: &[(u32, usize)]) -> Arc<Vec<u32>> {
        let cached = |prefix: &[(u32, usize)]| {
            let classes = self.classes.lock().unwrap_or_else(|e| e.into_inner());
            classes.get(prefix).cloned()
        };
        if let Some(here) = cached(path) {
            return here;
        }
        let here = match path.split_last() {
            None => Arc::new((0..self.codes.len()).collect()),
            Some((&(guess, answer), before)) => Arc::new(super::step(
                &self.codes,
                &self.candidates(before),
                guess,
                answer,
            )),
        };
        let mut classes = self.classes.lock().unwrap_or_else(|e| e.into_inner());
        classes.insert(path.to_vec(), Arc::clone(&here));
        here
    }
}

/// What solving an item did.
#[derive(Clone, Copy, Debug)]
pub struct Built {
    /// Positions its exact search searched in this run (0 for a rule's item).
    pub positions: u64,
    /// What it took up from its checkpoint, if it went on from one.
    pub resumed: Option<Resumed>,
    /// What it costs: its subtree's total, or (an exact item that reached its
    /// budget) the least it costs.
    pub cost: Cost,
}

/// What a folder's items look like now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub jobs: usize,
    pub done: Vec<usize>,
    pub missing: Vec<usize>,
    pub damaged: Vec<usize>,
    /// Each item done's secrets and the seconds it took to build, in item order.
    pub times: Vec<(u32, f64)>,
    /// Secrets in the items not done.
    pub secrets_left: u64,
    /// Exact plans: where the proof stands.
    pub standing: Option<Standing>,
    /// The items not done that are split a level deeper ([`Run::split`]), each
    /// with its split's status.
    pub splits: Vec<(usize, Status)>,
    /// Exact plans: what each item is known to cost (done: its cost, or the
    /// least it costs if shown too dear; not: its floor, or its split's), in
    /// item order; empty for other plans.
    pub costs: Vec<Cost>,
    /// Exact plans: how many items have no floor worked out yet, and count at
    /// their classes' size bounds ([`Run::todo`] works the floors out).
    pub floors_left: usize,
    /// Exact plans: the items done that are to be solved again
    /// (the exact module's `reopened`).
    pub reopened: Vec<usize>,
}

impl Status {
    /// Exact plans: the least item `item` costs ([`Status::costs`]).
    pub fn least(&self, item: usize) -> Option<u64> {
        self.costs.get(item).map(|cost| cost.least())
    }

    /// Seconds the done items took to build.
    pub fn seconds(&self) -> f64 {
        // From 0.0 (a sum of no f64 is -0.0, which would print as such).
        (self.times.iter()).fold(0.0, |sum, &(_, seconds)| sum + seconds)
    }

    /// Seconds the items not done should take, at the rate of those done: `None`
    /// before any is done.
    pub fn seconds_left(&self) -> Option<f64> {
        let secrets_done: u64 = self.times.iter().map(|&(n, _)| u64::from(n)).sum();
        (secrets_done > 0).then(|| self.seconds() / secrets_done as f64 * self.secrets_left as f64)
    }

    /// Whether item `index` is still to solve here: not done (missing or damaged)
    /// and not split a level deeper (its split solves it), or done and to be
    /// solved again ([`Status::reopened`]).
    pub fn to_solve(&self, index: usize) -> bool {
        self.to_solve_first(index) || self.reopened.contains(&index)
    }

    /// Whether item `index` is not done, nor split a level deeper.
    fn to_solve_first(&self, index: usize) -> bool {
        let left = self.missing.contains(&index) || self.damaged.contains(&index);
        left && !self.is_split(index)
    }

    /// Whether item `index` is to solve ([`Status::to_solve`]) though its first
    /// guess is settled (shown dearer than the best known, or than the cap): its
    /// budget is below what it costs at least, so it is solved at once. Such
    /// items add nothing to what the proof decides, only make it whole.
    pub fn at_once(&self, index: usize) -> bool {
        self.to_solve(index) && self.settled(index)
    }

    /// Whether item `index`'s first guess is settled (no longer open).
    fn settled(&self, index: usize) -> bool {
        (self.standing.iter().flat_map(|s| &s.firsts))
            .any(|first| !first.open && first.items.contains(&index))
    }

    /// Whether item `index` is split a level deeper and not merged back yet: its
    /// split's items solve it.
    pub fn is_split(&self, index: usize) -> bool {
        self.splits.iter().any(|(split, _)| *split == index)
    }

    /// The items not done (missing or damaged, split or not).
    fn left(&self) -> Vec<usize> {
        self.missing.iter().chain(&self.damaged).copied().collect()
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

impl Run {
    /// Writes `plan` into `dir` (created if needed) with its job scripts for
    /// `tasks` array tasks (see [`super::array_tasks`]); `mmgen` names the program
    /// the scripts run.
    pub fn create(dir: &Path, plan: Plan, mmgen: &str, tasks: usize) -> Result<Run, String> {
        let text = plan.to_json();
        let items = dir.join("items");
        let old = std::fs::read_to_string(dir.join("plan.json")).ok();
        if old.is_some_and(|old| old != text) {
            // Another plan's items can never be merged into this one.
            match std::fs::remove_dir_all(&items) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&items)(e)),
                _ => {}
            }
        }
        std::fs::create_dir_all(&items).map_err(io(dir))?;
        let plan_path = dir.join("plan.json");
        write_owned(&plan_path, text.as_bytes()).map_err(|e| e.to_string())?;
        let run = Run::with_defaults(dir, plan, &text);
        for (name, script) in super::slurm::scripts(&run, mmgen, tasks) {
            let path = dir.join(name);
            write_owned(&path, script.as_bytes()).map_err(|e| e.to_string())?;
            make_executable(&path)?;
        }
        Ok(run)
    }

    /// Reads the plan in `dir`.
    pub fn open(dir: &Path) -> Result<Run, String> {
        let path = dir.join("plan.json");
        let text = std::fs::read_to_string(&path).map_err(io(&path))?;
        Ok(Run::with_defaults(dir, Plan::from_json(&text)?, &text))
    }

    /// The run of `plan` (whose text is `text`) in `dir`, with the default cache,
    /// no saves and no hooks.
    fn with_defaults(dir: &Path, plan: Plan, text: &str) -> Run {
        Run {
            dir: dir.to_path_buf(),
            plan,
            id: identity(text),
            cache: CacheSettings::default(),
            saves: None,
            on_save: None,
            budget_every: BUDGET_EVERY,
            on_budget: None,
            shares: false,
            again: false,
            recheck: false,
            work: OnceLock::new(),
            floors: OnceLock::new(),
            uppers: OnceLock::new(),
            settled: OnceLock::new(),
        }
    }

    /// The plan's identity: the CRC-32 of its text, which its items carry.
    pub fn identity(&self) -> u32 {
        self.id
    }

    fn item_path(&self, index: usize) -> PathBuf {
        self.dir.join("items").join(format!("{index}.item"))
    }

    /// Where exact item `index` keeps its checkpoints while it is solved (with
    /// [`Run::saves`]), and its certificate until it is done.
    pub fn checkpoint_dir(&self, index: usize) -> PathBuf {
        self.dir.join("items").join(format!("{index}.checkpoint"))
    }

    /// Where a certified plan's item `index` keeps its certificate.
    fn certificate_path(&self, index: usize) -> PathBuf {
        self.dir.join("items").join(format!("{index}.mmc"))
    }

    /// Item `index` if its file is there and whole: `Ok(None)` if missing. A
    /// certified plan's item names its certificate, which need not be here (it
    /// may have been checked where it was written, and not kept), but one that is
    /// here must be the one named; an item of the first format names none, so
    /// its certificate must be here (written before the item: one without it is
    /// damaged).
    fn read_item(&self, index: usize) -> Result<Option<Solved>, ()> {
        let bytes = match std::fs::read(self.item_path(index)) {
            Ok(bytes) => bytes,
            Err(_) => return Ok(None),
        };
        let secrets = self.plan.items[index].secrets;
        let solved = item::decode(&bytes, self.id, index as u32, secrets).ok_or(())?;
        if self.plan.recipe.certified {
            let here = named(&self.certificate_path(index));
            match (&solved.certificate, here) {
                (None, None) => return Err(()),
                (Some(part), Some(here)) if (part.bytes, part.crc) != here => return Err(()),
                _ => {}
            }
        }
        Ok(Some(solved))
    }

    /// Builds item `index` unless it is done and whole: `None` if it was done.
    pub fn solve(&self, index: usize, counters: &Counters) -> Result<Option<Built>, String> {
        if index >= self.plan.items.len() {
            return Err(format!(
                "no item {index}: the plan has items 0 to {}",
                self.plan.items.len() - 1
            ));
        }
        // Shown dearer only by its share of its guess's gap, which its other
        // classes did not close: solved again, under all of it (or its part by
        // its room: the exact module's `share`); or asked to be ([`Run::again`]),
        // under all of it. It keeps the seconds of its solves before, so that
        // `status` sums what it took.
        let solved_before = self.read_item(index).ok().flatten();
        if let Some(solved) = &solved_before {
            let again = self.recheck
                || matches!(solved.outcome, Outcome::AtLeast(_))
                    && (self.again || self.status()?.reopened.contains(&index));
            if !again {
                return Ok(None);
            }
        }
        let recorded = match (self.recheck, &solved_before) {
            (true, Some(solved)) => Some(match solved.outcome.cost() {
                Cost::Exact(total) => total + 1,
                cost => cost.least(),
            }),
            _ => None,
        };
        let recorded = recorded.map(|b| u32::try_from(b).unwrap_or(UNLIMITED));
        let recipe = &self.plan.recipe;
        let new_work = || -> Result<Work, String> {
            Ok(Work {
                codes: Codes::new(recipe.board),
                builder: recipe.builder_with(self.cache)?,
                classes: Mutex::new(HashMap::new()),
            })
        };
        // A certified item's proof rests on its own facts only: its search starts
        // with nothing proven, whatever items this process solved before.
        let own;
        let work = match (recipe.certified, self.work.get()) {
            (true, _) => {
                own = new_work()?;
                &own
            }
            (false, Some(work)) => work,
            (false, None) => {
                let work = new_work()?;
                self.work.get_or_init(|| work)
            }
        };
        let started = Instant::now();
        let searched = |work: &Work| match &work.builder {
            Builder::Exact(optimal) => optimal.exact.nodes.load(Ordering::Relaxed),
            Builder::Rule(_) => 0,
        };
        let before = searched(work);
        let mut resumed = None;
        let (outcome, certificate) = match &work.builder {
            Builder::Exact(optimal) => {
                let solve = Solve {
                    index,
                    counters,
                    started,
                    recorded,
                };
                self.solve_exact(work, optimal, solve, &mut resumed)?
            }
            Builder::Rule(_) => (Outcome::Tree(self.expand(work, index, counters)), None),
        };
        // With the runs before, up to their last save, and its solves before: how
        // long all its searches took.
        let solves_before = solved_before.filter(|_| !self.recheck);
        let earlier =
            resumed.map_or(0.0, |r| r.seconds) + solves_before.map_or(0.0, |solved| solved.seconds);
        let cost = outcome.cost();
        let solved = Solved {
            outcome,
            seconds: earlier + started.elapsed().as_secs_f64(),
            certificate,
        };
        let bytes = item::encode(self.id, index as u32, &solved);
        write_owned(&self.item_path(index), &bytes).map_err(|e| e.to_string())?;
        // Done: what its checkpoints kept (by this run or one cut off before) is in
        // the item now, and its certificate.
        if matches!(work.builder, Builder::Exact(_)) {
            let _ = std::fs::remove_dir_all(self.checkpoint_dir(index));
        }
        Ok(Some(Built {
            positions: searched(work) - before,
            resumed,
            cost,
        }))
    }

    /// The strategy's subtree for item `index`.
    fn expand(&self, work: &Work, index: usize, counters: &Counters) -> Subtree {
        let path = &self.plan.items[index].path;
        let candidates = work.candidates(path);
        let history: Vec<u32> = path.iter().map(|&(g, _)| g).collect();
        expand_below(
            &work.codes,
            work.builder.strategy(),
            self.plan.recipe.settings(),
            counters,
            &history,
            &candidates,
        )
    }

    /// Reads the status once, for a process about to solve many items: those of
    /// first guesses settled now ([`Status::at_once`]) are then solved under their
    /// floors with no budget drawn. Settled stays settled (items done only raise
    /// what a guess costs at least; the best known and a split's cap only fall),
    /// so a budget drawn for such an item later is at most its floor, which it
    /// is solved under anyway: the same items, without reading every item of the
    /// plan and of the plans above it for each.
    pub fn note_settled(&self) -> Result<(), String> {
        // Its floors worked out first, as its items' searches would: a status
        // read before reads the floors kept, and they stay for the process.
        self.floors_worked_out()?;
        let status = self.status()?;
        let settled = (0..self.plan.items.len()).filter(|&i| status.at_once(i));
        let _ = self.settled.set(settled.collect());
        Ok(())
    }

    /// Exact item `index`: its optimal subtree if it costs less than its budget
    /// (see [`exact`]), else the least it costs; and in a certified plan, what
    /// names the certificate it wrote.
    fn solve_exact(
        &self,
        work: &Work,
        optimal: &Optimal,
        solve: Solve<'_>,
        resumed: &mut Option<Resumed>,
    ) -> Result<(Outcome, Option<Part>), String> {
        let Solve {
            index,
            counters,
            started,
            recorded,
        } = solve;
        let item = &self.plan.items[index];
        let recipe = &self.plan.recipe;
        // Below its floor nothing is searched: the class is shown to cost that
        // much at least, with one fact (the floors module).
        self.work_out_floors(optimal);
        let floor = u32::try_from(self.floors(optimal)[index]).unwrap_or(UNLIMITED);
        let budget = match (
            recorded,
            self.settled.get().is_some_and(|s| s.contains(&index)),
        ) {
            (Some(recorded), _) => recorded.max(floor),
            (None, true) => floor,
            (None, false) => self.budget(optimal, index)?.max(floor),
        };
        let candidates = work.candidates(&item.path);
        let history: Vec<u32> = item.path.iter().map(|&(g, _)| g).collect();
        let context = Optimal::context(&work.codes, recipe.settings(), counters);
        let depth = exact::depth_left(&self.plan, item);
        let node = Node {
            candidates: &candidates,
            history: &history,
        };
        let saves = self.saves.map(|every| (every, self.checkpoint_dir(index)));
        if recipe.certified {
            let path = self.certificate_path(index);
            let (board, only) = (recipe.board, recipe.consistent_only);
            let proof = match &saves {
                None => Proof::create(&path, None, board, only)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                Some((_, dir)) => {
                    // Cut off between finishing its certificate and writing the
                    // item: that certificate goes on from the checkpoint.
                    checkpoint::take_back(dir, &path)?;
                    checkpoint::certificate(dir, &path, board, only)?
                }
            };
            optimal.exact.prove_into(proof);
        }
        let (found, budget) = match &saves {
            None => (
                optimal.exact.cost_below(context, node, depth, budget),
                budget,
            ),
            Some((every, dir)) => {
                let loaded = checkpoint::resume(optimal, dir)?;
                *resumed = (loaded.sets > 0).then_some(loaded);
                let seconds = || loaded.seconds + started.elapsed().as_secs_f64();
                // Saved every so often while the item is searched (a failed save
                // keeps the one before); a save taken after the class's own fact
                // leaves that fact last in its certificate, as a run from nothing
                // does, so the item's part proves the same. After each save, the
                // budget is drawn again from the items done by then (by other
                // processes), and between saves every `budget_every`: if it
                // fell, the search stops and goes on under it, with what it
                // proved kept (item 26 of 4x12's within-1 searched for 50 minutes
                // under the budget it began with; resumed in the next session
                // under the budget left by the items done meanwhile, it needed 1
                // position: it had proven its class dearer already).
                let budget = AtomicU32::new(budget);
                let done = Done::default();
                std::thread::scope(|scope| {
                    scope.spawn(|| {
                        let mut saved_at = Instant::now();
                        checkpoint::every((*every).min(self.budget_every), &done, || {
                            if saved_at.elapsed() >= *every {
                                saved_at = Instant::now();
                                let saved = checkpoint::save(optimal, dir, seconds()).is_ok();
                                if let (true, Some(report)) = (saved, &self.on_save) {
                                    // The class's floor is the plan's where that
                                    // is higher than its search's so far.
                                    let mut standing =
                                        optimal.exact.standing(context, node, depth, None);
                                    standing.floor = standing.floor.max(floor);
                                    let searched = optimal.exact.nodes.load(Ordering::Relaxed);
                                    report(index, &standing, searched);
                                }
                            }
                            // A budget that cannot be drawn now (a known tree
                            // put in the folder that does not check, say) leaves
                            // the search under the one it has, which is sound.
                            let was = budget.load(Ordering::Relaxed);
                            let now = self.budget(optimal, index).map_or(was, |b| b.max(floor));
                            if now != was {
                                budget.store(now, Ordering::Relaxed);
                                optimal.exact.stop();
                                if let Some(report) = &self.on_budget {
                                    report(index, was, now);
                                }
                            }
                        })
                    });
                    // A search stopped for a budget that changed goes on under
                    // it (what it proved under the one before holds); one that
                    // ended before the stop was seen ends the item.
                    let found = loop {
                        let under = budget.load(Ordering::Relaxed);
                        let found = optimal.exact.cost_below(context, node, depth, under);
                        if !optimal.exact.timed_out() {
                            break (found, under);
                        }
                        optimal.exact.go_on();
                    };
                    done.set();
                    found
                })
            }
        };
        // A stop that came after the search ended stopped nothing.
        optimal.exact.go_on();
        let certificate = match optimal.exact.take_proof() {
            None => None,
            Some(proof) => {
                let path = self.certificate_path(index);
                let written = proof
                    .finish()
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                Some(Part {
                    bytes: written.bytes,
                    crc: written.crc,
                    last: written.last,
                })
            }
        };
        let Some(cost) = found else {
            return Ok((Outcome::AtLeast(u64::from(budget)), certificate));
        };
        let subtree = self.expand(work, index, counters);
        if subtree.total() != u64::from(cost) {
            return Err(format!(
                "item {index}: the tree built costs {}, but the search proved {cost}; \
                 this is a bug, please report it",
                subtree.total()
            ));
        }
        Ok((Outcome::Tree(subtree), certificate))
    }

    /// What each item of an exact plan costs at the least, looking two guesses
    /// ahead as far as the floors are worked out ([`Run::work_out_floors`]), by
    /// its class's size elsewhere ([`floors::kept`]): a plan only read (its
    /// status, a merge, the plans beside the one whose items are solved) works
    /// none out, as that is hours on a big plan.
    fn floors(&self, optimal: &Optimal) -> &[u64] {
        let (floors, _) =
            (self.floors).get_or_init(|| floors::kept(&self.dir, self.id, &self.plan, optimal));
        floors
    }

    /// How many items [`Run::floors`] counts at their size bounds only.
    fn floors_left(&self, optimal: &Optimal) -> usize {
        self.floors(optimal);
        self.floors.get().map_or(0, |(_, left)| *left)
    }

    /// Works out the floors the plan's folder does not keep yet and keeps them
    /// ([`floors::floors`]), where the plan's items are taken ([`Run::todo`]) or
    /// solved ([`Run::solve`]): as far as a guess's total can matter, under the
    /// least total known plus one ([`Run::tree_beside`]; a damaged known tree's is
    /// left out here, and said where budgets are drawn) and, for a split, under
    /// what the known tree above plays its class in plus one, which caps its
    /// item's budget there ([`Run::budget`]; not that budget itself, which the
    /// plan above draws from its splits' floors).
    fn work_out_floors(&self, optimal: &Optimal) {
        self.floors.get_or_init(|| {
            let known = self.known_tree().ok().flatten();
            let best = self.beside(known.as_ref()).map(|total| total + 1);
            let played = self.played_above().map(|total| total + 1);
            let cap = best.into_iter().chain(played).min().unwrap_or(NEVER);
            let floors = floors::floors(&self.dir, self.id, &self.plan, optimal, cap);
            (floors, 0)
        });
    }

    /// For a split, what the known tree of the plan above plays its class in, if
    /// it has one that plays it.
    fn played_above(&self) -> Option<u64> {
        let (parent, index) = self.above()?;
        parent.known_tree().ok()??.items[index]
    }

    /// For a split, the plan above it, in the folder that holds the split's (as
    /// a campaign lays them out), and the item the split is of: `None` if that
    /// folder holds no plan, or another one.
    pub fn above(&self) -> Option<(Run, usize)> {
        let parent = Run::open(&self.dir.join("..")).ok()?;
        let index = self.split_of(&parent)?;
        Some((parent, index))
    }

    /// What exact item `index` must cost less than to matter, by the items done
    /// now and the tree known beside them ([`exact::budget`]); [`UNLIMITED`] if
    /// anything it costs does. Fails on a known tree that does not check.
    /// It is also below one more than what the known tree's subtree for the
    /// item's class costs, if the tree plays the item's path (the known module):
    /// the class's optimum is at most that.
    pub(super) fn budget(&self, optimal: &Optimal, index: usize) -> Result<u32, String> {
        let (status, known) = self.known(optimal);
        let tree = self.known_tree()?;
        let beside = self.beside(tree.as_ref());
        let budget = exact::budget(&self.plan, index, &known, beside, self.cap(optimal)?);
        let played = |item: usize| tree.as_ref().and_then(|t| t.items[item]);
        let budget = budget.into_iter().chain(played(index).map(|c| c + 1)).min();
        // With shares, an item to solve (not one split a level deeper: its
        // split's cap) is asked for its share of its guess's gap.
        let budget = match budget {
            Some(b) if self.shares && status.to_solve(index) => {
                let uppers = self.uppers.get_or_init(|| Uppers::new(&self.plan));
                let upper = |item| {
                    let heuristic = uppers.of(&self.plan, item);
                    heuristic.into_iter().chain(played(item)).min()
                };
                Some(exact::share(
                    &self.plan,
                    index,
                    &known,
                    &status.left(),
                    upper,
                    b,
                ))
            }
            budget => budget,
        };
        Ok(budget.map_or(UNLIMITED, |b| u32::try_from(b).unwrap_or(UNLIMITED)))
    }

    /// The least total of a tree of the plan's options known beside its items:
    /// the plan's heuristic's, or the tree in `RUN/known.mmt` (the known module) if that
    /// is less. Read again at each call, so a better tree put there while items
    /// run lowers their budgets at their next draw.
    pub fn tree_beside(&self) -> Result<Option<u64>, String> {
        Ok(self.beside(self.known_tree()?.as_ref()))
    }

    /// [`Run::tree_beside`], with the known tree read already.
    fn beside(&self, tree: Option<&known::Known>) -> Option<u64> {
        let heuristic = self.plan.heuristic.map(|(_, total)| u64::from(total));
        heuristic.into_iter().chain(tree.map(|t| t.total)).min()
    }

    /// The tree in `RUN/known.mmt`, checked against the plan (the known module):
    /// its total and its subtrees' in the items' places; `None` if there is none.
    pub fn known_tree(&self) -> Result<Option<known::Known>, String> {
        known::read(&self.dir, &self.plan)
    }

    /// For a split (a plan of an item's class, in the folder of the plan it splits:
    /// [`Run::split`]), what its class must cost less than to matter there: that
    /// item's budget, by the other items of the plan above. A guess of the split
    /// that costs that much is settled as if it were above the best known, so a
    /// split whose guesses all reach it shows its class too dear, as the item's
    /// own search would, with no guess costed in full ([`Run::merge_into`]).
    /// `None` where nothing caps it. The plan above counts its splits by their
    /// own standing, so this asks nothing of this plan back.
    fn cap(&self, optimal: &Optimal) -> Result<Option<u64>, String> {
        let Some((parent, index)) = self.above() else {
            return Ok(None);
        };
        let budget = parent.budget(optimal, index)?;
        Ok((budget < UNLIMITED).then_some(u64::from(budget)))
    }

    /// Which items are done, missing or damaged, and for an exact plan, where
    /// the proof stands and how far its splits are.
    pub fn status(&self) -> Result<Status, String> {
        self.status_capped(true)
    }

    /// [`Run::status`], a split's guesses settled at its cap ([`Run::cap`]) if
    /// `capped`. The plan above reads its splits' status uncapped: their caps
    /// read the plan above.
    fn status_capped(&self, capped: bool) -> Result<Status, String> {
        match self.plan.recipe.builder()? {
            Builder::Exact(optimal) => {
                let (mut status, known) = self.known(&optimal);
                status.floors_left = self.floors_left(&optimal);
                let cap = if capped { self.cap(&optimal)? } else { None };
                let beside = self.tree_beside()?;
                status.standing = exact::standing(&self.plan, &known, beside, cap);
                // A guess whose items left are all split a level deeper waits
                // on searches of hours, item by item, under a cap its other
                // classes' costs tighten: those shown dearer by their shares
                // only are solved again meanwhile, not after (on 5x8, 11223's
                // 11 such classes, costed in full in minutes, lowered the cap
                // of its two split classes by 1,244).
                let waiting: Vec<usize> = (status.left().into_iter())
                    .filter(|&i| status.to_solve_first(i))
                    .collect();
                if let Some(standing) = &status.standing {
                    status.reopened = exact::reopened(standing, &known, &waiting);
                }
                status.costs = known;
                Ok(status)
            }
            Builder::Rule(_) => Ok(self.scan().0),
        }
    }

    /// The items still to solve (missing or damaged) in the order to solve them,
    /// but for those split a level deeper, which their splits solve: first those
    /// of first guesses still open (an exact plan's: the search's order, guess by
    /// guess, each guess's classes smallest first), then those solved at once
    /// ([`Status::at_once`]), which decide nothing: a session cut off leaves the
    /// proof as far on as it can be.
    pub fn todo(&self) -> Result<Vec<usize>, String> {
        self.floors_worked_out()?;
        let (status, todo) = self.in_order(Status::to_solve)?;
        let (at_once, open): (Vec<usize>, Vec<usize>) =
            todo.into_iter().partition(|&i| status.at_once(i));
        Ok(open.into_iter().chain(at_once).collect())
    }

    /// The items [`Run::todo`] lists that are solved at once ([`Status::at_once`]),
    /// in its order: many can go to one `solve-class`.
    pub fn todo_at_once(&self) -> Result<Vec<usize>, String> {
        self.floors_worked_out()?;
        Ok(self.in_order(Status::at_once)?.1)
    }

    /// The items split a level deeper and not merged back yet, in the order
    /// [`Run::todo`] takes items: the order a campaign works on the splits in,
    /// so that a split whose class the search costs first gives the splits after
    /// it the tighter caps, and the splits of first guesses settled come last.
    pub fn splits_todo(&self) -> Result<Vec<usize>, String> {
        let (status, splits) = self.in_order(Status::is_split)?;
        let (settled, open): (Vec<usize>, Vec<usize>) =
            splits.into_iter().partition(|&i| status.settled(i));
        Ok(open.into_iter().chain(settled).collect())
    }

    /// An exact plan's floors worked out where the run keeps none (hours on a
    /// big plan, said on standard error), as solve-class does: the items to
    /// solve are listed by what they prove.
    fn floors_worked_out(&self) -> Result<(), String> {
        if let Builder::Exact(optimal) = self.plan.recipe.builder()? {
            self.work_out_floors(&optimal);
        }
        Ok(())
    }

    /// The status and the items `pick` picks from it, in the search's order.
    fn in_order(
        &self,
        pick: impl Fn(&Status, usize) -> bool,
    ) -> Result<(Status, Vec<usize>), String> {
        let status = self.status()?;
        let order = exact::order(&self.plan).into_iter();
        let picked = order.filter(|&i| pick(&status, i)).collect();
        Ok((status, picked))
    }

    /// The plan of item `index`'s class a level deeper, if there is one where a
    /// split is made (`RUN/within-INDEX`: `mmgen plan --within RUN --item INDEX
    /// --dir RUN/within-INDEX`) and it is of this item.
    pub fn split(&self, index: usize) -> Option<Run> {
        let split = Run::open(&self.split_dir(index)).ok()?;
        (split.split_of(self) == Some(index)).then_some(split)
    }

    /// An exact plan's time left, projected from its items done
    /// ([`super::project`]) over the items left of first guesses still open (not
    /// those split a level deeper: each split projects its own): `None` for other
    /// plans, `Some(None)` until enough items are done to fit.
    pub fn projection(&self, status: &Status) -> Option<Option<Projection>> {
        self.projected_from(status, &status.times)
    }

    /// [`Run::projection`] fitted only to the items done that their budgets
    /// stopped (shown to cost at least their budget, not costed): what is left
    /// if each item left stops at its budget as they did. With shares of their
    /// guesses' gaps (`solve-class --share`) most items stop so; an item of a
    /// guess that turns out the best does not. `None` where that fit is not made.
    pub fn projection_stopped(&self, status: &Status) -> Option<Projection> {
        let stopped: Vec<(u32, f64)> = (status.done.iter().zip(&status.times))
            .filter(|&(&item, _)| matches!(status.costs.get(item), Some(Cost::AtLeast(_))))
            .map(|(_, &time)| time)
            .collect();
        self.projected_from(status, &stopped).flatten()
    }

    /// The items left of first guesses still open, projected from the items
    /// `done` (secrets, seconds).
    fn projected_from(&self, status: &Status, done: &[(u32, f64)]) -> Option<Option<Projection>> {
        let standing = status.standing.as_ref()?;
        let left: Vec<u32> = (standing.firsts.iter().filter(|f| f.open))
            .flat_map(|f| f.items.iter().filter(|&&i| status.to_solve(i)))
            .map(|&i| self.plan.items[i].secrets)
            .collect();
        Some(project(done, &left))
    }

    /// Where item `index`'s split is made: `RUN/within-INDEX`.
    pub fn split_dir(&self, index: usize) -> PathBuf {
        self.dir.join(format!("within-{index}"))
    }

    /// Which item of `parent` this plan is of, if it is a plan of one's class.
    fn split_of(&self, parent: &Run) -> Option<usize> {
        let within = self.plan.within.as_ref()?;
        let item = parent.plan.items.get(within.item)?;
        let ours = parent.id == within.parent
            && item.path == within.path
            && parent.plan.recipe == self.plan.recipe;
        ours.then_some(within.item)
    }

    /// The status and what every item is known to cost (an exact plan's): what
    /// it cost if done, else the least its split has proven so far (and the
    /// least total of a tree it knows: its best so far or its heuristic's), else
    /// its floor. A split's floor only rises as its items are done, and its merge
    /// costs at least that and at most its tree, so budgets drawn from them stay
    /// sound.
    pub(super) fn known(&self, optimal: &Optimal) -> (Status, Vec<Cost>) {
        let (mut status, mut done) = self.scan();
        let left: Vec<usize> = status
            .missing
            .iter()
            .chain(&status.damaged)
            .copied()
            .collect();
        // The known tree beside the plan plays a split's class too, maybe for less
        // than the split's best so far (a heuristic's, before its items are done).
        let beside = self.known_tree().ok().flatten();
        for index in left {
            let Some(split) = self.split(index) else {
                continue;
            };
            let Ok(of_split) = split.status_capped(false) else {
                continue;
            };
            if let Some(standing) = &of_split.standing {
                let least = standing.floor.max(self.floors(optimal)[index]);
                let played = beside.as_ref().and_then(|tree| tree.items[index]);
                let tree = standing.best_known.into_iter().chain(played).min();
                // Proven at least what a tree it has costs: that is its cost.
                done[index] = Some(match tree {
                    Some(tree) if tree <= least => Cost::Exact(tree),
                    Some(tree) => Cost::Between(least, tree),
                    None => Cost::AtLeast(least),
                });
            }
            status.splits.push((index, of_split));
        }
        (status, exact::known(self.floors(optimal), &done))
    }

    /// Reads every item once: the status, and what each item done cost (the
    /// total of its subtree, or the least an exact item shown too dear costs).
    fn scan(&self) -> (Status, Vec<Option<Cost>>) {
        let (status, outcomes) = self.read_all();
        let costs = outcomes
            .iter()
            .map(|o| o.as_ref().map(Outcome::cost))
            .collect();
        (status, costs)
    }

    /// Reads every item once: the status, and the outcomes of those done.
    pub(super) fn read_all(&self) -> (Status, Vec<Option<Outcome>>) {
        let mut status = Status {
            jobs: self.plan.items.len(),
            ..Status::default()
        };
        let mut outcomes = Vec::with_capacity(status.jobs);
        for (index, item) in self.plan.items.iter().enumerate() {
            let secrets = u64::from(item.secrets);
            let read = self.read_item(index);
            match &read {
                Ok(Some(solved)) => {
                    status.done.push(index);
                    status.times.push((item.secrets, solved.seconds));
                }
                Ok(None) => status.missing.push(index),
                Err(()) => status.damaged.push(index),
            }
            if !matches!(read, Ok(Some(_))) {
                status.secrets_left += secrets;
            }
            outcomes.push(read.ok().flatten().map(|solved| solved.outcome));
        }
        (status, outcomes)
    }

    /// The whole tree: the top with every item's subtree in its place, laid out as
    /// a single run lays it out. Fails naming the items to rerun.
    pub fn merge(&self) -> Result<Generated, String> {
        if let Some(within) = &self.plan.within {
            return Err(format!(
                "this plan is of item {}'s class of another plan, not of a whole tree: \
                 merge it into that item (mmgen merge --dir RUN --into PARENT)",
                within.item
            ));
        }
        let (tree, _) = self.assembled()?;
        let recipe = &self.plan.recipe;
        let codes = Codes::new(recipe.board);
        let info = recipe.builder()?.strategy().info(&codes);
        Ok(lay_out(recipe.board, &tree, info))
    }

    /// The top with every item's subtree in its place (the first of the cheapest
    /// of an exact plan's options), and the seconds the items took. Fails naming
    /// the items to solve ([`Run::not_done`]).
    fn assembled(&self) -> Result<(Subtree, f64), String> {
        let (status, outcomes) = self.read_all();
        if !status.missing.is_empty() || !status.damaged.is_empty() {
            return Err(self.not_done(&status));
        }
        // Every item is done here.
        let known = done_costs(&outcomes);
        let mut subtrees = trees_of(outcomes);
        let top = match &self.plan.top {
            Top::Cheapest(options) => &options[exact::cheapest(&self.plan, options, &known)?],
            top => top,
        };
        Ok((assemble(top, &mut subtrees)?, status.seconds()))
    }

    /// Why the items cannot be merged yet, on one line: those to solve (the first
    /// [`LISTED`] of each kind, and how many in all), those a split solves, and
    /// what can be done before.
    fn not_done(&self, status: &Status) -> String {
        let list = |items: &[usize]| {
            let shown: Vec<String> = items.iter().take(LISTED).map(usize::to_string).collect();
            match items.len() {
                n if n > LISTED => format!("{} … ({n} in all)", shown.join(" ")),
                _ => shown.join(" "),
            }
        };
        let (split, missing): (Vec<usize>, Vec<usize>) =
            (status.missing.iter()).partition(|&&index| self.split(index).is_some());
        let mut parts = Vec::new();
        if !missing.is_empty() || !status.damaged.is_empty() {
            let kinds = [("missing", &missing), ("damaged", &status.damaged)];
            let rerun: Vec<String> = (kinds.iter())
                .filter(|(_, items)| !items.is_empty())
                .map(|(kind, items)| format!("{kind} {}", list(items)))
                .collect();
            parts.push(format!(
                "to solve (mmgen solve-class --dir {} INDEX...): {}",
                self.dir.display(),
                rerun.join(", ")
            ));
        }
        if !split.is_empty() {
            let dir = self.dir.display();
            parts.push(format!(
                "split a level deeper, each merged back first (mmgen merge --dir \
                 {dir}/within-INDEX --into {dir}): {}",
                list(&split)
            ));
        }
        let fill = match self.plan.within {
            None => ", and --fill TREE makes a tree of the items done in TREE's places",
            Some(_) => "",
        };
        format!(
            "not every item is done; {}; mmgen status --dir {} says where the plan stands{fill}",
            parts.join("; "),
            self.dir.display()
        )
    }

    /// The tree of the first of the cheapest of an exact plan's guesses costed in
    /// full so far (every item under it done): a tree of the plan's secrets, its
    /// least only once every other guess is shown to cost as much; `None` while no
    /// guess is costed in full. Reads the items only (no floors are worked out).
    pub(super) fn best_so_far(&self) -> Option<Subtree> {
        let Top::Cheapest(options) = &self.plan.top else {
            return None;
        };
        let (_, outcomes) = self.read_all();
        let (guess, _) = exact::standing(&self.plan, &done_costs(&outcomes), None, None)?.best?;
        let option = (options.iter())
            .find(|option| matches!(option, Top::Node { guess: g, .. } if *g == guess))?;
        assemble(option, &mut trees_of(outcomes)).ok()
    }

    /// Merges this plan of an item's class (`mmgen plan --within`) into that item
    /// of `parent`: its subtree, the first of the cheapest of the class's guesses as
    /// the search keeps it, and for a certified plan its certificate, whose last
    /// fact is the class's (resting on this plan's parts), as the item's part.
    /// What is merged is the item a solve of it writes, but for its certificate's
    /// bytes; an item done already is not replaced. Where no guess of the class
    /// is costed in full but every one costs at least what the class may cost to
    /// matter in `parent` (that item's budget there), the item is the least the class costs,
    /// as a search of it under that budget records it, and the certificate's
    /// last fact says so. The class's cost, and what the certificate holds.
    pub fn merge_into(&self, parent: &Run) -> Result<(Cost, Option<Written>), String> {
        let Some(within) = &self.plan.within else {
            return Err("this plan is of a whole tree, not of an item's class: \
                        merge it with mmgen merge --dir RUN --out FILE"
                .into());
        };
        let index = within.item;
        if self.split_of(parent).is_none() {
            return Err(format!(
                "{} holds another plan than the one this plan's class is of",
                parent.dir.display()
            ));
        }
        if let Ok(Some(_)) = parent.read_item(index) {
            return Err(format!(
                "item {index} of {} is done already; not replaced",
                parent.dir.display()
            ));
        }
        let (outcome, seconds) = match self.assembled() {
            Ok((subtree, seconds)) => (Outcome::Tree(subtree), seconds),
            Err(undecided) => self.too_dear()?.ok_or(undecided)?,
        };
        let written = match self.plan.recipe.certified {
            false => None,
            true => Some(self.merge_certificate(&parent.certificate_path(index))?),
        };
        let cost = outcome.cost();
        let solved = Solved {
            outcome,
            seconds,
            certificate: written.as_ref().map(|w| Part {
                bytes: w.bytes,
                crc: w.crc,
                last: w.last.clone(),
            }),
        };
        let bytes = item::encode(parent.id, index as u32, &solved);
        write_owned(&parent.item_path(index), &bytes).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_dir_all(parent.checkpoint_dir(index));
        Ok((cost, written))
    }

    /// A split with every item done whose guesses all cost at least what its
    /// class may cost to matter above ([`Run::cap`]): the least the class costs,
    /// and the seconds its items took; `None` otherwise.
    fn too_dear(&self) -> Result<Option<(Outcome, f64)>, String> {
        let Ok(Builder::Exact(optimal)) = self.plan.recipe.builder() else {
            return Ok(None);
        };
        let (status, known) = self.known(&optimal);
        if !status.missing.is_empty() || !status.damaged.is_empty() {
            return Ok(None);
        }
        let (Some(standing), Some(cap)) = (
            exact::standing(&self.plan, &known, None, None),
            self.cap(&optimal)?,
        ) else {
            return Ok(None);
        };
        let floor = standing.floor;
        Ok((floor >= cap).then_some((Outcome::AtLeast(floor), status.seconds())))
    }
}

impl Run {
    /// The certificate of a certified exact plan, written to `target`: its items'
    /// certificates one after another, then the claim about every code that rests
    /// on their last facts (each item's proof of its class) and the checker's own
    /// bounds, as a search of every code would prove it. An item whose
    /// certificate is not here gives its last fact as a premise instead, which a
    /// checker takes from its own record of a check of that part. For after
    /// [`Run::merge`]: every item done and the first guess decided.
    pub fn merge_certificate(&self, target: &Path) -> Result<Written, String> {
        let recipe = &self.plan.recipe;
        let cannot = |e: std::io::Error| format!("cannot write {}: {e}", target.display());
        let (true, Builder::Exact(optimal)) = (recipe.certified, recipe.builder()?) else {
            return Err(
                "the plan was made without --certificate, so its items wrote none: \
                        plan it again with --certificate and solve its items"
                    .into(),
            );
        };
        let proof =
            Proof::create(target, None, recipe.board, recipe.consistent_only).map_err(cannot)?;
        let solved: Vec<Option<Solved>> = (0..self.plan.items.len())
            .map(|index| self.read_item(index).ok().flatten())
            .collect();
        let mut facts = 0;
        let mut uses = Vec::new();
        for (index, item) in solved.iter().enumerate() {
            let path = self.certificate_path(index);
            let part = item.as_ref().and_then(|item| item.certificate.clone());
            let count = match (path.is_file(), part) {
                (false, Some(Part { bytes, crc, last })) => match last {
                    Some(head) => {
                        proof.premise(bytes, crc, &head);
                        1
                    }
                    None => 0,
                },
                _ => match proof.append(&path, recipe.board, recipe.consistent_only) {
                    Ok(count) => count,
                    Err(e) => {
                        proof.abandon();
                        return Err(format!("{}: {e}; rerun item {index}", path.display()));
                    }
                },
            };
            facts += count;
            // An item whose class the bounds settle alone wrote no fact.
            if count > 0 {
                uses.push(facts - 1);
            }
        }
        let done: Vec<Option<Cost>> = (solved.iter())
            .map(|item| item.as_ref().map(|item| item.outcome.cost()))
            .collect();
        let known = exact::known(self.floors(&optimal), &done);
        let floor = exact::standing(&self.plan, &known, None, None).map_or(0, |s| s.floor);
        let bound = u32::try_from(floor).unwrap_or(UNLIMITED);
        let codes = Codes::new(recipe.board);
        let counters = Counters::default();
        let context = Optimal::context(&codes, recipe.settings(), &counters);
        optimal.exact.prove_into(proof);
        let root = self.plan.within.as_ref().map_or(&[][..], |w| &w.path[..]);
        let node = Node {
            candidates: &super::class(&codes, root),
            history: &root.iter().map(|&(g, _)| g).collect::<Vec<u32>>(),
        };
        let depth = (recipe.max_depth).map_or(UNLIMITED, |d| d.saturating_sub(root.len() as u32));
        optimal
            .exact
            .prove_merged(context, node, depth, bound, &uses);
        let proof = optimal
            .exact
            .take_proof()
            .ok_or("the certificate was lost")?;
        let written = proof.finish().map_err(cannot)?;
        self.remove_leftovers();
        Ok(written)
    }

    /// Removes the temporary certificates of item attempts that were killed (a
    /// lost node's): every item is done, so no attempt still needs one.
    fn remove_leftovers(&self) {
        let Ok(files) = std::fs::read_dir(self.dir.join("items")) else {
            return;
        };
        for file in files.flatten() {
            let name = file.file_name();
            if name.to_string_lossy().contains(".mmc.tmp-") {
                let _ = std::fs::remove_file(file.path());
            }
        }
    }
}

/// What names the certificate at `path`, if there is one: its size and the
/// CRC-32 its last 4 bytes hold (checked whole where it is read whole).
fn named(path: &Path) -> Option<(u64, u32)> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let bytes = file.metadata().ok()?.len();
    file.seek(SeekFrom::End(-4)).ok()?;
    let mut crc = [0u8; 4];
    file.read_exact(&mut crc).ok()?;
    Some((bytes, u32::from_le_bytes(crc)))
}

/// What the items read cost as far as they are done (a missing one at least 0).
fn done_costs(outcomes: &[Option<Outcome>]) -> Vec<Cost> {
    (outcomes.iter())
        .map(|o| o.as_ref().map_or(Cost::AtLeast(0), Outcome::cost))
        .collect()
}

/// The subtrees of the items read (none for an item missing or shown too dear).
pub(super) fn trees_of(outcomes: Vec<Option<Outcome>>) -> Vec<Option<Subtree>> {
    (outcomes.into_iter())
        .map(|outcome| match outcome {
            Some(Outcome::Tree(subtree)) => Some(subtree),
            _ => None,
        })
        .collect()
}

/// The top with the items' subtrees put in their places.
fn assemble(top: &Top, subtrees: &mut [Option<Subtree>]) -> Result<Subtree, String> {
    Ok(match top {
        Top::Leaf(code) => Subtree::Leaf(*code),
        Top::Item(index) => subtrees[*index]
            .take()
            .ok_or_else(|| format!("item {index} has no subtree or is used twice"))?,
        Top::Node {
            guess,
            wins,
            candidates,
            children,
        } => Subtree::Node {
            guess: *guess,
            wins: *wins,
            candidates: *candidates,
            children: children
                .iter()
                .map(|(answer, child)| Ok((*answer, assemble(child, subtrees)?)))
                .collect::<Result<_, String>>()?,
        },
        Top::Cheapest(_) => return Err("a plan's choice of first guess is nested".into()),
    })
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(io(path))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), String> {
    Ok(())
}
