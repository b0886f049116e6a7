//! `mmlookup audit`: prove a tree's claims from its bytes.

use crate::{Failure, Outcome};
use lookup::audit::audit;
use lookup::format::Summary;
use std::io::Write;

pub use crate::source::FileArgs as Args;

/// The summary of the audited tree (its statistics now proven), or why it failed.
fn audited(args: &Args) -> Result<(Summary, lookup::audit::Report), String> {
    let tree = args.tree.open()?;
    let report = audit(&tree).map_err(|e| format!("{}: audit failed: {e}", args.tree.name()))?;
    let first = tree.guess(tree.root()).map_err(|e| e.to_string())?;
    let summary = Summary::new(tree.board(), &report.meta, first, report.file_bytes);
    Ok((summary, report))
}

pub fn run(args: &Args) -> Outcome {
    let mut out = std::io::stdout().lock();
    let (summary, report) = match audited(args) {
        Ok(audited) => audited,
        Err(message) if args.json => {
            let failed = serde_json::json!({ "ok": false, "error": message });
            writeln!(out, "{failed}")?;
            return Err(Failure::Reported);
        }
        Err(message) => return Err(message.into()),
    };
    if args.json {
        let extra = serde_json::json!({
            "ok": true,
            "records": report.records,
            "edges": report.edges,
        });
        writeln!(out, "{}", lookup::cli::report(&summary, extra))?;
        return Ok(());
    }
    writeln!(
        out,
        "ok: checksum, structure, every edge and every statistic verified; every secret solved"
    )?;
    writeln!(out, "{summary}")?;
    if summary.proof.is_some() {
        writeln!(
            out,
            "note         'proven' is the exact search's claim, recorded in the header; the audit checks every other line"
        )?;
    }
    writeln!(
        out,
        "layout       {} records, {} edges, {} bytes",
        report.records, report.edges, report.file_bytes
    )?;
    Ok(())
}
