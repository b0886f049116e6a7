//! Lower bounds a checker proves from the rules alone, each with its argument.
//!
//! Costs are totals: the guesses summed over the secrets of a set, each secret's
//! count including the guess that wins it. `INFINITE` stands for "no strategy":
//! more secrets than the guesses left can tell apart.

/// No strategy exists.
pub const INFINITE: u64 = u64::MAX;

/// A depth: guesses left per secret, or none (`None`: no limit).
pub type Depth = Option<u32>;

/// One guess fewer.
pub fn deeper(depth: Depth) -> Depth {
    depth.map(|d| d.saturating_sub(1))
}

/// The least total any strategy needs for `n` secrets with `depth` guesses left,
/// when a guess has `answers` answers (the win included).
///
/// Why: a strategy's k-th guess is reached by k - 1 answers that are not wins, so
/// at most `(answers - 1)^(k-1)` secrets are won at guess k. Filling the levels
/// from the first is the least total; if `depth` levels hold fewer than `n`
/// secrets, no strategy exists.
pub fn least_total(n: u64, answers: usize, depth: Depth) -> u64 {
    let branching = answers as u64 - 1;
    let (mut total, mut left, mut room, mut level) = (0u64, n, 1u64, 1u64);
    while left > 0 {
        if depth.is_some_and(|d| level > u64::from(d)) {
            return INFINITE;
        }
        let here = room.min(left);
        total = total.saturating_add(level.saturating_mul(here));
        left -= here;
        room = room.saturating_mul(branching);
        level += 1;
    }
    total
}

/// The least total of `n` secrets split among at most `parts` classes, each
/// costing at least `cost(size)`.
///
/// Why: the k-th secret of a class costs the level it fills in `least_total`, and
/// levels only grow, so `cost` is convex: moving a secret from a bigger class to a
/// smaller one never raises the sum. The most even split is therefore the least.
pub fn even_split(n: u64, parts: u64, cost: impl Fn(u64) -> u64) -> u64 {
    if parts == 0 {
        return if n == 0 { 0 } else { INFINITE };
    }
    let (size, bigger) = (n / parts, n % parts);
    cost(size + 1)
        .saturating_mul(bigger)
        .saturating_add(cost(size).saturating_mul(parts - bigger))
}

/// How many different answers a guess that is not a secret of the set can get
/// from secrets that share `shared` of its `pegs` pegs (blacks plus whites).
///
/// Why: blacks run from 0 to `shared` (whites are the rest); all but one black
/// with one white is impossible, and all blacks would make the guess the secret.
pub fn capacity(pegs: usize, shared: usize) -> u64 {
    if shared < pegs {
        shared as u64 + 1
    } else {
        pegs as u64 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_fill_from_the_first() {
        // The classic board: 13 answers that are not wins.
        assert_eq!(least_total(1, 14, None), 1);
        assert_eq!(least_total(2, 14, None), 3);
        assert_eq!(least_total(14, 14, None), 1 + 2 * 13);
        assert_eq!(least_total(15, 14, None), 27 + 3);
        assert_eq!(least_total(15, 14, Some(2)), INFINITE);
        assert_eq!(least_total(14, 14, Some(2)), 27);
        assert_eq!(least_total(1, 14, Some(0)), INFINITE);
        assert_eq!(least_total(0, 14, Some(0)), 0);
    }

    #[test]
    fn even_splits_are_the_least_of_every_split() {
        let cost = |c: u64| least_total(c, 5, None);
        for n in 0..12u64 {
            for parts in 1..5u64 {
                // Every split into `parts` ordered sizes, by plain enumeration.
                let mut least = INFINITE;
                let mut sizes = vec![0u64; parts as usize];
                loop {
                    let sum: u64 = sizes.iter().sum();
                    if sum == n {
                        least = least.min(sizes.iter().map(|&s| cost(s)).sum());
                    }
                    let Some(i) = sizes.iter().position(|&s| s < n) else {
                        break;
                    };
                    sizes[i] += 1;
                    sizes[..i].fill(0);
                }
                assert_eq!(even_split(n, parts, cost), least, "{n} in {parts}");
            }
        }
    }

    #[test]
    fn capacities_count_the_possible_answers() {
        assert_eq!(
            (0..=4).map(|s| capacity(4, s)).collect::<Vec<_>>(),
            [1, 2, 3, 4, 3]
        );
    }
}
