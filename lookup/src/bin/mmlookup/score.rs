//! `mmlookup score`: the answer a guess gets against a secret, as a codemaker gives it.

use crate::{source, Outcome};
use lookup::cli::BoardFlags;
use lookup::score::score;
use lookup::Board;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  mmlookup score 1122 3632                              prints 1,0
  mmlookup score --pegs 5 --colors 8 11223 32118        prints 0,4
  mmlookup score --colors 10 --no-repeat 0123 3210      prints 0,4")]
pub struct Args {
    /// Use the board of this tree file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["pegs", "colors", "no_repeat"])]
    tree: Option<PathBuf>,
    /// The board, without a tree (default 4 pegs, 6 colours).
    #[command(flatten)]
    board: BoardFlags,
    /// The guess.
    guess: String,
    /// The hidden code.
    secret: String,
}

impl Args {
    /// The board named by the flags, the tree's, or the classic one.
    fn board(&self) -> Result<Board, String> {
        if self.tree.is_some() {
            return Ok(source::open(self.tree.as_deref())?.board());
        }
        source::notation(self.board.board()?)
    }
}

pub fn run(args: &Args) -> Outcome {
    let board = args.board()?;
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
