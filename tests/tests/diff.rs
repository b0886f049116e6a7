//! `mmlookup diff`: where two trees of one board part, checked against `next` on
//! each tree, and their statistics side by side.

mod common;
use common::*;

fn tree(name: &str) -> String {
    root()
        .join("trees")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn diff_finds_where_two_trees_part_and_next_agrees() {
    let (a, b) = (tree("optimal-4x6.mmt"), tree("optimal-depth5-4x6.mmt"));
    let report = json(&ok("mmlookup", &["diff", "--json", &a, &b]));
    assert_eq!(report["a"]["total_guesses"], 5625);
    assert_eq!(report["b"]["total_guesses"], 5626);
    let differences = report["differences"].as_u64().unwrap();
    let listed = report["first_differences"].as_array().unwrap();
    assert!(differences >= 1 && listed.len() as u64 == differences.min(10));
    for d in listed {
        // Each tree, asked for the next guess after that history, gives its own.
        let moves: Vec<&str> = d["moves"].as_str().unwrap().split(' ').collect();
        for (file, side) in [(&a, "a"), (&b, "b")] {
            let next = json(&ok(
                "mmlookup",
                &[&["next", "--json", "--tree", file.as_str()], &moves[..]].concat(),
            ));
            assert_eq!(next["guess"], d[side], "{d}");
            assert_eq!(next["candidates"], d["candidates"], "{d}");
        }
    }
    let text = ok("mmlookup", &["diff", &a, &b]);
    assert!(
        text.contains("total        5625 (average 4.3403)          | 5626"),
        "{text}"
    );
    assert!(text.contains(&format!("{differences} of the ")), "{text}");

    // A tree against itself: every position alike.
    let knuth = tree("knuth-4x6.mmt");
    let same = ok("mmlookup", &["diff", &knuth, &knuth]);
    assert!(
        same.ends_with("same guesses at all 1378 positions: the trees play every game alike\n"),
        "{same}"
    );
    // Trees of two boards cannot be compared.
    let err = fails("mmlookup", &["diff", &knuth, &tree("optimal-4x8.mmt")]);
    assert!(err.contains("different boards (4x6 and 4x8)"), "{err}");
}
