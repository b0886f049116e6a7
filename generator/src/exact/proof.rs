//! The certificate of a proof: the facts an exact search rests on, streamed to a
//! file as the search proves them, so that a checker that shares no code with the
//! search (`checker/`, `mmcheck`) can re-derive the optimum from the rules of the
//! game alone. docs/certificate.md defines the format and how each fact is checked.
//!
//! A fact says: this set of secrets, with at most this many guesses left, needs at
//! least this many guesses in total (or cannot be solved at all). It is written
//! when a search of the set ends (the optimum it found, or the budget it failed
//! under), or when a look two guesses ahead floors a big class (a fact with no
//! uses: the checker looks one guess ahead at the classes of every guess). What
//! a look one guess ahead proves of a small class is not written: the checker
//! looks too, as cheaply. With a fact go what the checker needs to confirm
//! it by trying every guess at the set:
//! - the equivalences the search used to try one guess of each kind (relabellings
//!   that map the set onto itself, and the colours never played);
//! - the facts about the classes of those guesses it used beyond their size's
//!   bound (its dependencies), each an earlier fact, as proven or relabelled: the
//!   cache keys equivalent sets by a canonical image, so a set met under other
//!   labels uses the fact proven for another one. A fact records the relabelling
//!   to its key's image, and a dependency the relabelling from that image to the
//!   set it stands for; the checker applies both, trusting neither.
//!
//! Dependencies are gathered while a search runs, one frame per search in
//! progress: a search's frame takes what its options used, and the search's own
//! fact goes to the frame below when it ends. So the writer follows one thread's
//! order, and a certified run searches on one thread: its facts then come in one
//! order, and the certificate is the same bytes on every run.

use super::cache::NO_RECORD;
use super::{Context, Exact, UNLIMITED};
use crate::canonical;
use crate::codes::Codes;
use crate::relabel::Relabel;
use crate::symmetry::Symmetry;
use lookup::Board;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard};

/// What a fact rests on.
pub(super) enum Basis {
    /// A search of its set, with the facts its options used (its frame).
    Search,
    /// A look two guesses ahead ([`Exact::look_two_checkable`]): no other fact,
    /// as the checker looks one guess ahead at the classes of every guess too.
    Looks,
}

/// Record tags (docs/certificate.md).
const END: u8 = 0;
const FACT: u8 = 1;
const CLAIM: u8 = 2;
const PREMISE: u8 = 3;

/// What a fact rests on beyond the checker's own bounds: an earlier fact by its
/// number, as written or mapped from its key's image.
type Dependency = (u64, Option<Relabel>);

/// A certificate being written: to a temporary file beside its target, renamed
/// over it by [`Proof::finish`] once the proof is complete.
pub struct Proof {
    state: Box<Mutex<State>>,
}

struct State {
    out: BufWriter<File>,
    temporary: PathBuf,
    target: PathBuf,
    crc: crc32fast::Hasher,
    bytes: u64,
    facts: u64,
    claims: u64,
    premises: u64,
    pegs: usize,
    colors: usize,
    /// The pool's size: a fact about this many secrets is about all of them.
    all: usize,
    /// One frame of dependencies per search in progress.
    frames: Vec<Vec<Dependency>>,
    /// The first write that failed: the certificate is then not finished.
    failed: Option<io::Error>,
    /// Where the certificate stood after its last claim: (bytes, facts, checksum).
    /// The facts after it (a tree's nodes searched again as it is built) prove
    /// nothing the claims need, and [`Proof::finish`] leaves them out.
    claimed: Option<(u64, u64, crc32fast::Hasher)>,
    /// The last fact's record, and where its head (depth, bound, set) ends in it.
    record: Vec<u8>,
    head_end: usize,
}

/// Where a certificate being written stands (see [`Proof::position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub bytes: u64,
    pub facts: u64,
    pub crc: u32,
}

/// What a finished certificate holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub facts: u64,
    pub claims: u64,
    /// Premises: last facts of parts checked apart ([`Proof::premise`]).
    pub premises: u64,
    pub bytes: u64,
    /// Its checksum: with `bytes`, what names it.
    pub crc: u32,
    /// The head of its last fact (depth, bound, set: docs/certificate.md) if it
    /// has one: what a part of a proof proves, and a premise repeats.
    pub last: Option<Vec<u8>>,
}

/// Appends `value` as LEB128 (7 bits a byte, low first, high bit set on all but the
/// last).
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

