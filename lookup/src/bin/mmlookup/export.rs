//! `mmlookup export`: the tree in other notations, streamed (memory grows with the
//! tree's depth, not its size).
//!
//! - `text`: one line per secret, the secret then each guess with its answer;
//! - `json`: a document that names the board and the tree's header, with the tree
//!   nested in `tree`: `{"guess": "1122", "children": {"B,W": {...}}}`, the win
//!   implied (a node with no children guesses the last secret); `mmgen import`
//!   reads it with no further flags;
//! - `dot`: Graphviz, optionally cut at a depth so that large trees stay drawable;
//! - `rust`, `c`: the file as a constant byte array to compile into firmware, with
//!   the lines that walk it (for C, a complete little walker); only a tree that
//!   passes its audit is exported this way.

use crate::{source, Failure, Outcome};
use lookup::play::solve;
use lookup::walk::{depth_first, Descend, Event};
use lookup::Tree;
use std::io::Write;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  mmlookup export --format json > knuth.json      mmgen import knuth.json --out k.mmt
  mmlookup export --format dot --depth 2 | dot -Tsvg > top.svg
  mmlookup export trees/optimal-4x6.mmt --format c > tree.h")]
pub struct Args {
    #[command(flatten)]
    tree: source::TreeFile,
    /// Output notation.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// dot only: draw only the first N guesses of every line; deeper branches are
    /// summed up.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A line per secret: the secret, then each guess with its answer.
    Text,
    /// A document naming the board and the tree's header, with the nested tree.
    Json,
    /// Graphviz.
    Dot,
    /// A byte array for firmware, with the lines that walk it.
    Rust,
    /// A byte array for firmware, with a complete walker.
    C,
}

pub fn run(args: &Args) -> Outcome {
    if args.depth.is_some() && args.format != Format::Dot {
        let message = "--depth applies only to --format dot (see mmlookup export --help)";
        return Err(lookup::cli::Failure::Usage(message.into()));
    }
    let tree = args.tree.open()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        Format::Text => text(&tree, &mut out)?,
        Format::Json => json(&tree, &mut out)?,
        Format::Dot => dot(&tree, args.depth.unwrap_or(u32::MAX), &mut out)?,
        language => {
            lookup::audit::audit(&tree)
                .map_err(|e| format!("not exported: the tree fails its audit: {e}"))?;
            if language == Format::Rust {
                rust(&tree, &mut out)?
            } else {
                c(&tree, &mut out)?
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn text<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    for secret in board.codes() {
        write!(out, "{}", board.display(secret))?;
        let mut written = Ok(());
        solve(tree, secret, |guess, answer| {
            if written.is_ok() {
                written = write!(out, " {}:{answer}", board.display(guess));
            }
        })
        .map_err(|e| e.to_string())?;
        written?;
        writeln!(out)?;
    }
    Ok(())
}

/// A self-describing document: the board, the header of the tree, and the tree.
fn json<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    let meta = tree.meta()?;
    let head = serde_json::json!({
        "format": "mmtree-json",
        "version": 1,
        "board": {
            "pegs": board.pegs(),
            "colors": board.colors(),
            "repeat": board.repeat(),
        },
        "generator": meta.generator,
        "strategy": meta.strategy,
    })
    .to_string();
    // The head's fields, then the tree streamed as the last one.
    write!(out, "{},\"tree\":", head.trim_end_matches('}'))?;
    // Per open node: whether a child has been written (for the commas).
    let mut written_child: Vec<bool> = Vec::new();
    depth_first(tree, tree.root(), |event| -> Result<Descend, Failure> {
        match event {
            Event::Enter {
                position, answer, ..
            } => {
                if let (Some(answer), Some(sibling)) = (answer, written_child.last_mut()) {
                    if std::mem::replace(sibling, true) {
                        write!(out, ",")?;
                    }
                    write!(out, "\"{answer}\":")?;
                }
                write!(
                    out,
                    "{{\"guess\":\"{}\",\"children\":{{",
                    board.display(tree.guess(position)?)
                )?;
                written_child.push(false);
            }
            Event::Leave { .. } => {
                written_child.pop();
                write!(out, "}}}}")?;
            }
        }
        Ok(Descend::Yes)
    })?;
    writeln!(out, "}}")?;
    Ok(())
}

fn dot<D: AsRef<[u8]>>(tree: &Tree<D>, max_depth: u32, out: &mut impl Write) -> Outcome {
    let board = tree.board();
    writeln!(out, "digraph mastermind {{")?;
    writeln!(out, "  node [shape=box, fontname=monospace];")?;
    let mut ids: Vec<u64> = Vec::new();
    let mut next_id = 0u64;
    depth_first(tree, tree.root(), |event| -> Result<Descend, Failure> {
        match event {
            Event::Enter {
                position,
                answer,
                depth,
            } => {
                let id = next_id;
                next_id += 1;
                let candidates = tree.candidates(position)?;
                let cut = depth >= max_depth && tree.children(position)?.next().is_some();
                let label = if cut {
                    format!(
                        "{}\\n{}\\n...",
                        board.display(tree.guess(position)?),
                        crate::session::plural(candidates.into(), "secret", "secrets")
                    )
                } else {
                    format!("{}\\n{candidates}", board.display(tree.guess(position)?))
                };
                writeln!(out, "  n{id} [label=\"{label}\"];")?;
                if let (Some(answer), Some(parent)) = (answer, ids.last()) {
                    writeln!(out, "  n{parent} -> n{id} [label=\"{answer}\"];")?;
                }
                ids.push(id);
                return Ok(if cut { Descend::No } else { Descend::Yes });
            }
            Event::Leave { .. } => {
                ids.pop();
            }
        }
        Ok(Descend::Yes)
    })?;
    writeln!(out, "}}")?;
    Ok(())
}

/// The bytes as comma-separated hex, 16 to a line.
fn byte_lines<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    for line in tree.bytes().chunks(16) {
        let bytes: Vec<String> = line.iter().map(|b| format!("0x{b:02x}")).collect();
        writeln!(out, "    {},", bytes.join(", "))?;
    }
    Ok(())
}

