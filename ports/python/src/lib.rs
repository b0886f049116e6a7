//! `import mmtree`: mmtree's trees for Python, for players' tools and for
//! researchers who need an exact oracle (the optimal next guess in microseconds,
//! the proven optimum of a board, the exact value of any position off a tree's
//! line) where they already work.
//!
//! A thin layer over the two halves: `lookup` reads a tree in place (a file is
//! memory-mapped and verified whole before anything is answered from it) and
//! `generator` builds one. Nothing is computed here that those crates do not
//! compute for `mmlookup` and `mmgen`, so Python gets the command line's answers;
//! the tests check that it does. Errors are Python exceptions under
//! `mmtree.Error`, one class per kind of mistake.

use generator::strategy::{by_kind, Options};
use generator::{Counters, Settings};
use lookup::format::StrategyKind;
use lookup::hint::{self, Hint};
use lookup::score::Reading;
use lookup::{play, Feedback, Move};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::time::Duration;

create_exception!(mmtree, Error, PyException, "Every error mmtree raises.");
create_exception!(
    mmtree,
    TreeError,
    Error,
    "A file that is not a whole, valid tree."
);
create_exception!(
    mmtree,
    MoveError,
    Error,
    "A code, an answer or a history not of the board."
);
create_exception!(
    mmtree,
    ContradictionError,
    Error,
    "Answers that no secret gives: one of them was scored wrong."
);
create_exception!(
    mmtree,
    BuildError,
    Error,
    "A tree or a value that cannot be worked out as asked (a time limit passed)."
);

/// A board: pegs, colours, and whether colours may repeat.
#[pyclass(frozen, module = "mmtree")]
struct Board {
    board: lookup::Board,
}

#[pymethods]
impl Board {
    /// `alphabet`: the symbols colours are written in, one per colour ("ABCDEFG"
    /// for NetHack's drawbridge tune); digits if not given.
    #[new]
    #[pyo3(signature = (pegs = 4, colors = 6, repeat = true, alphabet = None))]
    fn new(pegs: u32, colors: u32, repeat: bool, alphabet: Option<&str>) -> PyResult<Board> {
        let board = lookup::Board::new(pegs, colors, repeat)
            .map_err(|e| MoveError::new_err(e.to_string()))?;
        Ok(Board {
            board: in_alphabet(board, alphabet)?,
        })
    }

    /// The symbols colours are written in, if the board has an alphabet.
    #[getter]
    fn alphabet(&self) -> Option<String> {
        self.board.alphabet().map(String::from)
    }

    #[getter]
    fn pegs(&self) -> usize {
        self.board.pegs()
    }

    #[getter]
    fn colors(&self) -> usize {
        self.board.colors()
    }

    #[getter]
    fn repeat(&self) -> bool {
        self.board.repeat()
    }

    /// The number of codes (secrets) of the board.
    fn __len__(&self) -> usize {
        self.board.code_count() as usize
    }

    /// Every code, in the board's order.
    fn codes(&self) -> Vec<String> {
        let codes = self.board.codes();
        codes.map(|c| self.board.display(c).to_string()).collect()
    }

    /// The answer `secret` gives to `guess`: (black, white).
    fn score(&self, guess: &str, secret: &str) -> PyResult<(u8, u8)> {
        let (guess, secret) = (code(&self.board, guess)?, code(&self.board, secret)?);
        let answer = lookup::score::score(guess, secret, self.board.pegs());
        Ok((answer.black, answer.white))
    }

    fn __str__(&self) -> String {
        self.board.name().to_string()
    }

    fn __repr__(&self) -> String {
        let b = &self.board;
        format!(
            "Board(pegs={}, colors={}, repeat={})",
            b.pegs(),
            b.colors(),
            if b.repeat() { "True" } else { "False" }
        )
    }
}

fn in_alphabet(board: lookup::Board, alphabet: Option<&str>) -> PyResult<lookup::Board> {
    match alphabet {
        Some(symbols) => {
            (board.with_alphabet(symbols)).map_err(|e| MoveError::new_err(e.to_string()))
        }
        None => Ok(board),
    }
}

fn code(board: &lookup::Board, text: &str) -> PyResult<lookup::Code> {
    board
        .parse(text)
        .map_err(|e| MoveError::new_err(format!("'{text}': {e}")))
}

