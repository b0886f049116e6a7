//! `mmlookup info`: what a tree file says about itself, and where its bytes go.
//!
//! The statistics shown are the header's claims; `mmlookup audit` proves them.

use crate::Outcome;
use lookup::format::{CHECKSUM_LEN, PREFIX_LEN};
use std::io::Write;

pub use crate::source::FileArgs as Args;

pub fn run(args: &Args) -> Outcome {
    let tree = args.tree.open()?;
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let layout = *tree.layout();
    let board = tree.board();
    let stats = &meta.stats;
    let total = tree.bytes().len() as u64;
    let nodes_bytes = layout.edges_offset() - layout.nodes_offset();
    let edges_bytes = total - layout.edges_offset() - CHECKSUM_LEN as u64;
    let header_bytes = layout.nodes_offset();
    let first = tree
        .guess(tree.root())
        .map(|c| board.display(c).to_string())
        .map_err(|e| e.to_string())?;
    let per_node = total as f64 / stats.nodes.max(1) as f64;
    let per_secret = total as f64 / stats.secrets.max(1) as f64;
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "board": board.name().to_string(),
            "pegs": board.pegs(),
            "colors": board.colors(),
            "repeat": board.repeat(),
            "codes": board.code_count(),
            "generator": meta.generator,
            "strategy": meta.strategy.name,
            "rule": meta.strategy.rule,
            "tie_break": meta.strategy.tie_break,
            "params": meta.strategy.params,
            "proven": meta.strategy.proven,
            "proof": meta.strategy.proof(stats),
            "proven_lower_bound": meta.strategy
                .param("proven lower bound")
                .and_then(|v| v.parse::<u64>().ok()),
            "first_guess": first,
            "secrets": stats.secrets,
            "nodes": stats.nodes,
            "max_guesses": stats.max_guesses,
            "total_guesses": stats.total_guesses,
            "average_guesses": stats.average(),
            "histogram": stats.histogram,
            "file_bytes": total,
            "header_bytes": header_bytes,
            "node_table_bytes": nodes_bytes,
            "edge_table_bytes": edges_bytes,
            "records": layout.records,
            "edges": layout.edges,
            "bytes_per_node": per_node,
            "bytes_per_secret": per_secret,
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "board        {} ({} codes)",
        board.name(),
        board.code_count()
    )?;
    writeln!(out, "generator    {}", meta.generator)?;
    writeln!(
        out,
        "strategy     {}: {}",
        meta.strategy.name, meta.strategy.rule
    )?;
    writeln!(out, "tie-break    {}", meta.strategy.tie_break)?;
    for (name, value) in &meta.strategy.params {
        writeln!(out, "parameter    {name} = {value}")?;
    }
    if let Some(proof) = meta.strategy.proof(stats) {
        writeln!(out, "proven       {proof}")?;
    }
    writeln!(out, "first guess  {first}")?;
    writeln!(
        out,
        "secrets      {}  (header's claims below; `mmlookup audit` proves them)",
        stats.secrets
    )?;
    writeln!(out, "nodes        {}", stats.nodes)?;
    writeln!(out, "{}", stats.summary())?;
    writeln!(
        out,
        "bytes        {total} = {PREFIX_LEN} prefix + {} metadata + {nodes_bytes} node table ({} records of {}) + {edges_bytes} edge table ({} edges of {}) + {CHECKSUM_LEN} checksum",
        layout.meta_len,
        layout.records,
        layout.record_width(),
        layout.edges,
        layout.child_width
    )?;
    writeln!(
        out,
        "density      {per_node:.2} bytes per node, {per_secret:.2} bytes per secret"
    )?;
    Ok(())
}
