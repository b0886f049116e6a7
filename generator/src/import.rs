//! Reading a tree from outside: from JSON, so that strategies published elsewhere
//! can be written as tree files and proven with `mmlookup audit`, and from a tree
//! file, whose subtrees `mmgen merge --fill` puts where a plan's items are not done.
//!
//! The notation is `mmlookup export --format json`'s: `{"guess": "1122", "children":
//! {"B,W": subtree, ...}}`, the win implied, either bare (from anywhere; the board is
//! then given separately) or as the `tree` of a document that also names its board
//! and the header of the tree it was exported from:
//! `{"format": "mmtree-json", "version": 1, "board": {"pegs": 4, "colors": 6,
//! "repeat": true}, "generator": ..., "strategy": {...}, "tree": {...}}`.
//! Either way every node is checked against the
//! secrets that reach it: each answer they can give must have a branch, no branch
//! may name an answer none of them gives, and a node without branches must guess the
//! one secret left; no tree read nests more than 64 guesses.

use crate::build::Subtree;
use crate::codes::Codes;
use lookup::format::StrategyInfo;
use lookup::{Board, Feedback, Position, Tree};
use serde_json::Value;

/// The name of the self-describing JSON document, in its `format` field.
pub const FORMAT: &str = "mmtree-json";

/// A JSON tree as read: the board and the header it names, if it is a document,
/// and the tree itself.
pub struct Document {
    pub board: Option<Board>,
    /// The strategy of the tree it was exported from (a claim of the file's, which
    /// an import records as such, never as its own).
    pub strategy: Option<StrategyInfo>,
    pub tree: Value,
}

/// Reads a bare JSON tree or a [`FORMAT`] document.
pub fn read(json: &str) -> Result<Document, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("not a JSON tree: {e}"))?;
    if value.get("guess").is_some() {
        return Ok(Document {
            board: None,
            strategy: None,
            tree: value,
        });
    }
    if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!(
            "not a JSON tree: neither a node (\"guess\") nor a document with \"format\": \"{FORMAT}\""
        ));
    }
    if value.get("version").and_then(Value::as_u64) != Some(1) {
        return Err(format!(
            "{FORMAT} version {} is not supported (this build reads version 1)",
            value["version"]
        ));
    }
    let number = |key: &str| {
        value["board"][key]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("the document's board needs \"{key}\": a number"))
    };
    let repeat = value["board"]["repeat"]
        .as_bool()
        .ok_or("the document's board needs \"repeat\": true or false")?;
    let board =
        Board::new(number("pegs")?, number("colors")?, repeat).map_err(|e| e.to_string())?;
    let strategy = match value.get("strategy") {
        None | Some(Value::Null) => None,
        Some(s) => Some(
            serde_json::from_value(s.clone())
                .map_err(|e| format!("the document's strategy does not read: {e}"))?,
        ),
    };
    let tree = value
        .get("tree")
        .cloned()
        .ok_or("the document has no \"tree\"")?;
    Ok(Document {
        board: Some(board),
        strategy,
        tree,
    })
}

/// The most guesses a tree read here may nest: far past any board's real trees
/// (their worst cases are under 15), and a bound on the reader's recursion that
/// does not rest on the input (a tree file's useless guesses could chain its
/// whole node table).
const MAX_DEPTH: usize = 64;

/// The tree `value` (a node of the notation) on the board of `codes`.
pub fn from_json(codes: &Codes, value: &Value) -> Result<Subtree, String> {
    let all: Vec<u32> = (0..codes.len()).collect();
    node(codes, &value, &all, "the root", 1)
}

/// The tree `tree` (a tree file, opened verified) holds, checked as a JSON tree
/// is: a tree file is untrusted input, and what is read here may be written again.
/// `tree`'s board must be that of `codes`.
pub fn from_tree<D: AsRef<[u8]>>(codes: &Codes, tree: &Tree<D>) -> Result<Subtree, String> {
    if tree.board() != codes.board() {
        return Err(format!(
            "the tree is of the {} board, not of {}",
            tree.board().name(),
            codes.board().name()
        ));
    }
    let all: Vec<u32> = (0..codes.len()).collect();
    let root = InFile {
        tree,
        position: tree.root(),
    };
    node(codes, &root, &all, "the root", 1)
}

/// A tree file read from `path` and checked as [`from_tree`] checks it, on the
/// board of `codes`: its tree and the strategy its header names. Every error names
/// the file.
pub fn tree_file(codes: &Codes, path: &std::path::Path) -> Result<FromFile, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mapped = lookup::mapped::map(path)?;
    let tree = Tree::open(&mapped[..]).map_err(|e| at(&e))?;
    let strategy = tree.meta().map_err(|e| at(&e))?.strategy.name;
    let tree = from_tree(codes, &tree).map_err(|e| at(&e))?;
    Ok(FromFile { tree, strategy })
}

/// What [`tree_file`] read.
pub struct FromFile {
    pub tree: Subtree,
    /// The strategy the file's header names (a claim of the file's).
    pub strategy: String,
}

