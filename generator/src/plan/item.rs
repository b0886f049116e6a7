//! One work item's result as a file (see the module docs of [`super`]): magic,
//! the plan's identity, the item's index, the seconds it took (all its solves), what names its
//! certificate (a certified exact plan's: 1, its size, its CRC-32, and its last
//! fact's head, length first; else 0), the subtree in preorder (or, for an exact
//! item shown too dear, tag 2 and the least it costs), and a CRC-32 of everything
//! before it. Little-endian throughout.
//!
//! The certificate is named so that the item stands without it: a certificate of
//! gigabytes may be checked where it was written and not kept, and the item, a
//! few kilobytes, kept with a campaign's other items (`mmgen merge --certificate`
//! then repeats its last fact as a premise: docs/certificate.md, "A proof in
//! parts"). Items of the first format (`MMTITEM1`) name none: theirs must be there.

use super::exact::Cost;
use crate::build::Subtree;
use crate::bytes::Reader;

/// The first bytes of an item file, and of one of the first format.
const MAGIC: [u8; 8] = *b"MMTITEM2";
const MAGIC_1: [u8; 8] = *b"MMTITEM1";

/// A finished item: what it found, how long it took, and its certificate.
#[derive(Debug)]
pub struct Solved {
    pub outcome: Outcome,
    /// The seconds its searches took, every solve of it summed (an item shown
    /// dearer by its share only is solved again).
    pub seconds: f64,
    pub certificate: Option<Part>,
}

/// What names an item's certificate, a part of a proof, and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub bytes: u64,
    pub crc: u32,
    /// Its last fact's head (depth, bound, set); `None` if it has no fact (the
    /// size bound alone settled the class).
    pub last: Option<Vec<u8>>,
}

/// What an item found.
#[derive(Debug)]
pub enum Outcome {
    /// The item's subtree.
    Tree(Subtree),
    /// An exact item's class costs at least this much: too dear to matter.
    AtLeast(u64),
}

impl Outcome {
    /// What the item costs: its subtree's total, or the least it costs.
    pub fn cost(&self) -> Cost {
        match self {
            Outcome::Tree(subtree) => Cost::Exact(subtree.total()),
            Outcome::AtLeast(least) => Cost::AtLeast(*least),
        }
    }
}

/// The tag of [`Outcome::AtLeast`], after those of a leaf (0) and a node (1).
const AT_LEAST: u8 = 2;

fn encode_subtree(tree: &Subtree, out: &mut Vec<u8>) {
    match tree {
        Subtree::Leaf(code) => {
            out.push(0);
            out.extend(code.to_le_bytes());
        }
        Subtree::Node {
            guess,
            wins,
            candidates,
            children,
        } => {
            out.push(1);
            out.extend(guess.to_le_bytes());
            out.push(u8::from(*wins));
            out.extend(candidates.to_le_bytes());
            out.push(children.len() as u8);
            for (answer, child) in children {
                out.push(*answer as u8);
                encode_subtree(child, out);
            }
        }
    }
}

/// The bytes of item `index` of the plan `plan_id`.
pub fn encode(plan_id: u32, index: u32, solved: &Solved) -> Vec<u8> {
    let mut out = Vec::from(MAGIC);
    out.extend(plan_id.to_le_bytes());
    out.extend(index.to_le_bytes());
    out.extend(solved.seconds.to_le_bytes());
    match &solved.certificate {
        None => out.push(0),
        Some(part) => {
            out.push(1);
            out.extend(part.bytes.to_le_bytes());
            out.extend(part.crc.to_le_bytes());
            let last = part.last.as_deref().unwrap_or_default();
            out.extend((last.len() as u32).to_le_bytes());
            out.extend_from_slice(last);
        }
    }
    match &solved.outcome {
        Outcome::Tree(subtree) => encode_subtree(subtree, &mut out),
        Outcome::AtLeast(cost) => {
            out.push(AT_LEAST);
            out.extend(cost.to_le_bytes());
        }
    }
    let crc = crc32fast::hash(&out);
    out.extend(crc.to_le_bytes());
    out
}

impl Reader<'_> {
    /// A subtree; its depth is bounded by the item's size (each level holds fewer
    /// secrets), checked through `budget`, so damaged bytes cannot recurse deep.
    fn subtree(&mut self, budget: u32) -> Option<Subtree> {
        match self.u8()? {
            0 => Some(Subtree::Leaf(self.u32()?)),
            1 if budget > 0 => {
                let guess = self.u32()?;
                let wins = self.u8()? == 1;
                let candidates = self.u32()?;
                let count = self.u8()?;
                let children = (0..count)
                    .map(|_| Some((usize::from(self.u8()?), self.subtree(budget - 1)?)))
                    .collect::<Option<Vec<_>>>()?;
                Some(Subtree::Node {
                    guess,
                    wins,
                    candidates,
                    children,
                })
            }
            _ => None,
        }
    }
}

