//! The exact value of any position of a game: how many guesses the secrets still
//! possible need at the least from there, which guess an optimal strategy plays
//! next, what any other next guess costs, and the fewest guesses that always
//! suffice from there.
//!
//! A tree answers only the positions on its own line: once a player or an agent
//! guesses otherwise, the lookup computes a hint with a rule, which is quick and
//! not optimal. A researcher scoring an agent move by move needs the optimum of
//! every position the agent reaches, and what its move gave up (its *regret*):
//! that takes the exact search, run on the secrets the moves leave. [`Oracle`]
//! keeps one search, and so its cache, across questions: the positions of one
//! game, or of many, share most of their classes.
//!
//! What it counts is what a tree's total counts: for each secret still possible,
//! the guesses from the next one to the win, that one included. So the value of
//! the empty history is the board's optimum (5625 on 4x6), and a next guess g
//! costs |S| plus the optimum of each class it leaves, bar the win.

use crate::codes::Codes;
use crate::exact::{Context, Exact, UNLIMITED};
use crate::strategy::Optimal;
use crate::{Counters, Node, Settings};
use lookup::hint::consistent;
use lookup::play::{first_impossible_move, impossible_at, Move, PlayError};
use lookup::{Board, Code};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// One search over a board, asked about positions one after another.
pub struct Oracle {
    board: Board,
    codes: Codes,
    exact: Exact,
    /// The least total and the optimal guess of the sets of [`REMEMBERED_FROM`]
    /// secrets or more asked about so far, by their secrets. The search's cache
    /// knows their totals, but its optimal guess needs the set searched again
    /// (the cache keeps no guess), which costs milliseconds near a game's start.
    answered: Mutex<HashMap<Vec<u32>, (u32, u32)>>,
    /// Held while a question is answered: one at a time, since a question begins
    /// by undoing any stop, which must not undo another's while it runs (a search
    /// stopped partway could then be taken as proven).
    asking: Mutex<()>,
}

/// The least secrets of a set whose answer an [`Oracle`] keeps: the start of 4x6
/// (1,296 secrets) took 3.9 ms to search again with its classes in the cache,
/// and 0.06 ms once remembered (from Python, both cores busy with other work),
/// while a small set is searched again about as fast as its key is hashed.
const REMEMBERED_FROM: usize = 100;

/// What a position is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The secrets still possible.
    pub secrets: usize,
    /// The least total, over those secrets, of the guesses each still needs (its
    /// winning guess included).
    pub least: u64,
    /// The guess an optimal strategy plays next: the one an optimal tree of
    /// mmgen's keeps (see the exact search's rule).
    pub best: Code,
    /// Each guess asked about, and the least total when it is played next.
    pub asked: Vec<(Code, u64)>,
}

/// The fewest guesses that always suffice from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worst {
    /// Guesses, the winning one included.
    pub guesses: u32,
    /// The least total of a strategy that needs no more.
    pub least: u64,
}

/// Why a question has no answer when its search was stopped: the error it gets.
pub const STOPPED: &str = "no answer: the search was stopped before it proved one";

/// A position as the search numbers codes: the secrets left, the guesses played.
struct Position {
    candidates: Vec<u32>,
    history: Vec<u32>,
}

impl Value {
    /// The guesses a secret still needs on average, at the least.
    pub fn average(&self) -> f64 {
        self.least as f64 / self.secrets as f64
    }
}

