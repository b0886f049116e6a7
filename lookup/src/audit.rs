//! Proves what a tree file claims, from its bytes alone.
//!
//! The audit trusts nothing in the file: it recomputes the checksum, then pushes every
//! code of the board down from the root at once, partitioning the secrets at each
//! node by the answer its guess really gets. That checks every stored answer mask,
//! candidate count and leaf, that every record is reached exactly once, and yields
//! each secret's number of guesses; the statistics in the metadata must equal those.
//! Finally every secret is replayed alone through [`crate::play::solve`], the walk that
//! `next` and `solve` use, and must take the same number of guesses.
//!
//! Before any of that, [`Tree::verify`] checks the checksum and the shape: records
//! numbered breadth first, so every record but the root has exactly one parent and
//! the file is a tree, all of it reachable from the root, whatever the bytes were.
//!
//! Memory: two code-sized buffers, partitioned in place, never a copy per node.

use crate::board::{Code, Written};
use crate::format::{FormatError, Meta, Stats};
use crate::play::{solve, PlayError};
use crate::score::{answer_count, ScoreBits, MAX_ANSWERS};
use crate::tree::{Position, Tree};
use std::fmt;
use std::vec::Vec;

/// What an audit found true of a tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub meta: Meta,
    /// Statistics recomputed from the tree (equal to `meta.stats`).
    pub stats: Stats,
    pub records: u32,
    pub edges: u32,
    pub file_bytes: u64,
}

/// A claim of the tree that does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditError {
    Format(FormatError),
    Play(PlayError),
    /// A record's stored candidate count is wrong.
    Candidates {
        record: u32,
        stored: u32,
        actual: u32,
    },
    /// A record's answers are not the ones its guess makes.
    Answers {
        record: u32,
        stored: u64,
        actual: u64,
    },
    /// An edge leads to a leaf but the secrets there are not exactly the leaf's code.
    Leaf {
        code: Written,
        secrets: u32,
    },
    /// A statistic in the metadata is not the tree's.
    Stat {
        name: &'static str,
        stored: u64,
        actual: u64,
    },
    /// Replaying a secret alone took a different number of guesses.
    Replay {
        secret: Written,
        walked: u32,
        partitioned: u32,
    },
}

impl From<FormatError> for AuditError {
    fn from(e: FormatError) -> AuditError {
        AuditError::Format(e)
    }
}

impl fmt::Display for AuditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AuditError::*;
        match self {
            Format(e) => write!(f, "{e}"),
            Play(e) => write!(f, "{e}"),
            Candidates {
                record,
                stored,
                actual,
            } => write!(
                f,
                "node {record} claims {stored} candidates, {actual} secrets reach it"
            ),
            Answers {
                record,
                stored,
                actual,
            } => write!(
                f,
                "node {record} has branches {stored:#x}, its guess gives answers {actual:#x}"
            ),
            Leaf { code, secrets } => write!(
                f,
                "leaf {code} is reached by {secrets} secrets, not just itself"
            ),
            Stat {
                name,
                stored,
                actual,
            } => write!(
                f,
                "the header says {name} = {stored}, the tree has {actual}"
            ),
            Replay {
                secret,
                walked,
                partitioned,
            } => write!(
                f,
                "secret {secret} takes {walked} guesses when walked, {partitioned} when partitioned"
            ),
        }
    }
}

/// One position to check: the secrets reaching it are `secrets[from..to]`.
struct Visit {
    position: Position,
    from: usize,
    to: usize,
    guesses: u32,
}

