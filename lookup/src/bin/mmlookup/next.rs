//! `mmlookup next`: the tree's next guess for a game in progress.

use crate::{source, Outcome};
use lookup::hint::{self, parse_moves, plural, Hint};
use lookup::web::hint_json;
use lookup::Move;
use std::io::Write;
use std::path::PathBuf;

/// A tree and the moves played so far (also `explain`'s arguments).
#[derive(clap::Args)]
#[command(
    after_help = "A move is GUESS:B,W: the code played (colours 1..C, or 0..f with 10 to 16
colours) and its answer, black pegs then white pegs.

Examples:
  mmlookup next                                   1122, the first guess
  mmlookup next 1122:1,0 1344:0,1                 3526
  mmlookup next --json 1122:1,0                   one JSON object: solved, guess,
                                                  candidates, move, guesses, source, rule
  mmlookup explain 1122:1,0 1344:0,1 3526:1,2     why 1462 and not 3632"
)]
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

impl Args {
    /// The tree and the moves, parsed against its board.
    pub fn open(&self) -> Result<(lookup::Tree<source::Bytes>, Vec<Move>), String> {
        let tree = source::open(self.tree.as_deref())?;
        let moves = parse_moves(&tree.board(), self.moves.iter().map(String::as_str))?;
        Ok((tree, moves))
    }
}

pub fn run(args: &Args) -> Outcome {
    let (tree, moves) = args.open()?;
    let board = tree.board();
    let hint = hint::next(&tree, &moves)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", hint_json(board, &moves, &hint))?;
        return Ok(());
    }
    let secrets = |n: usize| plural(n as u64, "secret", "secrets");
    match hint {
        Hint::Tree {
            guess, candidates, ..
        } => {
            writeln!(out, "{}", board.display(guess))?;
            writeln!(
                out,
                "guess {} of the game; {} still possible",
                moves.len() + 1,
                secrets(candidates)
            )?;
        }
        Hint::Live {
            guess,
            candidates,
            rule,
        } => {
            writeln!(out, "{}", board.display(guess))?;
            writeln!(
                out,
                "guess {} of the game; {} still possible; off the tree's line, so computed live with the {} rule",
                moves.len() + 1,
                secrets(candidates),
                rule.name()
            )?;
        }
        Hint::Solved { guesses } => writeln!(out, "{}", hint::solved_in(guesses))?,
    }
    Ok(())
}
