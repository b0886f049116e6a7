//! A proof in parts (docs/certificate.md, "A proof in parts"): a certificate
//! too big to keep whole is written as parts, each checked on its own where it
//! was written and then let go, and a top whose *premises* repeat each part's
//! last fact. This module is the record that joins them: a check of a part
//! (a finished certificate with no claim) adds a line naming it and its last
//! fact; a check of the top takes each premise from such a line, and from
//! nowhere else. So the top's verdict rests on those earlier checks, as a check
//! resumed from its record rests on the part it recorded (`--resume`), and says
//! so.
//!
//! A line: `part BYTES CRC FACTS PEGS COLORS REPEAT CANDIDATES HEAD`: the part's
//! size, its CRC-32 (8 hex digits), how many facts held, its header's board and
//! rules (a set's code numbers mean codes of that board only), and its last
//! fact's head (depth, bound, set, as a certificate writes them:
//! docs/certificate.md) in hex. Lines starting with `#` are comments.

use crate::game::Board;
use crate::read::{head_of, Head, Header};
use std::io::Write;
use std::path::Path;

/// A part whose check was recorded: what names it, its facts, its last fact's
/// head (parsed with the board of the certificate that uses it).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Part {
    bytes: u64,
    crc: u32,
    facts: u64,
    header: Header,
    head: Vec<u8>,
}

/// The parts a record holds.
#[derive(Clone, Debug, Default)]
pub struct Parts {
    parts: Vec<Part>,
}

/// The first line of a new record.
const TITLE: &str =
    "# mmcheck: parts of proofs, each checked whole; a premise is taken from these lines only\n";