/// Checks everything a tree claims; see the module docs.
pub fn audit<D: AsRef<[u8]>>(tree: &Tree<D>) -> Result<Report, AuditError> {
    tree.verify()?;
    let meta = tree.meta()?;
    let board = tree.board();
    let pegs = board.pegs();
    let codes: Vec<Code> = board.codes().collect();
    let bits: Vec<ScoreBits<u128>> = codes
        .iter()
        .map(|&c| ScoreBits::of(c, pegs, board.colors()))
        .collect();
    let layout = *tree.layout();

    let mut secrets: Vec<u32> = (0..board.code_count()).collect();
    let mut scratch = vec![0u32; secrets.len()];
    let mut solved_with = vec![0u32; secrets.len()];
    let mut stats = Stats::default();
    let mut stack = vec![Visit {
        position: tree.root(),
        from: 0,
        to: secrets.len(),
        guesses: 1,
    }];
    while let Some(visit) = stack.pop() {
        stats.nodes += 1;
        let record = match visit.position {
            Position::Leaf(code) => {
                let here = &secrets[visit.from..visit.to];
                if here != [code] {
                    return Err(AuditError::Leaf {
                        code: board.display(codes[code as usize]),
                        secrets: here.len() as u32,
                    });
                }
                solved_with[code as usize] = visit.guesses;
                stats.add_secret(visit.guesses);
                continue;
            }
            Position::Node(record) => record,
        };
        let node = tree.record(record)?;
        let actual = (visit.to - visit.from) as u32;
        if node.candidates != actual {
            return Err(AuditError::Candidates {
                record,
                stored: node.candidates,
                actual,
            });
        }
        // Counting sort of the secrets here by the answer the guess gets.
        let guess = node.guess as usize;
        let answer_of = |s: u32| bits[guess].score(bits[s as usize]).index(pegs);
        let mut class_start = [0usize; MAX_ANSWERS + 1];
        for &s in &secrets[visit.from..visit.to] {
            class_start[answer_of(s) + 1] += 1;
        }
        let answers = answer_count(pegs);
        let win = answers - 1;
        let actual_mask = (0..win)
            .filter(|&a| class_start[a + 1] > 0)
            .fold(0u64, |m, a| m | 1 << a);
        if node.mask != actual_mask {
            return Err(AuditError::Answers {
                record,
                stored: node.mask,
                actual: actual_mask,
            });
        }
        let wins = class_start[win + 1];
        for a in 0..answers {
            class_start[a + 1] += class_start[a];
        }
        let mut fill = class_start;
        for &s in &secrets[visit.from..visit.to] {
            let a = answer_of(s);
            scratch[visit.from + fill[a]] = s;
            fill[a] += 1;
        }
        secrets[visit.from..visit.to].copy_from_slice(&scratch[visit.from..visit.to]);
        if wins == 1 {
            solved_with[guess] = visit.guesses;
            stats.add_secret(visit.guesses);
        }
        for branch in tree.children(visit.position)? {
            let (answer, child) = branch?;
            let a = answer.index(pegs);
            stack.push(Visit {
                position: child,
                from: visit.from + class_start[a],
                to: visit.from + class_start[a + 1],
                guesses: visit.guesses + 1,
            });
        }
    }
    compare_stats(&meta.stats, &stats)?;
    check_depth_claim(&meta, &stats)?;
    for (index, &secret) in codes.iter().enumerate() {
        let walked = solve(tree, secret, |_, _| ()).map_err(AuditError::Play)?;
        if walked != solved_with[index] {
            return Err(AuditError::Replay {
                secret: board.display(secret),
                walked,
                partitioned: solved_with[index],
            });
        }
    }
    Ok(Report {
        meta,
        stats,
        records: layout.records,
        edges: layout.edges,
        file_bytes: tree.bytes().len() as u64,
    })
}

/// A tree whose header records `max-depth D` needs at most D guesses.
fn check_depth_claim(meta: &Meta, actual: &Stats) -> Result<(), AuditError> {
    let claimed = meta.strategy.param("max-depth").map(str::parse::<u32>);
    match claimed {
        Some(Ok(depth)) if actual.max_guesses <= depth => Ok(()),
        Some(Ok(depth)) => Err(AuditError::Stat {
            name: "max-depth",
            stored: depth.into(),
            actual: actual.max_guesses.into(),
        }),
        Some(Err(_)) => Err(AuditError::Format(FormatError::Meta)),
        None => Ok(()),
    }
}

fn compare_stats(stored: &Stats, actual: &Stats) -> Result<(), AuditError> {
    let pairs = [
        ("secrets", stored.secrets, actual.secrets),
        ("nodes", stored.nodes, actual.nodes),
        (
            "max_guesses",
            stored.max_guesses.into(),
            actual.max_guesses.into(),
        ),
        ("total_guesses", stored.total_guesses, actual.total_guesses),
        (
            "histogram length",
            stored.histogram.len() as u64,
            actual.histogram.len() as u64,
        ),
    ];
    let histogram = stored
        .histogram
        .iter()
        .zip(&actual.histogram)
        .map(|(&s, &a)| ("a histogram entry", s, a));
    match pairs.into_iter().chain(histogram).find(|&(_, s, a)| s != a) {
        Some((name, stored, actual)) => Err(AuditError::Stat {
            name,
            stored,
            actual,
        }),
        None => Ok(()),
    }
}

impl std::error::Error for AuditError {}
