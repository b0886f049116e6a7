//! Exact search: the strategy with the fewest guesses in total over all secrets,
//! optionally never using more than a given number of guesses.
//!
//! Depth-first branch and bound, the counterpart for a sum of costs of alpha-beta
//! pruning in game search:
//! - Each guess gets an admissible lower bound: the node costs one guess for each of
//!   its n secrets, and a class of c secrets at least [`lower_bound`]`(c)` more (with
//!   K non-winning answers, at most 1 secret is solved by the next guess, K by the
//!   one after, K^2 by the third...). Guesses are tried in order of that bound.
//! - A guess is abandoned as soon as its bound, or the cost of its children so far
//!   plus the bounds of the rest, reaches the best total found at the node; children
//!   are searched with the budget that leaves.
//! - A guess whose classes hold at most two secrets each costs exactly its bound
//!   (1 for a single secret, 3 for two), so when it comes first it is optimal with no
//!   search; this covers the obvious moves (a guess that splits the secrets into
//!   singletons costs 2n-1 if it is a candidate, 2n if not).
//! - Candidates are searched first. They win ties, so an outsider must then be
//!   strictly cheaper than the best candidate, and it cannot be when that candidate
//!   costs no more than the least any outsider can (all secrets in non-winning
//!   classes, as even as possible, and those with one colour multiset within one
//!   shared-peg count): then the codes outside the set are never scored. Most
//!   small sets end there.
//! - Outsiders are taken a colour multiset at a time: the secrets counted by shared
//!   pegs bound every arrangement of the multiset
//!   ([`crate::partition::Codes::promising_multisets`]), and a multiset whose bound
//!   reaches the best is never scored code by code.
//! - Only one guess per symmetry class is tried ([`crate::symmetry`]): equivalent
//!   guesses have isomorphic subtrees, so the same cost.
//! - Solved sets are cached (bounded in memory): the exact cost, or a lower bound
//!   when a search under a budget failed. Sets equivalent under symmetry share an
//!   entry when their [`crate::canonical`] keys agree, so the cache keeps no guess:
//!   a tree node searches its own guess, with the budget its cost allows. A set of
//!   n secrets never needs more than n guesses, so every depth limit from n on
//!   shares one entry.
//! - Nodes with many secrets search their guesses in parallel (see
//!   `try_options`), each with the budget that would make it the best so far.
//!
//! The guess kept at a node is a candidate if some candidate is optimal, the first
//! optimal one in the order (bound, code); otherwise the first optimal outsider in
//! that order. This does not depend on budgets or on what the cache holds, so the
//! tree is the same on every run and any thread count.

use crate::canonical;
use crate::partition::{coarse_capacity, even_split, Coarse, Codes, Secrets, CLASS_SLOTS};
use crate::symmetry::Symmetry;
use crate::{Counters, Node};
use lookup::score::{answer_count, MAX_ANSWERS};
use lookup::Board;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Sets of at most this many secrets more than a guess has answers are "small":
/// one guess can often split them into singletons, they are many, and searching
/// one again costs little. So every candidate of a small set is searched (of a
/// bigger one, one per symmetry class: the same choice, found with less work), and
/// a small set is cached under its candidates, not under its [`canonical::key`],
/// which would cost it more than the hits save (the key of a set is as long as the
/// set, so the two kinds of keys never meet). Measured with callgrind: on the
/// classic board (small up to 15 secrets) this did best of 5 to 63 for keys, and
/// better than 31 for candidates; on 5x5, small up to 21 instead of 15 took 4.6%
/// fewer instructions.
const SMALL_BEYOND_ANSWERS: usize = 1;

/// From this many secrets on, a node searches its guesses in parallel.
const PARALLEL_SECRETS: usize = 32;

/// "No limit" for costs and depths.
pub const UNLIMITED: u32 = u32::MAX;

