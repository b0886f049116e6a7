//! The longest game a consistent guesser can be forced into: a player who only
//! ever guesses a code the answers so far allow (any of them: the unluckiest), and
//! the secret that keeps the game going longest. Players ask it of their own games
//! ("how many guesses can it take if I never play a code already ruled out?"), and
//! random play found 10 on 4x6 in 2001 with no proof that 11 is out of reach.
//!
//! The game's length from a set of candidates depends on the set alone: the next
//! guess is one of them, and each answer but the win leaves the class of those
//! that give it. So the search asks, a length at a time, whether some game lasts
//! at least k guesses (the winning one counted), rather than working out every
//! set's longest game: a set of n candidates lasts at most n guesses (each guess
//! is one of them and is gone after it), which passes over every class smaller
//! than the guesses still wanted, most of them. A set shown to last fewer than k
//! is kept with k (it then lasts fewer than any larger k too), in a table that
//! starts again when it outgrows its budget (what it forgets is searched again,
//! never taken for shown). Guesses a relabelling of colours and pegs maps to one
//! another last as long when it keeps the set: the first guess is tried once per
//! class of such codes, and so is the guess at a set of `SYMMETRY_FROM`
//! candidates or more, by the relabellings that keep the guesses played to it
//! (and so the set; colours none of them played are interchangeable in it). On
//! 4x6 that is 28,332 sets looked at where trying every guess looks at 8,961,269.
//!
//! `longest_by_trying` in the tests works out every set's longest game with no
//! bound and no table: the reference the search is tested against.

use crate::codes::Codes;
use crate::symmetry::Symmetry;
use crate::Stop;
use lookup::score::{score, Feedback};
use lookup::{Board, Code};
use rustc_hash::FxHashMap;

/// The longest game of consistent guesses on a board, or the longest found when
/// the search was stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Longest {
    /// Its guesses and their answers; the last is the secret, answered with the win.
    pub game: Vec<(Code, Feedback)>,
    /// Sets of candidates looked at, over every length tried.
    pub sets: u64,
    /// Whether no game lasts one guess more is proven (false: the search was
    /// stopped first, and a longer game may exist).
    pub proven: bool,
}

/// Sets kept as shown too short, and the length each was shown short of.
type Short = FxHashMap<Box<[u32]>, usize>;

/// The search's state: the codes, the sets shown too short, and their budget.
struct Search<'a> {
    codes: Codes,
    /// The guesses played to the set being searched.
    history: Vec<Code>,
    short: Short,
    /// Bytes the kept sets take, counted as their indices plus a fixed overhead.
    kept_bytes: usize,
    budget_bytes: usize,
    /// The fewest candidates whose set's relabellings are used ([`SYMMETRY_FROM`]).
    symmetry_from: usize,
    sets: u64,
    stop: &'a Stop,
    /// Set once `stop` has passed: every search then ends at once, and what it
    /// returns proves nothing.
    stopped: bool,
}

/// How many sets are looked at between looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// The fewest candidates whose set's relabellings are looked for (guesses a
/// relabelling of the set maps to one another last as long: one is tried).
/// Chosen by measure (BENCHMARKS.md, tuning constants): from 2, 16, 64 and 256,
/// 16 and 2 are the quickest and look at the fewest sets.
const SYMMETRY_FROM: usize = 16;

/// What a kept set costs beyond its indices (the key's pointer and length, the
/// value, the table's control byte and spare room).
const OVERHEAD: usize = 48;

