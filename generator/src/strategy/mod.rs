//! The rules that choose a guess for a set of still-possible secrets.
//!
//! A strategy is a pure function of the node (candidates and history): the tree
//! builder calls it at every node, in parallel, and the file must not depend on the
//! order of those calls. Each strategy records in the file header what it optimises,
//! how it breaks ties and its options.
//!
//! The heuristics differ only in how they score the answer classes a guess makes;
//! each file holds one such [`Scoring`], and [`Heuristic`] plays the best-scoring guess
//! with the search of [`heuristic`]. `consistent` needs no scoring at all.

mod consistent;
mod convex_sum;
mod entropy;
pub mod heuristic;
mod knuth;
mod most_parts;
mod optimal;
mod rollout;

pub(crate) use optimal::Optimal;

use crate::codes::Codes;
pub use crate::exact::{CacheSettings, Proof, Solved, Standing, Written, DEFAULT_CACHE_MIB};
use crate::exact::{Exact, UNLIMITED};
use crate::{Counters, Node, Settings};
use heuristic::{best_guess, Scoring};
use lookup::format::{Param, StrategyInfo, StrategyKind};
use lookup::Board;
use std::fs::File;

/// What a strategy without checkpoints says when asked for one.
const NO_CHECKPOINTS: &str = "only the exact search (--strategy optimal) keeps checkpoints";

/// A rule for the next guess.
pub trait Strategy: Send + Sync {
    /// What goes into the file header, once the tree is built.
    fn info(&self, codes: &Codes) -> StrategyInfo;

    /// Run once before the tree is expanded: whether every option can be met.
    fn check(
        &self,
        _codes: &Codes,
        _settings: Settings,
        _counters: &Counters,
    ) -> Result<(), Unmet> {
        Ok(())
    }

    /// The most guesses the tree may use for any secret, if the strategy promises a
    /// bound; a tree that exceeds it is not written.
    fn max_depth(&self) -> Option<u32> {
        None
    }

    /// The code index to guess at `node` (sorted candidates, at least two). The
    /// guess must make progress: win, or split the candidates into several classes.
    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32;

    /// Positions an exact search has searched so far, for strategies that search.
    fn searched(&self) -> Option<u64> {
        None
    }

    /// For an exact search: the least total of a complete tree found so far and
    /// the least total it has proven, for progress.
    fn standing(&self, _codes: &Codes) -> Option<Standing> {
        None
    }

    /// For an exact search that finished: the total it proved for the whole
    /// board, which the tree built must have.
    fn proven_total(&self, _codes: &Codes) -> Option<u64> {
        None
    }

    /// Whether the strategy keeps what it proved as checkpoints (the exact search).
    fn keeps_checkpoints(&self) -> bool {
        false
    }

    /// Writes what a search has proven so far, as a checkpoint, to `file`.
    fn save_checkpoint(&self, _file: &File) -> Result<crate::exact::Checkpoint, String> {
        Err(NO_CHECKPOINTS.into())
    }

    /// Loads the checkpoint of an earlier run from `file`; the number of proven
    /// sets it held.
    fn resume(&self, _file: &File) -> Result<usize, String> {
        Err(NO_CHECKPOINTS.into())
    }

    /// Writes what the search proves into `proof` (docs/certificate.md); gives it
    /// back for strategies that prove nothing.
    fn prove_into(&self, proof: Proof) -> Result<(), Proof> {
        Err(proof)
    }

    /// The certificate written so far, which the search stops writing.
    fn take_proof(&self) -> Option<Proof> {
        None
    }
}

/// Options that no tree can meet, or that could not be met in the time given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unmet {
    /// The exact search proved that no strategy (with the forced first guess
    /// `first`, if any) solves every secret within `asked` guesses; `least` is the
    /// least worst case it proved, `None` if time ran out before it found one.
    Depth {
        asked: u32,
        least: Option<u32>,
        first: Option<String>,
    },
    /// Time ran out before the search could tell whether `asked` guesses suffice.
    DepthUndecided { asked: u32 },
    /// Time ran out, and the tree finished by the heuristic needs `needs` guesses.
    DepthExceeded { asked: u32, needs: u32 },
    /// The run's time (`Counters::stop`) ran out before a complete tree was built.
    Stopped,
    /// The tree built does not total what the search proved: a fault, caught
    /// before a file says "proven" of it.
    Unlike { built: u64, proven: u64 },
}

