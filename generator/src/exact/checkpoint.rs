//! What the search has proven, saved and loaded, so that a proof longer than a
//! session (or a machine's uptime) resumes where it stopped.
//!
//! A checkpoint is the cache: for each set (by depth left and key, as cached), its
//! exact cost or a proven lower bound. Every entry is a proof, whatever budget the
//! search had when it made it, so loading them changes the work, never the tree:
//! the guess kept at a node does not depend on what the cache holds (see the
//! module docs of [`super`]). Entries depend on the board, on whether guesses
//! must be still possible and on the kind of keys, and nothing else, so a
//! checkpoint names those and is refused for any other search; damaged bytes (a CRC-32 ends the file) are
//! refused too, never trusted.
//!
//! Layout, little-endian: `MMTCKPT2`, pegs, colours, repeat, candidates-only,
//! canonical keys (a byte each; `MMTCKPT1` lacks the last, its keys were
//! canonical), the entry count (8 bytes), then per entry its depth (4), kind (1: 0 exact,
//! 1 at least), value (4), key length (4) and key codes (4 each); the CRC-32.
//!
//! A search that writes a certificate ([`super::proof`]) saves `MMTCKPT3`: the
//! same, each entry with the number of the certificate's fact that proves it (8
//! bytes, after its key), and before the CRC where the certificate stood (its
//! bytes and facts, 8 bytes each, and its checksum so far, 4), taken after the
//! entries, so every fact they name is in it. A resumed certified run rewinds its
//! certificate there; a certified run refuses a checkpoint without one (its
//! facts would be in no certificate).

use super::cache::{Known, NO_RECORD, SHARDS};
use super::proof::{Position, Proof};
use super::Exact;
use std::time::{Duration, Instant};

const MAGIC: [u8; 8] = *b"MMTCKPT2";

/// The layout of a certified search: records and the certificate's position.
const MAGIC_3: [u8; 8] = *b"MMTCKPT3";

/// The first layout, without the key kind: its keys were canonical.
const MAGIC_1: [u8; 8] = *b"MMTCKPT1";

/// A checkpoint's bytes, and how long the search was kept waiting while they were
/// taken: the longest that one shard of the cache was locked, and all shards'
/// locked time together (what a single lock over the whole cache would have held).
pub struct Checkpoint {
    pub bytes: Vec<u8>,
    pub longest_pause: Duration,
    pub locked: Duration,
}

