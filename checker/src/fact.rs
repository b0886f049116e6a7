//! Checking one fact: "the set S, with at most d guesses left, needs at least b
//! guesses in total", by trying every guess the rules allow at S.
//!
//! A strategy for S plays some guess g first: every secret of S costs that guess,
//! and each class of S by g's answers (but the win) is then a smaller problem with
//! one guess fewer. So S costs at least |S| plus the least each class can cost, and
//! the fact holds if that sum reaches b for every g. A class's least is the bound
//! its size proves (`bounds`), or an earlier fact the certificate names for it,
//! whose set is rebuilt here and must equal the class exactly. What lets the check
//! skip guesses, each sound by the argument beside it:
//! - a guess outside S that leaves all of S in one class changes nothing, and a
//!   strategy that plays it costs more than one that does not;
//! - a guess outside S whose colours share `k` pegs with a secret gets one of
//!   `capacity(k)` answers from it, whatever their order: a floor for every code
//!   of those colours at once (`even_split` per group of secrets);
//! - guesses related by a relabelling that maps S onto itself cost the same; so do
//!   guesses that differ only in colours no secret of S has, since they get the
//!   same answer from every secret. Such guesses are reduced to one of their kind
//!   and that one is checked; each relabelling used is checked on S first.

use crate::bounds::{capacity, deeper, even_split, least_total, Depth, INFINITE};
use crate::game::{Board, Code, Relabel, LANES};
use crate::pegs::PegBits;
use crate::read::{Fact, Head, InFile};
use crate::shares::{Block, Tally, BLOCK};
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// How a guess splits a set: the set's size plus the size bounds of its classes
/// (the win's excluded), and whether it makes progress (some secret is won, or
/// the set falls into two classes or more).
struct Split {
    cost: u64,
    progress: bool,
}

/// The facts before the one being checked, as the facts that use them need them:
/// read again from the certificate ([`InFile`]), or, in tests, held.
pub trait Kept: Sync {
    /// The head of fact `number`.
    fn head(&self, number: u64, board: &Board) -> Result<Head, String>;
}

impl Kept for InFile {
    fn head(&self, number: u64, board: &Board) -> Result<Head, String> {
        InFile::head(self, number, board).map_err(|e| e.to_string())
    }
}

/// The codes of one colour multiset.
struct Multiset {
    /// (colour, how many) for each colour it has.
    colors: Vec<(u8, u8)>,
    /// How many of each colour it has (0 for the others).
    counts: [u8; 16],
    /// The colours it has, a bit each.
    colors_mask: u16,
    codes: Vec<u32>,
}

impl Multiset {
    /// The pegs a code of this multiset shares with a code of colour `counts`
    /// (blacks plus whites), over all 16 colours at once (those it lacks add 0):
    /// one vector instruction or two.
    fn shared(&self, counts: &[u8; 16]) -> usize {
        let pairs = self.counts.iter().zip(counts);
        usize::from(pairs.map(|(&m, &c)| m.min(c)).sum::<u8>())
    }
}

/// Everything a check needs about the board, made once.
pub struct Checker {
    pub board: Board,
    candidates_only: bool,
    multisets: Vec<Multiset>,
    /// The multisets, those of the most colours first (they split a set most
    /// evenly, so a look finds its least among them soonest), in blocks side by
    /// side ([`Block`]).
    blocks: Vec<Block>,
    /// `totals[d][n]`: [`least_total`] of n secrets (up to one past the codes) with d guesses left; the last
    /// row is also every deeper limit's and no limit's (its levels hold every code).
    totals: Vec<Vec<u64>>,
    /// `spreads[d][k * (codes + 1) + n]`: the even split of n secrets sharing k pegs
    /// with a guess outside their set over the answers they can give it, with d
    /// guesses left after it (rows as in `totals`).
    spreads: Vec<Vec<u64>>,
    /// Looks one guess ahead made lately, by (set, depth): a class met again (it
    /// often is, as a class of many guesses) is not looked at twice, unless its own
    /// secrets settle it at less cost than a lookup ([`OWN_FIRST`]). The set is the
    /// key as it is: a key shared by its images (a relabelling chosen from the
    /// set's counts) found a few more looks kept but cost more than they saved
    /// (BENCHMARKS.md). Facts are checked on several threads, which share the
    /// looks in shards by hash, each under its own lock: what a look gives does
    /// not depend on which thread made it first.
    looks: Vec<Mutex<Looks>>,
}

/// A shard of [`Checker::looks`]: the looks it keeps, and a bit set for each
/// one's hash. Most lookups find nothing, and a lookup in a million looks
/// missed the cache twice (the table's tags, then its slot); the bits, 16 KiB a
/// shard, mostly stay in the cache, so a look whose bit is clear is not there
/// and its slot is never read.
#[derive(Default)]
struct Looks {
    kept: HashMap<(Vec<u32>, Depth), u64, Quick>,
    /// [`FILTER_BITS`] bits (made with the first look kept): bit `hash >> (64 -
    /// FILTER_LOG)` of each look kept, the top bits of its hash (a look's
    /// shard is picked by the bottom ones).
    bits: Vec<u64>,
}

impl Looks {
    /// The bit of a look whose hash is `hash`: its word and its mask.
    fn bit(hash: u64) -> (usize, u64) {
        let at = (hash >> (64 - FILTER_LOG)) as usize;
        (at / 64, 1 << (at % 64))
    }

    /// The look kept with `id`, whose hash is `hash`, if it is.
    fn get(&self, id: &(Vec<u32>, Depth), hash: u64) -> Option<u64> {
        let (word, mask) = Looks::bit(hash);
        let set = self.bits.get(word).is_some_and(|&bits| bits & mask != 0);
        set.then(|| self.kept.get(id).copied()).flatten()
    }

    /// Keeps `least` for `id`, whose hash is `hash`, starting again when full.
    fn keep(&mut self, id: (Vec<u32>, Depth), hash: u64, least: u64) {
        if self.kept.len() >= LOOKS_KEPT {
            self.kept.clear();
            self.bits.fill(0);
        }
        self.bits.resize(FILTER_BITS / 64, 0);
        let (word, mask) = Looks::bit(hash);
        self.bits[word] |= mask;
        self.kept.insert(id, least);
    }
}