/// A node of a tree being read, in JSON or in a tree file: what [`node`] checks.
trait Written: Sized {
    /// The guess as written (for messages) and its index, or why it is not one.
    fn guess(&self, codes: &Codes, at: &str) -> Result<(String, u32), String>;
    /// The branches (answer index, child); `guess` is the guess as written. A
    /// branch for the win is refused: the win is implied.
    fn branches(&self, codes: &Codes, at: &str, guess: &str) -> Result<Vec<(usize, Self)>, String>;
}

impl Written for &Value {
    fn guess(&self, codes: &Codes, at: &str) -> Result<(String, u32), String> {
        let board = codes.board();
        let text = self
            .get("guess")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{at}: a node needs \"guess\": \"CODE\""))?;
        let code = board
            .parse(text)
            .map_err(|e| format!("{at}: guess '{text}': {e}"))?;
        let guess = board
            .index(code)
            .ok_or_else(|| format!("{at}: '{text}' is not a code"))?;
        Ok((text.to_string(), guess))
    }

    fn branches(&self, codes: &Codes, at: &str, guess: &str) -> Result<Vec<(usize, Self)>, String> {
        let board = codes.board();
        let Some(children) = self.get("children") else {
            return Ok(Vec::new());
        };
        let children = children
            .as_object()
            .ok_or_else(|| format!("{at}: \"children\" must be an object"))?;
        let mut branches = Vec::with_capacity(children.len());
        for (key, child) in children {
            let answer =
                Feedback::parse(key, &board).map_err(|e| format!("{at}: answer '{key}': {e}"))?;
            if answer.is_win(board.pegs()) {
                return Err(format!(
                    "{at}: a branch for {answer} after {guess} is not written: the win is implied \
                     (a guess that is still possible ends the game for its own secret)"
                ));
            }
            branches.push((answer.index(board.pegs()), child));
        }
        Ok(branches)
    }
}

/// A position of a tree file being read.
struct InFile<'a, D> {
    tree: &'a Tree<D>,
    position: Position,
}

impl<D: AsRef<[u8]>> Written for InFile<'_, D> {
    fn guess(&self, codes: &Codes, at: &str) -> Result<(String, u32), String> {
        let fault = |e: lookup::format::FormatError| format!("{at}: {e}");
        let guess = self.tree.guess_index(self.position).map_err(fault)?;
        let board = codes.board();
        let code = board
            .code(guess)
            .ok_or_else(|| format!("{at}: {guess} is not a code's number"))?;
        Ok((board.display(code).to_string(), guess))
    }

    fn branches(&self, codes: &Codes, at: &str, _: &str) -> Result<Vec<(usize, Self)>, String> {
        let fault = |e: lookup::format::FormatError| format!("{at}: {e}");
        let pegs = codes.board().pegs();
        // A tree file holds no branch for the win: its answers stop below it.
        (self.tree.children(self.position).map_err(fault)?)
            .map(|branch| {
                let (answer, position) = branch.map_err(fault)?;
                let child = InFile {
                    tree: self.tree,
                    position,
                };
                Ok((answer.index(pegs), child))
            })
            .collect()
    }
}

