//! `mmlookup explain`: why the tree plays what it plays. For the tree's next guess:
//! how it splits the secrets still possible, its worst class, the expected size of
//! the class the secret falls in, and the most guesses still needed from here; and
//! the same for the best guess that could itself be the secret, so the user sees
//! why the tree sometimes plays a code that cannot win.

use crate::Outcome;
use lookup::play::{self, Next};
use lookup::rules::{best_guess, partition, Rule};
use lookup::score::score;
use lookup::walk::depth_below;
use lookup::{Board, Code};
use std::io::Write;

pub use crate::next::Args;

/// Up to this many secrets in a class are listed by name.
const LIST_UP_TO: usize = 8;

fn split_json(board: Board, guess: Code, candidates: &[Code]) -> serde_json::Value {
    let classes = partition(&board, guess, candidates);
    let sizes: Vec<u64> = classes.iter().map(|(_, c)| c.len() as u64).collect();
    let n = candidates.len() as f64;
    serde_json::json!({
        "guess": board.display(guess).to_string(),
        "possible_secret": candidates.binary_search(&guess).is_ok(),
        "worst_class": sizes.iter().max(),
        "expected_remaining": sizes.iter().map(|&c| (c * c) as f64).sum::<f64>() / n,
        "classes": classes.iter().map(|(answer, class)| serde_json::json!({
            "answer": answer.to_string(),
            "secrets": class.len(),
            "codes": (class.len() <= LIST_UP_TO).then(|| class.iter().map(|&c| board.display(c).to_string()).collect::<Vec<_>>()),
        })).collect::<Vec<_>>(),
    })
}

fn describe(out: &mut impl Write, split: &serde_json::Value) -> std::io::Result<()> {
    for class in split["classes"].as_array().into_iter().flatten() {
        let codes = class["codes"]
            .as_array()
            .map(|codes| {
                let names: Vec<&str> = codes.iter().filter_map(|c| c.as_str()).collect();
                format!("  {}", names.join(" "))
            })
            .unwrap_or_default();
        let secrets = class["secrets"].as_u64().unwrap_or(0);
        let answer = class["answer"].as_str().unwrap_or("");
        writeln!(out, "    {answer:>4} -> {secrets:>5}{codes}")?;
    }
    writeln!(
        out,
        "    worst class {}, expected remaining {:.2}",
        split["worst_class"],
        split["expected_remaining"].as_f64().unwrap_or(0.0)
    )
}

pub fn run(args: &Args) -> Outcome {
    let (tree, moves) = args.open()?;
    let board = tree.board();
    let (position, guess) = match play::next(&tree, &moves).map_err(|e| e.to_string())? {
        Next::Guess {
            position, guess, ..
        } => (position, guess),
        Next::Solved { guesses } => {
            return Err(format!("the game is already solved in {guesses} guesses").into())
        }
    };
    let candidates: Vec<Code> = board
        .codes()
        .filter(|&s| {
            moves
                .iter()
                .all(|m| score(m.guess, s, board.pegs()) == m.answer)
        })
        .collect();
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let rule = Rule::for_strategy(&meta.strategy.name).unwrap_or(Rule::ExpectedSize);
    let alternative = best_guess(&board, rule, &candidates, true);
    let guesses_left = depth_below(&tree, position).map_err(|e| e.to_string())?;
    let ours = split_json(board, guess, &candidates);
    let theirs = split_json(board, alternative, &candidates);
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "candidates": candidates.len(),
            "tree": ours,
            "guesses_left": guesses_left,
            "guesses_in_all": moves.len() as u32 + guesses_left,
            "best_possible_secret": theirs,
            "rule": rule.name(),
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    let after = if moves.len() == 1 {
        "1 move".to_string()
    } else {
        format!("{} moves", moves.len())
    };
    writeln!(
        out,
        "{} secrets still possible after {after}",
        candidates.len()
    )?;
    let possible = if ours["possible_secret"] == true {
        "could be the secret"
    } else {
        "cannot be the secret"
    };
    writeln!(
        out,
        "the tree plays {} ({possible}); answers it can get:",
        board.display(guess)
    )?;
    describe(&mut out, &ours)?;
    writeln!(
        out,
        "    at most {guesses_left} more guesses from here, this one included ({} in all)",
        moves.len() as u32 + guesses_left
    )?;
    if alternative == guess {
        writeln!(
            out,
            "it is also the best guess by the {} rule among the possible secrets",
            rule.name()
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "the best guess that could be the secret, by the {} rule: {}",
        rule.name(),
        board.display(alternative)
    )?;
    describe(&mut out, &theirs)?;
    writeln!(
        out,
        "the tree's guess splits the secrets better (worst class {} against {}), even though it cannot win at once",
        ours["worst_class"], theirs["worst_class"]
    )?;
    Ok(())
}