impl State {
    /// Writes `bytes`, counting them and adding them to the checksum.
    fn emit(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        match self.out.write_all(bytes) {
            Ok(()) => {
                self.crc.update(bytes);
                self.bytes += bytes.len() as u64;
            }
            Err(e) => self.failed = Some(e),
        }
    }

    /// Cuts the file after the last claim, ends it and renames it into place.
    fn end(mut self) -> io::Result<Written> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        // The last fact's head, unless the cut below leaves it out.
        let last = (self.claimed.is_none() && self.head_end > 0)
            .then(|| self.record[1..self.head_end].to_vec());
        let (bytes, facts, mut crc) = match self.claimed {
            Some(claimed) => claimed,
            None => (self.bytes, self.facts, self.crc),
        };
        file.set_len(bytes)?;
        file.seek(SeekFrom::End(0))?;
        let mut end = vec![END];
        varint(&mut end, facts);
        crc.update(&end);
        let crc = crc.finalize();
        end.extend(crc.to_le_bytes());
        file.write_all(&end)?;
        file.sync_all()?;
        if std::fs::rename(&self.temporary, &self.target).is_err() {
            // Another file system (a checkpoint's folder elsewhere): copied beside
            // the target first, then renamed over it.
            let beside = lookup::replace::temporary(&self.target);
            std::fs::copy(&self.temporary, &beside)?;
            File::open(&beside)?.sync_all()?;
            std::fs::rename(&beside, &self.target)?;
            std::fs::remove_file(&self.temporary)?;
        }
        Ok(Written {
            facts,
            claims: self.claims,
            premises: self.premises,
            bytes: bytes + end.len() as u64,
            crc,
            last,
        })
    }

    /// A relabelling: its peg values, then its colour values, two 4-bit values to
    /// a byte (the first in the low half), the last half byte 0 if they are odd.
    fn relabel(&self, out: &mut Vec<u8>, map: &Relabel) {
        let values = || {
            map.from[..self.pegs]
                .iter()
                .chain(&map.color[..self.colors])
        };
        let mut pairs = values()
            .step_by(2)
            .zip(values().skip(1).step_by(2).chain([&0]));
        out.extend(pairs.by_ref().map(|(low, high)| low | high << 4));
    }

    fn optional_relabel(&self, out: &mut Vec<u8>, map: Option<&Relabel>) {
        match map {
            None => out.push(0),
            Some(map) => {
                out.push(1);
                self.relabel(out, map);
            }
        }
    }
}

/// A fact as the search hands it to the writer.
pub(super) struct Fact<'a> {
    /// The set: code indices, ascending.
    pub(super) set: &'a [u32],
    /// Guesses left (at most the set's size, which means no limit).
    pub(super) depth: u32,
    /// The least total; [`UNLIMITED`]: no strategy within `depth`.
    pub(super) bound: u32,
    /// The relabelling that maps the set onto its cache key's image, if keys are images.
    pub(super) key: Option<Relabel>,
    /// The equivalences the search used: relabellings onto itself, free colours.
    pub(super) symmetry: Option<(&'a [Relabel], &'a [u8])>,
}

impl Proof {
    /// The first bytes of every certificate.
    pub const MAGIC: [u8; 8] = *b"MMCERT\0\0";
    /// The format's version, after the magic.
    pub const VERSION: u16 = 1;
    /// Why a certificate is refused with a forced first guess.
    pub const NOT_WITH_FIRST: &'static str =
        "--certificate proves the optimum over every first guess: it does not go with --first";

    /// Starts a certificate for `board` (guesses from the candidates only, with
    /// `candidates_only`) that [`Proof::finish`] will put at `target`. It is
    /// written to `partial`, or to a temporary name beside `target`: a proof with a
    /// checkpoint keeps it in the checkpoint's folder, where a resumed run finds it
    /// ([`Proof::reopen`]).
    pub fn create(
        target: &Path,
        partial: Option<&Path>,
        board: Board,
        candidates_only: bool,
    ) -> io::Result<Proof> {
        let temporary =
            partial.map_or_else(|| lookup::replace::temporary(target), Path::to_path_buf);
        let proof = Proof::open(File::create(&temporary)?, temporary, target, board);
        proof.lock().emit(&Proof::header(board, candidates_only));
        Ok(proof)
    }

    /// The bytes a certificate of `board` starts with.
    fn header(board: Board, candidates_only: bool) -> Vec<u8> {
        let mut header = Proof::MAGIC.to_vec();
        header.extend_from_slice(&Proof::VERSION.to_le_bytes());
        header.extend([
            board.pegs() as u8,
            board.colors() as u8,
            u8::from(board.repeat()),
            u8::from(candidates_only),
        ]);
        header
    }

