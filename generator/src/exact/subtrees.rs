//! The guesses of the root's classes, worked out as each class is solved.
//!
//! A proof's tree is built after the proof, node by node, each node searched
//! again with the budget its known cost allows; that is cheap while the cache
//! still holds its classes' costs. A long proof outlives its cache: 4x12's best
//! first guess had its classes solved hours before the other first guesses were
//! shown to cost more, and by then the cache had let most of their facts go, so
//! its tree's build searched 11.7 million positions again (a quarter of the proof)
//! and still had half the tree to go. So when the search solves a class of a
//! first guess exactly, the guesses of that class's subtree are worked out at once,
//! while the facts they rest on are fresh, and kept (and saved in checkpoints, so
//! that resumed runs keep them); the tree's build then takes a node's guess from
//! here instead of searching it again. Only once the cache has dropped facts to
//! make room (in this run, or in a run it resumed from), though: until then the build finds every class's cost in the cache
//! (and a proof that fits its cache writes the same certificate as before).
//!
//! A kept guess is the one the build would find: the guess kept at a node does not
//! depend on budgets or on what the cache holds (see the module docs of
//! [`super`]), so the tree is the same bytes either way. A guess is kept only for a
//! search that ended before any deadline, so it is the node's optimal one. Classes
//! of first guesses that lose are worked out too (the search cannot know yet which
//! wins); what that costs is measured in BENCHMARKS.md.

