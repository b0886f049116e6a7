//! What a run will take, said before it starts: time and peak memory from the
//! board, the strategy and this machine's measured scoring rate, with the range the
//! figure can be off by.
//!
//! The model, fitted to runs of every one-step rule on ten boards from 4x6 to 6x8
//! (checked against measured runs by `tests/tests/estimate.rs`; the errors are in
//! BENCHMARKS.md):
//! - a rule's complete tree scores about `k * N^2` guess-secret pairs for `N` codes
//!   (`k` per rule: what is left after its early exits and symmetry; measured from
//!   0.10 to 0.25 for Knuth's rule, 0.04 to 0.12 for most-parts, so the range is a
//!   factor of 2 each way);
//! - it makes about `1.06 * N` nodes, and each costs about 1500 scorings' worth of
//!   work besides (gathering its secrets, its symmetry classes, building; 200 for
//!   the consistent rule, which scores no guesses);
//! - the scorings spread over the threads; a scoring in a tree costs
//!   [`IN_A_TREE`] times what [`scoring_nanos`] measures on this machine just
//!   before (its loop runs in the cache, with no early exits; on one thread 6x7
//!   and 6x8 Knuth took 3.0 and 3.5 ns a scoring where it measured 1.23 and 1.26);
//! - the peak memory is about 5 MiB plus 170 bytes a node; an exact search adds
//!   5 MiB and 64 bytes a code, its floor memo (under 24 MiB), and its cache, which fills as far as it needs, up
//!   to `--cache-mib`. Without the cache, that is what a proof needs at the least:
//!   every fact in the cache is a proof in itself, so a smaller cache costs time
//!   (facts dropped are proven again), never the result (`tests/tests/estimate.rs`
//!   runs a proof in a 2 MiB cache and checks its measured peak against
//!   [`Estimate::at_most`]).
//!
//! An exact search's time cannot be told in advance (4x6 takes 0.03 s, 5x6 nine
//! minutes, 5x7 is unproven after hours): it is bounded only by `--time-limit`.

use crate::codes::Codes;
use lookup::format::StrategyKind;
use lookup::Board;
use std::time::{Duration, Instant};

/// How far the time can be off, each way (see the module docs).
pub const TIME_RANGE: f64 = 2.0;

/// The same for memory: the bytes a node takes vary less.
pub const MEMORY_RANGE: f64 = 1.5;

/// What the estimate is of.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub board: Board,
    pub strategy: StrategyKind,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Complete trees built one after another (`--first best`: one per class of
    /// first guesses).
    pub trees: usize,
    /// `--exact-below`: exact searches inside a rule's tree (their time is unknown).
    pub exact_below: bool,
    /// `--rollout-above`: a subtree built for each guess tried at the big nodes
    /// (how many, the model does not know).
    pub rollout: bool,
    /// `--time-limit` in seconds, with the margin past it a run may take.
    pub time_limit: Option<(f64, Duration)>,
    /// The exact search's cache, at most.
    pub cache_bytes: u64,
    /// The exact search saves checkpoints.
    pub saves: bool,
}

/// Expected time and peak memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Guess-secret pairs the run scores: expected, and the range; `None` when no
    /// model covers the run (an exact search). Unlike the seconds, this does not
    /// depend on the machine or its load, so it is what a test can hold a run to.
    pub scorings: Option<Range>,
    /// Seconds: expected, and the range; `None` when no model covers the run (an
    /// exact search).
    pub seconds: Option<Range>,
    /// A bound on the seconds from `--time-limit`.
    pub at_most_seconds: Option<f64>,
    /// Peak memory in bytes besides an exact search's cache: expected, and the
    /// range. For a proof, what it needs at the least.
    pub memory: Range,
    /// The most an exact search's cache takes as it fills (0 without a search).
    pub cache: f64,
    /// What a checkpoint's save holds at once besides: one shard of the cache,
    /// laid out (a fact takes fewer bytes there than in the cache), the most a
    /// shard holds being its share of the cache (0 without checkpoints). A 6x5
    /// proof with a 6 GiB cache peaked 31.8 MiB above it, saves of 3.4 GB made.
    pub save_buffer: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub low: f64,
    pub expected: f64,
    pub high: f64,
}

impl Range {
    fn around(expected: f64, factor: f64) -> Range {
        Range {
            low: expected / factor,
            expected,
            high: expected * factor,
        }
    }
}

