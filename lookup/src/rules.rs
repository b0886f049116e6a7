//! The heuristic rules in their plain form: score every guess against every
//! remaining secret, compare the class sizes by the rule's definition.
//!
//! `mmlookup` uses this when a game leaves the tree's line (the player guessed
//! something else) and to explain a move; the generator's fast search, with its
//! early exits, symmetry and threads, is tested against it. Slow and obviously
//! correct on purpose: it makes no attempt to be fast.

use crate::board::{Board, Code};
use crate::format::StrategyKind;
use crate::score::{score, ScoreBits};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::vec::Vec;

/// A rule that chooses a guess from the sizes of the answer classes it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Smallest largest class (Knuth 1977).
    Knuth,
    /// Smallest sum of squared class sizes (Irving 1979).
    ExpectedSize,
    /// Largest entropy of the class sizes (Neuwirth 1982).
    Entropy,
    /// Most non-empty classes (Kooi 2005).
    MostParts,
    /// The smallest still-possible code.
    Consistent,
}

impl Rule {
    /// The rule of a strategy; `None` for strategies that are not a one-step rule
    /// (the exact search, imported trees).
    pub fn of(kind: StrategyKind) -> Option<Rule> {
        Some(match kind {
            StrategyKind::Knuth => Rule::Knuth,
            StrategyKind::ExpectedSize => Rule::ExpectedSize,
            StrategyKind::Entropy => Rule::Entropy,
            StrategyKind::MostParts => Rule::MostParts,
            StrategyKind::Consistent => Rule::Consistent,
            StrategyKind::Optimal | StrategyKind::Imported => return None,
        })
    }

    /// The strategy this rule plays.
    pub fn kind(self) -> StrategyKind {
        match self {
            Rule::Knuth => StrategyKind::Knuth,
            Rule::ExpectedSize => StrategyKind::ExpectedSize,
            Rule::Entropy => StrategyKind::Entropy,
            Rule::MostParts => StrategyKind::MostParts,
            Rule::Consistent => StrategyKind::Consistent,
        }
    }

    /// The rule's name, as the strategy's.
    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// Compares two guesses by the sizes of their non-empty classes: `Less` when the
    /// first is better. Entropy ties are exact: equal products `prod c^c` (compared
    /// by their prime factorisations) are equal.
    pub fn compare(self, a: &[u32], b: &[u32]) -> Ordering {
        match self {
            Rule::Knuth => a.iter().max().cmp(&b.iter().max()),
            Rule::ExpectedSize => squares(a).cmp(&squares(b)),
            Rule::MostParts => b.len().cmp(&a.len()),
            Rule::Consistent => Ordering::Equal,
            Rule::Entropy => {
                if prime_exponents(a) == prime_exponents(b) {
                    Ordering::Equal
                } else {
                    c_log_c(a).total_cmp(&c_log_c(b))
                }
            }
        }
    }
}

impl Rule {
    /// The figure the rule compares, by name, as `explain` shows it: the worst
    /// class and the expected size of the next set (sum of squares over the
    /// secrets) are better low, the entropy in bits and the number of classes
    /// better high. `None` for the consistent rule, which compares nothing.
    pub fn figure(self, sizes: &[u32]) -> Option<(&'static str, f64)> {
        let n = f64::from(sizes.iter().sum::<u32>());
        Some(match self {
            Rule::Knuth => ("worst class", f64::from(sizes.iter().copied().max()?)),
            Rule::ExpectedSize => ("expected remaining", squares(sizes) as f64 / n),
            Rule::Entropy => ("entropy in bits", n.log2() - c_log_c(sizes) / n),
            Rule::MostParts => ("classes", sizes.len() as f64),
            Rule::Consistent => return None,
        })
    }
}

fn squares(sizes: &[u32]) -> u64 {
    sizes.iter().map(|&c| u64::from(c) * u64::from(c)).sum()
}

fn c_log_c(sizes: &[u32]) -> f64 {
    sizes
        .iter()
        .map(|&c| f64::from(c) * f64::from(c).log2())
        .sum()
}

/// The factorisation of `prod c^c` as prime -> exponent.
fn prime_exponents(sizes: &[u32]) -> BTreeMap<u32, u32> {
    let mut exponents = BTreeMap::new();
    for &c in sizes {
        let (mut n, mut p) = (c, 2);
        while n > 1 {
            while n % p == 0 {
                *exponents.entry(p).or_insert(0) += c;
                n /= p;
            }
            p += 1;
        }
    }
    exponents
}

