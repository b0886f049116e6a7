//! A game in progress, shared by `play`, `guess-mine` and `challenge`: the moves so
//! far, the secrets still possible, and the next guess, from the tree while the
//! game follows its line and computed live with the tree's own rule once it
//! leaves it. Also the forgiving reader of what players type.

use crate::Failure;
use lookup::hint::{consistent, hint, Live};
pub use lookup::hint::{plural, solved_in, Hint};
use lookup::score::score;
use lookup::{Board, Code, Feedback, Move, Tree};
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

/// A hint in words for the player, with how long a live one took to compute.
fn describe(hint: &Hint, board: Board, took: Duration) -> String {
    let secrets = |n: usize| plural(n as u64, "secret", "secrets");
    match *hint {
        Hint::Tree {
            guess, candidates, ..
        } => format!(
            "hint: {} ({} still possible; from the tree)",
            board.display(guess),
            secrets(candidates)
        ),
        Hint::Live {
            guess,
            candidates,
            rule,
        } => format!(
            "hint: {} ({} still possible; off the tree's line, so computed live with the {} rule in {:.1} ms)",
            board.display(guess),
            secrets(candidates),
            rule.name(),
            took.as_secs_f64() * 1000.0
        ),
        Hint::Solved { guesses } => solved_in(guesses),
    }
}

/// One game against a tree.
pub struct Session<'t, D> {
    tree: &'t Tree<D>,
    board: Board,
    /// How guesses are computed off the tree's line.
    live: Live,
    moves: Vec<Move>,
    candidates: Vec<Code>,
}

