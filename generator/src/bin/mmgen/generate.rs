//! `mmgen [OPTIONS] --out FILE`: build one tree, write it atomically, report it.

use crate::args::{margin_for, peak_memory, BoardArgs, SearchArgs};
use generator::best_known::best_known;
use generator::checkpoint::{self, every, Done};
use generator::codes::Codes;
use generator::estimate::{self, Estimate};
use generator::first_best::{best_first, Tried};
use generator::output::{check_target, write_tree_file};
use generator::strategy::{self, Standing, Strategy, Unmet};
use generator::strategy::{Proof, Written, DEFAULT_CACHE_MIB};
use generator::Counters;
use generator::{generate_on, Generated};
use indicatif::{ProgressBar, ProgressStyle};
use lookup::cli::{Failure, Outcome};
use lookup::format::StrategyKind;
use lookup::format::Summary;
use lookup::Board;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How progress is shown (see `Args::progress`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Progress {
    Auto,
    Always,
    Never,
}

/// Build the complete strategy tree for a board and write it to FILE.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The rule that picks each guess.
    #[arg(long, value_enum, default_value_t = StrategyKind::Knuth)]
    strategy: StrategyKind,
    #[command(flatten)]
    search: SearchArgs,
    /// Where to write the tree (written to a temporary name, then renamed; through a
    /// link, its target is replaced; a device or fifo is written in place).
    #[arg(long, value_name = "FILE", required_unless_present = "estimate")]
    out: Option<PathBuf>,
    /// Replace FILE even if it exists and is not a tree file; and start even when the
    /// estimate says the run needs more memory than this machine has available.
    #[arg(long)]
    force: bool,
    /// Say what the run would take (time and peak memory, with their range, from a
    /// scoring rate measured now) and do not run it. A run expected to take over a
    /// minute or 1 GiB says the same on stderr as it starts.
    #[arg(long, conflicts_with = "out")]
    estimate: bool,
    /// How the run shows its progress on stderr: auto, a bar on a terminal and a
    /// line every --log-every seconds otherwise; always, those lines even on a
    /// terminal; never, nothing.
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    progress: Progress,
    /// Seconds between progress lines (default: --checkpoint-every, or 60).
    #[arg(long, value_name = "SECONDS", value_parser = lookup::cli::period)]
    log_every: Option<f64>,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Outcome {
    let board = args.board.board()?;
    // Options that do not fit the strategy or each other: a usage error, as clap's.
    (args.search.check_applies(args.strategy))
        .map_err(|e| Failure::Usage(format!("{e} (see mmgen --help)")))?;
    let pool = args.search.pool()?;
    if args.estimate {
        return print_estimate(args, board, pool.current_num_threads());
    }
    let out = args.out.as_ref().ok_or("--out FILE is required")?;
    check_target(out, args.force).map_err(|e| e.to_string())?;
    // The time limit counts from here, setting up the board's codes included.
    let mut options = args.search.options(board, args.strategy)?;
    let built = Arc::new(AtomicBool::new(false));
    if let Some(stop) = options.stop {
        give_up_at(stop, Arc::clone(&built), args.search.certificate.clone());
    }
    if let Some(bytes) = look_ahead(args, board, pool.current_num_threads())? {
        options.cache.bytes = bytes;
    }
    let codes = Codes::new(board);
    let strategy = strategy::by_kind(args.strategy, options, board).ok_or("unknown strategy")?;
    if let Some(target) = &args.search.certificate {
        let path = generator::output::certificate_target(target, args.force, &Proof::MAGIC)
            .map_err(|e| e.to_string())?;
        let proof = start_certificate(args, &path, board, options.consistent_only)?;
        if let Err(proof) = strategy.prove_into(proof) {
            proof.abandon();
            return Err("--certificate applies only to --strategy optimal".into());
        }
    }
    // Loaded by the pool that searches: the allocator keeps an arena per thread,
    // and facts loaded by another thread went back to that thread's arena when
    // the search dropped them, out of the search's reach, so a resumed run took
    // its checkpoint's room on top of its cache (5x6 with --cache-mib 256: 340.7
    // MiB resumed against 257.2 MiB from nothing).
    let resumed = match &args.search.checkpoint {
        Some(dir) => Some(pool.install(|| checkpoint::resume(strategy.as_ref(), dir))?),
        None => None,
    };
    if let Some(resumed) = resumed.filter(|r| r.sets > 0) {
        // A long run's log says at once how far its checkpoint took it, how long
        // loading it took, and where the proof stood (the checkpoint keeps the
        // positions, the cheapest tree found and the floors shown).
        eprintln!("{}", resumed_line(resumed));
        if let Some(standing) = search_lines(&codes, strategy.as_ref()) {
            eprintln!("{standing}");
        }
    }
    let period = Duration::from_secs_f64(args.search.checkpoint_every.unwrap_or(60.0));
    let first_best = args.search.first_best();
    let started = Instant::now();
    // How long the search has taken, with the runs before up to their last save.
    let before = resumed.map_or(0.0, |r| r.seconds);
    let seconds = move || before + started.elapsed().as_secs_f64();
    let counters = Counters {
        stop: generator::Stop::at(options.stop),
        ..Counters::default()
    };
    let done = Done::default();
    let tree = std::thread::scope(|scope| {
        let (codes, counters, strategy, done) = (&codes, &counters, strategy.as_ref(), &done);
        // With --first best, a line per tree instead (below).
        let terminal = std::io::stderr().is_terminal();
        let (bar, log) = match args.progress {
            Progress::Auto => (terminal, !terminal),
            Progress::Always => (false, true),
            Progress::Never => (false, false),
        };
        if bar && !first_best {
            scope.spawn(move || show_progress(codes, counters, strategy, done));
        } else if log && !first_best {
            // A log: a line at a steady pace on where the run stands, so a long run
            // shows its rate (and a proof its gap).
            let start = Instant::now();
            let log_period = args.log_every.map_or(period, Duration::from_secs_f64);
            scope.spawn(move || {
                every(log_period, done, || {
                    let line = log_line(codes, counters, strategy, start.elapsed());
                    eprintln!("{} {line}", clock(start.elapsed()));
                })
            });
        }
        if let Some(dir) = &args.search.checkpoint {
            // The run saves once more at its end; a failed save keeps the previous
            // checkpoint, and the next one may succeed. A log (not a terminal's
            // progress bar) says what each save took.
            let log = !std::io::stderr().is_terminal();
            let start = Instant::now();
            scope.spawn(move || {
                every(period, done, || match checkpoint::save(strategy, dir, seconds()) {
                    Ok(Some(saved)) if log => eprintln!(
                        "{} checkpoint saved: {:.1} MB in {:.2} s; the search paused {:.1} ms at most (the cache was read for {:.2} s)",
                        clock(start.elapsed()),
                        saved.sets_bytes as f64 / 1e6,
                        saved.took.as_secs_f64(),
                        saved.longest_pause.as_secs_f64() * 1e3,
                        saved.locked.as_secs_f64()
                    ),
                    Err(e) if log => {
                        eprintln!("{} checkpoint not saved: {e}", clock(start.elapsed()))
                    }
                    _ => {}
                })
            });
        }
        let settings = args.search.settings();
        let built = pool.install(|| match first_best {
            true => {
                let heard = |t: &Tried, done: usize, firsts: usize| {
                    eprintln!(
                        "first guess {} ({done} of {firsts}): total {}, worst case {}",
                        board.display(codes.code(t.first)),
                        t.total,
                        t.worst
                    );
                };
                best_first(codes, args.strategy, options, settings, counters, heard)
                    .map(|(tree, tried)| (tree, Some(tried)))
            }
            false => generate_on(codes, strategy, settings, counters)
                .map(|tree| (tree, None))
                .map_err(|e| e.to_string()),
        });
        done.set();
        built
    });
    built.store(true, Ordering::SeqCst);
    // A certified checkpoint records where its certificate stands: saved before the
    // certificate is finished.
    if let (Some(dir), Ok(_)) = (&args.search.checkpoint, &tree) {
        checkpoint::save(strategy.as_ref(), dir, seconds())?;
    }
    let certificate = finish_certificate(args, strategy.as_ref(), &tree)?;
    let (tree, tried) = tree?;
    // Out of time: a heuristic's tree may be better than the search's.
    let (tree, searched_total) = match tree.meta.strategy.proven {
        Some(false) => {
            let total = tree.meta.stats.total_guesses;
            let settings = args.search.settings();
            let kept = pool.install(|| best_known(&codes, tree, options, settings));
            (kept, Some(total))
        }
        _ => (tree, None),
    };
    let elapsed = started.elapsed();
    let bytes = write_tree_file(out, &tree, args.force).map_err(|e| e.to_string())?;
    let measured = Measured {
        elapsed,
        bytes,
        scorings: counters.scorings.load(Ordering::Relaxed),
        searched: strategy.searched(),
        searched_total,
        resumed,
        tried,
        certificate,
    };
    // An exact search's cache can hold gigabytes in millions of allocations, and
    // freeing them one by one only delays the exit (measured in BENCHMARKS.md):
    // the process ends next, and the system takes its memory back at once.
    std::mem::forget(strategy);
    print_report(args, out, &tree, &measured).map_err(|e| match e {
        Failure::Io(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Failure::Message(format!(
            "the tree was written to {}, but not its report: cannot write to standard output: {e}",
            out.display()
        )),
        other => other,
    })
}

/// What the run in `args` would take on `threads` threads; the scoring rate is
/// measured for `budget` (none: not measured, when even a slow machine would finish
/// the run in seconds, and `None` is returned for such a short, small run).
fn estimate_of(
    args: &Args,
    board: Board,
    threads: usize,
    budget: Option<Duration>,
) -> Option<(Estimate, f64)> {
    let run = estimate::Run {
        board,
        strategy: args.strategy,
        threads,
        trees: match args.search.first_best() {
            true => estimate::first_guess_classes(board),
            false => 1,
        },
        exact_below: args.search.exact_below.is_some(),
        rollout: args.search.rollout_above.is_some(),
        time_limit: (args.search.time_limit)
            .map(|limit| (limit, margin_for(board, args.strategy, limit))),
        cache_bytes: (args
            .search
            .cache_mib
            .map_or(DEFAULT_CACHE_MIB as u64, u64::from))
            << 20,
        saves: args.search.checkpoint.is_some(),
    };
    let nanos = match budget {
        Some(budget) => estimate::scoring_nanos(board, budget),
        None => {
            // 20 ns a scoring is slower than any machine measured: if even then the
            // run is short and small, it is not worth measuring.
            let slow = estimate::estimate(&run, 20.0);
            let short = slow.seconds.is_some_and(|s| s.expected < 10.0);
            if short && slow.memory.expected < GIB / 2.0 {
                return None;
            }
            // An exact search's time has no model: its estimate (memory, the
            // limit) does not depend on the rate, so it is not measured (50 ms,
            // a third of the classic optimum's whole run).
            if slow.seconds.is_none() {
                return Some((slow, f64::NAN));
            }
            estimate::scoring_nanos(board, Duration::from_millis(50))
        }
    };
    Some((estimate::estimate(&run, nanos), nanos))
}

const GIB: f64 = (1u64 << 30) as f64;

/// A run whose expected memory is beyond what this machine has available is
/// refused, unless --force; else the run's estimate goes to stderr when it is long
/// or big, or an exact search on a board where that can take hours.
///
/// An exact search's cache fills as far as the proof needs, up to its size, and
/// a cache beyond the memory available would end the proof when it fills, hours
/// in. So a search whose full cache does not fit beside the rest is refused when
/// `--cache-mib` asked for that size (unless --force), and otherwise gets a
/// default cache cut to what is available: its size in bytes is returned (a
/// smaller cache costs time, never the result).
fn look_ahead(args: &Args, board: Board, threads: usize) -> Result<Option<usize>, Failure> {
    let Some((estimate, _)) = estimate_of(args, board, threads, None) else {
        return Ok(None);
    };
    let mut cache = None;
    if let Some((available, bound)) = available_memory() {
        let available_text = estimate::bytes_text(available as f64);
        if estimate.memory.expected > available as f64 && !args.force {
            let least = if estimate.cache > 0.0 {
                "at least"
            } else {
                "about"
            };
            return Err(format!(
                "this run needs {least} {} of memory and {bound} {available_text} available: not started (pass --force to start anyway)",
                estimate::bytes_text(estimate.memory.expected),
            )
            .into());
        }
        cache = fit_cache(
            &estimate,
            args.search.cache_mib,
            args.force,
            (available, bound),
        )?;
    }
    // Long: expected over a minute; an exact search with no limit, on a board where
    // it can take hours (5x6, 7776 codes, takes minutes). A run whose limit ends it
    // within a minute says nothing: it builds no more than it has time for.
    let bounded = estimate.at_most_seconds.is_some_and(|s| s <= 60.0);
    let long = match estimate.seconds {
        Some(s) => s.expected > 60.0,
        None => board.code_count() > 5000,
    };
    if !bounded && (long || estimate.memory.expected > GIB) {
        eprintln!("{}", describe(args, board, threads, &estimate));
    }
    Ok(cache)
}

/// The cache of an exact search whose `estimate` says what it needs besides, in
/// the memory `available` (bytes, and what bounds it): `None` where the cache
/// fits when full, or where `asked` (`--cache-mib`) does not fit but `force`
/// starts it anyway; else an error that names the size that fits when the
/// cache size was asked, or the default cut to fit (bytes), with a line that
/// says so.
pub fn fit_cache(
    estimate: &Estimate,
    asked: Option<u32>,
    force: bool,
    (available, bound): (u64, &str),
) -> Result<Option<usize>, Failure> {
    if estimate.at_most() <= available as f64 {
        return Ok(None);
    }
    let available_text = estimate::bytes_text(available as f64);
    let fits = ((available as f64 - estimate.memory.high).max(0.0) as usize >> 20).max(1);
    match asked {
        Some(mib) if !force => Err(format!(
            "this proof's cache of {mib} MiB may fill, and with the {} the search needs besides, {bound} {available_text} available: not started (--cache-mib {fits} fits, a smaller cache costs time, never the result; or pass --force)",
            estimate::bytes_text(estimate.memory.high),
        )
        .into()),
        Some(_) => Ok(None),
        None => {
            eprintln!(
                "mmgen: the search's cache is cut to {fits} MiB from its default {DEFAULT_CACHE_MIB} MiB: {bound} {available_text} available (--cache-mib sets it; a smaller cache costs time, never the result)"
            );
            Ok(Some(fits << 20))
        }
    }
}

/// "estimate: 8x8 knuth on 2 threads: about ..."
fn describe(args: &Args, board: Board, threads: usize, estimate: &Estimate) -> String {
    format!(
        "estimate: {} {} on {}: {}",
        board.name(),
        args.strategy.name(),
        threads_text(threads),
        estimate.describe()
    )
}

fn threads_text(threads: usize) -> String {
    match threads {
        1 => "1 thread".into(),
        n => format!("{n} threads"),
    }
}

/// `mmgen --estimate`: the estimate alone, as a line or JSON.
fn print_estimate(args: &Args, board: Board, threads: usize) -> Outcome {
    let budget = Some(Duration::from_millis(100));
    let (estimate, nanos) = estimate_of(args, board, threads, budget).ok_or("no estimate")?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let range = |r: estimate::Range| serde_json::json!({ "low": r.low, "expected": r.expected, "high": r.high });
        let json = serde_json::json!({
            "board": board.name().to_string(),
            "strategy": args.strategy.name(),
            "threads": threads,
            "seconds": estimate.seconds.map(range),
            "scorings": estimate.scorings.map(range),
            "at_most_seconds": estimate.at_most_seconds,
            "memory_bytes": range(estimate.memory),
            "cache_bytes": estimate.cache,
            "at_most_bytes": estimate.at_most(),
            "scoring_ns": nanos,
            "available_memory_bytes": available_memory().map(|(bytes, _)| bytes),
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "{}", describe(args, board, threads, &estimate))?;
        writeln!(
            out,
            "from a scoring measured at {nanos:.2} ns on one thread now; the model and its errors: BENCHMARKS.md"
        )?;
    }
    Ok(())
}

/// The memory this run may take, and what bounds it: the machine's available
/// memory (Linux's MemAvailable), or less under an address-space limit (`ulimit
/// -v`) or a cgroup's memory limit (cgroup v2, as Slurm and containers set).
pub fn available_memory() -> Option<(u64, &'static str)> {
    let field = |text: &str, name: &str, at: usize| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(at)?.parse().ok()
    };
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut limits = vec![(
        field(&meminfo, "MemAvailable:", 1)? * 1024,
        "this machine has",
    )];
    let process = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let (Some(most), Some(used)) = (
        field(&process, "Max address space", 3),
        field(&status, "VmSize:", 1),
    ) {
        limits.push((
            most.saturating_sub(used * 1024),
            "its address-space limit (ulimit -v) leaves",
        ));
    }
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    if let Some(path) = cgroup.lines().find_map(|l| l.strip_prefix("0::")) {
        let dir = format!("/sys/fs/cgroup{path}");
        let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).ok();
        let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
        if let (Some(most), Some(used)) =
            (number(read("memory.max")), number(read("memory.current")))
        {
            limits.push((
                most.saturating_sub(used),
                "its cgroup's memory limit leaves",
            ));
        }
    }
    limits.into_iter().min()
}

