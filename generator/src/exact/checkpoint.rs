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
//!
//! `MMTCKPT4` and `MMTCKPT5` are layouts 2 and 3 with the standing after the
//! rest, before the CRC: the positions all runs searched, the cheapest whole
//! tree found and the floors shown (their bytes as [`Exact::standing_bytes`]
//! lays them out, then their length, 4 bytes). They are not proofs but what the
//! search did, found and showed; kept, a resumed run reports them at once
//! instead of as its cache gives them back.
//!
//! `MMTCKPT6` and `MMTCKPT7` are layouts 4 and 5 with the guesses of the root's
//! classes worked out so far after the standing ([`super::subtrees`]: their bytes,
//! then their length, 4 bytes), so that a resumed run's tree is built from them
//! instead of searched again. Every layout loads; saves write 6 or 7.

use super::cache::{CacheSettings, Known, NO_RECORD, SHARDS};
use super::found::{complete, Kept, Solved, Standing};
use super::proof::{Position, Proof};
use super::{Context, Exact};
use crate::codes::Codes;
use crate::{Counters, Node};
use lookup::Board;
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::time::{Duration, Instant};

const MAGIC: [u8; 8] = *b"MMTCKPT2";

/// The layout of a certified search: records and the certificate's position.
const MAGIC_3: [u8; 8] = *b"MMTCKPT3";

/// Layout 2 with the standing.
const MAGIC_4: [u8; 8] = *b"MMTCKPT4";

/// Layout 3 with the standing.
const MAGIC_5: [u8; 8] = *b"MMTCKPT5";

/// Layout 4 with the kept guesses.
const MAGIC_6: [u8; 8] = *b"MMTCKPT6";

/// Layout 5 with the kept guesses: what saves write for a certified search.
const MAGIC_7: [u8; 8] = *b"MMTCKPT7";

/// The first layout, without the key kind: its keys were canonical.
const MAGIC_1: [u8; 8] = *b"MMTCKPT1";

/// The bytes after the entries of a certified layout: the certificate's position.
const POSITION_BYTES: u64 = 20;

/// A load reads the file through a buffer of this many bytes.
const READ_BUFFER: usize = 1 << 18;

/// What taking a checkpoint took: its size in bytes, and how long the search was
/// kept waiting: the longest that one shard of the cache was locked, and all
/// shards' locked time together (what a single lock over the whole cache would
/// have held).
pub struct Checkpoint {
    pub bytes: u64,
    pub longest_pause: Duration,
    pub locked: Duration,
}

fn written(e: io::Error) -> String {
    format!("the checkpoint could not be written: {e}")
}

fn damaged() -> String {
    "the checkpoint is damaged (its checksum or layout is wrong); not used".into()
}

/// A read error: a file cut short is damaged, any other error is the disk's.
fn read(e: io::Error) -> String {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => damaged(),
        _ => format!("the checkpoint could not be read: {e}"),
    }
}

