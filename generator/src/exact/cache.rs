//! What the searches have proven, kept by set: the exact cost, or a lower bound
//! when a search under a budget failed. Keys are a set's [`crate::canonical::key`],
//! so equivalent sets share an entry (small sets too: a set of a dozen secrets
//! has many equivalent copies, and with the smallest-first class order a hit on
//! one settles a class before the big classes are searched; keying small sets by
//! their candidates instead searched 2.7 times as many positions on 4x8, and 48
//! times as many on 4x6 without symmetry, where a node tries every guess).
//!
//! A big proof proves far more sets than memory holds (4x9 filled 256 MiB in two
//! minutes), and a full cache that takes nothing new slows the search to a crawl.
//! So the cache keeps two generations of half its size each: new facts, and facts
//! looked up, go to the young one; when it is full it becomes the old one and the
//! old one is dropped. What the search keeps using survives, at the price of a
//! copy per turn. Facts about sets of [`BIG_SET`] secrets or more turn over apart
//! from the rest ([`Shard`]): they are few and dear, and a stream of cheap small
//! facts must not push them out. Every entry is a proof, so dropping one changes
//! the work, never the result.
//!
//! The sets are spread over [`SHARDS`] shards by a hash of their key, each with its
//! own lock and generations: a checkpoint holds one shard at a time, so saving a
//! cache of gigabytes pauses a search thread for a small part of the pass (one lock
//! over the whole cache stopped every thread for all of it; BENCHMARKS.md, tuning,
//! has the figures).

use super::{Context, Exact};
use crate::canonical;
use crate::codes::Codes;
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, MutexGuard};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    /// The optimum.
    Exact(u32),
    /// The optimum is at least this.
    AtLeast(u32),
}

impl Known {
    /// Whether `other` tells more than this (an exact cost over a bound, a
    /// higher bound); on a tie, this stays.
    fn yields_to(self, other: Known) -> bool {
        match (self, other) {
            (Known::Exact(_), _) => false,
            (_, Known::Exact(_)) => true,
            (Known::AtLeast(a), Known::AtLeast(b)) => b > a,
        }
    }
}

/// What the cache holds of a set: the fact, and its number in the certificate
/// being written ([`NO_RECORD`] when none is, or it came from a checkpoint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    known: Known,
    record: u64,
}

/// The record number of a fact no certificate holds.
pub(super) const NO_RECORD: u64 = u64::MAX;

impl Held {
    /// The more informative of two true facts about one set, with its record.
    fn stronger(self, other: Held) -> Held {
        match self.known.yields_to(other.known) {
            true => other,
            false => self,
        }
    }
}

/// How the search keeps what it proved. Changes the work, never the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheSettings {
    /// The most memory the cache may take, in bytes: its keys' allocations and
    /// its tables' room, as they are allocated (see `key_bytes` and `table_bytes`).
    pub bytes: usize,
    /// Key sets by their canonical form, so equivalent sets share an entry; off,
    /// by their codes (slower: a cross-check that does not trust the canonical
    /// form).
    pub canonical_keys: bool,
}

/// The cache's default size.
pub const DEFAULT_CACHE_MIB: usize = 2048;

impl Default for CacheSettings {
    fn default() -> CacheSettings {
        CacheSettings {
            bytes: DEFAULT_CACHE_MIB << 20,
            canonical_keys: true,
        }
    }
}

/// The bytes a key of `len` codes takes in its generation's [`Keys`]: its length
/// and its codes.
fn key_bytes(len: usize) -> usize {
    (len + 1) * 4
}

/// The heap bytes of a table with room for `capacity` entries: a [`Slot`] and a
/// control byte per bucket, and a group of control bytes more. The table
/// (hashbrown's, the standard one's) keeps a power of two of buckets and fills
/// at most 7 of every 8 (fewer than 8 buckets: all but one), so the room it
/// reports tells its buckets. After a table grows it is less than half full:
/// counting entries alone missed up to 40 bytes each (a 5x6 proof with a 2 GiB
/// cache peaked at 2.21 GiB).
fn table_bytes(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = match capacity < 7 {
        true => capacity + 1,
        false => capacity / 7 * 8,
    };
    buckets * (std::mem::size_of::<Slot>() + 1) + 16
}

