//! The metadata block: who made the tree, with which rule, and what it achieves.
//!
//! Encoded with bincode 2 through serde. bincode is kept to this small block and
//! decoded with a size limit, because the file is untrusted input: a hostile length
//! field must not make the reader allocate gigabytes.

use super::FormatError;
use serde::{Deserialize, Serialize};
use std::format;
use std::string::String;
use std::vec::Vec;

/// Descriptive header of a tree file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The program and version that wrote the file, e.g. `mmgen 0.1.0`.
    pub generator: String,
    pub strategy: StrategyInfo,
    pub stats: Stats,
}

/// The rule that chose every guess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyInfo {
    /// Short name, as given to `mmgen --strategy`.
    pub name: String,
    /// What the rule minimises or maximises, in words.
    pub rule: String,
    /// How ties between equally good guesses are broken.
    pub tie_break: String,
    /// Further settings (name, value), e.g. a forced first guess.
    pub params: Vec<(String, String)>,
    /// For exact searches: whether the search finished, so the tree is proven optimal.
    /// `None` for heuristics.
    pub proven: Option<bool>,
}

impl StrategyInfo {
    /// What the header claims about optimality, in words, with the constraints it
    /// holds under; `None` for heuristics, which claim nothing.
    pub fn proof(&self, stats: &Stats) -> Option<String> {
        let settings = self.settings();
        let mut under = String::new();
        if let Some(first) = &settings.first {
            under += &format!(" that starts with {first}");
        }
        if settings.consistent_only {
            under += " guessing only still-possible codes";
        }
        if let Some(depth) = settings.max_depth {
            under += &format!(" that needs at most {depth} guesses");
        }
        Some(match self.proven? {
            true if settings.worst_first => format!(
                "yes: no strategy{under} has a worst case below {}, nor, with that worst case, a total below {}",
                stats.max_guesses, stats.total_guesses
            ),
            true => format!(
                "yes: no strategy{under} has a total below {}",
                stats.total_guesses
            ),
            false => match settings.proven_lower_bound {
                Some(floor) => format!(
                    "no: the time limit ran out; best total found {} (this tree), proven lower bound {floor}",
                    stats.total_guesses
                ),
                None => String::from("no: the time limit ran out"),
            },
        })
    }
}

/// What the tree achieves over all secrets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Secrets the tree solves (every code of the board).
    pub secrets: u64,
    /// Positions where a guess is made: node records plus leaves.
    pub nodes: u64,
    /// The most guesses any secret needs, the winning guess included.
    pub max_guesses: u32,
    /// Guesses summed over all secrets.
    pub total_guesses: u64,
    /// `histogram[i]`: secrets solved with `i + 1` guesses.
    pub histogram: Vec<u64>,
}

impl Stats {
    /// Average guesses per secret.
    pub fn average(&self) -> f64 {
        if self.secrets == 0 {
            0.0
        } else {
            self.total_guesses as f64 / self.secrets as f64
        }
    }

    /// The histogram as `guesses:secrets` pairs, e.g. `1:1 2:6 3:62`.
    pub fn histogram_text(&self) -> String {
        histogram_text(&self.histogram)
    }

    /// The worst case, total and histogram as three aligned lines, for reports.
    pub fn summary(&self) -> String {
        stats_lines(
            self.max_guesses,
            self.total_guesses,
            self.average(),
            &self.histogram,
        )
    }

    /// Counts one secret solved with `guesses` guesses.
    pub fn add_secret(&mut self, guesses: u32) {
        let slot = guesses as usize - 1;
        if self.histogram.len() <= slot {
            self.histogram.resize(slot + 1, 0);
        }
        self.histogram[slot] += 1;
        self.secrets += 1;
        self.total_guesses += u64::from(guesses);
        self.max_guesses = self.max_guesses.max(guesses);
    }
}

/// A histogram as `guesses:secrets` pairs, e.g. `1:1 2:6 3:62`.
pub(crate) fn histogram_text(histogram: &[u64]) -> String {
    let pairs: Vec<String> = (histogram.iter().enumerate())
        .map(|(i, n)| format!("{}:{n}", i + 1))
        .collect();
    pairs.join(" ")
}

/// The worst case, total and histogram as three aligned lines.
pub(crate) fn stats_lines(max: u32, total: u64, average: f64, histogram: &[u64]) -> String {
    format!(
        "worst case   {max} guesses\ntotal        {total} guesses (average {average:.4})\nhistogram    {}",
        histogram_text(histogram)
    )
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ super::MAX_META_LEN as usize }>()
}

impl Meta {
    /// The encoded bytes.
    pub fn encode(&self) -> Vec<u8> {
        // Encoding plain structs of strings and integers into a Vec cannot fail.
        bincode::serde::encode_to_vec(self, config()).unwrap_or_default()
    }

    /// Decodes exactly `bytes`, refusing trailing bytes and oversized lengths.
    pub fn decode(bytes: &[u8]) -> Result<Meta, FormatError> {
        match bincode::serde::decode_from_slice::<Meta, _>(bytes, config()) {
            Ok((meta, used)) if used == bytes.len() => Ok(meta),
            _ => Err(FormatError::Meta),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Meta {
        let mut stats = Stats::default();
        stats.add_secret(1);
        stats.add_secret(3);
        stats.nodes = 2;
        Meta {
            generator: "test".into(),
            strategy: StrategyInfo {
                name: "knuth".into(),
                rule: "r".into(),
                tie_break: "t".into(),
                params: vec![("first".into(), "1122".into())],
                proven: None,
            },
            stats,
        }
    }

    #[test]
    fn round_trips_and_counts() {
        let meta = sample();
        assert_eq!(meta.stats.histogram, vec![1, 0, 1]);
        assert_eq!(meta.stats.total_guesses, 4);
        assert_eq!(meta.stats.max_guesses, 3);
        assert_eq!(meta.stats.histogram_text(), "1:1 2:0 3:1");
        assert_eq!(Meta::decode(&meta.encode()), Ok(meta));
    }

    #[test]
    fn proofs_state_their_constraints() {
        let mut meta = sample();
        assert_eq!(meta.strategy.proof(&meta.stats), None);
        meta.strategy.proven = Some(true);
        meta.strategy.params.push(("max-depth".into(), "5".into()));
        assert_eq!(
            meta.strategy.proof(&meta.stats).unwrap(),
            "yes: no strategy that starts with 1122 that needs at most 5 guesses has a total below 4"
        );
        meta.strategy.proven = Some(false);
        meta.strategy
            .params
            .push(("proven lower bound".into(), "3".into()));
        assert_eq!(
            meta.strategy.proof(&meta.stats).unwrap(),
            "no: the time limit ran out; best total found 4 (this tree), proven lower bound 3"
        );
    }

    #[test]
    fn rejects_trailing_truncated_and_huge() {
        let mut bytes = sample().encode();
        bytes.push(0);
        assert_eq!(Meta::decode(&bytes), Err(FormatError::Meta));
        bytes.truncate(bytes.len() - 3);
        assert_eq!(Meta::decode(&bytes), Err(FormatError::Meta));
        // A string length claiming 2^60 bytes must fail fast, not allocate.
        let huge = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0x10];
        assert_eq!(Meta::decode(&huge), Err(FormatError::Meta));
    }
}
