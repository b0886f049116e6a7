//! Why the tree plays what it plays, as figures: what `mmlookup explain --json`
//! prints and `/api/explain` answers (the CLI words its text from this).
//!
//! For the next guess: how it splits the secrets still possible (class sizes, worst
//! class, expected remaining, entropy) and, from the tree, how many guesses each
//! class takes from there and the most any secret still needs. Then a comparison
//! that names what it compares: for a tree built by a one-step rule (or a guess
//! computed live off the tree's line), the best guess by that rule among the
//! secrets still possible, judged by the rule's own figure; for an exact-search or
//! imported tree, only what the tree itself holds, the totals of its subtrees.
//! Every sentence is built from figures given beside it.

use crate::hint::{self, Hint};
use crate::rules::{class_sizes, partition, Rule};
use crate::walk::totals_below;
use crate::{Board, Code, Move, Position, Tree};
use serde_json::{json, Value};
use std::cmp::Ordering;

/// Up to this many secrets in a class are listed by name.
const LIST_UP_TO: usize = 8;

/// The split `guess` makes of `candidates`; with `position` (the tree's guess), the
/// guesses each class takes from there in the tree.
fn split(
    tree: &Tree<impl AsRef<[u8]>>,
    guess: Code,
    candidates: &[Code],
    position: Option<Position>,
) -> Result<Value, String> {
    let board = tree.board();
    let n = candidates.len() as f64;
    let mut classes = Vec::new();
    for (answer, class) in partition(&board, guess, candidates) {
        let below = match position {
            Some(at) if !answer.is_win(board.pegs()) => {
                let child = tree.child(at, answer).map_err(|e| e.to_string())?;
                let child = child.ok_or("the tree has no branch for a class its guess makes")?;
                Some(
                    totals_below(tree, child)
                        .map_err(|e| e.to_string())?
                        .guesses,
                )
            }
            Some(_) => Some(0),
            None => None,
        };
        classes.push(json!({
            "answer": answer.to_string(),
            "secrets": class.len(),
            "guesses_after": below,
            "codes": (class.len() <= LIST_UP_TO)
                .then(|| class.iter().map(|&c| board.display(c).to_string()).collect::<Vec<_>>()),
        }));
    }
    let sizes = class_sizes(&board, guess, candidates);
    let figure = |rule: Rule| rule.figure(&sizes).map_or(0.0, |(_, value)| value);
    Ok(json!({
        "guess": board.display(guess).to_string(),
        "possible_secret": candidates.binary_search(&guess).is_ok(),
        "classes": classes,
        "class_count": sizes.len(),
        "worst_class": sizes.iter().max(),
        "expected_remaining": sizes.iter().map(|&c| f64::from(c * c)).sum::<f64>() / n,
        "entropy_bits": figure(Rule::Entropy),
    }))
}

/// Two values of a figure, whole numbers as they are, others with three decimals
/// or as many more as it takes to tell them apart when they differ.
fn shown(a: f64, b: f64, differ: bool) -> (String, String) {
    let whole = a.fract() == 0.0 && b.fract() == 0.0;
    let least = if whole { 0 } else { 3 };
    (least..=15)
        .map(|d| (format!("{a:.d$}"), format!("{b:.d$}")))
        .find(|(x, y)| !differ || x != y)
        .unwrap_or_else(|| (format!("{a}"), format!("{b}")))
}

/// The comparison of the tree's guess with `alternative` by `rule`, as JSON and as
/// the closing sentence.
fn verdict(board: Board, rule: Rule, candidates: &[Code], ours: Code, theirs: Code) -> Value {
    let name = rule.name();
    let (a, b) = (
        class_sizes(&board, ours, candidates),
        class_sizes(&board, theirs, candidates),
    );
    let (ours_text, theirs_text) = (
        board.display(ours).to_string(),
        board.display(theirs).to_string(),
    );
    let Some(((figure, x), (_, y))) = rule.figure(&a).zip(rule.figure(&b)) else {
        let sentence =
            format!("the {name} rule plays {theirs_text}, the smallest code still possible");
        return json!({ "rule": name, "sentence": sentence });
    };
    let order = rule.compare(&a, &b);
    let (x, y) = shown(x, y, order != Ordering::Equal);
    let possible = |c: Code| candidates.binary_search(&c).is_ok();
    let sentence = match order {
        Ordering::Less => {
            let but = if possible(ours) {
                String::new()
            } else {
                format!(", though it cannot win at once and {theirs_text} could")
            };
            format!("by the {name} rule the tree's guess {ours_text} is better ({figure} {x} against {y}){but}")
        }
        Ordering::Equal => format!(
            "by the {name} rule {ours_text} and {theirs_text} are as good ({figure} {x} each)"
        ),
        Ordering::Greater => format!(
            "by the {name} rule {theirs_text} is better ({figure} {y} against {x}): here the tree does not play that rule's choice"
        ),
    };
    json!({
        "rule": name,
        "figure": figure,
        "tree": x,
        "alternative": y,
        "better": match order {
            Ordering::Less => "tree",
            Ordering::Equal => "equal",
            Ordering::Greater => "alternative",
        },
        "sentence": sentence,
    })
}

/// Everything `explain` says, as JSON; the text is printed from it.
pub fn explanation(tree: &Tree<impl AsRef<[u8]>>, moves: &[Move]) -> Result<Value, String> {
    let board = tree.board();
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let hint = hint::next(tree, moves)?;
    let (guess, position, rule) = match hint {
        Hint::Tree {
            guess, position, ..
        } => (
            guess,
            Some(position),
            meta.strategy.kind().and_then(Rule::of),
        ),
        Hint::Live { guess, rule, .. } => (guess, None, Some(rule)),
        Hint::Solved { guesses } => {
            return Err(format!("the game is already {}", hint::solved_in(guesses)))
        }
    };
    let candidates = hint::consistent(board, moves);
    let ours = split(tree, guess, &candidates, position)?;
    let here = match position {
        Some(at) => Some(totals_below(tree, at).map_err(|e| e.to_string())?),
        None => None,
    };
    let alternative = rule.map(|rule| {
        let theirs = crate::rules::best_guess(&board, rule, &candidates, true);
        (rule, theirs)
    });
    let mut json = json!({
        "candidates": candidates.len(),
        "moves": moves.len(),
        "source": if position.is_some() { "tree" } else { "live" },
        "strategy": meta.strategy.name,
        "rule": rule.map(Rule::name),
        "tree": ours,
        "guesses_here": here.map(|t| t.guesses),
        "guesses_left": here.map(|t| t.deepest),
        "guesses_in_all": here.map(|t| moves.len() as u32 + t.deepest),
        "alternative": null,
        "verdict": null,
    });
    if let Some((rule, theirs)) = alternative {
        if theirs == guess {
            json["verdict"] = json!({
                "rule": rule.name(),
                "better": "same",
                "sentence": format!(
                    "{} is also the best guess by the {} rule among the secrets still possible",
                    board.display(guess),
                    rule.name()
                ),
            });
        } else {
            json["alternative"] = split(tree, theirs, &candidates, None)?;
            json["verdict"] = verdict(board, rule, &candidates, guess, theirs);
        }
    }
    Ok(json)
}
