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
//!   ([`crate::codes::Codes::promising_multisets`]), and a multiset whose bound
//!   reaches the best is never scored code by code. The codes of a multiset kept
//!   share the pegs they have in common with each secret, so the secrets are
//!   grouped by that count, and a code is dropped at the first group whose classes
//!   and the floors of the groups left reach the best (`Exact::each_outsider`).
//! - Before a guess's classes are searched, each gets a floor, and the guess is
//!   dropped as soon as the floors reach the budget: the cache's fact about the
//!   class, and for a small class a look one guess ahead (each candidate's own
//!   split; `Exact::one_level`), which often settles a class of a few secrets
//!   outright, with no cache entry and no search. A big class the cache knows
//!   nothing of gets a look two guesses ahead (each class of each of its guesses
//!   at its own look one ahead; `Exact::look_two_checkable`), capped at what
//!   would sink the guess, and cached with a fact of its own: 5x6's proof
//!   searched 59,385 positions with it instead of 300,714. A small class the
//!   cache knows nothing of also gets, for the codes outside it, the floor a
//!   search of it would give them (the least of the colour multisets'; the
//!   cache keeps what it found), which often sinks the guess before any class
//!   is searched (`Exact::outsiders_raised`). Small sets of one colour profile
//!   (their secrets' colour multisets, up to a renaming of colours) share that
//!   floor, so it is kept by profile too (`floor_memo`).
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

use crate::codes::{Codes, Guess, Secrets};
use crate::symmetry::Symmetry;
use crate::{Counters, Node};
use cache::NO_RECORD;
use lookup::score::{answer_count, MAX_ANSWERS};
use lookup::Board;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

mod bounds;
mod cache;
mod checkpoint;
mod floor_memo;
mod found;
mod options;
mod proof;
mod subtrees;

pub use bounds::lower_bound;
use bounds::{full_depth, Tables};
use cache::{Cache, Known, Lookup};
pub use cache::{CacheSettings, DEFAULT_CACHE_MIB, SHARDS};
pub use checkpoint::{summary, summary_with_classes, Checkpoint, Summary};
pub use floor_memo::memo_bytes;
pub use found::{Solved, Standing};
use options::{by_bound, sort_by_bound, At, Best, Choice};
use proof::Basis;
pub use proof::{Proof, Written};

/// From this many secrets on, a node searches its guesses in parallel.
const PARALLEL_SECRETS: usize = 32;

/// "No limit" for costs and depths.
pub const UNLIMITED: u32 = u32::MAX;

/// An exact search over one board, shared by every node of the tree it builds.
pub struct Exact {
    answers: usize,
    /// `tables[min(depth, full_depth)]`: the bounds for `depth` guesses, made on first
    /// use; every deeper limit bounds like the [`full_depth`] one.
    tables: Vec<OnceLock<Tables>>,
    board: Board,
    pegs: usize,
    codes: usize,
    deadline: Option<Instant>,
    /// The deadline passed, or the search was stopped ([`Exact::stop`]).
    timed_out: AtomicBool,
    /// Guesses only from the secrets still possible (`--consistent-only`).
    candidates_only: bool,
    /// Classes of at least this many secrets get a look two guesses ahead
    /// ([`options::LOOK_TWO_FROM`]; tests lower it to reach small boards).
    look_two_from: usize,
    cache_settings: CacheSettings,
    cache: Cache,
    /// The floors the multisets raised for small sets, by profile.
    floor_memo: floor_memo::FloorMemo,
    /// Nodes searched, for reports.
    pub nodes: AtomicU64,
    /// Nodes the runs before this one searched up to the checkpoint it resumed
    /// from (see [`found`]).
    earlier: AtomicU64,
    /// The cheapest whole tree found (see [`found`]).
    best_root: Mutex<Option<found::Root>>,
    /// The highest floor reported for each root problem (see [`found`]).
    floors: Mutex<found::Floors>,
    /// The guesses of the root's classes solved so far (see [`subtrees`]).
    subtrees: subtrees::Subtrees,
    /// The certificate this search writes, if any (see [`proof`]), and whether.
    proof: Mutex<Option<Proof>>,
    proving: AtomicBool,
}

