//! The tree file, and only here: layout, metadata, the raw node view, the writer.
//!
//! The byte layout is documented in `FORMAT.md` (included below). Everything about
//! offsets and widths lives in [`Layout`], derived from the fixed 32-byte prefix, so
//! the reader and the writer cannot disagree about where a field is.
#![doc = include_str!("../../FORMAT.md")]

mod claims;
mod error;
#[cfg(feature = "std")]
mod meta;
mod node;
#[cfg(feature = "std")]
mod strategy;
#[cfg(feature = "std")]
mod summary;
#[cfg(feature = "std")]
mod writer;

pub use claims::Claims;
pub use error::{FormatError, RecordProblem, ShapeProblem};
#[cfg(feature = "std")]
pub use meta::{Meta, Stats, StrategyInfo};
pub use node::{Child, NodeRecord};
#[cfg(feature = "std")]
pub use strategy::{Param, Settings, StrategyKind};
#[cfg(feature = "std")]
pub use summary::Summary;
#[cfg(feature = "std")]
pub use writer::write_tree;

use crate::board::Board;
use crate::score::answer_count;

/// The first 8 bytes of every tree file.
pub const MAGIC: [u8; 8] = *b"\x89MMT\r\n\x1a\n";
/// The format version this library reads and writes.
pub const VERSION: u16 = 1;
/// Length of the fixed prefix before the metadata.
pub const PREFIX_LEN: usize = 32;
/// Length of the trailing checksum.
pub const CHECKSUM_LEN: usize = 4;
/// The largest metadata a reader accepts.
pub const MAX_META_LEN: u32 = 64 * 1024;

/// Where everything is in a file: read from the prefix, checked against the length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub board: Board,
    /// Node records (internal nodes).
    pub records: u32,
    /// Edge entries.
    pub edges: u32,
    /// Metadata length in bytes.
    pub meta_len: u32,
    pub code_width: usize,
    pub mask_width: usize,
    pub first_width: usize,
    pub child_width: usize,
}

/// Bytes needed to hold `value` (at least one).
fn bytes_for(value: u64) -> usize {
    (((64 - value.leading_zeros()) as usize).div_ceil(8)).max(1)
}

impl Layout {
    /// The layout of a tree with these counts.
    pub fn new(board: Board, records: u32, edges: u32, meta_len: u32) -> Layout {
        let codes = u64::from(board.code_count());
        Layout {
            board,
            records,
            edges,
            meta_len,
            code_width: bytes_for(codes),
            mask_width: (answer_count(board.pegs()) - 1).div_ceil(8),
            first_width: bytes_for(u64::from(edges)),
            child_width: bytes_for(codes + u64::from(records).saturating_sub(1)),
        }
    }

    /// Bytes of one node record.
    pub fn record_width(&self) -> usize {
        2 * self.code_width + self.mask_width + self.first_width
    }

    /// Offset of the node table.
    pub fn nodes_offset(&self) -> u64 {
        PREFIX_LEN as u64 + u64::from(self.meta_len)
    }

    /// Offset of the edge table.
    pub fn edges_offset(&self) -> u64 {
        self.nodes_offset() + u64::from(self.records) * self.record_width() as u64
    }

    /// The length of the whole file.
    pub fn file_len(&self) -> u64 {
        self.edges_offset() + u64::from(self.edges) * self.child_width as u64 + CHECKSUM_LEN as u64
    }

    /// The fixed prefix describing this layout.
    pub fn prefix(&self) -> [u8; PREFIX_LEN] {
        let mut p = [0u8; PREFIX_LEN];
        p[..8].copy_from_slice(&MAGIC);
        p[8..10].copy_from_slice(&VERSION.to_le_bytes());
        p[10] = self.board.pegs() as u8;
        p[11] = self.board.colors() as u8;
        p[12] = u8::from(self.board.repeat());
        p[16..20].copy_from_slice(&self.records.to_le_bytes());
        p[20..24].copy_from_slice(&self.edges.to_le_bytes());
        p[24..28].copy_from_slice(&self.meta_len.to_le_bytes());
        p
    }

    /// Reads and checks the prefix of `bytes`, and that `bytes` is exactly as long as
    /// the prefix says. O(1): the checksum and the tables are left to [`crate::Tree::verify`].
    pub fn read(bytes: &[u8]) -> Result<Layout, FormatError> {
        if bytes.len() < PREFIX_LEN + CHECKSUM_LEN {
            return Err(FormatError::TooShort { len: bytes.len() });
        }
        if bytes[..8] != MAGIC {
            return Err(FormatError::Magic);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(FormatError::Version {
                expected: VERSION,
                got: version,
            });
        }
        if bytes[12] > 1 || bytes[13..16] != [0; 3] || bytes[28..32] != [0; 4] {
            return Err(FormatError::Reserved);
        }
        let board = Board::new(u32::from(bytes[10]), u32::from(bytes[11]), bytes[12] == 1)
            .map_err(FormatError::Board)?;
        let word = |at: usize| read_le(&bytes[at..at + 4]) as u32;
        let layout = Layout::new(board, word(16), word(20), word(24));
        if layout.records == 0 {
            return Err(FormatError::NoRoot);
        }
        if layout.meta_len > MAX_META_LEN {
            return Err(FormatError::MetaTooLong(layout.meta_len));
        }
        if layout.file_len() != bytes.len() as u64 {
            return Err(FormatError::Length {
                expected: layout.file_len(),
                got: bytes.len() as u64,
            });
        }
        Ok(layout)
    }
}

/// A little-endian unsigned integer of 1 to 8 bytes.
pub(crate) fn read_le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0, |acc, &b| (acc << 8) | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_fit_the_board() {
        assert_eq!(bytes_for(0), 1);
        assert_eq!(bytes_for(255), 1);
        assert_eq!(bytes_for(256), 2);
        assert_eq!(bytes_for(1 << 24), 4);
        let classic = Layout::new(Board::classic(), 400, 1800, 100);
        assert_eq!(
            (
                classic.code_width,
                classic.mask_width,
                classic.first_width,
                classic.child_width
            ),
            (2, 2, 2, 2)
        );
        assert_eq!(classic.record_width(), 8);
        let eight = Layout::new(Board::new(8, 2, true).unwrap(), 1, 0, 0);
        assert_eq!(eight.mask_width, 6, "43 non-winning answers on 8 pegs");
    }

    #[test]
    fn prefix_round_trips() {
        let layout = Layout::new(Board::new(4, 10, false).unwrap(), 7, 30, 12);
        let mut bytes = std::vec::Vec::from(layout.prefix());
        bytes.resize(layout.file_len() as usize, 0);
        assert_eq!(Layout::read(&bytes), Ok(layout));
        bytes.push(0);
        assert!(matches!(
            Layout::read(&bytes),
            Err(FormatError::Length { .. })
        ));
    }

    #[test]
    fn le_reads_any_width() {
        assert_eq!(read_le(&[0x34, 0x12]), 0x1234);
        assert_eq!(read_le(&[1, 0, 0]), 1);
        assert_eq!(read_le(&[0xff; 8]), u64::MAX);
    }
}
