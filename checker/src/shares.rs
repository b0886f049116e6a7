//! The pegs each colour multiset shares with a set's secrets, for many multisets
//! side by side. A look finished (`Checker::finish_look`) floors every code
//! outside its set by its multiset: the secrets grouped by the pegs they share
//! with it, each group split as evenly as its answers allow. Multiset by multiset,
//! that scan was a fifth of a 5x8 part's check, about 378 multisets a look.
//!
//! Here [`BLOCK`] multisets lie side by side, a byte each, colour by colour
//! ([`Block`]), so the pegs a group of secrets shares with all of them is a
//! minimum and a sum per colour the group has, each one vector operation; and
//! each multiset's groups are tallied in one word, `width` bits a group (as the
//! search's scan does, in code of its own), a shift and an add each. Compiled for
//! AVX-512 and AVX2 too, the fastest picked at run time (the multiversion crate).

/// Multisets a [`Block`] holds.
pub const BLOCK: usize = 64;

/// Up to [`BLOCK`] multisets' colour counts side by side: `colors[c][i]` is how
/// many of colour `c` multiset `ids[i]` has (0 past the multisets).
pub struct Block {
    pub ids: Vec<usize>,
    colors: [[u8; BLOCK]; 16],
}

impl Block {
    /// The block of the multisets `ids` (at most [`BLOCK`]), whose colour counts
    /// are `counts(id)`.
    pub fn new(ids: &[usize], counts: impl Fn(usize) -> [u8; 16]) -> Block {
        let mut colors = [[0; BLOCK]; 16];
        for (i, &id) in ids.iter().enumerate() {
            for (column, count) in colors.iter_mut().zip(counts(id)) {
                column[i] = count;
            }
        }
        Block {
            ids: ids.to_vec(),
            colors,
        }
    }

    /// Each multiset's secrets by the pegs they share with it, tallied in `out`
    /// (the multisets in order): the count of those sharing `k` pegs in bits
    /// `k * width` on. `secrets` are the secrets grouped by their colour counts,
    /// each with how many; every count must stay below `2^width`, and the pegs
    /// times `width` within 64 bits.
    pub fn tally(&self, secrets: &[([u8; 16], u64)], width: u64, out: &mut Tally) {
        tally(&self.colors, secrets, width, out)
    }
}

/// Each multiset's groups of secrets in a word, `width` bits a group
/// ([`Block::tally`]).
pub struct Tally(pub [u64; BLOCK]);

impl Default for Tally {
    fn default() -> Tally {
        Tally([0; BLOCK])
    }
}

/// [`Block::tally`]: written into `out` and over slices, so that LLVM makes each
/// loop over the multisets one vector operation.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx512vpopcntdq+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
    "x86_64+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
))]
fn tally(colors: &[[u8; BLOCK]; 16], secrets: &[([u8; 16], u64)], width: u64, out: &mut Tally) {
    out.0 = [0; BLOCK];
    for (counts, k) in secrets {
        let mut shared = [0u8; BLOCK];
        for (&count, column) in counts.iter().zip(colors) {
            if count == 0 {
                continue;
            }
            for (shared, &has) in shared.iter_mut().zip(column) {
                *shared += has.min(count);
            }
        }
        for (tally, &shared) in out.0.iter_mut().zip(&shared) {
            *tally += k << (width * u64::from(shared));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each multiset's tally is the count of the secrets by the pegs they share
    /// with it, colour by colour, for a block of every multiset of 5 pegs over 4
    /// colours (fewer than a block) and blocks of 5 pegs over 8 (more).
    #[test]
    fn a_block_tallies_each_multisets_secrets_by_shared_pegs() {
        for colors in [4usize, 8] {
            // Every multiset of 5 pegs over `colors` colours, as colour counts.
            let mut all: Vec<[u8; 16]> = Vec::new();
            let mut counts = [0u8; 16];
            fn fill(
                c: usize,
                left: u8,
                colors: usize,
                counts: &mut [u8; 16],
                all: &mut Vec<[u8; 16]>,
            ) {
                if c == colors - 1 {
                    counts[c] = left;
                    all.push(*counts);
                    return;
                }
                for k in 0..=left {
                    counts[c] = k;
                    fill(c + 1, left - k, colors, counts, all);
                }
            }
            fill(0, 5, colors, &mut counts, &mut all);
            let secrets: Vec<([u8; 16], u64)> = (all.iter().step_by(3))
                .enumerate()
                .map(|(i, &c)| (c, 1 + i as u64 % 4))
                .collect();
            let ids: Vec<usize> = (0..all.len()).collect();
            let width = 10;
            for chunk in ids.chunks(BLOCK) {
                let block = Block::new(chunk, |id| all[id]);
                let mut out = Tally::default();
                block.tally(&secrets, width, &mut out);
                for (lane, &id) in chunk.iter().enumerate() {
                    let mut expected = 0u64;
                    for (counts, k) in &secrets {
                        let shared: u64 =
                            (0..16).map(|c| u64::from(all[id][c].min(counts[c]))).sum();
                        expected += k << (width * shared);
                    }
                    assert_eq!(
                        out.0[lane], expected,
                        "{colors} colours, multiset {:?}",
                        all[id]
                    );
                }
            }
        }
    }
}
