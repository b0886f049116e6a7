//! Which answers a guess gets over a set of secrets, as three bit sets: the
//! answers got by at least one secret, two and three ([`Spread`]). Where a set's
//! cost by the bounds rests on its classes' count alone, that is all a look needs
//! (`Exact::candidates_own`): no class sizes kept and no test per secret.
//!
//! A look scores every candidate of a small set against every secret of it, n^2
//! pairs (sets of 3 to 40 secrets on a 5x8 item, 14 on average), and that loop
//! was a fifth of the item's search. So [`spreads`] takes [`LANES`] guesses at
//! once, one secret over all of them: each guess's work is the same vector
//! operation, so where the CPU has vector population counts the eight guesses
//! are one instruction each; compiled for those too, the fastest picked at run
//! time (the multiversion crate, as for the multisets' scan). Eight secrets a
//! lane, one guess at a time, was slower than the plain loop: a set of 14 secrets
//! left most of the work to the lanes' merge and the rest. The change took 15% off
//! a 5x6 proof and a 5x8 item (BENCHMARKS.md, "a small set's candidates scored
//! eight at a time").
//!
//! An answer's bit comes from its pegs by arithmetic, not from the board's answer
//! index: a table lookup per lane would be a gather. The bits name answers in
//! another order than the answer index, which no reader of a spread minds: it
//! counts the answers and asks whether any came three times.

use lookup::score::{ScoreBits, Word};

/// The answers one guess gets over a candidate set, as bit sets (bit
/// `answer_bit` of each answer): those got by at least one secret, two and three.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    pub once: u64,
    pub twice: u64,
    pub thrice: u64,
}

/// The bit of an answer with `shared` pegs shared and `black` black (black <=
/// shared): bit s(s + 1)/2 + b. Distinct answers get distinct bits, and up to 8
/// pegs every bit is below 45. In 64-bit words, as the population counts give
/// them: a lane of a vector.
#[inline(always)]
fn answer_bit(black: u64, shared: u64) -> u64 {
    1 << (shared * (shared + 1) / 2 + black)
}

/// Guesses [`super::Codes::candidate_spreads`] works out the spreads of at once.
pub const LANES: usize = 8;

/// The spreads of [`LANES`] guesses, a lane each, side by side: one vector each.
#[derive(Default)]
pub struct Spreads {
    once: [u64; LANES],
    twice: [u64; LANES],
    thrice: [u64; LANES],
}

impl Spreads {
    /// The spread of the guess in `lane`.
    pub fn get(&self, lane: usize) -> Spread {
        Spread {
            once: self.once[lane],
            twice: self.twice[lane],
            thrice: self.thrice[lane],
        }
    }
}

/// The spreads of up to [`LANES`] `guesses` over `secrets`, in `out` (the lanes
/// past the guesses given are of no use). Written into `out` and over slices:
/// so LLVM makes each loop over the lanes one vector operation (with the lanes
/// in local arrays it made them scalars, one population count a lane).
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx512vpopcntdq+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
    "x86_64+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
))]
pub fn spreads<W: Word>(guesses: &[ScoreBits<W>], secrets: &[ScoreBits<W>], out: &mut Spreads) {
    let (mut places, mut counts) = ([W::ZERO; LANES], [W::ZERO; LANES]);
    for ((places, counts), guess) in places.iter_mut().zip(&mut counts).zip(guesses) {
        (*places, *counts) = (guess.places, guess.counts);
    }
    *out = Spreads::default();
    for &secret in secrets {
        let mut bits = [0u64; LANES];
        for ((bit, &places), &counts) in bits.iter_mut().zip(&places).zip(&counts) {
            let black = u64::from((places & secret.places).ones());
            let shared = u64::from((counts & secret.counts).ones());
            *bit = answer_bit(black, shared);
        }
        let lanes = (out.once.iter_mut())
            .zip(&mut out.twice)
            .zip(&mut out.thrice)
            .zip(&bits);
        for (((once, twice), thrice), &bit) in lanes {
            *thrice |= *twice & bit;
            *twice |= *once & bit;
            *once |= bit;
        }
    }
}
