//! `mmlookup next`: the tree's next guess for a game in progress.

use crate::session::{self, Hint, Live};
use crate::{source, Outcome};
use lookup::{Board, Feedback, Move, Tree};
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
  mmlookup next --json 1122:1,0                   one JSON object (see README)
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

/// The most moves a history may have, on the command line and in the API alike:
/// no tree mmgen builds has a game half as long.
pub const MOVES_AT_MOST: usize = 64;

/// Reads moves written `GUESS:B,W` on `board`, as every command takes them (at most
/// [`MOVES_AT_MOST`]).
pub fn parse_moves<'a>(
    board: &Board,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Move>, String> {
    let moves: Vec<Move> = (texts.into_iter().enumerate().take(MOVES_AT_MOST + 1))
        .map(|(i, text)| parse_move(board, i + 1, text))
        .collect::<Result<_, _>>()?;
    if moves.len() > MOVES_AT_MOST {
        return Err(format!(
            "a game has at most {MOVES_AT_MOST} moves; more were given"
        ));
    }
    Ok(moves)
}

impl Args {
    /// The tree and the moves, parsed against its board.
    pub fn open(&self) -> Result<(lookup::Tree<source::Bytes>, Vec<Move>), String> {
        let tree = source::open(self.tree.as_deref())?;
        let moves = parse_moves(&tree.board(), self.moves.iter().map(String::as_str))?;
        Ok((tree, moves))
    }
}

/// The next guess after the moves in `args`, from the tree or computed live.
pub fn hint(tree: &Tree<source::Bytes>, moves: &[Move]) -> Result<Hint, String> {
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let board = tree.board();
    session::hint(tree, Live::of(&meta), moves, || {
        session::consistent(board, moves)
    })
}

/// The answer as JSON, one shape for every case (see the README):
/// `solved`, `guess` (null once solved), `move` (its number in the game, null once
/// solved), `candidates` (0 once solved), `guesses` (the game's length once
/// solved, else null), `source` (`tree` or `live`, null once solved) and `rule`
/// (the rule of a live guess, else null).
pub fn json(board: Board, moves: &[Move], hint: &Hint) -> serde_json::Value {
    let (guess, candidates, source, rule) = match *hint {
        Hint::Tree {
            guess, candidates, ..
        } => (Some(guess), candidates, Some("tree"), None),
        Hint::Live {
            guess,
            candidates,
            rule,
            ..
        } => (Some(guess), candidates, Some("live"), Some(rule.name())),
        Hint::Solved { .. } => (None, 0, None, None),
    };
    let solved = guess.is_none();
    serde_json::json!({
        "solved": solved,
        "guess": guess.map(|g| board.display(g).to_string()),
        "move": (!solved).then_some(moves.len() + 1),
        "candidates": candidates,
        "guesses": solved.then_some(moves.len()),
        "source": source,
        "rule": rule,
    })
}

pub fn run(args: &Args) -> Outcome {
    let (tree, moves) = args.open()?;
    let board = tree.board();
    let hint = hint(&tree, &moves)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json(board, &moves, &hint))?;
        return Ok(());
    }
    let secrets = |n: usize| session::plural(n as u64, "secret", "secrets");
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
            ..
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
        Hint::Solved { guesses } => writeln!(out, "{}", session::solved_in(guesses))?,
    }
    Ok(())
}