/// The least total number of guesses that `n` secrets can need, with `answers`
/// answers per guess (the win included) and at most `depth` guesses per secret;
/// [`UNLIMITED`] if `depth` guesses cannot tell `n` secrets apart.
pub fn lower_bound(n: usize, answers: usize, depth: u32) -> u32 {
    let branching = (answers - 1) as u64;
    let (mut total, mut remaining, mut capacity, mut level) = (0u64, n as u64, 1u64, 1u32);
    while remaining > 0 {
        if level > depth {
            return UNLIMITED;
        }
        let here = capacity.min(remaining);
        total += u64::from(level) * here;
        remaining -= here;
        capacity = capacity.saturating_mul(branching);
        level += 1;
    }
    u32::try_from(total).unwrap_or(UNLIMITED)
}

#[derive(Clone, Copy)]
enum Known {
    /// The optimum.
    Exact(u32),
    /// The optimum is at least this.
    AtLeast(u32),
}

/// The most key entries the cache keeps (4 bytes each).
const CACHE_CODES: usize = 1 << 26;

/// A set's entry in the cache: its key (see [`Exact::lookup`]) and what is known
/// of it.
type Lookup<'a> = (Cow<'a, [u32]>, Option<Known>);

/// Solved sets by depth left, then key, and how many key entries they hold. Keys
/// are our own sets, so a fast hash that is not collision-proof is fine.
#[derive(Default)]
struct Cache {
    known: FxHashMap<u32, FxHashMap<Box<[u32]>, Known>>,
    codes: usize,
}

/// The least depth limit under which `lower_bound` equals the unlimited bound for
/// every set of a board with `codes` codes: its levels hold them all.
fn full_depth(codes: usize, answers: usize) -> usize {
    let branching = (answers - 1) as u64;
    let (mut depth, mut held, mut level) = (0, 0u64, 1u64);
    while held < codes as u64 {
        depth += 1;
        held = held.saturating_add(level);
        level = level.saturating_mul(branching);
    }
    depth
}

/// An exact search over one board, shared by every node of the tree it builds.
pub struct Exact {
    answers: usize,
    /// The most secrets of a small set (see [`SMALL_BEYOND_ANSWERS`]).
    small: usize,
    /// `tables[min(depth, full_depth)]`: the bounds for `depth` guesses, made on first
    /// use; every deeper limit bounds like the [`full_depth`] one.
    tables: Vec<OnceLock<Tables>>,
    pegs: usize,
    codes: usize,
    deadline: Option<Instant>,
    timed_out: AtomicBool,
    /// Guesses only from the secrets still possible (`--consistent-only`).
    candidates_only: bool,
    cache: Mutex<Cache>,
    /// Nodes searched, for reports.
    pub nodes: AtomicU64,
}

/// The bounds for one depth limit, by set size, in the forms the hot loops use.
struct Tables {
    /// `bounds[c]`: [`lower_bound`] of c secrets.
    bounds: Vec<u32>,
    /// `steps[c] = bounds[c] - bounds[c - 1]` (0 at c = 0): what one more secret in a
    /// class adds, one load where scoring a guess tightens its bound secret by secret.
    steps: Vec<u32>,
    spreads: Spreads,
}

/// Spread tables stop at this set size: a bigger class takes the spread of this
/// size, which is less (more secrets never cost less), so still a floor.
const SPREAD_SIZES: usize = 1 << 16;

/// For each shared-peg count s and class size c: the least sum of bounds of c
/// secrets split among [`coarse_capacity`] classes, as evenly as possible
/// ([`even_split`]), capped at `u32::MAX` (no limit is higher). One row per s,
/// `sizes` long. A multiset's floor adds one of these per shared-peg count: a table
/// load instead of a division and two bound loads.
struct Spreads {
    sizes: usize,
    table: Vec<u32>,
}

impl Spreads {
    /// The least total the coarse classes `coarse` can cost beyond the node itself.
    fn floor(&self, coarse: &Coarse) -> u64 {
        let last = self.sizes - 1;
        let rows = self.table.chunks_exact(self.sizes);
        rows.zip(coarse)
            .map(|(row, &size)| u64::from(row[(size as usize).min(last)]))
            .sum()
    }
}

