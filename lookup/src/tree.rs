//! A strategy tree read in place from any bytes: a memory map, a `Vec<u8>`, or bytes
//! compiled into a binary.
//!
//! [`Tree::open`] verifies the whole file before it answers anything: the checksum,
//! then the shape of the tables (see [`Tree::verify`]). That is one pass over the
//! bytes with no allocation, so it also runs on a device, and it turns damaged bytes
//! into an error instead of a wrong answer. [`Tree::open_unverified`] checks only the
//! prefix and the length (O(1)), for callers that verified the bytes before.
//!
//! Either way every record and edge is checked again when it is read, so a walk over
//! corrupt or hostile bytes ends in an error, never a panic, and never takes more
//! steps than there are records (edges only lead forward). That the answers are
//! right (every mask, count and leaf is what the guesses really make of the
//! secrets, and the statistics hold) is what `audit::audit` proves.

use crate::board::{Board, Code};
use crate::format::{Child, FormatError, Layout, NodeRecord, ShapeProblem, CHECKSUM_LEN};
use crate::score::{answer_count, Feedback};

/// A position in the tree: where a guess is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    /// A node record, with several secrets (or a non-candidate guess) still to play.
    Node(u32),
    /// One secret left, and it is the guess: the code index.
    Leaf(u32),
}

impl From<Child> for Position {
    fn from(child: Child) -> Position {
        match child {
            Child::Leaf(code) => Position::Leaf(code),
            Child::Node(record) => Position::Node(record),
        }
    }
}

/// A tree file's bytes, checked enough to walk.
#[derive(Clone, Debug)]
pub struct Tree<D> {
    data: D,
    layout: Layout,
}

impl<D: AsRef<[u8]>> Tree<D> {
    /// Opens a tree file after verifying all of it ([`Tree::verify`]): O(file size),
    /// about a millisecond per megabyte.
    pub fn open(data: D) -> Result<Tree<D>, FormatError> {
        let tree = Tree::open_unverified(data)?;
        tree.verify()?;
        Ok(tree)
    }

    /// Opens a tree file checking only its prefix and length (O(1)).
    ///
    /// For bytes that were verified before (say, by the program that embedded them).
    /// On damaged or hostile bytes the walks still never panic, read out of bounds
    /// or loop, but they may answer wrongly: a wrong guess, a wrong candidate count,
    /// a missing branch reported as an impossible history, or a [`FormatError`]
    /// only when the walk reaches the damage.
    pub fn open_unverified(data: D) -> Result<Tree<D>, FormatError> {
        let layout = Layout::read(data.as_ref())?;
        Ok(Tree { data, layout })
    }

    /// Checks the checksum, then the shape of the tables, in one pass with no
    /// allocation: records are numbered breadth first (the edges of record 0, then
    /// of record 1, ..., name records 1, 2, 3, ... in that order), each record's
    /// edges start where the previous record's end and together use the whole edge
    /// table, the root holds every code, and each record's candidates are those
    /// stored below it, or one more (the secret its guess wins).
    ///
    /// The layout alone makes the file a tree, every record reached from the root
    /// exactly once.
    pub fn verify(&self) -> Result<(), FormatError> {
        self.verify_checksum()?;
        self.verify_shape()
    }

    fn verify_shape(&self) -> Result<(), FormatError> {
        let shape = |record, problem| FormatError::Shape { record, problem };
        let codes = self.board().code_count();
        let root = self.record(0)?.candidates;
        if root != codes {
            return Err(shape(
                0,
                ShapeProblem::RootCandidates {
                    stored: root,
                    codes,
                },
            ));
        }
        let (mut used, mut next) = (0u32, 1u32);
        for record in 0..self.layout.records {
            let node = self.record(record)?;
            if node.first_edge != used {
                return Err(shape(
                    record,
                    ShapeProblem::FirstEdge {
                        first: node.first_edge,
                        expected: used,
                    },
                ));
            }
            // The edges are read in table order, each record's right after the last.
            let mut below = 0u64;
            let edges = self.edge_table();
            for edge in used..used + node.mask.count_ones() {
                match Child::read(&self.layout, edges, edge, record)? {
                    Child::Leaf(_) => below += 1,
                    Child::Node(child) if child == next => {
                        next += 1;
                        below += u64::from(self.record(child)?.candidates);
                    }
                    Child::Node(child) => {
                        let problem = ShapeProblem::ChildOrder {
                            child,
                            expected: next,
                        };
                        return Err(shape(record, problem));
                    }
                }
            }
            let stored = node.candidates;
            if !(below..=below + 1).contains(&u64::from(stored)) {
                return Err(shape(record, ShapeProblem::Candidates { stored, below }));
            }
            used += node.mask.count_ones();
        }
        let last = self.layout.records - 1;
        if next != self.layout.records {
            return Err(shape(next, ShapeProblem::Unreached));
        }
        if used != self.layout.edges {
            let edges = self.layout.edges;
            return Err(shape(last, ShapeProblem::UnusedEdges { used, edges }));
        }
        Ok(())
    }

