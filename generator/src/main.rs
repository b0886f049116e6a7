//! `mmgen`: builds the complete strategy tree for a board and writes it to a file.

use clap::Parser;
use generator::search::{Counters, Settings};
use generator::strategy::{self, Options, NAMES};
use generator::{generate, output::write_atomic, Generated};
use indicatif::{ProgressBar, ProgressStyle};
use lookup::Board;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Build the complete Mastermind strategy tree for a board and write it to FILE.
#[derive(Parser)]
#[command(name = "mmgen", version)]
struct Args {
    /// Pegs per code (1-8).
    #[arg(long, default_value_t = 4)]
    pegs: u32,
    /// Colours (2-16).
    #[arg(long, default_value_t = 6)]
    colors: u32,
    /// Forbid repeated colours (Bulls and Cows: --pegs 4 --colors 10 --no-repeat).
    #[arg(long)]
    no_repeat: bool,
    /// The rule that picks each guess.
    #[arg(long, default_value = "knuth", value_parser = clap::builder::PossibleValuesParser::new(NAMES))]
    strategy: String,
    /// Worker threads (0: one per core). The file is the same for any count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Where to write the tree (written to a temporary name, then renamed).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Guess only codes that are still possible.
    #[arg(long)]
    consistent_only: bool,
    /// Force the first guess (in the board's notation).
    #[arg(long, value_name = "CODE")]
    first: Option<String>,
    /// optimal: no secret may need more guesses than this.
    #[arg(long, value_name = "D")]
    max_depth: Option<u32>,
    /// optimal: `total` (least guesses in total) or `worst` (least worst case, then
    /// least total).
    #[arg(long, default_value = "total", value_parser = ["total", "worst"])]
    objective: String,
    /// optimal: stop searching after this many seconds and write the best tree found
    /// (its header then says it is not proven optimal).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    json: bool,
    /// Score every code at every node instead of one per symmetry class (slower;
    /// the file is the same).
    #[arg(long)]
    no_symmetry: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mmgen: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let board = Board::new(args.pegs, args.colors, !args.no_repeat).map_err(|e| e.to_string())?;
    let first = match &args.first {
        Some(text) => {
            let code = board
                .parse(text)
                .map_err(|e| format!("--first '{text}': {e}"))?;
            board.index(code)
        }
        None => None,
    };
    let deadline = match args.time_limit {
        Some(s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--time-limit {s}: give a number of seconds")),
        None => None,
    };
    let options = Options {
        consistent_only: args.consistent_only,
        first,
        max_depth: args.max_depth,
        worst_first: args.objective == "worst",
        deadline,
    };
    let strategy = strategy::by_name(&args.strategy, options, board).ok_or("unknown strategy")?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;

    let started = Instant::now();
    let counters = Counters::default();
    let settings = Settings {
        symmetry: !args.no_symmetry,
    };
    let done = AtomicU64::new(0);
    let tree = std::thread::scope(|scope| {
        if std::io::stderr().is_terminal() {
            scope.spawn(|| show_progress(&counters.solved, &done, u64::from(board.code_count())));
        }
        let tree = pool.install(|| generate(board, strategy.as_ref(), settings, &counters));
        done.store(1, Ordering::Relaxed);
        tree
    });
    let elapsed = started.elapsed();
    let bytes = write_atomic(&args.out, &tree)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let scorings = counters.scorings.load(Ordering::Relaxed);
    print_report(args, &tree, elapsed, bytes, scorings).map_err(|e| e.to_string())
}

/// A bar on stderr that follows the secrets placed so far; waits half a second so
/// that quick runs print nothing.
fn show_progress(solved: &AtomicU64, done: &AtomicU64, total: u64) {
    let tick = Duration::from_millis(100);
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    while done.load(Ordering::Relaxed) == 0 {
        std::thread::sleep(tick);
        if bar.is_none() && start.elapsed() > Duration::from_millis(500) {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} secrets, ~{eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position(solved.load(Ordering::Relaxed));
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// Peak resident memory of this process in bytes, where the OS reports it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn print_report(
    args: &Args,
    tree: &Generated,
    elapsed: Duration,
    bytes: u64,
    scorings: u64,
) -> std::io::Result<()> {
    let board = tree.board;
    let stats = &tree.meta.stats;
    let first = board
        .code(tree.laid.records[0].guess)
        .map(|c| board.display(c).to_string())
        .unwrap_or_default();
    let millis = elapsed.as_secs_f64() * 1000.0;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = serde_json::json!({
            "board": board.name().to_string(),
            "pegs": board.pegs(),
            "colors": board.colors(),
            "repeat": board.repeat(),
            "strategy": tree.meta.strategy.name,
            "first_guess": first,
            "secrets": stats.secrets,
            "nodes": stats.nodes,
            "max_guesses": stats.max_guesses,
            "total_guesses": stats.total_guesses,
            "average_guesses": stats.average(),
            "histogram": stats.histogram,
            "generation_ms": millis,
            "score_computations": scorings,
            "symmetry": !args.no_symmetry,
            "file": args.out.display().to_string(),
            "file_bytes": bytes,
            "proven": tree.meta.strategy.proven,
            "peak_memory_bytes": peak_memory(),
        });
        return writeln!(out, "{report}");
    }
    writeln!(
        out,
        "board        {} ({} codes)",
        board.name(),
        board.code_count()
    )?;
    writeln!(out, "strategy     {}", tree.meta.strategy.name)?;
    writeln!(out, "first guess  {first}")?;
    writeln!(out, "secrets      {}", stats.secrets)?;
    writeln!(out, "nodes        {}", stats.nodes)?;
    writeln!(out, "{}", stats.summary())?;
    writeln!(out, "time         {millis:.1} ms ({scorings} scorings)")?;
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
        args.out.display(),
        bytes as f64 / stats.nodes as f64,
        bytes as f64 / stats.secrets as f64
    )
}
