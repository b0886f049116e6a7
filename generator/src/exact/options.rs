//! Branch and bound at one node: the guesses worth trying, in order of their
//! bounds, each searched with the budget that would make it the best so far.

use super::{
    tried, Basis, Context, Exact, Known, Lookup, Tables, NO_RECORD, PARALLEL_SECRETS, UNLIMITED,
};
use crate::codes::{
    coarse_capacity, even_split, ByShared, Classes, Codes, Guess, Secrets, Spreads, CLASS_SLOTS,
    SPREAD_LANES,
};
use crate::symmetry::Symmetry;
use crate::Node;
use lookup::score::MAX_ANSWERS;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};

/// Classes up to this size get [`Exact::one_level`] before they are searched.
/// Since the look floors the codes outside by their colour multisets, bigger
/// classes pay for it: 5x6 on one thread 241.5 s with 128, 199.2 s with 512 (side
/// by side), 512 against 2048 197.6 against 203.6 s (BENCHMARKS.md, tuning). A
/// first guess's classes get it whatever their size: there are few of them, each
/// looked at once (the cache keeps the floor), and they floor the whole board:
/// 5x8's least first guess by its classes' sizes 158315, by their looks 164803,
/// for a second or two of each first guess (BENCHMARKS.md).
const ONE_LEVEL_UP_TO: usize = 512;

/// Classes up to this size get the first step of [`Exact::one_level`] before the
/// cache is asked. 5x6 on one thread, side by side: 187.1 s with 16 against 202.9 s
/// with 8 (301,697 against 311,912 positions; BENCHMARKS.md, tuning).
pub(super) const LOOK_FIRST_UP_TO: usize = 16;

/// Classes of at least this many secrets that the cache knows nothing of get a
/// look two guesses ahead ([`Exact::look_two_checkable`]) when their floors so
/// far leave their guess under its budget: a big class's best guess splits it
/// far less evenly than its bound assumes, and the look finds it out for the
/// price of scoring the board against it once, where a search of a guess that
/// cannot win solves its classes smallest first before a big one fails. One
/// thread, 2026-11-30, AMD EPYC, the same files (BENCHMARKS.md): 5x6 300,714
/// positions in 151.5 s with none, 278,193 in 144.7 s from 512, 251,025 from
/// 256, 59,385 in 96.9 s from 128, 49,006 in 113.9 s from 96, 44,225 in 125.3 s
/// from 64; 4x9 96,972 in 16.8 s with none, 57,366 in 12.7 s from 128, 45,728 in
/// 11.6 s from 96, 31,879 in 14.6 s from 64; 5x8's campaign item 6 (2,387
/// secrets, 2026-11-30) 130,609 positions in 104.8 s from 256, 90,394 in 100.5 s
/// from 128, 77,994 in 112.1 s from 64.
pub(super) const LOOK_TWO_FROM: usize = 128;

/// A node under search: the context, the node, and the guesses left per secret.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub(super) context: Context<'a>,
    pub(super) node: Node<'a>,
    /// The node's candidates gathered for scanning.
    pub(super) secrets: &'a Secrets<'a>,
    pub(super) depth: u32,
}

impl<'a> At<'a> {
    /// What `f` makes of `node` with `depth` guesses left, its candidates
    /// gathered for scanning.
    pub(super) fn gathered<R>(
        context: Context<'a>,
        node: Node<'a>,
        depth: u32,
        f: impl FnOnce(At) -> R,
    ) -> R {
        let secrets = context.codes.gather(node.candidates);
        f(At {
            context,
            node,
            secrets: &secrets,
            depth,
        })
    }
}

/// The best option found at a node so far, as (cost, guess), and the cost an
/// option must stay below to be kept.
pub(super) struct Best {
    pub(super) found: Option<(u32, u32)>,
    pub(super) limit: u32,
}

/// A guess at a node with its bound, for ordering.
pub(super) struct Choice {
    pub(super) bound: u32,
    pub(super) guess: u32,
    /// Every class holds at most two secrets: the bound is the exact cost.
    pub(super) exact: bool,
}

/// What a scan under a fixed `limit` hands to its `keep` (each one kept, the
/// limit never lowered), in order ([`sort_by_bound`]).
pub(super) fn by_bound(
    limit: u32,
    scan: impl FnOnce(&mut dyn FnMut(Choice) -> u32),
) -> Vec<Choice> {
    let mut options = Vec::new();
    scan(&mut |choice| {
        options.push(choice);
        limit
    });
    sort_by_bound(&mut options);
    options
}

