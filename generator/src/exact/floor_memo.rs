//! The floors the colour multisets raise for the codes outside small sets
//! (`Exact::outsiders_raised`), kept by the sets' colour [`Profile`]: the floor
//! depends on the profile and the guesses left alone, and small sets of one
//! profile come back often (two sets one renaming of colours apart, or alike but
//! for the order of their pegs). The cache keys sets by symmetry, which renames
//! colours and moves pegs for all secrets at once; a profile forgets the pegs'
//! order secret by secret, so it meets sets the cache holds apart.
//!
//! A fixed table, one entry a slot, a new entry taking its slot's place: it never
//! grows, and an entry lost costs only a scan. Every entry is the scan's own
//! result, so the memo changes the work, never the result.

use crate::codes::Profile;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// The most slots: 2^17 of 176 bytes (this build's), 22 MiB (5x8's items).
const MOST_SLOTS: usize = 1 << 17;

/// The slots of a board of `codes` codes: four a code, a power of two, at most
/// [`MOST_SLOTS`] (a small board's search gets a small table).
fn slot_count(codes: usize) -> usize {
    (4 * codes).next_power_of_two().min(MOST_SLOTS)
}

/// The bytes the memo of a board of `codes` codes takes once it is used.
pub fn memo_bytes(codes: usize) -> usize {
    slot_count(codes) * std::mem::size_of::<Mutex<Option<Entry>>>()
}

/// A floor found: for sets of `profile` with `depth` guesses left, what the
/// codes outside cost at least if the multisets raised it above `even` (`None`
/// if not).
#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    even: u64,
    profile: Profile,
    raised: Option<u64>,
}

/// See the module docs.
pub(super) struct FloorMemo {
    /// Made on first use, [`slot_count`] of them.
    slots: OnceLock<Box<[Mutex<Option<Entry>>]>>,
    codes: usize,
}

impl FloorMemo {
    /// An empty memo for a board of `codes` codes.
    pub(super) fn new(codes: usize) -> FloorMemo {
        FloorMemo {
            slots: OnceLock::new(),
            codes,
        }
    }

    /// The slot of `profile` at `depth`.
    fn slot(&self, depth: u32, profile: &Profile) -> &Mutex<Option<Entry>> {
        let slots = self.slots.get_or_init(|| {
            (0..slot_count(self.codes))
                .map(|_| Mutex::new(None))
                .collect()
        });
        let mut hasher = FxHasher::default();
        (depth, profile).hash(&mut hasher);
        &slots[hasher.finish() as usize & (slots.len() - 1)]
    }

    /// The floor kept for `profile` at `depth` over `even`, if one is.
    pub(super) fn get(&self, depth: u32, even: u64, profile: &Profile) -> Option<Option<u64>> {
        let entry = *self.slot(depth, profile).lock().unwrap();
        entry
            .filter(|e| e.depth == depth && e.even == even && e.profile == *profile)
            .map(|e| e.raised)
    }

    /// Keeps the floor found for `profile` at `depth` over `even`, in place of
    /// its slot's.
    pub(super) fn put(&self, depth: u32, even: u64, profile: Profile, raised: Option<u64>) {
        *self.slot(depth, &profile).lock().unwrap() = Some(Entry {
            depth,
            even,
            profile,
            raised,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four slots a code up to the most, under the 24 MiB the estimate's docs
    /// state.
    #[test]
    fn memo_bytes_as_stated() {
        let slot = std::mem::size_of::<Mutex<Option<Entry>>>();
        assert_eq!(memo_bytes(1296), 8192 * slot);
        assert_eq!(memo_bytes(32768), MOST_SLOTS * slot);
        assert_eq!(memo_bytes(1 << 24), MOST_SLOTS * slot);
        assert!(memo_bytes(1 << 24) < 24 << 20);
    }
}
