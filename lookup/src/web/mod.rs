//! The hint board's answers as JSON, for every place the board runs: `mmlookup
//! serve` answers HTTP with them, the page that needs no server gets them from this
//! code compiled to WebAssembly, and the CLI's `--json` prints the same objects.
//! One code base, so a hint, an explanation or an error reads the same everywhere.
//!
//! Feature `web` (std and serde_json): no sockets, files or clocks, so it builds for
//! `wasm32-unknown-unknown` as it is.

pub mod api;
pub mod explain;

use crate::hint::Hint;
use crate::{Board, Move};
use serde_json::{json, Value};

/// A hint as JSON, one shape for every case (see the README): `solved`, `guess`
/// (null once solved), `move` (its number in the game, null once solved),
/// `candidates` (0 once solved), `guesses` (the game's length once solved, else
/// null), `source` (`tree` or `live`, null once solved) and `rule` (the rule of a
/// live guess, else null).
pub fn hint_json(board: Board, moves: &[Move], hint: &Hint) -> Value {
    let (guess, candidates, source, rule) = match *hint {
        Hint::Tree {
            guess, candidates, ..
        } => (Some(guess), candidates, Some("tree"), None),
        Hint::Live {
            guess,
            candidates,
            rule,
        } => (Some(guess), candidates, Some("live"), Some(rule.name())),
        Hint::Solved { .. } => (None, 0, None, None),
    };
    let solved = guess.is_none();
    json!({
        "solved": solved,
        "guess": guess.map(|g| board.display(g).to_string()),
        "move": (!solved).then_some(moves.len() + 1),
        "candidates": candidates,
        "guesses": solved.then_some(moves.len()),
        "source": source,
        "rule": rule,
    })
}