    /// Appends the facts of the certificate at `path`, of the same board, as they
    /// are: their uses count back from each fact, so they keep naming the same
    /// facts. Streamed, and checked as it is read (header, end, count, checksum):
    /// returns how many facts it held, or an error, after which this certificate
    /// is only to be abandoned.
    pub fn append(&self, path: &Path, board: Board, candidates_only: bool) -> io::Result<u64> {
        use std::io::Read;
        let invalid = || {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "not a whole certificate of this board",
            )
        };
        let header = Proof::header(board, candidates_only);
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        // The end: 0, the count (a varint: every byte but its last has the high
        // bit set, and the end byte has not), the checksum (4 bytes).
        let tail_len = len.min(15) as usize;
        let mut tail = vec![0; tail_len];
        file.seek(SeekFrom::End(-(tail_len as i64)))?;
        file.read_exact(&mut tail)?;
        let count_end = tail_len.checked_sub(4).ok_or_else(invalid)?;
        let count_start = (0..count_end.saturating_sub(1))
            .rev()
            .find(|&i| tail[i] < 0x80)
            .ok_or_else(invalid)?
            + 1;
        let mut facts = 0u64;
        for (shift, &byte) in tail[count_start..count_end].iter().enumerate() {
            facts |= u64::from(byte & 0x7f)
                .checked_shl(7 * shift as u32)
                .ok_or_else(invalid)?;
        }
        let end_at = len - (tail_len - count_start + 1) as u64;
        if tail[count_start - 1] != END || end_at < header.len() as u64 {
            return Err(invalid());
        }
        file.seek(SeekFrom::Start(0))?;
        let mut crc = crc32fast::Hasher::new();
        let mut start = vec![0; header.len()];
        file.read_exact(&mut start)?;
        if start != header {
            return Err(invalid());
        }
        crc.update(&start);
        let mut state = self.lock();
        let mut chunk = vec![0; 1 << 20];
        let mut left = end_at - header.len() as u64;
        while left > 0 {
            let take = left.min(chunk.len() as u64) as usize;
            file.read_exact(&mut chunk[..take])?;
            crc.update(&chunk[..take]);
            state.emit(&chunk[..take]);
            left -= take as u64;
        }
        crc.update(&tail[count_start - 1..count_end]);
        if crc.finalize().to_le_bytes() != tail[count_end..] {
            return Err(invalid());
        }
        state.facts += facts;
        Ok(facts)
    }

    /// Appends a premise: the last fact (its `head`, as [`Written::last`] gives it)
    /// of the certificate of `bytes` bytes and checksum `crc`, a part of the proof
    /// checked on its own (docs/certificate.md, "A proof in parts"). Returns its
    /// number.
    pub fn premise(&self, bytes: u64, crc: u32, head: &[u8]) -> u64 {
        let mut out = vec![PREMISE];
        varint(&mut out, bytes);
        out.extend(crc.to_le_bytes());
        out.extend_from_slice(head);
        out.push(0); // no key relabelling
        let mut state = self.lock();
        state.emit(&out);
        state.head_end = 0;
        state.premises += 1;
        state.facts += 1;
        state.facts - 1
    }

    /// The certificate a checkpointed run left at `partial`, to go on from where
    /// its checkpoint says (the search's resume from that checkpoint rewinds it there).
    pub fn reopen(target: &Path, partial: &Path, board: Board) -> io::Result<Proof> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(partial)?;
        Ok(Proof::open(file, partial.to_path_buf(), target, board))
    }

    fn open(file: File, temporary: PathBuf, target: &Path, board: Board) -> Proof {
        let state = State {
            out: BufWriter::with_capacity(1 << 20, file),
            temporary,
            target: target.to_path_buf(),
            crc: crc32fast::Hasher::new(),
            bytes: 0,
            facts: 0,
            claims: 0,
            premises: 0,
            pegs: board.pegs(),
            colors: board.colors(),
            all: board.code_count() as usize,
            frames: Vec::new(),
            failed: None,
            claimed: None,
            record: Vec::new(),
            head_end: 0,
        };
        Proof {
            state: Box::new(Mutex::new(state)),
        }
    }

    /// Where the certificate stands, flushed to disk: (bytes, facts, checksum so
    /// far). A checkpoint records it, after the cache entries that name its facts.
    pub(super) fn position(&self) -> io::Result<Position> {
        let mut state = self.lock();
        state.out.flush()?;
        state.out.get_ref().sync_data()?;
        Ok(Position {
            bytes: state.bytes,
            facts: state.facts,
            crc: state.crc.clone().finalize(),
        })
    }

    /// Goes back to `at`, a position a checkpoint recorded: what was written after
    /// it rests on facts the checkpoint does not hold. The bytes before it must be
    /// those the checkpoint's run wrote (their checksum is checked): a file of
    /// another run would leave facts the certificate names unproven.
    pub(super) fn rewind(&self, at: Position) -> io::Result<()> {
        let mut state = self.lock();
        let file = state.out.get_mut();
        let refuse = |kind, why: &str| {
            Err(io::Error::new(
                kind,
                format!("its certificate (certificate.partial beside it) {why}: start a new checkpoint folder"),
            ))
        };
        if file.metadata()?.len() < at.bytes {
            let why = "holds less than the checkpoint names, as when a run finished it";
            return refuse(io::ErrorKind::UnexpectedEof, why);
        }
        file.seek(SeekFrom::Start(0))?;
        let mut crc = crc32fast::Hasher::new();
        let mut chunk = vec![0; 1 << 20];
        let mut left = at.bytes;
        while left > 0 {
            let take = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            file.read_exact(&mut chunk[..take])?;
            crc.update(&chunk[..take]);
            left -= take as u64;
        }
        if crc.finalize() != at.crc {
            return refuse(
                io::ErrorKind::InvalidData,
                "is not the one the checkpoint was taken with",
            );
        }
        file.set_len(at.bytes)?;
        file.seek(SeekFrom::End(0))?;
        state.bytes = at.bytes;
        state.facts = at.facts;
        state.crc = crc32fast::Hasher::new_with_initial_len(at.crc, at.bytes);
        state.claimed = None;
        state.head_end = 0;
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A search starts: its dependencies gather in a new frame.
    pub(super) fn begin(&self) {
        self.lock().frames.push(Vec::new());
    }

    /// The search in progress rests on `dependency`.
    pub(super) fn depend(&self, dependency: Dependency) {
        if let Some(frame) = self.lock().frames.last_mut() {
            frame.push(dependency);
        }
    }

    /// Writes `fact`, with the dependencies of the search that proved it (which
    /// ends: its frame goes) if `searched`, else with none (a look two guesses
    /// ahead, which the checker confirms by its own looks); returns its number.
    pub(super) fn fact(&self, fact: Fact, searched: bool) -> u64 {
        let mut state = self.lock();
        let mut dependencies = match searched {
            true => state.frames.pop().unwrap_or_default(),
            false => Vec::new(),
        };
        let number = state.facts;
        dependencies.sort_unstable_by_key(|(r, map)| (*r, map.map(|m| (m.from, m.color))));
        dependencies.dedup();
        let mut out = std::mem::take(&mut state.record);
        out.clear();
        out.push(FACT);
        let depth = match fact.depth as usize >= fact.set.len() {
            true => 0,
            false => u64::from(fact.depth),
        };
        varint(&mut out, depth);
        // Within d guesses a strategy costs at most d per secret: a bound past that
        // (a search that failed under a budget near UNLIMITED) says there is none.
        let most = u64::from(fact.depth) * fact.set.len() as u64;
        let bound = u64::from(fact.bound);
        varint(
            &mut out,
            if fact.bound == UNLIMITED || (depth > 0 && bound > most) {
                0
            } else {
                bound
            },
        );
        varint(&mut out, fact.set.len() as u64);
        let mut previous = 0;
        for (i, &code) in fact.set.iter().enumerate() {
            let gap = if i == 0 { code } else { code - previous };
            varint(&mut out, u64::from(gap));
            previous = code;
        }
        let head_end = out.len();
        state.optional_relabel(&mut out, fact.key.as_ref());
        let (maps, free) = fact.symmetry.unwrap_or((&[], &[]));
        varint(&mut out, maps.len() as u64);
        for map in maps {
            state.relabel(&mut out, map);
        }
        varint(&mut out, free.len() as u64);
        out.extend_from_slice(free);
        varint(&mut out, dependencies.len() as u64);
        for (record, map) in &dependencies {
            varint(&mut out, number - record);
            state.optional_relabel(&mut out, map.as_ref());
        }
        let claim = fact.set.len() == state.all;
        if claim {
            out.push(CLAIM);
            state.claims += 1;
        }
        state.emit(&out);
        state.record = out;
        state.head_end = head_end;
        state.facts += 1;
        if claim {
            state.claimed = Some((state.bytes, state.facts, state.crc.clone()));
        }
        number
    }

    /// Ends the certificate after its last claim (the record count and checksum),
    /// flushes it to disk and renames it over its target.
    pub fn finish(self) -> io::Result<Written> {
        let state = (*self.state)
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let temporary = state.temporary.clone();
        let ended = state.end();
        if ended.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        ended
    }

    /// Drops the certificate: its temporary file goes, its target is untouched.
    pub fn abandon(self) {
        let state = (*self.state)
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let _ = std::fs::remove_file(&state.temporary);
    }
}

