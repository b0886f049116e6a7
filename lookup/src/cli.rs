//! What `mmlookup` and `mmgen` share as command-line programs (feature `cli`): one
//! way to end (errors are one line, `PROGRAM: error: ...`, exit status 1; a closed
//! pipe such as `| head` is not an error; clap's own usage errors exit 2), and the
//! `completions` and `man` subcommands, generated from the programs' own clap
//! definitions so they never drift from the real options.
//!
//! The library proper knows nothing of command lines; this module exists only so
//! that the two binaries do not each keep a copy of it.

use std::io::{self, Write};
use std::process::ExitCode;

/// A failure: what to print and how to exit.
#[derive(Debug)]
pub enum Failure {
    /// Print this line to stderr, exit 1.
    Message(String),
    /// Already reported (e.g. a JSON audit result on stdout); exit 1.
    Reported,
    /// Output failed; a closed pipe ends quietly with success.
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

impl From<crate::format::FormatError> for Failure {
    fn from(e: crate::format::FormatError) -> Failure {
        Failure::Message(e.to_string())
    }
}

/// What a subcommand returns.
pub type Outcome = Result<(), Failure>;

/// Prints the failure, if any, and gives the exit code.
pub fn finish(program: &str, outcome: Outcome) -> ExitCode {
    let message = match outcome {
        Ok(()) => return ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
        Err(Failure::Reported) => return ExitCode::FAILURE,
        Err(Failure::Io(e)) => e.to_string(),
        Err(Failure::Message(message)) => message,
    };
    eprintln!("{program}: error: {message}");
    ExitCode::FAILURE
}

/// A JSON report: the tree's [`crate::format::Summary`] and the fields `extra` (an
/// object) particular to one command.
pub fn report(summary: &crate::format::Summary, extra: serde_json::Value) -> serde_json::Value {
    let mut report = serde_json::to_value(summary).unwrap_or_default();
    if let (Some(report), serde_json::Value::Object(extra)) = (report.as_object_mut(), extra) {
        report.extend(extra);
    }
    report
}

/// A board named on the command line, each part optional (where the board can also
/// come from elsewhere: a tree, a JSON document, or the classic default).
#[derive(clap::Args)]
pub struct BoardFlags {
    /// Pegs per code (1-8).
    #[arg(long)]
    pub pegs: Option<u32>,
    /// Colours (2-16).
    #[arg(long)]
    pub colors: Option<u32>,
    /// No repeated colours (Bulls and Cows: --pegs 4 --colors 10 --no-repeat).
    #[arg(long)]
    pub no_repeat: bool,
}

impl BoardFlags {
    /// Whether any flag was given.
    pub fn given(&self) -> bool {
        self.pegs.is_some() || self.colors.is_some() || self.no_repeat
    }

    /// The board, with the classic 4 pegs and 6 colours for what is not given.
    pub fn board(&self) -> Result<crate::Board, String> {
        crate::Board::new(
            self.pegs.unwrap_or(4),
            self.colors.unwrap_or(6),
            !self.no_repeat,
        )
        .map_err(|e| e.to_string())
    }
}

/// `completions SHELL`: a completion script for the shell, on stdout.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Prints the completion script of `command` for `args.shell`.
pub fn completions(mut command: clap::Command, args: &CompletionsArgs) -> Outcome {
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    io::stdout().lock().write_all(&script)?;
    Ok(())
}

/// `man [SUBCOMMAND]`: the manual page in roff, on stdout.
#[derive(clap::Args)]
pub struct ManArgs {
    /// A subcommand's own page (default: the program's page).
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "list")]
    subcommand: Option<String>,
    /// List the subcommands that have a page, one a line.
    #[arg(long)]
    list: bool,
}

/// Prints the manual page of `command`, or of one of its subcommands.
pub fn man(command: clap::Command, args: &ManArgs) -> Outcome {
    let name = command.get_name().to_string();
    let version = command.get_version().unwrap_or_default().to_string();
    if args.list {
        let mut out = io::stdout().lock();
        for sub in command.get_subcommands() {
            writeln!(out, "{}", sub.get_name())?;
        }
        return Ok(());
    }
    let page = match &args.subcommand {
        None => command,
        Some(sub) => {
            let names: Vec<String> = command
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            command
                .find_subcommand(sub)
                .cloned()
                .ok_or_else(|| format!("no subcommand {sub}; there are {}", names.join(", ")))?
                .name(format!("{name}-{sub}"))
                .version(version)
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    io::stdout().lock().write_all(&roff)?;
    Ok(())
}