impl Exact {
    /// Writes a checkpoint of everything proven so far to `out`, streamed: the
    /// cache is read a shard at a time (see [`super::cache`]) into a buffer of
    /// that shard's size, so the save needs a shard's room, never a copy of the
    /// cache (gigabytes for a long proof). Each entry is a proof, so entries taken
    /// at slightly different moments still make a valid checkpoint. The entry
    /// count, known only at the end, is written into its place last; the
    /// checksum over it and the rest is put together from their parts' CRCs.
    pub fn save_checkpoint(&self, mut out: impl Write + Seek) -> Result<Checkpoint, String> {
        let b = self.board;
        let certified = self.proving();
        let record_bytes = if certified { 8 } else { 0 };
        let mut header = Vec::from(if certified { MAGIC_7 } else { MAGIC_6 });
        header.extend([
            b.pegs() as u8,
            b.colors() as u8,
            u8::from(b.repeat()),
            u8::from(self.candidates_only),
            u8::from(self.cache_settings.canonical_keys),
        ]);
        // Unbuffered: each shard's part is one write.
        out.write_all(&header).map_err(written)?;
        out.write_all(&[0; 8]).map_err(written)?;
        let mut rest = crc32fast::Hasher::new();
        let mut bytes = header.len() as u64 + 8;
        let (mut count, mut longest_pause, mut locked) = (0u64, Duration::ZERO, Duration::ZERO);
        let mut part = Vec::new();
        for index in 0..SHARDS {
            // The shard is written into a buffer sized at once, so the lock is
            // never held while a buffer grows.
            let from = Instant::now();
            let shard = self.cache.lock(index);
            let size: usize = (shard.entries())
                .map(|(_, key, _, _)| 13 + record_bytes + 4 * key.len())
                .sum();
            part.clear();
            part.reserve(size);
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
            rest.update(&part);
            out.write_all(&part).map_err(written)?;
            bytes += part.len() as u64;
        }
        if certified {
            let at = (self.with_proof(Proof::position))
                .ok_or("the certificate was finished")?
                .map_err(|e| format!("the certificate could not be flushed: {e}"))?;
            let mut tail = Vec::from(at.bytes.to_le_bytes());
            tail.extend(at.facts.to_le_bytes());
            tail.extend(at.crc.to_le_bytes());
            rest.update(&tail);
            out.write_all(&tail).map_err(written)?;
            bytes += tail.len() as u64;
        }
        let subtrees = self.subtrees.bytes(self.dropped());
        for mut section in [self.standing_bytes(), subtrees] {
            section.extend((section.len() as u32).to_le_bytes());
            rest.update(&section);
            out.write_all(&section).map_err(written)?;
            bytes += section.len() as u64;
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header);
        let mut counted = crc32fast::Hasher::new();
        counted.update(&count.to_le_bytes());
        crc.combine(&counted);
        crc.combine(&rest);
        out.write_all(&crc.finalize().to_le_bytes())
            .map_err(written)?;
        out.seek(SeekFrom::Start(header.len() as u64))
            .and_then(|_| out.write_all(&count.to_le_bytes()))
            .and_then(|_| out.flush())
            .map_err(written)?;
        Ok(Checkpoint {
            bytes: bytes + 4,
            longest_pause,
            locked,
        })
    }

    /// Loads a checkpoint made by a search on the same board with the same
    /// candidates-only setting; returns how many proven sets it held. Read twice,
    /// streamed: once for the checksum, then entry by entry into the cache, so the
    /// load needs no room besides the cache's (collecting the entries first took
    /// as much memory again as the cache).
    pub fn resume(&self, mut input: impl Read + Seek) -> Result<usize, String> {
        let layout = Layout::read(&mut input)?;
        if self.proving() && !layout.certified {
            return Err("the checkpoint was saved without a certificate, so the facts it holds are in none; resume without --certificate, or start a new checkpoint folder".into());
        }
        let b = self.board;
        let ours = [
            b.pegs() as u8,
            b.colors() as u8,
            u8::from(b.repeat()),
            u8::from(self.candidates_only),
        ];
        let theirs = &layout.settings;
        let canonical = layout.canonical_keys();
        if theirs[..4] != ours || canonical != self.cache_settings.canonical_keys {
            return Err(format!(
                "the checkpoint is for another search ({} pegs, {} colours, repeat {}, candidates only {}, canonical keys {canonical}); not used",
                theirs[0], theirs[1], theirs[2] == 1, theirs[3] == 1
            ));
        }
        // Taken back before the entries: a layout error leaves nothing loaded.
        if let Some(standing) = &layout.standing {
            self.restore_standing(standing).ok_or_else(damaged)?;
        }
        if let Some(subtrees) = &layout.subtrees {
            (self.subtrees.restore(subtrees, self.codes)).ok_or_else(damaged)?;
        }
        let loaded = self.load_entries(&mut input, &layout, |_, _| true)?;
        if let (Some(at), true) = (layout.position, self.proving()) {
            (self.with_proof(|p| p.rewind(at)))
                .unwrap_or(Ok(()))
                .map_err(|e| e.to_string())?;
        }
        Ok(loaded)
    }

