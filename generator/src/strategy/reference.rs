//! Slow, obviously correct versions of every heuristic, for the tests: every guess
//! scored against every candidate with the library's plain `score`, classes in a
//! map, the rule's quantity computed from its definition, no early exit, no
//! symmetry, no threads. The fast strategies must build the very same trees.

use super::{by_name, Options, Strategy};
use crate::build::{expand, layout};
use crate::partition::Codes;
use crate::search::{Counters, Node, Settings};
use lookup::format::StrategyInfo;
use lookup::score::score;
use lookup::Board;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Copy)]
enum Definition {
    Largest,
    SumOfSquares,
    Entropy,
    Parts,
}

/// Compares two class-size lists by the rule (Less = better).
fn compare(rule: Definition, a: &[u32], b: &[u32]) -> Ordering {
    let key = |sizes: &[u32]| -> (u64, f64, BTreeMap<u32, u32>) {
        match rule {
            Definition::Largest => (
                u64::from(*sizes.iter().max().unwrap()),
                0.0,
                BTreeMap::new(),
            ),
            Definition::SumOfSquares => (
                sizes.iter().map(|&c| u64::from(c * c)).sum(),
                0.0,
                BTreeMap::new(),
            ),
            Definition::Parts => (100 - sizes.len() as u64, 0.0, BTreeMap::new()),
            Definition::Entropy => {
                // Exact identity by the multiset of prime exponents of prod c^c,
                // order by the real value.
                let mut exponents = BTreeMap::new();
                for &c in sizes {
                    let mut n = c;
                    let mut p = 2;
                    while n > 1 {
                        while n % p == 0 {
                            *exponents.entry(p).or_insert(0) += c;
                            n /= p;
                        }
                        p += 1;
                    }
                }
                let value = sizes
                    .iter()
                    .map(|&c| f64::from(c) * f64::from(c).log2())
                    .sum();
                (0, value, exponents)
            }
        }
    };
    let (ka, kb) = (key(a), key(b));
    if matches!(rule, Definition::Entropy) && ka.2 == kb.2 {
        return Ordering::Equal;
    }
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
}

struct Reference {
    rule: Definition,
    consistent_only: bool,
}

impl Strategy for Reference {
    fn info(&self) -> StrategyInfo {
        unreachable!("only the tree is compared")
    }

    fn choose(&self, codes: &Codes, node: &Node, _: Settings, _: &Counters) -> u32 {
        let pegs = codes.board().pegs();
        let candidates = node.candidates;
        let pool: Vec<u32> = if self.consistent_only {
            candidates.to_vec()
        } else {
            (0..codes.len()).collect()
        };
        let sizes = |g: u32| -> Vec<u32> {
            let mut classes = HashMap::new();
            for &s in candidates {
                *classes
                    .entry(score(codes.code(g), codes.code(s), pegs))
                    .or_insert(0) += 1;
            }
            classes.into_values().collect()
        };
        let mut best = pool[0];
        let mut best_sizes = sizes(best);
        for &g in &pool[1..] {
            let here = sizes(g);
            let better = match compare(self.rule, &here, &best_sizes) {
                Ordering::Less => true,
                Ordering::Equal => candidates.contains(&g) && !candidates.contains(&best),
                Ordering::Greater => false,
            };
            if better {
                (best, best_sizes) = (g, here);
            }
        }
        best
    }
}

#[test]
fn every_heuristic_builds_the_reference_tree() {
    let boards = [
        (3, 4, true),
        (3, 5, true),
        (4, 4, true),
        (4, 6, false),
        (2, 7, true),
        (4, 6, true),
    ];
    let rules = [
        ("knuth", Definition::Largest),
        ("expected-size", Definition::SumOfSquares),
        ("entropy", Definition::Entropy),
        ("most-parts", Definition::Parts),
    ];
    for (p, c, r) in boards {
        let board = Board::new(p, c, r).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        for (name, rule) in rules {
            for consistent_only in [false, true] {
                // The classic board is slow for the reference: one pool is enough there.
                if board == Board::classic() && consistent_only {
                    continue;
                }
                let options = Options {
                    consistent_only,
                    first: None,
                };
                let reference = Reference {
                    rule,
                    consistent_only,
                };
                let slow = layout(&expand(
                    &codes,
                    &reference,
                    Settings { symmetry: false },
                    &counters,
                ));
                let fast_strategy = by_name(name, options, board).unwrap();
                for symmetry in [false, true] {
                    let fast = layout(&expand(
                        &codes,
                        fast_strategy.as_ref(),
                        Settings { symmetry },
                        &counters,
                    ));
                    let what = format!("{name} on {p}x{c} repeat={r} consistent_only={consistent_only} symmetry={symmetry}");
                    assert!(
                        fast.records == slow.records && fast.edges == slow.edges,
                        "{what}"
                    );
                    assert_eq!(fast.stats, slow.stats, "{what}");
                }
            }
        }
    }
}
