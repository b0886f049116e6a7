//! `mmlookup audit`: prove a tree's claims from its bytes.

use crate::{Failure, Outcome};
use lookup::audit::audit;
use std::io::Write;

pub use crate::source::FileArgs as Args;

pub fn run(args: &Args) -> Outcome {
    let mut out = std::io::stdout().lock();
    let result = args
        .tree
        .open()
        .and_then(|tree| audit(&tree).map_err(|e| format!("audit failed: {e}")));
    let report = match result {
        Ok(report) => report,
        Err(message) if args.json => {
            writeln!(
                out,
                "{}",
                serde_json::json!({ "ok": false, "error": message })
            )?;
            return Err(Failure::Reported);
        }
        Err(message) => return Err(message.into()),
    };
    let stats = &report.stats;
    if args.json {
        let json = serde_json::json!({
            "ok": true,
            "secrets": stats.secrets,
            "nodes": stats.nodes,
            "max_guesses": stats.max_guesses,
            "total_guesses": stats.total_guesses,
            "average_guesses": stats.average(),
            "histogram": stats.histogram,
            "strategy": report.meta.strategy.name,
            "file_bytes": report.file_bytes,
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "ok: checksum, structure, every edge and every statistic verified; every secret solved"
    )?;
    writeln!(out, "strategy     {}", report.meta.strategy.name)?;
    writeln!(out, "secrets      {}", stats.secrets)?;
    writeln!(
        out,
        "nodes        {} ({} records, {} edges)",
        stats.nodes, report.records, report.edges
    )?;
    writeln!(out, "{}", stats.summary())?;
    Ok(())
}
