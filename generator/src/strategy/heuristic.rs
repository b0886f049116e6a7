//! Finding the best guess at a node, for any rule that scores a guess by the answer
//! classes it makes of the candidates (smaller is better, ties to a candidate, then
//! to the smallest code).
//!
//! The search is arranged so that good bounds come early and most guesses are
//! abandoned after a few scorings:
//! 1. Candidates first. They win ties, so the best candidate's score is a bound
//!    every other guess must beat strictly. A candidate reaching the rule's floor
//!    (no guess can score less) ends the search at once, and so does a bound that no
//!    non-candidate can beat (for Knuth's rule: too few classes to hold the
//!    candidates when each must be smaller than the best candidate's largest).
//! 2. Then every other code, each abandoned as soon as it cannot beat the bound.
//!    Codes are taken by colour multiset: one count of the secrets by shared pegs
//!    gives a floor for every arrangement of a multiset
//!    ([`crate::codes::Codes::promising_multisets`]), and a multiset whose floor
//!    is not below the best is never scored code by code.
//!
//! With symmetry on, only the smallest code of each equivalence class is scored
//! (module `symmetry`): equivalent codes score the same, so the choice is the same.
//! Both phases run in parallel chunks that share the best score found so far, and
//! skip every code above one that reaches the floor. A guess is only ever abandoned
//! when it is worse than one already seen (a higher score, or the same score and a
//! larger code), so the result, the minimum of a total order, is the same for any
//! thread count.

use crate::codes::{Classes, Codes, Guess, Secrets, CLASS_SLOTS};
use crate::symmetry::Symmetry;
use crate::{Counters, Node, Settings, PARALLEL_WORK};
use lookup::score::answer_count;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// How a rule scores a guess: only its math. The score is built up while the
/// secrets are counted into the guess's answer classes, one secret at a time, so
/// that a guess is dropped as soon as it cannot stay within a limit; smaller is
/// better.
pub trait Scoring: Send + Sync {
    /// A secret joined a class, which now holds `size`, with `left` secrets still
    /// to place: updates `state` (0 before the first secret) and says whether the
    /// final score can still be at most `limit` (once it cannot, it never can).
    fn grow(&self, state: &mut u64, size: u32, left: usize, limit: u64) -> bool;

    /// The score once every secret is placed in `classes`.
    fn finish(&self, state: u64, _classes: &Classes) -> u64 {
        state
    }

    /// The score of `guess` over `candidates`, or `None` as soon as it is sure to
    /// exceed `limit`; `classes` is scratch space, and the scorings done are added
    /// to `work`. The one scan every rule shares (monomorphised per rule, so
    /// [`Scoring::grow`] is a direct call in the loop).
    fn score(
        &self,
        codes: &Codes,
        guess: Guess,
        candidates: &Secrets,
        limit: u64,
        classes: &mut Classes,
        work: &mut u64,
    ) -> Option<u64> {
        let mut state = 0;
        codes
            .count_classes(guess, candidates, classes, work, |size, left| {
                self.grow(&mut state, size, left, limit)
            })
            .then(|| self.finish(state, classes))
    }

    /// The least score of a guess whose classes come from groups of secrets, the
    /// group of `size` secrets splitting into at most `parts` classes, on a board
    /// with `answers` answers (the win included). One group of all n candidates
    /// with `answers` parts gives the least score of any guess, with `answers - 1`
    /// parts the least of any guess that is not a candidate; the coarse classes of
    /// a colour multiset give the least of its arrangements
    /// ([`crate::codes::Codes::promising_multisets`]).
    fn least_score(&self, groups: &[(u32, usize)], answers: usize) -> u64;
}

/// From this many candidates on, a guess is scored only if it is the smallest of its
/// symmetry class. Below it, scoring a guess costs less than that check, so small
/// nodes score every code over the representatives' colours (the smallest of each
/// class is among them, so the choice is the same). Chosen by measurement
/// (BENCHMARKS.md, tuning).
const CHECK_CLASSES_FROM: usize = 16;

/// Candidates per parallel chunk (the outsiders go a colour multiset at a time).
const CHUNK: u32 = 256;

struct Scan<'a> {
    codes: &'a Codes,
    rule: &'a dyn Scoring,
    candidates: &'a Secrets<'a>,
    counters: &'a Counters,
}