impl Search<'_> {
    /// A game of at least `k` guesses from `set` that opens with `guess` (one
    /// of the set): its guesses, or `None` if there is none.
    fn after(&mut self, set: &[u32], guess: u32, k: usize) -> Option<Vec<u32>> {
        if k <= 1 {
            return Some(vec![guess]);
        }
        let win = self.codes.win();
        let mut classes: Vec<Vec<u32>> = vec![Vec::new(); win];
        for &secret in set {
            let answer = self.codes.answer(guess, secret);
            if answer != win {
                classes[answer].push(secret);
            }
        }
        // The largest classes first: they have the most room for a long game.
        classes.sort_by_key(|class| std::cmp::Reverse(class.len()));
        self.history.push(self.codes.code(guess));
        let mut found = None;
        for class in classes {
            if class.len() < k - 1 {
                break;
            }
            if let Some(mut rest) = self.lasts(&class, k - 1) {
                rest.insert(0, guess);
                found = Some(rest);
                break;
            }
        }
        self.history.pop();
        found
    }

    /// A game of at least `k` guesses from the candidates `set` (sorted), each
    /// guess one of them: its guesses, or `None` if there is none.
    fn lasts(&mut self, set: &[u32], k: usize) -> Option<Vec<u32>> {
        self.sets += 1;
        if self.sets.is_multiple_of(CLOCK_EVERY) && self.stop.passed() {
            self.stopped = true;
        }
        if self.stopped || set.len() < k {
            return None;
        }
        if k <= 1 {
            return Some(vec![set[0]]);
        }
        if self.short.get(set).is_some_and(|&short| k >= short) {
            return None;
        }
        // The set's equivalences follow from the guesses that made it (colours
        // none of them played are interchangeable in it): they are passed too.
        let symmetry = (set.len() >= self.symmetry_from).then(|| {
            let codes: Vec<Code> = set.iter().map(|&i| self.codes.code(i)).collect();
            Symmetry::new(self.codes.board(), &self.history, &codes)
        });
        for &guess in set {
            if self.stopped {
                return None;
            }
            let code = self.codes.code(guess);
            if symmetry
                .as_ref()
                .is_some_and(|s| !s.is_representative(code))
            {
                continue;
            }
            if let Some(game) = self.after(set, guess, k) {
                return Some(game);
            }
        }
        if !self.stopped {
            self.keep_short(set, k);
        }
        None
    }

    /// Keeps `set` as lasting fewer than `k` guesses (the table starts again
    /// once it would outgrow its budget).
    fn keep_short(&mut self, set: &[u32], k: usize) {
        let bytes = set.len() * 4 + OVERHEAD;
        if self.kept_bytes + bytes > self.budget_bytes {
            self.short.clear();
            self.kept_bytes = 0;
        }
        let short = self.short.entry(set.into()).or_insert_with(|| {
            self.kept_bytes += bytes;
            usize::MAX
        });
        *short = (*short).min(k);
    }
}

/// The longest game of consistent guesses on `board`, proven: every game of one
/// guess more is searched and none is found. `budget_bytes` bounds the table of
/// sets shown too short. Once `stop` has passed (its time, or an interrupt), the
/// longest game found so far, not proven the longest.
pub fn longest(board: Board, budget_bytes: usize, stop: &Stop) -> Longest {
    search(board, budget_bytes, SYMMETRY_FROM, stop)
}