/// What a search needs besides the node: the board's codes, whether to use
/// symmetry (which changes the work, never the result), and the run's counters.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub codes: &'a Codes,
    pub symmetry: bool,
    pub counters: &'a Counters,
    /// Search on past the deadline: set only to rebuild a tree the search found
    /// (see [`found`]), whose cost is known, so the budget keeps the work small.
    pub past_deadline: bool,
}

impl Context<'_> {
    /// The symmetry of `node` this search uses: none without symmetry, or if the
    /// node has none.
    fn symmetry_at(&self, node: &Node) -> Option<Symmetry> {
        self.symmetry
            .then(|| Symmetry::at(self.codes, node))
            .flatten()
    }
}

/// Whether a search under `symmetry` tries `guess`: one guess per class of
/// equivalent guesses (equivalent guesses cost the same), every guess without.
fn tried(symmetry: Option<&Symmetry>, codes: &Codes, guess: u32) -> bool {
    symmetry.is_none_or(|s| s.is_representative(codes.code(guess)))
}

/// The candidates tried under `symmetry`, one per class, ready to score.
fn tried_candidates<'a>(
    codes: &'a Codes,
    candidates: &'a [u32],
    symmetry: Option<&'a Symmetry>,
) -> impl Iterator<Item = Guess> + 'a {
    (candidates.iter())
        .filter(move |&&g| tried(symmetry, codes, g))
        .map(|&g| codes.guess(g))
}

impl Exact {
    /// A search on `board` that gives up at `deadline`; with `candidates_only`, it
    /// guesses only codes that are still possible.
    pub fn new(board: Board, deadline: Option<Instant>, candidates_only: bool) -> Exact {
        Exact {
            answers: answer_count(board.pegs()),
            tables: (0..=full_depth(board.code_count() as usize, answer_count(board.pegs())))
                .map(|_| OnceLock::new())
                .collect(),
            board,
            pegs: board.pegs(),
            codes: board.code_count() as usize,
            deadline,
            timed_out: AtomicBool::new(false),
            candidates_only,
            look_two_from: options::LOOK_TWO_FROM,
            cache_settings: CacheSettings::default(),
            cache: Cache::new(CacheSettings::default()),
            floor_memo: floor_memo::FloorMemo::new(board.code_count() as usize),
            nodes: AtomicU64::new(0),
            earlier: AtomicU64::new(0),
            best_root: Mutex::new(None),
            floors: Mutex::default(),
            subtrees: subtrees::Subtrees::default(),
            proof: Mutex::new(None),
            proving: AtomicBool::new(false),
        }
    }

    /// The search with its cache kept as `settings` say.
    pub fn with_cache(self, settings: CacheSettings) -> Exact {
        Exact {
            cache_settings: settings,
            cache: Cache::new(settings),
            ..self
        }
    }