/// A node under search: the context, the node, and the guesses left per secret.
#[derive(Clone, Copy)]
struct At<'a> {
    context: Context<'a>,
    node: Node<'a>,
    depth: u32,
}

/// The best option found at a node so far, as (cost, guess), and the cost an
/// option must stay below to be kept.
struct Best {
    found: Option<(u32, u32)>,
    limit: u32,
}

/// A guess at a node with its bound, for ordering.
struct Choice {
    bound: u32,
    guess: u32,
    /// Every class holds at most two secrets: the bound is the exact cost.
    exact: bool,
}

/// What a search needs besides the node: the board's codes, whether to use
/// symmetry (which changes the work, never the result), and the run's counters.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub codes: &'a Codes,
    pub symmetry: bool,
    pub counters: &'a Counters,
}

impl Exact {
    /// A search on `board` that gives up at `deadline`; with `candidates_only`, it
    /// guesses only codes that are still possible.
    pub fn new(board: Board, deadline: Option<Instant>, candidates_only: bool) -> Exact {
        Exact {
            answers: answer_count(board.pegs()),
            small: answer_count(board.pegs()) + SMALL_BEYOND_ANSWERS,
            tables: (0..=full_depth(board.code_count() as usize, answer_count(board.pegs())))
                .map(|_| OnceLock::new())
                .collect(),
            pegs: board.pegs(),
            codes: board.code_count() as usize,
            deadline,
            timed_out: AtomicBool::new(false),
            candidates_only,
            cache: Mutex::new(Cache::default()),
            nodes: AtomicU64::new(0),
        }
    }

