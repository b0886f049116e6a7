//! The rules that choose a guess for a set of still-possible secrets.
//!
//! A strategy is a pure function of the node (candidates and history): the tree
//! builder calls it at every node, in parallel, and the file must not depend on the
//! order of those calls. Each strategy records in the file header what it optimises,
//! how it breaks ties and its options.
//!
//! The heuristics differ only in how they score the answer classes a guess makes;
//! each file holds one such [`Rule`], and [`Heuristic`] plays the best-scoring guess
//! with the search of [`crate::search`]. `consistent` needs no scoring at all.

mod consistent;
mod entropy;
mod expected_size;
mod knuth;
mod most_parts;
mod optimal;
#[cfg(test)]
mod reference;

use crate::partition::Codes;
use crate::search::{best_guess, Counters, Node, Rule, Settings};
use lookup::format::StrategyInfo;
use lookup::Board;

/// A rule for the next guess.
pub trait Strategy: Sync {
    /// What goes into the file header.
    fn info(&self) -> StrategyInfo;

    /// The code index to guess at `node` (sorted candidates, at least two). The
    /// guess must make progress: win, or split the candidates into several classes.
    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32;

    /// Positions an exact search has searched so far, for strategies that search.
    fn searched(&self) -> Option<u64> {
        None
    }
}

/// Options the strategies take; those that change the tree are recorded in the header.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Guess only codes that are still possible.
    pub consistent_only: bool,
    /// Force the first guess (a code index).
    pub first: Option<u32>,
    /// Exact search: no secret may need more guesses than this.
    pub max_depth: Option<u32>,
    /// Exact search: minimise the worst case first, then the total.
    pub worst_first: bool,
    /// Exact search: stop searching at this time and finish with a heuristic.
    pub deadline: Option<std::time::Instant>,
}

/// The `mmgen` arguments that rebuild a tree from its header: the inverse of
/// [`Options`]' parameters, so a shipped file can be checked to be reproducible.
pub fn command_args(board: Board, info: &StrategyInfo) -> Vec<String> {
    let mut args = vec![
        "--pegs".to_string(),
        board.pegs().to_string(),
        "--colors".to_string(),
        board.colors().to_string(),
    ];
    if !board.repeat() {
        args.push("--no-repeat".into());
    }
    args.extend(["--strategy".to_string(), info.name.clone()]);
    for (name, value) in &info.params {
        match name.as_str() {
            "guesses" => args.push("--consistent-only".into()),
            "worst case" => {} // found by the search, not an option
            flag => args.extend([format!("--{flag}"), value.clone()]),
        }
    }
    args
}

impl Options {
    fn params(&self, board: Board) -> Vec<(String, String)> {
        let mut params = Vec::new();
        if self.consistent_only {
            params.push(("guesses".into(), "still-possible codes only".into()));
        }
        if let Some(code) = self.first.and_then(|f| board.code(f)) {
            params.push(("first".into(), board.display(code).to_string()));
        }
        if let Some(depth) = self.max_depth {
            params.push(("max-depth".into(), depth.to_string()));
        }
        if self.worst_first {
            params.push(("objective".into(), "worst".into()));
        }
        params
    }

    fn tie_break(&self) -> String {
        if self.consistent_only {
            "the smallest code".into()
        } else {
            "a code that is still possible, then the smallest code".into()
        }
    }
}

/// Plays, at every node, the guess its rule scores best.
pub struct Heuristic {
    name: &'static str,
    description: &'static str,
    rule: Box<dyn Rule>,
    options: Options,
    board: Board,
}

impl Strategy for Heuristic {
    fn info(&self) -> StrategyInfo {
        let pool = if self.options.consistent_only {
            "guesses from the still-possible codes"
        } else {
            "guesses from all codes"
        };
        StrategyInfo {
            name: self.name.into(),
            rule: format!("{}, {pool}", self.description),
            tie_break: self.options.tie_break(),
            params: self.options.params(self.board),
            proven: None,
        }
    }

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        match self.options.first {
            Some(first) if node.history.is_empty() => first,
            _ => best_guess(
                codes,
                self.rule.as_ref(),
                node,
                settings,
                self.options.consistent_only,
                counters,
            ),
        }
    }
}

/// The strategies `mmgen --strategy` knows, by name.
pub fn by_name(name: &str, options: Options, board: Board) -> Option<Box<dyn Strategy>> {
    let heuristic = |name, description, rule: Box<dyn Rule>| -> Box<dyn Strategy> {
        Box::new(Heuristic {
            name,
            description,
            rule,
            options,
            board,
        })
    };
    Some(match name {
        "knuth" => heuristic(
            "knuth",
            "minimise the largest answer class (Knuth 1977)",
            Box::new(knuth::LargestClass),
        ),
        "expected-size" => heuristic(
            "expected-size",
            "minimise the sum of squared class sizes, i.e. the expected size of the next candidate set (Irving 1979)",
            Box::new(expected_size::SquaredSizes),
        ),
        "entropy" => heuristic(
            "entropy",
            "maximise the entropy of the class sizes (Neuwirth 1982), compared exactly in fixed point",
            Box::new(entropy::Entropy::new(board.code_count())),
        ),
        "most-parts" => heuristic(
            "most-parts",
            "maximise the number of non-empty answer classes (Kooi 2005)",
            Box::new(most_parts::MostParts),
        ),
        "consistent" => Box::new(consistent::Consistent { options, board }),
        "optimal" => {
            let fallback = Heuristic {
                name: "most-parts",
                description: "",
                rule: Box::new(most_parts::MostParts),
                options: Options { first: None, ..options },
                board,
            };
            Box::new(optimal::Optimal::new(options, board, fallback))
        }
        _ => return None,
    })
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &[
    "knuth",
    "expected-size",
    "entropy",
    "most-parts",
    "consistent",
    "optimal",
];