fn title<D: AsRef<[u8]>>(tree: &Tree<D>) -> Result<String, Failure> {
    let meta = tree.meta()?;
    Ok(format!(
        "The {} {} tree ({} bytes, {} secrets, {} guesses in all, at most {})",
        tree.board().name(),
        meta.strategy.name,
        tree.bytes().len(),
        meta.stats.secrets,
        meta.stats.total_guesses,
        meta.stats.max_guesses
    ))
}

fn rust<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    // The example plays the tree's own first guess and the first answer it can get.
    let board = tree.board();
    let first = tree.guess(tree.root())?;
    let first_answer = match tree.children(tree.root())?.next() {
        Some(branch) => branch?.0,
        None => lookup::Feedback::win(board.pegs()),
    };
    let first_text = board.display(first);
    writeln!(
        out,
        "// {}, written by `mmlookup export --format rust`.",
        title(tree)?
    )?;
    writeln!(
        out,
        "// Walk it with the no_std lookup core (mmtree-lookup, default-features = false);"
    )?;
    writeln!(
        out,
        "// the tree opens {first_text}, and after the answer {first_answer} it plays:"
    )?;
    writeln!(out, "//")?;
    writeln!(
        out,
        "//     let tree = lookup::Tree::open(&TREE[..]).expect(\"a verified tree\");"
    )?;
    writeln!(out, "//     let board = tree.board();")?;
    writeln!(
        out,
        "//     let first = board.parse(\"{first_text}\").expect(\"the tree's first guess\");"
    )?;
    writeln!(
        out,
        "//     let moves = [lookup::Move {{ guess: first, answer: lookup::Feedback::new({}, {}) }}];",
        first_answer.black, first_answer.white
    )?;
    writeln!(out, "//     if let Ok(lookup::play::Next::Guess {{ guess, .. }}) = lookup::play::next(&tree, &moves) {{ /* play guess */ }}")?;
    writeln!(out, "pub static TREE: [u8; {}] = [", tree.bytes().len())?;
    byte_lines(tree, out)?;
    writeln!(out, "];")?;
    Ok(())
}