    /// Whether the deadline passed during some search: results since may not be optimal.
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Relaxed)
    }

    fn out_of_time(&self) -> bool {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if late {
            self.timed_out.store(true, Ordering::Relaxed);
        }
        late
    }

    /// The bounds of every set size for `depth` guesses.
    fn tables(&self, depth: u32) -> &Tables {
        let slot = (depth as usize).min(self.tables.len() - 1);
        self.tables[slot].get_or_init(|| {
            let bounds: Vec<u32> = (0..=self.codes)
                .map(|n| lower_bound(n, self.answers, slot as u32))
                .collect();
            let steps = std::iter::once(0)
                .chain(bounds.windows(2).map(|w| w[1] - w[0]))
                .collect();
            let cost = |c: u32| u64::from(bounds[c as usize]);
            let sizes = self.codes.min(SPREAD_SIZES) + 1;
            let table = (0..=self.pegs)
                .flat_map(|shared| {
                    let parts = coarse_capacity(self.pegs, shared);
                    (0..sizes as u32).map(move |size| {
                        u32::try_from(even_split(size, parts, cost)).unwrap_or(u32::MAX)
                    })
                })
                .collect();
            Tables {
                bounds,
                steps,
                spreads: Spreads { sizes, table },
            }
        })
    }

    /// Lower bounds of every set size for `depth` guesses.
    fn bounds(&self, depth: u32) -> &[u32] {
        &self.tables(depth).bounds
    }

    fn bound(&self, n: usize, depth: u32) -> u32 {
        self.bounds(depth)[n]
    }

    fn remember(&self, depth: u32, key: Cow<[u32]>, known: Known) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.codes + key.len() <= CACHE_CODES {
            cache.codes += key.len();
            let sets = cache.known.entry(depth).or_default();
            sets.insert(key.into_owned().into(), known);
        }
    }

    /// The cache key of `candidates` and what the cache knows of it with `depth`
    /// guesses left (at most `candidates.len()`, see [`Exact::solve`]).
    fn lookup<'a>(&self, codes: &Codes, candidates: &'a [u32], depth: u32) -> Lookup<'a> {
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
    fn floor(&self, n: usize, depth: u32, known: Option<Known>) -> u32 {
        let bound = self.bound(n, depth);
        match known {
            Some(Known::Exact(cost)) => cost,
            Some(Known::AtLeast(at_least)) => at_least.max(bound),
            None => bound,
        }
    }

    /// The guesses from `pool` whose bound is below `limit` at a node, best bound
    /// first (then the smaller code).
    fn options(
        &self,
        context: Context,
        secrets: &Secrets,
        pool: impl Iterator<Item = u32>,
        depth: u32,
        limit: u32,
    ) -> Vec<Choice> {
        let codes = context.codes;
        let win = codes.win();
        let n = secrets.len() as u64;
        let Tables { bounds, steps, .. } = self.tables(depth - 1);
        let mut classes = [0; CLASS_SLOTS];
        let mut work = 0;
        let mut options: Vec<Choice> = pool
            .filter_map(|guess| {
                // The bound only grows as secrets join classes: stop once past the
                // limit. The win class (the guess itself) is counted as if it were
                // another secret to place, 1 too many, so the running test allows 1.
                let mut bound = n;
                let within =
                    codes.count_classes(guess, secrets, &mut classes, &mut work, |size, _| {
                        bound += u64::from(steps[size as usize]);
                        bound <= u64::from(limit)
                    });
                let outsider = classes[win] == 0;
                let bound = bound - u64::from(bounds[classes[win] as usize]);
                let progress = !outsider || classes[..win].iter().filter(|&&c| c > 0).count() > 1;
                (within && progress && bound < u64::from(limit)).then(|| Choice {
                    bound: bound as u32,
                    guess,
                    exact: classes[..win].iter().all(|&c| c <= 2),
                })
            })
            .collect();
        context.counters.scorings.fetch_add(work, Ordering::Relaxed);
        options.sort_unstable_by_key(|o| (o.bound, o.guess));
        options
    }

    /// Whether a guess that is not a candidate might cost less than `limit` on
    /// `secrets` with `depth` guesses left. Two floors, the cheap one first:
    /// - every secret lands in a non-winning class, and the class bounds are least
    ///   when the classes are as even as possible (the bound of a class grows by at
    ///   least as much with each secret added);
    /// - the secrets with one colour multiset share as many pegs with the guess, so
    ///   they stay within one coarse class ([`Codes::groups`]), which has at most
    ///   `pegs` answers; a class merged from several such groups costs at least
    ///   their sum, the bounds being convex.
    fn outsiders_may_beat(&self, limit: u32, codes: &Codes, secrets: &Secrets, depth: u32) -> bool {
        let bounds = self.bounds(depth - 1);
        let cost = |c: u32| u64::from(bounds[c as usize]);
        let n = secrets.len() as u32;
        let below = |spread: u64| u64::from(n).saturating_add(spread) < u64::from(limit);
        let widest = (0..=self.pegs)
            .map(|s| coarse_capacity(self.pegs, s))
            .max()
            .unwrap_or(1);
        below(even_split(n, self.answers - 1, cost))
            && below(
                codes
                    .multiset_sizes(secrets)
                    .map(|size| even_split(size, widest, cost))
                    .sum(),
            )
    }

    /// Searches `options` (in order) for the first of the cheapest whose cost is
    /// below `best.limit`; `best` follows. A big node searches its options in
    /// parallel: each is searched with the budget that lets it beat the best found
    /// so far, where a tie goes to the earlier option, so the result is the one the
    /// sequential order finds. Threads take the options in order as they come free
    /// (not a half each, as a split would give), so each budget is close to the one
    /// the sequential order has (BENCHMARKS.md compares the positions searched).
    fn try_options(&self, at: At, options: Vec<Choice>, best: &mut Best) {
        // The best (cost, position) so far, packed so that one atomic minimum keeps it.
        const POSITION: u64 = 1 << 32;
        let unset = u64::from(best.limit) * POSITION;
        let found = AtomicU64::new(unset);
        let try_one = |(position, option): (usize, &Choice)| {
            // What the option at `position` must cost less than to become the best.
            let budget = || {
                let key = found.load(Ordering::Relaxed);
                key.saturating_sub(position as u64).div_ceil(POSITION) as u32
            };
            if option.bound >= budget() || self.timed_out() {
                return;
            }
            let cost = if option.exact {
                Some(option.bound)
            } else {
                self.option_cost(at, option.guess, budget)
            };
            if let Some(cost) = cost {
                found.fetch_min(
                    u64::from(cost) * POSITION + position as u64,
                    Ordering::Relaxed,
                );
            }
        };
        if at.node.candidates.len() >= PARALLEL_SECRETS {
            options.iter().enumerate().par_bridge().for_each(try_one);
        } else {
            options.iter().enumerate().for_each(try_one);
        }
        let found = found.into_inner();
        if found < unset {
            let (cost, position) = ((found / POSITION) as u32, (found % POSITION) as usize);
            best.found = Some((cost, options[position].guess));
            best.limit = cost;
        }
    }

    /// The cost of playing `guess` at `at` if it is below `budget()` (which may fall
    /// meanwhile, as other threads find better options): the node's secrets, plus
    /// the optimum of each class, searched largest first (they fail soonest), each
    /// with what the budget leaves after the floors of the classes still to come.
    fn option_cost(&self, at: At, guess: u32, budget: impl Fn() -> u32) -> Option<u32> {
        let n = at.node.candidates.len() as u32;
        let (split, _) = at.context.codes.split(guess, at.node.candidates);
        let mut parts = [&[][..]; MAX_ANSWERS];
        for (slot, (_, part)) in parts.iter_mut().zip(split.iter()) {
            *slot = part;
        }
        let parts = &mut parts[..split.len()];
        parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let (floors, looked) = self.class_floors(at, parts);
        let floors = &floors[..parts.len()];
        let floor: u64 = floors.iter().map(|&f| u64::from(f)).sum();
        if u64::from(n) + floor >= u64::from(budget()) {
            return None;
        }
        let mut below: Vec<u32> = at.node.history.to_vec();
        below.push(guess);
        let mut total = n;
        // Below the budget, so it fits.
        let mut rest = floor as u32;
        for ((&floor, part), looked) in floors.iter().zip(parts.iter()).zip(looked) {
            rest -= floor;
            let left = budget().checked_sub(total + rest)?;
            total += self.solve(at.context, part, &below, at.depth - 1, left, looked)?;
        }
        (total < budget()).then_some(total)
    }

    /// What each class of `parts` costs at least, as far as the bounds and the
    /// cache know, and the cache entries looked up to know it.
    fn class_floors<'p>(
        &self,
        at: At,
        parts: &[&'p [u32]],
    ) -> ([u32; MAX_ANSWERS], [Option<Lookup<'p>>; MAX_ANSWERS]) {
        let mut floors = [0u32; MAX_ANSWERS];
        let mut looked: [Option<Lookup>; MAX_ANSWERS] = std::array::from_fn(|_| None);
        for ((floor, looked), part) in floors.iter_mut().zip(&mut looked).zip(parts) {
            let depth = (at.depth - 1).min(part.len() as u32);
            let bound = self.bound(part.len(), depth);
            if part.len() <= 2 || bound == UNLIMITED {
                *floor = bound;
            } else {
                let (key, known) = self.lookup(at.context.codes, part, depth);
                *floor = self.floor(part.len(), depth, known);
                *looked = Some((key, known));
            }
        }
        (floors, looked)
    }

    /// The optimum for `candidates` (sorted) reached by `history`, with at most
    /// `depth` more guesses per secret, if it is below `budget`; `looked` is the
    /// cache entry of `candidates` if it was looked up already.
    fn solve(
        &self,
        context: Context,
        candidates: &[u32],
        history: &[u32],
        depth: u32,
        budget: u32,
        looked: Option<Lookup>,
    ) -> Option<u32> {
        let n = candidates.len();
        // Every guess leaves fewer secrets, so n guesses always suffice: deeper
        // limits are the same problem (and the same cache entry).
        let depth = depth.min(n as u32);
        if self.bound(n, depth) >= budget {
            return None;
        }
        match n {
            1 => return Some(1),
            2 => return Some(3),
            _ => {}
        }
        let (key, known) = looked.unwrap_or_else(|| self.lookup(context.codes, candidates, depth));
        match known {
            Some(Known::Exact(cost)) => return (cost < budget).then_some(cost),
            Some(Known::AtLeast(at_least)) if at_least >= budget => return None,
            _ => {}
        }
        let node = Node {
            candidates,
            history,
        };
        let best = self.search(context, node, depth, budget);
        self.remember_search(depth, key, budget, best);
        best.map(|(cost, _)| cost)
    }

    /// The optimum for `candidates` (sorted) reached by `history` with at most
    /// `depth` more guesses per secret, and the guess kept for it (see the module
    /// docs); `None` if there is none, or time ran out.
    pub fn choose(
        &self,
        context: Context,
        candidates: &[u32],
        history: &[u32],
        depth: u32,
    ) -> Option<(u32, u32)> {
        let n = candidates.len();
        let depth = depth.min(n as u32);
        match candidates {
            [only] => return Some((1, *only)),
            [first, _] => return Some((3, *first)),
            _ => {}
        }
        // The cache may hold the cost, but it may come from an equivalent set, whose
        // guess is not this set's: search the node itself (its classes come from the
        // cache), with the budget the cost allows.
        let (key, known) = self.lookup(context.codes, candidates, depth);
        let budget = match known {
            Some(Known::Exact(cost)) => cost + 1,
            _ => UNLIMITED,
        };
        if self.bound(n, depth) >= budget {
            return None;
        }
        let node = Node {
            candidates,
            history,
        };
        let best = self.search(context, node, depth, budget);
        self.remember_search(depth, key, budget, best);
        best
    }

    /// The least total that `candidates` reached by `history` can cost with `depth`
    /// guesses left, as far as the bounds and what the searches so far proved: the
    /// exact cost if it is known, else the least over the guesses of the node (only
    /// `first` if given; one per symmetry class) of the secrets plus what each of
    /// the guess's classes costs at least. For a search that ran out of time, the
    /// gap between a tree and this floor is what is left to prove.
    pub fn proven_floor(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        first: Option<u32>,
    ) -> u32 {
        let candidates = node.candidates;
        let n = candidates.len();
        let depth = depth.min(n as u32);
        let (_, known) = self.lookup(context.codes, candidates, depth);
        if let (Some(Known::Exact(cost)), None) = (known, first) {
            return cost;
        }
        let itself = match first {
            None => self.floor(n, depth, known),
            Some(_) => self.bound(n, depth),
        };
        let codes = context.codes;
        let symmetry = context
            .symmetry
            .then(|| Symmetry::at(codes, &node))
            .flatten();
        let pool: Vec<u32> = match first {
            Some(guess) => vec![guess],
            None if self.candidates_only => candidates.to_vec(),
            None => (0..codes.len()).collect(),
        };
        let floor_of = |guess: u32| {
            let (split, wins) = codes.split(guess, candidates);
            if !wins && split.len() < 2 {
                return UNLIMITED; // no progress
            }
            let classes = split.iter().map(|(_, part)| {
                let depth = (depth - 1).min(part.len() as u32);
                if part.len() <= 2 {
                    return self.bound(part.len(), depth);
                }
                let (_, known) = self.lookup(codes, part, depth);
                self.floor(part.len(), depth, known)
            });
            classes.fold(n as u32, |sum, c| sum.saturating_add(c))
        };
        let least = pool
            .into_iter()
            .filter(|&g| {
                first.is_some()
                    || symmetry
                        .as_ref()
                        .is_none_or(|s| s.is_representative(codes.code(g)))
            })
            .map(floor_of)
            .min()
            .unwrap_or(UNLIMITED);
        least.max(itself)
    }

    /// Caches what a search under `budget` found, unless time ran out (then it may
    /// have stopped early).
    fn remember_search(&self, depth: u32, key: Cow<[u32]>, budget: u32, best: Option<(u32, u32)>) {
        if !self.timed_out() {
            let known = best.map_or(Known::AtLeast(budget), |(cost, _)| Known::Exact(cost));
            self.remember(depth, key, known);
        }
    }

    /// Searches `node` (more than two candidates, `depth` at most their number)
    /// for the optimum below `budget` and the guess kept for it.
    fn search(&self, context: Context, node: Node, depth: u32, budget: u32) -> Option<(u32, u32)> {
        if self.out_of_time() {
            return None;
        }
        let candidates = node.candidates;
        let n = candidates.len();
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let codes = context.codes;
        // Worked out only when used: small sets often end after their candidates,
        // and there telling equivalent candidates apart costs more than it saves.
        let symmetry = OnceCell::new();
        let symmetry = || {
            symmetry
                .get_or_init(|| {
                    context
                        .symmetry
                        .then(|| Symmetry::at(codes, &node))
                        .flatten()
                })
                .as_ref()
        };
        let keep = |g: &u32| symmetry().is_none_or(|s| s.is_representative(codes.code(*g)));
        let secrets = codes.gather(candidates);
        let at = At {
            context,
            node,
            depth,
        };
        let mut best = Best {
            found: None,
            limit: budget,
        };
        // Candidates first: they win ties, so an outsider must be strictly cheaper,
        // and often none can be (a candidate at most the outsiders' floor).
        let inside = candidates
            .iter()
            .copied()
            .filter(|g| n <= self.small || keep(g));
        let inside = self.options(context, &secrets, inside, depth, best.limit);
        self.try_options(at, inside, &mut best);
        if !self.candidates_only
            && self.outsiders_may_beat(best.limit, codes, &secrets, depth)
            && !self.timed_out()
        {
            // Whole colour multisets go at once: those a representative cannot use
            // and those whose coarse classes cannot beat the limit.
            let board = codes.board();
            let alphabet = symmetry().map_or(u16::MAX, |s| s.alphabet(board));
            let spreads = &self.tables(depth - 1).spreads;
            let (kept, work) =
                codes.promising_multisets(&secrets, alphabet, u64::from(best.limit), |coarse| {
                    n as u64 + spreads.floor(coarse)
                });
            context.counters.scorings.fetch_add(work, Ordering::Relaxed);
            let outside = kept
                .iter()
                .flat_map(|&(id, _)| codes.outsiders(id, &secrets))
                .filter(keep);
            let outside = self.options(context, &secrets, outside, depth, best.limit);
            self.try_options(at, outside, &mut best);
        }
        best.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lookup::Board;
    use std::collections::HashMap;

    #[test]
    fn lower_bounds_fill_levels_greedily() {
        // Classic: 13 non-winning answers.
        assert_eq!(lower_bound(1, 14, UNLIMITED), 1);
        assert_eq!(lower_bound(2, 14, UNLIMITED), 3);
        assert_eq!(lower_bound(14, 14, UNLIMITED), 1 + 2 * 13);
        assert_eq!(lower_bound(15, 14, UNLIMITED), 1 + 2 * 13 + 3);
        assert_eq!(lower_bound(15, 14, 2), UNLIMITED);
        assert_eq!(lower_bound(14, 14, 2), 27);
    }

    #[test]
    fn deeper_limits_than_the_full_depth_bound_like_none() {
        // Classic: 1 + 13 + 169 secrets fit in 3 guesses, 2380 >= 1296 in 4.
        assert_eq!(full_depth(1296, 14), 4);
        assert!((0..=1296).all(|n| lower_bound(n, 14, 4) == lower_bound(n, 14, UNLIMITED)));
        assert_eq!(lower_bound(1296, 14, 3), UNLIMITED);
        assert_eq!(full_depth(1, 14), 1);
    }

    #[test]
    fn spread_tables_match_even_splits_of_the_bounds() {
        let board = Board::classic();
        let exact = Exact::new(board, None, false);
        for depth in [2, 3, 5, UNLIMITED] {
            let Tables {
                bounds, spreads, ..
            } = exact.tables(depth);
            let cost = |c: u32| u64::from(bounds[c as usize]);
            for seed in 0..2000u32 {
                // Coarse classes of every size up to the whole board, 0 past the pegs.
                let coarse: Coarse = std::array::from_fn(|s| {
                    if s <= 4 {
                        seed.wrapping_mul(2654435761).rotate_left(5 * s as u32) % 1297
                    } else {
                        0
                    }
                });
                let plain = (0..=4).fold(0u64, |sum, s| {
                    let split = even_split(coarse[s], coarse_capacity(4, s), cost);
                    sum.saturating_add(split.min(u64::from(u32::MAX)))
                });
                assert_eq!(spreads.floor(&coarse), plain, "{coarse:?} depth {depth}");
            }
        }
    }

    /// The optimum by plain recursion over every guess, no bound, no symmetry, no
    /// pruning: memoised by candidate set only.
    fn exhaustive(codes: &Codes, candidates: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
        if candidates.len() == 1 {
            return 1;
        }
        if let Some(&cost) = memo.get(candidates) {
            return cost;
        }
        let mut best = u32::MAX;
        for guess in 0..codes.len() {
            let (parts, wins) = codes.split(guess, candidates);
            if !wins && parts.len() < 2 {
                continue;
            }
            let cost = candidates.len() as u32
                + parts
                    .iter()
                    .map(|(_, p)| exhaustive(codes, p, memo))
                    .sum::<u32>();
            best = best.min(cost);
        }
        memo.insert(candidates.to_vec(), best);
        best
    }

    fn optimum(board: Board, symmetry: bool) -> u32 {
        let codes = Codes::new(board);
        let all: Vec<u32> = (0..codes.len()).collect();
        let counters = Counters::default();
        let context = Context {
            codes: &codes,
            symmetry,
            counters: &counters,
        };
        Exact::new(board, None, false)
            .choose(context, &all, &[], UNLIMITED)
            .unwrap()
            .0
    }

    #[test]
    fn branch_and_bound_agrees_with_exhaustive_search() {
        for (p, c, r) in [
            (2, 4, true),
            (3, 3, true),
            (3, 4, true),
            (3, 5, false),
            (2, 6, true),
        ] {
            let board = Board::new(p, c, r).unwrap();
            let codes = Codes::new(board);
            let all: Vec<u32> = (0..codes.len()).collect();
            let plain = exhaustive(&codes, &all, &mut HashMap::new());
            assert_eq!(optimum(board, false), plain, "{p}x{c} repeat={r}");
            assert_eq!(
                optimum(board, true),
                plain,
                "{p}x{c} repeat={r} with symmetry"
            );
        }
    }

    #[test]
    fn outsider_floors_hold_for_every_outsider() {
        // Sets reached by two guesses: for each, the cheapest outsider by bound must
        // pass the test that lets outsiders be searched.
        let board = Board::new(4, 4, true).unwrap();
        let codes = Codes::new(board);
        let exact = Exact::new(board, None, false);
        let all: Vec<u32> = (0..codes.len()).collect();
        let bounds = exact.bounds(UNLIMITED);
        let mut checked = 0;
        for first in [0, 1, 5] {
            for (_, part) in codes.split(first, &all).0.iter() {
                for second in (0..codes.len()).step_by(7) {
                    for (_, set) in codes.split(second, part).0.iter() {
                        let cheapest = (0..codes.len())
                            .filter(|g| set.binary_search(g).is_err())
                            .map(|g| {
                                let (classes, _) = codes.split(g, set);
                                let sizes = classes.iter().map(|(_, c)| bounds[c.len()]);
                                set.len() as u32 + sizes.sum::<u32>()
                            })
                            .min()
                            .unwrap();
                        let secrets = codes.gather(set);
                        assert!(
                            exact.outsiders_may_beat(cheapest + 1, &codes, &secrets, UNLIMITED),
                            "{set:?}: an outsider costs {cheapest} by bound"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn three_pegs_five_colours_is_451() {
        // shared/reference/mastermind.md: 3x5 minimum total 451 (heuristics reach 453).
        let board = Board::new(3, 5, true).unwrap();
        let codes = Codes::new(board);
        let all: Vec<u32> = (0..codes.len()).collect();
        assert_eq!(exhaustive(&codes, &all, &mut HashMap::new()), 451);
        assert_eq!(optimum(board, true), 451);
    }
}