/// Pairs scored per `N^2`, and each node's own work in scorings, by rule: a rule
/// that scores guesses also finds each node's symmetry classes; one that scores
/// none (consistent: the smallest code still possible) only splits the node.
fn work_per_rule(strategy: StrategyKind) -> (f64, f64) {
    match strategy {
        StrategyKind::Knuth | StrategyKind::ExpectedSize => (0.15, 1500.0),
        StrategyKind::Entropy => (0.14, 1500.0),
        StrategyKind::MostParts => (0.06, 1500.0),
        // The exact search's fallback rule, for the part that can be modelled.
        StrategyKind::Optimal => (0.06, 1500.0),
        StrategyKind::Consistent | StrategyKind::Imported => (0.0, 200.0),
    }
}

/// Nodes per code of the board.
const NODES_PER_CODE: f64 = 1.06;

/// What a scoring costs in a tree, in scorings of [`scoring_nanos`]'s loop.
pub const IN_A_TREE: f64 = 2.6;

/// Memory before the tree, and per node.
const BASE_BYTES: f64 = 5.0 * 1024.0 * 1024.0;
const BYTES_PER_NODE: f64 = 170.0;
/// What an exact search holds besides its cache: a few MiB of tables and threads,
/// and per code of the board its candidates at each depth of the searches in
/// progress. Measured with a 1 MiB cache on one thread, 4x8 peaked at 11.9 MB and
/// 5x5 at 10.3 MB, up to 2 MB over the tree's model alone.
const SEARCH_BASE_BYTES: f64 = 5.0 * 1024.0 * 1024.0;
const SEARCH_BYTES_PER_CODE: f64 = 64.0;

/// The estimate for `run`, when a scoring takes `nanos` nanoseconds on one thread.
pub fn estimate(run: &Run, nanos: f64) -> Estimate {
    let n = run.board.code_count() as f64;
    let nodes = NODES_PER_CODE * n;
    let (per_square, per_node) = work_per_rule(run.strategy);
    let pairs = per_square * n * n;
    let scorings = pairs + per_node * nodes;
    let one_tree = scorings * IN_A_TREE * nanos * 1e-9 / run.threads.max(1) as f64;
    let modelled = run.strategy != StrategyKind::Optimal && !run.exact_below && !run.rollout;
    let trees = run.trees.max(1) as f64;
    let seconds = modelled.then(|| Range::around(one_tree * trees, TIME_RANGE));
    let scorings = modelled.then(|| Range::around(pairs * trees, TIME_RANGE));
    let searches = run.strategy == StrategyKind::Optimal || run.exact_below;
    let (cache, search) = match searches {
        true => (
            run.cache_bytes as f64,
            SEARCH_BASE_BYTES
                + SEARCH_BYTES_PER_CODE * n
                + crate::exact::memo_bytes(n as usize) as f64,
        ),
        false => (0.0, 0.0),
    };
    let memory = Range::around(BASE_BYTES + BYTES_PER_NODE * nodes + search, MEMORY_RANGE);
    let at_most_seconds = run
        .time_limit
        .map(|(limit, margin)| limit + margin.as_secs_f64());
    let save_buffer = match searches && run.saves {
        true => cache / crate::exact::SHARDS as f64,
        false => 0.0,
    };
    Estimate {
        scorings,
        seconds,
        at_most_seconds,
        memory,
        cache,
        save_buffer,
    }
}

