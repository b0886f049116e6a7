//! What `mmlookup`, `mmgen` and `mmcheck` share as command-line programs (feature `cli`): one
//! error rule (every error is one line on stderr, `PROGRAM: error: ...`; a usage
//! error, an out-of-range value included, exits 2 and names the help to read;
//! anything else exits 1; a closed pipe such as `| head` is not an error), the
//! parsers of the values whose range is known before any work, and the
//! `completions` and `man` subcommands, generated from the programs' own clap
//! definitions so they never drift from the real options.
//!
//! The library proper knows nothing of command lines; this module exists only so
//! that the binaries do not each keep a copy of it.

use std::io::{self, Write};
use std::process::ExitCode;

/// A failure: what to print and how to exit.
#[derive(Debug)]
pub enum Failure {
    /// Print this line to stderr, exit 1.
    Message(String),
    /// A usage error found after parsing (values out of range together, such as
    /// a task number past the tasks): print this line, exit 2.
    Usage(String),
    /// Already reported (e.g. a JSON audit result on stdout); exit 1.
    Reported,
    /// Writing to standard output failed; a closed pipe ends quietly with success.
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

/// Parses the command line; a usage error is one line with the help to read, and
/// exit status 2 (`--help` and `--version` print as clap prints them).
pub fn parse<P: clap::Parser>(program: &str) -> P {
    match P::try_parse() {
        Ok(parsed) => parsed,
        // Nothing asked (clap would print the whole help as the error).
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("{program}: error: no command given (see {program} --help)");
            std::process::exit(2)
        }
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!(
                "{program}: error: {}",
                usage_line(&e.render().to_string(), program)
            );
            std::process::exit(2)
        }
    }
}

/// clap's rendered usage error as one line: its message (tips joined on), then the
/// help of the command it concerns, named from clap's usage line.
fn usage_line(rendered: &str, program: &str) -> String {
    // The message and its tips come first, then the usage lines.
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let message: Vec<&str> = lines
        .by_ref()
        .take_while(|l| !l.starts_with("Usage: "))
        .filter(|l| !l.starts_with("For more information"))
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect();
    let command = rendered
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(|usage| {
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect();
            words.join(" ")
        })
        .unwrap_or_else(|| program.to_string());
    // A line that ends in a colon introduces the next ("were not provided: --out").
    let mut joined = String::new();
    for line in message {
        if !joined.is_empty() {
            joined += if joined.ends_with(':') { " " } else { "; " };
        }
        joined += line;
    }
    format!("{joined} (see {command} --help)")
}

/// `--pegs`: 1 to 8.
pub fn pegs(text: &str) -> Result<u32, String> {
    in_range(text, 1, 8, "pegs")
}

/// `--colors`: 2 to 16.
pub fn colors(text: &str) -> Result<u32, String> {
    in_range(text, 2, 16, "colours")
}

/// The most worker threads `--threads` takes: far more than cores only adds
/// switching (BENCHMARKS.md, tuning).
pub const MAX_THREADS: usize = 256;

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!("give 0 (one per core) to {MAX_THREADS} threads")),
    }
}

/// A count of at least one (array tasks, a plan's depth).
pub fn at_least_one<T: TryFrom<u32>>(text: &str) -> Result<T, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => T::try_from(n).map_err(|_| "too large".into()),
        _ => Err("give a whole number, at least 1".into()),
    }
}

fn in_range(text: &str, low: u32, high: u32, what: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!("give {low} to {high} {what}")),
    }
}

/// A number of seconds: finite, not negative (fractions allowed).
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err("give a number of seconds, 0 or more".into()),
    }
}

/// A period in seconds: finite and above 0.
pub fn period(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err("give a number of seconds above 0".into()),
    }
}

/// Prints the failure, if any, and gives the exit code.
pub fn finish(program: &str, outcome: Outcome) -> ExitCode {
    let message = match outcome {
        Ok(()) => return ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("{program}: error: {message}");
            return ExitCode::from(2);
        }
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
        Err(Failure::Reported) => return ExitCode::FAILURE,
        Err(Failure::Io(e)) => format!("cannot write to standard output: {e}"),
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
    #[arg(long, value_parser = pegs)]
    pub pegs: Option<u32>,
    /// Colours (2-16).
    #[arg(long, value_parser = colors)]
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
            // Titled `mmlookup-next` (the page's file name), used as `mmlookup
            // next`; no version here: a subcommand takes no --version.
            command
                .find_subcommand(sub)
                .cloned()
                .ok_or_else(|| format!("no subcommand {sub}; there are {}", names.join(", ")))?
                .name(format!("{name}-{sub}"))
                .bin_name(format!("{name} {sub}"))
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .source(format!("{name} {version}"))
        .render(&mut roff)?;
    io::stdout().lock().write_all(&roff)?;
    Ok(())
}
