//! What can be wrong with a tree file's bytes; every message is one line.

use crate::board::BoardError;
use core::fmt;

/// A tree file that cannot be read, or a value in it that cannot be followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// Shorter than the fixed prefix and checksum.
    TooShort { len: usize },
    /// Not an mmtree file.
    Magic,
    /// A format version this reader does not know.
    Version { expected: u16, got: u16 },
    /// Reserved bytes or flag bits that are not zero.
    Reserved,
    /// The prefix names a board that is not supported.
    Board(BoardError),
    /// No root record.
    NoRoot,
    /// The metadata is longer than a reader accepts.
    MetaTooLong(u32),
    /// The file's length is not what its prefix says.
    Length { expected: u64, got: u64 },
    /// The metadata does not decode.
    Meta,
    /// The checksum does not match the bytes.
    Checksum { stored: u32, computed: u32 },
    /// A record index past the node table.
    RecordIndex { index: u64, records: u32 },
    /// A record whose fields are out of range.
    Record { index: u32, problem: RecordProblem },
    /// A code index past the board's codes.
    CodeIndex(u32),
    /// An edge index past the edge table.
    EdgeIndex { index: u32, edges: u32 },
    /// An edge that leads to the root or to an earlier record (a loop).
    EdgeBackwards { from: u32, to: u64 },
    /// An edge value that is neither a code nor a record.
    EdgeValue { from: u32, value: u64 },
    /// The tables are not laid out as a tree in breadth-first order (see
    /// [`crate::Tree::verify`]).
    Shape { record: u32, problem: ShapeProblem },
}

/// How a record breaks the breadth-first tree layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeProblem {
    /// Its edges do not start right after those of the record before it.
    FirstEdge { first: u32, expected: u32 },
    /// An edge leads to this record where the next record in order was due.
    ChildOrder { child: u32, expected: u32 },
    /// More secrets are stored below it than it has, or more than one too few.
    Candidates { stored: u32, below: u64 },
    /// The root does not hold every code of the board.
    RootCandidates { stored: u32, codes: u32 },
    /// The records use fewer edges than the edge table has.
    UnusedEdges { used: u32, edges: u32 },
    /// No edge leads to this record.
    Unreached,
}

/// Which field of a record is out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordProblem {
    Guess(u64),
    Candidates(u64),
    Mask(u64),
    Edges { first: u64, count: u32 },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FormatError::*;
        match *self {
            TooShort { len } => write!(f, "not a tree file: only {len} bytes"),
            Magic => f.write_str("not a tree file: wrong magic bytes"),
            Version { expected, got } => write!(
                f,
                "tree file format version {got} is not supported (this build reads version \
                 {expected}); regenerate the tree with this version's mmgen"
            ),
            Reserved => f.write_str("corrupt tree file: reserved header bytes are not zero"),
            Board(e) => write!(f, "corrupt tree file: {e}"),
            NoRoot => f.write_str("corrupt tree file: no root node"),
            MetaTooLong(len) => write!(f, "corrupt tree file: metadata of {len} bytes is too long"),
            Length { expected, got } => write!(
                f,
                "truncated or corrupt tree file: {got} bytes, the header says {expected}"
            ),
            Meta => f.write_str("corrupt tree file: the metadata does not decode"),
            Checksum { stored, computed } => write!(
                f,
                "corrupt tree file: checksum {computed:08x} does not match the stored {stored:08x}"
            ),
            RecordIndex { index, records } => write!(
                f,
                "corrupt tree file: node {index} is past the {records} nodes of the table"
            ),
            Record { index, problem } => {
                write!(f, "corrupt tree file: node {index} has ")?;
                match problem {
                    RecordProblem::Guess(g) => write!(f, "guess index {g}, past the last code"),
                    RecordProblem::Candidates(c) => write!(f, "an impossible candidate count {c}"),
                    RecordProblem::Mask(m) => write!(f, "answer mask {m:#x} with unknown answers"),
                    RecordProblem::Edges { first, count } => {
                        write!(f, "{count} edges from {first}, past the edge table")
                    }
                }
            }
            CodeIndex(index) => write!(f, "code index {index} is past the board's codes"),
            EdgeIndex { index, edges } => write!(
                f,
                "corrupt tree file: edge {index} is past the {edges} edges of the table"
            ),
            EdgeBackwards { from, to } => write!(
                f,
                "corrupt tree file: node {from} leads back to node {to} (a loop)"
            ),
            EdgeValue { from, value } => write!(
                f,
                "corrupt tree file: node {from} has an edge to {value}, neither a code nor a node"
            ),
            Shape { record, problem } => {
                write!(f, "corrupt tree file: node {record} ")?;
                match problem {
                    ShapeProblem::FirstEdge { first, expected } => write!(
                        f,
                        "starts its edges at {first}, not at {expected} where the node before it ends"
                    ),
                    ShapeProblem::ChildOrder { child, expected } => write!(
                        f,
                        "leads to node {child} where node {expected} comes next in breadth-first order"
                    ),
                    ShapeProblem::Candidates { stored, below } => write!(
                        f,
                        "claims {stored} candidates but holds {below} below it (or one more it wins)"
                    ),
                    ShapeProblem::RootCandidates { stored, codes } => write!(
                        f,
                        "is the root with {stored} candidates, but the board has {codes} codes"
                    ),
                    ShapeProblem::UnusedEdges { used, edges } => write!(
                        f,
                        "is the last, and the nodes use {used} of the {edges} edges in the table"
                    ),
                    ShapeProblem::Unreached => f.write_str("is not reached from the root"),
                }
            }
        }
    }
}

impl core::error::Error for FormatError {}
