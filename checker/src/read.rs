//! Reading a certificate (docs/certificate.md): the header, then one record at a
//! time, so that a certificate of gigabytes is never in memory whole; a fact that
//! a later one uses is read again from the file ([`InFile`]). Everything
//! read is only a claim: the header's board must be the tree's, the checksum must
//! match, and every relabelling is checked to permute the pegs and colours. A
//! certificate still being written has no checksum yet: what is read of it is
//! named by the CRC-32 of the bytes read ([`Prefix`]), which the finished one
//! must start with for a check of it to keep those facts.

use crate::game::{Board, Relabel};
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The first bytes of a certificate.
pub const MAGIC: [u8; 8] = *b"MMCERT\0\0";
/// The version this checker reads.
pub const VERSION: u16 = 1;

/// What a certificate is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub pegs: usize,
    pub colors: usize,
    pub repeat: bool,
    /// Guesses only from the secrets still possible.
    pub candidates_only: bool,
}

/// One fact as written (docs/certificate.md, "A fact").
#[derive(Clone, Debug)]
pub struct Fact {
    /// Guesses left, `None`: no limit.
    pub depth: Option<u32>,
    /// The least total claimed, `None`: no strategy at all.
    pub bound: Option<u64>,
    /// Code numbers, ascending.
    pub set: Vec<u32>,
    /// The relabelling onto the set's key image, if any.
    pub key: Option<Relabel>,
    /// Relabellings claimed to map the set onto itself.
    pub maps: Vec<Relabel>,
    /// Colours claimed to be interchangeable in the set.
    pub free: Vec<u8>,
    /// Earlier facts, by how far back, as written or through a relabelling of
    /// their key image.
    pub uses: Vec<(u64, Option<Relabel>)>,
    /// Whether the fact is a claim about every code.
    pub claim: bool,
    /// A premise: the last fact of another certificate (a part of the proof
    /// checked on its own), named by its size and checksum; not checked here but
    /// taken from a record of that part's check ([`crate::parts`]).
    pub premise: Option<(u64, u32)>,
}

/// What a later fact needs of a fact it uses: the start of its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub depth: Option<u32>,
    pub bound: Option<u64>,
    pub set: Vec<u32>,
    pub key: Option<Relabel>,
}

/// A certificate being read.
pub struct Reader {
    input: Stream,
    pub header: Header,
    /// The file's size and checksum, which name the certificate, once checked;
    /// `None` for one still being written ([`Reader::open_unfinished`]).
    pub identity: Option<(u64, u32)>,
}

/// Where a certificate has been read to, and the CRC-32 of every byte before:
/// what a record of a check's progress names ([`crate::Progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    pub bytes: u64,
    pub crc: u32,
}

/// The file read from its start, with the CRC-32 of what was read: a record of
/// progress names the very bytes its facts were parsed from. The record being
/// read stays in the buffer until the next one starts, so that a record that
/// a certificate still being written has only begun can be left unread.
struct Stream {
    file: File,
    buffer: Vec<u8>,
    /// The buffer's bytes `pos..filled` are unread; the record being read
    /// started at `mark`.
    pos: usize,
    filled: usize,
    mark: usize,
    /// Where the buffer starts in the file, and the CRC-32 of the bytes before.
    start: u64,
    before: crc32fast::Hasher,
    /// Where the records end: before the checksum of a finished certificate; as
    /// far as the file goes for one still being written.
    end: Option<u64>,
}

const BUFFER: usize = 1 << 20;

impl Stream {
    fn new(file: File, end: Option<u64>, capacity: usize) -> Stream {
        Stream {
            file,
            buffer: vec![0; capacity],
            pos: 0,
            filled: 0,
            mark: 0,
            start: 0,
            before: crc32fast::Hasher::new(),
            end,
        }
    }

    fn at(&self) -> u64 {
        self.start + self.pos as u64
    }

    fn prefix(&self) -> Prefix {
        let mut crc = self.before.clone();
        crc.update(&self.buffer[..self.pos]);
        Prefix {
            bytes: self.at(),
            crc: crc.finalize(),
        }
    }

