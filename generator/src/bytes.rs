//! Reading the little-endian layouts this crate writes by hand (work items,
//! a checkpoint's standing): a cursor that fails at the end instead of
//! panicking, since every such file is untrusted input until checked.

/// Reads bytes in order, failing at the end.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub(crate) fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.bytes.split_first_chunk::<N>()?;
        self.bytes = rest;
        Some(*head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::Reader;

    #[test]
    fn a_reader_reads_in_order_and_fails_at_the_end() {
        let mut r = Reader::new(&[7, 1, 0, 0, 0, 2]);
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u32(), Some(1));
        assert_eq!(r.u32(), None);
        assert_eq!(r.bytes, &[2]);
    }
}
