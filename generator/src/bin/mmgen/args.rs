//! Arguments shared by `mmgen` and `mmgen compare`, and their translation into the
//! library's board, options and settings.

use generator::strategy::{CacheSettings, Options, DEFAULT_CACHE_MIB};
use generator::Settings;
use lookup::format::StrategyKind;
use lookup::Board;
use std::time::{Duration, Instant};

/// Which board.
#[derive(clap::Args)]
pub struct BoardArgs {
    /// Pegs per code (1-8).
    #[arg(long, default_value_t = 4, value_parser = lookup::cli::pegs)]
    pub pegs: u32,
    /// Colours (2-16).
    #[arg(long, default_value_t = 6, value_parser = lookup::cli::colors)]
    pub colors: u32,
    /// Forbid repeated colours (Bulls and Cows: --pegs 4 --colors 10 --no-repeat).
    #[arg(long)]
    pub no_repeat: bool,
}

impl BoardArgs {
    pub fn board(&self) -> Result<Board, String> {
        Board::new(self.pegs, self.colors, !self.no_repeat).map_err(|e| e.to_string())
    }
}

/// What the exact search minimises.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Objective {
    /// The number of guesses summed over all secrets.
    Total,
    /// The worst case first, then the total with that worst case.
    Worst,
}

/// How to search.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Guess only codes that are still possible.
    #[arg(long)]
    pub consistent_only: bool,
    /// Force the first guess (in the board's notation); or `best`: a rule builds its
    /// tree after one first guess of each symmetry class and keeps the best (the
    /// least total, or with --objective worst the least worst case, then the total).
    #[arg(long, value_name = "CODE|best")]
    pub first: Option<String>,
    /// optimal: no secret may need more guesses than this.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// optimal, --first best: what to minimise (default: total).
    #[arg(long, value_enum)]
    pub objective: Option<Objective>,
    /// optimal: stop searching after this many seconds; the tree is the cheapest the
    /// search found (a heuristic finishes what it did not), or the best heuristic's
    /// if that is better. The header then says not proven, with the least total
    /// the search proved.
    #[arg(long, value_name = "SECONDS", value_parser = lookup::cli::seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// optimal: keep what the search proves in DIR/checkpoint.mmc, saved every
    /// --checkpoint-every seconds and at the end; a rerun with the same board
    /// resumes from it (a damaged or foreign checkpoint is refused).
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// optimal: write the proof's certificate to FILE: the facts from which a
    /// checker that shares no code with the search (mmcheck) re-derives the
    /// optimum (docs/certificate.md). Written beside FILE and renamed once the
    /// proof is done; the search then runs on one thread, so that its facts come in
    /// one order and the certificate is the same bytes on every run.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<std::path::PathBuf>,
    /// optimal: seconds between checkpoints (default 60).
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", value_parser = lookup::cli::period, allow_negative_numbers = true)]
    pub checkpoint_every: Option<f64>,
    /// optimal, --exact-below: memory for what the search has proven, in MiB
    /// (default 2048); when it is full, facts not used lately make room. Changes
    /// the time, not the tree.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub cache_mib: Option<u32>,
    /// optimal, --exact-below: cache sets by their codes instead of their canonical
    /// form under symmetry (slower; a cross-check of the canonical keys: the file is
    /// the same).
    #[arg(long)]
    pub no_canonical_keys: bool,
    /// A rule (knuth, expected-size, entropy, most-parts): at nodes with at most N
    /// secrets, play the exact search's guess (the least total below) instead.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(i64::from(Options::EXACT_BELOW_LEAST)..))]
    pub exact_below: Option<u32>,
    /// A rule: at nodes with more than N secrets, try every guess (one of each
    /// symmetry class) with the rule's own tree below it and play the one whose
    /// subtree costs least (a rollout: never a dearer tree than the rule's; slow,
    /// as it builds a subtree for each guess tried).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(i64::from(Options::ROLLOUT_ABOVE_LEAST)..))]
    pub rollout_above: Option<u32>,
    /// With --rollout-above: weigh only K guesses at a node, the rule's own and
    /// those it scores best after it (ties to the smaller code): K subtrees a node
    /// instead of one per symmetry class of guesses (hundreds on 5x8). Still never
    /// a dearer tree than the rule's.
    #[arg(long, value_name = "K", requires = "rollout_above", value_parser = clap::value_parser!(u32).range(i64::from(Options::ROLLOUT_WIDTH_LEAST)..))]
    pub rollout_width: Option<u32>,
    /// Worker threads, at most 256 (0: one per core). The file is the same for any
    /// count.
    #[arg(long, default_value_t = 0, value_parser = lookup::cli::threads)]
    pub threads: usize,
    /// Score every code at every node instead of one per symmetry class (slower;
    /// the file is the same).
    #[arg(long)]
    pub no_symmetry: bool,
}

