//! A tree file is untrusted input: random damage to a valid file must give errors,
//! never a panic, an out-of-bounds read or an endless walk.

#![cfg(feature = "std")]

use lookup::audit::audit;
use lookup::play::{next, solve};
use lookup::{Board, Feedback, Move, Tree};
use proptest::prelude::*;

const CLASSIC: &[u8] = include_bytes!("../../trees/knuth-4x6.mmt");

/// Everything a reader can be asked to do with some bytes; results are ignored,
/// only panics matter.
fn exercise(bytes: &[u8]) {
    let Ok(tree) = Tree::open(bytes) else { return };
    let _ = tree.meta();
    let _ = tree.verify_checksum();
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
    let tree = Tree::open(&bytes[..]).unwrap();
    let err = audit(&tree).unwrap_err();
    assert!(err.to_string().contains("leads back"), "{err:?}");
}

fn crc32(bytes: &[u8]) -> u32 {
    // The reference CRC-32 (IEEE, reflected), bit by bit.
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
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
    fn truncations_and_arbitrary_bytes_never_panic(len in 0..CLASSIC.len(), noise in proptest::collection::vec(any::<u8>(), 0..200)) {
        exercise(&CLASSIC[..len]);
        exercise(&noise);
        let mut prefixed = CLASSIC[..32.min(len)].to_vec();
        prefixed.extend(&noise);
        exercise(&prefixed);
    }
}
