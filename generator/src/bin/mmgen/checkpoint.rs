//! `mmgen --checkpoint DIR`: an exact search saves what it has proven, atomically
//! and often, and a rerun resumes from it (see the exact search's checkpoint docs).
//!
//! A save writes a temporary file beside the checkpoint, flushes it to disk and
//! renames it over the old one, so a run killed at any moment (`kill -9` during a
//! save included) leaves the previous checkpoint or the new one whole; the
//! temporary file a killed save leaves is removed by the next run.

use crate::generate::{best_words, firsts_line, solved_line};
use generator::strategy::Strategy;
use lookup::cli::Outcome;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The checkpoint file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("checkpoint.mmc")
}

/// What a run loaded from its checkpoint (nothing on a first run).
#[derive(Clone, Copy)]
pub struct Resumed {
    /// Proven sets loaded.
    pub sets: usize,
    /// The checkpoint file's size.
    pub bytes: u64,
    /// Reading and loading it.
    pub took: Duration,
}

/// Loads the checkpoint in `dir` into `strategy`, if there is one. A damaged or
/// foreign one is an error.
pub fn resume(strategy: &dyn Strategy, dir: &Path) -> Result<Resumed, String> {
    let started = Instant::now();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    remove_killed_saves(dir);
    let path = file(dir);
    let (sets, bytes) = match File::open(&path).and_then(|f| Ok((f.metadata()?.len(), f))) {
        Ok((bytes, file)) => (strategy.resume(&file), bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Ok(0), 0),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let sets = sets.map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Resumed {
        sets,
        bytes,
        took: started.elapsed(),
    })
}

/// Removes the temporary files of saves that were killed (`checkpoint.mmc.tmp-HOST-PID`):
/// gigabytes each on a long proof. A run that could not remove one goes on.
fn remove_killed_saves(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("checkpoint.mmc.tmp-")
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What one save took.
pub struct Saved {
    pub sets_bytes: u64,
    /// Taking the checkpoint and writing it.
    pub took: Duration,
    /// The longest the search waited for it (one shard of the cache locked).
    pub longest_pause: Duration,
    /// The shards' locked time together.
    pub locked: Duration,
}

/// Saves `strategy`'s checkpoint into `dir` ([`lookup::replace`]: whole or not
/// at all), streamed into the file; `None` for strategies without one.
pub fn save(strategy: &dyn Strategy, dir: &Path) -> Result<Option<Saved>, String> {
    if !strategy.keeps_checkpoints() {
        return Ok(None);
    }
    let started = Instant::now();
    let path = file(dir);
    let mut taken = None;
    let written = lookup::replace::with(&path, |file| {
        let checkpoint = strategy
            .save_checkpoint(file)
            .map_err(std::io::Error::other)?;
        let bytes = checkpoint.bytes;
        taken = Some(checkpoint);
        Ok(bytes)
    });
    match (written, taken) {
        (Ok(bytes), Some(checkpoint)) => Ok(Some(Saved {
            sets_bytes: bytes,
            took: started.elapsed(),
            longest_pause: checkpoint.longest_pause,
            locked: checkpoint.locked,
        })),
        (Err(e), _) => Err(format!("{}: {e}", path.display())),
        (Ok(_), None) => Err(format!("{}: no checkpoint taken", path.display())),
    }
}

/// `mmgen status --checkpoint DIR`: where the proof whose checkpoint is in
/// `dir` stood at its last save, read without loading its facts (the checksum
/// is checked, so the file is read through once), while it runs or after; with
/// `classes`, how far each first guess's classes were solved too (the facts of
/// those classes read from the file).
pub fn status(dir: &Path, json: bool, classes: bool) -> Outcome {
    let path = file(dir);
    let in_file = |e: String| format!("{}: {e}", path.display());
    let opened = File::open(&path).map_err(|e| in_file(e.to_string()))?;
    let summary = match classes {
        true => generator::checkpoint::summary_with_classes(opened),
        false => generator::checkpoint::summary(opened),
    };
    let summary = summary.map_err(in_file)?;
    let board = summary.board;
    let standing = summary.standing.as_ref();
    // A run that never reported progress (`--progress never`) worked out no
    // floors, so its checkpoint kept none: say so rather than "at least 0".
    let shown = standing.filter(|s| !s.firsts.is_empty());
    let code = |index: u32| board.code(index).map(|c| board.display(c).to_string());
    let mut out = std::io::stdout().lock();
    if json {
        let json = serde_json::json!({
            "pegs": board.pegs(),
            "colors": board.colors(),
            "repeat": board.repeat(),
            "consistent_only": summary.candidates_only,
            "certified": summary.certified,
            "proven_sets": summary.sets,
            "positions_searched": standing.map(|s| s.earlier),
            "best_total": standing.and_then(|s| s.best),
            "best_first": standing.and_then(|s| s.best_first).and_then(code),
            "lower_bound": shown.map(|s| s.floor),
            "first_guesses": shown.map(|s| (s.firsts.iter())
                .map(|&(guess, least)| serde_json::json!({"guess": code(guess), "least_total": least}))
                .collect::<Vec<_>>()),
            "classes_solved": shown.filter(|s| !s.solved.is_empty()).map(|s| (s.firsts.iter().zip(&s.solved))
                .map(|(&(guess, _), solved)| serde_json::json!({
                    "guess": code(guess),
                    "classes": solved.classes,
                    "of_classes": solved.of_classes,
                    "secrets": solved.secrets,
                    "of_secrets": solved.of_secrets,
                    "open": solved.open,
                }))
                .collect::<Vec<_>>()),
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "checkpoint   {}: {}{}, {} proven sets{}",
        path.display(),
        board.name(),
        if summary.candidates_only {
            " (guesses from the codes still possible)"
        } else {
            ""
        },
        summary.sets,
        if summary.certified {
            ", with a certificate"
        } else {
            ""
        }
    )?;
    let Some(standing) = standing else {
        writeln!(
            out,
            "standing     not kept (saved by a build before checkpoints kept it); a resumed run shows it"
        )?;
        return Ok(());
    };
    writeln!(
        out,
        "searched     {} positions, its runs together up to this save",
        standing.earlier
    )?;
    if shown.is_none() {
        let best = match (standing.best, standing.best_first.and_then(code)) {
            (Some(total), Some(first)) => format!("best total {total}, first guess {first}"),
            _ => "no complete tree yet".into(),
        };
        writeln!(
            out,
            "proven       no floor kept (its runs showed none: they ran with --progress never); {best}"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "proven       total at least {}, {}",
        standing.floor,
        best_words(standing)
    )?;
    writeln!(out, "  {}", firsts_line(board, standing))?;
    if let Some(line) = solved_line(board, standing) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}
