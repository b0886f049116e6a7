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
pub mod parts;
pub mod pegs;
pub mod read;
pub mod shares;

use bounds::{Depth, INFINITE};
use fact::Checker;
use game::Board;
use parts::Parts;
use rayon::prelude::*;
use read::{Fact, Head, Header, InFile, Prefix, Reader};
use std::path::Path;

/// How many facts are read before they are checked together, on every thread,
/// and at most how many secrets their sets hold in all (the memory a batch takes).
const BATCH_FACTS: usize = 4096;
const BATCH_SECRETS: usize = 1 << 22;

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
    /// Facts an earlier check of the same bytes checked, kept unchecked.
    pub earlier: u64,
    pub claims: Vec<Claim>,
    /// Whether the certificate was finished (its end and checksum read); if not,
    /// its facts were checked as far as they were written, and it proves nothing
    /// yet.
    pub finished: bool,
    /// A finished certificate's size and checksum: what names it.
    pub identity: Option<(u64, u32)>,
    /// Its last fact's head: what a part of a proof (no claim) proves.
    pub last: Option<Head>,
    /// Its premises: facts taken from the record of parts checked before.
    pub premises: u64,
}

/// How far a check got: the first `facts` facts hold, and they are the bytes
/// `prefix` names. A certificate is appended to while it is written (a proof
/// resumed from its checkpoint first cuts it back to the checkpoint's end), so
/// a check of one still being written names bytes that the finished one starts
/// with, or that a check of it can tell it no longer has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub facts: u64,
    pub prefix: Prefix,
}

/// Checks the certificate at `path`, fact by fact (a certificate still being
/// written if `unfinished`: as far as it is written); `progress` hears how far
/// the check got every `every` facts, and at its end. The facts of the longest
/// of the `earlier` checks' progress whose bytes the file still starts with are
/// kept without a check (a check longer than a session goes on where it
/// stopped, even from a check of the certificate before it was finished). A
/// premise holds only as the last fact of one of the `parts` recorded. The
/// error names the first fact that fails. A finished certificate with no claim
/// is a part of a proof: it holds if its facts do, and proves its last fact.
pub fn check(
    path: &Path,
    unfinished: bool,
    earlier: &[Progress],
    parts: &Parts,
    every: u64,
    mut progress: impl FnMut(Progress),
) -> Result<Checked, String> {
    let mut reader = match unfinished {
        true => Reader::open_unfinished(path),
        false => Reader::open(path),
    }
    .map_err(|e| e.to_string())?;
    let header = reader.header;
    let prefixes: Vec<Prefix> = earlier.iter().map(|p| p.prefix).collect();
    let kept = read::longest_kept(path, &prefixes).map_err(|e| e.to_string())?;
    let resumed = earlier.iter().find(|p| Some(p.prefix) == kept).copied();
    let skip = resumed.map_or(0, |p| p.facts);
    let board = Board::new(header.pegs, header.colors, header.repeat)?;
    let checker = Checker::new(board, header.candidates_only);
    let mut kept = InFile::new(path, &reader).map_err(|e| e.to_string())?;
    let mut claims: Vec<Claim> = Vec::new();
    let (mut last, mut premises) = (None, 0u64);
    let mut facts = 0u64;
    let mut batch: Vec<Fact> = Vec::new();
    loop {
        let first = facts;
        let stop = |number: u64| number == skip || number.is_multiple_of(every);
        let ended = read_batch(
            &mut reader,
            &mut kept,
            first,
            stop,
            &mut batch,
            &checker.board,
        );
        let failure = first_failure(&checker, &kept, parts, &header, &batch, first, skip);
        if let Some(failure) = failure {
            return Err(failure);
        }
        premises += batch.iter().filter(|f| f.premise.is_some()).count() as u64;
        if let Some(fact) = batch.last() {
            last = Some(head(fact));
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
        // The facts kept unchecked must be the bytes their record named.
        if let Some(resumed) = resumed.filter(|r| r.facts == facts && facts > first) {
            if reader.prefix() != resumed.prefix {
                return Err(format!(
                    "its first {facts} facts are not the {} bytes the earlier check recorded",
                    resumed.prefix.bytes
                ));
            }
        }
        let done = match ended {
            Some(Err(failure)) => return Err(failure),
            Some(Ok(())) => true,
            None => false,
        };
        // Recorded at the end and every `every` facts, past those kept unchecked.
        let periodic = facts > first && facts.is_multiple_of(every);
        if facts > skip && (done || periodic) {
            progress(Progress {
                facts,
                prefix: reader.prefix(),
            });
        }
        if done {
            break;
        }
    }
    if resumed.is_some_and(|r| r.facts > facts) {
        return Err("it holds fewer facts than the earlier check recorded".into());
    }
    // The facts used were read again from the file: it must be the one checked.
    let finished = reader.identity.is_some();
    let same = match reader.identity {
        Some(identity) => read::identity(path).ok() == Some(identity),
        None => {
            let read = reader.prefix();
            read::longest_kept(path, &[read]).ok() == Some(Some(read))
        }
    };
    if !same {
        return Err("it changed while it was checked".into());
    }
    Ok(Checked {
        header,
        facts,
        earlier: skip.min(facts),
        claims,
        finished,
        identity: reader.identity,
        last,
        premises,
    })
}

/// What a later fact can use of `fact`.
fn head(fact: &Fact) -> Head {
    Head {
        depth: fact.depth,
        bound: fact.bound,
        set: fact.set.clone(),
        key: fact.key,
    }
}

/// Reads the next facts, numbered from `first`, into `batch`, keeping each in
/// `kept`: up to [`BATCH_FACTS`] facts and [`BATCH_SECRETS`] secrets, and never
/// past a number of facts where `stop` says (where progress is recorded, and
/// where an earlier check's ended). `Some` once the certificate ends (or what
/// is written of it): well, or with the error that ends it.
fn read_batch(
    reader: &mut Reader,
    kept: &mut InFile,
    first: u64,
    stop: impl Fn(u64) -> bool,
    batch: &mut Vec<Fact>,
    board: &Board,
) -> Option<Result<(), String>> {
    batch.clear();
    let mut secrets = 0;
    while batch.len() < BATCH_FACTS && secrets < BATCH_SECRETS {
        let number = first + batch.len() as u64;
        if number > first && stop(number) {
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
    parts: &Parts,
    header: &Header,
    batch: &[Fact],
    first: u64,
    skip: u64,
) -> Option<String> {
    (0..batch.len()).into_par_iter().find_map_first(|i| {
        let (number, fact) = (first + i as u64, &batch[i]);
        if number >= skip {
            let holds = match fact.premise {
                Some(named) => parts.vouch(named, &head(fact), header, &checker.board),
                None => checker.holds(fact, number, kept),
            };
            if let Err(e) = holds {
                return Some(format!("fact {number} does not hold: {e}"));
            }
        }
        (fact.claim && fact.set.len() != checker.board.codes.len())
            .then(|| format!("fact {number} is a claim but not about every code"))
    })
}