impl Exact {
    /// Writes what this search proves into `proof` from now on.
    pub fn prove_into(&self, proof: Proof) {
        *self.proof.lock().unwrap_or_else(|e| e.into_inner()) = Some(proof);
        self.proving.store(true, Ordering::Relaxed);
    }

    /// The certificate written so far, which this search stops writing.
    pub fn take_proof(&self) -> Option<Proof> {
        self.proving.store(false, Ordering::Relaxed);
        self.proof.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Whether this search writes a certificate.
    pub(super) fn proving(&self) -> bool {
        self.proving.load(Ordering::Relaxed)
    }

    /// Runs `write` on the certificate, if this search writes one.
    pub(super) fn with_proof<T>(&self, write: impl FnOnce(&Proof) -> T) -> Option<T> {
        if !self.proving() {
            return None;
        }
        let proof = self.proof.lock().unwrap_or_else(|e| e.into_inner());
        proof.as_ref().map(write)
    }
}

impl Proof {
    /// A search ends without a fact (time ran out): its frame goes.
    pub(super) fn drop_frame(&self) {
        self.lock().frames.pop();
    }
}

impl Exact {
    /// Writes the fact that `candidates` with `depth` guesses left costs at least
    /// `bound`, trying one guess of each kind under `symmetry`, proved as `basis`
    /// says, unless time ran out; returns its number, or [`NO_RECORD`].
    pub(super) fn prove(
        &self,
        context: Context,
        candidates: &[u32],
        depth: u32,
        bound: u32,
        symmetry: Option<&Symmetry>,
        basis: Basis,
    ) -> u64 {
        let searched = matches!(basis, Basis::Search);
        if !self.proving() {
            return NO_RECORD;
        }
        if self.cut(context) {
            if searched {
                self.with_proof(Proof::drop_frame);
            }
            return NO_RECORD;
        }
        let fact = Fact {
            set: candidates,
            depth,
            bound,
            key: self.key_relabel(context.codes, candidates),
            symmetry: symmetry.map(Symmetry::recorded),
        };
        self.with_proof(|p| p.fact(fact, searched))
            .unwrap_or(NO_RECORD)
    }

