//! `mmlookup score`: the answer a guess gets against a secret, as a codemaker gives it;
//! or a guess's answers from every secret, or every pair's: a table to diff a
//! scorer of one's own against (ports get repeated colours wrong: a white counted
//! for each copy of a colour).

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
  mmlookup score --colors 10 --no-repeat 0123 3210      prints 0,4
  mmlookup score 1122                                   every secret, then its answer to 1122
  mmlookup score --all | sha256sum                      every guess and secret, then the answer")]
pub struct Args {
    /// Use the board of this tree file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["pegs", "colors", "no_repeat"])]
    tree: Option<PathBuf>,
    /// The board, without a tree (default 4 pegs, 6 colours).
    #[command(flatten)]
    board: BoardFlags,
    /// Every guess against every secret, a line each: the guess, the secret, the
    /// answer (guesses, then secrets, in the order of codes).
    #[arg(long, conflicts_with_all = ["guess", "secret"])]
    all: bool,
    /// The guess.
    #[arg(required_unless_present = "all")]
    guess: Option<String>,
    /// The hidden code (without it, every secret, a line each: the secret, the
    /// answer).
    secret: Option<String>,
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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let pegs = board.pegs();
    let show = |code| board.display(code);
    match (&args.guess, &args.secret) {
        (Some(guess), Some(secret)) => {
            let (guess, secret) = (parse("guess", guess)?, parse("secret", secret)?);
            writeln!(out, "{}", score(guess, secret, pegs))?;
        }
        (Some(guess), None) => {
            let guess = parse("guess", guess)?;
            for secret in board.codes() {
                writeln!(out, "{} {}", show(secret), score(guess, secret, pegs))?;
            }
        }
        _ => {
            for guess in board.codes() {
                for secret in board.codes() {
                    let answer = score(guess, secret, pegs);
                    writeln!(out, "{} {} {answer}", show(guess), show(secret))?;
                }
            }
        }
    }
    out.flush()?;
    Ok(())
}
