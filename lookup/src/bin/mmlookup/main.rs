//! `mmlookup`: answers Mastermind moves from a precomputed strategy tree.
//!
//! One file per subcommand, each with its `Args` and `run`. Errors travel up as one
//! line of text; `main` prints it and picks the exit code. A closed pipe (`| head`)
//! ends the output quietly.

mod audit;
mod challenge;
mod diff;
mod explain;
mod export;
mod guess_mine;
mod info;
mod next;
mod page;
mod play;
mod score;
mod serve;
mod session;
mod site;
mod solve;
mod source;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Answer Mastermind moves instantly by walking a precomputed strategy tree.
#[derive(Parser)]
#[command(name = "mmlookup", version, after_help = NOTATION)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Write and read colours as letters, R G B Y O P W N (red, green, blue, yellow,
    /// orange, purple, white, brown), instead of digits: RRGG is 1122. Boards of up
    /// to 8 colours.
    #[arg(long, global = true, conflicts_with = "alphabet")]
    letters: bool,
    /// Write and read colours in these symbols, one per colour in order (any
    /// printable ASCII but ':' and ','; read in either case): --alphabet ABCDEFG for
    /// the notes of NetHack's drawbridge tune on the 5x7 board.
    #[arg(long, global = true, value_name = "SYMBOLS")]
    alphabet: Option<String>,
}

/// How codes, answers and moves are written, for every subcommand.
const NOTATION: &str = "\
Codes: one character per peg. With up to 9 colours the colours are 1..C (1122 on
the classic 4x6 board); with 10 to 16 they are hexadecimal 0..9, a..f (0123 in
Bulls and Cows). An answer is B,W: black pegs (right colour, right place), then
white pegs (right colour, wrong place). A move is GUESS:B,W.

Without --tree, the classic 4x6 Knuth tree built into mmlookup is used.
Errors are one line on stderr with exit status 1; usage errors exit 2.

Examples:
  mmlookup next                               the first guess: 1122
  mmlookup next 1122:1,0 1344:0,1             the third guess: 3526
  mmlookup solve 3632                         the tree's game against 3632
  mmlookup explain 1122:1,0                   why the tree plays 1344 there
  mmlookup play                               hints for a game you play
  mmlookup audit                              prove the built-in tree's claims
  mmgen --strategy optimal --out optimal-4x6.mmt
  mmlookup next --tree optimal-4x6.mmt 1123:1,0   the optimal tree's answer";

#[derive(Subcommand)]
enum Command {
    /// The next guess after the moves played so far (GUESS:B,W ...).
    Next(next::Args),
    /// Play a secret (or every secret) through the tree.
    Solve(solve::Args),
    /// Prove a tree: replay every secret, check every edge and every statistic.
    Audit(audit::Args),
    /// Board, strategy, statistics and byte sizes of a tree file.
    Info(info::Args),
    /// Where two trees of one board first play different guesses, and their statistics side by side.
    Diff(diff::Args),
    /// The answer (B,W) a guess gets against a secret.
    Score(score::Args),
    /// Assistant for a game you play against someone else: type your moves, get hints.
    Play(play::Args),
    /// You think of a secret; the computer guesses it from the tree.
    GuessMine(guess_mine::Args),
    /// The computer hides a secret; you guess it and compare with the tree.
    Challenge(challenge::Args),
    /// Why the tree plays its next guess: how it splits the secrets, against the alternative.
    Explain(explain::Args),
    /// The tree as text (a line per secret), JSON (nested), Graphviz dot, or a byte
    /// array for firmware (rust, c).
    Export(export::Args),
    /// A hint board in the browser, and the JSON API behind it, from the trees.
    Serve(serve::Args),
    /// The hint board as a folder that needs no server: open its index.html from disk or host it anywhere.
    Site(site::Args),
    /// A shell completion script (bash, elvish, fish, powershell, zsh).
    Completions(lookup::cli::CompletionsArgs),
    /// The manual page (roff), of mmlookup or of one subcommand.
    Man(lookup::cli::ManArgs),
}

pub use lookup::cli::{Failure, Outcome};

fn main() -> ExitCode {
    let cli: Cli = lookup::cli::parse("mmlookup");
    if cli.letters {
        source::use_notation(source::Notation::Letters);
    }
    if let Some(symbols) = &cli.alphabet {
        source::use_notation(source::Notation::Alphabet(symbols.clone()));
    }
    let outcome = match &cli.command {
        Command::Next(args) => next::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Info(args) => info::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Score(args) => score::run(args),
        Command::Play(args) => play::run(args),
        Command::GuessMine(args) => guess_mine::run(args),
        Command::Challenge(args) => challenge::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Export(args) => export::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Site(args) => site::run(args),
        Command::Completions(args) => lookup::cli::completions(Cli::command(), args),
        Command::Man(args) => lookup::cli::man(Cli::command(), args),
    };
    lookup::cli::finish("mmlookup", outcome)
}
