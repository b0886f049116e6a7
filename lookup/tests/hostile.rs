//! A tree file is untrusted input: random damage to a valid file must give errors,
//! never a panic, an out-of-bounds read or an endless walk.

#![cfg(feature = "std")]

use lookup::audit::audit;
use lookup::format::{write_tree, Child, FormatError, Meta, NodeRecord, Stats, StrategyInfo};
use lookup::play::{next, solve};
use lookup::{Board, Feedback, Move, Tree};
use proptest::prelude::*;

const CLASSIC: &[u8] = include_bytes!("../../trees/knuth-4x6.mmt");

/// Everything a reader can be asked to do with some bytes; results are ignored,
/// only panics matter. The walks run on unverified bytes: that is where damage
/// reaches them.
fn exercise(bytes: &[u8]) {
    if let Ok(tree) = Tree::open(bytes) {
        // What verifies is a tree: every walk from the root ends.
        let _ = lookup::walk::totals_below(&tree, tree.root());
    }
    let Ok(tree) = Tree::open_unverified(bytes) else {
        return;
    };
    let _ = tree.meta();
    let _ = tree.verify();
    let board = tree.board();
    for secret in board.codes().step_by(37) {
        let _ = solve(&tree, secret, |_, _| ());
    }
    let first = Move {
        guess: board.code(0).unwrap(),
        answer: Feedback::new(0, 0),
    };
    let _ = next(&tree, &[first]);
    let _ = audit(&tree);
}

#[test]
fn the_shipped_tree_passes() {
    let tree = Tree::open(CLASSIC).unwrap();
    assert_eq!(tree.board(), Board::classic());
    let report = audit(&tree).unwrap();
    assert_eq!(report.stats.total_guesses, 5801);
}

#[test]
fn an_edge_pointing_back_is_refused_not_followed() {
    // Rewrite the first edge of the root to lead to record 0 (the root itself),
    // then fix the checksum so only the structure is wrong.
    let tree = Tree::open(CLASSIC).unwrap();
    let layout = *tree.layout();
    let mut bytes = CLASSIC.to_vec();
    let at = layout.edges_offset() as usize;
    bytes[at..at + 2].copy_from_slice(&(1296u16).to_le_bytes());
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    let tree = Tree::open_unverified(&bytes[..]).unwrap();
    let err = audit(&tree).unwrap_err();
    assert!(err.to_string().contains("leads back"), "{err:?}");
    assert_eq!(
        Tree::open(&bytes[..]).unwrap_err(),
        tree.verify().unwrap_err()
    );
}

/// The checksum a file must end with (`lookup::checksum`, itself tested against a
/// bit-by-bit reference and crc32fast).
fn crc32(bytes: &[u8]) -> u32 {
    lookup::checksum::crc32(bytes)
}

