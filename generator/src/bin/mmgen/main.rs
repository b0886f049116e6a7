//! `mmgen`: builds complete strategy trees for a board.
//!
//! `mmgen [OPTIONS] --out FILE` builds one tree and writes it; `mmgen compare` builds
//! every strategy for a board and prints them side by side; `mmgen import` turns a
//! JSON tree into a tree file; `mmgen value` gives the exact value of any position;
//! `mmgen longest` the longest game of consistent guesses.
//! Errors are one line on stderr and exit status 1
//! (usage errors: clap's message and exit status 2), see [`lookup::cli`].

mod args;
mod checkpoint;
mod cluster;
mod compare;
mod generate;
mod import;
mod longest;
mod plot;
mod value;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Build complete Mastermind strategy trees.
#[derive(Parser)]
#[command(
    name = "mmgen",
    version,
    after_help = NOTATION,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: generate::Args,
}

/// How codes are written, and examples.
const NOTATION: &str = "\
Codes (for --first): one character per peg. With up to 9 colours the colours
are 1..C (1122 on the classic 4x6 board); with 10 to 16 they are hexadecimal
0..9, a..f (0123 in Bulls and Cows).

The tree file is written to a temporary name and renamed; an existing file that
is not a tree is never replaced without --force. Errors are one line on stderr
with exit status 1; usage errors exit 2.

Examples:
  mmgen --pegs 4 --colors 6 --strategy knuth --out knuth.mmt
  mmgen --pegs 4 --colors 6 --strategy optimal --max-depth 5 --out best5.mmt
  mmgen --pegs 5 --colors 6 --strategy entropy --rollout-above 100 --out rollout.mmt
  mmgen --pegs 4 --colors 10 --no-repeat --strategy optimal --out bulls.mmt
  mmgen --pegs 5 --colors 8 --strategy optimal --time-limit 600 --out 5x8.mmt
  mmgen compare --pegs 4 --colors 6
  mmgen import tree.json --out imported.mmt
  mmgen value 1111:0,0 --guess 2222
  mmgen longest --pegs 4 --colors 5";

#[derive(Subcommand)]
enum Command {
    /// Build every strategy for a board and compare them in one table.
    Compare(compare::Args),
    /// Write a tree file from a JSON tree (as `mmlookup export --format json` prints).
    Import(import::Args),
    /// Plan a tree as work items in a folder (for a cluster: Slurm scripts included).
    Plan(cluster::PlanArgs),
    /// Build the subtrees of work items of a plan (items already done are skipped).
    SolveClass(cluster::SolveArgs),
    /// A plan's work items: done, missing, damaged, and the time left.
    Status(cluster::StatusArgs),
    /// Merge a plan's items into one tree file, byte-identical to a single run.
    Merge(cluster::MergeArgs),
    /// The exact value of a position, on a tree's line or off it: the least total
    /// guesses from there, the optimal next guess, and what other guesses cost.
    Value(value::Args),
    /// The longest game a consistent guesser can be forced into, proven by
    /// searching every game one guess longer.
    Longest(longest::Args),
    /// A shell completion script (bash, elvish, fish, powershell, zsh).
    Completions(lookup::cli::CompletionsArgs),
    /// The manual page (roff), of mmgen or of one subcommand.
    Man(lookup::cli::ManArgs),
}

fn main() -> ExitCode {
    let cli: Cli = lookup::cli::parse("mmgen");
    let outcome = match &cli.command {
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Import(args)) => import::run(args),
        Some(Command::Plan(args)) => cluster::plan(args),
        Some(Command::SolveClass(args)) => cluster::solve(args),
        Some(Command::Status(args)) => cluster::status(args),
        Some(Command::Merge(args)) => cluster::merge(args),
        Some(Command::Value(args)) => value::run(args),
        Some(Command::Longest(args)) => longest::run(args),
        Some(Command::Completions(args)) => lookup::cli::completions(Cli::command(), args),
        Some(Command::Man(args)) => lookup::cli::man(Cli::command(), args),
        None => generate::run(&cli.generate),
    };
    lookup::cli::finish("mmgen", outcome)
}