/// A tree's bytes: a mapped file or bytes given (or built) in memory.
enum Bytes {
    Mapped(lookup::mapped::Mmap),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// A correction as Python sees it: (move index, (black, white)) changes, and the
/// secrets that then fit.
type Correction = (Vec<(usize, (u8, u8))>, Vec<String>);

/// The game read another way as Python sees it: the reading's name, the moves as
/// (guess, (black, white)), and how many secrets fit them.
type Reread = (&'static str, Vec<(String, (u8, u8))>, usize);

/// A strategy tree, read in place: every answer is a walk, no search.
#[pyclass(frozen, module = "mmtree")]
struct Tree {
    tree: lookup::Tree<Bytes>,
}

/// One move as Python gives it: (guess, answer), the answer (black, white) or
/// written "B,W".
#[derive(FromPyObject)]
enum Answer {
    Pegs(u8, u8),
    Text(String),
}

impl Tree {
    fn open(bytes: Bytes, name: &str, alphabet: Option<&str>) -> PyResult<Tree> {
        let tree =
            lookup::Tree::open(bytes).map_err(|e| TreeError::new_err(format!("{name}: {e}")))?;
        let board = in_alphabet(tree.board(), alphabet)?;
        Ok(Tree {
            tree: tree.in_notation(board),
        })
    }

    fn moves(&self, moves: Vec<(String, Answer)>) -> PyResult<Vec<Move>> {
        read_moves(&self.tree.board(), moves)
    }

    fn hint(&self, moves: &[Move]) -> PyResult<Hint> {
        hint::next(&self.tree, moves).map_err(|message| refused(&self.tree.board(), message, moves))
    }

    fn show(&self, code: lookup::Code) -> String {
        self.tree.board().display(code).to_string()
    }
}

/// Moves as Python gives them, read on `board`.
fn read_moves(board: &lookup::Board, moves: Vec<(String, Answer)>) -> PyResult<Vec<Move>> {
    if moves.len() > hint::MOVES_AT_MOST {
        let most = hint::MOVES_AT_MOST;
        return Err(MoveError::new_err(format!(
            "a game has at most {most} moves"
        )));
    }
    let read = |(i, (guess, answer)): (usize, (String, Answer))| {
        let bad = |why: String| MoveError::new_err(format!("move {}: {why}", i + 1));
        let guess = board
            .parse(&guess)
            .map_err(|e| bad(format!("'{guess}': {e}")))?;
        let answer = match answer {
            Answer::Pegs(black, white) => Feedback::new(black, white).check(board),
            Answer::Text(text) => Feedback::parse(&text, board),
        };
        let answer = answer.map_err(|e| bad(e.to_string()))?;
        Ok(Move { guess, answer })
    };
    moves.into_iter().enumerate().map(read).collect()
}

/// The error for `moves` refused with `message`: a ContradictionError if no
/// secret of `board` gives those answers, else a MoveError.
fn refused(board: &lookup::Board, message: String, moves: &[Move]) -> PyErr {
    let pegs = board.pegs();
    let after_win = (moves.iter().rev().skip(1)).any(|m| m.answer.is_win(pegs));
    match play::first_impossible_move(board, moves) {
        Some(_) if !after_win => contradiction(board, message, moves),
        _ => MoveError::new_err(message),
    }
}

/// A ContradictionError with its `corrections`: each a list of (move index,
/// (black, white)) changes, the secrets they leave, likeliest first; and its
/// `readings`: the game read with its answers written another way, where every
/// answer then fits.
fn contradiction(board: &lookup::Board, message: String, moves: &[Move]) -> PyErr {
    let error = ContradictionError::new_err(message);
    Python::with_gil(|py| {
        let corrections: Vec<Correction> = (lookup::repair::corrections(*board, moves).into_iter())
            .map(|c| {
                let changes = c.changes.iter().map(|&(i, f)| (i, (f.black, f.white)));
                let secrets = c.secrets.iter().map(|&s| board.display(s).to_string());
                (changes.collect(), secrets.collect())
            })
            .collect();
        let _ = error.value(py).setattr("corrections", corrections);
        let readings: Vec<Reread> = (lookup::repair::readings(*board, moves).into_iter())
            .map(|r| {
                let name = match r.reading {
                    Reading::WhitesFirst => "whites first",
                    Reading::ColoursInAll => "colours in all",
                };
                let read = r.moves.iter().map(|m| {
                    let pegs = (m.answer.black, m.answer.white);
                    (board.display(m.guess).to_string(), pegs)
                });
                (name, read.collect(), r.secrets)
            })
            .collect();
        let _ = error.value(py).setattr("readings", readings);
    });
    error
}

#[pymethods]
impl Tree {
    /// Opens the tree file at `path`, memory-mapped, and verifies it whole
    /// (checksum and shape) before anything is answered from it. `alphabet`: the
    /// symbols its colours are written in (see Board).
    #[new]
    #[pyo3(signature = (path, alphabet = None))]
    fn new(path: PathBuf, alphabet: Option<&str>) -> PyResult<Tree> {
        let map = lookup::mapped::map(&path).map_err(TreeError::new_err)?;
        Tree::open(Bytes::Mapped(map), &path.display().to_string(), alphabet)
    }

    /// A tree from its bytes (a file's contents), verified whole.
    #[staticmethod]
    #[pyo3(signature = (data, alphabet = None))]
    fn from_bytes(data: Vec<u8>, alphabet: Option<&str>) -> PyResult<Tree> {
        Tree::open(Bytes::Owned(data), "the bytes given", alphabet)
    }

    /// The tree's bytes, as a file holds them.
    fn to_bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Borrowed(self.tree.bytes())
    }

    /// Writes the tree to `path` whole (through a temporary file renamed over it).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let bytes = self.tree.bytes();
        lookup::replace::with(&path, |mut file| {
            std::io::Write::write_all(&mut file, bytes).map(|()| bytes.len() as u64)
        })
        .map(|_| ())
        .map_err(|e| Error::new_err(format!("{}: {e}", path.display())))
    }