/// A look one guess ahead ([`Checker::begin_look`]): done, or begun with its own
/// secrets' least and the even split, the multisets' scan still to come.
enum Look {
    Done(u64),
    Begun {
        own: u64,
        even: u64,
        id: (Vec<u32>, Depth),
    },
}

impl Look {
    /// What the look says at least so far: the multisets' floors are at least the
    /// even split, so the finished look is at least the lesser of the two.
    fn floor(&self) -> u64 {
        match self {
            Look::Done(least) => *least,
            Look::Begun { own, even, .. } => (*own).min(*even),
        }
    }

    /// The most finishing the look can add to its floor: a finished look is at
    /// most its own secrets' least.
    fn most_added(&self) -> u64 {
        match self {
            Look::Done(_) => 0,
            Look::Begun { own, even, .. } => own.saturating_sub(*even),
        }
    }
}

/// How many shards [`Checker::looks`] has, and how many looks each keeps before
/// it starts again.
const LOOK_SHARDS: usize = 64;
const LOOKS_KEPT: usize = (1 << 20) / LOOK_SHARDS;

/// The bits of a shard's [`Looks::bits`]: eight a look kept, so that about one
/// lookup in nine of a look not kept reads the table.
const FILTER_LOG: u32 = 17;
const FILTER_BITS: usize = 1 << FILTER_LOG;
const _: () = assert!(FILTER_BITS >= 8 * LOOKS_KEPT);

/// How many secrets [`Checker::split`] scores between looks at its cap.
const SPLIT_CHUNK: usize = 128;

/// The most secrets a set has whose look scores its own secrets before it looks
/// for the set in [`Checker::looks`]: most lookups miss (15% found on a 5x8
/// part), each a cache miss or two, and with the answers counted eight guesses
/// side by side a set of 16 is scored sooner. Item 1618's part, side by side:
/// 39.65 and 41.31 s with 8, 33.96 and 36.33 s with 16; 24 against 16 34.42 and
/// 37.97 s against 35.33 and 38.11, within the noise (BENCHMARKS.md).
const OWN_FIRST: usize = 16;

/// What is known of sets by the facts a fact uses: set -> (depth, bound) pairs.
type Known = HashMap<Vec<u32>, Vec<(Depth, u64)>, Quick>;

/// A hash for the checker's own tables of sets (no input from outside picks its
/// keys' hashes): a multiply-and-rotate over 8 bytes at a time, several times
/// quicker than the standard library's keyed hash on these keys.
#[derive(Default)]
struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Quick = std::hash::BuildHasherDefault<QuickHasher>;

/// The deepest limit a fact about `n` secrets needs to say: `n` guesses always
/// suffice for a strategy that makes progress at each guess (every such guess
/// leaves fewer secrets), so a limit of `n` or more is no limit.
fn normal(depth: Depth, n: usize) -> Depth {
    depth.filter(|&d| (d as usize) < n)
}

