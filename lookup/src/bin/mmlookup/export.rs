//! `mmlookup export`: the tree in other notations, streamed (memory grows with the
//! tree's depth, not its size).
//!
//! - `text`: one line per secret, the secret then each guess with its answer;
//! - `json`: nested `{"guess": "1122", "children": {"B,W": {...}}}`, the win implied
//!   (a node with no children guesses the last secret), which `mmgen import` reads;
//! - `dot`: Graphviz, optionally cut at a depth so that large trees stay drawable.

use crate::{source, Failure, Outcome};
use lookup::play::solve;
use lookup::walk::{depth_first, Descend, Event};
use lookup::Tree;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Output notation.
    #[arg(long, value_parser = ["text", "json", "dot"], default_value = "text")]
    format: String,
    /// dot: draw only the first N guesses of every line; deeper branches are summed up.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
}

impl From<lookup::format::FormatError> for Failure {
    fn from(e: lookup::format::FormatError) -> Failure {
        Failure::Message(e.to_string())
    }
}

pub fn run(args: &Args) -> Outcome {
    let tree = source::open(args.file.as_deref())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format.as_str() {
        "text" => text(&tree, &mut out)?,
        "json" => json(&tree, &mut out)?,
        _ => dot(&tree, args.depth.unwrap_or(u32::MAX), &mut out)?,
    }
    out.flush()?;
    Ok(())
}

fn text<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    for secret in board.codes() {
        write!(out, "{}", board.display(secret))?;
        let mut written = Ok(());
        solve(tree, secret, |guess, answer| {
            if written.is_ok() {
                written = write!(out, " {}:{answer}", board.display(guess));
            }
        })
        .map_err(|e| e.to_string())?;
        written?;
        writeln!(out)?;
    }
    Ok(())
}

fn json<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    // Per open node: whether a child has been written (for the commas).
    let mut written_child: Vec<bool> = Vec::new();
    depth_first(tree, tree.root(), |event| -> Result<Descend, Failure> {
        match event {
            Event::Enter {
                position, answer, ..
            } => {
                if let (Some(answer), Some(sibling)) = (answer, written_child.last_mut()) {
                    if std::mem::replace(sibling, true) {
                        write!(out, ",")?;
                    }
                    write!(out, "\"{answer}\":")?;
                }
                write!(
                    out,
                    "{{\"guess\":\"{}\",\"children\":{{",
                    board.display(tree.guess(position)?)
                )?;
                written_child.push(false);
            }
            Event::Leave { .. } => {
                written_child.pop();
                write!(out, "}}}}")?;
            }
        }
        Ok(Descend::Yes)
    })?;
    writeln!(out)?;
    Ok(())
}

fn dot<D: AsRef<[u8]>>(tree: &Tree<D>, max_depth: u32, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    writeln!(out, "digraph mastermind {{")?;
    writeln!(out, "  node [shape=box, fontname=monospace];")?;
    let mut ids: Vec<u64> = Vec::new();
    let mut next_id = 0u64;
    depth_first(tree, tree.root(), |event| -> Result<Descend, Failure> {
        match event {
            Event::Enter {
                position,
                answer,
                depth,
            } => {
                let id = next_id;
                next_id += 1;
                let candidates = tree.candidates(position)?;
                let cut = depth >= max_depth && tree.children(position)?.next().is_some();
                let label = if cut {
                    format!(
                        "{}\\n{candidates} secrets\\n...",
                        board.display(tree.guess(position)?)
                    )
                } else {
                    format!("{}\\n{candidates}", board.display(tree.guess(position)?))
                };
                writeln!(out, "  n{id} [label=\"{label}\"];")?;
                if let (Some(answer), Some(parent)) = (answer, ids.last()) {
                    writeln!(out, "  n{parent} -> n{id} [label=\"{answer}\"];")?;
                }
                ids.push(id);
                return Ok(if cut { Descend::No } else { Descend::Yes });
            }
            Event::Leave { .. } => {
                ids.pop();
            }
        }
        Ok(Descend::Yes)
    })?;
    writeln!(out, "}}")?;
    Ok(())
}