impl<'t, D: AsRef<[u8]>> Session<'t, D> {
    pub fn new(tree: &'t Tree<D>) -> Result<Session<'t, D>, String> {
        let meta = tree.meta().map_err(|e| e.to_string())?;
        let board = tree.board();
        Ok(Session {
            tree,
            board,
            live: Live::of(&meta),
            moves: Vec::new(),
            candidates: board.codes().collect(),
        })
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn is_won(&self) -> bool {
        self.moves
            .last()
            .is_some_and(|m| m.answer.is_win(self.board.pegs()))
    }

    /// The next guess.
    pub fn hint(&self) -> Result<Hint, String> {
        if self.is_won() {
            return Ok(Hint::Solved {
                guesses: self.moves.len(),
            });
        }
        hint(self.tree, self.live, &self.moves, || {
            self.candidates.clone()
        })
    }

    /// The next guess in words, or why there is none.
    pub fn say_hint(&self) -> String {
        let started = Instant::now();
        match self.hint() {
            Ok(hint) => describe(&hint, self.board, started.elapsed()),
            Err(message) => format!("no hint: {message}"),
        }
    }

    /// Records a move; `None` plays the hint. Refuses, changing nothing, a move that
    /// no secret can answer that way, saying which earlier move it contradicts.
    pub fn play(&mut self, guess: Option<Code>, answer: Feedback) -> Result<Move, String> {
        if self.is_won() {
            return Err("this game is already won: type new for another, or back".into());
        }
        let guess = match guess {
            Some(guess) => guess,
            None => self.hint()?.guess().ok_or("this game is already won")?,
        };
        let pegs = self.board.pegs();
        let remaining: Vec<Code> = self
            .candidates
            .iter()
            .copied()
            .filter(|&s| score(guess, s, pegs) == answer)
            .collect();
        let m = Move { guess, answer };
        if remaining.is_empty() {
            return Err(self.contradiction(m));
        }
        self.moves.push(m);
        self.candidates = remaining;
        Ok(m)
    }

    /// Why `m` cannot follow the moves so far.
    fn contradiction(&self, m: Move) -> String {
        let b = self.board;
        let new = format!("{} {}", b.display(m.guess), m.answer);
        let fits = |moves: &[Move]| {
            b.codes().any(|s| {
                moves
                    .iter()
                    .chain([&m])
                    .all(|x| score(x.guess, s, b.pegs()) == x.answer)
            })
        };
        if !fits(&[]) {
            return format!("no secret gives {new}: refused, nothing changed");
        }
        let k = (1..=self.moves.len())
            .find(|&k| !fits(&self.moves[..k]))
            .unwrap_or(self.moves.len());
        let old = self.moves[k - 1];
        format!(
            "{new} contradicts move {k} ({} {}){}: no secret fits both; refused, nothing changed",
            b.display(old.guess),
            old.answer,
            if k > 1 {
                " with the moves before it"
            } else {
                ""
            }
        )
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.candidates = consistent(self.board, &self.moves);
        Some(m)
    }

    pub fn restart(&mut self) {
        self.moves.clear();
        self.candidates = self.board.codes().collect();
    }

    /// The moves, one per line.
    pub fn describe_moves(&self) -> String {
        if self.moves.is_empty() {
            return "no moves yet".into();
        }
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{}. {} {}", i + 1, self.board.display(m.guess), m.answer))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Page `page` (from 1; the first if `None`) of the secrets still possible, or
    /// why there is no such page.
    pub fn describe_candidates(&self, page: Option<usize>) -> Result<String, String> {
        const PER_LINE: usize = 12;
        const PER_PAGE: usize = PER_LINE * 10;
        let pages = self.candidates.len().div_ceil(PER_PAGE).max(1);
        let page = match page {
            None => 1,
            Some(p) if (1..=pages).contains(&p) => p,
            Some(p) if pages == 1 => return Err(format!("no page {p}: show alone lists them all")),
            Some(p) => return Err(format!("no page {p}: show 1 to {pages}")),
        };
        let mut text = format!("{} still possible", self.candidates.len());
        if pages > 1 {
            text.push_str(&format!(
                " (page {page} of {pages}; show {} for more)",
                page % pages + 1
            ));
        }
        let shown = self
            .candidates
            .iter()
            .skip((page - 1) * PER_PAGE)
            .take(PER_PAGE);
        let codes: Vec<String> = shown.map(|&c| self.board.display(c).to_string()).collect();
        for line in codes.chunks(PER_LINE) {
            text.push('\n');
            text.push_str(&line.join(" "));
        }
        Ok(text)
    }
}

/// A code and an answer it can get, made from the board in use, for examples in
/// prompts and help: colours in pairs where they may repeat (`1122`, `11223`), in
/// order where they may not (`1234`, `0123`); the answer it gets against the
/// board's middle code, so one the board can give.
pub struct Example {
    pub code: String,
    pub black: u8,
    pub white: u8,
}

impl Example {
    pub fn of(board: Board) -> Example {
        let colors: Vec<u8> = (0..board.pegs() as u8)
            .map(|i| if board.repeat() { i / 2 } else { i })
            .collect();
        let code = Code::from_colors(&colors);
        let middle = board.code(board.code_count() / 2).unwrap_or(code);
        let answer = score(code, middle, board.pegs());
        Example {
            code: board.display(code).to_string(),
            black: answer.black,
            white: answer.white,
        }
    }

    /// The move as typed: `1122 1 0`.
    pub fn typed(&self) -> String {
        format!("{} {} {}", self.code, self.black, self.white)
    }

    /// The answer alone: `1 0`.
    pub fn answer(&self) -> String {
        format!("{} {}", self.black, self.white)
    }
}

/// What a player typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    Move {
        guess: Option<Code>,
        answer: Feedback,
    },
    Guess(Code),
    Command(String, Option<usize>),
    Empty,
}

/// Reads a line in any of the forms players use: `1122 1 0`, `1122:1,0`, `1122 10`,
/// `1122 b1 w0`, or the answer alone (`1 0`, `10`, `b1 w0`) when they played the
/// hint; a code alone; or a command word, optionally with a number (`show 2`).
pub fn parse(board: &Board, line: &str) -> Result<Input, String> {
    let cleaned = line.trim().to_lowercase().replace([':', ',', ';'], " ");
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(Input::Empty);
    };
    let code = board.parse(first);
    let is_word = first.chars().all(|c| c.is_ascii_alphabetic()) && code.is_err();
    if COMMANDS.contains(&first) || is_word {
        let number = match (words.get(1), first) {
            (None, _) => None,
            (Some(w), "show" | "s") => match (w.parse(), words.len()) {
                (Ok(n), 2) => Some(n),
                _ => {
                    return Err(format!(
                        "'{}': show takes a page number, e.g. show 2",
                        quoted(line)
                    ))
                }
            },
            (Some(_), _) if COMMANDS.contains(&first) => {
                return Err(format!(
                    "'{}': {first} takes nothing after it",
                    quoted(line)
                ))
            }
            (Some(_), _) => None,
        };
        return Ok(Input::Command(first.to_string(), number));
    }
    // A lone two-character word is an answer (10), not a code, on 2-peg boards too.
    // A longer first word, or one as long as a code with more words after it, is
    // meant as a code: if it is not one, say why, as `next` does.
    let meant_as_code = first.len() > 2
        || (words.len() > 1 && first.len() == board.pegs() && !first.starts_with(['b', 'w']));
    let (guess, rest) = match code {
        Ok(code) if words.len() > 1 || first.len() > 2 => (Some(code), &words[1..]),
        Err(e) if meant_as_code => return Err(format!("'{}': {e}", quoted(first))),
        _ => (None, &words[..]),
    };
    if rest.is_empty() {
        return guess.map(Input::Guess).ok_or_else(|| not_understood(line));
    }
    let digits: Vec<&str> = rest
        .iter()
        .map(|w| {
            w.trim_start_matches(['b', 'w'])
                .trim_end_matches(['b', 'w'])
        })
        .collect();
    let text = match digits[..] {
        [both] => both.to_string(),
        [black, white] => format!("{black},{white}"),
        _ => return Err(not_understood(line)),
    };
    let answer = Feedback::parse(&text, board).map_err(|e| format!("'{}': {e}", quoted(line)))?;
    Ok(Input::Move { guess, answer })
}