impl Checker {
    pub fn new(board: Board, candidates_only: bool) -> Checker {
        let mut by_counts: HashMap<[u8; 16], u32> = HashMap::new();
        let mut multisets: Vec<Multiset> = Vec::new();
        for (number, counts) in board.counts.iter().enumerate() {
            let id = *by_counts.entry(*counts).or_insert_with(|| {
                let colors = (0..16u8)
                    .filter(|&c| counts[usize::from(c)] > 0)
                    .map(|c| (c, counts[usize::from(c)]))
                    .collect();
                multisets.push(Multiset {
                    colors_mask: (0..16)
                        .filter(|&c| counts[c] > 0)
                        .fold(0, |m, c| m | 1 << c),
                    colors,
                    counts: *counts,
                    codes: Vec::new(),
                });
                multisets.len() as u32 - 1
            });
            multisets[id as usize].codes.push(number as u32);
        }
        let answers = board.answers();
        let all = board.codes.len();
        let full = (0..).find(|&d| least_total(all as u64, answers, Some(d)) != INFINITE);
        let totals: Vec<Vec<u64>> = (0..=full.unwrap_or(0))
            .map(|d| {
                (0..=all as u64 + 1)
                    .map(|n| least_total(n, answers, Some(d)))
                    .collect()
            })
            .collect();
        let pegs = board.pegs;
        let spreads = (totals.iter())
            .map(|row| {
                let cost = |size: u64| row[size as usize];
                let split = move |(k, n)| even_split(n, capacity(pegs, k), cost);
                let cells = (0..=pegs).flat_map(|k| (0..=all as u64).map(move |n| (k, n)));
                cells.map(split).collect()
            })
            .collect();
        let mut most_colors_first: Vec<usize> = (0..multisets.len()).collect();
        most_colors_first.sort_by_key(|&id| std::cmp::Reverse(multisets[id].colors.len()));
        let blocks = (most_colors_first.chunks(BLOCK))
            .map(|ids| Block::new(ids, |id| multisets[id].counts))
            .collect();
        Checker {
            blocks,
            totals,
            spreads,
            board,
            candidates_only,
            multisets,
            looks: (0..LOOK_SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    /// The tables' row for `depth`.
    fn row(&self, depth: Depth) -> usize {
        let last = self.totals.len() - 1;
        depth.map_or(last, |d| (d as usize).min(last))
    }

    /// [`least_total`] of `n` secrets, from the tables.
    fn least(&self, n: usize, depth: Depth) -> u64 {
        self.totals[self.row(depth)][n]
    }

    /// How the guess `g` splits `set` with `below` guesses left after it; `heard`
    /// gets each secret's answer, in the order of `set`. Once the cost reaches
    /// `cap`, the rest of the set may go unscored: the cost so far is a floor of
    /// the whole split's (each secret only adds to it), and at least `cap`.
    fn split(
        &self,
        g: u32,
        set: &[u32],
        below: Depth,
        cap: u64,
        mut heard: impl FnMut(usize),
    ) -> Split {
        let row = &self.totals[self.row(below)];
        let (win, slots) = (self.board.win(), self.board.slots());
        let mut sizes = [0u32; 81];
        let n = set.len() as u64;
        let mut cost = n;
        for chunk in set.chunks(SPLIT_CHUNK) {
            if cost >= cap {
                break;
            }
            self.board.for_each_answer(g, chunk, |a| {
                heard(a);
                sizes[a] += 1;
            });
            // The set's size plus each class's bound by its size so far (the win's
            // left out), or infinite.
            let classes = (0..slots).filter(|&a| a != win);
            cost = classes.fold(n, |sum, a| sum.saturating_add(row[sizes[a] as usize]));
        }
        let classes = (0..slots).filter(|&a| a != win && sizes[a] > 0).count();
        Split {
            cost,
            progress: sizes[win] > 0 || classes > 1,
        }
    }

    /// A look one guess ahead at `set` with `depth` guesses left, begun: the least
    /// over its own secrets, each by the size bounds of its classes, and the even
    /// split of the set over every answer but the win, which every colour
    /// multiset's floor reaches; or the whole look, when that is all of it (a
    /// look made lately, a least no floor can lower). [`Checker::finish_look`]
    /// ends it.
    fn begin_look(&self, set: &[u32], depth: Depth) -> Look {
        let depth = normal(depth, set.len());
        let n = set.len() as u64;
        let least_possible = self.least(set.len(), depth);
        if set.len() <= 2 || least_possible == INFINITE {
            return Look::Done(least_possible);
        }
        let below = deeper(depth);
        // Every class costs at least 2c - 1 for its c secrets (one won by the next
        // guess at best, the rest by the one after), so a secret's split costs at
        // least n + 2(n - 1) minus its classes but the win's: 3n - 1 less the
        // answers it gets. That is its cost where every class costs just that, as
        // classes of up to `two_deep` secrets do; its largest class has at most
        // n + 1 - answers (every other answer has a secret). Only a secret whose
        // floor is below the least so far and whose classes may be larger is split.
        let two_deep = (1..set.len())
            .take_while(|&c| self.least(c, below) == 2 * c as u64 - 1)
            .count() as u64;
        let own_least = || {
            let mut own = INFINITE;
            let mut answers = [0; LANES];
            for guesses in set.chunks(LANES) {
                self.board.answer_counts(guesses, set, &mut answers);
                for (&g, &answers) in guesses.iter().zip(&answers) {
                    let floor = 3 * n - 1 - answers;
                    if floor >= own {
                        continue;
                    }
                    let cost = match n + 1 - answers <= two_deep {
                        true => floor,
                        false => self.split(g, set, below, own, |_| {}).cost,
                    };
                    own = own.min(cost);
                    if own == least_possible {
                        return own;
                    }
                }
            }
            own
        };
        let answers = self.board.answers() as u64 - 1;
        let even = n.saturating_add(even_split(n, answers, |size| {
            self.least(size as usize, below)
        }));
        let settles = |own: u64| self.candidates_only || own <= even;
        // A small set's own secrets are scored sooner than its key is looked up,
        // and mostly settle its look: only a look they leave begun is kept.
        let small = (set.len() <= OWN_FIRST).then(own_least);
        if let Some(own) = small.filter(|&own| settles(own)) {
            return Look::Done(own);
        }
        let id = (set.to_vec(), depth);
        if let Some(known) = self.kept_look(&id) {
            return Look::Done(known);
        }
        let own = small.unwrap_or_else(own_least);
        if settles(own) {
            self.keep_look(id, own);
            return Look::Done(own);
        }
        Look::Begun { own, even, id }
    }

    /// The least the set of `look` costs: its own secrets' least, lowered by every
    /// colour multiset's floor (which bounds each code of those colours outside
    /// the set; a multiset with no such code only lowers the least). Every guess
    /// is one of these, so no strategy costs less.
    fn finish_look(&self, look: Look, set: &[u32]) -> u64 {
        let Look::Begun { own, even, id } = look else {
            return look.floor();
        };
        let below = deeper(id.1);
        let mut least = own;
        let counts = self.by_colors(set);
        let (_, past) = self.dead(set);
        let n = set.len() as u64;
        // A block's multisets tallied side by side where each group's count fits
        // its share of a word, else one by one.
        let width = u64::from(u64::BITS - n.leading_zeros());
        let side_by_side = (self.board.pegs as u64 + 1) * width <= 64;
        let mut tally = Tally::default();
        'blocks: for block in &self.blocks {
            if side_by_side {
                block.tally(&counts, width, &mut tally);
            }
            for (&m, &tally) in block.ids.iter().zip(&tally.0) {
                if self.multisets[m].colors_mask & past != 0 {
                    continue;
                }
                let floor = match side_by_side {
                    true => self.floor_of_groups(n, below, |shared| {
                        (tally >> (width * shared as u64)) & ((1 << width) - 1)
                    }),
                    false => self.multiset_floor(&self.multisets[m], &counts, below),
                };
                least = least.min(floor);
                // No floor is below the even split: once one is that low, so is
                // the least.
                if least <= even {
                    break 'blocks;
                }
            }
        }
        self.keep_look(id, least);
        least
    }

    /// The hash of `id` and the shard of [`Checker::looks`] that holds looks at
    /// it, locked.
    fn looks_shard(&self, id: &(Vec<u32>, Depth)) -> (u64, std::sync::MutexGuard<'_, Looks>) {
        let hash = Quick::default().hash_one(id);
        let shard = &self.looks[hash as usize % LOOK_SHARDS];
        (hash, shard.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The finished look kept at `id`, if it is.
    fn kept_look(&self, id: &(Vec<u32>, Depth)) -> Option<u64> {
        let (hash, looks) = self.looks_shard(id);
        looks.get(id, hash)
    }

    /// Keeps a finished look at `id` (a shard that is full starts again).
    fn keep_look(&self, id: (Vec<u32>, Depth), least: u64) {
        let (hash, mut looks) = self.looks_shard(&id);
        looks.keep(id, hash, least);
    }

    /// The colours no secret of `set` has, and those of them past the first (with
    /// repeats) or the first `pegs` (without), as two masks. A multiset with none
    /// of the latter stands for every multiset with its other colours (dead
    /// colours share no peg with the set: the same floor over it), and every code
    /// of those reduces to one of its codes.
    fn dead(&self, set: &[u32]) -> (u16, u16) {
        let mut alive = 0u16;
        for &s in set {
            for &c in &self.board.codes[s as usize][..self.board.pegs] {
                alive |= 1 << c;
            }
        }
        let dead = !alive & ((1u32 << self.board.colors) - 1) as u16;
        let kept = if self.board.repeat {
            1
        } else {
            self.board.pegs
        };
        // Clearing the lowest set bit `kept` times leaves the colours past them.
        let past = (0..kept).fold(dead, |mask, _| mask & mask.wrapping_sub(1));
        (dead, past)
    }

    /// The secrets of `set` by their colour counts: (counts, how many secrets).
    fn by_colors(&self, set: &[u32]) -> Vec<([u8; 16], u64)> {
        let mut counts: Vec<[u8; 16]> =
            set.iter().map(|&s| self.board.counts[s as usize]).collect();
        counts.sort_unstable();
        let mut grouped: Vec<([u8; 16], u64)> = Vec::new();
        for c in counts {
            match grouped.last_mut() {
                Some((last, k)) if *last == c => *k += 1,
                _ => grouped.push((c, 1)),
            }
        }
        grouped
    }

    /// The least any code of `multiset` outside a set of secrets (grouped by their
    /// colour counts, [`Checker::by_colors`]) costs, with `below` guesses left after
    /// it: the secrets grouped by the pegs they share with its colours (every code
    /// of those colours shares as many), each group split as evenly as its answers
    /// allow.
    fn multiset_floor(
        &self,
        multiset: &Multiset,
        secrets: &[([u8; 16], u64)],
        below: Depth,
    ) -> u64 {
        let mut groups = [0u64; 9];
        let mut n = 0;
        for (counts, k) in secrets {
            groups[multiset.shared(counts)] += k;
            n += k;
        }
        self.floor_of_groups(n, below, |shared| groups[shared])
    }

    /// The floor of a code outside a set of `n` secrets, `group(k)` of which
    /// share `k` pegs with it, with `below` guesses left after it: each group
    /// split as evenly as its answers allow.
    fn floor_of_groups(&self, n: u64, below: Depth, group: impl Fn(usize) -> u64) -> u64 {
        (0..=self.board.pegs).fold(n, |sum, shared| {
            sum.saturating_add(self.spread(shared, group(shared) as usize, below))
        })
    }

    /// The even split of `n` secrets that share `shared` pegs with a guess
    /// outside their set over the answers they can give it, with `below` guesses
    /// left after it.
    fn spread(&self, shared: usize, n: usize, below: Depth) -> u64 {
        let width = self.board.codes.len() + 1;
        self.spreads[self.row(below)][shared * width + n]
    }

    /// Checks `fact`, number `number` of the certificate, from the facts before
    /// it, `kept`; it uses no later one, so facts can be checked in any order, on
    /// any thread, once those before them are kept.
    pub fn holds(&self, fact: &Fact, number: u64, kept: &impl Kept) -> Result<(), String> {
        let set = &fact.set[..];
        let n = set.len();
        let depth = normal(fact.depth, n);
        let bound = fact.bound.unwrap_or(INFINITE);
        // Everything the fact names is checked, even where its size alone proves it.
        let known = self.uses(fact, number, kept)?;
        let mut check = Check::new(self, fact, depth, bound, known)?;
        if self.least(n, depth) < bound {
            check.run()?;
        }
        Ok(())
    }

    /// The sets of the earlier facts `fact` uses, rebuilt, with what they prove.
    fn uses(&self, fact: &Fact, number: u64, kept: &impl Kept) -> Result<Known, String> {
        let mut known = Known::default();
        for &(back, map) in &fact.uses {
            let earlier = number
                .checked_sub(back)
                .filter(|_| back > 0)
                .ok_or("it uses a fact that does not come before it")?;
            let used = kept.head(earlier, &self.board)?;
            let mut set = used.set;
            if let Some(map) = map {
                if let Some(key) = used.key {
                    set = key
                        .image(&self.board, &set)
                        .ok_or("a relabelling leaves the board")?;
                }
                set = map
                    .image(&self.board, &set)
                    .ok_or("a relabelling leaves the board")?;
            }
            let depth = normal(used.depth, set.len());
            let bound = used.bound.unwrap_or(INFINITE);
            known.entry(set).or_default().push((depth, bound));
        }
        Ok(known)
    }
}

/// One fact being checked.
struct Check<'a> {
    checker: &'a Checker,
    set: &'a [u32],
    inside: Vec<bool>,
    /// The classes' depth limit.
    below: Depth,
    bound: u64,
    /// The most a strategy within the fact's depth limit can cost: that many
    /// guesses for every secret. A floor above it leaves no strategy at all.
    most: Option<u64>,
    known: Known,
    /// The sizes of the sets in `known`, ascending.
    sizes: Vec<usize>,
    maps: &'a [Relabel],
    free: &'a [u8],
    dead: Vec<u8>,
    /// The colours of `free` and `dead`, a bit each (a tidy guess tests each peg's).
    free_mask: u16,
    dead_mask: u16,
    /// The colours no reduced guess has: the dead ones past those kept
    /// ([`Checker::dead`]) and the free ones past the first `pegs`.
    unused: u16,
    /// Secrets by colour counts, for the multisets' floors.
    counts: Vec<([u8; 16], u64)>,
    floors: Vec<Option<u64>>,
    /// Room for the answers of a guess: of the set's secrets in their order
    /// ([`Check::reaches`]), or in `grouped`'s ([`Check::groups_reach`]).
    answers: Vec<u8>,
    /// Room for the set's secrets grouped by a multiset ([`Check::group_by_shared`]).
    grouped: Vec<u32>,
    /// Room for a guess's classes, one after another ([`Check::classes_reach`]).
    classes: Vec<u32>,
    /// `grouped` as bits, for the blacks of a code outside ([`Check::groups_reach`]).
    grouped_bits: PegBits,
}

impl<'a> Check<'a> {
    fn new(
        checker: &'a Checker,
        fact: &'a Fact,
        depth: Depth,
        bound: u64,
        known: Known,
    ) -> Result<Check<'a>, String> {
        let board = &checker.board;
        let set = &fact.set[..];
        let mut inside = vec![false; board.codes.len()];
        for &s in set {
            inside[s as usize] = true;
        }
        // Each relabelling must map the set onto itself.
        let onto_itself = |map: &Relabel| map.image(board, set).is_some_and(|image| image == set);
        if !fact.maps.iter().all(onto_itself) {
            return Err("a relabelling it names does not map its set onto itself".into());
        }
        // Free colours: swapping any two next to each other in the list maps the set
        // onto itself, so every permutation of them does.
        let mut named = 0u32;
        for &c in &fact.free {
            if usize::from(c) >= board.colors || named & (1 << c) != 0 {
                return Err("its free colours are not distinct colours of the board".into());
            }
            named |= 1 << c;
        }
        for pair in fact.free.windows(2) {
            let mut color: [u8; 16] = std::array::from_fn(|c| c as u8);
            color.swap(usize::from(pair[0]), usize::from(pair[1]));
            let identity: Vec<u8> = (0..board.pegs as u8).collect();
            let swap = Relabel::new(board, &identity, &color[..board.colors]);
            if !swap.is_some_and(|s| onto_itself(&s)) {
                return Err("colours it names as free are not interchangeable in its set".into());
            }
        }
        let (dead_mask, dead_past) = checker.dead(set);
        // A dead colour named free is still dead: a tidy guess keeps the first.
        let free_past =
            (fact.free.iter().skip(board.pegs)).fold(0, |m, &c| m | 1 << c) & !dead_mask;
        let dead = (0..board.colors as u8)
            .filter(|&c| dead_mask & 1 << c != 0)
            .collect();
        Ok(Check {
            checker,
            set,
            inside,
            below: deeper(depth),
            bound,
            most: depth.map(|d| u64::from(d) * set.len() as u64),
            sizes: {
                let mut sizes: Vec<usize> = known.keys().map(Vec::len).collect();
                sizes.sort_unstable();
                sizes.dedup();
                sizes
            },
            known,
            maps: &fact.maps,
            free: &fact.free,
            dead,
            free_mask: named as u16,
            dead_mask,
            unused: dead_past | free_past,
            counts: checker.by_colors(set),
            floors: vec![None; checker.multisets.len()],
            answers: Vec::with_capacity(set.len()),
            grouped: Vec::with_capacity(set.len()),
            classes: Vec::with_capacity(set.len()),
            grouped_bits: PegBits::default(),
        })
    }

    /// Every guess at the set reaches the bound.
    fn run(&mut self) -> Result<(), String> {
        for &g in self.set {
            self.reduced_reaches(g)?;
        }
        if self.checker.candidates_only {
            return Ok(());
        }
        // A guess outside the set gets a non-winning answer from every secret.
        let n = self.set.len() as u64;
        let answers = self.checker.board.answers() as u64 - 1;
        let cost = |size| self.checker.least(size as usize, self.below);
        if self.enough(n.saturating_add(even_split(n, answers, cost))) {
            return Ok(());
        }
        for id in 0..self.checker.multisets.len() {
            if !self.in_alphabet(id) || self.floor_enough(id) {
                continue;
            }
            let groups = self.group_by_shared(id);
            for &g in &self.checker.multisets[id].codes {
                if !self.inside[g as usize]
                    && self.representative(g)
                    && !self.groups_reach(g, id, &groups)
                {
                    let mut room = std::mem::take(&mut self.classes);
                    let reached = self.classes_reach(g, &self.grouped, &self.answers, &mut room);
                    self.classes = room;
                    reached?;
                }
            }
        }
        Ok(())
    }

    /// Whether a guess that costs at least `floor` reaches the bound: the floor
    /// does, or no strategy within the depth limit costs that much.
    fn enough(&self, floor: u64) -> bool {
        floor >= self.bound || self.most.is_some_and(|most| floor > most)
    }

    fn floor_enough(&mut self, id: usize) -> bool {
        let floor = self.floor(id);
        self.enough(floor)
    }

    /// Whether the multiset `id` uses only colours a reduced guess can have: the
    /// first dead colour (the first few without repeats) and the first free ones.
    /// Every code of another multiset reduces to a code of one of these.
    fn in_alphabet(&self, id: usize) -> bool {
        self.checker.multisets[id].colors_mask & self.unused == 0
    }

    /// The least any code of multiset `id` outside the set costs: the secrets
    /// grouped by the pegs they share with its colours, each group split as
    /// evenly as its answers allow.
    fn floor(&mut self, id: usize) -> u64 {
        if let Some(floor) = self.floors[id] {
            return floor;
        }
        let multiset = &self.checker.multisets[id];
        let floor = self
            .checker
            .multiset_floor(multiset, &self.counts, self.below);
        self.floors[id] = Some(floor);
        floor
    }

    /// Whether `g` is the smallest of its reduced images: with colours no secret
    /// has made the first such colour (without repeats, the first few, in order),
    /// free colours numbered in the order they appear, and after each named
    /// relabelling. Each step keeps the guess's cost, and none gives a larger code.
    /// A guess that is not the smallest is not checked itself: a smaller one
    /// equivalent to it is visited too (in the set if it is, else outside it, in a
    /// multiset whose codes are visited or whose floor covers them all), so by
    /// induction down the order of codes every visited guess is equivalent to one
    /// that is checked.
    fn representative(&self, g: u32) -> bool {
        let pegs = self.checker.board.pegs;
        let code = self.checker.board.codes[g as usize];
        // Whole codes compare as their pegs do: past the pegs, every code, image and
        // tidied code is 0 (and 8 bytes compare as one word, a slice of them by a
        // call: that call was a sixteenth of a check's time).
        self.tidy(&code) == code
            && (self.maps.iter()).all(|map| self.tidy(&map.apply(&code, pegs)) >= code)
    }

    fn tidy(&self, code: &Code) -> Code {
        let pegs = self.checker.board.pegs;
        let mut out = *code;
        let mut renamed = [u8::MAX; 16];
        let (mut dead_used, mut free_used) = (0, 0);
        for slot in out.iter_mut().take(pegs) {
            let c = *slot;
            if self.dead_mask & 1 << c != 0 {
                *slot = self.dead[if self.checker.board.repeat {
                    0
                } else {
                    dead_used
                }];
                dead_used += 1;
            } else if self.free_mask & 1 << c != 0 {
                if renamed[usize::from(c)] == u8::MAX {
                    renamed[usize::from(c)] = self.free[free_used];
                    free_used += 1;
                }
                *slot = renamed[usize::from(c)];
            }
        }
        out
    }

    /// Checks the guess `g` if it is a representative (see there).
    fn reduced_reaches(&mut self, g: u32) -> Result<(), String> {
        if !self.representative(g) {
            return Ok(());
        }
        self.reaches_with_room(g)
    }

    /// [`Check::reaches`] with the room kept for answers and classes.
    fn reaches_with_room(&mut self, g: u32) -> Result<(), String> {
        let mut answers = std::mem::take(&mut self.answers);
        let mut classes = std::mem::take(&mut self.classes);
        let reached = self.reaches(g, &mut answers, &mut classes);
        (self.answers, self.classes) = (answers, classes);
        reached
    }

    /// The set's secrets grouped by the pegs they share with the codes of
    /// multiset `id` (blacks plus whites, the same for every code of it), in
    /// `self.grouped`: each group's shared pegs and span, the largest first.
    fn group_by_shared(&mut self, id: usize) -> Vec<(usize, Range<usize>)> {
        let multiset = &self.checker.multisets[id];
        let board = &self.checker.board;
        let shared = |s: u32| multiset.shared(&board.counts[s as usize]);
        let mut sizes = [0usize; 9];
        for &s in self.set {
            sizes[shared(s)] += 1;
        }
        let mut next = [0usize; 9];
        let mut groups = Vec::new();
        let mut start = 0;
        for (k, &size) in sizes.iter().enumerate().filter(|(_, &size)| size > 0) {
            next[k] = start;
            groups.push((k, start..start + size));
            start += size;
        }
        self.grouped.resize(self.set.len(), 0);
        for &s in self.set {
            let k = shared(s);
            self.grouped[next[k]] = s;
            next[k] += 1;
        }
        groups.sort_by_key(|(_, span)| std::cmp::Reverse(span.len()));
        self.grouped_bits.fill(board, &self.grouped);
        groups
    }

    /// Whether `g`, a code of multiset `id` outside the set, reaches the bound by
    /// its classes' sizes, its groups ([`Check::group_by_shared`]) scored one at a
    /// time until it does. Sound: a secret's answer tells the pegs it shares with
    /// `g`, so each class lies in one group, and a group not scored yet costs at
    /// least its even split, which the multiset's floor counts. Most codes
    /// outside reach the bound this way before all their groups are scored (on
    /// 5x8's parts, about half of their secrets scored: BENCHMARKS.md); for those
    /// that do not, every secret's answer is left in `answers`, in `grouped`'s
    /// order, for [`Check::classes_reach`].
    fn groups_reach(&mut self, g: u32, id: usize, groups: &[(usize, Range<usize>)]) -> bool {
        let mut floor = self.floor(id);
        let board = &self.checker.board;
        let code = &board.codes[g as usize];
        for (shared, span) in groups {
            if self.enough(floor) {
                return true;
            }
            // Every answer here shares `shared` pegs: a class for each count of
            // blacks.
            let sizes = self.grouped_bits.blacks(code, span.clone());
            let classes = (sizes.iter()).fold(0u64, |sum, &size| {
                sum.saturating_add(self.checker.least(size, self.below))
            });
            let even = self.checker.spread(*shared, span.len(), self.below);
            floor = floor.saturating_sub(even).saturating_add(classes);
        }
        if self.enough(floor) {
            return true;
        }
        let answers = &mut self.answers;
        answers.clear();
        board.for_each_answer(g, &self.grouped, |a| answers.push(a as u8));
        false
    }

    /// Playing `g` first costs at least the bound; `answers` is room for the
    /// answers of the set's secrets (they are scored once), `classes` for its
    /// classes ([`Check::classes_reach`]).
    fn reaches(&self, g: u32, answers: &mut Vec<u8>, classes: &mut Vec<u32>) -> Result<(), String> {
        answers.clear();
        let heard = |a| answers.push(a as u8);
        let split = (self.checker).split(g, self.set, self.below, self.bound, heard);
        if !split.progress || self.enough(split.cost) {
            return Ok(());
        }
        self.classes_reach(g, self.set, answers, classes)
    }

    /// Playing `g` first costs at least the bound, by the facts its classes use
    /// and looks one guess ahead at them, given `answers[i]`, the answer it gets
    /// from `secrets[i]` (the set's secrets in some order), and `room` to lay its
    /// classes out in. A guess that makes no
    /// progress (every secret in one class, none won) reaches it too: a strategy
    /// that plays it costs more than one that does not.
    fn classes_reach(
        &self,
        g: u32,
        secrets: &[u32],
        answers: &[u8],
        room: &mut Vec<u32>,
    ) -> Result<(), String> {
        let board = &self.checker.board;
        let win = board.win();
        let slots = board.slots();
        let mut sizes = [0usize; 81];
        for &a in answers {
            sizes[usize::from(a)] += 1;
        }
        let answered = || (0..slots).filter(move |&a| a != win && sizes[a] > 0);
        if sizes[win] == 0 && answered().nth(1).is_none() {
            return Ok(());
        }
        let n = self.set.len() as u64;
        // The classes themselves, smallest first, each at least what the facts it
        // uses say of it; then, one at a time while that is not enough, what a look
        // one guess ahead says. They lie one after another in `room`, in order of
        // answer (kept from guess to guess, where a vector for each answer took an
        // allocation each).
        let mut start = [0usize; 81];
        let mut end = 0;
        for a in answered() {
            start[a] = end;
            end += sizes[a];
        }
        room.clear();
        room.resize(end, 0);
        let by_answer = &mut room[..];
        let mut next = start;
        for (&s, &a) in secrets.iter().zip(answers) {
            let a = usize::from(a);
            if a != win {
                by_answer[next[a]] = s;
                next[a] += 1;
            }
        }
        let mut classes: Vec<(&[u32], u64)> = Vec::with_capacity(answered().count());
        classes.extend(answered().map(|a| (&by_answer[start[a]..start[a] + sizes[a]], 0)));
        classes.sort_by_key(|(class, _)| class.len());
        for (class, floor) in &mut classes {
            *floor = self.named(class);
        }
        let mut cost = classes.iter().fold(n, |sum, &(_, f)| sum.saturating_add(f));
        // Looks one guess ahead, begun class by class while the cost falls short,
        // then finished one by one: a begun look's floor is often enough, and the
        // colour multisets' scan of a look is most of its time.
        let mut begun = Vec::with_capacity(classes.len());
        for &(class, floor) in &classes {
            if self.enough(cost) {
                return Ok(());
            }
            let look = self.checker.begin_look(class, self.below);
            cost = cost.saturating_add(look.floor().saturating_sub(floor));
            begun.push((look, class, floor));
        }
        // Finished, a look adds at most its own least past its floor: those that
        // may add most first.
        begun.sort_by_key(|(look, ..)| std::cmp::Reverse(look.most_added()));
        for (look, class, floor) in begun {
            if self.enough(cost) {
                return Ok(());
            }
            let counted = look.floor().max(floor);
            let least = self.checker.finish_look(look, class);
            cost = cost.saturating_add(least.saturating_sub(counted));
        }
        if self.enough(cost) {
            return Ok(());
        }
        let shown: String = (board.codes[g as usize][..board.pegs].iter())
            .map(|&c| char::from_digit(u32::from(c) + 1, 17).unwrap_or('?'))
            .collect();
        Err(format!(
            "the guess {shown} (code {g}) costs at least {cost} by what is proven, not the {} claimed",
            self.bound
        ))
    }

    /// The least `class` costs by its size and the facts this fact uses.
    fn named(&self, class: &[u32]) -> u64 {
        let need = normal(self.below, class.len());
        // Most classes are named by no fact: those of a size no fact has skip the
        // hash of their secrets.
        let sized = self.sizes.binary_search(&class.len()).is_ok();
        let named = sized.then(|| self.known.get(class)).flatten();
        let fact = (named.into_iter().flatten())
            .filter(|(depth, _)| depth.is_none() || need.is_some_and(|d| Some(d) <= *depth))
            .map(|&(_, bound)| bound)
            .max()
            .unwrap_or(0);
        fact.max(self.checker.least(class.len(), self.below))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dead colours are interchangeable, so a fact may name them free, in any
    /// order; its check must still visit the multisets of the first dead colour
    /// (the one a tidy guess keeps), wherever that colour stands in the list.
    #[test]
    fn dead_colours_named_free_hide_no_multiset() {
        let checker = Checker::new(Board::new(3, 6, true).unwrap(), false);
        // Every code of the colours 0 and 1: 2 to 5 are dead.
        let codes = &checker.board.codes;
        let set: Vec<u32> = (0..codes.len() as u32)
            .filter(|&c| codes[c as usize][..3].iter().all(|&p| p < 2))
            .collect();
        let visited = |free: &[u8]| {
            let fact = Fact {
                depth: None,
                bound: Some(1),
                set: set.clone(),
                key: None,
                maps: Vec::new(),
                free: free.to_vec(),
                uses: Vec::new(),
                claim: false,
                premise: None,
            };
            let check = Check::new(&checker, &fact, None, 1, Known::default()).unwrap();
            let multisets = 0..checker.multisets.len();
            multisets.filter(|&id| check.in_alphabet(id)).count()
        };
        let plain = visited(&[]);
        assert!(plain > 0);
        for free in [[2, 3, 4, 5], [3, 4, 5, 2], [5, 4, 3, 2]] {
            assert_eq!(visited(&free), plain, "free {free:?}");
        }
    }

    /// `count` sets of codes below `all`, of 3 to `most` + 2 codes (fewer where
    /// a stride comes round), drawn from `seed`: sorted, each code once.
    fn some_sets(all: u32, mut seed: u64, count: u32, most: usize) -> Vec<Vec<u32>> {
        (0..count)
            .map(|round| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let size = 3 + (seed >> 33) as usize % most;
                let stride = 1 + (seed >> 17) as u32 % 97;
                let mut set: Vec<u32> = (0..size as u32)
                    .map(|i| (i * stride + round) % all)
                    .collect();
                set.sort_unstable();
                set.dedup();
                set
            })
            .collect()
    }

    /// A shard finds every look it keeps, with its value, and no look it does not
    /// keep; its bits let few lookups of looks not kept read the table; a full
    /// shard starts again, bits and all.
    #[test]
    fn a_shard_finds_what_it_keeps_and_its_bits_pass_few_others() {
        let mut looks = Looks::default();
        let id = |i: u32| (vec![i, i + 1], Some(i % 3));
        let hash = |i: u32| Quick::default().hash_one(id(i));
        let kept = LOOKS_KEPT as u32;
        for i in 0..kept {
            looks.keep(id(i), hash(i), u64::from(i) * 7);
        }
        for i in 0..kept {
            assert_eq!(looks.get(&id(i), hash(i)), Some(u64::from(i) * 7));
        }
        let others = kept..2 * kept;
        let passed = (others.clone())
            .filter(|&i| {
                let (word, mask) = Looks::bit(hash(i));
                looks.bits[word] & mask != 0
            })
            .count();
        assert!(others.clone().all(|i| looks.get(&id(i), hash(i)).is_none()));
        assert!(
            passed < kept as usize / 5,
            "{passed} of {kept} passed the bits"
        );
        // Full: the next look kept starts the shard again.
        looks.keep(id(2 * kept), hash(2 * kept), 1);
        assert_eq!(looks.kept.len(), 1);
        assert_eq!(looks.bits.iter().map(|w| w.count_ones()).sum::<u32>(), 1);
        assert_eq!(looks.get(&id(0), hash(0)), None);
        assert_eq!(looks.get(&id(2 * kept), hash(2 * kept)), Some(1));
    }

    /// A split under a cap is the whole split's cost where that is below the cap,
    /// and otherwise a floor of it at the cap or past it.
    #[test]
    fn a_split_under_a_cap_is_exact_below_it_and_a_floor_past_it() {
        let checker = Checker::new(Board::new(4, 6, true).unwrap(), false);
        let all = checker.board.codes.len() as u32;
        let (mut below_cap, mut cut) = (0, 0);
        for set in some_sets(all, 5, 60, 200) {
            for g in (0..all).step_by(7) {
                let whole = checker.split(g, &set, None, INFINITE, |_| {}).cost;
                for cap in [whole / 2, whole - 1, whole, whole + 1] {
                    let capped = checker.split(g, &set, None, cap, |_| {}).cost;
                    if whole < cap {
                        assert_eq!(capped, whole, "{g} {set:?} under {cap}");
                        below_cap += 1;
                    } else {
                        assert!(cap <= capped && capped <= whole, "{g} {set:?} under {cap}");
                        cut += usize::from(capped < whole);
                    }
                }
            }
        }
        assert!(below_cap > 0 && cut > 0, "{below_cap} {cut}");
    }

    /// A look is a floor: begun, it says at most what it says finished, and
    /// finished, at most what the cheapest guess of the whole board costs by the
    /// size bounds of its classes (every code scored, the slow way), on sets of
    /// every size, with and without a depth limit.
    #[test]
    fn a_look_says_no_more_than_the_boards_best_guess() {
        let checker = Checker::new(Board::new(4, 5, true).unwrap(), false);
        let all = checker.board.codes.len() as u32;
        for set in some_sets(all, 7, 300, 40) {
            for depth in [None, Some(3), Some(4)] {
                let look = checker.begin_look(&set, depth);
                let begun = look.floor();
                let finished = checker.finish_look(look, &set);
                let below = deeper(normal(depth, set.len()));
                let best = (0..all)
                    .map(|g| checker.split(g, &set, below, INFINITE, |_| {}).cost)
                    .min()
                    .unwrap();
                assert!(begun <= finished, "{set:?} {depth:?}: {begun} > {finished}");
                assert!(finished <= best, "{set:?} {depth:?}: {finished} > {best}");
            }
        }
    }

    /// A look's own least is the least of its secrets' whole splits (every
    /// class sized, the plain way) where it counts their answers instead (every
    /// class costing 2c - 1): on 4x5, 5x4 and 8x2 (whose answers take more than
    /// 64 bits) sets of every size, with and without a depth limit, each looked at
    /// by a checker that keeps no look yet.
    #[test]
    fn a_looks_own_least_by_answers_counted_is_that_of_classes_sized() {
        let (mut counted, mut sized) = (0, 0);
        for (pegs, colors) in [(4, 5), (5, 4), (8, 2)] {
            let all = Board::new(pegs, colors, true).unwrap().codes.len() as u32;
            for set in some_sets(all, 13, 100, 30) {
                for depth in [None, Some(2), Some(3)] {
                    let checker = Checker::new(Board::new(pegs, colors, true).unwrap(), false);
                    let depth = normal(depth, set.len());
                    let below = deeper(depth);
                    if set.len() <= 2 || checker.least(set.len(), depth) == INFINITE {
                        continue;
                    }
                    let own = (set.iter())
                        .map(|&g| checker.split(g, &set, below, INFINITE, |_| {}).cost)
                        .min()
                        .unwrap();
                    let said = match checker.begin_look(&set, depth) {
                        Look::Done(least) => least,
                        Look::Begun { own, .. } => own,
                    };
                    assert_eq!(said, own, "{pegs}x{colors} {set:?} {depth:?}");
                    match (1..set.len()).all(|c| checker.least(c, below) == 2 * c as u64 - 1) {
                        true => counted += 1,
                        false => sized += 1,
                    }
                }
            }
        }
        assert!(
            counted > 50 && sized > 50,
            "{counted} counted, {sized} sized"
        );
    }

    /// A code outside the set reaches the bound by its groups exactly when its
    /// whole split does, by the size bounds of its classes (every secret scored,
    /// the plain way): on 4x5 and 5x4 sets of every size, with and without a
    /// depth limit, under bounds about each code's own cost, so that some are
    /// reached after a group or two and some only with all of them, or not at all;
    /// one that falls short leaves every secret's answer for its classes.
    #[test]
    fn a_code_outside_reaches_by_its_groups_as_by_its_whole_split() {
        let (mut early, mut whole, mut short) = (0, 0, 0);
        for (pegs, colors) in [(4, 5), (5, 4)] {
            let checker = Checker::new(Board::new(pegs, colors, true).unwrap(), false);
            let all = checker.board.codes.len() as u32;
            for set in some_sets(all, 11, 120, 60) {
                for depth in [None, Some(2), Some(3)] {
                    let depth = normal(depth, set.len());
                    let below = deeper(depth);
                    let outside: Vec<u32> =
                        (0..all).filter(|g| set.binary_search(g).is_err()).collect();
                    let costs: Vec<u64> = (outside.iter())
                        .map(|&g| checker.split(g, &set, below, INFINITE, |_| {}).cost)
                        .collect();
                    let finite = costs.iter().filter(|&&c| c != INFINITE);
                    let Some(&middle) = finite.clone().min() else {
                        continue;
                    };
                    for bound in [middle, middle + 2, middle + 9, INFINITE] {
                        let fact = Fact {
                            depth,
                            bound: Some(bound),
                            set: set.clone(),
                            key: None,
                            maps: Vec::new(),
                            free: Vec::new(),
                            uses: Vec::new(),
                            claim: false,
                            premise: None,
                        };
                        let mut check =
                            Check::new(&checker, &fact, depth, bound, Known::default()).unwrap();
                        for id in 0..checker.multisets.len() {
                            let groups = check.group_by_shared(id);
                            for &g in &checker.multisets[id].codes {
                                if set.binary_search(&g).is_ok() {
                                    continue;
                                }
                                let cost = costs[outside.binary_search(&g).unwrap()];
                                let plain = check.enough(cost);
                                let floor = check.floor(id);
                                let reached = check.groups_reach(g, id, &groups);
                                assert_eq!(
                                    reached, plain,
                                    "{set:?} {depth:?}: code {g} costs {cost}, bound {bound}"
                                );
                                // Short, it leaves every secret's answer for its classes.
                                if !reached {
                                    let secrets = check.grouped.iter().zip(&check.answers);
                                    for (&s, &a) in secrets {
                                        assert_eq!(usize::from(a), checker.board.answer(g, s));
                                    }
                                }
                                match (plain, check.enough(floor)) {
                                    (true, true) => {}
                                    (true, false) => early += usize::from(groups.len() > 1),
                                    (false, _) => short += 1,
                                }
                                whole += usize::from(plain);
                            }
                        }
                    }
                }
            }
        }
        assert!(
            early > 0 && whole > early && short > 0,
            "{early} {whole} {short}"
        );
    }
}
