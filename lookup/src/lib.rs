//! Reads mmtree strategy trees in place and answers Mastermind moves by walking them.
//!
//! A tree file (see [`format`](mod@format)) holds a complete strategy: the next guess for every
//! history the strategy can meet. [`Tree`] reads it from any bytes without decoding
//! it; [`play::next`] answers a player's history, [`play::solve`] plays a secret,
//! and `audit::audit` proves everything the file claims.
//!
//! Without the default `std` feature the crate is `no_std` and allocation-free:
//! boards, scoring, the layout and the walk ([`play::next`], [`play::solve`]) work on
//! a `&[u8]` compiled into firmware. The metadata block, the writer, the audit, the
//! plain rules, the walkers and [`hint`] (the next guess on or off the tree's line)
//! need `std`; [`web`] (the hint board's JSON answers) needs feature `web`.
//!
//! ```
//! use lookup::{play, Board, Feedback, Move, Tree};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../trees/knuth-4x6.mmt"))?;
//! let tree = Tree::open(&bytes[..])?;
//! let board = Board::classic();
//! let first = Move { guess: board.parse("1122")?, answer: Feedback::new(1, 0) };
//! match play::next(&tree, &[first])? {
//!     play::Next::Guess { guess, candidates, .. } => {
//!         assert_eq!(board.display(guess).to_string(), "1344");
//!         assert_eq!(candidates, 256);
//!     }
//!     play::Next::Solved { .. } => unreachable!(),
//! }
//! # Ok(())
//! # }
//! ```

#![cfg_attr(not(any(feature = "std", test)), no_std)]
// `unsafe` only where a file is mapped (`mapped`), with its argument there.
#![deny(unsafe_code)]

#[cfg(feature = "std")]
pub mod audit;
pub mod board;
pub mod checksum;
#[cfg(feature = "cli")]
pub mod cli;
pub mod format;
#[cfg(feature = "std")]
pub mod hint;
#[cfg(feature = "mmap")]
pub mod mapped;
pub mod play;
#[cfg(feature = "std")]
pub mod repair;
#[cfg(feature = "cli")]
pub mod replace;
#[cfg(feature = "std")]
pub mod rules;
pub mod score;
pub mod tree;
#[cfg(feature = "std")]
pub mod walk;
#[cfg(feature = "web")]
pub mod web;

pub use board::{Board, Code};
pub use play::Move;
pub use score::Feedback;
pub use tree::{Position, Tree};

impl core::error::Error for board::BoardError {}
impl core::error::Error for board::CodeError {}
impl core::error::Error for score::FeedbackError {}