/// Options in the order a search tries them: best bound first, then the
/// smaller code.
pub(super) fn sort_by_bound(options: &mut [Choice]) {
    options.sort_unstable_by_key(|o| (o.bound, o.guess));
}

impl Exact {
    /// The guesses from `pool` whose bound is below `limit` at a node, best bound
    /// first (then the smaller code).
    pub(super) fn options(
        &self,
        context: Context,
        secrets: &Secrets,
        pool: impl Iterator<Item = Guess>,
        depth: u32,
        limit: u32,
    ) -> Vec<Choice> {
        by_bound(limit, |keep| {
            self.each_option(context, secrets, pool, depth, limit, keep);
        })
    }

    /// Hands each guess from `pool` whose bound is below the limit at a node to
    /// `keep`, in the pool's order; `keep` says the limit from then on (`limit`
    /// at first, never higher), so a caller that needs only the least bound
    /// scores each guess only as far as it could still be the least. The limit
    /// at the end.
    pub(super) fn each_option(
        &self,
        context: Context,
        secrets: &Secrets,
        pool: impl Iterator<Item = Guess>,
        depth: u32,
        mut limit: u32,
        mut keep: impl FnMut(Choice) -> u32,
    ) -> u32 {
        let codes = context.codes;
        let win = codes.win();
        let n = secrets.len() as u64;
        let Tables { bounds, steps, .. } = self.tables(depth - 1);
        let mut classes = [0; CLASS_SLOTS];
        let mut work = 0;
        for guess in pool {
            // The bound only grows as secrets join classes: stop once past the
            // limit. The win class (the guess itself) is counted as if it were
            // another secret to place, 1 too many, so the running test allows 1.
            let mut bound = n;
            // Read once, not per secret: the step table's slice and the limit.
            let (steps, most) = (steps.as_slice(), u64::from(limit));
            let within = codes.count_classes(guess, secrets, &mut classes, &mut work, |size, _| {
                bound += u64::from(steps[size as usize]);
                bound <= most
            });
            let outsider = classes[win] == 0;
            let bound = bound - u64::from(bounds[classes[win] as usize]);
            let progress = !outsider || classes[..win].iter().filter(|&&c| c > 0).count() > 1;
            if within && progress && bound < u64::from(limit) {
                limit = keep(Choice {
                    bound: bound as u32,
                    guess: guess.code,
                    exact: classes[..win].iter().all(|&c| c <= 2),
                });
            }
        }
        context.counters.scorings.fetch_add(work, Ordering::Relaxed);
        limit
    }