impl std::fmt::Display for Unmet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unmet::Depth {
                asked,
                least,
                first,
            } => {
                let with = first
                    .as_ref()
                    .map(|g| format!(" that starts with {g}"))
                    .unwrap_or_default();
                write!(
                    f,
                    "no strategy{with} solves every secret within {asked} guesses \
                     (--max-depth {asked}), proven by the exact search; "
                )?;
                match least {
                    Some(least) => write!(f, "the least worst case{with} is {least}")?,
                    None => f.write_str("the time limit ran out before it found the least")?,
                }
                f.write_str("; no file written")
            }
            Unmet::DepthUndecided { asked } => write!(
                f,
                "the time limit ran out before the exact search could tell whether every secret \
                 can be solved within {asked} guesses; no file written"
            ),
            Unmet::DepthExceeded { asked, needs } => write!(
                f,
                "the time limit ran out and the tree finished without the search needs {needs} \
                 guesses, more than --max-depth {asked}; no file written"
            ),
            Unmet::Stopped => write!(
                f,
                "the time limit ran out before any complete tree was built; no file written \
                 (give more time, or a smaller board)"
            ),
            Unmet::Unlike { built, proven } => write!(
                f,
                "the tree built totals {built} guesses where the search proved {proven}: a fault \
                 in mmgen (or in the checkpoint it resumed from); no file written"
            ),
        }
    }
}

impl std::error::Error for Unmet {}

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
    /// The whole run gives up at this time (the trees a run builds after its search
    /// to compare with it, [`crate::best_known`], check it too).
    pub stop: Option<std::time::Instant>,
    /// Exact search: how it keeps what it proved (the work, never the tree).
    pub cache: CacheSettings,
    /// Rules: nodes with at most this many secrets get the exact search's guess
    /// (the least total below them) instead of the rule's.
    pub exact_below: Option<u32>,
    /// Rules: nodes with more than this many secrets play the guess whose
    /// subtree, with the rule below it, costs least (module `rollout`).
    pub rollout_above: Option<u32>,
    /// Rules with a rollout: weigh only this many guesses at a node, the rule's
    /// own and those it scores best after it.
    pub rollout_width: Option<u32>,
}

impl Options {
    /// The least `exact_below`, `rollout_above` and `rollout_width` taken (mmgen's
    /// and the Python package's limits, one place for both).
    pub const EXACT_BELOW_LEAST: u32 = 3;
    pub const ROLLOUT_ABOVE_LEAST: u32 = 2;
    pub const ROLLOUT_WIDTH_LEAST: u32 = 2;
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
    for param in info.typed_params() {
        match param {
            Param::ConsistentOnly => args.push("--consistent-only".into()),
            Param::First(code) => args.extend(["--first".into(), code]),
            Param::MaxDepth(depth) => args.extend(["--max-depth".into(), depth.to_string()]),
            Param::WorstFirst => args.extend(["--objective".into(), "worst".into()]),
            Param::ExactBelow(n) => args.extend(["--exact-below".into(), n.to_string()]),
            Param::RolloutAbove(n) => args.extend(["--rollout-above".into(), n.to_string()]),
            Param::RolloutWidth(n) => args.extend(["--rollout-width".into(), n.to_string()]),
            // Found by the search, or where an import or a merge came from: not options.
            Param::WorstCase(_)
            | Param::ProvenLowerBound(_)
            | Param::Source(_)
            | Param::SourceStrategy(_)
            | Param::Plan(_) => {}
        }
    }
    args
}

impl Options {
    /// The options that change the tree, as the header records them.
    fn params(&self, board: Board) -> Vec<Param> {
        let mut params = Vec::new();
        if self.consistent_only {
            params.push(Param::ConsistentOnly);
        }
        if let Some(code) = self.first.and_then(|f| board.code(f)) {
            params.push(Param::First(board.display(code).to_string()));
        }
        if let Some(depth) = self.max_depth {
            params.push(Param::MaxDepth(depth));
        }
        if self.worst_first {
            params.push(Param::WorstFirst);
        }
        if let Some(n) = self.exact_below {
            params.push(Param::ExactBelow(n));
        }
        if let Some(n) = self.rollout_above {
            params.push(Param::RolloutAbove(n));
        }
        if let Some(n) = self.rollout_width {
            params.push(Param::RolloutWidth(n));
        }
        params
    }

    /// The header of a strategy of `kind` with these options.
    fn info(&self, kind: StrategyKind, rule: String, board: Board) -> StrategyInfo {
        let mut info = StrategyInfo {
            name: kind.name().into(),
            rule,
            tie_break: self.tie_break(),
            params: Vec::new(),
            proven: None,
        };
        info.set_params(&self.params(board));
        info
    }

    fn tie_break(&self) -> String {
        if self.consistent_only {
            "the smallest code".into()
        } else {
            "a code that is still possible, then the smallest code".into()
        }
    }
}

