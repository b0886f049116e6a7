//! `mmgen import`: a tree file from the JSON notation of `mmlookup export`, so that
//! strategies published elsewhere can be audited.

use generator::codes::Codes;
use generator::import::{from_json, read};
use generator::output::{check_target, write_tree_file};
use lookup::cli::{BoardFlags, Outcome};
use lookup::format::{Param, StrategyInfo, StrategyKind};
use lookup::Board;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The JSON tree: a document from `mmlookup export --format json` (it names its
    /// board), or a bare tree {"guess": "1122", "children": {"B,W": subtree, ...}}
    /// with the board given by --pegs and --colors.
    #[arg(value_name = "TREE.json")]
    input: PathBuf,
    /// The board of a bare tree; a document's board must agree with any given.
    #[command(flatten)]
    flags: BoardFlags,
    /// Where to write the tree file (as for `mmgen --out`).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace FILE even if it exists and is not a tree file.
    #[arg(long)]
    force: bool,
}

impl Args {
    /// The board: the document's, checked against any flags given, or the flags'.
    fn board(&self, named: Option<Board>) -> Result<Board, String> {
        let flags = &self.flags;
        let Some(board) = named else {
            if flags.pegs.is_none() || flags.colors.is_none() {
                return Err(
                    "this JSON tree names no board: give --pegs and --colors (and --no-repeat)"
                        .into(),
                );
            }
            return flags.board();
        };
        let agrees = flags.pegs.is_none_or(|p| p as usize == board.pegs())
            && flags.colors.is_none_or(|c| c as usize == board.colors())
            && (!flags.no_repeat || !board.repeat());
        if flags.given() && !agrees {
            let flags = Board::new(
                flags.pegs.unwrap_or(board.pegs() as u32),
                flags.colors.unwrap_or(board.colors() as u32),
                !flags.no_repeat && board.repeat(),
            )
            .map(|b| b.name().to_string())
            .unwrap_or_else(|e| e.to_string());
            return Err(format!(
                "the document is a tree for the {} board, the flags say {flags}",
                board.name()
            ));
        }
        Ok(board)
    }
}

pub fn run(args: &Args) -> Outcome {
    check_target(&args.out, args.force).map_err(|e| e.to_string())?;
    let json = std::fs::read_to_string(&args.input)
        .map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let at = |e: String| format!("{}: {e}", args.input.display());
    let document = read(&json).map_err(at)?;
    let board = args.board(document.board)?;
    let codes = Codes::new(board);
    let tree = from_json(&codes, &document.tree).map_err(at)?;
    let name = args.input.file_name().unwrap_or_default().to_string_lossy();
    // What the document says of its strategy is its claim, kept as a parameter;
    // the imported file claims only what the audit proves.
    let mut params = vec![Param::Source(name.to_string())];
    if let Some(source) = &document.strategy {
        params.push(Param::SourceStrategy(source.name.clone()));
    }
    let mut info = StrategyInfo {
        name: StrategyKind::Imported.name().into(),
        rule: format!("read from {name}"),
        tie_break: "as given".into(),
        params: Vec::new(),
        proven: None,
    };
    info.set_params(&params);
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
    )?;
    writeln!(out, "{}", stats.summary())?;
    Ok(())
}