    /// Reads the entries of the checkpoint `input` (laid out as `layout` says,
    /// its checksum checked) into the cache, those `keep` takes (by depth and
    /// key); returns how many it kept.
    fn load_entries(
        &self,
        mut input: impl Read + Seek,
        layout: &Layout,
        keep: impl Fn(u32, &[u32]) -> bool,
    ) -> Result<usize, String> {
        input.seek(SeekFrom::Start(layout.start)).map_err(read)?;
        let within = layout.end.checked_sub(layout.start).ok_or_else(damaged)?;
        let mut entries = BufReader::with_capacity(READ_BUFFER, (&mut input).take(within));
        let mut take = |buffer: &mut [u8]| entries.read_exact(buffer).map_err(read);
        let word = |bytes: &[u8]| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let mut count = [0; 8];
        take(&mut count)?;
        // Entries go into the cache as they are read: the checksum already proved
        // the bytes whole. A layout error past it ends the run, so a partial load
        // is never used.
        let (mut loaded, mut head, mut codes) = (0, [0; 13], Vec::new());
        for _ in 0..u64::from_le_bytes(count) {
            take(&mut head)?;
            let (depth, kind, value, len) = (
                word(&head[0..4]),
                head[4],
                word(&head[5..9]),
                word(&head[9..13]),
            );
            codes.resize(4 * len as usize, 0);
            take(&mut codes)?;
            let key: Box<[u32]> = codes.chunks_exact(4).map(word).collect();
            if key.iter().any(|&c| c as usize >= 1 << (4 * self.pegs)) {
                return Err(damaged());
            }
            let known = match kind {
                0 => Known::Exact(value),
                1 => Known::AtLeast(value),
                _ => return Err(damaged()),
            };
            let record = match layout.certified {
                true => {
                    let mut record = [0; 8];
                    take(&mut record)?;
                    match self.proving() {
                        true => u64::from_le_bytes(record),
                        false => NO_RECORD,
                    }
                }
                false => NO_RECORD,
            };
            if keep(depth, &key) {
                self.remember(depth, key.into_vec().into(), known, record);
                loaded += 1;
            }
        }
        if entries.read(&mut [0]).map_err(read)? != 0 {
            return Err(damaged());
        }
        Ok(loaded)
    }
}

/// Where the parts of a checkpoint file are, its checksum checked: what a load
/// and a summary both need before the entries.
struct Layout {
    /// Pegs, colours, repeat, candidates-only and (from layout 2 on) canonical
    /// keys, a byte each.
    settings: Vec<u8>,
    certified: bool,
    /// Where the entries (their count first) start and end.
    start: u64,
    end: u64,
    /// Where the certificate stood (certified layouts).
    position: Option<Position>,
    /// The standing's bytes (layouts 4 to 7).
    standing: Option<Vec<u8>>,
    /// The kept guesses' bytes (layouts 6 and 7).
    subtrees: Option<Vec<u8>>,
}

impl Layout {
    /// Whether the checkpoint's keys are canonical (the first layout's were).
    fn canonical_keys(&self) -> bool {
        self.settings.get(4).is_none_or(|&k| k == 1)
    }