    /// Reads more of the file behind what is unread, keeping the record begun at
    /// `mark`; false at the end (of the records, or of the file as it is now).
    fn more(&mut self) -> io::Result<bool> {
        let kept = self.mark;
        self.before.update(&self.buffer[..kept]);
        self.buffer.copy_within(kept..self.filled, 0);
        self.start += kept as u64;
        (self.pos, self.filled, self.mark) = (self.pos - kept, self.filled - kept, 0);
        if self.filled == self.buffer.len() {
            // A record longer than the buffer (a set of many codes): room for it.
            self.buffer.resize(2 * self.buffer.len(), 0);
        }
        let room = self.buffer.len() - self.filled;
        let wanted = match self.end {
            Some(end) => room.min((end - self.start - self.filled as u64) as usize),
            None => room,
        };
        let read = loop {
            match self
                .file
                .read(&mut self.buffer[self.filled..self.filled + wanted])
            {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                read => break read?,
            }
        };
        self.filled += read;
        Ok(read > 0)
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.filled && !self.more()? {
            return Ok(None);
        }
        Ok(Some(self.buffer[self.pos]))
    }
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// What a certificate still being written has not written yet.
fn unwritten() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "it ends in the middle of a record",
    )
}

/// The size and checksum of the certificate at `path`, once the checksum is
/// checked (a pass over the whole file).
pub fn identity(path: &Path) -> io::Result<(u64, u32)> {
    let size = std::fs::metadata(path)?.len();
    if size < 18 {
        return Err(bad("too short to be a certificate"));
    }
    let (bytes, crc) = crc_of(path, &[size - 4])?;
    let mut stored = [0u8; 4];
    File::open(path)?.read_exact_at(&mut stored, size - 4)?;
    let stored = u32::from_le_bytes(stored);
    match bytes == [size - 4] && crc.first() == Some(&stored) {
        true => Ok((size, stored)),
        false => Err(bad("its checksum does not match: the file is damaged")),
    }
}

