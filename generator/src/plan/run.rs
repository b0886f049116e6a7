//! A plan in a folder, and the three steps users run on it: solve items, see the
//! status, merge. `RUN/plan.json` is the plan; `RUN/items/N.item` are the items;
//! `RUN/submit.sh`, `RUN/items.sbatch` and `RUN/merge.sbatch` run it on Slurm.

use super::item::{self, Solved};
use super::json::identity;
use super::{Plan, Top};
use crate::build::{expand_below, Subtree};
use crate::codes::Codes;
use crate::output::write_owned;
use crate::strategy::Strategy;
use crate::{lay_out, Counters, Generated};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// A plan's folder, with the plan read and its identity. Creating one over another
/// plan (which `mmgen plan` does only with `--force`) removes that plan's items.
pub struct Run {
    pub dir: PathBuf,
    pub plan: Plan,
    id: u32,
    /// Made once per process, for every item it solves.
    work: OnceLock<Work>,
}

/// A path from the root: (guess, answer) steps.
type Steps = Vec<(u32, usize)>;

/// What solving items needs, made once: the codes, the strategy, and the secrets
/// reached by each path prefix met so far (items share their first steps).
struct Work {
    codes: Codes,
    strategy: Box<dyn Strategy>,
    classes: Mutex<HashMap<Steps, Arc<Vec<u32>>>>,
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
            Some((&(guess, answer), before)) => {
                let parent = self.candidates(before);
                let (split, _) = self.codes.split(guess, &parent);
                let part = split
                    .iter()
                    .find(|&(a, _)| a == answer)
                    .map(|(_, p)| p.to_vec());
                Arc::new(part.unwrap_or_default())
            }
        };
        let mut classes = self.classes.lock().unwrap_or_else(|e| e.into_inner());
        classes.insert(path.to_vec(), Arc::clone(&here));
        here
    }
}

/// What a folder's items look like now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub jobs: usize,
    pub done: Vec<usize>,
    pub missing: Vec<usize>,
    pub damaged: Vec<usize>,
    /// Seconds the done items took to build.
    pub seconds: f64,
    /// Secrets in the items not done.
    pub secrets_left: u64,
    /// Secrets in the done items.
    pub secrets_done: u64,
}

impl Status {
    /// Seconds the items not done should take, at the rate of those done: `None`
    /// before any is done.
    pub fn seconds_left(&self) -> Option<f64> {
        (self.secrets_done > 0)
            .then(|| self.seconds / self.secrets_done as f64 * self.secrets_left as f64)
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

impl Run {
    /// Writes `plan` into `dir` (created if needed) with its job scripts; `mmgen`
    /// names the program the scripts run.
    pub fn create(dir: &Path, plan: Plan, mmgen: &str) -> Result<Run, String> {
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
        let run = Run {
            dir: dir.to_path_buf(),
            plan,
            id: identity(&text),
            work: OnceLock::new(),
        };
        for (name, script) in super::slurm::scripts(&run, mmgen) {
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
        Ok(Run {
            dir: dir.to_path_buf(),
            plan: Plan::from_json(&text)?,
            id: identity(&text),
            work: OnceLock::new(),
        })
    }

    fn item_path(&self, index: usize) -> PathBuf {
        self.dir.join("items").join(format!("{index}.item"))
    }

    /// Item `index` if its file is there and whole: `Ok(None)` if missing.
    fn read_item(&self, index: usize) -> Result<Option<Solved>, ()> {
        let bytes = match std::fs::read(self.item_path(index)) {
            Ok(bytes) => bytes,
            Err(_) => return Ok(None),
        };
        let secrets = self.plan.items[index].secrets;
        item::decode(&bytes, self.id, index as u32, secrets)
            .map(Some)
            .ok_or(())
    }

    /// Builds item `index` unless it is done and whole; says whether it built it.
    pub fn solve(&self, index: usize, counters: &Counters) -> Result<bool, String> {
        if index >= self.plan.items.len() {
            return Err(format!(
                "no item {index}: the plan has items 0 to {}",
                self.plan.items.len() - 1
            ));
        }
        if let Ok(Some(_)) = self.read_item(index) {
            return Ok(false);
        }
        let recipe = &self.plan.recipe;
        let work = match self.work.get() {
            Some(work) => work,
            None => {
                let work = Work {
                    codes: Codes::new(recipe.board),
                    strategy: recipe.strategy()?,
                    classes: Mutex::new(HashMap::new()),
                };
                self.work.get_or_init(|| work)
            }
        };
        let path = &self.plan.items[index].path;
        let candidates = work.candidates(path);
        let history: Vec<u32> = path.iter().map(|&(g, _)| g).collect();
        let started = Instant::now();
        let subtree = expand_below(
            &work.codes,
            work.strategy.as_ref(),
            recipe.settings(),
            counters,
            &history,
            &candidates,
        );
        let solved = Solved {
            subtree,
            seconds: started.elapsed().as_secs_f64(),
        };
        let bytes = item::encode(self.id, index as u32, &solved);
        write_owned(&self.item_path(index), &bytes).map_err(|e| e.to_string())?;
        Ok(true)
    }

    /// Which items are done, missing or damaged.
    pub fn status(&self) -> Status {
        self.scan().0
    }

    /// Reads every item once: the status, and the subtrees of those done.
    fn scan(&self) -> (Status, Vec<Option<Subtree>>) {
        let mut status = Status {
            jobs: self.plan.items.len(),
            ..Status::default()
        };
        let mut subtrees = Vec::with_capacity(status.jobs);
        for (index, item) in self.plan.items.iter().enumerate() {
            let secrets = u64::from(item.secrets);
            let read = self.read_item(index);
            match &read {
                Ok(Some(solved)) => {
                    status.done.push(index);
                    status.seconds += solved.seconds;
                    status.secrets_done += secrets;
                }
                Ok(None) => status.missing.push(index),
                Err(()) => status.damaged.push(index),
            }
            if !matches!(read, Ok(Some(_))) {
                status.secrets_left += secrets;
            }
            subtrees.push(read.ok().flatten().map(|solved| solved.subtree));
        }
        (status, subtrees)
    }

    /// The whole tree: the top with every item's subtree in its place, laid out as
    /// a single run lays it out. Fails naming the items to rerun.
    pub fn merge(&self) -> Result<Generated, String> {
        let (status, mut subtrees) = self.scan();
        if !status.missing.is_empty() || !status.damaged.is_empty() {
            let list = |kind: &str, items: &[usize]| {
                let items: Vec<String> = items.iter().map(usize::to_string).collect();
                (!items.is_empty()).then(|| format!("{kind} {}", items.join(" ")))
            };
            let parts: Vec<String> = [
                list("missing", &status.missing),
                list("damaged", &status.damaged),
            ]
            .into_iter()
            .flatten()
            .collect();
            return Err(format!(
                "not every item is done; rerun them: {}",
                parts.join("; ")
            ));
        }
        let tree = assemble(&self.plan.top, &mut subtrees)?;
        let recipe = &self.plan.recipe;
        let strategy = recipe.strategy()?;
        let codes = Codes::new(recipe.board);
        Ok(lay_out(recipe.board, &tree, strategy.info(&codes)))
    }
}

/// The top with the items' subtrees put in their places.
fn assemble(top: &Top, subtrees: &mut [Option<Subtree>]) -> Result<Subtree, String> {
    Ok(match top {
        Top::Leaf(code) => Subtree::Leaf(*code),
        Top::Item(index) => subtrees[*index]
            .take()
            .ok_or_else(|| format!("item {index} is used twice"))?,
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
