//! `mmlookup score`: the answer a guess gets against a secret, as a codemaker gives it.

use crate::{source, Outcome};
use lookup::score::score;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Tree file whose board to use (default: the built-in classic 4x6 tree).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// The guess.
    guess: String,
    /// The hidden code.
    secret: String,
}

pub fn run(args: &Args) -> Outcome {
    let board = source::open(args.tree.as_deref())?.board();
    let parse = |what: &str, text: &str| {
        board
            .parse(text)
            .map_err(|e| format!("{what} '{text}': {e}"))
    };
    let guess = parse("guess", &args.guess)?;
    let secret = parse("secret", &args.secret)?;
    writeln!(
        std::io::stdout().lock(),
        "{}",
        score(guess, secret, board.pegs())
    )?;
    Ok(())
}
