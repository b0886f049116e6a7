//! A checker of mmtree's proof certificates that shares no code with the search:
//! its own board, scoring, bounds and symmetry checks, in about as many lines as
//! it takes to read what "proven" means here.
//!
//! A certificate (docs/certificate.md) is a list of facts, each "this set of
//! secrets, with at most this many guesses left, needs at least this many guesses
//! in total". Each fact is checked by trying every guess at its set (module
//! `fact`), using only the bounds the rules give (module `bounds`) and the facts
//! before it, which are read again from the file when used (module `read`); so
//! facts are read a batch at a time and the batch is checked on every thread. The
//! last facts are about every code of the board: those are the certificate's
//! claims. With the tree file (read and audited by the
//! lookup library, which checks what the tree achieves), a claim equal to the
//! tree's total proves the tree optimal.

pub mod bounds;
pub mod fact;
pub mod game;
pub mod read;

use bounds::{Depth, INFINITE};
use fact::Checker;
use game::Board;
use rayon::prelude::*;
use read::{Fact, Header, InFile, Reader};
use std::path::Path;

/// How many facts are read before they are checked together, on every thread,
/// and at most how many secrets their sets hold in all (the memory a batch takes).
const BATCH_FACTS: usize = 4096;
const BATCH_SECRETS: usize = 1 << 22;

/// How often, in facts, a check says how far it got.
const PROGRESS_EVERY: u64 = 100_000;

/// A claim a certificate proves: with at most `depth` guesses per secret, every
/// strategy needs at least `bound` guesses in total ([`INFINITE`]: none exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub depth: Depth,
    pub bound: u64,
}

/// A certificate checked: what it is about, its facts, and its claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub header: Header,
    pub facts: u64,
    /// Facts an earlier check of the same certificate checked, kept unchecked.
    pub earlier: u64,
    pub claims: Vec<Claim>,
}

/// How far a check of a certificate got: its first `facts` facts hold. A
/// certificate is named by its size and checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub size: u64,
    pub crc: u32,
    pub facts: u64,
}

/// Checks the certificate at `path`, fact by fact; `progress` hears how far the
/// check got now and then. The facts an `earlier` check of the same certificate
/// got through are kept without a check (a check longer than a session goes on
/// where it stopped; another certificate's progress is not used). The error
/// names the first fact that fails.
pub fn check(
    path: &Path,
    earlier: Option<Progress>,
    mut progress: impl FnMut(Progress),
) -> Result<Checked, String> {
    let mut reader = Reader::open(path).map_err(|e| e.to_string())?;
    let header = reader.header;
    let (size, crc) = reader.identity;
    let skip = earlier
        .filter(|e| (e.size, e.crc) == (size, crc))
        .map_or(0, |e| e.facts);
    let board = Board::new(header.pegs, header.colors, header.repeat)?;
    let checker = Checker::new(board, header.candidates_only);
    let mut kept = InFile::new(path, &reader).map_err(|e| e.to_string())?;
    let mut claims: Vec<Claim> = Vec::new();
    let mut facts = 0u64;
    let mut batch: Vec<Fact> = Vec::new();
    loop {
        let first = facts;
        let ended = read_batch(&mut reader, &mut kept, first, &mut batch, &checker.board);
        if let Some(failure) = first_failure(&checker, &kept, &batch, first, skip) {
            return Err(failure);
        }
        for fact in batch.iter().filter(|fact| fact.claim) {
            let claim = Claim {
                depth: fact.depth.filter(|&d| (d as usize) < fact.set.len()),
                bound: fact.bound.unwrap_or(INFINITE),
            };
            if !claims.contains(&claim) {
                claims.push(claim);
            }
        }
        facts += batch.len() as u64;
        if !batch.is_empty() && facts.is_multiple_of(PROGRESS_EVERY) && facts > skip {
            progress(Progress { size, crc, facts });
        }
        match ended {
            Some(Err(failure)) => return Err(failure),
            Some(Ok(())) => break,
            None => {}
        }
    }
    if claims.is_empty() {
        return Err("it claims nothing about the whole board".into());
    }
    // The facts used were read again from the file: it must be the one checked.
    if read::identity(path).ok() != Some(reader.identity) {
        return Err("it changed while it was checked".into());
    }
    Ok(Checked {
        header,
        facts,
        earlier: skip.min(facts),
        claims,
    })
}

/// Reads the next facts, numbered from `first`, into `batch`, keeping each in
/// `kept`: up to [`BATCH_FACTS`] facts and [`BATCH_SECRETS`] secrets, and never
/// past a multiple of [`PROGRESS_EVERY`] (a record of progress names a batch's
/// end). `Some` once the certificate ends: well, or with the error that ends it.
fn read_batch(
    reader: &mut Reader,
    kept: &mut InFile,
    first: u64,
    batch: &mut Vec<Fact>,
    board: &Board,
) -> Option<Result<(), String>> {
    batch.clear();
    let mut secrets = 0;
    while batch.len() < BATCH_FACTS && secrets < BATCH_SECRETS {
        let number = first + batch.len() as u64;
        if number > first && number.is_multiple_of(PROGRESS_EVERY) {
            break;
        }
        match reader.next(board, number) {
            Ok(Some(fact)) => {
                kept.keep(reader);
                secrets += fact.set.len();
                batch.push(fact);
            }
            Ok(None) => return Some(Ok(())),
            Err(e) => return Some(Err(format!("after fact {number}: {e}"))),
        }
    }
    None
}

/// Checks `batch`, the facts numbered from `first` (those below `skip` an earlier
/// check did), on every thread: each uses only facts before it, all kept, so the
/// order does not matter. What is wrong with the first that fails, by number, as
/// a check one by one would say.
fn first_failure(
    checker: &Checker,
    kept: &InFile,
    batch: &[Fact],
    first: u64,
    skip: u64,
) -> Option<String> {
    (0..batch.len()).into_par_iter().find_map_first(|i| {
        let (number, fact) = (first + i as u64, &batch[i]);
        if number >= skip {
            if let Err(e) = checker.holds(fact, number, kept) {
                return Some(format!("fact {number} does not hold: {e}"));
            }
        }
        (fact.claim && fact.set.len() != checker.board.codes.len())
            .then(|| format!("fact {number} is a claim but not about every code"))
    })
}
