//! Lower bounds on what a set of secrets can cost: the greedy level filling of
//! [`lower_bound`], and the tables the hot loops read it from, per depth limit.

use super::{Exact, UNLIMITED};
use crate::codes::{coarse_capacity, even_split, Coarse};

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

/// The least depth limit under which `lower_bound` equals the unlimited bound for
/// every set of a board with `codes` codes: its levels hold them all.
pub(super) fn full_depth(codes: usize, answers: usize) -> usize {
    let branching = (answers - 1) as u64;
    let (mut depth, mut held, mut level) = (0, 0u64, 1u64);
    while held < codes as u64 {
        depth += 1;
        held = held.saturating_add(level);
        level = level.saturating_mul(branching);
    }
    depth
}

/// The bounds for one depth limit, by set size, in the forms the hot loops use.
pub(super) struct Tables {
    /// `bounds[c]`: [`lower_bound`] of c secrets.
    pub(super) bounds: Vec<u32>,
    /// `steps[c] = bounds[c] - bounds[c - 1]` (0 at c = 0): what one more secret in a
    /// class adds, one load where scoring a guess tightens its bound secret by secret.
    pub(super) steps: Vec<u32>,
    /// The largest class size c whose bound is `2c - 1` (one secret solved at
    /// once, the rest by the next guess), as are all below it (every bound is
    /// at least that): a candidate's own split whose classes stay within it
    /// costs `3n - 1` less the answers it gets, so a look counts its answers and
    /// sizes no class ([`Exact::candidates_look`]).
    pub(super) two_deep: usize,
    pub(super) spreads: Spreads,
}

/// Spread tables stop at this set size: a bigger class takes the spread of this
/// size, which is less (more secrets never cost less), so still a floor.
pub(super) const SPREAD_SIZES: usize = 1 << 16;

/// For each shared-peg count s and class size c: the least sum of bounds of c
/// secrets split among [`coarse_capacity`] classes, as evenly as possible
/// ([`even_split`]), capped at `u32::MAX` (no limit is higher). One row per s,
/// `sizes` long. A multiset's floor adds one of these per shared-peg count: a table
/// load instead of a division and two bound loads.
pub(super) struct Spreads {
    pub(super) sizes: usize,
    /// The rows: the shared-peg counts, 0 to the pegs.
    pub(super) rows: usize,
    pub(super) table: Vec<u32>,
}

impl Spreads {
    /// The least total the coarse classes `coarse` can cost beyond the node itself.
    pub(super) fn least(&self, coarse: &Coarse) -> u64 {
        (coarse.iter().enumerate())
            .take(self.rows)
            .map(|(shared, &size)| self.of(shared, size))
            .sum()
    }

    /// The least `size` secrets sharing `shared` pegs with a guess can cost.
    pub(super) fn of(&self, shared: usize, size: u32) -> u64 {
        let at = (size as usize).min(self.sizes - 1);
        u64::from(self.table[shared * self.sizes + at])
    }
}

impl Exact {
    /// The bounds of every set size for `depth` guesses.
    pub(super) fn tables(&self, depth: u32) -> &Tables {
        let slot = (depth as usize).min(self.tables.len() - 1);
        self.tables[slot].get_or_init(|| {
            let bounds: Vec<u32> = (0..=self.codes)
                .map(|n| lower_bound(n, self.answers, slot as u32))
                .collect();
            let steps = std::iter::once(0)
                .chain(bounds.windows(2).map(|w| w[1] - w[0]))
                .collect();
            let two_deep = (1..bounds.len())
                .take_while(|&c| u64::from(bounds[c]) == 2 * c as u64 - 1)
                .count();
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
                two_deep,
                spreads: Spreads {
                    sizes,
                    rows: self.pegs + 1,
                    table,
                },
            }
        })
    }

    /// Lower bounds of every set size for `depth` guesses.
    pub(super) fn bounds(&self, depth: u32) -> &[u32] {
        &self.tables(depth).bounds
    }

    pub(super) fn bound(&self, n: usize, depth: u32) -> u32 {
        self.bounds(depth)[n]
    }
}
