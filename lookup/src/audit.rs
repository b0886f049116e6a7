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
use crate::score::{answer_count, Feedback, ScoreBits, MAX_ANSWERS};
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
        pegs: usize,
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
                "node {record} claims {stored} candidates, {actual} {} it",
                if *actual == 1 {
                    "secret reaches"
                } else {
                    "secrets reach"
                }
            ),
            Answers {
                record,
                stored,
                actual,
                pegs,
            } => {
                // The answers by name (B,W), not as bit masks.
                let answers = |mask: u64| -> String {
                    let named: Vec<String> = (0..64)
                        .filter(|a| mask >> a & 1 == 1)
                        .filter_map(|a| Feedback::from_index(a, *pegs))
                        .map(|f| f.to_string())
                        .collect();
                    match named.is_empty() {
                        true => "none".into(),
                        false => named.join(" "),
                    }
                };
                write!(
                    f,
                    "node {record} has branches for the answers {}, but its guess gets {} from the secrets there",
                    answers(*stored),
                    answers(*actual)
                )
            }
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
    let mut push = PushDown::new(tree);
    push.run()?;
    compare_stats(&meta.stats, &push.stats)?;
    check_depth_claim(&meta, &push.stats)?;
    push.replay()?;
    let layout = tree.layout();
    Ok(Report {
        meta,
        stats: push.stats,
        records: layout.records,
        edges: layout.edges,
        file_bytes: tree.bytes().len() as u64,
    })
}

/// Every code of the board pushed down the tree at once: `secrets[from..to]` of a
/// visit are the secrets that reach its position, partitioned in place.
struct PushDown<'t, D> {
    tree: &'t Tree<D>,
    codes: Vec<Code>,
    bits: Vec<ScoreBits<u128>>,
    secrets: Vec<u32>,
    scratch: Vec<u32>,
    /// Guesses each secret took, by code index.
    solved_with: Vec<u32>,
    stats: Stats,
}

impl<'t, D: AsRef<[u8]>> PushDown<'t, D> {
    fn new(tree: &'t Tree<D>) -> Self {
        let board = tree.board();
        let codes: Vec<Code> = board.codes().collect();
        let bits = (codes.iter())
            .map(|&c| ScoreBits::of(c, board.pegs(), board.colors()))
            .collect();
        let n = codes.len();
        PushDown {
            tree,
            codes,
            bits,
            secrets: (0..n as u32).collect(),
            scratch: vec![0; n],
            solved_with: vec![0; n],
            stats: Stats::default(),
        }
    }

    /// Visits every position, checking it against the secrets that reach it.
    fn run(&mut self) -> Result<(), AuditError> {
        let mut stack = vec![Visit {
            position: self.tree.root(),
            from: 0,
            to: self.secrets.len(),
            guesses: 1,
        }];
        while let Some(visit) = stack.pop() {
            self.stats.nodes += 1;
            match visit.position {
                Position::Leaf(code) => self.leaf(&visit, code)?,
                Position::Node(record) => self.node(&visit, record, &mut stack)?,
            }
        }
        Ok(())
    }

    /// A leaf: exactly its own code reaches it.
    fn leaf(&mut self, visit: &Visit, code: u32) -> Result<(), AuditError> {
        let here = &self.secrets[visit.from..visit.to];
        if here != [code] {
            return Err(AuditError::Leaf {
                code: self.tree.board().display(self.codes[code as usize]),
                secrets: here.len() as u32,
            });
        }
        self.solved(code, visit.guesses);
        Ok(())
    }

    fn solved(&mut self, code: u32, guesses: u32) {
        self.solved_with[code as usize] = guesses;
        self.stats.add_secret(guesses);
    }

    /// A record: its count and answers are those its guess makes of the secrets
    /// here; they are sorted by answer, and each branch is visited with its class.
    fn node(
        &mut self,
        visit: &Visit,
        record: u32,
        stack: &mut Vec<Visit>,
    ) -> Result<(), AuditError> {
        let node = self.tree.record(record)?;
        let actual = (visit.to - visit.from) as u32;
        if node.candidates != actual {
            return Err(AuditError::Candidates {
                record,
                stored: node.candidates,
                actual,
            });
        }
        let class_start = self.sort_by_answer(visit, node.guess);
        let pegs = self.tree.board().pegs();
        let win = answer_count(pegs) - 1;
        let actual_mask = (0..win)
            .filter(|&a| class_start[a + 1] > class_start[a])
            .fold(0u64, |m, a| m | 1 << a);
        if node.mask != actual_mask {
            return Err(AuditError::Answers {
                record,
                stored: node.mask,
                actual: actual_mask,
                pegs,
            });
        }
        if class_start[win + 1] > class_start[win] {
            self.solved(node.guess, visit.guesses);
        }
        for branch in self.tree.children(visit.position)? {
            let (answer, child) = branch?;
            let a = answer.index(pegs);
            stack.push(Visit {
                position: child,
                from: visit.from + class_start[a],
                to: visit.from + class_start[a + 1],
                guesses: visit.guesses + 1,
            });
        }
        Ok(())
    }

    /// Counting sort of the secrets of `visit` by the answer `guess` gets; returns
    /// where each answer's class starts (relative to `visit.from`), and its end.
    fn sort_by_answer(&mut self, visit: &Visit, guess: u32) -> [usize; MAX_ANSWERS + 1] {
        let pegs = self.tree.board().pegs();
        let bits = &self.bits;
        let answer_of = |s: u32| bits[guess as usize].score(bits[s as usize]).index(pegs);
        let here = visit.from..visit.to;
        let mut class_start = [0usize; MAX_ANSWERS + 1];
        for &s in &self.secrets[here.clone()] {
            class_start[answer_of(s) + 1] += 1;
        }
        for a in 0..MAX_ANSWERS {
            class_start[a + 1] += class_start[a];
        }
        let mut fill = class_start;
        for &s in &self.secrets[here.clone()] {
            let a = answer_of(s);
            self.scratch[visit.from + fill[a]] = s;
            fill[a] += 1;
        }
        self.secrets[here.clone()].copy_from_slice(&self.scratch[here]);
        class_start
    }

    /// Every secret played alone through the walk `next` and `solve` use takes the
    /// guesses the push-down counted.
    fn replay(&self) -> Result<(), AuditError> {
        for (index, &secret) in self.codes.iter().enumerate() {
            let walked = solve(self.tree, secret, |_, _| ()).map_err(AuditError::Play)?;
            if walked != self.solved_with[index] {
                return Err(AuditError::Replay {
                    secret: self.tree.board().display(secret),
                    walked,
                    partitioned: self.solved_with[index],
                });
            }
        }
        Ok(())
    }
}

/// A tree whose header records `max-depth D` needs at most D guesses, and every
/// parameter the header records reads as its kind.
fn check_depth_claim(meta: &Meta, actual: &Stats) -> Result<(), AuditError> {
    let settings = meta.strategy.settings();
    if settings.unreadable.is_some() {
        return Err(AuditError::Format(FormatError::Meta));
    }
    match settings.max_depth {
        Some(depth) if actual.max_guesses > depth => Err(AuditError::Stat {
            name: "max-depth",
            stored: depth.into(),
            actual: actual.max_guesses.into(),
        }),
        _ => Ok(()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn a_wrong_answer_mask_is_named_by_its_answers() {
        let error = AuditError::Answers {
            record: 5,
            stored: 0b11,
            actual: 0b101,
            pegs: 4,
        };
        assert_eq!(
            error.to_string(),
            "node 5 has branches for the answers 0,0 0,1, but its guess gets 0,0 0,2 from the secrets there"
        );
    }
}