    /// Checks the checksum (streamed through a buffer: a checkpoint has
    /// gigabytes) and finds the parts.
    fn read(mut input: impl Read + Seek) -> Result<Layout, String> {
        let len = input.seek(SeekFrom::End(0)).map_err(read)?;
        let body_len = len.checked_sub(4).ok_or_else(damaged)?;
        input.seek(SeekFrom::Start(0)).map_err(read)?;
        let mut reader = BufReader::with_capacity(READ_BUFFER, &mut input);
        let mut crc = crc32fast::Hasher::new();
        let mut left = body_len;
        while left > 0 {
            let buffer = reader.fill_buf().map_err(read)?;
            if buffer.is_empty() {
                return Err(damaged());
            }
            let n = buffer.len().min(left as usize);
            crc.update(&buffer[..n]);
            reader.consume(n);
            left -= n as u64;
        }
        let mut stored = [0; 4];
        reader.read_exact(&mut stored).map_err(read)?;
        if crc.finalize() != u32::from_le_bytes(stored) {
            return Err(damaged());
        }
        drop(reader);
        input.seek(SeekFrom::Start(0)).map_err(read)?;
        let mut magic = [0; 8];
        input.read_exact(&mut magic).map_err(read)?;
        let (settings, certified, with_standing, with_subtrees) = match magic {
            MAGIC_7 => (5, true, true, true),
            MAGIC_6 => (5, false, true, true),
            MAGIC_5 => (5, true, true, false),
            MAGIC_4 => (5, false, true, false),
            MAGIC_3 => (5, true, false, false),
            MAGIC => (5, false, false, false),
            MAGIC_1 => (4, false, false, false),
            _ => return Err(damaged()),
        };
        let mut theirs = vec![0; settings];
        input.read_exact(&mut theirs).map_err(read)?;
        let mut end = body_len;
        // The sections at the end, last first: each its bytes, then their length.
        let mut section = |with: bool| -> Result<Option<Vec<u8>>, String> {
            if !with {
                return Ok(None);
            }
            let mut len = [0; 4];
            end = end.checked_sub(4).ok_or_else(damaged)?;
            input.seek(SeekFrom::Start(end)).map_err(read)?;
            input.read_exact(&mut len).map_err(read)?;
            let len = u64::from(u32::from_le_bytes(len));
            end = end.checked_sub(len).ok_or_else(damaged)?;
            let mut bytes = vec![0; len as usize];
            input.seek(SeekFrom::Start(end)).map_err(read)?;
            input.read_exact(&mut bytes).map_err(read)?;
            Ok(Some(bytes))
        };
        let subtrees = section(with_subtrees)?;
        let standing = section(with_standing)?;
        let position = match certified {
            true => {
                end = end.checked_sub(POSITION_BYTES).ok_or_else(damaged)?;
                let mut tail = [0; POSITION_BYTES as usize];
                input.seek(SeekFrom::Start(end)).map_err(read)?;
                input.read_exact(&mut tail).map_err(read)?;
                let number = |at: usize| {
                    let mut bytes = [0; 8];
                    bytes.copy_from_slice(&tail[at..at + 8]);
                    u64::from_le_bytes(bytes)
                };
                Some(Position {
                    bytes: number(0),
                    facts: number(8),
                    crc: u32::from_le_bytes([tail[16], tail[17], tail[18], tail[19]]),
                })
            }
            false => None,
        };
        let start = 8 + settings as u64;
        if end < start + 8 {
            return Err(damaged());
        }
        Ok(Layout {
            settings: theirs,
            certified,
            start,
            end,
            position,
            standing,
            subtrees,
        })
    }
}

/// What a checkpoint file says of its search without loading its facts
/// (`mmgen status --checkpoint`): its board, its facts' count, and where the
/// proof stood at the save.
pub struct Summary {
    pub board: Board,
    pub candidates_only: bool,
    /// Saved by a search that writes a certificate.
    pub certified: bool,
    /// The proven sets it holds.
    pub sets: u64,
    /// Where the proof stood (layouts 4 and 5; `None` before them).
    pub standing: Option<Standing>,
}

/// Reads the checkpoint `input`: its checksum checked, its standing read, its
/// facts counted but not loaded.
pub fn summary(mut input: impl Read + Seek) -> Result<Summary, String> {
    let layout = Layout::read(&mut input)?;
    Ok(summarize(input, &layout)?.0)
}

/// The summary of the checkpoint `input` laid out as `layout` (its checksum
/// checked), and its standing as kept (layouts 4 and 5).
fn summarize(
    mut input: impl Read + Seek,
    layout: &Layout,
) -> Result<(Summary, Option<Kept>), String> {
    let s = &layout.settings;
    let board = Board::new(u32::from(s[0]), u32::from(s[1]), s[2] == 1).map_err(|_| damaged())?;
    let mut count = [0; 8];
    input.seek(SeekFrom::Start(layout.start)).map_err(read)?;
    input.read_exact(&mut count).map_err(read)?;
    let kept = match &layout.standing {
        Some(bytes) => Some(Kept::read(bytes, board.code_count() as usize).ok_or_else(damaged)?),
        None => None,
    };
    let summary = Summary {
        board,
        candidates_only: s[3] == 1,
        certified: layout.certified,
        sets: u64::from_le_bytes(count),
        standing: kept.as_ref().map(Kept::standing),
    };
    Ok((summary, kept))
}

