//! Secrets as bits, one per secret for each peg and colour, so that the blacks a
//! code gets from each of them (the pegs where the two have the same colour) are
//! counted 64 secrets at a time.
//!
//! Why: a check tries most codes outside a set by their groups of secrets
//! (`Check::groups_reach`), and within a group every answer shares as many pegs,
//! so only its blacks tell the classes apart. Scored a secret at a time, that
//! count was most of the time of those tries; here a code's pegs pick one word
//! per peg, the words are added bit by bit (a counter per secret, four bits
//! deep, for up to 8 pegs), and each count's secrets are a population count.

use crate::game::{Board, Code};
use std::ops::Range;

/// Secrets laid out by peg and colour ([`PegBits::fill`]).
#[derive(Default)]
pub struct PegBits {
    pegs: usize,
    colors: usize,
    /// Words per peg and colour: one bit for each secret, in their order.
    words: usize,
    /// Word `w` of peg `j` and colour `c` at `(j * colors + c) * words + w`.
    bits: Vec<u64>,
}

impl PegBits {
    /// Lays out `secrets` (codes of `board`), reusing the room of the last.
    pub fn fill(&mut self, board: &Board, secrets: &[u32]) {
        self.pegs = board.pegs;
        self.colors = board.colors;
        self.words = secrets.len().div_ceil(64);
        self.bits.clear();
        self.bits.resize(self.pegs * self.colors * self.words, 0);
        for (i, &s) in secrets.iter().enumerate() {
            let code = &board.codes[s as usize];
            for (j, &c) in code[..self.pegs].iter().enumerate() {
                let row = j * self.colors + usize::from(c);
                self.bits[row * self.words + i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// How many of the secrets at `span` (positions in the order filled) get each
    /// count of blacks from `code`.
    pub fn blacks(&self, code: &Code, span: Range<usize>) -> [usize; 9] {
        let mut sizes = [0usize; 9];
        if span.is_empty() {
            return sizes;
        }
        for w in span.start / 64..=(span.end - 1) / 64 {
            // The secrets of `span` in this word.
            let from = span.start.max(w * 64) - w * 64;
            let to = span.end.min(w * 64 + 64) - w * 64;
            let mask = (u64::MAX >> (64 - (to - from))) << from;
            // A four-bit counter per secret, its bits in four words.
            let mut count = [0u64; 4];
            for (j, &c) in code[..self.pegs].iter().enumerate() {
                let mut carry = self.bits[(j * self.colors + usize::from(c)) * self.words + w];
                for bit in &mut count {
                    let next = *bit & carry;
                    *bit ^= carry;
                    carry = next;
                }
            }
            for (blacks, size) in sizes.iter_mut().enumerate().take(self.pegs + 1) {
                let chosen = (count.iter().enumerate()).fold(mask, |chosen, (b, &bit)| {
                    chosen & if blacks >> b & 1 == 1 { bit } else { !bit }
                });
                *size += chosen.count_ones() as usize;
            }
        }
        sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blacks counted by bits are those counted peg by peg, on 4x6, 5x8
    /// (repeats) and 6x9 (none) sets of many sizes, over spans that start and end
    /// inside words and across them, with every code of the board's first few.
    #[test]
    fn blacks_by_bits_are_blacks_counted_peg_by_peg() {
        let mut seed = 7u64;
        let mut next = |below: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below
        };
        let mut bits = PegBits::default();
        for (pegs, colors, repeat) in [(4, 6, true), (5, 8, true), (6, 9, false)] {
            let board = Board::new(pegs, colors, repeat).unwrap();
            let all = board.codes.len();
            for n in [1, 2, 63, 64, 65, 200] {
                let secrets: Vec<u32> = (0..n).map(|_| next(all) as u32).collect();
                bits.fill(&board, &secrets);
                let from = next(n);
                let span = from..from + next(n - from + 1);
                for g in (0..all).step_by(all / 50 + 1) {
                    let code = &board.codes[g];
                    let mut plain = [0usize; 9];
                    for &s in &secrets[span.clone()] {
                        let other = &board.codes[s as usize];
                        plain[(0..pegs).filter(|&j| code[j] == other[j]).count()] += 1;
                    }
                    assert_eq!(
                        bits.blacks(code, span.clone()),
                        plain,
                        "{pegs}x{colors} {span:?}"
                    );
                }
            }
        }
    }
}
