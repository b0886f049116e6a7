//! How long one answer takes in-process: `play::next` on the shipped classic tree for
//! a history of four moves (the deepest question the classic Knuth tree is asked)
//! and for the empty history, and opening the tree: `Tree::open` verifies the
//! checksum and the layout, `Tree::open_unverified` reads the prefix only. The walk is the same code for any
//! byte source; the memory-mapped case, page faults included, is measured as a
//! whole `mmlookup next` process by `make bench`.

use criterion::{criterion_group, criterion_main, Criterion};
use lookup::play::next;
use lookup::{Board, Feedback, Move, Tree};
use std::hint::black_box;

const TREE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../trees/knuth-4x6.mmt");

fn history() -> Vec<Move> {
    let board = Board::classic();
    [
        ("1122", 1, 0),
        ("1344", 0, 1),
        ("3526", 1, 2),
        ("1462", 1, 1),
    ]
    .iter()
    .map(|&(g, b, w)| Move {
        guess: board.parse(g).unwrap(),
        answer: Feedback::new(b, w),
    })
    .collect()
}

fn bench(c: &mut Criterion) {
    let moves = history();
    let bytes = std::fs::read(TREE).unwrap();
    let in_memory = Tree::open(&bytes[..]).unwrap();
    c.bench_function("next_4_moves", |b| {
        b.iter(|| next(black_box(&in_memory), black_box(&moves)).unwrap())
    });
    c.bench_function("next_empty_history", |b| {
        b.iter(|| next(black_box(&in_memory), black_box(&[])).unwrap())
    });
    c.bench_function("open_verified", |b| {
        b.iter(|| Tree::open(black_box(&bytes[..])).unwrap())
    });
    c.bench_function("open_unverified", |b| {
        b.iter(|| Tree::open_unverified(black_box(&bytes[..])).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
