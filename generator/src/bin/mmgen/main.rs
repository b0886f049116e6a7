//! `mmgen`: builds complete strategy trees for a board.
//!
//! `mmgen [OPTIONS] --out FILE` builds one tree and writes it; `mmgen compare` builds
//! every strategy for a board and prints them side by side; `mmgen import` turns a
//! JSON tree into a tree file. Errors are one line on
//! stderr and exit status 1.

mod args;
mod compare;
mod generate;
mod import;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Build complete Mastermind strategy trees.
#[derive(Parser)]
#[command(
    name = "mmgen",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: generate::Args,
}

#[derive(Subcommand)]
enum Command {
    /// Build every strategy for a board and compare them in one table.
    Compare(compare::Args),
    /// Write a tree file from a JSON tree (as `mmlookup export --format json` prints).
    Import(import::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Import(args)) => import::run(args),
        None => generate::run(&cli.generate),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mmgen: error: {message}");
            ExitCode::FAILURE
        }
    }
}
