//! Arbitrary bytes as a tree file: open, decode, walk, follow histories and audit
//! must return errors, never panic, read out of bounds or loop.
//!
//! The walks run on unverified bytes. The checksum is recomputed over the input before the audit so that damage gets
//! past it to the structure checks; boards of more than 4096 codes skip the audit,
//! whose buffers grow with the board, to keep executions fast.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lookup::play::{next, solve};
use lookup::{Feedback, Move, Tree};

fuzz_target!(|data: &[u8]| {
    if let Ok(tree) = Tree::open(data) {
        let _ = lookup::walk::totals_below(&tree, tree.root());
    }
    // The walks run on unverified bytes: that is where damage reaches them.
    let Ok(tree) = Tree::open_unverified(data) else { return };
    let _ = tree.meta();
    let _ = tree.verify();
    let board = tree.board();
    for secret in board.codes().take(64) {
        let _ = solve(&tree, secret, |_, _| ());
    }
    // A history drawn from the input's own bytes.
    let moves: Vec<Move> = data
        .iter()
        .take(6)
        .filter_map(|&b| {
            let guess = board.code(u32::from(b) % board.code_count())?;
            Some(Move { guess, answer: Feedback::new(b % 3, (b / 3) % 3) })
        })
        .collect();
    for k in 0..=moves.len() {
        let _ = next(&tree, &moves[..k]);
    }
    let _ = lookup::walk::totals_below(&tree, tree.root());
    if board.code_count() <= 4096 {
        let mut fixed = data.to_vec();
        let body = fixed.len() - 4;
        let crc = crc32fast::hash(&fixed[..body]);
        fixed[body..].copy_from_slice(&crc.to_le_bytes());
        if let Ok(tree) = Tree::open_unverified(&fixed[..]) {
            let _ = lookup::audit::audit(&tree);
        }
    }
});