/// The room a full table with room for `capacity` entries has after one more:
/// twice the buckets (4 from none).
fn grown(capacity: usize) -> usize {
    match capacity {
        0 => 3,
        3 => 7,
        _ => capacity * 2,
    }
}

/// A set's entry in the cache: its key (see [`Exact::lookup`]) and what is known
/// of it.
pub(super) type Lookup<'a> = (Cow<'a, [u32]>, Option<Known>);

/// A generation's keys, each its length and then its codes, in chunks that
/// never move and are dropped with the generation: a key costs 4 bytes a code
/// and 4 more, with no allocation of its own. Keys allocated one by one cost the
/// allocator's header and rounding too (a key of 3 codes took 32 bytes, not 16),
/// and the holes a dropped generation left among the tables made a 6x5 proof
/// with a 6 GiB cache take 6.28 GiB (with 512 MiB, 555 MiB; in chunks, 524).
#[derive(Default)]
struct Keys {
    chunks: Vec<Vec<u32>>,
    /// The codes the chunks have room for, as allocated.
    room: usize,
}

/// Where a key is in its generation's [`Keys`]: its chunk and its first word.
#[derive(Clone, Copy)]
struct At {
    chunk: u32,
    from: u32,
}

impl Keys {
    fn get(&self, at: At) -> &[u32] {
        let chunk = &self.chunks[at.chunk as usize];
        let from = at.from as usize;
        &chunk[from + 1..from + 1 + chunk[from] as usize]
    }

    /// The bytes adding a key of `len` codes would allocate: none if it fits the
    /// last chunk, else a chunk of `chunk` codes (or the key's own words, if more).
    fn growth(&self, len: usize, chunk: usize) -> usize {
        let fits = (self.chunks.last()).is_some_and(|c| c.capacity() - c.len() > len);
        match fits {
            true => 0,
            false => (chunk * 4).max(key_bytes(len)),
        }
    }

    fn push(&mut self, key: &[u32], chunk: usize) -> At {
        if self.growth(key.len(), chunk) > 0 {
            let room = chunk.max(key.len() + 1);
            self.chunks.push(Vec::with_capacity(room));
            self.room += room;
        }
        let last = self.chunks.len() - 1;
        let words = &mut self.chunks[last];
        let at = At {
            chunk: last as u32,
            from: words.len() as u32,
        };
        words.push(key.len() as u32);
        words.extend_from_slice(key);
        at
    }

    fn bytes(&self) -> usize {
        self.room * 4
    }

    fn clear(&mut self) {
        self.chunks.clear();
        self.room = 0;
    }
}

/// A fact in a generation's table: where its key is, and the fact.
#[derive(Clone, Copy)]
struct Slot {
    at: At,
    held: Held,
}

/// Facts by depth left, then key, and the bytes they take. Keys are our own sets,
/// so a fast hash that is not collision-proof is fine.
#[derive(Default)]
struct Generation {
    sets: FxHashMap<u32, HashTable<Slot>>,
    keys: Keys,
    /// The tables' room ([`table_bytes`]), which outlasts their entries.
    tables: usize,
}

impl Generation {
    fn bytes(&self) -> usize {
        self.keys.bytes() + self.tables
    }

    fn slot(&self, depth: u32, key: &[u32]) -> Option<&Slot> {
        let keys = &self.keys;
        (self.sets.get(&depth)?).find(table_hash(key), |s| keys.get(s.at) == key)
    }

    fn held(&self, depth: u32, key: &[u32]) -> Option<Held> {
        self.slot(depth, key).map(|s| s.held)
    }