fn c<D: AsRef<[u8]>>(tree: &Tree<D>, out: &mut impl Write) -> Outcome {
    let layout = tree.layout();
    let board = tree.board();
    let stats = tree.meta()?.stats;
    writeln!(
        out,
        "/* {}, written by `mmlookup export --format c`.",
        title(tree)?
    )?;
    out.write_all(C_PREAMBLE.as_bytes())?;
    let constants = [
        ("PEGS", u64::from(board.pegs() as u32)),
        ("COLORS", board.colors() as u64),
        ("REPEAT", u64::from(board.repeat())),
        ("CODES", u64::from(board.code_count())),
        ("NODES_AT", layout.nodes_offset()),
        ("EDGES_AT", layout.edges_offset()),
        ("RECORD", layout.record_width() as u64),
        ("CODE_WIDTH", layout.code_width as u64),
        ("MASK_WIDTH", layout.mask_width as u64),
        ("CHILD_WIDTH", layout.child_width as u64),
    ];
    for (name, value) in constants {
        writeln!(out, "#define MMTREE_{name} {value}u")?;
    }
    writeln!(
        out,
        "\n/* What the tree achieves, as its header records (audited when exported):\n \
         * secrets, guesses in all, the most any secret needs, and MMTREE_HISTOGRAM's\n \
         * entry i the secrets solved with i + 1 guesses. */"
    )?;
    let histogram: Vec<String> = stats.histogram.iter().map(|n| format!("{n}u")).collect();
    for (name, value) in [
        ("SECRETS", stats.secrets.to_string()),
        ("TOTAL", stats.total_guesses.to_string()),
        ("WORST", stats.max_guesses.to_string()),
    ] {
        writeln!(out, "#define MMTREE_{name} {value}u")?;
    }
    writeln!(out, "#define MMTREE_HISTOGRAM {{{}}}", histogram.join(", "))?;
    writeln!(
        out,
        "\nstatic const uint8_t mmtree[{}] MMTREE_STORED = {{",
        tree.bytes().len()
    )?;
    byte_lines(tree, out)?;
    writeln!(out, "}};")?;
    out.write_all(C_WALKER.as_bytes())?;
    Ok(())
}

/// What every C export starts with: how to read it, and where the tree is kept.
const C_PREAMBLE: &str = r#" * Byte layout: lookup/FORMAT.md. The tree passed `mmlookup audit` when exported;
 * the walker below trusts it and uses no heap, no recursion, a few words of stack.
 * On AVR (avr-gcc, the Arduino IDE) the tree stays in program memory (PROGMEM, read
 * with pgm_read_byte), as a 2 KiB RAM could not hold it; elsewhere it is a plain
 * const array. */
#include <stdint.h>
#ifdef __AVR__
#include <avr/pgmspace.h>
#define MMTREE_STORED PROGMEM
#define MMTREE_READ(p) pgm_read_byte(p)
#else
#define MMTREE_STORED
#define MMTREE_READ(p) (*(p))
#endif

"#;

/// The C walker that follows the exported constants. Integers are 32 bits wide
/// where the format allows (codes and edges; a mask as wide as it is), as an 8-bit
/// chip pays for every byte of arithmetic.
const C_WALKER: &str = r#"
/* A little-endian unsigned integer of `width` (at most 4) bytes of the tree. */
static uint32_t mmtree_le(const uint8_t *p, uint8_t width) {
    uint32_t value = 0;
    while (width--) value = (value << 8) | MMTREE_READ(p + width);
    return value;
}

/* A node's answer mask: bit a set when answer a leads on. */
#if MMTREE_MASK_WIDTH <= 2
typedef uint16_t mmtree_mask;
#elif MMTREE_MASK_WIDTH <= 4
typedef uint32_t mmtree_mask;
#else
typedef uint64_t mmtree_mask;
#endif