impl Scan<'_> {
    /// The best (score, code) among the guesses of `guesses(0..groups)` that
    /// scores at most `limit`, which tightens as better guesses are found. A guess
    /// scoring `floor` (no guess scanned can score less) can only be beaten by a
    /// smaller code, so once one is found larger codes are skipped. The scan runs
    /// in parallel chunks of `per_chunk` groups when there is `work` enough (pairs
    /// to score at most).
    fn best<I: IntoIterator<Item = Guess>>(
        &self,
        groups: u32,
        per_chunk: u32,
        work: usize,
        guesses: impl Fn(u32) -> I + Sync,
        limit: &AtomicU64,
        floor: u64,
    ) -> Option<(u64, u32)> {
        let floor_at = AtomicU32::new(u32::MAX);
        let chunk = |range: std::ops::Range<u32>| {
            let mut best: Option<(u64, u32)> = None;
            let mut work = 0;
            let mut classes = [0; CLASS_SLOTS];
            for guess in range.flat_map(&guesses) {
                if guess.code > floor_at.load(Ordering::Relaxed) {
                    continue;
                }
                let bound = limit.load(Ordering::Relaxed);
                let score = self.rule.score(
                    self.codes,
                    guess,
                    self.candidates,
                    bound,
                    &mut classes,
                    &mut work,
                );
                if let Some(score) = score {
                    if best.is_none_or(|b| (score, guess.code) < b) {
                        best = Some((score, guess.code));
                        limit.fetch_min(score, Ordering::Relaxed);
                        if score <= floor {
                            floor_at.fetch_min(guess.code, Ordering::Relaxed);
                        }
                    }
                }
            }
            self.counters.scorings.fetch_add(work, Ordering::Relaxed);
            best
        };
        if work <= PARALLEL_WORK {
            chunk(0..groups)
        } else {
            (0..groups.div_ceil(per_chunk))
                .into_par_iter()
                .filter_map(|c| chunk(c * per_chunk..((c + 1) * per_chunk).min(groups)))
                .min()
        }
    }
}

/// The guess `rule` picks at `node` (at least two candidates), among the candidates
/// only if `consistent_only`.
pub fn best_guess(
    codes: &Codes,
    rule: &dyn Scoring,
    node: &Node,
    settings: Settings,
    consistent_only: bool,
    counters: &Counters,
) -> u32 {
    let candidates = node.candidates;
    let answers = answer_count(codes.board().pegs());
    let symmetry = settings
        .symmetry
        .then(|| Symmetry::at(codes, node))
        .flatten();
    let check = candidates.len() >= CHECK_CLASSES_FROM;
    // Past the run's stop, no guess is scored: the node ends at once (its tree is
    // thrown away).
    let keep = |g: u32| {
        !counters.stop.passed()
            && (!check
                || symmetry
                    .as_ref()
                    .is_none_or(|s| s.is_representative(codes.code(g))))
    };
    let secrets = codes.gather(candidates);
    let scan = Scan {
        codes,
        rule,
        candidates: &secrets,
        counters,
    };

    let inside = |i: u32| {
        let g = candidates[i as usize];
        keep(g).then(|| codes.guess(g))
    };
    let any = AtomicU64::new(u64::MAX);
    let n = candidates.len() as u32;
    let floor = rule.least_score(&[(n, answers)], answers);
    // The smallest candidate is the smallest of its class, so some candidate is scored.
    let pairs = candidates.len() * candidates.len();
    let (best, guess) = scan
        .best(n, CHUNK, pairs, inside, &any, floor)
        .unwrap_or((u64::MAX, candidates[0]));
    let outsiders_floor = rule.least_score(&[(n, answers - 1)], answers);
    if consistent_only || best <= floor || outsiders_floor >= best {
        return guess;
    }
    // Outsiders must be strictly better. Whole colour multisets go at once: those a
    // representative cannot use and those whose coarse classes cannot be better;
    // the rest keep their multiset's floor, to be dropped once it stops being
    // below the best score found.
    let alphabet = symmetry
        .as_ref()
        .map_or(u16::MAX, |s| s.alphabet(codes.board()));
    let (kept, work) = codes.promising_multisets(&secrets, alphabet, best, |coarse| {
        rule.least_score(&codes.groups(coarse), answers)
    });
    counters.scorings.fetch_add(work, Ordering::Relaxed);
    let strictly_better = AtomicU64::new(best - 1);
    let outsiders = |i: u32| {
        let (id, floor) = kept[i as usize];
        let live = floor <= strictly_better.load(Ordering::Relaxed);
        live.then(|| codes.outsiders(id, &secrets).filter(|g| keep(g.code)))
            .into_iter()
            .flatten()
    };
    let sizes = kept.iter().map(|&(id, _)| codes.multiset_codes(id).len());
    let found = scan.best(
        kept.len() as u32,
        1,
        sizes.sum::<usize>() * candidates.len(),
        outsiders,
        &strictly_better,
        outsiders_floor,
    );
    found.map_or(guess, |(_, g)| g)
}