    /// Takes a fact out (its key's words stay until the generation is dropped).
    fn take(&mut self, depth: u32, key: &[u32]) -> Option<Held> {
        let keys = &self.keys;
        let table = self.sets.get_mut(&depth)?;
        let found = table.find_entry(table_hash(key), |s| keys.get(s.at) == key);
        found.ok().map(|entry| entry.remove().0.held)
    }

    /// The bytes adding a key of `len` codes with `depth` guesses left would add:
    /// its chunk if it needs a new one, and the table's new room if it is full
    /// (it doubles).
    fn growth(&self, depth: u32, len: usize, chunk: usize) -> usize {
        let table = self.sets.get(&depth);
        let (entries, room) = table.map_or((0, 0), |t| (t.len(), t.capacity()));
        let grows = match entries < room {
            true => 0,
            false => table_bytes(grown(room)) - table_bytes(room),
        };
        self.keys.growth(len, chunk) + grows
    }

    /// Adds a fact it does not hold.
    fn add(&mut self, depth: u32, key: &[u32], held: Held, chunk: usize) {
        let at = self.keys.push(key, chunk);
        let keys = &self.keys;
        let table = self.sets.entry(depth).or_default();
        let room = table.capacity();
        table.insert_unique(table_hash(key), Slot { at, held }, |s| {
            table_hash(keys.get(s.at))
        });
        self.tables += table_bytes(table.capacity()) - table_bytes(room);
    }

    /// Every fact held, as (depth, key, fact).
    fn entries(&self) -> impl Iterator<Item = (u32, &[u32], Held)> {
        (self.sets.iter()).flat_map(move |(&depth, table)| {
            (table.iter()).map(move |s| (depth, self.keys.get(s.at), s.held))
        })
    }

    /// Drops every fact. The tables keep their room (the next generation fills
    /// them again without growing them step by step) unless it takes more than
    /// half of `budget`: then they go too, so that a small budget still holds facts.
    fn clear(&mut self, budget: usize) {
        if self.tables > budget / 2 {
            self.sets.clear();
            self.tables = 0;
        } else {
            self.sets.values_mut().for_each(HashTable::clear);
        }
        self.keys.clear();
    }
}

/// How many shards the cache is split into: a power of two.
pub const SHARDS: usize = 256;
const _: () = assert!(SHARDS.is_power_of_two());

/// Sets of at least this many secrets are kept apart from the smaller ones (see
/// [`Shard`]). Positions searched on one thread with a cache that fills: 4x9 with
/// `--cache-mib 32` 185,408 from 16 on, 114,338 from 32, 122,170 from 64, 145,504
/// from 128 (200,400 in one tier); 5x6 with 128 MiB 316,498 from 32, 320,294 from
/// 64 (470,832 in one tier; BENCHMARKS.md, tuning).
const BIG_SET: usize = 32;

/// Whether a set of `len` secrets is kept in the big tier.
fn big(len: usize) -> bool {
    len >= BIG_SET
}

/// Two generations (see the module docs): facts found or looked up go to the
/// young one; when it is full it becomes the old one, and the old one is dropped.
#[derive(Default)]
struct Tier {
    young: Generation,
    old: Generation,
}

impl Tier {
    fn bytes(&self) -> usize {
        self.young.bytes() + self.old.bytes()
    }

    /// Adds a fact the tier does not hold, turning the young generation old first
    /// when the fact would take it past `half`; whether facts were dropped.
    fn put(&mut self, depth: u32, key: &[u32], held: Held, half: usize, chunk: usize) -> bool {
        let turned = self.young.bytes() + self.young.growth(depth, key.len(), chunk) > half;
        let dropped = turned && self.turn(half);
        self.young.add(depth, key, held, chunk);
        dropped
    }

