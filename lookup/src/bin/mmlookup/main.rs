//! `mmlookup`: answers Mastermind moves from a precomputed strategy tree.
//!
//! One file per subcommand, each with its `Args` and `run`. Errors travel up as one
//! line of text; `main` prints it and picks the exit code. A closed pipe (`| head`)
//! ends the output quietly.

mod audit;
mod challenge;
mod explain;
mod export;
mod guess_mine;
mod info;
mod next;
mod play;
mod score;
mod session;
mod solve;
mod source;

use clap::{Parser, Subcommand};
use std::io;
use std::process::ExitCode;

/// Answer Mastermind moves instantly by walking a precomputed strategy tree.
#[derive(Parser)]
#[command(name = "mmlookup", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

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
    /// The tree as text (a line per secret), JSON (nested) or Graphviz dot.
    Export(export::Args),
}

/// A failure: what to print and how to exit.
pub enum Failure {
    /// Print this line to stderr, exit 1.
    Message(String),
    /// Already reported (e.g. a JSON audit result); exit 1.
    Reported,
    Io(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Message(message.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

pub type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Next(args) => next::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Info(args) => info::run(args),
        Command::Score(args) => score::run(args),
        Command::Play(args) => play::run(args),
        Command::GuessMine(args) => guess_mine::run(args),
        Command::Challenge(args) => challenge::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Export(args) => export::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("mmlookup: error: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Message(message)) => {
            eprintln!("mmlookup: error: {message}");
            ExitCode::FAILURE
        }
        Err(Failure::Reported) => ExitCode::FAILURE,
    }
}
