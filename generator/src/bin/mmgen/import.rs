//! `mmgen import`: a tree file from the JSON notation of `mmlookup export`, so that
//! strategies published elsewhere can be audited.

use crate::args::{output_error, BoardArgs};
use generator::import::from_json;
use generator::output::{check_target, write_tree_file};
use generator::partition::Codes;
use lookup::format::StrategyInfo;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The JSON tree: {"guess": "1122", "children": {"B,W": subtree, ...}}.
    #[arg(value_name = "TREE.json")]
    input: PathBuf,
    #[command(flatten)]
    board: BoardArgs,
    /// Where to write the tree file (as for `mmgen --out`).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace FILE even if it exists and is not a tree file.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let board = args.board.board()?;
    check_target(&args.out, args.force).map_err(|e| e.to_string())?;
    let json = std::fs::read_to_string(&args.input)
        .map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let codes = Codes::new(board);
    let tree = from_json(&codes, &json).map_err(|e| format!("{}: {e}", args.input.display()))?;
    let name = args.input.file_name().unwrap_or_default().to_string_lossy();
    let info = StrategyInfo {
        name: "imported".into(),
        rule: format!("read from {name}"),
        tie_break: "as given".into(),
        params: Vec::new(),
        proven: None,
    };
    let generated = generator::lay_out(board, &tree, info);
    let bytes = write_tree_file(&args.out, &generated, args.force).map_err(|e| e.to_string())?;
    let stats = &generated.meta.stats;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "imported {} secrets, {} nodes into {} ({bytes} bytes)",
        stats.secrets,
        stats.nodes,
        args.out.display()
    )
    .and_then(|()| writeln!(out, "{}", stats.summary()))
    .or_else(output_error)
}