    /// The young generation turns old, and the old one is dropped; whether it
    /// held facts.
    fn turn(&mut self, half: usize) -> bool {
        std::mem::swap(&mut self.young, &mut self.old);
        let dropped = self.young.bytes() > 0;
        self.young.clear(half);
        dropped
    }
}

/// One shard: the facts about sets of at least [`BIG_SET`] secrets in one tier,
/// the rest in another, each turning over on its own. A big set's fact stands for
/// a search thousands of times dearer than a small one's, and is looked up far
/// more rarely: in one tier with the small ones, the turns that a proof's stream
/// of small facts drives dropped it before it was needed again (a 6x5 run resumed
/// from its checkpoint had not found its first whole tree again after an hour).
/// The big tier may take half the share (two generations of a quarter each), the
/// small one what the big one leaves; should the two together pass the share, the
/// small tier turns.
pub(super) struct Shard {
    small: Tier,
    big: Tier,
    /// The bytes the shard may take: its share of the cache.
    share: usize,
    /// The codes a chunk of keys holds ([`Keys`]): a 64th of the share, from 16
    /// codes to 64 Ki (256 KiB, with a cache of 4 GiB or more), so a
    /// generation's last chunk, part empty, is a small part of it.
    chunk: usize,
    /// Whether a turn has dropped facts since the shard was made.
    dropped: bool,
}

/// The hash a shard's table files `key` under.
fn table_hash(key: &[u32]) -> u64 {
    let mut hasher = FxHasher::default();
    key.hash(&mut hasher);
    hasher.finish()
}

/// The shard that keeps `key` with `depth` guesses left (see [`Cache::shard`]).
fn shard_index(depth: u32, key: &[u32]) -> usize {
    let mixed = canonical::mix(table_hash(key), depth);
    (mixed >> (64 - SHARDS.ilog2())) as usize
}

/// The shards, each behind its own lock.
pub(super) struct Cache {
    shards: Box<[Mutex<Shard>]>,
}

impl Cache {
    pub(super) fn new(settings: CacheSettings) -> Cache {
        let share = settings.bytes / SHARDS;
        let shards = (0..SHARDS).map(|_| Mutex::new(Shard::new(share))).collect();
        Cache { shards }
    }

    /// The shard that keeps `key` with `depth` guesses left, locked.
    ///
    /// The index comes from the key's hash passed through a mixing function, not
    /// from the hash itself: the shard's hash table files a key under the top bits
    /// of the same FxHash, and FxHash is linear enough that a shard picked from
    /// those bits held keys whose tags were nearly all alike, so a probe compared
    /// whole keys at almost every slot it passed (a fifth of a 5x6 proof's time
    /// went to those compares; BENCHMARKS.md, tuning).
    fn shard(&self, depth: u32, key: &[u32]) -> MutexGuard<'_, Shard> {
        self.lock(shard_index(depth, key))
    }

    /// Shard `index`, locked (a thread that panicked holding it left only whole
    /// entries: every update is one insert or remove).
    pub(super) fn lock(&self, index: usize) -> MutexGuard<'_, Shard> {
        self.shards[index].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What is known of `key` with `depth` guesses left.
    fn get(&self, depth: u32, key: &[u32]) -> Option<Known> {
        self.shard(depth, key)
            .get(depth, key)
            .map(|held| held.known)
    }

    /// What is known of `key` with `depth` guesses left, not counted as a use
    /// (see [`Exact::peek`]).
    fn peek(&self, depth: u32, key: &[u32]) -> Option<Known> {
        self.shard(depth, key)
            .peek(depth, key)
            .map(|held| held.known)
    }

    /// The certificate record of what is known of `key` with `depth` guesses left.
    fn record(&self, depth: u32, key: &[u32]) -> Option<u64> {
        let held = self.shard(depth, key).get(depth, key)?;
        (held.record != NO_RECORD).then_some(held.record)
    }

    /// Keeps `known` of `key`, with its certificate `record` (with what was known
    /// of it before, the stronger).
    pub(super) fn insert(&self, depth: u32, key: &[u32], known: Known, record: u64) {
        let held = Held { known, record };
        self.shard(depth, key).insert(depth, key, held);
    }

    /// Whether the cache has dropped facts to make room (since it was made).
    pub(super) fn dropped(&self) -> bool {
        (0..SHARDS).any(|index| self.lock(index).dropped)
    }

    /// Every shard emptied (the facts dropped: the search redoes their work).
    #[cfg(test)]
    pub(super) fn clear(&self) {
        for index in 0..SHARDS {
            let mut shard = self.lock(index);
            *shard = Shard::new(shard.share);
        }
    }
}