/// Reads item `index` of plan `plan_id` of `secrets` secrets; `None` if the bytes
/// are damaged or belong to another plan or item.
pub fn decode(bytes: &[u8], plan_id: u32, index: u32, secrets: u32) -> Option<Solved> {
    let (body, crc) = bytes.split_last_chunk::<4>()?;
    if crc32fast::hash(body) != u32::from_le_bytes(*crc) {
        return None;
    }
    let mut r = Reader::new(body);
    let magic = r.take::<8>()?;
    if ![MAGIC, MAGIC_1].contains(&magic) || r.u32()? != plan_id || r.u32()? != index {
        return None;
    }
    let seconds = f64::from_le_bytes(r.take()?);
    let certificate = match magic == MAGIC && r.u8()? == 1 {
        false => None,
        true => {
            let bytes = u64::from_le_bytes(r.take()?);
            let crc = r.u32()?;
            let len = r.u32()? as usize;
            let head = r.bytes.get(..len)?;
            r.bytes = &r.bytes[len..];
            let last = (len > 0).then(|| head.to_vec());
            Some(Part { bytes, crc, last })
        }
    };
    let outcome = match r.bytes.first() {
        Some(&AT_LEAST) => {
            r.u8()?;
            Outcome::AtLeast(u64::from_le_bytes(r.take()?))
        }
        _ => Outcome::Tree(r.subtree(secrets)?),
    };
    r.bytes.is_empty().then_some(Solved {
        outcome,
        seconds,
        certificate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_round_trip_and_damage_is_refused() {
        let subtree = Subtree::Node {
            guess: 3,
            wins: true,
            candidates: 3,
            children: vec![(0, Subtree::Leaf(5)), (4, Subtree::Leaf(7))],
        };
        let bytes = encode(
            42,
            7,
            &Solved {
                outcome: Outcome::Tree(subtree),
                seconds: 1.5,
                certificate: None,
            },
        );
        let back = decode(&bytes, 42, 7, 3).unwrap();
        assert_eq!(back.seconds, 1.5);
        assert_eq!(encode(42, 7, &back), bytes);
        let part = Part {
            bytes: 1 << 33,
            crc: 0xdead_beef,
            last: Some(vec![0, 9, 2, 5, 1]),
        };
        let dear = Solved {
            outcome: Outcome::AtLeast(1 << 40),
            seconds: 0.25,
            certificate: Some(part.clone()),
        };
        let dear_bytes = encode(42, 8, &dear);
        let back = decode(&dear_bytes, 42, 8, 3).unwrap();
        assert!(matches!(back.outcome, Outcome::AtLeast(c) if c == 1 << 40));
        assert_eq!(back.certificate, Some(part));
        assert!(decode(&dear_bytes[..dear_bytes.len() - 1], 42, 8, 3).is_none());
        assert!(decode(&bytes, 43, 7, 3).is_none(), "another plan");
        assert!(decode(&bytes, 42, 8, 3).is_none(), "another item");
        for at in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert!(decode(&damaged, 42, 7, 3).is_none(), "byte {at}");
        }
        assert!(decode(&bytes[..bytes.len() - 1], 42, 7, 3).is_none());
        for at in 0..dear_bytes.len() {
            let mut damaged = dear_bytes.clone();
            damaged[at] ^= 1;
            assert!(decode(&damaged, 42, 8, 3).is_none(), "byte {at}");
        }
    }

    #[test]
    fn items_of_the_first_format_are_read() {
        // MMTITEM1: no certificate field; bytes as the first format wrote them.
        let mut old = Vec::from(*b"MMTITEM1");
        old.extend(42u32.to_le_bytes());
        old.extend(7u32.to_le_bytes());
        old.extend(2.0f64.to_le_bytes());
        old.extend([0u8]);
        old.extend(5u32.to_le_bytes());
        old.extend(crc32fast::hash(&old).to_le_bytes());
        let back = decode(&old, 42, 7, 1).unwrap();
        assert!(matches!(back.outcome, Outcome::Tree(Subtree::Leaf(5))));
        assert_eq!(back.certificate, None);
    }
}
