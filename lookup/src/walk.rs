//! Depth-first walks over a tree, without recursion: exports stream from it, and
//! explanations measure subtrees with it. The walk keeps one frame per level (the
//! branches of that node), so its memory grows with the depth, never the size; and
//! since every edge leads forward it ends on any bytes.

use crate::format::FormatError;
use crate::score::Feedback;
use crate::tree::{Position, Tree};
use std::vec::Vec;

/// What the walk meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A position, reached by `answer` from its parent (`None` for the start), where
    /// the `depth`-th guess of the walk is made (the start is depth 1).
    Enter {
        position: Position,
        answer: Option<Feedback>,
        depth: u32,
    },
    /// All of `position`'s branches are done.
    Leave { position: Position, depth: u32 },
}

/// Whether to walk into a position's branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Descend {
    Yes,
    No,
}

/// Walks the subtree at `start` in answer order, calling `visit` on each event; an
/// error from `visit` or from the file ends the walk.
pub fn depth_first<D: AsRef<[u8]>, E: From<FormatError>>(
    tree: &Tree<D>,
    start: Position,
    mut visit: impl FnMut(Event) -> Result<Descend, E>,
) -> Result<(), E> {
    struct Frame {
        position: Position,
        depth: u32,
        branches: Vec<(Feedback, Position)>,
        next: usize,
    }
    let open = |position: Position, depth: u32, descend: Descend| -> Result<Frame, E> {
        let branches = match descend {
            Descend::Yes => tree.children(position)?.collect::<Result<Vec<_>, _>>()?,
            Descend::No => Vec::new(),
        };
        Ok(Frame {
            position,
            depth,
            branches,
            next: 0,
        })
    };
    let descend = visit(Event::Enter {
        position: start,
        answer: None,
        depth: 1,
    })?;
    let mut stack = vec![open(start, 1, descend)?];
    while let Some(frame) = stack.last_mut() {
        if let Some(&(answer, child)) = frame.branches.get(frame.next) {
            frame.next += 1;
            let depth = frame.depth + 1;
            let descend = visit(Event::Enter {
                position: child,
                answer: Some(answer),
                depth,
            })?;
            stack.push(open(child, depth, descend)?);
        } else {
            let (position, depth) = (frame.position, frame.depth);
            stack.pop();
            visit(Event::Leave { position, depth })?;
        }
    }
    Ok(())
}

/// What a subtree holds: how many secrets reach it and how many guesses they take
/// from there, its own guess included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub secrets: u64,
    /// Guesses summed over those secrets.
    pub guesses: u64,
    /// The most guesses any of them needs.
    pub deepest: u32,
}

/// The [`Totals`] of the subtree at `start`. Every position a secret passes
/// through costs it one guess, so the total is the sum of the candidate counts of
/// the subtree's positions.
pub fn totals_below<D: AsRef<[u8]>>(
    tree: &Tree<D>,
    start: Position,
) -> Result<Totals, FormatError> {
    let mut totals = Totals {
        secrets: u64::from(tree.candidates(start)?),
        ..Totals::default()
    };
    depth_first(tree, start, |event| {
        if let Event::Enter {
            position, depth, ..
        } = event
        {
            totals.deepest = totals.deepest.max(depth);
            totals.guesses += u64::from(tree.candidates(position)?);
        }
        Ok::<_, FormatError>(Descend::Yes)
    })?;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_knuth_tree_is_five_deep_and_walks_every_node() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../trees/knuth-4x6.mmt"
        ))
        .unwrap();
        let tree = Tree::open(&bytes[..]).unwrap();
        let totals = totals_below(&tree, tree.root()).unwrap();
        assert_eq!(
            (totals.secrets, totals.guesses, totals.deepest),
            (1296, 5801, 5)
        );
        let (mut enters, mut leaves) = (0, 0);
        depth_first(&tree, tree.root(), |e| {
            match e {
                Event::Enter { .. } => enters += 1,
                Event::Leave { .. } => leaves += 1,
            }
            Ok::<_, FormatError>(Descend::Yes)
        })
        .unwrap();
        assert_eq!((enters, leaves), (1378, 1378));
        let mut shallow = 0;
        depth_first(&tree, tree.root(), |e| {
            shallow += 1;
            Ok::<_, FormatError>(if matches!(e, Event::Enter { depth: 2, .. }) {
                Descend::No
            } else {
                Descend::Yes
            })
        })
        .unwrap();
        let branches = tree.children(tree.root()).unwrap().count();
        assert_eq!(branches, 12, "1122 gets 12 answers besides the win");
        assert_eq!(
            shallow,
            2 * (1 + branches),
            "the root and its branches, each entered and left"
        );
    }
}