use super::{Context, Exact};
use crate::bytes::Reader;
use crate::codes::Codes;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A node of the tree, as a kept guess is found again: its depth limit (at most
/// its number of secrets, as searches normalise it), the guesses before it, and
/// its smallest secret (below the same guesses, different answers leave disjoint
/// sets, so that secret tells the node apart).
type At = (u32, Box<[u32]>, u32);

/// The kept guesses, by node.
#[derive(Debug, Default)]
pub(super) struct Subtrees {
    guesses: Mutex<HashMap<At, u32>>,
    /// Whether a run this one resumed from had dropped facts: its cache, loaded
    /// from the checkpoint, is no fuller than that run's was, so it keeps guesses
    /// from the start.
    dropped_before: AtomicBool,
}

impl Subtrees {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<At, u32>> {
        self.guesses.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept guesses as a checkpoint saves them, in the order of their nodes
    /// (so the same search saves the same bytes), and whether the search had
    /// `dropped` facts ([`Exact::dropped`]). Little-endian: 1 if so, else 0, their
    /// count, then for each its depth, smallest secret, guess, the number of
    /// guesses before it and those guesses (4 bytes each).
    pub(super) fn bytes(&self, dropped: bool) -> Vec<u8> {
        let guesses = self.lock();
        let mut kept: Vec<(&At, &u32)> = guesses.iter().collect();
        kept.sort_unstable();
        let mut words = vec![u32::from(dropped), kept.len() as u32];
        for ((depth, history, first), guess) in kept {
            words.extend([*depth, *first, *guess, history.len() as u32]);
            words.extend(history.iter());
        }
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Takes back what [`Subtrees::bytes`] wrote for a board of `codes` codes;
    /// `None` (nothing taken) if the bytes are not that layout or name a code the
    /// board has not.
    pub(super) fn restore(&self, bytes: &[u8], codes: usize) -> Option<()> {
        let mut r = Reader::new(bytes);
        let code = |c: u32| ((c as usize) < codes).then_some(c);
        let dropped = match r.u32()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let mut read = HashMap::new();
        for _ in 0..r.u32()? {
            let (depth, first, guess) = (r.u32()?, code(r.u32()?)?, code(r.u32()?)?);
            let len = r.u32()? as usize;
            // A node lies fewer guesses deep than the board has codes.
            let history = (0..len.min(codes))
                .map(|_| code(r.u32()?))
                .collect::<Option<Box<[u32]>>>()?;
            if history.len() != len {
                return None;
            }
            read.insert((depth, history, first), guess);
        }
        if !r.bytes.is_empty() {
            return None;
        }
        self.lock().extend(read);
        self.dropped_before.fetch_or(dropped, Ordering::Relaxed);
        Some(())
    }
}

impl Exact {
    /// The guess kept for the node of `candidates` (sorted) reached by `history`
    /// with `depth` guesses left, if its class was worked out. One that would not
    /// tell the node's secrets apart (from a damaged checkpoint) is not given.
    pub fn kept_guess(
        &self,
        codes: &Codes,
        candidates: &[u32],
        history: &[u32],
        depth: u32,
    ) -> Option<u32> {
        let &first = candidates.first()?;
        let guesses = self.subtrees.lock();
        // Most searches keep none: no key is made for them.
        if guesses.is_empty() {
            return None;
        }
        let at = (depth.min(candidates.len() as u32), history.into(), first);
        let guess = guesses.get(&at).copied()?;
        drop(guesses);
        let (split, wins) = codes.split(guess, candidates);
        (wins || split.len() > 1).then_some(guess)
    }

    /// Works out and keeps the guesses of the subtree of `candidates` (sorted, just
    /// solved exactly) reached by `history` with `depth` guesses left: each node
    /// is searched with the budget its cost allows, its classes' costs mostly
    /// fresh in the cache. Nothing it proves goes into the facts the search in
    /// progress rests on (its frame in the certificate is dropped).
    pub(super) fn keep_subtree(
        &self,
        context: Context,
        candidates: &[u32],
        history: &[u32],
        depth: u32,
    ) {
        if context.past_deadline || self.timed_out() || !self.dropped() {
            return;
        }
        self.with_proof(super::Proof::begin);
        self.keep_below(context, candidates, history, depth);
        self.with_proof(super::Proof::drop_frame);
    }

    /// Whether this search's cache, or that of a run it resumed from, has
    /// dropped facts to make room.
    pub(super) fn dropped(&self) -> bool {
        self.subtrees.dropped_before.load(Ordering::Relaxed) || self.cache.dropped()
    }

    fn keep_below(&self, context: Context, candidates: &[u32], history: &[u32], depth: u32) {
        let depth = depth.min(candidates.len() as u32);
        let kept = self.kept_guess(context.codes, candidates, history, depth);
        if candidates.len() <= 2 || kept.is_some() {
            return;
        }
        let Some((_, guess)) = self.choose(context, candidates, history, depth) else {
            return;
        };
        if self.timed_out() {
            return; // the search may have been cut short: not surely optimal
        }
        let at = (depth, history.into(), candidates[0]);
        self.subtrees.lock().insert(at, guess);
        let (split, _) = context.codes.split(guess, candidates);
        let mut below = history.to_vec();
        below.push(guess);
        for (_, part) in split.iter() {
            self.keep_below(context, part, &below, depth - 1);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::codes::Codes;
    use crate::exact::tests::search_context;
    use crate::exact::{CacheSettings, UNLIMITED};
    use crate::Counters;
    use lookup::Board;

    /// `board` solved with a cache so small that it drops facts at once, so
    /// that guesses are kept, and worked out from what the cache held then.
    pub(in crate::exact) fn tightly_solved(board: Board) -> (Exact, u32) {
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let all: Vec<u32> = (0..codes.len()).collect();
        let tight = CacheSettings {
            bytes: 1 << 14,
            ..CacheSettings::default()
        };
        let exact = Exact::new(board, None, false).with_cache(tight);
        let (_, first) = exact.choose(context, &all, &[], UNLIMITED).unwrap();
        assert!(exact.cache.dropped());
        (exact, first)
    }

    #[test]
    fn every_kept_guess_is_the_one_a_fresh_search_keeps() {
        let board = Board::new(4, 5, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let all: Vec<u32> = (0..codes.len()).collect();
        let (exact, first) = tightly_solved(board);
        let kept = exact.subtrees.lock().clone();
        assert!(kept.len() > 50, "{} guesses kept", kept.len());
        // A search whose cache never drops a fact keeps none.
        let roomy = Exact::new(board, None, false);
        roomy.choose(context, &all, &[], UNLIMITED).unwrap();
        assert!(!roomy.dropped());
        assert_eq!(roomy.subtrees.bytes(false), [0; 8]);
        // Each kept node is found again below its first guess's split, and a
        // search from nothing keeps the same guess there.
        let fresh = roomy;
        let mut below_best = 0;
        for ((depth, history, smallest), guess) in &kept {
            let mut set = all.clone();
            for &g in history.iter() {
                let (split, _) = codes.split(g, &set);
                set = (split.iter())
                    .map(|(_, part)| part.to_vec())
                    .find(|part| part.binary_search(smallest).is_ok())
                    .expect("the node's secret is below its guesses");
            }
            let (_, again) = fresh.choose(context, &set, history, *depth).unwrap();
            assert_eq!(again, *guess, "{history:?} {set:?}");
            let kept = exact.kept_guess(&codes, &set, history, *depth);
            assert_eq!(kept, Some(*guess));
            below_best += usize::from(history[0] == first);
        }
        assert!(below_best > 0, "none below the best first guess");
        // Saved and taken back whole; damaged bytes take nothing.
        let bytes = exact.subtrees.bytes(true);
        let back = Subtrees::default();
        assert_eq!(back.restore(&bytes, codes.len() as usize), Some(()));
        let resumed = back.dropped_before.load(Ordering::Relaxed);
        assert_eq!(back.bytes(resumed), bytes);
        let other = Subtrees::default();
        assert_eq!(
            other.restore(&bytes[..bytes.len() - 1], codes.len() as usize),
            None
        );
        assert_eq!(other.restore(&bytes, 9), None);
        assert_eq!(other.bytes(false), [0; 8]);
    }

    #[test]
    fn a_tree_unlike_what_the_search_proved_is_refused() {
        // A kept guess that is not the node's own (a fault, or a damaged
        // checkpoint under a good checksum): the tree built from it costs more
        // than the proof, and no file says "proven" of it.
        let board = Board::new(3, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let settings = crate::Settings { symmetry: true };
        let options = crate::strategy::Options {
            cache: CacheSettings::default(),
            ..Default::default()
        };
        let built = |wrong: bool| {
            let optimal = crate::strategy::exact(options, board);
            let all: Vec<u32> = (0..codes.len()).collect();
            let context = search_context(&codes, &counters, true);
            let (_, first) = optimal.exact.choose(context, &all, &[], UNLIMITED).unwrap();
            if wrong {
                // Below the first guess, its biggest class gets the worst guess
                // that still tells it apart: the one leaving the biggest class.
                let (split, _) = codes.split(first, &all);
                let (_, biggest) = (split.iter()).max_by_key(|(_, p)| p.len()).unwrap();
                let worst = (0..codes.len())
                    .filter(|&g| codes.split(g, biggest).0.len() > 1)
                    .max_by_key(|&g| codes.split(g, biggest).0.iter().map(|(_, p)| p.len()).max())
                    .unwrap();
                // One that tells nothing apart is never given.
                let blind = (0..codes.len())
                    .find(|&g| {
                        let (split, wins) = codes.split(g, biggest);
                        !wins && split.len() == 1
                    })
                    .unwrap();
                let at = (biggest.len() as u32, Box::from([first]), biggest[0]);
                optimal.exact.subtrees.lock().insert(at, blind);
                let history = [first];
                assert_eq!(
                    optimal
                        .exact
                        .kept_guess(&codes, biggest, &history, UNLIMITED),
                    None
                );
                let at = (biggest.len() as u32, Box::from([first]), biggest[0]);
                optimal.exact.subtrees.lock().insert(at, worst);
            }
            crate::generate_on(&codes, &optimal, settings, &counters)
                .map(|g| g.meta.stats.total_guesses)
        };
        let proven = built(false).unwrap();
        let refused = built(true).unwrap_err().to_string();
        let said = format!("where the search proved {proven}: a fault");
        assert!(refused.contains(&said), "{refused}");
    }
}