impl Oracle {
    /// A search over `board` whose answers give up at `deadline` (then the
    /// question fails: nothing unproven is returned).
    pub fn new(board: Board, deadline: Option<Instant>) -> Oracle {
        Oracle {
            board,
            codes: Codes::new(board),
            exact: Exact::new(board, deadline, false),
            answered: Mutex::default(),
            asking: Mutex::default(),
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// Stops the question being answered (from another thread): it fails as if
    /// its deadline had passed. The next question searches again, keeping what
    /// was proven before.
    pub fn stop(&self) {
        self.exact.stop();
    }

    /// The value of the position `moves` lead to, and what each of `asked` costs
    /// played next. An impossible history, moves after a win or a won game are
    /// errors, as is a search cut off by the deadline or [`Oracle::stop`].
    /// Questions from several threads are answered one at a time.
    pub fn value(&self, moves: &[Move], asked: &[Code]) -> Result<Value, String> {
        let position = self.position(moves)?;
        let asked_indices = self.indices(asked.to_vec())?;
        self.ask(|context| {
            let (least, best) = self.optimum(context, &position)?;
            let costs = (asked.iter().zip(&asked_indices))
                .map(|(&code, &guess)| Ok((code, self.played(context, &position, guess)?)))
                .collect::<Result<_, String>>()?;
            Ok(Value {
                secrets: position.candidates.len(),
                least: u64::from(least),
                best: self.codes.code(best),
                asked: costs,
            })
        })
    }

    /// The least total and the optimal guess at `position`: remembered, or searched.
    fn optimum(&self, context: Context, position: &Position) -> Result<(u32, u32), String> {
        let Position {
            candidates,
            history,
        } = position;
        let remembered = (self.answered.lock())
            .unwrap_or_else(|e| e.into_inner())
            .get(candidates)
            .copied();
        if let Some(answer) = remembered {
            return Ok(answer);
        }
        let answer = self.proven(self.exact.choose(context, candidates, history, UNLIMITED))?;
        if candidates.len() >= REMEMBERED_FROM {
            (self.answered.lock())
                .unwrap_or_else(|e| e.into_inner())
                .insert(candidates.clone(), answer);
        }
        Ok(answer)
    }

    /// The least total at `position` when `guess` is played next: a guess for
    /// every secret, and the optimum of each class it leaves but the win.
    fn played(&self, context: Context, position: &Position, guess: u32) -> Result<u64, String> {
        let (split, _) = self.codes.split(guess, &position.candidates);
        let after: Vec<u32> = position.history.iter().copied().chain([guess]).collect();
        let mut total = position.candidates.len() as u64;
        for (_, class) in split.iter() {
            let node = Node {
                candidates: class,
                history: &after,
            };
            total +=
                u64::from(self.proven(self.exact.cost_below(context, node, UNLIMITED, UNLIMITED))?);
        }
        Ok(total)
    }

    /// The fewest guesses that always suffice from the position `moves` lead to
    /// (the winning one counted), and the least total within them: the least
    /// depth limit under which a strategy solves every secret left. Errors as
    /// [`Oracle::value`]'s.
    pub fn worst(&self, moves: &[Move]) -> Result<Worst, String> {
        let Position {
            candidates,
            history,
        } = self.position(moves)?;
        self.ask(|context| {
            // n guesses always suffice (each rules out a secret at least); below the
            // size bound's depth none do.
            let n = candidates.len() as u32;
            let shallowest = (1..=n).find(|&d| self.exact.floor(n as usize, d) < UNLIMITED);
            for depth in shallowest.unwrap_or(n)..=n {
                // None: no strategy within `depth`, unless the search was stopped.
                let found = self.exact.choose(context, &candidates, &history, depth);
                if self.exact.timed_out() {
                    return Err(STOPPED.into());
                }
                if let Some((least, _)) = found {
                    return Ok(Worst {
                        guesses: depth,
                        least: u64::from(least),
                    });
                }
            }
            Err("no strategy solves these secrets: this is a bug, please report it".into())
        })
    }

    /// Answers `question` with the search to itself (questions from several
    /// threads wait their turn) and any stop before it undone.
    fn ask<T>(&self, question: impl FnOnce(Context) -> Result<T, String>) -> Result<T, String> {
        let _asking = self.asking.lock().unwrap_or_else(|e| e.into_inner());
        self.exact.go_on();
        let counters = Counters::default();
        question(Optimal::context(
            &self.codes,
            Settings { symmetry: true },
            &counters,
        ))
    }

    /// The secrets `moves` leave and the guesses they played, as the search
    /// numbers codes; the errors of [`Oracle::value`].
    fn position(&self, moves: &[Move]) -> Result<Position, String> {
        let pegs = self.board.pegs();
        if let Some(won) = moves.iter().position(|m| m.answer.is_win(pegs)) {
            return Err(match won + 1 < moves.len() {
                true => PlayError::AfterWin {
                    move_number: won + 2,
                }
                .to_string(),
                false => "the last move won: no guess is left to play".into(),
            });
        }
        let candidates = self.indices(consistent(self.board, moves))?;
        if candidates.is_empty() {
            let k = first_impossible_move(&self.board, moves).unwrap_or(moves.len());
            return Err(impossible_at(&self.board, moves, k).to_string());
        }
        let history = self.indices(moves.iter().map(|m| m.guess).collect())?;
        Ok(Position {
            candidates,
            history,
        })
    }

    /// What a search found, unless it was stopped (then it may not be optimal).
    fn proven<T>(&self, found: Option<T>) -> Result<T, String> {
        found
            .filter(|_| !self.exact.timed_out())
            .ok_or_else(|| STOPPED.into())
    }

    /// The search's numbers of `codes`, which are codes of the board.
    fn indices(&self, codes: Vec<Code>) -> Result<Vec<u32>, String> {
        (codes.into_iter())
            .map(|code| {
                (self.board.index(code)).ok_or_else(|| {
                    format!("{} is not a code of the board", self.board.display(code))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lookup::hint::parse_moves;
    use lookup::score::score;
    use std::collections::{BTreeMap, HashMap};

    /// The least total for `set`, by trying every guess at every node (each set
    /// worked out once): slow and obviously right, for boards of a few dozen codes.
    struct Reference {
        board: Board,
        known: HashMap<Vec<u32>, u64>,
    }

    impl Reference {
        fn least(&mut self, set: &[Code]) -> u64 {
            let board = self.board;
            let key: Vec<u32> = set.iter().map(|&c| board.index(c).unwrap()).collect();
            if let Some(&known) = self.known.get(&key) {
                return known;
            }
            let n = set.len();
            let least = match n {
                0 => 0,
                1 => 1,
                _ => (board.codes())
                    .filter_map(|g| {
                        let classes = classes(&board, g, set);
                        // A guess that leaves every secret in one class makes no progress.
                        let progress = classes.len() != 1 || classes[0].len() < n;
                        progress
                            .then(|| n as u64 + classes.iter().map(|c| self.least(c)).sum::<u64>())
                    })
                    .min()
                    .unwrap(),
            };
            self.known.insert(key, least);
            least
        }
    }

    /// The fewest guesses that always solve `set`, by trying every guess at every
    /// node: the least, over guesses that make progress, of one more than the
    /// deepest class needs (one guess for a lone secret).
    fn fewest(board: &Board, set: &[Code]) -> u32 {
        match set.len() {
            0 => 0,
            1 => 1,
            n => (board.codes())
                .filter_map(|g| {
                    let classes = classes(board, g, set);
                    let progress = classes.len() != 1 || classes[0].len() < n;
                    progress
                        .then(|| 1 + classes.iter().map(|c| fewest(board, c)).max().unwrap_or(0))
                })
                .min()
                .unwrap(),
        }
    }

    /// The classes of `set` that `guess` leaves, the win left out.
    fn classes(board: &Board, guess: Code, set: &[Code]) -> Vec<Vec<Code>> {
        let mut classes = BTreeMap::<usize, Vec<Code>>::new();
        for &s in set {
            let answer = score(guess, s, board.pegs());
            if !answer.is_win(board.pegs()) {
                classes
                    .entry(answer.index(board.pegs()))
                    .or_default()
                    .push(s);
            }
        }
        classes.into_values().collect()
    }

    fn moves(board: &Board, text: &str) -> Vec<Move> {
        parse_moves(board, text.split_whitespace()).unwrap()
    }

    #[test]
    fn the_search_numbers_codes_as_the_board_does() {
        for repeat in [true, false] {
            let board = Board::new(4, 6, repeat).unwrap();
            let codes = Codes::new(board);
            assert_eq!(codes.len(), board.code_count());
            for (i, code) in board.codes().enumerate() {
                assert_eq!(codes.code(i as u32), code);
                assert_eq!(board.index(code), Some(i as u32));
            }
        }
    }

    #[test]
    fn values_and_next_guesses_match_a_search_of_every_guess() {
        // 2x4 and 3x3: every position after one move, and after two.
        for (pegs, colors) in [(2, 4), (3, 3)] {
            let board = Board::new(pegs, colors, true).unwrap();
            let oracle = Oracle::new(board, None);
            let all: Vec<Code> = board.codes().collect();
            let mut reference = Reference {
                board,
                known: HashMap::new(),
            };
            let root = oracle.value(&[], &all).unwrap();
            assert_eq!(root.least, reference.least(&all));
            for &first in &all {
                for &secret in &all {
                    let answer = score(first, secret, board.pegs());
                    if answer.is_win(board.pegs()) {
                        continue;
                    }
                    let played = [Move {
                        guess: first,
                        answer,
                    }];
                    let set = consistent(board, &played);
                    let value = oracle.value(&played, &all).unwrap();
                    assert_eq!(value.secrets, set.len());
                    assert_eq!(value.least, reference.least(&set), "after {played:?}");
                    // Every guess's cost, and the best's is the least.
                    for &(g, total) in &value.asked {
                        let classes = classes(&board, g, &set);
                        let rest: u64 = classes.iter().map(|c| reference.least(c)).sum();
                        assert_eq!(total, set.len() as u64 + rest, "{g:?} after {played:?}");
                    }
                    let best = value.asked.iter().find(|&&(g, _)| g == value.best).unwrap();
                    assert_eq!(best.1, value.least);
                }
            }
        }
    }

    #[test]
    fn the_fewest_guesses_that_always_suffice_match_a_search_of_every_guess() {
        let board = Board::new(3, 3, true).unwrap();
        let oracle = Oracle::new(board, None);
        let all: Vec<Code> = board.codes().collect();
        assert_eq!(oracle.worst(&[]).unwrap().guesses, fewest(&board, &all));
        for first in ["111", "112", "123"] {
            let guess = board.parse(first).unwrap();
            for secret in board.codes() {
                let answer = score(guess, secret, board.pegs());
                if answer.is_win(board.pegs()) {
                    continue;
                }
                let played = [Move { guess, answer }];
                let worst = oracle.worst(&played).unwrap();
                let set = consistent(board, &played);
                assert_eq!(worst.guesses, fewest(&board, &set), "after {played:?}");
                // Within them, no less than the least total with no limit.
                assert!(worst.least >= oracle.value(&played, &[]).unwrap().least);
            }
        }
    }

    #[test]
    fn the_classic_start_needs_five_guesses_and_5626_within_them() {
        // Knuth (1977): 5 at worst; Koyama and Lai (1993): 5626 within 5, where
        // the least total with no limit is 5625 (shared/reference/mastermind.md).
        let oracle = Oracle::new(Board::classic(), None);
        assert_eq!(
            oracle.worst(&[]).unwrap(),
            Worst {
                guesses: 5,
                least: 5626
            }
        );
        assert_eq!(oracle.value(&[], &[]).unwrap().least, 5625);
    }

    #[test]
    fn the_empty_history_is_worth_the_boards_optimum() {
        // Koyama and Lai (1993), via shared/reference/mastermind.md: 4x4 905.
        let board = Board::new(4, 4, true).unwrap();
        let value = Oracle::new(board, None).value(&[], &[]).unwrap();
        assert_eq!((value.secrets, value.least), (256, 905));
    }

    #[test]
    fn on_the_shipped_optimal_trees_line_it_agrees_with_the_tree() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../trees/optimal-4x6.mmt");
        let tree = lookup::Tree::open(std::fs::read(path).unwrap()).unwrap();
        let board = tree.board();
        let oracle = Oracle::new(board, None);
        // Every position the tree reaches within two guesses: its guess there, and
        // what its subtree costs (each secret's game from there on).
        // Keyed by the line's (guess, answer) numbers: its moves, and the sum.
        type Line = Vec<(u32, usize)>;
        let mut games: BTreeMap<Line, (Vec<Move>, u64)> = BTreeMap::new();
        for secret in board.codes() {
            let mut played = Vec::new();
            let guesses = lookup::play::solve(&tree, secret, |guess, answer| {
                played.push(Move { guess, answer })
            })
            .unwrap();
            for k in 0..played.len().min(3) {
                let line = &played[..k];
                let key = line
                    .iter()
                    .map(|m| (board.index(m.guess).unwrap(), m.answer.index(4)))
                    .collect();
                let entry = games.entry(key).or_insert_with(|| (line.to_vec(), 0));
                entry.1 += u64::from(guesses) - k as u64;
            }
        }
        assert!(games.len() > 100);
        for (line, total) in games.values() {
            let value = oracle.value(line, &[]).unwrap();
            assert_eq!(value.least, *total, "after {line:?}");
            let next = lookup::play::next(&tree, line).unwrap();
            let lookup::play::Next::Guess { guess, .. } = next else {
                panic!("{next:?}")
            };
            assert_eq!(value.best, guess, "after {line:?}");
        }
    }

    #[test]
    fn off_the_optimal_trees_line_a_guess_has_a_regret() {
        let board = Board::classic();
        let oracle = Oracle::new(board, None);
        // 1111 is not the optimal first guess (1123 is): after it, the values.
        let after = moves(&board, "1111:0,0");
        let g = |t: &str| board.parse(t).unwrap();
        let value = oracle.value(&after, &[g("2234"), g("2222")]).unwrap();
        assert_eq!(value.secrets, 625);
        let (_, good) = value.asked[0];
        let (_, bad) = value.asked[1];
        assert!(value.least <= good && good < bad);
        // 2222 splits 625 secrets into 0 or 1 of that colour...: it costs more.
        assert_eq!(
            value.asked.iter().map(|a| a.0).collect::<Vec<_>>(),
            [g("2234"), g("2222")]
        );
    }

    #[test]
    fn bad_histories_are_errors_that_name_the_move() {
        let board = Board::classic();
        let oracle = Oracle::new(board, None);
        let error = |text: &str| oracle.value(&moves(&board, text), &[]).unwrap_err();
        assert!(error("1122:1,0 1344:0,1 3526:1,2 1462:0,0").contains("move 4"));
        assert_eq!(
            error("1122:4,0"),
            "the last move won: no guess is left to play"
        );
        assert!(error("1122:4,0 1234:0,0").contains("move 2"));
    }

    #[test]
    fn questions_from_several_threads_get_the_answers_asked_alone() {
        let board = Board::new(4, 5, true).unwrap();
        let histories = ["", "1111:0,0", "1122:1,0", "1234:0,2", "1123:1,1 2345:0,1"];
        let alone: Vec<Value> = (histories.iter())
            .map(|h| {
                Oracle::new(board, None)
                    .value(&moves(&board, h), &[])
                    .unwrap()
            })
            .collect();
        let shared = Oracle::new(board, None);
        std::thread::scope(|scope| {
            let asked: Vec<_> = (histories.iter())
                .map(|h| scope.spawn(|| shared.value(&moves(&board, h), &[]).unwrap()))
                .collect();
            for (thread, alone) in asked.into_iter().zip(&alone) {
                assert_eq!(&thread.join().unwrap(), alone);
            }
        });
    }

    #[test]
    fn a_stopped_search_answers_nothing_and_the_next_question_goes_on() {
        let board = Board::new(4, 5, true).unwrap();
        let oracle = Oracle::new(board, None);
        oracle.stop();
        // The stop before a question is undone by it: only a stop during it counts.
        let after = moves(&board, "1122:0,0");
        assert!(oracle.value(&after, &[]).is_ok());
        let late = Oracle::new(board, Some(Instant::now()));
        assert!(late.value(&[], &[]).unwrap_err().contains("stopped"));
    }
}
