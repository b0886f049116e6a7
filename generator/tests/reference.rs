//! The fast strategies against the plain rules of `lookup::rules` (every guess
//! scored against every candidate, classes compared by the rule's definition, no
//! early exit, no symmetry, no threads): they must build the very same trees.

use generator::build::{expand, number};
use generator::codes::Codes;
use generator::strategy::{by_kind, Options, Strategy};
use generator::{Counters, Node, Settings};
use lookup::format::StrategyInfo;
use lookup::rules::{best_guess, Rule};
use lookup::Board;

struct Reference {
    rule: Rule,
    consistent_only: bool,
}

impl Strategy for Reference {
    fn info(&self, _codes: &Codes) -> StrategyInfo {
        unreachable!("only the trees are compared")
    }

    fn choose(&self, codes: &Codes, node: &Node, _: Settings, _: &Counters) -> u32 {
        let board = codes.board();
        let candidates: Vec<_> = node.candidates.iter().map(|&s| codes.code(s)).collect();
        let guess = best_guess(&board, self.rule, &candidates, self.consistent_only);
        board.index(guess).expect("a code of the board")
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
        Rule::Knuth,
        Rule::ExpectedSize,
        Rule::Entropy,
        Rule::MostParts,
        Rule::Consistent,
    ];
    for (p, c, r) in boards {
        let board = Board::new(p, c, r).unwrap();
        let codes = Codes::new(board);
        let counters = Counters::default();
        for rule in rules {
            for consistent_only in [false, true] {
                // The classic board is slow for the reference: one pool is enough there.
                if board == Board::classic() && consistent_only {
                    continue;
                }
                let options = Options {
                    consistent_only,
                    ..Options::default()
                };
                let reference = Reference {
                    rule,
                    consistent_only,
                };
                let slow = number(&expand(
                    &codes,
                    &reference,
                    Settings { symmetry: false },
                    &counters,
                ));
                let fast_strategy = by_kind(rule.kind(), options, board).unwrap();
                for symmetry in [false, true] {
                    let fast = number(&expand(
                        &codes,
                        fast_strategy.as_ref(),
                        Settings { symmetry },
                        &counters,
                    ));
                    let what = format!(
                        "{} on {p}x{c} repeat={r} consistent_only={consistent_only} symmetry={symmetry}",
                        rule.name()
                    );
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
