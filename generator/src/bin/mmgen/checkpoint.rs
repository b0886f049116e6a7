//! `mmgen --checkpoint DIR`: an exact search saves what it has proven, atomically
//! and often, and a rerun resumes from it (see the exact search's checkpoint docs).

use generator::output::write_owned;
use generator::strategy::Strategy;
use std::path::{Path, PathBuf};

/// The checkpoint file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("checkpoint.mmc")
}

/// Loads the checkpoint in `dir` into `strategy`, if there is one: the number of
/// proven sets it held (0 for a first run). A damaged or foreign one is an error.
pub fn resume(strategy: &dyn Strategy, dir: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = file(dir);
    match std::fs::read(&path) {
        Ok(bytes) => strategy
            .resume(&bytes)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Saves `strategy`'s checkpoint into `dir`.
pub fn save(strategy: &dyn Strategy, dir: &Path) -> Result<(), String> {
    match strategy.checkpoint() {
        Some(bytes) => write_owned(&file(dir), &bytes).map_err(|e| e.to_string()),
        None => Ok(()),
    }
}