    #[getter]
    fn board(&self) -> Board {
        Board {
            board: self.tree.board(),
        }
    }

    /// The strategy that chose every guess, by its `mmgen --strategy` name.
    #[getter]
    fn strategy(&self) -> PyResult<String> {
        let meta = self
            .tree
            .meta()
            .map_err(|e| TreeError::new_err(e.to_string()))?;
        Ok(meta.strategy.name)
    }

    /// What the file records of its tree: secrets, nodes, total, worst case,
    /// average, histogram (histogram[i]: secrets solved in i + 1 guesses), and
    /// whether an exact search proved the total optimal (None for a heuristic).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let meta = self
            .tree
            .meta()
            .map_err(|e| TreeError::new_err(e.to_string()))?;
        stats(py, &meta.stats, meta.strategy.proven)
    }

    /// Replays every secret through the tree and checks everything its header
    /// claims; the statistics recomputed, or a TreeError naming what fails.
    fn audit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let report = py
            .allow_threads(|| lookup::audit::audit(&self.tree))
            .map_err(|e| TreeError::new_err(e.to_string()))?;
        stats(py, &report.stats, report.meta.strategy.proven)
    }

    /// The next guess after `moves` (a list of (guess, answer) pairs, each answer
    /// (black, white) or "B,W"); None once the last move won. Read from the tree
    /// while the moves follow its line, computed with the tree's rule once they
    /// leave it. ContradictionError if no secret gives those answers.
    #[pyo3(signature = (moves = Vec::new()))]
    fn next(&self, moves: Vec<(String, Answer)>) -> PyResult<Option<String>> {
        let moves = self.moves(moves)?;
        Ok(self.hint(&moves)?.guess().map(|g| self.show(g)))
    }

    /// Why the tree plays its next guess after `moves`, as `mmlookup explain
    /// --json` says it: how the guess splits the secrets still possible (each
    /// class's answer, size and the guesses it takes from there), its figures
    /// (worst class, expected remaining, entropy), and a comparison with the best
    /// guess by the tree's rule. Errors as `next`; MoveError once the game is won.
    #[pyo3(signature = (moves = Vec::new()))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        moves: Vec<(String, Answer)>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.moves(moves)?;
        let why = py
            .allow_threads(|| lookup::web::explain::explanation(&self.tree, &moves))
            .map_err(|message| refused(&self.tree.board(), message, &moves))?;
        py.import("json")?.call_method1("loads", (why.to_string(),))
    }

    /// The codes still possible after `moves`.
    #[pyo3(signature = (moves = Vec::new()))]
    fn candidates(&self, moves: Vec<(String, Answer)>) -> PyResult<Vec<String>> {
        let moves = self.moves(moves)?;
        let left = hint::consistent(self.tree.board(), &moves);
        Ok(left.into_iter().map(|c| self.show(c)).collect())
    }

    /// Plays `secret` through the tree: each guess with the answer it gets, the
    /// last one the win.
    fn play(&self, secret: &str) -> PyResult<Vec<(String, (u8, u8))>> {
        let secret = code(&self.tree.board(), secret)?;
        let mut game = Vec::new();
        play::solve(&self.tree, secret, |guess, answer| {
            game.push((self.show(guess), (answer.black, answer.white)));
        })
        .map_err(|e| TreeError::new_err(e.to_string()))?;
        Ok(game)
    }

    fn __repr__(&self) -> String {
        let board = self.tree.board();
        let strategy = self
            .tree
            .meta()
            .map(|m| m.strategy.name)
            .unwrap_or_default();
        format!("<mmtree.Tree {} {strategy}>", board.name())
    }
}

