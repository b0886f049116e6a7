//! Relabelling codes: permuting the pegs and the colours of a board. Every such
//! relabelling maps codes to codes and keeps every score, which is what the
//! equivalent guesses at a node (module `symmetry`) and the cache keys shared by
//! equivalent sets (module `canonical`) both rest on; both build on this one. This module holds what they share: reading a packed code's pegs,
//! the counts of each colour at each peg, one relabelling type, and the one
//! backtracking enumerator that finds the relabellings each of them wants.

/// The colour at peg `j` of the packed code `x` of a board with `pegs` pegs (one
/// colour per 4-bit nibble, first peg most significant).
#[inline(always)]
pub fn peg(x: u32, pegs: usize, j: usize) -> u8 {
    ((x >> (4 * (pegs - 1 - j))) & 15) as u8
}

/// Counts of each colour at each peg of `set` (packed codes): `counts[peg][colour]`.
pub fn column_counts(set: impl Iterator<Item = u32>, pegs: usize) -> [[u32; 16]; 8] {
    let mut counts = [[0u32; 16]; 8];
    for x in set {
        for (j, column) in counts.iter_mut().enumerate().take(pegs) {
            column[usize::from(peg(x, pegs, j))] += 1;
        }
    }
    counts
}

/// A peg permutation and a colour permutation: the image of a code takes at peg
/// `j` the colour at peg `from[j]`, recoloured by `color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relabel {
    pub from: [u8; 8],
    pub color: [u8; 16],
}

impl Relabel {
    /// The relabelling with these permutations (`from` has one entry per peg).
    pub fn new(from: &[u8], color: [u8; 16]) -> Relabel {
        let mut pegs = [0u8; 8];
        pegs[..from.len()].copy_from_slice(from);
        Relabel { from: pegs, color }
    }

    /// The relabelling that undoes this one, on a board with `pegs` pegs.
    pub fn inverse(&self, pegs: usize) -> Relabel {
        let mut from = [0u8; 8];
        for (j, &f) in self.from.iter().enumerate().take(pegs) {
            from[usize::from(f)] = j as u8;
        }
        let mut color = [0u8; 16];
        for (c, &d) in self.color.iter().enumerate() {
            color[usize::from(d)] = c as u8;
        }
        Relabel { from, color }
    }

    /// The image of the packed code `x` of a board with `pegs` pegs.
    pub fn apply(&self, x: u32, pegs: usize) -> u32 {
        (0..pegs).fold(0u32, |y, j| {
            let c = peg(x, pegs, usize::from(self.from[j]));
            (y << 4) | u32::from(self.color[usize::from(c)])
        })
    }
}

/// Calls `visit` with every way of giving the slots `0..slots` distinct values from
/// `values`, chosen slot by slot, and the state it ends in. `step(state, slot,
/// value)` accepts the value for the slot, returning the state that follows, or
/// refuses it; every assignment that starts with a refused choice is skipped, so
/// a step that refuses early keeps the search small.
pub fn injections<S: Copy>(
    slots: usize,
    values: &[u8],
    start: S,
    step: &impl Fn(&S, usize, u8) -> Option<S>,
    visit: &mut impl FnMut(&[u8], &S),
) {
    fn extend<S: Copy>(
        slots: usize,
        values: &[u8],
        chosen: &mut Vec<u8>,
        used: u16,
        state: S,
        step: &impl Fn(&S, usize, u8) -> Option<S>,
        visit: &mut impl FnMut(&[u8], &S),
    ) {
        let slot = chosen.len();
        if slot == slots {
            return visit(chosen, &state);
        }
        for &value in values {
            if used & (1 << value) == 0 {
                if let Some(next) = step(&state, slot, value) {
                    chosen.push(value);
                    extend(
                        slots,
                        values,
                        chosen,
                        used | (1 << value),
                        next,
                        step,
                        visit,
                    );
                    chosen.pop();
                }
            }
        }
    }
    let mut chosen = Vec::with_capacity(slots);
    extend(slots, values, &mut chosen, 0, start, step, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injections_are_every_arrangement_the_steps_allow() {
        let mut all = Vec::new();
        injections(3, &[0, 1, 2], (), &|_, _, _| Some(()), &mut |chosen, _| {
            all.push(chosen.to_vec())
        });
        assert_eq!(all.len(), 6);
        assert!(all.contains(&vec![2, 0, 1]));
        // Slot 0 refuses value 0; the state counts the slots filled.
        let mut kept = Vec::new();
        let step =
            |filled: &u32, slot: usize, value: u8| (slot != 0 || value != 0).then_some(filled + 1);
        injections(2, &[0, 1, 2], 0u32, &step, &mut |chosen, filled| {
            kept.push((chosen.to_vec(), *filled))
        });
        assert_eq!(
            kept,
            vec![
                (vec![1, 0], 2),
                (vec![1, 2], 2),
                (vec![2, 0], 2),
                (vec![2, 1], 2)
            ]
        );
    }

    #[test]
    fn a_relabelling_moves_pegs_then_colours() {
        // 4 pegs: 1123 (colours 0,0,1,2) with pegs reversed and colours 0<->2.
        let x = 0x0012;
        let map = Relabel::new(&[3, 2, 1, 0], {
            let mut c: [u8; 16] = std::array::from_fn(|c| c as u8);
            c.swap(0, 2);
            c
        });
        assert_eq!(map.apply(x, 4), 0x0122);
        assert_eq!(map.inverse(4).apply(0x0122, 4), x);
        assert_eq!(peg(x, 4, 3), 2);
        let counts = column_counts([0x0012, 0x0000].into_iter(), 4);
        assert_eq!((counts[0][0], counts[3][2], counts[3][0]), (2, 1, 1));
    }
}
