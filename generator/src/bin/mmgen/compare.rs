//! `mmgen compare`: every strategy for one board, side by side, each tree built in
//! full and sized as its file would be (nothing is written).

use crate::args::BoardArgs;
use crate::plot;
use generator::best_known::best_known;
use generator::codes::Codes;
use generator::generate;
use generator::output::{writable_beside, write_owned};
use generator::strategy::{self, Options};
use generator::{Counters, Settings};
use lookup::cli::Outcome;
use lookup::format::write_tree;
use lookup::format::Summary;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Seconds the exact search may take; past that, optimal is listed as unproven.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = lookup::cli::seconds, allow_negative_numbers = true)]
    time_limit: f64,
    /// Worker threads, at most 256 (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = lookup::cli::threads)]
    threads: usize,
    /// Print a JSON array, one object per strategy.
    #[arg(long)]
    json: bool,
    /// Also draw the strategies' distributions of guesses as one SVG chart. An
    /// existing file is replaced only if it is an SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

pub fn run(args: &Args) -> Outcome {
    let board = args.board.board()?;
    if let Some(path) = &args.plot {
        check_plot_target(path)?;
    }
    let pool = crate::args::pool(args.threads)?;
    let codes = Codes::new(board);
    let mut rows = Vec::new();
    for kind in strategy::buildable() {
        let options = Options {
            deadline: Some(Instant::now() + Duration::from_secs_f64(args.time_limit)),
            ..Options::default()
        };
        let strategy = strategy::by_kind(kind, options, board).ok_or("no such strategy")?;
        let started = Instant::now();
        let settings = Settings { symmetry: true };
        let tree = pool
            .install(|| generate(board, strategy.as_ref(), settings, &Counters::default()))
            .map_err(|e| format!("{}: {e}", kind.name()))?;
        // Out of time: the tree `mmgen --strategy optimal` keeps, the better of the
        // search's and the heuristics' (its row then says best found, not optimal).
        let tree = match tree.meta.strategy.proven {
            Some(false) => pool.install(|| best_known(&codes, tree, options, settings)),
            _ => tree,
        };
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        let bytes = write_tree(
            std::io::sink(),
            board,
            &tree.meta,
            &tree.numbered.records,
            &tree.numbered.edges,
        )
        .map_err(|e| e.to_string())?;
        let first = board
            .code(tree.numbered.records[0].guess)
            .ok_or("no first guess")?;
        let summary = Summary::new(board, &tree.meta, first, bytes);
        rows.push(lookup::cli::report(
            &summary,
            serde_json::json!({ "time_ms": millis }),
        ));
    }
    print_table(&rows, args.json)?;
    if let Some(path) = &args.plot {
        let series: Vec<plot::Series> = (rows.iter())
            .map(|row| plot::Series {
                name: row["strategy"].as_str().unwrap_or_default().to_string(),
                average: row["average_guesses"].as_f64().unwrap_or(0.0),
                histogram: (row["histogram"].as_array().into_iter().flatten())
                    .map(|n| n.as_u64().unwrap_or(0))
                    .collect(),
            })
            .collect();
        let svg = plot::distributions(&board.name().to_string(), &series);
        write_owned(path, svg.as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Refuses a plot target that exists and is not an SVG: nothing the user did not
/// ask to replace is replaced.
fn check_plot_target(path: &Path) -> Result<(), String> {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            writable_beside(path).map_err(|e| e.to_string())
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
        Ok(bytes) if bytes.starts_with(b"<svg") || bytes.starts_with(b"<?xml") => {
            writable_beside(path).map_err(|e| e.to_string())
        }
        Ok(_) => Err(format!(
            "{} exists and is not an SVG chart; not replaced (remove it or pick another name)",
            path.display()
        )),
    }
}

fn print_table(rows: &[serde_json::Value], json: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        return writeln!(out, "{}", serde_json::Value::Array(rows.to_vec()));
    }
    let line = |out: &mut std::io::StdoutLock, cells: [String; 8]| {
        writeln!(
            out,
            "{:<14} {:<6} {:>8} {:>8} {:>6} {:>11} {:>8}  {}",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]
        )
    };
    let heading = [
        "strategy",
        "first",
        "total",
        "average",
        "worst",
        "time",
        "bytes",
        "histogram (guesses:secrets)",
    ];
    line(&mut out, heading.map(String::from))?;
    for row in rows {
        // A search that ran out of time found a tree, not the optimum.
        let (name, proven) = match row["proven"].as_bool() {
            Some(false) => ("best found", " (not proven optimal: time limit)"),
            _ => (row["strategy"].as_str().unwrap_or_default(), ""),
        };
        let histogram: Vec<String> = row["histogram"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, n)| format!("{}:{n}", i + 1))
            .collect();
        let cells = [
            name.to_string(),
            row["first_guess"].as_str().unwrap_or_default().to_string(),
            row["total_guesses"].to_string(),
            format!("{:.4}", row["average_guesses"].as_f64().unwrap_or(0.0)),
            row["max_guesses"].to_string(),
            format!("{:.1} ms", row["time_ms"].as_f64().unwrap_or(0.0)),
            row["file_bytes"].to_string(),
            format!("{}{proven}", histogram.join(" ")),
        ];
        line(&mut out, cells)?;
    }
    Ok(())
}
