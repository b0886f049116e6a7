//! What the end-to-end tests and the report tool share: a real browser, and the
//! boards the estimate is held to.

pub mod browser;

/// `mmgen` arguments of the five runs `mmgen --estimate` must come within a factor
/// of 3 of (every one-step rule once): `tests/tests/estimate.rs` checks them,
/// `mmtree-report estimates` writes them and more into BENCHMARKS.md.
pub const ESTIMATED_BOARDS: [&[&str]; 5] = [
    &["--pegs", "5", "--colors", "7", "--strategy", "knuth"],
    &[
        "--pegs",
        "5",
        "--colors",
        "8",
        "--strategy",
        "expected-size",
    ],
    &["--pegs", "6", "--colors", "6", "--strategy", "entropy"],
    &["--pegs", "6", "--colors", "7", "--strategy", "most-parts"],
    &[
        "--pegs",
        "5",
        "--colors",
        "9",
        "--no-repeat",
        "--strategy",
        "knuth",
    ],
];
