//! Streams a tree file out, checksumming the bytes as they pass.
//!
//! The writer never holds the file in memory: records and edges are encoded one at a
//! time into a small buffer. Writing to a temporary name and renaming is the caller's
//! job (see `mmgen`), since only the caller knows the destination.

use super::{Child, FormatError, Layout, Meta, NodeRecord};
use crate::board::Board;
use std::io::{self, Write};

/// Counts and checksums every byte written through it.
struct ChecksumWriter<W> {
    inner: W,
    hasher: crate::checksum::Hasher,
    written: u64,
}

impl<W: Write> Write for ChecksumWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes a complete tree file to `out` and returns its length in bytes.
///
/// `records[0]` is the root; every `Child::Node(j)` in `edges` reached from record
/// `i` must have `j > i` (breadth-first order gives this), and each record's edges
/// are `edges[first_edge..first_edge + mask.count_ones()]`.
pub fn write_tree<W: Write>(
    out: W,
    board: Board,
    meta: &Meta,
    records: &[NodeRecord],
    edges: &[Child],
) -> io::Result<u64> {
    let too_big = |what| io::Error::new(io::ErrorKind::InvalidInput, what);
    let meta_bytes = meta.encode();
    let meta_len = u32::try_from(meta_bytes.len())
        .ok()
        .filter(|&len| len <= super::MAX_META_LEN)
        .ok_or_else(|| too_big(FormatError::MetaTooLong(meta_bytes.len() as u32).to_string()))?;
    let record_count =
        u32::try_from(records.len()).map_err(|_| too_big("more than 2^32 nodes".into()))?;
    let edge_count =
        u32::try_from(edges.len()).map_err(|_| too_big("more than 2^32 edges".into()))?;
    let layout = Layout::new(board, record_count, edge_count, meta_len);

    let mut out = ChecksumWriter {
        inner: io::BufWriter::new(out),
        hasher: crate::checksum::Hasher::new(),
        written: 0,
    };
    out.write_all(&layout.prefix())?;
    out.write_all(&meta_bytes)?;
    let mut buf = [0u8; 32];
    let width = layout.record_width();
    for record in records {
        record.write(&layout, &mut buf[..width]);
        out.write_all(&buf[..width])?;
    }
    for edge in edges {
        edge.write(&layout, &mut buf[..layout.child_width]);
        out.write_all(&buf[..layout.child_width])?;
    }
    let checksum = out.hasher.clone().finalize();
    let mut inner = out.inner;
    inner.write_all(&checksum.to_le_bytes())?;
    inner.flush()?;
    Ok(out.written + 4)
}
