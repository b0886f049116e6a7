//! Reading a certificate (docs/certificate.md): the header, then one record at a
//! time, so that a certificate of gigabytes is never in memory whole; a fact that
//! a later one uses is read again from the file ([`InFile`]). Everything
//! read is only a claim: the header's board must be the tree's, the checksum must
//! match, and every relabelling is checked to permute the pegs and colours.

use crate::game::{Board, Relabel};
use std::fs::File;
use std::io::{self, BufReader, Read};
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
    input: BufReader<File>,
    /// Bytes left before the checksum.
    left: u64,
    pub header: Header,
    /// The file's size and checksum: which certificate this is.
    pub identity: (u64, u32),
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// The size and checksum of the certificate at `path`, once the checksum is
/// checked (a pass over the whole file).
pub fn identity(path: &Path) -> io::Result<(u64, u32)> {
    let size = std::fs::metadata(path)?.len();
    if size < 18 {
        return Err(bad("too short to be a certificate"));
    }
    let mut input = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut crc = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut left = size - 4;
    while left > 0 {
        let take = buffer.len().min(left as usize);
        input.read_exact(&mut buffer[..take])?;
        crc.update(&buffer[..take]);
        left -= take as u64;
    }
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored)?;
    let stored = u32::from_le_bytes(stored);
    match crc.finalize() == stored {
        true => Ok((size, stored)),
        false => Err(bad("its checksum does not match: the file is damaged")),
    }
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
    /// Opens the certificate at `path`: checks its checksum ([`identity`]), then
    /// reads its header.
    pub fn open(path: &Path) -> io::Result<Reader> {
        let (size, crc) = identity(path)?;
        let mut reader = Reader {
            input: BufReader::with_capacity(1 << 20, File::open(path)?),
            left: size - 4,
            identity: (size, crc),
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
        self.identity.0 - 4 - self.left
    }

    /// The next fact; `None` at the end, where the count of facts must be `facts`.
    pub fn next(&mut self, board: &Board, facts: u64) -> io::Result<Option<Fact>> {
        match self.byte()? {
            0 => {
                if self.number()? != facts || self.left != 0 {
                    return Err(bad("its end does not match the facts it holds"));
                }
                Ok(None)
            }
            1 => self.fact(board).map(Some),
            tag => Err(bad(format!("a record of unknown kind {tag}"))),
        }
    }

    fn fact(&mut self, board: &Board) -> io::Result<Fact> {
        let Head {
            depth,
            bound,
            set,
            key,
        } = self.head(board)?;
        let maps = (0..self.number()?)
            .map(|_| self.relabel(board))
            .collect::<io::Result<_>>()?;
        let free_count = self.number()?;
        if free_count > board.colors as u64 {
            return Err(bad("more free colours than the board has"));
        }
        let mut free = vec![0u8; free_count as usize];
        self.bytes(&mut free)?;
        let uses = (0..self.number()?)
            .map(|_| Ok((self.number()?, self.optional_relabel(board)?)))
            .collect::<io::Result<_>>()?;
        // A claim follows its fact at once; peek for it.
        let claim = self.left > 0 && {
            let mut peek = [0u8];
            self.input.read_exact(&mut peek)?;
            if peek[0] == 2 {
                self.left -= 1;
                true
            } else {
                // Not a claim: the byte starts the next record.
                self.input.seek_relative(-1)?;
                false
            }
        };
        Ok(Fact {
            depth,
            bound,
            set,
            key,
            maps,
            free,
            uses,
            claim,
        })
    }
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
        let mut packed = vec![0u8; (board.pegs + board.colors).div_ceil(2)];
        self.bytes(&mut packed)?;
        let values: Vec<u8> = packed.iter().flat_map(|&b| [b & 15, b >> 4]).collect();
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
    fn bytes(&mut self, out: &mut [u8]) -> io::Result<()> {
        if (out.len() as u64) > self.left {
            return Err(bad("it ends in the middle of a record"));
        }
        self.left -= out.len() as u64;
        self.input.read_exact(out)
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
            _ => Err(bad("a fact read again is not a fact")),
        }
    }
}