/// The subtree `written` holds for `candidates`, checked against them (see the
/// module's notes); `at` says where it is, for messages, `depth` how deep.
fn node<W: Written>(
    codes: &Codes,
    written: &W,
    candidates: &[u32],
    at: &str,
    depth: usize,
) -> Result<Subtree, String> {
    if depth > MAX_DEPTH {
        return Err(format!("{at}: deeper than {MAX_DEPTH} guesses"));
    }
    let pegs = codes.board().pegs();
    let (text, guess) = written.guess(codes, at)?;
    let given = written.branches(codes, at, &text)?;
    let (parts, wins) = codes.split(guess, candidates);
    if parts.is_empty() && given.is_empty() {
        // `split` only leaves no part when the guess is the one secret left.
        return Ok(Subtree::Leaf(guess));
    }
    let feedback = |answer| Feedback::from_index(answer, pegs).unwrap_or(Feedback::win(pegs));
    if let Some((answer, _)) = (given.iter()).find(|(a, _)| !parts.iter().any(|(b, _)| b == *a)) {
        return Err(format!(
            "{at}: no secret left here answers {text} with {}",
            feedback(*answer)
        ));
    }
    let mut children = Vec::with_capacity(parts.len());
    for (answer, part) in parts.iter() {
        let child = given
            .iter()
            .find(|(a, _)| *a == answer)
            .map(|(_, child)| child)
            .ok_or_else(|| {
                let secrets = match part.len() {
                    1 => "1 secret".to_string(),
                    n => format!("{n} secrets"),
                };
                format!(
                    "{at}: no branch for answer {} to {text} ({secrets})",
                    feedback(answer)
                )
            })?;
        let below = format!("{at} -> {text} {}", feedback(answer));
        children.push((answer, node(codes, child, part, &below, depth + 1)?));
    }
    Ok(Subtree::Node {
        guess,
        wins,
        candidates: candidates.len() as u32,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::number;
    use lookup::Board;

    #[test]
    fn a_tree_file_reads_back_as_the_tree_it_was_written_from() {
        use crate::strategy::{by_kind, Options};
        use crate::{Counters, Settings};
        use lookup::format::{write_tree, StrategyKind};
        let board = Board::new(4, 6, true).unwrap();
        let codes = Codes::new(board);
        let knuth = by_kind(StrategyKind::Knuth, Options::default(), board).unwrap();
        let settings = Settings { symmetry: true };
        let generated =
            crate::generate(board, knuth.as_ref(), settings, &Counters::default()).unwrap();
        let bytes = |tree: &crate::Generated| {
            let (numbered, mut out) = (&tree.numbered, Vec::new());
            write_tree(
                &mut out,
                tree.board,
                &tree.meta,
                &numbered.records,
                &numbered.edges,
            )
            .unwrap();
            out
        };
        let written = bytes(&generated);
        let tree = Tree::open(&written[..]).unwrap();
        let read = from_tree(&codes, &tree).unwrap();
        let again = crate::lay_out(board, &read, generated.meta.strategy.clone());
        assert!(bytes(&again) == written);
        let other = Codes::new(Board::new(4, 5, true).unwrap());
        let err = from_tree(&other, &tree).unwrap_err();
        assert_eq!(err, "the tree is of the 4x6 board, not of 4x5");

        // A guess that splits nothing may repeat: a file's chain of them is cut off.
        let board = Board::new(2, 2, true).unwrap();
        let codes = Codes::new(board);
        let index = |text: &str| board.index(board.parse(text).unwrap()).unwrap();
        let answer = |guess: &str, secret: &str| {
            let (g, s) = (index(guess), index(secret));
            (codes.split(g, &[s]).0.iter()).next().unwrap().0
        };
        let (pair, ones) = ([index("12"), index("21")], answer("11", "12"));
        let mut chain = Subtree::Node {
            guess: index("12"),
            wins: true,
            candidates: 2,
            children: vec![(answer("12", "21"), Subtree::Leaf(pair[1]))],
        };
        for _ in 0..MAX_DEPTH {
            chain = Subtree::Node {
                guess: index("11"),
                wins: false,
                candidates: 2,
                children: vec![(ones, chain)],
            };
        }
        let root = Subtree::Node {
            guess: index("11"),
            wins: true,
            candidates: 4,
            children: vec![
                (answer("11", "22"), Subtree::Leaf(index("22"))),
                (ones, chain),
            ],
        };
        let deep = bytes(&crate::lay_out(
            board,
            &root,
            generated.meta.strategy.clone(),
        ));
        let err = from_tree(&codes, &Tree::open(&deep[..]).unwrap()).unwrap_err();
        assert!(err.ends_with("deeper than 64 guesses"), "{err}");
    }

    #[test]
    fn a_small_tree_reads_and_bad_ones_say_where() {
        // 1 peg, 3 colours: guess 1, then 2, then 3.
        let codes = Codes::new(Board::new(1, 3, true).unwrap());
        let from_json = |codes: &Codes, text: &str| {
            let document = read(text)?;
            super::from_json(codes, &document.tree)
        };
        let good = r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"3","children":{}}}}}}"#;
        let numbered = number(&from_json(&codes, good).unwrap());
        assert_eq!(numbered.stats.total_guesses, 1 + 2 + 3);
        let missing = r#"{"guess":"1","children":{}}"#;
        assert!(from_json(&codes, missing)
            .unwrap_err()
            .contains("no branch for answer 0,0 to 1 (2 secrets)"));
        let extra = r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"3"}}},"1,0":{"guess":"1"}}}"#;
        // 1,0 is the win on 1 peg: implied, so a branch for it is refused as such.
        assert!(from_json(&codes, extra)
            .unwrap_err()
            .contains("a branch for 1,0 after 1 is not written: the win is implied"));
        let wrong_leaf =
            r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"2"}}}}}"#;
        let err = from_json(&codes, wrong_leaf).unwrap_err();
        assert!(err.contains("the root -> 1 0,0 -> 2 0,0"), "{err}");
        assert!(from_json(&codes, "[1,2]")
            .unwrap_err()
            .contains("neither a node"));
        assert!(from_json(&codes, r#"{"guess":7}"#)
            .unwrap_err()
            .contains("a node needs"));
        assert!(from_json(&codes, "{")
            .unwrap_err()
            .contains("not a JSON tree"));
        let document = format!(
            r#"{{"format":"{FORMAT}","version":1,"board":{{"pegs":1,"colors":3,"repeat":true}},"tree":{good}}}"#
        );
        let read = read(&document).unwrap();
        assert_eq!(read.board, Some(Board::new(1, 3, true).unwrap()));
        assert_eq!(
            number(&super::from_json(&codes, &read.tree).unwrap())
                .stats
                .total_guesses,
            6
        );
    }
}