/// [`summary`], with how far each first guess was solved at the save
/// ([`Standing::solved`], in the order of the standing's first guesses, as the
/// run's log says it) where the checkpoint kept floors. The checksum is checked
/// once, then the facts are streamed and only those of the first guesses'
/// classes kept: a few hundred, whatever the checkpoint's size; the small
/// classes get the look one guess ahead, as in the run. `path`: the guesses and
/// answers from the board's root to the search's (a plan's item's; empty for a
/// whole proof), whose class the first guesses split.
pub fn summary_with_classes(
    mut input: impl Read + Seek,
    path: &[(u32, usize)],
) -> Result<Summary, String> {
    let layout = Layout::read(&mut input)?;
    let (mut summary, kept) = summarize(&mut input, &layout)?;
    let shown = (kept.as_ref().and_then(Kept::shown)).filter(|(_, h)| !h.firsts.is_empty());
    let (Some(&((depth, _), ref shown)), Some(standing)) = (shown, summary.standing.as_mut())
    else {
        return Ok(summary);
    };
    // A search's root has a guess left at least (a standing saying 0 is damaged).
    if depth == 0 {
        return Err(damaged());
    }
    let board = summary.board;
    let settings = CacheSettings {
        canonical_keys: layout.canonical_keys(),
        ..CacheSettings::default()
    };
    let exact = Exact::new(board, None, summary.candidates_only).with_cache(settings);
    let codes = Codes::new(board);
    let counters = Counters::default();
    let context = Context {
        codes: &codes,
        symmetry: true,
        counters: &counters,
        past_deadline: false,
    };
    let class = crate::plan::class(&codes, path);
    let history: Vec<u32> = path.iter().map(|&(guess, _)| guess).collect();
    let root = Node {
        candidates: &class,
        history: &history,
    };
    // The facts a first guess's floor asks of the cache (Exact::guess_floor).
    let mut wanted: HashMap<u32, HashSet<Vec<u32>>> = HashMap::new();
    for &(guess, _) in &shown.firsts {
        for (_, part) in codes
            .split(guess, &class)
            .0
            .iter()
            .filter(|(_, p)| p.len() > 2)
        {
            let at = (depth - 1).min(part.len() as u32);
            let key = exact.key(&codes, part).into_owned();
            wanted.entry(at).or_default().insert(key);
        }
    }
    let keep = |depth, key: &[u32]| wanted.get(&depth).is_some_and(|keys| keys.contains(key));
    exact.load_entries(&mut input, &layout, keep)?;
    let (floors, solved): (Vec<(u32, u32)>, Vec<Solved>) = (shown.firsts.iter())
        .map(|&(guess, _)| {
            let (floor, solved) = exact.guess_floor(context, root, guess, depth);
            ((guess, floor), solved)
        })
        .unzip();
    let best = (standing.best.zip(standing.best_first).into_iter())
        .chain(complete(&floors, &solved))
        .min();
    (standing.best, standing.best_first) = (best.map(|b| b.0), best.map(|b| b.1));
    standing.solved = solved;
    Ok(summary)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::codes::Codes;
    use crate::exact::tests::search_context;
    use crate::exact::{CacheSettings, UNLIMITED};
    use crate::Counters;
    use lookup::Board;
    use std::io::Cursor;

    fn solved(board: Board) -> Exact {
        let exact = Exact::new(board, None, false);
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let all: Vec<u32> = (0..codes.len()).collect();
        exact.choose(context, &all, &[], UNLIMITED).unwrap();
        exact
    }

    /// The checkpoint `exact` saves, as bytes.
    pub(in crate::exact) fn saved(exact: &Exact) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let checkpoint = exact.save_checkpoint(&mut out).unwrap();
        let bytes = out.into_inner();
        assert_eq!(checkpoint.bytes, bytes.len() as u64);
        bytes
    }

    #[test]
    fn a_checkpoint_loads_back_whole_and_refuses_damage_and_other_searches() {
        let board = Board::new(3, 4, true).unwrap();
        let exact = solved(board);
        // With guesses kept by a search whose cache dropped facts.
        let (tight, _) = crate::exact::subtrees::tests::tightly_solved(board);
        let kept = tight.subtrees.bytes(true);
        assert!(kept.len() > 8, "no guesses kept");
        exact.subtrees.restore(&kept, exact.codes).unwrap();
        let bytes = saved(&exact);
        // The checksum put together from its parts' is the whole body's.
        let (body, crc) = bytes.split_last_chunk::<4>().unwrap();
        assert_eq!(crc32fast::hash(body), u32::from_le_bytes(*crc));
        let fresh = Exact::new(board, None, false);
        let loaded = fresh.resume(Cursor::new(&bytes)).unwrap();
        assert!(loaded > 0);
        // The same entries written again: as many, in as many bytes; the kept
        // guesses the same bytes.
        let again = saved(&fresh);
        assert_eq!(again.len(), bytes.len());
        assert_eq!(fresh.subtrees.bytes(fresh.dropped()), kept);
        assert!(
            fresh.dropped(),
            "a run resumed from one that dropped facts keeps guesses"
        );
        let resumed = |bytes: &[u8]| Exact::new(board, None, false).resume(Cursor::new(bytes));
        assert_eq!(resumed(&again), Ok(loaded));
        for at in (0..bytes.len()).step_by(7) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x40;
            assert!(resumed(&damaged).is_err(), "byte {at}");
        }
        // Cut short anywhere, or empty: damaged, never a partial load.
        for len in [0, 3, 4, 12, bytes.len() / 2, bytes.len() - 1] {
            assert_eq!(resumed(&bytes[..len]), Err(damaged()), "{len} bytes");
        }
        let other = Exact::new(Board::new(3, 5, true).unwrap(), None, false);
        assert!(other
            .resume(Cursor::new(&bytes))
            .unwrap_err()
            .contains("another search"));
        let consistent = Exact::new(board, None, true);
        assert!(consistent
            .resume(Cursor::new(&bytes))
            .unwrap_err()
            .contains("another search"));
        let plain = CacheSettings {
            canonical_keys: false,
            ..CacheSettings::default()
        };
        let plain_keys = || Exact::new(board, None, false).with_cache(plain);
        assert!(plain_keys()
            .resume(Cursor::new(&bytes))
            .unwrap_err()
            .contains("canonical keys true"));
        // The layouts before the kept guesses: 4, before the standing: 2, and
        // the first, with no key kind (its keys were canonical).
        let section_start = |end: usize| {
            let len = u32::from_le_bytes(body[end - 4..end].try_into().unwrap());
            end - 4 - len as usize
        };
        let standing_end = section_start(body.len());
        let entries_end = section_start(standing_end);
        let with_crc = |mut layout: Vec<u8>| {
            layout.extend(crc32fast::hash(&layout).to_le_bytes());
            layout
        };
        let fourth = with_crc([&MAGIC_4[..], &bytes[8..standing_end]].concat());
        assert_eq!(resumed(&fourth), Ok(loaded));
        assert!(summary(Cursor::new(&fourth)).unwrap().standing.is_some());
        let second = with_crc([&MAGIC[..], &bytes[8..entries_end]].concat());
        assert_eq!(resumed(&second), Ok(loaded));
        // A summary reads the board, the count and the standing, not the facts.
        let read = summary(Cursor::new(&bytes)).unwrap();
        assert_eq!(
            (read.board, read.sets, read.certified),
            (board, loaded as u64, false)
        );
        let standing = read.standing.unwrap();
        assert!(standing.best.is_some() && standing.earlier > 0);
        assert!(summary(Cursor::new(&second)).unwrap().standing.is_none());
        assert_eq!(summary(Cursor::new(&bytes[1..])).err(), Some(damaged()));
        let first = with_crc([&MAGIC_1[..], &bytes[8..12], &bytes[13..entries_end]].concat());
        assert_eq!(resumed(&first), Ok(loaded));
        assert!(plain_keys().resume(Cursor::new(&first)).is_err());
        // A standing or kept guesses not in their layout, under a good checksum:
        // refused.
        let mut bad = [&MAGIC_4[..], &bytes[8..entries_end]].concat();
        bad.extend([2, 1, 0, 0, 0]);
        bad.extend(5u32.to_le_bytes());
        assert_eq!(resumed(&with_crc(bad)), Err(damaged()));
        for section in [[0, 0, 0, 0, 1, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0]] {
            let mut bad = bytes[..standing_end].to_vec();
            bad.extend(section);
            bad.extend(8u32.to_le_bytes());
            assert_eq!(resumed(&with_crc(bad)), Err(damaged()));
        }
    }
}
