//! What the end-to-end tests and the report tool share: a real browser, the
//! boards the estimate is held to, and how a shipped tree is made again.

pub mod browser;

use lookup::format::{Param, StrategyInfo};
use lookup::Board;
use std::path::Path;

/// The `mmgen` arguments (all but `--out FILE`) that write a tree of `board` with
/// the header `info` again, paths under `root` (the repository; "" for relative
/// paths): its strategy's options, or for a merge filled from another tree
/// (`mmgen merge --fill`), the campaign in `campaigns/` whose plan the header
/// names and the shipped tree it names.
pub fn regenerate_args(
    root: &Path,
    board: Board,
    info: &StrategyInfo,
) -> Result<Vec<String>, String> {
    let params = info.typed_params();
    let Some(plan) = params.iter().find_map(|p| match p {
        Param::Plan(id) => Some(id),
        _ => None,
    }) else {
        return Ok(generator::strategy::command_args(board, info));
    };
    let source = (params.iter())
        .find_map(|p| match p {
            Param::Source(file) => Some(file),
            _ => None,
        })
        .ok_or("a merged tree's header names no tree it was filled from")?;
    let listed = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let campaigns =
        std::fs::read_dir(listed.join("campaigns")).map_err(|e| format!("campaigns/: {e}"))?;
    let mut names: Vec<_> = campaigns
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    names.sort();
    let name = (names.into_iter())
        .find(|name| {
            let dir = listed.join("campaigns").join(name);
            generator::plan::Run::open(&dir)
                .is_ok_and(|run| format!("{:08x}", run.identity()) == *plan)
        })
        .ok_or_else(|| format!("no campaign in campaigns/ has the plan {plan}"))?;
    let text = |path: std::path::PathBuf| path.display().to_string();
    Ok(vec![
        "merge".into(),
        "--dir".into(),
        text(root.join("campaigns").join(name)),
        "--fill".into(),
        text(root.join("trees").join(source)),
    ])
}

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
