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
mod canonical;
pub mod codes;
mod exact;
pub mod first_best;
pub mod import;
pub mod output;
pub mod plan;
pub mod progress;
mod relabel;
pub mod strategy;
mod symmetry;

use lookup::format::Meta;
use lookup::Board;
use progress::Progress;
use std::sync::atomic::AtomicU64;

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

/// Counts shared by every thread of a run, for progress and reports.
#[derive(Default)]
pub struct Counters {
    /// Secrets placed in the tree so far.
    pub solved: AtomicU64,
    /// Guess-secret pairs scored.
    pub scorings: AtomicU64,
    /// Subtrees waiting and done, for an estimate of the time left.
    pub progress: Progress,
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
