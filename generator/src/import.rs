//! Building a tree from JSON, so that strategies published elsewhere can be written
//! as tree files and proven with `mmlookup audit`.
//!
//! The notation is `mmlookup export --format json`'s: `{"guess": "1122", "children":
//! {"B,W": subtree, ...}}`, the win implied. Every node is checked against the
//! secrets that reach it: each answer they can give must have a branch, no branch
//! may name an answer none of them gives, and a node without branches must guess the
//! one secret left. The JSON reader's nesting limit bounds the depth.

use crate::build::Subtree;
use crate::partition::Codes;
use lookup::Feedback;
use serde_json::Value;

/// The tree described by `json` on the board of `codes`.
pub fn from_json(codes: &Codes, json: &str) -> Result<Subtree, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("not a JSON tree: {e}"))?;
    let all: Vec<u32> = (0..codes.len()).collect();
    node(codes, &value, &all, "the root")
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
                format!(
                    "{at}: no branch for answer {feedback} to {text} ({} secrets)",
                    part.len()
                )
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
    use crate::build::layout;
    use lookup::Board;

    #[test]
    fn a_small_tree_reads_and_bad_ones_say_where() {
        // 1 peg, 3 colours: guess 1, then 2, then 3.
        let codes = Codes::new(Board::new(1, 3, true).unwrap());
        let good = r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"3","children":{}}}}}}"#;
        let laid = layout(&from_json(&codes, good).unwrap());
        assert_eq!(laid.stats.total_guesses, 1 + 2 + 3);
        let missing = r#"{"guess":"1","children":{}}"#;
        assert!(from_json(&codes, missing)
            .unwrap_err()
            .contains("no branch for answer 0,0 to 1 (2 secrets)"));
        let extra = r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"3"}}},"1,0":{"guess":"1"}}}"#;
        assert!(from_json(&codes, extra)
            .unwrap_err()
            .contains("no secret left here answers 1 with 1,0"));
        let wrong_leaf =
            r#"{"guess":"1","children":{"0,0":{"guess":"2","children":{"0,0":{"guess":"2"}}}}}"#;
        let err = from_json(&codes, wrong_leaf).unwrap_err();
        assert!(err.contains("the root -> 1 0,0 -> 2 0,0"), "{err}");
        assert!(from_json(&codes, "[1,2]")
            .unwrap_err()
            .contains("a node needs"));
        assert!(from_json(&codes, "{")
            .unwrap_err()
            .contains("not a JSON tree"));
    }
}