impl Parts {
    /// The parts recorded at `path`; none if there is no such file.
    pub fn read(path: &Path) -> Result<Parts, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Parts::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        // A last line with no end was cut short as it was written: not a record.
        let whole = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
        let parts = (whole.lines().enumerate())
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
            .map(|(i, line)| {
                parse(line).ok_or_else(|| {
                    format!(
                        "{}: line {} is not a record of a part",
                        path.display(),
                        i + 1
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Parts { parts })
    }

    /// How many facts held in the part named `named` (its size and CRC-32), if
    /// its check is recorded here.
    pub fn facts_of(&self, named: (u64, u32)) -> Option<u64> {
        let part = self.parts.iter().find(|p| (p.bytes, p.crc) == named)?;
        Some(part.facts)
    }

    /// Whether a part of `bytes` bytes is recorded here: only then is a file's
    /// CRC-32 (a pass over it) worth working out to look it up.
    pub fn any_of_size(&self, bytes: u64) -> bool {
        self.parts.iter().any(|p| p.bytes == bytes)
    }

    /// Whether the premise `fact` (its head, naming the part `named`) of a
    /// certificate with `header` is the last fact of a part recorded here, of the
    /// same board and rules; else what is wrong.
    pub fn vouch(
        &self,
        named: (u64, u32),
        head: &Head,
        header: &Header,
        board: &Board,
    ) -> Result<(), String> {
        let (bytes, crc) = named;
        let Some(part) = (self.parts.iter()).find(|p| (p.bytes, p.crc) == named) else {
            return Err(format!(
                "it is a premise from the certificate of {bytes} bytes with CRC-32 {crc:08x}, \
                 whose check is not recorded (--parts)"
            ));
        };
        if part.header != *header {
            return Err(format!(
                "it is a premise from the certificate of {bytes} bytes with CRC-32 {crc:08x}, \
                 which its check recorded as one of another board or other rules"
            ));
        }
        let recorded = head_of(&part.head, board).map_err(|e| e.to_string())?;
        let same =
            (recorded.depth, recorded.bound, &recorded.set) == (head.depth, head.bound, &head.set);
        match same {
            true => Ok(()),
            false => Err(format!(
                "it is a premise from the certificate of {bytes} bytes with CRC-32 {crc:08x}, \
                 whose last fact, as its check recorded it, is another"
            )),
        }
    }
}

/// Adds to the record at `path` (made if missing) the part named `named`, whose
/// `facts` facts held, ending with `last`; a part already recorded is not
/// recorded twice.
pub fn record(
    path: &Path,
    header: &Header,
    named: (u64, u32),
    facts: u64,
    last: &Head,
) -> Result<(), String> {
    let part = Part {
        bytes: named.0,
        crc: named.1,
        facts,
        header: *header,
        head: encode(last),
    };
    let known = Parts::read(path)?;
    if known.parts.contains(&part) {
        return Ok(());
    }
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let head: String = part.head.iter().map(|b| format!("{b:02x}")).collect();
    let Header {
        pegs,
        colors,
        repeat,
        candidates_only,
    } = *header;
    let rules = format!(
        "{pegs} {colors} {} {}",
        u8::from(repeat),
        u8::from(candidates_only)
    );
    let mut line = format!(
        "part {} {:08x} {} {rules} {head}\n",
        part.bytes, part.crc, part.facts
    );
    if !path.exists() {
        line.insert_str(0, TITLE);
    }
    // Appended in one write: checks recording at once each add their line (the
    // kernel appends each write whole), and a write cut short leaves a last line
    // with no end, which `Parts::read` leaves out.
    let mut file = (std::fs::OpenOptions::new().create(true).append(true))
        .open(path)
        .map_err(io)?;
    file.write_all(line.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

fn parse(line: &str) -> Option<Part> {
    let words: Vec<&str> = line.split(' ').collect();
    let ["part", bytes, crc, facts, pegs, colors, repeat, candidates, head] = words[..] else {
        return None;
    };
    let flag = |word: &str| match word {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    };
    if head.len() % 2 != 0 {
        return None;
    }
    let head = (0..head.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(head.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    Some(Part {
        bytes: bytes.parse().ok()?,
        crc: u32::from_str_radix(crc, 16).ok()?,
        facts: facts.parse().ok()?,
        header: Header {
            pegs: pegs.parse().ok()?,
            colors: colors.parse().ok()?,
            repeat: flag(repeat)?,
            candidates_only: flag(candidates)?,
        },
        head,
    })
}

/// A head as a certificate writes it: depth (0: no limit), bound (0: none), the
/// set's size, then its codes as differences, all LEB128.
fn encode(head: &Head) -> Vec<u8> {
    let mut out = Vec::new();
    let mut number = |mut value: u64| {
        while value >= 0x80 {
            out.push((value as u8 & 0x7f) | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
    };
    number(head.depth.map_or(0, u64::from));
    number(head.bound.unwrap_or(0));
    number(head.set.len() as u64);
    let mut previous = 0;
    for &code in &head.set {
        number(u64::from(code - previous));
        previous = code;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Header {
        Header {
            pegs: 4,
            colors: 6,
            repeat: true,
            candidates_only: false,
        }
    }

    fn head(set: Vec<u32>, bound: u64) -> Head {
        Head {
            depth: None,
            bound: Some(bound),
            set,
            key: None,
        }
    }

    #[test]
    fn a_recorded_part_vouches_for_its_last_fact_and_nothing_else() {
        let board = Board::new(4, 6, true).unwrap();
        let header = classic();
        let dir = std::env::temp_dir().join(format!("mmcheck-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("parts.txt");
        let _ = std::fs::remove_file(&path);
        let last = head(vec![3, 200, 1295], 7);
        record(&path, &header, (1234, 0xabcd), 10, &last).unwrap();
        record(&path, &header, (1234, 0xabcd), 10, &last).unwrap();
        let parts = Parts::read(&path).unwrap();
        assert_eq!(parts.parts.len(), 1, "recorded once");
        assert!(parts.vouch((1234, 0xabcd), &last, &header, &board).is_ok());
        // The same set's numbers on another board, or under other rules, are other codes.
        for other in [
            Header {
                colors: 7,
                ..header
            },
            Header {
                repeat: false,
                ..header
            },
            Header {
                candidates_only: true,
                ..header
            },
        ] {
            assert!(parts.vouch((1234, 0xabcd), &last, &other, &board).is_err());
        }
        let refused = [
            ((1235, 0xabcd), last.clone()),
            ((1234, 0xabce), last.clone()),
            ((1234, 0xabcd), head(vec![3, 200, 1295], 8)),
            ((1234, 0xabcd), head(vec![3, 201, 1295], 7)),
            (
                (1234, 0xabcd),
                Head {
                    depth: Some(5),
                    ..last.clone()
                },
            ),
        ];
        for (named, other) in refused {
            assert!(
                parts.vouch(named, &other, &header, &board).is_err(),
                "{named:?} {other:?}"
            );
        }
        // A line cut short as it was written is left out; a damaged one is named.
        let whole = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{whole}part 1234 0000abcd 10 4 6 1 0 00")).unwrap();
        assert_eq!(Parts::read(&path).unwrap().parts.len(), 1);
        std::fs::write(&path, "part 1 2 3\n").unwrap();
        assert!(Parts::read(&path).unwrap_err().contains("line 1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn checks_recording_at_once_each_add_their_line() {
        let dir =
            std::env::temp_dir().join(format!("mmcheck-parts-at-once-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("parts.txt");
        let big: Vec<u32> = (0..1296).step_by(2).collect();
        std::thread::scope(|scope| {
            for at in 0..16u64 {
                let (path, last) = (&path, head(big.clone(), 1000 + at));
                scope.spawn(move || record(path, &classic(), (at, 7), 1, &last).unwrap());
            }
        });
        assert_eq!(Parts::read(&path).unwrap().parts.len(), 16);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
