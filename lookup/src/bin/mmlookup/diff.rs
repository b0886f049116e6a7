//! `mmlookup diff A.mmt B.mmt`: where two trees of one board first play different
//! guesses, and their statistics side by side.
//!
//! Both trees are walked together, breadth first and in answer order, along the
//! histories both reach (the same guesses so far, so the same secrets left and the
//! same answers). Where their guesses differ, the games part: that position is a
//! difference, and nothing below it is compared.

use crate::source;
use crate::Outcome;
use lookup::format::Summary;
use lookup::{Move, Position, Tree};
use serde_json::json;
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Example:
  mmlookup diff trees/knuth-4x6.mmt trees/optimal-4x6.mmt")]
pub struct Args {
    /// The first tree file.
    a: PathBuf,
    /// The second tree file, of the same board.
    b: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The most differences listed (all are counted).
const LISTED: usize = 10;

/// A position where the trees' guesses differ.
struct Difference {
    history: Vec<Move>,
    candidates: u32,
    a: String,
    b: String,
}

pub fn run(args: &Args) -> Outcome {
    let a = source::open(Some(&args.a))?;
    let b = source::open(Some(&args.b))?;
    let board = a.board();
    if b.board() != board {
        return Err(format!(
            "the trees are for different boards ({} and {}): nothing to compare",
            board.name(),
            b.board().name()
        )
        .into());
    }
    let (shared, differences) = compare(&a, &b)?;
    let summary = |tree: &Tree<source::Bytes>| -> Result<Summary, String> {
        let meta = tree.meta().map_err(|e| e.to_string())?;
        let first = tree.guess(tree.root()).map_err(|e| e.to_string())?;
        Ok(Summary::new(board, &meta, first, tree.bytes().len() as u64))
    };
    let (sa, sb) = (summary(&a)?, summary(&b)?);
    let history = |d: &Difference| -> String {
        let moves: Vec<String> = (d.history.iter())
            .map(|m| format!("{}:{}", board.display(m.guess), m.answer))
            .collect();
        moves.join(" ")
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let listed: Vec<_> = (differences.iter().take(LISTED))
            .map(|d| {
                json!({
                    "moves": history(d),
                    "candidates": d.candidates,
                    "a": d.a,
                    "b": d.b,
                })
            })
            .collect();
        let report = json!({
            "a": lookup::cli::report(&sa, json!({ "file": args.a })),
            "b": lookup::cli::report(&sb, json!({ "file": args.b })),
            "positions_compared": shared,
            "differences": differences.len(),
            "first_differences": listed,
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    let (na, nb) = (args.a.display(), args.b.display());
    writeln!(out, "a            {na}")?;
    writeln!(out, "b            {nb}")?;
    for (what, x, y) in [
        ("strategy", sa.strategy.clone(), sb.strategy.clone()),
        (
            "first guess",
            sa.first_guess.clone(),
            sb.first_guess.clone(),
        ),
        (
            "total",
            format!("{} (average {:.4})", sa.total_guesses, sa.average_guesses),
            format!("{} (average {:.4})", sb.total_guesses, sb.average_guesses),
        ),
        (
            "worst case",
            sa.max_guesses.to_string(),
            sb.max_guesses.to_string(),
        ),
        (
            "histogram",
            histogram(&sa.histogram),
            histogram(&sb.histogram),
        ),
        ("nodes", sa.nodes.to_string(), sb.nodes.to_string()),
        (
            "file bytes",
            sa.file_bytes.to_string(),
            sb.file_bytes.to_string(),
        ),
    ] {
        let mark = if x == y { "=" } else { "|" };
        writeln!(out, "{what:<12} {x:<30} {mark} {y}")?;
    }
    if differences.is_empty() {
        writeln!(
            out,
            "same guesses at all {shared} positions: the trees play every game alike"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} of the {shared} positions both trees reach get different guesses; the first:",
        differences.len()
    )?;
    for d in differences.iter().take(LISTED) {
        let at = match d.history.is_empty() {
            true => "at the start".to_string(),
            false => format!("after {}", history(d)),
        };
        let left = crate::session::plural(d.candidates.into(), "secret", "secrets");
        writeln!(
            out,
            "  {at} ({left} left): a plays {}, b plays {}",
            d.a, d.b
        )?;
    }
    Ok(())
}

fn histogram(counts: &[u64]) -> String {
    let pairs: Vec<String> = (counts.iter().enumerate())
        .map(|(i, n)| format!("{}:{n}", i + 1))
        .collect();
    pairs.join(" ")
}

/// Walks both trees along the histories both reach: the positions compared, and
/// those where the guesses differ, shallowest first.
fn compare(
    a: &Tree<source::Bytes>,
    b: &Tree<source::Bytes>,
) -> Result<(u64, Vec<Difference>), String> {
    let board = a.board();
    let e = |e: lookup::format::FormatError| e.to_string();
    let mut queue: VecDeque<(Position, Position, Vec<Move>)> = VecDeque::new();
    queue.push_back((a.root(), b.root(), Vec::new()));
    let (mut shared, mut differences) = (0, Vec::new());
    while let Some((pa, pb, history)) = queue.pop_front() {
        shared += 1;
        let (ga, gb) = (a.guess(pa).map_err(e)?, b.guess(pb).map_err(e)?);
        if ga != gb {
            differences.push(Difference {
                candidates: a.candidates(pa).map_err(e)?,
                a: board.display(ga).to_string(),
                b: board.display(gb).to_string(),
                history,
            });
            continue;
        }
        // The same guess on the same secrets: the same answers, in the same order.
        let (ca, cb) = (a.children(pa).map_err(e)?, b.children(pb).map_err(e)?);
        for (x, y) in ca.zip(cb) {
            let ((answer, below_a), (_, below_b)) = (x.map_err(e)?, y.map_err(e)?);
            let mut next = history.clone();
            next.push(Move { guess: ga, answer });
            queue.push_back((below_a, below_b, next));
        }
    }
    Ok((shared, differences))
}
