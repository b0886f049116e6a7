//! Neuwirth's rule (1982): maximise the entropy of the class sizes, scored as a
//! [`ConvexSum`] of the table made here.
//!
//! For a fixed candidate count n, the entropy `log2 n - (1/n) * sum c log2 c` is
//! largest where `sum c log2 c` is smallest, so that sum is the score. It is computed
//! in integers, the same on every platform and thread schedule: `log2 p` of each
//! prime p is rounded once to a fixed point with [`FRACTION_BITS`] fractional bits
//! by an integer-only algorithm, and `c log2 c` is `c` times the sum of the prime
//! logarithms of `c`'s factorisation. Two partitions whose products `prod c^c` are
//! equal (a true tie, by unique factorisation) therefore get exactly the same score
//! and fall to the tie-break; partitions whose true scores differ by less than the
//! rounding (about 2^-32 times the number of secrets) are ordered by the rounded
//! values, identically everywhere.

use super::convex_sum::ConvexSum;

/// Fractional bits of the fixed point: `n log2 n` for 2^24 codes stays below 2^64.
pub const FRACTION_BITS: u32 = 32;

/// `log2 p` in fixed point, by repeated squaring of the mantissa (integers only).
fn log2_fixed(p: u64) -> u64 {
    let whole = 63 - u64::from(p.leading_zeros());
    // Mantissa in [1, 2) with 62 fractional bits.
    let mut m = p << (62 - whole);
    let mut fraction = 0u64;
    for _ in 0..FRACTION_BITS {
        m = ((u128::from(m) * u128::from(m)) >> 62) as u64;
        fraction <<= 1;
        if m >= 1 << 63 {
            fraction |= 1;
            m >>= 1;
        }
    }
    (whole << FRACTION_BITS) | fraction
}

/// `c log2 c` in fixed point for every class size up to `codes`.
pub fn c_log_c(codes: u32) -> Vec<u64> {
    let n = codes as usize;
    // log2 of every c <= n from its smallest prime factor: log(c) = log(p) + log(c/p).
    let mut smallest_factor = vec![0u32; n + 1];
    let mut log = vec![0u64; n + 1];
    for c in 2..=n {
        if smallest_factor[c] == 0 {
            for multiple in (c..=n).step_by(c) {
                if smallest_factor[multiple] == 0 {
                    smallest_factor[multiple] = c as u32;
                }
            }
        }
        let p = smallest_factor[c] as usize;
        log[c] = if p == c {
            log2_fixed(c as u64)
        } else {
            log[p] + log[c / p]
        };
    }
    log.iter().enumerate().map(|(c, &l)| c as u64 * l).collect()
}

/// Score: `sum c log2 c` over the classes, in fixed point.
pub fn entropy(
    codes: u32,
) -> ConvexSum<impl Fn(u32) -> u64 + Send + Sync, impl Fn(u32) -> u64 + Send + Sync> {
    let table = c_log_c(codes);
    // steps[c - 1] = f(c) - f(c - 1): one load for each secret placed.
    let steps: Vec<u64> = table.windows(2).map(|w| w[1] - w[0]).collect();
    ConvexSum {
        f: move |c: u32| table[c as usize],
        step: move |c: u32| steps[c as usize - 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_logs_are_close_and_exact_on_powers_of_two() {
        let one = (1u64 << FRACTION_BITS) as f64;
        for p in [2u64, 3, 5, 7, 11, 13, 1009, 65521] {
            let got = log2_fixed(p) as f64 / one;
            assert!((got - (p as f64).log2()).abs() < 1e-8, "log2 {p}: {got}");
        }
        let t = c_log_c(1 << 12);
        assert_eq!(t[8], (8 * 3) << FRACTION_BITS);
        assert_eq!(t[1], 0);
    }

    #[test]
    fn true_ties_are_exact() {
        // 6^6 * 1 = 3^6 * 2^6: classes {6,1,1,1,1,1,1} and {3,3,2,2,2} tie exactly.
        let t = c_log_c(64);
        assert_eq!(t[6], 2 * t[3] + 3 * t[2]);
        assert_eq!(t[4], 2 * t[2] * 2);
        assert!(t[5] > t[4] + t[1]);
    }
}