/// Nanoseconds one thread takes to score a guess against a secret on this machine
/// now: the search's own loop, timed for about `budget`, on a board with the pegs
/// of `board` and at most 4096 codes (so that a board of billions of codes is
/// estimated without listing them). The budget is cut into ten slices and the
/// fastest slice counts: another process on the same cores slows some slices,
/// rarely all of them, so a busy machine does not make the estimate a few times
/// too long (a run shares the cores the same way, but the load of one moment says
/// little about the hours that follow).
pub fn scoring_nanos(board: Board, budget: Duration) -> f64 {
    let smaller = (2..=board.colors())
        .rev()
        .filter_map(|c| Board::new(board.pegs() as u32, c as u32, board.repeat()).ok())
        .find(|b| b.code_count() <= 4096);
    let codes = Codes::new(smaller.unwrap_or(board));
    let sample: Vec<u32> = (0..codes.len()).collect();
    let secrets = codes.gather(&sample);
    let mut classes = [0; crate::codes::CLASS_SLOTS];
    let mut guess = 0;
    let slice = budget / 10;
    (0..10)
        .map(|_| {
            let mut work = 0u64;
            let started = Instant::now();
            while started.elapsed() < slice || work == 0 {
                codes.count_every(codes.guess(guess), &secrets, &mut classes, &mut work);
                guess = (guess + 7919) % codes.len();
            }
            started.elapsed().as_secs_f64() * 1e9 / work as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The classes of first guesses under the board's symmetry (colour and peg
/// permutations): one per way of splitting the pegs among colours, a partition of
/// the pegs into at most `colors` parts (parts of 1 when colours may not repeat).
/// `--first best` builds a tree for each.
pub fn first_guess_classes(board: Board) -> usize {
    /// Partitions of `n` into at most `parts` parts, each at most `largest`.
    fn partitions(n: usize, parts: usize, largest: usize) -> usize {
        if n == 0 {
            return 1;
        }
        if parts == 0 {
            return 0;
        }
        (1..=largest.min(n))
            .map(|first| partitions(n - first, parts - 1, first))
            .sum()
    }
    let largest = if board.repeat() { board.pegs() } else { 1 };
    partitions(board.pegs(), board.colors(), largest)
}

/// A duration for people: "0.4 s", "3 min", "2.5 h", "4 days".
pub fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 60.0 => significant(s, "s"),
        s if s < 3600.0 => significant(s / 60.0, "min"),
        s if s < 2.0 * 86400.0 => significant(s / 3600.0, "h"),
        s => significant(s / 86400.0, "days"),
    }
}

/// Bytes for people: "12 MiB", "2.9 GiB".
pub fn bytes_text(bytes: f64) -> String {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    if bytes >= GIB {
        significant(bytes / GIB, "GiB")
    } else {
        significant(bytes / (1024.0 * 1024.0), "MiB")
    }
}

/// `value` to two significant digits (whole numbers from 10 up), with its unit.
fn significant(value: f64, unit: &str) -> String {
    if value >= 10.0 {
        format!("{value:.0} {unit}")
    } else if value >= 1.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.2} {unit}")
    }
}

impl Estimate {
    /// The most memory the run takes: the high end of the range, a full cache
    /// and a checkpoint's save.
    pub fn at_most(&self) -> f64 {
        self.memory.high + self.cache + self.save_buffer
    }