#[test]
fn reference_crc_agrees_with_the_file() {
    let body = CLASSIC.len() - 4;
    assert_eq!(crc32(&CLASSIC[..body]).to_le_bytes(), CLASSIC[body..]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_byte_changes_never_panic(changes in proptest::collection::vec((0..CLASSIC.len(), any::<u8>()), 1..8)) {
        let mut bytes = CLASSIC.to_vec();
        for (at, value) in changes {
            bytes[at] = value;
        }
        exercise(&bytes);
        // With a fixed checksum the damage reaches the structure checks.
        let body = bytes.len() - 4;
        let crc = crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        exercise(&bytes);
    }

    #[test]
    fn any_changed_byte_is_refused_on_open(at in 0..CLASSIC.len(), flip in 1..=255u8) {
        // CRC-32 catches every burst of up to 32 bits, so every one-byte change.
        let mut bytes = CLASSIC.to_vec();
        bytes[at] ^= flip;
        prop_assert!(Tree::open(&bytes[..]).is_err());
    }

    #[test]
    fn truncations_and_arbitrary_bytes_never_panic(len in 0..CLASSIC.len(), noise in proptest::collection::vec(any::<u8>(), 0..200)) {
        exercise(&CLASSIC[..len]);
        exercise(&noise);
        let mut prefixed = CLASSIC[..32.min(len)].to_vec();
        prefixed.extend(&noise);
        exercise(&prefixed);
    }
}

/// A tree file written from hand-made records, with a valid checksum.
fn craft(board: Board, records: &[NodeRecord], edges: &[Child], stats: Stats) -> Vec<u8> {
    let meta = Meta {
        generator: "hand".into(),
        strategy: StrategyInfo {
            name: "hand".into(),
            rule: String::new(),
            tie_break: String::new(),
            params: Vec::new(),
            proven: None,
        },
        stats,
    };
    let mut bytes = Vec::new();
    write_tree(&mut bytes, board, &meta, records, edges).unwrap();
    bytes
}

/// The audit's error for bytes with a valid checksum; opening them verified
/// must fail with the same error.
fn audit_error(bytes: &[u8]) -> String {
    let tree = Tree::open_unverified(bytes).unwrap();
    let error = audit(&tree).unwrap_err().to_string();
    assert_eq!(Tree::open(bytes).unwrap_err().to_string(), error);
    error
}

#[test]
fn shared_children_are_not_a_tree() {
    // Two branches of the root lead to the same record.
    let tree = Tree::open(CLASSIC).unwrap();
    let layout = *tree.layout();
    let root = tree.record(0).unwrap();
    let mut bytes = CLASSIC.to_vec();
    let edge = |i: u32| layout.edges_offset() as usize + (root.first_edge + i) as usize * 2;
    let (first, second) = (edge(0), edge(1));
    let copied = [bytes[first], bytes[first + 1]];
    bytes[second..second + 2].copy_from_slice(&copied);
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    let err = audit_error(&bytes);
    assert!(err.contains("comes next in breadth-first order"), "{err}");
}

/// Hand-made trees on 1 peg of 3 colours: the root guesses "1", then "2" is guessed
/// in record 1 (secrets 2 and 3 left), and 3 is a leaf.
fn one_peg(records: &[NodeRecord], edges: &[Child]) -> Vec<u8> {
    let board = Board::new(1, 3, true).unwrap();
    let mut stats = Stats::default();
    for guesses in [1, 2, 3] {
        stats.add_secret(guesses);
    }
    stats.nodes = 3;
    craft(board, records, edges, stats)
}

#[test]
fn the_shape_of_the_tables_is_verified_on_open() {
    let miss = 1 << Feedback::new(0, 0).index(1);
    let record = |guess, candidates, mask, first_edge| NodeRecord {
        guess,
        candidates,
        mask,
        first_edge,
    };
    let good = [record(0, 3, miss, 0), record(1, 2, miss, 1)];
    let edges = [Child::Node(1), Child::Leaf(2)];
    let tree = Tree::open(one_peg(&good, &edges)).unwrap();
    assert_eq!(audit(&tree).unwrap().stats.total_guesses, 6);
    let cases: [(&[NodeRecord], &[Child], &str); 4] = [
        (
            &[record(0, 3, miss, 0), record(1, 3, miss, 1)],
            &edges,
            "node 1 claims 3 candidates but holds 1 below it",
        ),
        (
            &[record(0, 2, miss, 0), record(1, 2, miss, 1)],
            &edges,
            "root with 2 candidates, but the board has 3 codes",
        ),
        (
            &[record(0, 3, miss, 0), record(1, 2, miss, 0)],
            &edges,
            "node 1 starts its edges at 0, not at 1",
        ),
        (
            &[record(0, 3, miss, 0), record(1, 2, miss, 1)],
            &[Child::Node(1), Child::Leaf(2), Child::Leaf(2)],
            "the nodes use 2 of the 3 edges",
        ),
    ];
    for (records, edges, expected) in cases {
        let err = Tree::open(one_peg(records, edges)).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
    }
    // On 1 peg of 2 colours: the root's one edge is a leaf, and record 1 hangs loose.
    let two = Board::new(1, 2, true).unwrap();
    let loose = [record(0, 2, miss, 0), record(0, 1, 0, 1)];
    let unreached = craft(two, &loose, &[Child::Leaf(1)], Stats::default());
    let err = Tree::open(unreached).unwrap_err().to_string();
    assert!(err.contains("node 1 is not reached from the root"), "{err}");
}

#[test]
fn a_deep_chain_is_walked_and_audited_without_recursion() {
    // 1 peg, 2 colours; 6 000 records each guessing "1" with only "2" left, then
    // the leaf "2": a legal, silly tree 6 001 guesses deep (its histogram still fits
    // the metadata's decoding limit). Walked on a 64 KiB stack, where a recursive
    // walk would overflow.
    let board = Board::new(1, 2, true).unwrap();
    let depth = 6_000u32;
    let miss = Feedback::new(0, 0).index(1) as u32;
    let records: Vec<NodeRecord> = (0..depth)
        .map(|i| NodeRecord {
            guess: 0,
            candidates: if i == 0 { 2 } else { 1 },
            mask: 1 << miss,
            first_edge: i,
        })
        .collect();
    let edges: Vec<Child> = (1..depth)
        .map(Child::Node)
        .chain([Child::Leaf(1)])
        .collect();
    let mut stats = Stats::default();
    stats.add_secret(1);
    stats.add_secret(depth + 1);
    stats.nodes = u64::from(depth) + 1;
    let bytes = craft(board, &records, &edges, stats);
    let walked = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let tree = Tree::open(&bytes[..]).unwrap();
            let report = audit(&tree).unwrap();
            let two = board.code(1).unwrap();
            let solved = solve(&tree, two, |_, _| ()).unwrap();
            let deepest = lookup::walk::totals_below(&tree, tree.root())
                .unwrap()
                .deepest;
            (report.stats.max_guesses, solved, deepest)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(walked, (depth + 1, depth + 1, depth + 1));
}

#[test]
fn lies_in_the_header_and_offsets_past_the_end_are_caught() {
    let tree = Tree::open(CLASSIC).unwrap();
    let layout = *tree.layout();
    let fix = |mut bytes: Vec<u8>| {
        let body = bytes.len() - 4;
        let crc = crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        bytes
    };
    // A node count that lies: the length no longer matches.
    let mut more_nodes = CLASSIC.to_vec();
    more_nodes[16] += 1;
    assert!(matches!(
        Tree::open(&more_nodes[..]),
        Err(FormatError::Length { .. })
    ));
    // A board too big to exist.
    let mut huge = CLASSIC.to_vec();
    huge[10] = 8;
    huge[11] = 16;
    assert!(matches!(Tree::open(&huge[..]), Err(FormatError::Board(_))));
    // The root's first edge index far past the edge table.
    let mut far = CLASSIC.to_vec();
    let first = layout.nodes_offset() as usize + 6;
    far[first..first + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    let far = fix(far);
    let err = audit_error(&far);
    assert!(err.contains("past the edge table"), "{err}");
    let far_tree = Tree::open_unverified(&far[..]).unwrap();
    assert!(solve(&far_tree, Board::classic().code(5).unwrap(), |_, _| ()).is_err());
    // An edge naming neither a code nor a record.
    let mut nowhere = CLASSIC.to_vec();
    let edge = layout.edges_offset() as usize;
    nowhere[edge..edge + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    let err = audit_error(&fix(nowhere));
    assert!(err.contains("neither a code nor a node"), "{err}");
    // A guess past the last code.
    let mut guess = CLASSIC.to_vec();
    let at = layout.nodes_offset() as usize;
    guess[at..at + 2].copy_from_slice(&5000u16.to_le_bytes());
    let err = audit_error(&fix(guess));
    assert!(err.contains("past the last code"), "{err}");
}

#[test]
fn a_header_that_claims_a_depth_the_tree_exceeds_fails_the_audit() {
    // The classic Knuth tree rewritten with a header that says max-depth = 3 and
    // proven: its worst case is 5.
    let tree = Tree::open(CLASSIC).unwrap();
    let mut meta = tree.meta().unwrap();
    meta.strategy.params.push(("max-depth".into(), "3".into()));
    meta.strategy.proven = Some(true);
    let records: Vec<NodeRecord> = (0..tree.layout().records)
        .map(|r| tree.record(r).unwrap())
        .collect();
    let mut edges = Vec::new();
    for r in 0..tree.layout().records {
        for branch in tree.children(lookup::Position::Node(r)).unwrap() {
            edges.push(match branch.unwrap().1 {
                lookup::Position::Leaf(code) => Child::Leaf(code),
                lookup::Position::Node(record) => Child::Node(record),
            });
        }
    }
    let mut bytes = Vec::new();
    write_tree(&mut bytes, tree.board(), &meta, &records, &edges).unwrap();
    let err = audit(&Tree::open(&bytes[..]).unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the header says max-depth = 3, the tree has 5"
    );
}
