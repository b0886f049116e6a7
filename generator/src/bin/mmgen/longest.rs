//! `mmgen longest`: the longest game a consistent guesser can be forced into
//! (see the library's `longest` module).

use crate::args::BoardArgs;
use generator::longest::longest;
use generator::Stop;
use lookup::cli::Outcome;
use lookup::hint::plural;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(
    after_help = "A consistent guesser only plays codes the answers so far allow; the longest
game is the unluckiest such player's against the secret that lasts longest (the
winning guess counted). Proven: every game one guess longer is searched, and none
is found.

Examples:
  mmgen longest                                 4x6: 10 guesses
  mmgen longest --pegs 4 --colors 5 --json
  mmgen longest --pegs 4 --colors 10 --no-repeat
  mmgen longest --pegs 5 --colors 7 --time-limit 600"
)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Memory for the sets shown too short, in MiB (the table starts again when
    /// full: the answer is the same, found with more search).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    cache_mib: usize,
    /// Give up after this many seconds: an error that names the longest game
    /// found so far (not proven the longest).
    #[arg(long, value_name = "SECONDS", value_parser = lookup::cli::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Outcome {
    let board = args.board.board()?;
    let deadline = (args.time_limit).map(|s| Instant::now() + Duration::from_secs_f64(s));
    let found = longest(board, args.cache_mib << 20, &Stop::at(deadline));
    let show = |code| board.display(code).to_string();
    let n = found.game.len();
    if !found.proven {
        let game: Vec<String> = (found.game.iter())
            .map(|&(guess, answer)| format!("{}:{answer}", show(guess)))
            .collect();
        return Err(format!(
            "no proof within the time limit of {} s: a consistent game of {} was found ({}), and one of {} is not ruled out",
            args.time_limit.unwrap_or_default(),
            plural(n as u64, "guess", "guesses"),
            game.join(" "),
            n + 1
        )
        .into());
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let game: Vec<_> = (found.game.iter())
            .map(|&(guess, answer)| serde_json::json!([show(guess), answer.to_string()]))
            .collect();
        let object = serde_json::json!({"guesses": n, "game": game, "sets": found.sets});
        writeln!(out, "{object}")?;
        return Ok(());
    }
    writeln!(
        out,
        "longest game of consistent guesses on {}x{}{}: {}, and none takes {} ({} looked at)",
        board.pegs(),
        board.colors(),
        if board.repeat() {
            ""
        } else {
            " without repeats"
        },
        plural(n as u64, "guess", "guesses"),
        n + 1,
        plural(found.sets, "set of secrets", "sets of secrets"),
    )?;
    for (guess, answer) in &found.game {
        writeln!(out, "{}  {answer}", show(*guess))?;
    }
    Ok(())
}