    /// Whether the deadline passed during some search, or it was stopped: results
    /// since may not be optimal.
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Acquire)
    }

    /// Stops the searches running, as a deadline would: each returns what it has,
    /// which may not be optimal, and from then on nothing is cached or written to
    /// the certificate, until [`Exact::go_on`]. For a search whose budget fell
    /// while it ran (a plan's item, as items done elsewhere lower it): stopped,
    /// then searched again under the lower budget, with what it proved kept.
    pub fn stop(&self) {
        // Release: whatever the stopping thread wrote before (a new budget) is
        // seen by a thread that sees the stop.
        self.timed_out.store(true, Ordering::Release);
    }

    /// Searches run again after [`Exact::stop`] (with no deadline): what was
    /// cached before is proven, whatever was stopped since.
    pub fn go_on(&self) {
        self.timed_out.store(false, Ordering::Relaxed);
    }

    /// Whether searches in `context` stop: the deadline passed, and they do not go
    /// on past it.
    fn cut(&self, context: Context) -> bool {
        !context.past_deadline && self.timed_out()
    }

    fn out_of_time(&self, context: Context) -> bool {
        if context.past_deadline {
            return false;
        }
        if self.timed_out() {
            return true;
        }
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if late {
            self.timed_out.store(true, Ordering::Relaxed);
        }
        late
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
            Some(Known::Exact(cost)) => {
                self.depend_on_cached(context.codes, candidates, depth, &key);
                return (cost < budget).then_some(cost);
            }
            Some(Known::AtLeast(at_least)) if at_least >= budget => {
                self.depend_on_cached(context.codes, candidates, depth, &key);
                return None;
            }
            _ => {}
        }
        let node = Node {
            candidates,
            history,
        };
        self.search_kept(context, node, depth, key, budget)
            .map(|(cost, _)| cost)
    }

    /// [`Exact::search`], what it found kept in the cache under `key` and the
    /// search in progress resting on its fact.
    fn search_kept(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        key: Cow<[u32]>,
        budget: u32,
    ) -> Option<(u32, u32)> {
        let (best, record) = self.search(context, node, depth, budget);
        self.remember_search(context, depth, key, budget, best, record);
        self.depend_on(record);
        best
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
        self.search_kept(context, node, depth, key, budget)
    }

    /// The candidates a search of `candidates` tries, in its order: one per class
    /// of `symmetry`.
    fn inside_options(
        &self,
        context: Context,
        candidates: &[u32],
        secrets: &Secrets,
        symmetry: Option<&Symmetry>,
        depth: u32,
        limit: u32,
    ) -> Vec<Choice> {
        let inside = tried_candidates(context.codes, candidates, symmetry);
        self.options(context, secrets, inside, depth, limit)
    }

    /// The guesses a search of `node` (more than two candidates, `depth` guesses
    /// left) tries, in its order: the candidates, then the codes outside them,
    /// each in order of (bound, code), leaving out none for a bound (as if nothing
    /// had been found yet). The guess it keeps is the first of the cheapest of
    /// these, for candidates win ties and an outsider kept must be strictly
    /// cheaper: work items ([`crate::plan`]) cost each one's classes apart and
    /// choose at the merge by the same rule. At the root every code is a
    /// candidate, so these are the first guesses.
    pub fn options_at(&self, context: Context, node: Node, depth: u32) -> Vec<u32> {
        let options = At::gathered(context, node, depth, |at| self.all_options(at, UNLIMITED));
        options.iter().map(|o| o.guess).collect()
    }

    /// The least `node` can cost with at most `depth` more guesses per secret,
    /// looking one guess ahead, or `cap` if that is less: its secrets, plus for
    /// the cheapest guess it tries the bounds of the classes that guess leaves,
    /// every code scored ([`UNLIMITED`] if no guess can solve it within `depth`);
    /// each code is scored only as far as it could still come in below the least
    /// so far (and `cap`), and the colour multisets whose floor reaches that
    /// after the candidates not at all (all the guesses below `cap` were scored
    /// in full and sorted before: 4x12's within-18 floors took three times the
    /// CPU, BENCHMARKS.md). A search of `node`
    /// under this budget fails at once, proving it with one fact that a checker
    /// verifies by the same look; [`Exact::look_two`] takes it at each class a
    /// guess leaves.
    fn look_at(&self, context: Context, node: Node, depth: u32, cap: u32) -> u32 {
        let n = node.candidates.len();
        let depth = depth.min(n as u32);
        let bound = self.bound(n, depth);
        if n <= 2 || bound >= cap {
            return bound.min(cap);
        }
        // Only the least bound counts: each guess is scored only as far as it
        // could still be below the least so far.
        let least = |option: Choice| option.bound;
        At::gathered(context, node, depth, |at| {
            self.each_option_at(at, cap, least, least)
        })
    }

    /// The least `node` can cost looking two guesses ahead, or `cap` if that is
    /// less: its secrets, plus for the cheapest guess the looks one guess ahead
    /// ([`Exact::look_at`]) at the classes it leaves. A plan's items get it as
    /// their floors ([`crate::plan`]), capped at what their guess can spare: a
    /// search under it fails at the node or at the classes below it, where a
    /// checker's looks find the same.
    pub fn look_two(&self, context: Context, node: Node, depth: u32, cap: u32) -> u32 {
        let first = |class: Node, depth: u32| (self.bound(class.candidates.len(), depth), ());
        let then = |class: Node, depth, room, ()| self.look_at(context, class, depth, room);
        self.look_two_by(context, node, depth, cap, first, then)
    }

    /// [`Exact::look_two`] with the looks a checker makes at the classes
    /// ([`Exact::one_level`]: the codes outside a class floored by their colour
    /// multisets, not scored one by one), or `cap` if that is less: a fact with
    /// this bound and no uses checks (docs/certificate.md, rule 3 at every class
    /// of every guess). A search floors its big classes by it
    /// ([`Exact::class_floors`]).
    ///
    /// A look's two steps are taken apart: every class a guess leaves gets the
    /// candidates' step first, and the multisets' scan, the dearer step (most of
    /// a 5x8 split's item's time), only where the first steps leave the guess
    /// below the least so far: the same floor, with no scan for a guess the first
    /// steps rule out.
    pub(super) fn look_two_checkable(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        cap: u32,
    ) -> u32 {
        let first = |class: Node, depth: u32| {
            let n = class.candidates.len();
            match n {
                0..=2 => (self.bound(n, depth), None),
                _ => {
                    let cheap = self.candidates_look(context, class.candidates, depth);
                    (self.least_cost(n, depth, Some(cheap.known())), Some(cheap))
                }
            }
        };
        let then = |class: Node, depth: u32, _, cheap: Option<options::Look>| {
            let n = class.candidates.len();
            match cheap {
                None => self.bound(n, depth),
                Some(cheap) => {
                    let look = self.raised_look(context, class.candidates, depth, cheap);
                    self.least_cost(n, depth, Some(look))
                }
            }
        };
        self.look_two_by(context, node, depth, cap, first, then)
    }

    /// The least `node` can cost looking two guesses ahead, or `cap` if that is
    /// less: its secrets, plus for the cheapest guess the floors of the classes
    /// it leaves, each found in two steps: `first(class, depth)`, a floor (at
    /// least the class's bound) and what `then(class, depth, room, it)` raises it
    /// from (allowed to stop at `room`). Each step is taken only as far as the
    /// guess could still come in below the least so far, every class's first
    /// step before any class's second, the classes smallest first (the floor is
    /// the same in any order: 5x6's proof scored a tenth fewer pairs than in
    /// the split's order, and it and 5x8's items took a few percent less time,
    /// BENCHMARKS.md). The guesses are taken by their bounds one
    /// guess ahead, which the looks only raise, so those whose bound reaches the
    /// least so far are never looked at.
    fn look_two_by<F: Copy>(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        cap: u32,
        first: impl Fn(Node, u32) -> (u32, F),
        then: impl Fn(Node, u32, u32, F) -> u32,
    ) -> u32 {
        let n = node.candidates.len();
        let depth = depth.min(n as u32);
        let bound = self.bound(n, depth);
        if n <= 2 || bound >= cap {
            return bound.min(cap);
        }
        let codes = context.codes;
        let secrets = codes.gather(node.candidates);
        let at = At {
            context,
            node,
            secrets: &secrets,
            depth,
        };
        let mut options = self.all_options(at, cap);
        sort_by_bound(&mut options);
        let mut least = cap;
        let mut history = node.history.to_vec();
        history.push(0);
        for option in options {
            if option.bound >= least {
                break;
            }
            *history.last_mut().unwrap() = option.guess;
            let (split, _) = codes.split_gathered(codes.guess(option.guess), &secrets);
            let bound = |class: &[u32]| u64::from(self.floor(class.len(), depth - 1));
            let depth = |class: &[u32]| (depth - 1).min(class.len() as u32);
            let node = |class| Node {
                candidates: class,
                history: &history,
            };
            // The classes smallest first: a class's first step scores its
            // candidates against each other, so a small one is cheap, and often
            // sinks the guess before a big one is looked at.
            let classes = split.smallest_first();
            let mut total = n as u64 + classes.iter().map(|c| bound(c)).sum::<u64>();
            let mut firsts = [None; MAX_ANSWERS];
            for (&class, found) in classes.iter().zip(firsts.iter_mut()) {
                if total >= u64::from(least) {
                    break;
                }
                let (floor, it) = first(node(class), depth(class));
                total = total - bound(class) + u64::from(floor);
                *found = Some((floor, it));
            }
            for (&class, found) in classes.iter().zip(firsts) {
                let Some((floor, it)) = found.filter(|_| total < u64::from(least)) else {
                    break;
                };
                let room = u64::from(least) - total + u64::from(floor);
                let look = then(node(class), depth(class), room as u32, it);
                total = total - u64::from(floor) + u64::from(look);
            }
            least = least.min(total.min(u64::from(UNLIMITED)) as u32);
        }
        least
    }

    /// The guesses a search at `at` tries whose bounds are below `limit`, with
    /// their bounds, as [`Exact::options_at`] orders them.
    fn all_options(&self, at: At, limit: u32) -> Vec<Choice> {
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        let keep_in = |option| {
            inside.push(option);
            limit
        };
        let keep_out = |option| {
            outside.push(option);
            limit
        };
        self.each_option_at(at, limit, keep_in, keep_out);
        sort_by_bound(&mut inside);
        sort_by_bound(&mut outside);
        inside.extend(outside);
        inside
    }

    /// Hands each guess a search at `at` tries whose bound is below the limit
    /// to `keep_in` (the candidates, first) or `keep_out` (the codes outside
    /// them), which say the limit from then on (`limit` at first, never higher),
    /// as [`Exact::each_option`] does. The limit at the end.
    fn each_option_at(
        &self,
        at: At,
        limit: u32,
        keep_in: impl FnMut(Choice) -> u32,
        keep_out: impl FnMut(Choice) -> u32,
    ) -> u32 {
        let At {
            context,
            node,
            secrets,
            depth,
        } = at;
        let codes = context.codes;
        let symmetry = context.symmetry_at(&node);
        let depth = depth.min(node.candidates.len() as u32);
        let s = symmetry.as_ref();
        let inside = tried_candidates(codes, node.candidates, s);
        let limit = self.each_option(context, secrets, inside, depth, limit, keep_in);
        if self.candidates_only {
            return limit;
        }
        let alphabet = s.map_or(u16::MAX, |s| s.alphabet(codes.board()));
        let n = node.candidates.len() as u64;
        let spreads = &self.tables(depth - 1).spreads;
        let (kept, _) = codes.promising_multisets(secrets, alphabet, u64::from(limit), |coarse| {
            n + spreads.least(coarse)
        });
        self.each_outsider(context, secrets, &kept, s, depth, limit, keep_out)
    }

    /// The optimum for `node` with at most `depth` more guesses per secret, if it
    /// is below `budget`: `None` if it is not (or time ran out).
    pub fn cost_below(&self, context: Context, node: Node, depth: u32, budget: u32) -> Option<u32> {
        self.solve(context, node.candidates, node.history, depth, budget, None)
    }

    /// The least any `n` secrets can cost with `depth` guesses left, by the bounds
    /// alone ([`UNLIMITED`] if `depth` guesses cannot solve them all).
    pub fn floor(&self, n: usize, depth: u32) -> u32 {
        self.bound(n, depth.min(n as u32))
    }

    /// Searches `node` (more than two candidates, `depth` at most their number)
    /// for the optimum below `budget` and the guess kept for it, with the number
    /// of the fact it proved in the certificate being written ([`NO_RECORD`] if
    /// none).
    fn search(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        budget: u32,
    ) -> (Option<(u32, u32)>, u64) {
        if self.out_of_time(context) {
            return (None, NO_RECORD);
        }
        self.with_proof(Proof::begin);
        let candidates = node.candidates;
        let n = candidates.len();
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let codes = context.codes;
        let symmetry = context.symmetry_at(&node);
        let secrets = codes.gather(candidates);
        let at = At {
            context,
            node,
            secrets: &secrets,
            depth,
        };
        let mut best = Best {
            found: None,
            limit: budget,
        };
        // Candidates first: they win ties, so an outsider must be strictly cheaper,
        // and often none can be (a candidate at most the outsiders' floor).
        let inside = self.inside_options(
            context,
            candidates,
            &secrets,
            symmetry.as_ref(),
            depth,
            best.limit,
        );
        self.try_options(at, inside, &mut best);
        if !self.candidates_only
            && self.outsiders_may_beat(best.limit, codes, &secrets, depth)
            && !self.cut(context)
        {
            // Whole colour multisets go at once: those a representative cannot use
            // and those whose coarse classes cannot beat the limit.
            let board = codes.board();
            let alphabet = (symmetry.as_ref()).map_or(u16::MAX, |s| s.alphabet(board));
            let spreads = &self.tables(depth - 1).spreads;
            let (kept, work) =
                codes.promising_multisets(&secrets, alphabet, u64::from(best.limit), |coarse| {
                    n as u64 + spreads.least(coarse)
                });
            context.counters.scorings.fetch_add(work, Ordering::Relaxed);
            let (s, limit) = (symmetry.as_ref(), best.limit);
            let outside = by_bound(limit, |keep| {
                self.each_outsider(context, &secrets, &kept, s, depth, limit, keep);
            });
            self.try_options(at, outside, &mut best);
        }
        let bound = best.found.map_or(budget, |(cost, _)| cost);
        let s = symmetry.as_ref();
        let record = self.prove(context, candidates, depth, bound, s, Basis::Search);
        (best.found, record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::{coarse_capacity, even_split, Coarse};
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
                assert_eq!(spreads.least(&coarse), plain, "{coarse:?} depth {depth}");
            }
        }
    }

    /// A context for searches in tests: before any deadline.
    pub(super) fn search_context<'a>(
        codes: &'a Codes,
        counters: &'a Counters,
        symmetry: bool,
    ) -> Context<'a> {
        Context {
            codes,
            symmetry,
            counters,
            past_deadline: false,
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

    #[test]
    fn the_one_level_look_is_a_floor_or_the_optimum() {
        let board = Board::new(3, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, false);
        let exact = Exact::new(board, None, false);
        let mut memo = HashMap::new();
        let (mut above_the_bound, mut settled, mut outsiders_raised) = (0, 0, 0);
        let mut x = 12345u32;
        for _ in 0..400 {
            // A random set of 3 to 14 codes.
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let size = 3 + (x % 12) as usize;
            let mut set: Vec<u32> = (0..codes.len())
                .filter(|c| (c.wrapping_mul(2654435761) ^ x) % 7 < 2)
                .take(size)
                .collect();
            set.sort_unstable();
            if set.len() < 3 {
                continue;
            }
            let known = exact.one_level(context, &set, UNLIMITED);
            let optimum = exhaustive(&codes, &set, &mut memo);
            let bound = exact.bound(set.len(), UNLIMITED);
            let floor = match known {
                Known::Exact(cost) => {
                    assert_eq!(cost, optimum, "{set:?}: settled at {cost}");
                    settled += 1;
                    cost
                }
                Known::AtLeast(floor) => floor,
            };
            assert!(
                bound <= floor && floor <= optimum,
                "{set:?}: bound {bound}, floor {floor}, optimum {optimum}"
            );
            above_the_bound += usize::from(floor > bound);
            // Up to one secret per non-winning answer, the even split lets a code
            // outside cost 2n: more says the multisets' floor raised it.
            let even = set.len() < answer_count(3) && floor > 2 * set.len() as u32;
            outsiders_raised += usize::from(even);
        }
        assert!(above_the_bound > 0, "the floor never beat the bound");
        assert!(outsiders_raised > 0, "the multisets never raised the floor");
        assert!(settled > 0 && settled < 400, "{settled} sets settled");
    }

    /// The look at a node against the plain count: every code's whole split (its
    /// classes but the win), the bounds of its classes, under the symmetries the
    /// classes of a first guess and of a second have. A search under the look
    /// fails at the node itself; the optimum is at least the look.
    #[test]
    fn the_look_at_a_node_is_the_least_split_of_every_code() {
        let board = Board::new(4, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let exact = Exact::new(board, None, false);
        let mut above_the_bound = 0;
        for (history, set) in sets_of_three_or_more(&codes) {
            let n = set.len();
            let node = Node {
                candidates: &set,
                history: &history,
            };
            let look = exact.look_at(context, node, UNLIMITED, UNLIMITED);
            let bound = |p: &[u32]| exact.bound(p.len(), UNLIMITED);
            assert_eq!(
                look,
                plain_look(&codes, &set, bound),
                "{set:?} after {history:?}"
            );
            // Under a cap, each code scored only as far as it could be the least
            // so far: the look, or the cap if that is less.
            for cap in [look - 1, look, look + 1, look + 7] {
                let capped = exact.look_at(context, node, UNLIMITED, cap);
                assert_eq!(capped, look.min(cap), "{set:?} under {cap}");
            }
            let above = look > exact.bound(n, UNLIMITED);
            above_the_bound += usize::from(above);
            // Searched only where the bound alone does not settle it (a
            // search with nothing cached, as an item's).
            let fresh = Exact::new(board, None, false);
            assert_eq!(fresh.cost_below(context, node, UNLIMITED, look), None);
            let searched = fresh.nodes.load(Ordering::Relaxed);
            assert_eq!(searched, u64::from(above), "{set:?}");
            let cost = exact.cost_below(context, node, UNLIMITED, UNLIMITED);
            assert!(cost.unwrap() >= look, "{set:?}: {cost:?} below {look}");
        }
        assert!(above_the_bound > 0, "the look never beat the bound");
    }

    /// The sets of three secrets or more a search of `codes` meets after the
    /// first guesses of codes 0, 5 and 27, and after each of those and code 100,
    /// with their histories: the classes of a first guess and of a second, under
    /// the symmetries each has.
    fn sets_of_three_or_more(codes: &Codes) -> Vec<(Vec<u32>, Vec<u32>)> {
        let all: Vec<u32> = (0..codes.len()).collect();
        let mut sets = Vec::new();
        for first in [0, 5, 27] {
            for (_, class) in codes.split(first, &all).0.iter() {
                sets.push((vec![first], class.to_vec()));
                let (second, _) = codes.split(100, class);
                sets.extend(second.iter().map(|(_, p)| (vec![first, 100], p.to_vec())));
            }
        }
        sets.retain(|(_, set)| set.len() >= 3);
        sets
    }

    /// The least over every code that tells `set` apart at all (it wins, or
    /// leaves two classes or more) of the set's secrets plus `floor` of each
    /// class it leaves but the win: with the size bound as `floor`, the look one
    /// guess ahead; with that look, the look two guesses ahead.
    fn plain_look(codes: &Codes, set: &[u32], floor: impl Fn(&[u32]) -> u32) -> u32 {
        (0..codes.len())
            .filter_map(|g| {
                let (parts, wins) = codes.split(g, set);
                (wins || parts.len() > 1)
                    .then(|| set.len() as u32 + parts.iter().map(|(_, p)| floor(p)).sum::<u32>())
            })
            .min()
            .unwrap()
    }

    /// The look two guesses ahead against the plain count: every code's split,
    /// each class at its plain look one guess ahead (its bound if it holds at
    /// most two secrets); capped, the least of the two. A search under it fails;
    /// the optimum is at least it; and it beats the look one guess ahead somewhere.
    #[test]
    fn the_look_two_guesses_ahead_is_every_code_s_split_looked_at() {
        let board = Board::new(4, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let exact = Exact::new(board, None, false);
        let bound = |p: &[u32]| exact.bound(p.len(), UNLIMITED);
        let one = |p: &[u32]| match p.len() {
            0..=2 => bound(p),
            _ => plain_look(&codes, p, bound),
        };
        let mut above_one = 0;
        for (history, set) in sets_of_three_or_more(&codes) {
            let node = Node {
                candidates: &set,
                history: &history,
            };
            let two = exact.look_two(context, node, UNLIMITED, UNLIMITED);
            assert_eq!(
                two,
                plain_look(&codes, &set, one),
                "{set:?} after {history:?}"
            );
            for cap in [two - 1, two, two + 1] {
                let capped = exact.look_two(context, node, UNLIMITED, cap);
                assert_eq!(capped, two.min(cap), "{set:?} capped at {cap}");
            }
            let look = exact.look_at(context, node, UNLIMITED, UNLIMITED);
            above_one += usize::from(two > look);
            let fresh = Exact::new(board, None, false);
            assert_eq!(fresh.cost_below(context, node, UNLIMITED, two), None);
            let cost = exact.cost_below(context, node, UNLIMITED, UNLIMITED);
            assert!(cost.unwrap() >= two, "{set:?}: {cost:?} below {two}");
        }
        assert!(above_one > 0, "the look two guesses ahead never beat one");
    }

    /// The look two guesses ahead a search floors big classes by, against the
    /// plain count: every code's split, each class at the look one guess ahead a
    /// checker makes ([`Exact::one_level`]; its bound if it holds at most two
    /// secrets). Capped, it is the least of the two; it is at most the plan's look
    /// two ahead (whose looks score the codes outside one by one) and the optimum,
    /// and it beats the look one guess ahead somewhere.
    #[test]
    fn the_checkable_look_two_ahead_is_every_code_s_split_at_checked_looks() {
        let board = Board::new(4, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, true);
        let exact = Exact::new(board, None, false);
        let one = |p: &[u32]| match p.len() {
            0..=2 => exact.bound(p.len(), UNLIMITED),
            _ => exact.least_cost(
                p.len(),
                UNLIMITED,
                Some(exact.one_level(context, p, UNLIMITED)),
            ),
        };
        let mut above_one = 0;
        for (history, set) in sets_of_three_or_more(&codes) {
            let node = Node {
                candidates: &set,
                history: &history,
            };
            let two = exact.look_two_checkable(context, node, UNLIMITED, UNLIMITED);
            assert_eq!(
                two,
                plain_look(&codes, &set, one),
                "{set:?} after {history:?}"
            );
            for cap in [two - 1, two, two + 1] {
                let capped = exact.look_two_checkable(context, node, UNLIMITED, cap);
                assert_eq!(capped, two.min(cap), "{set:?} capped at {cap}");
            }
            assert!(
                two <= exact.look_two(context, node, UNLIMITED, UNLIMITED),
                "{set:?}"
            );
            let cost = exact.cost_below(context, node, UNLIMITED, UNLIMITED);
            assert!(cost.unwrap() >= two, "{set:?}: {cost:?} below {two}");
            above_one += usize::from(two > one(&set));
        }
        assert!(above_one > 0, "the look two guesses ahead never beat one");
    }

    /// The optimum by the search, with classes of `look_two_from` secrets or
    /// more floored two guesses ahead.
    fn optimum(board: Board, symmetry: bool, look_two_from: usize) -> u32 {
        let codes = Codes::new(board);
        let all: Vec<u32> = (0..codes.len()).collect();
        let counters = Counters::default();
        let context = search_context(&codes, &counters, symmetry);
        let exact = Exact {
            look_two_from,
            ..Exact::new(board, None, false)
        };
        exact.choose(context, &all, &[], UNLIMITED).unwrap().0
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
            // Every class of three or more floored two guesses ahead, and as a
            // search of a big board does.
            for look_two_from in [3, options::LOOK_TWO_FROM] {
                let at = format!("{p}x{c} repeat={r}, looks two ahead from {look_two_from}");
                assert_eq!(optimum(board, false, look_two_from), plain, "{at}");
                let symmetric = optimum(board, true, look_two_from);
                assert_eq!(symmetric, plain, "{at} with symmetry");
            }
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
    fn grouped_outsider_scans_keep_what_the_plain_scan_keeps() {
        let board = Board::new(4, 5, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, false);
        let exact = Exact::new(board, None, false);
        let all: Vec<u32> = (0..codes.len()).collect();
        let every: Vec<(usize, u64)> = (0..codes.multiset_count()).map(|id| (id, 0)).collect();
        let (mut compared, mut kept) = (0, 0);
        for first in [0, 6, 31] {
            for (_, part) in codes.split(first, &all).0.iter() {
                for second in (0..codes.len()).step_by(41) {
                    for (_, set) in codes
                        .split(second, part)
                        .0
                        .iter()
                        .filter(|(_, s)| s.len() > 2)
                    {
                        let secrets = codes.gather(set);
                        let bound = exact.bound(set.len(), UNLIMITED);
                        for limit in [bound, bound + 2, bound + 5, 2 * bound] {
                            let plain = every
                                .iter()
                                .flat_map(|&(id, _)| codes.outsiders(id, &secrets));
                            let plain = exact.options(context, &secrets, plain, UNLIMITED, limit);
                            let grouped = by_bound(limit, |keep| {
                                exact.each_outsider(
                                    context, &secrets, &every, None, UNLIMITED, limit, keep,
                                );
                            });
                            let seen = |o: &Vec<Choice>| -> Vec<(u32, u32, bool)> {
                                o.iter().map(|c| (c.bound, c.guess, c.exact)).collect()
                            };
                            assert_eq!(seen(&grouped), seen(&plain), "{set:?} limit {limit}");
                            compared += 1;
                            kept += grouped.len();
                        }
                    }
                }
            }
        }
        assert!(
            compared > 500 && kept > 1000,
            "{compared} sets, {kept} options"
        );
    }

    #[test]
    fn three_pegs_five_colours_is_451() {
        // shared/reference/mastermind.md: 3x5 minimum total 451 (heuristics reach 453).
        let board = Board::new(3, 5, true).unwrap();
        let codes = Codes::new(board);
        let all: Vec<u32> = (0..codes.len()).collect();
        assert_eq!(exhaustive(&codes, &all, &mut HashMap::new()), 451);
        assert_eq!(optimum(board, true, options::LOOK_TWO_FROM), 451);
    }
}
