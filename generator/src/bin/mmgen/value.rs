//! `mmgen value`: the exact value of any position, on an optimal tree's line or
//! off it, and what given next guesses cost (see the library's `value` module).

use crate::args::BoardArgs;
use generator::value::{Oracle, Value, Worst, STOPPED};
use lookup::cli::Outcome;
use lookup::hint::{parse_moves, plural};
use lookup::Board;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(
    after_help = "A move is GUESS:B,W: the code played and its answer, black pegs then white.
Totals count, for each secret still possible, the guesses from the next one to
the win, that one included (so the start's is the board's optimum).

Examples:
  mmgen value                                  the classic start: 5625, play 1123
  mmgen value --worst                          ... and 5 guesses always suffice (5626)
  mmgen value 1122:1,0 1111:0,0 --guess 3324   a position off the tree: 3324's regret
  mmgen value --json --pegs 4 --colors 10 --no-repeat 0123:1,1"
)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// Moves played so far, each GUESS:B,W (e.g. 1122:1,0); none: the start.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
    /// Also what this guess costs played next, and how much more than the least
    /// (its regret); may be given more than once.
    #[arg(long = "guess", value_name = "CODE")]
    guesses: Vec<String>,
    /// Also the fewest guesses that always suffice from here (the winning one
    /// counted), and the least total of a strategy that needs no more.
    #[arg(long)]
    worst: bool,
    /// Give up after this many seconds (an error: nothing unproven is printed).
    #[arg(long, value_name = "SECONDS", value_parser = lookup::cli::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write and read colours as letters, R G B Y O P W N, as `mmlookup --letters`
    /// does (boards of up to 8 colours).
    #[arg(long, conflicts_with = "alphabet")]
    letters: bool,
    /// Write and read colours in these symbols, one per colour in order, as
    /// `mmlookup --alphabet` does (ABCDEFG: NetHack's drawbridge tune on 5x7).
    #[arg(long, value_name = "SYMBOLS")]
    alphabet: Option<String>,
}

pub fn run(args: &Args) -> Outcome {
    let board = args.board.board()?;
    let board = match (&args.alphabet, args.letters) {
        (Some(symbols), _) => board.with_alphabet(symbols),
        (None, true) => board.with_letters(),
        (None, false) => Ok(board),
    }
    .map_err(|e| e.to_string())?;
    let moves = parse_moves(&board, args.moves.iter().map(String::as_str))?;
    let asked = (args.guesses.iter())
        .map(|g| board.parse(g).map_err(|e| format!("--guess {g}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let deadline = args
        .time_limit
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    let oracle = Oracle::new(board, deadline);
    let timed = |e: String| match (e == STOPPED, args.time_limit) {
        (true, Some(s)) => format!("no answer within the time limit of {s} s"),
        _ => e,
    };
    let value = oracle.value(&moves, &asked).map_err(timed)?;
    let worst = match args.worst {
        true => Some(oracle.worst(&moves).map_err(timed)?),
        false => None,
    };
    let text = match args.json {
        true => json(&board, moves.len(), &value, worst),
        false => text(&board, moves.len(), &value, worst),
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

fn text(board: &Board, moves: usize, value: &Value, worst: Option<Worst>) -> String {
    let show = |code| board.display(code).to_string();
    let n = value.secrets;
    let mut out = match moves {
        0 => format!(
            "at the start: {} possible\n",
            plural(n as u64, "secret", "secrets")
        ),
        k => format!(
            "after {}: {} still possible\n",
            plural(k as u64, "move", "moves"),
            plural(n as u64, "secret", "secrets")
        ),
    };
    out += &format!(
        "least total: {} for them ({:.4} a secret, the winning guess counted), proven by exact search\n",
        plural(value.least, "guess", "guesses"),
        value.average()
    );
    out += &format!("optimal next guess: {}\n", show(value.best));
    if let Some(worst) = worst {
        out += &format!(
            "fewest guesses that always suffice: {} (the least total within them: {})\n",
            worst.guesses, worst.least
        );
    }
    for &(code, total) in &value.asked {
        let over = total - value.least;
        out += &match over {
            0 => format!("{} next: {total}, the least\n", show(code)),
            _ => format!(
                "{} next: {total}, {over} more ({:.4} a secret)\n",
                show(code),
                over as f64 / n as f64
            ),
        };
    }
    out
}

fn json(board: &Board, moves: usize, value: &Value, worst: Option<Worst>) -> String {
    let show = |code| board.display(code).to_string();
    let guesses: Vec<_> = (value.asked.iter())
        .map(|&(code, total)| {
            serde_json::json!({"guess": show(code), "total": total, "over": total - value.least})
        })
        .collect();
    let mut object = serde_json::json!({
        "moves": moves,
        "secrets": value.secrets,
        "least_total": value.least,
        "average": value.average(),
        "best": show(value.best),
        "guesses": guesses,
    });
    if let Some(worst) = worst {
        object["worst"] = serde_json::json!({"guesses": worst.guesses, "least_total": worst.least});
    }
    format!("{object}\n")
}