impl SearchArgs {
    /// Refuses the options only the exact search uses, for any other strategy, and
    /// combinations that contradict each other.
    pub fn check_applies(&self, strategy: StrategyKind) -> Result<(), String> {
        let exact_only = [
            ("--max-depth", self.max_depth.is_some()),
            // With --first best it ranks the rule's trees.
            (
                "--objective",
                self.objective.is_some() && !self.first_best(),
            ),
            ("--time-limit", self.time_limit.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
            ("--certificate", self.certificate.is_some()),
        ];
        let cache = [
            ("--cache-mib", self.cache_mib.is_some()),
            ("--no-canonical-keys", self.no_canonical_keys),
        ];
        let given = |flags: &[(&'static str, bool)]| flags.iter().find(|(_, g)| *g).map(|f| f.0);
        let name = strategy.name();
        if self.first_best() && strategy == StrategyKind::Optimal {
            return Err(generator::first_best::NOT_FOR_OPTIMAL.into());
        }
        if strategy != StrategyKind::Optimal {
            if let Some(flag) = given(&exact_only) {
                return Err(format!(
                    "{flag} applies only to --strategy optimal (the exact search), not to {name}"
                ));
            }
            if let (Some(flag), None) = (given(&cache), self.exact_below) {
                return Err(format!(
                    "{flag} applies only to --strategy optimal or --exact-below (the exact search), not to {name}"
                ));
            }
        }
        let rules = [
            StrategyKind::Knuth,
            StrategyKind::ExpectedSize,
            StrategyKind::Entropy,
            StrategyKind::MostParts,
        ];
        let for_rules = [
            ("--exact-below", self.exact_below.is_some()),
            ("--rollout-above", self.rollout_above.is_some()),
        ];
        if let (Some(flag), false) = (given(&for_rules), rules.contains(&strategy)) {
            return Err(format!(
                "{flag} applies to the rules (knuth, expected-size, entropy, most-parts), not to {name}"
            ));
        }
        if self.certificate.is_some() && self.first.is_some() {
            return Err(generator::strategy::Proof::NOT_WITH_FIRST.into());
        }
        if self.max_depth.is_some() && self.objective == Some(Objective::Worst) {
            return Err(
                "--max-depth and --objective worst do not go together: the worst objective finds the least depth itself"
                    .into(),
            );
        }
        Ok(())
    }

    /// Whether `--first best` asks for the best first guess of a rule.
    pub fn first_best(&self) -> bool {
        self.first.as_deref() == Some("best")
    }

    /// The strategy options, with the time limit counted from now (with `--first
    /// best`, no first guess is forced: each is, in turn).
    pub fn options(&self, board: Board, strategy: StrategyKind) -> Result<Options, String> {
        let first = match self.first_best() {
            true => None,
            false => first_guess(board, self.first.as_deref())?,
        };
        let deadline = self
            .time_limit
            .map(|s| Instant::now() + Duration::from_secs_f64(s));
        let stop = self
            .time_limit
            .map(|s| Instant::now() + Duration::from_secs_f64(s) + margin_for(board, strategy, s));
        Ok(Options {
            consistent_only: self.consistent_only,
            first,
            max_depth: self.max_depth,
            worst_first: self.objective == Some(Objective::Worst),
            deadline,
            stop,
            exact_below: self.exact_below,
            rollout_above: self.rollout_above,
            rollout_width: self.rollout_width,
            cache: CacheSettings {
                bytes: self.cache_mib.map_or(DEFAULT_CACHE_MIB, |m| m as usize) << 20,
                canonical_keys: !self.no_canonical_keys,
            },
        })
    }

    pub fn settings(&self) -> Settings {
        Settings {
            symmetry: !self.no_symmetry,
        }
    }

    /// The worker threads: one for a certified search (see `certificate`).
    pub fn pool(&self) -> Result<rayon::ThreadPool, String> {
        match self.certificate {
            Some(_) => pool(1),
            None => pool(self.threads),
        }
    }
}

/// The code index of `--first CODE`, if given, in the board's notation.
pub fn first_guess(board: Board, text: Option<&str>) -> Result<Option<u32>, String> {
    let Some(text) = text else { return Ok(None) };
    let code = board
        .parse(text)
        .map_err(|e| format!("--first '{text}': {e}"))?;
    Ok(board.index(code))
}

/// How long past `--time-limit SECONDS` a run may go on to finish a complete tree
/// (the search stops at the limit; what it left is finished by a heuristic, and the
/// heuristics' own trees are built to compare): a tenth of the limit, at least 5 s
/// (5x7's five heuristic trees take about 0.6 s on one core; 1 s left some out on a
/// busy machine). Past it a run with no tree gives up at once, in whatever step it
/// is (`generate::give_up_at`), and writes nothing.
pub fn stop_margin(limit: f64) -> Duration {
    Duration::from_secs_f64((limit / 10.0).max(5.0))
}

/// A scoring's time, faster than any machine's (2.2 ns measured here, 1.2 ns on
/// the fastest core seen): what the least work takes at this rate is a floor.
const FASTEST_SCORING_NS: f64 = 0.5;

/// How long past `--time-limit` a run of `strategy` on `board` may go on:
/// [`stop_margin`], or none when not even the quickest complete tree could be built
/// in it (the model's least work, at [`FASTEST_SCORING_NS`] on every core): a run
/// with no tree at the limit then gives up there (8x8 needs hours for any tree;
/// it ran 25 s past a 3 s limit while a margin was kept for it).
pub fn margin_for(board: Board, strategy: StrategyKind, limit: f64) -> Duration {
    let margin = stop_margin(limit);
    let quickest = match strategy {
        StrategyKind::Consistent => StrategyKind::Consistent,
        // The exact search finishes what it left with a rule like most-parts.
        _ => StrategyKind::MostParts,
    };
    let run = generator::estimate::Run {
        board,
        strategy: quickest,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        trees: 1,
        exact_below: false,
        rollout: false,
        time_limit: None,
        cache_bytes: 0,
        saves: false,
    };
    let least = generator::estimate::estimate(&run, FASTEST_SCORING_NS).seconds;
    match least.is_some_and(|s| s.low > margin.as_secs_f64()) {
        true => Duration::ZERO,
        false => margin,
    }
}

/// A pool of `threads` workers (0: one per core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Peak resident memory of this process in bytes, where the OS reports it.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
