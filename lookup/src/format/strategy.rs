//! The strategies and their parameters as types, shared by the generator that
//! writes them and every reader.
//!
//! A version 1 header stores the strategy's name and its parameters as text (see
//! FORMAT.md); the names and keys live here and nowhere else, so a reader asks
//! [`StrategyInfo::kind`] or [`StrategyInfo::settings`] and never matches a string,
//! and a renamed key cannot compile on one side and silently break the other.
//! Text the reader does not know (a newer writer's parameter) is kept in the
//! header and shown, but never acted on.

use super::StrategyInfo;
use std::string::{String, ToString};
use std::vec::Vec;

/// The strategies, by the names headers and `mmgen --strategy` use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum StrategyKind {
    /// Smallest largest answer class (Knuth 1977).
    Knuth,
    /// Smallest sum of squared class sizes (Irving 1979).
    ExpectedSize,
    /// Largest entropy of the class sizes (Neuwirth 1982).
    Entropy,
    /// Most non-empty classes (Kooi 2005).
    MostParts,
    /// The smallest still-possible code.
    Consistent,
    /// Exact branch and bound: the least total (or worst case), proven.
    Optimal,
    /// Read from JSON by `mmgen import`.
    #[cfg_attr(feature = "cli", value(skip))]
    Imported,
}

impl StrategyKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [StrategyKind; 7] = [
        StrategyKind::Knuth,
        StrategyKind::ExpectedSize,
        StrategyKind::Entropy,
        StrategyKind::MostParts,
        StrategyKind::Consistent,
        StrategyKind::Optimal,
        StrategyKind::Imported,
    ];

    /// The name in headers and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Knuth => "knuth",
            StrategyKind::ExpectedSize => "expected-size",
            StrategyKind::Entropy => "entropy",
            StrategyKind::MostParts => "most-parts",
            StrategyKind::Consistent => "consistent",
            StrategyKind::Optimal => "optimal",
            StrategyKind::Imported => "imported",
        }
    }

    /// The kind named `name`, if it is one.
    pub fn from_name(name: &str) -> Option<StrategyKind> {
        StrategyKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One parameter of a strategy, as recorded in a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// The first guess was forced (the code in the board's notation).
    First(String),
    /// No secret needs more guesses than this.
    MaxDepth(u32),
    /// The worst case was minimised first, then the total.
    WorstFirst,
    /// Only codes still possible were guessed.
    ConsistentOnly,
    /// The least worst case, found by the search (with [`Param::WorstFirst`]).
    WorstCase(u32),
    /// The least total a search that ran out of time proved.
    ProvenLowerBound(u64),
    /// Nodes with at most this many secrets played by the exact search (least
    /// total), the rule above them.
    ExactBelow(u32),
    /// Nodes with more than this many secrets played by a rollout: the guess
    /// whose subtree, with the rule below it, costs least.
    RolloutAbove(u32),
    /// With [`Param::RolloutAbove`]: only this many guesses weighed at a node,
    /// those the rule scores best.
    RolloutWidth(u32),
    /// The JSON file a tree was imported from.
    Source(String),
    /// The strategy that JSON document said it was exported from (its claim).
    SourceStrategy(String),
    /// The exact plan (its identity, 8 hex digits) whose items done a merge took
    /// (`mmgen merge --fill`), the rest from the tree named by [`Param::Source`].
    Plan(String),
}

impl Param {
    /// The (key, value) text stored in a version 1 header.
    pub fn to_pair(&self) -> (String, String) {
        let (key, value) = match self {
            Param::First(code) => ("first", code.clone()),
            Param::MaxDepth(d) => ("max-depth", d.to_string()),
            Param::WorstFirst => ("objective", "worst".to_string()),
            Param::ConsistentOnly => ("guesses", "still-possible codes only".to_string()),
            Param::WorstCase(d) => ("worst case", d.to_string()),
            Param::ProvenLowerBound(n) => ("proven lower bound", n.to_string()),
            Param::ExactBelow(n) => ("exact below", n.to_string()),
            Param::RolloutAbove(n) => ("rollout above", n.to_string()),
            Param::RolloutWidth(n) => ("rollout width", n.to_string()),
            Param::Source(file) => ("source", file.clone()),
            Param::SourceStrategy(name) => ("source strategy", name.clone()),
            Param::Plan(id) => ("plan", id.clone()),
        };
        (key.to_string(), value)
    }

