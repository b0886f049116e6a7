//! What the searches have proven, kept by set: the exact cost, or a lower bound
//! when a search under a budget failed. Keys are a set's candidates (small sets) or
//! its [`crate::canonical::key`], so equivalent sets share an entry.

use super::Exact;
use crate::canonical;
use crate::codes::Codes;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    /// The optimum.
    Exact(u32),
    /// The optimum is at least this.
    AtLeast(u32),
}

impl Known {
    /// The more informative of two true facts about one set.
    fn stronger(self, other: Known) -> Known {
        match (self, other) {
            (Known::Exact(_), _) => self,
            (_, Known::Exact(_)) => other,
            (Known::AtLeast(a), Known::AtLeast(b)) => Known::AtLeast(a.max(b)),
        }
    }
}

/// The most key entries the cache keeps (4 bytes each).
const CACHE_CODES: usize = 1 << 26;

/// A set's entry in the cache: its key (see [`Exact::lookup`]) and what is known
/// of it.
pub(super) type Lookup<'a> = (Cow<'a, [u32]>, Option<Known>);

/// Solved sets by depth left, then key, and how many key entries they hold. Keys
/// are our own sets, so a fast hash that is not collision-proof is fine.
#[derive(Default)]
pub(super) struct Cache {
    pub(super) known: FxHashMap<u32, FxHashMap<Box<[u32]>, Known>>,
    codes: usize,
}

impl Exact {
    /// Keeps what is `known` of the set `key` with `depth` guesses left, while the
    /// cache has room. Another thread may have proven more of it meanwhile: the
    /// stronger fact stays (an exact cost over a bound, the higher bound).
    pub(super) fn remember(&self, depth: u32, key: Cow<[u32]>, known: Known) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let room = cache.codes + key.len() <= CACHE_CODES;
        let sets = cache.known.entry(depth).or_default();
        let added = match sets.get_mut(&*key) {
            Some(old) => {
                *old = old.stronger(known);
                0
            }
            None if room => {
                let len = key.len();
                sets.insert(key.into_owned().into(), known);
                len
            }
            None => 0,
        };
        cache.codes += added;
    }

    /// The cache key of `candidates` and what the cache knows of it with `depth`
    /// guesses left (at most `candidates.len()`, see [`Exact::solve`]).
    pub(super) fn lookup<'a>(
        &self,
        codes: &Codes,
        candidates: &'a [u32],
        depth: u32,
    ) -> Lookup<'a> {
        let key = if candidates.len() <= self.small {
            Cow::Borrowed(candidates)
        } else {
            let set = candidates.iter().map(|&c| codes.code(c).packed());
            let mut image = Vec::with_capacity(candidates.len());
            canonical::key(set, codes.board().pegs(), &mut image);
            Cow::Owned(image)
        };
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let known = cache
            .known
            .get(&depth)
            .and_then(|sets| sets.get(&*key).copied());
        (key, known)
    }

    /// The least cost of `n` secrets with `depth` guesses left that the bounds and
    /// what the cache knows of them (`known`) prove.
    pub(super) fn least_cost(&self, n: usize, depth: u32, known: Option<Known>) -> u32 {
        let bound = self.bound(n, depth);
        match known {
            Some(Known::Exact(cost)) => cost,
            Some(Known::AtLeast(at_least)) => at_least.max(bound),
            None => bound,
        }
    }

    /// Caches what a search under `budget` found, unless time ran out (then it may
    /// have stopped early).
    pub(super) fn remember_search(
        &self,
        depth: u32,
        key: Cow<[u32]>,
        budget: u32,
        best: Option<(u32, u32)>,
    ) {
        if !self.timed_out() {
            let known = best.map_or(Known::AtLeast(budget), |(cost, _)| Known::Exact(cost));
            self.remember(depth, key, known);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Known::{AtLeast, Exact};

    #[test]
    fn the_stronger_fact_about_a_set_stays() {
        assert_eq!(AtLeast(5).stronger(AtLeast(7)), AtLeast(7));
        assert_eq!(AtLeast(7).stronger(AtLeast(5)), AtLeast(7));
        assert_eq!(AtLeast(7).stronger(Exact(9)), Exact(9));
        assert_eq!(Exact(9).stronger(AtLeast(12)), Exact(9));
    }
}