    /// Writes the fact a plan's merge proves: `node` (every code, or an item's
    /// class), with `depth` guesses left, costs at least `bound`, by the facts
    /// numbered `uses` (its items') and the checker's own bounds, as a search of
    /// that node would prove it.
    pub fn prove_merged(
        &self,
        context: Context,
        node: crate::Node,
        depth: u32,
        bound: u32,
        uses: &[u64],
    ) {
        let symmetry = context.symmetry_at(&node);
        self.with_proof(Proof::begin);
        for &record in uses {
            self.depend_on(record);
        }
        let depth = depth.min(node.candidates.len() as u32);
        let s = symmetry.as_ref();
        self.prove(context, node.candidates, depth, bound, s, Basis::Search);
    }

    /// The search in progress rests on fact `record`, as written.
    pub(super) fn depend_on(&self, record: u64) {
        if record != NO_RECORD {
            self.with_proof(|p| p.depend((record, None)));
        }
    }

    /// The search in progress rests on what the cache knows of `candidates` with
    /// `depth` guesses left (under `key`): the fact that proved it, relabelled from
    /// its key's image onto `candidates`.
    pub(super) fn depend_on_cached(
        &self,
        codes: &Codes,
        candidates: &[u32],
        depth: u32,
        key: &[u32],
    ) {
        if !self.proving() {
            return;
        }
        let Some(record) = self.cached_record(depth, key) else {
            return;
        };
        let back = self
            .key_relabel(codes, candidates)
            .map(|map| map.inverse(codes.board().pegs()));
        self.with_proof(|p| p.depend((record, back)));
    }

    /// The relabelling that maps `set` onto its cache key, if keys are images
    /// (with `--no-canonical-keys` a key is the set itself).
    fn key_relabel(&self, codes: &Codes, set: &[u32]) -> Option<Relabel> {
        let board = codes.board();
        self.cache_settings.canonical_keys.then(|| {
            let packed = set.iter().map(|&c| codes.code(c).packed());
            canonical::key_relabel(packed, board.pegs(), board.colors())
        })
    }
}