static mmtree_mask mmtree_mask_at(const uint8_t *p) {
    mmtree_mask mask = 0;
    for (uint8_t i = MMTREE_MASK_WIDTH; i-- > 0;) mask = (mask << 8) | MMTREE_READ(p + i);
    return mask;
}

/* The tree's number for the answer (black, white): by blacks, then whites,
 * skipping the impossible (PEGS-1, 1), the win last. */
static int mmtree_answer(int black, int white) {
    if (black == (int)MMTREE_PEGS) return (int)(MMTREE_PEGS * (MMTREE_PEGS + 3) / 2 - 1);
    return black * ((int)MMTREE_PEGS + 1) - black * (black - 1) / 2 + white;
}

/* The next guess after the answers answers[0..n] (numbered by mmtree_answer) to
 * the tree's own guesses, as a code index; -1 if the tree has no such branch (an
 * impossible history, or one that already won). */
static long mmtree_next(const int *answers, int n) {
    uint32_t node = 0;
    long leaf = -1;
    for (int i = 0; i < n; i++) {
        const uint8_t *record = mmtree + MMTREE_NODES_AT + node * MMTREE_RECORD;
        mmtree_mask mask = mmtree_mask_at(record + 2 * MMTREE_CODE_WIDTH);
        uint32_t first = mmtree_le(record + 2 * MMTREE_CODE_WIDTH + MMTREE_MASK_WIDTH,
                                   MMTREE_RECORD - 2 * MMTREE_CODE_WIDTH - MMTREE_MASK_WIDTH);
        int a = answers[i];
        if (leaf >= 0 || a < 0 || a >= 8 * (int)MMTREE_MASK_WIDTH || !((mask >> a) & 1)) return -1;
        mmtree_mask below = mask & (((mmtree_mask)1 << a) - 1);
        uint32_t rank = 0;
        while (below) { below &= below - 1; rank++; }
        uint32_t value = mmtree_le(mmtree + MMTREE_EDGES_AT + (first + rank) * MMTREE_CHILD_WIDTH, MMTREE_CHILD_WIDTH);
        if (value < MMTREE_CODES) leaf = (long)value; else node = value - MMTREE_CODES;
    }
    if (leaf >= 0) return leaf;
    return (long)mmtree_le(mmtree + MMTREE_NODES_AT + node * MMTREE_RECORD, MMTREE_CODE_WIDTH);
}

/* The colours (0-based) of the code with lexicographic index `index`. */
static void mmtree_code(uint32_t index, int colors[MMTREE_PEGS]) {
    uint8_t used[16] = {0};
    for (int i = 0; i < (int)MMTREE_PEGS; i++) {
        uint32_t block = 1;
        for (int j = 0; j < (int)MMTREE_PEGS - 1 - i; j++)
            block *= MMTREE_REPEAT ? MMTREE_COLORS : MMTREE_COLORS - 1 - i - j;
        uint32_t skip = index / block;
        index %= block;
        int c = 0;
        for (;; c++) {
            if (MMTREE_REPEAT || !used[c]) {
                if (skip == 0) break;
                skip--;
            }
        }
        used[c] = 1;
        colors[i] = c;
    }
}

/* The codemaker's answer to `guess` when the secret is `secret` (colours 0-based):
 * black pegs (right colour, right place) and white pegs (right colour elsewhere). */
static void mmtree_score(const int guess[MMTREE_PEGS], const int secret[MMTREE_PEGS],
                         int *black, int *white) {
    uint8_t unmatched[16] = {0};
    *black = 0;
    *white = 0;
    for (int i = 0; i < (int)MMTREE_PEGS; i++) {
        if (guess[i] == secret[i]) ++*black;
        else unmatched[guess[i]]++;
    }
    for (int i = 0; i < (int)MMTREE_PEGS; i++) {
        if (guess[i] != secret[i] && unmatched[secret[i]] > 0) {
            unmatched[secret[i]]--;
            ++*white;
        }
    }
}
"#;
