//! The rules that choose a guess for a set of still-possible secrets.
//!
//! A strategy is a pure function of the node (candidates and history): the tree
//! builder calls it at every node, in parallel, and the file must not depend on the
//! order of those calls. Each strategy records in the file header what it optimises
//! and how it breaks ties.

mod knuth;

pub use knuth::Knuth;

use crate::partition::Codes;
use crate::search::{Counters, Node, Settings};
use lookup::format::StrategyInfo;

/// A rule for the next guess.
pub trait Strategy: Sync {
    /// What goes into the file header.
    fn info(&self) -> StrategyInfo;

    /// The code index to guess at `node` (sorted candidates, at least two). The
    /// guess must make progress: win, or split the candidates into several classes.
    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32;
}

/// The strategies `mmgen --strategy` knows, by name.
pub fn by_name(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "knuth" => Some(Box::new(Knuth)),
        _ => None,
    }
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &["knuth"];