/// Plays, at every node, the guess its rule scores best; with
/// [`Options::exact_below`], the exact search's at nodes that small.
pub struct Heuristic {
    kind: StrategyKind,
    description: &'static str,
    rule: Box<dyn Scoring>,
    options: Options,
    board: Board,
    /// The search for the small nodes (its cache serves them all).
    exact: Option<Exact>,
}

impl Strategy for Heuristic {
    fn info(&self, _codes: &Codes) -> StrategyInfo {
        let pool = if self.options.consistent_only {
            "guesses from the still-possible codes"
        } else {
            "guesses from all codes"
        };
        let mut rule = format!("{}, {pool}", self.description);
        if let Some(n) = self.options.exact_below {
            rule += &format!("; at nodes of at most {n} secrets, the least total (exact search)");
        }
        if let Some(n) = self.options.rollout_above {
            let among = match self.options.rollout_width {
                Some(k) => format!(" of the {k} it scores best"),
                None => String::new(),
            };
            rule += &format!(
                "; at nodes of more than {n} secrets, the guess{among} whose subtree costs least with this rule below it (rollout)"
            );
        }
        self.options.info(self.kind, rule, self.board)
    }

    fn choose(&self, codes: &Codes, node: &Node, settings: Settings, counters: &Counters) -> u32 {
        if let (Some(first), true) = (self.options.first, node.history.is_empty()) {
            return first;
        }
        let small = self
            .options
            .exact_below
            .is_some_and(|n| node.candidates.len() <= n as usize);
        let exact = self.exact.as_ref().filter(|_| small).and_then(|exact| {
            let context = Optimal::context(codes, settings, counters);
            exact.choose(context, node.candidates, node.history, UNLIMITED)
        });
        match exact {
            Some((_, guess)) => guess,
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

    fn searched(&self) -> Option<u64> {
        let exact = self.exact.as_ref()?;
        Some(exact.nodes.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// The strategy of `kind` with `options` on `board`; `None` for
/// [`StrategyKind::Imported`], which no rule builds.
pub fn by_kind(kind: StrategyKind, options: Options, board: Board) -> Option<Box<dyn Strategy>> {
    Some(match kind {
        StrategyKind::Consistent => Box::new(consistent::Consistent { options, board }),
        StrategyKind::Optimal => Box::new(exact(options, board)),
        StrategyKind::Imported => return None,
        _ => {
            let rule = rule(kind, options, board)?;
            match options.rollout_above {
                Some(above) => Box::new(rollout::Rollout {
                    rule,
                    above,
                    width: options.rollout_width,
                }),
                None => Box::new(rule),
            }
        }
    })
}

/// The rule of `kind` (knuth, expected-size, entropy or most-parts) with
/// `options` on `board`, as it plays at every node, with no rollout; `None` for
/// the other kinds.
fn rule(kind: StrategyKind, options: Options, board: Board) -> Option<Heuristic> {
    let answers = lookup::score::answer_count(board.pegs()) as u64;
    let (description, rule): (&'static str, Box<dyn Scoring>) = match kind {
        StrategyKind::Knuth => (
            "minimise the largest answer class (Knuth 1977)",
            Box::new(knuth::LargestClass),
        ),
        StrategyKind::ExpectedSize => (
            "minimise the sum of squared class sizes, i.e. the expected size of the next candidate set (Irving 1979)",
            Box::new(convex_sum::squares()),
        ),
        StrategyKind::Entropy => (
            "maximise the entropy of the class sizes (Neuwirth 1982), compared exactly in fixed point",
            Box::new(entropy::entropy(board.code_count())),
        ),
        StrategyKind::MostParts => (
            "maximise the number of non-empty answer classes (Kooi 2005)",
            Box::new(most_parts::MostParts { answers }),
        ),
        _ => return None,
    };
    Some(Heuristic {
        kind,
        description,
        rule,
        options,
        board,
        exact: options
            .exact_below
            .map(|_| Exact::new(board, None, options.consistent_only).with_cache(options.cache)),
    })
}

/// The exact search with `options` on `board`.
pub(crate) fn exact(options: Options, board: Board) -> Optimal {
    let fallback = Heuristic {
        kind: StrategyKind::MostParts,
        description: "",
        rule: Box::new(most_parts::MostParts {
            answers: lookup::score::answer_count(board.pegs()) as u64,
        }),
        options: Options {
            first: None,
            exact_below: None,
            rollout_above: None,
            rollout_width: None,
            ..options
        },
        board,
        exact: None,
    };
    Optimal::new(options, board, fallback)
}

/// The strategies a board can be built with, in the order reports list them.
pub fn buildable() -> impl Iterator<Item = StrategyKind> {
    StrategyKind::ALL
        .into_iter()
        .filter(|&k| k != StrategyKind::Imported)
}