    /// The parameter stored as (`key`, `value`); `None` for text this reader does
    /// not know or cannot read.
    pub fn from_pair(key: &str, value: &str) -> Option<Param> {
        Some(match key {
            "first" => Param::First(value.to_string()),
            "max-depth" => Param::MaxDepth(value.parse().ok()?),
            "objective" if value == "worst" => Param::WorstFirst,
            "guesses" => Param::ConsistentOnly,
            "worst case" => Param::WorstCase(value.parse().ok()?),
            "proven lower bound" => Param::ProvenLowerBound(value.parse().ok()?),
            "exact below" => Param::ExactBelow(value.parse().ok()?),
            "rollout above" => Param::RolloutAbove(value.parse().ok()?),
            "rollout width" => Param::RolloutWidth(value.parse().ok()?),
            "source" => Param::Source(value.to_string()),
            "source strategy" => Param::SourceStrategy(value.to_string()),
            "plan" => Param::Plan(value.to_string()),
            _ => return None,
        })
    }
}

/// The parameters of a header, read into one struct.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub first: Option<String>,
    pub max_depth: Option<u32>,
    pub worst_first: bool,
    pub consistent_only: bool,
    pub worst_case: Option<u32>,
    pub proven_lower_bound: Option<u64>,
    /// A recorded parameter that does not read as its kind (e.g. a max-depth that
    /// is not a number): the header is damaged or from elsewhere.
    pub unreadable: Option<String>,
}

impl StrategyInfo {
    /// The strategy's kind, if the header names one this reader knows.
    pub fn kind(&self) -> Option<StrategyKind> {
        StrategyKind::from_name(&self.name)
    }

    /// The typed parameters, in header order; text this reader does not know is
    /// left out.
    pub fn typed_params(&self) -> Vec<Param> {
        (self.params.iter())
            .filter_map(|(k, v)| Param::from_pair(k, v))
            .collect()
    }

    /// The parameters that change what a tree claims or how it is played.
    pub fn settings(&self) -> Settings {
        let mut settings = Settings::default();
        for (key, value) in &self.params {
            match Param::from_pair(key, value) {
                Some(Param::First(code)) => settings.first = Some(code),
                Some(Param::MaxDepth(d)) => settings.max_depth = Some(d),
                Some(Param::WorstFirst) => settings.worst_first = true,
                Some(Param::ConsistentOnly) => settings.consistent_only = true,
                Some(Param::WorstCase(d)) => settings.worst_case = Some(d),
                Some(Param::ProvenLowerBound(n)) => settings.proven_lower_bound = Some(n),
                Some(
                    Param::ExactBelow(_)
                    | Param::RolloutAbove(_)
                    | Param::RolloutWidth(_)
                    | Param::Source(_)
                    | Param::SourceStrategy(_)
                    | Param::Plan(_),
                ) => {}
                None if Param::from_pair(key, "0").is_some() => {
                    settings.unreadable = Some(std::format!("{key} = {value}"));
                }
                None => {}
            }
        }
        settings
    }

    /// Records `params` as the header's text.
    pub fn set_params(&mut self, params: &[Param]) {
        self.params = params.iter().map(Param::to_pair).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_pairs_round_trip() {
        for kind in StrategyKind::ALL {
            assert_eq!(StrategyKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(StrategyKind::from_name("imported?"), None);
        let params = [
            Param::First("1122".into()),
            Param::MaxDepth(5),
            Param::WorstFirst,
            Param::ConsistentOnly,
            Param::WorstCase(6),
            Param::ProvenLowerBound(5600),
            Param::ExactBelow(64),
            Param::RolloutAbove(1000),
            Param::RolloutWidth(16),
            Param::Source("t.json".into()),
            Param::SourceStrategy("knuth".into()),
            Param::Plan("0a1b2c3d".into()),
        ];
        for p in &params {
            let (k, v) = p.to_pair();
            assert_eq!(Param::from_pair(&k, &v).as_ref(), Some(p));
        }
    }

    #[test]
    fn the_text_of_headers_already_written_reads_as_before() {
        // Keys and values exactly as version 1 headers have them.
        let info = StrategyInfo {
            name: "optimal".into(),
            rule: String::new(),
            tie_break: String::new(),
            params: std::vec![
                ("guesses".into(), "still-possible codes only".into()),
                ("max-depth".into(), "5".into()),
                ("objective".into(), "worst".into()),
                ("a newer key".into(), "whatever".into()),
            ],
            proven: Some(true),
        };
        assert_eq!(info.kind(), Some(StrategyKind::Optimal));
        let s = info.settings();
        assert!(s.consistent_only && s.worst_first);
        assert_eq!((s.max_depth, s.unreadable), (Some(5), None));
        let mut damaged = info.clone();
        damaged.params = std::vec![("max-depth".into(), "five".into())];
        assert_eq!(
            damaged.settings().unreadable.as_deref(),
            Some("max-depth = five")
        );
    }
}