fn stats<'py>(
    py: Python<'py>,
    stats: &lookup::format::Stats,
    proven: Option<bool>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("secrets", stats.secrets)?;
    dict.set_item("nodes", stats.nodes)?;
    dict.set_item("total", stats.total_guesses)?;
    dict.set_item("worst", stats.max_guesses)?;
    dict.set_item("average", stats.average())?;
    dict.set_item("histogram", stats.histogram.clone())?;
    dict.set_item("proven", proven)?;
    Ok(dict)
}

/// Builds the complete tree of `strategy` on a board, in this process (the GIL
/// released: other Python threads run meanwhile). `progress(placed, secrets)` is
/// called about ten times a second; Ctrl-C stops the build and raises
/// KeyboardInterrupt. Strategies: knuth, expected-size, entropy, most-parts,
/// consistent, optimal (the exact search: the least total, proven). `max_depth`
/// is the exact search's; `exact_below`, `rollout_above` and `rollout_width` the
/// rules' (as mmgen's `--exact-below`, `--rollout-above` and `--rollout-width`).
#[pyfunction]
#[pyo3(signature = (pegs = 4, colors = 6, strategy = "knuth", repeat = true, consistent_only = false, max_depth = None, progress = None, exact_below = None, rollout_above = None, rollout_width = None))]
#[allow(clippy::too_many_arguments)]
fn build(
    py: Python<'_>,
    pegs: u32,
    colors: u32,
    strategy: &str,
    repeat: bool,
    consistent_only: bool,
    max_depth: Option<u32>,
    progress: Option<PyObject>,
    exact_below: Option<u32>,
    rollout_above: Option<u32>,
    rollout_width: Option<u32>,
) -> PyResult<Tree> {
    let board =
        lookup::Board::new(pegs, colors, repeat).map_err(|e| BuildError::new_err(e.to_string()))?;
    let kind = StrategyKind::from_name(strategy)
        .filter(|k| *k != StrategyKind::Imported)
        .ok_or_else(|| BuildError::new_err(format!("no strategy '{strategy}'")))?;
    let rule = !matches!(kind, StrategyKind::Optimal | StrategyKind::Consistent);
    let misplaced = [
        (
            "max_depth",
            max_depth.is_some() && kind != StrategyKind::Optimal,
            "optimal",
        ),
        ("exact_below", exact_below.is_some() && !rule, "the rules"),
        (
            "rollout_above",
            rollout_above.is_some() && !rule,
            "the rules",
        ),
        (
            "rollout_width",
            rollout_width.is_some() && rollout_above.is_none(),
            "a rollout (with rollout_above)",
        ),
    ];
    if let Some((name, _, to)) = misplaced.iter().find(|m| m.1) {
        return Err(BuildError::new_err(format!(
            "{name} applies to {to}, not to {strategy}"
        )));
    }
    let limits = [
        ("exact_below", exact_below, Options::EXACT_BELOW_LEAST),
        ("rollout_above", rollout_above, Options::ROLLOUT_ABOVE_LEAST),
        ("rollout_width", rollout_width, Options::ROLLOUT_WIDTH_LEAST),
    ];
    for (name, value, least) in limits {
        if let Some(value) = value.filter(|&v| v < least) {
            return Err(BuildError::new_err(format!(
                "{name} must be at least {least}, not {value}"
            )));
        }
    }
    let options = Options {
        consistent_only,
        max_depth,
        exact_below,
        rollout_above,
        rollout_width,
        ..Options::default()
    };
    let rule = by_kind(kind, options, board)
        .ok_or_else(|| BuildError::new_err(format!("{strategy} cannot build {}", board.name())))?;
    let counters = Counters::default();
    let settings = Settings { symmetry: true };
    let secrets = u64::from(board.code_count());
    let mut interrupted = None;
    let built = std::thread::scope(|scope| {
        let work = scope.spawn(|| generator::generate(board, rule.as_ref(), settings, &counters));
        while !work.is_finished() {
            py.allow_threads(|| std::thread::sleep(Duration::from_millis(100)));
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    counters.stop.now();
                    interrupted = Some(e);
                }
            }
            if let (Some(report), None) = (&progress, &interrupted) {
                let placed = counters.solved.load(std::sync::atomic::Ordering::Relaxed);
                if let Err(e) = report.call1(py, (placed, secrets)) {
                    counters.stop.now();
                    interrupted = Some(e);
                }
            }
        }
        work.join()
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    let generated = built
        .map_err(|_| BuildError::new_err("the build failed; this is a bug, please report it"))?
        .map_err(|e| BuildError::new_err(e.to_string()))?;
    let mut bytes = Vec::new();
    lookup::format::write_tree(
        &mut bytes,
        generated.board,
        &generated.meta,
        &generated.numbered.records,
        &generated.numbered.edges,
    )
    .map_err(|e| BuildError::new_err(e.to_string()))?;
    Tree::open(Bytes::Owned(bytes), "the tree built", None)
}