    /// Hands each code of the colour multisets `kept` (each with its floor) that
    /// is not among `secrets`, is tried under `symmetry` and has a bound below
    /// the limit to `keep`, which says the limit from then on, as
    /// [`Exact::each_option`] does; a multiset whose floor reaches the limit is
    /// passed over. Each multiset's codes share the pegs they have in common with
    /// each secret, so the secrets are grouped by that count once per multiset
    /// ([`Codes::by_shared`]); each group's classes are closed when it is done,
    /// and a code stops as soon as the groups done and the floors of the groups to
    /// come (their even splits, as in the multiset's floor) reach the limit. Most
    /// multisets kept have a floor one below the limit and no code that reaches
    /// it, so their codes stop at the first group that splits unevenly. The limit
    /// at the end.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn each_outsider(
        &self,
        context: Context,
        secrets: &Secrets,
        kept: &[(usize, u64)],
        symmetry: Option<&Symmetry>,
        depth: u32,
        mut limit: u32,
        mut keep: impl FnMut(Choice) -> u32,
    ) -> u32 {
        let codes = context.codes;
        let n = secrets.len() as u64;
        let Tables {
            bounds, spreads, ..
        } = self.tables(depth - 1);
        let cost = |c: u32| u64::from(bounds[c as usize]);
        let mut work = 0;
        let mut layout = ByShared::default();
        let mut floors = [0u64; 9];
        for &(id, multiset_floor) in kept {
            if multiset_floor >= u64::from(limit) {
                continue;
            }
            codes.by_shared(id, secrets, &mut layout);
            let mut all_floors = 0;
            for (floor, (shared, size)) in floors.iter_mut().zip(layout.groups()) {
                *floor = spreads.of(shared, size);
                all_floors += *floor;
            }
            for guess in codes.outsiders(id, secrets) {
                if !tried(symmetry, codes, guess.code) {
                    continue;
                }
                let (mut bound, mut pending, mut group) = (n, all_floors, 0);
                let (mut classes, mut exact) = (0, true);
                let within = codes.count_by_shared(guess, &layout, &mut work, |blacks| {
                    for &size in blacks {
                        bound += cost(size);
                        classes += usize::from(size > 0);
                        exact &= size <= 2;
                    }
                    pending -= floors[group];
                    group += 1;
                    bound + pending < u64::from(limit)
                });
                // A code that leaves one class tells nothing: never worth a guess.
                if within && classes > 1 {
                    limit = keep(Choice {
                        bound: bound as u32,
                        guess: guess.code,
                        exact,
                    });
                }
            }
        }
        context.counters.scorings.fetch_add(work, Ordering::Relaxed);
        limit
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
    pub(super) fn outsiders_may_beat(
        &self,
        limit: u32,
        codes: &Codes,
        secrets: &Secrets,
        depth: u32,
    ) -> bool {
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
    pub(super) fn try_options(&self, at: At, options: Vec<Choice>, best: &mut Best) {
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
            if option.bound >= budget() || self.cut(at.context) {
                return;
            }
            let cost = if option.exact {
                Some(option.bound)
            } else {
                self.option_cost(at, option.guess, budget)
            };
            if let Some(cost) = cost {
                if at.node.history.is_empty() {
                    self.found_tree(cost, at.depth, option.guess);
                }
                found.fetch_min(
                    u64::from(cost) * POSITION + position as u64,
                    Ordering::Relaxed,
                );
            }
        };
        // A certificate follows one thread's order (see the proof module).
        if at.node.candidates.len() >= PARALLEL_SECRETS && !self.proving() {
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
    /// the optimum of each class, each with what the budget leaves after the floors
    /// of the classes still to come. Classes are searched smallest first (as
    /// fancidev's exact search does): a small class is cheap to solve exactly, and
    /// its cost, often above its floor, leaves the big classes a tighter budget, so a
    /// guess that cannot win fails on a big class soon, not after the search a loose
    /// budget allowed. Positions searched on one thread, smallest first against
    /// largest first, the same files (2026-11-24, every set keyed canonically): 5x5
    /// 0.15 against 0.93 million, 4x8 0.37 against 1.55 million, 4x6 6.5 against
    /// 18.4 thousand, 5x5 with `--no-symmetry` 0.31 against 1.04 million; 4x7 about
    /// even (0.211 against 0.207 million, with fewer pairs scored smallest first).
    pub(super) fn option_cost(&self, at: At, guess: u32, budget: impl Fn() -> u32) -> Option<u32> {
        let n = at.node.candidates.len() as u32;
        let codes = at.context.codes;
        let (split, _) = codes.split_gathered(codes.guess(guess), at.secrets);
        let parts = split.smallest_first();
        let classes = self.class_floors(at, guess, &parts, budget().checked_sub(n)?)?;
        let floor: u64 = classes.iter().map(|c| u64::from(c.floor())).sum();
        if u64::from(n) + floor >= u64::from(budget()) {
            return None;
        }
        let mut below: Vec<u32> = at.node.history.to_vec();
        below.push(guess);
        let at_root = below.len() == 1;
        let mut total = n;
        // Below the budget, so it fits.
        let mut rest = floor as u32;
        for (class, part) in classes.into_iter().zip(parts.iter()) {
            rest -= class.floor();
            let left = budget().checked_sub(total + rest)?;
            total += match class {
                Class::Settled(cost) => (cost < left).then_some(cost),
                Class::AtLeast(_, looked) => {
                    self.solve(at.context, part, &below, at.depth - 1, left, looked)
                }
            }?;
            // The root's first option, searched with no budget: its classes'
            // guesses are worked out as each is solved (see the subtrees module).
            if at_root && budget() == UNLIMITED {
                self.keep_subtree(at.context, part, &below, at.depth - 1);
            }
        }
        let total = (total < budget()).then_some(total)?;
        // Any other option at the root, once it is the cheapest so far.
        if at_root {
            for part in parts.iter() {
                self.keep_subtree(at.context, part, &below, at.depth - 1);
            }
        }
        Some(total)
    }

    /// What the small set `part` costs with `depth` guesses left, looking one guess
    /// ahead: at least the least of each candidate's own split, with the bound of
    /// each class it leaves, and of what any code outside the set can do. The bounds
    /// alone let a set of n secrets cost 2n - 1, as if some candidate told the others
    /// apart; when none does, this says 2n or more, before the set is searched. When
    /// a candidate that leaves classes of at most two secrets (whose bounds are their
    /// costs) reaches that least, it is the exact cost. It scores the set against
    /// itself (at most n^2 pairs, where searching it scores every code of the board)
    /// and stops at a candidate that reaches the bound.
    ///
    /// The codes outside get the even split over every non-winning answer first
    /// ([`Exact::candidates_look`]); when no candidate beats that, the colour
    /// multisets often raise it ([`Exact::outsiders_raised`]).
    pub(super) fn one_level(&self, context: Context, part: &[u32], depth: u32) -> Known {
        let cheap = self.candidates_look(context, part, depth);
        self.raised_look(context, part, depth, cheap)
    }

    /// [`Exact::one_level`] from its first step's result, `cheap`: raised where the
    /// codes outside capped it (where some candidate reached the cap, no raise of
    /// the outsiders' floor can lift it).
    pub(super) fn raised_look(
        &self,
        context: Context,
        part: &[u32],
        depth: u32,
        cheap: Look,
    ) -> Known {
        let raised = match cheap.capped() {
            true => self.outsiders_raised(context, part, depth, cheap.outsiders),
            false => None,
        };
        let outsiders = raised.unwrap_or(cheap.outsiders);
        Look { outsiders, ..cheap }.known()
    }

    /// [`Exact::one_level`] with the codes outside at the even split of the set
    /// over every non-winning answer: n^2 pairs at most.
    pub(super) fn candidates_look(&self, context: Context, part: &[u32], depth: u32) -> Look {
        let secrets = context.codes.gather(part);
        let mut work = 0;
        let candidates = self.candidates_own(context, part, &secrets, depth, &mut work);
        context.counters.scorings.fetch_add(work, Ordering::Relaxed);
        Look {
            candidates,
            outsiders: self.even_outsiders(part.len(), depth),
        }
    }

    /// What any code outside a set of `n` secrets costs at least with `depth`
    /// guesses left, by the even split over every non-winning answer.
    fn even_outsiders(&self, n: usize, depth: u32) -> u64 {
        let bounds = self.bounds(depth - 1);
        let cost = |c: u32| u64::from(bounds[c as usize]);
        (n as u64).saturating_add(even_split(n as u32, self.answers - 1, cost))
    }

    /// What any code outside `part` costs at least by the least floor of any
    /// colour multiset's codes ([`Codes::least_multiset_floor`], the floor a search
    /// applies before it scores outsiders), if that is above the even split,
    /// `even`; `None` if the multisets do not raise it. Worth it only where the even split
    /// caps the look ([`Look::capped`]). Most of its time is the multisets' scan
    /// (the board's multisets against the set's), so a set the cache knows gets
    /// none ([`Exact::class_floors`]), and a small set whose colour profile the
    /// floor memo holds gets none either (`floor_memo`). With it (7d3f509) the
    /// 5x6 proof searched 0.4 million positions instead of 9.2 million
    /// (BENCHMARKS.md, tuning).
    fn outsiders_raised(
        &self,
        context: Context,
        part: &[u32],
        depth: u32,
        even: u64,
    ) -> Option<u64> {
        let codes = context.codes;
        let n = part.len() as u64;
        let spreads = &self.tables(depth - 1).spreads;
        let secrets = codes.gather(part);
        let profile = codes.profile(&secrets);
        if let Some(raised) = profile.and_then(|p| self.floor_memo.get(depth, even, &p)) {
            return raised;
        }
        let mut work = 0;
        let spread = |shared, size| spreads.of(shared, size);
        let outsiders = n + codes.least_multiset_floor(&secrets, even - n, &mut work, spread);
        context.counters.scorings.fetch_add(work, Ordering::Relaxed);
        let raised = (outsiders > even).then_some(outsiders);
        if let Some(profile) = profile {
            self.floor_memo.put(depth, even, profile, raised);
        }
        raised
    }

    /// What the candidates of `part` (its `secrets`) cost at least, each by its own
    /// split, whatever the codes outside cost: the least, and the least of those
    /// that leave classes of at most two secrets (exact costs). Each candidate is
    /// scored only as long as it can tie the least so far, so the codes outside
    /// need not be known first: a look they cap scores no candidate twice when
    /// the multisets raise their floor (scored again under the raised floor
    /// before: 5x6 on one thread 174.0 s, now 163.3 s, side by side, the same
    /// positions). Adds the pairs scored to `work`.
    ///
    /// Where no class reaches past the next guess (`two_deep`), a candidate
    /// costs by its classes' count alone, so a set of up to twice `two_deep`
    /// secrets has its candidates' answers marked in bit sets first, eight
    /// candidates side by side ([`Codes::candidate_spreads`]; 15% off 5x6 and
    /// a 5x8 item: BENCHMARKS.md, "a small set's candidates scored eight at a
    /// time"), every secret scored: a floor that passes the
    /// least so far drops the candidate, and one whose classes cannot pass
    /// `two_deep` (each class but the biggest holds a secret) is its cost; the
    /// rest are sized as bigger sets' are. At those sizes a candidate almost
    /// never stopped early (on a 5x8 item, sets of 5 to 32 secrets scored about
    /// n^2 pairs a look), and the count's store and test per secret were most of
    /// the look's time (5x6 on one thread 53.6 s before, 42.3 s after, side by
    /// side, the same bytes: BENCHMARKS.md, "small sets' looks count classes by
    /// their answers' bits").
    fn candidates_own(
        &self,
        context: Context,
        part: &[u32],
        secrets: &Secrets,
        depth: u32,
        work: &mut u64,
    ) -> Candidates {
        let codes = context.codes;
        let n = part.len() as u64;
        let Tables {
            bounds,
            steps,
            two_deep,
            ..
        } = self.tables(depth - 1);
        let cost = |c: u32| u64::from(bounds[c as usize]);
        // No guess does better than the bound: a candidate that reaches it settles
        // the set.
        let best_possible = u64::from(self.bound(part.len(), depth));
        // A candidate's split by its class sizes, if it can tie `least`: its cost
        // and whether its classes hold two secrets at most. As in `options`: its
        // own win class counts as one more secret placed (bounds[1]), taken off at
        // the end; a candidate that cannot tie stops early.
        let sized = |guess, least: u64, classes: &mut Classes, work: &mut u64| {
            let mut here = n;
            // Read once, not per secret: the step table's slice and the limit. (A
            // sum of fewer than 2^32 steps of 32 bits cannot overflow.)
            let (steps, most) = (steps.as_slice(), least.saturating_add(cost(1)));
            let complete = codes.count_classes(guess, secrets, classes, work, |size, _| {
                here += u64::from(steps[size as usize]);
                here <= most
            });
            // The widest class, once the count is whole: sizes only grew.
            complete.then(|| (here - cost(1), classes.iter().all(|&c| c <= 2)))
        };
        let (mut least, mut settled) = (u64::MAX, u64::MAX);
        let counted = part.len() <= 2 * two_deep;
        let mut classes = [0u32; CLASS_SLOTS];
        let mut spreads = Spreads::default();
        'blocks: for (block, guesses) in part.chunks(SPREAD_LANES).enumerate() {
            if counted {
                codes.candidate_spreads(secrets, block * SPREAD_LANES, &mut spreads);
            }
            for (lane, &guess) in guesses.iter().enumerate() {
                let guess = codes.guess(guess);
                let own = match counted {
                    true => {
                        let spread = spreads.get(lane);
                        *work += n;
                        // Every class of c secrets costs at least 2c - 1 (one won
                        // by the next guess, the rest later), so the split at least
                        // n + 2(n - 1) less the classes but the win's, exactly that
                        // where no class can pass `two_deep`: each class but the
                        // biggest holds a secret at least.
                        let answers = u64::from(spread.once.count_ones());
                        let floor = 3 * n - 1 - answers;
                        if floor > least {
                            continue;
                        }
                        match n + 1 - answers <= *two_deep as u64 {
                            true => Some((floor, spread.thrice == 0)),
                            false => sized(guess, least, &mut classes, work),
                        }
                    }
                    false => sized(guess, least, &mut classes, work),
                };
                let Some((here, at_most_two)) = own else {
                    continue;
                };
                least = least.min(here);
                if at_most_two {
                    settled = settled.min(here);
                    if settled == best_possible {
                        break 'blocks;
                    }
                }
            }
        }
        Candidates { least, settled }
    }

    /// What each class of `parts` (the classes `guess` leaves at `at`) costs at
    /// least, as far as the bounds, a look one guess ahead, a big class's look
    /// two guesses ahead ([`LOOK_TWO_FROM`]) and the cache know; `None` as soon
    /// as the floors reach `limit` (then the classes left are not looked at: most
    /// options a node scores fail here).
    ///
    /// The looks two guesses ahead come last, once every class has its own floor,
    /// each capped at what its class must cost for the floors to reach the limit,
    /// the largest class first: a look that reaches its cap stops early and sinks
    /// the guess, one that cannot must find its least, and it is the dear kind (on
    /// within-7's class of 1,109 secrets, item 211, 3,126 looks that reached their
    /// caps took 18 s, 6,254 that did not 175 s). Taken class by class before,
    /// smallest first, a look's cap left out the bigger classes' own looks: that
    /// item took 360.6 s; after every class's own look 233.0 s smallest first and
    /// 124.4 s largest first; the class of 902 secrets (item 210) 143.3, 128.9
    /// and 100.0 s; 5x6's proof 82.7, 79.6 and 56.7 s (the last two pairs side by
    /// side with each other), the same bytes (BENCHMARKS.md, "a look two ahead
    /// after every class's own look, the largest class first").
    ///
    /// A set of at most [`LOOK_FIRST_UP_TO`] secrets gets the first step of a look
    /// one guess ahead ([`Exact::candidates_look`]) before the cache: it often
    /// settles the set's cost, and then the set is neither keyed nor looked up (a
    /// hash table's miss in memory, the cost of dozens of pairs scored). A small set
    /// the cache knows nothing of (and any class of a first guess) gets the whole
    /// look ([`Exact::one_level`], its dearer second step included) after, and the
    /// cache keeps what it found when it beats the bound, so a set met again (it
    /// often is: the same class comes from many guesses) is not scored again. So a
    /// lower bound in the cache for a small set stands for its one-level floor too
    /// (a bound cached by a failed search is at least the budget it failed under,
    /// and budgets start above the floors; only a search from outside a node, such
    /// as a work item's, may have had less, which leaves a weaker floor, never a
    /// wrong one).
    ///
    /// Two other places for the second step were measured (one thread, 2026-11-25):
    /// before the cache too, the same positions, 4x8 in 4.85 s against 4.34 s and
    /// 5x6 about even (245.3 s against 247.0 s); only for the classes of options
    /// the other floors left standing, 4x8 in 3.85 s but 5x6 in 251.5 s against
    /// 241.9 s for the step before the cache (8% more positions: fewer raised
    /// floors were cached).
    pub(super) fn class_floors<'p>(
        &self,
        at: At,
        guess: u32,
        parts: &[&'p [u32]],
        limit: u32,
    ) -> Option<[Class<'p>; MAX_ANSWERS]> {
        let mut classes: [Class; MAX_ANSWERS] = std::array::from_fn(|_| Class::AtLeast(0, None));
        let depth_of = |part: &[u32]| (at.depth - 1).min(part.len() as u32);
        let first_guess = at.node.history.is_empty();
        let codes = at.context.codes;
        for (class, part) in classes.iter_mut().zip(parts) {
            *class = Class::AtLeast(self.bound(part.len(), depth_of(part)), None);
        }
        let mut sum: u64 = classes.iter().map(|c| u64::from(c.floor())).sum();
        // The classes the cache knew nothing of, for the looks two guesses ahead.
        let mut fresh = [false; MAX_ANSWERS];
        for ((class, part), fresh) in classes.iter_mut().zip(parts).zip(fresh.iter_mut()) {
            let (depth, bound) = (depth_of(part), class.floor());
            if part.len() <= 2 || bound == UNLIMITED {
                continue;
            }
            let ahead = (part.len() <= LOOK_FIRST_UP_TO)
                .then(|| self.candidates_look(at.context, part, depth));
            // A look's floor needs no fact in a certificate: a checker looks too.
            *class = if let Some(Known::Exact(cost)) = ahead.map(|look| look.known()) {
                Class::Settled(cost)
            } else {
                let (key, mut known) = self.lookup(codes, part, depth);
                *fresh = known.is_none();
                if *fresh && (part.len() <= ONE_LEVEL_UP_TO || first_guess) {
                    let cheap =
                        ahead.unwrap_or_else(|| self.candidates_look(at.context, part, depth));
                    let found = self.raised_look(at.context, part, depth, cheap);
                    if matches!(found, Known::Exact(_))
                        || self.least_cost(part.len(), depth, Some(found)) > bound
                    {
                        known = Some(found);
                        self.remember(depth, key.clone(), found, NO_RECORD);
                    }
                }
                if self.least_cost(part.len(), depth, known) > bound {
                    self.depend_on_cached(codes, part, depth, &key);
                }
                Class::of(self.least_cost(part.len(), depth, known), key, known)
            };
            sum += u64::from(class.floor() - bound);
            if sum >= u64::from(limit) {
                return None;
            }
        }
        // A big class gets its look two guesses ahead, as far as what it must cost
        // for the floors to reach the limit, when its floor so far leaves the
        // guess in the running: after every class's own look, so that each look
        // two ahead is capped by all of them (a look that reaches its cap is cheap
        // and sinks the guess; one that does not must find its least), the
        // largest class first. Not under what is left of no budget (a first
        // option's, far above any total), where no floor can cut and a big
        // class's whole look is dear.
        let looked = classes[..parts.len()].iter_mut().zip(parts);
        for ((class, part), &fresh) in looked.zip(&fresh[..parts.len()]).rev() {
            let Class::AtLeast(floor, Some((key, known))) = class else {
                continue;
            };
            let room = (u64::from(limit) + u64::from(*floor)).saturating_sub(sum);
            if !fresh
                || part.len() < self.look_two_from
                || u64::from(*floor) >= room
                || room >= u64::from(UNLIMITED / 2)
            {
                continue;
            }
            let depth = depth_of(part);
            let mut history = at.node.history.to_vec();
            history.push(guess);
            let node = Node {
                candidates: part,
                history: &history,
            };
            let two = self.class_look_two(at.context, node, depth, room as u32, key, *known);
            let raised = self.least_cost(part.len(), depth, two);
            if raised == *floor {
                continue;
            }
            self.depend_on_cached(codes, part, depth, key);
            sum += u64::from(raised - *floor);
            *class = Class::of(raised, key.clone(), two);
            if sum >= u64::from(limit) {
                return None;
            }
        }
        Some(classes)
    }

    /// What `node`, a class with `depth` guesses left, costs at least looking two
    /// guesses ahead ([`Exact::look_two_checkable`]), or `cap` if that is less,
    /// when that beats `known` (what the cache and a look one guess ahead
    /// found): then the cache keeps it under `key`, with the fact that proves it.
    fn class_look_two(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        cap: u32,
        key: &[u32],
        known: Option<Known>,
    ) -> Option<Known> {
        let n = node.candidates.len();
        let two = self.look_two_checkable(context, node, depth, cap);
        if two <= self.least_cost(n, depth, known) {
            return known;
        }
        let symmetry = context.symmetry_at(&node);
        let s = symmetry.as_ref();
        let record = self.prove(context, node.candidates, depth, two, s, Basis::Looks);
        if self.proving() && record == NO_RECORD {
            // Cut short: a floor with no fact must not be cached in a proof.
            return known;
        }
        self.remember(depth, Cow::Borrowed(key), Known::AtLeast(two), record);
        Some(Known::AtLeast(two))
    }
}

/// What the candidates of a set cost at least ([`Exact::candidates_own`]).
#[derive(Clone, Copy)]
struct Candidates {
    /// The least of their own splits.
    least: u64,
    /// The least of those that leave classes of at most two secrets: exact costs.
    settled: u64,
}

/// What a look one guess ahead found of a set: its candidates, and a floor of
/// what any code outside it costs.
#[derive(Clone, Copy)]
pub(super) struct Look {
    candidates: Candidates,
    outsiders: u64,
}

impl Look {
    /// The least a guess costs: exact when a candidate whose classes hold at most
    /// two secrets reaches it.
    pub(super) fn known(&self) -> Known {
        let least = self.candidates.least.min(self.outsiders);
        let least = u32::try_from(least).unwrap_or(UNLIMITED);
        match u64::from(least) == self.candidates.settled {
            true => Known::Exact(least),
            false => Known::AtLeast(least),
        }
    }

    /// No candidate reached the floor of the codes outside: it is the look's floor,
    /// and a higher one raises it.
    fn capped(&self) -> bool {
        self.candidates.least > self.outsiders
    }
}

/// What is known of one class of an option before it is searched.
pub(super) enum Class<'p> {
    /// Its exact cost, from a look one guess ahead (no cache entry needed).
    Settled(u32),
    /// A floor, and the cache entry looked up to know it (none where the bound
    /// alone says it).
    AtLeast(u32, Option<Lookup<'p>>),
}

impl<'p> Class<'p> {
    /// A class whose floor is `floor`, as the cache entry under `key` (what it
    /// knows, `known`) says: settled where that is exact.
    fn of(floor: u32, key: Cow<'p, [u32]>, known: Option<Known>) -> Class<'p> {
        match known {
            Some(Known::Exact(cost)) => Class::Settled(cost),
            _ => Class::AtLeast(floor, Some((key, known))),
        }
    }

    /// The least the class costs.
    fn floor(&self) -> u32 {
        match *self {
            Class::Settled(cost) | Class::AtLeast(cost, _) => cost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::search_context;
    use super::*;
    use crate::Counters;
    use lookup::Board;

    /// The look's candidates against the plain count: every candidate's whole
    /// split, no early stop. What a look knows (for any floor of the codes
    /// outside) must be the same: the least of the floor and every candidate's
    /// cost, exact where a candidate whose classes hold at most two secrets
    /// costs that least.
    #[test]
    fn the_candidates_look_is_the_least_of_every_candidates_whole_split() {
        let board = Board::new(4, 4, true).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        let context = search_context(&codes, &counters, false);
        let exact = Exact::new(board, None, false);
        let win = lookup::score::answer_count(4) - 1;
        let (mut compared, mut exact_ones, mut capped) = (0, 0, 0);
        // Sets the look counts the classes of (up to one more than the largest
        // class of bound 2c - 1, 14 here with 2 guesses or more left: 13
        // non-winning answers) and sets it sizes them in.
        let (mut counted, mut sized) = (0, 0);
        let all: Vec<u32> = (0..codes.len()).collect();
        for first in [0, 5, 27] {
            for (_, part) in codes.split(first, &all).0.iter() {
                let firsts = std::iter::once(part.to_vec());
                let seconds = (0..codes.len()).step_by(23).flat_map(|second| {
                    let (parts, _) = codes.split(second, part);
                    parts
                        .iter()
                        .map(|(_, set)| set.to_vec())
                        .collect::<Vec<_>>()
                });
                for set in firsts.chain(seconds) {
                    let set = &set;
                    if set.len() < 3 {
                        continue;
                    }
                    for depth in [2, 3, 4, UNLIMITED] {
                        let two_deep = exact.tables(depth - 1).two_deep;
                        match set.len() <= 2 * two_deep {
                            true => counted += 1,
                            false => sized += 1,
                        }
                        let bounds = exact.bounds(depth - 1);
                        let n = set.len() as u64;
                        let (mut least, mut settled) = (u64::MAX, u64::MAX);
                        for &guess in set.iter() {
                            let classes = codes.classes(guess, set);
                            let cost = n
                                + (classes.iter().enumerate())
                                    .filter(|&(answer, _)| answer != win)
                                    .map(|(_, &size)| u64::from(bounds[size as usize]))
                                    .sum::<u64>();
                            least = least.min(cost);
                            if classes.iter().all(|&size| size <= 2) {
                                settled = settled.min(cost);
                            }
                        }
                        let secrets = codes.gather(set);
                        let mut work = 0;
                        let candidates =
                            exact.candidates_own(context, set, &secrets, depth, &mut work);
                        assert_eq!(candidates.least, least, "{set:?} depth {depth}");
                        for outsiders in [0, least - 1, least, least + 1, u64::MAX] {
                            let look = Look {
                                candidates,
                                outsiders,
                            };
                            let floor = least.min(outsiders);
                            let floor = u32::try_from(floor).unwrap_or(UNLIMITED);
                            let expected = match u64::from(floor) == settled {
                                true => Known::Exact(floor),
                                false => Known::AtLeast(floor),
                            };
                            assert_eq!(look.known(), expected, "{set:?} {outsiders}");
                            assert_eq!(look.capped(), least > outsiders);
                            exact_ones += usize::from(matches!(expected, Known::Exact(_)));
                            capped += usize::from(look.capped());
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 1000 && exact_ones > 100 && capped > 100);
        assert!(
            counted > 100 && sized > 100,
            "{counted} counted, {sized} sized"
        );
    }
}