/// [`longest`], with relabellings used at sets of `symmetry_from` candidates or
/// more (the first guess's always).
fn search(board: Board, budget_bytes: usize, symmetry_from: usize, stop: &Stop) -> Longest {
    let codes = Codes::new(board);
    let all: Vec<u32> = (0..codes.len()).collect();
    let every: Vec<Code> = board.codes().collect();
    let symmetry = Symmetry::new(board, &[], &every);
    let firsts: Vec<u32> = (all.iter().copied())
        .filter(|&i| symmetry.is_representative(codes.code(i)))
        .collect();
    let mut search = Search {
        codes,
        history: Vec::new(),
        short: Short::default(),
        kept_bytes: 0,
        budget_bytes,
        symmetry_from,
        sets: 0,
        stop,
        stopped: false,
    };
    // One guess is a game on any board: the search takes it from there.
    let mut found: Vec<u32> = vec![firsts[0]];
    for k in 2.. {
        let game = (firsts.iter()).find_map(|&first| search.after(&all, first, k));
        match game {
            // A game found is a game, stopped or not.
            Some(game) => found = game,
            None => break,
        }
        if search.stopped {
            break;
        }
    }
    let pegs = board.pegs();
    let secret = search
        .codes
        .code(*found.last().expect("a board has a code"));
    let game = (found.iter())
        .map(|&g| {
            let guess = search.codes.code(g);
            (guess, score(guess, secret, pegs))
        })
        .collect();
    Longest {
        game,
        sets: search.sets,
        proven: !search.stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set's longest game with no bound and no table: for each guess of
    /// the set, one more than its longest class's.
    fn longest_by_trying(board: Board, set: &[Code]) -> usize {
        let pegs = board.pegs();
        let win = Feedback::win(pegs);
        (set.iter())
            .map(|&guess| {
                let mut classes: FxHashMap<Feedback, Vec<Code>> = FxHashMap::default();
                for &secret in set {
                    let answer = score(guess, secret, pegs);
                    if answer != win {
                        classes.entry(answer).or_default().push(secret);
                    }
                }
                let rest = classes.values().map(|c| longest_by_trying(board, c));
                1 + rest.max().unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether `game` is a game of consistent guesses: each guess gives every
    /// guess before it the answer it got, and the last wins.
    fn consistent(board: Board, game: &[(Code, Feedback)]) -> bool {
        let pegs = board.pegs();
        let (secret, won) = *game.last().unwrap();
        won.is_win(pegs)
            && (game.iter().enumerate()).all(|(i, &(guess, answer))| {
                answer == score(guess, secret, pegs)
                    && game[..i].iter().all(|&(g, a)| score(g, guess, pegs) == a)
            })
    }

    #[test]
    fn the_longest_game_is_what_trying_every_game_finds() {
        for (pegs, colors, repeat) in [
            (2, 4, true),
            (3, 3, true),
            (2, 6, true),
            (3, 4, true),
            (3, 5, false),
            (4, 4, false),
        ] {
            let board = Board::new(pegs, colors, repeat).unwrap();
            let every: Vec<Code> = board.codes().collect();
            let found = longest(board, 1 << 20, &Stop::default());
            assert_eq!(
                found.game.len(),
                longest_by_trying(board, &every),
                "{pegs}x{colors} {repeat}"
            );
            assert!(consistent(board, &found.game), "{:?}", found.game);
        }
    }

    #[test]
    fn relabellings_anywhere_or_nowhere_give_the_same_length() {
        // Sets of 16 candidates and more are many here: the relabellings each
        // set has (which follow from the guesses that made it) are used at every
        // set of two or more, at none, and from the default size.
        for (pegs, colors, repeat) in [
            (3, 5, true),
            (4, 4, true),
            (3, 6, true),
            (4, 5, false),
            (4, 6, false),
            (5, 3, true),
        ] {
            let board = Board::new(pegs, colors, repeat).unwrap();
            let plain = search(board, 1 << 30, usize::MAX, &Stop::default());
            assert!(consistent(board, &plain.game));
            for from in [2, SYMMETRY_FROM] {
                let reduced = search(board, 1 << 30, from, &Stop::default());
                assert_eq!(
                    reduced.game.len(),
                    plain.game.len(),
                    "{pegs}x{colors} {repeat}, from {from}"
                );
                assert!(consistent(board, &reduced.game));
                assert!(reduced.sets <= plain.sets, "{pegs}x{colors} {repeat}");
            }
        }
    }

    #[test]
    fn a_search_stopped_gives_a_game_it_found_and_claims_no_proof() {
        let board = Board::new(4, 5, true).unwrap();
        let whole = longest(board, 1 << 30, &Stop::default());
        assert!(whole.proven);
        let stop = Stop::default();
        stop.now();
        let cut = longest(board, 1 << 30, &stop);
        assert!(!cut.proven);
        assert!(consistent(board, &cut.game), "{:?}", cut.game);
        // The game it found may be a longest one already, but its search ended early.
        assert!(cut.game.len() <= whole.game.len(), "{:?}", cut.game);
        assert!(cut.sets < whole.sets);
    }

    #[test]
    fn a_table_that_starts_again_finds_the_same_game() {
        let board = Board::new(4, 4, true).unwrap();
        let roomy = longest(board, 1 << 30, &Stop::default());
        // Room for a few sets: searched again and again, the same answer.
        let tight = longest(board, 4 * OVERHEAD, &Stop::default());
        assert_eq!(roomy.game, tight.game);
        assert!(tight.sets > roomy.sets, "{} {}", tight.sets, roomy.sets);
        assert_eq!(roomy.game.len(), 8);
        assert!(consistent(board, &roomy.game));
    }
}