/// Ends the process at `stop` (the time limit and its margin) unless the tree is
/// `built` by then, with the one-line message a limited run ends with and no file:
/// some steps of a big board (setting up 16.7 million codes, scoring one guess
/// against all of them) do not look at the clock, and the limit bounds the whole
/// run. Nothing is being written then (the tree is written after it is built); a
/// certificate's temporary file (not one kept in a checkpoint's folder) is removed.
fn give_up_at(stop: Instant, built: Arc<AtomicBool>, certificate: Option<PathBuf>) {
    std::thread::spawn(move || {
        std::thread::sleep(stop.saturating_duration_since(Instant::now()));
        if built.load(Ordering::SeqCst) {
            return;
        }
        if let Some(target) = certificate {
            let _ = std::fs::remove_file(lookup::replace::temporary(&target));
        }
        eprintln!("mmgen: error: {}", Unmet::Stopped);
        std::process::exit(1);
    });
}

/// The certificate a run writes to `path`: with `--checkpoint DIR`, kept in DIR
/// while the proof runs ([`checkpoint::certificate`]).
fn start_certificate(
    args: &Args,
    path: &std::path::Path,
    board: Board,
    candidates_only: bool,
) -> Result<Proof, String> {
    let cannot =
        |e: std::io::Error| format!("cannot write the certificate {}: {e}", path.display());
    match &args.search.checkpoint {
        None => Proof::create(path, None, board, candidates_only).map_err(cannot),
        Some(dir) => checkpoint::certificate(dir, path, board, candidates_only),
    }
}