    pub fn board(&self) -> Board {
        self.layout.board
    }

    /// The same tree, its board writing and reading colours in the notation of
    /// `board` ([`Board::with_letters`], [`Board::with_alphabet`]): the file is
    /// unchanged. `board` must be this tree's board; if it is another, the tree
    /// keeps its own.
    pub fn in_notation(mut self, board: Board) -> Tree<D> {
        if board.with_digits() == self.layout.board.with_digits() {
            self.layout.board = board;
        }
        self
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    fn section(&self, from: u64, len: u64) -> &[u8] {
        // Layout::read checked that the file is exactly as long as its sections.
        &self.bytes()[from as usize..(from + len) as usize]
    }

    fn node_table(&self) -> &[u8] {
        let l = &self.layout;
        self.section(l.nodes_offset(), l.edges_offset() - l.nodes_offset())
    }

    fn edge_table(&self) -> &[u8] {
        let l = &self.layout;
        let end = l.file_len() - CHECKSUM_LEN as u64;
        self.section(l.edges_offset(), end - l.edges_offset())
    }

    /// Decodes the metadata (bounded by [`crate::format::MAX_META_LEN`]).
    #[cfg(feature = "std")]
    pub fn meta(&self) -> Result<crate::format::Meta, FormatError> {
        crate::format::Meta::decode(self.section(
            crate::format::PREFIX_LEN as u64,
            u64::from(self.layout.meta_len),
        ))
    }

    /// The statistics the metadata records, read with no allocator (see
    /// [`Claims`](crate::format::Claims)).
    pub fn claims(&self) -> Result<crate::format::Claims<'_>, FormatError> {
        crate::format::Claims::read(self.section(
            crate::format::PREFIX_LEN as u64,
            u64::from(self.layout.meta_len),
        ))
    }

    /// Recomputes the checksum over the whole file (O(file size)).
    pub fn verify_checksum(&self) -> Result<(), FormatError> {
        let bytes = self.bytes();
        let (body, tail) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let computed = crate::checksum::crc32(body);
        if stored == computed {
            Ok(())
        } else {
            Err(FormatError::Checksum { stored, computed })
        }
    }

    /// The root: the first guess.
    pub fn root(&self) -> Position {
        Position::Node(0)
    }

    /// Record `index`, every field checked.
    pub fn record(&self, index: u32) -> Result<NodeRecord, FormatError> {
        NodeRecord::read(&self.layout, self.node_table(), index)
    }

    /// The code index guessed at `position`.
    pub fn guess_index(&self, position: Position) -> Result<u32, FormatError> {
        match position {
            Position::Node(record) => Ok(self.record(record)?.guess),
            Position::Leaf(code) => Ok(code),
        }
    }

    /// The code guessed at `position`.
    pub fn guess(&self, position: Position) -> Result<Code, FormatError> {
        let index = self.guess_index(position)?;
        self.board()
            .code(index)
            .ok_or(FormatError::CodeIndex(index))
    }

    /// Secrets still possible at `position`.
    pub fn candidates(&self, position: Position) -> Result<u32, FormatError> {
        match position {
            Position::Node(record) => Ok(self.record(record)?.candidates),
            Position::Leaf(_) => Ok(1),
        }
    }

    /// The position after `answer` at `position`; `None` if the tree has no such
    /// branch (the win, or an answer no remaining secret gives).
    pub fn child(
        &self,
        position: Position,
        answer: Feedback,
    ) -> Result<Option<Position>, FormatError> {
        let Position::Node(record) = position else {
            return Ok(None);
        };
        let pegs = self.board().pegs();
        if answer.is_win(pegs) || answer.check(&self.board()).is_err() {
            return Ok(None);
        }
        let node = self.record(record)?;
        let bit = answer.index(pegs);
        if node.mask & (1 << bit) == 0 {
            return Ok(None);
        }
        let rank = (node.mask & ((1 << bit) - 1)).count_ones();
        let child = Child::read(
            &self.layout,
            self.edge_table(),
            node.first_edge + rank,
            record,
        )?;
        Ok(Some(child.into()))
    }

    /// The branches of `position` in answer order.
    pub fn children(
        &self,
        position: Position,
    ) -> Result<impl Iterator<Item = Result<(Feedback, Position), FormatError>> + '_, FormatError>
    {
        let (record, node) = match position {
            Position::Node(record) => (record, Some(self.record(record)?)),
            Position::Leaf(_) => (0, None),
        };
        let pegs = self.board().pegs();
        let mask = node.map_or(0, |n| n.mask);
        let first = node.map_or(0, |n| n.first_edge);
        Ok((0..answer_count(pegs) - 1)
            .filter(move |&bit| mask & (1 << bit) != 0)
            .enumerate()
            .map(move |(rank, bit)| {
                let child =
                    Child::read(&self.layout, self.edge_table(), first + rank as u32, record)?;
                // `bit` is below the answer count, so it names an answer.
                let answer = Feedback::from_index(bit, pegs).unwrap_or(Feedback::win(pegs));
                Ok((answer, child.into()))
            }))
    }
}
