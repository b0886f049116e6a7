//! The raw node and edge entries: decoding from bytes with every value checked, and
//! encoding for the writer, side by side so the two cannot drift apart.

use super::error::RecordProblem;
use super::{read_le, FormatError, Layout};
use crate::score::answer_count;

/// One node record, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeRecord {
    /// Index of the code to play.
    pub guess: u32,
    /// Secrets still possible here.
    pub candidates: u32,
    /// Bit `a` set: answer `a` leads on (never the win).
    pub mask: u64,
    /// Index of the first of this node's `mask.count_ones()` edges.
    pub first_edge: u32,
}

/// Where an edge leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Child {
    /// One secret left: this code index, which is also the next guess.
    Leaf(u32),
    /// A node record.
    Node(u32),
}

fn put_le(out: &mut [u8], value: u64) {
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (value >> (8 * i)) as u8;
    }
}

impl NodeRecord {
    /// Reads record `index` from the node table `table` and checks every field.
    pub fn read(layout: &Layout, table: &[u8], index: u32) -> Result<NodeRecord, FormatError> {
        if index >= layout.records {
            return Err(FormatError::RecordIndex {
                index: u64::from(index),
                records: layout.records,
            });
        }
        let width = layout.record_width();
        let start = index as usize * width;
        let bytes = table
            .get(start..start + width)
            .ok_or(FormatError::RecordIndex {
                index: u64::from(index),
                records: layout.records,
            })?;
        let (guess, rest) = bytes.split_at(layout.code_width);
        let (candidates, rest) = rest.split_at(layout.code_width);
        let (mask, first) = rest.split_at(layout.mask_width);
        let (guess, candidates, mask, first) = (
            read_le(guess),
            read_le(candidates),
            read_le(mask),
            read_le(first),
        );
        let codes = u64::from(layout.board.code_count());
        let answers = answer_count(layout.board.pegs()) - 1;
        let problem = if guess >= codes {
            Some(RecordProblem::Guess(guess))
        } else if candidates == 0 || candidates > codes {
            Some(RecordProblem::Candidates(candidates))
        } else if mask >> answers != 0 {
            Some(RecordProblem::Mask(mask))
        } else if first + u64::from(mask.count_ones()) > u64::from(layout.edges) {
            Some(RecordProblem::Edges {
                first,
                count: mask.count_ones(),
            })
        } else {
            None
        };
        match problem {
            Some(problem) => Err(FormatError::Record { index, problem }),
            None => Ok(NodeRecord {
                guess: guess as u32,
                candidates: candidates as u32,
                mask,
                first_edge: first as u32,
            }),
        }
    }

    /// Appends the stored bytes of this record.
    pub fn write(&self, layout: &Layout, out: &mut [u8]) {
        let (guess, rest) = out.split_at_mut(layout.code_width);
        let (candidates, rest) = rest.split_at_mut(layout.code_width);
        let (mask, first) = rest.split_at_mut(layout.mask_width);
        put_le(guess, u64::from(self.guess));
        put_le(candidates, u64::from(self.candidates));
        put_le(mask, self.mask);
        put_le(first, u64::from(self.first_edge));
    }
}

impl Child {
    /// Reads edge `index` of `table`, reached from record `from`, and checks that it
    /// leads to a code or to a later record.
    pub fn read(
        layout: &Layout,
        table: &[u8],
        index: u32,
        from: u32,
    ) -> Result<Child, FormatError> {
        let width = layout.child_width;
        let start = index as usize * width;
        let bytes = table
            .get(start..start + width)
            .ok_or(FormatError::EdgeIndex {
                index,
                edges: layout.edges,
            })?;
        let value = read_le(bytes);
        let codes = u64::from(layout.board.code_count());
        if value < codes {
            return Ok(Child::Leaf(value as u32));
        }
        let record = value - codes;
        if record >= u64::from(layout.records) {
            Err(FormatError::EdgeValue { from, value })
        } else if record <= u64::from(from) {
            Err(FormatError::EdgeBackwards { from, to: record })
        } else {
            Ok(Child::Node(record as u32))
        }
    }

    /// The stored bytes of this edge.
    pub fn write(&self, layout: &Layout, out: &mut [u8]) {
        let value = match *self {
            Child::Leaf(code) => u64::from(code),
            Child::Node(record) => u64::from(layout.board.code_count()) + u64::from(record),
        };
        put_le(out, value);
    }
}
