//! `mmlookup guess-mine`: the user thinks of a secret and the computer guesses it
//! from the tree, asking for the answer to each guess.

use crate::session::{parse, plural, Console, Example, Hint, Input, Session};
use crate::{source, Outcome};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
}

pub fn run(args: &Args) -> Outcome {
    let tree = source::open(args.tree.as_deref())?;
    let mut game = Session::new(&tree)?;
    let board = game.board();
    let mut console = Console::stdio();
    let repeats = if board.repeat() {
        "repeats allowed"
    } else {
        "no repeated colours"
    };
    let example = Example::of(board).answer();
    console.say(&format!(
        "Think of a secret of {} pegs (colours {}, {repeats}). I will guess it; answer each \
         guess with blacks and whites (e.g. {example}). back takes back your last answer, quit gives up.",
        board.pegs(),
        board.color_range()
    ))?;
    loop {
        let guess = match game.hint().map_err(crate::Failure::from)? {
            Hint::Solved { guesses } => {
                let guesses = plural(guesses as u64, "guess", "guesses");
                console.say(&format!("Found it in {guesses}:"))?;
                console.say(&game.describe_moves())?;
                return Ok(());
            }
            hint => hint.guess().ok_or("no guess")?,
        };
        console.say(&format!(
            "guess {}: {}",
            game.moves().len() + 1,
            board.display(guess)
        ))?;
        let Some(line) = console.read("your answer> ")? else {
            console.say("no answer: stopping")?;
            return Ok(());
        };
        match parse(&board, &line) {
            Ok(Input::Move {
                guess: played,
                answer,
            }) if played.is_none_or(|p| p == guess) => {
                if let Err(message) = game.play(Some(guess), answer) {
                    console.say(&format!("That cannot be right: {message}."))?;
                    console.say(&format!("The game so far:\n{}", game.describe_moves()))?;
                    console.say(
                        "Answer this guess again, or type back to correct an earlier answer.",
                    )?;
                }
            }
            Ok(Input::Move { .. } | Input::Guess(_)) => console.say(&format!(
                "I guessed {}: type just its answer, e.g. {example}",
                board.display(guess)
            ))?,
            Ok(Input::Command(word, _)) => match word.as_str() {
                "back" | "undo" | "u" => match game.undo() {
                    Some(m) => console.say(&format!(
                        "took back your answer {} to {}",
                        m.answer,
                        board.display(m.guess)
                    ))?,
                    None => console.say("nothing to take back")?,
                },
                "moves" | "m" => console.say(&game.describe_moves())?,
                "quit" | "q" | "exit" => {
                    console.say(&format!("Giving up after:\n{}", game.describe_moves()))?;
                    return Ok(());
                }
                other => console.say(&format!(
                    "unknown command '{}': answer with blacks and whites (e.g. {example}), or back, moves, quit",
                    crate::session::quoted(other)
                ))?,
            },
            Ok(Input::Empty) => {}
            Err(message) => console.say(&message)?,
        }
    }
}
