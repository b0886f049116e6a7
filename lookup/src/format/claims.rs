//! What a tree's header claims it achieves (secrets, nodes, worst case, total,
//! histogram), read from the metadata's bytes with no allocator, so that a chip can
//! check a tree it carries against the tree's own record.
//!
//! The metadata is [`Meta`](super::Meta) encoded by bincode 2's standard
//! configuration: integers as varints (below 251 one byte; 251, 252, 253 then a
//! 2-, 4- or 8-byte little-endian value), strings and sequences as a varint length
//! and their items, `Option` as a 0/1 byte and its value. This reader skips the
//! strings and walks to the statistics; `Meta::decode` (std, serde) reads the whole
//! block, and the tests hold the two to the same figures on every shipped tree and
//! on random headers.

use super::FormatError;

/// The statistics a tree's header records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claims<'a> {
    /// The strategy's short name, as given to `mmgen --strategy`: UTF-8 bytes (as
    /// bincode wrote them; unchecked here, as checking links 300 bytes of code into a
    /// chip's image: `core::str::from_utf8` them where text is needed).
    pub strategy: &'a [u8],
    pub secrets: u64,
    pub nodes: u64,
    pub max_guesses: u32,
    pub total_guesses: u64,
    /// The histogram's entries, still encoded (each checked by [`Claims::read`]).
    histogram: &'a [u8],
}

impl<'a> Claims<'a> {
    /// Reads the statistics from the encoded metadata `meta`, which must end with them.
    pub fn read(meta: &'a [u8]) -> Result<Claims<'a>, FormatError> {
        // Option inside, one error at the end: on a chip this is a third of the code.
        Claims::parse(meta).ok_or(FormatError::Meta)
    }

    fn parse(meta: &'a [u8]) -> Option<Claims<'a>> {
        let mut r = Reader(meta);
        r.string()?; // generator
        let strategy = r.string()?;
        r.string()?; // rule
        r.string()?; // tie-break
        for _ in 0..r.varint()? {
            r.string()?; // a parameter's name
            r.string()?; // and its value
        }
        match r.byte()? {
            0 => {}
            1 if r.byte()? <= 1 => {}
            _ => return None,
        }
        let secrets = r.varint()?;
        let nodes = r.varint()?;
        let max_guesses = u32::try_from(r.varint()?).ok()?;
        let total_guesses = r.varint()?;
        let entries = r.varint()?;
        let histogram = r.0;
        for _ in 0..entries {
            r.varint()?;
        }
        r.0.is_empty().then_some(Claims {
            strategy,
            secrets,
            nodes,
            max_guesses,
            total_guesses,
            histogram,
        })
    }

    /// `histogram()`'s item `i`: the secrets solved with `i + 1` guesses.
    pub fn histogram(&self) -> impl Iterator<Item = u64> + 'a {
        let mut r = Reader(self.histogram);
        // Every entry was decoded once by `read`.
        core::iter::from_fn(move || r.varint())
    }
}

/// The bytes not read yet.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(usize::try_from(n).ok()?)?;
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn varint(&mut self) -> Option<u64> {
        let width = match self.byte()? {
            small @ 0..=250 => return Some(u64::from(small)),
            251 => 2,
            252 => 4,
            253 => 8,
            _ => return None,
        };
        Some(super::read_le(self.take(width)?))
    }

    fn string(&mut self) -> Option<&'a [u8]> {
        let len = self.varint()?;
        self.take(len)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::format::{Meta, Stats, StrategyInfo};
    use proptest::prelude::*;
    use std::vec::Vec;

    fn same(meta: &Meta) {
        let bytes = meta.encode();
        let claims = Claims::read(&bytes).unwrap();
        let s = &meta.stats;
        assert_eq!(claims.strategy, meta.strategy.name.as_bytes());
        assert_eq!(
            (
                claims.secrets,
                claims.nodes,
                claims.max_guesses,
                claims.total_guesses
            ),
            (s.secrets, s.nodes, s.max_guesses, s.total_guesses)
        );
        assert_eq!(claims.histogram().collect::<Vec<_>>(), s.histogram);
        // Cut anywhere, or with a byte more, it is refused.
        for len in 0..bytes.len() {
            assert_eq!(Claims::read(&bytes[..len]), Err(FormatError::Meta), "{len}");
        }
        let longer = [&bytes[..], &[0]].concat();
        assert_eq!(Claims::read(&longer), Err(FormatError::Meta));
    }

    #[test]
    fn every_shipped_tree_claims_what_its_meta_says() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../trees");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "mmt") {
                let bytes = std::fs::read(&path).unwrap();
                let tree = crate::Tree::open(&bytes[..]).unwrap();
                same(&tree.meta().unwrap());
                assert_eq!(
                    tree.claims().unwrap().total_guesses,
                    tree.meta().unwrap().stats.total_guesses
                );
                seen += 1;
            }
        }
        assert!(seen >= 10, "{seen} trees");
    }

    proptest! {
        #[test]
        fn any_header_reads_as_serde_decodes_it(
            generator in ".{0,300}",
            name in ".{0,20}",
            params in proptest::collection::vec(("[a-z ]{0,20}", ".{0,40}"), 0..4),
            proven in proptest::option::of(any::<bool>()),
            secrets in any::<u64>(),
            nodes in prop_oneof![0..251u64, 251..65536u64, any::<u64>()],
            max_guesses in any::<u32>(),
            total_guesses in any::<u64>(),
            histogram in proptest::collection::vec(prop_oneof![0..300u64, any::<u64>()], 0..40),
        ) {
            same(&Meta {
                generator,
                strategy: StrategyInfo {
                    name,
                    rule: "least total".into(),
                    tie_break: "smallest code".into(),
                    params,
                    proven,
                },
                stats: Stats { secrets, nodes, max_guesses, total_guesses, histogram },
            });
        }
    }
}
