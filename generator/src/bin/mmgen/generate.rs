//! `mmgen [OPTIONS] --out FILE`: build one tree, write it atomically, report it.

use crate::args::{output_error, peak_memory, BoardArgs, SearchArgs};
use generator::search::Counters;
use generator::strategy::{self, NAMES};
use generator::{generate, output::write_atomic, Generated};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Build the complete strategy tree for a board and write it to FILE.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The rule that picks each guess.
    #[arg(long, default_value = "knuth", value_parser = clap::builder::PossibleValuesParser::new(NAMES))]
    strategy: String,
    #[command(flatten)]
    search: SearchArgs,
    /// Where to write the tree (written to a temporary name, then renamed).
    #[arg(long, value_name = "FILE", required = true)]
    out: Option<PathBuf>,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let board = args.board.board()?;
    let out = args.out.as_ref().ok_or("--out FILE is required")?;
    let strategy = strategy::by_name(&args.strategy, args.search.options(board)?, board)
        .ok_or("unknown strategy")?;
    let pool = args.search.pool()?;
    let started = Instant::now();
    let counters = Counters::default();
    let done = AtomicU64::new(0);
    let tree = std::thread::scope(|scope| {
        if std::io::stderr().is_terminal() {
            scope.spawn(|| show_progress(&counters.solved, &done, u64::from(board.code_count())));
        }
        let tree =
            pool.install(|| generate(board, strategy.as_ref(), args.search.settings(), &counters));
        done.store(1, Ordering::Relaxed);
        tree
    });
    let elapsed = started.elapsed();
    let bytes =
        write_atomic(out, &tree).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let scorings = counters.scorings.load(Ordering::Relaxed);
    print_report(args, out, &tree, elapsed, bytes, scorings).or_else(output_error)
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

fn print_report(
    args: &Args,
    out_path: &std::path::Path,
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
            "symmetry": !args.search.no_symmetry,
            "file": out_path.display().to_string(),
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
        out_path.display(),
        bytes as f64 / stats.nodes as f64,
        bytes as f64 / stats.secrets as f64
    )
}
