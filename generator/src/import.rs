//! Building a tree from JSON, so that strategies published elsewhere can be written
//! as tree files and proven with `mmlookup audit`.
//!
//! The notation is `mmlookup export --format json`'s: `{"guess": "1122", "children":
//! {"B,W": subtree, ...}}`, the win implied, either bare (from anywhere; the board is
//! then given separately) or as the `tree` of a document that also names its board
//! and the header of the tree it was exported from:
//! `{"format": "mmtree-json", "version": 1, "board": {"pegs": 4, "colors": 6,
//! "repeat": true}, "generator": ..., "strategy": {...}, "tree": {...}}`.
//! Every node is checked against the
//! secrets that reach it: each answer they can give must have a branch, no branch
//! may name an answer none of them gives, and a node without branches must guess the
//! one secret left. The JSON reader's nesting limit bounds the depth.

use crate::build::Subtree;
use crate::codes::Codes;
use lookup::format::StrategyInfo;
use lookup::{Board, Feedback};
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

/// The tree `value` (a node of the notation) on the board of `codes`.
pub fn from_json(codes: &Codes, value: &Value) -> Result<Subtree, String> {
    let all: Vec<u32> = (0..codes.len()).collect();
    node(codes, value, &all, "the root")
}

fn node(codes: &Codes, value: &Value, candidates: &[u32], at: &str) -> Result<Subtree, String> {
    let board = codes.board();
    let pegs = board.pegs();
    let text = value
        .get("guess")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{at}: a node needs \"guess\": \"CODE\""))?;
    let code = board
        .parse(text)
        .map_err(|e| format!("{at}: guess '{text}': {e}"))?;
    let guess = board
        .index(code)
        .ok_or_else(|| format!("{at}: '{text}' is not a code"))?;
    let empty = serde_json::Map::new();
    let branches = match value.get("children") {
        None => &empty,
        Some(children) => children
            .as_object()
            .ok_or_else(|| format!("{at}: \"children\" must be an object"))?,
    };
    let (parts, wins) = codes.split(guess, candidates);
    if parts.is_empty() && branches.is_empty() {
        // `split` only leaves no part when the guess is the one secret left.
        return Ok(Subtree::Leaf(guess));
    }
    let mut given = Vec::with_capacity(branches.len());
    for (key, child) in branches {
        let answer =
            Feedback::parse(key, &board).map_err(|e| format!("{at}: answer '{key}': {e}"))?;
        if answer.is_win(pegs) {
            return Err(format!(
                "{at}: a branch for {answer} after {text} is not written: the win is implied \
                 (a guess that is still possible ends the game for its own secret)"
            ));
        }
        let index = answer.index(pegs);
        if !parts.iter().any(|(a, _)| a == index) {
            return Err(format!(
                "{at}: no secret left here answers {text} with {answer}"
            ));
        }
        given.push((index, child));
    }
    let mut children = Vec::with_capacity(parts.len());
    for (answer, part) in parts.iter() {
        let feedback = Feedback::from_index(answer, pegs).unwrap_or(Feedback::win(pegs));
        let child = given
            .iter()
            .find(|(a, _)| *a == answer)
            .map(|(_, child)| *child)
            .ok_or_else(|| {
                let secrets = match part.len() {
                    1 => "1 secret".to_string(),
                    n => format!("{n} secrets"),
                };
                format!("{at}: no branch for answer {feedback} to {text} ({secrets})")
            })?;
        let below = format!("{at} -> {text} {feedback}");
        children.push((answer, node(codes, child, part, &below)?));
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
