//! `mmlookup play`: an assistant for a game the user plays against someone else. It
//! follows the game from what the user types and always has the next guess ready.

use crate::session::{parse, unknown_word, Console, Example, Input, Session};
use crate::{source, Outcome};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Type what you played and its answer (1122 1 0, 1122:1,0, 1122 10, 1122 b1 w0),
or the answer alone if you played the hint; help lists the commands."
)]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
}

/// The help text, with examples made from the board in use.
fn help(example: &Example) -> String {
    let (code, b, w) = (&example.code, example.black, example.white);
    format!(
        "Type what you played and the answer you got, in any of these forms:
  {code} {b} {w}    {code}:{b},{w}    {code} {b}{w}    {code} b{b} w{w}
or just the answer ({b} {w}, {b}{w}, b{b} w{w}) if you played the hint. Commands:
  hint        the next guess and how many secrets are still possible
  show [N]    the secrets still possible (page N)
  moves       the game so far
  back, undo  take back the last move
  new         start a new game
  help        this text
  quit        leave"
    )
}

pub fn run(args: &Args) -> Outcome {
    let tree = source::open(args.tree.as_deref())?;
    let mut game = Session::new(&tree)?;
    let board = game.board();
    let mut console = Console::stdio();
    let strategy = tree.meta().map(|m| m.strategy.name).unwrap_or_default();
    let example = Example::of(board);
    console.say(&format!(
        "Mastermind assistant, {} board, {strategy} tree. Type your guess and its answer ({}), \
         or just the answer if you played the hint; help lists the commands.",
        board.name(),
        example.typed()
    ))?;
    say_hint(&mut console, &game)?;
    while let Some(line) = console.read("> ")? {
        match parse(&board, &line) {
            Err(message) => console.say(&message)?,
            Ok(Input::Empty) => {}
            Ok(Input::Guess(code)) => console.say(&format!(
                "what answer did {0} get? type it as {0} B W, e.g. {0} {1}",
                board.display(code),
                example.answer()
            ))?,
            Ok(Input::Move { guess, answer }) => match game.play(guess, answer) {
                Ok(m) => {
                    let n = game.moves().len();
                    console.say(&format!(
                        "move {n}: {} {}",
                        board.display(m.guess),
                        m.answer
                    ))?;
                    if game.is_won() {
                        let solved = crate::session::solved_in(n);
                        console.say(&format!("{solved}. new starts another game."))?;
                    } else {
                        say_hint(&mut console, &game)?;
                    }
                }
                Err(message) => console.say(&message)?,
            },
            Ok(Input::Command(word, number)) => match word.as_str() {
                "hint" | "h" | "?" => say_hint(&mut console, &game)?,
                "show" | "s" => match game.describe_candidates(number) {
                    Ok(text) | Err(text) => console.say(&text)?,
                },
                "moves" | "m" => console.say(&game.describe_moves())?,
                "back" | "undo" | "u" => match game.undo() {
                    Some(m) => {
                        console.say(&format!(
                            "took back {} {}",
                            board.display(m.guess),
                            m.answer
                        ))?;
                        say_hint(&mut console, &game)?;
                    }
                    None => console.say("nothing to take back")?,
                },
                "new" | "n" => {
                    game.restart();
                    console.say("new game")?;
                    say_hint(&mut console, &game)?;
                }
                "help" => console.say(&help(&example))?,
                "quit" | "q" | "exit" => break,
                other => console.say(&unknown_word(&board, other, "help for the commands"))?,
            },
        }
    }
    Ok(())
}

fn say_hint<D: AsRef<[u8]>, R: std::io::BufRead, W: std::io::Write>(
    console: &mut Console<R, W>,
    game: &Session<D>,
) -> Outcome {
    console.say(&game.say_hint())?;
    Ok(())
}
