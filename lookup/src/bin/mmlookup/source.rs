//! Where a tree's bytes come from: a memory-mapped file, or the classic Knuth tree
//! compiled into this binary so that `mmlookup next` works anywhere with no set-up.

use lookup::board::BoardError;
use lookup::mapped::map;
use lookup::{Board, Tree};
use memmap2::Mmap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How colours are written for the whole run: `--letters` or `--alphabet SYMBOLS`.
#[derive(Clone, Debug)]
pub enum Notation {
    Letters,
    Alphabet(String),
}

static NOTATION: OnceLock<Notation> = OnceLock::new();

/// Colours are written so from now on (`mmlookup --letters`, `--alphabet`).
pub fn use_notation(notation: Notation) {
    let _ = NOTATION.set(notation);
}

/// `board` in the notation this run asks for, with the option that asked; `None`
/// for the board's own.
fn asked(board: Board) -> Option<(String, Result<Board, BoardError>)> {
    Some(match NOTATION.get()? {
        Notation::Letters => ("--letters".into(), board.with_letters()),
        Notation::Alphabet(symbols) => (
            format!("--alphabet {symbols}"),
            board.with_alphabet(symbols),
        ),
    })
}

/// `board` in the notation this run uses.
pub fn notation(board: Board) -> Result<Board, String> {
    match asked(board) {
        Some((option, board)) => board.map_err(|e| format!("{option}: {e}")),
        None => Ok(board),
    }
}

/// The classic 4x6 Knuth tree shipped in `trees/`, embedded at build time.
pub const CLASSIC: &[u8] = include_bytes!("../../../../trees/knuth-4x6.mmt");

/// A tree file's bytes.
pub enum Bytes {
    Mapped(Mmap),
    Embedded(&'static [u8]),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Embedded(bytes) => bytes,
        }
    }
}

/// Opens the tree at `path`, or the embedded classic tree when there is none, and
/// verifies all of it (checksum and shape) before anything is answered from it.
pub fn open(path: Option<&Path>) -> Result<Tree<Bytes>, String> {
    let (bytes, name) = match path {
        Some(path) => (Bytes::Mapped(map(path)?), path.display().to_string()),
        None => (
            Bytes::Embedded(CLASSIC),
            "the built-in classic tree".to_string(),
        ),
    };
    let tree = Tree::open(bytes).map_err(|e| format!("{name}: {e}"))?;
    match asked(tree.board()) {
        Some((option, board)) => board
            .map(|board| tree.in_notation(board))
            .map_err(|e| format!("{option} with {name}: {e}")),
        None => Ok(tree),
    }
}

/// Each tree of `paths`, verified, under its file name without `.mmt` (made unique:
/// `knuth-4x6`, `knuth-4x6-2`), or the built-in classic tree as `knuth-4x6` when
/// there are none: the trees of `serve` and `site`.
pub fn open_named(paths: &[PathBuf]) -> Result<Vec<(String, Tree<Bytes>)>, String> {
    if paths.is_empty() {
        return Ok(vec![("knuth-4x6".into(), open(None)?)]);
    }
    let mut named: Vec<(String, Tree<Bytes>)> = Vec::new();
    for path in paths {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let base = stem.unwrap_or_else(|| "tree".into());
        let mut id = base.clone();
        let mut n = 2;
        while named.iter().any(|(taken, _)| *taken == id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        named.push((id, open(Some(path))?));
    }
    Ok(named)
}

/// The tree of a subcommand that reads one whole tree: `FILE` or `--tree FILE`,
/// as every other subcommand names it.
#[derive(clap::Args)]
pub struct TreeFile {
    /// Tree file (default: the built-in classic 4x6 Knuth tree).
    #[arg(value_name = "FILE", conflicts_with = "tree")]
    file: Option<PathBuf>,
    /// The same, named as for the other subcommands.
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
}

impl TreeFile {
    pub fn open(&self) -> Result<Tree<Bytes>, String> {
        open(self.file.as_deref().or(self.tree.as_deref()))
    }

    /// The tree named in messages: its path, or the built-in one.
    pub fn name(&self) -> String {
        match self.file.as_deref().or(self.tree.as_deref()) {
            Some(path) => path.display().to_string(),
            None => "the built-in classic tree".into(),
        }
    }
}

/// The arguments of `audit` and `info`.
#[derive(clap::Args)]
pub struct FileArgs {
    #[command(flatten)]
    pub tree: TreeFile,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}