/// The secrets of `candidates` grouped by the answer `guess` gets, in answer order.
pub fn partition(
    board: &Board,
    guess: Code,
    candidates: &[Code],
) -> Vec<(crate::Feedback, Vec<Code>)> {
    let mut classes: HashMap<crate::Feedback, Vec<Code>> = HashMap::new();
    for &s in candidates {
        classes
            .entry(score(guess, s, board.pegs()))
            .or_default()
            .push(s);
    }
    let mut classes: Vec<_> = classes.into_iter().collect();
    classes.sort_by_key(|(f, _)| f.index(board.pegs()));
    classes
}

/// Sizes of the non-empty classes `guess` makes of `candidates`, in answer order
/// (a count per answer: the same classes as [`partition`], without the codes).
pub fn class_sizes(board: &Board, guess: Code, candidates: &[Code]) -> Vec<u32> {
    let secrets: Vec<Bits> = candidates.iter().map(|&c| bits(board, c)).collect();
    sizes(board, bits(board, guess), &secrets)
}

/// A code laid out for scoring ([`ScoreBits`]), once per code instead of once per
/// pair: the plain [`score`] lays out both codes every time.
type Bits = ScoreBits<u128>;

fn bits(board: &Board, code: Code) -> Bits {
    ScoreBits::of(code, board.pegs(), 16)
}

fn sizes(board: &Board, guess: Bits, secrets: &[Bits]) -> Vec<u32> {
    let pegs = board.pegs();
    let mut counts = [0u32; crate::score::MAX_ANSWERS];
    for &s in secrets {
        counts[guess.score(s).index(pegs)] += 1;
    }
    counts.into_iter().filter(|&c| c > 0).collect()
}

/// The guess `rule` plays for `candidates` (sorted, at least one): among all codes
/// (or only the candidates), the best by the rule; ties to a candidate, then to the
/// smallest code. A single candidate is guessed.
pub fn best_guess(board: &Board, rule: Rule, candidates: &[Code], consistent_only: bool) -> Code {
    if candidates.len() == 1 || rule == Rule::Consistent {
        return candidates[0];
    }
    let pool: Vec<Code> = if consistent_only {
        candidates.to_vec()
    } else {
        board.codes().collect()
    };
    let is_candidate = |g: &Code| candidates.binary_search(g).is_ok();
    let secrets: Vec<Bits> = candidates.iter().map(|&c| bits(board, c)).collect();
    let sizes_of = |guess| sizes(board, bits(board, guess), &secrets);
    let mut best = pool[0];
    let mut best_sizes = sizes_of(best);
    for &guess in &pool[1..] {
        let sizes = sizes_of(guess);
        let better = match rule.compare(&sizes, &best_sizes) {
            Ordering::Less => true,
            Ordering::Equal => is_candidate(&guess) && !is_candidate(&best),
            Ordering::Greater => false,
        };
        if better {
            (best, best_sizes) = (guess, sizes);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_first_guess_on_the_classic_board_is_1122() {
        let board = Board::classic();
        let all: Vec<Code> = board.codes().collect();
        let best = best_guess(&board, Rule::Knuth, &all, false);
        assert_eq!(board.display(best).to_string(), "1122");
        assert_eq!(class_sizes(&board, best, &all).iter().max(), Some(&256));
        let from_partition: Vec<u32> = partition(&board, best, &all)
            .iter()
            .map(|(_, class)| class.len() as u32)
            .collect();
        assert_eq!(class_sizes(&board, best, &all), from_partition);
    }

    #[test]
    fn rules_compare_by_their_definitions() {
        assert_eq!(Rule::Knuth.compare(&[3, 1], &[2, 2]), Ordering::Greater);
        assert_eq!(
            Rule::ExpectedSize.compare(&[3, 1], &[2, 2]),
            Ordering::Greater
        );
        assert_eq!(Rule::MostParts.compare(&[2, 1, 1], &[2, 2]), Ordering::Less);
        // prod c^c: 6^6 = 3^3 * 3^3 * 2^2 * 2^2 * 2^2 exactly.
        assert_eq!(
            Rule::Entropy.compare(&[6, 1, 1, 1, 1, 1, 1], &[3, 3, 2, 2, 2]),
            Ordering::Equal
        );
        assert_eq!(Rule::Entropy.compare(&[2, 2], &[3, 1]), Ordering::Less);
        assert_eq!(Rule::of(StrategyKind::Optimal), None);
        for kind in StrategyKind::ALL {
            assert!(Rule::of(kind).is_none_or(|rule| rule.kind() == kind));
        }
        assert_eq!(Rule::Entropy.name(), "entropy");
    }
}