/// Command words, also the one-letter ones.
const COMMANDS: &[&str] = &[
    "hint", "h", "?", "show", "s", "moves", "m", "back", "undo", "u", "new", "n", "help", "quit",
    "q", "exit",
];

fn not_understood(line: &str) -> String {
    format!(
        "did not understand '{}': type a guess and its answer (GUESS B W), the answer alone if you played the hint (B W), or help",
        quoted(line)
    )
}

/// What the player typed, trimmed, and cut to 40 characters for a message.
pub fn quoted(text: &str) -> String {
    const AT_MOST: usize = 40;
    let text = text.trim();
    match text.char_indices().nth(AT_MOST) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// The message for a word that is no command `commands` (a list in words) knows:
/// for a word as long as a code, why it is not a code of the board.
pub fn unknown_word(board: &Board, word: &str, commands: &str) -> String {
    match board.parse(word) {
        Err(e) if word.chars().count() == board.pegs() => {
            format!("'{}' is not a code: {e}; or type {commands}", quoted(word))
        }
        _ => format!("unknown command '{}'; type {commands}", quoted(word)),
    }
}

/// Reads lines, prompting only when a person is typing.
pub struct Console<R, W> {
    input: R,
    pub out: W,
    prompt: bool,
}

impl Console<io::StdinLock<'static>, io::Stdout> {
    pub fn stdio() -> Self {
        Console {
            input: io::stdin().lock(),
            out: io::stdout(),
            prompt: io::stdin().is_terminal(),
        }
    }
}

impl<R: BufRead, W: Write> Console<R, W> {
    /// The next line, or `None` at the end of input. A line that is not text
    /// (UTF-8) is answered with one error and skipped: the game goes on.
    pub fn read(&mut self, prompt: &str) -> Result<Option<String>, Failure> {
        loop {
            if self.prompt {
                write!(self.out, "{prompt}")?;
                self.out.flush()?;
            }
            let mut bytes = Vec::new();
            let read = self.input.read_until(b'\n', &mut bytes);
            if read.map_err(|e| format!("cannot read standard input: {e}"))? == 0 {
                // Ctrl-D on a terminal: end the prompt's line, so the shell's prompt
                // starts on a line of its own.
                if self.prompt {
                    writeln!(self.out)?;
                }
                return Ok(None);
            }
            match String::from_utf8(bytes) {
                Ok(line) => return Ok(Some(line)),
                Err(_) => self.say("that line is not text (UTF-8); type it again")?,
            }
        }
    }

    pub fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_made_from_the_board_and_are_accepted_by_it() {
        for (pegs, colors, repeat, code) in [
            (4, 6, true, "1122"),
            (5, 8, true, "11223"),
            (4, 10, false, "0123"),
            (4, 5, false, "1234"),
            (2, 2, true, "11"),
        ] {
            let board = Board::new(pegs, colors, repeat).unwrap();
            let example = Example::of(board);
            assert_eq!(example.code, code);
            assert!(
                matches!(
                    parse(&board, &example.typed()),
                    Ok(Input::Move { guess: Some(_), .. })
                ),
                "{}",
                example.typed()
            );
            assert!(
                matches!(
                    parse(&board, &example.answer()),
                    Ok(Input::Move { guess: None, .. })
                ),
                "{}",
                example.answer()
            );
        }
    }

    #[test]
    fn players_forms_all_read_the_same() {
        let b = Board::classic();
        let g = Some(b.parse("1122").unwrap());
        let want = Input::Move {
            guess: g,
            answer: Feedback::new(1, 0),
        };
        for line in [
            "1122 1 0",
            "1122:1,0",
            "1122 10",
            "1122 b1 w0",
            " 1122, 1, 0 ",
            "1122 1b 0w",
        ] {
            assert_eq!(parse(&b, line), Ok(want.clone()), "{line}");
        }
        let hinted = Input::Move {
            guess: None,
            answer: Feedback::new(1, 0),
        };
        for line in ["1 0", "10", "1,0", "b1 w0", "B1 W0"] {
            assert_eq!(parse(&b, line), Ok(hinted.clone()), "{line}");
        }
        assert_eq!(parse(&b, "hint"), Ok(Input::Command("hint".into(), None)));
        assert_eq!(
            parse(&b, "show 2"),
            Ok(Input::Command("show".into(), Some(2)))
        );
        assert_eq!(parse(&b, "   "), Ok(Input::Empty));
        assert_eq!(
            parse(&b, "3632"),
            Ok(Input::Guess(b.parse("3632").unwrap()))
        );
        assert!(parse(&b, "1122 3 1").unwrap_err().contains("cannot occur"));
        assert_eq!(
            parse(&b, "1172 1 0").unwrap_err(),
            "'1172': '7' is not a colour of this board (colours are 1-6)"
        );
        assert_eq!(
            parse(&b, "112 1 0").unwrap_err(),
            "'112': a code has 4 pegs, this one has 3"
        );
        assert!(parse(&b, "1122 1 2 3")
            .unwrap_err()
            .contains("did not understand"));
    }
}
