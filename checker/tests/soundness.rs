//! The checker against a plain reference: on random small boards and random sets
//! of secrets, facts equal to the exhaustive optimum are accepted, and a claim one
//! above it, or "no strategy" where one exists, is rejected, however many true
//! facts it may use. So a bound the checker accepts never exceeds the optimum.

use checker::bounds::Depth;
use checker::fact::{Checker, Kept};
use checker::game::Board;
use checker::read::{Fact, Head};
use proptest::prelude::*;
use std::collections::HashMap;

/// The answer by the textbook: blacks are equal pegs; whites pair each remaining
/// guess peg with an unmatched secret peg of its colour.
fn plain_answer(board: &Board, g: usize, s: usize) -> (usize, usize) {
    let (g, s) = (&board.codes[g][..board.pegs], &board.codes[s][..board.pegs]);
    let blacks = (0..g.len()).filter(|&j| g[j] == s[j]).count();
    let mut unmatched: Vec<u8> = (0..s.len())
        .filter(|&j| g[j] != s[j])
        .map(|j| s[j])
        .collect();
    let mut whites = 0;
    for j in (0..g.len()).filter(|&j| g[j] != s[j]) {
        if let Some(at) = unmatched.iter().position(|&c| c == g[j]) {
            unmatched.swap_remove(at);
            whites += 1;
        }
    }
    (blacks, whites)
}

/// The classes of `set` by `guess`'s answers, the win apart: (classes, won).
fn split(board: &Board, guess: usize, set: &[u32]) -> (Vec<Vec<u32>>, bool) {
    let mut by: HashMap<(usize, usize), Vec<u32>> = HashMap::new();
    let mut won = false;
    for &s in set {
        let answer = plain_answer(board, guess, s as usize);
        if answer.0 == board.pegs {
            won = true;
        } else {
            by.entry(answer).or_default().push(s);
        }
    }
    let mut classes: Vec<Vec<u32>> = by.into_values().collect();
    classes.sort();
    (classes, won)
}

/// The least total over every strategy, by plain recursion over every guess
/// (`None`: no strategy within `depth`).
fn optimum(
    board: &Board,
    set: &[u32],
    depth: Depth,
    memo: &mut HashMap<(Vec<u32>, Depth), Option<u64>>,
) -> Option<u64> {
    if depth == Some(0) {
        return None;
    }
    if let Some(&known) = memo.get(&(set.to_vec(), depth)) {
        return known;
    }
    let mut best: Option<u64> = None;
    for guess in 0..board.codes.len() {
        let (classes, won) = split(board, guess, set);
        if !won && classes.len() < 2 {
            continue;
        }
        let below = depth.map(|d| d - 1);
        let cost = classes.iter().try_fold(set.len() as u64, |sum, class| {
            optimum(board, class, below, memo).map(|c| sum + c)
        });
        if let Some(cost) = cost {
            best = Some(best.map_or(cost, |b| b.min(cost)));
        }
    }
    memo.insert((set.to_vec(), depth), best);
    best
}

/// Writes true facts for `set` and every class below it (each with the facts of
/// its guesses' classes as its uses) into `facts`; the number of `set`'s fact.
fn true_facts(
    board: &Board,
    set: &[u32],
    depth: Depth,
    facts: &mut Vec<Fact>,
    numbers: &mut HashMap<(Vec<u32>, Depth), u64>,
    memo: &mut HashMap<(Vec<u32>, Depth), Option<u64>>,
) -> u64 {
    if let Some(&number) = numbers.get(&(set.to_vec(), depth)) {
        return number;
    }
    let mut uses = Vec::new();
    if depth != Some(0) && set.len() > 1 {
        for guess in 0..board.codes.len() {
            for class in split(board, guess, set).0 {
                if class.len() < set.len() {
                    uses.push(true_facts(
                        board,
                        &class,
                        depth.map(|d| d - 1),
                        facts,
                        numbers,
                        memo,
                    ));
                }
            }
        }
    }
    let number = facts.len() as u64;
    uses.sort_unstable();
    uses.dedup();
    facts.push(Fact {
        depth,
        bound: optimum(board, set, depth, memo),
        set: set.to_vec(),
        key: None,
        maps: Vec::new(),
        free: Vec::new(),
        uses: uses.iter().map(|&u| (number - u, None)).collect(),
        claim: false,
        premise: None,
    });
    numbers.insert((set.to_vec(), depth), number);
    number
}

/// The facts before, held (a certificate keeps them in its file).
struct Held<'a>(&'a [Fact]);

impl Kept for Held<'_> {
    fn head(&self, number: u64, _: &Board) -> Result<Head, String> {
        let fact = self.0.get(number as usize).ok_or("not kept")?;
        Ok(Head {
            depth: fact.depth,
            bound: fact.bound,
            set: fact.set.clone(),
            key: fact.key,
        })
    }
}

fn boards() -> Vec<Board> {
    vec![
        Board::new(2, 3, true).unwrap(),
        Board::new(2, 4, true).unwrap(),
        Board::new(3, 3, true).unwrap(),
        Board::new(3, 4, false).unwrap(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn accepted_bounds_never_exceed_the_exhaustive_optimum(
        which in 0usize..4,
        picks in proptest::collection::vec(0u32..1000, 1..7),
        depth in proptest::option::of(1u32..4),
    ) {
        let board = &boards()[which];
        let mut set: Vec<u32> = picks.iter().map(|p| p % board.codes.len() as u32).collect();
        set.sort_unstable();
        set.dedup();
        let mut memo = HashMap::new();
        let mut facts = Vec::new();
        let root = true_facts(board, &set, depth, &mut facts, &mut HashMap::new(), &mut memo);
        let checker = Checker::new(Board::new(board.pegs, board.colors, board.repeat).unwrap(), false);
        for (number, fact) in facts.iter().enumerate() {
            let before = Held(&facts[..number]);
            prop_assert!(checker.holds(fact, number as u64, &before).is_ok(), "a true fact was refused: {fact:?}");
        }
        // The same uses, claiming more than the truth.
        let mut false_claim = facts[root as usize].clone();
        let at = facts.len() as u64;
        false_claim.uses.iter_mut().for_each(|u| u.0 += at - root);
        false_claim.bound = match false_claim.bound {
            Some(b) => Some(b + 1),
            None => return Ok(()), // nothing is above "no strategy"
        };
        prop_assert!(checker.holds(&false_claim, at, &Held(&facts)).is_err(), "accepted {false_claim:?}");
        false_claim.bound = None;
        prop_assert!(checker.holds(&false_claim, at, &Held(&facts)).is_err(), "accepted no strategy for {set:?}");
    }
}

#[test]
fn scoring_agrees_with_the_textbook_on_every_pair() {
    for board in boards()
        .into_iter()
        .chain([Board::new(4, 6, true).unwrap()])
    {
        let step = if board.codes.len() > 100 { 7 } else { 1 };
        for g in (0..board.codes.len()).step_by(step) {
            for s in 0..board.codes.len() {
                let (b, w) = plain_answer(&board, g, s);
                let answer = board.answer(g as u32, s as u32);
                assert_eq!(answer, b * (board.pegs + 1) + w);
            }
        }
    }
}
