//! Builds complete Mastermind strategy trees and writes them as mmtree files.
//!
//! Data flows one way: the board's codes ([`codes::Codes`]) -> a strategy chooses
//! each guess ([`strategy`]: a rule with the heuristic search, or the exact search,
//! both scoring one guess per symmetry class) -> [`build::expand`] grows the
//! complete tree in parallel -> [`build::number`] numbers it breadth first ->
//! [`output::write_tree_file`] streams it to a temporary file and renames it into
//! place. README.md's architecture section draws the whole picture.

#![forbid(unsafe_code)]

pub mod best_known;
pub mod build;
mod bytes;
mod canonical;
pub mod checkpoint;
pub mod codes;
pub mod estimate;
mod exact;
pub mod first_best;
pub mod import;
pub mod longest;
pub mod output;
pub mod plan;
pub mod progress;
mod relabel;
pub mod strategy;
mod symmetry;
pub mod value;

use lookup::format::Meta;
use lookup::Board;
use progress::Progress;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A position being expanded: the secrets still possible and the guesses that led
/// there (code indices).
#[derive(Clone, Copy)]
pub struct Node<'a> {
    pub candidates: &'a [u32],
    pub history: &'a [u32],
}

/// Search settings that change the work, never the result.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Score one code per equivalence class (on by default; off for the plain search).
    pub symmetry: bool,
}

/// What every thread of a run shares: counts for progress and reports, and when
/// the run gives up.
#[derive(Default)]
pub struct Counters {
    /// Secrets placed in the tree so far.
    pub solved: AtomicU64,
    /// Guess-secret pairs scored.
    pub scorings: AtomicU64,
    /// Subtrees waiting and done, for an estimate of the time left.
    pub progress: Progress,
    /// When the whole run gives up (`mmgen --time-limit`).
    pub stop: Stop,
}

/// The instant a run gives up, if it has one. Every expansion and every rule's
/// scan checks it; once it has passed they hurry to the end without choosing, and
/// the tree they make is thrown away ([`generate_on`] fails): a run bounded in time
/// ends soon after its bound, with a complete tree or none.
#[derive(Default)]
pub struct Stop {
    at: Option<Instant>,
    passed: AtomicBool,
}

impl Stop {
    /// A run that gives up at `at` (never, if `None`).
    pub fn at(at: Option<Instant>) -> Stop {
        Stop {
            at,
            passed: AtomicBool::new(false),
        }
    }

    /// Whether the run has given up: some work was skipped because its time had
    /// passed (unlike [`Stop::passed`], this does not look at the clock, so a tree
    /// finished just in time is kept).
    pub fn gave_up(&self) -> bool {
        self.passed.load(Ordering::Relaxed)
    }

    /// Gives up now, whatever the time (an interrupt: Ctrl-C in Python's `build`).
    pub fn now(&self) {
        self.passed.store(true, Ordering::Relaxed);
    }

    /// Whether the run's time has passed (from then on, work is skipped).
    pub fn passed(&self) -> bool {
        if self.passed.load(Ordering::Relaxed) {
            return true;
        }
        let passed = self.at.is_some_and(|at| Instant::now() >= at);
        if passed {
            self.passed.store(true, Ordering::Relaxed);
        }
        passed
    }
}

/// Below this many scorings a scan runs on one thread.
pub(crate) const PARALLEL_WORK: usize = 1 << 15;

/// The program name and version written into every file.
pub const GENERATOR: &str = concat!("mmgen ", env!("CARGO_PKG_VERSION"));

/// A complete tree, numbered for the file, with its header.
pub struct Generated {
    pub board: Board,
    pub meta: Meta,
    pub numbered: build::Numbered,
}

/// Expands the complete tree of `strategy` on `board`; `counters` follow the work
/// as it happens (for a progress bar and the report). Fails, before or after the
/// work, when the strategy's options cannot be met ([`strategy::Unmet`]).
pub fn generate(
    board: Board,
    strategy: &dyn strategy::Strategy,
    settings: Settings,
    counters: &Counters,
) -> Result<Generated, strategy::Unmet> {
    generate_on(&codes::Codes::new(board), strategy, settings, counters)
}

/// [`generate`] on a board's codes made already (shared with a progress display).
pub fn generate_on(
    codes: &codes::Codes,
    strategy: &dyn strategy::Strategy,
    settings: Settings,
    counters: &Counters,
) -> Result<Generated, strategy::Unmet> {
    strategy.check(codes, settings, counters)?;
    let tree = build::expand(codes, strategy, settings, counters);
    if counters.stop.gave_up() {
        return Err(strategy::Unmet::Stopped);
    }
    if let Some(proven) = strategy.proven_total(codes) {
        let built = tree.total();
        if built != proven {
            return Err(strategy::Unmet::Unlike { built, proven });
        }
    }
    let generated = lay_out(codes.board(), &tree, strategy.info(codes));
    let needs = generated.meta.stats.max_guesses;
    match strategy.max_depth() {
        Some(asked) if needs > asked => Err(strategy::Unmet::DepthExceeded { asked, needs }),
        _ => Ok(generated),
    }
}

/// Lays out an expanded tree for the file, with its header.
pub fn lay_out(
    board: Board,
    tree: &build::Subtree,
    strategy: lookup::format::StrategyInfo,
) -> Generated {
    let numbered = build::number(tree);
    let meta = Meta {
        generator: GENERATOR.into(),
        strategy,
        stats: numbered.stats.clone(),
    };
    Generated {
        board,
        meta,
        numbered,
    }
}