/// The longest game a consistent guesser can be forced into on a board
/// (`mmgen longest --json`'s object): `guesses`, the `game` as (guess, (black,
/// white)) moves, the last the secret's win, the `sets` of secrets looked at, and
/// `proven`: true once no game of one guess more exists, false when `time_limit`
/// seconds passed first (the game found is still a consistent game). The search
/// runs with the GIL released; Ctrl-C stops it with KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (pegs = 4, colors = 6, repeat = true, time_limit = None, cache_mib = 1024))]
fn longest(
    py: Python<'_>,
    pegs: u32,
    colors: u32,
    repeat: bool,
    time_limit: Option<f64>,
    cache_mib: usize,
) -> PyResult<Bound<'_, PyDict>> {
    let board =
        lookup::Board::new(pegs, colors, repeat).map_err(|e| BuildError::new_err(e.to_string()))?;
    let deadline = match time_limit {
        Some(s) if s.is_finite() && s >= 0.0 => {
            Some(std::time::Instant::now() + Duration::from_secs_f64(s))
        }
        Some(_) => {
            return Err(BuildError::new_err(
                "time_limit: give a number of seconds, 0 or more",
            ))
        }
        None => None,
    };
    let stop = generator::Stop::at(deadline);
    let mut interrupted = None;
    let found = std::thread::scope(|scope| {
        let work = scope.spawn(|| generator::longest::longest(board, cache_mib << 20, &stop));
        while !work.is_finished() {
            py.allow_threads(|| std::thread::sleep(Duration::from_millis(50)));
            if interrupted.is_none() {
                interrupted = py.check_signals().err();
                if interrupted.is_some() {
                    stop.now();
                }
            }
        }
        work.join()
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    let found = found
        .map_err(|_| BuildError::new_err("the search failed; this is a bug, please report it"))?;
    let game = PyList::empty(py);
    for &(guess, answer) in &found.game {
        let pegs = (answer.black, answer.white);
        game.append((board.display(guess).to_string(), pegs))?;
    }
    let dict = PyDict::new(py);
    dict.set_item("guesses", found.game.len())?;
    dict.set_item("game", game)?;
    dict.set_item("sets", found.sets)?;
    dict.set_item("proven", found.proven)?;
    Ok(dict)
}

/// The exact value of any position, on a tree's line or off it (the exact
/// search, run here: see generator's `value` module). One oracle keeps what its
/// search proved between questions, so the positions of a game, or of many
/// games, cost less the more are asked; it answers them one at a time.
#[pyclass(frozen, module = "mmtree")]
struct Oracle {
    oracle: generator::value::Oracle,
}

#[pymethods]
impl Oracle {
    /// An oracle for the board of `pegs` and `colors` (`repeat`: colours may
    /// repeat), its codes written in `alphabet` if given (see Board).
    #[new]
    #[pyo3(signature = (pegs = 4, colors = 6, repeat = true, alphabet = None))]
    fn new(pegs: u32, colors: u32, repeat: bool, alphabet: Option<&str>) -> PyResult<Oracle> {
        let board = Board::new(pegs, colors, repeat, alphabet)?.board;
        Ok(Oracle {
            oracle: generator::value::Oracle::new(board, None),
        })
    }

    #[getter]
    fn board(&self) -> Board {
        Board {
            board: self.oracle.board(),
        }
    }

    /// The value of the position `moves` lead to: `secrets` still possible,
    /// `least_total` (the least total of the guesses they still need, each
    /// secret's winning guess counted), `average`, `best` (the optimal next
    /// guess, an optimal tree's), and for each of `guesses` its `total` played
    /// next and how much it is `over` the least; with `worst`, also `worst`: the
    /// fewest `guesses` that always suffice from here and the `least_total`
    /// within them (`mmgen value --worst --json`'s). The search runs with the GIL
    /// released; Ctrl-C, or `time_limit` seconds passing, stops it with
    /// KeyboardInterrupt or BuildError.
    #[pyo3(signature = (moves = Vec::new(), guesses = Vec::new(), time_limit = None, worst = false))]
    fn value<'py>(
        &self,
        py: Python<'py>,
        moves: Vec<(String, Answer)>,
        guesses: Vec<String>,
        time_limit: Option<f64>,
        worst: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let board = self.oracle.board();
        let moves = read_moves(&board, moves)?;
        let asked = (guesses.iter())
            .map(|g| code(&board, g))
            .collect::<PyResult<Vec<_>>>()?;
        let limit = match time_limit {
            Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
            Some(_) => {
                return Err(BuildError::new_err(
                    "time_limit: give a number of seconds, 0 or more",
                ))
            }
            None => None,
        };
        let started = std::time::Instant::now();
        let (sender, mut receiver) = std::sync::mpsc::channel();
        let mut interrupted = None;
        let mut late = false;
        let found = std::thread::scope(|scope| {
            scope.spawn(|| {
                let value = self.oracle.value(&moves, &asked);
                let worst = |v| match worst {
                    true => self.oracle.worst(&moves).map(|w| (v, Some(w))),
                    false => Ok((v, None)),
                };
                sender.send(value.and_then(worst))
            });
            loop {
                let wait = Duration::from_millis(50);
                let (back, got) = py.allow_threads(move || {
                    let got = receiver.recv_timeout(wait);
                    (receiver, got)
                });
                receiver = back;
                match got {
                    Ok(found) => break found,
                    // The search stops at its next check; a stop sent before it
                    // began (which it would undo) is sent again.
                    Err(_) => {
                        if interrupted.is_none() {
                            interrupted = py.check_signals().err();
                        }
                        late = late || limit.is_some_and(|l| started.elapsed() >= l);
                        if interrupted.is_some() || late {
                            self.oracle.stop();
                        }
                    }
                }
            }
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        let (value, worst) = found.map_err(|message| match (late, time_limit) {
            (true, Some(s)) => {
                BuildError::new_err(format!("no answer within the time limit of {s} s"))
            }
            _ => refused(&board, message, &moves),
        })?;
        let show = |c: lookup::Code| board.display(c).to_string();
        let dict = PyDict::new(py);
        dict.set_item("moves", moves.len())?;
        dict.set_item("secrets", value.secrets)?;
        dict.set_item("least_total", value.least)?;
        dict.set_item("average", value.average())?;
        dict.set_item("best", show(value.best))?;
        let asked = PyList::empty(py);
        for &(guess, total) in &value.asked {
            let one = PyDict::new(py);
            one.set_item("guess", show(guess))?;
            one.set_item("total", total)?;
            one.set_item("over", total - value.least)?;
            asked.append(one)?;
        }
        dict.set_item("guesses", asked)?;
        if let Some(worst) = worst {
            let within = PyDict::new(py);
            within.set_item("guesses", worst.guesses)?;
            within.set_item("least_total", worst.least)?;
            dict.set_item("worst", within)?;
        }
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!("<mmtree.Oracle {}>", self.oracle.board().name())
    }
}

#[pymodule]
fn mmtree(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Tree>()?;
    m.add_class::<Oracle>()?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(longest, m)?)?;
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("TreeError", py.get_type::<TreeError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("ContradictionError", py.get_type::<ContradictionError>())?;
    m.add("BuildError", py.get_type::<BuildError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
