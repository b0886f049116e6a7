//! `mmlookup info`: what a tree file says about itself, and where its bytes go.
//!
//! The statistics shown are the header's claims; `mmlookup audit` proves them.

use crate::source::FileArgs;
use crate::Outcome;
use lookup::format::{Layout, Meta, Summary, CHECKSUM_LEN, PREFIX_LEN};
use serde_json::json;
use std::io::Write;

pub use crate::source::FileArgs as Args;

/// Where the bytes of a file go, by section.
struct Sizes {
    total: u64,
    header: u64,
    nodes: u64,
    edges: u64,
}

impl Sizes {
    fn of(layout: &Layout, total: u64) -> Sizes {
        Sizes {
            total,
            header: layout.nodes_offset(),
            nodes: layout.edges_offset() - layout.nodes_offset(),
            edges: total - layout.edges_offset() - CHECKSUM_LEN as u64,
        }
    }
}

fn print_json(summary: &Summary, meta: &Meta, layout: &Layout, sizes: &Sizes) -> Outcome {
    let per = |n: u64| sizes.total as f64 / n.max(1) as f64;
    let report = lookup::cli::report(
        summary,
        json!({
        "generator": meta.generator,
        "rule": meta.strategy.rule,
        "tie_break": meta.strategy.tie_break,
        "params": meta.strategy.params,
        "header_bytes": sizes.header,
        "node_table_bytes": sizes.nodes,
        "edge_table_bytes": sizes.edges,
        "records": layout.records,
        "edges": layout.edges,
        "bytes_per_node": per(summary.nodes),
        "bytes_per_secret": per(summary.secrets),
        }),
    );
    writeln!(std::io::stdout().lock(), "{report}")?;
    Ok(())
}

fn print_text(summary: &Summary, meta: &Meta, layout: &Layout, sizes: &Sizes) -> Outcome {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{summary}")?;
    writeln!(
        out,
        "(the statistics are the header's claims; `mmlookup audit` proves them)"
    )?;
    writeln!(out, "generator    {}", meta.generator)?;
    writeln!(out, "rule         {}", meta.strategy.rule)?;
    writeln!(out, "tie-break    {}", meta.strategy.tie_break)?;
    for (name, value) in &meta.strategy.params {
        writeln!(out, "parameter    {name} = {value}")?;
    }
    writeln!(
        out,
        "bytes        {} = {PREFIX_LEN} prefix + {} metadata + {} node table ({} records of {}) + {} edge table ({} edges of {}) + {CHECKSUM_LEN} checksum",
        sizes.total,
        layout.meta_len,
        sizes.nodes,
        layout.records,
        layout.record_width(),
        sizes.edges,
        layout.edges,
        layout.child_width
    )?;
    writeln!(
        out,
        "density      {:.2} bytes per node, {:.2} bytes per secret",
        sizes.total as f64 / summary.nodes.max(1) as f64,
        sizes.total as f64 / summary.secrets.max(1) as f64
    )?;
    Ok(())
}

pub fn run(args: &FileArgs) -> Outcome {
    let tree = args.tree.open()?;
    let meta = tree.meta()?;
    let layout = *tree.layout();
    let sizes = Sizes::of(&layout, tree.bytes().len() as u64);
    let summary = Summary::new(tree.board(), &meta, tree.guess(tree.root())?, sizes.total);
    if args.json {
        print_json(&summary, &meta, &layout, &sizes)
    } else {
        print_text(&summary, &meta, &layout, &sizes)
    }
}