/// Finishes the certificate of a run that proved what it claims: the tree it
/// built, or that no tree meets the depth asked (`built`'s error then says so).
/// A run that did not finish its proof (time ran out) writes none and says why.
fn finish_certificate<T>(
    args: &Args,
    strategy: &dyn Strategy,
    built: &Result<(Generated, T), String>,
) -> Result<Option<Written>, Failure> {
    let (Some(target), Some(proof)) = (&args.search.certificate, strategy.take_proof()) else {
        return Ok(None);
    };
    let proven = match built {
        Ok((tree, _)) => tree.meta.strategy.proven == Some(true),
        // A depth no strategy meets is proven before any tree is built.
        Err(e) => e.contains("no strategy"),
    };
    if !proven {
        proof.abandon();
        if built.is_ok() {
            eprintln!(
                "mmgen: no certificate written to {}: the search did not finish its proof",
                target.display()
            );
        }
        return Ok(None);
    }
    let written = proof
        .finish()
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    if built.is_err() {
        eprintln!(
            "mmgen: certificate of that proof: {} ({} facts)",
            target.display(),
            written.facts
        );
    }
    Ok(Some(written))
}

/// What a run measured besides the tree.
struct Measured {
    elapsed: Duration,
    bytes: u64,
    scorings: u64,
    /// Positions the exact search searched, for the optimal strategy.
    searched: Option<u64>,
    /// The total of the tree the search built when its time ran out.
    searched_total: Option<u64>,
    /// What was loaded from a checkpoint, with --checkpoint.
    resumed: Option<checkpoint::Resumed>,
    /// With --first best, each first guess tried and its tree's total and worst case.
    tried: Option<Vec<Tried>>,
    /// With --certificate, what the certificate holds.
    certificate: Option<Written>,
}