impl Exact {
    /// A checkpoint of everything proven so far. The cache is read a shard at a
    /// time (see [`super::cache`]): each entry is a proof, so entries taken at
    /// slightly different moments still make a valid checkpoint.
    pub fn checkpoint(&self) -> Result<Checkpoint, String> {
        let b = self.board;
        let certified = self.proving();
        let record_bytes = if certified { 8 } else { 0 };
        let mut out = Vec::from(if certified { MAGIC_3 } else { MAGIC });
        out.extend([
            b.pegs() as u8,
            b.colors() as u8,
            u8::from(b.repeat()),
            u8::from(self.candidates_only),
            u8::from(self.cache_settings.canonical_keys),
        ]);
        // Sized at once (a shard at a time, each briefly; what the search adds
        // meanwhile gets a little room): growing a buffer of gigabytes by doubling
        // would copy it over and over, and hold twice its size at the end.
        let size: usize = (0..SHARDS)
            .map(|index| {
                let shard = self.cache.lock(index);
                shard
                    .entries()
                    .map(|(_, key, _, _)| 13 + record_bytes + 4 * key.len())
                    .sum::<usize>()
            })
            .sum();
        out.reserve_exact(size + size / 64 + 16);
        let count_at = out.len();
        out.extend(0u64.to_le_bytes());
        let (mut count, mut longest_pause, mut locked) = (0u64, Duration::ZERO, Duration::ZERO);
        for index in 0..SHARDS {
            // The shard is written into a buffer of its own, sized at once, so the
            // lock is never held while the whole checkpoint's buffer grows (a copy
            // of gigabytes).
            let from = Instant::now();
            let shard = self.cache.lock(index);
            let size: usize = (shard.entries())
                .map(|(_, key, _, _)| 13 + record_bytes + 4 * key.len())
                .sum();
            let mut part = Vec::with_capacity(size);
            for (depth, key, known, record) in shard.entries() {
                let (kind, value) = match known {
                    Known::Exact(cost) => (0u8, cost),
                    Known::AtLeast(cost) => (1u8, cost),
                };
                part.extend(depth.to_le_bytes());
                part.push(kind);
                part.extend(value.to_le_bytes());
                part.extend((key.len() as u32).to_le_bytes());
                for code in key {
                    part.extend(code.to_le_bytes());
                }
                if certified {
                    part.extend(record.to_le_bytes());
                }
                count += 1;
            }
            drop(shard);
            longest_pause = longest_pause.max(from.elapsed());
            locked += from.elapsed();
            out.extend_from_slice(&part);
        }
        out[count_at..count_at + 8].copy_from_slice(&count.to_le_bytes());
        if certified {
            let at = (self.with_proof(Proof::position))
                .ok_or("the certificate was finished")?
                .map_err(|e| format!("the certificate could not be flushed: {e}"))?;
            out.extend(at.bytes.to_le_bytes());
            out.extend(at.facts.to_le_bytes());
            out.extend(at.crc.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend(crc.to_le_bytes());
        Ok(Checkpoint {
            bytes: out,
            longest_pause,
            locked,
        })
    }

    /// Loads a checkpoint made by a search on the same board with the same
    /// candidates-only setting; returns how many proven sets it held.
    pub fn resume(&self, bytes: &[u8]) -> Result<usize, String> {
        let damaged =
            || "the checkpoint is damaged (its checksum or layout is wrong); not used".to_string();
        let (body, crc) = bytes.split_last_chunk::<4>().ok_or_else(damaged)?;
        let (settings, certified) = match body.get(..8) {
            _ if crc32fast::hash(body) != u32::from_le_bytes(*crc) => return Err(damaged()),
            Some(magic) if magic == MAGIC_3 => (5, true),
            Some(magic) if magic == MAGIC => (5, false),
            Some(magic) if magic == MAGIC_1 => (4, false),
            _ => return Err(damaged()),
        };
        if self.proving() && !certified {
            return Err("the checkpoint was saved without a certificate, so the facts it holds are in none; resume without --certificate, or start a new checkpoint folder".into());
        }
        let (body, position) = match certified {
            true => {
                let (body, tail) = body.split_last_chunk::<20>().ok_or_else(damaged)?;
                let number =
                    |at: usize| u64::from_le_bytes(tail[at..at + 8].try_into().unwrap_or_default());
                let at = Position {
                    bytes: number(0),
                    facts: number(8),
                    crc: u32::from_le_bytes([tail[16], tail[17], tail[18], tail[19]]),
                };
                (body, Some(at))
            }
            false => (body, None),
        };
        let start = 8 + settings + 8;
        if body.len() < start {
            return Err(damaged());
        }
        let b = self.board;
        let ours = [
            b.pegs() as u8,
            b.colors() as u8,
            u8::from(b.repeat()),
            u8::from(self.candidates_only),
            u8::from(self.cache_settings.canonical_keys),
        ];
        let theirs = &body[8..8 + settings];
        // The first layout's keys were canonical.
        let canonical = theirs.get(4).is_none_or(|&k| k == 1);
        if theirs[..4] != ours[..4] || canonical != self.cache_settings.canonical_keys {
            return Err(format!(
                "the checkpoint is for another search ({} pegs, {} colours, repeat {}, candidates only {}, canonical keys {canonical}); not used",
                theirs[0], theirs[1], theirs[2] == 1, theirs[3] == 1
            ));
        }
        let mut rest = &body[start..];
        let mut take = |n: usize| -> Result<&[u8], String> {
            let (head, tail) = rest.split_at_checked(n).ok_or_else(damaged)?;
            rest = tail;
            Ok(head)
        };
        let word = |bytes: &[u8]| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let count = u64::from_le_bytes(body[start - 8..start].try_into().map_err(|_| damaged())?);
        // Entries go into the cache as they are read: the checksum above already
        // proved the bytes whole, and collecting them first took as much memory
        // again as the cache (gigabytes for a long proof). A layout error past it
        // ends the run, so a partial load is never used.
        let mut loaded = 0;
        for _ in 0..count {
            let head = take(13)?;
            let (depth, kind, value, len) = (
                word(&head[0..4]),
                head[4],
                word(&head[5..9]),
                word(&head[9..13]),
            );
            let key = take(4 * len as usize)?;
            let key: Box<[u32]> = key.chunks_exact(4).map(word).collect();
            if key.iter().any(|&c| c as usize >= 1 << (4 * self.pegs)) {
                return Err(damaged());
            }
            let known = match kind {
                0 => Known::Exact(value),
                1 => Known::AtLeast(value),
                _ => return Err(damaged()),
            };
            let record = match (certified, self.proving()) {
                (true, true) => u64::from_le_bytes(take(8)?.try_into().map_err(|_| damaged())?),
                (true, false) => {
                    take(8)?;
                    NO_RECORD
                }
                (false, _) => NO_RECORD,
            };
            self.remember(depth, key.into_vec().into(), known, record);
            loaded += 1;
        }
        if !rest.is_empty() {
            return Err(damaged());
        }
        if let (Some(at), true) = (position, self.proving()) {
            (self.with_proof(|p| p.rewind(at)))
                .unwrap_or(Ok(()))
                .map_err(|e| e.to_string())?;
        }
        Ok(loaded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Codes;
    use crate::exact::tests::search_context;
    use crate::exact::{CacheSettings, UNLIMITED};
    use crate::Counters;
    use lookup::Board;

    fn solved(board: Board) -> Exact {
        let exact = Exact::new(board, None, false);
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let all: Vec<u32> = (0..codes.len()).collect();
        exact.choose(context, &all, &[], UNLIMITED).unwrap();
        exact
    }

    #[test]
    fn a_checkpoint_loads_back_whole_and_refuses_damage_and_other_searches() {
        let board = Board::new(3, 4, true).unwrap();
        let bytes = solved(board).checkpoint().unwrap().bytes;
        let fresh = Exact::new(board, None, false);
        let loaded = fresh.resume(&bytes).unwrap();
        assert!(loaded > 0);
        // The same entries written again: as many, in as many bytes.
        let again = fresh.checkpoint().unwrap().bytes;
        assert_eq!(again.len(), bytes.len());
        assert_eq!(Exact::new(board, None, false).resume(&again), Ok(loaded));
        for at in (0..bytes.len()).step_by(7) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x40;
            assert!(
                Exact::new(board, None, false).resume(&damaged).is_err(),
                "byte {at}"
            );
        }
        let other = Exact::new(Board::new(3, 5, true).unwrap(), None, false);
        assert!(other.resume(&bytes).unwrap_err().contains("another search"));
        let consistent = Exact::new(board, None, true);
        assert!(consistent
            .resume(&bytes)
            .unwrap_err()
            .contains("another search"));
        let plain = CacheSettings {
            canonical_keys: false,
            ..CacheSettings::default()
        };
        let plain_keys = || Exact::new(board, None, false).with_cache(plain);
        assert!(plain_keys()
            .resume(&bytes)
            .unwrap_err()
            .contains("canonical keys true"));
        // The first layout: no key kind, canonical keys.
        let mut first = [&MAGIC_1[..], &bytes[8..12], &bytes[13..bytes.len() - 4]].concat();
        first.extend(crc32fast::hash(&first).to_le_bytes());
        assert_eq!(Exact::new(board, None, false).resume(&first), Ok(loaded));
        assert!(plain_keys().resume(&first).is_err());
    }
}
