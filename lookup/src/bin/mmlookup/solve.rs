//! `mmlookup solve`: the guesses the tree plays against a secret, or against all.

use crate::{source, Outcome};
use lookup::play::solve;
use lookup::{Board, Code, Feedback, Tree};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  mmlookup solve 3632                             the tree's game against 3632
  mmlookup solve --all | head                     every secret, then its guesses
  mmlookup solve --tree trees/optimal-4x10-no-repeat.mmt 9876")]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// Every secret, one line each: the secret, then its guesses.
    #[arg(long, conflicts_with = "secret")]
    all: bool,
    /// JSON: one object per secret, with `secret`, `guesses` and `answers`.
    #[arg(long)]
    json: bool,
    /// The hidden code.
    #[arg(required_unless_present = "all")]
    secret: Option<String>,
}

/// The guesses and answers of one game.
fn game<D: AsRef<[u8]>>(tree: &Tree<D>, secret: Code) -> Result<Vec<(Code, Feedback)>, String> {
    let mut steps = Vec::new();
    solve(tree, secret, |guess, answer| steps.push((guess, answer))).map_err(|e| e.to_string())?;
    Ok(steps)
}

fn json_line(board: Board, secret: Code, steps: &[(Code, Feedback)]) -> serde_json::Value {
    serde_json::json!({
        "secret": board.display(secret).to_string(),
        "guesses": steps.iter().map(|(g, _)| board.display(*g).to_string()).collect::<Vec<_>>(),
        "answers": steps.iter().map(|(_, a)| a.to_string()).collect::<Vec<_>>(),
    })
}

pub fn run(args: &Args) -> Outcome {
    let tree = source::open(args.tree.as_deref())?;
    let board = tree.board();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match &args.secret {
        Some(text) => {
            let secret = board
                .parse(text)
                .map_err(|e| format!("secret '{text}': {e}"))?;
            let steps = game(&tree, secret)?;
            if args.json {
                writeln!(out, "{}", json_line(board, secret, &steps))?;
            } else {
                for (guess, answer) in &steps {
                    writeln!(out, "{}  {answer}", board.display(*guess))?;
                }
                writeln!(
                    out,
                    "solved {} in {}",
                    board.display(secret),
                    crate::session::plural(steps.len() as u64, "guess", "guesses")
                )?;
            }
        }
        None => {
            for secret in board.codes() {
                let steps = game(&tree, secret)?;
                if args.json {
                    writeln!(out, "{}", json_line(board, secret, &steps))?;
                } else {
                    write!(out, "{}", board.display(secret))?;
                    for (guess, _) in &steps {
                        write!(out, " {}", board.display(*guess))?;
                    }
                    writeln!(out)?;
                }
            }
        }
    }
    out.flush()?;
    Ok(())
}
