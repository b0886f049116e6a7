//! `mmlookup challenge`: the computer hides a secret, the user guesses it, and the
//! tree's own game for that secret is the score to beat.

use crate::session::{parse, plural, unknown_word, Console, Example, Input, Session};
use crate::{source, Outcome};
use lookup::play::solve;
use lookup::score::score;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// Pick the secret from this seed (the same seed, the same secret).
    #[arg(long)]
    seed: Option<u64>,
}

/// SplitMix64: one well-mixed number from a seed. A game needs one random pick,
/// reproducible from the seed; nothing here calls for a cryptographic generator.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub fn run(args: &Args) -> Outcome {
    let tree = source::open(args.tree.as_deref())?;
    let mut game = Session::new(&tree)?;
    let board = game.board();
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let index = (splitmix64(seed) % u64::from(board.code_count())) as u32;
    let secret = board.code(index).ok_or("no code")?;
    let mut console = Console::stdio();
    console.say(&format!(
        "I have hidden a secret on the {} board (seed {seed}). Type your guesses; hint asks the tree, \
         moves shows your game, quit reveals the secret.",
        board.name()
    ))?;
    while let Some(line) = console.read("guess> ")? {
        match parse(&board, &line) {
            Ok(
                Input::Guess(guess)
                | Input::Move {
                    guess: Some(guess), ..
                },
            ) => {
                let answer = score(guess, secret, board.pegs());
                game.play(Some(guess), answer)?;
                console.say(&format!("{} {answer}", board.display(guess)))?;
                if game.is_won() {
                    let yours = game.moves().len();
                    let trees = solve(&tree, secret, |_, _| ()).map_err(|e| e.to_string())?;
                    let verdict = match yours.cmp(&(trees as usize)) {
                        std::cmp::Ordering::Less => "you beat the tree",
                        std::cmp::Ordering::Equal => "a tie with the tree",
                        std::cmp::Ordering::Greater => "the tree was faster",
                    };
                    let guesses = |n: usize| plural(n as u64, "guess", "guesses");
                    console.say(&format!(
                        "You found {} in {}; the tree needs {} for this secret: {verdict}.",
                        board.display(secret),
                        guesses(yours),
                        guesses(trees as usize)
                    ))?;
                    return Ok(());
                }
            }
            Ok(Input::Command(word, number)) => match word.as_str() {
                "hint" | "h" | "?" => console.say(&game.say_hint())?,
                "moves" | "m" => console.say(&game.describe_moves())?,
                "show" | "s" => match game.describe_candidates(number) {
                    Ok(text) | Err(text) => console.say(&text)?,
                },
                "quit" | "q" | "exit" => {
                    console.say(&format!("The secret was {}.", board.display(secret)))?;
                    return Ok(());
                }
                other => console.say(&unknown_word(
                    &board,
                    other,
                    &format!(
                        "a guess (e.g. {}), hint, moves, show or quit",
                        Example::of(board).code
                    ),
                ))?,
            },
            Ok(Input::Move { guess: None, .. }) => {
                console.say("type a guess: I give the answers here")?
            }
            Ok(Input::Empty) => {}
            Err(message) => console.say(&message)?,
        }
    }
    console.say(&format!("The secret was {}.", board.display(secret)))?;
    Ok(())
}
