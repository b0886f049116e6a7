//! A proof's checkpoint folder: an exact search saves what it has proven, atomically
//! and often, and a rerun resumes from it (the layout: the exact search's
//! checkpoint docs). `mmgen --checkpoint DIR` keeps one for a whole board, and
//! `mmgen solve-class --checkpoint-every` one per work item, so that an item longer
//! than a session goes on where it stopped.
//!
//! A save writes a temporary file beside the checkpoint, flushes it to disk and
//! renames it over the old one, so a run killed at any moment (`kill -9` during a
//! save included) leaves the previous checkpoint or the new one whole; the
//! temporary file a killed save leaves is removed by the next run.
//!
//! Beside it, `seconds` says how long the runs that saved it searched, up to their
//! last save: a run resumed from it counts them with its own, so a work item
//! records the time its whole search took (`mmgen status` fits its projection
//! to those times), less what was searched after the last save and searched
//! again. A run cut off between writing the checkpoint and `seconds` leaves the
//! count of the save before: short by one period at most.
//!
//! Also read without resuming: its board, its facts' count and where the proof
//! stood at the save, and how far each first guess's classes were solved
//! (`mmgen status --checkpoint`).

pub use crate::exact::{summary, summary_with_classes, Summary};
use crate::strategy::{Proof, Strategy};
use lookup::Board;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The checkpoint file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("checkpoint.mmc")
}

/// The file in `dir` that says how long the runs that saved its checkpoint
/// searched, in seconds (text).
fn seconds_file(dir: &Path) -> PathBuf {
    dir.join("seconds")
}

/// What a run loaded from its checkpoint (nothing on a first run).
#[derive(Clone, Copy, Debug)]
pub struct Resumed {
    /// Proven sets loaded.
    pub sets: usize,
    /// The checkpoint file's size.
    pub bytes: u64,
    /// Reading and loading it.
    pub took: Duration,
    /// How long the runs before searched, up to the last save that recorded it
    /// (0 if none did: a first run, or a checkpoint of a build before 2026-12-01).
    pub seconds: f64,
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
    let seconds = match sets {
        0 => 0.0,
        _ => recorded_seconds(dir)?.unwrap_or(0.0),
    };
    Ok(Resumed {
        sets,
        bytes,
        took: started.elapsed(),
        seconds,
    })
}

/// How long the runs that saved the checkpoint in `dir` searched, as its
/// `seconds` says (`None` if there is none).
pub fn recorded_seconds(dir: &Path) -> Result<Option<f64>, String> {
    let path = seconds_file(dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => Ok(Some(seconds)),
        _ => Err(format!(
            "{}: not a number of seconds (it says how long the runs before searched; \
             remove it to count from this run)",
            path.display()
        )),
    }
}

/// Removes the temporary files of saves that were killed (`checkpoint.mmc.tmp-HOST-PID`,
/// gigabytes each on a long proof, and `seconds.tmp-HOST-PID`). A run that could
/// not remove one goes on.
fn remove_killed_saves(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("checkpoint.mmc.tmp-") || name.starts_with("seconds.tmp-") {
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
/// at all), streamed into the file, then `seconds`, how long the search has
/// taken by now in all its runs; `None` for strategies without one.
pub fn save(strategy: &dyn Strategy, dir: &Path, seconds: f64) -> Result<Option<Saved>, String> {
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
    let saved = match (written, taken) {
        (Ok(bytes), Some(checkpoint)) => Saved {
            sets_bytes: bytes,
            took: started.elapsed(),
            longest_pause: checkpoint.longest_pause,
            locked: checkpoint.locked,
        },
        (Err(e), _) => return Err(format!("{}: {e}", path.display())),
        (Ok(_), None) => return Err(format!("{}: no checkpoint taken", path.display())),
    };
    let path = seconds_file(dir);
    lookup::replace::bytes(&path, format!("{seconds:.3}\n").as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(saved))
}

/// The certificate of a proof that keeps its checkpoints in `dir`, to be renamed
/// to `target` once the proof is done: kept in `dir` as `certificate.partial`
/// while the proof runs, and taken up again where the checkpoint says when a
/// run resumes (the checkpoint, loaded next, rewinds it to its position, or
/// refuses a start without one).
pub fn certificate(
    dir: &Path,
    target: &Path,
    board: Board,
    candidates_only: bool,
) -> Result<Proof, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let partial = dir.join("certificate.partial");
    match file(dir).exists() && partial.exists() {
        true => Proof::reopen(target, &partial, board),
        false => Proof::create(target, Some(&partial), board, candidates_only),
    }
    .map_err(|e| format!("cannot write the certificate {}: {e}", target.display()))
}

/// Puts a plan's item's certificate, finished at `target` by a run cut off before
/// it wrote its item, back in the checkpoint folder `dir` as its partial, so that
/// the next run goes on from the checkpoint (which rewinds it, its bytes checked)
/// as if it had never been finished, where before it could only ask for a new
/// folder. Only for an item's own certificate (kept in its run's folder): a
/// certificate a user named is never taken back.
pub fn take_back(dir: &Path, target: &Path) -> Result<(), String> {
    let partial = dir.join("certificate.partial");
    if file(dir).exists() && !partial.exists() && target.exists() {
        std::fs::rename(target, &partial).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    Ok(())
}

/// Set once the work is done. Helper threads (progress, log, checkpoints) sleep on
/// it rather than poll, so a quick run is not held up by their naps.
#[derive(Default)]
pub struct Done {
    flag: Mutex<bool>,
    wake: Condvar,
}

impl Done {
    pub fn set(&self) {
        *self.flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.wake.notify_all();
    }

    /// Sleeps for `timeout` or until the work is done; whether it is.
    pub fn wait(&self, timeout: Duration) -> bool {
        let flag = self.flag.lock().unwrap_or_else(PoisonError::into_inner);
        let (flag, _) = (self.wake)
            .wait_timeout_while(flag, timeout, |done| !*done)
            .unwrap_or_else(PoisonError::into_inner);
        *flag
    }
}

/// Runs `tick` every `period` until the work is `done`.
pub fn every(period: Duration, done: &Done, mut tick: impl FnMut()) {
    while !done.wait(period) {
        tick();
    }
}
