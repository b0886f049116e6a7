//! `mmlookup challenge`: the computer hides a secret, the user guesses it, and the
//! tree's own game for that secret is the score to beat.

use crate::session::{self, parse, plural, unknown_word, Console, Example, Input, Session};
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
    let example = Example::of(board).code;
    let not_a_guess = |line: &str| {
        format!(
            "'{}' is not a guess: a guess is {} colours (e.g. {example}); I give the answers here",
            session::quoted(line.trim()),
            board.pegs()
        )
    };
    while let Some(line) = console.read("guess> ")? {
        match parse(&board, &line) {
            Ok(Input::Move {
                guess: Some(guess),
                answer: typed,
            }) => {
                // A guess with an answer typed after it: the guess is played, the
                // typed answer is not (the secret answers), and that is said.
                let answer = score(guess, secret, board.pegs());
                game.play(Some(guess), answer)?;
                console.say(&format!(
                    "{} {answer} (the answer is mine to give: {typed} was not used)",
                    board.display(guess)
                ))?;
                if game.is_won() {
                    return finish(&mut console, &tree, &game, secret);
                }
            }
            Ok(Input::Guess(guess)) => {
                let answer = score(guess, secret, board.pegs());
                game.play(Some(guess), answer)?;
                console.say(&format!("{} {answer}", board.display(guess)))?;
                if game.is_won() {
                    return finish(&mut console, &tree, &game, secret);
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
                    &format!("a guess (e.g. {example}), hint, moves, show or quit"),
                ))?,
            },
            // An answer alone (`1 0`, or `99`, which is no answer either): the
            // player answers nothing here, so it is a guess mistyped.
            Ok(Input::Move { guess: None, .. }) => console.say(&not_a_guess(&line))?,
            Err(_) if looks_like_an_answer(&line) => console.say(&not_a_guess(&line))?,
            Ok(Input::Empty) => {}
            Err(message) => console.say(&message)?,
        }
    }
    console.say(&format!("The secret was {}.", board.display(secret)))?;
    Ok(())
}

/// The game is won: how it compares with the tree's game for the same secret.
fn finish<D: AsRef<[u8]>>(
    console: &mut Console<std::io::StdinLock<'static>, std::io::Stdout>,
    tree: &lookup::Tree<D>,
    game: &Session<D>,
    secret: lookup::Code,
) -> Outcome {
    let board = game.board();
    let yours = game.moves().len();
    let trees = solve(tree, secret, |_, _| ()).map_err(|e| e.to_string())?;
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
    Ok(())
}

/// Whether `line` starts the way an answer does: one or two characters of digits
/// (and the b and w of `b1 w0`), not a code or a word.
fn looks_like_an_answer(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    first.len() <= 2
        && first
            .chars()
            .all(|c| c.is_ascii_digit() || c == 'b' || c == 'w')
}