    /// One line: "about 9.1 h (4.6 h to 18 h), and about 2.9 GiB of memory (1.9
    /// GiB to 4.3 GiB)"; an exact search's says what it needs at the least and
    /// what its cache may add.
    pub fn describe(&self) -> String {
        let time = match (self.seconds, self.at_most_seconds) {
            (Some(s), limit) => {
                let mut text = format!(
                    "about {} ({} to {})",
                    duration_text(s.expected),
                    duration_text(s.low),
                    duration_text(s.high)
                );
                if let Some(limit) = limit.filter(|&l| l < s.high) {
                    text += &format!(", at most {} (--time-limit)", duration_text(limit));
                }
                text
            }
            (None, Some(limit)) => format!(
                "at most {} (--time-limit; an exact search's time cannot be told in advance)",
                duration_text(limit)
            ),
            (None, None) => {
                "a time that cannot be told in advance (an exact search; --time-limit bounds it)"
                    .into()
            }
        };
        let memory = format!(
            "{} of memory ({} to {})",
            bytes_text(self.memory.expected),
            bytes_text(self.memory.low),
            bytes_text(self.memory.high)
        );
        let saves = match self.save_buffer > 0.0 {
            true => format!(" and a save lays out {}", bytes_text(self.save_buffer)),
            false => String::new(),
        };
        match self.cache > 0.0 {
            false => format!("{time}, and about {memory}"),
            true => format!(
                "{time}, and at least {memory}, up to {} as its cache of {} fills{saves} (--cache-mib: a smaller cache costs time, never the result)",
                bytes_text(self.at_most()),
                bytes_text(self.cache)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(board: Board, strategy: StrategyKind) -> Run {
        Run {
            board,
            strategy,
            threads: 1,
            trees: 1,
            exact_below: false,
            rollout: false,
            time_limit: None,
            cache_bytes: 2048 << 20,
            saves: false,
        }
    }

    #[test]
    fn the_model_grows_with_the_square_of_the_codes_and_shrinks_with_threads() {
        let small = estimate(
            &run(Board::new(4, 6, true).unwrap(), StrategyKind::Knuth),
            2.0,
        );
        let big = estimate(
            &run(Board::new(6, 8, true).unwrap(), StrategyKind::Knuth),
            2.0,
        );
        let (s, b) = (small.seconds.unwrap(), big.seconds.unwrap());
        // 4x6 to 6x8: 202 times the codes, between 202 and 202^2 times the time.
        let ratio = b.expected / s.expected;
        assert!((202.0..40_804.0).contains(&ratio), "{ratio}");
        assert_eq!(s.high / s.expected, TIME_RANGE);
        let mut two = run(Board::new(6, 8, true).unwrap(), StrategyKind::Knuth);
        two.threads = 2;
        let halved = estimate(&two, 2.0).seconds.unwrap().expected;
        assert!((halved * 2.0 - b.expected).abs() < 1e-9);
        // 6x8 Knuth measured 6.66e9 scorings and 51 MiB at its peak.
        let scorings = b.expected / (IN_A_TREE * 2e-9);
        assert!((3e9..1.4e10).contains(&scorings), "{scorings}");
        let mib = big.memory.expected / (1 << 20) as f64;
        assert!((30.0..80.0).contains(&mib), "{mib}");
    }

    #[test]
    fn an_exact_search_has_no_time_but_its_limit_and_its_cache_in_memory() {
        let board = Board::new(5, 7, true).unwrap();
        let mut exact = run(board, StrategyKind::Optimal);
        let open = estimate(&exact, 2.0);
        assert_eq!(open.seconds, None);
        assert_eq!(open.cache, (2048u64 << 20) as f64);
        assert!(open.memory.high < (64u64 << 20) as f64);
        assert_eq!(open.at_most(), open.memory.high + open.cache);
        let said = open.describe();
        assert!(said.contains("cannot be told in advance"), "{said}");
        let least = format!(
            "and at least {} of memory",
            bytes_text(open.memory.expected)
        );
        assert!(said.contains(&least), "{said}");
        assert!(said.contains("as its cache of 2.0 GiB fills"), "{said}");
        // With checkpoints, a save lays out a shard of the cache at a time.
        exact.saves = true;
        let saving = estimate(&exact, 2.0);
        assert_eq!(saving.save_buffer, (8u64 << 20) as f64);
        assert_eq!(saving.at_most(), open.at_most() + (8u64 << 20) as f64);
        let said = saving.describe();
        assert!(said.contains("fills and a save lays out 8.0 MiB"), "{said}");
        exact.saves = false;
        exact.time_limit = Some((60.0, Duration::from_secs(6)));
        let bounded = estimate(&exact, 2.0);
        assert_eq!(bounded.at_most_seconds, Some(66.0));
        assert!(
            bounded.describe().starts_with("at most 1.1 min"),
            "{}",
            bounded.describe()
        );
    }

    #[test]
    fn durations_and_sizes_read_as_people_write_them() {
        assert_eq!(duration_text(0.25), "0.25 s");
        assert_eq!(duration_text(42.0), "42 s");
        assert_eq!(duration_text(150.0), "2.5 min");
        assert_eq!(duration_text(9.1 * 3600.0), "9.1 h");
        assert_eq!(duration_text(5.0 * 86400.0), "5.0 days");
        assert_eq!(bytes_text(12.0 * 1024.0 * 1024.0), "12 MiB");
        assert_eq!(bytes_text(2.9 * 1024.0 * 1024.0 * 1024.0), "2.9 GiB");
    }

    #[test]
    fn the_scoring_rate_is_measured_even_on_a_board_too_big_to_list() {
        let nanos = scoring_nanos(Board::new(4, 6, true).unwrap(), Duration::from_millis(5));
        assert!(nanos > 0.0 && nanos < 1000.0, "{nanos}");
        let huge = Board::new(8, 8, true).unwrap();
        let nanos = scoring_nanos(huge, Duration::from_millis(5));
        assert!(nanos > 0.0 && nanos < 1000.0, "{nanos}");
    }

    #[test]
    fn first_guess_classes_are_the_symmetry_classes_first_best_tries() {
        for (pegs, colors, repeat) in [
            (4, 6, true),
            (5, 3, true),
            (3, 8, true),
            (4, 10, false),
            (5, 5, true),
        ] {
            let board = Board::new(pegs, colors, repeat).unwrap();
            let codes = Codes::new(board);
            let tried = crate::first_best::first_guesses(&codes).len();
            assert_eq!(
                first_guess_classes(board),
                tried,
                "{pegs}x{colors} {repeat}"
            );
        }
    }
}