/// What a resumed run loaded, in one line.
fn resumed_line(resumed: checkpoint::Resumed) -> String {
    if resumed.sets == 0 {
        return "checkpoint   nothing to resume (a first run)".into();
    }
    format!(
        "checkpoint   resumed {} proven sets ({:.1} MB, loaded in {:.2} s)",
        resumed.sets,
        resumed.bytes as f64 / 1e6,
        resumed.took.as_secs_f64()
    )
}

/// A bar on stderr that follows the secrets placed so far, with the time left as
/// [`generator::progress`] estimates it from the time nodes took, or during an exact
/// search where the proof stands. Waits half a second so quick runs print nothing.
fn show_progress(codes: &Codes, counters: &Counters, strategy: &dyn Strategy, done: &Done) {
    let tick = Duration::from_millis(200);
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    // Where the exact search stands, worked out every few seconds (it scores the
    // first guesses).
    let mut standing = (String::new(), start);
    while !done.wait(tick) {
        if bar.is_none() && start.elapsed() > Duration::from_millis(500) {
            let b = ProgressBar::new(u64::from(codes.board().code_count()));
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} secrets, {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar = Some(b);
        }
        let Some(b) = &bar else { continue };
        let solved = counters.solved.load(Ordering::Relaxed);
        b.set_position(solved);
        let message = if solved == 0 && strategy.searched().is_some() {
            if standing.1 <= Instant::now() {
                standing = (
                    standing_line(strategy, strategy.standing(codes).as_ref()),
                    Instant::now() + Duration::from_secs(2),
                );
            }
            standing.0.clone()
        } else {
            time_left(counters, start.elapsed())
        };
        b.set_message(message);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// Where a run stands: for an exact search, its standing (positions, floor, best
/// total); for a rule, the secrets placed and the time left.
fn log_line(
    codes: &Codes,
    counters: &Counters,
    strategy: &dyn Strategy,
    elapsed: Duration,
) -> String {
    let solved = counters.solved.load(Ordering::Relaxed);
    let placed = placed_words(solved, u64::from(codes.len()));
    match search_lines(codes, strategy) {
        // Secrets are placed once the root's search is done: the tree is built,
        // node by node, which can take long where the cache let facts go.
        Some(lines) if solved > 0 => format!("{lines}\n  the tree: {placed}"),
        Some(lines) => lines,
        None => format!("{placed}; {}", time_left(counters, elapsed)),
    }
}

/// "placed 1200 of 2401 secrets (50.0%)": how far a tree is built.
fn placed_words(solved: u64, all: u64) -> String {
    format!(
        "placed {solved} of {all} secrets ({:.1}%)",
        100.0 * solved as f64 / all.max(1) as f64
    )
}

/// Where an exact search stands, as the log says it: its standing, then each
/// first guess's floor; `None` for a rule.
fn search_lines(codes: &Codes, strategy: &dyn Strategy) -> Option<String> {
    strategy.searched()?;
    let standing = strategy.standing(codes);
    let line = standing_line(strategy, standing.as_ref());
    Some(match standing {
        Some(standing) => {
            let board = codes.board();
            let firsts = firsts_line(board, &standing);
            match solved_line(board, &standing) {
                Some(solved) => format!("{line}\n  {firsts}\n  {solved}"),
                None => format!("{line}\n  {firsts}"),
            }
        }
        None => line,
    })
}

/// The time left, as the bar and the log say it.
fn time_left(counters: &Counters, elapsed: Duration) -> String {
    match counters.progress.time_left(elapsed) {
        Some(left) => format!("about {} left", clock(left)),
        None => "estimating the time left".into(),
    }
}

/// Positions searched, the best total found and the least total proven.
fn standing_line(strategy: &dyn Strategy, standing: Option<&Standing>) -> String {
    let searched = strategy.searched().unwrap_or(0);
    let Some(standing) = standing else {
        return format!("exact search: {searched} positions searched");
    };
    let searched = match standing.earlier {
        0 => format!("{searched} positions searched"),
        _ => format!(
            "{searched} positions searched ({} in all, with the runs before)",
            searched + standing.earlier
        ),
    };
    let (floor, best) = (standing.floor, best_words(standing));
    format!("exact search: {searched}; proven total at least {floor}, {best}")
}

/// The best total found against the floor, as the log says it: "best total B,
/// gap G%; K of N first guesses open", or "no complete tree yet". Once the floor
/// meets the best total the proof is done, and a run then builds its tree, which
/// takes a while where the cache has let facts go: it says so.
pub fn best_words(standing: &Standing) -> String {
    let Standing {
        best,
        floor,
        ref firsts,
        ..
    } = *standing;
    match best {
        Some(best) if floor >= best => format!(
            "best total {best}, gap 0.00%: the least total, proven; what is left is to build the tree (searching again what the cache let go)"
        ),
        Some(best) => format!(
            "best total {best}, gap {:.2}%; {} of {} first guesses open",
            100.0 * f64::from(best - best.min(floor)) / f64::from(best),
            firsts.iter().filter(|&&(_, f)| f < best).count(),
            firsts.len()
        ),
        None => "no complete tree yet".into(),
    }
}

/// Each first guess and the least total of a tree that starts with it, as a
/// log says it: "first guesses, the least total of each: 11223 68268 (the best
/// tree's), 11234 73800 (settled), ...", settled where no tree that starts with
/// it can cost less than the best found, and "never" where none can be done.
pub fn firsts_line(board: Board, standing: &Standing) -> String {
    let each: Vec<String> = (standing.firsts.iter())
        .map(|&(guess, floor)| {
            let code = guess_text(board, guess);
            let note = match standing.best {
                _ if standing.best_first == Some(guess) => " (the best tree's)",
                Some(b) if floor >= b => " (settled)",
                _ => "",
            };
            match u64::from(floor) >= generator::plan::NEVER {
                // Within the depth left, or at all (a guess played already).
                true => format!("{code} never"),
                false => format!("{code} {floor}{note}"),
            }
        })
        .collect();
    format!(
        "first guesses, the least total of each: {}",
        each.join(", ")
    )
}

/// How far each first guess's answer classes are solved, as a log says it:
/// "first guesses, the classes solved: 1122 2 of 12 (5 of 4095 secrets), 1123 9
/// of 13 (1070 of 4095 secrets; open: 1160 682 625 558), 1234 all 13", with
/// the sizes of the classes still open where the search has begun on the guess
/// (what is left of it); `None` where the standing does not say (read from a
/// checkpoint without its classes).
pub fn solved_line(board: Board, standing: &Standing) -> Option<String> {
    if standing.solved.is_empty() {
        return None;
    }
    let each: Vec<String> = (standing.firsts.iter().zip(&standing.solved))
        .map(|(&(guess, _), solved)| {
            let code = guess_text(board, guess);
            let open = match solved.begun {
                true => {
                    let sizes: Vec<String> = solved.open.iter().map(|n| n.to_string()).collect();
                    format!("; open: {}", sizes.join(" "))
                }
                false => String::new(),
            };
            match solved.classes == solved.of_classes {
                true => format!("{code} all {}", solved.of_classes),
                false => format!(
                    "{code} {} of {} ({} of {} secrets{open})",
                    solved.classes, solved.of_classes, solved.secrets, solved.of_secrets
                ),
            }
        })
        .collect();
    Some(format!(
        "first guesses, the classes solved: {}",
        each.join(", ")
    ))
}

/// A first guess as the board writes it ("?" for an index the board has not).
fn guess_text(board: Board, guess: u32) -> String {
    (board.code(guess)).map_or("?".into(), |c| board.display(c).to_string())
}

/// A duration as h:mm:ss.
fn clock(duration: Duration) -> String {
    let s = duration.as_secs_f64().round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn print_report(
    args: &Args,
    out_path: &std::path::Path,
    tree: &Generated,
    measured: &Measured,
) -> Outcome {
    let Measured {
        elapsed,
        bytes,
        scorings,
        searched,
        searched_total,
        resumed,
        ref tried,
        ref certificate,
    } = *measured;
    let board = tree.board;
    let first = board
        .code(tree.numbered.records[0].guess)
        .ok_or("no first guess")?;
    let summary = Summary::new(board, &tree.meta, first, bytes);
    let millis = elapsed.as_secs_f64() * 1000.0;
    // With the runs before, up to their last save, where they recorded it.
    let in_all = (resumed.filter(|r| r.seconds > 0.0)).map(|r| r.seconds + elapsed.as_secs_f64());
    let mut out = std::io::stdout().lock();
    let tried: Option<Vec<(String, u64, u32)>> = tried.as_ref().map(|tried| {
        let code = |g| board.code(g).map(|c| board.display(c).to_string());
        (tried.iter())
            .map(|t| (code(t.first).unwrap_or_default(), t.total, t.worst))
            .collect()
    });
    if args.json {
        let extra = serde_json::json!({
            "generation_ms": millis,
            "score_computations": scorings,
            "positions_searched": searched,
            "symmetry": !args.search.no_symmetry,
            "file": out_path.display().to_string(),
            "peak_memory_bytes": peak_memory(),
            "resumed_sets": resumed.map(|r| r.sets),
            "resume_seconds": resumed.map(|r| r.took.as_secs_f64()),
            "seconds_in_all": in_all,
            "search_tree_total": searched_total,
            "certificate_facts": certificate.as_ref().map(|c| c.facts),
            "certificate_bytes": certificate.as_ref().map(|c| c.bytes),
            "first_guesses_tried": tried.as_ref().map(|tried| {
                (tried.iter())
                    .map(|(first, total, worst)| {
                        serde_json::json!({"first": first, "total": total, "worst": worst})
                    })
                    .collect::<Vec<_>>()
            }),
        });
        writeln!(out, "{}", lookup::cli::report(&summary, extra))?;
        return Ok(());
    }
    writeln!(out, "{summary}")?;
    match in_all {
        Some(all) => writeln!(
            out,
            "time         {millis:.1} ms ({scorings} scorings); {all:.1} s in all, with the runs before up to their last save"
        )?,
        None => writeln!(out, "time         {millis:.1} ms ({scorings} scorings)")?,
    }
    if let Some(searched) = searched {
        writeln!(out, "searched     {searched} positions (exact search)")?;
    }
    if let Some(total) = searched_total {
        let kept = &tree.meta.strategy.name;
        match kept.as_str() {
            "optimal" => writeln!(
                out,
                "kept         the search's tree: no heuristic's tree with these options is better"
            )?,
            _ => writeln!(
                out,
                "kept         the {kept} rule's tree: the search's tree, finished by a heuristic, totals {total}"
            )?,
        }
    }
    if let Some(tried) = &tried {
        let each: Vec<String> = (tried.iter())
            .map(|(first, total, worst)| format!("{first} {total}/{worst}"))
            .collect();
        writeln!(
            out,
            "tried        {} first guess{}, one per symmetry class, the best kept (total/worst case): {}",
            tried.len(),
            if tried.len() == 1 { "" } else { "es" },
            each.join(", ")
        )?;
    }
    if let Some(resumed) = resumed {
        writeln!(out, "{}; saved at the end", resumed_line(resumed))?;
    }
    if let (Some(written), Some(path)) = (certificate, &args.search.certificate) {
        writeln!(
            out,
            "certificate  {} ({} facts, {} bytes; check it: mmcheck {} {})",
            path.display(),
            written.facts,
            written.bytes,
            out_path.display(),
            path.display()
        )?;
    }
    if let Some(peak) = peak_memory() {
        writeln!(
            out,
            "peak memory  {:.1} MiB",
            peak as f64 / (1024.0 * 1024.0)
        )?;
    }
    writeln!(
        out,
        "file         {} ({bytes} bytes, {:.2} per node, {:.2} per secret)",
        out_path.display(),
        bytes as f64 / summary.nodes as f64,
        bytes as f64 / summary.secrets as f64
    )?;
    Ok(())
}