impl Shard {
    /// An empty shard that takes at most `share` bytes.
    fn new(share: usize) -> Shard {
        Shard {
            small: Tier::default(),
            big: Tier::default(),
            share,
            chunk: (share / 64 / 4).clamp(16, 1 << 16),
            dropped: false,
        }
    }

    fn tier(&mut self, len: usize) -> &mut Tier {
        match big(len) {
            true => &mut self.big,
            false => &mut self.small,
        }
    }

    /// The room the small tier's generations may take each: half of what the
    /// big tier leaves.
    fn small_half(&self) -> usize {
        self.share.saturating_sub(self.big.bytes()) / 2
    }

    /// What is known of `key` with `depth` guesses left; a fact found in an old
    /// generation moves to its tier's young one.
    fn get(&mut self, depth: u32, key: &[u32]) -> Option<Held> {
        let tier = self.tier(key.len());
        if let Some(held) = tier.young.held(depth, key) {
            return Some(held);
        }
        let held = tier.old.take(depth, key)?;
        self.put(depth, key, held);
        Some(held)
    }

    /// What is known of `key` with `depth` guesses left, left where it is.
    fn peek(&self, depth: u32, key: &[u32]) -> Option<Held> {
        let tier = match big(key.len()) {
            true => &self.big,
            false => &self.small,
        };
        tier.young
            .held(depth, key)
            .or_else(|| tier.old.held(depth, key))
    }

    /// Keeps `known` of `key` (with what was known of it before, the stronger).
    fn insert(&mut self, depth: u32, key: &[u32], held: Held) {
        let tier = self.tier(key.len());
        let young = &mut tier.young;
        let keys = &young.keys;
        let table = young.sets.entry(depth).or_default();
        if let Some(slot) = table.find_mut(table_hash(key), |s| keys.get(s.at) == key) {
            slot.held = slot.held.stronger(held);
            return;
        }
        let held = match tier.old.take(depth, key) {
            Some(before) => before.stronger(held),
            None => held,
        };
        self.put(depth, key, held);
    }

    /// Adds a fact the shard does not hold to its tier (see [`Shard`]).
    fn put(&mut self, depth: u32, key: &[u32], held: Held) {
        let chunk = self.chunk;
        self.dropped |= match big(key.len()) {
            true => self.big.put(depth, key, held, self.share / 4, chunk),
            false => (self.small).put(depth, key, held, self.small_half(), chunk),
        };
        // A big fact may have left the small tier more than its half: it turns
        // (twice at most, which empties it of facts).
        for _ in 0..2 {
            if self.small.bytes() + self.big.bytes() <= self.share {
                break;
            }
            self.dropped |= self.small.turn(self.small_half());
        }
    }

    /// Every fact held, as (depth, key, fact, certificate record).
    pub(super) fn entries(&self) -> impl Iterator<Item = (u32, &[u32], Known, u64)> {
        let generations = [
            &self.small.old,
            &self.small.young,
            &self.big.old,
            &self.big.young,
        ];
        (generations.into_iter())
            .flat_map(Generation::entries)
            .map(|(depth, key, held)| (depth, key, held.known, held.record))
    }
}