/// The CRC-32 of the file's first `ends[i]` bytes, for each of `ends`
/// (ascending) that the file reaches, in one pass: which ends it reached, and
/// their checksums.
fn crc_of(path: &Path, ends: &[u64]) -> io::Result<(Vec<u64>, Vec<u32>)> {
    let mut input = File::open(path)?;
    let mut crc = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; BUFFER];
    let (mut at, mut reached, mut crcs) = (0u64, Vec::new(), Vec::new());
    for &end in ends {
        while at < end {
            let take = buffer.len().min((end - at) as usize);
            match input.read(&mut buffer[..take]) {
                Ok(0) => return Ok((reached, crcs)),
                Ok(read) => {
                    crc.update(&buffer[..read]);
                    at += read as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        reached.push(end);
        crcs.push(crc.clone().finalize());
    }
    Ok((reached, crcs))
}

/// Of the prefixes `recorded` (of earlier reads of a certificate), the longest
/// that the file at `path` still has: the same bytes, by their CRC-32.
pub fn longest_kept(path: &Path, recorded: &[Prefix]) -> io::Result<Option<Prefix>> {
    let mut ends: Vec<u64> = recorded.iter().map(|p| p.bytes).collect();
    ends.sort_unstable();
    ends.dedup();
    let (reached, crcs) = crc_of(path, &ends)?;
    let has = |p: &&Prefix| {
        let at = reached.binary_search(&p.bytes);
        at.is_ok_and(|i| crcs[i] == p.crc)
    };
    Ok(recorded.iter().filter(has).max_by_key(|p| p.bytes).copied())
}

/// How many facts the certificate at `path` says it holds: the count in its end
/// record, read from the back (a LEB128 number before the checksum, after the
/// record's tag 0). Only a claim, for a long check to tell how far it is: the
/// check itself counts the facts and refuses an end that does not match.
pub fn stated_facts(path: &Path) -> Option<u64> {
    let file = File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let tail = size.checked_sub(4)?.min(11);
    let mut bytes = vec![0u8; tail as usize];
    file.read_exact_at(&mut bytes, size - 4 - tail).ok()?;
    // The number's last byte has its high bit clear, the ones before it set.
    let (last, before) = bytes.split_last()?;
    let start = before.iter().rposition(|b| b & 0x80 == 0)?;
    if last & 0x80 != 0 || before[start] != 0 {
        return None;
    }
    let mut number = &bytes[start + 1..];
    number.number().ok()
}

impl Reader {
    /// Opens the finished certificate at `path`: checks its checksum
    /// ([`identity`]), then reads its header.
    pub fn open(path: &Path) -> io::Result<Reader> {
        let (size, crc) = identity(path)?;
        let input = Stream::new(File::open(path)?, Some(size - 4), BUFFER);
        Reader::start(input, Some((size, crc)))
    }

    /// Opens the certificate at `path`, which may still be being written (a
    /// proof's `certificate.partial`): finished, as [`Reader::open`] does; else
    /// its facts are read as far as they are written, and a record the writer
    /// has only begun is left unread. Such a file has no checksum yet: what is
    /// read of it is named by its prefixes' ([`Reader::prefix`]).
    pub fn open_unfinished(path: &Path) -> io::Result<Reader> {
        if stated_facts(path).is_some() && identity(path).is_ok() {
            return Reader::open(path);
        }
        Reader::start(Stream::new(File::open(path)?, None, BUFFER), None)
    }

    fn start(input: Stream, identity: Option<(u64, u32)>) -> io::Result<Reader> {
        let mut reader = Reader {
            input,
            identity,
            header: Header {
                pegs: 0,
                colors: 0,
                repeat: false,
                candidates_only: false,
            },
        };
        let mut magic = [0u8; 8];
        reader.bytes(&mut magic)?;
        if magic != MAGIC {
            return Err(bad("not an mmtree certificate"));
        }
        let mut version = [0u8; 2];
        reader.bytes(&mut version)?;
        if u16::from_le_bytes(version) != VERSION {
            return Err(bad(format!(
                "certificate version {}, this checker reads {VERSION}",
                u16::from_le_bytes(version)
            )));
        }
        let mut board = [0u8; 4];
        reader.bytes(&mut board)?;
        reader.header = Header {
            pegs: usize::from(board[0]),
            colors: usize::from(board[1]),
            repeat: board[2] == 1,
            candidates_only: board[3] == 1,
        };
        if board[2] > 1 || board[3] > 1 {
            return Err(bad("a flag of the header is neither 0 nor 1"));
        }
        Ok(reader)
    }

    /// Where the next byte is in the file.
    pub fn at(&self) -> u64 {
        self.input.at()
    }

    /// The bytes read so far and their CRC-32: between facts, what names them.
    pub fn prefix(&self) -> Prefix {
        self.input.prefix()
    }

    /// The next fact; `None` at the end, where the count of facts must be
    /// `facts`, or where a certificate still being written stops for now (its
    /// last record unread if it is not whole). At `None`, [`Reader::prefix`]
    /// names the bytes up to the end of the last fact.
    pub fn next(&mut self, board: &Board, facts: u64) -> io::Result<Option<Fact>> {
        self.input.mark = self.input.pos;
        let next = match self.byte() {
            // Finished since it was opened: its facts end here.
            Ok(0) if self.identity.is_none() => Err(unwritten()),
            Ok(0) => {
                if self.number()? != facts || self.input.peek()?.is_some() {
                    return Err(bad("its end does not match the facts it holds"));
                }
                // Where the facts end, as where an unfinished one stops.
                self.input.pos = self.input.mark;
                Ok(None)
            }
            Ok(1) => self.fact(board).map(Some),
            Ok(3) => self.premise(board).map(Some),
            Ok(tag) => Err(bad(format!("a record of unknown kind {tag}"))),
            Err(e) => Err(e),
        };
        match next {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof && self.identity.is_none() => {
                self.input.pos = self.input.mark;
                Ok(None)
            }
            next => next,
        }
    }

    fn fact(&mut self, board: &Board) -> io::Result<Fact> {
        let head = self.head(board)?;
        let count = self.number()?;
        let mut maps = Vec::with_capacity(room(count));
        for _ in 0..count {
            maps.push(self.relabel(board)?);
        }
        let free_count = self.number()?;
        if free_count > board.colors as u64 {
            return Err(bad("more free colours than the board has"));
        }
        let mut free = vec![0u8; free_count as usize];
        self.bytes(&mut free)?;
        let count = self.number()?;
        let mut uses = Vec::with_capacity(room(count));
        for _ in 0..count {
            uses.push((self.number()?, self.optional_relabel(board)?));
        }
        // A claim follows its fact at once; peek for it.
        let claim = match self.input.peek()? {
            Some(byte) => byte == 2,
            // Its claim byte may not be written yet: the fact is not whole yet.
            None if self.identity.is_none() => return Err(unwritten()),
            None => false,
        };
        if claim {
            self.input.pos += 1;
        }
        Ok(Fact {
            maps,
            free,
            uses,
            claim,
            ..Fact::bare(head)
        })
    }

    /// A premise (record tag 3): the size and checksum of the certificate whose
    /// last fact it repeats, then that fact's head.
    fn premise(&mut self, board: &Board) -> io::Result<Fact> {
        let part = self.part()?;
        Ok(Fact {
            premise: Some(part),
            ..Fact::bare(self.head(board)?)
        })
    }
}

impl Fact {
    /// A fact of `head` alone: no equivalences, no uses, not a claim.
    fn bare(head: Head) -> Fact {
        let Head {
            depth,
            bound,
            set,
            key,
        } = head;
        Fact {
            depth,
            bound,
            set,
            key,
            maps: Vec::new(),
            free: Vec::new(),
            uses: Vec::new(),
            claim: false,
            premise: None,
        }
    }
}

/// A fact's head as a record of a part's check keeps it (depth, bound and set,
/// as a certificate writes them, with no key relabelling): see [`crate::parts`].
pub fn head_of(bytes: &[u8], board: &Board) -> io::Result<Head> {
    let with_key: Vec<u8> = bytes.iter().copied().chain([0]).collect();
    let mut input = &with_key[..];
    let head = input.head(board)?;
    match input.is_empty() {
        true => Ok(head),
        false => Err(bad("bytes after a fact's head")),
    }
}

/// Room to make for `count` items a record says it lists: all of them, up to a
/// bound (a damaged count must not ask for gigabytes before its record runs out).
fn room(count: u64) -> usize {
    count.min(1 << 12) as usize
}

/// Bytes to parse records from: the certificate as it streams by, or one record
/// read again.
trait Input {
    fn bytes(&mut self, out: &mut [u8]) -> io::Result<()>;

    fn byte(&mut self) -> io::Result<u8> {
        let mut b = [0u8];
        self.bytes(&mut b)?;
        Ok(b[0])
    }

    /// An unsigned LEB128 number.
    fn number(&mut self) -> io::Result<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(bad("a number longer than 64 bits"))
    }

    /// A relabelling: the peg values, then the colour values, 4 bits each, two to
    /// a byte, low half first.
    fn relabel(&mut self, board: &Board) -> io::Result<Relabel> {
        // At most 8 pegs and 16 colours: 12 bytes (on the stack: a fact names
        // several, and a heap allocation each was a tenth of a resumed check's skip).
        let mut packed = [0u8; 12];
        let packed = &mut packed[..(board.pegs + board.colors).div_ceil(2)];
        self.bytes(packed)?;
        let mut values = [0u8; 24];
        for (pair, &b) in values.chunks_mut(2).zip(packed.iter()) {
            pair.copy_from_slice(&[b & 15, b >> 4]);
        }
        let (from, color) = values.split_at(board.pegs);
        Relabel::new(board, from, &color[..board.colors])
            .ok_or_else(|| bad("a relabelling that is not a permutation"))
    }

    fn optional_relabel(&mut self, board: &Board) -> io::Result<Option<Relabel>> {
        match self.byte()? {
            0 => Ok(None),
            1 => self.relabel(board).map(Some),
            _ => Err(bad("a relabelling flag that is neither 0 nor 1")),
        }
    }

    /// What names a certificate: its size, and its CRC-32 (4 bytes, little endian).
    fn part(&mut self) -> io::Result<(u64, u32)> {
        let bytes = self.number()?;
        let mut crc = [0u8; 4];
        self.bytes(&mut crc)?;
        Ok((bytes, u32::from_le_bytes(crc)))
    }

    /// A fact's depth limit, bound, set and key relabelling.
    fn head(&mut self, board: &Board) -> io::Result<Head> {
        let depth = self.number()?;
        let bound = self.number()?;
        let n = self.number()?;
        if n == 0 || n > board.codes.len() as u64 {
            return Err(bad("a set of no secrets, or of more than the board has"));
        }
        let mut set = Vec::with_capacity(n as usize);
        let mut code = 0u64;
        for i in 0..n {
            let gap = self.number()?;
            if i > 0 && gap == 0 {
                return Err(bad("a set whose codes are not in ascending order"));
            }
            code += gap;
            if code >= board.codes.len() as u64 {
                return Err(bad("a code past the board's last"));
            }
            set.push(code as u32);
        }
        Ok(Head {
            depth: (depth > 0).then(|| u32::try_from(depth).unwrap_or(u32::MAX)),
            bound: (bound > 0).then_some(bound),
            set,
            key: self.optional_relabel(board)?,
        })
    }
}

impl Input for Reader {
    fn byte(&mut self) -> io::Result<u8> {
        // Most bytes are in the buffer already: a record is mostly numbers, read a
        // byte at a time.
        let input = &mut self.input;
        if input.pos < input.filled {
            input.pos += 1;
            return Ok(input.buffer[input.pos - 1]);
        }
        let mut b = [0u8];
        self.bytes(&mut b)?;
        Ok(b[0])
    }

    fn bytes(&mut self, out: &mut [u8]) -> io::Result<()> {
        let mut done = 0;
        while done < out.len() {
            let input = &mut self.input;
            if input.pos == input.filled && !input.more()? {
                return Err(unwritten());
            }
            let take = (out.len() - done).min(input.filled - input.pos);
            out[done..done + take].copy_from_slice(&input.buffer[input.pos..input.pos + take]);
            (done, input.pos) = (done + take, input.pos + take);
        }
        Ok(())
    }
}

impl Input for &[u8] {
    fn bytes(&mut self, out: &mut [u8]) -> io::Result<()> {
        self.read_exact(out)
            .map_err(|_| bad("a record read again ends too soon"))
    }
}

/// The facts of a certificate kept for the facts after them that use them, as
/// where each one's record is in the file: a fact used is read again from there,
/// so a certificate of gigabytes is never held whole (8 bytes a fact, where its
/// sets would take gigabytes more). What is read again is what was checked as
/// long as the file stays the same: [`crate::check`] checks its checksum again
/// at the end.
pub struct InFile {
    file: File,
    /// Record `i` spans `ends[i]..ends[i + 1]`; the first starts after the header.
    ends: Vec<u64>,
}

impl InFile {
    /// The facts kept of the certificate `reader` reads (none yet).
    pub fn new(path: &Path, reader: &Reader) -> io::Result<InFile> {
        Ok(InFile {
            file: File::open(path)?,
            ends: vec![reader.at()],
        })
    }

    /// Keeps the fact `reader` has just read.
    pub fn keep(&mut self, reader: &Reader) {
        self.ends.push(reader.at());
    }

    /// The head of fact `number`, read again.
    pub fn head(&self, number: u64, board: &Board) -> io::Result<Head> {
        let at = usize::try_from(number).unwrap_or(usize::MAX);
        let (Some(&start), Some(&end)) = (self.ends.get(at), self.ends.get(at + 1)) else {
            return Err(bad("it uses a fact that is not kept before it"));
        };
        let mut record = vec![0u8; (end - start) as usize];
        self.file.read_exact_at(&mut record, start)?;
        let mut input = &record[..];
        match input.byte()? {
            1 => input.head(board),
            3 => {
                input.part()?;
                input.head(board)
            }
            _ => Err(bad("a fact read again is not a fact")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Vec<u8> {
        let trees = Path::new(env!("CARGO_MANIFEST_DIR")).join("../trees");
        std::fs::read(trees.join(name)).unwrap()
    }

    /// A file of this test's in the temporary folder, removed when dropped.
    struct Written(std::path::PathBuf);

    impl std::ops::Deref for Written {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Written {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn written(name: &str, bytes: &[u8]) -> Written {
        let file = format!("mmcheck-read-{}-{name}", std::process::id());
        let path = std::env::temp_dir().join(file);
        std::fs::write(&path, bytes).unwrap();
        Written(path)
    }

    /// Every fact of `reader` up to where it stops (whether each is a claim),
    /// and where the last ended.
    fn read_claims(reader: &mut Reader) -> (Vec<bool>, Prefix) {
        let h = reader.header;
        let board = Board::new(h.pegs, h.colors, h.repeat).unwrap();
        let (mut claims, mut end) = (Vec::new(), reader.prefix());
        while let Some(fact) = reader.next(&board, claims.len() as u64).unwrap() {
            claims.push(fact.claim);
            end = reader.prefix();
        }
        (claims, end)
    }

    fn read_all(reader: &mut Reader) -> (u64, Prefix) {
        let (claims, end) = read_claims(reader);
        (claims.len() as u64, end)
    }

    #[test]
    fn a_certificate_cut_anywhere_reads_as_far_as_its_whole_records() {
        let whole = shipped("optimal-4x6.mmc");
        let finished = written("whole.mmc", &whole);
        let (all, end) = read_all(&mut Reader::open(&finished).unwrap());
        // The records end before the end record (tag, count, checksum).
        assert_eq!(end.crc, crc32fast::hash(&whole[..end.bytes as usize]));
        assert_eq!(
            Reader::open_unfinished(&finished).unwrap().identity,
            Reader::open(&finished).unwrap().identity
        );
        let (claims, _) = read_claims(&mut Reader::open(&finished).unwrap());
        assert_eq!(claims.last(), Some(&true), "it ends with its claim");
        let mut seen = Vec::new();
        // Cuts all through it, and at every byte of its last 64 (the claim's end).
        let near_end = end.bytes as usize - 64..whole.len();
        for cut in (14..end.bytes as usize).step_by(97).chain(near_end) {
            let path = written("cut.mmc", &whole[..cut]);
            assert!(
                Reader::open(&path).is_err(),
                "a cut file is damaged as a finished one"
            );
            let mut reader = Reader::open_unfinished(&path).unwrap();
            assert_eq!(reader.identity, None);
            let (read, at) = read_claims(&mut reader);
            // A fact is read only once whole, its claim byte included.
            assert_eq!(read[..], claims[..read.len()], "{cut}");
            let facts = read.len() as u64;
            // It stops at the end of a whole record, named by those bytes' CRC.
            assert!(at.bytes as usize <= cut && facts <= all, "{cut}");
            assert_eq!(at.crc, crc32fast::hash(&whole[..at.bytes as usize]));
            let kept = longest_kept(&finished, &[at]).unwrap();
            assert_eq!(kept, Some(at), "the finished file starts with those bytes");
            seen.push((facts, at.bytes));
        }
        // Every cut's records are the finished file's, and more of it reads more.
        assert!(seen.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(seen.last(), Some(&(all, end.bytes)));
    }

    #[test]
    fn the_longest_prefix_kept_wins_and_one_changed_is_not_kept() {
        let whole = shipped("optimal-4x6.mmc");
        let path = written("kept.mmc", &whole);
        let at = |bytes: u64| Prefix {
            bytes,
            crc: crc32fast::hash(&whole[..bytes as usize]),
        };
        let changed = Prefix {
            crc: at(900).crc ^ 1,
            ..at(900)
        };
        let past = Prefix {
            bytes: whole.len() as u64 + 1,
            crc: 0,
        };
        let kept = longest_kept(&path, &[at(300), changed, at(700), past]).unwrap();
        assert_eq!(kept, Some(at(700)));
        assert_eq!(longest_kept(&path, &[changed, past]).unwrap(), None);
    }

    #[test]
    fn a_record_longer_than_the_buffer_reads_whole() {
        // A stream whose buffer starts smaller than one record grows to hold it.
        let whole = shipped("optimal-4x6.mmc");
        let path = written("small.mmc", &whole);
        let (size, crc) = identity(&path).unwrap();
        let input = Stream::new(File::open(&*path).unwrap(), Some(size - 4), 16);
        let (facts, _) = read_all(&mut Reader::start(input, Some((size, crc))).unwrap());
        let (expected, _) = read_all(&mut Reader::open(&path).unwrap());
        assert_eq!(facts, expected);
    }
}
