//! What every report says about a tree, in one type: `mmgen` and `mmgen compare`
//! after building one, `mmlookup info` and `mmlookup audit` after reading one. The
//! JSON reports are this object plus the fields particular to each command, so the
//! same figure has the same name everywhere; the text reports print its lines.

use super::{Meta, Stats};
use crate::board::{Board, Code};
use serde::Serialize;
use std::fmt;
use std::string::{String, ToString};
use std::vec::Vec;

/// The board, the strategy and its claims, and the statistics of a tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The board's name, e.g. `4x6` or `4x10 no-repeat`.
    pub board: String,
    pub pegs: usize,
    pub colors: usize,
    pub repeat: bool,
    pub codes: u32,
    pub strategy: String,
    pub first_guess: String,
    pub secrets: u64,
    pub nodes: u64,
    pub max_guesses: u32,
    pub total_guesses: u64,
    pub average_guesses: f64,
    pub histogram: Vec<u64>,
    /// For exact searches: whether the tree is proven optimal; null for heuristics.
    pub proven: Option<bool>,
    /// The proof claim in words (see [`super::StrategyInfo::proof`]).
    pub proof: Option<String>,
    /// For a search that ran out of time: the least total it proved.
    pub proven_lower_bound: Option<u64>,
    pub file_bytes: u64,
}

impl Summary {
    /// The summary of a tree on `board` with header `meta`, first guess `first`,
    /// whose file is `file_bytes` long.
    pub fn new(board: Board, meta: &Meta, first: Code, file_bytes: u64) -> Summary {
        let stats: &Stats = &meta.stats;
        let strategy = &meta.strategy;
        Summary {
            board: board.name().to_string(),
            pegs: board.pegs(),
            colors: board.colors(),
            repeat: board.repeat(),
            codes: board.code_count(),
            strategy: strategy.name.clone(),
            first_guess: board.display(first).to_string(),
            secrets: stats.secrets,
            nodes: stats.nodes,
            max_guesses: stats.max_guesses,
            total_guesses: stats.total_guesses,
            average_guesses: stats.average(),
            histogram: stats.histogram.clone(),
            proven: strategy.proven,
            proof: strategy.proof(stats),
            proven_lower_bound: strategy.settings().proven_lower_bound,
            file_bytes,
        }
    }
}

/// The text report's lines: board, strategy, first guess, secrets, nodes, worst
/// case, total, histogram, and for exact searches what is proven.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "board        {} ({} codes)", self.board, self.codes)?;
        writeln!(f, "strategy     {}", self.strategy)?;
        writeln!(f, "first guess  {}", self.first_guess)?;
        writeln!(f, "secrets      {}", self.secrets)?;
        writeln!(f, "nodes        {}", self.nodes)?;
        let stats = super::meta::stats_lines(
            self.max_guesses,
            self.total_guesses,
            self.average_guesses,
            &self.histogram,
        );
        f.write_str(&stats)?;
        if let Some(proof) = &self.proof {
            write!(f, "\nproven       {proof}")?;
        }
        Ok(())
    }
}