impl Exact {
    /// Keeps what is `known` of the set `key` with `depth` guesses left, and its
    /// certificate `record` ([`NO_RECORD`] if none). Another thread may have
    /// proven more of it meanwhile: the stronger fact stays (an exact cost over a
    /// bound, the higher bound).
    pub(super) fn remember(&self, depth: u32, key: Cow<[u32]>, known: Known, record: u64) {
        self.cache.insert(depth, &key, known, record);
    }

    /// The certificate record of what the cache knows of the set `key` with
    /// `depth` guesses left, if a certificate holds it.
    pub(super) fn cached_record(&self, depth: u32, key: &[u32]) -> Option<u64> {
        self.cache.record(depth, key)
    }

    /// The cache key of `candidates` and what the cache knows of it with `depth`
    /// guesses left (at most `candidates.len()`, see [`Exact::solve`]).
    pub(super) fn lookup<'a>(
        &self,
        codes: &Codes,
        candidates: &'a [u32],
        depth: u32,
    ) -> Lookup<'a> {
        let key = self.key(codes, candidates);
        let known = self.cache.get(depth, &key);
        (key, known)
    }

    /// What the cache knows of `candidates` with `depth` guesses left, as
    /// [`Exact::lookup`] says, but not counted as a use: the fact stays in its
    /// generation. A report looks at the cache at times the clock picks; had its
    /// looks kept facts, which facts a full cache dropped, and so the positions a
    /// search took and the certificate it wrote, would depend on when reports
    /// were made.
    pub(super) fn peek(&self, codes: &Codes, candidates: &[u32], depth: u32) -> Option<Known> {
        self.cache.peek(depth, &self.key(codes, candidates))
    }

    /// The cache key of `candidates`: its canonical image, or the set itself
    /// with `--no-canonical-keys`.
    pub(super) fn key<'a>(&self, codes: &Codes, candidates: &'a [u32]) -> Cow<'a, [u32]> {
        if !self.cache_settings.canonical_keys {
            return Cow::Borrowed(candidates);
        }
        let set = candidates.iter().map(|&c| codes.code(c).packed());
        let mut image = Vec::with_capacity(candidates.len());
        canonical::key(set, codes.board().pegs(), &mut image);
        Cow::Owned(image)
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

    /// Caches what a search under `budget` found, with its certificate `record`
    /// ([`NO_RECORD`] if none), unless time ran out (then it may have stopped early).
    pub(super) fn remember_search(
        &self,
        context: Context,
        depth: u32,
        key: Cow<[u32]>,
        budget: u32,
        best: Option<(u32, u32)>,
        record: u64,
    ) {
        if !self.cut(context) {
            let known = best.map_or(Known::AtLeast(budget), |(cost, _)| Known::Exact(cost));
            self.remember(depth, key, known, record);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Known::{AtLeast, Exact};
    use super::*;

    #[test]
    fn the_stronger_fact_about_a_set_stays_with_its_record() {
        let at = |known, record| Held { known, record };
        let stronger = |a: Held, b: Held| a.stronger(b);
        assert_eq!(
            stronger(at(AtLeast(5), 1), at(AtLeast(7), 2)),
            at(AtLeast(7), 2)
        );
        assert_eq!(
            stronger(at(AtLeast(7), 1), at(AtLeast(5), 2)),
            at(AtLeast(7), 1)
        );
        assert_eq!(
            stronger(at(AtLeast(7), 1), at(AtLeast(7), 2)),
            at(AtLeast(7), 1)
        );
        assert_eq!(
            stronger(at(AtLeast(7), 1), at(Exact(9), 2)),
            at(Exact(9), 2)
        );
        assert_eq!(
            stronger(at(Exact(9), 1), at(AtLeast(12), 2)),
            at(Exact(9), 1)
        );
    }

    fn held(known: Known) -> Held {
        Held {
            known,
            record: NO_RECORD,
        }
    }

    #[test]
    fn facts_in_use_survive_the_turns_and_the_rest_go() {
        // Room for about four one-code keys per generation.
        let mut shard = Shard::new(2 * (table_bytes(7) + 4 * key_bytes(1)));
        let key = |k: u32| [k];
        let len = |shard: &Shard| shard.entries().count();
        shard.insert(3, &key(0), held(AtLeast(10)));
        for k in 1..40 {
            shard.insert(3, &key(k), held(Exact(k)));
            // Looked up at every step: never dropped, and it keeps its strongest fact.
            assert_eq!(shard.get(3, &[0]), Some(held(AtLeast(10))), "after {k}");
            assert!(len(&shard) <= 10);
        }
        shard.insert(3, &key(0), held(AtLeast(8)));
        assert_eq!(shard.get(3, &[0]), Some(held(AtLeast(10))));
        assert_eq!(shard.get(3, &[1]), None, "unused facts go");
        assert_eq!(shard.get(3, &[39]), Some(held(Exact(39))));
        assert_eq!(shard.get(2, &[39]), None, "depths are apart");
        let codes: Vec<_> = shard.entries().map(|(_, key, _, _)| key[0]).collect();
        assert!(codes.contains(&0) && codes.contains(&39));
        // Facts only peeked at go too: a peek is no use.
        let mut seen = vec![];
        for k in 40..80 {
            seen.push(shard.peek(3, &[0]) == Some(held(AtLeast(10))));
            shard.insert(3, &key(k), held(Exact(k)));
            assert_eq!(shard.peek(3, &[k]), Some(held(Exact(k))));
        }
        let kept = seen.iter().take_while(|&&s| s).count();
        assert!(kept > 0 && seen[kept..].iter().all(|&s| !s), "{seen:?}");
    }

    #[test]
    fn a_big_sets_fact_outlasts_any_stream_of_small_ones() {
        // Room for a few dozen small keys: the small tier turns over hundreds of
        // times, the big fact, never looked up, stays; a stream of big facts
        // turns the big tier over as the small one would.
        let share = 64 * key_bytes(8) + 4 * table_bytes(7);
        let mut shard = Shard::new(share + key_bytes(BIG_SET));
        let big: Vec<u32> = (0..BIG_SET as u32).collect();
        shard.insert(5, &big, held(Exact(99)));
        for k in 0..10_000u32 {
            shard.insert(3, &[k; 8], held(Exact(k)));
            assert!(shard.small.bytes() + shard.big.bytes() <= shard.share);
        }
        assert_eq!(shard.get(3, &[0; 8]), None, "small facts turn over");
        assert_eq!(shard.get(5, &big), Some(held(Exact(99))));
        for k in 1..1_000u32 {
            let other: Vec<u32> = (k..k + BIG_SET as u32).collect();
            shard.insert(5, &other, held(Exact(k)));
            assert!(shard.small.bytes() + shard.big.bytes() <= shard.share);
        }
        assert_eq!(
            shard.get(5, &big),
            None,
            "big facts turn over among themselves"
        );
    }

    /// The table model behind the cache's count of its bytes, against the
    /// standard table itself: the room it reports is always one [`table_bytes`]
    /// reads as a power of two of buckets, and a full table grows to [`grown`].
    #[test]
    fn the_tables_grow_as_the_cache_counts_them() {
        let mut table: HashTable<Slot> = HashTable::new();
        let mut rooms = vec![table.capacity()];
        for k in 0..200_000u32 {
            let (entries, room) = (table.len(), table.capacity());
            let slot = Slot {
                at: At { chunk: 0, from: k },
                held: held(Exact(k)),
            };
            table.insert_unique(u64::from(k), slot, |s| u64::from(s.at.from));
            if table.capacity() != room {
                assert_eq!(entries, room, "grew before it was full");
                assert_eq!(table.capacity(), grown(room));
                rooms.push(table.capacity());
            }
        }
        assert_eq!(rooms[..4], [0, 3, 7, 14]);
        for room in rooms.into_iter().skip(1) {
            let slots = table_bytes(room) - 16;
            let buckets = slots / (std::mem::size_of::<Slot>() + 1);
            assert!(buckets.is_power_of_two() && buckets * 7 / 8 >= room.min(buckets - 1));
        }
        // A budget smaller than one table still keeps facts, and the shard stays
        // within its two halves whatever it holds.
        let mut shard = Shard::new(2000);
        for k in 0..10_000u32 {
            shard.insert(3, &vec![k; (k % 50) as usize + 1], held(Exact(k)));
            let small = &shard.small;
            assert!(small.young.bytes() <= 1000 && small.old.bytes() <= 1000 + key_bytes(50));
            assert_eq!(
                shard.get(3, &vec![k; (k % 50) as usize + 1]),
                Some(held(Exact(k)))
            );
        }
    }

    #[test]
    fn keys_come_back_as_pushed_and_count_their_chunks() {
        let mut keys = Keys::default();
        let chunk = 16;
        let pushed: Vec<(At, Vec<u32>)> = (0..200u32)
            .map(|k| {
                let key: Vec<u32> = (0..k % 40).map(|c| c * 7 + k).collect();
                assert_eq!(keys.growth(key.len(), chunk) > 0, {
                    let last = keys.chunks.last();
                    last.is_none_or(|c| c.capacity() - c.len() <= key.len())
                });
                (keys.push(&key, chunk), key)
            })
            .collect();
        for (at, key) in &pushed {
            assert_eq!(keys.get(*at), &key[..]);
        }
        // Counted as allocated: every chunk, its unused end too.
        let allocated: usize = keys.chunks.iter().map(|c| c.capacity() * 4).sum();
        assert_eq!(keys.bytes(), allocated);
        let words: usize = pushed.iter().map(|(_, key)| key_bytes(key.len())).sum();
        assert!(
            words <= allocated && allocated < 2 * words,
            "{words} {allocated}"
        );
        // A slot is a key's place and its fact: 24 bytes, where a boxed key
        // and its fact took 32 and the key's own allocation.
        assert_eq!(std::mem::size_of::<Slot>(), 24);
        keys.clear();
        assert_eq!(keys.bytes(), 0);
    }

    #[test]
    fn the_shards_hold_every_fact_once_and_share_the_load() {
        let cache = Cache::new(CacheSettings::default());
        let facts = 100 * SHARDS as u32;
        for k in 0..facts {
            cache.insert(k % 7, &[k, k + 1], Exact(k), u64::from(k));
        }
        for k in 0..facts {
            assert_eq!(cache.get(k % 7, &[k, k + 1]), Some(Exact(k)));
            assert_eq!(cache.record(k % 7, &[k, k + 1]), Some(u64::from(k)));
            assert_eq!(cache.get(k % 7 + 1, &[k, k + 1]), None);
        }
        let per_shard: Vec<usize> = (0..SHARDS)
            .map(|i| cache.lock(i).entries().count())
            .collect();
        assert_eq!(per_shard.iter().sum::<usize>(), facts as usize);
        // 100 a shard on average: none near empty, none with a big share.
        assert!(
            per_shard.iter().all(|&n| n > 20 && n < 400),
            "{per_shard:?}"
        );
        cache.clear();
        assert_eq!(cache.get(0, &[0, 1]), None);
    }

    #[test]
    fn keys_in_one_shard_have_varied_table_tags() {
        // A shard's table compares whole keys wherever the top 7 bits of their
        // hashes (the tags) agree: the keys one shard gets must not share them.
        let keys = (0..200_000u32).map(|k| vec![k % 911, k / 911 + 1000, 5000]);
        let tags: std::collections::HashSet<u64> = keys
            .filter(|key| shard_index(4, key) == 0)
            .map(|key| table_hash(&key) >> 57)
            .collect();
        assert!(tags.len() > 100, "{} tags among shard 0's keys", tags.len());
    }
}
