//! `mmlookup next`: the tree's next guess for a game in progress.

use crate::{source, Outcome};
use lookup::play::{self, Next};
use lookup::{Board, Feedback, Move};
use std::io::Write;
use std::path::PathBuf;

/// A tree and the moves played so far (also `explain`'s arguments).
#[derive(clap::Args)]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Moves played so far, each GUESS:B,W (e.g. 1122:1,0).
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
}

/// Reads `GUESS:B,W`; `number` counts from 1 for the error message.
fn parse_move(board: &Board, number: usize, text: &str) -> Result<Move, String> {
    let bad = |why: String| format!("move {number} '{text}': {why}");
    let (guess, answer) = text
        .split_once(':')
        .ok_or_else(|| bad("write a move as GUESS:B,W, e.g. 1122:1,0".into()))?;
    let guess = board.parse(guess.trim()).map_err(|e| bad(e.to_string()))?;
    let answer = Feedback::parse(answer, board).map_err(|e| bad(e.to_string()))?;
    Ok(Move { guess, answer })
}

impl Args {
    /// The tree and the moves, parsed against its board.
    pub fn open(&self) -> Result<(lookup::Tree<source::Bytes>, Vec<Move>), String> {
        let tree = source::open(self.tree.as_deref())?;
        let board = tree.board();
        let moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, text)| parse_move(&board, i + 1, text))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((tree, moves))
    }
}

pub fn run(args: &Args) -> Outcome {
    let (tree, moves) = args.open()?;
    let board = tree.board();
    let next = play::next(&tree, &moves).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    match (next, args.json) {
        (
            Next::Guess {
                guess, candidates, ..
            },
            false,
        ) => {
            writeln!(out, "{}", board.display(guess))?;
            let secrets = if candidates == 1 { "secret" } else { "secrets" };
            writeln!(
                out,
                "guess {} of the game; {candidates} {secrets} still possible",
                moves.len() + 1
            )?;
        }
        (
            Next::Guess {
                guess, candidates, ..
            },
            true,
        ) => {
            let json = serde_json::json!({
                "guess": board.display(guess).to_string(),
                "candidates": candidates,
                "move": moves.len() + 1,
                "solved": false,
            });
            writeln!(out, "{json}")?;
        }
        (Next::Solved { guesses }, false) => writeln!(out, "solved in {guesses} guesses")?,
        (Next::Solved { guesses }, true) => {
            let json = serde_json::json!({
                "guess": null,
                "candidates": 0,
                "solved": true,
                "guesses": guesses,
            });
            writeln!(out, "{json}")?;
        }
    }
    Ok(())
}
